//! Issue 28's chain parts (rulings 35 and 36 in docs/RULES.md): "no route"
//! without enumerating combinations, every `k` capped, exact floors and
//! ceilings between legs, and amounts too large for exact arithmetic
//! answered as the client's error.
#![allow(clippy::arithmetic_side_effects, clippy::cast_possible_wrap)]

use std::time::Instant;

use num_bigint::BigInt;
use proptest::prelude::*;
use swaproute::route::chain::{ChainNoRoute, ChainRequest, Market, MAX_ENUMERATION};
use swaproute::route::RouteRequest;
use swaproute::{
    Amount, AssetId, CampaignLimits, Decimal, EpochMillis, ErrorCode, PairId, Rate, RateId,
    RateTerms, RatesResponse,
};

use crate::common::chain_oracle::Q;
use crate::common::{amount, d};

const NOW: EpochMillis = EpochMillis::new(1_785_000_000_000);
const LATER: EpochMillis = EpochMillis::new(4_102_444_800_000);

fn asset(id: &str) -> AssetId {
    AssetId::new(id).unwrap()
}

/// One rate of `pair` (exactOut capable).
fn rate(pair: &str, id: &str, m: Decimal, fee: Decimal, min: Decimal, max: Decimal) -> Rate {
    Rate::new(
        RateId::new(id).unwrap(),
        PairId::new(pair).unwrap(),
        RateTerms {
            multiplier: m,
            miner_fee: fee,
            min,
            max,
        },
        LATER,
    )
    .with_exact_out(true)
}

fn response(rates: Vec<Rate>) -> RatesResponse {
    RatesResponse::try_from(rates).unwrap()
}

/// The issue's market: 6 pairs of `n` rates (SRC→M0, SRC→M1, M0→M1, M1→M0,
/// M0→DST, M1→DST). Every last leg asks for at least 10^6 (out of reach
/// of 1 SRC at ~20 × ~1), unless `reachable`, which gives one M0→DST rate
/// a min of 0.
fn issue_market(n: usize, reachable: bool) -> Vec<RatesResponse> {
    let spread = |base: i64, i: usize| Decimal::new(base * 1000 + (i as i64 * 7919) % 1000, 3);
    let pair = |name: &str, base: i64, min: Decimal| {
        response(
            (0..n)
                .map(|i| {
                    let min = if reachable && name == "M0_DST" && i == n / 2 {
                        Decimal::ZERO
                    } else {
                        min
                    };
                    rate(
                        name,
                        &format!("{name}-{i}"),
                        spread(base, i),
                        d("0.001"),
                        min,
                        d("100000000"),
                    )
                })
                .collect(),
        )
    };
    vec![
        pair("SRC_M0", 20, d("0.001")),
        pair("SRC_M1", 21, d("0.001")),
        pair("M0_M1", 1, d("0.001")),
        pair("M1_M0", 1, d("0.001")),
        pair("M0_DST", 20, d("1000000")),
        pair("M1_DST", 19, d("1000000")),
    ]
}

fn issue_request() -> ChainRequest {
    ChainRequest::exact_in(asset("SRC"), asset("DST"), amount("1"), NOW)
        .with_max_legs(3)
        .unwrap()
}

/// The issue's 6 × 400 market with every last leg refusing: answered leg by
/// leg. Each last-leg rate is counted once (800 BELOW_MIN), not once per
/// combination (400³ of them on each three-leg path), and the answer takes
/// a bounded time (it took 18.9 s in release before; a debug build of the
/// old enumeration would take minutes).
#[test]
fn no_route_on_the_issue_market_is_decided_leg_by_leg() {
    let data = issue_market(400, false);
    let market = Market::new(data.iter(), &CampaignLimits::new(), NOW).unwrap();
    let request = issue_request();
    let started = Instant::now();
    let error = request.best(&market).unwrap_err();
    let best_time = started.elapsed();
    // Paths SRC>M0>DST, SRC>M1>DST, SRC>M0>M1>DST, SRC>M1>M0>DST: the
    // middle legs pass; all 800 rates of M0_DST and M1_DST are below their
    // min (1000000) at every reachable input (at most ~22 × 1.999).
    assert_eq!(
        error,
        ChainNoRoute::Rejected {
            counts: vec![("BELOW_MIN", 800)]
        }
    );
    assert_eq!(error.code(), ErrorCode::AmountBelowLimit);
    let started = Instant::now();
    assert_eq!(request.top(&market, 5).unwrap_err(), error);
    let selection = request.select(&market, 5);
    let rest_time = started.elapsed();
    assert_eq!(selection.no_route(), Some(&error));
    assert_eq!(selection.rejected_counts(), &[("BELOW_MIN", 800)]);
    assert_eq!(selection.rejected().len(), 5);
    assert!(selection.chains().is_empty());
    eprintln!("6 x 400 no route: best {best_time:?}, top + select {rest_time:?}");
    assert!(
        best_time.as_secs() < 5 && rest_time.as_secs() < 10,
        "{best_time:?} {rest_time:?}"
    );
    // Listing every combination is refused before it starts.
    let too_many = request.select_all(&market, 5).unwrap_err();
    assert_eq!(too_many.cap, MAX_ENUMERATION);
    // 2 × (400 + 400²) + 2 × (400 + 400² + 400³) leg checks.
    assert_eq!(
        too_many.checks,
        2 * (400 + 160_000) + 2 * (400 + 160_000 + 64_000_000)
    );
}

