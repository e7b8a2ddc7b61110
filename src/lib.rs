//! # swaproute
//!
//! The route-selection engine of a crypto swap service: exact decimal rates,
//! eligibility with reasons, ranking, ExactOut estimates, typed API errors.
//! Pure: no IO, no clock, no randomness; `no_std` + `alloc`.
#![no_std]
#![forbid(unsafe_code)]
#![cfg_attr(docsrs, feature(doc_auto_cfg))]

extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

pub mod caip;
pub mod client;
pub mod decimal;
pub mod error;
mod ids;
pub mod order;
pub mod rate;
pub mod route;
pub mod screening;
mod swap_mode;
mod time;
pub mod v4;

pub use decimal::{Amount, Decimal, Fixed8};
pub use error::{ApiError, ErrorBody, ErrorCode, HttpStatus};
pub use ids::{
    AssetId, CampaignId, InvalidId, OrderId, ProviderOrderId, QuoteId, RateId, MAX_ID_LEN,
};
pub use rate::{
    AssetAmount, CampaignLimits, Features, PairId, Rate, RateDefect, RateTerms, RatesResponse,
};
pub use route::{
    estimate_exact_out, Estimate, NoRoute, RejectReason, Route, RouteRequest, Selection,
};
pub use swap_mode::{InvalidSwapMode, SwapMode};
pub use time::EpochMillis;
