//! Exact splits (ruling 39 in docs/RULES.md): an ExactIn `fromAmount` served
//! by 2 or 3 orders on distinct rates of one pair.
//!
//! # The optimum for a fixed set of rates
//! Each rate serves one interval `[lo, hi]` of amounts on the legs' grid
//! (8 places, or `min(8, decimals)` of the from asset when given: ruling
//! 48), read from the one model of a rate over amounts
//! (`rules/served.rs`, the engine's own eligibility check with the whole
//! policy; see [`Feasible`](super::Feasible)).
//! A leg's net output is `x × m − fee`, linear in its amount `x` with a fixed
//! fee, so for a set of rates the total is `Σ m·x − Σ fee` under `Σ x = A`:
//! every leg starts at its `lo`, and the remainder `A − Σ lo` is poured in
//! descending multiplier order (ties: ruling 7's order) up to each `hi`. That
//! is optimal (an exchange argument: moving a unit from a lower multiplier to
//! a higher one never loses), exact on the grid (the ends and `A` are grid
//! points, so every leg is), and sums to `A` exactly. A leg stops at its max (`hi`) or where
//! the remainder ran out.
//!
//! # The search over sets, and why it stays fast
//! The value of a set `S` is bounded, for any `λ`, by weak duality:
//! `Σ (m_i x_i − f_i) = λA + Σ ((m_i − λ) x_i − f_i) ≤ λA + Σ g_i(λ)`, with
//! `g_i(λ) = max over x in [lo_i, hi_i] of (m_i − λ) x − f_i`, which is one
//! number per rate. The search
//!
//! 1. reads every rate once (`O(n)`, integers where the rate's prepared
//!    form allows): admitted, not refused by the price guard, its limits
//!    on the legs' grid (`lo` from the min up, `hi` from the effective max
//!    down, capped a step below `A`);
//! 2. finds the exact best pair by each pair's *marginal* leg (the one the
//!    pour leaves strictly inside its interval), with one upper envelope
//!    of lines per rate: `O(n log n)`, and bounds every triple the same
//!    way; when no triple's bound reaches the best, the walk below is not
//!    needed (`marginal.rs`). Ramp books (multipliers and fees rising
//!    together) are answered here. Otherwise the walk runs for the triples
//!    (and, when this step cannot decide, for the pairs):
//!
//! 2'. finds a first split among the 4 rates of highest `m·hi − fee` (at
//!    most 6 pairs and 4 triples), and takes `λ` as the multiplier of its
//!    last leg that took more than its `lo`;
//! 3. scores every rate by `g_i(λ)` (rounded up at the bounds' scale: 18
//!    places, or the numbers' own up to 28 when the products fit an `i128`;
//!    a bound, never below the exact one), sorts by score, then ruling 7's
//!    order (`O(n log n)`), and walks pairs and triples in that order,
//!    stopping a loop as soon as the bound of its best remaining set is
//!    below the best split found (for triples, the two first rates' scores
//!    are capped by what they can add when together they hold at most
//!    `A − 1`: a capacity-aware pair bound, computed once per pair), or is
//!    exactly the best's and its rates come no earlier in ruling 39's tie
//!    order (it can at most tie, and every set left in the loop comes later
//!    still). A rate (or a pair) that the rates after it cannot complete to
//!    hold `A` (the largest `hi` and smallest `lo` of the rest, kept from
//!    the end in one pass) is passed over; a set whose limits cannot hold
//!    `A` (`Σ hi < A` or `Σ lo > A`) or that repeats a campaign is skipped
//!    without evaluating it.
//!
//! Only sets whose bound reaches the best so far are evaluated exactly
//! (each rate's exact interval computed once, lazily; each leg checked by
//! the engine at its amount). The bound is tight at the optimum when `λ` is
//! its marginal multiplier, so on real books few sets pass it
//! ([`SplitWork`] counts them; docs/PERFORMANCE.md has the numbers).
//!
//! Bounded work (rulings 36 and 48): steps 1-3 cost `O(n log n)` plus at
//! most [`split_work_limit`]`(n) = 64 n + 2^18` units (a rate swept in step
//! 2, a set bounded, a pair of the triples' loop, or a pair passed over for
//! capacity, is one unit; a set evaluated exactly 16 more); when step 2
//! runs out, steps 2'-3 get the allowance once more.
//! Books of ties (copies; one multiplier and fee, nested or staggered
//! limits) are decided by the tie order in the walk; books no set can hold
//! are passed over by capacity. The allowance can still run out when many
//! sets' bounds lie within rounding of the best: multipliers that differ
//! only past the places the bounds can hold. Then
//!
//! 4. a dominance pass keeps only the rates that can be in the best set
//!    (see `Search::undominated`: a rate is dropped when `legs` others, or
//!    one of its own campaign, serve every amount it serves with a
//!    multiplier at least its own, a fee at most its own, and are strictly
//!    better or first in ruling 7's order; putting one of them in its place
//!    never loses under ruling 39), one unit per rate and per comparison
//!    of a fresh allowance (`O(n)` when the dominators come first, as in
//!    a book of copies), and steps 2'-3 run again on what is left, with the
//!    rest of that allowance. A book of copies keeps 3 rates ([`SplitWork::reduced`]).
//!
//! Past the last allowance the answer is [`SplitError::TooMuchWork`]
//! (`SEARCH_EXHAUSTED`, 503: the book is hard, not the request), never a
//! wrong split; the whole search is `O(n log n) + 3 × split_work_limit(n)`
//! units. It remains reachable only by thousands of rates that
//! no `legs` others dominate (e.g. staggered limits, each serving a little
//! more than the previous from a little higher min) whose multipliers differ
//! only past the bounds' scale (the 26th-28th place for amounts of a few
//! units); docs/PERFORMANCE.md has the numbers.
//! Allocation: a few vectors of at most `n` entries, and the legs of each
//! improvement.

