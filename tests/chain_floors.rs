//! The economic floors (ruling 38) in chained routes, against the brute-force
//! chain oracle (tests/common/chain_oracle.rs) with each leg held to the
//! floors on big integers here: the fee multiple and the fee share on every
//! leg, the dust (in the chain's to asset) on its last leg. Shares no code
//! with the engine.
#![allow(
    clippy::arithmetic_side_effects,
    clippy::cast_possible_truncation,
    clippy::too_many_lines
)]

use std::cmp::Ordering;

use num_bigint::BigInt;
use proptest::prelude::*;
use swaproute::route::chain::{ChainNoRoute, ChainRequest, Market};
use swaproute::route::{Floors, NoRoute, RejectReason};
use swaproute::{Amount, AssetId, Decimal, EpochMillis, Rate, RatesResponse, SwapMode};

use crate::chain_properties::{market_strategy, responses};
use crate::common::chain_oracle::{campaigns, oracle, Found, ASSETS, NOW, Q, R};
use crate::common::{amount, d};

/// The floors as the oracle holds them.
#[derive(Clone, Debug, Default)]
struct Held {
    dust: Option<Decimal>,
    k: Option<Decimal>,
    bps: Option<u32>,
}

impl Held {
    fn floors(&self) -> Floors {
        let mut floors = Floors::NONE;
        if let Some(dust) = self.dust {
            floors = floors.with_dust(Amount::new(dust).unwrap());
        }
        if let Some(k) = self.k {
            floors = floors.with_fee_multiple(Amount::new(k).unwrap());
        }
        if let Some(bps) = self.bps {
            floors = floors.with_max_fee_share_bps(bps);
        }
        floors
    }

    /// One leg of `rate` at input `x` with net output `net` (positive).
    fn passes(&self, rate: &R, x: &Q, net: &Q, last: bool) -> bool {
        let fee = Q::of(rate.fee);
        if let (true, Some(dust)) = (last, self.dust) {
            if net.cmp(&Q::of(dust)) == Ordering::Less {
                return false;
            }
        }
        if let Some(k) = self.k {
            if net.cmp(&Q::of(k).mul(&fee)) == Ordering::Less {
                return false;
            }
        }
        if let Some(bps) = self.bps {
            // fee × 10000 ≤ bps × x × m
            let left = fee.mul(&Q {
                n: BigInt::from(10_000u32),
                s: 0,
            });
            let right = x.mul(&Q::of(rate.m)).mul(&Q {
                n: BigInt::from(bps),
                s: 0,
            });
            if left.cmp(&right) == Ordering::Greater {
                return false;
            }
        }
        true
    }

    /// Does the chain the oracle found pass every floor?
    fn chain_passes(&self, rates: &[R], mode: SwapMode, amount: Decimal, found: &Found) -> bool {
        self.first_failure(rates, mode, amount, found).is_none()
    }

    /// The first leg, in the order the legs are judged (forward in ExactIn,
    /// backward in ExactOut), that a floor refuses: its place in that order
    /// and its rate's index.
    fn first_failure(
        &self,
        rates: &[R],
        mode: SwapMode,
        amount: Decimal,
        found: &Found,
    ) -> Option<(usize, usize)> {
        let legs = found.rates.len();
        match mode {
            SwapMode::ExactIn => {
                let mut input = Q::of(amount);
                for (leg, &i) in found.rates.iter().enumerate() {
                    let rate = &rates[i];
                    let net = input.mul(&Q::of(rate.m)).sub(&Q::of(rate.fee));
                    if !self.passes(rate, &input, &net, leg + 1 == legs) {
                        return Some((leg, i));
                    }
                    input = net.floor8();
                }
                None
            }
            SwapMode::ExactOut => {
                let mut target = Q::of(amount);
                for (judged, (leg, &i)) in found.rates.iter().enumerate().rev().enumerate() {
                    let rate = &rates[i];
                    let z = target.add(&Q::of(rate.fee)).ceil8_div(&Q::of(rate.m));
                    let net = z.mul(&Q::of(rate.m)).sub(&Q::of(rate.fee));
                    if !self.passes(rate, &z, &net, leg + 1 == legs) {
                        return Some((judged, i));
                    }
                    target = z;
                }
                None
            }
        }
    }
}

