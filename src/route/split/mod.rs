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
//! # The single route first, asked only when it can exist
//! Before the search, one pass over the rates' prepared integers says
//! whether any admitted rate's limits hold the whole amount (a necessary
//! condition of a single route). Only then is the engine's best route asked
//! for; otherwise there is none, and the single pair's "no route" (with
//! ruling 38's working amounts, as long as a full selection) is computed
//! only when no split serves either.
//!
//! # Exact values (ruling 43)
//! A set's value and the best single route's net output are compared as
//! exact integers at 36 places (`exact.rs`: `x × m − fee` with the amount's
//! 8 places and the multiplier's 28, no digit dropped), never as sums of
//! nets rounded at 28 places; the split's total, value and gain are rounded
//! once, from those exact sums (the total and the value down at 28 places,
//! the gain toward zero at 2).
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

use super::rules::eligibility::check;
use super::rules::served::resolve_guard;
use super::{NoRoute, Route, RouteRequest};
use crate::decimal::Amount;
use crate::numeric::Wide;
use crate::parse_error::{ParseError, ParseErrorKind};
use crate::rate::prepared::Layout;
use crate::rate::{MixedPairs, Rate, RateList};
use crate::swap_mode::SwapMode;

mod exact;
mod marginal;
mod model;
mod search;

use exact::{floor_decimal, gain_bps, route_net, Signed};
use model::{grid_units, may_serve_whole, Asked, Found, VALUE_SCALE};
pub use model::{split_work_limit, SplitLeg, SplitStop, SplitWork};

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

/// A number of legs other than 2 or 3: a [`ParseError`] of kind
/// [`SplitLegs`](ParseErrorKind::SplitLegs) for `text`.
fn invalid_split_legs(text: &str, legs: u64) -> ParseError {
    ParseError::new(
        ParseErrorKind::SplitLegs,
        text,
        "OUT_OF_RANGE",
        &format_args!("a split has 2 or 3 legs, not {legs}"),
    )
}

impl TryFrom<u64> for SplitLegs {
    type Error = ParseError;

    /// # Errors
    /// A [`ParseError`] unless `value` is 2 or 3.
    fn try_from(value: u64) -> Result<Self, Self::Error> {
        match value {
            2 => Ok(SplitLegs::TWO),
            3 => Ok(SplitLegs::THREE),
            other => Err(invalid_split_legs(&alloc::format!("{other}"), other)),
        }
    }
}

impl core::str::FromStr for SplitLegs {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        match text {
            "2" => Ok(SplitLegs::TWO),
            "3" => Ok(SplitLegs::THREE),
            _ => Err(invalid_split_legs(text, text.parse().unwrap_or(u64::MAX))),
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
    pub fn code(&self) -> crate::error::ErrorCode {
        match self {
            SplitError::NoRoute(no_route) => no_route.code(),
            SplitError::ExactOut => crate::error::ErrorCode::UnsupportedSwapMode,
            SplitError::OffGrid { .. } => crate::error::ErrorCode::InvalidAmount,
            // The providers' book is hard, not the request (ruling 48).
            SplitError::TooMuchWork { .. } => crate::error::ErrorCode::SearchExhausted,
        }
    }

