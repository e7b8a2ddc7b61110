//! Request parsing in one call: order bodies from bytes (every field error;
//! not JSON / not an object as `body` errors), V4 quote bodies, and route
//! queries checked by the body's own field rules.
#![cfg(feature = "json")]

use swaproute::order::RouteQuery;
use swaproute::order::{
    FieldError, FixedOrderRequest, FloatOrderRequest, OrderContext, RawFixedOrderRequest,
    RawFloatOrderRequest, RequestErrors,
};
use swaproute::route::LimitPolicy;
use swaproute::screening::ScreeningPolicy;
use swaproute::v4::QuoteRequestBody;
use swaproute::wire::RequestField;
use swaproute::{EpochMillis, ErrorCode, RatesResponse, SwapMode};

const NOW: EpochMillis = EpochMillis::new(1_785_000_000_000);
const TO: &str = "0x52908400098527886E0F7030069857D2E4169EE7";

/// (field, code, message) of every error, in priority order.
fn listed(errors: &RequestErrors) -> Vec<(RequestField, ErrorCode, String)> {
    errors
        .all()
        .iter()
        .map(|e| (e.field(), e.code(), e.to_string()))
        .collect()
}

fn fixed_body(from_amount: &str) -> String {
    format!(
        r#"{{"fromAmount":"{from_amount}","fromAddress":null,"toAmount":"16.5","toAddress":"{TO}","pairId":"BTC_ETH"}}"#
    )
}

// ------------------------------------------------------------ body errors

#[test]
fn bytes_that_are_not_json_are_a_body_error() {
    for bytes in [
        &b""[..],
        b"   ",
        b"fromAmount=0.5&toAmount=1",
        b"{\"fromAmount\":\"0.5\"",
        b"{} trailing",
        b"{\"fromAmount\":'0.5'}",
        b"\xff\xfe{}",
    ] {
        for errors in [
            RawFixedOrderRequest::from_json(bytes).unwrap_err(),
            RawFloatOrderRequest::from_json(bytes).unwrap_err(),
            QuoteRequestBody::from_json(bytes).unwrap_err(),
        ] {
            assert_eq!(errors.all().len(), 1, "{bytes:?}");
            let first = errors.first();
            assert_eq!(
                (first.field(), first.code()),
                (RequestField::Body, ErrorCode::InvalidRequest)
            );
            assert!(
                first.to_string().starts_with("body: is not JSON ("),
                "{bytes:?}: {first}"
            );
            assert_eq!(first.to_api_error().http_status().as_u16(), 400);
        }
    }
}

#[test]
fn json_that_is_not_an_object_is_a_body_error_naming_what_it_is() {
    for (bytes, kind) in [
        (&b"[]"[..], "an array"),
        (b" [\"0.5\", null]", "an array"),
        (b"\"{}\"", "a string"),
        (b"42", "a number"),
        (b"-1.5", "a number"),
        (b"true", "a boolean"),
        (b"null", "null"),
    ] {
        let expected = vec![(
            RequestField::Body,
            ErrorCode::InvalidRequest,
            format!("body: must be a JSON object, not {kind}"),
        )];
        assert_eq!(
            listed(&FixedOrderRequest::from_json(bytes).unwrap_err()),
            expected,
            "{bytes:?}"
        );
        assert_eq!(
            listed(&FloatOrderRequest::from_json(bytes).unwrap_err()),
            expected
        );
        assert_eq!(
            listed(&QuoteRequestBody::from_json(bytes).unwrap_err()),
            expected
        );
    }
}

