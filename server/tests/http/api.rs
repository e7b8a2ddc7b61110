//! The endpoints, one test per endpoint and status, on each database.
//! Expected numbers are worked out by hand from the bundled rates
//! (cli/data/rates.json) and the spec's formulas:
//! `net = fromAmount × multiplier − minerFee`, ExactOut required input
//! `⌈(toAmount + minerFee) / multiplier⌉₈`.

use serde_json::{json, Value};

use crate::common::{
    as_read, assert_error, databases, float_body, order_body, Server, BEST, RATES, TO_ADDRESS,
};

/// Ruling 51: the rates unexpired now, each as the file has it (the
/// bundled file's `4f0e…-expired` rate expired in 2023).
#[test]
fn rates_are_served_unexpired_as_the_file_has_them() {
    for db in databases() {
        let server = Server::start(&db, &[]);
        let answer = server.get("/v3/pairs/BTC_ETH/rates");
        assert_eq!(answer.status, 200);
        let mut file: Vec<Value> = serde_json::from_str(RATES).unwrap();
        file.retain(|rate| rate["id"] != "4f0e2c1a-expired-0000-8d9e-aa11bb22cc33");
        assert_eq!(file.len(), 6);
        assert_eq!(answer.body, Value::Array(file));
        assert_error(&server.get("/v3/pairs/BTC_SOL/rates"), 404, "NOT_FOUND");
    }
}

#[test]
fn every_request_but_healthz_needs_an_app_name() {
    for db in databases() {
        let server = Server::start(&db, &[]);
        for path in [
            "/v3/pairs/BTC_ETH/rates",
            "/v3/orders/ord_00000000000000000000000000000000",
            "/nowhere",
        ] {
            let answer = server.call("GET", path, &[], None);
            assert_eq!(answer.status, 401, "{path}");
            assert_eq!(
                answer.body,
                json!({"status": 401, "code": "UNAUTHORIZED", "details": "missing authentication"})
            );
        }
        let health = server.call("GET", "/healthz", &[], None);
        assert_eq!(
            (health.status, &health.body),
            (200, &json!({"status": "ok"}))
        );
    }
}

#[test]
fn the_route_endpoint_ranks_and_explains() {
    let db = &databases()[0];
    let server = Server::start(db, &[]);
    let answer = server.get("/v3/pairs/BTC_ETH/route?fromAmount=0.5");
    assert_eq!(answer.status, 200);
    let body = answer.body;
    assert_eq!(body["mode"], "ExactIn");
    assert_eq!(body["routes"][0]["rateId"], BEST);
    assert_eq!(body["routes"][0]["netOutput"], "16.598402285");
    // Ruling 50: the chosen rate holds until its expiry in the sample,
    // 2100-01-01T00:00:00Z (nothing can overtake it before).
    assert_eq!(body["validUntil"], 4_102_444_800_000_u64);
    let expired = body["rejected"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["rateId"] == "4f0e2c1a-expired-0000-8d9e-aa11bb22cc33")
        .unwrap();
    assert_eq!(expired["reason"], "EXPIRED");
    // ExactOut for 10 ETH at the estimate: ⌈(10 + 0.00215) / 33.20110457⌉₈ = 0.30125956.
    let answer =
        server.get("/v3/pairs/BTC_ETH/route?fromAmount=0.30125956&toAmount=10&swapMode=ExactOut");
    assert_eq!(answer.status, 200);
    assert_eq!(answer.body["routes"][0]["requiredInput"], "0.30125956");
}

#[test]
fn the_route_endpoint_answers_no_route_with_its_limits() {
    let db = &databases()[0];
    let server = Server::start(db, &[]);
    // Below every min: the smallest is 0.0005 (rate 7c9e…).
    let answer = server.get("/v3/pairs/BTC_ETH/route?fromAmount=0.0001");
    assert_error(&answer, 400, "AMOUNT_BELOW_LIMIT");
    assert_eq!(answer.body["min"], "0.0005");
    // Above every max: the largest is 25 (rate q1w2…).
    let answer = server.get("/v3/pairs/BTC_ETH/route?fromAmount=100000");
    assert_error(&answer, 400, "AMOUNT_ABOVE_LIMIT");
    assert_eq!(answer.body["max"], "25");
    assert_error(
        &server.get("/v3/pairs/BTC_SOL/route?fromAmount=1"),
        404,
        "NOT_FOUND",
    );
    assert_error(
        &server.get("/v3/pairs/BTC_ETH/route"),
        400,
        "INVALID_REQUEST",
    );
    assert_error(
        &server.get("/v3/pairs/BTC_ETH/route?fromAmount=0"),
        400,
        "INVALID_AMOUNT",
    );
}

