//! "No chain", decided leg by leg without enumerating combinations of rates
//! (ruling 36 in docs/RULES.md).
//!
//! A path's legs are judged in the order the amounts flow (ExactIn forwards
//! from `fromAmount`, ExactOut backwards from `toAmount`). At each step the
//! *reachable values* are the inputs (ExactIn) or targets (ExactOut) the
//! passing rates of the steps before produce. Every rule of a leg is
//! monotone in its value: a rate passes exactly the values of one interval
//! (its min, or a positive output, below; its max, or overflow, above). So
//! a rate passes some reachable value iff the least reachable value at or
//! above the interval's lower end passes, which a binary search finds.
//!
//! - Step 1: one value (the request's amount): one check a rate.
//! - Step 2: the sorted, distinct values step 1's passing rates produce (at
//!   most one a rate): `O(log n)` checks a rate.
//! - Step 3 (three-leg paths): the values are *segments*: each step-2 rate
//!   maps a run of step 2's values monotonically, so a segment is known by
//!   its first and last image. A rate is reached only through a segment
//!   that overlaps its interval: sorted by first image, with a running
//!   maximum of last images, one binary search finds whether any can; a
//!   segment that can is then searched for its least image at or above the
//!   interval's lower end (`O(log n)` checks). Only a segment whose images
//!   straddle the interval without a point inside it sends the search on to
//!   the next segment.
//!
//! Work: `O(p × n log n)` checks for `p` paths of `n` rates a pair, plus
//! `O(n log n)` for each segment that straddles a rate's interval (at most
//! `O(n² log n)` a three-leg path, for adversarially spaced limits). Memory:
//! `O(n)` a path, and one flag a market rate.
//!
//! A rate that no reachable value passes is *refused*; its reason is the one
//! the rules give at the largest reachable value (below its interval: the
//! lower limit's reason; above or straddling it: the upper limit's). Each
//! rate is counted once, where it is first refused (paths in order, legs in
//! the order judged).

use alloc::vec::Vec;

use rust_decimal::Decimal;

use super::leg::{backward, exact_next, forward, yields};
use super::market::{Market, MarketPair};
use super::paths::each_path;
use super::ranked::ChainRejection;
use super::request::ChainRequest;
use crate::decimal::Amount;
use crate::rate::{PairId, Rate};
use crate::route::rules::no_route::Tally;
use crate::route::RejectReason;
use crate::swap_mode::SwapMode;

/// Where a reason puts a value relative to the rate's interval.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Side {
    /// Whatever the value (invalid, expired, swap mode, campaign limit).
    Any,
    /// Below the interval: a larger value may pass.
    Low,
    /// Above it: a smaller value may pass.
    High,
}

/// The side of a reason.
pub(crate) fn side(reason: &RejectReason) -> Side {
    match reason {
        // The floors (ruling 38) only get easier as a leg's value grows.
        RejectReason::BelowMin { .. }
        | RejectReason::NoOutput { .. }
        | RejectReason::RequiredInputBelowMin { .. }
        | RejectReason::BelowDust { .. }
        | RejectReason::FeeTooLarge { .. }
        | RejectReason::FeeShareTooLarge { .. } => Side::Low,
        RejectReason::AboveMax { .. }
        | RejectReason::RequiredInputAboveMax { .. }
        | RejectReason::Overflow => Side::High,
        _ => Side::Any,
    }
}

/// A path's pairs (`indices`: their positions in the market, in leg
/// order) with their positions; `None` for a position the market lacks.
fn pairs_of<'m, 'r>(
    market: &'m Market<'r>,
    indices: &[usize],
) -> Option<Vec<(usize, &'m MarketPair<'r>)>> {
    let mut pairs = Vec::with_capacity(indices.len());
    for &at in indices {
        pairs.push((at, market.pair(at)?));
    }
    Some(pairs)
}

/// Where a judged leg stands: the last step judged (`last`: no next value
/// is needed), and the chain's last leg (`final_leg`: the dust floor holds
/// it, ruling 38). ExactIn judges the last leg last; ExactOut first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct At {
    pub(crate) last: bool,
    pub(crate) final_leg: bool,
}

impl At {
    /// The middle leg of a three-leg chain.
    const MIDDLE: At = At {
        last: false,
        final_leg: false,
    };

    /// The same leg asked for its next value.
    fn not_last(self) -> At {
        At {
            last: false,
            ..self
        }
    }
}

