//! Screening (rulings 15, 20 and 27 (docs/RULES.md)) through the public API,
//! with property tests.
//! Case counts follow `PROPTEST_CASES`.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

use std::fmt::Write as _;

use proptest::prelude::*;
use swaproute::screening::{
    eip55_checksum, Address, AddressField, AddressTag, InvalidAddress, MarketState, NetworkKind,
    RegionCode, Restriction, ScreeningError, ScreeningPolicy, ScreeningRequest, TagField,
    TagWarning, UnknownRegion, MAX_ADDRESS_LEN,
};
use swaproute::{ApiError, AssetId};

/// EIP-55's published test vectors, mixed case.
const EIP55_MIXED: [&str; 4] = [
    "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
    "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
    "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB",
    "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb",
];

fn code_of(result: Result<impl Sized, ScreeningError>) -> (&'static str, u16) {
    let api = ApiError::from(result.err().expect("an error"));
    (api.code().as_str(), api.http_status().as_u16())
}

#[test]
fn eip55_vectors_pass_and_altered_case_fails_on_evm() {
    let policy = ScreeningPolicy::new();
    for text in EIP55_MIXED {
        assert!(
            policy
                .screen_address_text(AddressField::ToAddress, text, NetworkKind::Evm)
                .is_ok(),
            "{text}"
        );
        assert_eq!(eip55_checksum(&text.to_lowercase()).unwrap(), text);
        // Lower-case and upper-case spellings carry no checksum and pass.
        let lower = text.to_lowercase();
        let upper = format!("0x{}", text[2..].to_uppercase());
        assert!(policy
            .screen_address_text(AddressField::ToAddress, &lower, NetworkKind::Evm)
            .is_ok());
        assert!(policy
            .screen_address_text(AddressField::ToAddress, &upper, NetworkKind::Evm)
            .is_ok());
        // Swapping the case of the last letter breaks the checksum.
        let at = text.rfind(|c: char| c.is_ascii_alphabetic()).unwrap();
        let c = text.as_bytes()[at] as char;
        let flipped = if c.is_ascii_uppercase() {
            c.to_ascii_lowercase()
        } else {
            c.to_ascii_uppercase()
        };
        let altered = format!("{}{}{}", &text[..at], flipped, &text[at + 1..]);
        assert_eq!(
            code_of(policy.screen_address_text(
                AddressField::ToAddress,
                &altered,
                NetworkKind::Evm
            )),
            ("INVALID_ADDRESS", 400),
            "{altered}"
        );
        // Not an EVM network: no checksum check.
        assert!(policy
            .screen_address_text(AddressField::ToAddress, &altered, NetworkKind::Other)
            .is_ok());
    }
}

#[test]
fn zero_address_is_403_for_both_fields() {
    let policy = ScreeningPolicy::new();
    let zero = format!("0x{}", "0".repeat(40));
    for field in [AddressField::FromAddress, AddressField::ToAddress] {
        for network in [NetworkKind::Evm, NetworkKind::Other] {
            let result = policy.screen_address_text(field, &zero, network);
            assert_eq!(code_of(result.clone()), ("RESTRICTED_ADDRESS", 403));
            assert_eq!(
                ApiError::from(result.unwrap_err()).details(),
                format!("{} is restricted (the EVM zero address)", field.as_str())
            );
        }
    }
}

#[test]
fn malformed_addresses_are_invalid() {
    let policy = ScreeningPolicy::new();
    let too_long = "a".repeat(MAX_ADDRESS_LEN + 1);
    for (text, network) in [
        ("", NetworkKind::Other),
        (" ", NetworkKind::Other),
        (
            "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed ",
            NetworkKind::Other,
        ),
        ("bc1q ar0s", NetworkKind::Other),
        (too_long.as_str(), NetworkKind::Other),
        (
            "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAe",
            NetworkKind::Evm,
        ),
        (
            "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAedd",
            NetworkKind::Evm,
        ),
        ("5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", NetworkKind::Evm),
        (
            "0xZaAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
            NetworkKind::Evm,
        ),
        ("1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa", NetworkKind::Evm),
    ] {
        let result = policy.screen_address_text(AddressField::FromAddress, text, network);
        assert_eq!(
            code_of(result.clone()),
            ("INVALID_ADDRESS", 400),
            "{text:?}"
        );
        assert!(ApiError::from(result.unwrap_err())
            .details()
            .starts_with("fromAddress: "));
    }
}

