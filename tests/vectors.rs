#![allow(clippy::arithmetic_side_effects)]
//! Runs every golden conformance vector of `vectors/*.json` through the crate's
//! public API (the format is `vectors/README.md`).
//!
//! Each test collects every failing case, named, and fails once with all of them.

use std::fs;
use std::net::IpAddr;
use std::path::PathBuf;

use rust_decimal::Decimal;
use serde_json::Value;
use swaproute::caip::{Caip19AssetId, Caip19AssetType, CaipComponent, ChainId, InvalidCaipId};
use swaproute::client::{
    ClientHeaders, Forwarded, ForwardedError, Integration, NoClientAddress, Node, NodeError,
    NodePort, NonGlobal,
};
use swaproute::decimal::{parse_amount, DecimalError};
use swaproute::order::{
    reconcile_all, FixedOrderRequest, FloatOrderRequest, Observation, OrderContext, OrderStatus,
    Promise, RequestErrors, TrackedStatus,
};
use swaproute::rate::InvalidRates;
use swaproute::route::chain::{Chain, ChainNoRoute, ChainRequest, Market};
use swaproute::route::{
    estimate_exact_out_with, FeasibleQuery, Floors, LimitPolicy, NoRoute, SplitAnswer, SplitLegs,
    SplitPolicy,
};
use swaproute::screening::{Address, AddressTag, ScreeningPolicy};
use swaproute::{
    Amount, ApiError, AssetId, CampaignId, CampaignLimits, EpochMillis, QuoteId, Rate,
    RatesResponse, RouteRequest, SwapMode,
};

/// Cases below this many in total fail the suite: deleting cases is a change
/// to be made on purpose.
const MIN_CASES: usize = 150;

/// Every kind a vector file may declare, with its runner.
const KINDS: &[&str] = &[
    "select",
    "estimate",
    "json_number",
    "amount_text",
    "fixed_order_body",
    "float_order_body",
    "reconcile",
    "forwarded",
    "client_headers",
    "caip",
    "rates_response",
    "chained_route",
    "order_plan",
    "feasible",
    "verify_order",
    "price_guard",
    "split",
    "schedule",
    "requote",
    "deposit",
];

fn vectors_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("vectors")
}

/// `(file name, parsed file)` of every vector file, by name.
fn files() -> Vec<(String, Value)> {
    let mut out = Vec::new();
    for entry in fs::read_dir(vectors_dir()).expect("vectors/ exists") {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_owned();
        if path.extension().and_then(|e| e.to_str()) != Some("json") {
            continue;
        }
        let text = fs::read_to_string(&path).unwrap();
        let value: Value =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name} is not JSON: {e}"));
        out.push((name, value));
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// Every case of every file of `kind`, as `(label, case)`.
fn cases(kind: &str) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    for (file, value) in files() {
        if value["kind"] != kind {
            continue;
        }
        for case in value["cases"].as_array().unwrap() {
            let label = format!("{file}: {}", case["name"].as_str().unwrap());
            out.push((label, case.clone()));
        }
    }
    assert!(!out.is_empty(), "no cases of kind {kind}");
    out
}

