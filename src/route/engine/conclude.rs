//! The engine's one ending for the best route and the top `k`: the kept
//! keyed rates and plain candidates merged into routes, "no route"
//! classified, and the fallback to the full selection, each handled once.
//!
//! Fast keys and plain candidates are ranked apart during the scan and
//! merged here, so one rate that needs the plain path does not slow the
//! others down. The `Decimal` net output a route reports is the plain path's
//! to the last digit and scale: from the integers the key was proved from
//! when every kept rate was keyed, else as the plain path computes it.

use core::cmp::Ordering;

use super::collect::Kept;
use super::routes::{finish, keyed_candidate, keyed_route};
use super::scan::{scan, Collect};
use super::select::select_in;
use crate::rate::prepared::Layout;
use crate::rate::Rate;
use crate::route::request::FastRequest;
use crate::route::rules::eligibility::{check, Candidate};
use crate::route::rules::net_output::exact_net;
use crate::route::rules::no_route::Tally;
use crate::route::rules::order::rank_order;
use crate::route::rules::required_input::required_input_near;
use crate::route::{NoRoute, Route, RouteRequest};
use crate::swap_mode::SwapMode;

/// How writing the kept routes ended.
enum Written {
    /// This many routes were written, best first.
    Done(usize),
    /// Nothing is eligible.
    NoRoute(NoRoute),
    /// A required input overflowed (absurd ExactOut amounts), or a key the
    /// plain path could not reproduce (never): the full selection, the
    /// reference, answers instead.
    Fallback,
}

/// Scans `rates` into `collector` and writes the best routes it kept to
/// `routes`, best first (as many as there are and `routes` holds);
/// returns how many. The entry point of `best`, `top` and `top_n`.
/// `compact`: the rates' compact records, or empty (see [`scan`]).
#[allow(clippy::inline_always)]
#[inline(always)]
pub(crate) fn collect<'r, C: Collect<'r> + Kept<'r>>(
    request: &RouteRequest<'_>,
    rates: &'r [Rate],
    compact: Layout<'_>,
    collector: &mut C,
    routes: &mut [Option<Route<'r>>],
) -> Result<usize, NoRoute> {
    let fast = FastRequest::new(request);
    scan(request, fast.as_ref(), rates, compact, collector);
    // The kept slices, not the collector: handed on whole, the
    // collector would have to live in memory through the scan.
    let (keyed, plain) = (collector.keyed_rates(), collector.plain_candidates());
    conclude(request, fast.as_ref(), rates, keyed, plain, routes)
}

