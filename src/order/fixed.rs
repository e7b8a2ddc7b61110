//! `POST /v3/orders`: fixed-rate order requests and their plans.

use alloc::vec::Vec;

use rust_decimal::Decimal;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::forms::{Form, InForm, Sent};
use super::loose::{object_only, present, Loose};
use super::parties::{Parties, RawParties};
use super::validate::{self, collect};
use super::{OrderContext, PlanError, RequestErrors, RequestField};
use crate::decimal::Amount;
use crate::ids::{CampaignId, RateId};
use crate::rate::{PairId, Rate, RateList};
use crate::route::{LimitCheck, Route, RouteRequest};
use crate::screening::TagWarning;
use crate::slippage::Slippage;
use crate::swap_mode::SwapMode;

mod builder;
pub use builder::FixedOrderBuilder;

/// A fixed-rate order body as sent, every field loosely typed: decode it with
/// serde, then [`FixedOrderRequest::validate`] reports every problem with its
/// field. Unknown keys are ignored.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RawFixedOrderRequest {
    fields: FixedFields,
}

impl RawFixedOrderRequest {
    /// Decodes a `POST /v3/orders` body from its bytes, without validating
    /// the fields ([`FixedOrderRequest::from_json`] does both).
    ///
    /// # Errors
    /// [`RequestErrors`] holding one `body` error (`INVALID_REQUEST`): the
    /// bytes are not JSON, the JSON is not an object, or a key is repeated.
    #[cfg(feature = "json")]
    pub fn from_json(bytes: &[u8]) -> Result<Self, RequestErrors> {
        super::loose::from_json(bytes)
    }
}

impl<'de> Deserialize<'de> for RawFixedOrderRequest {
    /// A JSON object only (an array is refused, not read by position).
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        object_only(deserializer).map(|fields| RawFixedOrderRequest { fields })
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
struct FixedFields {
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
    pair_id: Option<Loose>,
    #[serde(default, deserialize_with = "present")]
    slippage: Option<Loose>,
    #[serde(default, deserialize_with = "present")]
    swap_mode: Option<Loose>,
}

/// A validated `POST /v3/orders` body (the fixed flow: its price source is a
/// rates response, never a quote).
///
/// | field | rule |
/// | --- | --- |
/// | `fromAmount` | required, decimal string (or number), > 0 |
/// | `fromAddress` | required key; a string, or `null` for deferred collection |
/// | `fromAddressTag` | optional string (or whole number); `""` means none |
/// | `toAmount` | required, decimal string (or number), > 0 |
/// | `toAddress` | required string |
/// | `toAddressTag` | optional string (or whole number); `""` means none |
/// | `pairId` | required, `FROM_TO` |
/// | `slippage` | optional percentage 0-100 (number or numeric string); absent or `null` is 2 |
/// | `swapMode` | optional `ExactIn` / `ExactOut` (case-sensitive; another string is `UNSUPPORTED_SWAP_MODE`); absent or `null` is `ExactIn` |
///
/// The body must be a JSON object; unknown keys are ignored.
///
/// ```
/// use swaproute::order::FixedOrderRequest;
/// let request: FixedOrderRequest = serde_json::from_str(r#"{"fromAmount":"0.5",
///   "fromAddress":null,"toAmount":"16.5","toAddress":"0x52908400098527886E0F7030069857D2E4169EE7",
///   "pairId":"BTC_ETH"}"#).unwrap();
/// assert_eq!(request.slippage().percent().to_string(), "2");
/// assert!(request.parties().from_address().is_none());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FixedOrderRequest {
    from_amount: Amount,
    to_amount: Amount,
    parties: Parties,
    pair_id: PairId,
    slippage: Slippage,
    swap_mode: SwapMode,
    sent: SentKeys,
}

/// Which optional keys of the body were sent, and whether as `null`, so the
/// body is written back with the keys it came with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct SentKeys {
    slippage: Sent<()>,
    swap_mode: Sent<()>,
}

impl SentKeys {
    fn of(fields: &FixedFields) -> Self {
        SentKeys {
            slippage: Sent::key(fields.slippage.as_ref()),
            swap_mode: Sent::key(fields.swap_mode.as_ref()),
        }
    }
}

