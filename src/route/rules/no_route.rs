//! "No route": which error it is (ruling 10 in docs/RULES.md).

use alloc::boxed::Box;

use rust_decimal::Decimal;

use super::eligibility::{admit, within_limits};
use super::net_output::net_output;
use crate::error::{ApiError, ErrorCode};
use crate::ids::AssetId;
use crate::rate::{MixedPairs, PairId, Rate};
use crate::route::{RejectReason, RouteRequest};
use crate::swap_mode::SwapMode;
use crate::time::EpochMillis;
use crate::wire::RequestField;

/// Why no route is left, with the limits nearest to the amount.
///
/// Classification, first match wins:
/// 0. the rates name more than one pair → `INTERNAL_ERROR` (ruling 18: the
///    caller built a list no service sends; nothing is ranked);
/// 1. no rates at all → `INSUFFICIENT_LIQUIDITY`;
/// 2. no rate is valid → `INSUFFICIENT_LIQUIDITY`;
/// 3. every valid rate has expired → `RATE_EXPIRED`;
/// 4. every live rate is excluded by the swap mode → `UNSUPPORTED_SWAP_MODE`;
/// 5. among the rates whose limits were checked: the amount is below every min →
///    `AMOUNT_BELOW_LIMIT` naming the smallest min; above every (effective) max →
///    `AMOUNT_ABOVE_LIMIT` naming the largest max; in a gap between ranges → both
///    the nearest max below and the nearest min above, with the code of the nearer
///    side (`AMOUNT_ABOVE_LIMIT` when the amount is closer to the max below, ties
///    included);
///    Under the strict ExactOut limit policy (ruling 23), a route whose
///    required input is below its min (above its max) counts as below (above)
///    that limit; a sponsored variant whose campaign limit is below its min
///    (ruling 30) takes no part here;
/// 6. some rate accepted the amount but its arithmetic cannot be held
///    exactly (ruling 35) → `INVALID_AMOUNT` (400) naming the amount that is
///    too large: `fromAmount` in ExactIn, `toAmount` in ExactOut (or
///    `fromAmount` when it is the one that overflows) (ruling 36: the
///    client's error, never a 5xx);
/// 7. some rate accepted the amount, yields an output and passes the
///    floors, but the caller's price guard (ruling 40) refused it →
///    `PRICE_OUTLIER`;
/// 8. some rate accepted the amount and yields a positive output but the
///    caller's economic floors (ruling 38) refuse each such rate →
///    `INSUFFICIENT_LIQUIDITY` naming the floor nearest to passing (the
///    refused route with the largest net output) and its numbers;
/// 9. some rate accepted the amount but none yields a positive output, or
///    every remaining rate is a sponsored variant that can serve no amount →
///    `INSUFFICIENT_LIQUIDITY`.
///
/// Below every min, above every max, without output and below the floors,
/// the error also names the amount that works nearest (ruling 38 amending
/// ruling 10; [`NoRoute::working_amount`]): in ExactIn a `fromAmount`, in
/// ExactOut a `toAmount` (in the to asset).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum NoRoute {
    /// The rates name more than one pair (ruling 18).
    #[error(transparent)]
    MixedPairs(MixedPairs),
    /// The rates response is empty.
    #[error("no rates are offered for the pair")]
    NoRates,
    /// Every rate is invalid (rulings 2 and 18 in docs/RULES.md).
    #[error("none of the {count} rates is valid")]
    NoValidRates {
        /// How many rates there were.
        count: usize,
    },
    /// Every valid rate has expired, the last of them at `latest_expiry`
    /// (so a caller sees how stale the rates are).
    #[error(
        "every rate has expired; the last expired at {} ms since the epoch",
        .latest_expiry.as_millis()
    )]
    AllExpired {
        /// The latest expiry among the expired rates.
        latest_expiry: EpochMillis,
    },
    /// Every live rate is excluded by the swap mode.
    #[error("no rate supports {mode}{}", CapabilityHint(*mode))]
    UnsupportedSwapMode {
        /// The requested mode.
        mode: SwapMode,
    },
    /// The amount is below the min of every route.
    #[error(
        "{named} {amount} {asset} is below the minimum of every route; the smallest minimum is {min} {asset}{}",
        Working("smallest", .smallest_working.as_ref())
    )]
    BelowMin {
        /// Which amount `amount` is: `fromAmount`, or the required input
        /// (ExactOut under the strict policy, and the estimator).
        named: NamedAmount,
        /// The amount checked.
        amount: Decimal,
        /// The pair's from asset, the unit of the amount and the limits.
        asset: AssetId,
        /// The smallest min.
        min: Decimal,
        /// The smallest amount that works (ruling 38): ExactIn, when it is
        /// not `min` (the fee leaves nothing at `min`, a floor refuses it, or
        /// `min` has more than 8 places); ExactOut, the smallest `toAmount`.
        smallest_working: Option<WorkingAmount>,
    },
    /// The amount is above the (effective) max of every route.
    #[error(
        "{named} {amount} {asset} is above the maximum of every route; the largest maximum is {max} {asset}{}",
        Working("largest", .largest_working.as_ref())
    )]
    AboveMax {
        /// Which amount `amount` is: `fromAmount`, or the required input
        /// (ExactOut under the strict policy, and the estimator).
        named: NamedAmount,
        /// The amount checked.
        amount: Decimal,
        /// The pair's from asset, the unit of the amount and the limits.
        asset: AssetId,
        /// The largest effective max.
        max: Decimal,
        /// The largest amount that works (ruling 38): ExactIn, when it is
        /// not `max`; ExactOut, the largest `toAmount`.
        largest_working: Option<WorkingAmount>,
    },
    /// The amount falls in a gap between routes' ranges.
    #[error(
        "{named} {amount} {asset} falls between routes: the nearest maximum below is {max_below} {asset} and the nearest minimum above is {min_above} {asset}"
    )]
    BetweenLimits {
        /// Which amount `amount` is: `fromAmount`, or the required input
        /// (ExactOut under the strict policy, and the estimator).
        named: NamedAmount,
        /// The amount checked.
        amount: Decimal,
        /// The pair's from asset, the unit of the amount and the limits.
        asset: AssetId,
        /// The largest effective max below the amount.
        max_below: Decimal,
        /// The smallest min above the amount.
        min_above: Decimal,
    },
    /// Some rate accepted the amount, but its arithmetic (the net output, or
    /// in ExactOut the required input) is too large to be computed exactly
    /// (rulings 35 and 36): `INVALID_AMOUNT`, the client's error. The field
    /// is `fromAmount` in ExactIn; in ExactOut it is `toAmount`, or
    /// `fromAmount` when that estimate itself overflows a rate that accepted it.
    #[error(
        "{field} {amount} {asset} is too large: no route that accepts it can compute the swap exactly; send a smaller amount"
    )]
    AmountTooLarge {
        /// The amount's field: `fromAmount` or `toAmount`.
        field: RequestField,
        /// The amount.
        amount: Decimal,
        /// Its asset: the pair's from asset for `fromAmount`, its to asset
        /// for `toAmount`.
        asset: AssetId,
    },
    /// Some rate accepted the amount, but none yields a positive output.
    #[error(
        "no route yields a positive output for {named} {amount} {asset}{}",
        Working("smallest", .smallest_working.as_ref())
    )]
    NoOutput {
        /// Which amount `amount` is: `fromAmount`, or the required input
        /// (ExactOut under the strict policy, and the estimator).
        named: NamedAmount,
        /// The amount checked.
        amount: Decimal,
        /// The pair's from asset.
        asset: AssetId,
        /// The smallest amount that works (ruling 38): ExactIn, when it is
        /// above `amount`; ExactOut, the smallest `toAmount`.
        smallest_working: Option<WorkingAmount>,
    },
    /// Some rate accepted the amount with a positive output, but the
    /// caller's economic floors (ruling 38) refuse every such route.
    #[error(
        "no route clears the floors for {named} {amount} {asset}: the nearest, {} ({floor}){}",
        .floor.code(),
        Working("smallest", .smallest_working.as_ref())
    )]
    BelowFloors {
        /// Which amount `amount` is: `fromAmount`, or the required input
        /// (ExactOut under the strict policy, and the estimator).
        named: NamedAmount,
        /// The amount checked.
        amount: Decimal,
        /// The pair's from asset.
        asset: AssetId,
        /// The floor that refused the route nearest to passing (the largest
        /// net output), with its numbers: `BELOW_DUST`, `FEE_TOO_LARGE` or
        /// `FEE_SHARE_TOO_LARGE`.
        floor: Box<RejectReason>,
        /// The smallest amount that works (ruling 38), as for `NoOutput`.
        smallest_working: Option<WorkingAmount>,
    },
    /// Every rate that accepted the amount and yields an output is refused
    /// by the caller's price guard (ruling 40): `PRICE_OUTLIER`.
    #[error(
        "every route that accepts the amount is a price outlier ({count} refused by the price guard){}",
        Working("nearest", .nearest_working.as_ref())
    )]
    PriceOutliers {
        /// How many rates the guard refused.
        count: usize,
        /// The amount that works under the guard nearest the amount asked
        /// (rulings 38 and 41): the largest when the amount is above every
        /// amount that works, else the smallest; `None` when none works.
        nearest_working: Option<WorkingAmount>,
    },
    /// Every rate left is a sponsored variant whose campaign limit is below
    /// its min (ruling 30): no amount fits any of them.
    #[error(
        "no route can serve any amount: every campaign limit left is below its rate's minimum"
    )]
    CampaignLimitsBelowMin {
        /// How many such variants there were.
        count: usize,
    },
}

