//! Ranking: the best route, the top k, and the full selection.
//!
//! Every entry point scans the rates once with the exact integer fast path
//! ([`FastRequest::score`]) and asks the plain `Decimal` path
//! ([`check`]) only for the rates the fast path cannot decide, and for the
//! reasons of rejected rates when a full selection wants them. Fast keys and
//! plain candidates are ranked separately and merged at the end, so one rate
//! that needs the plain path does not slow the others down. The `Decimal` net
//! output a route reports is always computed by the plain path, so results are
//! the same to the last digit and scale.

use alloc::vec::Vec;
use core::cmp::Ordering;

use rust_decimal::Decimal;

use super::eligibility::{check, net_output, required_input_near, Candidate};
use super::fast::{exact_net, fast_order, FastRequest, Score};
use super::no_route::Tally;
use super::permute::apply_order;
use super::prepared::SPONSORED;
use super::score::{rank_order, route_order, tie_order};
use super::top_buffer::TopBuffer;
use super::top_keys::{TopKeySlots, TopKeys};
use super::{NoRoute, RejectReason, Rejection, Route, RouteRequest, Selection};
use crate::rate::{Rate, RateList};
use crate::swap_mode::SwapMode;

/// How a top-k scan ended.
#[derive(Clone, Debug)]
pub(crate) enum Top {
    /// This many routes were written, best first.
    Done(usize),
    /// Nothing is eligible.
    NoRoute(NoRoute),
    /// A required input overflowed (absurd ExactOut amounts): the caller
    /// must take the full selection's answer instead.
    Fallback,
}

/// A rate the fast path scored: `net output × 10^28` and the rate.
pub(crate) type KeyedRate<'r> = (i128, &'r Rate);

/// Up to this many routes, [`RouteRequest::top`] keeps its slots on the stack.
const STACK_K: usize = 8;

/// Above this `k`, [`RouteRequest::top`] sorts instead of inserting.
const SORT_K: usize = 64;

