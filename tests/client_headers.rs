//! Property tests: client-header parsing never panics, and `Forwarded` values
//! generated from a model parse to that model and round-trip through `Display`.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

use std::collections::BTreeMap;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use proptest::prelude::*;
use swaproute::client::{ClientHeaders, Forwarded, Integration, Node, NodePort, ObfuscatedId};

/// The model of one element, built independently of the parser.
#[derive(Clone, Debug)]
struct ElementModel {
    for_node: Option<Node>,
    by: Option<Node>,
    host: Option<String>,
    proto: Option<String>,
    extensions: BTreeMap<String, String>,
}

fn obfuscated() -> impl Strategy<Value = ObfuscatedId> {
    "_[A-Za-z0-9._-]{1,10}".prop_map(|s| ObfuscatedId::new(&s).unwrap())
}

fn port() -> impl Strategy<Value = Option<NodePort>> {
    prop_oneof![
        2 => Just(None),
        1 => any::<u16>().prop_map(|p| Some(NodePort::Number(p))),
        1 => obfuscated().prop_map(|id| Some(NodePort::Obfuscated(id))),
    ]
}

fn node() -> impl Strategy<Value = Node> {
    let addr = prop_oneof![
        any::<u32>().prop_map(|a| IpAddr::V4(Ipv4Addr::from(a))),
        any::<[u16; 8]>().prop_map(|s| IpAddr::V6(Ipv6Addr::from(s))),
        // Small v6 addresses exercise `::` compression.
        (any::<u16>(), any::<u16>())
            .prop_map(|(a, b)| IpAddr::V6(Ipv6Addr::new(0x2001, 0xdb8, 0, 0, 0, 0, a, b))),
    ];
    prop_oneof![
        3 => (addr, port()).prop_map(|(addr, port)| Node::Ip { addr, port }),
        1 => port().prop_map(|port| Node::Unknown { port }),
        1 => (obfuscated(), port()).prop_map(|(id, port)| Node::Obfuscated { id, port }),
    ]
}

fn element() -> impl Strategy<Value = ElementModel> {
    let ext_name = "[a-z][a-z0-9_-]{0,6}".prop_filter("reserved", |n| {
        !matches!(n.as_str(), "for" | "by" | "host" | "proto")
    });
    let ext_value = prop_oneof![
        "[A-Za-z0-9!#$%&'*+.^_`|~-]{1,8}",
        "[ -~\t]{0,12}",
        "[a-zé€ \"\\\\]{0,6}"
    ];
    (
        proptest::option::of(node()),
        proptest::option::of(node()),
        proptest::option::of("[a-z0-9.-]{1,15}(:[0-9]{1,5})?"),
        proptest::option::of("[a-z][a-z0-9+.-]{0,6}"),
        proptest::collection::btree_map(ext_name, ext_value, 0..4),
    )
        .prop_map(|(for_node, by, host, proto, extensions)| ElementModel {
            for_node,
            by,
            host,
            proto,
            extensions,
        })
        .prop_filter("an element holds a pair", |e| {
            e.for_node.is_some()
                || e.by.is_some()
                || e.host.is_some()
                || e.proto.is_some()
                || !e.extensions.is_empty()
        })
}

fn is_token(text: &str) -> bool {
    !text.is_empty()
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}

/// Random rendering choices, drawn once per pair.
#[derive(Clone, Debug)]
struct Style {
    upper_name: bool,
    quote_token: bool,
    escape_all: bool,
    ows_before: &'static str,
    ows_after: &'static str,
}

fn style() -> impl Strategy<Value = Style> {
    let ows = prop_oneof![Just(""), Just(" "), Just("\t"), Just("  ")];
    (
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        ows.clone(),
        ows,
    )
        .prop_map(
            |(upper_name, quote_token, escape_all, ows_before, ows_after)| Style {
                upper_name,
                quote_token,
                escape_all,
                ows_before,
                ows_after,
            },
        )
}

fn render_value(value: &str, style: &Style) -> String {
    if is_token(value) && !style.quote_token {
        return value.to_owned();
    }
    let mut out = String::from("\"");
    for ch in value.chars() {
        if matches!(ch, '"' | '\\') || (style.escape_all && ch.is_ascii_graphic()) {
            out.push('\\');
        }
        out.push(ch);
    }
    out.push('"');
    out
}

