//! A route query (`?fromAmount=…&toAmount=…&swapMode=…`), validated by the
//! order body's own field functions.
//!
//! It lives in [`order`](crate::order), next to the body validation, because
//! it is request intake: the same fields, the same [`RequestErrors`] with the
//! same codes, messages and priority, so `fromAmount=0` in a query and
//! `"fromAmount":"0"` in a body answer identically. [`route`](crate::route)
//! re-exports it, since what it yields is a [`RouteRequest`].

use alloc::vec::Vec;

use super::loose::Loose;
use super::validate::{self, collect};
use super::{FieldError, OrderContext, RequestErrors, RequestField};
use crate::decimal::Amount;
use crate::error::ErrorCode;
use crate::rate::RateList;
use crate::route::{estimate_exact_out_under, NoRoute, Policy, RouteRequest};
use crate::swap_mode::SwapMode;
use crate::time::EpochMillis;

/// One key of a query as met while scanning the pairs (this query's and
/// [`ChainQuery`](super::ChainQuery)'s).
pub(super) enum Slot {
    Absent,
    Once(Loose),
    Repeated,
}

impl Slot {
    pub(super) fn put(&mut self, value: &str) {
        *self = match self {
            Slot::Absent => Slot::Once(Loose::Str(value.into())),
            Slot::Once(_) | Slot::Repeated => Slot::Repeated,
        };
    }

    /// The value, or the error of a repeated key.
    pub(super) fn value(&self, field: RequestField) -> Result<Option<&Loose>, FieldError> {
        match self {
            Slot::Absent => Ok(None),
            Slot::Once(value) => Ok(Some(value)),
            Slot::Repeated => Err(FieldError::new(
                field,
                ErrorCode::InvalidRequest,
                "is repeated; send it once",
            )),
        }
    }

    /// The text, or the error of a repeated key.
    pub(super) fn text(&self, field: RequestField) -> Result<Option<&str>, FieldError> {
        Ok(match self.value(field)? {
            Some(Loose::Str(text)) => Some(text),
            _ => None,
        })
    }
}

/// The slots of `keys` filled from a query's pairs, in the order of `keys`;
/// other keys are ignored.
pub(super) fn slots<const N: usize, I, K, V>(pairs: I, keys: [&str; N]) -> [Slot; N]
where
    I: IntoIterator<Item = (K, V)>,
    K: AsRef<str>,
    V: AsRef<str>,
{
    let mut slots: [Slot; N] = core::array::from_fn(|_| Slot::Absent);
    for (key, value) in pairs {
        let at = keys.iter().position(|known| *known == key.as_ref());
        if let Some(slot) = at.and_then(|at| slots.get_mut(at)) {
            slot.put(value.as_ref());
        }
    }
    slots
}

/// A query's `fromAmount` and `toAmount` by its swap mode, each problem added
/// to `errors` (then `None`): `fromAmount` may be left out in ExactOut only
/// (the estimator gives it), `toAmount` in ExactIn (and when the mode is in
/// error).
pub(super) fn amounts(
    errors: &mut Vec<FieldError>,
    from: &Slot,
    to: &Slot,
    swap_mode: Option<SwapMode>,
) -> Option<(Option<Amount>, Option<Amount>)> {
    use RequestField as F;
    let from_amount = collect(
        errors,
        from.value(F::FromAmount)
            .and_then(|value| match (value, swap_mode) {
                (None, Some(SwapMode::ExactOut)) => Ok(None),
                (value, _) => validate::amount(F::FromAmount, value).map(Some),
            }),
    );
    let to_amount = collect(
        errors,
        to.value(F::ToAmount)
            .and_then(|value| match (value, swap_mode) {
                (None, Some(SwapMode::ExactIn) | None) => Ok(None),
                (value, _) => validate::amount(F::ToAmount, value).map(Some),
            }),
    );
    Some((from_amount?, to_amount?))
}

