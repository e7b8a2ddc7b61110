#![allow(clippy::arithmetic_side_effects)]
//! Hand-computed examples of the route engine (rulings 2-10 in docs/RULES.md).
//!
//! Every expected number is worked out in a comment from the formulas:
//! `net = fromAmount × multiplier − minerFee`, required input
//! `(toAmount + minerFee) / multiplier` rounded up to 8 dp.

use crate::common::{amount, btc_eth_rate, d};
use rust_decimal::Decimal;
use swaproute::{
    estimate_exact_out, CampaignId, CampaignLimits, EpochMillis, PairId, Rate, RateId, RateTerms,
    RatesResponse, RouteRequest, Selection, SwapMode,
};

const NOW: EpochMillis = EpochMillis::new(1_700_000_000_000);
const LATER: EpochMillis = EpochMillis::new(1_700_000_060_000);

fn rate(id: &str, multiplier: &str, fee: &str, min: &str, max: &str) -> Rate {
    btc_eth_rate(id, multiplier, fee, min, max, LATER)
}

fn expiring(id: &str, expiry: EpochMillis) -> Rate {
    Rate::new(
        RateId::new(id).unwrap(),
        PairId::new("BTC_ETH").unwrap(),
        RateTerms {
            multiplier: d("33.1"),
            miner_fee: d("0.0002"),
            min: d("0.001"),
            max: d("8"),
        },
        expiry,
    )
}

fn campaign(id: &str) -> CampaignId {
    CampaignId::new(id).unwrap()
}

fn exact_in(from: &str) -> RouteRequest<'static> {
    RouteRequest::exact_in(amount(from), NOW)
}

fn exact_out(from: &str, to: &str) -> RouteRequest<'static> {
    RouteRequest::exact_out(amount(from), amount(to), NOW)
}

fn ranked_ids<'a>(selection: &'a Selection<'_>) -> Vec<&'a str> {
    selection
        .routes()
        .iter()
        .map(|r| r.rate().id().as_str())
        .collect()
}

fn reasons(selection: &Selection<'_>) -> Vec<(String, &'static str, Option<Decimal>)> {
    selection
        .rejected()
        .iter()
        .map(|r| {
            (
                r.rate().id().as_str().to_owned(),
                r.reason().code(),
                r.reason().limit(),
            )
        })
        .collect()
}

// --- Limits are inclusive at both ends (ruling 5) ---------------------------

#[test]
fn amount_exactly_at_min_is_accepted() {
    let rates = [rate("a", "33.1", "0.0002", "0.001", "8")];
    let best = exact_in("0.001").best(&rates).unwrap();
    // net = 0.001 × 33.1 − 0.0002 = 0.0331 − 0.0002 = 0.0329
    assert_eq!(best.net_output(), d("0.0329"));
    assert_eq!(best.effective_max(), d("8"));
    assert_eq!(best.order_amount(), d("0.001"));
}

#[test]
fn amount_exactly_at_max_is_accepted() {
    let rates = [rate("a", "33.1", "0.0002", "0.001", "8")];
    let best = exact_in("8").best(&rates).unwrap();
    // net = 8 × 33.1 − 0.0002 = 264.8 − 0.0002 = 264.7998
    assert_eq!(best.net_output(), d("264.7998"));
}

#[test]
fn one_unit_below_min_is_rejected_with_the_min() {
    let rates = [rate("a", "33.1", "0.0002", "0.001", "8")];
    // 0.001 − 0.00000001 = 0.00099999
    let selection = exact_in("0.00099999").select(&rates);
    assert!(selection.routes().is_empty());
    assert_eq!(
        reasons(&selection),
        [("a".to_owned(), "BELOW_MIN", Some(d("0.001")))]
    );
    let no_route = exact_in("0.00099999").best(&rates).unwrap_err();
    assert_eq!(no_route.code().as_str(), "AMOUNT_BELOW_LIMIT");
    assert_eq!((no_route.min(), no_route.max()), (Some(d("0.001")), None));
}

#[test]
fn one_unit_above_max_is_rejected_with_the_max() {
    let rates = [rate("a", "33.1", "0.0002", "0.001", "8")];
    let selection = exact_in("8.00000001").select(&rates);
    assert_eq!(
        reasons(&selection),
        [("a".to_owned(), "ABOVE_MAX", Some(d("8")))]
    );
    let no_route = exact_in("8.00000001").best(&rates).unwrap_err();
    assert_eq!(no_route.code().as_str(), "AMOUNT_ABOVE_LIMIT");
    assert_eq!((no_route.min(), no_route.max()), (None, Some(d("8"))));
}

#[test]
fn limits_are_checked_against_from_amount_in_exact_out_too() {
    let rates = [rate("a", "20", "0.5", "0.001", "10").with_exact_out(true)];
    // The required input (249.5 + 0.5) / 20 = 12.5 lies above max 10, but only
    // fromAmount is checked: 1 is within [0.001, 10].
    let best = exact_out("1", "249.5").best(&rates).unwrap();
    assert_eq!(best.required_input().unwrap().to_string(), "12.50000000");
    // fromAmount 10.00000001 is above max whatever toAmount is.
    let selection = exact_out("10.00000001", "1").select(&rates);
    assert_eq!(
        reasons(&selection),
        [("a".to_owned(), "ABOVE_MAX", Some(d("10")))]
    );
}

// --- Sponsored variants and campaign caps (ruling 3) -------------------------

