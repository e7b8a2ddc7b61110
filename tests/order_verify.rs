//! Ruling 40 (docs/RULES.md): the order the service returned is verified
//! against its plan and request. Every single-field tamper of a real order
//! body (tests/payloads/) is reported with its field, several tampers are
//! all reported, and letter-case spellings of one address pass where ruling
//! 27 says they are one address. The expected answers are written by hand
//! from the rulings, never read back from the crate.

use serde_json::{json, Value};
use swaproute::order::{
    FixedOrderRequest, FloatOrderRequest, NewOrder, Order, OrderContext, OrderField, OrderRead,
};
use swaproute::quote::Quote;
use swaproute::screening::{Address, ScreeningPolicy};
use swaproute::{EpochMillis, OrderId, ProviderOrderId, RatesResponse};

use OrderField as F;

const NOW: u64 = 1_773_221_236_204;

/// The live 201 body (cake_wallet fixture): LTC_USDT, status `inProgress`.
fn live_order() -> Value {
    serde_json::from_str(include_str!("payloads/order-create-response.json")).unwrap()
}

/// The live request that created it.
fn live_request() -> FixedOrderRequest {
    serde_json::from_str(include_str!("payloads/order-create-request.json")).unwrap()
}

/// One LTC_USDT rate with the live order's id: 1.25 × 77.9 − 0.01 = 97.365.
fn live_rates() -> RatesResponse {
    serde_json::from_value(json!([{
        "amount": {"assetId": "USDT", "value": 77.9},
        "expiry": 4_102_444_800_000_u64,
        "id": "ZXhvZHVzOmludDJ8TFRDX0xUQy1VU0RUX0VUSHx3cWtmcjB4aHRifGdubXpwfDE2a3N8MHxjaXwxMXh8enxmZmt8dWpxMnZk.e3addf4dad784c0ba424671b41c8ff0a",
        "max": {"assetId": "LTC", "value": 100},
        "min": {"assetId": "LTC", "value": 0.1},
        "minerFee": {"assetId": "USDT", "value": 0.01},
        "pairId": "LTC_USDT"
    }]))
    .unwrap()
}

/// The docs' 201 body: BTC_ETH, status `awaiting`, every tag present, no `toAmount`.
fn docs_order() -> Value {
    serde_json::from_str(include_str!("payloads/order-create-response-docs.json")).unwrap()
}

fn docs_request() -> FixedOrderRequest {
    serde_json::from_value(json!({
        "pairId": "BTC_ETH", "fromAmount": "0.83",
        "fromAddress": "58sFy76HJ3zrCJq9uUwkuHSAbZdYmM6J4tmCUz5J2h6t", "fromAddressTag": "memo-55102",
        "toAmount": "27", "toAddress": "0x3fF80B9465aef7Ac86D66c7a644Fb12853Ef86DC",
        "toAddressTag": "tag-7741"
    }))
    .unwrap()
}

fn docs_rates() -> RatesResponse {
    serde_json::from_value(json!([{
        "amount": {"assetId": "ETH", "value": 33.1},
        "expiry": 4_102_444_800_000_u64,
        "id": "10a3d6b2-aa05-411a-b271-5945795e8229",
        "max": {"assetId": "BTC", "value": 8},
        "min": {"assetId": "BTC", "value": 0.001},
        "minerFee": {"assetId": "ETH", "value": 0.0002},
        "pairId": "BTC_ETH"
    }]))
    .unwrap()
}

fn order(value: &Value) -> Order {
    serde_json::from_value(value.clone()).unwrap_or_else(|e| panic!("{value}: {e}"))
}

/// `base` with `key` (a dotted path one level deep at most) set, or removed for `None`.
fn with(base: &Value, key: &str, value: Option<Value>) -> Value {
    let mut out = base.clone();
    let (object, key) = match key.split_once('.') {
        Some((outer, inner)) => (&mut out[outer], inner),
        None => (&mut out, key),
    };
    crate::common::json_body::set_key(object, key, value);
    out
}

/// The fields the live order's check reports, in field order.
fn live_fields(value: &Value, read: OrderRead) -> Vec<OrderField> {
    let policy = ScreeningPolicy::new();
    let rates = live_rates();
    let request = live_request();
    let plan = request
        .plan(&rates, &OrderContext::new(EpochMillis::new(NOW), &policy))
        .unwrap();
    match plan.verify(&request, &order(value), read) {
        Ok(()) => Vec::new(),
        Err(error) => {
            assert!(!error.all().is_empty());
            error.fields().collect()
        }
    }
}

