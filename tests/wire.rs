//! Wire shapes: decimals as numbers or strings, rates responses, round trips.

use serde::Deserialize;
use swaproute::decimal::{self, Decimal};
use swaproute::{Amount, RatesResponse};

#[derive(Deserialize)]
struct Holder {
    #[serde(with = "decimal::serde::number")]
    value: Decimal,
}

fn value(json: &str) -> Result<String, String> {
    serde_json::from_str::<Holder>(&format!(r#"{{"value":{json}}}"#))
        .map(|h| h.value.to_string())
        .map_err(|e| e.to_string())
}

#[test]
fn numbers_decode_to_their_shortest_text() {
    assert_eq!(value("0.1").unwrap(), "0.1");
    assert_eq!(value("33.098927169677374").unwrap(), "33.098927169677374");
    assert_eq!(value("33.14218692377834").unwrap(), "33.14218692377834");
    assert_eq!(value("0").unwrap(), "0");
    assert_eq!(value("0.00019192").unwrap(), "0.00019192");
    assert_eq!(value("8.33028657").unwrap(), "8.33028657");
    assert_eq!(value("1785333919000").unwrap(), "1785333919000");
    assert_eq!(
        value("-1").unwrap(),
        "-1",
        "a negative number decodes; rate validation reports it"
    );
    assert_eq!(value("1e-5").unwrap(), "0.00001");
}

#[test]
fn strings_follow_the_strict_grammar() {
    assert_eq!(value(r#""0.5""#).unwrap(), "0.5");
    assert_eq!(
        value(r#""33.098927169677374""#).unwrap(),
        "33.098927169677374"
    );
    for bad in [
        r#""1e5""#,
        r#""1_000""#,
        r#""-1""#,
        r#"" 1""#,
        r#""""#,
        r#""NaN""#,
        r#""1.""#,
        r#"".5""#,
    ] {
        assert!(value(bad).is_err(), "{bad} must be rejected");
    }
    let err = value(r#""79228162514264337593543950336""#).unwrap_err();
    assert!(err.contains("out of range"), "{err}");
    let err = value(r#""0.00000000000000000000000000001""#).unwrap_err();
    assert!(
        err.contains("more digits than can be held exactly"),
        "{err}"
    );
    assert!(value("true").is_err());
    assert!(value("null").is_err());
}

#[test]
fn exact_number_text_is_decoded_exactly() {
    // The shape serde_json's `arbitrary_precision` hands a number over in.
    let exact = |text: &str| value(&format!(r#"{{"$serde_json::private::Number":"{text}"}}"#));
    assert_eq!(
        exact("0.1000000000000000055511151231").unwrap(),
        "0.1000000000000000055511151231"
    );
    assert_eq!(
        exact("12345678901234567890.123").unwrap(),
        "12345678901234567890.123"
    );
    assert_eq!(exact("-2.5E+3").unwrap(), "-2500");
    assert!(
        exact("0.10000000000000000555111512312578").is_err(),
        "29+ places are refused, not rounded"
    );
    assert!(value(r#"{"other":"1"}"#).is_err());
}

#[test]
fn amounts_are_non_negative_and_written_as_strings() {
    let a: Amount = serde_json::from_str(r#""0.5""#).unwrap();
    assert_eq!(serde_json::to_string(&a).unwrap(), r#""0.5""#);
    let n: Amount = serde_json::from_str("0.5").unwrap();
    assert_eq!(n, a);
    assert!(serde_json::from_str::<Amount>("-0.5").is_err());
    assert!(serde_json::from_str::<Amount>(r#""-0.5""#).is_err());
}

const LIVE_RATE: &str = r#"{"amount":{"assetId":"ETH","value":33.14218692377834},"expiry":1785333919000,"id":"0b6c6f7e-3a52-4c8e-9a57-5f1e2d2b8a11","max":{"assetId":"BTC","value":8.33028657},"min":{"assetId":"BTC","value":0.00079787},"minerFee":{"assetId":"ETH","value":0.00019192},"pairId":"BTC_ETH","features":[],"sponsoredByCampaignId":null}"#;

#[test]
fn live_rate_shape_decodes() {
    let rates: RatesResponse = serde_json::from_str(&format!("[{LIVE_RATE}]")).unwrap();
    let rate = &rates[0];
    assert_eq!(rate.id().as_str(), "0b6c6f7e-3a52-4c8e-9a57-5f1e2d2b8a11");
    assert_eq!(rate.pair_id().as_str(), "BTC_ETH");
    assert_eq!(
        rate.multiplier(),
        "33.14218692377834".parse::<Decimal>().unwrap()
    );
    assert_eq!(rate.miner_fee(), "0.00019192".parse::<Decimal>().unwrap());
    assert_eq!(rate.min(), "0.00079787".parse::<Decimal>().unwrap());
    assert_eq!(rate.max(), "8.33028657".parse::<Decimal>().unwrap());
    assert_eq!(rate.expiry().as_millis(), 1_785_333_919_000);
    assert!(!rate.supports_exact_out());
    assert!(!rate.is_sponsored());
    assert_eq!(rate.amount().asset_id.as_str(), "ETH");
    assert_eq!(rate.min_amount().asset_id.as_str(), "BTC");
}

#[test]
fn optional_keys_may_be_absent_null_or_set_and_unknown_keys_are_ignored() {
    let absent = LIVE_RATE.replace(r#","features":[],"sponsoredByCampaignId":null"#, "");
    let nulls = LIVE_RATE.replace(r#""features":[]"#, r#""features":null"#);
    let set = LIVE_RATE
        .replace(
            r#""features":[]"#,
            r#""features":["exactOut","futureThing"]"#,
        )
        .replace(
            r#""sponsoredByCampaignId":null"#,
            r#""sponsoredByCampaignId":"camp-1","provider":{"x":1}"#,
        );
    // One response repeats no id (ruling 31).
    let (nulls, set) = (
        nulls.replacen(r#""id":""#, r#""id":"n-"#, 1),
        set.replacen(r#""id":""#, r#""id":"s-"#, 1),
    );
    let json = format!("[{absent},{nulls},{set}]");
    let rates: RatesResponse = serde_json::from_str(&json).unwrap();
    assert!(!rates[0].supports_exact_out() && !rates[0].is_sponsored());
    assert!(!rates[1].supports_exact_out() && !rates[1].is_sponsored());
    assert!(rates[2].supports_exact_out());
    assert_eq!(
        rates[2].sponsored_by_campaign_id().unwrap().as_str(),
        "camp-1"
    );
    assert_eq!(
        rates[2]
            .features()
            .iter()
            .map(swaproute::rate::Feature::as_str)
            .collect::<Vec<_>>(),
        ["exactOut", "futureThing"]
    );
}

#[test]
fn serializing_gives_the_service_shape_back() {
    let rates: RatesResponse = serde_json::from_str(&format!("[{LIVE_RATE}]")).unwrap();
    let out = serde_json::to_string(&rates).unwrap();
    // Values as numbers; `"features":[]` and `"sponsoredByCampaignId":null`
    // stay as they came (ruling 22): the same text, key for key.
    assert_eq!(out, format!("[{LIVE_RATE}]"));
    // Absent keys stay absent.
    let absent = LIVE_RATE.replace(r#","features":[],"sponsoredByCampaignId":null"#, "");
    let rates_absent: RatesResponse = serde_json::from_str(&format!("[{absent}]")).unwrap();
    assert_eq!(
        serde_json::to_string(&rates_absent).unwrap(),
        format!("[{absent}]")
    );
    // `"features":null` stays null.
    let null = LIVE_RATE.replace(r#""features":[]"#, r#""features":null"#);
    let rates_null: RatesResponse = serde_json::from_str(&format!("[{null}]")).unwrap();
    assert_eq!(
        serde_json::to_string(&rates_null).unwrap(),
        format!("[{null}]")
    );
    // The spelling is not part of what a rate means.
    assert_eq!(rates_absent, rates);
    let again: RatesResponse = serde_json::from_str(&out).unwrap();
    assert_eq!(again, rates);
}

#[test]
fn integer_fee_and_string_values_decode() {
    let json = LIVE_RATE
        .replace(r#""value":0.00019192"#, r#""value":0"#)
        .replace(r#""value":8.33028657"#, r#""value":"8.33028657""#);
    let rates: RatesResponse = serde_json::from_str(&format!("[{json}]")).unwrap();
    assert_eq!(rates[0].miner_fee(), Decimal::ZERO);
    assert_eq!(rates[0].max().to_string(), "8.33028657");
    let out = serde_json::to_string(&rates).unwrap();
    assert!(
        out.contains(r#""minerFee":{"assetId":"ETH","value":0}"#),
        "{out}"
    );
    assert!(
        out.contains(r#""max":{"assetId":"BTC","value":8.33028657}"#),
        "{out}"
    );
}

#[test]
fn malformed_rates_are_errors_not_panics() {
    let broken = [
        (
            "empty id",
            LIVE_RATE.replace(
                r#""id":"0b6c6f7e-3a52-4c8e-9a57-5f1e2d2b8a11""#,
                r#""id":"""#,
            ),
        ),
        (
            "pair not FROM_TO",
            LIVE_RATE.replace(r#""pairId":"BTC_ETH""#, r#""pairId":"BTCETH""#),
        ),
        (
            "negative expiry",
            LIVE_RATE.replace(r#""expiry":1785333919000"#, r#""expiry":-1"#),
        ),
        (
            "missing amount",
            LIVE_RATE.replace(
                r#""amount":{"assetId":"ETH","value":33.14218692377834},"#,
                "",
            ),
        ),
    ];
    for (why, rate) in broken {
        assert!(
            serde_json::from_str::<RatesResponse>(&format!("[{rate}]")).is_err(),
            "{why}"
        );
    }
    // A value no `Decimal` holds is the rate's defect, not the response's
    // decode error (ruling 44; tests/rate_leniency.rs).
    for (why, rate) in [
        (
            "exponent in a string",
            LIVE_RATE.replace(r#""value":0.00019192"#, r#""value":"1e-4""#),
        ),
        (
            "number out of range",
            LIVE_RATE.replace(r#""value":0.00019192"#, r#""value":1e300"#),
        ),
    ] {
        let rates = serde_json::from_str::<RatesResponse>(&format!("[{rate}]")).unwrap();
        assert!(
            matches!(
                rates[0].defect(),
                Some(swaproute::RateDefect::UnheldValue { .. })
            ),
            "{why}"
        );
    }
    for doc in ["{}", "[1]", "null", "[", ""] {
        assert!(serde_json::from_str::<RatesResponse>(doc).is_err(), "{doc}");
    }
    assert_eq!(
        serde_json::from_str::<RatesResponse>("[]").unwrap().len(),
        0
    );
}

#[test]
fn rates_with_shared_numbers_stay_distinct_by_id() {
    let twin = LIVE_RATE.replace(
        "0b6c6f7e-3a52-4c8e-9a57-5f1e2d2b8a11",
        "TWFueSBoYW5kcyBtYWtl+/==",
    );
    let rates: RatesResponse = serde_json::from_str(&format!("[{LIVE_RATE},{twin}]")).unwrap();
    assert_eq!(rates.len(), 2);
    assert_ne!(rates[0], rates[1]);
    assert_eq!(rates[0].multiplier(), rates[1].multiplier());
}

#[test]
fn values_no_double_carries_are_written_as_strings_not_rounded() {
    let precise = LIVE_RATE.replace(
        r#""value":8.33028657"#,
        r#""value":"8.330286570000000000001""#,
    );
    let rates: RatesResponse = serde_json::from_str(&format!("[{precise}]")).unwrap();
    let out = serde_json::to_string(&rates).unwrap();
    assert!(
        out.contains(r#""max":{"assetId":"BTC","value":"8.330286570000000000001"}"#),
        "{out}"
    );
    assert_eq!(serde_json::from_str::<RatesResponse>(&out).unwrap(), rates);
}

#[test]
#[cfg(all(feature = "json-float-roundtrip", not(feature = "arbitrary-precision")))]
fn numbers_decode_from_the_correctly_rounded_double() {
    // serde_json's best-effort float parser reads this text one unit in the last
    // place off (its shortest text would then be ...560000); the default
    // `json-float-roundtrip` feature makes it exact. Found by the rates_json fuzzer.
    assert_eq!(
        value("1.0864707444370955e20").unwrap(),
        "108647074443709550000"
    );
    assert_eq!(
        value("108647074443709551615").unwrap(),
        "108647074443709550000"
    );
    let json = LIVE_RATE.replace(
        r#""value":33.14218692377834"#,
        r#""value":108647074443709551615"#,
    );
    let rates: RatesResponse = serde_json::from_str(&format!("[{json}]")).unwrap();
    let again: RatesResponse =
        serde_json::from_str(&serde_json::to_string(&rates).unwrap()).unwrap();
    assert_eq!(again, rates);
}

#[test]
#[cfg(feature = "arbitrary-precision")]
fn arbitrary_precision_keeps_the_exact_number_text() {
    assert_eq!(
        value("108647074443709551615").unwrap(),
        "108647074443709551615"
    );
    assert_eq!(
        value("0.1000000000000000055511151231").unwrap(),
        "0.1000000000000000055511151231"
    );
    assert_eq!(value("33.098927169677374").unwrap(), "33.098927169677374");
}
