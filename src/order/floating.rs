//! `POST /v3/orders/float`: floating orders, built from a quote.

use alloc::vec::Vec;

use rust_decimal::Decimal;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::forms::{Form, Forms, InForm, Sent};
use super::loose::{object_only, Loose};
use super::parties::{Parties, RawParties};
use super::validate::{self, collect};
use super::{FieldError, OrderContext, PlanError, QuoteMismatch, RequestErrors, RequestField};
use crate::decimal::Amount;
use crate::error::ErrorCode;
use crate::ids::{CampaignId, QuoteId};
use crate::quote::Quote;
use crate::rate::PairId;
use crate::screening::{NetworkKind, TagWarning};
use crate::slippage::Slippage;
use crate::swap_mode::SwapMode;
use crate::wire::present;

mod builder;
pub use builder::FloatOrderBuilder;

/// A floating order body as sent, loosely typed; see [`FloatOrderRequest::validate`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RawFloatOrderRequest {
    fields: FloatFields,
}

impl RawFloatOrderRequest {
    /// Decodes a `POST /v3/orders/float` body from its bytes, without
    /// validating the fields ([`FloatOrderRequest::from_json`] does both).
    ///
    /// # Errors
    /// [`RequestErrors`] holding one `body` error (`INVALID_REQUEST`): the
    /// bytes are not JSON, the JSON is not an object, or a key is repeated.
    #[cfg(feature = "json")]
    pub fn from_json(bytes: &[u8]) -> Result<Self, RequestErrors> {
        super::loose::from_json(bytes)
    }
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
    pair_id: Option<Loose>,
    #[serde(default, deserialize_with = "present")]
    from_amount: Option<Loose>,
    #[serde(default, deserialize_with = "present")]
    from_address: Option<Loose>,
    #[serde(default, deserialize_with = "present")]
    from_address_tag: Option<Loose>,
    #[serde(default, deserialize_with = "present")]
    to_amount: Option<Loose>,
    #[serde(default, deserialize_with = "present")]
    to_address: Option<Loose>,
    #[serde(default, deserialize_with = "present")]
    to_address_tag: Option<Loose>,
    #[serde(default, deserialize_with = "present")]
    slippage: Option<Loose>,
    #[serde(default, deserialize_with = "present")]
    quote_id: Option<Loose>,
    #[serde(default, deserialize_with = "present")]
    swap_mode: Option<Loose>,
}