use alloc::string::ToString;
use alloc::vec::Vec;
use core::fmt;

use rust_decimal::Decimal;
use serde::ser::SerializeStruct;
use serde::{Serialize, Serializer};

use super::rules::eligibility::{admit, check};
use super::rules::served::resolve_guard;
use super::{NoRoute, Route, RouteRequest};
use crate::decimal::Amount;
use crate::numeric::Wide;
use crate::rate::{MixedPairs, Rate, RateList};
use crate::swap_mode::SwapMode;

mod marginal;
mod model;
mod search;

use model::{bound_units, bounds_scale, grid, grid_units, Candidate, Found, Known, VALUE_SCALE};
pub use model::{SplitLeg, SplitStop, SplitWork};
use search::Search;

/// The split search's work limit for `n` rates, in units (a set bounded is
/// one, a set evaluated exactly 16 more): `64 n + 2^18`.
/// Past it, [`RouteRequest::split`] answers [`SplitError::TooMuchWork`].
pub const fn split_work_limit(n: usize) -> u64 {
    (n as u64).saturating_mul(64).saturating_add(1 << 18)
}

/// How many orders a split may use: 2 or 3 (ruling 39).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SplitLegs(u8);

impl SplitLegs {
    /// Two orders at most.
    pub const TWO: SplitLegs = SplitLegs(2);
    /// Three orders at most (the default).
    pub const THREE: SplitLegs = SplitLegs(3);

    /// The number.
    pub const fn get(self) -> u8 {
        self.0
    }
}

impl Default for SplitLegs {
    fn default() -> Self {
        SplitLegs::THREE
    }
}

/// A number of legs other than 2 or 3.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InvalidSplitLegs(pub u64);

impl fmt::Display for InvalidSplitLegs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a split has 2 or 3 legs, not {}", self.0)
    }
}

