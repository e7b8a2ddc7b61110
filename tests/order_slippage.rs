//! Issue 29: slippage bounds the client's estimate (ruling 33) and order
//! plans fail closed on limits (ruling 34). Every reproduction of the issue
//! is a test here; expected values are worked out by hand in the comments
//! (the long ones with exact fractions: `a / b` rounded as stated).
//!
//! The bundled rates (cli/data/rates.json) that serve ExactOut at a
//! `fromAmount` estimate of 0.5 BTC:
//!
//! | rate | multiplier | fee | min | max |
//! | --- | --- | --- | --- | --- |
//! | `d5b1…` | 33.14218692377834 | 0.00019192 | 0.00079787 | 8.33028657 |
//! | `eyJ…` | 33.20110457 | 0.00215 | 0.01 | 3.5 |
//! | `7c9e…` | 32.98701122334455 | 0 | 0.0005 | 1.2 |
//!
//! (`ch@nge…` has no exactOut, the `d5b1…` variant is sponsored, `4f0e…`
//! expired; `q1w2…` has no exactOut.)
#![allow(clippy::unreadable_literal, clippy::arithmetic_side_effects)]

use crate::common::d;
use serde_json::{json, Value};
use swaproute::discovery::AssetsResponse;
use swaproute::error::ErrorBody;
use swaproute::order::{
    FixedOrderRequest, FloatOrderRequest, OrderContext, PlanError, RequiredInputNoRoute,
};
use swaproute::quote::Quote;
use swaproute::route::{LimitCheck, LimitPolicy};
use swaproute::screening::ScreeningPolicy;
use swaproute::{ApiError, EpochMillis, ErrorCode, RatesResponse, SlippageError, SwapMode};

const NOW: EpochMillis = EpochMillis::new(1_785_000_000_000);
const TO_ADDRESS: &str = "0x52908400098527886E0F7030069857D2E4169EE7";

fn bundled() -> &'static RatesResponse {
    static RATES: std::sync::LazyLock<RatesResponse> = std::sync::LazyLock::new(|| {
        serde_json::from_str(include_str!("../cli/data/rates.json")).unwrap()
    });
    &RATES
}

fn fixed(fields: Value) -> FixedOrderRequest {
    let mut body = json!({"pairId": "BTC_ETH", "fromAddress": null, "toAddress": TO_ADDRESS});
    let Value::Object(fields) = fields else {
        panic!("fields are an object")
    };
    for (key, value) in fields {
        body[key] = value;
    }
    serde_json::from_value(body).unwrap()
}

fn plan_error(request: &FixedOrderRequest, rates: &RatesResponse) -> PlanError {
    let policy = ScreeningPolicy::new();
    request
        .plan(rates, &OrderContext::new(NOW, &policy))
        .unwrap_err()
}

fn body_of(error: &PlanError) -> Value {
    serde_json::to_value(ApiError::from(error.clone())).unwrap()
}

// ------------------------------------------------------------ ruling 33

/// Issue 29, reproduction 1: 0.5 BTC → 20 ETH at slippage 0 was created
/// (201) with an order promising 16.598 ETH.
#[test]
fn an_exact_in_plan_below_the_slippage_bound_is_refused_with_both_numbers() {
    let request = fixed(json!({"fromAmount": "0.5", "toAmount": "20", "slippage": 0}));
    let error = plan_error(&request, bundled());
    // The best route (eyJ…) promises ⌊0.5 × 33.20110457 − 0.00215⌋₈ =
    // ⌊16.598402285⌋₈ = 16.59840228; the bound is 20 × (100 − 0) / 100 = 20.
    let PlanError::Slippage(SlippageError::Exceeded(exceeded)) = &error else {
        panic!("{error:?}");
    };
    assert_eq!(exceeded.mode, SwapMode::ExactIn);
    assert_eq!(exceeded.bound, d("20"));
    assert_eq!(exceeded.available, d("16.59840228"));
    assert_eq!(exceeded.estimate, d("20"));
    assert_eq!(exceeded.asset.as_str(), "ETH");
    assert_eq!(
        (error.code(), error.http_status().as_u16()),
        (ErrorCode::SlippageExceeded, 409)
    );
    assert_eq!(
        body_of(&error),
        json!({"status": 409, "code": "SLIPPAGE_EXCEEDED",
            "details": "slippage exceeded: the best route promises 16.59840228 ETH, below the least 20 ETH allowed (toAmount 20 ETH less 0%)",
            "bound": "20", "available": "16.59840228"})
    );
    // The typed fields, as the JS package will expose them.
    assert_eq!(
        serde_json::to_value(exceeded).unwrap(),
        json!({"swapMode": "ExactIn", "slippage": 0, "estimate": "20", "bound": "20",
            "available": "16.59840228", "assetId": "ETH"})
    );
}

