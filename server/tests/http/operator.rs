//! What an operator sees and does: the request log (one JSON line per
//! request, no secrets, no bodies), Prometheus metrics, `/healthz` when the
//! database is down, rates reloaded on SIGHUP, every error's reason kept.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::common::{assert_error, databases, key, order_body, Server, TempDir, RATES};

#[test]
fn each_request_is_one_json_line_without_secrets_or_bodies() {
    let db = &databases()[0];
    let server = Server::start(db, &[]);
    let secret_key = format!("key-{}", key());
    let marker = "0x52908400098527886E0F7030069857D2E4169EE7";
    let created = server.call(
        "POST",
        "/v3/orders",
        &[("App-Name", "wallet-log"), ("Idempotency-Key", &secret_key)],
        Some(&order_body("0.5", "16.5", "ExactIn")),
    );
    assert_eq!(created.status, 201);
    let id = created.body["id"].as_str().unwrap().to_owned();
    server.call(
        "GET",
        &format!("/v3/orders/{id}"),
        &[("App-Name", "wallet-log")],
        None,
    );
    server.call("GET", "/v3/pairs/BTC_ETH/rates", &[], None);
    std::thread::sleep(Duration::from_millis(200));
    let lines = server.log_json();
    let requests: Vec<&Value> = lines.iter().filter(|l| l["message"] == "request").collect();
    assert_eq!(requests.len(), 3, "{lines:?}");
    let post = requests[0];
    assert_eq!(
        (
            &post["method"],
            &post["route"],
            &post["status"],
            &post["app"],
            &post["order"]
        ),
        (
            &json!("POST"),
            &json!("/v3/orders"),
            &json!(201),
            &json!("wallet-log"),
            &json!(id)
        )
    );
    assert!(post["timestamp"].as_str().unwrap().starts_with("20"));
    assert!(post["duration_us"].as_u64().is_some());
    assert_eq!(requests[1]["route"], "/v3/orders/{id}");
    assert_eq!(requests[1]["order"], id.as_str());
    assert_eq!(
        (&requests[2]["status"], &requests[2]["app"]),
        (&json!(401), &json!(""))
    );
    let log = server.log.lock().unwrap().join("\n");
    assert!(!log.contains(&secret_key), "the key was logged");
    assert!(!log.contains(marker), "the body was logged");
    assert!(!log.contains("16.5"), "the body was logged");
}

/// The text of `GET /metrics`.
fn metrics(server: &Server) -> String {
    let answer = server.call("GET", "/metrics", &[], None);
    assert_eq!(answer.status, 200);
    assert!(answer
        .content_type
        .starts_with("application/openmetrics-text"));
    answer.text
}

#[test]
fn metrics_count_requests_orders_replays_and_the_database() {
    for db in databases() {
        let server = Server::start(&db, &[]);
        let key = key();
        let body = order_body("0.5", "16.5", "ExactIn");
        server.post_keyed("/v3/orders", &key, &body);
        server.post_keyed("/v3/orders", &key, &body);
        server.get("/v3/pairs/BTC_ETH/route?fromAmount=0.0001");
        // Made-up methods share one label (no client grows the metrics).
        for method in ["BREW", "PROPFIND", "X-1"] {
            let mut stream = TcpStream::connect(&server.addr).unwrap();
            let head = format!(
                "{method} /v3/orders HTTP/1.1\r\nHost: x\r\nApp-Name: m\r\nConnection: close\r\n\r\n"
            );
            stream.write_all(head.as_bytes()).unwrap();
            let mut answer = String::new();
            stream.read_to_string(&mut answer).unwrap();
            assert!(answer.starts_with("HTTP/1.1 405"), "{answer}");
        }
        let text = metrics(&server);
        assert!(!text.contains("BREW"), "{text}");
        for line in [
            r#"swaproute_http_requests_total{method="POST",route="/v3/orders",status="201"} 2"#,
            r#"swaproute_http_requests_total{method="GET",route="/v3/pairs/{pair_id}/route",status="400"} 1"#,
            r#"swaproute_orders_created_total{flow="fixed"} 1"#,
            "swaproute_idempotent_replays_total 1",
            r#"swaproute_db_pool_connections{state="in_use"}"#,
            r#"swaproute_db_pool_connections{state="idle"}"#,
            "swaproute_db_pool_max_connections 16",
            r#"swaproute_cpu_jobs{state="running"} 0"#,
            r#"swaproute_connections{state="cap"}"#,
            "swaproute_rates 7",
            r#"swaproute_http_requests_total{method="other",route="/v3/orders",status="405"} 3"#,
        ] {
            assert!(text.contains(line), "{}: no {line}\n{text}", db.name());
        }
        for family in [
            r#"swaproute_http_request_duration_seconds_bucket{le="0.001",method="POST",route="/v3/orders",status="201"}"#,
            r#"swaproute_db_query_duration_seconds_count{query="insert"} 1"#,
            r#"swaproute_db_query_duration_seconds_count{query="by_key"} 2"#,
        ] {
            assert!(text.contains(family), "{}: no {family}\n{text}", db.name());
        }
        assert!(text.trim_end().ends_with("# EOF"));
    }
}

/// A TCP relay to the database that can go silent: while `down`, it passes
/// nothing either way (the database hangs, as a partitioned host does).
struct Relay {
    port: u16,
    down: Arc<AtomicBool>,
}

