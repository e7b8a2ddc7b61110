//! The full selection: every rate ranked or rejected with its reason.

use alloc::vec::Vec;
use core::cmp::Ordering;

use super::routes::{finish, keyed_candidate};
use super::scan::{scan, Collect};
use crate::numeric::permute::{apply_order, sort_stable};
use crate::rate::prepared::Layout;
use crate::rate::Rate;
use crate::route::request::FastRequest;
use crate::route::rules::eligibility::{check, Candidate};
use crate::route::rules::no_route::Tally;
use crate::route::rules::order::{rank_order, route_order, tie_order};
use crate::route::{Rejection, Route, RouteRequest, Selection};

/// The full selection's collector: a keyed rate's route is built while the
/// scan has the rate in cache, in input order, with its key and position;
/// every other rate is judged by the plain path, its reason kept.
#[derive(Debug)]
struct All<'r> {
    keyed: Vec<(i128, usize)>,
    routes: Vec<Route<'r>>,
    plain: Vec<Candidate<'r>>,
    rejected: Vec<Rejection<'r>>,
    /// A key the plain path could not reproduce (never): the plain path
    /// answers the whole selection.
    broken: bool,
}

impl<'r> Collect<'r> for All<'r> {
    const REPORTS_OUT: bool = true;

    #[inline]
    fn floor(&self) -> i128 {
        i128::MIN
    }

    #[inline]
    fn keyed(&mut self, request: &RouteRequest<'_>, net: i128, rate: &'r Rate) {
        let Some(candidate) = keyed_candidate(request, rate) else {
            self.broken = true;
            return;
        };
        match finish(request, candidate) {
            Ok(route) => {
                self.keyed.push((net, self.routes.len()));
                self.routes.push(route);
            }
            Err(reason) => self.rejected.push(Rejection::new(rate, reason)),
        }
    }

    #[inline]
    fn slow(&mut self, request: &RouteRequest<'_>, rate: &'r Rate) {
        match check(rate, request) {
            Ok(candidate) => self.plain.push(candidate),
            Err(reason) => self.rejected.push(Rejection::new(rate, reason)),
        }
    }

    #[inline]
    fn out(&mut self, request: &RouteRequest<'_>, rate: &'r Rate) {
        // The fast verdict has no reason: the plain path gives it.
        self.slow(request, rate);
    }
}

/// [`select`](crate::route::RouteRequest::select) over rates known to be one pair's.
pub(crate) fn select_in<'r>(request: &RouteRequest<'_>, rates: &'r [Rate]) -> Selection<'r> {
    let fast = FastRequest::new(request);
    // Read again in ranking order, a rate set larger than the cache
    // (65536 rates are 25 MB) missed on almost every rate (4× slower per
    // rate), and every intermediate buffer is megabytes of fresh pages:
    // the sort moves `(key, position)` pairs and the routes are then put
    // in that order in place.
    let mut all = All {
        keyed: Vec::with_capacity(rates.len()),
        routes: Vec::with_capacity(rates.len()),
        plain: Vec::new(),
        rejected: Vec::new(),
        broken: false,
    };
    scan(request, fast.as_ref(), rates, Layout::default(), &mut all);
    let All {
        mut keyed,
        mut routes,
        plain,
        mut rejected,
        broken,
    } = all;
    if broken {
        return select_plain(request, rates);
    }
    if plain.is_empty() {
        // The key order, with the rates looked up only for equal keys
        // (a route read per comparison, at random in megabytes, costs).
        // The position breaks the last ties: input order, as a stable
        // sort keeps it, without the stable sort's scratch buffer.
        keyed.sort_unstable_by(|a, b| {
            b.0.cmp(&a.0)
                .then_with(|| match (routes.get(a.1), routes.get(b.1)) {
                    (Some(x), Some(y)) => tie_order(x.rate, y.rate),
                    _ => Ordering::Equal,
                })
                .then_with(|| a.1.cmp(&b.1))
        });
        if !apply_order(&mut routes, &mut keyed) {
            // Never: the positions are those of the routes pushed above.
            return select_plain(request, rates);
        }
    } else {
        // Stable: rates that tie on every key, id included, keep input
        // order (keyed ones first).
        let scanned = rejected.len();
        finish_all(request, plain, &mut routes, &mut rejected);
        sort_stable(&mut routes, route_order);
        if rejected.len() > scanned {
            in_input_order(rates, &mut rejected);
        }
    }
    let no_route = if routes.is_empty() {
        let mut tally = Tally::default();
        for rejection in &rejected {
            tally.rejected(rejection.reason());
        }
        Some(request.name_working(tally.classify_request(request, rates), rates))
    } else {
        None
    };
    Selection::new(request, routes, rejected, no_route)
}

