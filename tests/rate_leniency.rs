//! Ruling 44 (docs/RULES.md): one bad value spoils one rate. A rate whose
//! number no `Decimal` holds is that rate's `INVALID_RATE`, naming the field
//! and the text; the response's other rates stay usable and the response
//! encodes back as it was sent. `"sponsoredByCampaignId": ""` is no
//! campaign, kept for the round trip. The payloads are the live rates
//! response (tests/payloads/rates-response.json) with one value changed
//! (tests/payloads/derived/). Expected values are worked by hand.

use serde_json::Value;
use swaproute::rate::RateField;
use swaproute::route::RouteRequest;
use swaproute::{Amount, EpochMillis, RateDefect, RatesResponse};

/// Before every rate of the live response expires (the earliest, 1791045258000).
const NOW: u64 = 1_791_045_000_000;

const UNHELD: &str = include_str!("payloads/derived/rates-response-unheld-multiplier.json");
const EMPTY_CAMPAIGN: &str = include_str!("payloads/derived/rates-response-empty-campaign.json");

#[test]
fn a_multiplier_of_29_places_spoils_its_rate_only() {
    let rates: RatesResponse = serde_json::from_str(UNHELD).unwrap();
    assert_eq!(rates.len(), 6);
    let bad = &rates[0];
    let Some(RateDefect::UnheldValue { field, value }) = bad.defect() else {
        panic!("{:?}", bad.defect())
    };
    assert_eq!(field, RateField::Amount);
    assert_eq!(value.text(), "6.441788833519116e-14");
    assert!(!value.is_string());
    assert_eq!(
        bad.defect().unwrap().to_string(),
        "amount.value 6.441788833519116e-14 cannot be held exactly: more digits than can be \
         held exactly (at most 28 decimal places and 28-29 significant digits)"
    );
    assert!(rates[1..].iter().all(|rate| rate.defect().is_none()));
    // The round trip: the same JSON value, and the number's own digits.
    let back = serde_json::to_string(&rates).unwrap();
    assert_eq!(
        serde_json::from_str::<Value>(&back).unwrap(),
        serde_json::from_str::<Value>(UNHELD).unwrap()
    );
    assert!(back.contains(r#""value":6.441788833519116e-14"#), "{back}");
    // Ranking: the twin of the spoiled rate (same numbers, another id) wins:
    // 0.5 × 611.8823407719563 − 0.00352118 = 305.93764920597815.
    let request = RouteRequest::exact_in(Amount::parse("0.5").unwrap(), EpochMillis::new(NOW));
    let selection = request.select(&rates);
    let best = selection.best().unwrap();
    assert_eq!(best.rate().id().as_str(), "WDtkwtDDb!xHKas1&VOq$g6)YYZYn9");
    assert_eq!(best.net_output().to_string(), "305.93764920597815");
    let rejected = selection
        .rejected()
        .iter()
        .find(|r| r.rate().id().as_str() == "5KXSc7Tvo@hBKqFYY@kv5Z(Jr3(J1T")
        .unwrap();
    assert_eq!(rejected.reason().code(), "INVALID_RATE");
    assert!(rejected
        .reason()
        .to_string()
        .contains("amount.value 6.441788833519116e-14"));
}

#[test]
fn values_out_of_range_or_outside_the_grammar_spoil_their_rate() {
    let base: Value = serde_json::from_str(include_str!("payloads/rates-response.json")).unwrap();
    for (field, key, value, text, string) in [
        // Its shortest digits as a double-based encoder (JavaScript's) writes them.
        (RateField::Max, "max", Value::from(1e30), "1e+30", false),
        (RateField::Min, "min", Value::from("0.5e-3"), "0.5e-3", true),
        (
            RateField::MinerFee,
            "minerFee",
            // 29 places as a string.
            Value::from("0.00000000000000000000000000001"),
            "0.00000000000000000000000000001",
            true,
        ),
    ] {
        let mut json = base.clone();
        json[2][key]["value"] = value;
        let rates: RatesResponse = serde_json::from_value(json.clone()).unwrap();
        match rates[2].defect() {
            Some(RateDefect::UnheldValue { field: f, value }) => {
                assert_eq!((f, value.text(), value.is_string()), (field, text, string));
            }
            other => panic!("{key}: {other:?}"),
        }
        assert_eq!(
            rates.iter().filter(|r| r.defect().is_none()).count(),
            5,
            "{key}"
        );
        assert_eq!(serde_json::to_value(&rates).unwrap(), json, "{key}");
    }
    // A value of another type is still no rate at all.
    let mut json = base;
    json[2]["max"]["value"] = Value::Bool(true);
    assert!(serde_json::from_value::<RatesResponse>(json).is_err());
}

#[test]
fn an_empty_campaign_id_is_no_campaign_and_round_trips() {
    let rates: RatesResponse = serde_json::from_str(EMPTY_CAMPAIGN).unwrap();
    assert!(!rates[0].is_sponsored());
    assert_eq!(rates[0].sponsored_by_campaign_id(), None);
    assert!(rates.iter().all(|r| r.defect().is_none()));
    let back = serde_json::to_string(&rates).unwrap();
    assert!(back.contains(r#""sponsoredByCampaignId":"""#));
    assert_eq!(
        serde_json::from_str::<Value>(&back).unwrap(),
        serde_json::from_str::<Value>(EMPTY_CAMPAIGN).unwrap()
    );
    // Its twin (null) and it are the same rate but for the id.
    assert_eq!(rates[0].multiplier(), rates[1].multiplier());
}

#[test]
fn the_exact_out_capability_is_assumed_at_the_boundary() {
    let text = include_str!("payloads/rates-response.json");
    let rates: RatesResponse = serde_json::from_str(text).unwrap();
    let now = EpochMillis::new(NOW);
    let request = RouteRequest::exact_out(
        Amount::parse("0.5").unwrap(),
        Amount::parse("300").unwrap(),
        now,
    );
    let error = request.best(&rates).unwrap_err();
    assert_eq!(error.code().as_str(), "UNSUPPORTED_SWAP_MODE");
    let assumed = rates.clone().assume_exact_out();
    assert!(assumed.is_exact_out_assumed());
    assert!(!rates.is_exact_out_assumed());
    // The wire form is unchanged.
    assert_eq!(
        serde_json::to_value(&assumed).unwrap(),
        serde_json::from_str::<Value>(text).unwrap()
    );
    // Required inputs (300 + fee) / multiplier, rounded up to 8 places:
    // rate 3: 300 / 611.20874530012 = 0.49083067…  (fee 0)
    // rates 1-2: 300.00352118 / 611.8823407719563 = 0.490296093…
    // The ranking is by net(fromAmount) (ruling 6): 0.5 × 611.8823407719563
    // − 0.00352118 is the best, and the two twins tie to the id order.
    let route = request.best(&assumed).unwrap();
    assert!(route.rate().is_exact_out_assumed());
    assert_eq!(route.rate().id().as_str(), "5KXSc7Tvo@hBKqFYY@kv5Z(Jr3(J1T");
    assert_eq!(
        route.required_input().map(|a| a.to_string()),
        Some("0.49029610".into())
    );
}

/// Ruling 44: `partnerRevenueShareAmount`, whose structure the spec does not
/// show, is kept as opaque JSON, read as an amount when it has that shape,
/// and never fails a quote's decode.
#[test]
fn a_revenue_share_of_any_shape_keeps_the_quote() {
    use swaproute::quote::Quote;
    use swaproute::wire::{Opaque, RevenueShare};
    let base: Value = serde_json::from_str(include_str!("payloads/quote-response.json")).unwrap();
    for (share, amount) in [
        (
            serde_json::json!({"assetId": "SOL", "value": "0.01"}),
            Some("0.01"),
        ),
        (
            serde_json::json!({"assetId": "SOL", "value": 0.01}),
            Some("0.01"),
        ),
        (
            serde_json::json!({"value": "0.01", "assetId": "SOL"}),
            Some("0.01"),
        ),
        (
            serde_json::json!({"assetId": "SOL", "value": "0.01", "bps": 25}),
            None,
        ),
        (
            serde_json::json!({"amount": {"asset": "SOL", "value": "0.01"}}),
            None,
        ),
        (serde_json::json!({"assetId": "SOL", "value": "1e-2"}), None),
        (serde_json::json!([1, 2.5, "three", null, false]), None),
        (serde_json::json!(0.01), None),
        (serde_json::json!("0.01"), None),
    ] {
        let mut json = base.clone();
        json["partnerRevenueShareAmount"] = share.clone();
        let quote: Quote = serde_json::from_value(json.clone()).unwrap();
        let read = quote
            .partner_revenue_share_amount
            .value()
            .and_then(RevenueShare::amount)
            .map(|a| a.value.get().to_string());
        assert_eq!(read.as_deref(), amount, "{share}");
        assert_eq!(serde_json::to_value(&quote).unwrap(), json, "{share}");
        assert_eq!(quote.defect(), None, "{share}");
    }
    // The opaque form keeps the structure.
    let mut json = base;
    json["partnerRevenueShareAmount"] = serde_json::json!({"bps": 25});
    let quote: Quote = serde_json::from_value(json).unwrap();
    let Some(RevenueShare::Opaque(opaque)) = quote.partner_revenue_share_amount.value() else {
        panic!()
    };
    assert_eq!(opaque.get("bps"), Some(&Opaque::Number("25".into())));
}
