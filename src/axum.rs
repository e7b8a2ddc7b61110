//! `IntoResponse` for the error types (feature `axum`): a handler returns
//! `Result<Json<T>, E>` with any of them as `E`, and the client gets the
//! status of the error's code, `Content-Type: application/json` and the
//! [`ErrorBody`] as the body (with `min` / `max` for a "no route").

use alloc::vec::Vec;

use axum_core::body::Body;
use axum_core::response::{IntoResponse, Response};
use http::header::{HeaderValue, CONTENT_TYPE};

use crate::error::{ApiError, ErrorBody, UnknownCodeError};

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
    crate::order::RequiredInputNoRoute,
    crate::order::QuoteMismatch,
    crate::slippage::SlippageError,
    crate::ids::InvalidId,
    crate::decimal::DecimalError,
    crate::parse_error::ParseError,
    crate::rate::InvalidPairId,
    crate::rate::InvalidRates,
    crate::rate::MixedPairs,
    crate::rate::RateDefect,
    crate::screening::InvalidAddress,
    crate::client::NodeError,
    crate::client::NoClientAddress,
    crate::caip::InvalidCaipId,
    crate::caip::DirectoryConflict,
    crate::discovery::TooPrecise,
    crate::discovery::InvalidListing,
    crate::discovery::InvalidPairsCsv,
    crate::discovery::PairDisagrees,
    crate::discovery::RenderError,
    crate::route::chain::ChainNoRoute,
    crate::route::chain::InvalidMarket,
    crate::route::chain::TooManyCombinations,
    crate::route::UnsupportedPolicy,
    crate::route::SplitError,
    crate::route::InvalidRatesByPair,
    crate::order::RequestErrors,
    crate::order::FieldError,
    crate::order::InvalidPromise,
    crate::order::TransactionIdAlreadySet,
    crate::order::ToOrderError,
    crate::order::OrderMismatches,
    crate::route::NoRoute,
    crate::screening::ScreeningError,
    crate::client::HeaderError,
    crate::client::ForwardedError,
    crate::quote::QuoteDefect,
    crate::v4::QuoteError,
    crate::caip::UnresolvedAsset,
    crate::caip::InvalidAssetRef,
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
            crate::error::ErrorCode::PayloadTooLarge
        } else {
            crate::error::ErrorCode::InvalidRequest
        };
        ApiError::new(code, alloc::format!("body: {}", rejection.body_text()))
    }
}

/// An axum rejection's [`ApiError`]: a 5xx rejection (a handler or router
/// mistake, such as a `Path` extractor on a route without parameters) is
/// `INTERNAL_ERROR`, 413 is `PAYLOAD_TOO_LARGE`, anything else
/// `INVALID_REQUEST`; the details are `"<what>: "` and axum's own text.
fn rejection_of(what: &str, status: http::StatusCode, text: &str) -> ApiError {
    let code = if status == http::StatusCode::PAYLOAD_TOO_LARGE {
        crate::error::ErrorCode::PayloadTooLarge
    } else if status.is_server_error() {
        crate::error::ErrorCode::InternalError
    } else {
        crate::error::ErrorCode::InvalidRequest
    };
    ApiError::new(code, alloc::format!("{what}: {text}"))
}

/// A `Json` extractor's rejection: `INVALID_REQUEST` as a `body` problem (a
/// body that is not JSON, of the wrong shape, or sent without
/// `Content-Type: application/json`), or `PAYLOAD_TOO_LARGE` over the body
/// limit. axum answers these as plain text with 400, 415 or 422; with this
/// conversion the handler takes `Result<Json<T>, JsonRejection>` and writes
/// `body?`, and the client gets the JSON error body.
///
/// ```
/// use axum::extract::rejection::{JsonRejection, MissingJsonContentType};
/// use swaproute::{ApiError, ErrorCode};
/// let error = ApiError::from(JsonRejection::from(MissingJsonContentType::default()));
/// assert_eq!(error.code(), ErrorCode::InvalidRequest);
/// assert!(error.details().starts_with("body: "));
/// ```
impl From<axum::extract::rejection::JsonRejection> for ApiError {
    fn from(rejection: axum::extract::rejection::JsonRejection) -> Self {
        rejection_of("body", rejection.status(), &rejection.body_text())
    }
}

/// A `Query` extractor's rejection: `INVALID_REQUEST` as a `query`
/// problem (axum answers it as plain text). Prefer
/// [`RouteQuery::from_pairs`](crate::order::RouteQuery::from_pairs) on a
/// `Query<Vec<(String, String)>>` for the route query itself: it names the
/// field and gives the body decoders' codes.
///
/// ```
/// use axum::extract::rejection::QueryRejection;
/// use swaproute::ApiError;
/// // In a handler taking `query: Result<Query<T>, QueryRejection>`:
/// fn answer<T>(query: Result<T, QueryRejection>) -> Result<T, ApiError> {
///     Ok(query?)
/// }
/// # let _ = answer::<()>;
/// ```
impl From<axum::extract::rejection::QueryRejection> for ApiError {
    fn from(rejection: axum::extract::rejection::QueryRejection) -> Self {
        rejection_of("query", rejection.status(), &rejection.body_text())
    }
}

/// A `Path` extractor's rejection: `INVALID_REQUEST` as a `path` problem
/// when a path parameter does not parse, `INTERNAL_ERROR` when the route has
/// no parameters to extract (a routing mistake, 500 in axum too).
///
/// ```
/// use axum::extract::rejection::{MissingPathParams, PathRejection};
/// use swaproute::{ApiError, ErrorCode};
/// let error = ApiError::from(PathRejection::from(MissingPathParams::default()));
/// assert_eq!(error.code(), ErrorCode::InternalError);
/// assert!(error.details().starts_with("path: "));
/// ```
impl From<axum::extract::rejection::PathRejection> for ApiError {
    fn from(rejection: axum::extract::rejection::PathRejection) -> Self {
        rejection_of("path", rejection.status(), &rejection.body_text())
    }
}
