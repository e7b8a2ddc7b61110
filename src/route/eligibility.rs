//! Is a rate usable for a request? (ruling 5 in docs/RULES.md)

use core::cmp::Ordering;

use rust_decimal::Decimal;

use super::cover::{least_cover8, Cover};
use super::{LimitCheck, RejectReason, RouteRequest};
use crate::decimal::{product_at_least_sum, product_minus, Fixed8};
use crate::rate::Rate;
use crate::swap_mode::SwapMode;

/// A rate that passed every check, with its score.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Candidate<'r> {
    pub(crate) rate: &'r Rate,
    /// `fromAmount × multiplier − minerFee`, the ranking score (ruling 6).
    pub(crate) net_output: Decimal,
    pub(crate) effective_max: Decimal,
}

/// Runs the checks of ruling 5 in order and reports the first failure.
pub(crate) fn check<'r>(
    rate: &'r Rate,
    request: &RouteRequest<'_>,
) -> Result<Candidate<'r>, RejectReason> {
    super::work::tick();
    if let Some(defect) = rate.defect() {
        return Err(RejectReason::InvalidRate(defect));
    }
    if rate.is_expired_at(request.now()) {
        return Err(RejectReason::Expired {
            expiry: rate.expiry(),
        });
    }
    if request.mode() == SwapMode::ExactOut {
        if !rate.supports_exact_out() {
            return Err(RejectReason::ExactOutUnsupported);
        }
        if rate.is_sponsored() {
            return Err(RejectReason::SponsoredInExactOut);
        }
    }
    let amount = request.from_amount().get();
    let effective_max = within_limits(rate, amount, request)?;
    let net_output = net_output(rate, amount).ok_or(RejectReason::Overflow)?;
    if net_output <= Decimal::ZERO {
        // Ruling 5 puts overflow before "no output": in ExactOut the required
        // input is part of the arithmetic.
        if request.mode() == SwapMode::ExactOut
            && required_input(rate, request.exact_output()).is_none()
        {
            return Err(RejectReason::Overflow);
        }
        return Err(RejectReason::NoOutput { net_output });
    }
    if request.strict_exact_out() {
        let required = required_input_near(rate, request.exact_output(), request.from8())
            .ok_or(RejectReason::Overflow)?
            .get();
        match LimitCheck::of(required, rate.min(), effective_max) {
            LimitCheck::Within => {}
            LimitCheck::BelowMin { min } => {
                return Err(RejectReason::RequiredInputBelowMin { required, min })
            }
            LimitCheck::AboveMax { max } => {
                return Err(RejectReason::RequiredInputAboveMax { required, max })
            }
        }
    }
    Ok(Candidate {
        rate,
        net_output,
        effective_max,
    })
}

/// `min <= amount <= effective max`, inclusive at both ends; returns the effective max.
///
/// A campaign limit below the rate's min (ruling 30) leaves no amount at all:
/// that is its own reason, before the amount is looked at.
pub(crate) fn within_limits(
    rate: &Rate,
    amount: Decimal,
    request: &RouteRequest<'_>,
) -> Result<Decimal, RejectReason> {
    let effective_max = rate.effective_max(request.campaigns());
    // A valid rate has min <= max, so only a campaign limit can go below min.
    if effective_max < rate.min() {
        return Err(RejectReason::CampaignLimitBelowMin {
            min: rate.min(),
            limit: effective_max,
        });
    }
    if amount < rate.min() {
        return Err(RejectReason::BelowMin { min: rate.min() });
    }
    if amount > effective_max {
        return Err(RejectReason::AboveMax {
            max: effective_max,
            capped_by_campaign: effective_max.cmp(&rate.max()) == Ordering::Less,
        });
    }
    Ok(effective_max)
}

/// `amount × multiplier − minerFee`, or `None` on overflow.
pub(crate) fn net_output(rate: &Rate, amount: Decimal) -> Option<Decimal> {
    let (multiplier, fee) = (rate.multiplier(), rate.miner_fee());
    let product = amount.checked_mul(multiplier)?;
    let rounded = product.checked_sub(fee)?;
    // `Decimal` rounds a product (or the difference) that needs more than its
    // 28-29 digits, and a large product minus a large fee can leave a small
    // net whose exact digits were lost. When the exact net fits a `Decimal`,
    // report that; only an exact value wider than a `Decimal` stays rounded.
    // (`Decimal` returns the product itself for a zero fee, whatever its scale.)
    let difference_exact = fee.is_zero() || rounded.scale() == product.scale().max(fee.scale());
    if product_is_exact(amount, multiplier, product) && difference_exact {
        return Some(rounded);
    }
    // Where `Decimal` was right after all, its representation (scale) is kept.
    Some(match product_minus(amount, multiplier, fee) {
        Some(exact) if exact != rounded => exact,
        _ => rounded,
    })
}

/// `true` when `Decimal` computed `a × b` without rounding: the mantissas'
/// product fits 96 bits at the scales' sum.
fn product_is_exact(a: Decimal, b: Decimal, product: Decimal) -> bool {
    let exact_scale = a.scale().saturating_add(b.scale());
    exact_scale <= 28
        && product.scale() == exact_scale
        && a.mantissa()
            .unsigned_abs()
            .checked_mul(b.mantissa().unsigned_abs())
            .is_some_and(|m| m < (1 << 96))
}

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
    let Some(cover) = Cover::new(rate.multiplier(), to_amount, rate.miner_fee()) else {
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
