//! Order statuses and status reconciliation (DESIGN ruling 13).
//!
//! See [`reconcile`] for the rules and an example.

use alloc::boxed::Box;
use core::fmt;
use core::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The longest status text accepted, in bytes (DESIGN ruling 17). The known
/// statuses are at most 10 bytes.
pub const MAX_STATUS_LEN: usize = 64;

/// Why a text is not an order status.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum InvalidOrderStatus {
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

/// A status the crate does not know, kept exactly as the service sent it.
///
/// Only [`OrderStatus`]'s parser creates one, so it never spells a known
/// status: `"complete"` is always [`OrderStatus::Complete`], while `"Complete"`
/// (matching is case-sensitive) is unknown.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct UnknownStatus(Box<str>);

impl UnknownStatus {
    /// The status text, exactly as received.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for UnknownStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "UnknownStatus({:?})", &*self.0)
    }
}

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
    /// [`InvalidOrderStatus`] when `text` is empty, longer than
    /// [`MAX_STATUS_LEN`] bytes or contains a control character.
    pub fn parse(text: &str) -> Result<Self, InvalidOrderStatus> {
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
                return check_unknown(text)
                    .map(|()| OrderStatus::Unknown(UnknownStatus(text.into())))
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

fn check_unknown(text: &str) -> Result<(), InvalidOrderStatus> {
    if text.is_empty() {
        return Err(InvalidOrderStatus::Empty);
    }
    if text.len() > MAX_STATUS_LEN {
        return Err(InvalidOrderStatus::TooLong { len: text.len() });
    }
    match text.char_indices().find(|(_, c)| c.is_control()) {
        Some((at, _)) => Err(InvalidOrderStatus::ControlCharacter { at }),
        None => Ok(()),
    }
}

impl fmt::Display for OrderStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for OrderStatus {
    type Err = InvalidOrderStatus;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        OrderStatus::parse(s)
    }
}

impl TryFrom<&str> for OrderStatus {
    type Error = InvalidOrderStatus;
    fn try_from(s: &str) -> Result<Self, Self::Error> {
        OrderStatus::parse(s)
    }
}

