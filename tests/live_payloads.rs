#![allow(clippy::arithmetic_side_effects)]
//! The live-data suite (issue 42, item 3): every payload of tests/payloads/
//! (copied from ../shared/payloads, with tests/payloads/derived/'s variants
//! of them) is decoded and re-encoded to the same JSON value (ruling 22),
//! planned and verified where it is an order, and ranked in both modes where
//! it is rates (ExactOut with the capability assumed, ruling 4: no live rate
//! lists "exactOut").
//!
//! A file the suite does not know fails it: a payload added to the
//! directory must be given its check here.
//!
//! The ranking oracle is written here, from the rulings, in plain
//! `rust_decimal` arithmetic over every rate (not the crate's engine):
//! ExactIn, the greatest `x × multiplier − fee` among the unexpired rates
//! whose limits hold `x`, ties to the lower fee then the id; ExactOut, the
//! least `⌈(toAmount + fee) / multiplier⌉₈` within its rate's limits.

use std::path::Path;

use rust_decimal::{Decimal, RoundingStrategy};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{json, Value};
use swaproute::discovery::{Asset, AssetsResponse, Pair, PairsResponse};
use swaproute::error::ErrorBody;
use swaproute::order::{
    DepositTransactionUpdate, FixedOrderRequest, FloatOrderRequest, Order, OrderContext, OrderRead,
};
use swaproute::quote::Quote;
use swaproute::route::RouteRequest;
use swaproute::screening::ScreeningPolicy;
use swaproute::{estimate_exact_out, Amount, EpochMillis, Rate, RatesResponse};

/// Decodes `text` as `T`, encodes it, and checks it is the same JSON value.
fn round_trip<T: DeserializeOwned + Serialize>(name: &str, text: &str) -> T {
    let original: Value = serde_json::from_str(text).unwrap();
    let decoded: T = serde_json::from_str(text).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(serde_json::to_value(&decoded).unwrap(), original, "{name}");
    decoded
}

fn payloads() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/payloads");
    let mut out = Vec::new();
    for sub in [dir.clone(), dir.join("derived")] {
        for entry in std::fs::read_dir(&sub).unwrap() {
            let path = entry.unwrap().path();
            if path.is_file() {
                let name = path
                    .strip_prefix(&dir)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                out.push((name, std::fs::read_to_string(&path).unwrap()));
            }
        }
    }
    out.sort();
    out
}

fn d(text: &str) -> Decimal {
    text.parse().unwrap()
}

/// The numbers of a rate, read from its JSON (not through the crate).
struct Plain {
    id: String,
    m: Decimal,
    fee: Decimal,
    min: Decimal,
    max: Decimal,
    expiry: u64,
}

fn plain(rate: &Value) -> Option<Plain> {
    // A number no Decimal holds is the rate's defect (ruling 44): no route.
    let num = |key: &str| -> Option<Decimal> {
        let v = &rate[key]["value"];
        let text = v.as_str().map_or_else(|| v.to_string(), str::to_owned);
        if text.contains(['e', 'E']) {
            Decimal::from_scientific(&text).ok()
        } else {
            text.parse().ok()
        }
    };
    Some(Plain {
        id: rate["id"].as_str()?.to_owned(),
        m: num("amount")?,
        fee: num("minerFee")?,
        min: num("min")?,
        max: num("max")?,
        expiry: rate["expiry"].as_u64()?,
    })
}

/// The oracle's ExactIn answer: (id, net).
fn best_in(rates: &[Plain], x: Decimal, now: u64) -> Option<(String, Decimal)> {
    let mut best: Option<(&Plain, Decimal)> = None;
    for r in rates
        .iter()
        .filter(|r| r.expiry > now && r.m > Decimal::ZERO)
    {
        if x < r.min || x > r.max {
            continue;
        }
        let net = x.checked_mul(r.m)?.checked_sub(r.fee)?;
        if net <= Decimal::ZERO {
            continue;
        }
        let better = match &best {
            None => true,
            Some((b, bn)) => {
                net > *bn || (net == *bn && (r.fee < b.fee || (r.fee == b.fee && r.id < b.id)))
            }
        };
        if better {
            best = Some((r, net));
        }
    }
    best.map(|(r, net)| (r.id.clone(), net))
}

