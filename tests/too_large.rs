//! An amount too large for exact arithmetic is the client's error (rulings 35
//! and 36 in docs/RULES.md; issue 28 item 4): 400 `INVALID_AMOUNT` naming the
//! field, in every single-pair entry point, never a 5xx and never a message
//! blaming the output.

use serde_json::json;
use swaproute::decimal::Decimal;
use swaproute::order::{FixedOrderRequest, OrderContext, PlanError, RawFixedOrderRequest};
use swaproute::screening::ScreeningPolicy;
use swaproute::wire::RequestField;
use swaproute::{
    estimate_exact_out, Amount, ApiError, EpochMillis, ErrorCode, NoRoute, RatesResponse,
    RouteRequest,
};

const NOW: EpochMillis = EpochMillis::new(1_785_000_000_000);

/// 2^96 − 1: the largest amount the grammar takes.
const HUGE: &str = "79228162514264337593543950335";

/// BTC_ETH: `r-a` (33.14218692377834, fee 0.00019192, exactOut) and `r-b`
/// (33.1, fee 0.0002, exactOut), limits 0.001..8; `r-c` ExactIn only with
/// limits up to 10^28.
fn rates() -> RatesResponse {
    serde_json::from_value(json!([
        {"amount":{"assetId":"ETH","value":33.142_186_923_778_34},"expiry":4_102_444_800_000u64,
         "id":"r-a","max":{"assetId":"BTC","value":8},"min":{"assetId":"BTC","value":0.001},
         "minerFee":{"assetId":"ETH","value":0.000_191_92},"pairId":"BTC_ETH",
         "features":["exactOut"]},
        {"amount":{"assetId":"ETH","value":33.1},"expiry":4_102_444_800_000u64,
         "id":"r-b","max":{"assetId":"BTC","value":8},"min":{"assetId":"BTC","value":0.001},
         "minerFee":{"assetId":"ETH","value":0.0002},"pairId":"BTC_ETH",
         "features":["exactOut"]},
        {"amount":{"assetId":"ETH","value":33.1},"expiry":4_102_444_800_000u64,
         "id":"r-c","max":{"assetId":"BTC","value":"10000000000000000000000000000"},
         "min":{"assetId":"BTC","value":0.001},
         "minerFee":{"assetId":"ETH","value":0.0002},"pairId":"BTC_ETH"}
    ]))
    .unwrap()
}

fn amount(text: &str) -> Amount {
    Amount::parse(text).unwrap()
}

/// The answer an amount too large gets: 400 `INVALID_AMOUNT`, the field and
/// the amount in the details, nothing about the output.
fn assert_too_large(error: &ApiError, field: &str, asset: &str) {
    assert_eq!(error.code(), ErrorCode::InvalidAmount, "{error}");
    assert_eq!(error.http_status().as_u16(), 400);
    let details = error.details();
    assert!(
        details.starts_with(&format!("{field} {HUGE} {asset} is too large")),
        "{details}"
    );
    assert!(!details.contains("positive output"), "{details}");
}

#[test]
fn an_exact_out_to_amount_too_large_is_400_naming_to_amount_when_ranking() {
    let rates = rates();
    let request = RouteRequest::exact_out(amount("0.5"), amount(HUGE), NOW);
    let expected = NoRoute::AmountTooLarge {
        field: RequestField::ToAmount,
        amount: HUGE.parse::<Decimal>().unwrap(),
        asset: "ETH".parse().unwrap(),
    };
    assert_eq!(request.best(&rates).unwrap_err(), expected);
    assert_eq!(request.top(&rates, 3).unwrap_err(), expected);
    assert_eq!(request.select(&rates).no_route(), Some(&expected));
    assert_too_large(&expected.to_api_error(), "toAmount", "ETH");
    // The strict limit policy computes the required input while checking
    // eligibility: the same answer.
    let strict = request.with_limit_policy(swaproute::route::LimitPolicy::Strict);
    assert_eq!(strict.best(&rates).unwrap_err(), expected);
}

#[test]
fn an_exact_out_to_amount_too_large_is_400_naming_to_amount_when_estimating() {
    let error = estimate_exact_out(&rates(), amount(HUGE), NOW).unwrap_err();
    assert!(
        matches!(
            error,
            NoRoute::AmountTooLarge {
                field: RequestField::ToAmount,
                ..
            }
        ),
        "{error:?}"
    );
    assert_too_large(&error.to_api_error(), "toAmount", "ETH");
}