/// A key sent twice is refused rather than one of its values picked.
#[test]
fn a_repeated_key_is_a_body_error() {
    let bytes = br#"{"fromAmount":"0.5","fromAmount":"500"}"#;
    let errors = FixedOrderRequest::from_json(bytes).unwrap_err();
    assert_eq!(errors.all().len(), 1);
    assert_eq!(errors.first().field(), RequestField::Body);
    assert!(
        errors
            .first()
            .problem()
            .contains("duplicate field `fromAmount`"),
        "{}",
        errors.first()
    );
    let errors = QuoteRequestBody::from_json(br#"{"amount":1,"amount":2}"#).unwrap_err();
    assert!(errors.first().problem().contains("`amount`"));
}

// ---------------------------------------------- every field error, one call

/// `from_json` reports exactly what `validate` reports for the same body.
#[test]
fn from_json_reports_every_field_error_as_validate_does() {
    let text = r#"{"fromAmount":"1e5","toAmount":0,"toAddress":"","pairId":"BTC-ETH","slippage":101,"swapMode":"exactin"}"#;
    let errors = FixedOrderRequest::from_json(text.as_bytes()).unwrap_err();
    let raw: RawFixedOrderRequest = serde_json::from_str(text).unwrap();
    assert_eq!(errors, FixedOrderRequest::validate(&raw).unwrap_err());
    let fields: Vec<RequestField> = errors.all().iter().map(FieldError::field).collect();
    // INVALID_REQUEST first (fromAddress missing, pairId, slippage), then
    // UNSUPPORTED_SWAP_MODE, INVALID_AMOUNT (fromAmount, toAmount), INVALID_ADDRESS.
    assert_eq!(
        fields,
        [
            RequestField::FromAddress,
            RequestField::PairId,
            RequestField::Slippage,
            RequestField::SwapMode,
            RequestField::FromAmount,
            RequestField::ToAmount,
            RequestField::ToAddress,
        ]
    );
    assert_eq!(
        errors.first().to_string(),
        "fromAddress: is required (null is accepted)"
    );
}

/// The recorded request payloads decode and validate in one call.
#[test]
fn recorded_payloads_parse_in_one_call() {
    let fixed =
        FixedOrderRequest::from_json(include_bytes!("payloads/order-create-request.json")).unwrap();
    assert_eq!(fixed.pair_id().as_str(), "LTC_USDT");
    assert_eq!(fixed.from_amount().to_string(), "1.25");
    assert_eq!(fixed.to_amount().to_string(), "98");
    assert_eq!(fixed.swap_mode(), SwapMode::ExactIn);

    let float =
        FloatOrderRequest::from_json(include_bytes!("payloads/order-float-create-request.json"))
            .unwrap();
    assert_eq!(float.from_amount().to_string(), "25");
    assert_eq!(float.to_amount().to_string(), "24.61");
}

#[test]
fn v4_bodies_report_every_mistyped_key() {
    let errors = QuoteRequestBody::from_json(
        br#"{"fromAsset":["ETH"],"toAsset":"BTC","amount":{},"swapMode":1,"slippage":false,"toAddress":null,"toAddressTag":7}"#,
    )
    .unwrap_err();
    assert_eq!(
        listed(&errors),
        [
            (
                RequestField::FromAsset,
                ErrorCode::InvalidRequest,
                "fromAsset: must be a string, not an array".to_owned()
            ),
            (
                RequestField::Amount,
                ErrorCode::InvalidRequest,
                "amount: must be a decimal string or a number, not an object".to_owned()
            ),
            (
                RequestField::ToAddressTag,
                ErrorCode::InvalidRequest,
                "toAddressTag: must be a string, not a number".to_owned()
            ),
            (
                RequestField::Slippage,
                ErrorCode::InvalidRequest,
                "slippage: must be a decimal string or a number, not a boolean".to_owned()
            ),
            (
                RequestField::SwapMode,
                ErrorCode::InvalidRequest,
                "swapMode: must be a string, not a number".to_owned()
            ),
        ]
    );
    // Well typed: the same body serde decodes, malformed numbers kept for
    // `QuoteRequest::validate` to report with their own codes.
    let text = r#"{"fromAsset":"ETH","toAsset":"BTC","amount":"1e5","slippage":0.5,"toAddress":"x","fromAddress":null,"extra":[1]}"#;
    let body = QuoteRequestBody::from_json(text.as_bytes()).unwrap();
    assert_eq!(
        body,
        serde_json::from_str::<QuoteRequestBody>(text).unwrap()
    );
    assert!(body.amount.unwrap().value().is_err());
    assert_eq!(body.slippage.unwrap().value().unwrap().to_string(), "0.5");
    assert_eq!(body.from_address, None);
}

// ------------------------------------------------------------ route queries

/// The issue's case: `fromAmount=0` in a query and `"fromAmount":"0"` in a
/// body give the same code and the same message.
#[test]
fn a_zero_amount_reads_the_same_in_a_query_and_a_body() {
    let query = RouteQuery::from_pairs([("fromAmount", "0")]).unwrap_err();
    let body = FixedOrderRequest::from_json(fixed_body("0").as_bytes()).unwrap_err();
    let expected = (
        RequestField::FromAmount,
        ErrorCode::InvalidAmount,
        "fromAmount: must be greater than zero".to_owned(),
    );
    assert_eq!(listed(&query), listed(&body));
    assert_eq!(listed(&body), [expected]);
    assert_eq!(query.to_api_error(), body.to_api_error());
}

/// Every malformed amount reads the same in both places.
#[test]
fn amount_problems_read_the_same_in_a_query_and_a_body() {
    for text in [
        "",
        "1e5",
        "-1",
        "0.5.1",
        " 1",
        "1_000",
        "abc",
        "0.00000000000000000000000000001",
        "99999999999999999999999999999",
    ] {
        let query = RouteQuery::from_pairs([("fromAmount", text)]).unwrap_err();
        let body = FixedOrderRequest::from_json(fixed_body(text).as_bytes()).unwrap_err();
        assert_eq!(listed(&query), listed(&body), "{text:?}");
        assert_eq!(query.first().code(), ErrorCode::InvalidAmount, "{text:?}");
    }
    // A missing fromAmount: "is required", as in a body without the key.
    let query = RouteQuery::from_pairs([("toAmount", "1")]).unwrap_err();
    let body = FixedOrderRequest::from_json(
        format!(
            r#"{{"fromAddress":null,"toAmount":"16.5","toAddress":"{TO}","pairId":"BTC_ETH"}}"#
        )
        .as_bytes(),
    )
    .unwrap_err();
    assert_eq!(listed(&query), listed(&body));
    assert_eq!(query.first().to_string(), "fromAmount: is required");
}

#[test]
fn swap_mode_in_a_query() {
    let no_pairs: [(&str, &str); 0] = [];
    assert_eq!(
        listed(&RouteQuery::from_pairs(no_pairs).unwrap_err()),
        [(
            RequestField::FromAmount,
            ErrorCode::InvalidRequest,
            "fromAmount: is required".to_owned()
        )]
    );
    let default = RouteQuery::from_pairs([("fromAmount", "0.5")]).unwrap();
    assert_eq!(default.swap_mode(), SwapMode::ExactIn);
    assert_eq!(default.to_amount(), None);

    // An unknown mode: UNSUPPORTED_SWAP_MODE with the body's message.
    let query =
        RouteQuery::from_pairs([("fromAmount", "0.5"), ("swapMode", "exactOut")]).unwrap_err();
    let mut body: serde_json::Value = serde_json::from_str(&fixed_body("0.5")).unwrap();
    body["swapMode"] = "exactOut".into();
    let body = FixedOrderRequest::from_json(body.to_string().as_bytes()).unwrap_err();
    assert_eq!(listed(&query), listed(&body));
    assert_eq!(query.first().code(), ErrorCode::UnsupportedSwapMode);

    // ExactOut needs toAmount; ExactIn takes it when given.
    let errors =
        RouteQuery::from_pairs([("fromAmount", "0.5"), ("swapMode", "ExactOut")]).unwrap_err();
    assert_eq!(errors.first().to_string(), "toAmount: is required");
    let exact_in = RouteQuery::from_pairs([("toAmount", "16"), ("fromAmount", "0.5")]).unwrap();
    assert_eq!(exact_in.to_amount().unwrap().to_string(), "16");
    let errors = RouteQuery::from_pairs([("fromAmount", "0.5"), ("toAmount", "0")]).unwrap_err();
    assert_eq!(
        errors.first().to_string(),
        "toAmount: must be greater than zero"
    );
}

#[test]
fn repeated_keys_are_refused_and_unknown_keys_ignored() {
    let errors = RouteQuery::from_pairs([
        ("fromAmount", "0.5"),
        ("fromAmount", "0.5"),
        ("swapMode", "ExactIn"),
        ("swapMode", "ExactOut"),
        ("swapMode", "ExactOut"),
    ])
    .unwrap_err();
    assert_eq!(
        listed(&errors),
        [
            (
                RequestField::FromAmount,
                ErrorCode::InvalidRequest,
                "fromAmount: is repeated; send it once".to_owned()
            ),
            (
                RequestField::SwapMode,
                ErrorCode::InvalidRequest,
                "swapMode: is repeated; send it once".to_owned()
            ),
        ]
    );
    // Keys are case-sensitive: `fromamount` is not `fromAmount`.
    let query = RouteQuery::from_pairs(vec![
        ("pairId".to_owned(), "BTC_ETH".to_owned()),
        ("fromamount".to_owned(), "0".to_owned()),
        ("fromAmount".to_owned(), "2.50".to_owned()),
        ("caip19".to_owned(), "true".to_owned()),
    ])
    .unwrap();
    assert_eq!(query.from_amount().unwrap().to_string(), "2.5");
}

/// The query ranks as a body would: on the README's rates, ExactIn 0.5 BTC
/// chooses q1w2e3 with 0.5 × 33.2 − 0.00215 = 16.59785 ETH (the other rate
/// gives 0.5 × 33.14218692377834 − 0.00019192 ≈ 16.5709); ExactOut 10 ETH at
/// the estimate 0.30173604 requires ⌈(10 + 0.00019192) / 33.14218692377834⌉₈
/// = 0.30173604 BTC of d5b1a8f2 (q1w2e3 has no exactOut).
#[test]
fn a_query_yields_the_route_request() {
    let rates: RatesResponse = serde_json::from_str(
        r#"[
      {"amount":{"assetId":"ETH","value":33.14218692377834},"expiry":4102444800000,
       "id":"d5b1a8f2","max":{"assetId":"BTC","value":8.33028657},
       "min":{"assetId":"BTC","value":0.00079787},"minerFee":{"assetId":"ETH","value":0.00019192},
       "pairId":"BTC_ETH","features":["exactOut"]},
      {"amount":{"assetId":"ETH","value":33.2},"expiry":4102444800000,"id":"q1w2e3",
       "max":{"assetId":"BTC","value":3.5},"min":{"assetId":"BTC","value":0.01},
       "minerFee":{"assetId":"ETH","value":0.00215},"pairId":"BTC_ETH"}]"#,
    )
    .unwrap();
    let query = RouteQuery::from_pairs([("fromAmount", "0.5")]).unwrap();
    let best = query
        .route_request(&rates, NOW)
        .unwrap()
        .best(&rates)
        .unwrap();
    assert_eq!(best.rate().id().as_str(), "q1w2e3");
    assert_eq!(best.net_output().to_string(), "16.59785");

    let query = RouteQuery::from_pairs([
        ("swapMode", "ExactOut"),
        ("fromAmount", "0.30173604"),
        ("toAmount", "10"),
    ])
    .unwrap();
    let policy = ScreeningPolicy::new();
    let context = OrderContext::new(NOW, &policy).with_limit_policy(LimitPolicy::Strict);
    let request = query.route_request_in(&rates, &context).unwrap();
    assert_eq!(request.limit_policy(), LimitPolicy::Strict);
    let route = request.best(&rates).unwrap();
    assert_eq!(route.rate().id().as_str(), "d5b1a8f2");
    assert_eq!(route.order_amount().to_string(), "0.30173604");

    // Judged at `now`: at the rates' expiry every rate has expired.
    let late = query
        .route_request(&rates, EpochMillis::new(4_102_444_800_000))
        .unwrap();
    assert_eq!(
        late.best(&rates).unwrap_err().code(),
        ErrorCode::RateExpired
    );
}

