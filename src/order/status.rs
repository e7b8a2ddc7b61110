//! Order statuses and status reconciliation (rulings 13 and 21, docs/RULES.md).
//!
//! See [`reconcile`] for the rules and an example.

use core::fmt;

use crate::parse_error::{Malformed, ParseError};

/// The longest status text accepted, in bytes (ruling 17 in docs/RULES.md). The known
/// statuses are at most 10 bytes.
pub const MAX_STATUS_LEN: usize = 64;

/// Why a text is not an order status.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum InvalidOrderStatus {
    /// The status is empty.
    #[error("order status is empty")]
    Empty,
    /// The status is longer than [`MAX_STATUS_LEN`] bytes.
    #[error("order status is {len} bytes long, more than the {MAX_STATUS_LEN} allowed")]
    TooLong {
        /// Length of the rejected status, in bytes.
        len: usize,
    },
    /// The status contains a control character.
    #[error("order status contains a control character at byte {at}")]
    ControlCharacter {
        /// Byte offset of the character.
        at: usize,
    },
}

crate::text::from_token_defect!(
    InvalidOrderStatus,
    ControlCharacter,
    "CONTROL_CHARACTER",
    OrderStatus
);

crate::text::verbatim_text!(
    /// A status the crate does not know, kept exactly as the service sent it.
    ///
    /// Only [`OrderStatus`]'s parser creates one, so it never spells a known
    /// status: `"complete"` is always [`OrderStatus::Complete`], while `"Complete"`
    /// (matching is case-sensitive) is unknown.
    pub struct UnknownStatus;
    /// The status text, exactly as received.
);

/// An order's `status`. The set is open: a status the crate does not know is
/// [`OrderStatus::Unknown`] and round-trips exactly (`parse(display(s)) == s`).
///
/// On the wire it is the camelCase string (`"inProgress"`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum OrderStatus {
    /// `awaiting`: created, waiting for the deposit.
    Awaiting,
    /// `inProgress`: the deposit is being processed.
    InProgress,
    /// `complete`: done. Final: reconciliation never moves an order out of it.
    Complete,
    /// `expired`: the order expired.
    Expired,
    /// `failed`: the order failed.
    Failed,
    /// `refunded`: the deposit was returned.
    Refunded,
    /// `delayed`: processing is delayed.
    Delayed,
    /// `swapped`: the swap is done, the payout is pending.
    Swapped,
    /// Any other status, kept verbatim.
    Unknown(UnknownStatus),
}

impl OrderStatus {
    /// Every known status, in declaration order.
    pub const KNOWN: [OrderStatus; 8] = [
        OrderStatus::Awaiting,
        OrderStatus::InProgress,
        OrderStatus::Complete,
        OrderStatus::Expired,
        OrderStatus::Failed,
        OrderStatus::Refunded,
        OrderStatus::Delayed,
        OrderStatus::Swapped,
    ];

    /// Parses a status: a known name (case-sensitive) or any other valid text
    /// as [`OrderStatus::Unknown`].
    ///
    /// # Errors
    /// A [`ParseError`] of kind [`OrderStatus`](crate::parse_error::ParseErrorKind::OrderStatus)
    /// when `text` is empty, longer than [`MAX_STATUS_LEN`] bytes or
    /// contains a control character.
    pub fn parse(text: &str) -> Result<Self, ParseError> {
        Self::parse_defect(text).map_err(|defect| defect.with_text(text))
    }

    /// [`parse`](Self::parse), with the defect alone.
    fn parse_defect(text: &str) -> Result<Self, InvalidOrderStatus> {
        let known = match text {
            "awaiting" => OrderStatus::Awaiting,
            "inProgress" => OrderStatus::InProgress,
            "complete" => OrderStatus::Complete,
            "expired" => OrderStatus::Expired,
            "failed" => OrderStatus::Failed,
            "refunded" => OrderStatus::Refunded,
            "delayed" => OrderStatus::Delayed,
            "swapped" => OrderStatus::Swapped,
            _ => {
                crate::text::check_open_text(text, MAX_STATUS_LEN)?;
                return Ok(OrderStatus::Unknown(UnknownStatus(text.into())));
            }
        };
        Ok(known)
    }

