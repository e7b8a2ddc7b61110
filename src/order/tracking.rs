//! Tracking an order to its outcome, and when to read it next (ruling 50
//! on top of rulings 13, 21 and 47 in docs/RULES.md).
//!
//! A [`Tracker`] folds reads of the order into its reconciled status
//! ([`reconcile`]): a status read, a confirmation count of the deposit
//! transaction (the caller's observation), or a read that failed, which
//! never changes anything. [`Tracker::outcome`] names what the status means
//! for the user, and [`next_poll`] says when to read again: soon after a
//! change, backing off while nothing changes, never once definitive.

use core::fmt;

use super::{reconcile, Observation, OrderStatus, TrackedStatus};
use crate::decimal::Decimal;
use crate::time::EpochMillis;

/// One read of an order, as a tracker sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TrackEvent {
    /// The provider reported this status.
    Status(OrderStatus),
    /// The deposit transaction has this many confirmations (the caller's
    /// own observation of the chain, ruling 47).
    Confirmations(u64),
    /// The read failed (network, 5xx): nothing is learned, nothing changes.
    ReadError,
}

/// What an order's tracked status means for the user.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TrackingOutcome {
    /// `expired`, and no deposit was ever seen (no status past `awaiting`,
    /// no confirmation): nothing to refund. Not definitive (ruling 21): a
    /// late deposit may still reopen it.
    ExpiredUnpaid,
    /// `refunded`: the deposit went back.
    Refunded,
    /// `expired` or `failed` after the provider detected the deposit
    /// (definitive, ruling 21): a refund is due.
    FailedAfterDeposit,
    /// `complete`.
    Completed,
}

impl TrackingOutcome {
    /// `EXPIRED_UNPAID`, `REFUNDED`, `FAILED_AFTER_DEPOSIT`, `COMPLETED`.
    pub fn as_str(self) -> &'static str {
        match self {
            TrackingOutcome::ExpiredUnpaid => "EXPIRED_UNPAID",
            TrackingOutcome::Refunded => "REFUNDED",
            TrackingOutcome::FailedAfterDeposit => "FAILED_AFTER_DEPOSIT",
            TrackingOutcome::Completed => "COMPLETED",
        }
    }
}

impl fmt::Display for TrackingOutcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An order being tracked: its reconciled status, whether the provider has
/// detected the deposit (it reported a status past `awaiting`, ruling 47),
/// the last status it reported, the deposit's confirmations, and when the
/// status last changed.
///
/// ```
/// use swaproute::order::{OrderStatus, TrackEvent, Tracker, TrackingOutcome};
/// use swaproute::EpochMillis;
/// let mut t = Tracker::new(EpochMillis::new(0));
/// t.observe(EpochMillis::new(10), &TrackEvent::Status(OrderStatus::Expired));
/// assert_eq!(t.outcome(), Some(TrackingOutcome::ExpiredUnpaid));
/// // The deposit confirms after all: in progress, not a failure (rulings 13, 47).
/// t.observe(EpochMillis::new(20), &TrackEvent::Confirmations(1));
/// assert_eq!(*t.status().status(), OrderStatus::InProgress);
/// // A failed read changes nothing.
/// assert!(!t.observe(EpochMillis::new(30), &TrackEvent::ReadError));
/// t.observe(EpochMillis::new(40), &TrackEvent::Status(OrderStatus::Complete));
/// assert_eq!(t.outcome(), Some(TrackingOutcome::Completed));
/// assert!(t.status().is_definitive());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tracker {
    status: TrackedStatus,
    detected: bool,
    reported: Option<OrderStatus>,
    confirmations: u64,
    last_change: EpochMillis,
}

impl Tracker {
    /// A new order (`awaiting`, nothing detected), created at `created_at`.
    pub fn new(created_at: EpochMillis) -> Self {
        Tracker {
            status: TrackedStatus::new(OrderStatus::Awaiting, false),
            detected: false,
            reported: None,
            confirmations: 0,
            last_change: created_at,
        }
    }

    /// Folds one read made at `at` into the tracker; `true` when the
    /// reconciled status changed (then [`last_change`](Self::last_change)
    /// is `at`). A [`TrackEvent::ReadError`] never changes anything.
    pub fn observe(&mut self, at: EpochMillis, event: &TrackEvent) -> bool {
        match event {
            TrackEvent::ReadError => return false,
            TrackEvent::Status(status) => {
                self.detected |= past_awaiting(status);
                self.reported = Some(status.clone());
            }
            TrackEvent::Confirmations(count) => self.confirmations = *count,
        }
        let Some(reported) = &self.reported else {
            return false; // confirmations alone: no status to reconcile yet
        };
        let observation = Observation::new(reported.clone())
            .with_deposit_detected(self.detected)
            .with_confirmations(self.confirmations);
        let next = reconcile(&self.status, &observation);
        let changed = next != self.status;
        if changed {
            self.status = next;
            self.last_change = at;
        }
        changed
    }