fn docs_fields(value: &Value) -> Vec<OrderField> {
    let policy = ScreeningPolicy::new();
    let rates = docs_rates();
    let request = docs_request();
    let plan = request
        .plan(&rates, &OrderContext::new(EpochMillis::new(NOW), &policy))
        .unwrap();
    plan.verify(&request, &order(value), OrderRead::Created)
        .err()
        .map(|e| e.fields().collect())
        .unwrap_or_default()
}

#[test]
fn the_real_orders_pass() {
    // A later GET: `inProgress` is fine.
    assert_eq!(live_fields(&live_order(), OrderRead::Fetched), []);
    let status_read: Value =
        serde_json::from_str(include_str!("payloads/order-status-response.json")).unwrap();
    assert_eq!(live_fields(&status_read, OrderRead::Fetched), []);
    // On creation it must not be definitive (ruling 45): the live 201 says
    // `inProgress`, the spec `awaiting`; both pass.
    assert_eq!(live_fields(&live_order(), OrderRead::Created), []);
    let awaiting = with(&live_order(), "status", Some(json!("awaiting")));
    assert_eq!(live_fields(&awaiting, OrderRead::Created), []);
    assert_eq!(docs_fields(&docs_order()), []);
}

/// Every single-field tamper of the live body: (key, new value or removed, field).
#[allow(clippy::too_many_lines)]
fn live_tampers() -> Vec<(&'static str, Option<Value>, OrderField)> {
    vec![
        ("pairId", Some(json!("LTC_BTC")), F::PairId),
        (
            "rateId",
            Some(json!("10a3d6b2-aa05-411a-b271-5945795e8229")),
            F::RateId,
        ),
        ("rateId", Some(json!("")), F::RateId),
        ("rateId", None, F::RateId),
        ("amount.value", Some(json!("1.26")), F::Amount),
        ("amount.value", Some(json!("1.24999999")), F::Amount),
        ("amount.value", Some(json!(125)), F::Amount),
        (
            "amount.value",
            Some(json!("79228162514264337593543950335")),
            F::Amount,
        ),
        ("amount", None, F::Amount),
        ("amount.assetId", Some(json!("BTC")), F::AmountAsset),
        // One character off.
        (
            "toAddress",
            Some(json!("0x8Df95247F2866028DE71159b42B4ea410FB9102e")),
            F::ToAddress,
        ),
        // A Cyrillic "а" (U+0430) for the Latin "a".
        (
            "toAddress",
            Some(json!("0x8Df95247F2866028DE71159b42B4e\u{430}410FB9102f")),
            F::ToAddress,
        ),
        // A zero-width space inside.
        (
            "toAddress",
            Some(json!("0x8Df95247F2866028DE7\u{200b}1159b42B4ea410FB9102f")),
            F::ToAddress,
        ),
        (
            "toAddress",
            Some(json!(" 0x8Df95247F2866028DE71159b42B4ea410FB9102f")),
            F::ToAddress,
        ),
        ("toAddress", Some(json!("")), F::ToAddress),
        ("toAddress", Some(Value::Null), F::ToAddress),
        ("toAddress", None, F::ToAddress),
        ("toAddress", Some(json!("x".repeat(100_000))), F::ToAddress),
        ("toAddressTag", Some(json!("12345")), F::ToAddressTag),
        (
            "fromAddress",
            Some(json!("ltc1qwjpyxexjcypqddr7ce6yv349n4q68g0xqraltv")),
            F::FromAddress,
        ),
        // Mixed case: no bech32 address at all (BIP-173).
        (
            "fromAddress",
            Some(json!("LTC1quauvt7txunf9zeu2qyrzv0pa5uvwjlq9a369s5")),
            F::FromAddress,
        ),
        ("fromAddress", Some(Value::Null), F::FromAddress),
        ("fromAddress", None, F::FromAddress),
        ("fromAddressTag", Some(json!("memo")), F::FromAddressTag),
        (
            "sponsoredByCampaignId",
            Some(json!("campaign-1")),
            F::SponsoredByCampaignId,
        ),
        // 98 × (100 − 2) / 100 = 96.04 is the least toAmount.
        ("toAmount.value", Some(json!("96.03999999")), F::ToAmount),
        ("toAmount.value", Some(json!("0")), F::ToAmount),
        ("toAmount.assetId", Some(json!("USDC")), F::ToAmountAsset),
        ("payInAddress", Some(json!("")), F::PayInAddress),
        ("payInAddress", Some(Value::Null), F::PayInAddress),
        ("payInAddress", None, F::PayInAddress),
        ("payInAddress", Some(json!("ltc1q wjpy")), F::PayInAddress),
        (
            "payInAddress",
            Some(json!("ltc1qwjpyxexjcypqddr7ce6yv349n4q68g0xqr\u{430}ltv")),
            F::PayInAddress,
        ),
        // Ruling 45: the EVM zero address, a burn address, the user's own
        // addresses, a broken bech32 checksum, a lone "!".
        (
            "payInAddress",
            Some(json!("0x0000000000000000000000000000000000000000")),
            F::PayInAddress,
        ),
        (
            "payInAddress",
            Some(json!("1111111111111111111114oLvT2")),
            F::PayInAddress,
        ),
        (
            "payInAddress",
            Some(json!("0x8Df95247F2866028DE71159b42B4ea410FB9102f")),
            F::PayInAddress,
        ),
        (
            "payInAddress",
            Some(json!("0x8df95247f2866028de71159b42b4ea410fb9102f")),
            F::PayInAddress,
        ),
        (
            "payInAddress",
            Some(json!("ltc1quauvt7txunf9zeu2qyrzv0pa5uvwjlq9a369s5")),
            F::PayInAddress,
        ),
        ("payInAddress", Some(json!("!")), F::PayInAddress),
        ("status", Some(json!("complete")), F::Status),
        ("status", Some(json!("refunded")), F::Status),
        ("status", Some(json!("failed")), F::Status),
        ("status", Some(json!("expired")), F::Status),
        ("status", Some(json!("someNewStatus")), F::Status),
    ]
}