#[cfg(feature = "std")]
impl std::error::Error for InvalidSplitLegs {}

impl TryFrom<u64> for SplitLegs {
    type Error = InvalidSplitLegs;

    fn try_from(value: u64) -> Result<Self, Self::Error> {
        match value {
            2 => Ok(SplitLegs::TWO),
            3 => Ok(SplitLegs::THREE),
            other => Err(InvalidSplitLegs(other)),
        }
    }
}

impl core::str::FromStr for SplitLegs {
    type Err = InvalidSplitLegs;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        match text {
            "2" => Ok(SplitLegs::TWO),
            "3" => Ok(SplitLegs::THREE),
            _ => Err(InvalidSplitLegs(text.parse().unwrap_or(u64::MAX))),
        }
    }
}

/// When and how to split (ruling 39).
///
/// The default: up to 3 legs, no per-order cost, and a split only when no
/// single route serves the amount.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SplitPolicy {
    legs: SplitLegs,
    per_order_cost: Amount,
    min_gain_bps: Option<u32>,
    decimals: Option<u8>,
    first_work: Option<u64>,
}

impl SplitPolicy {
    /// Up to 3 legs, cost 0, split only when no single route serves.
    pub const DEFAULT: SplitPolicy = SplitPolicy {
        legs: SplitLegs::THREE,
        per_order_cost: Amount::ZERO,
        min_gain_bps: None,
        decimals: None,
        first_work: None,
    };

    /// At most `legs` orders.
    #[must_use]
    pub fn with_legs(mut self, legs: SplitLegs) -> Self {
        self.legs = legs;
        self
    }

    /// What each order after the first costs the caller, in the to asset:
    /// subtracted from a split's value when splits are compared.
    #[must_use]
    pub fn with_per_order_cost(mut self, cost: Amount) -> Self {
        self.per_order_cost = cost;
        self
    }

    /// Also split when a single route serves the amount, if the split's
    /// value beats it by at least `bps` basis points (`0`: any strict gain).
    #[must_use]
    pub fn with_min_gain_bps(mut self, bps: u32) -> Self {
        self.min_gain_bps = Some(bps);
        self
    }

    /// With the from asset's decimals (ruling 48): every leg's amount lies
    /// on that asset's grid, `min(8, from)` places (a 0-decimal asset's
    /// legs are whole numbers), and the split is the exact optimum on that
    /// grid. A `fromAmount` off the grid is refused
    /// ([`SplitError::OffGrid`]): no order can carry it.
    #[must_use]
    pub fn with_decimals(mut self, from: u8) -> Self {
        self.decimals = Some(from);
        self
    }

    /// The from asset's decimals, when given.
    pub fn decimals(&self) -> Option<u8> {
        self.decimals
    }

    /// The places of the legs' amounts: `min(8, decimals)`, or 8.
    fn places(&self) -> u32 {
        self.decimals.map_or(8, |d| u32::from(d).min(8))
    }

    /// The grid's step in 8-place units: `10^(8 − places)`.
    fn step(&self) -> i128 {
        crate::numeric::pow10(8u32.saturating_sub(self.places()))
            .and_then(|s| i128::try_from(s).ok())
            .unwrap_or(1)
    }

    /// For tests: the allowance of the first walk (steps 2-3), in units,
    /// instead of [`split_work_limit`]; `0` sends every search through the
    /// dominance pass (step 4), whose walk keeps the full allowance. The
    /// answer does not depend on it (only the work does).
    #[doc(hidden)]
    #[must_use]
    pub fn with_first_work_limit(mut self, units: u64) -> Self {
        self.first_work = Some(units);
        self
    }

    /// The most legs.
    pub fn legs(&self) -> SplitLegs {
        self.legs
    }

    /// The cost of each order after the first.
    pub fn per_order_cost(&self) -> Amount {
        self.per_order_cost
    }