impl FixedOrderRequest {
    /// Validates every field of `raw`.
    ///
    /// # Errors
    /// [`RequestErrors`] with every problem, in the documented priority order.
    pub fn validate(raw: &RawFixedOrderRequest) -> Result<Self, RequestErrors> {
        use RequestField as F;
        let raw = &raw.fields;
        let mut errors = Vec::new();
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
        let swap_mode = collect(&mut errors, validate::swap_mode(raw.swap_mode.as_ref()));
        match (
            from_amount,
            to_amount,
            parties,
            pair_id,
            slippage,
            swap_mode,
        ) {
            (
                Some(from_amount),
                Some(to_amount),
                Some(parties),
                Some(pair_id),
                Some(slippage),
                Some(swap_mode),
            ) if errors.is_empty() => Ok(FixedOrderRequest {
                from_amount,
                to_amount,
                parties,
                pair_id,
                slippage,
                swap_mode,
                sent: SentKeys::of(raw),
            }),
            _ => Err(RequestErrors::collected(errors)),
        }
    }

    /// Decodes and validates a `POST /v3/orders` body from its bytes: one call
    /// for a server's handler, reporting every problem.
    ///
    /// ```
    /// use swaproute::order::{FixedOrderRequest, RequestField};
    /// use swaproute::ErrorCode;
    ///
    /// let errors = FixedOrderRequest::from_json(b"fromAmount=0.5").unwrap_err();
    /// assert_eq!(errors.first().field(), RequestField::Body);
    /// assert_eq!(errors.first().code(), ErrorCode::InvalidRequest);
    ///
    /// let errors = FixedOrderRequest::from_json(br#"{"fromAmount":"0","toAmount":"1",
    ///   "fromAddress":null,"toAddress":"","pairId":"BTC_ETH"}"#).unwrap_err();
    /// let all: Vec<String> = errors.all().iter().map(ToString::to_string).collect();
    /// assert_eq!(all, ["fromAmount: must be greater than zero", "toAddress: address is empty"]);
    /// ```
    ///
    /// # Errors
    /// [`RequestErrors`]: one `body` error when the bytes are not a JSON
    /// object ([`RawFixedOrderRequest::from_json`]), else every field error
    /// [`validate`](Self::validate) finds.
    #[cfg(feature = "json")]
    pub fn from_json(bytes: &[u8]) -> Result<Self, RequestErrors> {
        FixedOrderRequest::validate(&RawFixedOrderRequest::from_json(bytes)?)
    }

    /// `fromAmount`: exact in ExactIn, the estimate limits are checked against in ExactOut.
    pub fn from_amount(&self) -> Amount {
        self.from_amount
    }

    /// `toAmount`: estimated in ExactIn, exact in ExactOut.
    pub fn to_amount(&self) -> Amount {
        self.to_amount
    }

    /// The addresses and tags.
    pub fn parties(&self) -> &Parties {
        &self.parties
    }

    /// `pairId`.
    pub fn pair_id(&self) -> &PairId {
        &self.pair_id
    }

    /// `slippage` (2 when absent).
    pub fn slippage(&self) -> Slippage {
        self.slippage
    }

    /// `swapMode` (ExactIn when absent).
    pub fn swap_mode(&self) -> SwapMode {
        self.swap_mode
    }

