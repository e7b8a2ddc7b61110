//! The questions a caller asks of a rates response: the best route, the
//! top `k`, every rate ranked or rejected. Thin wrappers over the engine
//! (`super::engine`): each checks the rates name one pair, picks a collector
//! and the slots to write to, and lets the engine scan and conclude.

use alloc::vec::Vec;

use super::engine::{self, TopK};
use super::lifetime;
use super::rules::eligibility::Candidate;
use super::rules::served::resolve_guard;
use super::{NoRoute, PriceGuard, PriceReference, Route, RouteRequest, Selection, TopN};
use crate::rate::prepared::Layout;
use crate::rate::{Rate, RateList};
use crate::time::EpochMillis;

/// Above this `k`, [`RouteRequest::top`] sorts instead of inserting: bounded
/// insertion moves up to `k` slots per rate, and past a few dozen one sort
/// of the eligible keys (`O(n log n)`) is the cheaper plan.
const SORT_K: usize = 64;

impl RouteRequest<'_> {
    /// A median price guard's reference, found over `rates` (rulings 40
    /// and 42: the rates that can serve some amount under the rest of the
    /// policy): `None` without a guard (one branch on the fast path) or
    /// when the guard's reference is known.
    #[inline]
    fn unresolved_guard(&self, rates: &[Rate]) -> Option<PriceGuard> {
        resolve_guard(
            self.price_guard()?,
            rates,
            self.mode(),
            self.now(),
            self.policy(),
        )
    }

    /// A "no route" with the amounts that work it names (ruling 10 as
    /// ruling 38 amends it): see `feasible/working.rs`.
    pub(crate) fn name_working(&self, no_route: NoRoute, rates: &[Rate]) -> NoRoute {
        super::feasible::name_working(self, no_route, rates)
    }

    /// The reference this request's price guard judges `rates` against:
    /// the caller's, or the exact median multiplier of the rates that can
    /// serve some amount under the rest of the policy (ruling 42); `None`
    /// without a guard, or when no rate can serve any amount.
    pub fn price_reference(&self, rates: &[Rate]) -> Option<PriceReference> {
        let guard = self.price_guard()?;
        match self.unresolved_guard(rates) {
            Some(resolved) => resolved.reference().copied(),
            None => guard.reference().copied(),
        }
    }

    /// The best route, or why there is none. One pass, no allocation.
    ///
    /// The ranking order is documented on [`Selection`]; the result is the
    /// first route of [`select`](Self::select), independent of input order.
    ///
    /// # Errors
    /// [`NoRoute`] when every rate is excluded; its code follows ruling 10 in
    /// docs/RULES.md. [`NoRoute::MixedPairs`] for a hand-built list of more
    /// than one pair's rates (see [`RateList`]).
    #[inline]
    pub fn best<'r, R: RateList + ?Sized>(&self, rates: &'r R) -> Result<Route<'r>, NoRoute> {
        let compact = rates.layout();
        self.best_in(rates.one_pair().map_err(NoRoute::MixedPairs)?, compact)
    }

    /// [`best`](Self::best) over rates known to be one pair's (`compact`:
    /// their compact records, or empty).
    pub(crate) fn best_in<'r>(
        &self,
        rates: &'r [Rate],
        compact: Layout<'_>,
    ) -> Result<Route<'r>, NoRoute> {
        if let Some(guard) = self.unresolved_guard(rates) {
            return self.with_price_guard(&guard).best_in(rates, compact);
        }
        engine::collect_best(self, rates, compact)
    }

    /// The best `k` routes, best first (fewer when fewer are eligible; none
    /// for `k == 0`). Linear in the rates for small `k`; a full ranking
    /// (`O(n log n)`) for `k` above a few dozen.
    ///
    /// See [`top_n`](Self::top_n) for a fixed `k` without allocation.
    ///
    /// # Errors
    /// [`NoRoute`] when every rate is excluded, whatever `k` is (and
    /// [`NoRoute::MixedPairs`] as for [`best`](Self::best)).
    #[inline]
    pub fn top<'r, R: RateList + ?Sized>(
        &self,
        rates: &'r R,
        k: usize,
    ) -> Result<Vec<Route<'r>>, NoRoute> {
        let compact = rates.layout();
        self.top_in(rates.one_pair().map_err(NoRoute::MixedPairs)?, compact, k)
    }

    /// [`top`](Self::top) over rates known to be one pair's.
    fn top_in<'r>(
        &self,
        rates: &'r [Rate],
        compact: Layout<'_>,
        k: usize,
    ) -> Result<Vec<Route<'r>>, NoRoute> {
        if let Some(guard) = self.unresolved_guard(rates) {
            return self.with_price_guard(&guard).top_in(rates, compact, k);
        }
        if k == 0 {
            // Nothing to rank, but "no route" is still an answer about the rates.
            return self.best_in(rates, compact).map(|_| Vec::new());
        }
        let k = k.min(rates.len());
        if k > SORT_K {
            return engine::select_in(self, rates).into_top(k);
        }
        // Small k (the usual case): the fixed-k scan over arrays on the
        // stack, the returned `Vec` the one allocation.
        macro_rules! fixed_k {
            ($($k:literal)*) => {
                match k {
                    $($k => return self.top_fixed::<$k>(rates, compact),)*
                    _ => {}
                }
            };
        }
        fixed_k!(1 2 3 4 5 6 7 8);
        let mut keys = alloc::vec![i128::MIN; k];
        let mut keyed: Vec<Option<&'r Rate>> = alloc::vec![None; k];
        let mut plain: Vec<Option<Candidate<'r>>> = alloc::vec![None; k];
        let mut units = alloc::vec![(); k];
        let mut routes: Vec<Option<Route<'r>>> = alloc::vec![None; k];
        self.top_in_slots(
            rates,
            compact,
            k,
            &mut keys,
            &mut keyed,
            &mut plain,
            &mut units,
            &mut routes,
        )
    }

    /// [`top`](Self::top) for `k = K`, through [`top_n`](Self::top_n)'s scan.
    fn top_fixed<'r, const K: usize>(
        &self,
        rates: &'r [Rate],
        compact: Layout<'_>,
    ) -> Result<Vec<Route<'r>>, NoRoute> {
        let mut top = TopN::<K>::new();
        self.top_n_into_slice(rates, compact, &mut top)?;
        let mut out = Vec::with_capacity(top.len());
        out.extend(top.iter().copied());
        Ok(out)
    }

    /// [`top`](Self::top) over the first `k` of each of the caller's slots
    /// (the keys `i128::MIN`). One copy of the scan for every `k`.
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    fn top_in_slots<'r>(
        &self,
        rates: &'r [Rate],
        compact: Layout<'_>,
        k: usize,
        keys: &mut [i128],
        keyed: &mut [Option<&'r Rate>],
        plain: &mut [Option<Candidate<'r>>],
        units: &mut [()],
        routes: &mut [Option<Route<'r>>],
    ) -> Result<Vec<Route<'r>>, NoRoute> {
        let (Some(keys), Some(keyed), Some(plain), Some(units), Some(routes)) = (
            keys.get_mut(..k),
            keyed.get_mut(..k),
            plain.get_mut(..k),
            units.get_mut(..k),
            routes.get_mut(..k),
        ) else {
            return engine::select_in(self, rates).into_top(k);
        };
        let mut top = TopK::new(keys, keyed, plain, units);
        let len = engine::collect(self, rates, compact, &mut top, routes)?;
        let mut out = Vec::with_capacity(len);
        out.extend(routes.iter().take(len).flatten());
        Ok(out)
    }

    /// The best `K` routes, best first (fewer when fewer are eligible), in an
    /// array: the same routes as [`top`](Self::top)`(rates, K)`, without
    /// allocating.
    ///
    /// The one exception is an ExactOut request whose required input
    /// overflows `Decimal` (amounts near 10^28): then the answer is taken from
    /// the full [`select`](Self::select), which allocates.
    ///
    /// Inlined around [`top_n_into`](Self::top_n_into), so that the caller's
    /// result is the buffer the routes are written to (out of line, the
    /// `K` routes were built aside and copied out: 400 bytes for `K = 5`,
    /// measured at 10-15 ns of `top_n::<5>` over 8 and 64 rates). To reuse
    /// one buffer across calls, call `top_n_into` directly.
    ///
    /// # Errors
    /// [`NoRoute`] when every rate is excluded, whatever `K` is.
    #[inline]
    pub fn top_n<'r, const K: usize>(
        &self,
        rates: &'r (impl RateList + ?Sized),
    ) -> Result<TopN<'r, K>, NoRoute> {
        let mut out = TopN::new();
        self.top_n_into(rates, &mut out)?;
        Ok(out)
    }

    /// [`top_n`](Self::top_n) into `out`, which the caller holds: the routes
    /// are written where they are read, with no copy of the array. `out`'s
    /// earlier contents are replaced; on an error it is left empty.
    ///
    /// ```
    /// use swaproute::route::{RouteRequest, TopN};
    /// use swaproute::{Amount, EpochMillis, RatesResponse};
    /// let rates: RatesResponse = serde_json::from_str(r#"[
    ///   {"amount":{"assetId":"ETH","value":33.1},"expiry":2000000000000,"id":"a",
    ///    "max":{"assetId":"BTC","value":8},"min":{"assetId":"BTC","value":0.001},
    ///    "minerFee":{"assetId":"ETH","value":0.0002},"pairId":"BTC_ETH"},
    ///   {"amount":{"assetId":"ETH","value":33.2},"expiry":2000000000000,"id":"b",
    ///    "max":{"assetId":"BTC","value":8},"min":{"assetId":"BTC","value":0.01},
    ///    "minerFee":{"assetId":"ETH","value":0.0003},"pairId":"BTC_ETH"}
    /// ]"#).unwrap();
    /// let now = EpochMillis::new(1_700_000_000_000);
    /// let mut top = TopN::<3>::new();
    /// for amount in ["0.5", "0.005"] {
    ///     let request = RouteRequest::exact_in(amount.parse::<Amount>().unwrap(), now);
    ///     request.top_n_into(&rates, &mut top).unwrap();
    ///     println!("{amount}: {} routes", top.len());
    /// }
    /// // At 0.005 only "a" accepts the amount (b's minimum is 0.01).
    /// assert_eq!(top.len(), 1);
    /// assert_eq!(top.first().unwrap().rate().id().as_str(), "a");
    /// ```
    ///
    /// # Errors
    /// [`NoRoute`] when every rate is excluded, whatever `K` is (and
    /// [`NoRoute::MixedPairs`] as for [`best`](Self::best)).
    #[inline]
    pub fn top_n_into<'r, const K: usize>(
        &self,
        rates: &'r (impl RateList + ?Sized),
        out: &mut TopN<'r, K>,
    ) -> Result<(), NoRoute> {
        match rates.one_pair() {
            Ok(list) => self.top_n_into_slice(list, rates.layout(), out),
            Err(mixed) => {
                out.clear();
                Err(NoRoute::MixedPairs(mixed))
            }
        }
    }

    /// [`top_n_into`](Self::top_n_into) over rates known to be one pair's.
    // Not inlined: the whole scan is in here, and inlined into a caller's
    // loop it measured slower (about 8 ns at 64 rates).
    #[inline(never)]
    fn top_n_into_slice<'r, const K: usize>(
        &self,
        rates: &'r [Rate],
        compact: Layout<'_>,
        out: &mut TopN<'r, K>,
    ) -> Result<(), NoRoute> {
        out.clear();
        if let Some(guard) = self.unresolved_guard(rates) {
            return self
                .with_price_guard(&guard)
                .top_n_into_slice(rates, compact, out);
        }
        if K == 0 {
            // Nothing to rank, but "no route" is still an answer about the rates.
            return self.best_in(rates, compact).map(|_| ());
        }
        let keyed: [Option<&'r Rate>; K] = [None; K];
        let plain: [Option<Candidate<'r>>; K] = [None; K];
        let mut top = TopK::new([i128::MIN; K], keyed, plain, [(); K]);
        match engine::collect(self, rates, compact, &mut top, out.slots()) {
            Ok(len) => {
                out.set_len(len);
                Ok(())
            }
            Err(no_route) => {
                out.clear();
                Err(no_route)
            }
        }
    }

    /// Every rate, ranked or rejected with its reason.
    ///
    /// A hand-built list of more than one pair's rates (see [`RateList`]) is
    /// not ranked: the selection is empty, with [`NoRoute::MixedPairs`] as its
    /// [`no_route`](Selection::no_route).
    pub fn select<'r, R: RateList + ?Sized>(&self, rates: &'r R) -> Selection<'r> {
        match rates.one_pair() {
            Ok(rates) => match self.unresolved_guard(rates) {
                Some(guard) => engine::select_in(&self.with_price_guard(&guard), rates),
                None => engine::select_in(self, rates),
            },
            Err(mixed) => Selection::new(
                self,
                Vec::new(),
                Vec::new(),
                Some(NoRoute::MixedPairs(mixed)),
            ),
        }
    }

    /// The best single route, or the exact best split of `fromAmount` over
    /// 2 or 3 of the rates (ruling 39).
    ///
    /// A split is looked for when no single route serves the amount, or, when
    /// the policy asks for a gain, always; it is returned when it serves an
    /// amount no single route does, or beats the best single route by the
    /// policy's gain. See the module documentation of `route/split/` for the
    /// search.
    ///
    /// ```
    /// use swaproute::route::{RouteRequest, SplitAnswer, SplitPolicy};
    /// use swaproute::{Amount, EpochMillis, RatesResponse};
    /// let rates: RatesResponse = serde_json::from_str(r#"[
    ///   {"amount":{"assetId":"ETH","value":30},"expiry":4102444800000,"id":"a",
    ///    "max":{"assetId":"BTC","value":6},"min":{"assetId":"BTC","value":0.1},
    ///    "minerFee":{"assetId":"ETH","value":0.01},"pairId":"BTC_ETH"},
    ///   {"amount":{"assetId":"ETH","value":29},"expiry":4102444800000,"id":"b",
    ///    "max":{"assetId":"BTC","value":5},"min":{"assetId":"BTC","value":0.1},
    ///    "minerFee":{"assetId":"ETH","value":0.02},"pairId":"BTC_ETH"}]"#).unwrap();
    /// let request = RouteRequest::exact_in("10".parse::<Amount>().unwrap(),
    ///     EpochMillis::new(1_785_000_000_000));
    /// let answer = request.split(&rates, &SplitPolicy::DEFAULT).unwrap();
    /// let split = answer.split().unwrap();
    /// // 6 × 30 − 0.01 + 4 × 29 − 0.02 = 295.97
    /// assert_eq!(split.net_output().to_string(), "295.97");
    /// assert_eq!(split.legs()[0].from_amount().to_string(), "6.00000000");
    /// assert_eq!(split.legs()[1].from_amount().to_string(), "4.00000000");
    /// ```
    ///
    /// # Errors
    /// [`SplitError::ExactOut`](super::SplitError::ExactOut) for an ExactOut
    /// request; [`SplitError::NoRoute`](super::SplitError::NoRoute) with the
    /// single pair's "no route" when no split serves the amount either (and
    /// for a hand-built list of more than one pair's rates);
    /// [`SplitError::OffGrid`](super::SplitError::OffGrid) for an amount off
    /// the from asset's grid; [`SplitError::TooMuchWork`](super::SplitError::TooMuchWork)
    /// (`SEARCH_EXHAUSTED`) when the search runs out of work (ruling 48).
    pub fn split<'r, R: RateList + ?Sized>(
        &self,
        rates: &'r R,
        policy: &super::SplitPolicy,
    ) -> Result<super::SplitAnswer<'r>, super::SplitError> {
        super::split::answer(self, rates, policy)
    }
}

