//! The order resource in every shape the service sends: current responses
//! with string amounts, older ones with numbers, `toAmount` absent, `null`, an
//! object or a bare value, `extraFeatures`, omitted, `null` and `""` keys,
//! unknown keys and statuses; encoded back to the same JSON value (ruling 22,
//! docs/RULES.md).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects,
    missing_docs
)]

use serde_json::{json, Value};
use swaproute::order::{
    ExtraFeatures, Order, OrderStatus, Presence, SentAmount, SentDecimal, Timestamp, ToAmount,
};
use swaproute::{AssetId, Decimal};

fn d(text: &str) -> Decimal {
    text.parse().unwrap()
}

fn decode(value: &Value) -> Order {
    serde_json::from_value(value.clone()).unwrap_or_else(|e| panic!("{value}: {e}"))
}

/// Decodes `value` and checks it encodes back to exactly `value` (ruling 22).
fn faithful(value: &Value) -> Order {
    let order = decode(value);
    assert_eq!(&round_trip(&order), value);
    order
}

/// Serializes, checks the result decodes to an equal order, returns the JSON.
fn round_trip(order: &Order) -> Value {
    let wire = serde_json::to_value(order).unwrap();
    let again: Order = serde_json::from_value(wire.clone()).unwrap();
    assert_eq!(&again, order, "round trip through {wire}");
    // And from text, as a client would read it.
    let text = serde_json::to_string(order).unwrap();
    let again: Order = serde_json::from_str(&text).unwrap();
    assert_eq!(&again, order);
    wire
}

/// The answer to `POST /v3/orders` (HTTP 201): status `awaiting`, amount as a
/// string, `fromAddress` null, empty tags and transaction ids as `""`.
fn creation_response() -> Value {
    json!({
        "id": "01J3ZK6Q6W9X0B5M2N8P4R7T1V",
        "status": "awaiting",
        "pairId": "BTC_ETH",
        "rateId": "Qm9yZGVyLXJhdGUtMTIz+/==",
        "providerOrderId": "cx-7f3a9@(b!&$)",
        "amount": {"assetId": "BTC", "value": "0.5"},
        "fromAddress": null,
        "fromAddressTag": "",
        "toAddress": "0x52908400098527886E0F7030069857D2E4169EE7",
        "toAddressTag": "",
        "payInAddress": "bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh",
        "payInAddressTag": "",
        "fromTransactionId": "",
        "toTransactionId": "",
        "message": "",
        "createdAt": "2026-07-14T09:30:00.123Z",
        "updatedAt": "2026-07-14T09:30:00.123Z",
        "extraFeatures": {"pid": "p-7781", "stringAmounts": "true"}
    })
}

#[test]
fn creation_response_decodes() {
    let order = decode(&creation_response());
    assert_eq!(order.id.as_str(), "01J3ZK6Q6W9X0B5M2N8P4R7T1V");
    assert_eq!(order.status, OrderStatus::Awaiting);
    assert_eq!(order.pair_id.as_str(), "BTC_ETH");
    assert_eq!(
        order.rate_id.value().unwrap().as_str(),
        "Qm9yZGVyLXJhdGUtMTIz+/=="
    );
    assert_eq!(
        order.provider_order_id.value().unwrap().as_str(),
        "cx-7f3a9@(b!&$)"
    );
    let amount = order.amount.value().unwrap();
    assert_eq!(amount.asset_id.as_str(), "BTC");
    assert_eq!(amount.value, SentDecimal::Text(d("0.5")));
    // Not analyzed yet.
    assert_eq!(order.to_amount, Presence::Absent);
    assert_eq!(order.from_address, Presence::Null);
    // Empty values are kept as "".
    assert_eq!(order.from_address_tag, Presence::Empty);
    assert_eq!(order.pay_in_address_tag, Presence::Empty);
    assert_eq!(order.from_transaction_id, Presence::Empty);
    assert_eq!(order.message, Presence::Empty);
    assert_eq!(
        order.pay_in_address.value().map(String::as_str),
        Some("bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh")
    );
    assert_eq!(
        order.created_at.value().unwrap().as_str(),
        "2026-07-14T09:30:00.123Z"
    );
    assert_eq!(
        order.extra_features,
        Presence::Value(ExtraFeatures {
            pid: Presence::Value("p-7781".to_owned()),
            string_amounts: Presence::Value("true".to_owned()),
        })
    );
    assert!(order.sponsored_by_campaign_id.is_absent());
}

