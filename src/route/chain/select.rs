//! Every chain tried: the best `k` ranked, the best `k` rejections with the
//! leg that failed and why, and counts of every reason.

use alloc::vec::Vec;
use core::cmp::Ordering;

use rust_decimal::Decimal;
use serde::ser::{SerializeMap, SerializeSeq, SerializeStruct};
use serde::{Serialize, Serializer};

use super::leg::{backward, forward, next_input, yields};
use super::market::{Market, MarketPair};
use super::paths::each_path;
use super::ranked::{Chain, Leg};
use super::request::{ChainRequest, MAX_LEGS};
use super::ChainNoRoute;
use crate::decimal::{Amount, Plain};
use crate::ids::AssetId;
use crate::rate::{PairId, Rate};
use crate::route::rules::no_route::Tally;
use crate::route::rules::order::{chain_order, tie_order};
use crate::route::{RejectReason, RouteRequest};
use crate::swap_mode::SwapMode;

/// A chain that was not made: its path, the leg that failed (1 is the
/// first), that leg's rate and the reason.
///
/// In ExactIn legs are tried forwards (a rejection at leg 2 means leg 1
/// passed); in ExactOut backwards, from the last leg.
///
/// # JSON
/// `{"legs":["BTC_ETH","ETH_SOL"],"leg":2,"rateId":"…","reason":"BELOW_MIN"}`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChainRejection<'r> {
    pairs: [&'r PairId; MAX_LEGS],
    len: usize,
    leg: usize,
    rate: &'r Rate,
    reason: RejectReason,
}

impl<'r> ChainRejection<'r> {
    /// The path's pairs, in leg order.
    pub fn pair_ids(&self) -> &[&'r PairId] {
        self.pairs.get(..self.len).unwrap_or_default()
    }

    /// The leg that failed, counting from 1.
    pub fn leg(&self) -> usize {
        self.leg
    }

    /// The failing leg's rate.
    pub fn rate(&self) -> &'r Rate {
        self.rate
    }

    /// Why it failed.
    pub fn reason(&self) -> &RejectReason {
        &self.reason
    }

    /// How many legs passed before this one failed (legs are tried forwards
    /// in ExactIn, backwards in ExactOut).
    fn progress(&self, mode: SwapMode) -> usize {
        match mode {
            SwapMode::ExactIn => self.leg.saturating_sub(1),
            SwapMode::ExactOut => self.len.saturating_sub(self.leg),
        }
    }
}

impl Serialize for ChainRejection<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut out = serializer.serialize_struct("ChainRejection", 4)?;
        out.serialize_field("legs", &self.pair_ids())?;
        out.serialize_field("leg", &self.leg)?;
        out.serialize_field("rateId", self.rate.id())?;
        out.serialize_field("reason", self.reason.code())?;
        out.end()
    }
}

/// The order of rejections, "best" first: the ones that got furthest (more
/// legs passed), then shorter paths, then by pair ids, then the failing
/// rate's single-pair tie-breaks.
fn rejection_order(mode: SwapMode, a: &ChainRejection<'_>, b: &ChainRejection<'_>) -> Ordering {
    b.progress(mode)
        .cmp(&a.progress(mode))
        .then(a.len.cmp(&b.len))
        .then_with(|| {
            a.pair_ids()
                .iter()
                .map(|p| p.as_str().as_bytes())
                .cmp(b.pair_ids().iter().map(|p| p.as_str().as_bytes()))
        })
        .then(a.leg.cmp(&b.leg))
        .then_with(|| tie_order(a.rate, b.rate))
}

/// Every chain of a request: the best `k` ranked, the best `k` rejections,
/// counts by reason, and why there is no chain when there is none.
///
/// # JSON
/// `{"mode","from","to","fromAmount","toAmount","chains":[{"rank",…chain}],
/// "rejected":[…],"rejectedCounts":{"REASON":n}}`, decimals as strings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChainSelection<'r> {
    mode: SwapMode,
    from: AssetId,
    to: AssetId,
    amount: Amount,
    chains: Vec<Chain<'r>>,
    rejected: Vec<ChainRejection<'r>>,
    counts: Vec<(&'static str, usize)>,
    total: usize,
    no_route: Option<ChainNoRoute>,
}

