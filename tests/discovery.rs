//! Discovery records (issue 19): the real shapes of tests/payloads/ decode
//! and round-trip exactly (ruling 22, docs/RULES.md), the CSV pair list,
//! V4 rendering, caps (ruling 17) and amount precision per asset.

use crate::common::{amount, d};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{json, Value};
use swaproute::caip::{AssetDirectory, AssetIdForm, AssetRef};
use swaproute::discovery::{
    Asset, AssetMeta, AssetsResponse, Decimals, InvalidListing, Pair, PairsResponse, RenderError,
    MAX_ASSETS, MAX_NETWORK_LEN, MAX_PAIRS,
};
use swaproute::wire::Presence;
use swaproute::{ApiError, ErrorCode, PairId};

const PAIRS: &str = include_str!("payloads/pairs-response.json");
const PAIRS_CSV: &str = include_str!("payloads/pairs-response.csv");
const PAIR: &str = include_str!("payloads/pair-response.json");
const ASSETS: &str = include_str!("payloads/assets-response.json");
const ASSET: &str = include_str!("payloads/asset-response.json");

/// Decodes `text` as `T`, encodes it, and checks the value is the payload's.
fn round_trip<T: DeserializeOwned + Serialize>(text: &str) -> T {
    let original: Value = serde_json::from_str(text).unwrap();
    let decoded: T = serde_json::from_str(text).unwrap();
    assert_eq!(serde_json::to_value(&decoded).unwrap(), original);
    decoded
}

#[test]
fn pairs_listing_round_trips() {
    let pairs: PairsResponse = round_trip(PAIRS);
    let ids: Vec<&str> = pairs.pairs().iter().map(|p| p.id().as_str()).collect();
    assert_eq!(ids, ["LTC_XMR", "SOL_USDC"]);
    assert_eq!(pairs.pairs()[0].from().as_str(), "LTC");
    assert_eq!(pairs.pairs()[0].to().as_str(), "XMR");
    assert!(pairs.contains(&"SOL_USDC".parse().unwrap()));
    assert!(!pairs.contains(&"USDC_SOL".parse().unwrap()));
}

#[test]
fn one_pair_round_trips() {
    let pair: Pair = round_trip(PAIR);
    assert_eq!(pair.id().as_str(), "ETH_BTC");
    assert_eq!((pair.from().as_str(), pair.to().as_str()), ("ETH", "BTC"));
}

#[test]
fn a_pair_whose_halves_disagree_with_its_id_is_refused() {
    for body in [
        json!({"id": "ETH_BTC", "from": "BTC", "to": "ETH"}),
        json!({"id": "ETH_BTC", "from": "ETH", "to": "XMR"}),
        json!({"id": "ETH_BTC", "from": "ETH"}),
        json!({"id": "ETHBTC", "from": "ETH", "to": "BTC"}),
    ] {
        assert!(
            serde_json::from_value::<Pair>(body.clone()).is_err(),
            "{body}"
        );
    }
    // Unknown keys are ignored.
    let pair: Pair =
        serde_json::from_value(json!({"id": "ETH_BTC", "from": "ETH", "to": "BTC", "x": 1}))
            .unwrap();
    assert_eq!(pair.id().as_str(), "ETH_BTC");
}

#[test]
fn csv_pairs_are_the_json_pairs_and_write_back_byte_for_byte() {
    let from_csv = PairsResponse::from_csv(PAIRS_CSV).unwrap();
    let from_json: PairsResponse = serde_json::from_str(PAIRS).unwrap();
    assert_eq!(from_csv, from_json);
    assert_eq!(from_csv.to_csv(), PAIRS_CSV);
    assert_eq!(PAIRS_CSV, "LTC_XMR,SOL_USDC"); // no trailing newline
}

