//! `POST /v3/orders` and `POST /v3/orders/float` bodies as clients really send
//! them: decode into the loose `Raw*` types, validate, and check every field
//! rule of the spec's table (rulings 11, 12, 17 in docs/RULES.md) and the documented
//! first-error priority of [`RequestErrors`].
//!
//! Expected values come from the spec and the documentation, never from the
//! code's output.
#![allow(clippy::arithmetic_side_effects)]

use crate::common;
use common::d;
use common::json_body::set_key;
use serde_json::{json, Value};
use swaproute::order::{
    FieldError, FixedOrderRequest, FloatOrderRequest, RawFixedOrderRequest, RawFloatOrderRequest,
    RequestErrors,
};
use swaproute::wire::RequestField;
use swaproute::{ApiError, ErrorCode, SwapMode};

const BTC_ADDRESS: &str = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq";
const ETH_ADDRESS: &str = "0x52908400098527886E0F7030069857D2E4169EE7";

/// A complete, valid ExactIn body as a wallet sends it.
fn base() -> Value {
    json!({
        "fromAmount": "0.5",
        "fromAddress": BTC_ADDRESS,
        "toAmount": "16.5",
        "toAddress": ETH_ADDRESS,
        "pairId": "BTC_ETH"
    })
}

/// `base()` with `key` set to `value` (`None` removes the key).
fn with(key: &str, value: Option<Value>) -> Value {
    let mut body = base();
    set_key(&mut body, key, value);
    body
}

fn validate(body: &Value) -> Result<FixedOrderRequest, RequestErrors> {
    let text = serde_json::to_string(body).unwrap();
    let raw: RawFixedOrderRequest = serde_json::from_str(&text).unwrap();
    FixedOrderRequest::validate(&raw)
}

fn ok(body: &Value) -> FixedOrderRequest {
    validate(body).unwrap_or_else(|e| panic!("{body} should be valid, got {:?}", e.all()))
}

/// The single error of a body that has exactly one problem.
fn only_error(body: &Value) -> (RequestField, ErrorCode, String) {
    let errors = validate(body).expect_err("an invalid body");
    assert_eq!(errors.all().len(), 1, "{body}: {:?}", errors.all());
    let first = errors.first();
    (
        first.field(),
        first.code(),
        first.to_api_error().details().to_owned(),
    )
}

fn assert_field_error(body: &Value, field: RequestField, code: ErrorCode) {
    let (got_field, got_code, details) = only_error(body);
    assert_eq!((got_field, got_code), (field, code), "{body}: {details}");
    assert!(
        details.starts_with(&format!("{}:", field.as_str())),
        "details must name the field: {details}"
    );
}

// ---------------------------------------------------------------- amounts

#[test]
fn amounts_decode_from_strings_and_from_numbers() {
    let strings = ok(&base());
    assert_eq!(strings.from_amount().get(), d("0.5"));
    assert_eq!(strings.to_amount().get(), d("16.5"));

    // Some clients send JSON numbers: same request.
    let numbers = ok(&with("fromAmount", Some(json!(0.5))));
    let numbers_both = ok(&json!({
        "fromAmount": 0.5, "fromAddress": BTC_ADDRESS, "toAmount": 16.5,
        "toAddress": ETH_ADDRESS, "pairId": "BTC_ETH"
    }));
    assert_eq!(numbers, strings);
    assert_eq!(numbers_both, strings);

    // An integer number, and a 17-significant-digit double kept digit for digit
    // (ruling 1: the shortest decimal that round-trips the double).
    assert_eq!(
        ok(&with("toAmount", Some(json!(16)))).to_amount().get(),
        d("16")
    );
    assert_eq!(
        ok(&with("toAmount", Some(json!(33.098_927_169_677_374))))
            .to_amount()
            .get(),
        d("33.098927169677374")
    );
    // Satoshi precision and the largest Decimal mantissa (2^96 - 1) are exact.
    assert_eq!(
        ok(&with("fromAmount", Some(json!("0.00000001"))))
            .from_amount()
            .get(),
        d("0.00000001")
    );
    assert_eq!(
        ok(&with(
            "fromAmount",
            Some(json!("79228162514264337593543950335"))
        ))
        .from_amount()
        .get(),
        d("79228162514264337593543950335")
    );
}

