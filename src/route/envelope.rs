//! Upper envelopes of rate lines over amount intervals: the one envelope
//! of the crate, the sub-linear part of a [`RateBook`](super::RateBook) and
//! of the amounts that work ([`Feasible`](super::Feasible): the route
//! ranked first at an amount, ruling 38).
//!
//! A rate is the line `x ↦ x × m − fee` on its interval `[min, max]`. A
//! segment tree over the intervals' end points holds each line in the
//! `O(log n)` nodes that cover its interval; each node keeps the upper
//! envelope (convex hull) of its lines, sorted by slope. A query walks from
//! the leaf of `x` to the root and finds, in each node, the best line at `x`
//! by binary search over the hull's break points, integers computed once
//! when the tree is built: `O(log² n)` integer comparisons and one
//! evaluation of the exact fast key per node on the path.
//!
//! Everything is exact: slopes and fees are integers at common scales, the
//! hull test compares 256-bit products, a break point is the least amount
//! at which the next line is strictly better (a 256-bit quotient, rounded
//! the way that keeps it exact for integer amounts), and across nodes the
//! query compares the engine's own integer keys. Ties follow the engine:
//! higher net, lower fee, base rate before a sponsored variant, id bytes,
//! then input order.

use alloc::vec::Vec;
use core::cmp::Ordering;

use crate::numeric::{div_wide, wide_mul};

/// One line: a rate in slope order, with what the order needs. It serves
/// the closed interval `[min, max]`: limits are inclusive, the rule of
/// `LimitCheck::of` (`route/ranked.rs`), which the scan the book is tested
/// against calls.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Line {
    /// The multiplier at the book's common slope scale.
    pub(crate) slope: u128,
    /// `minerFee × 10^28`.
    pub(crate) fee: u128,
    /// `min × 10^28`.
    pub(crate) min: u128,
    /// `effective max × 10^28`.
    pub(crate) max: u128,
}

/// The segment tree of hulls. Lines are referred to by their position in
/// the slice given to [`Envelope::new`] (which is in slope order).
#[derive(Clone, Debug, Default)]
pub(crate) struct Envelope {
    /// The distinct interval end points, ascending.
    points: Vec<u128>,
    /// Leaves of the tree (a power of two, at least `2 × points + 1`).
    size: usize,
    /// Node `v`'s hull is `hulls[starts[v]..starts[v + 1]]`.
    starts: Vec<u32>,
    /// The hulls, each in slope order.
    hulls: Vec<u32>,
    /// Beside each hull entry: the least `x28` at which the next line of
    /// its hull is strictly better ([`least_better`]); `u128::MAX` for the
    /// last line of a hull.
    breaks: Vec<u128>,
}

impl Envelope {
    /// Builds the tree over `lines`, which must be sorted by slope, lines of
    /// equal slope best first (lower fee, then the engine's tie-breaks).
    /// `unit` is `10^S` for the lines' common slope scale `S`: a line's value
    /// at `x28` is `x28 × slope / unit − fee`. `O(n log n)` time and space;
    /// `None` past `u32` positions.
    pub(crate) fn new(lines: &[Line], unit: u128) -> Option<Self> {
        let mut points: Vec<u128> = Vec::with_capacity(lines.len().checked_mul(2)?);
        for line in lines {
            points.push(line.min);
            points.push(line.max);
        }
        points.sort_unstable();
        points.dedup();
        let leaves = points.len().checked_mul(2)?.checked_add(1)?;
        let size = leaves.checked_next_power_of_two()?;
        let nodes = size.checked_mul(2)?;
        // (node, line) pairs: lines in slope order within each node.
        let mut pairs: Vec<u64> = Vec::new();
        for (position, line) in lines.iter().enumerate() {
            let position = u32::try_from(position).ok()?;
            let low = leaf(&points, line.min)?;
            let high = leaf(&points, line.max)?;
            let mut left = low.checked_add(size)?;
            let mut right = high.checked_add(size)?.checked_add(1)?;
            while left < right {
                if left & 1 == 1 {
                    pairs.push(pair(left, position)?);
                    left = left.checked_add(1)?;
                }
                if right & 1 == 1 {
                    right = right.checked_sub(1)?;
                    pairs.push(pair(right, position)?);
                }
                left >>= 1;
                right >>= 1;
            }
        }
        pairs.sort_unstable();
        let mut starts: Vec<u32> = Vec::with_capacity(nodes.checked_add(1)?);
        let mut hulls: Vec<u32> = Vec::with_capacity(pairs.len());
        let mut rest = pairs.as_slice();
        for node in 0..nodes {
            starts.push(u32::try_from(hulls.len()).ok()?);
            let node = u64::try_from(node).ok()?;
            let count = rest.partition_point(|&p| p >> 32 == node);
            let (group, tail) = rest.split_at(count);
            rest = tail;
            let from = hulls.len();
            for &p in group {
                // The low half is the line's position.
                let position = u32::try_from(p & u64::from(u32::MAX)).ok()?;
                push_hull(lines, &mut hulls, from, position)?;
            }
        }
        starts.push(u32::try_from(hulls.len()).ok()?);
        hulls.shrink_to_fit();
        let mut breaks: Vec<u128> = Vec::with_capacity(hulls.len());
        for ends in starts.windows(2) {
            let [start, end] = *ends else { return None };
            let hull = hulls.get(usize::try_from(start).ok()?..usize::try_from(end).ok()?)?;
            for pair in hull.windows(2) {
                let [a, b] = *pair else { return None };
                let at = |p: u32| lines.get(usize::try_from(p).ok()?);
                breaks.push(least_better(at(a)?, at(b)?, unit)?);
            }
            if !hull.is_empty() {
                breaks.push(u128::MAX);
            }
        }
        Some(Envelope {
            points,
            size,
            starts,
            hulls,
            breaks,
        })
    }

