//! Arbitrary bytes as every discovery record (issue 19): a pairs listing, a
//! pair, an assets listing, an asset, and the CSV pair list. Decoding never
//! panics; whatever decodes respects the caps and unique ids, re-encodes and
//! decodes to the same value, and re-encoding is a fixed point.
#![no_main]

use std::collections::BTreeSet;

use libfuzzer_sys::fuzz_target;
use serde::de::DeserializeOwned;
use serde::Serialize;
use swaproute::discovery::{Asset, AssetsResponse, Pair, PairsResponse, MAX_ASSETS, MAX_PAIRS};

/// decode → encode → decode gives the same value; encoding again gives the same bytes.
fn stable<T: DeserializeOwned + Serialize + PartialEq + std::fmt::Debug>(data: &[u8]) -> Option<T> {
    let decoded: T = serde_json::from_slice(data).ok()?;
    let encoded = serde_json::to_vec(&decoded).expect("a decoded record always encodes");
    let again: T = serde_json::from_slice(&encoded).expect("an encoded record always decodes");
    assert_eq!(again, decoded, "round trip changed the value");
    assert_eq!(serde_json::to_vec(&again).expect("encodes"), encoded);
    Some(decoded)
}

fuzz_target!(|data: &[u8]| {
    if let Some(pairs) = stable::<PairsResponse>(data) {
        assert!(pairs.pairs().len() <= MAX_PAIRS);
        let ids: BTreeSet<_> = pairs.pairs().iter().map(Pair::id).collect();
        assert_eq!(ids.len(), pairs.pairs().len(), "decoded a repeated pair");
        // The CSV form holds the same pairs.
        assert_eq!(
            PairsResponse::from_csv(&pairs.to_csv()).expect("CSV of a listing"),
            pairs
        );
    }
    if let Some(pair) = stable::<Pair>(data) {
        assert_eq!(pair.id().from(), pair.from());
        assert_eq!(pair.id().to(), pair.to());
    }
    if let Some(assets) = stable::<AssetsResponse>(data) {
        assert!(assets.assets().len() <= MAX_ASSETS);
        let ids: BTreeSet<_> = assets.assets().iter().map(|a| &a.id).collect();
        assert_eq!(ids.len(), assets.assets().len(), "decoded a repeated asset");
    }
    if let Some(asset) = stable::<Asset>(data) {
        // The network-keyed object is written under the network's name.
        let value = serde_json::to_value(&asset).expect("encodes");
        assert_eq!(
            value.get(asset.network.as_str()).is_some(),
            !asset.network_meta.is_absent()
        );
    }
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(pairs) = PairsResponse::from_csv(text) {
            let csv = pairs.to_csv();
            assert_eq!(
                PairsResponse::from_csv(&csv).expect("written CSV parses"),
                pairs
            );
            assert_eq!(
                stable::<PairsResponse>(&serde_json::to_vec(&pairs).expect("encodes")),
                Some(pairs)
            );
        }
    }
});
