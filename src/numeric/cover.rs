//! The exact "rounding up" test `x × m ≥ c + d` on decimals: whether an
//! amount covers a sum, which `Decimal` cannot answer exactly because it
//! rounds products and sums past 28-29 digits. [`Cover`] is its integer form
//! for many `x` at fixed places (the ExactOut required input searches it);
//! [`product_at_least_sum`] answers one question, in `u128` when the
//! operands fit and on the 512-bit [`Wide`] otherwise.

use rust_decimal::Decimal;

use super::{at_scale, times_pow10, widening_mul, Wide, MANTISSA_LIMIT};

/// `x × multiplier ≥ to + fee` for `x` with `p` decimal places, as
/// integers: `X × divisor ≥ numerator` for `X = x × 10^p`, with the sum's
/// mantissa `N` at scale `S = max(scale to, scale fee)`, the multiplier's
/// mantissa `M` at scale `s` and `e = p + s − S`: `numerator = N × 10^e` and
/// `divisor = M` when `e ≥ 0`, `numerator = N` and `divisor = M × 10^(−e)`
/// otherwise.
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
    pub(crate) fn new(multiplier: Decimal, to: Decimal, fee: Decimal, places: u32) -> Option<Self> {
        // Sign and zero tests, not comparisons (those align scales first).
        if multiplier.is_sign_negative()
            || multiplier.is_zero()
            || to.is_sign_negative()
            || fee.is_sign_negative()
        {
            return None;
        }
        let sum_scale = to.scale().max(fee.scale());
        let sum = at_scale(to, sum_scale)?.checked_add(at_scale(fee, sum_scale)?)?;
        let mantissa = multiplier.mantissa().unsigned_abs();
        let top = multiplier.scale().checked_add(places)?;
        let (numerator, divisor) = if top >= sum_scale {
            (times_pow10(sum, top.checked_sub(sum_scale)?)?, mantissa)
        } else {
            (sum, times_pow10(mantissa, sum_scale.checked_sub(top)?)?)
        };
        Some(Cover {
            numerator,
            divisor,
            sum_fits: sum < MANTISSA_LIMIT,
        })
    }

    /// `to + fee` is exact in `Decimal`.
    pub(crate) fn sum_fits(&self) -> bool {
        self.sum_fits
    }

    /// The smallest `X` that covers: `⌈numerator / divisor⌉`.
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

    /// `x` (the integer `X`) covers the sum; `None` when the product does
    /// not fit.
    #[inline]
    pub(crate) fn covers(&self, x: u128) -> Option<bool> {
        Some(widening_mul(x, self.divisor)? >= self.numerator)
    }

    /// `x` is the smallest that covers (two multiplications, no division);
    /// `None` when a product does not fit.
    pub(crate) fn is_least(&self, x: u128) -> Option<bool> {
        if !self.covers(x)? {
            return Some(false);
        }
        match x.checked_sub(1) {
            Some(below) => Some(!self.covers(below)?),
            None => Some(true),
        }
    }
}

/// The smallest `x` with 8 decimal places and `x × multiplier ≥ to + fee`,
/// as the integer `x × 10^8`, computed exactly (see [`Cover`]); `None` when
/// the integers do not fit.
pub(crate) fn least_cover8(multiplier: Decimal, to: Decimal, fee: Decimal) -> Option<u128> {
    Cover::new(multiplier, to, fee, 8)?.least()
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

/// The common case in `u128`: [`Cover`] with `a`'s places. `None` when an
/// integer does not fit (the wide path decides then). Arguments are
/// non-negative.
fn narrow_product_at_least_sum(a: Decimal, b: Decimal, c: Decimal, d: Decimal) -> Option<bool> {
    if b.is_zero() {
        // `Cover` needs a positive multiplier: 0 ≥ c + d only for c = d = 0.
        return Some(c.is_zero() && d.is_zero());
    }
    Cover::new(b, c, d, a.scale())?.covers(a.mantissa().unsigned_abs())
}

/// [`product_at_least_sum`] on 512-bit integers: never runs out of room for
/// `Decimal` operands. Arguments are non-negative.
fn wide_product_at_least_sum(a: Decimal, b: Decimal, c: Decimal, d: Decimal) -> Option<bool> {
    let product_scale = a.scale().checked_add(b.scale())?;
    let scale = product_scale.max(c.scale()).max(d.scale());
    let product = Wide::at_scale(a, a.scale())?
        .mul_u128(b.mantissa().unsigned_abs())?
        .scaled(scale.checked_sub(product_scale)?)?;
    let sum = Wide::at_scale(c, scale)?.add(Wide::at_scale(d, scale)?)?;
    Some(product >= sum)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(text: &str) -> Decimal {
        text.parse().unwrap()
    }

    #[test]
    fn the_sum_fits_while_its_mantissa_is_below_2_pow_96() {
        // 2^96 − 1 = 79228162514264337593543950335, Decimal's largest mantissa.
        let largest = d("79228162514264337593543950335");
        let fits = |to: Decimal, fee: Decimal| Cover::new(d("1"), to, fee, 0).unwrap().sum_fits();
        assert!(fits(d("1"), d("0.5")));
        assert!(fits(largest - d("1"), d("1")));
        assert!(!fits(largest, d("1")));
        // At scale 1 the mantissas are 10 × the values: 7922816251426433759354395033.5
        // + 0.1 has mantissa 2^96 − 1 + 1 = 2^96.
        assert!(!fits(d("7922816251426433759354395033.5"), d("0.1")));
        assert!(fits(d("7922816251426433759354395033.4"), d("0.1")));
    }

    #[test]
    fn least_cover_is_the_exact_eight_place_ceiling() {
        let values = super::super::samples();
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
                let Some(cover) = Cover::new(m, c, d("0.0002"), 8) else {
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
        let values = super::super::samples();
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
    fn negative_arguments_get_no_answer() {
        assert_eq!(product_at_least_sum(d("-1"), d("1"), d("0"), d("0")), None);
    }
}
