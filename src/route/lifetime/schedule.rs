//! The schedule of successors (ruling 50): each interval `[from, until)`
//! with the best route, or the "no route", that ranking at any instant of
//! it gives.
//!
//! Without a median guard the ranking at `now` already orders every route
//! that will ever be eligible (rates only leave), so the best at `t` is the
//! first route of that order still live at `t`: walking the order once and
//! keeping each route whose expiry is later than the last kept one gives
//! every successor. One ranking (`O(n log n)`) and one walk (`O(n)`).
//!
//! Under a median guard (issue 46) the reference moves when a voter
//! expires, and a rate it refused may come back, but the rest is fixed:
//! at one amount a route's net output and rank do not depend on time, and
//! the voters of ruling 42 (valid, unexpired, serving some amount under
//! the rest of the policy) are those at `now`, leaving at their expiries.
//! So `build_median` ranks once with the guard set aside (the order every
//! later ranking keeps, tie-breaks included), keeps the voters in
//! multiplier order in a Fenwick tree (the two middle ones after each
//! expiry: the exact median, the mean of the two for an even count) and
//! the routes in multiplier order in a segment tree of their ranks (a
//! cleared slot once expired). The rates a reference admits (`|m − r| ×
//! 10⁴ ≤ bps × r`) are one contiguous run of multipliers, found by two
//! binary searches with the guard's own exact check; the best route is
//! the least rank in that run. Each expiry instant costs `O(log n)`: the
//! whole schedule `O(n log n)` time and `O(n)` space, plus its "no route"
//! intervals.
//!
//! A "no route" interval says only that: no rate leads there. Its
//! classification (which limits, which amounts work, ruling 10) is what
//! [`RouteRequest::best`] answers at the interval's first instant
//! ([`RouteRequest::at`] with [`Interval::from`]): `O(n)` each, asked only
//! for the intervals a caller wants explained. Their number is not bounded
//! by a constant (voters that cannot serve the amount but out-vote the only
//! route make the median flip at every expiry: `n = 2k + 1` rates, `k`
//! no-route intervals; `tests/lifetime.rs`,
//! `a_flipping_median_makes_a_no_route_per_flip`), so classifying each
//! while building would cost `O(n²)` there; the schedule itself stays
//! `O(n log n)` on every book. The former build ranked again at every voter
//! expiry, finding the median again each time: `O(v · n log n)` on every
//! book (`v` distinct voter expiries); it is kept as the tests' oracle
//! (`lifetime/oracle.rs`).

use alloc::vec::Vec;

use serde::ser::SerializeStruct;
use serde::{Serialize, Serializer};

use rust_decimal::Decimal;

use super::at::median_guarded;
use super::order_stats::{Counts, MinTree};
use crate::ids::RateId;
use crate::rate::{Rate, RateList};
use crate::route::rules::served::AmountModel;
use crate::route::{PriceGuard, PriceReference, Route, RouteRequest};
use crate::time::EpochMillis;

/// One interval of a [`Schedule`]: from `from` (inclusive) to `until`
/// (exclusive), ranking gives one route, or "no route".
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Interval<'r> {
    pub(super) from: EpochMillis,
    pub(super) until: EpochMillis,
    pub(super) route: Option<Route<'r>>,
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

    /// The best route throughout the interval; `None` when there is no
    /// route. Why there is none (ruling 10's classification, with the
    /// amounts that work) is what ranking answers at the interval's first
    /// instant, asked only when wanted:
    /// `request.at(interval.from()).best(rates)` (the limits it names may
    /// differ later in the interval, as the rates it names expire; that
    /// there is no route does not).
    pub fn route(&self) -> Option<&Route<'r>> {
        self.route.as_ref()
    }

    /// The chosen rate's id, `None` for a "no route" interval.
    pub fn rate_id(&self) -> Option<&'r RateId> {
        self.route.as_ref().map(|route| route.rate().id())
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
    if median_guarded(request) {
        return build_median(request, rates, one);
    }
    // One ranking; the best at `t` is the first route still live at `t`.
    let selection = request.select(rates);
    let mut cursor = request.now();
    for route in selection.routes() {
        let expiry = route.rate().expiry();
        if expiry <= cursor {
            continue; // expired before it could lead
        }
        push(&mut out, cursor, expiry, Some(*route));
        cursor = expiry;
    }
    if cursor < end {
        // The ranking at `now` holds every route that will be eligible:
        // none leads from `cursor` on.
        push(&mut out, cursor, end, None);
    }
    out
}

