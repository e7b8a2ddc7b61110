//! "No route" in logarithmic time a path, for the common case (ruling 36
//! in docs/RULES.md): ExactIn, every path stopped by limits that no
//! reachable input can meet.
//!
//! A path's first leg is judged at `fromAmount` from its pair's
//! [`Summary`]: the rates below their min, above their max, and the rest
//! (which pass when no output can be non-positive or overflow) are counted
//! by binary searches. A later pair whose smallest min lies above every
//! input the legs before could produce (`input × largest multiplier −
//! smallest fee`, pair by pair) refuses all its rates, counted by reason
//! the same way. Anything else (ExactOut, a leg that passes, a request
//! outside the summaries' time window, a possible overflow or non-positive
//! output, every chain stopped on its first leg) is left to the leg-by-leg
//! analysis ([`ChainRequest::reach`]), whose answer this one equals.

use alloc::vec::Vec;

use rust_decimal::Decimal;

use super::market::{Market, MarketPair, Summary};
use super::paths::each_path;
use super::request::ChainRequest;
use super::ChainNoRoute;
use crate::swap_mode::SwapMode;

/// Inputs below this (with multipliers below it too) cannot overflow a leg.
const SMALL: i64 = 1_000_000_000;

/// Reason counts in the order of the rules.
#[derive(Clone, Copy, Debug, Default)]
struct Counts {
    invalid: usize,
    expired: usize,
    unservable: usize,
    below_min: usize,
    above_max: usize,
}

impl Counts {
    fn total(&self) -> usize {
        self.invalid
            .saturating_add(self.expired)
            .saturating_add(self.unservable)
            .saturating_add(self.below_min)
            .saturating_add(self.above_max)
    }

    fn add(&mut self, other: &Counts) {
        self.invalid = self.invalid.saturating_add(other.invalid);
        self.expired = self.expired.saturating_add(other.expired);
        self.unservable = self.unservable.saturating_add(other.unservable);
        self.below_min = self.below_min.saturating_add(other.below_min);
        self.above_max = self.above_max.saturating_add(other.above_max);
    }
}

/// The refusals of a pair's rates at `value`, or `None` when some rate's
/// output might be non-positive or overflow there (left to the analysis).
fn at_value(
    summary: &Summary,
    value: Decimal,
    most_multiplier: Decimal,
) -> Option<(Counts, usize)> {
    let live = summary.live_mins.len();
    let below_min = live.saturating_sub(summary.live_mins.partition_point(|min| *min <= value));
    let above_max = summary.live_maxes.partition_point(|max| *max < value);
    let passing = live.saturating_sub(below_min).saturating_sub(above_max);
    if passing > 0 {
        let small = Decimal::new(SMALL, 0);
        let positive = value
            .checked_mul(summary.min_multiplier)
            .is_some_and(|least| least > summary.max_fee);
        let fits = value
            .checked_mul(most_multiplier)
            .is_some_and(|most| most <= small.saturating_mul(small));
        if !positive || value > small || !fits {
            return None;
        }
    }
    Some((
        Counts {
            invalid: summary.invalid,
            expired: summary.expired,
            unservable: summary.unservable,
            below_min,
            above_max,
        },
        passing,
    ))
}

/// The most any rate of `pair` outputs from an input of at most `input`.
fn most_output(input: Decimal, pair: &MarketPair<'_>) -> Option<Decimal> {
    input
        .checked_mul(pair.max_multiplier)?
        .checked_sub(pair.min_fee)
}

impl ChainRequest {
    /// "No route" from the pairs' summaries, when every path provably stops
    /// on limits (see the module's docs); `None` when it cannot tell, and
    /// under floors (ruling 38: the summaries know the limits, not the
    /// floors, so a first leg the floors refuse would pass here).
    pub(crate) fn quick_no_route(&self, market: &Market<'_>) -> Option<ChainNoRoute> {
        // The summaries hold no floors and no guard: the legs decide then.
        if self.mode != SwapMode::ExactIn
            || self.now < market.prepared_at()
            || !self.floors.is_none()
            || self.price_guard.is_some()
        {
            return None;
        }
        let mut total = Counts::default();
        let mut counted: Vec<bool> = alloc::vec![false; market.pair_count()];
        let mut paths = 0usize;
        let mut past_first = false;
        let mut unknown = false;
        let amount = self.amount.get();
        each_path(market, &self.from, &self.to, self.max_legs, |path| {
            if unknown {
                return;
            }
            paths = paths.saturating_add(1);
            let indices = path.indices();
            let mut bound = amount;
            for (leg, &at) in indices.iter().enumerate() {
                let Some(pair) = market.pair(at) else {
                    unknown = true;
                    return;
                };
                let summary = &pair.summary;
                if summary
                    .earliest_live_expiry
                    .is_some_and(|earliest| self.now >= earliest)
                {
                    unknown = true;
                    return;
                }
                let (counts, passing) = if leg == 0 {
                    let Some(found) = at_value(summary, amount, pair.max_multiplier) else {
                        unknown = true;
                        return;
                    };
                    found
                } else if bound < pair.min_min {
                    // Every input the legs before produce is below every min.
                    let live = summary.live_mins.len();
                    (
                        Counts {
                            invalid: summary.invalid,
                            expired: summary.expired,
                            unservable: summary.unservable,
                            below_min: live,
                            above_max: 0,
                        },
                        0,
                    )
                } else {
                    unknown = true;
                    return;
                };
                if let Some(seen) = counted.get_mut(at).filter(|seen| !**seen) {
                    *seen = true;
                    total.add(&counts);
                }
                if leg > 0 && counts.total() > 0 {
                    past_first = true;
                }
                if passing == 0 {
                    return;
                }
                if leg.saturating_add(1) == indices.len() {
                    // A last leg passes: a chain exists.
                    unknown = true;
                    return;
                }
                let Some(most) = most_output(bound, pair) else {
                    unknown = true;
                    return;
                };
                bound = most;
            }
        });
        if unknown || paths == 0 || !past_first {
            return None;
        }
        let mut counts: Vec<(&'static str, usize)> = [
            ("INVALID_RATE", total.invalid),
            ("EXPIRED", total.expired),
            ("CAMPAIGN_LIMIT_BELOW_MIN", total.unservable),
            ("BELOW_MIN", total.below_min),
            ("ABOVE_MAX", total.above_max),
        ]
        .into_iter()
        .filter(|&(_, count)| count > 0)
        .collect();
        counts.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        Some(ChainNoRoute::Rejected { counts })
    }
}

