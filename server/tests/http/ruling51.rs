//! Ruling 51 and the payout address check (ruling 46): stale rates are the
//! server's 503, the quotes endpoint and its own maximum, floating orders
//! above every rate's max, `toAmount: null` on a read, addresses checked
//! against the asset records. Numbers by hand from cli/data/rates.json.

use std::process::Command;

use serde_json::{json, Value};

use crate::common::{
    assert_error, databases, float_body, order_body, Server, TempDir, NOW, TO_ADDRESS,
};

/// Every bundled rate expires at 4102444800000 or earlier (expired at
/// `expiry <= now`).
const ALL_EXPIRED: &str = "4102444800000";

#[test]
fn when_every_rate_has_expired_the_server_says_its_data_is_stale() {
    for db in databases() {
        let server = Server::start(&db, &["--now", ALL_EXPIRED]);
        for answer in [
            server.get("/v3/pairs/BTC_ETH/rates"),
            server.get("/v3/pairs/BTC_ETH/route?fromAmount=0.5"),
            server.get("/v3/pairs/BTC_ETH/quotes?amount=0.5"),
            server.get("/v3/route?from=BTC&to=ETH&fromAmount=0.5"),
            server.post("/v3/orders", &order_body("0.5", "16.5", "ExactIn")),
            server.post("/v3/orders/float", &float_body("0.5", "16.5")),
        ] {
            assert_error(&answer, 503, "STALE_RATES");
            let details = answer.body["details"].as_str().unwrap();
            assert!(
                details.contains("2100-01-01T00:00:00.000Z"),
                "{} {details}",
                db.name()
            );
        }
        // Nothing was stored, and the database still answers.
        assert_eq!(server.call("GET", "/healthz", &[], None).status, 200);
    }
}

/// `GET /v3/pairs/{pairId}/quotes?amount=`: the spec's Quote resource
/// (string amounts, a 64-hex id, epoch-ms expiry): the best route's output
/// at 0.5 BTC, ⌊0.5 × 33.20110457 − 0.00215⌋₈ = 16.59840228; at 30 BTC,
/// above every rate's max (25), the quote's own maximum (4 × each rate's)
/// applies and the zero-fee spring variant of d5b1… (max 4 × 8.33028657)
/// prices it: ⌊30 × 33.14218692377834⌋₈ = 994.26560771. Good for 30 s.
#[test]
fn the_quotes_endpoint_answers_a_stand_in_quote_with_its_own_maximum() {
    let db = &databases()[0];
    let server = Server::start(db, &[]);
    let answer = server.get("/v3/pairs/BTC_ETH/quotes?amount=0.5");
    assert_eq!(answer.status, 200, "{}", answer.text);
    let id = answer.body["id"].as_str().unwrap();
    assert!(
        id.len() == 64 && id.bytes().all(|b| b.is_ascii_hexdigit()),
        "{id}"
    );
    assert_eq!(
        answer.body,
        json!({"id": id, "pairId": "BTC_ETH",
               "fromAmount": {"assetId": "BTC", "value": "0.5"},
               "toAmount": {"assetId": "ETH", "value": "16.59840228"},
               "expiry": NOW + 30_000})
    );
    let above = server.get("/v3/pairs/BTC_ETH/quotes?amount=30");
    assert_eq!(above.status, 200, "{}", above.text);
    assert_eq!(
        above.body["toAmount"],
        json!({"assetId": "ETH", "value": "994.26560771"})
    );
    assert_eq!(above.body["sponsoredByCampaignId"], "spring-2026-zero-fee");
    // The quote's own maximum: 4 × 25.
    let beyond = server.get("/v3/pairs/BTC_ETH/quotes?amount=100.00000001");
    assert_error(&beyond, 400, "AMOUNT_ABOVE_LIMIT");
    assert_eq!(beyond.body["max"], "100");
    assert_eq!(
        server.get("/v3/pairs/BTC_ETH/quotes?amount=100").status,
        200
    );
    assert_error(
        &server.get("/v3/pairs/BTC_ETH/quotes"),
        400,
        "INVALID_REQUEST",
    );
    // Not an amount, zero, or finer than the asset (BTC: 8 places).
    for amount in ["abc", "0", "-1", "0.000000001"] {
        assert_error(
            &server.get(&format!("/v3/pairs/BTC_ETH/quotes?amount={amount}")),
            400,
            "INVALID_AMOUNT",
        );
    }
    assert_error(
        &server.get("/v3/pairs/BTC_SOL/quotes?amount=1"),
        404,
        "NOT_FOUND",
    );
}

