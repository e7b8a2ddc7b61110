//! V4 quote request validation with real-shaped JSON bodies.
#![allow(clippy::arithmetic_side_effects)]

use std::collections::BTreeSet;

use swaproute::caip::{AssetDirectory, AssetIdForm, ChainId};
use swaproute::screening::{Address, ScreeningPolicy};
use swaproute::v4::{
    invalid_body, select_quote, Quote, QuoteError, QuotePolicy, QuoteRequest, QuoteRequestBody,
    SigningNetwork,
};
use swaproute::{ApiError, Decimal, EpochMillis, ErrorCode, Slippage, SwapMode};

const BTC: &str = "bip122:000000000019d6689c085ae165831e93/slip44:0";
const ETH: &str = "eip155:1/slip44:60";
const USDC_BASE: &str = "eip155:8453/erc20:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
const ATOM: &str = "cosmos:cosmoshub-3/slip44:118";
const EVM_TO: &str = "0x52908400098527886E0F7030069857D2E4169EE7";
const BTC_TO: &str = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq";

struct Fixture {
    assets: AssetDirectory,
    chains: BTreeSet<ChainId>,
    screening: ScreeningPolicy,
}

impl Fixture {
    fn new() -> Self {
        let assets = AssetDirectory::try_from_pairs([
            ("BTC".parse().unwrap(), BTC.parse().unwrap()),
            ("ETH".parse().unwrap(), ETH.parse().unwrap()),
            (
                "USDCbasemainnetB5A52617".parse().unwrap(),
                USDC_BASE.parse().unwrap(),
            ),
            ("ATOM".parse().unwrap(), ATOM.parse().unwrap()),
        ])
        .unwrap();
        // Cosmos is known but not supported.
        let chains = [
            "eip155:1",
            "eip155:8453",
            "bip122:000000000019d6689c085ae165831e93",
        ]
        .iter()
        .map(|c| c.parse().unwrap())
        .collect();
        let screening = ScreeningPolicy::new()
            .deny_address(&Address::new("0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359").unwrap());
        Fixture {
            assets,
            chains,
            screening,
        }
    }

    fn policy(&self) -> QuotePolicy<'_> {
        QuotePolicy {
            assets: &self.assets,
            supported_chains: &self.chains,
            screening: &self.screening,
            region: None,
        }
    }

    fn validate(&self, json: &str) -> Result<QuoteRequest, ApiError> {
        let body: QuoteRequestBody = serde_json::from_str(json).map_err(invalid_body)?;
        QuoteRequest::validate(&body, &self.policy())
    }

    fn code(&self, json: &str) -> ErrorCode {
        self.validate(json).unwrap_err().code()
    }
}

fn body(fields: &str) -> String {
    format!("{{{fields}}}")
}

#[test]
fn accepts_a_caip19_exact_in_request_with_defaults() {
    let f = Fixture::new();
    let request = f
        .validate(&body(&format!(
            r#""fromAsset":"{ETH}","toAsset":"{BTC}","amount":"0.25","toAddress":"{BTC_TO}""#
        )))
        .unwrap();
    assert_eq!(request.swap_mode(), SwapMode::ExactIn);
    assert_eq!(request.slippage(), Slippage::DEFAULT);
    assert_eq!(request.slippage().percent(), Decimal::TWO);
    assert_eq!(request.amount().to_string(), "0.25");
    assert_eq!(request.from_asset().legacy().as_str(), "ETH");
    assert_eq!(request.to_asset().caip19().to_string(), BTC);
    assert_eq!(request.from_address(), None);
    assert_eq!(request.signing_network(), Some(SigningNetwork::Evm));
}