/// Finishes candidates into routes appended to `routes`, in the order
/// given; a candidate whose required input overflows goes to `rejected`.
fn finish_all<'r>(
    request: &RouteRequest<'_>,
    ranked: impl IntoIterator<Item = Candidate<'r>>,
    routes: &mut Vec<Route<'r>>,
    rejected: &mut Vec<Rejection<'r>>,
) {
    for candidate in ranked {
        match finish(request, candidate) {
            Ok(route) => routes.push(route),
            Err(reason) => rejected.push(Rejection::new(candidate.rate, reason)),
        }
    }
}

/// [`select`](crate::route::RouteRequest::select) by the plain `Decimal` path alone.
fn select_plain<'r>(request: &RouteRequest<'_>, rates: &'r [Rate]) -> Selection<'r> {
    let mut candidates: Vec<Candidate<'r>> = Vec::new();
    let mut rejected: Vec<Rejection<'r>> = Vec::new();
    let mut tally = Tally::default();
    for rate in rates {
        match check(rate, request) {
            Ok(candidate) => candidates.push(candidate),
            Err(reason) => {
                tally.rejected(&reason);
                rejected.push(Rejection::new(rate, reason));
            }
        }
    }
    let amount = request.from_amount().get();
    sort_stable(&mut candidates, |a, b| rank_order(amount, a, b));
    let scanned = rejected.len();
    let mut routes = Vec::with_capacity(candidates.len());
    for candidate in candidates {
        match finish(request, candidate) {
            Ok(route) => {
                tally.accepted();
                routes.push(route);
            }
            Err(reason) => {
                tally.rejected(&reason);
                rejected.push(Rejection::new(candidate.rate, reason));
            }
        }
    }
    if rejected.len() > scanned {
        in_input_order(rates, &mut rejected);
    }
    let no_route = if routes.is_empty() {
        Some(request.name_working(tally.classify_request(request, rates), rates))
    } else {
        None
    };
    Selection::new(request, routes, rejected, no_route)
}

/// Puts `rejected` back in the order of `rates`, the slice its rates borrow
/// from: a rejection found after ranking (an ExactOut required input that
/// overflows) is appended after those of the scan.
fn in_input_order(rates: &[Rate], rejected: &mut [Rejection<'_>]) {
    // A rate's address minus the slice's start grows with its position.
    let start = rates.as_ptr() as usize;
    let at = |rejection: &Rejection<'_>| {
        (core::ptr::from_ref::<Rate>(rejection.rate()) as usize).wrapping_sub(start)
    };
    sort_stable(rejected, |a, b| at(a).cmp(&at(b)));
}

#[cfg(test)]
mod tests {
    use alloc::string::String;
    use alloc::vec::Vec;

    use rust_decimal::Decimal;

    use crate::rate::{Rate, RateTerms};
    use crate::route::RouteRequest;
    use crate::{decimal::Amount, ids::RateId, rate::PairId, time::EpochMillis};

    const NOW: EpochMillis = EpochMillis::new(1_700_000_000_000);

    fn rate(id: &str, multiplier: &str, expiry: EpochMillis) -> Rate {
        Rate::new(
            RateId::new(id).unwrap(),
            PairId::new("BTC_ETH").unwrap(),
            RateTerms {
                multiplier: multiplier.parse().unwrap(),
                miner_fee: Decimal::ZERO,
                min: Decimal::ZERO,
                max: Decimal::TEN,
            },
            expiry,
        )
        .with_exact_out(true)
    }

    /// The plain path (the engine's safety net, otherwise reached only when
    /// a fast key cannot be reproduced) lists rejections in input order too:
    /// `r0`'s required input overflows (2^96 − 1 / 0.5…01), found only after
    /// the scan rejected the expired `r1`.
    #[test]
    fn the_plain_path_keeps_rejections_in_input_order() {
        let rates = [
            rate(
                "r0",
                "0.5000000000000000000000000001",
                EpochMillis::new(4_102_444_800_000),
            ),
            rate("r1", "33", NOW),
        ];
        let request = RouteRequest::exact_out(
            Amount::new(Decimal::ONE).unwrap(),
            "79228162514264337593543950335".parse().unwrap(),
            NOW,
        );
        let selection = super::select_plain(&request, &rates);
        assert!(selection.routes().is_empty());
        let reasons: Vec<(String, &str)> = selection
            .rejected()
            .iter()
            .map(|r| (String::from(r.rate().id().as_str()), r.reason().code()))
            .collect();
        assert_eq!(
            reasons,
            [("r0".into(), "OVERFLOW"), ("r1".into(), "EXPIRED")]
        );
    }
}
