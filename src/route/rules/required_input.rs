//! The ExactOut required input (ruling 8 in docs/RULES.md): the smallest
//! 8-decimal amount `x` with `x × multiplier ≥ toAmount + minerFee`, what
//! the user must send for exactly `toAmount`. Exact: `Decimal` may round the
//! sum or the quotient, so the answer is found and checked on integers
//! ([`Cover`], the crate's one rounding-up test). The estimator
//! ([`estimate_exact_out`](super::estimate::estimate_exact_out)) builds on it.

use rust_decimal::Decimal;

use crate::decimal::Fixed8;
use crate::numeric::{least_cover8, product_at_least_sum, Cover};
use crate::rate::Rate;

/// [`required_input`], first trying `near` (the request's amount rounded up
/// to 8 places, which an estimate made the answer for its best rate): two
/// multiplications check it exactly, and the division is needed only when
/// it is not the answer.
pub(crate) fn required_input_near(
    rate: &Rate,
    to_amount: Decimal,
    near: Option<&Fixed8>,
) -> Option<Fixed8> {
    match near {
        Some(&near) if is_least_cover(rate, to_amount, near) => Some(near),
        _ => required_input(rate, to_amount),
    }
}

/// `near` is the required input: it covers `to_amount` and one unit less does
/// not (two multiplications, exact). An exact sum cannot overflow, so the
/// answer is `near` whenever it is least.
fn is_least_cover(rate: &Rate, to_amount: Decimal, near: Fixed8) -> bool {
    let Some(cover) = Cover::new(rate.multiplier(), to_amount, rate.miner_fee(), 8) else {
        return false;
    };
    let near = near.get();
    cover.sum_fits()
        && !near.is_sign_negative()
        && cover.is_least(near.mantissa().unsigned_abs()) == Some(true)
}

/// `(toAmount + minerFee) / multiplier` rounded up to 8 decimal places,
/// exactly: the smallest 8-decimal amount `x` with
/// `x × multiplier >= toAmount + minerFee`. `None` on overflow.
///
/// `Decimal` may round `toAmount + minerFee` or the quotient (it keeps 28-29
/// significant digits), so the ceiling is checked, and corrected, with an
/// exact wide-integer comparison.
pub(crate) fn required_input(rate: &Rate, to_amount: Decimal) -> Option<Fixed8> {
    let (multiplier, fee) = (rate.multiplier(), rate.miner_fee());
    // `toAmount + minerFee` overflowing `Decimal` is an overflow (ruling 5),
    // whatever the integers below could hold.
    let sum = to_amount.checked_add(fee)?;
    // The common case: the exact ceiling in integers, no division of decimals.
    if let Some(x8) = least_cover8(multiplier, to_amount, fee) {
        let x8 = i128::try_from(x8).ok()?;
        let exact = Decimal::try_from_i128_with_scale(x8, 8).ok()?;
        return Fixed8::ceil(exact).ok();
    }
    // Otherwise: the rounded quotient of the (possibly rounded) sum is a first
    // guess, then the least covering amount is found exactly: gallop away from
    // the guess until the answer is bracketed, then bisect. Every step is one
    // exact comparison; the bracket doubles, so even a guess that `Decimal`'s
    // rounding put many steps off costs a few dozen comparisons.
    let guess = Fixed8::ceil(sum.checked_div(multiplier)?).ok()?;
    let covers = |units: i128| -> Option<bool> {
        let input = Decimal::try_from_i128_with_scale(units, 8).ok()?;
        product_at_least_sum(input, multiplier, to_amount, fee)
    };
    let start = guess.get().mantissa();
    // `low` never covers (or is -1), `high` always covers.
    let (mut low, mut high) = if covers(start)? {
        let mut high = start;
        let mut stride: i128 = 1;
        loop {
            let low = high.checked_sub(stride)?.max(-1);
            if low < 0 || !covers(low)? {
                break (low, high);
            }
            high = low;
            stride = stride.checked_mul(2)?;
        }
    } else {
        let mut low = start;
        let mut stride: i128 = 1;
        loop {
            let high = low.checked_add(stride)?;
            if covers(high)? {
                break (low, high);
            }
            low = high;
            stride = stride.checked_mul(2)?;
        }
    };
    while high.checked_sub(low)? > 1 {
        let mid = low.checked_add(high.checked_sub(low)? / 2)?;
        if covers(mid)? {
            high = mid;
        } else {
            low = mid;
        }
    }
    let exact = Decimal::try_from_i128_with_scale(high, 8).ok()?;
    Fixed8::ceil(exact).ok()
}