#[test]
fn the_exact_in_bound_is_compared_exactly_at_its_edge() {
    let policy = ScreeningPolicy::new();
    let context = OrderContext::new(NOW, &policy);
    // Slippage 0 and toAmount equal to the promise: allowed.
    let at = fixed(json!({"fromAmount": "0.5", "toAmount": "16.59840228", "slippage": "0"}));
    let plan = at.plan(bundled(), &context).unwrap();
    assert_eq!(plan.promised_output(), Some(d("16.59840228")));
    // One unit above the promise: refused.
    let above = fixed(json!({"fromAmount": "0.5", "toAmount": "16.59840229", "slippage": "0"}));
    assert_eq!(
        above.plan(bundled(), &context).unwrap_err().code(),
        ErrorCode::SlippageExceeded
    );
    // The default 2: 16.93714518 × 98 / 100 = 16.5984022764 ≤ 16.59840228,
    // and 16.93714519 × 0.98 = 16.5984022862 > 16.59840228.
    let default = fixed(json!({"fromAmount": "0.5", "toAmount": "16.93714518"}));
    assert!(default.plan(bundled(), &context).is_ok());
    let past = fixed(json!({"fromAmount": "0.5", "toAmount": "16.93714519"}));
    let error = past.plan(bundled(), &context).unwrap_err();
    assert_eq!(body_of(&error)["bound"], "16.5984022862");
    // Slippage 100 accepts any promise.
    let any = fixed(json!({"fromAmount": "0.5", "toAmount": "1000000", "slippage": 100}));
    assert!(any.plan(bundled(), &context).is_ok());
}

#[test]
fn slippage_never_changes_the_selected_route() {
    // The same body under every slippage selects the same rate (the best),
    // refused or not.
    let policy = ScreeningPolicy::new();
    let context = OrderContext::new(NOW, &policy);
    for slippage in ["0", "1", "2", "50", "100"] {
        let request = fixed(json!({"fromAmount": "0.5", "toAmount": "16.9", "slippage": slippage}));
        match request.plan(bundled(), &context) {
            Ok(plan) => assert!(plan.rate_id().as_str().starts_with("eyJ"), "{slippage}"),
            Err(PlanError::Slippage(SlippageError::Exceeded(e))) => {
                assert_eq!(e.available, d("16.59840228"), "{slippage}");
            }
            Err(other) => panic!("{other:?}"),
        }
    }
}

#[test]
fn an_exact_out_plan_above_the_slippage_bound_is_refused() {
    // ⌈(10 + 0.00215) / 33.20110457⌉₈ = 0.30125956 (tests/server.rs); at
    // slippage 0 the most input is the estimate 0.3 itself.
    let request = fixed(
        json!({"fromAmount": "0.3", "toAmount": "10", "swapMode": "ExactOut", "slippage": 0}),
    );
    let error = plan_error(&request, bundled());
    assert_eq!(
        body_of(&error),
        json!({"status": 409, "code": "SLIPPAGE_EXCEEDED",
            "details": "slippage exceeded: the best route needs 0.30125956 BTC, above the most 0.3 BTC allowed (fromAmount 0.3 BTC plus 0%)",
            "bound": "0.3", "available": "0.30125956"})
    );
    // 0.3 × 100.5 / 100 = 0.3015 ≥ 0.30125956: allowed.
    let request = fixed(
        json!({"fromAmount": "0.3", "toAmount": "10", "swapMode": "ExactOut", "slippage": "0.5"}),
    );
    let policy = ScreeningPolicy::new();
    let plan = request
        .plan(bundled(), &OrderContext::new(NOW, &policy))
        .unwrap();
    assert_eq!(plan.amount(), d("0.30125956"));
}

fn quote() -> Quote {
    serde_json::from_value(json!({"id": "q-1", "pairId": "BTC_ETH",
        "fromAmount": {"assetId": "BTC", "value": "0.5"},
        "toAmount": {"assetId": "ETH", "value": "16.5"}, "expiry": 1_785_000_030_000_u64}))
    .unwrap()
}

