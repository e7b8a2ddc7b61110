//! Address tags in order bodies (ruling 28 (docs/RULES.md)): a numeric tag
//! keeps its digits or is refused, and blank or invisible text is no tag.
//!
//! Bodies are JSON text, so numbers reach the decoder exactly as a client
//! writes them; `cargo test --all-features` runs the same cases through
//! serde_json's `arbitrary_precision` decoding. Expected values come from the
//! ruling, never from the code's output.
#![allow(clippy::arithmetic_side_effects)]

use proptest::prelude::*;
use swaproute::order::{
    FixedOrderRequest, FloatOrderRequest, RawFixedOrderRequest, RawFloatOrderRequest, RequestErrors,
};
use swaproute::wire::RequestField;
use swaproute::ErrorCode;

/// A valid fixed body with `"toAddressTag": <tag_json>`.
fn fixed(key: &str, tag_json: &str) -> Result<FixedOrderRequest, RequestErrors> {
    let text = format!(
        r#"{{"fromAmount": "120", "fromAddress": "rEb8TK3gBgk5auZkwc6sHnwrGVJH8DuaLh",
            "toAmount": "0.0021", "toAddress": "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
            "pairId": "XRP_BTC", "{key}": {tag_json}}}"#
    );
    let raw: RawFixedOrderRequest = serde_json::from_str(&text).unwrap();
    FixedOrderRequest::validate(&raw)
}

/// A valid floating body with `"<key>": <tag_json>`.
fn float(key: &str, tag_json: &str) -> Result<FloatOrderRequest, RequestErrors> {
    let text = format!(
        r#"{{"quoteId": "b7e5c1d2-8f4a-4c3e-9a1b-2d6f0e7c9a11", "pairId": "XRP_ETH",
            "fromAmount": "120", "toAmount": "0.05", "fromAddress": "rEb8TK3gBgk5auZkwc6sHnwrGVJH8DuaLh",
            "toAddress": "0x52908400098527886E0F7030069857D2E4169EE7", "{key}": {tag_json}}}"#
    );
    let raw: RawFloatOrderRequest = serde_json::from_str(&text).unwrap();
    FloatOrderRequest::validate(&raw)
}

/// The tag both flows keep for `tag_json` under `key`.
fn kept(key: &str, tag_json: &str) -> Option<String> {
    let from_fixed = fixed(key, tag_json).unwrap_or_else(|e| panic!("{tag_json}: {:?}", e.all()));
    let from_float = float(key, tag_json).unwrap_or_else(|e| panic!("{tag_json}: {:?}", e.all()));
    let pick = |p: &swaproute::order::Parties| {
        match key {
            "toAddressTag" => p.to_address_tag(),
            _ => p.from_address_tag(),
        }
        .map(|t| t.as_str().to_owned())
    };
    let a = pick(from_fixed.parties());
    assert_eq!(a, pick(from_float.parties()), "{tag_json}");
    a
}

/// The single error both flows report for `tag_json` under `key`.
fn refused(key: &str, tag_json: &str) -> (RequestField, ErrorCode, String) {
    let mut seen = Vec::new();
    for errors in [
        fixed(key, tag_json).unwrap_err(),
        float(key, tag_json).unwrap_err(),
    ] {
        assert_eq!(errors.all().len(), 1, "{tag_json}: {:?}", errors.all());
        let first = errors.first();
        seen.push((
            first.field(),
            first.code(),
            first.to_api_error().details().to_owned(),
        ));
    }
    assert_eq!(seen[0], seen[1], "{tag_json}");
    seen.swap_remove(0)
}

const TAG_FIELDS: [(&str, RequestField); 2] = [
    ("toAddressTag", RequestField::ToAddressTag),
    ("fromAddressTag", RequestField::FromAddressTag),
];

