//! Is a rate usable for a request? (DESIGN ruling 5)

use core::cmp::Ordering;

use rust_decimal::Decimal;

use super::{RejectReason, RouteRequest};
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
        return Err(RejectReason::NoOutput { net_output });
    }
    Ok(Candidate {
        rate,
        net_output,
        effective_max,
    })
}

/// `min <= amount <= effective max`, inclusive at both ends; returns the effective max.
pub(crate) fn within_limits(
    rate: &Rate,
    amount: Decimal,
    request: &RouteRequest<'_>,
) -> Result<Decimal, RejectReason> {
    if amount < rate.min() {
        return Err(RejectReason::BelowMin { min: rate.min() });
    }
    let effective_max = rate.effective_max(request.campaigns());
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
    amount
        .checked_mul(rate.multiplier())?
        .checked_sub(rate.miner_fee())
}

/// `(toAmount + minerFee) / multiplier`, exact before rounding, or `None` on
/// overflow (or a zero multiplier, which a valid rate never has).
pub(crate) fn required_input(rate: &Rate, to_amount: Decimal) -> Option<Decimal> {
    to_amount
        .checked_add(rate.miner_fee())?
        .checked_div(rate.multiplier())
}
