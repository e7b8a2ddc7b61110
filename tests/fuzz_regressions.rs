#![allow(clippy::arithmetic_side_effects)]
//! Inputs the fuzz targets (fuzz/fuzz_targets/) found, kept as tests.
//!
//! Each test names its target and what went wrong. A test marked `#[ignore]`
//! pins an open library bug: it states the documented behaviour and fails until
//! the bug is fixed (run with `cargo test --test fuzz_regressions -- --ignored`).

use crate::common::{amount, btc_eth_rate};
use swaproute::decimal::{parse_amount, Decimal, DecimalError, Fixed8};
use swaproute::{
    estimate_exact_out, Amount, EpochMillis, NoRoute, PairId, Rate, RateId, RateTerms, RouteRequest,
};

const NOW: EpochMillis = EpochMillis::new(1_785_000_000_000);

fn rate(id: &str, multiplier: &str, fee: &str, min: &str, max: &str) -> Rate {
    btc_eth_rate(
        id,
        multiplier,
        fee,
        min,
        max,
        EpochMillis::new(1_785_000_000_100),
    )
    .with_exact_out(true)
}

/// `decimal_text`: near the top of `Decimal`'s range the sum `value + 1e-8`
/// itself rounds, so the target's first "< value + 1e-8" check misfired on
/// these (a target bug, fixed by checking on integers); the library's ceiling
/// was right, and stays pinned here.
#[test]
fn decimal_text_fixed8_ceil_at_full_mantissa_width() {
    for (text, ceiling) in [
        // 29 digits: mantissa 2^96 − 1 at scale 9.
        (
            "79228162514264337593.543950335",
            "79228162514264337593.54395034",
        ),
        (
            "7922816251426433.7593543900001",
            "7922816251426433.75935440",
        ),
    ] {
        let value = parse_amount(text).unwrap();
        assert_eq!(value.to_string(), text);
        let fixed = Fixed8::ceil(value).unwrap();
        assert_eq!(fixed.to_string(), ceiling);
        assert_eq!(fixed.get().scale(), 8);
        assert!(fixed.get() >= value);
    }
    // The largest value whose ceiling fits, and the least that does not.
    let fits = parse_amount("792281625142643375935.43950335").unwrap();
    assert_eq!(
        Fixed8::ceil(fits).unwrap().to_string(),
        "792281625142643375935.43950335"
    );
    let too_big = parse_amount("792281625142643375935.4395034").unwrap();
    assert_eq!(Fixed8::ceil(too_big), Err(DecimalError::OutOfRange));
}

/// `exact_out_estimate` (found before 5617e02, fixed there): `Decimal`'s
/// 28-digit quotient `(to + fee) / m` rounded *down* onto an 8-dp grid point,
/// so the "rounded up" estimate delivered less than `toAmount`
/// (1061.99999999999 for 1062). Minimal form: m = 3, to = 10^20.
#[test]
fn exact_out_estimate_covers_to_amount_when_the_quotient_rounds_down() {
    let rates = [rate("r", "3", "0", "0", "100000000000000000000")];
    let to = amount("100000000000000000000");
    let estimate = estimate_exact_out(&rates, to, NOW).unwrap();
    // 10^20 / 3 = 33333333333333333333.333…; Decimal keeps …33.33333333.
    assert_eq!(
        estimate.from_amount().to_string(),
        "33333333333333333333.33333334"
    );
    let best = estimate.request(to, NOW).best(&rates).unwrap();
    assert!(best.net_output() >= to.get(), "{}", best.net_output());
    assert_eq!(best.required_input(), Some(estimate.from_amount()));

    // The fuzzer's own input (its rate id "a b" is now refused, ruling 37:
    // ids are plain text; the id plays no part in the case).
    let rates = [rate(
        "a-b",
        "0.007812619458555044193",
        "780799610849086524",
        "0.00000000000000000031084",
        "341768544179179495501562009.5",
    )];
    let to = amount("1062");
    let estimate = estimate_exact_out(&rates, to, NOW).unwrap();
    assert_eq!(estimate.rate().id().as_str(), "a-b");
    let route = estimate.request(to, NOW).best(&rates).unwrap();
    assert!(route.net_output() >= to.get(), "{}", route.net_output());
}