/// A validated `POST /v3/orders/float` body (the floating flow: its price
/// source is a quote, never rates; always ExactIn).
///
/// The body is the fixed body without `swapMode` (ruling 19, docs/RULES.md),
/// validated by the same field rules, with the same error codes and priority:
///
/// | field | rule |
/// | --- | --- |
/// | `pairId` | required, `FROM_TO` |
/// | `fromAmount` | required, decimal string (strict grammar) or JSON number, > 0 |
/// | `fromAddress` | required key; a string, or `null` |
/// | `fromAddressTag`, `toAddressTag` | optional; `""` means none |
/// | `toAmount` | required, decimal string (strict grammar) or JSON number, > 0 |
/// | `toAddress` | required string |
/// | `slippage` | optional percentage 0-100 (number or numeric string); absent or `null` is 2; the quote's `toAmount` must be at least `toAmount × (100 − slippage) / 100` (ruling 33) |
/// | `quoteId` | optional; when sent, the quote planned with must be that one |
/// | `swapMode` | must not be sent (any non-null value → `UNSUPPORTED_SWAP_MODE`, ruling 12) |
///
/// Encoding writes the body back as it came: amounts and slippage as
/// strings or numbers as sent (a string in its shortest decimal text, `"0.50"`
/// as `"0.5"`), `slippage` and `quoteId` only when sent (as `null` when sent
/// as `null`). Tags are written only when they hold a value, as strings.
///
/// ```
/// use swaproute::order::{FloatOrderRequest, OrderContext};
/// use swaproute::{quote::Quote, screening::ScreeningPolicy, EpochMillis, ErrorCode};
/// let quote: Quote = serde_json::from_str(r#"{"id":"q-1","pairId":"BTC_ETH",
///   "fromAmount":{"assetId":"BTC","value":"0.5"},"toAmount":{"assetId":"ETH","value":"16.5"},
///   "expiry":1785000030000}"#).unwrap();
/// let request: FloatOrderRequest = serde_json::from_str(r#"{"pairId":"BTC_ETH","fromAmount":0.5,
///   "fromAddress":null,"toAmount":16.4,"toAddress":"0x52908400098527886E0F7030069857D2E4169EE7"}"#).unwrap();
/// let policy = ScreeningPolicy::new();
///
/// let plan = request.plan(&quote, &OrderContext::new(EpochMillis::new(1_785_000_000_000), &policy)).unwrap();
/// assert_eq!(plan.amount().to_string(), "0.5");
///
/// let late = OrderContext::new(EpochMillis::new(1_785_000_030_000), &policy);
/// assert_eq!(request.plan(&quote, &late).unwrap_err().code(), ErrorCode::QuoteExpired);
///
/// let with_mode = r#"{"pairId":"BTC_ETH","fromAmount":"0.5","fromAddress":null,"toAmount":"16.4",
///   "toAddress":"x","swapMode":"ExactIn"}"#;
/// let raw = serde_json::from_str(with_mode).unwrap();
/// let errors = FloatOrderRequest::validate(&raw).unwrap_err();
/// assert_eq!(errors.first().code(), ErrorCode::UnsupportedSwapMode);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FloatOrderRequest {
    pair_id: PairId,
    from_amount: Amount,
    to_amount: Amount,
    parties: Parties,
    slippage: Slippage,
    quote_id: Sent<QuoteId>,
    forms: Forms,
}

impl FloatOrderRequest {
    /// Validates every field of `raw` with the fixed body's field rules
    /// (every problem is reported, in the documented priority order of
    /// [`RequestErrors`]).
    ///
    /// # Errors
    /// [`RequestErrors`] with every problem, in the documented priority order.
    pub fn validate(raw: &RawFloatOrderRequest) -> Result<Self, RequestErrors> {
        use RequestField as F;
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
        let quote_id = collect(
            &mut errors,
            validate::optional_quote_id(raw.quote_id.as_ref()),
        );
        let from_amount = collect(
            &mut errors,
            validate::amount(F::FromAmount, raw.from_amount.as_ref()),
        );
        let to_amount = collect(
            &mut errors,
            validate::amount(F::ToAmount, raw.to_amount.as_ref()),
        );
        let parties = Parties::validate(
            RawParties {
                from_address: raw.from_address.as_ref(),
                from_address_tag: raw.from_address_tag.as_ref(),
                to_address: raw.to_address.as_ref(),
                to_address_tag: raw.to_address_tag.as_ref(),
            },
            &mut errors,
        );
        let pair_id = collect(&mut errors, validate::pair_id(raw.pair_id.as_ref()));
        let slippage = collect(&mut errors, validate::slippage(raw.slippage.as_ref()));
        let forms = Forms {
            from_amount: Form::of(raw.from_amount.as_ref()),
            to_amount: Form::of(raw.to_amount.as_ref()),
            slippage: match raw.slippage.as_ref() {
                None => Sent::Absent,
                Some(Loose::Null) => Sent::Null,
                other => Sent::Value(Form::of(other)),
            },
        };
        let quote_id = quote_id.map(|id| match (raw.quote_id.as_ref(), id) {
            (_, Some(id)) => Sent::Value(id),
            (None, None) => Sent::Absent,
            (Some(_), None) => Sent::Null,
        });
        match (quote_id, from_amount, to_amount, parties, pair_id, slippage) {
            (
                Some(quote_id),
                Some(from_amount),
                Some(to_amount),
                Some(parties),
                Some(pair_id),
                Some(slippage),
            ) if errors.is_empty() => Ok(FloatOrderRequest {
                pair_id,
                from_amount,
                to_amount,
                parties,
                slippage,
                quote_id,
                forms,
            }),
            _ => Err(RequestErrors::collected(errors)),
        }
    }