#[test]
fn a_number_past_u64_is_refused_not_rounded() {
    // The issue's case: through a double this became "98765432109876540000".
    for (key, field) in TAG_FIELDS {
        let (got_field, code, details) = refused(key, "98765432109876543210");
        assert_eq!((got_field, code), (field, ErrorCode::InvalidRequest));
        assert!(details.starts_with(&format!("{key}: ")), "{details}");
        assert!(details.contains("as a string"), "{details}");
    }
    // Sent as a string, every digit is kept.
    assert_eq!(
        kept("toAddressTag", r#""98765432109876543210""#).as_deref(),
        Some("98765432109876543210")
    );
}

#[test]
fn whole_numbers_up_to_u64_max_keep_their_digits() {
    for (json, digits) in [
        ("0", "0"),
        ("3302145", "3302145"),
        // 2^53 + 1: the first integer a double cannot hold.
        ("9007199254740993", "9007199254740993"),
        ("18446744073709551615", "18446744073709551615"),
    ] {
        for (key, _) in TAG_FIELDS {
            assert_eq!(kept(key, json).as_deref(), Some(digits), "{json}");
        }
    }
}

#[test]
fn other_numbers_are_refused_with_a_request_for_a_string() {
    for json in [
        "18446744073709551616", // u64::MAX + 1
        "3.5",
        "1.0", // whole, but written as a fraction: its digits are not known exactly
        "1e3",
        "12345678901234567.0",
        "-1",
        "-0",
        "1E+2",
    ] {
        let (field, code, details) = refused("toAddressTag", json);
        assert_eq!(
            (field, code),
            (RequestField::ToAddressTag, ErrorCode::InvalidRequest),
            "{json}"
        );
        assert!(
            details.contains("must be sent as a string"),
            "{json}: {details}"
        );
    }
}

#[test]
fn blank_and_invisible_tags_are_invalid_address() {
    for json in [
        r#"" ""#,
        r#""   ""#,
        r#""\u200b""#,
        r#""\u00a0""#,
        r#""\u202e123""#,
        r#""\ufeff1""#,
        r#""12\u2066""#,
        r#""\t""#,
        r#""12\n34""#,
    ] {
        for (key, field) in TAG_FIELDS {
            let (got_field, code, details) = refused(key, json);
            assert_eq!(
                (got_field, code),
                (field, ErrorCode::InvalidAddress),
                "{json}: {details}"
            );
            assert!(details.starts_with(&format!("{key}: ")), "{details}");
        }
    }
    let (_, _, details) = refused("toAddressTag", r#""\u202e123""#);
    assert_eq!(
        details,
        "toAddressTag: address tag contains the invisible character U+202E at byte 0"
    );
    let (_, _, details) = refused("toAddressTag", r#""\u00a0""#);
    assert_eq!(
        details,
        "toAddressTag: address tag is blank: it holds only spaces or invisible characters"
    );
}

#[test]
fn visible_tags_and_absence_are_unchanged() {
    for (json, expected) in [
        ("null", None),
        (r#""""#, None),
        (r#""memo with spaces""#, Some("memo with spaces")),
        (r#""ünïcödé 漢字""#, Some("ünïcödé 漢字")),
        (r#""3302145""#, Some("3302145")),
    ] {
        assert_eq!(kept("toAddressTag", json).as_deref(), expected, "{json}");
    }
}

proptest! {
    /// Any `u64` sent as a JSON number is kept digit for digit.
    #[test]
    fn every_u64_keeps_its_digits(n in any::<u64>()) {
        let json = n.to_string();
        prop_assert_eq!(kept("toAddressTag", &json), Some(json.clone()));
    }

    /// Any integer literal past `u64::MAX` is refused, never rounded.
    #[test]
    fn every_larger_integer_is_refused(digits in "[1-9][0-9]{20,40}") {
        let (field, code, _) = refused("toAddressTag", &digits);
        prop_assert_eq!((field, code), (RequestField::ToAddressTag, ErrorCode::InvalidRequest));
    }

    /// A visible tag with an invisible character inserted anywhere is refused.
    #[test]
    fn an_inserted_invisible_character_is_refused(
        tag in "[A-Za-z0-9 ]{0,12}[A-Za-z0-9][A-Za-z0-9 ]{0,12}",
        at in any::<prop::sample::Index>(),
        invisible in prop::sample::select(vec![
            '\u{200b}', '\u{200c}', '\u{200d}', '\u{2060}', '\u{feff}', '\u{00a0}', '\u{202a}',
            '\u{202e}', '\u{2066}', '\u{2069}', '\u{00ad}', '\u{3000}', '\u{2028}', '\u{0007}',
        ]),
    ) {
        let chars: Vec<char> = tag.chars().collect();
        let i = at.index(chars.len() + 1);
        let mut sent: String = chars[..i].iter().collect();
        sent.push(invisible);
        sent.extend(&chars[i..]);
        let json = serde_json::to_string(&sent).unwrap();
        let (field, code, _) = refused("toAddressTag", &json);
        prop_assert_eq!((field, code), (RequestField::ToAddressTag, ErrorCode::InvalidAddress));
    }
}
