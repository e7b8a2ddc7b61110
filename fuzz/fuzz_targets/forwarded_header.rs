//! `Forwarded` parsing never panics, and whatever parses re-displays to text
//! that parses to an equal value (and displays identically: canonical form).
//! Header-level validation over the same bytes never panics either.
#![no_main]

use libfuzzer_sys::fuzz_target;
use swaproute::client::{ClientHeaders, Forwarded, Integration};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(fwd) = Forwarded::parse(text) {
        let shown = fwd.to_string();
        let again = Forwarded::parse(&shown).expect("canonical form must parse");
        assert_eq!(
            again, fwd,
            "round trip changed the value: {text:?} -> {shown:?}"
        );
        assert_eq!(again.to_string(), shown, "display is not canonical");
        if let Some(addr) = fwd.client_addr() {
            assert_eq!(fwd.client().and_then(|n| n.ip()), Some(addr));
        }
    }
    let _ = ClientHeaders::from_pairs(
        [("App-Name", "fuzz"), ("Forwarded", text)],
        Integration::Proxying,
    );
});
