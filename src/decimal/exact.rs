//! Exact comparison of a decimal product with a decimal sum.
//!
//! `Decimal` keeps at most 28-29 significant digits: `to + fee` or
//! `x × multiplier` can be rounded on the way. Where a promise depends on the
//! exact value (an ExactOut input must deliver at least `toAmount`), the
//! comparison is done here on wide integers instead.

use core::cmp::Ordering;

use rust_decimal::Decimal;

/// Limbs of a [`Wide`] integer: (2^96)² × 10^56 < 2^378 needs six; eight spare.
const LIMBS: usize = 8;

/// The largest power of ten a `u64` holds is `10^19`.
const CHUNK: u32 = 19;

/// `10^k` for `k <= 19`.
fn pow10_u64(k: u32) -> Option<u64> {
    10u64.checked_pow(k)
}

/// `10^k` for `k <= 38`.
fn pow10_u128(k: u32) -> Option<u128> {
    10u128.checked_pow(k)
}

/// A non-negative integer of `64 × LIMBS` bits, little-endian limbs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Wide([u64; LIMBS]);

impl Wide {
    fn from_u128(value: u128) -> Self {
        let mut limbs = [0; LIMBS];
        // Truncation is the point: the low and high halves.
        #[allow(clippy::cast_possible_truncation)]
        {
            limbs[0] = value as u64;
            limbs[1] = (value >> 64) as u64;
        }
        Wide(limbs)
    }

    /// `self × factor`, or `None` past the width.
    fn mul_small(self, factor: u64) -> Option<Self> {
        let mut out = [0u64; LIMBS];
        let mut carry: u128 = 0;
        for (slot, &limb) in out.iter_mut().zip(self.0.iter()) {
            // (2^64 − 1)² + (2^64 − 1) < 2^128: cannot overflow.
            let product = u128::from(limb)
                .wrapping_mul(u128::from(factor))
                .wrapping_add(carry);
            #[allow(clippy::cast_possible_truncation)]
            {
                *slot = product as u64;
            }
            carry = product >> 64;
        }
        (carry == 0).then_some(Wide(out))
    }

    /// `self × 10^exponent`, or `None` past the width: by `10^19` at a time.
    fn scaled(self, exponent: u32) -> Option<Self> {
        let mut acc = self;
        let mut left = exponent;
        while left > 0 {
            let step = left.min(CHUNK);
            acc = acc.mul_small(pow10_u64(step)?)?;
            left = left.checked_sub(step)?;
        }
        Some(acc)
    }

    /// `self × factor` for a factor below 2^96.
    fn mul_u128(self, factor: u128) -> Option<Self> {
        #[allow(clippy::cast_possible_truncation)]
        let (low, high) = (factor as u64, (factor >> 64) as u64);
        let low_part = self.mul_small(low)?;
        let high_part = self.mul_small(high)?.shifted_limb()?;
        low_part.add(high_part)
    }

    /// `self × 2^64`.
    fn shifted_limb(self) -> Option<Self> {
        let (&top, rest) = self.0.split_last()?;
        if top != 0 {
            return None;
        }
        let mut out = [0u64; LIMBS];
        out.get_mut(1..)?.copy_from_slice(rest);
        Some(Wide(out))
    }

    fn add(self, other: Self) -> Option<Self> {
        let mut out = [0u64; LIMBS];
        let mut carry = false;
        for ((slot, &a), &b) in out.iter_mut().zip(self.0.iter()).zip(other.0.iter()) {
            let (sum, c1) = a.overflowing_add(b);
            let (sum, c2) = sum.overflowing_add(u64::from(carry));
            *slot = sum;
            carry = c1 || c2;
        }
        (!carry).then_some(Wide(out))
    }
}

impl Wide {
    /// `self − other` for `self >= other`.
    fn sub(self, other: Self) -> Option<Self> {
        let mut out = [0u64; LIMBS];
        let mut borrow = false;
        for ((slot, &a), &b) in out.iter_mut().zip(self.0.iter()).zip(other.0.iter()) {
            let (diff, b1) = a.overflowing_sub(b);
            let (diff, b2) = diff.overflowing_sub(u64::from(borrow));
            *slot = diff;
            borrow = b1 || b2;
        }
        (!borrow).then_some(Wide(out))
    }

