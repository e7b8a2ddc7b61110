//! The schedule of successors (ruling 50): each interval `[from, until)`
//! with the best route, or the "no route", that ranking at any instant of
//! it gives.
//!
//! Without a median guard the ranking at `now` already orders every route
//! that will ever be eligible (rates only leave), so the best at `t` is the
//! first route of that order still live at `t`: walking the order once and
//! keeping each route whose expiry is later than the last kept one gives
//! every successor. One ranking (`O(n log n)`) and one walk (`O(n)`). With
//! a median guard the order holds between two expiries of the guard's
//! voters (the reference is fixed there), so it is ranked again at each:
//! `O(v · n log n)` for `v` distinct voter expiries.

use alloc::vec::Vec;

use serde::ser::SerializeStruct;
use serde::{Serialize, Serializer};

use super::at::{median_guarded, next_voter_expiry, request_at};
use crate::ids::RateId;
use crate::rate::{Rate, RateList};
use crate::route::{NoRoute, Route, RouteRequest};
use crate::time::EpochMillis;

/// One interval of a [`Schedule`]: from `from` (inclusive) to `until`
/// (exclusive), ranking gives `answer`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Interval<'r> {
    from: EpochMillis,
    until: EpochMillis,
    answer: Result<Route<'r>, NoRoute>,
}

impl<'r> Interval<'r> {
    /// The first instant of the interval.
    pub fn from(&self) -> EpochMillis {
        self.from
    }

    /// The first instant after the interval (`from < until`).
    pub fn until(&self) -> EpochMillis {
        self.until
    }

    /// The best route throughout the interval, or the "no route" as
    /// classified at [`from`](Self::from) (the limits it names may differ
    /// later in the interval, as the rates it names expire; that there is
    /// no route does not).
    ///
    /// # Errors
    /// The interval's "no route".
    pub fn answer(&self) -> Result<&Route<'r>, &NoRoute> {
        self.answer.as_ref()
    }

    /// The chosen rate's id, `None` for a "no route" interval.
    pub fn rate_id(&self) -> Option<&'r RateId> {
        self.answer.as_ref().ok().map(|route| route.rate().id())
    }
}

/// `{"from","until","rateId"}`: epoch milliseconds, and the leading rate's
/// id (`null` for a "no route" interval), as the command line, the
/// JavaScript package and the server print a schedule.
impl Serialize for Interval<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut out = serializer.serialize_struct("Interval", 3)?;
        out.serialize_field("from", &self.from().as_millis())?;
        out.serialize_field("until", &self.until().as_millis())?;
        out.serialize_field("rateId", &self.rate_id().map(RateId::as_str))?;
        out.end()
    }
}

/// The successors of a best route (ruling 50), from the request's `now`
/// until every rate has expired: consecutive [`Interval`]s, the first from
/// `now`, each `until` the next one's `from`, no two neighbours with the
/// same answer (the same rate, or both "no route"). Empty when no rate is
/// live at `now` (the answer, "no route", then holds forever).
///
/// Built by [`RouteRequest::schedule`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Schedule<'r> {
    pub(crate) intervals: Vec<Interval<'r>>,
}

impl<'r> Schedule<'r> {
    /// The intervals, in time order.
    pub fn intervals(&self) -> &[Interval<'r>] {
        &self.intervals
    }

    /// The interval holding instant `t`, `None` before the first or from
    /// the last `until` on. `O(log n)`.
    pub fn at(&self, t: EpochMillis) -> Option<&Interval<'r>> {
        let after = self.intervals.partition_point(|i| i.from <= t);
        let index = after.checked_sub(1)?;
        self.intervals.get(index).filter(|i| t < i.until)
    }
}

