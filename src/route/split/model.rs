//! The split search's model of a rate and of a set (module documentation
//! in `mod.rs`): a candidate's limits on the legs' grid and its bounds at
//! the bounds' scale, the relaxed pour that bounds a set, the pour order and
//! ruling 39's order of sets. A rate's exact interval is read from the one
//! model of a rate over amounts (`rules/served.rs`, `AmountModel`).

use alloc::vec::Vec;
use core::cmp::Ordering;

use rust_decimal::Decimal;

use alloc::string::ToString;
use serde::ser::SerializeStruct;
use serde::{Serialize, Serializer};

use crate::numeric::Wide;
use crate::rate::prepared::USABLE;
use crate::rate::Rate;
use crate::route::rules::eligibility::admit;
use crate::route::rules::order::tie_order;
use crate::route::RouteRequest;
use crate::swap_mode::SwapMode;

/// Amounts are 8-place: `10^8` units make one.
pub(super) const UNIT: i128 = 100_000_000;
/// The scale of the bounds when the numbers have no more places (or finer
/// bounds would not fit an `i128`); see [`bounds_scale`].
pub(super) const BOUND_SCALE: u32 = 18;
/// The finest scale of the bounds: every multiplier and fee is exact at it.
pub(super) const FINEST_SCALE: u32 = 28;
/// The scale at which every exact value (`x × m − fee`, 8 + 28 places) is an integer.
pub(super) const VALUE_SCALE: u32 = 36;
/// A bound that cannot be computed: never prunes.
pub(super) const UNBOUNDED: i128 = i128::MAX / 8;
/// The rates tried for the first split.
pub(super) const SEED: usize = 4;
/// What an exact evaluation costs against one bounded set.
pub(super) const EVALUATION_UNITS: u64 = 16;

/// The split search's work limit for `n` rates, in units (a set bounded is
/// one, a set evaluated exactly 16 more): `64 n + 2^18`.
/// Past it, `RouteRequest::split` answers `SplitError::TooMuchWork`
/// (`SEARCH_EXHAUSTED`).
pub const fn split_work_limit(n: usize) -> u64 {
    (n as u64).saturating_mul(64).saturating_add(1 << 18)
}

/// What the search is asked: the split policy's parts it reads.
pub(super) struct Asked {
    /// The most legs (2 or 3).
    pub(super) legs: usize,
    /// The cost of each order after the first.
    pub(super) cost: Decimal,
    /// The legs' places (`min(8, decimals)`).
    pub(super) places: u32,
    /// The legs' grid step in 8-place units.
    pub(super) step: i128,
    /// The first walk's allowance, when a test sets it.
    pub(super) first_work: Option<u64>,
}

/// The search ran out of its last allowance of `limit` units.
#[derive(Clone, Copy, Debug)]
pub(super) struct Exhausted {
    pub(super) limit: u64,
}

/// Why a leg stops where it does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SplitStop {
    /// At its rate's (effective) max, on the 8-place grid.
    Max,
    /// Where the amount ran out: the remainder, or its lowest usable amount
    /// when nothing was left for it.
    Remainder,
}

impl SplitStop {
    /// `"max"` or `"remainder"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            SplitStop::Max => "max",
            SplitStop::Remainder => "remainder",
        }
    }
}

/// One order of a split.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SplitLeg<'r> {
    pub(super) rate: &'r Rate,
    pub(super) from_amount: Decimal,
    pub(super) net_output: Decimal,
    pub(super) stop: SplitStop,
}

impl<'r> SplitLeg<'r> {
    /// The leg's rate.
    pub fn rate(&self) -> &'r Rate {
        self.rate
    }

    /// The leg's `fromAmount`, with 8 places.
    pub fn from_amount(&self) -> Decimal {
        self.from_amount
    }

    /// `fromAmount × multiplier − minerFee`, exact.
    pub fn net_output(&self) -> Decimal {
        self.net_output
    }

    /// Why it stops there.
    pub fn stop(&self) -> SplitStop {
        self.stop
    }
}

