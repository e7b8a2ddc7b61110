//! Selection speed against its own floor and baselines, on the same data.
//!
//! Group `select`, one `BenchmarkId::new(FUNCTION, N)` per function and size:
//! - `floor`: checked mul + sub + keep the max over all rates, no filtering;
//! - `top1`, `top5`, `all`: the engine's best, top-k and full ranking of a
//!   `RatesResponse` (`top1_slice`: `best` on the same rates as a plain slice,
//!   which the engine checks for one pair at every call)
//!   (`top5` is the allocation-free `top_n::<5>`; `top5_vec` is `top(rates, 5)`,
//!   the same plus the returned `Vec`; `top5_into` is `top_n_into`, which
//!   refills one `TopN` the bench holds);
//! - `top5_best_first`: `top5` on the same rates in ranking order, as a
//!   `RatesResponse` too (five insertions instead of about `5 × (1 +
//!   ln(eligible / 5))`, and the fewest records the float filter lets it
//!   read: what keeping five costs over keeping one, measured apart from the
//!   input order);
//! - `naive_sort`: filter, collect, sort by the ranking key, take the first;
//! - `f64_top1`: the same selection in `f64` (the float baseline, inexact);
//! - `exact_out_top1`: ExactOut selection at an estimate;
//! - `book_query`: the best route from a [`RateBook`] prepared once from the rates;
//! - `book_query_adversarial`: the same on the book's worst case, data where
//!   every rate but the 8 lowest multipliers refuses the amount (a scan in
//!   multiplier order with an early stop would read them all);
//! - `feasible`, `feasible_exact_out`: building the amounts that work
//!   (ruling 38) in ExactIn / ExactOut: per rate a few exact checks, then a
//!   sort and a merge (`O(n log n)`);
//! - `feasible_max_within`, `feasible_best_within`: one balance query on the
//!   built answer (`max_within` one binary search; `best_within` one binary
//!   search and one ranking at the balance);
//! - `top1_below_min`: `top1` at 1e-8, below every min: "no route", which
//!   now also names the smallest amount that works (ruling 38's ruling 10);
//! - `int_floor`: the measured floor of the exact ranking (issue 35): a
//!   plain loop over 40-byte integer records built here (expiry, flags,
//!   multiplier mantissa, fee mantissa, the limits' high words, scales), the
//!   same integer checks and key as the engine's fast path, keeping the
//!   largest key; no collector, no fallback, no route built.
//!
//! Group `rotated` (issue 35, the cold case): `top1`, `exact_out_top1` and
//! `f64_top1` at N in {512, 4096, 65536}, each call on the next of 16
//! different responses of N rates (16 × 4096 rates are about 25 MB: what a
//! server ranking many pairs sees), in the same run as group `select` (the
//! hot case: one response ranked again and again).
#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::float_arithmetic
)]
#![allow(
    clippy::arithmetic_side_effects,
    clippy::cast_precision_loss,
    clippy::cast_possible_truncation
)]
#![allow(clippy::cast_sign_loss, clippy::float_cmp, clippy::too_many_lines)]
#![allow(clippy::cast_possible_wrap)]

use std::hint::black_box;

mod common;
use common::SplitMix;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use swaproute::route::{FeasibleQuery, RateBook, Rejection, RouteRequest};
use swaproute::{
    Amount, CampaignLimits, Decimal, EpochMillis, PairId, Rate, RateId, RateTerms, RatesResponse,
    Route, SwapMode,
};

const SIZES: [usize; 5] = [8, 64, 512, 4096, 65_536];
const NOW: EpochMillis = EpochMillis::new(1_785_000_000_000);

/// A decimal with `digits` significant digits and magnitude about `10^exp`.
fn decimal(rng: &mut SplitMix, digits: u32, exp: i32) -> Decimal {
    let mantissa = rng.significand(digits);
    let scale = (i32::try_from(digits).unwrap() - 1 - exp).clamp(0, 28) as u32;
    Decimal::from_i128_with_scale(i128::from(mantissa), scale)
}

/// Realistic random rates: multipliers 1e-6..1e5 with 8-17 significant digits,
/// small fees, limits that let about 70% of them accept the amount 1.
/// `n` rates of one pair with unique ids, as a response: what the engine's
/// callers hold (a decoded `GET …/rates`), checked once when built.
fn rates(n: usize) -> RatesResponse {
    RatesResponse::try_from(rate_vec(n)).unwrap()
}

fn rate_vec(n: usize) -> Vec<Rate> {
    rate_vec_seeded(n, 0x5EED_0000 + n as u64)
}

