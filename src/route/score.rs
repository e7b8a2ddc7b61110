//! The ranking order (rulings 6 and 7 in docs/RULES.md).

use core::cmp::Ordering;

use rust_decimal::Decimal;

use super::eligibility::Candidate;
use super::prepared::FAST;
use super::Route;
use crate::rate::Rate;

/// The total ranking order: `Less` means `a` ranks before `b`.
///
/// 1. higher net output `fromAmount × multiplier − minerFee`;
/// 2. lower miner fee;
/// 3. a base rate before a sponsored variant;
/// 4. rate id ascending by bytes.
///
/// Ids are unique within a sane response; when two rates share every number
/// *and* their id, they are interchangeable and either may come first.
pub(crate) fn rank_order(a: &Candidate<'_>, b: &Candidate<'_>) -> Ordering {
    order(a.net_output, a.rate, b.net_output, b.rate)
}

/// [`rank_order`] on finished routes.
pub(crate) fn route_order(a: &Route<'_>, b: &Route<'_>) -> Ordering {
    order(a.net_output, a.rate, b.net_output, b.rate)
}

/// The ranking order on a net output and its rate.
fn order(a_net: Decimal, a: &Rate, b_net: Decimal, b: &Rate) -> Ordering {
    super::work::tick();
    b_net.cmp(&a_net).then_with(|| tie_order(a, b))
}

/// The tie-breaks of the ranking order, for equal net outputs (steps 2-4 of
/// [`rank_order`]): lower fee, then a base rate before a sponsored variant,
/// then id bytes. The fast path's keys share them.
pub(crate) fn tie_order(a: &Rate, b: &Rate) -> Ordering {
    let (pa, pb) = (a.prepared(), b.prepared());
    // Prepared fees are the exact fees × 10^28: integers compare as the
    // `Decimal`s do.
    let fee = if pa.has(FAST) && pb.has(FAST) {
        pa.fee28.cmp(&pb.fee28)
    } else {
        a.miner_fee().cmp(&b.miner_fee())
    };
    fee.then_with(|| a.is_sponsored().cmp(&b.is_sponsored()))
        .then_with(|| a.id().as_str().as_bytes().cmp(b.id().as_str().as_bytes()))
}