/// Issue 31: an ExactOut query without `fromAmount` runs the estimator. On
/// the same rates, `toAmount=10` estimates ⌈(10 + 0.00019192) /
/// 33.14218692377834⌉₈ = 0.30173604 BTC of d5b1a8f2 (q1w2e3 has no
/// exactOut), the amount the explicit query above sends.
#[test]
fn an_exact_out_query_without_from_amount_is_estimated() {
    let rates: RatesResponse = serde_json::from_str(
        r#"[
      {"amount":{"assetId":"ETH","value":33.14218692377834},"expiry":4102444800000,
       "id":"d5b1a8f2","max":{"assetId":"BTC","value":8.33028657},
       "min":{"assetId":"BTC","value":0.00079787},"minerFee":{"assetId":"ETH","value":0.00019192},
       "pairId":"BTC_ETH","features":["exactOut"]},
      {"amount":{"assetId":"ETH","value":33.2},"expiry":4102444800000,"id":"q1w2e3",
       "max":{"assetId":"BTC","value":3.5},"min":{"assetId":"BTC","value":0.01},
       "minerFee":{"assetId":"ETH","value":0.00215},"pairId":"BTC_ETH"}]"#,
    )
    .unwrap();
    let query = RouteQuery::from_pairs([("swapMode", "ExactOut"), ("toAmount", "10")]).unwrap();
    assert_eq!(query.from_amount(), None);
    assert_eq!(query.to_amount().unwrap().to_string(), "10");
    let request = query.route_request(&rates, NOW).unwrap();
    assert_eq!(request.from_amount().to_string(), "0.30173604");
    assert_eq!(request.to_amount().unwrap().to_string(), "10");
    let route = request.best(&rates).unwrap();
    assert_eq!(route.rate().id().as_str(), "d5b1a8f2");
    assert_eq!(route.order_amount().to_string(), "0.30173604");

    // Under a context too.
    let policy = ScreeningPolicy::new();
    let context = OrderContext::new(NOW, &policy);
    let request = query.route_request_in(&rates, &context).unwrap();
    assert_eq!(request.from_amount().to_string(), "0.30173604");

    // 1000 ETH needs ⌈1000.00019192 / 33.14218692377834⌉₈ ≈ 30.17 BTC, above
    // d5b1a8f2's max 8.33028657: the estimator's "no route".
    let query = RouteQuery::from_pairs([("swapMode", "ExactOut"), ("toAmount", "1000")]).unwrap();
    let no_route = query.route_request(&rates, NOW).unwrap_err();
    assert_eq!(no_route.code(), ErrorCode::AmountAboveLimit);
    assert_eq!(no_route.max().unwrap().to_string(), "8.33028657");

    // fromAmount is still required in ExactIn, and when the mode is in error.
    for pairs in [
        vec![("toAmount", "10")],
        vec![("swapMode", "ExactIn"), ("toAmount", "10")],
    ] {
        let errors = RouteQuery::from_pairs(pairs).unwrap_err();
        assert_eq!(errors.first().to_string(), "fromAmount: is required");
    }
    let errors =
        RouteQuery::from_pairs([("swapMode", "exactOut"), ("toAmount", "10")]).unwrap_err();
    assert_eq!(
        listed(&errors),
        [
            (
                RequestField::FromAmount,
                ErrorCode::InvalidRequest,
                "fromAmount: is required".to_owned()
            ),
            (
                RequestField::SwapMode,
                ErrorCode::UnsupportedSwapMode,
                "swapMode: \"exactOut\" is not supported (ExactIn or ExactOut)".to_owned()
            ),
        ]
    );
}

#[test]
fn a_route_query_keeps_the_swap_mode_it_was_sent() {
    let query = RouteQuery::from_pairs([
        ("fromAmount", "0.5"),
        ("toAmount", "10"),
        ("swapMode", "ExactOut"),
    ])
    .unwrap();
    assert_eq!(query.swap_mode(), SwapMode::ExactOut);
    assert_eq!(
        query.to_amount().map(|a| a.to_string()),
        Some("10".to_string())
    );
}