#[test]
fn every_single_field_tamper_of_the_live_order_is_reported_with_its_field() {
    let base = with(&live_order(), "status", Some(json!("awaiting")));
    for (key, value, field) in live_tampers() {
        let tampered = with(&base, key, value.clone());
        assert_eq!(
            live_fields(&tampered, OrderRead::Created),
            [field],
            "{key} = {value:?}"
        );
    }
}

#[test]
fn several_tampers_are_all_reported_in_field_order() {
    let mut tampered = with(&live_order(), "status", Some(json!("awaiting")));
    let mut expected = Vec::new();
    // One tamper per field, each a different key.
    let mut seen = Vec::new();
    for (key, value, field) in live_tampers() {
        if seen.contains(&field) || key == "amount" {
            continue;
        }
        seen.push(field);
        tampered = with(&tampered, key, value);
        expected.push(field);
    }
    expected.sort();
    assert_eq!(expected.len(), 13, "every field once");
    assert_eq!(live_fields(&tampered, OrderRead::Created), expected);
}

#[test]
fn the_report_names_planned_and_returned_values() {
    let policy = ScreeningPolicy::new();
    let (rates, request) = (live_rates(), live_request());
    let plan = request
        .plan(&rates, &OrderContext::new(EpochMillis::new(NOW), &policy))
        .unwrap();
    let tampered = with(
        &with(&live_order(), "amount.value", Some(json!("2.5"))),
        "toAmount.value",
        Some(json!("50")),
    );
    let error = plan
        .verify(&request, &order(&tampered), OrderRead::Fetched)
        .unwrap_err();
    assert_eq!(
        serde_json::to_value(&error).unwrap(),
        json!([
            {"field": "amount", "check": "equal", "planned": "1.25", "returned": "2.5"},
            {"field": "toAmount", "check": "atLeast", "planned": "96.04", "returned": "50"}
        ])
    );
    assert_eq!(
        error.to_string(),
        "the order differs from its plan: amount: planned \"1.25\", returned \"2.5\"; \
         toAmount: planned at least 96.04, returned \"50\""
    );
    let api = swaproute::ApiError::from(error);
    assert_eq!(api.code().as_str(), "PROVIDER_ERROR");
    assert_eq!(api.http_status().as_u16(), 502);
}