fn float(to_amount: &str, slippage: &Value) -> FloatOrderRequest {
    serde_json::from_value(json!({"pairId": "BTC_ETH", "fromAmount": "0.5",
        "fromAddress": null, "toAmount": to_amount, "toAddress": TO_ADDRESS,
        "slippage": slippage}))
    .unwrap()
}

#[test]
fn a_floating_plan_is_held_to_the_quote_s_to_amount() {
    let policy = ScreeningPolicy::new();
    let context = OrderContext::new(NOW, &policy);
    let quote = quote();
    // 16.9 × 98 / 100 = 16.562 > 16.5: refused.
    let error = float("16.9", &json!(2)).plan(&quote, &context).unwrap_err();
    let api = ApiError::from(error);
    assert_eq!(api.code(), ErrorCode::SlippageExceeded);
    assert_eq!(api.http_status().as_u16(), 409);
    assert_eq!(
        (api.bound(), api.available()),
        (Some(d("16.562")), Some(d("16.5")))
    );
    // 16.8 × 0.98 = 16.464 ≤ 16.5; null slippage is the default 2.
    assert!(float("16.8", &Value::Null).plan(&quote, &context).is_ok());
    // Slippage 0 and the quote's own amount: allowed.
    assert!(float("16.5", &json!("0")).plan(&quote, &context).is_ok());
}

#[test]
fn a_bound_no_decimal_holds_is_the_client_s_error_only_when_it_is_missed() {
    let policy = ScreeningPolicy::new();
    let context = OrderContext::new(NOW, &policy);
    // 20 × (100 − 2.0000000000000000000000000001) / 100 =
    // 19.599999999999999999999999999998: 32 digits, more than a decimal has.
    let missed = fixed(json!({"fromAmount": "0.5", "toAmount": "20",
        "slippage": "2.0000000000000000000000000001"}));
    let error = missed.plan(bundled(), &context).unwrap_err();
    assert_eq!(error.code(), ErrorCode::InvalidRequest);
    assert!(error.to_string().starts_with("slippage: "), "{error}");
    // 16 × (that) / 100 ≈ 15.68 < 16.59840228: met, compared exactly.
    let met = fixed(json!({"fromAmount": "0.5", "toAmount": "16",
        "slippage": "2.0000000000000000000000000001"}));
    assert!(met.plan(bundled(), &context).is_ok());
    // The largest amount there is, at 1 percent: never a panic.
    let huge = fixed(json!({"fromAmount": "0.5",
        "toAmount": "79228162514264337593543950335", "slippage": 1}));
    assert_eq!(
        huge.plan(bundled(), &context).unwrap_err().code(),
        ErrorCode::InvalidRequest
    );
}

#[test]
fn an_error_body_keeps_the_slippage_numbers_through_decoding() {
    let text = r#"{"status":409,"code":"SLIPPAGE_EXCEEDED","details":"x","bound":"20","available":"16.59840228"}"#;
    let body: ErrorBody = serde_json::from_str(text).unwrap();
    let api = ApiError::try_from(body.clone()).unwrap();
    assert_eq!(
        (api.bound(), api.available()),
        (Some(d("20")), Some(d("16.59840228")))
    );
    assert_eq!(serde_json::to_string(&api).unwrap(), text);
    assert_eq!(serde_json::to_string(&body).unwrap(), text);
}

// ------------------------------------------------------------ ruling 34

fn exact_out(to_amount: &str) -> FixedOrderRequest {
    fixed(json!({"fromAmount": "0.5", "toAmount": to_amount, "swapMode": "ExactOut"}))
}

