//! What the caller asks for.

use core::fmt;

use rust_decimal::Decimal;

use crate::decimal::{Amount, Fixed8};
use crate::rate::{CampaignLimits, NO_CAMPAIGNS};
use crate::swap_mode::SwapMode;
use crate::time::EpochMillis;

/// A route request: the swap mode, the amounts, the time, and the caller's
/// campaign limits.
///
/// Provider limits are checked against `from_amount` in every mode, never
/// against `to_amount` (the spec's swap-mode rule 4). In ExactOut, `from_amount`
/// is the client's estimate (see [`estimate_exact_out`](super::estimate_exact_out))
/// and `to_amount` is exact.
///
/// ```
/// use swaproute::{route::RouteRequest, Amount, EpochMillis};
/// let request = RouteRequest::exact_in("0.5".parse::<Amount>().unwrap(), EpochMillis::new(1_700_000_000_000));
/// assert_eq!(request.from_amount().to_string(), "0.5");
/// ```
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct RouteRequest<'c> {
    mode: SwapMode,
    from_amount: Amount,
    to_amount: Option<Amount>,
    now: EpochMillis,
    campaigns: &'c CampaignLimits,
    /// ExactOut: `from_amount` rounded up to 8 places, computed once: the
    /// first guess of each required input (derived data, kept in step with
    /// `from_amount` and `mode`).
    from8: Option<Fixed8>,
}

// The cache is left out on purpose: it is derived from the other fields.
#[allow(clippy::missing_fields_in_debug)]
impl fmt::Debug for RouteRequest<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RouteRequest")
            .field("mode", &self.mode)
            .field("from_amount", &self.from_amount)
            .field("to_amount", &self.to_amount)
            .field("now", &self.now)
            .field("campaigns", &self.campaigns)
            .finish()
    }
}

impl RouteRequest<'static> {
    /// An ExactIn request: `from_amount` is exact.
    pub fn exact_in(from_amount: Amount, now: EpochMillis) -> Self {
        RouteRequest {
            mode: SwapMode::ExactIn,
            from_amount,
            to_amount: None,
            now,
            campaigns: &NO_CAMPAIGNS,
            from8: None,
        }
    }

    /// An ExactOut request: `to_amount` is exact; `from_amount` is the client's
    /// estimate, against which limits are checked and miner fees weighed.
    pub fn exact_out(from_amount: Amount, to_amount: Amount, now: EpochMillis) -> Self {
        RouteRequest {
            mode: SwapMode::ExactOut,
            from_amount,
            to_amount: Some(to_amount),
            now,
            campaigns: &NO_CAMPAIGNS,
            from8: Fixed8::ceil(from_amount.get()).ok(),
        }
    }
}

impl<'c> RouteRequest<'c> {
    /// The same request with the caller's campaign limits (DESIGN ruling 3).
    #[must_use]
    pub fn with_campaigns(self, campaigns: &CampaignLimits) -> RouteRequest<'_> {
        RouteRequest {
            mode: self.mode,
            from_amount: self.from_amount,
            to_amount: self.to_amount,
            now: self.now,
            campaigns,
            from8: self.from8,
        }
    }

    /// The same request with the client's estimated `to_amount` (ExactIn; it
    /// never affects the selection). In ExactOut it replaces the exact amount.
    #[must_use]
    pub fn with_to_amount(mut self, to_amount: Amount) -> Self {
        self.to_amount = Some(to_amount);
        self
    }

    /// The swap mode.
    pub fn mode(&self) -> SwapMode {
        self.mode
    }

    /// The from amount (exact in ExactIn, the estimate in ExactOut).
    pub fn from_amount(&self) -> Amount {
        self.from_amount
    }

    /// The to amount: the client's estimate in ExactIn (optional), exact in ExactOut.
    pub fn to_amount(&self) -> Option<Amount> {
        self.to_amount
    }

    /// The instant the rates are judged at.
    pub fn now(&self) -> EpochMillis {
        self.now
    }

    /// The caller's campaign limits.
    pub fn campaigns(&self) -> &'c CampaignLimits {
        self.campaigns
    }

    /// ExactOut: `from_amount` rounded up to 8 places (`None` in ExactIn).
    pub(crate) fn from8(&self) -> Option<&Fixed8> {
        self.from8.as_ref()
    }

    /// The exact output of an ExactOut request (zero for ExactIn, where it is unused).
    pub(crate) fn exact_output(&self) -> Decimal {
        match (self.mode, self.to_amount) {
            (SwapMode::ExactOut, Some(to)) => to.get(),
            _ => Decimal::ZERO,
        }
    }
}
