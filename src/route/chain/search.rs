//! The best chains, found without trying every combination: paths in order,
//! each leg's rates walked best multiplier first, pruned by bounds that no
//! later rate can beat, and the last ExactIn leg asked of its pair's rate
//! book (a logarithmic query).

use alloc::vec::Vec;
use core::cmp::Ordering;

use rust_decimal::Decimal;

use super::leg::{backward, exact_next, forward, lower_bound, yields};
use super::market::{lower_quotient, Market, MarketPair};
use super::paths::each_path;
use super::ranked::{Chain, Leg};
use super::request::{ChainRequest, MAX_LEGS};
use super::ChainNoRoute;
use crate::decimal::Amount;
use crate::numeric::{pow10, times_pow10};
use crate::rate::Rate;
use crate::route::engine::TopBuffer;
use crate::route::request::FastRequest;
use crate::route::rules::order::{chain_net_cmp, chain_order, value_cmp, ChainKey};
use crate::route::RouteRequest;
use crate::swap_mode::SwapMode;

/// A chain in the making: its rates, its score (the final output, or the
/// first leg's required input) and its last leg's input (ExactIn: the
/// amount the final output is at, for the exact order of ruling 43), what
/// the chain order reads.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Pick<'r> {
    rates: [&'r Rate; MAX_LEGS],
    len: usize,
    score: Decimal,
    last_input: Decimal,
    /// ExactIn: each leg's input and output as the search computed them,
    /// so the chain is not computed again (`None` in ExactOut, whose legs
    /// [`build`](ChainRequest::build) computes).
    io: Option<[(Decimal, Decimal); MAX_LEGS]>,
}

impl<'r> Pick<'r> {
    fn new(rates: &[&'r Rate], score: Decimal, last_input: Decimal) -> Option<Self> {
        let first = *rates.first()?;
        let mut slots = [first; MAX_LEGS];
        for (slot, rate) in slots.iter_mut().zip(rates) {
            *slot = rate;
        }
        (rates.len() <= MAX_LEGS).then_some(Pick {
            rates: slots,
            len: rates.len(),
            score,
            last_input,
            io: None,
        })
    }

    /// The same pick with its legs' inputs and outputs.
    fn with_io(self, io: [(Decimal, Decimal); MAX_LEGS]) -> Self {
        Pick {
            io: Some(io),
            ..self
        }
    }

    /// The chain of a pick whose legs the search computed (ExactIn).
    fn chain(&self, mode: SwapMode) -> Option<Chain<'r>> {
        let io = self.io?;
        let first = *self.rates.first()?;
        let mut legs = [Leg {
            rate: first,
            input: Decimal::ZERO,
            output: Decimal::ZERO,
        }; MAX_LEGS];
        for ((slot, &rate), (input, output)) in legs.iter_mut().zip(&self.rates).zip(io) {
            *slot = Leg {
                rate,
                input,
                output,
            };
        }
        Chain::new(mode, legs.get(..self.len)?)
    }

    fn rates(&self) -> &[&'r Rate] {
        self.rates.get(..self.len).unwrap_or_default()
    }

    /// What the chain order reads.
    fn key(&self) -> ChainKey<'_, 'r> {
        (self.score, self.last_input, self.rates())
    }
}

/// The best `k` picks so far, best first, in the engine's bounded buffer.
struct Picks<'s, 'r> {
    mode: SwapMode,
    buffer: TopBuffer<&'s mut [Option<Pick<'r>>], &'s mut [()]>,
    /// Counts the offers kept: the floor can only have moved when it did.
    kept: u32,
    /// Leg checks and book queries left before a search that has found
    /// nothing stops, so that "no route" is decided leg by leg instead
    /// (`None`: no limit).
    budget: Option<u64>,
    /// The budget ran out with nothing found.
    stopped: bool,
}

