//! Ruling 22 (docs/RULES.md): decoding then encoding every payload the
//! service sends gives the same JSON value — the same keys (including `null`
//! and `""` values that were present), the same numbers, absent stays absent;
//! key order aside. Each payload of tests/payloads/ whose shape the crate
//! decodes is checked (rates are another module's: not here).
//!
//! The oracle is the payload file itself: `serde_json::Value`s compare
//! objects without regard to key order.

use crate::common::d;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{json, Value};
use swaproute::error::{BodyCode, ErrorBody};
use swaproute::order::{DepositTransactionUpdate, FixedOrderRequest, FloatOrderRequest, Order};
use swaproute::quote::Quote;
use swaproute::wire::{Presence, SentDecimal};
use swaproute::{Decimal, ErrorCode, RatesResponse};

/// Decodes `text` as `T`, encodes it, and checks the value is the payload's.
fn round_trip<T: DeserializeOwned + Serialize>(name: &str, text: &str) -> T {
    let original: Value = serde_json::from_str(text).unwrap();
    let decoded: T = serde_json::from_str(text).unwrap_or_else(|e| panic!("{name}: {e}"));
    let encoded = serde_json::to_value(&decoded).unwrap();
    assert_eq!(encoded, original, "{name}");
    decoded
}

macro_rules! payload {
    ($name:literal) => {
        ($name, include_str!(concat!("payloads/", $name)))
    };
}

#[test]
fn order_create_response_live() {
    let (name, text) = payload!("order-create-response.json");
    let order: Order = round_trip(name, text);
    // Spot checks against the file: string amounts, "" kept, null campaign kept.
    assert_eq!(
        order.amount.value().unwrap().value,
        SentDecimal::Text(d("1.25"))
    );
    assert_eq!(order.to_amount.value().unwrap().value(), d("97.31864512"));
    assert_eq!(order.message, Presence::Empty);
    assert_eq!(order.from_transaction_id, Presence::Empty);
    assert_eq!(order.sponsored_by_campaign_id, Presence::Null);
    assert!(order.from_address_tag.is_absent());
}

#[test]
fn order_status_response_live() {
    let (name, text) = payload!("order-status-response.json");
    let order: Order = round_trip(name, text);
    assert!(order.sponsored_by_campaign_id.is_absent());
    assert_eq!(
        order.updated_at.value().unwrap().as_str(),
        "2026-03-11T09:27:36.219Z"
    );
}

#[test]
fn order_create_response_docs_numeric_amount() {
    let (name, text) = payload!("order-create-response-docs.json");
    let order: Order = round_trip(name, text);
    assert_eq!(
        order.amount.value().unwrap().value,
        SentDecimal::Number(d("0.83"))
    );
    assert_eq!(
        order.from_address_tag.value().map(String::as_str),
        Some("memo-55102")
    );
    assert!(order.to_amount.is_absent());
}

/// Issue 14 item 5: `rateId: ""` must survive.
#[test]
fn order_status_docs_complete_keeps_empty_rate_id() {
    let (name, text) = payload!("order-status-response-docs-complete.json");
    let order: Order = round_trip(name, text);
    assert_eq!(order.rate_id, Presence::Empty);
    assert!(order.extra_features.is_absent());
}

/// Issue 14 item 5: `providerOrderId: ""` and `rateId: ""` must survive;
/// `extraFeatures.stringAmounts` is a string.
#[test]
fn order_status_with_empty_provider_order_id() {
    let (name, text) = payload!("order-status-response-string-amounts.json");
    let order: Order = round_trip(name, text);
    assert_eq!(order.provider_order_id, Presence::Empty);
    assert_eq!(order.rate_id, Presence::Empty);
    assert_eq!(
        order.extra_features.value().unwrap().string_amounts,
        Presence::Value("true".to_owned())
    );
}