#[test]
fn the_same_value_in_another_form_passes() {
    let base = with(&live_order(), "status", Some(json!("awaiting")));
    for (key, value) in [
        ("amount.value", json!(1.25)),
        ("amount.value", json!("1.250")),
        ("toAmount.value", json!("96.04")),
        ("toAmount.value", json!(96.04)),
        ("toAmount.value", json!("79228162514264337593543950335")),
        ("toAddressTag", json!("")),
        ("fromAddressTag", json!("")),
        ("sponsoredByCampaignId", Value::Null),
        // Ruling 27: EVM hex in any case is one address.
        (
            "toAddress",
            json!("0x8df95247f2866028de71159b42b4ea410fb9102f"),
        ),
        (
            "toAddress",
            json!("0X8DF95247F2866028DE71159B42B4EA410FB9102F"),
        ),
        // A mixed case that fails EIP-55 is still the same 20 bytes.
        (
            "toAddress",
            json!("0x8dF95247F2866028DE71159b42B4ea410FB9102f"),
        ),
    ] {
        let varied = with(&base, key, Some(value.clone()));
        assert_eq!(
            live_fields(&varied, OrderRead::Created),
            [],
            "{key} = {value}"
        );
    }
    let no_sponsor_key = with(&base, "sponsoredByCampaignId", None);
    assert_eq!(live_fields(&no_sponsor_key, OrderRead::Created), []);
    let no_to_amount = with(&base, "toAmount", None);
    assert_eq!(live_fields(&no_to_amount, OrderRead::Created), []);
    // A bare toAmount value is read as such.
    let bare_value = with(&base, "toAmount", Some(json!("97")));
    assert_eq!(live_fields(&bare_value, OrderRead::Created), []);
}

#[test]
fn every_single_field_tamper_of_the_docs_order_is_reported() {
    let base = docs_order();
    for (key, value, field) in [
        (
            "rateId",
            json!("10a3d6b2-aa05-411a-b271-5945795e822a"),
            F::RateId,
        ),
        ("amount.value", json!(0.84), F::Amount),
        ("toAddressTag", json!("tag-7742"), F::ToAddressTag),
        ("toAddressTag", json!(""), F::ToAddressTag),
        ("toAddressTag", Value::Null, F::ToAddressTag),
        ("toAddressTag", json!("TAG-7741"), F::ToAddressTag),
        ("fromAddressTag", json!("memo-55103"), F::FromAddressTag),
        ("fromAddressTag", json!(" memo-55102"), F::FromAddressTag),
        // base58 is compared exactly: another case is another address.
        (
            "fromAddress",
            json!("58SFY76HJ3ZRCJQ9UUWKUHSABZDYMM6J4TMCUZ5J2H6T"),
            F::FromAddress,
        ),
        (
            "fromAddress",
            json!("58sFy76HJ3zrCJq9uUwkuHSAbZdYmM6J4tmCUz5J2h6T"),
            F::FromAddress,
        ),
        (
            "toAddress",
            json!("0x3fF80B9465aef7Ac86D66c7a644Fb12853Ef86DD"),
            F::ToAddress,
        ),
        (
            "toAmount",
            json!({"assetId": "ETH", "value": "26.45"}),
            F::ToAmount,
        ),
        ("status", json!("expired"), F::Status),
    ] {
        let tampered = with(&base, key, Some(value.clone()));
        assert_eq!(docs_fields(&tampered), [field], "{key} = {value}");
    }
    let untagged = with(&base, "toAddressTag", None);
    assert_eq!(docs_fields(&untagged), [F::ToAddressTag]);
    // 0.83 × 33.1 − 0.0002 = 27.4728; bound 27 × 0.98 = 26.46.
    let enough = with(
        &base,
        "toAmount",
        Some(json!({"assetId": "ETH", "value": "26.46"})),
    );
    assert_eq!(docs_fields(&enough), []);
}