    /// The reconciled status.
    pub fn status(&self) -> &TrackedStatus {
        &self.status
    }

    /// When the reconciled status last changed (the creation time before
    /// any change).
    pub fn last_change(&self) -> EpochMillis {
        self.last_change
    }

    /// Whether a deposit was ever seen: detected by the provider, or with
    /// at least one confirmation.
    pub fn deposit_seen(&self) -> bool {
        self.detected || self.confirmations >= 1
    }

    /// What the status means for the user, `None` while it is pending.
    pub fn outcome(&self) -> Option<TrackingOutcome> {
        outcome(&self.status, self.deposit_seen())
    }

    /// When to read the order next: [`next_poll`] from this tracker's
    /// status and last change.
    pub fn next_poll(&self, now: EpochMillis, seed: u64) -> Option<EpochMillis> {
        next_poll(now, &self.status, self.last_change, seed)
    }
}

/// A status past `awaiting` (ruling 47): the provider has seen the deposit.
fn past_awaiting(status: &OrderStatus) -> bool {
    matches!(
        status,
        OrderStatus::InProgress
            | OrderStatus::Complete
            | OrderStatus::Refunded
            | OrderStatus::Delayed
            | OrderStatus::Swapped
    )
}

/// The outcome of a tracked status; `deposit_seen` tells an expiry that
/// was never paid from one that was.
pub fn outcome(status: &TrackedStatus, deposit_seen: bool) -> Option<TrackingOutcome> {
    match status.status() {
        OrderStatus::Complete => Some(TrackingOutcome::Completed),
        OrderStatus::Refunded => Some(TrackingOutcome::Refunded),
        OrderStatus::Expired | OrderStatus::Failed if status.is_definitive() => {
            Some(TrackingOutcome::FailedAfterDeposit)
        }
        OrderStatus::Expired if !deposit_seen => Some(TrackingOutcome::ExpiredUnpaid),
        _ => None,
    }
}

/// A completed order's delivery against its promise: the delivered amount
/// (the order's `toAmount` once analyzed) and the realized basis points
/// `(delivered − promised) × 10⁴ / promised`, positive when more was
/// delivered than promised, rounded toward zero to 2 places. `None` when
/// `promised` is not positive or the arithmetic cannot be held.
///
/// ```
/// use swaproute::order::realized_bps;
/// use swaproute::Decimal;
/// let bps = realized_bps(Decimal::new(99, 0), Decimal::new(100, 0));
/// assert_eq!(bps, Some(Decimal::new(-100, 0)));
/// ```
pub fn realized_bps(delivered: Decimal, promised: Decimal) -> Option<Decimal> {
    if promised <= Decimal::ZERO {
        return None;
    }
    let diff = delivered.checked_sub(promised)?;
    let bps = diff
        .checked_mul(Decimal::from(10_000u32))?
        .checked_div(promised)?;
    Some(
        bps.round_dp_with_strategy(2, rust_decimal::RoundingStrategy::ToZero)
            .normalize(),
    )
}

/// The shortest poll interval, right after a change: 2 s.
pub const MIN_POLL_MS: u64 = 2_000;
/// The longest poll interval, after a long quiet time: 2 min.
pub const MAX_POLL_MS: u64 = 120_000;
/// The jitter's bound, in parts per 10 000 of the interval: ±15 %.
pub const JITTER_PER_10K: u64 = 1_500;

