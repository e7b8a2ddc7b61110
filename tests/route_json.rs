//! Route results as JSON: `Selection`, `Route`, `Rejection`, `Estimate` and
//! `LimitCheck` serialize to the command line's shape, every decimal as a
//! string. Expected values are worked out by hand from the spec's formulas.

use crate::common::amount;
use serde_json::{json, Value};
use swaproute::route::{estimate_exact_out, RouteRequest};
use swaproute::{EpochMillis, RatesResponse};

const NOW: EpochMillis = EpochMillis::new(1_785_000_000_000);

fn rates() -> RatesResponse {
    serde_json::from_value(json!([
        {"amount":{"assetId":"ETH","value":33.1},"expiry":4_102_444_800_000_u64,"id":"a",
         "max":{"assetId":"BTC","value":8},"min":{"assetId":"BTC","value":0.001},
         "minerFee":{"assetId":"ETH","value":0.0002},"pairId":"BTC_ETH","features":["exactOut"]},
        {"amount":{"assetId":"ETH","value":33.2},"expiry":4_102_444_800_000_u64,"id":"b",
         "max":{"assetId":"BTC","value":0.4},"min":{"assetId":"BTC","value":0.01},
         "minerFee":{"assetId":"ETH","value":0.0003},"pairId":"BTC_ETH"},
        {"amount":{"assetId":"ETH","value":33.5},"expiry":1_700_000_000_000_u64,"id":"old",
         "max":{"assetId":"BTC","value":8},"min":{"assetId":"BTC","value":0.001},
         "minerFee":{"assetId":"ETH","value":0},"pairId":"BTC_ETH"}
    ]))
    .unwrap()
}

#[test]
fn an_exact_in_selection_serializes_to_the_cli_shape() {
    let rates = rates();
    let selection = RouteRequest::exact_in(amount("0.5"), NOW).select(&rates);
    // a: 0.5 × 33.1 − 0.0002 = 16.5498; b caps at 0.4; old expired.
    let expected = json!({
        "mode": "ExactIn",
        "fromAmount": "0.5",
        "toAmount": null,
        "routes": [{
            "rank": 1, "rateId": "a", "netOutput": "16.5498", "requiredInput": null,
            "requiredInputLimits": null, "sponsoredByCampaignId": null
        }],
        "rejected": [
            {"rateId": "b", "reason": "ABOVE_MAX", "limit": "0.4",
             "detail": "amount is above the maximum 0.4"},
            {"rateId": "old", "reason": "EXPIRED", "limit": null,
             "detail": "expired at 1700000000000ms"}
        ]
    });
    assert_eq!(serde_json::to_value(&selection).unwrap(), expected);
    // A route alone has no rank.
    let best = serde_json::to_value(selection.best().unwrap()).unwrap();
    assert_eq!(best.get("rank"), None);
    assert_eq!(best["netOutput"], "16.5498");
}

#[test]
fn exact_out_routes_carry_their_required_input_and_limits() {
    let rates = rates();
    // ⌈(10 + 0.0002) / 33.1⌉₈ = ⌈0.302120845…⌉₈ = 0.30212085, within [0.001, 8].
    let to = amount("10");
    let estimate = estimate_exact_out(&rates, to, NOW).unwrap();
    assert_eq!(
        serde_json::to_value(estimate).unwrap(),
        json!({"fromAmount": "0.30212085", "rateId": "a"})
    );
    let selection = estimate.request(to, NOW).select(&rates);
    let routes = serde_json::to_value(&selection).unwrap()["routes"].clone();
    // Net at the estimate: 0.30212085 × 33.1 − 0.0002 = 10.000200135 − 0.0002.
    assert_eq!(
        routes,
        json!([{
            "rank": 1, "rateId": "a", "netOutput": "10.000000135",
            "requiredInput": "0.30212085",
            "requiredInputLimits": {"status": "within"},
            "sponsoredByCampaignId": null
        }])
    );
    // 1000 ETH needs ⌈1000.0002 / 33.1⌉₈ = ⌈30.211486404…⌉₈ = 30.21148641 > max 8.
    let big = RouteRequest::exact_out(amount("1"), amount("1000"), NOW).select(&rates);
    let first = serde_json::to_value(big.best().unwrap()).unwrap();
    assert_eq!(first["requiredInput"], "30.21148641");
    assert_eq!(
        first["requiredInputLimits"],
        json!({"status": "aboveMax", "limit": "8"})
    );
}

#[test]
fn a_selection_without_routes_still_serializes() {
    let rates = rates();
    let selection = RouteRequest::exact_in(amount("100"), NOW).select(&rates);
    let value: Value = serde_json::to_value(&selection).unwrap();
    assert_eq!(value["routes"], json!([]));
    assert_eq!(value["rejected"][0]["limit"], "8");
}

/// "No route" details name `fromAmount` and its asset, the unit of every limit.
#[test]
fn no_route_details_name_from_amount_and_the_asset() {
    let rates = rates();
    let below = RouteRequest::exact_in(amount("0.0001"), NOW)
        .best(&rates)
        .unwrap_err();
    assert_eq!(
        below.to_string(),
        "fromAmount 0.0001 BTC is below the minimum of every route; the smallest minimum is 0.001 BTC"
    );
    let above = RouteRequest::exact_in(amount("100"), NOW)
        .best(&rates)
        .unwrap_err();
    assert_eq!(
        above.to_api_error().details(),
        "fromAmount 100 BTC is above the maximum of every route; the largest maximum is 8 BTC"
    );
}

#[test]
fn only_within_is_within() {
    use swaproute::route::LimitCheck;
    let limit: swaproute::Decimal = "0.5".parse().unwrap();
    assert!(LimitCheck::Within.is_within());
    assert!(!LimitCheck::BelowMin { min: limit }.is_within());
    assert!(!LimitCheck::AboveMax { max: limit }.is_within());
}

/// Only the two reasons that come from the swap mode alone say so.
#[test]
fn only_swap_mode_reasons_are_swap_mode_reasons() {
    use swaproute::route::RejectReason;
    use swaproute::{EpochMillis, RateDefect};
    let d = |text: &str| -> swaproute::Decimal { text.parse().unwrap() };
    let reasons = [
        (RejectReason::ExactOutUnsupported, true),
        (RejectReason::SponsoredInExactOut, true),
        (
            RejectReason::InvalidRate(RateDefect::NegativeMinerFee(d("-1"))),
            false,
        ),
        (
            RejectReason::Expired {
                expiry: EpochMillis::new(1),
            },
            false,
        ),
        (
            RejectReason::CampaignLimitBelowMin {
                min: d("1"),
                limit: d("0.5"),
            },
            false,
        ),
        (RejectReason::BelowMin { min: d("1") }, false),
        (
            RejectReason::AboveMax {
                max: d("1"),
                capped_by_campaign: true,
            },
            false,
        ),
        (RejectReason::Overflow, false),
        (RejectReason::NoOutput { net_output: d("0") }, false),
        (
            RejectReason::RequiredInputBelowMin {
                required: d("0.5"),
                min: d("1"),
            },
            false,
        ),
        (
            RejectReason::RequiredInputAboveMax {
                required: d("2"),
                max: d("1"),
            },
            false,
        ),
    ];
    for (reason, swap_mode) in reasons {
        assert_eq!(reason.is_swap_mode(), swap_mode, "{reason}");
    }
}
