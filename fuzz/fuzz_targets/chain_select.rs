//! Chained routes on structured input (up to 5 assets, 8 pairs, 4 rates a
//! pair, numbers of every size, sponsored variants), checked against ruling 24 in
//! docs/RULES.md:
//!
//! - `best` is the selection's first chain, `top(k)` its first `k`, and
//!   "no chain" is reported alike by all three;
//! - the order of responses and of rates never changes the best chain;
//! - every chain's legs join (each starts where the last ended, no asset
//!   twice, at most `max_legs`), each leg's input lies within its rate's
//!   limits, ExactIn inputs are the last outputs rounded down to 8 places
//!   (big integers here), ExactOut outputs cover what comes next, and a
//!   chain expires with its earliest leg;
//! - the ranking is sorted by the chain order, written out here;
//! - with small numbers, every chain equals the brute-force oracle's
//!   (tests/common/chain_oracle.rs); sponsored variants of three campaigns,
//!   whose limits the market knows or not, take part;
//! - "no route" (often forced: every rate into the last asset asks for a
//!   min out of reach) is the full enumeration's, and its work, measured by
//!   the crate's work meter, stays within a small multiple of
//!   `paths × rates × log rates` (ruling 36), never the combinations'.
#![no_main]

use std::cmp::Ordering;

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;

#[path = "../../tests/common/mod.rs"]
mod common;
#[path = "../common/inputs.rs"]
#[allow(dead_code)]
mod inputs;
use common::chain_oracle::{campaigns, oracle, ASSETS, CAMPAIGNS, NOW, Q, R};
use inputs::Num;
use swaproute::decimal::Decimal;
use swaproute::route::chain::{Chain, ChainRequest, Market};
use swaproute::{AssetId, EpochMillis, RatesResponse, SwapMode};

#[derive(Arbitrary, Debug)]
struct FuzzRate {
    multiplier: Num,
    fee: Num,
    min: Num,
    max: Num,
    expired: bool,
    exact_out: bool,
    /// A campaign's sponsored variant (an index of `CAMPAIGNS`, 3 and up: none).
    sponsor: u8,
}

#[derive(Arbitrary, Debug)]
struct Input {
    assets: u8,
    pairs: Vec<(u8, u8, Vec<FuzzRate>)>,
    exact_out: bool,
    amount: Num,
    max_legs: u8,
    k: u8,
    from: u8,
    to: u8,
    /// The market's limit of each campaign (`None`: unknown to it).
    limits: [Option<Num>; 3],
    /// Every rate into the `to` asset asks for a min no chain reaches.
    refuse_last: bool,
}

fn small(num: Num) -> bool {
    matches!(num, Num::Small(..))
}