/// When to read an order next (ruling 50), a pure function: `None` when
/// `tracked` is definitive (ruling 21: nothing can change it); otherwise
/// `now` plus an interval of half the time since `last_change` (so polls
/// back off geometrically while nothing changes), at least
/// [`MIN_POLL_MS`] and at most [`MAX_POLL_MS`], with a jitter within ±15 %
/// drawn deterministically from `seed`, `now` and `last_change` (the same
/// inputs give the same answer; different seeds spread clients apart).
///
/// ```
/// use swaproute::order::{next_poll, OrderStatus, TrackedStatus};
/// use swaproute::EpochMillis;
/// let waiting = TrackedStatus::new(OrderStatus::Awaiting, false);
/// let at = |ms| EpochMillis::new(ms);
/// let soon = next_poll(at(1_000), &waiting, at(1_000), 7).unwrap().as_millis() - 1_000;
/// assert!((1_700..=2_300).contains(&soon)); // 2 s ± 15 %
/// let later = next_poll(at(61_000), &waiting, at(1_000), 7).unwrap().as_millis() - 61_000;
/// assert!((25_500..=34_500).contains(&later)); // 30 s ± 15 %
/// let done = TrackedStatus::new(OrderStatus::Complete, true);
/// assert_eq!(next_poll(at(1_000), &done, at(1_000), 7), None);
/// ```
pub fn next_poll(
    now: EpochMillis,
    tracked: &TrackedStatus,
    last_change: EpochMillis,
    seed: u64,
) -> Option<EpochMillis> {
    if tracked.is_definitive() {
        return None;
    }
    let quiet = now.millis_since(last_change).unwrap_or(0);
    let base = (quiet / 2).clamp(MIN_POLL_MS, MAX_POLL_MS);
    // A draw in [0, 2 × JITTER] from the inputs, centred on JITTER.
    let mixed =
        splitmix64(seed ^ splitmix64(now.as_millis() ^ splitmix64(last_change.as_millis())));
    let draw = mixed
        .checked_rem(2 * JITTER_PER_10K + 1)
        .unwrap_or(JITTER_PER_10K);
    // base ≤ 120 000, factor ≤ 11 500: the product fits easily.
    let factor = (10_000 - JITTER_PER_10K).saturating_add(draw);
    let interval = base
        .saturating_mul(factor)
        .checked_div(10_000)
        .unwrap_or(base);
    Some(now.saturating_add(interval))
}

/// SplitMix64's finalizer: a fixed bijective mix of 64 bits.
fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;
    use OrderStatus::{Awaiting, Complete, Expired, Failed, InProgress, Refunded};

    fn run(events: &[TrackEvent]) -> Tracker {
        let mut t = Tracker::new(EpochMillis::new(0));
        for (i, e) in events.iter().enumerate() {
            t.observe(EpochMillis::new(i as u64 * 10 + 10), e);
        }
        t
    }

    #[test]
    fn outcomes_by_hand() {
        use TrackEvent::{Confirmations as C, ReadError as E, Status as S};
        assert_eq!(
            run(&[S(Expired)]).outcome(),
            Some(TrackingOutcome::ExpiredUnpaid)
        );
        assert_eq!(
            run(&[S(InProgress), S(Failed)]).outcome(),
            Some(TrackingOutcome::FailedAfterDeposit)
        );
        assert_eq!(
            run(&[S(InProgress), S(Expired)]).outcome(),
            Some(TrackingOutcome::FailedAfterDeposit)
        );
        assert_eq!(
            run(&[S(Awaiting), S(Refunded)]).outcome(),
            Some(TrackingOutcome::Refunded)
        );
        assert_eq!(
            run(&[S(Complete), S(Failed)]).outcome(),
            Some(TrackingOutcome::Completed)
        );
        // A premature expiry with a confirmed deposit is in progress.
        let t = run(&[S(Expired), C(2)]);
        assert_eq!(*t.status().status(), InProgress);
        assert_eq!(t.outcome(), None);
        // Read errors change nothing, including the last change.
        let t = run(&[S(Awaiting), E, E]);
        assert_eq!(*t.status().status(), Awaiting);
        assert_eq!(t.last_change(), EpochMillis::new(0));
        // A failure before any deposit is not an outcome yet.
        assert_eq!(run(&[S(Failed)]).outcome(), None);
    }

    #[test]
    fn polls_back_off_and_jitter_stays_within_15_percent() {
        let waiting = TrackedStatus::new(Awaiting, false);
        for seed in 0..200u64 {
            for (quiet, base) in [
                (0u64, 2_000u64),
                (10_000, 5_000),
                (100_000, 50_000),
                (10_000_000, 120_000),
            ] {
                let now = EpochMillis::new(1_000_000 + quiet);
                let next = next_poll(now, &waiting, EpochMillis::new(1_000_000), seed).unwrap();
                let wait = next.as_millis() - now.as_millis();
                assert!(
                    wait * 100 >= base * 85 && wait * 100 <= base * 115,
                    "{seed} {quiet} {wait}"
                );
            }
        }
        let a = next_poll(EpochMillis::new(5), &waiting, EpochMillis::new(0), 1);
        assert_eq!(
            a,
            next_poll(EpochMillis::new(5), &waiting, EpochMillis::new(0), 1)
        );
        assert_eq!(
            next_poll(
                EpochMillis::new(5),
                &TrackedStatus::new(Refunded, false),
                EpochMillis::new(0),
                1
            ),
            None
        );
    }

    #[test]
    fn realized_by_hand() {
        assert_eq!(
            realized_bps(Decimal::new(101, 0), Decimal::new(100, 0)),
            Some(Decimal::new(100, 0))
        );
        assert_eq!(realized_bps(Decimal::ONE, Decimal::ZERO), None);
    }
}