/// Issue 29, reproductions 2 and 3: ExactOut 10^20 ETH was created with an
/// amount of 3011947984717304843.57 BTC on a rate whose max is 3.5 — by
/// default; under the strict policy the error named `fromAmount 0.5`.
#[test]
fn an_exact_out_plan_above_every_max_is_refused_by_default_naming_the_required_input() {
    // Every ExactOut rate admits the estimate 0.5 and needs far more than its
    // max. The largest toAmount each serves, ⌊max × m − fee⌋₈:
    //   d5b1: ⌊8.33028657 × 33.14218692377834 − 0.00019192⌋₈ = 276.08372271
    //   eyJ:  ⌊3.5 × 33.20110457 − 0.00215⌋₈ = ⌊116.201715995⌋₈ = 116.20171599
    //   7c9e: ⌊1.2 × 32.98701122334455⌋₈ = ⌊39.58441346801346⌋₈ = 39.58441346
    // so d5b1 is nearest; it needs ⌈(100000 + 0.00019192) / 33.14218692377834⌉₈
    // = 3017.30240138 BTC.
    let error = plan_error(&exact_out("100000"), bundled());
    assert_eq!(
        body_of(&error),
        json!({"status": 400, "code": "AMOUNT_ABOVE_LIMIT",
            "details": "toAmount 100000 ETH needs more than every route's maximum: the nearest route needs 3017.30240138 BTC, above its maximum 8.33028657 BTC; the largest toAmount that works is 276.08372271 ETH",
            "max": "8.33028657"})
    );
    let PlanError::RequiredInput(no_route) = &error else {
        panic!("{error:?}")
    };
    let above = no_route.above.as_ref().unwrap();
    assert_eq!(above.required, d("3017.30240138"));
    assert_eq!(above.to_amount, Some(d("276.08372271")));
    assert!(above.rate_id.as_str().starts_with("d5b1"));
    assert_eq!(no_route.below, None);
    // 10^20 ETH: ⌈(10^20 + 0.00019192) / 33.14218692377834⌉₈ on d5b1.
    let error = plan_error(&exact_out("100000000000000000000"), bundled());
    assert_eq!(error.code(), ErrorCode::AmountAboveLimit);
    assert_eq!(error.max(), Some(d("8.33028657")));
    assert!(error
        .to_string()
        .contains("needs 3017302395583725277.79679723 BTC"));
    assert!(!error.to_string().contains("fromAmount"), "{error}");
}

/// Issue 29, reproduction 3's other half: toAmount 0.0001 under the strict
/// policy said "0.5 BTC is below the minimum".
#[test]
fn an_exact_out_plan_below_every_min_names_the_required_input_and_the_smallest_to_amount() {
    // The smallest toAmount each serves: the least to-grid t with
    // ⌈(t + fee) / m⌉₈ ≥ min, t = ⌊(min − 10^-8) × m − fee⌋₈ + 10^-8:
    //   d5b1: ⌊0.00079786 × 33.14218692377834 − 0.00019192⌋₈ + 1e-8 = 0.02625091
    //   eyJ:  ⌊0.00999999 × 33.20110457 − 0.00215⌋₈ + 1e-8 = 0.32986072
    //   7c9e: ⌊0.00049999 × 32.98701122334455⌋₈ + 1e-8 = 0.01649318
    // so 7c9e is nearest; it needs ⌈0.0001 / 32.98701122334455⌉₈ = 0.00000304.
    let error = plan_error(&exact_out("0.0001"), bundled());
    assert_eq!(
        body_of(&error),
        json!({"status": 400, "code": "AMOUNT_BELOW_LIMIT",
            "details": "toAmount 0.0001 ETH needs less than every route's minimum: the nearest route needs 0.00000304 BTC, below its minimum 0.0005 BTC; the smallest toAmount that works is 0.01649318 ETH",
            "min": "0.0005"})
    );
    // And those amounts do work: 0.01649318 on 7c9e needs
    // ⌈0.01649318 / 32.98701122334455⌉₈ = 0.0005 (0.00049999… rounds up).
    let policy = ScreeningPolicy::new();
    let context = OrderContext::new(NOW, &policy);
    let request = fixed(json!({"fromAmount": "0.0005", "toAmount": "0.01649318",
        "swapMode": "ExactOut"}));
    let plan = request.plan(bundled(), &context).unwrap();
    assert!(plan.rate_id().as_str().starts_with("7c9e"));
    assert_eq!(plan.amount(), d("0.0005"));
    assert_eq!(plan.amount_limits(), Some(LimitCheck::Within));
}

