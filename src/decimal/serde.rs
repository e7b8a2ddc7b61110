//! Serde adapters for [`Decimal`] fields: decode a JSON number or string, encode
//! as the service does.
//!
//! Use them with `#[serde(with = "…")]`:
//! [`number`] writes a JSON number (rate values), [`string`] writes a JSON
//! string (quote and order amounts). Both decode either form: a number to its
//! shortest round-trip decimal (or its exact text under serde_json's
//! `arbitrary_precision`), a string with the strict grammar of
//! [`parse_amount`](super::parse_amount()).

use alloc::string::String;
use core::fmt;

use rust_decimal::Decimal;
use serde::de::{self, MapAccess, Visitor};
use serde::{Deserializer, Serializer};

use super::{decimal_from_f64, parse_amount, parse_json_number};

/// The key serde_json's `arbitrary_precision` wraps a number's text in.
pub(crate) const ARBITRARY_PRECISION_TOKEN: &str = "$serde_json::private::Number";

/// `Deserialize` for `$ty` through `deserialize_any` and a visitor that
/// expects `$what` and has the `visit_*` methods given (their `Value` is
/// `$ty`; the caller names the lifetime, `<'de>`).
macro_rules! deserialize_any {
    (<$de:lifetime> $ty:ty, $what:expr, { $($methods:tt)* }) => {
        impl<$de> serde::Deserialize<$de> for $ty {
            fn deserialize<D: serde::Deserializer<$de>>(deserializer: D) -> Result<Self, D::Error> {
                struct Visitor;
                impl<$de> serde::de::Visitor<$de> for Visitor {
                    type Value = $ty;
                    fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                        f.write_str($what)
                    }
                    $($methods)*
                }
                deserializer.deserialize_any(Visitor)
            }
        }
    };
}

pub(crate) use deserialize_any;

/// Encodes as a JSON number, decodes a number or a string.
pub mod number {
    use super::{Decimal, Deserializer, Serializer};

    /// Writes `value` as a JSON number: an integer when it has no fraction,
    /// otherwise the double whose shortest text is exactly `value` (true of the
    /// ≤ 17 significant digits the service sends). A value no double carries
    /// exactly is written as a decimal string rather than rounded.
    ///
    /// # Errors
    /// Whatever the serializer reports.
    pub fn serialize<S: Serializer>(value: &Decimal, serializer: S) -> Result<S::Ok, S::Error> {
        super::serialize_number(*value, serializer)
    }

    /// Reads a JSON number or decimal string.
    ///
    /// # Errors
    /// When the value is neither, or does not fit a `Decimal` exactly.
    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Decimal, D::Error> {
        deserializer.deserialize_any(super::NumberOrString)
    }
}

/// Encodes as a JSON string, decodes a number or a string.
pub mod string {
    use super::{Decimal, Deserializer, Serializer};

    /// Writes `value` as a JSON string holding its decimal text.
    ///
    /// # Errors
    /// Whatever the serializer reports.
    pub fn serialize<S: Serializer>(value: &Decimal, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(value)
    }

    /// Reads a JSON number or decimal string.
    ///
    /// # Errors
    /// When the value is neither, or does not fit a `Decimal` exactly.
    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Decimal, D::Error> {
        deserializer.deserialize_any(super::NumberOrString)
    }
}

pub(crate) fn serialize_number<S: Serializer>(
    value: Decimal,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    if value.fract().is_zero() {
        if let Ok(int) = i64::try_from(value) {
            return serializer.serialize_i64(int);
        }
    }
    // The correctly rounded double of the exact decimal text. For every value
    // that came from a double (all the service sends) it is that double again;
    // a value a double cannot carry exactly is written as a string instead, which
    // every decoder of this crate reads back to the same decimal.
    let text = alloc::format!("{value}");
    match text.parse::<f64>() {
        Ok(double) if decimal_from_f64(double) == Ok(value) => serializer.serialize_f64(double),
        _ => serializer.serialize_str(&text),
    }
}

/// Decodes a JSON number or a strict decimal string.
pub(crate) struct NumberOrString;

