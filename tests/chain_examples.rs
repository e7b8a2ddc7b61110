//! Chained routes on small markets whose answers are worked out by hand
//! (ruling 24 in docs/RULES.md).

use crate::common::amount;
use serde_json::json;
use swaproute::route::chain::{ChainNoRoute, ChainRequest, InvalidMarket, Market};
use swaproute::{AssetId, CampaignLimits, EpochMillis, ErrorCode, RatesResponse};

const NOW: EpochMillis = EpochMillis::new(1_785_000_000_000);

/// A response of one pair: `(id, multiplier, fee, min, max, expiry, exactOut)`.
fn pair(pair: &str, rates: &[(&str, &str, &str, &str, &str, u64, bool)]) -> RatesResponse {
    let (from, to) = pair.split_once('_').unwrap();
    let list: Vec<serde_json::Value> = rates
        .iter()
        .map(|&(id, m, fee, min, max, expiry, exact_out)| {
            json!({
                "amount": {"assetId": to, "value": m.parse::<f64>().unwrap()},
                "expiry": expiry, "id": id,
                "max": {"assetId": from, "value": max.parse::<f64>().unwrap()},
                "min": {"assetId": from, "value": min.parse::<f64>().unwrap()},
                "minerFee": {"assetId": to, "value": fee.parse::<f64>().unwrap()},
                "pairId": pair,
                "features": if exact_out { json!(["exactOut"]) } else { json!([]) },
            })
        })
        .collect();
    serde_json::from_value(serde_json::Value::Array(list)).unwrap()
}

const LATER: u64 = 1_785_000_600_000;

fn asset(id: &str) -> AssetId {
    AssetId::new(id).unwrap()
}

fn ids(chain: &swaproute::route::chain::Chain<'_>) -> Vec<String> {
    chain
        .legs()
        .iter()
        .map(|leg| leg.rate().id().as_str().to_owned())
        .collect()
}

/// BTC→SOL directly at 400, or through ETH at 30 then 14 (fees 0.01).
fn market_data(direct: &str) -> Vec<RatesResponse> {
    vec![
        pair(
            "BTC_SOL",
            &[("d", direct, "0.01", "0.001", "10", LATER, true)],
        ),
        pair(
            "BTC_ETH",
            &[("e1", "30", "0.01", "0.001", "10", LATER, true)],
        ),
        pair(
            "ETH_SOL",
            &[("s1", "14", "0.01", "0.01", "100", LATER + 1, true)],
        ),
    ]
}

#[test]
fn two_legs_beat_the_direct_pair_and_report_each_leg() {
    let data = market_data("400");
    let market = Market::new(data.iter(), &CampaignLimits::new(), NOW).unwrap();
    let request = ChainRequest::exact_in(asset("BTC"), asset("SOL"), amount("1"), NOW);
    let best = request.best(&market).unwrap();
    // Direct: 1 × 400 − 0.01 = 399.99. Through ETH: 1 × 30 − 0.01 = 29.99
    // ETH (29.99000000 after the 8-place floor), × 14 − 0.01 = 419.85 SOL.
    assert_eq!(ids(&best), ["e1", "s1"]);
    assert_eq!(best.final_output(), Some("419.85".parse().unwrap()));
    assert_eq!(best.required_input(), None);
    assert_eq!(best.legs()[0].output(), "29.99".parse().unwrap());
    assert_eq!(best.legs()[1].input().to_string(), "29.99000000");
    // The chain expires with its earliest leg.
    assert_eq!(best.expiry(), EpochMillis::new(LATER));
    // JSON: legs with pair, rate, input and output; decimals as strings.
    assert_eq!(
        serde_json::to_value(best).unwrap(),
        json!({"legs":[
            {"pairId":"BTC_ETH","rateId":"e1","input":"1","output":"29.99"},
            {"pairId":"ETH_SOL","rateId":"s1","input":"29.99","output":"419.85"}],
          "finalOutput":"419.85","requiredInput":null,"expiry":LATER})
    );
    // With one leg allowed, the direct pair.
    let direct = request
        .clone()
        .with_max_legs(1)
        .unwrap()
        .best(&market)
        .unwrap();
    assert_eq!(ids(&direct), ["d"]);
    assert_eq!(direct.final_output(), Some("399.99".parse().unwrap()));
    // top(2): both, best first.
    let top: Vec<Vec<String>> = request.top(&market, 2).unwrap().iter().map(ids).collect();
    assert_eq!(top, [vec!["e1", "s1"], vec!["d"]]);
}