#[test]
fn cash_addr_with_and_without_its_prefix_is_one_address() {
    let request: FixedOrderRequest = serde_json::from_value(json!({
        "pairId": "BTC_BCH", "fromAmount": "1", "fromAddress": null, "toAmount": "100",
        "toAddress": "bitcoincash:qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a"
    }))
    .unwrap();
    let rates: RatesResponse = serde_json::from_value(json!([{
        "amount": {"assetId": "BCH", "value": 101}, "expiry": 4_102_444_800_000_u64, "id": "r",
        "max": {"assetId": "BTC", "value": 8}, "min": {"assetId": "BTC", "value": 0.001},
        "minerFee": {"assetId": "BCH", "value": 0.001}, "pairId": "BTC_BCH"
    }]))
    .unwrap();
    let policy = ScreeningPolicy::new();
    let plan = request
        .plan(&rates, &OrderContext::new(EpochMillis::new(NOW), &policy))
        .unwrap();
    let base = json!({"id": "o", "status": "awaiting", "pairId": "BTC_BCH", "rateId": "r",
        "amount": {"assetId": "BTC", "value": "1"}, "fromAddress": null,
        "payInAddress": "bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh"});
    let check = |to: &str| {
        let body = with(&base, "toAddress", Some(json!(to)));
        plan.verify(&request, &order(&body), OrderRead::Created)
            .err()
            .map(|e| e.fields().collect::<Vec<_>>())
            .unwrap_or_default()
    };
    assert_eq!(check("qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a"), []);
    assert_eq!(check("QPM2QSZNHKS23Z7629MMS6S4CWEF74VCWVY22GDX6A"), []);
    assert_eq!(
        check("BITCOINCASH:QPM2QSZNHKS23Z7629MMS6S4CWEF74VCWVY22GDX6A"),
        []
    );
    assert_eq!(
        check("bitcoincash:Qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a"),
        [F::ToAddress]
    );
    assert_eq!(
        check("qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6b"),
        [F::ToAddress]
    );
}

#[test]
fn bech32_in_one_case_is_one_address_and_mixed_case_is_none() {
    // The live fixture's `ltc1q…` was rewritten without a valid checksum, so
    // it is compared exactly; BIP-173's own example is valid.
    let request: FixedOrderRequest = serde_json::from_value(json!({
        "pairId": "BTC_ETH", "fromAmount": "0.5",
        "fromAddress": "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq", "toAmount": "16",
        "toAddress": "0x52908400098527886E0F7030069857D2E4169EE7"
    }))
    .unwrap();
    let rates = docs_rates();
    let policy = ScreeningPolicy::new();
    let plan = request
        .plan(&rates, &OrderContext::new(EpochMillis::new(NOW), &policy))
        .unwrap();
    let base = json!({"id": "o", "status": "awaiting", "pairId": "BTC_ETH",
        "rateId": "10a3d6b2-aa05-411a-b271-5945795e8229",
        "amount": {"assetId": "BTC", "value": "0.5"},
        "toAddress": "0x52908400098527886E0F7030069857D2E4169EE7",
        "payInAddress": "bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh"});
    let check = |from: &str| {
        let body = with(&base, "fromAddress", Some(json!(from)));
        plan.verify(&request, &order(&body), OrderRead::Created)
            .err()
            .map(|e| e.fields().collect::<Vec<_>>())
            .unwrap_or_default()
    };
    assert_eq!(check("bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"), []);
    assert_eq!(check("BC1QAR0SRRR7XFKVY5L643LYDNW9RE59GTZZWF5MDQ"), []);
    assert_eq!(
        check("bc1Qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"),
        [F::FromAddress]
    );
    assert_eq!(
        check("bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdz"),
        [F::FromAddress]
    );
    assert_eq!(
        check("bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5md"),
        [F::FromAddress]
    );
}