impl Relay {
    fn to(target: String) -> Relay {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let down = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&down);
        std::thread::spawn(move || {
            for client in listener.incoming() {
                let Ok(client) = client else { return };
                let Ok(server) = TcpStream::connect(&target) else {
                    continue;
                };
                for (from, to) in [
                    (client.try_clone().unwrap(), server.try_clone().unwrap()),
                    (server, client),
                ] {
                    let flag = Arc::clone(&flag);
                    std::thread::spawn(move || pump(from, to, &flag));
                }
            }
        });
        Relay { port, down }
    }
}

fn pump(mut from: TcpStream, mut to: TcpStream, down: &AtomicBool) {
    let mut buffer = [0_u8; 16 * 1024];
    loop {
        let Ok(n) = from.read(&mut buffer) else {
            return;
        };
        if n == 0 {
            return;
        }
        while down.load(Ordering::SeqCst) {
            std::thread::sleep(Duration::from_millis(20));
        }
        if to.write_all(&buffer[..n]).is_err() {
            return;
        }
    }
}

/// PostgreSQL stops answering: `/healthz` says 503 within a second (it took
/// 10 s), and 200 again once it answers.
#[test]
fn healthz_answers_503_within_a_second_when_the_database_is_down() {
    let Some(crate::common::Db::Postgres(url)) = databases().into_iter().nth(1) else {
        eprintln!("SWAPROUTE_TEST_POSTGRES_URL is unset: skipped");
        return;
    };
    let (prefix, rest) = url.split_once('@').unwrap();
    let (host, path) = rest.split_once('/').unwrap();
    let relay = Relay::to(host.to_owned());
    let through = format!("{prefix}@127.0.0.1:{}/{path}", relay.port);
    let server = Server::start(&crate::common::Db::Postgres(through), &[]);
    let health = || {
        let started = Instant::now();
        let answer = server.call("GET", "/healthz", &[], None);
        (answer, started.elapsed())
    };
    assert_eq!(health().0.status, 200);
    relay.down.store(true, Ordering::SeqCst);
    for _ in 0..3 {
        let (answer, took) = health();
        assert_error(&answer, 503, "SERVICE_UNAVAILABLE");
        assert!(took < Duration::from_secs(1), "{took:?}");
    }
    relay.down.store(false, Ordering::SeqCst);
    let deadline = Instant::now() + Duration::from_secs(15);
    while health().0.status != 200 {
        assert!(Instant::now() < deadline, "healthz never recovered");
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// SIGHUP reads the rates again and swaps them in whole; a bad file keeps
/// the old rates and the log says why.
#[test]
fn sighup_reloads_the_rates_and_a_bad_file_keeps_the_old_ones() {
    let db = &databases()[0];
    let dir = TempDir::new();
    let path = dir.0.join("rates.json");
    std::fs::write(&path, RATES).unwrap();
    let server = Server::start(db, &["--rates", path.to_str().unwrap()]);
    let count = |server: &Server| {
        server
            .get("/v3/pairs/BTC_ETH/rates")
            .body
            .as_array()
            .unwrap()
            .len()
    };
    assert_eq!(count(&server), 6);
    // One rate fewer.
    let mut rates: Vec<Value> = serde_json::from_str(RATES).unwrap();
    rates.retain(|rate| rate["id"] != "q1w2e3r4t5y6u7i8o9p0");
    std::fs::write(&path, serde_json::to_string(&rates).unwrap()).unwrap();
    server.signal("HUP");
    let deadline = Instant::now() + Duration::from_secs(5);
    while count(&server) != 5 {
        assert!(Instant::now() < deadline, "not reloaded");
        std::thread::sleep(Duration::from_millis(50));
    }
    // 25 BTC was q1w2…'s alone: now above every max.
    assert_error(
        &server.get("/v3/pairs/BTC_ETH/route?fromAmount=25"),
        400,
        "AMOUNT_ABOVE_LIMIT",
    );
    // A file that is not a rates response: refused, the five rates stay.
    std::fs::write(&path, "[{\"id\": 1}").unwrap();
    server.signal("HUP");
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let refused = server.log_json().iter().any(|line| {
            line["message"]
                .as_str()
                .is_some_and(|m| m.contains("reload refused"))
                && line["error"]
                    .as_str()
                    .is_some_and(|e| e.contains("rates.json"))
        });
        if refused {
            break;
        }
        assert!(Instant::now() < deadline, "no refusal in the log");
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(count(&server), 5);
    let text = metrics(&server);
    assert!(text.contains(r#"swaproute_rates_reloads_total{result="ok"} 1"#));
    assert!(text.contains(r#"swaproute_rates_reloads_total{result="refused"} 1"#));
}

/// A 60 KB `transactionId` says why it is refused (it said "Bad Request").
#[test]
fn every_error_keeps_its_reason() {
    let db = &databases()[0];
    let server = Server::start(db, &[]);
    let created = server.post("/v3/orders", &order_body("0.5", "16.5", "ExactIn"));
    let path = format!("/v3/orders/{}", created.body["id"].as_str().unwrap());
    let long = "x".repeat(60_000);
    let answer = server.patch(&path, &json!({ "transactionId": long }));
    assert_error(&answer, 400, "INVALID_REQUEST");
    let details = answer.body["details"].as_str().unwrap();
    assert!(
        details.contains("transactionId") && details.contains("256"),
        "{details}"
    );
    // A malformed one in a JSON that serde echoes: the reason after the echo.
    let answer = server.patch(&path, &json!({ "transactionId": 5, "pad": long }));
    assert_error(&answer, 400, "INVALID_REQUEST");
    assert!(answer.text.len() < 1_000);
    let answer = server.patch(&path, &json!({ "transactionId": format!("{long} x") }));
    assert_error(&answer, 400, "INVALID_REQUEST");
    let details = answer.body["details"].as_str().unwrap();
    assert!(details.contains("transactionId"), "{details}");
}