fuzz_target!(|input: Input| {
    let assets = 2 + usize::from(input.assets % 4);
    let mut rates: Vec<R> = Vec::new();
    let mut all_small = small(input.amount) && input.limits.iter().flatten().all(|&n| small(n));
    let mut seen_pairs = Vec::new();
    let target = usize::from(input.to) % assets;
    for (from, to, list) in input.pairs.iter().take(8) {
        let (from, to) = (usize::from(*from) % assets, usize::from(*to) % assets);
        let refused = input.refuse_last && to == target;
        if from == to || seen_pairs.contains(&(from, to)) {
            continue;
        }
        seen_pairs.push((from, to));
        for (i, rate) in list.iter().take(4).enumerate() {
            all_small &= [rate.multiplier, rate.fee, rate.min, rate.max]
                .iter()
                .all(|&n| small(n));
            rates.push(R {
                pair: (from, to),
                id: format!("{}{}{i}", ASSETS[from], ASSETS[to]),
                m: rate.multiplier.build(),
                fee: rate.fee.build(),
                min: if refused {
                    Decimal::from_i128_with_scale(10i128.pow(27), 0)
                } else {
                    rate.min.build()
                },
                max: if refused {
                    Decimal::MAX
                } else {
                    rate.max.build()
                },
                expired: rate.expired,
                exact_out: rate.exact_out,
                sponsor: (usize::from(rate.sponsor) < CAMPAIGNS.len()).then(|| {
                    let campaign = usize::from(rate.sponsor);
                    (campaign, input.limits[campaign].map(|n| n.amount().get()))
                }),
            });
        }
    }
    let responses: Vec<RatesResponse> = seen_pairs
        .iter()
        .map(|&pair| {
            let list = rates
                .iter()
                .filter(|r| r.pair == pair)
                .map(R::to_rate)
                .collect::<Vec<_>>();
            RatesResponse::try_from(list).expect("one pair, unique ids")
        })
        .collect();
    let now = EpochMillis::new(NOW);
    let limits = campaigns(&rates);
    let market = Market::new(responses.iter(), &limits, now).expect("distinct pairs");
    let (from, to) = (
        usize::from(input.from) % assets,
        usize::from(input.to) % assets,
    );
    let (from_id, to_id) = (
        AssetId::new(ASSETS[from]).unwrap(),
        AssetId::new(ASSETS[to]).unwrap(),
    );
    let amount = input.amount.amount();
    let mode = if input.exact_out {
        SwapMode::ExactOut
    } else {
        SwapMode::ExactIn
    };
    let max_legs = 1 + usize::from(input.max_legs % 3);
    let request = match mode {
        SwapMode::ExactIn => ChainRequest::exact_in(from_id, to_id, amount, now),
        SwapMode::ExactOut => ChainRequest::exact_out(from_id, to_id, amount, now),
    }
    .with_max_legs(max_legs)
    .unwrap();
    let k = 1 + usize::from(input.k % 6);

    let selection = request
        .select_all(&market, 64)
        .expect("8 pairs of 4 rates are within the cap");
    let (best, work) = swaproute::route::measure_work(|| request.best(&market));
    let top = request.top(&market, k);
    match selection.chains().first() {
        Some(first) => {
            assert_eq!(best.as_ref().ok(), Some(first));
            let top = top.expect("chains exist");
            assert_eq!(
                &top[..],
                &selection.chains()[..k.min(selection.chains().len())]
            );
            assert!(selection.no_route().is_none());
        }
        None => {
            let error = best.as_ref().expect_err("no chain");
            assert_eq!(Some(error), selection.no_route());
            assert_eq!(&top.expect_err("no chain"), error);
            // The bounded report counts what the enumeration counts.
            let bounded = request.select(&market, 64);
            assert_eq!(bounded.rejected_counts(), selection.rejected_counts());
            assert_eq!(bounded.no_route(), Some(error));
            // Bounded work: a few checks a rate of each path, times log n.
            let n = market_rates(&rates, &seen_pairs);
            let bound = 32 * n * (1 + max_legs as u64) + 256;
            assert!(work <= bound, "no route took {work} units (bound {bound})");
        }
    }

    // Input order never changes the best chain.
    let reversed: Vec<RatesResponse> = responses
        .iter()
        .rev()
        .map(|r| {
            RatesResponse::try_from(r.rates().iter().rev().cloned().collect::<Vec<_>>()).unwrap()
        })
        .collect();
    let market_rev = Market::new(reversed.iter(), &limits, now).unwrap();
    let again = request.best(&market_rev);
    assert_eq!(again.as_ref().ok().map(ids), best.as_ref().ok().map(ids));

    for chain in selection.chains() {
        check_chain(chain, &request, mode, amount.get(), max_legs);
    }
    for pair in selection.chains().windows(2) {
        assert_ne!(chain_order(&pair[0], &pair[1]), Ordering::Greater);
    }

    if all_small {
        let mut pairs: Vec<(usize, usize)> = rates.iter().map(|r| r.pair).collect();
        pairs.sort_unstable();
        pairs.dedup();
        let (want, _) = oracle(&rates, &pairs, from, to, mode, amount.get(), max_legs);
        assert_eq!(selection.chain_count(), Some(want.len()));
        let got: Vec<Vec<String>> = selection.chains().iter().map(ids).collect();
        let expected: Vec<Vec<String>> = want
            .iter()
            .take(64)
            .map(|found| found.rates.iter().map(|&i| rates[i].id.clone()).collect())
            .collect();
        assert_eq!(got, expected);
    }
});