#[test]
fn the_spec_literal_policy_is_an_explicit_opt_out() {
    let policy = ScreeningPolicy::new();
    let literal = OrderContext::new(NOW, &policy).with_limit_policy(LimitPolicy::Spec);
    // 100 ETH at slippage 100 (at most 1 BTC): eyJ needs
    // ⌈100.00215 / 33.20110457⌉₈ = ⌈3.01201274159…⌉₈ = 3.01201275 > 1, so
    // refused by slippage.
    let request = fixed(json!({"fromAmount": "0.5", "toAmount": "100",
        "swapMode": "ExactOut", "slippage": 100}));
    let error = request.plan(bundled(), &literal).unwrap_err();
    assert_eq!(error.code(), ErrorCode::SlippageExceeded);
    assert_eq!(error.to_api_error().available(), Some(d("3.01201275")));
    // An estimate near the amount: the opt-out plans eyJ (the best at 2.95:
    // 2.95 × 33.20110457 − 0.00215 = 97.9411084815, above d5b1's
    // 2.95 × 33.14218692377834 − 0.00019192 = 97.7692595… and 7c9e's max 1.2
    // excludes it), whose amount 3.01201275 is within [0.01, 3.5] and below
    // 2.95 × 105 / 100 = 3.0975.
    let request = fixed(json!({"fromAmount": "2.95", "toAmount": "100",
        "swapMode": "ExactOut", "slippage": 5}));
    let plan = request.plan(bundled(), &literal).unwrap();
    assert!(plan.rate_id().as_str().starts_with("eyJ"));
    assert_eq!(plan.amount(), d("3.01201275"));
    // The default (strict) plans the same here.
    let strict = OrderContext::new(NOW, &policy);
    assert_eq!(request.plan(bundled(), &strict).unwrap(), plan);
}

/// DOGE (0 decimals) → USDT (6) at 1 : 1, no fee, exactOut.
fn doge_usdt(min: f64, max: f64) -> RatesResponse {
    serde_json::from_value(json!([{"amount": {"assetId": "USDT", "value": 1},
        "expiry": 4_102_444_800_000_u64, "id": "r", "min": {"assetId": "DOGE", "value": min},
        "max": {"assetId": "DOGE", "value": max}, "minerFee": {"assetId": "USDT", "value": 0},
        "pairId": "DOGE_USDT", "features": ["exactOut"]}]))
    .unwrap()
}

fn doge_listing() -> AssetsResponse {
    serde_json::from_value(json!([
        {"id": "DOGE", "name": "Dogecoin", "symbol": "DOGE", "decimals": 0, "network": "dogecoin"},
        {"id": "USDT", "name": "Tether", "symbol": "USDT", "decimals": 6, "network": "ethereum"}
    ]))
    .unwrap()
}

fn doge(from: &str, to: &str, slippage: u32) -> FixedOrderRequest {
    serde_json::from_value(
        json!({"pairId": "DOGE_USDT", "fromAmount": from, "toAmount": to,
        "fromAddress": null, "toAddress": TO_ADDRESS, "swapMode": "ExactOut",
        "slippage": slippage}),
    )
    .unwrap()
}

/// Issue 29, reproduction 4: with the from asset's records (decimals 0),
/// max 10.5 and toAmount 10.2, the amount was rounded up to 11 after the
/// limits were checked, and amount_limits() said Within, even under Strict.
#[test]
fn the_amount_judged_is_the_amount_after_rounding_to_the_asset_s_decimals() {
    let listing = doge_listing();
    let assets = listing.pair_assets(&"DOGE_USDT".parse().unwrap()).unwrap();
    let policy = ScreeningPolicy::new();
    let context = OrderContext::new(NOW, &policy).with_assets(assets);
    let rates = doge_usdt(0.1, 10.5);
    // 10.2 USDT needs 10.2 DOGE at 8 places, 11 as the order carries it.
    // The largest toAmount that works: ⌊10.5⌋₀ = 10 DOGE covers t ≤ 10 × 1 − 0.
    let error = doge("10.2", "10.2", 10).plan(&rates, &context).unwrap_err();
    assert_eq!(
        body_of(&error),
        json!({"status": 400, "code": "AMOUNT_ABOVE_LIMIT",
            "details": "toAmount 10.2 USDT needs more than every route's maximum: the nearest route needs 11 DOGE, above its maximum 10.5 DOGE; the largest toAmount that works is 10 USDT",
            "max": "10.5"})
    );
    // The opt-out plans it and says where the amount lies (10.2 × 1.1 = 11.22
    // ≥ 11 keeps slippage out of the way).
    let literal = context.with_limit_policy(LimitPolicy::Spec);
    let plan = doge("10.2", "10.2", 10).plan(&rates, &literal).unwrap();
    assert_eq!(plan.amount(), d("11"));
    assert_eq!(
        plan.amount_limits(),
        Some(LimitCheck::AboveMax { max: d("10.5") })
    );
    // 10 USDT works: 10 DOGE.
    let plan = doge("10", "10", 0).plan(&rates, &context).unwrap();
    assert_eq!(plan.amount(), d("10"));
}