/// The schedule under a median guard, in `O(n log n)` plus one "no route"
/// classification per no-route interval (see the module doc).
///
/// One ranking at `now` with the guard set aside gives every route that
/// can ever be eligible, in the order any later ranking keeps (the amount
/// is fixed, so a route's rank does not depend on time; the guard only
/// filters). The voters of the median (ruling 42) are fixed at `now` and
/// only leave, at their expiries, so a Fenwick tree over them in
/// multiplier order gives the median after each expiry; the rates the
/// guard admits around a reference lie in one contiguous range of
/// multipliers, so a segment tree over the routes in multiplier order,
/// holding each live route's rank, gives the best admitted route by one
/// range minimum. Each expiry instant costs `O(log n)`.
fn build_median<'r, R: RateList + ?Sized>(
    request: &RouteRequest<'_>,
    rates: &'r R,
    one: &'r [Rate],
) -> Vec<Interval<'r>> {
    let mut out: Vec<Interval<'r>> = Vec::new();
    let now = request.now();
    let Some(guard) = request.price_guard() else {
        return out;
    };
    let plain = request.with_policy(request.policy().without_price_guard());
    let selection = plain.select(rates);
    let routes = selection.routes();

    // The voters at `now` (ruling 42), in multiplier order.
    let model = AmountModel::new(request.mode(), now, request.policy().without_price_guard());
    let mut voters: Vec<(Decimal, EpochMillis)> = one
        .iter()
        .filter(|rate| model.serves_some(rate))
        .map(|rate| (rate.multiplier(), rate.expiry()))
        .collect();
    voters.sort_by_key(|voter| voter.0);
    let mut voters_leaving: Vec<(EpochMillis, usize)> = voters
        .iter()
        .enumerate()
        .map(|(at, voter)| (voter.1, at))
        .collect();
    voters_leaving.sort_unstable();
    let mut counts = Counts::full(voters.len());

    // The routes in multiplier order (`by_value[p]` the rank at position
    // `p`), and the order they leave in.
    let mut by_value: Vec<usize> = (0..routes.len()).collect();
    by_value.sort_by(|&a, &b| match (routes.get(a), routes.get(b)) {
        (Some(a), Some(b)) => a.rate().multiplier().cmp(&b.rate().multiplier()),
        _ => core::cmp::Ordering::Equal,
    });
    let mut routes_leaving: Vec<(EpochMillis, usize)> = by_value
        .iter()
        .enumerate()
        .filter_map(|(at, &rank)| Some((routes.get(rank)?.rate().expiry(), at)))
        .collect();
    routes_leaving.sort_unstable();
    let mut live = MinTree::new(&by_value);

    // Every instant at which something can change, in time order.
    let mut instants: Vec<EpochMillis> = one
        .iter()
        .map(Rate::expiry)
        .filter(|expiry| *expiry > now)
        .collect();
    instants.sort_unstable();
    instants.dedup();

    let (mut next_voter, mut next_route) = (0usize, 0usize);
    // The admitted positions `[lo, hi)`, found again when a voter leaves.
    let mut admitted: Option<(usize, usize)> = None;
    let mut from = now;
    for until in instants {
        // Leave everything expired at `from` (`expiry <= from`).
        while let Some(&(expiry, at)) = voters_leaving.get(next_voter) {
            if expiry > from {
                break;
            }
            counts.remove(at);
            admitted = None;
            next_voter = next_voter.saturating_add(1);
        }
        while let Some(&(expiry, at)) = routes_leaving.get(next_route) {
            if expiry > from {
                break;
            }
            live.clear(at);
            next_route = next_route.saturating_add(1);
        }
        let (lo, hi) = if let Some(found) = admitted {
            found
        } else {
            let found = admitted_range(guard, &voters, &counts, routes, &by_value);
            admitted = Some(found);
            found
        };
        let rank = live.min(lo, hi);
        push(&mut out, from, until, routes.get(rank).copied());
        from = until;
    }
    out
}