/// The same market with one reachable last-leg rate answers with its chain.
#[test]
fn the_issue_market_with_a_route_answers_with_it() {
    let data = issue_market(400, true);
    let market = Market::new(data.iter(), &CampaignLimits::new(), NOW).unwrap();
    let request = issue_request();
    let best = request.best(&market).unwrap();
    let last = best.legs().last().unwrap();
    assert_eq!(last.rate().id().as_str(), "M0_DST-200");
    let selection = request.select(&market, 3);
    assert_eq!(selection.chains().first(), Some(&best));
    assert!(selection.no_route().is_none());
    // 799 last-leg rates refused (each once), the reachable one is not.
    assert_eq!(selection.rejected_counts(), &[("BELOW_MIN", 799)]);
}

/// Issue 28, item 2: `k` is capped at the candidates before anything is
/// allocated (a one-rate market has one chain whatever `k` is).
#[test]
fn every_k_is_capped() {
    let data = [response(vec![rate(
        "A_B",
        "ab",
        d("2"),
        d("0.01"),
        d("0.001"),
        d("10"),
    )])];
    let market = Market::new(data.iter(), &CampaignLimits::new(), NOW).unwrap();
    let request = ChainRequest::exact_in(asset("A"), asset("B"), amount("1"), NOW);
    for k in [usize::MAX, 1 << 40, 10_000_000, 2] {
        let top = request.top(&market, k).unwrap();
        assert_eq!(top.len(), 1, "k {k}");
        // 1 × 2 − 0.01
        assert_eq!(top[0].final_output(), Some(d("1.99")));
        let selection = request.select(&market, k);
        assert_eq!(selection.chains().len(), 1);
        let all = request.select_all(&market, k).unwrap();
        assert_eq!(all.chain_count(), Some(1));
        let single = RouteRequest::exact_in(amount("1"), NOW)
            .top(&data[0], k)
            .unwrap();
        assert_eq!(single.len(), 1);
    }
    assert!(request.top(&market, 0).unwrap().is_empty());
    // No chain: the error, whatever k is.
    let none = ChainRequest::exact_in(asset("A"), asset("B"), amount("100"), NOW);
    assert_eq!(
        none.top(&market, usize::MAX).unwrap_err().code(),
        ErrorCode::AmountAboveLimit
    );
}

/// Issue 28, item 3: the exact leg-1 output is 408314371.08314566999…98,
/// whose 8-place floor is …566, below leg 2's min (…567): no chain. (A
/// product `Decimal` had rounded to 28 digits floored to …567.)
#[test]
fn a_leg_floor_is_the_floor_of_the_exact_output() {
    let data = [
        response(vec![rate(
            "A_B",
            "ab",
            d("33.07346643902441"),
            d("0"),
            d("0.001"),
            d("100000000"),
        )]),
        response(vec![rate(
            "B_C",
            "bc",
            d("1"),
            d("0"),
            d("408314371.08314567"),
            d("100000000000"),
        )]),
    ];
    // By hand: 12345678.12345678 × 33.07346643902441
    //   = 408314371.0831456699999999999998 (30 places, exact).
    let exact = Q::of(d("12345678.12345678")).mul(&Q::of(d("33.07346643902441")));
    assert_eq!(exact.floor8(), Q::of(d("408314371.08314566")));
    let market = Market::new(data.iter(), &CampaignLimits::new(), NOW).unwrap();
    let request = ChainRequest::exact_in(asset("A"), asset("C"), amount("12345678.12345678"), NOW);
    let error = request.best(&market).unwrap_err();
    assert_eq!(
        error,
        ChainNoRoute::Rejected {
            counts: vec![("BELOW_MIN", 1)]
        }
    );
    assert_eq!(error.code(), ErrorCode::AmountBelowLimit);
    // One unit more of input crosses the min: the chain exists, and its
    // second leg's input is the exact floor.
    let request = ChainRequest::exact_in(asset("A"), asset("C"), amount("12345678.12345679"), NOW);
    let chain = request.best(&market).unwrap();
    let exact = Q::of(d("12345678.12345679")).mul(&Q::of(d("33.07346643902441")));
    assert_eq!(Q::of(chain.legs()[1].input()), exact.floor8());
}