/// Which amount a "no route" names: the request's `fromAmount`, or a
/// route's required input (ExactOut under the strict limit policy, and the
/// ExactOut estimator; ruling 34 in docs/RULES.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum NamedAmount {
    /// The request's `fromAmount` (in ExactOut, the client's estimate).
    FromAmount,
    /// A route's required input for the exact `toAmount`.
    RequiredInput,
}

impl NamedAmount {
    /// How the amount is written in messages: `fromAmount`, `the required input`.
    pub const fn as_str(self) -> &'static str {
        match self {
            NamedAmount::FromAmount => "fromAmount",
            NamedAmount::RequiredInput => "the required input",
        }
    }
}

impl core::fmt::Display for NamedAmount {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An amount that works (ruling 38), named by a "no route" error: the
/// request field it is for (`fromAmount` in ExactIn, `toAmount` in
/// ExactOut), the amount and its asset.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct WorkingAmount {
    field: RequestField,
    amount: Decimal,
    asset: AssetId,
}

impl WorkingAmount {
    pub(crate) fn new(field: RequestField, amount: Decimal, asset: AssetId) -> Self {
        WorkingAmount {
            field,
            amount,
            asset,
        }
    }

    /// The request field the amount is for: `fromAmount` (ExactIn) or
    /// `toAmount` (ExactOut).
    pub fn field(&self) -> RequestField {
        self.field
    }

