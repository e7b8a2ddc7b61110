//! "No route" decided by required inputs (ruling 34 in docs/RULES.md): an
//! ExactOut plan under the strict limit policy whose every candidate route
//! needs an order amount outside its rate's limits. The error names the
//! amount that failed, never `fromAmount`, and the `toAmount` that works.

use core::fmt;

use rust_decimal::{Decimal, RoundingStrategy};
use serde::ser::SerializeStruct;
use serde::{Serialize, Serializer};

use crate::decimal::Plain;
use crate::error::{ApiError, ErrorCode};
use crate::ids::{AssetId, RateId};
use crate::numeric::{Wide, MAX_MANTISSA};
use crate::rate::Rate;
use crate::route::LimitCheck;

/// The largest number of decimal places an amount has.
const MAX_PLACES: u32 = 28;

/// One side of a [`RequiredInputNoRoute`]: the route nearest to serving the
/// `toAmount` from that side.
///
/// # JSON
/// `{"rateId","required","limit","toAmount"}`, decimals as strings,
/// `toAmount` `null` when no amount on that route works.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct NearestRoute {
    /// The route's rate.
    pub rate_id: RateId,
    /// The order amount the route needs (in the from asset, after every
    /// rounding): the amount that failed.
    pub required: Decimal,
    /// The limit it fails: the rate's min (below) or effective max (above).
    pub limit: Decimal,
    /// The largest (above) or smallest (below) `toAmount`, in the to asset,
    /// whose order amount on this route lies within its limits: the one
    /// that works nearest to the request. `None` when no `toAmount` does.
    pub to_amount: Option<Decimal>,
}

impl Serialize for NearestRoute {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut out = serializer.serialize_struct("NearestRoute", 4)?;
        out.serialize_field("rateId", &self.rate_id)?;
        out.serialize_field("required", &Plain(self.required))?;
        out.serialize_field("limit", &Plain(self.limit))?;
        out.serialize_field("toAmount", &self.to_amount.map(Plain))?;
        out.end()
    }
}

/// No ExactOut route is left because every candidate's order amount (its
/// required input, rounded up to 8 places and then to the from asset's
/// decimals) lies outside its rate's `[min, effective max]` (ruling 34).
///
/// Candidates are the routes whose rate accepted the request's `fromAmount`
/// estimate. `above` is the candidate, among those whose amount is above
/// the max, with the largest `toAmount` that works; `below`, among those
/// below the min, the one with the smallest. The code is
/// `AMOUNT_ABOVE_LIMIT` (with `max`) when only `above` is set,
/// `AMOUNT_BELOW_LIMIT` (with `min`) when only `below` is, and when both
/// are, that of the side whose working `toAmount` is nearer (above on a
/// tie, or when either is unknown).
///
/// # JSON
/// `{"toAmount","toAssetId","fromAssetId","above","below"}`, each side a
/// [`NearestRoute`] or `null`.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct RequiredInputNoRoute {
    /// The request's exact `toAmount`.
    pub to_amount: Decimal,
    /// The to asset (unit of every `toAmount`).
    pub to_asset: AssetId,
    /// The from asset (unit of the required amounts and limits).
    pub from_asset: AssetId,
    /// The nearest candidate whose amount is above its max.
    pub above: Option<NearestRoute>,
    /// The nearest candidate whose amount is below its min.
    pub below: Option<NearestRoute>,
}

impl RequiredInputNoRoute {
    /// The stable code (see the type's documentation).
    pub fn code(&self) -> ErrorCode {
        match (&self.above, &self.below) {
            (None, Some(_)) => ErrorCode::AmountBelowLimit,
            (Some(above), Some(below)) => {
                let over = above.to_amount.and_then(|t| self.to_amount.checked_sub(t));
                let under = below.to_amount.and_then(|t| t.checked_sub(self.to_amount));
                match (over, under) {
                    (Some(over), Some(under)) if over > under => ErrorCode::AmountBelowLimit,
                    _ => ErrorCode::AmountAboveLimit,
                }
            }
            _ => ErrorCode::AmountAboveLimit,
        }
    }

    /// The min to report: the `below` side's.
    pub fn min(&self) -> Option<Decimal> {
        self.below.as_ref().map(|side| side.limit)
    }

    /// The max to report: the `above` side's.
    pub fn max(&self) -> Option<Decimal> {
        self.above.as_ref().map(|side| side.limit)
    }

    /// The error the service answers with, keeping [`min`](Self::min) and
    /// [`max`](Self::max).
    pub fn to_api_error(&self) -> ApiError {
        ApiError::new(self.code(), alloc::format!("{self}")).with_limits(self.min(), self.max())
    }
}

