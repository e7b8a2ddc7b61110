//! Amounts that work (ruling 38 in docs/RULES.md): for one pair's rates at
//! `now`, every amount some rate serves, as sorted disjoint ranges, with
//! the smallest and largest, and the answers under a spendable balance.
//!
//! # How
//! A rate serves an amount when the engine's own eligibility check
//! ([`check`]) passes: rulings 2-5, 18, 30, the floors, and in ExactOut
//! ruling 34's limits on the required input. For one rate every condition
//! is monotone in the amount: the limits bound it from both sides, the net
//! output `x × multiplier − minerFee` and every floor only get easier as
//! the amount grows, and in ExactOut the required input grows with the
//! amount. So each rate serves one interval of the amount grid, found with
//! a handful of exact checks: its ends come from the limits (ExactIn) or
//! the largest amount whose required input is within the max (ExactOut),
//! and the smallest working amount from a first guess (the thresholds
//! divided out in `Decimal`) that a gallop and a bisection correct with the
//! exact check. Building is `O(n log n)` (the intervals are sorted and
//! merged); [`Feasible::max_within`] finds its amount by one binary search
//! over prefix maxima of the intervals' upper ends.
//!
//! Which rate serves an amount: in ExactIn the one the ranking chooses there
//! (highest net output, then ruling 7's ties); in ExactOut the one with the
//! smallest required input, then ruling 7's ties (the estimator's choice,
//! ruling 8). Naming it scans the rates whose intervals hold the amount.

use alloc::vec::Vec;
use core::cmp::Ordering;

use rust_decimal::Decimal;
use serde::ser::SerializeStruct;
use serde::{Serialize, Serializer};

use super::rules::eligibility::{admit, check};
use super::rules::order::tie_order;
use super::rules::required_input::required_input;
use super::{Floors, NoRoute, RejectReason, RouteRequest};
use crate::decimal::{Amount, Plain};
use crate::numeric::{pow10, MAX_MANTISSA};
use crate::rate::{CampaignLimits, MixedPairs, Rate, RateList, NO_CAMPAIGNS};
use crate::swap_mode::SwapMode;
use crate::time::EpochMillis;

/// The places amounts have when no asset decimals are given.
const PLACES: u32 = 8;

/// The largest grid mantissa: a `Decimal`'s.
#[allow(clippy::cast_possible_wrap)]
const TOP: i128 = MAX_MANTISSA as i128;

/// What to ask: the swap mode, the time, the caller's campaigns and floors,
/// and optionally the assets' decimals (ruling 38).
///
/// ```
/// use swaproute::route::FeasibleQuery;
/// use swaproute::{Amount, EpochMillis, RatesResponse, SwapMode};
/// // ×10, fee 0.5, limits [0.01, 5]: 0.05 yields nothing, 0.05000001 works.
/// let rates: RatesResponse = serde_json::from_str(r#"[{"amount":{"assetId":"ETH","value":10},
///   "expiry":4102444800000,"id":"r","max":{"assetId":"BTC","value":5},
///   "min":{"assetId":"BTC","value":0.01},"minerFee":{"assetId":"ETH","value":0.5},
///   "pairId":"BTC_ETH"}]"#).unwrap();
/// let query = FeasibleQuery::new(SwapMode::ExactIn, EpochMillis::new(1_785_000_000_000));
/// let amounts = query.amounts(&rates).unwrap();
/// assert_eq!(amounts.min().unwrap().amount().to_string(), "0.05000001");
/// assert_eq!(amounts.max().unwrap().amount().to_string(), "5.00000000");
/// let balance = "1.5".parse::<Amount>().unwrap();
/// assert_eq!(amounts.max_within(balance).unwrap().amount().to_string(), "1.50000000");
/// ```
#[derive(Clone, Copy, Debug)]
pub struct FeasibleQuery<'c> {
    mode: SwapMode,
    now: EpochMillis,
    campaigns: &'c CampaignLimits,
    floors: Floors,
    from_places: u32,
    to_places: u32,
}

impl FeasibleQuery<'static> {
    /// The amounts that work in `mode` at `now`, 8-place, without campaign
    /// limits or floors.
    pub fn new(mode: SwapMode, now: EpochMillis) -> Self {
        FeasibleQuery {
            mode,
            now,
            campaigns: &NO_CAMPAIGNS,
            floors: Floors::NONE,
            from_places: PLACES,
            to_places: PLACES,
        }
    }
}

