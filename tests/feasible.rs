//! Amounts that work (ruling 38), the economic floors, and ruling 10's "no
//! route" naming the amounts that work: hand-computed examples, then a
//! brute-force oracle on big integers over every amount of small grids.
#![allow(clippy::arithmetic_side_effects)]

use num_bigint::BigInt;
use proptest::prelude::*;
use swaproute::decimal::Decimal;
use swaproute::route::{
    estimate_exact_out_with, Feasible, FeasibleQuery, Floors, LimitPolicy, NoRoute, RouteRequest,
};
use swaproute::wire::RequestField;
use swaproute::{
    Amount, CampaignId, CampaignLimits, EpochMillis, PairId, Rate, RateId, RateTerms,
    RatesResponse, SwapMode,
};

use crate::common::{amount, btc_eth_rate, d};

const NOW: EpochMillis = EpochMillis::new(1_785_000_000_000);
const LATER: u64 = 4_102_444_800_000;

fn rate(id: &str, m: &str, fee: &str, min: &str, max: &str) -> Rate {
    btc_eth_rate(id, m, fee, min, max, EpochMillis::new(LATER))
}

fn exact_in() -> FeasibleQuery<'static> {
    FeasibleQuery::new(SwapMode::ExactIn, NOW)
}

fn exact_out() -> FeasibleQuery<'static> {
    FeasibleQuery::new(SwapMode::ExactOut, NOW)
}

fn ranges(f: &Feasible<'_>) -> Vec<(String, String)> {
    f.ranges()
        .iter()
        .map(|r| (r.from().to_string(), r.to().to_string()))
        .collect()
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(a, b)| ((*a).to_owned(), (*b).to_owned()))
        .collect()
}

fn min_of(f: &Feasible<'_>) -> Option<(String, String)> {
    f.min()
        .map(|s| (s.amount().to_string(), s.rate().id().as_str().to_owned()))
}

fn max_of(f: &Feasible<'_>) -> Option<(String, String)> {
    f.max()
        .map(|s| (s.amount().to_string(), s.rate().id().as_str().to_owned()))
}

#[allow(clippy::unnecessary_wraps)]
fn some(amount: &str, id: &str) -> Option<(String, String)> {
    Some((amount.to_owned(), id.to_owned()))
}

// ×10, fee 0.5, limits [0.01, 5]: net(x) = 10x − 0.5 > 0 needs x > 0.05.
fn ten() -> Vec<Rate> {
    vec![rate("r", "10", "0.5", "0.01", "5")]
}

#[test]
fn the_fee_moves_the_smallest_amount_above_the_min() {
    let rates = ten();
    let f = exact_in().amounts(&rates).unwrap();
    assert_eq!(min_of(&f), some("0.05000001", "r"));
    assert_eq!(max_of(&f), some("5.00000000", "r"));
    assert_eq!(ranges(&f), pairs(&[("0.05000001", "5.00000000")]));
    assert!(!f.contains(d("0.05")));
    assert!(f.contains(d("0.05000001")));
    assert!(!f.contains(d("0.050000015"))); // off the grid
    assert!(!f.contains(d("5.00000001")));
}

#[test]
fn each_floor_raises_the_smallest_amount() {
    let rates = ten();
    let at = |floors: Floors| {
        let f = exact_in().with_floors(floors).amounts(&rates).unwrap();
        (min_of(&f), ranges(&f))
    };
    // dust 1: 10x − 0.5 ≥ 1 ⇔ x ≥ 0.15.
    assert_eq!(
        at(Floors::NONE.with_dust(amount("1"))).0,
        some("0.15000000", "r")
    );
    // k = 3: 10x − 0.5 ≥ 1.5 ⇔ x ≥ 0.2.
    assert_eq!(
        at(Floors::NONE.with_fee_multiple(amount("3"))).0,
        some("0.20000000", "r")
    );
    // 100 bps: 0.5 × 10000 ≤ 100 × 10x ⇔ x ≥ 5: one amount left.
    assert_eq!(
        at(Floors::NONE.with_max_fee_share_bps(100)),
        (
            some("5.00000000", "r"),
            pairs(&[("5.00000000", "5.00000000")])
        )
    );
    // 50 bps needs x ≥ 10 > max: nothing works.
    assert_eq!(at(Floors::NONE.with_max_fee_share_bps(50)), (None, vec![]));
    // The strictest floor decides: dust 1 (x ≥ 0.15) and k = 3 (x ≥ 0.2).
    let both = Floors::NONE
        .with_dust(amount("1"))
        .with_fee_multiple(amount("3"));
    assert_eq!(at(both).0, some("0.20000000", "r"));
}

