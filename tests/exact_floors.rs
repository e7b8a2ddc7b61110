#![allow(clippy::arithmetic_side_effects)]
//! Floors and ceilings of exact values (ruling 35 in docs/RULES.md; issue 28
//! item 3): a promised output is the 8-place floor of the exact
//! `x × m − fee`, a required input the 8-place ceiling of the exact
//! `(to + fee) / m`, never of a value `Decimal` already rounded.
//!
//! The oracle below is big-integer arithmetic written here: it shares no code
//! with the crate (nor with `tests/common`).

use num_bigint::BigInt;
use proptest::prelude::*;
use serde_json::json;
use swaproute::decimal::{Decimal, DecimalError, Fixed8};
use swaproute::order::{FixedOrderRequest, NewOrder, OrderContext, RawFixedOrderRequest};
use swaproute::screening::{Address, ScreeningPolicy};
use swaproute::{
    estimate_exact_out, Amount, EpochMillis, OrderId, PairId, ProviderOrderId, Rate, RateId,
    RateTerms, RatesResponse, RouteRequest,
};

const NOW: EpochMillis = EpochMillis::new(1_785_000_000_000);

fn ten(exponent: u32) -> BigInt {
    BigInt::from(10u8).pow(exponent)
}

/// `value × 10^scale` as an integer (`scale` at least the value's own).
fn at(value: Decimal, scale: u32) -> BigInt {
    BigInt::from(value.mantissa()) * ten(scale - value.scale())
}

/// `⌊n / d⌋` toward −∞ for `d > 0`.
fn floor_div(n: &BigInt, d: &BigInt) -> BigInt {
    let zero = BigInt::from(0u8);
    if *n >= zero {
        n / d
    } else {
        -((-n + d - 1u8) / d)
    }
}

/// `⌊(x × m − fee)⌋` at 8 places, as the decimal text with 8 places; `None`
/// past a 96-bit mantissa.
fn oracle_floor8(x: Decimal, m: Decimal, fee: Decimal) -> Option<Decimal> {
    let scale = (x.scale() + m.scale()).max(fee.scale()).max(8);
    let exact = BigInt::from(x.mantissa())
        * BigInt::from(m.mantissa())
        * ten(scale - x.scale() - m.scale())
        - at(fee, scale);
    let units = floor_div(&exact, &ten(scale - 8));
    let units = i128::try_from(units).ok()?;
    if units.unsigned_abs() >= 1u128 << 96 {
        return None;
    }
    Some(Decimal::from_i128_with_scale(units, 8))
}

/// `⌈(to + fee) / m⌉` at 8 places; `None` past a 96-bit mantissa.
fn oracle_ceil8(to: Decimal, fee: Decimal, m: Decimal) -> Option<Decimal> {
    // X / 10^8 ≥ (to + fee) / m  ⇔  X × M ≥ (to + fee) × 10^(8 + sm) at the sum's scale.
    let scale = to.scale().max(fee.scale());
    let sum = at(to, scale) + at(fee, scale);
    let numerator = sum * ten(8 + m.scale());
    let denominator = BigInt::from(m.mantissa()) * ten(scale);
    let units = (&numerator + &denominator - 1u8) / &denominator;
    let units = u128::try_from(units).ok()?;
    if units >= 1u128 << 96 {
        return None;
    }
    Some(Decimal::from_i128_with_scale(
        i128::try_from(units).ok()?,
        8,
    ))
}

fn rate(multiplier: Decimal, fee: Decimal) -> Rate {
    Rate::new(
        RateId::new("r").unwrap(),
        PairId::new("BTC_ETH").unwrap(),
        RateTerms {
            multiplier,
            miner_fee: fee,
            min: Decimal::ZERO,
            max: Decimal::MAX,
        },
        EpochMillis::new(4_102_444_800_000),
    )
    .with_exact_out(true)
}

/// Every single-pair place a promise is floored: `Fixed8::floor_net` and
/// the ranked route's `promised_output`, against the oracle.
fn check_floor(x: Decimal, m: Decimal, fee: Decimal) {
    let expected = oracle_floor8(x, m, fee);
    let got = Fixed8::floor_net(x, m, fee).ok().map(Fixed8::get);
    assert_eq!(got, expected, "⌊{x} × {m} − {fee}⌋₈");
    if let Some(value) = got {
        assert_eq!(value.scale(), 8);
    }
    let rates = [rate(m, fee)];
    if let Ok(best) = RouteRequest::exact_in(Amount::new(x).unwrap(), NOW).best(&rates) {
        assert_eq!(
            best.promised_output().ok().map(Fixed8::get),
            expected,
            "promised output of {x} × {m} − {fee}"
        );
    }
}

