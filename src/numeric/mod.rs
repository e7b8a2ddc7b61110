//! The integer arithmetic under every exact decimal rule, in one place: the
//! constants of `Decimal`'s representation, powers of ten, widening
//! multiplies, the 512-bit integer, and the exact "rounding up" test
//! `a × b ≥ c + d`; putting a slice in a given order (`permute`: one
//! sort of positions shared by the crate's rarer stable sorts); and the
//! float filter in front of the best-route kernel's exact keys (`filter`,
//! the crate's one use of `f64`, with its error bound).
//!
//! A `Decimal` is a 96-bit mantissa and a scale of at most 28. Every rule
//! that must not round (the fast path's keys, the ExactOut required input,
//! the rate book's hull) compares integers built from those parts here.
//! Private to the crate; nothing in it knows about rates or routes.

mod cover;
pub(crate) mod filter;
pub(crate) mod permute;
mod wide;

use rust_decimal::Decimal;

pub(crate) use cover::{least_cover8, product_at_least_sum, Cover};
#[cfg(test)]
pub(crate) use wide::samples;
#[cfg(test)]
pub(crate) use wide::wide_mul;
pub(crate) use wide::{round_to_decimal, Wide};

/// `Decimal`'s largest scale: every decimal is an integer at this scale.
pub(crate) const SCALE: u32 = 28;

/// 2^96: `Decimal`'s mantissas are below it.
pub(crate) const MANTISSA_LIMIT: u128 = 1 << 96;

/// The largest mantissa a `Decimal` holds: 2^96 − 1.
pub(crate) const MAX_MANTISSA: u128 = MANTISSA_LIMIT - 1;

/// 2^126: the fast path's operands (values at scale 28) stay below it, so
/// the difference of any two fits an `i128`.
pub(crate) const OPERAND_LIMIT: u128 = 1 << 126;

/// `10^k` for `k` in `0..=38` (`10^38` is the largest a `u128` holds).
pub(crate) const POW10: [u128; 39] = pow10_table();

// Evaluated at compile time: an index out of range or an overflow would be a
// build error, never a run-time panic.
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
const fn pow10_table() -> [u128; 39] {
    let mut table = [1u128; 39];
    let mut k = 1;
    while k < 39 {
        table[k] = table[k - 1] * 10;
        k += 1;
    }
    table
}

/// `10^k`, or `None` past `10^38`.
#[inline]
pub(crate) fn pow10(k: u32) -> Option<u128> {
    POW10.get(usize::try_from(k).ok()?).copied()
}

/// `a × b`, or `None` past `u128`: one machine multiplication when both fit
/// 64 bits (the usual case here), instead of `u128::checked_mul`'s three and
/// its overflow tests.
#[inline]
pub(crate) fn widening_mul(a: u128, b: u128) -> Option<u128> {
    match (u64::try_from(a), u64::try_from(b)) {
        // A u64 × u64 product always fits a u128.
        (Ok(a), Ok(b)) => Some(u128::from(a).wrapping_mul(u128::from(b))),
        _ => a.checked_mul(b),
    }
}

/// `value × 10^by`, or `None` past `u128`.
#[inline]
pub(crate) fn times_pow10(value: u128, by: u32) -> Option<u128> {
    if by == 0 {
        Some(value)
    } else {
        widening_mul(value, pow10(by)?)
    }
}

/// The magnitude of `value` as an integer at `scale` decimal places
/// (`value × 10^scale`), or `None` when `scale` is below the value's own or
/// the integer does not fit a `u128`.
#[inline]
pub(crate) fn at_scale(value: Decimal, scale: u32) -> Option<u128> {
    times_pow10(
        value.mantissa().unsigned_abs(),
        scale.checked_sub(value.scale())?,
    )
}

/// `value × 10^28` for a non-negative value that fits a `u128`.
#[inline]
pub(crate) fn scaled28(value: Decimal) -> Option<u128> {
    if value.is_sign_negative() && !value.is_zero() {
        return None;
    }
    at_scale(value, SCALE)
}

/// SplitMix64, the unit tests' one generator: the same cases on every run
/// (the unit tests in src/ use no crate beyond the library's own
/// dependencies; the property tests with proptest are in tests/).
#[cfg(test)]
pub(crate) fn split_mix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_constants_are_what_their_names_say() {
        // 2^96 written out, and 10^28 < 2^96 < 10^29.
        assert_eq!(MANTISSA_LIMIT, 79_228_162_514_264_337_593_543_950_336);
        assert_eq!(
            Decimal::MAX.mantissa().unsigned_abs(),
            MAX_MANTISSA,
            "Decimal::MAX's mantissa"
        );
        assert_eq!(SCALE, Decimal::MAX_SCALE);
        assert_eq!(
            pow10(38),
            Some(100_000_000_000_000_000_000_000_000_000_000_000_000)
        );
        assert_eq!(pow10(39), None);
        assert_eq!(
            OPERAND_LIMIT,
            85_070_591_730_234_615_865_843_651_857_942_052_864
        );
    }

    #[test]
    fn widening_and_scaling() {
        assert_eq!(
            widening_mul(u128::from(u64::MAX), u128::from(u64::MAX)),
            Some(u128::MAX - 2 * u128::from(u64::MAX))
        );
        assert_eq!(widening_mul(1 << 64, 1 << 64), None);
        assert_eq!(widening_mul(1 << 64, 3), Some(3 << 64));
        assert_eq!(times_pow10(7, 0), Some(7));
        assert_eq!(times_pow10(7, 3), Some(7000));
        assert_eq!(times_pow10(4, 38), None);
        let d = |s: &str| s.parse::<Decimal>().unwrap();
        assert_eq!(at_scale(d("1.25"), 4), Some(12_500));
        assert_eq!(at_scale(d("1.25"), 1), None);
        assert_eq!(scaled28(d("0.5")), Some(5 * 10u128.pow(27)));
        assert_eq!(scaled28(d("-0.5")), None);
        assert_eq!(scaled28(Decimal::ZERO), Some(0));
    }
}