    /// The best line at `x28` among those whose interval holds it, by
    /// `value` (the exact key of a line at `x`) and then by `order` (the
    /// engine's tie-breaks between two positions of equal value). `None`
    /// when no interval holds `x28`; `Err(())` when `value` cannot key a line.
    pub(crate) fn best(
        &self,
        x28: u128,
        value: impl Fn(u32) -> Option<i128>,
        order: impl Fn(u32, u32) -> Ordering,
    ) -> Result<Option<(i128, u32)>, ()> {
        let Some(leaf) = leaf(&self.points, x28) else {
            return Ok(None);
        };
        let mut node = leaf.checked_add(self.size).ok_or(())?;
        let mut best: Option<(i128, u32)> = None;
        while node > 0 {
            if let Some((hull, breaks)) = self.hull(node) {
                let found = hull_best(hull, breaks, x28, &value)?;
                let better = best.is_none_or(|(held, held_at)| match found.0.cmp(&held) {
                    Ordering::Equal => order(found.1, held_at) == Ordering::Less,
                    other => other == Ordering::Greater,
                });
                if better {
                    best = Some(found);
                }
            }
            node >>= 1;
        }
        Ok(best)
    }

    /// Node `node`'s hull and its break points, `None` when empty.
    fn hull(&self, node: usize) -> Option<(&[u32], &[u128])> {
        let start = usize::try_from(*self.starts.get(node)?).ok()?;
        let end = usize::try_from(*self.starts.get(node.checked_add(1)?)?).ok()?;
        let hull = self.hulls.get(start..end).filter(|hull| !hull.is_empty())?;
        Some((hull, self.breaks.get(start..end)?))
    }
}

/// The best line of a hull at `x28`: values along a hull rise, then fall,
/// so the best is the first line whose successor is not strictly better
/// there, the first whose break point is above `x28`. At a break point
/// itself the two lines tie and the lower slope (the lower fee) is the
/// engine's pick, which the break's "strictly better" keeps.
fn hull_best(
    hull: &[u32],
    breaks: &[u128],
    x28: u128,
    value: &impl Fn(u32) -> Option<i128>,
) -> Result<(i128, u32), ()> {
    let i = breaks.partition_point(|&least| least <= x28);
    let position = *hull.get(i).ok_or(())?;
    let found = (value(position).ok_or(())?, position);
    #[cfg(debug_assertions)]
    {
        // The break points against the keys themselves.
        let at = |j: usize| hull.get(j).and_then(|&p| value(p));
        if let Some(before) = i.checked_sub(1).and_then(at) {
            debug_assert!(before < found.0, "a break point passed a better line");
        }
        if let Some(after) = i.checked_add(1).and_then(at) {
            debug_assert!(
                after <= found.0,
                "a break point stopped before a better line"
            );
        }
    }
    Ok(found)
}

/// The least `x28` at which line `b` is strictly better than line `a`, for
/// `a.slope < b.slope`: `x28 × Δslope / unit − Δfee > 0` where `Δ = b − a`,
/// that is `x28 × Δslope > Δfee × unit`. For an integer `x28` that is `x28 >
/// ⌊Δfee × unit / Δslope⌋`; for `Δfee < 0` every `x28`. Saturates at
/// `u128::MAX`, which no amount reaches (`x28 < 2^126`). Equal slopes never
/// share a hull, and would still be answered right: "every amount" for a
/// lower fee, "none" (a zero divisor) otherwise.
fn least_better(a: &Line, b: &Line, unit: u128) -> Option<u128> {
    let rise = b.slope.checked_sub(a.slope)?;
    let Some(fee) = b.fee.checked_sub(a.fee) else {
        return Some(0);
    };
    let (high, low) = wide_mul(fee, unit);
    Some(div_wide(high, low, rise).map_or(u128::MAX, |q| q.saturating_add(1)))
}

/// Adds line `position` to the hull `hulls[from..]` (lines come in slope
/// order, equal slopes best first).
fn push_hull(lines: &[Line], hulls: &mut Vec<u32>, from: usize, position: u32) -> Option<()> {
    let line = *lines.get(usize::try_from(position).ok()?)?;
    loop {
        let len = hulls.len().checked_sub(from)?;
        let top = match hulls.last() {
            Some(&top) if len > 0 => *lines.get(usize::try_from(top).ok()?)?,
            _ => break,
        };
        if top.slope == line.slope {
            // The one already there is at least as good everywhere.
            return Some(());
        }
        if len < 2 {
            break;
        }
        let below = *hulls.get(hulls.len().checked_sub(2)?)?;
        let below = *lines.get(usize::try_from(below).ok()?)?;
        if never_best(&below, &top, &line)? {
            hulls.pop();
        } else {
            break;
        }
    }
    hulls.push(position);
    Some(())
}

