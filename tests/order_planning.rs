//! Planning orders of both flows over realistic price sources: a fixed
//! request over a `GET /v3/pairs/:pairId/rates` response, a floating request
//! over a quote; screening before routing; quote lifecycle helpers.
//!
//! Every expected number is worked out by hand in a comment from the spec's
//! formulas: `net = fromAmount × rate.amount.value − minerFee`, ExactOut
//! required input `(toAmount + minerFee) / rate.amount.value` rounded up to 8
//! decimal places.
//!
//! # The flows cannot be mixed (ruling 12 in docs/RULES.md)
//! The separation is enforced by the types, so it cannot be exercised here
//! (`compile_fail` doctests do not run in integration tests). For the record:
//!
//! ```text
//! fixed_request.plan(&quote, &context)   // error[E0308]: expected `&[Rate]`, found `&Quote`
//! float_request.plan(&rates, &context)   // error[E0308]: expected `&Quote`, found `&RatesResponse`
//! ```
//!
//! `FixedOrderRequest::plan` takes `&[Rate]` only and `FloatOrderRequest::plan`
//! takes `&Quote` only; neither type has a constructor from the other's
//! price source, and a floating request has no `swapMode` at all.
#![allow(clippy::arithmetic_side_effects)]

use crate::common::d;
use serde_json::{json, Value};
use swaproute::decimal::Amount;
use swaproute::order::{
    FixedOrderRequest, FloatOrderRequest, OrderContext, PlanError, QuoteMismatch,
    RawFixedOrderRequest,
};
use swaproute::quote::Quote;
use swaproute::route::NoRoute;
use swaproute::screening::{
    Address, MarketState, NetworkKind, RegionCode, ScreeningPolicy, TagField, TagWarning,
};
use swaproute::wire::RequestField;
use swaproute::{
    ApiError, AssetId, CampaignId, CampaignLimits, EpochMillis, ErrorCode, RatesResponse, SwapMode,
};

/// 2026-07-25T17:20:00Z, well before every rate's expiry.
const NOW: EpochMillis = EpochMillis::new(1_785_000_000_000);
/// The expiry of the rates below (from a real response).
const RATE_EXPIRY: u64 = 1_785_333_919_000;

const BTC_ADDRESS: &str = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq";
/// EIP-55 test vector (valid checksum).
const ETH_ADDRESS: &str = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
/// The same address with the case of one letter flipped: bad checksum.
const ETH_BAD_CHECKSUM: &str = "0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
const ZERO_ADDRESS: &str = "0x0000000000000000000000000000000000000000";
/// EIP-55 test vector, denylisted in the tests below.
const DENIED: &str = "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359";

/// A realistic BTC_ETH rates response:
///
/// | id | multiplier | fee | min | max | features | campaign |
/// |---|---|---|---|---|---|---|
/// | r-a | 33.14218692377834 | 0.00019192 | 0.00079787 | 8.33028657 | — | — |
/// | r-b | 33.1 | 0.0002 | 0.001 | 8 | exactOut | — |
/// | r-c | 33.2 | 0.0035 | 0.01 | 0.4 | exactOut | — |
fn base_rates() -> Vec<Value> {
    vec![
        json!({"amount":{"assetId":"ETH","value":33.142_186_923_778_34},"expiry":RATE_EXPIRY,
            "id":"r-a","max":{"assetId":"BTC","value":8.330_286_57},
            "min":{"assetId":"BTC","value":0.000_797_87},
            "minerFee":{"assetId":"ETH","value":0.000_191_92},"pairId":"BTC_ETH",
            "features":[],"sponsoredByCampaignId":null}),
        json!({"amount":{"assetId":"ETH","value":33.1},"expiry":RATE_EXPIRY,
            "id":"r-b","max":{"assetId":"BTC","value":8},
            "min":{"assetId":"BTC","value":0.001},
            "minerFee":{"assetId":"ETH","value":0.0002},"pairId":"BTC_ETH",
            "features":["exactOut"]}),
        json!({"amount":{"assetId":"ETH","value":33.2},"expiry":RATE_EXPIRY,
            "id":"r-c","max":{"assetId":"BTC","value":0.4},
            "min":{"assetId":"BTC","value":0.01},
            "minerFee":{"assetId":"ETH","value":0.0035},"pairId":"BTC_ETH",
            "features":["exactOut"],"sponsoredByCampaignId":null}),
    ]
}

/// `r-s`: a campaign-sponsored variant, multiplier 33.3, fee 0 (an integer on
/// the wire), limits 0.001..2, campaign `spring-2026`, exactOut-capable.
fn sponsored_rate() -> Value {
    json!({"amount":{"assetId":"ETH","value":33.3},"expiry":RATE_EXPIRY,
        "id":"r-s","max":{"assetId":"BTC","value":2},
        "min":{"assetId":"BTC","value":0.001},
        "minerFee":{"assetId":"ETH","value":0},"pairId":"BTC_ETH",
        "features":["exactOut"],"sponsoredByCampaignId":"spring-2026"})
}

fn rates(values: Vec<Value>) -> RatesResponse {
    serde_json::from_value(Value::Array(values)).unwrap()
}

fn request(body: &Value) -> FixedOrderRequest {
    let raw: RawFixedOrderRequest = serde_json::from_value(body.clone()).unwrap();
    FixedOrderRequest::validate(&raw).unwrap_or_else(|e| panic!("{body}: {:?}", e.all()))
}

