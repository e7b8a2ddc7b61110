//! The route ranked first at an ExactIn amount that works (ruling 38's
//! "which rate serves it", as [`RouteRequest::best`](crate::route::RouteRequest::best)
//! ranks there): the crate's one upper envelope (`route/envelope.rs`, the
//! rate book's) over the rates' lines, each on the interval the policy lets
//! it serve (`rules/served.rs`), beside a scan of the rates it cannot hold
//! as exact integer lines.
//!
//! A line is `x ↦ x × multiplier − fee` at 28 places, exact in integers;
//! its interval is the rate's served interval scaled from the grid to 28
//! places. At an amount where some line's value is not an integer at 28
//! places (a multiplier with more places than the grid leaves), the
//! envelope cannot key it and the answer is a scan of the intervals holding
//! the amount, by the ranking's own exact comparison (ruling 43). Building
//! is `O(n log n)`; a query `O(log² n)` plus the rates left out of the
//! envelope.

use alloc::vec::Vec;
use core::cmp::Ordering;

use rust_decimal::Decimal;

use crate::numeric::{div_wide, pow10, wide_mul, OPERAND_LIMIT};
use crate::rate::prepared::{FAST, USABLE};
use crate::rate::Rate;
use crate::route::envelope::{Envelope, Line};
use crate::route::rules::net_output::net_output;
use crate::route::rules::order::{net_cmp, tie_order};
use crate::route::rules::served::decimal_at;

/// The places of an envelope amount (`x28`): the engine's fast keys'.
const PLACES28: u32 = 28;

/// A rate's served interval on the grid, both ends included.
#[derive(Clone, Copy, Debug)]
pub(super) struct Interval<'r> {
    pub(super) from: i128,
    pub(super) to: i128,
    pub(super) rate: &'r Rate,
}

/// The index: the envelope over the rates with an exact line, and the rest.
#[derive(Clone, Debug, Default)]
pub(super) struct RankedFirst<'r> {
    /// The envelope's lines in its (slope) order, with their intervals.
    keyed: Vec<(Line, Interval<'r>)>,
    envelope: Envelope,
    /// `10^S` for the lines' common slope scale `S`.
    unit: u128,
    /// `10^(28 − places)`: a grid amount to `x28`.
    to28: u128,
    /// The grid's places.
    places: u32,
    /// Intervals the envelope does not hold, sorted by lower end.
    loose: Vec<Interval<'r>>,
}

