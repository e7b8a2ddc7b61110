//! Exact splits (ruling 39 in docs/RULES.md): an ExactIn `fromAmount` served
//! by 2 or 3 orders on distinct rates of one pair.
//!
//! # The optimum for a fixed set of rates
//! Each rate serves one interval `[lo, hi]` of 8-place amounts (the engine's
//! own eligibility check, with the floors; see [`Feasible`](super::Feasible)).
//! A leg's net output is `x × m − fee`, linear in its amount `x` with a fixed
//! fee, so for a set of rates the total is `Σ m·x − Σ fee` under `Σ x = A`:
//! every leg starts at its `lo`, and the remainder `A − Σ lo` is poured in
//! descending multiplier order (ties: ruling 7's order) up to each `hi`. That
//! is optimal (an exchange argument: moving a unit from a lower multiplier to
//! a higher one never loses), exact on the 8-place grid (the ends are grid
//! points), and sums to `A` exactly. A leg stops at its max (`hi`) or where
//! the remainder ran out.
//!
//! # The search over sets, and why it stays fast
//! The value of a set `S` is bounded, for any `λ`, by weak duality:
//! `Σ (m_i x_i − f_i) = λA + Σ ((m_i − λ) x_i − f_i) ≤ λA + Σ g_i(λ)`, with
//! `g_i(λ) = max over x in [lo_i, hi_i] of (m_i − λ) x − f_i`, which is one
//! number per rate. The search
//!
//! 1. reads every rate once (`O(n)`, integers where the rate's prepared
//!    form allows): admitted, its limits on the 8-place grid (`lo` from the
//!    min, `hi` from the effective max, capped below `A`);
//! 2. finds a first split among the 4 rates of highest `m·hi − fee` (at
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
//! Bounded work (ruling 36): steps 1-3 cost `O(n log n)` plus at most
//! [`split_work_limit`]`(n) = 64 n + 2^18` units (a set bounded, or a pair
//! passed over for capacity, is one unit; a set evaluated exactly 16 more).
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
//!    never loses under ruling 39), at most `n(n − 1)/2` comparisons of a
//!    few numbers (`O(n)` when the dominators come first, as in a book of
//!    copies), and steps 2-3 run again on what is left, with a fresh
//!    allowance. A book of copies keeps 3 rates ([`SplitWork::reduced`]).
//!
//! Past the second allowance the answer is [`SplitError::TooMuchWork`],
//! never a wrong split. It remains reachable only by thousands of rates that
//! no `legs` others dominate (e.g. staggered limits, each serving a little
//! more than the previous from a little higher min) whose multipliers differ
//! only past the bounds' scale (the 26th-28th place for amounts of a few
//! units); docs/PERFORMANCE.md has the numbers.
//! Allocation: a few vectors of at most `n` entries, and the legs of each
//! improvement.

use alloc::string::ToString;
use alloc::vec::Vec;
use core::cmp::Ordering;
use core::fmt;

use rust_decimal::Decimal;
use serde::ser::SerializeStruct;
use serde::{Serialize, Serializer};

use super::rules::eligibility::{admit, check};
use super::rules::net_output::net_output;
use super::rules::order::tie_order;
use super::rules::served::{resolve_guard, AmountModel};
use super::{NoRoute, Route, RouteRequest};
use crate::decimal::Amount;
use crate::ids::CampaignId;
use crate::numeric::Wide;
use crate::rate::{MixedPairs, Rate, RateList};
use crate::swap_mode::SwapMode;

mod marginal;

/// Amounts are 8-place: `10^8` units make one.
const UNIT: i128 = 100_000_000;
/// The scale of the bounds when the numbers have no more places (or finer
/// bounds would not fit an `i128`); see [`bounds_scale`].
const BOUND_SCALE: u32 = 18;
/// The finest scale of the bounds: every multiplier and fee is exact at it.
const FINEST_SCALE: u32 = 28;
/// The scale at which every exact value (`x × m − fee`, 8 + 28 places) is an integer.
const VALUE_SCALE: u32 = 36;
/// A bound that cannot be computed: never prunes.
const UNBOUNDED: i128 = i128::MAX / 8;
/// The rates tried for the first split.
const SEED: usize = 4;
/// What an exact evaluation costs against one bounded set.
const EVALUATION_UNITS: u64 = 16;

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

