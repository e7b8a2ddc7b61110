//! A market of several pairs: the rates responses a chain search reads,
//! indexed by from-asset and prepared once.

use alloc::vec::Vec;
use core::cmp::Ordering;
use core::ops::Range;

use rust_decimal::{Decimal, RoundingStrategy};

use crate::ids::AssetId;
use crate::rate::prepared::Layout;
use crate::rate::{CampaignLimits, PairId, Rate, RatesResponse};
use crate::route::{NoRoute, RateBook, Route, RouteRequest};
use crate::time::EpochMillis;

/// The rates responses of several pairs, each prepared once for chain
/// searches ([`ChainRequest`](super::ChainRequest)).
///
/// Each response holds one pair's rates (ruling 18: a [`RatesResponse`] is
/// checked for that when decoded); the market indexes the pairs by their
/// from asset and prepares each pair's ExactIn [`RateBook`] under the
/// caller's campaign limits, so that a leg after the first is a
/// logarithmic query, and each pair's rates in multiplier order with the
/// bounds a search prunes by. Building is `O(n log n)` in the rates;
/// queries allocate nothing.
///
/// ```
/// use swaproute::route::chain::Market;
/// use swaproute::{CampaignLimits, EpochMillis, RatesResponse};
/// let btc_eth: RatesResponse = serde_json::from_str(r#"[{"amount":{"assetId":"ETH","value":30},
///   "expiry":4102444800000,"id":"a","max":{"assetId":"BTC","value":8},
///   "min":{"assetId":"BTC","value":0.001},"minerFee":{"assetId":"ETH","value":0.002},
///   "pairId":"BTC_ETH"}]"#)?;
/// let market = Market::new([&btc_eth], &CampaignLimits::new(), EpochMillis::new(1_785_000_000_000))?;
/// assert_eq!(market.pair_ids().map(|p| p.as_str()).collect::<Vec<_>>(), ["BTC_ETH"]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Market<'r> {
    /// The pairs, by from asset then to asset (id bytes, which is also the
    /// order of their asset numbers).
    pairs: Vec<MarketPair<'r>>,
    /// Every asset of the pairs, by id bytes: an asset's number is its
    /// position here.
    assets: Vec<&'r AssetId>,
    /// Each asset's first 8 bytes as a big-endian integer: the same order,
    /// compared in one instruction (the bytes decide only between equals).
    asset_keys: Vec<u64>,
    /// The pairs starting at asset `a` are `pairs[starts[a]..starts[a + 1]]`.
    starts: Vec<usize>,
    campaigns: CampaignLimits,
    /// The `now` the market was prepared at.
    prepared_at: EpochMillis,
}

/// One pair of a market, prepared.
#[derive(Clone, Debug)]
pub(crate) struct MarketPair<'r> {
    pub(crate) id: &'r PairId,
    /// The numbers of the pair's from and to assets in the market.
    pub(crate) from: usize,
    pub(crate) to: usize,
    pub(crate) rates: &'r [Rate],
    /// The response's compact layout, for the best-route kernel.
    layout: Layout<'r>,
    /// The ExactIn rate book of the pair, under the market's campaigns;
    /// `None` for a pair of few rates, which a scan answers faster.
    book: Option<RateBook<'r>>,
    /// The valid rates, by multiplier descending (a walk in this order can
    /// stop once `amount × multiplier` cannot beat what was found).
    pub(crate) by_multiplier: Vec<&'r Rate>,
    /// The largest multiplier and the smallest fee among the valid rates:
    /// `y × max_multiplier − min_fee` bounds every rate's net output at `y`.
    pub(crate) max_multiplier: Decimal,
    pub(crate) min_fee: Decimal,
    /// At most `1 / max_multiplier` (`None` without valid rates): divisions
    /// by it become multiplications.
    pub(crate) max_multiplier_inverse: Option<Decimal>,
    /// The smallest min and the largest max among the valid rates (0
    /// without any): an input outside them passes no rate.
    pub(crate) min_min: Decimal,
    pub(crate) max_max: Decimal,
    /// The latest expiry among the valid rates (`None` without any): at or
    /// after it every rate is expired.
    pub(crate) latest_expiry: Option<EpochMillis>,
    /// Valid rates an ExactOut leg may use (exact-out capable, not sponsored).
    pub(crate) exact_out_rates: usize,
    /// The pair's rates as "no route" counts them (ExactIn), prepared at
    /// the market's `now`.
    pub(crate) summary: Summary,
}

