//! `POST /v3/orders`: fixed-rate order requests and their plans.

use alloc::vec::Vec;

use rust_decimal::Decimal;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::forms::{Form, InForm, Sent, Spelled, Spelling};
use super::loose::{object_only, Loose};
use super::parties::{Parties, RawParties};
use super::required::{Collector, Grids};
use super::validate::{self, collect};
use super::{OrderContext, PlanError, RequestErrors, RequestField};
use crate::decimal::Amount;
use crate::discovery::Decimals;
use crate::ids::{CampaignId, RateId};
use crate::rate::{PairId, Rate, RateList};
use crate::route::{LimitCheck, LimitPolicy, NoRoute, Route, RouteRequest};
use crate::screening::{NetworkKind, TagWarning};
use crate::slippage::Slippage;
use crate::swap_mode::SwapMode;
use crate::wire::present;

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
/// | `slippage` | optional percentage 0-100 (number or numeric string); absent or `null` is 2; bounds the estimate (ruling 33, [`Slippage`]) |
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
    spellings: Spellings,
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

/// How the two amounts were spelled (ruling 52: a decoded body re-encodes
/// as it was sent).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Spellings {
    from_amount: Spelling,
    to_amount: Spelling,
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
                spellings: Spellings {
                    from_amount: Spelling::of(raw.from_amount.as_ref()),
                    to_amount: Spelling::of(raw.to_amount.as_ref()),
                },
            }),
            _ => Err(RequestErrors::collected(errors)),
        }
    }

    /// Decodes and validates a `POST /v3/orders` body from its bytes: one call
    /// for a server's handler, reporting every problem.
    ///
    /// ```
    /// use swaproute::order::FixedOrderRequest;
    /// use swaproute::wire::RequestField;
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
    /// in both modes; `toAmount` exact in ExactOut; the context's limit
    /// policy. A strict [`plan`](Self::plan) judges each route's amount as
    /// the order carries it (after rounding to the from asset's decimals),
    /// which the request alone cannot.
    pub fn route_request<'c>(&self, context: &OrderContext<'c>) -> RouteRequest<'c> {
        let request = match self.swap_mode {
            SwapMode::ExactIn => {
                RouteRequest::exact_in(self.from_amount, context.now).with_to_amount(self.to_amount)
            }
            SwapMode::ExactOut => {
                RouteRequest::exact_out(self.from_amount, self.to_amount, context.now)
            }
        }
        .with_campaigns(context.campaigns)
        .with_limit_policy(context.limit_policy);
        match context.price_guard {
            Some(guard) => request.with_price_guard(guard),
            None => request,
        }
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
    /// context's [`LimitPolicy`]: by default strict (ruling 34), so an
    /// ExactOut order's amount, judged as the order carries it (8 places,
    /// then the from asset's decimals, rounded up), lies within its rate's
    /// `[min, effective max]`, the next route taken when it does not. Last,
    /// the client's slippage bounds its estimate (ruling 33): in ExactIn the
    /// promised output ([`FixedOrderPlan::promised_output`]) must be at least
    /// `toAmount × (100 − slippage) / 100`, in ExactOut the order's amount at
    /// most `fromAmount × (100 + slippage) / 100`, compared exactly.
    ///
    /// # Errors
    /// A [`PlanError`]: [`Screening`](PlanError::Screening);
    /// [`InvalidRates`](PlanError::InvalidRates) or
    /// [`RatesOfAnotherPair`](PlanError::RatesOfAnotherPair) (`INTERNAL_ERROR`:
    /// the caller passed rates no service sends for this body); or
    /// [`NoRoute`](PlanError::NoRoute), the selection's
    /// [`NoRoute`](crate::route::NoRoute) with its limits;
    /// [`RequiredInput`](PlanError::RequiredInput) (`AMOUNT_ABOVE_LIMIT` /
    /// `AMOUNT_BELOW_LIMIT`) when, under the strict policy, every route the
    /// estimate admits needs an order amount outside its limits: it names
    /// that amount and the `toAmount` that works;
    /// [`Slippage`](PlanError::Slippage) (`SLIPPAGE_EXCEEDED`, 409) when the
    /// selected route misses the slippage bound. With the assets'
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
        context.check_assets_pair(&self.pair_id)?;
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
        let request = self.route_request(context);
        let decimals = context
            .assets
            .map(|assets| (assets.from().decimals, assets.to().decimals));
        let from = decimals.map(|(from, _)| from);
        let strict = context.limit_policy == LimitPolicy::Strict;
        let (route, amount) = if self.swap_mode == SwapMode::ExactOut && strict {
            self.strict_exact_out(rates, &request, from, decimals)?
        } else {
            let route = request.best(rates)?;
            (route, self.order_amount(&route, from))
        };
        let plan = FixedOrderPlan {
            route,
            amount,
            to_decimals: decimals.map(|(_, to)| to),
            swap_mode: self.swap_mode,
            slippage: self.slippage,
            warnings,
            networks: (context.from_network, context.to_network),
            addresses_checked: context.networks_known(),
        };
        // Ruling 33: after the selection, never changing it.
        match self.swap_mode {
            SwapMode::ExactIn => match plan.promised_output() {
                Some(promised) => {
                    self.slippage
                        .check_output(self.to_amount, promised, self.pair_id.to())
                }
                // A promise past 8 places' range is above every bound.
                None => Ok(()),
            },
            SwapMode::ExactOut => {
                self.slippage
                    .check_input(self.from_amount, amount, self.pair_id.from())
            }
        }?;
        Ok(plan)
    }

    /// The amount an order on `route` carries (ruling 34): the route's
    /// (ExactOut: its required input at 8 places, rounded up), then in
    /// ExactOut rounded up to the from asset's decimals when known, since it
    /// is what the user must send. Rounding a value of 8 places up to fewer
    /// cannot fail; if it ever did, the 8-place amount (never below the
    /// required input) is kept.
    fn order_amount(&self, route: &Route<'_>, from: Option<Decimals>) -> Decimal {
        let amount = route.order_amount();
        match (self.swap_mode, from) {
            (SwapMode::ExactOut, Some(from)) => from.round_up(amount).unwrap_or(amount),
            _ => amount,
        }
    }

    /// The strict ExactOut selection (rulings 23 and 34): the best route, in
    /// the ranking's order, whose order amount — after every rounding — lies
    /// within its rate's `[min, effective max]`. The ranking itself judges
    /// `fromAmount` only (the specification's rule), so an amount that only
    /// rounding brings inside (or outside) the limits is judged as the order
    /// carries it.
    fn strict_exact_out<'r>(
        &self,
        rates: &'r [Rate],
        request: &RouteRequest<'_>,
        from: Option<Decimals>,
        decimals: Option<(Decimals, Decimals)>,
    ) -> Result<(Route<'r>, Decimal), PlanError> {
        let selection = request.with_limit_policy(LimitPolicy::Spec).select(rates);
        if selection.routes().is_empty() {
            return Err(selection
                .into_best()
                .err()
                .unwrap_or(NoRoute::NoRates)
                .into());
        }
        let places = |decimals: Decimals| u32::from(decimals.get());
        let grids = Grids {
            from: decimals.map_or(8, |(from, _)| places(from).min(8)),
            to: decimals.map_or(8, |(_, to)| places(to).min(28)),
        };
        let mut failed = Collector::new(
            self.to_amount.get(),
            self.pair_id.from().clone(),
            self.pair_id.to().clone(),
            grids,
        );
        for route in selection.routes() {
            let amount = self.order_amount(route, from);
            let (min, max) = (route.rate().min(), route.effective_max());
            match LimitCheck::of(amount, min, max) {
                LimitCheck::Within => return Ok((*route, amount)),
                check => failed.failed(route.rate(), amount, max, check),
            }
        }
        Err(failed
            .finish()
            .map_or(PlanError::NoRoute(NoRoute::NoRates), PlanError::from))
    }
}