/// The rates of the market's pairs (a path has at most 3 of them).
fn market_rates(rates: &[R], pairs: &[(usize, usize)]) -> u64 {
    pairs
        .iter()
        .map(|&pair| rates.iter().filter(|r| r.pair == pair).count() as u64)
        .sum::<u64>()
        .max(1)
}

fn ids(chain: &Chain<'_>) -> Vec<String> {
    chain
        .legs()
        .iter()
        .map(|leg| leg.rate().id().as_str().to_owned())
        .collect()
}

fn check_chain(
    chain: &Chain<'_>,
    request: &ChainRequest,
    mode: SwapMode,
    amount: Decimal,
    max_legs: usize,
) {
    let legs = chain.legs();
    assert!(!legs.is_empty() && legs.len() <= max_legs);
    assert_eq!(legs[0].pair_id().from(), request.from());
    assert_eq!(legs[legs.len() - 1].pair_id().to(), request.to());
    let mut assets = vec![legs[0].pair_id().from().clone()];
    for leg in legs {
        assert!(!assets.contains(leg.pair_id().to()), "an asset twice");
        assets.push(leg.pair_id().to().clone());
        let rate = leg.rate();
        assert!(
            rate.min() <= leg.input() && leg.input() <= rate.max(),
            "limits"
        );
        assert!(!rate.is_expired_at(EpochMillis::new(NOW)));
    }
    for pair in legs.windows(2) {
        assert_eq!(pair[0].pair_id().to(), pair[1].pair_id().from());
        match mode {
            SwapMode::ExactIn => {
                // The floor of the exact output (ruling 35).
                let rate = pair[0].rate();
                let exact = Q::of(pair[0].input())
                    .mul(&Q::of(rate.multiplier()))
                    .sub(&Q::of(rate.miner_fee()));
                assert_eq!(Q::of(pair[1].input()), exact.floor8());
            }
            SwapMode::ExactOut => assert!(pair[0].output() >= pair[1].input()),
        }
    }
    match mode {
        SwapMode::ExactIn => assert_eq!(legs[0].input(), amount),
        SwapMode::ExactOut => {
            assert!(legs[legs.len() - 1].output() >= amount);
            assert!(legs.iter().all(|leg| leg.rate().supports_exact_out()));
            assert!(legs.iter().all(|leg| !leg.rate().is_sponsored()));
        }
    }
    let earliest = legs.iter().map(|leg| leg.rate().expiry()).min().unwrap();
    assert_eq!(chain.expiry(), earliest);
}

/// The chain order of ruling 24, written out: score, fewer legs, then leg by
/// leg pair id bytes, fee and id bytes (no sponsored rates here).
fn chain_order(a: &Chain<'_>, b: &Chain<'_>) -> Ordering {
    let score = match a.mode() {
        SwapMode::ExactIn => b.output().cmp(&a.output()),
        SwapMode::ExactOut => a.input().cmp(&b.input()),
    };
    score
        .then(a.legs().len().cmp(&b.legs().len()))
        .then_with(|| {
            for (x, y) in a.legs().iter().zip(b.legs()) {
                let o = x
                    .pair_id()
                    .as_str()
                    .as_bytes()
                    .cmp(y.pair_id().as_str().as_bytes())
                    .then(x.rate().miner_fee().cmp(&y.rate().miner_fee()))
                    .then(x.rate().is_sponsored().cmp(&y.rate().is_sponsored()))
                    .then(
                        x.rate()
                            .id()
                            .as_str()
                            .as_bytes()
                            .cmp(y.rate().id().as_str().as_bytes()),
                    );
                if o != Ordering::Equal {
                    return o;
                }
            }
            Ordering::Equal
        })
}