/// Runs `check` on every case of `kind`; fails once, listing every failure.
fn run(kind: &str, check: impl Fn(&Value, &Value) -> Result<(), String>) {
    let mut failures = Vec::new();
    let all = cases(kind);
    for (label, case) in &all {
        if let Err(why) = check(&case["input"], &case["expect"]) {
            failures.push(format!("[{label}] {why}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} `{kind}` vectors failed:\n{}",
        failures.len(),
        all.len(),
        failures.join("\n")
    );
}

fn ensure(ok: bool, what: impl FnOnce() -> String) -> Result<(), String> {
    if ok {
        Ok(())
    } else {
        Err(what())
    }
}

fn dec(text: &str) -> Decimal {
    Decimal::from_str_exact(text)
        .unwrap_or_else(|e| panic!("bad decimal {text:?} in a vector: {e}"))
}

/// A decimal string of the expectation against a JSON value the crate wrote:
/// equal by value.
fn same_decimal(what: &str, expected: &Value, got: &Value) -> Result<(), String> {
    match (expected, got) {
        (Value::Null, Value::Null) => Ok(()),
        (Value::String(e), Value::String(g)) => ensure(dec(e) == dec(g), || {
            format!("{what}: expected {e}, got {g}")
        }),
        _ => Err(format!("{what}: expected {expected}, got {got}")),
    }
}

fn rates_of(input: &Value) -> RatesResponse {
    serde_json::from_value(input["rates"].clone()).expect("the vector's rates decode")
}

fn now_of(input: &Value) -> EpochMillis {
    EpochMillis::new(input["now"].as_u64().unwrap())
}

fn amount(value: &Value) -> Amount {
    value.as_str().unwrap().parse().unwrap()
}

/// `input.campaigns`: campaign id -> per-swap limit (none when absent).
fn campaigns_of(input: &Value) -> CampaignLimits {
    let mut campaigns = CampaignLimits::new();
    if let Some(map) = input.get("campaigns").and_then(Value::as_object) {
        for (id, limit) in map {
            campaigns.insert(CampaignId::new(id).unwrap(), amount(limit));
        }
    }
    campaigns
}

/// `{status, code, min?, max?, details?, field?}`: the keys the expectation has.
fn same_error(expected: &Value, error: &ApiError) -> Result<(), String> {
    let body = serde_json::to_value(error.to_body()).unwrap();
    ensure(expected["status"] == body["status"], || {
        format!(
            "status: expected {}, got {}",
            expected["status"], body["status"]
        )
    })?;
    ensure(expected["code"] == body["code"], || {
        format!("code: expected {}, got {}", expected["code"], body["code"])
    })?;
    for key in ["min", "max"] {
        let want = expected.get(key).unwrap_or(&Value::Null);
        let got = body.get(key).unwrap_or(&Value::Null);
        same_decimal(key, want, got)?;
    }
    if let Some(details) = expected.get("details") {
        ensure(*details == body["details"], || {
            format!("details: expected {details}, got {}", body["details"])
        })?;
    }
    Ok(())
}

#[test]
fn every_file_has_a_known_kind_and_there_are_enough_cases() {
    let mut total = 0;
    for (file, value) in files() {
        let kind = value["kind"]
            .as_str()
            .unwrap_or_else(|| panic!("{file}: no kind"));
        assert!(KINDS.contains(&kind), "{file}: unknown kind {kind}");
        let cases = value["cases"].as_array().unwrap();
        for case in cases {
            let name = case["name"]
                .as_str()
                .unwrap_or_else(|| panic!("{file}: a case without name"));
            assert!(case["rules"].is_array(), "{file}: {name}: rules");
            assert!(case["input"].is_object(), "{file}: {name}: input");
            assert!(case["expect"].is_object(), "{file}: {name}: expect");
        }
        total += cases.len();
    }
    assert!(
        total >= MIN_CASES,
        "only {total} vectors, at least {MIN_CASES} expected"
    );
}

// --- feasible (ruling 38) ----------------------------------------------------

/// The input's `floors` (ruling 38), none when absent.
fn floors_of(input: &Value) -> Floors {
    let mut floors = Floors::NONE;
    if let Some(f) = input.get("floors") {
        if let Some(dust) = f.get("dust") {
            floors = floors.with_dust(amount(dust));
        }
        if let Some(k) = f.get("feeMultiple") {
            floors = floors.with_fee_multiple(amount(k));
        }
        if let Some(bps) = f.get("maxFeeShareBps") {
            floors = floors.with_max_fee_share_bps(u32::try_from(bps.as_u64().unwrap()).unwrap());
        }
    }
    floors
}

/// A single pair's "no route" against an error object that may give
/// `working` (`{"field","amount","asset"}`: the amount that works nearest,
/// ruling 38 amending 10; `null` for none) and `floor` (the floor's code).
fn same_no_route(want: &Value, no_route: &NoRoute) -> Result<(), String> {
    same_error(want, &no_route.to_api_error())?;
    if let Some(w) = want.get("working") {
        let got = no_route.working_amount();
        let same = match (w, got) {
            (Value::Null, None) => true,
            (w, Some(g)) => {
                w["field"] == g.field().as_str()
                    && w["asset"] == g.asset().as_str()
                    && dec(w["amount"].as_str().unwrap()) == g.amount()
            }
            _ => false,
        };
        ensure(same, || format!("working: expected {w}, got {got:?}"))?;
    }
    if let Some(f) = want.get("floor") {
        let got = match no_route {
            NoRoute::BelowFloors { floor, .. } => Value::from(floor.code()),
            _ => Value::Null,
        };
        ensure(*f == got, || format!("floor: expected {f}, got {got}"))?;
    }
    Ok(())
}

#[test]
fn feasible() {
    run("feasible", |input, expect| {
        let rates = rates_of(input);
        let campaigns = campaigns_of(input);
        let mode: SwapMode = input["mode"].as_str().unwrap().parse().unwrap();
        let floors = floors_of(input);
        let mut query = FeasibleQuery::new(mode, now_of(input))
            .with_campaigns(&campaigns)
            .with_floors(floors);
        if let Some(decimals) = input.get("decimals") {
            let places = |key: &str| u8::try_from(decimals[key].as_u64().unwrap()).unwrap();
            query = query.with_decimals(places("from"), places("to"));
        }
        let feasible = query.amounts(&rates).map_err(|e| e.to_string())?;
        let spendable = input.get("spendable").map(amount);
        let got = serde_json::to_value(feasible.report(spendable)).unwrap();
        ensure(&got == expect, || format!("expected {expect}, got {got}"))
    });
}

// --- split (ruling 39) -------------------------------------------------------

#[test]
fn split() {
    run("split", |input, expect| {
        let rates = rates_of(input);
        let now = now_of(input);
        let from = amount(&input["fromAmount"]);
        let mut request = match input.get("mode").and_then(Value::as_str) {
            Some("ExactOut") => RouteRequest::exact_out(from, amount(&input["toAmount"]), now),
            _ => RouteRequest::exact_in(from, now),
        };
        if let Some(dust) = input.get("floors").and_then(|f| f.get("dust")) {
            request = request.with_floors(Floors::NONE.with_dust(amount(dust)));
        }
        let mut policy = SplitPolicy::DEFAULT;
        if let Some(p) = input.get("policy") {
            if let Some(legs) = p.get("legs").and_then(Value::as_u64) {
                policy = policy.with_legs(SplitLegs::try_from(legs).unwrap());
            }
            if let Some(cost) = p.get("perOrderCost") {
                policy = policy.with_per_order_cost(amount(cost));
            }
            if let Some(bps) = p.get("minGainBps").and_then(Value::as_u64) {
                policy = policy.with_min_gain_bps(u32::try_from(bps).unwrap());
            }
        }
        match request.split(&rates, &policy) {
            Err(error) => match expect.get("error") {
                Some(want) => same_error(want, &error.to_api_error()),
                None => Err(format!("expected an answer, got {error}")),
            },
            Ok(answer) => {
                let (route, split) = match &answer {
                    SplitAnswer::Single(route) => {
                        (Value::from(route.rate().id().as_str()), Value::Null)
                    }
                    SplitAnswer::Split(split) => {
                        (Value::Null, serde_json::to_value(split).unwrap())
                    }
                };
                ensure(expect.get("error").is_none(), || {
                    format!("expected an error, got {route} {split}")
                })?;
                ensure(route == expect["route"], || {
                    format!("route: expected {}, got {route}", expect["route"])
                })?;
                ensure(split == expect["split"], || {
                    format!("split: expected {}, got {split}", expect["split"])
                })
            }
        }
    });
}

// --- select ------------------------------------------------------------------

#[test]
fn select() {
    run("select", |input, expect| {
        let rates = rates_of(input);
        let now = now_of(input);
        let from = amount(&input["fromAmount"]);
        let request = match input["mode"].as_str().unwrap() {
            "ExactIn" => {
                let request = RouteRequest::exact_in(from, now);
                match input.get("toAmount") {
                    Some(to) => request.with_to_amount(amount(to)),
                    None => request,
                }
            }
            "ExactOut" => RouteRequest::exact_out(from, amount(&input["toAmount"]), now),
            other => panic!("mode {other}"),
        };
        let campaigns = campaigns_of(input);
        let policy = match input.get("limitPolicy").and_then(Value::as_str) {
            None | Some("spec") => LimitPolicy::Spec,
            Some("strict") => LimitPolicy::Strict,
            Some(other) => panic!("limitPolicy {other}"),
        };
        let request = request
            .with_campaigns(&campaigns)
            .with_limit_policy(policy)
            .with_floors(floors_of(input));
        let selection = request.select(&rates);
        let got = serde_json::to_value(&selection).unwrap();

        let want_routes = expect["routes"].as_array().unwrap();
        let got_routes = got["routes"].as_array().unwrap();
        let ids = |routes: &[Value]| -> Vec<String> {
            routes
                .iter()
                .map(|r| r["rateId"].as_str().unwrap().to_owned())
                .collect()
        };
        ensure(ids(want_routes) == ids(got_routes), || {
            format!(
                "ranked: expected {:?}, got {:?}",
                ids(want_routes),
                ids(got_routes)
            )
        })?;
        for (want, route) in want_routes.iter().zip(got_routes) {
            let id = want["rateId"].as_str().unwrap();
            same_decimal(
                &format!("{id} netOutput"),
                &want["netOutput"],
                &route["netOutput"],
            )?;
            // The required input is compared as text: all 8 places.
            ensure(want["requiredInput"] == route["requiredInput"], || {
                format!(
                    "{id} requiredInput: expected {}, got {}",
                    want["requiredInput"], route["requiredInput"]
                )
            })?;
            let (wl, gl) = (&want["requiredInputLimits"], &route["requiredInputLimits"]);
            ensure(wl["status"] == gl["status"], || {
                format!("{id} requiredInputLimits: expected {wl}, got {gl}")
            })?;
            if !wl.is_null() {
                same_decimal(
                    &format!("{id} requiredInputLimits.limit"),
                    wl.get("limit").unwrap_or(&Value::Null),
                    gl.get("limit").unwrap_or(&Value::Null),
                )?;
            }
        }

        let want_rejected = expect["rejected"].as_array().unwrap();
        let got_rejected = got["rejected"].as_array().unwrap();
        let reasons = |list: &[Value]| -> Vec<(String, String)> {
            list.iter()
                .map(|r| {
                    (
                        r["rateId"].as_str().unwrap().to_owned(),
                        r["reason"].as_str().unwrap().to_owned(),
                    )
                })
                .collect()
        };
        ensure(reasons(want_rejected) == reasons(got_rejected), || {
            format!(
                "rejected: expected {:?}, got {:?}",
                reasons(want_rejected),
                reasons(got_rejected)
            )
        })?;
        for (want, got) in want_rejected.iter().zip(got_rejected) {
            let id = want["rateId"].as_str().unwrap();
            same_decimal(&format!("{id} limit"), &want["limit"], &got["limit"])?;
        }

        match (&expect["error"], selection.no_route()) {
            (Value::Null, None) => Ok(()),
            (Value::Null, Some(no_route)) => Err(format!("unexpected no route: {no_route}")),
            (want, None) => Err(format!("expected the error {want}, got routes")),
            (want, Some(no_route)) => same_no_route(want, no_route),
        }
    });
}

// --- estimate ----------------------------------------------------------------

fn check_estimate(input: &Value, expect: &Value) -> Result<(), String> {
    let rates = rates_of(input);
    let now = now_of(input);
    let to = amount(&input["toAmount"]);
    match (
        estimate_exact_out_with(&rates, to, now, &floors_of(input)),
        expect.get("error"),
    ) {
        (Ok(estimate), None) => {
            let want = &expect["estimate"];
            let got = serde_json::to_value(estimate).unwrap();
            ensure(*want == got, || {
                format!("estimate: expected {want}, got {got}")
            })?;
            if let Some(want) = expect.get("rankedAtEstimate") {
                let route = estimate
                    .request(to, now)
                    .best(&rates)
                    .map_err(|e| format!("ranking at the estimate: no route: {e}"))?;
                let got = serde_json::json!({
                    "rateId": route.rate().id().as_str(),
                    "requiredInput": route.required_input().map(|r| r.to_string()),
                });
                ensure(*want == got, || {
                    format!("rankedAtEstimate: expected {want}, got {got}")
                })?;
            }
            if let Some(want) = expect.get("rankedAtEstimateStrict") {
                let route = estimate
                    .request(to, now)
                    .with_limit_policy(LimitPolicy::Strict)
                    .best(&rates)
                    .map_err(|e| format!("strict ranking at the estimate: no route: {e}"))?;
                let got = serde_json::json!({
                    "rateId": route.rate().id().as_str(),
                    "requiredInput": route.required_input().map(|r| r.to_string()),
                });
                ensure(*want == got, || {
                    format!("rankedAtEstimateStrict: expected {want}, got {got}")
                })?;
            }
            Ok(())
        }
        (Ok(estimate), Some(want)) => Err(format!(
            "expected the error {want}, got the estimate {}",
            serde_json::to_value(estimate).unwrap()
        )),
        (Err(no_route), None) => Err(format!("expected an estimate, got: {no_route}")),
        (Err(no_route), Some(want)) => same_no_route(want, &no_route),
    }
}

#[test]
fn estimate() {
    run("estimate", check_estimate);
}

// --- chained_route -------------------------------------------------------------

/// A chain's rate ids, in leg order.
fn chain_ids(chain: &Chain<'_>) -> Vec<String> {
    chain
        .legs()
        .iter()
        .map(|leg| leg.rate().id().as_str().to_owned())
        .collect()
}

/// One expected chain against the crate's JSON of it: pairs and rates
/// exactly, leg amounts and the final output by value, the required input as
/// text (8 places), the expiry.
fn same_chain(at: usize, want: &Value, got: &Value) -> Result<(), String> {
    let legs = got["legs"].as_array().unwrap();
    let column = |key: &str| -> Value { legs.iter().map(|leg| leg[key].clone()).collect() };
    ensure(want["pairs"] == column("pairId"), || {
        format!(
            "chain {at} pairs: expected {}, got {}",
            want["pairs"],
            column("pairId")
        )
    })?;
    ensure(want["rates"] == column("rateId"), || {
        format!(
            "chain {at} rates: expected {}, got {}",
            want["rates"],
            column("rateId")
        )
    })?;
    let want_legs = want["legs"].as_array().unwrap();
    ensure(want_legs.len() == legs.len(), || {
        format!("chain {at}: {} legs expected", want_legs.len())
    })?;
    for (i, (w, g)) in want_legs.iter().zip(legs).enumerate() {
        let leg = i + 1;
        same_decimal(
            &format!("chain {at} leg {leg} input"),
            &w["input"],
            &g["input"],
        )?;
        same_decimal(
            &format!("chain {at} leg {leg} output"),
            &w["output"],
            &g["output"],
        )?;
    }
    let null = Value::Null;
    same_decimal(
        &format!("chain {at} finalOutput"),
        want.get("finalOutput").unwrap_or(&null),
        &got["finalOutput"],
    )?;
    let (wr, gr) = (
        want.get("requiredInput").unwrap_or(&null),
        &got["requiredInput"],
    );
    ensure(wr == gr, || {
        format!("chain {at} requiredInput: expected {wr}, got {gr}")
    })?;
    ensure(want["expiry"] == got["expiry"], || {
        format!(
            "chain {at} expiry: expected {}, got {}",
            want["expiry"], got["expiry"]
        )
    })
}

/// The error of a chain request: the error body, and for chains rejected
/// past their first leg the counts, which must be `rejectedCounts`.
fn same_chain_error(
    want: &Value,
    counts: &[(String, usize)],
    got: &ChainNoRoute,
) -> Result<(), String> {
    same_error(want, &got.to_api_error())?;
    if let ChainNoRoute::FirstLeg(first) = got {
        same_no_route(want, first)?;
    }
    if let ChainNoRoute::Rejected { counts: held } = got {
        let held: Vec<(String, usize)> = held.iter().map(|&(r, n)| (r.to_owned(), n)).collect();
        ensure(held == counts, || {
            format!("the error's counts: expected {counts:?}, got {held:?}")
        })?;
    }
    Ok(())
}

/// What a `chained_route` case expects.
struct ChainExpect<'a> {
    chains: &'a [Value],
    /// Each chain's rate ids, best first.
    ids: Vec<Vec<String>>,
    /// `(reason, count)`, most first.
    counts: Vec<(String, usize)>,
    error: &'a Value,
}

impl<'a> ChainExpect<'a> {
    fn of(expect: &'a Value) -> Self {
        let chains = expect["chains"].as_array().unwrap();
        let ids = chains
            .iter()
            .map(|chain| {
                chain["rates"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|id| id.as_str().unwrap().to_owned())
                    .collect()
            })
            .collect();
        let counts = expect["rejectedCounts"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                let count = usize::try_from(c["count"].as_u64().unwrap()).unwrap();
                (c["reason"].as_str().unwrap().to_owned(), count)
            })
            .collect();
        ChainExpect {
            chains,
            ids,
            counts,
            error: &expect["error"],
        }
    }
}

fn chain_request(input: &Value) -> ChainRequest {
    let now = now_of(input);
    let asset = |key: &str| AssetId::new(input[key].as_str().unwrap()).unwrap();
    let (from, to, value) = (asset("from"), asset("to"), amount(&input["amount"]));
    let request = match input["mode"].as_str().unwrap() {
        "ExactIn" => ChainRequest::exact_in(from, to, value, now),
        "ExactOut" => ChainRequest::exact_out(from, to, value, now),
        other => panic!("mode {other}"),
    };
    let request = request.with_floors(floors_of(input));
    match input.get("maxLegs") {
        Some(legs) => request
            .with_max_legs(usize::try_from(legs.as_u64().unwrap()).unwrap())
            .unwrap(),
        None => request,
    }
}

/// Every chain tried (`select` with a `k` covering them all): the ranked
/// chains, how many there are, the counts and the error.
fn check_chain_selection(
    request: &ChainRequest,
    market: &Market<'_>,
    want: &ChainExpect<'_>,
) -> Result<(), String> {
    let selection = request
        .select_all(market, want.chains.len() + 1)
        .map_err(|e| e.to_string())?;
    let got = serde_json::to_value(&selection).unwrap();
    let got_ids: Vec<Vec<String>> = selection.chains().iter().map(chain_ids).collect();
    ensure(want.ids == got_ids, || {
        format!("chains: expected {:?}, got {got_ids:?}", want.ids)
    })?;
    ensure(selection.chain_count() == Some(want.chains.len()), || {
        format!(
            "chain count: expected {}, got {:?}",
            want.chains.len(),
            selection.chain_count()
        )
    })?;
    for (i, (w, g)) in want
        .chains
        .iter()
        .zip(got["chains"].as_array().unwrap())
        .enumerate()
    {
        same_chain(i + 1, w, g)?;
    }
    let got_counts: Vec<(String, usize)> = selection
        .rejected_counts()
        .iter()
        .map(|&(r, n)| (r.to_owned(), n))
        .collect();
    ensure(want.counts == got_counts, || {
        format!(
            "rejectedCounts: expected {:?}, got {got_counts:?}",
            want.counts
        )
    })?;
    match (want.error, selection.no_route()) {
        (Value::Null, None) => Ok(()),
        (Value::Null, Some(no_route)) => Err(format!("unexpected no route: {no_route}")),
        (error, None) => Err(format!("expected the error {error}, got chains")),
        (error, Some(no_route)) => same_chain_error(error, &want.counts, no_route),
    }
}

/// The searching calls agree with the selection: `best`, and `top` for
/// every `k` from 1 to one past the number of chains.
fn check_chain_search(
    request: &ChainRequest,
    market: &Market<'_>,
    want: &ChainExpect<'_>,
) -> Result<(), String> {
    match (request.best(market), want.ids.first()) {
        (Ok(chain), Some(first)) => ensure(chain_ids(&chain) == *first, || {
            format!("best: expected {first:?}, got {:?}", chain_ids(&chain))
        })?,
        (Ok(chain), None) => return Err(format!("best: got {:?}", chain_ids(&chain))),
        (Err(e), Some(_)) => return Err(format!("best: no chain: {e}")),
        (Err(e), None) => {
            same_chain_error(want.error, &want.counts, &e).map_err(|why| format!("best: {why}"))?;
        }
    }
    for k in 1..=want.ids.len() + 1 {
        match request.top(market, k) {
            Ok(chains) => {
                let got: Vec<Vec<String>> = chains.iter().map(chain_ids).collect();
                let expected = &want.ids[..k.min(want.ids.len())];
                ensure(got == expected, || {
                    format!("top {k}: expected {expected:?}, got {got:?}")
                })?;
                for (i, (w, chain)) in want.chains.iter().zip(&chains).enumerate() {
                    let g = serde_json::to_value(chain).unwrap();
                    same_chain(i + 1, w, &g).map_err(|why| format!("top {k}: {why}"))?;
                }
            }
            Err(e) if want.ids.is_empty() => same_chain_error(want.error, &want.counts, &e)
                .map_err(|why| format!("top {k}: {why}"))?,
            Err(e) => return Err(format!("top {k}: no chain: {e}")),
        }
    }
    Ok(())
}

#[test]
fn chained_route() {
    run("chained_route", |input, expect| {
        let responses: Vec<RatesResponse> = input["responses"]
            .as_array()
            .unwrap()
            .iter()
            .map(|response| serde_json::from_value(response.clone()).expect("a rates response"))
            .collect();
        let market = Market::new(responses.iter(), &campaigns_of(input), now_of(input))
            .map_err(|e| format!("no market: {e}"))?;
        let request = chain_request(input);
        let want = ChainExpect::of(expect);
        check_chain_selection(&request, &market, &want)?;
        check_chain_search(&request, &market, &want)
    });
}

// --- json_number and amount_text ----------------------------------------------

#[test]
fn json_number() {
    run("json_number", |input, expect| {
        let text = input["json"].as_str().unwrap();
        let mut deserializer = serde_json::Deserializer::from_str(text);
        let got = swaproute::decimal::serde::number::deserialize(&mut deserializer)
            .and_then(|d| deserializer.end().map(|()| d));
        match (got, expect.get("decimal")) {
            (Ok(got), Some(want)) => ensure(dec(want.as_str().unwrap()) == got, || {
                format!("expected {want}, got {got}")
            }),
            (Ok(got), None) => Err(format!("expected an error, got {got}")),
            (Err(e), Some(want)) => Err(format!("expected {want}, got the error {e}")),
            (Err(_), None) => Ok(()),
        }
    });
}

fn decimal_error_code(error: DecimalError) -> (&'static str, Option<(usize, char)>) {
    match error {
        DecimalError::Empty => ("EMPTY", None),
        DecimalError::InvalidCharacter { found, at } => ("INVALID_CHARACTER", Some((at, found))),
        DecimalError::MissingDigits => ("MISSING_DIGITS", None),
        DecimalError::MultipleDots => ("MULTIPLE_DOTS", None),
        DecimalError::TooPrecise => ("TOO_PRECISE", None),
        DecimalError::OutOfRange => ("OUT_OF_RANGE", None),
        _ => ("OTHER", None),
    }
}

#[test]
fn amount_text() {
    run("amount_text", |input, expect| {
        let text = input["text"].as_str().unwrap();
        match (parse_amount(text), expect.get("decimal")) {
            (Ok(got), Some(want)) => ensure(dec(want.as_str().unwrap()) == got, || {
                format!("expected {want}, got {got}")
            }),
            (Ok(got), None) => Err(format!("expected {}, got {got}", expect["error"])),
            (Err(e), Some(want)) => Err(format!("expected {want}, got the error {e:?}")),
            (Err(e), None) => {
                let (code, position) = decimal_error_code(e);
                ensure(expect["error"] == code, || {
                    format!("expected {}, got {e:?}", expect["error"])
                })?;
                // The crate's own stable code says the same.
                ensure(expect["error"] == e.code(), || {
                    format!("code(): expected {}, got {}", expect["error"], e.code())
                })?;
                if let (Some(at), Some((got_at, found))) = (expect.get("at"), position) {
                    ensure(
                        at.as_u64() == Some(got_at as u64)
                            && expect["found"].as_str() == Some(found.to_string().as_str()),
                        || format!("expected {} at {at}, got {e:?}", expect["found"]),
                    )?;
                }
                Ok(())
            }
        }
    });
}

// --- order bodies ------------------------------------------------------------

fn body_bytes(input: &Value) -> Vec<u8> {
    match input.get("bodyText") {
        Some(text) => text.as_str().unwrap().as_bytes().to_vec(),
        None => serde_json::to_vec(&input["body"]).unwrap(),
    }
}

fn same_errors(expect: &Value, errors: &RequestErrors) -> Result<(), String> {
    let Some(want) = expect.get("errors") else {
        return Err(format!(
            "expected {}, got errors {:?}",
            expect["ok"],
            errors.all()
        ));
    };
    let got: Vec<Value> = errors
        .all()
        .iter()
        .map(|e| serde_json::json!({"field": e.field().as_str(), "code": e.code().as_str()}))
        .collect();
    ensure(*want == Value::Array(got.clone()), || {
        format!("errors: expected {want}, got {}", Value::Array(got))
    })?;
    let first = errors.first();
    let api = errors.to_api_error();
    let got_first = serde_json::json!({
        "status": api.http_status().as_u16(),
        "code": api.code().as_str(),
        "field": first.field().as_str(),
    });
    ensure(expect["error"] == got_first, || {
        format!("error: expected {}, got {got_first}", expect["error"])
    })
}

/// The fields every valid body has, as the expectation writes them.
fn same_fields(want: &Value, got: &Value) -> Result<(), String> {
    let want = want.as_object().unwrap();
    for (key, value) in want {
        let got = &got[key.as_str()];
        let equal = match key.as_str() {
            "fromAmount" | "toAmount" | "slippage" => match (value, got) {
                (Value::String(w), Value::String(g)) => dec(w) == dec(g),
                _ => false,
            },
            _ => value == got,
        };
        ensure(equal, || format!("{key}: expected {value}, got {got}"))?;
    }
    Ok(())
}

#[test]
fn fixed_order_body() {
    run(
        "fixed_order_body",
        |input, expect| match FixedOrderRequest::from_json(&body_bytes(input)) {
            Ok(request) => {
                let Some(want) = expect.get("ok") else {
                    return Err(format!("expected {}, got a valid body", expect["errors"]));
                };
                let parties = request.parties();
                let got = serde_json::json!({
                    "fromAmount": request.from_amount().to_string(),
                    "toAmount": request.to_amount().to_string(),
                    "fromAddress": parties.from_address().map(Address::as_str),
                    "fromAddressTag": parties.from_address_tag().map(AddressTag::as_str),
                    "toAddress": parties.to_address().as_str(),
                    "toAddressTag": parties.to_address_tag().map(AddressTag::as_str),
                    "pairId": request.pair_id().as_str(),
                    "slippage": request.slippage().percent().to_string(),
                    "swapMode": request.swap_mode().as_str(),
                });
                same_fields(want, &got)
            }
            Err(errors) => same_errors(expect, &errors),
        },
    );
}

#[test]
fn float_order_body() {
    run(
        "float_order_body",
        |input, expect| match FloatOrderRequest::from_json(&body_bytes(input)) {
            Ok(request) => {
                let Some(want) = expect.get("ok") else {
                    return Err(format!("expected {}, got a valid body", expect["errors"]));
                };
                let parties = request.parties();
                let got = serde_json::json!({
                    "fromAmount": request.from_amount().to_string(),
                    "toAmount": request.to_amount().to_string(),
                    "fromAddress": parties.from_address().map(Address::as_str),
                    "fromAddressTag": parties.from_address_tag().map(AddressTag::as_str),
                    "toAddress": parties.to_address().as_str(),
                    "toAddressTag": parties.to_address_tag().map(AddressTag::as_str),
                    "pairId": request.pair_id().as_str(),
                    "slippage": request.slippage().percent().to_string(),
                    "quoteId": request.quote_id().map(QuoteId::as_str),
                });
                same_fields(want, &got)
            }
            Err(errors) => same_errors(expect, &errors),
        },
    );
}

// --- reconcile ---------------------------------------------------------------

#[test]
fn reconcile() {
    run("reconcile", |input, expect| {
        let status = |v: &Value| OrderStatus::parse(v.as_str().unwrap()).unwrap();
        let current = &input["current"];
        let start = TrackedStatus::new(
            status(&current["status"]),
            current["depositDetected"].as_bool().unwrap(),
        );
        let observations: Vec<Observation> = input["observations"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| {
                Observation::new(status(&o["status"]))
                    .with_deposit_detected(o["depositDetected"].as_bool().unwrap())
                    .with_confirmations(o["confirmations"].as_u64().unwrap())
            })
            .collect();
        let end = reconcile_all(start, &observations);
        let got = serde_json::json!({
            "status": end.status().as_str(),
            "definitive": end.is_definitive(),
        });
        ensure(*expect == got, || format!("expected {expect}, got {got}"))
    });
}

// --- forwarded and client_headers ----------------------------------------------

fn ip(value: &Value) -> IpAddr {
    value.as_str().unwrap().parse().unwrap()
}

fn node_json(node: &Node) -> Value {
    let port = |port: Option<&NodePort>| match port {
        None => Value::Null,
        Some(NodePort::Number(n)) => Value::from(*n),
        Some(NodePort::Obfuscated(id)) => Value::from(id.as_str()),
    };
    match node {
        Node::Ip { addr, port: p } => {
            serde_json::json!({"kind": "ip", "addr": addr.to_string(), "port": port(p.as_ref())})
        }
        Node::Unknown { port: p } => {
            serde_json::json!({"kind": "unknown", "port": port(p.as_ref())})
        }
        Node::Obfuscated { id, port: p } => {
            serde_json::json!({"kind": "obfuscated", "id": id.as_str(), "port": port(p.as_ref())})
        }
    }
}

fn scope_code(scope: NonGlobal) -> &'static str {
    match scope {
        NonGlobal::Unspecified => "UNSPECIFIED",
        NonGlobal::Loopback => "LOOPBACK",
        NonGlobal::Private => "PRIVATE",
        NonGlobal::Shared => "SHARED",
        NonGlobal::LinkLocal => "LINK_LOCAL",
        NonGlobal::Multicast => "MULTICAST",
        NonGlobal::Broadcast => "BROADCAST",
        NonGlobal::Reserved => "RESERVED",
        _ => "OTHER",
    }
}

