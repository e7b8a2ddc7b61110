//! The caller's policy (ruling 41 in docs/RULES.md): one value that every
//! question takes.
//!
//! A [`Policy`] holds everything the caller decides about which routes may
//! be used: its campaign limits (ruling 3), the limit policy (ruling 23),
//! the economic floors (ruling 38) and the price guard (rulings 40 and 42).
//! Every question a request can ask applies all of it: the single pair's
//! [`best`](super::RouteRequest::best), [`top`](super::RouteRequest::top)
//! and [`select`](super::RouteRequest::select), the ExactOut estimate, a
//! [split](super::RouteRequest::split) and each of its legs, the
//! [amounts that work](super::FeasibleQuery) and the amounts a "no route"
//! names, each leg of a [chain](super::chain), and the
//! [`RateBook`](super::RateBook). A question that cannot apply a part
//! refuses it with [`UnsupportedPolicy`], naming the part; none ignores a
//! part silently.
//!
//! A median price guard's reference is found once per question, over the
//! rates that can serve some amount under the rest of the policy
//! (ruling 42), so every question of one request agrees on it.
//!
//! ```
//! use swaproute::route::{Floors, Policy, PriceGuard, RouteRequest};
//! use swaproute::{Amount, EpochMillis};
//! let guard = PriceGuard::median(100);
//! let policy = Policy::DEFAULT
//!     .with_floors(Floors::NONE.with_max_fee_share_bps(50))
//!     .with_price_guard(&guard);
//! let request = RouteRequest::exact_in("0.5".parse::<Amount>()?, EpochMillis::new(1_785_000_000_000))
//!     .with_policy(policy);
//! assert_eq!(request.policy(), policy);
//! assert_eq!(request.price_guard(), Some(&guard));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use core::fmt;

use super::{Floors, PriceGuard};
use crate::rate::{CampaignLimits, NO_CAMPAIGNS};

/// How an ExactOut route's required input is held to its rate's limits
/// (ruling 23 in docs/RULES.md).
///
/// The specification checks limits against `fromAmount` in every mode, and the
/// created order's `amount` in ExactOut is the route's required input, which
/// may lie outside the limits the estimate passed. Every ExactOut route says
/// whether it does ([`Route::required_input_limits`](super::Route::required_input_limits));
/// the strict policy also makes such a route ineligible, so the next route is
/// chosen.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum LimitPolicy {
    /// The specification's rule: limits on `fromAmount` only.
    #[default]
    Spec,
    /// Also refuse an ExactOut route whose required input lies outside
    /// `[min, effective max]` (`REQUIRED_INPUT_BELOW_MIN` /
    /// `REQUIRED_INPUT_ABOVE_MAX`). No effect in ExactIn.
    Strict,
}

/// The caller's whole policy (ruling 41): campaigns, the limit policy, the
/// floors and the price guard. `Copy`, built with `with_*` from
/// [`Policy::DEFAULT`] (no campaigns, the specification's limits, no
/// floors, no guard: the service's own rules and nothing more).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Policy<'c> {
    campaigns: &'c CampaignLimits,
    limits: LimitPolicy,
    floors: Floors,
    price_guard: Option<&'c PriceGuard>,
}

impl Default for Policy<'_> {
    fn default() -> Self {
        Policy::DEFAULT
    }
}

impl Policy<'static> {
    /// No campaigns, [`LimitPolicy::Spec`], no floors, no guard.
    pub const DEFAULT: Policy<'static> = Policy {
        campaigns: &NO_CAMPAIGNS,
        limits: LimitPolicy::Spec,
        floors: Floors::NONE,
        price_guard: None,
    };
}

impl<'c> Policy<'c> {
    /// With the caller's campaign limits (ruling 3).
    #[must_use]
    pub fn with_campaigns<'a>(self, campaigns: &'a CampaignLimits) -> Policy<'a>
    where
        'c: 'a,
    {
        Policy { campaigns, ..self }
    }

    /// With `limit_policy` (ruling 23).
    #[must_use]
    pub fn with_limit_policy(self, limit_policy: LimitPolicy) -> Self {
        Policy {
            limits: limit_policy,
            ..self
        }
    }

    /// With the caller's economic floors (ruling 38).
    #[must_use]
    pub fn with_floors(self, floors: Floors) -> Self {
        Policy { floors, ..self }
    }

    /// With the caller's price guard (rulings 40 and 42): `&guard`, or an
    /// `Option<&PriceGuard>`, which replaces the guard the policy had
    /// (`None` leaves it without one).
    #[must_use]
    pub fn with_price_guard<'a>(self, guard: impl Into<Option<&'a PriceGuard>>) -> Policy<'a>
    where
        'c: 'a,
    {
        Policy {
            price_guard: guard.into(),
            ..self
        }
    }

    /// The same policy without a price guard.
    #[must_use]
    pub fn without_price_guard(self) -> Self {
        Policy {
            price_guard: None,
            ..self
        }
    }

    /// The campaign limits.
    pub fn campaigns(&self) -> &'c CampaignLimits {
        self.campaigns
    }

    /// The limit policy.
    pub fn limit_policy(&self) -> LimitPolicy {
        self.limits
    }

    /// The economic floors.
    pub fn floors(&self) -> &Floors {
        &self.floors
    }

    /// The price guard, when one is set.
    pub fn price_guard(&self) -> Option<&'c PriceGuard> {
        self.price_guard
    }

    /// `Err` naming the first part of this policy that is set among
    /// `unsupported` (for a question that cannot apply those parts).
    pub(crate) fn refuse(&self, unsupported: &[PolicyPart]) -> Result<(), UnsupportedPolicy> {
        for &part in unsupported {
            let set = match part {
                PolicyPart::Campaigns => !self.campaigns.is_empty(),
                PolicyPart::LimitPolicy => self.limits != LimitPolicy::Spec,
                PolicyPart::Floors => !self.floors.is_none(),
                PolicyPart::PriceGuard => self.price_guard.is_some(),
            };
            if set {
                return Err(UnsupportedPolicy { part });
            }
        }
        Ok(())
    }
}

/// A part of a [`Policy`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum PolicyPart {
    /// The campaign limits (ruling 3).
    Campaigns,
    /// The limit policy (ruling 23).
    LimitPolicy,
    /// The economic floors (ruling 38).
    Floors,
    /// The price guard (rulings 40 and 42).
    PriceGuard,
}

impl PolicyPart {
    /// The part's name in messages: `campaigns`, `limitPolicy`, `floors`,
    /// `priceGuard`.
    pub const fn as_str(self) -> &'static str {
        match self {
            PolicyPart::Campaigns => "campaigns",
            PolicyPart::LimitPolicy => "limitPolicy",
            PolicyPart::Floors => "floors",
            PolicyPart::PriceGuard => "priceGuard",
        }
    }
}

impl fmt::Display for PolicyPart {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A question was given a part of the policy it cannot apply (ruling 41):
/// it refuses rather than answer as if the part were not set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("this question cannot apply the policy's {part}; ask the full selection instead")]
pub struct UnsupportedPolicy {
    /// The part that cannot be applied.
    pub part: PolicyPart,
}