#[test]
fn accepts_legacy_ids_numbers_exact_out_and_string_slippage() {
    let f = Fixture::new();
    let request = f
        .validate(&format!(
            r#"{{"fromAsset":"BTC","toAsset":"USDCbasemainnetB5A52617","amount":1500.5,"swapMode":"ExactOut",
               "slippage":"0.5","fromAddress":"{BTC_TO}","toAddress":"{EVM_TO}","unknownKey":[1,2]}}"#
        ))
        .unwrap();
    assert_eq!(request.swap_mode(), SwapMode::ExactOut);
    assert_eq!(request.amount().to_string(), "1500.5");
    assert_eq!(request.slippage().percent().to_string(), "0.5");
    assert_eq!(request.to_asset().caip19().to_string(), USDC_BASE);
    assert_eq!(request.from_address().unwrap().as_str(), BTC_TO);
    assert_eq!(request.signing_network(), Some(SigningNetwork::Bitcoin));
}

#[test]
fn slippage_bounds_are_inclusive() {
    let f = Fixture::new();
    for (slippage, ok) in [
        ("0", true),
        ("100", true),
        ("\"100.0\"", true),
        ("0.0001", true),
        ("100.0001", false),
        ("-0.1", false),
        ("\"-1\"", false),
        ("\"abc\"", false),
        ("101", false),
        ("null", true),
    ] {
        let json = format!(
            r#"{{"fromAsset":"ETH","toAsset":"BTC","amount":"1","slippage":{slippage},"toAddress":"{BTC_TO}"}}"#
        );
        match f.validate(&json) {
            Ok(request) if ok => {
                if slippage == "null" {
                    assert_eq!(request.slippage(), Slippage::DEFAULT);
                }
            }
            Err(error) if !ok => {
                assert_eq!(error.code(), ErrorCode::InvalidRequest, "{slippage}");
                assert!(error.details().contains("slippage"), "{}", error.details());
            }
            other => panic!("slippage {slippage}: {other:?}"),
        }
    }
}

#[test]
fn invalid_or_zero_amounts() {
    let f = Fixture::new();
    for amount in [
        "0",
        "\"0\"",
        "\"0.000\"",
        "-1",
        "\"-1\"",
        "\"1e5\"",
        "\".5\"",
        "\"\"",
        "\"1,5\"",
        "1e400",
    ] {
        let json = format!(
            r#"{{"fromAsset":"ETH","toAsset":"BTC","amount":{amount},"toAddress":"{BTC_TO}"}}"#
        );
        let error = f.validate(&json).unwrap_err();
        assert!(
            matches!(
                error.code(),
                ErrorCode::InvalidAmount | ErrorCode::InvalidRequest
            ),
            "{amount}: {error}"
        );
        if amount != "1e400" {
            assert_eq!(error.code(), ErrorCode::InvalidAmount, "{amount}: {error}");
        }
    }
    let error = f.validate(&format!(
        r#"{{"fromAsset":"ETH","toAsset":"BTC","amount":"0","toAddress":"{BTC_TO}"}}"#
    ));
    assert_eq!(
        error.unwrap_err().details(),
        "amount must be greater than zero"
    );
}

