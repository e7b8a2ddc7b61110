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

/// `a × b` as `(high, low)` 128-bit halves.
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

/// `⌊(high × 2^128 + low) / d⌋`, or `None` when `d` is zero or the quotient
/// does not fit a `u128` (`high >= d`).
///
/// Knuth's algorithm D in base 2^64 (Hacker's Delight's `divlu`, one size
/// up): the divisor shifted until its top bit is set, then two quotient
/// digits, each estimated from the divisor's high digit and corrected at
/// most twice.
pub(crate) fn div_wide(high: u128, low: u128, d: u128) -> Option<u128> {
    if d == 0 || high >= d {
        return None;
    }
    if high == 0 {
        return low.checked_div(d);
    }
    let shift = d.leading_zeros();
    let d = d << shift;
    // `high < d` before the shift, so the shifted high half still fits.
    let (high, low) = if shift == 0 {
        (high, low)
    } else {
        // `0 < shift < 128` here (`d` is not zero).
        (
            (high << shift) | (low >> 128u32.wrapping_sub(shift)),
            low << shift,
        )
    };
    let (q1, rest) = div_digit(high, low >> 64, d)?;
    let (q0, _) = div_digit(rest, low & LOW64, d)?;
    Some((q1 << 64) | q0)
}

/// The low 64 bits of a `u128`.
const LOW64: u128 = u64::MAX as u128;

/// One quotient digit of [`div_wide`]: `⌊(u × 2^64 + digit) / d⌋` and the
/// remainder, for a normalized `d` (top bit set), `u < d` and `digit <
/// 2^64`; the quotient is then below 2^64.
fn div_digit(u: u128, digit: u128, d: u128) -> Option<(u128, u128)> {
    let (d1, d0) = (d >> 64, d & LOW64);
    let mut q = u.checked_div(d1)?;
    let mut r = u.checked_rem(d1)?;
    // The estimate is at most two too large (Knuth, Theorem 4.3.1B).
    while q > LOW64 || q.checked_mul(d0)? > ((r << 64) | digit) {
        q = q.checked_sub(1)?;
        r = r.checked_add(d1)?;
        if r > LOW64 {
            break;
        }
    }
    // The true remainder is below `d`: computed modulo 2^128 it is exact.
    let rest = ((u << 64) | digit).wrapping_sub(q.wrapping_mul(d));
    Some((q, rest))
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

    /// `⌊n / d⌋` by restoring binary long division, one bit at a time: the
    /// oracle for [`div_wide`], sharing no code with it.
    fn div_by_bits(high: u128, low: u128, d: u128) -> Option<u128> {
        if d == 0 {
            return None;
        }
        let (mut rest, mut q) = (0u128, 0u128);
        for bit in (0..256).rev() {
            let next = if bit >= 128 {
                (high >> (bit - 128)) & 1
            } else {
                (low >> bit) & 1
            };
            let carry = rest >> 127;
            rest = (rest << 1) | next;
            if carry == 1 || rest >= d {
                rest = rest.wrapping_sub(d);
                if bit >= 128 {
                    return None;
                }
                q |= 1 << bit;
            }
        }
        Some(q)
    }

    #[test]
    fn wide_division_is_long_division() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || crate::numeric::split_mix(&mut seed);
        let edges = [
            0u128,
            1,
            2,
            3,
            9,
            u128::from(u64::MAX),
            1 << 64,
            (1 << 64) + 1,
            (1 << 126) - 1,
            1 << 127,
            u128::MAX - 1,
            u128::MAX,
        ];
        let mut cases = alloc::vec::Vec::new();
        for &a in &edges {
            for &b in &edges {
                for &d in &edges {
                    cases.push((a, b, d));
                }
            }
        }
        for _ in 0..100_000 {
            let word = |w: u64, bits: u64| {
                let v = (u128::from(w) << 64) | u128::from(w.rotate_left(17) ^ 0x5555);
                v >> (bits % 128)
            };
            let (r1, r2, r3, r4) = (next(), next(), next(), next());
            let d = word(r3, r4).max(1);
            // Mostly quotients that fit: a high half below the divisor.
            let high = if r4 % 8 == 0 {
                word(r1, r4 >> 8)
            } else {
                word(r1, r4 >> 8) % d
            };
            cases.push((high, word(r2, r1 >> 7), d));
        }
        let mut fitting = 0;
        for (high, low, d) in cases {
            let want = div_by_bits(high, low, d);
            assert_eq!(div_wide(high, low, d), want, "{high} {low} {d}");
            if let Some(q) = want {
                fitting += 1;
                // q × d ≤ n < (q + 1) × d, through the product.
                let (ph, pl) = wide_mul(q, d);
                let (rest_low, borrow) = low.overflowing_sub(pl);
                let rest_high = high.wrapping_sub(ph).wrapping_sub(u128::from(borrow));
                assert_eq!(rest_high, 0, "{high} {low} {d}");
                assert!(rest_low < d, "{high} {low} {d}");
            }
        }
        assert!(fitting > 80_000, "{fitting}");
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
