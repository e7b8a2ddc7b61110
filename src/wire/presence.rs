//! Keys and numbers as the service wrote them, so a decoded response encodes
//! back to the same JSON value (ruling 22, docs/RULES.md).

use alloc::string::String;
use core::fmt;
use core::marker::PhantomData;

use rust_decimal::Decimal;
use serde::de::value::{MapAccessDeserializer, SeqAccessDeserializer};
use serde::de::{self, IntoDeserializer, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::decimal::serde::NumberOrString;

/// An optional key of a response, as sent: absent, `null`, `""`, or a value.
///
/// The service omits most optional keys, but writes `fromAddress: null`,
/// `sponsoredByCampaignId: null` and `""` for empty ids and texts; each is
/// kept so that re-encoding writes it back (ruling 22, docs/RULES.md). Use it
/// with `#[serde(default, skip_serializing_if = "Presence::is_absent")]`.
///
/// A `""` always decodes as [`Presence::Empty`] (never as a value), whatever
/// the value's type, so an id type that refuses `""` still decodes.
///
/// ```
/// use swaproute::wire::Presence;
/// let empty: Presence<String> = serde_json::from_str(r#""""#).unwrap();
/// assert_eq!(empty, Presence::Empty);
/// assert_eq!(empty.value(), None);
/// let null: Presence<String> = serde_json::from_str("null").unwrap();
/// assert_eq!(serde_json::to_string(&null).unwrap(), "null");
/// let text: Presence<String> = serde_json::from_str(r#""abc""#).unwrap();
/// assert_eq!(text.value().map(String::as_str), Some("abc"));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Presence<T> {
    /// The key was not sent.
    #[default]
    Absent,
    /// The key was sent as `null`.
    Null,
    /// The key was sent as `""`.
    Empty,
    /// The key was sent with a value.
    Value(T),
}

impl<T> Presence<T> {
    /// `true` for [`Presence::Absent`] (for `skip_serializing_if`).
    pub fn is_absent(&self) -> bool {
        matches!(self, Presence::Absent)
    }

    /// The value, `None` when absent, `null` or `""`.
    pub fn value(&self) -> Option<&T> {
        match self {
            Presence::Value(value) => Some(value),
            Presence::Absent | Presence::Null | Presence::Empty => None,
        }
    }

    /// The value by value, `None` when absent, `null` or `""`.
    pub fn into_value(self) -> Option<T> {
        match self {
            Presence::Value(value) => Some(value),
            Presence::Absent | Presence::Null | Presence::Empty => None,
        }
    }

    /// The value as an `Option`, `None` when absent, `null` or `""` (the
    /// same as [`value`](Self::value), named after `Option::as_ref`).
    ///
    /// ```
    /// use swaproute::wire::Presence;
    /// assert_eq!(Presence::Value(5).as_option(), Some(&5));
    /// assert_eq!(Presence::<u8>::Null.as_option(), None);
    /// ```
    pub fn as_option(&self) -> Option<&T> {
        self.value()
    }

    /// The value as an `Option`, by value (the same as
    /// [`into_value`](Self::into_value)); also `Option::from(presence)`.
    pub fn into_option(self) -> Option<T> {
        self.into_value()
    }

    /// `true` for [`Presence::Value`].
    pub fn is_value(&self) -> bool {
        matches!(self, Presence::Value(_))
    }

    /// `true` for [`Presence::Null`] (the key was sent as `null`).
    pub fn is_null(&self) -> bool {
        matches!(self, Presence::Null)
    }

    /// `true` for [`Presence::Empty`] (the key was sent as `""`).
    pub fn is_empty(&self) -> bool {
        matches!(self, Presence::Empty)
    }

    /// The same presence, borrowing the value.
    pub fn as_ref(&self) -> Presence<&T> {
        match self {
            Presence::Value(value) => Presence::Value(value),
            Presence::Absent => Presence::Absent,
            Presence::Null => Presence::Null,
            Presence::Empty => Presence::Empty,
        }
    }