/// The oracle's ExactOut estimate: the least required input within limits.
fn least_required(rates: &[Plain], to: Decimal, now: u64) -> Option<Decimal> {
    rates
        .iter()
        .filter(|r| r.expiry > now && r.m > Decimal::ZERO)
        .filter_map(|r| {
            let need = to
                .checked_add(r.fee)?
                .checked_div(r.m)?
                .round_dp_with_strategy(8, RoundingStrategy::ToPositiveInfinity);
            (need >= r.min && need <= r.max).then_some(need)
        })
        .min()
}

/// Ranks a rates payload in both modes and checks the answers against the oracle.
fn rank_both_modes(name: &str, text: &str, rates: &RatesResponse) {
    let json: Vec<Value> = serde_json::from_str(text).unwrap();
    let plain: Vec<Plain> = json.iter().filter_map(plain).collect();
    let Some(earliest) = plain.iter().map(|r| r.expiry).min() else {
        return;
    };
    let now = earliest - 1;
    // ExactIn at the smallest max: every rate whose min allows it competes.
    let x = plain.iter().map(|r| r.max).min().unwrap();
    let x = x.round_dp_with_strategy(8, RoundingStrategy::ToZero);
    let request = RouteRequest::exact_in(Amount::new(x).unwrap(), EpochMillis::new(now));
    match (request.best(rates), best_in(&plain, x, now)) {
        (Ok(route), Some((id, net))) => {
            assert_eq!(route.rate().id().as_str(), id, "{name} ExactIn");
            assert_eq!(route.net_output(), net, "{name} ExactIn");
        }
        (Err(_), None) => {}
        (got, want) => panic!(
            "{name} ExactIn: {:?} against {want:?}",
            got.map(|r| r.net_output())
        ),
    }
    // ExactOut: refused as sent (no rate lists "exactOut"), planned with the
    // capability assumed.
    let to = plain.iter().map(|r| r.m).max().unwrap();
    let to_amount = Amount::new(to.round_dp(8)).unwrap();
    if !json
        .iter()
        .any(|r| r["features"].to_string().contains("exactOut"))
    {
        let error = estimate_exact_out(rates, to_amount, EpochMillis::new(now)).unwrap_err();
        assert_eq!(error.code().as_str(), "UNSUPPORTED_SWAP_MODE", "{name}");
    }
    let assumed = rates.clone().assume_exact_out();
    assert_eq!(
        serde_json::to_value(&assumed).unwrap(),
        serde_json::from_str::<Value>(text).unwrap(),
        "{name}: the assumption leaves the wire form alone"
    );
    let estimate = estimate_exact_out(&assumed, to_amount, EpochMillis::new(now));
    match (estimate, least_required(&plain, to_amount.get(), now)) {
        (Ok(found), Some(need)) => {
            assert_eq!(found.from_amount().get(), need, "{name} ExactOut");
            assert!(found.rate().is_exact_out_assumed(), "{name}");
        }
        (Err(_), None) => {}
        (got, want) => panic!(
            "{name} ExactOut: {:?} against {want:?}",
            got.map(|e| e.from_amount())
        ),
    }
}

/// The live fixed flow: the real body, LTC_USDT rates naming the real order's
/// rate, the real 201 (`inProgress`) and the later GET, each verified.
fn plan_and_verify_live(created: &str, fetched: &str) {
    let request: FixedOrderRequest =
        serde_json::from_str(include_str!("payloads/order-create-request.json")).unwrap();
    let rates: RatesResponse =
        serde_json::from_str(include_str!("../cli/data/order/rates.json")).unwrap();
    let policy = ScreeningPolicy::new();
    let plan = request
        .plan(
            &rates,
            &OrderContext::new(EpochMillis::new(1_773_221_236_204), &policy),
        )
        .unwrap();
    // 1.25 × 77.9 − 0.01 = 97.365; the bound 98 × 0.98 = 96.04.
    assert_eq!(plan.amount(), d("1.25"));
    assert_eq!(plan.promised_output(), Some(d("97.365")));
    assert!(!plan.addresses_checked());
    for (text, read) in [(created, OrderRead::Created), (fetched, OrderRead::Fetched)] {
        let order: Order = serde_json::from_str(text).unwrap();
        assert_eq!(plan.verify(&request, &order, read), Ok(()));
    }
}

