#![allow(clippy::arithmetic_side_effects)]
//! Property tests of the route engine (issue 2, item 9).
//!
//! Every expectation here is computed independently of the engine: the
//! eligibility checks of ruling 5 in docs/RULES.md, the score of ruling 6, the ranking
//! key of ruling 7, the estimate of ruling 8 and the no-route classification of
//! ruling 10 (as refined on `NoRoute`) are written out again below, from the
//! text, over the generated numbers rather than the library's accessors.
//!
//! Case counts follow `PROPTEST_CASES` (default 256 per property).

use crate::common;
use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};

use crate::common::d;
use proptest::prelude::*;
use rust_decimal::Decimal;
use swaproute::{
    estimate_exact_out, Amount, CampaignId, CampaignLimits, EpochMillis, NoRoute, PairId, Rate,
    RateId, RateTerms, Route, RouteRequest, Selection, TopN,
};

const NOW: u64 = 1_700_000_000_000;
/// Campaign ids; the last one never gets a limit (an unknown campaign).
const CAMPAIGNS: [&str; 3] = ["spring", "summer", "autumn-unknown"];
const MAX_MANTISSA: i128 = (1i128 << 96) - 1;

// ---------------------------------------------------------------------------
// Decimals
// ---------------------------------------------------------------------------

fn dec(mantissa: i128, scale: u32) -> Decimal {
    Decimal::try_from_i128_with_scale(mantissa, scale).unwrap()
}

fn unit() -> Decimal {
    dec(1, 8)
}

/// `digits` significant digits, leading digit at 10^`exp`.
fn sig_decimal(
    digits: std::ops::RangeInclusive<u32>,
    exp: std::ops::RangeInclusive<i32>,
) -> BoxedStrategy<Decimal> {
    (digits, exp)
        .prop_flat_map(|(digits, exp)| {
            let lo = 10i128.pow(digits - 1);
            let hi = 10i128.pow(digits);
            (lo..hi).prop_map(move |m| {
                let scale = i32::try_from(digits).unwrap() - 1 - exp;
                if scale >= 0 {
                    dec(m, u32::try_from(scale).unwrap())
                } else {
                    dec(m * 10i128.pow(u32::try_from(-scale).unwrap()), 0)
                }
            })
        })
        .boxed()
}

/// A realistic positive value: 1-17 significant digits, within 1e-6..1e5.
fn realistic() -> BoxedStrategy<Decimal> {
    sig_decimal(1..=17, -6..=4)
}

/// Miner fees: often 0, usually small.
fn fee() -> BoxedStrategy<Decimal> {
    prop_oneof![
        2 => Just(Decimal::ZERO),
        5 => sig_decimal(1..=8, -8..=-2),
        1 => sig_decimal(1..=17, -6..=1),
    ]
    .boxed()
}

/// A decimal near `Decimal`'s limits: any mantissa up to 2^96 − 1, any scale.
fn extreme_any() -> BoxedStrategy<Decimal> {
    prop_oneof![
        (0..=MAX_MANTISSA, 0u32..=28, any::<bool>())
            .prop_map(|(m, s, neg)| { dec(if neg { -m } else { m }, s) }),
        (MAX_MANTISSA - 1000..=MAX_MANTISSA, 0u32..=28).prop_map(|(m, s)| dec(m, s)),
        (1i128..=1000, 20u32..=28).prop_map(|(m, s)| dec(m, s)),
        Just(Decimal::MAX),
        Just(dec(1, 28)),
        Just(Decimal::ZERO),
        realistic(),
    ]
    .boxed()
}

fn extreme_non_negative() -> BoxedStrategy<Decimal> {
    extreme_any().prop_map(|x| x.abs()).boxed()
}

// ---------------------------------------------------------------------------
// Rates
// ---------------------------------------------------------------------------

/// The numbers of one generated rate, kept beside the built `Rate` so that
/// the oracles never read the library's accessors.
#[derive(Clone, Debug)]
struct Spec {
    id: String,
    m: Decimal,
    fee: Decimal,
    min: Decimal,
    max: Decimal,
    expiry: u64,
    campaign: Option<usize>,
    exact_out: bool,
}

impl Spec {
    fn build(&self) -> Rate {
        let rate = Rate::new(
            RateId::new(&self.id).unwrap(),
            PairId::new("BTC_ETH").unwrap(),
            RateTerms {
                multiplier: self.m,
                miner_fee: self.fee,
                min: self.min,
                max: self.max,
            },
            EpochMillis::new(self.expiry),
        )
        .with_exact_out(self.exact_out);
        match self.campaign {
            Some(c) => rate.sponsored_by(CampaignId::new(CAMPAIGNS[c]).unwrap()),
            None => rate,
        }
    }
}

#[derive(Clone, Copy, Debug)]
enum Defect {
    None,
    ZeroMultiplier,
    NegativeMultiplier,
    NegativeFee,
    MinAboveMax,
    NegativeMin,
}

fn defect() -> impl Strategy<Value = Defect> {
    prop_oneof![
        30 => Just(Defect::None),
        1 => Just(Defect::ZeroMultiplier),
        1 => Just(Defect::NegativeMultiplier),
        1 => Just(Defect::NegativeFee),
        1 => Just(Defect::MinAboveMax),
        1 => Just(Defect::NegativeMin),
    ]
}

fn expiry() -> impl Strategy<Value = u64> {
    prop_oneof![
        8 => Just(NOW + 3_600_000),
        1 => Just(NOW),
        1 => Just(NOW + 1),
        1 => Just(NOW - 1),
        1 => Just(0u64),
    ]
}

fn rate_id() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => "[A-Ca-c0-2]{1,3}",
        2 => "[A-Za-z0-9@()!&$+/=_-]{1,30}",
        1 => "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}",
        1 => "[A-Za-z0-9+/]{150,200}={0,2}",
    ]
}