    /// The value mapped by `f`; absent, `null` and `""` stay what they were
    /// (so the wire form is kept).
    ///
    /// ```
    /// use swaproute::wire::Presence;
    /// assert_eq!(Presence::Value("7").map(str::len), Presence::Value(1));
    /// assert_eq!(Presence::<&str>::Empty.map(str::len), Presence::Empty);
    /// assert_eq!(Presence::<&str>::Null.map(str::len), Presence::Null);
    /// ```
    pub fn map<U, F: FnOnce(T) -> U>(self, f: F) -> Presence<U> {
        match self {
            Presence::Value(value) => Presence::Value(f(value)),
            Presence::Absent => Presence::Absent,
            Presence::Null => Presence::Null,
            Presence::Empty => Presence::Empty,
        }
    }
}

impl<T> From<Presence<T>> for Option<T> {
    /// The value; `None` when absent, `null` or `""`.
    fn from(presence: Presence<T>) -> Self {
        presence.into_value()
    }
}

impl<T> From<Option<T>> for Presence<T> {
    /// `Some` is a value; `None` is an absent key.
    fn from(value: Option<T>) -> Self {
        value.map_or(Presence::Absent, Presence::Value)
    }
}

/// `null`, `""` or the value. An absent key is skipped by its holder; written
/// on its own it is `null`.
impl<T: Serialize> Serialize for Presence<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Presence::Value(value) => value.serialize(serializer),
            Presence::Empty => serializer.serialize_str(""),
            Presence::Absent | Presence::Null => serializer.serialize_none(),
        }
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Presence<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(PresenceVisitor(PhantomData))
    }
}

struct PresenceVisitor<T>(PhantomData<T>);

impl<'de, T: Deserialize<'de>> Visitor<'de> for PresenceVisitor<T> {
    type Value = Presence<T>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("null, \"\" or a value")
    }

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(Presence::Null)
    }

    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(Presence::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Self::Value, E> {
        T::deserialize(v.into_deserializer()).map(Presence::Value)
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
        T::deserialize(v.into_deserializer()).map(Presence::Value)
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
        T::deserialize(v.into_deserializer()).map(Presence::Value)
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
        T::deserialize(v.into_deserializer()).map(Presence::Value)
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        if v.is_empty() {
            return Ok(Presence::Empty);
        }
        T::deserialize(v.into_deserializer()).map(Presence::Value)
    }

    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
        if v.is_empty() {
            return Ok(Presence::Empty);
        }
        T::deserialize(de::value::BorrowedStrDeserializer::new(v)).map(Presence::Value)
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
        if v.is_empty() {
            return Ok(Presence::Empty);
        }
        T::deserialize(v.into_deserializer()).map(Presence::Value)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
        T::deserialize(SeqAccessDeserializer::new(seq)).map(Presence::Value)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        T::deserialize(MapAccessDeserializer::new(map)).map(Presence::Value)
    }
}

/// A decimal as the service wrote it: a JSON string (current responses) or a
/// JSON number (older ones). Encoding writes it back in the same form: a
/// string with the text's own digits (`"1.50"` stays `"1.50"`), a number in
/// its shortest form (`0.83`).
///
/// ```
/// use swaproute::wire::SentDecimal;
/// let text: SentDecimal = serde_json::from_str(r#""1.50""#).unwrap();
/// assert_eq!(serde_json::to_string(&text).unwrap(), r#""1.50""#);
/// let number: SentDecimal = serde_json::from_str("0.83").unwrap();
/// assert_eq!(serde_json::to_string(&number).unwrap(), "0.83");
/// assert_eq!(text.get().to_string(), "1.50");
/// ```
///
/// # Equality, hashing and order
/// By value only, whatever the form and the scale: `"1.50"` (text) equals
/// `1.5` (number), and they hash alike; the order is the values' order.
/// [`is_text`](Self::is_text) tells the forms apart. `Display` writes the
/// value with the digits it was sent with (`1.50`).
///
/// ```
/// use swaproute::wire::SentDecimal;
/// let text: SentDecimal = serde_json::from_str(r#""1.50""#)?;
/// let number: SentDecimal = serde_json::from_str("1.5")?;
/// assert_eq!(text, number);
/// assert!(text.is_text() && !number.is_text());
/// assert_eq!(text.to_string(), "1.50");
/// assert_eq!(number.to_string(), "1.5");
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub enum SentDecimal {
    /// Sent as a JSON string (strict amount grammar).
    Text(Decimal),
    /// Sent as a JSON number.
    Number(Decimal),
}

