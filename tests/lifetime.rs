#![allow(clippy::arithmetic_side_effects)]
//! Ruling 50 (docs/RULES.md), proven: for every schedule, ranking at every
//! expiry boundary and ±1 ms gives the scheduled answer (and an independent
//! big-integer oracle agrees without a guard); `valid_until` is the first
//! interval's end without a guard, and with a median guard the earlier of
//! the answer's own end and the first voter's expiry, never after it; re-quotes are anchored to the original promise (twice is
//! once); deposit classes match an oracle of the plan's limits and expiry
//! written here from the rules.

use num_bigint::BigInt;
use proptest::prelude::*;
use swaproute::order::{DepositClass, FixedOrderRequest, OrderContext, Promise, RequoteClass};
use swaproute::route::PriceGuard;
use swaproute::screening::ScreeningPolicy;
use swaproute::{Amount, Decimal, EpochMillis, Rate, RatesResponse, RouteRequest, SwapMode};

use crate::common::{amount, btc_eth_rate, d, exact_value};

const NOW: u64 = 1_000_000;

/// One random rate: multiplier, fee, min, max (tenths), expiry offset.
fn spec() -> impl Strategy<Value = (u32, u32, u32, u32, i64)> {
    (
        prop::sample::select(vec![28u32, 29, 30, 31, 32]),
        0u32..3,
        0u32..12,
        0u32..30,
        prop::sample::select(vec![-5i64, 0, 1, 100, 250, 250, 400, 1000, 1001]),
    )
}

fn book(specs: &[(u32, u32, u32, u32, i64)]) -> Vec<Rate> {
    specs
        .iter()
        .enumerate()
        .map(|(i, &(m, fee, min, span, offset))| {
            let expiry = u64::try_from(i64::try_from(NOW).unwrap() + offset).unwrap();
            btc_eth_rate(
                &format!("r{i:02}"),
                &m.to_string(),
                &format!("0.0{fee}"),
                &format!("{}", Decimal::new(i64::from(min), 1)),
                &format!("{}", Decimal::new(i64::from(min + span), 1)),
                EpochMillis::new(expiry),
            )
        })
        .collect()
}

fn exact_in(x: Amount, t: u64) -> RouteRequest<'static> {
    RouteRequest::exact_in(x, EpochMillis::new(t))
}

/// The best rate id at `t` by the rules alone (rulings 5, 6, 7, 43):
/// unexpired, valid, `min ≤ x ≤ max`, exact net > 0; highest exact net,
/// then lower fee, then id bytes (no sponsored rates here).
fn oracle_best(rates: &[Rate], x: Decimal, t: u64) -> Option<String> {
    rates
        .iter()
        .filter(|r| r.expiry().as_millis() > t && r.min() <= x && x <= r.max())
        .filter(|r| r.multiplier() > Decimal::ZERO && r.min() <= r.max())
        .map(|r| (exact_value(x, r.multiplier(), r.miner_fee()), r))
        .filter(|(net, _)| *net > BigInt::from(0u8))
        .max_by(|(na, a), (nb, b)| {
            na.cmp(nb)
                .then(b.miner_fee().cmp(&a.miner_fee()))
                .then(b.id().as_str().as_bytes().cmp(a.id().as_str().as_bytes()))
        })
        .map(|(_, r)| r.id().as_str().to_owned())
}

/// Every instant worth trying: `now`, each expiry, and ±1 ms of each.
fn instants(rates: &[Rate]) -> Vec<u64> {
    let mut out = vec![NOW, NOW + 1];
    for r in rates {
        let e = r.expiry().as_millis();
        out.extend([e.saturating_sub(1), e, e + 1]);
    }
    out.retain(|t| *t >= NOW);
    out.sort_unstable();
    out.dedup();
    out
}

