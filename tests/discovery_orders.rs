//! Issue 19: order intake with the assets' records (OrderContext::with_assets).
//! Exact amounts are held to their asset's `decimals` (INVALID_AMOUNT naming
//! the field, before routing); an ExactOut order's amount is rounded up to
//! the from asset's decimals, an ExactIn toAmount estimate down to the to
//! asset's. Without records nothing changes. Expected values are computed by
//! hand in the comments.
#![allow(clippy::unreadable_literal, clippy::similar_names)]

use serde_json::{json, Value};
use swaproute::discovery::AssetsResponse;
use swaproute::order::{FixedOrderRequest, FloatOrderRequest, NewOrder, OrderContext, PlanError};
use swaproute::quote::Quote;
use swaproute::screening::{Address, ScreeningPolicy};
use swaproute::wire::RequestField;
use swaproute::{ApiError, EpochMillis, ErrorCode, OrderId, ProviderOrderId, RatesResponse};

const NOW: u64 = 1_785_000_000_000;

/// LTC (8 decimals, asset-response.json), USDC (6, assets-response.json).
fn listing() -> AssetsResponse {
    let mut records: Vec<Value> =
        serde_json::from_str(include_str!("payloads/assets-response.json")).unwrap();
    records.push(serde_json::from_str(include_str!("payloads/asset-response.json")).unwrap());
    serde_json::from_value(Value::Array(records)).unwrap()
}

/// LTC → USDC at 80.123456789, fee 0.5 USDC, limits 0.01..100 LTC.
fn ltc_usdc() -> RatesResponse {
    serde_json::from_value(
        json!([{"amount": {"assetId": "USDC", "value": 80.123456789},
        "expiry": 4_102_444_800_000_u64, "id": "r-1", "max": {"assetId": "LTC", "value": 100},
        "min": {"assetId": "LTC", "value": 0.01}, "minerFee": {"assetId": "USDC", "value": 0.5},
        "pairId": "LTC_USDC", "features": ["exactOut"]}]),
    )
    .unwrap()
}

/// USDC → LTC at 0.0123, fee 0.0001 LTC, limits 10..10000 USDC.
fn usdc_ltc() -> RatesResponse {
    serde_json::from_value(json!([{"amount": {"assetId": "LTC", "value": 0.0123},
        "expiry": 4_102_444_800_000_u64, "id": "r-2", "max": {"assetId": "USDC", "value": 10000},
        "min": {"assetId": "USDC", "value": 10}, "minerFee": {"assetId": "LTC", "value": 0.0001},
        "pairId": "USDC_LTC", "features": ["exactOut"]}]))
    .unwrap()
}

fn body(pair: &str, from: &str, to: &str, mode: &str) -> FixedOrderRequest {
    serde_json::from_value(json!({"pairId": pair, "fromAmount": from, "toAmount": to,
        "fromAddress": null, "toAddress": "0x52908400098527886E0F7030069857D2E4169EE7",
        "swapMode": mode}))
    .unwrap()
}

fn to_order_value(
    plan: &swaproute::order::FixedOrderPlan<'_>,
    request: &FixedOrderRequest,
) -> Value {
    let new = NewOrder::new(
        OrderId::new("o-1").unwrap(),
        ProviderOrderId::new("p-1").unwrap(),
        Address::new("bc1qwjpyxexjcypqddr7ce6yv349n4q68g0xqraltv").unwrap(),
        EpochMillis::new(NOW),
    );
    serde_json::to_value(plan.to_order(request, &new).unwrap()).unwrap()
}

#[test]
fn exact_in_from_amount_is_held_to_the_from_assets_decimals() {
    let listing = listing();
    let policy = ScreeningPolicy::new();
    let context = OrderContext::new(EpochMillis::new(NOW), &policy)
        .with_assets(listing.pair_assets(&"LTC_USDC".parse().unwrap()).unwrap());
    let rates = ltc_usdc();

    let request = body("LTC_USDC", "0.123456789", "9", "ExactIn");
    let error = request.plan(&rates, &context).unwrap_err();
    assert!(matches!(
        error,
        PlanError::AmountPrecision {
            field: RequestField::FromAmount,
            ..
        }
    ));
    assert_eq!(error.code(), ErrorCode::InvalidAmount);
    assert_eq!(
        error.to_string(),
        "fromAmount: 0.123456789 has 9 decimal places, but LTC has 8"
    );
    let body = ApiError::from(error).to_body();
    assert_eq!(
        serde_json::to_value(&body).unwrap()["code"],
        "INVALID_AMOUNT"
    );

    // Without records the same body plans.
    let bare = OrderContext::new(EpochMillis::new(NOW), &policy);
    assert!(request.plan(&rates, &bare).is_ok());
}