#[test]
fn equal_outputs_go_to_fewer_legs_then_pair_ids() {
    // Direct at 419.86: 419.86 − 0.01 = 419.85, the two-leg output: the
    // direct pair wins the tie (fewer legs).
    let data = market_data("419.86");
    let market = Market::new(data.iter(), &CampaignLimits::new(), NOW).unwrap();
    let request = ChainRequest::exact_in(asset("BTC"), asset("SOL"), amount("1"), NOW);
    assert_eq!(ids(&request.best(&market).unwrap()), ["d"]);
    // Two two-leg paths with equal outputs: through ETH and through USDT,
    // the same numbers: "BTC_ETH" < "BTC_USDT" by bytes.
    let data = [
        pair(
            "BTC_USDT",
            &[("u1", "30", "0.01", "0.001", "10", LATER, true)],
        ),
        pair(
            "USDT_SOL",
            &[("v1", "14", "0.01", "0.01", "100", LATER, true)],
        ),
        pair(
            "BTC_ETH",
            &[("e1", "30", "0.01", "0.001", "10", LATER, true)],
        ),
        pair(
            "ETH_SOL",
            &[("s1", "14", "0.01", "0.01", "100", LATER, true)],
        ),
    ];
    let market = Market::new(data.iter(), &CampaignLimits::new(), NOW).unwrap();
    let top: Vec<Vec<String>> = request.top(&market, 2).unwrap().iter().map(ids).collect();
    assert_eq!(top, [vec!["e1", "s1"], vec!["u1", "v1"]]);
    // Within a pair, equal outputs go to the lower fee: a2 (30.001, fee
    // 0.011) gives 1 × 30.001 − 0.011 = 29.99 as e1 does, with a higher fee.
    let data = [
        pair(
            "BTC_ETH",
            &[
                ("a2", "30.001", "0.011", "0.001", "10", LATER, true),
                ("e1", "30", "0.01", "0.001", "10", LATER, true),
            ],
        ),
        pair(
            "ETH_SOL",
            &[("s1", "14", "0.01", "0.01", "100", LATER, true)],
        ),
    ];
    let market = Market::new(data.iter(), &CampaignLimits::new(), NOW).unwrap();
    let top: Vec<Vec<String>> = request.top(&market, 2).unwrap().iter().map(ids).collect();
    assert_eq!(top, [vec!["e1", "s1"], vec!["a2", "s1"]]);
    // The best alone too: a2 is walked first (higher multiplier), e1 ties
    // its output and must still replace it.
    assert_eq!(ids(&request.best(&market).unwrap()), ["e1", "s1"]);
}

#[test]
fn exact_out_works_backwards_and_ranks_by_required_input() {
    let data = market_data("400");
    let market = Market::new(data.iter(), &CampaignLimits::new(), NOW).unwrap();
    let request = ChainRequest::exact_out(asset("BTC"), asset("SOL"), amount("419.85"), NOW);
    let best = request.best(&market).unwrap();
    // Through ETH: ETH_SOL needs (419.85 + 0.01) / 14 = 29.99 ETH; BTC_ETH
    // needs (29.99 + 0.01) / 30 = 1 BTC. Directly: (419.85 + 0.01) / 400 =
    // 1.04965 BTC. The lower required input wins.
    assert_eq!(ids(&best), ["e1", "s1"]);
    assert_eq!(best.required_input().unwrap().to_string(), "1.00000000");
    assert_eq!(best.final_output(), None);
    assert_eq!(best.legs()[1].input().to_string(), "29.99000000");
    let top = request.top(&market, 2).unwrap();
    assert_eq!(top[1].required_input().unwrap().to_string(), "1.04965000");
    // A leg's required input is rounded up to 8 places: 1 / 3 → 0.33333334.
    let data = [pair("A_B", &[("r", "3", "0", "0", "10", LATER, true)])];
    let market = Market::new(data.iter(), &CampaignLimits::new(), NOW).unwrap();
    let chain = ChainRequest::exact_out(asset("A"), asset("B"), amount("1"), NOW)
        .best(&market)
        .unwrap();
    assert_eq!(chain.required_input().unwrap().to_string(), "0.33333334");
    assert_eq!(chain.legs()[0].output(), "1.00000002".parse().unwrap());
}

