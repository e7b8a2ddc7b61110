//! The paths of a market from one asset to another: 1 to 3 pairs, each
//! starting where the last ended, no asset twice (ruling 24 in
//! docs/RULES.md).

use super::market::{Market, MarketPair};
use super::request::MAX_LEGS;
use crate::ids::AssetId;

/// A path: the positions of its pairs in the market, in leg order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Path {
    pairs: [usize; MAX_LEGS],
    len: usize,
}

/// A path's pairs, in leg order.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PathPairs<'m, 'r> {
    pairs: [&'m MarketPair<'r>; MAX_LEGS],
    len: usize,
}

impl<'m, 'r> PathPairs<'m, 'r> {
    /// The pairs.
    pub(crate) fn as_slice(&self) -> &[&'m MarketPair<'r>] {
        self.pairs.get(..self.len).unwrap_or_default()
    }
}

impl Path {
    fn new(pairs: &[usize]) -> Option<Self> {
        let mut slots = [0; MAX_LEGS];
        for (slot, &pair) in slots.iter_mut().zip(pairs) {
            *slot = pair;
        }
        (1..=MAX_LEGS).contains(&pairs.len()).then_some(Path {
            pairs: slots,
            len: pairs.len(),
        })
    }

    /// The positions of the path's pairs in the market, in leg order.
    pub(crate) fn indices(&self) -> &[usize] {
        self.pairs.get(..self.len).unwrap_or_default()
    }

    /// The path's pairs in `market` (`None` for a position it does not have).
    pub(crate) fn pairs<'m, 'r>(&self, market: &'m Market<'r>) -> Option<PathPairs<'m, 'r>> {
        let first = market.pair(*self.pairs.first()?)?;
        let mut pairs = [first; MAX_LEGS];
        for (slot, &at) in pairs.iter_mut().zip(self.pairs.iter().take(self.len)) {
            *slot = market.pair(at)?;
        }
        Some(PathPairs {
            pairs,
            len: self.len,
        })
    }
}

/// Calls `visit` with every path from `from` to `to` of at most `max_legs`
/// pairs: the direct pair first, then two-leg paths, then three-leg paths,
/// each by pair ids. Allocates nothing.
pub(crate) fn each_path(
    market: &Market<'_>,
    from: &AssetId,
    to: &AssetId,
    max_legs: usize,
    mut visit: impl FnMut(&Path),
) {
    let (Some(from), Some(to)) = (market.asset(from), market.asset(to)) else {
        return;
    };
    if from == to {
        return;
    }
    let to_of = |at: usize| market.pair(at).map(|pair| pair.to);
    if let Some(direct) = market.find(from, to).and_then(|at| Path::new(&[at])) {
        visit(&direct);
    }
    if max_legs >= 2 {
        for first in market.starting_at(from) {
            let Some(middle) = to_of(first).filter(|&m| m != to && m != from) else {
                continue;
            };
            if let Some(path) = market
                .find(middle, to)
                .and_then(|last| Path::new(&[first, last]))
            {
                visit(&path);
            }
        }
    }
    if max_legs >= 3 {
        for first in market.starting_at(from) {
            let Some(one) = to_of(first).filter(|&m| m != to && m != from) else {
                continue;
            };
            for second in market.starting_at(one) {
                let Some(two) = to_of(second).filter(|&m| m != to && m != from && m != one) else {
                    continue;
                };
                if let Some(path) = market
                    .find(two, to)
                    .and_then(|last| Path::new(&[first, second, last]))
                {
                    visit(&path);
                }
            }
        }
    }
}
