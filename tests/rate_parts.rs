//! The rate module's parts a caller uses on their own: `CampaignLimits` as a
//! collection, the `as_string` serde helpers for an optional amount, and the
//! messages a malformed `features` list is refused with.

use crate::common::amount;
use serde::{Deserialize, Serialize};
use serde_json::json;
use swaproute::rate::{as_string, AssetAmount, CampaignLimits};
use swaproute::{AssetId, CampaignId, Decimal, RatesResponse};

fn id(text: &str) -> CampaignId {
    CampaignId::new(text).unwrap()
}

#[test]
fn campaign_limits_count_and_list_their_campaigns_by_id() {
    let mut limits = CampaignLimits::new();
    assert_eq!(limits.len(), 0);
    assert!(limits.is_empty());
    assert_eq!(limits.iter().count(), 0);

    // Inserted out of order, and "spring" twice: the second replaces the first.
    assert_eq!(limits.insert(id("winter"), amount("2")), None);
    assert_eq!(limits.insert(id("spring"), amount("0.05")), None);
    assert_eq!(limits.insert(id("autumn"), amount("1.5")), None);
    assert_eq!(
        limits.insert(id("spring"), amount("0.07")),
        Some(amount("0.05"))
    );

    assert_eq!(limits.len(), 3);
    assert!(!limits.is_empty());
    let listed: Vec<(String, String)> = limits
        .iter()
        .map(|(campaign, limit)| (campaign.as_str().to_owned(), limit.to_string()))
        .collect();
    assert_eq!(
        listed,
        [
            ("autumn".to_owned(), "1.5".to_owned()),
            ("spring".to_owned(), "0.07".to_owned()),
            ("winter".to_owned(), "2".to_owned()),
        ]
    );

    let collected: CampaignLimits = [(id("solo"), amount("9"))].into_iter().collect();
    assert_eq!(collected.len(), 1);
    assert!(!collected.is_empty());
}

#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Holder {
    #[serde(with = "as_string::option", default)]
    amount: Option<AssetAmount>,
}

#[test]
fn as_string_option_reads_and_writes_an_optional_amount() {
    let btc = AssetAmount::new(
        AssetId::new("BTC").unwrap(),
        "0.5".parse::<Decimal>().unwrap(),
    );
    for value in [
        json!({"assetId": "BTC", "value": "0.5"}),
        json!({"assetId": "BTC", "value": 0.5}),
    ] {
        let holder: Holder = serde_json::from_value(json!({ "amount": value })).unwrap();
        assert_eq!(holder.amount, Some(btc.clone()), "{value}");
    }
    let holder = Holder { amount: Some(btc) };
    assert_eq!(
        serde_json::to_value(&holder).unwrap(),
        json!({"amount": {"assetId": "BTC", "value": "0.5"}})
    );

    for empty in [json!({ "amount": null }), json!({})] {
        let holder: Holder = serde_json::from_value(empty.clone()).unwrap();
        assert_eq!(holder.amount, None, "{empty}");
    }
    assert_eq!(
        serde_json::to_value(Holder { amount: None }).unwrap(),
        json!({ "amount": null })
    );
}

#[test]
fn a_feature_that_is_not_a_string_names_what_was_expected() {
    let body = |features: serde_json::Value| {
        json!([{
            "id": "r-1",
            "pairId": "BTC_ETH",
            "amount": {"assetId": "ETH", "value": 33},
            "minerFee": {"assetId": "ETH", "value": 0.001},
            "min": {"assetId": "BTC", "value": 0.01},
            "max": {"assetId": "BTC", "value": 2},
            "expiry": 1_785_000_000_000_u64,
            "features": features
        }])
    };
    let rates: RatesResponse = serde_json::from_value(body(json!(["exactOut"]))).unwrap();
    assert!(rates[0].supports_exact_out());
    let error = serde_json::from_value::<RatesResponse>(body(json!([7])))
        .unwrap_err()
        .to_string();
    assert!(error.contains("a feature name"), "{error}");
}

/// A sponsored variant's max is `min(max, campaign limit)`; on a tie the
/// provider's own `max` stands, as it was written.
#[test]
fn a_campaign_limit_caps_max_only_when_below_it() {
    use swaproute::{EpochMillis, PairId, Rate, RateId, RateTerms};
    let rate = Rate::new(
        RateId::new("r-1").unwrap(),
        PairId::new("BTC_ETH").unwrap(),
        RateTerms {
            multiplier: "33".parse().unwrap(),
            miner_fee: "0.001".parse().unwrap(),
            min: "0.01".parse().unwrap(),
            max: "2.00".parse().unwrap(),
        },
        EpochMillis::new(1_785_000_000_000),
    )
    .sponsored_by(id("spring"));
    let with_limit = |limit: &str| {
        let mut limits = CampaignLimits::new();
        limits.insert(id("spring"), amount(limit));
        rate.effective_max(&limits).to_string()
    };
    assert_eq!(with_limit("0.5"), "0.5");
    // Amounts drop trailing zeros, so the tie is told by the max's "2.00".
    assert_eq!(with_limit("2"), "2.00");
    assert_eq!(with_limit("2.000"), "2.00");
    assert_eq!(with_limit("3"), "2.00");
    assert_eq!(
        rate.effective_max(&CampaignLimits::new()).to_string(),
        "2.00"
    );
}

#[test]
fn a_rate_displays_its_terms_and_a_response_iterates_by_reference() {
    let body = json!([
        {"id": "r-1", "pairId": "BTC_ETH", "expiry": 1_785_000_000_000_u64,
         "amount": {"assetId": "ETH", "value": 33.5},
         "minerFee": {"assetId": "ETH", "value": 0.001},
         "min": {"assetId": "BTC", "value": 0.01},
         "max": {"assetId": "BTC", "value": 2}},
        {"id": "r-2", "pairId": "BTC_ETH", "expiry": 1_785_000_000_000_u64,
         "amount": {"assetId": "ETH", "value": "33.25"},
         "minerFee": {"assetId": "ETH", "value": 0},
         "min": {"assetId": "BTC", "value": 0},
         "max": {"assetId": "BTC", "value": 9}}
    ]);
    let rates: RatesResponse = serde_json::from_value(body).unwrap();
    assert_eq!(
        rates[0].to_string(),
        "rate r-1 (BTC_ETH): ×33.5 − 0.001 fee, limits [0.01, 2]"
    );
    let mut ids = Vec::new();
    for rate in &rates {
        ids.push(rate.id().as_str());
    }
    assert_eq!(ids, ["r-1", "r-2"]);
}

#[test]
fn a_rates_response_that_is_not_an_array_says_an_array_was_expected() {
    for body in [json!({}), json!("rates"), json!(7)] {
        let error = serde_json::from_value::<RatesResponse>(body.clone())
            .unwrap_err()
            .to_string();
        assert!(error.contains("a JSON array of rates"), "{body}: {error}");
    }
}
