//! Ruling 41: one policy, every question. The cases of issue 41 (each
//! computed by hand in its comments) and a property over random books and
//! random policies that every question agrees with `best` under the same
//! policy: the amounts that work, the rate they name, the amount a "no
//! route" names, every split leg, the rate book and a one-leg chain.

use proptest::prelude::*;
use swaproute::route::chain::{ChainRequest, Market};
use swaproute::route::{
    estimate_exact_out_under, FeasibleQuery, Floors, Policy, PolicyPart, PriceGuard,
    PriceReference, RateBook, SplitAnswer, SplitError, SplitPolicy,
};
use swaproute::{
    Amount, AssetId, CampaignLimits, EpochMillis, NoRoute, Rate, RatesResponse, RouteRequest,
    SwapMode,
};

use crate::common::{amount, btc_eth_rate, d};

const NOW: u64 = 1_785_000_000_000;
const LATER: u64 = 4_102_444_800_000;

fn now() -> EpochMillis {
    EpochMillis::new(NOW)
}

fn rate(id: &str, m: &str, fee: &str, min: &str, max: &str) -> Rate {
    btc_eth_rate(id, m, fee, min, max, EpochMillis::new(LATER))
}

fn id(route_rate: &Rate) -> &str {
    route_rate.id().as_str()
}

#[test]
fn a_split_never_routes_through_a_rate_the_guard_refused() {
    // honest ×33 (max 1), liar ×330 (max 100); 100 bps around 33.
    let rates = vec![
        rate("honest", "33", "0", "0", "1"),
        rate("liar", "330", "0", "0", "100"),
    ];
    let reference = PriceReference::new(d("33")).unwrap();
    let guard = PriceGuard::against(reference, 100);
    let request = RouteRequest::exact_in(amount("5"), now()).with_price_guard(&guard);
    // 5 BTC is above honest's max and liar is refused: no single route.
    assert!(matches!(
        request.best(&rates),
        Err(NoRoute::PriceOutliers { count: 1, .. })
    ));
    // The split may not take the liar: one rate cannot make a split.
    let split = request.split(&rates, &SplitPolicy::DEFAULT);
    assert!(
        matches!(
            split,
            Err(SplitError::NoRoute(NoRoute::PriceOutliers { .. }))
        ),
        "{split:?}"
    );
    // With a bound of 500 bps and a second honest rate, ×32 (303 bps off): the
    // split is 3 × 33 + 2 × 32 = 163 over the honest rates, not one through
    // the liar (which the search must not even consider: a split through
    // it would be refused leg by leg and leave no answer).
    let rates3 = vec![
        rate("honest", "33", "0", "0", "3"),
        rate("second", "32", "0", "0", "3"),
        rate("liar", "330", "0", "0", "100"),
    ];
    let wider = PriceGuard::against(reference, 500);
    let request500 = RouteRequest::exact_in(amount("5"), now()).with_price_guard(&wider);
    match request500.split(&rates3, &SplitPolicy::DEFAULT).unwrap() {
        SplitAnswer::Split(split) => {
            let legs: Vec<(&str, String)> = split
                .legs()
                .iter()
                .map(|l| (id(l.rate()), l.from_amount().to_string()))
                .collect();
            assert_eq!(
                legs,
                [
                    ("honest", "3.00000000".to_owned()),
                    ("second", "2.00000000".to_owned())
                ]
            );
            assert_eq!(split.net_output(), d("163"));
        }
        other @ SplitAnswer::Single(_) => {
            panic!("expected a split over the honest rates: {other:?}")
        }
    }
    // With a gain asked for, at an amount the honest rate serves: the
    // single honest route, never a split through the liar.
    let small = RouteRequest::exact_in(amount("0.5"), now()).with_price_guard(&guard);
    let policy = SplitPolicy::DEFAULT.with_min_gain_bps(0);
    match small.split(&rates, &policy).unwrap() {
        SplitAnswer::Single(route) => assert_eq!(id(route.rate()), "honest"),
        other @ SplitAnswer::Split(_) => panic!("a split through the liar: {other:?}"),
    }
}