impl<'r> RankedFirst<'r> {
    /// The index over `intervals` (sorted by lower end) on the grid at
    /// `places`.
    pub(super) fn new(intervals: &[Interval<'r>], places: u32) -> Self {
        let to28 = PLACES28.checked_sub(places).and_then(pow10);
        let slope_scale = intervals
            .iter()
            .filter(|i| i.rate.prepared().has(USABLE | FAST))
            .map(|i| i.rate.prepared().multiplier_scale())
            .max()
            .unwrap_or(0);
        let unit = pow10(slope_scale);
        let mut keyed: Vec<(Line, Interval<'r>)> = Vec::with_capacity(intervals.len());
        let mut loose: Vec<Interval<'r>> = Vec::new();
        for interval in intervals {
            match to28.and_then(|to28| line(interval, slope_scale, to28)) {
                Some(line) => keyed.push((line, *interval)),
                None => loose.push(*interval),
            }
        }
        // Slope order; equal slopes best first (lower fee, then ruling 7).
        keyed.sort_by(|a, b| {
            a.0.slope
                .cmp(&b.0.slope)
                .then_with(|| a.0.fee.cmp(&b.0.fee))
                .then_with(|| tie_order(a.1.rate, b.1.rate))
        });
        let lines: Vec<Line> = keyed.iter().map(|k| k.0).collect();
        if let (Some(unit), Some(to28)) = (unit, to28) {
            if let Some(envelope) = Envelope::new(&lines, unit) {
                return RankedFirst {
                    keyed,
                    envelope,
                    unit,
                    to28,
                    places,
                    loose,
                };
            }
        }
        // No envelope (past `u32` positions): every interval is scanned.
        RankedFirst {
            places,
            loose: intervals.to_vec(),
            ..RankedFirst::default()
        }
    }

    /// The rate ranked first at the grid amount `x` among the intervals
    /// holding it, with its net output; `None` when none holds it.
    pub(super) fn at(&self, x: i128) -> Option<(&'r Rate, Decimal)> {
        let amount = decimal_at(x, self.places)?;
        let mut best: Option<(Decimal, &'r Rate)> = None;
        let mut consider = |rate: &'r Rate| {
            let Some(net) = net_output(rate, amount) else {
                return;
            };
            let better = best.is_none_or(|(held_net, held)| {
                match net_cmp((net, amount, rate), (held_net, amount, held)) {
                    Ordering::Greater => true,
                    Ordering::Equal => tie_order(rate, held) == Ordering::Less,
                    Ordering::Less => false,
                }
            });
            if better {
                best = Some((net, rate));
            }
        };
        let keyed = u128::try_from(x)
            .ok()
            .and_then(|x| x.checked_mul(self.to28))
            .filter(|&x28| x28 < OPERAND_LIMIT)
            .map_or(Err(()), |x28| {
                self.envelope
                    .best(x28, |p| self.key(p, x28), |a, b| self.tie(a, b))
            });
        match keyed {
            Ok(Some((_, p))) => {
                if let Some((_, interval)) = self.line_at(p) {
                    consider(interval.rate);
                }
            }
            Ok(None) => {}
            // A key the envelope cannot compare exactly: scan its lines.
            Err(()) => {
                for (_, interval) in &self.keyed {
                    if interval.from <= x && x <= interval.to {
                        consider(interval.rate);
                    }
                }
            }
        }
        for interval in self.loose.iter().take_while(|i| i.from <= x) {
            if x <= interval.to {
                consider(interval.rate);
            }
        }
        best.map(|(net, rate)| (rate, net))
    }

    /// The line at envelope position `p`.
    fn line_at(&self, p: u32) -> Option<&(Line, Interval<'r>)> {
        self.keyed.get(usize::try_from(p).ok()?)
    }

    /// Line `p`'s exact net output × 10^28 at `x28`, `None` when it is not
    /// an integer there (or does not fit).
    fn key(&self, p: u32, x28: u128) -> Option<i128> {
        let (line, _) = self.line_at(p)?;
        let (high, low) = wide_mul(x28, line.slope);
        let gross = div_wide(high, low, self.unit)?;
        // Exact only when `x28 × slope` is a multiple of the unit.
        let (back_high, back_low) = wide_mul(gross, self.unit);
        if (back_high, back_low) != (high, low) {
            return None;
        }
        i128::try_from(gross)
            .ok()?
            .checked_sub(i128::try_from(line.fee).ok()?)
    }

    /// Equal keys: ruling 7's ties between envelope positions.
    fn tie(&self, a: u32, b: u32) -> Ordering {
        match (self.line_at(a), self.line_at(b)) {
            (Some(a), Some(b)) => tie_order(a.1.rate, b.1.rate),
            _ => Ordering::Equal,
        }
    }
}

/// The exact line of `interval`'s rate at the slope scale, its interval at
/// 28 places; `None` when it has none (no fast form, numbers too wide).
fn line(interval: &Interval<'_>, slope_scale: u32, to28: u128) -> Option<Line> {
    let p = interval.rate.prepared();
    if !p.has(USABLE | FAST) {
        return None;
    }
    let up = pow10(slope_scale.checked_sub(p.multiplier_scale())?)?;
    let slope = u128::from(p.multiplier).checked_mul(up)?;
    let min = u128::try_from(interval.from).ok()?.checked_mul(to28)?;
    let max = u128::try_from(interval.to).ok()?.checked_mul(to28)?;
    (slope < OPERAND_LIMIT && max < OPERAND_LIMIT).then_some(Line {
        slope,
        fee: p.fee28,
        min,
        max,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::route::rules::fixtures::{d, named};

    /// Intervals on the 8-place grid from whole-unit ends.
    fn on(rate: &Rate, from: i128, to: i128) -> Interval<'_> {
        Interval {
            from: from * 100_000_000,
            to: to * 100_000_000,
            rate,
        }
    }

    /// The index with every interval scanned: the answer without the
    /// envelope.
    fn scanned<'r>(intervals: &[Interval<'r>]) -> RankedFirst<'r> {
        RankedFirst {
            places: 8,
            loose: intervals.to_vec(),
            ..RankedFirst::default()
        }
    }