#[test]
fn campaign_limit_caps_a_sponsored_variant() {
    let rates = [
        rate("base", "33.1", "0.0002", "0.001", "8"),
        rate("base:spring", "33.1", "0", "0.001", "8").sponsored_by(campaign("spring")),
    ];
    let mut limits = CampaignLimits::new();
    limits.insert(campaign("spring"), amount("0.5"));

    // At the cap: sponsored net = 0.5 × 33.1 − 0 = 16.55 beats
    // base net = 16.55 − 0.0002 = 16.5498.
    let request = exact_in("0.5").with_campaigns(&limits);
    let selection = request.select(&rates);
    assert_eq!(ranked_ids(&selection), ["base:spring", "base"]);
    assert_eq!(selection.routes()[0].net_output(), d("16.55"));
    assert_eq!(selection.routes()[0].effective_max(), d("0.5"));
    assert_eq!(selection.routes()[1].net_output(), d("16.5498"));
    assert_eq!(selection.routes()[1].effective_max(), d("8"));

    // One unit above the cap: ABOVE_MAX naming the cap 0.5, not max 8.
    let request = exact_in("0.50000001").with_campaigns(&limits);
    let selection = request.select(&rates);
    assert_eq!(ranked_ids(&selection), ["base"]);
    assert_eq!(
        reasons(&selection),
        [("base:spring".to_owned(), "ABOVE_MAX", Some(d("0.5")))]
    );
    assert!(selection.rejected()[0]
        .reason()
        .to_string()
        .contains("campaign"));
}

#[test]
fn capped_variant_alone_reports_the_cap_as_the_largest_max() {
    let rates = [rate("only:spring", "33.1", "0", "0.001", "8").sponsored_by(campaign("spring"))];
    let limits: CampaignLimits = [(campaign("spring"), amount("0.25"))].into_iter().collect();
    let no_route = exact_in("1")
        .with_campaigns(&limits)
        .best(&rates)
        .unwrap_err();
    assert_eq!(no_route.code().as_str(), "AMOUNT_ABOVE_LIMIT");
    assert_eq!(no_route.max(), Some(d("0.25")));
}

#[test]
fn unknown_campaign_or_higher_limit_leaves_max() {
    let rates = [rate("v", "33.1", "0", "0.001", "8").sponsored_by(campaign("spring"))];
    // No limit known: max 8 applies.
    let best = exact_in("8").best(&rates).unwrap();
    assert_eq!(best.effective_max(), d("8"));
    // A limit of 10 above max 8: min(8, 10) = 8.
    let limits: CampaignLimits = [(campaign("spring"), amount("10"))].into_iter().collect();
    let best = exact_in("8").with_campaigns(&limits).best(&rates).unwrap();
    assert_eq!(best.effective_max(), d("8"));
    let selection = exact_in("8.00000001")
        .with_campaigns(&limits)
        .select(&rates);
    assert_eq!(
        reasons(&selection),
        [("v".to_owned(), "ABOVE_MAX", Some(d("8")))]
    );
}

#[test]
fn sponsored_variant_is_never_selected_in_exact_out() {
    let rates = [
        rate("sponsored", "40", "0", "0.001", "8")
            .sponsored_by(campaign("spring"))
            .with_exact_out(true),
        rate("plain", "30", "0.001", "0.001", "8").with_exact_out(true),
    ];
    // Sponsored would win on net (0.5 × 40 = 20 > 0.5 × 30 − 0.001 = 14.999).
    let selection = exact_out("0.5", "10").select(&rates);
    assert_eq!(ranked_ids(&selection), ["plain"]);
    assert_eq!(selection.routes()[0].net_output(), d("14.999"));
    assert_eq!(
        reasons(&selection),
        [("sponsored".to_owned(), "SPONSORED_IN_EXACT_OUT", None)]
    );
}

// --- Ties (ruling 7) ----------------------------------------------------------

#[test]
fn net_tie_goes_to_the_lower_fee() {
    let rates = [
        // net = 0.5 × 2.1 − 0.15 = 1.05 − 0.15 = 0.9
        rate("a-highfee", "2.1", "0.15", "0", "10"),
        // net = 0.5 × 2 − 0.1 = 1 − 0.1 = 0.9
        rate("b-lowfee", "2", "0.1", "0", "10"),
    ];
    let selection = exact_in("0.5").select(&rates);
    assert_eq!(ranked_ids(&selection), ["b-lowfee", "a-highfee"]);
    assert_eq!(selection.routes()[0].net_output(), d("0.9"));
    assert_eq!(selection.routes()[1].net_output(), d("0.9"));
    assert_eq!(
        exact_in("0.5").best(&rates).unwrap().rate().id().as_str(),
        "b-lowfee"
    );
}

#[test]
fn net_and_fee_tie_goes_to_the_non_sponsored_rate() {
    let rates = [
        rate("A", "33.1", "0.0002", "0", "10").sponsored_by(campaign("spring")),
        rate("B", "33.1", "0.0002", "0", "10"),
    ];
    // Both: net = 1 × 33.1 − 0.0002 = 33.0998, fee 0.0002; "A" < "B" by id,
    // but the base rate "B" comes first.
    let selection = exact_in("1").select(&rates);
    assert_eq!(ranked_ids(&selection), ["B", "A"]);
    assert_eq!(selection.routes()[0].net_output(), d("33.0998"));
}

