//! Exact values of a split (ruling 43): each leg's net output `x × m − fee`
//! as an integer at [`VALUE_SCALE`] places (8 of the amount and 28 of the
//! multiplier: no digit is ever dropped), their sums, and the one rounding
//! at the end, when a total, a value or a gain is reported as a `Decimal`.
//! A split is compared with the best single route on these exact sums,
//! never on sums of nets already rounded at 28 places.

use core::cmp::Ordering;

use rust_decimal::Decimal;

use super::model::VALUE_SCALE;
use crate::numeric::{round_to_decimal, Wide};
use crate::rate::Rate;
use crate::route::Route;

/// A signed exact value: its magnitude and whether it is below zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Signed {
    magnitude: Wide,
    negative: bool,
}

impl Signed {
    /// A value that is not negative.
    pub(super) fn positive(magnitude: Wide) -> Signed {
        Signed {
            magnitude,
            negative: false,
        }
    }

    /// `a − b`, exactly (`None` never, short of a bug in [`Wide`]).
    pub(super) fn difference(a: Wide, b: Wide) -> Option<Signed> {
        Some(if a >= b {
            Signed::positive(a.sub(b)?)
        } else {
            Signed {
                magnitude: b.sub(a)?,
                negative: true,
            }
        })
    }
}

/// `amount × multiplier − minerFee` of `rate`, exactly, at [`VALUE_SCALE`]
/// places; `None` when it is not positive (no eligible leg's is) or the
/// amount has more than 8 places once its trailing zeros are dropped.
pub(super) fn leg_net(amount: Decimal, rate: &Rate) -> Option<Wide> {
    let amount = amount.normalize();
    let (m, fee) = (rate.multiplier(), rate.miner_fee());
    if amount.is_sign_negative() || m.is_sign_negative() || fee.is_sign_negative() {
        return None;
    }
    let product_scale = amount.scale().checked_add(m.scale())?;
    let product = Wide::from_u128(amount.mantissa().unsigned_abs())
        .mul_u128(m.mantissa().unsigned_abs())?
        .scaled(VALUE_SCALE.checked_sub(product_scale)?)?;
    let net = product.sub(Wide::at_scale(fee, VALUE_SCALE)?)?;
    (net != Wide::from_u128(0)).then_some(net)
}

/// The single route's exact net output (ExactIn: at its `fromAmount`).
pub(super) fn route_net(route: &Route<'_>) -> Option<Wide> {
    leg_net(route.from_amount, route.rate())
}

/// `value` (at `scale` places) as a `Decimal`: the floor (toward −∞) at the
/// largest scale, at most 28, whose mantissa fits; `None` past `Decimal`'s
/// range.
pub(super) fn floor_decimal(value: Signed, scale: u32) -> Option<Decimal> {
    to_decimal(value, scale, false)
}

/// `value` (at `scale` places) as a `Decimal` at the largest scale, at
/// most 28, whose mantissa fits: rounded toward zero with `toward_zero`,
/// else toward −∞.
fn to_decimal(value: Signed, scale: u32, toward_zero: bool) -> Option<Decimal> {
    round_to_decimal(value.magnitude, value.negative, scale, toward_zero)
        .map(|(rounded, _)| rounded)
}

/// `⌊n / d⌋` by long division in decimal digits; `None` for `d = 0`.
fn div_floor(n: Wide, d: Wide) -> Option<Wide> {
    let zero = Wide::from_u128(0);
    if d == zero {
        return None;
    }
    // The most digits the quotient can have: d × 10^k ≤ n.
    let mut top = 0u32;
    while d
        .scaled(top.checked_add(1)?)
        .is_some_and(|shifted| shifted <= n)
    {
        top = top.checked_add(1)?;
    }
    let (mut quotient, mut rest) = (zero, n);
    for k in (0..=top).rev() {
        let shifted = d.scaled(k)?;
        let mut digit = 0u64;
        while rest.cmp(&shifted) != Ordering::Less {
            rest = rest.sub(shifted)?;
            digit = digit.checked_add(1)?;
        }
        quotient = quotient
            .mul_small(10)?
            .add(Wide::from_u128(u128::from(digit)))?;
    }
    Some(quotient)
}

