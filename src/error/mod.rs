//! Typed API errors: the code table, HTTP statuses and the error body.
//!
//! Every failure the crate reports can become an [`ApiError`]: a stable
//! [`ErrorCode`], the HTTP status that code is answered with, human-readable
//! `details`, and the order id when an order exists. [`ErrorBody`] is its wire
//! shape, `{"status":400,"code":"AMOUNT_BELOW_LIMIT","details":"…"}`.

mod body;
mod body_code;
mod code;
mod status;

pub use body::{ErrorBody, UnknownCodeError};
pub use body_code::{BodyCode, InvalidBodyCode, LegacyCode, UnknownCode, MAX_ERROR_CODE_LEN};
pub use code::{ErrorCode, UnknownErrorCode};
pub use status::{HttpStatus, InvalidHttpStatus};

use alloc::string::String;
use core::fmt;

use crate::ids::OrderId;

/// A failure as the service reports it: a stable code, details for humans and,
/// when an order exists, its id.
///
/// The HTTP status is not stored: it is a function of the code
/// ([`ErrorCode::http_status`]), so the two cannot disagree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiError {
    code: ErrorCode,
    details: String,
    order_id: Option<OrderId>,
}

impl ApiError {
    /// An error with `code` and human-readable `details`.
    pub fn new(code: ErrorCode, details: impl Into<String>) -> Self {
        ApiError {
            code,
            details: details.into(),
            order_id: None,
        }
    }

    /// The same error, attached to an existing order.
    #[must_use]
    pub fn with_order_id(mut self, order_id: OrderId) -> Self {
        self.order_id = Some(order_id);
        self
    }

    /// The stable code.
    pub fn code(&self) -> ErrorCode {
        self.code
    }

    /// The HTTP status of the code.
    pub fn http_status(&self) -> HttpStatus {
        self.code.http_status()
    }

    /// Human-readable details.
    pub fn details(&self) -> &str {
        &self.details
    }

    /// The order the error concerns, when one exists.
    pub fn order_id(&self) -> Option<&OrderId> {
        self.order_id.as_ref()
    }

    /// The wire body of this error.
    pub fn to_body(&self) -> ErrorBody {
        ErrorBody {
            status: self.http_status(),
            code: BodyCode::Known(self.code),
            details: self.details.clone(),
            order_id: self.order_id.clone().into(),
        }
    }
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} ({}): {}",
            self.code,
            self.http_status(),
            self.details
        )
    }
}

impl core::error::Error for ApiError {}

impl TryFrom<ErrorBody> for ApiError {
    type Error = UnknownCodeError;

    /// Keeps code, details and order id; the status follows from the code (an
    /// older code name becomes the code it stands for).
    ///
    /// # Errors
    /// [`UnknownCodeError`], holding the body unchanged, when its code is not
    /// in the table: an [`ApiError`] always has a code of the table, so the
    /// body of an unknown code is kept as an [`ErrorBody`], with its text and
    /// its HTTP status (ruling 26, docs/RULES.md).
    fn try_from(body: ErrorBody) -> Result<Self, Self::Error> {
        match body.code.known() {
            Some(code) => Ok(ApiError {
                code,
                details: body.details,
                order_id: body.order_id.into_value(),
            }),
            None => Err(UnknownCodeError { body }),
        }
    }
}

impl serde::Serialize for ApiError {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.to_body().serialize(serializer)
    }
}
