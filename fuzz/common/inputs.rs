//! Inputs the engine fuzz targets share: decimals from a (mantissa, scale)
//! pair, mostly small, sometimes anything a `Decimal` holds (mantissas to
//! 2^96 − 1, scales to 28), so that ties, overflow and the plain path all
//! happen; and rates built from such numbers.

use arbitrary::Arbitrary;
use swaproute::decimal::{Amount, Decimal};
use swaproute::rate::{Rate, RateTerms};
use swaproute::{EpochMillis, PairId, RateId};

/// Ids from a small alphabet, so that duplicates and ties happen.
pub const IDS: [&str; 6] = ["a", "b", "B", "ab", "a-b", "é"];
/// The fuzzed "now", in milliseconds.
pub const NOW: u64 = 1_785_000_000_000;

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

/// A rate of pair `BTC_ETH` from fuzzed parts: its id picked from [`IDS`], its
/// multiplier, fee, min and max, and its expiry relative to [`NOW`] (ties with
/// `NOW`, which mean expired, are common).
pub fn rate(id: u8, [multiplier, fee, min, max]: [Num; 4], expiry: i8) -> Rate {
    let terms = RateTerms {
        multiplier: multiplier.build(),
        miner_fee: fee.build(),
        min: min.build(),
        max: max.build(),
    };
    let id = RateId::new(IDS[usize::from(id) % IDS.len()]).expect("valid id");
    let expiry = EpochMillis::new(NOW.wrapping_add_signed(i64::from(expiry)));
    Rate::new(
        id,
        PairId::new("BTC_ETH").expect("valid pair"),
        terms,
        expiry,
    )
}
