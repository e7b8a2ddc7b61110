//! Several pairs' rates, each checked against the pair it is filed under:
//! what a chain [`Market`] is built from (issue 31).

use alloc::boxed::Box;
use alloc::collections::BTreeMap;
use alloc::vec::Vec;
use core::fmt;

use serde::de::{MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize};

use crate::rate::{CampaignLimits, PairId, RatesResponse};
use crate::route::chain::{InvalidMarket, Market};
use crate::time::EpochMillis;

/// Most pairs one [`RatesByPair`] holds (ruling 17 in docs/RULES.md): the
/// service lists a few hundred pairs; the cap bounds a hostile file.
pub const MAX_PAIRS_OF_RATES: usize = 16_384;

/// Rates responses of several pairs, at most one per pair, each checked
/// against its pair: the input of a chain [`Market`].
///
/// Decodes from either JSON form a server keeps its rates in:
/// - a map `{"BTC_ETH": [rates…], "ETH_SOL": [rates…]}`: every response's
///   rates must name the pair of its key (an empty list is kept under its
///   key, holding no rates);
/// - an array of rates responses `[[rates…], [rates…]]`: each filed under
///   the pair its rates name (empty ones are skipped), no pair twice.
///
/// Each response is checked as a [`RatesResponse`] is (one pair, unique
/// ids, at most [`MAX_RATES`](crate::rate::MAX_RATES)); it encodes as the
/// map form.
///
/// ```
/// use swaproute::route::RatesByPair;
/// use swaproute::route::chain::ChainRequest;
/// use swaproute::{Amount, AssetId, CampaignLimits, EpochMillis};
/// let rates: RatesByPair = serde_json::from_str(r#"{
///   "BTC_ETH": [{"amount":{"assetId":"ETH","value":30},"expiry":4102444800000,"id":"a",
///     "max":{"assetId":"BTC","value":8},"min":{"assetId":"BTC","value":0.001},
///     "minerFee":{"assetId":"ETH","value":0.01},"pairId":"BTC_ETH"}],
///   "ETH_SOL": [{"amount":{"assetId":"SOL","value":14},"expiry":4102444800000,"id":"b",
///     "max":{"assetId":"ETH","value":1000},"min":{"assetId":"ETH","value":0.001},
///     "minerFee":{"assetId":"SOL","value":0.01},"pairId":"ETH_SOL"}]}"#)?;
/// let now = EpochMillis::new(1_785_000_000_000);
/// let campaigns = CampaignLimits::new();
/// let market = rates.market(&campaigns, now)?;
/// let best = ChainRequest::exact_in(AssetId::new("BTC")?, AssetId::new("SOL")?, Amount::parse("1")?, now)
///     .best(&market)?;
/// // 1 × 30 − 0.01 = 29.99 ETH, then 29.99 × 14 − 0.01 = 419.85 SOL.
/// assert_eq!(best.final_output(), Some("419.85".parse()?));
///
/// // A response filed under another pair's key is refused, naming both.
/// let wrong = serde_json::from_str::<RatesByPair>(r#"{"ETH_BTC": [{"amount":{"assetId":"ETH","value":30},
///   "expiry":4102444800000,"id":"a","max":{"assetId":"BTC","value":8},"min":{"assetId":"BTC","value":0.001},
///   "minerFee":{"assetId":"ETH","value":0.01},"pairId":"BTC_ETH"}]}"#).unwrap_err();
/// assert!(wrong.to_string().starts_with("the rates under key ETH_BTC are for BTC_ETH"), "{wrong}");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct RatesByPair(BTreeMap<PairId, RatesResponse>);

/// Why rates responses cannot be filed by pair.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum InvalidRatesByPair {
    /// The rates filed under `key` name another pair.
    #[error("the rates under key {key} are for {rates}")]
    KeyMismatch {
        /// The key (or the pair asked for).
        key: Box<PairId>,
        /// The pair the rates name.
        rates: Box<PairId>,
    },
    /// Two responses for one pair: which is current is the caller's
    /// question.
    #[error("two rates responses for pair {0}")]
    DuplicatePair(Box<PairId>),
    /// More than [`MAX_PAIRS_OF_RATES`] pairs.
    #[error("more than {MAX_PAIRS_OF_RATES} pairs of rates")]
    TooManyPairs,
}