/// A validated route query: the query parameters of a route (or rates
/// ranking) endpoint such as `GET /v3/pairs/{pairId}/route?fromAmount=0.5`.
///
/// | key | rule |
/// | --- | --- |
/// | `fromAmount` | required in ExactIn; optional in ExactOut (absent: the ExactOut estimator gives it, [`estimate_exact_out`](crate::route::estimate_exact_out)); decimal (strict grammar), > 0 |
/// | `toAmount` | required in ExactOut, optional in ExactIn; decimal, > 0 |
/// | `swapMode` | optional `ExactIn` / `ExactOut` (case-sensitive; another value is `UNSUPPORTED_SWAP_MODE`); absent is `ExactIn` |
///
/// Each value is checked by the function that checks the same key of an order
/// body, so codes and messages are the body's (`fromAmount=0` is
/// `INVALID_AMOUNT`, "fromAmount: must be greater than zero"). Every problem
/// is reported ([`RequestErrors`], in its priority order). Keys are
/// case-sensitive; unknown keys are ignored; a key sent twice is refused
/// (`INVALID_REQUEST`, "is repeated") rather than one value picked.
///
/// The pairs must already be percent-decoded (as `axum::extract::Query`,
/// `url::form_urlencoded::parse` or any server's query parser gives them):
/// this type does no URL decoding, so `0%2E5` is refused as an amount.
///
/// ```
/// use swaproute::order::RouteQuery;
/// use swaproute::{EpochMillis, ErrorCode, RatesResponse, SwapMode};
/// let rates: RatesResponse = serde_json::from_str(r#"[
///   {"amount":{"assetId":"ETH","value":20},"expiry":4102444800000,"id":"r",
///    "max":{"assetId":"BTC","value":20},"min":{"assetId":"BTC","value":0.001},
///    "minerFee":{"assetId":"ETH","value":0.5},"pairId":"BTC_ETH","features":["exactOut"]}
/// ]"#)?;
/// let now = EpochMillis::new(1_785_000_000_000);
///
/// let query = RouteQuery::from_pairs([("fromAmount", "0.5"), ("swapMode", "ExactOut"), ("toAmount", "9.5")])?;
/// assert_eq!(query.swap_mode(), SwapMode::ExactOut);
/// let request = query.route_request(&rates, now)?;
/// assert_eq!(request.to_amount().map(|a| a.to_string()).as_deref(), Some("9.5"));
///
/// // ExactOut without fromAmount: the estimator gives it, (249.5 + 0.5) / 20.
/// let query = RouteQuery::from_pairs([("swapMode", "ExactOut"), ("toAmount", "249.5")])?;
/// assert_eq!(query.from_amount(), None);
/// let request = query.route_request(&rates, now)?;
/// assert_eq!(request.from_amount().to_string(), "12.50000000");
/// assert_eq!(request.best(&rates)?.order_amount().to_string(), "12.50000000");
///
/// let errors = RouteQuery::from_pairs([("fromAmount", "0"), ("swapMode", "ExactOut")]).unwrap_err();
/// assert_eq!(errors.all().len(), 2);
/// assert_eq!(errors.first().to_string(), "toAmount: is required");
/// assert_eq!(errors.all()[1].code(), ErrorCode::InvalidAmount);
/// assert_eq!(errors.all()[1].to_string(), "fromAmount: must be greater than zero");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RouteQuery {
    /// Always `Some` in ExactIn.
    from_amount: Option<Amount>,
    /// Always `Some` in ExactOut.
    to_amount: Option<Amount>,
    swap_mode: SwapMode,
}

impl RouteQuery {
    /// Validates the query's (already percent-decoded) key-value pairs.
    ///
    /// # Errors
    /// [`RequestErrors`] with every problem: `fromAmount` missing in ExactIn
    /// (`INVALID_REQUEST`) or not a positive decimal (`INVALID_AMOUNT`);
    /// `toAmount` missing in ExactOut or not a positive decimal; `swapMode`
    /// unknown (`UNSUPPORTED_SWAP_MODE`); any of the three repeated
    /// (`INVALID_REQUEST`).
    pub fn from_pairs<I, K, V>(pairs: I) -> Result<Self, RequestErrors>
    where
        I: IntoIterator<Item = (K, V)>,
        K: AsRef<str>,
        V: AsRef<str>,
    {
        use RequestField as F;
        let [from, to, mode] = slots(pairs, ["fromAmount", "toAmount", "swapMode"]);
        let mut errors = Vec::new();
        let swap_mode = collect(
            &mut errors,
            mode.value(F::SwapMode).and_then(validate::swap_mode),
        );
        let amounts = amounts(&mut errors, &from, &to, swap_mode);
        match (amounts, swap_mode) {
            (Some((from_amount, to_amount)), Some(swap_mode)) if errors.is_empty() => {
                Ok(RouteQuery {
                    from_amount,
                    to_amount,
                    swap_mode,
                })
            }
            _ => Err(RequestErrors::collected(errors)),
        }
    }

