//! The order resource, as the service returns it.

use alloc::string::String;
use core::fmt::Display;
use core::str::FromStr;

use rust_decimal::Decimal;
use serde::{Deserialize, Deserializer, Serialize};

use super::{OrderStatus, Timestamp};
use crate::ids::{CampaignId, OrderId, ProviderOrderId, RateId};
use crate::rate::{as_string, AssetAmount, PairId};

/// An order (`POST /v3/orders` answers one with HTTP 201; `GET /v3/orders/:orderId`
/// returns one with `toAmount`).
///
/// Decoding accepts every shape the service has sent: amounts as strings
/// (current) or numbers (older), optional keys omitted or `null`, `""` for empty
/// values, unknown keys, and statuses this crate does not know (they
/// round-trip). Serializing writes the current shape: amounts as strings,
/// optional keys omitted, `""` kept as `""`.
///
/// Every field holds a valid value of its own type and any combination is a
/// record the service can send, so the fields are public. Typed optional keys
/// (ids, timestamps) sent as `""` decode as none and are omitted when
/// serialized; free-text keys keep `""` as sent. `fromAddress: null` is
/// omitted when serialized, like every absent key.
///
/// ```
/// use swaproute::order::{Order, OrderStatus};
/// let order: Order = serde_json::from_str(r#"{"id":"o-1","status":"awaiting","pairId":"BTC_ETH",
///   "rateId":"r-1","amount":{"assetId":"BTC","value":"0.5"},"fromAddress":null,
///   "toAddress":"0x52908400098527886E0F7030069857D2E4169EE7","payInAddress":"bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh",
///   "payInAddressTag":"","createdAt":"2026-07-14T09:30:00Z"}"#).unwrap();
/// assert_eq!(order.status, OrderStatus::Awaiting);
/// assert_eq!(order.amount.unwrap().value.to_string(), "0.5");
/// assert!(order.to_amount.is_none()); // not analyzed yet
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
    /// The rate used (fixed orders). `""` decodes as none.
    #[serde(
        default,
        deserialize_with = "empty_as_none",
        skip_serializing_if = "Option::is_none"
    )]
    pub rate_id: Option<RateId>,
    /// The provider's id of the order. `""` decodes as none.
    #[serde(
        default,
        deserialize_with = "empty_as_none",
        skip_serializing_if = "Option::is_none"
    )]
    pub provider_order_id: Option<ProviderOrderId>,
    /// What the user sends, from asset. In ExactOut the selected route decided it.
    #[serde(
        default,
        with = "as_string::option",
        skip_serializing_if = "Option::is_none"
    )]
    pub amount: Option<AssetAmount>,
    /// The destination amount from blockchain data: absent or `null` until analyzed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to_amount: Option<ToAmount>,
    /// The sender's address; `null` for providers that collect it later.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from_address: Option<String>,
    /// Tag or memo of `fromAddress`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from_address_tag: Option<String>,
    /// The receiving address.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to_address: Option<String>,
    /// Tag or memo of `toAddress`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to_address_tag: Option<String>,
    /// The address the user sends funds to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pay_in_address: Option<String>,
    /// Tag or memo for the deposit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pay_in_address_tag: Option<String>,
    /// The deposit transaction.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from_transaction_id: Option<String>,
    /// The payout transaction.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to_transaction_id: Option<String>,
    /// Free text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// Creation time. `""` decodes as none.
    #[serde(
        default,
        deserialize_with = "empty_as_none",
        skip_serializing_if = "Option::is_none"
    )]
    pub created_at: Option<Timestamp>,
    /// Last update time. `""` decodes as none.
    #[serde(
        default,
        deserialize_with = "empty_as_none",
        skip_serializing_if = "Option::is_none"
    )]
    pub updated_at: Option<Timestamp>,
    /// `{pid, stringAmounts}`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extra_features: Option<ExtraFeatures>,
    /// The sponsoring campaign of a campaign-sponsored order. `""` decodes as none.
    #[serde(
        default,
        deserialize_with = "empty_as_none",
        skip_serializing_if = "Option::is_none"
    )]
    pub sponsored_by_campaign_id: Option<CampaignId>,
}

/// `extraFeatures` of an order: `{"pid": "…", "stringAmounts": "…"}`. The spec
/// does not say what they mean; they are kept as sent.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ExtraFeatures {
    /// `pid`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pid: Option<String>,
    /// `stringAmounts`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub string_amounts: Option<String>,
}

/// An order's `toAmount`: an `{assetId, value}` object, or a bare decimal as
/// some responses send it. Serialized back in the shape it came in.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ToAmount {
    /// `{"assetId": "ETH", "value": "16.5"}`.
    Asset(#[serde(with = "as_string")] AssetAmount),
    /// `"16.5"` or `16.5`.
    Value(#[serde(with = "crate::decimal::serde::string")] Decimal),
}

impl ToAmount {
    /// The decimal value, whatever the shape.
    pub fn value(&self) -> Decimal {
        match self {
            ToAmount::Asset(amount) => amount.value,
            ToAmount::Value(value) => *value,
        }
    }
}

/// `null`, absent or `""` is none; any other string must parse as `T`.
fn empty_as_none<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: FromStr,
    T::Err: Display,
{
    match Option::<String>::deserialize(deserializer)? {
        None => Ok(None),
        Some(text) if text.is_empty() => Ok(None),
        Some(text) => text.parse().map(Some).map_err(serde::de::Error::custom),
    }
}
