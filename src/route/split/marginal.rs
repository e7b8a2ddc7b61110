//! Step 2 of the split search: the exact best pair found by its marginal
//! leg, and one bound on every triple (ruling 48: no work refusal for
//! ordinary books).
//!
//! # Sets by their marginal leg
//! For a set `S` poured by multiplier (module documentation), at most one
//! leg `r` ends strictly inside its interval: the *marginal* leg. Every leg
//! poured before it stands at its `hi`, every leg after it at its `lo`, and
//! `r` takes the rest, `A − Σ x_s`. So the set's value is
//! `m_r·A − f_r + Σ_{s ≠ r} ((m_s − m_r)·x_s − f_s)`: each other leg adds a
//! *line* in `t = m_r`, `c_s − t·x_s` with `c_s = m_s·x_s − f_s`,
//! `x_s ∈ {hi_s, lo_s}`. With every number rounded the bounds' way
//! (`m` up in `c`, `t` down, fees down) and the intervals relaxed, that is
//! an upper bound of every set whose marginal leg is `r`:
//!
//! - a pair `{a, r}`: `a` at `hi_a` (needs `hi_a ≥ A − hi_r`) or at
//!   `lo_a` (needs `lo_a ≥ A − hi_r`). For each `r` the largest line at
//!   `t = m_r` among the rates past that threshold comes from one sweep
//!   (rates by threshold, lines by key, both descending) over an upper
//!   envelope of lines at the multipliers (a Li Chao tree): `O(n log n)`.
//!   The line that wins (ties: ruling 7's order) names a *candidate*
//!   partner, evaluated exactly. When the candidate reaches the bound, no
//!   other partner of `r` can beat it (nor come before it in ruling 39's
//!   tie order: equal lines are listed in ruling 7's order); when the
//!   bound is below the best found, `r` is done; otherwise every partner of
//!   `r` is evaluated (one unit each). The rates are taken by bound,
//!   highest first, until the bound falls below the best.
//! - a triple: two other legs at `(hi, hi)`, `(hi, lo)` or `(lo, lo)`,
//!   each form only when the book's smallest and largest ends can hold
//!   `[A − hi_r, A − lo_r]`. The two together hold at least `A − hi_r`, so
//!   each holds at least `A − hi_r` less the most the other can (the book's
//!   largest `hi` or `lo`): each is at most the largest line at `t` among
//!   the rates past that threshold (four more sweeps, one per end and
//!   neighbour; on a whole-unit grid, where few rates can make up the
//!   amount, this keeps the bound tight).
//!   When no rate's bound reaches the best pair (or single route), no
//!   triple can win (a triple that ties loses to fewer legs) and the walk
//!   of the triples is skipped.
//!
//! On a ramp book (multipliers and fees rising together, one limit) each
//! rate's bound is the value of its best pair, the best rate's candidate
//! reaches it, and the next bound is below: `O(n log n)` in all.

use alloc::vec::Vec;
use core::cmp::Ordering;

use super::model::{Candidate, UNIT, VALUE_SCALE};
use super::search::Search;
use crate::numeric::Wide;
use crate::rate::Rate;
use crate::route::rules::order::tie_order;

/// A rate's line in `t`: `c − t·x`, at the bounds' scale + 8 places.
#[derive(Clone, Copy, Debug)]
struct Line<'r> {
    /// The candidate's index.
    at: usize,
    /// Its rate (ruling 7's order decides between equal values).
    rate: &'r Rate,
    x: i128,
    c: i128,
}