impl Serialize for SplitLeg<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut out = serializer.serialize_struct("SplitLeg", 4)?;
        out.serialize_field("rateId", self.rate.id().as_str())?;
        out.serialize_field("fromAmount", &self.from_amount.to_string())?;
        out.serialize_field("netOutput", &self.net_output.normalize().to_string())?;
        out.serialize_field("stop", self.stop.as_str())?;
        out.end()
    }
}

/// What the search did: sets whose bound was computed, sets evaluated exactly.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SplitWork {
    /// Candidate sets whose bound (or limits) were looked at.
    pub bounded: u64,
    /// Candidate sets evaluated exactly.
    pub evaluated: u64,
    /// When the Lagrangian walk ran out of work: the rates left by the
    /// dominance pass, walked again (`None`: not needed).
    pub reduced: Option<usize>,
}

/// A rate that may be a leg, with its limits on the grid and its bound.
#[derive(Clone, Copy, Debug)]
pub(super) struct Candidate<'r> {
    pub(super) rate: &'r Rate,
    /// The rate's multiplier and fee, copied once (the later passes read
    /// the candidates, not the rates).
    pub(super) m: Decimal,
    pub(super) fee: Decimal,
    /// `ceil8(min)`, at least one unit: at most the exact lower end.
    pub(super) lo: i128,
    /// `floor8(effective max)`, below `A`: at least the exact upper end.
    pub(super) hi: i128,
    /// The multiplier at the bounds' scale, rounded up (`-1`: too large).
    pub(super) m_up: i128,
    /// The multiplier at the bounds' scale, rounded down (`-1`: too large).
    pub(super) m_down: i128,
    /// The fee at the bounds' scale, rounded down (`0` when too large:
    /// still a bound).
    pub(super) fee_down: i128,
    /// The bound `g(λ)` at the bounds' scale, rounded up.
    pub(super) score: i128,
    /// The exact interval, once computed.
    pub(super) known: Known,
}

/// A set evaluated: legs in pour order, the objective `Σ net + c·(3 − k)`.
#[derive(Clone, Debug)]
pub(super) struct Found<'r> {
    pub(super) legs: Vec<SplitLeg<'r>>,
    pub(super) objective: Wide,
    /// The multiplier of the last leg that took more than its lower end.
    pub(super) marginal: Decimal,
}

/// A rate's exact interval: not yet computed, none, or its ends.
#[derive(Clone, Copy, Debug)]
pub(super) enum Known {
    Unknown,
    Empty,
    Interval(i128, i128),
}

/// `10^20`: from 8-place units to 28-place ones.
const TO_28: u128 = 100_000_000_000_000_000_000;

/// Admitted at `now` for ExactIn (ruling 5's first steps, `admit`): a rate
/// whose prepared form is [`USABLE`] has no defect, so only its expiry is
/// read; any other goes through `admit` itself.
fn admitted(request: &RouteRequest<'_>, rate: &Rate) -> bool {
    if rate.prepared().has(USABLE) {
        !rate.is_expired_at(request.now())
    } else {
        admit(rate, request.now(), SwapMode::ExactIn).is_ok()
    }
}

/// `false` when no rate can serve the whole amount (`total`, 8-place units)
/// as a single route: none is admitted with `min ≤ total ≤ max` (the
/// effective max of a sponsored rate is at most its max). A necessary
/// condition of the engine's `check`, read from the prepared integers (one
/// pass, stopping at the first rate that may serve); `true` when it cannot
/// be decided that way.
pub(super) fn may_serve_whole(request: &RouteRequest<'_>, rates: &[Rate], total: i128) -> bool {
    let Some(total28) = u128::try_from(total)
        .ok()
        .and_then(|t| t.checked_mul(TO_28))
    else {
        return true;
    };
    rates.iter().any(|rate| {
        let p = rate.prepared();
        p.min28 <= total28 && total28 <= p.max28 && admitted(request, rate)
    })
}