#[test]
fn denylist_and_region_and_market() {
    let denied = Address::new("0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB").unwrap();
    let policy = ScreeningPolicy::new()
        .deny_address(&denied)
        .deny_address(&Address::new("TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf").unwrap())
        .restrict_region(RegionCode::new("KP").unwrap())
        .restrict_region(RegionCode::new("ca-on").unwrap())
        .set_market_state(AssetId::new("TSLAx").unwrap(), MarketState::Closed)
        .pause_asset(AssetId::new("LUNA").unwrap());

    let lower = "0xdbf03b407c01e7cd3cbea99509d93f8dddc8c6fb";
    assert_eq!(
        policy.screen_address_text(AddressField::ToAddress, lower, NetworkKind::Evm),
        Err(ScreeningError::RestrictedAddress {
            field: AddressField::ToAddress,
            reason: Restriction::Denylisted
        })
    );
    assert_eq!(
        code_of(policy.screen_address_text(
            AddressField::FromAddress,
            "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf",
            NetworkKind::Other
        )),
        ("RESTRICTED_ADDRESS", 403)
    );
    // Non-EVM addresses compare exactly.
    assert!(policy
        .screen_address_text(
            AddressField::FromAddress,
            "txyzopyrdj2d9xrtbg411xzz3km5vkaebf",
            NetworkKind::Other
        )
        .is_ok());

    assert_eq!(
        code_of(policy.screen_region(&"kp".parse().unwrap())),
        ("RESTRICTED_REGION", 403)
    );
    assert_eq!(
        code_of(policy.screen_region(&"KP-01".parse().unwrap())),
        ("RESTRICTED_REGION", 403)
    );
    assert_eq!(
        code_of(policy.screen_region(&"CA-ON".parse().unwrap())),
        ("RESTRICTED_REGION", 403)
    );
    assert!(policy.screen_region(&"CA".parse().unwrap()).is_ok());
    assert!(policy.screen_region(&"CA-BC".parse().unwrap()).is_ok());

    assert_eq!(
        code_of(policy.check_asset(&AssetId::new("TSLAx").unwrap())),
        ("MARKET_CLOSED", 409)
    );
    assert_eq!(
        code_of(policy.check_asset(&AssetId::new("LUNA").unwrap())),
        ("ASSET_PAUSED", 409)
    );
    assert!(policy.check_asset(&AssetId::new("BTC").unwrap()).is_ok());
}

#[test]
fn whole_request_with_null_from_address_and_tag_warning() {
    let policy = ScreeningPolicy::new();
    let btc = AssetId::new("BTC").unwrap();
    let xlm = AssetId::new("XLM").unwrap();
    let to = Address::new("GA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVSGZ").unwrap();
    let request = ScreeningRequest {
        region: None,
        from_asset: &btc,
        from_network: NetworkKind::Other,
        from_address: None,
        from_address_tag: None,
        to_asset: &xlm,
        to_network: NetworkKind::Other,
        to_address: &to,
        to_address_tag: None,
    };
    assert_eq!(
        policy.screen(&request).unwrap(),
        vec![TagWarning {
            field: TagField::ToAddressTag,
            asset: xlm.clone()
        }]
    );
    let memo = AddressTag::new("1234").unwrap();
    let tagged = ScreeningRequest {
        to_address_tag: Some(&memo),
        ..request
    };
    assert_eq!(policy.screen(&tagged).unwrap(), vec![]);
}

#[test]
fn unknown_region_is_refused_when_regions_are_restricted_unless_allowed() {
    // Ruling 20: location screening that cannot run fails closed.
    let btc = AssetId::new("BTC").unwrap();
    let eth = AssetId::new("ETH").unwrap();
    let to = Address::new("0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB").unwrap();
    let request = ScreeningRequest {
        region: None,
        from_asset: &btc,
        from_network: NetworkKind::Other,
        from_address: None,
        from_address_tag: None,
        to_asset: &eth,
        to_network: NetworkKind::Evm,
        to_address: &to,
        to_address_tag: None,
    };
    let restricting = ScreeningPolicy::new().restrict_region(RegionCode::new("KP").unwrap());
    assert_eq!(
        restricting.screen(&request),
        Err(ScreeningError::UnknownRegion)
    );
    assert_eq!(
        code_of(restricting.screen(&request)),
        ("RESTRICTED_REGION", 403)
    );
    // The region is checked first: an unknown region is refused before a bad address.
    let zero = Address::new(&format!("0x{}", "0".repeat(40))).unwrap();
    let zero_request = ScreeningRequest {
        to_address: &zero,
        ..request
    };
    assert_eq!(
        restricting.screen(&zero_request),
        Err(ScreeningError::UnknownRegion)
    );
    // Explicitly allowed: the old behaviour, on request.
    let lenient = restricting.clone().on_unknown_region(UnknownRegion::Allow);
    assert_eq!(lenient.screen(&request), Ok(vec![]));
    // A known, unrestricted region passes under both settings.
    let fr = RegionCode::new("FR").unwrap();
    let located = ScreeningRequest {
        region: Some(&fr),
        ..request
    };
    assert_eq!(restricting.screen(&located), Ok(vec![]));
    assert_eq!(lenient.screen(&located), Ok(vec![]));
    // No restricted region: nothing to check.
    assert_eq!(ScreeningPolicy::new().screen(&request), Ok(vec![]));
}

