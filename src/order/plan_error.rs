//! Why an order cannot be planned: one typed error for both flows, keeping
//! the facts (a "no route" keeps its limits) until it becomes an
//! [`ApiError`].

use alloc::boxed::Box;
use alloc::string::ToString;

use rust_decimal::Decimal;

use super::{RequestField, RequiredInputNoRoute};
use crate::decimal::Amount;
use crate::discovery::TooPrecise;
use crate::error::{ApiError, ErrorCode, HttpStatus};
use crate::ids::QuoteId;
use crate::quote::QuoteDefect;
use crate::rate::{InvalidRates, PairId};
use crate::route::NoRoute;
use crate::screening::ScreeningError;
use crate::slippage::SlippageError;
use crate::time::EpochMillis;

/// Why [`FixedOrderRequest::plan`](super::FixedOrderRequest::plan) or
/// [`FloatOrderRequest::plan`](super::FloatOrderRequest::plan) refused to
/// plan an order.
///
/// Every variant maps to its code through the one table
/// ([`code`](Self::code), [`http_status`](Self::http_status)) and converts
/// into an [`ApiError`] whose details are this error's message; a "no route"
/// keeps its limits ([`min`](Self::min), [`max`](Self::max)) through that
/// conversion, so they reach the [`ErrorBody`](crate::error::ErrorBody).
///
/// ```
/// use swaproute::order::{FixedOrderRequest, OrderContext, PlanError};
/// use swaproute::screening::ScreeningPolicy;
/// use swaproute::{ApiError, EpochMillis, ErrorCode, RatesResponse};
///
/// let rates: RatesResponse = serde_json::from_str(r#"[{"amount":{"assetId":"ETH","value":33.1},
///   "expiry":4102444800000,"id":"r-1","max":{"assetId":"BTC","value":8},
///   "min":{"assetId":"BTC","value":0.001},"minerFee":{"assetId":"ETH","value":0.0002},
///   "pairId":"BTC_ETH"}]"#)?;
/// let policy = ScreeningPolicy::new();
/// let context = OrderContext::new(EpochMillis::new(1_785_000_000_000), &policy);
/// let request: FixedOrderRequest = serde_json::from_str(r#"{"fromAmount":"0.0001",
///   "fromAddress":null,"toAmount":"0.003","toAddress":"0x52908400098527886E0F7030069857D2E4169EE7",
///   "pairId":"BTC_ETH"}"#)?;
///
/// let error = request.plan(&rates, &context).unwrap_err();
/// assert!(matches!(error, PlanError::NoRoute(_)));
/// assert_eq!(error.code(), ErrorCode::AmountBelowLimit);
/// let api = ApiError::from(error);
/// assert_eq!(api.min().map(|m| m.to_string()).as_deref(), Some("0.001"));
/// assert_eq!(
///     serde_json::to_string(&api.to_body())?,
///     r#"{"status":400,"code":"AMOUNT_BELOW_LIMIT","details":"fromAmount 0.0001 BTC is below the minimum of every route; the smallest minimum is 0.001 BTC","min":"0.001"}"#
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PlanError {
    /// Screening refused the order (region, address, asset): its own code
    /// (`RESTRICTED_REGION`, `RESTRICTED_ADDRESS`, `INVALID_ADDRESS`,
    /// `ASSET_PAUSED`, `MARKET_CLOSED`).
    #[error(transparent)]
    Screening(#[from] ScreeningError),
    /// The rates name several pairs or repeat an id (rulings 18 and 31 in
    /// docs/RULES.md): the caller passed rates no service sends for one
    /// body; `INTERNAL_ERROR`.
    #[error(transparent)]
    InvalidRates(#[from] InvalidRates),
    /// The rates are another pair's than the order's (ruling 18);
    /// `INTERNAL_ERROR`.
    #[error("the rates are for {rates}, but the order is for {order}")]
    RatesOfAnotherPair {
        /// The pair the rates name.
        rates: Box<PairId>,
        /// The order's `pairId`.
        order: Box<PairId>,
    },
    /// No route is left: its own code, with the nearest limits.
    #[error(transparent)]
    NoRoute(#[from] NoRoute),
    /// No ExactOut route is left because every candidate's order amount lies
    /// outside its rate's limits (the strict policy, ruling 34):
    /// `AMOUNT_ABOVE_LIMIT` / `AMOUNT_BELOW_LIMIT`, naming the required
    /// amount that failed and the `toAmount` that works.
    #[error("{0}")]
    RequiredInput(Box<RequiredInputNoRoute>),
    /// The selected route misses the client's slippage bound (ruling 33):
    /// `SLIPPAGE_EXCEEDED` (409) with the bound and the available amount.
    #[error(transparent)]
    Slippage(SlippageError),
    /// The quote is defective (ruling 32): `PROVIDER_ERROR`.
    #[error(transparent)]
    QuoteDefect(#[from] QuoteDefect),
    /// The quote is not this body's (ruling 19): `INVALID_REQUEST` naming the
    /// field ([`QuoteMismatch::field`]).
    #[error(transparent)]
    QuoteMismatch(Box<QuoteMismatch>),
    /// An exact amount of the body has more decimal places than its asset's
    /// `decimals` (the caller gave the assets' records through
    /// [`OrderContext::with_assets`](super::OrderContext::with_assets)):
    /// `INVALID_AMOUNT`, the message starting with the field.
    #[error("{field}: {error}")]
    AmountPrecision {
        /// `fromAmount` or `toAmount`.
        field: RequestField,
        /// The amount, its asset and the asset's decimals.
        error: Box<TooPrecise>,
    },
    /// The asset records the caller gave are not those of the body's pair's
    /// assets: `INTERNAL_ERROR`.
    #[error("the asset records given are not those of the assets of {order}")]
    AssetsOfAnotherPair {
        /// The order's `pairId`.
        order: Box<PairId>,
    },
    /// The quote has expired (given the context's clock-skew margin):
    /// `QUOTE_EXPIRED`.
    #[error("quote {quote} expired at {expiry}; fetch a new quote")]
    QuoteExpired {
        /// The quote's id.
        quote: QuoteId,
        /// Its expiry.
        expiry: EpochMillis,
    },
}

impl PlanError {
    /// The stable error code, from the one table.
    pub fn code(&self) -> ErrorCode {
        match self {
            PlanError::Screening(error) => error.code(),
            PlanError::InvalidRates(_)
            | PlanError::RatesOfAnotherPair { .. }
            | PlanError::AssetsOfAnotherPair { .. } => ErrorCode::InternalError,
            PlanError::AmountPrecision { error, .. } => error.code(),
            PlanError::NoRoute(no_route) => no_route.code(),
            PlanError::RequiredInput(no_route) => no_route.code(),
            PlanError::Slippage(error) => error.code(),
            PlanError::QuoteDefect(defect) => defect.code(),
            PlanError::QuoteMismatch(_) => ErrorCode::InvalidRequest,
            PlanError::QuoteExpired { .. } => ErrorCode::QuoteExpired,
        }
    }

    /// The HTTP status of [`code`](Self::code).
    pub fn http_status(&self) -> HttpStatus {
        self.code().http_status()
    }

    /// The min a "no route" names ([`NoRoute::min`],
    /// [`RequiredInputNoRoute::min`]); `None` otherwise.
    pub fn min(&self) -> Option<Decimal> {
        match self {
            PlanError::NoRoute(no_route) => no_route.min(),
            PlanError::RequiredInput(no_route) => no_route.min(),
            _ => None,
        }
    }

    /// The max a "no route" names ([`NoRoute::max`],
    /// [`RequiredInputNoRoute::max`]); `None` otherwise.
    pub fn max(&self) -> Option<Decimal> {
        match self {
            PlanError::NoRoute(no_route) => no_route.max(),
            PlanError::RequiredInput(no_route) => no_route.max(),
            _ => None,
        }
    }

    /// The error the service answers with: the code, this error's message as
    /// details, the limits of a "no route", and the bound and available
    /// amount of `SLIPPAGE_EXCEEDED`.
    pub fn to_api_error(&self) -> ApiError {
        match self {
            PlanError::Slippage(error) => error.to_api_error(),
            _ => ApiError::new(self.code(), self.to_string()).with_limits(self.min(), self.max()),
        }
    }
}

impl From<SlippageError> for PlanError {
    fn from(error: SlippageError) -> Self {
        PlanError::Slippage(error)
    }
}

impl From<RequiredInputNoRoute> for PlanError {
    fn from(no_route: RequiredInputNoRoute) -> Self {
        PlanError::RequiredInput(Box::new(no_route))
    }
}

impl From<QuoteMismatch> for PlanError {
    fn from(mismatch: QuoteMismatch) -> Self {
        PlanError::QuoteMismatch(Box::new(mismatch))
    }
}

/// How a quote fails to be the one a floating body was planned with (ruling
/// 19, docs/RULES.md). The message starts with the field it names.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum QuoteMismatch {
    /// The quote is another pair's.
    #[error("pairId: the order is for {order} but quote {quote} is for {quote_pair}")]
    PairId {
        /// The body's `pairId`.
        order: PairId,
        /// The quote's id.
        quote: QuoteId,
        /// The quote's pair.
        quote_pair: PairId,
    },
    /// The quote is for another `fromAmount` (compared by value).
    #[error("fromAmount: the order sends {order} but quote {quote} is for {quote_amount}")]
    FromAmount {
        /// The body's `fromAmount`.
        order: Amount,
        /// The quote's id.
        quote: QuoteId,
        /// The quote's `fromAmount`.
        quote_amount: Decimal,
    },
    /// The body named another quote.
    #[error("quoteId: the order names quote {named} but was given quote {given}")]
    QuoteId {
        /// The body's `quoteId`.
        named: QuoteId,
        /// The quote given to the plan.
        given: QuoteId,
    },
}

impl QuoteMismatch {
    /// The body field the mismatch names.
    pub fn field(&self) -> RequestField {
        match self {
            QuoteMismatch::PairId { .. } => RequestField::PairId,
            QuoteMismatch::FromAmount { .. } => RequestField::FromAmount,
            QuoteMismatch::QuoteId { .. } => RequestField::QuoteId,
        }
    }
}
