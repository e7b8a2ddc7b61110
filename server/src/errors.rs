//! Every error the server answers is the service's JSON error model
//! (ruling 16): `{"status", "code", "details"}`, plus `orderId`, `min` and
//! `max` where the crate adds them. The crate's `ApiError` covers the codes of
//! its table; the few answers outside that table (405, 408, 409, 503 from the
//! server's own machinery) use codes of their own, which a client of the crate
//! reads as `BodyCode::Unknown` (ruling 26). [`json_errors`] is the last
//! layer: an error response that is not JSON (a rejection from axum, an
//! extractor's text/plain 400) is rewritten into the model there, and every
//! `details` is cut to [`MAX_DETAILS`] characters.

use axum::body::{to_bytes, Body};
use axum::http::header::{CONNECTION, CONTENT_TYPE};
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use swaproute::error::BodyCode;
use swaproute::wire::Presence;
use swaproute::{ErrorBody, HttpStatus};

/// An echoed value (an id, a header) is cut to this many characters, then `…`.
pub(crate) const MAX_ECHO: usize = 64;
/// Every `details` is cut to this many characters, then `…`.
pub(crate) const MAX_DETAILS: usize = 512;
/// An error body longer than this is not parsed again; its `details` is
/// replaced (no error body the server writes comes near it).
const MAX_ERROR_BODY: usize = 16 * 1024;

/// A handler's failure: the crate's typed errors (every `E: Into<ApiError>`
/// converts with `?`), or an answer of the server's own (a 503 when the
/// database is overloaded).
#[derive(Debug)]
pub(crate) struct Failure(pub(crate) Response);

impl<E: Into<swaproute::ApiError>> From<E> for Failure {
    fn from(error: E) -> Self {
        Failure(error.into().into_response())
    }
}

impl IntoResponse for Failure {
    fn into_response(self) -> Response {
        self.0
    }
}

/// `text` cut to `max` characters, with `…` when something was cut.
pub(crate) fn cut(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        None => text.to_owned(),
        Some((at, _)) => format!("{}…", text.get(..at).unwrap_or_default()),
    }
}

/// An echoed value, cut to [`MAX_ECHO`] characters.
pub(crate) fn echo(text: &str) -> String {
    cut(text, MAX_ECHO)
}

/// The code a status gets when the server answers an error outside the
/// crate's table.
fn code_of(status: StatusCode) -> &'static str {
    match status.as_u16() {
        401 => "UNAUTHORIZED",
        404 => "NOT_FOUND",
        405 => "METHOD_NOT_ALLOWED",
        408 => "REQUEST_TIMEOUT",
        409 => "CONFLICT",
        413 => "PAYLOAD_TOO_LARGE",
        415 => "UNSUPPORTED_MEDIA_TYPE",
        503 => "SERVICE_UNAVAILABLE",
        500..=599 => "INTERNAL_ERROR",
        _ => "INVALID_REQUEST",
    }
}

/// An error answer of the server's own (outside the crate's code table).
pub(crate) fn own_error(status: StatusCode, code: &str, details: &str) -> Response {
    let Ok(http) = HttpStatus::new(status.as_u16()) else {
        return StatusCode::INTERNAL_SERVER_ERROR.into_response();
    };
    let code =
        BodyCode::parse(code).unwrap_or(BodyCode::Known(swaproute::ErrorCode::InternalError));
    ErrorBody {
        status: http,
        code,
        details: cut(details, MAX_DETAILS),
        order_id: Presence::Absent,
        min: Presence::Absent,
        max: Presence::Absent,
        bound: Presence::Absent,
        available: Presence::Absent,
    }
    .into_response()
}

/// The same answer, and the connection closes after it (the rest of the
/// request was not read).
pub(crate) fn closing(mut response: Response) -> Response {
    response
        .headers_mut()
        .insert(CONNECTION, HeaderValue::from_static("close"));
    response
}

/// The last layer: an error answer that is not JSON becomes the JSON model
/// (its text, if any, as the cut `details`); a JSON error answer keeps its
/// body, with `details` cut to [`MAX_DETAILS`].
pub(crate) async fn json_errors(response: Response) -> Response {
    let status = response.status();
    if !(status.is_client_error() || status.is_server_error()) {
        return response;
    }
    let is_json = response
        .headers()
        .get(CONTENT_TYPE)
        .is_some_and(|value| value.as_bytes().starts_with(b"application/json"));
    let (mut parts, body) = response.into_parts();
    let bytes = to_bytes(body, MAX_ERROR_BODY).await.unwrap_or_default();
    if is_json {
        if let Ok(mut value) = serde_json::from_slice::<serde_json::Value>(&bytes) {
            if let Some(details) = value.get_mut("details") {
                if let Some(text) = details.as_str().filter(|t| t.chars().count() > MAX_DETAILS) {
                    *details = serde_json::Value::String(cut(text, MAX_DETAILS));
                    parts.headers.remove(axum::http::header::CONTENT_LENGTH);
                    return Response::from_parts(parts, Body::from(value.to_string()));
                }
            }
            return Response::from_parts(parts, Body::from(bytes));
        }
    }
    let text = String::from_utf8_lossy(&bytes);
    let details = match text.trim() {
        "" => status.canonical_reason().unwrap_or("error").to_owned(),
        text => text.to_owned(),
    };
    let mut answer = own_error(status, code_of(status), &details);
    for name in [CONNECTION, axum::http::header::ALLOW] {
        if let Some(value) = parts.headers.get(&name) {
            answer.headers_mut().insert(name, value.clone());
        }
    }
    answer
}

#[cfg(test)]
mod tests {
    use super::cut;

    #[test]
    fn cut_keeps_short_text_and_cuts_long_text_at_a_character() {
        assert_eq!(cut("abc", 3), "abc");
        assert_eq!(cut("abcd", 3), "abc…");
        assert_eq!(cut("ééé", 2), "éé…");
        assert_eq!(cut("", 0), "");
    }
}