/// Ruling 50: until when an answer holds, and what follows it (the model
/// is `lifetime/`).
impl RouteRequest<'_> {
    /// Until when [`best`](Self::best)'s answer over `rates` holds (ruling
    /// 50): the first instant at which it would change, `None` when it never
    /// will (no rate left to expire).
    ///
    /// Without a median guard this is the chosen rate's expiry (no other
    /// rate can overtake it: rates only leave); a "no route" holds until
    /// every rate has expired (it then becomes `RATE_EXPIRED`). With a
    /// median guard, also the first expiry among the guard's voters
    /// (ruling 50: the reference, and so the answer, may move then), as
    /// for [`top_valid_until`](Self::top_valid_until) and the splits' and
    /// chains' lifetimes: one ranking and one pass over the rates. A
    /// voter's expiry may leave the answer as it was;
    /// [`schedule`](Self::schedule) says exactly when it changes, at the
    /// cost of ranking again as the voters leave. The "no route" named for
    /// an instant of its interval may name other limits than at `now` (the
    /// rates it names may expire first); whether there is a route, and
    /// which, does not change before `valid_until`.
    ///
    /// A list of several pairs' rates answers `None` (its answer,
    /// [`NoRoute::MixedPairs`], does not depend on time).
    ///
    /// ```
    /// use swaproute::{route::RouteRequest, Amount, EpochMillis, RatesResponse};
    /// let rates: RatesResponse = serde_json::from_str(r#"[
    ///   {"id":"a","pairId":"BTC_ETH","amount":{"assetId":"ETH","value":30},
    ///    "minerFee":{"assetId":"ETH","value":0},"min":{"assetId":"BTC","value":0.1},
    ///    "max":{"assetId":"BTC","value":1},"expiry":2000}]"#)?;
    /// // Below every min: no route until the last rate expires.
    /// let request = RouteRequest::exact_in("0.01".parse::<Amount>()?, EpochMillis::new(1000));
    /// assert_eq!(request.valid_until(&rates), Some(EpochMillis::new(2000)));
    /// // After it, RATE_EXPIRED holds forever.
    /// let later = RouteRequest::exact_in("0.5".parse::<Amount>()?, EpochMillis::new(2000));
    /// assert_eq!(later.valid_until(&rates), None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn valid_until<R: RateList + ?Sized>(&self, rates: &R) -> Option<EpochMillis> {
        let one = rates.one_pair().ok()?;
        // `rates` as given: a response keeps its compact layout.
        let answer = match self.best(rates) {
            Ok(route) => Some(route.rate().expiry()),
            Err(_) => one
                .iter()
                .map(Rate::expiry)
                .filter(|expiry| *expiry > self.now())
                .max(),
        };
        lifetime::bounded_by_voters(self, one, answer)
    }

    /// Until when [`top`](Self::top)`(rates, k)` holds: the earliest expiry
    /// among the routes it returns (any of them leaving changes the list;
    /// nothing can enter above them), or, with a median guard, the earliest
    /// voter's expiry if that comes first. For no route (or `k == 0`), as
    /// [`valid_until`](Self::valid_until).
    pub fn top_valid_until<R: RateList + ?Sized>(
        &self,
        rates: &R,
        k: usize,
    ) -> Option<EpochMillis> {
        let one = rates.one_pair().ok()?;
        let routes = match self.top(rates, k) {
            Ok(routes) if !routes.is_empty() => routes,
            _ => return self.valid_until(rates),
        };
        let shown = routes.iter().map(|route| route.rate().expiry()).min();
        lifetime::bounded_by_voters(self, one, shown)
    }

    /// Until when [`select`](Self::select)'s answer holds: it lists every
    /// rate, ranked or rejected with its reason, so it changes at the
    /// earliest expiry of any rate still live at `now` (that rate's reason
    /// becomes "expired"); `None` when none is.
    pub fn select_valid_until<R: RateList + ?Sized>(&self, rates: &R) -> Option<EpochMillis> {
        let rates = rates.one_pair().ok()?;
        lifetime::next_expiry(rates, self.now())
    }

    /// The answer of [`best`](Self::best) together with its
    /// [`valid_until`](Self::valid_until).
    ///
    /// # Errors
    /// As [`best`](Self::best).
    pub fn best_until<'r, R: RateList + ?Sized>(
        &self,
        rates: &'r R,
    ) -> (Result<Route<'r>, NoRoute>, Option<EpochMillis>) {
        (self.best(rates), self.valid_until(rates))
    }
}