#[test]
fn ranges_merge_only_when_adjacent_on_the_grid() {
    let rates = vec![
        rate("a", "10", "0", "1", "2"),
        rate("b", "10", "0", "2.00000001", "3"),
        rate("c", "10", "0", "3.00000002", "4"),
        rate("d", "10", "0", "6", "7"),
    ];
    let f = exact_in().amounts(&rates).unwrap();
    assert_eq!(
        ranges(&f),
        pairs(&[
            ("1.00000000", "3.00000000"),
            ("3.00000002", "4.00000000"),
            ("6.00000000", "7.00000000")
        ])
    );
    assert_eq!(min_of(&f), some("1.00000000", "a"));
    assert_eq!(max_of(&f), some("7.00000000", "d"));
    let within = |b: &str| {
        f.max_within(amount(b))
            .map(|s| (s.amount().to_string(), s.rate().id().as_str().to_owned()))
    };
    assert_eq!(within("0.99999999"), None);
    assert_eq!(within("1"), some("1.00000000", "a"));
    assert_eq!(within("3.00000001"), some("3.00000000", "b"));
    assert_eq!(within("5.5"), some("4.00000000", "c"));
    assert_eq!(within("6.123456789"), some("6.12345678", "d"));
    assert_eq!(within("100"), some("7.00000000", "d"));
}

#[test]
fn the_rate_named_is_the_rankings_choice() {
    // At 1 both serve: b pays 11 − 0.1 = 10.9, a 10 − 0 = 10.
    let rates = vec![
        rate("a", "10", "0", "1", "2"),
        rate("b", "11", "0.1", "1", "1.5"),
    ];
    let f = exact_in().amounts(&rates).unwrap();
    assert_eq!(min_of(&f), some("1.00000000", "b"));
    assert_eq!(max_of(&f), some("2.00000000", "a"));
    let best = RouteRequest::exact_in(amount("1"), NOW)
        .best(&rates)
        .unwrap();
    assert_eq!(best.rate().id().as_str(), "b");
}

#[test]
fn best_within_takes_each_rates_top_or_the_balance() {
    // a: ×10 on [1, 2]; b: ×9 on [1, 5], both fee-free.
    let rates = vec![
        rate("a", "10", "0", "1", "2"),
        rate("b", "9", "0", "1", "5"),
    ];
    let f = exact_in().amounts(&rates).unwrap();
    let best = |b: &str| {
        f.best_within(amount(b)).map(|s| {
            (
                s.amount().to_string(),
                s.rate().id().as_str().to_owned(),
                s.net_output().normalize().to_string(),
            )
        })
    };
    // Balance 3: a at 2 pays 20, b at 3 pays 27.
    assert_eq!(
        best("3"),
        Some(("3.00000000".into(), "b".into(), "27".into()))
    );
    // Balance 2.1: a at 2 pays 20, b at 2.1 pays 18.9.
    assert_eq!(
        best("2.1"),
        Some(("2.00000000".into(), "a".into(), "20".into()))
    );
    assert_eq!(best("0.5"), None);
    // A tie goes to the smaller amount: c ×8 at 2.5 pays 20 as a does at 2.
    let tie = vec![
        rate("a", "10", "0", "1", "2"),
        rate("c", "8", "0", "1", "2.5"),
    ];
    let f = exact_in().amounts(&tie).unwrap();
    let s = f.best_within(amount("2.5")).unwrap();
    assert_eq!(
        (s.amount().to_string(), s.rate().id().as_str()),
        ("2.00000000".into(), "a")
    );
}

#[test]
fn exact_out_amounts_are_outputs_whose_required_input_is_within_limits() {
    // ×10, fee 0.5, limits [0.1, 2]: ceil8((y + 0.5) / 10) ≥ 0.1 first at
    // y = 0.49999991 (0.99999991 / 10 = 0.099999991 → 0.1); at 0.4999999 it
    // is 0.09999999. ceil8((y + 0.5) / 10) ≤ 2 up to y = 19.5.
    let rates = vec![rate("r", "10", "0.5", "0.1", "2").with_exact_out(true)];
    let f = exact_out().amounts(&rates).unwrap();
    assert_eq!(min_of(&f), some("0.49999991", "r"));
    assert_eq!(max_of(&f), some("19.50000000", "r"));
    // The required input rounded up to 2 places (from decimals 2):
    // ceil2((y + 0.5) / 10) ≥ 0.1 ⇔ (y + 0.5) / 10 > 0.09 ⇔ y > 0.4.
    let f = exact_out().with_decimals(2, 8).amounts(&rates).unwrap();
    assert_eq!(min_of(&f), some("0.40000001", "r"));
    assert_eq!(max_of(&f), some("19.50000000", "r"));
    // To decimals 1: y on a 0.1 grid.
    let f = exact_out().with_decimals(8, 1).amounts(&rates).unwrap();
    assert_eq!(ranges(&f), pairs(&[("0.5", "19.5")]));
    // Under a balance the order delivers exactly the amount.
    let s = f.best_within(amount("7.77")).unwrap();
    assert_eq!(
        (s.amount().to_string(), s.net_output().to_string()),
        ("7.7".into(), "7.7".into())
    );
}