#[test]
fn rates_that_can_serve_nothing_have_no_vote() {
    // Three honest ×33, one outlier ×330, and three "decoys" ×330 whose fee
    // (1000 ETH) exceeds what any amount they accept (at most 1 BTC, 330
    // ETH) can pay. Voters: 33, 33, 33, 330: the median is (33 + 33) / 2 = 33.
    let mut rates = vec![
        rate("h1", "33", "0", "0", "10"),
        rate("h2", "33", "0.001", "0", "10"),
        rate("h3", "33", "0.002", "0", "10"),
        rate("outlier", "330", "0", "0", "10"),
    ];
    for decoy in ["d1", "d2", "d3"] {
        rates.push(rate(decoy, "330", "1000", "0.1", "1"));
    }
    let guard = PriceGuard::median(500);
    let request = RouteRequest::exact_in(amount("1"), now()).with_price_guard(&guard);
    assert_eq!(
        request.price_reference(&rates).map(|r| r.to_string()),
        Some("33".into())
    );
    assert_eq!(id(request.best(&rates).unwrap().rate()), "h1");
    let selection = request.select(&rates);
    let outlier = selection
        .rejected()
        .iter()
        .find(|r| id(r.rate()) == "outlier")
        .unwrap();
    assert_eq!(outlier.reason().code(), "PRICE_OUTLIER");
    // Every question of the request uses that one reference.
    let feasible = FeasibleQuery::new(SwapMode::ExactIn, now())
        .with_policy(request.policy())
        .amounts(&rates)
        .unwrap();
    assert_eq!(id(feasible.max().unwrap().rate()), "h1");
}

#[test]
fn under_a_guard_no_route_names_an_amount_that_works() {
    // ×33 and ×33.1 (min 1), ×900000 (min 0.1); 500 bps around the median.
    // Voters: all three (each serves 1 to 8); median 33.1; 900000 refused.
    let rates = vec![
        rate("a", "33", "0", "1", "8"),
        rate("b", "33.1", "0", "1", "8"),
        rate("liar", "900000", "0", "0.1", "8"),
    ];
    let guard = PriceGuard::median(500);
    let at = |x: &str| RouteRequest::exact_in(amount(x), now()).with_price_guard(&guard);
    // 0.05: below every min (the liar's 0.1 is the smallest); the smallest
    // amount that works under the guard is 1 (b's), not 0.1.
    let below = at("0.05").best(&rates).unwrap_err();
    assert_eq!(below.working().unwrap().to_string(), "1.00000000");
    // 0.1: only the liar accepts it and the guard refuses it; the amount
    // that works is named.
    let refused = at("0.1").best(&rates).unwrap_err();
    assert_eq!(refused.code().as_str(), "PRICE_OUTLIER");
    assert_eq!(refused.working().unwrap().to_string(), "1.00000000");
    assert!(at("1").best(&rates).is_ok());
    // The amounts that work agree: they start at 1, not at 0.1.
    let feasible = FeasibleQuery::new(SwapMode::ExactIn, now())
        .with_policy(at("1").policy())
        .amounts(&rates)
        .unwrap();
    assert_eq!(feasible.min().unwrap().amount().to_string(), "1.00000000");
    assert!(!feasible.contains(d("0.5")));
}

