//! The order resource in every shape the service sends: current responses
//! with string amounts, older ones with numbers, `toAmount` absent, `null`, an
//! object or a bare value, `extraFeatures`, omitted, `null` and `""` keys,
//! unknown keys and statuses; encoded back to the same JSON value (ruling 22,
//! docs/RULES.md).
#![allow(clippy::arithmetic_side_effects)]

use crate::common::d;
use serde_json::{json, Value};
use swaproute::order::{ExtraFeatures, Order, OrderStatus, ToAmount};
use swaproute::wire::{Presence, SentAmount, SentDecimal, Timestamp};
use swaproute::AssetId;

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

/// `EpochMillis::try_from(&Timestamp)` reads the instant, counted by hand:
/// 2026-07-14 is 20 648 days after 1970-01-01 (56 × 365 + 14 leap days +
/// 31 + 28 + 31 + 30 + 31 + 30 + 13); 09:30:00.123 is 34 200 123 ms.
#[test]
fn a_timestamp_converts_to_its_epoch_millis() {
    let expected = 20_648 * 86_400_000 + 34_200_123;
    for text in ["2026-07-14T09:30:00.123Z", "2026-07-14T11:30:00.123+02:00"] {
        let timestamp = Timestamp::new(text).unwrap();
        assert_eq!(
            swaproute::EpochMillis::try_from(&timestamp),
            Ok(swaproute::EpochMillis::new(expected)),
            "{text}"
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

/// The transaction ids read as "set" only when the key holds a non-empty
/// string: absent, `null` and `""` all read as `None`.
#[test]
fn transaction_ids_are_set_only_when_non_empty() {
    let mut order = creation_response();
    order["fromTransactionId"] = json!("0xdeposit");
    order["toTransactionId"] = json!("0xpayout");
    let decoded = decode(&order);
    assert_eq!(decoded.deposit_transaction_id(), Some("0xdeposit"));
    assert_eq!(decoded.payout_transaction_id(), Some("0xpayout"));
    for unset in [json!(""), Value::Null] {
        order["fromTransactionId"] = unset.clone();
        order["toTransactionId"] = unset;
        let decoded = decode(&order);
        assert_eq!(decoded.deposit_transaction_id(), None);
        assert_eq!(decoded.payout_transaction_id(), None);
    }
    let object = order.as_object_mut().unwrap();
    object.remove("fromTransactionId");
    object.remove("toTransactionId");
    let decoded = decode(&order);
    assert_eq!(decoded.deposit_transaction_id(), None);
    assert_eq!(decoded.payout_transaction_id(), None);
}

/// A status that is not a string is refused with a message that says what
/// was expected.
#[test]
fn a_status_that_is_not_a_string_names_what_was_expected() {
    let mut order = creation_response();
    order["status"] = json!(7);
    let error = serde_json::from_value::<Order>(order)
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("an order status such as \"inProgress\""),
        "{error}"
    );
}

// ------------------------------------------------ the 201 body from a plan

mod from_a_plan {
    use serde_json::{json, Value};
    use swaproute::order::{
        DepositTransactionUpdate, FixedOrderRequest, FloatOrderRequest, NewOrder, Order,
        OrderContext, ToOrderError,
    };
    use swaproute::quote::Quote;
    use swaproute::screening::{Address, AddressTag, ScreeningPolicy};
    use swaproute::wire::{RequestField, Timestamp};
    use swaproute::{ApiError, EpochMillis, ErrorCode, OrderId, ProviderOrderId, RatesResponse};

    const TO: &str = "0x8Df95247F2866028DE71159b42B4ea410FB9102f";
    const FROM: &str = "ltc1quauvt7txunf9zeu2qyrzv0pa5uvwjlq9a369s5";
    const PAY_IN: &str = "ltc1qwjpyxexjcypqddr7ce6yv349n4q68g0xqraltv";
    /// 2026-03-11T09:27:16.204Z: 20523 days (56 × 365 + 14 leap days + 31 +
    /// 28 + 10) × 86 400 000 + 34 036 204 ms.
    const NOW: u64 = 20_523 * 86_400_000 + 34_036_204;

    /// Three rates of LTC_USDT, limits 0.1 to 10 LTC:
    /// - `r-a`: 77.912345678, fee 0.5, exactOut;
    /// - `r-b`: 78, fee 1.2, exactOut;
    /// - `r-s`: 77.987654321, fee 0, sponsored by `camp-7` (only with `sponsored`).
    fn rates(sponsored: bool) -> RatesResponse {
        let rate = |id: &str, value: &str, fee: &str, extra: Value| {
            let mut rate = json!({
                "amount": {"assetId": "USDT", "value": value.parse::<f64>().unwrap()},
                "expiry": 4_102_444_800_000_u64, "id": id,
                "max": {"assetId": "LTC", "value": 10}, "min": {"assetId": "LTC", "value": 0.1},
                "minerFee": {"assetId": "USDT", "value": fee.parse::<f64>().unwrap()},
                "pairId": "LTC_USDT"
            });
            for (key, value) in extra.as_object().unwrap() {
                rate[key] = value.clone();
            }
            rate
        };
        let mut list = vec![
            rate(
                "r-a",
                "77.912345678",
                "0.5",
                json!({"features": ["exactOut"]}),
            ),
            rate("r-b", "78", "1.2", json!({"features": ["exactOut"]})),
        ];
        if sponsored {
            list.push(rate(
                "r-s",
                "77.987654321",
                "0",
                json!({"sponsoredByCampaignId": "camp-7"}),
            ));
        }
        serde_json::from_value(Value::Array(list)).unwrap()
    }

    fn new_order() -> NewOrder {
        NewOrder::new(
            OrderId::new("u8jzPde0IgxLd6G").unwrap(),
            ProviderOrderId::new("7f26144b-9828-4fcd-99a5-4a7bb1fee08f").unwrap(),
            Address::new(PAY_IN).unwrap(),
            EpochMillis::new(NOW),
        )
    }

    fn request(body: &Value) -> FixedOrderRequest {
        serde_json::from_value(body.clone()).unwrap()
    }

    fn order_of(body: &Value, rates: &RatesResponse) -> Order {
        let policy = ScreeningPolicy::new();
        let context = OrderContext::new(EpochMillis::new(NOW), &policy);
        let request = request(body);
        let plan = request.plan(rates, &context).unwrap();
        plan.to_order(&request, &new_order()).unwrap()
    }

    /// The live 201 (order-create-response.json) with this test's values.
    fn expected(amount: &str, to_amount: &str, rate_id: &str, campaign: &Value) -> Value {
        json!({
            "id": "u8jzPde0IgxLd6G",
            "status": "awaiting",
            "pairId": "LTC_USDT",
            "rateId": rate_id,
            "providerOrderId": "7f26144b-9828-4fcd-99a5-4a7bb1fee08f",
            "amount": {"assetId": "LTC", "value": amount},
            "toAmount": {"assetId": "USDT", "value": to_amount},
            "fromAddress": FROM,
            "toAddress": TO,
            "payInAddress": PAY_IN,
            "fromTransactionId": "",
            "toTransactionId": "",
            "message": "",
            "createdAt": "2026-03-11T09:27:16.204Z",
            "updatedAt": "2026-03-11T09:27:16.204Z",
            "extraFeatures": {},
            "sponsoredByCampaignId": campaign
        })
    }

    fn body() -> Value {
        json!({"pairId": "LTC_USDT", "fromAmount": "1.25", "fromAddress": FROM,
            "toAmount": "98", "toAddress": TO})
    }

    /// ExactIn: `amount` is `fromAmount`; `toAmount` the estimate
    /// ⌊1.25 × 77.912345678 − 0.5⌋₈ = ⌊96.8904320975⌋₈ = 96.89043209
    /// (r-b gives 1.25 × 78 − 1.2 = 96.3, less).
    #[test]
    fn exact_in() {
        let order = order_of(&body(), &rates(false));
        assert_eq!(
            serde_json::to_value(&order).unwrap(),
            expected("1.25", "96.89043209", "r-a", &Value::Null)
        );
        // The same keys as the live 201, value types included.
        let live: Value =
            serde_json::from_str(include_str!("payloads/order-create-response.json")).unwrap();
        let built = serde_json::to_value(&order).unwrap();
        let keys = |v: &Value| {
            v.as_object()
                .unwrap()
                .iter()
                .map(|(k, v)| (k.clone(), std::mem::discriminant(v)))
                .collect::<std::collections::BTreeMap<_, _>>()
        };
        assert_eq!(keys(&built), keys(&live));
        // And it decodes back to the same order.
        let again: Order = serde_json::from_value(built).unwrap();
        assert_eq!(again, order);
    }

    /// A sponsored variant wins in ExactIn: 1.25 × 77.987654321 − 0 =
    /// 97.48456790125 → 97.48456790; the order names its campaign.
    #[test]
    fn exact_in_sponsored() {
        let order = order_of(&body(), &rates(true));
        assert_eq!(
            serde_json::to_value(&order).unwrap(),
            expected("1.25", "97.48456790", "r-s", &json!("camp-7"))
        );
    }

    /// ExactOut (ruling 9): `amount` is ⌈(98 + 0.5) / 77.912345678⌉₈ for r-a
    /// and ⌈(98 + 1.2) / 78⌉₈ for r-b; ranking at fromAmount 1.25 picks r-a
    /// (96.89 > 96.3), and the sponsored variant is never chosen. 98.5 /
    /// 77.912345678 = 1.2642412334…, so the amount is 1.26424124 (computed
    /// below exactly with integers). `toAmount` is the body's exact 98.
    #[test]
    fn exact_out() {
        let mut body = body();
        body["swapMode"] = json!("ExactOut");
        let order = order_of(&body, &rates(true));
        // ⌈98.5 / 77.912345678⌉ at 8 places = ⌈98.5e17 / 77912345678⌉ / 1e8.
        let (num, den) = (9_850_000_000_000_000_000_u128, 77_912_345_678_u128);
        let units = num.div_ceil(den);
        let amount = format!("{}.{:08}", units / 100_000_000, units % 100_000_000);
        assert_eq!(amount, "1.26424124");
        assert_eq!(
            serde_json::to_value(&order).unwrap(),
            expected(&amount, "98", "r-a", &Value::Null)
        );
    }

    /// Tags, a deferred `fromAddress` and a deposit memo are written as the
    /// spec names them; `providerOrderId` `""` when the provider gave none.
    #[test]
    fn tags_null_from_address_and_pay_in_tag() {
        let body = json!({"pairId": "LTC_USDT", "fromAmount": "1.25", "fromAddress": null,
            "toAmount": "98", "toAddress": TO, "toAddressTag": "memo-9",
            "fromAddressTag": ""});
        let request = request(&body);
        let policy = ScreeningPolicy::new();
        let rates = rates(false);
        let plan = request
            .plan(&rates, &OrderContext::new(EpochMillis::new(NOW), &policy))
            .unwrap();
        let mut new = new_order().with_pay_in_address_tag(AddressTag::new("3302145").unwrap());
        new.provider_order_id = None;
        let order = plan.to_order(&request, &new).unwrap();
        let mut want = expected("1.25", "96.89043209", "r-a", &Value::Null);
        want["fromAddress"] = Value::Null;
        want["toAddressTag"] = json!("memo-9");
        want["payInAddressTag"] = json!("3302145");
        want["providerOrderId"] = json!("");
        assert_eq!(serde_json::to_value(&order).unwrap(), want);
    }

    #[test]
    fn a_request_that_is_not_the_plans_is_refused() {
        let policy = ScreeningPolicy::new();
        let rates = rates(false);
        let context = OrderContext::new(EpochMillis::new(NOW), &policy);
        let planned = request(&body());
        let plan = planned.plan(&rates, &context).unwrap();

        let mut other = body();
        other["fromAmount"] = json!("2");
        let error = plan.to_order(&request(&other), &new_order()).unwrap_err();
        assert_eq!(
            error,
            ToOrderError::NotThePlansRequest {
                field: RequestField::FromAmount
            }
        );
        let mut other = body();
        other["pairId"] = json!("BTC_USDT");
        let error = plan.to_order(&request(&other), &new_order()).unwrap_err();
        assert_eq!(
            error,
            ToOrderError::NotThePlansRequest {
                field: RequestField::PairId
            }
        );
        let mut other = body();
        other["swapMode"] = json!("ExactOut");
        let error = plan.to_order(&request(&other), &new_order()).unwrap_err();
        assert_eq!(
            error,
            ToOrderError::NotThePlansRequest {
                field: RequestField::SwapMode
            }
        );
        let api = ApiError::from(error);
        assert_eq!(
            (api.code(), api.http_status().as_u16()),
            (ErrorCode::InternalError, 500)
        );

        // A clock past year 9999 cannot be written as createdAt.
        let mut late = new_order();
        late.now = EpochMillis::new(Timestamp::LATEST.as_millis() + 1);
        let Err(ToOrderError::Time(error)) = plan.to_order(&planned, &late) else {
            panic!("a createdAt past year 9999 is refused")
        };
        assert_eq!(
            (error.kind(), error.reason()),
            (swaproute::ParseErrorKind::Instant, "TOO_LATE")
        );
        // The text is the instant in milliseconds: LATEST + 1.
        assert_eq!(error.text(), "253402300800000");
        assert_eq!(
            error.to_string(),
            "the instant is after 9999-12-31T23:59:59.999Z, the last an ISO 8601 timestamp writes"
        );
    }

    /// The floating flow: amounts are the quote's, `rateId` is `""`, the
    /// quote's campaign is the order's.
    #[test]
    fn floating_order() {
        let quote: Quote = serde_json::from_value(json!({
            "id": "7b3f", "pairId": "LTC_USDT",
            "fromAmount": {"assetId": "LTC", "value": "1.25"},
            "toAmount": {"assetId": "USDT", "value": "97.31864512"},
            "expiry": NOW + 30_000, "sponsoredByCampaignId": "camp-7"
        }))
        .unwrap();
        let request: FloatOrderRequest = serde_json::from_value(json!({
            "pairId": "LTC_USDT", "fromAmount": 1.25, "fromAddress": FROM,
            "toAmount": 97, "toAddress": TO, "quoteId": "7b3f"
        }))
        .unwrap();
        let policy = ScreeningPolicy::new();
        let plan = request
            .plan(&quote, &OrderContext::new(EpochMillis::new(NOW), &policy))
            .unwrap();
        let order = plan.to_order(&request, &new_order()).unwrap();
        assert_eq!(
            serde_json::to_value(&order).unwrap(),
            expected("1.25", "97.31864512", "", &json!("camp-7"))
        );
    }

    /// `PATCH {"transactionId"}` on the created order: 200 the first time,
    /// 412 `PRECONDITION_FAILED` the second, with no conversion of `""`.
    #[test]
    fn deposit_transaction_id_is_set_once() {
        let mut order = order_of(&body(), &rates(false));
        assert_eq!(order.deposit_transaction_id(), None);
        assert_eq!(order.payout_transaction_id(), None);
        let update: DepositTransactionUpdate =
            serde_json::from_str(include_str!("payloads/order-update-request.json")).unwrap();
        let hash = "0xc800f3dc85a0cd085d5bb0bb8edb805414da678605667743c99f2c7aacc9c487";

        update.apply_to(&mut order).unwrap();
        assert_eq!(order.deposit_transaction_id(), Some(hash));
        assert_eq!(
            serde_json::to_value(&order).unwrap()["fromTransactionId"],
            hash
        );

        let before = order.clone();
        let refused = update.apply_to(&mut order).unwrap_err();
        assert!(refused.same_value());
        assert_eq!(order, before);
        let api = ApiError::from(refused).with_order_id(order.id.clone());
        assert_eq!(api.http_status().as_u16(), 412);
        assert_eq!(api.code().as_str(), "PRECONDITION_FAILED");

        let other: DepositTransactionUpdate =
            serde_json::from_value(json!({"transactionId": "abc"})).unwrap();
        assert!(!other.apply_to(&mut order).unwrap_err().same_value());
        assert_eq!(order.deposit_transaction_id(), Some(hash));
    }

    /// A body that is not an object says what the update must be.
    #[test]
    fn a_deposit_update_that_is_not_an_object_says_what_is_expected() {
        let error = serde_json::from_str::<DepositTransactionUpdate>("\"0xabc\"").unwrap_err();
        assert!(
            error
                .to_string()
                .contains(r#"expected an object {"transactionId": "…"}"#),
            "{error}"
        );
    }
}
