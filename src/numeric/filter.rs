//! A float filter with a proven error bound, in front of exact integer
//! keys (issue 35): the one place the crate computes in `f64`.
//!
//! The best-route kernel holds the best exact key so far, `best = net ×
//! 10^28` of a fast-keyed rate. A rate whose multiplier `m` satisfies
//! `x × m × 10^28 < best` (with `x` the amount) cannot reach it: its exact
//! net output is `x × m − fee ≤ x × m` (fees are not negative where this is
//! used), and so is every value the engine gives it (see [`key_floor`]).
//! The kernel tests that with one `u64` comparison per rate, read from an
//! array of 8 bytes per rate, before it reads the rate's 40-byte record:
//!
//! - [`ceiling`], once per rate when the response is built: the bits of an
//!   `f64` at or above `m`;
//! - [`reciprocal`], once per request: `1 / (x × 10^28)` in `f64`;
//! - [`key_floor`], when the held key has risen: the bits of an `f64` below
//!   `best / (x × 10^28)` by a margin, or 0 (nothing is below it) when
//!   `best` is too small for the margin below. One multiplication, no
//!   division, and no call to the 128-bit conversion routines.
//!
//! A positive finite `f64`'s bits order as the `f64` does, so `ceiling(m) <
//! key_floor(best, x28)` proves `m < best / x28` and the rate is passed
//! over; any other answer only means the rate is judged exactly, as before.
//! The filter decides nothing: a wrong bound could only skip a rate, and
//! the kernel checks every skip against the exact verdict in debug builds.
//!
//! # The bound
//! Rust's integer-to-float casts and `f64` arithmetic round to nearest, so
//! each step is off by a factor within `1 ± u`, `u = 2^-53`.
//!
//! - The ceiling: `M` cast once, times `10^-s` (the nearest `f64`, one
//!   rounding) and rounded, gives `m̃` within `m (1 ± 3.01 u)`; times `1 +
//!   2^-50 = 1 + 8 u`, rounded once more, it is at least `m (1 − 3.01 u)(1
//!   + 8 u)(1 − u) > m`.
//! - The reciprocal: `x28` cast, then divided into 1, is within `(1 / x28)
//!   (1 ± 2.01 u)`.
//! - The held key: `best`'s high and low 64 bits are each cast (the high
//!   half times 2^64, exact) and added: within `best (1 ± 2.01 u)`.
//! - The floor: their product, rounded, is within `t (1 + 5.03 u)` of `t =
//!   best / x28`; times `1 − 2^-49 = 1 − 16 u`, rounded, it is at most `t
//!   (1 + 5.03 u)(1 − 16 u)(1 + u) < t (1 − 2^-50)`.
//!
//! So a skipped rate has `x × m × 10^28 < best (1 − 2^-50)`.
//!
//! The plain path's value of a rate is its exact net output rounded once,
//! above it by at most `v / 2^93 + 1/2` in units of `10^-28` (see the
//! kernel's `below_held`): below `best` whenever `best × 2^-50` exceeds
//! `1/2 + best × 2^-93`, which `best ≥ 2^60` guarantees with room to spare.
//! Below 2^60 (a net output under about 10^-10) the floor is 0.
#![allow(
    clippy::float_arithmetic,
    clippy::cast_precision_loss,
    clippy::cast_possible_truncation,
    reason = "the float filter: every rounding is bounded in the module's docs"
)]

/// `1 + 2^-50`, exact in `f64`.
const UP: f64 = 1.0 + 1.0 / 1_125_899_906_842_624.0;
/// `1 − 2^-49`, exact in `f64`.
const DOWN: f64 = 1.0 - 1.0 / 562_949_953_421_312.0;
/// `2^64`, exact in `f64`.
const TWO_64: f64 = 18_446_744_073_709_551_616.0;
/// The smallest held key the floor is computed for (see the module docs).
const LEAST_KEY: u128 = 1 << 60;

/// The bits of an `f64` at or above `mantissa / 10^scale` (`scale` at most
/// 28); `u64::MAX`, above every floor, past that.
pub(crate) fn ceiling(mantissa: u64, scale: u32) -> u64 {
    match usize::try_from(scale).ok().and_then(|s| TENTHS.get(s)) {
        Some(&tenth) => (mantissa as f64 * tenth * UP).to_bits(),
        None => u64::MAX,
    }
}