    /// The route request this order selects with: limits against `fromAmount`
    /// in both modes; `toAmount` exact in ExactOut.
    pub fn route_request<'c>(&self, context: &OrderContext<'c>) -> RouteRequest<'c> {
        match self.swap_mode {
            SwapMode::ExactIn => {
                RouteRequest::exact_in(self.from_amount, context.now).with_to_amount(self.to_amount)
            }
            SwapMode::ExactOut => {
                RouteRequest::exact_out(self.from_amount, self.to_amount, context.now)
            }
        }
        .with_campaigns(context.campaigns)
        .with_limit_policy(context.limit_policy)
    }

    /// Plans the order over `rates` (the rates response of this request's
    /// pair, with ExactOut capabilities as the caller knows them).
    ///
    /// Screening runs first — region, `fromAddress`, `toAddress`, the pair's
    /// assets (`RESTRICTED_REGION`, `RESTRICTED_ADDRESS`, `INVALID_ADDRESS`,
    /// `ASSET_PAUSED`, `MARKET_CLOSED`) — so a restricted request never reaches
    /// routing or a provider. Then the rates are checked to be this body's
    /// pair's, with unique ids (rulings 18 and 31 in docs/RULES.md: an order
    /// names its rate by id alone), and the best route is selected under the
    /// context's [`LimitPolicy`](crate::route::LimitPolicy).
    ///
    /// # Errors
    /// A [`PlanError`]: [`Screening`](PlanError::Screening);
    /// [`InvalidRates`](PlanError::InvalidRates) or
    /// [`RatesOfAnotherPair`](PlanError::RatesOfAnotherPair) (`INTERNAL_ERROR`:
    /// the caller passed rates no service sends for this body); or
    /// [`NoRoute`](PlanError::NoRoute), the selection's
    /// [`NoRoute`](crate::route::NoRoute) with its limits. With the assets'
    /// records in the context ([`OrderContext::with_assets`]), before the
    /// rates are looked at: [`AmountPrecision`](PlanError::AmountPrecision)
    /// (`INVALID_AMOUNT`) when the exact amount (`fromAmount` in ExactIn,
    /// `toAmount` in ExactOut) has more decimal places than its asset, and
    /// [`AssetsOfAnotherPair`](PlanError::AssetsOfAnotherPair)
    /// (`INTERNAL_ERROR`) when the records are not the pair's.
    pub fn plan<'r>(
        &self,
        rates: &'r (impl RateList + ?Sized),
        context: &OrderContext<'_>,
    ) -> Result<FixedOrderPlan<'r>, PlanError> {
        let warnings = self
            .parties
            .screen(context, self.pair_id.from(), self.pair_id.to())?;
        match self.swap_mode {
            SwapMode::ExactIn => {
                context.check_precision(&self.pair_id, RequestField::FromAmount, self.from_amount)
            }
            SwapMode::ExactOut => {
                context.check_precision(&self.pair_id, RequestField::ToAmount, self.to_amount)
            }
        }?;
        let rates = rates.checked()?;
        // `checked` proved every rate names one pair: the first one says which.
        if let Some(other) = rates
            .first()
            .map(Rate::pair_id)
            .filter(|p| **p != self.pair_id)
        {
            return Err(PlanError::RatesOfAnotherPair {
                rates: alloc::boxed::Box::new(other.clone()),
                order: alloc::boxed::Box::new(self.pair_id.clone()),
            });
        }
        let route = self.route_request(context).best(rates)?;
        let decimals = context
            .assets
            .map(|assets| (assets.from().decimals, assets.to().decimals));
        let mut amount = route.order_amount();
        if let (SwapMode::ExactOut, Some((from, _))) = (self.swap_mode, decimals) {
            // What the user must send, rounded up to what the asset can
            // carry. Rounding a value of 8 places up to fewer cannot fail; if
            // it ever did, the 8-place amount (never below the required input)
            // is kept.
            amount = from.round_up(amount).unwrap_or(amount);
        }
        Ok(FixedOrderPlan {
            route,
            amount,
            to_decimals: decimals.map(|(_, to)| to),
            swap_mode: self.swap_mode,
            slippage: self.slippage,
            warnings,
        })
    }
}

/// What to create for a fixed order: the selected rate, the order's `amount`,
/// its sponsorship, and the warnings screening raised.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FixedOrderPlan<'r> {
    route: Route<'r>,
    amount: Decimal,
    to_decimals: Option<crate::discovery::Decimals>,
    swap_mode: SwapMode,
    slippage: Slippage,
    warnings: Vec<TagWarning>,
}