#[test]
fn no_route_is_classified() {
    let data = market_data("400");
    let market = Market::new(data.iter(), &CampaignLimits::new(), NOW).unwrap();
    // No path joins the assets.
    let error = ChainRequest::exact_in(asset("SOL"), asset("BTC"), amount("1"), NOW)
        .best(&market)
        .unwrap_err();
    assert!(
        matches!(error, ChainNoRoute::Unavailable { .. }),
        "{error:?}"
    );
    assert_eq!(error.code(), ErrorCode::RouteUnavailable);
    let error = ChainRequest::exact_in(asset("BTC"), asset("DOGE"), amount("1"), NOW)
        .best(&market)
        .unwrap_err();
    assert_eq!(error.code(), ErrorCode::RouteUnavailable);
    // Below every first leg's min (0.001): the limit code with the nearest min.
    let error = ChainRequest::exact_in(asset("BTC"), asset("SOL"), amount("0.0001"), NOW)
        .best(&market)
        .unwrap_err();
    assert_eq!(error.code(), ErrorCode::AmountBelowLimit);
    let api = error.to_api_error();
    assert_eq!(api.min(), Some("0.001".parse().unwrap()));
    // The first leg passes, the second fails: 0.001 BTC gives 0.001 × 30 −
    // 0.01 = 0.02 ETH, below ETH_SOL's min 0.05; the direct pair's min is
    // 0.002 BTC. Not every failure is a first leg's: the most common reason,
    // BELOW_MIN (2 chains).
    let data = [
        pair(
            "BTC_SOL",
            &[("d", "400", "0.01", "0.002", "10", LATER, true)],
        ),
        pair(
            "BTC_ETH",
            &[("e1", "30", "0.01", "0.001", "10", LATER, true)],
        ),
        pair(
            "ETH_SOL",
            &[("s1", "14", "0.01", "0.05", "100", LATER, true)],
        ),
    ];
    let market = Market::new(data.iter(), &CampaignLimits::new(), NOW).unwrap();
    let request = ChainRequest::exact_in(asset("BTC"), asset("SOL"), amount("0.001"), NOW);
    let error = request.best(&market).unwrap_err();
    assert_eq!(error.most_common(), Some("BELOW_MIN"));
    assert_eq!(error.code(), ErrorCode::AmountBelowLimit);
    match &error {
        ChainNoRoute::Rejected { counts } => assert_eq!(counts, &[("BELOW_MIN", 2)]),
        other => panic!("{other:?}"),
    }
    // The selection says which leg failed and why: the chain that got
    // further first.
    assert_eq!(
        serde_json::to_value(request.select(&market, 10)).unwrap(),
        json!({"mode":"ExactIn","from":"BTC","to":"SOL","fromAmount":"0.001","toAmount":null,
          "chains":[],
          "rejected":[
            {"legs":["BTC_ETH","ETH_SOL"],"leg":2,"rateId":"s1","reason":"BELOW_MIN"},
            {"legs":["BTC_SOL"],"leg":1,"rateId":"d","reason":"BELOW_MIN"}],
          "rejectedCounts":{"BELOW_MIN":2}})
    );
    // ExactOut needs the capability on every leg.
    let data = [
        pair(
            "BTC_ETH",
            &[("e1", "30", "0.01", "0.001", "10", LATER, true)],
        ),
        pair(
            "ETH_SOL",
            &[("s1", "14", "0.01", "0.01", "100", LATER, false)],
        ),
    ];
    let market = Market::new(data.iter(), &CampaignLimits::new(), NOW).unwrap();
    let error = ChainRequest::exact_out(asset("BTC"), asset("SOL"), amount("10"), NOW)
        .best(&market)
        .unwrap_err();
    assert_eq!(
        error.most_common(),
        Some("EXACT_OUT_UNSUPPORTED"),
        "{error:?}"
    );
    // The last leg is tried first in ExactOut and fails: leg 2 of 2, so not
    // a first-leg classification.
    assert!(matches!(error, ChainNoRoute::Rejected { .. }), "{error:?}");
    assert_eq!(error.code(), ErrorCode::UnsupportedSwapMode);
}

