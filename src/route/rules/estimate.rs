//! The ExactOut estimate (ruling 8 in docs/RULES.md): the smallest
//! required input that lies within its own rate's limits, ranked by the
//! ranking order at that amount.

use core::cmp::Ordering;

use rust_decimal::Decimal;

use super::eligibility::{admit, guarded, within_limits};
use super::net_output::{net_is_positive, net_output};
use super::no_route::{NamedAmount, Tally};
use super::order::estimate_order;
use super::required_input::required_input;
use super::served::resolve_guard;
use crate::decimal::{Amount, Fixed8};
use crate::rate::{PairId, Rate, RateList};
use crate::route::work;
use crate::route::{Floors, NoRoute, Policy, RejectReason, RouteRequest};
use crate::swap_mode::SwapMode;
use crate::time::EpochMillis;

/// The `fromAmount` to send in ExactOut, and the rate it was computed for.
///
/// # JSON
/// `{"fromAmount":"12.50000000","rateId":"…"}` (all 8 decimal places).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Estimate<'r> {
    from_amount: Fixed8,
    rate: &'r Rate,
}

impl serde::Serialize for Estimate<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut out = serializer.serialize_struct("Estimate", 2)?;
        out.serialize_field("fromAmount", &self.from_amount)?;
        out.serialize_field("rateId", self.rate.id())?;
        out.end()
    }
}

impl<'r> Estimate<'r> {
    /// `(toAmount + minerFee) / multiplier` of [`rate`](Self::rate), rounded up
    /// to 8 decimal places (`"12.50000000"`).
    pub fn from_amount(&self) -> Fixed8 {
        self.from_amount
    }

    /// The rate whose required input this is.
    pub fn rate(&self) -> &'r Rate {
        self.rate
    }

    /// The ExactOut request that sends this estimate as `fromAmount`.
    pub fn request(&self, to_amount: Amount, now: EpochMillis) -> RouteRequest<'static> {
        // A Fixed8 from a non-negative required input is non-negative.
        let from = Amount::new(self.from_amount.get()).unwrap_or(Amount::ZERO);
        RouteRequest::exact_out(from, to_amount, now)
    }
}

/// Estimates `fromAmount` for an ExactOut swap of exactly `to_amount`.
///
/// For every rate that can serve ExactOut at `now` (valid, unexpired, with the
/// capability, not a sponsored variant), the required input is
/// `(toAmount + minerFee) / multiplier`, rounded up to 8 decimal places. The
/// estimate is the smallest required input that lies within its own rate's
/// limits (checked on the rounded value, which is what will be sent), ties
/// broken by the ranking order at that amount. Sending it as `fromAmount`
/// makes [`RouteRequest::best`] choose that rate, unless another rate whose own
/// required input lies *below* its min accepts the amount and pays more.
///
/// ```
/// use swaproute::{route::estimate_exact_out, Amount, EpochMillis, RatesResponse};
/// let rates: RatesResponse = serde_json::from_str(r#"[{"amount":{"assetId":"ETH","value":20},
///   "expiry":2000000000000,"id":"r","max":{"assetId":"BTC","value":20},
///   "min":{"assetId":"BTC","value":0.001},"minerFee":{"assetId":"ETH","value":0.5},
///   "pairId":"BTC_ETH","features":["exactOut"]}]"#).unwrap();
/// let to: Amount = "249.5".parse().unwrap();
/// let estimate = estimate_exact_out(&rates, to, EpochMillis::new(1_700_000_000_000)).unwrap();
/// assert_eq!(estimate.from_amount().to_string(), "12.50000000"); // (249.5 + 0.5) / 20
/// ```
///
/// # Errors
/// [`NoRoute`], classified as in [`RouteRequest::best`] with each rate's own
/// required input standing for the amount; the amount the error names is the
/// smallest required input that any rate's limits were checked against (the
/// to-amount when none was).
///
/// Below every min, above every max, without output or below the floors,
/// the error names the smallest (largest) `toAmount` that works (ruling 38
/// amending ruling 10; [`NoRoute::working_amount`]).
///
/// [`NoRoute::MixedPairs`] for a hand-built list of more than one pair's
/// rates (see [`RateList`]).
pub fn estimate_exact_out<R: RateList + ?Sized>(
    rates: &R,
    to_amount: Amount,
    now: EpochMillis,
) -> Result<Estimate<'_>, NoRoute> {
    estimate_exact_out_under(rates, to_amount, now, Policy::DEFAULT)
}

