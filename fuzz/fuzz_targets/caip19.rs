//! CAIP-2 / CAIP-19 parsers: whatever parses displays back to the input,
//! re-parses to the same value, and its components re-assemble to the input.
#![no_main]

use libfuzzer_sys::fuzz_target;
use swaproute::caip::{AssetRef, Caip19AssetId, Caip19AssetType, ChainId};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };

    if let Ok(chain) = ChainId::parse(text) {
        assert_eq!(chain.to_string(), text);
        assert_eq!(ChainId::parse(&chain.to_string()).as_ref(), Ok(&chain));
        assert_eq!(format!("{}:{}", chain.namespace(), chain.reference()), text);
        assert_eq!(
            ChainId::new(chain.namespace(), chain.reference()).as_ref(),
            Ok(&chain)
        );
    }

    let asset_type = Caip19AssetType::parse(text);
    if let Ok(asset) = &asset_type {
        assert_eq!(asset.to_string(), text);
        assert_eq!(
            Caip19AssetType::parse(&asset.to_string()).as_ref(),
            Ok(asset)
        );
        let chain = asset.chain_id();
        let assembled = format!(
            "{}:{}/{}:{}",
            chain.namespace(),
            chain.reference(),
            asset.asset_namespace(),
            asset.asset_reference()
        );
        assert_eq!(assembled, text);
        let rebuilt = Caip19AssetType::new(
            chain.clone(),
            asset.asset_namespace(),
            asset.asset_reference(),
        );
        assert_eq!(rebuilt.as_ref(), Ok(asset));
        assert_eq!(AssetRef::parse(text), Ok(AssetRef::Caip19(asset.clone())));
    }

    let asset_id = Caip19AssetId::parse(text);
    if let Ok(asset) = &asset_id {
        assert!(
            asset_type.is_err(),
            "a text is an asset type or an asset id, never both"
        );
        assert_eq!(asset.to_string(), text);
        assert_eq!(Caip19AssetId::parse(&asset.to_string()).as_ref(), Ok(asset));
        let assembled = format!(
            "{}:{}/{}:{}/{}",
            asset.chain_id().namespace(),
            asset.chain_id().reference(),
            asset.asset_namespace(),
            asset.asset_reference(),
            asset.token_id()
        );
        assert_eq!(assembled, text);
        assert_eq!(
            Caip19AssetId::new(asset.asset_type().clone(), asset.token_id()).as_ref(),
            Ok(asset)
        );
    }

    if let Ok(asset) = AssetRef::parse(text) {
        assert_eq!(asset.to_string(), text);
        assert_eq!(AssetRef::parse(&asset.to_string()).as_ref(), Ok(&asset));
    }
});