impl<'de> Visitor<'de> for NumberOrString {
    type Value = Decimal;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a decimal as a JSON number or string")
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Decimal, E> {
        Ok(super::decimal_from_u64(v))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Decimal, E> {
        Ok(super::decimal_from_i64(v))
    }

    fn visit_u128<E: de::Error>(self, v: u128) -> Result<Decimal, E> {
        Decimal::try_from_i128_with_scale(i128::try_from(v).map_err(E::custom)?, 0)
            .map_err(E::custom)
    }

    fn visit_i128<E: de::Error>(self, v: i128) -> Result<Decimal, E> {
        Decimal::try_from_i128_with_scale(v, 0).map_err(E::custom)
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Decimal, E> {
        decimal_from_f64(v).map_err(|e| {
            // The double's shortest digits (`1e+30`, as serde_json writes a
            // float in its own errors), by its formatter: not core's
            // `Display`, which writes every digit and which the browser
            // build leaves out (bindings/wasm/tools/trim-float-fmt.mjs).
            let mut digits = zmij::Buffer::new();
            E::custom(format_args!(
                "invalid decimal number {}: {e}",
                digits.format(v)
            ))
        })
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Decimal, E> {
        parse_amount(v).map_err(|e| E::custom(format_args!("invalid decimal string {v:?}: {e}")))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Decimal, A::Error> {
        // serde_json with `arbitrary_precision` hands a number over as a
        // one-entry map holding its exact text.
        let key: Option<String> = map.next_key()?;
        if key.as_deref() != Some(ARBITRARY_PRECISION_TOKEN) {
            return Err(de::Error::invalid_type(de::Unexpected::Map, &self));
        }
        let text: String = map.next_value()?;
        parse_json_number(&text)
            .map_err(|e| de::Error::custom(format_args!("invalid decimal number {text}: {e}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;
    use serde::de::value::{
        BoolDeserializer, Error, F64Deserializer, I128Deserializer, U128Deserializer,
    };

    /// A double no decimal holds names itself in its shortest digits, as
    /// JSON wrote it (not core's `Display`, which the browser build leaves
    /// out and which would write all 31 digits of 1e30).
    #[test]
    fn a_double_out_of_range_is_named_by_its_shortest_digits() {
        let double = |v: f64| {
            number::deserialize(F64Deserializer::<Error>::new(v))
                .unwrap_err()
                .to_string()
        };
        assert!(
            double(1e30).starts_with("invalid decimal number 1e+30: "),
            "{}",
            double(1e30)
        );
        assert!(double(-1.5e300).starts_with("invalid decimal number -1.5e+300: "));
        assert_eq!(
            number::deserialize(F64Deserializer::<Error>::new(0.25)).unwrap(),
            Decimal::new(25, 2)
        );
    }

    #[test]
    fn wide_integers_from_formats_that_have_them() {
        // serde_json never hands over a 128-bit integer; other formats do.
        // 2^96 − 1 is the largest mantissa a Decimal holds.
        let largest = 79_228_162_514_264_337_593_543_950_335u128;
        let wide = |v: u128| number::deserialize(U128Deserializer::<Error>::new(v));
        assert_eq!(wide(largest).unwrap().to_string(), largest.to_string());
        assert!(wide(largest + 1).is_err());
        assert!(wide(u128::MAX).is_err());
        let signed = |v: i128| number::deserialize(I128Deserializer::<Error>::new(v));
        assert_eq!(signed(-5).unwrap().to_string(), "-5");
        assert_eq!(
            signed(-79_228_162_514_264_337_593_543_950_335)
                .unwrap()
                .to_string(),
            "-79228162514264337593543950335"
        );
        assert!(signed(i128::MIN).is_err());
    }

    #[test]
    fn a_value_of_another_type_says_what_is_expected() {
        let error = string::deserialize(BoolDeserializer::<Error>::new(true)).unwrap_err();
        assert_eq!(
            error.to_string(),
            "invalid type: boolean `true`, expected a decimal as a JSON number or string"
        );
    }
}
