use core::fmt;
use core::str::FromStr;

use rust_decimal::Decimal;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::{parse_amount, DecimalError};

/// A non-negative exact amount, as a client sends it (`fromAmount`, `toAmount`).
///
/// Parsed with the strict grammar of [`parse_amount`]; decoded from a JSON
/// string or number (a negative number is refused); encoded as a JSON string.
///
/// ```
/// use swaproute::decimal::Amount;
/// let amount: Amount = "0.5".parse().unwrap();
/// assert_eq!(amount.to_string(), "0.5");
/// assert!("-0.5".parse::<Amount>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Amount(Decimal);

impl Amount {
    /// Zero.
    pub const ZERO: Amount = Amount(Decimal::ZERO);

    /// Wraps a non-negative decimal.
    ///
    /// # Errors
    /// [`DecimalError::Negative`] when `value < 0`.
    pub fn new(value: Decimal) -> Result<Self, DecimalError> {
        if value.is_sign_negative() && !value.is_zero() {
            Err(DecimalError::Negative)
        } else {
            // `-0` and `0` are the same amount; keep one representation.
            Ok(Amount(if value.is_zero() {
                Decimal::ZERO
            } else {
                value
            }))
        }
    }

    /// Parses the strict amount grammar.
    ///
    /// # Errors
    /// See [`parse_amount`].
    pub fn parse(text: &str) -> Result<Self, DecimalError> {
        parse_amount(text).map(Amount)
    }

    /// The value.
    pub const fn get(self) -> Decimal {
        self.0
    }

    /// `true` for zero.
    pub fn is_zero(self) -> bool {
        self.0.is_zero()
    }
}

impl FromStr for Amount {
    type Err = DecimalError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Amount::parse(s)
    }
}

impl TryFrom<Decimal> for Amount {
    type Error = DecimalError;
    fn try_from(value: Decimal) -> Result<Self, Self::Error> {
        Amount::new(value)
    }
}

impl From<Amount> for Decimal {
    fn from(amount: Amount) -> Decimal {
        amount.0
    }
}

impl fmt::Display for Amount {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl Serialize for Amount {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for Amount {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = super::serde::string::deserialize(deserializer)?;
        Amount::new(value).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn converts_from_and_to_decimal() {
        // 0.5 = 5 × 10⁻¹, written from its parts, not parsed.
        let half = Decimal::new(5, 1);
        let amount = Amount::try_from(half).unwrap();
        assert_eq!(amount.to_string(), "0.5");
        assert_eq!(Decimal::from(amount), half);
        assert_eq!(
            Amount::try_from(Decimal::new(-5, 1)),
            Err(DecimalError::Negative)
        );
        // -0.000 is the one zero, 0 (no sign, no scale).
        let mut negative_zero = Decimal::new(0, 3);
        negative_zero.set_sign_negative(true);
        let zero = Decimal::from(Amount::try_from(negative_zero).unwrap());
        assert!(!zero.is_sign_negative());
        assert_eq!(zero.scale(), 0);
    }
}
