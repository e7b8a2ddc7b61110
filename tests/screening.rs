//! Screening (rulings 15, 20 and 27 (docs/RULES.md)) through the public API,
//! with property tests.
//! Case counts follow `PROPTEST_CASES`.
#![allow(clippy::arithmetic_side_effects)]

use std::fmt::Write as _;

use proptest::prelude::*;
use swaproute::screening::{
    eip55_checksum, Address, AddressEncoding, AddressField, AddressTag, InvalidAddress,
    MarketState, NetworkKind, RegionCode, Restriction, ScreeningError, ScreeningPolicy,
    ScreeningRequest, TagField, TagWarning, UnknownRegion, MAX_ADDRESS_LEN,
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

// ------------------------------------------------------------ ruling 27

const DENYLISTED: Result<(), ScreeningError> = Err(ScreeningError::RestrictedAddress {
    field: AddressField::ToAddress,
    reason: Restriction::Denylisted,
});

/// Addresses in a case-insensitive encoding, each with a valid checksum checked
/// against the BIP-173 / BIP-350 reference code or the CashAddr specification.
const CASE_INSENSITIVE: [(&str, AddressEncoding); 9] = [
    // The ruling's example (bech32, P2WPKH).
    (
        "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
        AddressEncoding::Bech32,
    ),
    // BIP-173's segwit example, upper case as published.
    (
        "BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4",
        AddressEncoding::Bech32,
    ),
    // BIP-350's taproot example.
    (
        "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0",
        AddressEncoding::Bech32m,
    ),
    // The same 20-byte program under other HRPs, encoded with the BIP-173
    // reference encoder.
    (
        "ltc1qar0srrr7xfkvy5l643lydnw9re59gtzz24wl4s",
        AddressEncoding::Bech32,
    ),
    (
        "cosmos1ar0srrr7xfkvy5l643lydnw9re59gtzzcn2sfd",
        AddressEncoding::Bech32,
    ),
    // The CashAddr specification's examples.
    (
        "bitcoincash:qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a",
        AddressEncoding::CashAddr,
    ),
    (
        "bitcoincash:qr95sy3j9xwd2ap32xkykttr4cvcu7as4y0qverfuy",
        AddressEncoding::CashAddr,
    ),
    // EVM hex (EIP-55).
    (
        "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
        AddressEncoding::EvmHex,
    ),
    (
        "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb",
        AddressEncoding::EvmHex,
    ),
];

/// Real base58 addresses: Bitcoin P2PKH (the genesis address) and P2SH, XRP,
/// Tron, Solana.
const BASE58: [&str; 5] = [
    "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa",
    "3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy",
    "rEb8TK3gBgk5auZkwc6sHnwrGVJH8DuaLh",
    "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf",
    "4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T",
];

fn screen_other(policy: &ScreeningPolicy, text: &str) -> Result<(), ScreeningError> {
    policy
        .screen_address_text(AddressField::ToAddress, text, NetworkKind::Other)
        .map(|_| ())
}

#[test]
fn bech32_denylist_matches_either_case() {
    // The case: denylisted in lower case, sent in upper case.
    let lower = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq";
    let upper = "BC1QAR0SRRR7XFKVY5L643LYDNW9RE59GTZZWF5MDQ";
    let policy = ScreeningPolicy::new().deny_address(&Address::new(lower).unwrap());
    assert_eq!(screen_other(&policy, upper), DENYLISTED);
    assert_eq!(screen_other(&policy, lower), DENYLISTED);
    assert_eq!(
        code_of(screen_other(&policy, upper)),
        ("RESTRICTED_ADDRESS", 403)
    );
    // And the other way round: a cosmos address denylisted in upper case.
    let cosmos = "cosmos1ar0srrr7xfkvy5l643lydnw9re59gtzzcn2sfd";
    let policy =
        ScreeningPolicy::new().deny_address(&Address::new(&cosmos.to_uppercase()).unwrap());
    assert_eq!(screen_other(&policy, cosmos), DENYLISTED);
    assert_eq!(
        policy.screen_address_text(AddressField::FromAddress, cosmos, NetworkKind::Bech32),
        Err(ScreeningError::RestrictedAddress {
            field: AddressField::FromAddress,
            reason: Restriction::Denylisted
        })
    );
}

#[test]
fn mixed_case_bech32_never_passes_a_denylist() {
    // BIP-173 forbids mixed case, so this is not a valid bech32 string; it is
    // still compared as its lower-case form.
    let mixed = "bc1QAR0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq";
    let denied = ScreeningPolicy::new()
        .deny_address(&Address::new("bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq").unwrap());
    for network in [NetworkKind::Other, NetworkKind::Bech32, NetworkKind::Evm] {
        // Restriction is checked before syntax.
        assert_eq!(
            denied
                .screen_address_text(AddressField::ToAddress, mixed, network)
                .map(|_| ()),
            DENYLISTED,
            "{network:?}"
        );
    }
    // Not denylisted: on a bech32 network it is malformed; elsewhere it is just text.
    let open = ScreeningPolicy::new();
    assert_eq!(
        open.screen_address_text(AddressField::ToAddress, mixed, NetworkKind::Bech32),
        Err(ScreeningError::InvalidAddress {
            field: AddressField::ToAddress,
            reason: InvalidAddress::Bech32MixedCase
        })
    );
    assert_eq!(screen_other(&open, mixed), Ok(()));
}

#[test]
fn cashaddr_prefix_is_optional_and_case_is_ignored() {
    let prefixed = "bitcoincash:qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a";
    let bare = "qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a";
    for denied in [
        prefixed,
        bare,
        &prefixed.to_uppercase(),
        &bare.to_uppercase(),
    ] {
        let policy = ScreeningPolicy::new().deny_address(&Address::new(denied).unwrap());
        for sent in [
            prefixed.to_owned(),
            bare.to_owned(),
            prefixed.to_uppercase(),
            bare.to_uppercase(),
            "BitcoinCash:qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a".to_owned(),
        ] {
            assert_eq!(
                screen_other(&policy, &sent),
                DENYLISTED,
                "{denied} / {sent}"
            );
        }
        // Another address is not matched.
        assert_eq!(
            screen_other(&policy, "qr95sy3j9xwd2ap32xkykttr4cvcu7as4y0qverfuy"),
            Ok(())
        );
    }
    assert_eq!(
        Address::new(bare).unwrap().canonical(),
        prefixed,
        "a bare CashAddr gains its prefix"
    );
    // The checksum covers the prefix: under another prefix it is another string.
    let testnet = Address::new("bchtest:qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a").unwrap();
    assert_eq!(testnet.encoding(), AddressEncoding::Other);
}

#[test]
fn base58_and_other_encodings_compare_exactly() {
    let policy = BASE58.iter().fold(ScreeningPolicy::new(), |p, a| {
        p.deny_address(&Address::new(a).unwrap())
    });
    for address in BASE58 {
        assert_eq!(
            Address::new(address).unwrap().encoding(),
            AddressEncoding::Other
        );
        assert_eq!(screen_other(&policy, address), DENYLISTED, "{address}");
        for other in [address.to_lowercase(), address.to_uppercase()] {
            assert_eq!(screen_other(&policy, &other), Ok(()), "{other}");
        }
    }
    // A base58 address holds `1`s, but it is not bech32: a bech32 network
    // refuses it, other networks take it.
    assert_eq!(
        ScreeningPolicy::new().screen_address_text(
            AddressField::ToAddress,
            BASE58[0],
            NetworkKind::Bech32
        ),
        Err(ScreeningError::InvalidAddress {
            field: AddressField::ToAddress,
            reason: InvalidAddress::Bech32Syntax
        })
    );
}

#[test]
fn bech32_network_checks_the_checksum() {
    let open = ScreeningPolicy::new();
    for (address, encoding) in &CASE_INSENSITIVE[..5] {
        assert_eq!(Address::new(address).unwrap().encoding(), *encoding);
        assert!(open
            .screen_address_text(AddressField::ToAddress, address, NetworkKind::Bech32)
            .is_ok());
    }
    // One character changed: the checksum fails (BIP-173 guarantees detection
    // of any single substitution).
    let altered = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdp";
    assert_eq!(
        open.screen_address_text(AddressField::ToAddress, altered, NetworkKind::Bech32),
        Err(ScreeningError::InvalidAddress {
            field: AddressField::ToAddress,
            reason: InvalidAddress::Bech32Checksum
        })
    );
    assert_eq!(
        Address::new(altered).unwrap().encoding(),
        AddressEncoding::Other
    );
    // The repository's older made-up cosmos address fails its checksum: on a
    // generic network it is an address, compared exactly.
    let made_up = "cosmos1depk54cuajgkzea6zpgkq36tnjwdzv4ak663u6";
    assert_eq!(screen_other(&open, made_up), Ok(()));
    assert_eq!(
        open.screen_address_text(AddressField::ToAddress, made_up, NetworkKind::Bech32),
        Err(ScreeningError::InvalidAddress {
            field: AddressField::ToAddress,
            reason: InvalidAddress::Bech32Checksum
        })
    );
}

/// BIP-173's encoder, written from the BIP for the property test below.
fn bech32_encode(hrp: &str, data: &[u8], constant: u32) -> String {
    const CHARSET: &[u8] = b"qpzry9x8gf2tvdw0s3jn54khce6mua7l";
    const GEN: [u32; 5] = [
        0x3b6a_57b2,
        0x2650_8e6d,
        0x1ea1_19fa,
        0x3d42_33dd,
        0x2a14_62b3,
    ];
    let polymod = |values: &[u8]| {
        let mut chk: u32 = 1;
        for v in values {
            let b = chk >> 25;
            chk = ((chk & 0x01ff_ffff) << 5) ^ u32::from(*v);
            for (i, g) in GEN.iter().enumerate() {
                if (b >> i) & 1 == 1 {
                    chk ^= g;
                }
            }
        }
        chk
    };
    let mut values: Vec<u8> = hrp.bytes().map(|c| c >> 5).collect();
    values.push(0);
    values.extend(hrp.bytes().map(|c| c & 31));
    values.extend_from_slice(data);
    values.extend_from_slice(&[0; 6]);
    let pm = polymod(&values) ^ constant;
    let mut out = format!("{hrp}1");
    for d in data
        .iter()
        .copied()
        .chain((0..6).map(|i| ((pm >> (5 * (5 - i))) & 31) as u8))
    {
        out.push(CHARSET[usize::from(d)] as char);
    }
    out
}

fn spell(text: &str, flips: &[bool]) -> String {
    text.chars()
        .zip(flips.iter().cycle())
        .map(|(c, up)| {
            if *up {
                c.to_ascii_uppercase()
            } else {
                c.to_ascii_lowercase()
            }
        })
        .collect()
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

    /// Ruling 27: every case spelling of a denylisted case-insensitive address
    /// is refused, whichever spelling was denylisted.
    #[test]
    fn every_case_spelling_of_a_denylisted_address_is_refused(
        pick in 0..CASE_INSENSITIVE.len(),
        denied_flips in proptest::collection::vec(any::<bool>(), 1..80),
        sent_flips in proptest::collection::vec(any::<bool>(), 1..80),
        bare in any::<bool>(),
    ) {
        let (address, encoding) = CASE_INSENSITIVE[pick];
        let denied = spell(address, &denied_flips);
        let mut sent = spell(address, &sent_flips);
        if bare && encoding == AddressEncoding::CashAddr {
            sent = sent[sent.find(':').unwrap() + 1..].to_owned();
        }
        let policy = ScreeningPolicy::new().deny_address(&Address::new(&denied).unwrap());
        prop_assert_eq!(screen_other(&policy, &sent), DENYLISTED);
        prop_assert_eq!(Address::new(&sent).unwrap().encoding(), encoding);
    }

    /// The same for freshly encoded bech32 / bech32m strings of any HRP.
    #[test]
    fn generated_bech32_is_case_insensitive(
        hrp in "[a-z0-9]{1,10}",
        data in proptest::collection::vec(0u8..32, 1..50),
        m in any::<bool>(),
        flips in proptest::collection::vec(any::<bool>(), 1..80),
    ) {
        let constant = if m { 0x2bc8_30a3 } else { 1 };
        let address = bech32_encode(&hrp, &data, constant);
        let expected = if m { AddressEncoding::Bech32m } else { AddressEncoding::Bech32 };
        prop_assert_eq!(Address::new(&address).unwrap().encoding(), expected);
        let sent = spell(&address, &flips);
        let policy = ScreeningPolicy::new().deny_address(&Address::new(&address).unwrap());
        prop_assert_eq!(screen_other(&policy, &sent), DENYLISTED);
        prop_assert_eq!(Address::new(&sent).unwrap().canonical().into_owned(), address.clone());
    }

    /// Base58 stays case-sensitive: a spelling that differs in case is another
    /// address and is not matched.
    #[test]
    fn base58_is_case_sensitive(
        pick in 0..BASE58.len(),
        flips in proptest::collection::vec(any::<bool>(), 1..50),
        generated in "[1-9A-HJ-NP-Za-km-z]{25,44}",
        which in any::<bool>(),
    ) {
        let address = if which { BASE58[pick].to_owned() } else { generated };
        let policy = ScreeningPolicy::new().deny_address(&Address::new(&address).unwrap());
        let sent: String = address
            .chars()
            .zip(flips.iter().cycle())
            .map(|(c, flip)| if *flip && c.is_ascii_lowercase() { c.to_ascii_uppercase() } else if *flip { c.to_ascii_lowercase() } else { c })
            .collect();
        let expected = if sent == address { DENYLISTED } else { Ok(()) };
        prop_assert_eq!(screen_other(&policy, &sent), expected);
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

/// Every encoding says whether letter case matters to it, and names itself.
#[test]
fn encodings_name_themselves_and_their_case_rule() {
    use swaproute::screening::AddressEncoding;
    for (encoding, name, case_insensitive) in [
        (AddressEncoding::EvmHex, "EVM hex", true),
        (AddressEncoding::Bech32, "bech32", true),
        (AddressEncoding::Bech32m, "bech32m", true),
        (AddressEncoding::CashAddr, "CashAddr", true),
        (AddressEncoding::Other, "other", false),
    ] {
        assert_eq!(encoding.as_str(), name);
        assert_eq!(encoding.to_string(), name);
        assert_eq!(encoding.is_case_insensitive(), case_insensitive, "{name}");
    }
}

/// A market state's text is its wire form.
#[test]
fn market_states_are_written_as_on_the_wire() {
    use swaproute::screening::MarketState;
    for (state, text) in [(MarketState::Open, "open"), (MarketState::Closed, "closed")] {
        assert_eq!(state.as_str(), text);
        assert_eq!(state.to_string(), text);
        assert_eq!(
            serde_json::to_value(state).unwrap(),
            serde_json::json!(text)
        );
    }
}
