//! "No route" under the economic floors, and ExactOut's "no route" naming
//! the `toAmount` that works (rulings 10 and 38): numbers by hand. And the
//! floors off by default: floors every route passes change no single-pair
//! answer (ranking, estimator), shown over random rates.
#![allow(clippy::arithmetic_side_effects)]

use proptest::prelude::*;
use swaproute::route::{
    estimate_exact_out, estimate_exact_out_with, Floors, LimitPolicy, NamedAmount, NoRoute,
    RejectReason, RouteRequest,
};
use swaproute::wire::RequestField;
use swaproute::{Amount, Decimal, EpochMillis, Rate};

use crate::common::{amount, btc_eth_rate, d};

const NOW: EpochMillis = EpochMillis::new(1_785_000_000_000);
const LATER: EpochMillis = EpochMillis::new(4_102_444_800_000);

fn rate(id: &str, m: &str, fee: &str, min: &str, max: &str) -> Rate {
    btc_eth_rate(id, m, fee, min, max, LATER).with_exact_out(true)
}

#[test]
fn below_the_floors_names_the_nearest_floor_and_the_amount_that_works() {
    // ×10, fees 0.5 and 0.3, limits [0.01, 5]. At 0.09 BTC the nets are
    // 0.9 − 0.5 = 0.4 and 0.9 − 0.3 = 0.6 ETH: both positive, both under a
    // dust of 1 ETH; the nearest is the second (0.6). The smallest amount
    // that works: 10x − 0.3 ≥ 1, x ≥ 0.13.
    let rates = [
        rate("a", "10", "0.5", "0.01", "5"),
        rate("b", "10", "0.3", "0.01", "5"),
    ];
    let request = RouteRequest::exact_in(amount("0.09"), NOW)
        .with_floors(Floors::NONE.with_dust(amount("1")));
    let error = request.best(&rates).unwrap_err();
    assert_eq!(
        error,
        NoRoute::BelowFloors {
            named: NamedAmount::FromAmount,
            amount: d("0.09"),
            asset: swaproute::AssetId::new("BTC").unwrap(),
            floor: Box::new(RejectReason::BelowDust {
                net_output: d("0.6"),
                dust: d("1")
            }),
            smallest_working: error.working_amount().cloned(),
        }
    );
    assert_eq!(error.working(), Some(d("0.13")));
    assert_eq!(error.code().as_str(), "INSUFFICIENT_LIQUIDITY");
    assert_eq!(
        error.to_string(),
        "no route clears the floors for fromAmount 0.09 BTC: the nearest, BELOW_DUST (net output 0.60 is below the dust floor 1); the smallest amount that works is 0.13000000 BTC"
    );
    // Without floors the same amount routes: the floors are the only reason.
    assert!(RouteRequest::exact_in(amount("0.09"), NOW)
        .best(&rates)
        .is_ok());
    // The select's "no route" is the same error.
    assert_eq!(request.select(&rates).no_route(), Some(&error));
}

#[test]
fn a_fee_share_refusal_names_the_fee_and_the_gross_output() {
    // ×10, fee 0.5 at 0.1 BTC: gross 1 ETH, the fee is 5000 bps of it; a
    // 4000 bps cap refuses it. The smallest that works: 0.5 × 10000 ≤ 4000
    // × 10x, x ≥ 0.125.
    let rates = [rate("a", "10", "0.5", "0.01", "5")];
    let error = RouteRequest::exact_in(amount("0.1"), NOW)
        .with_floors(Floors::NONE.with_max_fee_share_bps(4000))
        .best(&rates)
        .unwrap_err();
    let NoRoute::BelowFloors { floor, .. } = &error else {
        panic!("{error:?}");
    };
    assert_eq!(
        **floor,
        RejectReason::FeeShareTooLarge {
            miner_fee: d("0.5"),
            gross_output: d("1"),
            max_bps: 4000
        }
    );
    assert_eq!(error.working(), Some(d("0.125")));
}

