//! The amounts a "no route" names (ruling 10 as ruling 38 amends it): the
//! smallest or largest amount that works under the request's whole policy
//! (ruling 41), from the one model of a rate over amounts (`rules/served.rs`).

use crate::rate::{PairId, Rate};
use crate::route::rules::eligibility::admit;
use crate::route::rules::served::{decimal_at, grid_ceil, grid_floor, AmountModel, PLACES};
use crate::route::{NoRoute, RouteRequest, WorkingAmount};
use crate::swap_mode::SwapMode;
use crate::wire::RequestField;

/// Ruling 10 as ruling 38 amends it: a "no route" below every min,
/// above every max, without output, below the floors or refused by the
/// price guard names the smallest (largest) 8-place amount that works
/// (for the guard's refusal, the end nearer the amount asked): in
/// ExactIn the `fromAmount`, where it is not the nominal limit (one
/// pass over the rates, a few exact checks each, no allocation); in
/// ExactOut the `toAmount` (one pass, each rate's interval: `O(log)`
/// exact checks a rate, on the "no route" path only).
pub(crate) fn name_working(
    request: &RouteRequest<'_>,
    no_route: NoRoute,
    rates: &[Rate],
) -> NoRoute {
    let Some(pair) = rates.first().map(Rate::pair_id) else {
        return no_route;
    };
    match no_route {
        NoRoute::BelowMin { .. } | NoRoute::NoOutput { .. } | NoRoute::BelowFloors { .. } => {
            let found = working_end(request, rates, pair, true);
            no_route.with_working(found, None)
        }
        NoRoute::AboveMax { .. } => {
            let found = working_end(request, rates, pair, false);
            no_route.with_working(None, found)
        }
        NoRoute::PriceOutliers { .. } => {
            // The amount asked, in the unit the ends are named in.
            let asked = match request.mode() {
                SwapMode::ExactIn => request.from_amount().get(),
                SwapMode::ExactOut => request.exact_output(),
            };
            let largest = working_end(request, rates, pair, false);
            let nearest = match &largest {
                Some(top) if top.amount() < asked => largest,
                _ => working_end(request, rates, pair, true),
            };
            no_route.with_working(nearest, None)
        }
        other => other,
    }
}

/// The smallest (`low`) or largest amount that works, as ruling 38
/// names it.
fn working_end(
    request: &RouteRequest<'_>,
    rates: &[Rate],
    pair: &PairId,
    low: bool,
) -> Option<WorkingAmount> {
    // The request's whole policy, its guard resolved (the questions
    // that call this resolve it first): the amounts named are ones
    // `best` serves (ruling 41).
    let query = AmountModel::new(request.mode(), request.now(), request.policy());
    if request.mode() == SwapMode::ExactOut {
        let mut bound: Option<i128> = None;
        for rate in rates {
            if let Some((from, to)) = query.interval(rate) {
                let x = if low { from } else { to };
                let beyond = |held: i128| if low { x < held } else { x > held };
                if bound.is_none_or(beyond) {
                    bound = Some(x);
                }
            }
        }
        return bound
            .and_then(|y| decimal_at(y, PLACES))
            .map(|y| WorkingAmount::new(RequestField::ToAmount, y, pair.to().clone()));
    }
    // The end of a rate's limits on the grid, on the side asked about.
    let end_of = |rate: &Rate| {
        if low {
            grid_ceil(rate.min(), PLACES)
        } else {
            grid_floor(rate.effective_max(request.campaigns()), PLACES)
        }
    };
    let beyond = |x: i128, held: i128| if low { x < held } else { x > held };
    // Bounded work (ruling 36): when a rate serves the outermost end of
    // the live rates' limits, that is the answer (one check per rate at
    // that end); otherwise a rate whose limits cannot beat the bound
    // held is skipped on them alone, and only the rates that might move
    // it get the few exact checks of an interval.
    let mut outermost: Option<i128> = None;
    for rate in rates {
        if admit(rate, request.now(), SwapMode::ExactIn).is_err() {
            continue;
        }
        if let Some(end) = end_of(rate) {
            if outermost.is_none_or(|held| beyond(end, held)) {
                outermost = Some(end);
            }
        }
    }
    // Only a rate whose own end is the outermost can serve that amount.
    let served = outermost.filter(|&end| {
        rates
            .iter()
            .any(|rate| end_of(rate) == Some(end) && query.verdict_in(rate, end).is_ok())
    });
    let mut bound = served;
    if served.is_none() {
        for rate in rates {
            if let (Some(held), Some(end)) = (bound, end_of(rate)) {
                if !beyond(end, held) {
                    continue;
                }
            }
            if let Some((from, to)) = query.interval(rate) {
                let x = if low { from } else { to };
                if bound.is_none_or(|held| beyond(x, held)) {
                    bound = Some(x);
                }
            }
        }
    }
    bound
        .and_then(|x| decimal_at(x, PLACES))
        .map(|x| WorkingAmount::new(RequestField::FromAmount, x, pair.from().clone()))
}