/// What to create for a fixed order: the selected rate, the order's `amount`,
/// its sponsorship, and the warnings screening raised.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FixedOrderPlan<'r> {
    route: Route<'r>,
    amount: Decimal,
    to_decimals: Option<Decimals>,
    swap_mode: SwapMode,
    slippage: Slippage,
    warnings: Vec<TagWarning>,
    networks: (NetworkKind, NetworkKind),
    addresses_checked: bool,
}

impl<'r> FixedOrderPlan<'r> {
    /// Whether the request's addresses were checked against their assets'
    /// networks (ruling 46): `false` when the context knew neither the
    /// asset records nor the network kinds
    /// ([`OrderContext::networks_known`]), so only the generic address
    /// rules applied.
    pub fn addresses_checked(&self) -> bool {
        self.addresses_checked
    }

    /// The network kinds of the from and to assets the plan was made with
    /// ([`NetworkKind::Other`]: unknown or without extra checks);
    /// verification checks the deposit address against the first.
    pub fn networks(&self) -> (NetworkKind, NetworkKind) {
        self.networks
    }

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
    /// assets' records ([`OrderContext::with_assets`]). This is the amount
    /// the limits are judged on (ruling 34, [`amount_limits`](Self::amount_limits)).
    pub fn amount(&self) -> Decimal {
        self.amount
    }

