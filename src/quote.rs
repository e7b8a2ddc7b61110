//! Quotes: the price source of the floating flow.

use alloc::string::String;

use serde::{Deserialize, Serialize};

use crate::ids::{CampaignId, QuoteId};
use crate::rate::{as_string, AssetAmount, PairId};
use crate::time::EpochMillis;

/// A quote (`GET /v3/pairs/:pairId/quotes`): one price for one exact amount.
///
/// Amounts are strings on the wire (numbers are accepted too); optional keys
/// may be absent or `null` and are omitted when serialized. A quote is the
/// only input of a floating order ([`FloatOrderRequest`](crate::order::FloatOrderRequest)),
/// never of a fixed one.
///
/// ```
/// use swaproute::{quote::Quote, EpochMillis};
/// let quote: Quote = serde_json::from_str(r#"{"id":"q-1","pairId":"BTC_ETH",
///   "fromAmount":{"assetId":"BTC","value":"0.5"},"toAmount":{"assetId":"ETH","value":"16.5"},
///   "expiry":1785000030000}"#).unwrap();
/// let now = EpochMillis::new(1_785_000_000_000);
/// assert!(!quote.is_expired_at(now));
/// assert_eq!(quote.millis_until_expiry(now), Some(30_000));
/// assert!(quote.should_refresh(now, 60_000)); // expires within the next minute
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Quote {
    /// The quote id.
    pub id: QuoteId,
    /// The pair.
    pub pair_id: PairId,
    /// The amount swapped (from asset).
    #[serde(with = "as_string")]
    pub from_amount: AssetAmount,
    /// The amount received (to asset).
    #[serde(with = "as_string")]
    pub to_amount: AssetAmount,
    /// Expiry, epoch milliseconds: the quote is expired at `now >= expiry`.
    pub expiry: EpochMillis,
    /// The partner's revenue share in the source asset, when revenue sharing is configured.
    #[serde(
        default,
        with = "as_string::option",
        skip_serializing_if = "Option::is_none"
    )]
    pub partner_revenue_share_amount: Option<AssetAmount>,
    /// The sponsoring campaign of a campaign-sponsored quote.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sponsored_by_campaign_id: Option<CampaignId>,
}

impl Quote {
    /// `true` when expired at `now` (`expiry <= now`).
    pub fn is_expired_at(&self, now: EpochMillis) -> bool {
        self.expiry <= now
    }

    /// `true` when expired at `now` on a clock that may run up to `skew_millis`
    /// behind the service's: the quote must outlive `now + skew_millis`.
    pub fn is_expired_with_skew(&self, now: EpochMillis, skew_millis: u64) -> bool {
        self.expiry <= now.saturating_add(skew_millis)
    }

    /// Milliseconds left before expiry, or `None` once expired.
    pub fn millis_until_expiry(&self, now: EpochMillis) -> Option<u64> {
        self.expiry.millis_since(now).filter(|&left| left > 0)
    }

    /// `true` when the quote expires within `lead_millis` of `now` (or already
    /// has): time to fetch a fresh one before creating an order.
    pub fn should_refresh(&self, now: EpochMillis, lead_millis: u64) -> bool {
        self.is_expired_with_skew(now, lead_millis)
    }

    /// A short human-readable summary, e.g. `q-1: 0.5 BTC → 16.5 ETH`.
    pub fn summary(&self) -> String {
        alloc::format!(
            "{}: {} {} → {} {}",
            self.id,
            self.from_amount.value,
            self.from_amount.asset_id,
            self.to_amount.value,
            self.to_amount.asset_id
        )
    }
}
