//! ISO 8601 UTC timestamps as the service writes them.

use alloc::boxed::Box;
use alloc::format;

use crate::parse_error::{Malformed, ParseError, ParseErrorKind};
use crate::time::{EpochMillis, TimeRangeError};

/// An ISO 8601 timestamp (`createdAt`, `updatedAt`), e.g.
/// `2026-07-14T09:30:00.123Z`: `YYYY-MM-DDTHH:MM:SS`, an optional fraction of
/// 1-9 digits, then `Z` or `±HH:MM`. Fields are range-checked (month 1-12,
/// a day that exists in that month of that year, hour 0-23, minute 0-59,
/// second 0-60); the text is kept as sent.
///
/// An instant converts both ways: `Timestamp::try_from(EpochMillis)` writes the
/// live service's form, UTC with milliseconds (`2026-03-11T09:27:16.204Z`),
/// and [`Timestamp::epoch_millis`] reads any accepted form back.
///
/// ```
/// use swaproute::wire::Timestamp;
/// use swaproute::EpochMillis;
/// assert!("2026-07-14T09:30:00.123Z".parse::<Timestamp>().is_ok());
/// assert!("2026-13-01T00:00:00Z".parse::<Timestamp>().is_err());
/// assert!("2026-02-29T00:00:00Z".parse::<Timestamp>().is_err()); // 2026 is not a leap year
///
/// let created = Timestamp::try_from(EpochMillis::new(1_773_221_236_204))?;
/// assert_eq!(created.as_str(), "2026-03-11T09:27:16.204Z");
/// assert_eq!(created.epoch_millis()?, EpochMillis::new(1_773_221_236_204));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Timestamp(Box<str>, i64);

/// The text is not an ISO 8601 timestamp of the accepted form.
/// The message of a text that is not a timestamp.
const NOT_A_TIMESTAMP: &str =
    "not an ISO 8601 timestamp (expected YYYY-MM-DDTHH:MM:SS[.fff](Z|±HH:MM))";

const MILLIS_PER_DAY: i64 = 86_400_000;

impl Timestamp {
    /// The last instant a timestamp can write, `9999-12-31T23:59:59.999Z`.
    pub const LATEST: EpochMillis = crate::time::LATEST;

    /// Validates `text`.
    ///
    /// # Errors
    /// a [`ParseError`] of kind [`Timestamp`](ParseErrorKind::Timestamp) when `text` is not of the accepted form, or names
    /// a day its month does not have (`2026-02-29`, `2026-04-31`).
    pub fn new(text: &str) -> Result<Self, ParseError> {
        match utc_millis(text.as_bytes()) {
            Some(instant) => Ok(Timestamp(text.into(), instant)),
            None => Err(ParseError::new(
                ParseErrorKind::Timestamp,
                text,
                "MALFORMED",
                &NOT_A_TIMESTAMP,
            )),
        }
    }

    /// The text as sent.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The instant, in milliseconds since the Unix epoch. An offset is
    /// applied (`2026-07-14T11:30:00+02:00` is `09:30:00Z`); digits past the
    /// millisecond are dropped (rounded toward the past); a leap second
    /// `23:59:60` reads as the next day's `00:00:00`.
    ///
    /// ```
    /// use swaproute::wire::Timestamp;
    /// let t: Timestamp = "1970-01-01T01:00:00.0019+01:00".parse()?;
    /// assert_eq!(t.epoch_millis()?.as_millis(), 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// A [`ParseError`] of kind [`Instant`](ParseErrorKind::Instant)
    /// (`"BEFORE_EPOCH"`) when the instant is before
    /// `1970-01-01T00:00:00Z`, which [`EpochMillis`] cannot hold.
    pub fn epoch_millis(&self) -> Result<EpochMillis, ParseError> {
        self.epoch_millis_defect()
            .map_err(|error| error.with_text(self.as_str()))
    }

    /// [`epoch_millis`](Self::epoch_millis), with the defect alone.
    fn epoch_millis_defect(&self) -> Result<EpochMillis, TimeRangeError> {
        u64::try_from(self.1)
            .map(EpochMillis::new)
            .map_err(|_| TimeRangeError::BeforeEpoch)
    }
}

