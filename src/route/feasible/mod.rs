//! Amounts that work (ruling 38 in docs/RULES.md): for one pair's rates at
//! `now`, every amount some rate serves, as sorted disjoint ranges, with
//! the smallest and largest, and the answers under a spendable balance.
//!
//! # How
//! Each rate serves one interval of the amount grid under the request's
//! whole policy (ruling 41): the one model of a rate over amounts
//! (`rules/served.rs`), the engine's own eligibility check at a handful of
//! amounts. A median price guard's reference is found once, over the rates
//! that serve some amount (ruling 42). Building is `O(n log n)` (the
//! intervals are sorted and merged); [`Feasible::max_within`] finds its amount by one binary search
//! over prefix maxima of the intervals' upper ends.
//!
//! Which rate serves an amount: in ExactIn the one the ranking chooses there
//! (highest net output, then ruling 7's ties); in ExactOut the one with the
//! smallest required input, then ruling 7's ties (the estimator's choice,
//! ruling 8). Naming it scans the rates whose intervals hold the amount.

mod working;

pub(crate) use working::name_working;

use alloc::vec::Vec;
use core::cmp::Ordering;

use rust_decimal::Decimal;
use serde::ser::SerializeStruct;
use serde::{Serialize, Serializer};

use super::envelope::{at, envelope, Piece, Rank};
use super::rules::order::{net_cmp, tie_order};
use super::rules::served::{
    decimal_at, exact_units, grid_floor, resolve_guard, AmountModel, PLACES,
};
use super::{Floors, Policy};
use crate::decimal::{Amount, Plain};
use crate::rate::{CampaignLimits, MixedPairs, Rate, RateList};
use crate::swap_mode::SwapMode;
use crate::time::EpochMillis;

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
    model: AmountModel<'c>,
}

impl FeasibleQuery<'static> {
    /// The amounts that work in `mode` at `now`, 8-place, under the
    /// default policy (no campaign limits, floors or guard).
    pub fn new(mode: SwapMode, now: EpochMillis) -> Self {
        FeasibleQuery {
            model: AmountModel::new(mode, now, Policy::DEFAULT),
        }
    }
}

impl<'c> FeasibleQuery<'c> {
    /// Under the caller's whole policy (ruling 41): campaigns, the limit
    /// policy, the floors and the price guard, as [`RouteRequest::best`](super::RouteRequest::best)
    /// applies them, so an amount is feasible exactly when `best` serves it.
    #[must_use]
    pub fn with_policy<'a>(self, policy: Policy<'a>) -> FeasibleQuery<'a>
    where
        'c: 'a,
    {
        FeasibleQuery {
            model: AmountModel {
                policy,
                ..self.model
            },
        }
    }

    /// With the caller's campaign limits (ruling 3).
    #[must_use]
    pub fn with_campaigns<'a>(self, campaigns: &'a CampaignLimits) -> FeasibleQuery<'a>
    where
        'c: 'a,
    {
        let policy = self.model.policy.with_campaigns(campaigns);
        self.with_policy(policy)
    }

    /// With the caller's economic floors.
    #[must_use]
    pub fn with_floors(mut self, floors: Floors) -> Self {
        self.model.policy = self.model.policy.with_floors(floors);
        self
    }

    /// With the assets' decimals: ExactIn amounts (and ExactOut required
    /// inputs, rounded up) have `min(8, from)` places, ExactOut amounts
    /// `min(8, to)`.
    #[must_use]
    pub fn with_decimals(mut self, from: u8, to: u8) -> Self {
        self.model.from_places = u32::from(from).min(PLACES);
        self.model.to_places = u32::from(to).min(PLACES);
        self
    }

    /// The policy the amounts are judged under.
    pub fn policy(&self) -> Policy<'c> {
        self.model.policy
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
        let m = self.model;
        let resolved = m
            .policy
            .price_guard()
            .and_then(|guard| resolve_guard(guard, rates, m.mode, m.now, m.policy));
        let model = match &resolved {
            Some(guard) => AmountModel {
                policy: m.policy.with_price_guard(guard),
                ..m
            },
            // No guard, or the caller's reference: as given.
            None => m,
        };
        let mut intervals: Vec<Interval<'r>> = rates
            .iter()
            .filter_map(|rate| {
                let (from, to) = model.interval(rate)?;
                Some(Interval { from, to, rate })
            })
            .collect();
        // ExactIn: the route ranked first at every amount, as pieces. Built
        // from the rates in input order: where two rates are equal in every
        // key, the envelope keeps the earlier, as the ranking does (step 5
        // of ruling 7).
        let pieces = if m.mode == SwapMode::ExactIn {
            ranking_envelope(&intervals, m.from_places)
        } else {
            Vec::new()
        };
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
        let mut reach: Vec<i128> = Vec::with_capacity(intervals.len());
        for interval in &intervals {
            let held = reach.last().copied();
            reach.push(held.map_or(interval.to, |to| to.max(interval.to)));
        }
        // Sorted by upper end; `tops[i]` holds the best (net output at its
        // top, then the smaller amount, then ruling 7) of `by_top[..=i]`.
        let mut by_top: Vec<(i128, Decimal, &'r Rate)> = Vec::new();
        if m.mode == SwapMode::ExactIn {
            by_top = intervals
                .iter()
                .filter_map(|i| {
                    let net = super::rules::net_output::net_output(
                        i.rate,
                        decimal_at(i.to, m.from_places)?,
                    )?;
                    Some((i.to, net, i.rate))
                })
                .collect();
            by_top.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| tie_order(a.2, b.2)));
            let mut held: Option<(i128, Decimal, &'r Rate)> = None;
            let places = m.from_places;
            for slot in &mut by_top {
                let better = held
                    .is_none_or(|held| exact_order(*slot, held, places) == Some(Ordering::Greater));
                if better {
                    held = Some(*slot);
                } else if let Some(best) = held {
                    *slot = best;
                }
            }
        }
        let mut feasible = Feasible {
            pieces,
            tops: by_top,
            model: AmountModel {
                policy: Policy::DEFAULT,
                ..m
            },
            places: m.places(),
            intervals,
            ranges,
            reach,
            min: None,
            max: None,
        };
        let first = feasible.ranges.first().map(|r| r.0);
        let last = feasible.ranges.last().map(|r| r.1);
        feasible.min = first.and_then(|x| feasible.served(x));
        feasible.max = last.and_then(|x| feasible.served(x));
        Ok(feasible)
    }
}

