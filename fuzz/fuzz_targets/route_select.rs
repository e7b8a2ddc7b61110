//! Route selection on structured input (up to 16 rates and a request), checked
//! against a naive oracle written here from rulings 2, 3, 5, 6 and 7 in docs/RULES.md:
//!
//! - every ranked route satisfies min ≤ fromAmount ≤ effective max, and the
//!   effective max is `max`, or the campaign limit when that is lower;
//! - every input rate is ranked or rejected exactly once (counted by index);
//! - each rate's fate (ranked, or the reason code it was rejected with) and each
//!   route's numbers equal the oracle's, and the ranking equals the oracle's
//!   sort by (net desc, fee asc, non-sponsored first, id bytes asc);
//! - `best` == `select().best()` == `top(k)[0]`, `top(k)` and `top_n::<K>`
//!   (K = 1, 3, 8) are the prefix of the ranking, and the ranking does not
//!   depend on input order; `top_n_into` over a buffer that held another
//!   answer gives `top_n`'s;
//! - no sponsored route in ExactOut, and ExactOut routes carry the required
//!   input of ruling 8, checked exactly (big-integer oracle in this file);
//! - a `NoRoute` is present iff no route is, and `best`/`top`/`top_n` report the same one;
//! - in ExactIn, a `RateBook` built up to 255 ms earlier answers as `best` does.
#![no_main]

use std::cmp::Ordering;
use std::collections::BTreeMap;

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;

#[path = "../../tests/common/mod.rs"]
mod common;
#[path = "../common/inputs.rs"]
mod inputs;
use common::exact_required_input;
use inputs::{Num, NOW};
use swaproute::decimal::{Amount, Decimal, Fixed8};
use swaproute::rate::{CampaignLimits, Rate};
use swaproute::route::RateBook;
use swaproute::{CampaignId, EpochMillis, Route, RouteRequest, Selection, TopN};

const CAMPAIGNS: [&str; 3] = ["spring", "summer", "unknown"];

#[derive(Arbitrary, Debug)]
struct FuzzRate {
    id: u8,
    multiplier: Num,
    fee: Num,
    min: Num,
    max: Num,
    /// Expiry relative to `now`; ties with `now` (expired) are common.
    expiry: i8,
    exact_out: bool,
    sponsor: Option<u8>,
}

#[derive(Arbitrary, Debug)]
struct Input {
    rates: Vec<FuzzRate>,
    exact_out: bool,
    from: Num,
    to: Num,
    campaigns: Vec<(u8, Num)>,
    k: u8,
    /// How long before `now` a `RateBook` over the same rates was built.
    book_age: u8,
}

struct Built {
    rates: Vec<Rate>,
    campaigns: CampaignLimits,
    /// The oracle's own view of the campaign limits (last insert wins).
    limits: BTreeMap<&'static str, Decimal>,
    now: EpochMillis,
    exact_out: bool,
    from: Amount,
    to: Amount,
    k: usize,
    book_built_at: EpochMillis,
}

fn build(input: &Input) -> Built {
    let rates = input
        .rates
        .iter()
        .take(16)
        .map(|r| {
            let numbers = [r.multiplier, r.fee, r.min, r.max];
            let mut rate = inputs::rate(r.id, numbers, r.expiry).with_exact_out(r.exact_out);
            if let Some(c) = r.sponsor {
                let campaign = CAMPAIGNS[usize::from(c) % CAMPAIGNS.len()];
                rate = rate.sponsored_by(CampaignId::new(campaign).expect("valid id"));
            }
            rate
        })
        .collect();
    let mut campaigns = CampaignLimits::new();
    let mut limits = BTreeMap::new();
    // "unknown" is never given a limit.
    for (c, limit) in input.campaigns.iter().take(4) {
        let name = CAMPAIGNS[usize::from(*c) % 2];
        campaigns.insert(CampaignId::new(name).expect("valid id"), limit.amount());
        limits.insert(name, limit.amount().get());
    }
    Built {
        rates,
        campaigns,
        limits,
        now: EpochMillis::new(NOW),
        exact_out: input.exact_out,
        from: input.from.amount(),
        to: input.to.amount(),
        k: usize::from(input.k % 20),
        book_built_at: EpochMillis::new(NOW - u64::from(input.book_age)),
    }
}

/// What the oracle expects of one rate.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Expected {
    net: Decimal,
    effective_max: Decimal,
    required_input: Option<Decimal>,
}