#[test]
fn exact_out_no_route_names_the_largest_and_smallest_to_amount() {
    // ×20, fee 0.5, limits [0.1, 20] BTC. The largest toAmount: 20 × 20 −
    // 0.5 = 399.5 ETH. The smallest: the order's amount ceil8((y + 0.5) /
    // 20) reaches 0.1 once y > 0.09999999 × 20 − 0.5 = 1.4999998, so
    // 1.49999981 ETH (it needs 0.0999999905, rounded up to 0.1 BTC).
    let rates = [rate("r", "20", "0.5", "0.1", "20")];
    // 1000 ETH needs 1000.5 / 20 = 50.025 BTC, above the max.
    let above = estimate_exact_out(&rates, amount("1000"), NOW).unwrap_err();
    assert_eq!(above.code().as_str(), "AMOUNT_ABOVE_LIMIT");
    let working = above.working_amount().unwrap();
    assert_eq!(
        (working.field(), working.amount(), working.asset().as_str()),
        (RequestField::ToAmount, d("399.5"), "ETH")
    );
    assert!(
        above
            .to_string()
            .ends_with("; the largest toAmount that works is 399.50000000 ETH"),
        "{above}"
    );
    // 1 ETH needs 1.5 / 20 = 0.075 BTC, below the min.
    let below = estimate_exact_out(&rates, amount("1"), NOW).unwrap_err();
    assert_eq!(below.code().as_str(), "AMOUNT_BELOW_LIMIT");
    assert_eq!(below.working(), Some(d("1.49999981")));
    assert!(below
        .to_string()
        .contains("smallest toAmount that works is 1.49999981 ETH"));
    assert!(estimate_exact_out(&rates, amount("1.49999981"), NOW).is_ok());
    assert!(estimate_exact_out(&rates, amount("1.4999998"), NOW).is_err());
    // The strict ranking (plans' default, ruling 34) names the same.
    let strict = RouteRequest::exact_out(amount("0.5"), amount("1000"), NOW)
        .with_limit_policy(LimitPolicy::Strict)
        .best(&rates)
        .unwrap_err();
    assert_eq!(strict.working(), Some(d("399.5")));
    // Nothing works at all: nothing named.
    let none = [rate("r", "20", "50", "0.1", "2")]; // 2 × 20 − 50 < 0
    assert_eq!(
        estimate_exact_out(&none, amount("1"), NOW)
            .unwrap_err()
            .working(),
        None
    );
}

#[test]
fn the_estimator_holds_each_rate_to_the_floors_at_its_required_input() {
    // Two rates: "a" ×20 fee 0.5, "b" ×19 fee 0.1. For 9.5 ETH: a needs
    // 10 / 20 = 0.5 BTC (net 9.5), b needs 9.6 / 19 = 0.50526316 BTC (net
    // 0.50526316 × 19 − 0.1 = 9.50000004). A fee multiple of 19.5 wants 9.75
    // ETH from a (refused) and 1.95 from b (passes): b is the estimate.
    let rates = [
        rate("a", "20", "0.5", "0.001", "20"),
        rate("b", "19", "0.1", "0.001", "20"),
    ];
    let plain = estimate_exact_out(&rates, amount("9.5"), NOW).unwrap();
    assert_eq!(plain.rate().id().as_str(), "a");
    let floors = Floors::NONE.with_fee_multiple(amount("19.5"));
    let held = estimate_exact_out_with(&rates, amount("9.5"), NOW, &floors).unwrap();
    assert_eq!(held.rate().id().as_str(), "b");
    assert_eq!(held.from_amount().get(), d("0.50526316"));
}