#[test]
fn the_estimate_the_book_and_chains_apply_the_guard() {
    let rates = vec![
        rate("a", "33", "0", "0.001", "8").with_exact_out(true),
        rate("b", "33.1", "0", "0.001", "8").with_exact_out(true),
        rate("liar", "900000", "0", "0.001", "8").with_exact_out(true),
    ];
    let guard = PriceGuard::median(500);
    let policy = Policy::DEFAULT.with_price_guard(&guard);
    // ExactOut 10 ETH: b needs ceil8(10 / 33.1) = 0.30211481, the liar
    // 0.00001112, refused.
    let estimate = estimate_exact_out_under(&rates, amount("10"), now(), policy).unwrap();
    assert_eq!(id(estimate.rate()), "b");
    assert_eq!(estimate.from_amount().to_string(), "0.30211481");
    let request = RouteRequest::exact_out(
        Amount::new(estimate.from_amount().get()).unwrap(),
        amount("10"),
        now(),
    )
    .with_policy(policy);
    assert_eq!(id(request.best(&rates).unwrap().rate()), "b");
    // The book, as best.
    let book = RateBook::with_policy(&rates, policy, now()).unwrap();
    let x = amount("2");
    let single = RouteRequest::exact_in(x, now()).with_policy(policy);
    assert_eq!(book.best(x, now()), single.best(&rates));
    assert_eq!(id(book.best(x, now()).unwrap().rate()), "b");
    // The book holds the floors too: a dust floor of 1 refuses the honest
    // rates at 0.02 (b: 0.02 × 33.1 = 0.662) and none at 2.
    let floors = policy.with_floors(Floors::NONE.with_dust(amount("1")));
    let book = RateBook::with_policy(&rates, floors, now()).unwrap();
    for x in ["0.02", "2"] {
        let single = RouteRequest::exact_in(amount(x), now()).with_policy(floors);
        assert_eq!(book.best(amount(x), now()), single.best(&rates), "{x}");
    }
    // (At 0.02 only the outlier clears the floor: the answer is its refusal.)
    let below = book.best(amount("0.02"), now());
    assert!(
        matches!(below, Err(NoRoute::PriceOutliers { .. })),
        "{below:?}"
    );
    assert_eq!(id(book.best(amount("2"), now()).unwrap().rate()), "b");
    // A one-leg chain, as the single pair.
    let response = RatesResponse::try_from(rates.clone()).unwrap();
    let market = Market::new([&response], &CampaignLimits::new(), now()).unwrap();
    let chain = ChainRequest::exact_in(
        AssetId::new("BTC").unwrap(),
        AssetId::new("ETH").unwrap(),
        x,
        now(),
    )
    .with_policy(policy)
    .unwrap();
    let best = chain.best(&market).unwrap();
    assert_eq!(id(best.legs()[0].rate()), "b");
    assert_eq!(best.final_output(), Some(d("66.2")));
    // Campaigns belong to the market: a chain refuses them by type.
    let mut campaigns = CampaignLimits::new();
    campaigns.insert(swaproute::CampaignId::new("c").unwrap(), amount("1"));
    let refused = ChainRequest::exact_in(
        AssetId::new("BTC").unwrap(),
        AssetId::new("ETH").unwrap(),
        x,
        now(),
    )
    .with_policy(Policy::DEFAULT.with_campaigns(&campaigns));
    assert_eq!(refused.unwrap_err().part, PolicyPart::Campaigns);
}

// ---------------------------------------------------------------------------
// Agreement across questions over random books and random policies.

const MULTIPLIERS: &[&str] = &["0.5", "30", "33", "33.1", "34", "330", "900000"];
const FEES: &[&str] = &["0", "0.01", "1", "1000"];
const MINS: &[&str] = &["0", "0.1", "1", "3"];
const MAXES: &[&str] = &["0.5", "2", "5", "10", "100"];
const AMOUNTS: &[&str] = &[
    "0.05",
    "0.1",
    "0.5",
    "0.99999999",
    "1",
    "1.5",
    "2",
    "3",
    "5",
    "7.5",
    "10",
    "50",
    "100",
    "150",
];

fn book() -> impl Strategy<Value = Vec<Rate>> {
    prop::collection::vec(
        (
            0..MULTIPLIERS.len(),
            0..FEES.len(),
            0..MINS.len(),
            0..MAXES.len(),
            prop::bool::weighted(0.15),
            prop::bool::weighted(0.7),
            prop::bool::weighted(0.2),
        ),
        1..7,
    )
    .prop_map(|specs| {
        specs
            .into_iter()
            .enumerate()
            .map(|(i, (m, f, lo, hi, expired, exact_out, sponsored))| {
                let expiry = if expired { NOW - 1 } else { LATER };
                let rate = btc_eth_rate(
                    &format!("r{i}"),
                    MULTIPLIERS[m],
                    FEES[f],
                    MINS[lo],
                    MAXES[hi],
                    EpochMillis::new(expiry),
                )
                .with_exact_out(exact_out);
                if sponsored {
                    rate.sponsored_by(swaproute::CampaignId::new("c").unwrap())
                } else {
                    rate
                }
            })
            .collect()
    })
}