/// The gain of `value` over `single` (both exact, at [`VALUE_SCALE`]) in
/// basis points, `(value − single) / single × 10000`, rounded toward zero to
/// 2 places; `None` for a zero `single` or past `Decimal`'s range.
pub(super) fn gain_bps(value: Signed, single: Wide) -> Option<Decimal> {
    let difference = if value.negative {
        Signed {
            magnitude: value.magnitude.add(single)?,
            negative: true,
        }
    } else {
        Signed::difference(value.magnitude, single)?
    };
    // 10^4 for basis points, 10^2 for the two places kept.
    let scaled = difference.magnitude.mul_small(1_000_000)?;
    let quotient = div_floor(scaled, single)?;
    to_decimal(
        Signed {
            magnitude: quotient,
            negative: difference.negative && quotient != Wide::from_u128(0),
        },
        2,
        true,
    )
}

#[cfg(test)]
mod tests {
    use rust_decimal::Decimal;

    use super::{div_floor, floor_decimal, gain_bps, leg_net, Signed, VALUE_SCALE};
    use crate::numeric::Wide;
    use crate::route::rules::fixtures::{d, rate};

    fn wide(v: u128) -> Wide {
        Wide::from_u128(v)
    }

    /// A leg's exact net is refused (`None`) when any one operand is
    /// negative, whichever it is (no eligible leg has one: each check is
    /// a guard against a caller of the future), and when it is 0; else it
    /// is `amount × multiplier − fee` at 36 places.
    #[test]
    fn leg_nets_are_exact_and_refuse_negative_operands() {
        let at36 = |v: u128| Wide::from_u128(v).scaled(VALUE_SCALE).unwrap();
        // 2 × 30 − 0.5 = 59.5 = 595 × 10^-1.
        assert_eq!(
            leg_net(d("2"), &rate("30", "0.5")),
            Some(at36(595).div10().unwrap().0)
        );
        assert_eq!(leg_net(d("-2"), &rate("30", "0.5")), None, "amount");
        assert_eq!(leg_net(d("2"), &rate("-30", "0.5")), None, "multiplier");
        assert_eq!(leg_net(d("2"), &rate("30", "-0.5")), None, "fee");
        assert_eq!(leg_net(d("1"), &rate("30", "30")), None, "zero net");
    }

    #[test]
    fn long_division_floors() {
        assert_eq!(div_floor(wide(100), wide(7)), Some(wide(14)));
        assert_eq!(div_floor(wide(6), wide(7)), Some(wide(0)));
        assert_eq!(div_floor(wide(7), wide(7)), Some(wide(1)));
        assert_eq!(div_floor(wide(u128::MAX), wide(1)), Some(wide(u128::MAX)));
        assert_eq!(div_floor(wide(5), wide(0)), None);
        // 10^40 / 3 = 3333…3 (40 digits), past a u128 in the middle.
        let n = wide(10u128.pow(20)).mul_u128(10u128.pow(20)).unwrap();
        let q = div_floor(n, wide(3)).unwrap();
        let back = q.mul_small(3).unwrap().add(wide(1)).unwrap();
        assert_eq!(back, n);
    }

    #[test]
    fn floors_toward_minus_infinity_at_28_places() {
        // 1.5 × 10^-29 at 36 places: 15 × 10^6 units → 0 at 28 places;
        // negative → −10^-28.
        let tiny = wide(15_000_000);
        assert_eq!(
            floor_decimal(Signed::positive(tiny), 36),
            Some(Decimal::ZERO)
        );
        let negative = Signed::difference(wide(0), tiny).unwrap();
        assert_eq!(
            floor_decimal(negative, 36),
            Some(Decimal::from_i128_with_scale(-1, 28))
        );
        // Exact values keep every digit: 1.25 at 36 places.
        let exact = wide(125).mul_u128(10u128.pow(34)).unwrap();
        assert_eq!(
            floor_decimal(Signed::positive(exact), 36).map(|d| d.normalize()),
            Some(Decimal::new(125, 2))
        );
    }

    #[test]
    fn gain_rounds_toward_zero_to_two_places() {
        // (3 − 2) / 2 × 10^4 = 5000; (2 − 3) / 3 × 10^4 = −3333.33…
        assert_eq!(
            gain_bps(Signed::positive(wide(3)), wide(2)),
            Some(Decimal::from(5000))
        );
        assert_eq!(
            gain_bps(Signed::positive(wide(2)), wide(3)),
            Some(Decimal::new(-333_333, 2))
        );
        // A negative value: (−1 − 3) / 3 × 10^4 = −13333.33…
        let minus_one = Signed::difference(wide(0), wide(1)).unwrap();
        assert_eq!(
            gain_bps(minus_one, wide(3)),
            Some(Decimal::new(-1_333_333, 2))
        );
        assert_eq!(gain_bps(Signed::positive(wide(3)), wide(0)), None);
    }
}