/// [`estimate_exact_out`] under the caller's economic `floors` (ruling 38;
/// [`Floors::NONE`] is `estimate_exact_out` itself): a rate whose route at
/// its own required input fails a floor is refused with the floor's reason,
/// and the estimate is the smallest required input among the others.
///
/// ```
/// use swaproute::route::{estimate_exact_out_with, Floors};
/// use swaproute::{Amount, EpochMillis, RatesResponse};
/// // ×20, fee 0.5: 9.5 ETH needs (9.5 + 0.5) / 20 = 0.5 BTC; a fee
/// // multiple of 20 wants a net of at least 20 × 0.5 = 10 ETH.
/// let rates: RatesResponse = serde_json::from_str(r#"[{"amount":{"assetId":"ETH","value":20},
///   "expiry":2000000000000,"id":"r","max":{"assetId":"BTC","value":20},
///   "min":{"assetId":"BTC","value":0.001},"minerFee":{"assetId":"ETH","value":0.5},
///   "pairId":"BTC_ETH","features":["exactOut"]}]"#).unwrap();
/// let amount = |s: &str| s.parse::<Amount>().unwrap();
/// let now = EpochMillis::new(1_700_000_000_000);
/// let floors = Floors::NONE.with_fee_multiple(amount("20"));
/// let error = estimate_exact_out_with(&rates, amount("9.5"), now, &floors).unwrap_err();
/// assert_eq!(error.code().as_str(), "INSUFFICIENT_LIQUIDITY");
/// // The smallest toAmount that works: its order amount ceil8((y + 0.5) / 20)
/// // must reach 0.525 BTC (a net of 10 ETH): y > 0.52499999 × 20 − 0.5.
/// assert_eq!(error.working().unwrap().to_string(), "9.99999981");
/// assert!(estimate_exact_out_with(&rates, amount("10"), now, &floors).is_ok());
/// ```
///
/// # Errors
/// As [`estimate_exact_out`]; `BelowFloors` when the floors refuse every
/// route that otherwise works.
pub fn estimate_exact_out_with<'r, R: RateList + ?Sized>(
    rates: &'r R,
    to_amount: Amount,
    now: EpochMillis,
    floors: &Floors,
) -> Result<Estimate<'r>, NoRoute> {
    estimate_exact_out_under(rates, to_amount, now, Policy::DEFAULT.with_floors(*floors))
}

