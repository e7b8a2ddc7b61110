//! Exact splits (ruling 39) against the single-pair `top1` on the same
//! inputs, in the same run.
//!
//! Group `split`, `BenchmarkId::new(FUNCTION, N)` for N in {8, 64, 512,
//! 4096}:
//! - `top1`: the engine's best route at the amount; every rate's max is
//!   below it, so this is the single pair's "no route" (`AMOUNT_ABOVE_LIMIT`,
//!   with ruling 38's largest working amount);
//! - `split`: `RouteRequest::split` with the default policy on the same
//!   rates and amount: the search over sets of up to 3 rates (no rate's
//!   limits hold the amount, so the single pair is not asked; its "no
//!   route" only if no split served) (docs/PERFORMANCE.md: the target is
//!   `split ≤ 8 × top1`).
//!
//! The rates: BTC_ETH-like multipliers 30-36 with 8-12 significant digits,
//! fees 0.0001-0.01, mins 0.001-0.1 BTC, maxes 0.5-8.33 BTC; the amount is
//! 12 BTC, above every max, which two or three of the largest rates serve.
#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap
)]

use std::hint::black_box;

mod common;
use common::SplitMix;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use swaproute::route::{RouteRequest, SplitPolicy};
use swaproute::{Amount, Decimal, EpochMillis, PairId, Rate, RateId, RateTerms, RatesResponse};

const SIZES: [usize; 4] = [8, 64, 512, 4096];
const NOW: EpochMillis = EpochMillis::new(1_785_000_000_000);

/// `n` rates of one pair, every max below 8.34.
fn rates(n: usize) -> RatesResponse {
    let mut rng = SplitMix(0x5B11_7000 + n as u64);
    let pair = PairId::new("BTC_ETH").unwrap();
    let list: Vec<Rate> = (0..n)
        .map(|i| {
            let digits = 8 + u32::try_from(rng.below(5)).unwrap();
            let significand = i128::from(rng.significand(digits));
            // 30.000… to 35.999…: significand / 10^(digits − 1) × 3, kept exact.
            let m = Decimal::from_i128_with_scale(significand, digits - 1)
                .checked_mul(Decimal::from(3))
                .unwrap()
                .checked_add(Decimal::from(3))
                .unwrap();
            let m = if m > Decimal::from(36) {
                m - Decimal::from(3)
            } else {
                m
            };
            let fee = Decimal::new(1 + rng.below(100) as i64, 4);
            let min = Decimal::new(1 + rng.below(100) as i64, 3);
            let max = Decimal::new(50 + rng.below(784) as i64, 2);
            Rate::new(
                RateId::new(&format!("rate-{i:06}")).unwrap(),
                pair.clone(),
                RateTerms {
                    multiplier: m,
                    miner_fee: fee,
                    min,
                    max,
                },
                EpochMillis::new(4_102_444_800_000),
            )
        })
        .collect();
    RatesResponse::try_from(list).unwrap()
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("split");
    let request = RouteRequest::exact_in("12".parse::<Amount>().unwrap(), NOW);
    let policy = SplitPolicy::DEFAULT;
    for n in SIZES {
        let data = rates(n);
        assert!(
            request.best(&data).is_err(),
            "the amount is above every max"
        );
        let answer = request.split(&data, &policy).unwrap();
        let split = answer.split().unwrap();
        eprintln!(
            "split/{n}: {} legs, bounded {} sets, evaluated {}",
            split.legs().len(),
            split.work().bounded,
            split.work().evaluated
        );
        group.bench_with_input(BenchmarkId::new("top1", n), &data, |b, data| {
            b.iter(|| black_box(request.best(black_box(data)).is_err()));
        });
        group.bench_with_input(BenchmarkId::new("split", n), &data, |b, data| {
            b.iter(|| black_box(request.split(black_box(data), &policy).is_ok()));
        });
    }
    group.finish();
}

/// 4096 rates of BTC_ETH, `id(i)`, with the given numbers.
fn hostile_book(terms: impl Fn(i64) -> (Decimal, Decimal, Decimal, Decimal)) -> RatesResponse {
    let pair = PairId::new("BTC_ETH").unwrap();
    let list: Vec<Rate> = (0..4096i64)
        .map(|i| {
            let (multiplier, miner_fee, min, max) = terms(i);
            Rate::new(
                RateId::new(&format!("r{:04}", 4095 - i)).unwrap(),
                pair.clone(),
                RateTerms {
                    multiplier,
                    miner_fee,
                    min,
                    max,
                },
                EpochMillis::new(4_102_444_800_000),
            )
        })
        .collect();
    RatesResponse::try_from(list).unwrap()
}

