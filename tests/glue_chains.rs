//! Issue 31, item 4: the chained-route query parser (the body decoders'
//! codes and messages) and a market decoded from several pairs' rates, each
//! checked against its key. Expected values by hand in the comments.

use serde_json::json;
use swaproute::order::{ChainQuery, RequestErrors, RouteQuery};
use swaproute::route::{InvalidRatesByPair, RatesByPair};
use swaproute::wire::RequestField;
use swaproute::{ApiError, CampaignLimits, EpochMillis, ErrorCode, RatesResponse, SwapMode};

const NOW: EpochMillis = EpochMillis::new(1_785_000_000_000);

fn listed(errors: &RequestErrors) -> Vec<(RequestField, ErrorCode, String)> {
    errors
        .all()
        .iter()
        .map(|e| (e.field(), e.code(), e.to_string()))
        .collect()
}

fn query(pairs: &[(&str, &str)]) -> Result<ChainQuery, RequestErrors> {
    ChainQuery::from_pairs(pairs.iter().copied())
}

#[test]
fn a_chain_query_reads_its_keys() {
    let q = query(&[("from", "BTC"), ("to", "SOL"), ("fromAmount", "0.5")]).unwrap();
    assert_eq!((q.from().as_str(), q.to().as_str()), ("BTC", "SOL"));
    assert_eq!(q.swap_mode(), SwapMode::ExactIn);
    assert_eq!(q.from_amount().unwrap().to_string(), "0.5");
    assert_eq!(q.to_amount(), None);
    assert_eq!(q.max_legs(), 2);
    let request = q.chain_request(NOW);
    assert_eq!(request.mode(), SwapMode::ExactIn);
    assert_eq!(request.from_amount().unwrap().to_string(), "0.5");
    assert_eq!(request.max_legs(), 2);

    for (legs, expected) in [("1", 1), ("2", 2), ("3", 3), ("03", 3)] {
        let q = query(&[
            ("from", "A"),
            ("to", "B"),
            ("fromAmount", "1"),
            ("maxLegs", legs),
        ])
        .unwrap();
        assert_eq!(q.chain_request(NOW).max_legs(), expected, "{legs}");
    }

    // ExactOut without fromAmount: the chain works back from toAmount.
    let q = query(&[
        ("from", "BTC"),
        ("to", "SOL"),
        ("swapMode", "ExactOut"),
        ("toAmount", "419.85"),
    ])
    .unwrap();
    assert_eq!(q.from_amount(), None);
    let request = q.chain_request(NOW);
    assert_eq!(request.mode(), SwapMode::ExactOut);
    assert_eq!(request.to_amount().unwrap().to_string(), "419.85");
}