/// Writes the instant as the live service does: UTC, milliseconds always
/// written (`1970-01-01T00:00:00.000Z`).
impl TryFrom<EpochMillis> for Timestamp {
    type Error = ParseError;

    /// # Errors
    /// A [`ParseError`] of kind [`Instant`](ParseErrorKind::Instant)
    /// (`"TOO_LATE"`, its text the milliseconds) after
    /// [`Timestamp::LATEST`] (`9999-12-31T23:59:59.999Z`): the form has four
    /// year digits.
    fn try_from(instant: EpochMillis) -> Result<Self, ParseError> {
        Timestamp::from_instant(instant)
            .ok_or(TimeRangeError::TooLate)
            .map_err(|error| error.with_text(&format!("{}", instant.as_millis())))
    }
}

impl Timestamp {
    /// [`Timestamp::try_from`] an instant; `None` after [`Timestamp::LATEST`].
    fn from_instant(instant: EpochMillis) -> Option<Self> {
        if instant > Timestamp::LATEST {
            return None;
        }
        let millis = i64::try_from(instant.as_millis()).ok()?;
        let text = iso_text(millis)?;
        Some(Timestamp(text.into_boxed_str(), millis))
    }
}

impl TryFrom<&Timestamp> for EpochMillis {
    type Error = ParseError;

    /// See [`Timestamp::epoch_millis`].
    fn try_from(timestamp: &Timestamp) -> Result<Self, ParseError> {
        timestamp.epoch_millis()
    }
}

/// `YYYY-MM-DDTHH:MM:SS.mmmZ` for `millis` (0 ≤ millis ≤ `LATEST`).
fn iso_text(millis: i64) -> Option<alloc::string::String> {
    let days = millis.checked_div_euclid(MILLIS_PER_DAY)?;
    let of_day = millis.checked_rem_euclid(MILLIS_PER_DAY)?;
    let (year, month, day) = civil_from_days(days)?;
    let hour = of_day.checked_div(3_600_000)?;
    let minute = of_day.checked_rem(3_600_000)?.checked_div(60_000)?;
    let second = of_day.checked_rem(60_000)?.checked_div(1_000)?;
    let milli = of_day.checked_rem(1_000)?;
    Some(format!(
        "{year:04}-{month:02}-{day:02}T{hour:02}:{minute:02}:{second:02}.{milli:03}Z"
    ))
}

/// `true` for a Gregorian leap year.
fn is_leap(year: i64) -> bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
}

