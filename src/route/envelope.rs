//! The best ExactIn route at every amount of a grid, as pieces (ruling 38's
//! best-value answer): the upper envelope of the rates' net-output lines
//! `x × multiplier − minerFee`, each over its own interval of the grid,
//! ordered as the ranking orders routes (net output, then ruling 7's ties).
//!
//! Built by divide and conquer: the envelopes of two halves of the rates
//! are merged in one sweep over their pieces. Where two pieces overlap, the
//! route ranked first at each end of the overlap is asked; two lines cross at
//! most once, so when the ends disagree one bisection of the overlap (the
//! ranking's own comparison at each probe) finds where the later winner
//! takes over. An envelope of `k` segments has `O(k α(k))` pieces (segments
//! of lines, Davenport-Schinzel sequences of order 3), so each level of the
//! recursion is a linear sweep plus one bisection (`O(log range)` probes,
//! at most 96 for a 28-digit grid) per crossing: `O(n log n)` sweeps for `n`
//! rates. A query is one binary search over the pieces: `O(log n)`.

use alloc::vec::Vec;

use super::bisect::least;
use crate::rate::Rate;

/// One piece: on the grid amounts `from..=to`, `rate` is ranked first.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Piece<'r> {
    pub(crate) from: i128,
    pub(crate) to: i128,
    pub(crate) rate: &'r Rate,
}

/// `wins(a, b, x)`: at the grid amount `x`, `a` is ranked before `b`.
pub(crate) type Wins<'w> = dyn Fn(&Rate, &Rate, i128) -> bool + 'w;

/// `cross(a, b)`: a first guess at the grid amount where the lines of `a`
/// and `b` cross (`None`: no guess). Only a guess: the exact comparison
/// decides, from it, by a gallop and a bisection.
pub(crate) type Cross<'c> = dyn Fn(&Rate, &Rate) -> Option<i128> + 'c;

/// How two envelopes are merged: the ranking's comparison and the crossing guess.
pub(crate) struct Rank<'w> {
    pub(crate) wins: &'w Wins<'w>,
    pub(crate) cross: &'w Cross<'w>,
}

/// The envelope of `segments` (`from <= to`, any order): disjoint pieces,
/// sorted, each holding the route ranked first there. Where `wins` ranks
/// neither of two rates first, the earlier segment in `segments` keeps the
/// amount (the ranking's input order, when given in it).
pub(crate) fn envelope<'r>(segments: &[Piece<'r>], rank: &Rank<'_>) -> Vec<Piece<'r>> {
    match segments {
        [] => Vec::new(),
        [one] => alloc::vec![*one],
        _ => {
            let (left, right) = segments.split_at(segments.len() / 2);
            merge(&envelope(left, rank), &envelope(right, rank), rank)
        }
    }
}

/// The piece of `pieces` holding `x`, if any: one binary search.
pub(crate) fn at<'p, 'r>(pieces: &'p [Piece<'r>], x: i128) -> Option<&'p Piece<'r>> {
    let after = pieces.partition_point(|p| p.from <= x);
    after
        .checked_sub(1)
        .and_then(|i| pieces.get(i))
        .filter(|p| x <= p.to)
}

/// Appends `from..=to` of `rate`, joined to the last piece when it is the
/// same rate and adjacent.
fn push<'r>(out: &mut Vec<Piece<'r>>, from: i128, to: i128, rate: &'r Rate) {
    if from > to {
        return;
    }
    if let Some(last) = out.last_mut() {
        if core::ptr::eq(last.rate, rate) && last.to.checked_add(1) == Some(from) {
            last.to = to;
            return;
        }
    }
    out.push(Piece { from, to, rate });
}

/// Two envelopes as one, in one sweep.
#[allow(clippy::many_single_char_names)]
fn merge<'r>(a: &[Piece<'r>], b: &[Piece<'r>], rank: &Rank<'_>) -> Vec<Piece<'r>> {
    let mut out: Vec<Piece<'r>> = Vec::with_capacity(a.len().saturating_add(b.len()));
    let (mut i, mut j) = (0usize, 0usize);
    // Everything below `x` is decided.
    let mut x = i128::MIN;
    loop {
        let (p, q) = (a.get(i).copied(), b.get(j).copied());
        // Skip what is already decided.
        if p.is_some_and(|p| p.to < x) {
            i = i.saturating_add(1);
            continue;
        }
        if q.is_some_and(|q| q.to < x) {
            j = j.saturating_add(1);
            continue;
        }
        match (p, q) {
            (None, None) => break,
            (Some(p), None) => {
                push(&mut out, p.from.max(x), p.to, p.rate);
                i = i.saturating_add(1);
            }
            (None, Some(q)) => {
                push(&mut out, q.from.max(x), q.to, q.rate);
                j = j.saturating_add(1);
            }
            (Some(p), Some(q)) => {
                let (ps, qs) = (p.from.max(x), q.from.max(x));
                let end = match ps.cmp(&qs) {
                    // Only `p` until `q` starts.
                    core::cmp::Ordering::Less => {
                        let end = p.to.min(qs.saturating_sub(1));
                        push(&mut out, ps, end, p.rate);
                        end
                    }
                    core::cmp::Ordering::Greater => {
                        let end = q.to.min(ps.saturating_sub(1));
                        push(&mut out, qs, end, q.rate);
                        end
                    }
                    core::cmp::Ordering::Equal => {
                        let end = p.to.min(q.to);
                        overlap(&mut out, ps, end, p.rate, q.rate, rank);
                        end
                    }
                };
                x = end.saturating_add(1);
                if x == i128::MAX {
                    // The grid's end (never reached: grid amounts fit a
                    // `Decimal` mantissa).
                    break;
                }
            }
        }
    }
    out
}

