//! The schedule as it was built before issue 46's last item, kept as the
//! oracle of the fast path (`schedule.rs`) in tests: under a median guard
//! it ranks again at each expiry of the guard's voters (`O(v · n log n)`).
//! It shares no code with the fast path but the public questions (`select`,
//! `best`) and the helpers both had before (`at.rs`); `push` is its own.

use alloc::vec::Vec;

use super::at::{median_guarded, next_voter_expiry};
use super::schedule::Interval;
use crate::rate::{Rate, RateList};
use crate::route::{Route, RouteRequest};

/// The intervals of the schedule over one pair's `rates`, re-ranking at
/// each voter's expiry under a median guard.
pub(crate) fn build<'r, R: RateList + ?Sized>(
    request: &RouteRequest<'_>,
    rates: &'r R,
) -> Vec<Interval<'r>> {
    let mut out: Vec<Interval<'r>> = Vec::new();
    let Ok(one) = rates.one_pair() else {
        return out;
    };
    let Some(end) = one
        .iter()
        .map(Rate::expiry)
        .filter(|expiry| *expiry > request.now())
        .max()
    else {
        return out;
    };
    let guarded = median_guarded(request);
    let mut t = request.now();
    while t < end {
        let at_t = request.at(t);
        let segment = if guarded {
            next_voter_expiry(&at_t, one).map_or(end, |voter| voter.min(end))
        } else {
            end
        };
        let selection = at_t.select(rates);
        let mut cursor = t;
        for route in selection.routes() {
            if cursor >= segment {
                break;
            }
            let expiry = route.rate().expiry();
            if expiry <= cursor {
                continue;
            }
            let until = expiry.min(segment);
            push(&mut out, cursor, until, Some(*route));
            cursor = until;
        }
        if cursor < segment {
            // Ranking at the first instant: "no route" (or, should the
            // ranking at `t` have missed one, that route).
            let answer = request.at(cursor).best(rates).ok();
            push(&mut out, cursor, segment, answer);
        }
        t = segment;
    }
    out
}

fn push<'r>(
    out: &mut Vec<Interval<'r>>,
    from: crate::time::EpochMillis,
    until: crate::time::EpochMillis,
    route: Option<Route<'r>>,
) {
    if from >= until {
        return;
    }
    if let Some(last) = out.last_mut() {
        let same = match (&last.route, &route) {
            (Some(a), Some(b)) => a.rate().id() == b.rate().id(),
            (None, None) => true,
            _ => false,
        };
        if same && last.until == from {
            last.until = until;
            return;
        }
    }
    out.push(Interval { from, until, route });
}