impl Serialize for OrderStatus {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for OrderStatus {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl serde::de::Visitor<'_> for Visitor {
            type Value = OrderStatus;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an order status such as \"inProgress\"")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<OrderStatus, E> {
                OrderStatus::parse(v).map_err(E::custom)
            }
        }
        deserializer.deserialize_str(Visitor)
    }
}

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

    /// `true` when the observation settles the order: the provider reports
    /// `complete` or `refunded`, or `expired`/`failed` after it detected the
    /// deposit.
    pub fn is_definitive(&self) -> bool {
        match self.provider_status {
            OrderStatus::Complete | OrderStatus::Refunded => true,
            OrderStatus::Expired | OrderStatus::Failed => self.deposit_detected,
            _ => false,
        }
    }

    /// `true` when the provider reports `expired` or `failed` without having
    /// detected the deposit.
    pub fn is_premature_failure(&self) -> bool {
        self.provider_status.is_failure() && !self.deposit_detected
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
/// | 3 | any | *definitive*: `refunded`, or `expired`/`failed` reported after the provider detected the deposit | the reported status |
/// | 4 | `inProgress` | anything else | `inProgress` |
/// | 5 | any | `expired`/`failed` before the provider detected the deposit, deposit has ≥ 1 confirmation | `inProgress` |
/// | 6 | any | anything else | the reported status |
///
/// Rule 4 is how the order "stays `inProgress` until a definitive status
/// arrives": the function sees one observation at a time and cannot tell why
/// the order is `inProgress`, so *no* non-definitive observation moves an
/// `inProgress` order, whatever the confirmation count (a later read may
/// report 0 confirmations, e.g. after a reorg or from a lagging node, and a
/// deposit once seen must not turn into a failure), and whatever the status
/// (`awaiting`, `delayed`, `swapped`, an unknown status, or a premature
/// `expired`/`failed`). From any other state, a premature failure with 0
/// confirmations is adopted as reported: there is no sign of a deposit.
///
/// Unknown provider statuses ([`OrderStatus::Unknown`]) are not definitive:
/// they are adopted verbatim by rule 6 unless the order is `complete` or
/// `inProgress`.
///
/// Reconciliation is idempotent: `reconcile(&reconcile(s, o), o) == reconcile(s, o)`.
///
/// ```
/// use swaproute::order::{reconcile, Observation, OrderStatus};
///
/// // The provider gives up before seeing the deposit, but it has a confirmation.
/// let premature = Observation::new(OrderStatus::Expired).with_confirmations(1);
/// let status = reconcile(&OrderStatus::Awaiting, &premature);
/// assert_eq!(status, OrderStatus::InProgress);
///
/// // It stays in progress until a definitive status arrives...
/// let status = reconcile(&status, &Observation::new(OrderStatus::Failed));
/// assert_eq!(status, OrderStatus::InProgress);
/// let status = reconcile(&status, &Observation::new(OrderStatus::Complete));
/// assert_eq!(status, OrderStatus::Complete);
///
/// // ...and complete is final.
/// let status = reconcile(&status, &Observation::new(OrderStatus::Refunded).with_deposit_detected(true));
/// assert_eq!(status, OrderStatus::Complete);
///
/// // Unknown statuses round-trip exactly.
/// let odd: OrderStatus = "waitingForPayout".parse()?;
/// assert_eq!(odd.as_str(), "waitingForPayout");
/// assert!(!odd.is_known());
/// # Ok::<(), swaproute::order::InvalidOrderStatus>(())
/// ```
#[must_use]
pub fn reconcile(current: &OrderStatus, observation: &Observation) -> OrderStatus {
    if current.is_final() || observation.provider_status.is_final() {
        return OrderStatus::Complete;
    }
    if observation.is_definitive() {
        return observation.provider_status.clone();
    }
    if *current == OrderStatus::InProgress
        || (observation.is_premature_failure() && observation.deposit_confirmations >= 1)
    {
        return OrderStatus::InProgress;
    }
    observation.provider_status.clone()
}

/// Folds [`reconcile`] over `observations`, in order, from `start`.
#[must_use]
pub fn reconcile_all<'a, I>(start: OrderStatus, observations: I) -> OrderStatus
where
    I: IntoIterator<Item = &'a Observation>,
{
    observations
        .into_iter()
        .fold(start, |status, observation| reconcile(&status, observation))
}

#[cfg(test)]
#[allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]
mod tests {
    use super::*;
    use alloc::string::String;
    use alloc::vec::Vec;
    use OrderStatus::{
        Awaiting, Complete, Delayed, Expired, Failed, InProgress, Refunded, Swapped,
    };

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
        assert_eq!(OrderStatus::parse(""), Err(InvalidOrderStatus::Empty));
        assert_eq!(
            OrderStatus::parse("a\tb"),
            Err(InvalidOrderStatus::ControlCharacter { at: 1 })
        );
        let at_cap = "s".repeat(MAX_STATUS_LEN);
        assert_eq!(OrderStatus::parse(&at_cap).unwrap().as_str(), at_cap);
        let past_cap: String = "s".repeat(MAX_STATUS_LEN + 1);
        assert_eq!(
            OrderStatus::parse(&past_cap),
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
                        reconcile(&Complete, &obs(status.clone(), detected, confirmations)),
                        Complete
                    );
                }
            }
        }
    }

    #[test]
    fn provider_completion_completes_from_any_state() {
        for current in all_statuses() {
            assert_eq!(reconcile(&current, &obs(Complete, false, 0)), Complete);
            assert_eq!(reconcile(&current, &obs(Complete, true, 3)), Complete);
        }
    }

    #[test]
    fn premature_failure_with_a_confirmation_is_in_progress() {
        for current in all_statuses().into_iter().filter(|s| *s != Complete) {
            for failure in [Expired, Failed] {
                for confirmations in [1, 2, u64::MAX] {
                    assert_eq!(
                        reconcile(&current, &obs(failure.clone(), false, confirmations)),
                        InProgress
                    );
                }
            }
        }
    }

    #[test]
    fn premature_failure_without_confirmation_is_adopted_unless_in_progress() {
        for current in [
            Awaiting,
            Delayed,
            Swapped,
            Expired,
            Failed,
            Refunded,
            unknown("x"),
        ] {
            assert_eq!(reconcile(&current, &obs(Expired, false, 0)), Expired);
            assert_eq!(reconcile(&current, &obs(Failed, false, 0)), Failed);
        }
        assert_eq!(reconcile(&InProgress, &obs(Expired, false, 0)), InProgress);
        assert_eq!(reconcile(&InProgress, &obs(Failed, false, 0)), InProgress);
    }

    #[test]
    fn failure_after_detection_is_definitive() {
        for current in all_statuses().into_iter().filter(|s| *s != Complete) {
            for confirmations in [0, 1, 12] {
                assert_eq!(
                    reconcile(&current, &obs(Expired, true, confirmations)),
                    Expired
                );
                assert_eq!(
                    reconcile(&current, &obs(Failed, true, confirmations)),
                    Failed
                );
            }
            assert_eq!(reconcile(&current, &obs(Refunded, false, 0)), Refunded);
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
            assert_eq!(
                reconcile(&InProgress, observation),
                InProgress,
                "{observation:?}"
            );
        }
    }

    #[test]
    fn other_states_follow_the_provider() {
        assert_eq!(reconcile(&Awaiting, &obs(InProgress, true, 1)), InProgress);
        assert_eq!(reconcile(&Awaiting, &obs(Delayed, true, 1)), Delayed);
        assert_eq!(reconcile(&Delayed, &obs(Swapped, true, 9)), Swapped);
        assert_eq!(reconcile(&Swapped, &obs(Awaiting, false, 0)), Awaiting);
        assert_eq!(reconcile(&Refunded, &obs(Awaiting, false, 0)), Awaiting);
        assert_eq!(
            reconcile(&Awaiting, &obs(unknown("kycRequired"), false, 0)),
            unknown("kycRequired")
        );
        assert_eq!(
            reconcile(&unknown("kycRequired"), &obs(Awaiting, false, 0)),
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
            status = reconcile(&status, observation);
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
        assert_eq!(reconcile_all(Awaiting, &sequence), Complete);
        assert_eq!(reconcile_all(Awaiting, &sequence[..5]), InProgress);
        assert_eq!(reconcile_all(Expired, &[]), Expired);
    }

    #[test]
    fn idempotent_on_a_grid() {
        for current in all_statuses() {
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
