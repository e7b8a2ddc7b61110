//! A request number as sent: a JSON number or decimal string, kept even when
//! malformed so validation can report it with its field's code.

use rust_decimal::Decimal;
use serde::de::{self, MapAccess};
use serde::{Serialize, Serializer};

use super::{decimal_from_f64, parse_amount, parse_json_number, DecimalError};

use super::serde::ARBITRARY_PRECISION_TOKEN;

/// A number field of a request body as sent: a JSON number (any sign) or a
/// string in the strict amount grammar. A value that is a number or string but
/// not an acceptable decimal decodes to [`WireNumber::Malformed`] rather than
/// failing the whole body, so validation reports it with the field's own code
/// (`INVALID_AMOUNT` for `amount`, `INVALID_REQUEST` for `slippage`).
///
/// Serialized as a JSON string holding the decimal.
///
/// ```
/// use swaproute::decimal::WireNumber;
/// let n: WireNumber = serde_json::from_str("\"0.5\"").unwrap();
/// assert_eq!(n.value().unwrap().to_string(), "0.5");
/// let bad: WireNumber = serde_json::from_str("\"1e5\"").unwrap();
/// assert!(bad.value().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WireNumber {
    /// The decimal (possibly negative, when sent as a JSON number).
    Decimal(Decimal),
    /// Why the value is not an acceptable decimal.
    Malformed(DecimalError),
}

impl WireNumber {
    /// The decimal.
    ///
    /// # Errors
    /// The [`DecimalError`] the value was decoded with.
    pub fn value(self) -> Result<Decimal, DecimalError> {
        match self {
            WireNumber::Decimal(value) => Ok(value),
            WireNumber::Malformed(error) => Err(error),
        }
    }
}

impl From<Decimal> for WireNumber {
    fn from(value: Decimal) -> Self {
        WireNumber::Decimal(value)
    }
}

impl From<Result<Decimal, DecimalError>> for WireNumber {
    fn from(result: Result<Decimal, DecimalError>) -> Self {
        result.map_or_else(WireNumber::Malformed, WireNumber::Decimal)
    }
}

impl Serialize for WireNumber {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            WireNumber::Decimal(value) => serializer.collect_str(value),
            WireNumber::Malformed(error) => Err(serde::ser::Error::custom(error)),
        }
    }
}

crate::decimal::serde::deserialize_any!(<'de> WireNumber, "a decimal as a JSON number or string", {
        fn visit_u64<E: de::Error>(self, v: u64) -> Result<WireNumber, E> {
            Ok(WireNumber::Decimal(super::decimal_from_u64(v)))
        }

        fn visit_i64<E: de::Error>(self, v: i64) -> Result<WireNumber, E> {
            Ok(WireNumber::Decimal(super::decimal_from_i64(v)))
        }

        fn visit_u128<E: de::Error>(self, v: u128) -> Result<WireNumber, E> {
            let value = i128::try_from(v)
                .ok()
                .and_then(|v| Decimal::try_from_i128_with_scale(v, 0).ok());
            Ok(value.ok_or(DecimalError::OutOfRange).into())
        }

        fn visit_i128<E: de::Error>(self, v: i128) -> Result<WireNumber, E> {
            Ok(Decimal::try_from_i128_with_scale(v, 0)
                .map_err(|_| DecimalError::OutOfRange)
                .into())
        }

        fn visit_f64<E: de::Error>(self, v: f64) -> Result<WireNumber, E> {
            // `-1e-400` is a negative number the parser rounded to -0: refused
            // as negative, never taken as 0.
            if v == 0.0 && v.is_sign_negative() {
                return Ok(WireNumber::Malformed(DecimalError::Negative));
            }
            Ok(decimal_from_f64(v).into())
        }

        fn visit_str<E: de::Error>(self, v: &str) -> Result<WireNumber, E> {
            Ok(parse_amount(v).into())
        }

        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<WireNumber, A::Error> {
            // serde_json with `arbitrary_precision` hands a number over as a
            // one-entry map holding its exact text.
            let key: Option<alloc::string::String> = map.next_key()?;
            if key.as_deref() != Some(ARBITRARY_PRECISION_TOKEN) {
                return Err(de::Error::invalid_type(de::Unexpected::Map, &self));
            }
            let text: alloc::string::String = map.next_value()?;
            Ok(parse_json_number(&text).into())
        }
});
