//! A ranked route.

use rust_decimal::Decimal;
use serde::ser::SerializeStruct;
use serde::{Serialize, Serializer};

use crate::decimal::Fixed8;
use crate::rate::Rate;

/// A rate that passed every check, with what the ranking computed for it.
///
/// # JSON
/// `{"rateId","netOutput","requiredInput","requiredInputLimits","sponsoredByCampaignId"}`,
/// decimals as strings without insignificant zeros (the required input with
/// its 8 places), `null` where a value does not apply; see [`LimitCheck`] for
/// `requiredInputLimits`. In a [`Selection`](super::Selection) each route also
/// has its `rank`, first.
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

    /// The net output at the amount ranked, rounded down to 8 decimal places
    /// from its exact value (ruling 35 in docs/RULES.md): what the route
    /// promises, e.g. the `toAmount` estimate of an ExactIn order. Never above
    /// the exact `fromAmount × multiplier − minerFee`, even where
    /// [`net_output`](Self::net_output) had to round.
    ///
    /// # Errors
    /// [`DecimalError::OutOfRange`](crate::decimal::DecimalError::OutOfRange)
    /// when the output needs more than 28 significant digits at 8 places.
    pub fn promised_output(&self) -> Result<Fixed8, crate::decimal::DecimalError> {
        Fixed8::floor_net(
            self.from_amount,
            self.rate.multiplier(),
            self.rate.miner_fee(),
        )
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

    /// The route with its rank, for a selection's JSON.
    pub(crate) fn ranked(&self, rank: usize) -> RankedRoute<'_, 'r> {
        RankedRoute {
            rank: Some(rank),
            route: self,
        }
    }

    /// The created order's `amount` (ruling 9): the required input in
    /// ExactOut, `fromAmount` in ExactIn.
    pub fn order_amount(&self) -> Decimal {
        self.required_input.map_or(self.from_amount, Fixed8::get)
    }
}

impl Serialize for Route<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        RankedRoute {
            rank: None,
            route: self,
        }
        .serialize(serializer)
    }
}

/// A route as JSON, with its rank when it has one.
pub(crate) struct RankedRoute<'a, 'r> {
    rank: Option<usize>,
    route: &'a Route<'r>,
}

impl Serialize for RankedRoute<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let route = self.route;
        let len = 5usize.saturating_add(usize::from(self.rank.is_some()));
        let mut out = serializer.serialize_struct("Route", len)?;
        if let Some(rank) = self.rank {
            out.serialize_field("rank", &rank)?;
        }
        out.serialize_field("rateId", route.rate.id())?;
        out.serialize_field("netOutput", &crate::decimal::Plain(route.net_output))?;
        out.serialize_field("requiredInput", &route.required_input)?;
        out.serialize_field("requiredInputLimits", &route.required_input_limits())?;
        out.serialize_field(
            "sponsoredByCampaignId",
            &route.rate.sponsored_by_campaign_id(),
        )?;
        out.end()
    }
}

/// Where an amount lies against a rate's limits.
///
/// # JSON
/// `{"status":"within"}`, or `{"status":"belowMin"|"aboveMax","limit":"…"}`.
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
    /// Where `amount` lies against `[min, max]`, inclusive at both ends:
    /// the one home of "limits are inclusive" (ruling 5). The amount check
    /// and the required-input check (`rules/eligibility.rs`), a chain's
    /// ExactOut legs (`chain/leg.rs`) and [`Route::required_input_limits`]
    /// call it; the fast path's integer form sits beside the amount check,
    /// and the book's closed line intervals (`book/envelope.rs`) are tested
    /// against the scan, which calls it.
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

impl Serialize for LimitCheck {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let limit = match self {
            LimitCheck::Within => None,
            LimitCheck::BelowMin { min: limit } | LimitCheck::AboveMax { max: limit } => {
                Some(*limit)
            }
        };
        let mut out = serializer.serialize_struct(
            "LimitCheck",
            1usize.saturating_add(usize::from(limit.is_some())),
        )?;
        out.serialize_field("status", self.as_str())?;
        if let Some(limit) = limit {
            out.serialize_field("limit", &crate::decimal::Plain(limit))?;
        }
        out.end()
    }
}
