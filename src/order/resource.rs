//! The order resource, as the service returns it.

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use super::{
    Observation, OrderStatus, Presence, SentAmount, SentDecimal, Timestamp, TrackedStatus,
};
use crate::ids::{CampaignId, OrderId, ProviderOrderId, RateId};
use crate::rate::PairId;
use alloc::string::String;

/// An order (`POST /v3/orders` answers one with HTTP 201; `GET /v3/orders/:orderId`
/// returns one with `toAmount`).
///
/// Decoding accepts every shape the service has sent: amounts as strings
/// (current) or numbers (older), optional keys omitted or `null`, `""` for
/// empty values, unknown keys, and statuses this crate does not know.
///
/// Encoding gives back the JSON value that was decoded (ruling 22,
/// docs/RULES.md): every optional key is a [`Presence`], so an absent key
/// stays absent and `null` or `""` is written back as sent (`rateId: ""`,
/// `providerOrderId: ""`, `fromAddress: null`, `sponsoredByCampaignId: null`);
/// amounts are [`SentDecimal`]s, written as strings or numbers as they came.
/// Keys this crate does not know are not kept.
///
/// Every field holds a valid value of its own type and any combination is a
/// record the service can send, so the fields are public.
///
/// ```
/// use swaproute::order::{Order, OrderStatus};
/// let order: Order = serde_json::from_str(r#"{"id":"o-1","status":"awaiting","pairId":"BTC_ETH",
///   "rateId":"r-1","amount":{"assetId":"BTC","value":"0.5"},"fromAddress":null,
///   "toAddress":"0x52908400098527886E0F7030069857D2E4169EE7","payInAddress":"bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh",
///   "payInAddressTag":"","createdAt":"2026-07-14T09:30:00Z"}"#).unwrap();
/// assert_eq!(order.status, OrderStatus::Awaiting);
/// assert_eq!(order.amount().unwrap().to_string(), "0.5");
/// assert!(order.to_amount.is_absent()); // not analyzed yet
/// assert!(order.from_address.value().is_none()); // sent as null...
/// let again = serde_json::to_value(&order).unwrap();
/// assert!(again["fromAddress"].is_null()); // ...and written back as null
/// assert_eq!(again["payInAddressTag"], "");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Order {
    /// The order id.
    pub id: OrderId,
    /// The status (an unknown one round-trips).
    pub status: OrderStatus,
    /// The pair.
    pub pair_id: PairId,
    /// The rate used (fixed orders); `""` when there is none.
    #[serde(default, skip_serializing_if = "Presence::is_absent")]
    pub rate_id: Presence<RateId>,
    /// The provider's id of the order; `""` when there is none yet.
    #[serde(default, skip_serializing_if = "Presence::is_absent")]
    pub provider_order_id: Presence<ProviderOrderId>,
    /// What the user sends, from asset. In ExactOut the selected route decided it.
    #[serde(default, skip_serializing_if = "Presence::is_absent")]
    pub amount: Presence<SentAmount>,
    /// The destination amount from blockchain data: absent or `null` until analyzed.
    #[serde(default, skip_serializing_if = "Presence::is_absent")]
    pub to_amount: Presence<ToAmount>,
    /// The sender's address; `null` for providers that collect it later.
    #[serde(default, skip_serializing_if = "Presence::is_absent")]
    pub from_address: Presence<String>,
    /// Tag or memo of `fromAddress`.
    #[serde(default, skip_serializing_if = "Presence::is_absent")]
    pub from_address_tag: Presence<String>,
    /// The receiving address.
    #[serde(default, skip_serializing_if = "Presence::is_absent")]
    pub to_address: Presence<String>,
    /// Tag or memo of `toAddress`.
    #[serde(default, skip_serializing_if = "Presence::is_absent")]
    pub to_address_tag: Presence<String>,
    /// The address the user sends funds to.
    #[serde(default, skip_serializing_if = "Presence::is_absent")]
    pub pay_in_address: Presence<String>,
    /// Tag or memo for the deposit.
    #[serde(default, skip_serializing_if = "Presence::is_absent")]
    pub pay_in_address_tag: Presence<String>,
    /// The deposit transaction.
    #[serde(default, skip_serializing_if = "Presence::is_absent")]
    pub from_transaction_id: Presence<String>,
    /// The payout transaction.
    #[serde(default, skip_serializing_if = "Presence::is_absent")]
    pub to_transaction_id: Presence<String>,
    /// Free text.
    #[serde(default, skip_serializing_if = "Presence::is_absent")]
    pub message: Presence<String>,
    /// Creation time.
    #[serde(default, skip_serializing_if = "Presence::is_absent")]
    pub created_at: Presence<Timestamp>,
    /// Last update time.
    #[serde(default, skip_serializing_if = "Presence::is_absent")]
    pub updated_at: Presence<Timestamp>,
    /// `{pid, stringAmounts}`.
    #[serde(default, skip_serializing_if = "Presence::is_absent")]
    pub extra_features: Presence<ExtraFeatures>,
    /// The sponsoring campaign of a campaign-sponsored order.
    #[serde(default, skip_serializing_if = "Presence::is_absent")]
    pub sponsored_by_campaign_id: Presence<CampaignId>,
}