/// Judges one leg the way the full enumeration does: ExactIn checks the
/// rate at the input and, unless it is the last step, floors its exact
/// output for the next input; ExactOut works out the required input (the
/// previous leg's target) and what it yields.
pub(crate) fn judge(
    request: &ChainRequest,
    market: &Market<'_>,
    rate: &Rate,
    value: Decimal,
    at: At,
) -> Result<Decimal, RejectReason> {
    match request.mode {
        SwapMode::ExactIn => {
            let input = Amount::new(value).map_err(|_| RejectReason::Overflow)?;
            let leg = request.leg_request(
                input,
                market.campaigns(),
                core::slice::from_ref(rate),
                at.final_leg,
            );
            forward(rate, &leg, None)?;
            if at.last {
                Ok(Decimal::ZERO)
            } else {
                exact_next(rate, value).map(Amount::get)
            }
        }
        SwapMode::ExactOut => {
            let floors = request.leg_floors(at.final_leg);
            let guard = request.leg_guard(rate, at.final_leg);
            let required = backward(rate, value, request.now, &floors, guard)?;
            yields(rate, required).ok_or(RejectReason::Overflow)?;
            Ok(required.get())
        }
    }
}

/// A run of the step-2 values (`points[from..=to]`) mapped by one rate.
#[derive(Clone, Copy, Debug)]
struct Segment<'r> {
    rate: &'r Rate,
    from: usize,
    to: usize,
    first: Decimal,
    last: Decimal,
}

/// What the first step of every path (at the request's own amount) found.
#[derive(Clone, Copy, Debug, Default)]
#[allow(clippy::struct_excessive_bools)]
pub(crate) struct StepOne {
    /// Some rate passed it.
    pub(crate) passed: bool,
    /// A rate was refused for overflow.
    pub(crate) overflow: bool,
    /// A rate was refused for its limits or its output.
    pub(crate) limits: bool,
}

/// What the analysis found over every path.
#[derive(Debug)]
pub(crate) struct Reach<'r> {
    /// Paths joining the assets.
    pub(crate) paths: usize,
    /// Some chain exists (a last step's rate passed a reachable value).
    pub(crate) found: bool,
    /// Every refusal, on any path, was on a path's first leg.
    pub(crate) first_leg_only: bool,
    /// The first legs' refused rates (each once).
    pub(crate) first_leg: Tally,
    /// ExactOut: the smallest required input a first-leg refusal names.
    pub(crate) smallest_input: Option<Decimal>,
    /// What the first step judged (the request's own amount).
    pub(crate) step_one: StepOne,
    /// The refused rates, each once, in the order found.
    pub(crate) refused: Vec<ChainRejection<'r>>,
    /// Checks made (the work, for tests and the fuzz target).
    pub(crate) checks: u64,
}

impl Reach<'_> {
    /// Reason counts of the refused rates, most first (ties by code).
    pub(crate) fn counts(&self) -> Vec<(&'static str, usize)> {
        let mut counts: Vec<(&'static str, usize)> = Vec::new();
        for refusal in &self.refused {
            let code = refusal.reason().code();
            match counts.iter_mut().find(|(held, _)| *held == code) {
                Some((_, count)) => *count = count.saturating_add(1),
                None => counts.push((code, 1)),
            }
        }
        counts.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        counts
    }
}

/// The analysis in progress.
struct Walk<'q, 'm, 'r> {
    request: &'q ChainRequest,
    market: &'m Market<'r>,
    /// Where each pair's rates start in `counted`.
    offsets: Vec<usize>,
    counted: Vec<bool>,
    reach: Reach<'r>,
}

impl ChainRequest {
    /// Decides, path by path and leg by leg, whether a chain exists and
    /// which rates no reachable value passes (see the module's docs).
    pub(crate) fn reach<'r>(&self, market: &Market<'r>) -> Reach<'r> {
        let mut offsets = Vec::with_capacity(market.pair_count());
        let mut total = 0usize;
        for at in 0..market.pair_count() {
            offsets.push(total);
            total = total.saturating_add(market.pair(at).map_or(0, |pair| pair.rates.len()));
        }
        let mut walk = Walk {
            request: self,
            market,
            offsets,
            counted: alloc::vec![false; total],
            reach: Reach {
                paths: 0,
                found: false,
                first_leg_only: true,
                first_leg: Tally::default(),
                smallest_input: None,
                step_one: StepOne::default(),
                refused: Vec::new(),
                checks: 0,
            },
        };
        each_path(market, &self.from, &self.to, self.max_legs, |path| {
            walk.reach.paths = walk.reach.paths.saturating_add(1);
            walk.path(path.indices());
        });
        walk.reach
    }
}