/// A guard (none, a median one, or around 33), floors (none or one), a
/// campaign limit (none, below or above most limits) and the limit policy.
#[derive(Clone, Debug)]
struct RandomPolicy {
    guard: Option<PriceGuard>,
    floors: Floors,
    campaign: Option<&'static str>,
    strict: bool,
}

fn policy() -> impl Strategy<Value = RandomPolicy> {
    let guard = prop_oneof![
        Just(None),
        prop::sample::select(vec![0u32, 100, 500, 10_000])
            .prop_map(|b| Some(PriceGuard::median(b))),
        Just(Some(PriceGuard::against(
            PriceReference::new(d("33")).unwrap(),
            500
        ))),
    ];
    let floors = prop_oneof![
        Just(Floors::NONE),
        Just(Floors::NONE.with_dust(Amount::parse("20").unwrap())),
        Just(Floors::NONE.with_fee_multiple(Amount::parse("50").unwrap())),
        Just(Floors::NONE.with_max_fee_share_bps(30)),
    ];
    let campaign = prop::sample::select(vec![None, Some("0.5"), Some("5")]);
    (guard, floors, campaign, any::<bool>()).prop_map(|(guard, floors, campaign, strict)| {
        RandomPolicy {
            guard,
            floors,
            campaign,
            strict,
        }
    })
}

/// The policy value of `random` (its campaigns in `campaigns`).
fn policy_of<'a>(random: &'a RandomPolicy, campaigns: &'a mut CampaignLimits) -> Policy<'a> {
    if let Some(limit) = random.campaign {
        campaigns.insert(swaproute::CampaignId::new("c").unwrap(), amount(limit));
    }
    let limits = if random.strict {
        swaproute::route::LimitPolicy::Strict
    } else {
        swaproute::route::LimitPolicy::Spec
    };
    let policy = Policy::DEFAULT
        .with_campaigns(campaigns)
        .with_limit_policy(limits)
        .with_floors(random.floors);
    policy.with_price_guard(random.guard.as_ref())
}