#[test]
fn unresolved_assets() {
    let f = Fixture::new();
    let cases = [
        r#""fromAsset":"DOGE","toAsset":"BTC""#,
        r#""fromAsset":"eip155:1/slip44:61","toAsset":"BTC""#,
        r#""fromAsset":"ETH","toAsset":"eip155:1/slip44""#,
        r#""fromAsset":"ETH","toAsset":"EIP155:1/slip44:60""#,
        r#""fromAsset":"ETH","toAsset":"eip155:1/erc721:0xabc/1""#,
        r#""fromAsset":"","toAsset":"BTC""#,
    ];
    for assets in cases {
        let json = body(&format!(r#"{assets},"amount":"1","toAddress":"{BTC_TO}""#));
        let error = f.validate(&json).unwrap_err();
        assert_eq!(
            error.code(),
            ErrorCode::UnresolvedAsset,
            "{assets}: {error}"
        );
        assert_eq!(error.http_status().as_u16(), 400);
    }
    let error = f.validate(&body(&format!(
        r#""fromAsset":"ETH","toAsset":"EIP155:1/slip44:60","amount":"1","toAddress":"{BTC_TO}""#
    )));
    assert_eq!(
        error.unwrap_err().details(),
        "toAsset: invalid CAIP-19 asset type: namespace contains 'E' at byte 0, outside [-a-z0-9]"
    );
}

#[test]
fn same_asset_both_sides_in_either_form() {
    let f = Fixture::new();
    for (from, to) in [("ETH", "ETH"), ("ETH", ETH), (ETH, ETH)] {
        let json = body(&format!(
            r#""fromAsset":"{from}","toAsset":"{to}","amount":"1","toAddress":"{EVM_TO}""#
        ));
        let error = f.validate(&json).unwrap_err();
        assert_eq!(error.code(), ErrorCode::InvalidRequest, "{from} {to}");
        assert!(error.details().contains("same asset"));
    }
}

#[test]
fn unsupported_networks() {
    let f = Fixture::new();
    let json = body(&format!(
        r#""fromAsset":"ATOM","toAsset":"BTC","amount":"1","toAddress":"{BTC_TO}""#
    ));
    let error = f.validate(&json).unwrap_err();
    assert_eq!(error.code(), ErrorCode::UnsupportedNetwork);
    assert_eq!(
        error.details(),
        "fromAsset: network cosmos:cosmoshub-3 is not supported"
    );
    let json = body(&format!(
        r#""fromAsset":"BTC","toAsset":"{ATOM}","amount":"1","toAddress":"cosmos1abc""#
    ));
    assert_eq!(f.code(&json), ErrorCode::UnsupportedNetwork);
}

#[test]
fn restricted_addresses_as_in_v3() {
    let f = Fixture::new();
    for (field, address) in [
        ("toAddress", "0x0000000000000000000000000000000000000000"),
        ("toAddress", "0xfb6916095ca1df60bb79ce92ce3ea74c37c5d359"),
        ("fromAddress", "0X0000000000000000000000000000000000000000"),
    ] {
        let mut json = format!(
            r#""fromAsset":"ETH","toAsset":"USDCbasemainnetB5A52617","amount":"1","{field}":"{address}""#
        );
        if field == "fromAddress" {
            json = json + r#","toAddress":""# + EVM_TO + "\"";
        }
        let error = f.validate(&body(&json)).unwrap_err();
        assert_eq!(error.code(), ErrorCode::RestrictedAddress, "{address}");
        assert_eq!(error.http_status().as_u16(), 403);
    }
    // Empty or malformed addresses are INVALID_ADDRESS.
    for address in ["", "0x12 34", "0x1234"] {
        let json = body(&format!(
            r#""fromAsset":"BTC","toAsset":"ETH","amount":"1","toAddress":"{address}""#
        ));
        assert_eq!(f.code(&json), ErrorCode::InvalidAddress, "{address:?}");
    }
}

#[test]
fn missing_fields_and_bad_bodies() {
    let f = Fixture::new();
    for (json, field) in [
        (
            format!(r#"{{"toAsset":"BTC","amount":"1","toAddress":"{BTC_TO}"}}"#),
            "fromAsset",
        ),
        (
            format!(r#"{{"fromAsset":"ETH","amount":"1","toAddress":"{BTC_TO}"}}"#),
            "toAsset",
        ),
        (
            format!(r#"{{"fromAsset":"ETH","toAsset":"BTC","toAddress":"{BTC_TO}"}}"#),
            "amount",
        ),
        (
            r#"{"fromAsset":"ETH","toAsset":"BTC","amount":"1"}"#.to_string(),
            "toAddress",
        ),
    ] {
        let error = f.validate(&json).unwrap_err();
        assert_eq!(error.code(), ErrorCode::InvalidRequest);
        assert_eq!(error.details(), format!("missing field `{field}`"));
    }
    for json in [
        "",
        "[]",
        "{\"fromAsset\":1}",
        "{\"amount\":true}",
        "not json",
    ] {
        assert_eq!(f.code(json), ErrorCode::InvalidRequest, "{json}");
    }
}

#[test]
fn swap_mode_values() {
    let f = Fixture::new();
    for (mode, expected) in [
        ("\"ExactIn\"", Ok(SwapMode::ExactIn)),
        ("\"ExactOut\"", Ok(SwapMode::ExactOut)),
        ("null", Ok(SwapMode::ExactIn)),
        ("\"exactOut\"", Err(ErrorCode::UnsupportedSwapMode)),
        ("\"\"", Err(ErrorCode::UnsupportedSwapMode)),
    ] {
        let json = format!(
            r#"{{"fromAsset":"ETH","toAsset":"BTC","amount":"1","swapMode":{mode},"toAddress":"{BTC_TO}"}}"#
        );
        assert_eq!(
            f.validate(&json)
                .map(|r| r.swap_mode())
                .map_err(|e| e.code()),
            expected,
            "{mode}"
        );
    }
}

fn quote(id: &str, from: &str, to: &str, expiry: u64, sponsored: bool) -> Quote {
    let mut json = format!(
        r#"{{"id":"{id}","fromAsset":"ETH","toAsset":"BTC","fromAmount":"{from}","toAmount":"{to}","swapMode":"ExactIn","slippage":2,"expiry":{expiry}"#
    );
    if sponsored {
        json.push_str(r#","sponsoredByCampaignId":"camp-1""#);
    }
    json.push('}');
    serde_json::from_str(&json).unwrap()
}

#[test]
fn quote_expiry_and_selection() {
    let now = EpochMillis::new(1_000);
    let fresh = quote("b", "1", "0.05", 2_000, false);
    assert!(fresh.ensure_fresh(now).is_ok());
    let stale = quote("a", "1", "0.06", 1_000, false);
    let error = stale.ensure_fresh(now).unwrap_err();
    assert_eq!(error.code(), ErrorCode::QuoteExpired);
    assert_eq!(error.http_status().as_u16(), 410);
    assert_eq!(
        error,
        QuoteError::Expired {
            quote: "a".parse().unwrap(),
            expiry: EpochMillis::new(1_000),
            now
        }
    );
    assert_eq!(
        ApiError::from(error).details(),
        "quote a expired at 1000ms (now 1000ms)"
    );
    assert_eq!(
        select_quote(SwapMode::ExactIn, std::slice::from_ref(&stale), now),
        Err(QuoteError::AllExpired)
    );
    assert_eq!(
        select_quote(SwapMode::ExactOut, &[], now),
        Err(QuoteError::Unavailable {
            mode: SwapMode::ExactOut
        })
    );

    assert_eq!(
        select_quote(SwapMode::ExactIn, &[], now)
            .unwrap_err()
            .code(),
        ErrorCode::RouteUnavailable
    );
    assert_eq!(
        select_quote(SwapMode::ExactIn, std::slice::from_ref(&stale), now)
            .unwrap_err()
            .code(),
        ErrorCode::QuoteExpired
    );
    let candidates = [
        stale,
        fresh.clone(),
        quote("c", "0.9", "0.04", 2_000, false),
        quote("d", "1", "0.05", 2_000, true),
    ];
    assert_eq!(
        select_quote(SwapMode::ExactIn, &candidates, now)
            .unwrap()
            .id
            .as_str(),
        "b"
    );
    assert_eq!(
        select_quote(SwapMode::ExactOut, &candidates, now)
            .unwrap()
            .id
            .as_str(),
        "c"
    );
    let only_sponsored = [quote("d", "1", "0.05", 2_000, true)];
    assert_eq!(
        select_quote(SwapMode::ExactOut, &only_sponsored, now)
            .unwrap_err()
            .code(),
        ErrorCode::RouteUnavailable
    );
    // The choice does not depend on order.
    let mut reversed = candidates.clone();
    reversed.reverse();
    assert_eq!(
        select_quote(SwapMode::ExactIn, &reversed, now)
            .unwrap()
            .id
            .as_str(),
        "b"
    );
}

#[test]
fn quote_renders_in_the_selected_form() {
    let f = Fixture::new();
    let q = quote("q", "1", "0.05", 2_000, false);
    let caip = q
        .in_form(&f.assets, AssetIdForm::from_query(None).unwrap())
        .unwrap();
    let json = serde_json::to_value(&caip).unwrap();
    assert_eq!(json["fromAsset"], ETH);
    assert_eq!(json["toAsset"], BTC);
    assert_eq!(json["fromAmount"], "1");
    let legacy = caip
        .in_form(&f.assets, AssetIdForm::from_query(Some("false")).unwrap())
        .unwrap();
    assert_eq!(legacy, q);
    let mut unknown = q;
    unknown.to_asset = "DOGE".parse().unwrap();
    let error = unknown.in_form(&f.assets, AssetIdForm::Caip19).unwrap_err();
    assert_eq!(ApiError::from(error).code(), ErrorCode::UnresolvedAsset);
}

#[test]
fn signing_networks_are_a_closed_set() {
    for (chain, expected) in [
        ("eip155:1", Some(SigningNetwork::Evm)),
        ("eip155:8453", Some(SigningNetwork::Evm)),
        (
            "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp",
            Some(SigningNetwork::Solana),
        ),
        (
            "bip122:000000000019d6689c085ae165831e93",
            Some(SigningNetwork::Bitcoin),
        ),
        ("tron:0x2b6653dc", Some(SigningNetwork::Tron)),
        ("cosmos:cosmoshub-3", None),
        ("hedera:mainnet", None),
    ] {
        let chain: ChainId = chain.parse().unwrap();
        assert_eq!(SigningNetwork::of_chain(&chain), expected, "{chain}");
        assert_eq!(
            SigningNetwork::gets_ready_to_sign(&chain),
            expected.is_some()
        );
    }
    let namespaces: Vec<_> = SigningNetwork::ALL.iter().map(|n| n.namespace()).collect();
    assert_eq!(namespaces, ["eip155", "solana", "bip122", "tron"]);
    let names: Vec<_> = SigningNetwork::ALL.iter().map(|n| n.as_str()).collect();
    assert_eq!(names, ["EVM", "Solana", "Bitcoin", "TRON"]);
    let shown: Vec<_> = SigningNetwork::ALL
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(shown, names);
}

/// Ruling 32 for V4 (issue 14 item 13): a quote with a zero amount is never
/// chosen, even though it would win on amount (ExactOut: the least
/// `fromAmount`; ExactIn with a zero `toAmount` never wins anyway, so it is
/// checked through `defect`).
#[test]
fn a_quote_with_a_zero_amount_is_never_selected() {
    use swaproute::quote::{QuoteDefect, QuoteField};
    let now = EpochMillis::new(1_000);
    let absurd = quote("a", "0", "0.05", 2_000, false);
    assert_eq!(
        absurd.defect(),
        Some(QuoteDefect::NotPositive {
            field: QuoteField::FromAmount,
            value: Decimal::ZERO
        })
    );
    let no_output = quote("z", "1", "0", 2_000, false);
    assert_eq!(
        no_output.defect(),
        Some(QuoteDefect::NotPositive {
            field: QuoteField::ToAmount,
            value: Decimal::ZERO
        })
    );
    let sound = quote("b", "1", "0.05", 2_000, false);
    assert_eq!(sound.defect(), None);

    let candidates = [absurd.clone(), sound.clone(), no_output.clone()];
    let chosen = select_quote(SwapMode::ExactOut, &candidates, now).unwrap();
    assert_eq!(chosen.id.as_str(), "b");
    // Only defective candidates: no route, not "expired".
    let error = select_quote(SwapMode::ExactIn, &[absurd, no_output], now).unwrap_err();
    assert_eq!(error.code(), ErrorCode::RouteUnavailable);
    // A negative amount does not even decode (the amounts are non-negative).
    let negative = r#"{"id":"n","fromAsset":"ETH","toAsset":"BTC","fromAmount":"-1","toAmount":"1","swapMode":"ExactIn","slippage":2,"expiry":2000}"#;
    assert!(serde_json::from_str::<Quote>(negative).is_err());
}

/// Tags are kept as sent, and a missing tag for an asset whose deposits need
/// one is a warning, not an error.
#[test]
fn tags_are_kept_and_missing_ones_warned_of() {
    use swaproute::screening::TagField;
    let mut f = Fixture::new();
    let tagged = f
        .validate(&body(&format!(
            r#""fromAsset":"{ETH}","toAsset":"{BTC}","amount":"0.25","toAddress":"{BTC_TO}",
               "fromAddressTag":"refund-7","toAddressTag":"payout-9""#
        )))
        .unwrap();
    assert_eq!(
        tagged
            .from_address_tag()
            .map(swaproute::screening::AddressTag::as_str),
        Some("refund-7")
    );
    assert_eq!(
        tagged
            .to_address_tag()
            .map(swaproute::screening::AddressTag::as_str),
        Some("payout-9")
    );
    assert!(tagged.tag_warnings().is_empty());

    f.screening = f.screening.require_tag("BTC".parse().unwrap());
    let untagged = f
        .validate(&body(&format!(
            r#""fromAsset":"{ETH}","toAsset":"{BTC}","amount":"0.25","toAddress":"{BTC_TO}""#
        )))
        .unwrap();
    assert_eq!(untagged.to_address_tag(), None);
    let warnings: Vec<_> = untagged
        .tag_warnings()
        .iter()
        .map(|w| (w.field, w.asset.as_str().to_owned()))
        .collect();
    assert_eq!(warnings, [(TagField::ToAddressTag, "BTC".to_owned())]);
}

/// `is_expired` is the former name of `is_expired_at`: expired from the
/// expiry instant on.
#[test]
#[allow(deprecated)]
fn the_former_expiry_name_gives_the_same_answer() {
    let q = quote("q-1", "1", "0.05", 1_785_000_000_000, false);
    assert!(!q.is_expired(EpochMillis::new(1_784_999_999_999)));
    assert!(q.is_expired(EpochMillis::new(1_785_000_000_000)));
    assert!(q.is_expired(EpochMillis::new(1_785_000_000_001)));
}

/// An amount of another JSON type is refused with a message that says what
/// was expected.
#[test]
fn a_wire_number_of_another_type_says_what_is_expected() {
    use swaproute::decimal::WireNumber;
    for value in [
        serde_json::json!(true),
        serde_json::json!([1]),
        serde_json::json!({}),
    ] {
        let error = serde_json::from_value::<WireNumber>(value.clone())
            .unwrap_err()
            .to_string();
        assert!(
            error.contains("a decimal as a JSON number or string"),
            "{value}: {error}"
        );
    }
}

/// serde_json's `arbitrary_precision` hands a number over as a one-entry map
/// holding its exact text; a map with any other key is not a number.
#[test]
fn a_wire_number_reads_the_exact_text_of_arbitrary_precision() {
    use serde::de::value::{Error, MapDeserializer};
    use serde::Deserialize;
    use swaproute::decimal::WireNumber;
    let number = |key: &str, text: &str| {
        WireNumber::deserialize(MapDeserializer::<_, Error>::new(
            [(key.to_owned(), text.to_owned())].into_iter(),
        ))
    };
    match number(
        "$serde_json::private::Number",
        "0.10000000000000000000000001",
    ) {
        Ok(WireNumber::Decimal(value)) => {
            assert_eq!(
                value,
                "0.10000000000000000000000001".parse::<Decimal>().unwrap()
            );
        }
        other => panic!("{other:?}"),
    }
    let error = number("value", "0.1").unwrap_err().to_string();
    assert!(
        error.contains("a decimal as a JSON number or string"),
        "{error}"
    );
}