/// Ruling 5, in order, first failure reported; written from the ruling, not the code.
fn oracle(rate: &Rate, b: &Built) -> Result<Expected, &'static str> {
    let (m, fee, min, max) = (rate.multiplier(), rate.miner_fee(), rate.min(), rate.max());
    if m <= Decimal::ZERO || fee < Decimal::ZERO || min < Decimal::ZERO || min > max {
        return Err("INVALID_RATE");
    }
    if rate.expiry().as_millis() <= b.now.as_millis() {
        return Err("EXPIRED");
    }
    if b.exact_out && !rate.supports_exact_out() {
        return Err("EXACT_OUT_UNSUPPORTED");
    }
    let campaign = rate.sponsored_by_campaign_id();
    if b.exact_out && campaign.is_some() {
        return Err("SPONSORED_IN_EXACT_OUT");
    }
    let x = b.from.get();
    let effective_max = match campaign.and_then(|c| b.limits.get(c.as_str())) {
        Some(&limit) if limit < max => limit,
        _ => max,
    };
    // Ruling 30: a campaign limit below min serves no amount.
    if effective_max < min {
        return Err("CAMPAIGN_LIMIT_BELOW_MIN");
    }
    if x < min {
        return Err("BELOW_MIN");
    }
    if x > effective_max {
        return Err("ABOVE_MAX");
    }
    // Arithmetic overflow (the ExactOut required input is part of the
    // arithmetic), then a non-positive output.
    // The engine reports the exact net, rounded once where a Decimal cannot hold it.
    let Some(net) = common::exact_net(x, m, fee) else {
        return Err("OVERFLOW");
    };
    let required_input = if b.exact_out {
        match exact_required_input(m, b.to.get(), fee) {
            Some(input) => Some(input),
            None => return Err("OVERFLOW"),
        }
    } else {
        None
    };
    if net <= Decimal::ZERO {
        return Err("NO_OUTPUT");
    }
    Ok(Expected {
        net,
        effective_max,
        required_input,
    })
}

/// The ranking order of rulings 6 and 7.
fn rank(a: (&Rate, Decimal), b: (&Rate, Decimal)) -> Ordering {
    b.1.cmp(&a.1)
        .then_with(|| a.0.miner_fee().cmp(&b.0.miner_fee()))
        .then_with(|| a.0.is_sponsored().cmp(&b.0.is_sponsored()))
        .then_with(|| {
            a.0.id()
                .as_str()
                .as_bytes()
                .cmp(b.0.id().as_str().as_bytes())
        })
}

fn index_of(rates: &[Rate], rate: &Rate) -> usize {
    rates
        .iter()
        .position(|r| std::ptr::eq(r, rate))
        .expect("a route points into the input slice")
}

/// The ranking keys of a selection, which do not depend on input order.
fn keys(selection: &Selection<'_>) -> Vec<(Decimal, Decimal, bool, String)> {
    selection
        .routes()
        .iter()
        .map(|r| {
            (
                r.net_output(),
                r.rate().miner_fee(),
                r.rate().is_sponsored(),
                r.rate().id().as_str().to_owned(),
            )
        })
        .collect()
}

fn same_route(a: &Route<'_>, b: &Route<'_>) -> bool {
    std::ptr::eq(a.rate(), b.rate()) && a == b
}

