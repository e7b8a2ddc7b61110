//! The `code` of an error body as the service sent it: a code of the table, an
//! older name of one, or a code this crate does not know (ruling 26,
//! docs/RULES.md).

use core::fmt;

use super::{ErrorCode, LegacyCode};
use crate::parse_error::{Malformed, ParseError};

/// The longest error code text accepted, in bytes (ruling 17, docs/RULES.md).
/// The codes of the table are at most 22 bytes.
pub const MAX_ERROR_CODE_LEN: usize = 128;

/// Why a text is not an error body's `code`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum InvalidBodyCode {
    /// The code is empty.
    #[error("error code is empty")]
    Empty,
    /// The code is longer than [`MAX_ERROR_CODE_LEN`] bytes.
    #[error("error code is {len} bytes long, more than the {MAX_ERROR_CODE_LEN} allowed")]
    TooLong {
        /// Length of the rejected code, in bytes.
        len: usize,
    },
    /// The code contains a control character.
    #[error("error code contains a control character at byte {at}")]
    ControlCharacter {
        /// Byte offset of the character.
        at: usize,
    },
}

crate::text::from_token_defect!(
    InvalidBodyCode,
    ControlCharacter,
    "CONTROL_CHARACTER",
    BodyCode
);

crate::text::verbatim_text!(
    /// A code this crate does not know, kept exactly as the service sent it.
    ///
    /// Only [`BodyCode`]'s parser creates one, so it never spells a known code or
    /// an older name: `"NOT_FOUND"` is always [`BodyCode::Known`], while
    /// `"not_found"` (matching is case-sensitive) is unknown.
    pub struct UnknownCode;
    /// The code text, exactly as received.
);

/// The `code` of an [`ErrorBody`](super::ErrorBody): the service may add codes
/// at any time, and a client must keep working when it does (ruling 26,
/// docs/RULES.md).
///
/// A code of the table is [`BodyCode::Known`]; an older name of one is
/// [`BodyCode::Legacy`]; any other text is [`BodyCode::Unknown`]. Every form is
/// written back exactly as it was read (`parse(display(c)) == c`).
///
/// ```
/// use swaproute::error::{BodyCode, ErrorCode};
/// let known: BodyCode = "NOT_FOUND".parse()?;
/// assert_eq!(known, BodyCode::Known(ErrorCode::NotFound));
///
/// let new: BodyCode = "QUOTA_EXCEEDED".parse()?;
/// assert_eq!(new.known(), None);
/// assert_eq!(new.as_str(), "QUOTA_EXCEEDED");
///
/// let old: BodyCode = "RESTRICTED_GEOLOCATION".parse()?;
/// assert_eq!(old.known(), Some(ErrorCode::RestrictedRegion));
/// assert_eq!(old.to_string(), "RESTRICTED_GEOLOCATION");
/// # Ok::<(), swaproute::ParseError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum BodyCode {
    /// A code of the table.
    Known(ErrorCode),
    /// An older name of a code of the table.
    Legacy(LegacyCode),
    /// A code this crate does not know.
    Unknown(UnknownCode),
}

impl BodyCode {
    /// Parses a code: a code of the table, an older name, or any other
    /// non-empty text of at most [`MAX_ERROR_CODE_LEN`] bytes without control
    /// characters (case-sensitive).
    ///
    /// # Errors
    /// A [`ParseError`] of kind [`BodyCode`](crate::parse_error::ParseErrorKind::BodyCode) when
    /// `text` is empty, too long or holds a control character.
    pub fn parse(text: &str) -> Result<Self, ParseError> {
        if let Some(legacy) = LegacyCode::from_wire(text) {
            return Ok(BodyCode::Legacy(legacy));
        }
        if let Some(known) = ErrorCode::ALL.iter().find(|code| code.as_str() == text) {
            return Ok(BodyCode::Known(*known));
        }
        crate::text::check_open_text(text, MAX_ERROR_CODE_LEN)
            .map_err(|defect| InvalidBodyCode::from(defect).with_text(text))?;
        Ok(BodyCode::Unknown(UnknownCode(text.into())))
    }

    /// The wire text, exactly as it was read.
    pub fn as_str(&self) -> &str {
        match self {
            BodyCode::Known(code) => code.as_str(),
            BodyCode::Legacy(legacy) => legacy.as_str(),
            BodyCode::Unknown(unknown) => unknown.as_str(),
        }
    }

    /// The code of the table, also for an older name; `None` for a code this
    /// crate does not know.
    pub fn known(&self) -> Option<ErrorCode> {
        match self {
            BodyCode::Known(code) => Some(*code),
            BodyCode::Legacy(legacy) => Some(legacy.code()),
            BodyCode::Unknown(_) => None,
        }
    }
}

/// A body code equals a code of the table when it is that code or an older
/// name of it ([`BodyCode::known`]); an unknown code equals none.
///
/// ```
/// use swaproute::error::{BodyCode, ErrorCode};
/// let old: BodyCode = "RESTRICTED_GEOLOCATION".parse()?;
/// assert!(old == ErrorCode::RestrictedRegion);
/// assert!(ErrorCode::NotFound == "NOT_FOUND".parse::<BodyCode>()?);
/// assert!("QUOTA_EXCEEDED".parse::<BodyCode>()? != ErrorCode::NotFound);
/// # Ok::<(), swaproute::ParseError>(())
/// ```
impl PartialEq<ErrorCode> for BodyCode {
    fn eq(&self, code: &ErrorCode) -> bool {
        self.known() == Some(*code)
    }
}

/// As `BodyCode == ErrorCode`.
impl PartialEq<BodyCode> for ErrorCode {
    fn eq(&self, code: &BodyCode) -> bool {
        code == self
    }
}

impl From<ErrorCode> for BodyCode {
    fn from(code: ErrorCode) -> Self {
        BodyCode::Known(code)
    }
}

impl fmt::Display for BodyCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

crate::text::parse_traits!(BodyCode, BodyCode::parse, ParseError);
crate::text::str_serde!(
    BodyCode,
    "an error code such as \"AMOUNT_BELOW_LIMIT\"",
    BodyCode::parse,
    |_v, e| e
);
