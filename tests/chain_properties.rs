//! Chained routes against a brute-force oracle (ruling 24 in docs/RULES.md).
//!
//! The oracle shares no code with the engine: every path and every
//! combination of rates is enumerated, each leg judged by the rules as
//! written, on big integers (`num-bigint`): values are `n / 10^s`.
#![allow(
    clippy::arithmetic_side_effects,
    clippy::cast_possible_truncation,
    clippy::too_many_lines,
    clippy::single_match_else
)]

use std::cmp::Ordering;

use proptest::prelude::*;
use swaproute::route::chain::{ChainNoRoute, ChainRequest, Market};
use swaproute::route::{NoRoute, RouteRequest};
use swaproute::{Amount, AssetId, Decimal, EpochMillis, ErrorCode, Rate, RatesResponse, SwapMode};

use crate::common;
use common::chain_oracle::{campaigns, oracle, Found, ASSETS, NOW, Q, R};

fn decimal(mantissa: i64, scale: u32) -> Decimal {
    Decimal::new(mantissa, scale)
}

/// A random market: 3-6 assets, each ordered pair present with probability
/// 1/2 (the direct pair from the first to the last asset always), 1-4 rates
/// a pair with multipliers near 1, so that chains of every length occur;
/// one rate in ten invalid, one in ten expired, one in four without ExactOut,
/// three in eight sponsored by one of three campaigns whose limits the
/// market knows or not.
pub(crate) fn market_strategy() -> impl Strategy<Value = (usize, Vec<R>)> {
    (3usize..=6).prop_flat_map(|assets| {
        let pairs: Vec<(usize, usize)> = (0..assets)
            .flat_map(|a| (0..assets).filter(move |&b| b != a).map(move |b| (a, b)))
            .collect();
        let count = pairs.len();
        (
            Just(assets),
            Just(pairs),
            proptest::collection::vec(proptest::bool::weighted(0.5), count),
            // Each campaign's per-swap limit, or unknown to the market.
            proptest::array::uniform3(proptest::option::of(1i64..500)),
            proptest::collection::vec(
                (
                    1usize..=4,
                    proptest::collection::vec(
                        (
                            40i64..250,
                            1u32..4,
                            0i64..50,
                            0u32..3,
                            0i64..150,
                            20i64..2000,
                            0u32..10,
                            0u32..4,
                            0usize..8,
                        ),
                        4,
                    ),
                ),
                count,
            ),
        )
            .prop_map(|(assets, pairs, present, limits, specs)| {
                let mut rates = Vec::new();
                for (p, &(a, b)) in pairs.iter().enumerate() {
                    let forced = a == 0 && b == assets - 1;
                    if !(present[p] || forced) {
                        continue;
                    }
                    let (count, ref legs) = specs[p];
                    for (i, &(m, ms, f, fs, lo, hi, flags, out, sponsor)) in
                        legs.iter().take(count).enumerate()
                    {
                        // Multipliers 0.4-2.5 (scale 2; more digits at scale 3).
                        let m = if ms == 3 {
                            m * 10 + i64::from(flags)
                        } else {
                            m
                        };
                        let max = decimal(hi, 1);
                        rates.push(R {
                            pair: (a, b),
                            id: format!("{}{}{}", ASSETS[a], ASSETS[b], (b'a' + i as u8) as char),
                            m: decimal(m, ms.max(2)),
                            fee: decimal(f, fs + 2),
                            // One in ten is invalid (min above max).
                            min: if flags == 0 {
                                max + Decimal::ONE
                            } else {
                                decimal(lo, 2)
                            },
                            max,
                            expired: flags == 1,
                            exact_out: out != 0,
                            // Three in eight are a campaign's sponsored variant.
                            sponsor: (sponsor < 3)
                                .then(|| (sponsor, limits[sponsor].map(|l| decimal(l, 1)))),
                        });
                    }
                }
                (assets, rates)
            })
    })
}

pub(crate) fn responses(rates: &[R]) -> Vec<RatesResponse> {
    let mut pairs: Vec<(usize, usize)> = rates.iter().map(|r| r.pair).collect();
    pairs.dedup();
    pairs.sort_unstable();
    pairs.dedup();
    pairs
        .iter()
        .map(|&pair| {
            let list: Vec<Rate> = rates
                .iter()
                .filter(|r| r.pair == pair)
                .map(R::to_rate)
                .collect();
            RatesResponse::try_from(list).unwrap()
        })
        .collect()
}