#[test]
fn full_tie_goes_to_the_smaller_id_by_bytes() {
    // Identical numbers, ids only differ: bytes order "B" (0x42) < "Z" (0x5A)
    // < "a" (0x61) < "ab" < "b": uppercase before lowercase, prefix first.
    let rates = [
        rate("b", "33.1", "0.0002", "0", "10"),
        rate("ab", "33.1", "0.0002", "0", "10"),
        rate("a", "33.1", "0.0002", "0", "10"),
        rate("Z", "33.1", "0.0002", "0", "10"),
        rate("B", "33.1", "0.0002", "0", "10"),
    ];
    let selection = exact_in("1").select(&rates);
    assert_eq!(ranked_ids(&selection), ["B", "Z", "a", "ab", "b"]);
    let top = exact_in("1").top(&rates, 2).unwrap();
    assert_eq!(
        top.iter()
            .map(|r| r.rate().id().as_str())
            .collect::<Vec<_>>(),
        ["B", "Z"]
    );
    assert_eq!(
        exact_in("1").best(&rates).unwrap().rate().id().as_str(),
        "B"
    );
}

#[test]
fn higher_net_beats_lower_fee() {
    let rates = [
        // net = 1 × 33.1 − 0 = 33.1
        rate("zero-fee", "33.1", "0", "0", "10"),
        // net = 1 × 33.2 − 0.05 = 33.15
        rate("with-fee", "33.2", "0.05", "0", "10"),
    ];
    let selection = exact_in("1").select(&rates);
    assert_eq!(ranked_ids(&selection), ["with-fee", "zero-fee"]);
    assert_eq!(selection.routes()[0].net_output(), d("33.15"));
}

// --- Expiry (ruling 5) --------------------------------------------------------

#[test]
fn a_rate_is_expired_when_expiry_equals_now() {
    let rates = [
        expiring("at-now", NOW),
        expiring("after-now", NOW.saturating_add(1)),
    ];
    let selection = exact_in("1").select(&rates);
    assert_eq!(ranked_ids(&selection), ["after-now"]);
    assert_eq!(
        reasons(&selection),
        [("at-now".to_owned(), "EXPIRED", None)]
    );
}

#[test]
fn all_expired_is_rate_expired() {
    let rates = [
        expiring("at-now", NOW),
        expiring("before", NOW.saturating_sub(1)),
    ];
    let no_route = exact_in("1").best(&rates).unwrap_err();
    assert_eq!(no_route.code().as_str(), "RATE_EXPIRED");
    assert_eq!(
        exact_in("1")
            .select(&rates)
            .no_route()
            .unwrap()
            .code()
            .as_str(),
        "RATE_EXPIRED"
    );
    assert_eq!(
        estimate_exact_out(&rates, amount("1"), NOW)
            .unwrap_err()
            .code()
            .as_str(),
        "RATE_EXPIRED"
    );
}

// --- Invalid rates (ruling 2) ---------------------------------------------------

#[test]
fn invalid_rates_are_reported_while_the_others_rank() {
    let rates = [
        rate("zero-multiplier", "0", "0.0002", "0.001", "8"),
        rate("negative-multiplier", "-33.1", "0.0002", "0.001", "8"),
        rate("negative-fee", "33.1", "-0.0001", "0.001", "8"),
        rate("min-above-max", "33.1", "0.0002", "8.00000001", "8"),
        rate("negative-min", "33.1", "0.0002", "-0.001", "8"),
        // net = 1 × 33 − 0.0003 = 32.9997
        rate("valid", "33", "0.0003", "0.001", "8"),
        // min == max is valid: net = 1 × 32 − 0 = 32
        rate("point", "32", "0", "1", "1"),
    ];
    let selection = exact_in("1").select(&rates);
    assert_eq!(ranked_ids(&selection), ["valid", "point"]);
    assert_eq!(selection.routes()[0].net_output(), d("32.9997"));
    assert_eq!(selection.routes()[1].net_output(), d("32"));
    let invalid: Vec<_> = reasons(&selection)
        .into_iter()
        .map(|(id, code, _)| (id, code))
        .collect();
    assert_eq!(
        invalid,
        [
            ("zero-multiplier".to_owned(), "INVALID_RATE"),
            ("negative-multiplier".to_owned(), "INVALID_RATE"),
            ("negative-fee".to_owned(), "INVALID_RATE"),
            ("min-above-max".to_owned(), "INVALID_RATE"),
            ("negative-min".to_owned(), "INVALID_RATE"),
        ]
    );
}

#[test]
fn invalid_beats_expired_in_the_reported_reason() {
    // Both invalid and expired: the first failure of ruling 5 is reported.
    let rates = [Rate::new(
        RateId::new("bad").unwrap(),
        PairId::new("BTC_ETH").unwrap(),
        RateTerms {
            multiplier: d("0"),
            miner_fee: d("0"),
            min: d("0"),
            max: d("1"),
        },
        NOW,
    )];
    let selection = exact_in("1").select(&rates);
    assert_eq!(
        reasons(&selection),
        [("bad".to_owned(), "INVALID_RATE", None)]
    );
    // Only invalid rates: no liquidity at all.
    assert_eq!(
        selection.no_route().unwrap().code().as_str(),
        "INSUFFICIENT_LIQUIDITY"
    );
}

#[test]
fn non_positive_output_is_no_output() {
    // net = 0.001 × 0.1 − 0.5 = 0.0001 − 0.5 = −0.4999
    let rates = [rate("tiny", "0.1", "0.5", "0.001", "8")];
    let selection = exact_in("0.001").select(&rates);
    assert_eq!(selection.rejected()[0].reason().code(), "NO_OUTPUT");
    assert_eq!(
        selection.no_route().unwrap().code().as_str(),
        "INSUFFICIENT_LIQUIDITY"
    );
}

