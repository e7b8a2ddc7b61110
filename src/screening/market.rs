//! Stock-token market state.

use serde::{Deserialize, Serialize};

/// Whether an asset's market is trading, e.g. a tokenized stock outside
/// exchange hours is [`MarketState::Closed`].
///
/// An asset the policy says nothing about is [`MarketState::Open`]. Pausing an
/// asset is separate ([`ScreeningPolicy::pause_asset`](super::ScreeningPolicy::pause_asset)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum MarketState {
    /// The market is trading.
    #[default]
    Open,
    /// The market is closed: swaps of the asset fail with `MARKET_CLOSED`.
    Closed,
}

crate::text::str_enum!(
    MarketState,
    /// The wire text, `"open"` or `"closed"`.
    {
        Open => "open",
        Closed => "closed",
    }
);