    /// The amount.
    pub fn amount(&self) -> Decimal {
        self.amount
    }

    /// Its asset: the pair's from asset for `fromAmount`, its to asset for
    /// `toAmount`.
    pub fn asset(&self) -> &AssetId {
        &self.asset
    }
}

/// "; the smallest amount that works is 0.05000001 BTC" (ExactIn), "; the
/// largest toAmount that works is 116.2 ETH" (ExactOut), or nothing.
/// The remedy an ExactOut refusal names (ruling 4): the capability is the
/// caller's to state when no rate lists it (live rates list no features).
struct CapabilityHint(SwapMode);

impl core::fmt::Display for CapabilityHint {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self.0 {
            SwapMode::ExactOut => f.write_str(
                " (no rate lists the \"exactOut\" feature; a caller who knows its providers' capability states it: RatesResponse::assume_exact_out, --assume-exact-out, assumeExactOut)",
            ),
            SwapMode::ExactIn => Ok(()),
        }
    }
}

struct Working<'a>(&'static str, Option<&'a WorkingAmount>);

impl core::fmt::Display for Working<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self.1 {
            Some(working) => {
                let what = match working.field {
                    RequestField::ToAmount => "toAmount",
                    _ => "amount",
                };
                write!(
                    f,
                    "; the {} {what} that works is {} {}",
                    self.0, working.amount, working.asset
                )
            }
            None => Ok(()),
        }
    }
}

