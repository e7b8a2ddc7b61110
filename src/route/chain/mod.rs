//! Chained routes (ruling 24 in docs/RULES.md): the best route from one
//! asset to another through up to two intermediate assets, as exact and as
//! explained as a single pair's.
//!
//! A chain is 1 to 3 legs (default at most 2); each leg starts in the asset
//! the last one ended in, and no asset appears twice. In ExactIn the first
//! leg's input is `fromAmount` and each next leg's input is the last leg's
//! net output rounded down to 8 places; in ExactOut each leg's required
//! input is worked out backwards from the exact `toAmount`, rounded up to 8
//! places, and must lie within its rate's limits. Every leg is judged by the
//! single-pair rules (2-5, 18), on its own input. Chains rank by final net
//! output (ExactIn, highest first) or the first leg's required input
//! (ExactOut, lowest first), then fewer legs, then leg by leg by pair id
//! bytes and the single-pair tie-breaks; a chain expires with its earliest
//! leg.
//!
//! ```
//! use swaproute::route::chain::{ChainRequest, Market};
//! use swaproute::{Amount, AssetId, CampaignLimits, EpochMillis, RatesResponse};
//!
//! let rate = |pair: &str, to: &str, from: &str, multiplier: &str| -> RatesResponse {
//!     serde_json::from_str(&format!(r#"[{{"amount":{{"assetId":"{to}","value":{multiplier}}},
//!       "expiry":4102444800000,"id":"{pair}-1","max":{{"assetId":"{from}","value":1000}},
//!       "min":{{"assetId":"{from}","value":0.001}},"minerFee":{{"assetId":"{to}","value":0.01}},
//!       "pairId":"{pair}"}}]"#)).unwrap()
//! };
//! let direct = rate("BTC_SOL", "SOL", "BTC", "400");
//! let first = rate("BTC_ETH", "ETH", "BTC", "30");
//! let second = rate("ETH_SOL", "SOL", "ETH", "14");
//! let now = EpochMillis::new(1_785_000_000_000);
//! let market = Market::new([&direct, &first, &second], &CampaignLimits::new(), now)?;
//! let request = ChainRequest::exact_in(AssetId::new("BTC")?, AssetId::new("SOL")?, Amount::parse("1")?, now);
//! let best = request.best(&market)?;
//! // Directly: 1 × 400 − 0.01 = 399.99. Through ETH: 1 × 30 − 0.01 = 29.99
//! // ETH, then 29.99 × 14 − 0.01 = 419.85 SOL.
//! assert_eq!(best.legs().len(), 2);
//! assert_eq!(best.final_output(), Some("419.85".parse()?));
//! assert_eq!(best.legs()[1].input().to_string(), "29.99000000"); // 8 places between legs
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod leg;
mod market;
mod no_route;
mod paths;
mod quick;
mod ranked;
mod reach;
mod request;
mod search;
mod select;

pub use market::{InvalidMarket, Market};
pub use no_route::ChainNoRoute;
pub use ranked::{Chain, ChainRejection, Leg};
pub(crate) use request::invalid_max_legs;
pub use request::{ChainRequest, DEFAULT_MAX_LEGS, MAX_LEGS};
pub use search::MAX_TOP;
pub use select::{ChainSelection, TooManyCombinations, MAX_ENUMERATION};
