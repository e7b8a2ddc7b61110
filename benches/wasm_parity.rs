//! The native side of the WebAssembly package's benchmark
//! (`bindings/wasm/bench/rank.mjs` runs this and prints the ratios): the same
//! rates, written as the same JSON text by the same generator, ranked by the
//! same calls.
//!
//! Group `wasm_parity`, sizes 256 and 4096:
//! - `best`: the best route of rates decoded once (the package's `Rates.best`);
//! - `decode_best`: decode the JSON text, then the best route (the package's
//!   `bestRoute(text, request)`).
#![allow(missing_docs, clippy::unwrap_used, clippy::arithmetic_side_effects)]

use std::fmt::Write;
use std::hint::black_box;

#[allow(dead_code)] // `significand` serves the other benches
mod common;
use common::SplitMix;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use swaproute::{Amount, EpochMillis, RatesResponse, RouteRequest};

const SIZES: [usize; 2] = [256, 4096];
const NOW: EpochMillis = EpochMillis::new(1_785_000_000_000);

/// `n` rates of BTC_ETH as a rates response's JSON text. The JavaScript bench
/// writes the very same text (bench/rank.mjs `ratesJson`): SplitMix from
/// seed `0x5EED + n`; per rate a multiplier `30.` + 9 digits, a fee `0.000` +
/// 5 digits, and limits [0.001, 10] for 7 rates in 10, else [2, 20].
fn rates_json(n: usize) -> String {
    let mut rng = SplitMix(0x5EED + n as u64);
    let mut out = String::from("[");
    for i in 0..n {
        let multiplier = rng.below(1_000_000_000);
        let fee = rng.below(100_000);
        let (min, max) = if rng.below(10) < 7 {
            ("0.001", "10")
        } else {
            ("2", "20")
        };
        if i > 0 {
            out.push(',');
        }
        write!(
            out,
            r#"{{"amount":{{"assetId":"ETH","value":30.{multiplier:09}}},"expiry":4102444800000,"id":"rate-{i:06}","max":{{"assetId":"BTC","value":{max}}},"min":{{"assetId":"BTC","value":{min}}},"minerFee":{{"assetId":"ETH","value":0.000{fee:05}}},"pairId":"BTC_ETH","features":["exactOut"]}}"#
        )
        .unwrap();
    }
    out.push(']');
    out
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("wasm_parity");
    let amount: Amount = "1".parse().unwrap();
    for n in SIZES {
        let text = rates_json(n);
        let rates: RatesResponse = serde_json::from_str(&text).unwrap();
        // What the JavaScript bench checks it ranked the same data to.
        let route = RouteRequest::exact_in(amount, NOW).best(&rates).unwrap();
        eprintln!(
            "wasm_parity data n={n} best={} net={}",
            route.rate().id().as_str(),
            route.net_output()
        );
        group.throughput(Throughput::Elements(n as u64));
        group.bench_with_input(BenchmarkId::new("best", n), &rates, |b, rates| {
            b.iter(|| {
                RouteRequest::exact_in(black_box(amount), NOW)
                    .best(black_box(rates))
                    .map(|route| route.net_output())
            });
        });
        group.bench_with_input(BenchmarkId::new("decode_best", n), &text, |b, text| {
            b.iter(|| {
                let rates: RatesResponse = serde_json::from_str(black_box(text)).unwrap();
                RouteRequest::exact_in(amount, NOW)
                    .best(&rates)
                    .map(|route| route.net_output())
                    .ok()
            });
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