fn forwarded_error_code(error: &ForwardedError) -> (&'static str, Option<&'static str>) {
    let code = match error {
        ForwardedError::TooLong { .. } => "TOO_LONG",
        ForwardedError::Empty => "EMPTY",
        ForwardedError::TooManyElements => "TOO_MANY_ELEMENTS",
        ForwardedError::TooManyParams => "TOO_MANY_PARAMS",
        ForwardedError::ExpectedName { .. } => "EXPECTED_NAME",
        ForwardedError::ExpectedEquals { .. } => "EXPECTED_EQUALS",
        ForwardedError::ExpectedValue { .. } => "EXPECTED_VALUE",
        ForwardedError::NeedsQuoting { .. } => "NEEDS_QUOTING",
        ForwardedError::UnterminatedQuote { .. } => "UNTERMINATED_QUOTE",
        ForwardedError::ControlInQuote { .. } => "CONTROL_IN_QUOTE",
        ForwardedError::Unexpected { .. } => "UNEXPECTED",
        ForwardedError::DuplicateParam { .. } => "DUPLICATE_PARAM",
        ForwardedError::InvalidNode { reason, .. } => {
            let node = match reason {
                NodeError::Empty => "EMPTY",
                NodeError::InvalidName => "INVALID_NAME",
                NodeError::InvalidIpv6 => "INVALID_IPV6",
                NodeError::Ipv6NeedsBrackets => "IPV6_NEEDS_BRACKETS",
                NodeError::UnclosedBracket => "UNCLOSED_BRACKET",
                NodeError::InvalidObfuscated => "INVALID_OBFUSCATED",
                NodeError::InvalidPort => "INVALID_PORT",
                _ => "OTHER",
            };
            return ("INVALID_NODE", Some(node));
        }
        ForwardedError::InvalidHost { .. } => "INVALID_HOST",
        ForwardedError::InvalidProto { .. } => "INVALID_PROTO",
        _ => "OTHER",
    };
    (code, None)
}

