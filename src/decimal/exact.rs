//! `a × b − c` exactly, rounded once to what a `Decimal` holds: the net
//! output where `Decimal`'s own arithmetic would round the product first;
//! and its floor at a number of places (ruling 35 in docs/RULES.md), taken
//! of the exact value, never of a rounded one.

use rust_decimal::Decimal;

use crate::numeric::{Wide, MAX_MANTISSA};

/// `a × b − c` computed exactly and rounded once, half to even, to what a
/// `Decimal` holds: exact whenever the exact value fits (then with the fewest
/// trailing zeros dropped that make it fit), otherwise within half a unit of
/// its last digit. `Decimal`'s own `a × b − c` rounds the product first, which
/// can lose the digits that survive the subtraction. `None` for a negative `a`
/// or `b`, or a value beyond `Decimal`'s range. Kept for tests: the plain
/// net output reports the floor instead (ruling 43, `route::rules::net_output`).
#[cfg(test)]
pub(crate) fn product_minus(a: Decimal, b: Decimal, c: Decimal) -> Option<Decimal> {
    // −0 is refused with the negatives here (`floor_product_minus` takes it as 0).
    if a.is_sign_negative() || b.is_sign_negative() {
        return None;
    }
    let (mut magnitude, negative, mut scale) = exact_difference(a, b, c, 0)?;
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

/// `⌊(a × b − c) × 10^places⌋`, the mantissa of `a × b − c` rounded toward
/// −∞ to `places` decimal places, computed exactly from the operands (ruling
/// 35 in docs/RULES.md): never from a product `Decimal` already rounded.
/// `None` for a negative `a` or `b`, or a result whose magnitude does not
/// fit a `Decimal` mantissa (below 2^96).
pub(crate) fn floor_product_minus(a: Decimal, b: Decimal, c: Decimal, places: u32) -> Option<i128> {
    if a.is_sign_negative() && !a.is_zero() || b.is_sign_negative() && !b.is_zero() {
        return None;
    }
    let (mut magnitude, negative, scale) = exact_difference(a, b, c, places)?;
    // Down to `places`: truncate, remembering whether anything was dropped.
    let mut dropped = false;
    for _ in places..scale {
        let (quotient, digit) = magnitude.div10()?;
        dropped |= digit != 0;
        magnitude = quotient;
    }
    let mut truncated = magnitude.to_u128()?;
    // Toward −∞: a negative value with dropped digits moves one unit away from zero.
    if negative && dropped {
        truncated = truncated.checked_add(1)?;
    }
    if truncated > MAX_MANTISSA {
        return None;
    }
    let signed = i128::try_from(truncated).ok()?;
    if negative {
        signed.checked_neg()
    } else {
        Some(signed)
    }
}

/// `a × b − c` exactly (`a`, `b` non-negative: the callers' check), at
/// the scale `max(a's + b's, c's, at_least)`: its magnitude, whether it is
/// negative, and that scale. A negative `c` adds.
fn exact_difference(
    a: Decimal,
    b: Decimal,
    c: Decimal,
    at_least: u32,
) -> Option<(Wide, bool, u32)> {
    let product_scale = a.scale().checked_add(b.scale())?;
    let scale = product_scale.max(c.scale()).max(at_least);
    let product = Wide::at_scale(a, a.scale())?
        .mul_u128(b.mantissa().unsigned_abs())?
        .scaled(scale.checked_sub(product_scale)?)?;
    let subtrahend = Wide::at_scale(c, scale)?;
    let (magnitude, negative) = if c.is_sign_negative() {
        (product.add(subtrahend)?, false)
    } else if product >= subtrahend {
        (product.sub(subtrahend)?, false)
    } else {
        (subtrahend.sub(product)?, true)
    };
    Some((magnitude, negative, scale))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(text: &str) -> Decimal {
        text.parse().unwrap()
    }

    #[test]
    fn floor_product_minus_refuses_negative_factors() {
        // Only the sign is refused: −0 is 0, and 2 × 3 − 1 = 5 at 8 places.
        assert_eq!(floor_product_minus(d("-2"), d("3"), d("1"), 8), None);
        assert_eq!(floor_product_minus(d("2"), d("-3"), d("1"), 8), None);
        assert_eq!(
            floor_product_minus(d("-0"), d("3"), d("1"), 8),
            Some(-100_000_000)
        );
        assert_eq!(
            floor_product_minus(d("2"), d("3"), d("1"), 8),
            Some(500_000_000)
        );
    }

    #[test]
    fn one_dropped_five_is_a_tie_and_a_five_with_more_behind_is_not() {
        // 1e-28 × 0.5 = 5e-29 needs scale 29: the one digit dropped is a 5 and
        // nothing follows it, a tie that goes to the even 0.
        let unit = d("0.0000000000000000000000000001");
        assert_eq!(
            product_minus(unit, d("0.5"), Decimal::ZERO),
            Some(Decimal::ZERO)
        );
        // 3e-28 × 0.5 = 1.5e-28: the tie goes to the even 2e-28.
        assert_eq!(
            product_minus(unit, d("1.5"), Decimal::ZERO),
            Some(d("0.0000000000000000000000000002"))
        );
        // 51e-28 × 0.01 = 5.1e-29: the 1 dropped first makes the 5 more than
        // half, so 1e-28.
        assert_eq!(
            product_minus(
                d("0.0000000000000000000000000051"),
                d("0.01"),
                Decimal::ZERO
            ),
            Some(unit)
        );
    }

    #[test]
    fn the_floor_is_of_the_exact_value() {
        // Issue 28: 12345678.12345678 × 33.07346643902441 is exactly
        // 408314371.0831456699999999999998; Decimal rounds the product to
        // …56700000 and its floor would be one unit too high.
        let (x, m) = (d("12345678.12345678"), d("33.07346643902441"));
        assert_eq!(
            floor_product_minus(x, m, Decimal::ZERO, 8),
            Some(40_831_437_108_314_566)
        );
        assert_eq!(
            x.checked_mul(m).unwrap(),
            d("408314371.08314567000000000000"),
            "Decimal rounds the product up"
        );
        // Exact values keep their digits; negative ones go toward −∞.
        assert_eq!(
            floor_product_minus(d("0.5"), d("33.1"), d("0.0002"), 8),
            Some(1_654_980_000)
        );
        assert_eq!(
            floor_product_minus(d("1"), d("0.000000001"), d("0.000000002"), 8),
            Some(-1)
        );
        assert_eq!(
            floor_product_minus(d("1"), d("1"), d("1.00000001"), 8),
            Some(-1)
        );
        assert_eq!(floor_product_minus(d("0"), d("1"), d("0"), 8), Some(0));
        // A negative fee adds.
        assert_eq!(floor_product_minus(d("1"), d("1"), d("-0.5"), 0), Some(1));
        // More places than the operands have: scaled up.
        assert_eq!(
            floor_product_minus(d("2"), d("3"), d("0"), 28),
            Some(60_000_000_000_000_000_000_000_000_000)
        );
        // Past a mantissa at 8 places, or a negative factor: none.
        let max = Decimal::MAX;
        assert_eq!(floor_product_minus(max, d("1"), d("0"), 8), None);
        assert_eq!(floor_product_minus(d("-1"), d("1"), d("0"), 8), None);
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

    // The cases below are the same on every run.
    use crate::numeric::split_mix as next;

    /// A number in `1..2^96`: the ends, a power of ten, or uniform in bits
    /// then in value (small mantissas as often as large ones).
    fn mantissa(state: &mut u64) -> u128 {
        match next(state) % 8 {
            0 => 1,
            1 => (1u128 << 96) - 1,
            2 => 10u128.pow(u32::try_from(next(state) % 29).unwrap()),
            _ => {
                let bits = 1 + next(state) % 96;
                let value = (u128::from(next(state)) << 64 | u128::from(next(state)))
                    & ((1u128 << bits) - 1);
                value.max(1)
            }
        }
    }

    /// `Decimal`'s own `checked_sub` rounds as `product_minus` does: half
    /// to even, at the largest scale whose mantissa fits 96 bits. The
    /// plain net output (`route::rules::net_output`) trusts `Decimal`'s
    /// difference of an exact product on this ground; a `rust_decimal`
    /// that rounded otherwise fails here first. 20 000 cases: product in
    /// 1..2^96 at scale 0..=6, fee in 1..2^96 at 1..=22 places more.
    #[test]
    fn decimal_subtraction_rounds_as_product_minus() {
        let mut state = 0x5EED;
        for _ in 0..20_000 {
            let product = mantissa(&mut state);
            let product_scale = u32::try_from(next(&mut state) % 7).unwrap();
            let fee = mantissa(&mut state);
            let extra = 1 + u32::try_from(next(&mut state) % 22).unwrap();
            let fee_scale = product_scale + extra;
            let product =
                Decimal::from_i128_with_scale(i128::try_from(product).unwrap(), product_scale);
            let fee = Decimal::from_i128_with_scale(i128::try_from(fee).unwrap(), fee_scale);
            if let Some(rounded) = product.checked_sub(fee) {
                let exact = product_minus(product, Decimal::ONE, fee).unwrap();
                assert_eq!(
                    (exact.mantissa(), exact.scale()),
                    (rounded.mantissa(), rounded.scale()),
                    "{product} - {fee}"
                );
            }
        }
    }
}