fn rate_vec_seeded(n: usize, seed: u64) -> Vec<Rate> {
    let mut rng = SplitMix(seed);
    let pair = PairId::new("BTC_ETH").unwrap();
    let base_exp = i32::try_from(rng.below(12)).unwrap() - 6;
    (0..n)
        .map(|i| {
            let digits = 8 + u32::try_from(rng.below(10)).unwrap();
            let multiplier = decimal(&mut rng, digits, base_exp.clamp(-6, 4));
            let miner_fee = decimal(&mut rng, 4, base_exp - 4);
            let accepts = rng.below(10) < 7;
            let (min, max) = if accepts {
                (decimal(&mut rng, 3, -3), decimal(&mut rng, 3, 1))
            } else if rng.below(2) == 0 {
                (decimal(&mut rng, 3, 1), decimal(&mut rng, 3, 2))
            } else {
                (decimal(&mut rng, 3, -4), decimal(&mut rng, 3, -2))
            };
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
            .with_exact_out(true)
        })
        .collect()
}

/// The same rates, except that all but the 8 lowest multipliers refuse the
/// amount 1 (their limits are [2, 20]): the highest multipliers refuse.
fn adversarial(data: &[Rate]) -> Vec<Rate> {
    let mut order: Vec<usize> = (0..data.len()).collect();
    order.sort_by_key(|&i| data[i].multiplier());
    let mut refuses = vec![true; data.len()];
    for &i in order.iter().take(8) {
        refuses[i] = false;
    }
    data.iter()
        .zip(refuses)
        .map(|(r, refuses)| {
            let (min, max) = if refuses {
                (Decimal::TWO, Decimal::from(20))
            } else {
                (Decimal::new(1, 3), Decimal::TEN)
            };
            Rate::new(
                r.id().clone(),
                r.pair_id().clone(),
                RateTerms {
                    multiplier: r.multiplier(),
                    miner_fee: r.miner_fee(),
                    min,
                    max,
                },
                r.expiry(),
            )
        })
        .collect()
}

/// The same rates in ranking order (eligible best first, then the rejected
/// ones in input order): `top5` on them keeps five keys with five
/// insertions, where the random order needs about `5 × (1 + ln(eligible / 5))`.
fn best_first(data: &[Rate], request: &RouteRequest<'_>) -> Vec<Rate> {
    // Every rate is ranked or rejected exactly once.
    let selection = request.select(data);
    let ranked = selection.routes().iter().map(Route::rate);
    let rejected = selection.rejected().iter().map(Rejection::rate);
    ranked.chain(rejected).cloned().collect()
}

/// The `f64` copy of the data, for the float baseline.
struct FloatRate {
    multiplier: f64,
    fee: f64,
    min: f64,
    max: f64,
    expiry: u64,
}

fn floats(rates: &[Rate]) -> Vec<FloatRate> {
    rates
        .iter()
        .map(|r| FloatRate {
            multiplier: r.multiplier().to_string().parse().unwrap(),
            fee: r.miner_fee().to_string().parse().unwrap(),
            min: r.min().to_string().parse().unwrap(),
            max: r.max().to_string().parse().unwrap(),
            expiry: r.expiry().as_millis(),
        })
        .collect()
}

/// The integer record of the `int_floor` bench: the fields the exact fast
/// path reads, 40 bytes, built here from the public accessors.
#[derive(Clone, Copy)]
struct IntRate {
    /// `expiry << 16 | mscale << 8 | fscale`.
    word: u64,
    multiplier: u64,
    fee: u64,
    /// `min × 10^28 >> 62`.
    min_hi: u64,
    /// `max × 10^28 >> 62`.
    max_hi: u64,
}

const POW10: [u128; 39] = {
    let mut t = [1u128; 39];
    let mut i = 1;
    while i < 39 {
        t[i] = t[i - 1] * 10;
        i += 1;
    }
    t
};

/// `X × M` must stay below this at shift `t`: `min(2^96, 2^126 / 10^t)`.
const XM_LIMIT: [u128; 39] = {
    let mut t = [0u128; 39];
    let mut i = 0;
    while i < 29 {
        let by_room = (1u128 << 126) / POW10[i];
        t[i] = if by_room < (1 << 96) {
            by_room
        } else {
            1 << 96
        };
        i += 1;
    }
    t
};

fn at28(d: Decimal) -> Option<u128> {
    let m = u128::try_from(d.mantissa()).ok()?;
    m.checked_mul(POW10[28 - d.scale() as usize])
}

