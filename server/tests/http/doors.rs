//! No open doors: unguessable ids, every error in the JSON model with
//! echoes cut short, slow and idle clients shut out without starving real
//! ones, and a graceful stop on SIGTERM.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use serde_json::json;

use crate::common::{assert_error, databases, order_body, Server};

/// Order ids carry 128 random bits: `ord_` and 32 hex digits, never
/// repeated, and two in a row share no structure (they differ in about half
/// their bits; fewer than 32 of 128 differing has probability below 1e-9).
#[test]
fn order_ids_are_128_random_bits() {
    let db = &databases()[0];
    let server = Server::start(db, &[]);
    let body = order_body("0.5", "16.5", "ExactIn");
    let ids: Vec<u128> = (0..50)
        .map(|_| {
            let answer = server.post("/v3/orders", &body);
            let id = answer.body["id"].as_str().unwrap().to_owned();
            assert_eq!(id.len(), 36, "{id}");
            let hex = id.strip_prefix("ord_").unwrap();
            assert!(hex
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)));
            u128::from_str_radix(hex, 16).unwrap()
        })
        .collect();
    for pair in ids.windows(2) {
        let differing = (pair[0] ^ pair[1]).count_ones();
        assert!(differing >= 32, "{:032x} and {:032x}", pair[0], pair[1]);
    }
    let mut sorted = ids.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(sorted.len(), ids.len());
}

#[test]
fn every_error_is_json_and_echoes_are_cut() {
    let db = &databases()[0];
    let server = Server::start(db, &[]);
    let app = [("App-Name", "server-test")];
    // 405, with the methods that are allowed.
    let answer = server.call("DELETE", "/v3/orders", &app, None);
    assert_error(&answer, 405, "METHOD_NOT_ALLOWED");
    let answer = server.call(
        "PUT",
        "/v3/orders/ord_0123456789abcdef0123456789abcdef",
        &app,
        None,
    );
    assert_error(&answer, 405, "METHOD_NOT_ALLOWED");
    // 404 for an unknown endpoint.
    assert_error(&server.get("/v4/nothing"), 404, "NOT_FOUND");
    // Invalid UTF-8 in a path parameter, and in a query (decoded with
    // U+FFFD: an amount that is not a number).
    assert_error(&server.get("/v3/orders/%FF%FE"), 400, "INVALID_REQUEST");
    assert_error(
        &server.get("/v3/pairs/%C3%28/rates"),
        400,
        "INVALID_REQUEST",
    );
    assert_error(
        &server.get("/v3/pairs/BTC_ETH/route?fromAmount=%FF"),
        400,
        "INVALID_AMOUNT",
    );
    // A 60 KB id: 404, echoed cut to 64 characters and `…`.
    let long = "x".repeat(60_000);
    let answer = server.get(&format!("/v3/orders/{long}"));
    assert_error(&answer, 404, "NOT_FOUND");
    assert_eq!(
        answer.body["details"],
        format!("no order {}…", "x".repeat(64))
    );
    let answer = server.get(&format!("/v3/pairs/{long}/rates"));
    assert_error(&answer, 404, "NOT_FOUND");
    assert!(answer.text.len() < 300, "{}", answer.text.len());
    // A JSON rejection that would quote a 60 KB value: details cut to 512.
    let created = server.post("/v3/orders", &order_body("0.5", "16.5", "ExactIn"));
    let path = format!("/v3/orders/{}", created.body["id"].as_str().unwrap());
    let answer = server.patch(&path, &json!({"transactionId": 5, "x": long}));
    assert_error(&answer, 400, "INVALID_REQUEST");
    let answer = server.patch(&path, &json!({"transactionId": long}));
    assert_eq!(answer.status, 400, "{answer:?}");
    assert!(answer.body["details"].as_str().unwrap().chars().count() <= 513);
    assert!(answer.text.len() < 1_000, "{}", answer.text.len());
    let answer = server.patch(&path, &json!([]));
    assert_error(&answer, 400, "INVALID_REQUEST");
}

/// Opens `n` connections that send nothing, or half a header block.
fn idle_connections(addr: &str, n: usize) -> Vec<TcpStream> {
    (0..n)
        .map(|i| {
            let mut stream = TcpStream::connect(addr).unwrap();
            if i % 2 == 1 {
                stream
                    .write_all(b"GET /v3/pairs/BTC_ETH/rates HTTP/1.1\r\nHost: x\r\nApp-Na")
                    .unwrap();
            }
            stream
        })
        .collect()
}

/// `true` once the server has closed `stream` (end of stream or reset).
fn closed_by_server(stream: &mut TcpStream, within: Duration) -> bool {
    stream.set_read_timeout(Some(within)).unwrap();
    let mut buffer = [0_u8; 1024];
    loop {
        match stream.read(&mut buffer) {
            Ok(0) => return true,
            Ok(_) => {} // a 408 written before closing
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                return false
            }
            Err(_) => return true,
        }
    }
}