/// The positions of `by_value` (routes in multiplier order) whose rates
/// `guard` admits once resolved to the median of the voters `counts` still
/// holds (as ranking resolves it: no reference when no voter is left, and
/// then it holds nothing, so every position): one contiguous range, as the rates
/// within `bps` of a reference are (`|m − r| × 10⁴ ≤ bps × r`).
/// `O(log n)` exact checks.
fn admitted_range(
    guard: &PriceGuard,
    voters: &[(Decimal, EpochMillis)],
    counts: &Counts,
    routes: &[Route<'_>],
    by_value: &[usize],
) -> (usize, usize) {
    let count = counts.total();
    let middle = |k: usize| {
        counts
            .kth(k)
            .and_then(|at| voters.get(at))
            .map(|voter| voter.0)
    };
    let upper = middle(count / 2);
    let lower = if count % 2 == 0 {
        (count / 2).checked_sub(1).and_then(middle)
    } else {
        upper
    };
    let (Some(lower), Some(upper)) = (lower, upper) else {
        return (0, by_value.len());
    };
    let reference = PriceReference::between(lower, upper);
    let guard = guard.with_reference(Some(reference));
    let rate = |rank: &usize| routes.get(*rank).map(Route::rate);
    let admits = |rate: &Rate| guard.outlier(rate).is_none();
    // Below the range: refused and not above the reference; past it:
    // refused and above it.
    let lo = by_value.partition_point(|rank| {
        rate(rank).is_some_and(|rate| !admits(rate) && !reference.is_below(rate.multiplier()))
    });
    let hi = by_value.partition_point(|rank| {
        rate(rank).is_some_and(|rate| admits(rate) || !reference.is_below(rate.multiplier()))
    });
    (lo, hi.max(lo))
}

/// Appends `[from, until)` with `answer`, merged into the last interval
/// when both have the same answer (same rate, or both "no route").
fn push<'r>(
    out: &mut Vec<Interval<'r>>,
    from: EpochMillis,
    until: EpochMillis,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::route::rules::fixtures::d;
    use crate::route::PriceGuard;
    use crate::{decimal::Amount, rate::RatesResponse};
    use alloc::string::String;
    use core::fmt::Write as _;
    use proptest::prelude::*;
    use rust_decimal::Decimal;

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

    /// One random rate: multiplier, fee, min, max (tenths), expiry offset,
    /// ExactOut capability. Multipliers 90-110 around a median near 100
    /// put rates on the guard's boundary (95 and 105 at 500 bps, exactly);
    /// a min above the amounts asked makes voters that cannot serve them;
    /// a fee of 50 leaves no output below 0.5, so with a small max such a
    /// rate serves nothing and has no vote.
    fn spec() -> impl Strategy<Value = (u32, u32, u32, u32, u64, bool)> {
        (
            prop::sample::select(alloc::vec![
                90u32, 94, 95, 96, 99, 100, 101, 104, 105, 106, 110
            ]),
            prop::sample::select(alloc::vec![0u32, 1, 50]),
            0u32..40,
            0u32..40,
            prop::sample::select(alloc::vec![0u64, 1, 2, 3, 5, 8, 8, 13, 21, 34]),
            any::<bool>(),
        )
    }

    fn book(specs: &[(u32, u32, u32, u32, u64, bool)]) -> RatesResponse {
        let list: Vec<Rate> = specs
            .iter()
            .enumerate()
            .map(|(i, &(m, fee, min, span, offset, exact_out))| {
                let terms = crate::rate::RateTerms {
                    multiplier: Decimal::from(m),
                    miner_fee: Decimal::new(i64::from(fee), 1),
                    min: Decimal::new(i64::from(min), 1),
                    max: Decimal::new(i64::from(min + span), 1),
                };
                Rate::new(
                    RateId::new(&alloc::format!("r{i:02}")).unwrap(),
                    crate::rate::PairId::new("BTC_ETH").unwrap(),
                    terms,
                    EpochMillis::new(1000 + offset * 100),
                )
                .with_exact_out(exact_out)
            })
            .collect();
        RatesResponse::try_from(list).unwrap()
    }

    /// The schedule equals the oracle's (the former implementation, ranking
    /// again at each voter's expiry) on the book of `specs`, for an amount
    /// of `x` tenths, interval by interval: bounds, route (every field) and
    /// "no route" (every field, as classified at the interval's start).
    fn agrees(
        specs: &[(u32, u32, u32, u32, u64, bool)],
        x: u32,
        exact_out: bool,
        bps: Option<u32>,
        now: u64,
    ) -> bool {
        let rates = book(specs);
        let guard = bps.map(PriceGuard::median);
        let amount = Amount::new(Decimal::new(i64::from(x), 1)).unwrap();
        let request = if exact_out {
            RouteRequest::exact_out(
                amount,
                Amount::new(Decimal::from(x) * Decimal::from(9)).unwrap(),
                EpochMillis::new(now),
            )
        } else {
            RouteRequest::exact_in(amount, EpochMillis::new(now))
        };
        let request = match &guard {
            Some(guard) => request.with_price_guard(guard),
            None => request,
        };
        build(&request, &rates) == super::super::oracle::build(&request, &rates)
    }

    proptest::proptest! {
        // Failures are kept as tests below, not in a file beside `src/`.
        #![proptest_config(ProptestConfig { cases: 512, failure_persistence: None, ..ProptestConfig::default() })]
        /// Under a median guard (and without one), the schedule is the
        /// oracle's.
        #[test]
        fn the_schedule_is_the_oracles(
            specs in prop::collection::vec(spec(), 0..14),
            x in 1u32..40,
            exact_out in any::<bool>(),
            bps in prop::option::of(prop::sample::select(alloc::vec![0u32, 100, 499, 500, 501, 1000, 5000])),
            now in prop::sample::select(alloc::vec![0u64, 1000, 1300, 1800]),
        ) {
            proptest::prop_assert!(agrees(&specs, x, exact_out, bps, now));
        }
    }

    /// A case the property test once shrank to: a guard of 0 bps around the
    /// median of two voters (×104 and ×90: their mean, 97, admits neither).
    #[test]
    fn a_zero_guard_around_two_voters_is_the_oracles() {
        assert!(agrees(
            &[(104, 0, 0, 1, 5, false), (90, 0, 0, 22, 5, false)],
            1,
            false,
            Some(0),
            0
        ));
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
