//! Property tests: client-header parsing never panics, and `Forwarded` values
//! generated from a model parse to that model and round-trip through `Display`.
#![allow(clippy::arithmetic_side_effects)]

use std::collections::BTreeMap;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use proptest::prelude::*;
use swaproute::client::{
    ClientHeaders, Forwarded, Integration, NoClientAddress, Node, NodePort, NonGlobal, ObfuscatedId,
};

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
            // Rulings 20 and 29: only a globally routable first `for` locates anyone.
            let expected = match elements[0].for_node.as_ref() {
                None => Err(NoClientAddress::NoFor),
                Some(Node::Unknown { .. }) => Err(NoClientAddress::Unknown),
                Some(Node::Obfuscated { id, .. }) => Err(NoClientAddress::Obfuscated(id.clone())),
                Some(Node::Ip { addr, .. }) => match oracle_non_global(*addr) {
                    Some(scope) => Err(NoClientAddress::NotGlobal { addr: *addr, scope }),
                    None => Ok(addr.to_canonical()),
                },
            };
            prop_assert_eq!(fwd.screening_addr(), expected.clone());
            let headers = ClientHeaders::from_pairs([("App-Name", "w"), ("Forwarded", text.as_str())], Integration::Proxying);
            prop_assert_eq!(headers.map(|h| h.screening_addr()).map_err(|_| ()), expected.map(Some).map_err(|_| ()));
            let shown = fwd.to_string();
            prop_assert_eq!(Forwarded::parse(&shown).unwrap(), fwd);
        }
    }
}

/// The non-global ranges of ruling 29 (docs/RULES.md) and the RFCs cited on
/// `NonGlobal`, as CIDR text, checked by plain prefix comparison: an oracle
/// independent of the library's octet tests.
const ORACLE_RANGES: &[(&str, u32, NonGlobal)] = &[
    ("0.0.0.0", 8, NonGlobal::Unspecified),
    ("10.0.0.0", 8, NonGlobal::Private),
    ("100.64.0.0", 10, NonGlobal::Shared),
    ("127.0.0.0", 8, NonGlobal::Loopback),
    ("169.254.0.0", 16, NonGlobal::LinkLocal),
    ("172.16.0.0", 12, NonGlobal::Private),
    ("192.0.0.0", 24, NonGlobal::Reserved),
    ("192.168.0.0", 16, NonGlobal::Private),
    ("198.18.0.0", 15, NonGlobal::Reserved),
    ("224.0.0.0", 4, NonGlobal::Multicast),
    ("255.255.255.255", 32, NonGlobal::Broadcast),
    ("240.0.0.0", 4, NonGlobal::Reserved),
];

const ORACLE_RANGES_V6: &[(&str, u32, NonGlobal)] = &[
    ("::", 128, NonGlobal::Unspecified),
    ("::1", 128, NonGlobal::Loopback),
    ("::", 96, NonGlobal::Reserved),
    ("64:ff9b:1::", 48, NonGlobal::Reserved),
    ("100::", 64, NonGlobal::Reserved),
    ("fc00::", 7, NonGlobal::Private),
    ("fec0::", 10, NonGlobal::Private),
    ("fe80::", 10, NonGlobal::LinkLocal),
    ("ff00::", 8, NonGlobal::Multicast),
];

fn oracle_non_global(addr: IpAddr) -> Option<NonGlobal> {
    match addr {
        IpAddr::V4(v4) => {
            let n = u32::from(v4);
            ORACLE_RANGES.iter().find_map(|(net, len, scope)| {
                let net = u32::from(net.parse::<Ipv4Addr>().unwrap());
                let mask = u32::MAX.checked_shl(32 - len).unwrap_or(0);
                (n & mask == net).then_some(*scope)
            })
        }
        IpAddr::V6(v6) => {
            let n = u128::from(v6);
            // ::ffff:0:0/96 (mapped) and 64:ff9b::/96 (NAT64) carry an IPv4 address.
            for carrier in ["::ffff:0:0", "64:ff9b::"] {
                if n >> 32 == u128::from(carrier.parse::<Ipv6Addr>().unwrap()) >> 32 {
                    let low = u32::try_from(n & u128::from(u32::MAX)).unwrap();
                    return oracle_non_global(IpAddr::V4(Ipv4Addr::from(low)));
                }
            }
            ORACLE_RANGES_V6.iter().find_map(|(net, len, scope)| {
                let net = u128::from(net.parse::<Ipv6Addr>().unwrap());
                let mask = u128::MAX.checked_shl(128 - len).unwrap_or(0);
                (n & mask == net).then_some(*scope)
            })
        }
    }
}

