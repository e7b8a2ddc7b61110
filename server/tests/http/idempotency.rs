//! Idempotency-Key on both creation endpoints: a retry gets the order the
//! first attempt created (same id, same bytes, one row), another body under
//! the same key is 409, concurrent retries create one order, and the key is
//! kept with the order across restarts.

use std::sync::Barrier;

use crate::common::{assert_error, databases, float_body, key, order_body, query_texts, Server};

fn rows_with_key(db: &crate::common::Db, key: &str) -> Vec<String> {
    query_texts(db, "SELECT id FROM orders WHERE idempotency_key = $1", key)
}

#[test]
fn a_retry_with_the_same_key_and_body_gets_the_same_order() {
    for db in databases() {
        let server = Server::start(&db, &[]);
        for (path, body) in [
            ("/v3/orders", order_body("0.5", "16.5", "ExactIn")),
            ("/v3/orders/float", float_body("0.5", "16.5")),
        ] {
            let key = key();
            let first = server.post_keyed(path, &key, &body);
            assert_eq!(first.status, 201, "{path} {first:?}");
            let again = server.post_keyed(path, &key, &body);
            assert_eq!((again.status, &again.text), (201, &first.text), "{path}");
            let ids = rows_with_key(&db, &key);
            assert_eq!(
                ids,
                [first.body["id"].as_str().unwrap()],
                "{} {path}",
                db.name()
            );
        }
        // Without a key, each POST is a new order.
        let body = order_body("0.5", "16.5", "ExactIn");
        let (a, b) = (
            server.post("/v3/orders", &body),
            server.post("/v3/orders", &body),
        );
        assert_eq!((a.status, b.status), (201, 201));
        assert_ne!(a.body["id"], b.body["id"]);
    }
}

#[test]
fn the_same_key_with_another_body_or_endpoint_is_409() {
    for db in databases() {
        let server = Server::start(&db, &[]);
        let key = key();
        let body = order_body("0.5", "16.5", "ExactIn");
        let first = server.post_keyed("/v3/orders", &key, &body);
        assert_eq!(first.status, 201);
        let other = order_body("0.6", "16.5", "ExactIn");
        assert_error(
            &server.post_keyed("/v3/orders", &key, &other),
            409,
            "IDEMPOTENCY_KEY_REUSED",
        );
        // The same bytes to the other endpoint are another request.
        let float = float_body("0.5", "16.5");
        let first_float = server.post_keyed("/v3/orders/float", &key, &float);
        assert_error(&first_float, 409, "IDEMPOTENCY_KEY_REUSED");
        // Still one row, and the first order is unchanged.
        assert_eq!(rows_with_key(&db, &key).len(), 1);
        let id = first.body["id"].as_str().unwrap();
        assert_eq!(
            server.get(&format!("/v3/orders/{id}")).body,
            crate::common::as_read(&first.text)
        );
    }
}

#[test]
fn a_refused_request_stores_nothing_under_its_key() {
    for db in databases() {
        let server = Server::start(&db, &[]);
        let key = key();
        let below = order_body("0.0001", "1", "ExactIn");
        assert_error(
            &server.post_keyed("/v3/orders", &key, &below),
            400,
            "AMOUNT_BELOW_LIMIT",
        );
        assert!(rows_with_key(&db, &key).is_empty());
        // The key is still free for a request that succeeds.
        let good = order_body("0.5", "16.5", "ExactIn");
        assert_eq!(server.post_keyed("/v3/orders", &key, &good).status, 201);
    }
}

#[test]
fn bad_keys_are_refused() {
    let db = &databases()[0];
    let server = Server::start(db, &[]);
    let body = order_body("0.5", "16.5", "ExactIn");
    let long = "k".repeat(256);
    for bad in ["", long.as_str(), "two words"] {
        let answer = server.post_keyed("/v3/orders", bad, &body);
        assert_error(&answer, 400, "INVALID_REQUEST");
        assert!(answer.body["details"]
            .as_str()
            .unwrap()
            .starts_with("Idempotency-Key"));
    }
    assert_eq!(
        server
            .post_keyed("/v3/orders", &"k".repeat(255), &body)
            .status,
        201
    );
}

