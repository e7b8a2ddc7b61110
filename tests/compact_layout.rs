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
use common::{exact_net, exact_positive, exact_value};

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
        .filter(|r| exact_net(x, r.multiplier(), r.miner_fee()).is_some())
        .filter(|r| exact_positive(x, r.multiplier(), r.miner_fee()))
        // Ruling 43: the largest exact net, reported as its floor.
        .max_by_key(|r| exact_value(x, r.multiplier(), r.miner_fee()))
        .and_then(|r| exact_net(x, r.multiplier(), r.miner_fee()))
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

/// One rate of a tie-heavy response: few distinct values, so that rates
/// tie at the best key often, some of them spelled so that their record
/// cannot decide them or so that only the plain path can.
#[derive(Clone, Debug)]
struct TieSpec {
    /// Index into [`TIE_MULTIPLIERS`].
    multiplier: usize,
    /// Index into [`TIE_FEES`].
    fee: usize,
    /// 0: wide limits; 1: min at the amount (the record's high words tie,
    /// the full record decides); 2: max at the amount; 3: min above it.
    limits: u8,
    /// Expiry: 0 far, 1 at `now` (expired), 2 just after.
    expiry: u8,
    exact_out: bool,
    sponsor: Option<u8>,
    /// The id's first letter: ids sort apart from positions.
    letter: u8,
}

/// Multipliers as `(mantissa, scale)`: 2 three ways (one mantissa past
/// 2^64: no fast form, the plain path ranks it), 1.5, 3, 1.
const TIE_MULTIPLIERS: [(u128, u32); 6] = [
    (2, 0),
    (200, 2),
    (2_000_000_000_000_000_000_000_000_000, 27),
    (15, 1),
    (3, 0),
    (1, 0),
];

/// Fees as `(mantissa, scale)`: 0, 0.5 two ways (one mantissa past 2^64:
/// the record cannot decide, the full record keys it), 1, 1.5.
const TIE_FEES: [(u128, u32); 5] = [
    (0, 0),
    (5, 1),
    (5_000_000_000_000_000_000_000_000_000, 28),
    (1, 0),
    (15, 1),
];

fn tie_spec() -> impl Strategy<Value = TieSpec> {
    (
        0..TIE_MULTIPLIERS.len(),
        0..TIE_FEES.len(),
        prop_oneof![4 => Just(0u8), 1 => Just(1u8), 1 => Just(2u8), 1 => Just(3u8)],
        prop_oneof![6 => Just(0u8), 1 => Just(1u8), 1 => Just(2u8)],
        prop::bool::weighted(0.8),
        prop::option::weighted(0.25, 0u8..2),
        0u8..3,
    )
        .prop_map(
            |(multiplier, fee, limits, expiry, exact_out, sponsor, letter)| TieSpec {
                multiplier,
                fee,
                limits,
                expiry,
                exact_out,
                sponsor,
                letter,
            },
        )
}

