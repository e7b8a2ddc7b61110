//! One leg of a chain under the single-pair rules (ruling 24 in
//! docs/RULES.md): ExactIn forwards from an input, ExactOut backwards from
//! the amount the leg must deliver; and the bounds a search prunes by.

use rust_decimal::Decimal;

use super::market::MarketPair;
use crate::decimal::{Amount, Fixed8};
use crate::numeric::{at_scale, least_cover8, pow10, times_pow10, widening_mul, Wide};
use crate::rate::Rate;
use crate::route::engine::keyed_candidate;
use crate::route::request::FastRequest;
use crate::route::rules::eligibility::{admit, check, guarded, required_within, Score};
use crate::route::rules::net_output::net_output;
use crate::route::rules::required_input::required_input;
use crate::route::{Floors, PriceGuard, RejectReason, RouteRequest};
use crate::swap_mode::SwapMode;
use crate::time::EpochMillis;

/// An ExactIn leg: `rate`'s net output at the request's `fromAmount`, the
/// same `Decimal` the single-pair engine reports, or the first rule it
/// breaks (ruling 5).
pub(crate) fn forward(
    rate: &Rate,
    request: &RouteRequest<'_>,
    fast: Option<&FastRequest>,
) -> Result<Decimal, RejectReason> {
    match fast.map_or(Score::Slow, |fast| fast.score(rate)) {
        // Keyed: eligible, and the candidate's net output is exact.
        Score::Key(_) => match keyed_candidate(request, rate) {
            Some(candidate) => Ok(candidate.net_output),
            None => check(rate, request).map(|candidate| candidate.net_output),
        },
        Score::Out | Score::Slow => check(rate, request).map(|candidate| candidate.net_output),
    }
}

/// The next leg's input after `rate` at `input`: `floor8(input × multiplier
/// − minerFee)` of the exact value (ruling 35), never of a `Decimal` that
/// already rounded the product. A floor too large for 8 places overflows; a
/// non-positive net output floors to 0.
pub(crate) fn exact_next(rate: &Rate, input: Decimal) -> Result<Amount, RejectReason> {
    let floored =
        floor8_net(input, rate.multiplier(), rate.miner_fee()).ok_or(RejectReason::Overflow)?;
    Amount::new(floored).map_err(|_| RejectReason::Overflow)
}

/// `floor8(x × m − fee)` exactly (`x`, `m`, `fee` non-negative; 0 when the
/// difference is not positive): on `u128` when the product fits, else on
/// the 512-bit [`Wide`]. `None` when the floor does not fit a `Decimal`.
pub(crate) fn floor8_net(x: Decimal, m: Decimal, fee: Decimal) -> Option<Decimal> {
    let product_scale = x.scale().checked_add(m.scale())?;
    let scale = product_scale.max(fee.scale()).max(8);
    let (xm, mm) = (x.mantissa().unsigned_abs(), m.mantissa().unsigned_abs());
    let up = scale.checked_sub(product_scale)?;
    let down = scale.checked_sub(8)?;
    let narrow = || -> Option<u128> {
        let product = times_pow10(widening_mul(xm, mm)?, up)?;
        let fee = at_scale(fee, scale)?;
        let divisor = pow10(down)?;
        Some(match product.checked_sub(fee) {
            Some(net) => net.checked_div(divisor)?,
            None => 0,
        })
    };
    let floored: u128 = if let Some(floored) = narrow() {
        floored
    } else {
        {
            let product = Wide::from_u128(xm).mul_u128(mm)?.scaled(up)?;
            let fee = Wide::at_scale(fee, scale)?;
            if product <= fee {
                0
            } else {
                let mut net = product.sub(fee)?;
                for _ in 0..down {
                    net = net.div10()?.0;
                }
                net.to_u128()?
            }
        }
    };
    Decimal::try_from_i128_with_scale(i128::try_from(floored).ok()?, 8).ok()
}

/// An ExactOut leg: the smallest 8-place input with which `rate` delivers
/// `target`, which must lie within the rate's limits and pass the leg's
/// `floors` (at that input, as the single-pair check holds an amount) and
/// the `guard` (resolved for the rate's pair); or the first rule it breaks
/// (admission, overflow, the limits, the floors, the guard).
pub(crate) fn backward(
    rate: &Rate,
    target: Decimal,
    now: EpochMillis,
    floors: &Floors,
    guard: Option<&PriceGuard>,
) -> Result<Fixed8, RejectReason> {
    crate::route::work::tick();
    admit(rate, now, SwapMode::ExactOut)?;
    let required_fixed = required_input(rate, target).ok_or(RejectReason::Overflow)?;
    // No sponsored leg in ExactOut: the rate's own max applies.
    required_within(required_fixed.get(), rate.min(), rate.max())?;
    if !floors.is_none() {
        let net = yields(rate, required_fixed).ok_or(RejectReason::Overflow)?;
        floors.check(rate, required_fixed.get(), net)?;
    }
    guarded(rate, guard)?;
    Ok(required_fixed)
}

/// What an ExactOut leg's required input yields (at least its target).
pub(crate) fn yields(rate: &Rate, input: Fixed8) -> Option<Decimal> {
    net_output(rate, input.get())
}

/// A lower bound of the first leg's required input for `target` delivered
/// through `pairs` (in path order, worked backwards; ExactOut): at each
/// pair, the least 8-place input `x` with `x × largest multiplier ≥ target
/// + smallest fee`. `None` when a step does not fit (no bound, no pruning).
pub(crate) fn lower_bound(mut target: Decimal, pairs: &[&MarketPair<'_>]) -> Option<Decimal> {
    for pair in pairs.iter().rev() {
        let x8 = least_cover8(pair.max_multiplier, target, pair.min_fee)?;
        target = Decimal::try_from_i128_with_scale(i128::try_from(x8).ok()?, 8).ok()?;
    }
    Some(target)
}