fn same_client(want: &Value, got: Option<&Node>) -> Result<(), String> {
    let got = got.map_or(Value::Null, node_json);
    let equal = match (want, &got) {
        (Value::Null, Value::Null) => true,
        (Value::Object(w), Value::Object(_)) => {
            w["kind"] == got["kind"]
                && w.get("addr").is_none_or(|a| ip(a) == ip(&got["addr"]))
                && w.get("id").is_none_or(|id| *id == got["id"])
                && *w.get("port").unwrap_or(&Value::Null) == got["port"]
        }
        _ => false,
    };
    ensure(equal, || format!("client: expected {want}, got {got}"))
}

fn same_screening(want: &Value, got: &Result<IpAddr, NoClientAddress>) -> Result<(), String> {
    let equal = match got {
        Ok(addr) => want.get("addr").is_some_and(|a| ip(a) == *addr),
        Err(reason) => {
            let (code, scope) = match reason {
                NoClientAddress::NoFor => ("NO_FOR", None),
                NoClientAddress::Unknown => ("UNKNOWN", None),
                NoClientAddress::Obfuscated(_) => ("OBFUSCATED", None),
                NoClientAddress::NotGlobal { scope, .. } => {
                    ("NOT_GLOBAL", Some(scope_code(*scope)))
                }
                _ => ("OTHER", None),
            };
            let scope_code = match reason {
                NoClientAddress::NotGlobal { scope, .. } => Some(scope.code()),
                _ => None,
            };
            want["none"] == code
                && want["none"] == reason.code()
                && want.get("scope").and_then(Value::as_str) == scope
                && scope_code == scope
        }
    };
    ensure(equal, || format!("screening: expected {want}, got {got:?}"))
}

