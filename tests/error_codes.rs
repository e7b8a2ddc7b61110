//! Pins every error code, its wire text and its HTTP status: a rename or a
//! status change fails here first.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    missing_docs
)]

use swaproute::error::{ApiError, ErrorBody, ErrorCode, HttpStatus};
use swaproute::OrderId;

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
            ErrorCode::ProviderError | ErrorCode::InternalError | ErrorCode::InsufficientLiquidity
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
    assert_eq!(body.code, ErrorCode::Unauthorized);
    assert_eq!(body.details, "missing authentication");
    assert_eq!(body.order_id, None);
    assert_eq!(serde_json::to_string(&body).unwrap(), plain);

    let with_order = r#"{"status":502,"code":"PROVIDER_ERROR","details":"provider timed out","orderId":"ord-1"}"#;
    let body: ErrorBody = serde_json::from_str(with_order).unwrap();
    assert_eq!(body.order_id.as_ref().map(OrderId::as_str), Some("ord-1"));
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
    let back: ApiError = serde_json::from_str::<ErrorBody>(&serde_json::to_string(&error).unwrap())
        .unwrap()
        .into();
    assert_eq!(back, error);
}