impl NoRoute {
    /// The amount of [`working_amount`](Self::working_amount).
    pub fn working(&self) -> Option<Decimal> {
        self.working_amount().map(WorkingAmount::amount)
    }

    /// The amount that works nearest the limit this names (ruling 38): the
    /// smallest for `BelowMin`, `NoOutput` and `BelowFloors`, the largest
    /// for `AboveMax`, the one nearer the amount asked for `PriceOutliers`
    /// (under the guard); in ExactIn a `fromAmount`, `None` when it is the
    /// nominal limit itself; in ExactOut a `toAmount`; `None` when no
    /// amount works or it is not known.
    pub fn working_amount(&self) -> Option<&WorkingAmount> {
        match self {
            NoRoute::BelowMin {
                smallest_working, ..
            }
            | NoRoute::NoOutput {
                smallest_working, ..
            }
            | NoRoute::BelowFloors {
                smallest_working, ..
            } => smallest_working.as_ref(),
            NoRoute::PriceOutliers {
                nearest_working, ..
            } => nearest_working.as_ref(),
            NoRoute::AboveMax {
                largest_working, ..
            } => largest_working.as_ref(),
            _ => None,
        }
    }

    /// Names the amounts that work (ruling 38): in ExactIn (`fromAmount`s)
    /// where they differ from what this already names; in ExactOut
    /// (`toAmount`s, another asset) always.
    pub(crate) fn with_working(
        self,
        smallest: Option<WorkingAmount>,
        largest: Option<WorkingAmount>,
    ) -> Self {
        let exact_in = |w: &WorkingAmount| w.field == RequestField::FromAmount;
        match self {
            NoRoute::BelowMin {
                named,
                amount,
                asset,
                min,
                ..
            } => NoRoute::BelowMin {
                named,
                amount,
                asset,
                min,
                smallest_working: smallest.filter(|w| !exact_in(w) || w.amount != min),
            },
            NoRoute::AboveMax {
                named,
                amount,
                asset,
                max,
                ..
            } => NoRoute::AboveMax {
                named,
                amount,
                asset,
                max,
                largest_working: largest.filter(|w| !exact_in(w) || w.amount != max),
            },
            NoRoute::NoOutput {
                named,
                amount,
                asset,
                ..
            } => NoRoute::NoOutput {
                named,
                amount,
                asset,
                smallest_working: smallest.filter(|w| !exact_in(w) || w.amount > amount),
            },
            NoRoute::BelowFloors {
                named,
                amount,
                asset,
                floor,
                ..
            } => NoRoute::BelowFloors {
                named,
                amount,
                asset,
                floor,
                smallest_working: smallest.filter(|w| !exact_in(w) || w.amount > amount),
            },
            // The nearer end, chosen by the caller (`name_working`): the
            // guard refused every route at this amount.
            NoRoute::PriceOutliers { count, .. } => NoRoute::PriceOutliers {
                count,
                nearest_working: smallest,
            },
            other => other,
        }
    }

    /// The stable error code.
    pub fn code(&self) -> ErrorCode {
        match self {
            NoRoute::MixedPairs(_) => ErrorCode::InternalError,
            NoRoute::NoRates
            | NoRoute::NoValidRates { .. }
            | NoRoute::NoOutput { .. }
            | NoRoute::BelowFloors { .. }
            | NoRoute::CampaignLimitsBelowMin { .. } => ErrorCode::InsufficientLiquidity,
            NoRoute::AmountTooLarge { .. } => ErrorCode::InvalidAmount,
            NoRoute::PriceOutliers { .. } => ErrorCode::PriceOutlier,
            NoRoute::AllExpired { .. } => ErrorCode::RateExpired,
            NoRoute::UnsupportedSwapMode { .. } => ErrorCode::UnsupportedSwapMode,
            NoRoute::BelowMin { .. } => ErrorCode::AmountBelowLimit,
            NoRoute::AboveMax { .. } => ErrorCode::AmountAboveLimit,
            NoRoute::BetweenLimits {
                amount,
                max_below,
                min_above,
                ..
            } => {
                let over = amount.checked_sub(*max_below);
                let under = min_above.checked_sub(*amount);
                match (over, under) {
                    (Some(over), Some(under)) if over > under => ErrorCode::AmountBelowLimit,
                    _ => ErrorCode::AmountAboveLimit,
                }
            }
        }
    }