impl<'r> Line<'r> {
    /// The line of candidate `at` with its amount at `x`.
    fn new(at: usize, candidate: &Candidate<'r>, x: i128) -> Option<Line<'r>> {
        let c = candidate
            .m_up
            .checked_mul(x)?
            .checked_sub(candidate.fee_down.checked_mul(UNIT)?)?;
        Some(Line {
            at,
            rate: candidate.rate,
            x,
            c,
        })
    }

    /// `c − t·x` (the numbers are checked to fit before any line is made).
    fn value(&self, t: i128) -> i128 {
        t.checked_mul(self.x)
            .and_then(|tx| self.c.checked_sub(tx))
            .unwrap_or(i128::MAX)
    }

    /// Higher at `t`, then first in ruling 7's order (then by index: a
    /// total order).
    fn beats(&self, other: &Line<'_>, t: i128) -> bool {
        match self.value(t).cmp(&other.value(t)) {
            Ordering::Greater => true,
            Ordering::Less => false,
            Ordering::Equal => {
                tie_order(self.rate, other.rate).then(self.at.cmp(&other.at)) == Ordering::Less
            }
        }
    }
}

/// No line in a node of the [`Envelope`].
const EMPTY: u32 = u32::MAX;

/// The upper envelope of lines at the points `ts` (ascending): a Li Chao
/// tree of indices into `lines`, `O(log n)` per insertion and per query.
struct Envelope<'p, 'r> {
    ts: &'p [i128],
    lines: &'p [Line<'r>],
    tree: Vec<u32>,
}

impl<'p, 'r> Envelope<'p, 'r> {
    fn new(ts: &'p [i128], lines: &'p [Line<'r>]) -> Self {
        // Halving `[0, len)` reaches depth ⌈log2 len⌉: nodes below
        // `2 × len.next_power_of_two()`.
        let nodes = ts.len().next_power_of_two().saturating_mul(2).max(2);
        Envelope {
            ts,
            lines,
            tree: alloc::vec![EMPTY; nodes],
        }
    }

    fn line(&self, at: u32) -> Option<&Line<'r>> {
        self.lines.get(usize::try_from(at).ok()?)
    }

    /// Adds `lines[at]`.
    fn insert(&mut self, at: u32) {
        let Some(mut hi) = self.ts.len().checked_sub(1) else {
            return;
        };
        let (mut node, mut lo, mut at) = (1usize, 0usize, at);
        loop {
            let mid = lo.saturating_add(hi.saturating_sub(lo) / 2);
            let (Some(&t_lo), Some(&t_mid), Some(&t_hi)) =
                (self.ts.get(lo), self.ts.get(mid), self.ts.get(hi))
            else {
                return;
            };
            let Some(&held_at) = self.tree.get(node) else {
                return;
            };
            let (Some(line), Some(held)) = (self.line(at), self.line(held_at)) else {
                if let Some(slot) = self.tree.get_mut(node) {
                    *slot = at;
                }
                return;
            };
            let (line, held) = (*line, *held);
            // The node keeps the line that wins at `mid`; the other can win
            // on one side only.
            let (winner_at, loser_at, winner, loser) = if line.beats(&held, t_mid) {
                (at, held_at, line, held)
            } else {
                (held_at, at, held, line)
            };
            if let Some(slot) = self.tree.get_mut(node) {
                *slot = winner_at;
            }
            if lo == hi {
                return;
            }
            at = loser_at;
            if loser.beats(&winner, t_lo) {
                node = node.saturating_mul(2);
                hi = mid;
            } else if loser.beats(&winner, t_hi) {
                node = node.saturating_mul(2).saturating_add(1);
                lo = mid.saturating_add(1);
            } else {
                return;
            }
        }
    }

    /// The best line at point `i` (by [`Line::beats`]).
    fn best(&self, i: usize) -> Option<Line<'r>> {
        let t = *self.ts.get(i)?;
        let mut hi = self.ts.len().checked_sub(1)?;
        let (mut node, mut lo) = (1usize, 0usize);
        let mut best: Option<Line<'r>> = None;
        while let Some(held) = self.tree.get(node).and_then(|&at| self.line(at)) {
            if best.is_none_or(|b| held.beats(&b, t)) {
                best = Some(*held);
            }
            if lo == hi {
                break;
            }
            let mid = lo.saturating_add(hi.saturating_sub(lo) / 2);
            if i <= mid {
                node = node.saturating_mul(2);
                hi = mid;
            } else {
                node = node.saturating_mul(2).saturating_add(1);
                lo = mid.saturating_add(1);
            }
        }
        best
    }
}