#[test]
fn exact_out_excludes_providers_without_the_feature_and_sponsored_variants() {
    let campaign = CampaignId::new("c").unwrap();
    let rates = vec![
        rate("plain", "10", "0.5", "0.1", "2"),
        rate("sponsored", "10", "0", "0.1", "2")
            .with_exact_out(true)
            .sponsored_by(campaign),
    ];
    let f = exact_out().amounts(&rates).unwrap();
    assert_eq!(min_of(&f), None);
    assert!(f.ranges().is_empty());
    // ExactIn takes both: the sponsored variant (fee 0) serves from its min.
    let f = exact_in().amounts(&rates).unwrap();
    assert_eq!(min_of(&f), some("0.10000000", "sponsored"));
}

#[test]
fn the_smallest_required_input_names_the_exact_out_rate() {
    // a: ×10, fee 0, [0.1, 2]; b: ×10, fee 1, [0.2, 5]. Both first serve
    // y = 0.99999991: a needs ceil8(0.099999991) = 0.1, b needs
    // ceil8(1.99999991 / 10) = 0.2. The smaller required input names a.
    let rates = vec![
        rate("a", "10", "0", "0.1", "2").with_exact_out(true),
        rate("b", "10", "1", "0.2", "5").with_exact_out(true),
    ];
    let f = exact_out().amounts(&rates).unwrap();
    assert_eq!(min_of(&f), some("0.99999991", "a"));
    // b reaches y = 5 × 10 − 1 = 49, a only 20.
    assert_eq!(max_of(&f), some("49.00000000", "b"));
    // Under a balance of 10, the rate best picks at 10 (ruling 41): both
    // serve it; a needs ceil8(10 / 10) = 1, b ceil8(11 / 10) = 1.1, so a
    // (not b, which reaches furthest).
    let s = f.max_within(amount("10")).unwrap();
    assert_eq!(
        (s.amount().to_string(), s.rate().id().as_str()),
        ("10.00000000".into(), "a")
    );
}

#[test]
fn asset_decimals_set_the_grid() {
    // From decimals 2: x > 0.05 on a 0.01 grid is 0.06.
    let rates = ten();
    let f = exact_in().with_decimals(2, 18).amounts(&rates).unwrap();
    assert_eq!(f.places(), 2);
    assert_eq!(min_of(&f), some("0.06", "r"));
    assert_eq!(max_of(&f), some("5.00", "r"));
}

#[test]
fn rates_that_serve_nothing_take_no_part() {
    let campaign = CampaignId::new("spring").unwrap();
    let mut limits = CampaignLimits::new();
    limits.insert(campaign.clone(), amount("0.5"));
    let expired = Rate::new(
        RateId::new("old").unwrap(),
        PairId::new("BTC_ETH").unwrap(),
        RateTerms {
            multiplier: d("100"),
            miner_fee: d("0"),
            min: d("0.001"),
            max: d("100"),
        },
        EpochMillis::new(1_000),
    );
    let rates = vec![
        expired,
        // Campaign limit 0.5 below the min 1: ruling 30.
        rate("capped", "20", "0", "1", "9").sponsored_by(campaign.clone()),
        // Invalid: min above max.
        rate("bad", "20", "0", "9", "1"),
        rate("r", "10", "0.5", "0.01", "5"),
    ];
    let f = exact_in().with_campaigns(&limits).amounts(&rates).unwrap();
    assert_eq!(ranges(&f), pairs(&[("0.05000001", "5.00000000")]));
    // A campaign limit caps the effective max.
    let rates = vec![rate("s", "20", "0", "0.1", "9").sponsored_by(campaign)];
    let f = exact_in().with_campaigns(&limits).amounts(&rates).unwrap();
    assert_eq!(ranges(&f), pairs(&[("0.10000000", "0.50000000")]));
}

#[test]
fn mixed_pairs_are_refused() {
    let other = Rate::new(
        RateId::new("x").unwrap(),
        PairId::new("BTC_LTC").unwrap(),
        RateTerms {
            multiplier: d("1"),
            miner_fee: d("0"),
            min: d("0"),
            max: d("1"),
        },
        EpochMillis::new(LATER),
    );
    let rates = vec![rate("r", "10", "0.5", "0.01", "5"), other];
    assert!(exact_in().amounts(rates.as_slice()).is_err());
}

