#![allow(
    clippy::arithmetic_side_effects,
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap
)]
//! The compact ranking layout (issue 35): a [`RatesResponse`] keeps 40-byte
//! integer records beside its rates and ranks from those, reading a full
//! rate only when it wins or its record cannot decide. No answer may change:
//! every ranking entry point on a response gives what the same call gives on
//! the same rates as a plain slice (which scores from the full records), and
//! the best route is the one an independent oracle (exact `Decimal`
//! arithmetic on big integers, `tests/common`) puts first.
//!
//! The limits are drawn at the amount and a few units of its last place
//! away (down to 10^-28), so the records' 62-bit-shifted limits tie with
//! the amount and the full record must decide; expiries at and next to
//! `now`; ExactOut, sponsored variants and campaigns; fees and multipliers
//! too wide for the record (mantissas past 2^64) beside realistic ones.
//!
//! Case counts follow `PROPTEST_CASES` (default 256 per property).

use crate::common;
use common::exact_net;

use proptest::prelude::*;
use swaproute::route::RouteRequest;
use swaproute::{
    Amount, CampaignId, CampaignLimits, Decimal, EpochMillis, PairId, Rate, RateId, RateTerms,
    RatesResponse,
};

const NOW: u64 = 1_785_000_000_000;

fn dec(mantissa: u128, scale: u32) -> Decimal {
    Decimal::try_from_i128_with_scale(mantissa as i128, scale).unwrap()
}

/// Realistic numbers, a few with mantissas past 2^64 (no record decides
/// those), and zero.
fn number() -> impl Strategy<Value = Decimal> {
    prop_oneof![
        6 => (1u32..=17, 0u32..=22).prop_flat_map(|(digits, scale)| {
            (10u128.pow(digits - 1)..10u128.pow(digits)).prop_map(move |m| dec(m, scale))
        }),
        1 => ((1u128 << 64)..(1u128 << 96), 0u32..=28).prop_map(|(m, s)| dec(m, s)),
        1 => Just(Decimal::ZERO),
    ]
}

/// An amount: up to 11 digits at scales 0-8, or a few extreme ones.
fn amount() -> impl Strategy<Value = Decimal> {
    prop_oneof![
        6 => (1u128..100_000_000_000, 0u32..=8).prop_map(|(m, s)| dec(m, s)),
        1 => ((1u128 << 64)..(1u128 << 96), 0u32..=28).prop_map(|(m, s)| dec(m, s)),
    ]
}

/// A limit relative to the amount `x`: `x` itself, `x` moved by `k` units
/// of `10^-scale` (ties of the records' high words), or a free number.
#[derive(Clone, Copy, Debug)]
enum Limit {
    AtAmount,
    Near { units: i64, scale: u32 },
    Free(Decimal),
}

fn limit() -> impl Strategy<Value = Limit> {
    prop_oneof![
        2 => Just(Limit::AtAmount),
        3 => (-3i64..=3, 8u32..=28).prop_map(|(units, scale)| Limit::Near { units, scale }),
        3 => number().prop_map(Limit::Free),
    ]
}

fn resolve(limit: Limit, x: Decimal) -> Decimal {
    match limit {
        Limit::AtAmount => x,
        Limit::Near { units, scale } => x
            .checked_add(Decimal::new(units, scale))
            .filter(|d| *d >= Decimal::ZERO)
            .unwrap_or(x),
        Limit::Free(d) => d,
    }
}

#[derive(Clone, Debug)]
struct Spec {
    multiplier: Decimal,
    fee: Decimal,
    min: Limit,
    max: Limit,
    /// Expiry: now − 1, now, now + 1 or far.
    expiry: u8,
    exact_out: bool,
    sponsor: Option<u8>,
}

fn spec() -> impl Strategy<Value = Spec> {
    (
        number(),
        prop_oneof![3 => number(), 1 => Just(Decimal::ZERO)],
        limit(),
        limit(),
        0u8..4,
        prop::bool::weighted(0.8),
        prop::option::weighted(0.2, 0u8..2),
    )
        .prop_map(
            |(multiplier, fee, min, max, expiry, exact_out, sponsor)| Spec {
                multiplier,
                fee,
                min,
                max,
                expiry,
                exact_out,
                sponsor,
            },
        )
}

/// Unique ids `r0`, `r1`, …: a response refuses repeated ones.
fn build(specs: &[Spec], x: Decimal) -> Vec<Rate> {
    let pair = PairId::new("BTC_ETH").unwrap();
    specs
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let (a, b) = (resolve(s.min, x), resolve(s.max, x));
            let expiry = match s.expiry {
                0 => NOW - 1,
                1 => NOW,
                2 => NOW + 1,
                _ => 4_102_444_800_000,
            };
            let rate = Rate::new(
                RateId::new(&format!("r{i}")).unwrap(),
                pair.clone(),
                RateTerms {
                    multiplier: s.multiplier,
                    miner_fee: s.fee,
                    min: a.min(b),
                    max: a.max(b),
                },
                EpochMillis::new(expiry),
            )
            .with_exact_out(s.exact_out);
            match s.sponsor {
                Some(c) => rate.sponsored_by(CampaignId::new(&format!("c{c}")).unwrap()),
                None => rate,
            }
        })
        .collect()
}

