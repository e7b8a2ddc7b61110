use alloc::string::ToString;
use core::net::{IpAddr, Ipv4Addr};

use super::*;
use crate::error::{ApiError, ErrorCode};

fn direct<'a>(
    pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
) -> Result<ClientHeaders, HeaderError> {
    ClientHeaders::from_pairs(pairs, Integration::Direct)
}

#[test]
fn full_set_of_headers() {
    let headers = ClientHeaders::from_pairs(
        [
            ("APP-NAME", " my-wallet\t"),
            ("app-version", "4.2.0"),
            ("App-Platform", "browser"),
            ("user-agent", "Mozilla/5.0 (X11)"),
            ("Accept", "application/json"),
            ("forwarded", "for=192.0.2.43"),
        ],
        Integration::Proxying,
    )
    .unwrap();
    assert_eq!(headers.app_name(), "my-wallet");
    assert_eq!(headers.app_version(), Some("4.2.0"));
    assert_eq!(headers.app_platform(), Some(AppPlatform::Browser));
    assert_eq!(headers.user_agent(), Some("Mozilla/5.0 (X11)"));
    assert_eq!(
        headers.screening_addr(),
        Some(IpAddr::V4(Ipv4Addr::new(192, 0, 2, 43)))
    );
    assert_eq!(headers.forwarded().unwrap().to_string(), "for=192.0.2.43");
}

#[test]
fn only_app_name_is_required() {
    let headers = direct([("App-Name", "x")]).unwrap();
    assert_eq!(headers.app_version(), None);
    assert_eq!(headers.app_platform(), None);
    assert_eq!(headers.user_agent(), None);
    assert_eq!(headers.forwarded(), None);
    assert_eq!(headers.screening_addr(), None);
    // Empty optional headers count as absent.
    let headers = direct([
        ("App-Name", "x"),
        ("App-Version", ""),
        ("App-Platform", " "),
        ("Forwarded", ""),
    ])
    .unwrap();
    assert_eq!(headers.app_version(), None);
    assert_eq!(headers.app_platform(), None);
    assert_eq!(headers.forwarded(), None);
}

#[test]
fn missing_or_empty_app_name_is_401_missing_authentication() {
    for pairs in [
        &[][..],
        &[("App-Name", "")][..],
        &[("app-name", " \t ")][..],
        &[("App-Version", "1")][..],
        // Ruling 28: only whitespace or invisible characters is missing too.
        &[("App-Name", "\u{a0}")][..],
        &[("App-Name", "\u{200b}")][..],
        &[("App-Name", " \u{a0}\u{200b}\u{feff} ")][..],
        &[("App-Name", "\u{3000}"), ("app-name", "\u{3000}")][..],
        &[("App-Name", "\u{202e}")][..],
        &[("App-Name", "\u{0}")][..],
    ] {
        let err = direct(pairs.iter().copied()).unwrap_err();
        assert_eq!(err, HeaderError::MissingAppName);
        let api = ApiError::from(err);
        assert_eq!(api.code(), ErrorCode::Unauthorized);
        assert_eq!(api.http_status().as_u16(), 401);
        assert_eq!(api.details(), "missing authentication");
    }
}

#[test]
fn app_name_with_visible_text_is_kept() {
    // Visible text around an invisible character is not blank; the value is kept
    // as sent (App-Name identifies the integration, it is not screened).
    let headers = direct([("App-Name", "my\u{a0}wallet")]).unwrap();
    assert_eq!(headers.app_name(), "my\u{a0}wallet");
    let headers = direct([("App-Name", "钱包")]).unwrap();
    assert_eq!(headers.app_name(), "钱包");
    // A visible value with a control character is still malformed (400).
    assert_eq!(
        direct([("App-Name", "a\u{0}")]).unwrap_err(),
        HeaderError::ControlCharacter {
            header: ClientHeader::AppName,
            at: 1
        }
    );
}

#[test]
fn legacy_authorization_is_401_before_everything_else() {
    for pairs in [
        &[("App-Name", "x"), ("authorization", "Basic dXNlcjpwYXNz")][..],
        &[("AUTHORIZATION", "")][..],
    ] {
        let err = direct(pairs.iter().copied()).unwrap_err();
        assert_eq!(err, HeaderError::LegacyAuthorization);
        let api = err.to_api_error();
        assert_eq!(api.code(), ErrorCode::Unauthorized);
        assert_eq!(api.http_status().as_u16(), 401);
        assert!(
            api.details()
                .contains("legacy Authorization header is no longer accepted"),
            "{}",
            api.details()
        );
    }
}