/// `s..=e`, where both `p` and `q` serve: the first ranked at each amount.
fn overlap<'r>(
    out: &mut Vec<Piece<'r>>,
    s: i128,
    e: i128,
    p: &'r Rate,
    q: &'r Rate,
    rank: &Rank<'_>,
) {
    let first = |x: i128| if (rank.wins)(q, p, x) { q } else { p };
    let (left, right) = (first(s), first(e));
    if core::ptr::eq(left, right) {
        push(out, s, e, left);
        return;
    }
    // `left` is first at `s`, `right` at `e`; one crossing between, found
    // from the guess (a few probes when it is near).
    let guess = (rank.cross)(left, right).unwrap_or(s);
    let Some(high) = least(s, e, guess, &|x| core::ptr::eq(first(x), right)) else {
        return;
    };
    push(out, s, high.saturating_sub(1), left);
    push(out, high, e, right);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::route::rules::fixtures::{d, rate};

    /// Lines `m x − fee` on integer `x`; ties to the first argument's id.
    fn net(r: &Rate, x: i128) -> rust_decimal::Decimal {
        rust_decimal::Decimal::from_i128_with_scale(x, 0) * r.multiplier() - r.miner_fee()
    }

    fn brute<'r>(segments: &[Piece<'r>], x: i128) -> Option<&'r Rate> {
        let mut best: Option<&Rate> = None;
        for s in segments.iter().filter(|s| s.from <= x && x <= s.to) {
            if best.is_none_or(|b| net(s.rate, x) > net(b, x)) {
                best = Some(s.rate);
            }
        }
        best
    }

    #[test]
    fn the_envelope_is_the_best_line_at_every_point() {
        // Distinct fees, so no two lines tie where they cross on the grid
        // unless equal: the first in the list wins a tie in `brute`, and
        // `wins` below asks for strictly more.
        let rates = [
            rate("1", "0"),
            rate("2", "7"),
            rate("3", "20"),
            rate("0.5", "1"),
            rate("4", "51"),
        ];
        let spans = [(0, 40), (3, 25), (10, 60), (0, 5), (30, 35)];
        let segments: Vec<Piece<'_>> = rates
            .iter()
            .zip(spans)
            .map(|(rate, (from, to))| Piece { from, to, rate })
            .collect();
        let wins = |a: &Rate, b: &Rate, x: i128| net(a, x) > net(b, x);
        // A guess off by a few units, or none: the exact probes decide.
        let cross = |a: &Rate, b: &Rate| -> Option<i128> {
            let dm = a.multiplier() - b.multiplier();
            if dm.is_zero() {
                return None;
            }
            let x = (a.miner_fee() - b.miner_fee()) / dm;
            Some(x.trunc().mantissa() + 3)
        };
        let pieces = envelope(
            &segments,
            &Rank {
                wins: &wins,
                cross: &cross,
            },
        );
        let none = |_: &Rate, _: &Rate| -> Option<i128> { None };
        let plain = envelope(
            &segments,
            &Rank {
                wins: &wins,
                cross: &none,
            },
        );
        assert_eq!(
            pieces.iter().map(|p| (p.from, p.to)).collect::<Vec<_>>(),
            plain.iter().map(|p| (p.from, p.to)).collect::<Vec<_>>()
        );
        for x in -2..=62 {
            let got = at(&pieces, x).map(|p| p.rate.multiplier());
            let want = brute(&segments, x).map(Rate::multiplier);
            assert_eq!(got, want, "at {x}");
        }
        // Sorted, disjoint, no two adjacent pieces of one rate.
        for pair in pieces.windows(2) {
            assert!(pair[0].to < pair[1].from);
            assert!(!(core::ptr::eq(pair[0].rate, pair[1].rate) && pair[0].to + 1 == pair[1].from));
        }
        assert_eq!(d("1"), rates[0].multiplier());
    }
}