fn rates_strategy() -> impl Strategy<Value = Vec<Rate>> {
    prop::collection::vec(
        (1i64..500, 0i64..3000, 0i64..2000, 0i64..3000, any::<bool>()),
        1..=6,
    )
    .prop_map(|specs| {
        specs
            .into_iter()
            .enumerate()
            .map(|(i, (m, fee, lo, width, out))| {
                btc_eth_rate(
                    &format!("r{i}"),
                    &Decimal::new(m, 1).to_string(),
                    &Decimal::new(fee, 3).to_string(),
                    &Decimal::new(lo, 3).to_string(),
                    &Decimal::new(lo + width, 3).to_string(),
                    LATER,
                )
                .with_exact_out(out)
            })
            .collect()
    })
}

proptest! {
    /// Off by default (ruling 38): floors every route with a positive net
    /// output passes (dust 0, fee multiple 0, a fee share of 100 %) give
    /// every single-pair answer unchanged, though they take the plain path.
    #[test]
    fn trivial_floors_change_no_single_pair_answer(
        rates in rates_strategy(),
        x in (1i64..20_000, 0u32..=4),
        exact_out in any::<bool>(),
        strict in any::<bool>(),
    ) {
        let trivial = Floors::NONE
            .with_dust(Amount::ZERO)
            .with_fee_multiple(Amount::ZERO)
            .with_max_fee_share_bps(10_000);
        let x = Amount::new(Decimal::new(x.0, x.1)).unwrap();
        let policy = if strict { LimitPolicy::Strict } else { LimitPolicy::Spec };
        let plain = if exact_out {
            RouteRequest::exact_out(x, x, NOW)
        } else {
            RouteRequest::exact_in(x, NOW)
        }
        .with_limit_policy(policy);
        let held = plain.with_floors(trivial);
        prop_assert_eq!(plain.best(&rates), held.best(&rates));
        let (a, b) = (plain.select(&rates), held.select(&rates));
        prop_assert_eq!(a.routes(), b.routes());
        prop_assert_eq!(a.rejected(), b.rejected());
        prop_assert_eq!(a.no_route(), b.no_route());
        prop_assert_eq!(
            estimate_exact_out(&rates, x, NOW),
            estimate_exact_out_with(&rates, x, NOW, &trivial)
        );
    }
}

/// Ruling 34: a "no route" that only required inputs caused names the
/// required input, never `fromAmount` (issue 29, item 3). ×20, fee 0.5, limits
/// [0.1, 20]: 1000 ETH needs (1000 + 0.5) / 20 = 50.025 BTC, above 20;
/// 1 ETH needs (1 + 0.5) / 20 = 0.075 BTC, below 0.1.
#[test]
fn strict_exact_out_and_the_estimator_name_the_required_input() {
    let rates = [rate("a", "20", "0.5", "0.1", "20")];
    let strict = |to: &str| {
        RouteRequest::exact_out(amount("0.5"), amount(to), NOW)
            .with_limit_policy(LimitPolicy::Strict)
            .best(&rates)
            .unwrap_err()
    };
    let above = strict("1000");
    assert!(matches!(
        above,
        NoRoute::AboveMax { named: NamedAmount::RequiredInput, amount, max, .. }
            if amount == d("50.025") && max == d("20")
    ));
    assert!(above.to_string().starts_with("the required input 50.025"));
    let below = strict("1");
    assert!(matches!(
        below,
        NoRoute::BelowMin { named: NamedAmount::RequiredInput, amount, min, .. }
            if amount == d("0.075") && min == d("0.1")
    ));
    assert!(!below.to_string().contains("fromAmount"));
    // The estimator names the same required input.
    let estimated = estimate_exact_out(&rates, amount("1000"), NOW).unwrap_err();
    assert!(matches!(
        estimated,
        NoRoute::AboveMax { named: NamedAmount::RequiredInput, amount, .. } if amount == d("50.025")
    ));
    // The fromAmount itself outside the limits stays `fromAmount`.
    let spec = RouteRequest::exact_in(amount("30"), NOW)
        .best(&rates)
        .unwrap_err();
    assert!(matches!(
        spec,
        NoRoute::AboveMax { named: NamedAmount::FromAmount, amount, .. } if amount == d("30")
    ));
}