#[test]
fn malformed_zero_negative_or_huge_amounts_are_invalid_amount_naming_the_field() {
    let bad: Vec<Value> = vec![
        json!("1e5"), // exponent
        json!("-1"),  // sign
        json!("+1"),  // sign
        json!(""),    // empty
        json!("0"),   // not > 0
        json!("0.000"),
        json!(0), // zero as a number
        json!(0.0),
        json!(-1), // negative number
        json!(-0.5),
        json!("1."), // dot without digits after
        json!(".5"), // dot without digits before
        json!("1.2.3"),
        json!(" 1"),  // space
        json!("1,5"), // decimal comma
        json!("1_000"),
        json!("0x10"),
        json!("NaN"),
        json!("١"), // Arabic-Indic digit one
        // 2^96: one more than the largest mantissa a Decimal holds.
        json!("79228162514264337593543950336"),
        // 29 decimal places: more than a Decimal holds exactly.
        json!("0.00000000000000000000000000001"),
        json!(1e300), // a double far above Decimal's range
    ];
    for field in [RequestField::FromAmount, RequestField::ToAmount] {
        for value in &bad {
            assert_field_error(
                &with(field.as_str(), Some(value.clone())),
                field,
                ErrorCode::InvalidAmount,
            );
        }
    }
}

#[test]
fn missing_null_or_mistyped_amounts_are_invalid_request() {
    for field in [RequestField::FromAmount, RequestField::ToAmount] {
        for value in [
            None,
            Some(json!(null)),
            Some(json!(true)),
            Some(json!([1])),
            Some(json!({"value": "1"})),
        ] {
            assert_field_error(
                &with(field.as_str(), value),
                field,
                ErrorCode::InvalidRequest,
            );
        }
    }
}

// ---------------------------------------------------------------- addresses

#[test]
fn from_address_null_is_accepted_but_the_key_is_required() {
    let deferred = ok(&with("fromAddress", Some(json!(null))));
    assert!(deferred.parties().from_address().is_none());
    assert_eq!(
        ok(&base()).parties().from_address().unwrap().as_str(),
        BTC_ADDRESS
    );

    assert_field_error(
        &with("fromAddress", None),
        RequestField::FromAddress,
        ErrorCode::InvalidRequest,
    );
    assert_field_error(
        &with("fromAddress", Some(json!(12345))),
        RequestField::FromAddress,
        ErrorCode::InvalidRequest,
    );
}

#[test]
fn to_address_is_required_and_not_nullable() {
    for value in [None, Some(json!(null)), Some(json!(false))] {
        assert_field_error(
            &with("toAddress", value),
            RequestField::ToAddress,
            ErrorCode::InvalidRequest,
        );
    }
}

#[test]
fn empty_or_space_containing_addresses_are_invalid_address() {
    let bad = [
        String::new(),
        " ".to_owned(),
        format!(" {ETH_ADDRESS}"),
        format!("{ETH_ADDRESS} "),
        "0x5290 8400098527886E0F7030069857D2E4169EE7".to_owned(),
        "bc1q\tar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq".to_owned(),
        "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq\n".to_owned(),
        // Non-ASCII look-alike: Cyrillic "а" in place of Latin "a".
        "bc1q\u{430}r0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq".to_owned(),
        // Longer than MAX_ADDRESS_LEN (128 bytes).
        "a".repeat(129),
    ];
    for field in [RequestField::FromAddress, RequestField::ToAddress] {
        for text in &bad {
            assert_field_error(
                &with(field.as_str(), Some(json!(text))),
                field,
                ErrorCode::InvalidAddress,
            );
        }
    }
    // 128 bytes is the cap itself: accepted.
    let longest = "a".repeat(128);
    assert_eq!(
        ok(&with("toAddress", Some(json!(longest))))
            .parties()
            .to_address()
            .as_str(),
        longest
    );
}

// ---------------------------------------------------------------- tags