impl<'r> FixedOrderPlan<'r> {
    /// The selected route.
    pub fn route(&self) -> &Route<'r> {
        &self.route
    }

    /// The selected rate's id (`rateId` of the order).
    pub fn rate_id(&self) -> &'r RateId {
        self.route.rate().id()
    }

    /// The order's `amount` (ruling 9): `fromAmount` in ExactIn, the
    /// route's required input (8 decimals, rounded up) in ExactOut — further
    /// rounded up to the from asset's `decimals` when the context had the
    /// assets' records ([`OrderContext::with_assets`]). That rounding adds
    /// less than one unit of the asset's last place; [`amount_limits`](Self::amount_limits)
    /// judges the route's 8-place required input.
    pub fn amount(&self) -> Decimal {
        self.amount
    }

    /// ExactOut: whether [`amount`](Self::amount) lies within the selected
    /// rate's `[min, effective max]` (ruling 23). The specification checks the
    /// limits against `fromAmount` only, so an ExactOut order's amount can lie
    /// outside them; a caller that must not create such orders plans under
    /// [`LimitPolicy::Strict`](crate::route::LimitPolicy::Strict). `None` in ExactIn, where the
    /// amount is `fromAmount` and was checked.
    pub fn amount_limits(&self) -> Option<LimitCheck> {
        self.route.required_input_limits()
    }

    /// The sponsoring campaign: the selected rate's, and never in ExactOut
    /// (ExactOut orders are excluded from campaigns; the engine never selects a
    /// sponsored variant there).
    pub fn sponsored_by_campaign_id(&self) -> Option<&'r CampaignId> {
        match self.swap_mode {
            SwapMode::ExactIn => self.route.rate().sponsored_by_campaign_id(),
            SwapMode::ExactOut => None,
        }
    }

    /// The swap mode.
    pub fn swap_mode(&self) -> SwapMode {
        self.swap_mode
    }

    /// The slippage.
    pub fn slippage(&self) -> Slippage {
        self.slippage
    }

    /// Missing tags or memos for assets whose deposits need one.
    pub fn warnings(&self) -> &[TagWarning] {
        &self.warnings
    }
}

/// The body in the service's shape (`POST /v3/orders`): `pairId`, amounts as
/// strings, `fromAddress` (`null` when absent), `toAddress`, the tags when they
/// hold a value, and `slippage` (a number) and `swapMode` only when the body
/// had them (as `null` when sent as `null`), so a decoded body encodes back to
/// the keys it came with and a built one to the keys that were set.
impl Serialize for FixedOrderRequest {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        #[serde(rename_all = "camelCase")]
        struct Wire<'a> {
            pair_id: &'a PairId,
            from_amount: Amount,
            to_amount: Amount,
            #[serde(flatten)]
            parties: &'a Parties,
            #[serde(skip_serializing_if = "Sent::is_absent")]
            slippage: Sent<InForm>,
            #[serde(skip_serializing_if = "Sent::is_absent")]
            swap_mode: Sent<SwapMode>,
        }
        Wire {
            pair_id: &self.pair_id,
            from_amount: self.from_amount,
            to_amount: self.to_amount,
            parties: &self.parties,
            slippage: self
                .sent
                .slippage
                .with(InForm(self.slippage.percent(), Form::Number)),
            swap_mode: self.sent.swap_mode.with(self.swap_mode),
        }
        .serialize(serializer)
    }
}

/// Decodes and validates; the error message is the first problem's.
impl<'de> Deserialize<'de> for FixedOrderRequest {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let raw = RawFixedOrderRequest::deserialize(deserializer)?;
        FixedOrderRequest::validate(&raw).map_err(serde::de::Error::custom)
    }
}

