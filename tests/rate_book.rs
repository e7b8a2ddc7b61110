#![allow(
    clippy::arithmetic_side_effects,
    clippy::cast_possible_wrap,
    clippy::type_complexity
)]
//! A `RateBook` answers exactly as the engine (issue 5): for random rate
//! sets (ties from small pools, sponsored variants with and without campaign
//! limits, expired and invalid rates, extreme decimals) and amounts (random,
//! exactly at a min or max, between ranges), `book.best(x, now)` equals
//! `RouteRequest::best` over the same rates: same rate, same net output,
//! same `NoRoute`. Queries before the build time and at or after the horizon
//! fall back and still agree.
//!
//! The worst case of a scan in multiplier order (the highest multipliers
//! refuse the amount) has its own property and a large deterministic book.
//!
//! Case counts follow `PROPTEST_CASES` (default 256 per property).

use proptest::prelude::*;
use swaproute::{
    Amount, CampaignId, CampaignLimits, Decimal, EpochMillis, PairId, Rate, RateBook, RateId,
    RateTerms, RouteRequest,
};

const NOW: u64 = 1_785_000_000_000;

fn dec(mantissa: u128, scale: u32) -> Decimal {
    Decimal::try_from_i128_with_scale(mantissa as i128, scale).unwrap()
}

fn number() -> impl Strategy<Value = Decimal> {
    prop_oneof![
        4 => (1u32..=17, 0u32..=20).prop_flat_map(|(digits, scale)| {
            (10u128.pow(digits - 1)..10u128.pow(digits)).prop_map(move |m| dec(m, scale))
        }),
        3 => prop::sample::select(vec![dec(0, 0), dec(1, 4), dec(2, 4), dec(331, 1), dec(3310, 2), dec(1, 0), dec(5, 1)]),
        1 => (0u128..(1 << 96), 0u32..=28).prop_map(|(m, s)| dec(m, s)),
    ]
}

fn limit() -> impl Strategy<Value = Decimal> {
    prop_oneof![
        3 => (0u128..100_000, 0u32..=4).prop_map(|(m, s)| dec(m, s)),
        1 => number(),
    ]
}

fn specs() -> impl Strategy<Value = Vec<(u8, Decimal, Decimal, Decimal, Decimal, u64, Option<u8>)>>
{
    prop::collection::vec(
        (
            0u8..30,
            number(),
            number(),
            limit(),
            limit(),
            prop_oneof![3 => Just(10_000u64), 1 => 0u64..20, 1 => Just(0u64)],
            prop::option::weighted(0.25, 0u8..3),
        ),
        0..20,
    )
}

fn build(specs: &[(u8, Decimal, Decimal, Decimal, Decimal, u64, Option<u8>)]) -> Vec<Rate> {
    let pair = PairId::new("BTC_ETH").unwrap();
    specs
        .iter()
        .enumerate()
        .map(|(i, &(id, multiplier, fee, a, b, life, sponsor))| {
            // Every seventh rate keeps min > max: invalid.
            let (min, max) = if i % 7 == 6 {
                (a.max(b), a.min(b))
            } else {
                (a.min(b), a.max(b))
            };
            let rate = Rate::new(
                RateId::new(&format!("r{id}")).unwrap(),
                pair.clone(),
                RateTerms {
                    multiplier,
                    miner_fee: fee,
                    min,
                    max,
                },
                EpochMillis::new(NOW + life),
            );
            match sponsor {
                Some(c) => rate.sponsored_by(CampaignId::new(&format!("c{c}")).unwrap()),
                None => rate,
            }
        })
        .collect()
}