impl<'r> Picks<'_, 'r> {
    /// Spends one unit of work; `true` when the search must stop.
    fn spend(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if let Some(left) = self.budget.as_mut() {
            match left.checked_sub(1) {
                Some(rest) => *left = rest,
                None if self.buffer.keys().first().is_none_or(Option::is_none) => {
                    self.stopped = true;
                }
                None => self.budget = None,
            }
        }
        self.stopped
    }

    /// The score a new chain must reach or beat to be kept: the worst kept
    /// once full (`None` while there is room).
    fn floor(&self) -> Option<Decimal> {
        if !self.buffer.is_full() {
            return None;
        }
        self.buffer
            .keys()
            .last()
            .copied()
            .flatten()
            .map(|pick| pick.score)
    }

    /// `true` when `score` cannot reach the floor: strictly worse than it.
    fn beaten(&self, score: Decimal) -> bool {
        self.floor().is_some_and(|floor| match self.mode {
            SwapMode::ExactIn => score < floor,
            SwapMode::ExactOut => score > floor,
        })
    }

    /// `true` when `pick` cannot reach the floor: strictly worse than the
    /// worst kept pick by score (ExactIn: by the exact final outputs,
    /// ruling 43, so a pick whose `Decimal` output equals the floor's, or
    /// is a floor of a larger exact value, is not turned away).
    fn pick_beaten(&self, pick: &Pick<'r>) -> bool {
        if !self.buffer.is_full() {
            return false;
        }
        let Some(held) = self.buffer.keys().last().copied().flatten() else {
            return false;
        };
        match self.mode {
            SwapMode::ExactIn => chain_net_cmp(pick.key(), held.key()) == Ordering::Less,
            SwapMode::ExactOut => pick.score > held.score,
        }
    }

    fn offer(&mut self, pick: Pick<'r>) {
        if self.pick_beaten(&pick) {
            return;
        }
        self.kept = self.kept.wrapping_add(1);
        let mode = self.mode;
        // Free slots are `None`, which every pick goes before.
        self.buffer
            .offer(Some(pick), (), |new, (), held, ()| match (new, held) {
                (Some(a), Some(b)) => chain_order(mode, a.key(), b.key()) == Ordering::Less,
                (Some(_), None) => true,
                (None, _) => false,
            });
    }
}

/// The most chains [`ChainRequest::top`] (and the report of
/// [`ChainRequest::select`]) returns, whatever `k` asks for: a larger `k` is
/// capped here before anything is allocated (ruling 36).
pub const MAX_TOP: usize = 1024;

/// ExactIn pruning, for a leg with input `x` and pairs `rest` after it: a
/// chain reaches `floor` only if the next leg's input is at least
/// `next_input`, rounded down so that pruning below it is safe. From the
/// bound of every later pair, `y × largest multiplier − smallest fee`,
/// inverted back through `rest`: `t = floor`, then `t = (t + fee) /
/// multiplier` (a multiplication by the inverse each pair keeps).
#[derive(Clone, Copy, Debug)]
struct Thresholds {
    next_input: Decimal,
}

