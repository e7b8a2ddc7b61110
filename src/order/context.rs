//! The caller's policy for planning an order.

use crate::rate::{CampaignLimits, NO_CAMPAIGNS};
use crate::route::LimitPolicy;
use crate::screening::{NetworkKind, RegionCode, ScreeningPolicy};
use crate::time::EpochMillis;

/// Everything the caller decides about an order besides its body: the time,
/// campaign limits, screening policy, the user's region, the networks of the
/// two assets (for address syntax), and the clock-skew margin for quotes.
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
    /// How an ExactOut order's amount is held to its rate's limits (ruling 23
    /// in docs/RULES.md): the specification's rule by default.
    pub limit_policy: LimitPolicy,
}

impl<'a> OrderContext<'a> {
    /// A context at `now` under `screening`, with no campaigns, no region,
    /// networks of no particular kind and no skew margin.
    pub fn new(now: EpochMillis, screening: &'a ScreeningPolicy) -> Self {
        OrderContext {
            now,
            campaigns: &NO_CAMPAIGNS,
            screening,
            region: None,
            from_network: NetworkKind::Other,
            to_network: NetworkKind::Other,
            quote_skew_millis: 0,
            limit_policy: LimitPolicy::Spec,
        }
    }

    /// With a limit policy for ExactOut order amounts (ruling 23).
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

    /// With the network kinds of the sent and received assets.
    #[must_use]
    pub fn with_networks(mut self, from: NetworkKind, to: NetworkKind) -> Self {
        self.from_network = from;
        self.to_network = to;
        self
    }

    /// With a clock-skew margin for quote expiry.
    #[must_use]
    pub fn with_quote_skew_millis(mut self, millis: u64) -> Self {
        self.quote_skew_millis = millis;
        self
    }
}