#[test]
fn bad_input_is_refused() {
    let request = ChainRequest::exact_in(asset("BTC"), asset("SOL"), amount("1"), NOW);
    for legs in [0, 4] {
        let error = request.clone().with_max_legs(legs).unwrap_err();
        assert_eq!(error.kind(), swaproute::ParseErrorKind::MaxLegs);
        assert_eq!(error.text(), legs.to_string());
        assert_eq!(
            error.to_string(),
            format!("a chain has 1 to 3 legs, not {legs}")
        );
    }
    assert_eq!(request.max_legs(), 2);
    let twice = [
        pair("BTC_ETH", &[("a", "30", "0", "0", "10", LATER, false)]),
        pair("BTC_ETH", &[("b", "31", "0", "0", "10", LATER, false)]),
    ];
    assert!(matches!(
        Market::new(twice.iter(), &CampaignLimits::new(), NOW),
        Err(InvalidMarket::DuplicatePair(_))
    ));
    // A chain from an asset to itself: none.
    let data = market_data("400");
    let market = Market::new(data.iter(), &CampaignLimits::new(), NOW).unwrap();
    let error = ChainRequest::exact_in(asset("BTC"), asset("BTC"), amount("1"), NOW)
        .best(&market)
        .unwrap_err();
    assert_eq!(error.code(), ErrorCode::RouteUnavailable);
}

#[test]
fn a_required_input_on_a_limit_is_within_it() {
    // 5 / 10 = 0.5 exactly: a rate whose min is 0.5, and one whose max is
    // 0.5, both take it (limits are inclusive at both ends).
    for (min, max) in [("0.5", "100"), ("0.1", "0.5")] {
        let data = [pair("A_B", &[("r", "10", "0", min, max, LATER, true)])];
        let market = Market::new(data.iter(), &CampaignLimits::new(), NOW).unwrap();
        let chain = ChainRequest::exact_out(asset("A"), asset("B"), amount("5"), NOW)
            .best(&market)
            .unwrap_or_else(|e| panic!("limits [{min}, {max}]: {e}"));
        assert_eq!(chain.required_input().unwrap().to_string(), "0.50000000");
    }
    // One unit past either end is out, with the limit named.
    for (min, max, code) in [
        ("0.50000001", "100", ErrorCode::AmountBelowLimit),
        ("0.1", "0.49999999", ErrorCode::AmountAboveLimit),
    ] {
        let data = [pair("A_B", &[("r", "10", "0", min, max, LATER, true)])];
        let market = Market::new(data.iter(), &CampaignLimits::new(), NOW).unwrap();
        let error = ChainRequest::exact_out(asset("A"), asset("B"), amount("5"), NOW)
            .best(&market)
            .unwrap_err();
        assert_eq!(error.code(), code, "limits [{min}, {max}]");
    }
}