    /// As the API answers it: the "no route" error with its limits, or the
    /// code above with this error's text.
    pub fn to_api_error(&self) -> crate::error::ApiError {
        match self {
            SplitError::NoRoute(no_route) => no_route.to_api_error(),
            other => crate::error::ApiError::new(other.code(), alloc::format!("{other}")),
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

/// [`RouteRequest::split`]: the best single route, or the exact best split
/// of `fromAmount` (ruling 39; the module documentation has the search).
///
/// # Errors
/// As [`RouteRequest::split`].
pub(super) fn answer<'r, R: RateList + ?Sized>(
    request: &RouteRequest<'_>,
    rates: &'r R,
    policy: &SplitPolicy,
) -> Result<SplitAnswer<'r>, SplitError> {
    if request.mode() != SwapMode::ExactIn {
        return Err(SplitError::ExactOut);
    }
    let compact = rates.layout();
    let rates = rates.one_pair()?;
    if policy.decimals.is_some() {
        let amount = request.from_amount().get();
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
    match request
        .price_guard()
        .and_then(|g| resolve_guard(g, rates, SwapMode::ExactIn, request.now(), request.policy()))
    {
        Some(guard) => answer_in(&request.with_price_guard(&guard), rates, compact, policy),
        None => answer_in(request, rates, compact, policy),
    }
}

/// [`answer`] over one pair's rates, the guard's reference resolved.
fn answer_in<'r>(
    request: &RouteRequest<'_>,
    rates: &'r [Rate],
    compact: Layout<'_>,
    policy: &SplitPolicy,
) -> Result<SplitAnswer<'r>, SplitError> {
    let single_or_error = |request: &RouteRequest<'_>| match request.best_in(rates, compact) {
        Ok(route) => Ok(SplitAnswer::Single(route)),
        Err(no_route) => Err(SplitError::NoRoute(no_route)),
    };
    // The legs' grid (ruling 48): off it (or off the 8-place grid) no
    // split exists, and the single pair answers.
    let Some(total) = grid_units(request.from_amount().get())
        .filter(|units| units.checked_rem(policy.step()) == Some(0))
    else {
        return single_or_error(request);
    };
    // The single route, asked of the engine only when some rate's limits
    // hold the whole amount (a necessary condition, read from the prepared
    // integers): otherwise there is none, and its "no route" (with ruling
    // 38's working amounts, a pass as long as the selection) is only needed
    // when no split serves either.
    let mut no_route = None;
    let single = if may_serve_whole(request, rates, total) {
        match request.best_in(rates, compact) {
            Ok(route) if policy.min_gain_bps.is_none() => return Ok(SplitAnswer::Single(route)),
            Ok(route) => Some(route),
            Err(NoRoute::MixedPairs(mixed)) => return Err(mixed.into()),
            Err(why) => {
                no_route = Some(why);
                None
            }
        }
    } else {
        None
    };
    let asked = Asked {
        legs: usize::from(policy.legs.get()),
        cost: policy.per_order_cost.get(),
        places: policy.places(),
        step: policy.step(),
        first_work: policy.first_work,
    };
    let found =
        search::search(request, rates, total, &asked, single.as_ref()).map_err(|exhausted| {
            SplitError::TooMuchWork {
                limit: exhausted.limit,
            }
        })?;
    let Some(single) = single else {
        return match found.and_then(|(found, work)| finish(request, found, work, None, policy)) {
            Some(split) => Ok(SplitAnswer::Split(split)),
            // The engine's "no route", asked now if it was not above.
            None => match no_route {
                Some(why) => Err(SplitError::NoRoute(why)),
                None => single_or_error(request),
            },
        };
    };
    let Some((found, work)) = found else {
        return Ok(SplitAnswer::Single(single));
    };
    // Ruling 43: the split's value and the single route's net output are
    // the exact sums, never of nets rounded at 28 places.
    let cost = Wide::at_scale(policy.per_order_cost.get(), VALUE_SCALE);
    let single_net = route_net(&single);
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
    Ok(finish(request, found, work, Some(&single), policy)
        .map_or(SplitAnswer::Single(single), SplitAnswer::Split))
}

/// The public form of an evaluated set: each leg checked again by the
/// engine at its amount; the total and the value the floors at 28 places
/// of their exact sums (ruling 43), the gain from the exact values.
fn finish<'r>(
    request: &RouteRequest<'_>,
    found: Found<'r>,
    work: SplitWork,
    single: Option<&Route<'r>>,
    policy: &SplitPolicy,
) -> Option<Split<'r>> {
    let mut exact_total = Wide::from_u128(0);
    for leg in &found.legs {
        // Each leg eligible at its own amount, by the engine's own check.
        let at = RouteRequest::exact_in(Amount::new(leg.from_amount).ok()?, request.now())
            .with_policy(request.policy());
        if check(leg.rate, &at).ok()?.net_output != leg.net_output {
            return None;
        }
        exact_total = exact_total.add(exact::leg_net(leg.from_amount, leg.rate)?)?;
    }
    let orders = u64::try_from(found.legs.len().checked_sub(1)?).ok()?;
    let costs = Wide::at_scale(policy.per_order_cost.get(), VALUE_SCALE)?.mul_small(orders)?;
    let value = Signed::difference(exact_total, costs)?;
    let gain_bps = match single {
        Some(single) if !single.net_output().is_zero() => {
            Some(gain_bps(value, route_net(single)?)?.normalize())
        }
        _ => None,
    };
    Some(Split {
        legs: found.legs,
        net_output: floor_decimal(Signed::positive(exact_total), VALUE_SCALE)?.normalize(),
        value: floor_decimal(value, VALUE_SCALE)?.normalize(),
        gain_bps,
        work,
    })
}
