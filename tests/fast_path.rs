#![allow(
    clippy::arithmetic_side_effects,
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap
)]
//! The exact integer fast path ranks exactly as the plain `Decimal` path
//! (issue 5): every public ranking entry point (which scores with the fast
//! path and falls back to `Decimal` when it cannot prove exactness) against an
//! oracle that scores every rate exactly on big integers (rounded once, as the
//! engine reports nets `Decimal` cannot hold) and sorts by the documented key. Extreme decimals (mantissas up to 2^96 − 1, scales
//! up to 28, many-digit amounts) force the fallback, alone and mixed with
//! rates the fast path takes; small pools of numbers force ties.
//!
//! Case counts follow `PROPTEST_CASES` (default 256 per property).

use crate::common;
use common::{exact_net, exact_positive, exact_value};
use std::cmp::Ordering;

use proptest::prelude::*;
use swaproute::{
    Amount, CampaignId, CampaignLimits, Decimal, EpochMillis, PairId, Rate, RateId, RateTerms,
    RouteRequest,
};

const NOW: u64 = 1_785_000_000_000;
const MAX_MANTISSA: u128 = (1 << 96) - 1;

fn dec(mantissa: u128, scale: u32) -> Decimal {
    Decimal::try_from_i128_with_scale(mantissa as i128, scale).unwrap()
}

/// Realistic: 1-17 significant digits at scales 0-22.
fn realistic() -> impl Strategy<Value = Decimal> {
    (1u32..=17, 0u32..=22).prop_flat_map(|(digits, scale)| {
        (10u128.pow(digits - 1)..10u128.pow(digits)).prop_map(move |m| dec(m, scale))
    })
}

/// Anything a `Decimal` holds (non-negative).
fn extreme() -> impl Strategy<Value = Decimal> {
    prop_oneof![
        (0..=MAX_MANTISSA, 0u32..=28).prop_map(|(m, s)| dec(m, s)),
        (MAX_MANTISSA - 1000..=MAX_MANTISSA, 0u32..=28).prop_map(|(m, s)| dec(m, s)),
        (0u128..1000, 20u32..=28).prop_map(|(m, s)| dec(m, s)),
    ]
}

/// A small pool, so numbers repeat and ranks tie.
fn pooled() -> impl Strategy<Value = Decimal> {
    prop::sample::select(vec![
        dec(0, 0),
        dec(1, 4),
        dec(2, 4),
        dec(10, 5),
        dec(331, 1),
        dec(3310, 2),
        dec(1, 0),
        dec(5, 1),
    ])
}

fn number() -> impl Strategy<Value = Decimal> {
    prop_oneof![4 => realistic(), 2 => pooled(), 1 => extreme()]
}

fn amount() -> impl Strategy<Value = Decimal> {
    prop_oneof![
        4 => (1u128..100_000_000_000, 0u32..=8).prop_map(|(m, s)| dec(m, s)),
        2 => pooled(),
        1 => extreme(),
    ]
}

#[derive(Clone, Debug)]
struct Spec {
    id: u8,
    multiplier: Decimal,
    fee: Decimal,
    min: Decimal,
    max: Decimal,
    expired: bool,
    exact_out: bool,
    sponsor: Option<u8>,
}

fn spec() -> impl Strategy<Value = Spec> {
    (
        0u8..40,
        number(),
        number(),
        prop_oneof![3 => amount(), 1 => number()],
        prop_oneof![3 => amount(), 1 => number()],
        prop::bool::weighted(0.1),
        any::<bool>(),
        prop::option::weighted(0.3, 0u8..3),
    )
        .prop_map(
            |(id, multiplier, fee, a, b, expired, exact_out, sponsor)| Spec {
                id,
                multiplier,
                fee,
                min: a.min(b),
                max: a.max(b),
                expired,
                exact_out,
                sponsor,
            },
        )
}

