//! The smaller departures of issue 42, each against its ruling (52, 44, 1,
//! 45, 46): written by hand from the rulings.

use serde_json::{json, Value};
use swaproute::decimal::WireNumber;
use swaproute::order::{FixedOrderRequest, Order, OrderContext, OrderRead};
use swaproute::screening::ScreeningPolicy;
use swaproute::{Amount, AssetId, EpochMillis, ErrorCode, PairId, RatesResponse, SwapMode};

const NOW: u64 = 1_785_000_000_000;
const TO: &str = "0x52908400098527886E0F7030069857D2E4169EE7";

fn rates() -> RatesResponse {
    serde_json::from_value(json!([{"amount": {"assetId": "ETH", "value": 33.1},
        "expiry": 4_102_444_800_000_u64, "id": "r-1", "max": {"assetId": "BTC", "value": 100},
        "min": {"assetId": "BTC", "value": 0.001}, "minerFee": {"assetId": "ETH", "value": 0.0002},
        "pairId": "BTC_ETH", "features": ["exactOut"]}]))
    .unwrap()
}

/// Ruling 52: a decoded body re-encodes as it was sent, byte for byte; a
/// body the crate builds writes an ExactOut `fromAmount` with 8 places.
#[test]
fn a_body_re_encodes_as_sent_and_exact_out_is_written_with_8_places() {
    for text in [
        format!(
            r#"{{"pairId":"BTC_ETH","fromAmount":"12.50000000","toAmount":"1","fromAddress":null,"toAddress":"{TO}","swapMode":"ExactOut"}}"#
        ),
        format!(
            r#"{{"pairId":"BTC_ETH","fromAmount":12.5,"toAmount":413,"fromAddress":null,"toAddress":"{TO}"}}"#
        ),
        format!(
            r#"{{"pairId":"BTC_ETH","fromAmount":"0.50","toAmount":"16.500","fromAddress":null,"toAddress":"{TO}"}}"#
        ),
    ] {
        let request: FixedOrderRequest = serde_json::from_str(&text).unwrap();
        assert_eq!(serde_json::to_string(&request).unwrap(), text);
    }
    let built = FixedOrderRequest::builder(
        PairId::new("BTC_ETH").unwrap(),
        Amount::parse("12.5").unwrap(),
        Amount::parse("1").unwrap(),
        swaproute::screening::Address::new(TO).unwrap(),
    )
    .swap_mode(SwapMode::ExactOut)
    .build()
    .unwrap();
    let body: Value = serde_json::to_value(&built).unwrap();
    assert_eq!(body["fromAmount"], "12.50000000");
    assert_eq!(body["toAmount"], "1");
    // ExactIn keeps the amount's own text.
    let exact_in = FixedOrderRequest::builder(
        PairId::new("BTC_ETH").unwrap(),
        Amount::parse("12.5").unwrap(),
        Amount::parse("1").unwrap(),
        swaproute::screening::Address::new(TO).unwrap(),
    )
    .build()
    .unwrap();
    assert_eq!(
        serde_json::to_value(&exact_in).unwrap()["fromAmount"],
        "12.5"
    );
}

/// Ruling 52: a screening policy's high-risk assets refuse a pair naming one,
/// 403 `HIGH_RISK_TOKENS`.
#[test]
fn a_high_risk_asset_refuses_the_pair() {
    let request: FixedOrderRequest = serde_json::from_value(json!({"pairId": "BTC_ETH",
        "fromAmount": "0.5", "toAmount": "16", "fromAddress": null, "toAddress": TO}))
    .unwrap();
    let rates = rates();
    for asset in ["BTC", "ETH"] {
        let policy = ScreeningPolicy::new().high_risk_asset(AssetId::new(asset).unwrap());
        let error = request
            .plan(&rates, &OrderContext::new(EpochMillis::new(NOW), &policy))
            .unwrap_err();
        assert_eq!(error.code(), ErrorCode::HighRiskTokens, "{asset}");
        let api = swaproute::ApiError::from(error);
        assert_eq!(api.http_status().as_u16(), 403);
        assert_eq!(api.details(), format!("{asset} is a high-risk token"));
    }
    let other = ScreeningPolicy::new().high_risk_asset(AssetId::new("SCAM").unwrap());
    assert!(request
        .plan(&rates, &OrderContext::new(EpochMillis::new(NOW), &other))
        .is_ok());
}

