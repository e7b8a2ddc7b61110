//! V3 quotes: the price source of the floating flow (V4 quotes are [`crate::v4::Quote`]).

use alloc::string::String;

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use crate::decimal::{DecimalError, Fixed8};
use crate::error::ErrorCode;
use crate::ids::{AssetId, CampaignId, QuoteId};
use crate::rate::PairId;
use crate::route::Route;
use crate::time::EpochMillis;
use crate::wire::{Presence, RevenueShare, SentAmount, SentDecimal};

/// A V3 quote (`GET /v3/pairs/:pairId/quotes`): one price for one exact amount.
/// Not the V4 [`v4::Quote`](crate::v4::Quote) of `POST /v4/quotes`: this one
/// names a pair and an asset per amount, and is the input of floating orders.
///
/// Decoding keeps any numbers; whether they make sense is
/// [`Quote::defect`]'s question (ruling 32, docs/RULES.md), asked by every plan
/// before it uses the quote, as a rate's defects are asked before ranking.
///
/// Amounts are strings on the wire (numbers are accepted too); optional keys
/// may be absent or `null`. Encoding gives back the JSON value that was
/// decoded (ruling 22, docs/RULES.md): amounts in the form they came in,
/// optional keys absent, `null` or `""` as sent. A quote is the
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
    pub from_amount: SentAmount,
    /// The amount received (to asset).
    pub to_amount: SentAmount,
    /// Expiry, epoch milliseconds: the quote is expired at `now >= expiry`.
    pub expiry: EpochMillis,
    /// The partner's revenue share in the source asset, when revenue sharing
    /// is configured. The spec does not show its structure (ruling 44): an
    /// amount when it is `{assetId, value}`, any other JSON kept as sent.
    #[serde(default, skip_serializing_if = "Presence::is_absent")]
    pub partner_revenue_share_amount: Presence<RevenueShare>,
    /// The sponsoring campaign of a campaign-sponsored quote.
    #[serde(default, skip_serializing_if = "Presence::is_absent")]
    pub sponsored_by_campaign_id: Presence<CampaignId>,
}

impl Quote {
    /// The quote a route prices: `id`, the route's pair, its order amount
    /// ([`Route::order_amount`]: `fromAmount` in ExactIn, the required input
    /// in ExactOut) as `fromAmount`, what the rate gives for that amount
    /// floored to 8 places from its exact value as `toAmount` (ruling 35: in
    /// ExactIn this is [`Route::promised_output`]), `expiry`, and the rate's
    /// sponsoring campaign when it is a sponsored variant. Both amounts are
    /// written as strings; no partner revenue share.
    ///
    /// What a service that quotes from its own rates answers on
    /// `GET /v3/pairs/:pairId/quotes`, and the input of a floating order's
    /// plan.
    ///
    /// ```
    /// use swaproute::quote::Quote;
    /// use swaproute::{route::RouteRequest, Amount, EpochMillis, QuoteId, RatesResponse};
    /// let rates: RatesResponse = serde_json::from_str(r#"[
    ///   {"amount":{"assetId":"ETH","value":33.1},"expiry":4102444800000,"id":"a",
    ///    "max":{"assetId":"BTC","value":8},"min":{"assetId":"BTC","value":0.001},
    ///    "minerFee":{"assetId":"ETH","value":0.0002},"pairId":"BTC_ETH"}
    /// ]"#)?;
    /// let now = EpochMillis::new(1_785_000_000_000);
    /// let route = RouteRequest::exact_in(Amount::parse("0.5")?, now).best(&rates)?;
    /// let quote = Quote::from_route(QuoteId::new("q-1")?, &route, now.saturating_add(30_000))?;
    /// assert_eq!(
    ///     serde_json::to_string(&quote)?,
    ///     r#"{"id":"q-1","pairId":"BTC_ETH","fromAmount":{"assetId":"BTC","value":"0.5"},"toAmount":{"assetId":"ETH","value":"16.54980000"},"expiry":1785000030000}"#
    /// );
    /// assert_eq!(quote.defect(), None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// A route whose output floors to zero (an output below `0.00000001`)
    /// gives a quote with `toAmount` `0`, which [`defect`](Self::defect)
    /// refuses as every plan asks it.
    ///
    /// # Errors
    /// [`DecimalError::OutOfRange`] when the output needs more than the 28
    /// significant digits a `Decimal` holds at 8 places.
    pub fn from_route(
        id: QuoteId,
        route: &Route<'_>,
        expiry: EpochMillis,
    ) -> Result<Self, DecimalError> {
        let rate = route.rate();
        let pair = rate.pair_id();
        let from = route.order_amount();
        let to = Fixed8::floor_net(from, rate.multiplier(), rate.miner_fee())?;
        Ok(Quote {
            id,
            pair_id: pair.clone(),
            from_amount: SentAmount {
                asset_id: pair.from().clone(),
                value: SentDecimal::Text(from),
            },
            to_amount: SentAmount {
                asset_id: pair.to().clone(),
                value: SentDecimal::Text(to.get()),
            },
            expiry,
            partner_revenue_share_amount: Presence::Absent,
            sponsored_by_campaign_id: rate.sponsored_by_campaign_id().cloned().into(),
        })
    }

