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

    /// The created order's `amount` (DESIGN ruling 9): the required input in
    /// ExactOut, `fromAmount` in ExactIn.
    pub fn order_amount(&self) -> Decimal {
        self.required_input.map_or(self.from_amount, Fixed8::get)
    }
}