/// Ruling 22: decode → encode gives the same JSON value, `fromAddress: null`
/// and every `""` included.
#[test]
fn creation_response_encodes_back_unchanged() {
    let order = faithful(&creation_response());
    assert!(serde_json::to_value(&order).unwrap()["fromAddress"].is_null());
}

#[test]
fn older_response_with_a_numeric_amount_keeps_its_number() {
    let mut legacy = creation_response();
    legacy["amount"] = json!({"assetId": "BTC", "value": 0.5});
    let order = faithful(&legacy);
    let current = decode(&creation_response());
    // The same value as the string form, written back as a number.
    assert_eq!(
        order.amount.value().unwrap().value.get(),
        current.amount.value().unwrap().value.get()
    );
    assert_eq!(
        order.amount.value().unwrap().value,
        SentDecimal::Number(d("0.5"))
    );

    // A 17-significant-digit double keeps every digit.
    legacy["amount"] = json!({"assetId": "ETH", "value": 33.098_927_169_677_374});
    let order = faithful(&legacy);
    assert_eq!(
        order.amount.value().unwrap().value.get(),
        d("33.098927169677374")
    );
    // An integer stays an integer; a string keeps its own digits.
    legacy["amount"] = json!({"assetId": "ETH", "value": 25});
    faithful(&legacy);
    legacy["amount"] = json!({"assetId": "ETH", "value": "1.50"});
    let order = faithful(&legacy);
    assert_eq!(order.amount.value().unwrap().value.get(), d("1.5"));
}

#[test]
fn to_amount_absent_null_object_or_bare_value() {
    let mut status = creation_response();
    status["status"] = json!("complete");

    // Absent and null: not analyzed yet; each written back as it came.
    assert!(faithful(&status).to_amount.is_absent());
    status["toAmount"] = json!(null);
    let order = faithful(&status);
    assert_eq!(order.to_amount, Presence::Null);
    assert!(order.to_amount.value().is_none());

    // An {assetId, value} object, value as string or number.
    for (value, sent) in [
        (json!("16.43217"), SentDecimal::Text(d("16.43217"))),
        (json!(16.432_17), SentDecimal::Number(d("16.43217"))),
    ] {
        status["toAmount"] = json!({"assetId": "ETH", "value": value});
        let order = faithful(&status);
        assert_eq!(
            order.to_amount,
            Presence::Value(ToAmount::Asset(SentAmount {
                asset_id: AssetId::new("ETH").unwrap(),
                value: sent,
            }))
        );
        assert_eq!(order.to_amount.value().unwrap().value(), d("16.43217"));
    }

    // A bare value, string or number, written back as it came.
    for (value, sent) in [
        (json!("16.43217"), SentDecimal::Text(d("16.43217"))),
        (json!(16.432_17), SentDecimal::Number(d("16.43217"))),
    ] {
        status["toAmount"] = value;
        let order = faithful(&status);
        assert_eq!(order.to_amount, Presence::Value(ToAmount::Value(sent)));
    }
}