#[test]
fn the_report_has_the_documented_json_shape() {
    let rates = ten();
    let f = exact_in().amounts(&rates).unwrap();
    let json = serde_json::to_string(&f.report(Some(amount("1.5")))).unwrap();
    assert_eq!(
        json,
        r#"{"mode":"ExactIn","min":{"amount":"0.05000001","rateId":"r"},"max":{"amount":"5.00000000","rateId":"r"},"ranges":[{"from":"0.05000001","to":"5.00000000"}],"maxWithin":{"amount":"1.50000000","rateId":"r"},"bestWithin":{"amount":"1.50000000","rateId":"r","netOutput":"14.5"}}"#
    );
    let none = serde_json::to_string(&f.report(Some(amount("0.01")))).unwrap();
    assert!(
        none.ends_with(r#""maxWithin":null,"bestWithin":null}"#),
        "{none}"
    );
    let nothing: Vec<Rate> = vec![];
    let f = exact_out().amounts(&nothing).unwrap();
    assert_eq!(
        serde_json::to_string(&f.report(None)).unwrap(),
        r#"{"mode":"ExactOut","min":null,"max":null,"ranges":[],"maxWithin":null,"bestWithin":null}"#
    );
}

#[test]
fn floors_reject_in_the_ranking_with_their_numbers() {
    let rates = vec![
        rate("a", "10", "0.5", "0.01", "5"),
        rate("b", "9", "0.1", "0.01", "5"),
    ];
    // At 0.1: a nets 0.5, b nets 0.8.
    let request = RouteRequest::exact_in(amount("0.1"), NOW);
    assert_eq!(request.best(&rates).unwrap().rate().id().as_str(), "b");
    let dust = request.with_floors(Floors::NONE.with_dust(amount("0.6")));
    let selection = dust.select(&rates);
    assert_eq!(selection.best().unwrap().rate().id().as_str(), "b");
    let rejected = &selection.rejected()[0];
    assert_eq!(rejected.rate().id().as_str(), "a");
    assert_eq!(rejected.reason().code(), "BELOW_DUST");
    assert_eq!(
        rejected.reason().to_string(),
        "net output 0.5 is below the dust floor 0.6"
    );
    // k = 2: a needs 1.0 (has 0.5), b needs 0.2 (has 0.8).
    let k = request.with_floors(Floors::NONE.with_fee_multiple(amount("2")));
    let selection = k.select(&rates);
    assert_eq!(selection.rejected()[0].reason().code(), "FEE_TOO_LARGE");
    assert_eq!(
        selection.rejected()[0].reason().to_string(),
        "net output 0.5 is below 2 × the miner fee 0.5"
    );
    // 1000 bps (10 %): a's fee 0.5 is 50 % of 1.0, b's 0.1 is 11.1 % of 0.9.
    let share = request.with_floors(Floors::NONE.with_max_fee_share_bps(1000));
    let selection = share.select(&rates);
    assert!(selection.best().is_none());
    let codes: Vec<_> = selection
        .rejected()
        .iter()
        .map(|r| r.reason().code())
        .collect();
    assert_eq!(codes, ["FEE_SHARE_TOO_LARGE", "FEE_SHARE_TOO_LARGE"]);
    assert_eq!(
        selection.rejected()[1].reason().to_string(),
        "the miner fee 0.1 is more than 1000 bps of the gross output 0.9"
    );
    // Nothing passes: INSUFFICIENT_LIQUIDITY, naming the smallest amount
    // that works: b's 0.1 × 10000 ≤ 1000 × 9x ⇔ x ≥ 0.11111112 (a's x ≥ 0.5).
    let no_route = selection.no_route().unwrap();
    assert_eq!(no_route.code().as_str(), "INSUFFICIENT_LIQUIDITY");
    assert_eq!(no_route.working(), Some(d("0.11111112")));
}

#[test]
fn no_route_below_every_min_names_the_smallest_amount_that_works() {
    let rates = ten();
    let err = RouteRequest::exact_in(amount("0.001"), NOW)
        .best(&rates)
        .unwrap_err();
    assert!(matches!(err, NoRoute::BelowMin { min, .. } if min == d("0.01")));
    assert_eq!(err.working(), Some(d("0.05000001")));
    assert_eq!(
        err.to_string(),
        "fromAmount 0.001 BTC is below the minimum of every route; the smallest minimum is 0.01 BTC; the smallest amount that works is 0.05000001 BTC"
    );
    // Within the limits but nothing to pay out.
    let err = RouteRequest::exact_in(amount("0.03"), NOW)
        .best(&rates)
        .unwrap_err();
    assert_eq!(err.code().as_str(), "INSUFFICIENT_LIQUIDITY");
    assert_eq!(err.working(), Some(d("0.05000001")));
    // When the min works, it is all that is named.
    let plain = vec![rate("p", "10", "0", "0.01", "5")];
    let err = RouteRequest::exact_in(amount("0.001"), NOW)
        .best(&plain)
        .unwrap_err();
    assert_eq!(err.working(), None);
    assert!(!err.to_string().contains("works"));
    // Above a max with more than 8 places: the largest 8-place amount.
    let fine = vec![rate("f", "10", "0", "0.01", "5.000000009")];
    let err = RouteRequest::exact_in(amount("6"), NOW)
        .select(&fine)
        .no_route()
        .cloned()
        .unwrap();
    assert_eq!(err.code().as_str(), "AMOUNT_ABOVE_LIMIT");
    assert_eq!(err.working(), Some(d("5")));
}

#[test]
fn the_sample_rates_from_the_readme() {
    let rates: RatesResponse =
        serde_json::from_str(include_str!("../cli/data/rates.json")).unwrap();
    let f = exact_in().amounts(&rates).unwrap();
    // The smallest min is 0.0005 (fee 0, ×32.987…): it works.
    assert_eq!(
        min_of(&f),
        some("0.00050000", "7c9e6679-7425-40de-944b-e07fc1f90ae7")
    );
    // The largest max is 25 (×33, fee 0.00025).
    assert_eq!(max_of(&f), some("25.00000000", "q1w2e3r4t5y6u7i8o9p0"));
    assert_eq!(ranges(&f), pairs(&[("0.00050000", "25.00000000")]));
}

// ---------------------------------------------------------------------------
// The brute-force oracle: every amount of a small grid, big integers only.

/// Scale every number is brought to.
const S: u32 = 40;

fn ten_pow(e: u32) -> BigInt {
    BigInt::from(10u8).pow(e)
}

/// `value × 10^S`.
fn big(value: Decimal) -> BigInt {
    BigInt::from(value.mantissa()) * ten_pow(S - value.scale())
}

#[derive(Clone, Debug)]
struct Spec {
    m: Decimal,
    fee: Decimal,
    min: Decimal,
    max: Decimal,
    exact_out: bool,
    expired: bool,
    sponsored: bool,
}

#[derive(Clone, Debug)]
struct Case {
    specs: Vec<Spec>,
    from_places: u32,
    to_places: u32,
    dust: Option<Decimal>,
    k: Option<Decimal>,
    bps: Option<u32>,
    /// The campaign's limit for sponsored rates, when known.
    limit: Option<Decimal>,
}

impl Case {
    fn rates(&self) -> Vec<Rate> {
        self.specs
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let r = Rate::new(
                    RateId::new(&format!("r{i}")).unwrap(),
                    PairId::new("BTC_ETH").unwrap(),
                    RateTerms {
                        multiplier: s.m,
                        miner_fee: s.fee,
                        min: s.min,
                        max: s.max,
                    },
                    EpochMillis::new(if s.expired { 1_000 } else { LATER }),
                )
                .with_exact_out(s.exact_out);
                if s.sponsored {
                    r.sponsored_by(CampaignId::new("c").unwrap())
                } else {
                    r
                }
            })
            .collect()
    }

    fn campaigns(&self) -> CampaignLimits {
        let mut limits = CampaignLimits::new();
        if let Some(l) = self.limit {
            limits.insert(CampaignId::new("c").unwrap(), Amount::new(l).unwrap());
        }
        limits
    }

    fn floors(&self) -> Floors {
        let mut f = Floors::NONE;
        if let Some(dust) = self.dust {
            f = f.with_dust(Amount::new(dust).unwrap());
        }
        if let Some(k) = self.k {
            f = f.with_fee_multiple(Amount::new(k).unwrap());
        }
        if let Some(b) = self.bps {
            f = f.with_max_fee_share_bps(b);
        }
        f
    }

    fn effective_max(&self, s: &Spec) -> Decimal {
        match (s.sponsored, self.limit) {
            (true, Some(l)) if l < s.max => l,
            _ => s.max,
        }
    }

    /// The net output (at scale 2S) when `s` serves the from amount
    /// `x_units / 10^from_places` in `mode` (ExactOut: the admission rules
    /// only; the caller passes the required input).
    fn serves_at(&self, s: &Spec, x: &BigInt, mode: SwapMode) -> Option<BigInt> {
        if s.expired {
            return None;
        }
        if mode == SwapMode::ExactOut && (!s.exact_out || s.sponsored) {
            return None;
        }
        let max = big(self.effective_max(s));
        if max < big(s.min) || *x < big(s.min) || *x > max {
            return None;
        }
        let gross = x * big(s.m);
        let fee = big(s.fee) * ten_pow(S);
        let net = &gross - &fee;
        if net <= BigInt::from(0u8) {
            return None;
        }
        if let Some(dust) = self.dust {
            if net < big(dust) * ten_pow(S) {
                return None;
            }
        }
        if let Some(k) = self.k {
            if net < big(k) * big(s.fee) {
                return None;
            }
        }
        if let Some(b) = self.bps {
            if &fee * BigInt::from(10_000u32) > gross * BigInt::from(b) {
                return None;
            }
        }
        Some(net)
    }

    /// ExactIn: the best net output over the rates at `units`.
    fn best_in(&self, units: i64) -> Option<BigInt> {
        let x = BigInt::from(units) * ten_pow(S - self.from_places);
        self.specs
            .iter()
            .filter_map(|s| self.serves_at(s, &x, SwapMode::ExactIn))
            .max()
    }

    /// ExactOut: does some rate serve the output `units / 10^to_places`?
    fn works_out(&self, units: i64) -> bool {
        self.specs.iter().any(|s| {
            // ceil8((y + fee) / m), then up to the from places.
            let sum = BigInt::from(units) * ten_pow(S - self.to_places) + big(s.fee);
            let m = big(s.m);
            let scaled = sum * ten_pow(8);
            let mut r8 = &scaled / &m;
            if &r8 * &m < scaled {
                r8 += 1u8;
            }
            let drop = ten_pow(8 - self.from_places);
            let mut r = &r8 / &drop;
            if &r * &drop < r8 {
                r += 1u8;
            }
            let x = r * ten_pow(S - self.from_places);
            self.serves_at(s, &x, SwapMode::ExactOut).is_some()
        })
    }
}