impl<'r> ChainSelection<'r> {
    /// The best chains, best first (at most the `k` asked for).
    pub fn chains(&self) -> &[Chain<'r>] {
        &self.chains
    }

    /// How many chains there are in all (ranked or not kept).
    pub fn chain_count(&self) -> usize {
        self.total
    }

    /// The best rejections, "best" first: the ones that got furthest, then
    /// shorter paths, pair ids, the failing leg and the rate's tie-breaks
    /// (at most the `k` asked for; a rate failing the same way after
    /// different earlier legs is listed once, and counted each time).
    pub fn rejected(&self) -> &[ChainRejection<'r>] {
        &self.rejected
    }

    /// How many chains each reason stopped, most first (ties by code).
    pub fn rejected_counts(&self) -> &[(&'static str, usize)] {
        &self.counts
    }

    /// Why there is no chain (`None` when there is one).
    pub fn no_route(&self) -> Option<&ChainNoRoute> {
        self.no_route.as_ref()
    }

    /// The best chain, or why there is none.
    ///
    /// # Errors
    /// [`ChainNoRoute`] when there is no chain.
    pub fn into_best(self) -> Result<Chain<'r>, ChainNoRoute> {
        match (self.chains.into_iter().next(), self.no_route) {
            (Some(chain), _) => Ok(chain),
            (None, Some(no_route)) => Err(no_route),
            (None, None) => Err(ChainNoRoute::Unavailable {
                from: self.from,
                to: self.to,
                max_legs: 0,
            }),
        }
    }

    /// The ranked chains, or why there are none.
    ///
    /// # Errors
    /// [`ChainNoRoute`] when there is no chain.
    pub fn into_top(self) -> Result<Vec<Chain<'r>>, ChainNoRoute> {
        match self.no_route {
            Some(no_route) => Err(no_route),
            None => Ok(self.chains),
        }
    }
}

impl Serialize for ChainSelection<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let (from_amount, to_amount) = match self.mode {
            SwapMode::ExactIn => (Some(Plain(self.amount.get())), None),
            SwapMode::ExactOut => (None, Some(Plain(self.amount.get()))),
        };
        let mut out = serializer.serialize_struct("ChainSelection", 8)?;
        out.serialize_field("mode", &self.mode)?;
        out.serialize_field("from", &self.from)?;
        out.serialize_field("to", &self.to)?;
        out.serialize_field("fromAmount", &from_amount)?;
        out.serialize_field("toAmount", &to_amount)?;
        out.serialize_field("chains", &RankedChains(&self.chains))?;
        out.serialize_field("rejected", &self.rejected)?;
        out.serialize_field("rejectedCounts", &Counts(&self.counts))?;
        out.end()
    }
}

/// Chains with their ranks, as a JSON array.
struct RankedChains<'a, 'r>(&'a [Chain<'r>]);

impl Serialize for RankedChains<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut out = serializer.serialize_seq(Some(self.0.len()))?;
        for (i, chain) in self.0.iter().enumerate() {
            out.serialize_element(&chain.ranked(i.saturating_add(1)))?;
        }
        out.end()
    }
}

/// Reason counts as a JSON object.
struct Counts<'a>(&'a [(&'static str, usize)]);

impl Serialize for Counts<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut out = serializer.serialize_map(Some(self.0.len()))?;
        for (code, count) in self.0 {
            out.serialize_entry(code, count)?;
        }
        out.end()
    }
}

/// What a full enumeration gathers.
struct Gathered<'r> {
    mode: SwapMode,
    k: usize,
    chains: Vec<Chain<'r>>,
    rejected: Vec<ChainRejection<'r>>,
    counts: Vec<(&'static str, usize)>,
    total: usize,
    paths: usize,
    /// Every rejection so far was on a path's first leg.
    first_leg_only: bool,
    first_leg: Tally,
    /// ExactOut: the smallest first-leg required input checked.
    smallest_input: Option<Decimal>,
}

