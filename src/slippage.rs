//! Slippage: a percentage from 0 to 100 inclusive, default 2.

use core::fmt;

use rust_decimal::Decimal;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::decimal::DecimalError;
use crate::decimal::WireNumber;
use crate::error::{ApiError, ErrorCode};

/// The slippage a client tolerates, in percent: `0` to `100` inclusive
/// (ruling 11 in docs/RULES.md; V4 spec: "accepts `slippage` as a percentage from 0 to
/// 100"). Absent means [`Slippage::DEFAULT`], 2 percent.
///
/// Decoded from a JSON number or numeric string; encoded as a JSON number.
/// Stored normalized, so `2`, `2.0` and `"2.00"` are the same slippage.
///
/// ```
/// use swaproute::Slippage;
/// use swaproute::Decimal;
/// assert_eq!(Slippage::default().percent(), Decimal::TWO);
/// assert!(Slippage::new(Decimal::ONE_HUNDRED).is_ok());
/// assert!(Slippage::new(Decimal::new(1001, 1)).is_err()); // 100.1
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Slippage(Decimal);

/// Why a value is not a slippage. Maps to `INVALID_REQUEST` naming `slippage`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum InvalidSlippage {
    /// The value is not a decimal number.
    #[error("slippage is not a decimal number: {0}")]
    Malformed(DecimalError),
    /// The value is outside `0..=100`.
    #[error("slippage must be a percentage from 0 to 100, got {0}")]
    OutOfRange(Decimal),
}

impl From<InvalidSlippage> for ApiError {
    /// `INVALID_REQUEST`, naming the field.
    fn from(error: InvalidSlippage) -> Self {
        ApiError::new(ErrorCode::InvalidRequest, alloc::format!("{error}"))
    }
}

impl Slippage {
    /// 2 percent, used when a request has no `slippage`.
    pub const DEFAULT: Slippage = Slippage(Decimal::TWO);
    /// The smallest slippage, 0 percent.
    pub const MIN: Slippage = Slippage(Decimal::ZERO);
    /// The largest slippage, 100 percent.
    pub const MAX: Slippage = Slippage(Decimal::ONE_HUNDRED);

    /// A slippage of `percent`.
    ///
    /// # Errors
    /// [`InvalidSlippage::OutOfRange`] unless `0 <= percent <= 100`.
    pub fn new(percent: Decimal) -> Result<Self, InvalidSlippage> {
        if percent < Decimal::ZERO || percent > Decimal::ONE_HUNDRED {
            Err(InvalidSlippage::OutOfRange(percent))
        } else {
            // `-0` is zero; one representation per value.
            Ok(Slippage(if percent.is_zero() {
                Decimal::ZERO
            } else {
                percent.normalize()
            }))
        }
    }

    /// The slippage of a request field: absent means [`Slippage::DEFAULT`].
    ///
    /// # Errors
    /// [`InvalidSlippage`] when the value is malformed or out of range.
    pub fn from_wire(value: Option<WireNumber>) -> Result<Self, InvalidSlippage> {
        match value {
            None => Ok(Slippage::DEFAULT),
            Some(number) => Slippage::new(number.value().map_err(InvalidSlippage::Malformed)?),
        }
    }

    /// The percentage.
    pub const fn percent(self) -> Decimal {
        self.0
    }
}

impl Default for Slippage {
    fn default() -> Self {
        Slippage::DEFAULT
    }
}

impl fmt::Display for Slippage {
    /// The percentage followed by `%`, e.g. `2%`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}%", self.0)
    }
}

impl Serialize for Slippage {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        crate::decimal::serde::number::serialize(&self.0, serializer)
    }
}

impl<'de> Deserialize<'de> for Slippage {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = WireNumber::deserialize(deserializer)?;
        Slippage::from_wire(Some(value)).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn displays_as_a_percentage() {
        assert_eq!(Slippage::DEFAULT.to_string(), "2%");
        let half = Slippage::new(Decimal::new(5, 1)).map(|s| s.to_string());
        assert_eq!(half.as_deref(), Ok("0.5%"));
    }
}
