//! Rates that lie about their pair, lists that mix pairs or repeat ids,
//! campaign limits below a rate's min, and ExactOut order amounts outside the
//! rate's limits (rulings 18, 23, 30 and 31 in docs/RULES.md).
//!
//! Every expected value comes from the ruling or is worked out by hand in a
//! comment: `net = fromAmount × multiplier − minerFee`, ExactOut required
//! input `⌈(toAmount + minerFee) / multiplier⌉₈`.

use crate::common::{amount, d};
use serde_json::{json, Value};
use swaproute::order::{FixedOrderRequest, OrderContext, PlanError};
use swaproute::rate::{InvalidRates, RateField};
use swaproute::route::{estimate_exact_out, LimitCheck, LimitPolicy, NoRoute, RateBook};
use swaproute::screening::{NetworkKind, ScreeningPolicy};
use swaproute::{
    ApiError, CampaignId, CampaignLimits, EpochMillis, ErrorCode, Rate, RateDefect, RatesResponse,
    RejectReason, RouteRequest,
};

const NOW: EpochMillis = EpochMillis::new(1_785_000_000_000);
const LATER: u64 = 4_102_444_800_000;

/// A rate object as the service writes it; `assets` are (amount, minerFee,
/// min, max) asset ids.
fn rate_json(id: &str, pair: &str, m: &str, fee: &str, limits: (&str, &str)) -> Value {
    let (from, to) = pair.split_once('_').unwrap();
    rate_json_assets(id, pair, m, fee, limits, [to, to, from, from])
}

fn rate_json_assets(
    id: &str,
    pair: &str,
    m: &str,
    fee: &str,
    (min, max): (&str, &str),
    [a, f, lo, hi]: [&str; 4],
) -> Value {
    json!({
        "amount": {"assetId": a, "value": d(m).to_string().parse::<f64>().unwrap()},
        "expiry": LATER,
        "id": id,
        "max": {"assetId": hi, "value": max.parse::<f64>().unwrap()},
        "min": {"assetId": lo, "value": min.parse::<f64>().unwrap()},
        "minerFee": {"assetId": f, "value": fee.parse::<f64>().unwrap()},
        "pairId": pair,
        "features": ["exactOut"],
    })
}

fn rate(value: &Value) -> Rate {
    serde_json::from_value(value.clone()).unwrap()
}

fn response(rates: &[Value]) -> RatesResponse {
    serde_json::from_value(Value::Array(rates.to_vec())).unwrap()
}

// ---------------------------------------------------------------- ruling 18

/// The case: a `BTC_ETH` rate whose `amount.assetId` is `DOGE` with
/// multiplier 900000 used to rank first; so did rates whose `minerFee` or
/// `max` named another asset.
#[test]
fn rates_that_name_another_asset_are_invalid_and_never_ranked() {
    let rates = response(&[
        rate_json("honest", "BTC_ETH", "33.1", "0.0002", ("0.001", "8")),
        rate_json_assets(
            "doge",
            "BTC_ETH",
            "900000",
            "0",
            ("0.001", "8"),
            ["DOGE", "ETH", "BTC", "BTC"],
        ),
        rate_json_assets(
            "fee-in-btc",
            "BTC_ETH",
            "40",
            "0",
            ("0.001", "8"),
            ["ETH", "BTC", "BTC", "BTC"],
        ),
        rate_json_assets(
            "min-in-doge",
            "BTC_ETH",
            "41",
            "0",
            ("0.001", "8"),
            ["ETH", "ETH", "DOGE", "BTC"],
        ),
        rate_json_assets(
            "max-in-eth",
            "BTC_ETH",
            "42",
            "0",
            ("0.001", "8"),
            ["ETH", "ETH", "BTC", "ETH"],
        ),
    ]);
    let request = RouteRequest::exact_in(amount("0.5"), NOW);
    let best = request.best(&rates).unwrap();
    assert_eq!(best.rate().id().as_str(), "honest");
    assert_eq!(best.net_output(), d("16.5498")); // 0.5 × 33.1 − 0.0002
    for top in [
        request.top(&rates, 5).unwrap(),
        request.select(&rates).routes().to_vec(),
    ] {
        assert_eq!(top.len(), 1);
    }
    assert_eq!(request.top_n::<5>(&rates).unwrap().len(), 1);
    let book = RateBook::new(&rates, &CampaignLimits::new(), NOW);
    assert_eq!(
        book.best(amount("0.5"), NOW).unwrap().rate().id().as_str(),
        "honest"
    );

    let selection = request.select(&rates);
    let found: Vec<(&str, RejectReason)> = selection
        .rejected()
        .iter()
        .map(|r| (r.rate().id().as_str(), r.reason().clone()))
        .collect();
    let mismatch = |field, named: &str, required: &str| {
        RejectReason::InvalidRate(RateDefect::AssetMismatch {
            field,
            named: named.parse().unwrap(),
            required: required.parse().unwrap(),
        })
    };
    assert_eq!(
        found,
        [
            ("doge", mismatch(RateField::Amount, "DOGE", "ETH")),
            ("fee-in-btc", mismatch(RateField::MinerFee, "BTC", "ETH")),
            ("min-in-doge", mismatch(RateField::Min, "DOGE", "BTC")),
            ("max-in-eth", mismatch(RateField::Max, "ETH", "BTC")),
        ]
    );
    assert_eq!(selection.rejected()[0].reason().code(), "INVALID_RATE");
    assert_eq!(
        selection.rejected()[0].reason().to_string(),
        "invalid rate: amount.assetId is DOGE, but the pair's to asset is ETH"
    );
    assert_eq!(
        selection.rejected()[3].reason().to_string(),
        "invalid rate: max.assetId is ETH, but the pair's from asset is BTC"
    );
}

