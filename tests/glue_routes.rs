//! Issue 31, item 4: a quote built from a route, and a discovery asset's
//! network as the address check's `NetworkKind` (so `with_assets` checks
//! addresses). Expected values by hand in the comments.

use serde_json::{json, Value};
use swaproute::discovery::{Asset, AssetsResponse, Network};
use swaproute::order::{FixedOrderRequest, OrderContext, PlanError};
use swaproute::quote::Quote;
use swaproute::route::RouteRequest;
use swaproute::screening::{NetworkKind, ScreeningPolicy};
use swaproute::wire::SentDecimal;
use swaproute::{Amount, ApiError, EpochMillis, ErrorCode, QuoteId, RatesResponse};

const NOW: EpochMillis = EpochMillis::new(1_785_000_000_000);

/// BTC → ETH at 33.1, fee 0.0002 ETH, limits 0.001..8 BTC, exactOut; and
/// a sponsored variant at 33.0, fee 0, campaign `spring`.
fn rates() -> RatesResponse {
    serde_json::from_value(json!([
        {"amount":{"assetId":"ETH","value":"33.1"},"expiry":4_102_444_800_000_u64,"id":"a",
         "max":{"assetId":"BTC","value":"8"},"min":{"assetId":"BTC","value":"0.001"},
         "minerFee":{"assetId":"ETH","value":"0.0002"},"pairId":"BTC_ETH","features":["exactOut"]},
    ]))
    .unwrap()
}

fn quote_json(quote: &Quote) -> Value {
    serde_json::to_value(quote).unwrap()
}

#[test]
fn an_exact_in_route_quotes_its_amount_and_promised_output() {
    let rates = rates();
    let route = RouteRequest::exact_in(Amount::parse("0.5").unwrap(), NOW)
        .best(&rates)
        .unwrap();
    let expiry = EpochMillis::new(1_785_000_030_000);
    let quote = Quote::from_route(QuoteId::new("q-1").unwrap(), &route, expiry).unwrap();
    // 0.5 × 33.1 − 0.0002 = 16.5498, written with 8 places.
    assert_eq!(
        quote_json(&quote),
        json!({"id":"q-1","pairId":"BTC_ETH",
            "fromAmount":{"assetId":"BTC","value":"0.5"},
            "toAmount":{"assetId":"ETH","value":"16.54980000"},
            "expiry":1_785_000_030_000_u64})
    );
    assert_eq!(quote.defect(), None);
    assert!(quote.to_amount.value.is_text());
}

#[test]
fn an_exact_out_route_quotes_its_required_input() {
    let rates = rates();
    let route = RouteRequest::exact_out(
        Amount::parse("0.5").unwrap(),
        Amount::parse("16.5").unwrap(),
        NOW,
    )
    .best(&rates)
    .unwrap();
    let quote = Quote::from_route(QuoteId::new("q-2").unwrap(), &route, NOW).unwrap();
    // (16.5 + 0.0002) / 33.1 = 0.498495468… rounded up: 0.49849547;
    // 0.49849547 × 33.1 − 0.0002 = 16.500000057, floored: 16.50000005.
    assert_eq!(
        quote.from_amount.value,
        SentDecimal::Text("0.49849547".parse().unwrap())
    );
    assert_eq!(quote.to_amount.value.to_string(), "16.50000005");
    assert!(quote.sponsored_by_campaign_id.is_absent());
}

#[test]
fn a_sponsored_route_names_its_campaign_and_a_dust_output_is_a_defect() {
    let rates: RatesResponse = serde_json::from_value(json!([
        {"amount":{"assetId":"ETH","value":"0.000001"},"expiry":4_102_444_800_000_u64,"id":"s",
         "max":{"assetId":"BTC","value":"8"},"min":{"assetId":"BTC","value":"0.001"},
         "minerFee":{"assetId":"ETH","value":"0"},"pairId":"BTC_ETH",
         "sponsoredByCampaignId":"spring"},
    ]))
    .unwrap();
    let mut campaigns = swaproute::CampaignLimits::default();
    campaigns.insert("spring".parse().unwrap(), Amount::parse("5").unwrap());
    let route = RouteRequest::exact_in(Amount::parse("0.001").unwrap(), NOW)
        .with_campaigns(&campaigns)
        .best(&rates)
        .unwrap();
    let quote = Quote::from_route(QuoteId::new("q-3").unwrap(), &route, NOW).unwrap();
    assert_eq!(
        quote
            .sponsored_by_campaign_id
            .as_option()
            .map(ToString::to_string)
            .as_deref(),
        Some("spring")
    );
    // 0.001 × 0.000001 = 0.000000001: floored to 8 places, nothing.
    assert_eq!(quote.to_amount.value.to_string(), "0.00000000");
    assert!(quote.defect().is_some());
}