/// Issue 28, item 4: ExactOut whose toAmount overflows at every rate is the
/// client's error, 400 INVALID_AMOUNT naming `toAmount`, not 503.
#[test]
fn an_amount_too_large_for_exact_arithmetic_is_the_clients_error() {
    let data = [
        response(vec![rate(
            "BTC_ETH",
            "be",
            d("30"),
            d("0.01"),
            d("0.001"),
            d("10"),
        )]),
        response(vec![rate(
            "ETH_SOL",
            "es",
            d("0.5"),
            d("0.01"),
            d("0.001"),
            d("1000"),
        )]),
    ];
    let market = Market::new(data.iter(), &CampaignLimits::new(), NOW).unwrap();
    let huge = amount("79228162514264337593543950335");
    let request = ChainRequest::exact_out(asset("BTC"), asset("SOL"), huge, NOW);
    let error = request.best(&market).unwrap_err();
    assert_eq!(
        error,
        ChainNoRoute::TooLarge {
            field: "toAmount",
            amount: huge.get()
        }
    );
    let api = error.to_api_error();
    assert_eq!(api.code(), ErrorCode::InvalidAmount);
    assert_eq!(api.http_status().as_u16(), 400);
    assert!(api.details().contains("toAmount"), "{}", api.details());
    assert_eq!(request.select(&market, 3).no_route(), Some(&error));
    // ExactIn: a fromAmount within a rate's max whose product overflows.
    let data = [response(vec![rate(
        "A_B",
        "ab",
        d("1000000"),
        d("0"),
        d("0"),
        d("79228162514264337593543950335"),
    )])];
    let market = Market::new(data.iter(), &CampaignLimits::new(), NOW).unwrap();
    let request = ChainRequest::exact_in(asset("A"), asset("B"), huge, NOW);
    let error = request.best(&market).unwrap_err();
    assert_eq!(error.code(), ErrorCode::InvalidAmount);
    assert!(error.to_string().contains("fromAmount"), "{error}");
}

/// `n / 10^s` from big integers, as a `Decimal`.
fn dec(n: &BigInt, s: u32) -> Decimal {
    let n: i128 = n.try_into().unwrap();
    Decimal::from_i128_with_scale(n, s)
}

proptest! {
    /// Ruling 35, both modes, against big integers: 17-significant-digit
    /// multipliers, 16-digit amounts. ExactIn: leg 2's input is the floor of
    /// the exact leg-1 output, and leg 2 (min at that floor, or one unit
    /// above it) accepts exactly when the floor reaches its min. ExactOut:
    /// each required input is the ceiling of the exact quotient.
    #[test]
    fn leg_floors_and_ceilings_are_of_exact_values(
        m1 in 10_000_000_000_000_000i64..100_000_000_000_000_000,
        m1_scale in 14u32..=17,
        m2 in 10_000_000_000_000_000i64..100_000_000_000_000_000,
        m2_scale in 15u32..=17,
        fee1 in 0i64..100_000_000,
        x in 1_000_000_000_000_000i64..10_000_000_000_000_000,
        x_scale in 8u32..=8,
        above in any::<bool>(),
    ) {
        let (m1, m2) = (Decimal::new(m1, m1_scale), Decimal::new(m2, m2_scale));
        let fee1 = Decimal::new(fee1, 8);
        let x = Decimal::new(x, x_scale);
        // ExactIn: the exact floor of x × m1 − fee1.
        let floor = Q::of(x).mul(&Q::of(m1)).sub(&Q::of(fee1)).floor8();
        prop_assume!(floor.is_positive());
        let min2 = if above { &floor.n + 1 } else { floor.n.clone() };
        let data = [
            response(vec![rate("A_B", "ab", m1, fee1, d("0"), d("100000000000"))]),
            response(vec![rate("B_C", "bc", m2, d("0"), dec(&min2, 8), d("1000000000000"))]),
        ];
        let market = Market::new(data.iter(), &CampaignLimits::new(), NOW).unwrap();
        let request = ChainRequest::exact_in(asset("A"), asset("C"), Amount::new(x).unwrap(), NOW);
        match request.best(&market) {
            Ok(chain) => {
                prop_assert!(!above);
                prop_assert_eq!(Q::of(chain.legs()[1].input()), floor);
            }
            Err(error) => {
                prop_assert!(above, "{:?}", error);
                prop_assert_eq!(error.code(), ErrorCode::AmountBelowLimit);
            }
        }
        // ExactOut: toAmount x; leg 2 requires ceil8((x + 0) / m2), leg 1
        // ceil8((required2 + fee1) / m1).
        let required2 = Q::of(x).ceil8_div(&Q::of(m2));
        let required1 = Q::of(dec(&required2.n, 8)).add(&Q::of(fee1)).ceil8_div(&Q::of(m1));
        let max1 = if above { &required1.n - 1 } else { required1.n.clone() };
        prop_assume!(max1 > BigInt::from(0));
        let data = [
            response(vec![rate("A_B", "ab", m1, fee1, d("0"), dec(&max1, 8))]),
            response(vec![rate("B_C", "bc", m2, d("0"), d("0"), d("100000000000000"))]),
        ];
        let market = Market::new(data.iter(), &CampaignLimits::new(), NOW).unwrap();
        let request = ChainRequest::exact_out(asset("A"), asset("C"), Amount::new(x).unwrap(), NOW);
        match request.best(&market) {
            Ok(chain) => {
                prop_assert!(!above);
                prop_assert_eq!(Q::of(chain.legs()[1].input()), required2);
                prop_assert_eq!(Q::of(chain.legs()[0].input()), required1);
            }
            Err(error) => {
                prop_assert!(above, "{:?}", error);
                prop_assert_eq!(error.code(), ErrorCode::AmountAboveLimit);
            }
        }
    }
}