fn int_rates(rates: &[Rate]) -> Vec<IntRate> {
    rates
        .iter()
        .map(|r| {
            let m = r.multiplier();
            let f = r.miner_fee();
            let hi = |v: Option<u128>| {
                v.map_or(u64::MAX, |v| u64::try_from(v >> 62).unwrap_or(u64::MAX))
            };
            let (min, max) = (hi(at28(r.min())), hi(at28(r.max())));
            IntRate {
                word: (r.expiry().as_millis() << 16)
                    | (u64::from(m.scale()) << 8)
                    | u64::from(f.scale()),
                multiplier: u64::try_from(m.mantissa()).unwrap_or(0),
                fee: u64::try_from(f.mantissa()).unwrap_or(0),
                min_hi: min,
                max_hi: max,
            }
        })
        .collect()
}

/// The floor loop: the engine's checks and key on `IntRate`s, nothing else.
fn int_top1(data: &[IntRate], x: u64, xscale: u32, now: u64) -> Option<(i128, usize)> {
    let x28 = u128::from(x) * POW10[28 - xscale as usize];
    let x_hi = (x28 >> 62) as u64;
    let room = 28 - xscale;
    let mut best: Option<(i128, usize)> = None;
    let mut floor = i128::MIN;
    for (i, r) in data.iter().enumerate() {
        // Equal high words would need the full limits: the floor skips them.
        if r.word >> 16 <= now || x_hi <= r.min_hi || x_hi >= r.max_hi {
            continue;
        }
        let mscale = ((r.word >> 8) & 31) as u32;
        let fscale = (r.word & 31) as u32;
        let Some(t) = room.checked_sub(mscale) else {
            continue;
        };
        let xm = u128::from(x) * u128::from(r.multiplier);
        let fee28 = u128::from(r.fee) * POW10[(28 - fscale) as usize];
        if xm >= XM_LIMIT[t as usize] || fee28 >= (1u128 << 96) {
            continue;
        }
        let net = (xm * POW10[t as usize]) as i128 - fee28 as i128;
        if net > floor {
            floor = net;
            best = Some((net, i));
        }
    }
    best
}

/// `n` rates of a response other than `rates(n)`'s (seed `k`).
fn rates_k(n: usize, k: u64) -> RatesResponse {
    let mut data = rate_vec_seeded(n, 0x5EED_0000 + n as u64 + (k << 32));
    data.shrink_to_fit();
    RatesResponse::try_from(data).unwrap()
}

/// Group `rotated`: each call ranks the next of 16 different responses.
fn bench_rotated(c: &mut Criterion) {
    const RESPONSES: usize = 16;
    let amount: Amount = "1".parse().unwrap();
    let exact_in = RouteRequest::exact_in(amount, NOW);
    let mut group = c.benchmark_group("rotated");
    for n in [512, 4096, 65_536] {
        let sets: Vec<RatesResponse> = (0..RESPONSES as u64).map(|k| rates_k(n, k)).collect();
        let float_sets: Vec<Vec<FloatRate>> = sets.iter().map(|s| floats(s)).collect();
        let outs: Vec<RouteRequest<'static>> = sets
            .iter()
            .map(|data| {
                let to_amount = exact_in.best(data).map_or(Decimal::ONE, |r| r.net_output());
                swaproute::route::estimate_exact_out(data, Amount::new(to_amount).unwrap(), NOW)
                    .map_or(RouteRequest::exact_out(amount, amount, NOW), |e| {
                        e.request(Amount::new(to_amount).unwrap(), NOW)
                    })
            })
            .collect();
        group.throughput(Throughput::Elements(n as u64));
        group.bench_function(BenchmarkId::new("top1", n), |b| {
            let mut i = 0usize;
            b.iter(|| {
                i = (i + 1) % RESPONSES;
                black_box(&exact_in)
                    .best(&sets[i])
                    .ok()
                    .map(|r| r.net_output())
            });
        });
        group.bench_function(BenchmarkId::new("exact_out_top1", n), |b| {
            let mut i = 0usize;
            b.iter(|| {
                i = (i + 1) % RESPONSES;
                black_box(&outs[i])
                    .best(&sets[i])
                    .ok()
                    .map(|r| r.required_input())
            });
        });
        group.bench_function(BenchmarkId::new("f64_top1", n), |b| {
            let mut i = 0usize;
            b.iter(|| {
                i = (i + 1) % RESPONSES;
                f64_top1(&float_sets[i])
            });
        });
    }
    group.finish();
}