fn floors_strategy() -> impl Strategy<Value = Held> {
    (
        proptest::option::weighted(0.4, (0i64..400, 0u32..3)),
        proptest::option::weighted(0.4, (0i64..60, 0u32..2)),
        proptest::option::weighted(0.4, 0u32..3000),
    )
        .prop_map(|(dust, k, bps)| Held {
            dust: dust.map(|(n, s)| Decimal::new(n, s)),
            k: k.map(|(n, s)| Decimal::new(n, s)),
            bps,
        })
}

fn request(from: usize, to: usize, mode: SwapMode, amount: Decimal, legs: usize) -> ChainRequest {
    let (f, t) = (
        AssetId::new(ASSETS[from]).unwrap(),
        AssetId::new(ASSETS[to]).unwrap(),
    );
    let now = EpochMillis::new(NOW);
    let amount = Amount::new(amount).unwrap();
    match mode {
        SwapMode::ExactIn => ChainRequest::exact_in(f, t, amount, now),
        SwapMode::ExactOut => ChainRequest::exact_out(f, t, amount, now),
    }
    .with_max_legs(legs)
    .unwrap()
}

fn ids(chain: &swaproute::route::chain::Chain<'_>) -> Vec<String> {
    chain
        .legs()
        .iter()
        .map(|leg| leg.rate().id().as_str().to_owned())
        .collect()
}

proptest! {
    /// Under random floors, the chains ranked are exactly the oracle's
    /// chains that pass them, in the oracle's order; the best is the first;
    /// "no route" decided leg by leg (ruling 36) agrees with trying every
    /// combination; and the refusals count the floors' reasons.
    #[test]
    fn chains_under_floors_match_the_oracle(
        (assets, rates) in market_strategy(),
        held in floors_strategy(),
        exact_out in any::<bool>(),
        amount in (1i64..2000, 0u32..4),
        max_legs in 1usize..=3,
    ) {
        let (from, to) = (0, assets - 1);
        let mode = if exact_out { SwapMode::ExactOut } else { SwapMode::ExactIn };
        let amount = Decimal::new(amount.0, amount.1);
        let mut pairs: Vec<(usize, usize)> = rates.iter().map(|r| r.pair).collect();
        pairs.sort_unstable();
        pairs.dedup();
        let (all, _) = oracle(&rates, &pairs, from, to, mode, amount, max_legs);
        let want: Vec<Vec<String>> = all
            .iter()
            .filter(|found| held.chain_passes(&rates, mode, amount, found))
            .map(|found| found.rates.iter().map(|&i| rates[i].id.clone()).collect())
            .collect();
        let built = responses(&rates);
        let limits = campaigns(&rates);
        let now = EpochMillis::new(NOW);
        let market = Market::new(built.iter(), &limits, now).unwrap();
        let request = request(from, to, mode, amount, max_legs).with_floors(held.floors());
        let selection = request.select_all(&market, 1000).unwrap();
        let got: Vec<Vec<String>> = selection.chains().iter().map(ids).collect();
        prop_assert_eq!(&got, &want);
        let best = request.best(&market);
        prop_assert_eq!(best.as_ref().ok().map(ids), want.first().cloned());
        let bounded = request.select(&market, 1000);
        prop_assert_eq!(bounded.rejected_counts(), selection.rejected_counts());
        prop_assert_eq!(bounded.no_route(), selection.no_route());
        prop_assert_eq!(best.as_ref().err(), selection.no_route());
        // Rule 36 counts a rate once, with the reason at the largest amount
        // that reaches it, so a floor that refuses a rate on a later leg may
        // be outranked by a limit that a larger amount (through another
        // rate) meets first. A rate on the leg judged first is reached by the
        // request's amount alone: when a floor refuses it there, that floor
        // is its reason, and each such rate is counted once.
        let mut first_refused: Vec<usize> = all
            .iter()
            .filter_map(|found| held.first_failure(&rates, mode, amount, found))
            .filter(|&(judged, _)| judged == 0)
            .map(|(_, rate)| rate)
            .collect();
        first_refused.sort_unstable();
        first_refused.dedup();
        let floors_counted: usize = selection
            .rejected_counts()
            .iter()
            .filter(|(code, _)| ["BELOW_DUST", "FEE_TOO_LARGE", "FEE_SHARE_TOO_LARGE"].contains(code))
            .map(|(_, n)| n)
            .sum();
        prop_assert!(
            floors_counted >= first_refused.len(),
            "{} first-leg rates refused by a floor, counts {:?}",
            first_refused.len(),
            selection.rejected_counts()
        );
    }

    /// Off by default: floors that every route passes (dust 0, fee multiple
    /// 0, a fee share of 100 %: a positive net output is already all three)
    /// leave every chain answer as without floors, through the paths that
    /// floors take (the plain leg check, no rate book).
    #[test]
    fn trivial_floors_change_no_chain_answer(
        (assets, rates) in market_strategy(),
        exact_out in any::<bool>(),
        amount in (1i64..2000, 0u32..4),
        max_legs in 1usize..=3,
    ) {
        let mode = if exact_out { SwapMode::ExactOut } else { SwapMode::ExactIn };
        let amount = Decimal::new(amount.0, amount.1);
        let built = responses(&rates);
        let limits = campaigns(&rates);
        let market = Market::new(built.iter(), &limits, EpochMillis::new(NOW)).unwrap();
        let plain = request(0, assets - 1, mode, amount, max_legs);
        let trivial = plain.clone().with_floors(
            Floors::NONE
                .with_dust(Amount::ZERO)
                .with_fee_multiple(Amount::ZERO)
                .with_max_fee_share_bps(10_000),
        );
        prop_assert_eq!(plain.best(&market), trivial.best(&market));
        let (a, b) = (plain.select(&market, 50), trivial.select(&market, 50));
        prop_assert_eq!(a.chains(), b.chains());
        prop_assert_eq!(a.rejected_counts(), b.rejected_counts());
        prop_assert_eq!(a.no_route(), b.no_route());
    }
}