fn build(specs: &[Spec]) -> Vec<Rate> {
    let pair = PairId::new("BTC_ETH").unwrap();
    specs
        .iter()
        .map(|s| {
            let rate = Rate::new(
                RateId::new(&format!("r{}", s.id)).unwrap(),
                pair.clone(),
                RateTerms {
                    multiplier: s.multiplier,
                    miner_fee: s.fee,
                    min: s.min,
                    max: s.max,
                },
                EpochMillis::new(if s.expired { NOW } else { NOW + 1 }),
            )
            .with_exact_out(s.exact_out);
            match s.sponsor {
                Some(c) => rate.sponsored_by(CampaignId::new(&format!("c{c}")).unwrap()),
                None => rate,
            }
        })
        .collect()
}

/// The plain path, written out: eligibility of ruling 5 in ExactIn, the
/// `Decimal` score, and the ranking key of rulings 6-7.
fn oracle<'r>(
    rates: &'r [Rate],
    x: Decimal,
    campaigns: &CampaignLimits,
) -> Vec<(&'r Rate, Decimal)> {
    oracle_at(rates, x, campaigns, NOW)
}

/// [`oracle`] at instant `now`.
fn oracle_at<'r>(
    rates: &'r [Rate],
    x: Decimal,
    campaigns: &CampaignLimits,
    now: u64,
) -> Vec<(&'r Rate, Decimal)> {
    let mut ranked: Vec<(&Rate, Decimal)> = rates
        .iter()
        .filter(|r| r.defect().is_none() && r.expiry().as_millis() > now)
        .filter(|r| r.min() <= x && x <= r.effective_max(campaigns))
        .filter_map(|r| Some((r, exact_net(x, r.multiplier(), r.miner_fee())?)))
        .filter(|(r, _)| exact_positive(x, r.multiplier(), r.miner_fee()))
        .collect();
    // Ruling 43: by the exact nets, not their reported floors.
    let exact = |r: &Rate| exact_value(x, r.multiplier(), r.miner_fee());
    ranked.sort_by(|(a, _), (b, _)| {
        exact(b)
            .cmp(&exact(a))
            .then_with(|| a.miner_fee().cmp(&b.miner_fee()))
            .then_with(|| a.is_sponsored().cmp(&b.is_sponsored()))
            .then_with(|| a.id().as_str().as_bytes().cmp(b.id().as_str().as_bytes()))
    });
    ranked
}

/// Ids and nets, the comparable part of a ranking (identical rates may swap).
fn key(rate: &Rate, net: Decimal) -> (String, Decimal, Decimal, bool) {
    (
        rate.id().as_str().to_owned(),
        net,
        rate.miner_fee(),
        rate.is_sponsored(),
    )
}

fn campaigns(limit: Decimal) -> CampaignLimits {
    let mut limits = CampaignLimits::new();
    limits.insert(CampaignId::new("c0").unwrap(), Amount::new(limit).unwrap());
    limits.insert(
        CampaignId::new("c1").unwrap(),
        Amount::new(limit / Decimal::TWO).unwrap(),
    );
    limits
}