/// A pair's rates summarized for counting ExactIn refusals by reason in
/// logarithmic time (ruling 36): valid for a request at or after the
/// market's `now` and before `earliest_live_expiry`, when the rates expired
/// are exactly those expired when the market was built.
#[derive(Clone, Debug, Default)]
pub(crate) struct Summary {
    /// Invalid rates (`INVALID_RATE`).
    pub(crate) invalid: usize,
    /// Valid rates expired at the market's `now` (`EXPIRED`).
    pub(crate) expired: usize,
    /// Valid, unexpired sponsored variants whose campaign limit is below
    /// their min (`CAMPAIGN_LIMIT_BELOW_MIN`).
    pub(crate) unservable: usize,
    /// The earliest expiry of the valid, unexpired rates.
    pub(crate) earliest_live_expiry: Option<EpochMillis>,
    /// The mins and the effective maxes of the others (the live rates),
    /// each sorted ascending.
    pub(crate) live_mins: Vec<Decimal>,
    pub(crate) live_maxes: Vec<Decimal>,
    /// The smallest multiplier and the largest fee of the live rates.
    pub(crate) min_multiplier: Decimal,
    pub(crate) max_fee: Decimal,
}

impl Summary {
    fn new(rates: &[Rate], campaigns: &CampaignLimits, now: EpochMillis) -> Self {
        let mut summary = Summary::default();
        let mut first = true;
        for rate in rates {
            if rate.defect().is_some() {
                summary.invalid = summary.invalid.saturating_add(1);
                continue;
            }
            if rate.is_expired_at(now) {
                summary.expired = summary.expired.saturating_add(1);
                continue;
            }
            summary.earliest_live_expiry = Some(
                summary
                    .earliest_live_expiry
                    .map_or(rate.expiry(), |held| held.min(rate.expiry())),
            );
            let max = rate.effective_max(campaigns);
            if max < rate.min() {
                summary.unservable = summary.unservable.saturating_add(1);
                continue;
            }
            summary.live_mins.push(rate.min());
            summary.live_maxes.push(max);
            if first {
                summary.min_multiplier = rate.multiplier();
                summary.max_fee = rate.miner_fee();
                first = false;
            } else {
                summary.min_multiplier = summary.min_multiplier.min(rate.multiplier());
                summary.max_fee = summary.max_fee.max(rate.miner_fee());
            }
        }
        summary.live_mins.sort_unstable();
        summary.live_maxes.sort_unstable();
        summary
    }
}

/// From this many rates on, a pair is given a rate book: below it one scan
/// of the rates (a few ns each) beats the book's query (measured: 77 ns
/// against 63 ns at 8 rates, 116 ns against 240 ns at 64).
const BOOK_FROM: usize = 32;

impl<'r> MarketPair<'r> {
    /// `false` when no rate of the pair can pass any amount at `now` in
    /// `mode` (no valid rate, all expired, none usable in ExactOut).
    pub(crate) fn is_live(&self, now: EpochMillis, mode: crate::swap_mode::SwapMode) -> bool {
        self.latest_expiry.is_some_and(|latest| latest > now)
            && (mode == crate::swap_mode::SwapMode::ExactIn || self.exact_out_rates > 0)
    }

    /// The best ExactIn route of the pair for `request` (the market's
    /// campaigns), as the single-pair engine answers it (the book's answer
    /// is the engine's, by contract; the book holds no floors and no guard,
    /// so a request with either is ranked by the engine).
    pub(crate) fn best(&self, request: &RouteRequest<'_>) -> Result<Route<'r>, NoRoute> {
        match &self.book {
            Some(book) if request.floors().is_none() && request.price_guard().is_none() => {
                book.best(request.from_amount(), request.now())
            }
            _ => request.best_in(self.rates, self.layout),
        }
    }
}

/// Why rates responses do not make a market.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum InvalidMarket {
    /// Two responses hold the same pair's rates: which one is current is the
    /// caller's question, not the market's.
    #[error("two rates responses for pair {0}")]
    DuplicatePair(PairId),
}