#[test]
fn platform_is_informational_and_case_insensitive() {
    // Ruling 52: a known value in any case is that platform; any other is
    // kept as text and never refuses the request.
    for (text, expected) in [
        ("desktop", Some(AppPlatform::Desktop)),
        ("mobile", Some(AppPlatform::Mobile)),
        ("Mobile", Some(AppPlatform::Mobile)),
        ("MOBILE", Some(AppPlatform::Mobile)),
        ("Browser", Some(AppPlatform::Browser)),
        ("tv", None),
        ("desktop,mobile", None),
        ("android", None),
    ] {
        let headers = direct([("App-Name", "x"), ("App-Platform", text)]).unwrap();
        assert_eq!(headers.app_platform(), expected, "{text}");
        assert_eq!(headers.app_platform_text(), Some(text));
        let pairs: alloc::vec::Vec<_> = headers.to_pairs().collect();
        assert!(
            pairs.contains(&("App-Platform", alloc::string::String::from(text))),
            "{text}"
        );
    }
    let absent = direct([("App-Name", "x")]).unwrap();
    assert_eq!(
        (absent.app_platform(), absent.app_platform_text()),
        (None, None)
    );
}

#[test]
fn proxying_integration_needs_forwarded() {
    let err = ClientHeaders::from_pairs([("App-Name", "x")], Integration::Proxying).unwrap_err();
    assert_eq!(err, HeaderError::MissingForwarded);
    let api = err.to_api_error();
    assert_eq!(api.code(), ErrorCode::InvalidRequest);
    assert_eq!(api.http_status().as_u16(), 400);
    assert!(api.details().contains("Forwarded"));
    // Ruling 20 (docs/RULES.md): a Forwarded whose first `for` carries no IP
    // address is refused like a missing one.
    for (value, reason) in [
        ("for=unknown", NoClientAddress::Unknown),
        ("for=\"UNKNOWN:8080\"", NoClientAddress::Unknown),
        (
            "for=\"_hidden\"",
            NoClientAddress::Obfuscated(ObfuscatedId::new("_hidden").unwrap()),
        ),
        (
            "for=_SEVKISEK",
            NoClientAddress::Obfuscated(ObfuscatedId::new("_SEVKISEK").unwrap()),
        ),
        ("by=203.0.113.60", NoClientAddress::NoFor),
        ("proto=https;host=example.com", NoClientAddress::NoFor),
        // Only the first element counts: a later hop's address is a proxy's.
        ("by=_p, for=198.51.100.17", NoClientAddress::NoFor),
        ("for=unknown, for=198.51.100.17", NoClientAddress::Unknown),
    ] {
        let err = ClientHeaders::from_pairs(
            [("App-Name", "x"), ("Forwarded", value)],
            Integration::Proxying,
        )
        .unwrap_err();
        assert_eq!(err, HeaderError::NoClientAddress(reason), "{value}");
        let api = err.to_api_error();
        assert_eq!(api.code(), ErrorCode::InvalidRequest, "{value}");
        assert_eq!(api.http_status().as_u16(), 400, "{value}");
        // A direct integration's Forwarded is informational: accepted, no address.
        let direct = direct([("App-Name", "x"), ("Forwarded", value)]).unwrap();
        assert_eq!(direct.screening_addr(), None, "{value}");
    }
    assert_eq!(
        HeaderError::NoClientAddress(NoClientAddress::Unknown).to_string(),
        "Forwarded header carries no end-user address: its first `for` is `unknown`; \
         a proxying integration must send the end user's public IP address as the first `for`"
    );
}