/// The live floating body (DorkFi) against a stand-in quote for its pair and
/// amount: 25 USDCALGO for 24.7, bound 24.61 × 0.98 = 24.1178.
fn plan_float(text: &str) {
    let request: FloatOrderRequest = round_trip("order-float-create-request.json", text);
    let quote: Quote = serde_json::from_value(json!({
        "id": "q-live", "pairId": request.pair_id().as_str(),
        "fromAmount": {"assetId": request.pair_id().from().as_str(), "value": "25"},
        "toAmount": {"assetId": request.pair_id().to().as_str(), "value": "24.7"},
        "expiry": 4_102_444_800_000_u64
    }))
    .unwrap();
    let policy = ScreeningPolicy::new();
    let plan = request
        .plan(
            &quote,
            &OrderContext::new(EpochMillis::new(1_785_000_000_000), &policy),
        )
        .unwrap();
    assert_eq!(plan.amount(), d("25"));
}

#[test]
#[allow(clippy::too_many_lines)]
fn every_payload_is_decoded_re_encoded_planned_and_ranked() {
    let all = payloads();
    let text_of = |name: &str| -> String {
        all.iter()
            .find(|(n, _)| n == name)
            .map_or_else(|| panic!("{name} missing"), |(_, t)| t.clone())
    };
    let mut seen = 0;
    for (name, text) in &all {
        match name.as_str() {
            "README.md" => continue,
            "pairs-response.json" => {
                round_trip::<PairsResponse>(name, text);
            }
            "pairs-response.csv" => {
                let pairs = PairsResponse::from_csv(text).unwrap();
                assert_eq!(pairs.to_csv(), *text, "{name}");
            }
            "pair-response.json" => {
                round_trip::<Pair>(name, text);
            }
            "asset-response.json" => {
                round_trip::<Asset>(name, text);
            }
            "assets-response.json" => {
                round_trip::<AssetsResponse>(name, text);
            }
            "error-missing-authentication.json" => {
                round_trip::<ErrorBody>(name, text);
            }
            "error-not-found.json" => {
                // The mock's other shape ({code, error, message}): its code is read.
                let value: Value = serde_json::from_str(text).unwrap();
                assert_eq!(value["code"], "NOT_FOUND");
            }
            "order-create-request.json" => {
                round_trip::<FixedOrderRequest>(name, text);
            }
            "order-float-create-request.json" => plan_float(text),
            "order-create-response.json" => {
                round_trip::<Order>(name, text);
                plan_and_verify_live(text, &text_of("order-status-response.json"));
            }
            "order-status-response.json"
            | "order-create-response-docs.json"
            | "order-status-response-docs-complete.json"
            | "order-status-response-string-amounts.json" => {
                let order: Order = round_trip(name, text);
                // A GET of any status reads; its detection is its status alone (ruling 47).
                let _ = order.observation();
            }
            "order-update-request.json" | "order-update-response.json" => {
                round_trip::<DepositTransactionUpdate>(name, text);
            }
            "quote-response.json" => {
                let quote: Quote = round_trip(name, text);
                assert_eq!(quote.defect(), None);
            }
            "rates-response.json"
            | "rates-response-legacy.json"
            | "derived/rates-response-unheld-multiplier.json"
            | "derived/rates-response-empty-campaign.json" => {
                let rates: RatesResponse = round_trip(name, text);
                assert!(rates
                    .iter()
                    .all(|r: &Rate| r.defect().is_none() || name.contains("unheld")));
                rank_both_modes(name, text, &rates);
            }
            other => panic!("the live-data suite has no check for payload {other}"),
        }
        seen += 1;
    }
    // 19 payloads of ../shared/payloads (README aside) and 2 derived ones.
    assert_eq!(seen, 21);
}