fuzz_target!(|input: Input| {
    let b = build(&input);
    let rates = &b.rates;
    let request = if b.exact_out {
        RouteRequest::exact_out(b.from, b.to, b.now)
    } else {
        RouteRequest::exact_in(b.from, b.now)
    };
    let request = request.with_campaigns(&b.campaigns);
    let selection = request.select(rates);

    // Every rate is ranked or rejected exactly once.
    let mut seen = vec![0_u32; rates.len()];
    for route in selection.routes() {
        seen[index_of(rates, route.rate())] += 1;
    }
    for rejection in selection.rejected() {
        seen[index_of(rates, rejection.rate())] += 1;
    }
    assert!(
        seen.iter().all(|&n| n == 1),
        "ranked/rejected counts {seen:?}"
    );

    // Each rate's fate equals the oracle's.
    let expected: Vec<Result<Expected, &'static str>> =
        rates.iter().map(|r| oracle(r, &b)).collect();
    for rejection in selection.rejected() {
        let i = index_of(rates, rejection.rate());
        assert_eq!(
            expected[i].err(),
            Some(rejection.reason().code()),
            "rate {i} rejected with {:?}",
            rejection.reason()
        );
    }

    // The ranking equals the oracle's (a stable sort of the eligible rates).
    let mut oracle_ranking: Vec<usize> =
        (0..rates.len()).filter(|&i| expected[i].is_ok()).collect();
    oracle_ranking.sort_by(|&i, &j| {
        let net = |k: usize| expected[k].as_ref().expect("eligible").net;
        rank((&rates[i], net(i)), (&rates[j], net(j)))
    });
    let ranking: Vec<usize> = selection
        .routes()
        .iter()
        .map(|r| index_of(rates, r.rate()))
        .collect();
    assert_eq!(ranking, oracle_ranking, "ranking differs from the oracle");

    for route in selection.routes() {
        let rate = route.rate();
        let want = expected[index_of(rates, rate)].expect("ranked rates are eligible");
        assert_eq!(route.net_output(), want.net);
        assert_eq!(route.effective_max(), want.effective_max);
        assert_eq!(route.required_input().map(Fixed8::get), want.required_input);
        // The limit invariants.
        let x = b.from.get();
        assert!(
            rate.min() <= x && x <= route.effective_max(),
            "limits broken"
        );
        assert!(route.effective_max() <= rate.max());
        if let Some(limit) = rate
            .sponsored_by_campaign_id()
            .and_then(|c| b.campaigns.limit(c))
        {
            assert!(route.effective_max() <= limit, "campaign limit ignored");
        }
        assert!(route.net_output() > Decimal::ZERO);
        if b.exact_out {
            assert!(!rate.is_sponsored(), "sponsored route in ExactOut");
            assert!(rate.supports_exact_out());
            let required = route.required_input().expect("ExactOut routes carry it");
            assert_eq!(route.order_amount(), required.get());
        } else {
            assert_eq!(route.required_input(), None);
            assert_eq!(route.order_amount(), x);
        }
    }

    // NoRoute iff no route; best / top agree with select.
    let routes = selection.routes();
    assert_eq!(selection.no_route().is_some(), routes.is_empty());
    match (request.best(rates), selection.best()) {
        (Ok(best), Some(first)) => assert!(same_route(&best, first), "best != select().best()"),
        (Err(no_route), None) => assert_eq!(Some(&no_route), selection.no_route()),
        (best, first) => panic!("best {best:?} but select().best() {first:?}"),
    }
    if rates.is_empty() {
        assert_eq!(selection.no_route(), Some(&swaproute::NoRoute::NoRates));
    }
    for k in [1, b.k] {
        match request.top(rates, k) {
            Ok(top) => {
                assert!(!routes.is_empty());
                assert_eq!(top.len(), k.min(routes.len()));
                assert!(
                    top.iter().zip(routes).all(|(t, r)| same_route(t, r)),
                    "top({k}) is not the prefix"
                );
                assert!(top
                    .iter()
                    .zip(selection.top(k))
                    .all(|(t, r)| same_route(t, r)));
            }
            Err(no_route) => {
                assert!(routes.is_empty(), "top({k}) failed with routes left");
                assert_eq!(Some(&no_route), selection.no_route());
            }
        }
    }

    // The fixed-k API (its own keeper: arrays, a fill phase) agrees with `top`.
    check_top_n::<1>(&request, rates, routes, selection.no_route());
    check_top_n::<3>(&request, rates, routes, selection.no_route());
    check_top_n::<8>(&request, rates, routes, selection.no_route());

    // ExactIn: a RateBook built a little earlier answers exactly as `best`.
    if !b.exact_out {
        let book = RateBook::new(rates, &b.campaigns, b.book_built_at);
        match (book.best(b.from, b.now), request.best(rates)) {
            (Ok(from_book), Ok(best)) => {
                assert!(same_route(&from_book, &best), "RateBook and best differ")
            }
            (Err(from_book), Err(best)) => assert_eq!(from_book, best),
            (from_book, best) => panic!("RateBook {from_book:?} but best {best:?}"),
        }
    }

    // Input order does not matter (compared by ranking keys: equal ids and
    // numbers make two rates interchangeable).
    let reversed: Vec<Rate> = rates.iter().rev().cloned().collect();
    let again = request.select(&reversed);
    assert_eq!(
        keys(&again),
        keys(&selection),
        "ranking depends on input order"
    );
    assert_eq!(again.no_route(), selection.no_route());
});

/// `top_n::<K>` is the first `K` routes of the selection, or its "no route".
fn check_top_n<const K: usize>(
    request: &RouteRequest<'_>,
    rates: &[Rate],
    routes: &[Route<'_>],
    no_route: Option<&swaproute::NoRoute>,
) {
    match request.top_n::<K>(rates) {
        Ok(top) => {
            assert_eq!(top.len(), K.min(routes.len()), "top_n::<{K}> length");
            assert!(
                top.iter().zip(routes).all(|(t, r)| same_route(t, r)),
                "top_n::<{K}> is not the prefix"
            );
        }
        Err(err) => {
            assert!(routes.is_empty(), "top_n::<{K}> failed with routes left");
            assert_eq!(Some(&err), no_route);
        }
    }
    // `top_n_into` over a buffer holding the answer for every rate: the
    // answer for the second half replaces it entirely.
    let mut buffer = TopN::<K>::new();
    let _ = request.top_n_into(rates, &mut buffer);
    let half = rates.get(rates.len() / 2..).unwrap_or_default();
    match (
        request.top_n_into(half, &mut buffer),
        request.top_n::<K>(half),
    ) {
        (Ok(()), Ok(fresh)) => assert_eq!(buffer, fresh, "top_n_into kept stale routes"),
        (Err(a), Err(b)) => {
            assert_eq!(a, b);
            assert!(buffer.is_empty() && buffer.iter().next().is_none());
        }
        (a, b) => panic!("top_n_into {a:?} but top_n {b:?}"),
    }
}