    /// The min to report: the smallest min (below every range) or the nearest
    /// min above (in a gap).
    pub fn min(&self) -> Option<Decimal> {
        match self {
            NoRoute::BelowMin { min, .. } => Some(*min),
            NoRoute::BetweenLimits { min_above, .. } => Some(*min_above),
            _ => None,
        }
    }

    /// The max to report: the largest max (above every range) or the nearest
    /// max below (in a gap).
    pub fn max(&self) -> Option<Decimal> {
        match self {
            NoRoute::AboveMax { max, .. } => Some(*max),
            NoRoute::BetweenLimits { max_below, .. } => Some(*max_below),
            _ => None,
        }
    }

    /// The error the service answers with, keeping [`min`](Self::min) and
    /// [`max`](Self::max).
    pub fn to_api_error(&self) -> ApiError {
        ApiError::new(self.code(), alloc::format!("{self}")).with_limits(self.min(), self.max())
    }
}

/// Counts what excluded the rates, in one pass and without allocating.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Tally {
    total: usize,
    invalid: usize,
    expired: usize,
    /// The latest expiry among the expired rates.
    latest_expiry: Option<EpochMillis>,
    swap_mode: usize,
    /// Sponsored variants whose campaign limit is below their min.
    unservable: usize,
    /// Rates that passed the limit check (ranked, or out for overflow / no output).
    within_limits: usize,
    /// Of those, the ones out for an overflow (ruling 35).
    overflow: usize,
    /// Of those, the ones the price guard refused (ruling 40).
    outliers: usize,
    /// Smallest min among rates the amount is below.
    min_above: Option<Decimal>,
    /// Largest effective max among rates the amount is above.
    max_below: Option<Decimal>,
    /// A limit refusal judged the amount itself (`BELOW_MIN`, `ABOVE_MAX`).
    amount_judged: bool,
    /// The largest required input below its rate's min, and the smallest
    /// above its rate's max (ruling 34: a "no route" from required inputs
    /// names the required input, never `fromAmount`).
    required_below: Option<Decimal>,
    required_above: Option<Decimal>,
    /// The floor refusal (ruling 38) of the largest net output: the route
    /// nearest to passing.
    floor: Option<FloorMiss>,
}

/// A floor refusal's numbers, `Copy` (the three floor reasons hold
/// decimals only), with the net output it saw (`gross − fee` for the fee
/// share).
#[derive(Clone, Copy, Debug)]
struct FloorMiss {
    net: Option<Decimal>,
    /// 0 `BELOW_DUST` (net, dust), 1 `FEE_TOO_LARGE` (net, fee, k),
    /// 2 `FEE_SHARE_TOO_LARGE` (fee, gross; `bps`).
    kind: u8,
    numbers: [Decimal; 3],
    bps: u32,
}

impl FloorMiss {
    fn of(reason: &RejectReason) -> Option<Self> {
        let (net, kind, numbers, bps) = match *reason {
            RejectReason::BelowDust { net_output, dust } => {
                (Some(net_output), 0, [net_output, dust, Decimal::ZERO], 0)
            }
            RejectReason::FeeTooLarge {
                net_output,
                miner_fee,
                fee_multiple,
            } => (
                Some(net_output),
                1,
                [net_output, miner_fee, fee_multiple],
                0,
            ),
            RejectReason::FeeShareTooLarge {
                miner_fee,
                gross_output,
                max_bps,
            } => (
                gross_output.checked_sub(miner_fee),
                2,
                [miner_fee, gross_output, Decimal::ZERO],
                max_bps,
            ),
            _ => return None,
        };
        Some(FloorMiss {
            net,
            kind,
            numbers,
            bps,
        })
    }

