//! Chained routes against the linear floor, on the same data.
//!
//! Group `chain`, `BenchmarkId::new(FUNCTION, "K/N")` for K intermediate
//! assets and N rates per pair (2K + 1 pairs: SRC→Mi and Mi→DST for each of
//! the K intermediates, and SRC→DST directly):
//! - `best2`: `ChainRequest::best` (ExactIn, at most 2 legs) on a `Market`
//!   prepared once (building it is not timed);
//! - `scan_all`: the single-pair engine's `best` over every pair's rates,
//!   one after the other: what reading every rate once costs (the floor a
//!   search without preparation could not go below);
//! - `best2_out`: the same search in ExactOut;
//! - `no_route`: `best` on the same markets with every last leg refusing
//!   (every rate of SRC→DST and of each Mi→DST asks for a min out of reach):
//!   "no route" decided leg by leg (ruling 36), to compare with `best2` at
//!   the same K and N.
#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap,
    clippy::cast_sign_loss,
    clippy::cast_precision_loss,
    clippy::float_arithmetic
)]

use std::hint::black_box;

mod common;
use common::SplitMix;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use swaproute::route::chain::{ChainRequest, Market};
use swaproute::route::RouteRequest;
use swaproute::{
    Amount, AssetId, CampaignLimits, Decimal, EpochMillis, PairId, Rate, RateId, RateTerms,
    RatesResponse,
};

const NOW: EpochMillis = EpochMillis::new(1_785_000_000_000);

/// `n` rates of `pair` around `center` (a multiplier), 8-15 significant
/// digits, small fees, limits that let about 70% accept amounts near `around`.
fn pair_rates(rng: &mut SplitMix, pair: &str, n: usize, center: f64, around: f64) -> RatesResponse {
    pair_rates_refusing(rng, pair, n, center, around, false)
}

/// [`pair_rates`], or with every rate's min 10^6 times `around` (`refuse`).
fn pair_rates_refusing(
    rng: &mut SplitMix,
    pair: &str,
    n: usize,
    center: f64,
    around: f64,
    refuse: bool,
) -> RatesResponse {
    let pair_id = PairId::new(pair).unwrap();
    let rates: Vec<Rate> = (0..n)
        .map(|i| {
            let digits = 8 + rng.below(8) as u32;
            // center × (0.9 .. 1.1), written with `digits` significant digits.
            let spread = 0.9 + 0.2 * (rng.below(1_000_000) as f64 / 1_000_000.0);
            let value = center * spread;
            let exponent = value.log10().floor() as i32;
            let scale = (digits as i32 - 1 - exponent).clamp(0, 20) as u32;
            let mantissa = (value * 10f64.powi(scale as i32)) as i64;
            let multiplier = Decimal::new(mantissa.max(1), scale);
            let fee =
                Decimal::new(rng.significand(3) as i64, 9) * Decimal::try_from(center).unwrap();
            let accepts = rng.below(10) < 7;
            let (min, max) = if refuse {
                (
                    Decimal::try_from(around * 1e6).unwrap(),
                    Decimal::try_from(around * 1e7).unwrap(),
                )
            } else if accepts {
                (
                    Decimal::try_from(around / 1000.0).unwrap(),
                    Decimal::try_from(around * 100.0).unwrap(),
                )
            } else {
                (
                    Decimal::try_from(around * 10.0).unwrap(),
                    Decimal::try_from(around * 1000.0).unwrap(),
                )
            };
            Rate::new(
                RateId::new(&format!("{pair}-{i:05}")).unwrap(),
                pair_id.clone(),
                RateTerms {
                    multiplier,
                    miner_fee: fee.round_dp(8),
                    min: min.round_dp(8),
                    max: max.round_dp(8),
                },
                EpochMillis::new(4_102_444_800_000),
            )
            .with_exact_out(true)
        })
        .collect();
    RatesResponse::try_from(rates).unwrap()
}

/// The 2K + 1 pairs' responses (every last leg refusing with `refuse`).
fn market_data(k: usize, n: usize, refuse: bool) -> Vec<RatesResponse> {
    let mut rng = SplitMix(0xC4A1_0000 + (k * 1000 + n) as u64);
    let mut out = Vec::with_capacity(2 * k + 1);
    out.push(pair_rates_refusing(
        &mut rng, "SRC_DST", n, 400.0, 1.0, refuse,
    ));
    for i in 0..k {
        let first = 20.0 + i as f64;
        out.push(pair_rates(&mut rng, &format!("SRC_M{i:02}"), n, first, 1.0));
        out.push(pair_rates_refusing(
            &mut rng,
            &format!("M{i:02}_DST"),
            n,
            400.0 / first,
            first,
            refuse,
        ));
    }
    out
}

fn bench_chain(c: &mut Criterion) {
    let mut group = c.benchmark_group("chain");
    let (src, dst) = (AssetId::new("SRC").unwrap(), AssetId::new("DST").unwrap());
    let amount = Amount::new(Decimal::ONE).unwrap();
    for k in [1usize, 8, 64] {
        for n in [8usize, 64, 512] {
            let data = market_data(k, n, false);
            let market = Market::new(data.iter(), &CampaignLimits::new(), NOW).unwrap();
            let id = format!("{k}/{n}");
            let exact_in = ChainRequest::exact_in(src.clone(), dst.clone(), amount, NOW);
            assert!(exact_in.best(&market).is_ok(), "a chain at {id}");
            group.bench_with_input(BenchmarkId::new("best2", &id), &market, |b, market| {
                b.iter(|| {
                    black_box(&exact_in)
                        .best(market)
                        .map(|chain| chain.legs().len())
                });
            });
            let single = RouteRequest::exact_in(amount, NOW);
            group.bench_with_input(BenchmarkId::new("scan_all", &id), &data, |b, data| {
                b.iter(|| {
                    data.iter()
                        .filter_map(|rates| black_box(&single).best(rates).ok())
                        .count()
                });
            });
            let exact_out = ChainRequest::exact_out(
                src.clone(),
                dst.clone(),
                Amount::new(Decimal::new(400, 0)).unwrap(),
                NOW,
            );
            group.bench_with_input(BenchmarkId::new("best2_out", &id), &market, |b, market| {
                b.iter(|| {
                    black_box(&exact_out)
                        .best(market)
                        .map(|chain| chain.legs().len())
                });
            });
            let refusing = market_data(k, n, true);
            let refusing = Market::new(refusing.iter(), &CampaignLimits::new(), NOW).unwrap();
            let error = exact_in.best(&refusing).unwrap_err();
            assert_eq!(error.most_common(), Some("BELOW_MIN"), "no route at {id}");
            group.bench_with_input(BenchmarkId::new("no_route", &id), &refusing, |b, market| {
                b.iter(|| {
                    black_box(&exact_in)
                        .best(market)
                        .map(|chain| chain.legs().len())
                });
            });
        }
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default();
    targets = bench_chain
}
criterion_main!(benches);