proptest! {
    #[test]
    fn non_global_matches_the_cidr_oracle_v4(n in any::<u32>(), near in 0_usize..12, low in any::<u16>()) {
        // Half the cases land inside or next to a listed range.
        let (net, len, _) = ORACLE_RANGES[near];
        let base = u32::from(net.parse::<Ipv4Addr>().unwrap());
        for candidate in [n, base ^ u32::from(low), base.wrapping_sub(1 + u32::from(low)), base | u32::MAX.checked_shr(len).unwrap_or(0).wrapping_add(1 + u32::from(low))] {
            let addr = IpAddr::V4(Ipv4Addr::from(candidate));
            prop_assert_eq!(NonGlobal::of(addr), oracle_non_global(addr), "{}", addr);
            let mapped = IpAddr::V6(Ipv4Addr::from(candidate).to_ipv6_mapped());
            prop_assert_eq!(NonGlobal::of(mapped), oracle_non_global(addr), "{}", mapped);
        }
    }

    #[test]
    fn non_global_matches_the_cidr_oracle_v6(n in any::<u128>(), near in 0_usize..9, low in any::<u64>()) {
        let (net, _, _) = ORACLE_RANGES_V6[near];
        let base = u128::from(net.parse::<Ipv6Addr>().unwrap());
        for candidate in [n, base ^ u128::from(low), base.wrapping_sub(1 + u128::from(low)), base ^ (u128::from(low) << 64)] {
            let addr = IpAddr::V6(Ipv6Addr::from(candidate));
            prop_assert_eq!(NonGlobal::of(addr), oracle_non_global(addr), "{}", addr);
        }
    }
}

/// Outgoing headers (issue item 6): a client's validated headers become the
/// pairs it sends, and reading them back gives the same headers.
mod client_outgoing {
    use super::*;

    fn pairs_of(headers: &ClientHeaders) -> Vec<(&'static str, String)> {
        headers.to_pairs().collect()
    }

