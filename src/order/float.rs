//! `POST /v3/orders/float`: floating orders, built from a quote.

use alloc::vec::Vec;

use rust_decimal::Decimal;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::fields::{self, collect};
use super::loose::{object_only, present, Loose};
use super::parties::{Parties, RawParties};
use super::{FieldError, OrderContext, RequestErrors, RequestField};
use crate::error::{ApiError, ErrorCode};
use crate::ids::{CampaignId, QuoteId};
use crate::quote::Quote;
use crate::screening::TagWarning;
use crate::swap_mode::SwapMode;

/// A floating order body as sent, loosely typed; see [`FloatOrderRequest::validate`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RawFloatOrderRequest {
    fields: FloatFields,
}

impl<'de> Deserialize<'de> for RawFloatOrderRequest {
    /// A JSON object only (an array is refused, not read by position).
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        object_only(deserializer).map(|fields| RawFloatOrderRequest { fields })
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
struct FloatFields {
    #[serde(default, deserialize_with = "present")]
    quote_id: Option<Loose>,
    #[serde(default, deserialize_with = "present")]
    from_address: Option<Loose>,
    #[serde(default, deserialize_with = "present")]
    from_address_tag: Option<Loose>,
    #[serde(default, deserialize_with = "present")]
    to_address: Option<Loose>,
    #[serde(default, deserialize_with = "present")]
    to_address_tag: Option<Loose>,
    #[serde(default, deserialize_with = "present")]
    swap_mode: Option<Loose>,
}

/// A validated `POST /v3/orders/float` body (the floating flow: its price
/// source is a quote, never rates; always ExactIn).
///
/// | field | rule |
/// | --- | --- |
/// | `quoteId` | required: the quote the order is built from |
/// | `fromAddress` | required key; a string, or `null` |
/// | `fromAddressTag`, `toAddressTag` | optional; `""` means none |
/// | `toAddress` | required string |
/// | `swapMode` | must not be sent (any non-null value → `UNSUPPORTED_SWAP_MODE`) |
///
/// ```
/// use swaproute::order::{FloatOrderRequest, OrderContext};
/// use swaproute::{quote::Quote, screening::ScreeningPolicy, EpochMillis, ErrorCode};
/// let quote: Quote = serde_json::from_str(r#"{"id":"q-1","pairId":"BTC_ETH",
///   "fromAmount":{"assetId":"BTC","value":"0.5"},"toAmount":{"assetId":"ETH","value":"16.5"},
///   "expiry":1785000030000}"#).unwrap();
/// let request: FloatOrderRequest = serde_json::from_str(r#"{"quoteId":"q-1","fromAddress":null,
///   "toAddress":"0x52908400098527886E0F7030069857D2E4169EE7"}"#).unwrap();
/// let policy = ScreeningPolicy::new();
///
/// let plan = request.plan(&quote, &OrderContext::new(EpochMillis::new(1_785_000_000_000), &policy)).unwrap();
/// assert_eq!(plan.amount().to_string(), "0.5");
///
/// let late = OrderContext::new(EpochMillis::new(1_785_000_030_000), &policy);
/// assert_eq!(request.plan(&quote, &late).unwrap_err().code(), ErrorCode::QuoteExpired);
///
/// let with_mode = r#"{"quoteId":"q-1","fromAddress":null,"toAddress":"x","swapMode":"ExactIn"}"#;
/// let raw = serde_json::from_str(with_mode).unwrap();
/// let errors = FloatOrderRequest::validate(&raw).unwrap_err();
/// assert_eq!(errors.first().code(), ErrorCode::UnsupportedSwapMode);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FloatOrderRequest {
    quote_id: QuoteId,
    parties: Parties,
}