/// BTC → ETH → SOL by hand. BTC_ETH ×20 fee 0.5, ETH_SOL ×10 fee 2.
fn two_legs() -> Vec<RatesResponse> {
    let rate = |id: &str, pair: &str, m: &str, fee: &str| -> Rate {
        Rate::new(
            swaproute::RateId::new(id).unwrap(),
            swaproute::PairId::new(pair).unwrap(),
            swaproute::RateTerms {
                multiplier: d(m),
                miner_fee: d(fee),
                min: d("0.001"),
                max: d("1000"),
            },
            EpochMillis::new(NOW + 60_000),
        )
        .with_exact_out(true)
    };
    vec![
        RatesResponse::try_from(vec![rate("be", "BTC_ETH", "20", "0.5")]).unwrap(),
        RatesResponse::try_from(vec![rate("es", "ETH_SOL", "10", "2")]).unwrap(),
    ]
}

fn btc_sol_in(x: &str) -> ChainRequest {
    ChainRequest::exact_in(
        AssetId::new("BTC").unwrap(),
        AssetId::new("SOL").unwrap(),
        amount(x),
        EpochMillis::new(NOW),
    )
}

#[test]
fn dust_holds_the_chains_last_leg_in_its_to_asset() {
    let responses = two_legs();
    let market = Market::new(
        responses.iter(),
        &swaproute::CampaignLimits::new(),
        EpochMillis::new(NOW),
    )
    .unwrap();
    // 0.1 BTC → 0.1 × 20 − 0.5 = 1.5 ETH → 1.5 × 10 − 2 = 13 SOL.
    let best = btc_sol_in("0.1").best(&market).unwrap();
    assert_eq!(best.final_output(), Some(d("13")));
    // A dust of 13 SOL passes (inclusive); 13.00000001 refuses the last leg.
    let at = |dust: &str| btc_sol_in("0.1").with_floors(Floors::NONE.with_dust(amount(dust)));
    assert_eq!(
        at("13").best(&market).unwrap().final_output(),
        Some(d("13"))
    );
    let refused = at("13.00000001").best(&market).unwrap_err();
    assert_eq!(refused.most_common(), Some("BELOW_DUST"));
    // A dust of 5 is below 13 SOL but above the first leg's 1.5 ETH: the
    // first leg is not held to it (its output is in another asset).
    assert!(at("5").best(&market).is_ok());
}

