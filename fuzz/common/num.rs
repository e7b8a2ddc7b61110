//! Decimal inputs for the engine fuzz targets: a (mantissa, scale) pair,
//! mostly small, sometimes anything a `Decimal` holds (mantissas to 2^96 − 1,
//! scales to 28), so that ties, overflow and the plain path all happen.

use arbitrary::Arbitrary;
use swaproute::decimal::{Amount, Decimal};

/// A decimal from a (mantissa, scale) pair.
#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum Num {
    Small(i16, u8),
    Medium(i64, u8),
    Huge(i128, u8),
}

impl Num {
    /// The decimal (any sign).
    pub fn build(self) -> Decimal {
        let (mantissa, scale) = match self {
            Num::Small(m, s) => (i128::from(m), s % 9),
            Num::Medium(m, s) => (i128::from(m), s % 29),
            Num::Huge(m, s) => (m % (1_i128 << 96), s % 29),
        };
        Decimal::try_from_i128_with_scale(mantissa, u32::from(scale)).expect("in range")
    }

    /// Its absolute value, as an amount.
    pub fn amount(self) -> Amount {
        Amount::new(self.build().abs()).expect("non-negative")
    }
}
