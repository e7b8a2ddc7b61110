//! A request field as sent, whatever its JSON type, so validation can name
//! every problem with its field instead of failing the whole body.

use alloc::string::String;
use core::fmt;

use rust_decimal::Decimal;
use serde::de::{self, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer};

use crate::decimal::serde::ARBITRARY_PRECISION_TOKEN;
use crate::decimal::{decimal_from_f64, parse_json_number, DecimalError};

/// One JSON value of a request body, kept loosely typed until validation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Loose {
    Null,
    Bool,
    /// A JSON number.
    Number(JsonNumber),
    Str(String),
    Array,
    Object,
}

impl Loose {
    /// The JSON type, for messages.
    pub(crate) fn kind(&self) -> &'static str {
        match self {
            Loose::Null => "null",
            Loose::Bool => "a boolean",
            Loose::Number(_) => "a number",
            Loose::Str(_) => "a string",
            Loose::Array => "an array",
            Loose::Object => "an object",
        }
    }
}

/// A JSON number of a request body as decoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct JsonNumber {
    /// Its decimal, or why it is not one.
    pub(crate) value: Result<Decimal, DecimalError>,
    /// Its value when it was written as a plain integer (digits only: no sign,
    /// fraction or exponent) that fits a `u64`, known exactly on every decoding
    /// path (ruling 28 (docs/RULES.md): tags must keep their digits).
    pub(crate) whole: Option<u64>,
}

impl JsonNumber {
    /// The [`Loose::Number`] holding this number.
    fn loose(value: Result<Decimal, DecimalError>, whole: Option<u64>) -> Loose {
        Loose::Number(JsonNumber { value, whole })
    }
}

crate::decimal::serde::deserialize_any!(<'de> Loose, "any JSON value", {
        fn visit_unit<E: de::Error>(self) -> Result<Loose, E> {
            Ok(Loose::Null)
        }

        fn visit_none<E: de::Error>(self) -> Result<Loose, E> {
            Ok(Loose::Null)
        }

        fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Loose, D::Error> {
            deserializer.deserialize_any(self)
        }

        fn visit_bool<E: de::Error>(self, _: bool) -> Result<Loose, E> {
            Ok(Loose::Bool)
        }

        // serde_json calls `visit_u64` for an integer literal that fits, `visit_i64`
        // for a negative one, and `visit_f64` for anything with a fraction or an
        // exponent or too large for 64 bits, so only the first two are exact integers.
        fn visit_u64<E: de::Error>(self, v: u64) -> Result<Loose, E> {
            // The tag keeps the integer's digits (ruling 28); an amount is the
            // integer's double's decimal (ruling 1).
            Ok(JsonNumber::loose(Ok(crate::decimal::decimal_from_u64(v)), Some(v)))
        }

        fn visit_i64<E: de::Error>(self, v: i64) -> Result<Loose, E> {
            Ok(JsonNumber::loose(
                Ok(crate::decimal::decimal_from_i64(v)),
                u64::try_from(v).ok(),
            ))
        }

        fn visit_f64<E: de::Error>(self, v: f64) -> Result<Loose, E> {
            // `-1e-400` is a negative number the parser rounded to -0:
            // refused as negative, never taken as 0.
            let value = if v == 0.0 && v.is_sign_negative() {
                Err(crate::decimal::DecimalError::Negative)
            } else {
                decimal_from_f64(v)
            };
            Ok(JsonNumber::loose(value, None))
        }

        fn visit_str<E: de::Error>(self, v: &str) -> Result<Loose, E> {
            Ok(Loose::Str(v.into()))
        }

        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Loose, A::Error> {
            while seq.next_element::<IgnoredAny>()?.is_some() {}
            Ok(Loose::Array)
        }

        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Loose, A::Error> {
            let Some(key) = map.next_key::<String>()? else {
                return Ok(Loose::Object);
            };
            if key == ARBITRARY_PRECISION_TOKEN {
                let text: String = map.next_value()?;
                return Ok(JsonNumber::loose(
                    parse_json_number(&text),
                    plain_integer(&text),
                ));
            }
            map.next_value::<IgnoredAny>()?;
            while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
            Ok(Loose::Object)
        }
});