#[test]
fn an_exact_in_from_amount_too_large_is_400_naming_from_amount() {
    // Only r-c's max admits 10^28; 10^28 × 33.1 − 0.0002 is past 2^96 − 1.
    let rates = rates();
    let huge = "10000000000000000000000000000";
    let request = RouteRequest::exact_in(amount(huge), NOW);
    let error = request.best(&rates).unwrap_err();
    assert!(
        matches!(
            error,
            NoRoute::AmountTooLarge {
                field: RequestField::FromAmount,
                ..
            }
        ),
        "{error:?}"
    );
    let api = error.to_api_error();
    assert_eq!(api.code(), ErrorCode::InvalidAmount);
    assert_eq!(
        api.details(),
        format!("fromAmount {huge} BTC is too large: no route that accepts it can compute the swap exactly; send a smaller amount")
    );
    assert_eq!(request.select(&rates).no_route(), Some(&error));
}

fn plan_error(body: serde_json::Value) -> PlanError {
    let raw: RawFixedOrderRequest = serde_json::from_value(body).unwrap();
    let request = FixedOrderRequest::validate(&raw).unwrap();
    let policy = ScreeningPolicy::new();
    let context = OrderContext::new(NOW, &policy);
    request.plan(&rates(), &context).unwrap_err()
}

#[test]
fn order_plans_of_an_amount_too_large_are_400_naming_the_field() {
    let exact_out = plan_error(json!({"fromAmount": "0.5", "toAmount": HUGE,
        "fromAddress": null, "toAddress": "0x52908400098527886E0F7030069857D2E4169EE7",
        "pairId": "BTC_ETH", "swapMode": "ExactOut"}));
    assert_eq!(exact_out.http_status().as_u16(), 400);
    assert_too_large(&ApiError::from(exact_out), "toAmount", "ETH");
    let exact_in = plan_error(json!({"fromAmount": "10000000000000000000000000000",
        "toAmount": "1", "fromAddress": null,
        "toAddress": "0x52908400098527886E0F7030069857D2E4169EE7",
        "pairId": "BTC_ETH", "swapMode": "ExactIn"}));
    assert_eq!(exact_in.code(), ErrorCode::InvalidAmount);
    assert!(
        exact_in
            .to_string()
            .starts_with("fromAmount 10000000000000000000000000000 BTC is too large"),
        "{exact_in}"
    );
}

#[test]
fn a_to_amount_some_rate_can_compute_is_not_too_large() {
    // toAmount 10^21 ETH: (10^21 + fee) / 33.1 ≈ 3.02 × 10^19 BTC fits 8
    // places, so the ranking answers with a route (limits are checked against
    // fromAmount), and the estimate with the limits it breaks.
    let rates = rates();
    let to = amount("1000000000000000000000");
    let best = RouteRequest::exact_out(amount("0.5"), to, NOW)
        .best(&rates)
        .unwrap();
    assert!(best.required_input().is_some());
    let estimate = estimate_exact_out(&rates, to, NOW).unwrap_err();
    assert_eq!(estimate.code(), ErrorCode::AmountAboveLimit);
}

#[test]
fn an_exact_out_from_amount_too_large_names_from_amount() {
    // r-d serves ExactOut up to 10^28 BTC; fromAmount 10^28 × 33.1 is past
    // 2^96 − 1, while toAmount 1 ETH needs a tiny input: fromAmount is the
    // amount too large.
    let rates: RatesResponse = serde_json::from_value(json!([
        {"amount":{"assetId":"ETH","value":33.1},"expiry":4_102_444_800_000u64,
         "id":"r-d","max":{"assetId":"BTC","value":"10000000000000000000000000000"},
         "min":{"assetId":"BTC","value":0.001},
         "minerFee":{"assetId":"ETH","value":0.0002},"pairId":"BTC_ETH",
         "features":["exactOut"]}
    ]))
    .unwrap();
    let huge = "10000000000000000000000000000";
    let request = RouteRequest::exact_out(amount(huge), amount("1"), NOW);
    let expected = NoRoute::AmountTooLarge {
        field: RequestField::FromAmount,
        amount: huge.parse::<Decimal>().unwrap(),
        asset: "BTC".parse().unwrap(),
    };
    assert_eq!(request.best(&rates).unwrap_err(), expected);
    assert_eq!(request.select(&rates).no_route(), Some(&expected));
    assert_eq!(expected.code(), ErrorCode::InvalidAmount);
}
