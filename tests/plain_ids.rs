//! Ids are plain text (ruling 37 in docs/RULES.md; issue 28 item 7): asset,
//! pair, rate and order ids holding whitespace, quotes, control, zero-width,
//! bidirectional or other invisible characters are refused from every
//! decoder; a CSV body may start with one byte-order mark, dropped.

use proptest::prelude::*;
use serde_json::json;
use swaproute::discovery::PairsResponse;
use swaproute::{AssetId, CampaignId, InvalidId, OrderId, PairId, QuoteId, RateId, RatesResponse};

/// Characters no id may hold, listed here from the Unicode tables (not from
/// the crate): whitespace (U+0020 included), the three ASCII quotes, C0/C1
/// controls, zero-width characters, bidi marks, embeddings, overrides and
/// isolates, the BOM, word joiner, soft hyphen, Hangul fillers, variation
/// selectors, tag characters, the Braille blank.
const FORBIDDEN: &[char] = &[
    ' ',
    '\t',
    '\n',
    '\r',
    '\u{b}',
    '\u{c}',
    '\u{85}',
    '\u{a0}',
    '\u{1680}',
    '\u{2000}',
    '\u{2007}',
    '\u{200a}',
    '\u{2028}',
    '\u{2029}',
    '\u{202f}',
    '\u{205f}',
    '\u{3000}',
    '"',
    '\'',
    '`',
    '\u{0}',
    '\u{1b}',
    '\u{7f}',
    '\u{9f}',
    '\u{200b}',
    '\u{200c}',
    '\u{200d}',
    '\u{200e}',
    '\u{200f}',
    '\u{202a}',
    '\u{202b}',
    '\u{202c}',
    '\u{202d}',
    '\u{202e}',
    '\u{2066}',
    '\u{2067}',
    '\u{2068}',
    '\u{2069}',
    '\u{061c}',
    '\u{feff}',
    '\u{2060}',
    '\u{ad}',
    '\u{115f}',
    '\u{3164}',
    '\u{ffa0}',
    '\u{fe0f}',
    '\u{e0100}',
    '\u{e0041}',
    '\u{2800}',
    '\u{034f}',
];

/// Visible characters every id decoder keeps: ASCII punctuation of real rate
/// ids, letters of other scripts, emoji.
const VISIBLE: &[char] = &[
    '@', '(', ')', '!', '&', '$', '+', '/', '=', '-', '.', ':', '~', 'é', 'ж', '漢', '😀', '١',
];

/// An ASCII asset id of 1 to 12 letters and digits.
fn asset() -> impl Strategy<Value = String> {
    "[A-Za-z0-9]{1,12}"
}

/// Every decoder an id arrives through, each answering "refused?".
fn refused_everywhere(text: &str, pair_text: &str) -> Vec<(&'static str, bool)> {
    let rate = json!([{"amount":{"assetId":"ETH","value":33.1},"expiry":4_102_444_800_000u64,
        "id":text,"max":{"assetId":"BTC","value":8},"min":{"assetId":"BTC","value":0.001},
        "minerFee":{"assetId":"ETH","value":0.0002},"pairId":"BTC_ETH"}]);
    let asset_in_rate = json!([{"amount":{"assetId":text,"value":33.1},
        "expiry":4_102_444_800_000u64,"id":"r","max":{"assetId":"BTC","value":8},
        "min":{"assetId":"BTC","value":0.001},"minerFee":{"assetId":text,"value":0.0002},
        "pairId":pair_text}]);
    vec![
        ("AssetId::new", AssetId::new(text).is_err()),
        ("RateId::new", RateId::new(text).is_err()),
        ("OrderId::new", OrderId::new(text).is_err()),
        ("QuoteId::new", QuoteId::new(text).is_err()),
        ("CampaignId::new", CampaignId::new(text).is_err()),
        ("PairId::new", PairId::new(pair_text).is_err()),
        (
            "AssetId json",
            serde_json::from_value::<AssetId>(json!(text)).is_err(),
        ),
        (
            "PairId json",
            serde_json::from_value::<PairId>(json!(pair_text)).is_err(),
        ),
        (
            "rate id in rates json",
            serde_json::from_value::<RatesResponse>(rate).is_err(),
        ),
        (
            "asset id in rates json",
            serde_json::from_value::<RatesResponse>(asset_in_rate).is_err(),
        ),
        ("pairs csv", PairsResponse::from_csv(pair_text).is_err()),
        (
            "pairs csv, second field",
            PairsResponse::from_csv(&format!("LTC_XMR,{pair_text}")).is_err(),
        ),
        (
            "pairs json",
            serde_json::from_value::<PairsResponse>(json!([
                {"id": pair_text, "from": text, "to": "ETH"}
            ]))
            .is_err(),
        ),
    ]
}