impl FeasibleQuery<'_> {
    /// With the caller's campaign limits (ruling 3).
    #[must_use]
    pub fn with_campaigns(self, campaigns: &CampaignLimits) -> FeasibleQuery<'_> {
        FeasibleQuery {
            mode: self.mode,
            now: self.now,
            campaigns,
            floors: self.floors,
            from_places: self.from_places,
            to_places: self.to_places,
        }
    }

    /// With the caller's economic floors.
    #[must_use]
    pub fn with_floors(mut self, floors: Floors) -> Self {
        self.floors = floors;
        self
    }

    /// With the assets' decimals: ExactIn amounts (and ExactOut required
    /// inputs, rounded up) have `min(8, from)` places, ExactOut amounts
    /// `min(8, to)`.
    #[must_use]
    pub fn with_decimals(mut self, from: u8, to: u8) -> Self {
        self.from_places = u32::from(from).min(PLACES);
        self.to_places = u32::from(to).min(PLACES);
        self
    }

    /// The places of the amounts asked about.
    fn places(&self) -> u32 {
        match self.mode {
            SwapMode::ExactIn => self.from_places,
            SwapMode::ExactOut => self.to_places,
        }
    }

    /// Every amount some rate serves.
    ///
    /// # Errors
    /// [`MixedPairs`] for a hand-built list of more than one pair's rates
    /// (ruling 18).
    pub fn amounts<'r, R: RateList + ?Sized>(
        &self,
        rates: &'r R,
    ) -> Result<Feasible<'r>, MixedPairs> {
        let rates = rates.one_pair()?;
        let mut intervals: Vec<Interval<'r>> = rates
            .iter()
            .filter_map(|rate| {
                let (from, to) = self.interval(rate)?;
                Some(Interval { from, to, rate })
            })
            .collect();
        intervals.sort_by(|a, b| a.from.cmp(&b.from).then_with(|| tie_order(a.rate, b.rate)));
        let mut ranges: Vec<(i128, i128)> = Vec::new();
        for interval in &intervals {
            match ranges.last_mut() {
                Some(last) if interval.from <= last.1.saturating_add(1) => {
                    last.1 = last.1.max(interval.to);
                }
                _ => ranges.push((interval.from, interval.to)),
            }
        }
        let mut reach: Vec<(i128, usize)> = Vec::with_capacity(intervals.len());
        for (at, interval) in intervals.iter().enumerate() {
            let held = reach.last().copied();
            reach.push(match held {
                Some((to, i)) if to >= interval.to => (to, i),
                _ => (interval.to, at),
            });
        }
        // Sorted by upper end; `tops[i]` holds the best (net output at its
        // top, then the smaller amount, then ruling 7) of `by_top[..=i]`.
        let mut by_top: Vec<(i128, Decimal, &'r Rate)> = Vec::new();
        if self.mode == SwapMode::ExactIn {
            by_top = intervals
                .iter()
                .filter_map(|i| {
                    let net = super::rules::net_output::net_output(
                        i.rate,
                        decimal_at(i.to, self.from_places)?,
                    )?;
                    Some((i.to, net, i.rate))
                })
                .collect();
            by_top.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| tie_order(a.2, b.2)));
            let mut held: Option<(i128, Decimal, &'r Rate)> = None;
            for slot in &mut by_top {
                let better = held.is_none_or(|(_, net, _)| slot.1 > net);
                if better {
                    held = Some(*slot);
                } else if let Some(best) = held {
                    *slot = best;
                }
            }
        }
        let mut feasible = Feasible {
            rates,
            campaigns: self.campaigns.clone(),
            tops: by_top,
            query: FeasibleQuery {
                mode: self.mode,
                now: self.now,
                campaigns: &NO_CAMPAIGNS,
                floors: self.floors,
                from_places: self.from_places,
                to_places: self.to_places,
            },
            places: self.places(),
            intervals,
            ranges,
            reach,
            min: None,
            max: None,
        };
        let first = feasible.ranges.first().map(|r| r.0);
        let last = feasible.ranges.last().map(|r| r.1);
        feasible.min = first.and_then(|x| feasible.served(x, self));
        feasible.max = last.and_then(|x| feasible.served(x, self));
        Ok(feasible)
    }

    /// The grid interval (mantissas at [`places`](Self::places)) `rate`
    /// serves, or `None` when it serves no amount.
    fn interval(&self, rate: &Rate) -> Option<(i128, i128)> {
        admit(rate, self.now, self.mode).ok()?;
        let effective_max = rate.effective_max(self.campaigns);
        if effective_max < rate.min() {
            return None; // ruling 30
        }
        match self.mode {
            SwapMode::ExactIn => self.interval_in(rate, effective_max),
            SwapMode::ExactOut => self.interval_out(rate, effective_max),
        }
    }

    fn interval_in(&self, rate: &Rate, effective_max: Decimal) -> Option<(i128, i128)> {
        let p = self.from_places;
        let lo = grid_ceil(rate.min(), p)?.max(0);
        let mut hi = grid_floor(effective_max, p)?;
        if lo > hi {
            return None;
        }
        let verdict = |x: i128| self.verdict_in(rate, x);
        let overflows = |x: i128| matches!(verdict(x), Err(RejectReason::Overflow));
        if overflows(hi) {
            if overflows(lo) {
                return None;
            }
            hi = least(lo, hi, lo, &overflows)?.checked_sub(1)?;
        }
        let works = |x: i128| verdict(x).is_ok();
        if !works(hi) {
            return None;
        }
        let from = least(lo, hi, self.guess_in(rate, p).unwrap_or(lo), &works)?;
        Some((from, hi))
    }

    /// The engine's verdict on `rate` at the ExactIn amount `x` (a mantissa
    /// at the from places).
    fn verdict_in(&self, rate: &Rate, x: i128) -> Result<(), RejectReason> {
        let amount = amount_at(x, self.from_places).ok_or(RejectReason::Overflow)?;
        let request = RouteRequest::exact_in(amount, self.now)
            .with_campaigns(self.campaigns)
            .with_floors(self.floors);
        check(rate, &request).map(|_| ())
    }

    /// A first guess at the smallest amount every floor admits: each
    /// threshold divided out in `Decimal` (rounded; the exact check corrects it).
    fn guess_in(&self, rate: &Rate, p: u32) -> Option<i128> {
        let (m, fee) = (rate.multiplier(), rate.miner_fee());
        let mut need = fee.checked_div(m)?;
        if let Some(dust) = self.floors.dust() {
            need = need.max(fee.checked_add(dust)?.checked_div(m)?);
        }
        if let Some(k) = self.floors.fee_multiple() {
            need = need.max(
                fee.checked_mul(Decimal::ONE.checked_add(k)?)?
                    .checked_div(m)?,
            );
        }
        if let Some(bps) = self.floors.max_fee_share_bps().filter(|&b| b > 0) {
            let share = fee
                .checked_mul(Decimal::from(10_000))?
                .checked_div(m.checked_mul(Decimal::from(bps))?)?;
            need = need.max(share);
        }
        grid_ceil(need, p)
    }

    fn interval_out(&self, rate: &Rate, effective_max: Decimal) -> Option<(i128, i128)> {
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
        if !works(top) {
            return None;
        }
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

    /// The ExactOut order amount for output `y` (a mantissa at the to
    /// places): ruling 34's required input, 8 places, then up to the from
    /// asset's places.
    fn required_at(&self, rate: &Rate, y: i128) -> Option<Decimal> {
        let to = decimal_at(y, self.to_places)?;
        let input = required_input(rate, to)?.get();
        let units = grid_ceil(input, self.from_places)?;
        decimal_at(units, self.from_places)
    }

    /// The engine's verdict on `rate` for the ExactOut output `y`, the
    /// order's amount (the required input) standing as `fromAmount`.
    fn verdict_out(&self, rate: &Rate, y: i128) -> Result<Decimal, RejectReason> {
        let to = amount_at(y, self.to_places).ok_or(RejectReason::Overflow)?;
        let input = self.required_at(rate, y).ok_or(RejectReason::Overflow)?;
        let from = Amount::new(input).map_err(|_| RejectReason::Overflow)?;
        let request = RouteRequest::exact_out(from, to, self.now)
            .with_campaigns(self.campaigns)
            .with_floors(self.floors);
        check(rate, &request).map(|_| input)
    }
}