proptest! {
    #[test]
    fn every_instant_of_a_schedule_ranks_its_answer(
        specs in prop::collection::vec(spec(), 0..9),
        x in 1u32..40,
        guard in prop::option::of(prop::sample::select(vec![0u32, 100, 500])),
    ) {
        let rates = book(&specs);
        let response = RatesResponse::try_from(rates.clone()).unwrap();
        let x = Amount::new(Decimal::new(i64::from(x), 1)).unwrap();
        let guard = guard.map(PriceGuard::median);
        let at = |t: u64| match &guard {
            Some(g) => exact_in(x, t).with_price_guard(g),
            None => exact_in(x, t),
        };
        let schedule = at(NOW).schedule(&response).unwrap();
        let intervals = schedule.intervals();
        let end = rates.iter().map(|r| r.expiry().as_millis()).filter(|e| *e > NOW).max();
        // Contiguous from now to the last expiry; neighbours differ.
        match end {
            None => prop_assert!(intervals.is_empty()),
            Some(end) => {
                prop_assert_eq!(intervals[0].from().as_millis(), NOW);
                prop_assert_eq!(intervals.last().unwrap().until().as_millis(), end);
            }
        }
        for pair in intervals.windows(2) {
            prop_assert_eq!(pair[0].until(), pair[1].from());
            prop_assert!(pair[0].from() < pair[0].until());
            prop_assert_ne!(pair[0].rate_id(), pair[1].rate_id());
        }
        let first_change = intervals.first().map(swaproute::route::Interval::until);
        let until = at(NOW).valid_until(&response);
        if guard.is_none() {
            prop_assert_eq!(until, first_change);
        } else {
            // Ruling 50 under a median guard: the answer's own lifetime (the
            // chosen rate's expiry, or the last expiry for "no route"), or
            // the first voter's expiry if earlier (ruling 42's voters: live
            // rates that serve some amount, their max being their best),
            // never after the schedule's first change.
            let live = |r: &&Rate| r.expiry().as_millis() > NOW;
            let own = match at(NOW).best(&response) {
                Ok(route) => Some(route.rate().expiry()),
                Err(_) => rates.iter().filter(live).map(Rate::expiry).max(),
            };
            let voter = rates
                .iter()
                .filter(live)
                .filter(|r| r.multiplier() > Decimal::ZERO && r.min() <= r.max() && r.max() > Decimal::ZERO)
                .filter(|r| exact_value(r.max(), r.multiplier(), r.miner_fee()) > BigInt::from(0u8))
                .map(Rate::expiry)
                .min();
            let expected = match (own, voter) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
            prop_assert_eq!(until, expected);
            prop_assert!(until <= first_change, "{:?} after the first change {:?}", until, first_change);
        }
        for t in instants(&rates) {
            let ranked = at(t).best(&response).ok().map(|r| r.rate().id().as_str().to_owned());
            let scheduled = schedule.at(EpochMillis::new(t));
            match scheduled {
                Some(interval) => prop_assert_eq!(
                    interval.rate_id().map(|id| id.as_str().to_owned()), ranked.clone(), "t = {}", t),
                // Past the schedule: nothing is live, so no route.
                None => prop_assert!(ranked.is_none() && end.is_none_or(|e| t >= e)),
            }
            if guard.is_none() {
                prop_assert_eq!(ranked, oracle_best(&rates, x.get(), t), "oracle at t = {}", t);
            }
        }
    }

    #[test]
    fn top_and_select_hold_until_their_valid_until(
        specs in prop::collection::vec(spec(), 1..9),
        x in 1u32..40,
        k in 1usize..4,
    ) {
        let rates = book(&specs);
        let response = RatesResponse::try_from(rates.clone()).unwrap();
        let x = Amount::new(Decimal::new(i64::from(x), 1)).unwrap();
        let ids = |t: u64| -> Vec<String> {
            exact_in(x, t).top(&response, k).unwrap_or_default()
                .iter().map(|r| r.rate().id().as_str().to_owned()).collect()
        };
        if let Some(until) = exact_in(x, NOW).top_valid_until(&response, k) {
            let until = until.as_millis();
            prop_assert!(until > NOW);
            // Unchanged on [now, until): every boundary inside, and just before.
            for t in instants(&rates).into_iter().filter(|t| *t < until) {
                prop_assert_eq!(ids(t), ids(NOW));
            }
        }
        // select changes at the first expiry of any live rate.
        let first = rates.iter().map(|r| r.expiry().as_millis()).filter(|e| *e > NOW).min();
        prop_assert_eq!(exact_in(x, NOW).select_valid_until(&response).map(EpochMillis::as_millis), first);
    }

    #[test]
    fn requoting_twice_is_requoting_once(
        mode in prop::sample::select(vec![SwapMode::ExactIn, SwapMode::ExactOut]),
        promised in 50i64..150,
        slack in 0i64..20,
        fresh1 in 0i64..200,
        fresh2 in 0i64..200,
    ) {
        let bound = match mode { SwapMode::ExactIn => promised - slack, SwapMode::ExactOut => promised + slack };
        let p = Promise::new(mode, Decimal::from(promised), Decimal::from(bound)).unwrap();
        let once = p.classify(Decimal::from(fresh2));
        let twice = p.classify(Decimal::from(fresh1)).promise().classify(Decimal::from(fresh2));
        prop_assert_eq!(&once, &twice);
        // The class by hand, from the original promise and bound.
        let (f, pr, b) = (fresh2, promised, bound);
        let expected = if f <= 0 { RequoteClass::Gone }
            else if f == pr { RequoteClass::Same }
            else if (mode == SwapMode::ExactIn) == (f > pr) { RequoteClass::Better }
            else if (mode == SwapMode::ExactIn && f >= b) || (mode == SwapMode::ExactOut && f <= b) {
                RequoteClass::WorseWithin
            } else { RequoteClass::WorseBeyond };
        prop_assert_eq!(once.class(), expected);
        // The loss from the original promise, in bps, rounded up to 2 places:
        // ceil(diff × 10⁶ / promised) / 100 in integers.
        if f > 0 {
            let diff = if mode == SwapMode::ExactIn { pr - f } else { f - pr };
            let num = diff * 1_000_000;
            let ceil = num.div_euclid(pr) + i64::from(num.rem_euclid(pr) != 0);
            prop_assert_eq!(once.loss_bps(), Some(Decimal::new(ceil, 2).normalize()));
        }
        // A worse fresh promise never gets a better class.
        let a = p.classify(Decimal::from(fresh1));
        let worse_or_equal = match mode { SwapMode::ExactIn => fresh2 <= fresh1, SwapMode::ExactOut => fresh2 >= fresh1 };
        if worse_or_equal && fresh2 > 0 && fresh1 > 0 {
            prop_assert!(rank(once.class()) >= rank(a.class()), "{:?} then {:?}", a.class(), once.class());
        }
    }

    #[test]
    fn deposits_match_an_oracle_of_the_plans_limits_and_expiry(
        min in 1i64..10,
        span in 0i64..20,
        m in 25i64..35,
        fee in 0i64..5,
        expiry in 1i64..100,
        deposit in 0i64..40,
        observed in 0i64..120,
    ) {
        let (min_d, max_d) = (Decimal::new(min, 1), Decimal::new(min + span, 1));
        let expiry = NOW + u64::try_from(expiry).unwrap();
        let rates = vec![btc_eth_rate("a", &m.to_string(), &Decimal::new(fee, 2).to_string(),
            &min_d.to_string(), &max_d.to_string(), EpochMillis::new(expiry))];
        let response = RatesResponse::try_from(rates).unwrap();
        let body = FixedOrderRequest::from_json(format!(
            r#"{{"pairId":"BTC_ETH","fromAmount":"{min_d}","toAmount":"1","slippage":100,
            "fromAddress":null,"toAddress":"0x52908400098527886E0F7030069857D2E4169EE7"}}"#).as_bytes()).unwrap();
        let screening = ScreeningPolicy::new();
        let plan = body.plan(&response, &OrderContext::new(EpochMillis::new(NOW), &screening)).unwrap();
        let x = Decimal::new(deposit, 1);
        let at = NOW + u64::try_from(observed).unwrap();
        let outcome = plan.deposit_outcome(Amount::new(x).unwrap(), EpochMillis::new(at));
        // The oracle: expiry first, then min, max, the planned amount (= min here).
        let expected = if at >= expiry { DepositClass::AfterExpiry }
            else if x < min_d { DepositClass::BelowMin }
            else if x > max_d { DepositClass::AboveMax }
            else if x == min_d { DepositClass::Completes }
            else { DepositClass::OtherAmount };
        prop_assert_eq!(outcome.class(), expected);
        match expected {
            DepositClass::BelowMin => prop_assert_eq!(outcome.limit(), Some(min_d)),
            DepositClass::AboveMax => prop_assert_eq!(outcome.limit(), Some(max_d)),
            DepositClass::Completes | DepositClass::OtherAmount => {
                // x/10 × m − fee/100, floored to 8 places, in integers (× 10⁸).
                let scaled = BigInt::from(deposit * m) * BigInt::from(10_000_000u64)
                    - BigInt::from(fee) * BigInt::from(1_000_000u64);
                let floored = if scaled < BigInt::from(0) { BigInt::from(0) } else { scaled };
                let text = Decimal::from_i128_with_scale(i128::try_from(floored).unwrap(), 8);
                prop_assert_eq!(outcome.expected_output().map(|v| v.normalize()), Some(text.normalize()));
                prop_assert_eq!(outcome.limit(), None);
            }
            DepositClass::AfterExpiry => prop_assert_eq!(outcome.expected_output(), None),
        }
    }
}

