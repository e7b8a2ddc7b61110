//! Ruling 40 on arbitrary order bodies and rates.
//!
//! - verifying any order JSON the crate decodes never panics, and a refusal
//!   lists at least one mismatch, each field once, in `OrderField` order;
//! - the order written back and read again gets the same verdict;
//! - the plan's own 201 body always verifies;
//! - the price guard over arbitrary multipliers: a `PRICE_OUTLIER`'s
//!   deviation, when it has one, is above the bound, and the median lies
//!   between the smallest and largest valid multiplier.
#![no_main]

use libfuzzer_sys::fuzz_target;
use swaproute::order::{FixedOrderRequest, NewOrder, Order, OrderContext, OrderRead};
use swaproute::route::{PriceGuard, PriceReference, RejectReason, RouteRequest};
use swaproute::screening::{Address, ScreeningPolicy};
use swaproute::{
    Amount, Decimal, EpochMillis, OrderId, PairId, ProviderOrderId, Rate, RateId, RateTerms,
};

const NOW: u64 = 1_785_000_000_000;

fuzz_target!(|data: &[u8]| {
    let (head, tail) = data.split_at(data.len().min(64));
    guard(head);
    let rates: swaproute::RatesResponse = match serde_json::from_str(
        r#"[{"amount":{"assetId":"ETH","value":33.1},"expiry":4102444800000,"id":"r-1",
        "max":{"assetId":"BTC","value":8},"min":{"assetId":"BTC","value":0.001},
        "minerFee":{"assetId":"ETH","value":0.0002},"pairId":"BTC_ETH"}]"#,
    ) {
        Ok(rates) => rates,
        Err(_) => return,
    };
    let Ok(request) = serde_json::from_str::<FixedOrderRequest>(
        r#"{"pairId":"BTC_ETH","fromAmount":"0.5","fromAddress":"bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
        "toAmount":"16.5","toAddress":"0x52908400098527886E0F7030069857D2E4169EE7","toAddressTag":"7"}"#,
    ) else {
        return;
    };
    let policy = ScreeningPolicy::new();
    let now = EpochMillis::new(NOW);
    let Ok(plan) = request.plan(&rates, &OrderContext::new(now, &policy)) else {
        return;
    };
    if let (Ok(id), Ok(provider), Ok(pay_in)) = (
        OrderId::new("o-1"),
        ProviderOrderId::new("p-1"),
        Address::new("bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh"),
    ) {
        if let Ok(own) = plan.to_order(&request, &NewOrder::new(id, provider, pay_in, now)) {
            assert!(plan.verify(&request, &own, OrderRead::Created).is_ok());
        }
    }
    let Ok(order) = serde_json::from_slice::<Order>(tail) else {
        return;
    };
    for read in [OrderRead::Created, OrderRead::Fetched] {
        let verdict = plan.verify(&request, &order, read);
        if let Err(mismatches) = &verdict {
            let fields: Vec<_> = mismatches.fields().collect();
            assert!(!fields.is_empty());
            assert!(fields.windows(2).all(|w| w[0] < w[1]), "{fields:?}");
        }
        if let Ok(again) = serde_json::to_string(&order).map(|t| serde_json::from_str::<Order>(&t))
        {
            let again = again.expect("an order written back reads again");
            assert_eq!(plan.verify(&request, &again, read), verdict);
        }
    }
});

/// Up to 8 multipliers from the bytes, and a bound: the guard's invariants.
fn guard(bytes: &[u8]) {
    let Some((&bps_byte, rest)) = bytes.split_first() else {
        return;
    };
    let bps = u32::from(bps_byte) * 97;
    let multipliers: Vec<Decimal> = rest
        .chunks(7)
        .take(8)
        .map(|c| {
            let mut m: i64 = 0;
            for &b in c.iter().take(6) {
                m = m * 256 + i64::from(b);
            }
            let scale = u32::from(*c.last().unwrap_or(&0) % 29);
            Decimal::new(m.max(1), scale)
        })
        .collect();
    let (Ok(pair), Ok(x)) = (PairId::new("BTC_ETH"), "1".parse::<Amount>()) else {
        return;
    };
    let rates: Vec<Rate> = multipliers
        .iter()
        .enumerate()
        .filter_map(|(i, &m)| {
            Some(Rate::new(
                RateId::new(&format!("r{i}")).ok()?,
                pair.clone(),
                RateTerms {
                    multiplier: m,
                    miner_fee: Decimal::ZERO,
                    min: Decimal::ZERO,
                    max: Decimal::TEN,
                },
                EpochMillis::new(NOW + 1),
            ))
        })
        .collect();
    let now = EpochMillis::new(NOW);
    if let Some(median) = PriceReference::median_of(&rates, now) {
        let (lower, upper) = median.middle();
        let (min, max) = (multipliers.iter().min(), multipliers.iter().max());
        assert!(Some(&lower) >= min && Some(&upper) <= max && lower <= upper);
    }
    let guard = PriceGuard::median(bps);
    let selection = RouteRequest::exact_in(x, now)
        .with_price_guard(&guard)
        .select(&rates);
    for rejection in selection.rejected() {
        if let RejectReason::PriceOutlier {
            deviation_bps: Some(d),
            max_bps,
            ..
        } = rejection.reason()
        {
            assert!(*d > Decimal::from(*max_bps), "{d} ≤ {max_bps}");
        }
    }
}