#[test]
fn csv_edges() {
    assert_eq!(PairsResponse::from_csv("").unwrap().pairs().len(), 0);
    assert_eq!(PairsResponse::from_csv("").unwrap().to_csv(), "");
    // One trailing line break is tolerated.
    for text in ["LTC_XMR\n", "LTC_XMR\r\n"] {
        let pairs = PairsResponse::from_csv(text).unwrap();
        assert_eq!(pairs.to_csv(), "LTC_XMR");
    }
    let messages: Vec<String> = [
        "LTC_XMR,",
        ",LTC_XMR",
        "LTC_XMR,,SOL_USDC",
        "LTC_XMR, SOL_USDC",
        "LTC_XMR,SOLUSDC",
        "LTC_XMR,LTC_XMR",
        "LTC_XMR\n\n",
    ]
    .iter()
    .map(|text| PairsResponse::from_csv(text).unwrap_err().to_string())
    .collect();
    assert_eq!(
        messages,
        [
            "field 1 of the pair list: id is empty",
            "field 0 of the pair list: id is empty",
            "field 1 of the pair list: id is empty",
            "field 1 of the pair list has whitespace around it",
            "field 1 of the pair list: pair id must be FROM_TO: two asset ids joined by one '_'",
            "the listing names LTC_XMR twice",
            "field 0 of the pair list has whitespace around it",
        ]
    );
    let error = PairsResponse::from_csv("a_b,a_b").unwrap_err();
    assert_eq!(error.code(), ErrorCode::ProviderError);
}

#[test]
fn csv_cap() {
    let ids: Vec<String> = (0..=MAX_PAIRS).map(|i| format!("A{i}_B")).collect();
    let at_cap = ids[..MAX_PAIRS].join(",");
    assert_eq!(
        PairsResponse::from_csv(&at_cap).unwrap().pairs().len(),
        MAX_PAIRS
    );
    let past = ids.join(",");
    assert_eq!(
        PairsResponse::from_csv(&past).unwrap_err().to_string(),
        format!("a listing of more than {MAX_PAIRS} entries")
    );
}

#[test]
fn assets_listing_round_trips_with_the_network_keyed_object() {
    let assets: AssetsResponse = round_trip(ASSETS);
    assert_eq!(assets.assets().len(), 5);
    let first = &assets.assets()[0];
    assert_eq!(first.id.to_string(), "USDC");
    assert_eq!(first.name.as_str(), "USD Coin");
    assert_eq!(first.network.as_str(), "ethereum");
    assert_eq!(first.decimals.get(), 6);
    let address = "0xF9243a8F5A06Ab4b0a9e28aB5B7Bbaae7D67c76A";
    let meta = first.meta.value().unwrap();
    assert_eq!(meta.contract_address.value().unwrap().as_str(), address);
    assert_eq!(first.network_meta, first.meta);
    let decimals: Vec<u8> = assets.assets().iter().map(|a| a.decimals.get()).collect();
    assert_eq!(decimals, [6, 6, 18, 18, 6]);
    let symbol = &assets.assets()[3].symbol;
    assert_eq!(symbol.as_str(), "idleUSDCJunior");
    assert_eq!(
        assets.assets()[1].id.to_string(),
        "AETHUSDCethereum70A41F13"
    );
}

#[test]
fn native_asset_round_trips_without_meta() {
    let ltc: Asset = round_trip(ASSET);
    assert_eq!(ltc.id.to_string(), "LTC");
    assert_eq!(ltc.decimals, Decimals::new(8));
    assert!(ltc.meta.is_absent());
    assert!(ltc.network_meta.is_absent());
}

#[test]
fn meta_and_the_network_keyed_object_each_round_trip_alone() {
    let meta = json!({"contractAddress": "0xabc"});
    let base = json!({"id": "X", "name": "X", "symbol": "X", "decimals": 6, "network": "base"});
    let variants = [
        ("meta", meta.clone()),
        ("base", meta.clone()),
        ("meta", Value::Null),
        ("base", Value::Null),
        ("meta", json!({})),
        ("base", json!({"contractAddress": ""})),
        ("meta", json!({"contractAddress": null})),
    ];
    for (key, value) in variants {
        let mut body = base.clone();
        body[key] = value;
        let text = body.to_string();
        let asset: Asset = round_trip(&text);
        assert_eq!(asset.network.as_str(), "base");
    }
    // The network key may come before `network`.
    let early = r#"{"base":{"contractAddress":"0xabc"},"id":"X","name":"X","symbol":"X","decimals":6,"network":"base"}"#;
    let asset: Asset = round_trip(early);
    assert_eq!(
        asset.network_meta,
        Presence::Value(AssetMeta {
            contract_address: Presence::Value("0xabc".parse().unwrap())
        })
    );
    // An object under another network's name is an unknown key: ignored.
    let mut other = base.clone();
    other["ethereum"] = meta.clone();
    let asset: Asset = serde_json::from_value(other).unwrap();
    assert!(asset.network_meta.is_absent());
    assert_eq!(serde_json::to_value(&asset).unwrap(), base);
    // Written under the network's current name.
    let mut renamed = asset.clone();
    renamed.network = "polygon".parse().unwrap();
    renamed.network_meta = Presence::Value(AssetMeta::default());
    assert_eq!(
        serde_json::to_value(&renamed).unwrap()["polygon"],
        json!({})
    );
}

