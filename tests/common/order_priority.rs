//! The documented priority of field-level order-request errors, written from
//! the `RequestErrors` docs and the specification's field order: the oracle
//! for the order property tests and the `order_request_json` fuzz target.
// A code or field outside the documented lists is a test failure.
#![allow(clippy::panic)]

use swaproute::order::FieldError;
use swaproute::wire::RequestField;
use swaproute::ErrorCode;

/// An error's place in the order: its code's class, then its field's rank.
pub(crate) fn priority(error: &FieldError) -> (u8, u8) {
    (class(error.code()), field_rank(error.field()))
}

/// The documented priority class of a field-level code.
fn class(code: ErrorCode) -> u8 {
    match code {
        ErrorCode::InvalidRequest => 0,
        ErrorCode::UnsupportedSwapMode => 1,
        ErrorCode::InvalidAmount => 2,
        ErrorCode::InvalidAddress => 3,
        other => panic!("{other:?} is not a field-level code"),
    }
}

/// The spec's field order. `quoteId` (floating orders only) is not in the
/// documented list; it is ranked first, as `RequestField` declares it.
fn field_rank(field: RequestField) -> u8 {
    match field {
        RequestField::Body => 0,
        RequestField::QuoteId => 1,
        RequestField::FromAmount => 2,
        RequestField::FromAddress => 3,
        RequestField::FromAddressTag => 4,
        RequestField::ToAmount => 5,
        RequestField::ToAddress => 6,
        RequestField::ToAddressTag => 7,
        RequestField::PairId => 8,
        RequestField::Slippage => 9,
        RequestField::SwapMode => 10,
        other => panic!("unexpected field {other:?}"),
    }
}
