//! The `axum` feature: every error a handler returns becomes the status of its
//! code, `Content-Type: application/json` and the error body, limits included.
#![cfg(feature = "axum")]

use std::future::Future;
use std::pin::pin;
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};

use axum_core::response::{IntoResponse, Response};
use http_body_util::BodyExt;
use serde_json::{json, Value};
use swaproute::client::{ClientHeaders, Integration};
use swaproute::order::{FixedOrderRequest, OrderContext};
use swaproute::route::RouteRequest;
use swaproute::screening::{Address, ScreeningPolicy};
use swaproute::{Amount, ApiError, EpochMillis, ErrorBody, ErrorCode, HttpStatus, RatesResponse};

const NOW: EpochMillis = EpochMillis::new(1_785_000_000_000);

struct NoWake;
impl Wake for NoWake {
    fn wake(self: Arc<Self>) {}
}

/// Status, content type and JSON body of a response (a body built from bytes
/// is ready at the first poll).
fn read(response: Response) -> (u16, String, Value) {
    let status = response.status().as_u16();
    let content_type = response.headers()["content-type"]
        .to_str()
        .unwrap()
        .to_owned();
    let waker = Waker::from(Arc::new(NoWake));
    let mut cx = Context::from_waker(&waker);
    let mut collect = pin!(response.into_body().collect());
    let Poll::Ready(collected) = collect.as_mut().poll(&mut cx) else {
        panic!("the body is not ready")
    };
    let bytes = collected.unwrap().to_bytes();
    (
        status,
        content_type,
        serde_json::from_slice(&bytes).unwrap(),
    )
}

fn rates() -> RatesResponse {
    serde_json::from_str(
        r#"[{"amount":{"assetId":"ETH","value":33.14218692377834},"expiry":4102444800000,
        "id":"d5b1a8f2","max":{"assetId":"BTC","value":8.33028657},
        "min":{"assetId":"BTC","value":0.00079787},"minerFee":{"assetId":"ETH","value":0.00019192},
        "pairId":"BTC_ETH"},
        {"amount":{"assetId":"ETH","value":33.2},"expiry":4102444800000,"id":"q1w2e3",
        "max":{"assetId":"BTC","value":3.5},"min":{"assetId":"BTC","value":0.01},
        "minerFee":{"assetId":"ETH","value":0.00215},"pairId":"BTC_ETH"}]"#,
    )
    .unwrap()
}

#[test]
fn http_status_converts_both_ways() {
    for code in ErrorCode::ALL {
        let status = http::StatusCode::from(code.http_status());
        assert_eq!(status.as_u16(), code.http_status().as_u16());
        assert_eq!(HttpStatus::try_from(status).unwrap(), code.http_status());
    }
    assert_eq!(
        http::StatusCode::from(HttpStatus::new(100).unwrap()),
        http::StatusCode::CONTINUE
    );
    let beyond = http::StatusCode::from_u16(600).unwrap();
    let error = HttpStatus::try_from(beyond).unwrap_err();
    assert_eq!(error.kind(), swaproute::ParseErrorKind::HttpStatus);
    assert_eq!(error.text(), "600");
}

#[test]
fn api_error_response() {
    let response = ApiError::new(ErrorCode::RestrictedAddress, "toAddress: is restricted")
        .with_order_id("o-1".parse().unwrap())
        .into_response();
    assert_eq!(
        read(response),
        (
            403,
            "application/json".to_owned(),
            json!({"status":403,"code":"RESTRICTED_ADDRESS","details":"toAddress: is restricted","orderId":"o-1"})
        )
    );
}

/// A "no route" answered directly or through a plan keeps its min: 0.0001 BTC
/// is below both mins (0.00079787 and 0.01), the smaller is 0.00079787.
#[test]
fn no_route_and_plan_errors_keep_their_limits() {
    let expected = json!({"status":400,"code":"AMOUNT_BELOW_LIMIT",
        "details":"fromAmount 0.0001 BTC is below the minimum of every route; the smallest minimum is 0.00079787 BTC",
        "min":"0.00079787"});
    let no_route = RouteRequest::exact_in("0.0001".parse::<Amount>().unwrap(), NOW)
        .best(&rates())
        .unwrap_err();
    assert_eq!(
        read(no_route.into_response()),
        (400, "application/json".to_owned(), expected.clone())
    );

    let policy = ScreeningPolicy::new();
    let context = OrderContext::new(NOW, &policy);
    let request: FixedOrderRequest = serde_json::from_value(json!({"fromAmount":"0.0001",
        "fromAddress":null,"toAmount":"0.003","toAddress":"0x52908400098527886E0F7030069857D2E4169EE7",
        "pairId":"BTC_ETH"}))
    .unwrap();
    let error = request.plan(&rates(), &context).unwrap_err();
    assert_eq!(
        read(error.into_response()),
        (400, "application/json".to_owned(), expected)
    );

    // Screening comes first: a denylisted address is 403 RESTRICTED_ADDRESS.
    let denied = ScreeningPolicy::new()
        .deny_address(&Address::new("0x52908400098527886E0F7030069857D2E4169EE7").unwrap());
    let error = request
        .plan(&rates(), &OrderContext::new(NOW, &denied))
        .unwrap_err();
    let (status, _, body) = read(error.into_response());
    assert_eq!((status, &body["code"]), (403, &json!("RESTRICTED_ADDRESS")));
}

/// A handler's `FixedOrderRequest::from_json(&bytes)?` answers with the
/// first problem: here the body is not JSON.
#[test]
fn request_errors_respond_with_the_first_problem() {
    let errors = FixedOrderRequest::from_json(b"fromAmount=0.5").unwrap_err();
    let (status, content_type, body) = read(errors.into_response());
    assert_eq!((status, content_type.as_str()), (400, "application/json"));
    assert_eq!(body["code"], "INVALID_REQUEST");
    assert!(
        body["details"]
            .as_str()
            .unwrap()
            .starts_with("body: is not JSON ("),
        "{body}"
    );
    // The route query's zero amount, as a body's.
    let errors = swaproute::order::RouteQuery::from_pairs([("fromAmount", "0")]).unwrap_err();
    assert_eq!(
        read(errors.into_response()).2,
        json!({"status":400,"code":"INVALID_AMOUNT","details":"fromAmount: must be greater than zero"})
    );
}

#[test]
fn header_errors_respond_401() {
    let error =
        ClientHeaders::from_pairs([("App-Platform", "mobile")], Integration::Direct).unwrap_err();
    assert_eq!(
        read(error.into_response()),
        (
            401,
            "application/json".to_owned(),
            json!({"status":401,"code":"UNAUTHORIZED","details":"missing authentication"})
        )
    );
}

/// A body of a code the crate does not know answers with its own status.
#[test]
fn an_unknown_code_keeps_its_status() {
    let body: ErrorBody =
        serde_json::from_str(r#"{"status":429,"code":"RATE_LIMITED","details":"slow down"}"#)
            .unwrap();
    let (status, _, json) = read(body.into_response());
    assert_eq!(status, 429);
    assert_eq!(
        json,
        json!({"status":429,"code":"RATE_LIMITED","details":"slow down"})
    );
    // The same through the error `ApiError::try_from` gives for it.
    let body: ErrorBody =
        serde_json::from_str(r#"{"status":429,"code":"RATE_LIMITED","details":"slow down"}"#)
            .unwrap();
    let unknown = ApiError::try_from(body).unwrap_err();
    assert_eq!(
        read(unknown.into_response()),
        (
            429,
            "application/json".to_owned(),
            json!({"status":429,"code":"RATE_LIMITED","details":"slow down"})
        )
    );
}