proptest! {
    #[test]
    fn every_question_agrees_with_best(
        rates in book(),
        random in policy(),
        at in 0..AMOUNTS.len(),
    ) {
        let mut campaigns = CampaignLimits::new();
        let policy = policy_of(&random, &mut campaigns);
        let best_at = |x: Amount| RouteRequest::exact_in(x, now()).with_policy(policy).best(&rates);
        let x = amount(AMOUNTS[at]);
        let best = best_at(x);
        let feasible = FeasibleQuery::new(SwapMode::ExactIn, now())
            .with_policy(policy)
            .amounts(&rates)
            .unwrap();
        // Feasible exactly when best serves it, with best's rate.
        prop_assert_eq!(feasible.contains(x.get()), best.is_ok());
        if let Ok(route) = &best {
            let served = feasible.max_within(x).unwrap();
            prop_assert_eq!(served.amount(), x.get());
            prop_assert_eq!(id(served.rate()), id(route.rate()));
            prop_assert_eq!(served.net_output(), route.net_output());
        }
        // The smallest and largest amounts that work are best's, with its rate.
        for end in [feasible.min(), feasible.max()].into_iter().flatten() {
            let there = best_at(Amount::new(end.amount()).unwrap());
            prop_assert_eq!(there.map(|r| id(r.rate()).to_owned()).ok(), Some(id(end.rate()).to_owned()));
        }
        // The amount a "no route" names works.
        if let Err(no_route) = &best {
            if let Some(working) = no_route.working_amount() {
                prop_assert!(best_at(Amount::new(working.amount()).unwrap()).is_ok(), "{}", no_route);
            }
        }
        // Every split leg is a route best accepts at its amount.
        let request = RouteRequest::exact_in(x, now()).with_policy(policy);
        let split_policy = SplitPolicy::DEFAULT.with_min_gain_bps(0);
        match request.split(&rates, &split_policy) {
            Ok(SplitAnswer::Split(split)) => {
                for leg in split.legs() {
                    let at_leg = RouteRequest::exact_in(Amount::new(leg.from_amount()).unwrap(), now())
                        .with_policy(policy)
                        .select(&rates);
                    prop_assert!(
                        at_leg.routes().iter().any(|r| id(r.rate()) == id(leg.rate())),
                        "leg {} at {} is not a route best accepts", id(leg.rate()), leg.from_amount()
                    );
                }
            }
            Ok(SplitAnswer::Single(route)) => {
                prop_assert_eq!(Some(id(route.rate())), best.as_ref().ok().map(|r| id(r.rate())));
            }
            Err(SplitError::NoRoute(_)) => prop_assert!(best.is_err()),
            Err(other) => prop_assert!(false, "{}", other),
        }
        // The book is best, floors and all.
        let book = RateBook::with_policy(&rates, policy, now()).unwrap();
        prop_assert_eq!(book.best(x, now()), best.clone());
        // A one-leg chain is the single pair (the market holds the campaigns).
        let response = RatesResponse::try_from(rates.clone()).unwrap();
        let market = Market::new([&response], &campaigns, now()).unwrap();
        let chain = ChainRequest::exact_in(
            AssetId::new("BTC").unwrap(),
            AssetId::new("ETH").unwrap(),
            x,
            now(),
        )
        .with_max_legs(1)
        .unwrap()
        .with_policy(Policy::DEFAULT.with_floors(random.floors))
        .unwrap();
        let chain = match &random.guard {
            Some(guard) => chain.with_price_guard(*guard),
            None => chain,
        }
        .best(&market);
        match (&chain, &best) {
            (Ok(chain), Ok(route)) => {
                prop_assert_eq!(id(chain.legs()[0].rate()), id(route.rate()));
                prop_assert_eq!(chain.final_output(), Some(route.net_output()));
            }
            (Err(_), Err(_)) => {}
            _ => prop_assert!(false, "chain {:?} against best {:?}", chain.as_ref().ok().map(swaproute::route::chain::Chain::final_output), best),
        }
    }

    #[test]
    fn exact_out_questions_agree(
        rates in book(),
        random in policy(),
        at in 0..AMOUNTS.len(),
    ) {
        let mut campaigns = CampaignLimits::new();
        // The estimate and the amounts that work hold the required input to
        // its limits: the strict policy is the one `best` agrees with there.
        let random = RandomPolicy { strict: true, ..random };
        let policy = policy_of(&random, &mut campaigns);
        let y = amount(AMOUNTS[at]);
        let feasible = FeasibleQuery::new(SwapMode::ExactOut, now())
            .with_policy(policy)
            .amounts(&rates)
            .unwrap();
        let estimate = estimate_exact_out_under(&rates, y, now(), policy);
        // A toAmount works exactly when the estimate finds a rate for it.
        prop_assert_eq!(feasible.contains(y.get()), estimate.is_ok());
        if let Ok(estimate) = estimate {
            // The rate named is the estimate's, and best at the estimate
            // ranks it first with that required input.
            let served = feasible.max_within(y).unwrap();
            prop_assert_eq!(id(served.rate()), id(estimate.rate()));
            let from = Amount::new(estimate.from_amount().get()).unwrap();
            let best = RouteRequest::exact_out(from, y, now()).with_policy(policy).best(&rates).unwrap();
            prop_assert_eq!(id(best.rate()), id(estimate.rate()));
            prop_assert_eq!(best.order_amount(), estimate.from_amount().get());
        } else if let Err(no_route) = &estimate {
            if let Some(working) = no_route.working_amount() {
                prop_assert!(
                    estimate_exact_out_under(&rates, Amount::new(working.amount()).unwrap(), now(), policy).is_ok(),
                    "{}", no_route
                );
            }
        }
    }

    #[test]
    fn amounts_on_an_assets_grid_agree_with_best(
        rates in book(),
        random in policy(),
        places in 0u8..4,
        units in 1u32..2000,
    ) {
        let mut campaigns = CampaignLimits::new();
        let policy = policy_of(&random, &mut campaigns);
        // An amount on the grid of `places` decimals.
        // `units` half-units of the last place, rounded to the grid.
        let half = swaproute::Decimal::new(i64::from(units), u32::from(places))
            .checked_mul(swaproute::Decimal::new(5, 1))
            .unwrap();
        let x = Amount::new(half.round_dp(u32::from(places))).unwrap();
        prop_assume!(!x.get().is_zero());
        let feasible = FeasibleQuery::new(SwapMode::ExactIn, now())
            .with_policy(policy)
            .with_decimals(places, 8)
            .amounts(&rates)
            .unwrap();
        let best = RouteRequest::exact_in(x, now()).with_policy(policy).best(&rates);
        prop_assert_eq!(feasible.contains(x.get()), best.is_ok());
        for end in [feasible.min(), feasible.max()].into_iter().flatten() {
            prop_assert!(end.amount().scale() <= u32::from(places));
            let there = RouteRequest::exact_in(Amount::new(end.amount()).unwrap(), now())
                .with_policy(policy)
                .best(&rates);
            prop_assert_eq!(there.map(|r| id(r.rate()).to_owned()).ok(), Some(id(end.rate()).to_owned()));
        }
    }
}