/// Issue 14 item 5: `fromAddress: null` must survive (the spec allows it on
/// creation for deferred sender-address collection).
#[test]
fn from_address_null_survives() {
    let (_, text) = payload!("order-create-response.json");
    let mut value: Value = serde_json::from_str(text).unwrap();
    value["fromAddress"] = json!(null);
    let text = serde_json::to_string(&value).unwrap();
    let order: Order = round_trip("order with fromAddress null", &text);
    assert_eq!(order.from_address, Presence::Null);
    // And the three cases together in one order.
    value["rateId"] = json!("");
    value["providerOrderId"] = json!("");
    let text = serde_json::to_string(&value).unwrap();
    let order: Order = round_trip("order with the issue's three keys", &text);
    assert_eq!(
        (
            &order.rate_id,
            &order.provider_order_id,
            &order.from_address
        ),
        (&Presence::Empty, &Presence::Empty, &Presence::Null)
    );
}

#[test]
fn quote_docs() {
    let (name, text) = payload!("quote-response.json");
    let quote: Quote = round_trip(name, text);
    assert_eq!(quote.from_amount.value, SentDecimal::Text(d("2.5")));
    assert_eq!(quote.to_amount.value.get(), d("351.218"));
    assert_eq!(quote.defect(), None);
}

#[test]
fn quote_with_null_and_numeric_keys() {
    let text = r#"{"fromAmount":{"assetId":"SOL","value":2.5},"id":"q","pairId":"SOL_USDT",
        "toAmount":{"assetId":"USDT","value":"351.218"},"expiry":1764012377905,
        "sponsoredByCampaignId":null,"partnerRevenueShareAmount":{"assetId":"SOL","value":"0.0025"}}"#;
    let quote: Quote = round_trip("quote with null campaign", text);
    assert_eq!(quote.sponsored_by_campaign_id, Presence::Null);
    assert_eq!(quote.from_amount.value, SentDecimal::Number(d("2.5")));
}

#[test]
fn order_update_request_and_response() {
    for (name, text) in [
        payload!("order-update-request.json"),
        payload!("order-update-response.json"),
    ] {
        let update: DepositTransactionUpdate = round_trip(name, text);
        assert_eq!(update.transaction_id.as_str().len(), 66, "{name}");
    }
}

#[test]
fn error_body_missing_authentication() {
    let (name, text) = payload!("error-missing-authentication.json");
    let body: ErrorBody = round_trip(name, text);
    assert_eq!(body.code, BodyCode::Known(ErrorCode::Unauthorized));
}

#[test]
fn error_bodies_with_unknown_or_legacy_codes_and_an_order_id() {
    for text in [
        r#"{"status":429,"code":"SLOW_DOWN","details":"too many requests"}"#,
        r#"{"status":403,"code":"RESTRICTED_GEOLOCATION","details":"region"}"#,
        r#"{"status":502,"code":"PROVIDER_ERROR","details":"x","orderId":"u8jzPde0IgxLd6G"}"#,
        r#"{"status":502,"code":"PROVIDER_ERROR","details":"x","orderId":null}"#,
    ] {
        round_trip::<ErrorBody>(text, text);
    }
}

/// The floating body a real client posts (amounts as JSON numbers, no
/// `slippage`, no `quoteId`, no tags).
#[test]
fn floating_order_request_body() {
    let (name, text) = payload!("order-float-create-request.json");
    let request: FloatOrderRequest = round_trip(name, text);
    assert_eq!(request.from_amount().get(), d("25"));
    assert_eq!(request.to_amount().get(), d("24.61"));
}

/// The fixed body a real client posts (required fields only, amounts as
/// strings): re-encoding writes no `slippage` or `swapMode` it did not send.
#[test]
fn fixed_order_request_body() {
    let (name, text) = payload!("order-create-request.json");
    let request: FixedOrderRequest = round_trip(name, text);
    assert_eq!(request.from_amount().get(), d("1.25"));
    assert_eq!(request.to_amount().get(), d("98"));
}