#[test]
fn tags_absent_null_or_empty_mean_none() {
    for tag in ["fromAddressTag", "toAddressTag"] {
        for value in [None, Some(json!(null)), Some(json!(""))] {
            let request = ok(&with(tag, value));
            assert!(request.parties().from_address_tag().is_none());
            assert!(request.parties().to_address_tag().is_none());
        }
    }
    let tagged = ok(&json!({
        "fromAmount": "120", "fromAddress": "rEb8TK3gBgk5auZkwc6sHnwrGVJH8DuaLh",
        "fromAddressTag": "3302145", "toAmount": "0.0021", "toAddress": BTC_ADDRESS,
        "toAddressTag": "memo with spaces", "pairId": "XRP_BTC"
    }));
    assert_eq!(
        tagged.parties().from_address_tag().unwrap().as_str(),
        "3302145"
    );
    // Memos are free text (EOS, Stellar): spaces are allowed in a tag.
    assert_eq!(
        tagged.parties().to_address_tag().unwrap().as_str(),
        "memo with spaces"
    );
}

#[test]
fn bad_tags_name_their_field() {
    // A control character in a memo.
    assert_field_error(
        &with("toAddressTag", Some(json!("12\n34"))),
        RequestField::ToAddressTag,
        ErrorCode::InvalidAddress,
    );
    // Longer than MAX_ADDRESS_TAG_LEN (256 bytes).
    assert_field_error(
        &with("fromAddressTag", Some(json!("7".repeat(257)))),
        RequestField::FromAddressTag,
        ErrorCode::InvalidAddress,
    );
    // A fractional or negative number is no tag.
    assert_field_error(
        &with("toAddressTag", Some(json!(3.5))),
        RequestField::ToAddressTag,
        ErrorCode::InvalidRequest,
    );
    assert_field_error(
        &with("toAddressTag", Some(json!(-1))),
        RequestField::ToAddressTag,
        ErrorCode::InvalidRequest,
    );
}

#[test]
fn numeric_destination_tags_are_taken_as_their_digits() {
    // XRP clients send destination tags as JSON numbers.
    let request = ok(&with("toAddressTag", Some(json!(3_302_145))));
    assert_eq!(
        request
            .parties()
            .to_address_tag()
            .map(swaproute::screening::AddressTag::as_str),
        Some("3302145")
    );
}

// ---------------------------------------------------------------- pairId

#[test]
fn pair_id_is_from_underscore_to() {
    let request = ok(&with("pairId", Some(json!("USDT_TSLAx"))));
    assert_eq!(request.pair_id().from().as_str(), "USDT");
    assert_eq!(request.pair_id().to().as_str(), "TSLAx");

    for bad in [
        None,
        Some(json!(null)),
        Some(json!(42)),
        Some(json!("")),
        Some(json!("BTCETH")),
        Some(json!("BTC_")),
        Some(json!("_ETH")),
        Some(json!("_")),
        Some(json!("BTC_ETH_USDT")),
        Some(json!("BTC__ETH")),
        Some(json!("BTC_\u{0007}")),
    ] {
        assert_field_error(
            &with("pairId", bad),
            RequestField::PairId,
            ErrorCode::InvalidRequest,
        );
    }
}

// ---------------------------------------------------------------- slippage

#[test]
fn slippage_defaults_to_two_percent() {
    assert_eq!(ok(&base()).slippage().percent(), d("2"));
    assert_eq!(
        ok(&with("slippage", Some(json!(null))))
            .slippage()
            .percent(),
        d("2")
    );
}

#[test]
fn slippage_is_a_number_or_numeric_string_from_0_to_100() {
    for (value, percent) in [
        (json!(0.5), "0.5"),
        (json!("0.5"), "0.5"),
        (json!(1), "1"),
        (json!("2.50"), "2.5"),
        (json!(0), "0"),
        (json!("0"), "0"),
        (json!(0.0), "0"),
        (json!(100), "100"),
        (json!("100"), "100"),
        (json!(100.0), "100"),
        (json!("100.000"), "100"),
    ] {
        let request = ok(&with("slippage", Some(value.clone())));
        assert_eq!(request.slippage().percent(), d(percent), "{value}");
    }
}

#[test]
fn slippage_out_of_range_or_not_numeric_is_invalid_request_naming_slippage() {
    for value in [
        json!(-0.1),
        json!("-0.1"),
        json!(100.1),
        json!("100.1"),
        json!(100.000_001),
        json!(101),
        json!(-1),
        json!("abc"),
        json!(""),
        json!("2%"),
        json!("1e1"),
        json!(true),
        json!([2]),
        json!({"value": 2}),
    ] {
        let body = with("slippage", Some(value.clone()));
        let (field, code, details) = only_error(&body);
        assert_eq!(
            (field, code),
            (RequestField::Slippage, ErrorCode::InvalidRequest),
            "{value}"
        );
        assert!(details.starts_with("slippage:"), "{details}");
    }
}