impl Case {
    /// ExactOut at 8 places: the smallest and largest 8-place `toAmount`
    /// (in units of 10^-8) some rate serves, rate by rate. For one rate the
    /// order's amount `x = ceil8((y + fee) / m)` grows with `y`, and what it
    /// must pass (the limits from below, a positive net and the floors) only
    /// gets easier as `x` grows: the least `x` that passes (`x_lo`, a
    /// bisection of the brute-force check) gives the least `y` with
    /// `ceil8((y + fee) / m) ≥ x_lo`, i.e. `y > (x_lo − 10^-8) × m − fee`;
    /// the max gives the largest, `y ≤ floor8(max) × m − fee`.
    fn working_out(&self) -> (Option<BigInt>, Option<BigInt>) {
        let unit = ten_pow(S - 8);
        let (mut low, mut high): (Option<BigInt>, Option<BigInt>) = (None, None);
        for s in &self.specs {
            let serves = |x: &BigInt| {
                self.serves_at(s, &(x * &unit), SwapMode::ExactOut)
                    .is_some()
            };
            // The grid's ends of the limits, in units of 10^-8.
            let lo = {
                let v = big(s.min);
                let q = &v / &unit;
                if &q * &unit < v {
                    q + 1u8
                } else {
                    q
                }
            };
            let hi = big(s.max) / &unit;
            if lo > hi || !serves(&hi) {
                continue;
            }
            let (mut bad, mut good) = (lo.clone() - 1u8, hi.clone());
            if serves(&lo) {
                good.clone_from(&lo);
            } else {
                bad.clone_from(&lo);
            }
            while &good - &bad > BigInt::from(1u8) {
                let mid: BigInt = (&good + &bad) / 2u8;
                if serves(&mid) {
                    good = mid;
                } else {
                    bad = mid;
                }
            }
            let x_lo = good;
            let fee = big(s.fee) * ten_pow(S);
            let to_units = ten_pow(2 * S - 8);
            let v = (&x_lo - 1u8) * &unit * big(s.m) - &fee;
            let y_min = if v < BigInt::from(0u8) {
                BigInt::from(1u8)
            } else {
                &v / &to_units + 1u8
            };
            let top = &hi * &unit * big(s.m) - &fee;
            if top < BigInt::from(0u8) {
                continue;
            }
            let y_max = &top / &to_units;
            if y_max < y_min {
                continue;
            }
            if low.as_ref().is_none_or(|held| &y_min < held) {
                low = Some(y_min);
            }
            if high.as_ref().is_none_or(|held| &y_max > held) {
                high = Some(y_max);
            }
        }
        (low, high)
    }
}

