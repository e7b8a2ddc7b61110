//! Pins every error code, its wire text and its HTTP status: a rename or a
//! status change fails here first.

use swaproute::error::{
    ApiError, BodyCode, ErrorBody, ErrorCode, HttpStatus, LegacyCode, MAX_ERROR_CODE_LEN,
};
use swaproute::route::RouteRequest;
use swaproute::ParseErrorKind;
use swaproute::{Amount, EpochMillis, NoRoute, OrderId, RatesResponse};

const TABLE: &[(&str, u16)] = &[
    ("AMOUNT_ABOVE_LIMIT", 400),
    ("AMOUNT_BELOW_LIMIT", 400),
    ("INSUFFICIENT_FUNDS", 400),
    ("INVALID_ADDRESS", 400),
    ("UNSUPPORTED_SWAP_MODE", 400),
    ("HIGH_RISK_TOKENS", 403),
    ("INSUFFICIENT_LIQUIDITY", 503),
    ("MARKET_CLOSED", 409),
    ("ASSET_PAUSED", 409),
    ("SLIPPAGE_EXCEEDED", 409),
    ("RESTRICTED_REGION", 403),
    ("RESTRICTED_ADDRESS", 403),
    ("UNAUTHORIZED", 401),
    ("INVALID_REQUEST", 400),
    ("INVALID_AMOUNT", 400),
    ("QUOTE_EXPIRED", 410),
    ("RATE_EXPIRED", 410),
    ("NOT_FOUND", 404),
    ("PRECONDITION_FAILED", 412),
    ("UNRESOLVED_ASSET", 400),
    ("UNSUPPORTED_NETWORK", 400),
    ("ROUTE_UNAVAILABLE", 422),
    ("PAYLOAD_TOO_LARGE", 413),
    ("PRICE_OUTLIER", 502),
    ("SEARCH_EXHAUSTED", 503),
    ("PROVIDER_ERROR", 502),
    ("INTERNAL_ERROR", 500),
];

#[test]
fn every_code_is_pinned_with_its_status() {
    let listed: Vec<(&str, u16)> = ErrorCode::ALL
        .iter()
        .map(|code| (code.as_str(), code.http_status().as_u16()))
        .collect();
    assert_eq!(listed, TABLE);
}

#[test]
fn codes_parse_back_and_serialize_as_text() {
    for &(text, _) in TABLE {
        let code: ErrorCode = text.parse().unwrap();
        assert_eq!(code.as_str(), text);
        assert_eq!(serde_json::to_string(&code).unwrap(), format!("\"{text}\""));
        assert_eq!(
            serde_json::from_str::<ErrorCode>(&format!("\"{text}\"")).unwrap(),
            code
        );
    }
    assert!(
        "amount_below_limit".parse::<ErrorCode>().is_err(),
        "codes are case-sensitive"
    );
    assert!(serde_json::from_str::<ErrorCode>("\"NOPE\"").is_err());
}

#[test]
fn spec_codes_and_statuses_follow_the_rulings() {
    // The spec: restricted address is 403. Ruling 14: missing App-Name is 401.
    assert_eq!(ErrorCode::RestrictedAddress.http_status().as_u16(), 403);
    assert_eq!(ErrorCode::Unauthorized.http_status().as_u16(), 401);
    // Ruling 16: 5xx only for provider or internal failure.
    for code in ErrorCode::ALL {
        let server = matches!(
            code,
            ErrorCode::ProviderError
                | ErrorCode::InternalError
                | ErrorCode::InsufficientLiquidity
                // Ruling 40: every route left has an implausible price, the provider's failure.
                | ErrorCode::PriceOutlier
                // Ruling 48: the providers' book is too hard to search within the bound.
                | ErrorCode::SearchExhausted
        );
        assert_eq!(code.http_status().is_server_error(), server, "{code}");
        assert_eq!(code.http_status().is_client_error(), !server, "{code}");
    }
}

#[test]
fn legacy_geolocation_code_decodes_as_restricted_region() {
    assert_eq!(
        "RESTRICTED_GEOLOCATION".parse::<ErrorCode>().unwrap(),
        ErrorCode::RestrictedRegion
    );
    assert_eq!(ErrorCode::RestrictedRegion.as_str(), "RESTRICTED_REGION");
}

