//! The order resource in every shape the service sends (DESIGN §3): current
//! responses with string amounts, older ones with numbers, `toAmount` absent,
//! `null`, an object or a bare value, `extraFeatures`, omitted and `""` keys,
//! unknown keys and statuses; serialized back in the current shape.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects,
    missing_docs
)]

use serde_json::{json, Value};
use swaproute::order::{ExtraFeatures, Order, OrderStatus, Timestamp, ToAmount};
use swaproute::{AssetAmount, AssetId, Decimal};

fn d(text: &str) -> Decimal {
    text.parse().unwrap()
}

fn decode(value: &Value) -> Order {
    serde_json::from_value(value.clone()).unwrap_or_else(|e| panic!("{value}: {e}"))
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
        order.rate_id.as_ref().unwrap().as_str(),
        "Qm9yZGVyLXJhdGUtMTIz+/=="
    );
    assert_eq!(
        order.provider_order_id.as_ref().unwrap().as_str(),
        "cx-7f3a9@(b!&$)"
    );
    let amount = order.amount.as_ref().unwrap();
    assert_eq!(amount.asset_id.as_str(), "BTC");
    assert_eq!(amount.value, d("0.5"));
    // Not analyzed yet.
    assert!(order.to_amount.is_none());
    assert!(order.from_address.is_none());
    // Empty values are kept as "".
    assert_eq!(order.from_address_tag.as_deref(), Some(""));
    assert_eq!(order.pay_in_address_tag.as_deref(), Some(""));
    assert_eq!(order.from_transaction_id.as_deref(), Some(""));
    assert_eq!(order.message.as_deref(), Some(""));
    assert_eq!(
        order.pay_in_address.as_deref(),
        Some("bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh")
    );
    assert_eq!(
        order.created_at.as_ref().unwrap().as_str(),
        "2026-07-14T09:30:00.123Z"
    );
    assert_eq!(
        order.extra_features,
        Some(ExtraFeatures {
            pid: Some("p-7781".to_owned()),
            string_amounts: Some("true".to_owned()),
        })
    );
    assert!(order.sponsored_by_campaign_id.is_none());
}

#[test]
fn creation_response_serializes_in_the_current_shape() {
    let order = decode(&creation_response());
    let wire = round_trip(&order);
    // `fromAddress: null` is omitted (optional keys are omitted, not null);
    // "" values are kept; the amount value is a string.
    let mut expected = creation_response();
    expected.as_object_mut().unwrap().remove("fromAddress");
    assert_eq!(wire, expected);
}

#[test]
fn older_response_with_a_numeric_amount_decodes_to_the_same_value() {
    let mut legacy = creation_response();
    legacy["amount"] = json!({"assetId": "BTC", "value": 0.5});
    let order = decode(&legacy);
    assert_eq!(order, decode(&creation_response()));
    // Written back as a string.
    assert_eq!(
        round_trip(&order)["amount"],
        json!({"assetId": "BTC", "value": "0.5"})
    );

    // A 17-significant-digit double keeps every digit.
    legacy["amount"] = json!({"assetId": "ETH", "value": 33.098_927_169_677_374});
    let order = decode(&legacy);
    assert_eq!(
        order.amount.as_ref().unwrap().value,
        d("33.098927169677374")
    );
    assert_eq!(
        round_trip(&order)["amount"]["value"],
        json!("33.098927169677374")
    );
}

#[test]
fn to_amount_absent_null_object_or_bare_value() {
    let mut status = creation_response();
    status["status"] = json!("complete");

    // Absent and null: not analyzed yet.
    assert!(decode(&status).to_amount.is_none());
    status["toAmount"] = json!(null);
    let order = decode(&status);
    assert!(order.to_amount.is_none());
    assert!(round_trip(&order).get("toAmount").is_none());

    // An {assetId, value} object, value as string or number.
    for value in [json!("16.43217"), json!(16.432_17)] {
        status["toAmount"] = json!({"assetId": "ETH", "value": value});
        let order = decode(&status);
        assert_eq!(
            order.to_amount,
            Some(ToAmount::Asset(AssetAmount::new(
                AssetId::new("ETH").unwrap(),
                d("16.43217")
            )))
        );
        assert_eq!(order.to_amount.as_ref().unwrap().value(), d("16.43217"));
        assert_eq!(
            round_trip(&order)["toAmount"],
            json!({"assetId": "ETH", "value": "16.43217"})
        );
    }

    // A bare value, string or number; written back as a bare string.
    for value in [json!("16.43217"), json!(16.432_17)] {
        status["toAmount"] = value;
        let order = decode(&status);
        assert_eq!(order.to_amount, Some(ToAmount::Value(d("16.43217"))));
        assert_eq!(round_trip(&order)["toAmount"], json!("16.43217"));
    }
}