/// Optional keys of a fixed body are written back when sent, as `null` when
/// sent as `null`, and not otherwise.
#[test]
fn fixed_order_request_optional_keys() {
    for text in [
        r#"{"pairId":"BTC_ETH","fromAmount":"0.5","fromAddress":null,"toAmount":"16.5",
            "toAddress":"0x52908400098527886E0F7030069857D2E4169EE7","slippage":0.5,"swapMode":"ExactOut"}"#,
        r#"{"pairId":"BTC_ETH","fromAmount":"0.5","fromAddress":null,"toAmount":"16.5",
            "toAddress":"0x52908400098527886E0F7030069857D2E4169EE7","slippage":null,"swapMode":null}"#,
        r#"{"pairId":"XRP_BTC","fromAmount":"120","fromAddress":"rEb8TK3gBgk5auZkwc6sHnwrGVJH8DuaLh",
            "fromAddressTag":"3302145","toAmount":"0.0021","toAddress":"bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh",
            "swapMode":"ExactIn"}"#,
    ] {
        round_trip::<FixedOrderRequest>(text, text);
    }
}

/// Whole numbers past 2^53 stay JSON numbers (never strings) and decode as
/// the same value written as a float does (ruling 1, issue 42): the decimal
/// of the nearest double. u64::MAX's nearest double is 2^64, whose shortest
/// digits are 1.8446744073709552e19; 2^63 is a double, shortest
/// 9.223372036854776e18. Written back, each is that same double.
#[test]
fn large_whole_numbers_stay_numbers() {
    let text = r#"{"pairId":"BTC_ETH","fromAmount":18446744073709551615,"fromAddress":null,
        "toAmount":9223372036854775808,"toAddress":"x"}"#;
    let request: FloatOrderRequest = serde_json::from_str(text).unwrap();
    // With serde_json's `arbitrary_precision` (ruling 1's opt-in) every
    // number keeps its exact text instead; either way both forms agree.
    let (from, to) = if cfg!(feature = "arbitrary-precision") {
        ("18446744073709551615", "9223372036854775808")
    } else {
        ("18446744073709552000", "9223372036854776000")
    };
    assert_eq!(
        request.from_amount().get(),
        from.parse::<Decimal>().unwrap()
    );
    assert_eq!(request.to_amount().get(), to.parse::<Decimal>().unwrap());
    let as_float: FloatOrderRequest = serde_json::from_str(
        r#"{"pairId":"BTC_ETH","fromAmount":18446744073709551615.0,"fromAddress":null,
        "toAmount":9223372036854775808.0,"toAddress":"x"}"#,
    )
    .unwrap();
    assert_eq!(as_float, request);
    let back = serde_json::to_value(&request).unwrap();
    assert!(back["fromAmount"].is_number() && back["toAmount"].is_number());
    assert_eq!(
        back["fromAmount"].as_f64(),
        Some(18_446_744_073_709_551_615_f64)
    );
    assert_eq!(
        back["toAmount"].as_f64(),
        Some(9_223_372_036_854_775_808_f64)
    );
    let amount: swaproute::wire::SentAmount =
        serde_json::from_str(r#"{"assetId":"BTC","value":18446744073709551615}"#).unwrap();
    assert_eq!(
        serde_json::to_value(&amount).unwrap()["value"].as_f64(),
        Some(18_446_744_073_709_551_615_f64)
    );
}

/// Rates (ruling 22): `"features":[]` and `"sponsoredByCampaignId":null` stay
/// where they were, absent keys stay absent, 17-digit numbers stay as written.
#[test]
fn rates_live_and_legacy() {
    for (name, text) in [
        payload!("rates-response.json"),
        payload!("rates-response-legacy.json"),
    ] {
        let rates: RatesResponse = round_trip(name, text);
        assert!(!rates.is_empty(), "{name}");
    }
}
