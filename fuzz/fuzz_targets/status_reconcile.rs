//! Arbitrary sequences of provider observations: reconciliation never moves an
//! order out of `complete`, never reopens a definitive status (ruling 21,
//! docs/RULES.md), is idempotent at every step, applies the premature-failure
//! rule, keeps `inProgress` until a definitive observation, and every status
//! round-trips through its text form.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use swaproute::order::{reconcile, reconcile_all, Observation, OrderStatus, TrackedStatus};

#[derive(Arbitrary, Debug)]
enum FuzzStatus {
    Awaiting,
    InProgress,
    Complete,
    Expired,
    Failed,
    Refunded,
    Delayed,
    Swapped,
    Text(String),
}

impl FuzzStatus {
    fn build(&self) -> OrderStatus {
        let text = match self {
            FuzzStatus::Awaiting => "awaiting",
            FuzzStatus::InProgress => "inProgress",
            FuzzStatus::Complete => "complete",
            FuzzStatus::Expired => "expired",
            FuzzStatus::Failed => "failed",
            FuzzStatus::Refunded => "refunded",
            FuzzStatus::Delayed => "delayed",
            FuzzStatus::Swapped => "swapped",
            FuzzStatus::Text(text) => text.as_str(),
        };
        // Invalid text (empty, control characters, too long) falls back to an
        // unknown status that is always valid.
        OrderStatus::parse(text)
            .unwrap_or_else(|_| OrderStatus::parse("providerSpecific").expect("valid"))
    }
}

#[derive(Arbitrary, Debug)]
struct FuzzObservation {
    status: FuzzStatus,
    deposit_detected: bool,
    confirmations: u64,
}

#[derive(Arbitrary, Debug)]
struct Input {
    start: FuzzStatus,
    start_detected: bool,
    observations: Vec<FuzzObservation>,
}

fn is_definitive(observation: &Observation) -> bool {
    match observation.provider_status {
        OrderStatus::Complete | OrderStatus::Refunded => true,
        OrderStatus::Expired | OrderStatus::Failed => observation.deposit_detected,
        _ => false,
    }
}

fuzz_target!(|input: Input| {
    let start = TrackedStatus::new(input.start.build(), input.start_detected);
    let observations: Vec<Observation> = input
        .observations
        .iter()
        .map(|o| {
            Observation::new(o.status.build())
                .with_deposit_detected(o.deposit_detected)
                .with_confirmations(o.confirmations)
        })
        .collect();

    let mut status = start.clone();
    for observation in &observations {
        let text = observation.provider_status.to_string();
        assert_eq!(
            text.parse::<OrderStatus>().expect("display parses"),
            observation.provider_status
        );

        let next = reconcile(&status, observation);
        assert_eq!(
            reconcile(&next, observation),
            next,
            "not idempotent: {status:?} {observation:?}"
        );
        let current = status.status();
        if *current == OrderStatus::Complete || observation.provider_status == OrderStatus::Complete
        {
            assert_eq!(
                next.status(),
                &OrderStatus::Complete,
                "complete regressed: {status:?} {observation:?}"
            );
        } else if is_definitive(observation) {
            assert_eq!(next.status(), &observation.provider_status);
            assert!(next.is_definitive());
        } else if status.is_definitive() {
            assert_eq!(next, status, "reopened: {status:?} {observation:?}");
        } else if *current == OrderStatus::InProgress {
            assert_eq!(
                next.status(),
                &OrderStatus::InProgress,
                "left inProgress: {observation:?}"
            );
        } else if matches!(
            observation.provider_status,
            OrderStatus::Expired | OrderStatus::Failed
        ) && observation.deposit_confirmations >= 1
        {
            assert_eq!(
                next.status(),
                &OrderStatus::InProgress,
                "premature failure: {status:?} {observation:?}"
            );
        } else {
            assert_eq!(next.status(), &observation.provider_status);
            assert!(!next.is_definitive());
        }
        status = next;
    }
    assert_eq!(reconcile_all(start, &observations), status);
});