    /// The wire text, e.g. `"inProgress"`, or the unknown status verbatim.
    pub fn as_str(&self) -> &str {
        match self {
            OrderStatus::Awaiting => "awaiting",
            OrderStatus::InProgress => "inProgress",
            OrderStatus::Complete => "complete",
            OrderStatus::Expired => "expired",
            OrderStatus::Failed => "failed",
            OrderStatus::Refunded => "refunded",
            OrderStatus::Delayed => "delayed",
            OrderStatus::Swapped => "swapped",
            OrderStatus::Unknown(unknown) => unknown.as_str(),
        }
    }

    /// `false` only for [`OrderStatus::Unknown`].
    pub fn is_known(&self) -> bool {
        !matches!(self, OrderStatus::Unknown(_))
    }

    /// `true` only for [`OrderStatus::Complete`], the one status reconciliation
    /// never leaves.
    pub fn is_final(&self) -> bool {
        *self == OrderStatus::Complete
    }

    /// `true` for `expired` and `failed`.
    pub fn is_failure(&self) -> bool {
        matches!(self, OrderStatus::Expired | OrderStatus::Failed)
    }
}

impl fmt::Display for OrderStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

crate::text::parse_traits!(OrderStatus, OrderStatus::parse, ParseError);
crate::text::str_serde!(
    OrderStatus,
    "an order status such as \"inProgress\"",
    OrderStatus::parse,
    |_v, e| e
);

/// One read of the order at the provider: the status it reports, whether it
/// has detected the deposit, and the deposit transaction's confirmations.
///
/// Every combination of field values is valid, so the fields are public.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Observation {
    /// The status the provider reports.
    pub provider_status: OrderStatus,
    /// Whether the provider has detected the deposit.
    pub deposit_detected: bool,
    /// Confirmations of the deposit transaction (0 when none is known).
    pub deposit_confirmations: u64,
}

impl Observation {
    /// The provider reports `provider_status`, has not detected the deposit,
    /// and the deposit has no confirmation.
    pub fn new(provider_status: OrderStatus) -> Self {
        Observation {
            provider_status,
            deposit_detected: false,
            deposit_confirmations: 0,
        }
    }

    /// The same observation with `deposit_detected` set.
    #[must_use]
    pub fn with_deposit_detected(mut self, detected: bool) -> Self {
        self.deposit_detected = detected;
        self
    }

    /// The same observation with `deposit_confirmations` set.
    #[must_use]
    pub fn with_confirmations(mut self, confirmations: u64) -> Self {
        self.deposit_confirmations = confirmations;
        self
    }

    /// `true` when the observation settles the order (ruling 21, docs/RULES.md):
    /// the provider reports `complete` or `refunded`, or `expired`/`failed`
    /// after it detected the deposit.
    pub fn is_definitive(&self) -> bool {
        is_definitive(&self.provider_status, self.deposit_detected)
    }

    /// `true` when the provider reports `expired` or `failed` without having
    /// detected the deposit.
    pub fn is_premature_failure(&self) -> bool {
        self.provider_status.is_failure() && !self.deposit_detected
    }
}

/// The one statement of ruling 21 (docs/RULES.md): `complete`, `refunded`, and
/// a failure reported after the deposit was detected are definitive.
fn is_definitive(status: &OrderStatus, deposit_detected: bool) -> bool {
    match status {
        OrderStatus::Complete | OrderStatus::Refunded => true,
        OrderStatus::Expired | OrderStatus::Failed => deposit_detected,
        _ => false,
    }
}