/// The intervals of [`RouteRequest::schedule`] over one pair's `rates`.
pub(crate) fn build<'r, R: RateList + ?Sized>(
    request: &RouteRequest<'_>,
    rates: &'r R,
) -> Vec<Interval<'r>> {
    let mut out: Vec<Interval<'r>> = Vec::new();
    // The rankings below take `rates` as given: a response keeps its
    // compact layout, which the engine's fast path reads.
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
    // Each pass ranks once and covers [t, segment): at least one voter
    // expires at `segment` when it is before `end`, so the loop ends.
    while t < end {
        let at_t = request_at(request, t);
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
                continue; // expired before it could lead
            }
            let until = expiry.min(segment);
            push(&mut out, cursor, until, Ok(*route));
            cursor = until;
        }
        if cursor < segment {
            let no_route = match request_at(request, cursor).best(rates) {
                Err(no_route) => no_route,
                // Unreachable: the ranking at `t` holds every route of the
                // segment. Should it not, the interval ends where it starts.
                Ok(route) => {
                    push(&mut out, cursor, segment, Ok(route));
                    t = segment;
                    continue;
                }
            };
            push(&mut out, cursor, segment, Err(no_route));
        }
        t = segment;
    }
    out
}

/// Appends `[from, until)` with `answer`, merged into the last interval
/// when both have the same answer (same rate, or both "no route").
fn push<'r>(
    out: &mut Vec<Interval<'r>>,
    from: EpochMillis,
    until: EpochMillis,
    answer: Result<Route<'r>, NoRoute>,
) {
    if from >= until {
        return;
    }
    if let Some(last) = out.last_mut() {
        let same = match (&last.answer, &answer) {
            (Ok(a), Ok(b)) => a.rate().id() == b.rate().id(),
            (Err(_), Err(_)) => true,
            _ => false,
        };
        if same && last.until == from {
            last.until = until;
            return;
        }
    }
    out.push(Interval {
        from,
        until,
        answer,
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::route::rules::fixtures::d;
    use crate::{decimal::Amount, rate::RatesResponse};
    use alloc::string::String;
    use core::fmt::Write as _;

    fn rates(list: &[(&str, &str, &str, u64)]) -> RatesResponse {
        let mut text = String::from("[");
        for (at, (id, mult, min, expiry)) in list.iter().enumerate() {
            if at > 0 {
                text.push(',');
            }
            write!(
                text,
                r#"{{"id":"{id}","pairId":"BTC_ETH","amount":{{"assetId":"ETH","value":{mult}}},
                "minerFee":{{"assetId":"ETH","value":0}},"min":{{"assetId":"BTC","value":{min}}},
                "max":{{"assetId":"BTC","value":10}},"expiry":{expiry}}}"#
            )
            .unwrap();
        }
        text.push(']');
        serde_json::from_str(&text).unwrap()
    }

    #[test]
    fn trailing_no_route_runs_to_the_last_expiry() {
        // "a" (best) until 2000; "b" cannot serve 0.5 (min 1) and lives to 7000.
        let rates = rates(&[("a", "30", "0.1", 2000), ("b", "40", "1", 7000)]);
        let request = RouteRequest::exact_in(Amount::new(d("0.5")).unwrap(), EpochMillis::new(0));
        let schedule = request.schedule(&rates).unwrap();
        let got: Vec<_> = schedule
            .intervals()
            .iter()
            .map(|i| {
                (
                    i.from().as_millis(),
                    i.until().as_millis(),
                    i.rate_id().is_some(),
                )
            })
            .collect();
        assert_eq!(got, [(0, 2000, true), (2000, 7000, false)]);
        assert_eq!(request.valid_until(&rates), Some(EpochMillis::new(2000)));
        assert!(schedule.at(EpochMillis::new(7000)).is_none());
        assert_eq!(
            schedule
                .at(EpochMillis::new(1999))
                .and_then(Interval::rate_id)
                .map(RateId::as_str),
            Some("a")
        );
    }

    #[test]
    fn nothing_live_is_an_empty_schedule() {
        let rates = rates(&[("a", "30", "0.1", 2000)]);
        let request =
            RouteRequest::exact_in(Amount::new(d("0.5")).unwrap(), EpochMillis::new(2000));
        assert!(request.schedule(&rates).unwrap().intervals().is_empty());
        assert_eq!(request.valid_until(&rates), None);
    }
}