// ---------------------------------------------------------------- swapMode

#[test]
fn swap_mode_defaults_to_exact_in() {
    assert_eq!(ok(&base()).swap_mode(), SwapMode::ExactIn);
    assert_eq!(
        ok(&with("swapMode", Some(json!(null)))).swap_mode(),
        SwapMode::ExactIn
    );
    assert_eq!(
        ok(&with("swapMode", Some(json!("ExactIn")))).swap_mode(),
        SwapMode::ExactIn
    );
    assert_eq!(
        ok(&with("swapMode", Some(json!("ExactOut")))).swap_mode(),
        SwapMode::ExactOut
    );
}

#[test]
fn unknown_swap_mode_string_is_unsupported_and_non_string_is_invalid_request() {
    for text in [
        "exactout",
        "EXACTOUT",
        "Exact_Out",
        "Floating",
        "",
        " ExactIn",
    ] {
        assert_field_error(
            &with("swapMode", Some(json!(text))),
            RequestField::SwapMode,
            ErrorCode::UnsupportedSwapMode,
        );
    }
    for value in [
        json!(1),
        json!(true),
        json!(["ExactOut"]),
        json!({"mode": "ExactOut"}),
    ] {
        assert_field_error(
            &with("swapMode", Some(value)),
            RequestField::SwapMode,
            ErrorCode::InvalidRequest,
        );
    }
}

// ---------------------------------------------------------------- priority

/// The documented priority: by code (INVALID_REQUEST, UNSUPPORTED_SWAP_MODE,
/// INVALID_AMOUNT, INVALID_ADDRESS), then by the spec's field order.
#[test]
fn every_error_is_reported_in_the_documented_priority() {
    use ErrorCode as C;
    use RequestField as F;
    let body = json!({
        "fromAmount": "1e5",              // INVALID_AMOUNT
        // fromAddress key missing        // INVALID_REQUEST
        "fromAddressTag": "a\u{0000}b",   // INVALID_ADDRESS (control character)
        "toAmount": 0,                    // INVALID_AMOUNT (zero)
        "toAddress": "",                  // INVALID_ADDRESS (empty)
        "toAddressTag": "",               // fine: no tag
        "pairId": "BTCETH",               // INVALID_REQUEST
        "slippage": 101,                  // INVALID_REQUEST
        "swapMode": "Fixed"               // UNSUPPORTED_SWAP_MODE
    });
    let errors = validate(&body).unwrap_err();
    let got: Vec<(RequestField, ErrorCode)> =
        errors.all().iter().map(|e| (e.field(), e.code())).collect();
    assert_eq!(
        got,
        vec![
            (F::FromAddress, C::InvalidRequest),
            (F::PairId, C::InvalidRequest),
            (F::Slippage, C::InvalidRequest),
            (F::SwapMode, C::UnsupportedSwapMode),
            (F::FromAmount, C::InvalidAmount),
            (F::ToAmount, C::InvalidAmount),
            (F::FromAddressTag, C::InvalidAddress),
            (F::ToAddress, C::InvalidAddress),
        ]
    );
    assert_eq!(errors.first(), &errors.all()[0]);

    // What a server answers: the first error, HTTP 400, details naming the field.
    let api = errors.to_api_error();
    assert_eq!(api.code(), ErrorCode::InvalidRequest);
    assert_eq!(api.http_status().as_u16(), 400);
    assert!(
        api.details().starts_with("fromAddress:"),
        "{}",
        api.details()
    );
    assert_eq!(ApiError::from(errors.clone()), api);
    // The error's Display is the first problem.
    assert_eq!(errors.to_string(), errors.first().to_string());
}