#[test]
fn rounding_up_to_the_asset_s_decimals_can_bring_an_amount_inside_the_min() {
    // min 10.2, max 12: 10.1 USDT needs 10.1 DOGE at 8 places (below the
    // min) but the order carries ⌈10.1⌉₀ = 11, within [10.2, 12].
    let listing = doge_listing();
    let assets = listing.pair_assets(&"DOGE_USDT".parse().unwrap()).unwrap();
    let policy = ScreeningPolicy::new();
    let context = OrderContext::new(NOW, &policy).with_assets(assets);
    let rates = doge_usdt(10.2, 12.0);
    let plan = doge("10.3", "10.1", 10).plan(&rates, &context).unwrap();
    assert_eq!(plan.amount(), d("11"));
    assert_eq!(plan.amount_limits(), Some(LimitCheck::Within));
    // 10 USDT needs 10 DOGE, below 10.2 however it is rounded; the smallest
    // toAmount that works is 10.000001 (11 DOGE: ⌈(t + 0) / 1⌉₀ ≥ 10.2 ⇔ t > 10).
    let error = doge("10.3", "10", 10).plan(&rates, &context).unwrap_err();
    let PlanError::RequiredInput(no_route) = &error else {
        panic!("{error:?}")
    };
    let below = no_route.below.as_ref().unwrap();
    assert_eq!(
        (below.required, below.limit, below.to_amount),
        (d("10"), d("10.2"), Some(d("10.000001")))
    );
    assert_eq!(error.code(), ErrorCode::AmountBelowLimit);
}

#[test]
fn a_required_input_no_route_serializes_with_typed_fields() {
    let error = plan_error(&exact_out("0.0001"), bundled());
    let PlanError::RequiredInput(no_route) = error else {
        panic!()
    };
    let no_route: RequiredInputNoRoute = *no_route;
    let value = serde_json::to_value(&no_route).unwrap();
    assert_eq!(value["toAmount"], "0.0001");
    assert_eq!(value["toAssetId"], "ETH");
    assert_eq!(value["fromAssetId"], "BTC");
    assert_eq!(value["above"], Value::Null);
    assert_eq!(value["below"]["required"], "0.00000304");
    assert_eq!(value["below"]["limit"], "0.0005");
    assert_eq!(value["below"]["toAmount"], "0.01649318");
}

// ------------------------------------------------- ruling 33, by an oracle

mod oracle {
    use num_bigint::BigInt;
    use proptest::prelude::*;
    use swaproute::{Amount, AssetId, Decimal, Slippage, SlippageError, SwapMode};

    /// `value` as `(integer, scale)`.
    fn parts(value: Decimal) -> (BigInt, u32) {
        (BigInt::from(value.mantissa()), value.scale())
    }

    fn ten(e: u32) -> BigInt {
        BigInt::from(10u8).pow(e)
    }

    /// `estimate × (100 ∓ s) / 100` as `(numerator, denominator)`.
    fn bound(mode: SwapMode, estimate: Decimal, s: Decimal) -> (BigInt, BigInt) {
        let (e, es) = parts(estimate);
        let (s, ss) = parts(s);
        let hundred = BigInt::from(100u8) * ten(ss);
        let factor = match mode {
            SwapMode::ExactIn => hundred - s,
            SwapMode::ExactOut => hundred + s,
        };
        (e * factor, ten(es + ss + 2))
    }

    /// `amount` against `n / d`: `amount × d` vs `n`.
    fn cmp(amount: Decimal, (n, d): &(BigInt, BigInt)) -> core::cmp::Ordering {
        let (a, scale) = parts(amount);
        (a * d).cmp(&(n * ten(scale)))
    }

    fn decimal() -> impl Strategy<Value = Decimal> {
        (1u128..(1u128 << 96), 0u32..=28)
            .prop_map(|(m, s)| Decimal::from_i128_with_scale(i128::try_from(m).unwrap(), s))
    }

    fn small() -> impl Strategy<Value = Decimal> {
        (1u64..1_000_000_000_000, 0u32..=12)
            .prop_map(|(m, s)| Decimal::from_i128_with_scale(i128::from(m), s))
    }

    fn slippage() -> impl Strategy<Value = Slippage> {
        prop_oneof![
            (0u32..=100).prop_map(Decimal::from),
            (0u64..=100_000_000).prop_map(|m| Decimal::new(i64::try_from(m).unwrap(), 6)),
            (0u128..=100 * 10u128.pow(26))
                .prop_map(|m| Decimal::from_i128_with_scale(i128::try_from(m).unwrap(), 26)),
        ]
        .prop_map(|p| Slippage::new(p).unwrap())
    }