#[test]
fn exact_in_estimate_is_not_checked_and_the_to_amount_is_floored_to_the_to_asset() {
    let listing = listing();
    let policy = ScreeningPolicy::new();
    let bare = OrderContext::new(EpochMillis::new(NOW), &policy);
    let context = bare.with_assets(listing.pair_assets(&"LTC_USDC".parse().unwrap()).unwrap());
    let rates = ltc_usdc();
    // The toAmount estimate has 8 places, USDC 6: an estimate, not refused.
    let request = body("LTC_USDC", "1.5", "119.68518518", "ExactIn");
    let plan = request.plan(&rates, &context).unwrap();
    assert_eq!(plan.amount().to_string(), "1.5");
    // 1.5 × 80.123456789 − 0.5 = 119.6851851835: ⌊⌋₈ = 119.68518518, ⌊⌋₆ = 119.685185.
    let order = to_order_value(&plan, &request);
    assert_eq!(order["toAmount"]["value"], "119.685185");
    let plain = request.plan(&rates, &bare).unwrap();
    assert_eq!(
        to_order_value(&plain, &request)["toAmount"]["value"],
        "119.68518518"
    );
}

#[test]
fn exact_out_to_amount_is_held_to_the_to_assets_decimals() {
    let listing = listing();
    let policy = ScreeningPolicy::new();
    let context = OrderContext::new(EpochMillis::new(NOW), &policy)
        .with_assets(listing.pair_assets(&"LTC_USDC".parse().unwrap()).unwrap());
    let request = body("LTC_USDC", "1.3", "100.1234567", "ExactOut");
    let error = request.plan(&ltc_usdc(), &context).unwrap_err();
    assert_eq!(error.code(), ErrorCode::InvalidAmount);
    assert_eq!(
        error.to_string(),
        "toAmount: 100.1234567 has 7 decimal places, but USDC has 6"
    );
    // The fromAmount estimate of ExactOut is not checked: 9 places of LTC pass.
    let request = body("LTC_USDC", "1.300000001", "100.123456", "ExactOut");
    assert!(request.plan(&ltc_usdc(), &context).is_ok());
}

#[test]
fn exact_out_amount_is_rounded_up_to_the_from_assets_decimals() {
    let listing = listing();
    let policy = ScreeningPolicy::new();
    let bare = OrderContext::new(EpochMillis::new(NOW), &policy);
    let context = bare.with_assets(listing.pair_assets(&"USDC_LTC".parse().unwrap()).unwrap());
    let rates = usdc_ltc();
    let request = body("USDC_LTC", "81.3", "1", "ExactOut");
    // (1 + 0.0001) / 0.0123 = 81.30894308943089…: ⌈⌉₈ = 81.30894309, ⌈⌉₆ = 81.308944.
    let plain = request.plan(&rates, &bare).unwrap();
    assert_eq!(plain.amount().to_string(), "81.30894309");
    let plan = request.plan(&rates, &context).unwrap();
    assert_eq!(plan.amount().to_string(), "81.308944");
    let order = to_order_value(&plan, &request);
    assert_eq!(order["amount"]["value"], "81.308944");
    assert_eq!(order["toAmount"]["value"], "1");
}

#[test]
fn records_of_another_pair_are_an_internal_error() {
    let listing = listing();
    let policy = ScreeningPolicy::new();
    let context = OrderContext::new(EpochMillis::new(NOW), &policy)
        .with_assets(listing.pair_assets(&"USDC_LTC".parse().unwrap()).unwrap());
    let request = body("LTC_USDC", "1.5", "100", "ExactIn");
    let error = request.plan(&ltc_usdc(), &context).unwrap_err();
    assert!(matches!(error, PlanError::AssetsOfAnotherPair { .. }));
    assert_eq!(error.code(), ErrorCode::InternalError);
    assert_eq!(
        error.to_string(),
        "the asset records given are not those of the assets of LTC_USDC"
    );
}

