//! Doubles to decimals, through their shortest round-trip text.

use core::fmt::Write;

use rust_decimal::Decimal;

use super::{parse_json_number, DecimalError};

/// The shortest decimal that round-trips `value`: exactly the text a
/// double-based JSON encoder writes for it (`0.1` → `0.1`, not
/// `0.1000000000000000055…`).
///
/// Rust's `Display` for `f64` prints that shortest round-trip text, never in
/// exponent form, so it is written to a stack buffer and parsed exactly. Doubles
/// whose text does not fit the buffer are far outside `Decimal`'s range or
/// precision anyway.
pub(crate) fn decimal_from_f64(value: f64) -> Result<Decimal, DecimalError> {
    if !value.is_finite() {
        return Err(DecimalError::NotFinite);
    }
    let mut text = StackText::default();
    if write!(text, "{value}").is_err() {
        return Err(if value >= 1.0 || value <= -1.0 {
            DecimalError::OutOfRange
        } else {
            DecimalError::TooPrecise
        });
    }
    parse_json_number(text.as_str())
}

/// Enough for any double `Decimal` can hold: 29 integer digits, or 28
/// decimal places after `0.`, plus a sign.
const CAPACITY: usize = 40;

struct StackText {
    buf: [u8; CAPACITY],
    len: usize,
}

impl Default for StackText {
    fn default() -> Self {
        StackText {
            buf: [0; CAPACITY],
            len: 0,
        }
    }
}

impl StackText {
    fn as_str(&self) -> &str {
        self.buf
            .get(..self.len)
            .and_then(|b| core::str::from_utf8(b).ok())
            .unwrap_or("")
    }
}

impl Write for StackText {
    fn write_str(&mut self, s: &str) -> core::fmt::Result {
        let end = self.len.checked_add(s.len()).ok_or(core::fmt::Error)?;
        let slot = self.buf.get_mut(self.len..end).ok_or(core::fmt::Error)?;
        slot.copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn shortest_round_trip_text() {
        let d = |v: f64| decimal_from_f64(v).unwrap().to_string();
        assert_eq!(d(0.1), "0.1");
        assert_eq!(d(33.098_927_169_677_374), "33.098927169677374");
        assert_eq!(d(0.000_191_92), "0.00019192");
        assert_eq!(d(0.0), "0");
        assert_eq!(d(-0.0), "0");
        assert_eq!(d(-2.5), "-2.5");
        assert_eq!(d(1e20), "100000000000000000000");
        assert_eq!(d(1e-7), "0.0000001");
    }

    #[test]
    fn out_of_range_doubles_are_errors() {
        assert_eq!(decimal_from_f64(f64::NAN), Err(DecimalError::NotFinite));
        assert_eq!(
            decimal_from_f64(f64::INFINITY),
            Err(DecimalError::NotFinite)
        );
        assert_eq!(decimal_from_f64(1e300), Err(DecimalError::OutOfRange));
        assert_eq!(decimal_from_f64(1e-300), Err(DecimalError::TooPrecise));
        assert_eq!(decimal_from_f64(1e29), Err(DecimalError::OutOfRange));
    }
}
