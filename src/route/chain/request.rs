//! What the caller asks a market for: the best chains from one asset to another.

use alloc::vec::Vec;

use super::market::Market;
use crate::decimal::Amount;
use crate::ids::AssetId;
use crate::parse_error::{ParseError, ParseErrorKind};
use crate::rate::{CampaignLimits, PairId, Rate};
use crate::route::rules::served::resolve_guard;
use crate::route::{Floors, Policy, PolicyPart, PriceGuard, RouteRequest, UnsupportedPolicy};
use crate::swap_mode::SwapMode;
use crate::time::EpochMillis;

/// The most legs a chain may have (ruling 24 in docs/RULES.md).
pub const MAX_LEGS: usize = 3;

/// Legs a chain may have when the request does not say: a direct pair or one
/// intermediate asset.
pub const DEFAULT_MAX_LEGS: usize = 2;

/// A chain request: from and to assets, the swap mode and its exact amount,
/// the time, and the most legs a chain may have (1 to [`MAX_LEGS`], default
/// [`DEFAULT_MAX_LEGS`]).
///
/// ```
/// use swaproute::route::chain::ChainRequest;
/// use swaproute::{Amount, AssetId, EpochMillis};
/// let request = ChainRequest::exact_in(
///     AssetId::new("BTC")?, AssetId::new("SOL")?, Amount::parse("0.5")?,
///     EpochMillis::new(1_785_000_000_000),
/// ).with_max_legs(3)?;
/// assert_eq!(request.max_legs(), 3);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChainRequest {
    pub(crate) from: AssetId,
    pub(crate) to: AssetId,
    pub(crate) mode: SwapMode,
    /// ExactIn: the exact input; ExactOut: the exact output.
    pub(crate) amount: Amount,
    pub(crate) now: EpochMillis,
    pub(crate) max_legs: usize,
    /// The caller's economic floors (ruling 38; off by default).
    pub(crate) floors: Floors,
    /// The caller's price guard (rulings 40-42; off by default).
    pub(crate) price_guard: Option<PriceGuard>,
    /// The guard as each pair's legs apply it (its median found over that
    /// pair's rates, ruling 42), by pair id: for the chain's final leg and
    /// for an inner leg (whose floors have no dust). Filled once per query
    /// ([`resolved`](Self::resolved)).
    pub(crate) leg_guards: Option<Vec<(PairId, PriceGuard, PriceGuard)>>,
}

/// A leg count outside 1 to [`MAX_LEGS`]: a [`ParseError`] of kind
/// [`MaxLegs`](ParseErrorKind::MaxLegs).
pub(crate) fn invalid_max_legs(max_legs: usize) -> ParseError {
    ParseError::new(
        ParseErrorKind::MaxLegs,
        &alloc::format!("{max_legs}"),
        "OUT_OF_RANGE",
        &format_args!("a chain has 1 to 3 legs, not {max_legs}"),
    )
}

impl ChainRequest {
    /// An ExactIn request: `from_amount` of `from` is exact; each leg's input
    /// is the last leg's net output rounded down to 8 places.
    pub fn exact_in(from: AssetId, to: AssetId, from_amount: Amount, now: EpochMillis) -> Self {
        ChainRequest {
            from,
            to,
            mode: SwapMode::ExactIn,
            amount: from_amount,
            now,
            max_legs: DEFAULT_MAX_LEGS,
            floors: Floors::NONE,
            price_guard: None,
            leg_guards: None,
        }
    }

    /// An ExactOut request: `to_amount` of `to` is exact; each leg's required
    /// input is worked out backwards from it, rounded up to 8 places.
    pub fn exact_out(from: AssetId, to: AssetId, to_amount: Amount, now: EpochMillis) -> Self {
        ChainRequest {
            from,
            to,
            mode: SwapMode::ExactOut,
            amount: to_amount,
            now,
            max_legs: DEFAULT_MAX_LEGS,
            floors: Floors::NONE,
            price_guard: None,
            leg_guards: None,
        }
    }

    /// The same request allowing chains of up to `max_legs` legs.
    ///
    /// # Errors
    /// A [`ParseError`] of kind [`MaxLegs`](ParseErrorKind::MaxLegs)
    /// outside 1 to [`MAX_LEGS`].
    pub fn with_max_legs(mut self, max_legs: usize) -> Result<Self, ParseError> {
        if !(1..=MAX_LEGS).contains(&max_legs) {
            return Err(invalid_max_legs(max_legs));
        }
        self.max_legs = max_legs;
        Ok(self)
    }

    /// The same request under the caller's economic floors (ruling 38; off
    /// by default, and then every answer is as without them). The fee
    /// multiple and the fee share hold every leg (they are ratios); the
    /// dust floor is in the chain's to asset and holds its last leg. A rate
    /// that fails one is refused with its reason (`BELOW_DUST`,
    /// `FEE_TOO_LARGE`, `FEE_SHARE_TOO_LARGE`).
    #[must_use]
    pub fn with_floors(mut self, floors: Floors) -> Self {
        self.floors = floors;
        self
    }

    /// The economic floors (ruling 38).
    pub fn floors(&self) -> &Floors {
        &self.floors
    }

