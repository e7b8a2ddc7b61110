//! `Forwarded` parsing never panics, and whatever parses re-displays to text
//! that parses to an equal value (and displays identically: canonical form).
//! Header-level validation over the same bytes never panics either.
//!
//! Rulings 20 and 29 (docs/RULES.md): a parsed header whose first `for=` is
//! not a globally routable IP address never yields a screening address, and a
//! proxying integration's headers are accepted only with one.
#![no_main]

use libfuzzer_sys::fuzz_target;
use swaproute::client::{ClientHeaders, Forwarded, Integration, Node, NonGlobal};

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
        match fwd.client() {
            Some(Node::Ip { addr, .. }) if NonGlobal::of(*addr).is_none() => {
                assert_eq!(fwd.screening_addr(), Ok(addr.to_canonical()));
            }
            _ => assert!(
                fwd.screening_addr().is_err(),
                "{text:?}: a first `for` that locates nobody gave a screening address"
            ),
        }
        if let Ok(addr) = fwd.screening_addr() {
            assert_eq!(NonGlobal::of(addr), None);
        }
    }
    let proxied = ClientHeaders::from_pairs(
        [("App-Name", "fuzz"), ("Forwarded", text)],
        Integration::Proxying,
    );
    if let Ok(headers) = proxied {
        let addr = headers
            .screening_addr()
            .expect("accepted proxied headers carry a screening address");
        assert_eq!(NonGlobal::of(addr), None);
    }
});
