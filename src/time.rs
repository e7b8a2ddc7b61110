//! Time as a parameter: milliseconds since the Unix epoch.

use core::fmt;

use crate::parse_error::{Malformed, ParseErrorKind};

use serde::{Deserialize, Serialize};

/// An instant in milliseconds since the Unix epoch, as the service writes
/// `expiry`. The crate never reads a clock: callers pass `now` in (under
/// `std`, `EpochMillis::try_from(SystemTime::now())` reads it).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct EpochMillis(u64);

impl EpochMillis {
    /// The instant `millis` milliseconds after the epoch.
    pub const fn new(millis: u64) -> Self {
        EpochMillis(millis)
    }

    /// Milliseconds since the epoch.
    pub const fn as_millis(self) -> u64 {
        self.0
    }

    /// `self + millis`, saturating at the far future.
    #[must_use]
    pub const fn saturating_add(self, millis: u64) -> Self {
        EpochMillis(self.0.saturating_add(millis))
    }

    /// `self − millis`, saturating at the epoch.
    #[must_use]
    pub const fn saturating_sub(self, millis: u64) -> Self {
        EpochMillis(self.0.saturating_sub(millis))
    }

    /// Milliseconds from `earlier` to `self`, or `None` when `earlier` is later.
    pub const fn millis_since(self, earlier: EpochMillis) -> Option<u64> {
        self.0.checked_sub(earlier.0)
    }
}

impl From<u64> for EpochMillis {
    fn from(millis: u64) -> Self {
        EpochMillis(millis)
    }
}

impl fmt::Display for EpochMillis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}ms", self.0)
    }
}

/// The last instant an ISO 8601 timestamp writes, `9999-12-31T23:59:59.999Z`
/// ([`Timestamp::LATEST`](crate::wire::Timestamp::LATEST) is this bound).
pub(crate) const LATEST: EpochMillis = EpochMillis::new(253_402_300_799_999);

/// Why an instant cannot be converted: [`EpochMillis`] starts at the Unix
/// epoch, and an ISO 8601 [`Timestamp`](crate::wire::Timestamp) ends with
/// year 9999.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
pub(crate) enum TimeRangeError {
    /// The instant is before `1970-01-01T00:00:00Z`.
    #[error("the instant is before the Unix epoch (1970-01-01T00:00:00Z)")]
    BeforeEpoch,
    /// The instant is after `9999-12-31T23:59:59.999Z`.
    #[error(
        "the instant is after 9999-12-31T23:59:59.999Z, the last an ISO 8601 timestamp writes"
    )]
    TooLate,
}

impl Malformed for TimeRangeError {
    fn kind(&self) -> ParseErrorKind {
        ParseErrorKind::Instant
    }

    fn reason(&self) -> &'static str {
        match self {
            TimeRangeError::BeforeEpoch => "BEFORE_EPOCH",
            TimeRangeError::TooLate => "TOO_LATE",
        }
    }
}

/// The caller's clock reading, to the millisecond (sub-millisecond digits
/// dropped). This is the crate's answer to "`EpochMillis::now()`": the library
/// never reads a clock (it is pure: no IO, no clock), so the caller reads one
/// and converts, `EpochMillis::try_from(SystemTime::now())`.
///
/// ```
/// use std::time::{Duration, SystemTime, UNIX_EPOCH};
/// use swaproute::EpochMillis;
///
/// let now = EpochMillis::try_from(SystemTime::now())?;
/// assert!(now > EpochMillis::new(1_700_000_000_000));
///
/// let then = UNIX_EPOCH + Duration::from_micros(1_773_221_236_204_999);
/// assert_eq!(EpochMillis::try_from(then)?, EpochMillis::new(1_773_221_236_204));
/// # Ok::<(), swaproute::ParseError>(())
/// ```
#[cfg(feature = "std")]
impl TryFrom<std::time::SystemTime> for EpochMillis {
    type Error = crate::parse_error::ParseError;

    /// # Errors
    /// A [`ParseError`](crate::parse_error::ParseError) of kind [`Instant`](ParseErrorKind::Instant)
    /// (`"BEFORE_EPOCH"` for a time before the epoch, `"TOO_LATE"` for one
    /// after `9999-12-31T23:59:59.999Z`; its text the time's `Debug` form)
    /// (a clock that far ahead is broken, and every reading this accepts can
    /// be written as an order's `createdAt`).
    fn try_from(time: std::time::SystemTime) -> Result<Self, Self::Error> {
        system_time(time).map_err(|error| error.with_text(&alloc::format!("{time:?}")))
    }
}

/// [`EpochMillis::try_from`] a `SystemTime`, with the defect alone.
#[cfg(feature = "std")]
fn system_time(time: std::time::SystemTime) -> Result<EpochMillis, TimeRangeError> {
    let since = time
        .duration_since(std::time::UNIX_EPOCH)
        .map_err(|_| TimeRangeError::BeforeEpoch)?;
    let millis = u64::try_from(since.as_millis()).map_err(|_| TimeRangeError::TooLate)?;
    let instant = EpochMillis(millis);
    if instant > LATEST {
        return Err(TimeRangeError::TooLate);
    }
    Ok(instant)
}

#[cfg(test)]
#[cfg(feature = "std")]
mod tests {
    use super::*;
    use std::time::{Duration, UNIX_EPOCH};

    #[test]
    fn from_u64_keeps_the_milliseconds() {
        assert_eq!(
            EpochMillis::from(1_785_000_000_123).as_millis(),
            1_785_000_000_123
        );
        assert_eq!(EpochMillis::from(7), EpochMillis::new(7));
    }

    #[test]
    fn system_time_converts_to_the_millisecond() {
        assert_eq!(EpochMillis::try_from(UNIX_EPOCH), Ok(EpochMillis::new(0)));
        let just_under_a_milli = UNIX_EPOCH + Duration::from_nanos(999_999);
        assert_eq!(
            EpochMillis::try_from(just_under_a_milli),
            Ok(EpochMillis::new(0))
        );
        // 9999-12-31T23:59:59.999Z is 253402300799999 ms after the epoch:
        // 2932897 days (1970-01-01 to 10000-01-01) × 86400000 − 1.
        let last = UNIX_EPOCH + Duration::from_millis(2_932_897 * 86_400_000 - 1);
        assert_eq!(
            EpochMillis::try_from(last),
            Ok(EpochMillis::new(253_402_300_799_999))
        );
        let past_last = last + Duration::from_millis(1);
        assert_eq!(system_time(past_last), Err(TimeRangeError::TooLate));
        let before = UNIX_EPOCH - Duration::from_millis(1);
        assert_eq!(system_time(before), Err(TimeRangeError::BeforeEpoch));
    }
}
