//! Ranking: the best route, the top k, and the full selection.

use alloc::vec::Vec;
use core::cmp::Ordering;

use super::eligibility::{check, required_input, Candidate};
use super::no_route::Tally;
use super::score::rank_order;
use super::{NoRoute, RejectReason, Rejection, Route, RouteRequest, Selection};
use crate::rate::Rate;
use crate::swap_mode::SwapMode;

impl RouteRequest<'_> {
    /// The best route, or why there is none. One pass, no allocation.
    ///
    /// The ranking order is documented on [`Selection`]; the result is the
    /// first route of [`select`](Self::select), independent of input order.
    ///
    /// # Errors
    /// [`NoRoute`] when every rate is excluded; its code follows DESIGN ruling 10.
    pub fn best<'r>(&self, rates: &'r [Rate]) -> Result<Route<'r>, NoRoute> {
        let mut best: Option<Candidate<'r>> = None;
        let mut tally = Tally::default();
        for rate in rates {
            match check(rate, self) {
                Ok(candidate) => {
                    tally.accepted();
                    if best
                        .as_ref()
                        .is_none_or(|b| rank_order(&candidate, b) == Ordering::Less)
                    {
                        best = Some(candidate);
                    }
                }
                Err(reason) => tally.rejected(&reason),
            }
        }
        let Some(best) = best else {
            return Err(tally.classify(self.from_amount().get(), self.mode()));
        };
        match self.finish(best) {
            Ok(route) => Ok(route),
            // Only an ExactOut required input can overflow here, and only for
            // absurd amounts: redo the full selection, which rejects such routes.
            Err(_) => self.select(rates).into_best(),
        }
    }

    /// The best `k` routes, best first (fewer when fewer are eligible; none
    /// for `k == 0`).
    ///
    /// # Errors
    /// [`NoRoute`] when every rate is excluded, whatever `k` is.
    pub fn top<'r>(&self, rates: &'r [Rate], k: usize) -> Result<Vec<Route<'r>>, NoRoute> {
        let mut kept: Vec<Candidate<'r>> = Vec::with_capacity(k.min(rates.len()));
        let mut tally = Tally::default();
        let mut any_eligible = false;
        for rate in rates {
            match check(rate, self) {
                Ok(candidate) => {
                    any_eligible = true;
                    tally.accepted();
                    insert_bounded(&mut kept, candidate, k);
                }
                Err(reason) => tally.rejected(&reason),
            }
        }
        if !any_eligible {
            return Err(tally.classify(self.from_amount().get(), self.mode()));
        }
        let mut routes = Vec::with_capacity(kept.len());
        for candidate in kept {
            match self.finish(candidate) {
                Ok(route) => routes.push(route),
                // See `best`: an overflowing required input needs the full selection.
                Err(_) => return self.select(rates).into_top(k),
            }
        }
        Ok(routes)
    }

    /// Every rate, ranked or rejected with its reason.
    pub fn select<'r>(&self, rates: &'r [Rate]) -> Selection<'r> {
        let mut candidates: Vec<Candidate<'r>> = Vec::new();
        let mut rejected: Vec<Rejection<'r>> = Vec::new();
        let mut tally = Tally::default();
        for rate in rates {
            match check(rate, self) {
                Ok(candidate) => candidates.push(candidate),
                Err(reason) => {
                    tally.rejected(&reason);
                    rejected.push(Rejection::new(rate, reason));
                }
            }
        }
        // Stable: rates that tie on every key, id included, keep input order.
        candidates.sort_by(rank_order);
        let mut routes = Vec::with_capacity(candidates.len());
        for candidate in candidates {
            match self.finish(candidate) {
                Ok(route) => {
                    tally.accepted();
                    routes.push(route);
                }
                Err(reason) => {
                    tally.rejected(&reason);
                    rejected.push(Rejection::new(candidate.rate, reason));
                }
            }
        }
        let no_route = if routes.is_empty() {
            Some(tally.classify(self.from_amount().get(), self.mode()))
        } else {
            None
        };
        Selection::new(routes, rejected, no_route)
    }

    /// Turns a ranked candidate into a route, computing the ExactOut required input.
    fn finish<'r>(&self, candidate: Candidate<'r>) -> Result<Route<'r>, RejectReason> {
        let required_input = match self.mode() {
            SwapMode::ExactIn => None,
            SwapMode::ExactOut => Some(
                required_input(candidate.rate, self.exact_output())
                    .ok_or(RejectReason::Overflow)?,
            ),
        };
        Ok(Route {
            rate: candidate.rate,
            net_output: candidate.net_output,
            effective_max: candidate.effective_max,
            from_amount: self.from_amount().get(),
            required_input,
        })
    }
}

/// Keeps `kept` sorted and at most `k` long.
fn insert_bounded<'r>(kept: &mut Vec<Candidate<'r>>, candidate: Candidate<'r>, k: usize) {
    if k == 0 {
        return;
    }
    if kept.len() == k {
        match kept.last() {
            Some(last) if rank_order(&candidate, last) == Ordering::Less => {
                kept.pop();
            }
            _ => return,
        }
    }
    // After equal keys: the earlier of two identical rates stays first.
    let at = kept.partition_point(|held| rank_order(held, &candidate) != Ordering::Greater);
    kept.insert(at, candidate);
}