impl RouteRequest<'_> {
    /// The schedule of successors of [`best`](Self::best)'s answer over
    /// `rates` (ruling 50): from `now` until every rate of `rates` has
    /// expired, each interval with its best route or its "no route". At
    /// every instant `t` of an interval, the same request at `t` ranks the
    /// interval's answer first. `O(n log n)`: one ranking and one pass
    /// over the expiries, under a median guard too (its voters' median
    /// kept by order statistics), plus one `best` at the start of each
    /// "no route" interval (see `route/lifetime/schedule.rs`).
    ///
    /// ```
    /// use swaproute::{route::RouteRequest, Amount, EpochMillis, RatesResponse};
    /// let rates: RatesResponse = serde_json::from_str(r#"[
    ///   {"id":"a","pairId":"BTC_ETH","amount":{"assetId":"ETH","value":30},
    ///    "minerFee":{"assetId":"ETH","value":0},"min":{"assetId":"BTC","value":0.1},
    ///    "max":{"assetId":"BTC","value":1},"expiry":9000},
    ///   {"id":"b","pairId":"BTC_ETH","amount":{"assetId":"ETH","value":31},
    ///    "minerFee":{"assetId":"ETH","value":0},"min":{"assetId":"BTC","value":0.1},
    ///    "max":{"assetId":"BTC","value":1},"expiry":3000},
    ///   {"id":"c","pairId":"BTC_ETH","amount":{"assetId":"ETH","value":29},
    ///    "minerFee":{"assetId":"ETH","value":0},"min":{"assetId":"BTC","value":0.1},
    ///    "max":{"assetId":"BTC","value":1},"expiry":5000}]"#)?;
    /// let request = RouteRequest::exact_in("0.5".parse::<Amount>()?, EpochMillis::new(1000));
    /// let schedule = request.schedule(&rates)?;
    /// let ids: Vec<_> = schedule.intervals().iter()
    ///     .map(|i| (i.until().as_millis(), i.rate_id().map(|id| id.as_str())))
    ///     .collect();
    /// // b (best) until 3000, then a until 9000; c never leads.
    /// assert_eq!(ids, [(3000, Some("b")), (9000, Some("a"))]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`NoRoute::MixedPairs`] for a list of several pairs' rates.
    pub fn schedule<'r, R: RateList + ?Sized>(
        &self,
        rates: &'r R,
    ) -> Result<lifetime::Schedule<'r>, NoRoute> {
        rates.one_pair().map_err(NoRoute::MixedPairs)?;
        Ok(lifetime::Schedule {
            intervals: lifetime::schedule::build(self, rates),
        })
    }
}