fn check(
    rates: &[R],
    from: usize,
    to: usize,
    mode: SwapMode,
    amount: Decimal,
    max_legs: usize,
) -> Result<(), TestCaseError> {
    let mut pairs: Vec<(usize, usize)> = rates.iter().map(|r| r.pair).collect();
    pairs.sort_unstable();
    pairs.dedup();
    let (want, path_count) = oracle(rates, &pairs, from, to, mode, amount, max_legs);
    let built = responses(rates);
    let now = EpochMillis::new(NOW);
    let limits = campaigns(rates);
    let market = Market::new(built.iter(), &limits, now).unwrap();
    let (f, t) = (
        AssetId::new(ASSETS[from]).unwrap(),
        AssetId::new(ASSETS[to]).unwrap(),
    );
    let amount_ = Amount::new(amount).unwrap();
    let request = match mode {
        SwapMode::ExactIn => ChainRequest::exact_in(f, t, amount_, now),
        SwapMode::ExactOut => ChainRequest::exact_out(f, t, amount_, now),
    }
    .with_max_legs(max_legs)
    .unwrap();
    let ids = |chain: &swaproute::route::chain::Chain<'_>| -> Vec<String> {
        chain
            .legs()
            .iter()
            .map(|leg| leg.rate().id().as_str().to_string())
            .collect()
    };
    let want_ids = |found: &Found| -> Vec<String> {
        found.rates.iter().map(|&i| rates[i].id.clone()).collect()
    };
    let best = request.best(&market);
    let selection = request.select_all(&market, 1000).unwrap();
    prop_assert_eq!(selection.chain_count(), Some(want.len()));
    // Ruling 36: "no route" decided leg by leg is what trying every
    // combination decides (the code, the counts of each rate once), and the
    // bounded report counts the same rates.
    let bounded = request.select(&market, 1000);
    prop_assert_eq!(bounded.rejected_counts(), selection.rejected_counts());
    prop_assert_eq!(bounded.no_route(), selection.no_route());
    prop_assert_eq!(best.as_ref().err(), selection.no_route());
    prop_assert_eq!(
        best.as_ref().err().map(ChainNoRoute::code),
        selection.no_route().map(ChainNoRoute::code)
    );
    match want.first() {
        Some(first) => {
            let best = best.map_err(|e| TestCaseError::fail(format!("no best: {e}")))?;
            prop_assert_eq!(ids(&best), want_ids(first));
            let score = match mode {
                SwapMode::ExactIn => best.final_output().unwrap(),
                SwapMode::ExactOut => best.required_input().unwrap().get(),
            };
            prop_assert_eq!(Q::of(score).cmp(&first.score), Ordering::Equal);
            // Every ranked chain, in order.
            let got: Vec<Vec<String>> = selection.chains().iter().map(ids).collect();
            let expected: Vec<Vec<String>> = want.iter().map(want_ids).collect();
            prop_assert_eq!(&got, &expected);
            // top(k) is a prefix of the selection.
            for k in [1usize, 2, 5] {
                let top = request.top(&market, k).unwrap();
                let top_ids: Vec<Vec<String>> = top.iter().map(ids).collect();
                prop_assert_eq!(&top_ids[..], &expected[..k.min(expected.len())]);
            }
            // Legs join: ExactIn inputs are the last outputs rounded down to
            // 8 places; every chain's expiry is its earliest leg's.
            for chain in selection.chains() {
                for pair in chain.legs().windows(2) {
                    prop_assert_eq!(pair[0].pair_id().to(), pair[1].pair_id().from());
                    if mode == SwapMode::ExactIn {
                        prop_assert_eq!(Q::of(pair[1].input()), Q::of(pair[0].output()).floor8());
                    } else {
                        prop_assert!(
                            Q::of(pair[0].output()).cmp(&Q::of(pair[1].input())) != Ordering::Less
                        );
                    }
                }
                let earliest = chain
                    .legs()
                    .iter()
                    .map(|l| l.rate().expiry())
                    .min()
                    .unwrap();
                prop_assert_eq!(chain.expiry(), earliest);
            }
        }
        None => {
            let error = best.err().unwrap();
            if path_count == 0 {
                prop_assert!(
                    matches!(error, ChainNoRoute::Unavailable { .. }),
                    "{error:?}"
                );
                prop_assert_eq!(error.code(), ErrorCode::RouteUnavailable);
            } else {
                prop_assert!(
                    !matches!(error, ChainNoRoute::Unavailable { .. }),
                    "{error:?}"
                );
            }
            prop_assert!(request.top(&market, 3).is_err());
        }
    }
    // The order of responses and of rates never changes the answer.
    let mut reversed: Vec<R> = rates.to_vec();
    reversed.reverse();
    let responses_rev = responses(&reversed);
    let market_rev = Market::new(responses_rev.iter().rev(), &limits, now).unwrap();
    let again = request.best(&market_rev);
    prop_assert_eq!(again.as_ref().map(ids).ok(), want.first().map(want_ids));
    Ok(())
}

