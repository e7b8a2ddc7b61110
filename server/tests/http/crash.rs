//! kill -9 while orders are being created: after a restart, every order that
//! was answered 201 is there with the same body (none lost), every row is a
//! whole order (none half-written), and a request whose answer was lost in
//! the crash is settled by retrying it with its Idempotency-Key.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use crate::common::{agent, call, databases, key, order_body, query_texts, Server};

/// Creates orders from 8 threads with keys `{run}-{worker}-{n}` until the
/// server is killed (after 1.5 s): `(answered (key, 201 body), unanswered keys)`.
fn create_until_killed(server: Server, run: &str) -> (Vec<(String, String)>, Vec<String>) {
    let base = server.base.clone();
    let stop = AtomicBool::new(false);
    let answered = Mutex::new(Vec::new());
    let unanswered = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for worker in 0..8 {
            let (base, stop, answered, unanswered) = (&base, &stop, &answered, &unanswered);
            scope.spawn(move || {
                let agent = agent();
                let body = order_body("0.5", "16.5", "ExactIn");
                for n in 0.. {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let key = format!("{run}-{worker}-{n}");
                    let request = ureq::http::Request::post(format!("{base}/v3/orders"))
                        .header("App-Name", "crash-test")
                        .header("Idempotency-Key", key.as_str())
                        .header("Content-Type", "application/json")
                        .body(body.clone())
                        .unwrap();
                    match agent.run(request) {
                        Ok(mut response) if response.status() == 201 => {
                            match response.body_mut().read_to_string() {
                                Ok(text) => answered.lock().unwrap().push((key, text)),
                                Err(_) => unanswered.lock().unwrap().push(key),
                            }
                        }
                        Ok(response) => panic!("unexpected {}", response.status()),
                        Err(_) => {
                            unanswered.lock().unwrap().push(key);
                            break;
                        }
                    }
                }
            });
        }
        std::thread::sleep(Duration::from_millis(1500));
        server.kill();
        stop.store(true, Ordering::Relaxed);
    });
    (
        answered.into_inner().unwrap(),
        unanswered.into_inner().unwrap(),
    )
}

#[test]
fn kill_9_loses_no_answered_order_and_half_writes_none() {
    for db in databases() {
        let run = key();
        let (answered, unanswered) = create_until_killed(Server::start(&db, &[]), &run);
        assert!(
            answered.len() >= 20,
            "only {} orders before the kill",
            answered.len()
        );
        eprintln!(
            "{}: killed after {} answered orders ({} in flight)",
            db.name(),
            answered.len(),
            unanswered.len()
        );
        let server = Server::start(&db, &[]);
        for (_, text) in &answered {
            let order: serde_json::Value = serde_json::from_str(text).unwrap();
            let stored = server.get(&format!("/v3/orders/{}", order["id"].as_str().unwrap()));
            assert_eq!(
                (stored.status, &stored.body),
                (200, &crate::common::as_read(text))
            );
        }
        // Every row of this run is a whole order, under its own id.
        let prefix = format!("{run}-%");
        let ids = query_texts(
            &db,
            "SELECT id FROM orders WHERE idempotency_key LIKE $1",
            &prefix,
        );
        let bodies = query_texts(
            &db,
            "SELECT body FROM orders WHERE idempotency_key LIKE $1",
            &prefix,
        );
        assert!(ids.len() >= answered.len());
        for (id, body) in ids.iter().zip(&bodies) {
            let order: serde_json::Value = serde_json::from_str(body).unwrap();
            assert_eq!(order["id"], id.as_str());
            assert_eq!(order["status"], "awaiting");
        }
        // A request whose answer was lost: its retry creates the order or
        // answers the one the crash left, never two.
        let agent = agent();
        let body = order_body("0.5", "16.5", "ExactIn");
        for key in &unanswered {
            let headers = [
                ("App-Name", "crash-test"),
                ("Idempotency-Key", key.as_str()),
            ];
            let answer = call(
                &agent,
                &server.base,
                "POST",
                "/v3/orders",
                &headers,
                Some(&body),
            );
            assert_eq!(answer.status, 201);
            let rows = query_texts(&db, "SELECT id FROM orders WHERE idempotency_key = $1", key);
            assert_eq!(rows, [answer.body["id"].as_str().unwrap()]);
        }
    }
}