impl fmt::Display for RequiredInputNoRoute {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (to, from, amount) = (&self.to_asset, &self.from_asset, self.to_amount);
        write!(f, "toAmount {amount} {to} ")?;
        match (&self.above, &self.below) {
            (Some(above), None) => write!(
                f,
                "needs more than every route's maximum: the nearest route needs {} {from}, above its maximum {} {from}",
                above.required, above.limit
            )?,
            (None, Some(below)) => write!(
                f,
                "needs less than every route's minimum: the nearest route needs {} {from}, below its minimum {} {from}",
                below.required, below.limit
            )?,
            (Some(above), Some(below)) => write!(
                f,
                "falls between routes: the nearest route below needs {} {from}, above its maximum {} {from}; the nearest route above needs {} {from}, below its minimum {} {from}",
                above.required, above.limit, below.required, below.limit
            )?,
            (None, None) => f.write_str("has no route")?,
        }
        if let Some(largest) = self.above.as_ref().and_then(|side| side.to_amount) {
            write!(f, "; the largest toAmount that works is {largest} {to}")?;
        }
        if let Some(smallest) = self.below.as_ref().and_then(|side| side.to_amount) {
            write!(f, "; the smallest toAmount that works is {smallest} {to}")?;
        }
        Ok(())
    }
}

impl core::error::Error for RequiredInputNoRoute {}

impl Serialize for RequiredInputNoRoute {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut out = serializer.serialize_struct("RequiredInputNoRoute", 5)?;
        out.serialize_field("toAmount", &Plain(self.to_amount))?;
        out.serialize_field("toAssetId", &self.to_asset)?;
        out.serialize_field("fromAssetId", &self.from_asset)?;
        out.serialize_field("above", &self.above)?;
        out.serialize_field("below", &self.below)?;
        out.end()
    }
}

/// The amount grids of an ExactOut plan: an order amount has `from` places
/// (the from asset's decimals, at most 8: the required input is rounded up
/// to 8 places, then to the asset's), a `toAmount` has `to` places (the to
/// asset's decimals, else 8; at most 28).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Grids {
    pub(crate) from: u32,
    pub(crate) to: u32,
}

/// Builds a [`RequiredInputNoRoute`] from the candidates that failed.
#[derive(Debug)]
pub(crate) struct Collector {
    error: RequiredInputNoRoute,
    grids: Grids,
}

impl Collector {
    pub(crate) fn new(to_amount: Decimal, from: AssetId, to: AssetId, grids: Grids) -> Self {
        Collector {
            error: RequiredInputNoRoute {
                to_amount,
                to_asset: to,
                from_asset: from,
                above: None,
                below: None,
            },
            grids,
        }
    }

    /// `rate`'s order amount `required` failed `check`.
    pub(crate) fn failed(
        &mut self,
        rate: &Rate,
        required: Decimal,
        max: Decimal,
        check: LimitCheck,
    ) {
        let grids = self.grids;
        match check {
            LimitCheck::Within => {}
            LimitCheck::AboveMax { max: limit } => {
                let side = NearestRoute {
                    rate_id: rate.id().clone(),
                    required,
                    limit,
                    to_amount: largest_to_amount(rate, rate.min(), max, grids),
                };
                // The largest working toAmount wins; one that works beats none;
                // without either, the largest max.
                let better = self.error.above.as_ref().is_none_or(|best| {
                    match (side.to_amount, best.to_amount) {
                        (Some(new), Some(old)) => new > old,
                        (Some(_), None) => true,
                        (None, Some(_)) => false,
                        (None, None) => side.limit > best.limit,
                    }
                });
                if better {
                    self.error.above = Some(side);
                }
            }
            LimitCheck::BelowMin { min: limit } => {
                let side = NearestRoute {
                    rate_id: rate.id().clone(),
                    required,
                    limit,
                    to_amount: smallest_to_amount(rate, limit, max, grids),
                };
                let better = self.error.below.as_ref().is_none_or(|best| {
                    match (side.to_amount, best.to_amount) {
                        (Some(new), Some(old)) => new < old,
                        (Some(_), None) => true,
                        (None, Some(_)) => false,
                        (None, None) => side.limit < best.limit,
                    }
                });
                if better {
                    self.error.below = Some(side);
                }
            }
        }
    }

    /// The error, when some candidate failed.
    pub(crate) fn finish(self) -> Option<RequiredInputNoRoute> {
        (self.error.above.is_some() || self.error.below.is_some()).then_some(self.error)
    }
}

