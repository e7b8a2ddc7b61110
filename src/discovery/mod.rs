//! Discovery records: what a client reads before rates — the pairs listing
//! (JSON and CSV), asset records and listings (V3, and V4 in either id form),
//! and the amount precision each asset allows.
//!
//! The specification shows none of these shapes; they follow what the live
//! service sends (`tests/payloads/`). Unknown keys are ignored, as elsewhere
//! in the crate; everything the crate knows round-trips exactly (ruling 22
//! (docs/RULES.md)). Listings are capped ([`MAX_PAIRS`], [`MAX_ASSETS`]) and
//! so are record fields ([`MAX_TEXT_LEN`], [`MAX_NETWORK_LEN`], ids at
//! [`MAX_ID_LEN`](crate::ids::MAX_ID_LEN)) (ruling 17).
//!
//! ```
//! use swaproute::discovery::{AssetsResponse, PairsResponse};
//!
//! let pairs = PairsResponse::from_csv("LTC_XMR,SOL_USDC")?;
//! let assets: AssetsResponse = serde_json::from_str(r#"[
//!   {"id":"SOL","name":"Solana","symbol":"SOL","decimals":9,"network":"solana"},
//!   {"id":"USDC","name":"USD Coin","network":"ethereum","decimals":6,"symbol":"USDC",
//!    "meta":{"contractAddress":"0xF9243a8F5A06Ab4b0a9e28aB5B7Bbaae7D67c76A"},
//!    "ethereum":{"contractAddress":"0xF9243a8F5A06Ab4b0a9e28aB5B7Bbaae7D67c76A"}}]"#)?;
//!
//! let pair = pairs.pairs()[1].id();
//! let records = assets.pair_assets(pair)?; // SOL and USDC
//! assert!(records.check_to(&"25.5".parse()?).is_ok());
//! let error = records.check_to(&"0.1234567".parse()?).unwrap_err();
//! assert_eq!(error.to_string(), "0.1234567 has 7 decimal places, but USDC has 6");
//! // Round down what the user receives, up what they must send.
//! let out = "16.57090154".parse()?;
//! assert_eq!(records.to().round_received(out)?.to_string(), "16.570901");
//! assert_eq!(records.to().round_sent(out)?.to_string(), "16.570902");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod asset;
mod csv;
mod decimals;
mod listing;
mod network_kind;
mod pair;
mod precision;
mod text;

pub use asset::{Asset, AssetMeta};
pub use csv::InvalidPairsCsv;
pub use decimals::{Decimals, TooPrecise, MAX_AMOUNT_PLACES};
pub use listing::{
    AssetsResponse, InvalidListing, PairsResponse, RenderError, MAX_ASSETS, MAX_PAIRS,
};
pub use pair::{Pair, PairDisagrees};
pub use precision::PairAssets;
pub use text::{AssetText, Network, MAX_NETWORK_LEN, MAX_TEXT_LEN};
