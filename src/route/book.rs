//! A prepared rate set: built once, answers "best route at amount x" without
//! scanning every rate.

use alloc::vec::Vec;
use core::cmp::Ordering;

use super::fast::{fast_order, FastRequest, Score};
use super::prepared::{POW10, SCALE};
use super::{NoRoute, Route, RouteRequest};
use crate::decimal::Amount;
use crate::rate::{CampaignLimits, Rate};
use crate::time::EpochMillis;

/// An ExactIn rate book: the live, valid rates of a response, ordered by
/// multiplier (highest first), with the caller's campaign limits.
///
/// A query scores rates in that order with the exact fast path and stops as
/// soon as the next rate's `x × multiplier` (an upper bound of its net output,
/// fees being non-negative) is below the best net output found: the rest
/// cannot win or tie. When the best multipliers accept the amount, as they do
/// in real responses, a query reads a handful of rates whatever the book's
/// size; in the worst case (the highest multipliers all refuse the amount) it
/// reads them all, never more.
///
/// The answer is exactly [`RouteRequest::best`]'s for
/// `RouteRequest::exact_in(amount, now).with_campaigns(campaigns)` over the
/// same rates: same route, same net output, same ties, same [`NoRoute`].
///
/// # Validity
/// Built at `built_at`, the book is valid for `built_at <= now < horizon`,
/// where the horizon is the earliest expiry among the rates live at
/// `built_at`: within it, no rate expires or comes back. Outside it, and
/// whenever a rate needs the plain `Decimal` path (a campaign-capped sponsored
/// variant, numbers too wide for the fast path) or no rate accepts the amount
/// (to classify "no route"), a query **falls back** to the engine's scan of
/// the same rates, so answers are always right.
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
    /// The live, valid rates, highest multiplier first.
    by_multiplier: Vec<&'r Rate>,
    /// Every live rate has the fast form and needs no campaign lookup: the
    /// early stop is sound (no rate past it can round its way up).
    fast: bool,
}

impl<'r> RateBook<'r> {
    /// Prepares `rates` for ExactIn queries at `now` and later, under the
    /// caller's `campaigns` limits. `O(n log n)`.
    pub fn new(rates: &'r [Rate], campaigns: &CampaignLimits, now: EpochMillis) -> Self {
        let mut by_multiplier: Vec<&'r Rate> = rates
            .iter()
            .filter(|rate| rate.defect().is_none() && !rate.is_expired_at(now))
            .collect();
        by_multiplier.sort_by_key(|rate| core::cmp::Reverse(rate.multiplier()));
        let horizon = by_multiplier.iter().map(|rate| rate.expiry()).min();
        let fast = by_multiplier.iter().all(|rate| {
            (campaigns.is_empty() || !rate.is_sponsored())
                && rate.prepared().has(super::prepared::FAST)
        });
        RateBook {
            fast,
            rates,
            campaigns: campaigns.clone(),
            built_at: now,
            horizon,
            by_multiplier,
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
        let request = RouteRequest::exact_in(amount, now).with_campaigns(&self.campaigns);
        if !self.fast || !self.is_valid_at(now) {
            return request.best(self.rates);
        }
        let Some(fast) = FastRequest::new(&request) else {
            return request.best(self.rates);
        };
        let mut best: Option<(i128, &'r Rate)> = None;
        for &rate in &self.by_multiplier {
            if let (Some((held, _)), Some(bound)) = (best, fast.upper_bound28(rate)) {
                // Sorted by multiplier: every later bound is at most this one.
                if bound < held {
                    break;
                }
            }
            match fast.score(rate) {
                Score::Key(net) => {
                    if best.is_none_or(|(held, held_rate)| {
                        fast_order(net, rate, held, held_rate) == Ordering::Less
                    }) {
                        best = Some((net, rate));
                    }
                }
                Score::Out => {}
                Score::Slow => return request.best(self.rates),
            }
        }
        let Some(best) = best else {
            return request.best(self.rates);
        };
        match request.candidate(best).map(|c| request.finish(c)) {
            Some(Ok(route)) => Ok(route),
            _ => request.best(self.rates),
        }
    }
}

impl FastRequest {
    /// `x × multiplier × 10^28` exactly, or `None` when it does not fit.
    pub(crate) fn upper_bound28(&self, rate: &Rate) -> Option<i128> {
        let p = rate.prepared();
        if !p.has(super::prepared::FAST) {
            return None;
        }
        let shift = SCALE.checked_sub(u32::from(self.scale().checked_add(p.multiplier_scale)?))?;
        let up = POW10.get(usize::try_from(shift).ok()?)?;
        let product = u128::from(self.mantissa())
            .checked_mul(u128::from(p.multiplier))?
            .checked_mul(*up)?;
        i128::try_from(product).ok()
    }
}