#[test]
fn amount_errors_outrank_address_errors_and_swap_mode_outranks_amounts() {
    // fromAddress bad (INVALID_ADDRESS) + toAmount bad (INVALID_AMOUNT):
    // the amount comes first although fromAddress precedes toAmount in the table.
    let body = json!({"fromAmount": "0.5", "fromAddress": "", "toAmount": "-3",
        "toAddress": ETH_ADDRESS, "pairId": "BTC_ETH"});
    let errors = validate(&body).unwrap_err();
    assert_eq!(errors.first().field(), RequestField::ToAmount);
    assert_eq!(errors.first().code(), ErrorCode::InvalidAmount);
    assert_eq!(errors.all()[1].field(), RequestField::FromAddress);

    let body = json!({"fromAmount": "abc", "fromAddress": null, "toAmount": "1",
        "toAddress": ETH_ADDRESS, "pairId": "BTC_ETH", "swapMode": "Both"});
    let errors = validate(&body).unwrap_err();
    assert_eq!(errors.first().code(), ErrorCode::UnsupportedSwapMode);
    assert_eq!(errors.all()[1].code(), ErrorCode::InvalidAmount);
}

#[test]
fn an_empty_object_reports_every_required_field() {
    let errors = validate(&json!({})).unwrap_err();
    let fields: Vec<RequestField> = errors.all().iter().map(FieldError::field).collect();
    // All INVALID_REQUEST ("is required"), in table order; optional fields absent.
    assert_eq!(
        fields,
        vec![
            RequestField::FromAmount,
            RequestField::FromAddress,
            RequestField::ToAmount,
            RequestField::ToAddress,
            RequestField::PairId,
        ]
    );
    assert!(errors
        .all()
        .iter()
        .all(|e| e.code() == ErrorCode::InvalidRequest));
}

#[test]
fn unknown_keys_are_ignored() {
    let mut body = base();
    body["refundAddress"] = json!(BTC_ADDRESS);
    body["rateId"] = json!("r-1");
    body["partner"] = json!({"name": "wallet"});
    assert_eq!(ok(&body), ok(&base()));
}

#[test]
fn a_body_that_is_not_an_object_is_refused() {
    // The wire body of POST /v3/orders is a JSON object; scalars are refused
    // at decode time.
    for text in ["null", "5", "\"BTC_ETH\"", "true"] {
        assert!(
            serde_json::from_str::<RawFixedOrderRequest>(text).is_err(),
            "{text}"
        );
    }
}