#[test]
fn no_asset_twice_even_through_a_pair_of_one_asset() {
    // A pair from an asset to itself doubles it: a chain through it would
    // name the asset twice, which ruling 24 forbids.
    let data = [
        pair("A_A", &[("twice", "2", "0", "0", "100", LATER, true)]),
        pair("A_B", &[("ab", "3", "0", "0", "100", LATER, true)]),
    ];
    let market = Market::new(data.iter(), &CampaignLimits::new(), NOW).unwrap();
    for max_legs in 1..=3 {
        let request = ChainRequest::exact_in(asset("A"), asset("B"), amount("1"), NOW)
            .with_max_legs(max_legs)
            .unwrap();
        let selection = request.select_all(&market, 10).unwrap();
        assert_eq!(selection.chain_count(), Some(1), "max_legs {max_legs}");
        assert_eq!(ids(&request.best(&market).unwrap()), ["ab"]);
    }
}

#[test]
fn exact_out_ties_on_required_input_go_to_the_lower_fee() {
    // (1 + 0.2) / 2 = 0.6 and (1 + 0.14) / 1.9 = 0.6: equal required inputs;
    // "lo" (fee 0.14) is walked after "hi" (multiplier 2) and must win.
    let data = [pair(
        "A_B",
        &[
            ("hi", "2", "0.2", "0", "100", LATER, true),
            ("lo", "1.9", "0.14", "0", "100", LATER, true),
        ],
    )];
    let market = Market::new(data.iter(), &CampaignLimits::new(), NOW).unwrap();
    let request = ChainRequest::exact_out(asset("A"), asset("B"), amount("1"), NOW);
    let best = request.best(&market).unwrap();
    assert_eq!(ids(&best), ["lo"]);
    assert_eq!(best.required_input().unwrap().to_string(), "0.60000000");
    let top: Vec<Vec<String>> = request.top(&market, 2).unwrap().iter().map(ids).collect();
    assert_eq!(top, [vec!["lo"], vec!["hi"]]);
}

/// A market lists its pairs by from asset, then to asset, whatever order
/// the responses came in.
#[test]
fn a_market_lists_its_pairs_by_from_then_to_asset() {
    let data = market_data("400");
    let market = Market::new(data.iter(), &CampaignLimits::new(), NOW).unwrap();
    let ids: Vec<&str> = market.pair_ids().map(swaproute::PairId::as_str).collect();
    assert_eq!(ids, ["BTC_ETH", "BTC_SOL", "ETH_SOL"]);
}

/// The message of each "no chain" error, as its API error carries it.
#[test]
fn no_chain_errors_say_why_in_their_message() {
    let unavailable = ChainNoRoute::Unavailable {
        from: asset("BTC"),
        to: asset("SOL"),
        max_legs: 3,
    };
    assert_eq!(
        unavailable.to_string(),
        "no route joins BTC to SOL in at most 3 legs"
    );
    assert_eq!(
        unavailable.to_api_error().details(),
        "no route joins BTC to SOL in at most 3 legs"
    );
    let rejected = ChainNoRoute::Rejected {
        counts: vec![("BELOW_MIN", 3), ("EXPIRED", 1), ("ABOVE_MAX", 1)],
    };
    assert_eq!(
        rejected.to_string(),
        "no chain is left; reasons: BELOW_MIN: 3, EXPIRED: 1, ABOVE_MAX: 1"
    );
    let one = ChainNoRoute::Rejected {
        counts: vec![("EXPIRED", 2)],
    };
    assert_eq!(one.to_string(), "no chain is left; reasons: EXPIRED: 2");
}