impl RouteRequest<'_> {
    /// Ruling 10 as ruling 38 amends it: an ExactIn "no route" below every
    /// min, above every max, or without output names the smallest (largest)
    /// 8-place amount that works where it is not the nominal limit. One pass
    /// over the rates, a few exact checks each, no allocation.
    pub(crate) fn name_working(&self, no_route: NoRoute, rates: &[Rate]) -> NoRoute {
        let wanted = matches!(
            no_route,
            NoRoute::BelowMin { .. } | NoRoute::AboveMax { .. } | NoRoute::NoOutput { .. }
        );
        if !wanted || self.mode() != SwapMode::ExactIn {
            return no_route;
        }
        let query = FeasibleQuery {
            mode: SwapMode::ExactIn,
            now: self.now(),
            campaigns: self.campaigns(),
            floors: *self.floors(),
            from_places: PLACES,
            to_places: PLACES,
        };
        let low = !matches!(no_route, NoRoute::AboveMax { .. });
        // The end of a rate's limits on the grid, on the side asked about.
        let end_of = |rate: &Rate| {
            if low {
                grid_ceil(rate.min(), PLACES)
            } else {
                grid_floor(rate.effective_max(self.campaigns()), PLACES)
            }
        };
        let beyond = |x: i128, held: i128| if low { x < held } else { x > held };
        // Bounded work (ruling 36): when a rate serves the outermost end of
        // the live rates' limits, that is the answer (one check per rate at
        // that end); otherwise a rate whose limits cannot beat the bound
        // held is skipped on them alone, and only the rates that might move
        // it get the few exact checks of an interval.
        let mut outermost: Option<i128> = None;
        for rate in rates {
            if admit(rate, self.now(), SwapMode::ExactIn).is_err() {
                continue;
            }
            if let Some(end) = end_of(rate) {
                if outermost.is_none_or(|held| beyond(end, held)) {
                    outermost = Some(end);
                }
            }
        }
        // Only a rate whose own end is the outermost can serve that amount.
        let served = outermost.filter(|&end| {
            rates
                .iter()
                .any(|rate| end_of(rate) == Some(end) && query.verdict_in(rate, end).is_ok())
        });
        let mut bound = served;
        if served.is_none() {
            for rate in rates {
                if let (Some(held), Some(end)) = (bound, end_of(rate)) {
                    if !beyond(end, held) {
                        continue;
                    }
                }
                if let Some((from, to)) = query.interval(rate) {
                    let x = if low { from } else { to };
                    if bound.is_none_or(|held| beyond(x, held)) {
                        bound = Some(x);
                    }
                }
            }
        }
        let found = bound.and_then(|x| decimal_at(x, PLACES));
        if low {
            no_route.with_working(found, None)
        } else {
            no_route.with_working(None, found)
        }
    }
}

