//! Arbitrary bytes as a rates response: decoding never panics; whatever
//! decodes is one pair's with unique ids (rulings 18 and 31), keeps the
//! spelling of its optional keys (ruling 22), and re-encodes and decodes to
//! the same rates.
#![no_main]

use std::collections::BTreeSet;

use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use swaproute::RatesResponse;

fuzz_target!(|data: &[u8]| {
    let Ok(rates) = serde_json::from_slice::<RatesResponse>(data) else {
        return;
    };
    assert!(rates.len() <= swaproute::rate::MAX_RATES);
    let pairs: BTreeSet<&str> = rates.iter().map(|r| r.pair_id().as_str()).collect();
    assert!(
        pairs.len() <= 1,
        "decoded rates of several pairs: {pairs:?}"
    );
    let ids: BTreeSet<&str> = rates.iter().map(|r| r.id().as_str()).collect();
    assert_eq!(ids.len(), rates.len(), "decoded a repeated rate id");

    let encoded = serde_json::to_vec(&rates).expect("a decoded response always encodes");
    // `features` and `sponsoredByCampaignId`: absent stays absent, null stays
    // null, a value stays a value (duplicate keys aside: serde keeps the last).
    if let Ok(Value::Array(input)) = serde_json::from_slice::<Value>(data) {
        let output: Vec<Value> = serde_json::from_slice(&encoded).expect("valid JSON");
        assert_eq!(input.len(), output.len());
        for (before, after) in input.iter().zip(&output) {
            for key in ["features", "sponsoredByCampaignId"] {
                let form = |v: &Value| match v.get(key) {
                    None => 0,
                    Some(Value::Null) => 1,
                    Some(_) => 2,
                };
                assert_eq!(form(before), form(after), "{key} changed its spelling");
            }
        }
    }
    let again: RatesResponse =
        serde_json::from_slice(&encoded).expect("an encoded response always decodes");
    assert_eq!(again, rates, "round trip changed the rates");
    // Re-encoding is a fixed point.
    assert_eq!(serde_json::to_vec(&again).expect("encodes"), encoded);
});