    #[test]
    fn a_key_is_the_exact_net_at_28_places_or_none() {
        // ×1.5, fee 0.25 at 1.00000001: 1.500000015 − 0.25 = 1.250000015.
        let rate = named("a", "1.5", "0.25");
        let index = RankedFirst::new(&[on(&rate, 0, 10)], 8);
        let x28 = 100_000_001u128 * 10u128.pow(20);
        assert_eq!(index.key(0, x28), Some(12_500_000_150_000_000_000_000_000_000));
        // ×(1 + 10⁻²⁸) at 10⁻⁸: the product has 36 places, no 28-place key.
        let deep = named("b", "1.0000000000000000000000000001", "0");
        let index = RankedFirst::new(&[on(&deep, 0, 10)], 8);
        assert_eq!(index.key(0, 10u128.pow(20)), None);
        // The scan still answers there, by the exact net.
        let (rate, net) = index.at(1).unwrap();
        assert_eq!((rate.id().as_str(), net), ("b", d("0.00000001")));
    }

    #[test]
    fn the_first_is_the_best_net_then_the_lower_fee_through_the_envelope_and_the_scan() {
        // a: 2x − 1, b: x (both on [0, 10]), c: 3x − 9 on [5, 10].
        // At 0.5: a 0, b 0.5 → b. At 1: a 1 = b 1 → the lower fee, b.
        // At 3: a 5, b 3 → a. At 8: a 15, c 15 → the lower fee, a.
        // At 9: a 17, c 18 → c. At 11: nothing.
        let (a, b, c) = (
            named("a", "2", "1"),
            named("b", "1", "0"),
            named("c", "3", "9"),
        );
        let intervals = [on(&a, 0, 10), on(&b, 0, 10), on(&c, 5, 10)];
        let index = RankedFirst::new(&intervals, 8);
        assert!(index.loose.is_empty(), "every line is exact");
        for index in [index, scanned(&intervals)] {
            let id = |x: i128| index.at(x).map(|(rate, net)| (rate.id().as_str(), net));
            assert_eq!(id(50_000_000), Some(("b", d("0.5"))));
            assert_eq!(id(100_000_000), Some(("b", d("1"))));
            assert_eq!(id(300_000_000), Some(("a", d("5"))));
            assert_eq!(id(800_000_000), Some(("a", d("15"))));
            assert_eq!(id(900_000_000), Some(("c", d("18"))));
            assert_eq!(id(1_100_000_000), None);
        }
    }

    #[test]
    fn equal_lines_go_to_the_lower_id_and_a_wide_rate_is_scanned_beside() {
        // Two equal lines: ruling 7 names "x" before "y". A rate with a
        // multiplier past the fast form's width is scanned beside the
        // envelope and wins where its net is higher (×10^20 at 1: 10^20).
        let (x, y) = (named("y", "2", "1"), named("x", "2", "1"));
        let wide = named("w", "100000000000000000000", "0");
        let intervals = [on(&y, 0, 10), on(&x, 0, 10), on(&wide, 1, 2)];
        let index = RankedFirst::new(&intervals, 8);
        assert_eq!(index.loose.len(), 1, "the wide rate has no exact line");
        let id = |x: i128| index.at(x).map(|(rate, _)| rate.id().as_str());
        assert_eq!(id(50_000_000), Some("x"));
        assert_eq!(id(100_000_000), Some("w"));
        assert_eq!(id(300_000_000), Some("x"));
    }
}
