//! The split search's walk (module documentation in `mod.rs`, steps 2-4):
//! the seed, the walk by the Lagrangian bound, the dominance pass, each set
//! evaluated exactly by the pour, every step counted against the work left.

use alloc::vec::Vec;
use core::cmp::Ordering;

use rust_decimal::Decimal;

use super::exact::{leg_net, route_net};
use super::model::{
    before, bound_units, bounds_scale, candidate, ceil_div, grid, pair_cap, pour_order,
    relaxed_value, score, set_order, split_work_limit, Asked, Candidate, Exhausted, Found, Known,
    SplitLeg, SplitStop, SplitWork, EVALUATION_UNITS, SEED, UNBOUNDED, UNIT, VALUE_SCALE,
};
use crate::decimal::Amount;
use crate::ids::CampaignId;
use crate::numeric::Wide;
use crate::rate::Rate;
use crate::route::rules::eligibility::check;
use crate::route::rules::net_output::net_output;
use crate::route::rules::order::tie_order;
use crate::route::rules::served::AmountModel;
use crate::route::{Route, RouteRequest};
use crate::swap_mode::SwapMode;

/// Steps 1-4 (module documentation in `mod.rs`): the exact best set of
/// 2..=legs rates for `total` (8-place units, on the policy's grid), or
/// `None`; `single` is the incumbent to beat (a 1-leg set, by its exact net
/// output) when there is one.
///
/// # Errors
/// [`Exhausted`] past the last allowance.
pub(super) fn search<'r>(
    request: &RouteRequest<'_>,
    rates: &'r [Rate],
    total: i128,
    policy: &Asked,
    single: Option<&Route<'r>>,
) -> Result<Option<(Found<'r>, SplitWork)>, Exhausted> {
    let (step, legs, cost) = (policy.step, policy.legs, policy.cost);
    // Step 1. At most one per rate, allocated once.
    let mut candidates: Vec<Candidate<'r>> = Vec::with_capacity(rates.len());
    candidates.extend(
        rates
            .iter()
            .filter_map(|rate| candidate(request, rate, total, step)),
    );
    if candidates.len() < 2 {
        return Ok(None);
    }
    let scale = bounds_scale(&candidates, total, cost);
    for c in &mut candidates {
        if c.m.scale() <= scale {
            // Exact at the bounds' scale: up and down are one number.
            c.m_up = bound_units(c.m, scale, true).unwrap_or(-1);
            c.m_down = c.m_up;
        } else {
            c.m_up = bound_units(c.m, scale, true).unwrap_or(-1);
            c.m_down = bound_units(c.m, scale, false).unwrap_or(-1);
        }
        c.fee_down = bound_units(c.fee, scale, false).unwrap_or(0);
    }
    let mut search = Search {
        request,
        scale,
        total,
        step,
        places: policy.places,
        cost,
        cost_wide: Wide::at_scale(cost, VALUE_SCALE).ok_or(Exhausted { limit: 0 })?,
        best: None,
        floor: i128::MIN,
        work: SplitWork::default(),
        left: policy
            .first_work
            .unwrap_or_else(|| split_work_limit(rates.len())),
        last: None,
        exhausted: false,
    };
    if let Some(single) = single {
        // Ruling 43: the single route's exact net, never its 28-place floor.
        let objective = route_net(single)
            .zip(search.cost_wide.mul_small(2))
            .and_then(|(net, two_c)| net.add(two_c));
        let Some(objective) = objective else {
            return Ok(None);
        };
        search.best = Some(Found {
            legs: Vec::new(),
            objective,
            marginal: single.rate().multiplier(),
        });
        search.floor = search.value_floor().unwrap_or(i128::MIN);
    }
    // Step 2: the exact best pair by its marginal leg, and a bound on
    // every triple (marginal.rs). When it decides the pairs, the walk
    // is left only the triples a bound cannot rule out.
    let first = search.left;
    // The seed first: an incumbent for step 2's bounds.
    search.seed(&mut candidates, legs);
    let pairs_known = if search.exhausted {
        None
    } else {
        search.pairs_by_marginal(&mut candidates, legs == 3)
    };
    if let Some(lines) = &pairs_known {
        if legs == 3 && !search.triples_cannot_win(&candidates, lines) {
            search.run(&mut candidates, legs, true);
        }
    } else if !search.exhausted || policy.first_work.is_some() {
        // Undecided (numbers too large for the bounds): the walk,
        // with the rest of the allowance.
        search.run(&mut candidates, legs, false);
    } else {
        // Out of work: the walk, with the first allowance again.
        search.left = first;
        search.exhausted = false;
        search.run(&mut candidates, legs, false);
    }
    if search.exhausted {
        // Step 4: only rates that `legs` others cannot replace for the
        // better (a strict dominance pass, O(n²) comparisons at most),
        // then steps 2-3 again with a fresh allowance.
        search.left = split_work_limit(rates.len());
        search.exhausted = false;
        let kept = search.undominated(candidates, legs);
        search.work.reduced = kept.as_ref().map(Vec::len);
        candidates = kept.unwrap_or_default();
        if candidates.len() >= 2 && !search.exhausted {
            search.run(&mut candidates, legs, false);
        }
        if search.exhausted {
            return Err(Exhausted {
                limit: split_work_limit(rates.len()),
            });
        }
    }
    let work = search.work;
    Ok(search
        .best
        .filter(|b| !b.legs.is_empty())
        .map(|b| (b, work)))
}

