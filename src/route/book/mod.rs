//! A prepared rate set: built once, answers "best route at amount x" without
//! scanning every rate.

use alloc::vec::Vec;
use core::cmp::Ordering;

mod envelope;

use envelope::{Envelope, Line};

use super::engine::{Best, Kept};
use super::request::FastRequest;
use super::rules::eligibility::{admit, Candidate, Score};
use super::rules::order::{key_order, position_order, rank_order};
use super::{NoRoute, Route, RouteRequest};
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
/// upper envelope of their lines (see the `envelope` module). A query
/// evaluates `O(log² n)` exact integer keys, whatever the data: there is no
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
            Ok(rates) => Self::one_pair(rates, campaigns, now),
            Err(mixed) => RateBook {
                rates: &[],
                campaigns: campaigns.clone(),
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

    /// [`new`](Self::new) over rates known to be one pair's.
    fn one_pair(rates: &'r [Rate], campaigns: &CampaignLimits, now: EpochMillis) -> Self {
        let live: Vec<(u32, &'r Rate)> = rates
            .iter()
            .enumerate()
            .filter(|(_, rate)| admit(rate, now, SwapMode::ExactIn).is_ok())
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
        let (keyed, envelope) = if let Some(envelope) = Envelope::new(&lines) {
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
        let request = RouteRequest::exact_in(amount, now).with_campaigns(&self.campaigns);
        let Some((fast, keyed, plain)) = self.search(&request, now) else {
            return request.best_in(self.rates);
        };
        let Some(keyed) = keyed else {
            // Nothing keyed: the engine classifies "no route", or finds the
            // plain candidate with its own ties.
            return request.best_in(self.rates);
        };
        if let (Some(plain), Some(keyed)) = (plain, request.candidate(keyed.1)) {
            // Rates equal in every key but input order, one keyed and one
            // plain: the engine's pick depends on which kind each is to it;
            // let it pick.
            if rank_order(&plain, &keyed) == Ordering::Equal {
                return request.best_in(self.rates);
            }
        }
        let mut slot = [None];
        let found = Best::found(Some(keyed), plain);
        request.conclude(
            Some(&fast),
            self.rates,
            found.keyed_rates(),
            found.plain_candidates(),
            &mut slot,
        )?;
        let [route] = slot;
        route.map_or_else(|| request.best_in(self.rates), Ok)
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