/// The best ExactIn net output by the rules, written out on the public
/// accessors: valid, not expired, `min <= x <= effective max`, the exact
/// net output positive; the largest.
fn oracle_best(rates: &[Rate], x: Decimal, campaigns: &CampaignLimits) -> Option<Decimal> {
    rates
        .iter()
        .filter(|r| r.defect().is_none() && r.expiry().as_millis() > NOW)
        .filter(|r| r.min() <= x && x <= r.effective_max(campaigns))
        .filter_map(|r| exact_net(x, r.multiplier(), r.miner_fee()))
        .filter(|net| *net > Decimal::ZERO)
        .max()
}

fn campaigns(limit: Decimal) -> CampaignLimits {
    let mut limits = CampaignLimits::new();
    limits.insert(CampaignId::new("c0").unwrap(), Amount::new(limit).unwrap());
    limits
}

/// Every entry point on the response against the same call on the slice.
fn agree(request: &RouteRequest<'_>, response: &RatesResponse) -> Result<(), TestCaseError> {
    let slice = response.rates();
    prop_assert_eq!(request.best(response), request.best(slice));
    prop_assert_eq!(request.top(response, 3), request.top(slice, 3));
    prop_assert_eq!(request.top(response, 0), request.top(slice, 0));
    prop_assert_eq!(request.top(response, 12), request.top(slice, 12));
    let (a, b) = (request.top_n::<2>(response), request.top_n::<2>(slice));
    match (a, b) {
        (Ok(a), Ok(b)) => prop_assert_eq!(
            a.iter().copied().collect::<Vec<_>>(),
            b.iter().copied().collect::<Vec<_>>()
        ),
        (Err(a), Err(b)) => prop_assert_eq!(a, b),
        (a, b) => prop_assert!(false, "top_n {:?} vs {:?}", a.is_ok(), b.is_ok()),
    }
    Ok(())
}

proptest! {
    #[test]
    fn a_response_ranks_as_its_rates_do(
        specs in prop::collection::vec(spec(), 0..20),
        x in amount(),
        limit in amount(),
        with_campaigns in any::<bool>(),
    ) {
        let rates = build(&specs, x);
        let response = RatesResponse::try_from(rates.clone()).unwrap();
        let limits = if with_campaigns { campaigns(limit) } else { CampaignLimits::new() };
        let now = EpochMillis::new(NOW);
        let exact_in = RouteRequest::exact_in(Amount::new(x).unwrap(), now).with_campaigns(&limits);
        agree(&exact_in, &response)?;
        prop_assert_eq!(
            exact_in.best(&response).ok().map(|r| r.net_output()),
            oracle_best(&rates, x, &limits)
        );
        // ExactOut at the same estimate, for a few exact outputs.
        for to in [Decimal::ONE, x, dec(123_456_789, 4)] {
            let Ok(to) = Amount::new(to) else { continue };
            let exact_out = RouteRequest::exact_out(Amount::new(x).unwrap(), to, now)
                .with_campaigns(&limits);
            agree(&exact_out, &response)?;
        }
        // A decoded response keeps the same records as a built one.
        let decoded: RatesResponse =
            serde_json::from_str(&serde_json::to_string(&response).unwrap()).unwrap();
        if decoded == response {
            agree(&exact_in, &decoded)?;
            prop_assert_eq!(exact_in.best(&decoded), exact_in.best(&response));
        }
    }
}

/// The high words tie and the full record decides: min exactly at the
/// amount (inclusive, ruling 5) and min one unit of 10^-28 above it (out),
/// max likewise. Worked by hand: at x = 1, the route through `at-min` pays
/// 1 × 2 − 0 = 2, the others are below min or above max.
#[test]
fn limits_one_unit_from_the_amount_are_decided_exactly() {
    let pair = PairId::new("BTC_ETH").unwrap();
    let tiny = Decimal::new(1, 28);
    let rate = |id: &str, m: i64, min: Decimal, max: Decimal| {
        Rate::new(
            RateId::new(id).unwrap(),
            pair.clone(),
            RateTerms {
                multiplier: Decimal::from(m),
                miner_fee: Decimal::ZERO,
                min,
                max,
            },
            EpochMillis::new(4_102_444_800_000),
        )
    };
    let one = Decimal::ONE;
    let response = RatesResponse::try_from(vec![
        rate("above-min", 9, one + tiny, Decimal::TEN),
        rate("below-max", 8, Decimal::ZERO, one - tiny),
        rate("at-min", 2, one, Decimal::TEN),
        rate("at-max", 1, Decimal::ZERO, one),
    ])
    .unwrap();
    let request = RouteRequest::exact_in(Amount::new(one).unwrap(), EpochMillis::new(NOW));
    let top = request.top(&response, 4).unwrap();
    let got: Vec<(&str, Decimal)> = top
        .iter()
        .map(|r| (r.rate().id().as_str(), r.net_output()))
        .collect();
    assert_eq!(got, [("at-min", Decimal::TWO), ("at-max", one)]);
}
