//! One model of a rate over amounts (ruling 41 in docs/RULES.md): the
//! interval of amounts a rate serves under a request's whole policy, on a
//! grid of given places.
//!
//! A rate serves an amount when the engine's own eligibility check
//! ([`check`]) passes there: rulings 2-5, 18, 30, the floors, the price
//! guard, and in ExactOut ruling 34's limits on the required input. For one
//! rate every condition is monotone in the amount: the limits bound it from
//! both sides, the net output `x × multiplier − minerFee` and every floor
//! only get easier as the amount grows, the guard does not depend on it,
//! and in ExactOut the required input grows with the amount. So each rate
//! serves one interval of the grid, found with a handful of exact checks:
//! its ends come from the limits (ExactIn) or the largest amount whose
//! required input is within the max (ExactOut), and the smallest working
//! amount from a first guess (the thresholds divided out in `Decimal`) that
//! a gallop and a bisection correct with the exact check.
//!
//! Every question over amounts reads this model: the amounts that work
//! ([`FeasibleQuery`](crate::route::FeasibleQuery)), the amounts a "no route"
//! names, a split's legs, the voters of a median price guard (ruling 42).

use rust_decimal::Decimal;

use super::eligibility::{admit, check};
use super::required_input::required_input;
use crate::decimal::Amount;
use crate::numeric::{least_cover8, pow10, MAX_MANTISSA};
use crate::rate::Rate;
use crate::route::bisect::{least, narrow};
use crate::route::{Policy, PriceGuard, PriceReference, RejectReason, RouteRequest};
use crate::swap_mode::SwapMode;
use crate::time::EpochMillis;

/// The places amounts have when no asset decimals are given.
pub(crate) const PLACES: u32 = 8;

/// The largest grid mantissa: a `Decimal`'s.
#[allow(clippy::cast_possible_wrap)]
pub(crate) const TOP: i128 = MAX_MANTISSA as i128;

/// Which amounts rates serve: the mode, the time, the policy, the grids.
#[derive(Clone, Copy, Debug)]
pub(crate) struct AmountModel<'c> {
    pub(crate) mode: SwapMode,
    pub(crate) now: EpochMillis,
    pub(crate) policy: Policy<'c>,
    /// The places of ExactIn amounts and of ExactOut required inputs.
    pub(crate) from_places: u32,
    /// The places of ExactOut amounts.
    pub(crate) to_places: u32,
}

impl<'c> AmountModel<'c> {
    /// The model on the 8-place grids.
    pub(crate) fn new(mode: SwapMode, now: EpochMillis, policy: Policy<'c>) -> Self {
        AmountModel {
            mode,
            now,
            policy,
            from_places: PLACES,
            to_places: PLACES,
        }
    }

    /// The places of the amounts asked about.
    pub(crate) fn places(&self) -> u32 {
        match self.mode {
            SwapMode::ExactIn => self.from_places,
            SwapMode::ExactOut => self.to_places,
        }
    }

    /// The grid interval (mantissas at the mode's places) `rate`
    /// serves, or `None` when it serves no amount.
    pub(crate) fn interval(&self, rate: &Rate) -> Option<(i128, i128)> {
        let effective_max = self.limits(rate)?;
        match self.mode {
            SwapMode::ExactIn => self.interval_in(rate, effective_max),
            SwapMode::ExactOut => self.interval_out(rate, effective_max),
        }
    }

    pub(crate) fn interval_in(&self, rate: &Rate, effective_max: Decimal) -> Option<(i128, i128)> {
        let (lo, hi) = self.top_in(rate, effective_max)?;
        let works = |x: i128| self.verdict_in(rate, x).is_ok();
        let from = least(
            lo,
            hi,
            self.guess_in(rate, self.from_places).unwrap_or(lo),
            &works,
        )?;
        Some((from, hi))
    }

    /// ExactIn: the grid's low end and the greatest amount served, when
    /// some amount is (the engine's checks only grow easier to pass with
    /// the amount, so the greatest amount that does not overflow decides).
    fn top_in(&self, rate: &Rate, effective_max: Decimal) -> Option<(i128, i128)> {
        let p = self.from_places;
        let lo = grid_ceil(rate.min(), p)?.max(0);
        let mut hi = grid_floor(effective_max, p)?;
        if lo > hi {
            return None;
        }
        let verdict = |x: i128| self.verdict_in(rate, x);
        let overflows = |x: i128| matches!(verdict(x), Err(RejectReason::Overflow));
        // One check at the top decides, unless it overflows.
        let mut at_hi = verdict(hi);
        if matches!(at_hi, Err(RejectReason::Overflow)) {
            if overflows(lo) {
                return None;
            }
            hi = least(lo, hi, lo, &overflows)?.checked_sub(1)?;
            at_hi = verdict(hi);
        }
        at_hi.is_ok().then_some((lo, hi))
    }