    /// Decodes and validates a `POST /v3/orders/float` body from its bytes,
    /// reporting every problem.
    ///
    /// ```
    /// use swaproute::order::FloatOrderRequest;
    /// use swaproute::wire::RequestField;
    /// let errors = FloatOrderRequest::from_json(b"[]").unwrap_err();
    /// assert_eq!(errors.first().field(), RequestField::Body);
    /// assert_eq!(errors.first().to_string(), "body: must be a JSON object, not an array");
    /// ```
    ///
    /// # Errors
    /// [`RequestErrors`]: one `body` error when the bytes are not a JSON
    /// object ([`RawFloatOrderRequest::from_json`]), else every field error
    /// [`validate`](Self::validate) finds.
    #[cfg(feature = "json")]
    pub fn from_json(bytes: &[u8]) -> Result<Self, RequestErrors> {
        FloatOrderRequest::validate(&RawFloatOrderRequest::from_json(bytes)?)
    }

    /// `pairId`.
    pub fn pair_id(&self) -> &PairId {
        &self.pair_id
    }

    /// `fromAmount`: exact (floating orders are ExactIn).
    pub fn from_amount(&self) -> Amount {
        self.from_amount
    }

    /// `toAmount`: the client's estimate.
    pub fn to_amount(&self) -> Amount {
        self.to_amount
    }

    /// `slippage` (2 when absent).
    pub fn slippage(&self) -> Slippage {
        self.slippage
    }

    /// `quoteId`, when the client sent one.
    pub fn quote_id(&self) -> Option<&QuoteId> {
        match &self.quote_id {
            Sent::Value(id) => Some(id),
            Sent::Absent | Sent::Null => None,
        }
    }

    /// The addresses and tags.
    pub fn parties(&self) -> &Parties {
        &self.parties
    }

    /// Always [`SwapMode::ExactIn`].
    pub const fn swap_mode(&self) -> SwapMode {
        SwapMode::ExactIn
    }

