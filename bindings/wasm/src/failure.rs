//! The error object every function throws in JavaScript.

use serde::Serialize;
use swaproute::{ApiError, ErrorCode};

/// A failure as the service's error body, `{status, code, details, min?,
/// max?, bound?, available?}`, plus keys that say more where the caller can
/// act on them (`field`, `errors`, `reason`, `at`, …).
///
/// Held as the object's JSON text, each key written once straight to text:
/// no `serde_json::Value` tree (its map and serializer are about 8 KB of the
/// browser build). A key added twice is in the text twice; `JSON.parse`
/// keeps the last, as a map would.
#[derive(Debug)]
pub(crate) struct Failure(Json);

impl Failure {
    /// The body of `error`.
    pub(crate) fn api(error: &ApiError) -> Self {
        // `ErrorBody` is a struct of strings and numbers: it always
        // serializes to an object. Kept total all the same.
        match to_json(&error.to_body()) {
            Ok(json) if json.0.ends_with('}') => Failure(json),
            _ => Failure(Json("{}".into())),
        }
    }

    /// A single pair's "no route": the error body with
    /// [`no_route_keys`](Self::no_route_keys).
    pub(crate) fn no_route(no_route: &swaproute::NoRoute) -> Self {
        Failure::api(&no_route.to_api_error()).no_route_keys(no_route)
    }

    #[cfg(feature = "chains")]
    /// A chain's "no route": the error body, with the first leg's
    /// [`no_route_keys`](Self::no_route_keys) when every chain failed there.
    pub(crate) fn chain_no_route(no_route: &swaproute::route::chain::ChainNoRoute) -> Self {
        let failure = Failure::api(&no_route.to_api_error());
        match no_route {
            swaproute::route::chain::ChainNoRoute::FirstLeg(first) => failure.no_route_keys(first),
            _ => failure,
        }
    }

    /// `working` (`{"field","amount","asset"}`) when the error names the
    /// amount that works nearest (ruling 38 amending ruling 10: ExactIn a
    /// `fromAmount`, ExactOut a `toAmount`), and `floor` (the reason code)
    /// when the caller's floors refused every route.
    fn no_route_keys(self, no_route: &swaproute::NoRoute) -> Self {
        let mut failure = self;
        if let Some(working) = no_route.working_amount() {
            // `{"field","amount","asset"}`, each a JSON string (by hand: no
            // serializer of its own).
            let quote = |text: &str| serde_json::to_string(text).unwrap_or_default();
            let text = format!(
                "{{\"field\":{},\"amount\":{},\"asset\":{}}}",
                quote(working.field().as_str()),
                quote(&working.amount().to_string()),
                quote(working.asset().as_str()),
            );
            failure = failure.with_raw("working", &text);
        }
        if let swaproute::NoRoute::BelowFloors { floor, .. } = no_route {
            failure = failure.with("floor", floor.code());
        }
        failure
    }

    /// A 400 `INVALID_REQUEST` with `details`: the caller's input is not
    /// what the function takes.
    pub(crate) fn invalid_request(details: impl Into<String>) -> Self {
        Failure::api(&ApiError::new(ErrorCode::InvalidRequest, details))
    }

    /// A 400 `INVALID_AMOUNT` naming `field`.
    pub(crate) fn invalid_amount(field: &str, problem: impl core::fmt::Display) -> Self {
        Failure::api(&ApiError::new(
            ErrorCode::InvalidAmount,
            format!("{field}: {problem}"),
        ))
        .with("field", field)
    }

    /// The same failure with one more key (a value that does not serialize,
    /// which no caller passes, leaves it out).
    #[must_use]
    pub(crate) fn with(self, key: &str, value: impl Serialize) -> Self {
        match serde_json::to_string(&value) {
            Ok(text) => self.with_raw(key, &text),
            Err(_) => self,
        }
    }

    /// The same failure with one more key whose value is the whole number
    /// `n` (written by hand: one `with` fewer to compile).
    #[must_use]
    pub(crate) fn with_number(self, key: &str, n: usize) -> Self {
        let mut text = String::new();
        push_digits(&mut text, u64::try_from(n).unwrap_or(u64::MAX));
        self.with_raw(key, &text)
    }

    /// The same failure with one more key whose value is JSON `text`.
    pub(crate) fn with_raw(self, key: &str, text: &str) -> Self {
        let Failure(json) = self;
        match json.with_raw(key, text) {
            Ok(json) => Failure(json),
            // Never: the text is an object's.
            Err(_) => Failure(Json("{}".into())),
        }
    }

    /// The error object's JSON text.
    pub(crate) fn into_text(self) -> String {
        (self.0).0
    }

    /// The error object, for tests.
    #[cfg(test)]
    pub(crate) fn into_value(self) -> serde_json::Value {
        serde_json::from_str(&self.into_text()).unwrap_or_default()
    }
}

impl From<ApiError> for Failure {
    fn from(error: ApiError) -> Self {
        Failure::api(&error)
    }
}

/// JSON text the package answers with.
#[derive(Debug)]
pub(crate) struct Json(pub(crate) String);