#[test]
fn error_body_round_trips_with_and_without_order_id() {
    let plain = r#"{"status":401,"code":"UNAUTHORIZED","details":"missing authentication"}"#;
    let body: ErrorBody = serde_json::from_str(plain).unwrap();
    assert_eq!(body.status.as_u16(), 401);
    assert_eq!(body.code, BodyCode::Known(ErrorCode::Unauthorized));
    assert_eq!(body.details, "missing authentication");
    assert!(body.order_id.is_absent());
    assert_eq!(serde_json::to_string(&body).unwrap(), plain);

    let with_order = r#"{"status":502,"code":"PROVIDER_ERROR","details":"provider timed out","orderId":"ord-1"}"#;
    let body: ErrorBody = serde_json::from_str(with_order).unwrap();
    assert_eq!(body.order_id.value().map(OrderId::as_str), Some("ord-1"));
    assert_eq!(serde_json::to_string(&body).unwrap(), with_order);

    // Unknown keys are tolerated; an out-of-range status is not.
    assert!(serde_json::from_str::<ErrorBody>(
        r#"{"status":400,"code":"INVALID_REQUEST","details":"x","trace":"abc"}"#
    )
    .is_ok());
    assert!(serde_json::from_str::<ErrorBody>(
        r#"{"status":99,"code":"INVALID_REQUEST","details":"x"}"#
    )
    .is_err());
}

#[test]
fn api_error_serializes_as_its_body() {
    let error = ApiError::new(ErrorCode::RestrictedAddress, "address is restricted")
        .with_order_id(OrderId::new("o-42").unwrap());
    assert_eq!(error.http_status(), HttpStatus::new(403).unwrap());
    assert_eq!(
        serde_json::to_string(&error).unwrap(),
        r#"{"status":403,"code":"RESTRICTED_ADDRESS","details":"address is restricted","orderId":"o-42"}"#
    );
    assert_eq!(
        error.to_string(),
        "RESTRICTED_ADDRESS (403): address is restricted"
    );
    let back = ApiError::try_from(
        serde_json::from_str::<ErrorBody>(&serde_json::to_string(&error).unwrap()).unwrap(),
    )
    .unwrap();
    assert_eq!(back, error);
}