proptest! {
    /// One forbidden character anywhere in an id is refused by every decoder.
    #[test]
    fn a_hidden_character_anywhere_is_refused_by_every_decoder(
        id in asset(),
        at in 0usize..=12,
        c in proptest::sample::select(FORBIDDEN),
    ) {
        let at = at.min(id.len());
        let text = format!("{}{c}{}", &id[..at], &id[at..]);
        let pair_text = format!("{text}_ETH");
        for (decoder, refused) in refused_everywhere(&text, &pair_text) {
            // The one exception: a CSV body may start with one byte-order mark.
            let bom_first = decoder == "pairs csv" && text.starts_with('\u{feff}');
            prop_assert_eq!(refused, !bom_first, "{} on {:?}", decoder, text);
        }
    }

    /// Visible punctuation and letters are kept by every decoder.
    #[test]
    fn visible_characters_are_kept(
        id in asset(),
        c in proptest::sample::select(VISIBLE),
    ) {
        let text = format!("{id}{c}");
        let pair_text = format!("{text}_ETH");
        for (decoder, refused) in refused_everywhere(&text, &pair_text) {
            prop_assert!(!refused, "{decoder} refused {text:?}");
        }
    }
}

#[test]
fn the_refusal_names_the_character_and_its_offset() {
    assert_eq!(
        AssetId::new("BT\u{200b}C"),
        Err(InvalidId::NotPlainText {
            found: '\u{200b}',
            at: 2
        })
    );
    let error = RateId::new("a\u{202e}b").unwrap_err().to_string();
    assert!(error.contains("U+202E"), "{error}");
    assert!(error.contains("byte 1"), "{error}");
}

#[test]
fn a_csv_body_may_start_with_one_byte_order_mark() {
    // Issue 28: the mark went into the first asset id (\u{feff}BTC).
    let pairs = PairsResponse::from_csv("\u{feff}BTC_ETH,LTC_XMR").unwrap();
    assert_eq!(pairs.pairs()[0].from().as_str(), "BTC");
    assert_eq!(pairs.pairs()[0].id().as_str(), "BTC_ETH");
    // Dropped as the trailing newline is: alone, or with one.
    assert!(PairsResponse::from_csv("\u{feff}")
        .unwrap()
        .pairs()
        .is_empty());
    assert_eq!(
        PairsResponse::from_csv("\u{feff}BTC_ETH\r\n")
            .unwrap()
            .to_csv(),
        "BTC_ETH"
    );
    // Anywhere else it is refused: a second mark, a later field, inside.
    for body in [
        "\u{feff}\u{feff}BTC_ETH",
        "BTC_ETH,\u{feff}LTC_XMR",
        "BTC\u{feff}_ETH",
        "BTC_ETH\u{feff}",
    ] {
        assert!(PairsResponse::from_csv(body).is_err(), "{body:?}");
    }
    // The JSON form never takes one.
    assert!(serde_json::from_value::<PairsResponse>(json!([{"id": "\u{feff}BTC_ETH"}])).is_err());
}