fn body(from_amount: &str, to_amount: &str, mode: &str) -> Value {
    json!({"fromAmount": from_amount, "fromAddress": BTC_ADDRESS, "toAmount": to_amount,
        "toAddress": ETH_ADDRESS, "pairId": "BTC_ETH", "swapMode": mode})
}

/// Code and status of a plan error, checked to agree with the [`ApiError`]
/// it becomes.
fn code_and_status(error: &PlanError) -> (ErrorCode, u16) {
    let api = ApiError::from(error.clone());
    assert_eq!(api.code(), error.code());
    assert_eq!(api.http_status(), error.http_status());
    (error.code(), error.http_status().as_u16())
}

/// The `details` a plan error is answered with.
trait Details {
    fn details(&self) -> String;
}

impl Details for PlanError {
    fn details(&self) -> String {
        ApiError::from(self.clone()).details().to_owned()
    }
}

// ------------------------------------------------------------- ExactIn

#[test]
fn exact_in_picks_the_best_net_output() {
    let rates = rates(base_rates());
    let policy = ScreeningPolicy::new();
    let context = OrderContext::new(NOW, &policy);
    // fromAmount 0.5:
    //   r-a: 0.5 × 33.14218692377834 = 16.57109346188917; − 0.00019192 = 16.57090154188917
    //   r-b: 0.5 × 33.1 = 16.55;                           − 0.0002     = 16.5498
    //   r-c: 0.5 > max 0.4 → out
    // Best: r-a. The order's amount is fromAmount itself.
    let plan = request(&body("0.5", "16.5", "ExactIn"))
        .plan(&rates, &context)
        .unwrap();
    assert_eq!(plan.rate_id().as_str(), "r-a");
    assert_eq!(plan.route().net_output(), d("16.57090154188917"));
    assert_eq!(plan.amount(), d("0.5"));
    assert_eq!(plan.swap_mode(), SwapMode::ExactIn);
    assert_eq!(plan.slippage().percent(), d("2"));
    assert!(plan.sponsored_by_campaign_id().is_none());
    assert!(plan.warnings().is_empty());
    // A slippage sent in the body is the plan's (0.5%, not the default 2%).
    let mut with_slippage = body("0.5", "16.5", "ExactIn");
    with_slippage["slippage"] = json!("0.5");
    let plan = request(&with_slippage).plan(&rates, &context).unwrap();
    assert_eq!(plan.slippage().percent(), d("0.5"));

    // fromAmount 0.3 (within r-c's limits):
    //   r-a: 0.3 × 33.14218692377834 = 9.942656077133502; − 0.00019192 = 9.942464157133502
    //   r-b: 0.3 × 33.1 = 9.93;                            − 0.0002     = 9.9298
    //   r-c: 0.3 × 33.2 = 9.96;                            − 0.0035     = 9.9565
    // Best: r-c.
    let plan = request(&body("0.3", "9.9", "ExactIn"))
        .plan(&rates, &context)
        .unwrap();
    assert_eq!(plan.rate_id().as_str(), "r-c");
    assert_eq!(plan.route().net_output(), d("9.9565"));
    assert_eq!(plan.amount(), d("0.3"));
}

#[test]
fn exact_in_selects_a_sponsored_variant_within_its_campaign_cap() {
    let mut all = base_rates();
    all.push(sponsored_rate());
    let rates = rates(all);
    let policy = ScreeningPolicy::new();
    let order = request(&body("0.5", "16.5", "ExactIn"));

    // Campaign cap 1 BTC: effective max of r-s = min(2, 1) = 1 ≥ 0.5.
    //   r-s: 0.5 × 33.3 − 0 = 16.65 > r-a's 16.57090154188917 → r-s wins.
    let mut campaigns = CampaignLimits::new();
    campaigns.insert(
        CampaignId::new("spring-2026").unwrap(),
        Amount::parse("1").unwrap(),
    );
    let context = OrderContext::new(NOW, &policy).with_campaigns(&campaigns);
    let plan = order.plan(&rates, &context).unwrap();
    assert_eq!(plan.rate_id().as_str(), "r-s");
    assert_eq!(plan.route().net_output(), d("16.65"));
    assert_eq!(plan.route().effective_max(), d("1"));
    assert_eq!(
        plan.sponsored_by_campaign_id().unwrap().as_str(),
        "spring-2026"
    );

    // Cap 0.25 BTC: effective max min(2, 0.25) = 0.25 < 0.5 → r-s out; r-a wins.
    let mut tight = CampaignLimits::new();
    tight.insert(
        CampaignId::new("spring-2026").unwrap(),
        Amount::parse("0.25").unwrap(),
    );
    let context = OrderContext::new(NOW, &policy).with_campaigns(&tight);
    let plan = order.plan(&rates, &context).unwrap();
    assert_eq!(plan.rate_id().as_str(), "r-a");
    assert!(plan.sponsored_by_campaign_id().is_none());
}

// ------------------------------------------------------------- ExactOut

