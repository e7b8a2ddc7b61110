//! A prepared rate set: built once, answers "best route at amount x" without
//! scanning every rate.

use alloc::vec::Vec;
use core::cmp::Ordering;

mod envelope;

use envelope::{Envelope, Line};

use super::engine::{self, Best, Kept};
use super::request::FastRequest;
use super::rules::eligibility::{admit, Candidate, Score};
use super::rules::order::{key_order, position_order, rank_order};
use super::rules::served::resolve_guard;
use super::{NoRoute, Policy, PolicyPart, PriceGuard, Route, RouteRequest, UnsupportedPolicy};
use crate::decimal::Amount;
use crate::numeric::{pow10, scaled28, OPERAND_LIMIT};
use crate::rate::prepared::{FAST, USABLE};
use crate::rate::{CampaignLimits, MixedPairs, Rate, RateList};
use crate::swap_mode::SwapMode;
use crate::time::EpochMillis;

/// An ExactIn rate book: the live, valid rates of a response, prepared for
/// "best route at amount x" in `O(log² n)`, with the caller's campaign limits.
///
/// Each rate is the line `x ↦ x × multiplier − fee` on `[min, effective
/// max]`; the book is a segment tree over the intervals whose nodes keep the
/// upper envelope of their lines, with the envelope's break points (see the
/// `envelope` module). A query makes `O(log² n)` integer comparisons and
/// evaluates `O(log n)` exact integer keys, whatever the data: there is no
/// worst case where it reads every rate. Building is `O(n log n)`.
///
/// The answer is exactly [`RouteRequest::best`]'s for
/// `RouteRequest::exact_in(amount, now).with_campaigns(campaigns)` over the
/// same rates: same route, same net output, same ties, same [`NoRoute`].
///
/// # Validity
/// Built at `built_at`, the book is valid for `built_at <= now < horizon`,
/// where the horizon is the earliest expiry among the rates live at
/// `built_at`: within it, no rate expires or comes back. Outside it, and
/// whenever the amount is one for which some rate's key would not be exact
/// (the plain `Decimal` path would round), or no rate is keyed at the amount
/// (to classify "no route"), a query **falls back** to the engine's scan of
/// the same rates, so answers are always right. Rates without an exact line
/// (numbers too wide for the integer form) are scanned at every query beside
/// the tree, by the fast path or the plain one as the engine would.
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
    /// The caller's price guard (rulings 40-42), as given: the rates it
    /// refused at `built_at` are left out of the tree and the loose rates;
    /// a fallback hands it to the engine, which finds the median at its own
    /// `now`.
    guard: Option<PriceGuard>,
    built_at: EpochMillis,
    horizon: Option<EpochMillis>,
    /// The keyed rates, in slope order (the envelope's line positions), with
    /// their input positions.
    keyed: Vec<(u32, &'r Rate)>,
    /// The envelope over `keyed`.
    envelope: Envelope,
    /// For an amount at scale `a`: the largest mantissa for which every keyed
    /// rate's fast key is exact (`None`: none is).
    exact_below: [Option<u128>; 29],
    /// Live, valid rates without an exact line: scanned at every query.
    loose: Vec<(u32, &'r Rate)>,
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
        match rates.one_pair() {
            Ok(rates) => Self::one_pair(rates, campaigns, None, now),
            Err(mixed) => RateBook {
                rates: &[],
                campaigns: campaigns.clone(),
                guard: None,
                built_at: now,
                horizon: None,
                keyed: Vec::new(),
                envelope: Envelope::default(),
                exact_below: [None; 29],
                loose: Vec::new(),
                mixed: Some(mixed),
            },
        }
    }

    /// [`new`](Self::new) under the caller's whole policy (ruling 41): its
    /// campaigns, and its price guard, whose median (ruling 42) is found
    /// over the rates at `now` (it cannot change before the book's
    /// [`horizon`](Self::horizon)); the answer is exactly
    /// [`RouteRequest::best`]'s under the same policy. The limit policy
    /// does not matter in ExactIn.
    ///
    /// ```
    /// use swaproute::route::{Floors, Policy, PolicyPart, PriceGuard, RateBook, RouteRequest};
    /// use swaproute::{Amount, EpochMillis, RatesResponse};
    /// let rate = |id: &str, m: &str| format!(r#"{{"amount":{{"assetId":"ETH","value":{m}}},
    ///   "expiry":4102444800000,"id":"{id}","max":{{"assetId":"BTC","value":8}},
    ///   "min":{{"assetId":"BTC","value":0.001}},"minerFee":{{"assetId":"ETH","value":0}},"pairId":"BTC_ETH"}}"#);
    /// let rates: RatesResponse = serde_json::from_str(&format!("[{},{},{}]",
    ///     rate("a", "33"), rate("b", "33.1"), rate("liar", "900000")))?;
    /// let now = EpochMillis::new(1_785_000_000_000);
    /// let guard = PriceGuard::median(500);
    /// let policy = Policy::DEFAULT.with_price_guard(&guard);
    /// let book = RateBook::with_policy(&rates, policy, now)?;
    /// let amount = "1".parse::<Amount>()?;
    /// assert_eq!(book.best(amount, now)?.rate().id().as_str(), "b");
    /// assert_eq!(book.best(amount, now), RouteRequest::exact_in(amount, now).with_policy(policy).best(&rates));
    /// // The book holds no floors: it says so rather than ignore them.
    /// let floors = Policy::DEFAULT.with_floors(Floors::NONE.with_max_fee_share_bps(10));
    /// assert_eq!(RateBook::with_policy(&rates, floors, now).unwrap_err().part, PolicyPart::Floors);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`UnsupportedPolicy`] naming [`PolicyPart::Floors`] when the policy
    /// has floors: the book's lines cannot hold them (ask
    /// [`RouteRequest::best`]).
    pub fn with_policy<R: RateList + ?Sized>(
        rates: &'r R,
        policy: Policy<'_>,
        now: EpochMillis,
    ) -> Result<Self, UnsupportedPolicy> {
        policy.refuse(&[PolicyPart::Floors])?;
        let guard = policy.price_guard().copied();
        Ok(match rates.one_pair() {
            Ok(one) => Self::one_pair(one, policy.campaigns(), guard, now),
            Err(_) => Self::new(rates, policy.campaigns(), now),
        })
    }

    /// [`new`](Self::new) over rates known to be one pair's.
    fn one_pair(
        rates: &'r [Rate],
        campaigns: &CampaignLimits,
        guard: Option<PriceGuard>,
        now: EpochMillis,
    ) -> Self {
        let policy = Policy::DEFAULT.with_campaigns(campaigns);
        let resolved =
            guard.map(|g| resolve_guard(&g, rates, SwapMode::ExactIn, now, policy).unwrap_or(g));
        let live: Vec<(u32, &'r Rate)> = rates
            .iter()
            .enumerate()
            .filter(|(_, rate)| admit(rate, now, SwapMode::ExactIn).is_ok())
            .filter(|(_, rate)| resolved.is_none_or(|g| g.outlier(rate).is_none()))
            .filter_map(|(i, rate)| Some((u32::try_from(i).ok()?, rate)))
            .collect();
        let horizon = live.iter().map(|(_, rate)| rate.expiry()).min();
        let slope_scale = live
            .iter()
            .filter(|(_, rate)| rate.prepared().has(USABLE | FAST))
            .map(|(_, rate)| rate.prepared().multiplier_scale())
            .max()
            .unwrap_or(0);
        let mut keyed: Vec<(Line, u32, &'r Rate)> = Vec::with_capacity(live.len());
        let mut loose = Vec::new();
        for (i, rate) in live {
            match line(rate, campaigns, slope_scale) {
                Some(exact) => keyed.push((exact, i, rate)),
                None => loose.push((i, rate)),
            }
        }
        // Slope order; equal slopes best first (the engine's tie-breaks).
        keyed.sort_by(|a, b| {
            a.0.slope
                .cmp(&b.0.slope)
                .then_with(|| a.0.fee.cmp(&b.0.fee))
                .then_with(|| position_order((a.1, a.2), (b.1, b.2)))
        });
        let lines: Vec<Line> = keyed.iter().map(|k| k.0).collect();
        let mut exact_below = [Some(u128::MAX); 29];
        for (scale, slot) in (0u32..).zip(exact_below.iter_mut()) {
            for (_, _, rate) in &keyed {
                let limit = FastRequest::exact_below(rate.prepared(), scale);
                *slot = match (*slot, limit) {
                    (Some(held), Some(limit)) => Some(held.min(limit)),
                    _ => None,
                };
            }
        }
        let envelope = pow10(slope_scale).and_then(|unit| Envelope::new(&lines, unit));
        let (keyed, envelope) = if let Some(envelope) = envelope {
            (
                keyed.into_iter().map(|(_, i, r)| (i, r)).collect(),
                envelope,
            )
        } else {
            // Past u32 positions: every rate is scanned instead.
            loose.extend(keyed.into_iter().map(|(_, i, r)| (i, r)));
            loose.sort_by_key(|&(i, _)| i);
            (Vec::new(), Envelope::default())
        };
        RateBook {
            rates,
            campaigns: campaigns.clone(),
            guard,
            built_at: now,
            horizon,
            keyed,
            envelope,
            exact_below,
            loose,
            mixed: None,
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
        // The tree and the loose rates hold only what the guard admits:
        // they are searched without it; the engine's fallback applies it.
        let request = RouteRequest::exact_in(amount, now).with_campaigns(&self.campaigns);
        let guarded = match &self.guard {
            Some(guard) => request.with_price_guard(guard),
            None => request,
        };
        let Some((fast, keyed, plain)) = self.search(&request, now) else {
            return self.fall_back(&guarded);
        };
        let Some(keyed) = keyed else {
            // Nothing keyed: the engine classifies "no route", or finds the
            // plain candidate with its own ties.
            return self.fall_back(&guarded);
        };
        if let (Some(plain), Some(keyed)) = (plain, engine::keyed_candidate(&request, keyed.1)) {
            // Rates equal in every key but input order, one keyed and one
            // plain: the engine's pick depends on which kind each is to it;
            // let it pick.
            if rank_order(amount.get(), &plain, &keyed) == Ordering::Equal {
                return self.fall_back(&guarded);
            }
        }
        if plain.is_none() {
            // The usual answer, built straight into the result (as the
            // engine's `collect_best` does).
            if let Some(route) = engine::keyed_one(&request, &fast, keyed.1) {
                return Ok(route);
            }
        }
        let mut slot = [None];
        let found = Best::found(Some(keyed), plain);
        engine::conclude(
            &request,
            Some(&fast),
            self.rates,
            found.keyed_rates(),
            found.plain_candidates(),
            &mut slot,
        )?;
        let [route] = slot;
        route.map_or_else(|| self.fall_back(&guarded), Ok)
    }

    /// The engine's scan of the same rates: the answer whenever the book
    /// cannot prove its own. Tests count the calls: within its window, at an
    /// amount every key is exact for, the book must answer without it.
    fn fall_back(&self, request: &RouteRequest<'_>) -> Result<Route<'r>, NoRoute> {
        crate::route::work::fell_back();
        request.best_in(self.rates, crate::rate::prepared::Layout::default())
    }

    /// The best keyed rate (in the tree or among the loose rates) and the
    /// best plain candidate (a loose rate the fast path cannot key), or
    /// `None` when the engine must answer (invalid time, an amount some
    /// tree key is not exact for).
    fn search(&self, request: &RouteRequest<'_>, now: EpochMillis) -> Option<Searched<'r>> {
        if !self.is_valid_at(now) {
            return None;
        }
        let fast = FastRequest::new(request)?;
        let limit = (*self.exact_below.get(usize::from(fast.scale()))?)?;
        if u128::from(fast.mantissa()) > limit {
            return None;
        }
        let rate_at = |p: u32| self.keyed.get(usize::try_from(p).ok()?).copied();
        let value = |p: u32| fast.net28(rate_at(p)?.1.prepared());
        let order = |a: u32, b: u32| match (rate_at(a), rate_at(b)) {
            (Some(a), Some(b)) => position_order(a, b),
            _ => Ordering::Equal,
        };
        let mut best: Option<(i128, (u32, &'r Rate))> =
            match self.envelope.best(fast.x28(), value, order) {
                Ok(Some((net, p))) if net > 0 => Some((net, rate_at(p)?)),
                Ok(_) => None,
                Err(()) => return None,
            };
        let mut plain: Option<Candidate<'r>> = None;
        for &(i, rate) in &self.loose {
            match fast.score(rate) {
                Score::Key(net) => {
                    let better = best.is_none_or(|(held, (held_i, held_rate))| {
                        key_order(net, rate, held, held_rate).then(i.cmp(&held_i)) == Ordering::Less
                    });
                    if better {
                        best = Some((net, (i, rate)));
                    }
                }
                Score::Out => {}
                Score::Slow => super::engine::keep_best_plain(request, rate, &mut plain),
            }
        }
        Some((fast, best.map(|(net, (_, rate))| (net, rate)), plain))
    }
}

/// What a book search finds: the request's fast form, the best keyed rate
/// with its key, and the best plain candidate.
type Searched<'r> = (FastRequest, Option<(i128, &'r Rate)>, Option<Candidate<'r>>);

/// The exact line of a live, valid rate, or `None` when it has none (no fast
/// form, or a multiplier too wide at the common slope scale).
fn line(rate: &Rate, campaigns: &CampaignLimits, slope_scale: u32) -> Option<Line> {
    let p = rate.prepared();
    if !p.has(USABLE | FAST) {
        return None;
    }
    let up = pow10(slope_scale.checked_sub(p.multiplier_scale())?)?;
    let slope = u128::from(p.multiplier).checked_mul(up)?;
    let max = if rate.is_sponsored() && !campaigns.is_empty() {
        scaled28(rate.effective_max(campaigns)).unwrap_or(u128::MAX)
    } else {
        p.max28
    };
    (slope < OPERAND_LIMIT).then_some(Line {
        slope,
        fee: p.fee28,
        min: p.min28,
        max,
    })
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

    fn searched<'r>(book: &RateBook<'r>, x: &str) -> Option<Searched<'r>> {
        book.search(&RouteRequest::exact_in(amount(x), NOW), NOW)
    }

    /// Nets by hand: a: 0.3 × 33.1 − 0.0002 = 9.9298; b: 0.3 × 33.2 −
    /// 0.0003 = 9.9597 (b wins); c (a multiplier too wide for the integer
    /// form, scanned by the plain path): 0.3 × 33.0…01 − 0.0001 ≈ 9.8999.
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
        // a and b have exact lines (in slope order); c's multiplier is too
        // wide for one, so c is scanned at every query.
        let ids = |list: &[(u32, &Rate)]| -> Vec<(u32, String)> {
            list.iter()
                .map(|(i, rate)| (*i, String::from(rate.id().as_str())))
                .collect()
        };
        assert_eq!(ids(&book.keyed), [(0, "a".into()), (1, "b".into())]);
        assert_eq!(ids(&book.loose), [(2, "c".into())]);

        let (fast, keyed, plain) = searched(&book, "0.3").unwrap();
        assert_eq!(fast.mantissa(), 3);
        let keyed = keyed.map(|(net, rate)| (net, rate.id().as_str()));
        assert_eq!(keyed, Some((99_597 * 10_i128.pow(24), "b")));
        assert_eq!(plain.map(|c| c.rate.id().as_str()), Some("c"));

        let (best, fallbacks) = best_counted(&book, "0.3");
        assert_eq!(best.unwrap().rate().id().as_str(), "b");
        assert_eq!(fallbacks, 0, "the book answers 0.3 itself");
        // Past the window it asks the engine.
        let (late, fallbacks) =
            fall_backs(|| book.best(amount("0.3"), EpochMillis::new(1_900_000_000_000)));
        assert!(late.is_err());
        assert_eq!(fallbacks, 1);
    }

    /// A key at or below zero is no route: the search keeps no rate for it
    /// (0.01 × 33 − 1 = −0.67), and the engine classifies the answer.
    #[test]
    fn a_key_at_or_below_zero_is_not_kept() {
        let rates = response(&[rate("a", "33", "1", "0.001", "8")]);
        let book = RateBook::new(&rates, &CampaignLimits::new(), NOW);
        let (_, keyed, plain) = searched(&book, "0.01").unwrap();
        assert!(keyed.is_none() && plain.is_none());
        // Exactly zero: 0.01 × 33 − 0.33.
        let zero = response(&[rate("z", "33", "0.33", "0.001", "8")]);
        let zero_book = RateBook::new(&zero, &CampaignLimits::new(), NOW);
        let (_, keyed, _) = searched(&zero_book, "0.01").unwrap();
        assert!(keyed.is_none());
        let (best, _) = best_counted(&zero_book, "0.01");
        assert!(best.is_err());
        let (_, keyed, _) = searched(&book, "0.1").unwrap();
        assert_eq!(
            keyed.map(|(net, _)| net),
            Some(23 * 10_i128.pow(27)),
            "0.1 × 33 − 1 = 2.3"
        );
    }

    /// For an amount at scale 8 the book keys exactly up to a largest
    /// mantissa; at it the key is the exact `x × m − fee` (worked in
    /// integers here), one past it the book leaves the answer to the engine.
    #[test]
    fn keys_only_amounts_it_can_key_exactly() {
        let rates = response(&[rate(
            "w",
            "12.345678901234567890",
            "0.0002",
            "0.001",
            "100000",
        )]);
        let book = RateBook::new(&rates, &CampaignLimits::new(), NOW);
        let limit = book.exact_below[8].unwrap();
        assert!(limit > 1_000_000 && limit < u128::from(u64::MAX));
        let at = |mantissa: u128| {
            let x =
                rust_decimal::Decimal::from_i128_with_scale(i128::try_from(mantissa).unwrap(), 8);
            book.search(
                &RouteRequest::exact_in(Amount::try_from(x).unwrap(), NOW),
                NOW,
            )
        };
        // x × m at scale 8 + 18 = 26, × 10² to scale 28; fee 0.0002 = 2 × 10^24.
        let exact =
            i128::try_from(limit * 12_345_678_901_234_567_890 * 100).unwrap() - 2 * 10_i128.pow(24);
        let (_, keyed, _) = at(limit).unwrap();
        assert_eq!(keyed.map(|(net, _)| net), Some(exact));
        assert!(at(limit + 1).is_none());
    }

    /// A rate whose multiplier is too wide for the integer form, but at a
    /// scale the tree's lines use (`1e23`, scale 0), is scanned beside the
    /// tree, not put in it: the tree stays exact and the book answers 0.3
    /// itself (d is above its max of 0.1 there).
    #[test]
    fn a_wide_multiplier_at_a_small_scale_stays_out_of_the_tree() {
        let list = a_and_b_with(rate("d", "100000000000000000000000", "0", "0.001", "0.1"));
        let book = RateBook::new(&list, &CampaignLimits::new(), NOW);
        assert_eq!(book.keyed.len(), 2);
        assert_eq!(book.loose.len(), 1);
        let (best, fallbacks) = best_counted(&book, "0.3");
        assert_eq!(best.unwrap().rate().id().as_str(), "b");
        assert_eq!(fallbacks, 0);
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