/// One random rate around a median near 100: multiplier, fee (tenths),
/// min, max (tenths), expiry step, ExactOut capability.
fn guarded_spec() -> impl Strategy<Value = (u32, u32, u32, u32, u64, bool)> {
    (
        prop::sample::select(vec![80u32, 94, 95, 96, 99, 100, 101, 104, 105, 106, 120]),
        prop::sample::select(vec![0u32, 1, 500]),
        0u32..40,
        0u32..40,
        prop::sample::select(vec![0u64, 1, 2, 3, 3, 5, 8, 13]),
        any::<bool>(),
    )
}

fn guarded_book(specs: &[(u32, u32, u32, u32, u64, bool)]) -> Vec<Rate> {
    specs
        .iter()
        .enumerate()
        .map(|(i, &(m, fee, min, span, step, exact_out))| {
            btc_eth_rate(
                &format!("r{i:02}"),
                &m.to_string(),
                &Decimal::new(i64::from(fee), 1).to_string(),
                &Decimal::new(i64::from(min), 1).to_string(),
                &Decimal::new(i64::from(min + span), 1).to_string(),
                EpochMillis::new(NOW + step * 100),
            )
            .with_exact_out(exact_out)
        })
        .collect()
}

/// An answer as a schedule holds it.
type Answer<'r> = Result<swaproute::route::Route<'r>, swaproute::route::NoRoute>;