    /// The same request under the caller's price guard (rulings 40-42; off
    /// by default): each leg refuses a rate whose multiplier deviates from
    /// the reference by more than the bound (`PRICE_OUTLIER`). A median
    /// guard finds one median per pair, over that pair's rates that can
    /// serve some amount (a leg's reference is its own pair's price).
    #[must_use]
    pub fn with_price_guard(mut self, guard: PriceGuard) -> Self {
        self.price_guard = Some(guard);
        self.leg_guards = None;
        self
    }

    /// The price guard, when one is set.
    pub fn price_guard(&self) -> Option<&PriceGuard> {
        self.price_guard.as_ref()
    }

    /// The same request under the caller's policy (ruling 41): its floors
    /// and its price guard. Chains hold every ExactOut leg's required input
    /// to its rate's limits whatever the limit policy (ruling 24).
    ///
    /// ```
    /// use swaproute::route::chain::ChainRequest;
    /// use swaproute::route::{Policy, PolicyPart};
    /// use swaproute::{Amount, AssetId, CampaignLimits, EpochMillis};
    /// let request = ChainRequest::exact_in(
    ///     AssetId::new("BTC")?, AssetId::new("SOL")?, Amount::parse("0.5")?,
    ///     EpochMillis::new(1_785_000_000_000),
    /// );
    /// let campaigns = CampaignLimits::new();
    /// assert!(request.clone().with_policy(Policy::DEFAULT.with_campaigns(&campaigns)).is_ok());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`UnsupportedPolicy`] naming [`PolicyPart::Campaigns`] when the
    /// policy holds campaign limits: a market's campaigns are its own
    /// ([`Market::new`]), given when its rate books are prepared.
    pub fn with_policy(mut self, policy: Policy<'_>) -> Result<Self, UnsupportedPolicy> {
        policy.refuse(&[PolicyPart::Campaigns])?;
        self.floors = *policy.floors();
        self.price_guard = policy.price_guard().copied();
        self.leg_guards = None;
        Ok(self)
    }

    /// The same request with each pair's guard found over `market` (ruling
    /// 42); `None` when there is nothing to find (no guard, or found).
    pub(crate) fn resolved(&self, market: &Market<'_>) -> Option<Self> {
        let guard = self.price_guard?;
        if self.leg_guards.is_some() {
            return None;
        }
        let mut table = Vec::with_capacity(market.pair_count());
        for index in 0..market.pair_count() {
            let Some(pair) = market.pair(index) else {
                continue;
            };
            let policy = Policy::DEFAULT.with_campaigns(market.campaigns());
            let at = |floors: Floors| {
                resolve_guard(
                    &guard,
                    pair.rates,
                    self.mode,
                    self.now,
                    policy.with_floors(floors),
                )
                .unwrap_or(guard)
            };
            table.push((
                pair.id.clone(),
                at(self.leg_floors(true)),
                at(self.leg_floors(false)),
            ));
        }
        table.sort_by(|a, b| a.0.cmp(&b.0));
        let mut resolved = self.clone();
        resolved.leg_guards = Some(table);
        Some(resolved)
    }

    /// The guard a leg of `rate`'s pair applies (resolved for its pair).
    pub(crate) fn leg_guard(&self, rate: &Rate, final_leg: bool) -> Option<&PriceGuard> {
        let guard = self.price_guard.as_ref()?;
        let Some(table) = &self.leg_guards else {
            return Some(guard);
        };
        let at = table
            .binary_search_by(|entry| entry.0.cmp(rate.pair_id()))
            .ok()?;
        table
            .get(at)
            .map(|(_, last, inner)| if final_leg { last } else { inner })
    }

    /// The floors one leg is held to: all of them on the chain's last leg
    /// (`final_leg`), the ratios only on the others.
    pub(crate) fn leg_floors(&self, final_leg: bool) -> Floors {
        if final_leg {
            self.floors
        } else {
            self.floors.without_dust()
        }
    }

    /// The single-pair request of an ExactIn leg of `rates`' pair with
    /// `input`: the market's campaigns, the leg's floors and its pair's
    /// guard.
    pub(crate) fn leg_request<'c>(
        &'c self,
        input: Amount,
        campaigns: &'c CampaignLimits,
        rates: &[Rate],
        final_leg: bool,
    ) -> RouteRequest<'c> {
        let policy = Policy::DEFAULT
            .with_campaigns(campaigns)
            .with_floors(self.leg_floors(final_leg))
            .with_price_guard(
                rates
                    .first()
                    .and_then(|rate| self.leg_guard(rate, final_leg)),
            );
        // One request, built once under the whole policy (each builder
        // computes the request's fast form again).
        RouteRequest::exact_in_under(input, self.now, policy)
    }

    /// The asset the chain starts from.
    pub fn from(&self) -> &AssetId {
        &self.from
    }

    /// The asset the chain ends in.
    pub fn to(&self) -> &AssetId {
        &self.to
    }

    /// The swap mode.
    pub fn mode(&self) -> SwapMode {
        self.mode
    }

    /// ExactIn: the exact input (`None` in ExactOut).
    pub fn from_amount(&self) -> Option<Amount> {
        (self.mode == SwapMode::ExactIn).then_some(self.amount)
    }

    /// ExactOut: the exact output (`None` in ExactIn).
    pub fn to_amount(&self) -> Option<Amount> {
        (self.mode == SwapMode::ExactOut).then_some(self.amount)
    }

    /// The instant the rates are judged at.
    pub fn now(&self) -> EpochMillis {
        self.now
    }

    /// The most legs a chain may have.
    pub fn max_legs(&self) -> usize {
        self.max_legs
    }
}