    fn reason(&self) -> RejectReason {
        let [a, b, c] = self.numbers;
        match self.kind {
            0 => RejectReason::BelowDust {
                net_output: a,
                dust: b,
            },
            1 => RejectReason::FeeTooLarge {
                net_output: a,
                miner_fee: b,
                fee_multiple: c,
            },
            _ => RejectReason::FeeShareTooLarge {
                miner_fee: a,
                gross_output: b,
                max_bps: self.bps,
            },
        }
    }
}

impl Tally {
    pub(crate) fn accepted(&mut self) {
        self.total = self.total.saturating_add(1);
        self.within_limits = self.within_limits.saturating_add(1);
    }

    pub(crate) fn rejected(&mut self, reason: &RejectReason) {
        self.total = self.total.saturating_add(1);
        let counter = match reason {
            RejectReason::InvalidRate(_) => &mut self.invalid,
            RejectReason::Expired { expiry } => {
                self.latest_expiry =
                    Some(self.latest_expiry.map_or(*expiry, |held| held.max(*expiry)));
                &mut self.expired
            }
            RejectReason::ExactOutUnsupported | RejectReason::SponsoredInExactOut => {
                &mut self.swap_mode
            }
            RejectReason::CampaignLimitBelowMin { .. } => &mut self.unservable,
            RejectReason::BelowMin { min } => {
                self.amount_judged = true;
                self.min_above = Some(self.min_above.map_or(*min, |m| m.min(*min)));
                return;
            }
            RejectReason::RequiredInputBelowMin { min, required } => {
                self.required_below =
                    Some(self.required_below.map_or(*required, |r| r.max(*required)));
                self.min_above = Some(self.min_above.map_or(*min, |m| m.min(*min)));
                return;
            }
            RejectReason::AboveMax { max, .. } => {
                self.amount_judged = true;
                self.max_below = Some(self.max_below.map_or(*max, |m| m.max(*max)));
                return;
            }
            RejectReason::RequiredInputAboveMax { max, required } => {
                self.required_above =
                    Some(self.required_above.map_or(*required, |r| r.min(*required)));
                self.max_below = Some(self.max_below.map_or(*max, |m| m.max(*max)));
                return;
            }
            RejectReason::Overflow => {
                self.overflow = self.overflow.saturating_add(1);
                &mut self.within_limits
            }
            RejectReason::PriceOutlier { .. } => {
                self.outliers = self.outliers.saturating_add(1);
                &mut self.within_limits
            }
            RejectReason::BelowDust { .. }
            | RejectReason::FeeTooLarge { .. }
            | RejectReason::FeeShareTooLarge { .. } => {
                if let Some(miss) = FloorMiss::of(reason) {
                    let nearer = match (self.floor, miss.net) {
                        (None, _) => true,
                        (Some(held), Some(net)) => held.net.is_none_or(|held| net > held),
                        (Some(_), None) => false,
                    };
                    if nearer {
                        self.floor = Some(miss);
                    }
                }
                &mut self.within_limits
            }
            RejectReason::NoOutput { .. } => &mut self.within_limits,
        };
        *counter = counter.saturating_add(1);
    }

    /// Some rate that accepted the amount was out for an overflow: the
    /// answer is [`NoRoute::AmountTooLarge`] unless an earlier step of the
    /// classification applies.
    pub(crate) fn overflowed(&self) -> bool {
        self.overflow > 0
    }

    /// [`classify`](Self::classify) for a single-pair request over one
    /// pair's `rates`: the amount too large is `fromAmount` (from asset) in
    /// ExactIn, and in ExactOut `toAmount` (to asset) unless `fromAmount`
    /// itself overflows a rate that accepted it (its net output cannot be
    /// held; one more pass, on the "no route" path only); every other answer
    /// names `fromAmount`.
    pub(crate) fn classify_request(&self, request: &RouteRequest<'_>, rates: &[Rate]) -> NoRoute {
        let pair = rates.first().map(Rate::pair_id);
        let from = request.from_amount().get();
        let mode = request.mode();
        if mode == SwapMode::ExactOut && self.overflowed() {
            let from_overflows = rates.iter().any(|rate| {
                admit(rate, request.now(), mode).is_ok()
                    && within_limits(rate, from, request).is_ok()
                    && net_output(rate, from).is_none()
            });
            if from_overflows {
                return NoRoute::AmountTooLarge {
                    field: RequestField::FromAmount,
                    amount: from,
                    asset: match pair {
                        Some(pair) => pair.from().clone(),
                        None => return NoRoute::NoRates,
                    },
                };
            }
            return self.classify(request.exact_output(), pair.map(PairId::to), mode);
        }
        self.classify(from, pair.map(PairId::from), mode)
    }

