//! A prepared rate set: built once, answers "best route at amount x" without
//! scanning every rate.

use super::feasible::{Feasible, FeasibleQuery};
use super::rules::eligibility::admit;
use super::rules::served::resolve_guard;
use super::{
    Floors, NoRoute, Policy, PolicyPart, PriceGuard, Route, RouteRequest, UnsupportedPolicy,
};
use crate::decimal::Amount;
use crate::rate::{CampaignLimits, MixedPairs, Rate, RateList};
use crate::swap_mode::SwapMode;
use crate::time::EpochMillis;

/// An ExactIn rate book: the live, valid rates of a response, prepared for
/// "best route at amount x" in `O(log n)`, under the caller's policy.
///
/// The book is the amounts that work in ExactIn ([`FeasibleQuery`], ruling
/// 38) kept for queries: each rate's served interval on the 8-place grid
/// under the whole policy (the one model of a rate over amounts), and the
/// ranking's upper envelope over them, the route ranked first at every
/// amount as pieces (`route/envelope.rs`, the crate's one envelope). A
/// query is one binary search over the pieces and the engine's own check of
/// the one rate found, whatever the data: there is no worst case where it
/// reads every rate. Building is `O(n log n)` (a few exact checks a rate
/// and the envelope's merges).
///
/// The answer is exactly [`RouteRequest::best`]'s for
/// `RouteRequest::exact_in(amount, now).with_policy(policy)` over the
/// same rates: same route, same net output, same ties, same [`NoRoute`].
///
/// # Validity
/// Built at `built_at`, the book is valid for `built_at <= now < horizon`,
/// where the horizon is the earliest expiry among the rates live at
/// `built_at`: within it, no rate expires or comes back. Outside it, for an
/// amount off the 8-place grid (finer, or past a `Decimal` mantissa there)
/// and for an amount no rate serves (to classify "no route"), a query
/// **falls back** to the engine's scan of the same rates, so answers are
/// always right.
///
/// ```
/// use swaproute::{route::{RateBook, RouteRequest}, Amount, CampaignLimits, EpochMillis, RatesResponse};
/// let rates: RatesResponse = serde_json::from_str(r#"[
///   {"amount":{"assetId":"ETH","value":33.1},"expiry":2000000000000,"id":"a",
///    "max":{"assetId":"BTC","value":8},"min":{"assetId":"BTC","value":0.001},
///    "minerFee":{"assetId":"ETH","value":0.0002},"pairId":"BTC_ETH"},
///   {"amount":{"assetId":"ETH","value":33.2},"expiry":1900000000000,"id":"b",
///    "max":{"assetId":"BTC","value":0.4},"min":{"assetId":"BTC","value":0.01},
///    "minerFee":{"assetId":"ETH","value":0.0003},"pairId":"BTC_ETH"}
/// ]"#).unwrap();
/// let now = EpochMillis::new(1_700_000_000_000);
/// let book = RateBook::new(&rates, &CampaignLimits::new(), now);
/// assert_eq!(book.horizon(), Some(EpochMillis::new(1_900_000_000_000)));
/// let best = book.best("0.3".parse::<Amount>().unwrap(), now).unwrap();
/// assert_eq!(best.rate().id().as_str(), "b");
/// let engine = RouteRequest::exact_in("0.3".parse::<Amount>().unwrap(), now).best(&rates);
/// assert_eq!(Ok(best), engine);
/// ```
#[derive(Clone, Debug)]
pub struct RateBook<'r> {
    rates: &'r [Rate],
    campaigns: CampaignLimits,
    floors: Floors,
    /// The caller's price guard (rulings 40-42), as given: a fallback hands
    /// it to the engine, which finds the median at its own `now`.
    guard: Option<PriceGuard>,
    /// The guard with its reference found at `built_at` (ruling 42): the
    /// check of the one rate a query finds applies it.
    resolved: Option<PriceGuard>,
    built_at: EpochMillis,
    horizon: Option<EpochMillis>,
    /// The amounts that work in ExactIn under the policy, with the route
    /// ranked first at each.
    served: Option<Feasible<'r>>,
    /// The rates were of more than one pair: every query answers this.
    mixed: Option<MixedPairs>,
}