/// What the pair step knows of the book: each candidate's point among the
/// multipliers.
struct Book {
    /// The distinct `m_down`, ascending.
    ts: Vec<i128>,
    /// Each candidate's index into `ts`.
    point: Vec<usize>,
    /// The candidates by threshold `A − hi`, highest first.
    asks: Vec<(i128, usize)>,
}

impl Book {
    fn new(candidates: &[Candidate<'_>], total: i128) -> Option<Book> {
        let mut asks: Vec<(i128, usize)> = candidates
            .iter()
            .enumerate()
            .map(|(at, c)| (total.saturating_sub(c.hi), at))
            .collect();
        asks.sort_unstable_by_key(|a| core::cmp::Reverse(a.0));
        // The multipliers sorted once: each candidate's point as the
        // distinct values are counted.
        let mut by_m: Vec<(i128, usize)> = candidates
            .iter()
            .enumerate()
            .map(|(at, c)| (c.m_down, at))
            .collect();
        by_m.sort_unstable();
        let mut ts: Vec<i128> = Vec::with_capacity(by_m.len());
        let mut point = alloc::vec![0usize; candidates.len()];
        for &(m, at) in &by_m {
            if ts.last() != Some(&m) {
                ts.push(m);
            }
            *point.get_mut(at)? = ts.len().checked_sub(1)?;
        }
        Some(Book { ts, point, asks })
    }
}

/// Per candidate `r`: the best line at its multiplier among the rates whose
/// `x` is at least its threshold `A − hi_r − shift`, one per candidate; or,
/// when every line has one `x` (one limit across the book), the one line
/// that is best at every `t`, for every candidate whose threshold `x`
/// reaches.
enum Partners<'r> {
    Each(Vec<Option<Line<'r>>>),
    One {
        line: Line<'r>,
        x: i128,
        shift: i128,
    },
}

impl<'r> Partners<'r> {
    /// The best line past candidate `r`'s threshold.
    fn of(&self, r: usize, c: &Candidate<'_>, total: i128) -> Option<Line<'r>> {
        match self {
            Partners::Each(lines) => lines.get(r).copied().flatten(),
            Partners::One { line, x, shift } => {
                (c.hi.saturating_add(*x).saturating_add(*shift) >= total).then_some(*line)
            }
        }
    }
}

/// [`Partners`] with `x` from `key` (`hi` or `lo`): one sweep over the
/// rates by threshold (`book.asks`: `A − hi`, highest first; a constant
/// `shift` keeps that order) and the lines by `x`, both descending, over
/// an upper envelope. The book is built on first need (`book`): parallel
/// lines need none.
fn sweep<'r>(
    candidates: &[Candidate<'r>],
    book: &mut Option<Book>,
    total: i128,
    key: fn(&Candidate<'_>) -> i128,
    shift: i128,
) -> Option<Partners<'r>> {
    let first = candidates.first().map(key)?;
    if candidates.iter().all(|c| key(c) == first) {
        return parallel(candidates, first, shift);
    }
    let n = candidates.len();
    let mut lines: Vec<Line<'r>> = Vec::with_capacity(n);
    for (at, c) in candidates.iter().enumerate() {
        lines.push(Line::new(at, c, key(c))?);
    }
    lines.sort_unstable_by_key(|l| core::cmp::Reverse(l.x));
    if book.is_none() {
        *book = Book::new(candidates, total);
    }
    let book = book.as_ref()?;
    let mut envelope = Envelope::new(&book.ts, &lines);
    let mut out = alloc::vec![None; n];
    let mut next = 0usize;
    for &(threshold, at) in &book.asks {
        let threshold = threshold.saturating_sub(shift);
        while lines.get(next).is_some_and(|l| l.x >= threshold) {
            envelope.insert(u32::try_from(next).ok()?);
            next = next.saturating_add(1);
        }
        *out.get_mut(at)? = envelope.best(*book.point.get(at)?);
    }
    Some(Partners::Each(out))
}

/// [`sweep`] when every line has one `x` (one limit across the book): the
/// lines are parallel, so one line is best at every `t`: the highest `c`,
/// then ruling 7's order. `O(n)`, no allocation.
fn parallel<'r>(candidates: &[Candidate<'r>], x: i128, shift: i128) -> Option<Partners<'r>> {
    let mut best: Option<Line<'r>> = None;
    for (at, c) in candidates.iter().enumerate() {
        let line = Line::new(at, c, x)?;
        if best.is_none_or(|b| line.beats(&b, 0)) {
            best = Some(line);
        }
    }
    Some(Partners::One {
        line: best?,
        x,
        shift,
    })
}

