use core::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::parse_error::{ParseError, ParseErrorKind};

/// An HTTP status code, always in `100..=599`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct HttpStatus(u16);

impl HttpStatus {
    /// Only for the literal statuses of the code table, which are all valid.
    pub(super) const fn from_table(code: u16) -> Self {
        HttpStatus(code)
    }

    /// Validates `code`.
    ///
    /// # Errors
    /// A [`ParseError`] of kind [`HttpStatus`](ParseErrorKind::HttpStatus)
    /// when `code` is outside `100..=599`.
    pub fn new(code: u16) -> Result<Self, ParseError> {
        if (100..=599).contains(&code) {
            Ok(HttpStatus(code))
        } else {
            Err(ParseError::new(
                ParseErrorKind::HttpStatus,
                &alloc::format!("{code}"),
                "OUT_OF_RANGE",
                &format_args!("{code} is not an HTTP status code (100..=599)"),
            ))
        }
    }

    /// The numeric status.
    pub const fn as_u16(self) -> u16 {
        self.0
    }

    /// `true` for 4xx statuses: the client can fix the request.
    pub const fn is_client_error(self) -> bool {
        self.0 >= 400 && self.0 < 500
    }

    /// `true` for 5xx statuses: a provider or internal failure.
    pub const fn is_server_error(self) -> bool {
        self.0 >= 500
    }
}

impl fmt::Display for HttpStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl Serialize for HttpStatus {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_u16(self.0)
    }
}

impl<'de> Deserialize<'de> for HttpStatus {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let code = u16::deserialize(deserializer)?;
        HttpStatus::new(code).map_err(serde::de::Error::custom)
    }
}