#[test]
fn a_chain_query_answers_as_the_body_decoders_do() {
    // Amount problems read as in a route query (and so as in a body).
    for text in [
        "",
        "0",
        "1e5",
        "-1",
        "0.5.1",
        " 1",
        "abc",
        "99999999999999999999999999999",
    ] {
        let chain = query(&[("from", "BTC"), ("to", "SOL"), ("fromAmount", text)]).unwrap_err();
        let route = RouteQuery::from_pairs([("fromAmount", text)]).unwrap_err();
        assert_eq!(listed(&chain), listed(&route), "{text:?}");
    }
    // An unknown swap mode, the same words as a route query's.
    let chain = query(&[
        ("from", "BTC"),
        ("to", "SOL"),
        ("fromAmount", "1"),
        ("swapMode", "exactIn"),
    ])
    .unwrap_err();
    let route = RouteQuery::from_pairs([("fromAmount", "1"), ("swapMode", "exactIn")]).unwrap_err();
    assert_eq!(listed(&chain), listed(&route));
    assert_eq!(chain.first().code(), ErrorCode::UnsupportedSwapMode);

    // Every problem, in priority order: INVALID_REQUEST by field order
    // (from, to, …, maxLegs), then INVALID_AMOUNT.
    let errors = query(&[("to", "a b"), ("maxLegs", "0"), ("fromAmount", "0")]).unwrap_err();
    assert_eq!(
        listed(&errors),
        [
            (RequestField::From, ErrorCode::InvalidRequest, "from: is required".to_owned()),
            (
                RequestField::To,
                ErrorCode::InvalidRequest,
                "to: id contains ' ' (U+0020) at byte 1: an id is plain text, without whitespace, quotes or invisible characters".to_owned()
            ),
            (
                RequestField::MaxLegs,
                ErrorCode::InvalidRequest,
                "maxLegs: a chain has 1 to 3 legs, not 0".to_owned()
            ),
            (
                RequestField::FromAmount,
                ErrorCode::InvalidAmount,
                "fromAmount: must be greater than zero".to_owned()
            ),
        ]
    );
    let api = ApiError::from(errors);
    assert_eq!(
        (api.code(), api.details()),
        (ErrorCode::InvalidRequest, "from: is required")
    );

    for legs in ["", "+2", " 2", "two", "2.0", "-1"] {
        let errors = query(&[
            ("from", "A"),
            ("to", "B"),
            ("fromAmount", "1"),
            ("maxLegs", legs),
        ])
        .unwrap_err();
        assert_eq!(
            errors.first().to_string(),
            "maxLegs: must be a whole number from 1 to 3",
            "{legs:?}"
        );
    }
    // Too many digits for a usize is out of range, not a panic.
    let errors = query(&[
        ("from", "A"),
        ("to", "B"),
        ("fromAmount", "1"),
        ("maxLegs", "99999999999999999999999"),
    ])
    .unwrap_err();
    assert_eq!(
        errors.first().to_string(),
        format!("maxLegs: a chain has 1 to 3 legs, not {}", usize::MAX)
    );

    let same = query(&[("from", "BTC"), ("to", "BTC"), ("fromAmount", "1")]).unwrap_err();
    assert_eq!(
        same.first().to_string(),
        "to: is the same asset as from (BTC)"
    );

    let missing = query(&[("from", "BTC"), ("to", "SOL"), ("swapMode", "ExactOut")]).unwrap_err();
    assert_eq!(missing.first().to_string(), "toAmount: is required");
    let missing = query(&[("from", "BTC"), ("to", "SOL"), ("toAmount", "5")]).unwrap_err();
    assert_eq!(missing.first().to_string(), "fromAmount: is required");

    let repeated = query(&[
        ("from", "BTC"),
        ("from", "ETH"),
        ("to", "SOL"),
        ("fromAmount", "1"),
    ])
    .unwrap_err();
    assert_eq!(
        repeated.first().to_string(),
        "from: is repeated; send it once"
    );
}

fn rate(pair: &str, id: &str, multiplier: &str) -> serde_json::Value {
    let (from, to) = pair.split_once('_').unwrap();
    json!({"amount":{"assetId":to,"value":multiplier},"expiry":4_102_444_800_000_u64,"id":id,
        "max":{"assetId":from,"value":"1000"},"min":{"assetId":from,"value":"0.001"},
        "minerFee":{"assetId":to,"value":"0.01"},"pairId":pair,"features":["exactOut"]})
}