    fn read_back(pairs: &[(&'static str, String)], integration: Integration) -> ClientHeaders {
        ClientHeaders::from_pairs(
            pairs.iter().map(|(name, value)| (*name, value.as_str())),
            integration,
        )
        .unwrap()
    }

    #[test]
    fn every_header_in_spec_order_with_canonical_names() {
        let headers = ClientHeaders::from_pairs(
            [
                ("forwarded", "for=198.51.100.17;proto=https, for=192.0.2.43"),
                ("user-agent", "  my-wallet/4.2.0 (Android 14)\t"),
                ("APP-PLATFORM", "mobile"),
                ("app-version", "4.2.0"),
                ("app-name", "my-wallet"),
                ("x-other", "ignored"),
            ],
            Integration::Proxying,
        )
        .unwrap();
        let pairs = pairs_of(&headers);
        let expected: Vec<(&str, String)> = vec![
            ("App-Name", "my-wallet".into()),
            ("App-Version", "4.2.0".into()),
            ("App-Platform", "mobile".into()),
            // Trimmed of the spaces and tab around it.
            ("User-Agent", "my-wallet/4.2.0 (Android 14)".into()),
            (
                "Forwarded",
                "for=198.51.100.17;proto=https, for=192.0.2.43".into(),
            ),
        ];
        assert_eq!(pairs, expected);
        assert_eq!(read_back(&pairs, Integration::Proxying), headers);
    }

    #[test]
    fn only_what_is_present_and_never_authorization() {
        let headers = ClientHeaders::from_pairs(
            [("App-Name", "w"), ("App-Version", "")],
            Integration::Direct,
        )
        .unwrap();
        assert_eq!(pairs_of(&headers), vec![("App-Name", "w".to_owned())]);
        assert_eq!(read_back(&pairs_of(&headers), Integration::Direct), headers);
    }

    /// A quoted IPv6 `for` with a port is written in RFC 7239's form.
    #[test]
    fn forwarded_is_written_so_it_reads_back() {
        let headers = ClientHeaders::from_pairs(
            [
                ("App-Name", "relay"),
                ("Forwarded", r#"For="[2001:db8:cafe::17]:4711";by=_hidden"#),
            ],
            Integration::Direct,
        )
        .unwrap();
        let pairs = pairs_of(&headers);
        assert_eq!(pairs.len(), 2);
        assert_eq!(pairs[1].0, "Forwarded");
        let again = read_back(&pairs, Integration::Direct);
        assert_eq!(again, headers);
        assert_eq!(
            again.forwarded().unwrap().client_addr(),
            Some("2001:db8:cafe::17".parse().unwrap())
        );
    }

    #[cfg(feature = "http")]
    #[test]
    fn header_map_round_trip_keeps_non_ascii_values() {
        let headers = ClientHeaders::from_pairs(
            [
                ("App-Name", "Portefeuille été"),
                ("App-Platform", "desktop"),
                ("Forwarded", "for=198.51.100.17"),
            ],
            Integration::Proxying,
        )
        .unwrap();
        let map = headers.to_header_map();
        assert_eq!(map.len(), 3);
        assert_eq!(map["app-name"].as_bytes(), "Portefeuille été".as_bytes());
        assert_eq!(map["app-platform"], "desktop");
        assert_eq!(map[http::header::FORWARDED], "for=198.51.100.17");
        assert_eq!(
            ClientHeaders::from_header_map(&map, Integration::Proxying).unwrap(),
            headers
        );
    }

    proptest! {
        /// Any headers that validate come back unchanged through their pairs
        /// (and through a HeaderMap under `http`).
        #[test]
        fn client_headers_round_trip_through_their_pairs(
            app_name in "[ -~é€]{1,20}",
            app_version in proptest::option::of("[ -~]{0,12}"),
            platform in proptest::option::of(prop::sample::select(vec!["desktop", "mobile", "browser"])),
            user_agent in proptest::option::of("[ -~\t]{0,30}"),
            elements in proptest::option::of(proptest::collection::vec(element(), 1..4)),
            styles in proptest::collection::vec(style(), 1..4),
        ) {
            let forwarded = elements.map(|e| render(&e, &styles, 0));
            let mut sent: Vec<(&str, &str)> = vec![("App-Name", app_name.as_str())];
            if let Some(v) = &app_version { sent.push(("App-Version", v)); }
            if let Some(p) = platform { sent.push(("App-Platform", p)); }
            if let Some(v) = &user_agent { sent.push(("User-Agent", v)); }
            if let Some(f) = &forwarded { sent.push(("Forwarded", f)); }
            if let Ok(headers) = ClientHeaders::from_pairs(sent, Integration::Direct) {
                let pairs = pairs_of(&headers);
                prop_assert_eq!(pairs[0].0, "App-Name");
                prop_assert_eq!(&read_back(&pairs, Integration::Direct), &headers);
                #[cfg(feature = "http")]
                prop_assert_eq!(
                    ClientHeaders::from_header_map(&headers.to_header_map(), Integration::Direct).unwrap(),
                    headers
                );
            }
        }
    }
}

/// A port is one to five digits (RFC 7239 `port = 1*5DIGIT`): six digits
/// are refused even when their value would fit, and so is an empty port.
#[test]
fn a_node_port_has_one_to_five_digits() {
    use swaproute::client::forwarded::{Node, NodeError};
    let ok: Node = "192.0.2.1:00080".parse().unwrap();
    assert_eq!(ok.to_string(), "192.0.2.1:80");
    for bad in [
        "192.0.2.1:000080",
        "192.0.2.1:",
        "192.0.2.1:65536",
        "192.0.2.1:8a",
    ] {
        assert_eq!(bad.parse::<Node>(), Err(NodeError::InvalidPort), "{bad}");
    }
}
