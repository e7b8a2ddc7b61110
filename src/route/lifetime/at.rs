//! What the lifetime questions share: the median guard's voters (a file
//! below `mod.rs` and `schedule.rs`, so the two do not import each other).

use crate::rate::Rate;
use crate::route::rules::served::AmountModel;
use crate::route::RouteRequest;
use crate::time::EpochMillis;

/// Whether `request` judges by a median reference (ruling 42) that moves
/// when a voter expires: a guard without the caller's reference.
pub(crate) fn median_guarded(request: &RouteRequest<'_>) -> bool {
    request
        .price_guard()
        .is_some_and(|guard| guard.reference().is_none())
}

/// The earliest expiry after `now` among the rates that vote for a median
/// guard's reference at `now` (ruling 42: valid, unexpired, able to serve
/// some amount under the rest of the policy); `None` when none does.
pub(crate) fn next_voter_expiry(request: &RouteRequest<'_>, rates: &[Rate]) -> Option<EpochMillis> {
    let now = request.now();
    let model = AmountModel::new(request.mode(), now, request.policy().without_price_guard());
    rates
        .iter()
        .filter(|rate| rate.expiry() > now && model.serves_some(rate))
        .map(Rate::expiry)
        .min()
}
