//! Exact splits (ruling 39): hand-computed examples, then a brute-force
//! oracle on big integers (every subset of at most 3 rates, every division
//! of the amount on a small 8-place grid; nothing shared with the engine).
#![allow(
    clippy::arithmetic_side_effects,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::many_single_char_names,
    clippy::too_many_lines,
    clippy::cast_possible_truncation
)]

use num_bigint::BigInt;
use proptest::prelude::*;
use swaproute::route::{
    Floors, Policy, RouteRequest, SplitAnswer, SplitError, SplitLegs, SplitPolicy, SplitStop,
};
use swaproute::{Amount, CampaignId, CampaignLimits, EpochMillis, Rate, RatesResponse};

use crate::common::{amount, btc_eth_rate};

const NOW: EpochMillis = EpochMillis::new(1_785_000_000_000);
const LATER: u64 = 4_102_444_800_000;
const EARLIER: u64 = 1_700_000_000_000;

fn rate(id: &str, m: &str, fee: &str, min: &str, max: &str) -> Rate {
    btc_eth_rate(id, m, fee, min, max, EpochMillis::new(LATER))
}

fn book(rates: Vec<Rate>) -> RatesResponse {
    RatesResponse::try_from(rates).unwrap()
}

fn legs_of(answer: &SplitAnswer<'_>) -> Vec<(String, String, String, SplitStop)> {
    answer
        .split()
        .unwrap()
        .legs()
        .iter()
        .map(|l| {
            (
                l.rate().id().as_str().to_owned(),
                l.from_amount().to_string(),
                l.net_output().normalize().to_string(),
                l.stop(),
            )
        })
        .collect()
}

#[test]
fn above_every_max_two_legs_by_hand() {
    // a: ×30 fee 0.01 [0.1, 6]; b: ×29 fee 0.02 [0.1, 5]. 10 BTC: a takes
    // its max 6 (higher multiplier), b the remaining 4:
    // 6 × 30 − 0.01 = 179.99, 4 × 29 − 0.02 = 115.98, total 295.97.
    let rates = book(vec![
        rate("a", "30", "0.01", "0.1", "6"),
        rate("b", "29", "0.02", "0.1", "5"),
    ]);
    let request = RouteRequest::exact_in(amount("10"), NOW);
    let answer = request.split(&rates, &SplitPolicy::DEFAULT).unwrap();
    assert_eq!(
        legs_of(&answer),
        vec![
            stop_leg("a", "6.00000000", "179.99", SplitStop::Max),
            stop_leg("b", "4.00000000", "115.98", SplitStop::Remainder),
        ]
    );
    let split = answer.split().unwrap();
    assert_eq!(split.net_output().to_string(), "295.97");
    assert_eq!(split.gain_bps(), None);
}

#[test]
fn lows_first_then_pour_by_multiplier() {
    // a: ×30 [4, 6]; b: ×29 [5, 9]. 10 BTC: b must take at least 5, so a
    // gets 5 (not its max 6): 5 × 30 − 0 + 5 × 29 − 0 = 295.
    let rates = book(vec![
        rate("a", "30", "0", "4", "6"),
        rate("b", "29", "0", "5", "9"),
    ]);
    assert_eq!(
        split_legs(&rates, "10", 3),
        vec![
            stop_leg("a", "5.00000000", "150", SplitStop::Remainder),
            stop_leg("b", "5.00000000", "145", SplitStop::Remainder),
        ]
    );
}

#[test]
fn single_route_when_one_serves_and_no_gain_asked() {
    let rates = book(vec![
        rate("a", "30", "0.01", "0.1", "6"),
        rate("b", "29", "0.02", "0.1", "5"),
    ]);
    let request = RouteRequest::exact_in(amount("5"), NOW);
    match request.split(&rates, &SplitPolicy::DEFAULT).unwrap() {
        SplitAnswer::Single(route) => assert_eq!(route.rate().id().as_str(), "a"),
        SplitAnswer::Split(_) => panic!("a single route serves 5"),
    }
}

#[test]
fn gain_asked_splits_when_it_pays() {
    // a: ×30 max 6; b: ×20 max 10; 8 BTC. Single: b only (a caps at 6):
    // 8 × 20 = 160. Split: a 6 × 30 = 180 + b 2 × 20 = 40 → 220.
    // Gain (220 − 160) / 160 = 3750 bps.
    let rates = book(vec![
        rate("a", "30", "0", "0.1", "6"),
        rate("b", "20", "0", "0.1", "10"),
    ]);
    let request = RouteRequest::exact_in(amount("8"), NOW);
    let policy = SplitPolicy::DEFAULT.with_min_gain_bps(3750);
    let answer = request.split(&rates, &policy).unwrap();
    let split = answer.split().unwrap();
    assert_eq!(split.net_output().to_string(), "220");
    assert_eq!(split.gain_bps().unwrap().to_string(), "3750");
    // One basis point more is not met: the single route.
    let policy = SplitPolicy::DEFAULT.with_min_gain_bps(3751);
    assert!(matches!(
        request.split(&rates, &policy).unwrap(),
        SplitAnswer::Single(_)
    ));
    // A per-order cost of 60 leaves no gain: 220 − 60 = 160, a tie, and
    // ties go to fewer legs.
    let policy = SplitPolicy::DEFAULT
        .with_min_gain_bps(0)
        .with_per_order_cost(amount("60"));
    assert!(matches!(
        request.split(&rates, &policy).unwrap(),
        SplitAnswer::Single(_)
    ));
}

#[test]
fn three_legs_and_the_two_leg_limit() {
    // Three rates of max 4 each, 10 BTC: only three legs serve it.
    let rates = book(vec![
        rate("a", "30", "0", "0.1", "4"),
        rate("b", "29", "0", "0.1", "4"),
        rate("c", "28", "0", "0.1", "4"),
    ]);
    let request = RouteRequest::exact_in(amount("10"), NOW);
    let answer = request.split(&rates, &SplitPolicy::DEFAULT).unwrap();
    // 4 × 30 + 4 × 29 + 2 × 28 = 120 + 116 + 56 = 292.
    assert_eq!(answer.split().unwrap().net_output().to_string(), "292");
    let two = SplitPolicy::DEFAULT.with_legs(SplitLegs::TWO);
    let err = request.split(&rates, &two).unwrap_err();
    assert_eq!(err.code().as_str(), "AMOUNT_ABOVE_LIMIT");
}

#[test]
fn one_leg_per_campaign() {
    let rates = book(vec![
        rate("a", "30", "0", "0.1", "6").sponsored_by(CampaignId::new("c").unwrap()),
        rate("b", "30", "0", "0.1", "6").sponsored_by(CampaignId::new("c").unwrap()),
        rate("z", "20", "0", "0.1", "6"),
    ]);
    let request = RouteRequest::exact_in(amount("10"), NOW);
    let answer = request.split(&rates, &SplitPolicy::DEFAULT).unwrap();
    let ids: Vec<_> = legs_of(&answer).into_iter().map(|l| l.0).collect();
    // a and b share a campaign: a (id order) with z.
    assert_eq!(ids, vec!["a".to_owned(), "z".to_owned()]);
}

#[test]
fn no_split_keeps_the_single_pairs_answer_and_exact_out_is_refused() {
    let rates = book(vec![rate("a", "30", "0", "0.1", "6")]);
    let request = RouteRequest::exact_in(amount("10"), NOW);
    let err = request.split(&rates, &SplitPolicy::DEFAULT).unwrap_err();
    assert!(matches!(err, SplitError::NoRoute(_)));
    assert_eq!(err.code().as_str(), "AMOUNT_ABOVE_LIMIT");
    let out = RouteRequest::exact_out(amount("1"), amount("30"), NOW);
    assert_eq!(
        out.split(&rates, &SplitPolicy::DEFAULT).unwrap_err(),
        SplitError::ExactOut
    );
    // An amount off the 8-place grid cannot be divided into 8-place legs.
    let rates = book(vec![
        rate("a", "30", "0", "0.1", "6"),
        rate("b", "29", "0", "0.1", "6"),
    ]);
    let request = RouteRequest::exact_in(amount("10.000000001"), NOW);
    assert!(request.split(&rates, &SplitPolicy::DEFAULT).is_err());
}

