//! What the caller asks a market for: the best chains from one asset to another.

use crate::decimal::Amount;
use crate::ids::AssetId;
use crate::rate::CampaignLimits;
use crate::route::{Floors, RouteRequest};
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
}

/// A leg count outside 1 to [`MAX_LEGS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("a chain has 1 to 3 legs, not {0}")]
pub struct InvalidMaxLegs(pub usize);

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
        }
    }

    /// The same request allowing chains of up to `max_legs` legs.
    ///
    /// # Errors
    /// [`InvalidMaxLegs`] outside 1 to [`MAX_LEGS`].
    pub fn with_max_legs(mut self, max_legs: usize) -> Result<Self, InvalidMaxLegs> {
        if !(1..=MAX_LEGS).contains(&max_legs) {
            return Err(InvalidMaxLegs(max_legs));
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

    /// The floors one leg is held to: all of them on the chain's last leg
    /// (`final_leg`), the ratios only on the others.
    pub(crate) fn leg_floors(&self, final_leg: bool) -> Floors {
        if final_leg {
            self.floors
        } else {
            self.floors.without_dust()
        }
    }

    /// The single-pair request of an ExactIn leg with `input`.
    pub(crate) fn leg_request<'c>(
        &self,
        input: Amount,
        campaigns: &'c CampaignLimits,
        final_leg: bool,
    ) -> RouteRequest<'c> {
        RouteRequest::exact_in(input, self.now)
            .with_campaigns(campaigns)
            .with_floors(self.leg_floors(final_leg))
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