/// Step 1 for one rate: admitted, not refused by the price guard, its
/// limits on the legs' grid (`step`, 8-place units): `lo` from the min up,
/// at least one step; `hi` from the effective max down, leaving at least
/// one step of `total` to the others.
pub(super) fn candidate<'r>(
    request: &RouteRequest<'_>,
    rate: &'r Rate,
    total: i128,
    step: i128,
) -> Option<Candidate<'r>> {
    if !admitted(request, rate) {
        return None;
    }
    // A rate the guard refuses serves no leg (ruling 41).
    if request
        .price_guard()
        .is_some_and(|g| g.outlier(rate).is_some())
    {
        return None;
    }
    let p = rate.prepared();
    let (lo, hi) = if rate.is_sponsored() && !request.campaigns().is_empty() {
        let max = rate.effective_max(request.campaigns());
        if max < rate.min() {
            return None;
        }
        (grid(rate.min(), true)?, grid(max, false)?)
    } else {
        // The limits on the 8-place grid: a multiplication for limits of
        // at most 8 places (the usual case), else from the 28-place
        // integers (saturating) by one division each.
        let on_grid = |limit: Decimal, at28: u128, up: bool| {
            if limit.scale() <= 8 {
                grid(limit, up)
            } else {
                let units = if up {
                    at28.div_ceil(TO_28)
                } else {
                    at28 / TO_28
                };
                Some(i128::try_from(units).unwrap_or(i128::MAX))
            }
        };
        (
            on_grid(rate.min(), p.min28, true)?,
            on_grid(rate.max(), p.max28, false)?,
        )
    };
    // On the legs' grid: `lo` up, `hi` down (no division on the 8-place
    // grid itself).
    let (lo, hi) = if step == 1 {
        (lo, hi.min(total.checked_sub(1)?))
    } else {
        let lo = lo
            .checked_add(step.checked_sub(1)?)?
            .checked_div(step)?
            .checked_mul(step)?;
        let hi = hi.min(total.checked_sub(step)?);
        (lo, hi.checked_div_euclid(step)?.checked_mul(step)?)
    };
    let lo = lo.max(step);
    if lo > hi {
        return None;
    }
    Some(Candidate {
        rate,
        m: rate.multiplier(),
        fee: rate.miner_fee(),
        lo,
        hi,
        // Set at the search's scale, once it is known.
        m_up: 0,
        m_down: 0,
        fee_down: 0,
        score: 0,
        known: Known::Unknown,
    })
}

/// The pour order: descending multiplier, then ruling 7.
pub(super) fn pour_order(a: &Rate, b: &Rate) -> Ordering {
    b.multiplier()
        .cmp(&a.multiplier())
        .then_with(|| tie_order(a, b))
}

/// Ruling 39's order of two evaluated sets: higher objective, then fewer
/// legs (the incumbent single route counts as one), then the legs' rates
/// listed in ruling 7's order, compared one by one.
pub(super) fn before(a: &Found<'_>, b: &Found<'_>) -> Ordering {
    let count = |f: &Found<'_>| f.legs.len().max(1);
    b.objective
        .cmp(&a.objective)
        .then_with(|| count(a).cmp(&count(b)))
        .then_with(|| {
            if a.legs.is_empty() || b.legs.is_empty() {
                // The single route wins ties against a split of one... never
                // reached: a split has at least two legs.
                return b.legs.len().cmp(&a.legs.len());
            }
            set_order(a.legs.iter().map(|l| l.rate), b.legs.iter().map(|l| l.rate))
        })
}

