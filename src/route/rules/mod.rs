//! The rules of route selection, one file each; a rule's fast (integer) and
//! plain (`Decimal`) forms sit side by side in its file, so a rule is
//! changed in one place. Numbers refer to docs/RULES.md.
//!
//! | rule | file | fast form | plain form |
//! |---|---|---|---|
//! | eligibility, in order (5; with 3, 4, 23, 30) | [`eligibility`] | `FastRequest::score` | `check`, `admit`, `within_limits` |
//! | net output, the score (6) | [`net_output`] | `FastRequest::net28`, `exact_net` | `net_output` |
//! | the ranking order and its ties (6, 7) | [`order`] | `key_order`, `key_before` | `rank_order`, `route_order` |
//! | the ExactOut required input (8) | [`required_input`] | `Cover` (integers) | `required_input` |
//! | the ExactOut estimate (8) | [`estimate`] | — | `estimate_exact_out` |
//! | "no route" and its code (10, 30) | [`no_route`] | — | `Tally::classify` |
//! | a rate over amounts: the interval it serves (38, 41, 42) | [`served`] | — | `AmountModel::interval` |
//!
//! The engine (`super::engine`) decides nothing itself: it scans, collects
//! and merges by these functions.

pub(crate) mod eligibility;
pub(crate) mod estimate;
pub(crate) mod net_output;
pub(crate) mod no_route;
pub(crate) mod order;
pub(crate) mod required_input;
pub(crate) mod served;

/// Rates for the rules' unit tests.
#[cfg(test)]
pub(crate) mod fixtures {
    use rust_decimal::Decimal;

    use crate::rate::{Rate, RateTerms};
    use crate::{ids::RateId, rate::PairId, time::EpochMillis};

    /// A decimal from its text.
    pub(crate) fn d(text: &str) -> Decimal {
        text.parse().unwrap()
    }

    /// A BTC_ETH rate `id` with `multiplier` and miner `fee`, limits that
    /// admit every amount, valid until 2100.
    pub(crate) fn named(id: &str, multiplier: &str, fee: &str) -> Rate {
        let terms = RateTerms {
            multiplier: d(multiplier),
            miner_fee: d(fee),
            min: Decimal::ZERO,
            max: Decimal::MAX,
        };
        Rate::new(
            RateId::new(id).unwrap(),
            PairId::new("BTC_ETH").unwrap(),
            terms,
            EpochMillis::new(4_102_444_800_000),
        )
    }

    /// [`named`] `"r"`: for tests of one rate.
    pub(crate) fn rate(multiplier: &str, fee: &str) -> Rate {
        named("r", multiplier, fee)
    }
}
