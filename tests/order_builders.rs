//! Client side: building order bodies from typed values. The expected JSON is
//! written by hand from the specification's field table and the real client
//! bodies of tests/payloads/; a built request also equals the request the
//! server decodes from that JSON.

use crate::common::amount;
use serde_json::{json, Value};
use swaproute::order::{FixedOrderRequest, FloatOrderRequest};
use swaproute::screening::{Address, AddressTag};
use swaproute::wire::RequestField;
use swaproute::{Amount, Decimal, ErrorCode, Fixed8, PairId, QuoteId, Slippage, SwapMode};

const ETH_ADDRESS: &str = "0x8Df95247F2866028DE71159b42B4ea410FB9102f";
const LTC_ADDRESS: &str = "ltc1quauvt7txunf9zeu2qyrzv0pa5uvwjlq9a369s5";

fn address(text: &str) -> Address {
    Address::new(text).unwrap()
}

fn pair(text: &str) -> PairId {
    PairId::new(text).unwrap()
}

/// The real client's body (order-create-request.json): required fields
/// only, amounts as strings.
#[test]
fn fixed_builder_writes_the_real_clients_body() {
    let built = FixedOrderRequest::builder(
        pair("LTC_USDT"),
        amount("1.25"),
        amount("98"),
        address(ETH_ADDRESS),
    )
    .from_address(address(LTC_ADDRESS))
    .build()
    .unwrap();
    let payload: Value =
        serde_json::from_str(include_str!("payloads/order-create-request.json")).unwrap();
    assert_eq!(serde_json::to_value(&built).unwrap(), payload);
    let decoded: FixedOrderRequest = serde_json::from_value(payload).unwrap();
    assert_eq!(decoded, built);
}

#[test]
fn fixed_builder_writes_every_key_that_was_set() {
    let built = FixedOrderRequest::builder(
        pair("XRP_ETH"),
        amount("120"),
        amount("0.05"),
        address(ETH_ADDRESS),
    )
    .from_address(address("rEb8TK3gBgk5auZkwc6sHnwrGVJH8DuaLh"))
    .from_address_tag(AddressTag::new("3302145").unwrap())
    .to_address_tag(AddressTag::new("memo-1").unwrap())
    .slippage(Slippage::new(Decimal::new(5, 1)).unwrap())
    .swap_mode(SwapMode::ExactOut)
    .build()
    .unwrap();
    // Ruling 52: an ExactOut fromAmount the crate writes has 8 places.
    let expected = json!({
        "pairId": "XRP_ETH", "fromAmount": "120.00000000", "toAmount": "0.05",
        "fromAddress": "rEb8TK3gBgk5auZkwc6sHnwrGVJH8DuaLh", "fromAddressTag": "3302145",
        "toAddress": ETH_ADDRESS, "toAddressTag": "memo-1",
        "slippage": 0.5, "swapMode": "ExactOut"
    });
    assert_eq!(serde_json::to_value(&built).unwrap(), expected);
    assert_eq!(built.swap_mode(), SwapMode::ExactOut);
    assert_eq!(built.slippage().percent(), Decimal::new(5, 1));
    let decoded: FixedOrderRequest = serde_json::from_value(expected).unwrap();
    assert_eq!(decoded, built);
}

/// `fromAddress` is a required key: `null` until set (deferred collection).
#[test]
fn fixed_builder_writes_a_null_from_address_and_no_defaults() {
    let built = FixedOrderRequest::builder(
        pair("BTC_ETH"),
        amount("0.5"),
        amount("16.5"),
        address(ETH_ADDRESS),
    )
    .build()
    .unwrap();
    assert_eq!(
        serde_json::to_value(&built).unwrap(),
        json!({"pairId": "BTC_ETH", "fromAmount": "0.5", "fromAddress": null,
            "toAmount": "16.5", "toAddress": ETH_ADDRESS})
    );
    // The server's defaults still apply to the typed value.
    assert_eq!(built.slippage(), Slippage::DEFAULT);
    assert_eq!(built.swap_mode(), SwapMode::ExactIn);
    assert!(built.parties().from_address().is_none());
}

/// The server's rules run on a built body: a zero amount is refused with the
/// code and field a received body would get.
#[test]
fn builders_refuse_what_the_server_refuses() {
    let errors = FixedOrderRequest::builder(
        pair("BTC_ETH"),
        Amount::ZERO,
        amount("16.5"),
        address(ETH_ADDRESS),
    )
    .build()
    .unwrap_err();
    assert_eq!(errors.all().len(), 1);
    assert_eq!(errors.first().field(), RequestField::FromAmount);
    assert_eq!(errors.first().code(), ErrorCode::InvalidAmount);

    let errors = FloatOrderRequest::builder(
        pair("BTC_ETH"),
        amount("0.5"),
        Amount::ZERO,
        address(ETH_ADDRESS),
    )
    .build()
    .unwrap_err();
    assert_eq!(errors.first().field(), RequestField::ToAmount);
    assert_eq!(errors.first().code(), ErrorCode::InvalidAmount);
}