// --- ExactOut required input and estimate (rulings 6, 8, 9) -------------------

#[test]
fn exact_out_required_input_is_rounded_up_to_eight_decimals() {
    let rates = [
        // (249.5 + 0.5) / 20 = 250 / 20 = 12.5 → "12.50000000"
        rate("even", "20", "0.5", "0", "100").with_exact_out(true),
        // (249.5 + 0) / 3 = 83.1666… → rounded up "83.16666667"
        rate("thirds", "3", "0", "0", "100").with_exact_out(true),
    ];
    let selection = exact_out("1", "249.5").select(&rates);
    // Ranked by net at fromAmount 1: 1 × 20 − 0.5 = 19.5 vs 1 × 3 − 0 = 3.
    assert_eq!(ranked_ids(&selection), ["even", "thirds"]);
    assert_eq!(selection.routes()[0].net_output(), d("19.5"));
    let even = selection.routes()[0].required_input().unwrap();
    assert_eq!(even.to_string(), "12.50000000");
    assert_eq!(even.get().scale(), 8);
    let thirds = selection.routes()[1].required_input().unwrap();
    assert_eq!(thirds.to_string(), "83.16666667");
    // Ruling 9: the order amount is the required input.
    assert_eq!(selection.routes()[1].order_amount(), d("83.16666667"));
    // ExactIn has no required input; the order amount is fromAmount.
    let route = exact_in("1").best(&rates).unwrap();
    assert_eq!(route.required_input(), None);
    assert_eq!(route.order_amount(), d("1"));
}

#[test]
fn tiny_required_input_rounds_up_to_one_unit() {
    // (0.000000001 + 0) / 1 = 1e-9 → rounded up 0.00000001
    let rates = [rate("r", "1", "0", "0", "1").with_exact_out(true)];
    let best = exact_out("0.1", "0.000000001").best(&rates).unwrap();
    assert_eq!(best.required_input().unwrap().to_string(), "0.00000001");
}

#[test]
fn estimate_picks_the_smallest_in_limit_required_input() {
    let rates = [
        // (249.5 + 0.5) / 20 = 12.5, above max 10: not usable.
        rate("small-max", "20", "0.5", "0.001", "10").with_exact_out(true),
        // (249.5 + 0) / 3 = 83.1666… → 83.16666667, within [0.1, 100].
        rate("thirds", "3", "0", "0.1", "100").with_exact_out(true),
        // (249.5 + 0.1) / 2.5 = 99.84, within [0, 1000], larger.
        rate("larger", "2.5", "0.1", "0", "1000").with_exact_out(true),
        // No exactOut: never estimated ((249.5 + 0) / 30 = 8.31666667 would win).
        rate("incapable", "30", "0", "0", "1000"),
    ];
    let to = amount("249.5");
    let estimate = estimate_exact_out(&rates, to, NOW).unwrap();
    assert_eq!(estimate.rate().id().as_str(), "thirds");
    assert_eq!(estimate.from_amount().to_string(), "83.16666667");
    // Selecting at the estimate picks it: at 83.16666667 "small-max" is above
    // its max 10; thirds nets 83.16666667 × 3 = 249.50000001 > larger's
    // 83.16666667 × 2.5 − 0.1 = 207.816666675.
    let request = estimate.request(to, NOW);
    let selection = request.select(&rates);
    assert_eq!(ranked_ids(&selection), ["thirds", "larger"]);
    assert_eq!(selection.routes()[0].net_output(), d("249.50000001"));
    assert_eq!(selection.routes()[1].net_output(), d("207.816666675"));
    assert_eq!(request.best(&rates).unwrap().rate().id().as_str(), "thirds");
}

// --- No route (ruling 10) ------------------------------------------------------

fn gap_rates() -> [Rate; 4] {
    [
        rate("low", "33", "0", "0.001", "0.3"),
        rate("mid-low", "33", "0", "0.01", "0.5"),
        rate("mid-high", "33", "0", "2", "10"),
        rate("high", "33", "0", "5", "20"),
    ]
}

#[test]
fn gap_names_the_nearest_max_below_and_min_above() {
    let rates = gap_rates();
    // 1 lies between max 0.5 (nearest below; 0.3 is farther) and min 2
    // (nearest above; 5 is farther). Closer to the max (1 − 0.5 = 0.5 <
    // 2 − 1 = 1): AMOUNT_ABOVE_LIMIT.
    let no_route = exact_in("1").best(&rates).unwrap_err();
    assert_eq!(no_route.max(), Some(d("0.5")));
    assert_eq!(no_route.min(), Some(d("2")));
    assert_eq!(no_route.code().as_str(), "AMOUNT_ABOVE_LIMIT");
    let details = no_route.to_api_error().details().to_owned();
    assert!(
        details.contains("0.5") && details.contains('2'),
        "{details}"
    );

    // 1.9: 1.9 − 0.5 = 1.4 > 2 − 1.9 = 0.1, closer to the min: AMOUNT_BELOW_LIMIT.
    let no_route = exact_in("1.9").best(&rates).unwrap_err();
    assert_eq!(
        (no_route.min(), no_route.max()),
        (Some(d("2")), Some(d("0.5")))
    );
    assert_eq!(no_route.code().as_str(), "AMOUNT_BELOW_LIMIT");

    // 1.25: 0.75 either way; ties go to AMOUNT_ABOVE_LIMIT.
    let no_route = exact_in("1.25").best(&rates).unwrap_err();
    assert_eq!(no_route.code().as_str(), "AMOUNT_ABOVE_LIMIT");
}

