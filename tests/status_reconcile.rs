//! Property tests of order status reconciliation (rulings 13 and 21,
//! docs/RULES.md) and of the order status text form. Case counts follow `PROPTEST_CASES`.
#![allow(clippy::arithmetic_side_effects)]

use proptest::prelude::*;
use swaproute::order::{
    reconcile, reconcile_all, Observation, OrderStatus, TrackedStatus, MAX_STATUS_LEN,
};

const KNOWN_TEXTS: [&str; 8] = [
    "awaiting",
    "inProgress",
    "complete",
    "expired",
    "failed",
    "refunded",
    "delayed",
    "swapped",
];

/// Any status: mostly known ones, sometimes an unknown one.
fn status() -> impl Strategy<Value = OrderStatus> {
    prop_oneof![
        6 => proptest::sample::select(KNOWN_TEXTS.to_vec()).prop_map(|t| t.parse().unwrap()),
        1 => "[a-zA-Z][a-zA-Z _-]{0,20}".prop_map(|t| t.parse().unwrap()),
    ]
}

fn observation() -> impl Strategy<Value = Observation> {
    (
        status(),
        any::<bool>(),
        prop_oneof![Just(0_u64), Just(1), 0_u64..5, any::<u64>()],
    )
        .prop_map(|(status, detected, confirmations)| {
            Observation::new(status)
                .with_deposit_detected(detected)
                .with_confirmations(confirmations)
        })
}

/// Any tracked status: a status and whether the deposit was detected when it
/// was reached.
fn tracked() -> impl Strategy<Value = TrackedStatus> {
    (status(), any::<bool>()).prop_map(|(status, detected)| TrackedStatus::new(status, detected))
}

/// Ruling 21 on wire texts: is this report definitive?
fn definitive_text(reported: &str, detected: bool) -> bool {
    let failure = reported == "expired" || reported == "failed";
    reported == "complete" || reported == "refunded" || (failure && detected)
}

/// An independent statement of the rules, written as a plain case analysis on
/// the wire texts rather than on the crate's helpers: `(status, definitive)`.
fn model(
    current: (&str, bool),
    reported: &str,
    detected: bool,
    confirmations: u64,
) -> (String, bool) {
    let (current, current_definitive) = current;
    let failure = reported == "expired" || reported == "failed";
    let definitive = definitive_text(reported, detected);
    let (next, next_definitive) = if current == "complete" {
        ("complete", true)
    } else if definitive {
        (reported, true)
    } else if current_definitive {
        (current, true)
    } else if current == "inProgress" || (failure && !detected && confirmations > 0) {
        ("inProgress", false)
    } else {
        (reported, false)
    };
    (next.to_owned(), next_definitive)
}

proptest! {
    #[test]
    fn matches_the_model(current in tracked(), obs in observation()) {
        let next = reconcile(&current, &obs);
        let expected = model(
            (current.status().as_str(), current.is_definitive()),
            obs.provider_status.as_str(),
            obs.deposit_detected,
            obs.deposit_confirmations,
        );
        prop_assert_eq!((next.status().as_str(), next.is_definitive()), (expected.0.as_str(), expected.1));
    }

    #[test]
    fn tracked_status_flag_follows_ruling_21(status in status(), detected in any::<bool>()) {
        let tracked = TrackedStatus::new(status.clone(), detected);
        prop_assert_eq!(tracked.is_definitive(), definitive_text(status.as_str(), detected));
        prop_assert_eq!(tracked.into_status(), status);
    }

    #[test]
    fn complete_never_regresses(start in tracked(), observations in proptest::collection::vec(observation(), 0..40)) {
        let mut status = start.clone();
        let mut completed = *status.status() == OrderStatus::Complete;
        for obs in &observations {
            status = reconcile(&status, obs);
            completed |= obs.provider_status == OrderStatus::Complete;
            if completed {
                prop_assert_eq!(status.status(), &OrderStatus::Complete);
            }
        }
        prop_assert_eq!(reconcile_all(start, &observations), status);
    }

    /// Ruling 21: once definitive, always definitive; the status changes only
    /// to what a definitive observation reports.
    #[test]
    fn nothing_reopens_a_definitive_status(
        start in tracked(),
        observations in proptest::collection::vec(observation(), 0..40),
    ) {
        let mut status = start;
        for obs in &observations {
            let before = status.clone();
            status = reconcile(&status, obs);
            if before.is_definitive() {
                prop_assert!(status.is_definitive());
                if !definitive_text(obs.provider_status.as_str(), obs.deposit_detected) {
                    prop_assert_eq!(&status, &before);
                }
            }
        }
    }

    #[test]
    fn premature_failure_with_a_confirmation_is_in_progress(
        current in status().prop_filter("open", |s| !matches!(s, OrderStatus::Complete | OrderStatus::Refunded)),
        expired in any::<bool>(),
        confirmations in 1_u64..,
    ) {
        let reported = if expired { OrderStatus::Expired } else { OrderStatus::Failed };
        let obs = Observation::new(reported).with_confirmations(confirmations);
        let next = reconcile(&TrackedStatus::new(current, false), &obs);
        prop_assert_eq!(next.status(), &OrderStatus::InProgress);
    }

    #[test]
    fn in_progress_stays_until_a_definitive_status(
        current in status().prop_filter("open", |s| !matches!(s, OrderStatus::Complete | OrderStatus::Refunded)),
        expired in any::<bool>(),
        confirmations in 1_u64..100,
        later in proptest::collection::vec(observation(), 0..30),
    ) {
        let reported = if expired { OrderStatus::Expired } else { OrderStatus::Failed };
        let first = Observation::new(reported).with_confirmations(confirmations);
        let mut status = reconcile(&TrackedStatus::new(current, false), &first);
        prop_assert_eq!(status.status(), &OrderStatus::InProgress);
        for obs in &later {
            let definitive = definitive_text(obs.provider_status.as_str(), obs.deposit_detected);
            status = reconcile(&status, obs);
            if definitive {
                prop_assert_eq!(status.status(), &obs.provider_status);
                break;
            }
            prop_assert_eq!(status.status(), &OrderStatus::InProgress);
        }
    }

    #[test]
    fn idempotent(current in tracked(), obs in observation()) {
        let once = reconcile(&current, &obs);
        prop_assert_eq!(reconcile(&once, &obs), once);
    }

    #[test]
    fn parse_display_round_trip(text in "\\PC{0,80}") {
        match text.parse::<OrderStatus>() {
            Ok(status) => {
                prop_assert_eq!(status.to_string(), text.clone());
                prop_assert_eq!(status.is_known(), KNOWN_TEXTS.contains(&text.as_str()));
                let json = serde_json::to_string(&status).unwrap();
                prop_assert_eq!(serde_json::from_str::<OrderStatus>(&json).unwrap(), status);
            }
            Err(_) => prop_assert!(text.is_empty() || text.len() > MAX_STATUS_LEN),
        }
    }

    #[test]
    fn display_parse_round_trip(status in status()) {
        prop_assert_eq!(status.to_string().parse::<OrderStatus>().unwrap(), status);
    }

    #[test]
    fn arbitrary_text_never_panics(text in any::<String>()) {
        if let Ok(status) = text.parse::<OrderStatus>() {
            prop_assert_eq!(status.as_str(), text.as_str());
        }
    }
}