/// A rate's interval on the grid.
#[derive(Clone, Copy, Debug)]
struct Interval<'r> {
    from: i128,
    to: i128,
    rate: &'r Rate,
}

/// An amount that works, the rate that serves it and that route's net
/// output (in ExactOut, the exact output the order delivers: the amount).
///
/// # JSON
/// `{"amount","rateId","netOutput"}`, decimals as strings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Served<'r> {
    amount: Decimal,
    rate: &'r Rate,
    net_output: Decimal,
}

impl<'r> Served<'r> {
    /// The amount (`fromAmount` in ExactIn, `toAmount` in ExactOut), with
    /// all its grid places.
    pub fn amount(&self) -> Decimal {
        self.amount
    }

    /// The rate that serves it.
    pub fn rate(&self) -> &'r Rate {
        self.rate
    }

    /// The route's net output at the amount (ExactOut: the amount itself).
    pub fn net_output(&self) -> Decimal {
        self.net_output
    }
}

impl Serialize for Served<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut out = serializer.serialize_struct("Served", 3)?;
        out.serialize_field("amount", &alloc::format!("{}", self.amount))?;
        out.serialize_field("rateId", self.rate.id())?;
        out.serialize_field("netOutput", &Plain(self.net_output))?;
        out.end()
    }
}

/// One range of amounts that work, both ends included.
///
/// # JSON
/// `{"from","to"}`, decimals as strings with all the grid's places.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AmountRange {
    from: Decimal,
    to: Decimal,
}