/// A value with `places` places from a small mantissa.
fn units(places: u32, range: core::ops::RangeInclusive<i64>) -> impl Strategy<Value = Decimal> {
    range.prop_map(move |u| Decimal::new(u, places))
}

fn spec(places: u32) -> impl Strategy<Value = Spec> {
    (
        units(2, 1..=500),                    // multiplier 0.01 .. 5
        units(places + 1, 0..=30_000),        // fee, one place finer than the grid
        (0i64..=1_200, 0i64..=800, 0u32..=1), // min units, width, an extra place
        any::<bool>(),
        prop::bool::weighted(0.1),
        prop::bool::weighted(0.2),
    )
        .prop_map(
            move |(m, fee, (lo, width, finer), exact_out, expired, sponsored)| {
                let min = Decimal::new(lo * 10i64.pow(finer) + i64::from(finer), places + finer);
                let max = Decimal::new((lo + width) * 10i64.pow(finer), places + finer);
                Spec {
                    m,
                    fee,
                    min: min.min(max),
                    max,
                    exact_out,
                    expired,
                    sponsored,
                }
            },
        )
}

fn case() -> impl Strategy<Value = Case> {
    (
        prop_oneof![Just(2u32), Just(8u32)],
        prop_oneof![Just(1u32), Just(2u32)],
    )
        .prop_flat_map(|(from_places, to_places)| {
            (
                prop::collection::vec(spec(from_places), 1..=4),
                prop::option::weighted(0.3, units(2, 0..=500)),
                prop::option::weighted(0.3, units(1, 0..=40)),
                prop::option::weighted(0.3, 0u32..=3_000),
                prop::option::weighted(0.5, units(from_places, 0..=2_000)),
            )
                .prop_map(move |(specs, dust, k, bps, limit)| Case {
                    specs,
                    from_places,
                    to_places,
                    dust,
                    k,
                    bps,
                    limit,
                })
        })
}

