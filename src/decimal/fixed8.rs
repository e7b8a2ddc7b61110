use core::fmt;

use rust_decimal::{Decimal, RoundingStrategy};
use serde::{Serialize, Serializer};

use super::DecimalError;

/// A decimal rounded *up* (toward +∞) to exactly 8 decimal places, written with
/// all 8: `12.5` → `"12.50000000"`, `0.123456781` → `"0.12345679"`.
///
/// This is the form of ExactOut estimates and required inputs (the spec: "sent
/// as a string with 8 decimal places"). Rounding up guarantees that sending the
/// value delivers at least the requested output.
///
/// ```
/// use swaproute::decimal::{Decimal, Fixed8};
/// let d: Decimal = "0.123456781".parse().unwrap();
/// assert_eq!(Fixed8::ceil(d).unwrap().to_string(), "0.12345679");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Fixed8(Decimal);

impl Fixed8 {
    /// Rounds `value` toward +∞ to 8 decimal places.
    ///
    /// # Errors
    /// [`DecimalError::OutOfRange`] when the rounded value needs more than the 28
    /// significant digits a `Decimal` holds at scale 8 (integer part ≥ ~7.9e20).
    pub fn ceil(value: Decimal) -> Result<Self, DecimalError> {
        let mut rounded = value.round_dp_with_strategy(8, RoundingStrategy::ToPositiveInfinity);
        rounded.rescale(8);
        // `rescale` quietly lowers the scale when the mantissa would overflow;
        // and rounding up can only move a value up, so anything below it is a lie.
        if rounded.scale() == 8 && rounded >= value {
            Ok(Fixed8(rounded))
        } else {
            Err(DecimalError::OutOfRange)
        }
    }

    /// The value (scale 8).
    pub const fn get(self) -> Decimal {
        self.0
    }
}

impl From<Fixed8> for Decimal {
    fn from(value: Fixed8) -> Decimal {
        value.0
    }
}

impl fmt::Display for Fixed8 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl Serialize for Fixed8 {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(&self.0)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    fn ceil(text: &str) -> alloc::string::String {
        Fixed8::ceil(text.parse().unwrap()).unwrap().to_string()
    }

    #[test]
    fn rounds_up_and_writes_eight_decimals() {
        assert_eq!(ceil("12.5"), "12.50000000");
        assert_eq!(ceil("0"), "0.00000000");
        assert_eq!(ceil("1"), "1.00000000");
        assert_eq!(ceil("0.12345678"), "0.12345678");
        assert_eq!(ceil("0.123456781"), "0.12345679");
        assert_eq!(ceil("0.000000001"), "0.00000001");
        assert_eq!(ceil("0.9999999999"), "1.00000000");
        // Toward +inf: negatives move toward zero.
        assert_eq!(ceil("-0.123456789"), "-0.12345678");
    }

    #[test]
    fn too_large_for_eight_places_is_an_error() {
        let big: Decimal = "79228162514264337593543950335".parse().unwrap();
        assert_eq!(Fixed8::ceil(big), Err(DecimalError::OutOfRange));
        let fits: Decimal = "99999999999999999999".parse().unwrap();
        assert_eq!(
            Fixed8::ceil(fits).unwrap().to_string(),
            "99999999999999999999.00000000"
        );
    }
}