proptest! {
    #[test]
    fn engine_ranks_as_the_plain_decimal_path(
        specs in prop::collection::vec(spec(), 0..24),
        x in amount(),
        limit in amount(),
        with_campaigns in any::<bool>(),
    ) {
        let rates = build(&specs);
        let limits = if with_campaigns { campaigns(limit) } else { CampaignLimits::new() };
        let request = RouteRequest::exact_in(Amount::new(x).unwrap(), EpochMillis::new(NOW))
            .with_campaigns(&limits);
        let expected: Vec<_> = oracle(&rates, x, &limits)
            .into_iter()
            .map(|(r, n)| key(r, n))
            .collect();

        let selection = request.select(&rates);
        let got: Vec<_> = selection.routes().iter().map(|r| key(r.rate(), r.net_output())).collect();
        prop_assert_eq!(&got, &expected);
        // The reported net output is the exact one or its floor; where plain
        // `Decimal` arithmetic is exact too, it is that value, scale included.
        for route in selection.routes() {
            let (m, fee) = (route.rate().multiplier(), route.rate().miner_fee());
            let exact = exact_net(x, m, fee).unwrap();
            prop_assert_eq!(route.net_output(), exact);
            // `x × m` can overflow a `Decimal` where the net output does not
            // (a fee near `Decimal::MAX`): then there is no plain value.
            let plain = x.checked_mul(m).and_then(|p| p.checked_sub(fee));
            if plain == Some(exact) {
                prop_assert_eq!(route.net_output().to_string(), exact.to_string());
            }
        }

        match request.best(&rates) {
            Ok(best) => {
                prop_assert_eq!(Some(&key(best.rate(), best.net_output())), expected.first());
                prop_assert_eq!(Some(&best), selection.best());
            }
            Err(no_route) => {
                prop_assert!(expected.is_empty());
                prop_assert_eq!(Some(&no_route), selection.no_route());
            }
        }
        let top = request.top(&rates, 3);
        let top_n = request.top_n::<3>(&rates);
        match (top, top_n) {
            (Ok(top), Ok(top_n)) => {
                let got: Vec<_> = top.iter().map(|r| key(r.rate(), r.net_output())).collect();
                prop_assert_eq!(&got[..], &expected[..expected.len().min(3)]);
                prop_assert_eq!(top_n.iter().copied().collect::<Vec<_>>(), top);
            }
            (Err(a), Err(b)) => {
                prop_assert_eq!(a, b);
                prop_assert!(expected.is_empty());
            }
            (a, b) => prop_assert!(false, "top {:?} vs top_n {:?}", a, b),
        }
    }

    /// Many-digit amounts against many-digit multipliers: `Decimal` rounds
    /// the product, so the fast path must step aside, and the ranking must
    /// follow the rounded values exactly as the plain path does.
    #[test]
    fn rounding_products_fall_back(
        multipliers in prop::collection::vec((10u128.pow(16)..10u128.pow(17), 0u32..=16), 1..12),
        x_mantissa in 10u128.pow(14)..10u128.pow(15),
        x_scale in 10u32..=14,
    ) {
        let x = dec(x_mantissa, x_scale);
        let specs: Vec<Spec> = multipliers.iter().enumerate().map(|(i, &(m, s))| Spec {
            id: i as u8,
            multiplier: dec(m, s),
            fee: dec(1, 28),
            min: Decimal::ZERO,
            max: dec(MAX_MANTISSA, 0),
            expired: false,
            exact_out: true,
            sponsor: None,
        }).collect();
        let rates = build(&specs);
        let limits = CampaignLimits::new();
        let request = RouteRequest::exact_in(Amount::new(x).unwrap(), EpochMillis::new(NOW));
        let expected: Vec<_> = oracle(&rates, x, &limits).into_iter().map(|(r, n)| key(r, n)).collect();
        let got: Vec<_> = request.select(&rates).routes().iter().map(|r| key(r.rate(), r.net_output())).collect();
        prop_assert_eq!(&got, &expected);
        let best = request.best(&rates).ok().map(|b| key(b.rate(), b.net_output()));
        prop_assert_eq!(best.as_ref(), expected.first());
    }
}

#[test]
fn ties_on_net_go_to_the_lower_fee_then_base_then_id() {
    // 0.5 × 4 − 1 = 1 = 0.5 × 3 − 0.5 = 0.5 × 2.2 − 0.1
    let specs = [
        ("4", "1", None),
        ("3", "0.5", Some(0)),
        ("3", "0.5", None),
        ("2.2", "0.1", None),
    ];
    let specs: Vec<Spec> = specs
        .iter()
        .enumerate()
        .map(|(i, &(m, f, sponsor))| Spec {
            id: 9 - i as u8,
            multiplier: m.parse().unwrap(),
            fee: f.parse().unwrap(),
            min: Decimal::ZERO,
            max: Decimal::TEN,
            expired: false,
            exact_out: false,
            sponsor,
        })
        .collect();
    let rates = build(&specs);
    let request = RouteRequest::exact_in(Amount::parse("0.5").unwrap(), EpochMillis::new(NOW));
    let ids: Vec<&str> = request
        .select(&rates)
        .routes()
        .iter()
        .map(|r| r.rate().id().as_str())
        .collect();
    assert_eq!(ids, ["r6", "r7", "r8", "r9"]);
    assert_eq!(request.best(&rates).unwrap().rate().id().as_str(), "r6");
    assert_eq!(Ordering::Less, "r6".cmp("r7"));
}