    /// Whether `rate` serves some amount under the policy: what
    /// [`interval`](Self::interval) says by being `Some`, without finding
    /// the interval's low end (the bisection it costs). The voters of a
    /// median guard (ruling 42) are the rates for which this holds.
    pub(crate) fn serves_some(&self, rate: &Rate) -> bool {
        self.limits(rate)
            .is_some_and(|effective_max| match self.mode {
                SwapMode::ExactIn => self.top_in(rate, effective_max).is_some(),
                SwapMode::ExactOut => self.top_out(rate, effective_max).is_some(),
            })
    }

    /// The effective max of a rate admitted at `now` in the model's mode
    /// whose limits hold some amount (ruling 30); `None` otherwise.
    fn limits(&self, rate: &Rate) -> Option<Decimal> {
        admit(rate, self.now, self.mode).ok()?;
        let effective_max = rate.effective_max(self.policy.campaigns());
        (effective_max >= rate.min()).then_some(effective_max)
    }

    /// The engine's verdict on `rate` at the ExactIn amount `x` (a mantissa
    /// at the from places).
    pub(crate) fn verdict_in(&self, rate: &Rate, x: i128) -> Result<(), RejectReason> {
        let amount = amount_at(x, self.from_places).ok_or(RejectReason::Overflow)?;
        let request = RouteRequest::exact_in(amount, self.now).with_policy(self.policy);
        check(rate, &request).map(|_| ())
    }

    /// A first guess at the smallest amount every floor admits: for each
    /// condition of the form `x × multiplier ≥ c + fee` (a positive net:
    /// `c = 0`; the dust: `c = dust`; the fee multiple: `c = k × fee`; the
    /// fee share: `x × multiplier × bps ≥ fee × 10000`) its least 8-place
    /// `x`, exactly ([`least_cover8`]), then the largest, up to the grid.
    /// Only a guess: the exact check decides from there.
    pub(crate) fn guess_in(&self, rate: &Rate, p: u32) -> Option<i128> {
        let (m, fee) = (rate.multiplier(), rate.miner_fee());
        let mut x8 = least_cover8(m, Decimal::ZERO, fee)?;
        if let Some(dust) = self.policy.floors().dust() {
            x8 = x8.max(least_cover8(m, dust, fee)?);
        }
        if let Some(k) = self.policy.floors().fee_multiple() {
            x8 = x8.max(least_cover8(m, fee.checked_mul(k)?, fee)?);
        }
        if let Some(bps) = self.policy.floors().max_fee_share_bps().filter(|&b| b > 0) {
            let share = least_cover8(
                m.checked_mul(Decimal::from(bps))?,
                fee.checked_mul(Decimal::from(10_000))?,
                Decimal::ZERO,
            )?;
            x8 = x8.max(share);
        }
        grid_ceil(decimal_at(i128::try_from(x8).ok()?, PLACES)?, p)
    }

    pub(crate) fn interval_out(&self, rate: &Rate, effective_max: Decimal) -> Option<(i128, i128)> {
        let q = self.to_places;
        let top = self.top_out(rate, effective_max)?;
        let works = |y: i128| self.verdict_out(rate, y).is_ok();
        // A first guess at the smallest: the output of the smallest input
        // that meets the min and the floors.
        let guess = grid_ceil(rate.min(), self.from_places)
            .map(|x| x.max(self.guess_in(rate, self.from_places).unwrap_or(x)))
            .and_then(|x| decimal_at(x, self.from_places))
            .and_then(|x| x.checked_mul(rate.multiplier()))
            .and_then(|gross| gross.checked_sub(rate.miner_fee()))
            .and_then(|net| grid_ceil(net, q))
            .map_or(1, |y| y.clamp(1, top));
        let from = least(1, top, guess, &works)?;
        Some((from, top))
    }

    /// ExactOut: the greatest output served, when some output is (the
    /// largest whose required input is within the max, if the engine
    /// accepts it there).
    fn top_out(&self, rate: &Rate, effective_max: Decimal) -> Option<i128> {
        let q = self.to_places;
        let input_fits = |y: i128| {
            self.required_at(rate, y)
                .is_some_and(|input| input <= effective_max)
        };
        if !input_fits(1) {
            return None;
        }
        // The largest output whose required input is within the max:
        // y ≤ floor_places(max) × multiplier − fee, exactly; a guess here.
        let guess = grid_floor(effective_max, self.from_places)
            .and_then(|x| decimal_at(x, self.from_places))
            .and_then(|x| x.checked_mul(rate.multiplier()))
            .and_then(|gross| gross.checked_sub(rate.miner_fee()))
            .and_then(|net| grid_floor(net, q))
            .map_or(1, |y| y.clamp(1, TOP));
        let top = greatest(1, guess, &input_fits)?;
        let works = |y: i128| self.verdict_out(rate, y).is_ok();
        works(top).then_some(top)
    }

