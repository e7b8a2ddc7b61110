//! `GET /v3/pairs?format=csv`: one line of comma-separated pair ids.

use alloc::string::String;
use alloc::vec::Vec;

use super::listing::{InvalidListing, MAX_PAIRS};
use super::{Pair, PairsResponse};
use crate::error::ErrorCode;
use crate::rate::{InvalidPairId, PairId};

/// Why a body is not a CSV pair list.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum InvalidPairsCsv {
    /// A field is not a pair id (`""` between two commas included).
    #[error("field {index} of the pair list: {error}")]
    PairId {
        /// The field's index, from 0.
        index: usize,
        /// Why it is not a pair id.
        error: InvalidPairId,
    },
    /// A field starts or ends with whitespace.
    #[error("field {index} of the pair list has whitespace around it")]
    Whitespace {
        /// The field's index, from 0.
        index: usize,
    },
    /// More than [`MAX_PAIRS`] fields, or a pair listed twice.
    #[error(transparent)]
    Listing(#[from] InvalidListing),
}

impl InvalidPairsCsv {
    /// `PROVIDER_ERROR`: the service sent a list the crate cannot use.
    pub const fn code(&self) -> ErrorCode {
        ErrorCode::ProviderError
    }
}

impl PairsResponse {
    /// Parses the CSV form: pair ids separated by `,`, on one line, no header.
    ///
    /// The service writes no trailing newline; one `\n` or `\r\n` at the end
    /// is tolerated and dropped, and so is one UTF-8 byte-order mark
    /// (U+FEFF) at the very start (ruling 37 in docs/RULES.md); a mark
    /// anywhere else is refused with the field that holds it. An empty body
    /// is an empty listing. Fields are not trimmed: whitespace around one is
    /// refused rather than taken into an asset id, and a quoted field
    /// (`"BTC_ETH"`) is refused rather than its quotes kept in the ids.
    ///
    /// ```
    /// use swaproute::discovery::PairsResponse;
    /// let pairs = PairsResponse::from_csv("LTC_XMR,SOL_USDC")?;
    /// assert_eq!(pairs.pairs()[1].to().as_str(), "USDC");
    /// assert!(PairsResponse::from_csv("LTC_XMR,,SOL_USDC").is_err());
    /// assert!(PairsResponse::from_csv("LTC_XMR, SOL_USDC").is_err());
    /// // One byte-order mark at the start is dropped; a quoted field is refused.
    /// let pairs = PairsResponse::from_csv("\u{feff}BTC_ETH")?;
    /// assert_eq!(pairs.pairs()[0].from().as_str(), "BTC");
    /// assert!(PairsResponse::from_csv("\"BTC_ETH\"").is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`InvalidPairsCsv`]: a field that is not a pair id or has whitespace
    /// around it, more than [`MAX_PAIRS`] fields, or a repeated pair.
    pub fn from_csv(text: &str) -> Result<Self, InvalidPairsCsv> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let line = text
            .strip_suffix("\r\n")
            .or_else(|| text.strip_suffix('\n'))
            .unwrap_or(text);
        if line.is_empty() {
            return Ok(PairsResponse::default());
        }
        let mut pairs = Vec::new();
        for (index, field) in line.split(',').enumerate() {
            if pairs.len() == MAX_PAIRS {
                return Err(InvalidListing::TooMany { max: MAX_PAIRS }.into());
            }
            if field.trim() != field {
                return Err(InvalidPairsCsv::Whitespace { index });
            }
            let id =
                PairId::new(field).map_err(|error| InvalidPairsCsv::PairId { index, error })?;
            pairs.push(Pair::new(id));
        }
        Ok(PairsResponse::try_from(pairs)?)
    }

    /// The CSV form: the pair ids joined by `,`, no trailing newline.
    pub fn to_csv(&self) -> String {
        let mut out = String::new();
        for (index, pair) in self.pairs().iter().enumerate() {
            if index > 0 {
                out.push(',');
            }
            out.push_str(pair.id().as_str());
        }
        out
    }
}
