//! Why a request's client headers were refused, and the API error each maps to.

use super::forwarded::{ForwardedError, NoClientAddress, MAX_HEADER_LEN};
use crate::error::{ApiError, ErrorCode};

/// A header this module reads, by its canonical name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ClientHeader {
    /// `App-Name` (required).
    AppName,
    /// `App-Version`.
    AppVersion,
    /// `App-Platform`.
    AppPlatform,
    /// `User-Agent`.
    UserAgent,
    /// `Forwarded` (required for proxying integrations).
    Forwarded,
    /// `Authorization` (legacy, refused).
    Authorization,
}

impl ClientHeader {
    /// Every header, in the order they are validated.
    pub const ALL: [ClientHeader; 6] = [
        ClientHeader::Authorization,
        ClientHeader::AppName,
        ClientHeader::AppVersion,
        ClientHeader::AppPlatform,
        ClientHeader::UserAgent,
        ClientHeader::Forwarded,
    ];

    /// The header `name` refers to, matched case-insensitively; `None` for headers
    /// this module ignores.
    pub fn from_name(name: &str) -> Option<Self> {
        ClientHeader::ALL
            .into_iter()
            .find(|h| h.as_str().eq_ignore_ascii_case(name))
    }
}

crate::text::str_enum!(
    ClientHeader,
    /// The canonical header name, e.g. `"App-Name"`.
    {
        AppName => "App-Name",
        AppVersion => "App-Version",
        AppPlatform => "App-Platform",
        UserAgent => "User-Agent",
        Forwarded => "Forwarded",
        Authorization => "Authorization",
    }
);

/// Why a request's client headers were refused.
///
/// [`HeaderError::to_api_error`] (or `From`) gives the API error to answer with;
/// its `details` are this error's `Display` text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum HeaderError {
    /// A legacy `Authorization` header was sent (401 `UNAUTHORIZED`).
    #[error("the legacy Authorization header is no longer accepted; identify the application with App-Name")]
    LegacyAuthorization,
    /// `App-Name` is missing, empty, or made only of spaces and invisible
    /// characters (401 `UNAUTHORIZED`).
    #[error("missing authentication")]
    MissingAppName,
    /// A header value is longer than [`MAX_HEADER_LEN`] bytes (400 `INVALID_REQUEST`).
    #[error("{header} header is {len} bytes long, more than the {MAX_HEADER_LEN} allowed")]
    TooLong {
        /// The header.
        header: ClientHeader,
        /// Length of the value, in bytes.
        len: usize,
    },
    /// A header value holds a control character other than HTAB (400 `INVALID_REQUEST`).
    #[error("{header} header holds a control character at byte {at}")]
    ControlCharacter {
        /// The header.
        header: ClientHeader,
        /// Byte offset in the trimmed value.
        at: usize,
    },
    /// A header value is not UTF-8 (400 `INVALID_REQUEST`; only from an `http::HeaderMap`).
    #[error("{header} header is not valid UTF-8")]
    NotUtf8 {
        /// The header.
        header: ClientHeader,
    },
    /// A single-valued header was sent more than once with different values
    /// (400 `INVALID_REQUEST`).
    #[error("{header} header was sent more than once with different values")]
    ConflictingValues {
        /// The header.
        header: ClientHeader,
    },
    /// `App-Platform` is not `desktop`, `mobile` or `browser` (400 `INVALID_REQUEST`).
    /// No longer produced by header parsing (ruling 52: an unknown value is
    /// kept as text); kept for callers that hold a platform to the three values.
    #[error("App-Platform header must be `desktop`, `mobile` or `browser`")]
    InvalidPlatform,
    /// `Forwarded` is malformed (400 `INVALID_REQUEST`).
    #[error("invalid Forwarded header: {0}")]
    InvalidForwarded(#[source] ForwardedError),
    /// The integration proxies requests but sent no `Forwarded` (400 `INVALID_REQUEST`).
    #[error("Forwarded header is required when the integration proxies requests")]
    MissingForwarded,
    /// The integration proxies requests and its `Forwarded` gives no end-user
    /// address to locate: the first `for` is absent, `unknown`, obfuscated or not
    /// globally routable. Refused like a missing `Forwarded` (400
    /// `INVALID_REQUEST`; rulings 20 and 29 (docs/RULES.md)).
    #[error("Forwarded header carries no end-user address: {0}; a proxying integration must send the end user's public IP address as the first `for`")]
    NoClientAddress(#[source] NoClientAddress),
}

impl HeaderError {
    /// The stable code: `UNAUTHORIZED` (401) for a legacy `Authorization` header or
    /// a missing `App-Name`; `INVALID_REQUEST` (400) for everything else.
    pub fn code(&self) -> ErrorCode {
        match self {
            HeaderError::LegacyAuthorization | HeaderError::MissingAppName => {
                ErrorCode::Unauthorized
            }
            _ => ErrorCode::InvalidRequest,
        }
    }

    /// The API error a server answers with: [`HeaderError::code`] and this error's
    /// text as `details` (exactly `"missing authentication"` for a missing `App-Name`).
    pub fn to_api_error(&self) -> ApiError {
        ApiError::new(self.code(), alloc::string::ToString::to_string(self))
    }
}

impl From<ForwardedError> for HeaderError {
    fn from(err: ForwardedError) -> Self {
        HeaderError::InvalidForwarded(err)
    }
}