/// A floating order above every rate's max is planned against the quote
/// (before: 400 AMOUNT_ABOVE_LIMIT, max 25); a fixed one is still refused.
/// An order naming the quote it was shown (`quoteId`) is planned against it.
#[test]
fn a_floating_order_above_every_rate_s_max_plans_against_the_quote() {
    for db in databases() {
        let server = Server::start(&db, &[]);
        let created = server.post("/v3/orders/float", &float_body("30", "990"));
        assert_eq!(created.status, 201, "{} {}", db.name(), created.text);
        assert_eq!(
            (&created.body["amount"], &created.body["toAmount"]),
            (
                &json!({"assetId": "BTC", "value": "30"}),
                &json!({"assetId": "ETH", "value": "994.26560771"})
            )
        );
        let fixed = server.post("/v3/orders", &order_body("30", "990", "ExactIn"));
        assert_error(&fixed, 400, "AMOUNT_ABOVE_LIMIT");
        // Finer than BTC's 8 places: the body's field is named.
        let fine = server.post("/v3/orders/float", &float_body("0.500000001", "16"));
        assert_error(&fine, 400, "INVALID_AMOUNT");
        assert!(
            fine.body["details"]
                .as_str()
                .unwrap()
                .starts_with("fromAmount"),
            "{fine:?}"
        );
        // The quote a client was shown, named in its order.
        let quote = server.get("/v3/pairs/BTC_ETH/quotes?amount=30");
        let mut body: Value = serde_json::from_slice(&float_body("30", "990")).unwrap();
        body["quoteId"] = quote.body["id"].clone();
        let named = server.post("/v3/orders/float", body.to_string().as_bytes());
        assert_eq!(named.status, 201, "{}", named.text);
        assert_eq!(named.body["toAmount"], quote.body["toAmount"]);
        // Read back: toAmount null until the deposit is analyzed.
        let id = created.body["id"].as_str().unwrap();
        let read = server.get(&format!("/v3/orders/{id}"));
        assert_eq!(read.body["toAmount"], Value::Null);
        assert_eq!(read.body["amount"], created.body["amount"]);
    }
}

/// Ruling 46: the payout address is checked against its asset's network
/// (ETH: an EVM address with a valid checksum), with the bundled records or
/// `--assets`; records that miss a pair's asset refuse the start.
#[test]
fn payout_addresses_are_checked_against_the_asset_records() {
    for db in databases() {
        let server = Server::start(&db, &[]);
        for (to, path) in [
            ("not-an-address", "/v3/orders"),
            ("not-an-address", "/v3/orders/float"),
            ("bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq", "/v3/orders"),
            // A wrong EIP-55 checksum (the last letter's case flipped).
            ("0x52908400098527886E0F7030069857D2E4169Ee7", "/v3/orders"),
        ] {
            let body = json!({"pairId": "BTC_ETH", "fromAmount": "0.5", "fromAddress": null,
                              "toAmount": "16", "toAddress": to});
            let answer = server.post(path, body.to_string().as_bytes());
            assert_error(&answer, 400, "INVALID_ADDRESS");
            assert!(
                answer.body["details"]
                    .as_str()
                    .unwrap()
                    .starts_with("toAddress"),
                "{answer:?}"
            );
        }
        let good = order_body("0.5", "16.5", "ExactIn");
        assert_eq!(server.post("/v3/orders", &good).status, 201);
        assert!(TO_ADDRESS.starts_with("0x"));
    }
    // An --assets file of the operator's: its records are used.
    let dir = TempDir::new();
    let assets = dir.0.join("assets.json");
    std::fs::write(
        &assets,
        r#"[{"id":"BTC","name":"Bitcoin","symbol":"BTC","decimals":8,"network":"bitcoin"},
            {"id":"ETH","name":"Ether","symbol":"ETH","decimals":6,"network":"ethereum"}]"#,
    )
    .unwrap();
    let db = &databases()[0];
    let server = Server::start(db, &["--assets", assets.to_str().unwrap()]);
    let answer = server.post("/v3/orders", &order_body("0.3", "10.1234567", "ExactOut"));
    assert_error(&answer, 400, "INVALID_AMOUNT");
    // Records that miss one of a pair's assets: the operator's error, at start.
    std::fs::write(
        &assets,
        r#"[{"id":"BTC","name":"Bitcoin","symbol":"BTC","decimals":8,"network":"bitcoin"}]"#,
    )
    .unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_swaproute-server"))
        .args(["--listen", "127.0.0.1:0", "--database", &db.arg()])
        .args(["--assets", assets.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("--assets") && stderr.contains("BTC_ETH") && stderr.contains("ETH"),
        "{stderr}"
    );
    assert!(output.stdout.is_empty());
    // No --assets, and a pair the bundled records do not hold: the server
    // starts, and its log says the pair's addresses are not checked.
    let usdt = dir.0.join("btc_usdt.json");
    std::fs::write(
        &usdt,
        crate::common::RATES
            .replace("BTC_ETH", "BTC_USDT")
            .replace("\"ETH\"", "\"USDT\""),
    )
    .unwrap();
    let server = Server::start(db, &["--rates", usdt.to_str().unwrap()]);
    assert_eq!(server.get("/v3/pairs/BTC_USDT/rates").status, 200);
    let warned = server.log_json().iter().any(|line| {
        line["level"] == "WARN"
            && line["pair"] == "BTC_USDT"
            && line["message"]
                .as_str()
                .is_some_and(|m| m.contains("not checked"))
    });
    assert!(warned, "{:?}", server.log_json());
}

/// `PATCH` moves `updatedAt` to the update's time; `createdAt` stays.
#[test]
fn an_update_moves_updated_at() {
    for db in databases() {
        let created = {
            let server = Server::start(&db, &[]);
            server.post("/v3/orders", &order_body("0.5", "16.5", "ExactIn"))
        };
        assert_eq!(created.body["updatedAt"], "2026-07-25T17:20:00.000Z");
        let later = (NOW + 90_500).to_string();
        let server = Server::start(&db, &["--now", &later]);
        let path = format!("/v3/orders/{}", created.body["id"].as_str().unwrap());
        assert_eq!(
            server
                .patch(&path, &json!({"transactionId": "0xabc"}))
                .status,
            200
        );
        let read = server.get(&path);
        assert_eq!(read.body["updatedAt"], "2026-07-25T17:21:30.500Z");
        assert_eq!(read.body["createdAt"], created.body["createdAt"]);
        assert_eq!(read.body["fromTransactionId"], "0xabc");
    }
}