/// The exact order (ruling 43) of two ExactIn routes given as (amount on the
/// grid at `places`, `Decimal` net output, rate).
fn exact_order(
    a: (i128, Decimal, &Rate),
    b: (i128, Decimal, &Rate),
    places: u32,
) -> Option<Ordering> {
    let (xa, xb) = (decimal_at(a.0, places)?, decimal_at(b.0, places)?);
    Some(net_cmp((a.1, xa, a.2), (b.1, xb, b.2)))
}

/// The ranking's upper envelope over the rates' ExactIn intervals at
/// `places` (see `envelope.rs`).
fn ranking_envelope<'r>(intervals: &[Interval<'r>], places: u32) -> Vec<Piece<'r>> {
    let segments: Vec<Piece<'r>> = intervals
        .iter()
        .map(|i| Piece {
            from: i.from,
            to: i.to,
            rate: i.rate,
        })
        .collect();
    let wins = |a: &Rate, b: &Rate, x: i128| -> bool {
        let Some(amount) = decimal_at(x, places) else {
            return false;
        };
        let net = |r: &Rate| super::rules::net_output::net_output(r, amount);
        match (net(a), net(b)) {
            // By the exact nets (ruling 43), as the ranking orders them.
            (Some(na), Some(nb)) => match net_cmp((na, amount, a), (nb, amount, b)) {
                Ordering::Greater => true,
                Ordering::Equal => tie_order(a, b) == Ordering::Less,
                Ordering::Less => false,
            },
            (Some(_), None) => true,
            _ => false,
        }
    };
    // Where two lines cross: (fee_a − fee_b) / (m_a − m_b), a guess.
    let cross = |a: &Rate, b: &Rate| -> Option<i128> {
        let dm = a.multiplier().checked_sub(b.multiplier())?;
        if dm.is_zero() {
            return None;
        }
        let x = a.miner_fee().checked_sub(b.miner_fee())?.checked_div(dm)?;
        grid_floor(x, places)
    };
    envelope(
        &segments,
        &Rank {
            wins: &wins,
            cross: &cross,
        },
    )
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
    /// The model's mode and grids (its policy left out: the intervals
    /// hold what it decided).
    model: AmountModel<'static>,
    /// ExactIn: the route ranked first at every amount that works
    /// (see `envelope.rs`), sorted.
    pieces: Vec<Piece<'r>>,
    /// ExactIn: the intervals by upper end with prefix bests (see `amounts`).
    tops: Vec<(i128, Decimal, &'r Rate)>,
    places: u32,
    /// Sorted by lower end, then ruling 7's ties.
    intervals: Vec<Interval<'r>>,
    /// Merged: disjoint, sorted, a gap of at least two grid units between.
    ranges: Vec<(i128, i128)>,
    /// `reach[i]`: the largest upper end among `intervals[..=i]`.
    reach: Vec<i128>,
    min: Option<Served<'r>>,
    max: Option<Served<'r>>,
}