impl Thresholds {
    fn new(floor: Decimal, rest: &[&MarketPair<'_>]) -> Option<Self> {
        let mut t = floor;
        for pair in rest.iter().rev() {
            let inverse = pair.max_multiplier_inverse?;
            if let Some(exact) = least_input(t, pair.min_fee, inverse) {
                t = exact;
                continue;
            }
            let sum = t.checked_add(pair.min_fee)?;
            let sum = sum.checked_sub(Decimal::new(1, sum.scale()))?;
            // Cut to 8 places toward zero (still a lower bound; inputs have 8
            // places anyway): the product with the 12-digit inverse then fits
            // `Decimal`'s 96 bits without rescaling.
            let sum = sum.trunc_with_scale(8);
            let quotient = sum.checked_mul(inverse)?;
            t = quotient.checked_sub(Decimal::new(1, quotient.scale()))?;
        }
        Some(Thresholds { next_input: t })
    }

    /// No rate of multiplier `multiplier` or less can reach the floor from
    /// `x`: `x × multiplier`, exactly, is below the next input needed (the
    /// next input, `floor8(x × multiplier − fee)`, is at most the product).
    fn cuts(&self, x: Decimal, multiplier: Decimal) -> bool {
        product_below(x, multiplier, self.next_input)
    }
}

/// One step of [`Thresholds::new`] in integers: `floor8((t + fee) ×
/// inverse)`, where `inverse` is at most `1 / M` for the pair's largest
/// multiplier `M` and `fee` its smallest fee. An input `y` below it is below
/// `(t + fee) / M`, so `y × M − fee < t`: no rate of the pair reaches `t`
/// from it. The bound the `Decimal` steps compute, exact instead of less a
/// unit at each step, in a few integer operations. `None` (the `Decimal`
/// steps answer) for a negative operand or a value past `u128` or 8-place
/// `Decimal`.
fn least_input(t: Decimal, fee: Decimal, inverse: Decimal) -> Option<Decimal> {
    let tm = u128::try_from(t.mantissa()).ok()?;
    let fm = u128::try_from(fee.mantissa()).ok()?;
    let im = u128::try_from(inverse.mantissa()).ok()?;
    let scale = t.scale().max(fee.scale());
    let sum = times_pow10(tm, scale.checked_sub(t.scale())?)?
        .checked_add(times_pow10(fm, scale.checked_sub(fee.scale())?)?)?;
    let product = sum.checked_mul(im)?;
    let product_scale = scale.checked_add(inverse.scale())?;
    let at8 = match product_scale.checked_sub(8) {
        Some(down) => product.checked_div(pow10(down)?)?,
        None => times_pow10(product, 8u32.checked_sub(product_scale)?)?,
    };
    Decimal::try_from_i128_with_scale(i128::try_from(at8).ok()?, 8).ok()
}

/// `x × m < t` exactly, for `x` and `m` not negative (amounts and
/// multipliers), on the mantissas in `u128`: a few integer operations where
/// `Decimal`'s product, sum and comparison cost a few hundred instructions.
/// `false` (no pruning) for a negative operand or a product past `u128`.
fn product_below(x: Decimal, m: Decimal, t: Decimal) -> bool {
    if t.is_sign_negative() || t.is_zero() {
        // A product of numbers that are not negative is not below 0.
        return false;
    }
    let (Ok(xm), Ok(mm), Ok(tm)) = (
        u128::try_from(x.mantissa()),
        u128::try_from(m.mantissa()),
        u128::try_from(t.mantissa()),
    ) else {
        return false;
    };
    let Some(product) = xm.checked_mul(mm) else {
        return false;
    };
    let product_scale = x.scale().saturating_add(m.scale());
    let t_scale = t.scale();
    if product_scale >= t_scale {
        // product / 10^ps < tm / 10^ts ⇔ product < tm × 10^(ps − ts); a
        // bound past u128 (10^39 and more, as tm >= 1) is above the product.
        pow10(product_scale.saturating_sub(t_scale))
            .and_then(|up| tm.checked_mul(up))
            .is_none_or(|bound| product < bound)
    } else {
        // product × 10^(ts − ps) < tm; past u128 it is not below.
        pow10(t_scale.saturating_sub(product_scale))
            .and_then(|up| product.checked_mul(up))
            .is_some_and(|scaled| scaled < tm)
    }
}

/// ExactIn: the least input the first of `rest` needs for a chain through
/// all of them (rounded down, so it stays a bound): each pair's input is at
/// least its smallest min, and large enough that `input × largest
/// multiplier − smallest fee` reaches what the next pair needs. `None`
/// without pairs or when a step does not compute (no pruning).
fn needed_input(rest: &[&MarketPair<'_>]) -> Option<Decimal> {
    let mut needed: Option<Decimal> = None;
    for pair in rest.iter().rev() {
        let from_next = match needed {
            None => Decimal::ZERO,
            Some(t) => Thresholds::new(t, core::slice::from_ref(pair))?.next_input,
        };
        needed = Some(pair.min_min.max(from_next));
    }
    needed
}

impl ChainRequest {
    /// The best chain from `from` to `to` in `market`, or why there is none.
    /// Allocates nothing when a chain is found.
    ///
    /// Ranked by the chain order of ruling 24 in docs/RULES.md: ExactIn by
    /// final net output (highest first), ExactOut by the first leg's
    /// required input (lowest first); then fewer legs; then leg by leg, pair
    /// id bytes and the single-pair tie-breaks. The result is the first
    /// chain of [`select`](Self::select), independent of the order of rates
    /// and of responses.
    ///
    /// # Errors
    /// [`ChainNoRoute`]: no chain joins the assets, or every chain breaks a
    /// rule on some leg (classified as [`ChainNoRoute`] says).
    pub fn best<'r>(&self, market: &Market<'r>) -> Result<Chain<'r>, ChainNoRoute> {
        if let Some(resolved) = self.resolved(market) {
            return resolved.best(market);
        }
        let mut slot = [None];
        if self.search(market, &mut slot, &mut [()], 1, Some(Self::budget(market))) {
            // Nothing found within the budget: decided from the pairs'
            // summaries or leg by leg; a chain exists after all only when
            // the legs say so.
            if let Some(no_route) = self.quick_no_route(market) {
                return Err(no_route);
            }
            let reach = self.reach(market);
            if !reach.found {
                return Err(self.no_route_of(&reach));
            }
            slot = [None];
            self.search(market, &mut slot, &mut [()], 1, None);
        }
        match slot {
            // An ExactIn pick holds its legs; an ExactOut pick's legs
            // compute again (the search ruled out the rest).
            [Some(pick)] => pick
                .chain(self.mode)
                .or_else(|| self.build(market, &pick))
                .ok_or_else(|| self.classify(market)),
            [None] => Err(self.classify(market)),
        }
    }