#[test]
fn an_exact_out_order_needs_its_exact_to_amount_and_no_sponsor() {
    let request: FixedOrderRequest = serde_json::from_value(json!({
        "pairId": "BTC_ETH", "fromAmount": "0.5", "fromAddress": null, "toAmount": "16.5",
        "toAddress": "0x52908400098527886E0F7030069857D2E4169EE7", "swapMode": "ExactOut"
    }))
    .unwrap();
    let rates: RatesResponse = serde_json::from_value(json!([{
        "amount": {"assetId": "ETH", "value": 33.1}, "expiry": 4_102_444_800_000_u64, "id": "r-1",
        "max": {"assetId": "BTC", "value": 8}, "min": {"assetId": "BTC", "value": 0.001},
        "minerFee": {"assetId": "ETH", "value": 0.0002}, "pairId": "BTC_ETH", "features": ["exactOut"]
    }]))
    .unwrap();
    let policy = ScreeningPolicy::new();
    let plan = request
        .plan(&rates, &OrderContext::new(EpochMillis::new(NOW), &policy))
        .unwrap();
    // ⌈(16.5 + 0.0002) / 33.1⌉₈ = 0.49849547.
    let base = json!({"id": "o", "status": "awaiting", "pairId": "BTC_ETH", "rateId": "r-1",
        "amount": {"assetId": "BTC", "value": "0.49849547"}, "fromAddress": null,
        "toAddress": "0x52908400098527886E0F7030069857D2E4169EE7",
        "toAmount": {"assetId": "ETH", "value": "16.5"},
        "payInAddress": "bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh", "sponsoredByCampaignId": null});
    let fields = |body: &Value| {
        plan.verify(&request, &order(body), OrderRead::Created)
            .err()
            .map(|e| e.fields().collect::<Vec<_>>())
            .unwrap_or_default()
    };
    assert_eq!(fields(&base), []);
    // The body's fromAmount is only the estimate: the order's amount is the plan's.
    assert_eq!(
        fields(&with(&base, "amount.value", Some(json!("0.5")))),
        [F::Amount]
    );
    // 2 % slippage does not loosen an exact toAmount.
    assert_eq!(
        fields(&with(&base, "toAmount.value", Some(json!("16.49999999")))),
        [F::ToAmount]
    );
    assert_eq!(
        fields(&with(&base, "sponsoredByCampaignId", Some(json!("c")))),
        [F::SponsoredByCampaignId]
    );
}

#[test]
fn the_floating_flow_checks_every_field_but_the_rate() {
    let request: FloatOrderRequest =
        serde_json::from_str(include_str!("payloads/order-float-create-request.json")).unwrap();
    let quote: Quote = serde_json::from_value(json!({
        "id": "q-1", "pairId": "USDCALGO_USDCbasemainnetB5A52617",
        "fromAmount": {"assetId": "USDCALGO", "value": "25"},
        "toAmount": {"assetId": "USDCbasemainnetB5A52617", "value": "24.7"},
        "expiry": 4_102_444_800_000_u64
    }))
    .unwrap();
    let policy = ScreeningPolicy::new();
    let now = EpochMillis::new(NOW);
    let plan = request
        .plan(&quote, &OrderContext::new(now, &policy))
        .unwrap();
    let base = json!({
        "amount": {"assetId": "USDCALGO", "value": "25"},
        "toAmount": {"assetId": "USDCbasemainnetB5A52617", "value": "24.7"},
        "fromAddress": "4MI2YHZ2NARTBNLZGCJN4QAVSYEEFNPAXX5I6IYLJTOPMKMY6F2DGGCQPZ",
        "id": "f-1", "pairId": "USDCALGO_USDCbasemainnetB5A52617",
        "payInAddress": "ZW3ISEHZUHPO7OZGMKLKIIMKVICOUDRCERI454I3DB2BH52HGLSO67W754",
        "rateId": "", "status": "awaiting",
        "toAddress": "0x29a422EB14AB2f2D0f0Cc022238daceEe2092F07"
    });
    let fields = |body: &Value| {
        plan.verify(&request, &order(body), OrderRead::Created)
            .err()
            .map(|e| e.fields().collect::<Vec<_>>())
            .unwrap_or_default()
    };
    assert_eq!(fields(&base), []);
    // The crate's own 201 body for this plan verifies too.
    let new = NewOrder::new(
        OrderId::new("f-1").unwrap(),
        ProviderOrderId::new("p-1").unwrap(),
        Address::new("ZW3ISEHZUHPO7OZGMKLKIIMKVICOUDRCERI454I3DB2BH52HGLSO67W754").unwrap(),
        now,
    );
    let built = plan.to_order(&request, &new).unwrap();
    assert!(plan.verify(&request, &built, OrderRead::Created).is_ok());
    // A floating order has no rate: its rateId is not looked at.
    assert_eq!(fields(&with(&base, "rateId", Some(json!("anything")))), []);
    // 24.61 × 0.98 = 24.1178.
    assert_eq!(
        fields(&with(&base, "toAmount.value", Some(json!("24.1178")))),
        []
    );
    assert_eq!(
        fields(&with(&base, "toAmount.value", Some(json!("24.11779999")))),
        [F::ToAmount]
    );
    // Base32 Algorand addresses are compared exactly.
    assert_eq!(
        fields(&with(
            &base,
            "fromAddress",
            Some(json!(
                "4mi2yhz2nartbnlzgcjn4qavsyeefnpaxx5i6iyljtopmkmy6f2dggcqpz"
            ))
        )),
        [F::FromAddress]
    );
    let all = with(
        &with(
            &with(&base, "amount.value", Some(json!(26))),
            "pairId",
            Some(json!("A_B")),
        ),
        "payInAddress",
        Some(json!("")),
    );
    assert_eq!(fields(&all), [F::PairId, F::Amount, F::PayInAddress]);
}