#[test]
fn below_every_min_names_the_smallest_min() {
    let no_route = exact_in("0.0001").best(&gap_rates()).unwrap_err();
    assert_eq!(no_route.code().as_str(), "AMOUNT_BELOW_LIMIT");
    assert_eq!((no_route.min(), no_route.max()), (Some(d("0.001")), None));
}

#[test]
fn above_every_max_names_the_largest_max() {
    let no_route = exact_in("20.00000001").best(&gap_rates()).unwrap_err();
    assert_eq!(no_route.code().as_str(), "AMOUNT_ABOVE_LIMIT");
    assert_eq!((no_route.min(), no_route.max()), (None, Some(d("20"))));
}

#[test]
fn exact_out_over_incapable_rates_is_unsupported_swap_mode() {
    let rates = [
        rate("a", "33.1", "0.0002", "0.001", "8"),
        rate("b", "33.2", "0.0003", "0.001", "8").with_exact_out(false),
        rate("s", "33.3", "0", "0.001", "8")
            .with_exact_out(true)
            .sponsored_by(campaign("spring")),
    ];
    let selection = exact_out("1", "30").select(&rates);
    assert_eq!(
        reasons(&selection),
        [
            ("a".to_owned(), "EXACT_OUT_UNSUPPORTED", None),
            ("b".to_owned(), "EXACT_OUT_UNSUPPORTED", None),
            ("s".to_owned(), "SPONSORED_IN_EXACT_OUT", None),
        ]
    );
    assert_eq!(
        selection.no_route().unwrap().code().as_str(),
        "UNSUPPORTED_SWAP_MODE"
    );
    assert_eq!(
        estimate_exact_out(&rates, amount("30"), NOW)
            .unwrap_err()
            .code()
            .as_str(),
        "UNSUPPORTED_SWAP_MODE"
    );
    // The same rates serve ExactIn.
    assert_eq!(
        exact_in("1").best(&rates).unwrap().rate().id().as_str(),
        "s"
    );
}

#[test]
fn no_rates_is_insufficient_liquidity() {
    let rates: [Rate; 0] = [];
    for request in [exact_in("1"), exact_out("1", "1")] {
        assert_eq!(
            request.best(&rates).unwrap_err().code().as_str(),
            "INSUFFICIENT_LIQUIDITY"
        );
        assert_eq!(
            request.top(&rates, 3).unwrap_err().code().as_str(),
            "INSUFFICIENT_LIQUIDITY"
        );
        let selection = request.select(&rates);
        assert!(selection.routes().is_empty() && selection.rejected().is_empty());
        assert_eq!(
            selection.no_route().unwrap().code().as_str(),
            "INSUFFICIENT_LIQUIDITY"
        );
    }
    assert_eq!(
        estimate_exact_out(&rates, amount("1"), NOW)
            .unwrap_err()
            .code()
            .as_str(),
        "INSUFFICIENT_LIQUIDITY"
    );
}

// --- A real-shaped rates response ----------------------------------------------

const RESPONSE: &str = r#"[
  {"amount":{"assetId":"ETH","value":33.14218692377834},"expiry":1785333919000,
   "id":"d5b1a8f2-6c3e-4e8b-9f0a-2b7c4d1e9a63",
   "max":{"assetId":"BTC","value":8.33028657},"min":{"assetId":"BTC","value":0.00079787},
   "minerFee":{"assetId":"ETH","value":0.00019192},"pairId":"BTC_ETH",
   "features":[],"sponsoredByCampaignId":null},
  {"amount":{"assetId":"ETH","value":33.14218692377834},"expiry":1785333919000,
   "id":"d5b1a8f2-6c3e-4e8b-9f0a-2b7c4d1e9a63:spring",
   "max":{"assetId":"BTC","value":8.33028657},"min":{"assetId":"BTC","value":0.00079787},
   "minerFee":{"assetId":"ETH","value":0},"pairId":"BTC_ETH",
   "features":["exactOut"],"sponsoredByCampaignId":"spring-2026"},
  {"amount":{"assetId":"ETH","value":33.098927169677374},"expiry":1785333919000,
   "id":"ch@nge(N0w)!&$-7f3k9q2m4x8v1z5",
   "max":{"assetId":"BTC","value":12.5},"min":{"assetId":"BTC","value":0.001},
   "minerFee":{"assetId":"ETH","value":0.0001},"pairId":"BTC_ETH"},
  {"amount":{"assetId":"ETH","value":33.20110457},"expiry":1785333919000,
   "id":"eyJwcm92aWRlciI6ImZpeGVkZmxvYXQiLCJwYWlyIjoiQlRDX0VUSCJ9+/Zm9vYmFy==",
   "max":{"assetId":"BTC","value":3.5},"min":{"assetId":"BTC","value":0.01},
   "minerFee":{"assetId":"ETH","value":0.00215},"pairId":"BTC_ETH",
   "features":null,"sponsoredByCampaignId":null,"unknownKey":true},
  {"amount":{"assetId":"ETH","value":33.14218692377834},"expiry":1785333919000,
   "id":"d5b1a8f2-dup",
   "max":{"assetId":"BTC","value":8.33028657},"min":{"assetId":"BTC","value":0.00079787},
   "minerFee":{"assetId":"ETH","value":0.00019192},"pairId":"BTC_ETH",
   "features":["exactOut"]},
  {"amount":{"assetId":"ETH","value":34},"expiry":1785000000000,
   "id":"expired-at-now",
   "max":{"assetId":"BTC","value":8},"min":{"assetId":"BTC","value":0.001},
   "minerFee":{"assetId":"ETH","value":0},"pairId":"BTC_ETH","features":["exactOut"]}
]"#;