/// Ruling 46: records of another pair are the caller's configuration error,
/// reported before any address is judged. USDC_LTC's records put the from
/// asset (USDC) on an EVM network; read for LTC_USDC they would call the
/// client's Litecoin `fromAddress` invalid.
#[test]
fn records_of_another_pair_are_reported_before_addresses() {
    let listing = listing();
    let policy = ScreeningPolicy::new();
    let context = OrderContext::new(EpochMillis::new(NOW), &policy)
        .with_assets(listing.pair_assets(&"USDC_LTC".parse().unwrap()).unwrap());
    let request: FixedOrderRequest = serde_json::from_value(json!({"pairId": "LTC_USDC",
        "fromAmount": "1.5", "toAmount": "100",
        "fromAddress": "ltc1qwkzh53vfnxzmunzdjs0fpd4njmtvj2jvcgvgrm",
        "toAddress": "0x52908400098527886E0F7030069857D2E4169EE7"}))
    .unwrap();
    let error = request.plan(&ltc_usdc(), &context).unwrap_err();
    assert!(matches!(error, PlanError::AssetsOfAnotherPair { .. }));
    assert_eq!(error.code(), ErrorCode::InternalError);
    // With the pair's own records the same body plans, its addresses checked.
    let own = OrderContext::new(EpochMillis::new(NOW), &policy)
        .with_assets(listing.pair_assets(&"LTC_USDC".parse().unwrap()).unwrap());
    let rates = ltc_usdc();
    let plan = request.plan(&rates, &own).unwrap();
    assert!(plan.addresses_checked());
}

#[test]
fn screening_still_comes_first() {
    let listing = listing();
    let policy = ScreeningPolicy::new();
    let context = OrderContext::new(EpochMillis::new(NOW), &policy)
        .with_assets(listing.pair_assets(&"LTC_USDC".parse().unwrap()).unwrap());
    // The EVM zero address is restricted (ruling 15) whatever the amount.
    let request: FixedOrderRequest = serde_json::from_value(json!({"pairId": "LTC_USDC",
        "fromAmount": "0.123456789", "toAmount": "9", "fromAddress": null,
        "toAddress": "0x0000000000000000000000000000000000000000"}))
    .unwrap();
    let error = request.plan(&ltc_usdc(), &context).unwrap_err();
    assert_eq!(error.code(), ErrorCode::RestrictedAddress);
}

#[test]
fn a_floating_order_checks_from_amount() {
    let quote: Quote = serde_json::from_str(include_str!("payloads/quote-response.json")).unwrap();
    let assets: AssetsResponse = serde_json::from_value(json!([
        {"id": "SOL", "name": "Solana", "symbol": "SOL", "decimals": 1, "network": "solana"},
        {"id": "USDT", "name": "Tether", "symbol": "USDT", "decimals": 6, "network": "ethereum"}
    ]))
    .unwrap();
    let policy = ScreeningPolicy::new();
    // Before the quote's expiry (1764012377905).
    let bare = OrderContext::new(EpochMillis::new(1_764_012_000_000), &policy);
    let records = assets.pair_assets(&"SOL_USDT".parse().unwrap()).unwrap();
    let body = |from: &str| -> FloatOrderRequest {
        serde_json::from_value(json!({"pairId": "SOL_USDT", "fromAmount": from,
            "toAmount": "351.218", "fromAddress": null,
            "toAddress": "0x52908400098527886E0F7030069857D2E4169EE7"}))
        .unwrap()
    };
    // The quote's 2.5 SOL has 1 place: fits a 1-decimal SOL.
    assert!(body("2.5").plan(&quote, &bare.with_assets(records)).is_ok());
    // 2.55 has 2 places: refused before the quote is compared.
    let error = body("2.55")
        .plan(&quote, &bare.with_assets(records))
        .unwrap_err();
    assert_eq!(error.code(), ErrorCode::InvalidAmount);
    assert_eq!(
        error.to_string(),
        "fromAmount: 2.55 has 2 decimal places, but SOL has 1"
    );
    // Without records it is the quote mismatch it always was.
    let error = body("2.55").plan(&quote, &bare).unwrap_err();
    assert_eq!(error.code(), ErrorCode::InvalidRequest);
}