    /// ExactOut: whether [`amount`](Self::amount), as the order carries it,
    /// lies within the selected rate's `[min, effective max]` (rulings 23 and
    /// 34). Always [`LimitCheck::Within`] under the default strict policy;
    /// under the opt-out [`LimitPolicy::Spec`] the limits are checked against
    /// `fromAmount` only, so it may not be. `None` in ExactIn, where the
    /// amount is `fromAmount` and was checked.
    pub fn amount_limits(&self) -> Option<LimitCheck> {
        match self.swap_mode {
            SwapMode::ExactIn => None,
            SwapMode::ExactOut => Some(LimitCheck::of(
                self.amount,
                self.route.rate().min(),
                self.route.effective_max(),
            )),
        }
    }

    /// ExactIn: the output the order promises, its `toAmount`: the route's
    /// net output rounded down to 8 places, and to the to asset's decimals
    /// when the context had the records. The slippage bound (ruling 33) is
    /// judged on it. `None` in ExactOut (the body's `toAmount` is exact), and
    /// in the unreachable case the net output needs more than 28 digits.
    pub fn promised_output(&self) -> Option<Decimal> {
        match self.swap_mode {
            // The floor of the exact net output (ruling 35), never more
            // than the rate gives.
            SwapMode::ExactIn => self
                .route
                .promised_output()
                .ok()
                .map(crate::decimal::Fixed8::get)
                .and_then(|estimate| match self.to_decimals {
                    Some(decimals) => decimals.round_down(estimate).ok(),
                    None => Some(estimate),
                }),
            SwapMode::ExactOut => None,
        }
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
/// they were sent (ruling 52: a string's exact text, `"12.50000000"` keeps
/// its places; a JSON number as a number; a built body's amounts as strings,
/// an ExactOut `fromAmount` with 8 places), `fromAddress` (`null` when
/// absent), `toAddress`, the tags when they
/// hold a value, and `slippage` (a number) and `swapMode` only when the body
/// had them (as `null` when sent as `null`), so a decoded body encodes back to
/// the keys it came with and a built one to the keys that were set.
impl Serialize for FixedOrderRequest {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        #[serde(rename_all = "camelCase")]
        struct Wire<'a> {
            pair_id: &'a PairId,
            from_amount: Spelled<'a>,
            to_amount: Spelled<'a>,
            #[serde(flatten)]
            parties: &'a Parties,
            #[serde(skip_serializing_if = "Sent::is_absent")]
            slippage: Sent<InForm>,
            #[serde(skip_serializing_if = "Sent::is_absent")]
            swap_mode: Sent<SwapMode>,
        }
        Wire {
            pair_id: &self.pair_id,
            from_amount: Spelled(self.from_amount.get(), &self.spellings.from_amount),
            to_amount: Spelled(self.to_amount.get(), &self.spellings.to_amount),
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
    /// 500 `INTERNAL_ERROR` as an [`ApiError`](crate::error::ApiError).
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
                // The estimate at 8 places, never more than the rate gives
                // (omitted in the unreachable case it needs more than 28 digits).
                // With the to asset's record, down to its decimals too.
                self.promised_output()
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