    /// Plans the order from `quote`, the amount-specific quote obtained for
    /// this body's pair and `fromAmount` (ruling 19, docs/RULES.md), in this
    /// order:
    ///
    /// 1. screening: region, addresses, the pair's assets;
    /// 2. the quote itself must be sound (ruling 32: positive amounts in its
    ///    pair's assets, [`Quote::defect`]);
    /// 3. it must be this body's: same `pairId`, same `fromAmount` (by value:
    ///    `"2.50"` is `2.5`), and the quote named by `quoteId` when one was sent;
    /// 4. it must outlive `now` by the context's skew margin;
    /// 5. its `toAmount` must be at least the body's `toAmount × (100 −
    ///    slippage) / 100`, compared exactly (ruling 33).
    ///
    /// # Errors
    /// A [`PlanError`]: [`Screening`](PlanError::Screening);
    /// [`QuoteDefect`](PlanError::QuoteDefect) (`PROVIDER_ERROR`);
    /// [`QuoteMismatch`](PlanError::QuoteMismatch) (`INVALID_REQUEST` naming
    /// `pairId`, `fromAmount` or `quoteId`) when the quote is not this body's;
    /// [`QuoteExpired`](PlanError::QuoteExpired) (`QUOTE_EXPIRED`);
    /// [`Slippage`](PlanError::Slippage) (`SLIPPAGE_EXCEEDED`, 409). With
    /// the assets' records in the context
    /// ([`OrderContext::with_assets`]), right after screening:
    /// [`AmountPrecision`](PlanError::AmountPrecision) (`INVALID_AMOUNT`)
    /// when `fromAmount` has more decimal places than the from asset, and
    /// [`AssetsOfAnotherPair`](PlanError::AssetsOfAnotherPair)
    /// (`INTERNAL_ERROR`) when the records are not the pair's.
    pub fn plan<'q>(
        &self,
        quote: &'q Quote,
        context: &OrderContext<'_>,
    ) -> Result<FloatOrderPlan<'q>, PlanError> {
        context.check_assets_pair(&self.pair_id)?;
        let warnings = self
            .parties
            .screen(context, self.pair_id.from(), self.pair_id.to())?;
        context.check_precision(&self.pair_id, RequestField::FromAmount, self.from_amount)?;
        quote.validate()?;
        if quote.pair_id != self.pair_id {
            return Err(QuoteMismatch::PairId {
                order: self.pair_id.clone(),
                quote: quote.id.clone(),
                quote_pair: quote.pair_id.clone(),
            }
            .into());
        }
        if quote.from_amount.value.get() != self.from_amount.get() {
            return Err(QuoteMismatch::FromAmount {
                order: self.from_amount,
                quote: quote.id.clone(),
                quote_amount: quote.from_amount.value.get(),
            }
            .into());
        }
        if let Some(quote_id) = self.quote_id().filter(|id| **id != quote.id) {
            return Err(QuoteMismatch::QuoteId {
                named: quote_id.clone(),
                given: quote.id.clone(),
            }
            .into());
        }
        if quote.is_expired_with_skew(context.now, context.quote_skew_millis) {
            return Err(PlanError::QuoteExpired {
                quote: quote.id.clone(),
                expiry: quote.expiry,
            });
        }
        self.slippage.check_output(
            self.to_amount,
            quote.to_amount.value.get(),
            self.pair_id.to(),
        )?;
        Ok(FloatOrderPlan {
            quote,
            warnings,
            networks: (context.from_network, context.to_network),
            addresses_checked: context.networks_known(),
        })
    }
}

/// What to create for a floating order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FloatOrderPlan<'q> {
    quote: &'q Quote,
    warnings: Vec<TagWarning>,
    networks: (NetworkKind, NetworkKind),
    addresses_checked: bool,
}

impl<'q> FloatOrderPlan<'q> {
    /// Whether the request's addresses were checked against their assets'
    /// networks (ruling 46), as
    /// [`FixedOrderPlan::addresses_checked`](super::FixedOrderPlan::addresses_checked).
    pub fn addresses_checked(&self) -> bool {
        self.addresses_checked
    }

    /// The network kinds of the from and to assets the plan was made with.
    pub fn networks(&self) -> (NetworkKind, NetworkKind) {
        self.networks
    }

    /// The quote the order is built from.
    pub fn quote(&self) -> &'q Quote {
        self.quote
    }

    /// The order's `amount`: the quote's `fromAmount`.
    pub fn amount(&self) -> Decimal {
        self.quote.from_amount.value.get()
    }

    /// The quoted output.
    pub fn to_amount(&self) -> Decimal {
        self.quote.to_amount.value.get()
    }

    /// The sponsoring campaign of a sponsored quote.
    pub fn sponsored_by_campaign_id(&self) -> Option<&'q CampaignId> {
        self.quote.sponsored_by_campaign_id.value()
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