    /// The ExactOut order amount for output `y` (a mantissa at the to
    /// places): ruling 34's required input, 8 places, then up to the from
    /// asset's places.
    pub(crate) fn required_at(&self, rate: &Rate, y: i128) -> Option<Decimal> {
        let to = decimal_at(y, self.to_places)?;
        let input = required_input(rate, to)?.get();
        let units = grid_ceil(input, self.from_places)?;
        decimal_at(units, self.from_places)
    }

    /// The engine's verdict on `rate` for the ExactOut output `y`, the
    /// order's amount (the required input) standing as `fromAmount`.
    pub(crate) fn verdict_out(&self, rate: &Rate, y: i128) -> Result<Decimal, RejectReason> {
        let to = amount_at(y, self.to_places).ok_or(RejectReason::Overflow)?;
        let input = self.required_at(rate, y).ok_or(RejectReason::Overflow)?;
        let from = Amount::new(input).map_err(|_| RejectReason::Overflow)?;
        // The floors hold the order's amount: here the required input on
        // the from asset's grid (ruling 38), which the engine's check (at
        // the 8-place required input) cannot know; judged here instead.
        let floors = *self.policy.floors();
        let policy = self.policy.with_floors(super::super::Floors::NONE);
        let request = RouteRequest::exact_out(from, to, self.now).with_policy(policy);
        check(rate, &request)?;
        if !floors.is_none() {
            let net = super::net_output::net_output(rate, input).ok_or(RejectReason::Overflow)?;
            floors.check(rate, input, net)?;
        }
        Ok(input)
    }
}

/// A median guard's reference over `rates` (ruling 42): the exact median
/// multiplier of the rates that can serve some 8-place amount under the
/// rest of `policy` in `mode` at `now`. `None` when `guard` needs no
/// resolving (the caller's reference, or resolved already).
pub(crate) fn resolve_guard(
    guard: &PriceGuard,
    rates: &[Rate],
    mode: SwapMode,
    now: EpochMillis,
    policy: Policy<'_>,
) -> Option<PriceGuard> {
    if !guard.needs_reference() {
        return None;
    }
    Some(guard.with_reference(voters_median(rates, mode, now, policy)))
}

/// The median multiplier of the voters of ruling 42.
pub(crate) fn voters_median(
    rates: &[Rate],
    mode: SwapMode,
    now: EpochMillis,
    policy: Policy<'_>,
) -> Option<PriceReference> {
    let model = AmountModel::new(mode, now, policy.without_price_guard());
    let multipliers = rates
        .iter()
        .filter(|rate| model.serves_some(rate))
        .map(Rate::multiplier)
        .collect();
    PriceReference::median_of_multipliers(multipliers)
}

/// The greatest `x` in `[lo, TOP]` with `fits(x)`, for `fits` true then
/// false and `fits(lo)` known true: `guess` is tried first, then a gallop
/// away from it brackets the answer and a bisection finds it.
pub(crate) fn greatest(lo: i128, guess: i128, fits: &dyn Fn(i128) -> bool) -> Option<i128> {
    // `good` always fits, `bad` never does.
    let guess = guess.clamp(lo, TOP);
    let mut stride: i128 = 1;
    let (good, bad) = if fits(guess) {
        let mut good = guess;
        loop {
            if good == TOP {
                return Some(TOP);
            }
            let probe = good.saturating_add(stride).min(TOP);
            if fits(probe) {
                good = probe;
                stride = stride.saturating_mul(2);
            } else {
                break (good, probe);
            }
        }
    } else {
        let mut bad = guess;
        loop {
            let probe = bad.saturating_sub(stride);
            if probe <= lo {
                break (lo, bad);
            }
            if fits(probe) {
                break (probe, bad);
            }
            bad = probe;
            stride = stride.saturating_mul(2);
        }
    };
    narrow(good, bad, &|x| !fits(x)).map(|(good, _)| good)
}

/// `value` rounded up to `places`, as the mantissa at `places`; capped at
/// the largest `Decimal` mantissa.
pub(crate) fn grid_ceil(value: Decimal, places: u32) -> Option<i128> {
    grid(value, places, true)
}

/// `value` rounded down to `places`, as the mantissa at `places`; capped at
/// the largest `Decimal` mantissa.
pub(crate) fn grid_floor(value: Decimal, places: u32) -> Option<i128> {
    grid(value, places, false)
}

