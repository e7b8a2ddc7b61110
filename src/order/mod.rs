//! Orders: requests of both flows, their plans, the order resource, status
//! reconciliation and the deposit transaction id update.
//!
//! The two flows never mix (ruling 12, docs/RULES.md): a [`FixedOrderRequest`] plans
//! over a rates response only, a [`FloatOrderRequest`] over a
//! [`Quote`](crate::quote::Quote) only, and there is no way to hand either the
//! other's price source.
//!
//! ```
//! use swaproute::order::{FixedOrderRequest, OrderContext, RawFixedOrderRequest};
//! use swaproute::screening::ScreeningPolicy;
//! use swaproute::{EpochMillis, ErrorCode, RatesResponse};
//!
//! let rates: RatesResponse = serde_json::from_str(r#"[{"amount":{"assetId":"ETH","value":33.1},
//!   "expiry":4102444800000,"id":"r-1","max":{"assetId":"BTC","value":8},
//!   "min":{"assetId":"BTC","value":0.001},"minerFee":{"assetId":"ETH","value":0.0002},
//!   "pairId":"BTC_ETH","features":["exactOut"]}]"#)?;
//! let policy = ScreeningPolicy::new();
//! let context = OrderContext::new(EpochMillis::new(1_785_000_000_000), &policy);
//!
//! let body = r#"{"fromAmount":"0.5","fromAddress":null,"toAmount":"16.5",
//!   "toAddress":"0x52908400098527886E0F7030069857D2E4169EE7","pairId":"BTC_ETH","swapMode":"ExactOut"}"#;
//! let request: FixedOrderRequest = serde_json::from_str(body)?;
//! let plan = request.plan(&rates, &context)?;
//! assert_eq!(plan.rate_id().as_str(), "r-1");
//! assert_eq!(plan.amount().to_string(), "0.49849547"); // ⌈(16.5 + 0.0002) / 33.1⌉₈
//!
//! // Every problem of a bad body, the first one by documented priority.
//! let raw: RawFixedOrderRequest = serde_json::from_str(r#"{"fromAmount":"1e5","toAmount":0,
//!   "toAddress":"","pairId":"BTC_ETH","slippage":101}"#)?;
//! let errors = FixedOrderRequest::validate(&raw).unwrap_err();
//! assert_eq!(errors.all().len(), 5);
//! assert_eq!(errors.first().to_string(), "fromAddress: is required (null is accepted)");
//! assert_eq!(errors.to_api_error().code(), ErrorCode::InvalidRequest);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod body;
mod chain_query;
mod context;
mod deposit;
mod deposit_outcome;
mod field;
mod fixed;
mod floating;
mod forms;
pub(crate) mod loose;
mod new_order;
mod parties;
mod plan_error;
mod query;
mod required;
mod requote;
mod resource;
mod status;
mod tracking;
mod validate;
mod verify;

// The wire vocabulary, for the files below (`super::Presence`…).
use crate::wire::{Presence, RequestField, SentAmount, SentDecimal, Timestamp};

pub use chain_query::ChainQuery;
pub use context::OrderContext;
pub use deposit::{
    DepositTransactionUpdate, TransactionId, TransactionIdAlreadySet, MAX_TRANSACTION_ID_LEN,
};
pub use deposit_outcome::{DepositClass, DepositOutcome};
pub use field::{FieldError, RequestErrors};
pub use fixed::FixedOrderBuilder;
pub use fixed::{FixedOrderPlan, FixedOrderRequest, RawFixedOrderRequest};
pub use floating::FloatOrderBuilder;
pub use floating::{FloatOrderPlan, FloatOrderRequest, RawFloatOrderRequest};
pub use new_order::{NewOrder, ToOrderError};
pub use parties::Parties;
pub use plan_error::{PlanError, QuoteMismatch};
pub use query::RouteQuery;
pub use required::{NearestRoute, RequiredInputNoRoute};
pub use requote::{InvalidPromise, Promise, Requote, RequoteClass};
pub use resource::{ExtraFeatures, Order, ToAmount};
pub use status::{
    reconcile, reconcile_all, Observation, OrderStatus, TrackedStatus, UnknownStatus,
    MAX_STATUS_LEN,
};
pub use tracking::{
    next_poll, outcome, realized_bps, TrackEvent, Tracker, TrackingOutcome, JITTER_PER_10K,
    MAX_POLL_MS, MIN_POLL_MS,
};
pub use verify::{DepositDefect, Expected, Mismatch, OrderField, OrderMismatches, OrderRead};