#[test]
fn csv_quotes_are_refused_not_kept_in_the_ids() {
    for body in ["\"BTC_ETH\"", "\"BTC_ETH\",LTC_XMR", "BTC_'ETH'"] {
        assert!(PairsResponse::from_csv(body).is_err(), "{body:?}");
    }
}

#[test]
fn the_real_payloads_ids_are_still_accepted() {
    // Real rate ids (docs/RULES.md ruling 3's examples and the payloads):
    // punctuation, base64 with + / =, a campaign suffix after ':'.
    for id in [
        "5KXSc7Tvo@hBKqFYY@kv5Z(Jr3(J1T",
        "WDtkwtDDb!xHKas1&VOq$g6)YYZYn9",
        "ch@nge(N0w)!&$-7f3k9q2m4x8v1z5",
        "eyJwcm92aWRlciI6ImZpeGVkZmxvYXQiLCJwYWlyIjoiQlRDX0VUSCIsInRzIjoxNzg1MzMzOTE5MDAwfQ+/Zm9vYmFy==",
        "d5b1a8f2-6c3e-4e8b-9f0a-2b7c4d1e9a63:spring-2026",
        "119a72d1-74c9-4f6a-8c01-1cdd9474031b",
    ] {
        assert_eq!(RateId::new(id).unwrap().as_str(), id);
    }
    for name in ["rates-response.json", "rates-response-legacy.json"] {
        let text = std::fs::read_to_string(format!(
            "{}/tests/payloads/{name}",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap();
        serde_json::from_str::<RatesResponse>(&text).unwrap();
    }
    let csv = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/payloads/pairs-response.csv"
    ))
    .unwrap();
    PairsResponse::from_csv(&csv).unwrap();
}

#[test]
fn order_bodies_and_order_resources_refuse_hidden_characters_in_ids() {
    use swaproute::order::{FixedOrderRequest, Order, RawFixedOrderRequest};
    // A body's pairId with a zero-width space: the field is refused.
    let raw: Result<RawFixedOrderRequest, _> = serde_json::from_value(json!({
        "fromAmount": "0.5", "toAmount": "16", "fromAddress": null,
        "toAddress": "0x52908400098527886E0F7030069857D2E4169EE7",
        "pairId": "BTC\u{200b}_ETH", "swapMode": "ExactIn"}));
    let refused = match raw {
        Err(_) => true,
        Ok(raw) => FixedOrderRequest::validate(&raw).is_err(),
    };
    assert!(refused);
    // An order resource whose id, rateId or pairId hides a character.
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/payloads/order-status-response.json"
    ))
    .unwrap();
    let order: serde_json::Value = serde_json::from_str(&text).unwrap();
    serde_json::from_value::<Order>(order.clone()).unwrap();
    for (key, value) in [
        ("id", "u8jzPde0\u{2060}IgxLd6G"),
        ("rateId", "ZXhvZHVz\u{feff}"),
        ("pairId", "LTC_USDT\u{202c}"),
        ("id", "u8jz Pde0IgxLd6G"),
    ] {
        let mut changed = order.clone();
        changed[key] = json!(value);
        assert!(
            serde_json::from_value::<Order>(changed).is_err(),
            "{key} {value:?}"
        );
    }
}

/// An id made only of the banned ASCII (quotes, a space) is refused at its
/// first character, however the check is split between its fast and its
/// close path.
#[test]
fn an_id_of_quotes_alone_is_refused() {
    for (text, found) in [("\"", '"'), ("'`", '\''), ("`\"'", '`'), (" ", ' ')] {
        assert_eq!(
            RateId::new(text),
            Err(InvalidId::NotPlainText { found, at: 0 }),
            "{text:?}"
        );
    }
    // Printable ASCII but the banned four passes in one piece.
    assert!(RateId::new("!#$%&()*+,-./09:;<=>?@AZ[\\]^_az{|}~").is_ok());
}
