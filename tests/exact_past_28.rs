#![allow(clippy::arithmetic_side_effects)]
//! Exact past 28 places (ruling 43 in docs/RULES.md; issue 41 item 5):
//! ranking compares the exact `x × m − fee`, a positive exact net is never
//! `NO_OUTPUT`, and a net output a `Decimal` cannot hold is reported as its
//! floor at the largest scale (at most 28) that fits.
//!
//! The oracle below is big-integer arithmetic written here: it shares no code
//! with the crate (nor with `tests/common`).

use num_bigint::BigInt;
use proptest::prelude::*;
use swaproute::route::RateBook;
use swaproute::{
    Amount, CampaignLimits, Decimal, EpochMillis, NoRoute, PairId, Rate, RateId, RateTerms,
    RatesResponse, RouteRequest,
};

const NOW: EpochMillis = EpochMillis::new(1_785_000_000_000);

fn d(text: &str) -> Decimal {
    text.parse().unwrap()
}

fn rate(id: &str, multiplier: &str, fee: &str) -> Rate {
    Rate::new(
        RateId::new(id).unwrap(),
        PairId::new("BTC_ETH").unwrap(),
        RateTerms {
            multiplier: d(multiplier),
            miner_fee: d(fee),
            min: Decimal::ZERO,
            max: Decimal::MAX,
        },
        EpochMillis::new(4_102_444_800_000),
    )
}

fn request(amount: &str) -> RouteRequest<'static> {
    RouteRequest::exact_in(Amount::new(d(amount)).unwrap(), NOW)
}

fn ten(exponent: u32) -> BigInt {
    BigInt::from(10u8).pow(exponent)
}

/// `x × m − fee` exactly, as an integer at scale 56.
fn exact56(x: Decimal, m: Decimal, fee: Decimal) -> BigInt {
    BigInt::from(x.mantissa()) * BigInt::from(m.mantissa()) * ten(56 - x.scale() - m.scale())
        - BigInt::from(fee.mantissa()) * ten(56 - fee.scale())
}

/// The floor of a non-negative exact value at scale 56 at the largest scale
/// `s <= 28` whose mantissa is below 2^96, as a `Decimal`.
fn oracle_floor(exact: &BigInt) -> Decimal {
    let limit = BigInt::from(1u8) << 96;
    (0..=28u32)
        .rev()
        .find_map(|s| {
            let units = exact / ten(56 - s);
            (units < limit)
                .then(|| Decimal::from_i128_with_scale(i128::try_from(units).unwrap(), s))
        })
        .unwrap()
}

/// The ids, best first, of every question over one pair: `best`, `top`,
/// `top_n`, `select`, and the rate book's best.
fn answers(rates: &[Rate], amount: &str) -> Vec<Vec<String>> {
    let response = RatesResponse::try_from(rates.to_vec()).unwrap();
    let req = request(amount);
    let ids = |routes: Vec<swaproute::Route<'_>>| {
        routes
            .iter()
            .map(|r| r.rate().id().as_str().to_owned())
            .collect::<Vec<_>>()
    };
    let best = req.best(&response).unwrap();
    let top = req.top(&response, rates.len()).unwrap();
    let top_n = req.top_n::<2>(&response).unwrap();
    let selection = req.select(&response);
    let book = RateBook::new(&response, &CampaignLimits::new(), NOW);
    let booked = book.best(Amount::new(d(amount)).unwrap(), NOW).unwrap();
    vec![
        ids(vec![best]),
        ids(top),
        ids(top_n.iter().copied().collect()),
        ids(selection.routes().to_vec()),
        ids(vec![booked]),
    ]
}

#[test]
fn a_larger_exact_net_wins_though_both_print_alike() {
    // At 0.003: ×1 nets 0.003; ×1.000000000000000000000000001 nets
    // 0.003 + 0.003 × 10^-27 = 0.003000000000000000000000000003 (30
    // places), larger. Both print 0.003 at 28 places; "a" would win the
    // tie-break (same fee, ids), so only the exact nets put "b" first.
    let a = rate("a", "1", "0");
    let b = rate("b", "1.000000000000000000000000001", "0");
    for rates in [vec![a.clone(), b.clone()], vec![b.clone(), a.clone()]] {
        for ids in answers(&rates, "0.003") {
            assert_eq!(ids.first().map(String::as_str), Some("b"), "{ids:?}");
        }
        let selection = request("0.003").select(rates.as_slice());
        let ids: Vec<&str> = selection
            .routes()
            .iter()
            .map(|r| r.rate().id().as_str())
            .collect();
        assert_eq!(ids, ["b", "a"]);
    }
    // The reported nets: both 0.003 (b's floored at 28 places, not above).
    let rates = [a, b];
    let best = request("0.003").best(rates.as_slice()).unwrap();
    assert_eq!(best.net_output(), d("0.003"));
}

