//! JSON whose structure the spec does not show, kept as sent (ruling 44 in
//! docs/RULES.md), and the quote's `partnerRevenueShareAmount` read through it.

use alloc::boxed::Box;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use serde::de::{self, MapAccess, SeqAccess, Visitor};
use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::{SentAmount, SentDecimal};
use crate::decimal::serde::ARBITRARY_PRECISION_TOKEN;
use crate::decimal::{decimal_from_f64, parse_amount, parse_json_number};
use crate::ids::AssetId;

/// Any JSON value, kept as sent: decoding never fails on its structure, and
/// encoding gives the same JSON value back (object keys in the order sent;
/// numbers as their text: integers exactly, other numbers as the shortest
/// digits of their double, or their exact text under serde_json's
/// `arbitrary_precision`).
///
/// ```
/// use swaproute::wire::Opaque;
/// let text = r#"{"share":[1,2.5,"x",null,true],"nested":{"a":-3}}"#;
/// let value: Opaque = serde_json::from_str(text).unwrap();
/// assert_eq!(serde_json::to_string(&value).unwrap(), text);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Opaque {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number, as its text.
    Number(Box<str>),
    /// A string.
    String(Box<str>),
    /// An array.
    Array(Vec<Opaque>),
    /// An object, its keys in the order sent.
    Object(Vec<(Box<str>, Opaque)>),
}

impl Opaque {
    /// The entry `key` of an object.
    pub fn get(&self, key: &str) -> Option<&Opaque> {
        match self {
            Opaque::Object(entries) => entries.iter().find(|(k, _)| &**k == key).map(|(_, v)| v),
            _ => None,
        }
    }
}

impl Serialize for Opaque {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Opaque::Null => serializer.serialize_unit(),
            Opaque::Bool(b) => serializer.serialize_bool(*b),
            Opaque::Number(text) => {
                if let Ok(n) = text.parse::<u64>() {
                    serializer.serialize_u64(n)
                } else if let Ok(n) = text.parse::<i64>() {
                    serializer.serialize_i64(n)
                } else {
                    match text.parse::<f64>() {
                        Ok(double) if double.is_finite() => serializer.serialize_f64(double),
                        _ => serializer.serialize_str(text),
                    }
                }
            }
            Opaque::String(text) => serializer.serialize_str(text),
            Opaque::Array(items) => {
                let mut seq = serializer.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            Opaque::Object(entries) => {
                let mut map = serializer.serialize_map(Some(entries.len()))?;
                for (key, value) in entries {
                    map.serialize_entry(&**key, value)?;
                }
                map.end()
            }
        }
    }
}