    /// `fromAmount`: exact in ExactIn (always there), the estimate limits
    /// are checked against in ExactOut (rule 5 of docs/RULES.md); `None` in
    /// an ExactOut query that left it to the estimator.
    pub fn from_amount(&self) -> Option<Amount> {
        self.from_amount
    }

    /// `toAmount`: always there in ExactOut (exact), optional in ExactIn.
    pub fn to_amount(&self) -> Option<Amount> {
        self.to_amount
    }

    /// `swapMode` (ExactIn when absent).
    pub fn swap_mode(&self) -> SwapMode {
        self.swap_mode
    }

    /// The route request at `now`, without campaigns and under the
    /// specification's limit policy; chain
    /// [`with_campaigns`](RouteRequest::with_campaigns) and
    /// [`with_limit_policy`](RouteRequest::with_limit_policy), or use
    /// [`route_request_in`](Self::route_request_in).
    ///
    /// An ExactOut query without `fromAmount` takes the ExactOut estimate of
    /// `rates` at `now` ([`estimate_exact_out`](crate::route::estimate_exact_out),
    /// 8 places rounded up); with `fromAmount`, `rates` are not looked at.
    ///
    /// # Errors
    /// The estimator's [`NoRoute`] when it finds no rate for `toAmount` (only
    /// for an ExactOut query without `fromAmount`).
    pub fn route_request<R: RateList + ?Sized>(
        &self,
        rates: &R,
        now: EpochMillis,
    ) -> Result<RouteRequest<'static>, NoRoute> {
        self.route_request_under(rates, now, Policy::DEFAULT)
    }

    /// The route request at `now` under the caller's whole `policy` (ruling
    /// 41): the ExactOut estimate of a query without `fromAmount` is taken
    /// under it too ([`estimate_exact_out_under`]), so the request ranks
    /// the rate the estimate was made for.
    ///
    /// # Errors
    /// As [`route_request`](Self::route_request).
    pub fn route_request_under<'c, R: RateList + ?Sized>(
        &self,
        rates: &R,
        now: EpochMillis,
        policy: Policy<'c>,
    ) -> Result<RouteRequest<'c>, NoRoute> {
        let from_amount = match (self.from_amount, self.swap_mode, self.to_amount) {
            (Some(from), _, _) => from,
            (None, _, Some(to)) => {
                let estimate = estimate_exact_out_under(rates, to, now, policy)?;
                // The estimate of a positive amount is positive.
                Amount::try_from(estimate.from_amount()).unwrap_or(Amount::ZERO)
            }
            // `from_pairs` builds no query without either amount.
            (None, _, None) => Amount::ZERO,
        };
        let request = match (self.swap_mode, self.to_amount) {
            (SwapMode::ExactOut, Some(to)) => RouteRequest::exact_out(from_amount, to, now),
            (_, to) => {
                let request = RouteRequest::exact_in(from_amount, now);
                match to {
                    Some(to) => request.with_to_amount(to),
                    None => request,
                }
            }
        };
        Ok(request.with_policy(policy))
    }

    /// The route request under an order context: its `now` and its policy
    /// (campaigns, limit policy, price guard; what
    /// [`FixedOrderRequest::route_request`](super::FixedOrderRequest::route_request)
    /// uses for a body).
    ///
    /// # Errors
    /// As [`route_request`](Self::route_request).
    pub fn route_request_in<'c, R: RateList + ?Sized>(
        &self,
        rates: &R,
        context: &OrderContext<'c>,
    ) -> Result<RouteRequest<'c>, NoRoute> {
        self.route_request_under(rates, context.now, context.policy())
    }
}
