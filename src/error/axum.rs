//! `IntoResponse` for the error types (feature `axum`): a handler returns
//! `Result<Json<T>, E>` with any of them as `E`, and the client gets the
//! status of the error's code, `Content-Type: application/json` and the
//! [`ErrorBody`] as the body (with `min` / `max` for a "no route").

use alloc::vec::Vec;

use axum_core::body::Body;
use axum_core::response::{IntoResponse, Response};
use http::header::{HeaderValue, CONTENT_TYPE};

use super::{ApiError, ErrorBody, UnknownCodeError};

/// The body's JSON text. Encoding an `ErrorBody` cannot fail: every field is
/// a string, an integer, or a limit written as an integer, a finite double or
/// a decimal string (`decimal::serde::number`). The empty body of the
/// impossible case keeps the function total without a panic.
fn json(body: &ErrorBody) -> Vec<u8> {
    serde_json::to_vec(body).unwrap_or_default()
}

/// The status as sent (an unknown code keeps its own status, ruling 26,
/// docs/RULES.md), `Content-Type: application/json`, and the body as JSON.
impl IntoResponse for ErrorBody {
    fn into_response(self) -> Response {
        let mut response = Response::new(Body::from(json(&self)));
        *response.status_mut() = self.status.into();
        response
            .headers_mut()
            .insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
        response
    }
}

/// The status of the code and [`ApiError::to_body`] as JSON.
///
/// ```
/// use axum_core::response::IntoResponse;
/// use swaproute::{ApiError, ErrorCode};
/// let response = ApiError::new(ErrorCode::NotFound, "no such order").into_response();
/// assert_eq!(response.status(), http::StatusCode::NOT_FOUND);
/// assert_eq!(response.headers()["content-type"], "application/json");
/// ```
impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        self.to_body().into_response()
    }
}

/// The body as decoded, with its own status.
impl IntoResponse for UnknownCodeError {
    fn into_response(self) -> Response {
        self.into_body().into_response()
    }
}

/// `IntoResponse` through the type's `ApiError` conversion.
macro_rules! through_api_error {
    ($($ty:ty),* $(,)?) => {$(
        #[doc = concat!("The [`ApiError`] of a `", stringify!($ty), "` as a response.")]
        impl IntoResponse for $ty {
            fn into_response(self) -> Response {
                ApiError::from(self).into_response()
            }
        }
    )*};
}

through_api_error!(
    crate::order::PlanError,
    crate::order::RequestErrors,
    crate::order::FieldError,
    crate::order::InvalidTransactionId,
    crate::order::TransactionIdAlreadySet,
    crate::order::ToOrderError,
    crate::route::NoRoute,
    crate::screening::ScreeningError,
    crate::client::HeaderError,
    crate::client::ForwardedError,
    crate::quote::QuoteDefect,
    crate::v4::QuoteError,
    crate::caip::UnresolvedAsset,
    crate::caip::InvalidAssetRef,
    crate::caip::InvalidCaip19Param,
    crate::slippage::InvalidSlippage,
);

/// A request body axum could not read: over the server's body limit is 413
/// `PAYLOAD_TOO_LARGE` (ruling 25, docs/RULES.md), anything else 400
/// `INVALID_REQUEST`, both as a `body` problem. With it a handler takes
/// `Result<Bytes, BytesRejection>` and writes `body?`.
///
/// ```
/// use axum_core::extract::rejection::{BytesRejection, FailedToBufferBody};
/// use swaproute::{ApiError, ErrorCode};
/// # let _ = |rejection: BytesRejection| {
/// let error = ApiError::from(rejection);
/// assert!(matches!(error.code(), ErrorCode::PayloadTooLarge | ErrorCode::InvalidRequest));
/// # };
/// ```
impl From<axum_core::extract::rejection::BytesRejection> for ApiError {
    fn from(rejection: axum_core::extract::rejection::BytesRejection) -> Self {
        let code = if rejection.status() == http::StatusCode::PAYLOAD_TOO_LARGE {
            crate::ErrorCode::PayloadTooLarge
        } else {
            crate::ErrorCode::InvalidRequest
        };
        ApiError::new(code, alloc::format!("body: {}", rejection.body_text()))
    }
}