/// The order amount of a `toAmount` `t` on a rate is `a(t) = ⌈(t + fee) /
/// m⌉` on the from grid `g` (rounding up to 8 places and then to the
/// asset's decimals is rounding up to the coarser grid once). `a(t) ≤ M`
/// for `M = ⌊max⌋_g` exactly when `t ≤ M × m − fee`, and `a(t) ≥ min`
/// exactly when `a(t) ≥ L = ⌈min⌉_g`, that is when `t > (L − g) × m − fee`.
/// The working `toAmount`s of the rate are the to-grid amounts in
/// `[lo, hi]`, `hi = ⌊M × m − fee⌋_h`, `lo = max(h, ⌊(L − g) × m − fee⌋_h
/// + h)`; `None` when that range is empty or a value cannot be held.
fn range(rate: &Rate, min: Decimal, max: Decimal, grids: Grids) -> Option<(Decimal, Decimal)> {
    let g = Decimal::new(1, grids.from);
    let h = Decimal::new(1, grids.to);
    let upper = max.round_dp_with_strategy(grids.from, RoundingStrategy::ToNegativeInfinity);
    let lower = min.round_dp_with_strategy(grids.from, RoundingStrategy::ToPositiveInfinity);
    let hi = floor_net(upper, rate, grids.to)?;
    let below = lower.checked_sub(g)?;
    let lo = if below <= Decimal::ZERO {
        h
    } else {
        floor_net(below, rate, grids.to)?.checked_add(h)?.max(h)
    };
    (lo <= hi).then_some((lo, hi))
}

fn largest_to_amount(rate: &Rate, min: Decimal, max: Decimal, grids: Grids) -> Option<Decimal> {
    range(rate, min, max, grids).map(|(_, hi)| hi.normalize())
}

fn smallest_to_amount(rate: &Rate, min: Decimal, max: Decimal, grids: Grids) -> Option<Decimal> {
    range(rate, min, max, grids).map(|(lo, _)| lo.normalize())
}

/// `⌊x × multiplier − fee⌋` at `places` decimal places, exactly (zero when
/// the value is not positive); `None` when it does not fit a `Decimal`.
fn floor_net(x: Decimal, rate: &Rate, places: u32) -> Option<Decimal> {
    let (m, fee) = (rate.multiplier(), rate.miner_fee());
    let product_scale = x.scale().checked_add(m.scale())?;
    let scale = product_scale.max(fee.scale()).max(places);
    let product = Wide::from_u128(x.mantissa().unsigned_abs())
        .mul_u128(m.mantissa().unsigned_abs())?
        .scaled(scale.checked_sub(product_scale)?)?;
    let fee = Wide::at_scale(fee, scale)?;
    if product <= fee {
        return Some(Decimal::ZERO);
    }
    let mut value = product.sub(fee)?;
    for _ in places..scale {
        value = value.div10()?.0;
    }
    let mantissa = value.to_u128().filter(|&v| v <= MAX_MANTISSA)?;
    if places > MAX_PLACES {
        return None;
    }
    Decimal::try_from_i128_with_scale(i128::try_from(mantissa).ok()?, places).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rate::RateTerms;
    use crate::{rate::PairId, time::EpochMillis};

    fn d(text: &str) -> Decimal {
        text.parse().unwrap()
    }

    fn rate(multiplier: &str, fee: &str) -> Rate {
        let terms = RateTerms {
            multiplier: d(multiplier),
            miner_fee: d(fee),
            min: Decimal::ZERO,
            max: Decimal::MAX,
        };
        let id = RateId::new("r").unwrap();
        let pair = PairId::new("BTC_ETH").unwrap();
        Rate::new(id, pair, terms, EpochMillis::new(4_102_444_800_000))
    }

    #[test]
    fn the_working_to_amounts_are_worked_out_by_hand() {
        // m = 33.2, fee = 0.00215; limits [0.01, 3.5] at 8 places:
        // hi = ⌊3.5 × 33.2 − 0.00215⌋₈ = 116.19785;
        // lo = ⌊0.00999999 × 33.2 − 0.00215⌋₈ + 10^-8
        //    = ⌊0.329849668⌋₈ + 0.00000001 = 0.32984967.
        let r = rate("33.2", "0.00215");
        let grids = Grids { from: 8, to: 8 };
        assert_eq!(
            range(&r, d("0.01"), d("3.5"), grids),
            Some((d("0.32984967"), d("116.19785")))
        );
        // From asset with 0 decimals, max 10.5, min 10.2: M = 10, L = 11,
        // nothing fits.
        let grids = Grids { from: 0, to: 8 };
        assert_eq!(range(&r, d("10.2"), d("10.5"), grids), None);
        // min 0: every positive toAmount up to hi.
        assert_eq!(
            range(&r, d("0"), d("10.5"), grids).map(|(lo, _)| lo),
            Some(d("0.00000001"))
        );
    }
}