#[test]
fn a_route_query_estimates_under_the_contexts_guard() {
    use swaproute::order::{OrderContext, RouteQuery};
    use swaproute::screening::ScreeningPolicy;
    // ExactOut 40 ETH without fromAmount: unguarded the liar's required
    // input ceil8(40 / 900000) = 0.00004445 is the estimate; under the
    // context's guard (median 33.1) it is b's ceil8(40 / 33.1) = 1.20845922.
    let rates = vec![
        rate("a", "33", "0", "1", "8").with_exact_out(true),
        rate("b", "33.1", "0", "1", "8").with_exact_out(true),
        rate("liar", "900000", "0", "0.00001", "8").with_exact_out(true),
    ];
    let query = RouteQuery::from_pairs([("swapMode", "ExactOut"), ("toAmount", "40")]).unwrap();
    let screening = ScreeningPolicy::default();
    let guard = PriceGuard::median(500);
    let open = OrderContext::new(now(), &screening);
    let guarded = OrderContext::new(now(), &screening).with_price_guard(&guard);
    let unguarded = query.route_request_in(&rates, &open).unwrap();
    assert_eq!(unguarded.from_amount().to_string(), "0.00004445");
    let request = query.route_request_in(&rates, &guarded).unwrap();
    assert_eq!(request.from_amount().to_string(), "1.20845922");
    assert_eq!(id(request.best(&rates).unwrap().rate()), "b");
}

#[test]
fn exact_out_floors_hold_the_order_amount() {
    // ExactOut 0.99999999 ETH under a fee multiple of 50. r0: ×0.5, no fee:
    // required ceil8(0.99999999 / 0.5) = 1.99999998 (net 0.99999999 ≥ 0).
    // r1: ×30, fee 1: required ceil8(1.99999999 / 30) = 0.06666667, whose
    // net 1.0000001 is below 50 × 1: refused at the order's amount. At the
    // estimate 1.99999998, r1 would pay 58.9999994 ≥ 50: judging the floor
    // there (not at the order amount) would rank r1, against the estimate.
    let rates = vec![
        rate("r0", "0.5", "0", "0", "5").with_exact_out(true),
        rate("r1", "30", "1", "0", "5").with_exact_out(true),
    ];
    let policy = Policy::DEFAULT.with_floors(Floors::NONE.with_fee_multiple(amount("50")));
    let y = amount("0.99999999");
    let estimate = estimate_exact_out_under(&rates, y, now(), policy).unwrap();
    assert_eq!(
        (id(estimate.rate()), estimate.from_amount().to_string()),
        ("r0", "1.99999998".to_owned())
    );
    let from = Amount::new(estimate.from_amount().get()).unwrap();
    let selection = RouteRequest::exact_out(from, y, now())
        .with_policy(policy)
        .select(&rates);
    assert_eq!(id(selection.routes()[0].rate()), "r0");
    assert_eq!(selection.rejected()[0].reason().code(), "FEE_TOO_LARGE");
}