impl<'r> Gathered<'r> {
    fn accept(&mut self, chain: Chain<'r>) {
        self.total = self.total.saturating_add(1);
        let mode = self.mode;
        let new_rates = chain.rates();
        let new = (
            chain.score(),
            new_rates.get(..chain.legs().len()).unwrap_or_default(),
        );
        let at = self.chains.partition_point(|held| {
            let held_rates = held.rates();
            let held = (
                held.score(),
                held_rates.get(..held.legs().len()).unwrap_or_default(),
            );
            chain_order(mode, held, new) != Ordering::Greater
        });
        if at < self.k {
            self.chains.insert(at, chain);
            self.chains.truncate(self.k);
        }
    }

    fn reject(
        &mut self,
        pairs: &[&MarketPair<'r>],
        at: usize,
        rate: &'r Rate,
        reason: RejectReason,
    ) {
        match self
            .counts
            .iter_mut()
            .find(|(code, _)| *code == reason.code())
        {
            Some((_, count)) => *count = count.saturating_add(1),
            None => self.counts.push((reason.code(), 1)),
        }
        if at == 0 {
            self.first_leg.rejected(&reason);
            if let RejectReason::RequiredInputBelowMin { required, .. }
            | RejectReason::RequiredInputAboveMax { required, .. } = reason
            {
                self.smallest_input = Some(
                    self.smallest_input
                        .map_or(required, |held| held.min(required)),
                );
            }
        } else {
            self.first_leg_only = false;
        }
        let Some(&first) = pairs.first() else {
            return;
        };
        let mut ids = [first.id; MAX_LEGS];
        for (slot, pair) in ids.iter_mut().zip(pairs) {
            *slot = pair.id;
        }
        let rejection = ChainRejection {
            pairs: ids,
            len: pairs.len(),
            leg: at.saturating_add(1),
            rate,
            reason,
        };
        // The same rate failing the same way after other prefixes is listed
        // once (and counted every time).
        if self.rejected.contains(&rejection) {
            return;
        }
        let mode = self.mode;
        let place = self
            .rejected
            .partition_point(|held| rejection_order(mode, held, &rejection) != Ordering::Greater);
        if place < self.k {
            self.rejected.insert(place, rejection);
            self.rejected.truncate(self.k);
        }
    }
}

impl ChainRequest {
    /// Every chain from `from` to `to` in `market`: the best `k` ranked, the
    /// best `k` rejections (the first failing leg and its reason), and how
    /// many chains each reason stopped. Tries every combination of rates:
    /// `O(paths × n^legs)` checks, for inspection rather than serving.
    pub fn select<'r>(&self, market: &Market<'r>, k: usize) -> ChainSelection<'r> {
        let mut gathered = Gathered {
            mode: self.mode,
            k,
            chains: Vec::new(),
            rejected: Vec::new(),
            counts: Vec::new(),
            total: 0,
            paths: 0,
            first_leg_only: true,
            first_leg: Tally::default(),
            smallest_input: None,
        };
        each_path(market, &self.from, &self.to, self.max_legs, |path| {
            gathered.paths = gathered.paths.saturating_add(1);
            let Some(pairs) = path.pairs(market) else {
                return;
            };
            let pairs = pairs.as_slice();
            let mut legs: [Option<Leg<'r>>; MAX_LEGS] = [None; MAX_LEGS];
            match self.mode {
                SwapMode::ExactIn => {
                    self.all_forward(market, pairs, 0, self.amount, &mut legs, &mut gathered);
                }
                SwapMode::ExactOut => {
                    let last = pairs.len().saturating_sub(1);
                    self.all_backward(pairs, last, self.amount.get(), &mut legs, &mut gathered);
                }
            }
        });
        gathered
            .counts
            .sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        let no_route = if gathered.total > 0 {
            None
        } else {
            Some(self.no_route_of(&gathered))
        };
        ChainSelection {
            mode: self.mode,
            from: self.from.clone(),
            to: self.to.clone(),
            amount: self.amount,
            chains: gathered.chains,
            rejected: gathered.rejected,
            counts: gathered.counts,
            total: gathered.total,
            no_route,
        }
    }