/// A wallet's ExactIn estimate: `toAmount = ⌊fromAmount × rate − minerFee⌋₈`.
#[test]
fn fixed_builder_with_a_floored_estimate() {
    // 1.25 × 77.85491609 − 0.00000000 = 97.3186451125 → 97.31864511.
    let net =
        Decimal::from_str_exact("1.25").unwrap() * Decimal::from_str_exact("77.85491609").unwrap();
    let estimate = Fixed8::floor(net).unwrap();
    assert_eq!(estimate.to_string(), "97.31864511");
    let built = FixedOrderRequest::builder(
        pair("LTC_USDT"),
        amount("1.25"),
        Amount::new(estimate.get()).unwrap(),
        address(ETH_ADDRESS),
    )
    .build()
    .unwrap();
    assert_eq!(
        serde_json::to_value(&built).unwrap()["toAmount"],
        json!("97.31864511")
    );
}

#[test]
fn float_builder_writes_the_body_without_swap_mode() {
    let built = FloatOrderRequest::builder(
        pair("USDCALGO_USDCbasemainnetB5A52617"),
        amount("25"),
        amount("24.61"),
        address("0x29a422EB14AB2f2D0f0Cc022238daceEe2092F07"),
    )
    .from_address(address(
        "4MI2YHZ2NARTBNLZGCJN4QAVSYEEFNPAXX5I6IYLJTOPMKMY6F2DGGCQPZ",
    ))
    .build()
    .unwrap();
    // The real floating client's body (order-float-create-request.json),
    // amounts as the spec's strings.
    let expected = json!({
        "pairId": "USDCALGO_USDCbasemainnetB5A52617",
        "fromAmount": "25",
        "fromAddress": "4MI2YHZ2NARTBNLZGCJN4QAVSYEEFNPAXX5I6IYLJTOPMKMY6F2DGGCQPZ",
        "toAddress": "0x29a422EB14AB2f2D0f0Cc022238daceEe2092F07",
        "toAmount": "24.61"
    });
    assert_eq!(serde_json::to_value(&built).unwrap(), expected);
    let decoded: FloatOrderRequest = serde_json::from_value(expected).unwrap();
    assert_eq!(decoded, built);
    // Same values as the real (numeric) body.
    let real: FloatOrderRequest =
        serde_json::from_str(include_str!("payloads/order-float-create-request.json")).unwrap();
    assert_eq!(
        (real.from_amount(), real.to_amount(), real.pair_id()),
        (built.from_amount(), built.to_amount(), built.pair_id())
    );
}

#[test]
fn float_builder_writes_every_key_that_was_set() {
    let built = FloatOrderRequest::builder(
        pair("XRP_BTC"),
        amount("120"),
        amount("0.0021"),
        address("bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh"),
    )
    .from_address(address("rEb8TK3gBgk5auZkwc6sHnwrGVJH8DuaLh"))
    .from_address_tag(AddressTag::new("3302145").unwrap())
    .to_address_tag(AddressTag::new("memo-9").unwrap())
    .slippage(Slippage::new(Decimal::ONE_HUNDRED).unwrap())
    .quote_id(QuoteId::new("7b3f").unwrap())
    .build()
    .unwrap();
    let expected = json!({
        "pairId": "XRP_BTC", "fromAmount": "120", "toAmount": "0.0021",
        "fromAddress": "rEb8TK3gBgk5auZkwc6sHnwrGVJH8DuaLh", "fromAddressTag": "3302145",
        "toAddress": "bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh", "toAddressTag": "memo-9",
        "slippage": 100, "quoteId": "7b3f"
    });
    assert_eq!(serde_json::to_value(&built).unwrap(), expected);
    assert_eq!(built.quote_id().map(QuoteId::as_str), Some("7b3f"));
    let decoded: FloatOrderRequest = serde_json::from_value(expected).unwrap();
    assert_eq!(decoded, built);
}

/// The new public types cross threads like the rest of the crate's.
#[test]
fn new_types_are_send_and_sync() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<swaproute::order::FixedOrderBuilder>();
    assert_send_sync::<swaproute::order::FloatOrderBuilder>();
    assert_send_sync::<swaproute::order::NewOrder>();
    assert_send_sync::<swaproute::order::ToOrderError>();
}
