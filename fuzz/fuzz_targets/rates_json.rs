//! Arbitrary bytes as a rates response: decoding never panics, and whatever
//! decodes re-encodes and decodes to the same rates.
#![no_main]

use libfuzzer_sys::fuzz_target;
use swaproute::RatesResponse;

fuzz_target!(|data: &[u8]| {
    let Ok(rates) = serde_json::from_slice::<RatesResponse>(data) else {
        return;
    };
    assert!(rates.len() <= swaproute::rate::MAX_RATES);
    let encoded = serde_json::to_vec(&rates).expect("a decoded response always encodes");
    let again: RatesResponse =
        serde_json::from_slice(&encoded).expect("an encoded response always decodes");
    assert_eq!(again, rates, "round trip changed the rates");
    // Re-encoding is a fixed point.
    assert_eq!(serde_json::to_vec(&again).expect("encodes"), encoded);
});