    /// The smallest gain asked of a split over a single route, `None` when
    /// splits are only for amounts no single route serves.
    pub fn min_gain_bps(&self) -> Option<u32> {
        self.min_gain_bps
    }
}

/// The best split: its legs in pour order (descending multiplier, then
/// ruling 7), their total, and its gain over the best single route.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Split<'r> {
    legs: Vec<SplitLeg<'r>>,
    net_output: Decimal,
    value: Decimal,
    gain_bps: Option<Decimal>,
    work: SplitWork,
}

impl<'r> Split<'r> {
    /// The legs, in pour order.
    pub fn legs(&self) -> &[SplitLeg<'r>] {
        &self.legs
    }

    /// The sum of the legs' net outputs (what the orders deliver).
    pub fn net_output(&self) -> Decimal {
        self.net_output
    }

    /// The value maximized: the net output minus the per-order cost of each
    /// order after the first.
    pub fn value(&self) -> Decimal {
        self.value
    }

    /// The gain of [`value`](Self::value) over the best single route's net
    /// output, in basis points rounded toward zero to 2 places; `None` when
    /// no single route serves the amount.
    pub fn gain_bps(&self) -> Option<Decimal> {
        self.gain_bps
    }

    /// What the search did.
    pub fn work(&self) -> SplitWork {
        self.work
    }
}

impl Serialize for Split<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut out = serializer.serialize_struct("Split", 3)?;
        out.serialize_field("legs", &self.legs)?;
        out.serialize_field("netOutput", &self.net_output.normalize().to_string())?;
        out.serialize_field("gainBps", &self.gain_bps.map(|g| g.normalize().to_string()))?;
        out.end()
    }
}

/// The answer: the best single route, or the best split.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SplitAnswer<'r> {
    /// One order serves the amount (and no split beats it as asked).
    Single(Route<'r>),
    /// Two or three orders.
    Split(Split<'r>),
}

impl<'r> SplitAnswer<'r> {
    /// The split, when one is returned.
    pub fn split(&self) -> Option<&Split<'r>> {
        match self {
            SplitAnswer::Split(split) => Some(split),
            SplitAnswer::Single(_) => None,
        }
    }
}

/// Why no answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SplitError {
    /// Neither a single route nor a split serves the amount: the single
    /// pair's "no route" (ruling 10, with ruling 38's working amounts).
    NoRoute(NoRoute),
    /// Splits are defined for ExactIn only.
    ExactOut,
    /// The from asset's decimals were given and `fromAmount` has more
    /// places than its grid (ruling 48): no order can carry it.
    OffGrid {
        /// The amount asked.
        amount: Decimal,
        /// The grid's places (`min(8, decimals)`).
        places: u32,
    },
    /// The search would take more than its work limit (ruling 36): `limit`
    /// units for these rates (see [`split_work_limit`]), twice (before and
    /// after the dominance pass). Books of copies, of one multiplier and
    /// fee (nested or staggered limits) and of multipliers differing past
    /// the 18th place are answered; only thousands of rates that none
    /// dominates, whose multipliers differ past the places the bounds can
    /// hold (the 26th for amounts of a few units), can still reach it.
    TooMuchWork {
        /// The limit that was reached.
        limit: u64,
    },
}

impl SplitError {
    /// The stable code: the "no route" code, `UNSUPPORTED_SWAP_MODE`,
    /// `INVALID_AMOUNT` off the asset's grid, or `SEARCH_EXHAUSTED` (503)
    /// past the work limit.
    pub fn code(&self) -> crate::ErrorCode {
        match self {
            SplitError::NoRoute(no_route) => no_route.code(),
            SplitError::ExactOut => crate::ErrorCode::UnsupportedSwapMode,
            SplitError::OffGrid { .. } => crate::ErrorCode::InvalidAmount,
            // The providers' book is hard, not the request (ruling 48).
            SplitError::TooMuchWork { .. } => crate::ErrorCode::SearchExhausted,
        }
    }