proptest! {
    #[test]
    fn chains_match_the_brute_force_oracle(
        (assets, rates) in market_strategy(),
        other in proptest::option::weighted(0.2, (0usize..6, 0usize..6)),
        exact_out in any::<bool>(),
        amount in (1i64..2000, 0u32..4),
        max_legs in 1usize..=3,
    ) {
        // Mostly first to last asset (the direct pair exists); sometimes any two.
        let (from, to) = other.map_or((0, assets - 1), |(f, t)| (f % assets, t % assets));
        prop_assume!(from != to);
        let mode = if exact_out { SwapMode::ExactOut } else { SwapMode::ExactIn };
        check(&rates, from, to, mode, decimal(amount.0, amount.1), max_legs)?;
    }

    /// With one leg, a chain is the single-pair ExactIn engine's best route.
    #[test]
    fn one_leg_is_the_single_pair_engine((_, rates) in market_strategy(), amount in (1i64..2000, 0u32..3)) {
        let pair = rates[0].pair;
        let list: Vec<Rate> = rates.iter().filter(|r| r.pair == pair).map(R::to_rate).collect();
        let response = RatesResponse::try_from(list).unwrap();
        let now = EpochMillis::new(NOW);
        let limits = campaigns(&rates);
        let market = Market::new([&response], &limits, now).unwrap();
        let amount = Amount::new(decimal(amount.0, amount.1)).unwrap();
        let request = ChainRequest::exact_in(
            AssetId::new(ASSETS[pair.0]).unwrap(), AssetId::new(ASSETS[pair.1]).unwrap(), amount, now,
        ).with_max_legs(1).unwrap();
        let single = RouteRequest::exact_in(amount, now).with_campaigns(&limits).best(&response);
        match (request.best(&market), single) {
            (Ok(chain), Ok(route)) => {
                prop_assert_eq!(chain.legs()[0].rate().id(), route.rate().id());
                prop_assert_eq!(chain.final_output(), Some(route.net_output()));
            }
            // The same classification; only a single pair's answer names the
            // amount that works (ruling 38 amends ruling 10 for one pair's
            // rates, not for a chain's first legs across pairs).
            (Err(ChainNoRoute::FirstLeg(no_route)), Err(single)) => {
                prop_assert_eq!(no_route.working(), None);
                prop_assert_eq!(no_route, without_working(single));
            }
            (chain, single) => prop_assert!(false, "{chain:?} vs {single:?}"),
        }
    }
}

/// `no_route` without the amount that works it names (ruling 38).
fn without_working(no_route: NoRoute) -> NoRoute {
    match no_route {
        NoRoute::BelowMin {
            named,
            amount,
            asset,
            min,
            ..
        } => NoRoute::BelowMin {
            named,
            amount,
            asset,
            min,
            smallest_working: None,
        },
        NoRoute::AboveMax {
            named,
            amount,
            asset,
            max,
            ..
        } => NoRoute::AboveMax {
            named,
            amount,
            asset,
            max,
            largest_working: None,
        },
        NoRoute::NoOutput {
            named,
            amount,
            asset,
            ..
        } => NoRoute::NoOutput {
            named,
            amount,
            asset,
            smallest_working: None,
        },
        other => other,
    }
}
