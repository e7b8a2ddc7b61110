//! Splits that answer (ruling 48): ramp books (rate i: multiplier
//! 1 + i·10⁻⁶, fee i·5·10⁻⁶, limits [0, 6], fromAmount 10) and their
//! variants, against a brute-force oracle written here on small books
//! (every set of 2-3 rates, every division of the amount on the asset's
//! grid, integers only; nothing shared with the engine), and answered
//! without a work refusal up to 65,536 rates with values derived by hand;
//! legs on the asset's grid.
#![allow(
    clippy::arithmetic_side_effects,
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap,
    clippy::cast_sign_loss,
    clippy::panic,
    clippy::many_single_char_names
)]

use std::cmp::Ordering;

use swaproute::route::{RouteRequest, SplitAnswer, SplitError, SplitLegs, SplitPolicy};
use swaproute::{EpochMillis, Rate, RatesResponse};

use crate::common::{amount, btc_eth_rate};

const NOW: EpochMillis = EpochMillis::new(1_785_000_000_000);
const LATER: u64 = 4_102_444_800_000;

/// One rate of a book: multiplier and fee in 10⁻⁶, limits in tenths.
#[derive(Clone, Copy, Debug)]
struct Terms {
    m: i64,
    fee: i64,
    min: i64,
    max: i64,
}

#[derive(Clone, Copy, Debug)]
enum Variant {
    /// The ramp.
    Ramp,
    /// Every fee raised by 0.001 and a jitter of 3·(i mod 7)·10⁻⁶.
    Fees,
    /// Mins 0, 0.5, 1, 1.5 in turn.
    StaggeredMins,
    /// Maxes 6, 7, 8 in turn.
    WidenedMaxes,
}

fn terms(variant: Variant, i: i64) -> Terms {
    let ramp = Terms {
        m: 1_000_000 + i,
        fee: 5 * i,
        min: 0,
        max: 60,
    };
    match variant {
        Variant::Ramp => ramp,
        Variant::Fees => Terms {
            fee: 5 * i + 1000 + 3 * (i % 7),
            ..ramp
        },
        Variant::StaggeredMins => Terms {
            min: 5 * (i % 4),
            ..ramp
        },
        Variant::WidenedMaxes => Terms {
            max: 60 + 10 * (i % 3),
            ..ramp
        },
    }
}

fn id(i: i64) -> String {
    format!("r{i:05}")
}

fn micro(v: i64) -> String {
    format!("{}.{:06}", v / 1_000_000, v % 1_000_000)
}

fn tenths(v: i64) -> String {
    format!("{}.{}", v / 10, v % 10)
}

fn book(variant: Variant, n: i64) -> RatesResponse {
    let rates: Vec<Rate> = (0..n)
        .map(|i| {
            let t = terms(variant, i);
            btc_eth_rate(
                &id(i),
                &micro(t.m),
                &micro(t.fee),
                &tenths(t.min),
                &tenths(t.max),
                EpochMillis::new(LATER),
            )
        })
        .collect();
    RatesResponse::try_from(rates).unwrap()
}

/// The engine's legs: `(id, fromAmount)` in pour order.
fn legs(answer: &SplitAnswer<'_>) -> Vec<(String, String)> {
    answer
        .split()
        .unwrap()
        .legs()
        .iter()
        .map(|l| {
            (
                l.rate().id().as_str().to_owned(),
                l.from_amount().to_string(),
            )
        })
        .collect()
}

/// An 8-place amount's text from grid units at `places` (0 or 1).
fn grid_text(x: i64, places: u32) -> String {
    let eight = x * 10i64.pow(8 - places);
    format!("{}.{:08}", eight / 100_000_000, eight % 100_000_000)
}

/// Ruling 7's order: fee, then id (no campaigns here).
fn tie(a: &(i64, Terms), b: &(i64, Terms)) -> Ordering {
    a.1.fee.cmp(&b.1.fee).then(id(a.0).cmp(&id(b.0)))
}

/// The oracle's best so far: value, set (pour order), division.
type Best = (i128, Vec<usize>, Vec<i64>);