impl<'r> Walk<'_, '_, 'r> {
    fn judge(&mut self, rate: &Rate, value: Decimal, at: At) -> Result<Decimal, RejectReason> {
        self.reach.checks = self.reach.checks.saturating_add(1);
        judge(self.request, self.market, rate, value, at)
    }

    /// One path (its pairs' positions in the market, in leg order).
    fn path(&mut self, indices: &[usize]) {
        let len = indices.len();
        let Some(pairs) = pairs_of(self.market, indices) else {
            return;
        };
        let ids: Vec<&'r PairId> = pairs.iter().map(|(_, pair)| pair.id).collect();
        // The legs in the order judged.
        let order: Vec<usize> = match self.request.mode {
            SwapMode::ExactIn => (0..len).collect(),
            SwapMode::ExactOut => (0..len).rev().collect(),
        };
        let mut points: Vec<Decimal> = alloc::vec![self.request.amount.get()];
        let mut segments: Vec<Segment<'r>> = Vec::new();
        let mut previous: Vec<Decimal> = Vec::new();
        // The largest last image of `segments[..=i]`.
        let mut running_max: Vec<Decimal> = Vec::new();
        for (step, &leg) in order.iter().enumerate() {
            let Some(&(pair_at, pair)) = pairs.get(leg) else {
                return;
            };
            let last = step.saturating_add(1) == len;
            let at = At {
                last,
                final_leg: leg.saturating_add(1) == len,
            };
            let mut next_points: Vec<Decimal> = Vec::new();
            let mut next_segments: Vec<Segment<'r>> = Vec::new();
            let mut any = false;
            for (index, rate) in pair.rates.iter().enumerate() {
                let outcome = if step < 2 {
                    self.on_points(rate, &points, at)
                } else {
                    self.on_segments(rate, &segments, &running_max, &previous, at)
                };
                match outcome {
                    Ok(Some((from, to))) => {
                        any = true;
                        if step == 0 {
                            self.reach.step_one.passed = true;
                        }
                        if last {
                            continue;
                        }
                        let (Some(&low), Some(&high)) = (points.get(from), points.get(to)) else {
                            continue;
                        };
                        let (Ok(first), Ok(last_image)) = (
                            self.judge(rate, low, at.not_last()),
                            self.judge(rate, high, at.not_last()),
                        ) else {
                            continue;
                        };
                        if step == 0 {
                            next_points.push(first);
                        } else {
                            next_segments.push(Segment {
                                rate,
                                from,
                                to,
                                first,
                                last: last_image,
                            });
                        }
                    }
                    Ok(None) => {
                        // Passed on a segment (the last step): a chain exists.
                        any = true;
                    }
                    Err(reason) => self.refuse(&ids, leg, step, pair_at, index, rate, reason),
                }
            }
            if !any {
                return;
            }
            if last {
                self.reach.found = true;
                return;
            }
            if step == 0 {
                next_points.sort_unstable();
                next_points.dedup();
                points = next_points;
            } else {
                previous = core::mem::take(&mut points);
                next_segments.sort_by_key(|segment| segment.first);
                segments = next_segments;
                let mut most: Option<Decimal> = None;
                running_max = segments
                    .iter()
                    .map(|segment| {
                        let held = most.map_or(segment.last, |m| m.max(segment.last));
                        most = Some(held);
                        held
                    })
                    .collect();
            }
        }
    }

    /// A rate on sorted distinct `points`: the run of them it passes
    /// (`Ok(Some((from, to)))`), or the reason at the largest.
    #[allow(clippy::type_complexity)]
    fn on_points(
        &mut self,
        rate: &Rate,
        points: &[Decimal],
        at: At,
    ) -> Result<Option<(usize, usize)>, RejectReason> {
        let Some(&largest) = points.last() else {
            return Err(RejectReason::Overflow);
        };
        let top = points.len().saturating_sub(1);
        let at_largest = match self.judge(rate, largest, at) {
            Ok(_) => None,
            Err(reason) if side(&reason) == Side::High => Some(reason),
            Err(reason) => return Err(reason),
        };
        // The first point at or above the interval's lower end.
        let from = self.partition(points, |walk, value| {
            walk.judge(rate, value, at)
                .is_err_and(|reason| side(&reason) == Side::Low)
        });
        let Some(&low) = points.get(from) else {
            return Err(at_largest.unwrap_or(RejectReason::Overflow));
        };
        let Some(reason) = at_largest else {
            return Ok(Some((from, top)));
        };
        if self.judge(rate, low, at).is_err() {
            return Err(reason);
        }
        // The last point it passes.
        let end = self.partition(points.get(from..).unwrap_or_default(), |walk, value| {
            walk.judge(rate, value, at).is_ok()
        });
        Ok(Some((from, from.saturating_add(end).saturating_sub(1))))
    }