#[test]
fn extra_features_shapes() {
    let mut order = creation_response();
    order["extraFeatures"] = json!({"pid": "p-1"});
    let decoded = decode(&order);
    assert_eq!(
        decoded.extra_features,
        Some(ExtraFeatures {
            pid: Some("p-1".to_owned()),
            string_amounts: None
        })
    );
    assert_eq!(round_trip(&decoded)["extraFeatures"], json!({"pid": "p-1"}));

    order["extraFeatures"] = json!({});
    let decoded = decode(&order);
    assert_eq!(decoded.extra_features, Some(ExtraFeatures::default()));
    assert_eq!(round_trip(&decoded)["extraFeatures"], json!({}));

    order["extraFeatures"] = json!({"pid": "", "stringAmounts": "", "future": 1});
    let decoded = decode(&order);
    assert_eq!(
        decoded.extra_features,
        Some(ExtraFeatures {
            pid: Some(String::new()),
            string_amounts: Some(String::new())
        })
    );

    order["extraFeatures"] = json!(null);
    assert!(decode(&order).extra_features.is_none());
}

#[test]
fn minimal_order_with_every_optional_key_omitted() {
    let minimal = json!({"id": "o-1", "status": "inProgress", "pairId": "ETH_BTC"});
    let order = decode(&minimal);
    assert_eq!(order.status, OrderStatus::InProgress);
    assert!(order.rate_id.is_none());
    assert!(order.amount.is_none());
    assert!(order.to_amount.is_none());
    assert!(order.to_address.is_none());
    assert!(order.created_at.is_none());
    assert!(order.extra_features.is_none());
    // Nothing is invented on the way out.
    assert_eq!(round_trip(&order), minimal);

    // The same keys sent as null mean the same.
    let nulls = json!({"id": "o-1", "status": "inProgress", "pairId": "ETH_BTC",
        "rateId": null, "providerOrderId": null, "amount": null, "toAmount": null,
        "fromAddress": null, "fromAddressTag": null, "toAddress": null,
        "toAddressTag": null, "payInAddress": null, "payInAddressTag": null,
        "fromTransactionId": null, "toTransactionId": null, "message": null,
        "createdAt": null, "updatedAt": null, "extraFeatures": null,
        "sponsoredByCampaignId": null});
    assert_eq!(decode(&nulls), order);
}

#[test]
fn unknown_keys_are_ignored() {
    let mut order = creation_response();
    order["networkFee"] = json!({"assetId": "ETH", "value": "0.001"});
    order["refundAddress"] = json!("bc1q...");
    order["kyc"] = json!(false);
    order["steps"] = json!([1, 2, 3]);
    assert_eq!(decode(&order), decode(&creation_response()));
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
        let decoded = decode(&order);
        assert_eq!(decoded.status, status);
        assert_eq!(round_trip(&decoded)["status"], json!(text));
    }
    for unknown in ["pendingReview", "kycRequired", "AWAITING", "in progress"] {
        let mut order = creation_response();
        order["status"] = json!(unknown);
        let decoded = decode(&order);
        assert!(
            matches!(decoded.status, OrderStatus::Unknown(_)),
            "{unknown} is not a known status"
        );
        assert_eq!(round_trip(&decoded)["status"], json!(unknown));
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
        let decoded = decode(&order);
        assert_eq!(decoded.created_at.as_ref().unwrap().as_str(), text);
        assert_eq!(decoded.updated_at, Some(Timestamp::new(text).unwrap()));
        // Kept verbatim, not normalized.
        assert_eq!(round_trip(&decoded)["createdAt"], json!(text));
    }
}

#[test]
fn sponsored_order_keeps_its_campaign() {
    let mut order = creation_response();
    order["sponsoredByCampaignId"] = json!("spring-2026");
    let decoded = decode(&order);
    assert_eq!(
        decoded.sponsored_by_campaign_id.as_ref().unwrap().as_str(),
        "spring-2026"
    );
    assert_eq!(
        round_trip(&decoded)["sponsoredByCampaignId"],
        json!("spring-2026")
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
    let order = decode(&complete);
    assert_eq!(order.to_amount.as_ref().unwrap().value(), d("0.00210417"));
    assert_eq!(order.amount.as_ref().unwrap().value, d("120.000001"));
    assert_eq!(round_trip(&order), complete);
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

/// DESIGN §3: "Optional order keys are omitted rather than null; empty values
/// are `""`", and `Order`'s docs promise `""` for empty values is accepted. The
/// spec types `rateId`, `providerOrderId`, `createdAt`, `updatedAt` and
/// `sponsoredByCampaignId` as strings, so each may arrive as `""` (a floating
/// order has no rate; a fresh order may have no provider id yet). Today only
/// the free-text keys accept `""`: these make the whole order undecodable.
#[test]
fn empty_string_in_any_string_key_is_accepted() {
    for key in [
        "rateId",
        "providerOrderId",
        "sponsoredByCampaignId",
        "createdAt",
        "updatedAt",
    ] {
        let mut order = creation_response();
        order[key] = json!("");
        let decoded = serde_json::from_value::<Order>(order);
        assert!(decoded.is_ok(), "{key}: \"\" refused: {:?}", decoded.err());
        round_trip(&decoded.unwrap());
    }
}