/// More idle and half-sent connections than the server's connection limit:
/// each is closed after the header timeout, and a real request made behind
/// them is answered (it waits in the backlog until a slot frees).
#[test]
fn idle_and_half_sent_connections_are_closed_and_real_requests_answered() {
    let db = &databases()[0];
    let server = Server::start(db, &["--header-timeout", "1000", "--max-connections", "40"]);
    let started = Instant::now();
    let mut idle = idle_connections(&server.addr, 60);
    let answer = server.get("/v3/pairs/BTC_ETH/rates");
    let waited = started.elapsed();
    assert_eq!(answer.status, 200);
    assert!(waited < Duration::from_secs(8), "{waited:?}");
    for stream in &mut idle {
        assert!(closed_by_server(stream, Duration::from_secs(5)));
    }
    // Under the limit, real requests are not held up at all.
    let started = Instant::now();
    assert_eq!(server.get("/v3/pairs/BTC_ETH/rates").status, 200);
    assert!(started.elapsed() < Duration::from_secs(1));
}

/// The probe that starved today's main: open-file limit 256, 260 idle
/// connections. The server lowers its connection cap to fit the limit (so it
/// never runs out of descriptors), closes the idle ones after the header
/// timeout, and answers a real request made behind them.
#[test]
fn with_256_files_260_idle_connections_do_not_starve_real_requests() {
    let db = &databases()[0];
    let server = Server::start_with_file_limit(db, &["--header-timeout", "1000"], 256);
    let started = Instant::now();
    let mut idle = idle_connections(&server.addr, 260);
    let answer = server.get("/v3/pairs/BTC_ETH/rates");
    assert_eq!(answer.status, 200);
    assert!(
        started.elapsed() < Duration::from_secs(8),
        "{:?}",
        started.elapsed()
    );
    for stream in &mut idle {
        assert!(closed_by_server(stream, Duration::from_secs(5)));
    }
    let created = server.post("/v3/orders", &order_body("0.5", "16.5", "ExactIn"));
    assert_eq!(created.status, 201);
}

/// A keep-alive connection that goes quiet after a request is closed after
/// the header timeout too.
#[test]
fn an_idle_keep_alive_connection_is_closed() {
    let db = &databases()[0];
    let server = Server::start(db, &["--header-timeout", "800"]);
    let mut stream = TcpStream::connect(&server.addr).unwrap();
    stream
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        .unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    let mut first = [0_u8; 12];
    stream.read_exact(&mut first).unwrap();
    assert_eq!(&first, b"HTTP/1.1 200");
    let started = Instant::now();
    assert!(closed_by_server(&mut stream, Duration::from_secs(5)));
    assert!(started.elapsed() < Duration::from_secs(4));
}

/// A body that stops arriving is answered 408 in the JSON model after the
/// body timeout, and the connection closes.
#[test]
fn a_body_that_stops_arriving_is_408() {
    let db = &databases()[0];
    let server = Server::start(db, &["--body-timeout", "700"]);
    let mut stream = TcpStream::connect(&server.addr).unwrap();
    stream
        .write_all(
            b"POST /v3/orders HTTP/1.1\r\nHost: x\r\nApp-Name: t\r\n\
              Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"pairId\":",
        )
        .unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    let started = Instant::now();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    assert!(started.elapsed() < Duration::from_secs(4));
    assert!(response.starts_with("HTTP/1.1 408"), "{response}");
    let body = response.split("\r\n\r\n").nth(1).unwrap();
    let body: serde_json::Value = serde_json::from_str(body).unwrap();
    assert_eq!(body["status"], 408);
    assert_eq!(body["code"], "REQUEST_TIMEOUT");
}

/// A declared Content-Length over 64 KiB is 413 at once, before any of the
/// body arrives (not after the body timeout).
#[test]
fn a_declared_length_over_the_cap_is_413_at_once() {
    let db = &databases()[0];
    let server = Server::start(db, &["--body-timeout", "5000"]);
    let mut stream = TcpStream::connect(&server.addr).unwrap();
    stream
        .write_all(
            b"POST /v3/orders HTTP/1.1\r\nHost: x\r\nApp-Name: t\r\n\
              Content-Length: 10000000000\r\n\r\nx",
        )
        .unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(3)))
        .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    assert!(response.starts_with("HTTP/1.1 413"), "{response}");
    assert!(
        response.contains("\"code\":\"PAYLOAD_TOO_LARGE\""),
        "{response}"
    );
}