/// `10^-s` for `s` in `0..=28`, each the `f64` nearest to it (the
/// compiler rounds a literal correctly): one rounding, as a cast would be.
/// Multiplying by it spares a division per rate when a response is built.
const TENTHS: [f64; 29] = [
    1e0, 1e-1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10, 1e-11, 1e-12, 1e-13, 1e-14,
    1e-15, 1e-16, 1e-17, 1e-18, 1e-19, 1e-20, 1e-21, 1e-22, 1e-23, 1e-24, 1e-25, 1e-26, 1e-27,
    1e-28,
];

/// `1 / x28` in `f64` (its bits), for [`key_floor`]; 0 for `x28 = 0`.
pub(crate) fn reciprocal(x28: u128) -> u64 {
    if x28 == 0 {
        return 0;
    }
    (1.0 / x28 as f64).to_bits()
}

/// The bits of an `f64` below `best / x28` (with `reciprocal` the bits of
/// [`reciprocal`]`(x28)`): what a rate's [`ceiling`] must reach to be
/// judged. 0 (every ceiling reaches it) when `best` is below 2^60 or the
/// reciprocal is 0.
#[inline]
pub(crate) fn key_floor(best: i128, reciprocal: u64) -> u64 {
    match u128::try_from(best) {
        Ok(best) if best >= LEAST_KEY && reciprocal != 0 => {
            // Two u64 casts: one instruction each, where a u128 cast is a
            // call. `best >> 64` and the low half both fit a u64.
            let high = u64::try_from(best >> 64).unwrap_or(u64::MAX) as f64;
            let low = (best & u128::from(u64::MAX)) as u64 as f64;
            ((high * TWO_64 + low) * f64::from_bits(reciprocal) * DOWN).to_bits()
        }
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::{ceiling, key_floor as floor_of, reciprocal, LEAST_KEY};
    use crate::numeric::{wide_mul, POW10};

    /// The floor of `best / x28`.
    fn key_floor(best: i128, x28: u128) -> u64 {
        floor_of(best, reciprocal(x28))
    }

    /// Whether `mantissa / 10^scale < best / x28`, exactly: `mantissa ×
    /// x28 < best × 10^scale` on 256-bit products (high, low).
    fn below(mantissa: u64, scale: u32, best: u128, x28: u128) -> bool {
        let pow = POW10[scale as usize];
        wide_mul(u128::from(mantissa), x28) < wide_mul(best, pow)
    }

    /// `v + (v >> 50)` on a 256-bit (high, low) value below 2^254.
    fn with_margin((hi, lo): (u128, u128)) -> (u128, u128) {
        let (shi, slo) = (hi >> 50, (lo >> 50) | (hi << 78));
        let (lo, carry) = lo.overflowing_add(slo);
        (hi + shi + u128::from(carry), lo)
    }

    #[test]
    fn ceilings_and_floors_by_hand() {
        // 1.5 is exact in f64; the ceiling is the next values up, above it.
        let one_and_a_half = ceiling(15, 1);
        assert!(f64::from_bits(one_and_a_half) > 1.5);
        assert!(f64::from_bits(one_and_a_half) < 1.500_000_000_000_01);
        // best / x28 = 1.5 (x = 1): the floor is just below 1.5.
        let x28 = 10u128.pow(28);
        let floor = key_floor(15 * 10i128.pow(27), x28);
        assert!(f64::from_bits(floor) < 1.5);
        assert!(f64::from_bits(floor) > 1.499_999_999_999_99);
        // A multiplier equal to the threshold is not passed over.
        assert!(ceiling(15, 1) >= floor);
        // One a millionth below it is.
        assert!(ceiling(1_499_999, 6) < floor);
        // Nothing held, tiny keys, no amount: nothing is passed over.
        assert_eq!(key_floor(0, x28), 0);
        assert_eq!(key_floor(-5, x28), 0);
        assert_eq!(key_floor((1i128 << 60) - 1, x28), 0);
        assert_ne!(key_floor(1i128 << 60, x28), 0);
        assert_eq!(key_floor(1i128 << 100, 0), 0);
        // A scale past 28 never passes a rate over.
        assert_eq!(ceiling(1, 29), u64::MAX);
        // The table holds the nearest doubles to 10^-s (as the correctly
        // rounded parser reads them), no typo.
        for (s, &tenth) in super::TENTHS.iter().enumerate() {
            let parsed: f64 = alloc::format!("1e-{s}").parse().unwrap();
            assert_eq!(tenth.to_bits(), parsed.to_bits(), "{s}");
        }
    }

    /// A small generator (SplitMix64): the crate's unit tests have no
    /// proptest, and a fixed seed keeps the run the same.
    struct Mix(u64);

    impl Mix {
        fn next(&mut self) -> u64 {
            crate::numeric::split_mix(&mut self.0)
        }

        /// Below `2^bits`, with a random bit length up to `bits` (small
        /// and large values alike).
        fn bits(&mut self, bits: u32) -> u128 {
            let wide = (u128::from(self.next()) << 64) | u128::from(self.next());
            let len = 1 + (self.next() % u64::from(bits)) as u32;
            wide >> (128 - len)
        }
    }

    /// A rate is passed over only when its multiplier is below the
    /// threshold by more than 2^-50 of it, on exact 256-bit products:
    /// `mantissa × x28 + (mantissa × x28 >> 50) < best × 10^scale`.
    #[test]
    fn a_passed_over_rate_is_below_the_key_with_the_margin() {
        let mut mix = Mix(0x5EED_F117);
        let mut skipped = 0;
        for _ in 0..200_000 {
            let mantissa = (mix.bits(64) as u64).max(1);
            let scale = (mix.next() % 29) as u32;
            let best = mix.bits(127).max(LEAST_KEY);
            let x28 = mix.bits(126).max(1);
            if ceiling(mantissa, scale) < key_floor(best as i128, x28) {
                skipped += 1;
                let left = wide_mul(u128::from(mantissa), x28);
                let right = wide_mul(best, POW10[scale as usize]);
                assert!(
                    with_margin(left) < right,
                    "{mantissa}e-{scale} best {best} x28 {x28}"
                );
            }
        }
        // The filter does pass rates over (the test is not vacuous).
        assert!(skipped > 10_000, "{skipped}");
    }

    /// Near the threshold: `best` is the key of a multiplier `m` less a
    /// small fee, so `m` and `m + 1` reach it and are judged; `m − 1` is
    /// passed over only when below, and is once `best` is far enough above.
    #[test]
    fn neighbours_of_the_threshold() {
        let mut mix = Mix(0x0B0E_5EED);
        let mut cases = 0;
        for _ in 0..200_000 {
            let (x, xs) = (mix.bits(40) as u64 + 1, (mix.next() % 13) as u32);
            let (m, ms) = (mix.bits(60) as u64 + 2, (mix.next() % 19) as u32);
            let fee = mix.bits(20);
            if xs + ms > 28 {
                continue;
            }
            let Some(x28) = u128::from(x).checked_mul(POW10[(28 - xs) as usize]) else {
                continue;
            };
            // x × m × 10^28 at the product's scale xs + ms.
            let Some(product28) =
                (u128::from(x) * u128::from(m)).checked_mul(POW10[(28 - xs - ms) as usize])
            else {
                continue;
            };
            let best = product28.saturating_sub(fee);
            if !(LEAST_KEY..1 << 127).contains(&best) {
                continue;
            }
            cases += 1;
            let floor = key_floor(best as i128, x28);
            assert!(ceiling(m, ms) >= floor, "{m}e-{ms} x {x}e-{xs}");
            assert!(ceiling(m + 1, ms) >= floor);
            if ceiling(m - 1, ms) < floor {
                assert!(below(m - 1, ms, best, x28));
            }
            // Twice the key: half the multiplier is far below, passed over.
            if let Some(double) = best.checked_mul(2).filter(|&d| d < 1 << 127) {
                assert!(ceiling(m / 2, ms) < key_floor(double as i128, x28));
            }
        }
        assert!(cases > 50_000, "{cases}");
    }
}