impl SentDecimal {
    /// The value, whatever the form.
    pub const fn get(self) -> Decimal {
        match self {
            SentDecimal::Text(value) | SentDecimal::Number(value) => value,
        }
    }
}

impl SentDecimal {
    /// `true` when it was sent as a JSON string, `false` for a JSON number.
    pub const fn is_text(self) -> bool {
        matches!(self, SentDecimal::Text(_))
    }
}

impl PartialEq for SentDecimal {
    /// By value (`Decimal`'s own equality ignores the scale).
    fn eq(&self, other: &Self) -> bool {
        self.get() == other.get()
    }
}

impl Eq for SentDecimal {}

impl core::hash::Hash for SentDecimal {
    /// The value's hash (`Decimal` hashes its normalized value, so equal
    /// values hash alike).
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.get().hash(state);
    }
}

impl PartialOrd for SentDecimal {
    fn partial_cmp(&self, other: &Self) -> Option<core::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for SentDecimal {
    /// By value.
    fn cmp(&self, other: &Self) -> core::cmp::Ordering {
        self.get().cmp(&other.get())
    }
}

impl fmt::Display for SentDecimal {
    /// The value with the digits it holds (`"1.50"` sent as text is `1.50`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.get(), f)
    }
}

impl From<SentDecimal> for Decimal {
    fn from(sent: SentDecimal) -> Self {
        sent.get()
    }
}

impl From<crate::decimal::Amount> for SentDecimal {
    /// The amount as a JSON string (how the service writes amounts now).
    fn from(amount: crate::decimal::Amount) -> Self {
        SentDecimal::Text(amount.get())
    }
}

impl From<crate::decimal::Fixed8> for SentDecimal {
    /// The value as a JSON string, with its 8 places (`"0.50000000"`).
    fn from(value: crate::decimal::Fixed8) -> Self {
        SentDecimal::Text(value.get())
    }
}

impl Serialize for SentDecimal {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            SentDecimal::Text(value) => serializer.collect_str(value),
            SentDecimal::Number(value) => serialize_number(*value, serializer),
        }
    }
}

/// `#[serde(default, deserialize_with = "present")]`: a key that is present
/// is `Some`, `null` included (for an `Option<Option<T>>`, `null` is
/// `Some(None)`); an absent key stays `None`.
pub(crate) fn present<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    deserializer: D,
) -> Result<Option<T>, D::Error> {
    T::deserialize(deserializer).map(Some)
}

/// Writes `value` as a JSON number: a whole number in `u64` range as that
/// integer (so `18446744073709551615` is not rounded through a double),
/// anything else as the crate's number encoder writes it.
pub(crate) fn serialize_number<S: Serializer>(
    value: Decimal,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    if value.fract().is_zero() {
        if let Ok(whole) = u64::try_from(value) {
            return serializer.serialize_u64(whole);
        }
    }
    crate::decimal::serde::number::serialize(&value, serializer)
}