#[test]
fn exact_out_amount_is_the_routes_required_input_rounded_up() {
    let mut all = base_rates();
    all.push(sponsored_rate());
    let rates = rates(all);
    let policy = ScreeningPolicy::new();
    let mut campaigns = CampaignLimits::new();
    campaigns.insert(
        CampaignId::new("spring-2026").unwrap(),
        Amount::parse("1").unwrap(),
    );
    let context = OrderContext::new(NOW, &policy).with_campaigns(&campaigns);

    // toAmount 10 ETH exact, fromAmount estimate 0.31 BTC.
    //   r-a: no exactOut capability → out
    //   r-s: sponsored variant → never in ExactOut
    //   r-b: net(0.31) = 10.261 − 0.0002 = 10.2608
    //   r-c: net(0.31) = 10.292 − 0.0035 = 10.2885  → ranks first
    // r-c's required input: (10 + 0.0035) / 33.2 = 10.0035 / 33.2
    //   33.2 × 0.3 = 9.96, remainder 0.0435; 0.0435 / 33.2 = 0.00131024096…
    //   = 0.30131024096… → rounded up to 8 dp: 0.30131025
    let plan = request(&body("0.31", "10", "ExactOut"))
        .plan(&rates, &context)
        .unwrap();
    assert_eq!(plan.rate_id().as_str(), "r-c");
    assert_eq!(plan.amount(), d("0.30131025"));
    assert_eq!(plan.amount().to_string(), "0.30131025");
    assert_eq!(plan.amount().scale(), 8);
    assert_eq!(
        plan.route().required_input().unwrap().get(),
        d("0.30131025")
    );
    assert_eq!(plan.swap_mode(), SwapMode::ExactOut);
    assert!(plan.sponsored_by_campaign_id().is_none());

    // Estimate 0.5 BTC: r-c's max 0.4 < 0.5 → out (limits against fromAmount).
    //   r-b: required (10 + 0.0002) / 33.1 = 10.0002 / 33.1
    //   33.1 × 0.3 = 9.93, remainder 0.0702; 0.0702 / 33.1 = 0.00212084592…
    //   = 0.30212084592… → 0.30212085
    let plan = request(&body("0.5", "10", "ExactOut"))
        .plan(&rates, &context)
        .unwrap();
    assert_eq!(plan.rate_id().as_str(), "r-b");
    assert_eq!(plan.amount().to_string(), "0.30212085");
    assert!(plan.sponsored_by_campaign_id().is_none());
}

#[test]
fn exact_out_never_reports_a_campaign_even_when_only_a_sponsored_variant_exists() {
    // Only the sponsored variant: ExactOut excludes it → UNSUPPORTED_SWAP_MODE.
    let rates = rates(vec![sponsored_rate()]);
    let policy = ScreeningPolicy::new();
    let context = OrderContext::new(NOW, &policy);
    let err = request(&body("0.5", "16", "ExactOut"))
        .plan(&rates, &context)
        .unwrap_err();
    assert_eq!(code_and_status(&err), (ErrorCode::UnsupportedSwapMode, 400));
    // The same body in ExactIn takes it, with its campaign.
    let plan = request(&body("0.5", "16", "ExactIn"))
        .plan(&rates, &context)
        .unwrap();
    assert_eq!(
        plan.sponsored_by_campaign_id().unwrap().as_str(),
        "spring-2026"
    );
}

// ------------------------------------------------------------- limits

#[test]
fn limits_are_checked_against_from_amount_never_to_amount() {
    let rates = rates(base_rates());
    let policy = ScreeningPolicy::new();
    let context = OrderContext::new(NOW, &policy);

    // toAmount 16.5 is above every max (8.33028657) numerically; irrelevant.
    assert!(request(&body("0.5", "16.5", "ExactIn"))
        .plan(&rates, &context)
        .is_ok());

    // fromAmount 9 is above every max although toAmount 0.1 is "within" them.
    // Largest max: max(8.33028657, 8, 0.4) = 8.33028657.
    let err = request(&body("9", "0.1", "ExactIn"))
        .plan(&rates, &context)
        .unwrap_err();
    assert_eq!(code_and_status(&err), (ErrorCode::AmountAboveLimit, 400));
    assert!(err.details().contains("8.33028657"), "{}", err.details());
    // The limit itself, for the error body's `max`.
    assert_eq!(err.max(), Some(d("8.33028657")));
    assert_eq!(err.min(), None);
    assert_eq!(err.to_api_error().max(), Some(d("8.33028657")));

    // ExactOut: the estimate 0.0005 is below every capable rate's min
    // (r-b 0.001, r-c 0.01), although the true required input for 16.5 ETH,
    // (16.5 + 0.0002) / 33.1 ≈ 0.4985, would be within r-b's limits.
    // Smallest min among them: 0.001.
    let err = request(&body("0.0005", "16.5", "ExactOut"))
        .plan(&rates, &context)
        .unwrap_err();
    assert_eq!(code_and_status(&err), (ErrorCode::AmountBelowLimit, 400));
    assert!(err.details().contains("0.001"), "{}", err.details());
}