fn listing() -> AssetsResponse {
    serde_json::from_value(json!([
        {"id":"BTC","name":"Bitcoin","symbol":"BTC","decimals":8,"network":"bitcoin"},
        {"id":"ETH","name":"Ether","symbol":"ETH","decimals":18,"network":"ethereum"},
        {"id":"ATOM","name":"Cosmos","symbol":"ATOM","decimals":6,"network":"cosmos"},
    ]))
    .unwrap()
}

fn btc_eth(to_address: &str) -> FixedOrderRequest {
    serde_json::from_value(
        json!({"pairId":"BTC_ETH","fromAmount":"0.5","toAmount":"16",
        "fromAddress":null,"toAddress":to_address,"swapMode":"ExactIn"}),
    )
    .unwrap()
}

#[test]
fn with_assets_checks_addresses_against_their_network() {
    let listing = listing();
    let policy = ScreeningPolicy::new();
    let rates = rates();
    let assets = listing.pair_assets(&"BTC_ETH".parse().unwrap()).unwrap();
    assert_eq!(
        assets.network_kinds(),
        (NetworkKind::Other, NetworkKind::Evm)
    );
    let context = OrderContext::new(NOW, &policy).with_assets(assets);

    // A Bitcoin address where an Ethereum one is due.
    let request = btc_eth("bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq");
    let error = request.plan(&rates, &context).unwrap_err();
    assert!(matches!(error, PlanError::Screening(_)), "{error:?}");
    let api = ApiError::from(error);
    assert_eq!(api.code(), ErrorCode::InvalidAddress);
    assert!(api.details().starts_with("toAddress"), "{}", api.details());

    // Without the records it is accepted (no network known).
    let bare = OrderContext::new(NOW, &policy);
    assert!(request.plan(&rates, &bare).is_ok());

    // A checksummed Ethereum address passes.
    let good = btc_eth("0x52908400098527886E0F7030069857D2E4169EE7");
    assert!(good.plan(&rates, &context).is_ok());

    // A kind the caller set wins over the records, before or after.
    let before = OrderContext::new(NOW, &policy)
        .with_networks(NetworkKind::Other, NetworkKind::Bech32)
        .with_assets(assets);
    assert_eq!(before.to_network, NetworkKind::Bech32);
    let after = context.with_networks(NetworkKind::Other, NetworkKind::Other);
    assert!(request.plan(&rates, &after).is_ok());
}

#[test]
fn network_names_and_caip_namespaces_give_the_kind() {
    let kind = |name: &str| name.parse::<Network>().unwrap().kind();
    for evm in [
        "ethereum", "ETHEREUM", "base", "bsc", "polygon", "arbitrum", "optimism",
    ] {
        assert_eq!(kind(evm), NetworkKind::Evm, "{evm}");
    }
    for bech32 in ["cosmos", "osmosis", "injective", "celestia"] {
        assert_eq!(kind(bech32), NetworkKind::Bech32, "{bech32}");
    }
    for other in [
        "bitcoin",
        "litecoin",
        "solana",
        "tron",
        "ethereum-classic",
        "vector",
    ] {
        assert_eq!(kind(other), NetworkKind::Other, "{other}");
    }
    let listing = listing();
    let atom = listing.get(&"ATOM".parse().unwrap()).unwrap();
    assert_eq!(atom.network_kind(), NetworkKind::Bech32);
    // A CAIP-19 id says its chain whatever the network's name.
    let usdc: Asset = serde_json::from_value(json!({
        "id":"eip155:1/erc20:0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48",
        "name":"USD Coin","symbol":"USDC","decimals":6,"network":"mainnet"}))
    .unwrap();
    assert_eq!(usdc.network_kind(), NetworkKind::Evm);
    let osmo: Asset = serde_json::from_value(json!({
        "id":"cosmos:osmosis-1/slip44:118",
        "name":"Osmosis","symbol":"OSMO","decimals":6,"network":"osmo-chain"}))
    .unwrap();
    assert_eq!(osmo.network_kind(), NetworkKind::Bech32);
}

/// `NetworkKind::from(&Network)` is `Network::kind`: by the name, any case
/// (EVM chains, bech32 chains, anything else `Other`).
#[test]
fn a_network_converts_to_its_address_kind() {
    for (name, kind) in [
        ("ethereum", NetworkKind::Evm),
        ("ERC20", NetworkKind::Evm),
        ("cosmos", NetworkKind::Bech32),
        ("bitcoin-cash-not-listed", NetworkKind::Other),
    ] {
        let network = Network::new(name).unwrap();
        assert_eq!(NetworkKind::from(&network), kind, "{name}");
        assert_eq!(network.kind(), kind, "{name}");
    }
}
