//! A chained-route query (`?from=BTC&to=SOL&fromAmount=1&maxLegs=3`),
//! validated by the order body's own field functions (issue 31).

use alloc::vec::Vec;

use super::query::{amounts, slots};
use super::validate::{self, collect};
use super::{FieldError, RequestErrors, RequestField};
use crate::decimal::Amount;
use crate::error::ErrorCode;
use crate::ids::AssetId;
use crate::route::chain::{invalid_max_legs, ChainRequest, DEFAULT_MAX_LEGS, MAX_LEGS};
use crate::swap_mode::SwapMode;
use crate::time::EpochMillis;

/// A validated chained-route query: the query parameters of an endpoint
/// such as `GET /v3/route?from=BTC&to=SOL&fromAmount=1&maxLegs=3`, the
/// input of a [`ChainRequest`].
///
/// | key | rule |
/// | --- | --- |
/// | `from`, `to` | required asset ids (plain text, ruling 37), different from each other |
/// | `swapMode` | optional `ExactIn` / `ExactOut` (another value is `UNSUPPORTED_SWAP_MODE`); absent is `ExactIn` |
/// | `fromAmount` | required in ExactIn; optional in ExactOut, where the chain's required input is worked out backwards from `toAmount` (the estimator); decimal, > 0 |
/// | `toAmount` | required in ExactOut; optional in ExactIn; decimal, > 0 |
/// | `maxLegs` | optional whole number from 1 to [`MAX_LEGS`]; absent is [`DEFAULT_MAX_LEGS`] |
///
/// Codes and messages are the body decoders' and [`RouteQuery`](super::RouteQuery)'s
/// (`fromAmount=0` is `INVALID_AMOUNT`, "fromAmount: must be greater than
/// zero"; a missing key "is required"; a repeated one "is repeated; send it
/// once"); every problem is reported, in [`RequestErrors`]' priority order.
/// Keys are case-sensitive and unknown keys ignored. The pairs must be
/// percent-decoded already.
///
/// ```
/// use swaproute::order::ChainQuery;
/// use swaproute::{EpochMillis, ErrorCode, SwapMode};
/// let now = EpochMillis::new(1_785_000_000_000);
/// let query = ChainQuery::from_pairs([("from", "BTC"), ("to", "SOL"), ("fromAmount", "0.5"), ("maxLegs", "3")])?;
/// let request = query.chain_request(now);
/// assert_eq!((request.from().as_str(), request.to().as_str()), ("BTC", "SOL"));
/// assert_eq!(request.max_legs(), 3);
///
/// // ExactOut needs no fromAmount: the chain works back from toAmount.
/// let query = ChainQuery::from_pairs([("from", "BTC"), ("to", "SOL"), ("swapMode", "ExactOut"), ("toAmount", "100")])?;
/// assert_eq!(query.chain_request(now).mode(), SwapMode::ExactOut);
///
/// let errors = ChainQuery::from_pairs([("from", "BTC"), ("fromAmount", "0"), ("maxLegs", "4")]).unwrap_err();
/// let all: Vec<String> = errors.all().iter().map(ToString::to_string).collect();
/// assert_eq!(all, ["to: is required", "maxLegs: a chain has 1 to 3 legs, not 4", "fromAmount: must be greater than zero"]);
/// assert_eq!(errors.all()[2].code(), ErrorCode::InvalidAmount);
/// # Ok::<(), swaproute::order::RequestErrors>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChainQuery {
    from: AssetId,
    to: AssetId,
    swap_mode: SwapMode,
    /// Always `Some` in ExactIn.
    from_amount: Option<Amount>,
    /// Always `Some` in ExactOut.
    to_amount: Option<Amount>,
    max_legs: usize,
}

/// A required asset id.
fn asset(field: RequestField, value: Option<&str>) -> Result<AssetId, FieldError> {
    match value {
        None => Err(FieldError::new(
            field,
            ErrorCode::InvalidRequest,
            "is required",
        )),
        Some(text) => {
            AssetId::new(text).map_err(|e| FieldError::new(field, ErrorCode::InvalidRequest, e))
        }
    }
}