/// The brute force: every set of 2..=legs rates, every division of
/// `total` (grid units at `places`) with every leg on the grid, within its
/// limits and of positive net; value `Σ (m·x − fee·10^places)` at
/// 10^-(6 + places); ties to fewer legs, then the sets' rates in ruling 7's
/// order; within a set, the division giving most to the legs first in
/// pour order (multiplier descending, then ruling 7).
fn oracle(rates: &[(i64, Terms)], total: i64, places: u32, legs: usize) -> Vec<(String, String)> {
    let scale = 10i64.pow(places);
    let to_tenths = 10 / scale;
    let net = |t: &Terms, x: i64| i128::from(t.m) * i128::from(x) - i128::from(t.fee * scale);
    let ok = |t: &Terms, x: i64| {
        x >= 1 && x * to_tenths >= t.min && x * to_tenths <= t.max && net(t, x) > 0
    };
    let n = rates.len();
    let mut sets: Vec<Vec<usize>> = Vec::new();
    for a in 0..n {
        for b in a + 1..n {
            sets.push(vec![a, b]);
            if legs == 3 {
                for c in b + 1..n {
                    sets.push(vec![a, b, c]);
                }
            }
        }
    }
    let mut best: Option<Best> = None;
    for mut set in sets {
        set.sort_by(|&a, &b| {
            rates[b]
                .1
                .m
                .cmp(&rates[a].1.m)
                .then(tie(&rates[a], &rates[b]))
        });
        let mut divisions: Vec<Vec<i64>> = Vec::new();
        if set.len() == 2 {
            for x in 1..total {
                divisions.push(vec![x, total - x]);
            }
        } else {
            for x in 1..total {
                for y in 1..total - x {
                    divisions.push(vec![x, y, total - x - y]);
                }
            }
        }
        for division in divisions {
            if !set.iter().zip(&division).all(|(&i, &x)| ok(&rates[i].1, x)) {
                continue;
            }
            let value: i128 = set
                .iter()
                .zip(&division)
                .map(|(&i, &x)| net(&rates[i].1, x))
                .sum();
            let better = match &best {
                None => true,
                Some((v, s, d)) => {
                    if value != *v {
                        value > *v
                    } else if set.len() != s.len() {
                        set.len() < s.len()
                    } else if set == *s {
                        division > *d
                    } else {
                        let listed = |s: &[usize]| {
                            let mut l: Vec<(i64, Terms)> = s.iter().map(|&i| rates[i]).collect();
                            l.sort_by(tie);
                            l
                        };
                        let (x, y) = (listed(&set), listed(s));
                        x.iter().zip(&y).map(|(p, q)| tie(p, q)).find(|o| o.is_ne())
                            == Some(Ordering::Less)
                    }
                }
            };
            if better {
                best = Some((value, set.clone(), division));
            }
        }
    }
    let (_, set, division) = best.unwrap();
    set.iter()
        .zip(&division)
        .map(|(&i, &x)| (id(rates[i].0), grid_text(x, places)))
        .collect()
}

const VARIANTS: [Variant; 4] = [
    Variant::Ramp,
    Variant::Fees,
    Variant::StaggeredMins,
    Variant::WidenedMaxes,
];

#[test]
fn small_ramp_books_match_the_oracle_on_the_grid() {
    // Whole units (0 decimals) and tenths (1 decimal): every leg on the
    // grid, the exact optimum there. Rates taken from a ramp's middle and
    // ends so that the pairs and triples differ.
    for variant in VARIANTS {
        for (places, n, most) in [(0u32, 14i64, 3usize), (0, 14, 2), (1, 9, 3), (1, 14, 2)] {
            let picked: Vec<i64> = (0..n).map(|k| k * 37 % 101).collect();
            let rates: Vec<(i64, Terms)> = picked.iter().map(|&i| (i, terms(variant, i))).collect();
            let list: Vec<Rate> = rates
                .iter()
                .map(|(i, t)| {
                    btc_eth_rate(
                        &id(*i),
                        &micro(t.m),
                        &micro(t.fee),
                        &tenths(t.min),
                        &tenths(t.max),
                        EpochMillis::new(LATER),
                    )
                })
                .collect();
            let data = RatesResponse::try_from(list).unwrap();
            let policy = SplitPolicy::DEFAULT
                .with_legs(SplitLegs::try_from(most as u64).unwrap())
                .with_decimals(places as u8);
            let answer = RouteRequest::exact_in(amount("10"), NOW)
                .split(&data, &policy)
                .unwrap();
            let total = 10 * 10i64.pow(places);
            assert_eq!(
                legs(&answer),
                oracle(&rates, total, places, most),
                "{variant:?} places {places} legs {most}"
            );
        }
    }
}