#[test]
fn no_route_errors_have_their_codes_and_statuses() {
    let policy = ScreeningPolicy::new();
    let context = OrderContext::new(NOW, &policy);
    let exact_in = |from: &str| request(&body(from, "1", "ExactIn"));

    // No rates at all → INSUFFICIENT_LIQUIDITY (503).
    let err = exact_in("0.5").plan(&rates(vec![]), &context).unwrap_err();
    assert_eq!(
        code_and_status(&err),
        (ErrorCode::InsufficientLiquidity, 503)
    );

    // Below every min: smallest min is r-a's 0.00079787.
    let err = exact_in("0.0005")
        .plan(&rates(base_rates()), &context)
        .unwrap_err();
    assert_eq!(code_and_status(&err), (ErrorCode::AmountBelowLimit, 400));
    assert!(err.details().contains("0.00079787"), "{}", err.details());
    // The plan error keeps the NoRoute, and its min reaches the error body.
    assert!(
        matches!(&err, PlanError::NoRoute(NoRoute::BelowMin { min, .. }) if *min == d("0.00079787")),
        "{err:?}"
    );
    let wire = serde_json::to_value(ApiError::from(err).to_body()).unwrap();
    assert_eq!(
        wire,
        json!({"status": 400, "code": "AMOUNT_BELOW_LIMIT", "min": "0.00079787",
            "details": "fromAmount 0.0005 BTC is below the minimum of every route; the smallest minimum is 0.00079787 BTC"})
    );

    // Every rate expired: judged at the rates' expiry (expiry <= now).
    let late = OrderContext::new(EpochMillis::new(RATE_EXPIRY), &policy);
    let err = exact_in("0.5")
        .plan(&rates(base_rates()), &late)
        .unwrap_err();
    assert_eq!(code_and_status(&err), (ErrorCode::RateExpired, 410));

    // ExactOut over rates of which none supports it.
    let only_a = rates(vec![base_rates().remove(0)]);
    let err = request(&body("0.5", "16", "ExactOut"))
        .plan(&only_a, &context)
        .unwrap_err();
    assert_eq!(code_and_status(&err), (ErrorCode::UnsupportedSwapMode, 400));

    // A gap between ranges [0.001, 0.1] and [1, 8]:
    //   amount 0.5: 0.4 above the max below, 0.5 under the min above → nearer the
    //   max → AMOUNT_ABOVE_LIMIT; amount 0.7: 0.6 vs 0.3 → AMOUNT_BELOW_LIMIT.
    //   Both name 0.1 and 1.
    let gap = rates(vec![
        json!({"amount":{"assetId":"ETH","value":33.1},"expiry":RATE_EXPIRY,"id":"low",
            "max":{"assetId":"BTC","value":0.1},"min":{"assetId":"BTC","value":0.001},
            "minerFee":{"assetId":"ETH","value":0.0002},"pairId":"BTC_ETH"}),
        json!({"amount":{"assetId":"ETH","value":33.1},"expiry":RATE_EXPIRY,"id":"high",
            "max":{"assetId":"BTC","value":8},"min":{"assetId":"BTC","value":1},
            "minerFee":{"assetId":"ETH","value":0.0002},"pairId":"BTC_ETH"}),
    ]);
    let err = exact_in("0.5").plan(&gap, &context).unwrap_err();
    assert_eq!(code_and_status(&err), (ErrorCode::AmountAboveLimit, 400));
    assert!(err.details().contains("0.1") && err.details().contains(" 1"));
    let err = exact_in("0.7").plan(&gap, &context).unwrap_err();
    assert_eq!(code_and_status(&err), (ErrorCode::AmountBelowLimit, 400));
}

// ------------------------------------------------------------- screening first

/// A request that would find no route at all (empty rates).
fn no_rates() -> RatesResponse {
    rates(vec![])
}

#[test]
fn zero_address_is_restricted_before_routing() {
    let policy = ScreeningPolicy::new();
    let context = OrderContext::new(NOW, &policy);
    // Control: the same shape with a clean address reaches routing and fails there.
    let clean = request(&body("0.5", "16.5", "ExactIn"));
    assert_eq!(
        clean.plan(&no_rates(), &context).unwrap_err().code(),
        ErrorCode::InsufficientLiquidity
    );

    for (field, zero) in [
        ("toAddress", ZERO_ADDRESS.to_owned()),
        ("toAddress", format!("0X{}", "0".repeat(40))),
        ("fromAddress", ZERO_ADDRESS.to_owned()),
    ] {
        let mut b = body("0.5", "16.5", "ExactIn");
        b[field] = json!(zero);
        let order = request(&b);
        let err = order.plan(&no_rates(), &context).unwrap_err();
        assert_eq!(
            code_and_status(&err),
            (ErrorCode::RestrictedAddress, 403),
            "{field}={zero}"
        );
        assert!(err.details().starts_with(field), "{}", err.details());
        // Also before a limit failure: fromAmount 9 would be AMOUNT_ABOVE_LIMIT.
        let mut b = body("9", "1", "ExactIn");
        b[field] = json!(zero);
        let err = request(&b)
            .plan(&rates(base_rates()), &context)
            .unwrap_err();
        assert_eq!(err.code(), ErrorCode::RestrictedAddress);
    }
}

#[test]
fn denylisted_addresses_are_restricted_in_any_case_before_routing() {
    let policy = ScreeningPolicy::new().deny_address(&Address::new(DENIED).unwrap());
    for network in [NetworkKind::Other, NetworkKind::Evm] {
        let context = OrderContext::new(NOW, &policy).with_networks(NetworkKind::Other, network);
        for spelling in [
            DENIED.to_owned(),
            DENIED.to_ascii_lowercase(),
            format!("0x{}", DENIED[2..].to_ascii_uppercase()),
            // A broken checksum of a denylisted address is still restricted
            // (restriction is checked before syntax).
            "0xFB6916095ca1df60bB79Ce92cE3Ea74c37c5d359".to_owned(),
        ] {
            let mut b = body("0.5", "16.5", "ExactIn");
            b["toAddress"] = json!(spelling);
            let err = request(&b).plan(&no_rates(), &context).unwrap_err();
            assert_eq!(
                code_and_status(&err),
                (ErrorCode::RestrictedAddress, 403),
                "{spelling} on {network:?}"
            );
        }
    }
}