/// Group `split_hostile`: books where every set's bound lies within
/// rounding of the best (docs/PERFORMANCE.md, "Splits"): the first walk
/// runs out of work, the dominance pass keeps a few rates, the walk runs
/// again. `staggered` (no set holds the amount) and `staggered_tied` (every
/// triple ties, none dominates) are decided by the walk itself: by the
/// capacity of the rates after each position, and by ruling 39's tie order.
fn hostile(c: &mut Criterion) {
    let mut group = c.benchmark_group("split_hostile");
    group.sample_size(10);
    let d = |units: i64, places: u32| Decimal::new(units, places);
    // ×30, no fee, rate i serving [0.01 + i·10^-8, max + i·10^-8]: none
    // dominates another.
    let staggered = |max_units: i64| {
        hostile_book(|i| (d(30, 0), d(0, 0), d(1_000_000 + i, 8), d(max_units + i, 8)))
    };
    let books: [(&str, &str, RatesResponse); 6] = [
        (
            "copies",
            "10",
            hostile_book(|_| (d(30, 0), d(1, 1), d(1, 2), d(4, 0))),
        ),
        (
            "one_multiplier_nested",
            "7",
            hostile_book(|i| (d(30, 0), d(0, 0), d(1, 2), d(300_000_000 + i, 8))),
        ),
        (
            "twentieth_place",
            "10",
            hostile_book(|i| {
                let m = Decimal::from_i128_with_scale(30 * 10i128.pow(23) + i128::from(i), 23);
                (m, d(1, 1), d(1, 2), d(4, 0))
            }),
        ),
        ("staggered", "10", staggered(300_000_000)),
        ("staggered_tied", "10", staggered(340_000_000)),
        ("staggered_pairs", "7", staggered(350_000_000)),
    ];
    for (name, amount, data) in &books {
        let request = RouteRequest::exact_in(amount.parse::<Amount>().unwrap(), NOW);
        match request.split(data, &SplitPolicy::DEFAULT) {
            Ok(answer) => {
                let split = answer.split().unwrap();
                eprintln!(
                    "split_hostile/{name}: {} legs, bounded {} sets, evaluated {}, reduced to {:?}",
                    split.legs().len(),
                    split.work().bounded,
                    split.work().evaluated,
                    split.work().reduced
                );
            }
            Err(e) => eprintln!("split_hostile/{name}: {e}"),
        }
        group.bench_with_input(BenchmarkId::new("split", name), data, |b, data| {
            b.iter(|| {
                black_box(
                    request
                        .split(black_box(data), &SplitPolicy::DEFAULT)
                        .is_ok(),
                )
            });
        });
    }
    group.finish();
}

/// The ramp book: rate i ×(1 + i·10^-6), fee i·5·10^-6, limits
/// [0, 6]; 10 units are above every max (the best pair: the last rate at
/// 6, the first at 4).
fn ramp_book(n: usize) -> RatesResponse {
    let pair = PairId::new("BTC_ETH").unwrap();
    let list: Vec<Rate> = (0..n as i64)
        .map(|i| {
            Rate::new(
                RateId::new(&format!("r{i:05}")).unwrap(),
                pair.clone(),
                RateTerms {
                    multiplier: Decimal::ONE + Decimal::new(i, 6),
                    miner_fee: Decimal::new(5 * i, 6),
                    min: Decimal::ZERO,
                    max: Decimal::from(6),
                },
                EpochMillis::new(4_102_444_800_000),
            )
        })
        .collect();
    RatesResponse::try_from(list).unwrap()
}

/// Group `split_ramp` (ruling 48): `split` (`RouteRequest::split`, 3 legs)
/// beside `all` (the full selection, `RouteRequest::select`) on the same
/// ramp book and amount, in the same run. Target: `split ≤ 2 × all` at
/// 4096 and 65,536 rates.
fn ramp(c: &mut Criterion) {
    let mut group = c.benchmark_group("split_ramp");
    group.sample_size(10);
    let request = RouteRequest::exact_in("10".parse::<Amount>().unwrap(), NOW);
    for n in [512usize, 4096, 16_384, 65_536] {
        let data = ramp_book(n);
        let answer = request.split(&data, &SplitPolicy::DEFAULT).unwrap();
        let split = answer.split().unwrap();
        eprintln!(
            "split_ramp/{n}: {} legs, bounded {} sets, evaluated {}",
            split.legs().len(),
            split.work().bounded,
            split.work().evaluated
        );
        group.bench_with_input(BenchmarkId::new("all", n), &data, |b, data| {
            b.iter(|| black_box(request.select(black_box(data)).routes().len()));
        });
        group.bench_with_input(BenchmarkId::new("split", n), &data, |b, data| {
            b.iter(|| {
                black_box(
                    request
                        .split(black_box(data), &SplitPolicy::DEFAULT)
                        .is_ok(),
                )
            });
        });
    }
    group.finish();
}

criterion_group!(benches, bench, hostile, ramp);
criterion_main!(benches);