/// An order's status together with whether it is *definitive* (ruling 21,
/// docs/RULES.md): `complete`, `refunded`, or `expired`/`failed` reported after
/// the provider detected the deposit.
///
/// The status text alone cannot say whether a `failed` order failed before or
/// after its deposit was seen, and the two reconcile differently (a premature
/// failure gives way to a confirmed deposit, a definitive one is never
/// reopened), so [`reconcile`] works on this pair. Store both
/// [`status`](Self::status) and [`is_definitive`](Self::is_definitive) (or the
/// detection flag) to resume reconciliation later.
///
/// The flag is derived, never set directly, so it cannot disagree with the
/// status: `complete` and `refunded` are always definitive, `expired`/`failed`
/// are definitive only after deposit detection, every other status never is.
///
/// ```
/// use swaproute::order::{OrderStatus, TrackedStatus};
/// assert!(TrackedStatus::new(OrderStatus::Refunded, false).is_definitive());
/// assert!(TrackedStatus::new(OrderStatus::Failed, true).is_definitive());
/// assert!(!TrackedStatus::new(OrderStatus::Failed, false).is_definitive());
/// assert!(!TrackedStatus::new(OrderStatus::Awaiting, true).is_definitive());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TrackedStatus {
    status: OrderStatus,
    definitive: bool,
}

impl TrackedStatus {
    /// `status`, reached with (`deposit_detected`) or without the provider
    /// having detected the deposit. Only `expired`/`failed` depend on the flag.
    pub fn new(status: OrderStatus, deposit_detected: bool) -> Self {
        let definitive = is_definitive(&status, deposit_detected);
        TrackedStatus { status, definitive }
    }

    /// The status an observation reports, as [`reconcile`] would adopt it.
    pub fn observed(observation: &Observation) -> Self {
        TrackedStatus {
            status: observation.provider_status.clone(),
            definitive: observation.is_definitive(),
        }
    }

    /// The status.
    pub fn status(&self) -> &OrderStatus {
        &self.status
    }

    /// The status, by value.
    pub fn into_status(self) -> OrderStatus {
        self.status
    }

    /// `true` when the status is definitive: nothing but another definitive
    /// observation (or provider completion) changes it.
    pub fn is_definitive(&self) -> bool {
        self.definitive
    }
}

impl From<&Observation> for TrackedStatus {
    fn from(observation: &Observation) -> Self {
        TrackedStatus::observed(observation)
    }
}