#[test]
fn extra_features_shapes() {
    let mut order = creation_response();
    order["extraFeatures"] = json!({"pid": "p-1"});
    let decoded = faithful(&order);
    assert_eq!(
        decoded.extra_features,
        Presence::Value(ExtraFeatures {
            pid: Presence::Value("p-1".to_owned()),
            string_amounts: Presence::Absent,
        })
    );

    order["extraFeatures"] = json!({});
    let decoded = faithful(&order);
    assert_eq!(
        decoded.extra_features,
        Presence::Value(ExtraFeatures::default())
    );

    order["extraFeatures"] = json!({"pid": "", "stringAmounts": null});
    let decoded = faithful(&order);
    assert_eq!(
        decoded.extra_features,
        Presence::Value(ExtraFeatures {
            pid: Presence::Empty,
            string_amounts: Presence::Null,
        })
    );

    // Unknown keys inside are not kept.
    order["extraFeatures"] = json!({"pid": "p-1", "future": 1});
    assert_eq!(
        round_trip(&decode(&order))["extraFeatures"],
        json!({"pid": "p-1"})
    );

    order["extraFeatures"] = json!(null);
    assert_eq!(faithful(&order).extra_features, Presence::Null);
}

#[test]
fn minimal_order_with_every_optional_key_omitted() {
    let minimal = json!({"id": "o-1", "status": "inProgress", "pairId": "ETH_BTC"});
    let order = faithful(&minimal);
    assert_eq!(order.status, OrderStatus::InProgress);
    assert!(order.rate_id.is_absent());
    assert!(order.amount.is_absent());
    assert!(order.to_amount.is_absent());
    assert!(order.to_address.is_absent());
    assert!(order.created_at.is_absent());
    assert!(order.extra_features.is_absent());

    // The same keys sent as null hold no value either, and stay null.
    let nulls = json!({"id": "o-1", "status": "inProgress", "pairId": "ETH_BTC",
        "rateId": null, "providerOrderId": null, "amount": null, "toAmount": null,
        "fromAddress": null, "fromAddressTag": null, "toAddress": null,
        "toAddressTag": null, "payInAddress": null, "payInAddressTag": null,
        "fromTransactionId": null, "toTransactionId": null, "message": null,
        "createdAt": null, "updatedAt": null, "extraFeatures": null,
        "sponsoredByCampaignId": null});
    let with_nulls = faithful(&nulls);
    assert!(with_nulls.rate_id.value().is_none());
    assert!(with_nulls.amount.value().is_none());
    assert_eq!(with_nulls.sponsored_by_campaign_id, Presence::Null);
}

#[test]
fn unknown_keys_are_ignored() {
    let mut order = creation_response();
    order["networkFee"] = json!({"assetId": "ETH", "value": "0.001"});
    order["refundAddress"] = json!("bc1q...");
    order["kyc"] = json!(false);
    order["steps"] = json!([1, 2, 3]);
    assert_eq!(decode(&order), decode(&creation_response()));
    // They are not kept: the order encodes without them.
    assert_eq!(round_trip(&decode(&order)), creation_response());
}

#[test]
fn every_known_status_decodes_and_unknown_ones_round_trip() {
    for (text, status) in [
        ("awaiting", OrderStatus::Awaiting),
        ("inProgress", OrderStatus::InProgress),
        ("complete", OrderStatus::Complete),
        ("expired", OrderStatus::Expired),
        ("failed", OrderStatus::Failed),
        ("refunded", OrderStatus::Refunded),
        ("delayed", OrderStatus::Delayed),
        ("swapped", OrderStatus::Swapped),
    ] {
        let mut order = creation_response();
        order["status"] = json!(text);
        let decoded = faithful(&order);
        assert_eq!(decoded.status, status);
    }
    for unknown in ["pendingReview", "kycRequired", "AWAITING", "in progress"] {
        let mut order = creation_response();
        order["status"] = json!(unknown);
        let decoded = faithful(&order);
        assert!(
            matches!(decoded.status, OrderStatus::Unknown(_)),
            "{unknown} is not a known status"
        );
    }
}

#[test]
fn timestamps_in_iso_8601_forms() {
    for text in [
        "2026-07-14T09:30:00Z",
        "2026-07-14T09:30:00.1Z",
        "2026-07-14T09:30:00.123456Z",
        "2026-07-14T11:30:00+02:00",
        "2026-07-14T04:30:00-05:00",
    ] {
        let mut order = creation_response();
        order["createdAt"] = json!(text);
        order["updatedAt"] = json!(text);
        // Kept verbatim, not normalized.
        let decoded = faithful(&order);
        assert_eq!(decoded.created_at.value().unwrap().as_str(), text);
        assert_eq!(
            decoded.updated_at,
            Presence::Value(Timestamp::new(text).unwrap())
        );
    }
}

