//! The exact ExactOut ceiling in integers: the common case of
//! [`required_input`](super::eligibility::required_input) without a
//! `Decimal` division or a correction loop.

use rust_decimal::Decimal;

use super::prepared::{pow10, widening_mul};

/// `x × multiplier ≥ to + fee` for `x` with 8 decimal places, as integers:
/// `x8 × divisor ≥ numerator`, with the sum's mantissa `N` at scale `S =
/// max(scale to, scale fee)`, the multiplier's mantissa `M` at scale `s` and
/// `e = 8 + s − S`: `numerator = N × 10^e` and `divisor = M` when `e ≥ 0`,
/// `numerator = N` and `divisor = M × 10^(−e)` otherwise.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Cover {
    numerator: u128,
    divisor: u128,
    /// `N < 2^96`: `to + fee` is exact in `Decimal` (it cannot overflow).
    sum_fits: bool,
}

impl Cover {
    /// The integer form, or `None` when an intermediate does not fit or an
    /// argument is not as required (`multiplier > 0`, `to, fee ≥ 0`): the
    /// caller then takes the general path.
    pub(crate) fn new(multiplier: Decimal, to: Decimal, fee: Decimal) -> Option<Self> {
        // Sign and zero tests, not comparisons (those align scales first).
        if multiplier.is_sign_negative()
            || multiplier.is_zero()
            || to.is_sign_negative()
            || fee.is_sign_negative()
        {
            return None;
        }
        let sum_scale = to.scale().max(fee.scale());
        let up = |value: u128, by: u32| {
            if by == 0 {
                Some(value)
            } else {
                widening_mul(value, pow10(by)?)
            }
        };
        let sum = up(
            to.mantissa().unsigned_abs(),
            sum_scale.checked_sub(to.scale())?,
        )?
        .checked_add(up(
            fee.mantissa().unsigned_abs(),
            sum_scale.checked_sub(fee.scale())?,
        )?)?;
        let mantissa = multiplier.mantissa().unsigned_abs();
        let top = multiplier.scale().checked_add(8)?;
        let (numerator, divisor) = if top >= sum_scale {
            (up(sum, top.checked_sub(sum_scale)?)?, mantissa)
        } else {
            (sum, up(mantissa, sum_scale.checked_sub(top)?)?)
        };
        Some(Cover {
            numerator,
            divisor,
            sum_fits: sum < 1 << 96,
        })
    }

    /// `to + fee` is exact in `Decimal`.
    pub(crate) fn sum_fits(&self) -> bool {
        self.sum_fits
    }

    /// The smallest `x8` that covers: `⌈numerator / divisor⌉`.
    pub(crate) fn least(&self) -> Option<u128> {
        let (numerator, divisor) = (self.numerator, self.divisor);
        let (quotient, remainder) = match (u64::try_from(numerator), u64::try_from(divisor)) {
            (Ok(narrow_numerator), Ok(narrow_divisor)) => (
                u128::from(narrow_numerator.checked_div(narrow_divisor)?),
                u128::from(narrow_numerator.checked_rem(narrow_divisor)?),
            ),
            _ => (
                numerator.checked_div(divisor)?,
                numerator.checked_rem(divisor)?,
            ),
        };
        quotient.checked_add(u128::from(remainder != 0))
    }

    /// `x8` is the smallest that covers (two multiplications, no division);
    /// `None` when a product does not fit.
    pub(crate) fn is_least(&self, x8: u128) -> Option<bool> {
        let covers = |x: u128| Some(widening_mul(x, self.divisor)? >= self.numerator);
        if !covers(x8)? {
            return Some(false);
        }
        match x8.checked_sub(1) {
            Some(below) => Some(!covers(below)?),
            None => Some(true),
        }
    }
}

/// The smallest `x` with 8 decimal places and `x × multiplier ≥ to + fee`,
/// as the integer `x × 10^8`, computed exactly (see [`Cover`]); `None` when
/// the integers do not fit.
pub(crate) fn least_cover8(multiplier: Decimal, to: Decimal, fee: Decimal) -> Option<u128> {
    Cover::new(multiplier, to, fee)?.least()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decimal::product_at_least_sum;

    fn d(text: &str) -> Decimal {
        text.parse().unwrap()
    }

    #[test]
    fn least_cover_is_the_exact_eight_place_ceiling() {
        let values = crate::decimal::test_samples();
        let step = Decimal::new(1, 8);
        let mut answers = 0usize;
        for &m in values.iter().filter(|m| !m.is_zero()) {
            for &c in values.iter().step_by(2) {
                for &d in values.iter().step_by(9) {
                    let Some(x8) = least_cover8(m, c, d) else {
                        continue;
                    };
                    let Ok(x) = Decimal::try_from_i128_with_scale(x8 as i128, 8) else {
                        continue;
                    };
                    answers += 1;
                    assert_eq!(
                        product_at_least_sum(x, m, c, d),
                        Some(true),
                        "{x} × {m} ≥ {c} + {d}"
                    );
                    if x8 > 0 {
                        let below = x - step;
                        assert_eq!(
                            product_at_least_sum(below, m, c, d),
                            Some(false),
                            "{below} × {m} < {c} + {d}"
                        );
                    }
                }
            }
        }
        assert!(answers > 500, "{answers}");
        // `is_least` agrees with `least` around the answer.
        for &m in values.iter().filter(|m| !m.is_zero()).step_by(3) {
            for &c in values.iter().step_by(4) {
                let Some(cover) = Cover::new(m, c, d("0.0002")) else {
                    continue;
                };
                let Some(x8) = cover.least() else { continue };
                assert_eq!(cover.is_least(x8), Some(true), "{m} {c}");
                if let Some(up) = x8.checked_add(1) {
                    assert_ne!(cover.is_least(up), Some(true), "{m} {c}");
                }
                if x8 > 0 {
                    assert_eq!(cover.is_least(x8 - 1), Some(false), "{m} {c}");
                }
            }
        }
        assert_eq!(
            least_cover8(d("33.1"), d("16.5"), d("0.05")),
            Some(50_000_000)
        );
        assert_eq!(least_cover8(d("3"), d("1"), d("0")), Some(33_333_334));
        assert_eq!(least_cover8(d("0"), d("1"), d("0")), None);
    }
}
