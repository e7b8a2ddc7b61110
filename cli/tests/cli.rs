//! The command line as a user runs it: the built binary (`swaproute`) on the
//! bundled samples (cli/data), its answers and exit statuses. `.ci/run`'s
//! smoke step runs the same commands through `cargo run` and more.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use std::process::{Command, Output};

/// The binary with `args`, from the repository root (as the README runs it).
fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_swaproute"))
        .args(args)
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .output()
        .unwrap()
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

#[test]
fn without_arguments_it_ranks_the_bundled_sample() {
    // The README's first command.
    let output = run(&[]);
    assert_eq!(output.status.code(), Some(0));
    assert!(!stdout(&output).is_empty());
}

#[test]
fn the_bundled_sample_ranks_at_half_a_bitcoin() {
    let output = run(&["--from-amount", "0.5", "--now", "1785000000000", "--json"]);
    assert_eq!(output.status.code(), Some(0));
    assert!(stdout(&output).contains("\"rank\":1"));
}

#[test]
fn no_route_exits_2_and_bad_input_exits_1_with_nothing_on_stdout() {
    let none = run(&[
        "--from-amount",
        "100000",
        "--now",
        "1785000000000",
        "--json",
    ]);
    assert_eq!(none.status.code(), Some(2));
    let bad = run(&["--from-amount", "1e5"]);
    assert_eq!(bad.status.code(), Some(1));
    assert!(bad.stdout.is_empty());
}

#[test]
fn a_lying_rate_is_listed_as_invalid_and_never_ranked() {
    let output = run(&[
        "--rates",
        "cli/data/lying-rate.json",
        "--from-amount",
        "0.5",
        "--now",
        "1785000000000",
        "--json",
    ]);
    assert_eq!(output.status.code(), Some(0));
    assert!(stdout(&output).contains("\"rateId\":\"liar\",\"reason\":\"INVALID_RATE\""));
}

#[test]
fn the_two_leg_chain_through_eth_ranks_first() {
    let output = run(&[
        "--rates",
        "cli/data/rates.json",
        "--rates",
        "cli/data/chain/eth_sol.json",
        "--rates",
        "cli/data/chain/btc_sol.json",
        "--from",
        "BTC",
        "--to",
        "SOL",
        "--from-amount",
        "0.5",
        "--now",
        "1785000000000",
        "--json",
    ]);
    assert_eq!(output.status.code(), Some(0));
    assert!(stdout(&output).contains("\"rank\":1,\"legs\":[{\"pairId\":\"BTC_ETH\""));
}

#[test]
fn the_live_order_plans_and_verifies() {
    let output = run(&[
        "--rates",
        "cli/data/order/rates.json",
        "--now",
        "1773221236204",
        "--order",
        "tests/payloads/order-create-request.json",
        "--verify",
        "tests/payloads/order-create-response.json",
        "--json",
    ]);
    assert_eq!(output.status.code(), Some(0));
    let out = stdout(&output);
    assert!(out.contains("\"amount\":\"1.25\",\"promisedOutput\":\"97.365\""));
    assert!(out.contains("\"verify\":{\"ok\":true"));
}