/// Every single-pair place a requirement is ceiled: the ExactOut estimate
/// and the ranked route's required input, against the oracle.
fn check_ceil(to: Decimal, m: Decimal, fee: Decimal) {
    let expected = oracle_ceil8(to, fee, m);
    let rates = [rate(m, fee)];
    let to_amount = Amount::new(to).unwrap();
    let estimate = estimate_exact_out(&rates[..], to_amount, NOW)
        .ok()
        .map(|e| e.from_amount().get());
    assert_eq!(estimate, expected, "⌈({to} + {fee}) / {m}⌉₈");
    if let Some(input) = expected {
        let request = RouteRequest::exact_out(Amount::new(input).unwrap(), to_amount, NOW);
        if let Ok(best) = request.best(&rates) {
            assert_eq!(best.required_input().map(Fixed8::get), Some(input));
        }
    }
}

/// Issue 28's case, single pair: 12345678.12345678 × 33.07346643902441 is
/// exactly 408314371.0831456699999999999998 (multiply by hand: 16 + 16
/// digits, 22 places), so the promise is 408314371.08314566; `Decimal`'s
/// product rounds to …567 (28 significant digits), one unit too many.
#[test]
fn the_issue_28_promise_is_the_floor_of_the_exact_product() {
    let (x, m) = (
        Decimal::from_str_exact("12345678.12345678").unwrap(),
        Decimal::from_str_exact("33.07346643902441").unwrap(),
    );
    let promise = Decimal::from_str_exact("408314371.08314566").unwrap();
    assert_eq!(
        Fixed8::floor_net(x, m, Decimal::ZERO).unwrap().get(),
        promise
    );
    assert_eq!(oracle_floor8(x, m, Decimal::ZERO), Some(promise));
    let rates = [rate(m, Decimal::ZERO)];
    let best = RouteRequest::exact_in(Amount::new(x).unwrap(), NOW)
        .best(&rates)
        .unwrap();
    assert_eq!(best.promised_output().unwrap().get(), promise);
    check_floor(x, m, Decimal::ZERO);
}

/// The order an ExactIn plan creates carries the same promise as `toAmount`.
#[test]
fn an_exact_in_orders_to_amount_is_the_floor_of_the_exact_net_output() {
    let rates: RatesResponse = serde_json::from_value(json!([{
        "amount": {"assetId": "ETH", "value": 33.073_466_439_024_41},
        "expiry": 4_102_444_800_000u64, "id": "r-1",
        "max": {"assetId": "BTC", "value": 100_000_000},
        "min": {"assetId": "BTC", "value": 0.001},
        "minerFee": {"assetId": "ETH", "value": 0}, "pairId": "BTC_ETH"}]))
    .unwrap();
    let raw: RawFixedOrderRequest = serde_json::from_value(json!({
        "fromAmount": "12345678.12345678", "toAmount": "408314371.08314566",
        "fromAddress": null, "toAddress": "0x52908400098527886E0F7030069857D2E4169EE7",
        "pairId": "BTC_ETH", "swapMode": "ExactIn"}))
    .unwrap();
    let request = FixedOrderRequest::validate(&raw).unwrap();
    let policy = ScreeningPolicy::new();
    let context = OrderContext::new(NOW, &policy);
    let plan = request.plan(&rates, &context).unwrap();
    let new = NewOrder::new(
        OrderId::new("o-1").unwrap(),
        ProviderOrderId::new("p-1").unwrap(),
        Address::new("bc1qwjpyxexjcypqddr7ce6yv349n4q68g0xqraltv").unwrap(),
        NOW,
    );
    let order = serde_json::to_value(plan.to_order(&request, &new).unwrap()).unwrap();
    assert_eq!(order["toAmount"]["value"], "408314371.08314566");
}