#[test]
fn forwarded() {
    run("forwarded", |input, expect| {
        let value = input["value"].as_str().unwrap();
        match (Forwarded::parse(value), expect.get("ok")) {
            (Ok(forwarded), Some(want)) => {
                ensure(
                    want["elements"].as_u64() == Some(forwarded.elements().len() as u64),
                    || {
                        format!(
                            "elements: expected {}, got {}",
                            want["elements"],
                            forwarded.elements().len()
                        )
                    },
                )?;
                same_client(&want["client"], forwarded.client())?;
                same_screening(&want["screening"], &forwarded.screening_addr())
            }
            (Ok(forwarded), None) => Err(format!("expected {}, got {forwarded}", expect["error"])),
            (Err(e), Some(_)) => Err(format!("expected a value, got {e:?}")),
            (Err(e), None) => {
                let (code, node) = forwarded_error_code(&e);
                let node_code = match &e {
                    ForwardedError::InvalidNode { reason, .. } => Some(reason.code()),
                    _ => None,
                };
                ensure(
                    expect["error"] == code
                        && expect["error"] == e.code()
                        && expect.get("node").and_then(Value::as_str) == node
                        && node_code == node,
                    || format!("expected {expect}, got {e:?}"),
                )
            }
        }
    });
}

#[test]
fn client_headers() {
    run("client_headers", |input, expect| {
        let pairs: Vec<(&str, &str)> = input["headers"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| (h[0].as_str().unwrap(), h[1].as_str().unwrap()))
            .collect();
        let integration = match input["integration"].as_str().unwrap() {
            "direct" => Integration::Direct,
            "proxying" => Integration::Proxying,
            other => panic!("integration {other}"),
        };
        match (
            ClientHeaders::from_pairs(pairs, integration),
            expect.get("ok"),
        ) {
            (Ok(headers), Some(want)) => {
                let addr = headers.screening_addr();
                ensure(
                    want["appName"] == headers.app_name()
                        && match &want["screeningAddr"] {
                            Value::Null => addr.is_none(),
                            a => addr == Some(ip(a)),
                        },
                    || {
                        format!(
                            "expected {want}, got appName {:?}, screeningAddr {addr:?}",
                            headers.app_name()
                        )
                    },
                )
            }
            (Ok(headers), None) => Err(format!(
                "expected {}, got headers of {:?}",
                expect["error"],
                headers.app_name()
            )),
            (Err(e), Some(_)) => Err(format!("expected headers, got {e:?}")),
            (Err(e), None) => same_error(&expect["error"], &e.to_api_error()),
        }
    });
}