/// For slopes `a < b < c`: line `b` is nowhere strictly above both others,
/// and where it ties it loses (to `a`, the lower fee). Exactly:
/// `(m_b − m_a)(f_c − f_a) ≤ (f_b − f_a)(m_c − m_a)`.
fn never_best(a: &Line, b: &Line, c: &Line) -> Option<bool> {
    let rise_b = b.slope.checked_sub(a.slope)?;
    let rise_c = c.slope.checked_sub(a.slope)?;
    let fee_c = signed_diff(c.fee, a.fee)?;
    let fee_b = signed_diff(b.fee, a.fee)?;
    Some(signed_product_cmp(rise_b, fee_c, rise_c, fee_b) != Ordering::Greater)
}

/// `x − y` as a sign and a magnitude.
fn signed_diff(x: u128, y: u128) -> Option<(bool, u128)> {
    if x >= y {
        Some((false, x.checked_sub(y)?))
    } else {
        Some((true, y.checked_sub(x)?))
    }
}

/// Compares `p × s` with `q × t` for non-negative `p`, `q` and signed `s`, `t`.
fn signed_product_cmp(p: u128, s: (bool, u128), q: u128, t: (bool, u128)) -> Ordering {
    let left = wide_mul(p, s.1);
    let right = wide_mul(q, t.1);
    let left_negative = s.0 && left != (0, 0);
    let right_negative = t.0 && right != (0, 0);
    match (left_negative, right_negative) {
        (false, false) => left.cmp(&right),
        (true, true) => right.cmp(&left),
        (true, false) => Ordering::Less,
        (false, true) => Ordering::Greater,
    }
}

/// The leaf of `x`: `2i + 1` for the end point `points[i]`, `2i` for the open
/// gap just below it (`2 × len` past the last).
fn leaf(points: &[u128], x: u128) -> Option<usize> {
    let i = points.partition_point(|&p| p < x);
    let twice = i.checked_mul(2)?;
    if points.get(i) == Some(&x) {
        twice.checked_add(1)
    } else {
        Some(twice)
    }
}

/// A (node, line position) pair as one sortable integer.
fn pair(node: usize, position: u32) -> Option<u64> {
    Some((u64::try_from(node).ok()? << 32) | u64::from(position))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn brute_force_agrees() {
        // Small lines, every query point: the envelope against a scan.
        let mut seed = 7u64;
        let mut next = |n: u64| {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            (seed >> 33) % n
        };
        // Units past 1: a line's value at `x` is `x × slope / unit − fee`;
        // `unit` times it, `x × slope − fee × unit`, orders the same.
        for unit in [1u128, 3, 1000] {
            brute_force_at(unit, &mut next);
        }
    }

    fn brute_force_at(unit: u128, next: &mut impl FnMut(u64) -> u64) {
        for _ in 0..300 {
            let count = 1 + next(12) as usize;
            let mut lines: Vec<Line> = (0..count)
                .map(|_| {
                    let (a, b) = (u128::from(next(20)), u128::from(next(20)));
                    Line {
                        slope: u128::from(next(6)),
                        fee: u128::from(next(30)),
                        min: a.min(b),
                        max: a.max(b),
                    }
                })
                .collect();
            lines.sort_by(|a, b| a.slope.cmp(&b.slope).then(a.fee.cmp(&b.fee)));
            let envelope = Envelope::new(&lines, unit).unwrap();
            for x in 0..22u128 {
                let value = |p: u32| {
                    let l = lines[p as usize];
                    Some((x * l.slope) as i128 - (l.fee * unit) as i128)
                };
                let order = |a: u32, b: u32| {
                    let (la, lb) = (lines[a as usize], lines[b as usize]);
                    la.fee.cmp(&lb.fee).then(a.cmp(&b))
                };
                let got = envelope.best(x, value, order).unwrap();
                let want = (0..count as u32)
                    .filter(|&p| lines[p as usize].min <= x && x <= lines[p as usize].max)
                    .map(|p| (value(p).unwrap(), p))
                    .min_by(|a, b| b.0.cmp(&a.0).then(order(a.1, b.1)));
                // Positions may differ only between identical lines.
                match (got, want) {
                    (Some(g), Some(w)) => {
                        assert_eq!(g.0, w.0);
                        let (lg, lw) = (lines[g.1 as usize], lines[w.1 as usize]);
                        assert_eq!(
                            (lg.slope, lg.fee),
                            (lw.slope, lw.fee),
                            "x = {x}, unit {unit}"
                        );
                    }
                    (g, w) => assert_eq!(g, w, "x = {x}, unit {unit}"),
                }
            }
        }
    }
}