#[test]
fn identical_rates_tie_to_the_first_ids() {
    let rates = book(
        ["e", "d", "c", "b", "a"]
            .iter()
            .map(|id| rate(id, "30", "0.1", "0.1", "4"))
            .collect(),
    );
    let request = RouteRequest::exact_in(amount("7"), NOW);
    let answer = request.split(&rates, &SplitPolicy::DEFAULT).unwrap();
    let ids: Vec<_> = legs_of(&answer).into_iter().map(|l| (l.0, l.1)).collect();
    // Two legs (fewer than three), the first two ids; a poured first.
    assert_eq!(
        ids,
        vec![
            ("a".to_owned(), "4.00000000".to_owned()),
            ("b".to_owned(), "3.00000000".to_owned())
        ]
    );
}

use crate::common::split_oracle::{eligible, oracle, Oracle, R};

fn decimal(units: i64, places: u32) -> String {
    rust_decimal::Decimal::new(units, places).to_string()
}

fn build(rates: &[R]) -> RatesResponse {
    build_at(rates, 2)
}

/// The book with multipliers and fees at `places` places (the oracle's are
/// at 2): at 2 + k places every value is the oracle's × 10^-k, so the
/// answer's rates and amounts are the oracle's.
fn build_at(rates: &[R], places: u32) -> RatesResponse {
    book(
        rates
            .iter()
            .map(|r| {
                let expiry = if r.expired { EARLIER } else { LATER };
                let rate = btc_eth_rate(
                    &r.id,
                    &decimal(r.m, places),
                    &decimal(r.fee, places),
                    &decimal(r.min, 8),
                    &decimal(r.max, 8),
                    EpochMillis::new(expiry),
                );
                match r.campaign {
                    Some(c) => rate.sponsored_by(CampaignId::new(&format!("c{c}")).unwrap()),
                    None => rate,
                }
            })
            .collect(),
    )
}

fn engine(
    rates: &RatesResponse,
    total: i64,
    legs: usize,
    cost: i64,
    gain: Option<u32>,
    dust: Option<i64>,
) -> Oracle {
    engine_with(rates, total, legs, cost, gain, dust, None, 2)
}

/// `first_work`: the first walk's allowance (`Some(0)`: the dominance pass
/// always runs); `places`: those of the book's multipliers and fees
/// ([`build_at`]), of the cost and the dust too.
#[allow(clippy::too_many_arguments)]
fn engine_with(
    rates: &RatesResponse,
    total: i64,
    legs: usize,
    cost: i64,
    gain: Option<u32>,
    dust: Option<i64>,
    first_work: Option<u64>,
    places: u32,
) -> Oracle {
    let mut request = RouteRequest::exact_in(
        Amount::new(rust_decimal::Decimal::new(total, 8)).unwrap(),
        NOW,
    );
    if let Some(dust) = dust {
        request = request.with_floors(
            Floors::NONE.with_dust(Amount::new(rust_decimal::Decimal::new(dust, places)).unwrap()),
        );
    }
    let mut policy = SplitPolicy::DEFAULT
        .with_legs(SplitLegs::try_from(legs as u64).unwrap())
        .with_per_order_cost(Amount::new(rust_decimal::Decimal::new(cost, places)).unwrap());
    if let Some(bps) = gain {
        policy = policy.with_min_gain_bps(bps);
    }
    if let Some(units) = first_work {
        policy = policy.with_first_work_limit(units);
    }
    match request.split(rates, &policy) {
        Err(SplitError::NoRoute(_)) => Oracle::None,
        Err(e) => panic!("unexpected {e:?}"),
        Ok(SplitAnswer::Single(route)) => Oracle::Single(route.rate().id().as_str().to_owned()),
        Ok(SplitAnswer::Split(split)) => {
            let legs: Vec<(String, i64)> = split
                .legs()
                .iter()
                .map(|l| {
                    let x = l.from_amount();
                    assert_eq!(x.scale(), 8, "8-place leg amounts");
                    (
                        l.rate().id().as_str().to_owned(),
                        i64::try_from(x.mantissa()).unwrap(),
                    )
                })
                .collect();
            // The value the engine reports, at 10^-(8 + places).
            let value = split.value();
            let shift = 8 + places - value.scale();
            let value = BigInt::from(value.mantissa()) * BigInt::from(10).pow(shift);
            Oracle::Split { value, legs }
        }
    }
}

fn arb_rates() -> impl Strategy<Value = Vec<R>> {
    arb_book(1..6)
}