#[test]
fn a_positive_exact_net_below_10_pow_minus_28_is_not_no_output() {
    // 0.01 × 10^-27 = 10^-29 > 0: a route, reported as its floor 0.
    let tiny = "0.000000000000000000000000001";
    let rates = [rate("t", tiny, "0")];
    let route = request("0.01").best(rates.as_slice()).unwrap();
    assert_eq!(route.net_output(), Decimal::ZERO);
    // 0.1 × 10^-27 − 10^-28 = 0 exactly: NO_OUTPUT, as is
    // 0.01 × 10^-27 − 10^-28 = −9 × 10^-29.
    let fee = "0.0000000000000000000000000001";
    for amount in ["0.1", "0.01"] {
        let rates = [rate("t", tiny, fee)];
        let answer = request(amount).best(rates.as_slice());
        assert!(
            matches!(answer, Err(NoRoute::NoOutput { .. })),
            "{amount}: {answer:?}"
        );
    }
    // Beside a rate with a 10^-28 net, the exact order still holds:
    // 0.01 × 2 × 10^-27 = 2 × 10^-29 beats 10^-29, though both floor to 0.
    let rates = [
        rate("a", tiny, "0"),
        rate("b", "0.000000000000000000000000002", "0"),
    ];
    for ids in answers(&rates, "0.01") {
        assert_eq!(ids.first().map(String::as_str), Some("b"), "{ids:?}");
    }
}

#[test]
fn a_net_too_wide_for_a_decimal_is_its_floor() {
    // 12.34567891 × 33073464.331913818581565556041 (8 + 21 = 29 places) is
    // 408314371.08314566999999999999779679531 (Python's `decimal` at 100
    // digits, and the oracle below; the last digits by hand: …556041 ×
    // …67891 ends in …79531 as 6041 × 7891 = 47669531). 9 integer digits
    // leave 20 places in 96 bits (2^96 ≈ 7.9 × 10^28); rounded half to even
    // that is 408314371.08314567 (above the exact value), the floor
    // 408314371.08314566999999999999.
    let (x, m) = ("12.34567891", "33073464.331913818581565556041");
    let exact = exact56(d(x), d(m), Decimal::ZERO);
    assert_eq!(
        exact,
        "40831437108314566999999999999779679531000000000000000000000000000"
            .parse::<BigInt>()
            .unwrap()
    );
    let rates = [rate("r", m, "0")];
    let route = request(x).best(rates.as_slice()).unwrap();
    assert_eq!(route.net_output(), d("408314371.08314566999999999999"));
    assert_eq!(route.net_output(), oracle_floor(&exact));
    assert_eq!(
        route.net_output().to_string(),
        "408314371.08314566999999999999"
    );
}

/// A deep-digit decimal: `digits` significant digits at `scale` places.
fn deep(mantissa: u128, scale: u32) -> Decimal {
    Decimal::from_i128_with_scale(i128::try_from(mantissa % (1u128 << 95)).unwrap(), scale)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Random deep-digit books: `best` is the oracle's exact maximum (ties:
    /// lower fee, then id), every route's reported net is the oracle's
    /// floor, and a rate is refused for no output exactly when its exact
    /// net is not positive.
    #[test]
    fn best_is_the_exact_maximum(
        x in (1u128..1u128 << 64, 10u32..=28),
        book in proptest::collection::vec(
            ((1u128..1u128 << 95, 14u32..=28), (0u128..1u128 << 80, 20u32..=28)),
            1..8,
        ),
        close in any::<bool>(),
    ) {
        let amount = deep(x.0, x.1);
        prop_assume!(!amount.is_zero());
        let mut rates = Vec::new();
        for (i, ((m, ms), (f, fs))) in book.iter().enumerate() {
            // "close": multipliers one unit of their last place apart and
            // one fee, so the nets often differ only past 28 places; the
            // larger multiplier has the larger id, so the tie-breaks alone
            // would put it last.
            let (m, fee) = if close {
                (deep(book[0].0 .0 + i as u128, book[0].0 .1), deep(book[0].1 .0, book[0].1 .1))
            } else {
                (deep(*m, *ms), deep(*f, *fs))
            };
            rates.push(rate(&format!("r{i}"), &m.to_string(), &fee.to_string()));
        }
        let exact: Vec<BigInt> = rates
            .iter()
            .map(|r| exact56(amount, r.multiplier(), r.miner_fee()))
            .collect();
        let zero = BigInt::from(0u8);
        let winner = (0..rates.len())
            .filter(|&i| exact[i] > zero)
            .min_by(|&i, &j| {
                exact[j].cmp(&exact[i])
                    .then(rates[i].miner_fee().cmp(&rates[j].miner_fee()))
                    .then(rates[i].id().as_str().cmp(rates[j].id().as_str()))
            });
        let answer = RouteRequest::exact_in(Amount::new(amount).unwrap(), NOW).best(rates.as_slice());
        match (winner, answer) {
            (Some(i), Ok(route)) => {
                prop_assert_eq!(route.rate().id(), rates[i].id());
                prop_assert_eq!(route.net_output(), oracle_floor(&exact[i]));
            }
            (None, Err(NoRoute::NoOutput { .. })) => {}
            (winner, answer) => prop_assert!(false, "{:?} vs {:?}", winner, answer),
        }
    }
}