    /// `self / 10` and the remainder.
    fn div10(self) -> Option<(Self, u8)> {
        let mut out = [0u64; LIMBS];
        let mut rest: u128 = 0;
        for (slot, &limb) in out.iter_mut().zip(self.0.iter()).rev() {
            // rest < 10, so (rest << 64 | limb) < 10 × 2^64: the quotient fits a limb.
            let current = (rest << 64) | u128::from(limb);
            #[allow(clippy::cast_possible_truncation)]
            {
                *slot = current.checked_div(10)? as u64;
            }
            rest = current.checked_rem(10)?;
        }
        Some((Wide(out), u8::try_from(rest).ok()?))
    }

    /// The value, when it fits a `u128`.
    fn to_u128(self) -> Option<u128> {
        let (low, high) = self.0.split_at(2);
        if high.iter().any(|&limb| limb != 0) {
            return None;
        }
        let (&l0, &l1) = (low.first()?, low.get(1)?);
        Some((u128::from(l1) << 64) | u128::from(l0))
    }
}

/// The largest mantissa a `Decimal` holds.
const MAX_MANTISSA: u128 = (1 << 96) - 1;

/// `a × b − c` computed exactly and rounded once, half to even, to what a
/// `Decimal` holds: exact whenever the exact value fits (then with the fewest
/// trailing zeros dropped that make it fit), otherwise within half a unit of
/// its last digit. `Decimal`'s own `a × b − c` rounds the product first, which
/// can lose the digits that survive the subtraction. `None` for a negative `a`
/// or `b`, or a value beyond `Decimal`'s range.
pub(crate) fn product_minus(a: Decimal, b: Decimal, c: Decimal) -> Option<Decimal> {
    if a.is_sign_negative() || b.is_sign_negative() {
        return None;
    }
    let product_scale = a.scale().checked_add(b.scale())?;
    let mut scale = product_scale.max(c.scale());
    let product = at_scale(a, a.scale())?
        .mul_u128(b.mantissa().unsigned_abs())?
        .scaled(scale.checked_sub(product_scale)?)?;
    let subtrahend = at_scale(c, scale)?;
    // A negative `c` adds.
    let (mut magnitude, negative) = if c.is_sign_negative() {
        (product.add(subtrahend)?, false)
    } else if product >= subtrahend {
        (product.sub(subtrahend)?, false)
    } else {
        (subtrahend.sub(product)?, true)
    };
    // The largest scale (at most 28) whose correctly rounded value fits:
    // drop digits one at a time, remembering them to round once.
    let mut last_dropped = 0u8;
    let mut dropped_rest_nonzero = false;
    let mantissa = loop {
        if scale <= 28 {
            if let Some(truncated) = magnitude.to_u128() {
                let round_up = last_dropped > 5
                    || (last_dropped == 5 && (dropped_rest_nonzero || truncated % 2 == 1));
                let rounded = if round_up {
                    truncated.checked_add(1)
                } else {
                    Some(truncated)
                };
                if let Some(rounded) = rounded.filter(|&m| m <= MAX_MANTISSA) {
                    break rounded;
                }
            }
        }
        if scale == 0 {
            return None;
        }
        let (quotient, digit) = magnitude.div10()?;
        dropped_rest_nonzero |= last_dropped != 0;
        last_dropped = digit;
        magnitude = quotient;
        scale = scale.checked_sub(1)?;
    };
    let signed = i128::try_from(mantissa).ok()?;
    Decimal::try_from_i128_with_scale(
        if negative {
            signed.checked_neg()?
        } else {
            signed
        },
        scale,
    )
    .ok()
}