#[test]
fn concurrent_retries_with_one_key_create_one_order() {
    for db in databases() {
        // Two server processes on one database, as when scaled out (SQLite:
        // two processes on one file, which SQLite allows too).
        let servers = [Server::start(&db, &[]), Server::start(&db, &[])];
        let key = key();
        let body = order_body("0.5", "16.5", "ExactIn");
        let barrier = Barrier::new(24);
        let answers: Vec<_> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..24)
                .map(|n| {
                    let (server, key, body, barrier) = (&servers[n % 2], &key, &body, &barrier);
                    scope.spawn(move || {
                        barrier.wait();
                        server.post_keyed("/v3/orders", key, body)
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        for answer in &answers {
            assert_eq!(
                (answer.status, &answer.text),
                (201, &answers[0].text),
                "{}",
                db.name()
            );
        }
        assert_eq!(rows_with_key(&db, &key).len(), 1, "{}", db.name());
    }
}

#[test]
fn keys_survive_a_restart() {
    for db in databases() {
        let key = key();
        let body = float_body("0.5", "16.5");
        let first = {
            let server = Server::start(&db, &[]);
            server.post_keyed("/v3/orders/float", &key, &body)
        };
        assert_eq!(first.status, 201);
        let server = Server::start(&db, &[]);
        let again = server.post_keyed("/v3/orders/float", &key, &body);
        assert_eq!((again.status, &again.text), (201, &first.text));
    }
}

/// Ruling 51: a key is one application's. Another application sending the
/// same key and body gets an order of its own (another id), each replays its
/// own, and a body the first used is no conflict for the second.
#[test]
fn keys_are_scoped_per_app_name() {
    for db in databases() {
        let server = Server::start(&db, &[]);
        let key = key();
        let body = order_body("0.5", "16.5", "ExactIn");
        let a = server.post_as("wallet-a", "/v3/orders", &key, &body);
        let b = server.post_as("wallet-b", "/v3/orders", &key, &body);
        assert_eq!((a.status, b.status), (201, 201), "{}", db.name());
        assert_ne!(a.body["id"], b.body["id"]);
        assert_eq!(
            server.post_as("wallet-a", "/v3/orders", &key, &body).text,
            a.text
        );
        assert_eq!(
            server.post_as("wallet-b", "/v3/orders", &key, &body).text,
            b.text
        );
        // Another body under a's key is a's conflict, and c's new order.
        let other = order_body("0.6", "16.5", "ExactIn");
        assert_error(
            &server.post_as("wallet-a", "/v3/orders", &key, &other),
            409,
            "IDEMPOTENCY_KEY_REUSED",
        );
        assert_eq!(
            server
                .post_as("wallet-c", "/v3/orders", &key, &other)
                .status,
            201
        );
        assert_eq!(rows_with_key(&db, &key).len(), 3);
    }
}

/// The public scenarios of the IETF draft (draft-ietf-httpapi-idempotency-key-header,
/// sections 2 and 2.7), with this server's documented deviations
/// (server/README.md).
#[test]
fn the_ietf_draft_scenarios() {
    for db in databases() {
        let server = Server::start(&db, &[]);
        let body = order_body("0.5", "16.5", "ExactIn");
        // The draft's syntax: an sf-string. Its content is the key, so the
        // quoted and bare forms are one key.
        let uuid = format!("8e03978e-40d5-43e8-bc93-{}", &key()[..12]);
        let quoted = format!("\"{uuid}\"");
        // First request: processed, 201, not a replay.
        let first = server.post_keyed("/v3/orders", &quoted, &body);
        assert_eq!(first.status, 201, "{}", db.name());
        assert_eq!(first.header("idempotent-replayed"), None);
        // Duplicate (same key, same payload): the stored answer, same status
        // and bytes, marked as a replay.
        let again = server.post_keyed("/v3/orders", &quoted, &body);
        assert_eq!((again.status, &again.text), (201, &first.text));
        assert_eq!(again.header("idempotent-replayed"), Some("true"));
        let bare = server.post_keyed("/v3/orders", &uuid, &body);
        assert_eq!((bare.status, &bare.text), (201, &first.text));
        // Same key, another payload: the draft's 422, here 409 (deviation 1).
        let other = order_body("0.7", "16.5", "ExactIn");
        assert_error(
            &server.post_keyed("/v3/orders", &quoted, &other),
            409,
            "IDEMPOTENCY_KEY_REUSED",
        );
        // An sf-string with escapes, and spaces (allowed inside quotes).
        let escaped = format!("\"a \\\"b\\\" \\\\ {}\"", key());
        assert_eq!(server.post_keyed("/v3/orders", &escaped, &body).status, 201);
        // Not an sf-string: a bad escape, text after the closing quote, an
        // unterminated string, an empty one.
        for bad in ["\"a\\b\"", "\"ab\"c", "\"abc", "\"\""] {
            let answer = server.post_keyed("/v3/orders", bad, &body);
            assert_error(&answer, 400, "INVALID_REQUEST");
            assert!(
                answer.body["details"]
                    .as_str()
                    .unwrap()
                    .starts_with("Idempotency-Key"),
                "{bad}: {answer:?}"
            );
        }
        // More than one Idempotency-Key field: the client MUST NOT; 400.
        let two = server.call(
            "POST",
            "/v3/orders",
            &[
                ("App-Name", "server-test"),
                ("Idempotency-Key", "one"),
                ("Idempotency-Key", "two"),
            ],
            Some(&body),
        );
        assert_error(&two, 400, "INVALID_REQUEST");
        // The key is optional here (deviation 3): without it each POST is a
        // new order, as the first test shows.
    }
}

/// The draft answers a retry made while the first request is still being
/// processed 409; this server makes it wait for the first and answers its
/// order (deviation 2): 16 simultaneous retries of one keyed float order,
/// one row, one answer.
#[test]
fn a_retry_while_the_first_is_in_flight_waits_for_it() {
    for db in databases() {
        let server = Server::start(&db, &[]);
        let key = key();
        let body = float_body("0.5", "16.5");
        let barrier = Barrier::new(16);
        let answers: Vec<_> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..16)
                .map(|_| {
                    let (server, key, body, barrier) = (&server, &key, &body, &barrier);
                    scope.spawn(move || {
                        barrier.wait();
                        server.post_keyed("/v3/orders/float", key, body)
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        for answer in &answers {
            assert_eq!((answer.status, &answer.text), (201, &answers[0].text));
        }
        assert_eq!(rows_with_key(&db, &key).len(), 1, "{}", db.name());
    }
}