impl Order {
    /// The amount the user sends (`amount.value`), when the order has one:
    /// one call for `order.amount.value().map(|a| a.value.get())`.
    ///
    /// ```
    /// use swaproute::order::Order;
    /// use swaproute::Decimal;
    /// let order: Order = serde_json::from_str(r#"{"id":"o-1","status":"awaiting",
    ///   "pairId":"BTC_ETH","amount":{"assetId":"BTC","value":"0.5"},
    ///   "toAmount":{"assetId":"ETH","value":16.5498}}"#).unwrap();
    /// assert_eq!(order.amount(), Some(Decimal::new(5, 1)));
    /// assert_eq!(order.to_amount(), Some(Decimal::new(165_498, 4)));
    /// let bare: Order = serde_json::from_str(r#"{"id":"o-2","status":"awaiting",
    ///   "pairId":"BTC_ETH","toAmount":null}"#).unwrap();
    /// assert_eq!((bare.amount(), bare.to_amount()), (None, None));
    /// ```
    pub fn amount(&self) -> Option<Decimal> {
        self.amount.value().map(|amount| amount.value.get())
    }

    /// The destination amount (`toAmount`), whatever its shape (an
    /// `{assetId, value}` object or a bare value), once the service has
    /// analyzed it; `None` while it is absent or `null`.
    pub fn to_amount(&self) -> Option<Decimal> {
        self.to_amount.value().map(ToAmount::value)
    }

    /// The deposit transaction id (`fromTransactionId`) when one is set: the
    /// service writes `""` until then, and `""`, `null` and an absent key
    /// are all "not set".
    ///
    /// ```
    /// use swaproute::order::Order;
    /// let order: Order = serde_json::from_str(r#"{"id":"o-1","status":"awaiting",
    ///   "pairId":"BTC_ETH","fromTransactionId":""}"#).unwrap();
    /// assert_eq!(order.deposit_transaction_id(), None);
    /// ```
    pub fn deposit_transaction_id(&self) -> Option<&str> {
        self.from_transaction_id
            .value()
            .map(String::as_str)
            .filter(|id| !id.is_empty())
    }

    /// The payout transaction id (`toTransactionId`) when one is set, read
    /// as [`deposit_transaction_id`](Self::deposit_transaction_id) is.
    pub fn payout_transaction_id(&self) -> Option<&str> {
        self.to_transaction_id
            .value()
            .map(String::as_str)
            .filter(|id| !id.is_empty())
    }