/// The grid's amounts that work, by brute force, as merged ranges.
fn oracle_ranges(works: impl Fn(i64) -> bool, top: i64) -> Vec<(i64, i64)> {
    let mut out: Vec<(i64, i64)> = Vec::new();
    for u in 0..=top {
        if works(u) {
            match out.last_mut() {
                Some(last) if last.1 + 1 == u => last.1 = u,
                _ => out.push((u, u)),
            }
        }
    }
    out
}

fn units_of(value: Decimal, places: u32) -> i64 {
    let scaled = value * Decimal::from(10i64.pow(places));
    assert_eq!(scaled.fract(), Decimal::ZERO, "{value} is on the grid");
    i64::try_from(scaled.mantissa() / 10i128.pow(scaled.scale())).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(96)
    ))]

    #[test]
    fn exact_in_agrees_with_brute_force(case in case()) {
        let rates = case.rates();
        let campaigns = case.campaigns();
        let p = case.from_places;
        let f = FeasibleQuery::new(SwapMode::ExactIn, NOW)
            .with_campaigns(&campaigns)
            .with_floors(case.floors())
            .with_decimals(u8::try_from(p).unwrap(), 8)
            .amounts(&rates)
            .unwrap();
        // Every max is at most 2000 units of the grid (plus one finer place).
        let top = 2_100;
        let best: Vec<Option<BigInt>> = (0..=top).map(|u| case.best_in(u)).collect();
        let expected = oracle_ranges(|u| best[usize::try_from(u).unwrap()].is_some(), top);
        let got: Vec<(i64, i64)> = f
            .ranges()
            .iter()
            .map(|r| (units_of(r.from(), p), units_of(r.to(), p)))
            .collect();
        prop_assert_eq!(&got, &expected);
        prop_assert_eq!(f.min().map(|s| units_of(s.amount(), p)), expected.first().map(|r| r.0));
        prop_assert_eq!(f.max().map(|s| units_of(s.amount(), p)), expected.last().map(|r| r.1));
        // x is in the ranges iff the ranking finds a route at x.
        for u in (0..=top).step_by(7).chain(expected.iter().flat_map(|r| [r.0 - 1, r.0, r.1, r.1 + 1])) {
            if u < 0 || u > top { continue; }
            let x = Amount::new(Decimal::new(u, p)).unwrap();
            let routed = RouteRequest::exact_in(x, NOW)
                .with_campaigns(&campaigns)
                .with_floors(case.floors())
                .best(&rates);
            prop_assert_eq!(routed.is_ok(), f.contains(x.get()), "at {}", x);
            prop_assert_eq!(routed.is_ok(), best[usize::try_from(u).unwrap()].is_some());
            if let (Err(no_route), 8) = (&routed, p) {
                // Ruling 10 as amended: the amounts that work, where they
                // differ from what it names.
                let first = expected.first().map(|r| Decimal::new(r.0, 8));
                let last = expected.last().map(|r| Decimal::new(r.1, 8));
                let want = match no_route {
                    NoRoute::BelowMin { min, .. } => first.filter(|w| w != min),
                    NoRoute::AboveMax { max, .. } => last.filter(|w| w != max),
                    NoRoute::NoOutput { amount, .. } | NoRoute::BelowFloors { amount, .. } => {
                        first.filter(|w| w > amount)
                    }
                    _ => None,
                };
                prop_assert_eq!(no_route.working(), want, "{}", no_route);
            }
            if let Ok(route) = routed {
                // The rate named at the min is the ranking's.
                if f.min().is_some_and(|s| s.amount() == x.get()) {
                    prop_assert_eq!(f.min().unwrap().rate().id(), route.rate().id());
                }
            }
        }
        // The balance answers.
        for b in [0i64, 1, 137, 555, 1_000, 1_999, 2_100] {
            let balance = Amount::new(Decimal::new(b, p)).unwrap();
            let fits = (0..=b).rev().find(|&u| best[usize::try_from(u).unwrap()].is_some());
            prop_assert_eq!(
                f.max_within(balance).map(|s| units_of(s.amount(), p)),
                fits
            );
            // The best value: the highest net under the balance, the
            // smallest amount among equals.
            let mut top_net: Option<(BigInt, i64)> = None;
            for u in 0..=b {
                if let Some(net) = &best[usize::try_from(u).unwrap()] {
                    if top_net.as_ref().is_none_or(|(held, _)| net > held) {
                        top_net = Some((net.clone(), u));
                    }
                }
            }
            let got = f.best_within(balance);
            prop_assert_eq!(got.map(|s| units_of(s.amount(), p)), top_net.as_ref().map(|t| t.1));
            if let (Some(s), Some((net, _))) = (got, top_net) {
                prop_assert_eq!(big(s.net_output()) * ten_pow(S), net);
            }
        }
    }

    #[test]
    fn exact_out_agrees_with_brute_force(case in case()) {
        let rates = case.rates();
        let campaigns = case.campaigns();
        let q = case.to_places;
        let f = FeasibleQuery::new(SwapMode::ExactOut, NOW)
            .with_campaigns(&campaigns)
            .with_floors(case.floors())
            .with_decimals(u8::try_from(case.from_places).unwrap(), u8::try_from(q).unwrap())
            .amounts(&rates)
            .unwrap();
        // Outputs up to (max ≤ 2000 units of 10^-from) × 5 − 0: below 10^5 at 1-2 places.
        let top = if case.from_places == 8 { 2 } else { 21 * 5 } * 10i64.pow(q);
        let works: Vec<bool> = (0..=top).map(|u| u > 0 && case.works_out(u)).collect();
        let expected = oracle_ranges(|u| works[usize::try_from(u).unwrap()], top);
        let got: Vec<(i64, i64)> = f
            .ranges()
            .iter()
            .map(|r| (units_of(r.from(), q), units_of(r.to(), q)))
            .collect();
        prop_assert_eq!(&got, &expected);
        for b in [1i64, 33, 250, top / 2, top].map(|b| b.min(top)) {
            let balance = Amount::new(Decimal::new(b, q)).unwrap();
            let fits = (0..=b).rev().find(|&u| works[usize::try_from(u).unwrap()]);
            prop_assert_eq!(f.max_within(balance).map(|s| units_of(s.amount(), q)), fits);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(96)
    ))]

    /// Ruling 10 as ruling 38 amends it, ExactOut: the estimator's "no
    /// route" below every min, without output or below the floors names the
    /// smallest 8-place `toAmount` that works, above every max the largest,
    /// with the to asset; the strict ranking's "no route" names the same.
    #[test]
    fn exact_out_no_route_names_the_to_amount_that_works(
        case in case(),
        to in 1i64..=20_000,
        scale in 0u32..=3,
    ) {
        let case = Case { from_places: 8, to_places: 8, ..case };
        let rates = case.rates();
        let to = Amount::new(Decimal::new(to, scale)).unwrap();
        let (low, high) = case.working_out();
        let unit = |y: Option<BigInt>| y.map(|y| Decimal::new(i64::try_from(y).unwrap(), 8));
        let (low, high) = (unit(low), unit(high));
        let estimate = estimate_exact_out_with(&rates, to, NOW, &case.floors());
        let strict = |from: Amount| {
            RouteRequest::exact_out(from, to, NOW)
                .with_limit_policy(LimitPolicy::Strict)
                .with_floors(case.floors())
                .best(&rates)
        };
        let mut errors = Vec::new();
        if let Err(no_route) = estimate {
            errors.push(no_route);
        }
        if let Err(no_route) = strict(Amount::new(Decimal::ONE).unwrap()) {
            errors.push(no_route);
        }
        for no_route in errors {
            let want = match &no_route {
                NoRoute::BelowMin { .. } | NoRoute::NoOutput { .. } | NoRoute::BelowFloors { .. } => low,
                NoRoute::AboveMax { .. } => high,
                _ => None,
            };
            prop_assert_eq!(no_route.working(), want, "{}", no_route);
            if let Some(working) = no_route.working_amount() {
                prop_assert_eq!(working.field(), RequestField::ToAmount);
                prop_assert_eq!(working.asset().as_str(), "ETH");
                let named = format!("toAmount that works is {} ETH", working.amount());
                prop_assert!(no_route.to_string().contains(&named), "{}", no_route);
            }
        }
    }
}

#[test]
fn the_answer_types_are_send_and_sync() {
    fn both<T: Send + Sync>() {}
    both::<Feasible<'_>>();
    both::<FeasibleQuery<'_>>();
    both::<Floors>();
    both::<swaproute::route::Served<'_>>();
    both::<swaproute::route::AmountRange>();
    both::<swaproute::route::FeasibleReport<'_, '_>>();
}
