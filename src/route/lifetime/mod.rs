//! Decisions have a lifetime (ruling 50 in docs/RULES.md): until when an
//! answer at one amount holds, and what replaces it.
//!
//! Rates do not move before they expire, and at one amount every rule but
//! expiry (`expiry <= now` is expired, ruling 5) is independent of time, so
//! as time passes rates only leave. The best route therefore changes only
//! when it expires itself: nothing can overtake it. The exception is a
//! median price guard (ruling 42), whose reference moves when one of its
//! voters expires, so a rate it refused may come back.
//!
//! - [`RouteRequest::valid_until`] (best), [`RouteRequest::top_valid_until`],
//!   [`RouteRequest::select_valid_until`], [`split_valid_until`],
//!   [`chain_valid_until`]: the first instant at which the answer would
//!   change, `None` when nothing left can expire.
//! - [`RouteRequest::schedule`]: the successors of the best route, each
//!   interval `[from, until)` with its route or its "no route", until every
//!   rate has expired, in `O(n log n)` (one ranking, not one per expiry,
//!   with a median guard too; plus one `best` per "no route" interval:
//!   see `schedule.rs`).
//!
//! ```
//! use swaproute::{route::RouteRequest, Amount, EpochMillis, RatesResponse};
//! let rates: RatesResponse = serde_json::from_str(r#"[
//!   {"id":"a","pairId":"BTC_ETH","amount":{"assetId":"ETH","value":30},
//!    "minerFee":{"assetId":"ETH","value":0},"min":{"assetId":"BTC","value":0.1},
//!    "max":{"assetId":"BTC","value":1},"expiry":2000},
//!   {"id":"b","pairId":"BTC_ETH","amount":{"assetId":"ETH","value":29},
//!    "minerFee":{"assetId":"ETH","value":0},"min":{"assetId":"BTC","value":0.1},
//!    "max":{"assetId":"BTC","value":1},"expiry":5000}]"#)?;
//! let request = RouteRequest::exact_in("0.5".parse::<Amount>()?, EpochMillis::new(1000));
//! assert_eq!(request.valid_until(&rates), Some(EpochMillis::new(2000)));
//! let schedule = request.schedule(&rates)?;
//! let ids: Vec<_> = schedule.intervals().iter()
//!     .map(|i| (i.from().as_millis(), i.until().as_millis(), i.rate_id().map(|id| id.as_str())))
//!     .collect();
//! assert_eq!(ids, [(1000, 2000, Some("a")), (2000, 5000, Some("b"))]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod at;
#[cfg(test)]
mod oracle;
mod order_stats;
pub(crate) mod schedule;

pub(crate) use at::{median_guarded, next_voter_expiry};

pub use schedule::{Interval, Schedule};

use super::chain::Chain;
use super::{RouteRequest, SplitAnswer};
use crate::rate::{Rate, RateList};
use crate::time::EpochMillis;

/// The earliest expiry after `now` among `rates`.
pub(crate) fn next_expiry(rates: &[Rate], now: EpochMillis) -> Option<EpochMillis> {
    rates
        .iter()
        .map(Rate::expiry)
        .filter(|expiry| *expiry > now)
        .min()
}

/// `until`, the end of an answer over `rates` (one pair's) that nothing
/// but its own rates' expiries can change, bounded under a median guard by
/// the first voter's expiry (ruling 50: the reference moves then). The one
/// rule behind `valid_until`, `top_valid_until` and `split_valid_until`.
pub(crate) fn bounded_by_voters(
    request: &RouteRequest<'_>,
    rates: &[Rate],
    until: Option<EpochMillis>,
) -> Option<EpochMillis> {
    if median_guarded(request) {
        earliest(until, next_voter_expiry(request, rates))
    } else {
        until
    }
}

/// The later of two optional instants is not what a lifetime wants: the
/// earlier one that exists.
pub(crate) fn earliest(a: Option<EpochMillis>, b: Option<EpochMillis>) -> Option<EpochMillis> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, None) => a,
        (None, b) => b,
    }
}

/// Until when a split answer ([`RouteRequest::split`]) over `rates` holds:
/// the earliest expiry among the rates it uses (the single route, or every
/// leg). Without a median guard nothing can overtake it: removing a rate
/// the optimum does not use leaves it optimal, and a split chosen over the
/// best single route still beats every single route left. With a median
/// guard, the earliest voter's expiry when that comes first.
///
/// ```
/// use swaproute::route::{split_valid_until, RouteRequest, SplitAnswer, SplitPolicy};
/// use swaproute::{Amount, EpochMillis, RatesResponse};
/// let rates: RatesResponse = serde_json::from_str(r#"[
///   {"id":"a","pairId":"BTC_ETH","amount":{"assetId":"ETH","value":30},
///    "minerFee":{"assetId":"ETH","value":0},"min":{"assetId":"BTC","value":0.1},
///    "max":{"assetId":"BTC","value":1},"expiry":2000},
///   {"id":"b","pairId":"BTC_ETH","amount":{"assetId":"ETH","value":29},
///    "minerFee":{"assetId":"ETH","value":0},"min":{"assetId":"BTC","value":0.1},
///    "max":{"assetId":"BTC","value":1},"expiry":5000}]"#)?;
/// let request = RouteRequest::exact_in("1.5".parse::<Amount>()?, EpochMillis::new(1000));
/// let answer = request.split(&rates, &SplitPolicy::default()).unwrap();
/// assert!(matches!(answer, SplitAnswer::Split(_)));
/// assert_eq!(split_valid_until(&request, &rates, &answer), Some(EpochMillis::new(2000)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn split_valid_until<R: RateList + ?Sized>(
    request: &RouteRequest<'_>,
    rates: &R,
    answer: &SplitAnswer<'_>,
) -> Option<EpochMillis> {
    let used = match answer {
        SplitAnswer::Single(route) => Some(route.rate().expiry()),
        SplitAnswer::Split(split) => split.legs().iter().map(|leg| leg.rate().expiry()).min(),
    };
    match rates.one_pair() {
        Ok(rates) => bounded_by_voters(request, rates, used),
        Err(_) => used,
    }
}

/// Until when a chained route holds (ruling 24: a chain's expiry is its
/// earliest leg's): without a median guard no other chain can overtake it
/// (rates only leave), so it holds until its first leg expires. Under a
/// median guard, pass the rates of every pair the chain request ranked
/// and its `now`: the earliest expiry after `now` among them bounds it too
/// (a conservative bound: a voter's expiry moves its pair's reference).
///
/// ```
/// use swaproute::route::chain_valid_until;
/// use swaproute::EpochMillis;
/// # fn f(chain: &swaproute::route::chain::Chain<'_>) {
/// let until = chain_valid_until(chain, EpochMillis::new(0), &[]);
/// assert_eq!(until, chain.expiry());
/// # }
/// ```
pub fn chain_valid_until(
    chain: &Chain<'_>,
    now: EpochMillis,
    guarded_rates: &[&[Rate]],
) -> EpochMillis {
    let legs = chain.expiry();
    let now_bound = guarded_rates
        .iter()
        .filter_map(|rates| next_expiry(rates, now))
        .min();
    match now_bound {
        Some(bound) => legs.min(bound),
        None => legs,
    }
}