#[test]
fn a_fixed_order_is_created_stored_and_read_back() {
    for db in databases() {
        let server = Server::start(&db, &[]);
        let answer = server.post("/v3/orders", &order_body("0.5", "16.5", "ExactIn"));
        assert_eq!(answer.status, 201, "{answer:?}");
        let order = &answer.body;
        assert_eq!(order["status"], "awaiting");
        assert_eq!(order["rateId"], BEST);
        assert_eq!(order["amount"], json!({"assetId": "BTC", "value": "0.5"}));
        // ⌊16.598402285⌋₈
        assert_eq!(order["toAmount"]["value"], "16.59840228");
        assert_eq!(order["toAddress"], TO_ADDRESS);
        let id = order["id"].as_str().unwrap();
        // Read back: the same order, `toAmount: null` until the deposit is
        // analyzed (ruling 51).
        let again = server.get(&format!("/v3/orders/{id}"));
        assert_eq!((again.status, &again.body), (200, &as_read(&answer.text)));
        // An id of the right form that names nothing.
        let missing = server.get("/v3/orders/ord_0123456789abcdef0123456789abcdef");
        assert_error(&missing, 404, "NOT_FOUND");
    }
}

#[test]
fn an_exact_out_order_s_amount_is_the_required_input() {
    let db = &databases()[0];
    let server = Server::start(db, &[]);
    // ⌈(10 + 0.00215) / 33.20110457⌉₈ = 0.30125956 at an estimate of 0.3.
    let answer = server.post("/v3/orders", &order_body("0.3", "10", "ExactOut"));
    assert_eq!(answer.status, 201, "{answer:?}");
    assert_eq!(answer.body["rateId"], BEST);
    assert_eq!(answer.body["amount"]["value"], "0.30125956");
}

#[test]
fn a_floating_order_is_priced_by_the_best_route() {
    for db in databases() {
        let server = Server::start(&db, &[]);
        let answer = server.post("/v3/orders/float", &float_body("0.5", "16.5"));
        assert_eq!(answer.status, 201, "{answer:?}");
        assert_eq!(
            answer.body["amount"],
            json!({"assetId": "BTC", "value": "0.5"})
        );
        // The stand-in quote: ⌊0.5 × 33.20110457 − 0.00215⌋₈.
        assert_eq!(
            answer.body["toAmount"],
            json!({"assetId": "ETH", "value": "16.59840228"})
        );
        let id = answer.body["id"].as_str().unwrap();
        assert_eq!(
            server.get(&format!("/v3/orders/{id}")).body,
            as_read(&answer.text)
        );
        // A floating body takes no swapMode.
        let mut body: Value = serde_json::from_slice(&float_body("0.5", "16.5")).unwrap();
        body["swapMode"] = json!("ExactIn");
        let answer = server.post("/v3/orders/float", body.to_string().as_bytes());
        assert_error(&answer, 400, "UNSUPPORTED_SWAP_MODE");
        // A quote the server did not issue.
        let mut body: Value = serde_json::from_slice(&float_body("0.5", "16.5")).unwrap();
        body["quoteId"] = json!("q-1");
        let answer = server.post("/v3/orders/float", body.to_string().as_bytes());
        assert_error(&answer, 400, "INVALID_REQUEST");
        // No route at that amount.
        let answer = server.post("/v3/orders/float", &float_body("0.0001", "1"));
        assert_error(&answer, 400, "AMOUNT_BELOW_LIMIT");
    }
}

#[test]
fn order_errors_have_their_codes_and_statuses() {
    let db = &databases()[0];
    let server = Server::start(db, &[]);
    let answer = server.post("/v3/orders", b"{not json");
    assert_error(&answer, 400, "INVALID_REQUEST");
    assert!(answer.body["details"].as_str().unwrap().contains("body"));
    assert_eq!(server.post("/v3/orders", b"[1, 2]").status, 400);
    let zero = json!({"pairId": "BTC_ETH", "fromAmount": "0.5", "fromAddress": null,
        "toAmount": "16", "toAddress": "0x0000000000000000000000000000000000000000"});
    let answer = server.post("/v3/orders", zero.to_string().as_bytes());
    assert_error(&answer, 403, "RESTRICTED_ADDRESS");
    let answer = server.post("/v3/orders", &order_body("0.0001", "1", "ExactIn"));
    assert_error(&answer, 400, "AMOUNT_BELOW_LIMIT");
    assert_eq!(answer.body["min"], "0.0005");
    let other_pair = json!({"pairId": "BTC_SOL", "fromAmount": "0.5", "fromAddress": null,
        "toAmount": "1", "toAddress": "4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T"});
    let answer = server.post("/v3/orders", other_pair.to_string().as_bytes());
    assert_error(&answer, 404, "NOT_FOUND");
}