#[test]
fn restricted_region_is_refused_before_routing_and_before_addresses() {
    let policy = ScreeningPolicy::new().restrict_region(RegionCode::new("US").unwrap());
    let new_york = RegionCode::new("us-ny").unwrap();
    let france = RegionCode::new("FR").unwrap();
    let order = request(&body("0.5", "16.5", "ExactIn"));

    let context = OrderContext::new(NOW, &policy).with_region(&new_york);
    let err = order.plan(&no_rates(), &context).unwrap_err();
    assert_eq!(code_and_status(&err), (ErrorCode::RestrictedRegion, 403));

    // Region is checked before the address.
    let mut b = body("0.5", "16.5", "ExactIn");
    b["toAddress"] = json!(ZERO_ADDRESS);
    let err = request(&b).plan(&no_rates(), &context).unwrap_err();
    assert_eq!(err.code(), ErrorCode::RestrictedRegion);

    // An unrestricted region reaches routing.
    let context = OrderContext::new(NOW, &policy).with_region(&france);
    assert_eq!(
        order.plan(&no_rates(), &context).unwrap_err().code(),
        ErrorCode::InsufficientLiquidity
    );
    assert!(order.plan(&rates(base_rates()), &context).is_ok());
}

#[test]
fn paused_asset_and_closed_market_are_refused_before_routing() {
    let policy = ScreeningPolicy::new()
        .pause_asset(AssetId::new("ETH").unwrap())
        .set_market_state(AssetId::new("TSLAx").unwrap(), MarketState::Closed);
    let context = OrderContext::new(NOW, &policy);

    let err = request(&body("0.5", "16.5", "ExactIn"))
        .plan(&rates(base_rates()), &context)
        .unwrap_err();
    assert_eq!(code_and_status(&err), (ErrorCode::AssetPaused, 409));

    let stock = request(
        &json!({"fromAmount": "250", "fromAddress": null, "toAmount": "1",
        "toAddress": ETH_ADDRESS, "pairId": "USDT_TSLAx"}),
    );
    let err = stock.plan(&no_rates(), &context).unwrap_err();
    assert_eq!(code_and_status(&err), (ErrorCode::MarketClosed, 409));
}

#[test]
fn evm_checksum_is_checked_when_the_network_is_evm() {
    let policy = ScreeningPolicy::new();
    let evm_out =
        OrderContext::new(NOW, &policy).with_networks(NetworkKind::Other, NetworkKind::Evm);
    let rates = rates(base_rates());
    let with_to = |to: &str| {
        let mut b = body("0.5", "16.5", "ExactIn");
        b["toAddress"] = json!(to);
        request(&b)
    };

    // One flipped letter breaks EIP-55 → INVALID_ADDRESS, before routing.
    let err = with_to(ETH_BAD_CHECKSUM)
        .plan(&no_rates(), &evm_out)
        .unwrap_err();
    assert_eq!(code_and_status(&err), (ErrorCode::InvalidAddress, 400));
    assert!(err.details().starts_with("toAddress"), "{}", err.details());
    // Not EVM syntax at all on an EVM network.
    let err = with_to(BTC_ADDRESS).plan(&rates, &evm_out).unwrap_err();
    assert_eq!(err.code(), ErrorCode::InvalidAddress);
    let err = with_to("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAe")
        .plan(&rates, &evm_out)
        .unwrap_err();
    assert_eq!(err.code(), ErrorCode::InvalidAddress, "39 hex digits");

    // Valid checksum, all lower case, all upper case: no checksum to fail.
    for good in [
        ETH_ADDRESS.to_owned(),
        ETH_ADDRESS.to_ascii_lowercase(),
        format!("0x{}", ETH_ADDRESS[2..].to_ascii_uppercase()),
    ] {
        assert!(with_to(&good).plan(&rates, &evm_out).is_ok(), "{good}");
    }
    // The same bad checksum on a network of no particular kind is not checked.
    let other = OrderContext::new(NOW, &policy);
    assert!(with_to(ETH_BAD_CHECKSUM).plan(&rates, &other).is_ok());
}