    proptest! {
        /// The check agrees with exact big-integer arithmetic, and the
        /// reported bound is the exact bound.
        #[test]
        fn the_check_is_exact(
            estimate in prop_oneof![decimal(), small()],
            available in prop_oneof![decimal(), small()],
            s in slippage(),
            exact_in in any::<bool>(),
        ) {
            let asset = AssetId::new("X").unwrap();
            let amount = Amount::new(estimate).unwrap();
            let (mode, got) = if exact_in {
                (SwapMode::ExactIn, s.check_output(amount, available, &asset))
            } else {
                (SwapMode::ExactOut, s.check_input(amount, available, &asset))
            };
            let exact = bound(mode, estimate, s.percent());
            let order = cmp(available, &exact);
            let within = match mode {
                SwapMode::ExactIn => order.is_ge(),
                SwapMode::ExactOut => order.is_le(),
            };
            match got {
                Ok(()) => prop_assert!(within),
                Err(SlippageError::Exceeded(e)) => {
                    prop_assert!(!within);
                    prop_assert!(cmp(e.bound, &exact).is_eq(), "bound {}", e.bound);
                    prop_assert_eq!(e.available, available);
                }
                Err(SlippageError::Unrepresentable { .. }) => {
                    prop_assert!(!within);
                    // No decimal equals the bound: at most 28 places and 96 bits.
                    let (n, d) = &exact;
                    let held = (0..=28u32).any(|scale| {
                        let scaled = n * ten(scale);
                        &scaled % d == BigInt::from(0u8)
                            && scaled / d < BigInt::from(1u128 << 96)
                    });
                    prop_assert!(!held);
                }
                Err(other) => prop_assert!(false, "{other:?}"),
            }
        }
    }

    proptest! {
        /// At the bound itself the check passes; the bound the crate
        /// reports (`min_output`, `max_input`) is the exact one.
        #[test]
        fn the_bound_itself_is_allowed(
            estimate in prop_oneof![decimal(), small()],
            s in slippage(),
            exact_in in any::<bool>(),
        ) {
            let asset = AssetId::new("X").unwrap();
            let amount = Amount::new(estimate).unwrap();
            let (mode, limit) = if exact_in {
                (SwapMode::ExactIn, s.min_output(amount))
            } else {
                (SwapMode::ExactOut, s.max_input(amount))
            };
            let Some(limit) = limit else {
                return Ok(());
            };
            prop_assert!(cmp(limit, &bound(mode, estimate, s.percent())).is_eq());
            let got = if exact_in {
                s.check_output(amount, limit, &asset)
            } else {
                s.check_input(amount, limit, &asset)
            };
            prop_assert_eq!(got, Ok(()));
        }
    }
}

/// The bounds themselves, by hand: 2% of a 20 ETH estimate leaves 19.6; 0%
/// leaves 20; 100% leaves 0. ExactOut: 2% over 0.3 BTC is 0.306.
#[test]
fn slippage_bounds_are_exact() {
    use swaproute::{Amount, Slippage};
    let pct = |p: &str| Slippage::new(d(p)).unwrap();
    let amount = |a: &str| a.parse::<Amount>().unwrap();
    assert_eq!(Slippage::DEFAULT.min_output(amount("20")), Some(d("19.6")));
    assert_eq!(pct("0").min_output(amount("20")), Some(d("20")));
    assert_eq!(pct("100").min_output(amount("20")), Some(d("0")));
    assert_eq!(Slippage::DEFAULT.max_input(amount("0.3")), Some(d("0.306")));
    assert_eq!(pct("100").max_input(amount("0.3")), Some(d("0.6")));
}