#[test]
fn a_body_over_64_kib_is_413() {
    let db = &databases()[0];
    let server = Server::start(db, &[]);
    let mut body = order_body("0.5", "16.5", "ExactIn");
    body.splice(
        1..1,
        format!("\"pad\":\"{}\",", "x".repeat(64 * 1024)).into_bytes(),
    );
    assert_error(&server.post("/v3/orders", &body), 413, "PAYLOAD_TOO_LARGE");
    // The server still answers.
    assert_eq!(server.get("/v3/pairs/BTC_ETH/rates").status, 200);
}

#[test]
fn the_deposit_transaction_id_is_set_once_and_stored() {
    for db in databases() {
        let server = Server::start(&db, &[]);
        let created = server.post("/v3/orders", &order_body("0.5", "16.5", "ExactIn"));
        let path = format!("/v3/orders/{}", created.body["id"].as_str().unwrap());
        let update = json!({"transactionId": "0x9fc76417374aa880d4449a1f7f31ec597f00b1f6f3dd2d66f4c9c6c445836d8b"});
        let answer = server.patch(&path, &update);
        assert_eq!((answer.status, &answer.body), (200, &update));
        let stored = server.get(&path);
        assert_eq!(stored.body["fromTransactionId"], update["transactionId"]);
        let answer = server.patch(&path, &update);
        assert_error(&answer, 412, "PRECONDITION_FAILED");
        assert_eq!(answer.body["orderId"], created.body["id"]);
        // After a restart, still set.
        drop(server);
        let server = Server::start(&db, &[]);
        let stored = server.get(&path);
        assert_eq!(stored.body["fromTransactionId"], update["transactionId"]);
        let answer = server.patch("/v3/orders/ord_0123456789abcdef0123456789abcdef", &update);
        assert_error(&answer, 404, "NOT_FOUND");
    }
}