#[test]
fn missing_tags_for_tag_assets_are_warnings_not_errors() {
    let policy = ScreeningPolicy::new();
    let context = OrderContext::new(NOW, &policy);
    let btc_xrp = rates(vec![json!({"amount":{"assetId":"XRP","value":41_250.5},
        "expiry":RATE_EXPIRY,"id":"x-1","max":{"assetId":"BTC","value":2},
        "min":{"assetId":"BTC","value":0.0005},"minerFee":{"assetId":"XRP","value":0.25},
        "pairId":"BTC_XRP"})]);
    let atom_btc = rates(vec![json!({"amount":{"assetId":"BTC","value":0.000_061},
        "expiry":RATE_EXPIRY,"id":"a-1","max":{"assetId":"ATOM","value":50_000},
        "min":{"assetId":"ATOM","value":5},"minerFee":{"assetId":"BTC","value":0.000_01},
        "pairId":"ATOM_BTC"})]);
    let xrp_address = "rEb8TK3gBgk5auZkwc6sHnwrGVJH8DuaLh";
    let atom_address = "cosmos1depk54cuajgkzea6zpgkq36tnjwdzv4ak663u6";

    // BTC → XRP without a destination tag: one warning on toAddressTag.
    for tag in [None, Some(json!(null)), Some(json!(""))] {
        let mut b = json!({"fromAmount": "0.01", "fromAddress": BTC_ADDRESS,
            "toAmount": "412", "toAddress": xrp_address, "pairId": "BTC_XRP"});
        if let Some(tag) = tag {
            b["toAddressTag"] = tag;
        }
        let plan = request(&b).plan(&btc_xrp, &context).unwrap();
        assert_eq!(
            plan.warnings(),
            &[TagWarning {
                field: TagField::ToAddressTag,
                asset: AssetId::new("XRP").unwrap()
            }]
        );
    }
    // With the tag: no warning.
    let plan = request(&json!({"fromAmount": "0.01", "fromAddress": BTC_ADDRESS,
        "toAmount": "412", "toAddress": xrp_address, "toAddressTag": "3302145",
        "pairId": "BTC_XRP"}))
    .plan(&btc_xrp, &context)
    .unwrap();
    assert!(plan.warnings().is_empty());

    // ATOM → BTC with a fromAddress but no fromAddressTag: a warning on it.
    let plan = request(&json!({"fromAmount": "100", "fromAddress": atom_address,
        "toAmount": "0.0061", "toAddress": BTC_ADDRESS, "pairId": "ATOM_BTC"}))
    .plan(&atom_btc, &context)
    .unwrap();
    assert_eq!(
        plan.warnings(),
        &[TagWarning {
            field: TagField::FromAddressTag,
            asset: AssetId::new("ATOM").unwrap()
        }]
    );
    // fromAddress null (collected later): no sender tag to ask for yet.
    let plan = request(&json!({"fromAmount": "100", "fromAddress": null,
        "toAmount": "0.0061", "toAddress": BTC_ADDRESS, "pairId": "ATOM_BTC"}))
    .plan(&atom_btc, &context)
    .unwrap();
    assert!(plan.warnings().is_empty());
}

// ------------------------------------------------------------- floating

const QUOTE_EXPIRY: u64 = 1_785_000_030_000;

fn quote() -> Quote {
    serde_json::from_value(json!({
        "id": "b7e5c1d2-8f4a-4c3e-9a1b-2d6f0e7c9a11",
        "pairId": "BTC_ETH",
        "fromAmount": {"assetId": "BTC", "value": "0.5"},
        "toAmount": {"assetId": "ETH", "value": "16.43217"},
        "expiry": QUOTE_EXPIRY,
        "partnerRevenueShareAmount": {"assetId": "BTC", "value": "0.0005"},
        "sponsoredByCampaignId": "spring-2026"
    }))
    .unwrap()
}

/// A floating body for `quote()`'s pair and amount, naming `quote_id`.
fn float_request(quote_id: &str, to_address: &str) -> FloatOrderRequest {
    float_body(
        json!({"pairId": "BTC_ETH", "fromAmount": "0.5", "fromAddress": null,
        "toAmount": "16.4", "toAddress": to_address, "quoteId": quote_id}),
    )
}

fn float_body(body: Value) -> FloatOrderRequest {
    serde_json::from_value(body).unwrap()
}

/// `quote()` with `pointer`'s value replaced.
fn quote_with(pointer: &str, value: Value) -> Quote {
    let mut json = serde_json::to_value(quote()).unwrap();
    *json.pointer_mut(pointer).unwrap() = value;
    serde_json::from_value(json).unwrap()
}

#[test]
fn floating_plan_comes_from_the_quote() {
    let quote = quote();
    let policy = ScreeningPolicy::new();
    let context = OrderContext::new(NOW, &policy);
    let plan = float_request(quote.id.as_str(), ETH_ADDRESS)
        .plan(&quote, &context)
        .unwrap();
    assert_eq!(plan.amount(), d("0.5"));
    assert_eq!(plan.to_amount(), d("16.43217"));
    assert_eq!(plan.swap_mode(), SwapMode::ExactIn);
    assert_eq!(
        plan.sponsored_by_campaign_id().unwrap().as_str(),
        "spring-2026"
    );
    assert_eq!(plan.quote(), &quote);
    assert!(plan.warnings().is_empty());
}

#[test]
fn floating_plan_warns_of_a_missing_destination_tag() {
    // BTC → XRP without toAddressTag: the same warning as a fixed order's.
    let quote: Quote = serde_json::from_value(json!({
        "id": "0c1f9b52-6a7e-4d0b-9c3a-5e8f2b1d4a77",
        "pairId": "BTC_XRP",
        "fromAmount": {"assetId": "BTC", "value": "0.01"},
        "toAmount": {"assetId": "XRP", "value": "412.5"},
        "expiry": QUOTE_EXPIRY
    }))
    .unwrap();
    let policy = ScreeningPolicy::new();
    let context = OrderContext::new(NOW, &policy);
    let plan = float_body(json!({"pairId": "BTC_XRP", "fromAmount": "0.01",
        "fromAddress": null, "toAmount": "412", "toAddress": "rEb8TK3gBgk5auZkwc6sHnwrGVJH8DuaLh",
        "quoteId": quote.id.as_str()}))
    .plan(&quote, &context)
    .unwrap();
    assert_eq!(
        plan.warnings(),
        &[TagWarning {
            field: TagField::ToAddressTag,
            asset: AssetId::new("XRP").unwrap()
        }]
    );
}

