//! "No chain": which error it is (ruling 24 in docs/RULES.md).

use alloc::vec::Vec;
use core::fmt;

use rust_decimal::Decimal;

use crate::error::{ApiError, ErrorCode};
use crate::ids::AssetId;
use crate::route::NoRoute;

/// Why no chain is left.
///
/// Classification, first match wins:
/// 1. no path of at most `max_legs` pairs joins the assets →
///    `ROUTE_UNAVAILABLE`;
/// 2. the request's own amount overflows exact arithmetic at every rate it
///    meets first (none refuses it for its limits) → `INVALID_AMOUNT` (400,
///    naming `fromAmount` or `toAmount`; ruling 36): the client's amount is
///    too large, not the service's fault;
/// 3. every chain fails on its first leg → the single-pair classification
///    of those rejections (ruling 10): the limit codes with the nearest
///    limits, `RATE_EXPIRED`, `UNSUPPORTED_SWAP_MODE`, …;
/// 4. otherwise the most common reason of the rates no reachable amount
///    passes (each rate counted once, leg by leg; ruling 36), with the
///    counts of every reason.
///
/// Decided without enumerating combinations of rates: `O(p × n log n)`
/// checks for `p` paths of `n` rates a pair; a three-leg path whose middle
/// leg's outputs straddle a last-leg rate's limits without a point inside
/// them costs up to `O(n log n)` more for that rate.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ChainNoRoute {
    /// No path joins the assets.
    Unavailable {
        /// The asset the chain would start from.
        from: AssetId,
        /// The asset it would end in.
        to: AssetId,
        /// The most legs allowed.
        max_legs: usize,
    },
    /// The request's amount is too large for exact arithmetic at every rate
    /// it meets first: the client's error (`INVALID_AMOUNT`, 400).
    TooLarge {
        /// The request field: `fromAmount` (ExactIn) or `toAmount` (ExactOut).
        field: &'static str,
        /// Its value.
        amount: Decimal,
    },
    /// Every chain failed on its first leg: classified as a single pair's.
    FirstLeg(NoRoute),
    /// Chains failed on later legs too: the most common reason first, then
    /// the others, each with how many chains it stopped (most first, ties by
    /// code).
    Rejected {
        /// `(reason code, count)`, most common first.
        counts: Vec<(&'static str, usize)>,
    },
}

impl ChainNoRoute {
    /// The stable error code.
    pub fn code(&self) -> ErrorCode {
        match self {
            ChainNoRoute::Unavailable { .. } => ErrorCode::RouteUnavailable,
            ChainNoRoute::TooLarge { .. } => ErrorCode::InvalidAmount,
            ChainNoRoute::FirstLeg(no_route) => no_route.code(),
            ChainNoRoute::Rejected { counts } => counts
                .first()
                .map_or(ErrorCode::RouteUnavailable, |&(code, _)| reason_error(code)),
        }
    }

    /// The most common reason's code (`None` unless chains were rejected
    /// past their first leg).
    pub fn most_common(&self) -> Option<&'static str> {
        match self {
            ChainNoRoute::Rejected { counts } => counts.first().map(|&(code, _)| code),
            _ => None,
        }
    }

    /// The error the service answers with (limits kept for the first-leg case).
    pub fn to_api_error(&self) -> ApiError {
        let error = ApiError::new(self.code(), alloc::format!("{self}"));
        match self {
            ChainNoRoute::FirstLeg(no_route) => error.with_limits(no_route.min(), no_route.max()),
            _ => error,
        }
    }
}

impl fmt::Display for ChainNoRoute {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ChainNoRoute::Unavailable { from, to, max_legs } => write!(
                f,
                "no route joins {from} to {to} in at most {max_legs} legs"
            ),
            ChainNoRoute::TooLarge { field, amount } => write!(
                f,
                "{field} {amount} is too large: exact arithmetic overflows at every rate"
            ),
            ChainNoRoute::FirstLeg(no_route) => {
                write!(f, "every chain fails on its first leg: {no_route}")
            }
            ChainNoRoute::Rejected { counts } => {
                f.write_str("no chain is left; reasons: ")?;
                for (i, (code, count)) in counts.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{code}: {count}")?;
                }
                Ok(())
            }
        }
    }
}

impl core::error::Error for ChainNoRoute {}

/// The error code a leg's reason stands for.
fn reason_error(code: &str) -> ErrorCode {
    match code {
        "EXPIRED" => ErrorCode::RateExpired,
        "EXACT_OUT_UNSUPPORTED" | "SPONSORED_IN_EXACT_OUT" => ErrorCode::UnsupportedSwapMode,
        "BELOW_MIN" | "REQUIRED_INPUT_BELOW_MIN" => ErrorCode::AmountBelowLimit,
        "ABOVE_MAX" | "REQUIRED_INPUT_ABOVE_MAX" => ErrorCode::AmountAboveLimit,
        // The guard refused the leg's rates (rulings 40, 41): as the single pair.
        "PRICE_OUTLIER" => ErrorCode::PriceOutlier,
        _ => ErrorCode::InsufficientLiquidity,
    }
}