    /// As the API answers it: the "no route" error with its limits, or the
    /// code above with this error's text.
    pub fn to_api_error(&self) -> crate::ApiError {
        match self {
            SplitError::NoRoute(no_route) => no_route.to_api_error(),
            other => crate::ApiError::new(other.code(), alloc::format!("{other}")),
        }
    }
}

impl fmt::Display for SplitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SplitError::NoRoute(no_route) => fmt::Display::fmt(no_route, f),
            SplitError::ExactOut => f.write_str("splits are defined for ExactIn only"),
            SplitError::OffGrid { amount, places } => write!(
                f,
                "fromAmount {amount} is not on the from asset's grid of {places} places: a split's legs are orders (ruling 48)"
            ),
            SplitError::TooMuchWork { limit } => write!(
                f,
                "the split search would take more than {limit} steps for these rates, twice (before and after its dominance pass; ruling 36)"
            ),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for SplitError {}

impl From<MixedPairs> for SplitError {
    fn from(mixed: MixedPairs) -> Self {
        SplitError::NoRoute(NoRoute::MixedPairs(mixed))
    }
}

impl RouteRequest<'_> {
    /// The best single route, or the exact best split of `fromAmount` over
    /// 2 or 3 of the rates (ruling 39).
    ///
    /// A split is looked for when no single route serves the amount, or, when
    /// the policy asks for a gain, always; it is returned when it serves an
    /// amount no single route does, or beats the best single route by the
    /// policy's gain. See the module documentation for the search.
    ///
    /// ```
    /// use swaproute::route::{RouteRequest, SplitAnswer, SplitPolicy};
    /// use swaproute::{Amount, EpochMillis, RatesResponse};
    /// let rates: RatesResponse = serde_json::from_str(r#"[
    ///   {"amount":{"assetId":"ETH","value":30},"expiry":4102444800000,"id":"a",
    ///    "max":{"assetId":"BTC","value":6},"min":{"assetId":"BTC","value":0.1},
    ///    "minerFee":{"assetId":"ETH","value":0.01},"pairId":"BTC_ETH"},
    ///   {"amount":{"assetId":"ETH","value":29},"expiry":4102444800000,"id":"b",
    ///    "max":{"assetId":"BTC","value":5},"min":{"assetId":"BTC","value":0.1},
    ///    "minerFee":{"assetId":"ETH","value":0.02},"pairId":"BTC_ETH"}]"#).unwrap();
    /// let request = RouteRequest::exact_in("10".parse::<Amount>().unwrap(),
    ///     EpochMillis::new(1_785_000_000_000));
    /// let answer = request.split(&rates, &SplitPolicy::DEFAULT).unwrap();
    /// let split = answer.split().unwrap();
    /// // 6 × 30 − 0.01 + 4 × 29 − 0.02 = 295.97
    /// assert_eq!(split.net_output().to_string(), "295.97");
    /// assert_eq!(split.legs()[0].from_amount().to_string(), "6.00000000");
    /// assert_eq!(split.legs()[1].from_amount().to_string(), "4.00000000");
    /// ```
    ///
    /// # Errors
    /// [`SplitError::ExactOut`] for an ExactOut request; [`SplitError::NoRoute`]
    /// with the single pair's "no route" when no split serves the amount
    /// either (and for a hand-built list of more than one pair's rates).
    pub fn split<'r, R: RateList + ?Sized>(
        &self,
        rates: &'r R,
        policy: &SplitPolicy,
    ) -> Result<SplitAnswer<'r>, SplitError> {
        if self.mode() != SwapMode::ExactIn {
            return Err(SplitError::ExactOut);
        }
        let rates = rates.one_pair()?;
        if policy.decimals.is_some() {
            let amount = self.from_amount().get();
            let on_grid = grid_units(amount)
                .and_then(|units| units.checked_rem(policy.step()))
                .is_some_and(|rem| rem == 0);
            if !on_grid {
                return Err(SplitError::OffGrid {
                    amount,
                    places: policy.places(),
                });
            }
        }
        // The guard's median, found once (ruling 42): the single route, every
        // candidate and every leg are judged against one reference.
        if let Some(guard) = self
            .price_guard()
            .and_then(|g| resolve_guard(g, rates, SwapMode::ExactIn, self.now(), self.policy()))
        {
            return self.with_price_guard(&guard).split(rates, policy);
        }
        let single = self.best_in(rates, crate::rate::prepared::Layout::default());
        let single = match (single, policy.min_gain_bps) {
            (Ok(route), None) => return Ok(SplitAnswer::Single(route)),
            (Ok(route), Some(_)) => Some(route),
            (Err(NoRoute::MixedPairs(mixed)), _) => return Err(mixed.into()),
            (Err(no_route), _) => {
                return match self.split_search(rates, policy, None)? {
                    Some((found, work)) => split_finish(self, found, work, None, policy)
                        .map(SplitAnswer::Split)
                        .ok_or(SplitError::NoRoute(no_route)),
                    None => Err(SplitError::NoRoute(no_route)),
                };
            }
        };
        let Some(single) = single else {
            return Err(SplitError::ExactOut);
        };
        let Some((found, work)) = self.split_search(rates, policy, Some(&single))? else {
            return Ok(SplitAnswer::Single(single));
        };
        let cost = Wide::at_scale(policy.per_order_cost.get(), VALUE_SCALE);
        let single_net = Wide::at_scale(single.net_output(), VALUE_SCALE);
        let bps = policy.min_gain_bps.unwrap_or(0);
        // value − single ≥ bps/10000 × single, with value = objective − 2c:
        // (objective − 2c − single) × 10000 ≥ bps × single, exactly.
        let enough = (|| {
            let two_c = cost?.mul_small(2)?;
            let lhs = found.objective.sub(two_c)?.sub(single_net?)?;
            let lhs = lhs.mul_small(10_000)?;
            let rhs = single_net?.mul_small(u64::from(bps))?;
            Some(lhs >= rhs && found.objective > two_c.add(single_net?)?)
        })()
        .unwrap_or(false);
        if !enough {
            return Ok(SplitAnswer::Single(single));
        }
        Ok(split_finish(self, found, work, Some(&single), policy)
            .map_or(SplitAnswer::Single(single), SplitAnswer::Split))
    }
}