#[test]
fn floating_plan_refuses_an_expired_quote() {
    let quote = quote();
    let policy = ScreeningPolicy::new();
    let order = float_request(quote.id.as_str(), ETH_ADDRESS);
    let at = |now: u64, skew: u64| {
        order.plan(
            &quote,
            &OrderContext::new(EpochMillis::new(now), &policy).with_quote_skew_millis(skew),
        )
    };
    // Valid until expiry: expired at now == expiry (expiry <= now).
    assert!(at(QUOTE_EXPIRY - 1, 0).is_ok());
    let err = at(QUOTE_EXPIRY, 0).unwrap_err();
    assert_eq!(code_and_status(&err), (ErrorCode::QuoteExpired, 410));
    assert_eq!(
        at(QUOTE_EXPIRY + 60_000, 0).unwrap_err().code(),
        ErrorCode::QuoteExpired
    );

    // Skew 2 s: the quote must outlive now + 2000.
    //   now = expiry − 2000: expiry <= now + 2000 → expired
    //   now = expiry − 2001: expiry >  now + 2000 → accepted
    assert_eq!(
        at(QUOTE_EXPIRY - 2_000, 2_000).unwrap_err().code(),
        ErrorCode::QuoteExpired
    );
    assert!(at(QUOTE_EXPIRY - 2_001, 2_000).is_ok());
    // A huge skew saturates instead of overflowing: everything is expired.
    assert_eq!(
        at(QUOTE_EXPIRY - 1, u64::MAX).unwrap_err().code(),
        ErrorCode::QuoteExpired
    );
}

/// Ruling 19: real clients send no quote id; the quote must be for the body's
/// pair and `fromAmount`.
#[test]
fn floating_plan_needs_no_quote_id_and_matches_pair_and_amount() {
    let quote = quote();
    let policy = ScreeningPolicy::new();
    let context = OrderContext::new(NOW, &policy);
    let body = json!({"pairId": "BTC_ETH", "fromAmount": 0.5, "fromAddress": BTC_ADDRESS,
        "toAmount": 16.4, "toAddress": ETH_ADDRESS});
    let plan = float_body(body.clone()).plan(&quote, &context).unwrap();
    assert_eq!(plan.amount(), d("0.5"));

    // Equal by value: "0.50" is the quote's 0.5.
    let mut same_value = body.clone();
    same_value["fromAmount"] = json!("0.50");
    assert!(float_body(same_value).plan(&quote, &context).is_ok());

    let mut other_amount = body.clone();
    other_amount["fromAmount"] = json!("0.6");
    let err = float_body(other_amount).plan(&quote, &context).unwrap_err();
    assert_eq!(code_and_status(&err), (ErrorCode::InvalidRequest, 400));
    assert!(
        err.details().starts_with("fromAmount:"),
        "{}",
        err.details()
    );

    let mut other_pair = body;
    other_pair["pairId"] = json!("BTC_USDT");
    let err = float_body(other_pair).plan(&quote, &context).unwrap_err();
    assert_eq!(code_and_status(&err), (ErrorCode::InvalidRequest, 400));
    assert!(err.details().starts_with("pairId:"), "{}", err.details());
    match &err {
        PlanError::QuoteMismatch(mismatch) => {
            assert_eq!(mismatch.field(), RequestField::PairId);
            assert!(
                matches!(**mismatch, QuoteMismatch::PairId { ref order, .. } if order.as_str() == "BTC_USDT")
            );
        }
        other => panic!("expected a quote mismatch, got {other:?}"),
    }
}

/// Ruling 32 (issue 14 item 13): an absurd quote is refused before any plan
/// uses it, naming the field and, for a wrong asset, both assets.
#[test]
fn floating_plan_refuses_an_absurd_quote() {
    use swaproute::quote::{QuoteDefect, QuoteField};
    let policy = ScreeningPolicy::new();
    let context = OrderContext::new(NOW, &policy);
    let order = float_request("b7e5c1d2-8f4a-4c3e-9a1b-2d6f0e7c9a11", ETH_ADDRESS);

    let not_positive = [
        // A string "-0.5" is refused when decoding (strict grammar); a JSON
        // number can carry a sign.
        ("/fromAmount/value", json!("0"), QuoteField::FromAmount, "0"),
        (
            "/fromAmount/value",
            json!(-0.5),
            QuoteField::FromAmount,
            "-0.5",
        ),
        (
            "/toAmount/value",
            json!(-16.4),
            QuoteField::ToAmount,
            "-16.4",
        ),
        ("/toAmount/value", json!("0"), QuoteField::ToAmount, "0"),
        (
            "/partnerRevenueShareAmount/value",
            json!(-0.0005),
            QuoteField::PartnerRevenueShareAmount,
            "-0.0005",
        ),
    ];
    for (pointer, value, field, shown) in not_positive {
        let quote = quote_with(pointer, value.clone());
        let defect = quote.defect().unwrap();
        assert_eq!(
            defect,
            QuoteDefect::NotPositive {
                field,
                value: d(shown)
            },
            "{pointer} = {value}"
        );
        let err = order.plan(&quote, &context).unwrap_err();
        assert_eq!(code_and_status(&err), (ErrorCode::ProviderError, 502));
        assert_eq!(
            err.details(),
            format!("quote {} {shown} is not positive", field.as_str())
        );
    }

    let wrong_asset = [
        ("/fromAmount/assetId", "ETH", QuoteField::FromAmount, "BTC"),
        ("/toAmount/assetId", "BTC", QuoteField::ToAmount, "ETH"),
        ("/toAmount/assetId", "USDT", QuoteField::ToAmount, "ETH"),
        (
            "/partnerRevenueShareAmount/assetId",
            "ETH",
            QuoteField::PartnerRevenueShareAmount,
            "BTC",
        ),
    ];
    for (pointer, named, field, required) in wrong_asset {
        let quote = quote_with(pointer, json!(named));
        let Some(QuoteDefect::WrongAsset {
            field: got,
            found,
            required: want,
        }) = quote.defect()
        else {
            panic!("{pointer}: {:?}", quote.defect());
        };
        assert_eq!(
            (got, found.as_str(), want.as_str()),
            (field, named, required)
        );
        let err = order.plan(&quote, &context).unwrap_err();
        assert_eq!(err.code(), ErrorCode::ProviderError);
        assert_eq!(
            err.details(),
            format!(
                "quote {} is in {named}, but its pair requires {required}",
                field.as_str()
            )
        );
    }

    // A zero revenue share is not absurd; the sound quote has no defect.
    assert_eq!(
        quote_with("/partnerRevenueShareAmount/value", json!("0")).defect(),
        None
    );
    assert_eq!(quote().defect(), None);
    assert!(quote().validate().is_ok());
}