impl<'r> RateBook<'r> {
    /// Prepares `rates` for ExactIn queries at `now` and later, under the
    /// caller's `campaigns` limits. `O(n log n)`.
    ///
    /// A hand-built list of more than one pair's rates (see [`RateList`])
    /// makes a book that answers every query with [`NoRoute::MixedPairs`].
    pub fn new<R: RateList + ?Sized>(
        rates: &'r R,
        campaigns: &CampaignLimits,
        now: EpochMillis,
    ) -> Self {
        Self::build(rates, Policy::DEFAULT.with_campaigns(campaigns), now)
    }

    /// [`new`](Self::new) under the caller's whole policy (ruling 41): its
    /// campaigns, its floors, and its price guard, whose median (ruling 42)
    /// is found over the rates at `now` (it cannot change before the book's
    /// [`horizon`](Self::horizon)); the answer is exactly
    /// [`RouteRequest::best`]'s under the same policy. The limit policy
    /// does not matter in ExactIn.
    ///
    /// ```
    /// use swaproute::route::{Floors, Policy, PriceGuard, RateBook, RouteRequest};
    /// use swaproute::{Amount, EpochMillis, RatesResponse};
    /// let rate = |id: &str, m: &str, fee: &str| format!(r#"{{"amount":{{"assetId":"ETH","value":{m}}},
    ///   "expiry":4102444800000,"id":"{id}","max":{{"assetId":"BTC","value":8}},
    ///   "min":{{"assetId":"BTC","value":0.001}},"minerFee":{{"assetId":"ETH","value":{fee}}},"pairId":"BTC_ETH"}}"#);
    /// let rates: RatesResponse = serde_json::from_str(&format!("[{},{},{}]",
    ///     rate("a", "33", "0"), rate("b", "33.1", "0.2"), rate("liar", "900000", "0")))?;
    /// let now = EpochMillis::new(1_785_000_000_000);
    /// let guard = PriceGuard::median(500);
    /// let policy = Policy::DEFAULT.with_price_guard(&guard);
    /// let book = RateBook::with_policy(&rates, policy, now)?;
    /// let amount = "3".parse::<Amount>()?;
    /// // The outlier is refused; at 3, b: 99.3 − 0.2 = 99.1 beats a: 99.
    /// assert_eq!(book.best(amount, now)?.rate().id().as_str(), "b");
    /// assert_eq!(book.best(amount, now), RouteRequest::exact_in(amount, now).with_policy(policy).best(&rates));
    /// // Floors too: fees at most 10 bps of the gross output refuse b at 3
    /// // (0.2 of 99.3, about 20 bps) and leave a.
    /// let floors = policy.with_floors(Floors::NONE.with_max_fee_share_bps(10));
    /// let book = RateBook::with_policy(&rates, floors, now)?;
    /// assert_eq!(book.best(amount, now)?.rate().id().as_str(), "a");
    /// assert_eq!(book.best(amount, now), RouteRequest::exact_in(amount, now).with_policy(floors).best(&rates));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// None today: every part of the policy applies in ExactIn. The
    /// `Result` stays for the parts to come (ruling 49) that a book cannot
    /// hold; such a part is refused by name ([`UnsupportedPolicy`]), never
    /// ignored.
    pub fn with_policy<R: RateList + ?Sized>(
        rates: &'r R,
        policy: Policy<'_>,
        now: EpochMillis,
    ) -> Result<Self, UnsupportedPolicy> {
        policy.refuse(&[] as &[PolicyPart])?;
        Ok(Self::build(rates, policy, now))
    }