/// Limits: `min <= max` (sometimes equal, sometimes min 0).
fn limits() -> impl Strategy<Value = (Decimal, Decimal)> {
    let min = prop_oneof![
        1 => Just(Decimal::ZERO),
        6 => sig_decimal(1..=8, -6..=1),
    ];
    let span = prop_oneof![
        1 => Just(Decimal::ZERO),
        6 => sig_decimal(1..=9, -4..=3),
    ];
    (min, span).prop_map(|(min, span)| (min, min + span))
}

fn spec() -> impl Strategy<Value = Spec> {
    (
        rate_id(),
        realistic(),
        fee(),
        limits(),
        expiry(),
        prop_oneof![3 => Just(None), 1 => (0usize..3).prop_map(Some)],
        prop::bool::weighted(0.6),
        defect(),
    )
        .prop_map(
            |(id, m, fee, (min, max), expiry, campaign, exact_out, defect)| {
                let mut spec = Spec {
                    id,
                    m,
                    fee,
                    min,
                    max,
                    expiry,
                    campaign,
                    exact_out,
                };
                match defect {
                    Defect::None => {}
                    Defect::ZeroMultiplier => spec.m = Decimal::ZERO,
                    Defect::NegativeMultiplier => spec.m = -spec.m,
                    Defect::NegativeFee => spec.fee = -(spec.fee + unit()),
                    Defect::MinAboveMax => spec.min = spec.max + unit(),
                    Defect::NegativeMin => spec.min = -(spec.min + unit()),
                }
                spec
            },
        )
}

/// Makes ids unique (a duplicate id would make two rates indistinguishable
/// to the ranking), keeping the generated text as the prefix.
fn unique_ids(specs: &mut [Spec]) {
    let mut seen = BTreeSet::new();
    for (i, spec) in specs.iter_mut().enumerate() {
        if !seen.insert(spec.id.clone()) {
            spec.id = format!("{}~{i}", spec.id);
            seen.insert(spec.id.clone());
        }
    }
}

/// 0-12 rates, some of them copies of another that differ only by id.
fn specs() -> impl Strategy<Value = Vec<Spec>> {
    (
        prop::collection::vec(spec(), 0..=10),
        prop::collection::vec((any::<prop::sample::Index>(), rate_id()), 0..=2),
    )
        .prop_map(|(mut specs, copies)| {
            if !specs.is_empty() {
                for (at, id) in copies {
                    let mut copy = specs[at.index(specs.len())].clone();
                    copy.id = id;
                    specs.push(copy);
                }
            }
            unique_ids(&mut specs);
            specs
        })
}

/// Per-swap limits of the first two campaigns (each sometimes unknown).
fn campaign_limits() -> impl Strategy<Value = Vec<Option<Decimal>>> {
    prop::collection::vec(
        prop_oneof![1 => Just(None), 3 => sig_decimal(1..=8, -5..=2).prop_map(Some)],
        2,
    )
}

fn limits_of(known: &[Option<Decimal>]) -> CampaignLimits {
    known
        .iter()
        .enumerate()
        .filter_map(|(i, l)| {
            l.map(|l| {
                (
                    CampaignId::new(CAMPAIGNS[i]).unwrap(),
                    Amount::new(l).unwrap(),
                )
            })
        })
        .collect()
}

/// How to pick `fromAmount`: often exactly at (or one 1e-8 unit beside) a
/// generated limit.
#[derive(Clone, Copy, Debug)]
enum Pick {
    Free,
    Zero,
    AtMin(prop::sample::Index),
    AtMax(prop::sample::Index),
    AtCap(prop::sample::Index),
    BelowMin(prop::sample::Index),
    AboveMax(prop::sample::Index),
    AboveCap(prop::sample::Index),
    /// Halfway between one rate's max and another's min (a tie in a gap).
    Midpoint(prop::sample::Index, prop::sample::Index),
}

fn pick() -> impl Strategy<Value = Pick> {
    let i = any::<prop::sample::Index>;
    prop_oneof![
        4 => Just(Pick::Free),
        1 => Just(Pick::Zero),
        2 => i().prop_map(Pick::AtMin),
        2 => i().prop_map(Pick::AtMax),
        1 => i().prop_map(Pick::AtCap),
        1 => i().prop_map(Pick::BelowMin),
        1 => i().prop_map(Pick::AboveMax),
        1 => i().prop_map(Pick::AboveCap),
        3 => (i(), i()).prop_map(|(a, b)| Pick::Midpoint(a, b)),
    ]
}

/// The amount a pick stands for, in checked arithmetic: a limit one unit
/// beyond `Decimal`'s range stays at the limit instead of overflowing.
fn amount_for(pick: Pick, free: Decimal, specs: &[Spec], known: &[Option<Decimal>]) -> Decimal {
    let nudge = |x: Decimal, up: bool| {
        if up {
            x.checked_add(unit()).unwrap_or(x)
        } else {
            x.checked_sub(unit()).unwrap_or(x)
        }
    };
    let spec = |i: prop::sample::Index| (!specs.is_empty()).then(|| &specs[i.index(specs.len())]);
    let caps: Vec<Decimal> = known.iter().flatten().copied().collect();
    let cap = |i: prop::sample::Index| (!caps.is_empty()).then(|| caps[i.index(caps.len())]);
    let value = match pick {
        Pick::Free => Some(free),
        Pick::Zero => Some(Decimal::ZERO),
        Pick::AtMin(i) => spec(i).map(|s| s.min),
        Pick::AtMax(i) => spec(i).map(|s| s.max),
        Pick::AtCap(i) => cap(i),
        Pick::BelowMin(i) => spec(i).map(|s| nudge(s.min, false)),
        Pick::AboveMax(i) => spec(i).map(|s| nudge(s.max, true)),
        Pick::AboveCap(i) => cap(i).map(|c| nudge(c, true)),
        Pick::Midpoint(a, b) => spec(a)
            .zip(spec(b))
            .and_then(|(a, b)| a.max.checked_add(b.min))
            .and_then(|sum| sum.checked_div(Decimal::TWO)),
    };
    value.unwrap_or(free).max(Decimal::ZERO)
}