/// Ruling 11 with ruling 1: `-1e-400` is a negative number (the parser
/// rounds it to -0), refused, never taken as 0.
#[test]
fn a_negative_slippage_that_rounds_to_zero_is_refused() {
    let n: WireNumber = serde_json::from_str("-1e-400").unwrap();
    assert!(n.value().is_err());
    let zero: WireNumber = serde_json::from_str("0").unwrap();
    assert_eq!(zero.value().unwrap().to_string(), "0");
    let body = format!(
        r#"{{"pairId":"BTC_ETH","fromAmount":"0.5","toAmount":"16","fromAddress":null,"toAddress":"{TO}","slippage":-1e-400}}"#
    );
    let error = serde_json::from_str::<FixedOrderRequest>(&body).unwrap_err();
    assert!(error.to_string().contains("slippage"), "{error}");
}

/// Ruling 1: an integer token above 2^53 decodes to the decimal of its
/// double, as the same value written as a float does. 2^53 + 1 =
/// 9007199254740993 is no double; its nearest (ties to even) is 2^53.
#[test]
fn an_integer_above_2_pow_53_decodes_as_its_float_form() {
    // With serde_json's `arbitrary_precision` (ruling 1's opt-in) every
    // number keeps its exact text instead: both forms agree on that.
    let exact = cfg!(feature = "arbitrary-precision");
    for (int, float, expected) in [
        ("9007199254740993", "9007199254740993.0", "9007199254740992"),
        ("9007199254740992", "9007199254740992.0", "9007199254740992"),
        (
            "9007199254740995",
            "9.007199254740995e15",
            "9007199254740996",
        ),
        (
            "-9007199254740993",
            "-9007199254740993.0",
            "-9007199254740992",
        ),
    ] {
        let expected = if exact { int } else { expected };
        let a: WireNumber = serde_json::from_str(int).unwrap();
        let b: WireNumber = serde_json::from_str(float).unwrap();
        assert_eq!(
            a.value().unwrap().normalize().to_string(),
            expected,
            "{int}"
        );
        assert_eq!(
            b.value().unwrap().normalize().to_string(),
            expected,
            "{float}"
        );
    }
    // A rate value too.
    let rate: swaproute::Rate = serde_json::from_value(json!({"amount": {"assetId": "ETH",
        "value": 9_007_199_254_740_993_u64}, "expiry": 1, "id": "r", "max": {"assetId": "BTC", "value": 1},
        "min": {"assetId": "BTC", "value": 0}, "minerFee": {"assetId": "ETH", "value": 0},
        "pairId": "BTC_ETH"}))
    .unwrap();
    let expected = if exact {
        "9007199254740993"
    } else {
        "9007199254740992"
    };
    assert_eq!(rate.multiplier().normalize().to_string(), expected);
}

/// A provider's long value is not repeated whole in a verification report
/// (a 50 MB one would be): 64 characters, then how long it was.
#[test]
fn a_huge_returned_value_is_cut_in_the_report() {
    let request: FixedOrderRequest = serde_json::from_value(json!({"pairId": "BTC_ETH",
        "fromAmount": "0.5", "toAmount": "16", "fromAddress": null, "toAddress": TO}))
    .unwrap();
    let rates = rates();
    let policy = ScreeningPolicy::new();
    let plan = request
        .plan(&rates, &OrderContext::new(EpochMillis::new(NOW), &policy))
        .unwrap();
    let long_address = "3".repeat(100);
    let order: Order = serde_json::from_value(json!({"id": "o-1", "status": "awaiting",
        "pairId": "BTC_ETH", "rateId": "r-1", "amount": {"assetId": "BTC", "value": "0.5"},
        "fromAddress": null, "toAddress": long_address,
        "payInAddress": "3H6fwF5Hx8W1NcTJg93anG8BH4CDLhLaqE"}))
    .unwrap();
    let error = plan
        .verify(&request, &order, OrderRead::Created)
        .unwrap_err();
    let returned = error.all()[0].returned.clone().unwrap();
    assert_eq!(returned, format!("{}… (100 bytes in all)", "3".repeat(64)));
}