/// An optional leg count, 1 to [`MAX_LEGS`].
fn max_legs(value: Option<&str>) -> Result<usize, FieldError> {
    let invalid = |problem: &dyn core::fmt::Display| {
        FieldError::new(RequestField::MaxLegs, ErrorCode::InvalidRequest, problem)
    };
    let Some(text) = value else {
        return Ok(DEFAULT_MAX_LEGS);
    };
    // Digits only: no sign, no spaces, no leading `+` (`usize::from_str`
    // would take one).
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(invalid(&alloc::format!(
            "must be a whole number from 1 to {MAX_LEGS}"
        )));
    }
    // Too many digits for a usize is out of range all the same.
    let legs = text.parse::<usize>().unwrap_or(usize::MAX);
    if (1..=MAX_LEGS).contains(&legs) {
        Ok(legs)
    } else {
        Err(invalid(&invalid_max_legs(legs)))
    }
}

impl ChainQuery {
    /// Validates the query's (already percent-decoded) key-value pairs.
    ///
    /// # Errors
    /// [`RequestErrors`] with every problem: `from` or `to` missing or not
    /// an id, or the same asset (`INVALID_REQUEST`); `swapMode` unknown
    /// (`UNSUPPORTED_SWAP_MODE`); `fromAmount` missing in ExactIn, `toAmount`
    /// missing in ExactOut (`INVALID_REQUEST`), either not a positive decimal
    /// (`INVALID_AMOUNT`); `maxLegs` not a whole number from 1 to 3
    /// (`INVALID_REQUEST`); any key repeated (`INVALID_REQUEST`).
    pub fn from_pairs<I, K, V>(pairs: I) -> Result<Self, RequestErrors>
    where
        I: IntoIterator<Item = (K, V)>,
        K: AsRef<str>,
        V: AsRef<str>,
    {
        use RequestField as F;
        let [from, to, mode, from_amount, to_amount, legs] = slots(
            pairs,
            [
                "from",
                "to",
                "swapMode",
                "fromAmount",
                "toAmount",
                "maxLegs",
            ],
        );
        let mut errors = Vec::new();
        let from = collect(
            &mut errors,
            from.text(F::From).and_then(|v| asset(F::From, v)),
        );
        let to = collect(&mut errors, to.text(F::To).and_then(|v| asset(F::To, v)));
        if let (Some(from), Some(to)) = (&from, &to) {
            if from == to {
                errors.push(FieldError::new(
                    F::To,
                    ErrorCode::InvalidRequest,
                    alloc::format!("is the same asset as from ({from})"),
                ));
            }
        }
        let swap_mode = collect(
            &mut errors,
            mode.value(F::SwapMode).and_then(validate::swap_mode),
        );
        let amounts = amounts(&mut errors, &from_amount, &to_amount, swap_mode);
        let max_legs = collect(&mut errors, legs.text(F::MaxLegs).and_then(max_legs));
        match (from, to, swap_mode, amounts, max_legs) {
            (
                Some(from),
                Some(to),
                Some(swap_mode),
                Some((from_amount, to_amount)),
                Some(max_legs),
            ) if errors.is_empty() => Ok(ChainQuery {
                from,
                to,
                swap_mode,
                from_amount,
                to_amount,
                max_legs,
            }),
            _ => Err(RequestErrors::collected(errors)),
        }
    }

    /// `from`.
    pub fn from(&self) -> &AssetId {
        &self.from
    }

    /// `to`.
    pub fn to(&self) -> &AssetId {
        &self.to
    }

    /// `swapMode` (ExactIn when absent).
    pub fn swap_mode(&self) -> SwapMode {
        self.swap_mode
    }

    /// `fromAmount`: always there in ExactIn; in ExactOut only when sent
    /// (the chain request does not use it: it works back from `toAmount`).
    pub fn from_amount(&self) -> Option<Amount> {
        self.from_amount
    }

    /// `toAmount`: always there in ExactOut; in ExactIn only when sent.
    pub fn to_amount(&self) -> Option<Amount> {
        self.to_amount
    }

    /// `maxLegs` (2 when absent).
    pub fn max_legs(&self) -> usize {
        self.max_legs
    }

    /// The chain request at `now`: ExactIn from `fromAmount`, ExactOut from
    /// `toAmount`, with `maxLegs`.
    pub fn chain_request(&self, now: EpochMillis) -> ChainRequest {
        let (from, to) = (self.from.clone(), self.to.clone());
        let request = match (self.swap_mode, self.from_amount, self.to_amount) {
            (SwapMode::ExactOut, _, Some(to_amount)) => {
                ChainRequest::exact_out(from, to, to_amount, now)
            }
            (_, from_amount, _) => {
                ChainRequest::exact_in(from, to, from_amount.unwrap_or(Amount::ZERO), now)
            }
        };
        // `max_legs` was checked to be 1 to MAX_LEGS.
        request
            .clone()
            .with_max_legs(self.max_legs)
            .unwrap_or(request)
    }
}