impl AmountRange {
    /// The smallest amount of the range.
    pub fn from(&self) -> Decimal {
        self.from
    }

    /// The largest amount of the range.
    pub fn to(&self) -> Decimal {
        self.to
    }

    /// `true` when `amount` lies in the range.
    pub fn contains(&self, amount: Decimal) -> bool {
        self.from <= amount && amount <= self.to
    }
}

impl Serialize for AmountRange {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut out = serializer.serialize_struct("AmountRange", 2)?;
        out.serialize_field("from", &alloc::format!("{}", self.from))?;
        out.serialize_field("to", &alloc::format!("{}", self.to))?;
        out.end()
    }
}

/// The amounts that work for one pair's rates (ruling 38): built by
/// [`FeasibleQuery::amounts`].
#[derive(Clone, Debug)]
pub struct Feasible<'r> {
    /// The query, without its campaigns (kept below).
    query: FeasibleQuery<'static>,
    rates: &'r [Rate],
    campaigns: CampaignLimits,
    /// ExactIn: the intervals by upper end with prefix bests (see `amounts`).
    tops: Vec<(i128, Decimal, &'r Rate)>,
    places: u32,
    /// Sorted by lower end, then ruling 7's ties.
    intervals: Vec<Interval<'r>>,
    /// Merged: disjoint, sorted, a gap of at least two grid units between.
    ranges: Vec<(i128, i128)>,
    /// `reach[i]`: the largest upper end among `intervals[..=i]` and the
    /// first interval holding it.
    reach: Vec<(i128, usize)>,
    min: Option<Served<'r>>,
    max: Option<Served<'r>>,
}

impl<'r> Feasible<'r> {
    /// The swap mode the amounts are for.
    pub fn mode(&self) -> SwapMode {
        self.query.mode
    }

    /// The places of the amounts.
    pub fn places(&self) -> u32 {
        self.places
    }

