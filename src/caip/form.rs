//! The `caip19` query parameter: which form responses name assets in.

use core::fmt;
use core::str::FromStr;

use crate::parse_error::{ParseError, ParseErrorKind};

/// The name of the V4 query parameter that selects the asset id form.
pub const CAIP19_PARAM: &str = "caip19";

/// Which form a V4 response names assets in, selected by the `caip19` query
/// parameter.
///
/// V4 uses CAIP-19 identifiers by default (spec, Versioning), so an absent
/// parameter selects [`AssetIdForm::Caip19`]; `caip19=false` selects legacy ids.
/// The parameter's value is exactly `true` or `false` (lowercase); anything
/// else, including an empty value, is refused rather than guessed at.
///
/// Serialized as the boolean value of `caip19`; deserialized from a boolean or
/// the strings `"true"`/`"false"` (query-string decoders hand over strings).
///
/// ```
/// use swaproute::caip::AssetIdForm;
/// assert_eq!(AssetIdForm::from_query(None).unwrap(), AssetIdForm::Caip19);
/// assert_eq!(AssetIdForm::from_query(Some("false")).unwrap(), AssetIdForm::Legacy);
/// assert_eq!(AssetIdForm::from_query(Some("true")).unwrap(), AssetIdForm::Caip19);
/// assert!(AssetIdForm::from_query(Some("yes")).is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum AssetIdForm {
    /// CAIP-19 asset types, e.g. `eip155:1/slip44:60` (`caip19=true`, the default).
    #[default]
    Caip19,
    /// Legacy asset ids, e.g. `ETH` (`caip19=false`).
    Legacy,
}

impl AssetIdForm {
    /// The form selected by `caip19=<flag>`.
    pub const fn from_caip19(flag: bool) -> Self {
        if flag {
            AssetIdForm::Caip19
        } else {
            AssetIdForm::Legacy
        }
    }

    /// The form selected by the `caip19` query parameter's value; `None` when
    /// the parameter is absent (CAIP-19, the V4 default).
    ///
    /// # Errors
    /// A [`ParseError`] ([`Caip19Flag`](ParseErrorKind::Caip19Flag)) when the value is not exactly `true` or `false`.
    pub fn from_query(value: Option<&str>) -> Result<Self, ParseError> {
        value.map_or(Ok(AssetIdForm::Caip19), str::parse)
    }

    /// `true` for [`AssetIdForm::Caip19`]: the value of `caip19`.
    pub const fn is_caip19(self) -> bool {
        matches!(self, AssetIdForm::Caip19)
    }

    /// The query value that selects this form, `"true"` or `"false"`.
    pub const fn as_query_value(self) -> &'static str {
        match self {
            AssetIdForm::Caip19 => "true",
            AssetIdForm::Legacy => "false",
        }
    }
}

impl FromStr for AssetIdForm {
    type Err = ParseError;
    /// Parses the `caip19` value: exactly `true` or `false`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "true" => Ok(AssetIdForm::Caip19),
            "false" => Ok(AssetIdForm::Legacy),
            _ => Err(ParseError::new(
                ParseErrorKind::Caip19Flag,
                s,
                "UNKNOWN",
                &"query parameter `caip19` must be \"true\" or \"false\"",
            )),
        }
    }
}

impl fmt::Display for AssetIdForm {
    /// `caip19=true` or `caip19=false`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{CAIP19_PARAM}={}", self.as_query_value())
    }
}

impl serde::Serialize for AssetIdForm {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_bool(self.is_caip19())
    }
}

impl<'de> serde::Deserialize<'de> for AssetIdForm {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl serde::de::Visitor<'_> for Visitor {
            type Value = AssetIdForm;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("the caip19 flag: true or false")
            }
            fn visit_bool<E: serde::de::Error>(self, v: bool) -> Result<AssetIdForm, E> {
                Ok(AssetIdForm::from_caip19(v))
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<AssetIdForm, E> {
                v.parse().map_err(E::custom)
            }
        }
        deserializer.deserialize_any(Visitor)
    }
}