impl PartialOrd for Wide {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Wide {
    fn cmp(&self, other: &Self) -> Ordering {
        self.0.iter().rev().cmp(other.0.iter().rev())
    }
}

/// The magnitude of `value` as an integer at `scale` decimal places
/// (`scale >= value.scale()`).
fn at_scale(value: Decimal, scale: u32) -> Option<Wide> {
    let mantissa = value.mantissa().unsigned_abs();
    Wide::from_u128(mantissa).scaled(scale.checked_sub(value.scale())?)
}

/// `a × b ≥ c + d`, exactly. All four must be non-negative; `None` for a
/// negative argument (never a wrong answer).
pub(crate) fn product_at_least_sum(a: Decimal, b: Decimal, c: Decimal, d: Decimal) -> Option<bool> {
    if [a, b, c, d]
        .iter()
        .any(|v| v.is_sign_negative() && !v.is_zero())
    {
        return None;
    }
    narrow_product_at_least_sum(a, b, c, d).or_else(|| wide_product_at_least_sum(a, b, c, d))
}

/// The common case in `u128`: every operand at the common scale fits.
/// `None` when one does not (the wide path decides then). Arguments are
/// non-negative.
fn narrow_product_at_least_sum(a: Decimal, b: Decimal, c: Decimal, d: Decimal) -> Option<bool> {
    let product_scale = a.scale().checked_add(b.scale())?;
    let scale = product_scale.max(c.scale()).max(d.scale());
    let up = |value: u128, from: u32| value.checked_mul(pow10_u128(scale.checked_sub(from)?)?);
    let product = a
        .mantissa()
        .unsigned_abs()
        .checked_mul(b.mantissa().unsigned_abs())?;
    let product = up(product, product_scale)?;
    let sum = up(c.mantissa().unsigned_abs(), c.scale())?
        .checked_add(up(d.mantissa().unsigned_abs(), d.scale())?)?;
    Some(product >= sum)
}

/// [`product_at_least_sum`] on 512-bit integers: never runs out of room for
/// `Decimal` operands. Arguments are non-negative.
fn wide_product_at_least_sum(a: Decimal, b: Decimal, c: Decimal, d: Decimal) -> Option<bool> {
    let product_scale = a.scale().checked_add(b.scale())?;
    let scale = product_scale.max(c.scale()).max(d.scale());
    let product = at_scale(a, a.scale())?
        .mul_u128(b.mantissa().unsigned_abs())?
        .scaled(scale.checked_sub(product_scale)?)?;
    let sum = at_scale(c, scale)?.add(at_scale(d, scale)?)?;
    Some(product >= sum)
}

#[cfg(test)]
/// Decimals of every shape: small, full-width, every scale.
pub(crate) fn samples() -> alloc::vec::Vec<Decimal> {
    let mut out = alloc::vec::Vec::new();
    let mantissas: [u128; 9] = [
        0,
        1,
        7,
        331,
        123_456_789,
        999_999_999_999_999_999,
        18_446_744_073_709_551_615,
        (1 << 96) - 1,
        12_345_678_901_234_567_890_123,
    ];
    for (i, &m) in mantissas.iter().enumerate() {
        for scale in [0u32, 1, 4, 8, 12, 17, 20, 28] {
            // Vary the mantissa a little with the scale, to mix digits.
            let m = m.saturating_sub(u128::from(scale) * (i as u128)) % (1 << 96);
            out.push(Decimal::from_i128_with_scale(m as i128, scale));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(text: &str) -> Decimal {
        text.parse().unwrap()
    }

    #[test]
    fn compares_exactly_where_decimal_rounds() {
        // 100 × 1 vs 100 + 1e-27: Decimal rounds the sum to 100; the truth is "less".
        assert_eq!(
            product_at_least_sum(
                d("100"),
                d("1"),
                d("100"),
                d("0.000000000000000000000000001")
            ),
            Some(false)
        );
        assert_eq!(
            product_at_least_sum(
                d("100.00000001"),
                d("1"),
                d("100"),
                d("0.000000000000000000000000001")
            ),
            Some(true)
        );
        // Equality counts as "at least".
        assert_eq!(
            product_at_least_sum(d("0.5"), d("33.1"), d("16.5"), d("0.05")),
            Some(true)
        );
        assert_eq!(
            product_at_least_sum(d("0.5"), d("33.1"), d("16.5"), d("0.0500001")),
            Some(false)
        );
        // Full-width mantissas at full scale on both sides.
        let big = d("79228162514264337593543950335");
        let tiny = d("0.0000000000000000000000000001");
        assert_eq!(product_at_least_sum(big, big, big, big), Some(true));
        assert_eq!(
            product_at_least_sum(tiny, tiny, tiny, Decimal::ZERO),
            Some(false)
        );
        assert_eq!(
            product_at_least_sum(Decimal::ZERO, big, Decimal::ZERO, Decimal::ZERO),
            Some(true)
        );
    }

    #[test]
    fn narrow_path_agrees_with_the_wide_path() {
        let values = super::samples();
        let mut narrow_answers = 0usize;
        for &a in &values {
            for &b in values.iter().step_by(3) {
                for &c in values.iter().step_by(5) {
                    for &d in values.iter().step_by(7) {
                        let wide = wide_product_at_least_sum(a, b, c, d).unwrap();
                        if let Some(narrow) = narrow_product_at_least_sum(a, b, c, d) {
                            narrow_answers += 1;
                            assert_eq!(narrow, wide, "{a} × {b} ≥ {c} + {d}");
                        }
                        assert_eq!(product_at_least_sum(a, b, c, d), Some(wide));
                    }
                }
            }
        }
        assert!(narrow_answers > 1000, "{narrow_answers}");
    }

    #[test]
    fn scaling_in_chunks_is_scaling_by_ten() {
        let one = Wide::from_u128(7);
        for exponent in 0..60 {
            let by_tens = (0..exponent).try_fold(one, |acc, _| acc.mul_small(10));
            assert_eq!(one.scaled(exponent), by_tens, "{exponent}");
        }
    }

    #[test]
    fn product_minus_is_exact_where_decimal_rounds() {
        // 5e20 × 0.00004 − 2e16 needs 30 digits on the way; Decimal's product rounds.
        let (x, m, fee) = (
            d("500000000000000003086.41972531"),
            d("0.00004"),
            d("20000000000000000"),
        );
        assert_eq!(
            alloc::string::ToString::to_string(&product_minus(x, m, fee).unwrap()),
            "0.1234567890124"
        );
        let rounded = x.checked_mul(m).unwrap().checked_sub(fee).unwrap();
        assert_ne!(rounded, d("0.1234567890124"), "Decimal alone rounds here");
        // Ordinary values agree with Decimal exactly, scale included up to trailing zeros.
        assert_eq!(
            product_minus(d("0.5"), d("33.1"), d("0.0002")).unwrap(),
            d("16.5498")
        );
        assert_eq!(product_minus(d("1"), d("1"), d("2")).unwrap(), d("-1"));
        assert_eq!(
            product_minus(d("0"), d("7"), d("0")).unwrap(),
            Decimal::ZERO
        );
        // More digits than a Decimal holds: rounded once, half to even.
        let tiny = d("0.0000000000000000000000000001");
        assert_eq!(
            product_minus(tiny, tiny, Decimal::ZERO),
            Some(Decimal::ZERO)
        );
        let third = d("0.3333333333333333333333333333");
        // 0.3333…3 (28 places) × 3 − 0.0000…05 (29 places): exactly 0.99999…95, rounds to even.
        assert_eq!(
            product_minus(third, d("3"), d("0.00000000000000000000000000005")).unwrap(),
            d("0.9999999999999999999999999998")
        );
        assert_eq!(
            product_minus(d("0.15"), d("0.1"), Decimal::ZERO).unwrap(),
            d("0.015")
        );
        assert_eq!(product_minus(d("-1"), d("1"), Decimal::ZERO), None);
    }

    #[test]
    fn negative_arguments_get_no_answer() {
        assert_eq!(product_at_least_sum(d("-1"), d("1"), d("0"), d("0")), None);
    }
}