    /// Classifies "no route" once nothing was ranked.
    /// `from` is the pair's from asset (`None` only without rates); for the
    /// overflow answer, `amount` and `from` are those of the amount too large
    /// (`toAmount` and the to asset in ExactOut).
    pub(crate) fn classify(
        &self,
        amount: Decimal,
        from: Option<&AssetId>,
        mode: SwapMode,
    ) -> NoRoute {
        self.classify_named(amount, from, mode, NamedAmount::FromAmount)
    }

    /// [`classify`](Self::classify) for an `amount` that is `named` (the
    /// estimator's required input). A "no route" on limits that only
    /// required inputs broke (ExactOut, strict policy) names the required
    /// input nearest the limit, whatever `named` says (ruling 34).
    pub(crate) fn classify_named(
        &self,
        amount: Decimal,
        from: Option<&AssetId>,
        mode: SwapMode,
        named: NamedAmount,
    ) -> NoRoute {
        let required = |held: Option<Decimal>| match held {
            Some(required) if !self.amount_judged => (NamedAmount::RequiredInput, required),
            _ => (named, amount),
        };
        let Some(asset) = from.cloned() else {
            return NoRoute::NoRates;
        };
        let valid = self.total.saturating_sub(self.invalid);
        let live = valid.saturating_sub(self.expired);
        if self.total == 0 {
            NoRoute::NoRates
        } else if valid == 0 {
            NoRoute::NoValidRates { count: self.total }
        } else if live == 0 {
            NoRoute::AllExpired {
                latest_expiry: self.latest_expiry.unwrap_or(EpochMillis::new(0)),
            }
        } else if live == self.swap_mode {
            NoRoute::UnsupportedSwapMode { mode }
        } else if self.overflowed() {
            let field = match mode {
                SwapMode::ExactIn => RequestField::FromAmount,
                SwapMode::ExactOut => RequestField::ToAmount,
            };
            NoRoute::AmountTooLarge {
                field,
                amount,
                asset,
            }
        } else if self.outliers > 0 {
            NoRoute::PriceOutliers {
                count: self.outliers,
                nearest_working: None,
            }
        } else if let (true, Some(floor)) = (self.within_limits > 0, self.floor) {
            NoRoute::BelowFloors {
                named,
                amount,
                asset,
                floor: Box::new(floor.reason()),
                smallest_working: None,
            }
        } else if self.within_limits > 0 {
            NoRoute::NoOutput {
                named,
                amount,
                asset,
                smallest_working: None,
            }
        } else {
            match (self.max_below, self.min_above) {
                (Some(max_below), Some(min_above)) => {
                    let (named, amount) = required(self.required_above.or(self.required_below));
                    NoRoute::BetweenLimits {
                        named,
                        amount,
                        asset,
                        max_below,
                        min_above,
                    }
                }
                (Some(max), None) => {
                    let (named, amount) = required(self.required_above);
                    NoRoute::AboveMax {
                        named,
                        amount,
                        asset,
                        max,
                        largest_working: None,
                    }
                }
                (None, Some(min)) => {
                    let (named, amount) = required(self.required_below);
                    NoRoute::BelowMin {
                        named,
                        amount,
                        asset,
                        min,
                        smallest_working: None,
                    }
                }
                // Every live, mode-capable rate that is not unservable is
                // within limits or below/above them.
                (None, None) if self.unservable > 0 => NoRoute::CampaignLimitsBelowMin {
                    count: self.unservable,
                },
                (None, None) => NoRoute::NoOutput {
                    named,
                    amount,
                    asset,
                    smallest_working: None,
                },
            }
        }
    }
}