#[test]
fn malformed_asset_records_are_refused() {
    let base = json!({"id": "X", "name": "X", "symbol": "X", "decimals": 6, "network": "base"});
    let cases: Vec<(&str, Value)> = vec![
        ("decimals", json!(6.0)),
        ("decimals", json!(6.5)),
        ("decimals", json!(-1)),
        ("decimals", json!(256)),
        ("decimals", json!("6")),
        ("decimals", Value::Null),
        ("base", json!("0xabc")),
        ("base", json!([1])),
        ("network", json!("meta")),
        ("network", json!("")),
        ("network", json!("x".repeat(65))),
        ("name", json!("a\nb")),
        ("name", json!("x".repeat(257))),
        ("meta", json!(5)),
        ("id", json!("")),
        ("id", json!("eip155:1/erc20")),
    ];
    for (key, value) in cases {
        let mut body = base.clone();
        body[key] = value.clone();
        assert!(
            serde_json::from_value::<Asset>(body).is_err(),
            "{key}: {value}"
        );
    }
    for key in ["id", "name", "symbol", "decimals", "network"] {
        let mut body = base.clone();
        body.as_object_mut().unwrap().remove(key);
        assert!(serde_json::from_value::<Asset>(body).is_err(), "{key}");
    }
    // A repeated key is refused (serde_json::Value cannot hold one).
    let repeated =
        r#"{"id":"X","name":"X","symbol":"X","decimals":6,"network":"base","decimals":6}"#;
    assert!(serde_json::from_str::<Asset>(repeated).is_err());
    // Edges that are accepted: 0 and 255 decimals, empty name, 256-byte name.
    for (key, value) in [
        ("decimals", json!(0)),
        ("decimals", json!(255)),
        ("name", json!("")),
        ("name", json!("x".repeat(256))),
        ("unknown", json!({"deep": [1, {"x": null}]})),
    ] {
        let mut body = base.clone();
        body[key] = value.clone();
        assert!(
            serde_json::from_value::<Asset>(body).is_ok(),
            "{key}: {value}"
        );
    }
}

#[test]
fn listings_refuse_repeated_ids_and_other_shapes() {
    let ltc =
        json!({"id": "LTC", "name": "L", "symbol": "LTC", "decimals": 8, "network": "litecoin"});
    let error = serde_json::from_value::<AssetsResponse>(json!([ltc, ltc])).unwrap_err();
    assert!(
        error.to_string().contains("the listing names LTC twice"),
        "{error}"
    );
    assert!(serde_json::from_value::<AssetsResponse>(json!({"id": "LTC"})).is_err());
    let pair = json!({"id": "A_B", "from": "A", "to": "B"});
    assert!(serde_json::from_value::<PairsResponse>(json!([pair, pair])).is_err());
    assert_eq!(
        serde_json::from_str::<PairsResponse>("[]").unwrap(),
        PairsResponse::default()
    );
}

#[test]
fn the_asset_listing_cap() {
    let asset = |i: usize| json!({"id": format!("A{i}"), "name": "", "symbol": "A", "decimals": 0, "network": "n"});
    let at_cap = Value::Array((0..MAX_ASSETS).map(asset).collect());
    let listing: AssetsResponse = serde_json::from_value(at_cap.clone()).unwrap();
    assert_eq!(listing.assets().len(), MAX_ASSETS);
    let mut past = at_cap;
    past.as_array_mut().unwrap().push(asset(MAX_ASSETS));
    let error = serde_json::from_value::<AssetsResponse>(past).unwrap_err();
    assert!(error.to_string().contains("more than 65536"), "{error}");
    let mut records = listing.assets().to_vec();
    records.push(serde_json::from_value(asset(MAX_ASSETS)).unwrap());
    assert_eq!(
        AssetsResponse::try_from(records),
        Err(InvalidListing::TooMany { max: MAX_ASSETS })
    );
}

