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
/// An error body longer than this is not parsed again; its `details` says
/// so (a body's echo can make an error body long: the body cap is 64 KiB,
/// so none the server writes comes near this).
const MAX_ERROR_BODY: usize = 1024 * 1024;

/// A handler's failure: the crate's typed errors (every `E: Into<ApiError>`
/// converts with `?`), or an answer of the server's own (a 503 when the
/// database is overloaded).
#[derive(Debug)]
pub(crate) struct Failure(Box<Response>);

impl Failure {
    /// A failure answered with `response`.
    pub(crate) fn new(response: Response) -> Self {
        Failure(Box::new(response))
    }
}

impl<E: Into<swaproute::ApiError>> From<E> for Failure {
    fn from(error: E) -> Self {
        Failure::new(error.into().into_response())
    }
}

impl IntoResponse for Failure {
    fn into_response(self) -> Response {
        *self.0
    }
}

/// `text` cut to `max` characters, with `…` when something was cut.
pub(crate) fn cut(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        None => text.to_owned(),
        Some((at, _)) => format!("{}…", text.get(..at).unwrap_or_default()),
    }
}

/// `details` with every quoted value in it (`"…"`, as serde and the crate
/// quote what they echo) cut to [`MAX_ECHO`] characters, then the whole to
/// [`MAX_DETAILS`]: a long echo never pushes the reason out of `details`.
pub(crate) fn shorten(details: &str) -> String {
    let mut out = String::with_capacity(details.len().min(MAX_DETAILS.saturating_mul(4)));
    let mut quoted = String::new();
    let mut inside = false;
    let mut escaped = false;
    for c in details.chars() {
        if !inside {
            out.push(c);
            inside = c == '"';
            continue;
        }
        if escaped {
            escaped = false;
            quoted.push(c);
            continue;
        }
        match c {
            '\\' => {
                escaped = true;
                quoted.push(c);
            }
            '"' => {
                out.push_str(&echo(&quoted));
                out.push('"');
                quoted.clear();
                inside = false;
            }
            _ => quoted.push(c),
        }
    }
    out.push_str(&echo(&quoted));
    cut(&out, MAX_DETAILS)
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
    let Ok(bytes) = to_bytes(body, MAX_ERROR_BODY).await else {
        return own_error(
            status,
            code_of(status),
            "the error's own description was too long to send",
        );
    };
    if is_json {
        if let Ok(mut value) = serde_json::from_slice::<serde_json::Value>(&bytes) {
            if let Some(details) = value.get_mut("details") {
                if let Some(text) = details.as_str().filter(|t| t.chars().count() > MAX_DETAILS) {
                    *details = serde_json::Value::String(shorten(text));
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
        text => shorten(text),
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
    fn shorten_cuts_quoted_echoes_and_keeps_the_reason() {
        let long = "x".repeat(60_000);
        let details = format!("body: invalid value: string \"{long}\", expected a transaction id");
        let short = super::shorten(&details);
        assert!(short.ends_with("\", expected a transaction id"), "{short}");
        assert!(short.chars().count() < 200);
        assert_eq!(super::shorten("a \"b\\\"c\" d"), "a \"b\\\"c\" d");
    }

    #[test]
    fn cut_keeps_short_text_and_cuts_long_text_at_a_character() {
        assert_eq!(cut("abc", 3), "abc");
        assert_eq!(cut("abcd", 3), "abc…");
        assert_eq!(cut("ééé", 2), "éé…");
        assert_eq!(cut("", 0), "");
    }
}