#[cfg(test)]
#[cfg(feature = "std")]
mod tests {
    use alloc::format;
    use alloc::vec::Vec;

    use rust_decimal::Decimal;

    use crate::route::chain::{ChainRequest, Market};
    use crate::route::work::meter::measure;
    use crate::{
        decimal::Amount, ids::AssetId, ids::RateId, rate::CampaignLimits, rate::PairId, rate::Rate,
        rate::RateTerms, rate::RatesResponse, time::EpochMillis,
    };

    const NOW: EpochMillis = EpochMillis::new(1_785_000_000_000);

    /// `n` rates of `pair`, multipliers `base + i / 1000`, fee 0.01, min
    /// `min` (every tenth 1000 times it), one in seven expired.
    fn rates(pair: &str, n: i64, base: i64, min: Decimal) -> RatesResponse {
        let pair_id = PairId::new(pair).unwrap();
        let list: Vec<Rate> = (0..n)
            .map(|i| {
                Rate::new(
                    RateId::new(&format!("{pair}-{i}")).unwrap(),
                    pair_id.clone(),
                    RateTerms {
                        multiplier: Decimal::new(base * 1000 + i, 3),
                        miner_fee: Decimal::new(1, 2),
                        min: if i % 10 == 0 {
                            min * Decimal::new(1000, 0)
                        } else {
                            min
                        },
                        max: Decimal::new(1_000_000_000, 0),
                    },
                    EpochMillis::new(if i % 7 == 0 { 1 } else { 4_102_444_800_000 }),
                )
            })
            .collect();
        RatesResponse::try_from(list).unwrap()
    }

    /// K intermediates, `n` rates a pair; the last legs' min is `last_min`.
    fn market(k: usize, n: i64, last_min: Decimal) -> Vec<RatesResponse> {
        let mut out = alloc::vec![rates("S_D", n, 400, last_min)];
        for i in 0..k {
            out.push(rates(&format!("S_M{i}"), n, 20, Decimal::new(1, 3)));
            out.push(rates(&format!("M{i}_D"), n, 20, last_min));
        }
        out
    }

    /// The summaries' answer is the leg-by-leg analysis', and "no route"
    /// costs no more than a few times a route on the same market (ruling
    /// 36): the work meter counts rate checks and comparisons.
    #[test]
    fn no_route_costs_a_few_times_a_route() {
        let request = ChainRequest::exact_in(
            AssetId::new("S").unwrap(),
            AssetId::new("D").unwrap(),
            Amount::new(Decimal::ONE).unwrap(),
            NOW,
        );
        for (k, n) in [(1usize, 8i64), (8, 64), (16, 512)] {
            let refusing = market(k, n, Decimal::new(1_000_000, 0));
            let refusing = Market::new(refusing.iter(), &CampaignLimits::new(), NOW).unwrap();
            let quick = request.quick_no_route(&refusing).unwrap();
            assert_eq!(quick, request.no_route_of(&request.reach(&refusing)));
            // Per last pair: 1 in 7 expired, the rest below the min.
            let expired = (n + 6) / 7;
            // Every live rate of the k + 1 last pairs is below its min (the
            // first pairs' every-tenth rates, min 1, take the amount 1); the
            // expired ones of all 2k + 1 pairs are counted once each.
            let k64 = i64::try_from(k).unwrap();
            let below = (n - expired) * (k64 + 1);
            let all_expired = expired * (2 * k64 + 1);
            assert_eq!(
                format!("{quick}"),
                format!("no chain is left; reasons: BELOW_MIN: {below}, EXPIRED: {all_expired}")
            );
            let (error, no_route_work) = measure(|| request.best(&refusing));
            assert_eq!(error.unwrap_err(), quick);

            let routed = market(k, n, Decimal::new(1, 3));
            let routed = Market::new(routed.iter(), &CampaignLimits::new(), NOW).unwrap();
            let (best, route_work) = measure(|| request.best(&routed));
            assert!(best.is_ok());
            assert!(
                no_route_work <= 4 * route_work.max(1),
                "k {k} n {n}: no route {no_route_work}, route {route_work}"
            );
        }
    }
}