// A number as `NumberOrString` reads it; a string keeps its own scale.
crate::decimal::serde::deserialize_any!(<'de> SentDecimal, "a decimal as a JSON number or string", {
        fn visit_u64<E: de::Error>(self, v: u64) -> Result<SentDecimal, E> {
            NumberOrString.visit_u64(v).map(SentDecimal::Number)
        }

        fn visit_i64<E: de::Error>(self, v: i64) -> Result<SentDecimal, E> {
            NumberOrString.visit_i64(v).map(SentDecimal::Number)
        }

        fn visit_f64<E: de::Error>(self, v: f64) -> Result<SentDecimal, E> {
            NumberOrString.visit_f64(v).map(SentDecimal::Number)
        }

        fn visit_str<E: de::Error>(self, v: &str) -> Result<SentDecimal, E> {
            let value = NumberOrString.visit_str(v)?;
            // The grammar is checked; keep the text's own scale when a `Decimal`
            // holds it ("1.50" stays 1.50), else the parsed value.
            Ok(SentDecimal::Text(
                Decimal::from_str_exact(v).unwrap_or(value),
            ))
        }

        fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<SentDecimal, A::Error> {
            NumberOrString.visit_map(map).map(SentDecimal::Number)
        }
});

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decimal::serde::ARBITRARY_PRECISION_TOKEN;
    use alloc::string::ToString;
    use alloc::vec::Vec;
    use serde::de::value::{BytesDeserializer, Error, MapDeserializer};

    /// A format's `None` (`visit_none`), or its `Some` around a value
    /// (`visit_some`): serde_json has neither in `deserialize_any` (it says
    /// `null` with `visit_unit`), other self-describing formats do.
    struct OptionDeserializer(Option<&'static str>);

    impl<'de> Deserializer<'de> for OptionDeserializer {
        type Error = Error;

        fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
            match self.0 {
                None => visitor.visit_none(),
                Some(text) => visitor.visit_some(de::value::StrDeserializer::<Error>::new(text)),
            }
        }

        serde::forward_to_deserialize_any! {
            bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
            bytes byte_buf option unit unit_struct newtype_struct seq tuple
            tuple_struct map struct enum identifier ignored_any
        }
    }

    #[test]
    fn none_and_some_of_other_formats() {
        let absent = Presence::<String>::deserialize(OptionDeserializer(None)).unwrap();
        assert_eq!(absent, Presence::Null);
        let some = Presence::<String>::deserialize(OptionDeserializer(Some("tag"))).unwrap();
        assert_eq!(some, Presence::Value("tag".to_string()));
        let empty = Presence::<String>::deserialize(OptionDeserializer(Some(""))).unwrap();
        assert_eq!(empty, Presence::Empty);
    }

    #[test]
    fn every_json_type_is_handed_to_the_value() {
        let decode = |json: &str| serde_json::from_str::<Presence<serde_json::Value>>(json);
        assert_eq!(
            serde_json::from_str::<Presence<bool>>("true").unwrap(),
            Presence::Value(true)
        );
        assert_eq!(
            serde_json::from_str::<Presence<i64>>("-5").unwrap(),
            Presence::Value(-5)
        );
        // An escape makes serde_json hand over an owned `&str` (visit_str).
        assert_eq!(
            serde_json::from_str::<Presence<String>>(r#""a\nb""#).unwrap(),
            Presence::Value("a\nb".to_string())
        );
        assert_eq!(
            serde_json::from_str::<Presence<Vec<u8>>>("[1, 2]").unwrap(),
            Presence::Value([1, 2].to_vec())
        );
        assert_eq!(decode("null").unwrap(), Presence::Null);
        assert_eq!(decode(r#""""#).unwrap(), Presence::Empty);
    }

    #[test]
    fn types_no_json_has_say_what_is_expected() {
        let error =
            Presence::<String>::deserialize(BytesDeserializer::<Error>::new(b"x")).unwrap_err();
        assert!(
            error
                .to_string()
                .contains(r#"expected null, "" or a value"#),
            "{error}"
        );
        let error = SentDecimal::deserialize(BytesDeserializer::<Error>::new(b"1")).unwrap_err();
        assert!(
            error
                .to_string()
                .contains("expected a decimal as a JSON number or string"),
            "{error}"
        );
    }

    #[test]
    fn sent_decimals_from_the_exact_text_of_arbitrary_precision() {
        // serde_json's `arbitrary_precision` one-entry map, built by hand.
        let number = |key: &'static str, text: &'static str| {
            SentDecimal::deserialize(MapDeserializer::<_, Error>::new([(key, text)].into_iter()))
        };
        let sent = number(ARBITRARY_PRECISION_TOKEN, "0.10").unwrap();
        assert_eq!(sent, SentDecimal::Number(Decimal::new(1, 1)));
        assert!(number("value", "0.10").is_err());
    }
}