/// `Slippage::check_route` on the bundled best routes (the CLI's
/// `--slippage`). ExactIn 0.5 BTC: the best route promises
/// ⌊0.5 × 33.20110457 − 0.00215⌋₈ = 16.59840228 ETH; at 0% of 20 that
/// misses (bound 20); at 17.1% the bound is 20 × 82.9 / 100 = 16.58, met.
/// Without a `toAmount` there is nothing to bound. ExactOut 0.3 → 10 ETH:
/// the route needs ⌈10.00215 / 33.20110457⌉₈ = 0.30125956 BTC; 0% of 0.3
/// misses, 1% (0.303) is met.
#[test]
fn check_route_bounds_the_selected_route() {
    use swaproute::route::RouteRequest;
    use swaproute::{Amount, Slippage};
    let pct = |p: &str| Slippage::new(d(p)).unwrap();
    let amount = |a: &str| a.parse::<Amount>().unwrap();
    let rates = bundled();

    let request = RouteRequest::exact_in(amount("0.5"), NOW).with_to_amount(amount("20"));
    let route = request.best(rates).unwrap();
    match pct("0").check_route(&request, &route) {
        Err(SlippageError::Exceeded(missed)) => {
            assert_eq!(
                (missed.bound, missed.available),
                (d("20"), d("16.59840228"))
            );
            assert_eq!(missed.asset.as_str(), "ETH");
        }
        other => panic!("expected SLIPPAGE_EXCEEDED, got {other:?}"),
    }
    assert_eq!(pct("17.1").check_route(&request, &route), Ok(()));
    let open = RouteRequest::exact_in(amount("0.5"), NOW);
    let route = open.best(rates).unwrap();
    assert_eq!(pct("0").check_route(&open, &route), Ok(()));

    let request = RouteRequest::exact_out(amount("0.3"), amount("10"), NOW);
    let route = request.best(rates).unwrap();
    match pct("0").check_route(&request, &route) {
        Err(SlippageError::Exceeded(missed)) => {
            assert_eq!(
                (missed.bound, missed.available),
                (d("0.3"), d("0.30125956"))
            );
            assert_eq!(missed.asset.as_str(), "BTC");
        }
        other => panic!("expected SLIPPAGE_EXCEEDED, got {other:?}"),
    }
    assert_eq!(pct("1").check_route(&request, &route), Ok(()));
}

/// Ruling 35 under ruling 33: the promise judged is the floor of the exact
/// net output. 12345678.12345678 × 33.07346643902441 =
/// 408314371.08314566999999999999998… (no fee), so the promise is
/// 408314371.08314566, one unit below a `toAmount` of …567 at 0%: missed
/// (the floor of `Decimal`'s rounded product, …567, would pass).
#[test]
fn check_route_judges_the_exact_floor() {
    use swaproute::route::RouteRequest;
    use swaproute::{Amount, Slippage};
    let rates: RatesResponse = serde_json::from_value(json!([{
        "amount": {"assetId": "B", "value": 33.07346643902441}, "expiry": 1_785_333_919_000u64,
        "id": "ab", "max": {"assetId": "A", "value": 100_000_000}, "min": {"assetId": "A", "value": 0},
        "minerFee": {"assetId": "B", "value": 0}, "pairId": "A_B"}]))
    .unwrap();
    let amount = |a: &str| a.parse::<Amount>().unwrap();
    let request = RouteRequest::exact_in(amount("12345678.12345678"), NOW)
        .with_to_amount(amount("408314371.08314567"));
    let route = request.best(&rates).unwrap();
    match Slippage::new(d("0")).unwrap().check_route(&request, &route) {
        Err(SlippageError::Exceeded(missed)) => {
            assert_eq!(missed.available, d("408314371.08314566"));
        }
        other => panic!("expected SLIPPAGE_EXCEEDED, got {other:?}"),
    }
}

/// A bound written at more than 28 places is brought down to 28 when its
/// extra digits are zeros: 10^-28 at 0% is 10^-28 × 100 / 100 (held as
/// 100 at scale 30), exactly 10^-28; at 50% it is 5 × 10^-29, which no
/// decimal holds.
#[test]
fn a_bound_past_28_places_is_reduced_when_exact() {
    use swaproute::{Amount, Slippage};
    let tiny: Amount = "0.0000000000000000000000000001".parse().unwrap();
    assert_eq!(
        Slippage::new(d("0")).unwrap().min_output(tiny),
        Some(d("0.0000000000000000000000000001"))
    );
    assert_eq!(Slippage::new(d("50")).unwrap().min_output(tiny), None);
}

/// The `work-meter` feature's `measure_work` (what the chain fuzz target
/// bounds work with): it hands back the closure's value and the units of
/// work done on this thread, none for a closure that ranks nothing and at
/// least one a rate for a ranking (each rate is checked).
#[cfg(feature = "work-meter")]
#[test]
fn measure_work_counts_the_ranking() {
    use swaproute::route::{measure_work, RouteRequest};
    use swaproute::Amount;
    assert_eq!(measure_work(|| 7), (7, 0));
    let from: Amount = "0.5".parse().unwrap();
    let (best, work) = measure_work(|| RouteRequest::exact_in(from, NOW).best(bundled()));
    assert!(best.is_ok());
    assert!(work >= u64::try_from(bundled().len()).unwrap(), "{work}");
}