fn arb_book(size: core::ops::Range<usize>) -> impl Strategy<Value = Vec<R>> {
    prop::collection::vec(
        (
            // m: 10^4 .. 3 × 10^5, often one of a few values (ties).
            prop_oneof![
                1_000_000i64..30_000_000,
                prop::sample::select(vec![1_000_000i64, 2_000_000, 3_000_000]),
            ],
            prop::sample::select(vec![0i64, 0, 0, 1, 5]), // fee
            0i64..8,                                      // min units
            0i64..20,                                     // max − min
            prop::option::weighted(0.5, 0u8..2),
            prop::bool::weighted(0.1),
        ),
        size,
    )
    .prop_map(|raw| {
        raw.into_iter()
            .enumerate()
            .map(|(i, (m, fee, min, span, campaign, expired))| R {
                id: format!("r{}", (b'a' + i as u8) as char),
                m,
                fee,
                min,
                max: min + span,
                campaign,
                expired,
            })
            .collect()
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// Same answer as the oracle: the kind, the rates, every leg's amount,
    /// the value; legs sum to the amount and each is eligible at its own.
    #[test]
    fn matches_the_brute_force_oracle(
        rates in arb_rates(),
        total in 2i64..26,
        legs in 2usize..4,
        cost in prop::sample::select(vec![0i64, 0, 1, 50]),
        gain in prop::option::weighted(0.4, prop::sample::select(vec![0u32, 1, 100, 5000])),
        dust in prop::option::weighted(0.2, 1i64..30),
        seed in any::<u64>(),
    ) {
        let expected = oracle(&rates, total, legs, cost, gain, dust);
        let got = engine(&build(&rates), total, legs, cost, gain, dust);
        prop_assert_eq!(&got, &expected);
        if let Oracle::Split { legs: got_legs, .. } = &got {
            prop_assert_eq!(got_legs.iter().map(|l| l.1).sum::<i64>(), total);
            for (id, x) in got_legs {
                let r = rates.iter().find(|r| &r.id == id).unwrap();
                prop_assert!(eligible(r, *x, dust));
            }
        }
        // Any input order: the same answer.
        let mut shuffled = rates.clone();
        let mut s = seed;
        for i in (1..shuffled.len()).rev() {
            s = s.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            shuffled.swap(i, (s >> 33) as usize % (i + 1));
        }
        prop_assert_eq!(engine(&build(&shuffled), total, legs, cost, gain, dust), got);
    }

    /// Books larger than the first split's seed (4 rates): the walk by
    /// bound (step 3, with its capacity-aware pair bound) decides.
    #[test]
    fn larger_books_match_the_oracle(
        rates in arb_book(6..12),
        total in 2i64..40,
        legs in 2usize..4,
        cost in prop::sample::select(vec![0i64, 0, 1, 50]),
        gain in prop::option::weighted(0.4, prop::sample::select(vec![0u32, 1, 100, 5000])),
    ) {
        let expected = oracle(&rates, total, legs, cost, gain, None);
        prop_assert_eq!(&engine(&build(&rates), total, legs, cost, gain, None), &expected);
    }

    /// The dominance pass (step 4) keeps the best set: with copies of
    /// rates (ties decided by the ids) and the first walk given no work,
    /// every search goes through it and still matches the oracle.
    #[test]
    fn dominance_pass_matches_the_oracle(
        base in arb_rates(),
        copies in prop::collection::vec(0usize..4, 6),
        total in 2i64..26,
        legs in 2usize..4,
        cost in prop::sample::select(vec![0i64, 0, 1, 50]),
        gain in prop::option::weighted(0.4, prop::sample::select(vec![0u32, 1, 100, 5000])),
        dust in prop::option::weighted(0.2, 1i64..30),
    ) {
        let mut rates = base.clone();
        for (r, &k) in base.iter().zip(&copies) {
            for c in 0..k {
                // A copy, sometimes a little worse (a higher fee, a lower max).
                let mut copy = r.clone();
                copy.id = format!("{}{c}", r.id);
                if c == 1 {
                    copy.fee += 1;
                }
                if c == 2 && copy.max > copy.min {
                    copy.max -= 1;
                }
                rates.push(copy);
            }
        }
        let expected = oracle(&rates, total, legs, cost, gain, dust);
        let built = build(&rates);
        prop_assert_eq!(&engine_with(&built, total, legs, cost, gain, dust, Some(0), 2), &expected);
        prop_assert_eq!(&engine(&built, total, legs, cost, gain, dust), &expected);
    }

    /// Books where every set that holds the amount ties (one multiplier,
    /// one fee): ruling 39's tie order decides, and the walk stops on it
    /// without evaluating the sets that cannot come first.
    #[test]
    fn tied_books_match_the_oracle(
        rates in arb_book(4..12),
        fee in prop::sample::select(vec![0i64, 0, 3]),
        total in 2i64..40,
        legs in 2usize..4,
        cost in prop::sample::select(vec![0i64, 0, 1]),
        gain in prop::option::weighted(0.3, prop::sample::select(vec![0u32, 1])),
    ) {
        let rates: Vec<R> = rates
            .into_iter()
            .map(|r| R { m: 2_000_000, fee, ..r })
            .collect();
        let expected = oracle(&rates, total, legs, cost, gain, None);
        prop_assert_eq!(&engine(&build(&rates), total, legs, cost, gain, None), &expected);
    }

    /// Multipliers and fees at 20 places (the oracle's × 10^-18; a net
    /// output, 8 + 20 places, is still exact in a `Decimal`): values
    /// differ past the 18th place, and the bounds, at the numbers' own
    /// scale, still tell them apart; the answer is the oracle's.
    #[test]
    fn multipliers_past_the_eighteenth_place_match_the_oracle(
        rates in arb_book(2..12),
        total in 2i64..40,
        legs in 2usize..4,
        cost in prop::sample::select(vec![0i64, 0, 1, 50]),
        gain in prop::option::weighted(0.3, prop::sample::select(vec![0u32, 1, 100])),
        dust in prop::option::weighted(0.2, 1i64..30),
        first_work in prop::option::weighted(0.3, Just(0u64)),
    ) {
        let expected = oracle(&rates, total, legs, cost, gain, dust);
        let got = engine_with(&build_at(&rates, 20), total, legs, cost, gain, dust, first_work, 20);
        prop_assert_eq!(&got, &expected);
    }

    /// Never worse than the best single route, and the single route itself
    /// whenever every rate can take the whole amount and no gain is asked.
    #[test]
    fn never_worse_than_single(rates in arb_rates(), total in 2i64..26, legs in 2usize..4) {
        let built = build(&rates);
        let request = RouteRequest::exact_in(Amount::new(rust_decimal::Decimal::new(total, 8)).unwrap(), NOW);
        let single = request.best(&built).ok();
        let policy = SplitPolicy::DEFAULT.with_legs(SplitLegs::try_from(legs as u64).unwrap()).with_min_gain_bps(0);
        if let Ok(answer) = request.split(&built, &policy) {
            if let (Some(single), Some(split)) = (single, answer.split()) {
                prop_assert!(split.value() > single.net_output());
            }
        }
        if rates.iter().all(|r| eligible(r, total, None)) {
            let answer = request.split(&built, &SplitPolicy::DEFAULT).unwrap();
            prop_assert!(matches!(answer, SplitAnswer::Single(_)));
        }
    }
}

#[test]
fn ties_go_to_fewer_legs() {
    // Equal multipliers, no fees: {a, b} and {a, b, c} both give 10 × 2 = 20.
    let rates = book(vec![
        rate("a", "2", "0", "0.1", "6"),
        rate("b", "2", "0", "0.1", "6"),
        rate("c", "2", "0", "0.1", "6"),
    ]);
    let request = RouteRequest::exact_in(amount("10"), NOW);
    let answer = request.split(&rates, &SplitPolicy::DEFAULT).unwrap();
    let ids: Vec<_> = legs_of(&answer).into_iter().map(|l| (l.0, l.1)).collect();
    assert_eq!(
        ids,
        vec![
            ("a".to_owned(), "6.00000000".to_owned()),
            ("b".to_owned(), "4.00000000".to_owned())
        ]
    );
}

/// The legs of the answer for `amount_text` in at most `legs` legs (the
/// default policy otherwise), as [`legs_of`] lists them.
fn split_legs(
    rates: &RatesResponse,
    amount_text: &str,
    legs: u64,
) -> Vec<(String, String, String, SplitStop)> {
    let request = RouteRequest::exact_in(amount(amount_text), NOW);
    let policy = SplitPolicy::DEFAULT.with_legs(SplitLegs::try_from(legs).unwrap());
    legs_of(&request.split(rates, &policy).unwrap())
}

/// A leg as [`legs_of`] lists it.
fn stop_leg(
    id: &str,
    from: &str,
    net: &str,
    stop: SplitStop,
) -> (String, String, String, SplitStop) {
    (id.to_owned(), from.to_owned(), net.to_owned(), stop)
}

/// `(id, fromAmount, netOutput)` of each leg, and the search's work.
fn hostile(rates: &RatesResponse, amount_text: &str) -> (Vec<(String, String, String)>, u64) {
    let request = RouteRequest::exact_in(amount(amount_text), NOW);
    let started = std::time::Instant::now();
    let answer = request.split(rates, &SplitPolicy::DEFAULT).unwrap();
    // Generous for a debug build on a shared machine; release takes tens of
    // milliseconds (docs/PERFORMANCE.md).
    assert!(started.elapsed() < std::time::Duration::from_secs(20));
    let work = answer.split().unwrap().work();
    let legs = legs_of(&answer)
        .into_iter()
        .map(|l| (l.0, l.1, l.2))
        .collect();
    (legs, work.bounded)
}

fn leg(id: &str, from: &str, net: &str) -> (String, String, String) {
    (id.to_owned(), from.to_owned(), net.to_owned())
}

#[test]
fn a_book_of_ties_is_answered_exactly() {
    // 4096 rates equal in every number (×30, fee 0, [0.01, 4]), listed
    // last id first: every pair serving 7 is worth 7 × 30 = 210, and
    // ruling 39's tie order takes two legs (fewer than three), then the
    // first ids; the first in the pour order (ruling 7: the id) takes its
    // max. This book used to stop at the work limit (INVALID_REQUEST).
    let ties = |fee: &str| {
        book(
            (0..4096)
                .rev()
                .map(|i| rate(&format!("r{i:04}"), "30", fee, "0.01", "4"))
                .collect(),
        )
    };
    let (legs, bounded) = hostile(&ties("0"), "7");
    assert_eq!(
        legs,
        vec![
            leg("r0000", "4.00000000", "120"),
            leg("r0001", "3.00000000", "90")
        ]
    );
    assert!(bounded <= swaproute::route::split_work_limit(4096) * 2);
    // With a fee 0.1 and 10 BTC, no pair serves (4 + 4 < 10): three legs,
    // 4 × 30 − 0.1 = 119.9 twice and 2 × 30 − 0.1 = 59.9.
    let (legs, _) = hostile(&ties("0.1"), "10");
    assert_eq!(
        legs,
        vec![
            leg("r0000", "4.00000000", "119.9"),
            leg("r0001", "4.00000000", "119.9"),
            leg("r0002", "2.00000000", "59.9")
        ]
    );
}

#[test]
fn one_multiplier_no_fees_nested_limits_answered_exactly() {
    // ×30, no fees; rate i serves [0.01, 4 − i × 0.00000001] (ids in that
    // order, listed last first). Every pair serving 7 is worth 210: the tie
    // order takes r0000 and r0001; r0000 (first id) is poured first up to
    // its max 4, r0001 the remaining 3.
    let rates = book(
        (0..4096)
            .rev()
            .map(|i| {
                let max = rust_decimal::Decimal::new(400_000_000 - i, 8).to_string();
                rate(&format!("r{i:04}"), "30", "0", "0.01", &max)
            })
            .collect(),
    );
    let (legs, _) = hostile(&rates, "7");
    assert_eq!(
        legs,
        vec![
            leg("r0000", "4.00000000", "120"),
            leg("r0001", "3.00000000", "90")
        ]
    );
}

#[test]
fn multipliers_differing_at_the_twentieth_place_answered_exactly() {
    // Rate i: ×(30 + i × 10^-23), fee 0.1, [0.01, 4]: the bounds (18
    // places) cannot tell them apart. 10 BTC needs three legs; the three
    // highest multipliers, poured in that order: r4095 and r4094 at their
    // max 4, r4093 the remaining 2.
    // 4 × 30.00000000000000000004095 − 0.1 = 119.9000000000000000001638
    // 4 × 30.00000000000000000004094 − 0.1 = 119.90000000000000000016376
    // 2 × 30.00000000000000000004093 − 0.1 = 59.90000000000000000008186
    let rates = book(
        (0..4096)
            .map(|i| {
                rate(
                    &format!("r{i:04}"),
                    &format!("30.{i:023}"),
                    "0.1",
                    "0.01",
                    "4",
                )
            })
            .collect(),
    );
    let (legs, _) = hostile(&rates, "10");
    assert_eq!(
        legs,
        vec![
            leg("r4095", "4.00000000", "119.9000000000000000001638"),
            leg("r4094", "4.00000000", "119.90000000000000000016376"),
            leg("r4093", "2.00000000", "59.90000000000000000008186")
        ]
    );
}

#[test]
fn a_leg_short_of_the_amount_stops_at_the_remainder_not_a_max() {
    // a: ×30, max 100 (above the amount); b: ×31, min = max = 0.00000001.
    // Asked for any gain: single a = 10 × 30 = 300. a's leg is capped one
    // unit below the amount, but that is no max of a's: it stops at the
    // remainder.
    let rates = book(vec![
        rate("a", "30", "0", "0.1", "100"),
        rate("b", "31", "0", "0.00000001", "0.00000001"),
    ]);
    let request = RouteRequest::exact_in(amount("10"), NOW);
    let policy = SplitPolicy::DEFAULT.with_min_gain_bps(0);
    let answer = request.split(&rates, &policy).unwrap();
    // Split: b 0.00000001 × 31 = 0.00000031 (its max), a 9.99999999 × 30 =
    // 299.9999997; total 300.00000001 > 300 (single a).
    assert_eq!(
        legs_of(&answer),
        vec![
            stop_leg("b", "0.00000001", "0.00000031", SplitStop::Max),
            stop_leg("a", "9.99999999", "299.9999997", SplitStop::Remainder),
        ]
    );
    assert_eq!(
        answer.split().unwrap().net_output().to_string(),
        "300.00000001"
    );
}

/// 4096 rates of one multiplier (×30) and no fee whose limits are
/// staggered: rate `i` serves `[0.01 + i·10⁻⁸, max + i·10⁻⁸]`, listed with
/// ids running the other way (`r{4095 − i}`), so that none dominates
/// another; then `extra`.
fn staggered(max_units: i64, extra: Vec<Rate>) -> RatesResponse {
    let mut rates: Vec<Rate> = (0..4096i64)
        .map(|i| {
            let min = rust_decimal::Decimal::new(1_000_000 + i, 8).to_string();
            let max = rust_decimal::Decimal::new(max_units + i, 8).to_string();
            rate(&format!("r{:04}", 4095 - i), "30", "0", &min, &max)
        })
        .collect();
    rates.extend(extra);
    book(rates)
}

#[test]
fn a_staggered_book_no_set_can_hold_is_no_route_at_once() {
    // Maxes 3 + i·10⁻⁸: the three largest hold 3.00004095 + 3.00004094 +
    // 3.00004093 = 9.00012282 < 10, so no pair or triple serves 10 BTC.
    // This book used to exhaust both allowances (INVALID_REQUEST, ~200 ms).
    let rates = staggered(300_000_000, Vec::new());
    let request = RouteRequest::exact_in(amount("10"), NOW);
    let started = std::time::Instant::now();
    let error = request.split(&rates, &SplitPolicy::DEFAULT).unwrap_err();
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
    assert!(matches!(error, SplitError::NoRoute(_)), "{error:?}");
    assert_eq!(error.code(), swaproute::ErrorCode::AmountAboveLimit);
}

#[test]
fn a_staggered_book_of_tied_triples_is_answered_exactly() {
    // Maxes 3.4 + i·10⁻⁸: no pair holds 10 (6.8000819 at most), every
    // triple does and is worth 10 × 30 = 300. Ruling 39: the first ids,
    // r0000, r0001, r0002 (i = 4095, 4094, 4093), poured in ruling 7's
    // order (the ids): r0000 to its max 3.40004095, r0001 to 3.40004094,
    // r0002 the remaining 10 − 6.80008189 = 3.19991811.
    // 30 × 3.40004095 = 102.0012285; 30 × 3.40004094 = 102.0012282;
    // 30 × 3.19991811 = 95.9975433.
    let (legs, bounded) = hostile(&staggered(340_000_000, Vec::new()), "10");
    assert_eq!(
        legs,
        vec![
            leg("r0000", "3.40004095", "102.0012285"),
            leg("r0001", "3.40004094", "102.0012282"),
            leg("r0002", "3.19991811", "95.9975433")
        ]
    );
    // Decided by the tie order, not by walking the ~n³/6 tied triples.
    assert!(bounded < 4096 * 8, "bounded {bounded}");
}

#[test]
fn a_staggered_book_served_only_with_the_last_rate_in_tie_order() {
    // The staggered maxes 3 + i·10⁻⁸ cannot hold 10 by themselves; "z"
    // (×30, no fee, [0.01, 5]) comes last in the tie order (its id) and
    // every triple with it holds 10 (no pair does: 5 + 3.00004095 < 10).
    // All are worth 300: the first ids with z, r0000 and r0001, poured in
    // id order: r0000 to 3.00004095, r0001 to 3.00004094, z the remaining
    // 10 − 6.00008189 = 3.99991811.
    // 30 × 3.00004095 = 90.0012285; 30 × 3.00004094 = 90.0012282;
    // 30 × 3.99991811 = 119.9975433.
    let z = rate("z", "30", "0", "0.01", "5");
    let (legs, bounded) = hostile(&staggered(300_000_000, vec![z]), "10");
    assert_eq!(
        legs,
        vec![
            leg("r0000", "3.00004095", "90.0012285"),
            leg("r0001", "3.00004094", "90.0012282"),
            leg("z", "3.99991811", "119.9975433")
        ]
    );
    assert!(bounded < 4096 * 8, "bounded {bounded}");
}

#[test]
fn twentieth_place_multipliers_with_staggered_limits_answered_exactly() {
    // Rate i: ×(30 + i × 10^-23), fee 0.1, [0.01 + i·10⁻⁸, 4 + i·10⁻⁸],
    // ids r{4095 − i}: none dominates another (a higher multiplier comes
    // with a higher min), and 18-place bounds cannot tell the multipliers
    // apart (this book exhausted both allowances). At the multipliers' own
    // 23 places they can. Every set pays 3 × 0.1 and earns 30 × 10 plus
    // Σ i·x·10^-23: the three highest multipliers (i = 4095, 4094, 4093:
    // r0000, r0001, r0002), poured in that order: 4.00004095 and
    // 4.00004094 (their maxes) and the remaining 10 − 8.00008189 =
    // 1.99991811.
    let rates = book(
        (0..4096i64)
            .map(|i| {
                let min = rust_decimal::Decimal::new(1_000_000 + i, 8).to_string();
                let max = rust_decimal::Decimal::new(400_000_000 + i, 8).to_string();
                rate(
                    &format!("r{:04}", 4095 - i),
                    &format!("30.{i:023}"),
                    "0.1",
                    &min,
                    &max,
                )
            })
            .collect(),
    );
    let request = RouteRequest::exact_in(amount("10"), NOW);
    let answer = request.split(&rates, &SplitPolicy::DEFAULT).unwrap();
    let split = answer.split().unwrap();
    let legs: Vec<(&str, String)> = split
        .legs()
        .iter()
        .map(|l| (l.rate().id().as_str(), l.from_amount().to_string()))
        .collect();
    assert_eq!(
        legs,
        vec![
            ("r0000", "4.00004095".to_owned()),
            ("r0001", "4.00004094".to_owned()),
            ("r0002", "1.99991811".to_owned())
        ]
    );
    assert_eq!(split.work().reduced, None, "decided by the first walk");
}

#[test]
fn a_pair_whose_mins_sum_to_the_amount_is_found_past_the_seed() {
    // Four decoys (×40, [6.5, 9]) have the highest m·max and fill the first
    // split's seed, but no two hold 10 from their mins (6.5 + 6.5 > 10),
    // and none joins x or y (6.5 + 4 > 10). x (×30, [4, 4.5]) and y (×30, [6, 6.5])
    // hold exactly 10 at their mins: x 4, y 6; 30 × 4 = 120, 30 × 6 = 180.
    let mut rates: Vec<Rate> = (1..=4)
        .map(|i| rate(&format!("d{i}"), "40", "0", "6.5", "9"))
        .collect();
    rates.push(rate("x", "30", "0", "4", "4.5"));
    rates.push(rate("y", "30", "0", "6", "6.5"));
    let request = RouteRequest::exact_in(amount("10"), NOW);
    let policy = SplitPolicy::DEFAULT.with_legs(SplitLegs::try_from(2).unwrap());
    let rates = book(rates);
    let answer = request.split(&rates, &policy).unwrap();
    assert_eq!(
        legs_of(&answer),
        vec![
            stop_leg("x", "4.00000000", "120", SplitStop::Remainder),
            stop_leg("y", "6.00000000", "180", SplitStop::Remainder),
        ]
    );
}

#[test]
fn errors_say_what_happened_with_their_codes() {
    let exact_out = SplitError::ExactOut;
    assert_eq!(exact_out.to_string(), "splits are defined for ExactIn only");
    assert_eq!(exact_out.to_api_error().http_status().as_u16(), 400);
    assert_eq!(
        exact_out.to_api_error().code().as_str(),
        "UNSUPPORTED_SWAP_MODE"
    );
    let work = SplitError::TooMuchWork {
        limit: swaproute::route::split_work_limit(4096),
    };
    // 64 × 4096 + 2^18 = 262 144 + 262 144.
    assert_eq!(
        work.to_string(),
        "the split search would take more than 524288 steps for these rates, twice \
         (before and after its dominance pass; ruling 36)"
    );
    // Ruling 48: a 5xx code of its own (the book is hard, not the request).
    assert_eq!(work.to_api_error().code().as_str(), "SEARCH_EXHAUSTED");
    assert_eq!(work.to_api_error().http_status().as_u16(), 503);
}

#[test]
fn a_multiplier_too_large_for_the_bounds_is_still_weighed_exactly() {
    // ×10^21 does not fit the bounds' i128 at 18 places (10^39): its bound
    // is unbounded, never a small number. It takes its max 4 first; the
    // rest, 6, goes to the first ids of the ×30 rates: a to its max 4, b 2.
    // 4 × 10^21; 4 × 30 = 120; 2 × 30 = 60.
    let mut rates = vec![rate("big", "1000000000000000000000", "0", "0.01", "4")];
    for id in ["a", "b", "c", "d", "e"] {
        rates.push(rate(id, "30", "0", "0.01", "4"));
    }
    let rates = book(rates);
    let request = RouteRequest::exact_in(amount("10"), NOW);
    let answer = request.split(&rates, &SplitPolicy::DEFAULT).unwrap();
    assert_eq!(
        legs_of(&answer),
        vec![
            stop_leg(
                "big",
                "4.00000000",
                "4000000000000000000000",
                SplitStop::Max
            ),
            stop_leg("a", "4.00000000", "120", SplitStop::Max),
            stop_leg("b", "2.00000000", "60", SplitStop::Remainder),
        ]
    );
    assert_eq!(
        answer.split().unwrap().net_output().to_string(),
        "4000000000000000000180"
    );
}

#[test]
fn a_pair_outside_the_seed_wins_its_tie_with_a_seed_triple() {
    // s1..s4: ×30, fee 7, [0.01, 4.9], the four highest m·max − fee
    // (147 − 7 = 140): the first split's seed. No two hold 10 (9.8); three
    // do: 30 × 10 − 3 × 7 = 279. p and q: ×30, fee 10.5, [0.01, 5]
    // (150 − 10.5 = 139.5, below the seed): together they hold 10 at
    // their maxes, 2 × (30 × 5 − 10.5) = 279, the same value in two legs:
    // ruling 39 takes the pair. Poured p first (ruling 7: the id).
    let mut rates: Vec<Rate> = (1..=4)
        .map(|i| rate(&format!("s{i}"), "30", "7", "0.01", "4.9"))
        .collect();
    rates.push(rate("p", "30", "10.5", "0.01", "5"));
    rates.push(rate("q", "30", "10.5", "0.01", "5"));
    let rates = book(rates);
    assert_eq!(
        split_legs(&rates, "10", 3),
        vec![
            stop_leg("p", "5.00000000", "139.5", SplitStop::Max),
            stop_leg("q", "5.00000000", "139.5", SplitStop::Max),
        ]
    );
}

#[test]
fn a_better_pair_past_the_seed_is_walked_to() {
    // d1, d2 (×40, [9.5, 9.9]) and a, b (×30, [0.6, 9]) have the highest
    // m·max (396, 270) and make the first split's seed; the d's join
    // nothing (9.5 + 0.6 > 10), so its best pair is a 9, b 1:
    // 270 + 30 = 300. x and y (×31, [0.6, 5]; m·max 155) hold 10 at their
    // maxes: 2 × 31 × 5 = 310. The walk must reach them past the d's, whose
    // bound is above the best (they are passed over for capacity), however
    // their ids compare with the best's.
    let rates = book(vec![
        rate("d1", "40", "0", "9.5", "9.9"),
        rate("d2", "40", "0", "9.5", "9.9"),
        rate("a", "30", "0", "0.6", "9"),
        rate("b", "30", "0", "0.6", "9"),
        rate("x", "31", "0", "0.6", "5"),
        rate("y", "31", "0", "0.6", "5"),
    ]);
    assert_eq!(
        split_legs(&rates, "10", 2),
        vec![
            stop_leg("x", "5.00000000", "155", SplitStop::Max),
            stop_leg("y", "5.00000000", "155", SplitStop::Max),
        ]
    );
}

#[test]
fn a_better_triple_past_the_seed_is_walked_to() {
    // d (×40, [9.5, 9.9]) and a, b, c (×30, [0.6, 4]) have the highest
    // m·max (396, 120) and make the first split's seed: d joins nothing
    // (9.5 + 0.6 > 10), no pair holds 10 (8), so its best is a triple:
    // 30 × 10 = 300. x, y, z (×31, [0.6, 3.4]; m·max 105.4) hold 10 too:
    // 31 × 10 = 310, poured x, y to their max 3.4, z the remaining 3.2:
    // 105.4, 105.4, 99.2. The walk must reach them past d, bounded above
    // the best and passed over for capacity.
    let rates = book(vec![
        rate("d", "40", "0", "9.5", "9.9"),
        rate("a", "30", "0", "0.6", "4"),
        rate("b", "30", "0", "0.6", "4"),
        rate("c", "30", "0", "0.6", "4"),
        rate("x", "31", "0", "0.6", "3.4"),
        rate("y", "31", "0", "0.6", "3.4"),
        rate("z", "31", "0", "0.6", "3.4"),
    ]);
    assert_eq!(
        split_legs(&rates, "10", 3),
        vec![
            stop_leg("x", "3.40000000", "105.4", SplitStop::Max),
            stop_leg("y", "3.40000000", "105.4", SplitStop::Max),
            stop_leg("z", "3.20000000", "99.2", SplitStop::Remainder),
        ]
    );
}

#[test]
fn the_walk_examines_a_few_sets_per_rate_on_a_varied_book() {
    // 512 rates of varied multipliers (30 to 31), fees (0 to 0.06) and
    // maxes (1 to 5.9): 12 BTC is above every max and no pair holds it
    // (5.9 + 5.9). The walk by bound must stay within the linear part of
    // its allowance, 64 sets per rate, where walking every pair alone
    // would be 130 816 and every triple 22 M.
    let rates = book(
        (0..512i64)
            .map(|i| {
                let m = rust_decimal::Decimal::new(30_000 + (i * 7919) % 1000, 3).to_string();
                let fee = rust_decimal::Decimal::new(i % 7, 2).to_string();
                let max = rust_decimal::Decimal::new(10 + (i * 31) % 50, 1).to_string();
                rate(&format!("r{i:03}"), &m, &fee, "0.01", &max)
            })
            .collect(),
    );
    let request = RouteRequest::exact_in(amount("12"), NOW);
    let answer = request.split(&rates, &SplitPolicy::DEFAULT).unwrap();
    let split = answer.split().unwrap();
    assert_eq!(split.legs().len(), 3);
    assert!(split.work().bounded <= 64 * 512, "{:?}", split.work());
    // Only sets whose relaxed pour reaches the best are evaluated exactly.
    assert!(split.work().evaluated <= 64, "{:?}", split.work());
    assert_eq!(split.work().reduced, None);
    // Pairs: 9 BTC in two legs (pairs of maxes from 4.5 up hold it).
    let request = RouteRequest::exact_in(amount("9"), NOW);
    let pairs = SplitPolicy::DEFAULT.with_legs(SplitLegs::try_from(2).unwrap());
    let answer = request.split(&rates, &pairs).unwrap();
    let split = answer.split().unwrap();
    assert_eq!(split.legs().len(), 2);
    // Each pair loop stops at its first pair bounded below the best: a few
    // sets per rate at most.
    assert!(split.work().bounded <= 4 * 512, "{:?}", split.work());
}

#[test]
fn a_tie_is_decided_by_the_rates_in_ruling_7s_order_not_the_walks() {
    // λ = 30 after the first split: b (×32, fee 5, [0.6, 5]) and d (×32,
    // fee 7, [0.6, 6]) both add 5 over it at their maxes (2 × 5 − 5,
    // 2 × 6 − 7), a (×30, [0.6, 4]) and c (×30, [0.6, 6]) nothing; b and d
    // share a campaign, and b with a cannot hold 10. Four pairs are worth
    // 305: {b, c} = 155 + 150, {d, c} = 185 + 120, {d, a} = 185 + 120. In
    // ruling 7's order (the fee, then the id) their rates read [c, b],
    // [c, d], [a, d]: {a, d} comes first, though the walk (by bound, d
    // before a) and the pour (by multiplier, d first) list d first.
    let k = CampaignId::new("k").unwrap();
    let rates = book(vec![
        rate("x1", "40", "0", "9.5", "9.9"),
        rate("x2", "40", "0", "9.5", "9.9"),
        rate("a", "30", "0", "0.6", "4"),
        rate("b", "32", "5", "0.6", "5").sponsored_by(k.clone()),
        rate("c", "30", "0", "0.6", "6"),
        rate("d", "32", "7", "0.6", "6").sponsored_by(k),
    ]);
    assert_eq!(
        split_legs(&rates, "10", 2),
        vec![
            stop_leg("d", "6.00000000", "185", SplitStop::Max),
            stop_leg("a", "4.00000000", "120", SplitStop::Max),
        ]
    );
}

#[test]
fn exact_sums_decide_where_nets_rounded_at_28_places_would_not() {
    // Ruling 43 in splits. ε = 10^-28; a leg of 0.5 at ×(1 + ε) nets
    // 0.5 + 5 × 10^-29 exactly, whose floor at 28 places is 0.5.
    let fine = "1.0000000000000000000000000001";
    // 1. Against the single route: s (×1, [0.1, 1]) serves 1 alone, net 1.
    // a and b (×(1 + ε), [0.1, 0.5]) split it 0.5 + 0.5 (their maxes,
    // pour ties in id order), exactly 1 + ε: a strict gain (of 10^-24
    // bps), so with any strict gain asked the split is the answer. Summed
    // from 28-place nets it would be 0.5 + 0.5 = 1, a tie with the single
    // route, which fewer legs win. {a, s} is 1 + ε/2, and a third leg
    // takes at least 0.1 at ×1 from a ×(1 + ε) leg: less.
    let rates = book(vec![
        rate("a", fine, "0", "0.1", "0.5"),
        rate("b", fine, "0", "0.1", "0.5"),
        rate("s", "1", "0", "0.1", "1"),
    ]);
    let request = RouteRequest::exact_in(amount("1"), NOW);
    let answer = request
        .split(&rates, &SplitPolicy::DEFAULT.with_min_gain_bps(0))
        .unwrap();
    assert_eq!(
        legs_of(&answer),
        vec![
            stop_leg("a", "0.50000000", "0.5", SplitStop::Max),
            stop_leg("b", "0.50000000", "0.5", SplitStop::Max),
        ]
    );
    let split = answer.split().unwrap();
    // The total is the exact sum (it fits 28 places), not 0.5 + 0.5.
    assert_eq!(split.net_output().to_string(), fine);
    assert_eq!(split.value().to_string(), fine);
    // 10^-24 bps, rounded toward zero to 2 places.
    assert_eq!(split.gain_bps().unwrap().to_string(), "0");
    // One basis point is not met: ε × 10^4 < 1 × 1.
    assert!(matches!(
        request
            .split(&rates, &SplitPolicy::DEFAULT.with_min_gain_bps(1))
            .unwrap(),
        SplitAnswer::Single(_)
    ));
    // 2. Between splits, no single route (every max 0.5 < 1): {a, b} at ×1
    // nets exactly 1, {c, d} at ×(1 + ε) exactly 1 + ε. Rounded at 28
    // places both are 1, and ruling 39's tie order would take {a, b}
    // (a before c); the exact values take {c, d}.
    let rates = book(vec![
        rate("a", "1", "0", "0.1", "0.5"),
        rate("b", "1", "0", "0.1", "0.5"),
        rate("c", fine, "0", "0.1", "0.5"),
        rate("d", fine, "0", "0.1", "0.5"),
    ]);
    let answer = request.split(&rates, &SplitPolicy::DEFAULT).unwrap();
    assert_eq!(
        legs_of(&answer),
        vec![
            stop_leg("c", "0.50000000", "0.5", SplitStop::Max),
            stop_leg("d", "0.50000000", "0.5", SplitStop::Max),
        ]
    );
    assert_eq!(answer.split().unwrap().net_output().to_string(), fine);
}

/// The legs a split may have, read from text as the command line reads
/// `--split-legs`: "2" and "3" and nothing else, the error naming the
/// number given (or `u64::MAX` for text that is no number).
#[test]
fn split_legs_from_text() {
    assert_eq!("2".parse::<SplitLegs>(), Ok(SplitLegs::TWO));
    assert_eq!("3".parse::<SplitLegs>(), Ok(SplitLegs::THREE));
    assert_ne!(SplitLegs::TWO, SplitLegs::THREE);
    for (text, named) in [
        ("4", 4),
        ("1", 1),
        ("0", 0),
        ("two", u64::MAX),
        ("", u64::MAX),
    ] {
        let error = text.parse::<SplitLegs>().unwrap_err();
        assert_eq!(error.kind(), swaproute::ParseErrorKind::SplitLegs);
        assert_eq!(error.text(), text, "{text:?}");
        assert_eq!(
            error.to_string(),
            format!("a split has 2 or 3 legs, not {named}")
        );
    }
}

/// A split policy says what it was given: by default 3 legs, no per-order
/// cost, no gain asked, no decimals; each `with_*` sets its own part and
/// only it. The decimals are kept as given (not capped at 8: the cap is the
/// grid's, not the policy's record of the asset).
#[test]
fn split_policy_keeps_what_it_was_given() {
    let default = SplitPolicy::DEFAULT;
    assert_eq!(default.legs(), SplitLegs::THREE);
    assert_eq!(default.per_order_cost().to_string(), "0");
    assert_eq!(default.min_gain_bps(), None);
    assert_eq!(default.decimals(), None);
    let two = default.with_legs(SplitLegs::TWO);
    assert_eq!((two.legs(), two.min_gain_bps()), (SplitLegs::TWO, None));
    let cost = default.with_per_order_cost(amount("0.25"));
    assert_eq!(cost.per_order_cost().to_string(), "0.25");
    assert_eq!(cost.legs(), SplitLegs::THREE);
    for bps in [0, 1, 250] {
        assert_eq!(default.with_min_gain_bps(bps).min_gain_bps(), Some(bps));
    }
    assert_eq!(default.with_decimals(0).decimals(), Some(0));
    assert_eq!(default.with_decimals(18).decimals(), Some(18));
}

/// A split says what its search did: the two legs of
/// `above_every_max_two_legs_by_hand` were found by bounding at least one
/// set and evaluating at least one exactly, never more sets exactly than
/// bounded.
#[test]
fn a_split_reports_its_work() {
    let rates = book(vec![
        rate("a", "30", "0.01", "0.1", "6"),
        rate("b", "29", "0.02", "0.1", "5"),
    ]);
    let request = RouteRequest::exact_in(amount("10"), NOW);
    let answer = request.split(&rates, &SplitPolicy::DEFAULT).unwrap();
    let work = answer.split().unwrap().work();
    assert!(work.evaluated >= 1, "{work:?}");
    assert!(work.bounded >= work.evaluated, "{work:?}");
}

/// Asked for any gain (`min_gain_bps(0)`), a split must still beat the
/// single route strictly: two copies of ×30, no fee, [0, 10] at 10 BTC give
/// 300 as one order (10 × 30) and 300 as two (5 × 30 + 5 × 30), so the
/// single route is the answer.
#[test]
fn a_split_that_only_ties_the_single_route_is_not_taken() {
    let rates = book(vec![
        rate("a", "30", "0", "0", "10"),
        rate("b", "30", "0", "0", "10"),
    ]);
    let request = RouteRequest::exact_in(amount("10"), NOW);
    let policy = SplitPolicy::DEFAULT.with_min_gain_bps(0);
    match request.split(&rates, &policy).unwrap() {
        SplitAnswer::Single(route) => {
            assert_eq!(route.rate().id().as_str(), "a");
            assert_eq!(route.net_output().to_string(), "300");
        }
        SplitAnswer::Split(split) => panic!("a tie is no gain: {split:?}"),
    }
}

/// The single route's reported net output may be 0 while its exact net is
/// positive (10^-29 here: 0.1 × 10^-28, ruling 43). A split that serves the
/// amount is still returned, without a gain in basis points (over 10^-29
/// it would be about 1.5 × 10^33, past what a `Decimal` holds).
#[test]
fn a_split_over_a_single_route_reported_as_zero_has_no_gain() {
    let rates = book(vec![
        rate("tiny", "0.0000000000000000000000000001", "0", "0", "10"),
        rate("b", "30", "0", "0", "0.05"),
    ]);
    let request = RouteRequest::exact_in(amount("0.1"), NOW);
    let single = request.best(&rates).unwrap();
    assert_eq!(
        (single.rate().id().as_str(), single.net_output().is_zero()),
        ("tiny", true)
    );
    let policy = SplitPolicy::DEFAULT.with_min_gain_bps(0);
    match request.split(&rates, &policy).unwrap() {
        SplitAnswer::Split(split) => {
            // b takes its max 0.05 (1.5), tiny the other 0.05 (5 × 10^-30).
            let legs: Vec<_> = split
                .legs()
                .iter()
                .map(|leg| (leg.rate().id().as_str(), leg.from_amount().to_string()))
                .collect();
            assert_eq!(
                legs,
                [
                    ("b", "0.05000000".to_owned()),
                    ("tiny", "0.05000000".to_owned())
                ]
            );
            assert_eq!(split.gain_bps(), None);
        }
        SplitAnswer::Single(route) => panic!("the split serves 1.5: {route:?}"),
    }
}

// ---------------------------------------------------------------------------
// The search's prefilters and bounds at the edges of their numbers: each
// example is computed by hand, and each reaches a path the random books
// rarely do (docs/MUTANTS.md names the mutants they answer).

/// A max with more than 8 places: the leg's grid end is its floor on the
/// 8-place grid, read from the 28-place integers (model.rs, `on_grid`).
#[test]
fn a_max_past_eight_places_is_floored_to_the_grid() {
    // a: ×30 [0.1, 4.000000000000000000000000001] (27 places), b: ×29 [0.1,
    // 4.5], c: ×1 [0.1, 4.5]; 5 BTC, no single route (every max < 5).
    // {a, b}: a to its grid max 4, b the remaining 1: 120 + 29 = 149.
    // {a, c}: 120 + 1 = 121; {b, c}: 4.5 × 29 + 0.5 = 131; {a, b, c}: lows
    // 0.1 each, then a to 4, b 0.9: 120 + 26.1 + 0.1 = 146.2. Best: {a, b}.
    let rates = book(vec![
        rate("a", "30", "0", "0.1", "4.000000000000000000000000001"),
        rate("b", "29", "0", "0.1", "4.5"),
        rate("c", "1", "0", "0.1", "4.5"),
    ]);
    let request = RouteRequest::exact_in(amount("5"), NOW);
    let answer = request.split(&rates, &SplitPolicy::DEFAULT).unwrap();
    assert_eq!(
        legs_of(&answer),
        vec![
            stop_leg("a", "4.00000000", "120", SplitStop::Max),
            stop_leg("b", "1.00000000", "29", SplitStop::Remainder),
        ]
    );
    assert_eq!(answer.split().unwrap().net_output().to_string(), "149");
}

/// A multiplier too large for the bounds' 18 places in an `i128`: the
/// marginal step cannot bound it (`fits`), and the walk never prunes a set
/// it cannot bound (`UNBOUNDED`, `relaxed_value`), so the huge leg's best
/// partner is found past the first split's seed and its small incumbent.
#[test]
fn a_multiplier_past_the_bounds_is_never_pruned() {
    // a: ×10^21 [0.1, 1]; b: ×2 [0.1, 4.95]; c: ×1.999 [0.1, 4.5]; three
    // copies d1-d3: ×5 [2.5, 2.5]; 5 BTC, no single route. The seed (the
    // 4 rates of highest m·hi − fee: a, whose bound is unbounded, and the
    // d's, 12.5 against b's 9.9) finds only {d, d} = 25 (a and a d hold
    // at most 3.5), a value the bounds can hold: the incumbent every
    // bound is then compared with.
    // Two legs: {a, b}: a 1, b 4: 10^21 + 8; {a, c}: 10^21 + 7.996; every
    // other pair is worth at most 25. Best: {a, b}.
    // Three legs: {a, d1, b}: lows 0.1, 2.5, 0.1, then a to 1, b 1.5:
    // 10^21 + 12.5 + 3; {a, d, c}: 10^21 + 12.5 + 2.9985; {a, b, c}:
    // 10^21 + 7.8 + 0.1999; {a, d, d} cannot hold 5 (mins 5.1). Best: {a, d1,
    // b} (d1 first of the copies in ruling 7's order).
    let rates = book(vec![
        rate("a", "1000000000000000000000", "0", "0.1", "1"),
        rate("b", "2", "0", "0.1", "4.95"),
        rate("c", "1.999", "0", "0.1", "4.5"),
        rate("d1", "5", "0", "2.5", "2.5"),
        rate("d2", "5", "0", "2.5", "2.5"),
        rate("d3", "5", "0", "2.5", "2.5"),
    ]);
    let request = RouteRequest::exact_in(amount("5"), NOW);
    let two = request
        .split(&rates, &SplitPolicy::DEFAULT.with_legs(SplitLegs::TWO))
        .unwrap();
    assert_eq!(
        legs_of(&two),
        vec![
            stop_leg("a", "1.00000000", "1000000000000000000000", SplitStop::Max),
            stop_leg("b", "4.00000000", "8", SplitStop::Remainder),
        ]
    );
    assert_eq!(
        two.split().unwrap().net_output().to_string(),
        "1000000000000000000008"
    );
    let three = request.split(&rates, &SplitPolicy::DEFAULT).unwrap();
    assert_eq!(
        legs_of(&three),
        vec![
            stop_leg("a", "1.00000000", "1000000000000000000000", SplitStop::Max),
            stop_leg("d1", "2.50000000", "12.5", SplitStop::Max),
            stop_leg("b", "1.50000000", "3", SplitStop::Remainder),
        ]
    );
    assert_eq!(
        three.split().unwrap().net_output().to_string(),
        "1000000000000000000015.5"
    );
}

/// A sponsored rate's campaign cap (its effective max) is its leg's upper
/// end; a cap equal to the min leaves the one amount, a cap below it none.
#[test]
fn a_campaign_cap_bounds_a_sponsored_leg() {
    // a: ×30 [1, 6] sponsored by "c"; b: ×29 [0.1, 4.5]; 5 BTC (no single
    // route: a's max is capped below 5, b's is 4.5).
    let sponsored = |campaign: &str| {
        rate("a", "30", "0", "1", "6").sponsored_by(CampaignId::new(campaign).unwrap())
    };
    let rates = book(vec![sponsored("c"), rate("b", "29", "0", "0.1", "4.5")]);
    let request = |cap: &str| {
        let mut campaigns = CampaignLimits::new();
        campaigns.insert(CampaignId::new("c").unwrap(), amount(cap));
        let answer = RouteRequest::exact_in(amount("5"), NOW)
            .with_policy(Policy::DEFAULT.with_campaigns(&campaigns))
            .split(&rates, &SplitPolicy::DEFAULT);
        answer.map(|a| legs_of(&a))
    };
    // Cap 2: a takes 2 (its capped max), b 3: 60 + 87 = 147.
    assert_eq!(
        request("2").unwrap(),
        vec![
            stop_leg("a", "2.00000000", "60", SplitStop::Max),
            stop_leg("b", "3.00000000", "87", SplitStop::Remainder),
        ]
    );
    // Cap 1 = a's min: a serves exactly 1, b 4: 30 + 116 = 146.
    assert_eq!(
        request("1").unwrap(),
        vec![
            stop_leg("a", "1.00000000", "30", SplitStop::Max),
            stop_leg("b", "4.00000000", "116", SplitStop::Remainder),
        ]
    );
    // Cap 0.5, below a's min: a serves nothing, and b alone cannot hold 5.
    assert!(request("0.5").is_err());
}

/// A pair step's candidate whose exact value is below its bound (the pour
/// has another marginal leg than the one bounded): the other partners are
/// still evaluated.
#[test]
fn a_candidate_below_its_bound_leaves_the_other_partners_open() {
    // 10 BTC, two legs. r: ×1 [5.8, 9.9]; p1: ×2 [0.7, 4.5]; p2: ×2.1
    // [0.6, 4]; d1-d4: ×1.05 [9.5, 9.9], in no set (with any other their
    // mins pass 10), the seed (the 4 rates of highest m·hi − fee: 10.395
    // against r's 9.9), so it finds nothing. p1 and p2 cannot hold 10
    // together (4.5 + 4). With r as the marginal leg and the partner at
    // its max, p1's line at t = 1 is (2 − 1) × 4.5 = 4.5, p2's 1.1 × 4 =
    // 4.4, the d's 0.05 × 9.9: p1 is r's candidate, bounded at 10 + 4.5 =
    // 14.5, and worth less: it takes only 10 − 5.8 = 4.2, 2 × 4.2 + 5.8 =
    // 14.2. The best is {p2, r}: 4 × 2.1 + 6 × 1 = 14.4, within r's bound;
    // p2's own bound (2.1 × 10 − 1.1 × 9.9 = 10.11, r at its max) is below
    // 14.2, so only r's other partners reach it.
    let rates = book(vec![
        rate("r", "1", "0", "5.8", "9.9"),
        rate("p1", "2", "0", "0.7", "4.5"),
        rate("p2", "2.1", "0", "0.6", "4"),
        rate("d1", "1.05", "0", "9.5", "9.9"),
        rate("d2", "1.05", "0", "9.5", "9.9"),
        rate("d3", "1.05", "0", "9.5", "9.9"),
        rate("d4", "1.05", "0", "9.5", "9.9"),
    ]);
    let request = RouteRequest::exact_in(amount("10"), NOW);
    let answer = request
        .split(&rates, &SplitPolicy::DEFAULT.with_legs(SplitLegs::TWO))
        .unwrap();
    assert_eq!(
        legs_of(&answer),
        vec![
            stop_leg("p2", "4.00000000", "8.4", SplitStop::Max),
            stop_leg("r", "6.00000000", "6", SplitStop::Remainder),
        ]
    );
    assert_eq!(answer.split().unwrap().net_output().to_string(), "14.4");
}

/// At exactly the best's value, a candidate below its bound does not close
/// the other partners: one of them may tie the best and come first in
/// ruling 39's order.
#[test]
fn a_tie_at_the_bound_is_still_decided_by_ruling_39() {
    // 10 BTC, two legs. r: ×1 [5.8, 9.9]; p1: ×2 fee 4 [0.7, 4.5]; p2:
    // ×2.125 fee 4 [0.6, 4]; x: ×1.05 [5, 5.05]; y: ×1.05 [4.95, 5]; d:
    // ×1.05 [9.5, 9.9]. The seed (highest m·hi − fee: d 10.395, r 9.9, x
    // 5.3025, y 5.25; p1 5, p2 4.5) finds {x, y}: 1.05 × 10 = 10.5 (every
    // other set of the seed cannot hold 10). With r as the marginal leg and
    // the partner at its max, p1's and p2's lines at t = 1 are both
    // (2 − 1) × 4.5 − 4 = 1.125 × 4 − 4 = 0.5 (d's 0.495): p1 is r's
    // candidate (equal fees, then ids), bounded at 10 + 0.5 = 10.5, the
    // best's value, and worth 4.2 × 2 − 4 + 5.8 = 10.2. {p2, r} is worth
    // 4 × 2.125 − 4 + 6 = 10.5 too, and comes before {x, y} in ruling 39's
    // order (r before x by id, both fee 0): it is the answer.
    let rates = book(vec![
        rate("r", "1", "0", "5.8", "9.9"),
        rate("p1", "2", "4", "0.7", "4.5"),
        rate("p2", "2.125", "4", "0.6", "4"),
        rate("x", "1.05", "0", "5", "5.05"),
        rate("y", "1.05", "0", "4.95", "5"),
        rate("d", "1.05", "0", "9.5", "9.9"),
    ]);
    let request = RouteRequest::exact_in(amount("10"), NOW);
    let answer = request
        .split(&rates, &SplitPolicy::DEFAULT.with_legs(SplitLegs::TWO))
        .unwrap();
    assert_eq!(
        legs_of(&answer),
        vec![
            stop_leg("p2", "4.00000000", "4.5", SplitStop::Max),
            stop_leg("r", "6.00000000", "6", SplitStop::Remainder),
        ]
    );
    assert_eq!(answer.split().unwrap().net_output().to_string(), "10.5");
}