#[test]
fn a_market_from_a_map_of_pairs_or_a_list_of_responses() {
    let map: RatesByPair = serde_json::from_value(json!({
        "BTC_ETH": [rate("BTC_ETH", "a", "30")],
        "ETH_SOL": [rate("ETH_SOL", "b", "14")],
        "SOL_BTC": [],
    }))
    .unwrap();
    assert_eq!(map.len(), 3);
    let list: RatesByPair = serde_json::from_value(json!([
        [rate("ETH_SOL", "b", "14")],
        [],
        [rate("BTC_ETH", "a", "30")],
    ]))
    .unwrap();
    // The empty response names no pair: skipped in the list form.
    assert_eq!(list.len(), 2);
    assert_eq!(
        list.iter()
            .map(|(pair, _)| pair.as_str())
            .collect::<Vec<_>>(),
        ["BTC_ETH", "ETH_SOL"]
    );

    let campaigns = CampaignLimits::new();
    let market = list.market(&campaigns, NOW).unwrap();
    // ExactIn 1 BTC: 1 × 30 − 0.01 = 29.99 ETH, 29.99 × 14 − 0.01 = 419.85 SOL.
    let q = query(&[("from", "BTC"), ("to", "SOL"), ("fromAmount", "1")]).unwrap();
    let best = q.chain_request(NOW).best(&market).unwrap();
    assert_eq!(best.final_output(), Some("419.85".parse().unwrap()));
    // ExactOut 419.85 SOL: (419.85 + 0.01) / 14 = 29.99 ETH, (29.99 + 0.01) / 30 = 1 BTC.
    let q = query(&[
        ("from", "BTC"),
        ("to", "SOL"),
        ("swapMode", "ExactOut"),
        ("toAmount", "419.85"),
    ])
    .unwrap();
    let best = q.chain_request(NOW).best(&market).unwrap();
    assert_eq!(best.required_input().unwrap().to_string(), "1.00000000");
    assert_eq!(best.legs()[1].input().to_string(), "29.99000000");
    // One leg only: no direct pair, so no route.
    let q = query(&[
        ("from", "BTC"),
        ("to", "SOL"),
        ("fromAmount", "1"),
        ("maxLegs", "1"),
    ])
    .unwrap();
    let no_route = q.chain_request(NOW).best(&market).unwrap_err();
    assert_eq!(ApiError::from(no_route).code(), ErrorCode::RouteUnavailable);

    // The map form: the same market.
    let market = map.market(&campaigns, NOW).unwrap();
    let q = query(&[("from", "BTC"), ("to", "SOL"), ("fromAmount", "1")]).unwrap();
    assert_eq!(
        q.chain_request(NOW).best(&market).unwrap().final_output(),
        Some("419.85".parse().unwrap())
    );
}

#[test]
fn each_response_is_checked_against_its_key() {
    let wrong = serde_json::from_value::<RatesByPair>(json!({
        "BTC_ETH": [rate("BTC_ETH", "a", "30")],
        "ETH_SOL": [rate("ETH_BTC", "b", "0.03")],
    }))
    .unwrap_err();
    assert!(
        wrong
            .to_string()
            .starts_with("the rates under key ETH_SOL are for ETH_BTC"),
        "{wrong}"
    );
    let twice = serde_json::from_value::<RatesByPair>(json!([
        [rate("BTC_ETH", "a", "30")],
        [rate("BTC_ETH", "b", "31")],
    ]))
    .unwrap_err();
    assert!(
        twice
            .to_string()
            .starts_with("two rates responses for pair BTC_ETH"),
        "{twice}"
    );
    // A key that is not a pair id, and a response that is not one pair's.
    assert!(serde_json::from_value::<RatesByPair>(json!({"BTC": []})).is_err());
    assert!(serde_json::from_value::<RatesByPair>(json!({
        "BTC_ETH": [rate("BTC_ETH", "a", "30"), rate("ETH_SOL", "b", "14")]}))
    .is_err());
    assert!(serde_json::from_value::<RatesByPair>(json!("BTC_ETH")).is_err());

    // The typed path.
    let btc_eth: RatesResponse =
        serde_json::from_value(json!([rate("BTC_ETH", "a", "30")])).unwrap();
    let mut by_pair = RatesByPair::new();
    let error = by_pair
        .insert("ETH_BTC".parse().unwrap(), btc_eth.clone())
        .unwrap_err();
    assert!(matches!(error, InvalidRatesByPair::KeyMismatch { .. }));
    let api = ApiError::from(error);
    assert_eq!(api.code(), ErrorCode::InternalError);
    assert_eq!(
        api.details(),
        "rates by pair: the rates under key ETH_BTC are for BTC_ETH"
    );
    by_pair
        .insert("BTC_ETH".parse().unwrap(), btc_eth.clone())
        .unwrap();
    assert_eq!(
        by_pair.insert("BTC_ETH".parse().unwrap(), btc_eth.clone()),
        Err(InvalidRatesByPair::DuplicatePair(Box::new(
            "BTC_ETH".parse().unwrap()
        )))
    );
    assert_eq!(
        RatesByPair::try_from(vec![btc_eth.clone(), RatesResponse::default(), btc_eth]),
        Err(InvalidRatesByPair::DuplicatePair(Box::new(
            "BTC_ETH".parse().unwrap()
        )))
    );
    // Written back as the map form.
    assert_eq!(
        serde_json::to_value(&by_pair).unwrap(),
        json!({"BTC_ETH": [serde_json::to_value(by_pair.get(&"BTC_ETH".parse().unwrap()).unwrap()).unwrap()[0]]})
    );
}