impl<'de> Deserialize<'de> for Opaque {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Any;
        impl<'de> Visitor<'de> for Any {
            type Value = Opaque;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_unit<E: de::Error>(self) -> Result<Opaque, E> {
                Ok(Opaque::Null)
            }
            fn visit_none<E: de::Error>(self) -> Result<Opaque, E> {
                Ok(Opaque::Null)
            }
            fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Opaque, D::Error> {
                d.deserialize_any(Any)
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<Opaque, E> {
                Ok(Opaque::Bool(v))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Opaque, E> {
                Ok(Opaque::Number(alloc::format!("{v}").into()))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Opaque, E> {
                Ok(Opaque::Number(alloc::format!("{v}").into()))
            }
            fn visit_u128<E: de::Error>(self, v: u128) -> Result<Opaque, E> {
                Ok(Opaque::Number(alloc::format!("{v}").into()))
            }
            fn visit_i128<E: de::Error>(self, v: i128) -> Result<Opaque, E> {
                Ok(Opaque::Number(alloc::format!("{v}").into()))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Opaque, E> {
                if !v.is_finite() {
                    return Err(E::custom("a number that is not finite"));
                }
                let mut digits = zmij::Buffer::new();
                Ok(Opaque::Number(digits.format(v).into()))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Opaque, E> {
                Ok(Opaque::String(v.into()))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Opaque, A::Error> {
                // No size hint is trusted: the list grows with what was sent.
                let mut items = Vec::new();
                while let Some(item) = seq.next_element::<Opaque>()? {
                    items.push(item);
                }
                Ok(Opaque::Array(items))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Opaque, A::Error> {
                let mut entries: Vec<(Box<str>, Opaque)> = Vec::new();
                while let Some(key) = map.next_key::<String>()? {
                    if entries.is_empty() && key == ARBITRARY_PRECISION_TOKEN {
                        // serde_json's `arbitrary_precision`: a number's exact text.
                        let text: String = map.next_value()?;
                        return Ok(Opaque::Number(text.into()));
                    }
                    let value = map.next_value::<Opaque>()?;
                    entries.push((key.into(), value));
                }
                Ok(Opaque::Object(entries))
            }
        }
        deserializer.deserialize_any(Any)
    }
}

/// A quote's `partnerRevenueShareAmount`: the spec does not show its
/// structure (ruling 44). Read as an amount when it is exactly `{"assetId":
/// "…", "value": …}` with a decimal value (as the other amounts of a quote);
/// anything else is kept as [`Opaque`] JSON and never fails the decode.
/// Either encodes back as sent.
///
/// ```
/// use swaproute::wire::RevenueShare;
/// let share: RevenueShare = serde_json::from_str(r#"{"assetId":"SOL","value":"0.01"}"#).unwrap();
/// assert_eq!(share.amount().map(|a| a.value.get().to_string()), Some("0.01".into()));
/// let other: RevenueShare = serde_json::from_str(r#"{"bps":25,"asset":"SOL"}"#).unwrap();
/// assert!(other.amount().is_none());
/// assert_eq!(serde_json::to_string(&other).unwrap(), r#"{"bps":25,"asset":"SOL"}"#);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum RevenueShare {
    /// `{"assetId": …, "value": …}`.
    Amount(SentAmount),
    /// Any other JSON.
    Opaque(Opaque),
}

impl RevenueShare {
    /// The amount, when the share has that shape.
    pub fn amount(&self) -> Option<&SentAmount> {
        match self {
            RevenueShare::Amount(amount) => Some(amount),
            RevenueShare::Opaque(_) => None,
        }
    }

    /// `{assetId, value}` exactly, the value a strict decimal.
    fn read(value: &Opaque) -> Option<SentAmount> {
        let Opaque::Object(entries) = value else {
            return None;
        };
        if entries.len() != 2 {
            return None;
        }
        let Some(Opaque::String(asset)) = value.get("assetId") else {
            return None;
        };
        let asset_id = AssetId::new(asset).ok()?;
        let value = match value.get("value")? {
            Opaque::String(text) => SentDecimal::Text(parse_amount(text).ok()?),
            Opaque::Number(text) => SentDecimal::Number(number(text)?),
            _ => return None,
        };
        Some(SentAmount { asset_id, value })
    }
}

/// A number's text as a decimal: exact text, or through its double.
fn number(text: &str) -> Option<rust_decimal::Decimal> {
    if let Ok(integer) = text.parse::<u64>() {
        return Some(crate::decimal::decimal_from_u64(integer));
    }
    if let Ok(integer) = text.parse::<i64>() {
        return Some(crate::decimal::decimal_from_i64(integer));
    }
    parse_json_number(text).ok().or_else(|| {
        text.parse::<f64>()
            .ok()
            .and_then(|d| decimal_from_f64(d).ok())
    })
}

impl Serialize for RevenueShare {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            RevenueShare::Amount(amount) => amount.serialize(serializer),
            RevenueShare::Opaque(value) => value.serialize(serializer),
        }
    }
}

impl<'de> Deserialize<'de> for RevenueShare {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = Opaque::deserialize(deserializer)?;
        Ok(match RevenueShare::read(&value) {
            Some(amount) => RevenueShare::Amount(amount),
            None => RevenueShare::Opaque(value),
        })
    }
}
