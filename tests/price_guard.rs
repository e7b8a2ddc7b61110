#![allow(clippy::arithmetic_side_effects)]
//! Ruling 40's price guard (docs/RULES.md): the exact median of the valid,
//! unexpired rates (odd and even counts, computed by hand), the inclusive
//! bound in basis points, `PRICE_OUTLIER` with its numbers, and a property:
//! the guarded ranking is the unguarded ranking of the rates an independent
//! big-integer oracle admits, and without a guard nothing changes.

use num_bigint::BigInt;
use proptest::prelude::*;
use serde_json::json;
use swaproute::route::{PriceGuard, PriceReference, RejectReason};
use swaproute::{Decimal, EpochMillis, ErrorCode, NoRoute, Rate, RouteRequest};

use crate::common::{amount, btc_eth_rate, d};

const NOW: u64 = 1_785_000_000_000;
const LATER: u64 = 4_102_444_800_000;

fn now() -> EpochMillis {
    EpochMillis::new(NOW)
}

fn rate(id: &str, multiplier: &str) -> Rate {
    btc_eth_rate(
        id,
        multiplier,
        "0.0002",
        "0.001",
        "8",
        EpochMillis::new(LATER),
    )
}

fn median(rates: &[Rate]) -> Option<String> {
    PriceReference::median_of(rates, now()).map(|r| r.to_string())
}

#[test]
fn the_median_of_an_odd_count_is_the_middle_one() {
    // Sorted: 30, 33.1, 33.2, 34, 900000 → 33.2.
    let rates = [
        rate("a", "900000"),
        rate("b", "33.1"),
        rate("c", "34"),
        rate("d", "30"),
        rate("e", "33.2"),
    ];
    assert_eq!(median(&rates).as_deref(), Some("33.2"));
    assert_eq!(median(&rates[..1]).as_deref(), Some("900000"));
    assert_eq!(median(&[]), None);
}

#[test]
fn the_median_of_an_even_count_is_the_mean_of_the_two_middle_ones() {
    // Sorted: 30, 33.1, 33.2, 900000 → (33.1 + 33.2) / 2 = 33.15.
    let rates = [
        rate("a", "900000"),
        rate("b", "33.1"),
        rate("d", "30"),
        rate("e", "33.2"),
    ];
    assert_eq!(median(&rates).as_deref(), Some("33.15"));
    // Two: (33.1 + 900000) / 2 = 450016.55.
    assert_eq!(median(&rates[..2]).as_deref(), Some("450016.55"));
    // All equal.
    let same = [
        rate("a", "7"),
        rate("b", "7.0"),
        rate("c", "7.00"),
        rate("d", "7"),
    ];
    assert_eq!(median(&same).as_deref(), Some("7"));
    // Past Decimal: (79228162514264337593543950335 + 79228162514264337593543950334) / 2.
    let huge = [
        rate("a", "79228162514264337593543950335"),
        rate("b", "79228162514264337593543950334"),
    ];
    let reference = PriceReference::median_of(&huge, now()).unwrap();
    assert_eq!(reference.to_string(), "79228162514264337593543950334.5");
    assert_eq!(reference.to_decimal(), None);
    // 1e-28 and 2e-28: 1.5e-28, one place more than a Decimal has.
    let tiny = [
        rate("a", "0.0000000000000000000000000001"),
        rate("b", "0.0000000000000000000000000002"),
    ];
    assert_eq!(
        median(&tiny).as_deref(),
        Some("0.00000000000000000000000000015")
    );
}

#[test]
fn only_valid_unexpired_rates_count() {
    let expired = btc_eth_rate("x", "1000", "0", "0.001", "8", EpochMillis::new(NOW));
    // min > max: invalid (ruling 2).
    let invalid = btc_eth_rate("y", "2000", "0", "9", "8", EpochMillis::new(LATER));
    let rates = [
        rate("a", "10"),
        rate("b", "20"),
        rate("c", "30"),
        expired,
        invalid,
    ];
    // 10, 20, 30 → 20 (with the two others it would be 30).
    assert_eq!(median(&rates).as_deref(), Some("20"));
}

fn outlier(reason: &RejectReason) -> (Decimal, String, Option<Decimal>, u32) {
    match reason {
        RejectReason::PriceOutlier {
            multiplier,
            reference,
            deviation_bps,
            max_bps,
        } => (*multiplier, reference.to_string(), *deviation_bps, *max_bps),
        other => panic!("not an outlier: {other}"),
    }
}

