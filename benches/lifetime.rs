//! Decisions have a lifetime (ruling 50): what the schedule of successors
//! costs beside the one answer it extends.
//!
//! Group `lifetime`, one `BenchmarkId::new(FUNCTION, N)` per function and
//! size, on `N` rates of one pair that all accept the amount (multipliers
//! 30-36 with 8-17 digits, small fees), each with its own expiry:
//! - `best`: [`RouteRequest::best`], the answer at `now` (a scan, `O(n)`);
//! - `valid_until`: [`RouteRequest::valid_until`] (the answer and its end);
//! - `schedule`: [`RouteRequest::schedule`] on random expiries (one ranking,
//!   then one walk down it: `O(n log n)`, a few intervals);
//! - `schedule_rising`: the same where every rate outlives the one ranked
//!   above it, so each one leads in turn (`n` intervals, the worst output).
//!
//! Group `lifetime_median` (issue 46), at 256 and 4096 rates, under a
//! median guard of 500 bps (ruling 42: every rate votes, so the median
//! moves at every expiry, and about half the rates are refused at `now`):
//! - `best` and `best_median`: the answer at `now` without and with the
//!   guard (the guard adds the voters' median, `O(n log n)`);
//! - `schedule_median`: the schedule on the random book (one ranking, the
//!   voters' median and the admitted range in `O(log n)` per expiry);
//! - `schedule_median_flip`: `n = 2k + 1` rates whose median flips at
//!   every expiry between the only route's multiplier and a refusing one,
//!   so `k` no-route intervals (each left unexplained until asked: the
//!   schedule stays `O(n log n)`; classifying each while building cost
//!   `O(n²)` here, about 50 s at 4096).
//!
//! `cargo bench --bench lifetime`; docs/PERFORMANCE.md reports the ratios
//! `schedule / best` from one run: `O(log n)` growth, not `O(n)` (which
//! re-ranking at every expiry would cost).
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
use swaproute::route::{PriceGuard, RouteRequest};
use swaproute::{Amount, Decimal, EpochMillis, PairId, Rate, RateId, RateTerms, RatesResponse};

const SIZES: [usize; 5] = [8, 64, 512, 4096, 65_536];
const NOW: EpochMillis = EpochMillis::new(1_785_000_000_000);

/// `n` rates accepting 1 BTC; `rising`: expiries rise as the net output at
/// 1 BTC falls (the best expires first, each next best a little later).
fn rates(n: usize, rising: bool) -> RatesResponse {
    let mut rng = SplitMix(0x11FE_0000 + n as u64);
    let pair = PairId::new("BTC_ETH").unwrap();
    let mut list: Vec<(Decimal, Decimal)> = (0..n)
        .map(|_| {
            let digits = 8 + rng.below(10) as u32;
            let m = i128::from(rng.significand(digits));
            let multiplier = Decimal::from_i128_with_scale(
                30 * 10i128.pow(digits - 2) + m % (6 * 10i128.pow(digits - 2)),
                digits - 2,
            );
            (multiplier, Decimal::new(rng.below(50_000) as i64, 6))
        })
        .collect();
    if rising {
        // In ranking order at 1 BTC (highest net, then the lower fee; the
        // ids below follow the list): the expiries below rise along it.
        list.sort_by(|a, b| (b.0 - b.1).cmp(&(a.0 - a.1)).then(a.1.cmp(&b.1)));
    }
    let list: Vec<Rate> = list
        .into_iter()
        .enumerate()
        .map(|(i, (multiplier, miner_fee))| {
            let expiry = if rising {
                NOW.as_millis() + 1_000 + i as u64
            } else {
                NOW.as_millis() + 1_000 + rng.below(3_600_000)
            };
            Rate::new(
                RateId::new(&format!("rate-{i:06}")).unwrap(),
                pair.clone(),
                RateTerms {
                    multiplier,
                    miner_fee,
                    min: Decimal::new(1, 3),
                    max: Decimal::new(20, 0),
                },
                EpochMillis::new(expiry),
            )
        })
        .collect();
    RatesResponse::try_from(list).unwrap()
}