/// Renders the model as header text, shuffling pair order by `rotate`.
fn render(elements: &[ElementModel], styles: &[Style], rotate: usize) -> String {
    let mut parts = Vec::new();
    let mut s = styles.iter().cycle();
    for element in elements {
        let mut pairs: Vec<(String, String)> = Vec::new();
        if let Some(n) = &element.for_node {
            pairs.push(("for".into(), n.to_string()));
        }
        if let Some(n) = &element.by {
            pairs.push(("by".into(), n.to_string()));
        }
        if let Some(h) = &element.host {
            pairs.push(("host".into(), h.clone()));
        }
        if let Some(p) = &element.proto {
            pairs.push(("proto".into(), p.clone()));
        }
        for (k, v) in &element.extensions {
            pairs.push((k.clone(), v.clone()));
        }
        let len = pairs.len();
        pairs.rotate_left(rotate % len);
        let mut text = String::new();
        for (i, (name, value)) in pairs.iter().enumerate() {
            let style = s.next().unwrap();
            if i > 0 {
                text.push_str(style.ows_before);
                text.push(';');
                text.push_str(style.ows_after);
            }
            text.push_str(&if style.upper_name {
                name.to_uppercase()
            } else {
                name.clone()
            });
            text.push('=');
            text.push_str(&render_value(value, style));
        }
        parts.push(text);
    }
    let sep = styles
        .first()
        .map_or(",", |st| if st.escape_all { " ,\t" } else { "," });
    parts.join(sep)
}

/// Named `client_*` so that `cargo test client` selects these properties.
mod client_properties {
    use super::*;

    proptest! {
        #[test]
        fn arbitrary_strings_never_panic(text in ".{0,200}") {
            if let Ok(fwd) = Forwarded::parse(&text) {
                prop_assert_eq!(Forwarded::parse(&fwd.to_string()).unwrap(), fwd);
            }
            let pairs = [("App-Name", text.as_str()), ("Forwarded", text.as_str()), ("App-Platform", text.as_str())];
            let _ = ClientHeaders::from_pairs(pairs, Integration::Proxying);
        }

        #[test]
        fn forwarded_like_strings_never_panic(text in r#"[fForBbYyhHoOsStTpPuUnNkKwW_x0-9a-f.:\[\]=;, \t"\\-]{0,120}"#) {
            if let Ok(fwd) = Forwarded::parse(&text) {
                let shown = fwd.to_string();
                prop_assert_eq!(Forwarded::parse(&shown).unwrap(), fwd.clone());
                // Display is canonical: showing the re-parsed value gives the same text.
                prop_assert_eq!(Forwarded::parse(&shown).unwrap().to_string(), shown);
            }
        }

        #[test]
        fn arbitrary_header_sets_never_panic(
            pairs in proptest::collection::vec(
                ("(?i)(app-name|app-version|app-platform|user-agent|forwarded|authorization|x-other)", ".{0,40}"),
                0..8,
            ),
            proxying in any::<bool>(),
        ) {
            let integration = if proxying { Integration::Proxying } else { Integration::Direct };
            let result = ClientHeaders::from_pairs(pairs.iter().map(|(n, v)| (n.as_str(), v.as_str())), integration);
            let mut reversed = pairs.clone();
            reversed.reverse();
            let again = ClientHeaders::from_pairs(reversed.iter().map(|(n, v)| (n.as_str(), v.as_str())), integration);
            // The outcome does not depend on header order, except for the order of
            // Forwarded fields, which is the hop order.
            if pairs.iter().filter(|(n, _)| n.eq_ignore_ascii_case("forwarded")).count() <= 1 {
                prop_assert_eq!(result, again);
            }
        }

        #[test]
        fn generated_forwarded_parses_to_its_model_and_round_trips(
            elements in proptest::collection::vec(element(), 1..6),
            styles in proptest::collection::vec(style(), 1..8),
            rotate in 0_usize..8,
        ) {
            let text = render(&elements, &styles, rotate);
            let fwd = Forwarded::parse(&text).map_err(|e| TestCaseError::fail(format!("{text:?}: {e}")))?;
            prop_assert_eq!(fwd.elements().len(), elements.len());
            for (got, want) in fwd.elements().iter().zip(&elements) {
                prop_assert_eq!(got.for_node(), want.for_node.as_ref());
                prop_assert_eq!(got.by(), want.by.as_ref());
                prop_assert_eq!(got.host(), want.host.as_deref());
                prop_assert_eq!(got.proto(), want.proto.as_deref());
                let exts: Vec<(&str, &str)> = want.extensions.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
                prop_assert_eq!(got.extensions().collect::<Vec<_>>(), exts);
            }
            let first_ip = elements[0].for_node.as_ref().and_then(|n| match n {
                Node::Ip { addr, .. } => Some(*addr),
                _ => None,
            });
            prop_assert_eq!(fwd.client_addr(), first_ip);
            let shown = fwd.to_string();
            prop_assert_eq!(Forwarded::parse(&shown).unwrap(), fwd);
        }
    }
}