/// `(multiplier mantissa, min mantissa, width)` → a rate of `pair` with a
/// narrow window of inputs `[min, min + width]` (2 places).
fn narrow(pair: &str, i: usize, (m, min, width): (i64, i64, i64)) -> Rate {
    rate(
        pair,
        &format!("{pair}-{i}"),
        Decimal::new(m, 2),
        d("0.01"),
        Decimal::new(min, 2),
        Decimal::new(min + width, 2),
    )
}

proptest! {
    /// Three-leg paths whose legs accept narrow windows of inputs, so that a
    /// middle leg's outputs often straddle a last-leg window without a
    /// point inside it: leg by leg (`best`, `select`) decides "no route"
    /// as trying every combination does (`select_all`), in both modes.
    #[test]
    fn narrow_windows_on_three_legs_match_the_enumeration(
        legs in proptest::collection::vec(
            proptest::collection::vec((50i64..300, 1i64..2000, 0i64..40), 1..7),
            3,
        ),
        direct in proptest::collection::vec((50i64..300, 1i64..2000, 0i64..40), 0..3),
        amount in 100i64..3000,
        exact_out in any::<bool>(),
    ) {
        let names = ["A_B", "B_C", "C_D"];
        // The legs judged first take every input (many reachable amounts);
        // the one judged last has narrow windows among them.
        let narrow_leg = if exact_out { 0 } else { 2 };
        let mut data: Vec<RatesResponse> = legs
            .iter()
            .zip(names)
            .enumerate()
            .map(|(leg, (specs, pair))| {
                response(
                    specs
                        .iter()
                        .enumerate()
                        .map(|(i, &(m, min, width))| {
                            if leg == narrow_leg {
                                narrow(pair, i, (m, min, width))
                            } else {
                                narrow(pair, i, (m, 1, 100_000_000))
                            }
                        })
                        .collect(),
                )
            })
            .collect();
        // A second middle route, B→E→… is not needed: A→B→C→D and a
        // sometimes-present A→D.
        if !direct.is_empty() {
            data.push(response(
                direct.iter().enumerate().map(|(i, &spec)| narrow("A_D", i, spec)).collect(),
            ));
        }
        let market = Market::new(data.iter(), &CampaignLimits::new(), NOW).unwrap();
        let value = Amount::new(Decimal::new(amount, 2)).unwrap();
        let request = if exact_out {
            ChainRequest::exact_out(asset("A"), asset("D"), value, NOW)
        } else {
            ChainRequest::exact_in(asset("A"), asset("D"), value, NOW)
        }
        .with_max_legs(3)
        .unwrap();
        let all = request.select_all(&market, 1000).unwrap();
        let best = request.best(&market);
        if let Some(first) = all.chains().first() {
            prop_assert_eq!(best.as_ref().ok(), Some(first));
        } else {
            prop_assert_eq!(best.as_ref().err(), all.no_route());
            let bounded = request.select(&market, 1000);
            prop_assert_eq!(bounded.no_route(), all.no_route());
        }
        let report = request.select(&market, 1000);
        prop_assert_eq!(report.rejected_counts(), all.rejected_counts());
    }
}
