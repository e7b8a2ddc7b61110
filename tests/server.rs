//! The reference server (examples/server) over real HTTP: each test starts
//! it on `127.0.0.1:0` and drives it with an HTTP client, one test per
//! endpoint and status. Expected numbers are worked out by hand from the
//! bundled rates (examples/data/rates.json) and the spec's formulas:
//! `net = fromAmount × multiplier − minerFee`, ExactOut required input
//! `⌈(toAmount + minerFee) / multiplier⌉₈`.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    missing_docs
)]

#[path = "../examples/server/app.rs"]
#[allow(dead_code)]
mod app;

use serde_json::{json, Value};
use swaproute::{EpochMillis, RatesResponse};

const RATES: &str = include_str!("../examples/data/rates.json");
const NOW: u64 = 1_785_000_000_000;
/// The rate that wins at 0.5 BTC: 0.5 × 33.20110457 − 0.00215 = 16.598402285
/// (the sponsored and plain `d5b1…` rates give 16.5710…, the expired one is out).
const BEST: &str = "eyJwcm92aWRlciI6ImZpeGVkZmxvYXQiLCJwYWlyIjoiQlRDX0VUSCIsInRzIjoxNzg1MzMzOTE5MDAwfQ+/Zm9vYmFy==";
const TO_ADDRESS: &str = "0x52908400098527886E0F7030069857D2E4169EE7";

/// A running server and a client for it.
struct Running {
    base: String,
    agent: ureq::Agent,
    _runtime: tokio::runtime::Runtime,
}

fn start() -> Running {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    let rates: RatesResponse = serde_json::from_str(RATES).unwrap();
    let listener = runtime
        .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
        .unwrap();
    let addr = listener.local_addr().unwrap();
    let router = app::router(app::Server::new(rates, Some(EpochMillis::new(NOW))));
    runtime.spawn(async move { axum::serve(listener, router).await });
    let agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .into();
    Running {
        base: format!("http://{addr}"),
        agent,
        _runtime: runtime,
    }
}

/// `(status, body as JSON)`.
type Answer = (u16, Value);

impl Running {
    fn answer(mut response: ureq::http::Response<ureq::Body>) -> Answer {
        let status = response.status().as_u16();
        let text = response.body_mut().read_to_string().unwrap();
        let value = serde_json::from_str(&text).unwrap_or_else(|_| Value::String(text));
        (status, value)
    }

    fn get(&self, path: &str) -> Answer {
        let request = self.agent.get(format!("{}{path}", self.base));
        Self::answer(request.header("App-Name", "server-test").call().unwrap())
    }

    fn get_anonymous(&self, path: &str) -> Answer {
        Self::answer(
            self.agent
                .get(format!("{}{path}", self.base))
                .call()
                .unwrap(),
        )
    }

    fn post(&self, path: &str, body: &[u8]) -> Answer {
        let request = self.agent.post(format!("{}{path}", self.base));
        let request = request.header("App-Name", "server-test");
        Self::answer(request.content_type("application/json").send(body).unwrap())
    }

    fn patch(&self, path: &str, body: &Value) -> Answer {
        let request = self.agent.patch(format!("{}{path}", self.base));
        let request = request.header("App-Name", "server-test");
        Self::answer(request.send(body.to_string().as_bytes()).unwrap())
    }
}

fn order_body(from: &str, to: &str, mode: &str) -> Vec<u8> {
    json!({"pairId": "BTC_ETH", "fromAmount": from, "fromAddress": null, "toAmount": to,
           "toAddress": TO_ADDRESS, "swapMode": mode})
    .to_string()
    .into_bytes()
}

#[test]
fn rates_are_served_as_the_file_has_them() {
    let server = start();
    let (status, body) = server.get("/v3/pairs/BTC_ETH/rates");
    assert_eq!(status, 200);
    assert_eq!(body, serde_json::from_str::<Value>(RATES).unwrap());
    let (status, body) = server.get("/v3/pairs/BTC_SOL/rates");
    assert_eq!((status, &body["code"]), (404, &json!("NOT_FOUND")));
    assert_eq!(body["status"], 404);
}

