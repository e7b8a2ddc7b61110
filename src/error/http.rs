//! [`HttpStatus`] and `http::StatusCode` (feature `http`).

use super::HttpStatus;
use crate::parse_error::ParseError;

/// Every [`HttpStatus`] is a valid `http::StatusCode`.
///
/// ```
/// use swaproute::ErrorCode;
/// let status = http::StatusCode::from(ErrorCode::RestrictedAddress.http_status());
/// assert_eq!(status, http::StatusCode::FORBIDDEN);
/// ```
impl From<HttpStatus> for http::StatusCode {
    fn from(status: HttpStatus) -> Self {
        // `HttpStatus` is in 100..=599 and `StatusCode` takes 100..=999, so the
        // fallback is never taken; it keeps the conversion free of panics.
        http::StatusCode::from_u16(status.as_u16())
            .unwrap_or(http::StatusCode::INTERNAL_SERVER_ERROR)
    }
}

/// A `StatusCode` in `100..=599` (the ones [`HttpStatus`] holds).
///
/// ```
/// use swaproute::HttpStatus;
/// assert_eq!(HttpStatus::try_from(http::StatusCode::NOT_FOUND)?.as_u16(), 404);
/// let odd = http::StatusCode::from_u16(799)?;
/// assert!(HttpStatus::try_from(odd).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
impl TryFrom<http::StatusCode> for HttpStatus {
    type Error = ParseError;

    /// # Errors
    /// A [`ParseError`] for a status from 600 to 999.
    fn try_from(status: http::StatusCode) -> Result<Self, Self::Error> {
        HttpStatus::new(status.as_u16())
    }
}