impl<'r> Market<'r> {
    /// A market of `responses` (one pair each; empty ones hold no pair and
    /// are skipped) under the caller's `campaigns`, prepared at `now` (the
    /// rate books' validity starts there; see [`RateBook`]).
    ///
    /// # Errors
    /// [`InvalidMarket::DuplicatePair`] when two responses name one pair.
    pub fn new<I>(
        responses: I,
        campaigns: &CampaignLimits,
        now: EpochMillis,
    ) -> Result<Self, InvalidMarket>
    where
        I: IntoIterator<Item = &'r RatesResponse>,
    {
        let mut pairs: Vec<MarketPair<'r>> = Vec::new();
        for response in responses {
            let Some(id) = response.pair_id() else {
                continue;
            };
            let rates = response.rates();
            let mut by_multiplier: Vec<&'r Rate> = rates
                .iter()
                .filter(|rate| rate.defect().is_none())
                .collect();
            by_multiplier.sort_by_key(|rate| core::cmp::Reverse(rate.multiplier()));
            let max_multiplier = by_multiplier
                .first()
                .map_or(Decimal::ZERO, |rate| rate.multiplier());
            let min_fee = by_multiplier
                .iter()
                .map(|rate| rate.miner_fee())
                .min()
                .unwrap_or(Decimal::ZERO);
            let min_min = by_multiplier
                .iter()
                .map(|rate| rate.min())
                .min()
                .unwrap_or(Decimal::ZERO);
            let max_max = by_multiplier
                .iter()
                .map(|rate| rate.max())
                .max()
                .unwrap_or(Decimal::ZERO);
            let latest_expiry = by_multiplier.iter().map(|rate| rate.expiry()).max();
            let exact_out_rates = by_multiplier
                .iter()
                .filter(|rate| rate.supports_exact_out() && !rate.is_sponsored())
                .count();
            pairs.push(MarketPair {
                summary: Summary::new(rates, campaigns, now),
                min_min,
                max_max,
                latest_expiry,
                exact_out_rates,
                id,
                from: 0,
                to: 0,
                rates,
                layout: response.layout(),
                book: (rates.len() > BOOK_FROM).then(|| RateBook::new(response, campaigns, now)),
                by_multiplier,
                max_multiplier,
                min_fee,
                max_multiplier_inverse: lower_quotient(Decimal::ONE, max_multiplier).and_then(
                    |inverse| inverse.round_sf_with_strategy(SIGNIFICANT, RoundingStrategy::ToZero),
                ),
            });
        }
        pairs.sort_by(|a, b| pair_order(a.id, b.id));
        if let Some(twice) = pairs.windows(2).find_map(|w| match w {
            [a, b] if a.id == b.id => Some(a.id.clone()),
            _ => None,
        }) {
            return Err(InvalidMarket::DuplicatePair(twice));
        }
        let mut assets: Vec<&'r AssetId> = pairs
            .iter()
            .flat_map(|pair| [pair.id.from(), pair.id.to()])
            .collect();
        assets.sort_by(|a, b| a.as_str().as_bytes().cmp(b.as_str().as_bytes()));
        assets.dedup();
        let number = |asset: &AssetId| {
            assets
                .binary_search_by(|held| held.as_str().as_bytes().cmp(asset.as_str().as_bytes()))
                .unwrap_or(0)
        };
        for pair in &mut pairs {
            pair.from = number(pair.id.from());
            pair.to = number(pair.id.to());
        }
        let asset_keys = assets.iter().map(|asset| prefix_key(asset)).collect();
        let starts = (0..=assets.len())
            .map(|asset| pairs.partition_point(|pair| pair.from < asset))
            .collect();
        Ok(Market {
            pairs,
            assets,
            asset_keys,
            starts,
            campaigns: campaigns.clone(),
            prepared_at: now,
        })
    }

    /// The pairs of the market, by from asset then to asset.
    pub fn pair_ids(&self) -> impl Iterator<Item = &'r PairId> + '_ {
        self.pairs.iter().map(|pair| pair.id)
    }