/// The asset check comes before the number checks: a liar with a negative
/// fee is reported for its asset.
#[test]
fn the_asset_defect_is_reported_before_the_number_defects() {
    let liar = rate(&rate_json_assets(
        "x",
        "BTC_ETH",
        "-1",
        "-1",
        ("0.001", "8"),
        ["SOL", "ETH", "BTC", "BTC"],
    ));
    assert!(matches!(
        liar.defect(),
        Some(RateDefect::AssetMismatch {
            field: RateField::Amount,
            ..
        })
    ));
    // Only liars: no valid rate at all.
    let request = RouteRequest::exact_in(amount("0.5"), NOW);
    let no_route = request.best(&[liar]).unwrap_err();
    assert_eq!(no_route, NoRoute::NoValidRates { count: 1 });
    assert_eq!(no_route.code(), ErrorCode::InsufficientLiquidity);
}

/// The case: a rates file mixing `BTC_ETH` and `BTC_SOL` ranked an
/// amount of SOL above an amount of ETH.
#[test]
fn a_list_mixing_pairs_is_refused_where_it_is_built_and_where_it_is_ranked() {
    let eth = rate_json("eth", "BTC_ETH", "33.1", "0.0002", ("0.001", "8"));
    let sol = rate_json("sol", "BTC_SOL", "600", "0.01", ("0.001", "8"));

    // Decoding names both pairs.
    let error = serde_json::from_value::<RatesResponse>(json!([eth, sol])).unwrap_err();
    let message = error.to_string();
    assert!(
        message.contains("BTC_ETH") && message.contains("BTC_SOL"),
        "{message}"
    );

    // TryFrom gives the typed error.
    let hand_built = vec![rate(&eth), rate(&sol)];
    match RatesResponse::try_from(hand_built.clone()) {
        Err(InvalidRates::MixedPairs(mixed)) => {
            assert_eq!(mixed.first().as_str(), "BTC_ETH");
            assert_eq!(mixed.other().as_str(), "BTC_SOL");
        }
        other => panic!("expected MixedPairs, got {other:?}"),
    }

    // Every engine entry point refuses a hand-built mixed slice.
    let request = RouteRequest::exact_in(amount("0.5"), NOW);
    let no_route = request.best(&hand_built).unwrap_err();
    let NoRoute::MixedPairs(mixed) = &no_route else {
        panic!("expected MixedPairs, got {no_route:?}");
    };
    assert_eq!(
        (mixed.first().as_str(), mixed.other().as_str()),
        ("BTC_ETH", "BTC_SOL")
    );
    assert_eq!(no_route.code(), ErrorCode::InternalError);
    assert_eq!(no_route.code().http_status().as_u16(), 500);
    assert!(no_route.to_string().contains("BTC_ETH and BTC_SOL"));
    assert_eq!(request.top(&hand_built, 3).unwrap_err(), no_route);
    assert_eq!(request.top_n::<3>(&hand_built).unwrap_err(), no_route);
    assert_eq!(request.best(hand_built.as_slice()).unwrap_err(), no_route);
    let selection = request.select(&hand_built);
    assert!(selection.routes().is_empty() && selection.rejected().is_empty());
    assert_eq!(selection.no_route(), Some(&no_route));
    let book = RateBook::new(&hand_built, &CampaignLimits::new(), NOW);
    assert_eq!(book.best(amount("0.5"), NOW).unwrap_err(), no_route);
    assert_eq!(
        estimate_exact_out(&hand_built, amount("10"), NOW).unwrap_err(),
        no_route
    );
    // One pair's slice still ranks.
    assert_eq!(
        request.best(&hand_built[..1]).unwrap().net_output(),
        d("16.5498")
    );
}

