use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use super::*;

fn v4(a: u8, b: u8, c: u8, d: u8) -> IpAddr {
    IpAddr::V4(Ipv4Addr::new(a, b, c, d))
}

fn ip(addr: IpAddr) -> Node {
    Node::Ip { addr, port: None }
}

fn fors(fwd: &Forwarded) -> Vec<Option<Node>> {
    fwd.elements()
        .iter()
        .map(|e| e.for_node().cloned())
        .collect()
}

fn roundtrip(fwd: &Forwarded) {
    let text = fwd.to_string();
    assert_eq!(&Forwarded::parse(&text).unwrap(), fwd, "{text}");
}

#[test]
fn rfc7239_obfuscated_quoted() {
    let fwd = Forwarded::parse(r#"for="_gazonk""#).unwrap();
    let id = ObfuscatedId::new("_gazonk").unwrap();
    assert_eq!(fors(&fwd), [Some(Node::Obfuscated { id, port: None })]);
    assert_eq!(fwd.client_addr(), None);
    assert_eq!(fwd.to_string(), "for=_gazonk");
    roundtrip(&fwd);
}

#[test]
fn rfc7239_ipv6_with_port_and_uppercase_name() {
    let fwd = Forwarded::parse(r#"For="[2001:db8:cafe::17]:4711""#).unwrap();
    let addr = IpAddr::V6(Ipv6Addr::new(0x2001, 0xdb8, 0xcafe, 0, 0, 0, 0, 0x17));
    assert_eq!(
        fors(&fwd),
        [Some(Node::Ip {
            addr,
            port: Some(NodePort::Number(4711))
        })]
    );
    assert_eq!(fwd.client_addr(), Some(addr));
    assert_eq!(fwd.client().unwrap().socket_addr().unwrap().port(), 4711);
    assert_eq!(fwd.to_string(), r#"for="[2001:db8:cafe::17]:4711""#);
    roundtrip(&fwd);
}

#[test]
fn rfc7239_for_proto_by() {
    let fwd = Forwarded::parse("for=192.0.2.60;proto=http;by=203.0.113.43").unwrap();
    let element = &fwd.elements()[0];
    assert_eq!(element.for_node(), Some(&ip(v4(192, 0, 2, 60))));
    assert_eq!(element.by(), Some(&ip(v4(203, 0, 113, 43))));
    assert_eq!(element.proto(), Some("http"));
    assert_eq!(element.host(), None);
    assert_eq!(fwd.to_string(), "for=192.0.2.60;by=203.0.113.43;proto=http");
    roundtrip(&fwd);
}

#[test]
fn rfc7239_two_hops() {
    let fwd = Forwarded::parse("for=192.0.2.43, for=198.51.100.17").unwrap();
    assert_eq!(
        fors(&fwd),
        [Some(ip(v4(192, 0, 2, 43))), Some(ip(v4(198, 51, 100, 17)))]
    );
    assert_eq!(fwd.client_addr(), Some(v4(192, 0, 2, 43)));
    roundtrip(&fwd);
}

#[test]
fn rfc7239_section_7_examples() {
    let fwd = Forwarded::parse(r#"for=192.0.2.43,for="[2001:db8:cafe::17]",for=unknown"#).unwrap();
    let v6 = IpAddr::V6(Ipv6Addr::new(0x2001, 0xdb8, 0xcafe, 0, 0, 0, 0, 0x17));
    assert_eq!(
        fors(&fwd),
        [
            Some(ip(v4(192, 0, 2, 43))),
            Some(ip(v6)),
            Some(Node::Unknown { port: None })
        ]
    );
    assert_eq!(
        fwd.to_string(),
        r#"for=192.0.2.43, for="[2001:db8:cafe::17]", for=unknown"#
    );

    let fwd = Forwarded::parse(
        "for=192.0.2.43,for=198.51.100.17;by=203.0.113.60;proto=http;host=example.com",
    )
    .unwrap();
    let second = &fwd.elements()[1];
    assert_eq!(second.by(), Some(&ip(v4(203, 0, 113, 60))));
    assert_eq!(second.host(), Some("example.com"));
    roundtrip(&fwd);

    let fwd = Forwarded::parse("for=_hidden, for=_SEVKISEK").unwrap();
    let ids: Vec<String> = fwd
        .elements()
        .iter()
        .map(|e| e.for_node().unwrap().to_string())
        .collect();
    assert_eq!(ids, ["_hidden", "_SEVKISEK"]);
    assert_eq!(fwd.client_addr(), None);
}

#[test]
fn unknown_and_obfuscated_carry_no_address_but_may_have_ports() {
    let fwd = Forwarded::parse(r#"for="unknown:_p0rt", for="_x.y-z:8080""#).unwrap();
    let obf = ObfuscatedId::new("_p0rt").unwrap();
    assert_eq!(
        fwd.client(),
        Some(&Node::Unknown {
            port: Some(NodePort::Obfuscated(obf))
        })
    );
    assert_eq!(fwd.client_addr(), None);
    assert_eq!(
        fwd.elements()[1].for_node().unwrap().port(),
        Some(&NodePort::Number(8080))
    );
    assert_eq!(
        Forwarded::parse("for=UNKNOWN").unwrap().client(),
        Some(&Node::Unknown { port: None })
    );
    roundtrip(&fwd);
}

#[test]
fn first_element_without_for_gives_no_client() {
    let fwd = Forwarded::parse("by=203.0.113.43, for=192.0.2.1").unwrap();
    assert_eq!(fwd.client(), None);
    assert_eq!(fwd.client_addr(), None);
}

#[test]
fn whitespace_empty_elements_and_empty_pairs_are_tolerated() {
    let fwd = Forwarded::parse(" \t, for=192.0.2.1 ;; proto=HTTPS ; ,\t, by=_b ,").unwrap();
    assert_eq!(fwd.elements().len(), 2);
    assert_eq!(fwd.elements()[0].proto(), Some("https"));
    assert_eq!(fwd.to_string(), "for=192.0.2.1;proto=https, by=_b");
}

#[test]
fn quoted_values_and_escapes() {
    let fwd =
        Forwarded::parse(r#"for="192.0.2.1";host="example.com:8443";Ext="a \"b\" \\ c";tok=x"#)
            .unwrap();
    let element = &fwd.elements()[0];
    assert_eq!(element.for_node(), Some(&ip(v4(192, 0, 2, 1))));
    assert_eq!(element.host(), Some("example.com:8443"));
    assert_eq!(element.extension("EXT"), Some(r#"a "b" \ c"#));
    assert_eq!(
        element.extensions().collect::<Vec<_>>(),
        [("ext", r#"a "b" \ c"#), ("tok", "x")]
    );
    assert_eq!(
        fwd.to_string(),
        r#"for=192.0.2.1;host="example.com:8443";ext="a \"b\" \\ c";tok=x"#
    );
    roundtrip(&fwd);
    let fwd = Forwarded::parse(r#"x="";y="\q""#).unwrap();
    assert_eq!(fwd.elements()[0].extension("x"), Some(""));
    assert_eq!(fwd.elements()[0].extension("y"), Some("q"));
    roundtrip(&fwd);
}

#[test]
fn malformed_syntax_is_rejected_with_position() {
    use ForwardedError as E;
    let cases: &[(&str, ForwardedError)] = &[
        ("", E::Empty),
        (" , ;, ", E::Empty),
        ("=1.2.3.4", E::ExpectedName { at: 0 }),
        ("for", E::ExpectedEquals { at: 3 }),
        ("for =1.2.3.4", E::ExpectedEquals { at: 3 }),
        ("for= 1.2.3.4", E::ExpectedValue { at: 4 }),
        ("for=", E::ExpectedValue { at: 4 }),
        ("for=192.0.2.1:80", E::NeedsQuoting { at: 4 }),
        ("for=[2001:db8::1]", E::NeedsQuoting { at: 4 }),
        ("for=\"192.0.2.1", E::UnterminatedQuote { at: 4 }),
        ("for=\"a\\", E::UnterminatedQuote { at: 4 }),
        ("x=\"a\nb\"", E::ControlInQuote { at: 4 }),
        ("x=\"a\\\u{7f}\"", E::ControlInQuote { at: 5 }),
        (
            "for=192.0.2.1 by=192.0.2.2",
            E::Unexpected { at: 14, found: 'b' },
        ),
        ("for=\"_a\"x", E::Unexpected { at: 8, found: 'x' }),
        (
            "for=1.2.3.4;For=_x",
            E::DuplicateParam { name: "for".into() },
        ),
        ("a=1;A=2", E::DuplicateParam { name: "a".into() }),
        ("host=", E::ExpectedValue { at: 5 }),
        ("host=\"\"", E::InvalidHost { at: 5 }),
        ("host=\"a b\"", E::InvalidHost { at: 5 }),
        ("proto=1http", E::InvalidProto { at: 6 }),
        ("proto=\"ht tp\"", E::InvalidProto { at: 6 }),
    ];
    for (text, expected) in cases {
        assert_eq!(&Forwarded::parse(text).unwrap_err(), expected, "{text:?}");
    }
}

#[test]
fn malformed_nodes_are_rejected() {
    use NodeError as N;
    let cases: &[(&str, NodeError)] = &[
        ("for=\"\"", N::Empty),
        ("for=example.com", N::InvalidName),
        ("for=192.0.2.256", N::InvalidName),
        ("for=010.0.0.1", N::InvalidName),
        ("for=\"2001:db8::1\"", N::Ipv6NeedsBrackets),
        ("for=\"[2001:db8::1\"", N::UnclosedBracket),
        ("for=\"[192.0.2.1]\"", N::InvalidIpv6),
        ("for=\"[::1]80\"", N::InvalidPort),
        ("for=\"[::1]:65536\"", N::InvalidPort),
        ("for=\"[::1]:123456\"", N::InvalidPort),
        ("for=\"[::1]:+80\"", N::InvalidPort),
        ("for=\"[::1]:\"", N::InvalidPort),
        ("for=\"1.2.3.4:_\"", N::InvalidPort),
        ("for=_", N::InvalidObfuscated),
        ("for=_a+b", N::InvalidObfuscated),
    ];
    for (text, reason) in cases {
        let expected = ForwardedError::InvalidNode {
            param: "for",
            at: 4,
            reason: *reason,
        };
        assert_eq!(&Forwarded::parse(text).unwrap_err(), &expected, "{text:?}");
    }
    let err = Forwarded::parse("by=nope").unwrap_err();
    assert_eq!(
        err,
        ForwardedError::InvalidNode {
            param: "by",
            at: 3,
            reason: N::InvalidName
        }
    );
}

#[test]
fn ports_keep_their_value_and_drop_leading_zeros() {
    let fwd = Forwarded::parse(r#"for="192.0.2.1:00080""#).unwrap();
    assert_eq!(fwd.client().unwrap().port(), Some(&NodePort::Number(80)));
    assert_eq!(fwd.to_string(), r#"for="192.0.2.1:80""#);
    let fwd = Forwarded::parse(r#"for="[::ffff:192.0.2.1]:65535""#).unwrap();
    assert_eq!(fwd.client().unwrap().port(), Some(&NodePort::Number(65535)));
    roundtrip(&fwd);
}

#[test]
fn length_cap_at_and_past_the_limit() {
    let head = "for=192.0.2.1;x=";
    let at_cap = [head, &"a".repeat(MAX_HEADER_LEN - head.len())].concat();
    assert_eq!(at_cap.len(), MAX_HEADER_LEN);
    assert!(Forwarded::parse(&at_cap).is_ok());
    let past = [at_cap.as_str(), "a"].concat();
    assert_eq!(
        Forwarded::parse(&past).unwrap_err(),
        ForwardedError::TooLong {
            len: MAX_HEADER_LEN + 1
        }
    );
}

#[test]
fn element_cap_at_and_past_the_limit() {
    let at_cap = alloc::vec!["for=unknown"; MAX_ELEMENTS].join(", ");
    assert_eq!(
        Forwarded::parse(&at_cap).unwrap().elements().len(),
        MAX_ELEMENTS
    );
    let past = [at_cap.as_str(), ", for=unknown"].concat();
    assert_eq!(
        Forwarded::parse(&past).unwrap_err(),
        ForwardedError::TooManyElements
    );
    // Empty elements do not count.
    let with_empties = [at_cap.as_str(), ", , ,"].concat();
    assert!(Forwarded::parse(&with_empties).is_ok());
}

#[test]
fn param_cap_at_and_past_the_limit() {
    let pairs: Vec<String> = (0..MAX_PARAMS).map(|i| alloc::format!("p{i}=v")).collect();
    let at_cap = pairs.join(";");
    assert_eq!(
        Forwarded::parse(&at_cap).unwrap().elements()[0]
            .extensions()
            .count(),
        MAX_PARAMS
    );
    let past = [at_cap.as_str(), ";q=v"].concat();
    assert_eq!(
        Forwarded::parse(&past).unwrap_err(),
        ForwardedError::TooManyParams
    );
}

#[test]
fn errors_map_to_invalid_request() {
    let api = Forwarded::parse("for").unwrap_err().to_api_error();
    assert_eq!(api.code(), ErrorCode::InvalidRequest);
    assert_eq!(api.http_status().as_u16(), 400);
    assert_eq!(
        api.details(),
        "invalid Forwarded header: expected `=` at byte 3"
    );
}

#[test]
fn node_conversions() {
    let sock: core::net::SocketAddr = "[2001:db8::1]:443".parse().unwrap();
    let node = Node::from(sock);
    assert_eq!(node.to_string(), "[2001:db8::1]:443");
    assert_eq!(node.to_string().parse::<Node>().unwrap(), node);
    assert_eq!(Node::from(v4(192, 0, 2, 9)).to_string(), "192.0.2.9");
    assert_eq!(
        ObfuscatedId::new("hidden"),
        Err(NodeError::InvalidObfuscated)
    );
}