#[test]
fn concurrent_updates_of_one_order_set_it_once() {
    for db in databases() {
        let server = Server::start(&db, &[]);
        let created = server.post("/v3/orders", &order_body("0.5", "16.5", "ExactIn"));
        let path = format!("/v3/orders/{}", created.body["id"].as_str().unwrap());
        let statuses: Vec<u16> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..16)
                .map(|n| {
                    let (server, path) = (&server, &path);
                    scope.spawn(move || {
                        let update = json!({"transactionId": format!("0x{n:064x}")});
                        server.patch(path, &update).status
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        assert_eq!(
            statuses.iter().filter(|s| **s == 200).count(),
            1,
            "{statuses:?}"
        );
        assert_eq!(
            statuses.iter().filter(|s| **s == 412).count(),
            15,
            "{statuses:?}"
        );
    }
}

/// Two server processes on one database serve the same orders: created on
/// one, read and updated on the other, replayed on either.
#[test]
fn two_servers_on_one_database_serve_the_same_orders() {
    for db in databases() {
        let (a, b) = (Server::start(&db, &[]), Server::start(&db, &[]));
        let key = crate::common::key();
        let body = order_body("0.5", "16.5", "ExactIn");
        let created = a.post_keyed("/v3/orders", &key, &body);
        assert_eq!(created.status, 201);
        let path = format!("/v3/orders/{}", created.body["id"].as_str().unwrap());
        assert_eq!(b.get(&path).body, as_read(&created.text), "{}", db.name());
        assert_eq!(b.post_keyed("/v3/orders", &key, &body).text, created.text);
        let update = json!({"transactionId": "0xabc"});
        assert_eq!(b.patch(&path, &update).status, 200);
        assert_error(&a.patch(&path, &update), 412, "PRECONDITION_FAILED");
        assert_eq!(a.get(&path).body["fromTransactionId"], "0xabc");
    }
}

#[test]
fn the_route_endpoint_splits_an_amount_above_every_max() {
    let db = &databases()[0];
    let server = Server::start(db, &[]);
    // 30 BTC, above the largest max (25, q1w2…). Over q1w2…'s ×33, ch@nge
    // adds 0.0989… × 12.5 − 0.0001 and the zero-fee spring variant of d5b1…
    // 0.1422… × 8.33028657 at their maxes; q1w2… takes the rest, 9.16971343.
    let answer = server.get("/v3/pairs/BTC_ETH/route?fromAmount=30&split=true");
    assert_eq!(answer.status, 200);
    assert_eq!(answer.body["routes"], json!([]));
    assert_eq!(
        answer.body["split"],
        json!({
            "legs": [
                {"rateId": "d5b1a8f2-6c3e-4e8b-9f0a-2b7c4d1e9a63:spring-2026",
                 "fromAmount": "8.33028657", "netOutput": "276.0839146315803193588938", "stop": "max"},
                {"rateId": "ch@nge(N0w)!&$-7f3k9q2m4x8v1z5",
                 "fromAmount": "12.50000000", "netOutput": "413.736489620967175", "stop": "max"},
                {"rateId": "q1w2e3r4t5y6u7i8o9p0",
                 "fromAmount": "9.16971343", "netOutput": "302.60029319", "stop": "remainder"}
            ],
            "netOutput": "992.4206974425474943588938",
            "gainBps": null
        })
    );
    // A single route serves 0.5: no split asked for a gain, `null`.
    let answer = server.get("/v3/pairs/BTC_ETH/route?fromAmount=0.5&split=true");
    assert_eq!(answer.status, 200);
    assert_eq!(answer.body["split"], Value::Null);
    // Beyond what three orders hold (25 + 12.5 + 8.33…): the single pair's error.
    let answer = server.get("/v3/pairs/BTC_ETH/route?fromAmount=100000&split=true");
    assert_error(&answer, 400, "AMOUNT_ABOVE_LIMIT");
    assert_error(
        &server.get("/v3/pairs/BTC_ETH/route?fromAmount=30&splitLegs=4&split=true"),
        400,
        "INVALID_REQUEST",
    );
    assert_error(
        &server.get("/v3/pairs/BTC_ETH/route?fromAmount=30&minGainBps=5"),
        400,
        "INVALID_REQUEST",
    );
}

#[test]
fn the_route_endpoints_take_the_price_guard() {
    let db = &databases()[0];
    let server = Server::start(db, &[]);
    // Every BTC_ETH multiplier is about 33: 1 bp around 1000 refuses them all.
    let answer =
        server.get("/v3/pairs/BTC_ETH/route?fromAmount=0.5&maxDeviationBps=1&reference=1000");
    assert_error(&answer, 502, "PRICE_OUTLIER");
    // 10000 bps around 33.2 admits every honest rate: the unguarded best.
    let answer =
        server.get("/v3/pairs/BTC_ETH/route?fromAmount=0.5&maxDeviationBps=10000&reference=33.2");
    assert_eq!(answer.status, 200);
    assert_eq!(answer.body["routes"][0]["rateId"], BEST);
    // The split and each of its legs apply it too: 30 BTC (above every
    // max, 25) splits unguarded; guarded no leg is left, and the answer is
    // the single pair's "no route".
    let answer = server.get("/v3/pairs/BTC_ETH/route?fromAmount=30&split=true");
    assert_eq!(answer.status, 200);
    assert!(answer.body["split"].is_object(), "{:?}", answer.body);
    let answer = server
        .get("/v3/pairs/BTC_ETH/route?fromAmount=30&split=true&maxDeviationBps=1&reference=1000");
    assert_error(&answer, 400, "AMOUNT_ABOVE_LIMIT");
    // And the chains, leg by leg.
    let answer =
        server.get("/v3/route?from=BTC&to=ETH&fromAmount=0.5&maxDeviationBps=1&reference=1000");
    assert_error(&answer, 502, "PRICE_OUTLIER");
    // Bad guard parameters are the client's.
    assert_error(
        &server.get("/v3/pairs/BTC_ETH/route?fromAmount=0.5&reference=33"),
        400,
        "INVALID_REQUEST",
    );
    assert_error(
        &server.get("/v3/pairs/BTC_ETH/route?fromAmount=0.5&maxDeviationBps=-1"),
        400,
        "INVALID_REQUEST",
    );
}
