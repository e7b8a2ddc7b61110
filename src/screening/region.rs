//! Region codes: ISO 3166-1 alpha-2 countries and ISO 3166-2 subdivisions.

use alloc::boxed::Box;

use crate::parse_error::{ParseError, ParseErrorKind};

/// The longest region code accepted, in bytes: `CC-XXX` (ISO 3166-2).
pub const MAX_REGION_CODE_LEN: usize = 6;

/// The message of a text that is not a region code.
const NOT_A_REGION_CODE: &str = "region code must be an ISO 3166-1 alpha-2 country code (\"US\") or an ISO 3166-2 subdivision (\"CA-ON\")";

/// A region: an ISO 3166-1 alpha-2 country code (`US`) or an ISO 3166-2
/// subdivision code (`CA-ON`: country, `-`, one to three letters or digits).
///
/// Parsing is case-insensitive; the code is kept in upper case, so `"us"` and
/// `"US"` are the same region. Whether the country exists is not checked (the
/// caller's policy names the restricted ones).
///
/// ```
/// use swaproute::screening::RegionCode;
///
/// let ny: RegionCode = "us-ny".parse()?;
/// assert_eq!(ny.as_str(), "US-NY");
/// assert_eq!(ny.country().as_str(), "US");
/// assert!("USA".parse::<RegionCode>().is_err());
/// # Ok::<(), swaproute::ParseError>(())
/// ```
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RegionCode(Box<str>);

impl RegionCode {
    /// Validates and normalizes (upper case) `text`.
    ///
    /// # Errors
    /// a [`ParseError`] ([`RegionCode`](ParseErrorKind::RegionCode)) unless `text` is two ASCII letters, optionally
    /// followed by `-` and one to three ASCII letters or digits.
    pub fn new(text: &str) -> Result<Self, ParseError> {
        let (country, subdivision) = match text.split_once('-') {
            Some((country, sub)) => (country, Some(sub)),
            None => (text, None),
        };
        let country_ok = country.len() == 2 && country.bytes().all(|b| b.is_ascii_alphabetic());
        let sub_ok = match subdivision {
            None => true,
            Some(sub) => {
                (1..=3).contains(&sub.len()) && sub.bytes().all(|b| b.is_ascii_alphanumeric())
            }
        };
        if country_ok && sub_ok {
            Ok(RegionCode(text.to_ascii_uppercase().into_boxed_str()))
        } else {
            Err(ParseError::new(
                ParseErrorKind::RegionCode,
                text,
                "MALFORMED",
                &NOT_A_REGION_CODE,
            ))
        }
    }

    /// The code, upper case.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// `true` for a subdivision code such as `CA-ON`.
    pub fn is_subdivision(&self) -> bool {
        self.0.contains('-')
    }

    /// The country: the code itself, or the country part of a subdivision.
    #[must_use]
    pub fn country(&self) -> RegionCode {
        match self.0.split_once('-') {
            Some((country, _)) => RegionCode(country.into()),
            None => self.clone(),
        }
    }
}

crate::text::boxed_text!(
    RegionCode,
    RegionCode::new,
    ParseError,
    "a region code such as \"US\" or \"CA-ON\""
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_normalizes() {
        assert_eq!(RegionCode::new("us").unwrap().as_str(), "US");
        assert_eq!(
            RegionCode::new("Us").unwrap(),
            RegionCode::new("uS").unwrap()
        );
        assert_eq!(RegionCode::new("ca-on").unwrap().as_str(), "CA-ON");
        assert_eq!(RegionCode::new("GB-ENG").unwrap().as_str(), "GB-ENG");
        assert_eq!(RegionCode::new("FR-75").unwrap().as_str(), "FR-75");
        assert!(!RegionCode::new("US").unwrap().is_subdivision());
        assert!(RegionCode::new("US-NY").unwrap().is_subdivision());
        assert_eq!(
            RegionCode::new("US-NY").unwrap().country(),
            RegionCode::new("US").unwrap()
        );
        assert_eq!(
            RegionCode::new("US").unwrap().country(),
            RegionCode::new("US").unwrap()
        );
    }

    #[test]
    fn rejects() {
        for text in [
            "", "U", "USA", "U1", "12", "US-", "US-ABCD", "US-N Y", "-NY", "US-NY-X", " US", "ÜS",
            "US\n",
        ] {
            assert_eq!(
                RegionCode::new(text).map_err(|e| e.kind()),
                Err(ParseErrorKind::RegionCode),
                "{text:?}"
            );
        }
    }

    #[test]
    fn serde() {
        let r: RegionCode = serde_json::from_str("\"ir\"").unwrap();
        assert_eq!(serde_json::to_string(&r).unwrap(), "\"IR\"");
        assert!(serde_json::from_str::<RegionCode>("\"Iran\"").is_err());
    }
}