// --- caip --------------------------------------------------------------------

fn component_name(component: CaipComponent) -> &'static str {
    match component {
        CaipComponent::Namespace => "namespace",
        CaipComponent::Reference => "reference",
        CaipComponent::AssetNamespace => "assetNamespace",
        CaipComponent::AssetReference => "assetReference",
        CaipComponent::TokenId => "tokenId",
        _ => "other",
    }
}

fn caip_error(error: InvalidCaipId) -> Value {
    let (reason, at) = match error {
        InvalidCaipId::Empty { .. } => ("EMPTY", None),
        InvalidCaipId::TooShort { .. } => ("TOO_SHORT", None),
        InvalidCaipId::TooLong { .. } => ("TOO_LONG", None),
        InvalidCaipId::InvalidCharacter { at, .. } => ("INVALID_CHARACTER", Some(at)),
        InvalidCaipId::MissingSeparator { .. } => ("MISSING_SEPARATOR", None),
        InvalidCaipId::MissingTokenId => ("MISSING_TOKEN_ID", None),
        InvalidCaipId::UnexpectedTokenId { at } => ("UNEXPECTED_TOKEN_ID", Some(at)),
        _ => ("OTHER", None),
    };
    serde_json::json!({"reason": reason, "component": component_name(error.component()), "at": at})
}