/// The ids of bitcoin-family chains from CAIP-2's `bip122` namespace.
const LTC_CAIP: &str = "bip122:12a765e31ffd4059bada1e25190f6e98/slip44:2";
const USDC_CAIP: &str = "eip155:1/erc20:0xf9243a8f5a06ab4b0a9e28ab5b7bbaae7d67c76a";

fn directory() -> AssetDirectory {
    let mut directory = AssetDirectory::new();
    directory
        .insert("LTC".parse().unwrap(), LTC_CAIP.parse().unwrap())
        .unwrap();
    directory
        .insert("USDC".parse().unwrap(), USDC_CAIP.parse().unwrap())
        .unwrap();
    directory
}

#[test]
fn a_v4_listing_in_either_id_form() {
    let mut records: Vec<Value> = serde_json::from_str(ASSETS).unwrap();
    records.truncate(1);
    records.push(serde_json::from_str(ASSET).unwrap());
    let legacy_json = Value::Array(records);
    let legacy: AssetsResponse = serde_json::from_value(legacy_json.clone()).unwrap();

    let caip = legacy
        .render(&directory(), AssetIdForm::from_query(None).unwrap())
        .unwrap();
    let mut expected = legacy_json.clone();
    expected[0]["id"] = json!(USDC_CAIP);
    expected[1]["id"] = json!(LTC_CAIP);
    assert_eq!(serde_json::to_value(&caip).unwrap(), expected);
    // The CAIP-19 listing decodes and round-trips as it is.
    let decoded: AssetsResponse = round_trip(&expected.to_string());
    assert_eq!(decoded, caip);
    // caip19=false gives the legacy listing back.
    let back = caip
        .render(
            &directory(),
            AssetIdForm::from_query(Some("false")).unwrap(),
        )
        .unwrap();
    assert_eq!(serde_json::to_value(&back).unwrap(), legacy_json);

    // An asset the directory does not know.
    let full: AssetsResponse = serde_json::from_str(ASSETS).unwrap();
    let error = full.render(&directory(), AssetIdForm::Caip19).unwrap_err();
    assert_eq!(error.code(), ErrorCode::UnresolvedAsset);
    assert_eq!(
        error.to_string(),
        "asset AETHUSDCethereum70A41F13 cannot be resolved"
    );
    // One asset named in both forms becomes a repeated id.
    let both: AssetsResponse =
        serde_json::from_value(json!([expected[1], legacy_json[1]])).unwrap();
    let error = both.render(&directory(), AssetIdForm::Legacy).unwrap_err();
    assert!(matches!(
        error,
        RenderError::Listing(InvalidListing::DuplicateId { .. })
    ));
}

fn listing() -> AssetsResponse {
    let mut records: Vec<Value> = serde_json::from_str(ASSETS).unwrap();
    records.push(serde_json::from_str(ASSET).unwrap());
    serde_json::from_value(Value::Array(records)).unwrap()
}

#[test]
fn a_pair_joined_to_its_records() {
    let assets = listing();
    let pair: PairId = "LTC_USDC".parse().unwrap();
    let records = assets.pair_assets(&pair).unwrap();
    assert_eq!(records.from().name.as_str(), "Litecoin");
    assert_eq!(records.to().name.as_str(), "USD Coin");
    assert!(records.matches(&pair));
    assert!(!records.matches(&"USDC_LTC".parse().unwrap()));
    // One side right is not enough.
    assert!(!records.matches(&"LTC_XMR".parse().unwrap()));
    assert!(!records.matches(&"BTC_USDC".parse().unwrap()));
    // LTC_XMR from the pairs payload: XMR is not in the listing.
    let error = assets.pair_assets(&"LTC_XMR".parse().unwrap()).unwrap_err();
    assert_eq!(error.asset, AssetRef::Legacy("XMR".parse().unwrap()));
    assert_eq!(ApiError::from(error).code(), ErrorCode::UnresolvedAsset);
}