proptest! {
    #[test]
    fn book_answers_as_the_engine(
        specs in specs(),
        amounts in prop::collection::vec(limit(), 1..6),
        picks in prop::collection::vec((any::<prop::sample::Index>(), any::<bool>()), 0..6),
        campaign_limit in prop::option::of(limit()),
        offsets in prop::collection::vec(prop_oneof![Just(0u64), 0u64..30], 1..4),
    ) {
        let rates = build(&specs);
        let mut campaigns = CampaignLimits::new();
        if let Some(limit) = campaign_limit {
            campaigns.insert(CampaignId::new("c0").unwrap(), Amount::new(limit).unwrap());
        }
        let book = RateBook::new(&rates, &campaigns, EpochMillis::new(NOW));
        // Amounts exactly at a rate's min or max, besides random ones.
        let mut xs = amounts;
        for (index, at_max) in picks {
            if !rates.is_empty() {
                let rate = &rates[index.index(rates.len())];
                xs.push(if at_max { rate.effective_max(&campaigns) } else { rate.min() });
            }
        }
        for x in xs {
            let Ok(x) = Amount::new(x) else { continue };
            for &offset in &offsets {
                for now in [NOW + offset, NOW.saturating_sub(offset)] {
                    let now = EpochMillis::new(now);
                    let engine = RouteRequest::exact_in(x, now).with_campaigns(&campaigns).best(&rates);
                    let ours = book.best(x, now);
                    prop_assert_eq!(&ours, &engine, "x = {}, now = {:?}", x, now);
                    if let (Ok(a), Ok(b)) = (&ours, &engine) {
                        prop_assert_eq!(a.net_output().to_string(), b.net_output().to_string());
                        prop_assert!(std::ptr::eq(a.rate(), b.rate()) || a.rate() == b.rate());
                    }
                }
            }
        }
        if let Some(horizon) = book.horizon() {
            prop_assert!(!book.is_valid_at(horizon));
            prop_assert!(rates.iter().filter(|r| r.defect().is_none() && !r.is_expired_at(EpochMillis::new(NOW))).all(|r| r.expiry() >= horizon));
        }
    }
}

/// The book's worst case for a scan in multiplier order: the highest
/// multipliers refuse the amount (above max or below min), only low ones
/// accept; with ties from small pools and sponsored variants.
fn adversarial_specs() -> impl Strategy<
    Value = (
        Vec<(u8, Decimal, Decimal, Decimal, Decimal, u64, Option<u8>)>,
        Decimal,
    ),
> {
    (
        prop::collection::vec(
            (
                0u8..30,
                prop_oneof![
                    3 => (1u128..2_000, 0u32..=3).prop_map(|(m, s)| dec(m, s)),
                    1 => number(),
                ],
                prop_oneof![3 => (0u128..50, 0u32..=4).prop_map(|(m, s)| dec(m, s)), 1 => number()],
                0u8..4,
                prop::option::weighted(0.2, 0u8..3),
            ),
            1..60,
        ),
        (1u128..10_000, 0u32..=3).prop_map(|(m, s)| dec(m, s)),
        0usize..5,
    )
        .prop_map(|(rows, x, keep)| {
            let mut order: Vec<usize> = (0..rows.len()).collect();
            order.sort_by_key(|&i| rows[i].1);
            let mut specs = Vec::new();
            for (rank, &i) in order.iter().enumerate() {
                let (id, multiplier, fee, shape, sponsor) = rows[i];
                // All but the `keep` lowest multipliers refuse x.
                let (min, max) = if rank < keep {
                    (Decimal::ZERO, x * Decimal::TWO)
                } else {
                    match shape {
                        0 => (x + Decimal::new(1, 8), x * Decimal::TEN + Decimal::ONE),
                        1 => (Decimal::ZERO, x - Decimal::new(1, 8).min(x)),
                        2 => (x, x), // accepts exactly x: keeps the envelope honest
                        _ => (x / Decimal::TWO, x + Decimal::ONE),
                    }
                };
                specs.push((
                    id,
                    multiplier,
                    fee,
                    min.max(Decimal::ZERO),
                    max.max(Decimal::ZERO),
                    10_000,
                    sponsor,
                ));
            }
            (specs, x)
        })
}

proptest! {
    #[test]
    fn book_answers_as_the_engine_in_its_worst_case(
        (specs, x) in adversarial_specs(),
        campaign_limit in prop::option::of(limit()),
        nudges in prop::collection::vec(prop_oneof![Just(0i64), -3i64..=3], 1..4),
    ) {
        let rates = build(&specs);
        let mut campaigns = CampaignLimits::new();
        if let Some(limit) = campaign_limit {
            campaigns.insert(CampaignId::new("c0").unwrap(), Amount::new(limit).unwrap());
        }
        let now = EpochMillis::new(NOW);
        let book = RateBook::new(&rates, &campaigns, now);
        for nudge in nudges {
            let Ok(x) = Amount::new(x + Decimal::new(nudge, 8)) else { continue };
            let engine = RouteRequest::exact_in(x, now).with_campaigns(&campaigns).best(&rates);
            let ours = book.best(x, now);
            prop_assert_eq!(&ours, &engine, "x = {}", x);
            if let (Ok(a), Ok(b)) = (&ours, &engine) {
                prop_assert_eq!(a.net_output().to_string(), b.net_output().to_string());
            }
        }
    }
}