/// The body as the client sent it (see [`FloatOrderRequest`]); there is no
/// `swapMode` to write.
impl Serialize for FloatOrderRequest {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        #[serde(rename_all = "camelCase")]
        struct Wire<'a> {
            pair_id: &'a PairId,
            from_amount: InForm,
            to_amount: InForm,
            #[serde(flatten)]
            parties: &'a Parties,
            #[serde(skip_serializing_if = "Sent::is_absent")]
            slippage: Sent<InForm>,
            #[serde(skip_serializing_if = "Sent::is_absent")]
            quote_id: &'a Sent<QuoteId>,
        }
        let forms = self.forms;
        Wire {
            pair_id: &self.pair_id,
            from_amount: InForm(self.from_amount.get(), forms.from_amount),
            to_amount: InForm(self.to_amount.get(), forms.to_amount),
            parties: &self.parties,
            slippage: match forms.slippage {
                Sent::Absent => Sent::Absent,
                Sent::Null => Sent::Null,
                Sent::Value(form) => Sent::Value(InForm(self.slippage.percent(), form)),
            },
            quote_id: &self.quote_id,
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

impl FloatOrderPlan<'_> {
    /// The order resource to answer `POST /v3/orders/float` with, in the
    /// shape of [`FixedOrderPlan::to_order`](super::FixedOrderPlan::to_order)'s
    /// order: `amount` is the quote's `fromAmount`, `toAmount` the quote's
    /// `toAmount`, both as strings; `rateId` is `""` (a floating order has no
    /// rate); `sponsoredByCampaignId` is the quote's campaign, else `null`.
    /// `request` is the body the plan was made from.
    ///
    /// ```
    /// use swaproute::order::{FloatOrderRequest, NewOrder, OrderContext};
    /// use swaproute::{quote::Quote, screening::{Address, ScreeningPolicy}};
    /// use swaproute::{EpochMillis, OrderId, ProviderOrderId};
    ///
    /// let quote: Quote = serde_json::from_str(r#"{"id":"q-1","pairId":"BTC_ETH",
    ///   "fromAmount":{"assetId":"BTC","value":"0.5"},"toAmount":{"assetId":"ETH","value":"16.5"},
    ///   "expiry":1785000030000}"#)?;
    /// let request: FloatOrderRequest = serde_json::from_str(r#"{"pairId":"BTC_ETH","fromAmount":0.5,
    ///   "fromAddress":null,"toAmount":16.4,"toAddress":"0x52908400098527886E0F7030069857D2E4169EE7"}"#)?;
    /// let now = EpochMillis::new(1_785_000_000_000);
    /// let policy = ScreeningPolicy::new();
    /// let plan = request.plan(&quote, &OrderContext::new(now, &policy))?;
    /// let new = NewOrder::new(
    ///     OrderId::new("o-1")?,
    ///     ProviderOrderId::new("p-1")?,
    ///     Address::new("bc1qwjpyxexjcypqddr7ce6yv349n4q68g0xqraltv")?,
    ///     now,
    /// );
    /// let body = serde_json::to_value(plan.to_order(&request, &new)?)?;
    /// assert_eq!(body["amount"], serde_json::json!({"assetId": "BTC", "value": "0.5"}));
    /// assert_eq!(body["toAmount"], serde_json::json!({"assetId": "ETH", "value": "16.5"}));
    /// assert_eq!(body["rateId"], "");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`ToOrderError::NotThePlansRequest`](super::ToOrderError::NotThePlansRequest)
    /// when `request` is not for the plan's quote (pair, `fromAmount`, or the
    /// `quoteId` it names); [`ToOrderError::Time`](super::ToOrderError::Time)
    /// when `new.now` is past year 9999. Both are 500 `INTERNAL_ERROR` as an
    /// [`ApiError`](crate::error::ApiError).
    pub fn to_order(
        &self,
        request: &FloatOrderRequest,
        new: &super::NewOrder,
    ) -> Result<super::Order, super::ToOrderError> {
        use super::new_order::{assemble, same, Planned};
        let quote = self.quote;
        same(RequestField::PairId, quote.pair_id == *request.pair_id())?;
        same(
            RequestField::FromAmount,
            quote.from_amount.value.get() == request.from_amount().get(),
        )?;
        if let Some(id) = request.quote_id() {
            same(RequestField::QuoteId, *id == quote.id)?;
        }
        assemble(
            &Planned {
                pair_id: request.pair_id(),
                rate_id: None,
                amount: self.amount(),
                to_amount: Some(self.to_amount()),
                parties: request.parties(),
                sponsored_by_campaign_id: self.sponsored_by_campaign_id(),
            },
            new,
        )
    }
}