    /// Whether the order shows that the provider detected the deposit
    /// (ruling 47, docs/RULES.md: detection is the provider's): the status is
    /// one only a detected deposit reaches, `inProgress`, `swapped`,
    /// `complete` or `refunded`. `fromTransactionId` is no evidence (the
    /// client sets it with `PATCH /v3/orders/:id`), and `awaiting`,
    /// `delayed`, an unknown status, and `expired`/`failed` say nothing of a
    /// deposit, so they are "not detected". A caller that saw the provider
    /// report a status past `awaiting` earlier (its stored
    /// [`TrackedStatus`]) knows more than one read shows: it sets
    /// [`Observation::with_deposit_detected`] itself.
    pub fn deposit_detected(&self) -> bool {
        matches!(
            self.status,
            OrderStatus::InProgress
                | OrderStatus::Swapped
                | OrderStatus::Complete
                | OrderStatus::Refunded
        )
    }

    /// This read of the order as an [`Observation`] for
    /// [`reconcile`](super::reconcile): its status, and
    /// [`deposit_detected`](Self::deposit_detected). The resource carries no
    /// confirmation count; a caller that watches the deposit chain adds it
    /// with [`Observation::with_confirmations`] (0 otherwise, so a premature
    /// failure is adopted as reported until a confirmation is known).
    ///
    /// ```
    /// use swaproute::order::{reconcile, Order, OrderStatus, TrackedStatus};
    /// let awaiting = TrackedStatus::new(OrderStatus::Awaiting, false);
    /// // The client set the deposit transaction itself (PATCH), then the
    /// // provider gives up early: that `failed` is premature, not definitive
    /// // (ruling 47)...
    /// let read: Order = serde_json::from_str(r#"{"id":"o-1","status":"failed",
    ///   "pairId":"BTC_ETH","fromTransactionId":"4a5e1e4baab89f3a32518a88c31bc87f"}"#)?;
    /// let next = reconcile(&awaiting, &read.observation());
    /// assert_eq!((next.status(), next.is_definitive()), (&OrderStatus::Failed, false));
    /// // ...and with the deposit confirmed once, the order is in progress.
    /// let next = reconcile(&awaiting, &read.observation().with_confirmations(1));
    /// assert_eq!(*next.status(), OrderStatus::InProgress);
    /// # Ok::<(), serde_json::Error>(())
    /// ```
    pub fn observation(&self) -> Observation {
        Observation::new(self.status.clone()).with_deposit_detected(self.deposit_detected())
    }

    /// The order's status as a [`TrackedStatus`] to store and reconcile
    /// from: its status with [`deposit_detected`](Self::deposit_detected)
    /// (what [`reconcile`](super::reconcile) adopts from a first read).
    pub fn tracked_status(&self) -> TrackedStatus {
        TrackedStatus::new(self.status.clone(), self.deposit_detected())
    }
}

/// `extraFeatures` of an order: `{"pid": "…", "stringAmounts": "…"}`. The spec
/// does not say what they mean; they are kept as sent (other keys are not).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ExtraFeatures {
    /// `pid`.
    #[serde(default, skip_serializing_if = "Presence::is_absent")]
    pub pid: Presence<String>,
    /// `stringAmounts` (a string such as `"true"`).
    #[serde(default, skip_serializing_if = "Presence::is_absent")]
    pub string_amounts: Presence<String>,
}

/// An order's `toAmount`: an `{assetId, value}` object, or a bare decimal as
/// some responses send it. Serialized back in the shape it came in.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ToAmount {
    /// `{"assetId": "ETH", "value": "16.5"}`.
    Asset(SentAmount),
    /// `"16.5"` or `16.5`.
    Value(SentDecimal),
}

impl ToAmount {
    /// The decimal value, whatever the shape.
    pub fn value(&self) -> Decimal {
        match self {
            ToAmount::Asset(amount) => amount.value.get(),
            ToAmount::Value(value) => value.get(),
        }
    }
}