const RESPONSE_NOW: EpochMillis = EpochMillis::new(1_785_000_000_000);

#[test]
fn decodes_a_real_rates_response() {
    let rates: RatesResponse = serde_json::from_str(RESPONSE).unwrap();
    assert_eq!(rates.len(), 6);
    // 17 significant digits kept exactly; integer 0 fee is 0.
    assert_eq!(rates[0].multiplier().to_string(), "33.14218692377834");
    assert_eq!(rates[2].multiplier().to_string(), "33.098927169677374");
    assert_eq!(rates[1].miner_fee(), Decimal::ZERO);
    assert_eq!(rates[0].min(), d("0.00079787"));
    // Absent / null / [] features and sponsor.
    assert!(!rates[0].supports_exact_out() && !rates[0].is_sponsored());
    assert!(rates[1].supports_exact_out());
    assert_eq!(
        rates[1].sponsored_by_campaign_id().unwrap().as_str(),
        "spring-2026"
    );
    assert!(!rates[2].supports_exact_out() && !rates[2].is_sponsored());
    assert!(!rates[3].supports_exact_out() && !rates[3].is_sponsored());
    assert!(rates[4].supports_exact_out() && !rates[4].is_sponsored());
    // Ids with punctuation and base64 kept verbatim.
    assert_eq!(rates[2].id().as_str(), "ch@nge(N0w)!&$-7f3k9q2m4x8v1z5");
    assert!(rates[3].id().as_str().ends_with("+/Zm9vYmFy=="));
}

#[test]
fn selects_from_a_real_rates_response_in_exact_in() {
    let rates: RatesResponse = serde_json::from_str(RESPONSE).unwrap();
    let limits: CampaignLimits = [(campaign("spring-2026"), amount("0.25"))]
        .into_iter()
        .collect();
    let request = RouteRequest::exact_in(amount("0.5"), RESPONSE_NOW).with_campaigns(&limits);
    let selection = request.select(&rates);
    // net at 0.5:
    //   eyJ…       0.5 × 33.20110457        − 0.00215    = 16.600552285        − 0.00215    = 16.598402285
    //   d5b1…9a63  0.5 × 33.14218692377834  − 0.00019192 = 16.57109346188917   − 0.00019192 = 16.57090154188917
    //   d5b1…dup   the same numbers: tie on net and fee; "-6…" < "-d…" by bytes
    //   ch@nge     0.5 × 33.098927169677374 − 0.0001     = 16.549463584838687  − 0.0001     = 16.549363584838687
    //   …:spring   capped at 0.25 < 0.5: ABOVE_MAX 0.25
    //   expired    expiry == now: EXPIRED
    assert_eq!(
        ranked_ids(&selection),
        [
            "eyJwcm92aWRlciI6ImZpeGVkZmxvYXQiLCJwYWlyIjoiQlRDX0VUSCJ9+/Zm9vYmFy==",
            "d5b1a8f2-6c3e-4e8b-9f0a-2b7c4d1e9a63",
            "d5b1a8f2-dup",
            "ch@nge(N0w)!&$-7f3k9q2m4x8v1z5",
        ]
    );
    let nets: Vec<Decimal> = selection
        .routes()
        .iter()
        .map(swaproute::Route::net_output)
        .collect();
    assert_eq!(
        nets,
        [
            d("16.598402285"),
            d("16.57090154188917"),
            d("16.57090154188917"),
            d("16.549363584838687"),
        ]
    );
    assert_eq!(
        reasons(&selection),
        [
            (
                "d5b1a8f2-6c3e-4e8b-9f0a-2b7c4d1e9a63:spring".to_owned(),
                "ABOVE_MAX",
                Some(d("0.25"))
            ),
            ("expired-at-now".to_owned(), "EXPIRED", None),
        ]
    );

    // Without the campaign's limit the variant ranks second:
    // 0.5 × 33.14218692377834 − 0 = 16.57109346188917.
    let request = RouteRequest::exact_in(amount("0.5"), RESPONSE_NOW);
    let top = request.top(&rates, 2).unwrap();
    assert_eq!(
        top[1].rate().id().as_str(),
        "d5b1a8f2-6c3e-4e8b-9f0a-2b7c4d1e9a63:spring"
    );
    assert_eq!(top[1].net_output(), d("16.57109346188917"));

    // Exactly at the smallest min 0.00079787: only the d5b1 rates accept it
    // (ch@nge min 0.001, eyJ min 0.01); with no campaign limit the zero-fee
    // variant ranks first, then the base rate with net = 0.00079787 × 33.14218692377834
    // − 0.00019192 = 0.0264431566808750241358 − 0.00019192 = 0.0262512366808750241358.
    let request = RouteRequest::exact_in(amount("0.00079787"), RESPONSE_NOW);
    let best = request.best(&rates).unwrap();
    assert_eq!(
        best.rate().id().as_str(),
        "d5b1a8f2-6c3e-4e8b-9f0a-2b7c4d1e9a63:spring"
    );
    let selection = request.select(&rates);
    assert_eq!(
        selection.routes()[1].net_output(),
        d("0.0262512366808750241358")
    );
}