    /// Why there is no chain, after trying them all.
    pub(crate) fn classify(&self, market: &Market<'_>) -> ChainNoRoute {
        self.select(market, 0)
            .no_route
            .unwrap_or_else(|| self.unavailable())
    }

    fn unavailable(&self) -> ChainNoRoute {
        ChainNoRoute::Unavailable {
            from: self.from.clone(),
            to: self.to.clone(),
            max_legs: self.max_legs,
        }
    }

    fn no_route_of(&self, gathered: &Gathered<'_>) -> ChainNoRoute {
        if gathered.paths == 0 {
            return self.unavailable();
        }
        if gathered.first_leg_only {
            let (amount, asset) = match self.mode {
                SwapMode::ExactIn => (self.amount.get(), &self.from),
                SwapMode::ExactOut => match gathered.smallest_input {
                    Some(input) => (input, &self.from),
                    None => (self.amount.get(), &self.to),
                },
            };
            return ChainNoRoute::FirstLeg(gathered.first_leg.classify(
                amount,
                Some(asset),
                self.mode,
            ));
        }
        ChainNoRoute::Rejected {
            counts: gathered.counts.clone(),
        }
    }

    /// ExactIn: every rate of leg `at` at `input`, and on from there.
    fn all_forward<'r>(
        &self,
        market: &Market<'r>,
        pairs: &[&MarketPair<'r>],
        at: usize,
        input: Amount,
        legs: &mut [Option<Leg<'r>>; MAX_LEGS],
        gathered: &mut Gathered<'r>,
    ) {
        let Some(pair) = pairs.get(at) else {
            return;
        };
        let last = at.saturating_add(1) == pairs.len();
        let request = RouteRequest::exact_in(input, self.now).with_campaigns(market.campaigns());
        for rate in pair.rates {
            let output = match forward(rate, &request, None) {
                Ok(output) => output,
                Err(reason) => {
                    gathered.reject(pairs, at, rate, reason);
                    continue;
                }
            };
            if let Some(slot) = legs.get_mut(at) {
                *slot = Some(Leg {
                    rate,
                    input: input.get(),
                    output,
                });
            }
            if last {
                if let Some(chain) = chain_of(self.mode, legs, pairs.len()) {
                    gathered.accept(chain);
                }
                continue;
            }
            match next_input(output) {
                Ok(next) => {
                    self.all_forward(market, pairs, at.saturating_add(1), next, legs, gathered);
                }
                Err(reason) => gathered.reject(pairs, at, rate, reason),
            }
        }
    }

    /// ExactOut: every rate of leg `at` delivering `target`, and back from there.
    fn all_backward<'r>(
        &self,
        pairs: &[&MarketPair<'r>],
        at: usize,
        target: Decimal,
        legs: &mut [Option<Leg<'r>>; MAX_LEGS],
        gathered: &mut Gathered<'r>,
    ) {
        let Some(pair) = pairs.get(at) else {
            return;
        };
        for rate in pair.rates {
            let required = match backward(rate, target, self.now) {
                Ok(required) => required,
                Err(reason) => {
                    gathered.reject(pairs, at, rate, reason);
                    continue;
                }
            };
            let Some(output) = yields(rate, required) else {
                gathered.reject(pairs, at, rate, RejectReason::Overflow);
                continue;
            };
            if let Some(slot) = legs.get_mut(at) {
                *slot = Some(Leg {
                    rate,
                    input: required.get(),
                    output,
                });
            }
            if at == 0 {
                if let Some(chain) = chain_of(self.mode, legs, pairs.len()) {
                    gathered.accept(chain);
                }
            } else {
                self.all_backward(pairs, at.saturating_sub(1), required.get(), legs, gathered);
            }
        }
    }
}

/// The chain of the first `len` legs.
fn chain_of<'r>(
    mode: SwapMode,
    legs: &[Option<Leg<'r>>; MAX_LEGS],
    len: usize,
) -> Option<Chain<'r>> {
    let mut built = [legs[0]?; MAX_LEGS];
    for (slot, leg) in built.iter_mut().zip(legs.iter().take(len)) {
        *slot = (*leg)?;
    }
    Chain::new(mode, built.get(..len)?)
}