/// A request not answered within the request timeout is 503 in the JSON
/// model (here its body is still arriving: the body timeout is longer).
#[test]
fn a_request_past_the_request_timeout_is_503() {
    let db = &databases()[0];
    let server = Server::start(db, &["--request-timeout", "500", "--body-timeout", "5000"]);
    let mut stream = TcpStream::connect(&server.addr).unwrap();
    stream
        .write_all(
            b"POST /v3/orders HTTP/1.1\r\nHost: x\r\nApp-Name: t\r\n\
              Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{",
        )
        .unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(4)))
        .unwrap();
    let mut response = vec![0_u8; 4096];
    let n = stream.read(&mut response).unwrap();
    let response = String::from_utf8_lossy(&response[..n]);
    assert!(response.starts_with("HTTP/1.1 503"), "{response}");
    let body: serde_json::Value =
        serde_json::from_str(response.split("\r\n\r\n").nth(1).unwrap()).unwrap();
    assert_eq!(body["status"], 503);
    assert_eq!(body["code"], "SERVICE_UNAVAILABLE");
}

/// SIGTERM while a request is in flight: the request finishes (its order is
/// answered 201 and stored), new connections are refused, the process exits
/// 0; a restart serves the order.
#[test]
fn sigterm_lets_requests_in_flight_finish() {
    for db in databases() {
        let server = Server::start(&db, &[]);
        let addr = server.addr.clone();
        let body = order_body("0.5", "16.5", "ExactIn");
        let mut stream = TcpStream::connect(&addr).unwrap();
        let head = format!(
            "POST /v3/orders HTTP/1.1\r\nHost: x\r\nApp-Name: t\r\nConnection: close\r\n\
             Content-Type: application/json\r\nContent-Length: {}\r\n\r\n",
            body.len()
        );
        stream.write_all(head.as_bytes()).unwrap();
        stream.write_all(&body[..10]).unwrap();
        // The request is in flight (its body half sent): stop the server.
        std::thread::sleep(Duration::from_millis(200));
        let pid = server.child.id();
        let kill = std::process::Command::new("kill")
            .args(["-TERM", &pid.to_string()])
            .status()
            .unwrap();
        assert!(kill.success());
        std::thread::sleep(Duration::from_millis(300));
        assert!(
            TcpStream::connect(&addr).is_err(),
            "still accepting after SIGTERM"
        );
        stream.write_all(&body[10..]).unwrap();
        let mut response = String::new();
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        stream.read_to_string(&mut response).unwrap();
        assert!(response.starts_with("HTTP/1.1 201"), "{response}");
        let order: serde_json::Value =
            serde_json::from_str(response.split("\r\n\r\n").nth(1).unwrap()).unwrap();
        let mut server = server;
        let exit = server.child.wait().unwrap();
        assert!(exit.success(), "{exit:?}");
        std::mem::forget(server);
        let server = Server::start(&db, &[]);
        let stored = server.get(&format!("/v3/orders/{}", order["id"].as_str().unwrap()));
        let mut read = order.clone();
        read["toAmount"] = serde_json::Value::Null;
        assert_eq!((stored.status, &stored.body), (200, &read));
    }
}

/// A database that stays locked past SQLite's busy timeout (5 s) is
/// overload, not a fault: 503 SERVICE_UNAVAILABLE in the JSON model, nothing
/// stored, and the retry with the same key creates the order once the lock
/// is gone. Reads go on meanwhile (WAL).
#[test]
fn a_locked_database_is_503_and_the_retry_succeeds() {
    let dir = crate::common::TempDir::new();
    let db = crate::common::Db::Sqlite(dir);
    let server = Server::start(&db, &[]);
    let body = order_body("0.5", "16.5", "ExactIn");
    let before = server.post("/v3/orders", &body);
    assert_eq!(before.status, 201);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    sqlx::any::install_default_drivers();
    let mut lock = runtime
        .block_on(<sqlx::AnyConnection as sqlx::Connection>::connect(
            &db.url(),
        ))
        .unwrap();
    runtime
        .block_on(sqlx::query("BEGIN IMMEDIATE").execute(&mut lock))
        .unwrap();
    let key = crate::common::key();
    let started = Instant::now();
    let answer = server.post_keyed("/v3/orders", &key, &body);
    assert_error(&answer, 503, "SERVICE_UNAVAILABLE");
    assert!(
        started.elapsed() >= Duration::from_secs(4),
        "{:?}",
        started.elapsed()
    );
    let id = before.body["id"].as_str().unwrap();
    assert_eq!(
        server.get(&format!("/v3/orders/{id}")).body,
        crate::common::as_read(&before.text)
    );
    runtime
        .block_on(sqlx::query("ROLLBACK").execute(&mut lock))
        .unwrap();
    let retried = server.post_keyed("/v3/orders", &key, &body);
    assert_eq!(retried.status, 201);
    let rows = crate::common::query_texts(
        &db,
        "SELECT id FROM orders WHERE idempotency_key = $1",
        &key,
    );
    assert_eq!(rows, [retried.body["id"].as_str().unwrap()]);
}