/// The schedule by brute force, from the public questions alone: between
/// two consecutive expiries nothing changes, so the answer there is
/// `best` at the first instant; neighbours with the same rate (or both
/// "no route", the first one's kept) merge.
fn brute_schedule<'r>(
    at: &dyn Fn(u64) -> RouteRequest<'r>,
    response: &'r RatesResponse,
    rates: &[Rate],
) -> Vec<(u64, u64, Answer<'r>)> {
    let mut instants: Vec<u64> = rates
        .iter()
        .map(|r| r.expiry().as_millis())
        .filter(|e| *e > NOW)
        .collect();
    instants.sort_unstable();
    instants.dedup();
    let mut out: Vec<(u64, u64, Answer<'r>)> = Vec::new();
    let mut from = NOW;
    for until in instants {
        let answer = at(from).best(response);
        let merge = out
            .last()
            .is_some_and(|(_, _, last)| match (last, &answer) {
                (Ok(a), Ok(b)) => a.rate().id() == b.rate().id(),
                (Err(_), Err(_)) => true,
                _ => false,
            });
        match out.last_mut() {
            Some(last) if merge => last.1 = until,
            _ => out.push((from, until, answer)),
        }
        from = until;
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]
    /// Issue 46: under a median guard the schedule (built in `O(n log n)`)
    /// is the brute-force one, interval by interval: bounds, the route
    /// (every field) or the "no route" (every field, as at the interval's
    /// start); in ExactIn and ExactOut, with multipliers on the guard's
    /// boundary, equal expiries, voters that cannot serve the amount and
    /// rates that serve nothing (a fee of 50 at a max of at most 0.4).
    #[test]
    fn a_median_guarded_schedule_is_the_brute_force_one(
        specs in prop::collection::vec(guarded_spec(), 0..12),
        x in 1u32..40,
        exact_out in any::<bool>(),
        bps in prop::sample::select(vec![0u32, 100, 500, 1000, 2500]),
    ) {
        let rates = guarded_book(&specs);
        let response = RatesResponse::try_from(rates.clone()).unwrap();
        let guard = PriceGuard::median(bps);
        let x = Amount::new(Decimal::new(i64::from(x), 1)).unwrap();
        let to = Amount::new(x.get() * Decimal::from(90)).unwrap();
        let at = |t: u64| {
            let request = if exact_out {
                RouteRequest::exact_out(x, to, EpochMillis::new(t))
            } else {
                exact_in(x, t)
            };
            request.with_price_guard(&guard)
        };
        let schedule = at(NOW).schedule(&response).unwrap();
        let got: Vec<(u64, u64, Answer<'_>)> = schedule
            .intervals()
            .iter()
            .map(|i| {
                // A "no route" interval is explained by ranking at its first
                // instant: the same request moved there with `at`.
                let answer = match i.route() {
                    Some(route) => Ok(*route),
                    None => at(NOW).at(i.from()).best(&response),
                };
                (i.from().as_millis(), i.until().as_millis(), answer)
            })
            .collect();
        prop_assert_eq!(got, brute_schedule(&at, &response, &rates));
    }
}

/// The "no route" intervals are not bounded by a constant: a median guard
/// whose voters can out-vote the only route flips with every expiry. At 1
/// BTC only `e` (×100) serves; `lo-i` (×100) and `hi-i` (×200) serve 2-10
/// BTC only but vote. With `k` of each, the count is odd (median 100, `e`
/// admitted) until a `lo` leaves (even: median 150, `e` refused at 500
/// bps: no route), then a `hi` leaves (odd again: 100). `lo-i` expires at
/// `NOW + 2i + 1`, `hi-i` at `NOW + 2i + 2`: `k` no-route intervals,
/// written down here from that argument, not from the output.
#[test]
fn a_flipping_median_makes_a_no_route_per_flip() {
    let k = 40u64;
    let mut rates = vec![btc_eth_rate(
        "e",
        "100",
        "0",
        "0.1",
        "10",
        EpochMillis::new(NOW + 2 * k + 10),
    )];
    for i in 0..k {
        rates.push(btc_eth_rate(
            &format!("lo-{i:03}"),
            "100",
            "0",
            "2",
            "10",
            EpochMillis::new(NOW + 2 * i + 1),
        ));
        rates.push(btc_eth_rate(
            &format!("hi-{i:03}"),
            "200",
            "0",
            "2",
            "10",
            EpochMillis::new(NOW + 2 * i + 2),
        ));
    }
    let response = RatesResponse::try_from(rates.clone()).unwrap();
    let guard = PriceGuard::median(500);
    let at = |t: u64| exact_in(amount("1"), t).with_price_guard(&guard);
    let schedule = at(NOW).schedule(&response).unwrap();
    let got: Vec<(u64, u64, Option<&str>)> = schedule
        .intervals()
        .iter()
        .map(|i| {
            (
                i.from().as_millis(),
                i.until().as_millis(),
                i.rate_id().map(swaproute::RateId::as_str),
            )
        })
        .collect();
    let mut expected = Vec::new();
    for i in 0..k {
        let from = if i == 0 { NOW } else { NOW + 2 * i };
        expected.push((from, NOW + 2 * i + 1, Some("e")));
        expected.push((NOW + 2 * i + 1, NOW + 2 * i + 2, None));
    }
    // Every voter gone but `e`: the median is its own multiplier.
    expected.push((NOW + 2 * k, NOW + 2 * k + 10, Some("e")));
    assert_eq!(got, expected);
    let no_routes = schedule
        .intervals()
        .iter()
        .filter(|i| i.rate_id().is_none())
        .count();
    assert_eq!(no_routes, usize::try_from(k).unwrap());
    // Each "no route" is the one ranking gives at its first instant.
    for interval in schedule.intervals() {
        let ranked = at(interval.from().as_millis()).best(&response);
        let explained = match interval.route() {
            Some(route) => Ok(*route),
            None => at(NOW).at(interval.from()).best(&response),
        };
        assert_eq!(explained, ranked);
        assert_eq!(interval.route().is_none(), ranked.is_err());
    }
}

fn rank(class: RequoteClass) -> u8 {
    match class {
        RequoteClass::Better => 0,
        RequoteClass::Same => 1,
        RequoteClass::WorseWithin => 2,
        RequoteClass::WorseBeyond => 3,
        RequoteClass::Gone => 4,
    }
}

#[test]
fn a_schedule_by_hand() {
    // At 0.5 BTC: b (31) until 1250, a (30) until 2000, then c (29, 3000)
    // cannot serve 0.5 (min 1): no route until 3000.
    let rates = vec![
        btc_eth_rate("a", "30", "0", "0.1", "1", EpochMillis::new(2000)),
        btc_eth_rate("b", "31", "0", "0.1", "1", EpochMillis::new(1250)),
        btc_eth_rate("c", "29", "0", "1", "2", EpochMillis::new(3000)),
        btc_eth_rate("d", "28", "0", "0.1", "1", EpochMillis::new(1500)),
    ];
    let response = RatesResponse::try_from(rates).unwrap();
    let request = RouteRequest::exact_in(amount("0.5"), EpochMillis::new(1000));
    let got: Vec<_> = request
        .schedule(&response)
        .unwrap()
        .intervals()
        .iter()
        .map(|i| {
            (
                i.from().as_millis(),
                i.until().as_millis(),
                i.rate_id().map(|r| r.as_str().to_owned()),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            (1000, 1250, Some("b".to_owned())),
            (1250, 2000, Some("a".to_owned())),
            (2000, 3000, None),
        ]
    );
    assert_eq!(request.valid_until(&response), Some(EpochMillis::new(1250)));
    assert_eq!(
        request.top_valid_until(&response, 2),
        Some(EpochMillis::new(1250))
    );
    assert_eq!(d("0.5"), request.from_amount().get());
}

/// Split lifetimes by hand: at 1.5 BTC a (×30, max 1, expires 2000) and b
/// (×29, max 1, 5000) share the amount; c (×29.5, min 10, 1500) cannot
/// serve 1.5 but serves 10-20, so it votes for a median guard. Without a
/// guard the split holds until its first leg expires (2000); with a median
/// guard, until the first voter leaves (1500: the reference may move).
#[test]
fn a_split_holds_until_its_first_leg_or_its_first_voter_leaves() {
    use swaproute::route::{split_valid_until, SplitAnswer, SplitPolicy};
    let rates = RatesResponse::try_from(vec![
        btc_eth_rate("a", "30", "0", "0.1", "1", EpochMillis::new(2000)),
        btc_eth_rate("b", "29", "0", "0.1", "1", EpochMillis::new(5000)),
        btc_eth_rate("c", "29.5", "0", "10", "20", EpochMillis::new(1500)),
    ])
    .unwrap();
    let plain = exact_in(amount("1.5"), 1000);
    let answer = plain.split(&rates, &SplitPolicy::default()).unwrap();
    assert!(matches!(answer, SplitAnswer::Split(_)));
    assert_eq!(
        split_valid_until(&plain, &rates, &answer),
        Some(EpochMillis::new(2000))
    );
    let guard = PriceGuard::median(1000);
    let guarded = plain.with_price_guard(&guard);
    let answer = guarded.split(&rates, &SplitPolicy::default()).unwrap();
    assert!(matches!(answer, SplitAnswer::Split(_)));
    assert_eq!(
        split_valid_until(&guarded, &rates, &answer),
        Some(EpochMillis::new(1500))
    );
    // A single route: its rate's expiry (a alone serves 0.5 best: ×30).
    let single = exact_in(amount("0.5"), 1000);
    let answer = single.split(&rates, &SplitPolicy::default()).unwrap();
    assert!(matches!(answer, SplitAnswer::Single(_)));
    assert_eq!(
        split_valid_until(&single, &rates, &answer),
        Some(EpochMillis::new(2000))
    );
}

/// `top(rates, 0)` shows nothing: its lifetime is `best`'s (a at 0.5 BTC,
/// until 2000); the top 2 (a, b) hold until a leaves.
#[test]
fn top_lifetimes_by_hand() {
    let rates = RatesResponse::try_from(vec![
        btc_eth_rate("a", "30", "0", "0.1", "1", EpochMillis::new(2000)),
        btc_eth_rate("b", "29", "0", "0.1", "1", EpochMillis::new(5000)),
    ])
    .unwrap();
    let request = exact_in(amount("0.5"), 1000);
    assert_eq!(
        request.top_valid_until(&rates, 0),
        Some(EpochMillis::new(2000))
    );
    assert_eq!(
        request.top_valid_until(&rates, 2),
        Some(EpochMillis::new(2000))
    );
    assert_eq!(request.valid_until(&rates), Some(EpochMillis::new(2000)));
}

/// A chain holds until its first leg expires (2000 here), or until a
/// guarded pair's rate leaves first (1500 among the rates passed).
#[test]
fn a_chain_holds_until_its_first_leg_leaves() {
    use swaproute::route::chain::{ChainRequest, Market};
    use swaproute::route::chain_valid_until;
    use swaproute::{AssetId, CampaignLimits};
    let rates = RatesResponse::try_from(vec![
        btc_eth_rate("a", "30", "0", "0.1", "1", EpochMillis::new(2000)),
        btc_eth_rate("c", "29.5", "0", "10", "20", EpochMillis::new(1500)),
    ])
    .unwrap();
    let now = EpochMillis::new(1000);
    let market = Market::new([&rates], &CampaignLimits::new(), now).unwrap();
    let request = ChainRequest::exact_in(
        AssetId::new("BTC").unwrap(),
        AssetId::new("ETH").unwrap(),
        amount("0.5"),
        now,
    );
    let chain = request.best(&market).unwrap();
    assert_eq!(chain_valid_until(&chain, now, &[]), EpochMillis::new(2000));
    let guarded: &[Rate] = &rates;
    assert_eq!(
        chain_valid_until(&chain, now, &[guarded]),
        EpochMillis::new(1500)
    );
}
