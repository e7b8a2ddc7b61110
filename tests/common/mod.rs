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
pub(crate) mod split_oracle;

use num_bigint::BigInt;
use swaproute::decimal::Decimal;
use swaproute::Amount;

/// A decimal from a test's literal text.
pub(crate) fn d(text: &str) -> Decimal {
    text.parse().unwrap()
}

/// A `BTC_ETH` rate from a test's literal texts, valid until `expiry`.
pub(crate) fn btc_eth_rate(
    id: &str,
    multiplier: &str,
    fee: &str,
    min: &str,
    max: &str,
    expiry: swaproute::EpochMillis,
) -> swaproute::Rate {
    swaproute::Rate::new(
        swaproute::RateId::new(id).unwrap(),
        swaproute::PairId::new("BTC_ETH").unwrap(),
        swaproute::RateTerms {
            multiplier: d(multiplier),
            miner_fee: d(fee),
            min: d(min),
            max: d(max),
        },
        expiry,
    )
}

/// An amount from a test's literal text, by the strict amount grammar.
pub(crate) fn amount(text: &str) -> Amount {
    Amount::parse(text).unwrap()
}

/// `x × m − fee` exactly, as an integer at scale 56 (every amount,
/// multiplier and fee is one there): what ranking compares (ruling 43).
pub(crate) fn exact_value(amount: Decimal, multiplier: Decimal, fee: Decimal) -> BigInt {
    let ten = |e: u32| BigInt::from(10u8).pow(e);
    BigInt::from(amount.mantissa())
        * BigInt::from(multiplier.mantissa())
        * ten(56 - amount.scale() - multiplier.scale())
        - BigInt::from(fee.mantissa()) * ten(56 - fee.scale())
}

/// Whether the exact `x × m − fee` is positive (ruling 43: then never
/// `NO_OUTPUT`, whatever its `Decimal` floor).
pub(crate) fn exact_positive(amount: Decimal, multiplier: Decimal, fee: Decimal) -> bool {
    exact_value(amount, multiplier, fee) > BigInt::from(0u8)
}

/// `x × m − fee` as the engine reports it: the exact value where it fits a
/// `Decimal`, else its floor (toward −∞) at the largest scale ≤ 28 whose
/// mantissa fits 96 bits (ruling 43); `None` only where even scale 0 does
/// not (ruling 35: an intermediate past `Decimal`'s range, the product
/// alone, is no overflow). Big integers, so it shares nothing with the
/// library's wide arithmetic.
pub(crate) fn exact_net(amount: Decimal, multiplier: Decimal, fee: Decimal) -> Option<Decimal> {
    let plain = amount
        .checked_mul(multiplier)
        .and_then(|product| product.checked_sub(fee));
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
        // Toward −∞: a negative value with digits dropped is one unit further.
        let dropped = rest != BigInt::from(0u8);
        let floor = if negative && dropped {
            quotient + 1u8
        } else {
            quotient
        };
        if floor <= max {
            let mantissa = i128::try_from(floor).ok()?;
            let exact =
                Decimal::from_i128_with_scale(if negative { -mantissa } else { mantissa }, scale);
            // Where plain `Decimal` is right (the exact value, no digit
            // dropped), its scale is kept; a floor is at its own scale.
            return Some(match plain {
                Some(plain) if plain == exact && !dropped => plain,
                _ => exact,
            });
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
/// whose product with `m` covers `to + fee`, `⌈(to + fee) × 10^8 / m⌉ / 10^8`
/// on big integers; `None` past `Fixed8`'s range only (ruling 35: `to + fee`
/// past `Decimal`'s range is no overflow by itself) or for `m <= 0`.
pub(crate) fn exact_required_input(m: Decimal, to: Decimal, fee: Decimal) -> Option<Decimal> {
    if m <= Decimal::ZERO {
        return None;
    }
    let ten = |e: u32| BigInt::from(10u8).pow(e);
    let scale = to.scale().max(fee.scale());
    let sum = BigInt::from(to.mantissa()) * ten(scale - to.scale())
        + BigInt::from(fee.mantissa()) * ten(scale - fee.scale());
    // x / 10^8 >= sum / 10^scale / (M / 10^sm)  <=>  x >= sum × 10^(8 + sm) / (M × 10^scale).
    let numerator = sum * ten(8 + m.scale());
    let denominator = BigInt::from(m.mantissa()) * ten(scale);
    let units = (&numerator + &denominator - 1u8) / &denominator;
    let units = i128::try_from(units).ok()?;
    let x = Decimal::try_from_i128_with_scale(units, 8).ok()?;
    debug_assert!(covers(x, m, to, fee));
    Some(x)
}
