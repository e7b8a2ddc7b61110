//! Every chain tried: the best `k` ranked, the best `k` rejections with the
//! leg that failed and why, and counts of every reason.

use alloc::vec::Vec;
use core::cmp::Ordering;

use rust_decimal::Decimal;
use serde::ser::{SerializeMap, SerializeSeq, SerializeStruct};
use serde::{Serialize, Serializer};

use super::leg::{backward, exact_next, forward, yields};
use super::market::{Market, MarketPair};
use super::paths::each_path;
use super::ranked::{Chain, ChainRejection, Leg};
use super::reach::Reach;
use super::request::{ChainRequest, MAX_LEGS};
use super::ChainNoRoute;
use crate::decimal::{Amount, Plain};
use crate::ids::AssetId;
use crate::rate::{PairId, Rate};
use crate::route::rules::order::{chain_order, tie_order};
use crate::route::RejectReason;
use crate::swap_mode::SwapMode;

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
    total: Option<usize>,
    no_route: Option<ChainNoRoute>,
}

impl<'r> ChainSelection<'r> {
    /// The best chains, best first (at most the `k` asked for).
    pub fn chains(&self) -> &[Chain<'r>] {
        &self.chains
    }

    /// How many chains there are in all (ranked or not kept): known only to
    /// [`select_all`](ChainRequest::select_all), which tries every
    /// combination; `None` from the bounded [`select`](ChainRequest::select).
    pub fn chain_count(&self) -> Option<usize> {
        self.total
    }

    /// The best rejections, "best" first: the ones that got furthest, then
    /// shorter paths, pair ids, the failing leg and the rate's tie-breaks
    /// (at most the `k` asked for). From [`select`](ChainRequest::select):
    /// the rates no reachable amount passes (ruling 36), each once; from
    /// [`select_all`](ChainRequest::select_all): every rate that failed
    /// after some earlier legs, listed once however often it failed.
    pub fn rejected(&self) -> &[ChainRejection<'r>] {
        &self.rejected
    }

    /// How many rates each reason refused (each rate counted once, where no
    /// reachable amount passes it; ruling 36), most first (ties by code).
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
    total: usize,
}