    /// The first way this quote breaks ruling 32 (docs/RULES.md), if any,
    /// checked in field order: `fromAmount` must be positive and in the pair's
    /// from asset; `toAmount` positive and in the pair's to asset;
    /// `partnerRevenueShareAmount`, when present as an amount, in the from
    /// asset (the spec's "amount in the source asset") and not negative (a share may be
    /// zero, as a rate's miner fee may, ruling 2).
    ///
    /// ```
    /// use swaproute::quote::{Quote, QuoteDefect, QuoteField};
    /// let quote: Quote = serde_json::from_str(r#"{"id":"q-1","pairId":"BTC_ETH",
    ///   "fromAmount":{"assetId":"ETH","value":"0.5"},"toAmount":{"assetId":"ETH","value":"16.5"},
    ///   "expiry":1785000030000}"#).unwrap();
    /// let Some(QuoteDefect::WrongAsset { field, found, required }) = quote.defect() else { panic!() };
    /// assert_eq!((field, found.as_str(), required.as_str()), (QuoteField::FromAmount, "ETH", "BTC"));
    /// ```
    pub fn defect(&self) -> Option<QuoteDefect> {
        let (from, to) = (self.pair_id.from(), self.pair_id.to());
        let positive = |field, amount: &SentAmount, asset: &AssetId| {
            check_amount(field, amount, asset, amount.value.get() > Decimal::ZERO)
        };
        positive(QuoteField::FromAmount, &self.from_amount, from)
            .or_else(|| positive(QuoteField::ToAmount, &self.to_amount, to))
            .or_else(|| {
                let share = self.partner_revenue_share_amount.value();
                share.and_then(RevenueShare::amount).and_then(|share| {
                    let field = QuoteField::PartnerRevenueShareAmount;
                    check_amount(field, share, from, share.value.get() >= Decimal::ZERO)
                })
            })
    }

    /// Refuses a quote that breaks ruling 32 (docs/RULES.md).
    ///
    /// # Errors
    /// The first [`QuoteDefect`] of [`Quote::defect`].
    pub fn validate(&self) -> Result<(), QuoteDefect> {
        self.defect().map_or(Ok(()), Err)
    }

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
            self.from_amount.value.get(),
            self.from_amount.asset_id,
            self.to_amount.value.get(),
            self.to_amount.asset_id
        )
    }
}

fn check_amount(
    field: QuoteField,
    amount: &SentAmount,
    required: &AssetId,
    value_ok: bool,
) -> Option<QuoteDefect> {
    if !value_ok {
        Some(QuoteDefect::NotPositive {
            field,
            value: amount.value.get(),
        })
    } else if amount.asset_id != *required {
        Some(QuoteDefect::WrongAsset {
            field,
            found: amount.asset_id.clone(),
            required: required.clone(),
        })
    } else {
        None
    }
}

/// An amount field of a [`Quote`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum QuoteField {
    /// `fromAmount`: in the pair's from asset.
    FromAmount,
    /// `toAmount`: in the pair's to asset.
    ToAmount,
    /// `partnerRevenueShareAmount`: in the pair's from asset.
    PartnerRevenueShareAmount,
}

crate::text::str_enum!(
    QuoteField,
    /// The wire name, e.g. `"fromAmount"`.
    {
        FromAmount => "fromAmount",
        ToAmount => "toAmount",
        PartnerRevenueShareAmount => "partnerRevenueShareAmount",
    }
);

/// Why a quote cannot be planned with (ruling 32, docs/RULES.md). The quote
/// is the provider's answer, so this is `PROVIDER_ERROR` (502) as an
/// [`ApiError`](crate::error::ApiError).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum QuoteDefect {
    /// An amount is zero or negative (`partnerRevenueShareAmount`: negative).
    #[error("quote {field} {value} is not positive")]
    NotPositive {
        /// The field.
        field: QuoteField,
        /// Its value.
        value: Decimal,
    },
    /// An amount names another asset than its pair requires (ruling 18).
    #[error("quote {field} is in {found}, but its pair requires {required}")]
    WrongAsset {
        /// The field.
        field: QuoteField,
        /// The asset the field names.
        found: AssetId,
        /// The asset the quote's pair requires there.
        required: AssetId,
    },
}

impl QuoteDefect {
    /// The field at fault.
    pub fn field(&self) -> QuoteField {
        match self {
            QuoteDefect::NotPositive { field, .. } | QuoteDefect::WrongAsset { field, .. } => {
                *field
            }
        }
    }

    /// Always [`ErrorCode::ProviderError`].
    pub const fn code(&self) -> ErrorCode {
        ErrorCode::ProviderError
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn fields_are_named_as_on_the_wire() {
        assert_eq!(QuoteField::FromAmount.as_str(), "fromAmount");
        assert_eq!(QuoteField::ToAmount.as_str(), "toAmount");
        assert_eq!(
            QuoteField::PartnerRevenueShareAmount.to_string(),
            "partnerRevenueShareAmount"
        );
    }
}
