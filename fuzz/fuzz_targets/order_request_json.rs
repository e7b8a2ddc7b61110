//! Arbitrary bytes as `POST /v3/orders` and `POST /v3/orders/float` bodies:
//! decoding and validation never panic; a valid request serializes, decodes and
//! validates to an equal request; validation errors are never empty and are
//! sorted by the documented priority (code class, then the spec's field order).
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/common/mod.rs"]
mod common;
use swaproute::order::{
    FixedOrderRequest, FloatOrderRequest, RawFixedOrderRequest, RawFloatOrderRequest, RequestErrors,
};

fn check_errors(errors: &RequestErrors) {
    let all = errors.all();
    assert!(!all.is_empty(), "RequestErrors is empty");
    assert_eq!(errors.first(), &all[0], "first() is not all()[0]");
    let keys: Vec<(u8, u8)> = all.iter().map(common::order_priority::priority).collect();
    assert!(
        keys.windows(2).all(|w| w[0] <= w[1]),
        "errors not in priority order: {all:?}"
    );
    assert_eq!(errors.to_api_error().code(), all[0].code());
}

fuzz_target!(|data: &[u8]| {
    if let Ok(raw) = serde_json::from_slice::<RawFixedOrderRequest>(data) {
        match FixedOrderRequest::validate(&raw) {
            Ok(request) => {
                let encoded = serde_json::to_vec(&request).expect("a valid request encodes");
                let raw_again: RawFixedOrderRequest =
                    serde_json::from_slice(&encoded).expect("an encoded request decodes");
                let again =
                    FixedOrderRequest::validate(&raw_again).expect("an encoded request validates");
                assert_eq!(again, request, "round trip changed the fixed request");
                assert_eq!(serde_json::to_vec(&again).expect("encodes"), encoded);
            }
            Err(errors) => check_errors(&errors),
        }
    }
    if let Ok(raw) = serde_json::from_slice::<RawFloatOrderRequest>(data) {
        match FloatOrderRequest::validate(&raw) {
            Ok(request) => {
                let encoded = serde_json::to_vec(&request).expect("a valid request encodes");
                let raw_again: RawFloatOrderRequest =
                    serde_json::from_slice(&encoded).expect("an encoded request decodes");
                let again =
                    FloatOrderRequest::validate(&raw_again).expect("an encoded request validates");
                assert_eq!(again, request, "round trip changed the floating request");
                assert_eq!(serde_json::to_vec(&again).expect("encodes"), encoded);
            }
            Err(errors) => check_errors(&errors),
        }
    }
});