    /// The smallest amount that works, `None` when none does.
    pub fn min(&self) -> Option<&Served<'r>> {
        self.min.as_ref()
    }

    /// The largest amount that works, `None` when none does.
    pub fn max(&self) -> Option<&Served<'r>> {
        self.max.as_ref()
    }

    /// The amounts that work as sorted, disjoint ranges; two ranges are
    /// merged when the next starts one grid unit after the last ends.
    pub fn ranges(&self) -> Vec<AmountRange> {
        self.ranges
            .iter()
            .filter_map(|&(from, to)| {
                Some(AmountRange {
                    from: decimal_at(from, self.places)?,
                    to: decimal_at(to, self.places)?,
                })
            })
            .collect()
    }

    /// `true` when `amount` works (it must lie on the grid: a finer amount
    /// never does). `O(log n)`.
    pub fn contains(&self, amount: Decimal) -> bool {
        let Some(x) = exact_units(amount, self.places) else {
            return false;
        };
        let at = self.ranges.partition_point(|r| r.0 <= x);
        at.checked_sub(1)
            .and_then(|i| self.ranges.get(i))
            .is_some_and(|r| x <= r.1)
    }

    /// The largest amount that works and is not above `balance`, with a
    /// rate that serves it (of the rates whose intervals begin at or below
    /// the balance, the one reaching furthest, the first in ruling 7's order
    /// among equals); `None` when none fits. One binary search over the
    /// intervals' prefix maxima: `O(log n)`.
    pub fn max_within(&self, balance: Amount) -> Option<Served<'r>> {
        let b = grid_floor(balance.get(), self.places)?;
        let before = self.intervals.partition_point(|i| i.from <= b);
        let (reach, at) = *self.reach.get(before.checked_sub(1)?)?;
        let x = reach.min(b);
        let rate = self.intervals.get(at)?.rate;
        let amount = decimal_at(x, self.places)?;
        let net_output = match self.query.mode {
            SwapMode::ExactIn => self.net_in(rate, x)?,
            SwapMode::ExactOut => amount,
        };
        Some(Served {
            amount,
            rate,
            net_output,
        })
    }

    /// The amount not above `balance` with the best net output (ties: the
    /// smaller amount), with its rate; `None` when none fits.
    ///
    /// ExactIn: a rate's net output grows with the amount, so its best
    /// under the balance is the top of its interval or the balance itself.
    /// The rates whose intervals end at or below the balance are one binary
    /// search over prefix bests (`O(log n)`); the rates that serve the
    /// balance are one ranking there ([`RouteRequest::best`], a scan).
    /// ExactOut: the order delivers exactly the amount, so this is
    /// [`max_within`](Self::max_within).
    pub fn best_within(&self, balance: Amount) -> Option<Served<'r>> {
        if self.query.mode == SwapMode::ExactOut {
            return self.max_within(balance);
        }
        let b = grid_floor(balance.get(), self.places)?;
        let below = self
            .tops
            .partition_point(|t| t.0 <= b)
            .checked_sub(1)
            .and_then(|i| self.tops.get(i))
            .copied();
        let at_balance = decimal_at(b, self.places)
            .and_then(|x| Amount::new(x).ok())
            .filter(|x| self.contains(x.get()))
            .and_then(|x| {
                RouteRequest::exact_in(x, self.query.now)
                    .with_campaigns(&self.campaigns)
                    .with_floors(self.query.floors)
                    .best_in(self.rates, &[])
                    .ok()
            })
            .map(|route| (b, route.net_output(), route.rate()));
        let (x, net_output, rate) = match (below, at_balance) {
            // Equal nets: the smaller amount, the top below the balance.
            (Some(low), Some(high)) if high.1 < low.1 || (high.1 == low.1 && low.0 < b) => low,
            (_, Some(high)) => high,
            (low, None) => low?,
        };
        Some(Served {
            amount: decimal_at(x, self.places)?,
            rate,
            net_output,
        })
    }

    /// The net output of `rate` at the ExactIn amount `x`.
    fn net_in(&self, rate: &Rate, x: i128) -> Option<Decimal> {
        super::rules::net_output::net_output(rate, decimal_at(x, self.places)?)
    }

    /// The amount `x` (known to work) with the rate that serves it: ExactIn
    /// the highest net output then ruling 7's ties; ExactOut the smallest
    /// required input, then the ties. A scan of the intervals.
    fn served(&self, x: i128, query: &FeasibleQuery<'_>) -> Option<Served<'r>> {
        let mut best: Option<(Decimal, &'r Rate)> = None;
        for interval in self.intervals.iter().take_while(|i| i.from <= x) {
            if interval.to < x {
                continue;
            }
            let rate = interval.rate;
            let key = match query.mode {
                SwapMode::ExactIn => self.net_in(rate, x),
                SwapMode::ExactOut => query
                    .required_at(rate, x)
                    .map(|r| Decimal::ZERO.saturating_sub(r)),
            };
            let Some(key) = key else { continue };
            let better = best.is_none_or(|(held, held_rate)| {
                key.cmp(&held).then_with(|| tie_order(held_rate, rate)) == Ordering::Greater
            });
            if better {
                best = Some((key, rate));
            }
        }
        let (key, rate) = best?;
        let amount = decimal_at(x, self.places)?;
        Some(Served {
            amount,
            rate,
            net_output: match query.mode {
                SwapMode::ExactIn => key,
                SwapMode::ExactOut => amount,
            },
        })
    }

    /// The answer as the CLI and the bindings print it, with the balance
    /// answers when `spendable` is given.
    pub fn report(&self, spendable: Option<Amount>) -> FeasibleReport<'_, 'r> {
        FeasibleReport {
            feasible: self,
            spendable,
        }
    }
}

/// [`Feasible`] under an optional balance, as JSON:
/// `{"mode","min":{"amount","rateId"},"max":{"amount","rateId"},
/// "ranges":[{"from","to"}],"maxWithin":{"amount","rateId"},
/// "bestWithin":{"amount","rateId","netOutput"}}`; `min`/`max` are `null`
/// when nothing works, `maxWithin`/`bestWithin` without a balance or when
/// nothing fits under it.
#[derive(Clone, Copy, Debug)]
pub struct FeasibleReport<'f, 'r> {
    feasible: &'f Feasible<'r>,
    spendable: Option<Amount>,
}

/// `{"amount","rateId"}`.
struct Named<'a, 'r>(&'a Served<'r>);

impl Serialize for Named<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut out = serializer.serialize_struct("Named", 2)?;
        out.serialize_field("amount", &alloc::format!("{}", self.0.amount))?;
        out.serialize_field("rateId", self.0.rate.id())?;
        out.end()
    }
}