#[test]
fn every_request_needs_an_app_name() {
    let server = start();
    for path in [
        "/v3/pairs/BTC_ETH/rates",
        "/v3/orders/order-00000001",
        "/nowhere",
    ] {
        let (status, body) = server.get_anonymous(path);
        assert_eq!(status, 401, "{path}");
        assert_eq!(
            body,
            json!({"status": 401, "code": "UNAUTHORIZED", "details": "missing authentication"})
        );
    }
}

#[test]
fn the_route_endpoint_ranks_and_explains() {
    let server = start();
    let (status, body) = server.get("/v3/pairs/BTC_ETH/route?fromAmount=0.5");
    assert_eq!(status, 200);
    assert_eq!(body["mode"], "ExactIn");
    assert_eq!(body["routes"][0]["rateId"], BEST);
    assert_eq!(body["routes"][0]["netOutput"], "16.598402285");
    assert_eq!(body.get("error"), None);
    let expired = body["rejected"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["rateId"] == "4f0e2c1a-expired-0000-8d9e-aa11bb22cc33")
        .unwrap();
    assert_eq!(expired["reason"], "EXPIRED");

    // ExactOut for 10 ETH at the estimate: ⌈(10 + 0.00215) / 33.20110457⌉₈ = 0.30125956.
    let (status, body) =
        server.get("/v3/pairs/BTC_ETH/route?fromAmount=0.30125956&toAmount=10&swapMode=ExactOut");
    assert_eq!(status, 200);
    assert_eq!(body["routes"][0]["rateId"], BEST);
    assert_eq!(body["routes"][0]["requiredInput"], "0.30125956");
    assert_eq!(
        body["routes"][0]["requiredInputLimits"],
        json!({"status": "within"})
    );
}

#[test]
fn the_route_endpoint_answers_no_route_with_its_limits() {
    let server = start();
    // Below every min: the smallest is 0.0005 (rate 7c9e…).
    let (status, body) = server.get("/v3/pairs/BTC_ETH/route?fromAmount=0.0001");
    assert_eq!(status, 400);
    assert_eq!(body["code"], "AMOUNT_BELOW_LIMIT");
    assert_eq!(body["min"], "0.0005");
    assert!(body["details"]
        .as_str()
        .unwrap()
        .starts_with("fromAmount 0.0001 BTC"));
    // Above every max: the largest is 25 (rate q1w2…).
    let (status, body) = server.get("/v3/pairs/BTC_ETH/route?fromAmount=100000");
    assert_eq!(
        (status, &body["code"], &body["max"]),
        (400, &json!("AMOUNT_ABOVE_LIMIT"), &json!("25"))
    );
    let (status, body) = server.get("/v3/pairs/BTC_SOL/route?fromAmount=1");
    assert_eq!((status, &body["code"]), (404, &json!("NOT_FOUND")));
}

#[test]
fn a_bad_query_gets_the_order_body_s_codes_and_messages() {
    let server = start();
    let (status, query) = server.get("/v3/pairs/BTC_ETH/route?fromAmount=0");
    assert_eq!(status, 400);
    assert_eq!(query["code"], "INVALID_AMOUNT");
    let (status, order) = server.post("/v3/orders", &order_body("0", "1", "ExactIn"));
    assert_eq!(status, 400);
    assert_eq!(order["code"], query["code"]);
    assert_eq!(order["details"], query["details"]);
    let (status, body) = server.get("/v3/pairs/BTC_ETH/route");
    assert_eq!((status, &body["code"]), (400, &json!("INVALID_REQUEST")));
}

#[test]
fn an_exact_in_order_is_created_and_read_back() {
    let server = start();
    let (status, order) = server.post("/v3/orders", &order_body("0.5", "16.5", "ExactIn"));
    assert_eq!(status, 201, "{order}");
    assert_eq!(order["status"], "awaiting");
    assert_eq!(order["rateId"], BEST);
    assert_eq!(order["amount"]["value"], "0.5");
    assert_eq!(order["amount"]["assetId"], "BTC");
    // ⌊16.598402285⌋₈
    assert_eq!(order["toAmount"]["value"], "16.59840228");
    assert_eq!(order["toAddress"], TO_ADDRESS);
    let id = order["id"].as_str().unwrap();
    let (status, again) = server.get(&format!("/v3/orders/{id}"));
    assert_eq!((status, &again), (200, &order));
    let (status, body) = server.get("/v3/orders/order-99999999");
    assert_eq!((status, &body["code"]), (404, &json!("NOT_FOUND")));
}

