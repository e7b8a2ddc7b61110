//! A ranked route.

use rust_decimal::Decimal;

use crate::decimal::Fixed8;
use crate::rate::Rate;

/// A rate that passed every check, with what the ranking computed for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Route<'r> {
    pub(crate) rate: &'r Rate,
    pub(crate) net_output: Decimal,
    pub(crate) effective_max: Decimal,
    pub(crate) from_amount: Decimal,
    pub(crate) required_input: Option<Fixed8>,
}

impl<'r> Route<'r> {
    /// The rate behind the route.
    pub fn rate(&self) -> &'r Rate {
        self.rate
    }

    /// `fromAmount × multiplier − minerFee`, to-asset unit: the ranking score.
    pub fn net_output(&self) -> Decimal {
        self.net_output
    }

    /// The upper limit that applied (campaign-capped for a sponsored variant).
    pub fn effective_max(&self) -> Decimal {
        self.effective_max
    }

    /// ExactOut only: `(toAmount + minerFee) / multiplier`, rounded up to 8
    /// decimal places: what the user must send for exactly `toAmount`.
    pub fn required_input(&self) -> Option<Fixed8> {
        self.required_input
    }

    /// ExactOut only: whether [`required_input`](Self::required_input), the
    /// created order's `amount`, lies within the rate's `[min, effective max]`
    /// (ruling 23 in docs/RULES.md). The specification checks limits against
    /// `fromAmount` only, so a route can be eligible while its order amount is
    /// not; [`LimitPolicy::Strict`](super::LimitPolicy::Strict) refuses such routes.
    /// `None` in ExactIn, where the order amount is `fromAmount` itself.
    pub fn required_input_limits(&self) -> Option<LimitCheck> {
        let required = self.required_input?.get();
        Some(LimitCheck::of(
            required,
            self.rate.min(),
            self.effective_max,
        ))
    }

    /// The created order's `amount` (ruling 9): the required input in
    /// ExactOut, `fromAmount` in ExactIn.
    pub fn order_amount(&self) -> Decimal {
        self.required_input.map_or(self.from_amount, Fixed8::get)
    }
}

/// Where an amount lies against a rate's limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LimitCheck {
    /// `min <= amount <= max`.
    Within,
    /// Below the rate's lower limit.
    BelowMin {
        /// The lower limit.
        min: Decimal,
    },
    /// Above the (effective) upper limit.
    AboveMax {
        /// The effective upper limit.
        max: Decimal,
    },
}

impl LimitCheck {
    /// Where `amount` lies against `[min, max]`, inclusive at both ends.
    pub(crate) fn of(amount: Decimal, min: Decimal, max: Decimal) -> Self {
        if amount < min {
            LimitCheck::BelowMin { min }
        } else if amount > max {
            LimitCheck::AboveMax { max }
        } else {
            LimitCheck::Within
        }
    }

    /// `true` for [`LimitCheck::Within`].
    pub fn is_within(&self) -> bool {
        matches!(self, LimitCheck::Within)
    }

    /// The wire text: `"within"`, `"belowMin"` or `"aboveMax"`.
    pub const fn as_str(&self) -> &'static str {
        match self {
            LimitCheck::Within => "within",
            LimitCheck::BelowMin { .. } => "belowMin",
            LimitCheck::AboveMax { .. } => "aboveMax",
        }
    }
}