/// Writes the routes of what was kept (from a scan of `rates`, or the
/// rate book's search), keyed rates and plain candidates each best
/// first, to `routes`; "no route" and the fallback here.
pub(crate) fn conclude<'r>(
    request: &RouteRequest<'_>,
    fast: Option<&FastRequest>,
    rates: &'r [Rate],
    keyed: &[Option<&'r Rate>],
    plain: &[Option<Candidate<'r>>],
    routes: &mut [Option<Route<'r>>],
) -> Result<usize, NoRoute> {
    match write(request, fast, rates, keyed, plain, routes) {
        Written::Done(len) => Ok(len),
        Written::NoRoute(no_route) => Err(no_route),
        Written::Fallback => write_selected(request, rates, routes),
    }
}

fn write<'r>(
    request: &RouteRequest<'_>,
    fast: Option<&FastRequest>,
    rates: &'r [Rate],
    keyed: &[Option<&'r Rate>],
    plain: &[Option<Candidate<'r>>],
    routes: &mut [Option<Route<'r>>],
) -> Written {
    let has_plain = plain.iter().any(Option::is_some);
    let keyed = keyed.iter().flatten().copied();
    let plain = plain.iter().flatten().copied();
    if !has_plain {
        if keyed.clone().next().is_none() {
            // Nothing kept: nothing is eligible (with room for one, the
            // first eligible rate of a kind is always kept; callers
            // answer k = 0 themselves). The plain pass classifies.
            return match classify(request, rates) {
                Some(no_route) => Written::NoRoute(no_route),
                None => Written::Fallback,
            };
        }
        // The usual case: every kept rate was keyed, so the fast form
        // is at hand.
        let Some(fast) = fast else {
            return Written::Fallback;
        };
        return match request.mode() {
            SwapMode::ExactIn => write_keyed_exact_in(request, fast, keyed, routes),
            SwapMode::ExactOut => write_keyed_exact_out(request, fast, keyed, routes),
        };
    }
    write_merged(request, keyed, plain, routes)
}

/// The top routes of the full selection, written to `routes`.
#[cold]
#[inline(never)]
fn write_selected<'r>(
    request: &RouteRequest<'_>,
    rates: &'r [Rate],
    routes: &mut [Option<Route<'r>>],
) -> Result<usize, NoRoute> {
    let top = select_in(request, rates).into_top(routes.len())?;
    let mut len = 0usize;
    for (slot, route) in routes.iter_mut().zip(top) {
        *slot = Some(route);
        len = len.saturating_add(1);
    }
    Ok(len)
}

/// "No route" by the plain path, with the tally that classifies it;
/// `None` when some rate is eligible after all.
#[cold]
#[inline(never)]
fn classify(request: &RouteRequest<'_>, rates: &[Rate]) -> Option<NoRoute> {
    let mut tally = Tally::default();
    for rate in rates {
        match check(rate, request) {
            Ok(_) => return None,
            Err(reason) => tally.rejected(&reason),
        }
    }
    Some(request.name_working(tally.classify_request(request, rates), rates))
}

/// Writes the ExactIn routes of the best keyed rates to `routes`, best
/// first: the net output straight from the integers the key was proved
/// from, no required input. (Kept apart from the ExactOut loop below:
/// one loop with a mode branch measured 8-19% slower on `top5`.)
fn write_keyed_exact_in<'r>(
    request: &RouteRequest<'_>,
    fast: &FastRequest,
    keyed: impl Iterator<Item = &'r Rate>,
    routes: &mut [Option<Route<'r>>],
) -> Written {
    let from_amount = request.from_amount().get();
    let mut len = 0usize;
    for (slot, rate) in routes.iter_mut().zip(keyed) {
        // A key proves `keyed_net` succeeds; were it ever not to, the
        // full selection is the reference.
        let Some(net_output) = fast.keyed_net(rate) else {
            return Written::Fallback;
        };
        *slot = Some(keyed_route(request, rate, net_output, from_amount));
        len = len.saturating_add(1);
    }
    Written::Done(len)
}

/// Writes the ExactOut routes of the best keyed rates to `routes`, best
/// first, each with its required input.
///
/// Each route is built in its slot: a route built aside and copied in is
/// read back before its pieces are stored, a stall per route.
fn write_keyed_exact_out<'r>(
    request: &RouteRequest<'_>,
    fast: &FastRequest,
    keyed: impl Iterator<Item = &'r Rate>,
    routes: &mut [Option<Route<'r>>],
) -> Written {
    let amount = request.from_amount().get();
    let mut len = 0usize;
    for (slot, rate) in routes.iter_mut().zip(keyed) {
        // A key proves `keyed_net` and `exact_net` succeed, and only
        // absurd amounts overflow a required input; in either case the
        // full selection is the reference.
        let net_output = fast.keyed_net(rate).or_else(|| exact_net(amount, rate));
        let Some(net_output) = net_output else {
            return Written::Fallback;
        };
        let required = required_input_near(rate, request.exact_output(), request.from8());
        let Some(required) = required else {
            return Written::Fallback;
        };
        *slot = Some(Route {
            required_input: Some(required),
            ..keyed_route(request, rate, net_output, amount)
        });
        len = len.saturating_add(1);
    }
    Written::Done(len)
}

/// Merges the best keyed rates and plain candidates (each sorted) by the
/// ranking order into `routes`, best first.
fn write_merged<'r>(
    request: &RouteRequest<'_>,
    mut keyed_rest: impl Iterator<Item = &'r Rate>,
    mut plain_rest: impl Iterator<Item = Candidate<'r>>,
    routes: &mut [Option<Route<'r>>],
) -> Written {
    // No `Peekable`: its copies of the held candidate cost more than the merge.
    let mut next_keyed = match keyed_rest.next().map(|rate| keyed_candidate(request, rate)) {
        Some(Some(candidate)) => Some(candidate),
        Some(None) => return Written::Fallback,
        None => None,
    };
    let mut next_plain = plain_rest.next();
    let amount = request.from_amount().get();
    let mut len = 0usize;
    for slot in routes.iter_mut() {
        let take_plain = match (&next_keyed, &next_plain) {
            (Some(a), Some(b)) => rank_order(amount, b, a) == Ordering::Less,
            (Some(_), None) => false,
            (None, Some(_)) => true,
            (None, None) => break,
        };
        let candidate = if take_plain {
            core::mem::replace(&mut next_plain, plain_rest.next())
        } else {
            let following = match keyed_rest.next().map(|rate| keyed_candidate(request, rate)) {
                Some(Some(candidate)) => Some(candidate),
                Some(None) => return Written::Fallback,
                None => None,
            };
            core::mem::replace(&mut next_keyed, following)
        };
        let Some(candidate) = candidate else { break };
        match finish(request, candidate) {
            Ok(route) => *slot = Some(route),
            // An overflowing required input needs the full selection,
            // which rejects such routes.
            Err(_) => return Written::Fallback,
        }
        len = len.saturating_add(1);
    }
    Written::Done(len)
}