#[test]
fn an_exact_out_order_s_amount_is_the_required_input() {
    let server = start();
    // ⌈(10 + 0.00215) / 33.20110457⌉₈ = 0.30125956 at an estimate of 0.3.
    let (status, order) = server.post("/v3/orders", &order_body("0.3", "10", "ExactOut"));
    assert_eq!(status, 201, "{order}");
    assert_eq!(order["rateId"], BEST);
    assert_eq!(order["amount"]["value"], "0.30125956");
}

#[test]
fn order_errors_have_their_codes_and_statuses() {
    let server = start();
    let (status, body) = server.post("/v3/orders", b"{not json");
    assert_eq!((status, &body["code"]), (400, &json!("INVALID_REQUEST")));
    assert!(body["details"].as_str().unwrap().contains("body"), "{body}");
    let (status, body) = server.post("/v3/orders", b"[1, 2]");
    assert_eq!(status, 400, "{body}");
    let zero = json!({"pairId": "BTC_ETH", "fromAmount": "0.5", "fromAddress": null,
        "toAmount": "16", "toAddress": "0x0000000000000000000000000000000000000000"});
    let (status, body) = server.post("/v3/orders", zero.to_string().as_bytes());
    assert_eq!((status, &body["code"]), (403, &json!("RESTRICTED_ADDRESS")));
    let (status, body) = server.post("/v3/orders", &order_body("0.0001", "1", "ExactIn"));
    assert_eq!(
        (status, &body["code"], &body["min"]),
        (400, &json!("AMOUNT_BELOW_LIMIT"), &json!("0.0005"))
    );
    let other_pair = json!({"pairId": "BTC_SOL", "fromAmount": "0.5", "fromAddress": null,
        "toAmount": "1", "toAddress": "4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T"});
    let (status, body) = server.post("/v3/orders", other_pair.to_string().as_bytes());
    assert_eq!((status, &body["code"]), (404, &json!("NOT_FOUND")));
}

#[test]
fn a_body_over_64_kib_is_413() {
    let server = start();
    let mut body = order_body("0.5", "16.5", "ExactIn");
    body.splice(
        1..1,
        format!("\"pad\":\"{}\",", "x".repeat(64 * 1024)).into_bytes(),
    );
    let (status, answer) = server.post("/v3/orders", &body);
    assert_eq!(
        (status, &answer["code"]),
        (413, &json!("PAYLOAD_TOO_LARGE"))
    );
    assert_eq!(answer["status"], 413);
}

#[test]
fn the_deposit_transaction_id_is_set_once() {
    let server = start();
    let (_, order) = server.post("/v3/orders", &order_body("0.5", "16.5", "ExactIn"));
    let path = format!("/v3/orders/{}", order["id"].as_str().unwrap());
    let update = json!({"transactionId": "0x9fc76417374aa880d4449a1f7f31ec597f00b1f6f3dd2d66f4c9c6c445836d8b"});
    let (status, body) = server.patch(&path, &update);
    assert_eq!((status, &body), (200, &update));
    let (_, stored) = server.get(&path);
    assert_eq!(stored["fromTransactionId"], update["transactionId"]);
    let (status, body) = server.patch(&path, &update);
    assert_eq!(
        (status, &body["code"]),
        (412, &json!("PRECONDITION_FAILED"))
    );
    assert_eq!(body["orderId"], order["id"]);
    let (status, _) = server.patch("/v3/orders/order-99999999", &update);
    assert_eq!(status, 404);
}

fn order_body_with(from: &str, to: &str, mode: &str, slippage: &Value) -> Vec<u8> {
    json!({"pairId": "BTC_ETH", "fromAmount": from, "fromAddress": null, "toAmount": to,
           "toAddress": TO_ADDRESS, "swapMode": mode, "slippage": slippage})
    .to_string()
    .into_bytes()
}