#[test]
fn floors_of_hand_computed_values() {
    let d = |text: &str| Decimal::from_str_exact(text).unwrap();
    // 0.5 × 33.1 − 0.0002 = 16.5498 exactly: nothing to drop.
    assert_eq!(
        Fixed8::floor_net(d("0.5"), d("33.1"), d("0.0002"))
            .unwrap()
            .to_string(),
        "16.54980000"
    );
    // 1 × 0.000000019 − 0 = 0.000000019: floor 0.00000001.
    assert_eq!(
        Fixed8::floor_net(d("1"), d("0.000000019"), d("0"))
            .unwrap()
            .to_string(),
        "0.00000001"
    );
    // Negative exact values go toward −∞: 1 × 1 − 1.000000001 = −0.000000001 → −0.00000001.
    assert_eq!(
        Fixed8::floor_net(d("1"), d("1"), d("1.000000001"))
            .unwrap()
            .to_string(),
        "-0.00000001"
    );
    // 2^96 − 1 at 8 places is the largest promise; × 10 is past it.
    assert_eq!(
        Fixed8::floor_net(d("792281625142643375935.43950335"), d("1"), d("0"))
            .unwrap()
            .to_string(),
        "792281625142643375935.43950335"
    );
    assert_eq!(
        Fixed8::floor_net(d("792281625142643375935.43950335"), d("10"), d("0")),
        Err(DecimalError::OutOfRange)
    );
    assert_eq!(
        Fixed8::floor_net(d("-1"), d("1"), d("0")),
        Err(DecimalError::Negative)
    );
}

/// The required input where `toAmount + minerFee` is past `Decimal`'s range
/// but the quotient is not: (2^96 − 21 + 30) / 10^9 =
/// 79228162514264337593.543950345, whose 8-place ceiling is
/// …593.54395035 (ruling 35: an overflow only where the exact value cannot
/// be held). Before, every such rate was "overflow".
#[test]
fn a_required_input_whose_sum_is_past_decimal_is_still_found() {
    let d = |text: &str| Decimal::from_str_exact(text).unwrap();
    let to = d("79228162514264337593543950315");
    let (m, fee) = (d("1000000000"), d("30"));
    assert!(to.checked_add(fee).is_none(), "the sum is past Decimal");
    assert_eq!(
        oracle_ceil8(to, fee, m),
        Some(d("79228162514264337593.54395035"))
    );
    check_ceil(to, m, fee);
}

/// A 16-digit amount with 8 places (as clients send them).
fn amount16() -> impl Strategy<Value = Decimal> {
    (1u64..10_000_000_000_000_000).prop_map(|m| Decimal::from_i128_with_scale(i128::from(m), 8))
}

/// A 17-significant-digit multiplier (the service's doubles), any magnitude
/// from 10^-12 to 10^5.
fn multiplier17() -> impl Strategy<Value = Decimal> {
    (
        10_000_000_000_000_000u64..100_000_000_000_000_000,
        11u32..=28,
    )
        .prop_map(|(m, scale)| Decimal::from_i128_with_scale(i128::from(m), scale))
}

/// A fee: zero, or up to 17 digits at 0 to 20 places.
fn fee() -> impl Strategy<Value = Decimal> {
    prop_oneof![
        Just(Decimal::ZERO),
        (1u64..100_000_000_000_000_000, 0u32..=20)
            .prop_map(|(m, scale)| Decimal::from_i128_with_scale(i128::from(m), scale)),
    ]
}

/// Seeds: issue 28's case, and products that need more than 28 digits.
#[test]
fn seeded_floors_and_ceilings_agree_with_the_oracle() {
    let d = |text: &str| Decimal::from_str_exact(text).unwrap();
    for (x, m, fee) in [
        ("12345678.12345678", "33.07346643902441", "0"),
        ("12345678.12345678", "33.07346643902441", "0.00019192"),
        (
            "9999999999999999",
            "99999.999999999999",
            "0.000000000000000001",
        ),
        ("0.00000001", "0.000000000001234567", "0"),
        ("1234567.8", "0.00004", "0.000000000000000001"),
    ] {
        check_floor(d(x), d(m), d(fee));
        check_ceil(d(x), d(m), d(fee));
    }
}

proptest! {
    #[test]
    fn the_promise_is_the_floor_of_the_exact_net_output(
        x in amount16(),
        m in multiplier17(),
        fee in fee(),
    ) {
        check_floor(x, m, fee);
    }

    #[test]
    fn the_required_input_is_the_ceiling_of_the_exact_quotient(
        to in amount16(),
        m in multiplier17(),
        fee in fee(),
    ) {
        check_ceil(to, m, fee);
    }
}

/// A negative amount or multiplier is refused as negative (never floored
/// as its magnitude); a negative zero is zero.
#[test]
fn floor_net_refuses_negative_operands() {
    let d = |text: &str| Decimal::from_str_exact(text).unwrap();
    assert_eq!(
        Fixed8::floor_net(d("-1"), d("2"), d("0")),
        Err(DecimalError::Negative)
    );
    assert_eq!(
        Fixed8::floor_net(d("1"), d("-2"), d("0")),
        Err(DecimalError::Negative)
    );
    assert_eq!(
        Fixed8::floor_net(d("-0"), d("2"), d("0")).map(Fixed8::get),
        Ok(d("0"))
    );
}
