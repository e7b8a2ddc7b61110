//! Field-level request errors and their priority.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use crate::error::{ApiError, ErrorCode};
use crate::wire::RequestField;

/// One problem with one field: its code and a message that names the field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldError {
    field: RequestField,
    code: ErrorCode,
    problem: String,
}

impl FieldError {
    pub(crate) fn new(field: RequestField, code: ErrorCode, problem: impl fmt::Display) -> Self {
        FieldError {
            field,
            code,
            problem: alloc::format!("{problem}"),
        }
    }

    /// The field.
    pub fn field(&self) -> RequestField {
        self.field
    }

    /// The code: `INVALID_REQUEST`, `INVALID_AMOUNT`, `INVALID_ADDRESS` or
    /// `UNSUPPORTED_SWAP_MODE`.
    pub fn code(&self) -> ErrorCode {
        self.code
    }

    /// What is wrong, without the field name.
    pub fn problem(&self) -> &str {
        &self.problem
    }

    /// The API error: the code, with details `"<field>: <problem>"`.
    pub fn to_api_error(&self) -> ApiError {
        ApiError::new(self.code, alloc::format!("{self}"))
    }

    /// Lower ranks are reported first.
    fn priority(&self) -> (u8, RequestField) {
        let class = match self.code {
            ErrorCode::InvalidRequest => 0,
            ErrorCode::UnsupportedSwapMode => 1,
            ErrorCode::InvalidAmount => 2,
            ErrorCode::InvalidAddress => 3,
            _ => 4,
        };
        (class, self.field)
    }
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.problem)
    }
}

/// Every problem of a request body, at least one, in priority order.
///
/// # Priority
/// By code first — `INVALID_REQUEST` (missing or mistyped fields, malformed
/// pair, slippage), then `UNSUPPORTED_SWAP_MODE`, then `INVALID_AMOUNT`, then
/// `INVALID_ADDRESS` — and within a code by the spec's field order (`fromAmount`,
/// `fromAddress`, `fromAddressTag`, `toAmount`, `toAddress`, `toAddressTag`,
/// `pairId`, `slippage`, `swapMode`; the whole `body`, then a floating order's
/// `quoteId`, then V4's `fromAsset`, `toAsset` and `amount` come before all of
/// them). [`RequestErrors::first`] is what a server answers with.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.first())]
pub struct RequestErrors {
    // Never empty, sorted by priority.
    errors: Vec<FieldError>,
    first: FieldError,
}

impl RequestErrors {
    /// `None` when `errors` is empty.
    pub(crate) fn from_vec(mut errors: Vec<FieldError>) -> Option<Self> {
        errors.sort_by_key(FieldError::priority);
        let first = errors.first()?.clone();
        Some(RequestErrors { errors, first })
    }

    /// The errors a validation collected. Validation only fails after pushing
    /// at least one error; an empty list still yields an error, never a panic.
    pub(crate) fn collected(errors: Vec<FieldError>) -> Self {
        RequestErrors::from_vec(errors).unwrap_or_else(|| {
            let first = FieldError::new(
                RequestField::Body,
                ErrorCode::InvalidRequest,
                "invalid request",
            );
            RequestErrors {
                errors: alloc::vec![first.clone()],
                first,
            }
        })
    }

    /// The error to report.
    pub fn first(&self) -> &FieldError {
        &self.first
    }

    /// Every error, in priority order.
    pub fn all(&self) -> &[FieldError] {
        &self.errors
    }

    /// The API error of [`first`](Self::first).
    pub fn to_api_error(&self) -> ApiError {
        self.first.to_api_error()
    }
}