#[test]
fn estimates_and_selects_from_a_real_rates_response_in_exact_out() {
    let rates: RatesResponse = serde_json::from_str(RESPONSE).unwrap();
    let to = amount("16");
    // Only "d5b1a8f2-dup" can serve ExactOut (exactOut, live, not sponsored):
    // (16 + 0.00019192) / 33.14218692377834 = 0.48277417410015364873…
    // → rounded up 0.48277418, within [0.00079787, 8.33028657].
    let estimate = estimate_exact_out(&rates, to, RESPONSE_NOW).unwrap();
    assert_eq!(estimate.rate().id().as_str(), "d5b1a8f2-dup");
    assert_eq!(estimate.from_amount().to_string(), "0.48277418");
    let request = estimate.request(to, RESPONSE_NOW);
    let best = request.best(&rates).unwrap();
    assert_eq!(best.rate().id().as_str(), "d5b1a8f2-dup");
    // 0.48277418 × 33.14218692377834 − 0.00019192 = 16.0000001955338105952612 ≥ 16
    assert_eq!(best.net_output(), d("16.0000001955338105952612"));
    assert_eq!(best.required_input().unwrap().to_string(), "0.48277418");
    assert_eq!(best.order_amount(), d("0.48277418"));
    let codes: Vec<_> = request
        .select(&rates)
        .rejected()
        .iter()
        .map(|r| r.reason().code())
        .collect();
    assert_eq!(
        codes,
        [
            "EXACT_OUT_UNSUPPORTED",
            "SPONSORED_IN_EXACT_OUT",
            "EXACT_OUT_UNSUPPORTED",
            "EXACT_OUT_UNSUPPORTED",
            "EXPIRED",
        ]
    );
}

#[test]
fn rates_equal_in_every_key_keep_input_order() {
    // Forty copies of one rate (same id, multiplier, fee), told apart only by
    // their max, which the ranking never reads: 1 × 2 − 0.1 = 1.9 for each.
    // They rank in input order, between a better and a worse rate, in the
    // full selection and in top(k).
    let mut rates = vec![rate("worse", "1.5", "0.1", "0.5", "10")];
    for i in 0..40 {
        rates.push(rate("same", "2", "0.1", "0.5", &format!("{}", 10 + i)));
    }
    rates.push(rate("better", "3", "0.1", "0.5", "10"));
    let request = RouteRequest::exact_in(amount("1"), NOW);
    let selection = request.select(&rates);
    let maxes: Vec<Decimal> = selection
        .routes()
        .iter()
        .map(swaproute::Route::effective_max)
        .collect();
    let mut expected = vec![d("10")];
    expected.extend((0..40).map(|i| Decimal::from(10 + i)));
    expected.push(d("10"));
    assert_eq!(maxes, expected);
    let top: Vec<Decimal> = request
        .top(&rates, 6)
        .unwrap()
        .iter()
        .map(swaproute::Route::effective_max)
        .collect();
    assert_eq!(top, expected[..6]);
    let routes = selection.routes();
    assert_eq!(
        routes.first().map(|r| r.rate().id().as_str()),
        Some("better")
    );
    assert_eq!(routes.last().map(|r| r.rate().id().as_str()), Some("worse"));
}

// --- Rejected rates keep input order (`Selection`) ---------------------------

/// The required input of `r0` overflows, which is found only after the scan
/// that rejected `r1` (its 28-digit multiplier takes the plain path, which
/// computes required inputs after ranking); the rejections are still listed in
/// input order.
#[test]
fn rejections_keep_input_order_when_a_required_input_overflows() {
    let rates = [
        rate("r0", "0.5000000000000000000000000001", "0", "0", "10").with_exact_out(true),
        expiring("r1", NOW),
    ];
    let selection = exact_out("1", "79228162514264337593543950335").select(&rates);
    assert!(selection.routes().is_empty());
    assert_eq!(
        reasons(&selection),
        [
            ("r0".to_owned(), "OVERFLOW", None),
            ("r1".to_owned(), "EXPIRED", None),
        ]
    );
}

/// A selection says which request it answers: the mode and both amounts.
#[test]
fn a_selection_names_the_request_it_answers() {
    let rates = vec![rate("a", "33", "0.001", "0.01", "10")];
    let selection = exact_in("0.5").select(&rates);
    assert_eq!(selection.mode(), SwapMode::ExactIn);
    assert_eq!(selection.from_amount(), amount("0.5"));
    assert_eq!(selection.to_amount(), None);

    let selection = exact_out("0.6", "16.4").select(&rates);
    assert_eq!(selection.mode(), SwapMode::ExactOut);
    assert_eq!(selection.from_amount(), amount("0.6"));
    assert_eq!(selection.to_amount(), Some(amount("16.4")));
}

/// Net outputs by hand at 0.5: a 0.5 × 33 − 0.001 = 16.499, b 0.5 × 34 −
/// 0.002 = 16.998, c 0.5 × 32 − 0 = 16: b, a, c.
#[test]
fn a_fixed_top_lists_its_routes_by_reference() {
    let rates = vec![
        rate("a", "33", "0.001", "0.01", "10"),
        rate("b", "34", "0.002", "0.01", "10"),
        rate("c", "32", "0", "0.01", "10"),
    ];
    let top = exact_in("0.5").top_n::<2>(&rates).unwrap();
    assert!(!top.is_empty());
    assert_eq!(top.len(), 2);
    let mut ids = Vec::new();
    for route in &top {
        ids.push(route.rate().id().as_str());
    }
    assert_eq!(ids, ["b", "a"]);
    assert!(swaproute::TopN::<2>::new().is_empty());
}