impl FloatOrderRequest {
    /// Validates every field of `raw`.
    ///
    /// # Errors
    /// [`RequestErrors`] with every problem, in the documented priority order.
    pub fn validate(raw: &RawFloatOrderRequest) -> Result<Self, RequestErrors> {
        let raw = &raw.fields;
        let mut errors = Vec::new();
        if let Some(mode) = raw.swap_mode.as_ref().filter(|mode| **mode != Loose::Null) {
            errors.push(FieldError::new(
                RequestField::SwapMode,
                ErrorCode::UnsupportedSwapMode,
                alloc::format!(
                    "floating orders are always ExactIn and take no swapMode (got {})",
                    mode.kind()
                ),
            ));
        }
        let quote_id = collect(&mut errors, fields::quote_id(raw.quote_id.as_ref()));
        let parties = Parties::validate(
            RawParties {
                from_address: raw.from_address.as_ref(),
                from_address_tag: raw.from_address_tag.as_ref(),
                to_address: raw.to_address.as_ref(),
                to_address_tag: raw.to_address_tag.as_ref(),
            },
            &mut errors,
        );
        match (quote_id, parties) {
            (Some(quote_id), Some(parties)) if errors.is_empty() => {
                Ok(FloatOrderRequest { quote_id, parties })
            }
            _ => Err(RequestErrors::collected(errors)),
        }
    }

    /// `quoteId`.
    pub fn quote_id(&self) -> &QuoteId {
        &self.quote_id
    }

    /// The addresses and tags.
    pub fn parties(&self) -> &Parties {
        &self.parties
    }

    /// Always [`SwapMode::ExactIn`].
    pub const fn swap_mode(&self) -> SwapMode {
        SwapMode::ExactIn
    }

    /// Plans the order from `quote`: screening first (region, addresses, the
    /// quote's assets), then the quote must be the one named by `quoteId` and
    /// must outlive `now` by the context's skew margin.
    ///
    /// # Errors
    /// The screening error; `INVALID_REQUEST` when `quote` is not the quote named
    /// by `quoteId`; `QUOTE_EXPIRED` when it has expired.
    pub fn plan<'q>(
        &self,
        quote: &'q Quote,
        context: &OrderContext<'_>,
    ) -> Result<FloatOrderPlan<'q>, ApiError> {
        let warnings = self
            .parties
            .screen(context, quote.pair_id.from(), quote.pair_id.to())?;
        if quote.id != self.quote_id {
            return Err(ApiError::new(
                ErrorCode::InvalidRequest,
                alloc::format!(
                    "quoteId: the order names quote {} but was given quote {}",
                    self.quote_id,
                    quote.id
                ),
            ));
        }
        if quote.is_expired_with_skew(context.now, context.quote_skew_millis) {
            return Err(ApiError::new(
                ErrorCode::QuoteExpired,
                alloc::format!(
                    "quote {} expired at {}; fetch a new quote",
                    quote.id,
                    quote.expiry
                ),
            ));
        }
        Ok(FloatOrderPlan { quote, warnings })
    }
}

/// What to create for a floating order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FloatOrderPlan<'q> {
    quote: &'q Quote,
    warnings: Vec<TagWarning>,
}

impl<'q> FloatOrderPlan<'q> {
    /// The quote the order is built from.
    pub fn quote(&self) -> &'q Quote {
        self.quote
    }

    /// The order's `amount`: the quote's `fromAmount`.
    pub fn amount(&self) -> Decimal {
        self.quote.from_amount.value
    }

    /// The quoted output.
    pub fn to_amount(&self) -> Decimal {
        self.quote.to_amount.value
    }

    /// The sponsoring campaign of a sponsored quote.
    pub fn sponsored_by_campaign_id(&self) -> Option<&'q CampaignId> {
        self.quote.sponsored_by_campaign_id.as_ref()
    }

    /// Always [`SwapMode::ExactIn`].
    pub const fn swap_mode(&self) -> SwapMode {
        SwapMode::ExactIn
    }

    /// Missing tags or memos for assets whose deposits need one.
    pub fn warnings(&self) -> &[TagWarning] {
        &self.warnings
    }
}

/// The body as a client sends it; there is no `swapMode` to write.
impl Serialize for FloatOrderRequest {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        #[serde(rename_all = "camelCase")]
        struct Wire<'a> {
            quote_id: &'a QuoteId,
            #[serde(flatten)]
            parties: &'a Parties,
        }
        Wire {
            quote_id: &self.quote_id,
            parties: &self.parties,
        }
        .serialize(serializer)
    }
}

/// Decodes and validates; the error message is the first problem's.
impl<'de> Deserialize<'de> for FloatOrderRequest {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let raw = RawFloatOrderRequest::deserialize(deserializer)?;
        FloatOrderRequest::validate(&raw).map_err(serde::de::Error::custom)
    }
}