#[test]
fn an_absurd_rate_wins_unguarded_and_is_rejected_guarded() {
    let rates = vec![rate("a", "33.1"), rate("b", "33.2"), rate("liar", "900000")];
    let request = RouteRequest::exact_in(amount("0.5"), now());
    assert_eq!(request.best(&rates).unwrap().rate().id().as_str(), "liar");
    let guard = PriceGuard::median(100);
    let guarded = request.with_price_guard(&guard);
    assert_eq!(guarded.best(&rates).unwrap().rate().id().as_str(), "b");
    let top = guarded.top(&rates, 3).unwrap();
    assert_eq!(top.len(), 2);
    let top_n = guarded.top_n::<3>(&rates).unwrap();
    assert_eq!(top_n.len(), 2);
    let selection = guarded.select(&rates);
    assert_eq!(selection.routes().len(), 2);
    let rejected = &selection.rejected()[0];
    assert_eq!(rejected.rate().id().as_str(), "liar");
    assert_eq!(rejected.reason().code(), "PRICE_OUTLIER");
    // |900000 − 33.2| × 10000 / 33.2 = 271074337.349397…, rounded up.
    assert_eq!(
        outlier(rejected.reason()),
        (d("900000"), "33.2".into(), Some(d("271074337.35")), 100)
    );
    let json = serde_json::to_value(rejected).unwrap();
    assert_eq!(json["reason"], "PRICE_OUTLIER");
    assert_eq!(json["multiplier"], "900000");
    assert_eq!(json["reference"], "33.2");
    assert_eq!(json["deviationBps"], "271074337.35");
    assert_eq!(json["maxDeviationBps"], 100);
    assert_eq!(json["limit"], serde_json::Value::Null);
    // 33.1 is 30.12… bps below 33.2: in at 100.
}

#[test]
fn the_callers_reference_and_the_inclusive_bound() {
    let rates = vec![rate("a", "95"), rate("b", "105"), rate("c", "105.00000001")];
    let request = RouteRequest::exact_in(amount("1"), now());
    let reference = PriceReference::new(d("100")).unwrap();
    let guard = PriceGuard::against(reference, 500);
    let selection = request.with_price_guard(&guard).select(&rates);
    let ranked: Vec<&str> = selection
        .routes()
        .iter()
        .map(|r| r.rate().id().as_str())
        .collect();
    assert_eq!(ranked, ["b", "a"]);
    let (m, r, deviation, bound) = outlier(selection.rejected()[0].reason());
    assert_eq!(
        (m, r.as_str(), deviation, bound),
        (d("105.00000001"), "100", Some(d("500.01")), 500)
    );
    assert!(PriceReference::new(Decimal::ZERO).is_err());
    assert!(PriceReference::new(d("-1")).is_err());
}

#[test]
fn zero_bps_admits_the_reference_only_and_one_rate_is_its_own_median() {
    let request = RouteRequest::exact_in(amount("1"), now());
    let guard = PriceGuard::median(0);
    let one = vec![rate("only", "33.1")];
    assert_eq!(
        request
            .with_price_guard(&guard)
            .best(&one)
            .unwrap()
            .rate()
            .id()
            .as_str(),
        "only"
    );
    // Even count: the mean 33.15 is no rate's multiplier, so 0 bps refuses both.
    let two = vec![rate("a", "33.1"), rate("b", "33.2")];
    let error = request.with_price_guard(&guard).best(&two).unwrap_err();
    // No amount works under the guard, so none is named.
    assert_eq!(
        error,
        NoRoute::PriceOutliers {
            count: 2,
            nearest_working: None
        }
    );
    assert_eq!(error.code(), ErrorCode::PriceOutlier);
    assert_eq!(error.code().http_status().as_u16(), 502);
    // All equal: every one is the median.
    let same = vec![rate("a", "7"), rate("b", "7.00"), rate("c", "7")];
    assert_eq!(
        request
            .with_price_guard(&guard)
            .top(&same, 5)
            .unwrap()
            .len(),
        3
    );
    // u32::MAX bps around 100: up to 100 + 100 × 429496.7295.
    let wide = PriceGuard::against(PriceReference::new(d("100")).unwrap(), u32::MAX);
    let far = vec![rate("in", "42949772.95"), rate("out", "42949772.96")];
    let selection = request.with_price_guard(&wide).select(&far);
    assert_eq!(selection.routes()[0].rate().id().as_str(), "in");
    assert_eq!(selection.rejected()[0].reason().code(), "PRICE_OUTLIER");
}