fn case_variants() -> impl Strategy<Value = Vec<bool>> {
    proptest::collection::vec(any::<bool>(), 40)
}

proptest! {
    #[test]
    fn screening_never_panics_on_arbitrary_text(text in any::<String>(), evm in any::<bool>()) {
        let policy = ScreeningPolicy::new().deny_address(&Address::new("0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB").unwrap());
        let network = if evm { NetworkKind::Evm } else { NetworkKind::Other };
        for field in [AddressField::FromAddress, AddressField::ToAddress] {
            if let Ok(address) = policy.screen_address_text(field, &text, network) {
                prop_assert_eq!(address.as_str(), text.as_str());
            }
        }
        let _ = AddressTag::new(&text);
        let _ = RegionCode::new(&text);
        let _ = eip55_checksum(&text);
    }

    #[test]
    fn screening_never_panics_on_evm_like_text(text in "0[xX][0-9a-fA-FgG]{38,42}") {
        let policy = ScreeningPolicy::new();
        let _ = policy.screen_address_text(AddressField::ToAddress, &text, NetworkKind::Evm);
    }

    #[test]
    fn checksummed_addresses_pass_and_denylist_ignores_case(bytes in any::<[u8; 20]>(), flips in case_variants()) {
        let lower: String = bytes.iter().fold(String::from("0x"), |mut hex, b| {
            write!(hex, "{b:02x}").unwrap();
            hex
        });
        let checksummed = eip55_checksum(&lower).unwrap();
        prop_assert_eq!(checksummed.to_lowercase(), lower.clone());
        prop_assert!(Address::for_network(&checksummed, NetworkKind::Evm).is_ok());
        prop_assert_eq!(eip55_checksum(&checksummed).unwrap(), checksummed.clone());

        // Any case spelling of a denylisted address is restricted.
        let spelled: String = "0x".chars().chain(lower[2..].chars().zip(flips.iter()).map(|(c, up)| if *up { c.to_ascii_uppercase() } else { c })).collect();
        let policy = ScreeningPolicy::new().deny_address(&Address::new(&checksummed).unwrap());
        prop_assert_eq!(
            policy.screen_address_text(AddressField::ToAddress, &spelled, NetworkKind::Evm),
            Err(ScreeningError::RestrictedAddress { field: AddressField::ToAddress, reason: Restriction::Denylisted })
        );

        // Not denylisted: a mixed-case spelling passes exactly when it is the checksum.
        let open = ScreeningPolicy::new();
        let has_lower = spelled.bytes().skip(2).any(|b| b.is_ascii_lowercase());
        let has_upper = spelled.bytes().skip(2).any(|b| b.is_ascii_uppercase());
        let result = open.screen_address_text(AddressField::ToAddress, &spelled, NetworkKind::Evm);
        if has_lower && has_upper && spelled != checksummed {
            prop_assert_eq!(
                result,
                Err(ScreeningError::InvalidAddress { field: AddressField::ToAddress, reason: InvalidAddress::EvmChecksum })
            );
        } else {
            prop_assert!(result.is_ok());
        }
    }

    #[test]
    fn region_codes_are_case_insensitive(code in "[a-zA-Z]{2}(-[a-zA-Z0-9]{1,3})?") {
        let parsed = RegionCode::new(&code).unwrap();
        prop_assert_eq!(parsed.as_str(), code.to_uppercase());
        prop_assert_eq!(RegionCode::new(&code.to_lowercase()).unwrap(), parsed.clone());
        let policy = ScreeningPolicy::new().restrict_region(parsed.country());
        prop_assert!(policy.screen_region(&parsed).is_err());
    }
}

#[test]
fn public_types_are_send_and_sync() {
    fn check<T: Send + Sync>() {}
    check::<Address>();
    check::<AddressTag>();
    check::<RegionCode>();
    check::<ScreeningPolicy>();
    check::<ScreeningRequest<'static>>();
    check::<ScreeningError>();
    check::<TagWarning>();
    check::<MarketState>();
    check::<NetworkKind>();
    check::<UnknownRegion>();
}