/// The case: `FixedOrderRequest::plan` planned a `BTC_SOL` body on
/// `BTC_ETH` rates.
#[test]
fn a_plan_refuses_rates_of_another_pair() {
    let rates = response(&[rate_json(
        "eth",
        "BTC_ETH",
        "33.1",
        "0.0002",
        ("0.001", "8"),
    )]);
    let body = json!({"pairId": "BTC_SOL", "fromAmount": "0.5", "toAmount": "300",
        "fromAddress": null, "toAddress": "4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T"});
    let request: FixedOrderRequest = serde_json::from_value(body).unwrap();
    let policy = ScreeningPolicy::new();
    let context = OrderContext::new(NOW, &policy);
    let error = request.plan(&rates, &context).unwrap_err();
    match &error {
        PlanError::RatesOfAnotherPair { rates, order } => {
            assert_eq!((rates.as_str(), order.as_str()), ("BTC_ETH", "BTC_SOL"));
        }
        other => panic!("expected RatesOfAnotherPair, got {other:?}"),
    }
    let error = ApiError::from(error);
    assert_eq!(error.code(), ErrorCode::InternalError);
    assert!(
        error.details().contains("BTC_ETH") && error.details().contains("BTC_SOL"),
        "{}",
        error.details()
    );
}

// ---------------------------------------------------------------- ruling 31

/// The case: two rates with id `X` (33× max 8 and 30× max 100); the
/// plan named `X`, and the service may match the other one.
#[test]
fn a_list_repeating_a_rate_id_is_refused() {
    let a = rate_json("X", "BTC_ETH", "33", "0", ("0.001", "8"));
    let b = rate_json("X", "BTC_ETH", "30", "0", ("0.001", "100"));
    let error = serde_json::from_value::<RatesResponse>(json!([a, b])).unwrap_err();
    assert!(
        error
            .to_string()
            .contains("rate id X appears more than once"),
        "{error}"
    );
    let hand_built = vec![rate(&a), rate(&b)];
    match RatesResponse::try_from(hand_built.clone()) {
        Err(InvalidRates::DuplicateId { id }) => assert_eq!(id.as_str(), "X"),
        other => panic!("expected DuplicateId, got {other:?}"),
    }
    // A plan over the hand-built list refuses it rather than name `X`.
    let body = json!({"pairId": "BTC_ETH", "fromAmount": "10", "toAmount": "300",
        "fromAddress": null, "toAddress": "0x52908400098527886E0F7030069857D2E4169EE7"});
    let request: FixedOrderRequest = serde_json::from_value(body).unwrap();
    let policy = ScreeningPolicy::new();
    let context =
        OrderContext::new(NOW, &policy).with_networks(NetworkKind::Other, NetworkKind::Evm);
    let error = request.plan(&hand_built, &context).unwrap_err();
    assert!(
        matches!(&error, PlanError::InvalidRates(InvalidRates::DuplicateId { id }) if id.as_str() == "X"),
        "{error:?}"
    );
    let error = ApiError::from(error);
    assert_eq!(error.code(), ErrorCode::InternalError);
    assert!(error.details().contains('X'), "{}", error.details());
    // Distinct ids are fine, even with equal numbers.
    let c = rate_json("Y", "BTC_ETH", "33", "0", ("0.001", "8"));
    assert_eq!(response(&[a, c]).len(), 2);
}

// ---------------------------------------------------------------- ruling 30

fn campaign() -> CampaignId {
    CampaignId::new("camp").unwrap()
}