#[test]
fn proxied_addresses_that_locate_nobody_are_refused() {
    // Ruling 29 (docs/RULES.md): each address the ruling names, with its range.
    for (value, addr, scope) in [
        ("for=0.0.0.0", "0.0.0.0", NonGlobal::Unspecified),
        ("for=\"[::1]\"", "::1", NonGlobal::Loopback),
        ("for=127.0.0.1", "127.0.0.1", NonGlobal::Loopback),
        ("for=10.0.0.1", "10.0.0.1", NonGlobal::Private),
        ("for=192.168.1.1", "192.168.1.1", NonGlobal::Private),
        (
            "for=255.255.255.255",
            "255.255.255.255",
            NonGlobal::Broadcast,
        ),
        (
            "for=\"[::ffff:127.0.0.1]:80\"",
            "::ffff:127.0.0.1",
            NonGlobal::Loopback,
        ),
        ("for=\"[fd00::1]\"", "fd00::1", NonGlobal::Private),
        ("for=\"[fe80::1]\"", "fe80::1", NonGlobal::LinkLocal),
        (
            "for=100.64.0.1;proto=https",
            "100.64.0.1",
            NonGlobal::Shared,
        ),
        ("for=224.0.0.1", "224.0.0.1", NonGlobal::Multicast),
    ] {
        let addr: IpAddr = addr.parse().unwrap();
        let err = ClientHeaders::from_pairs(
            [("App-Name", "x"), ("Forwarded", value)],
            Integration::Proxying,
        )
        .unwrap_err();
        assert_eq!(
            err,
            HeaderError::NoClientAddress(NoClientAddress::NotGlobal { addr, scope }),
            "{value}"
        );
        // The parsed header still reports what it says.
        let direct = direct([("App-Name", "x"), ("Forwarded", value)]).unwrap();
        assert_eq!(direct.forwarded().unwrap().client_addr(), Some(addr));
        assert_eq!(direct.screening_addr(), None, "{value}");
    }
    // Documentation ranges (RFC 7239's examples) and public addresses pass.
    for (value, addr) in [
        ("for=192.0.2.43", "192.0.2.43"),
        ("for=198.51.100.17", "198.51.100.17"),
        ("for=203.0.113.60", "203.0.113.60"),
        ("for=\"[2001:db8:cafe::17]:4711\"", "2001:db8:cafe::17"),
        ("for=8.8.8.8", "8.8.8.8"),
        // IPv4-mapped: given as the IPv4 address.
        ("for=\"[::ffff:8.8.4.4]\"", "8.8.4.4"),
    ] {
        let headers = ClientHeaders::from_pairs(
            [("App-Name", "x"), ("Forwarded", value)],
            Integration::Proxying,
        )
        .unwrap();
        assert_eq!(
            headers.screening_addr(),
            Some(addr.parse().unwrap()),
            "{value}"
        );
    }
}

#[test]
fn malformed_forwarded_is_400_naming_the_header() {
    let err = direct([("App-Name", "x"), ("Forwarded", "for=192.0.2.1:80")]).unwrap_err();
    assert_eq!(
        err,
        HeaderError::InvalidForwarded(ForwardedError::NeedsQuoting { at: 4 })
    );
    let api = err.to_api_error();
    assert_eq!(api.code(), ErrorCode::InvalidRequest);
    assert!(
        api.details().starts_with("invalid Forwarded header: "),
        "{}",
        api.details()
    );
}

#[test]
fn duplicates() {
    // Same value repeated: counted once.
    let headers = direct([("App-Name", "x"), ("app-name", "x ")]).unwrap();
    assert_eq!(headers.app_name(), "x");
    // Different values: refused, naming the header.
    let err = direct([
        ("App-Name", "x"),
        ("App-Platform", "mobile"),
        ("app-platform", "desktop"),
    ])
    .unwrap_err();
    assert_eq!(
        err,
        HeaderError::ConflictingValues {
            header: ClientHeader::AppPlatform
        }
    );
    assert_eq!(
        err.to_string(),
        "App-Platform header was sent more than once with different values"
    );
    // Forwarded fields form one list, in order.
    let headers = direct([
        ("Forwarded", "for=192.0.2.1"),
        ("App-Name", "x"),
        ("forwarded", "for=_proxy"),
    ])
    .unwrap();
    assert_eq!(
        headers.forwarded().unwrap().to_string(),
        "for=192.0.2.1, for=_proxy"
    );
    assert_eq!(
        headers.screening_addr(),
        Some(IpAddr::V4(Ipv4Addr::new(192, 0, 2, 1)))
    );
}