/// The public form of an evaluated set.
fn split_finish<'r>(
    request: &RouteRequest<'_>,
    found: Found<'r>,
    work: SplitWork,
    single: Option<&Route<'r>>,
    policy: &SplitPolicy,
) -> Option<Split<'r>> {
    let mut net_output = Decimal::ZERO;
    for leg in &found.legs {
        // Each leg eligible at its own amount, by the engine's own check.
        let at = RouteRequest::exact_in(Amount::new(leg.from_amount).ok()?, request.now())
            .with_policy(request.policy());
        if check(leg.rate, &at).ok()?.net_output != leg.net_output {
            return None;
        }
        net_output = net_output.checked_add(leg.net_output)?;
    }
    let orders = u32::try_from(found.legs.len().checked_sub(1)?).ok()?;
    let value = net_output.checked_sub(
        policy
            .per_order_cost
            .get()
            .checked_mul(Decimal::from(orders))?,
    )?;
    let gain_bps = match single {
        Some(single) if !single.net_output().is_zero() => {
            let gain = value
                .checked_sub(single.net_output())?
                .checked_mul(Decimal::from(10_000))?
                .checked_div(single.net_output())?;
            Some(gain.trunc_with_scale(2).normalize())
        }
        _ => None,
    };
    Some(Split {
        legs: found.legs,
        net_output: net_output.normalize(),
        value: value.normalize(),
        gain_bps,
        work,
    })
}

