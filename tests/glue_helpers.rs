//! Issue 31, item 4: the helpers on `Presence`, `SentDecimal` and
//! `BodyCode`, and the lossless conversions between the amount types.
// The oracle does plain big-integer arithmetic.
#![allow(clippy::arithmetic_side_effects)]

use std::collections::hash_map::DefaultHasher;
use std::collections::HashSet;
use std::hash::{Hash, Hasher};

use swaproute::decimal::{DecimalError, Fixed8};
use swaproute::error::{BodyCode, ErrorCode};
use swaproute::wire::{Presence, SentDecimal};
use swaproute::{Amount, Decimal};

fn dec(text: &str) -> Decimal {
    Decimal::from_str_exact(text).unwrap()
}

fn hash_of<T: Hash>(value: &T) -> u64 {
    let mut hasher = DefaultHasher::new();
    value.hash(&mut hasher);
    hasher.finish()
}

#[test]
fn presence_has_options_helpers() {
    let value: Presence<u32> = Presence::Value(7);
    assert_eq!(value.as_option(), Some(&7));
    assert!(value.is_value() && !value.is_absent() && !value.is_null() && !value.is_empty());
    assert_eq!(value.as_ref(), Presence::Value(&7));
    assert_eq!(value.clone().map(|v| v * 2), Presence::Value(14));
    assert_eq!(Option::from(value.clone()), Some(7));
    assert_eq!(value.into_option(), Some(7));

    for (presence, absent, null, empty) in [
        (Presence::<u32>::Absent, true, false, false),
        (Presence::Null, false, true, false),
        (Presence::Empty, false, false, true),
    ] {
        assert_eq!(presence.as_option(), None);
        assert!(!presence.is_value());
        assert_eq!(
            (
                presence.is_absent(),
                presence.is_null(),
                presence.is_empty()
            ),
            (absent, null, empty)
        );
        // The wire form survives a map: `null` stays `null`, `""` stays `""`.
        let mapped = presence.clone().map(|v| v.to_string());
        let expected = match presence {
            Presence::Absent => Presence::Absent,
            Presence::Null => Presence::Null,
            _ => Presence::Empty,
        };
        assert_eq!(mapped, expected);
        assert_eq!(Option::<u32>::from(presence), None);
    }
    // Written back as it was read, after a map.
    let sent: Presence<String> = serde_json::from_str(r#""""#).unwrap();
    assert_eq!(
        serde_json::to_string(&sent.map(|s| s.len())).unwrap(),
        r#""""#
    );
}

#[test]
fn sent_decimals_compare_and_hash_by_value() {
    let text: SentDecimal = serde_json::from_str(r#""1.50""#).unwrap();
    let number: SentDecimal = serde_json::from_str("1.5").unwrap();
    let other_scale = SentDecimal::Text(dec("1.5000"));
    assert_eq!(text, number);
    assert_eq!(text, other_scale);
    assert_eq!(hash_of(&text), hash_of(&number));
    assert_eq!(hash_of(&text), hash_of(&other_scale));
    let set: HashSet<SentDecimal> = [text, number, other_scale].into_iter().collect();
    assert_eq!(set.len(), 1);
    // The forms are still told apart, and each is written back as sent.
    assert!(text.is_text() && !number.is_text());
    assert_eq!(serde_json::to_string(&text).unwrap(), r#""1.50""#);
    assert_eq!(serde_json::to_string(&number).unwrap(), "1.5");
    // Order by value, consistent with equality.
    let small = SentDecimal::Number(dec("0.9"));
    let big = SentDecimal::Text(dec("10"));
    assert!(small < text && text < big);
    assert_eq!(text.cmp(&number), std::cmp::Ordering::Equal);
    assert_ne!(small, big);
    // Display: the digits as held.
    assert_eq!(text.to_string(), "1.50");
    assert_eq!(number.to_string(), "1.5");
    assert_eq!(SentDecimal::Number(dec("0.83")).to_string(), "0.83");
    assert_eq!(Decimal::from(text), dec("1.5"));
}

#[test]
fn body_codes_compare_with_error_codes() {
    let known: BodyCode = "NOT_FOUND".parse().unwrap();
    let legacy: BodyCode = "RESTRICTED_GEOLOCATION".parse().unwrap();
    let unknown: BodyCode = "QUOTA_EXCEEDED".parse().unwrap();
    assert!(known == ErrorCode::NotFound);
    assert!(ErrorCode::NotFound == known);
    assert!(known != ErrorCode::InvalidRequest);
    assert!(legacy == ErrorCode::RestrictedRegion);
    assert!(ErrorCode::RestrictedRegion == legacy);
    for code in ErrorCode::ALL {
        assert!(unknown != *code);
        let body = BodyCode::from(*code);
        assert!(body == *code);
    }
}

#[test]
fn amounts_convert_without_loss() {
    // Amount -> Fixed8: the value at scale 8, no rounding.
    let half = Amount::parse("0.5").unwrap();
    let fixed = Fixed8::try_from(half).unwrap();
    assert_eq!(fixed.to_string(), "0.50000000");
    assert_eq!(fixed.get(), dec("0.5"));
    assert_eq!(
        Fixed8::try_from(Amount::parse("0.12345678").unwrap())
            .unwrap()
            .to_string(),
        "0.12345678"
    );
    // Nine places by value is refused; nine written places of eight by value is not.
    assert_eq!(
        Fixed8::try_from(Amount::parse("0.123456789").unwrap()),
        Err(DecimalError::TooManyPlaces)
    );
    assert_eq!(
        Fixed8::try_from(dec("0.123456780")).unwrap().to_string(),
        "0.12345678"
    );
    // Too large to write with 8 places: 10^21 needs 30 digits at scale 8.
    assert_eq!(
        Fixed8::try_from(dec("1000000000000000000000")),
        Err(DecimalError::OutOfRange)
    );
    assert_eq!(
        Fixed8::try_from(dec("790000000000000000000"))
            .unwrap()
            .to_string(),
        "790000000000000000000.00000000"
    );
    // Fixed8 -> Amount: the same value; a negative one is refused.
    assert_eq!(Amount::try_from(fixed), Ok(half));
    let negative = Fixed8::floor(dec("-0.1")).unwrap();
    assert_eq!(Amount::try_from(negative), Err(DecimalError::Negative));
    // Into the wire form, as strings.
    let sent = SentDecimal::from(half);
    assert!(sent.is_text());
    assert_eq!(serde_json::to_string(&sent).unwrap(), r#""0.5""#);
    assert_eq!(
        serde_json::to_string(&SentDecimal::from(fixed)).unwrap(),
        r#""0.50000000""#
    );
    // Both into Decimal, and the round trip keeps the value.
    assert_eq!(Decimal::from(fixed), Decimal::from(half));
    assert_eq!(DecimalError::TooManyPlaces.code(), "TOO_MANY_PLACES");
}

/// An order resource says whether the deposit was detected: a status only a
/// detected deposit reaches. `fromTransactionId` is not evidence: the client
/// sets it with PATCH (ruling 47).
#[test]
fn an_order_is_observed_without_guesses() {
    use swaproute::order::{reconcile, Order, OrderStatus, TrackedStatus};
    let order = |status: &str, tx: Option<&str>| -> Order {
        let mut value = serde_json::json!({"id":"o-1","status":status,"pairId":"BTC_ETH"});
        if let Some(tx) = tx {
            value["fromTransactionId"] = tx.into();
        }
        serde_json::from_value(value).unwrap()
    };
    // (status, fromTransactionId, detected), by the rule.
    let cases = [
        ("awaiting", None, false),
        ("awaiting", Some(""), false),
        ("awaiting", Some("tx1"), false),
        ("delayed", None, false),
        ("inProgress", None, true),
        ("swapped", Some(""), true),
        ("complete", None, true),
        ("refunded", None, true),
        ("failed", None, false),
        ("failed", Some(""), false),
        ("failed", Some("tx1"), false),
        ("expired", Some("tx1"), false),
        ("waitingForPayout", None, false),
    ];
    for (status, tx, detected) in cases {
        let order = order(status, tx);
        assert_eq!(order.deposit_detected(), detected, "{status} {tx:?}");
        let observation = order.observation();
        assert_eq!(observation.provider_status.as_str(), status);
        assert_eq!(observation.deposit_detected, detected);
        assert_eq!(observation.deposit_confirmations, 0);
        assert_eq!(
            order.tracked_status(),
            TrackedStatus::new(order.status.clone(), detected)
        );
    }
    // `failed` with the deposit transaction set (by the client's PATCH) is
    // not definitive (ruling 47): adopted as reported from `awaiting`, and
    // `inProgress` once the deposit has a confirmation.
    let awaiting = TrackedStatus::new(OrderStatus::Awaiting, false);
    let patched = order("failed", Some("tx1")).observation();
    let late = reconcile(&awaiting, &patched);
    assert_eq!(
        (late.status(), late.is_definitive()),
        (&OrderStatus::Failed, false)
    );
    let confirmed = reconcile(&awaiting, &patched.clone().with_confirmations(1));
    assert_eq!(
        (confirmed.status(), confirmed.is_definitive()),
        (&OrderStatus::InProgress, false)
    );
    // From `inProgress` (the provider had reported it), a read of `failed`
    // with the deposit transaction set leaves the order in progress.
    let in_progress = TrackedStatus::new(OrderStatus::InProgress, true);
    assert_eq!(
        reconcile(&in_progress, &patched).status(),
        &OrderStatus::InProgress
    );
    let early = reconcile(&awaiting, &order("failed", Some("")).observation());
    assert_eq!(
        (early.status(), early.is_definitive()),
        (&OrderStatus::Failed, false)
    );
}

proptest::proptest! {
    /// `Fixed8::exact` against an oracle in big integers: `m / 10^s` has an
    /// exact 8-place form iff `m × 10^8` is a multiple of `10^s`, and fits
    /// iff that form's mantissa is below 2^96.
    #[test]
    fn fixed8_exact_matches_big_integers(m in proptest::prelude::any::<i64>(), s in 0u32..=28, wide in proptest::prelude::any::<bool>()) {
        use num_bigint::BigInt;
        // Wide mantissas reach the top of Decimal's range.
        let mantissa = if wide { i128::from(m) * 1_000_000 } else { i128::from(m) };
        let value = Decimal::from_i128_with_scale(mantissa, s);
        let scaled = BigInt::from(mantissa) * BigInt::from(10u64).pow(8);
        let unit = BigInt::from(10u64).pow(s);
        let exact = &scaled % &unit == BigInt::from(0);
        let result = Fixed8::exact(value);
        if exact {
            let eight = &scaled / &unit;
            let fits = eight.magnitude() < &(num_bigint::BigUint::from(1u8) << 96);
            if fits {
                let fixed = result.unwrap();
                proptest::prop_assert_eq!(fixed.get(), value);
                proptest::prop_assert_eq!(fixed.get().scale(), 8);
                proptest::prop_assert_eq!(fixed.get().mantissa(), i128::try_from(eight).unwrap());
            } else {
                proptest::prop_assert_eq!(result, Err(DecimalError::OutOfRange));
            }
        } else {
            proptest::prop_assert_eq!(result, Err(DecimalError::TooManyPlaces));
        }
    }
}

#[test]
fn hostile_inputs_are_refused_not_panicked_on() {
    use swaproute::order::ChainQuery;
    use swaproute::route::{InvalidRatesByPair, RatesByPair, MAX_PAIRS_OF_RATES};
    let long = "A".repeat(1 << 20);
    let errors = ChainQuery::from_pairs([
        ("from", long.as_str()),
        ("to", "B"),
        ("fromAmount", long.as_str()),
        ("maxLegs", long.as_str()),
    ])
    .unwrap_err();
    assert_eq!(errors.all().len(), 3);
    assert_eq!(
        errors.first().to_string(),
        "from: id is 1048576 bytes long, more than the 512 allowed"
    );
    // One pair past the cap: refused as too many, the first 16384 kept.
    let entries: Vec<String> = (0..=MAX_PAIRS_OF_RATES)
        .map(|i| format!("\"A{i}_B\":[]"))
        .collect();
    let json = format!("{{{}}}", entries.join(","));
    let error = serde_json::from_str::<RatesByPair>(&json).unwrap_err();
    assert!(
        error
            .to_string()
            .starts_with(&InvalidRatesByPair::TooManyPairs.to_string()),
        "{error}"
    );
    assert_eq!(Fixed8::exact(Decimal::MAX), Err(DecimalError::OutOfRange));
    assert_eq!(
        Fixed8::exact(Decimal::new(1, 28)),
        Err(DecimalError::TooManyPlaces)
    );
}