fn bench_lifetime(c: &mut Criterion) {
    let mut group = c.benchmark_group("lifetime");
    group
        .sample_size(20)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(2));
    let amount: Amount = "1".parse().unwrap();
    let request = RouteRequest::exact_in(amount, NOW);
    for n in SIZES {
        let data = rates(n, false);
        let rising = rates(n, true);
        // The schedule starts with best's answer and, on the rising book,
        // holds one interval per rate.
        let schedule = request.schedule(&data).unwrap();
        let best = request.best(&data).unwrap();
        assert_eq!(schedule.intervals()[0].rate_id(), Some(best.rate().id()));
        assert_eq!(request.schedule(&rising).unwrap().intervals().len(), n);
        group.bench_with_input(BenchmarkId::new("best", n), &data, |b, data| {
            b.iter(|| request.best(black_box(data)).map(|r| r.net_output()));
        });
        group.bench_with_input(BenchmarkId::new("valid_until", n), &data, |b, data| {
            b.iter(|| request.valid_until(black_box(data)));
        });
        group.bench_with_input(BenchmarkId::new("schedule", n), &data, |b, data| {
            b.iter(|| {
                request
                    .schedule(black_box(data))
                    .map(|s| s.intervals().len())
            });
        });
        group.bench_with_input(
            BenchmarkId::new("schedule_rising", n),
            &rising,
            |b, data| {
                b.iter(|| {
                    request
                        .schedule(black_box(data))
                        .map(|s| s.intervals().len())
                });
            },
        );
    }
    group.finish();
}

/// `2k + 1` rates at 1 BTC: `e` (×100) serves it; `k` voters at ×100 and
/// `k` at ×200 serve 2-10 BTC only, leaving alternately (×100 first), so a
/// median guard of 500 bps flips between admitting `e` and no route.
fn flip_rates(k: usize) -> RatesResponse {
    let pair = PairId::new("BTC_ETH").unwrap();
    let rate = |id: String, multiplier: i64, min: i64, expiry: u64| {
        Rate::new(
            RateId::new(&id).unwrap(),
            pair.clone(),
            RateTerms {
                multiplier: Decimal::new(multiplier, 0),
                miner_fee: Decimal::ZERO,
                min: Decimal::new(min, 1),
                max: Decimal::new(100, 1),
            },
            EpochMillis::new(NOW.as_millis() + expiry),
        )
    };
    let mut list = vec![rate("e".into(), 100, 1, 2 * k as u64 + 10)];
    for i in 0..k as u64 {
        list.push(rate(format!("lo-{i:06}"), 100, 20, 2 * i + 1));
        list.push(rate(format!("hi-{i:06}"), 200, 20, 2 * i + 2));
    }
    RatesResponse::try_from(list).unwrap()
}

fn bench_median(c: &mut Criterion) {
    let mut group = c.benchmark_group("lifetime_median");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(2));
    let amount: Amount = "1".parse().unwrap();
    let guard = PriceGuard::median(500);
    let plain = RouteRequest::exact_in(amount, NOW);
    let request = plain.with_price_guard(&guard);
    for n in [256usize, 4096] {
        let data = rates(n, false);
        let flip = flip_rates(n / 2);
        let schedule = request.schedule(&data).unwrap();
        let best = request.best(&data).unwrap();
        assert_eq!(schedule.intervals()[0].rate_id(), Some(best.rate().id()));
        group.bench_with_input(BenchmarkId::new("best", n), &data, |b, data| {
            b.iter(|| plain.best(black_box(data)).map(|r| r.net_output()));
        });
        group.bench_with_input(BenchmarkId::new("best_median", n), &data, |b, data| {
            b.iter(|| request.best(black_box(data)).map(|r| r.net_output()));
        });
        group.bench_with_input(BenchmarkId::new("schedule_median", n), &data, |b, data| {
            b.iter(|| {
                request
                    .schedule(black_box(data))
                    .map(|s| s.intervals().len())
            });
        });
        let flips = request.schedule(&flip).unwrap();
        assert_eq!(flips.intervals().len(), n + 1);
        group.bench_with_input(
            BenchmarkId::new("schedule_median_flip", n),
            &flip,
            |b, data| {
                b.iter(|| {
                    request
                        .schedule(black_box(data))
                        .map(|s| s.intervals().len())
                });
            },
        );
    }
    group.finish();
}

criterion_group!(benches, bench_lifetime, bench_median);
criterion_main!(benches);
