//! Chained routes over every pair the server was started with (`--rates`
//! once per pair): `GET /v3/route`. Expected numbers by hand from the bundled
//! samples (cli/data/rates.json, cli/data/chain/*.json).

use std::process::Command;

use serde_json::json;

use crate::common::{assert_error, databases, Server};

const BTC_ETH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../cli/data/rates.json");
const ETH_SOL: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../cli/data/chain/eth_sol.json"
);
const BTC_SOL: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../cli/data/chain/btc_sol.json"
);

fn three_pairs() -> [&'static str; 6] {
    ["--rates", BTC_ETH, "--rates", ETH_SOL, "--rates", BTC_SOL]
}

/// ExactIn 0.5 BTC: ⌊0.5 × 33.20110457 − 0.00215⌋₈ = 16.59840228 ETH, then
/// 16.59840228 × 20.05310722 − 0.001 = 332.8485406015324616 SOL, where
/// BTC_SOL directly gives 0.5 × 655.21 − 0.01 = 327.595. ExactOut 100 SOL:
/// the ETH_SOL rate at 20.1 (fee 0.002, 0.5 to 5 ETH) needs
/// ⌈100.002 / 20.1⌉₈ = 4.97522389 ETH, which needs
/// ⌈(4.97522389 + 0.00215) / 33.20110457⌉₈ = 0.14991592 BTC.
#[test]
fn chained_routes_rank_over_every_pair() {
    for db in databases() {
        let server = Server::start(&db, &three_pairs());
        let answer = server.get("/v3/route?from=BTC&to=SOL&fromAmount=0.5");
        assert_eq!(answer.status, 200, "{}", answer.text);
        let best = &answer.body["chains"][0];
        assert_eq!(best["rank"], 1);
        assert_eq!(
            (&best["legs"][0]["pairId"], &best["legs"][1]["pairId"]),
            (&json!("BTC_ETH"), &json!("ETH_SOL"))
        );
        assert_eq!(best["legs"][1]["input"], "16.59840228");
        assert_eq!(best["finalOutput"], "332.8485406015324616");
        let out = server.get("/v3/route?from=BTC&to=SOL&swapMode=ExactOut&toAmount=100");
        assert_eq!(out.status, 200, "{}", out.text);
        assert_eq!(out.body["chains"][0]["requiredInput"], "0.14991592");
        assert_eq!(out.body["chains"][0]["legs"][1]["input"], "4.97522389");
        // Each pair's rates are served too.
        let rates = server.get("/v3/pairs/ETH_SOL/rates");
        assert_eq!(rates.status, 200);
        assert_eq!(rates.body[0]["id"], "9b2f4c1e-sol-a");
    }
}

#[test]
fn chained_route_errors_are_the_json_model() {
    let db = &databases()[0];
    let server = Server::start(db, &three_pairs());
    // No pair leaves SOL.
    let answer = server.get("/v3/route?from=SOL&to=BTC&fromAmount=1");
    assert_error(&answer, 422, "ROUTE_UNAVAILABLE");
    // The query's field rules: every problem, the first by priority.
    let answer = server.get("/v3/route?from=BTC&fromAmount=0");
    assert_error(&answer, 400, "INVALID_REQUEST");
    assert_eq!(answer.body["details"], "to: is required");
    let answer = server.get("/v3/route?from=BTC&to=SOL&fromAmount=0.5&maxLegs=4");
    assert_error(&answer, 400, "INVALID_REQUEST");
    assert!(answer.body["details"].as_str().unwrap().contains("maxLegs"));
    // Started with one pair (the default), a chain through another is no route.
    let single = Server::start(db, &[]);
    let answer = single.get("/v3/route?from=BTC&to=SOL&fromAmount=0.5");
    assert_error(&answer, 422, "ROUTE_UNAVAILABLE");
}

#[test]
fn two_rates_files_of_one_pair_refuse_to_start() {
    let db = &databases()[0];
    let output = Command::new(env!("CARGO_BIN_EXE_swaproute-server"))
        .args(["--listen", "127.0.0.1:0", "--database", &db.arg()])
        .args(["--rates", BTC_ETH, "--rates", BTC_ETH])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("--rates") && stderr.contains("BTC_ETH"),
        "{stderr}"
    );
    assert!(output.stdout.is_empty());
}
