//! Route selection: eligibility, ranking, ExactOut estimates and "no route".
//!
//! Laid out by rule: `rules/` holds each rule of docs/RULES.md once, its
//! fast and plain forms side by side; `engine/` scans rates into a collector
//! and concludes; `ranking.rs` is the public questions ([`RouteRequest::best`],
//! [`top`](RouteRequest::top), [`top_n`](RouteRequest::top_n),
//! [`select`](RouteRequest::select)); `book/` prepares a rates response once
//! for many ExactIn queries ([`RateBook`]). docs/ARCHITECTURE.md draws it.
//!
//! ```
//! use swaproute::{route::RouteRequest, Amount, EpochMillis, RatesResponse};
//!
//! let rates: RatesResponse = serde_json::from_str(r#"[
//!   {"amount":{"assetId":"ETH","value":33.1},"expiry":2000000000000,"id":"a",
//!    "max":{"assetId":"BTC","value":8},"min":{"assetId":"BTC","value":0.001},
//!    "minerFee":{"assetId":"ETH","value":0.0002},"pairId":"BTC_ETH"},
//!   {"amount":{"assetId":"ETH","value":33.2},"expiry":2000000000000,"id":"b",
//!    "max":{"assetId":"BTC","value":0.4},"min":{"assetId":"BTC","value":0.01},
//!    "minerFee":{"assetId":"ETH","value":0.0003},"pairId":"BTC_ETH"}
//! ]"#).unwrap();
//!
//! let request = RouteRequest::exact_in("0.5".parse::<Amount>().unwrap(), EpochMillis::new(1_700_000_000_000));
//! let best = request.best(&rates).unwrap();
//! assert_eq!(best.rate().id().as_str(), "a"); // "b" caps at 0.4
//! assert_eq!(best.net_output().to_string(), "16.5498"); // 0.5 × 33.1 − 0.0002
//!
//! let selection = request.select(&rates);
//! assert_eq!(selection.rejected()[0].reason().code(), "ABOVE_MAX");
//! ```

mod bisect;
mod book;
mod by_pair;
pub mod chain;
mod engine;
mod envelope;
mod feasible;
mod floors;
mod lifetime;
mod policy;
mod price_guard;
mod ranked;
mod ranking;
mod reject;
mod request;
mod rules;
mod selection;
mod split;
mod top_n;
mod work;

/// The units of work (rate checks, key comparisons) `f` did on this thread:
/// for fuzz targets that bound a query's work (ruling 36). Only with the
/// `work-meter` feature; the meter is a thread-local counter that no real
/// build compiles.
#[cfg(feature = "work-meter")]
pub fn measure_work<T>(f: impl FnOnce() -> T) -> (T, u64) {
    work::meter::measure(f)
}

pub use book::RateBook;
pub use by_pair::{InvalidRatesByPair, RatesByPair, MAX_PAIRS_OF_RATES};
pub use feasible::{AmountRange, Feasible, FeasibleQuery, FeasibleReport, Served};
pub use floors::Floors;
pub use lifetime::{chain_valid_until, split_valid_until, Interval, Schedule};
pub use policy::{LimitPolicy, Policy, PolicyPart, UnsupportedPolicy};
pub use price_guard::{PriceGuard, PriceReference};
pub use ranked::{LimitCheck, Route};
pub use reject::{RejectReason, Rejection};
pub use request::RouteRequest;
pub use rules::estimate::{
    estimate_exact_out, estimate_exact_out_under, estimate_exact_out_with, Estimate,
};
pub use rules::no_route::{NamedAmount, NoRoute, WorkingAmount};
pub use selection::Selection;
pub use split::split_work_limit;
pub use split::{
    Split, SplitAnswer, SplitError, SplitLeg, SplitLegs, SplitPolicy, SplitStop, SplitWork,
};
pub use top_n::TopN;
