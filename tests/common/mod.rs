//! Oracles shared by the tests and the fuzz targets: exact arithmetic on big
//! integers (nothing here shares code with the library's own wide arithmetic)
//! the documented order of request errors, and request-body editing.
#![allow(
    dead_code,
    clippy::arithmetic_side_effects,
    clippy::expect_used,
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::panic
)]

pub(crate) mod chain_oracle;
pub(crate) mod json_body;
pub(crate) mod order_priority;

use num_bigint::BigInt;
use swaproute::decimal::{Decimal, Fixed8};
use swaproute::Amount;

/// A decimal from a test's literal text.
pub(crate) fn d(text: &str) -> Decimal {
    text.parse().unwrap()
}

/// An amount from a test's literal text, by the strict amount grammar.
pub(crate) fn amount(text: &str) -> Amount {
    Amount::parse(text).unwrap()
}

/// `x × m − fee` as the engine reports it: `None` where `Decimal`'s own
/// arithmetic overflows; otherwise the exact value, rounded once (half to even)
/// at the largest scale ≤ 28 whose mantissa fits 96 bits. Big integers, so it
/// shares nothing with the library's wide arithmetic.
pub(crate) fn exact_net(amount: Decimal, multiplier: Decimal, fee: Decimal) -> Option<Decimal> {
    let plain = amount.checked_mul(multiplier)?.checked_sub(fee)?;
    let ten = |e: u32| BigInt::from(10u8).pow(e);
    let top = (amount.scale() + multiplier.scale()).max(fee.scale());
    let value = BigInt::from(amount.mantissa())
        * BigInt::from(multiplier.mantissa())
        * ten(top - amount.scale() - multiplier.scale())
        - BigInt::from(fee.mantissa()) * ten(top - fee.scale());
    let negative = value < BigInt::from(0u8);
    let magnitude = if negative { -value } else { value };
    let max = BigInt::from((1u128 << 96) - 1);
    for scale in (0..=top.min(28)).rev() {
        let divisor = ten(top - scale);
        let (quotient, rest) = (&magnitude / &divisor, &magnitude % &divisor);
        let twice = &rest * 2u8;
        let up = twice > divisor || (twice == divisor && &quotient % 2u8 == BigInt::from(1u8));
        let rounded = if up { quotient + 1u8 } else { quotient };
        if rounded <= max {
            let mantissa = i128::try_from(rounded).ok()?;
            let exact =
                Decimal::from_i128_with_scale(if negative { -mantissa } else { mantissa }, scale);
            // Where plain `Decimal` is right, its scale is kept.
            return Some(if plain == exact { plain } else { exact });
        }
    }
    None
}

/// `x × m ≥ to + fee`, exactly (all non-negative).
pub(crate) fn covers(x: Decimal, m: Decimal, to: Decimal, fee: Decimal) -> bool {
    let ten = |e: u32| BigInt::from(10u8).pow(e);
    let product_scale = x.scale() + m.scale();
    let scale = product_scale.max(to.scale()).max(fee.scale());
    let at = |d: Decimal| BigInt::from(d.mantissa()) * ten(scale - d.scale());
    let product =
        BigInt::from(x.mantissa()) * BigInt::from(m.mantissa()) * ten(scale - product_scale);
    product >= at(to) + at(fee)
}

/// The exact ExactOut required input of ruling 8: the least multiple of 1e-8
/// whose product with `m` covers `to + fee`; `None` past `Fixed8`'s range.
/// Starts from `Decimal`'s approximate quotient and walks one step at a time.
pub(crate) fn exact_required_input(m: Decimal, to: Decimal, fee: Decimal) -> Option<Decimal> {
    let step = Decimal::new(1, 8);
    let approximate = to.checked_add(fee)?.checked_div(m)?;
    let mut x = Fixed8::ceil(approximate).ok()?.get();
    let mut walked = 0;
    while !covers(x, m, to, fee) {
        x = x.checked_add(step).filter(|n| n.scale() == 8)?;
        walked += 1;
        assert!(walked < 1000, "Decimal's quotient is off by 1000 steps");
    }
    while x > Decimal::ZERO && covers(x - step, m, to, fee) {
        x -= step;
        walked += 1;
        assert!(walked < 1000, "Decimal's quotient is off by 1000 steps");
    }
    Some(x)
}