/// Ruling 26: a code the crate does not know decodes, keeping its text and the
/// HTTP status as sent, and encodes back to the same body.
#[test]
fn unknown_codes_decode_with_their_text_and_status() {
    let text = r#"{"status":429,"code":"RATE_LIMITED","details":"too many requests"}"#;
    let body: ErrorBody = serde_json::from_str(text).unwrap();
    assert_eq!(body.status.as_u16(), 429);
    assert_eq!(body.code.as_str(), "RATE_LIMITED");
    assert_eq!(body.code.known(), None);
    assert!(matches!(body.code, BodyCode::Unknown(_)));
    assert_eq!(body.details, "too many requests");
    assert_eq!(serde_json::to_string(&body).unwrap(), text);

    // Not an ApiError (its status would have to come from the table), but the
    // body comes back whole.
    let refused = ApiError::try_from(body.clone()).unwrap_err();
    assert_eq!(refused.body(), &body);
    assert_eq!(
        refused.to_string(),
        "error code `RATE_LIMITED` (HTTP 429) is not in the crate's table: too many requests"
    );

    // A known code keeps the status as sent even where the table says otherwise.
    let odd: ErrorBody =
        serde_json::from_str(r#"{"status":400,"code":"NOT_FOUND","details":"x"}"#).unwrap();
    assert_eq!(odd.status.as_u16(), 400);
    assert_eq!(odd.code.known(), Some(ErrorCode::NotFound));
}

#[test]
fn legacy_code_round_trips_under_its_own_name() {
    let text = r#"{"status":403,"code":"RESTRICTED_GEOLOCATION","details":"region"}"#;
    let body: ErrorBody = serde_json::from_str(text).unwrap();
    assert_eq!(
        body.code,
        BodyCode::Legacy(LegacyCode::RestrictedGeolocation)
    );
    assert_eq!(body.code.known(), Some(ErrorCode::RestrictedRegion));
    assert_eq!(serde_json::to_string(&body).unwrap(), text);
    let api = ApiError::try_from(body).unwrap();
    assert_eq!(api.code(), ErrorCode::RestrictedRegion);
}

#[test]
fn body_code_text_rules() {
    // Case-sensitive: a lower-case spelling of a known code is unknown.
    let lower: BodyCode = "not_found".parse().unwrap();
    assert_eq!(lower.known(), None);
    assert_eq!(lower.to_string(), "not_found");
    for &(text, _) in TABLE {
        assert_eq!(
            text.parse::<BodyCode>().unwrap(),
            BodyCode::Known(text.parse().unwrap())
        );
    }
    let empty = "".parse::<BodyCode>().unwrap_err();
    assert_eq!(
        (empty.kind(), empty.reason(), empty.text()),
        (ParseErrorKind::BodyCode, "EMPTY", "")
    );
    assert_eq!(empty.to_string(), "error code is empty");
    let control = "A\nB".parse::<BodyCode>().unwrap_err();
    assert_eq!(
        (control.reason(), control.position(), control.text()),
        ("CONTROL_CHARACTER", Some(1), "A\nB")
    );
    let at_cap = "X".repeat(MAX_ERROR_CODE_LEN);
    assert_eq!(at_cap.parse::<BodyCode>().unwrap().as_str(), at_cap);
    let long = "X".repeat(129).parse::<BodyCode>().unwrap_err();
    assert_eq!(long.reason(), "TOO_LONG");
    // The text is cut to 64 characters; the message keeps the length.
    assert_eq!(long.text(), "X".repeat(64));
    assert_eq!(
        long.to_string(),
        "error code is 129 bytes long, more than the 128 allowed"
    );
    assert!(
        serde_json::from_str::<ErrorBody>(r#"{"status":400,"code":"","details":"x"}"#).is_err()
    );
    assert!(serde_json::from_str::<ErrorBody>(r#"{"status":400,"code":7,"details":"x"}"#).is_err());
}

/// tests/payloads/error-missing-authentication.json: the live 401 body.
#[test]
fn missing_authentication_payload() {
    let text = include_str!("payloads/error-missing-authentication.json");
    let body: ErrorBody = serde_json::from_str(text).unwrap();
    assert_eq!(body.status.as_u16(), 401);
    assert_eq!(body.code, BodyCode::Known(ErrorCode::Unauthorized));
    assert_eq!(body.details, "missing authentication");
    assert!(body.order_id.is_absent());
}

/// tests/payloads/error-not-found.json is third-party mock data in another
/// shape, `{code, error, message}`: no `status`, no `details`. It is refused
/// rather than decoded with an invented status.
#[test]
fn the_mock_not_found_shape_is_refused() {
    let text = include_str!("payloads/error-not-found.json");
    let error = serde_json::from_str::<ErrorBody>(text).unwrap_err();
    assert!(
        error.to_string().contains("missing field `status`"),
        "{error}"
    );
}

#[test]
fn error_body_types_are_send_and_sync() {
    fn check<T: Send + Sync>() {}
    check::<BodyCode>();
    check::<LegacyCode>();
    check::<swaproute::error::UnknownCode>();
    check::<swaproute::error::UnknownCodeError>();
    check::<swaproute::ParseError>();
    check::<ApiError>();
    check::<ErrorBody>();
    check::<swaproute::order::PlanError>();
    check::<swaproute::order::QuoteMismatch>();
    check::<swaproute::order::RequestErrors>();
    check::<swaproute::order::RouteQuery>();
    check::<swaproute::v4::QuoteError>();
}

// ------------------------------------------------------ limits in error bodies

/// A rate of `BTC_ETH` with limits `[min, max]`, hand-built.
fn limited_rate(id: &str, min: &str, max: &str) -> serde_json::Value {
    serde_json::json!({"amount":{"assetId":"ETH","value":33.1},"expiry":4_102_444_800_000_u64,"id":id,
        "max":{"assetId":"BTC","value":max.parse::<f64>().unwrap()},
        "min":{"assetId":"BTC","value":min.parse::<f64>().unwrap()},
        "minerFee":{"assetId":"ETH","value":0.0002},"pairId":"BTC_ETH"})
}

fn no_route(rates: &[serde_json::Value], amount: &str) -> NoRoute {
    let rates: RatesResponse = serde_json::from_value(serde_json::Value::from(rates)).unwrap();
    RouteRequest::exact_in(
        amount.parse::<Amount>().unwrap(),
        EpochMillis::new(1_785_000_000_000),
    )
    .best(&rates)
    .unwrap_err()
}

/// The issue's case: the smallest min of the rates (0.00079787, by hand from
/// the two mins 0.00079787 and 0.01) survives NoRoute → ApiError → ErrorBody → JSON.
#[test]
fn below_every_min_keeps_the_smallest_min_through_the_body() {
    let rates = [
        limited_rate("a", "0.00079787", "8.33028657"),
        limited_rate("b", "0.01", "3.5"),
    ];
    let error = no_route(&rates, "0.0001");
    assert!(matches!(error, NoRoute::BelowMin { .. }), "{error:?}");
    let api = ApiError::from(error);
    assert_eq!(api.min(), Some("0.00079787".parse().unwrap()));
    assert_eq!(api.max(), None);
    let json = serde_json::to_string(&api.to_body()).unwrap();
    assert_eq!(
        json,
        r#"{"status":400,"code":"AMOUNT_BELOW_LIMIT","details":"fromAmount 0.0001 BTC is below the minimum of every route; the smallest minimum is 0.00079787 BTC","min":"0.00079787"}"#
    );
    // And back: the body decodes to the same error, limits included.
    let body: ErrorBody = serde_json::from_str(&json).unwrap();
    assert_eq!(ApiError::try_from(body).unwrap(), api);
}

/// Above every max: the largest max (8.33028657 of the two maxima), no min.
#[test]
fn above_every_max_keeps_the_largest_max() {
    let rates = [
        limited_rate("a", "0.00079787", "8.33028657"),
        limited_rate("b", "0.01", "3.5"),
    ];
    let api = ApiError::from(no_route(&rates, "9"));
    assert_eq!(api.code(), ErrorCode::AmountAboveLimit);
    assert_eq!(api.max(), Some("8.33028657".parse().unwrap()));
    assert_eq!(api.min(), None);
    let value = serde_json::to_value(&api).unwrap();
    assert_eq!(value["max"], "8.33028657");
    assert!(value.get("min").is_none(), "{value}");
}

/// In a gap between [0.001, 0.1] and [1, 8] at 0.5: the nearest max below is
/// 0.1 (0.4 away) and the nearest min above is 1 (0.5 away), so the code is
/// the nearer side's, AMOUNT_ABOVE_LIMIT, and the body carries both.
#[test]
fn a_gap_keeps_both_limits() {
    let rates = [
        limited_rate("low", "0.001", "0.1"),
        limited_rate("high", "1", "8"),
    ];
    let api = ApiError::from(no_route(&rates, "0.5"));
    assert_eq!(api.code(), ErrorCode::AmountAboveLimit);
    let value = serde_json::to_value(&api).unwrap();
    assert_eq!((&value["min"], &value["max"]), (&"1".into(), &"0.1".into()));
}

/// Ruling 22: `min` and `max` absent stay absent, `null` stays `null`, a
/// number stays a number and a string keeps its own digits.
#[test]
fn error_body_limits_round_trip_as_sent() {
    for text in [
        r#"{"status":400,"code":"AMOUNT_BELOW_LIMIT","details":"x"}"#,
        r#"{"status":400,"code":"AMOUNT_BELOW_LIMIT","details":"x","min":"0.00079787"}"#,
        r#"{"status":400,"code":"AMOUNT_ABOVE_LIMIT","details":"x","max":"8.50"}"#,
        r#"{"status":400,"code":"AMOUNT_ABOVE_LIMIT","details":"x","min":"1","max":"0.1"}"#,
        r#"{"status":400,"code":"AMOUNT_BELOW_LIMIT","details":"x","min":0.001}"#,
        r#"{"status":400,"code":"AMOUNT_BELOW_LIMIT","details":"x","min":null,"max":null}"#,
    ] {
        let body: ErrorBody = serde_json::from_str(text).unwrap();
        assert_eq!(serde_json::to_string(&body).unwrap(), text);
    }
    let body: ErrorBody = serde_json::from_str(
        r#"{"status":400,"code":"AMOUNT_ABOVE_LIMIT","details":"x","max":"8.50"}"#,
    )
    .unwrap();
    assert_eq!(
        body.max.value().map(|m| m.get().to_string()).as_deref(),
        Some("8.50")
    );
    assert!(body.min.is_absent());
    // Not a decimal: refused, like any other malformed key of the model.
    assert!(serde_json::from_str::<ErrorBody>(
        r#"{"status":400,"code":"AMOUNT_BELOW_LIMIT","details":"x","min":"1e5"}"#
    )
    .is_err());
}

/// Codes without limits write neither key.
#[test]
fn errors_without_limits_write_no_limit_keys() {
    let value = serde_json::to_value(ApiError::new(
        ErrorCode::RateExpired,
        "every rate has expired",
    ))
    .unwrap();
    assert_eq!(
        value,
        serde_json::json!({"status":410,"code":"RATE_EXPIRED","details":"every rate has expired"})
    );
}

#[test]
fn a_code_of_the_wrong_json_type_says_what_is_expected() {
    let expected = "expected an error code such as \"AMOUNT_BELOW_LIMIT\"";
    let error = serde_json::from_str::<ErrorCode>("400").unwrap_err();
    assert!(error.to_string().contains(expected), "{error}");
    let error = serde_json::from_str::<BodyCode>("400").unwrap_err();
    assert!(error.to_string().contains(expected), "{error}");
}
