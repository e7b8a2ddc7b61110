//! Stock-token market state.

use core::fmt;

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

impl MarketState {
    /// The wire text, `"open"` or `"closed"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            MarketState::Open => "open",
            MarketState::Closed => "closed",
        }
    }
}

impl fmt::Display for MarketState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