/// The case: sponsored rate min 1, max 10, campaign limit 0.5. At 0.7
/// the answer was `AMOUNT_BELOW_LIMIT` min 1, at 1 `AMOUNT_ABOVE_LIMIT` max
/// 0.5: a client following either answer looped.
#[test]
fn a_campaign_limit_below_min_serves_no_amount_and_names_no_limit() {
    let sponsored =
        rate(&rate_json("s", "BTC_ETH", "33", "0", ("1", "10"))).sponsored_by(campaign());
    let mut limits = CampaignLimits::new();
    limits.insert(campaign(), amount("0.5"));
    for at in ["0.7", "1", "0.4", "5"] {
        let request = RouteRequest::exact_in(amount(at), NOW).with_campaigns(&limits);
        let selection = request.select(std::slice::from_ref(&sponsored));
        assert_eq!(
            selection.rejected()[0].reason(),
            &RejectReason::CampaignLimitBelowMin {
                min: d("1"),
                limit: d("0.5")
            },
            "at {at}"
        );
        let no_route = request.best(std::slice::from_ref(&sponsored)).unwrap_err();
        assert_eq!(
            no_route,
            NoRoute::CampaignLimitsBelowMin { count: 1 },
            "at {at}"
        );
        assert_eq!(no_route.code(), ErrorCode::InsufficientLiquidity);
        assert_eq!((no_route.min(), no_route.max()), (None, None));
    }
    // Beside a rate with limits [2, 5], only that rate's limits are named.
    let plain = rate(&rate_json("p", "BTC_ETH", "32", "0", ("2", "5")));
    let both = [sponsored, plain];
    let at = |x: &str| {
        RouteRequest::exact_in(amount(x), NOW)
            .with_campaigns(&limits)
            .best(&both)
            .unwrap_err()
    };
    let below = at("0.7");
    assert_eq!(
        (below.code(), below.min()),
        (ErrorCode::AmountBelowLimit, Some(d("2")))
    );
    let above = at("6");
    assert_eq!(
        (above.code(), above.max()),
        (ErrorCode::AmountAboveLimit, Some(d("5")))
    );
    // At 3 the plain rate serves: 3 × 32 = 96.
    let request = RouteRequest::exact_in(amount("3"), NOW).with_campaigns(&limits);
    assert_eq!(request.best(&both).unwrap().net_output(), d("96"));
    // Without the campaign's limit known, the variant is an ordinary rate.
    let request = RouteRequest::exact_in(amount("3"), NOW);
    assert_eq!(request.best(&both).unwrap().rate().id().as_str(), "s"); // 3 × 33 = 99
}

// ---------------------------------------------------------------- ruling 23

fn exact_out_rates() -> RatesResponse {
    response(&[
        rate_json("q", "BTC_ETH", "33.2", "0.00215", ("0.01", "3.5")),
        rate_json("wide", "BTC_ETH", "33", "0.001", ("0.0001", "100")),
    ])
}

/// The case: `toAmount 1000` on a rate with max 3.5 gave an order
/// amount of 30.1 BTC, silently; `toAmount 0.01` one below the rate's min.
#[test]
fn exact_out_routes_say_where_their_required_input_lies() {
    let rates = exact_out_rates();
    // fromAmount 1 is within q's limits; its net 1 × 33.2 − 0.00215 = 33.19785
    // beats wide's 1 × 33 − 0.001 = 32.999, so q ranks first (the spec's rule).
    let request = RouteRequest::exact_out(amount("1"), amount("1000"), NOW);
    let best = request.best(&rates).unwrap();
    assert_eq!(best.rate().id().as_str(), "q");
    // ⌈(1000 + 0.00215) / 33.2⌉₈ = ⌈30.120546686…⌉₈
    assert_eq!(best.order_amount(), d("30.12054669"));
    assert_eq!(
        best.required_input_limits(),
        Some(LimitCheck::AboveMax { max: d("3.5") })
    );
    // ⌈(1000 + 0.001) / 33⌉₈ = ⌈30.303060606…⌉₈, within [0.0001, 100].
    let selection = request.select(&rates);
    let second = &selection.routes()[1];
    assert_eq!(second.order_amount(), d("30.30306061"));
    assert_eq!(second.required_input_limits(), Some(LimitCheck::Within));

    // toAmount 0.01 at fromAmount 0.02: ⌈0.01215 / 33.2⌉₈ = 0.00036597 < min 0.01.
    let small = RouteRequest::exact_out(amount("0.02"), amount("0.01"), NOW);
    let best = small.best(&rates).unwrap();
    assert_eq!(best.rate().id().as_str(), "q");
    assert_eq!(best.order_amount(), d("0.00036597"));
    assert_eq!(
        best.required_input_limits(),
        Some(LimitCheck::BelowMin { min: d("0.01") })
    );

    // ExactIn routes have no required input to judge.
    let exact_in = RouteRequest::exact_in(amount("1"), NOW)
        .best(&rates)
        .unwrap();
    assert_eq!(exact_in.required_input_limits(), None);
}