#[test]
fn the_amounts_that_work_name_the_exactly_better_rate() {
    // At 0.003, ×1 pays exactly 0.003 and ×1.000000000000000000000000001
    // pays 0.003000000000000000000000000003: both print 0.003 (28 places),
    // the second is better (ruling 43), though "a" comes first in the tie
    // order. The amounts that work name the rate best picks.
    let rates = vec![
        rate("a", "1", "0", "0.001", "1"),
        rate("b", "1.000000000000000000000000001", "0", "0.001", "1"),
    ];
    let x = amount("0.003");
    let best = RouteRequest::exact_in(x, now()).best(&rates).unwrap();
    assert_eq!(id(best.rate()), "b");
    let feasible = FeasibleQuery::new(SwapMode::ExactIn, now())
        .amounts(&rates)
        .unwrap();
    assert_eq!(id(feasible.max_within(x).unwrap().rate()), "b");
    assert_eq!(id(feasible.best_within(x).unwrap().rate()), "b");
}

#[test]
fn an_exact_out_refusal_names_its_remedy() {
    // Live rates list no features: ExactOut is refused, naming how the
    // caller states the capability (ruling 4); stated, the rate serves.
    let rates = RatesResponse::try_from(vec![rate("r", "20", "0.5", "0.001", "20")]).unwrap();
    let request = RouteRequest::exact_out(amount("12.5"), amount("249.5"), now());
    let error = request.best(&rates).unwrap_err();
    assert_eq!(error.code().as_str(), "UNSUPPORTED_SWAP_MODE");
    assert!(error.to_string().contains("assume_exact_out"), "{error}");
    let assumed = rates.assume_exact_out();
    // (249.5 + 0.5) / 20 = 12.5
    assert_eq!(
        request.best(&assumed).unwrap().order_amount().to_string(),
        "12.50000000"
    );
}

/// ExactOut, two rates whose exact required inputs tie (0.1 / 30 = 0.11 / 33
/// = 1/300): on the grid both need 0.00333334, where r1 yields 0.00333334 ×
/// 33 − 0.01 = 0.10000022 and r0 0.1000002. The estimator takes the higher
/// output (ruling 8, then ruling 43), and so do `best` and the amounts that
/// work (which took the lower fee before).
#[test]
fn exact_out_ties_in_required_input_go_to_the_higher_output_everywhere() {
    let rate = |id: &str, m: &str, fee: &str| {
        btc_eth_rate(id, m, fee, "0", "0.5", EpochMillis::new(LATER)).with_exact_out(true)
    };
    let rates = vec![rate("r0", "30", "0"), rate("r1", "33", "0.01")];
    let policy = Policy::DEFAULT.with_limit_policy(swaproute::route::LimitPolicy::Strict);
    let y = amount("0.1");
    let estimate = estimate_exact_out_under(&rates, y, now(), policy).unwrap();
    assert_eq!(
        (id(estimate.rate()), estimate.from_amount().get()),
        ("r1", d("0.00333334"))
    );
    let from = Amount::new(estimate.from_amount().get()).unwrap();
    let best = RouteRequest::exact_out(from, y, now())
        .with_policy(policy)
        .best(&rates)
        .unwrap();
    assert_eq!(id(best.rate()), "r1");
    let feasible = FeasibleQuery::new(SwapMode::ExactOut, now())
        .with_policy(policy)
        .amounts(&rates)
        .unwrap();
    assert_eq!(id(feasible.max_within(y).unwrap().rate()), "r1");
}

/// ExactOut, below every rate's min: the "no route" names the smallest
/// `toAmount` that works, the least over the rates, whichever comes first:
/// r1 (×30, min 1) serves from about 30 ETH, r2 (×30, min 0.5) from
/// 14.99999971 ETH, whose required input 0.4999999903… rounds up to the
/// 8-place 0.5 (14.9999997 needs 0.49999999, below the min).
#[test]
fn exact_out_no_route_names_the_least_working_to_amount_of_all_rates() {
    let rate = |id: &str, min: &str| {
        btc_eth_rate(id, "30", "0", min, "2", EpochMillis::new(LATER)).with_exact_out(true)
    };
    for rates in [
        vec![rate("r1", "1"), rate("r2", "0.5")],
        vec![rate("r2", "0.5"), rate("r1", "1")],
    ] {
        let no_route = estimate_exact_out_under(&rates, amount("1"), now(), Policy::DEFAULT)
            .err()
            .unwrap();
        let working = no_route.working_amount().unwrap();
        assert_eq!(working.amount(), d("14.99999971"), "{no_route}");
    }
}
