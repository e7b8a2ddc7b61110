//! The caller's policy for planning an order.

use super::{PlanError, RequestField};
use crate::decimal::Amount;
use crate::discovery::PairAssets;
use crate::rate::{CampaignLimits, PairId, NO_CAMPAIGNS};
use crate::route::{LimitPolicy, Policy, PriceGuard};
use crate::screening::{NetworkKind, RegionCode, ScreeningPolicy};
use crate::time::EpochMillis;

/// Everything the caller decides about an order besides its body: the time,
/// campaign limits, screening policy, the user's region, the networks of the
/// two assets (for address syntax), the clock-skew margin for quotes, and
/// the two assets' records (for amount precision).
///
/// ```
/// use swaproute::order::OrderContext;
/// use swaproute::screening::{NetworkKind, ScreeningPolicy};
/// use swaproute::EpochMillis;
/// let policy = ScreeningPolicy::new();
/// let context = OrderContext::new(EpochMillis::new(1_785_000_000_000), &policy)
///     .with_networks(NetworkKind::Other, NetworkKind::Evm)
///     .with_quote_skew_millis(2_000);
/// assert_eq!(context.quote_skew_millis, 2_000);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct OrderContext<'a> {
    /// The instant the order is judged at.
    pub now: EpochMillis,
    /// Per-swap limits of fee-sponsorship campaigns.
    pub campaigns: &'a CampaignLimits,
    /// Denylist, restricted regions, market states, tag assets.
    pub screening: &'a ScreeningPolicy,
    /// The user's region, when known (from `Forwarded` geolocation).
    pub region: Option<&'a RegionCode>,
    /// The network kind of the sent asset (`fromAddress`).
    pub from_network: NetworkKind,
    /// The network kind of the received asset (`toAddress`).
    pub to_network: NetworkKind,
    /// A quote must outlive `now` by this margin to be accepted.
    pub quote_skew_millis: u64,
    /// How an ExactOut order's amount is held to its rate's limits (rulings
    /// 23 and 34 in docs/RULES.md): [`LimitPolicy::Strict`] by default, so
    /// a plan never yields an order whose amount lies outside its rate's
    /// limits; [`LimitPolicy::Spec`] (limits on the `fromAmount` estimate
    /// only) is the explicit opt-out ([`with_limit_policy`](Self::with_limit_policy)).
    pub limit_policy: LimitPolicy,
    /// The records of the pair's two assets, when the caller has them: a
    /// plan then holds the body's amounts to the assets' `decimals`
    /// ([`with_assets`](Self::with_assets)). `None`: no precision check.
    pub assets: Option<PairAssets<'a>>,
    /// The caller's price guard (ruling 40; [`with_price_guard`](Self::with_price_guard)):
    /// a fixed plan selects among the rates it admits. `None`: off.
    pub price_guard: Option<&'a PriceGuard>,
    /// Whether the assets' networks are known (ruling 46): set by
    /// [`with_assets`](Self::with_assets) and [`with_networks`](Self::with_networks).
    /// A plan says so ([`FixedOrderPlan::addresses_checked`](super::FixedOrderPlan::addresses_checked)),
    /// and verification then holds the deposit address to its checksum.
    pub networks_known: bool,
}

impl<'a> OrderContext<'a> {
    /// A context at `now` under `screening`, with no campaigns, no region,
    /// networks of no particular kind, no skew margin, no asset records and
    /// the strict limit policy (ruling 34).
    pub fn new(now: EpochMillis, screening: &'a ScreeningPolicy) -> Self {
        OrderContext {
            now,
            campaigns: &NO_CAMPAIGNS,
            screening,
            region: None,
            from_network: NetworkKind::Other,
            to_network: NetworkKind::Other,
            quote_skew_millis: 0,
            limit_policy: LimitPolicy::Strict,
            assets: None,
            price_guard: None,
            networks_known: false,
        }
    }

