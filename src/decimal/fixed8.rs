use core::fmt;

use rust_decimal::{Decimal, RoundingStrategy};
use serde::{Serialize, Serializer};

use super::DecimalError;

/// A decimal rounded to exactly 8 decimal places, written with all 8:
/// `12.5` → `"12.50000000"`.
///
/// Two roundings, each exact and each the right one for its use:
/// - [`Fixed8::ceil`] (toward +∞) for ExactOut estimates and required inputs
///   (the spec: "sent as a string with 8 decimal places"): sending the value
///   delivers at least the requested output. `0.123456781` → `"0.12345679"`.
/// - [`Fixed8::floor`] (toward −∞) for a `toAmount` estimate a client sends
///   in ExactIn: the estimate never promises more than the rate gives.
///   `0.123456789` → `"0.12345678"`.
///
/// ```
/// use swaproute::decimal::{Decimal, Fixed8};
/// let d: Decimal = "0.123456781".parse().unwrap();
/// assert_eq!(Fixed8::ceil(d).unwrap().to_string(), "0.12345679");
/// assert_eq!(Fixed8::floor(d).unwrap().to_string(), "0.12345678");
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

    /// Rounds `value` toward −∞ to 8 decimal places: exact, never up.
    ///
    /// Exact for the `value` given: a net output `Decimal` computed (and may
    /// have rounded up) is floored as it stands; to promise an output use
    /// [`floor_net`](Self::floor_net), the floor of the exact value
    /// (ruling 35 in docs/RULES.md).
    ///
    /// Negative values move away from zero (`-0.123456781` → `-0.12345679`),
    /// as "toward −∞" says; an amount is never negative, so a caller that
    /// floors a difference that can go negative (an output after fees) should
    /// treat a negative result as "nothing".
    ///
    /// ```
    /// use swaproute::decimal::{Decimal, Fixed8};
    /// // An ExactIn toAmount estimate: 0.5 × 33.14218692377834 − 0.00019192.
    /// let net = Decimal::from_str_exact("16.57090154188917")?;
    /// assert_eq!(Fixed8::floor(net)?.to_string(), "16.57090154");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`DecimalError::OutOfRange`] when the rounded value needs more than the 28
    /// significant digits a `Decimal` holds at scale 8 (integer part ≥ ~7.9e20).
    pub fn floor(value: Decimal) -> Result<Self, DecimalError> {
        let mut rounded = value.round_dp_with_strategy(8, RoundingStrategy::ToNegativeInfinity);
        rounded.rescale(8);
        // As in `ceil`: `rescale` lowers the scale when the mantissa would
        // overflow, and rounding down never moves a value up.
        if rounded.scale() == 8 && rounded <= value {
            Ok(Fixed8(rounded))
        } else {
            Err(DecimalError::OutOfRange)
        }
    }

    /// `amount × multiplier − fee` rounded toward −∞ to 8 decimal places,
    /// of the exact value (ruling 35 in docs/RULES.md): what a rate promises
    /// for `amount` (an ExactIn `toAmount` estimate, a chain leg's next
    /// input). [`floor`](Self::floor) of a net output computed in `Decimal`
    /// can be one unit too high, since `Decimal` rounds a product of more
    /// than 28-29 digits (half to even) before it is floored; this never is.
    ///
    /// ```
    /// use swaproute::decimal::{Decimal, Fixed8};
    /// // Exactly 408314371.0831456699999999999998; Decimal's product is
    /// // 408314371.08314567, whose floor would promise 10^-8 too much.
    /// let x = Decimal::from_str_exact("12345678.12345678")?;
    /// let m = Decimal::from_str_exact("33.07346643902441")?;
    /// let promise = Fixed8::floor_net(x, m, Decimal::ZERO)?;
    /// assert_eq!(promise.to_string(), "408314371.08314566");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`DecimalError::Negative`] for a negative `amount` or `multiplier`;
    /// [`DecimalError::OutOfRange`] when the floor needs more than the 28
    /// significant digits a `Decimal` holds at scale 8 (magnitude ≥ ~7.9e20):
    /// the typed overflow of ruling 35.
    pub fn floor_net(
        amount: Decimal,
        multiplier: Decimal,
        fee: Decimal,
    ) -> Result<Self, DecimalError> {
        if amount.is_sign_negative() && !amount.is_zero()
            || multiplier.is_sign_negative() && !multiplier.is_zero()
        {
            return Err(DecimalError::Negative);
        }
        let mantissa = super::exact::floor_product_minus(amount, multiplier, fee, 8)
            .ok_or(DecimalError::OutOfRange)?;
        Decimal::try_from_i128_with_scale(mantissa, 8)
            .map(Fixed8)
            .map_err(|_| DecimalError::OutOfRange)
    }

    /// `value` itself, written with 8 places, when that loses nothing: it
    /// has at most 8 decimal places (by value: `1.500000000` has one) and
    /// fits at scale 8. No rounding, unlike [`ceil`](Self::ceil) and
    /// [`floor`](Self::floor); `TryFrom<Decimal>` and `TryFrom<Amount>`
    /// call it.
    ///
    /// ```
    /// use swaproute::decimal::{Amount, DecimalError, Decimal, Fixed8};
    /// let amount = Amount::parse("0.5")?;
    /// assert_eq!(Fixed8::try_from(amount)?.to_string(), "0.50000000");
    /// let precise = Amount::parse("0.123456789")?;
    /// assert_eq!(Fixed8::try_from(precise), Err(DecimalError::TooManyPlaces));
    /// // And back: a Fixed8 that is not negative is an Amount, value kept.
    /// let back = Amount::try_from(Fixed8::exact(Decimal::new(5, 1))?)?;
    /// assert_eq!(back, amount);
    /// # Ok::<(), DecimalError>(())
    /// ```
    ///
    /// # Errors
    /// [`DecimalError::TooManyPlaces`] for more than 8 decimal places;
    /// [`DecimalError::OutOfRange`] when the value needs more than the 28
    /// significant digits a `Decimal` holds at scale 8 (integer part ≥ ~7.9e20).
    pub fn exact(value: Decimal) -> Result<Self, DecimalError> {
        if value.normalize().scale() > 8 {
            return Err(DecimalError::TooManyPlaces);
        }
        let mut rescaled = value;
        rescaled.rescale(8);
        // `rescale` lowers the scale rather than overflow the mantissa.
        if rescaled.scale() == 8 && rescaled == value {
            Ok(Fixed8(rescaled))
        } else {
            Err(DecimalError::OutOfRange)
        }
    }

    /// The value (scale 8).
    pub const fn get(self) -> Decimal {
        self.0
    }
}