/// A generated request: rates, campaign limits, amounts, mode, k.
#[derive(Clone, Debug)]
struct Case {
    specs: Vec<Spec>,
    known: Vec<Option<Decimal>>,
    from: Decimal,
    to: Decimal,
    exact_out: bool,
    k: usize,
}

impl Case {
    fn rates(&self) -> Vec<Rate> {
        self.specs.iter().map(Spec::build).collect()
    }

    fn limit_of(&self, spec: &Spec) -> Option<Decimal> {
        spec.campaign
            .and_then(|c| self.known.get(c).copied().flatten())
    }

    fn request<'c>(&self, campaigns: &'c CampaignLimits) -> RouteRequest<'c> {
        let from = Amount::new(self.from).unwrap();
        let request = if self.exact_out {
            RouteRequest::exact_out(from, Amount::new(self.to).unwrap(), EpochMillis::new(NOW))
        } else {
            RouteRequest::exact_in(from, EpochMillis::new(NOW))
        };
        request.with_campaigns(campaigns)
    }
}

fn to_amount() -> impl Strategy<Value = Decimal> {
    prop_oneof![
        6 => realistic(),
        1 => sig_decimal(1..=8, -2..=3),
    ]
}

/// A copy of a rate that ties it on net output at the chosen `fromAmount`.
#[derive(Clone, Copy, Debug)]
enum Twin {
    /// `(m + k, fee + x × k)`: the same net `x × m − fee`, a higher fee.
    HigherFee(prop::sample::Index, Decimal),
    /// The same numbers as a sponsored variant.
    Sponsored(prop::sample::Index, usize),
}

fn twin() -> impl Strategy<Value = Twin> {
    prop_oneof![
        (any::<prop::sample::Index>(), sig_decimal(1..=6, -6..=0))
            .prop_map(|(i, k)| Twin::HigherFee(i, k)),
        (any::<prop::sample::Index>(), 0usize..3).prop_map(|(i, c)| Twin::Sponsored(i, c)),
    ]
}

fn case() -> impl Strategy<Value = Case> {
    (
        specs(),
        campaign_limits(),
        pick(),
        realistic(),
        to_amount(),
        any::<bool>(),
        0usize..=14,
        prop::collection::vec(twin(), 0..=2),
    )
        .prop_map(|(mut specs, known, pick, free, to, exact_out, k, twins)| {
            let from = amount_for(pick, free, &specs, &known);
            if !specs.is_empty() {
                for twin in twins {
                    let (at, copy) = match twin {
                        Twin::HigherFee(i, k) => {
                            let mut copy = specs[i.index(specs.len())].clone();
                            copy.m += k;
                            copy.fee += from * k;
                            (i, copy)
                        }
                        Twin::Sponsored(i, c) => {
                            let mut copy = specs[i.index(specs.len())].clone();
                            copy.campaign = Some(c);
                            (i, copy)
                        }
                    };
                    let mut copy = copy;
                    copy.id = format!("{}^{}", copy.id, at.index(7));
                    specs.push(copy);
                }
                unique_ids(&mut specs);
            }
            Case {
                specs,
                known,
                from,
                to,
                exact_out,
                k,
            }
        })
}

/// The same, with extreme decimals anywhere in the rates and amounts.
fn extreme_case() -> impl Strategy<Value = Case> {
    let extreme_spec = (
        "[a-e]{1,2}",
        extreme_any(),
        extreme_any(),
        extreme_any(),
        extreme_any(),
        expiry(),
        prop_oneof![2 => Just(None), 1 => (0usize..3).prop_map(Some)],
        any::<bool>(),
    )
        .prop_map(|(id, m, fee, min, max, expiry, campaign, exact_out)| Spec {
            id,
            m,
            fee,
            min,
            max,
            expiry,
            campaign,
            exact_out,
        });
    let specs =
        prop_oneof![prop::collection::vec(extreme_spec, 0..=8), specs(),].prop_map(|mut specs| {
            unique_ids(&mut specs);
            specs
        });
    (
        specs,
        prop::collection::vec(prop::option::of(extreme_non_negative()), 2),
        pick(),
        extreme_non_negative(),
        extreme_non_negative(),
        any::<bool>(),
        prop_oneof![0usize..=14, Just(usize::MAX)],
    )
        .prop_map(|(specs, known, pick, free, to, exact_out, k)| {
            let from = amount_for(pick, free, &specs, &known);
            Case {
                specs,
                known,
                from,
                to,
                exact_out,
                k,
            }
        })
}

// ---------------------------------------------------------------------------
// The oracle: rulings 2, 3, 5, 6, 7 and 8 written out again
// ---------------------------------------------------------------------------

/// `(to + fee) / m` rounded toward +infinity to exactly 8 decimal places,
/// computed on big integers, or `None` where the library's documented
/// arithmetic overflows: `to + fee` outside `Decimal`'s range, or a result that
/// does not fit a `Decimal` at scale 8.
fn exact_required(to: Decimal, fee: Decimal, m: Decimal) -> Option<Decimal> {
    use num_bigint::BigInt;
    // Ruling 35: `to + fee` past `Decimal`'s range is no overflow by itself;
    // only a required input past 8 places is.
    if m <= Decimal::ZERO {
        return None;
    }
    let big = |x: Decimal| BigInt::from(x.mantissa());
    let ten = |e: u32| BigInt::from(10u8).pow(e);
    let s = to.scale().max(fee.scale());
    // (to + fee) at scale s, divided by m, times 10^8:
    // N × 10^(sm + 8) / (M × 10^s), rounded up.
    let numerator =
        (big(to) * ten(s - to.scale()) + big(fee) * ten(s - fee.scale())) * ten(m.scale() + 8);
    let denominator = big(m) * ten(s);
    let (q, r) = (&numerator / &denominator, &numerator % &denominator);
    let q = if r > BigInt::from(0u8) { q + 1 } else { q };
    let q = i128::try_from(q).ok()?;
    (q.abs() <= MAX_MANTISSA).then(|| dec(q, 8))
}