/// The value of a JSON number's text when it is digits only and fits a `u64`.
fn plain_integer(text: &str) -> Option<u64> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// Decodes `T` from a JSON object only. A derived struct decoder also reads
/// a JSON array by position, which no request body is.
pub(crate) fn object_only<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    deserializer: D,
) -> Result<T, D::Error> {
    struct ObjectVisitor<T>(core::marker::PhantomData<T>);
    impl<'de, T: Deserialize<'de>> Visitor<'de> for ObjectVisitor<T> {
        type Value = T;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a JSON object")
        }
        fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
            T::deserialize(de::value::MapAccessDeserializer::new(map))
        }
    }
    deserializer.deserialize_map(ObjectVisitor(core::marker::PhantomData))
}

/// Decodes a request body of JSON bytes into `T` (a loosely typed body that
/// takes any JSON value for each key), or the one `body` error saying why not.
///
/// # Errors
/// A `body` field error (`INVALID_REQUEST`): the bytes are not JSON; the JSON
/// is not an object (naming what it is); or the object repeats a key.
#[cfg(feature = "json")]
pub(crate) fn from_json<T: serde::de::DeserializeOwned>(
    bytes: &[u8],
) -> Result<T, super::RequestErrors> {
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    object_only(&mut deserializer)
        .and_then(|value| deserializer.end().map(|()| value))
        .map_err(|error| super::RequestErrors::collected(alloc::vec![body_error(bytes, &error)]))
}

#[cfg(feature = "json")]
fn body_error(bytes: &[u8], error: &serde_json::Error) -> super::FieldError {
    use serde_json::error::Category;
    let problem = match error.classify() {
        // The body decoders take any value for every key, so data errors are
        // about the body itself: not an object, or a key sent twice.
        Category::Data => match first_token(bytes) {
            Some(b'{') => alloc::format!("{error}"),
            other => alloc::format!("must be a JSON object, not {}", json_kind(other)),
        },
        Category::Io | Category::Syntax | Category::Eof => alloc::format!("is not JSON ({error})"),
    };
    super::FieldError::new(
        super::RequestField::Body,
        crate::error::ErrorCode::InvalidRequest,
        problem,
    )
}

/// The first byte after JSON whitespace.
#[cfg(feature = "json")]
fn first_token(bytes: &[u8]) -> Option<u8> {
    bytes
        .iter()
        .copied()
        .find(|b| !matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
}

/// The kind of JSON value starting with `token`, as [`Loose::kind`] names it.
#[cfg(feature = "json")]
fn json_kind(token: Option<u8>) -> &'static str {
    match token {
        Some(b'[') => Loose::Array.kind(),
        Some(b'"') => "a string",
        Some(b't' | b'f') => Loose::Bool.kind(),
        Some(b'n') => Loose::Null.kind(),
        Some(b'-' | b'0'..=b'9') => "a number",
        _ => "another value",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::de::value::{Error, MapDeserializer};

    /// The exact integer of a number as serde_json's `arbitrary_precision`
    /// hands it over (a one-entry map, built by hand here, whatever this
    /// build's features); an error when it did not decode as a number.
    fn whole(text: &'static str) -> Result<Option<u64>, &'static str> {
        let map = MapDeserializer::<_, Error>::new([(ARBITRARY_PRECISION_TOKEN, text)].into_iter());
        match Loose::deserialize(map) {
            Ok(Loose::Number(number)) => Ok(number.whole),
            _ => Err("not a number"),
        }
    }

    #[test]
    fn plain_integers_keep_their_digits_under_arbitrary_precision() {
        assert_eq!(whole("0"), Ok(Some(0)));
        assert_eq!(whole("42"), Ok(Some(42)));
        assert_eq!(whole("18446744073709551615"), Ok(Some(u64::MAX)));
        // Past u64, signed, fractional, exponent or signed with `+` (which
        // `u64::from_str` alone would take): not a plain integer.
        for text in ["18446744073709551616", "-1", "1.0", "1e3", "+1"] {
            assert_eq!(whole(text), Ok(None), "{text}");
        }
    }
}