#[test]
fn zero_rates_and_no_valid_rate_answer_as_without_a_guard() {
    let request = RouteRequest::exact_in(amount("1"), now());
    let guard = PriceGuard::median(100);
    let none: Vec<Rate> = Vec::new();
    assert_eq!(
        request.with_price_guard(&guard).best(&none).unwrap_err(),
        request.best(&none).unwrap_err()
    );
    let expired = vec![btc_eth_rate(
        "x",
        "10",
        "0",
        "0.001",
        "8",
        EpochMillis::new(NOW),
    )];
    let error = request.with_price_guard(&guard).best(&expired).unwrap_err();
    // Its only rate expired at NOW: the error says when (issue 42).
    assert_eq!(
        error,
        NoRoute::AllExpired {
            latest_expiry: EpochMillis::new(NOW)
        }
    );
    assert_eq!(
        error.to_string(),
        "every rate has expired; the last expired at 1785000000000 ms since the epoch"
    );
}

#[test]
fn extreme_multipliers_never_panic_and_the_deviation_may_be_past_decimal() {
    // No fee, so that every rate serves some amount and votes (ruling 42):
    // "tiny" pays 8 × 10^-28 at 8 BTC (with the fee of `rate`, 0.0002, it
    // could pay nothing and would have no vote).
    let free = |id: &str, m: &str| btc_eth_rate(id, m, "0", "0.001", "8", EpochMillis::new(LATER));
    let rates = vec![
        free("tiny", "0.0000000000000000000000000001"),
        free("huge", "79228162514264337593543950335"),
        free("mid", "1"),
    ];
    let request = RouteRequest::exact_in(amount("0.001"), now());
    let guard = PriceGuard::median(10_000);
    let selection = request.with_price_guard(&guard).select(&rates);
    // The median is 1; "tiny" is 9999.99… bps below (in at 10000), "huge" is out
    // and its deviation (7.9e32 bps) has no Decimal.
    let huge = selection
        .rejected()
        .iter()
        .find(|r| r.rate().id().as_str() == "huge")
        .unwrap();
    let (_, reference, deviation, _) = outlier(huge.reason());
    assert_eq!((reference.as_str(), deviation), ("1", None));
    assert!(huge.reason().to_string().contains("more than 10^26 bps"));
}

#[test]
fn a_fixed_plan_selects_among_the_rates_the_guard_admits() {
    use swaproute::order::{FixedOrderRequest, OrderContext};
    use swaproute::screening::ScreeningPolicy;
    let rates = vec![rate("a", "33.1"), rate("liar", "900000")];
    let request: FixedOrderRequest = serde_json::from_value(json!({
        "pairId": "BTC_ETH", "fromAmount": "0.5", "fromAddress": null, "toAmount": "16.5",
        "toAddress": "0x52908400098527886E0F7030069857D2E4169EE7"
    }))
    .unwrap();
    let policy = ScreeningPolicy::new();
    let context = OrderContext::new(now(), &policy);
    assert_eq!(
        request.plan(&rates, &context).unwrap().rate_id().as_str(),
        "liar"
    );
    let guard = PriceGuard::against(PriceReference::new(d("33")).unwrap(), 50);
    let guarded = context.with_price_guard(&guard);
    assert_eq!(
        request.plan(&rates, &guarded).unwrap().rate_id().as_str(),
        "a"
    );
    // With only the liar left: PRICE_OUTLIER, 502.
    let error = request.plan(&rates[1..], &guarded).unwrap_err();
    assert_eq!(error.code(), ErrorCode::PriceOutlier);
    let selection = RouteRequest::exact_in(amount("0.5"), now())
        .with_price_guard(&guard)
        .select(&rates);
    let json = serde_json::to_value(&selection).unwrap();
    assert_eq!(json["rejected"][0]["reason"], json!("PRICE_OUTLIER"));
    assert_eq!(json["rejected"][0]["reference"], json!("33"));
}

// ---------------------------------------------------------------------------
// The property: guarded = unguarded over what the oracle admits.
// ---------------------------------------------------------------------------

/// `value` as `mantissa / 10^scale` in big integers at `scale`.
fn at(value: Decimal, scale: u32) -> BigInt {
    BigInt::from(value.mantissa()) * BigInt::from(10u8).pow(scale - value.scale())
}

/// The oracle's median of the valid, unexpired multipliers, as the pair
/// (lower, upper); the value is their mean.
fn oracle_median(rates: &[Rate]) -> Option<(Decimal, Decimal)> {
    let mut ms: Vec<Decimal> = rates
        .iter()
        .filter(|r| r.defect().is_none() && !r.is_expired_at(now()))
        .map(Rate::multiplier)
        .collect();
    ms.sort();
    let n = ms.len();
    if n == 0 {
        return None;
    }
    Some(if n % 2 == 1 {
        (ms[n / 2], ms[n / 2])
    } else {
        (ms[n / 2 - 1], ms[n / 2])
    })
}