#[test]
fn the_strict_policy_skips_routes_whose_required_input_is_out_of_limits() {
    let rates = exact_out_rates();
    let strict = RouteRequest::exact_out(amount("1"), amount("1000"), NOW)
        .with_limit_policy(LimitPolicy::Strict);
    let best = strict.best(&rates).unwrap();
    assert_eq!(best.rate().id().as_str(), "wide");
    assert_eq!(best.order_amount(), d("30.30306061"));
    let selection = strict.select(&rates);
    assert_eq!(
        selection.rejected()[0].reason(),
        &RejectReason::RequiredInputAboveMax {
            required: d("30.12054669"),
            max: d("3.5")
        }
    );
    assert_eq!(
        selection.rejected()[0].reason().code(),
        "REQUIRED_INPUT_ABOVE_MAX"
    );
    assert_eq!(strict.top(&rates, 2).unwrap().len(), 1);
    assert_eq!(strict.top_n::<2>(&rates).unwrap().len(), 1);

    // Below min, and nothing else left: the limit codes name q's min.
    let only_q = &rates[..1];
    let small = RouteRequest::exact_out(amount("0.02"), amount("0.01"), NOW)
        .with_limit_policy(LimitPolicy::Strict);
    assert_eq!(
        small.select(only_q).rejected()[0].reason(),
        &RejectReason::RequiredInputBelowMin {
            required: d("0.00036597"),
            min: d("0.01")
        }
    );
    let no_route = small.best(only_q).unwrap_err();
    assert_eq!(
        (no_route.code(), no_route.min()),
        (ErrorCode::AmountBelowLimit, Some(d("0.01")))
    );
    let big = RouteRequest::exact_out(amount("1"), amount("1000"), NOW)
        .with_limit_policy(LimitPolicy::Strict)
        .best(only_q)
        .unwrap_err();
    assert_eq!(
        (big.code(), big.max()),
        (ErrorCode::AmountAboveLimit, Some(d("3.5")))
    );

    // ExactIn ignores the policy.
    let exact_in = RouteRequest::exact_in(amount("1"), NOW).with_limit_policy(LimitPolicy::Strict);
    assert_eq!(exact_in.best(&rates).unwrap().rate().id().as_str(), "q");
}

#[test]
fn a_plan_is_strict_by_default_and_reports_its_amount_limits_when_told_not_to_be() {
    let rates = exact_out_rates();
    // fromAmount 3.4 is within q's [0.01, 3.5]; q's net 3.4 × 33.2 − 0.00215 =
    // 112.87785 beats wide's 3.4 × 33 − 0.001 = 112.199. q needs
    // ⌈117.00215 / 33.2⌉₈ = ⌈3.5241611445…⌉₈ = 3.52416115 (above 3.5), wide
    // ⌈117.001 / 33⌉₈ = ⌈3.5454848484…⌉₈ = 3.54548485. Slippage 10: the most
    // input is 3.4 × 110 / 100 = 3.74, above both (ruling 33).
    let body = json!({"pairId": "BTC_ETH", "fromAmount": "3.4", "toAmount": "117",
        "fromAddress": null, "toAddress": "0x52908400098527886E0F7030069857D2E4169EE7",
        "swapMode": "ExactOut", "slippage": "10"});
    let request: FixedOrderRequest = serde_json::from_value(body).unwrap();
    let policy = ScreeningPolicy::new();
    let context =
        OrderContext::new(NOW, &policy).with_networks(NetworkKind::Other, NetworkKind::Evm);
    // Ruling 34: strict by default.
    let plan = request.plan(&rates, &context).unwrap();
    assert_eq!(plan.rate_id().as_str(), "wide");
    assert_eq!(plan.amount(), d("3.54548485"));
    assert_eq!(plan.amount_limits(), Some(LimitCheck::Within));
    // The spec-literal policy is an explicit opt-out.
    let literal = context.with_limit_policy(LimitPolicy::Spec);
    let plan = request.plan(&rates, &literal).unwrap();
    assert_eq!(plan.rate_id().as_str(), "q");
    assert_eq!(plan.amount(), d("3.52416115"));
    assert_eq!(
        plan.amount_limits(),
        Some(LimitCheck::AboveMax { max: d("3.5") })
    );
}

// ---------------------------------------------------------------- ruling 22

/// The live capture has both spellings of `features` (present on three
/// entries, absent on three); tests/round_trip.rs checks that both survive
/// re-encoding, and this that the payload still exercises both.
#[test]
fn the_live_rates_capture_has_both_spellings_of_features() {
    let live: Value = serde_json::from_str(include_str!("payloads/rates-response.json")).unwrap();
    let with_features = live
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r.get("features").is_some())
        .count();
    assert_eq!(with_features, 3);
    let rates: RatesResponse = serde_json::from_value(live.clone()).unwrap();
    assert_eq!(serde_json::to_value(&rates).unwrap(), live);
}
