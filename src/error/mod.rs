//! Typed API errors: the code table, HTTP statuses and the error body.
//!
//! Every failure the crate reports can become an [`ApiError`]: a stable
//! [`ErrorCode`], the HTTP status that code is answered with, human-readable
//! `details`, the order id when an order exists, and the limits of the limit
//! codes. [`ErrorBody`] is its wire shape,
//! `{"status":400,"code":"AMOUNT_BELOW_LIMIT","details":"…","min":"0.001"}`.
//!
//! With the `http` feature, [`HttpStatus`] converts to and from
//! `http::StatusCode`; with the `axum` feature, [`ApiError`], [`ErrorBody`]
//! and every error type a handler returns implement axum's `IntoResponse`
//! (the status, `Content-Type: application/json` and the error body).

mod body;
mod body_code;
mod code;
#[cfg(feature = "http")]
mod http;
mod status;

pub use body::{ErrorBody, UnknownCodeError};
pub use body_code::{BodyCode, UnknownCode, MAX_ERROR_CODE_LEN};
pub use code::{ErrorCode, LegacyCode};
pub use status::HttpStatus;

use alloc::string::String;
use core::fmt;

use rust_decimal::Decimal;

use crate::ids::OrderId;
use crate::wire::SentDecimal;

/// A failure as the service reports it: a stable code, details for humans,
/// when an order exists its id, and for the limit codes the limits nearest
/// to the amount (`min`, `max`).
///
/// The HTTP status is not stored: it is a function of the code
/// ([`ErrorCode::http_status`]), so the two cannot disagree.
///
/// ```
/// use swaproute::{ApiError, ErrorCode};
/// let error = ApiError::new(ErrorCode::AmountBelowLimit, "fromAmount 0.0001 BTC is below ...")
///     .with_limits(Some("0.001".parse()?), None);
/// assert_eq!(
///     serde_json::to_string(&error)?,
///     r#"{"status":400,"code":"AMOUNT_BELOW_LIMIT","details":"fromAmount 0.0001 BTC is below ...","min":"0.001"}"#
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiError {
    code: ErrorCode,
    details: String,
    order_id: Option<OrderId>,
    min: Option<Decimal>,
    max: Option<Decimal>,
    /// `SLIPPAGE_EXCEEDED`'s bound and available amount: boxed, since few
    /// errors have them and every `Result<_, ApiError>` carries the size.
    slippage: Option<alloc::boxed::Box<[Decimal; 2]>>,
}

impl ApiError {
    /// An error with `code` and human-readable `details`.
    pub fn new(code: ErrorCode, details: impl Into<String>) -> Self {
        ApiError {
            code,
            details: details.into(),
            order_id: None,
            min: None,
            max: None,
            slippage: None,
        }
    }

    /// The same error with the two numbers of `SLIPPAGE_EXCEEDED` (ruling
    /// 33 in docs/RULES.md): the slippage `bound` and what is `available`.
    #[must_use]
    pub fn with_slippage(mut self, bound: Decimal, available: Decimal) -> Self {
        self.slippage = Some(alloc::boxed::Box::new([bound, available]));
        self
    }

    /// The same error with the limits nearest to the amount: the min and the
    /// max a "no route" error names ([`NoRoute::min`](crate::route::NoRoute::min),
    /// [`NoRoute::max`](crate::route::NoRoute::max)). `None` leaves a limit out.
    #[must_use]
    pub fn with_limits(mut self, min: Option<Decimal>, max: Option<Decimal>) -> Self {
        self.min = min;
        self.max = max;
        self
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

    /// The min to report with a limit code (the smallest min, or the nearest
    /// min above the amount), when there is one.
    pub fn min(&self) -> Option<Decimal> {
        self.min
    }

    /// The max to report with a limit code (the largest max, or the nearest
    /// max below the amount), when there is one.
    pub fn max(&self) -> Option<Decimal> {
        self.max
    }

    /// With `SLIPPAGE_EXCEEDED`: the slippage bound (the least output in
    /// ExactIn, the most input in ExactOut).
    pub fn bound(&self) -> Option<Decimal> {
        self.slippage.as_ref().map(|pair| {
            let [bound, _] = **pair;
            bound
        })
    }

    /// With `SLIPPAGE_EXCEEDED`: what the selected route gives (its promised
    /// output in ExactIn, its order amount in ExactOut).
    pub fn available(&self) -> Option<Decimal> {
        self.slippage.as_ref().map(|pair| {
            let [_, available] = **pair;
            available
        })
    }

    /// The wire body of this error: `min`, `max`, `bound` and `available` as
    /// decimal strings when known, absent otherwise.
    pub fn to_body(&self) -> ErrorBody {
        ErrorBody {
            status: self.http_status(),
            code: BodyCode::Known(self.code),
            details: self.details.clone(),
            order_id: self.order_id.clone().into(),
            min: self.min.map(SentDecimal::Text).into(),
            max: self.max.map(SentDecimal::Text).into(),
            bound: self.bound().map(SentDecimal::Text).into(),
            available: self.available().map(SentDecimal::Text).into(),
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

    /// Keeps code, details, order id, limits and slippage numbers; the status follows from the
    /// code (an older code name becomes the code it stands for).
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
                min: body.min.into_value().map(SentDecimal::get),
                max: body.max.into_value().map(SentDecimal::get),
                slippage: match (body.bound.into_value(), body.available.into_value()) {
                    (Some(bound), Some(available)) => {
                        Some(alloc::boxed::Box::new([bound.get(), available.get()]))
                    }
                    _ => None,
                },
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