/// Why a leg stops where it does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SplitStop {
    /// At its rate's (effective) max, on the 8-place grid.
    Max,
    /// Where the amount ran out: the remainder, or its lowest usable amount
    /// when nothing was left for it.
    Remainder,
}

impl SplitStop {
    /// `"max"` or `"remainder"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            SplitStop::Max => "max",
            SplitStop::Remainder => "remainder",
        }
    }
}

/// One order of a split.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SplitLeg<'r> {
    rate: &'r Rate,
    from_amount: Decimal,
    net_output: Decimal,
    stop: SplitStop,
}

impl<'r> SplitLeg<'r> {
    /// The leg's rate.
    pub fn rate(&self) -> &'r Rate {
        self.rate
    }

    /// The leg's `fromAmount`, with 8 places.
    pub fn from_amount(&self) -> Decimal {
        self.from_amount
    }

    /// `fromAmount × multiplier − minerFee`, exact.
    pub fn net_output(&self) -> Decimal {
        self.net_output
    }

    /// Why it stops there.
    pub fn stop(&self) -> SplitStop {
        self.stop
    }
}

impl Serialize for SplitLeg<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut out = serializer.serialize_struct("SplitLeg", 4)?;
        out.serialize_field("rateId", self.rate.id().as_str())?;
        out.serialize_field("fromAmount", &self.from_amount.to_string())?;
        out.serialize_field("netOutput", &self.net_output.normalize().to_string())?;
        out.serialize_field("stop", self.stop.as_str())?;
        out.end()
    }
}

/// What the search did: sets whose bound was computed, sets evaluated exactly.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SplitWork {
    /// Candidate sets whose bound (or limits) were looked at.
    pub bounded: u64,
    /// Candidate sets evaluated exactly.
    pub evaluated: u64,
    /// When the Lagrangian walk ran out of work: the rates left by the
    /// dominance pass, walked again (`None`: not needed).
    pub reduced: Option<usize>,
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

/// A rate that may be a leg, with its limits on the grid and its bound.
#[derive(Clone, Copy, Debug)]
struct Candidate<'r> {
    rate: &'r Rate,
    /// `ceil8(min)`, at least one unit: at most the exact lower end.
    lo: i128,
    /// `floor8(effective max)`, below `A`: at least the exact upper end.
    hi: i128,
    /// The multiplier at the bounds' scale, rounded up (`-1`: too large).
    m_up: i128,
    /// The multiplier at the bounds' scale, rounded down (`-1`: too large).
    m_down: i128,
    /// The fee at the bounds' scale, rounded down (`0` when too large:
    /// still a bound).
    fee_down: i128,
    /// The bound `g(λ)` at the bounds' scale, rounded up.
    score: i128,
    /// The exact interval, once computed.
    known: Known,
}