#[test]
fn caip() {
    run("caip", |input, expect| {
        let text = input["text"].as_str().unwrap();
        let chain = |c: &ChainId| serde_json::json!({"namespace": c.namespace(), "reference": c.reference()});
        let asset_type = |t: &Caip19AssetType| {
            let mut out = chain(t.chain_id());
            out["assetNamespace"] = t.asset_namespace().into();
            out["assetReference"] = t.asset_reference().into();
            out
        };
        let got = match input["type"].as_str().unwrap() {
            "chainId" => ChainId::parse(text).map(|c| chain(&c)),
            "assetType" => Caip19AssetType::parse(text).map(|t| asset_type(&t)),
            "assetId" => Caip19AssetId::parse(text).map(|a| {
                let mut out = asset_type(a.asset_type());
                out["tokenId"] = a.token_id().into();
                out
            }),
            other => panic!("type {other}"),
        };
        match (got, expect.get("ok")) {
            (Ok(got), Some(want)) => ensure(*want == got, || format!("expected {want}, got {got}")),
            (Ok(got), None) => Err(format!("expected {}, got {got}", expect["error"])),
            (Err(e), Some(want)) => Err(format!("expected {want}, got {e:?}")),
            (Err(e), None) => {
                let want = &expect["error"];
                let got = caip_error(e);
                // Only the keys the expectation gives are compared.
                let equal = want
                    .as_object()
                    .unwrap()
                    .iter()
                    .all(|(key, value)| got[key.as_str()] == *value);
                ensure(equal, || format!("expected {want}, got {got} ({e:?})"))?;
                // The crate's stable code, and its offset where the vector
                // gives one.
                let at_agrees = want
                    .get("at")
                    .and_then(Value::as_u64)
                    .is_none_or(|at| e.at() == usize::try_from(at).ok());
                ensure(want["reason"] == e.code() && at_agrees, || {
                    format!(
                        "code()/at(): expected {want}, got {} {:?}",
                        e.code(),
                        e.at()
                    )
                })
            }
        }
    });
}

// --- rates_response ----------------------------------------------------------

#[test]
fn rates_response() {
    run("rates_response", |input, expect| {
        let list: Vec<Rate> = serde_json::from_value(input["rates"].clone()).unwrap();
        let built = RatesResponse::try_from(list);
        let decoded = serde_json::from_value::<RatesResponse>(input["rates"].clone());
        ensure(built.is_ok() == decoded.is_ok(), || {
            format!("building and decoding disagree: {built:?} / {decoded:?}")
        })?;
        match (built, expect.get("ok")) {
            (Ok(rates), Some(want)) => {
                ensure(want["count"].as_u64() == Some(rates.len() as u64), || {
                    format!("count: expected {}, got {}", want["count"], rates.len())
                })
            }
            (Ok(rates), None) => Err(format!(
                "expected {}, got {} rates",
                expect["refused"],
                rates.len()
            )),
            (Err(e), Some(_)) => Err(format!("expected a response, got {e}")),
            (Err(e), None) => {
                let code = match e {
                    InvalidRates::TooMany { .. } => "TOO_MANY",
                    InvalidRates::MixedPairs(_) => "MIXED_PAIRS",
                    InvalidRates::DuplicateId { .. } => "DUPLICATE_ID",
                    _ => "OTHER",
                };
                ensure(
                    expect["refused"] == code && expect["refused"] == e.code(),
                    || {
                        format!(
                            "expected {}, got {e} (code() {})",
                            expect["refused"],
                            e.code()
                        )
                    },
                )
            }
        }
    });
}

// --- order_plan --------------------------------------------------------------

/// `input.decimals` as the pair's asset records.
fn listing_of(input: &Value, pair: &str) -> Option<swaproute::discovery::AssetsResponse> {
    let decimals = input.get("decimals")?;
    let (from, to) = pair.split_once('_').unwrap();
    let record = |id: &str, places: &Value| {
        serde_json::json!({"id": id, "name": id, "symbol": id, "decimals": places,
            "network": "vector"})
    };
    Some(
        serde_json::from_value(serde_json::json!([
            record(from, &decimals["from"]),
            record(to, &decimals["to"])
        ]))
        .unwrap(),
    )
}

/// Each expected side of a required-input "no route" against the typed
/// error's JSON: decimals by value, ids and nulls as written.
fn same_side(side: &str, want: &Value, got: &Value) -> Result<(), String> {
    if want.is_null() || got.is_null() {
        return ensure(want.is_null() && got.is_null(), || {
            format!("{side}: expected {want}, got {got}")
        });
    }
    ensure(want["rateId"] == got["rateId"], || {
        format!(
            "{side}.rateId: expected {}, got {}",
            want["rateId"], got["rateId"]
        )
    })?;
    for key in ["required", "limit", "toAmount"] {
        same_decimal(&format!("{side}.{key}"), &want[key], &got[key])?;
    }
    Ok(())
}

#[test]
fn order_plan() {
    use swaproute::order::{OrderContext, PlanError};
    use swaproute::screening::ScreeningPolicy;
    run("order_plan", |input, expect| {
        let body = serde_json::to_vec(&input["body"]).unwrap();
        let request = FixedOrderRequest::from_json(&body).map_err(|e| e.to_string())?;
        let rates = rates_of(input);
        let policy = ScreeningPolicy::new();
        let listing = listing_of(input, request.pair_id().as_str());
        let mut context = OrderContext::new(now_of(input), &policy);
        if let Some(listing) = &listing {
            context = context.with_assets(listing.pair_assets(request.pair_id()).unwrap());
        }
        match input.get("limitPolicy").and_then(Value::as_str) {
            None | Some("strict") => {}
            Some("spec") => context = context.with_limit_policy(LimitPolicy::Spec),
            Some(other) => panic!("limitPolicy {other}"),
        }
        match (request.plan(&rates, &context), expect.get("order")) {
            (Ok(plan), Some(want)) => {
                ensure(want["rateId"] == plan.rate_id().as_str(), || {
                    format!(
                        "rateId: expected {}, got {}",
                        want["rateId"],
                        plan.rate_id()
                    )
                })?;
                let text = |d: Decimal| Value::String(d.to_string());
                same_decimal("amount", &want["amount"], &text(plan.amount()))?;
                let to = plan
                    .promised_output()
                    .unwrap_or_else(|| request.to_amount().get());
                same_decimal("toAmount", &want["toAmount"], &text(to))?;
                let limits = serde_json::to_value(plan.amount_limits()).unwrap();
                let (wl, gl) = (&want["amountLimits"], &limits);
                ensure(wl["status"] == gl["status"], || {
                    format!("amountLimits: expected {wl}, got {gl}")
                })?;
                same_decimal(
                    "amountLimits.limit",
                    wl.get("limit").unwrap_or(&Value::Null),
                    gl.get("limit").unwrap_or(&Value::Null),
                )
            }
            (Ok(plan), None) => Err(format!(
                "expected {}, got a plan on {}",
                expect["error"],
                plan.rate_id()
            )),
            (Err(error), None) => same_error(&expect["error"], &error.to_api_error()),
            (Err(error), Some(_)) => Err(format!("expected a plan, got {error}")),
        }?;
        let Some(want) = expect.get("error") else {
            return Ok(());
        };
        let error = request.plan(&rates, &context).unwrap_err();
        let api = error.to_api_error();
        let body = serde_json::to_value(api.to_body()).unwrap();
        for key in ["bound", "available"] {
            let (w, g) = (want.get(key), body.get(key));
            same_decimal(key, w.unwrap_or(&Value::Null), g.unwrap_or(&Value::Null))?;
        }
        match (want.get("requiredInput"), &error) {
            (None, PlanError::RequiredInput(_)) => Err(format!("unexpected {error:?}")),
            (None, _) => Ok(()),
            (Some(sides), PlanError::RequiredInput(no_route)) => {
                let got = serde_json::to_value(no_route).unwrap();
                same_side("above", &sides["above"], &got["above"])?;
                same_side("below", &sides["below"], &got["below"])
            }
            (Some(_), other) => Err(format!("expected a required-input no route, got {other:?}")),
        }
    });
}

