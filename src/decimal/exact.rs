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

/// A non-negative integer of `64 × LIMBS` bits, little-endian limbs.
#[derive(Clone, Copy, PartialEq, Eq)]
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

    /// `self × 10^exponent`, or `None` past the width.
    fn scaled(self, exponent: u32) -> Option<Self> {
        (0..exponent).try_fold(self, |acc, _| acc.mul_small(10))
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
    let product_scale = a.scale().checked_add(b.scale())?;
    let scale = product_scale.max(c.scale()).max(d.scale());
    let product = at_scale(a, a.scale())?
        .mul_u128(b.mantissa().unsigned_abs())?
        .scaled(scale.checked_sub(product_scale)?)?;
    let sum = at_scale(c, scale)?.add(at_scale(d, scale)?)?;
    Some(product >= sum)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
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
    fn negative_arguments_get_no_answer() {
        assert_eq!(product_at_least_sum(d("-1"), d("1"), d("0"), d("0")), None);
    }
}