/// Issue 29, reproduction 1: 0.5 BTC → 20 ETH at slippage 0 was 201 with an
/// order promising 16.598 ETH. The best route promises
/// ⌊0.5 × 33.20110457 − 0.00215⌋₈ = 16.59840228 < 20 × (100 − 0) / 100.
#[test]
fn an_order_that_misses_its_slippage_bound_is_409() {
    let server = start();
    let (status, body) = server.post(
        "/v3/orders",
        &order_body_with("0.5", "20", "ExactIn", &json!(0)),
    );
    assert_eq!(
        (status, body),
        (
            409,
            json!({"status": 409, "code": "SLIPPAGE_EXCEEDED",
            "details": "slippage exceeded: the best route promises 16.59840228 ETH, below the least 20 ETH allowed (toAmount 20 ETH less 0%)",
            "bound": "20", "available": "16.59840228"})
        )
    );
    // ExactOut: ⌈(10 + 0.00215) / 33.20110457⌉₈ = 0.30125956 > 0.3 × 100 / 100.
    let (status, body) = server.post(
        "/v3/orders",
        &order_body_with("0.3", "10", "ExactOut", &json!("0")),
    );
    assert_eq!(status, 409, "{body}");
    assert_eq!(
        (&body["bound"], &body["available"]),
        (&json!("0.3"), &json!("0.30125956"))
    );
    // Nothing was created.
    let (status, _) = server.get("/v3/orders/order-00000001");
    assert_eq!(status, 404);
}

/// Issue 29, reproductions 2 and 3: ExactOut 10^20 and 100000 ETH were 201
/// with amounts of 3011947984717304843.57 and 3011.9 BTC on a rate whose max
/// is 3.5. By default the server's plans are strict (ruling 34); the error
/// names the required input, never fromAmount, and the toAmount that works:
/// d5b1 (max 8.33028657) serves up to ⌊8.33028657 × 33.14218692377834 −
/// 0.00019192⌋₈ = 276.08372271 ETH and needs ⌈100000.00019192 /
/// 33.14218692377834⌉₈ = 3017.30240138 BTC.
#[test]
fn exact_out_orders_outside_every_limit_are_refused_by_default() {
    let server = start();
    for to in ["100000000000000000000", "100000"] {
        let (status, body) = server.post("/v3/orders", &order_body("0.5", to, "ExactOut"));
        assert_eq!(
            (status, &body["code"], &body["max"]),
            (400, &json!("AMOUNT_ABOVE_LIMIT"), &json!("8.33028657")),
            "{to}: {body}"
        );
        let details = body["details"].as_str().unwrap();
        assert!(!details.contains("fromAmount"), "{details}");
        assert!(
            details.ends_with("the largest toAmount that works is 276.08372271 ETH"),
            "{details}"
        );
    }
    let (_, body) = server.post("/v3/orders", &order_body("0.5", "100000", "ExactOut"));
    assert!(body["details"]
        .as_str()
        .unwrap()
        .contains("the nearest route needs 3017.30240138 BTC, above its maximum 8.33028657 BTC"));
    // Below: 7c9e (min 0.0005) needs ⌈0.0001 / 32.98701122334455⌉₈ = 0.00000304
    // and serves from ⌊0.00049999 × 32.98701122334455⌋₈ + 10^-8 = 0.01649318.
    let (status, body) = server.post("/v3/orders", &order_body("0.5", "0.0001", "ExactOut"));
    assert_eq!(
        (status, body),
        (
            400,
            json!({"status": 400, "code": "AMOUNT_BELOW_LIMIT",
            "details": "toAmount 0.0001 ETH needs less than every route's minimum: the nearest route needs 0.00000304 BTC, below its minimum 0.0005 BTC; the smallest toAmount that works is 0.01649318 ETH",
            "min": "0.0005"})
        )
    );
    let (status, _) = server.get("/v3/orders/order-00000001");
    assert_eq!(status, 404);
}
