//! Exact splits (ruling 39) on structured input (up to 6 rates on a small
//! 8-place grid), checked against the brute-force big-integer oracle of
//! tests/common/split_oracle.rs (every subset of at most 3 rates, every
//! division of the amount):
//!
//! - the same answer: single route or split, the same rates, every leg's
//!   amount, the same value;
//! - the legs sum exactly to the amount, each leg eligible at its own amount;
//! - a split asked for a gain is worth more than the best single route;
//! - the same answer for the rates in reverse order, and through the
//!   dominance pass (the first walk given no work);
//! - the single route whenever every rate takes the whole amount and no
//!   gain is asked.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;

#[path = "../../tests/common/mod.rs"]
mod common;
use common::split_oracle::{eligible, oracle, Oracle, R};
use num_bigint::BigInt;
use swaproute::decimal::{Amount, Decimal};
use swaproute::rate::Rate;
use swaproute::route::{Floors, RouteRequest, SplitAnswer, SplitError, SplitLegs, SplitPolicy};
use swaproute::{CampaignId, EpochMillis, PairId, RateId, RateTerms, RatesResponse};

const NOW: u64 = 1_785_000_000_000;

#[derive(Arbitrary, Debug)]
struct FuzzRate {
    m: u16,
    fee: u8,
    min: u8,
    span: u8,
    campaign: Option<bool>,
    expired: bool,
}

#[derive(Arbitrary, Debug)]
struct Input {
    rates: Vec<FuzzRate>,
    total: u8,
    three: bool,
    cost: u8,
    gain: Option<u16>,
    dust: Option<u8>,
}

fn rates_of(input: &Input) -> Vec<R> {
    input
        .rates
        .iter()
        .take(6)
        .enumerate()
        .map(|(i, r)| R {
            id: format!("r{i}"),
            // 10^4 to 3.3 × 10^5 (at 10^-2), the oracle's scale.
            m: 1_000_000 + i64::from(r.m) * 500,
            fee: i64::from(r.fee % 8),
            min: i64::from(r.min % 10),
            max: i64::from(r.min % 10) + i64::from(r.span % 24),
            campaign: r.campaign.map(u8::from),
            expired: r.expired,
        })
        .collect()
}

fn build(rates: &[R]) -> RatesResponse {
    let list: Vec<Rate> = rates
        .iter()
        .map(|r| {
            let rate = Rate::new(
                RateId::new(&r.id).unwrap(),
                PairId::new("BTC_ETH").unwrap(),
                RateTerms {
                    multiplier: Decimal::new(r.m, 2),
                    miner_fee: Decimal::new(r.fee, 2),
                    min: Decimal::new(r.min, 8),
                    max: Decimal::new(r.max, 8),
                },
                EpochMillis::new(if r.expired { NOW - 1 } else { NOW + 1_000_000 }),
            );
            match r.campaign {
                Some(c) => rate.sponsored_by(CampaignId::new(&format!("c{c}")).unwrap()),
                None => rate,
            }
        })
        .collect();
    RatesResponse::try_from(list).unwrap()
}

fn engine(
    rates: &RatesResponse,
    total: i64,
    legs: usize,
    cost: i64,
    gain: Option<u32>,
    dust: Option<i64>,
    through_dominance: bool,
) -> Oracle {
    let mut request = RouteRequest::exact_in(
        Amount::new(Decimal::new(total, 8)).unwrap(),
        EpochMillis::new(NOW),
    );
    if let Some(dust) = dust {
        request = request
            .with_floors(Floors::NONE.with_dust(Amount::new(Decimal::new(dust, 2)).unwrap()));
    }
    let mut policy = SplitPolicy::DEFAULT
        .with_legs(SplitLegs::try_from(legs as u64).unwrap())
        .with_per_order_cost(Amount::new(Decimal::new(cost, 2)).unwrap());
    if let Some(bps) = gain {
        policy = policy.with_min_gain_bps(bps);
    }
    if through_dominance {
        // The first walk given no work: the dominance pass always runs.
        policy = policy.with_first_work_limit(0);
    }
    match request.split(rates, &policy) {
        Err(SplitError::NoRoute(_)) => Oracle::None,
        Err(e) => panic!("unexpected {e:?}"),
        Ok(SplitAnswer::Single(route)) => Oracle::Single(route.rate().id().as_str().to_owned()),
        Ok(SplitAnswer::Split(split)) => {
            let legs = split
                .legs()
                .iter()
                .map(|l| {
                    assert_eq!(l.from_amount().scale(), 8);
                    (
                        l.rate().id().as_str().to_owned(),
                        i64::try_from(l.from_amount().mantissa()).unwrap(),
                    )
                })
                .collect();
            let value = split.value() * Decimal::new(10_000_000_000, 0);
            assert!(value.fract().is_zero());
            let value = BigInt::from(value.mantissa() / 10i128.pow(value.scale()));
            Oracle::Split { value, legs }
        }
    }
}

fuzz_target!(|input: Input| {
    let rates = rates_of(&input);
    let total = 2 + i64::from(input.total % 24);
    let legs = if input.three { 3 } else { 2 };
    let cost = i64::from(input.cost % 4) * 25;
    let gain = input.gain.map(|g| u32::from(g % 6000));
    let dust = input.dust.map(|d| 1 + i64::from(d % 40));
    let built = build(&rates);
    let got = engine(&built, total, legs, cost, gain, dust, false);
    assert_eq!(engine(&built, total, legs, cost, gain, dust, true), got);
    assert_eq!(
        got,
        oracle(&rates, total, legs, cost, gain, dust),
        "{input:?}"
    );
    if let Oracle::Split { legs: got_legs, .. } = &got {
        assert_eq!(got_legs.iter().map(|l| l.1).sum::<i64>(), total);
        for (id, x) in got_legs {
            let r = rates.iter().find(|r| &r.id == id).unwrap();
            assert!(eligible(r, *x, dust));
        }
    }
    let reversed: Vec<R> = rates.iter().rev().cloned().collect();
    assert_eq!(
        engine(&build(&reversed), total, legs, cost, gain, dust, false),
        got
    );
    if gain.is_none() && !rates.is_empty() && rates.iter().all(|r| eligible(r, total, dust)) {
        assert!(matches!(got, Oracle::Single(_)));
    }
});