/// The answer derived by hand for `n` rates of `variant`, amount 10.
///
/// A leg at `x` yields `x + i·(x − 5)·10⁻⁶` less the variant's extra fee,
/// so in a pair the leg above 5 wants the highest `i`, the other the
/// lowest: rate 0 (fee 0) takes the rest. A third leg takes at least a
/// unit of 10⁻⁸ below 5 and adds a negative term: pairs win. Ramp and
/// staggered mins: `r(n−1)` at 6 and `r0` at 4 (`r(n−1)`'s min is at
/// most 1.5). Fees: the leg at 6 adds `i − 3·(i mod 7)`, largest at the
/// last multiple of 7. Widened maxes: the leg at its max `6 + (i mod 3)`
/// adds `i·(1 + i mod 3)`, largest at the last `i ≡ 2 (mod 3)` (at 8),
/// `r0` taking 2.
fn by_hand(variant: Variant, n: i64) -> Vec<(String, String)> {
    let last = n - 1;
    let (top, x) = match variant {
        Variant::Ramp | Variant::StaggeredMins => (last, 6),
        Variant::Fees => (last - last % 7, 6),
        Variant::WidenedMaxes => (last - (last + 1) % 3, 8),
    };
    vec![(id(top), grid_text(x, 0)), (id(0), grid_text(10 - x, 0))]
}

#[test]
fn by_hand_matches_the_oracle_where_both_run() {
    // The hand derivation, checked on whole books small enough for the
    // brute force.
    for variant in VARIANTS {
        for n in [9i64, 10, 11, 12] {
            let rates: Vec<(i64, Terms)> = (0..n).map(|i| (i, terms(variant, i))).collect();
            assert_eq!(
                oracle(&rates, 10, 0, 2),
                by_hand(variant, n),
                "{variant:?} {n}"
            );
        }
    }
}

fn answers_without_refusal(sizes: &[i64]) {
    for &n in sizes {
        for variant in VARIANTS {
            let data = book(variant, n);
            for legs_asked in [SplitLegs::TWO, SplitLegs::THREE] {
                let policy = SplitPolicy::DEFAULT.with_legs(legs_asked);
                let answer = RouteRequest::exact_in(amount("10"), NOW)
                    .split(&data, &policy)
                    .unwrap_or_else(|e| panic!("{variant:?} {n} {legs_asked:?}: {e}"));
                assert_eq!(
                    legs(&answer),
                    by_hand(variant, n),
                    "{variant:?} {n} {legs_asked:?}"
                );
                assert_eq!(
                    answer.split().unwrap().work().reduced,
                    None,
                    "decided without the dominance pass"
                );
            }
        }
    }
}

#[test]
fn ramp_books_answer_at_512_and_4096_rates() {
    answers_without_refusal(&[512, 4096]);
}

#[test]
fn ramp_books_answer_at_16384_and_65536_rates() {
    answers_without_refusal(&[16_384, 65_536]);
}

