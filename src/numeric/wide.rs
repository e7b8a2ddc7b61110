//! Integers wider than `u128`: the 512-bit [`Wide`] for exact decimal
//! comparisons and products, and the full 256-bit product of two `u128`s.

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

/// A non-negative integer of `64 × LIMBS` bits, little-endian limbs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Wide([u64; LIMBS]);

impl Wide {
    pub(crate) fn from_u128(value: u128) -> Self {
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
    pub(crate) fn mul_small(self, factor: u64) -> Option<Self> {
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
    pub(crate) fn scaled(self, exponent: u32) -> Option<Self> {
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
    pub(crate) fn mul_u128(self, factor: u128) -> Option<Self> {
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

    pub(crate) fn add(self, other: Self) -> Option<Self> {
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
    pub(crate) fn sub(self, other: Self) -> Option<Self> {
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
    pub(crate) fn div10(self) -> Option<(Self, u8)> {
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
    pub(crate) fn to_u128(self) -> Option<u128> {
        let (low, high) = self.0.split_at(2);
        if high.iter().any(|&limb| limb != 0) {
            return None;
        }
        let (&l0, &l1) = (low.first()?, low.get(1)?);
        Some((u128::from(l1) << 64) | u128::from(l0))
    }
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

impl Wide {
    /// The magnitude of `value` as an integer at `scale` decimal places
    /// (`scale >= value.scale()`).
    pub(crate) fn at_scale(value: Decimal, scale: u32) -> Option<Wide> {
        let mantissa = value.mantissa().unsigned_abs();
        Wide::from_u128(mantissa).scaled(scale.checked_sub(value.scale())?)
    }
}

/// `a × b` as `(high, low)` 128-bit halves: the tests' oracle for
/// 256-bit products.
#[cfg(test)]
pub(crate) fn wide_mul(a: u128, b: u128) -> (u128, u128) {
    const LOW: u128 = u64::MAX as u128;
    let (a1, a0) = (a >> 64, a & LOW);
    let (b1, b0) = (b >> 64, b & LOW);
    // Each partial product of two 64-bit halves fits a u128.
    let low = a0.wrapping_mul(b0);
    let mid1 = a1.wrapping_mul(b0);
    let mid2 = a0.wrapping_mul(b1);
    let high = a1.wrapping_mul(b1);
    let (mid, mid_carry) = mid1.overflowing_add(mid2);
    let (low, low_carry) = low.overflowing_add(mid << 64);
    let high = high
        .wrapping_add(mid >> 64)
        .wrapping_add(u128::from(mid_carry) << 64)
        .wrapping_add(u128::from(low_carry));
    (high, low)
}

/// `±magnitude / 10^scale` as a `Decimal` at the largest scale, at most 28,
/// whose mantissa fits: rounded toward zero with `toward_zero`, else toward
/// −∞; with `true` when no digit was dropped (the value is exact). `None`
/// past `Decimal`'s range. The one rounding of the exact nets (ruling 43):
/// a single route's and a split's.
pub(crate) fn round_to_decimal(
    mut magnitude: Wide,
    negative: bool,
    mut scale: u32,
    toward_zero: bool,
) -> Option<(Decimal, bool)> {
    let mut dropped = false;
    let mantissa = loop {
        if scale <= super::SCALE {
            if let Some(kept) = magnitude.to_u128() {
                // Toward −∞, a negative value with digits dropped is one
                // unit further from zero.
                let kept = if negative && dropped && !toward_zero {
                    kept.checked_add(1)
                } else {
                    Some(kept)
                };
                if let Some(kept) = kept.filter(|&m| m <= super::MAX_MANTISSA) {
                    break kept;
                }
            }
            if scale == 0 {
                return None;
            }
        }
        let (quotient, digit) = magnitude.div10()?;
        dropped |= digit != 0;
        magnitude = quotient;
        scale = scale.checked_sub(1)?;
    };
    let signed = i128::try_from(mantissa).ok()?;
    let signed = if negative {
        signed.checked_neg()?
    } else {
        signed
    };
    let rounded = Decimal::try_from_i128_with_scale(signed, scale).ok()?;
    Some((rounded, !dropped))
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

    #[test]
    fn scaling_in_chunks_is_scaling_by_ten() {
        let one = Wide::from_u128(7);
        for exponent in 0..60 {
            let by_tens = (0..exponent).try_fold(one, |acc, _| acc.mul_small(10));
            assert_eq!(one.scaled(exponent), by_tens, "{exponent}");
        }
    }

    #[test]
    fn wide_mul_is_the_full_product() {
        let samples = [
            0u128,
            1,
            3,
            u128::from(u64::MAX),
            1 << 64,
            (1 << 126) - 7,
            u128::MAX,
        ];
        for &a in &samples {
            for &b in &samples {
                let (high, low) = wide_mul(a, b);
                assert_eq!(low, a.wrapping_mul(b));
                // Check the high half through 64-bit limbs.
                let limbs = |v: u128| [v & u128::from(u64::MAX), v >> 64];
                let (la, lb) = (limbs(a), limbs(b));
                let mut acc = [0u128; 4];
                for i in 0..2 {
                    for j in 0..2 {
                        let p = la[i] * lb[j];
                        acc[i + j] += p & u128::from(u64::MAX);
                        acc[i + j + 1] += p >> 64;
                    }
                }
                for k in 0..3 {
                    acc[k + 1] += acc[k] >> 64;
                    acc[k] &= u128::from(u64::MAX);
                }
                assert_eq!(high, acc[2] | (acc[3] << 64), "{a} × {b}");
            }
        }
    }
}
