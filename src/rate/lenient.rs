//! A rate's `{assetId, value}` objects decoded leniently (ruling 44 in
//! docs/RULES.md): a value no `Decimal` holds is that rate's defect, kept
//! with its text, never the whole response's decode error.

use alloc::boxed::Box;
use alloc::string::String;
use core::fmt;

use rust_decimal::Decimal;
use serde::de::{self, MapAccess};
use serde::{Deserialize, Serialize, Serializer};

use super::AssetAmount;
use crate::decimal::serde::ARBITRARY_PRECISION_TOKEN;
use crate::decimal::{
    decimal_from_f64, decimal_from_i64, decimal_from_u64, parse_amount, parse_json_number,
    DecimalError,
};
use crate::ids::AssetId;

/// A value of a rate that no `Decimal` holds exactly (more than 28 places,
/// out of range, or a string outside the amount grammar), as it was sent.
///
/// It encodes back as it came: a string as that string, a number as the
/// double its text names (serde_json writes it in its shortest form, the
/// form a double-based encoder such as the service's wrote).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnheldValue {
    /// The text: a string's content, or a number's shortest digits.
    text: Box<str>,
    /// `true` when sent as a JSON string.
    string: bool,
    /// Why a `Decimal` cannot hold it.
    reason: DecimalError,
}

impl UnheldValue {
    /// The value's text as sent (a number's shortest round-trip digits,
    /// e.g. `6.441788833519116e-14`).
    pub fn text(&self) -> &str {
        &self.text
    }

    /// `true` when it was sent as a JSON string, `false` for a number.
    pub fn is_string(&self) -> bool {
        self.string
    }

    /// Why a `Decimal` cannot hold it.
    pub fn reason(&self) -> DecimalError {
        self.reason
    }

    fn number(text: &str, reason: DecimalError) -> Self {
        UnheldValue {
            text: text.into(),
            string: false,
            reason,
        }
    }
}

impl fmt::Display for UnheldValue {
    /// The text (a string quoted), cut to 64 characters with its length
    /// when longer: a message never repeats a huge value whole.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = crate::text::echo(&self.text);
        if self.string {
            write!(f, "{text:?}")
        } else {
            f.write_str(&text)
        }
    }
}

impl Serialize for UnheldValue {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if !self.string {
            if let Ok(double) = self.text.parse::<f64>() {
                if double.is_finite() {
                    return serializer.serialize_f64(double);
                }
            }
        }
        serializer.serialize_str(&self.text)
    }
}

/// A rate's value as decoded: held exactly, or kept as sent.
#[derive(Clone, Debug)]
pub(super) enum LenientValue {
    /// A `Decimal` holds it.
    Held(Decimal),
    /// None does.
    Unheld(UnheldValue),
}

impl From<Result<Decimal, UnheldValue>> for LenientValue {
    fn from(result: Result<Decimal, UnheldValue>) -> Self {
        result.map_or_else(LenientValue::Unheld, LenientValue::Held)
    }
}

crate::decimal::serde::deserialize_any!(<'de> LenientValue, "a decimal as a JSON number or string", {
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<LenientValue, E> {
        Ok(LenientValue::Held(decimal_from_u64(v)))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<LenientValue, E> {
        Ok(LenientValue::Held(decimal_from_i64(v)))
    }

    fn visit_u128<E: de::Error>(self, v: u128) -> Result<LenientValue, E> {
        let held = i128::try_from(v)
            .ok()
            .and_then(|v| Decimal::try_from_i128_with_scale(v, 0).ok());
        Ok(held
            .ok_or_else(|| {
                UnheldValue::number(&alloc::format!("{v}"), DecimalError::OutOfRange)
            })
            .into())
    }

    fn visit_i128<E: de::Error>(self, v: i128) -> Result<LenientValue, E> {
        Ok(Decimal::try_from_i128_with_scale(v, 0)
            .map_err(|_| UnheldValue::number(&alloc::format!("{v}"), DecimalError::OutOfRange))
            .into())
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<LenientValue, E> {
        Ok(decimal_from_f64(v)
            .map_err(|reason| {
                // The double's shortest digits, as a double-based encoder wrote them.
                let mut digits = zmij::Buffer::new();
                UnheldValue::number(digits.format(v), reason)
            })
            .into())
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<LenientValue, E> {
        Ok(parse_amount(v)
            .map_err(|reason| UnheldValue {
                text: v.into(),
                string: true,
                reason,
            })
            .into())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<LenientValue, A::Error> {
        // serde_json with `arbitrary_precision` hands a number over as a
        // one-entry map holding its exact text.
        let key: Option<String> = map.next_key()?;
        if key.as_deref() != Some(ARBITRARY_PRECISION_TOKEN) {
            return Err(de::Error::invalid_type(de::Unexpected::Map, &self));
        }
        let text: String = map.next_value()?;
        Ok(parse_json_number(&text)
            .map_err(|reason| UnheldValue::number(&text, reason))
            .into())
    }
});

/// `{"assetId": …, "value": …}` of a rate, its value decoded leniently.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct LenientAmount {
    pub(super) asset_id: AssetId,
    pub(super) value: LenientValue,
}

impl LenientAmount {
    /// The amount, its value zero when unheld, and the unheld value.
    pub(super) fn split(self) -> (AssetAmount, Option<UnheldValue>) {
        match self.value {
            LenientValue::Held(value) => (AssetAmount::new(self.asset_id, value), None),
            LenientValue::Unheld(unheld) => {
                (AssetAmount::new(self.asset_id, Decimal::ZERO), Some(unheld))
            }
        }
    }
}

/// An amount whose value is unheld, in the wire shape.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct UnheldAmount<'a> {
    pub(super) asset_id: &'a AssetId,
    pub(super) value: &'a UnheldValue,
}