impl RouteRequest<'_> {
    /// The best route, or why there is none. One pass, no allocation.
    ///
    /// The ranking order is documented on [`Selection`]; the result is the
    /// first route of [`select`](Self::select), independent of input order.
    ///
    /// # Errors
    /// [`NoRoute`] when every rate is excluded; its code follows ruling 10 in
    /// docs/RULES.md. [`NoRoute::MixedPairs`] for a hand-built list of more
    /// than one pair's rates (see [`RateList`]).
    #[inline]
    pub fn best<'r, R: RateList + ?Sized>(&self, rates: &'r R) -> Result<Route<'r>, NoRoute> {
        self.best_in(rates.one_pair().map_err(NoRoute::MixedPairs)?)
    }

    /// [`best`](Self::best) over rates known to be one pair's.
    pub(crate) fn best_in<'r>(&self, rates: &'r [Rate]) -> Result<Route<'r>, NoRoute> {
        let Some(fast) = FastRequest::new(self) else {
            return self.best_plain(rates);
        };
        let mut keyed: Option<KeyedRate<'r>> = None;
        // The held key, and `i128::MIN` (below every key) before one is held.
        let mut floor = i128::MIN;
        let mut plain: Option<Candidate<'r>> = None;
        for rate in rates {
            match fast.score(rate) {
                // Below the held key: out with one comparison.
                Score::Key(net) if net >= floor => {
                    if keyed.is_none_or(|(held, held_rate)| {
                        fast_order(net, rate, held, held_rate) == Ordering::Less
                    }) {
                        keyed = Some((net, rate));
                        floor = net;
                    }
                }
                Score::Key(_) | Score::Out => {}
                Score::Slow => self.keep_best_plain(rate, &mut plain),
            }
        }
        self.conclude(rates, keyed, plain)
    }

    /// Keeps `rate` as the best plain candidate if the plain path finds it
    /// eligible and it ranks first (also [`RateBook`](super::RateBook)'s
    /// scan). Out of line, as [`offer_plain`](Self::offer_plain).
    #[inline(never)]
    pub(crate) fn keep_best_plain<'r>(&self, rate: &'r Rate, plain: &mut Option<Candidate<'r>>) {
        if let Ok(candidate) = check(rate, self) {
            if plain.is_none_or(|held| rank_order(&candidate, &held) == Ordering::Less) {
                *plain = Some(candidate);
            }
        }
    }

    /// The best route from the best fast-keyed rate and the best plain
    /// candidate, as [`best`](Self::best) ends (also [`RateBook`](super::RateBook)'s end).
    pub(crate) fn conclude<'r>(
        &self,
        rates: &'r [Rate],
        keyed: Option<KeyedRate<'r>>,
        plain: Option<Candidate<'r>>,
    ) -> Result<Route<'r>, NoRoute> {
        let keyed = match keyed.map(|(_, rate)| self.candidate(rate)) {
            Some(Some(candidate)) => Some(candidate),
            // A fast key the plain path cannot reproduce: never happens, but
            // the plain path is the reference.
            Some(None) => return self.best_plain(rates),
            None => None,
        };
        let best = match (keyed, plain) {
            (Some(a), Some(b)) => {
                if rank_order(&b, &a) == Ordering::Less {
                    b
                } else {
                    a
                }
            }
            (Some(one), None) | (None, Some(one)) => one,
            // Nothing eligible: the plain pass classifies "no route".
            (None, None) => return self.best_plain(rates),
        };
        match self.finish(best) {
            Ok(route) => Ok(route),
            // Only an ExactOut required input can overflow here, and only for
            // absurd amounts: redo the full selection, which rejects such routes.
            Err(_) => self.select_in(rates).into_best(),
        }
    }

    /// The best route by the plain `Decimal` path alone, with the tally that
    /// classifies "no route".
    fn best_plain<'r>(&self, rates: &'r [Rate]) -> Result<Route<'r>, NoRoute> {
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
            return Err(tally.classify(self.from_amount().get(), from_asset(rates), self.mode()));
        };
        match self.finish(best) {
            Ok(route) => Ok(route),
            Err(_) => self.select_in(rates).into_best(),
        }
    }

    /// The best `k` routes, best first (fewer when fewer are eligible; none
    /// for `k == 0`). Linear in the rates for small `k`; a full ranking
    /// (`O(n log n)`) for `k` above a few dozen.
    ///
    /// See [`top_n`](Self::top_n) for a fixed `k` without allocation.
    ///
    /// # Errors
    /// [`NoRoute`] when every rate is excluded, whatever `k` is (and
    /// [`NoRoute::MixedPairs`] as for [`best`](Self::best)).
    #[inline]
    pub fn top<'r, R: RateList + ?Sized>(
        &self,
        rates: &'r R,
        k: usize,
    ) -> Result<Vec<Route<'r>>, NoRoute> {
        self.top_in(rates.one_pair().map_err(NoRoute::MixedPairs)?, k)
    }

    /// [`top`](Self::top) over rates known to be one pair's.
    fn top_in<'r>(&self, rates: &'r [Rate], k: usize) -> Result<Vec<Route<'r>>, NoRoute> {
        if k == 0 {
            // Nothing to rank, but "no route" is still an answer about the rates.
            return self.best_in(rates).map(|_| Vec::new());
        }
        let k = k.min(rates.len());
        if k > SORT_K {
            // Bounded insertion moves up to k slots per rate: past a few dozen,
            // one sort of the eligible keys (O(n log n)) is the cheaper plan.
            return self.select_in(rates).into_top(k);
        }
        if k <= STACK_K {
            // Small k (the usual case): the slots live on the stack, the
            // returned `Vec` is the one allocation.
            let mut keys = [i128::MIN; STACK_K];
            let mut keyed: [Option<&'r Rate>; STACK_K] = [None; STACK_K];
            let mut plain: [Option<Candidate<'r>>; STACK_K] = [None; STACK_K];
            let mut routes: [Option<Route<'r>>; STACK_K] = [None; STACK_K];
            let (Some(keys), Some(keyed), Some(plain), Some(routes)) = (
                keys.get_mut(..k),
                keyed.get_mut(..k),
                plain.get_mut(..k),
                routes.get_mut(..k),
            ) else {
                return self.select_in(rates).into_top(k);
            };
            let mut keyed = TopKeySlots::new(keys, keyed);
            return self.top_with(rates, k, &mut keyed, plain, routes);
        }
        let mut keys = alloc::vec![i128::MIN; k];
        let mut keyed: Vec<Option<&'r Rate>> = alloc::vec![None; k];
        let mut plain: Vec<Option<Candidate<'r>>> = alloc::vec![None; k];
        let mut routes: Vec<Option<Route<'r>>> = alloc::vec![None; k];
        let mut keyed = TopKeySlots::new(&mut keys, &mut keyed);
        self.top_with(rates, k, &mut keyed, &mut plain, &mut routes)
    }

    /// [`top`](Self::top) over the caller's slots (`k` of each).
    fn top_with<'r>(
        &self,
        rates: &'r [Rate],
        k: usize,
        keyed: &mut TopKeySlots<'_, 'r>,
        plain: &mut [Option<Candidate<'r>>],
        routes: &mut [Option<Route<'r>>],
    ) -> Result<Vec<Route<'r>>, NoRoute> {
        match self.top_into(rates, keyed, plain, routes) {
            Top::Done(len) => {
                let mut out = Vec::with_capacity(len);
                out.extend(routes.iter().take(len).flatten());
                Ok(out)
            }
            Top::NoRoute(no_route) => Err(no_route),
            Top::Fallback => self.select_in(rates).into_top(k),
        }
    }

    /// Scans `rates` keeping the best keyed rates in `keyed` and the best
    /// plain candidates in `plain_slots` (as many as each holds), then writes
    /// the merged top routes to `routes`, best first (as many as there are
    /// and `routes` holds). Allocates nothing itself.
    pub(crate) fn top_into<'r>(
        &self,
        rates: &'r [Rate],
        keyed: &mut impl TopKeys<'r>,
        plain_slots: &mut [Option<Candidate<'r>>],
        routes: &mut [Option<Route<'r>>],
    ) -> Top {
        let mut plain = TopBuffer::new(plain_slots);
        let fast = FastRequest::new(self);
        if let Some(fast) = &fast {
            let mut floor = keyed.floor();
            for rate in rates {
                match fast.score(rate) {
                    // Below the worst kept key: out, without the full order.
                    Score::Key(net) if net >= floor => floor = keyed.offer(net, rate),
                    Score::Key(_) | Score::Out => {}
                    Score::Slow => self.offer_plain(rate, &mut plain),
                }
            }
        } else {
            for rate in rates {
                self.offer_plain(rate, &mut plain);
            }
        }
        // Nothing kept: nothing is eligible (with room for one, the first
        // eligible rate of a kind is always kept; the callers answer k = 0
        // themselves). The plain pass classifies "no route".
        if keyed.is_empty() && plain.is_empty() {
            return match self.best_plain(rates) {
                Err(no_route) => Top::NoRoute(no_route),
                // Only without room: the full selection answers.
                Ok(_) => Top::Fallback,
            };
        }
        if plain.is_empty() {
            // The usual case: every eligible rate was keyed.
            // Keys come only from the fast form, so it is at hand.
            let Some(fast) = &fast else {
                return Top::Fallback;
            };
            return match self.mode() {
                SwapMode::ExactIn => self.write_keyed_exact_in(fast, keyed.rates(), routes),
                SwapMode::ExactOut => self.write_keyed_exact_out(fast, keyed.rates(), routes),
            };
        }
        self.write_merged(keyed.rates(), plain.iter(), routes)
    }

    /// Keeps `rate` among the plain candidates if the plain path finds it
    /// eligible. Out of line: the plain path is slow anyway, and the scan
    /// loop keeps its registers for the fast path.
    #[inline(never)]
    fn offer_plain<'r>(&self, rate: &'r Rate, plain: &mut TopBuffer<'_, Candidate<'r>>) {
        if let Ok(candidate) = check(rate, self) {
            plain.offer(candidate, rank_order);
        }
    }

    /// Writes the ExactIn routes of the best keyed rates to `routes`, best
    /// first: the net output straight from the integers the key was proved
    /// from, no required input.
    fn write_keyed_exact_in<'r>(
        &self,
        fast: &FastRequest,
        keyed: impl Iterator<Item = &'r Rate>,
        routes: &mut [Option<Route<'r>>],
    ) -> Top {
        let from_amount = self.from_amount().get();
        let mut len = 0usize;
        for (slot, rate) in routes.iter_mut().zip(keyed) {
            // A key proves `keyed_net` succeeds; were it ever not to, the
            // full selection is the reference.
            let Some(net_output) = fast.keyed_net(rate) else {
                return Top::Fallback;
            };
            *slot = Some(self.keyed_route(rate, net_output, from_amount));
            len = len.saturating_add(1);
        }
        Top::Done(len)
    }

    /// The route of a kept rate, before any required input: the campaign
    /// lookup only for a sponsored variant.
    #[allow(clippy::inline_always)]
    #[inline(always)]
    fn keyed_route<'r>(
        &self,
        rate: &'r Rate,
        net_output: Decimal,
        from_amount: Decimal,
    ) -> Route<'r> {
        Route {
            rate,
            net_output,
            effective_max: if rate.prepared().has(SPONSORED) {
                rate.effective_max(self.campaigns())
            } else {
                rate.max()
            },
            from_amount,
            required_input: None,
        }
    }

    /// Writes the ExactOut routes of the best keyed rates to `routes`, best
    /// first, each with its required input.
    ///
    /// Each route is built in its slot: a route built aside and copied in is
    /// read back before its pieces are stored, a stall per route.
    fn write_keyed_exact_out<'r>(
        &self,
        fast: &FastRequest,
        keyed: impl Iterator<Item = &'r Rate>,
        routes: &mut [Option<Route<'r>>],
    ) -> Top {
        let amount = self.from_amount().get();
        let mut len = 0usize;
        for (slot, rate) in routes.iter_mut().zip(keyed) {
            // A key proves `keyed_net` and `exact_net` succeed, and only
            // absurd amounts overflow a required input; in either case the
            // full selection is the reference.
            let net_output = fast.keyed_net(rate).or_else(|| exact_net(amount, rate));
            let Some(net_output) = net_output else {
                return Top::Fallback;
            };
            let required = required_input_near(rate, self.exact_output(), self.from8());
            let Some(required) = required else {
                return Top::Fallback;
            };
            *slot = Some(Route {
                required_input: Some(required),
                ..self.keyed_route(rate, net_output, amount)
            });
            len = len.saturating_add(1);
        }
        Top::Done(len)
    }

    /// Merges the best keyed rates and plain candidates (each sorted) by the
    /// plain order into `routes`, best first.
    fn write_merged<'r>(
        &self,
        mut keyed_rest: impl Iterator<Item = &'r Rate>,
        mut plain_rest: impl Iterator<Item = Candidate<'r>>,
        routes: &mut [Option<Route<'r>>],
    ) -> Top {
        // No `Peekable`: its copies of the held candidate cost more than the merge.
        let mut next_keyed = match keyed_rest.next().map(|rate| self.candidate(rate)) {
            Some(Some(candidate)) => Some(candidate),
            Some(None) => return Top::Fallback,
            None => None,
        };
        let mut next_plain = plain_rest.next();
        let mut len = 0usize;
        for slot in routes.iter_mut() {
            let take_plain = match (&next_keyed, &next_plain) {
                (Some(a), Some(b)) => rank_order(b, a) == Ordering::Less,
                (Some(_), None) => false,
                (None, Some(_)) => true,
                (None, None) => break,
            };
            let candidate = if take_plain {
                core::mem::replace(&mut next_plain, plain_rest.next())
            } else {
                let following = match keyed_rest.next().map(|rate| self.candidate(rate)) {
                    Some(Some(candidate)) => Some(candidate),
                    Some(None) => return Top::Fallback,
                    None => None,
                };
                core::mem::replace(&mut next_keyed, following)
            };
            let Some(candidate) = candidate else { break };
            match self.finish(candidate) {
                Ok(route) => *slot = Some(route),
                // See `best`: an overflowing required input needs the full
                // selection, which rejects such routes.
                Err(_) => return Top::Fallback,
            }
            len = len.saturating_add(1);
        }
        Top::Done(len)
    }

    /// Every rate, ranked or rejected with its reason.
    ///
    /// A hand-built list of more than one pair's rates (see [`RateList`]) is
    /// not ranked: the selection is empty, with [`NoRoute::MixedPairs`] as its
    /// [`no_route`](Selection::no_route).
    pub fn select<'r, R: RateList + ?Sized>(&self, rates: &'r R) -> Selection<'r> {
        match rates.one_pair() {
            Ok(rates) => self.select_in(rates),
            Err(mixed) => Selection::new(
                self,
                Vec::new(),
                Vec::new(),
                Some(NoRoute::MixedPairs(mixed)),
            ),
        }
    }

    /// [`select`](Self::select) over rates known to be one pair's.
    pub(crate) fn select_in<'r>(&self, rates: &'r [Rate]) -> Selection<'r> {
        let fast = FastRequest::new(self);
        // A keyed rate's route is built while the scan has the rate in cache,
        // in input order; the sort moves `(key, position)` pairs and the
        // routes are then put in that order in place. Read again in ranking
        // order, a rate set larger than the cache (65536 rates are 25 MB)
        // missed on almost every rate (4× slower per rate), and every
        // intermediate buffer is megabytes of fresh pages.
        let mut keyed: Vec<(i128, usize)> = Vec::with_capacity(rates.len());
        let mut routes: Vec<Route<'r>> = Vec::with_capacity(rates.len());
        let mut plain: Vec<Candidate<'r>> = Vec::new();
        let mut rejected: Vec<Rejection<'r>> = Vec::new();
        for rate in rates {
            let score = fast.as_ref().map_or(Score::Slow, |f| f.score(rate));
            if let Score::Key(net) = score {
                let Some(candidate) = self.candidate(rate) else {
                    return self.select_plain(rates);
                };
                match self.finish(candidate) {
                    Ok(route) => {
                        keyed.push((net, routes.len()));
                        routes.push(route);
                    }
                    Err(reason) => rejected.push(Rejection::new(rate, reason)),
                }
                continue;
            }
            match check(rate, self) {
                Ok(candidate) => plain.push(candidate),
                Err(reason) => rejected.push(Rejection::new(rate, reason)),
            }
        }
        if plain.is_empty() {
            // `fast_order`, with the rates looked up only for equal keys (it
            // takes them up front: a route read per comparison, at random
            // in megabytes). The position breaks the last ties: input order,
            // as a stable sort keeps it, without the stable sort's scratch
            // buffer.
            keyed.sort_unstable_by(|a, b| {
                b.0.cmp(&a.0)
                    .then_with(|| match (routes.get(a.1), routes.get(b.1)) {
                        (Some(x), Some(y)) => tie_order(x.rate, y.rate),
                        _ => Ordering::Equal,
                    })
                    .then_with(|| a.1.cmp(&b.1))
            });
            if !apply_order(&mut routes, &mut keyed) {
                // Never: the positions are those of the routes pushed above.
                return self.select_plain(rates);
            }
        } else {
            // Stable: rates that tie on every key, id included, keep input
            // order (keyed ones first).
            let scanned = rejected.len();
            self.finish_all(plain, &mut routes, &mut rejected);
            routes.sort_by(route_order);
            if rejected.len() > scanned {
                in_input_order(rates, &mut rejected);
            }
        }
        let no_route = if routes.is_empty() {
            let mut tally = Tally::default();
            for rejection in &rejected {
                tally.rejected(rejection.reason());
            }
            Some(tally.classify(self.from_amount().get(), from_asset(rates), self.mode()))
        } else {
            None
        };
        Selection::new(self, routes, rejected, no_route)
    }

    /// Finishes candidates into routes appended to `routes`, in the order
    /// given; a candidate whose required input overflows goes to `rejected`.
    fn finish_all<'r>(
        &self,
        ranked: impl IntoIterator<Item = Candidate<'r>>,
        routes: &mut Vec<Route<'r>>,
        rejected: &mut Vec<Rejection<'r>>,
    ) {
        for candidate in ranked {
            match self.finish(candidate) {
                Ok(route) => routes.push(route),
                Err(reason) => rejected.push(Rejection::new(candidate.rate, reason)),
            }
        }
    }

    /// [`select`](Self::select) by the plain `Decimal` path alone.
    fn select_plain<'r>(&self, rates: &'r [Rate]) -> Selection<'r> {
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
        candidates.sort_by(rank_order);
        let scanned = rejected.len();
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
        if rejected.len() > scanned {
            in_input_order(rates, &mut rejected);
        }
        let no_route = if routes.is_empty() {
            Some(tally.classify(self.from_amount().get(), from_asset(rates), self.mode()))
        } else {
            None
        };
        Selection::new(self, routes, rejected, no_route)
    }

    /// The plain candidate of a fast-scored rate: the same `Decimal` net
    /// output the plain path computes (exact, as the fast key proved).
    // Always inlined: returned through memory, the candidate's fields are
    // written in pieces and read back whole (a store-forwarding stall per
    // route, measured in `top`).
    #[allow(clippy::inline_always)]
    #[inline(always)]
    pub(crate) fn candidate<'r>(&self, rate: &'r Rate) -> Option<Candidate<'r>> {
        let amount = self.from_amount().get();
        Some(Candidate {
            rate,
            net_output: exact_net(amount, rate).or_else(|| net_output(rate, amount))?,
            effective_max: rate.effective_max(self.campaigns()),
        })
    }

    /// Turns a ranked candidate into a route, computing the ExactOut required input.
    pub(crate) fn finish<'r>(&self, candidate: Candidate<'r>) -> Result<Route<'r>, RejectReason> {
        let required_input = match self.mode() {
            SwapMode::ExactIn => None,
            SwapMode::ExactOut => Some(
                required_input_near(candidate.rate, self.exact_output(), self.from8())
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

/// Puts `rejected` back in the order of `rates`, the slice its rates borrow
/// from: a rejection found after ranking (an ExactOut required input that
/// overflows) is appended after those of the scan.
fn in_input_order(rates: &[Rate], rejected: &mut [Rejection<'_>]) {
    // A rate's address minus the slice's start grows with its position.
    let start = rates.as_ptr() as usize;
    rejected.sort_by_key(|rejection| {
        (core::ptr::from_ref::<Rate>(rejection.rate()) as usize).wrapping_sub(start)
    });
}

/// The pair's from asset: the unit of `fromAmount` and of every limit.
pub(crate) fn from_asset(rates: &[Rate]) -> Option<&crate::ids::AssetId> {
    rates.first().map(|rate| rate.pair_id().from())
}
