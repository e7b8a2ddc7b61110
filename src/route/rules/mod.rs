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
//!
//! The engine (`super::engine`) decides nothing itself: it scans, collects
//! and merges by these functions.

pub(crate) mod eligibility;
pub(crate) mod estimate;
pub(crate) mod net_output;
pub(crate) mod no_route;
pub(crate) mod order;
pub(crate) mod required_input;