#[derive(Clone, Debug, PartialEq)]
struct Expected {
    id: String,
    /// The reported net: the exact one or its floor (ruling 43).
    net: Decimal,
    /// The exact net at scale 56, which ranks (ruling 43).
    exact: num_bigint::BigInt,
    fee: Decimal,
    sponsored: bool,
    effective_max: Decimal,
    required: Option<Decimal>,
}

/// The reason code and limit ruling 5 gives a rate, or its route.
fn oracle_check(case: &Case, spec: &Spec) -> Result<Expected, (&'static str, Option<Decimal>)> {
    // Ruling 2: multiplier > 0, miner fee >= 0, 0 <= min <= max.
    let valid = spec.m > Decimal::ZERO
        && spec.fee >= Decimal::ZERO
        && spec.min >= Decimal::ZERO
        && spec.min <= spec.max;
    if !valid {
        return Err(("INVALID_RATE", None));
    }
    if spec.expiry <= NOW {
        return Err(("EXPIRED", None));
    }
    if case.exact_out {
        if !spec.exact_out {
            return Err(("EXACT_OUT_UNSUPPORTED", None));
        }
        if spec.campaign.is_some() {
            return Err(("SPONSORED_IN_EXACT_OUT", None));
        }
    }
    // Ruling 3: min(max, limit) for a sponsored variant with a known limit.
    let effective_max = match case.limit_of(spec) {
        Some(limit) if limit < spec.max => limit,
        _ => spec.max,
    };
    // Ruling 30: a campaign limit below min leaves no amount, whatever the amount.
    if effective_max < spec.min {
        return Err(("CAMPAIGN_LIMIT_BELOW_MIN", Some(spec.min)));
    }
    if case.from < spec.min {
        return Err(("BELOW_MIN", Some(spec.min)));
    }
    if case.from > effective_max {
        return Err(("ABOVE_MAX", Some(effective_max)));
    }
    // "Arithmetic overflow" (the score, and in ExactOut the required input)
    // comes before "net output <= 0" in ruling 5.
    let net = common::exact_net(case.from, spec.m, spec.fee);
    let required = if case.exact_out {
        exact_required(case.to, spec.fee, spec.m).map(Some)
    } else {
        Some(None)
    };
    let (Some(net), Some(required)) = (net, required) else {
        return Err(("OVERFLOW", None));
    };
    // Ruling 43: by the exact sign, whatever the reported floor.
    if !common::exact_positive(case.from, spec.m, spec.fee) {
        return Err(("NO_OUTPUT", Some(net)));
    }
    Ok(Expected {
        id: spec.id.clone(),
        net,
        exact: common::exact_value(case.from, spec.m, spec.fee),
        fee: spec.fee,
        sponsored: spec.campaign.is_some(),
        effective_max,
        required,
    })
}