#[test]
fn amount_precision_per_asset() {
    let assets = listing();
    let usdc = assets.get(&"USDC".parse().unwrap()).unwrap();
    let steak = assets
        .get(&"STEAKUSDCethereum2D027D6E".parse().unwrap())
        .unwrap();
    let ltc = assets.get(&"LTC".parse().unwrap()).unwrap();
    // USDC: 6 decimals.
    for ok in ["0.123456", "1", "0.1234560", "1000000.5", "0.000001"] {
        assert!(usdc.check_amount(&amount(ok)).is_ok(), "{ok}");
    }
    for too_precise in ["0.1234567", "0.0000001", "1.0000001"] {
        let error = usdc.check_amount(&amount(too_precise)).unwrap_err();
        assert_eq!(error.places(), 7);
        assert_eq!(error.amount(), amount(too_precise));
        assert_eq!(error.code(), ErrorCode::InvalidAmount);
        assert_eq!(
            error.to_string(),
            format!("{too_precise} has 7 decimal places, but USDC has 6")
        );
    }
    // 18 decimals: 18 places fit, 19 do not.
    assert!(steak.check_amount(&amount("0.123456789012345678")).is_ok());
    assert!(steak
        .check_amount(&amount("0.1234567890123456789"))
        .is_err());
    // LTC: 8.
    assert!(ltc.check_amount(&amount("0.12345678")).is_ok());
    assert!(ltc.check_amount(&amount("0.123456789")).is_err());
}

#[test]
fn zero_and_more_than_28_decimals() {
    let zero = Decimals::new(0);
    assert!(zero.fits(amount("12")));
    assert!(zero.fits(amount("12.000")));
    assert!(!zero.fits(amount("12.5")));
    assert_eq!(zero.round_down(d("12.9")).unwrap(), d("12"));
    assert_eq!(zero.round_up(d("12.1")).unwrap(), d("13"));
    // Beyond 28 every amount fits and rounding changes nothing.
    let many = Decimals::new(36);
    let finest = amount("0.0000000000000000000000000001"); // 28 places
    assert!(many.fits(finest));
    assert_eq!(many.round_up(finest.get()).unwrap(), finest.get());
    assert_eq!(many.round_down(finest.get()).unwrap(), finest.get());
}

#[test]
fn rounding_to_an_assets_decimals() {
    let six = Decimals::new(6);
    // Hand-computed: ⌊1.2345675⌋₆ = 1.234567, ⌈1.2345675⌉₆ = 1.234568.
    assert_eq!(six.round_down(d("1.2345675")).unwrap(), d("1.234567"));
    assert_eq!(six.round_up(d("1.2345675")).unwrap(), d("1.234568"));
    // Already at 6 places or fewer: unchanged, whichever way.
    assert_eq!(six.round_up(d("1.5")).unwrap(), d("1.5"));
    assert_eq!(six.round_down(d("1.000001")).unwrap(), d("1.000001"));
    // An 8-place ExactOut required input rounded up for a 6-decimal asset.
    assert_eq!(six.round_up(d("0.49849547")).unwrap(), d("0.498496"));
    // Just above a whole number rounds up to the next place, not further.
    assert_eq!(six.round_up(d("2.0000000001")).unwrap(), d("2.000001"));
    assert_eq!(six.round_down(d("2.9999999999")).unwrap(), d("2.999999"));
}

#[test]
fn an_asset_rounds_what_the_user_receives_down_and_sends_up() {
    let ltc: Asset = serde_json::from_str(ASSET).unwrap(); // 8 decimals
                                                           // Hand-computed: ⌊0.123456785⌋₈ = 0.12345678, ⌈0.123456785⌉₈ = 0.12345679.
    assert_eq!(
        ltc.round_received(d("0.123456785")).unwrap(),
        d("0.12345678")
    );
    assert_eq!(ltc.round_sent(d("0.123456785")).unwrap(), d("0.12345679"));
}

#[test]
fn wrong_json_types_say_what_was_expected() {
    let error = serde_json::from_str::<Asset>("[]").unwrap_err();
    assert!(
        error
            .to_string()
            .contains("expected an asset record (a JSON object)"),
        "{error}"
    );
    let error = serde_json::from_str::<Decimals>("\"8\"").unwrap_err();
    assert!(
        error
            .to_string()
            .contains("expected a whole JSON number from 0 to 255"),
        "{error}"
    );
}