impl<'r> Feasible<'r> {
    /// The swap mode the amounts are for.
    pub fn mode(&self) -> SwapMode {
        self.model.mode
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

    /// The largest amount that works and is not above `balance`, with the
    /// rate that serves it as [`RouteRequest::best`](super::RouteRequest::best) ranks there (ruling 41:
    /// ExactIn the highest net output, ExactOut the smallest required input,
    /// then ruling 7's ties); `None` when none fits. One binary search over
    /// the intervals' prefix maxima finds the amount (`O(log n)`), then the
    /// rate as [`min`](Self::min) and [`max`](Self::max) name theirs.
    pub fn max_within(&self, balance: Amount) -> Option<Served<'r>> {
        let b = grid_floor(balance.get(), self.places)?;
        let before = self.intervals.partition_point(|i| i.from <= b);
        let reach = *self.reach.get(before.checked_sub(1)?)?;
        self.served(reach.min(b))
    }

    /// The amount not above `balance` with the best net output (ties: the
    /// smaller amount), with its rate; `None` when none fits.
    ///
    /// ExactIn: a rate's net output grows with the amount, so its best
    /// under the balance is the top of its interval or the balance itself.
    /// The rates whose intervals end at or below the balance are one binary
    /// search over prefix bests; the route ranked first at the balance is
    /// one binary search over the pieces of the rankings' upper envelope
    /// built with the answer: `O(log n)`.
    /// ExactOut: the order delivers exactly the amount, so this is
    /// [`max_within`](Self::max_within).
    pub fn best_within(&self, balance: Amount) -> Option<Served<'r>> {
        if self.model.mode == SwapMode::ExactOut {
            return self.max_within(balance);
        }
        let b = grid_floor(balance.get(), self.places)?;
        let below = self
            .tops
            .partition_point(|t| t.0 <= b)
            .checked_sub(1)
            .and_then(|i| self.tops.get(i))
            .copied();
        let at_balance = at(&self.pieces, b)
            .and_then(|piece| Some((b, self.net_in(piece.rate, b)?, piece.rate)));
        let (x, net_output, rate) = match (below, at_balance) {
            // Equal nets: the smaller amount, the top below the balance.
            (Some(low), Some(high))
                if match exact_order(high, low, self.places) {
                    Some(Ordering::Less) => true,
                    Some(Ordering::Equal) => low.0 < b,
                    _ => false,
                } =>
            {
                low
            }
            (_, Some(high)) => high,
            (low, None) => low?,
        };
        Some(Served {
            amount: decimal_at(x, self.places)?,
            rate,
            net_output,
        })
    }

    /// ExactIn: the rate ranked first at `amount` when it works (on the
    /// grid, served), as [`RouteRequest::best`](super::RouteRequest::best)
    /// ranks there: one binary search over the envelope's pieces. The rate
    /// book's query.
    pub(crate) fn ranked_first(&self, amount: Decimal) -> Option<&'r Rate> {
        if self.model.mode != SwapMode::ExactIn {
            return None;
        }
        let x = exact_units(amount, self.places)?;
        at(&self.pieces, x).map(|piece| piece.rate)
    }

    /// The net output of `rate` at the ExactIn amount `x`.
    fn net_in(&self, rate: &Rate, x: i128) -> Option<Decimal> {
        super::rules::net_output::net_output(rate, decimal_at(x, self.places)?)
    }

    /// The amount `x` (known to work) with the rate that serves it: ExactIn
    /// the highest net output then ruling 7's ties (the envelope's piece);
    /// ExactOut the estimator's choice (a scan of the intervals).
    fn served(&self, x: i128) -> Option<Served<'r>> {
        let query = &self.model;
        if query.mode == SwapMode::ExactIn {
            let rate = at(&self.pieces, x)?.rate;
            return Some(Served {
                amount: decimal_at(x, self.places)?,
                rate,
                net_output: self.net_in(rate, x)?,
            });
        }
        // ExactOut: the estimator's order (ruling 8): the smaller required
        // input on the grid, then the higher net output there (ruling 43,
        // exact), then ruling 7's ties.
        let mut best: Option<(Decimal, Decimal, &'r Rate)> = None;
        for interval in self.intervals.iter().take_while(|i| i.from <= x) {
            if interval.to < x {
                continue;
            }
            let rate = interval.rate;
            let Some(input) = query.required_at(rate, x) else {
                continue;
            };
            let Some(net) = super::rules::net_output::net_output(rate, input) else {
                continue;
            };
            let better = best.is_none_or(|(held_input, held_net, held)| {
                input
                    .cmp(&held_input)
                    .then_with(|| net_cmp((held_net, held_input, held), (net, input, rate)))
                    .then_with(|| tie_order(rate, held))
                    == Ordering::Less
            });
            if better {
                best = Some((input, net, rate));
            }
        }
        let (_, _, rate) = best?;
        Some(Served {
            amount: decimal_at(x, self.places)?,
            rate,
            net_output: decimal_at(x, self.places)?,
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