    /// The route policy this context implies (ruling 41): its campaigns,
    /// limit policy and price guard (an order context holds no floors).
    pub fn policy(&self) -> Policy<'a> {
        let policy = Policy::DEFAULT
            .with_campaigns(self.campaigns)
            .with_limit_policy(self.limit_policy);
        policy.with_price_guard(self.price_guard)
    }

    /// With a price guard (ruling 40): a fixed plan refuses a rate whose
    /// multiplier deviates from the guard's reference by more than its
    /// bound (`PRICE_OUTLIER`), and selects among the others.
    #[must_use]
    pub fn with_price_guard(mut self, guard: &'a PriceGuard) -> Self {
        self.price_guard = Some(guard);
        self
    }

    /// With a limit policy for ExactOut order amounts (rulings 23 and 34).
    /// Plans are strict by default; `LimitPolicy::Spec` opts out, judging
    /// the limits on the `fromAmount` estimate only (the specification's
    /// rule), so an order's amount may then lie outside them
    /// ([`FixedOrderPlan::amount_limits`](super::FixedOrderPlan::amount_limits) says so).
    ///
    /// ```
    /// use swaproute::order::OrderContext;
    /// use swaproute::route::LimitPolicy;
    /// use swaproute::screening::ScreeningPolicy;
    /// use swaproute::EpochMillis;
    /// let policy = ScreeningPolicy::new();
    /// let context = OrderContext::new(EpochMillis::new(1_785_000_000_000), &policy);
    /// assert_eq!(context.limit_policy, LimitPolicy::Strict);
    /// let literal = context.with_limit_policy(LimitPolicy::Spec);
    /// assert_eq!(literal.limit_policy, LimitPolicy::Spec);
    /// ```
    #[must_use]
    pub fn with_limit_policy(mut self, policy: LimitPolicy) -> Self {
        self.limit_policy = policy;
        self
    }

    /// With the campaigns' per-swap limits.
    #[must_use]
    pub fn with_campaigns(mut self, campaigns: &'a CampaignLimits) -> Self {
        self.campaigns = campaigns;
        self
    }

    /// With the user's region.
    #[must_use]
    pub fn with_region(mut self, region: &'a RegionCode) -> Self {
        self.region = Some(region);
        self
    }

    /// With the network kinds of the sent and received assets: the caller
    /// knows the networks ([`networks_known`](Self::networks_known)), even
    /// when their kind is [`NetworkKind::Other`] (Bitcoin's).
    #[must_use]
    pub fn with_networks(mut self, from: NetworkKind, to: NetworkKind) -> Self {
        self.from_network = from;
        self.to_network = to;
        self.networks_known = true;
        self
    }

    /// With the records of the pair's two assets (from
    /// [`AssetsResponse::pair_assets`](crate::discovery::AssetsResponse::pair_assets)).
    /// A plan then, after screening and before routing:
    ///
    /// - refuses an exact amount with more decimal places than its asset's
    ///   `decimals`, `INVALID_AMOUNT` naming the field: `fromAmount` in
    ///   ExactIn (both flows), `toAmount` in ExactOut. The other amount is an
    ///   estimate and is not checked;
    /// - rounds an ExactOut order's amount (the required input, 8 places
    ///   rounded up, ruling 8) up to the from asset's decimals, since it is
    ///   what the user must send, and an ExactIn order's `toAmount` estimate
    ///   down to the to asset's, since it is what the user receives.
    ///
    /// - checks `fromAddress` and `toAddress` against the kind of their
    ///   asset's network ([`PairAssets::network_kinds`]: an address on an
    ///   EVM network must be `0x` + 40 hex digits with a valid EIP-55
    ///   checksum, one on a Cosmos SDK network valid bech32), so `toAddress:
    ///   "bc1q…"` is `INVALID_ADDRESS` for BTC_ETH. A kind set with
    ///   [`with_networks`](Self::with_networks), before or after, wins: the
    ///   records only fill a kind that is [`NetworkKind::Other`].
    ///
    /// Records of other assets than the body's pair are refused
    /// (`INTERNAL_ERROR`, ruling 46: the caller's configuration, not the
    /// client's addresses), before any address is judged.
    ///
    /// ```
    /// use swaproute::discovery::AssetsResponse;
    /// use swaproute::order::OrderContext;
    /// use swaproute::screening::ScreeningPolicy;
    /// use swaproute::EpochMillis;
    /// let listing: AssetsResponse = serde_json::from_str(r#"[
    ///   {"id":"BTC","name":"Bitcoin","symbol":"BTC","decimals":8,"network":"bitcoin"},
    ///   {"id":"ETH","name":"Ether","symbol":"ETH","decimals":18,"network":"ethereum"}]"#)?;
    /// let policy = ScreeningPolicy::new();
    /// let context = OrderContext::new(EpochMillis::new(1_785_000_000_000), &policy)
    ///     .with_assets(listing.pair_assets(&"BTC_ETH".parse()?)?);
    /// assert_eq!(context.assets.map(|a| a.from().decimals.get()), Some(8));
    /// assert_eq!(context.to_network, swaproute::screening::NetworkKind::Evm);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn with_assets(mut self, assets: PairAssets<'a>) -> Self {
        let (from, to) = assets.network_kinds();
        if self.from_network == NetworkKind::Other {
            self.from_network = from;
        }
        if self.to_network == NetworkKind::Other {
            self.to_network = to;
        }
        self.assets = Some(assets);
        self.networks_known = true;
        self
    }

    /// Whether a plan under this context checks addresses against their
    /// networks (ruling 46): the context has the pair's asset records
    /// ([`with_assets`](Self::with_assets)) or the caller set the networks
    /// ([`with_networks`](Self::with_networks)). Otherwise the networks are
    /// unknown and only the generic address rules apply.
    pub fn networks_known(&self) -> bool {
        self.networks_known
    }

    /// Refuses asset records of another pair than `pair` (ruling 46: the
    /// caller's configuration error, reported before any address is judged).
    pub(crate) fn check_assets_pair(&self, pair: &PairId) -> Result<(), PlanError> {
        match self.assets {
            Some(assets) if !assets.matches(pair) => Err(PlanError::AssetsOfAnotherPair {
                order: alloc::boxed::Box::new(pair.clone()),
            }),
            _ => Ok(()),
        }
    }

    /// The precision check of a plan (see [`with_assets`](Self::with_assets)):
    /// the records must be `pair`'s, and `exact` (the body's exact amount,
    /// with its field) must fit its asset.
    pub(crate) fn check_precision(
        &self,
        pair: &PairId,
        field: RequestField,
        exact: Amount,
    ) -> Result<(), PlanError> {
        let Some(assets) = self.assets else {
            return Ok(());
        };
        if !assets.matches(pair) {
            return Err(PlanError::AssetsOfAnotherPair {
                order: alloc::boxed::Box::new(pair.clone()),
            });
        }
        let checked = if field == RequestField::ToAmount {
            assets.check_to(&exact)
        } else {
            assets.check_from(&exact)
        };
        checked.map_err(|error| PlanError::AmountPrecision {
            field,
            error: alloc::boxed::Box::new(error),
        })
    }

    /// With a clock-skew margin for quote expiry.
    #[must_use]
    pub fn with_quote_skew_millis(mut self, millis: u64) -> Self {
        self.quote_skew_millis = millis;
        self
    }
}