#[test]
fn large_adversarial_book_agrees() {
    // 3000 rates; the higher the multiplier, the narrower the accepted range
    // around 1, so each amount is accepted by a different set of rates and the
    // highest multipliers refuse most amounts.
    let pair = PairId::new("BTC_ETH").unwrap();
    let mut rates = Vec::new();
    let mut seed = 11u64;
    let mut next = |n: u64| {
        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        (seed >> 33) % n
    };
    for i in 0..3000u64 {
        let multiplier = Decimal::new(i64::try_from(1_000_000 + next(1_000_000)).unwrap(), 6);
        let width = Decimal::new(i64::try_from(3_000_000 - multiplier.mantissa()).unwrap(), 6);
        let center = Decimal::new(i64::try_from(next(4000)).unwrap(), 3);
        let fee = Decimal::new(i64::try_from(next(50)).unwrap(), 4);
        let rate = Rate::new(
            RateId::new(&format!("r{}", next(2000))).unwrap(),
            pair.clone(),
            RateTerms {
                multiplier,
                miner_fee: fee,
                min: (center - width).max(Decimal::ZERO),
                max: center + width,
            },
            EpochMillis::new(NOW + 1000 + i),
        );
        rates.push(if i % 13 == 0 {
            rate.sponsored_by(CampaignId::new("c0").unwrap())
        } else {
            rate
        });
    }
    let now = EpochMillis::new(NOW);
    for campaigns in [CampaignLimits::new(), {
        let mut c = CampaignLimits::new();
        c.insert(
            CampaignId::new("c0").unwrap(),
            Amount::parse("1.5").unwrap(),
        );
        c
    }] {
        let book = RateBook::new(&rates, &campaigns, now);
        for k in 0..400 {
            let x = Amount::new(Decimal::new(k * 15 + 1, 3)).unwrap();
            assert_eq!(
                book.best(x, now),
                RouteRequest::exact_in(x, now)
                    .with_campaigns(&campaigns)
                    .best(&rates),
                "{x}"
            );
        }
    }
}

#[test]
fn large_book_agrees_and_ties_break_the_same_way() {
    let pair = PairId::new("BTC_ETH").unwrap();
    let d = |s: &str| s.parse::<Decimal>().unwrap();
    let mut rates = Vec::new();
    for i in 0..500u32 {
        // Four rates per multiplier: ties on net, fee, sponsorship and id order.
        let multiplier = Decimal::new(i64::from(33_000 + i / 4), 3);
        let fee = if i % 2 == 0 { d("0.0002") } else { d("0.0003") };
        let (min, max) = if i % 5 == 0 {
            (d("2"), d("3"))
        } else {
            (d("0.001"), d("8"))
        };
        rates.push(Rate::new(
            RateId::new(&format!("r{:03}", 999 - i)).unwrap(),
            pair.clone(),
            RateTerms {
                multiplier,
                miner_fee: fee,
                min,
                max,
            },
            EpochMillis::new(NOW + 1000 + u64::from(i)),
        ));
    }
    let book = RateBook::new(&rates, &CampaignLimits::new(), EpochMillis::new(NOW));
    assert_eq!(book.horizon(), Some(EpochMillis::new(NOW + 1000)));
    for x in [
        "0",
        "0.001",
        "0.5",
        "1",
        "2",
        "2.5",
        "3",
        "8",
        "8.00000001",
        "100",
    ] {
        let x = Amount::parse(x).unwrap();
        let now = EpochMillis::new(NOW);
        assert_eq!(
            book.best(x, now),
            RouteRequest::exact_in(x, now).best(&rates),
            "{x}"
        );
    }
}