/// Days in `month` (1-12) of `year`.
fn days_in_month(year: i64, month: i64) -> i64 {
    match month {
        2 if is_leap(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days from 1970-01-01 to `year-month-day` of the proleptic Gregorian
/// calendar (H. Hinnant's `days_from_civil`), for years 0 to 9999. The year
/// is shifted by one 400-year era so every intermediate is non-negative.
fn days_from_civil(year: i64, month: i64, day: i64) -> Option<i64> {
    const ERA_DAYS: i64 = 146_097;
    let march_based = i64::from(month <= 2);
    let y = year.checked_add(400)?.checked_sub(march_based)?;
    let era = y.checked_div(400)?;
    let yoe = y.checked_sub(era.checked_mul(400)?)?; // [0, 399]
    let shifted_month = if month > 2 {
        month.checked_sub(3)?
    } else {
        month.checked_add(9)?
    };
    let doy = shifted_month
        .checked_mul(153)?
        .checked_add(2)?
        .checked_div(5)?
        .checked_add(day)?
        .checked_sub(1)?; // [0, 365]
    let doe = yoe
        .checked_mul(365)?
        .checked_add(yoe.checked_div(4)?)?
        .checked_sub(yoe.checked_div(100)?)?
        .checked_add(doy)?; // [0, 146096]
                            // Days from 0000-03-01 (shifted by one era), then from 1970-01-01.
    era.checked_mul(ERA_DAYS)?
        .checked_add(doe)?
        .checked_sub(ERA_DAYS)?
        .checked_sub(719_468)
}

/// The date `days` after 1970-01-01 (H. Hinnant's `civil_from_days`), for
/// `days >= 0`.
fn civil_from_days(days: i64) -> Option<(i64, i64, i64)> {
    const ERA_DAYS: i64 = 146_097;
    let z = days.checked_add(719_468)?;
    let era = z.checked_div(ERA_DAYS)?;
    let doe = z.checked_sub(era.checked_mul(ERA_DAYS)?)?; // [0, 146096]
    let yoe = doe
        .checked_sub(doe.checked_div(1_460)?)?
        .checked_add(doe.checked_div(36_524)?)?
        .checked_sub(doe.checked_div(146_096)?)?
        .checked_div(365)?; // [0, 399]
    let doy = doe.checked_sub(
        yoe.checked_mul(365)?
            .checked_add(yoe.checked_div(4)?)?
            .checked_sub(yoe.checked_div(100)?)?,
    )?; // [0, 365]
    let mp = doy.checked_mul(5)?.checked_add(2)?.checked_div(153)?; // [0, 11]
    let day = doy
        .checked_sub(mp.checked_mul(153)?.checked_add(2)?.checked_div(5)?)?
        .checked_add(1)?;
    let month = if mp < 10 {
        mp.checked_add(3)?
    } else {
        mp.checked_sub(9)?
    };
    let year = yoe
        .checked_add(era.checked_mul(400)?)?
        .checked_add(i64::from(month <= 2))?;
    Some((year, month, day))
}

/// Reads `len` digits at `at` as a number within `range`.
fn number(
    bytes: &[u8],
    at: usize,
    len: usize,
    range: core::ops::RangeInclusive<i64>,
) -> Option<i64> {
    let digits = bytes.get(at..at.checked_add(len)?)?;
    let mut value: i64 = 0;
    for &d in digits {
        if !d.is_ascii_digit() {
            return None;
        }
        value = value
            .checked_mul(10)?
            .checked_add(i64::from(d.wrapping_sub(b'0')))?;
    }
    range.contains(&value).then_some(value)
}

/// Validates the text and returns its instant, milliseconds from the epoch
/// (negative before it).
fn utc_millis(b: &[u8]) -> Option<i64> {
    let separators = [(4, b'-'), (7, b'-'), (10, b'T'), (13, b':'), (16, b':')];
    if !separators.iter().all(|&(at, c)| b.get(at) == Some(&c)) {
        return None;
    }
    let year = number(b, 0, 4, 0..=9999)?;
    let month = number(b, 5, 2, 1..=12)?;
    let day = number(b, 8, 2, 1..=days_in_month(year, month))?;
    let hour = number(b, 11, 2, 0..=23)?;
    let minute = number(b, 14, 2, 0..=59)?;
    let second = number(b, 17, 2, 0..=60)?;
    let mut at = 19;
    let mut millis: i64 = 0;
    if b.get(at) == Some(&b'.') {
        let digits = b
            .iter()
            .skip(at.saturating_add(1))
            .take_while(|d| d.is_ascii_digit())
            .count();
        if !(1..=9).contains(&digits) {
            return None;
        }
        // The first three digits, padded: ".2" is 200 ms, ".2049" is 204 ms.
        for place in 0..3 {
            let digit = match b.get(at.saturating_add(1).saturating_add(place)) {
                Some(d) if place < digits => i64::from(d.wrapping_sub(b'0')),
                _ => 0,
            };
            millis = millis.checked_mul(10)?.checked_add(digit)?;
        }
        at = at.saturating_add(1).saturating_add(digits);
    }
    let offset_minutes = match b.get(at..) {
        Some(b"Z") => 0,
        Some([sign, ..]) if *sign == b'+' || *sign == b'-' => {
            if b.len() != at.saturating_add(6) || b.get(at.saturating_add(3)) != Some(&b':') {
                return None;
            }
            let hours = number(b, at.saturating_add(1), 2, 0..=23)?;
            let minutes = number(b, at.saturating_add(4), 2, 0..=59)?;
            let total = hours.checked_mul(60)?.checked_add(minutes)?;
            if *sign == b'-' {
                total.checked_neg()?
            } else {
                total
            }
        }
        _ => return None,
    };
    // Local time minus its offset is UTC.
    let seconds_of_day = hour
        .checked_mul(3_600)?
        .checked_add(minute.checked_mul(60)?)?
        .checked_add(second)?
        .checked_sub(offset_minutes.checked_mul(60)?)?;
    days_from_civil(year, month, day)?
        .checked_mul(MILLIS_PER_DAY)?
        .checked_add(seconds_of_day.checked_mul(1_000)?)?
        .checked_add(millis)
}

crate::text::boxed_text!(
    Timestamp,
    Timestamp::new,
    ParseError,
    "an ISO 8601 timestamp"
);

#[cfg(test)]
mod tests {
    use super::*;

    const DAY: u64 = 86_400_000;

    fn at(millis: u64) -> String {
        Timestamp::try_from(EpochMillis::new(millis))
            .unwrap()
            .as_str()
            .into()
    }

    fn millis(text: &str) -> Result<u64, TimeRangeError> {
        Timestamp::new(text)
            .unwrap()
            .epoch_millis_defect()
            .map(EpochMillis::as_millis)
    }

    use alloc::string::String;

    /// Dates counted by hand: days = 365 × years + leap days + days of the
    /// months before, × 86 400 000 ms.
    #[test]
    fn writes_epoch_millis_as_the_live_service_does() {
        assert_eq!(at(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(at(1), "1970-01-01T00:00:00.001Z");
        assert_eq!(at(DAY - 1), "1970-01-01T23:59:59.999Z");
        // 1972-02-29: 2 × 365 + 31 + 28 = 789 days (1972 is the first leap year).
        assert_eq!(at(789 * DAY), "1972-02-29T00:00:00.000Z");
        assert_eq!(at(790 * DAY), "1972-03-01T00:00:00.000Z");
        // 2000-03-01: 30 × 365 + 7 leap days (1972..1996) + 31 + 29 = 11017
        // days; 2000 is a leap year (divisible by 400).
        assert_eq!(at(11_017 * DAY - 1), "2000-02-29T23:59:59.999Z");
        // 2100-03-01: 130 × 365 + 32 leap days (1972..2096) + 31 + 28 = 47541
        // days; 2100 is not a leap year (divisible by 100, not 400).
        assert_eq!(at(47_541 * DAY - 1), "2100-02-28T23:59:59.999Z");
        // The live 201's createdAt: 2026-03-11 is 56 × 365 + 14 leap days
        // (1972..2024) + 31 + 28 + 10 = 20523 days; 09:27:16.204 is 34 036 204 ms.
        assert_eq!(at(20_523 * DAY + 34_036_204), "2026-03-11T09:27:16.204Z");
        // 10000-01-01 is 8030 × 365 + 1947 leap days (1972..9996: 2007
        // multiples of 4, less the 80 centuries 2000..9900, plus the 20
        // multiples of 400 2000..9600) = 2932897 days.
        assert_eq!(at(2_932_897 * DAY - 1), "9999-12-31T23:59:59.999Z");
        assert_eq!(Timestamp::LATEST.as_millis(), 2_932_897 * DAY - 1);
    }

    #[test]
    fn refuses_instants_past_year_9999() {
        for past in [2_932_897 * DAY, u64::MAX, i64::MAX as u64 + 1] {
            assert_eq!(
                Timestamp::from_instant(EpochMillis::new(past)),
                None,
                "{past}"
            );
        }
    }

    #[test]
    fn reads_back_every_accepted_form() {
        assert_eq!(millis("1970-01-01T00:00:00Z"), Ok(0));
        assert_eq!(millis("1970-01-01T00:00:00.000Z"), Ok(0));
        assert_eq!(
            millis("2026-03-11T09:27:16.204Z"),
            Ok(20_523 * DAY + 34_036_204)
        );
        // Fractions: padded, then cut to the millisecond (toward the past).
        assert_eq!(millis("1970-01-01T00:00:00.2Z"), Ok(200));
        assert_eq!(millis("1970-01-01T00:00:00.02Z"), Ok(20));
        assert_eq!(millis("1970-01-01T00:00:00.999999999Z"), Ok(999));
        // Offsets: local time minus the offset.
        assert_eq!(millis("1970-01-01T02:00:00+02:00"), Ok(0));
        assert_eq!(millis("1969-12-31T19:30:00-04:30"), Ok(0));
        assert_eq!(millis("1972-02-29T05:30:00+05:30"), Ok(789 * DAY));
        // A leap second is the next day's first second.
        assert_eq!(millis("1970-01-01T23:59:60Z"), Ok(DAY));
        assert_eq!(
            millis("9999-12-31T23:59:59.999Z"),
            Ok(Timestamp::LATEST.as_millis())
        );
        // Past the last Timestamp it can write, but still an instant.
        assert_eq!(
            millis("9999-12-31T23:59:59-01:00"),
            Ok(2_932_897 * DAY + 3_599_000)
        );
    }

    #[test]
    fn before_the_epoch_is_out_of_range() {
        for early in [
            "1969-12-31T23:59:59.999Z",
            "1970-01-01T00:59:59+01:00",
            "0000-01-01T00:00:00Z",
        ] {
            assert_eq!(millis(early), Err(TimeRangeError::BeforeEpoch), "{early}");
        }
        assert_eq!(millis("1970-01-01T00:00:00-00:01"), Ok(60_000));
    }

    #[test]
    fn round_trips_through_epoch_millis() {
        for instant in [
            0,
            1,
            789 * DAY,
            11_017 * DAY - 1,
            Timestamp::LATEST.as_millis(),
        ] {
            let timestamp = Timestamp::try_from(EpochMillis::new(instant)).unwrap();
            assert_eq!(timestamp.epoch_millis(), Ok(EpochMillis::new(instant)));
            assert_eq!(Timestamp::new(timestamp.as_str()), Ok(timestamp));
        }
    }

    #[test]
    fn calendar_days_are_checked() {
        for ok in [
            "2024-02-29T00:00:00Z",
            "2000-02-29T00:00:00Z",
            "0000-02-29T00:00:00Z",
            "2026-04-30T00:00:00Z",
            "2026-12-31T00:00:00Z",
        ] {
            assert!(Timestamp::new(ok).is_ok(), "{ok}");
        }
        for bad in [
            "2026-02-29T00:00:00Z",
            "2100-02-29T00:00:00Z",
            "1900-02-29T00:00:00Z",
            "2024-02-30T00:00:00Z",
            "2026-04-31T00:00:00Z",
            "2026-06-31T00:00:00Z",
            "2026-09-31T00:00:00Z",
            "2026-11-31T00:00:00Z",
        ] {
            assert_eq!(
                Timestamp::new(bad).map_err(|e| e.kind()),
                Err(ParseErrorKind::Timestamp),
                "{bad}"
            );
        }
    }

    #[test]
    fn accepts_the_service_forms() {
        for ok in [
            "2026-07-14T09:30:00Z",
            "2026-07-14T09:30:00.1Z",
            "2026-07-14T09:30:00.123456789Z",
            "2026-07-14T09:30:00+02:00",
            "2026-07-14T23:59:60-05:30",
        ] {
            assert!(Timestamp::new(ok).is_ok(), "{ok}");
        }
    }

    #[test]
    fn rejects_everything_else() {
        for bad in [
            "",
            "2026-07-14",
            "2026-07-14 09:30:00Z",
            "2026-07-14T09:30:00",
            "2026-00-14T09:30:00Z",
            "2026-07-32T09:30:00Z",
            "2026-07-14T24:00:00Z",
            "2026-07-14T09:60:00Z",
            "2026-07-14T09:30:00.Z",
            "2026-07-14T09:30:00.1234567890Z",
            "2026-07-14T09:30:00+0200",
            // The offset is `±HH:MM`: no other sign, separator or length.
            "2026-07-14T09:30:00*02:00",
            "2026-07-14T09:30:00 02:00",
            "2026-07-14T09:30:00+02-00",
            "2026-07-14T09:30:00+02:000",
            "2026-07-14T09:30:00Zjunk",
            "２026-07-14T09:30:00Z",
        ] {
            assert_eq!(
                Timestamp::new(bad).map_err(|e| e.kind()),
                Err(ParseErrorKind::Timestamp),
                "{bad}"
            );
        }
    }
}
