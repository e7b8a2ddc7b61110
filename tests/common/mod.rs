//! Exact arithmetic for test oracles, on big integers: nothing here shares
//! code with the library's own wide arithmetic.
#![allow(dead_code, clippy::arithmetic_side_effects)]

use swaproute::Decimal;

/// `x × m − fee` as the engine reports it: `None` where `Decimal`'s own
/// arithmetic overflows; otherwise the exact value, rounded once (half to even)
/// at the largest scale ≤ 28 whose mantissa fits 96 bits. Big integers, so it
/// shares nothing with the library's wide arithmetic.
pub(crate) fn exact_net(amount: Decimal, multiplier: Decimal, fee: Decimal) -> Option<Decimal> {
    use num_bigint::BigInt;
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