#[test]
fn legs_lie_on_the_assets_grid() {
    // a ×30 [0.1, 5.87654322], b ×29 [0.1, 6]: on the 8-place grid a
    // takes its max and b the rest, 4.12345678. With 0 decimals a's max
    // on the grid is 5: 5 + 5 (5 × 30 + 5 × 29 = 295); with 2 decimals
    // 5.87 + 4.13 (176.1 + 119.77 = 295.87).
    let data = RatesResponse::try_from(vec![
        btc_eth_rate("a", "30", "0", "0.1", "5.87654322", EpochMillis::new(LATER)),
        btc_eth_rate("b", "29", "0", "0.1", "6", EpochMillis::new(LATER)),
    ])
    .unwrap();
    let request = RouteRequest::exact_in(amount("10"), NOW);
    let eight = request.split(&data, &SplitPolicy::DEFAULT).unwrap();
    assert_eq!(
        legs(&eight),
        vec![
            ("a".to_owned(), "5.87654322".to_owned()),
            ("b".to_owned(), "4.12345678".to_owned())
        ]
    );
    let whole = request
        .split(&data, &SplitPolicy::DEFAULT.with_decimals(0))
        .unwrap();
    assert_eq!(
        legs(&whole),
        vec![
            ("a".to_owned(), "5.00000000".to_owned()),
            ("b".to_owned(), "5.00000000".to_owned())
        ]
    );
    assert_eq!(whole.split().unwrap().net_output().to_string(), "295");
    let cents = request
        .split(&data, &SplitPolicy::DEFAULT.with_decimals(2))
        .unwrap();
    assert_eq!(
        legs(&cents),
        vec![
            ("a".to_owned(), "5.87000000".to_owned()),
            ("b".to_owned(), "4.13000000".to_owned())
        ]
    );
    assert_eq!(cents.split().unwrap().net_output().to_string(), "295.87");
    // Decimals past 8 are the 8-place grid.
    let fine = request
        .split(&data, &SplitPolicy::DEFAULT.with_decimals(18))
        .unwrap();
    assert_eq!(legs(&fine), legs(&eight));
}

#[test]
fn an_amount_off_the_grid_is_refused_by_type() {
    let data = RatesResponse::try_from(vec![
        btc_eth_rate("a", "30", "0", "0.1", "6", EpochMillis::new(LATER)),
        btc_eth_rate("b", "29", "0", "0.1", "6", EpochMillis::new(LATER)),
    ])
    .unwrap();
    let request = RouteRequest::exact_in(amount("10.5"), NOW);
    let error = request
        .split(&data, &SplitPolicy::DEFAULT.with_decimals(0))
        .unwrap_err();
    assert!(
        matches!(error, SplitError::OffGrid { places: 0, .. }),
        "{error:?}"
    );
    assert_eq!(error.code().as_str(), "INVALID_AMOUNT");
    assert_eq!(error.to_api_error().http_status().as_u16(), 400);
    // On a one-decimal grid it is an amount like any other: 6 + 4.5.
    let answer = request
        .split(&data, &SplitPolicy::DEFAULT.with_decimals(1))
        .unwrap();
    assert_eq!(
        legs(&answer),
        vec![
            ("a".to_owned(), "6.00000000".to_owned()),
            ("b".to_owned(), "4.50000000".to_owned())
        ]
    );
}

#[test]
fn a_legs_minimum_is_rounded_up_onto_the_grid() {
    // a ×30 [0.1, 6], b ×29 [3.2, 6], 10 on a whole grid: b's least whole
    // amount is 4, so a takes 6 (not 6.8): 180 + 116 = 296. Over 2
    // legs b could take 3.2 only on a finer grid.
    let data = RatesResponse::try_from(vec![
        btc_eth_rate("a", "30", "0", "0.1", "6.8", EpochMillis::new(LATER)),
        btc_eth_rate("b", "29", "0", "3.2", "6", EpochMillis::new(LATER)),
    ])
    .unwrap();
    let request = RouteRequest::exact_in(amount("10"), NOW);
    let whole = request
        .split(&data, &SplitPolicy::DEFAULT.with_decimals(0))
        .unwrap();
    assert_eq!(
        legs(&whole),
        vec![
            ("a".to_owned(), "6.00000000".to_owned()),
            ("b".to_owned(), "4.00000000".to_owned())
        ]
    );
    let eight = request.split(&data, &SplitPolicy::DEFAULT).unwrap();
    assert_eq!(
        legs(&eight),
        vec![
            ("a".to_owned(), "6.80000000".to_owned()),
            ("b".to_owned(), "3.20000000".to_owned())
        ]
    );
}