#[test]
fn the_crates_own_fixed_order_verifies() {
    let policy = ScreeningPolicy::new();
    let (rates, request) = (docs_rates(), docs_request());
    let now = EpochMillis::new(NOW);
    let plan = request
        .plan(&rates, &OrderContext::new(now, &policy))
        .unwrap();
    let new = NewOrder::new(
        OrderId::new("o-1").unwrap(),
        ProviderOrderId::new("p-1").unwrap(),
        Address::new("3H6fwF5Hx8W1NcTJg93anG8BH4CDLhLaqE").unwrap(),
        now,
    );
    let built = plan.to_order(&request, &new).unwrap();
    assert!(plan.verify(&request, &built, OrderRead::Created).is_ok());
}

/// Ruling 45: the deposit address is checked against the from asset's
/// network when the plan knows it, against the caller's denylist, and the
/// report says why.
#[test]
fn the_deposit_address_is_checked_where_the_network_is_known() {
    use swaproute::discovery::AssetsResponse;
    use swaproute::order::{DepositDefect, Expected};
    // The live flow with valid bech32 addresses (BIP-173, computed with the
    // reference encoder; the payloads' own were replaced by look-alikes
    // whose checksums fail).
    let (from, pay_in) = (
        "ltc1qwkzh53vfnxzmunzdjs0fpd4njmtvj2jvcgvgrm",
        "ltc1qhhs5fppajxzt20k5dl39nraem089mem4fmsm0z",
    );
    let rates = live_rates();
    let request: FixedOrderRequest = serde_json::from_value(with(
        &serde_json::from_str(include_str!("payloads/order-create-request.json")).unwrap(),
        "fromAddress",
        Some(json!(from)),
    ))
    .unwrap();
    let live = with(
        &with(&live_order(), "fromAddress", Some(json!(from))),
        "payInAddress",
        Some(json!(pay_in)),
    );
    let listing: AssetsResponse = serde_json::from_value(json!([
        {"id":"LTC","name":"Litecoin","symbol":"LTC","decimals":8,"network":"litecoin"},
        {"id":"USDT","name":"Tether","symbol":"USDT","decimals":6,"network":"ethereum"}
    ]))
    .unwrap();
    let pair = "LTC_USDT".parse().unwrap();
    let assets = listing.pair_assets(&pair).unwrap();
    let policy = ScreeningPolicy::new();
    let unknown = request
        .plan(&rates, &OrderContext::new(EpochMillis::new(NOW), &policy))
        .unwrap();
    assert!(!unknown.addresses_checked());
    let context = OrderContext::new(EpochMillis::new(NOW), &policy).with_assets(assets);
    let plan = request.plan(&rates, &context).unwrap();
    assert!(plan.addresses_checked());
    let fields = |plan: &swaproute::order::FixedOrderPlan<'_>, value: &Value| -> Vec<OrderField> {
        plan.verify(&request, &order(value), OrderRead::Created)
            .err()
            .map(|e| e.fields().collect())
            .unwrap_or_default()
    };
    assert_eq!(fields(&plan, &live), []);
    // The deposit address with its last character changed: a broken
    // checksum, refused where the network is known, let through (and the
    // plan says its addresses were not checked) where it is not.
    let broken = with(
        &live,
        "payInAddress",
        Some(json!("ltc1qhhs5fppajxzt20k5dl39nraem089mem4fmsm0q")),
    );
    assert_eq!(fields(&plan, &broken), [F::PayInAddress]);
    assert_eq!(fields(&unknown, &broken), []);
    // Mixed case is no bech32 string at all (BIP-173).
    let mixed = with(
        &live,
        "payInAddress",
        Some(json!("LTC1qhhs5fppajxzt20k5dl39nraem089mem4fmsm0z")),
    );
    assert_eq!(fields(&plan, &mixed), [F::PayInAddress]);
    let error = plan
        .verify(&request, &order(&broken), OrderRead::Created)
        .unwrap_err();
    assert!(matches!(
        error.all()[0].planned,
        Expected::DepositAddress(DepositDefect::Network(_))
    ));
    // The caller's denylist reaches the deposit address.
    let denying =
        ScreeningPolicy::new().deny_address(&Address::new(&pay_in.to_ascii_uppercase()).unwrap());
    let error = plan
        .verify_screened(&request, &order(&live), OrderRead::Created, &denying)
        .unwrap_err();
    assert_eq!(
        serde_json::to_value(&error).unwrap(),
        json!([{
            "field": "payInAddress", "check": "depositAddress",
            "planned": "a deposit address, not a restricted address (DENYLISTED)",
            "returned": pay_in
        }])
    );
    let burn = with(
        &live,
        "payInAddress",
        Some(json!("1111111111111111111114oLvT2")),
    );
    let error = unknown
        .verify(&request, &order(&burn), OrderRead::Created)
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "the order differs from its plan: payInAddress: planned a deposit address, \
         not a burn address, returned \"1111111111111111111114oLvT2\""
    );
}

