//! The ExactOut estimate (ruling 8 in docs/RULES.md) on structured input (up to 16 rates
//! and a to-amount):
//!
//! - when `estimate_exact_out` succeeds, the estimate is ≥ (to + fee) / m of its
//!   rate and < that + 1e-8 (checked exactly on big integers: est × m ≥ to + fee
//!   and (est − 1e-8) × m < to + fee), has scale 8, lies within that rate's limits, and the
//!   rate is valid, live, ExactOut-capable and not sponsored;
//! - it is the smallest such rounded input over all rates (naive oracle), and its
//!   rate comes first among the rates tied on that input by the ranking order;
//! - it fails iff the oracle finds no rate;
//! - selecting with it as fromAmount yields a route (never NoRoute): the
//!   estimate's own rate is ranked with net output ≥ toAmount, the best route's
//!   net output is ≥ toAmount, and the best route is the estimate's rate unless
//!   the documented exception applies (the winner's own required input is below
//!   its min, or yields no output).
#![no_main]

use std::cmp::Ordering;

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;

#[path = "../../tests/common/mod.rs"]
mod common;
#[path = "../common/inputs.rs"]
mod inputs;
use common::{covers, exact_required_input};
use inputs::{Num, NOW};
use swaproute::decimal::Decimal;
use swaproute::rate::Rate;
use swaproute::{estimate_exact_out, CampaignId, EpochMillis};

#[derive(Arbitrary, Debug)]
struct FuzzRate {
    id: u8,
    multiplier: Num,
    fee: Num,
    min: Num,
    max: Num,
    expiry: i8,
    /// Mostly capable, so that estimates exist.
    no_exact_out: bool,
    sponsored: bool,
}

#[derive(Arbitrary, Debug)]
struct Input {
    rates: Vec<FuzzRate>,
    to: Num,
}

/// The rounded required input of a rate the estimator may use, per ruling 8,
/// with its net output there; `Err` names why the rate is out.
fn oracle(rate: &Rate, to: Decimal, now: u64) -> Result<(Decimal, Decimal), &'static str> {
    let (m, fee, min, max) = (rate.multiplier(), rate.miner_fee(), rate.min(), rate.max());
    if m <= Decimal::ZERO || fee < Decimal::ZERO || min < Decimal::ZERO || min > max {
        return Err("INVALID_RATE");
    }
    if rate.expiry().as_millis() <= now {
        return Err("EXPIRED");
    }
    if !rate.supports_exact_out() || rate.is_sponsored() {
        return Err("SWAP_MODE");
    }
    let input = exact_required_input(m, to, fee).ok_or("OVERFLOW")?;
    if input < min {
        return Err("BELOW_MIN");
    }
    if input > max {
        return Err("ABOVE_MAX");
    }
    let net = common::exact_net(input, m, fee).ok_or("OVERFLOW")?;
    if net <= Decimal::ZERO {
        return Err("NO_OUTPUT");
    }
    Ok((input, net))
}

/// (input asc, net desc, fee asc, id bytes asc).
fn order(a: (&Rate, Decimal, Decimal), b: (&Rate, Decimal, Decimal)) -> Ordering {
    a.1.cmp(&b.1)
        .then_with(|| b.2.cmp(&a.2))
        .then_with(|| a.0.miner_fee().cmp(&b.0.miner_fee()))
        .then_with(|| {
            a.0.id()
                .as_str()
                .as_bytes()
                .cmp(b.0.id().as_str().as_bytes())
        })
}

/// `net >= to`, allowing the engine's one rounding of a net output a `Decimal`
/// cannot hold exactly: less than one unit in the net's last place short.
fn delivers(net: Decimal, to: Decimal) -> bool {
    net >= to || to - net < Decimal::new(1, net.scale())
}

fuzz_target!(|input: Input| {
    let rates: Vec<Rate> = input
        .rates
        .iter()
        .take(16)
        .map(|r| {
            let numbers = [r.multiplier, r.fee, r.min, r.max];
            let rate = inputs::rate(r.id, numbers, r.expiry).with_exact_out(!r.no_exact_out);
            if r.sponsored {
                rate.sponsored_by(CampaignId::new("spring").expect("valid id"))
            } else {
                rate
            }
        })
        .collect();
    let to = input.to.amount();
    let now = EpochMillis::new(NOW);

    let expected: Vec<_> = rates.iter().map(|r| oracle(r, to.get(), NOW)).collect();
    let oracle_best = rates
        .iter()
        .zip(&expected)
        .filter_map(|(r, e)| e.ok().map(|(input, net)| (r, input, net)))
        .min_by(|&a, &b| order(a, b));

    let estimate = match estimate_exact_out(&rates, to, now) {
        Ok(estimate) => estimate,
        Err(no_route) => {
            assert!(
                oracle_best.is_none(),
                "no estimate, but the oracle has {oracle_best:?}: {no_route:?}"
            );
            return;
        }
    };
    let (want_rate, want_input, want_net) =
        oracle_best.expect("an estimate exists, so must the oracle's");

    let rate = estimate.rate();
    let value = estimate.from_amount().get();
    let (m, fee) = (rate.multiplier(), rate.miner_fee());
    // Bounds of ruling 8, exactly: value × m ≥ to + fee, and one step of 1e-8
    // less would not cover it (so value < (to + fee) / m + 1e-8).
    assert!(
        covers(value, m, to.get(), fee),
        "estimate {value} × {m} < {to} + {fee}"
    );
    let step = Decimal::new(1, 8);
    assert!(
        value.is_zero() || !covers(value - step, m, to.get(), fee),
        "estimate {value} is a step (or more) above (to + fee) / m"
    );
    assert_eq!(value.scale(), 8);
    assert!(
        rate.min() <= value && value <= rate.max(),
        "estimate outside its rate's limits"
    );
    assert!(rate.defect().is_none() && !rate.is_expired_at(now));
    assert!(rate.supports_exact_out() && !rate.is_sponsored());

    // The oracle's choice (by key: equal ids and numbers are interchangeable).
    assert_eq!(value, want_input, "not the smallest required input");
    let net_here = common::exact_net(value, m, fee).expect("computable");
    assert_eq!(
        order((rate, value, net_here), (want_rate, want_input, want_net)),
        Ordering::Equal,
        "the estimate's rate is not first among the ties"
    );

    // Sending the estimate selects a route that delivers at least toAmount.
    let request = estimate.request(to, now);
    assert_eq!(request.from_amount().get(), value);
    let selection = request.select(&rates);
    assert!(
        selection.no_route().is_none(),
        "NoRoute for the estimate: {:?}",
        selection.no_route()
    );
    let own = selection
        .routes()
        .iter()
        .find(|r| std::ptr::eq(r.rate(), rate))
        .expect("the estimate's own rate is ranked");
    assert!(
        delivers(own.net_output(), to.get()),
        "own route delivers {} < {to}",
        own.net_output()
    );
    assert_eq!(own.required_input(), Some(estimate.from_amount()));
    let best = selection.best().expect("a route");
    assert!(
        delivers(best.net_output(), to.get()),
        "best route delivers {} < {to}",
        best.net_output()
    );
    let best_index = rates
        .iter()
        .position(|r| std::ptr::eq(r, best.rate()))
        .expect("in input");
    let same_key = best.rate().id() == rate.id()
        && best.rate().miner_fee() == fee
        && best.net_output() == own.net_output();
    if !same_key {
        assert!(
            matches!(expected[best_index], Err("BELOW_MIN" | "NO_OUTPUT")),
            "best route {:?} is not the estimate's rate and no exception applies ({:?})",
            best.rate().id(),
            expected[best_index]
        );
    }
});