impl<'r> Gathered<'r> {
    fn accept(&mut self, chain: Chain<'r>) {
        self.total = self.total.saturating_add(1);
        let mode = self.mode;
        let new_rates = chain.rates();
        let new = (
            chain.score(),
            chain.last_input(),
            new_rates.get(..chain.legs().len()).unwrap_or_default(),
        );
        let at = self.chains.partition_point(|held| {
            let held_rates = held.rates();
            let held = (
                held.score(),
                held.last_input(),
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
        let mut ids: [Option<&'r PairId>; MAX_LEGS] = [None; MAX_LEGS];
        for (slot, pair) in ids.iter_mut().zip(pairs) {
            *slot = Some(pair.id);
        }
        let ids: Vec<&'r PairId> = ids.iter().flatten().copied().collect();
        let Some(rejection) = ChainRejection::new(&ids, at, rate, reason) else {
            return;
        };
        // The same rate failing the same way after other prefixes is listed
        // once.
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

/// The most leg checks [`ChainRequest::select_all`] makes: past it, it
/// refuses ([`TooManyCombinations`]) before trying any.
pub const MAX_ENUMERATION: u64 = 1 << 22;

/// Trying every combination of rates would take more than
/// [`MAX_ENUMERATION`] leg checks (ruling 36 in docs/RULES.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("listing every chain takes {checks} leg checks, more than the cap of {cap}")]
pub struct TooManyCombinations {
    /// The leg checks the enumeration would make (saturating).
    pub checks: u64,
    /// The cap, [`MAX_ENUMERATION`].
    pub cap: u64,
}

impl ChainRequest {
    /// The bounded report of a request: the best `k` chains (as
    /// [`top`](Self::top)), the best `k` rejections and counts by reason
    /// of the rates no reachable amount passes (each rate once, leg by leg,
    /// without enumerating combinations; ruling 36), and why there is no
    /// chain when there is none. `k` is capped at what exists and at
    /// [`MAX_TOP`](super::MAX_TOP) before anything is allocated.
    ///
    /// Work: the search's, plus `O(p × n log n)` checks for `p` paths of
    /// `n` rates a pair (see [`ChainNoRoute`] for the rare worse case).
    pub fn select<'r>(&self, market: &Market<'r>, k: usize) -> ChainSelection<'r> {
        if let Some(resolved) = self.resolved(market) {
            return resolved.select(market, k);
        }
        let chains = self.top(market, k).unwrap_or_default();
        let reach = self.reach(market);
        let counts = reach.counts();
        let no_route = chains.is_empty().then(|| self.no_route_of(&reach));
        let mut rejected = reach.refused;
        let mode = self.mode;
        rejected.sort_by(|a, b| rejection_order(mode, a, b));
        rejected.truncate(k.min(super::MAX_TOP));
        ChainSelection {
            mode: self.mode,
            from: self.from.clone(),
            to: self.to.clone(),
            amount: self.amount,
            chains,
            rejected,
            counts,
            total: None,
            no_route,
        }
    }

    /// The leg checks trying every combination takes (saturating): for each
    /// path, each leg's rates times every combination before it.
    pub fn enumeration_size(&self, market: &Market<'_>) -> u64 {
        let mut checks = 0u64;
        each_path(market, &self.from, &self.to, self.max_legs, |path| {
            let mut before = 1u64;
            for &at in path.indices() {
                let n = market.pair(at).map_or(0, |pair| {
                    u64::try_from(pair.rates.len()).unwrap_or(u64::MAX)
                });
                before = before.saturating_mul(n);
                checks = checks.saturating_add(before);
            }
        });
        checks
    }

    /// Every chain from `from` to `to` in `market`: the best `k` ranked, the
    /// best `k` rejections (the first failing leg and its reason), how many
    /// chains there are, and the reason counts of [`select`](Self::select)
    /// (each rate once). Tries every combination of rates, for inspection
    /// rather than serving.
    ///
    /// # Errors
    /// [`TooManyCombinations`] when that takes more than
    /// [`MAX_ENUMERATION`] leg checks ([`enumeration_size`](Self::enumeration_size)),
    /// decided before any is made.
    pub fn select_all<'r>(
        &self,
        market: &Market<'r>,
        k: usize,
    ) -> Result<ChainSelection<'r>, TooManyCombinations> {
        if let Some(resolved) = self.resolved(market) {
            return resolved.select_all(market, k);
        }
        let checks = self.enumeration_size(market);
        if checks > MAX_ENUMERATION {
            return Err(TooManyCombinations {
                checks,
                cap: MAX_ENUMERATION,
            });
        }
        let k = k.min(usize::try_from(checks).unwrap_or(usize::MAX));
        let mut gathered = Gathered {
            mode: self.mode,
            k,
            chains: Vec::new(),
            rejected: Vec::new(),
            total: 0,
        };
        each_path(market, &self.from, &self.to, self.max_legs, |path| {
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
        let reach = self.reach_by_enumeration(market);
        let no_route = (gathered.total == 0).then(|| self.no_route_of(&reach));
        Ok(ChainSelection {
            mode: self.mode,
            from: self.from.clone(),
            to: self.to.clone(),
            amount: self.amount,
            chains: gathered.chains,
            rejected: gathered.rejected,
            counts: reach.counts(),
            total: Some(gathered.total),
            no_route,
        })
    }

    /// Why there is no chain, decided leg by leg (bounded; ruling 36).
    pub(crate) fn classify(&self, market: &Market<'_>) -> ChainNoRoute {
        self.quick_no_route(market)
            .unwrap_or_else(|| self.no_route_of(&self.reach(market)))
    }

    fn unavailable(&self) -> ChainNoRoute {
        ChainNoRoute::Unavailable {
            from: self.from.clone(),
            to: self.to.clone(),
            max_legs: self.max_legs,
        }
    }

    /// Why there is no chain, from what the legs' analysis found.
    pub(crate) fn no_route_of(&self, reach: &Reach<'_>) -> ChainNoRoute {
        if reach.paths == 0 {
            return self.unavailable();
        }
        if !reach.step_one.passed && reach.step_one.overflow && !reach.step_one.limits {
            return ChainNoRoute::TooLarge {
                field: match self.mode {
                    SwapMode::ExactIn => "fromAmount",
                    SwapMode::ExactOut => "toAmount",
                },
                amount: self.amount.get(),
            };
        }
        if reach.first_leg_only {
            let (amount, asset) = match self.mode {
                SwapMode::ExactIn => (self.amount.get(), &self.from),
                SwapMode::ExactOut => match reach.smallest_input {
                    Some(input) => (input, &self.from),
                    None => (self.amount.get(), &self.to),
                },
            };
            return ChainNoRoute::FirstLeg(reach.first_leg.classify(
                amount,
                Some(asset),
                self.mode,
            ));
        }
        ChainNoRoute::Rejected {
            counts: reach.counts(),
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
        let request = self.leg_request(input, market.campaigns(), pair.rates, last);
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
            match exact_next(rate, input.get()) {
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
        let final_leg = at.saturating_add(1) == pairs.len();
        let floors = self.leg_floors(final_leg);
        for rate in pair.rates {
            let guard = self.leg_guard(rate, final_leg);
            let required = match backward(rate, target, self.now, &floors, guard) {
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