/// A JSON array is not an order body either. serde's derived struct decoding
/// also reads a struct from a sequence (fields by position), so a positional
/// array currently decodes and validates as a complete order.
#[test]
fn a_positional_array_body_is_not_an_order() {
    let text = format!(r#"["0.5", null, null, "16.5", "{ETH_ADDRESS}", null, "BTC_ETH"]"#);
    let accepted = serde_json::from_str::<RawFixedOrderRequest>(&text)
        .ok()
        .and_then(|raw| FixedOrderRequest::validate(&raw).ok());
    assert!(
        accepted.is_none(),
        "an array body was accepted as {accepted:?}"
    );
}

// ---------------------------------------------------------------- wire shape

#[test]
fn serialize_writes_the_wire_shape_and_decodes_back_equal() {
    let request = ok(&json!({
        "fromAmount": 0.5, "fromAddress": null, "toAmount": "16.5",
        "toAddress": ETH_ADDRESS, "pairId": "BTC_ETH", "slippage": "0.5",
        "swapMode": "ExactOut"
    }));
    let wire = serde_json::to_value(&request).unwrap();
    // Amounts as sent (ruling 52: the number stays a number), fromAddress
    // null, tags omitted, slippage a number.
    assert_eq!(
        wire,
        json!({
            "fromAmount": 0.5, "fromAddress": null, "toAmount": "16.5",
            "toAddress": ETH_ADDRESS, "pairId": "BTC_ETH", "slippage": 0.5,
            "swapMode": "ExactOut"
        })
    );
    assert_eq!(ok(&wire), request);
    let typed: FixedOrderRequest = serde_json::from_value(wire).unwrap();
    assert_eq!(typed, request);

    // Keys not sent stay unwritten (the defaults apply on the server); tags
    // are written when present.
    let tagged = ok(&json!({
        "fromAmount": "120", "fromAddress": "rEb8TK3gBgk5auZkwc6sHnwrGVJH8DuaLh",
        "fromAddressTag": "3302145", "toAmount": "0.0021", "toAddress": BTC_ADDRESS,
        "toAddressTag": "", "pairId": "XRP_BTC"
    }));
    let wire = serde_json::to_value(&tagged).unwrap();
    assert_eq!(
        wire,
        json!({
            "fromAmount": "120", "fromAddress": "rEb8TK3gBgk5auZkwc6sHnwrGVJH8DuaLh",
            "fromAddressTag": "3302145", "toAmount": "0.0021", "toAddress": BTC_ADDRESS,
            "pairId": "XRP_BTC"
        })
    );
    assert_eq!(ok(&wire), tagged);
}

#[test]
fn typed_deserialize_fails_with_the_first_error() {
    let body = json!({"fromAmount": "1e5", "toAmount": "1", "toAddress": ETH_ADDRESS,
        "pairId": "BTC_ETH"});
    let expected = validate(&body).unwrap_err().first().to_string();
    let err = serde_json::from_value::<FixedOrderRequest>(body).unwrap_err();
    // fromAddress (INVALID_REQUEST) outranks fromAmount (INVALID_AMOUNT).
    assert!(expected.starts_with("fromAddress:"), "{expected}");
    assert!(err.to_string().contains(&expected), "{err}");
}

#[test]
fn route_request_checks_limits_against_from_amount_in_both_modes() {
    use swaproute::order::OrderContext;
    use swaproute::screening::ScreeningPolicy;
    use swaproute::EpochMillis;
    let policy = ScreeningPolicy::new();
    let context = OrderContext::new(EpochMillis::new(1_785_000_000_000), &policy);

    let exact_in = ok(&base()).route_request(&context);
    assert_eq!(exact_in.mode(), SwapMode::ExactIn);
    assert_eq!(exact_in.from_amount().get(), d("0.5"));
    assert_eq!(exact_in.to_amount().unwrap().get(), d("16.5"));
    assert_eq!(exact_in.now(), EpochMillis::new(1_785_000_000_000));

    let exact_out = ok(&with("swapMode", Some(json!("ExactOut")))).route_request(&context);
    assert_eq!(exact_out.mode(), SwapMode::ExactOut);
    assert_eq!(exact_out.from_amount().get(), d("0.5"));
    assert_eq!(exact_out.to_amount().unwrap().get(), d("16.5"));
}

// ---------------------------------------------------------------- floating
//
// Ruling 19 (docs/RULES.md): the floating body is the fixed body without
// `swapMode`; `quoteId` is optional.

/// The real floating body a known client posts (amounts as JSON numbers).
const FLOAT_PAYLOAD: &str = include_str!("payloads/order-float-create-request.json");

fn float_base() -> Value {
    serde_json::from_str(FLOAT_PAYLOAD).unwrap()
}

fn float_with(key: &str, value: Option<Value>) -> Value {
    let mut body = float_base();
    set_key(&mut body, key, value);
    body
}

fn float_validate(body: &Value) -> Result<FloatOrderRequest, RequestErrors> {
    let raw: RawFloatOrderRequest = serde_json::from_value(body.clone()).unwrap();
    FloatOrderRequest::validate(&raw)
}

/// `(field, code, details)` of every error, in order.
fn described(errors: &RequestErrors) -> Vec<(RequestField, ErrorCode, String)> {
    errors
        .all()
        .iter()
        .map(|e| (e.field(), e.code(), e.to_api_error().details().to_owned()))
        .collect()
}

#[test]
fn the_real_floating_body_validates() {
    let request = float_validate(&float_base()).unwrap();
    assert_eq!(
        request.pair_id().as_str(),
        "USDCALGO_USDCbasemainnetB5A52617"
    );
    assert_eq!(request.from_amount().get(), d("25"));
    assert_eq!(request.to_amount().get(), d("24.61"));
    assert_eq!(
        request.parties().from_address().unwrap().as_str(),
        "4MI2YHZ2NARTBNLZGCJN4QAVSYEEFNPAXX5I6IYLJTOPMKMY6F2DGGCQPZ"
    );
    assert_eq!(
        request.parties().to_address().as_str(),
        "0x29a422EB14AB2f2D0f0Cc022238daceEe2092F07"
    );
    assert_eq!(request.quote_id(), None);
    assert_eq!(request.slippage().percent(), d("2"));
    assert_eq!(request.swap_mode(), SwapMode::ExactIn);
    let typed: FloatOrderRequest = serde_json::from_str(FLOAT_PAYLOAD).unwrap();
    assert_eq!(typed, request);
}

#[test]
fn floating_amounts_follow_the_strict_grammar() {
    // The cases of issue 14 item 2, and the fixed body's other refusals.
    for (key, bad) in [
        ("fromAmount", json!("1e5")),
        ("fromAmount", json!(".5")),
        ("toAmount", json!("-24.61")),
        ("toAmount", json!(-24.61)),
        ("fromAmount", json!("1.")),
        ("fromAmount", json!(" 1")),
        ("fromAmount", json!("1_000")),
        ("fromAmount", json!(0)),
        ("toAmount", json!("0.0")),
    ] {
        let errors = float_validate(&float_with(key, Some(bad.clone()))).unwrap_err();
        assert_eq!(errors.all().len(), 1, "{key}: {bad}");
        assert_eq!(errors.first().field().as_str(), key, "{bad}");
        assert_eq!(errors.first().code(), ErrorCode::InvalidAmount, "{bad}");
        assert!(errors
            .to_api_error()
            .details()
            .starts_with(&format!("{key}:")));
    }
    // Strings are accepted as well as numbers.
    let request = float_validate(&float_with("fromAmount", Some(json!("25.5")))).unwrap();
    assert_eq!(request.from_amount().get(), d("25.5"));
}

#[test]
fn floating_pair_and_required_fields_are_checked() {
    for (key, value, code) in [
        ("pairId", None, ErrorCode::InvalidRequest),
        ("pairId", Some(json!("USDCALGO")), ErrorCode::InvalidRequest),
        ("pairId", Some(json!(7)), ErrorCode::InvalidRequest),
        ("fromAmount", None, ErrorCode::InvalidRequest),
        ("toAmount", Some(json!(null)), ErrorCode::InvalidRequest),
        ("fromAddress", None, ErrorCode::InvalidRequest),
        (
            "toAddress",
            Some(json!("0x12 34")),
            ErrorCode::InvalidAddress,
        ),
        ("slippage", Some(json!(101)), ErrorCode::InvalidRequest),
        ("slippage", Some(json!("1e1")), ErrorCode::InvalidRequest),
    ] {
        let errors = float_validate(&float_with(key, value.clone())).unwrap_err();
        assert_eq!(errors.all().len(), 1, "{key}: {value:?}");
        assert_eq!(errors.first().field().as_str(), key, "{value:?}");
        assert_eq!(errors.first().code(), code, "{key}: {value:?}");
    }
}

#[test]
fn floating_body_needs_no_quote_id_but_checks_one_when_sent() {
    for absent in [None, Some(json!(null))] {
        let request = float_validate(&float_with("quoteId", absent)).unwrap();
        assert_eq!(request.quote_id(), None);
    }
    let request = float_validate(&float_with("quoteId", Some(json!("q-1")))).unwrap();
    assert_eq!(request.quote_id().unwrap().as_str(), "q-1");
    for bad in [json!(""), json!(7)] {
        let errors = float_validate(&float_with("quoteId", Some(bad.clone()))).unwrap_err();
        assert_eq!(errors.all().len(), 1, "{bad}");
        assert_eq!(errors.first().field(), RequestField::QuoteId);
        assert_eq!(errors.first().code(), ErrorCode::InvalidRequest);
        assert!(errors.to_api_error().details().starts_with("quoteId:"));
    }
}

#[test]
fn floating_body_with_swap_mode_is_unsupported_swap_mode() {
    for value in [
        json!("ExactIn"),
        json!("ExactOut"),
        json!("anything"),
        json!(1),
        json!(false),
    ] {
        let errors = float_validate(&float_with("swapMode", Some(value.clone()))).unwrap_err();
        assert_eq!(errors.all().len(), 1, "{value}");
        assert_eq!(errors.first().field(), RequestField::SwapMode);
        assert_eq!(errors.first().code(), ErrorCode::UnsupportedSwapMode);
        assert_eq!(errors.to_api_error().http_status().as_u16(), 400);
    }
    // `swapMode: null` is documented as accepted (only a non-null value is refused).
    assert_eq!(
        float_validate(&float_with("swapMode", Some(json!(null)))).unwrap(),
        float_validate(&float_base()).unwrap()
    );
}

/// The floating body reuses the fixed body's field rules: any body without
/// `swapMode` gets the same errors, in the same order, from both flows.
#[test]
fn floating_errors_are_the_fixed_errors() {
    let bodies = [
        json!({}),
        json!({"fromAmount": "1e5", "toAmount": ".5", "toAddress": "", "pairId": "BTC",
            "slippage": 101, "fromAddressTag": "\u{200b}"}),
        json!({"fromAmount": -1, "fromAddress": null, "toAmount": "-24.61",
            "toAddress": ETH_ADDRESS, "pairId": "BTC_ETH"}),
        json!({"fromAmount": [], "fromAddress": 3, "toAmount": {}, "toAddress": ETH_ADDRESS,
            "pairId": null, "slippage": "x"}),
        with("toAddressTag", Some(json!(1.5))),
    ];
    for body in &bodies {
        let fixed = validate(body).unwrap_err();
        let float = float_validate(body).unwrap_err();
        assert_eq!(described(&float), described(&fixed), "{body}");
    }
}

#[test]
fn floating_errors_follow_the_priority() {
    // swapMode (UNSUPPORTED_SWAP_MODE) after missing pairId (INVALID_REQUEST),
    // before a bad amount (INVALID_AMOUNT) and an empty toAddress (INVALID_ADDRESS).
    let errors = float_validate(&json!({"fromAmount": "1e5", "fromAddress": null,
        "toAmount": 1, "toAddress": "", "swapMode": "ExactOut", "quoteId": 9}))
    .unwrap_err();
    let got: Vec<(RequestField, ErrorCode)> =
        errors.all().iter().map(|e| (e.field(), e.code())).collect();
    assert_eq!(
        got,
        vec![
            (RequestField::QuoteId, ErrorCode::InvalidRequest),
            (RequestField::PairId, ErrorCode::InvalidRequest),
            (RequestField::SwapMode, ErrorCode::UnsupportedSwapMode),
            (RequestField::FromAmount, ErrorCode::InvalidAmount),
            (RequestField::ToAddress, ErrorCode::InvalidAddress),
        ]
    );
}

#[test]
fn floating_body_serializes_as_sent_without_swap_mode() {
    // The real body: numbers stay numbers, absent keys stay absent.
    let request = float_validate(&float_base()).unwrap();
    assert_eq!(serde_json::to_value(&request).unwrap(), float_base());

    let body = json!({"pairId": "BTC_ETH", "fromAmount": "0.5", "fromAddress": BTC_ADDRESS,
        "toAmount": 16.5, "toAddress": ETH_ADDRESS, "toAddressTag": "", "swapMode": null,
        "slippage": "1.5", "quoteId": null});
    let request = float_validate(&body).unwrap();
    let wire = serde_json::to_value(&request).unwrap();
    assert_eq!(
        wire,
        json!({"pairId": "BTC_ETH", "fromAmount": "0.5", "fromAddress": BTC_ADDRESS,
            "toAmount": 16.5, "toAddress": ETH_ADDRESS, "slippage": "1.5", "quoteId": null})
    );
    assert_eq!(float_validate(&wire).unwrap(), request);
    let typed: FloatOrderRequest = serde_json::from_value(wire).unwrap();
    assert_eq!(typed, request);
}

#[test]
fn a_fixed_body_is_a_floating_body_but_not_the_other_way() {
    // The fixed body without swapMode is exactly a floating body (ruling 19).
    let request = float_validate(&base()).unwrap();
    assert_eq!(request.pair_id().as_str(), "BTC_ETH");
    assert_eq!(request.from_amount().get(), d("0.5"));
    // With swapMode it is refused.
    let errors = float_validate(&with("swapMode", Some(json!("ExactIn")))).unwrap_err();
    assert_eq!(errors.first().code(), ErrorCode::UnsupportedSwapMode);
}

#[test]
fn a_raw_body_of_another_json_type_says_an_object_is_expected() {
    // Straight through serde (the `from_json` calls answer with their own
    // "must be a JSON object" text instead).
    let error = serde_json::from_str::<RawFixedOrderRequest>("[]").unwrap_err();
    assert!(
        error.to_string().contains("expected a JSON object"),
        "{error}"
    );
    let error = serde_json::from_str::<RawFloatOrderRequest>("1").unwrap_err();
    assert!(
        error.to_string().contains("expected a JSON object"),
        "{error}"
    );
}