    /// A rate of a three-leg path's last step on `segments` (sorted by
    /// first image) of `points`: passed (`Ok(None)`), or the reason at the
    /// largest reachable value.
    #[allow(clippy::type_complexity)]
    fn on_segments(
        &mut self,
        rate: &Rate,
        segments: &[Segment<'r>],
        running_max: &[Decimal],
        points: &[Decimal],
        at: At,
    ) -> Result<Option<(usize, usize)>, RejectReason> {
        let Some(&largest) = running_max.last() else {
            return Err(RejectReason::Overflow);
        };
        let reason = match self.judge(rate, largest, at) {
            Ok(_) => return Ok(None),
            Err(reason) if side(&reason) == Side::High => reason,
            Err(reason) => return Err(reason),
        };
        // Segments whose first image is not above the interval.
        let below = segments.partition_point(|segment| {
            self.reach.checks = self.reach.checks.saturating_add(1);
            judge(self.request, self.market, rate, segment.first, at).is_ok_or_low()
        });
        // None of them reaches the interval's lower end: refused.
        let reaching = below
            .checked_sub(1)
            .and_then(|at| running_max.get(at))
            .is_some_and(|&most| {
                !self
                    .judge(rate, most, at)
                    .is_err_and(|reason| side(&reason) == Side::Low)
            });
        if !reaching {
            return Err(reason);
        }
        for segment in segments.get(..below).unwrap_or_default() {
            // Its last image must reach the interval's lower end.
            if self
                .judge(rate, segment.last, at)
                .is_err_and(|reason| side(&reason) == Side::Low)
            {
                continue;
            }
            let run = points.get(segment.from..=segment.to).unwrap_or_default();
            let first = self.partition(run, |walk, value| {
                walk.judge(segment.rate, value, At::MIDDLE)
                    .map_or(true, |image| {
                        walk.judge(rate, image, at)
                            .is_err_and(|reason| side(&reason) == Side::Low)
                    })
            });
            let Some(&value) = run.get(first) else {
                continue;
            };
            let passes = self
                .judge(segment.rate, value, At::MIDDLE)
                .is_ok_and(|image| self.judge(rate, image, at).is_ok());
            if passes {
                return Ok(None);
            }
        }
        Err(reason)
    }

    /// The first position of `values` where `before` is false (`before` is
    /// true on a prefix).
    fn partition(
        &mut self,
        values: &[Decimal],
        mut before: impl FnMut(&mut Self, Decimal) -> bool,
    ) -> usize {
        let (mut low, mut high) = (0usize, values.len());
        while low < high {
            let mid = low.saturating_add(high.saturating_sub(low) / 2);
            let Some(&value) = values.get(mid) else {
                break;
            };
            if before(self, value) {
                low = mid.saturating_add(1);
            } else {
                high = mid;
            }
        }
        low
    }

    #[allow(clippy::too_many_arguments)]
    fn refuse(
        &mut self,
        ids: &[&'r PairId],
        leg: usize,
        step: usize,
        pair_at: usize,
        index: usize,
        rate: &'r Rate,
        reason: RejectReason,
    ) {
        if step == 0 {
            match side(&reason) {
                Side::Any => {}
                _ if reason == RejectReason::Overflow => self.reach.step_one.overflow = true,
                _ => self.reach.step_one.limits = true,
            }
        }
        if leg == 0 {
            if let RejectReason::RequiredInputBelowMin { required, .. }
            | RejectReason::RequiredInputAboveMax { required, .. } = reason
            {
                self.reach.smallest_input = Some(
                    self.reach
                        .smallest_input
                        .map_or(required, |held| held.min(required)),
                );
            }
        } else {
            self.reach.first_leg_only = false;
        }
        let slot = self
            .offsets
            .get(pair_at)
            .and_then(|&offset| offset.checked_add(index))
            .and_then(|at| self.counted.get_mut(at));
        match slot {
            Some(seen) if !*seen => *seen = true,
            _ => return,
        }
        if leg == 0 {
            self.reach.first_leg.rejected(&reason);
        }
        if let Some(rejection) = ChainRejection::new(ids, leg, rate, reason) {
            self.reach.refused.push(rejection);
        }
    }
}

/// `Ok`, or refused below the interval.
trait OkOrLow {
    fn is_ok_or_low(&self) -> bool;
}

impl<T> OkOrLow for Result<T, RejectReason> {
    fn is_ok_or_low(&self) -> bool {
        self.as_ref()
            .map_or_else(|reason| side(reason) == Side::Low, |_| true)
    }
}

/// What the full enumeration saw of one rate at one leg of a path.
#[derive(Clone, Debug, Default)]
struct Seen {
    visited: bool,
    passed: bool,
    /// The largest value it was refused at, with the reason.
    largest: Option<(Decimal, RejectReason)>,
}

impl ChainRequest {
    /// [`reach`](Self::reach) by trying every combination of rates: every
    /// value each leg is reached with, the same definitions. For
    /// [`select_all`](Self::select_all) (within its cap) and the tests that
    /// hold the leg-by-leg analysis to it.
    pub(crate) fn reach_by_enumeration<'r>(&self, market: &Market<'r>) -> Reach<'r> {
        let mut walk = Walk {
            request: self,
            market,
            offsets: Vec::new(),
            counted: Vec::new(),
            reach: Reach {
                paths: 0,
                found: false,
                first_leg_only: true,
                first_leg: Tally::default(),
                smallest_input: None,
                step_one: StepOne::default(),
                refused: Vec::new(),
                checks: 0,
            },
        };
        let mut total = 0usize;
        for at in 0..market.pair_count() {
            walk.offsets.push(total);
            total = total.saturating_add(market.pair(at).map_or(0, |pair| pair.rates.len()));
        }
        walk.counted = alloc::vec![false; total];
        each_path(market, &self.from, &self.to, self.max_legs, |path| {
            walk.reach.paths = walk.reach.paths.saturating_add(1);
            walk.enumerate(path.indices());
        });
        walk.reach
    }
}

