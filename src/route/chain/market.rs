//! A market of several pairs: the rates responses a chain search reads,
//! indexed by from-asset and prepared once.

use alloc::vec::Vec;
use core::cmp::Ordering;
use core::ops::Range;

use rust_decimal::Decimal;

use crate::ids::AssetId;
use crate::rate::{CampaignLimits, PairId, Rate, RatesResponse};
use crate::route::RateBook;
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
    /// The pairs, by from asset then to asset (id bytes).
    pairs: Vec<MarketPair<'r>>,
    campaigns: CampaignLimits,
}

/// One pair of a market, prepared.
#[derive(Clone, Debug)]
pub(crate) struct MarketPair<'r> {
    pub(crate) id: &'r PairId,
    pub(crate) rates: &'r [Rate],
    /// The ExactIn rate book of the pair, under the market's campaigns.
    pub(crate) book: RateBook<'r>,
    /// The valid rates, by multiplier descending (a walk in this order can
    /// stop once `amount × multiplier` cannot beat what was found).
    pub(crate) by_multiplier: Vec<&'r Rate>,
    /// The largest multiplier and the smallest fee among the valid rates:
    /// `y × max_multiplier − min_fee` bounds every rate's net output at `y`.
    pub(crate) max_multiplier: Decimal,
    pub(crate) min_fee: Decimal,
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
            pairs.push(MarketPair {
                id,
                rates,
                book: RateBook::new(response, campaigns, now),
                by_multiplier,
                max_multiplier,
                min_fee,
            });
        }
        pairs.sort_by(|a, b| pair_order(a.id, b.id));
        if let Some(twice) = pairs.windows(2).find_map(|w| match w {
            [a, b] if a.id == b.id => Some(a.id.clone()),
            _ => None,
        }) {
            return Err(InvalidMarket::DuplicatePair(twice));
        }
        Ok(Market {
            pairs,
            campaigns: campaigns.clone(),
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

    /// The pair at `index`.
    pub(crate) fn pair(&self, index: usize) -> Option<&MarketPair<'r>> {
        self.pairs.get(index)
    }

    /// The positions of the pairs that start at `from`.
    pub(crate) fn starting_at(&self, from: &AssetId) -> Range<usize> {
        let key = from.as_str().as_bytes();
        let start = self
            .pairs
            .partition_point(|pair| pair.id.from().as_str().as_bytes() < key);
        let end = self
            .pairs
            .partition_point(|pair| pair.id.from().as_str().as_bytes() <= key);
        start..end.max(start)
    }

    /// The position of the pair `from` → `to`.
    pub(crate) fn find(&self, from: &AssetId, to: &AssetId) -> Option<usize> {
        let range = self.starting_at(from);
        let offset = self
            .pairs
            .get(range.clone())?
            .binary_search_by(|pair| pair.id.to().as_str().as_bytes().cmp(to.as_str().as_bytes()));
        offset.ok().map(|at| range.start.saturating_add(at))
    }
}

/// Pairs by from asset, then to asset, by id bytes.
fn pair_order(a: &PairId, b: &PairId) -> Ordering {
    a.from()
        .as_str()
        .as_bytes()
        .cmp(b.from().as_str().as_bytes())
        .then_with(|| a.to().as_str().as_bytes().cmp(b.to().as_str().as_bytes()))
}