    /// The book of `rates` under `policy` at `now`.
    fn build<R: RateList + ?Sized>(rates: &'r R, policy: Policy<'_>, now: EpochMillis) -> Self {
        let guard = policy.price_guard().copied();
        let mut book = RateBook {
            rates: &[],
            campaigns: policy.campaigns().clone(),
            floors: *policy.floors(),
            guard,
            resolved: None,
            built_at: now,
            horizon: None,
            served: None,
            mixed: None,
        };
        let one = match rates.one_pair() {
            Ok(one) => one,
            Err(mixed) => {
                book.mixed = Some(mixed);
                return book;
            }
        };
        book.rates = one;
        book.resolved =
            guard.map(|g| resolve_guard(&g, one, SwapMode::ExactIn, now, policy).unwrap_or(g));
        book.horizon = one
            .iter()
            .filter(|rate| admit(rate, now, SwapMode::ExactIn).is_ok())
            .map(Rate::expiry)
            .min();
        // The amounts that work under the guard as resolved above (a
        // reference is not resolved again: the median is found once).
        let resolved = book.resolved;
        let policy = match &resolved {
            Some(guard) => policy.with_price_guard(guard),
            None => policy,
        };
        book.served = FeasibleQuery::new(SwapMode::ExactIn, now)
            .with_policy(policy)
            .amounts(one)
            .ok();
        book
    }

    /// The policy as the caller gave it, or with the guard's reference as
    /// found at `built_at` (`resolved`).
    fn policy(&self, resolved: bool) -> Policy<'_> {
        let policy = Policy::DEFAULT
            .with_campaigns(&self.campaigns)
            .with_floors(self.floors);
        let guard = if resolved {
            &self.resolved
        } else {
            &self.guard
        };
        match guard {
            Some(guard) => policy.with_price_guard(guard),
            None => policy,
        }
    }

    /// The earliest expiry among the rates live when the book was built
    /// (`None` when none was): queries at or after it fall back to a scan.
    pub fn horizon(&self) -> Option<EpochMillis> {
        self.horizon
    }

    /// `true` when the book answers `now` from its order (`built_at <= now <
    /// horizon`) rather than by falling back.
    pub fn is_valid_at(&self, now: EpochMillis) -> bool {
        now >= self.built_at && self.horizon.is_none_or(|horizon| now < horizon)
    }

    /// The rates the book was built from.
    pub fn rates(&self) -> &'r [Rate] {
        self.rates
    }

    /// The best ExactIn route for `amount` at `now`.
    ///
    /// # Errors
    /// [`NoRoute`], exactly as [`RouteRequest::best`] classifies it.
    pub fn best(&self, amount: Amount, now: EpochMillis) -> Result<Route<'r>, NoRoute> {
        if let Some(mixed) = &self.mixed {
            return Err(NoRoute::MixedPairs(mixed.clone()));
        }
        if let Some(rate) = self.first_at(amount, now) {
            // The engine's own check and route for the one rate found,
            // under the guard's reference found at `built_at`.
            let request = RouteRequest::exact_in(amount, now).with_policy(self.policy(true));
            if let Ok(route) = request.best(core::slice::from_ref(rate)) {
                return Ok(route);
            }
        }
        crate::route::work::fell_back();
        RouteRequest::exact_in(amount, now)
            .with_policy(self.policy(false))
            .best(self.rates)
    }

    /// The rate ranked first at `amount`, when the book can say: within its
    /// window, at an amount on its grid that some rate serves.
    fn first_at(&self, amount: Amount, now: EpochMillis) -> Option<&'r Rate> {
        if !self.is_valid_at(now) {
            return None;
        }
        self.served.as_ref()?.ranked_first(amount.get())
    }
}

#[cfg(test)]
#[cfg(feature = "std")]
mod tests {
    use super::*;
    use crate::rate::RatesResponse;
    use crate::route::work::meter::fall_backs;
    use alloc::format;
    use alloc::string::String;

    const NOW: EpochMillis = EpochMillis::new(1_700_000_000_000);

    fn rate(id: &str, multiplier: &str, fee: &str, min: &str, max: &str) -> String {
        format!(
            r#"{{"amount":{{"assetId":"ETH","value":"{multiplier}"}},"expiry":1900000000000,"id":"{id}","max":{{"assetId":"BTC","value":"{max}"}},"min":{{"assetId":"BTC","value":"{min}"}},"minerFee":{{"assetId":"ETH","value":"{fee}"}},"pairId":"BTC_ETH"}}"#
        )
    }

    fn response(list: &[String]) -> RatesResponse {
        serde_json::from_str(&format!("[{}]", list.join(","))).unwrap()
    }

    fn d(text: &str) -> rust_decimal::Decimal {
        text.parse().unwrap()
    }