/// Ruling 45: an amount the service wrote as a JSON number matches when it
/// is the plan's amount's nearest double; as a string it must be exact.
#[test]
fn an_amount_of_more_than_17_digits_matches_its_nearest_double() {
    let rates: RatesResponse = serde_json::from_value(json!([{
        "amount": {"assetId": "ETH", "value": 2},
        "expiry": 4_102_444_800_000_u64,
        "id": "big",
        "max": {"assetId": "BTC", "value": 10_000_000_000_u64},
        "min": {"assetId": "BTC", "value": 1},
        "minerFee": {"assetId": "ETH", "value": 0},
        "pairId": "BTC_ETH"
    }]))
    .unwrap();
    let request: FixedOrderRequest = serde_json::from_value(json!({
        "pairId": "BTC_ETH", "fromAmount": "1234567890.12345678", "fromAddress": null,
        "toAmount": "2469135780", "toAddress": "0x3fF80B9465aef7Ac86D66c7a644Fb12853Ef86DC"
    }))
    .unwrap();
    let policy = ScreeningPolicy::new();
    let plan = request
        .plan(&rates, &OrderContext::new(EpochMillis::new(NOW), &policy))
        .unwrap();
    let body = |value: &str| -> Order {
        // The number is spliced in as text: a double-based encoder's bytes.
        serde_json::from_str(&format!(
            r#"{{"id":"o-1","status":"awaiting","pairId":"BTC_ETH","rateId":"big",
            "amount":{{"assetId":"BTC","value":{value}}},"fromAddress":null,
            "toAddress":"0x3fF80B9465aef7Ac86D66c7a644Fb12853Ef86DC",
            "payInAddress":"3H6fwF5Hx8W1NcTJg93anG8BH4CDLhLaqE"}}"#
        ))
        .unwrap()
    };
    let fields = |value: &str| -> Vec<OrderField> {
        plan.verify(&request, &body(value), OrderRead::Created)
            .err()
            .map(|e| e.fields().collect())
            .unwrap_or_default()
    };
    // The doubles near 1.2e9 are 2^-22 (about 2.4e-7) apart: the nearest one
    // to 1234567890.12345678 is 1234567890.12345671653747558…, whose
    // shortest text is 1234567890.1234567 (17 digits); 1234567890.1234568
    // is within half a step of it too, so it names the same double.
    assert_eq!(fields("1234567890.12345678"), []);
    assert_eq!(fields("1234567890.1234567"), []);
    assert_eq!(fields("1234567890.1234568"), []);
    assert_eq!(fields("\"1234567890.12345678\""), []);
    // As a string the digits must be the plan's.
    assert_eq!(fields("\"1234567890.1234567\""), [F::Amount]);
    // Another double: 1234567890.1234 is 238 steps away.
    assert_eq!(fields("1234567890.1234"), [F::Amount]);
}