/// The next status of an order in `current` state given `observation`.
///
/// A pure function from the order's current status and one
/// [`Observation`] of the provider to the next status. Its rules, first match
/// wins:
///
/// | # | current | observation | next |
/// |---|---|---|---|
/// | 1 | `complete` | anything | `complete` (final: nothing moves an order out of it) |
/// | 2 | any | provider reports `complete` | `complete` |
/// | 3 | any | *definitive*: `refunded`, or `expired`/`failed` reported after the provider detected the deposit | the reported status (definitive) |
/// | 4 | definitive (`refunded`, or a failure after deposit detection) | anything else | unchanged: nothing reopens a definitive status |
/// | 5 | `inProgress` | anything else | `inProgress` |
/// | 6 | any | `expired`/`failed` before the provider detected the deposit, deposit has ≥ 1 confirmation | `inProgress` |
/// | 7 | any | anything else | the reported status (not definitive) |
///
/// Rules 1-4 are ruling 21 (docs/RULES.md): a definitive status moves only to
/// another definitive one (a failure after deposit detection may become
/// `refunded`; anything may become `complete`, the spec's "any → complete"
/// row), never back to a status that is still open. Rule 5 is how the order "stays `inProgress` until a definitive status
/// arrives": the function sees one observation at a time and cannot tell why
/// the order is `inProgress`, so *no* non-definitive observation moves an
/// `inProgress` order, whatever the confirmation count (a later read may
/// report 0 confirmations, e.g. after a reorg or from a lagging node, and a
/// deposit once seen must not turn into a failure), and whatever the status
/// (`awaiting`, `delayed`, `swapped`, an unknown status, or a premature
/// `expired`/`failed`). From any other open state, a premature failure with 0
/// confirmations is adopted as reported, not definitive: there is no sign of a
/// deposit yet, and a later confirmed deposit still turns it into `inProgress`.
///
/// Unknown provider statuses ([`OrderStatus::Unknown`]) are not definitive:
/// they are adopted verbatim by rule 7 unless the order is definitive or
/// `inProgress`.
///
/// Reconciliation is idempotent: `reconcile(&reconcile(s, o), o) == reconcile(s, o)`.
///
/// ```
/// use swaproute::order::{reconcile, Observation, OrderStatus, TrackedStatus};
///
/// // The provider gives up before seeing the deposit, but it has a confirmation.
/// let premature = Observation::new(OrderStatus::Expired).with_confirmations(1);
/// let status = reconcile(&TrackedStatus::new(OrderStatus::Awaiting, false), &premature);
/// assert_eq!(*status.status(), OrderStatus::InProgress);
///
/// // It stays in progress until a definitive status arrives...
/// let status = reconcile(&status, &Observation::new(OrderStatus::Failed));
/// assert_eq!(*status.status(), OrderStatus::InProgress);
/// let status = reconcile(&status, &Observation::new(OrderStatus::Refunded));
/// assert_eq!(*status.status(), OrderStatus::Refunded);
///
/// // ...and nothing reopens it.
/// let late = Observation::new(OrderStatus::Failed).with_confirmations(1);
/// assert_eq!(*reconcile(&status, &late).status(), OrderStatus::Refunded);
///
/// // Unknown statuses round-trip exactly.
/// let odd: OrderStatus = "waitingForPayout".parse()?;
/// assert_eq!(odd.as_str(), "waitingForPayout");
/// assert!(!odd.is_known());
/// # Ok::<(), swaproute::ParseError>(())
/// ```
#[must_use]
pub fn reconcile(current: &TrackedStatus, observation: &Observation) -> TrackedStatus {
    if current.status.is_final() {
        return current.clone();
    }
    if observation.is_definitive() {
        return TrackedStatus::observed(observation);
    }
    if current.definitive {
        return current.clone();
    }
    if current.status == OrderStatus::InProgress
        || (observation.is_premature_failure() && observation.deposit_confirmations >= 1)
    {
        return TrackedStatus::new(OrderStatus::InProgress, false);
    }
    TrackedStatus::observed(observation)
}