/// The float baseline's loop (inexact).
#[inline(never)]
fn f64_top1(data: &[FloatRate]) -> Option<(f64, f64, usize)> {
    let x = black_box(1.0_f64);
    let now = black_box(NOW.as_millis());
    let mut best: Option<(f64, f64, usize)> = None;
    for (i, r) in data.iter().enumerate() {
        if r.multiplier <= 0.0 || r.fee < 0.0 || r.min < 0.0 || r.min > r.max || r.expiry <= now {
            continue;
        }
        if x < r.min || x > r.max {
            continue;
        }
        let net = x * r.multiplier - r.fee;
        if net <= 0.0 {
            continue;
        }
        if best.is_none_or(|(bn, bf, _)| net > bn || (net == bn && r.fee < bf)) {
            best = Some((net, r.fee, i));
        }
    }
    best
}

fn bench_select(c: &mut Criterion) {
    let amount: Amount = "1".parse().unwrap();
    let exact_in = RouteRequest::exact_in(amount, NOW);
    let mut group = c.benchmark_group("select");
    for n in SIZES {
        let data = rates(n);
        let float_data = floats(&data);
        let to_amount = exact_in
            .best(&data)
            .map_or(Decimal::ONE, |r| r.net_output());
        let estimate =
            swaproute::route::estimate_exact_out(&data, Amount::new(to_amount).unwrap(), NOW);
        let exact_out = estimate.map_or(RouteRequest::exact_out(amount, amount, NOW), |e| {
            e.request(Amount::new(to_amount).unwrap(), NOW)
        });
        group.throughput(Throughput::Elements(n as u64));

        group.bench_with_input(BenchmarkId::new("floor", n), &data, |b, data| {
            b.iter(|| {
                let x = black_box(amount.get());
                let mut best = Decimal::MIN;
                for rate in data {
                    if let Some(net) = x
                        .checked_mul(rate.multiplier())
                        .and_then(|p| p.checked_sub(rate.miner_fee()))
                    {
                        if net > best {
                            best = net;
                        }
                    }
                }
                best
            });
        });
        group.bench_with_input(BenchmarkId::new("top1", n), &data, |b, data| {
            b.iter(|| black_box(&exact_in).best(data).ok().map(|r| r.net_output()));
        });
        group.bench_with_input(
            BenchmarkId::new("top1_slice", n),
            data.rates(),
            |b, data| {
                b.iter(|| black_box(&exact_in).best(data).map(|r| r.net_output()));
            },
        );
        group.bench_with_input(BenchmarkId::new("top5", n), &data, |b, data| {
            b.iter(|| {
                black_box(&exact_in).top_n::<5>(data).ok().map(|top| {
                    // Read every route, as a caller that asked for five does.
                    for route in &top {
                        black_box(route.net_output());
                    }
                    top.len()
                })
            });
        });
        group.bench_with_input(BenchmarkId::new("top5_into", n), &data, |b, data| {
            let mut top = swaproute::TopN::<5>::new();
            b.iter(|| {
                black_box(&exact_in).top_n_into(data, &mut top).map(|()| {
                    for route in &top {
                        black_box(route.net_output());
                    }
                    top.len()
                })
            });
        });
        // A response, as `data` is: the same compact layout and kernel.
        let ranked = RatesResponse::try_from(best_first(&data, &exact_in)).unwrap();
        assert_eq!(ranked.len(), data.len());
        assert_eq!(
            exact_in
                .top_n::<5>(&ranked)
                .unwrap()
                .iter()
                .collect::<Vec<_>>(),
            exact_in
                .top_n::<5>(&data)
                .unwrap()
                .iter()
                .collect::<Vec<_>>()
        );
        group.bench_with_input(
            BenchmarkId::new("top5_best_first", n),
            &ranked,
            |b, data| {
                b.iter(|| {
                    black_box(&exact_in).top_n::<5>(data).ok().map(|top| {
                        for route in &top {
                            black_box(route.net_output());
                        }
                        top.len()
                    })
                });
            },
        );
        group.bench_with_input(BenchmarkId::new("top5_vec", n), &data, |b, data| {
            b.iter(|| {
                black_box(&exact_in).top(data, 5).map(|top| {
                    // Read every route, as a caller that asked for five does.
                    for route in &top {
                        black_box(route.net_output());
                    }
                    top.len()
                })
            });
        });
        group.bench_with_input(BenchmarkId::new("all", n), &data, |b, data| {
            b.iter(|| black_box(&exact_in).select(data).routes().len());
        });
        group.bench_with_input(BenchmarkId::new("naive_sort", n), &data, |b, data| {
            b.iter(|| {
                let x = black_box(amount.get());
                let mut eligible: Vec<(Decimal, &Rate)> = data
                    .iter()
                    .filter(|r| {
                        r.defect().is_none()
                            && !r.is_expired_at(NOW)
                            && r.min() <= x
                            && x <= r.max()
                    })
                    .filter_map(|r| {
                        Some((
                            x.checked_mul(r.multiplier())?.checked_sub(r.miner_fee())?,
                            r,
                        ))
                    })
                    .filter(|(net, _)| *net > Decimal::ZERO)
                    .collect();
                eligible.sort_by(|a, b| {
                    b.0.cmp(&a.0)
                        .then_with(|| a.1.miner_fee().cmp(&b.1.miner_fee()))
                        .then_with(|| a.1.is_sponsored().cmp(&b.1.is_sponsored()))
                        .then_with(|| a.1.id().cmp(b.1.id()))
                });
                eligible.first().map(|(net, _)| *net)
            });
        });
        group.bench_with_input(BenchmarkId::new("f64_top1", n), &float_data, |b, data| {
            b.iter(|| f64_top1(data));
        });
        let int_data = int_rates(&data);
        let (x, xscale) = (amount.get().mantissa() as u64, amount.get().scale());
        assert_eq!(
            int_top1(&int_data, x, xscale, NOW.as_millis()).map(|(_, i)| data[i].id()),
            exact_in.best(&data).ok().map(|r| r.rate().id())
        );
        group.bench_with_input(BenchmarkId::new("int_floor", n), &int_data, |b, data| {
            b.iter(|| {
                int_top1(
                    black_box(data),
                    black_box(x),
                    xscale,
                    black_box(NOW.as_millis()),
                )
            });
        });
        group.bench_with_input(BenchmarkId::new("exact_out_top1", n), &data, |b, data| {
            b.iter(|| {
                black_box(&exact_out)
                    .best(data)
                    .ok()
                    .map(|r| r.required_input())
            });
        });
        let book = RateBook::new(&data, &CampaignLimits::new(), NOW);
        assert_eq!(book.best(amount, NOW), exact_in.best(&data));
        group.bench_with_input(BenchmarkId::new("book_query", n), &book, |b, book| {
            b.iter(|| {
                book.best(black_box(amount), NOW)
                    .ok()
                    .map(|r| r.net_output())
            });
        });
        let worst = adversarial(&data);
        let book = RateBook::new(&worst, &CampaignLimits::new(), NOW);
        assert_eq!(book.best(amount, NOW), exact_in.best(&worst));
        group.bench_with_input(
            BenchmarkId::new("book_query_adversarial", n),
            &book,
            |b, book| {
                b.iter(|| {
                    book.best(black_box(amount), NOW)
                        .ok()
                        .map(|r| r.net_output())
                });
            },
        );
        let tiny = RouteRequest::exact_in("0.00000001".parse().unwrap(), NOW);
        assert!(tiny.best(&data).is_err());
        group.bench_with_input(BenchmarkId::new("top1_below_min", n), &data, |b, data| {
            b.iter(|| black_box(&tiny).best(data).map(|r| r.net_output()));
        });
        let query_in = FeasibleQuery::new(SwapMode::ExactIn, NOW);
        let query_out = FeasibleQuery::new(SwapMode::ExactOut, NOW);
        group.bench_with_input(BenchmarkId::new("feasible", n), &data, |b, data| {
            b.iter(|| black_box(&query_in).amounts(data).map(|f| f.ranges().len()));
        });
        group.bench_with_input(
            BenchmarkId::new("feasible_exact_out", n),
            &data,
            |b, data| {
                b.iter(|| {
                    black_box(&query_out)
                        .amounts(data)
                        .map(|f| f.ranges().len())
                });
            },
        );
        let feasible = query_in.amounts(&data).unwrap();
        group.bench_with_input(
            BenchmarkId::new("feasible_max_within", n),
            &feasible,
            |b, feasible| {
                b.iter(|| feasible.max_within(black_box(amount)).map(|s| s.amount()));
            },
        );
        group.bench_with_input(
            BenchmarkId::new("feasible_best_within", n),
            &feasible,
            |b, feasible| {
                b.iter(|| feasible.best_within(black_box(amount)).map(|s| s.amount()));
            },
        );
    }
    group.finish();
}

criterion_group!(benches, bench_select, bench_rotated);
criterion_main!(benches);