/// `Decimal` rounds `x × m − fee` when the difference needs one more place
/// than it has room for; the route reports the exact net, which fits:
/// 1 × 7922816251426433759354395034 − 0.5 = 7922816251426433759354395033.5
/// (mantissa 2^96 − 1 at scale 1), not the …34 that `Decimal` rounds to.
#[test]
fn a_net_that_decimal_rounds_is_reported_exactly() {
    let rates = vec![rate(
        "wide",
        "7922816251426433759354395034",
        "0.5",
        "0",
        "10",
    )];
    let best = exact_in("1").best(&rates).unwrap();
    assert_eq!(best.net_output(), d("7922816251426433759354395033.5"));
    assert_eq!(
        best.net_output().to_string(),
        "7922816251426433759354395033.5"
    );
}

/// A net past 28 places is the floor of the exact value (ruling 43), never
/// of a rounded product: 0.00000005 × 0.0000000000000000000057 = 2.85 ×
/// 10⁻²⁸, minus 10⁻²⁸ is 1.85 × 10⁻²⁸, whose floor at 28 places is 1 ×
/// 10⁻²⁸. Rounding half to even would give 2 × 10⁻²⁸ (above the exact
/// value), and so would rounding the product first (3 × 10⁻²⁸) and then
/// subtracting.
#[test]
fn a_net_past_28_places_is_the_floor_of_the_exact_value() {
    let rates = vec![rate(
        "tiny",
        "0.0000000000000000000057",
        "0.0000000000000000000000000001",
        "0",
        "10",
    )];
    let best = exact_in("0.00000005").best(&rates).unwrap();
    assert_eq!(best.net_output(), d("0.0000000000000000000000000001"));
}

/// Ranked by the exact nets (ruling 43), not by the `Decimal`s reported: a:
/// 1 × 101 − 0.9999999999999999999999999999 = 100.0000000000000000000000000001
/// (31 digits), reported as its floor 100 (26 places fit: 29 digits); b:
/// 1 × 100 − 0 = 100. a is larger by 10⁻²⁸, so a first, though b has the
/// lower fee.
#[test]
fn nets_too_wide_for_decimal_rank_by_their_exact_values() {
    let rates = vec![
        rate("a", "101", "0.9999999999999999999999999999", "0", "10"),
        rate("b", "100", "0", "0", "10"),
    ];
    let ranked = exact_in("1").select(&rates);
    assert_eq!(ranked_ids(&ranked), ["a", "b"]);
    assert_eq!(ranked.routes()[0].net_output(), d("100"));
    assert_eq!(ranked.routes()[1].net_output(), d("100"));
    assert_eq!(
        exact_in("1").best(&rates).unwrap().rate().id().as_str(),
        "a"
    );
}

/// Products too wide for `Decimal` rank by their exact values (ruling 43).
/// At x = 1.0000000000000000001: a: x × 8.000000001 − 0.000000001 =
/// 8.0000000000000000008000000001 (29 digits: 8 × 10²⁸ is past 2^96 ≈ 7.92 ×
/// 10²⁸ at 28 places), reported as its floor at 27 places,
/// 8.0000000000000000008; b: x × 8 − 0 = 8.0000000000000000008. a is larger
/// by 10⁻²⁸: a first, though both report the same and b's fee is lower.
#[test]
fn products_too_wide_for_decimal_rank_by_their_exact_values() {
    let rates = vec![
        rate("a", "8.000000001", "0.000000001", "0", "10"),
        rate("b", "8", "0", "0", "10"),
    ];
    let x = "1.0000000000000000001";
    let ranked = exact_in(x).select(&rates);
    assert_eq!(ranked_ids(&ranked), ["a", "b"]);
    assert_eq!(ranked.routes()[0].net_output(), d("8.0000000000000000008"));
    assert_eq!(ranked.routes()[1].net_output(), d("8.0000000000000000008"));
    assert_eq!(exact_in(x).best(&rates).unwrap().rate().id().as_str(), "a");
}

/// Equal nets go to the lower fee, whichever path computed them: a keeps
/// its fast key (fee 1), b's fee of 10¹⁰ is past the fast form's 2^126 /
/// 10^28 ≈ 8.5 × 10⁹, so b takes the plain path. At 1: a: 100 − 1 = 99,
/// b: 10000000099 − 10000000000 = 99. A tie: a, the lower fee, first.
#[test]
fn equal_nets_go_to_the_lower_fee_across_both_paths() {
    let rates = vec![
        rate("b", "10000000099", "10000000000", "0", "10"),
        rate("a", "100", "1", "0", "10"),
    ];
    let ranked = exact_in("1").select(&rates);
    assert_eq!(ranked_ids(&ranked), ["a", "b"]);
    assert_eq!(ranked.routes()[1].net_output(), d("99"));
    assert_eq!(
        exact_in("1").best(&rates).unwrap().rate().id().as_str(),
        "a"
    );
}

/// A required input the integer cover cannot hold (1000 × 10³⁶ overflows a
/// `u128`) is found from `Decimal`'s guess by an exact search: with
/// multiplier 1.0000000000000000000000000001, 1000.00000000 covers 1000
/// (by 10⁻²⁵) and 999.99999999 does not (999.99999999 + 9.99…×10⁻²⁶ < 1000).
#[test]
fn a_required_input_past_the_integer_cover_is_the_least_cover() {
    let rates =
        vec![rate("r", "1.0000000000000000000000000001", "0", "0", "100000").with_exact_out(true)];
    let best = exact_out("1000", "1000").best(&rates).unwrap();
    assert_eq!(
        best.required_input().map(swaproute::Fixed8::get),
        Some(d("1000.00000000"))
    );
}