impl Json {
    /// The text of `value` (a tree built here, e.g. with `json!`).
    #[cfg(any(
        feature = "orders",
        feature = "client",
        feature = "screening",
        feature = "caip"
    ))]
    pub(crate) fn value(value: &serde_json::Value) -> Self {
        Json(value.to_string())
    }

    /// The same JSON object with one more key: `text` is the value's JSON
    /// text, `self` an object's text (what every `Serialize` impl of the
    /// crate that reaches here writes), so the key goes before its closing
    /// brace. Written into the text rather than through a `Value` tree so
    /// the crate's types serialize once, straight to text (smaller and
    /// faster in WebAssembly).
    pub(crate) fn with_raw(mut self, key: &str, text: &str) -> Result<Self, Failure> {
        if !self.0.ends_with('}') {
            return Err(Failure::invalid_request(format!(
                "internal: cannot add {key} to a JSON value that is not an object"
            )));
        }
        self.0.pop();
        if !self.0.ends_with('{') {
            self.0.push(',');
        }
        // A key is JSON text as a string is.
        self.0
            .push_str(&serde_json::to_string(key).unwrap_or_default());
        self.0.push(':');
        self.0.push_str(text);
        self.0.push('}');
        Ok(self)
    }
}

/// What a function answers: JSON text, or the error to throw.
pub(crate) type Answer = Result<Json, Failure>;

/// `value` as JSON text (the crate's types serialize infallibly; a failure
/// is kept total all the same, as an `INVALID_REQUEST`).
pub(crate) fn to_json<T: serde::Serialize + ?Sized>(value: &T) -> Answer {
    serde_json::to_string(value)
        .map(Json)
        .map_err(|e| Failure::invalid_request(e.to_string()))
}

/// The envelope the JavaScript wrapper unwraps: `{"ok": …}` or `{"error": …}`.
pub(crate) fn envelope(answer: Answer) -> String {
    let (key, text) = match answer {
        Ok(Json(text)) => ("{\"ok\":", text),
        Err(failure) => ("{\"error\":", failure.into_text()),
    };
    // Pushed rather than `format!`ted: one exact allocation, no formatter
    // (every call answers through here).
    let mut out = String::with_capacity(key.len().saturating_add(text.len()).saturating_add(1));
    out.push_str(key);
    out.push_str(&text);
    out.push('}');
    out
}

/// Decodes `text` as JSON of type `T`; a failure names `what`. Read as bytes,
/// as the crate's own body decoders read, so the parser is compiled once.
///
/// A failure also carries where in `text` it was found, as `line` (from 1)
/// and `column` (bytes consumed on that line): the JavaScript wrapper turns
/// them into the caller's field name (`request.now`) when it wrote `text`
/// itself from an object, and leaves them for text the caller passed.
pub(crate) fn decode<'a, T: serde::Deserialize<'a>>(
    what: &str,
    text: &'a str,
) -> Result<T, Failure> {
    serde_json::from_slice(text.as_bytes()).map_err(|e| decode_failure(what, &e))
}

/// A decoding error of the input named `what`, with where (see [`decode`]).
pub(crate) fn decode_failure(what: &str, e: &serde_json::Error) -> Failure {
    let failure = Failure::invalid_request(format!("{what}: {e}"));
    if e.line() == 0 {
        failure
    } else {
        failure
            .with_number("line", e.line())
            .with_number("column", e.column())
    }
}

/// The decimal digits of `n` (by hand: the formatter's integer code is
/// not otherwise in the browser build).
pub(crate) fn push_digits(out: &mut String, mut n: u64) {
    let start = out.len();
    loop {
        out.push(char::from(
            b'0'.saturating_add(u8::try_from(n % 10).unwrap_or(0)),
        ));
        n /= 10;
        if n == 0 {
            break;
        }
    }
    let reversed = out.split_off(start);
    out.extend(reversed.chars().rev());
}

#[cfg(test)]
mod tests {
    use super::*;

    use serde_json::Value;

    #[test]
    fn a_key_goes_before_the_closing_brace() {
        let json = Json("{\"a\":1}".into()).with_raw("b", "null").ok();
        assert_eq!(json.map(|j| j.0).as_deref(), Some("{\"a\":1,\"b\":null}"));
        let json = Json("{}".into()).with_raw("b\"", "\"x\"").ok();
        assert_eq!(json.map(|j| j.0).as_deref(), Some("{\"b\\\"\":\"x\"}"));
        assert!(Json("[1]".into()).with_raw("b", "null").is_err());
    }

    #[test]
    fn keys_added_to_an_error_keep_its_body() {
        let error = Failure::invalid_amount("fromAmount", "not a number")
            .with("reason", "EMPTY")
            .with("at", 3_usize)
            .into_value();
        assert_eq!(error["status"], 400);
        assert_eq!(error["code"], "INVALID_AMOUNT");
        assert_eq!(error["details"], "fromAmount: not a number");
        assert_eq!(error["field"], "fromAmount");
        assert_eq!(error["reason"], "EMPTY");
        assert_eq!(error["at"], 3);
    }

    #[test]
    fn the_envelope_is_ok_or_error() {
        assert_eq!(envelope(Ok(Json("[]".into()))), "{\"ok\":[]}");
        let error = envelope(Err(Failure::invalid_request("nope")));
        let parsed: Value = serde_json::from_str(&error).unwrap_or_default();
        assert_eq!(parsed["error"]["status"], 400);
        assert_eq!(parsed["error"]["code"], "INVALID_REQUEST");
        assert_eq!(parsed["error"]["details"], "nope");
    }

    #[test]
    fn a_decode_failure_says_where() {
        // `{"now":"x"}`: the string ends after byte 10 of line 1.
        let Err(failure) =
            decode::<std::collections::BTreeMap<String, u64>>("request", r#"{"now":"x"}"#)
        else {
            panic!("a string is not a u64")
        };
        let error = failure.into_value();
        assert_eq!(error["line"], 1);
        assert_eq!(error["column"], 10);
    }
}