    /// The caller's campaign limits the market was prepared under.
    pub fn campaigns(&self) -> &CampaignLimits {
        &self.campaigns
    }

    /// The `now` the market was prepared at.
    pub(crate) fn prepared_at(&self) -> EpochMillis {
        self.prepared_at
    }

    /// How many pairs the market holds.
    pub(crate) fn pair_count(&self) -> usize {
        self.pairs.len()
    }

    /// The pair at `index` (`None` past the last).
    pub(crate) fn pair(&self, index: usize) -> Option<&MarketPair<'r>> {
        self.pairs.get(index)
    }

    /// The number of `asset` in the market (`None` when no pair names it).
    pub(crate) fn asset(&self, asset: &AssetId) -> Option<usize> {
        let key = prefix_key(asset);
        let bytes = asset.as_str().as_bytes();
        let at = self.asset_keys.partition_point(|&held| held < key);
        // Among the assets sharing the key (almost always one), by bytes.
        self.assets
            .get(at..)?
            .iter()
            .take_while(|held| prefix_key(held) == key)
            .position(|held| held.as_str().as_bytes() == bytes)
            .map(|offset| at.saturating_add(offset))
    }

    /// The positions of the pairs that start at asset number `from`.
    pub(crate) fn starting_at(&self, from: usize) -> Range<usize> {
        let start = self.starts.get(from).copied().unwrap_or(0);
        let end = self
            .starts
            .get(from.saturating_add(1))
            .copied()
            .unwrap_or(start);
        start..end.max(start)
    }

    /// The position of the pair from asset number `from` to `to`.
    pub(crate) fn find(&self, from: usize, to: usize) -> Option<usize> {
        let range = self.starting_at(from);
        let offset = self
            .pairs
            .get(range.clone())?
            .binary_search_by(|pair| pair.to.cmp(&to))
            .ok()?;
        Some(range.start.saturating_add(offset))
    }
}

/// An asset id's first 8 bytes, zero-padded, as a big-endian integer: ids
/// hold no NUL byte, so comparing these compares the ids' bytes as far as
/// they reach.
fn prefix_key(asset: &AssetId) -> u64 {
    let mut bytes = [0u8; 8];
    for (slot, &byte) in bytes.iter_mut().zip(asset.as_str().as_bytes()) {
        *slot = byte;
    }
    u64::from_be_bytes(bytes)
}

/// Pairs by from asset, then to asset, by id bytes.
fn pair_order(a: &PairId, b: &PairId) -> Ordering {
    a.from()
        .as_str()
        .as_bytes()
        .cmp(b.from().as_str().as_bytes())
        .then_with(|| a.to().as_str().as_bytes().cmp(b.to().as_str().as_bytes()))
}

/// Significant digits the pruning bounds keep (rounded toward zero, so
/// they stay bounds): few enough that their products need no rescaling.
pub(crate) const SIGNIFICANT: u32 = 12;

/// At most `a / b` (`b > 0`): `Decimal`'s quotient moved down by one unit of
/// its last place.
pub(crate) fn lower_quotient(a: Decimal, b: Decimal) -> Option<Decimal> {
    let quotient = a.checked_div(b)?;
    quotient.checked_sub(Decimal::new(1, quotient.scale()))
}

#[cfg(test)]
mod tests {
    use super::prefix_key;
    use crate::ids::AssetId;

    fn key(id: &str) -> u64 {
        prefix_key(&AssetId::new(id).unwrap())
    }

    #[test]
    fn a_prefix_key_is_the_first_eight_bytes_big_endian() {
        // "BTC" = 0x42 0x54 0x43, then five zero bytes.
        assert_eq!(key("BTC"), 0x4254_4300_0000_0000);
        // Eight bytes fill the key; the ninth and later are not in it.
        assert_eq!(key("ABCDEFGH"), 0x4142_4344_4546_4748);
        assert_eq!(key("ABCDEFGHIJ"), key("ABCDEFGH"));
        // Keys order as the ids' bytes as far as they reach.
        assert!(key("BTC") < key("ETH"));
        assert!(key("USDT") < key("USDT-TRC20"));
        assert!(key("B") < key("BTC"));
    }
}