impl<'r> Walk<'_, '_, 'r> {
    fn enumerate(&mut self, indices: &[usize]) {
        let Some(pairs) = pairs_of(self.market, indices) else {
            return;
        };
        let len = pairs.len();
        let order: Vec<usize> = match self.request.mode {
            SwapMode::ExactIn => (0..len).collect(),
            SwapMode::ExactOut => (0..len).rev().collect(),
        };
        let mut seen: Vec<Vec<Seen>> = order
            .iter()
            .map(|&leg| {
                let n = pairs.get(leg).map_or(0, |(_, pair)| pair.rates.len());
                alloc::vec![Seen::default(); n]
            })
            .collect();
        self.visit(&pairs, &order, 0, self.request.amount.get(), &mut seen);
        let ids: Vec<&'r PairId> = pairs.iter().map(|(_, pair)| pair.id).collect();
        for (step, &leg) in order.iter().enumerate() {
            let Some(&(pair_at, pair)) = pairs.get(leg) else {
                return;
            };
            let Some(row) = seen.get(step) else {
                return;
            };
            let row = row.clone();
            for (index, (rate, seen)) in pair.rates.iter().zip(row).enumerate() {
                if !seen.visited || seen.passed {
                    continue;
                }
                if let Some((_, reason)) = seen.largest {
                    self.refuse(&ids, leg, step, pair_at, index, rate, reason);
                }
            }
        }
    }

    fn visit(
        &mut self,
        pairs: &[(usize, &MarketPair<'r>)],
        order: &[usize],
        step: usize,
        value: Decimal,
        seen: &mut [Vec<Seen>],
    ) {
        let (Some(&leg), Some(row_at)) = (order.get(step), Some(step)) else {
            return;
        };
        let Some(&(_, pair)) = pairs.get(leg) else {
            return;
        };
        let last = step.saturating_add(1) == order.len();
        let at = At {
            last,
            final_leg: leg.saturating_add(1) == pairs.len(),
        };
        for (index, rate) in pair.rates.iter().enumerate() {
            let outcome = self.judge(rate, value, at);
            let Some(slot) = seen.get_mut(row_at).and_then(|row| row.get_mut(index)) else {
                continue;
            };
            slot.visited = true;
            match outcome {
                Ok(next) => {
                    slot.passed = true;
                    if step == 0 {
                        self.reach.step_one.passed = true;
                    }
                    if last {
                        self.reach.found = true;
                    } else {
                        self.visit(pairs, order, step.saturating_add(1), next, seen);
                    }
                }
                Err(reason) => {
                    if slot.largest.as_ref().is_none_or(|(held, _)| value > *held) {
                        slot.largest = Some((value, reason));
                    }
                }
            }
        }
    }
}