#[test]
fn finer_staggered_and_widened_ramps_answer_without_refusal() {
    // Mins rising by 10⁻⁵ per rate (to 0.65), maxes rising by 10⁻⁵ (to
    // 6.65), and both, at 65,536 rates and 2 or 3 legs: answered (no
    // SEARCH_EXHAUSTED), the legs summing to the amount. With rising maxes
    // the last rate takes its max 6.65535 and r0 the rest (the leg above 5
    // wants the highest i and the most, the other the lowest i: by the
    // same argument as `by_hand`).
    let n: i64 = 65_536;
    let build = |min_step: i64, max_step: i64| {
        let rates: Vec<Rate> = (0..n)
            .map(|i| {
                btc_eth_rate(
                    &id(i),
                    &micro(1_000_000 + i),
                    &micro(5 * i),
                    &micro(min_step * i),
                    &micro(6_000_000 + max_step * i),
                    EpochMillis::new(LATER),
                )
            })
            .collect();
        RatesResponse::try_from(rates).unwrap()
    };
    for (min_step, max_step) in [(10, 0), (0, 10), (10, 10)] {
        let data = build(min_step, max_step);
        for most in [SplitLegs::TWO, SplitLegs::THREE] {
            let answer = RouteRequest::exact_in(amount("10"), NOW)
                .split(&data, &SplitPolicy::DEFAULT.with_legs(most))
                .unwrap_or_else(|e| panic!("{min_step} {max_step} {most:?}: {e}"));
            let got = legs(&answer);
            if max_step == 10 {
                assert_eq!(
                    got,
                    vec![
                        (id(n - 1), "6.65535000".to_owned()),
                        (id(0), "3.34465000".to_owned())
                    ],
                    "{min_step} {max_step} {most:?}"
                );
            } else {
                assert_eq!(
                    got,
                    by_hand(Variant::Ramp, n),
                    "{min_step} {max_step} {most:?}"
                );
            }
        }
    }
}

#[test]
fn ramps_on_a_whole_grid_and_against_a_single_route() {
    // The ramp family at 512, 4,096 and 65,536 rates, 2 and 3 legs:
    // - on a 0-decimal asset's grid: `by_hand`'s legs are whole already;
    // - at 6, which every rate serves alone, with any strict gain asked:
    //   leg k at x_k nets x_k + i_k·10⁻⁶·(x_k − 5) − e_k (e_k ≥ 0, the
    //   fee past the ramp), so a division of 6 is worth
    //   6 + 10⁻⁶·Σ (i_k·(x_k − 5) − e_k·10⁶). At most one leg is above 5
    //   and, with another leg of at least 10⁻⁸, below 6; every other term
    //   is at most 0. So the single route at 6 (the largest i − e·10⁶:
    //   `by_hand`'s leg at 6 for the ramp, fees and staggered mins; the
    //   last rate for widened maxes, which all serve 6) beats every split.
    for (n, variant) in [512i64, 4096, 65_536]
        .into_iter()
        .flat_map(|n| VARIANTS.map(|v| (n, v)))
    {
        let data = book(variant, n);
        // i − e·10⁶: i for all but fees, i − 1000 − 3·(i mod 7) there
        // (largest at the last multiple of 7, as in `by_hand`).
        let single = match variant {
            Variant::Fees => by_hand(Variant::Fees, n)[0].0.clone(),
            _ => id(n - 1),
        };
        for most in [SplitLegs::TWO, SplitLegs::THREE] {
            let whole = RouteRequest::exact_in(amount("10"), NOW)
                .split(
                    &data,
                    &SplitPolicy::DEFAULT.with_legs(most).with_decimals(0),
                )
                .unwrap_or_else(|e| panic!("{variant:?} {n} {most:?}: {e}"));
            assert_eq!(
                legs(&whole),
                by_hand(variant, n),
                "{variant:?} {n} {most:?}"
            );
            let policy = SplitPolicy::DEFAULT.with_legs(most).with_min_gain_bps(0);
            match RouteRequest::exact_in(amount("6"), NOW)
                .split(&data, &policy)
                .unwrap_or_else(|e| panic!("{variant:?} {n} {most:?}: {e}"))
            {
                SplitAnswer::Single(route) => {
                    assert_eq!(
                        route.rate().id().as_str(),
                        single,
                        "{variant:?} {n} {most:?}"
                    );
                }
                SplitAnswer::Split(split) => panic!("{variant:?} {n} {most:?}: {split:?}"),
            }
        }
    }
}