pub(crate) fn grid(value: Decimal, places: u32, up: bool) -> Option<i128> {
    let mantissa = value.mantissa();
    let scale = value.scale();
    let units = if scale >= places {
        let div = i128::try_from(pow10(scale.checked_sub(places)?)?).ok()?;
        let floor = mantissa.div_euclid(div);
        if up && mantissa.rem_euclid(div) != 0 {
            floor.checked_add(1)?
        } else {
            floor
        }
    } else {
        let mul = i128::try_from(pow10(places.checked_sub(scale)?)?).ok()?;
        mantissa.checked_mul(mul).unwrap_or(TOP)
    };
    Some(units.min(TOP))
}

/// The mantissa of `amount` at `places` when it lies on that grid.
pub(crate) fn exact_units(amount: Decimal, places: u32) -> Option<i128> {
    let units = grid_floor(amount, places)?;
    (decimal_at(units, places)? == amount).then_some(units)
}

pub(crate) fn decimal_at(units: i128, places: u32) -> Option<Decimal> {
    Decimal::try_from_i128_with_scale(units, places).ok()
}

pub(crate) fn amount_at(units: i128, places: u32) -> Option<Amount> {
    Amount::new(decimal_at(units, places)?).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::route::rules::fixtures::d;

    #[test]
    fn greatest_finds_the_boundary_from_any_guess() {
        for answer in [1i128, 2, 7, 99, 100, TOP - 1, TOP] {
            for guess in [-5i128, 1, 3, 50, 99, 100, 1000, TOP] {
                let fits = |x: i128| x <= answer;
                assert_eq!(greatest(1, guess, &fits), Some(answer), "{answer} {guess}");
            }
        }
    }

    #[test]
    fn grid_rounds_both_ways() {
        assert_eq!(grid_ceil(d("0.000797871"), 8), Some(79_788));
        assert_eq!(grid_floor(d("0.000797879"), 8), Some(79_787));
        assert_eq!(grid_ceil(d("1.5"), 0), Some(2));
        assert_eq!(grid_floor(d("2"), 2), Some(200));
        assert_eq!(grid_floor(Decimal::MAX, 8), Some(TOP));
        assert_eq!(exact_units(d("0.123"), 2), None);
        assert_eq!(exact_units(d("0.120"), 2), Some(12));
    }

    /// `serves_some` is `interval(..).is_some()`, without the low end: on
    /// a grid of rates (multipliers, fees, limits, expired or not) under
    /// each floor and both modes, with the places of 0-, 2- and 8-decimal
    /// assets.
    #[test]
    fn serves_some_is_whether_an_interval_exists() {
        use crate::decimal::Amount;
        use crate::rate::{PairId, RateTerms};
        use crate::route::{Floors, Policy};
        let values = ["0", "0.00000001", "0.001", "0.5", "1", "3", "1000000"];
        let floors = [
            Floors::NONE,
            Floors::NONE.with_dust(Amount::new(d("2")).unwrap()),
            Floors::NONE.with_fee_multiple(Amount::new(d("10")).unwrap()),
            Floors::NONE.with_max_fee_share_bps(50),
        ];
        let now = EpochMillis::new(1_000);
        let mut seen = [0usize; 2];
        for (n, (m, fee)) in [("30", "0.01"), ("0.00001", "0.5"), ("1", "0"), ("2", "6")]
            .into_iter()
            .enumerate()
        {
            for min in values {
                for max in values {
                    for expiry in [500u64, 5_000] {
                        let rate = Rate::new(
                            crate::ids::RateId::new(&alloc::format!("r{n}")).unwrap(),
                            PairId::new("BTC_ETH").unwrap(),
                            RateTerms {
                                multiplier: d(m),
                                miner_fee: d(fee),
                                min: d(min),
                                max: d(max),
                            },
                            EpochMillis::new(expiry),
                        )
                        .with_exact_out(true);
                        for floor in floors {
                            for mode in [SwapMode::ExactIn, SwapMode::ExactOut] {
                                for places in [0u32, 2, 8] {
                                    let policy = Policy::DEFAULT.with_floors(floor);
                                    let mut model = AmountModel::new(mode, now, policy);
                                    model.from_places = places;
                                    model.to_places = places;
                                    let exists = model.interval(&rate).is_some();
                                    assert_eq!(
                                        model.serves_some(&rate),
                                        exists,
                                        "{m} {fee} [{min}, {max}] {expiry} {floor:?} {mode:?} {places}"
                                    );
                                    seen[usize::from(exists)] += 1;
                                }
                            }
                        }
                    }
                }
            }
        }
        // Both answers are met many times.
        assert!(seen[0] > 100 && seen[1] > 100, "{seen:?}");
    }
}
