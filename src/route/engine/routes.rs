//! A kept rate turned into what the engine returns: the plain candidate of
//! a keyed rate, the route of a keyed rate, a candidate finished into a
//! route (the ExactOut required input). Every number is a rule's
//! (`net_output.rs`, `required_input.rs`, `eligibility.rs`'s effective
//! max); this file only assembles them. Below the ending (`conclude.rs`)
//! and the full selection (`select.rs`), which both build routes.

use rust_decimal::Decimal;

use crate::rate::Rate;
use crate::route::request::FastRequest;
use crate::route::rules::eligibility::{effective_max, Candidate};
use crate::route::rules::net_output::{exact_net, net_output};
use crate::route::rules::required_input::required_input_near;
use crate::route::{RejectReason, Route, RouteRequest};
use crate::swap_mode::SwapMode;

/// The route of the one keyed rate a best-route search kept, in either
/// mode, as the ending ([`conclude`](super::conclude::conclude)) writes it;
/// `None` where that falls back to the full selection.
#[allow(clippy::inline_always)]
#[inline(always)]
pub(crate) fn keyed_one<'r>(
    request: &RouteRequest<'_>,
    fast: &FastRequest,
    rate: &'r Rate,
) -> Option<Route<'r>> {
    let amount = request.from_amount().get();
    match request.mode() {
        SwapMode::ExactIn => Some(keyed_route(request, rate, fast.keyed_net(rate)?, amount)),
        SwapMode::ExactOut => {
            let net_output = fast.keyed_net(rate).or_else(|| exact_net(amount, rate))?;
            let required = required_input_near(rate, request.exact_output(), request.from8())?;
            Some(Route {
                required_input: Some(required),
                ..keyed_route(request, rate, net_output, amount)
            })
        }
    }
}

/// The route of a kept rate, before any required input.
#[allow(clippy::inline_always)]
#[inline(always)]
pub(super) fn keyed_route<'r>(
    request: &RouteRequest<'_>,
    rate: &'r Rate,
    net_output: Decimal,
    from_amount: Decimal,
) -> Route<'r> {
    Route {
        rate,
        net_output,
        effective_max: effective_max(rate, request.campaigns()),
        from_amount,
        required_input: None,
    }
}

/// The plain candidate of a fast-scored rate: the same `Decimal` net
/// output the plain path computes (exact, as the fast key proved).
// Always inlined: returned through memory, the candidate's fields are
// written in pieces and read back whole (a store-forwarding stall per
// route, measured in `top`).
#[allow(clippy::inline_always)]
#[inline(always)]
pub(crate) fn keyed_candidate<'r>(
    request: &RouteRequest<'_>,
    rate: &'r Rate,
) -> Option<Candidate<'r>> {
    let amount = request.from_amount().get();
    Some(Candidate {
        rate,
        net_output: exact_net(amount, rate).or_else(|| net_output(rate, amount))?,
        effective_max: effective_max(rate, request.campaigns()),
    })
}

/// Turns a ranked candidate into a route, computing the ExactOut required input.
pub(crate) fn finish<'r>(
    request: &RouteRequest<'_>,
    candidate: Candidate<'r>,
) -> Result<Route<'r>, RejectReason> {
    let required_input = match request.mode() {
        SwapMode::ExactIn => None,
        SwapMode::ExactOut => Some(
            required_input_near(candidate.rate, request.exact_output(), request.from8())
                .ok_or(RejectReason::Overflow)?,
        ),
    };
    Ok(Route {
        rate: candidate.rate,
        net_output: candidate.net_output,
        effective_max: candidate.effective_max,
        from_amount: request.from_amount().get(),
        required_input,
    })
}