impl Serialize for FeasibleReport<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let f = self.feasible;
        let max_within = self.spendable.and_then(|b| f.max_within(b));
        let best_within = self.spendable.and_then(|b| f.best_within(b));
        let mut out = serializer.serialize_struct("Feasible", 6)?;
        out.serialize_field("mode", f.mode().as_str())?;
        out.serialize_field("min", &f.min().map(Named))?;
        out.serialize_field("max", &f.max().map(Named))?;
        out.serialize_field("ranges", &f.ranges())?;
        out.serialize_field("maxWithin", &max_within.as_ref().map(Named))?;
        out.serialize_field("bestWithin", &best_within)?;
        out.end()
    }
}

/// The least `x` in `[lo, hi]` with `works(x)`, for `works` false then true
/// and `works(hi)` known true; `guess` is tried first, then a gallop away
/// from it brackets the answer and a bisection finds it: `O(log d)` checks
/// for a guess `d` units off.
fn least(lo: i128, hi: i128, guess: i128, works: &dyn Fn(i128) -> bool) -> Option<i128> {
    if works(lo) {
        return Some(lo);
    }
    // `low` never works, `high` always does.
    let (mut low, mut high) = (lo, hi);
    let guess = guess.clamp(lo, hi);
    if guess > low && guess < high {
        let mut stride: i128 = 1;
        if works(guess) {
            high = guess;
            loop {
                let probe = high.saturating_sub(stride);
                if probe <= low {
                    break;
                }
                if works(probe) {
                    high = probe;
                    stride = stride.saturating_mul(2);
                } else {
                    low = probe;
                    break;
                }
            }
        } else {
            low = guess;
            loop {
                let probe = low.saturating_add(stride);
                if probe >= high {
                    break;
                }
                if works(probe) {
                    high = probe;
                    break;
                }
                low = probe;
                stride = stride.saturating_mul(2);
            }
        }
    }
    while high.checked_sub(low)? > 1 {
        let mid = low.checked_add(high.checked_sub(low)? / 2)?;
        if works(mid) {
            high = mid;
        } else {
            low = mid;
        }
    }
    Some(high)
}

/// The greatest `x` in `[lo, TOP]` with `fits(x)`, for `fits` true then
/// false and `fits(lo)` known true: `guess` is tried first, then a gallop
/// away from it brackets the answer and a bisection finds it.
fn greatest(lo: i128, guess: i128, fits: &dyn Fn(i128) -> bool) -> Option<i128> {
    // `good` always fits, `bad` never does.
    let guess = guess.clamp(lo, TOP);
    let mut stride: i128 = 1;
    let (mut good, mut bad) = if fits(guess) {
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
    while bad.checked_sub(good)? > 1 {
        let mid = good.checked_add(bad.checked_sub(good)? / 2)?;
        if fits(mid) {
            good = mid;
        } else {
            bad = mid;
        }
    }
    Some(good)
}

/// `value` rounded up to `places`, as the mantissa at `places`; capped at
/// the largest `Decimal` mantissa.
fn grid_ceil(value: Decimal, places: u32) -> Option<i128> {
    grid(value, places, true)
}

/// `value` rounded down to `places`, as the mantissa at `places`; capped at
/// the largest `Decimal` mantissa.
fn grid_floor(value: Decimal, places: u32) -> Option<i128> {
    grid(value, places, false)
}

fn grid(value: Decimal, places: u32, up: bool) -> Option<i128> {
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
fn exact_units(amount: Decimal, places: u32) -> Option<i128> {
    let units = grid_floor(amount, places)?;
    (decimal_at(units, places)? == amount).then_some(units)
}

fn decimal_at(units: i128, places: u32) -> Option<Decimal> {
    Decimal::try_from_i128_with_scale(units, places).ok()
}

fn amount_at(units: i128, places: u32) -> Option<Amount> {
    Amount::new(decimal_at(units, places)?).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::route::rules::fixtures::d;

    #[test]
    fn least_finds_the_boundary_from_any_guess() {
        for answer in [0i128, 1, 7, 99, 100] {
            for guess in [-5i128, 0, 3, 50, 99, 100, 1000] {
                let works = |x: i128| x >= answer;
                assert_eq!(
                    least(0, 100, guess, &works),
                    Some(answer),
                    "{answer} {guess}"
                );
            }
        }
    }

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
}