impl RouteRequest<'_> {
    /// The exact best set of 2..=legs rates, or `None`; `single` is the
    /// incumbent to beat (a 1-leg set) when there is one.
    fn split_search<'r>(
        &self,
        rates: &'r [Rate],
        policy: &SplitPolicy,
        single: Option<&Route<'r>>,
    ) -> Result<Option<(Found<'r>, SplitWork)>, SplitError> {
        let amount = self.from_amount().get();
        let Some(total) = grid_units(amount) else {
            return Ok(None);
        };
        // The legs' grid (ruling 48): every end and the amount are
        // multiples of `step`, so the pour stays on it.
        let step = policy.step();
        if total.checked_rem(step) != Some(0) {
            return Ok(None);
        }
        let legs = usize::from(policy.legs.get());
        let cost = policy.per_order_cost.get();
        // At most one per rate, allocated once.
        let mut candidates: Vec<Candidate<'r>> = Vec::with_capacity(rates.len());
        candidates.extend(
            rates
                .iter()
                .filter_map(|rate| self.split_candidate(rate, total, step)),
        );
        if candidates.len() < 2 {
            return Ok(None);
        }
        let scale = bounds_scale(&candidates, total, cost);
        for c in &mut candidates {
            c.m_up = bound_units(c.rate.multiplier(), scale, true).unwrap_or(-1);
            c.m_down = bound_units(c.rate.multiplier(), scale, false).unwrap_or(-1);
            c.fee_down = bound_units(c.rate.miner_fee(), scale, false).unwrap_or(0);
        }
        let mut search = Search {
            request: self,
            scale,
            total,
            step,
            places: policy.places(),
            cost,
            cost_wide: Wide::at_scale(cost, VALUE_SCALE)
                .ok_or(SplitError::TooMuchWork { limit: 0 })?,
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
            let objective = Wide::at_scale(single.net_output(), VALUE_SCALE)
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
                return Err(SplitError::TooMuchWork {
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

    /// Step 1 for one rate: admitted, its limits on the grid, a leg only
    /// below `total`.
    fn split_candidate<'r>(
        &self,
        rate: &'r Rate,
        total: i128,
        step: i128,
    ) -> Option<Candidate<'r>> {
        admit(rate, self.now(), SwapMode::ExactIn).ok()?;
        // A rate the guard refuses serves no leg (ruling 41).
        if self
            .price_guard()
            .is_some_and(|g| g.outlier(rate).is_some())
        {
            return None;
        }
        let p = rate.prepared();
        let (lo, hi) = if rate.is_sponsored() && !self.campaigns().is_empty() {
            let max = rate.effective_max(self.campaigns());
            if max < rate.min() {
                return None;
            }
            (grid(rate.min(), true)?, grid(max, false)?)
        } else {
            // Limits at 28 places (saturating): to the 8-place grid by one
            // division each.
            const DOWN: u128 = 100_000_000_000_000_000_000; // 10^20
            let lo = p.min28.div_ceil(DOWN);
            let hi = p.max28 / DOWN;
            (
                i128::try_from(lo).unwrap_or(i128::MAX),
                i128::try_from(hi).unwrap_or(i128::MAX),
            )
        };
        // On the grid: `lo` up, `hi` down, a leg at least one step and
        // leaving at least one step to the others.
        let lo = lo
            .checked_add(step.checked_sub(1)?)?
            .checked_div(step)?
            .checked_mul(step)?;
        let lo = lo.max(step);
        let hi = hi.min(total.checked_sub(step)?);
        let hi = hi.checked_div_euclid(step)?.checked_mul(step)?;
        if lo > hi {
            return None;
        }
        Some(Candidate {
            rate,
            lo,
            hi,
            // Set at the search's scale, once it is known (split_search).
            m_up: 0,
            m_down: 0,
            fee_down: 0,
            score: 0,
            known: Known::Unknown,
        })
    }
}