/// Ruling 39's last tie-break between two sets of at most 3 rates (of as
/// many legs): each set's rates listed in ruling 7's order, compared one by
/// one.
pub(super) fn set_order<'a>(
    a: impl Iterator<Item = &'a Rate>,
    b: impl Iterator<Item = &'a Rate>,
) -> Ordering {
    pub(super) fn in_order<'a>(rates: impl Iterator<Item = &'a Rate>) -> [Option<&'a Rate>; 3] {
        let mut listed: [Option<&'a Rate>; 3] = [None; 3];
        for (slot, rate) in listed.iter_mut().zip(rates) {
            *slot = Some(rate);
        }
        // The rates in ruling 7's order, the empty slots after them.
        listed.sort_by(|x, y| match (x, y) {
            (Some(x), Some(y)) => tie_order(x, y),
            _ => y.is_some().cmp(&x.is_some()),
        });
        listed
    }
    in_order(a)
        .iter()
        .zip(&in_order(b))
        .map(|(x, y)| match (x, y) {
            (Some(x), Some(y)) => tie_order(x, y),
            _ => Ordering::Equal,
        })
        .find(|o| o.is_ne())
        .unwrap_or(Ordering::Equal)
}

/// The most a set can yield over its relaxed limits (`lo` from the min,
/// `hi` from the max: a wider range than the exact one), at the bounds'
/// scale + 8 places, from the multipliers rounded up and the fees and the
/// per-order `cost` rounded down: the pour by those multipliers. `None` on
/// overflow (no pruning).
pub(super) fn relaxed_value(
    chosen: &[(usize, Option<Candidate<'_>>)],
    total: i128,
    cost: i128,
) -> Option<i128> {
    let mut legs: [(i128, i128, i128, i128); 3] = [(0, 0, 0, 0); 3];
    let mut left = total;
    for (slot, (_, c)) in legs.iter_mut().zip(chosen) {
        let c = c.as_ref()?;
        if c.m_up < 0 {
            return None;
        }
        *slot = (c.m_up, c.lo, c.hi, c.fee_down);
        left = left.checked_sub(c.lo)?;
    }
    let legs = legs.get(..chosen.len())?;
    let mut order = [0usize, 1, 2];
    let order = order.get_mut(..legs.len())?;
    order.sort_by(|&a, &b| match (legs.get(a), legs.get(b)) {
        (Some(x), Some(y)) => y.0.cmp(&x.0),
        _ => Ordering::Equal,
    });
    // At the bounds' scale + 8 places: no division on this path.
    let mut value: i128 = 0;
    for &at in order.iter() {
        let &(m, lo, hi, fee) = legs.get(at)?;
        let take = hi.checked_sub(lo)?.max(0).min(left);
        left = left.checked_sub(take)?;
        let x = lo.checked_add(take)?;
        value = value
            .checked_add(m.checked_mul(x)?)?
            .checked_sub(fee.checked_mul(UNIT)?)?;
    }
    let orders = i128::try_from(legs.len()).ok()?.checked_sub(1)?;
    value.checked_sub(cost.checked_mul(orders)?.checked_mul(UNIT)?)
}

/// `g(λ)` at the bounds' scale, rounded up: the most a rate can add over `λ` per
/// unit, `(m − λ) × (hi or lo) − fee`.
pub(super) fn score(c: &Candidate<'_>, lambda: i128) -> i128 {
    (|| {
        if c.m_up < 0 {
            return None;
        }
        let d = c.m_up.checked_sub(lambda)?;
        let y = if d >= 0 { c.hi } else { c.lo };
        let gross = ceil_div(d.checked_mul(y)?, UNIT)?;
        gross.checked_sub(c.fee_down)
    })()
    .unwrap_or(UNBOUNDED)
}

/// The most two rates can add over `λ` when together they hold at most
/// `cap` (8-place units), at the bounds' scale rounded up: both at `lo`, then the
/// rest poured into those above `λ` (the higher `m − λ` first) up to `hi`;
/// [`UNBOUNDED`] when it cannot be computed, and far below any bound when
/// their lows alone exceed `cap` (no third leg fits).
pub(super) fn pair_cap(a: &Candidate<'_>, b: &Candidate<'_>, lambda: i128, cap: i128) -> i128 {
    (|| {
        if a.m_up < 0 || b.m_up < 0 {
            return None;
        }
        let (da, db) = (a.m_up.checked_sub(lambda)?, b.m_up.checked_sub(lambda)?);
        let mut left = cap.checked_sub(a.lo)?.checked_sub(b.lo)?;
        if left < 0 {
            return Some(i128::MIN / 8);
        }
        let (first, second) = if da >= db {
            ((a, da), (b, db))
        } else {
            ((b, db), (a, da))
        };
        let mut total = 0i128;
        for (c, d) in [first, second] {
            let mut x = c.lo;
            if d > 0 {
                let take = c.hi.checked_sub(c.lo)?.max(0).min(left);
                left = left.checked_sub(take)?;
                x = x.checked_add(take)?;
            }
            let gross = ceil_div(d.checked_mul(x)?, UNIT)?;
            total = total.checked_add(gross.checked_sub(c.fee_down)?)?;
        }
        Some(total)
    })()
    .unwrap_or(UNBOUNDED)
}

/// `a / b` rounded toward +∞, for `b > 0`.
pub(super) fn ceil_div(a: i128, b: i128) -> Option<i128> {
    let q = a.checked_div_euclid(b)?;
    if a.checked_rem_euclid(b)? == 0 {
        Some(q)
    } else {
        q.checked_add(1)
    }
}

/// A non-negative `value` at `scale` places, rounded up or down.
pub(super) fn bound_units(value: Decimal, scale: u32, up: bool) -> Option<i128> {
    scaled(value, scale, up)
}

/// The scale of the search's bounds: 18 places, or as many more (up to 28)
/// as the multipliers, fees and `cost` have, when the largest products the
/// bounds form (`m × A` at that scale and 8 more places, with room for
/// three legs' sums) still fit an `i128`. At a scale every number is exact
/// at, sets of equal value have equal bounds, and ruling 39's tie order
/// decides them in the walk: multipliers that differ past the 18th place
/// are told apart without evaluating every set.
pub(super) fn bounds_scale(candidates: &[Candidate<'_>], total: i128, cost: Decimal) -> u32 {
    // The larger of two values: their mantissas compared when the scales
    // agree (the usual book: one scale), else `Decimal`'s comparison.
    let larger = |a: Decimal, b: Decimal| {
        if a.scale() == b.scale() {
            if b.mantissa() > a.mantissa() {
                b
            } else {
                a
            }
        } else {
            a.max(b)
        }
    };
    let mut places = cost.scale();
    let mut largest = cost;
    for c in candidates {
        let (m, fee) = (c.m, c.fee);
        places = places.max(m.scale()).max(fee.scale());
        largest = larger(larger(largest, m), fee);
    }
    // The ceiling is monotone: the largest ceiling is the largest's.
    let largest = largest.ceil();
    let fits = |scale: u32| {
        (|| {
            let unit = i128::try_from(crate::numeric::pow10(scale)?).ok()?;
            // Above every product of the walk: (m or fee) × 10^scale × (A or
            // one unit), times 16 for sums of legs and their rounding.
            let top = i128::try_from(largest.mantissa().unsigned_abs())
                .ok()?
                .checked_add(1)?;
            top.checked_mul(unit)?
                .checked_mul(total.max(UNIT))?
                .checked_mul(16)
        })()
        .is_some()
    };
    let mut scale = places.clamp(BOUND_SCALE, FINEST_SCALE);
    while scale > BOUND_SCALE && !fits(scale) {
        scale = scale.saturating_sub(1);
    }
    scale
}

/// A non-negative `value` on the 8-place grid, rounded up or down.
pub(super) fn grid(value: Decimal, up: bool) -> Option<i128> {
    scaled(value, 8, up)
}

pub(super) fn scaled(value: Decimal, places: u32, up: bool) -> Option<i128> {
    let mantissa = value.mantissa();
    let scale = value.scale();
    if scale <= places {
        let mul = i128::try_from(crate::numeric::pow10(places.checked_sub(scale)?)?).ok()?;
        mantissa.checked_mul(mul)
    } else {
        let div = i128::try_from(crate::numeric::pow10(scale.checked_sub(places)?)?).ok()?;
        if up {
            ceil_div(mantissa, div)
        } else {
            mantissa.checked_div_euclid(div)
        }
    }
}

/// `amount` in 8-place units when it lies on that grid.
pub(super) fn grid_units(amount: Decimal) -> Option<i128> {
    let down = grid(amount, false)?;
    (grid(amount, true)? == down).then_some(down)
}

#[cfg(test)]
mod tests {
    use alloc::vec::Vec;

    use rust_decimal::Decimal;

    use super::{bounds_scale, Candidate, Known, UNIT};
    use crate::rate::{Rate, RateTerms};
    use crate::{ids::RateId, rate::PairId, time::EpochMillis};

    fn rate(multiplier: &str, fee: &str) -> Rate {
        Rate::new(
            RateId::new("r").unwrap(),
            PairId::new("BTC_ETH").unwrap(),
            RateTerms {
                multiplier: multiplier.parse().unwrap(),
                miner_fee: fee.parse().unwrap(),
                min: Decimal::ONE,
                max: Decimal::TEN,
            },
            EpochMillis::new(4_102_444_800_000),
        )
    }

    fn scale_of(rates: &[Rate], total: i128, cost: &str) -> u32 {
        let candidates: Vec<Candidate<'_>> = rates
            .iter()
            .map(|rate| Candidate {
                rate,
                m: rate.multiplier(),
                fee: rate.miner_fee(),
                lo: 1,
                hi: 1,
                m_up: -1,
                m_down: -1,
                fee_down: 0,
                score: 0,
                known: Known::Unknown,
            })
            .collect();
        bounds_scale(&candidates, total, cost.parse().unwrap())
    }

    #[test]
    fn bounds_keep_the_numbers_places_while_the_products_fit() {
        let ten = 10 * UNIT;
        // Two places: 18, the least scale.
        assert_eq!(scale_of(&[rate("30.25", "0.01")], ten, "0"), 18);
        // 23 places (the multiplier): (30 + 1) × 10^23 × 10^9 × 16 =
        // 4.96 × 10^33 fits an i128 (1.7 × 10^38): 23.
        let fine = rate("30.00000000000000000000001", "0.1");
        assert_eq!(scale_of(&[fine], ten, "0"), 23);
        // 28 places: 31 × 10^28 × 10^9 × 16 ≈ 5.0 × 10^39 and 31 × 10^27 ×
        // 10^9 × 16 ≈ 5.0 × 10^38 do not fit; 31 × 10^26 × 10^9 × 16 ≈
        // 5.0 × 10^37 does: 26.
        let finest = rate("30.0000000000000000000000000001", "0.1");
        assert_eq!(scale_of(core::slice::from_ref(&finest), ten, "0"), 26);
        // An amount of 0.1 (10^7 units, counted as one unit, 10^8):
        // 31 × 10^28 × 10^8 × 16 ≈ 5.0 × 10^38 does not fit, × 10^27 does.
        assert_eq!(scale_of(&[finest], UNIT / 10, "0"), 27);
        // The fee's and the cost's places count too, and the largest
        // number bounds the products: a fee of 10^6 at 22 places:
        // (10^6 + 1) × 10^22 × 10^9 × 16 ≈ 1.6 × 10^38 fits: 22.
        let big_fee = rate("30", "1000000.0000000000000000000001");
        assert_eq!(scale_of(&[big_fee], ten, "0"), 22);
        assert_eq!(
            scale_of(&[rate("30", "0.1")], ten, "0.000000000000000000001"),
            21
        );
        // Products that do not fit even at 18 places (10^21 × 10^18 × ...):
        // still 18, never fewer (the bound of such a rate is unbounded).
        let huge = rate("1000000000000000000000.1", "0");
        assert_eq!(scale_of(&[huge], ten, "0"), 18);
    }
}
