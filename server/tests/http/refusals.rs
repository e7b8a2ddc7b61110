//! Orders the library's plan refuses (issue 29): a missed slippage bound
//! (ruling 33) and ExactOut amounts outside every rate's limits (ruling 34,
//! strict by default), on each database. A refused creation stores nothing:
//! its Idempotency-Key finds no row, and the fresh SQLite file has none.
//! Numbers are worked out by hand from the bundled rates
//! (cli/data/rates.json).

use serde_json::{json, Value};

use crate::common::{databases, key, order_body, query_texts, Db, Server, TO_ADDRESS};

fn order_body_with(from: &str, to: &str, mode: &str, slippage: &Value) -> Vec<u8> {
    json!({"pairId": "BTC_ETH", "fromAmount": from, "fromAddress": null, "toAmount": to,
           "toAddress": TO_ADDRESS, "swapMode": mode, "slippage": slippage})
    .to_string()
    .into_bytes()
}

/// Posts `body` with a fresh Idempotency-Key and returns `(status, body)`
/// after checking that no row was stored under that key.
fn refused(server: &Server, db: &Db, body: &[u8]) -> (u16, Value) {
    let key = key();
    let answer = server.post_keyed("/v3/orders", &key, body);
    let rows = query_texts(db, "SELECT id FROM orders WHERE idempotency_key = $1", &key);
    assert!(rows.is_empty(), "{}: stored {rows:?}", db.name());
    (answer.status, answer.body)
}

/// On SQLite (a fresh file per test), the table holds exactly `ids`
/// (PostgreSQL's test database is shared with the tests running alongside).
fn assert_rows(db: &Db, ids: &[&str]) {
    if let Db::Sqlite(_) = db {
        let rows = query_texts(db, "SELECT id FROM orders WHERE id <> $1", "");
        assert_eq!(rows, ids);
    }
}

/// Issue 29, reproduction 1: 0.5 BTC → 20 ETH at slippage 0 was 201 with an
/// order promising 16.598 ETH. The best route promises
/// ⌊0.5 × 33.20110457 − 0.00215⌋₈ = 16.59840228 < 20 × (100 − 0) / 100.
#[test]
fn an_order_that_misses_its_slippage_bound_is_409() {
    for db in databases() {
        let server = Server::start(&db, &[]);
        let answer = refused(
            &server,
            &db,
            &order_body_with("0.5", "20", "ExactIn", &json!(0)),
        );
        assert_eq!(
            answer,
            (
                409,
                json!({"status": 409, "code": "SLIPPAGE_EXCEEDED",
                "details": "slippage exceeded: the best route promises 16.59840228 ETH, below the least 20 ETH allowed (toAmount 20 ETH less 0%)",
                "bound": "20", "available": "16.59840228"})
            ),
            "{}",
            db.name()
        );
        // ExactOut: ⌈(10 + 0.00215) / 33.20110457⌉₈ = 0.30125956 > 0.3 × 100 / 100.
        let (status, body) = refused(
            &server,
            &db,
            &order_body_with("0.3", "10", "ExactOut", &json!("0")),
        );
        assert_eq!(status, 409, "{body}");
        assert_eq!(
            (&body["code"], &body["bound"], &body["available"]),
            (
                &json!("SLIPPAGE_EXCEEDED"),
                &json!("0.3"),
                &json!("0.30125956")
            )
        );
        // The same order at 1% is within the bound: 0.3 × 101 / 100 = 0.303.
        let created = server.post(
            "/v3/orders",
            &order_body_with("0.3", "10", "ExactOut", &json!("1")),
        );
        assert_eq!(created.status, 201, "{}", created.text);
        assert_eq!(created.body["amount"]["value"], "0.30125956");
        assert_rows(&db, &[created.body["id"].as_str().unwrap()]);
    }
}

/// Issue 29, reproductions 2 and 3: ExactOut 10^20 and 100000 ETH were 201
/// with amounts of 3011947984717304843.57 and 3011.9 BTC on a rate whose max
/// is 3.5. By default the server's plans are strict (ruling 34); the error
/// names the required input, never fromAmount, and the toAmount that works:
/// d5b1 (max 8.33028657) serves up to ⌊8.33028657 × 33.14218692377834 −
/// 0.00019192⌋₁₈ = 276.083722711580319358 ETH (the server's asset records
/// give ETH 18 decimals, so the amounts that work are on ETH's grid) and
/// needs ⌈100000.00019192 / 33.14218692377834⌉₈ = 3017.30240138 BTC.
#[test]
fn exact_out_orders_outside_every_limit_are_refused_by_default() {
    for db in databases() {
        let server = Server::start(&db, &[]);
        for to in ["100000000000000000000", "100000"] {
            let (status, body) = refused(&server, &db, &order_body("0.5", to, "ExactOut"));
            assert_eq!(
                (status, &body["code"], &body["max"]),
                (400, &json!("AMOUNT_ABOVE_LIMIT"), &json!("8.33028657")),
                "{to}: {body}"
            );
            let details = body["details"].as_str().unwrap();
            assert!(!details.contains("fromAmount"), "{details}");
            assert!(
                details.ends_with("the largest toAmount that works is 276.083722711580319358 ETH"),
                "{details}"
            );
        }
        let (_, body) = refused(&server, &db, &order_body("0.5", "100000", "ExactOut"));
        assert!(body["details"].as_str().unwrap().contains(
            "the nearest route needs 3017.30240138 BTC, above its maximum 8.33028657 BTC"
        ));
        // Below: 7c9e (min 0.0005) needs ⌈0.0001 / 32.98701122334455⌉₈ = 0.00000304
        // and serves from ⌊0.00049999 × 32.98701122334455⌋₁₈ + 10^-18 =
        // 0.016493175741560042 (ETH's 18 decimals, from the asset records).
        let answer = refused(&server, &db, &order_body("0.5", "0.0001", "ExactOut"));
        assert_eq!(
            answer,
            (
                400,
                json!({"status": 400, "code": "AMOUNT_BELOW_LIMIT",
                "details": "toAmount 0.0001 ETH needs less than every route's minimum: the nearest route needs 0.00000304 BTC, below its minimum 0.0005 BTC; the smallest toAmount that works is 0.016493175741560042 ETH",
                "min": "0.0005"})
            ),
            "{}",
            db.name()
        );
        assert_rows(&db, &[]);
    }
}
