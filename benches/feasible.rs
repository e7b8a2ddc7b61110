//! Amounts that work (ruling 38): how building and querying grow with N.
//!
//! Group `feasible`, one `BenchmarkId::new(FUNCTION, N)` per function and size,
//! on `N` rates of one pair (multipliers 33 ± 3 with 8-17 digits, small fees,
//! limits spread over 0.001-20 BTC, so that intervals overlap and cross):
//! - `build`: [`FeasibleQuery::amounts`] in ExactIn (`O(n log n)`: a few exact
//!   checks a rate, a sort, a merge, the ranking's upper envelope);
//! - `best_within`, `max_within`: one balance query on the built answer (one
//!   binary search each: `O(log n)`, flat across N);
//! - `best_within_scan`: what `best_within` did before the envelope, the
//!   engine's ranking at the balance (`RouteRequest::best`, a scan: `O(n)`);
//! - `book_build`, `book_best`: a [`RateBook`] prepared from the same rates
//!   and its best route at the balance (`O(log² n)`): the book-backed
//!   alternative for the balance query (docs/PERFORMANCE.md says why the
//!   answer does not use it).
//!
//! `cargo bench --bench feasible`; the ratios between sizes, from one run, are
//! what docs/PERFORMANCE.md reports.
#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap,
    clippy::cast_sign_loss
)]

use std::hint::black_box;
use std::time::Duration;

mod common;
use common::SplitMix;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use swaproute::route::{FeasibleQuery, RateBook, RouteRequest};
use swaproute::{
    Amount, CampaignLimits, Decimal, EpochMillis, PairId, Rate, RateId, RateTerms, RatesResponse,
    SwapMode,
};

const SIZES: [usize; 5] = [8, 64, 512, 4096, 65_536];
const NOW: EpochMillis = EpochMillis::new(1_785_000_000_000);

fn rates(n: usize) -> RatesResponse {
    let mut rng = SplitMix(0xFEA5_0000 + n as u64);
    let pair = PairId::new("BTC_ETH").unwrap();
    let list: Vec<Rate> = (0..n)
        .map(|i| {
            let digits = 8 + rng.below(10) as u32;
            let m = i128::from(rng.significand(digits));
            // 30..36 at `digits − 2` places.
            let multiplier = Decimal::from_i128_with_scale(
                30 * 10i128.pow(digits - 2) + m % (6 * 10i128.pow(digits - 2)),
                digits - 2,
            );
            let miner_fee = Decimal::new(rng.below(50_000) as i64, 6);
            let lo = rng.below(2_000) as i64;
            let min = Decimal::new(lo + 1, 3);
            let max = Decimal::new(lo + 1 + rng.below(20_000) as i64, 3);
            Rate::new(
                RateId::new(&format!("rate-{i:06}")).unwrap(),
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

fn bench_feasible(c: &mut Criterion) {
    let mut group = c.benchmark_group("feasible");
    group
        .sample_size(20)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(2));
    let query = FeasibleQuery::new(SwapMode::ExactIn, NOW);
    // Inside most intervals: the balance is served by many rates at once.
    let balance: Amount = "7.5".parse().unwrap();
    for n in SIZES {
        let data = rates(n);
        group.bench_with_input(BenchmarkId::new("build", n), &data, |b, data| {
            b.iter(|| black_box(&query).amounts(data).map(|f| f.ranges().len()));
        });
        let feasible = query.amounts(&data).unwrap();
        // The query and the scan agree before either is timed.
        let scan = RouteRequest::exact_in(balance, NOW).best(&data).unwrap();
        let best = feasible.best_within(balance).unwrap();
        assert!(best.net_output() >= scan.net_output());
        group.bench_with_input(BenchmarkId::new("best_within", n), &feasible, |b, f| {
            b.iter(|| f.best_within(black_box(balance)).map(|s| s.amount()));
        });
        group.bench_with_input(BenchmarkId::new("max_within", n), &feasible, |b, f| {
            b.iter(|| f.max_within(black_box(balance)).map(|s| s.amount()));
        });
        group.bench_with_input(BenchmarkId::new("best_within_scan", n), &data, |b, data| {
            b.iter(|| {
                RouteRequest::exact_in(black_box(balance), NOW)
                    .best(data)
                    .map(|r| r.net_output())
            });
        });
        let limits = CampaignLimits::new();
        group.bench_with_input(BenchmarkId::new("book_build", n), &data, |b, data| {
            b.iter(|| RateBook::new(black_box(data), &limits, NOW));
        });
        let book = RateBook::new(&data, &limits, NOW);
        assert_eq!(
            book.best(balance, NOW),
            RouteRequest::exact_in(balance, NOW).best(&data)
        );
        group.bench_with_input(BenchmarkId::new("book_best", n), &book, |b, book| {
            b.iter(|| book.best(black_box(balance), NOW).map(|r| r.net_output()));
        });
    }
    group.finish();
}

criterion_group!(benches, bench_feasible);
criterion_main!(benches);