    fn amount(text: &str) -> Amount {
        text.parse().unwrap()
    }

    /// The book's answer for `x` and how many times it fell back for it.
    fn best_counted<'r>(book: &RateBook<'r>, x: &str) -> (Result<Route<'r>, NoRoute>, u64) {
        fall_backs(|| book.best(amount(x), NOW))
    }

    /// Rates a (33.1, fee 0.0002, 0.001 to 8) and b (33.2, fee 0.0003, 0.01
    /// to 0.4), both with exact lines, then `third`.
    fn a_and_b_with(third: String) -> RatesResponse {
        response(&[
            rate("a", "33.1", "0.0002", "0.001", "8"),
            rate("b", "33.2", "0.0003", "0.01", "0.4"),
            third,
        ])
    }

    /// Nets by hand: a: 0.3 × 33.1 − 0.0002 = 9.9298; b: 0.3 × 33.2 −
    /// 0.0003 = 9.9597 (b wins); c (a multiplier too wide for the engine's
    /// integer form): 0.3 × 33.0…01 − 0.0001 ≈ 9.8999.
    #[test]
    fn answers_from_its_own_order_within_its_window() {
        let list = a_and_b_with(rate(
            "c",
            "33.0000000000000000000001",
            "0.0001",
            "0.001",
            "8",
        ));
        let book = RateBook::new(&list, &CampaignLimits::new(), NOW);
        assert_eq!(book.rates().len(), 3);
        assert_eq!(book.rates().as_ptr(), list.as_ptr());
        assert!(book.is_valid_at(NOW));
        assert!(!book.is_valid_at(EpochMillis::new(1_699_999_999_999)));
        assert!(book.is_valid_at(EpochMillis::new(1_899_999_999_999)));
        assert!(!book.is_valid_at(EpochMillis::new(1_900_000_000_000)));
        let (best, fallbacks) = best_counted(&book, "0.3");
        let best = best.unwrap();
        assert_eq!(best.rate().id().as_str(), "b");
        assert_eq!(best.net_output(), d("9.9597"));
        assert_eq!(fallbacks, 0, "the book answers 0.3 itself");
        // At 9 (above b's max of 0.4 and every max): no route, which the
        // engine classifies.
        let (above, fallbacks) = best_counted(&book, "9");
        assert!(matches!(above, Err(NoRoute::AboveMax { .. })), "{above:?}");
        assert_eq!(fallbacks, 1);
        // Past the window it asks the engine.
        let (late, fallbacks) =
            fall_backs(|| book.best(amount("0.3"), EpochMillis::new(1_900_000_000_000)));
        assert!(late.is_err());
        assert_eq!(fallbacks, 1);
    }

    /// A net at or below zero is no route: 0.01 × 33 − 1 = −0.67, and
    /// exactly zero: 0.01 × 33 − 0.33; at 0.1 the first rate yields 2.3.
    #[test]
    fn a_net_at_or_below_zero_is_no_route() {
        let rates = response(&[rate("a", "33", "1", "0.001", "8")]);
        let book = RateBook::new(&rates, &CampaignLimits::new(), NOW);
        let (best, _) = best_counted(&book, "0.01");
        assert!(matches!(best, Err(NoRoute::NoOutput { .. })), "{best:?}");
        let zero = response(&[rate("z", "33", "0.33", "0.001", "8")]);
        let zero_book = RateBook::new(&zero, &CampaignLimits::new(), NOW);
        let (best, _) = best_counted(&zero_book, "0.01");
        assert!(best.is_err());
        let (best, fallbacks) = best_counted(&book, "0.1");
        assert_eq!(best.unwrap().net_output(), d("2.3"));
        assert_eq!(fallbacks, 0);
    }

    /// The book holds the 8-place grid: an amount finer than it is the
    /// engine's (and the same answer: 0.300000001 × 33.2 − 0.0003 =
    /// 9.9597000332 for b).
    #[test]
    fn an_amount_off_the_grid_falls_back() {
        let list = a_and_b_with(rate("c", "1", "0", "0.001", "8"));
        let book = RateBook::new(&list, &CampaignLimits::new(), NOW);
        let (best, fallbacks) = best_counted(&book, "0.300000001");
        let best = best.unwrap();
        assert_eq!(best.rate().id().as_str(), "b");
        assert_eq!(best.net_output(), d("9.9597000332"));
        assert_eq!(fallbacks, 1);
    }

    /// A multiplier far wider than the engine's integer form is one more
    /// line of the envelope: the book answers 0.3 itself (d is above its
    /// max of 0.1 there) and 0.05 with d (0.05 × 10^23 = 5 × 10^21).
    #[test]
    fn a_wide_multiplier_is_one_more_line() {
        let list = a_and_b_with(rate("d", "100000000000000000000000", "0", "0.001", "0.1"));
        let book = RateBook::new(&list, &CampaignLimits::new(), NOW);
        let (best, fallbacks) = best_counted(&book, "0.3");
        assert_eq!(best.unwrap().rate().id().as_str(), "b");
        assert_eq!(fallbacks, 0);
        let (best, fallbacks) = best_counted(&book, "0.05");
        assert_eq!(best.unwrap().rate().id().as_str(), "d");
        assert_eq!(fallbacks, 0);
    }

    /// The floors (ruling 38) hold in the book: with fees at most 10 bps of
    /// the gross output, at 0.01 a pays 0.0002 of 0.331 (about 6 bps) and b
    /// 0.0003 of 0.332 (about 9 bps): b, whose net 0.3317 beats a's 0.3308;
    /// with 7 bps, only a is left.
    #[test]
    fn floors_hold() {
        let list = a_and_b_with(rate("c", "1", "0", "0.001", "8"));
        for (bps, want) in [(10, "b"), (7, "a")] {
            let floors = Floors::NONE.with_max_fee_share_bps(bps);
            let policy = Policy::DEFAULT.with_floors(floors);
            let book = RateBook::with_policy(&list, policy, NOW).unwrap();
            let (best, fallbacks) = best_counted(&book, "0.01");
            assert_eq!(best.unwrap().rate().id().as_str(), want, "{bps}");
            assert_eq!(fallbacks, 0, "{bps}");
        }
    }

    /// Rates equal in every key go to the lower id, however the tree holds
    /// them, and the book answers itself.
    #[test]
    fn equal_rates_go_to_the_lower_id() {
        for order in [["b", "a", "c"], ["c", "b", "a"], ["a", "c", "b"]] {
            let list = response(&order.map(|id| rate(id, "33.1", "0.0002", "0.001", "8")));
            let book = RateBook::new(&list, &CampaignLimits::new(), NOW);
            let (best, fallbacks) = best_counted(&book, "0.3");
            assert_eq!(best.unwrap().rate().id().as_str(), "a", "{order:?}");
            assert_eq!(fallbacks, 0, "{order:?}");
        }
    }

    /// Two lines that cross exactly at the amount tie on the net: the lower
    /// fee wins, as in the engine. At 0.3: a: 0.3 × 33 − 0 = 9.9; b: 0.3 ×
    /// 34 − 0.3 = 9.9. Their limits differ ([0.001, 8] and [0.2, 0.5]), so
    /// the tree holds them in different nodes and the tie is broken between
    /// the nodes' answers.
    #[test]
    fn lines_crossing_at_the_amount_go_to_the_lower_fee() {
        for order in [["a", "b"], ["b", "a"]] {
            let list = response(&order.map(|id| match id {
                "a" => rate("a", "33", "0", "0.001", "8"),
                _ => rate("b", "34", "0.3", "0.2", "0.5"),
            }));
            let book = RateBook::new(&list, &CampaignLimits::new(), NOW);
            let (best, fallbacks) = best_counted(&book, "0.3");
            assert_eq!(best.unwrap().rate().id().as_str(), "a", "{order:?}");
            assert_eq!(fallbacks, 0, "{order:?}");
            // Either side of the crossing the steeper or the flatter line wins.
            let (right, _) = best_counted(&book, "0.31");
            assert_eq!(right.unwrap().rate().id().as_str(), "b");
            let (left, _) = best_counted(&book, "0.29");
            assert_eq!(left.unwrap().rate().id().as_str(), "a");
        }
    }
}
