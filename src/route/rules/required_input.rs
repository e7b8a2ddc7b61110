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

/// The largest [`Fixed8`] in units of 10^-8: `Decimal`'s largest mantissa.
const LARGEST_UNITS: i128 = 79_228_162_514_264_337_593_543_950_335;

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
/// not (two multiplications, exact). Only asked when `to_amount + fee` fits
/// a `Decimal` mantissa (the usual case); otherwise [`required_input`]
/// answers.
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
/// `x × multiplier >= toAmount + minerFee`, the ceiling of the exact value
/// (ruling 35 in docs/RULES.md). `None` on overflow: only when that ceiling
/// does not fit a [`Fixed8`] (≥ ~7.9e20), never because `toAmount +
/// minerFee` alone is past `Decimal`'s range.
///
/// `Decimal` may round the sum or the quotient (it keeps 28-29 significant
/// digits), so the ceiling is checked, and corrected, with an exact
/// wide-integer comparison.
pub(crate) fn required_input(rate: &Rate, to_amount: Decimal) -> Option<Fixed8> {
    let (multiplier, fee) = (rate.multiplier(), rate.miner_fee());
    // The common case: the exact ceiling in integers, no division of decimals.
    if let Some(x8) = least_cover8(multiplier, to_amount, fee) {
        let x8 = i128::try_from(x8).ok()?;
        let exact = Decimal::try_from_i128_with_scale(x8, 8).ok()?;
        return Fixed8::ceil(exact).ok();
    }
    // Otherwise: `toAmount / m + fee / m`, each rounded by `Decimal`, is a
    // first guess (the sum itself may be past `Decimal`'s range while the
    // quotient is not), then the least covering amount is found exactly:
    // gallop away from the guess until the answer is bracketed, then bisect.
    // Every step is one exact comparison; the bracket doubles, so even a
    // guess that `Decimal`'s rounding put many steps off costs a few dozen
    // comparisons. A quotient past `Decimal` is past every `Fixed8` too.
    let guess = to_amount
        .checked_div(multiplier)?
        .checked_add(fee.checked_div(multiplier)?)?;
    let covers = |units: i128| -> Option<bool> {
        let input = Decimal::try_from_i128_with_scale(units, 8).ok()?;
        product_at_least_sum(input, multiplier, to_amount, fee)
    };
    // The guess at 8 places, or the largest `Fixed8` when it is past them
    // (the answer may still be just below).
    let start = Fixed8::ceil(guess).map_or(LARGEST_UNITS, |guess| guess.get().mantissa());
    // Not even the largest `Fixed8` covers: the ceiling cannot be held.
    if !covers(LARGEST_UNITS)? {
        return None;
    }
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
            // `LARGEST_UNITS` covers (checked above): the gallop stops there.
            let high = low.checked_add(stride)?.min(LARGEST_UNITS);
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

#[cfg(test)]
mod tests {
    use rust_decimal::Decimal;

    use super::{is_least_cover, required_input};
    use crate::decimal::Fixed8;
    use crate::numeric::least_cover8;
    use crate::route::rules::fixtures::{d, rate};

    #[test]
    fn a_guess_from_a_rounded_up_sum_is_walked_down_to_the_least_cover() {
        // 10^28 + 0.6 needs 30 digits: Decimal rounds the sum up to 10^28 + 1,
        // and (10^28 + 1) / (2 × 10^7) = 5 × 10^20 + 0.00000005 overshoots.
        // Exactly: x × 2 × 10^7 ≥ 10^28 + 0.6 first at 5 × 10^20 + 0.00000003
        // (0.00000003 × 2 × 10^7 = 0.6; 0.00000002 gives 0.4).
        let (to, rate) = (
            d("10000000000000000000000000000"),
            rate("20000000.000", "0.6"),
        );
        // The sum's integer form (10^29 + 6) × 10^10 is past u128: the
        // general path answers.
        assert_eq!(least_cover8(rate.multiplier(), to, rate.miner_fee()), None);
        let input = required_input(&rate, to).unwrap();
        assert_eq!(input.get(), d("500000000000000000000.00000003"));
    }

    #[test]
    fn a_sum_past_decimal_still_has_its_ceiling_when_the_quotient_fits() {
        // (2^96 − 1) + 1 = 2^96 is past Decimal's range, but / 10^9 it is
        // 79228162514264337593.543950336: the ceiling at 8 places is
        // 79228162514264337593.54395034 (ruling 35: overflow only where the
        // answer cannot be held).
        let rate = rate("1000000000", "1");
        let to = d("79228162514264337593543950335");
        assert!(to.checked_add(d("1")).is_none());
        let input = required_input(&rate, to).unwrap();
        assert_eq!(input.get(), d("79228162514264337593.54395034"));
        // At 33 it is 2.4 × 10^27, past every 8-place amount: none.
        assert_eq!(
            required_input(&crate::route::rules::fixtures::rate("33", "1"), to),
            None
        );
        // Just past the largest 8-place amount: none; just at it: found.
        let largest = d("792281625142643375935.43950335");
        assert_eq!(
            required_input(
                &crate::route::rules::fixtures::rate("1", "0.00000001"),
                largest
            ),
            None
        );
        assert_eq!(
            required_input(&crate::route::rules::fixtures::rate("1", "0"), largest)
                .map(Fixed8::get),
            Some(largest)
        );
    }

    #[test]
    fn a_least_cover_of_one_unit_is_found_on_the_general_path() {
        // 1 (at 28 places) / (5 × 10^18): 2 × 10^-19, so one unit (10^-8)
        // covers and zero does not. The multiplier's mantissa 5 × 10^28
        // scaled by 10^(28 − 10 − 8) is past u128: the general path answers.
        let to = d("1.0000000000000000000000000000");
        let rate = rate("5000000000000000000.0000000000", "0");
        assert_eq!(least_cover8(rate.multiplier(), to, rate.miner_fee()), None);
        let input = required_input(&rate, to).unwrap();
        assert_eq!(input.get(), d("0.00000001"));
    }

    #[test]
    fn a_near_amount_is_the_answer_only_when_it_is_the_least_cover() {
        // (10 + 0.5) / 3 = 3.5 exactly: 3.50000000 covers, 3.49999999 does not.
        let rate = rate("3", "0.5");
        let to = d("10");
        let near = |text: &str| Fixed8::ceil(d(text)).unwrap();
        assert!(is_least_cover(&rate, to, near("3.5")));
        assert!(!is_least_cover(&rate, to, near("3.50000001")));
        assert!(!is_least_cover(&rate, to, near("3.49999999")));
        assert_eq!(required_input(&rate, to).unwrap().get(), d("3.5"));
    }

    #[test]
    fn nothing_to_cover_needs_no_input_on_the_general_path() {
        // A zero fee written with 28 places makes the sum 0 at scale 28; the
        // multiplier's mantissa 4 × 10^28 scaled by 10^(28 − 0 − 8) is past
        // u128, so the general path answers: 0 covers 0.
        let rate = rate(
            "40000000000000000000000000000",
            "0.0000000000000000000000000000",
        );
        assert_eq!(rate.miner_fee().scale(), 28);
        assert_eq!(
            least_cover8(rate.multiplier(), Decimal::ZERO, rate.miner_fee()),
            None
        );
        let input = required_input(&rate, Decimal::ZERO).unwrap();
        assert!(input.get().is_zero());
    }
}