fn build_ties(specs: &[TieSpec], x: Decimal) -> Vec<Rate> {
    let pair = PairId::new("BTC_ETH").unwrap();
    let pick = |table: &[(u128, u32)], i: usize| {
        let (m, s) = table[i % table.len()];
        dec(m, s)
    };
    specs
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let (min, max) = match s.limits {
                0 => (Decimal::ZERO, Decimal::from(1000)),
                1 => (x, Decimal::from(1000)),
                2 => (Decimal::ZERO, x),
                _ => (x + Decimal::new(1, 28).max(x), Decimal::from(2000)),
            };
            let expiry = match s.expiry {
                0 => 4_102_444_800_000,
                1 => NOW,
                _ => NOW + 1,
            };
            let letter = char::from(b'a' + s.letter);
            let rate = Rate::new(
                RateId::new(&format!("{letter}{i}")).unwrap(),
                pair.clone(),
                RateTerms {
                    multiplier: pick(&TIE_MULTIPLIERS, s.multiplier),
                    miner_fee: pick(&TIE_FEES, s.fee),
                    min,
                    max,
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

/// The best ExactIn rate by rulings 5-7, written out: eligible as in
/// [`oracle_best`], then the highest exact net output, the lower fee, a
/// base rate before a sponsored variant, the smaller id by bytes.
fn oracle_best_id(rates: &[Rate], x: Decimal, campaigns: &CampaignLimits) -> Option<String> {
    rates
        .iter()
        .filter(|r| r.defect().is_none() && r.expiry().as_millis() > NOW)
        .filter(|r| r.min() <= x && x <= r.effective_max(campaigns))
        .filter(|r| exact_net(x, r.multiplier(), r.miner_fee()).is_some())
        .filter(|r| exact_positive(x, r.multiplier(), r.miner_fee()))
        // Ruling 43: by the exact nets.
        .map(|r| (exact_value(x, r.multiplier(), r.miner_fee()), r))
        .min_by(|(na, a), (nb, b)| {
            nb.cmp(na)
                .then(a.miner_fee().cmp(&b.miner_fee()))
                .then(a.is_sponsored().cmp(&b.is_sponsored()))
                .then(a.id().as_str().as_bytes().cmp(b.id().as_str().as_bytes()))
        })
        .map(|(_, r)| r.id().as_str().to_owned())
}

proptest! {
    /// The best-route kernel on tie-heavy responses: ties at the best key
    /// (within the records, and against records that cannot decide or
    /// rates only the plain path ranks), FULL records anywhere, expired
    /// rates, sponsored variants with and without campaigns, limits whose
    /// high words tie with the amount, ExactIn and ExactOut. The response
    /// (the kernel) answers as the slice (the scan over the full records)
    /// and, in ExactIn, picks the rate the oracle picks.
    #[test]
    fn the_kernel_breaks_ties_as_the_rules_do(
        specs in prop::collection::vec(tie_spec(), 0..24),
        x in prop_oneof![Just(Decimal::ONE), Just(Decimal::TWO), Just(dec(5, 1))],
        limit in prop_oneof![Just(Decimal::ZERO), Just(Decimal::TEN)],
        with_campaigns in any::<bool>(),
    ) {
        let rates = build_ties(&specs, x);
        let response = RatesResponse::try_from(rates.clone()).unwrap();
        let limits = if with_campaigns { campaigns(limit) } else { CampaignLimits::new() };
        let now = EpochMillis::new(NOW);
        let exact_in = RouteRequest::exact_in(Amount::new(x).unwrap(), now).with_campaigns(&limits);
        agree(&exact_in, &response)?;
        prop_assert_eq!(
            exact_in.best(&response).ok().map(|r| r.rate().id().as_str().to_owned()),
            oracle_best_id(&rates, x, &limits)
        );
        for to in [Decimal::ONE, dec(25, 1)] {
            let exact_out = RouteRequest::exact_out(Amount::new(x).unwrap(), Amount::new(to).unwrap(), now)
                .with_campaigns(&limits);
            agree(&exact_out, &response)?;
        }
    }
}

/// Worked by hand: at x = 1 every rate below pays 2 (2 × 1 − 0, 2.00 × 1 −
/// 0, 3 × 1 − 1, 2.5 × 1 − 0.5 spelled at scale 28), the tie goes to the
/// lower fee (0), then the base rate, then the smaller id: "b2", though
/// "c0" comes first and "a1" (sponsored) has the smaller id.
#[test]
fn a_tie_at_the_best_key_goes_by_fee_then_base_then_id() {
    let pair = PairId::new("BTC_ETH").unwrap();
    let rate = |id: &str, m: Decimal, fee: Decimal| {
        Rate::new(
            RateId::new(id).unwrap(),
            pair.clone(),
            RateTerms {
                multiplier: m,
                miner_fee: fee,
                min: Decimal::ZERO,
                max: Decimal::TEN,
            },
            EpochMillis::new(4_102_444_800_000),
        )
    };
    let response = RatesResponse::try_from(vec![
        rate("c0", Decimal::TWO, Decimal::ZERO),
        rate("a1", Decimal::TWO, Decimal::ZERO).sponsored_by(CampaignId::new("k").unwrap()),
        rate("d3", Decimal::from(3), Decimal::ONE),
        rate("b2", dec(200, 2), Decimal::ZERO),
        rate(
            "a4",
            dec(25, 1),
            dec(5_000_000_000_000_000_000_000_000_000, 28),
        ),
    ])
    .unwrap();
    let request = RouteRequest::exact_in(Amount::new(Decimal::ONE).unwrap(), EpochMillis::new(NOW));
    let best = request.best(&response).unwrap();
    assert_eq!(best.rate().id().as_str(), "b2");
    assert_eq!(best.net_output(), Decimal::TWO);
    assert_eq!(request.best(response.rates()), Ok(best));
}

/// Rates whose product has more than 28 places (the amount's scale 19 plus
/// the multiplier's 10) need the plain path, which rounds; the kernel skips
/// the one whose `x × M` is below the held key and ranks the other by the
/// plain path. At x = 1.0000000000000000001: `keyed` pays 3 exactly;
/// `low` pays about 2.12 (skipped); `high` pays 3.12345678910000000003… ,
/// rounded once to 28 places, and wins.
#[test]
fn a_product_past_scale_28_is_skipped_below_the_held_key_and_ranked_above_it() {
    let pair = PairId::new("BTC_ETH").unwrap();
    let rate = |id: &str, m: Decimal| {
        Rate::new(
            RateId::new(id).unwrap(),
            pair.clone(),
            RateTerms {
                multiplier: m,
                miner_fee: Decimal::ZERO,
                min: Decimal::ZERO,
                max: Decimal::TEN,
            },
            EpochMillis::new(4_102_444_800_000),
        )
    };
    let x = dec(10_000_000_000_000_000_001, 19);
    let (low, high) = (dec(21_234_567_891, 10), dec(31_234_567_891, 10));
    let response = RatesResponse::try_from(vec![
        rate("keyed", Decimal::from(3)),
        rate("low", low),
        rate("high", high),
    ])
    .unwrap();
    let request = RouteRequest::exact_in(Amount::new(x).unwrap(), EpochMillis::new(NOW));
    let best = request.best(&response).unwrap();
    assert_eq!(best.rate().id().as_str(), "high");
    assert_eq!(Some(best.net_output()), exact_net(x, high, Decimal::ZERO));
    assert_eq!(request.best(response.rates()), Ok(best));
    // Without `high`, `keyed` is held and `low` skipped.
    let response =
        RatesResponse::try_from(vec![rate("keyed", Decimal::from(3)), rate("low", low)]).unwrap();
    let best = request.best(&response).unwrap();
    assert_eq!(
        (best.rate().id().as_str(), best.net_output()),
        ("keyed", dec(30_000_000_000_000_000_003, 19))
    );
}