#[test]
fn sponsored_order_keeps_its_campaign() {
    let mut order = creation_response();
    order["sponsoredByCampaignId"] = json!("spring-2026");
    let decoded = faithful(&order);
    assert_eq!(
        decoded.sponsored_by_campaign_id.value().unwrap().as_str(),
        "spring-2026"
    );
}

#[test]
fn a_fully_analyzed_order_round_trips_field_for_field() {
    let complete = json!({
        "id": "01J3ZK6Q6W9X0B5M2N8P4R7T1V",
        "status": "complete",
        "pairId": "XRP_BTC",
        "rateId": "r-1",
        "providerOrderId": "p-1",
        "amount": {"assetId": "XRP", "value": "120.000001"},
        "toAmount": {"assetId": "BTC", "value": "0.00210417"},
        "fromAddress": "rEb8TK3gBgk5auZkwc6sHnwrGVJH8DuaLh",
        "fromAddressTag": "3302145",
        "toAddress": "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
        "payInAddress": "rDsbeomae4FXwgQTJp9Rs64Qg9vDiTCdBv",
        "payInAddressTag": "1889224",
        "fromTransactionId": "E3FE6EA3D48F0C2B639448020EA4F03D4F4F8FFDB243A852A0F59177921B4879",
        "toTransactionId": "a1075db55d416d3ca199f55b6084e2115b9345e16c5cf302fc80e9d5fbf5d48d",
        "message": "delivered",
        "createdAt": "2026-07-14T09:30:00.123Z",
        "updatedAt": "2026-07-14T09:58:12Z",
        "extraFeatures": {"pid": "p-7781", "stringAmounts": "true"},
        "sponsoredByCampaignId": "spring-2026"
    });
    let order = faithful(&complete);
    assert_eq!(order.to_amount.value().unwrap().value(), d("0.00210417"));
    assert_eq!(order.amount.value().unwrap().value.get(), d("120.000001"));
}

#[test]
fn malformed_orders_are_refused() {
    let cases = [
        ("id", json!("")),
        ("id", json!(null)),
        ("status", json!("")),
        ("pairId", json!("BTCETH")),
        ("amount", json!({"assetId": "BTC", "value": "1e5"})),
        ("amount", json!({"assetId": "BTC", "value": "abc"})),
        ("amount", json!({"assetId": "BTC"})),
        ("createdAt", json!("2026-07-14 09:30:00")),
        ("createdAt", json!("yesterday")),
    ];
    for (key, value) in cases {
        let mut order = creation_response();
        order[key] = value.clone();
        assert!(
            serde_json::from_value::<Order>(order).is_err(),
            "{key}: {value} should be refused"
        );
    }
    let mut missing_status = creation_response();
    missing_status.as_object_mut().unwrap().remove("status");
    assert!(serde_json::from_value::<Order>(missing_status).is_err());
}

/// Optional order keys may arrive as `""` (a floating order has no rate; a
/// fresh order may have no provider id yet): each decodes as
/// [`Presence::Empty`] and is written back as `""` (ruling 22), including the
/// exact cases of issue 14 (`rateId: ""`, `providerOrderId: ""`).
#[test]
fn empty_string_in_any_string_key_is_kept() {
    for key in [
        "rateId",
        "providerOrderId",
        "sponsoredByCampaignId",
        "createdAt",
        "updatedAt",
    ] {
        let mut order = creation_response();
        order[key] = json!("");
        let decoded = faithful(&order);
        let wire = serde_json::to_value(&decoded).unwrap();
        assert_eq!(wire[key], json!(""), "{key}");
    }
    let mut order = creation_response();
    order["rateId"] = json!("");
    assert_eq!(faithful(&order).rate_id, Presence::Empty);
}