/// Issue 14 item 4: `reconcile(refunded, failed before deposit detected, 1
/// confirmation)` must stay `refunded` (ruling 21), not answer `inProgress`.
#[test]
fn refunded_stays_refunded_after_a_premature_failure() {
    let refunded = TrackedStatus::new(OrderStatus::Refunded, false);
    let late_failure = Observation::new(OrderStatus::Failed)
        .with_deposit_detected(false)
        .with_confirmations(1);
    let next = reconcile(&refunded, &late_failure);
    assert_eq!(next.status(), &OrderStatus::Refunded);
    assert!(next.is_definitive());
}

/// A failure reported after deposit detection is definitive: a later premature
/// report with a confirmation does not reopen it, while the same report after
/// a premature failure does.
#[test]
fn only_a_premature_failure_gives_way_to_a_confirmed_deposit() {
    let confirmed = Observation::new(OrderStatus::Expired).with_confirmations(2);
    let after_detection = TrackedStatus::new(OrderStatus::Failed, true);
    assert_eq!(
        reconcile(&after_detection, &confirmed).status(),
        &OrderStatus::Failed
    );
    let before_detection = TrackedStatus::new(OrderStatus::Failed, false);
    assert_eq!(
        reconcile(&before_detection, &confirmed).status(),
        &OrderStatus::InProgress
    );
}

#[test]
fn complete_then_anything_stays_complete() {
    for text in KNOWN_TEXTS {
        for detected in [false, true] {
            let obs = Observation::new(text.parse().unwrap())
                .with_deposit_detected(detected)
                .with_confirmations(3);
            let complete = TrackedStatus::new(OrderStatus::Complete, false);
            assert_eq!(reconcile(&complete, &obs), complete);
        }
    }
}

#[test]
fn serde_wire_names() {
    let statuses: Vec<OrderStatus> = serde_json::from_str(
        r#"["awaiting","inProgress","complete","expired","failed","refunded","delayed","swapped","kycPending"]"#,
    )
    .unwrap();
    assert_eq!(statuses[1], OrderStatus::InProgress);
    assert!(!statuses[8].is_known());
    assert_eq!(
        serde_json::to_string(&statuses).unwrap(),
        r#"["awaiting","inProgress","complete","expired","failed","refunded","delayed","swapped","kycPending"]"#
    );
}

#[test]
fn public_types_are_send_and_sync() {
    fn check<T: Send + Sync>() {}
    check::<OrderStatus>();
    check::<Observation>();
    check::<TrackedStatus>();
    check::<swaproute::order::UnknownStatus>();
    check::<swaproute::order::TransactionId>();
    check::<swaproute::order::DepositTransactionUpdate>();
    check::<swaproute::order::TransactionIdAlreadySet>();
}

#[test]
fn deposit_transaction_id_is_set_once() {
    use swaproute::order::{DepositTransactionUpdate, TransactionId};
    use swaproute::{ApiError, OrderId};

    let update: DepositTransactionUpdate =
        serde_json::from_str(r#"{"transactionId":"5f2c1e"}"#).unwrap();
    let stored = update.apply(None).unwrap();
    assert_eq!(stored, TransactionId::new("5f2c1e").unwrap());

    let other: DepositTransactionUpdate =
        serde_json::from_str(r#"{"transactionId":"77aa"}"#).unwrap();
    for (attempt, same) in [(&other, false), (&update, true)] {
        let refused = attempt.apply(Some(&stored)).unwrap_err();
        assert_eq!(refused.same_value(), same);
        let error = ApiError::from(refused).with_order_id(OrderId::new("ord_1").unwrap());
        let body = serde_json::to_value(&error).unwrap();
        assert_eq!(body["status"], 412);
        assert_eq!(body["code"], "PRECONDITION_FAILED");
        assert_eq!(body["orderId"], "ord_1");
    }

    for bad in [
        r#"{"transactionId":""}"#,
        r#"{"transactionId":null}"#,
        "{}",
        r#"{"transactionId":"a b"}"#,
    ] {
        assert!(
            serde_json::from_str::<DepositTransactionUpdate>(bad).is_err(),
            "{bad}"
        );
    }
}