/// A chain request says what it asks; a chain says which mode it was ranked in.
#[test]
fn a_chain_request_names_its_mode_amounts_and_instant() {
    use swaproute::SwapMode;
    let exact_in = ChainRequest::exact_in(asset("BTC"), asset("SOL"), amount("0.5"), NOW);
    assert_eq!(exact_in.mode(), SwapMode::ExactIn);
    assert_eq!(exact_in.from_amount(), Some(amount("0.5")));
    assert_eq!(exact_in.to_amount(), None);
    assert_eq!(exact_in.now(), NOW);

    let exact_out = ChainRequest::exact_out(
        asset("BTC"),
        asset("SOL"),
        amount("100"),
        EpochMillis::new(LATER),
    );
    assert_eq!(exact_out.mode(), SwapMode::ExactOut);
    assert_eq!(exact_out.from_amount(), None);
    assert_eq!(exact_out.to_amount(), Some(amount("100")));
    assert_eq!(exact_out.now(), EpochMillis::new(LATER));

    let data = market_data("400");
    let market = Market::new(data.iter(), &CampaignLimits::new(), NOW).unwrap();
    let request = ChainRequest::exact_out(asset("BTC"), asset("SOL"), amount("100"), NOW);
    let best = request.best(&market).unwrap();
    assert_eq!(best.mode(), SwapMode::ExactOut);
    let best_in = ChainRequest::exact_in(asset("BTC"), asset("SOL"), amount("0.5"), NOW)
        .best(&market)
        .unwrap();
    assert_eq!(best_in.mode(), SwapMode::ExactIn);
}

/// A chain's output is not a next input: a last leg may deliver less than
/// 10⁻⁸ (0.5 × 1 = 0.5 B, then 0.5 × 0.00000001 = 0.000000005 C).
#[test]
fn the_last_leg_may_deliver_less_than_one_unit_of_8_places() {
    let data = [
        pair("A_B", &[("ab", "1", "0", "0.001", "10", LATER, true)]),
        pair(
            "B_C",
            &[("bc", "0.00000001", "0", "0.001", "10", LATER, true)],
        ),
    ];
    let market = Market::new(data.iter(), &CampaignLimits::new(), NOW).unwrap();
    let chain = ChainRequest::exact_in(asset("A"), asset("C"), amount("0.5"), NOW)
        .best(&market)
        .unwrap();
    let expected: swaproute::Decimal = "0.000000005".parse().unwrap();
    assert_eq!(chain.output(), expected);
    assert_eq!(chain.legs().len(), 2);
}

/// A rejection names the leg that failed, counting from 1: here the second
/// (0.5 B is below B_C's minimum of 1).
#[test]
fn a_rejection_names_the_failing_leg() {
    let data = [
        pair("A_B", &[("ab", "1", "0", "0.001", "10", LATER, true)]),
        pair("B_C", &[("bc", "1", "0", "1", "10", LATER, true)]),
    ];
    let market = Market::new(data.iter(), &CampaignLimits::new(), NOW).unwrap();
    let selection =
        ChainRequest::exact_in(asset("A"), asset("C"), amount("0.5"), NOW).select(&market, 5);
    let rejection = &selection.rejected()[0];
    assert_eq!(rejection.leg(), 2);
    assert_eq!(rejection.reason().code(), "BELOW_MIN");
    assert_eq!(rejection.rate().id().as_str(), "bc");
    let pairs: Vec<&str> = rejection.pair_ids().iter().map(|p| p.as_str()).collect();
    assert_eq!(pairs, ["A_B", "B_C"]);
}

/// Nor must a chain's output fit an 8-place input: 10 A → 10 B → 10 × 10²⁰
/// = 10²¹ C, past the largest 8-place amount (2⁹⁶ / 10⁸ ≈ 7.9 × 10²⁰).
#[test]
fn the_last_leg_may_deliver_more_than_an_8_place_amount_holds() {
    let data = [
        pair("A_B", &[("ab", "1", "0", "0.001", "10", LATER, true)]),
        pair(
            "B_C",
            &[(
                "bc",
                "100000000000000000000",
                "0",
                "0.001",
                "10",
                LATER,
                true,
            )],
        ),
    ];
    let market = Market::new(data.iter(), &CampaignLimits::new(), NOW).unwrap();
    let chain = ChainRequest::exact_in(asset("A"), asset("C"), amount("10"), NOW)
        .best(&market)
        .unwrap();
    let expected: swaproute::Decimal = "1000000000000000000000".parse().unwrap();
    assert_eq!(chain.output(), expected);
}