/// What step 2 leaves for the triples' bound: for a triple whose marginal
/// leg is `r` and whose other legs stand at `(hi, lo)`, `(hi, hi)` or
/// `(lo, lo)`, the two others together hold at least `A − hi_r`, so each
/// holds at least `A − hi_r` less the most the other can (`hi_max` or
/// `lo_max`, the book's largest ends): the best line of each among the
/// rates past that threshold.
pub(super) struct Everywhere<'r> {
    /// At `hi`, past `A − hi_r − lo_max` (beside a leg at `lo`).
    hi_beside_lo: Partners<'r>,
    /// At `hi`, past `A − hi_r − hi_max` (beside a leg at `hi`).
    hi_beside_hi: Partners<'r>,
    /// At `lo`, past `A − hi_r − lo_max` (beside a leg at `lo`).
    lo_beside_lo: Partners<'r>,
    /// At `lo`, past `A − hi_r − hi_max` (beside a leg at `hi`).
    lo_beside_hi: Partners<'r>,
}

/// `true` when every product the bounds form fits an `i128` with room for
/// sums of three legs: `m·A`, `fee·10^8`.
fn fits(candidates: &[Candidate<'_>], total: i128) -> bool {
    let room = total.max(UNIT).checked_mul(64);
    candidates.iter().all(|c| {
        c.m_up >= 0
            && c.m_down >= 0
            && room.and_then(|r| c.m_up.checked_mul(r)).is_some()
            && c.fee_down.checked_mul(UNIT.saturating_mul(64)).is_some()
    })
}

/// `m_up·A − fee_down·10^8` of candidate `c` for the amount `total`.
fn own(c: &Candidate<'_>, total: i128) -> Option<i128> {
    c.m_up
        .checked_mul(total)?
        .checked_sub(c.fee_down.checked_mul(UNIT)?)
}

impl<'r> Search<'_, '_, 'r> {
    /// `m_up·A − fee_down·10^8` of candidate `c`: its share of a set's
    /// bound as the marginal leg.
    fn own(&self, c: &Candidate<'_>) -> Option<i128> {
        own(c, self.total)
    }

    /// The per-order cost at the bounds' scale + 8, rounded down (a bound).
    fn cost_down8(&self) -> i128 {
        super::model::bound_units(self.cost, self.scale, false)
            .and_then(|c| c.checked_mul(UNIT))
            .unwrap_or(0)
    }

    /// The best value found at the bounds' scale + 8, rounded down.
    fn floor8(&self) -> Option<i128> {
        self.best.as_ref()?;
        self.floor.checked_mul(UNIT)
    }

    /// Step 2 for pairs (module documentation). `Some` when it decided
    /// them: the best pair (if one beats the incumbent) is the search's
    /// best, and with `triples` the lines the triples' bound needs. `None`
    /// when the numbers are too large for its bounds or the work ran out
    /// (then [`Search::exhausted`]).
    pub(super) fn pairs_by_marginal(
        &mut self,
        candidates: &mut [Candidate<'r>],
        triples: bool,
    ) -> Option<Everywhere<'r>> {
        let n = candidates.len();
        // The sweeps and the sorts: a unit per rate each (the pairs' two
        // sweeps, the book's two sorts, the forms and the heap; the
        // triples' four sweeps).
        let per_rate = if triples { 10 } else { 6 };
        let units = u64::try_from(n)
            .unwrap_or(u64::MAX)
            .saturating_mul(per_rate);
        if !fits(candidates, self.total) || !self.spend(units) {
            return None;
        }
        let mut book = None;
        let total = self.total;
        let high = sweep(candidates, &mut book, total, |c| c.hi, 0)?;
        let low = sweep(candidates, &mut book, total, |c| c.lo, 0)?;
        let cost = self.cost_down8();
        // Each rate's two forms: (bound of the pair's value, candidate),
        // `None` on overflow (then this step cannot decide).
        let forms = |r: usize, c: &Candidate<'_>| -> Option<[Option<(i128, usize)>; 2]> {
            let own = own(c, total).and_then(|o| o.checked_sub(cost))?;
            let form = |line: Option<Line<'_>>| {
                line.and_then(|l| Some((own.checked_add(l.value(c.m_down))?, l.at)))
            };
            Some([form(high.of(r, c, total)), form(low.of(r, c, total))])
        };
        let mut rates: Vec<(i128, usize)> = Vec::with_capacity(n);
        for (r, c) in candidates.iter().enumerate() {
            if let Some(bound) = forms(r, c)?.iter().flatten().map(|p| p.0).max() {
                rates.push((bound, r));
            }
        }
        // Highest bound first, taken from a heap: most books stop after a
        // few rates.
        let mut rates = alloc::collections::BinaryHeap::from(rates);
        while let Some((bound, r)) = rates.pop() {
            if self.floor8().is_some_and(|floor| bound < floor) {
                break;
            }
            let pair = candidates
                .get(r)
                .and_then(|c| forms(r, c))
                .unwrap_or([None, None]);
            let mut settled = true;
            for (form_bound, partner) in pair.into_iter().flatten() {
                if !self.form_settled(candidates, r, form_bound, partner, cost) {
                    settled = false;
                }
                if self.exhausted {
                    return None;
                }
            }
            if !settled {
                // Every partner of `r`, one unit each.
                for a in (0..n).filter(|&a| a != r) {
                    self.consider(candidates, &[a, r]);
                    if self.exhausted {
                        return None;
                    }
                }
            }
        }
        if !triples {
            return Some(Everywhere {
                hi_beside_lo: high,
                hi_beside_hi: Partners::Each(Vec::new()),
                lo_beside_lo: low,
                lo_beside_hi: Partners::Each(Vec::new()),
            });
        }
        // The book's largest ends, then the triples' four sweeps (parallel
        // lines: the pairs' line, with the new shift).
        let (mut hi_max, mut lo_max) = (i128::MIN, i128::MIN);
        for c in candidates.iter() {
            hi_max = hi_max.max(c.hi);
            lo_max = lo_max.max(c.lo);
        }
        let mut shifted =
            |partners: &Partners<'r>, key: fn(&Candidate<'_>) -> i128, shift| match partners {
                Partners::One { line, x, .. } => Some(Partners::One {
                    line: *line,
                    x: *x,
                    shift,
                }),
                Partners::Each(_) => sweep(candidates, &mut book, total, key, shift),
            };
        Some(Everywhere {
            hi_beside_lo: shifted(&high, |c| c.hi, lo_max)?,
            hi_beside_hi: shifted(&high, |c| c.hi, hi_max)?,
            lo_beside_lo: shifted(&low, |c| c.lo, lo_max)?,
            lo_beside_hi: shifted(&low, |c| c.lo, hi_max)?,
        })
    }

    /// Evaluates `r`'s candidate of one form (bounded at `bound`, the
    /// pair's value at the bounds' scale + 8) and says whether no partner of
    /// `r` in that form can beat the best found.
    fn form_settled(
        &mut self,
        candidates: &mut [Candidate<'r>],
        r: usize,
        bound: i128,
        partner: usize,
        cost: i128,
    ) -> bool {
        if self.floor8().is_some_and(|floor| bound < floor) {
            return true;
        }
        let valid = partner != r;
        // Below zero, no pair of positive legs reaches the bound.
        let mut reached = bound.saturating_add(cost) < 0;
        if valid && !reached {
            self.consider(candidates, &[partner, r]);
            // The candidate's exact value reaches the bound: every other
            // partner is at most it, and equal lines come later in ruling 7.
            reached = self
                .last
                .zip(self.bound_wide(bound.saturating_add(cost)))
                .is_some_and(|(objective, sum)| objective.sub(self.cost_wide) >= Some(sum));
        }
        if reached || self.floor8().is_some_and(|floor| bound < floor) {
            return true;
        }
        // At exactly the best's value: fewer legs win the tie, or the
        // candidate's set comes after the best's (and so does every other
        // partner's at this bound: their lines come later in ruling 7).
        if self.floor8() == Some(bound) {
            if self.best_legs() < 2 {
                return true;
            }
            return valid && self.tied_after(candidates, &[Some(partner), Some(r)]);
        }
        false
    }

    /// A non-negative sum at the bounds' scale + 8 as a [`Wide`] at
    /// [`VALUE_SCALE`].
    fn bound_wide(&self, sum: i128) -> Option<Wide> {
        let sum = u128::try_from(sum).ok()?;
        let up = VALUE_SCALE.checked_sub(self.scale)?.checked_sub(8)?;
        Wide::from_u128(sum).scaled(up)
    }

    /// `true` when no triple can beat the best found: every rate's bound as
    /// a triple's marginal leg is at most it (below it when the best is
    /// itself a triple).
    pub(super) fn triples_cannot_win(
        &mut self,
        candidates: &[Candidate<'r>],
        lines: &Everywhere<'r>,
    ) -> bool {
        let Some(floor) = self.floor8() else {
            return false;
        };
        // The book's two smallest and two largest ends.
        let two = |values: &mut dyn Iterator<Item = i128>| -> Option<[i128; 4]> {
            // The two smallest and the two largest, in one pass.
            let (mut small, mut large) = ([i128::MAX; 2], [i128::MIN; 2]);
            for v in values {
                if v < small[1] {
                    small = if v < small[0] {
                        [v, small[0]]
                    } else {
                        [small[0], v]
                    };
                }
                if v > large[1] {
                    large = if v > large[0] {
                        [v, large[0]]
                    } else {
                        [large[0], v]
                    };
                }
            }
            if small[1] == i128::MAX || large[1] == i128::MIN {
                return None;
            }
            Some([
                small[0],
                small[0].checked_add(small[1])?,
                large[0],
                large[0].checked_add(large[1])?,
            ])
        };
        let (Some([hi1, hi2, hi_max, hi_max2]), Some([lo1, lo2, lo_max, lo_max2])) = (
            two(&mut candidates.iter().map(|c| c.hi)),
            two(&mut candidates.iter().map(|c| c.lo)),
        ) else {
            return false;
        };
        let cost2 = self.cost_down8().saturating_mul(2);
        let total = self.total;
        for (i, c) in candidates.iter().enumerate() {
            let Some(own) = self.own(c).and_then(|o| o.checked_sub(cost2)) else {
                return false;
            };
            // The best line's value at r's multiplier among the partners
            // past a threshold; `Some(None)`: no partner is (no triple of
            // that form has r as its marginal leg).
            let value = |partners: &Partners<'_>| -> Option<Option<i128>> {
                match partners.of(i, c, total) {
                    Some(line) => {
                        let v = line.value(c.m_down);
                        (v != i128::MAX).then_some(Some(v))
                    }
                    None => Some(None),
                }
            };
            let (Some(hl), Some(hh), Some(ll), Some(lh)) = (
                value(&lines.hi_beside_lo),
                value(&lines.hi_beside_hi),
                value(&lines.lo_beside_lo),
                value(&lines.lo_beside_hi),
            ) else {
                return false;
            };
            let (need_lo, need_hi) = (
                self.total.saturating_sub(c.hi),
                self.total.saturating_sub(c.lo),
            );
            let holds = |least: i128, most: i128| least <= need_hi && most >= need_lo;
            let mut forms: [Option<Option<i128>>; 3] = [None; 3];
            if holds(hi1.saturating_add(lo1), hi_max.saturating_add(lo_max)) {
                if let (Some(h), Some(l)) = (hl, lh) {
                    forms[0] = Some(h.checked_add(l));
                }
            }
            if holds(hi2, hi_max2) {
                forms[1] = hh.map(|h| h.checked_mul(2));
            }
            if holds(lo2, lo_max2) {
                forms[2] = ll.map(|l| l.checked_mul(2));
            }
            // `Some(None)`: a bound that overflowed (cannot decide).
            for form in forms.into_iter().flatten() {
                let Some(form) = form else {
                    return false;
                };
                // A triple that ties a pair or the single route loses (more
                // legs); one that ties a triple may come first in ruling 7.
                if own
                    .checked_add(form)
                    .is_none_or(|b| b > floor || (b == floor && self.best_legs() >= 3))
                {
                    return false;
                }
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::route::rules::fixtures::named;
    use alloc::format;

    /// A small deterministic generator (xorshift64*): the test needs no
    /// randomness source, only many different trees.
    struct Gen(u64);

    impl Gen {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
        }

        fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }

        fn signed(&mut self, half: u64) -> i128 {
            i128::from(self.below(2 * half + 1)) - i128::from(half)
        }
    }

    /// The envelope against every line tried one by one: after each
    /// insertion (as the sweep interleaves them), the best line at every
    /// point is the one no other inserted line [`beats`](Line::beats).
    #[test]
    fn envelope_answers_as_a_scan_of_every_line() {
        let rates: Vec<Rate> = (0..48)
            .map(|i| named(&format!("r{i:02}"), "1", "0"))
            .collect();
        let mut gen = Gen(0x9E37_79B9_7F4A_7C15);
        for _ in 0..400 {
            let points = 1 + gen.below(40) as usize;
            let mut ts: Vec<i128> = Vec::new();
            let mut t = gen.signed(50);
            for _ in 0..points {
                ts.push(t);
                t += 1 + i128::from(gen.below(20));
            }
            let count = 1 + gen.below(rates.len() as u64) as usize;
            let lines: Vec<Line<'_>> = (0..count)
                .map(|at| Line {
                    at,
                    // Few distinct rates: equal values meet ruling 7's order.
                    rate: &rates[gen.below(6) as usize],
                    x: i128::from(gen.below(12)),
                    c: gen.signed(300),
                })
                .collect();
            let mut envelope = Envelope::new(&ts, &lines);
            for inserted in 1..=count {
                envelope.insert(u32::try_from(inserted - 1).unwrap());
                for (i, &t) in ts.iter().enumerate() {
                    let scan = lines[..inserted]
                        .iter()
                        .copied()
                        .reduce(|best, l| if l.beats(&best, t) { l } else { best })
                        .unwrap();
                    let got = envelope.best(i).unwrap();
                    assert_eq!(
                        (got.at, got.value(t)),
                        (scan.at, scan.value(t)),
                        "point {i} of {ts:?} after {inserted} lines"
                    );
                }
            }
        }
    }

    /// No point, or no line: nothing to answer.
    #[test]
    fn an_empty_envelope_answers_nothing() {
        let rate = named("r", "1", "0");
        let line = Line {
            at: 0,
            rate: &rate,
            x: 1,
            c: 1,
        };
        let lines = [line];
        let mut envelope = Envelope::new(&[], &lines);
        envelope.insert(0);
        assert!(envelope.best(0).is_none());
        let ts = [0i128, 5];
        let envelope = Envelope::new(&ts, &lines);
        assert!(envelope.best(0).is_none());
        assert!(envelope.best(2).is_none());
    }
}