impl RatesByPair {
    /// No pairs.
    pub fn new() -> Self {
        RatesByPair::default()
    }

    /// Files `rates` under `pair`.
    ///
    /// # Errors
    /// [`InvalidRatesByPair::KeyMismatch`] when the rates name another pair;
    /// [`InvalidRatesByPair::DuplicatePair`] when `pair` already has rates;
    /// [`InvalidRatesByPair::TooManyPairs`] past [`MAX_PAIRS_OF_RATES`].
    pub fn insert(&mut self, pair: PairId, rates: RatesResponse) -> Result<(), InvalidRatesByPair> {
        if let Some(named) = rates.pair_id() {
            if named.as_str() != pair.as_str() {
                return Err(InvalidRatesByPair::KeyMismatch {
                    key: Box::new(pair),
                    rates: Box::new(named.clone()),
                });
            }
        }
        if self.0.contains_key(&pair) {
            return Err(InvalidRatesByPair::DuplicatePair(Box::new(pair)));
        }
        if self.0.len() >= MAX_PAIRS_OF_RATES {
            return Err(InvalidRatesByPair::TooManyPairs);
        }
        self.0.insert(pair, rates);
        Ok(())
    }

    /// Files each response under the pair its rates name (an empty one names
    /// none and is skipped).
    ///
    /// # Errors
    /// [`InvalidRatesByPair::DuplicatePair`] when two name one pair;
    /// [`InvalidRatesByPair::TooManyPairs`] past [`MAX_PAIRS_OF_RATES`].
    pub fn from_responses<I>(responses: I) -> Result<Self, InvalidRatesByPair>
    where
        I: IntoIterator<Item = RatesResponse>,
    {
        let mut by_pair = RatesByPair::new();
        for rates in responses {
            if let Some(pair) = rates.pair_id().cloned() {
                by_pair.insert(pair, rates)?;
            }
        }
        Ok(by_pair)
    }

    /// The rates of `pair`, if any.
    pub fn get(&self, pair: &PairId) -> Option<&RatesResponse> {
        self.0.get(pair)
    }

    /// The pairs and their rates, by pair id.
    pub fn iter(&self) -> impl Iterator<Item = (&PairId, &RatesResponse)> + '_ {
        self.0.iter()
    }

    /// How many pairs.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// `true` when no pair has rates.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// A chain [`Market`] of every pair under the caller's `campaigns`,
    /// prepared at `now` ([`Market::new`]).
    ///
    /// # Errors
    /// [`InvalidMarket`] as [`Market::new`] reports it (never a duplicate
    /// pair: each pair is here once).
    pub fn market(
        &self,
        campaigns: &CampaignLimits,
        now: EpochMillis,
    ) -> Result<Market<'_>, InvalidMarket> {
        Market::new(self.0.values(), campaigns, now)
    }
}

impl<'de> Deserialize<'de> for RatesByPair {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct ByPair;
        impl<'de> Visitor<'de> for ByPair {
            type Value = RatesByPair;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a map of pair ids to rates responses, or an array of rates responses")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RatesByPair, A::Error> {
                let mut by_pair = RatesByPair::new();
                while let Some(pair) = map.next_key::<PairId>()? {
                    let rates: RatesResponse = map.next_value()?;
                    by_pair
                        .insert(pair, rates)
                        .map_err(serde::de::Error::custom)?;
                }
                Ok(by_pair)
            }

            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<RatesByPair, A::Error> {
                let mut by_pair = RatesByPair::new();
                while let Some(rates) = seq.next_element::<RatesResponse>()? {
                    if let Some(pair) = rates.pair_id().cloned() {
                        by_pair
                            .insert(pair, rates)
                            .map_err(serde::de::Error::custom)?;
                    }
                }
                Ok(by_pair)
            }
        }
        deserializer.deserialize_any(ByPair)
    }
}

impl TryFrom<Vec<RatesResponse>> for RatesByPair {
    type Error = InvalidRatesByPair;

    /// [`RatesByPair::from_responses`].
    fn try_from(responses: Vec<RatesResponse>) -> Result<Self, Self::Error> {
        RatesByPair::from_responses(responses)
    }
}