impl FixedOrderPlan<'_> {
    /// The order resource to answer `POST /v3/orders` with (HTTP 201), in
    /// the live service's shape:
    ///
    /// | key | value |
    /// | --- | --- |
    /// | `id`, `providerOrderId`, `payInAddress`, `payInAddressTag` | from `new` (`providerOrderId` `""` when `None`; the tag only when set) |
    /// | `status` | `awaiting` |
    /// | `pairId`, `rateId` | the body's pair, the selected rate |
    /// | `amount` | [`amount`](Self::amount) in the from asset, as a string: `fromAmount` in ExactIn, `⌈(toAmount + minerFee) / rate⌉₈` in ExactOut (ruling 9) |
    /// | `toAmount` | to asset, as a string: ExactIn the estimate `⌊amount × rate − minerFee⌋₈`; ExactOut the body's exact `toAmount` |
    /// | `fromAddress`, `fromAddressTag`, `toAddress`, `toAddressTag` | the body's (`fromAddress` `null` when deferred; tags only when set) |
    /// | `fromTransactionId`, `toTransactionId`, `message` | `""` |
    /// | `createdAt`, `updatedAt` | `new.now`, ISO 8601 UTC with milliseconds |
    /// | `extraFeatures` | `{}` |
    /// | `sponsoredByCampaignId` | the sponsoring campaign, else `null` |
    ///
    /// `request` is the body the plan was made from (its addresses and tags
    /// are the order's).
    ///
    /// ```
    /// use swaproute::order::{FixedOrderRequest, NewOrder, OrderContext};
    /// use swaproute::screening::{Address, ScreeningPolicy};
    /// use swaproute::{EpochMillis, OrderId, ProviderOrderId, RatesResponse};
    ///
    /// let rates: RatesResponse = serde_json::from_str(r#"[{"amount":{"assetId":"ETH","value":33.1},
    ///   "expiry":4102444800000,"id":"r-1","max":{"assetId":"BTC","value":8},
    ///   "min":{"assetId":"BTC","value":0.001},"minerFee":{"assetId":"ETH","value":0.0002},
    ///   "pairId":"BTC_ETH"}]"#)?;
    /// let request: FixedOrderRequest = serde_json::from_str(r#"{"pairId":"BTC_ETH","fromAmount":"0.5",
    ///   "fromAddress":null,"toAmount":"16.5","toAddress":"0x52908400098527886E0F7030069857D2E4169EE7"}"#)?;
    /// let now = EpochMillis::new(1_773_221_236_204);
    /// let policy = ScreeningPolicy::new();
    /// let plan = request.plan(&rates, &OrderContext::new(now, &policy))?;
    ///
    /// let new = NewOrder::new(
    ///     OrderId::new("u8jzPde0IgxLd6G")?,
    ///     ProviderOrderId::new("7f26144b-9828-4fcd-99a5-4a7bb1fee08f")?,
    ///     Address::new("bc1qwjpyxexjcypqddr7ce6yv349n4q68g0xqraltv")?,
    ///     now,
    /// );
    /// let order = plan.to_order(&request, &new)?;
    /// let body = serde_json::to_value(&order)?;
    /// assert_eq!(body["status"], "awaiting");
    /// assert_eq!(body["amount"], serde_json::json!({"assetId": "BTC", "value": "0.5"}));
    /// // 0.5 × 33.1 − 0.0002 = 16.5498
    /// assert_eq!(body["toAmount"], serde_json::json!({"assetId": "ETH", "value": "16.54980000"}));
    /// assert_eq!(body["createdAt"], "2026-03-11T09:27:16.204Z");
    /// assert_eq!(body["fromTransactionId"], "");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`ToOrderError::NotThePlansRequest`](super::ToOrderError::NotThePlansRequest)
    /// when `request` differs from the plan's in its pair, swap mode,
    /// slippage or (ExactIn) `fromAmount`;
    /// [`ToOrderError::Time`](super::ToOrderError::Time) when `new.now` is
    /// past year 9999. Both are
    /// 500 `INTERNAL_ERROR` as an [`ApiError`](crate::ApiError).
    pub fn to_order(
        &self,
        request: &FixedOrderRequest,
        new: &super::NewOrder,
    ) -> Result<super::Order, super::ToOrderError> {
        use super::new_order::{assemble, same, Planned};
        let rate = self.route.rate();
        same(RequestField::PairId, rate.pair_id() == request.pair_id())?;
        same(
            RequestField::SwapMode,
            self.swap_mode == request.swap_mode(),
        )?;
        same(RequestField::Slippage, self.slippage == request.slippage())?;
        let to_amount = match self.swap_mode {
            SwapMode::ExactIn => {
                same(
                    RequestField::FromAmount,
                    self.amount() == request.from_amount().get(),
                )?;
                // The estimate at 8 places, the floor of the exact net output
                // (ruling 35), never more than the rate gives (omitted in the
                // unreachable case it needs more than 28 digits). With the to
                // asset's record, down to its decimals too.
                self.route
                    .promised_output()
                    .ok()
                    .map(crate::decimal::Fixed8::get)
                    .and_then(|estimate| match self.to_decimals {
                        Some(decimals) => decimals.round_down(estimate).ok(),
                        None => Some(estimate),
                    })
            }
            SwapMode::ExactOut => Some(request.to_amount().get()),
        };
        assemble(
            &Planned {
                pair_id: request.pair_id(),
                rate_id: Some(rate.id()),
                amount: self.amount(),
                to_amount,
                parties: request.parties(),
                sponsored_by_campaign_id: self.sponsored_by_campaign_id(),
            },
            new,
        )
    }
}
