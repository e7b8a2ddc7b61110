//! Property tests: display∘parse is the identity on generated valid CAIP ids,
//! parsing arbitrary text never panics and agrees with a regex-free model of
//! the grammar.
#![allow(clippy::arithmetic_side_effects)]

use proptest::prelude::*;
use swaproute::caip::{AssetRef, Caip19AssetId, Caip19AssetType, ChainId};

/// An asset sent as another JSON type than a string says what was expected.
#[test]
fn an_asset_ref_of_the_wrong_json_type_says_what_is_expected() {
    let error = serde_json::from_str::<AssetRef>("60")
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("expected a legacy asset id or a CAIP-19 asset type"),
        "{error}"
    );
    let legacy: AssetRef = serde_json::from_str("\"ETH\"").unwrap();
    assert_eq!(legacy, "ETH".parse().unwrap());
}

const NAMESPACE: &str = "[-a-z0-9]{3,8}";
const REFERENCE: &str = "[-_a-zA-Z0-9]{1,32}";
const ASSET_REFERENCE: &str = "[-.%a-zA-Z0-9]{1,128}";
const TOKEN_ID: &str = "[-.%a-zA-Z0-9]{1,78}";

fn chain_text() -> impl Strategy<Value = String> {
    (NAMESPACE, REFERENCE).prop_map(|(n, r)| format!("{n}:{r}"))
}

fn asset_type_text() -> impl Strategy<Value = String> {
    (chain_text(), NAMESPACE, ASSET_REFERENCE).prop_map(|(c, n, r)| format!("{c}/{n}:{r}"))
}

fn asset_id_text() -> impl Strategy<Value = String> {
    (asset_type_text(), TOKEN_ID).prop_map(|(a, t)| format!("{a}/{t}"))
}

/// A model of the grammar: split on the separators and check each part.
fn model_component(text: &str, allowed: fn(u8) -> bool, min: usize, max: usize) -> bool {
    (min..=max).contains(&text.len()) && text.bytes().all(allowed)
}

fn ns(b: u8) -> bool {
    b == b'-' || b.is_ascii_lowercase() || b.is_ascii_digit()
}

fn reference(b: u8) -> bool {
    b == b'-' || b == b'_' || b.is_ascii_alphanumeric()
}

fn asset_ref(b: u8) -> bool {
    b == b'-' || b == b'.' || b == b'%' || b.is_ascii_alphanumeric()
}

fn model_chain(text: &str) -> bool {
    match text.split_once(':') {
        Some((n, r)) => model_component(n, ns, 3, 8) && model_component(r, reference, 1, 32),
        None => false,
    }
}

fn model_asset(text: &str, with_token: bool) -> bool {
    let parts: Vec<&str> = text.split('/').collect();
    let expected = if with_token { 3 } else { 2 };
    if parts.len() != expected || !model_chain(parts[0]) {
        return false;
    }
    let Some((n, r)) = parts[1].split_once(':') else {
        return false;
    };
    model_component(n, ns, 3, 8)
        && model_component(r, asset_ref, 1, 128)
        && (!with_token || model_component(parts[2], asset_ref, 1, 78))
}

/// Text that is mostly CAIP-shaped, so the model and the parser meet on
/// interesting inputs: separators, boundary lengths, near-miss characters.
fn caip_ish() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop_oneof![
            4 => "[a-z0-9]{1,10}",
            2 => "[-_.%A-Z]{1,3}",
            3 => Just(":".to_string()),
            3 => Just("/".to_string()),
            1 => "[ ;\\\\é\u{0}]",
            1 => "[a-zA-Z0-9]{30,130}",
        ],
        0..12,
    )
    .prop_map(|parts| parts.concat())
}

proptest! {
    #[test]
    fn chain_id_round_trips(text in chain_text()) {
        let chain = ChainId::parse(&text).unwrap();
        prop_assert_eq!(chain.to_string(), text.clone());
        prop_assert_eq!(ChainId::parse(&chain.to_string()).unwrap(), chain.clone());
        prop_assert_eq!(format!("{}:{}", chain.namespace(), chain.reference()), text);
        let json = serde_json::to_string(&chain).unwrap();
        prop_assert_eq!(serde_json::from_str::<ChainId>(&json).unwrap(), chain);
    }

    #[test]
    fn asset_type_round_trips(text in asset_type_text()) {
        let asset = Caip19AssetType::parse(&text).unwrap();
        prop_assert_eq!(asset.to_string(), text.clone());
        prop_assert_eq!(
            format!("{}/{}:{}", asset.chain_id(), asset.asset_namespace(), asset.asset_reference()),
            text.clone()
        );
        let rebuilt = Caip19AssetType::new(asset.chain_id().clone(), asset.asset_namespace(), asset.asset_reference());
        prop_assert_eq!(rebuilt.unwrap(), asset.clone());
        prop_assert_eq!(AssetRef::parse(&text).unwrap(), AssetRef::Caip19(asset.clone()));
        let json = serde_json::to_string(&asset).unwrap();
        prop_assert_eq!(serde_json::from_str::<Caip19AssetType>(&json).unwrap(), asset);
        prop_assert!(Caip19AssetId::parse(&text).is_err());
    }

    #[test]
    fn asset_id_round_trips(text in asset_id_text()) {
        let asset = Caip19AssetId::parse(&text).unwrap();
        prop_assert_eq!(asset.to_string(), text.clone());
        prop_assert_eq!(format!("{}/{}", asset.asset_type(), asset.token_id()), text.clone());
        prop_assert_eq!(Caip19AssetId::parse(&asset.to_string()).unwrap(), asset);
        prop_assert!(Caip19AssetType::parse(&text).is_err());
    }

    #[test]
    fn parsing_arbitrary_text_never_panics_and_matches_the_model(text in prop_oneof![any::<String>(), caip_ish()]) {
        let chain = ChainId::parse(&text);
        prop_assert_eq!(chain.is_ok(), model_chain(&text), "chain {:?}: {:?}", text, chain);
        let asset_type = Caip19AssetType::parse(&text);
        prop_assert_eq!(asset_type.is_ok(), model_asset(&text, false), "type {:?}: {:?}", text, asset_type);
        let asset_id = Caip19AssetId::parse(&text);
        prop_assert_eq!(asset_id.is_ok(), model_asset(&text, true), "id {:?}: {:?}", text, asset_id);
        if let Ok(asset) = asset_type {
            prop_assert_eq!(asset.to_string(), text.clone());
        }
        if let Ok(asset) = asset_id {
            prop_assert_eq!(asset.to_string(), text.clone());
        }
        let _ = AssetRef::parse(&text);
    }

    #[test]
    fn ordering_is_consistent_with_eq(a in asset_type_text(), b in asset_type_text()) {
        let (x, y) = (Caip19AssetType::parse(&a).unwrap(), Caip19AssetType::parse(&b).unwrap());
        prop_assert_eq!(x == y, a == b);
        prop_assert_eq!(x.cmp(&y) == std::cmp::Ordering::Equal, x == y);
        prop_assert_eq!(x.cmp(&y), y.cmp(&x).reverse());
    }
}