impl TryFrom<Decimal> for Fixed8 {
    type Error = DecimalError;

    /// [`Fixed8::exact`]: no rounding.
    ///
    /// # Errors
    /// As [`Fixed8::exact`].
    fn try_from(value: Decimal) -> Result<Self, Self::Error> {
        Fixed8::exact(value)
    }
}

impl TryFrom<super::Amount> for Fixed8 {
    type Error = DecimalError;

    /// [`Fixed8::exact`] of the amount: no rounding.
    ///
    /// # Errors
    /// As [`Fixed8::exact`].
    fn try_from(amount: super::Amount) -> Result<Self, Self::Error> {
        Fixed8::exact(amount.get())
    }
}

impl TryFrom<Fixed8> for super::Amount {
    type Error = DecimalError;

    /// The same value as an amount (an ExactOut estimate's input is a
    /// `Fixed8`; a request takes an `Amount`).
    ///
    /// # Errors
    /// [`DecimalError::Negative`] for a negative value (a floored
    /// difference can be one).
    fn try_from(value: Fixed8) -> Result<Self, Self::Error> {
        super::Amount::new(value.get())
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
mod tests {
    use super::*;
    use alloc::string::ToString;

    fn ceil(text: &str) -> alloc::string::String {
        Fixed8::ceil(text.parse().unwrap()).unwrap().to_string()
    }

    #[test]
    fn converts_to_its_decimal_at_scale_8() {
        let value = Decimal::from(Fixed8::ceil(Decimal::new(125, 1)).unwrap());
        assert_eq!((value.mantissa(), value.scale()), (1_250_000_000, 8));
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

    fn floor(text: &str) -> alloc::string::String {
        Fixed8::floor(text.parse().unwrap()).unwrap().to_string()
    }

    #[test]
    fn floor_rounds_down_and_writes_eight_decimals() {
        assert_eq!(floor("0.123456789"), "0.12345678");
        assert_eq!(floor("0.12345678"), "0.12345678");
        assert_eq!(floor("0.123456780000000000001"), "0.12345678");
        assert_eq!(floor("12.5"), "12.50000000");
        assert_eq!(floor("0"), "0.00000000");
        assert_eq!(floor("0.000000009"), "0.00000000");
        assert_eq!(floor("0.9999999999"), "0.99999999");
        assert_eq!(floor("97.318645129999"), "97.31864512");
        // Toward -inf: negatives move away from zero.
        assert_eq!(floor("-0.123456781"), "-0.12345679");
        assert_eq!(floor("-0.12345678"), "-0.12345678");
        assert_eq!(floor("-0.000000001"), "-0.00000001");
    }

    #[test]
    fn floor_too_large_for_eight_places_is_an_error() {
        let big: Decimal = "79228162514264337593543950335".parse().unwrap();
        assert_eq!(Fixed8::floor(big), Err(DecimalError::OutOfRange));
        let negative_big: Decimal = "-79228162514264337593543950335".parse().unwrap();
        assert_eq!(Fixed8::floor(negative_big), Err(DecimalError::OutOfRange));
        // 2^96 - 1 = 79228162514264337593543950335: the largest mantissa, so
        // the largest integer part at scale 8 is 792281625142643375935.
        let largest: Decimal = "792281625142643375935.43950335".parse().unwrap();
        assert_eq!(
            Fixed8::floor(largest).unwrap().to_string(),
            "792281625142643375935.43950335"
        );
        let one_past: Decimal = "792281625142643375936".parse().unwrap();
        assert_eq!(Fixed8::floor(one_past), Err(DecimalError::OutOfRange));
        let fits = Decimal::from_str_exact("9999999999999999999.999999999").unwrap();
        assert_eq!(
            Fixed8::floor(fits).unwrap().to_string(),
            "9999999999999999999.99999999"
        );
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
