//! # swaproute
//!
//! The route-selection engine of a crypto swap service: exact decimal rates,
//! provider eligibility with a reason for every rejection, ranking, ExactOut
//! estimates, order intake validation and typed API errors with stable codes.
//!
//! The crate is pure: no IO, no clock, no randomness, no global state. Time is
//! a parameter ([`EpochMillis`]). It builds as `#![no_std]` + `alloc`.
//!
//! ```
//! use swaproute::{route::RouteRequest, Amount, EpochMillis, RatesResponse};
//!
//! let rates: RatesResponse = serde_json::from_str(r#"[
//!   {"amount":{"assetId":"ETH","value":33.1},"expiry":4102444800000,"id":"a",
//!    "max":{"assetId":"BTC","value":8},"min":{"assetId":"BTC","value":0.001},
//!    "minerFee":{"assetId":"ETH","value":0.0002},"pairId":"BTC_ETH"}
//! ]"#)?;
//! let request = RouteRequest::exact_in("0.5".parse::<Amount>()?, EpochMillis::new(1_785_000_000_000));
//! let best = request.best(&rates)?;
//! assert_eq!(best.net_output().to_string(), "16.5498"); // 0.5 × 33.1 − 0.0002
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## One name per number
//!
//! Three number types meet in one flow, each with one meaning:
//! - [`Amount`] is an **input**: a positive amount a client or the service
//!   sent, read in the strict amount grammar (ruling 1). Requests take it
//!   (`RouteRequest::exact_in`, the order bodies' `fromAmount` and
//!   `toAmount`).
//! - [`Decimal`] is an **exact result**: what the engine computes and
//!   reports without rounding to a wire precision (`Route::net_output`,
//!   limits, `Slippage::min_output`, `Order::amount`).
//! - [`Fixed8`] is an **8-place promise**: a value rounded once, in the
//!   caller's favour, to the 8 places the service writes (an ExactOut
//!   estimate rounded up, `Route::promised_output` rounded down).
//!
//! A value that fails to read as any of them, or as any other single value
//! the crate parses (an id, a swap mode, a timestamp, a slippage), is a
//! [`ParseError`]: what was malformed ([`ParseErrorKind`]), why, and the
//! offending text.
//!
//! ## Layout
//! - [`decimal`]: the strict amount grammar, number-or-string decoding, 8-dp rounding;
//! - [`rate`]: rates, limits, sponsored variants, campaign limits;
//! - [`route`]: eligibility, ranking, ExactOut estimates, "no route";
//! - [`order`], [`client`], [`screening`]: order intake of both flows, client
//!   headers, address and region screening, status reconciliation;
//! - [`caip`], [`v4`]: CAIP-2 / CAIP-19 identifiers and V4 requests;
//! - [`discovery`]: pair and asset records and listings, amount precision per asset;
//! - [`error`]: the one table of error codes and HTTP statuses.
#![no_std]
#![forbid(unsafe_code)]
#![cfg_attr(docsrs, feature(doc_cfg))]
// Unit tests may unwrap, index, panic and do plain arithmetic: a failing
// test is their point. The one list for every test module of the crate; the
// library itself is still held to these lints, because clippy
// (`--all-targets`) checks it built without `cfg(test)` too.
#![cfg_attr(
    test,
    allow(
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::indexing_slicing,
        clippy::panic,
        clippy::arithmetic_side_effects,
        clippy::float_arithmetic,
        clippy::cast_possible_truncation,
        clippy::cast_possible_wrap,
        clippy::cast_precision_loss,
        clippy::many_single_char_names
    )
)]

extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

// The top layer (docs/ARCHITECTURE.md): files that know every error type.
// `From<E> for ApiError` for the crate's errors (one table) and, with the
// `axum` feature, `IntoResponse` for them.
#[cfg(feature = "axum")]
mod axum;
mod convert;

pub mod caip;
pub mod client;
pub mod decimal;
pub mod discovery;
pub mod error;
mod ids;
mod numeric;
pub mod order;
mod parse_error;
pub mod quote;
pub mod rate;
pub mod route;
pub mod screening;
mod slippage;
mod swap_mode;
mod text;
mod time;
pub mod v4;
pub mod wire;

pub use decimal::{Amount, Decimal, Fixed8};
pub use error::{ApiError, ErrorBody, ErrorCode, HttpStatus};
pub use ids::{
    AssetId, CampaignId, InvalidId, OrderId, ProviderOrderId, QuoteId, RateId, MAX_ID_LEN,
};
pub use parse_error::{ParseError, ParseErrorKind};
pub use rate::{
    AssetAmount, CampaignLimits, Features, PairId, Rate, RateDefect, RateTerms, RatesResponse,
};
pub use route::{
    estimate_exact_out, Estimate, NoRoute, RateBook, RejectReason, Route, RouteRequest, Selection,
    TopN,
};
pub use slippage::{Slippage, SlippageError, SlippageExceeded};
pub use swap_mode::SwapMode;
pub use time::EpochMillis;

/// The README's examples, run as doctests of this crate (`cargo test
/// --doc`); compiled for doctests only.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

/// The guide's examples (docs/GUIDE.md: the README's longer sections), run
/// as doctests of this crate; compiled for doctests only.
#[cfg(doctest)]
#[doc = include_str!("../docs/GUIDE.md")]
pub struct GuideDoctests;