/// Folds [`reconcile`] over `observations`, in order, from `start`.
#[must_use]
pub fn reconcile_all<'a, I>(start: TrackedStatus, observations: I) -> TrackedStatus
where
    I: IntoIterator<Item = &'a Observation>,
{
    observations
        .into_iter()
        .fold(start, |status, observation| reconcile(&status, observation))
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::String;
    use alloc::vec::Vec;
    use OrderStatus::{
        Awaiting, Complete, Delayed, Expired, Failed, InProgress, Refunded, Swapped,
    };

    /// Reconciles from an open (not definitive) `current`.
    fn r(current: &OrderStatus, observation: &Observation) -> OrderStatus {
        reconcile(&TrackedStatus::new(current.clone(), false), observation).into_status()
    }

    fn unknown(text: &str) -> OrderStatus {
        let status = OrderStatus::parse(text).unwrap();
        assert!(!status.is_known());
        status
    }

    fn obs(status: OrderStatus, detected: bool, confirmations: u64) -> Observation {
        Observation::new(status)
            .with_deposit_detected(detected)
            .with_confirmations(confirmations)
    }

    fn all_statuses() -> Vec<OrderStatus> {
        let mut all = OrderStatus::KNOWN.to_vec();
        all.push(unknown("waitingForPayout"));
        all
    }

    #[test]
    fn parses_every_known_status_and_round_trips() {
        let texts = [
            "awaiting",
            "inProgress",
            "complete",
            "expired",
            "failed",
            "refunded",
            "delayed",
            "swapped",
        ];
        for (text, status) in texts.iter().zip(OrderStatus::KNOWN.iter()) {
            assert_eq!(OrderStatus::parse(text).unwrap(), *status);
            assert_eq!(status.as_str(), *text);
            assert_eq!(alloc::format!("{status}"), *text);
            assert_eq!(
                serde_json::to_string(status).unwrap(),
                alloc::format!("\"{text}\"")
            );
            assert!(status.is_known());
        }
    }

    #[test]
    fn unknown_statuses_round_trip_exactly() {
        for text in [
            "Complete",
            "in_progress",
            "INPROGRESS",
            "refunding",
            " complete",
            "ünknown",
            "a b",
        ] {
            let status = unknown(text);
            assert_eq!(status.as_str(), text);
            assert_eq!(text.parse::<OrderStatus>().unwrap(), status);
            let json = serde_json::to_string(&status).unwrap();
            assert_eq!(serde_json::from_str::<OrderStatus>(&json).unwrap(), status);
        }
        assert_eq!(
            alloc::format!("{:?}", unknown("x")),
            "Unknown(UnknownStatus(\"x\"))"
        );
    }

    #[test]
    fn rejects_invalid_status_text() {
        assert_eq!(
            OrderStatus::parse_defect(""),
            Err(InvalidOrderStatus::Empty)
        );
        assert_eq!(
            OrderStatus::parse_defect("a\tb"),
            Err(InvalidOrderStatus::ControlCharacter { at: 1 })
        );
        let at_cap = "s".repeat(MAX_STATUS_LEN);
        assert_eq!(OrderStatus::parse(&at_cap).unwrap().as_str(), at_cap);
        let past_cap: String = "s".repeat(MAX_STATUS_LEN + 1);
        assert_eq!(
            OrderStatus::parse_defect(&past_cap),
            Err(InvalidOrderStatus::TooLong { len: 65 })
        );
        assert!(serde_json::from_str::<OrderStatus>("\"\"").is_err());
        assert!(serde_json::from_str::<OrderStatus>("3").is_err());
    }

    #[test]
    fn complete_is_final() {
        for status in all_statuses() {
            for detected in [false, true] {
                for confirmations in [0, 1, 7] {
                    assert_eq!(
                        r(&Complete, &obs(status.clone(), detected, confirmations)),
                        Complete
                    );
                }
            }
        }
    }

    #[test]
    fn provider_completion_completes_from_any_state() {
        for current in all_statuses() {
            assert_eq!(r(&current, &obs(Complete, false, 0)), Complete);
            assert_eq!(r(&current, &obs(Complete, true, 3)), Complete);
        }
    }

    #[test]
    fn premature_failure_with_a_confirmation_is_in_progress() {
        let open = all_statuses()
            .into_iter()
            .filter(|s| *s != Complete && *s != Refunded);
        for current in open {
            for failure in [Expired, Failed] {
                for confirmations in [1, 2, u64::MAX] {
                    assert_eq!(
                        r(&current, &obs(failure.clone(), false, confirmations)),
                        InProgress
                    );
                }
            }
        }
    }

    #[test]
    fn premature_failure_without_confirmation_is_adopted_unless_in_progress() {
        for current in [Awaiting, Delayed, Swapped, Expired, Failed, unknown("x")] {
            assert_eq!(r(&current, &obs(Expired, false, 0)), Expired);
            assert_eq!(r(&current, &obs(Failed, false, 0)), Failed);
        }
        assert_eq!(r(&InProgress, &obs(Expired, false, 0)), InProgress);
        assert_eq!(r(&InProgress, &obs(Failed, false, 0)), InProgress);
    }

    #[test]
    fn failure_after_detection_is_definitive() {
        for current in all_statuses().into_iter().filter(|s| *s != Complete) {
            for confirmations in [0, 1, 12] {
                assert_eq!(r(&current, &obs(Expired, true, confirmations)), Expired);
                assert_eq!(r(&current, &obs(Failed, true, confirmations)), Failed);
            }
            assert_eq!(r(&current, &obs(Refunded, false, 0)), Refunded);
        }
    }

    #[test]
    fn in_progress_holds_against_every_non_definitive_observation() {
        let non_definitive = [
            obs(Awaiting, false, 0),
            obs(Awaiting, true, 1),
            obs(InProgress, true, 2),
            obs(Delayed, true, 3),
            obs(Swapped, true, 4),
            obs(unknown("payoutPending"), true, 5),
            obs(Expired, false, 0),
            obs(Failed, false, 1),
        ];
        for observation in &non_definitive {
            assert!(!observation.is_definitive());
            assert_eq!(r(&InProgress, observation), InProgress, "{observation:?}");
        }
    }

    #[test]
    fn other_states_follow_the_provider() {
        assert_eq!(r(&Awaiting, &obs(InProgress, true, 1)), InProgress);
        assert_eq!(r(&Awaiting, &obs(Delayed, true, 1)), Delayed);
        assert_eq!(r(&Delayed, &obs(Swapped, true, 9)), Swapped);
        assert_eq!(r(&Swapped, &obs(Awaiting, false, 0)), Awaiting);
        assert_eq!(
            r(&Awaiting, &obs(unknown("kycRequired"), false, 0)),
            unknown("kycRequired")
        );
        assert_eq!(
            r(&unknown("kycRequired"), &obs(Awaiting, false, 0)),
            Awaiting
        );
    }

    #[test]
    fn a_realistic_sequence() {
        let sequence = [
            obs(Awaiting, false, 0),
            obs(Expired, false, 0), // not yet confirmed: expired
            obs(Expired, false, 1), // the deposit confirms: in progress
            obs(Failed, false, 0),  // a lagging read: stays in progress
            obs(Awaiting, false, 0),
            obs(Swapped, true, 6),
            obs(Complete, true, 6),
            obs(Failed, true, 6), // complete is final
        ];
        let mut status = Awaiting;
        let mut trace = Vec::new();
        for observation in &sequence {
            status = r(&status, observation);
            trace.push(String::from(status.as_str()));
        }
        assert_eq!(
            trace,
            [
                "awaiting",
                "expired",
                "inProgress",
                "inProgress",
                "inProgress",
                "inProgress",
                "complete",
                "complete"
            ]
        );
        let start = TrackedStatus::new(Awaiting, false);
        assert_eq!(*reconcile_all(start.clone(), &sequence).status(), Complete);
        assert_eq!(*reconcile_all(start, &sequence[..5]).status(), InProgress);
        let expired = TrackedStatus::new(Expired, false);
        assert_eq!(reconcile_all(expired.clone(), &[]), expired);
    }

    #[test]
    fn idempotent_on_a_grid() {
        for current in all_statuses() {
            for current_detected in [false, true] {
                let current = TrackedStatus::new(current.clone(), current_detected);
                for reported in all_statuses() {
                    for detected in [false, true] {
                        for confirmations in [0, 1, 2] {
                            let observation = obs(reported.clone(), detected, confirmations);
                            let once = reconcile(&current, &observation);
                            assert_eq!(
                                reconcile(&once, &observation),
                                once,
                                "{current:?} {observation:?}"
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn refunded_is_not_reopened() {
        // Ruling 21: the case of issue 14 item 4, and every other open report.
        let refunded = TrackedStatus::new(Refunded, false);
        assert_eq!(
            *reconcile(&refunded, &obs(Failed, false, 1)).status(),
            Refunded
        );
        for reported in [
            Awaiting,
            InProgress,
            Delayed,
            Swapped,
            Expired,
            Failed,
            unknown("x"),
        ] {
            for confirmations in [0, 1, 9] {
                let next = reconcile(&refunded, &obs(reported.clone(), false, confirmations));
                assert_eq!(next, refunded);
            }
        }
        assert_eq!(
            *reconcile(&refunded, &obs(Complete, true, 3)).status(),
            Complete
        );
    }

    #[test]
    fn a_failure_after_detection_is_not_reopened_but_a_premature_one_is() {
        let definitive = TrackedStatus::new(Failed, true);
        let premature = TrackedStatus::new(Failed, false);
        let confirmed = obs(Expired, false, 1);
        assert_eq!(reconcile(&definitive, &confirmed), definitive);
        assert_eq!(*reconcile(&premature, &confirmed).status(), InProgress);
        // A definitive failure may still be refunded.
        let refund = obs(Refunded, true, 1);
        assert_eq!(*reconcile(&definitive, &refund).status(), Refunded);
        assert!(reconcile(&definitive, &refund).is_definitive());
    }
}