/// A set evaluated: legs in pour order, the objective `Σ net + c·(3 − k)`.
#[derive(Clone, Debug)]
struct Found<'r> {
    legs: Vec<SplitLeg<'r>>,
    objective: Wide,
    /// The multiplier of the last leg that took more than its lower end.
    marginal: Decimal,
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
        let mut candidates: Vec<Candidate<'r>> = rates
            .iter()
            .filter_map(|rate| self.split_candidate(rate, total, step))
            .collect();
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
        let pairs_known = search.pairs_by_marginal(&mut candidates);
        if pairs_known {
            if legs == 3 && !search.triples_cannot_win(&candidates) {
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

/// A rate's exact interval: not yet computed, none, or its ends.
#[derive(Clone, Copy, Debug)]
enum Known {
    Unknown,
    Empty,
    Interval(i128, i128),
}

/// The search's state.
struct Search<'q, 'c, 'r> {
    request: &'q RouteRequest<'c>,
    /// The scale of the bounds ([`bounds_scale`]).
    scale: u32,
    total: i128,
    /// The legs' grid step in 8-place units (ruling 48).
    step: i128,
    /// The legs' places.
    places: u32,
    cost: Decimal,
    cost_wide: Wide,
    best: Option<Found<'r>>,
    /// The best value found, rounded down to the bounds' scale
    /// (`i128::MIN` before any).
    floor: i128,
    work: SplitWork,
    /// Units of work left; the search stops at zero.
    left: u64,
    /// The objective of the set [`consider`](Search::consider) evaluated
    /// last, when it did.
    last: Option<Wide>,
    exhausted: bool,
}

impl<'r> Search<'_, '_, 'r> {
    /// Steps 2 and 3 over `candidates` (stops when the work runs out).
    /// With `pairs_known`, the best pair is already found (step 2): only
    /// the triples are walked.
    fn run(&mut self, candidates: &mut [Candidate<'r>], legs: usize, pairs_known: bool) {
        // Step 2: a first split among the rates of highest m·hi − fee (one
        // pass keeping the best few).
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
        if self.exhausted {
            return;
        }
        // Step 3: every set, by the bound at the marginal multiplier.
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
    fn undominated(
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
    fn walk(&mut self, candidates: &mut [Candidate<'r>], seed: &[usize], legs: usize) {
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
    fn prune(
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
    fn need_for(&self, legs: usize, lambda: i128) -> i128 {
        let need = self.need(lambda);
        if legs > self.best_legs() {
            need.saturating_add(1)
        } else {
            need
        }
    }

    /// Step 3's pairs.
    fn prune_pairs(&mut self, candidates: &mut [Candidate<'r>], walk: &Walk<'_>) {
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
    fn prune_triples(&mut self, candidates: &mut [Candidate<'r>], walk: &Walk<'_>) {
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
    fn tied_after(&self, candidates: &[Candidate<'r>], set: &[Option<usize>]) -> bool {
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
    fn stops(
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
    fn pair_cap(
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
    fn need(&self, lambda: i128) -> i128 {
        (|| {
            let la = ceil_div(lambda.checked_mul(self.total)?, UNIT)?;
            self.value_floor()?.checked_sub(la)
        })()
        .unwrap_or(i128::MIN)
    }

    /// The best value rounded down to the bounds' scale, the value being the
    /// objective minus `2c`.
    fn value_floor(&self) -> Option<i128> {
        let mut obj = self.best.as_ref()?.objective;
        for _ in 0..VALUE_SCALE.checked_sub(self.scale)? {
            obj = obj.div10()?.0;
        }
        let obj = i128::try_from(obj.to_u128()?).ok()?;
        obj.checked_sub(bound_units(self.cost, self.scale, true)?.checked_mul(2)?)
    }

    /// Evaluates one set (indices into `candidates`) and keeps it when it is
    /// the best so far; `true` when it was kept.
    fn consider(&mut self, candidates: &mut [Candidate<'r>], set: &[usize]) -> bool {
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
    fn spend(&mut self, units: u64) -> bool {
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
    fn best_legs(&self) -> usize {
        self.best.as_ref().map_or(3, |b| b.legs.len().max(1))
    }

    /// A candidate's exact interval, computed once.
    fn exact(&self, c: &mut Candidate<'r>) -> Option<(i128, i128)> {
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
    fn quick_interval(&self, c: &Candidate<'r>) -> Option<(i128, i128)> {
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
    fn evaluate(
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
            objective = objective.add(Wide::at_scale(net, VALUE_SCALE)?)?;
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
struct Walk<'o> {
    order: &'o [u32],
    capacity: Capacity,
    lambda: i128,
    cost: i128,
}

impl Walk<'_> {
    /// The candidate's index at walk position `i`.
    fn index(&self, i: usize) -> Option<usize> {
        self.order.get(i).and_then(|&at| usize::try_from(at).ok())
    }

    /// The indices at the walk positions `at`.
    fn at<const K: usize>(&self, at: &[usize; K]) -> [Option<usize>; K] {
        at.map(|i| self.index(i))
    }

    /// The candidate at walk position `i`.
    fn candidate<'r>(&self, candidates: &[Candidate<'r>], i: usize) -> Option<Candidate<'r>> {
        self.index(i).and_then(|at| candidates.get(at)).copied()
    }

    /// The score at walk position `i`; far below any bound past the end.
    fn score(&self, candidates: &[Candidate<'_>], i: usize) -> i128 {
        self.candidate(candidates, i)
            .map_or(i128::MIN / 8, |c| c.score)
    }
}

/// What the rates after each position of the walk can hold: the largest
/// `hi` and the smallest `lo` of one of them, and of two (limits on the
/// grid, campaigns ignored: bounds). A set whose members' limits cannot hold
/// the amount is never the answer, so the walk passes over a rate (or a
/// pair) that no rates after it complete.
struct Capacity {
    /// At position `p`: `[max hi, max hi + hi, min lo, min lo + lo]` over
    /// positions `p..`, distinct rates.
    after: Vec<[i128; 4]>,
}

impl Capacity {
    /// The suffixes of `order` (positions into `candidates`), one pass from
    /// the end.
    fn after(candidates: &[Candidate<'_>], order: &[u32]) -> Self {
        const NONE: [i128; 4] = [i128::MIN / 8, i128::MIN / 8, i128::MAX / 8, i128::MAX / 8];
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
    fn fits(&self, from: usize, more: usize, lo: i128, hi: i128, total: i128) -> bool {
        let Some(&[hi1, hi2, lo1, lo2]) = self.after.get(from) else {
            return false;
        };
        let (add_hi, add_lo) = if more == 1 { (hi1, lo1) } else { (hi2, lo2) };
        hi.saturating_add(add_hi) >= total && lo.saturating_add(add_lo) <= total
    }
}

/// The pour order: descending multiplier, then ruling 7.
fn pour_order(a: &Rate, b: &Rate) -> Ordering {
    b.multiplier()
        .cmp(&a.multiplier())
        .then_with(|| tie_order(a, b))
}

/// Ruling 39's order of two evaluated sets: higher objective, then fewer
/// legs (the incumbent single route counts as one), then the legs' rates
/// listed in ruling 7's order, compared one by one.
fn before(a: &Found<'_>, b: &Found<'_>) -> Ordering {
    let count = |f: &Found<'_>| f.legs.len().max(1);
    b.objective
        .cmp(&a.objective)
        .then_with(|| count(a).cmp(&count(b)))
        .then_with(|| {
            if a.legs.is_empty() || b.legs.is_empty() {
                // The single route wins ties against a split of one... never
                // reached: a split has at least two legs.
                return b.legs.len().cmp(&a.legs.len());
            }
            set_order(a.legs.iter().map(|l| l.rate), b.legs.iter().map(|l| l.rate))
        })
}

/// Ruling 39's last tie-break between two sets of at most 3 rates (of as
/// many legs): each set's rates listed in ruling 7's order, compared one by
/// one.
fn set_order<'a>(a: impl Iterator<Item = &'a Rate>, b: impl Iterator<Item = &'a Rate>) -> Ordering {
    fn in_order<'a>(rates: impl Iterator<Item = &'a Rate>) -> [Option<&'a Rate>; 3] {
        let mut listed: [Option<&'a Rate>; 3] = [None; 3];
        for (slot, rate) in listed.iter_mut().zip(rates) {
            *slot = Some(rate);
        }
        // The rates in ruling 7's order, the empty slots after them.
        listed.sort_by(|x, y| match (x, y) {
            (Some(x), Some(y)) => tie_order(x, y),
            _ => y.is_some().cmp(&x.is_some()),
        });
        listed
    }
    in_order(a)
        .iter()
        .zip(&in_order(b))
        .map(|(x, y)| match (x, y) {
            (Some(x), Some(y)) => tie_order(x, y),
            _ => Ordering::Equal,
        })
        .find(|o| o.is_ne())
        .unwrap_or(Ordering::Equal)
}

/// The most a set can yield over its relaxed limits (`lo` from the min,
/// `hi` from the max: a wider range than the exact one), at the bounds'
/// scale + 8 places, from the multipliers rounded up and the fees and the
/// per-order `cost` rounded down: the pour by those multipliers. `None` on
/// overflow (no pruning).
fn relaxed_value(
    chosen: &[(usize, Option<Candidate<'_>>)],
    total: i128,
    cost: i128,
) -> Option<i128> {
    let mut legs: [(i128, i128, i128, i128); 3] = [(0, 0, 0, 0); 3];
    let mut left = total;
    for (slot, (_, c)) in legs.iter_mut().zip(chosen) {
        let c = c.as_ref()?;
        if c.m_up < 0 {
            return None;
        }
        *slot = (c.m_up, c.lo, c.hi, c.fee_down);
        left = left.checked_sub(c.lo)?;
    }
    let legs = legs.get(..chosen.len())?;
    let mut order = [0usize, 1, 2];
    let order = order.get_mut(..legs.len())?;
    order.sort_by(|&a, &b| match (legs.get(a), legs.get(b)) {
        (Some(x), Some(y)) => y.0.cmp(&x.0),
        _ => Ordering::Equal,
    });
    // At the bounds' scale + 8 places: no division on this path.
    let mut value: i128 = 0;
    for &at in order.iter() {
        let &(m, lo, hi, fee) = legs.get(at)?;
        let take = hi.checked_sub(lo)?.max(0).min(left);
        left = left.checked_sub(take)?;
        let x = lo.checked_add(take)?;
        value = value
            .checked_add(m.checked_mul(x)?)?
            .checked_sub(fee.checked_mul(UNIT)?)?;
    }
    let orders = i128::try_from(legs.len()).ok()?.checked_sub(1)?;
    value.checked_sub(cost.checked_mul(orders)?.checked_mul(UNIT)?)
}

/// `g(λ)` at the bounds' scale, rounded up: the most a rate can add over `λ` per
/// unit, `(m − λ) × (hi or lo) − fee`.
fn score(c: &Candidate<'_>, lambda: i128) -> i128 {
    (|| {
        if c.m_up < 0 {
            return None;
        }
        let d = c.m_up.checked_sub(lambda)?;
        let y = if d >= 0 { c.hi } else { c.lo };
        let gross = ceil_div(d.checked_mul(y)?, UNIT)?;
        gross.checked_sub(c.fee_down)
    })()
    .unwrap_or(UNBOUNDED)
}

/// The most two rates can add over `λ` when together they hold at most
/// `cap` (8-place units), at the bounds' scale rounded up: both at `lo`, then the
/// rest poured into those above `λ` (the higher `m − λ` first) up to `hi`;
/// [`UNBOUNDED`] when it cannot be computed, and far below any bound when
/// their lows alone exceed `cap` (no third leg fits).
fn pair_cap(a: &Candidate<'_>, b: &Candidate<'_>, lambda: i128, cap: i128) -> i128 {
    (|| {
        if a.m_up < 0 || b.m_up < 0 {
            return None;
        }
        let (da, db) = (a.m_up.checked_sub(lambda)?, b.m_up.checked_sub(lambda)?);
        let mut left = cap.checked_sub(a.lo)?.checked_sub(b.lo)?;
        if left < 0 {
            return Some(i128::MIN / 8);
        }
        let (first, second) = if da >= db {
            ((a, da), (b, db))
        } else {
            ((b, db), (a, da))
        };
        let mut total = 0i128;
        for (c, d) in [first, second] {
            let mut x = c.lo;
            if d > 0 {
                let take = c.hi.checked_sub(c.lo)?.max(0).min(left);
                left = left.checked_sub(take)?;
                x = x.checked_add(take)?;
            }
            let gross = ceil_div(d.checked_mul(x)?, UNIT)?;
            total = total.checked_add(gross.checked_sub(c.fee_down)?)?;
        }
        Some(total)
    })()
    .unwrap_or(UNBOUNDED)
}

/// `a / b` rounded toward +∞, for `b > 0`.
fn ceil_div(a: i128, b: i128) -> Option<i128> {
    let q = a.checked_div_euclid(b)?;
    if a.checked_rem_euclid(b)? == 0 {
        Some(q)
    } else {
        q.checked_add(1)
    }
}

/// A non-negative `value` at `scale` places, rounded up or down.
fn bound_units(value: Decimal, scale: u32, up: bool) -> Option<i128> {
    scaled(value, scale, up)
}

/// The scale of the search's bounds: 18 places, or as many more (up to 28)
/// as the multipliers, fees and `cost` have, when the largest products the
/// bounds form (`m × A` at that scale and 8 more places, with room for
/// three legs' sums) still fit an `i128`. At a scale every number is exact
/// at, sets of equal value have equal bounds, and ruling 39's tie order
/// decides them in the walk: multipliers that differ past the 18th place
/// are told apart without evaluating every set.
fn bounds_scale(candidates: &[Candidate<'_>], total: i128, cost: Decimal) -> u32 {
    let mut places = cost.scale();
    let mut largest = cost.ceil();
    for c in candidates {
        let (m, fee) = (c.rate.multiplier(), c.rate.miner_fee());
        places = places.max(m.scale()).max(fee.scale());
        largest = largest.max(m.ceil()).max(fee.ceil());
    }
    let fits = |scale: u32| {
        (|| {
            let unit = i128::try_from(crate::numeric::pow10(scale)?).ok()?;
            // Above every product of the walk: (m or fee) × 10^scale × (A or
            // one unit), times 16 for sums of legs and their rounding.
            let top = i128::try_from(largest.mantissa().unsigned_abs())
                .ok()?
                .checked_add(1)?;
            top.checked_mul(unit)?
                .checked_mul(total.max(UNIT))?
                .checked_mul(16)
        })()
        .is_some()
    };
    let mut scale = places.clamp(BOUND_SCALE, FINEST_SCALE);
    while scale > BOUND_SCALE && !fits(scale) {
        scale = scale.saturating_sub(1);
    }
    scale
}

/// A non-negative `value` on the 8-place grid, rounded up or down.
fn grid(value: Decimal, up: bool) -> Option<i128> {
    scaled(value, 8, up)
}

fn scaled(value: Decimal, places: u32, up: bool) -> Option<i128> {
    let mantissa = value.mantissa();
    let scale = value.scale();
    if scale <= places {
        let mul = i128::try_from(crate::numeric::pow10(places.checked_sub(scale)?)?).ok()?;
        mantissa.checked_mul(mul)
    } else {
        let div = i128::try_from(crate::numeric::pow10(scale.checked_sub(places)?)?).ok()?;
        if up {
            ceil_div(mantissa, div)
        } else {
            mantissa.checked_div_euclid(div)
        }
    }
}

/// `amount` in 8-place units when it lies on that grid.
fn grid_units(amount: Decimal) -> Option<i128> {
    let down = grid(amount, false)?;
    (grid(amount, true)? == down).then_some(down)
}

#[cfg(test)]
mod tests {
    use alloc::vec::Vec;

    use rust_decimal::Decimal;

    use super::{bounds_scale, Candidate, Known, UNIT};
    use crate::rate::{Rate, RateTerms};
    use crate::{EpochMillis, PairId, RateId};

    fn rate(multiplier: &str, fee: &str) -> Rate {
        Rate::new(
            RateId::new("r").unwrap(),
            PairId::new("BTC_ETH").unwrap(),
            RateTerms {
                multiplier: multiplier.parse().unwrap(),
                miner_fee: fee.parse().unwrap(),
                min: Decimal::ONE,
                max: Decimal::TEN,
            },
            EpochMillis::new(4_102_444_800_000),
        )
    }

    fn scale_of(rates: &[Rate], total: i128, cost: &str) -> u32 {
        let candidates: Vec<Candidate<'_>> = rates
            .iter()
            .map(|rate| Candidate {
                rate,
                lo: 1,
                hi: 1,
                m_up: -1,
                m_down: -1,
                fee_down: 0,
                score: 0,
                known: Known::Unknown,
            })
            .collect();
        bounds_scale(&candidates, total, cost.parse().unwrap())
    }

    #[test]
    fn bounds_keep_the_numbers_places_while_the_products_fit() {
        let ten = 10 * UNIT;
        // Two places: 18, the least scale.
        assert_eq!(scale_of(&[rate("30.25", "0.01")], ten, "0"), 18);
        // 23 places (the multiplier): (30 + 1) × 10^23 × 10^9 × 16 =
        // 4.96 × 10^33 fits an i128 (1.7 × 10^38): 23.
        let fine = rate("30.00000000000000000000001", "0.1");
        assert_eq!(scale_of(&[fine], ten, "0"), 23);
        // 28 places: 31 × 10^28 × 10^9 × 16 ≈ 5.0 × 10^39 and 31 × 10^27 ×
        // 10^9 × 16 ≈ 5.0 × 10^38 do not fit; 31 × 10^26 × 10^9 × 16 ≈
        // 5.0 × 10^37 does: 26.
        let finest = rate("30.0000000000000000000000000001", "0.1");
        assert_eq!(scale_of(core::slice::from_ref(&finest), ten, "0"), 26);
        // An amount of 0.1 (10^7 units, counted as one unit, 10^8):
        // 31 × 10^28 × 10^8 × 16 ≈ 5.0 × 10^38 does not fit, × 10^27 does.
        assert_eq!(scale_of(&[finest], UNIT / 10, "0"), 27);
        // The fee's and the cost's places count too, and the largest
        // number bounds the products: a fee of 10^6 at 22 places:
        // (10^6 + 1) × 10^22 × 10^9 × 16 ≈ 1.6 × 10^38 fits: 22.
        let big_fee = rate("30", "1000000.0000000000000000000001");
        assert_eq!(scale_of(&[big_fee], ten, "0"), 22);
        assert_eq!(
            scale_of(&[rate("30", "0.1")], ten, "0.000000000000000000001"),
            21
        );
        // Products that do not fit even at 18 places (10^21 × 10^18 × ...):
        // still 18, never fewer (the bound of such a rate is unbounded).
        let huge = rate("1000000000000000000000.1", "0");
        assert_eq!(scale_of(&[huge], ten, "0"), 18);
    }
}