#[test]
fn floating_plan_refuses_a_different_quote() {
    let quote = quote();
    let policy = ScreeningPolicy::new();
    let context = OrderContext::new(NOW, &policy);
    let err = float_request("another-quote", ETH_ADDRESS)
        .plan(&quote, &context)
        .unwrap_err();
    assert_eq!(code_and_status(&err), (ErrorCode::InvalidRequest, 400));
    assert!(err.details().starts_with("quoteId"), "{}", err.details());
}

#[test]
fn floating_plan_screens_first() {
    let quote = quote();
    let policy = ScreeningPolicy::new();
    // An expired quote and a zero address: the restriction is reported.
    let late = OrderContext::new(EpochMillis::new(QUOTE_EXPIRY + 1), &policy);
    let err = float_request(quote.id.as_str(), ZERO_ADDRESS)
        .plan(&quote, &late)
        .unwrap_err();
    assert_eq!(code_and_status(&err), (ErrorCode::RestrictedAddress, 403));

    // The body's pair (the quote's, once matched) decides the asset checks:
    // ETH paused → ASSET_PAUSED.
    let paused = ScreeningPolicy::new().pause_asset(AssetId::new("ETH").unwrap());
    let err = float_request(quote.id.as_str(), ETH_ADDRESS)
        .plan(&quote, &OrderContext::new(NOW, &paused))
        .unwrap_err();
    assert_eq!(err.code(), ErrorCode::AssetPaused);

    // A bad EIP-55 checksum on an EVM destination.
    let context =
        OrderContext::new(NOW, &policy).with_networks(NetworkKind::Other, NetworkKind::Evm);
    let err = float_request(quote.id.as_str(), ETH_BAD_CHECKSUM)
        .plan(&quote, &context)
        .unwrap_err();
    assert_eq!(err.code(), ErrorCode::InvalidAddress);
}

#[test]
fn quote_lifecycle_helpers() {
    let quote = quote();
    let e = QUOTE_EXPIRY;
    let at = EpochMillis::new;

    // 30 s before expiry.
    assert!(!quote.is_expired_at(at(e - 30_000)));
    assert_eq!(quote.millis_until_expiry(at(e - 30_000)), Some(30_000));
    // Refresh when it expires within the lead time (inclusive: e <= now + lead).
    assert!(quote.should_refresh(at(e - 30_000), 60_000));
    assert!(quote.should_refresh(at(e - 30_000), 30_000));
    assert!(!quote.should_refresh(at(e - 30_000), 29_999));
    assert!(!quote.should_refresh(at(e - 30_000), 0));

    // 1 ms before expiry.
    assert!(!quote.is_expired_at(at(e - 1)));
    assert_eq!(quote.millis_until_expiry(at(e - 1)), Some(1));

    // At and after expiry.
    assert!(quote.is_expired_at(at(e)));
    assert_eq!(quote.millis_until_expiry(at(e)), None);
    assert!(quote.should_refresh(at(e), 0));
    assert!(quote.is_expired_at(at(e + 5)));
    assert_eq!(quote.millis_until_expiry(at(e + 5)), None);

    // With skew: expired once e <= now + skew.
    assert!(quote.is_expired_with_skew(at(e - 500), 500));
    assert!(!quote.is_expired_with_skew(at(e - 501), 500));
    assert!(quote.is_expired_with_skew(at(u64::MAX - 1), u64::MAX));

    // The quote's own fields, as sent.
    assert_eq!(
        quote
            .partner_revenue_share_amount
            .value()
            .and_then(swaproute::wire::RevenueShare::amount)
            .unwrap()
            .value
            .get(),
        d("0.0005")
    );
    assert_eq!(
        quote.summary(),
        "b7e5c1d2-8f4a-4c3e-9a1b-2d6f0e7c9a11: 0.5 BTC → 16.43217 ETH"
    );
}
