//! ISO 8601 UTC timestamps as the service writes them.

use alloc::boxed::Box;

/// An ISO 8601 timestamp (`createdAt`, `updatedAt`), e.g.
/// `2026-07-14T09:30:00.123Z`: `YYYY-MM-DDTHH:MM:SS`, an optional fraction of
/// 1-9 digits, then `Z` or `±HH:MM`. Fields are range-checked (month 1-12,
/// day 1-31, hour 0-23, minute 0-59, second 0-60); the text is kept as sent.
///
/// ```
/// use swaproute::order::Timestamp;
/// assert!("2026-07-14T09:30:00.123Z".parse::<Timestamp>().is_ok());
/// assert!("2026-13-01T00:00:00Z".parse::<Timestamp>().is_err());
/// ```
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Timestamp(Box<str>);

/// The text is not an ISO 8601 timestamp of the accepted form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("not an ISO 8601 timestamp (expected YYYY-MM-DDTHH:MM:SS[.fff](Z|±HH:MM))")]
pub struct InvalidTimestamp;

impl Timestamp {
    /// Validates `text`.
    ///
    /// # Errors
    /// [`InvalidTimestamp`] when `text` is not of the accepted form.
    pub fn new(text: &str) -> Result<Self, InvalidTimestamp> {
        if valid(text.as_bytes()) {
            Ok(Timestamp(text.into()))
        } else {
            Err(InvalidTimestamp)
        }
    }

    /// The text as sent.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Reads `len` digits at `at` as a number within `range`.
fn number(
    bytes: &[u8],
    at: usize,
    len: usize,
    range: core::ops::RangeInclusive<u32>,
) -> Option<u32> {
    let digits = bytes.get(at..at.checked_add(len)?)?;
    let mut value: u32 = 0;
    for &d in digits {
        if !d.is_ascii_digit() {
            return None;
        }
        value = value
            .checked_mul(10)?
            .checked_add(u32::from(d.wrapping_sub(b'0')))?;
    }
    range.contains(&value).then_some(value)
}

fn valid(b: &[u8]) -> bool {
    let separators = [(4, b'-'), (7, b'-'), (10, b'T'), (13, b':'), (16, b':')];
    let date_time = separators.iter().all(|&(at, c)| b.get(at) == Some(&c))
        && number(b, 0, 4, 0..=9999).is_some()
        && number(b, 5, 2, 1..=12).is_some()
        && number(b, 8, 2, 1..=31).is_some()
        && number(b, 11, 2, 0..=23).is_some()
        && number(b, 14, 2, 0..=59).is_some()
        && number(b, 17, 2, 0..=60).is_some();
    if !date_time {
        return false;
    }
    let mut at = 19;
    if b.get(at) == Some(&b'.') {
        let digits = b
            .iter()
            .skip(at.saturating_add(1))
            .take_while(|d| d.is_ascii_digit())
            .count();
        if !(1..=9).contains(&digits) {
            return false;
        }
        at = at.saturating_add(1).saturating_add(digits);
    }
    match b.get(at..) {
        Some(b"Z") => true,
        Some([sign, ..]) if *sign == b'+' || *sign == b'-' => {
            b.len() == at.saturating_add(6)
                && b.get(at.saturating_add(3)) == Some(&b':')
                && number(b, at.saturating_add(1), 2, 0..=23).is_some()
                && number(b, at.saturating_add(4), 2, 0..=59).is_some()
        }
        _ => false,
    }
}

crate::text::boxed_text!(
    Timestamp,
    Timestamp::new,
    InvalidTimestamp,
    "an ISO 8601 timestamp"
);

#[cfg(test)]
mod tests {
    use super::*;

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
            "2026-07-14T09:30:00Zjunk",
            "２026-07-14T09:30:00Z",
        ] {
            assert_eq!(Timestamp::new(bad), Err(InvalidTimestamp), "{bad}");
        }
    }
}