/// `route_select` (open): in ExactOut, a rate that passes every check but whose
/// required input `(toAmount + minerFee) / multiplier` overflows is rejected by
/// `select` (OVERFLOW), so `select` has no route; `top(rates, 0)` never
/// computes the required input and answers `Ok([])` instead of the `NoRoute`
/// its docs promise ("NoRoute when every rate is excluded, whatever k is").
#[test]
fn route_select_top_zero_reports_no_route_like_select() {
    let rates = [rate("r", "0.5", "0", "0", "10")];
    let request =
        RouteRequest::exact_out(amount("1"), amount("79228162514264337593543950335"), NOW);
    let selection = request.select(&rates);
    assert!(selection.routes().is_empty());
    assert_eq!(selection.rejected()[0].reason().code(), "OVERFLOW");
    let no_route = selection.no_route().unwrap();
    assert_eq!(request.best(&rates).as_ref(), Err(no_route));
    assert_eq!(request.top(&rates, 1).as_ref(), Err(no_route));
    assert_eq!(request.top(&rates, 0).as_ref(), Err(no_route));
}

/// The same input, on the paths that already agree (not ignored).
#[test]
fn route_select_required_input_overflow_is_no_route_for_best_and_top_one() {
    let rates = [rate("r", "0.5", "0", "0", "10")];
    let request =
        RouteRequest::exact_out(amount("1"), amount("79228162514264337593543950335"), NOW);
    let selection = request.select(&rates);
    let no_route = selection.no_route().unwrap();
    // Rulings 35-36: an amount too large for exact arithmetic is the
    // client's error naming the field (toAmount in ExactOut), not a 503.
    assert!(
        matches!(
            no_route,
            NoRoute::AmountTooLarge {
                field: swaproute::wire::RequestField::ToAmount,
                ..
            }
        ),
        "{no_route:?}"
    );
    assert_eq!(no_route.code(), swaproute::ErrorCode::InvalidAmount);
    assert_eq!(request.best(&rates).as_ref(), Err(no_route));
    assert_eq!(request.top(&rates, 1).as_ref(), Err(no_route));
}

/// `exact_out_estimate` (open): the estimate itself is exact (est × m ≥ to +
/// fee holds exactly), but the route's `net_output` is `est × m − fee` computed
/// in `Decimal`, whose product keeps 28-29 significant digits and rounds to
/// nearest: here the product needs 30 digits, rounds *down*, and the reported
/// net output falls 1e-13 short of `toAmount`. (Fuzzer's input: m = 0.00004,
/// fee = 21392098230009856, to = 4125.5875297411072 → 4125.587529741107.)
#[test]
fn exact_out_estimate_net_output_is_at_least_to_amount() {
    let rates = [rate(
        "r",
        "0.00004",
        "20000000000000000",
        "0",
        "1000000000000000000000",
    )];
    let to = amount("0.1234567890123");
    let estimate = estimate_exact_out(&rates, to, NOW).unwrap();
    assert_eq!(
        estimate.from_amount().to_string(),
        "500000000000000003086.41972531"
    );
    let best = estimate.request(to, NOW).best(&rates).unwrap();
    // Exactly: 500000000000000003086.41972531 × 0.00004 − 2e16 = 0.1234567890124.
    assert!(best.net_output() >= to.get(), "{}", best.net_output());
}

/// exact_out_estimate: `toAmount + minerFee` needs 30 digits, so `Decimal`
/// rounds the sum and the quotient lands five 8-dp steps below the answer;
/// the estimator gave up (NO_OUTPUT) where the exact least input exists.
#[test]
fn exact_out_estimate_finds_the_least_input_when_the_sum_rounds_far() {
    let d = |s: &str| s.parse::<Decimal>().unwrap();
    let rate = Rate::new(
        RateId::new("e").unwrap(),
        PairId::new("BTC_ETH").unwrap(),
        RateTerms {
            multiplier: d("0.0012330"),
            miner_fee: d("792281625142643375.76364081151"),
            min: d("19.580"),
            max: d("4722366482869645213695"),
        },
        EpochMillis::new(1_785_000_000_040),
    )
    .with_exact_out(true);
    let to = Amount::new(d("792281.62514120503788204198411")).unwrap();
    let rates = [rate];
    let estimate = estimate_exact_out(&rates, to, EpochMillis::new(1_785_000_000_000)).unwrap();
    // By hand, exactly: 642564172865722349869.24737758 × 0.0012330
    // = 792281625143435657.388782016556140 ≥ to + fee
    // = 792281625143435657.38878201654788204198411, while one step less
    // (…757) gives 792281625143435657.388782016543810, short of it.
    assert_eq!(
        estimate.from_amount().to_string(),
        "642564172865722349869.24737758"
    );
}