#[test]
fn outcome_does_not_depend_on_order() {
    let pairs = [
        ("App-Platform", "tv"),
        ("App-Version", "\u{1}"),
        ("App-Name", "x"),
    ];
    let mut reversed = pairs;
    reversed.reverse();
    let expected = HeaderError::ControlCharacter {
        header: ClientHeader::AppVersion,
        at: 0,
    };
    assert_eq!(direct(pairs).unwrap_err(), expected);
    assert_eq!(direct(reversed).unwrap_err(), expected);
}

#[test]
fn control_characters_are_refused_but_tab_is_fine() {
    let err = direct([("App-Name", "a\u{0}b")]).unwrap_err();
    assert_eq!(
        err,
        HeaderError::ControlCharacter {
            header: ClientHeader::AppName,
            at: 1
        }
    );
    assert_eq!(direct([("App-Name", "a\tb")]).unwrap().app_name(), "a\tb");
    let err = direct([("App-Name", "x"), ("User-Agent", "ua\r\nX: y")]).unwrap_err();
    assert_eq!(
        err,
        HeaderError::ControlCharacter {
            header: ClientHeader::UserAgent,
            at: 2
        }
    );
}

#[test]
fn header_length_cap_at_and_past_the_limit() {
    let at_cap = "a".repeat(MAX_HEADER_LEN);
    assert_eq!(
        direct([("App-Name", at_cap.as_str())])
            .unwrap()
            .app_name()
            .len(),
        MAX_HEADER_LEN
    );
    let past = "a".repeat(MAX_HEADER_LEN + 1);
    let err = direct([("App-Name", "x"), ("User-Agent", past.as_str())]).unwrap_err();
    assert_eq!(
        err,
        HeaderError::TooLong {
            header: ClientHeader::UserAgent,
            len: MAX_HEADER_LEN + 1
        }
    );
    assert_eq!(err.to_api_error().code(), ErrorCode::InvalidRequest);
}

#[test]
fn a_single_forwarded_field_has_the_whole_cap() {
    // One field adds no ", " separator: exactly MAX_HEADER_LEN bytes pass.
    let head = "for=192.0.2.1, x=";
    let at_cap = [head, &"a".repeat(MAX_HEADER_LEN - head.len())].concat();
    assert!(direct([("App-Name", "x"), ("Forwarded", at_cap.as_str())]).is_ok());
    let past = [at_cap.as_str(), "a"].concat();
    assert_eq!(
        direct([("App-Name", "x"), ("Forwarded", past.as_str())]).unwrap_err(),
        HeaderError::InvalidForwarded(ForwardedError::TooLong {
            len: MAX_HEADER_LEN + 1
        })
    );
}

#[test]
fn combined_forwarded_fields_share_the_cap() {
    // Two fields joined by ", " fill exactly MAX_HEADER_LEN bytes.
    let first = "for=192.0.2.1";
    let head = "x=";
    let fill = MAX_HEADER_LEN - first.len() - 2 - head.len();
    let second = [head, &"a".repeat(fill)].concat();
    let pairs = [
        ("App-Name", "x"),
        ("Forwarded", first),
        ("Forwarded", second.as_str()),
    ];
    assert!(direct(pairs).is_ok());
    let longer = [second.as_str(), "a"].concat();
    let err = direct([
        ("App-Name", "x"),
        ("Forwarded", first),
        ("Forwarded", longer.as_str()),
    ])
    .unwrap_err();
    assert_eq!(
        err,
        HeaderError::InvalidForwarded(ForwardedError::TooLong {
            len: MAX_HEADER_LEN + 1
        })
    );
}