#[test]
fn fee_ratios_hold_every_leg() {
    let responses = two_legs();
    let market = Market::new(
        responses.iter(),
        &swaproute::CampaignLimits::new(),
        EpochMillis::new(NOW),
    )
    .unwrap();
    // Fee multiple 3: the first leg needs 1.5 ≥ 3 × 0.5 = 1.5 (passes), the
    // last 13 ≥ 3 × 2 = 6 (passes); multiple 3.00000001 refuses the first.
    let with_k = |k: &str| btc_sol_in("0.1").with_floors(Floors::NONE.with_fee_multiple(amount(k)));
    assert!(with_k("3").best(&market).is_ok());
    let selection = with_k("3.00000001").select(&market, 10);
    assert_eq!(selection.rejected_counts(), &[("FEE_TOO_LARGE", 1)]);
    // Fee share: the first leg's fee 0.5 against a gross of 2 ETH is 2500
    // bps; the last leg's 2 against 15 SOL is 1333.3 bps.
    let with_bps = |b: u32| btc_sol_in("0.1").with_floors(Floors::NONE.with_max_fee_share_bps(b));
    assert!(with_bps(2500).best(&market).is_ok());
    // The first leg refused: classified as a single pair's "no route",
    // naming the floor and its numbers (the fee against the gross output).
    let refused = with_bps(2499).best(&market).unwrap_err();
    let ChainNoRoute::FirstLeg(NoRoute::BelowFloors { floor, .. }) = &refused else {
        panic!("{refused:?}");
    };
    assert_eq!(
        **floor,
        RejectReason::FeeShareTooLarge {
            miner_fee: d("0.5"),
            gross_output: d("2"),
            max_bps: 2499
        }
    );
    assert_eq!(refused.code().as_str(), "INSUFFICIENT_LIQUIDITY");
    assert!(
        refused.to_string().contains("FEE_SHARE_TOO_LARGE"),
        "{refused}"
    );
    // 1334 bps would pass the last leg (2 × 10000 ≤ 1334 × 15) but not the
    // first, which needs 2500: still the first leg's refusal.
    assert!(matches!(refused, ChainNoRoute::FirstLeg(_)), "{refused:?}");
}

#[test]
fn exact_out_legs_are_held_at_their_required_inputs() {
    let responses = two_legs();
    let market = Market::new(
        responses.iter(),
        &swaproute::CampaignLimits::new(),
        EpochMillis::new(NOW),
    )
    .unwrap();
    let out = |to: &str, floors: Floors| {
        ChainRequest::exact_out(
            AssetId::new("BTC").unwrap(),
            AssetId::new("SOL").unwrap(),
            amount(to),
            EpochMillis::new(NOW),
        )
        .with_floors(floors)
    };
    // 13 SOL needs (13 + 2) / 10 = 1.5 ETH, which needs (1.5 + 0.5) / 20 = 0.1 BTC.
    let chain = out("13", Floors::NONE).best(&market).unwrap();
    assert_eq!(chain.required_input().unwrap().get(), d("0.1"));
    // The last leg yields 13 SOL at 1.5 ETH: a dust of 13 passes, 13.1 not.
    assert!(out("13", Floors::NONE.with_dust(amount("13")))
        .best(&market)
        .is_ok());
    let refused = out("13", Floors::NONE.with_dust(amount("13.1")))
        .best(&market)
        .unwrap_err();
    assert_eq!(refused.most_common(), Some("BELOW_DUST"));
    // Fee multiple 3.00000001 refuses the first leg (1.5 ETH < 1.500000005),
    // the leg ExactOut judges last: the reasons' counts name it.
    let refused = out("13", Floors::NONE.with_fee_multiple(amount("3.00000001")))
        .best(&market)
        .unwrap_err();
    let ChainNoRoute::FirstLeg(NoRoute::BelowFloors { floor, .. }) = &refused else {
        panic!("{refused:?}");
    };
    assert_eq!(
        **floor,
        RejectReason::FeeTooLarge {
            net_output: d("1.5"),
            miner_fee: d("0.5"),
            fee_multiple: d("3.00000001")
        }
    );
}