/// `|m − (lo + hi) / 2| × 10000 > bps × (lo + hi) / 2`, in big integers.
fn oracle_outlier(m: Decimal, (lo, hi): (Decimal, Decimal), bps: u32) -> bool {
    let s = m.scale().max(lo.scale()).max(hi.scale());
    let sum = at(lo, s) + at(hi, s);
    let gap = (at(m, s) * 2u8 - &sum).magnitude().clone();
    BigInt::from(gap) * 10_000u32 > sum * bps
}

fn multiplier() -> BoxedStrategy<String> {
    prop_oneof![
        // Around 33, a few basis points to a few percent apart.
        8 => (3_000_000u64..3_700_000).prop_map(|m| format!("{}.{:05}", m / 100_000, m % 100_000)),
        // Absurd ones.
        1 => (1u64..1_000_000_000).prop_map(|m| m.to_string()),
        1 => (1u64..1_000).prop_map(|m| format!("0.{m:04}")),
    ]
    .boxed()
}

proptest! {
    #[test]
    fn the_guarded_ranking_is_the_unguarded_ranking_of_what_the_oracle_admits(
        ms in proptest::collection::vec(multiplier(), 0..12),
        expired in proptest::collection::vec(any::<bool>(), 12),
        bps in prop_oneof![Just(0u32), 0u32..2_000, Just(u32::MAX)],
        given in proptest::option::of(multiplier()),
        x in prop_oneof![Just("0.5"), Just("0.0001"), Just("3")],
    ) {
        let rates: Vec<Rate> = ms
            .iter()
            .enumerate()
            .map(|(i, m)| {
                let expiry = if expired[i] && i % 3 == 0 { NOW } else { LATER };
                btc_eth_rate(&format!("r{i:02}"), m, "0.0002", "0.001", "8", EpochMillis::new(expiry))
            })
            .collect();
        let request = RouteRequest::exact_in(amount(x), now());
        let (guard, reference) = match &given {
            Some(m) => (
                PriceGuard::against(PriceReference::new(d(m)).unwrap(), bps),
                Some((d(m), d(m))),
            ),
            None => (PriceGuard::median(bps), oracle_median(&rates)),
        };
        let admitted: Vec<Rate> = rates
            .iter()
            .filter(|r| reference.is_none_or(|rf| !oracle_outlier(r.multiplier(), rf, bps)))
            .cloned()
            .collect();
        let guarded = request.with_price_guard(&guard);
        let ids = |routes: &[swaproute::Route<'_>]| -> Vec<String> {
            routes.iter().map(|r| r.rate().id().as_str().to_owned()).collect()
        };
        let with = guarded.select(&rates);
        let without_outliers = request.select(&admitted);
        prop_assert_eq!(ids(with.routes()), ids(without_outliers.routes()));
        let best = guarded.best(&rates).ok().map(|r| r.rate().id().as_str().to_owned());
        prop_assert_eq!(best, without_outliers.routes().first().map(|r| r.rate().id().as_str().to_owned()));
        let top = guarded.top(&rates, 3).map(|t| ids(&t)).unwrap_or_default();
        prop_assert_eq!(top, ids(without_outliers.routes()).into_iter().take(3).collect::<Vec<_>>());
        // Every outlier the guard reports is one the oracle refuses.
        for rejection in with.rejected() {
            if rejection.reason().code() == "PRICE_OUTLIER" {
                prop_assert!(!admitted.iter().any(|r| r.id() == rejection.rate().id()));
            }
        }
        // A guard wide enough for every rate changes nothing; nor does none.
        let everything = PriceGuard::against(PriceReference::new(d("1")).unwrap(), u32::MAX);
        let unguarded = request.select(&rates);
        if rates.iter().all(|r| r.multiplier() <= d("429497")) {
            prop_assert_eq!(
                ids(request.with_price_guard(&everything).select(&rates).routes()),
                ids(unguarded.routes())
            );
        }
        // Without a guard the ranking is the rules' own: net = x × m − fee
        // (exact here), highest first, then the id (every fee is equal).
        let x_dec = d(x);
        let mut oracle: Vec<(Decimal, String)> = rates
            .iter()
            .filter(|r| !r.is_expired_at(now()) && r.min() <= x_dec && x_dec <= r.max())
            .map(|r| (x_dec * r.multiplier() - r.miner_fee(), r.id().as_str().to_owned()))
            .filter(|(net, _)| *net > Decimal::ZERO)
            .collect();
        oracle.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
        let oracle: Vec<String> = oracle.into_iter().map(|(_, id)| id).collect();
        prop_assert_eq!(ids(unguarded.routes()), oracle.clone());
        prop_assert_eq!(
            request.best(&rates).ok().map(|r| r.rate().id().as_str().to_owned()),
            oracle.first().cloned()
        );
    }
}
