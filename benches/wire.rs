//! Decoding a rates response, against serde_json's own float decoding.
//!
//! Group `wire`:
//! - `decode256/swaproute`: a 256-rate response into [`RatesResponse`]
//!   (validated ids and pair, exact decimals, the ranking cache);
//! - `decode256/f64_baseline`: the same text into a plain struct of `String`s
//!   and `f64`s (what a float-based client decodes).
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
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap,
    clippy::cast_sign_loss,
    dead_code
)]

use std::fmt::Write;
use std::hint::black_box;

mod common;
use common::SplitMix;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use serde::Deserialize;
use swaproute::RatesResponse;

const RATES: usize = 256;

/// A double with about `digits` significant digits near `10^exp`, as the
/// service's double-based encoder writes it (shortest round-trip text).
fn number(rng: &mut SplitMix, digits: u32, exp: i32) -> String {
    let value = rng.significand(digits) as f64 * 10f64.powi(exp - (digits as i32 - 1));
    format!("{value}")
}

/// A realistic rates response: multipliers with 8-17 significant digits,
/// small fees, limits, some `features` and sponsored variants.
fn response(n: usize) -> String {
    let mut rng = SplitMix(0x3172_0000 + n as u64);
    let mut json = String::from("[");
    for i in 0..n {
        if i > 0 {
            json.push(',');
        }
        let digits = 8 + rng.below(10) as u32;
        let exp = rng.below(8) as i32 - 3;
        let features = if rng.below(2) == 0 {
            r#","features":["exactOut"]"#
        } else {
            r#","features":[]"#
        };
        let sponsor = if rng.below(8) == 0 {
            r#","sponsoredByCampaignId":"spring""#
        } else {
            r#","sponsoredByCampaignId":null"#
        };
        write!(
            json,
            r#"{{"amount":{{"assetId":"ETH","value":{}}},"expiry":{},"id":"{:016x}-{i:04}","max":{{"assetId":"BTC","value":{}}},"min":{{"assetId":"BTC","value":{}}},"minerFee":{{"assetId":"ETH","value":{}}},"pairId":"BTC_ETH"{features}{sponsor}}}"#,
            number(&mut rng, digits, exp),
            1_785_333_919_000 + rng.below(1_000_000),
            rng.next(),
            number(&mut rng, 8, 0),
            number(&mut rng, 6, -4),
            number(&mut rng, 5, -5),
        )
        .unwrap();
    }
    json.push(']');
    json
}

/// The float baseline: the same shape, `String`s and `f64`s, no validation.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct PlainAmount {
    asset_id: String,
    value: f64,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct PlainRate {
    amount: PlainAmount,
    expiry: u64,
    id: String,
    max: PlainAmount,
    min: PlainAmount,
    miner_fee: PlainAmount,
    pair_id: String,
    #[serde(default)]
    features: Option<Vec<String>>,
    #[serde(default)]
    sponsored_by_campaign_id: Option<String>,
}

fn bench_wire(c: &mut Criterion) {
    let json = response(RATES);
    // Both decoders must accept the text, and agree on every number.
    let ours: RatesResponse = serde_json::from_str(&json).unwrap();
    let plain: Vec<PlainRate> = serde_json::from_str(&json).unwrap();
    assert_eq!(ours.len(), RATES);
    for (rate, float) in ours.iter().zip(&plain) {
        assert_eq!(
            rate.multiplier().to_string(),
            format!("{}", float.amount.value)
        );
    }
    let mut group = c.benchmark_group("wire");
    group.throughput(Throughput::Elements(RATES as u64));
    group.bench_with_input(
        BenchmarkId::new("decode256", "swaproute"),
        &json,
        |b, json| {
            b.iter(|| {
                serde_json::from_str::<RatesResponse>(black_box(json))
                    .unwrap()
                    .len()
            });
        },
    );
    group.bench_with_input(
        BenchmarkId::new("decode256", "f64_baseline"),
        &json,
        |b, json| {
            b.iter(|| {
                serde_json::from_str::<Vec<PlainRate>>(black_box(json))
                    .unwrap()
                    .len()
            });
        },
    );
    group.finish();
}

criterion_group!(benches, bench_wire);
criterion_main!(benches);
