//! One leg of a chain under the single-pair rules (ruling 24 in
//! docs/RULES.md): ExactIn forwards from an input, ExactOut backwards from
//! the amount the leg must deliver; and the bounds a search prunes by.

use rust_decimal::Decimal;

use super::market::MarketPair;
use crate::decimal::{Amount, Fixed8};
use crate::numeric::least_cover8;
use crate::rate::Rate;
use crate::route::request::FastRequest;
use crate::route::rules::eligibility::{admit, check, Score};
use crate::route::rules::net_output::net_output;
use crate::route::rules::required_input::required_input;
use crate::route::{RejectReason, RouteRequest};
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
        Score::Key(_) => match request.candidate(rate) {
            Some(candidate) => Ok(candidate.net_output),
            None => check(rate, request).map(|candidate| candidate.net_output),
        },
        Score::Out | Score::Slow => check(rate, request).map(|candidate| candidate.net_output),
    }
}

/// An ExactIn leg that is not the last: the next leg's input, `rate`'s net
/// output rounded down to 8 places, or the first rule it breaks. A fast key
/// is the exact net output × 10^28, so its 8-place floor is one integer
/// division away.
pub(crate) fn forward_to_next(
    rate: &Rate,
    request: &RouteRequest<'_>,
    fast: Option<&FastRequest>,
) -> Result<Amount, RejectReason> {
    if let Some(Score::Key(net28)) = fast.map(|fast| fast.score(rate)) {
        // Positive and below 2^126: the quotient fits a `Decimal` at scale 8.
        let floored = Decimal::try_from_i128_with_scale(net28 / TEN_TO_20, 8)
            .map_err(|_| RejectReason::Overflow)?;
        return Amount::new(floored).map_err(|_| RejectReason::Overflow);
    }
    next_input(forward(rate, request, fast)?)
}

/// 10^20: from scale 28 to scale 8.
const TEN_TO_20: i128 = 100_000_000_000_000_000_000;

/// The next leg's input: an output rounded down to 8 places. An output too
/// large for 8 places overflows.
pub(crate) fn next_input(output: Decimal) -> Result<Amount, RejectReason> {
    let floored = Fixed8::floor(output).map_err(|_| RejectReason::Overflow)?;
    Amount::new(floored.get()).map_err(|_| RejectReason::Overflow)
}

/// An ExactOut leg: the smallest 8-place input with which `rate` delivers
/// `target`, which must lie within the rate's limits; or the first rule it
/// breaks (admission, overflow, the limits).
pub(crate) fn backward(
    rate: &Rate,
    target: Decimal,
    now: EpochMillis,
) -> Result<Fixed8, RejectReason> {
    crate::route::work::tick();
    admit(rate, now, SwapMode::ExactOut)?;
    let required_fixed = required_input(rate, target).ok_or(RejectReason::Overflow)?;
    let required = required_fixed.get();
    if required < rate.min() {
        return Err(RejectReason::RequiredInputBelowMin {
            required,
            min: rate.min(),
        });
    }
    // No sponsored leg in ExactOut: the rate's own max applies.
    if required > rate.max() {
        return Err(RejectReason::RequiredInputAboveMax {
            required,
            max: rate.max(),
        });
    }
    Ok(required_fixed)
}

/// What an ExactOut leg's required input yields (at least its target).
pub(crate) fn yields(rate: &Rate, input: Fixed8) -> Option<Decimal> {
    net_output(rate, input.get())
}

/// At most `a / b` (`b > 0`): `Decimal`'s quotient moved down by one unit of
/// its last place.
pub(crate) fn lower_quotient(a: Decimal, b: Decimal) -> Option<Decimal> {
    let quotient = a.checked_div(b)?;
    quotient.checked_sub(Decimal::new(1, quotient.scale()))
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