#[test]
fn expiries_past_the_packed_range_take_the_plain_path() {
    // The prepared block packs expiries below 2^48 ms; later ones (and the
    // instants near them) must still be judged exactly.
    let pair = PairId::new("BTC_ETH").unwrap();
    let far = [1u64 << 48, (1 << 48) + 5, u64::MAX - 1, u64::MAX];
    let rates: Vec<Rate> = far
        .iter()
        .enumerate()
        .map(|(i, &expiry)| {
            Rate::new(
                RateId::new(&format!("far{i}")).unwrap(),
                pair.clone(),
                RateTerms {
                    multiplier: dec(331 + i as u128, 1),
                    miner_fee: dec(2, 4),
                    min: dec(1, 3),
                    max: dec(8, 0),
                },
                EpochMillis::new(expiry),
            )
        })
        .collect();
    let x = dec(5, 1);
    let none = CampaignLimits::new();
    for now in [
        NOW,
        (1 << 48) - 1,
        1 << 48,
        (1 << 48) + 4,
        (1 << 48) + 5,
        u64::MAX - 1,
    ] {
        let request = RouteRequest::exact_in(Amount::new(x).unwrap(), EpochMillis::new(now));
        let want: Vec<_> = oracle_at(&rates, x, &none, now)
            .into_iter()
            .map(|(r, net)| key(r, net))
            .collect();
        let got: Vec<_> = request
            .select(&rates)
            .routes()
            .iter()
            .map(|r| key(r.rate(), r.net_output()))
            .collect();
        assert_eq!(got, want, "now = {now}");
        let best = request
            .best(&rates)
            .ok()
            .map(|b| key(b.rate(), b.net_output()));
        assert_eq!(best.as_ref(), want.first(), "now = {now}");
    }
}

#[test]
fn reported_net_outputs_keep_the_plain_path_scale() {
    // Zero fees at every scale, and fees of every scale against products of
    // every scale: the reported `Decimal` is the plain path's, digit for digit.
    let pair = PairId::new("BTC_ETH").unwrap();
    let fees = [
        dec(0, 0),
        dec(0, 1),
        dec(0, 8),
        dec(0, 28),
        dec(2, 4),
        dec(20, 5),
        dec(1, 0),
    ];
    let multipliers = [
        dec(1, 0),
        dec(10, 1),
        dec(331, 1),
        dec(3310, 2),
        dec(123_456_789, 12),
    ];
    let mut rates = Vec::new();
    for (i, &fee) in fees.iter().enumerate() {
        for (j, &multiplier) in multipliers.iter().enumerate() {
            rates.push(Rate::new(
                RateId::new(&format!("r{i}-{j}")).unwrap(),
                pair.clone(),
                RateTerms {
                    multiplier,
                    miner_fee: fee,
                    min: dec(0, 0),
                    max: dec(100, 0),
                },
                EpochMillis::new(NOW + 1),
            ));
        }
    }
    let none = CampaignLimits::new();
    for x in [dec(1, 0), dec(10, 1), dec(5, 1), dec(12_345, 4), dec(2, 0)] {
        let request = RouteRequest::exact_in(Amount::new(x).unwrap(), EpochMillis::new(NOW));
        let plain: Vec<String> = oracle(&rates, x, &none)
            .into_iter()
            .map(|(r, net)| format!("{} {net}", r.id()))
            .collect();
        let got: Vec<String> = request
            .select(&rates)
            .routes()
            .iter()
            .map(|r| format!("{} {}", r.rate().id(), r.net_output()))
            .collect();
        assert_eq!(got, plain, "x = {x}");
        let best = request.best(&rates).unwrap();
        assert_eq!(
            format!("{} {}", best.rate().id(), best.net_output()),
            plain[0]
        );
    }
}