#[test]
fn verify_order() {
    use swaproute::order::{Order, OrderContext, OrderRead};
    use swaproute::screening::ScreeningPolicy;
    run("verify_order", |input, expect| {
        let body = serde_json::to_vec(&input["body"]).unwrap();
        let request = FixedOrderRequest::from_json(&body).map_err(|e| e.to_string())?;
        let rates = rates_of(input);
        let policy = ScreeningPolicy::new();
        let options = &input["options"];
        let context = OrderContext::new(now_of(options), &policy);
        let plan = request
            .plan(&rates, &context)
            .map_err(|e| format!("plan: {e}"))?;
        let order: Order =
            serde_json::from_value(input["order"].clone()).map_err(|e| format!("order: {e}"))?;
        let read = match options.get("read").and_then(Value::as_str) {
            None | Some("created") => OrderRead::Created,
            Some("fetched") => OrderRead::Fetched,
            Some(other) => panic!("read {other}"),
        };
        let got = match plan.verify(&request, &order, read) {
            Ok(()) => Value::Array(Vec::new()),
            Err(mismatches) => serde_json::to_value(&mismatches).unwrap(),
        };
        ensure(got == expect["mismatches"], || {
            format!("mismatches: expected {}, got {got}", expect["mismatches"])
        })?;
        ensure(expect["ok"] == (got == Value::Array(Vec::new())), || {
            "ok disagrees with mismatches".to_owned()
        })
    });
}

#[test]
fn price_guard() {
    use swaproute::route::{PriceGuard, PriceReference};
    run("price_guard", |input, expect| {
        let rates: Vec<Rate> = serde_json::from_value(input["rates"].clone()).unwrap();
        let guard_input = &input["priceGuard"];
        let bps = u32::try_from(guard_input["maxDeviationBps"].as_u64().unwrap()).unwrap();
        let guard = match guard_input.get("reference").and_then(Value::as_str) {
            Some(text) => PriceGuard::against(PriceReference::new(dec(text)).unwrap(), bps),
            None => PriceGuard::median(bps),
        };
        let now = now_of(input);
        let request =
            RouteRequest::exact_in(amount(&input["fromAmount"]), now).with_price_guard(&guard);
        // The voters' median (ruling 42), or the caller's reference.
        let reference = request
            .price_reference(&rates)
            .map(|r| Value::String(r.to_string()));
        ensure(
            reference.unwrap_or(Value::Null) == expect["reference"],
            || format!("reference: expected {}", expect["reference"]),
        )?;
        let selection = request.select(&rates);
        let got = serde_json::to_value(&selection).unwrap();
        let routes: Vec<&Value> = got["routes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| &r["rateId"])
            .collect();
        let want: Vec<&Value> = expect["routes"].as_array().unwrap().iter().collect();
        ensure(routes == want, || {
            format!("routes: expected {want:?}, got {routes:?}")
        })?;
        let rejected = got["rejected"].as_array().unwrap();
        let want = expect["rejected"].as_array().unwrap();
        ensure(rejected.len() == want.len(), || {
            format!("rejected: expected {want:?}, got {rejected:?}")
        })?;
        for (want, got) in want.iter().zip(rejected) {
            for key in ["rateId", "reason"] {
                ensure(want[key] == got[key], || {
                    format!("{key}: expected {}, got {}", want[key], got[key])
                })?;
            }
            for key in ["multiplier", "deviationBps"] {
                if let Some(value) = want.get(key) {
                    same_decimal(key, value, &got[key])?;
                }
            }
            if let Some(value) = want.get("reference") {
                ensure(*value == got["reference"], || {
                    format!("reference: expected {value}, got {}", got["reference"])
                })?;
            }
        }
        match (expect.get("error"), selection.no_route()) {
            (Some(want), Some(no_route)) => same_no_route(want, no_route),
            (None, None) => Ok(()),
            (want, got) => Err(format!("error: expected {want:?}, got {got:?}")),
        }
    });
}

// --- ruling 50: schedule, requote, deposit -------------------------------------

/// A decimal as the vectors write it: plain text without trailing zeros.
fn plain(value: Decimal) -> Value {
    Value::String(value.normalize().to_string())
}

#[test]
fn schedule() {
    run("schedule", |input, expect| {
        let rates = rates_of(input);
        let request = RouteRequest::exact_in(amount(&input["fromAmount"]), now_of(input));
        let schedule = request.schedule(&rates).map_err(|e| e.to_string())?;
        let got: Vec<Value> = schedule
            .intervals()
            .iter()
            .map(|i| {
                serde_json::json!({
                    "from": i.from().as_millis(),
                    "until": i.until().as_millis(),
                    "rateId": i.rate_id().map(swaproute::RateId::as_str),
                })
            })
            .collect();
        let got = Value::Array(got);
        ensure(got == expect["schedule"], || {
            format!("schedule: expected {}, got {got}", expect["schedule"])
        })?;
        let until = request
            .valid_until(&rates)
            .map_or(Value::Null, |at| Value::from(at.as_millis()));
        ensure(until == expect["validUntil"], || {
            format!("validUntil: expected {}, got {until}", expect["validUntil"])
        })
    });
}

#[test]
fn requote() {
    run("requote", |input, expect| {
        let mode: SwapMode = input["mode"].as_str().unwrap().parse().unwrap();
        let promise = Promise::new(
            mode,
            dec(input["promised"].as_str().unwrap()),
            dec(input["bound"].as_str().unwrap()),
        )
        .map_err(|e| e.to_string())?;
        let requote = match input["fresh"].as_str() {
            Some(fresh) => promise.classify(dec(fresh)),
            None => promise.gone(None),
        };
        let class = Value::from(requote.class().as_str());
        ensure(class == expect["class"], || {
            format!("class: expected {}, got {class}", expect["class"])
        })?;
        let loss = requote.loss_bps().map_or(Value::Null, plain);
        ensure(loss == expect["lossBps"], || {
            format!("lossBps: expected {}, got {loss}", expect["lossBps"])
        })
    });
}

#[test]
fn deposit() {
    run("deposit", |input, expect| {
        let rates: RatesResponse =
            serde_json::from_value(Value::Array(vec![input["rate"].clone()])).unwrap();
        let body = format!(
            r#"{{"pairId":"BTC_ETH","fromAmount":{},"toAmount":"1","slippage":100,"fromAddress":null,
            "toAddress":"0x52908400098527886E0F7030069857D2E4169EE7"}}"#,
            input["fromAmount"]
        );
        let request =
            FixedOrderRequest::from_json(body.as_bytes()).map_err(|e| format!("{e:?}"))?;
        let screening = ScreeningPolicy::new();
        let plan = request
            .plan(&rates, &OrderContext::new(now_of(input), &screening))
            .map_err(|e| e.to_string())?;
        let outcome = plan.deposit_outcome(
            amount(&input["deposit"]),
            EpochMillis::new(input["observedAt"].as_u64().unwrap()),
        );
        let got = serde_json::json!({
            "class": outcome.class().as_str(),
            "expectedOutput": outcome.expected_output().map(|d| d.normalize().to_string()),
            "limit": outcome.limit().map(|d| d.normalize().to_string()),
        });
        ensure(&got == expect, || format!("expected {expect}, got {got}"))
    });
}