/// [`estimate_exact_out`] under the caller's whole policy (ruling 41): the
/// floors and the price guard (its median found once over the rates that
/// can serve some ExactOut amount, ruling 42) refuse a rate as
/// [`RouteRequest::best`] would. Campaigns never matter here (a sponsored
/// variant serves no ExactOut), and the estimate always holds the required
/// input to its rate's limits (the strict policy's rule), whatever the
/// limit policy says.
///
/// ```
/// use swaproute::route::{estimate_exact_out_under, Policy, PriceGuard};
/// use swaproute::{Amount, EpochMillis, RatesResponse};
/// let rate = |id: &str, m: &str| format!(r#"{{"amount":{{"assetId":"ETH","value":{m}}},
///   "expiry":4102444800000,"id":"{id}","max":{{"assetId":"BTC","value":8}},"features":["exactOut"],
///   "min":{{"assetId":"BTC","value":0.001}},"minerFee":{{"assetId":"ETH","value":0}},"pairId":"BTC_ETH"}}"#);
/// let rates: RatesResponse = serde_json::from_str(&format!("[{},{},{}]",
///     rate("a", "33"), rate("b", "33.1"), rate("liar", "900000")))?;
/// let (to, now) = ("10".parse::<Amount>()?, EpochMillis::new(1_785_000_000_000));
/// let guard = PriceGuard::median(500);
/// let policy = Policy::DEFAULT.with_price_guard(&guard);
/// // The liar would need 0.00001112 BTC; the guard refuses it, as best does.
/// let estimate = estimate_exact_out_under(&rates, to, now, policy)?;
/// assert_eq!(estimate.rate().id().as_str(), "b");
/// assert_eq!(estimate.from_amount().to_string(), "0.30211481"); // ceil8(10 / 33.1 = 0.3021148036…)
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// As [`estimate_exact_out`]; `PRICE_OUTLIER` when the guard refuses every
/// rate that otherwise works.
pub fn estimate_exact_out_under<'r, R: RateList + ?Sized>(
    rates: &'r R,
    to_amount: Amount,
    now: EpochMillis,
    policy: Policy<'_>,
) -> Result<Estimate<'r>, NoRoute> {
    let rates = rates.one_pair().map_err(NoRoute::MixedPairs)?;
    let resolved = policy
        .price_guard()
        .and_then(|g| resolve_guard(g, rates, SwapMode::ExactOut, now, policy));
    // A median found here replaces the guard; the caller's reference stays.
    let policy = match &resolved {
        Some(guard) => policy.with_price_guard(guard),
        None => policy,
    };
    let probe = RouteRequest::exact_out(Amount::ZERO, to_amount, now).with_policy(policy);
    let mut tally = Tally::default();
    let mut best: Option<(Fixed8, Decimal, &Rate)> = None;
    let mut smallest_input: Option<Decimal> = None;
    for rate in rates {
        match candidate(rate, &probe, &mut smallest_input) {
            Ok((input, net)) => {
                tally.accepted();
                let better = best
                    .is_none_or(|held| estimate_order((input, net, rate), held) == Ordering::Less);
                if better {
                    best = Some((input, net, rate));
                }
            }
            Err(reason) => tally.rejected(&reason),
        }
    }
    if let Some((from_amount, _, rate)) = best {
        return Ok(Estimate { from_amount, rate });
    }
    // The amount is a from-asset required input, or the to-amount (in the to
    // asset) when no rate got as far as computing one, or when the to-amount
    // is too large for exact arithmetic (ruling 36: it is the field named).
    let pair = rates.first().map(Rate::pair_id);
    let (amount, asset, named) = match smallest_input {
        Some(input) if !tally.overflowed() => {
            (input, pair.map(PairId::from), NamedAmount::RequiredInput)
        }
        _ => (
            to_amount.get(),
            pair.map(PairId::to),
            NamedAmount::FromAmount,
        ),
    };
    let no_route = tally.classify_named(amount, asset, SwapMode::ExactOut, named);
    Err(probe.name_working(no_route, rates))
}

/// The rounded required input of `rate` and its net output at that amount.
fn candidate(
    rate: &Rate,
    probe: &RouteRequest<'_>,
    smallest_input: &mut Option<Decimal>,
) -> Result<(Fixed8, Decimal), RejectReason> {
    work::tick();
    admit(rate, probe.now(), SwapMode::ExactOut)?;
    let input = required_input(rate, probe.exact_output()).ok_or(RejectReason::Overflow)?;
    *smallest_input = Some(smallest_input.map_or(input.get(), |held| held.min(input.get())));
    within_limits(rate, input.get(), probe)?;
    let net = net_output(rate, input.get()).ok_or(RejectReason::Overflow)?;
    if !net_is_positive(rate, input.get(), net) {
        return Err(RejectReason::NoOutput { net_output: net });
    }
    probe.floors().check(rate, input.get(), net)?;
    guarded(rate, probe.price_guard())?;
    Ok((input, net))
}