struct Oracle {
    ranked: Vec<Expected>,
    rejected: BTreeMap<String, (&'static str, Option<Decimal>)>,
}

fn oracle(case: &Case) -> Oracle {
    let mut ranked = Vec::new();
    let mut rejected = BTreeMap::new();
    for spec in &case.specs {
        match oracle_check(case, spec) {
            Ok(expected) => ranked.push(expected),
            Err(reason) => {
                rejected.insert(spec.id.clone(), reason);
            }
        }
    }
    // Ruling 7: net desc (the exact net, ruling 43), fee asc, non-sponsored
    // first, id bytes asc.
    ranked.sort_by(|a, b| {
        b.exact
            .cmp(&a.exact)
            .then(a.fee.cmp(&b.fee))
            .then(a.sponsored.cmp(&b.sponsored))
            .then(a.id.as_bytes().cmp(b.id.as_bytes()))
    });
    Oracle { ranked, rejected }
}

fn ids(routes: &[Route<'_>]) -> Vec<String> {
    routes
        .iter()
        .map(|r| r.rate().id().as_str().to_owned())
        .collect()
}

fn rejected_map(selection: &Selection<'_>) -> BTreeMap<String, (&'static str, Option<Decimal>)> {
    selection
        .rejected()
        .iter()
        .map(|r| {
            let reason = r.reason();
            let limit = match reason {
                swaproute::RejectReason::NoOutput { net_output } => Some(*net_output),
                _ => reason.limit(),
            };
            (r.rate().id().as_str().to_owned(), (reason.code(), limit))
        })
        .collect()
}

/// The no-route error NoRoute's documentation gives, with min() and max().
fn expected_no_route(case: &Case) -> (&'static str, Option<Decimal>, Option<Decimal>) {
    let checks: Vec<_> = case.specs.iter().map(|s| oracle_check(case, s)).collect();
    let count = |code: &str| {
        checks
            .iter()
            .filter(|c| matches!(c, Err((k, _)) if *k == code))
            .count()
    };
    let total = checks.len();
    let valid = total - count("INVALID_RATE");
    let live = valid - count("EXPIRED");
    let mode = count("EXACT_OUT_UNSUPPORTED") + count("SPONSORED_IN_EXACT_OUT");
    if total == 0 || valid == 0 {
        return ("INSUFFICIENT_LIQUIDITY", None, None);
    }
    if live == 0 {
        return ("RATE_EXPIRED", None, None);
    }
    if live == mode {
        return ("UNSUPPORTED_SWAP_MODE", None, None);
    }
    let mins: Vec<Decimal> = checks
        .iter()
        .filter_map(|c| match c {
            Err(("BELOW_MIN", l)) => *l,
            _ => None,
        })
        .collect();
    let maxes: Vec<Decimal> = checks
        .iter()
        .filter_map(|c| match c {
            Err(("ABOVE_MAX", l)) => *l,
            _ => None,
        })
        .collect();
    // Ruling 30: variants that can serve no amount take no part in the limits.
    let unservable = count("CAMPAIGN_LIMIT_BELOW_MIN");
    if mins.len() + maxes.len() < live - mode - unservable {
        // Some rate accepted the amount; none yields an output.
        return ("INSUFFICIENT_LIQUIDITY", None, None);
    }
    let min_above = mins.iter().min().copied();
    let max_below = maxes.iter().max().copied();
    match (max_below, min_above) {
        (None, Some(min)) => ("AMOUNT_BELOW_LIMIT", Some(min), None),
        (Some(max), None) => ("AMOUNT_ABOVE_LIMIT", None, Some(max)),
        (Some(max), Some(min)) => {
            let code = if case.from - max <= min - case.from {
                "AMOUNT_ABOVE_LIMIT"
            } else {
                "AMOUNT_BELOW_LIMIT"
            };
            (code, Some(min), Some(max))
        }
        // Every live, capable rate left can serve no amount (ruling 30).
        (None, None) => {
            assert!(
                unservable > 0,
                "every live, capable rate is in, below or above"
            );
            ("INSUFFICIENT_LIQUIDITY", None, None)
        }
    }
}

fn no_route_parts(no_route: &NoRoute) -> (&'static str, Option<Decimal>, Option<Decimal>) {
    (no_route.code().as_str(), no_route.min(), no_route.max())
}

// ---------------------------------------------------------------------------
// Exact rational comparisons (i128), for the estimate bounds
// ---------------------------------------------------------------------------

/// `(mantissa, scale)`, exact.
#[derive(Clone, Copy, Debug)]
struct Exact(i128, u32);

impl Exact {
    fn of(x: Decimal) -> Self {
        Exact(x.mantissa(), x.scale())
    }
    fn at(self, scale: u32) -> Option<i128> {
        self.0
            .checked_mul(10i128.checked_pow(scale.checked_sub(self.1)?)?)
    }
    fn add(self, other: Exact) -> Option<Exact> {
        let s = self.1.max(other.1);
        Some(Exact(self.at(s)?.checked_add(other.at(s)?)?, s))
    }
    fn mul(self, other: Exact) -> Option<Exact> {
        Some(Exact(self.0.checked_mul(other.0)?, self.1 + other.1))
    }
    fn cmp(self, other: Exact) -> Option<Ordering> {
        let s = self.1.max(other.1);
        Some(self.at(s)?.cmp(&other.at(s)?))
    }
}

// ---------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------

fn check_against_oracle(case: &Case, rates: &[Rate]) -> Result<(), TestCaseError> {
    let campaigns = limits_of(&case.known);
    let request = case.request(&campaigns);
    let selection = request.select(rates);
    let expected = oracle(case);

    let expected_ids: Vec<String> = expected.ranked.iter().map(|e| e.id.clone()).collect();
    prop_assert_eq!(ids(selection.routes()), expected_ids);
    for (route, want) in selection.routes().iter().zip(&expected.ranked) {
        prop_assert_eq!(route.net_output(), want.net);
        prop_assert_eq!(route.effective_max(), want.effective_max);
        prop_assert_eq!(
            route.required_input().map(swaproute::Fixed8::get),
            want.required
        );
        prop_assert_eq!(route.order_amount(), want.required.unwrap_or(case.from));
    }
    let actual = rejected_map(&selection);
    prop_assert_eq!(actual, expected.rejected);

    // best() == select().best() == top(k)[0]; top(k) is a prefix of routes().
    let best = request.best(rates);
    let top = request.top(rates, case.k);
    match (&best, selection.best()) {
        (Ok(b), Some(s)) => prop_assert_eq!(b, s),
        (Err(e), None) => prop_assert_eq!(Some(e), selection.no_route()),
        (b, s) => prop_assert!(false, "best {:?} but select().best() {:?}", b, s),
    }
    match &top {
        Ok(top) => {
            let n = case.k.min(selection.routes().len());
            prop_assert_eq!(top.as_slice(), &selection.routes()[..n]);
            prop_assert_eq!(top.as_slice(), selection.top(case.k));
            if let Some(first) = top.first() {
                prop_assert_eq!(Ok(first), best.as_ref());
            }
        }
        Err(e) => {
            prop_assert!(selection.routes().is_empty());
            prop_assert_eq!(Some(e), selection.no_route());
        }
    }
    // top_n::<K>() is top(K) without allocating, for K on both sides of the
    // number of rates and of top's on-stack slots.
    prop_assert_eq!(top_n_routes::<1>(&request, rates), request.top(rates, 1));
    prop_assert_eq!(top_n_routes::<3>(&request, rates), request.top(rates, 3));
    prop_assert_eq!(top_n_routes::<12>(&request, rates), request.top(rates, 12));
    // top_n_into() replaces what its buffer held: here the answer for every
    // rate, then the one for the first half (an error leaves it empty).
    let mut buffer = TopN::<3>::new();
    let full = request.top_n_into(rates, &mut buffer);
    prop_assert_eq!(
        full.map(|()| buffer.iter().copied().collect::<Vec<_>>()),
        request.top(rates, 3)
    );
    let half = rates.get(..rates.len() / 2).unwrap_or_default();
    match request.top_n_into(half, &mut buffer) {
        Ok(()) => prop_assert_eq!(
            Ok(buffer.iter().copied().collect::<Vec<_>>()),
            request.top(half, 3)
        ),
        Err(e) => {
            prop_assert_eq!(Err(e), request.top(half, 3));
            prop_assert!(buffer.is_empty());
            prop_assert_eq!(buffer.iter().count(), 0);
        }
    }
    prop_assert_eq!(
        selection.no_route().is_some(),
        selection.routes().is_empty()
    );
    Ok(())
}

proptest! {
    /// 1. Every selected route has min <= fromAmount <= effective max, where
    /// the effective max is min(max, campaign limit) for a sponsored variant
    /// whose campaign limit is known.
    #[test]
    fn selected_routes_lie_within_limits(case in case()) {
        let rates = case.rates();
        let campaigns = limits_of(&case.known);
        let request = case.request(&campaigns);
        let selection = request.select(&rates);
        let mut routes: Vec<Route<'_>> = selection.routes().to_vec();
        routes.extend(request.best(&rates).ok());
        routes.extend(request.top(&rates, case.k).unwrap_or_default());
        for route in routes {
            let spec = case.specs.iter().find(|s| s.id == route.rate().id().as_str()).unwrap();
            let effective_max = match case.limit_of(spec) {
                Some(limit) => limit.min(spec.max),
                None => spec.max,
            };
            prop_assert!(spec.min <= case.from, "{} below min {}", case.from, spec.min);
            prop_assert!(case.from <= effective_max, "{} above {}", case.from, effective_max);
            prop_assert_eq!(route.effective_max(), effective_max);
        }
    }

    /// 2. toAmount never changes which rates pass or fail the limit check.
    #[test]
    fn to_amount_never_changes_the_limit_check(
        case in case(),
        other_to in prop_oneof![to_amount(), extreme_non_negative(), Just(Decimal::ZERO)],
    ) {
        let rates = case.rates();
        let campaigns = limits_of(&case.known);
        let from = Amount::new(case.from).unwrap();
        let now = EpochMillis::new(NOW);
        let (to_a, to_b) = (Amount::new(case.to).unwrap(), Amount::new(other_to).unwrap());
        let requests = if case.exact_out {
            vec![
                RouteRequest::exact_out(from, to_a, now),
                RouteRequest::exact_out(from, to_b, now),
            ]
        } else {
            vec![
                RouteRequest::exact_in(from, now),
                RouteRequest::exact_in(from, now).with_to_amount(to_a),
                RouteRequest::exact_in(from, now).with_to_amount(to_b),
            ]
        };
        let outcome = |request: RouteRequest<'_>| {
            let selection = request.with_campaigns(&campaigns).select(&rates);
            let mut below = BTreeSet::new();
            let mut above = BTreeSet::new();
            let mut passed: BTreeSet<String> = ids(selection.routes()).into_iter().collect();
            for r in selection.rejected() {
                let id = r.rate().id().as_str().to_owned();
                match r.reason().code() {
                    "BELOW_MIN" => { below.insert((id, r.reason().limit())); }
                    "ABOVE_MAX" => { above.insert((id, r.reason().limit())); }
                    "OVERFLOW" | "NO_OUTPUT" => { passed.insert(id); }
                    _ => {}
                }
            }
            (below, above, passed)
        };
        let first = outcome(requests[0]);
        for request in &requests[1..] {
            prop_assert_eq!(&outcome(*request), &first);
        }
        if !case.exact_out {
            // In ExactIn toAmount is unused altogether (the selection only
            // echoes it).
            let plain = requests[0].with_campaigns(&campaigns).select(&rates);
            for request in &requests[1..] {
                let other = request.with_campaigns(&campaigns).select(&rates);
                prop_assert_eq!(other.routes(), plain.routes());
                prop_assert_eq!(other.rejected(), plain.rejected());
                prop_assert_eq!(other.no_route(), plain.no_route());
            }
        }
    }

    /// 3. The result does not depend on input order and equals the oracle
    /// (ruling 5 filter, ruling 6 score, ruling 7 order), also through
    /// best() and top(k).
    #[test]
    fn ranking_is_order_independent_and_matches_the_oracle(
        (case, shuffled) in case().prop_flat_map(|case| {
            let specs = case.specs.clone();
            (Just(case), Just(specs).prop_shuffle())
        }),
    ) {
        let rates = case.rates();
        check_against_oracle(&case, &rates)?;

        let shuffled_case = Case { specs: shuffled, ..case.clone() };
        let shuffled_rates = shuffled_case.rates();
        check_against_oracle(&shuffled_case, &shuffled_rates)?;

        let campaigns = limits_of(&case.known);
        let request = case.request(&campaigns);
        let a = request.select(&rates);
        let b = request.select(&shuffled_rates);
        prop_assert_eq!(ids(a.routes()), ids(b.routes()));
        prop_assert_eq!(a.no_route(), b.no_route());
        prop_assert_eq!(
            request.best(&rates).map(|r| r.rate().id().clone()),
            request.best(&shuffled_rates).map(|r| r.rate().id().clone())
        );
        prop_assert_eq!(
            request.top(&rates, case.k).map(|r| ids(&r)),
            request.top(&shuffled_rates, case.k).map(|r| ids(&r))
        );
    }

    /// 4. ExactIn: the best route's net output is >= every eligible route's.
    #[test]
    fn exact_in_best_has_the_highest_net_output(case in case()) {
        let case = Case { exact_out: false, ..case };
        let rates = case.rates();
        let campaigns = limits_of(&case.known);
        let request = case.request(&campaigns);
        let eligible: Vec<Expected> = case
            .specs
            .iter()
            .filter_map(|s| oracle_check(&case, s).ok())
            .collect();
        match request.best(&rates) {
            Ok(best) => {
                for other in &eligible {
                    prop_assert!(best.net_output() >= other.net, "{} < {} of {}", best.net_output(), other.net, other.id);
                }
                prop_assert_eq!(
                    Some(best.net_output()),
                    common::exact_net(case.from, best.rate().multiplier(), best.rate().miner_fee())
                );
            }
            Err(_) => prop_assert!(eligible.is_empty()),
        }
    }

    /// 5. A sponsored variant is never selected in ExactOut, nor ranked with
    /// fromAmount above its campaign limit.
    #[test]
    fn sponsored_variants_respect_mode_and_cap(case in case()) {
        let rates = case.rates();
        let campaigns = limits_of(&case.known);
        for exact_out in [false, true] {
            let case = Case { exact_out, ..case.clone() };
            let request = case.request(&campaigns);
            let selection = request.select(&rates);
            let mut routes: Vec<Route<'_>> = selection.routes().to_vec();
            routes.extend(request.best(&rates).ok());
            routes.extend(request.top(&rates, case.k).unwrap_or_default());
            for route in routes {
                let spec = case.specs.iter().find(|s| s.id == route.rate().id().as_str()).unwrap();
                if spec.campaign.is_some() {
                    prop_assert!(!exact_out, "sponsored {} selected in ExactOut", spec.id);
                    if let Some(limit) = case.limit_of(spec) {
                        prop_assert!(case.from <= limit, "{} ranked above its cap {}", spec.id, limit);
                    }
                }
            }
            if exact_out {
                for r in selection.rejected() {
                    let spec = case.specs.iter().find(|s| s.id == r.rate().id().as_str()).unwrap();
                    if spec.campaign.is_some() {
                        prop_assert!(
                            ["INVALID_RATE", "EXPIRED", "EXACT_OUT_UNSUPPORTED", "SPONSORED_IN_EXACT_OUT"]
                                .contains(&r.reason().code()),
                            "{:?}", r.reason()
                        );
                    }
                }
            }
        }
    }

    /// 6. The ExactOut estimate: within [exact, exact + 1e-8), scale 8,
    /// within the rate's limits, the oracle's minimum, and selecting with it
    /// picks the estimated rate except in the documented cases.
    #[test]
    fn exact_out_estimate_is_tight_and_selects_its_rate(
        case in case(),
        to_pick in prop_oneof![
            3 => Just(None),
            1 => (any::<prop::sample::Index>(), any::<bool>()).prop_map(Some),
        ],
    ) {
        let mut case = Case { exact_out: true, ..case };
        // Sometimes a toAmount whose required input is exactly a rate's min or max.
        if let (Some((i, at_max)), false) = (to_pick, case.specs.is_empty()) {
            let s = &case.specs[i.index(case.specs.len())];
            let x = if at_max { s.max } else { s.min };
            if let Some(to) = x.checked_mul(s.m).and_then(|p| p.checked_sub(s.fee)) {
                if to > Decimal::ZERO {
                    case.to = to;
                }
            }
        }
        prop_assume!(case.to > Decimal::ZERO);
        let rates = case.rates();
        let to = Amount::new(case.to).unwrap();
        let now = EpochMillis::new(NOW);

        // Oracle: smallest in-limit rounded required input over eligible rates.
        let mut inputs = Vec::new();
        for s in &case.specs {
            let eligible = s.m > Decimal::ZERO
                && s.fee >= Decimal::ZERO
                && s.min >= Decimal::ZERO
                && s.min <= s.max
                && s.expiry > NOW
                && s.exact_out
                && s.campaign.is_none();
            if !eligible {
                continue;
            }
            let Some(input) = exact_required(case.to, s.fee, s.m) else {
                continue;
            };
            let net = common::exact_net(input, s.m, s.fee);
            if s.min <= input
                && input <= s.max
                && net.is_some()
                && common::exact_positive(input, s.m, s.fee)
            {
                inputs.push(input);
            }
        }
        let oracle_min = inputs.iter().min().copied();

        match estimate_exact_out(&rates, to, now) {
            Err(no_route) => {
                prop_assert_eq!(oracle_min, None);
                // The classification steps that do not depend on an amount.
                let valid: Vec<&Spec> = case.specs.iter().filter(|s| s.m > Decimal::ZERO
                    && s.fee >= Decimal::ZERO && s.min >= Decimal::ZERO && s.min <= s.max).collect();
                let live: Vec<&&Spec> = valid.iter().filter(|s| s.expiry > NOW).collect();
                let capable = live.iter().filter(|s| s.exact_out && s.campaign.is_none()).count();
                let code = no_route.code().as_str();
                if valid.is_empty() {
                    prop_assert_eq!(code, "INSUFFICIENT_LIQUIDITY");
                } else if live.is_empty() {
                    prop_assert_eq!(code, "RATE_EXPIRED");
                } else if capable == 0 {
                    prop_assert_eq!(code, "UNSUPPORTED_SWAP_MODE");
                } else {
                    prop_assert!(
                        ["AMOUNT_BELOW_LIMIT", "AMOUNT_ABOVE_LIMIT", "INSUFFICIENT_LIQUIDITY"].contains(&code),
                        "{:?}", no_route
                    );
                }
            }
            Ok(estimate) => {
                let e = estimate.from_amount().get();
                prop_assert_eq!(Some(e), oracle_min);
                prop_assert_eq!(e.scale(), 8);
                prop_assert_eq!(estimate.from_amount().to_string().split('.').nth(1).map(str::len), Some(8));
                let r = estimate.rate();
                let s = case.specs.iter().find(|s| s.id == r.id().as_str()).unwrap();
                prop_assert!(s.min <= e && e <= s.max, "{} outside [{}, {}]", e, s.min, s.max);
                // e >= (to + fee) / m  <=>  e × m >= to + fee, exactly.
                let need = Exact::of(case.to).add(Exact::of(s.fee));
                if let (Some(need), Some(have)) = (need, Exact::of(e).mul(Exact::of(s.m))) {
                    if let Some(ord) = have.cmp(need) {
                        prop_assert!(ord != Ordering::Less, "{} × {} < {} + {}", e, s.m, case.to, s.fee);
                    }
                }
                // e < (to + fee) / m + 1e-8  <=>  (e − 1e-8) × m < to + fee.
                if let (Some(need), Some(below)) = (need, Exact::of(e - unit()).mul(Exact::of(s.m))) {
                    if let Some(ord) = below.cmp(need) {
                        prop_assert_eq!(ord, Ordering::Less, "{} is not the smallest 8-dp input", e);
                    }
                }

                let request = RouteRequest::exact_out(Amount::new(e).unwrap(), to, now);
                prop_assert_eq!(estimate.request(to, now), request);
                let selection = request.select(&rates);
                prop_assert!(selection.routes().iter().any(|route| route.rate().id() == r.id()));
                let picked = request.best(&rates).unwrap();
                prop_assert_eq!(Some(&picked), selection.best());
                if picked.rate().id() != r.id() {
                    let net_r = e * s.m - s.fee;
                    let p = case.specs.iter().find(|s| s.id == picked.rate().id().as_str()).unwrap();
                    let own_input = picked.required_input().unwrap().get();
                    prop_assert!(
                        picked.net_output() == net_r || own_input < p.min,
                        "estimate {} for {} but best is {} (net {} vs {}, own input {}, min {})",
                        e, s.id, p.id, picked.net_output(), net_r, own_input, p.min
                    );
                }
            }
        }
    }

    /// 7. The no-route code (and the limits it names) matches where
    /// fromAmount lies relative to all limits.
    #[test]
    fn no_route_code_matches_the_limits(case in case()) {
        let rates = case.rates();
        let campaigns = limits_of(&case.known);
        let request = case.request(&campaigns);
        let selection = request.select(&rates);
        match selection.no_route() {
            None => prop_assert!(!selection.routes().is_empty()),
            Some(no_route) => {
                prop_assert_eq!(no_route_parts(no_route), expected_no_route(&case));
                prop_assert_eq!(request.best(&rates).err(), Some(no_route.clone()));
                prop_assert_eq!(request.top(&rates, case.k).err(), Some(no_route.clone()));
                let api = no_route.to_api_error();
                prop_assert_eq!(api.code(), no_route.code());
            }
        }
    }

    /// 8. Nothing panics on extreme decimals; overflow is a reason or a
    /// no-route, and the ranking still matches the oracle.
    #[test]
    fn extreme_decimals_never_panic(case in extreme_case()) {
        let rates = case.rates();
        let campaigns = limits_of(&case.known);
        for exact_out in [false, true] {
            let case = Case { exact_out, ..case.clone() };
            let request = case.request(&campaigns);
            let selection = request.select(&rates);
            let _ = request.best(&rates);
            let _ = request.top(&rates, case.k);
            let _ = selection.top(case.k);
            if let Some(no_route) = selection.no_route() {
                let _ = no_route.to_api_error();
                let _ = no_route.to_string();
            }
            for r in selection.rejected() {
                let _ = r.reason().to_string();
            }
            check_against_oracle(&case, &rates)?;
        }
        if let Ok(estimate) = estimate_exact_out(&rates, Amount::new(case.to).unwrap(), EpochMillis::new(NOW)) {
            let e = estimate.from_amount().get();
            prop_assert_eq!(e.scale(), 8);
            prop_assert!(estimate.rate().min() <= e && e <= estimate.rate().max());
            let request = estimate.request(Amount::new(case.to).unwrap(), EpochMillis::new(NOW));
            let _ = request.best(&rates);
        }
    }
}

/// Ruling 5 checks "arithmetic overflow" before "net output <= 0". In ExactOut
/// the required input `(toAmount + fee) / multiplier`, rounded up to 8 dp, is
/// part of the arithmetic; when it overflows on a rate whose net output is
/// also <= 0, the first failure is the overflow. The library checks the net
/// output first and reports `NO_OUTPUT` (found by `extreme_decimals_never_panic`).
#[test]
fn exact_out_overflow_is_reported_before_no_output() {
    let rate = Spec {
        id: "r".to_owned(),
        m: Decimal::ONE,
        fee: d("0.001"),
        min: Decimal::ZERO,
        max: Decimal::ONE,
        expiry: NOW + 1,
        campaign: None,
        exact_out: true,
    }
    .build();
    // net = 0 × 1 − 0.001 = −0.001 <= 0; required input
    // (792281625142643375936 + 0.001) / 1 needs 29 digits at 8 dp: overflow.
    let to = Amount::new(d("792281625142643375936")).unwrap();
    let request = RouteRequest::exact_out(Amount::ZERO, to, EpochMillis::new(NOW));
    let selection = request.select(std::slice::from_ref(&rate));
    assert_eq!(selection.rejected()[0].reason().code(), "OVERFLOW");
}

/// Ruling 8: the estimate is `(toAmount + minerFee) / multiplier` rounded *up*
/// to 8 dp, so that sending it delivers at least `toAmount`. When `toAmount +
/// minerFee` needs more than `Decimal`'s 28-29 digits, the library's sum is
/// rounded (here down) before the division and rounding up, and the estimate
/// delivers slightly less than `toAmount` (found by
/// `exact_out_estimate_is_tight_and_selects_its_rate` with 50 000 cases).
#[test]
fn estimate_rounds_up_even_when_to_plus_fee_is_inexact() {
    let rate = Spec {
        id: "r".to_owned(),
        m: Decimal::ONE,
        fee: d("0.000000000000000000000000001"),
        min: Decimal::ZERO,
        max: d("1000"),
        expiry: NOW + 1,
        campaign: None,
        exact_out: true,
    }
    .build();
    // (100 + 1e-27) / 1 = 100.000000000000000000000000001 → rounded up to
    // 8 dp: 100.00000001. The library gives 100.00000000, and
    // 100 × 1 − 1e-27 = 99.999999999999999999999999999 < 100.
    let to = Amount::new(d("100")).unwrap();
    let rates = [rate];
    let estimate = estimate_exact_out(&rates, to, EpochMillis::new(NOW)).unwrap();
    assert_eq!(estimate.from_amount().to_string(), "100.00000001");
}

/// `top_n::<K>` as a `Vec`, to compare with `top`.
fn top_n_routes<'r, const K: usize>(
    request: &RouteRequest<'_>,
    rates: &'r [Rate],
) -> Result<Vec<Route<'r>>, NoRoute> {
    request
        .top_n::<K>(rates)
        .map(|top| top.iter().copied().collect())
}