    /// The best `k` chains, best first (fewer when fewer exist). `k` is
    /// capped before anything is allocated (ruling 36): at the number of
    /// combinations of rates the paths hold, and at [`MAX_TOP`] (listing
    /// more is [`select_all`](Self::select_all)'s, under its own cap).
    ///
    /// # Errors
    /// [`ChainNoRoute`] when there is no chain at all, whatever `k` is.
    pub fn top<'r>(&self, market: &Market<'r>, k: usize) -> Result<Vec<Chain<'r>>, ChainNoRoute> {
        if let Some(resolved) = self.resolved(market) {
            return resolved.top(market, k);
        }
        let want = k;
        let k = k.min(self.candidates(market)).clamp(1, MAX_TOP);
        let mut slots = alloc::vec![None; k];
        let mut units = alloc::vec![(); k];
        if self.search(
            market,
            &mut slots,
            &mut units,
            k,
            Some(Self::budget(market)),
        ) {
            if let Some(no_route) = self.quick_no_route(market) {
                return Err(no_route);
            }
            let reach = self.reach(market);
            if !reach.found {
                return Err(self.no_route_of(&reach));
            }
            slots.fill(None);
            self.search(market, &mut slots, &mut units, k, None);
        }
        if slots.first().is_none_or(Option::is_none) {
            return Err(self.classify(market));
        }
        let mut chains = Vec::with_capacity(slots.iter().flatten().count());
        for pick in slots.iter().flatten() {
            if let Some(chain) = pick.chain(self.mode).or_else(|| self.build(market, pick)) {
                chains.push(chain);
            }
        }
        if chains.is_empty() {
            return Err(self.classify(market));
        }
        chains.truncate(want);
        Ok(chains)
    }

    /// The work a search may do before, having found nothing, it leaves
    /// "no route" to the leg-by-leg analysis: a few units a market rate.
    fn budget(market: &Market<'_>) -> u64 {
        let rates = (0..market.pair_count())
            .filter_map(|at| market.pair(at))
            .map(|pair| u64::try_from(pair.rates.len()).unwrap_or(u64::MAX))
            .fold(0u64, u64::saturating_add);
        rates.saturating_mul(4).saturating_add(64)
    }

    /// How many chains the paths could hold: for each path, the product of
    /// its pairs' rate counts (saturating). What a `k` is capped at.
    pub(crate) fn candidates(&self, market: &Market<'_>) -> usize {
        let mut total = 0usize;
        each_path(market, &self.from, &self.to, self.max_legs, |path| {
            let combinations = path.indices().iter().fold(1usize, |product, &at| {
                product.saturating_mul(market.pair(at).map_or(0, |pair| pair.rates.len()))
            });
            total = total.saturating_add(combinations);
        });
        total
    }

    /// Fills `slots` with the best picks over every path (`units` as many);
    /// `true` when it stopped, `budget` spent, with nothing found.
    fn search<'r>(
        &self,
        market: &Market<'r>,
        slots: &mut [Option<Pick<'r>>],
        units: &mut [()],
        k: usize,
        budget: Option<u64>,
    ) -> bool {
        let mut picks = Picks {
            mode: self.mode,
            buffer: TopBuffer::new(slots, units),
            kept: 0,
            budget,
            stopped: false,
        };
        // Every path's first ExactIn leg has the chain's amount and, without
        // a guard (resolved per pair), one policy: one request for all of
        // them, built once.
        let first = (self.mode == SwapMode::ExactIn && self.price_guard.is_none())
            .then(|| self.leg_request(self.amount, market.campaigns(), &[], false));
        each_path(market, &self.from, &self.to, self.max_legs, |path| {
            let Some(pairs) = path.pairs(market) else {
                return;
            };
            let pairs = pairs.as_slice();
            // A pair no rate of which can pass anything: no chain here.
            if picks.stopped || !pairs.iter().all(|pair| pair.is_live(self.now, self.mode)) {
                return;
            }
            match self.mode {
                SwapMode::ExactIn => {
                    let mut prefix = [None; MAX_LEGS];
                    self.forward_walk(
                        market,
                        pairs,
                        0,
                        self.amount,
                        &mut prefix,
                        &mut picks,
                        k,
                        first.as_ref(),
                    );
                }
                SwapMode::ExactOut => {
                    let mut suffix = [None; MAX_LEGS];
                    let last = pairs.len().saturating_sub(1);
                    self.backward_walk(pairs, last, self.amount.get(), &mut suffix, &mut picks);
                }
            }
        });
        picks.stopped
    }

    /// ExactIn: leg `at` of `pairs` with `input`, the rates of the legs
    /// before it in `prefix`.
    #[allow(clippy::too_many_arguments)]
    fn forward_walk<'r>(
        &self,
        market: &Market<'r>,
        pairs: &[&MarketPair<'r>],
        at: usize,
        input: Amount,
        prefix: &mut [Option<Leg<'r>>; MAX_LEGS],
        picks: &mut Picks<'_, 'r>,
        k: usize,
        first: Option<&RouteRequest<'_>>,
    ) {
        let (Some(pair), Some(rest)) = (pairs.get(at), pairs.get(at.saturating_add(1)..)) else {
            return;
        };
        if rest.is_empty() {
            self.last_leg(market, pair, input, at, prefix, picks, k);
            return;
        }
        let request = match first {
            Some(first) if at == 0 => *first,
            _ => self.leg_request(input, market.campaigns(), pair.rates, false),
        };
        let fast = FastRequest::new(&request);
        // The least input the next pair needs for any rate after it to pass
        // (their smallest mins), and the most it takes (the largest max).
        let needed = needed_input(rest);
        let most = rest.first().map(|next| next.max_max);
        // The thresholds of the score to beat, recomputed when it may have moved.
        let mut seen: Option<u32> = None;
        let mut thresholds: Option<Thresholds> = None;
        for &rate in &pair.by_multiplier {
            if seen != Some(picks.kept) {
                seen = Some(picks.kept);
                thresholds = picks.floor().and_then(|floor| Thresholds::new(floor, rest));
            }
            // Every rate from here on has at most this multiplier: below
            // the threshold, none can reach the floor.
            if thresholds.is_some_and(|t| t.cuts(input.get(), rate.multiplier())) {
                break;
            }
            // Below what the next pairs need: so is every later rate.
            if needed.is_some_and(|least| {
                Thresholds { next_input: least }.cuts(input.get(), rate.multiplier())
            }) {
                break;
            }
            if picks.spend() {
                return;
            }
            // The leg's output (the first rule it breaks, if any), then the
            // next leg's input: the floor of its exact value (ruling 35).
            let Ok(output) = forward(rate, &request, fast.as_ref()) else {
                continue;
            };
            let Ok(next) = exact_next(rate, input.get()) else {
                continue;
            };
            let next_value = next.get();
            if thresholds.is_some_and(|t| value_cmp(next_value, t.next_input).is_lt())
                || needed.is_some_and(|least| value_cmp(next_value, least).is_lt())
                || most.is_some_and(|most| value_cmp(next_value, most).is_gt())
            {
                continue;
            }
            if let Some(slot) = prefix.get_mut(at) {
                *slot = Some(Leg {
                    rate,
                    input: input.get(),
                    output,
                });
            }
            self.forward_walk(
                market,
                pairs,
                at.saturating_add(1),
                next,
                prefix,
                picks,
                k,
                None,
            );
        }
    }

    /// ExactIn: the last leg, from the pair's rate book (the best) or its
    /// top `k`.
    #[allow(clippy::too_many_arguments)]
    fn last_leg<'r>(
        &self,
        market: &Market<'r>,
        pair: &MarketPair<'r>,
        input: Amount,
        at: usize,
        prefix: &[Option<Leg<'r>>; MAX_LEGS],
        picks: &mut Picks<'_, 'r>,
        k: usize,
    ) {
        // Outside every rate's limits: no rate passes (and the book would
        // scan them all to say why).
        let x = input.get();
        if value_cmp(x, pair.min_min).is_lt() || value_cmp(x, pair.max_max).is_gt() || picks.spend()
        {
            return;
        }
        let mut legs = [None; MAX_LEGS];
        for (slot, leg) in legs.iter_mut().zip(prefix.iter().take(at)) {
            *slot = *leg;
        }
        let mut offer = |rate: &'r Rate, score: Decimal| {
            if let Some(slot) = legs.get_mut(at) {
                *slot = Some(Leg {
                    rate,
                    input: x,
                    output: score,
                });
            }
            let mut chosen = [rate; MAX_LEGS];
            let mut io = [(Decimal::ZERO, Decimal::ZERO); MAX_LEGS];
            let mut len = 0usize;
            for ((slot, put), leg) in chosen
                .iter_mut()
                .zip(io.iter_mut())
                .zip(legs.iter().flatten())
            {
                *slot = leg.rate;
                *put = (leg.input, leg.output);
                len = len.saturating_add(1);
            }
            if let Some(pick) = chosen
                .get(..len)
                .and_then(|rates| Pick::new(rates, score, x))
            {
                picks.offer(pick.with_io(io));
            }
        };
        if k <= 1 {
            if let Ok(route) =
                pair.best(&self.leg_request(input, market.campaigns(), pair.rates, true))
            {
                offer(route.rate(), route.net_output());
            }
            return;
        }
        let request = self.leg_request(input, market.campaigns(), pair.rates, true);
        if let Ok(routes) = request.top(pair.rates, k) {
            for route in routes {
                offer(route.rate(), route.net_output());
            }
        }
    }

    /// ExactOut: leg `at` of `pairs` must deliver `target`; the rates of the
    /// legs after it in `suffix`.
    fn backward_walk<'r>(
        &self,
        pairs: &[&MarketPair<'r>],
        at: usize,
        target: Decimal,
        suffix: &mut [Option<&'r Rate>; MAX_LEGS],
        picks: &mut Picks<'_, 'r>,
    ) {
        let (Some(pair), Some(before)) = (pairs.get(at), pairs.get(..at)) else {
            return;
        };
        let final_leg = at.saturating_add(1) == pairs.len();
        let floors = self.leg_floors(final_leg);
        for &rate in &pair.by_multiplier {
            // Every rate from here on needs at least target / multiplier.
            if let Some(bound) = lower_quotient(target, rate.multiplier())
                .and_then(|least| lower_bound(least, before))
            {
                if picks.beaten(bound) {
                    break;
                }
            }
            if picks.spend() {
                return;
            }
            let guard = self.leg_guard(rate, final_leg);
            let Ok(required) = backward(rate, target, self.now, &floors, guard) else {
                continue;
            };
            if lower_bound(required.get(), before).is_some_and(|bound| picks.beaten(bound)) {
                continue;
            }
            // The legs before cannot deliver it: more than their largest max
            // times their largest multiplier.
            if before.last().is_some_and(|prev| {
                prev.max_max
                    .checked_mul(prev.max_multiplier)
                    .is_some_and(|most| required.get() > most)
            }) {
                continue;
            }
            if let Some(slot) = suffix.get_mut(at) {
                *slot = Some(rate);
            }
            if at == 0 {
                let mut chosen = [rate; MAX_LEGS];
                let mut len = 0usize;
                for (slot, held) in chosen
                    .iter_mut()
                    .zip(suffix.iter().take(pairs.len()).flatten())
                {
                    *slot = held;
                    len = len.saturating_add(1);
                }
                if let Some(pick) = chosen
                    .get(..len)
                    // ExactOut ranks by the required input alone: no last input.
                    .and_then(|legs| Pick::new(legs, required.get(), Decimal::ZERO))
                {
                    picks.offer(pick);
                }
            } else {
                self.backward_walk(pairs, at.saturating_sub(1), required.get(), suffix, picks);
            }
        }
    }

    /// The chain of a pick, its legs computed again in order (`None` if a
    /// leg no longer computes, which a pick's search rules out).
    fn build<'r>(&self, market: &Market<'r>, pick: &Pick<'r>) -> Option<Chain<'r>> {
        let rates = pick.rates();
        let mut legs: [Option<Leg<'r>>; MAX_LEGS] = [None; MAX_LEGS];
        match self.mode {
            SwapMode::ExactIn => {
                let mut input = self.amount;
                for (at, (slot, &rate)) in legs.iter_mut().zip(rates).enumerate() {
                    let request = self.leg_request(
                        input,
                        market.campaigns(),
                        core::slice::from_ref(rate),
                        at.saturating_add(1) == rates.len(),
                    );
                    let output =
                        forward(rate, &request, FastRequest::new(&request).as_ref()).ok()?;
                    *slot = Some(Leg {
                        rate,
                        input: input.get(),
                        output,
                    });
                    // The last leg's output is the chain's: not an input.
                    if at.saturating_add(1) < rates.len() {
                        input = exact_next(rate, input.get()).ok()?;
                    }
                }
            }
            SwapMode::ExactOut => {
                let mut target = self.amount.get();
                for (at, (slot, &rate)) in legs.iter_mut().zip(rates).enumerate().rev() {
                    let final_leg = at.saturating_add(1) == rates.len();
                    let floors = self.leg_floors(final_leg);
                    let guard = self.leg_guard(rate, final_leg);
                    let required = backward(rate, target, self.now, &floors, guard).ok()?;
                    *slot = Some(Leg {
                        rate,
                        input: required.get(),
                        output: yields(rate, required)?,
                    });
                    target = required.get();
                }
            }
        }
        let mut built = [legs[0]?; MAX_LEGS];
        for (slot, leg) in built.iter_mut().zip(legs.iter().flatten()) {
            *slot = *leg;
        }
        let chain = Chain::new(self.mode, built.get(..rates.len())?)?;
        // The pick's score is the chain's: the search and the build agree.
        let score = match self.mode {
            SwapMode::ExactIn => chain.output(),
            SwapMode::ExactOut => chain.input(),
        };
        (score == pick.score).then_some(chain)
    }
}

#[cfg(test)]
#[cfg(feature = "std")]
mod tests {
    use alloc::format;
    use alloc::vec::Vec;

    use rust_decimal::Decimal;

    use crate::route::chain::{ChainRequest, Market};
    use crate::route::work::meter::measure;
    use crate::{
        decimal::Amount, ids::AssetId, ids::RateId, rate::CampaignLimits, rate::PairId, rate::Rate,
        rate::RateTerms, rate::RatesResponse, time::EpochMillis,
    };

    /// `n` rates of `pair` with multipliers `base + i / 1000`, fee 0.01.
    fn rates(pair: &str, n: i64, base: i64) -> RatesResponse {
        let pair_id = PairId::new(pair).unwrap();
        let list: Vec<Rate> = (0..n)
            .map(|i| {
                Rate::new(
                    RateId::new(&format!("{pair}-{i}")).unwrap(),
                    pair_id.clone(),
                    RateTerms {
                        multiplier: Decimal::new(base * 1000 + i, 3),
                        miner_fee: Decimal::new(1, 2),
                        min: Decimal::new(1, 3),
                        max: Decimal::new(1000, 0),
                    },
                    EpochMillis::new(4_102_444_800_000),
                )
                .with_exact_out(true)
            })
            .collect();
        RatesResponse::try_from(list).unwrap()
    }

    #[test]
    fn the_least_input_is_the_exact_floor() {
        use super::least_input;
        let d = |s: &str| s.parse::<Decimal>().unwrap();
        // (400 + 0.01) × 0.047619047619 = 19.04809523807619 (by hand):
        // floor at 8 places 19.04809523.
        assert_eq!(
            least_input(d("400"), d("0.01"), d("0.047619047619")),
            Some(d("19.04809523"))
        );
        // (0.5 + 0) × 2.5 = 1.25, on the 8-place grid.
        assert_eq!(
            least_input(d("0.5"), Decimal::ZERO, d("2.5")),
            Some(d("1.25"))
        );
        // A negative bound is left to the Decimal steps.
        assert_eq!(least_input(d("-1"), d("0.01"), d("0.5")), None);
    }

    #[test]
    fn the_multiplier_cut_is_exact() {
        use super::product_below;
        let d = |s: &str| s.parse::<Decimal>().unwrap();
        // 1 × 20.5 = 20.5: not below itself, below one unit of 10^-8 more.
        assert!(!product_below(d("1"), d("20.5"), d("20.5")));
        assert!(product_below(d("1"), d("20.5"), d("20.50000001")));
        assert!(!product_below(d("1"), d("20.5"), d("20.49999999")));
        // 0.003 × 1.000000000000000000000000001 =
        // 0.003000000000000000000000000003 (30 places): above 0.003, below
        // 0.0030000000000000000000000001 (= ...0100 at 30 places).
        let deep = d("1.000000000000000000000000001");
        assert!(!product_below(d("0.003"), deep, d("0.003")));
        assert!(product_below(
            d("0.003"),
            deep,
            d("0.0030000000000000000000000001")
        ));
        // Nothing is below 0 or a negative bound; a product past u128
        // ((2^96 − 1)^2) is not pruned.
        assert!(!product_below(d("1"), d("2"), Decimal::ZERO));
        assert!(!product_below(d("1"), d("2"), d("-1")));
        let big = d("79228162514264337593543950335");
        assert!(!product_below(big, big, big));
        // A bound whose mantissa, aligned to the product's scale, passes
        // u128: 5 at scale 0 against 1 × 1 at scale 56 (28 + 28).
        let tiny = d("0.0000000000000000000000000001");
        assert!(product_below(tiny, tiny, d("5")));
    }

    /// One rate of `pair`: multiplier `m`, no fee, limits [0, 10].
    fn one(pair: &str, m: &str) -> RatesResponse {
        let rate = Rate::new(
            RateId::new(&format!("{pair}-r")).unwrap(),
            PairId::new(pair).unwrap(),
            RateTerms {
                multiplier: m.parse().unwrap(),
                miner_fee: Decimal::ZERO,
                min: Decimal::ZERO,
                max: Decimal::TEN,
            },
            EpochMillis::new(4_102_444_800_000),
        );
        RatesResponse::try_from(alloc::vec![rate]).unwrap()
    }

    /// The pair ids of each chain's legs, joined by `+`.
    fn paths(chains: &[crate::route::chain::Chain<'_>]) -> Vec<alloc::string::String> {
        chains
            .iter()
            .map(|chain| {
                let ids: Vec<&str> = chain.legs().iter().map(|l| l.pair_id().as_str()).collect();
                ids.join("+")
            })
            .collect()
    }

    /// Ruling 43 in chains, worked by hand: at 0.003, `1 × 0.003` = 0.003
    /// and `0.003 × 1.000000000000000000000000001` =
    /// 0.003000000000000000000000000003 (30 places), whose floor at 28
    /// places prints 0.003 too. The exact values differ by 3 × 10^-30: the
    /// chain through the longer multiplier ranks first, though its
    /// `Decimal` output equals the other's and the tie-breaks (fewer legs,
    /// then pair id bytes) would pick the other.
    #[test]
    fn chains_differing_past_28_places_rank_by_the_exact_outputs() {
        let now = EpochMillis::new(1_785_000_000_000);
        let amount = Amount::new(Decimal::new(3, 3)).unwrap();
        let s = || AssetId::new("S").unwrap();
        let d = || AssetId::new("D").unwrap();
        let deep = "1.000000000000000000000000001";
        // The direct pair (one leg) against S→M→D (two legs, the last deep).
        let data = [one("S_D", "1"), one("S_M", "1"), one("M_D", deep)];
        let market = Market::new(data.iter(), &CampaignLimits::new(), now).unwrap();
        let request = ChainRequest::exact_in(s(), d(), amount, now);
        let best = request.best(&market).unwrap();
        assert_eq!(paths(&[best]), ["S_M+M_D"]);
        // Its reported output is the floor, equal to the direct chain's.
        assert_eq!(best.output(), Decimal::new(3, 3));
        let top = request.top(&market, 2).unwrap();
        assert_eq!(top[1].output(), Decimal::new(3, 3));
        assert_eq!(paths(&top), ["S_M+M_D", "S_D"]);
        let all = request.select_all(&market, 2).unwrap();
        assert_eq!(paths(all.chains()), ["S_M+M_D", "S_D"]);
        // Equal exact outputs (no deep multiplier): fewer legs first.
        let data = [one("S_D", "1"), one("S_M", "1"), one("M_D", "1")];
        let market = Market::new(data.iter(), &CampaignLimits::new(), now).unwrap();
        assert_eq!(paths(&request.top(&market, 2).unwrap()), ["S_D", "S_M+M_D"]);
        // Two two-leg paths: by pair id bytes S_A+A_D would come first;
        // S_B+B_D's exact output is the larger.
        let data = [
            one("S_A", "1"),
            one("A_D", "1"),
            one("S_B", "1"),
            one("B_D", deep),
        ];
        let market = Market::new(data.iter(), &CampaignLimits::new(), now).unwrap();
        let top = request.top(&market, 2).unwrap();
        assert_eq!(paths(&top), ["S_B+B_D", "S_A+A_D"]);
        assert_eq!(paths(&[request.best(&market).unwrap()]), ["S_B+B_D"]);
        let all = request.select_all(&market, 2).unwrap();
        assert_eq!(paths(all.chains()), ["S_B+B_D", "S_A+A_D"]);
    }

    #[test]
    fn the_bounds_prune_the_walk() {
        // 64 first-leg rates, 16 second-leg rates (scanned, not booked): an
        // unpruned search scores every first-leg rate and scans the second
        // pair for each (64 + 64 × 16 checks); the bounds stop after a few.
        let now = EpochMillis::new(1_785_000_000_000);
        let data = [
            rates("S_M", 64, 20),
            rates("M_D", 16, 20),
            rates("S_D", 1, 300),
        ];
        let market = Market::new(data.iter(), &CampaignLimits::new(), now).unwrap();
        let request = ChainRequest::exact_in(
            AssetId::new("S").unwrap(),
            AssetId::new("D").unwrap(),
            Amount::new(Decimal::ONE).unwrap(),
            now,
        );
        let (best, work) = measure(|| request.best(&market));
        let best = best.unwrap();
        assert_eq!(best.legs().len(), 2);
        assert_eq!(best.legs()[0].rate().id().as_str(), "S_M-63");
        assert!(work < 80, "{work} units of work");
        // ExactOut: the same walk backwards.
        let request = ChainRequest::exact_out(
            AssetId::new("S").unwrap(),
            AssetId::new("D").unwrap(),
            Amount::new(Decimal::new(400, 0)).unwrap(),
            now,
        );
        let (best, work) = measure(|| request.best(&market));
        assert_eq!(best.unwrap().legs().len(), 2);
        assert!(work < 60, "{work} units of work");
    }
}