#[test]
fn every_error_maps_to_its_code() {
    let cases = [
        (HeaderError::LegacyAuthorization, "UNAUTHORIZED", 401),
        (HeaderError::MissingAppName, "UNAUTHORIZED", 401),
        (
            HeaderError::TooLong {
                header: ClientHeader::AppName,
                len: 9000,
            },
            "INVALID_REQUEST",
            400,
        ),
        (
            HeaderError::ControlCharacter {
                header: ClientHeader::AppName,
                at: 0,
            },
            "INVALID_REQUEST",
            400,
        ),
        (
            HeaderError::NotUtf8 {
                header: ClientHeader::Forwarded,
            },
            "INVALID_REQUEST",
            400,
        ),
        (
            HeaderError::ConflictingValues {
                header: ClientHeader::AppName,
            },
            "INVALID_REQUEST",
            400,
        ),
        (HeaderError::InvalidPlatform, "INVALID_REQUEST", 400),
        (
            HeaderError::InvalidForwarded(ForwardedError::Empty),
            "INVALID_REQUEST",
            400,
        ),
        (HeaderError::MissingForwarded, "INVALID_REQUEST", 400),
        (
            HeaderError::NoClientAddress(NoClientAddress::NoFor),
            "INVALID_REQUEST",
            400,
        ),
    ];
    for (err, code, status) in cases {
        let api = ApiError::from(err.clone());
        assert_eq!(api.code().as_str(), code, "{err:?}");
        assert_eq!(api.http_status().as_u16(), status, "{err:?}");
        assert_eq!(api.details(), err.to_string());
    }
}

#[test]
fn header_names() {
    for header in ClientHeader::ALL {
        assert_eq!(
            ClientHeader::from_name(&header.as_str().to_ascii_uppercase()),
            Some(header)
        );
    }
    assert_eq!(ClientHeader::from_name("X-Forwarded-For"), None);
    assert_eq!("mobile".parse::<AppPlatform>(), Ok(AppPlatform::Mobile));
    assert_eq!(AppPlatform::Desktop.to_string(), "desktop");
}

#[test]
fn public_types_are_send_and_sync() {
    fn check<T: Send + Sync>() {}
    check::<ClientHeaders>();
    check::<HeaderError>();
    check::<Forwarded>();
    check::<ForwardedError>();
    check::<Node>();
    check::<Integration>();
    check::<NoClientAddress>();
    check::<NonGlobal>();
}

#[cfg(feature = "http")]
#[test]
fn header_map_input() {
    use http::{HeaderMap, HeaderValue};
    let mut map = HeaderMap::new();
    map.insert("app-name", HeaderValue::from_static("w"));
    map.append("forwarded", HeaderValue::from_static("for=192.0.2.1"));
    map.append("forwarded", HeaderValue::from_static("for=_p"));
    let headers = ClientHeaders::from_header_map(&map, Integration::Proxying).unwrap();
    assert_eq!(headers.forwarded().unwrap().elements().len(), 2);
    map.insert("user-agent", HeaderValue::from_bytes(b"caf\xe9").unwrap());
    let err = ClientHeaders::from_header_map(&map, Integration::Direct).unwrap_err();
    assert_eq!(
        err,
        HeaderError::NotUtf8 {
            header: ClientHeader::UserAgent
        }
    );
    // Non-ASCII UTF-8 (obs-text) is accepted.
    map.insert(
        "user-agent",
        HeaderValue::from_bytes("café".as_bytes()).unwrap(),
    );
    assert_eq!(
        ClientHeaders::from_header_map(&map, Integration::Direct)
            .unwrap()
            .user_agent(),
        Some("café")
    );
}

#[test]
fn a_refused_address_is_named_with_its_range_in_the_error_details() {
    // The details a proxying integration reads: each range by its short name
    // (one address per range of ruling 29, the names as documented on
    // `NonGlobal`).
    for (addr, range) in [
        ("0.0.0.1", "unspecified"),
        ("127.0.0.1", "loopback"),
        ("10.0.0.1", "private"),
        ("100.64.0.1", "shared (carrier-grade NAT)"),
        ("169.254.0.1", "link-local"),
        ("224.0.0.1", "multicast"),
        ("255.255.255.255", "broadcast"),
        ("240.0.0.1", "reserved"),
    ] {
        let err = ClientHeaders::from_pairs(
            [("App-Name", "x"), ("Forwarded", &["for=", addr].concat())],
            Integration::Proxying,
        )
        .unwrap_err();
        let expected = [
            "Forwarded header carries no end-user address: its first `for` is ",
            addr,
            ", a ",
            range,
            " address that locates nobody; a proxying integration must send \
             the end user's public IP address as the first `for`",
        ]
        .concat();
        assert_eq!(err.to_string(), expected);
        assert_eq!(err.to_api_error().details(), expected);
    }
}
