//! The ranking order (DESIGN rulings 6 and 7).

use core::cmp::Ordering;

use super::eligibility::Candidate;

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
    super::work::tick();
    b.net_output
        .cmp(&a.net_output)
        .then_with(|| a.rate.miner_fee().cmp(&b.rate.miner_fee()))
        .then_with(|| a.rate.is_sponsored().cmp(&b.rate.is_sponsored()))
        .then_with(|| {
            a.rate
                .id()
                .as_str()
                .as_bytes()
                .cmp(b.rate.id().as_str().as_bytes())
        })
}