/// The search's state.
pub(super) struct Search<'q, 'c, 'r> {
    pub(super) request: &'q RouteRequest<'c>,
    /// The scale of the bounds ([`bounds_scale`]).
    pub(super) scale: u32,
    pub(super) total: i128,
    /// The legs' grid step in 8-place units (ruling 48).
    pub(super) step: i128,
    /// The legs' places.
    pub(super) places: u32,
    pub(super) cost: Decimal,
    pub(super) cost_wide: Wide,
    pub(super) best: Option<Found<'r>>,
    /// The best value found, rounded down to the bounds' scale
    /// (`i128::MIN` before any).
    pub(super) floor: i128,
    pub(super) work: SplitWork,
    /// Units of work left; the search stops at zero.
    pub(super) left: u64,
    /// The objective of the set [`consider`](Search::consider) evaluated
    /// last, when it did.
    pub(super) last: Option<Wide>,
    pub(super) exhausted: bool,
}

impl<'r> Search<'_, '_, 'r> {
    /// Steps 2 and 3 over `candidates` (stops when the work runs out).
    /// With `pairs_known`, the best pair is already found (step 2): only
    /// the triples are walked.
    pub(super) fn run(&mut self, candidates: &mut [Candidate<'r>], legs: usize, pairs_known: bool) {
        self.seed(candidates, legs);
        if self.exhausted {
            return;
        }
        self.walk_by_bound(candidates, legs, pairs_known);
    }

    /// Step 2': a first split among the rates of highest `m·hi − fee` (one
    /// pass keeping the best few; at most 6 pairs and 4 triples).
    pub(super) fn seed(&mut self, candidates: &mut [Candidate<'r>], legs: usize) {
        let mut seed: [Option<(i128, usize)>; SEED] = [None; SEED];
        for (at, c) in candidates.iter_mut().enumerate() {
            c.score = score(c, 0);
            let mut entry = Some((c.score, at));
            for slot in &mut seed {
                if entry.map(|e| e.0) > slot.map(|s| s.0) {
                    core::mem::swap(slot, &mut entry);
                }
            }
        }
        let seed: Vec<usize> = seed.iter().flatten().map(|e| e.1).collect();
        self.walk(candidates, &seed, legs);
    }

    /// Step 3: every set, by the bound at the marginal multiplier (with
    /// `pairs_known`, the triples only).
    fn walk_by_bound(&mut self, candidates: &mut [Candidate<'r>], legs: usize, pairs_known: bool) {
        let lambda = self
            .best
            .as_ref()
            .and_then(|b| bound_units(b.marginal, self.scale, true))
            .unwrap_or(0);
        for c in candidates.iter_mut() {
            c.score = score(c, lambda);
        }
        let mut order: Vec<u32> = (0..candidates.len())
            .filter_map(|i| u32::try_from(i).ok())
            .collect();
        order.sort_unstable_by(|&a, &b| {
            let at = |i: u32| usize::try_from(i).ok().and_then(|i| candidates.get(i));
            match (at(a), at(b)) {
                (Some(ca), Some(cb)) => cb
                    .score
                    .cmp(&ca.score)
                    .then_with(|| tie_order(ca.rate, cb.rate)),
                _ => Ordering::Equal,
            }
        });
        self.prune(candidates, &order, legs, lambda, pairs_known);
    }

    /// Step 4: the candidates that can be in the best set. A rate `r` is
    /// dropped when others *dominate* it: `r'` dominates `r` when it
    /// serves every amount `r` serves (exact intervals), with a multiplier
    /// at least `r`'s and a fee at most `r`'s, and is strictly better (a
    /// higher multiplier, a lower fee, or first in ruling 7's order). In
    /// any set holding `r` and not `r'`, putting `r'` in `r`'s place keeps
    /// every leg's amount eligible and yields at least as much, strictly
    /// more or the same legs earlier in the tie order: ruling 39 prefers
    /// it. So `r` is not in the best set when one dominator shares its
    /// campaign (no set holds both), or `legs` dominators have none (a set
    /// holding `r` has room for `legs − 1` of them). Rates without an exact
    /// interval are dropped too. Sorted by multiplier (descending), fee,
    /// then ruling 7, dominators come first: at most `n(n − 1)/2`
    /// comparisons, each of a few integers.
    /// Every rate read and every comparison costs one unit of the work
    /// left: `None` when it runs out (the pass is metered like the walk).
    pub(super) fn undominated(
        &mut self,
        candidates: Vec<Candidate<'r>>,
        legs: usize,
    ) -> Option<Vec<Candidate<'r>>> {
        let mut all: Vec<(Candidate<'r>, i128, i128)> = Vec::with_capacity(candidates.len());
        for mut c in candidates {
            if !self.spend(1) {
                return None;
            }
            if let Some((lo, hi)) = self.exact(&mut c) {
                c.known = Known::Interval(lo, hi);
                all.push((c, lo, hi));
            }
        }
        all.sort_by(|a, b| {
            b.0.rate
                .multiplier()
                .cmp(&a.0.rate.multiplier())
                .then_with(|| a.0.rate.miner_fee().cmp(&b.0.rate.miner_fee()))
                .then_with(|| tie_order(a.0.rate, b.0.rate))
        });
        let mut kept = Vec::with_capacity(all.len());
        for (at, &(c, lo, hi)) in all.iter().enumerate() {
            let (m, fee) = (c.rate.multiplier(), c.rate.miner_fee());
            let campaign = c.rate.sponsored_by_campaign_id();
            let mut unsponsored = 0usize;
            let mut dominated = false;
            for &(d, dlo, dhi) in all.iter().take(at) {
                if !self.spend(1) {
                    return None;
                }
                let (dm, dfee) = (d.rate.multiplier(), d.rate.miner_fee());
                let covers = dm >= m && dfee <= fee && dlo <= lo && dhi >= hi;
                let strict = dm > m || dfee < fee || tie_order(d.rate, c.rate) == Ordering::Less;
                if !(covers && strict) {
                    continue;
                }
                match d.rate.sponsored_by_campaign_id() {
                    None => unsponsored = unsponsored.saturating_add(1),
                    Some(dc) if Some(dc) == campaign => dominated = true,
                    Some(_) => {}
                }
                if dominated || unsponsored >= legs {
                    dominated = true;
                    break;
                }
            }
            if !dominated {
                kept.push(c);
            }
        }
        Some(kept)
    }

    /// Every set of 2..=legs among the `seed` candidates.
    pub(super) fn walk(&mut self, candidates: &mut [Candidate<'r>], seed: &[usize], legs: usize) {
        for (a, &i) in seed.iter().enumerate() {
            for (b, &j) in seed.iter().enumerate().skip(a.saturating_add(1)) {
                self.consider(candidates, &[i, j]);
                if legs == 3 {
                    for &k in seed.iter().skip(b.saturating_add(1)) {
                        self.consider(candidates, &[i, j, k]);
                    }
                }
            }
        }
    }

    /// The walk by bound: `order` lists the candidates by score, highest
    /// first (ties in ruling 7's order); a loop stops when the best set left
    /// in it is bounded below the best found, or bounded at exactly the best
    /// and after it in ruling 39's tie order (it can at most tie, and every
    /// set left in the loop comes later still: see [`Search::tied_after`]).
    /// Sets whose limits cannot hold the amount are passed over by the
    /// [`Capacity`] of the rates after them.
    pub(super) fn prune(
        &mut self,
        candidates: &mut [Candidate<'r>],
        order: &[u32],
        legs: usize,
        lambda: i128,
        pairs_known: bool,
    ) {
        let cost = bound_units(self.cost, self.scale, false).unwrap_or(0);
        let walk = Walk {
            order,
            capacity: Capacity::after(candidates, order),
            lambda,
            cost,
        };
        if !pairs_known {
            self.prune_pairs(candidates, &walk);
        }
        if legs == 3 {
            self.prune_triples(candidates, &walk);
        }
    }

    /// The least bound a set of `legs` must reach: `need` for the best's
    /// number of legs or fewer; `need + 1` for more (a set of more legs than
    /// the best loses a tie, so its bound must beat the best strictly).
    pub(super) fn need_for(&self, legs: usize, lambda: i128) -> i128 {
        let need = self.need(lambda);
        if legs > self.best_legs() {
            need.saturating_add(1)
        } else {
            need
        }
    }

    /// Step 3's pairs.
    pub(super) fn prune_pairs(&mut self, candidates: &mut [Candidate<'r>], walk: &Walk<'_>) {
        let (count, total) = (walk.order.len(), self.total);
        let mut need = self.need_for(2, walk.lambda);
        for i in 0..count {
            if self.exhausted {
                return;
            }
            let i1 = i.saturating_add(1);
            let si = walk.score(candidates, i);
            let top = si
                .saturating_add(walk.score(candidates, i1))
                .saturating_sub(walk.cost);
            if self.stops(candidates, top, need, &walk.at(&[i, i1])) {
                break;
            }
            let Some(ci) = walk.candidate(candidates, i) else {
                break;
            };
            if !walk.capacity.fits(i1, 1, ci.lo, ci.hi, total) {
                continue;
            }
            for j in i1..count {
                let bound = si
                    .saturating_add(walk.score(candidates, j))
                    .saturating_sub(walk.cost);
                let set = walk.at(&[i, j]);
                if self.stops(candidates, bound, need, &set) {
                    break;
                }
                let [Some(a), Some(b)] = set else {
                    break;
                };
                if self.consider(candidates, &[a, b]) {
                    need = self.need_for(2, walk.lambda);
                }
                if self.exhausted {
                    return;
                }
            }
        }
    }

    /// Step 3's triples.
    pub(super) fn prune_triples(&mut self, candidates: &mut [Candidate<'r>], walk: &Walk<'_>) {
        let (count, total) = (walk.order.len(), self.total);
        let two_c = walk.cost.saturating_mul(2);
        let mut need = self.need_for(3, walk.lambda);
        for i in 0..count {
            if self.exhausted {
                return;
            }
            let (i1, i2) = (i.saturating_add(1), i.saturating_add(2));
            let si = walk.score(candidates, i);
            let top = si
                .saturating_add(walk.score(candidates, i1))
                .saturating_add(walk.score(candidates, i2))
                .saturating_sub(two_c);
            if self.stops(candidates, top, need, &walk.at(&[i, i1, i2])) {
                break;
            }
            let Some(ci) = walk.candidate(candidates, i) else {
                break;
            };
            if !walk.capacity.fits(i1, 2, ci.lo, ci.hi, total) {
                continue;
            }
            for j in i1..count {
                // Every pair of the triples' loop is one unit (ruling 48).
                if !self.spend(1) {
                    return;
                }
                let j1 = j.saturating_add(1);
                let sij = si.saturating_add(walk.score(candidates, j));
                let top = sij
                    .saturating_add(walk.score(candidates, j1))
                    .saturating_sub(two_c);
                if self.stops(candidates, top, need, &walk.at(&[i, j, j1])) {
                    break;
                }
                let Some(cj) = walk.candidate(candidates, j) else {
                    break;
                };
                let (lo, hi) = (ci.lo.saturating_add(cj.lo), ci.hi.saturating_add(cj.hi));
                if !walk.capacity.fits(j1, 1, lo, hi, total) {
                    // No third leg after j completes the amount: one unit.
                    if !self.spend(1) {
                        return;
                    }
                    continue;
                }
                // Capacity-aware: i and j together hold at most `A − 1`
                // (the third leg takes at least one unit), which the two
                // scores ignore when both are above λ.
                let (a, b) = (walk.index(i), walk.index(j));
                let sij = sij.min(self.pair_cap(candidates, a, b, walk.lambda));
                if sij
                    .saturating_add(walk.score(candidates, j1))
                    .saturating_sub(two_c)
                    < need
                {
                    continue;
                }
                for k in j1..count {
                    let bound = sij
                        .saturating_add(walk.score(candidates, k))
                        .saturating_sub(two_c);
                    let set = walk.at(&[i, j, k]);
                    if self.stops(candidates, bound, need, &set) {
                        break;
                    }
                    let [Some(a), Some(b), Some(d)] = set else {
                        break;
                    };
                    if self.consider(candidates, &[a, b, d]) {
                        need = self.need_for(3, walk.lambda);
                    }
                    if self.exhausted {
                        return;
                    }
                }
            }
        }
    }

    /// `true` when a set (indices into `candidates`) bounded at exactly the
    /// best cannot win: it can at most tie the best's value (its bound is
    /// `need`, at most the best's value less `λA`), the best has as many
    /// legs, and the set's rates in ruling 7's order do not come before the
    /// best's (ruling 39 keeps the earlier set). In a loop of the walk, every
    /// set left that is still bounded at `need` replaces the set's members by
    /// rates of equal score further on (the walk lists equal scores in ruling
    /// 7's order), so it comes no earlier: the loop can stop.
    pub(super) fn tied_after(&self, candidates: &[Candidate<'r>], set: &[Option<usize>]) -> bool {
        let Some(best) = self.best.as_ref() else {
            return false;
        };
        if best.legs.len() != set.len() {
            return false;
        }
        let mut ours: [Option<&'r Rate>; 3] = [None; 3];
        for (slot, i) in ours.iter_mut().zip(set) {
            match i.and_then(|i| candidates.get(i)) {
                Some(c) => *slot = Some(c.rate),
                None => return false,
            }
        }
        set_order(ours.into_iter().flatten(), best.legs.iter().map(|l| l.rate)) != Ordering::Less
    }

    /// Whether a loop of the walk stops at a set bounded at `bound`: below
    /// `need`, or at exactly `need` and unable to win its tie
    /// ([`tied_after`](Self::tied_after)).
    pub(super) fn stops(
        &self,
        candidates: &[Candidate<'r>],
        bound: i128,
        need: i128,
        set: &[Option<usize>],
    ) -> bool {
        bound < need || (bound == need && self.tied_after(candidates, set))
    }

    /// [`pair_cap`] of two candidates (by index) leaving one unit for a
    /// third leg; [`UNBOUNDED`] when either is missing.
    pub(super) fn pair_cap(
        &self,
        candidates: &[Candidate<'r>],
        a: Option<usize>,
        b: Option<usize>,
        lambda: i128,
    ) -> i128 {
        match (
            a.and_then(|a| candidates.get(a)),
            b.and_then(|b| candidates.get(b)),
        ) {
            (Some(ca), Some(cb)) => pair_cap(ca, cb, lambda, self.total.saturating_sub(1)),
            _ => UNBOUNDED,
        }
    }

    /// `floor(best value − λA)` at the bounds' scale: a set whose bound is below
    /// it cannot reach the best (`i128::MIN` before any).
    pub(super) fn need(&self, lambda: i128) -> i128 {
        (|| {
            let la = ceil_div(lambda.checked_mul(self.total)?, UNIT)?;
            self.value_floor()?.checked_sub(la)
        })()
        .unwrap_or(i128::MIN)
    }

    /// The best value rounded down to the bounds' scale, the value being the
    /// objective minus `2c`.
    pub(super) fn value_floor(&self) -> Option<i128> {
        let mut obj = self.best.as_ref()?.objective;
        for _ in 0..VALUE_SCALE.checked_sub(self.scale)? {
            obj = obj.div10()?.0;
        }
        let obj = i128::try_from(obj.to_u128()?).ok()?;
        obj.checked_sub(bound_units(self.cost, self.scale, true)?.checked_mul(2)?)
    }

    /// Evaluates one set (indices into `candidates`) and keeps it when it is
    /// the best so far; `true` when it was kept.
    pub(super) fn consider(&mut self, candidates: &mut [Candidate<'r>], set: &[usize]) -> bool {
        self.last = None;
        if !self.spend(1) {
            return false;
        }
        self.work.bounded = self.work.bounded.saturating_add(1);
        let mut chosen: [(usize, Option<Candidate<'r>>); 3] = [(0, None); 3];
        let (mut lo, mut hi) = (0i128, 0i128);
        for (slot, &i) in chosen.iter_mut().zip(set) {
            let Some(c) = candidates.get(i) else {
                return false;
            };
            lo = lo.saturating_add(c.lo);
            hi = hi.saturating_add(c.hi);
            *slot = (i, Some(*c));
        }
        if lo > self.total || hi < self.total {
            return false;
        }
        let chosen = chosen.get(..set.len()).unwrap_or(&[]);
        for (a, (_, ca)) in chosen.iter().enumerate() {
            for (_, cb) in chosen.iter().skip(a.saturating_add(1)) {
                let campaign = |c: &Option<Candidate<'r>>| -> Option<&'r CampaignId> {
                    c.as_ref().and_then(|c| c.rate.sponsored_by_campaign_id())
                };
                if let (Some(x), Some(y)) = (campaign(ca), campaign(cb)) {
                    if x == y {
                        return false;
                    }
                }
            }
        }
        // The set's value over its relaxed limits, rounded up: below the
        // best found, no division of it can reach the best.
        let cost = bound_units(self.cost, self.scale, false).unwrap_or(0);
        if let Some(up) = relaxed_value(chosen, self.total, cost) {
            // A set of more legs than the best loses a tie too.
            let ties_lose = set.len() > self.best_legs();
            let floor = self.floor.checked_mul(UNIT);
            if floor.is_some_and(|floor| up < floor || (ties_lose && up == floor)) {
                return false;
            }
            // At most the best's value, and not before it in the tie order.
            if floor == Some(up) {
                let mut ids: [Option<usize>; 3] = [None; 3];
                for (slot, &i) in ids.iter_mut().zip(set) {
                    *slot = Some(i);
                }
                if self.tied_after(candidates, ids.get(..set.len()).unwrap_or(&[])) {
                    return false;
                }
            }
        }
        if !self.spend(EVALUATION_UNITS) {
            return false;
        }
        self.work.evaluated = self.work.evaluated.saturating_add(1);
        let Some(found) = self.evaluate(candidates, chosen) else {
            return false;
        };
        self.last = Some(found.objective);
        let better = match &self.best {
            None => true,
            Some(best) => before(&found, best) == Ordering::Less,
        };
        if better {
            self.best = Some(found);
            self.floor = self.value_floor().unwrap_or(i128::MIN);
        }
        better
    }

    /// Takes `units` from the work left; `false` (and the search stops)
    /// when they are not there.
    pub(super) fn spend(&mut self, units: u64) -> bool {
        if let Some(left) = self.left.checked_sub(units) {
            self.left = left;
            true
        } else {
            self.exhausted = true;
            false
        }
    }

    /// The legs of the best found (the single route counts as one; none: 3,
    /// so that no tie is pruned).
    pub(super) fn best_legs(&self) -> usize {
        self.best.as_ref().map_or(3, |b| b.legs.len().max(1))
    }

    /// A candidate's exact interval, computed once.
    pub(super) fn exact(&self, c: &mut Candidate<'r>) -> Option<(i128, i128)> {
        match c.known {
            Known::Empty => return None,
            Known::Interval(lo, hi) => return Some((lo, hi)),
            Known::Unknown => {}
        }
        let interval = self.quick_interval(c).or_else(|| {
            // The one model of a rate over amounts, on the legs' grid.
            let model = AmountModel {
                from_places: self.places,
                ..AmountModel::new(SwapMode::ExactIn, self.request.now(), self.request.policy())
            };
            let (lo, hi) = model.interval(c.rate)?;
            Some((lo.checked_mul(self.step)?, hi.checked_mul(self.step)?))
        });
        c.known = interval.map_or(Known::Empty, |(lo, hi)| Known::Interval(lo, hi));
        interval
    }

    /// The common case in two checks: the engine admits the rate at both
    /// ends of its limits on the grid (`hi` capped below the amount), so it
    /// serves every amount between (each condition is monotone).
    pub(super) fn quick_interval(&self, c: &Candidate<'r>) -> Option<(i128, i128)> {
        let works = |x: i128| {
            let amount = Decimal::try_from_i128_with_scale(x, 8).ok()?;
            let request = RouteRequest::exact_in(Amount::new(amount).ok()?, self.request.now())
                .with_policy(self.request.policy());
            check(c.rate, &request).ok().map(|_| ())
        };
        works(c.lo)?;
        works(c.hi)?;
        Some((c.lo, c.hi))
    }

    /// The set's optimum: every leg at its lower end, the remainder poured
    /// in descending multiplier order (then ruling 7) up to each upper end.
    pub(super) fn evaluate(
        &mut self,
        candidates: &mut [Candidate<'r>],
        chosen: &[(usize, Option<Candidate<'r>>)],
    ) -> Option<Found<'r>> {
        let mut legs: [(Option<&'r Rate>, i128, i128); 3] = [(None, 0, 0); 3];
        let mut left = self.total;
        for (slot, &(at, _)) in legs.iter_mut().zip(chosen) {
            let c = candidates.get_mut(at)?;
            let (lo, hi) = self.exact(c)?;
            left = left.checked_sub(lo)?;
            *slot = (Some(c.rate), lo, hi);
        }
        if left < 0 {
            return None;
        }
        let legs = legs.get_mut(..chosen.len())?;
        legs.sort_by(|a, b| match (a.0, b.0) {
            (Some(x), Some(y)) => pour_order(x, y),
            _ => Ordering::Equal,
        });
        let mut objective = self
            .cost_wide
            .mul_small(u64::try_from(3usize.checked_sub(legs.len())?).ok()?)?;
        let mut marginal = legs.first()?.0?.multiplier();
        let mut out = Vec::with_capacity(legs.len());
        for &(rate, lo, hi) in legs.iter() {
            let rate = rate?;
            let take = hi.checked_sub(lo)?.max(0).min(left);
            left = left.checked_sub(take)?;
            let x = lo.checked_add(take)?;
            let amount = Decimal::try_from_i128_with_scale(x, 8).ok()?;
            // Within the rate's exact interval: eligible (checked again
            // when the answer is built); its exact net output.
            let net = net_output(rate, amount)?;
            // Ruling 43: the exact net in the sum, not its 28-place floor.
            objective = objective.add(leg_net(amount, rate)?)?;
            if x > lo {
                marginal = rate.multiplier();
            }
            out.push(SplitLeg {
                rate,
                from_amount: amount,
                net_output: net,
                // Its own max (the interval's top may be capped below the
                // amount, which is no max of the rate's).
                stop: if x == hi
                    && grid(rate.effective_max(self.request.campaigns()), false)
                        .and_then(|max| max.checked_sub(max.checked_rem_euclid(self.step)?))
                        == Some(x)
                {
                    SplitStop::Max
                } else {
                    SplitStop::Remainder
                },
            });
        }
        if left != 0 {
            return None;
        }
        Some(Found {
            legs: out,
            objective,
            marginal,
        })
    }
}

/// Step 3's walk: the candidates by score (`order`, positions into the
/// candidates), what the rates after each position can hold, `λ` and the
/// per-order cost at the bounds' scale.
pub(super) struct Walk<'o> {
    pub(super) order: &'o [u32],
    pub(super) capacity: Capacity,
    pub(super) lambda: i128,
    pub(super) cost: i128,
}

impl Walk<'_> {
    /// The candidate's index at walk position `i`.
    pub(super) fn index(&self, i: usize) -> Option<usize> {
        self.order.get(i).and_then(|&at| usize::try_from(at).ok())
    }

    /// The indices at the walk positions `at`.
    pub(super) fn at<const K: usize>(&self, at: &[usize; K]) -> [Option<usize>; K] {
        at.map(|i| self.index(i))
    }

    /// The candidate at walk position `i`.
    pub(super) fn candidate<'r>(
        &self,
        candidates: &[Candidate<'r>],
        i: usize,
    ) -> Option<Candidate<'r>> {
        self.index(i).and_then(|at| candidates.get(at)).copied()
    }

    /// The score at walk position `i`; far below any bound past the end.
    pub(super) fn score(&self, candidates: &[Candidate<'_>], i: usize) -> i128 {
        self.candidate(candidates, i)
            .map_or(i128::MIN / 8, |c| c.score)
    }
}

/// What the rates after each position of the walk can hold: the largest
/// `hi` and the smallest `lo` of one of them, and of two (limits on the
/// grid, campaigns ignored: bounds). A set whose members' limits cannot hold
/// the amount is never the answer, so the walk passes over a rate (or a
/// pair) that no rates after it complete.
pub(super) struct Capacity {
    /// At position `p`: `[max hi, max hi + hi, min lo, min lo + lo]` over
    /// positions `p..`, distinct rates.
    pub(super) after: Vec<[i128; 4]>,
}

impl Capacity {
    /// The suffixes of `order` (positions into `candidates`), one pass from
    /// the end.
    pub(super) fn after(candidates: &[Candidate<'_>], order: &[u32]) -> Self {
        pub(super) const NONE: [i128; 4] =
            [i128::MIN / 8, i128::MIN / 8, i128::MAX / 8, i128::MAX / 8];
        let mut after = alloc::vec![NONE; order.len()];
        let mut acc = NONE;
        for (slot, &at) in after.iter_mut().zip(order).rev() {
            if let Some(c) = usize::try_from(at).ok().and_then(|at| candidates.get(at)) {
                let [hi1, hi2, lo1, lo2] = acc;
                acc = [
                    hi1.max(c.hi),
                    hi2.max(hi1.saturating_add(c.hi)),
                    lo1.min(c.lo),
                    lo2.min(lo1.saturating_add(c.lo)),
                ];
            }
            *slot = acc;
        }
        Capacity { after }
    }

    /// `true` when `more` (1 or 2) rates from position `from` on can join
    /// legs holding `[lo, hi]` in total so that the set holds `total`.
    pub(super) fn fits(&self, from: usize, more: usize, lo: i128, hi: i128, total: i128) -> bool {
        let Some(&[hi1, hi2, lo1, lo2]) = self.after.get(from) else {
            return false;
        };
        let (add_hi, add_lo) = if more == 1 { (hi1, lo1) } else { (hi2, lo2) };
        hi.saturating_add(add_hi) >= total && lo.saturating_add(add_lo) <= total
    }
}