#[test]
fn unknown_keys_too_long_to_be_a_network_are_skipped_unread() {
    // A key that could name a network is kept (and may not repeat); a longer
    // one cannot be the network's object and is skipped, repeated or not.
    let record = |key: &str| {
        format!(
            r#"{{"id":"X","name":"X","symbol":"X","decimals":6,"network":"base","{key}":1,"{key}":2}}"#
        )
    };
    let longest = "k".repeat(MAX_NETWORK_LEN);
    let error = serde_json::from_str::<Asset>(&record(&longest)).unwrap_err();
    assert!(error.to_string().contains("repeats a key"), "{error}");
    let longer = "k".repeat(MAX_NETWORK_LEN + 1);
    assert!(serde_json::from_str::<Asset>(&record(&longer)).is_ok());
}

#[test]
fn decimals_from_the_exact_text_of_arbitrary_precision() {
    use serde::de::value::{Error, MapDeserializer};
    use serde::Deserialize;
    // serde_json's `arbitrary_precision` hands a number over as a one-entry
    // map under this key; built by hand here, whatever this build's features.
    const TOKEN: &str = "$serde_json::private::Number";
    let number = |key: &'static str, text: &'static str| {
        Decimals::deserialize(MapDeserializer::<_, Error>::new([(key, text)].into_iter()))
    };
    assert_eq!(number(TOKEN, "8").unwrap(), Decimals::new(8));
    assert_eq!(number(TOKEN, "255").unwrap(), Decimals::new(255));
    let message = |key, text| number(key, text).unwrap_err().to_string();
    assert_eq!(message(TOKEN, "-1"), "decimals must not be negative");
    assert_eq!(
        message(TOKEN, "8.0"),
        "decimals must be a whole JSON number"
    );
    assert_eq!(
        message(TOKEN, "1e1"),
        "decimals must be a whole JSON number"
    );
    assert_eq!(message(TOKEN, "256"), "decimals 256 is more than 255");
    // Any other one-entry map is an object, not a number.
    assert!(
        message("decimals", "8").contains("invalid type: map"),
        "{}",
        message("decimals", "8")
    );
}

#[test]
fn a_pair_listing_finds_a_pair_by_id() {
    let pairs = PairsResponse::from_csv("LTC_XMR,SOL_USDC").unwrap();
    let pair = pairs.get(&"SOL_USDC".parse().unwrap()).unwrap();
    assert_eq!((pair.from().as_str(), pair.to().as_str()), ("SOL", "USDC"));
    assert_eq!(pairs.get(&"SOL_XMR".parse().unwrap()), None);
    let error = serde_json::from_str::<PairsResponse>("{}").unwrap_err();
    assert!(
        error.to_string().contains("expected a JSON array"),
        "{error}"
    );
}

mod rounding_properties {
    use proptest::prelude::*;
    use swaproute::discovery::Decimals;
    use swaproute::{Amount, Decimal};

    proptest! {
        /// ⌊x⌋_d ≤ x ≤ ⌈x⌉_d, both fit d, they are at most one unit of the
        /// d-th place apart, and x fits d exactly when rounding leaves it alone.
        #[test]
        fn roundings_bracket_the_value(mantissa in 0_i64..=i64::MAX, scale in 0_u32..=18, places in 0_u8..=30) {
            let value = Decimal::new(mantissa, scale);
            let decimals = Decimals::new(places);
            let down = decimals.round_down(value).unwrap();
            let up = decimals.round_up(value).unwrap();
            prop_assert!(down <= value && value <= up);
            prop_assert!(decimals.fits(Amount::new(down).unwrap()));
            prop_assert!(decimals.fits(Amount::new(up).unwrap()));
            let unit = Decimal::new(1, u32::from(places).min(28));
            prop_assert!(up.checked_sub(down).is_some_and(|gap| gap <= unit));
            let fits = decimals.fits(Amount::new(value).unwrap());
            prop_assert_eq!(fits, down == value);
            prop_assert_eq!(fits, up == value);
        }
    }
}
