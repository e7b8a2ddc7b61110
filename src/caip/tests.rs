//! Unit tests: the published CAIP examples, boundary lengths, invalid ids.

use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::*;
use crate::error::{ApiError, ErrorCode};
use crate::ids::AssetId;

const CAIP2_EXAMPLES: &[&str] = &[
    "eip155:1",
    "bip122:000000000019d6689c085ae165831e93",
    "bip122:12a765e31ffd4059bada1e25190f6e98",
    "bip122:fdbe99b90c90bae7505796461471d89a",
    "cosmos:cosmoshub-2",
    "cosmos:cosmoshub-3",
    "cosmos:Binance-Chain-Tigris",
    "cosmos:iov-mainnet",
    "starknet:SN_GOERLI",
    "lip9:9ee11e9df416b18b",
    "chainstd:8c3444cf8970a9e41a706fab93e7a6c4",
];

const ASSET_TYPE_EXAMPLES: &[&str] = &[
    "eip155:1/slip44:60",
    "bip122:000000000019d6689c085ae165831e93/slip44:0",
    "cosmos:cosmoshub-3/slip44:118",
    "bip122:12a765e31ffd4059bada1e25190f6e98/slip44:2",
    "cosmos:Binance-Chain-Tigris/slip44:714",
    "cosmos:iov-mainnet/slip44:234",
    "lip9:9ee11e9df416b18b/slip44:134",
    "eip155:1/erc20:0x6b175474e89094c44da98b954eedeac495271d0f",
    "eip155:1/erc721:0x06012c8cf97BEaD5deAe237070F9587f8E7A266d",
    "hedera:mainnet/nft:0.0.55492",
];

const ASSET_ID_EXAMPLES: &[&str] = &[
    "eip155:1/erc721:0x06012c8cf97BEaD5deAe237070F9587f8E7A266d/771769",
    "hedera:mainnet/nft:0.0.55492/12",
];

fn rep(c: char, n: usize) -> String {
    c.to_string().repeat(n)
}

#[test]
fn published_chain_ids_round_trip() {
    for text in CAIP2_EXAMPLES {
        let chain = ChainId::parse(text).unwrap();
        assert_eq!(chain.to_string(), *text);
        assert_eq!(
            alloc::format!("{}:{}", chain.namespace(), chain.reference()),
            *text
        );
        assert_eq!(
            ChainId::new(chain.namespace(), chain.reference()).unwrap(),
            chain
        );
    }
    assert_eq!(CAIP2_EXAMPLES.last().unwrap().len(), MAX_CHAIN_ID_LEN);
}

#[test]
fn published_asset_types_round_trip() {
    for text in ASSET_TYPE_EXAMPLES {
        let asset = Caip19AssetType::parse(text).unwrap();
        assert_eq!(asset.to_string(), *text);
        let rebuilt = Caip19AssetType::new(
            asset.chain_id().clone(),
            asset.asset_namespace(),
            asset.asset_reference(),
        );
        assert_eq!(rebuilt.unwrap(), asset);
        assert_eq!(
            Caip19AssetId::parse(text),
            Err(InvalidCaipId::MissingTokenId),
            "{text} is an asset type, not an asset id"
        );
    }
    let dai = Caip19AssetType::parse("eip155:1/erc20:0x6b175474e89094c44da98b954eedeac495271d0f")
        .unwrap();
    assert_eq!(dai.chain_id().namespace(), "eip155");
    assert_eq!(dai.chain_id().reference(), "1");
    assert_eq!(dai.asset_namespace(), "erc20");
    assert_eq!(
        dai.asset_reference(),
        "0x6b175474e89094c44da98b954eedeac495271d0f"
    );
}

#[test]
fn published_asset_ids_round_trip() {
    for text in ASSET_ID_EXAMPLES {
        let asset = Caip19AssetId::parse(text).unwrap();
        assert_eq!(asset.to_string(), *text);
        assert_eq!(
            Caip19AssetId::new(asset.asset_type().clone(), asset.token_id()).unwrap(),
            asset
        );
        assert!(matches!(
            Caip19AssetType::parse(text),
            Err(InvalidCaipId::UnexpectedTokenId { .. })
        ));
    }
    let robot = Caip19AssetId::parse("hedera:mainnet/nft:0.0.55492/12").unwrap();
    assert_eq!(robot.chain_id().to_string(), "hedera:mainnet");
    assert_eq!(
        (
            robot.asset_namespace(),
            robot.asset_reference(),
            robot.token_id()
        ),
        ("nft", "0.0.55492", "12")
    );
    assert_eq!(
        Caip19AssetType::parse("hedera:mainnet/nft:0.0.55492/12"),
        Err(InvalidCaipId::UnexpectedTokenId { at: 29 })
    );
}

#[test]
fn namespace_length_bounds() {
    assert!(ChainId::parse("abc:1").is_ok());
    assert!(ChainId::parse(&alloc::format!("{}:1", rep('a', 8))).is_ok());
    let c = CaipComponent::Namespace;
    assert_eq!(
        ChainId::parse("ab:1"),
        Err(InvalidCaipId::TooShort {
            component: c,
            len: 2
        })
    );
    assert_eq!(
        ChainId::parse(":1"),
        Err(InvalidCaipId::Empty { component: c })
    );
    assert_eq!(
        ChainId::parse(&alloc::format!("{}:1", rep('a', 9))),
        Err(InvalidCaipId::TooLong {
            component: c,
            len: 9
        })
    );
    let a = CaipComponent::AssetNamespace;
    assert!(Caip19AssetType::parse("eip155:1/abc:x").is_ok());
    assert!(Caip19AssetType::parse(&alloc::format!("eip155:1/{}:x", rep('z', 8))).is_ok());
    assert_eq!(
        Caip19AssetType::parse("eip155:1/ab:x"),
        Err(InvalidCaipId::TooShort {
            component: a,
            len: 2
        })
    );
    assert_eq!(
        Caip19AssetType::parse(&alloc::format!("eip155:1/{}:x", rep('z', 9))),
        Err(InvalidCaipId::TooLong {
            component: a,
            len: 9
        })
    );
}

#[test]
fn reference_length_bounds() {
    let c = CaipComponent::Reference;
    assert!(ChainId::parse(&alloc::format!("eip155:{}", rep('A', 32))).is_ok());
    assert_eq!(
        ChainId::parse(&alloc::format!("eip155:{}", rep('A', 33))),
        Err(InvalidCaipId::TooLong {
            component: c,
            len: 33
        })
    );
    assert_eq!(
        ChainId::parse("eip155:"),
        Err(InvalidCaipId::Empty { component: c })
    );
}

#[test]
fn asset_reference_and_token_id_length_bounds() {
    let r = CaipComponent::AssetReference;
    let at_cap = alloc::format!("eip155:1/erc20:{}", rep('x', 128));
    assert!(Caip19AssetType::parse(&at_cap).is_ok());
    let past_cap = alloc::format!("eip155:1/erc20:{}", rep('x', 129));
    assert_eq!(
        Caip19AssetType::parse(&past_cap),
        Err(InvalidCaipId::TooLong {
            component: r,
            len: 129
        })
    );
    assert_eq!(
        Caip19AssetType::parse("eip155:1/erc20:"),
        Err(InvalidCaipId::Empty { component: r })
    );

    let t = CaipComponent::TokenId;
    assert!(
        Caip19AssetId::parse(&alloc::format!("eip155:1/erc721:0xabc/{}", rep('9', 78))).is_ok()
    );
    assert_eq!(
        Caip19AssetId::parse(&alloc::format!("eip155:1/erc721:0xabc/{}", rep('9', 79))),
        Err(InvalidCaipId::TooLong {
            component: t,
            len: 79
        })
    );
    assert_eq!(
        Caip19AssetId::parse("eip155:1/erc721:0xabc/"),
        Err(InvalidCaipId::Empty { component: t })
    );

    let longest = alloc::format!(
        "{}:{}/{}:{}/{}",
        rep('a', 8),
        rep('B', 32),
        rep('c', 8),
        rep('%', 128),
        rep('.', 78)
    );
    assert_eq!(longest.len(), MAX_ASSET_ID_LEN);
    assert_eq!(Caip19AssetId::parse(&longest).unwrap().to_string(), longest);
    let (asset_type, _) = longest.rsplit_once('/').unwrap();
    assert_eq!(asset_type.len(), MAX_ASSET_TYPE_LEN);
    assert!(Caip19AssetType::parse(asset_type).is_ok());
}

#[test]
fn character_classes() {
    // Reference allows `_`, asset components do not; asset components allow `.` and `%`.
    assert!(ChainId::parse("starknet:SN_GOERLI").is_ok());
    assert!(ChainId::parse("abc-1:-_-").is_ok());
    assert_eq!(
        ChainId::parse("eip155:1.0"),
        Err(InvalidCaipId::InvalidCharacter {
            component: CaipComponent::Reference,
            found: '.',
            at: 8
        })
    );
    assert!(Caip19AssetType::parse("eip155:1/erc20:a.b%2F-C").is_ok());
    assert_eq!(
        Caip19AssetType::parse("eip155:1/erc20:a_b"),
        Err(InvalidCaipId::InvalidCharacter {
            component: CaipComponent::AssetReference,
            found: '_',
            at: 16
        })
    );
    assert_eq!(
        Caip19AssetType::parse("eip155:1/erc_20:ab"),
        Err(InvalidCaipId::InvalidCharacter {
            component: CaipComponent::AssetNamespace,
            found: '_',
            at: 12
        })
    );
    assert_eq!(
        Caip19AssetId::parse("eip155:1/erc721:ab/1_2"),
        Err(InvalidCaipId::InvalidCharacter {
            component: CaipComponent::TokenId,
            found: '_',
            at: 20
        })
    );
    // Namespaces are lowercase only; the check is case-sensitive.
    assert_eq!(
        ChainId::parse("EIP155:1"),
        Err(InvalidCaipId::InvalidCharacter {
            component: CaipComponent::Namespace,
            found: 'E',
            at: 0
        })
    );
    assert_eq!(
        ChainId::parse("eip155:ü"),
        Err(InvalidCaipId::InvalidCharacter {
            component: CaipComponent::Reference,
            found: 'ü',
            at: 7
        })
    );
}

#[test]
fn structural_errors() {
    use CaipComponent::{AssetNamespace, Namespace, Reference};
    let cases: &[(&str, InvalidCaipId)] = &[
        (
            "",
            InvalidCaipId::Empty {
                component: Namespace,
            },
        ),
        (
            "eip155",
            InvalidCaipId::MissingSeparator {
                after: Namespace,
                expected: ':',
                at: 6,
            },
        ),
        (
            "eip155:1",
            InvalidCaipId::MissingSeparator {
                after: Reference,
                expected: '/',
                at: 8,
            },
        ),
        (
            "eip155:1/",
            InvalidCaipId::Empty {
                component: AssetNamespace,
            },
        ),
        (
            "eip155:1/slip44",
            InvalidCaipId::MissingSeparator {
                after: AssetNamespace,
                expected: ':',
                at: 15,
            },
        ),
        (
            "eip155:1/slip44/60",
            InvalidCaipId::InvalidCharacter {
                component: AssetNamespace,
                found: '/',
                at: 15,
            },
        ),
    ];
    check_errors(cases);
}

#[test]
fn stray_separators_are_invalid_characters() {
    use CaipComponent::{AssetReference, Namespace, Reference, TokenId};
    let cases: &[(&str, InvalidCaipId)] = &[
        (
            "eip155:1:2/slip44:60",
            InvalidCaipId::InvalidCharacter {
                component: Reference,
                found: ':',
                at: 8,
            },
        ),
        (
            "eip155:1/slip44:60:1",
            InvalidCaipId::InvalidCharacter {
                component: AssetReference,
                found: ':',
                at: 18,
            },
        ),
        (
            "eip155:1/slip44:60 ",
            InvalidCaipId::InvalidCharacter {
                component: AssetReference,
                found: ' ',
                at: 18,
            },
        ),
        (
            " eip155:1/slip44:60",
            InvalidCaipId::InvalidCharacter {
                component: Namespace,
                found: ' ',
                at: 0,
            },
        ),
        (
            "eip155:1;slip44:60",
            InvalidCaipId::InvalidCharacter {
                component: Reference,
                found: ';',
                at: 8,
            },
        ),
        (
            "eip155:1/erc721:0xab/1/2",
            InvalidCaipId::InvalidCharacter {
                component: TokenId,
                found: '/',
                at: 22,
            },
        ),
    ];
    check_errors(cases);
}

fn check_errors(cases: &[(&str, InvalidCaipId)]) {
    for (text, expected) in cases {
        let got = Caip19AssetType::parse(text)
            .err()
            .or_else(|| Caip19AssetId::parse(text).err());
        assert_eq!(got.as_ref(), Some(expected), "{text:?}");
    }
}

#[test]
fn chain_id_refuses_asset_types() {
    use CaipComponent::Reference;
    assert_eq!(
        ChainId::parse("eip155:1/slip44:60"),
        Err(InvalidCaipId::InvalidCharacter {
            component: Reference,
            found: '/',
            at: 8
        })
    );
}

#[test]
fn error_messages_name_the_component() {
    let message = |text: &str| Caip19AssetType::parse(text).unwrap_err().to_string();
    assert_eq!(
        message("ab:1/slip44:60"),
        "namespace is 2 characters long, fewer than the 3 required"
    );
    assert_eq!(
        message(&alloc::format!("eip155:1/erc20:{}", rep('x', 129))),
        "asset reference is 129 characters long, more than the 128 allowed"
    );
    assert_eq!(
        message("eip155:1/Slip44:60"),
        "asset namespace contains 'S' at byte 9, outside [-a-z0-9]"
    );
    assert_eq!(
        message("eip155:1"),
        "expected '/' after the reference at byte 8"
    );
    assert_eq!(message("eip155:1/erc20:"), "asset reference is empty");
}

#[test]
fn constructors_from_parts_validate_each_component() {
    assert_eq!(ChainId::new("eip155", "1").unwrap().to_string(), "eip155:1");
    assert_eq!(
        ChainId::new("eip155", "1/x"),
        Err(InvalidCaipId::InvalidCharacter {
            component: CaipComponent::Reference,
            found: '/',
            at: 1
        })
    );
    assert_eq!(
        ChainId::new("a:b", "c"),
        Err(InvalidCaipId::InvalidCharacter {
            component: CaipComponent::Namespace,
            found: ':',
            at: 1
        })
    );
    let chain = ChainId::new("eip155", "1").unwrap();
    assert!(Caip19AssetType::new(chain.clone(), "erc20", "a:b").is_err());
    let asset = Caip19AssetType::new(chain, "erc721", "0xab").unwrap();
    assert_eq!(
        Caip19AssetId::new(asset, "").unwrap_err(),
        InvalidCaipId::Empty {
            component: CaipComponent::TokenId
        }
    );
}

#[test]
fn ordering_is_by_component_and_consistent_with_eq() {
    let mut chains: Vec<ChainId> = ["abc1:x", "abc:x", "eip155:10", "eip155:1", "eip155:2"]
        .iter()
        .map(|t| t.parse().unwrap())
        .collect();
    chains.sort();
    let sorted: Vec<String> = chains.iter().map(ToString::to_string).collect();
    assert_eq!(
        sorted,
        ["abc:x", "abc1:x", "eip155:1", "eip155:10", "eip155:2"]
    );
    let a: Caip19AssetType = "eip155:1/erc20:0xAB".parse().unwrap();
    let b: Caip19AssetType = "eip155:1/erc20:0xab".parse().unwrap();
    assert_ne!(a, b, "no canonicalization: case matters");
    assert!(a < b);
}

#[test]
fn serde_uses_the_text_form() {
    let asset: Caip19AssetType = serde_json::from_str("\"eip155:1/slip44:60\"").unwrap();
    assert_eq!(
        serde_json::to_string(&asset).unwrap(),
        "\"eip155:1/slip44:60\""
    );
    let chain: ChainId = serde_json::from_str("\"cosmos:cosmoshub-3\"").unwrap();
    assert_eq!(
        serde_json::to_string(&chain).unwrap(),
        "\"cosmos:cosmoshub-3\""
    );
    let id: Caip19AssetId = serde_json::from_str("\"hedera:mainnet/nft:0.0.55492/12\"").unwrap();
    assert_eq!(
        serde_json::to_string(&id).unwrap(),
        "\"hedera:mainnet/nft:0.0.55492/12\""
    );
    let error = serde_json::from_str::<ChainId>("\"eip155\"")
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("expected ':' after the namespace"),
        "{error}"
    );
    assert!(serde_json::from_str::<ChainId>("1").is_err());
    assert_eq!(
        alloc::format!("{chain:?}"),
        "ChainId(\"cosmos:cosmoshub-3\")"
    );
}

#[test]
fn asset_ref_tells_the_forms_apart() {
    assert_eq!(
        AssetRef::parse("BTC").unwrap(),
        AssetRef::Legacy(AssetId::new("BTC").unwrap())
    );
    let usdc = AssetRef::parse("USDCbasemainnetB5A52617").unwrap();
    assert_eq!(
        usdc.as_legacy().unwrap().as_str(),
        "USDCbasemainnetB5A52617"
    );
    let btc = AssetRef::parse("bip122:000000000019d6689c085ae165831e93/slip44:0").unwrap();
    assert_eq!(btc.as_caip19().unwrap().asset_reference(), "0");
    assert!(matches!(
        AssetRef::parse("bip122:000000000019d6689c085ae165831e93"),
        Err(InvalidAssetRef::Caip19(_))
    ));
    assert!(matches!(
        AssetRef::parse(""),
        Err(InvalidAssetRef::Legacy(_))
    ));
    let error = ApiError::from(AssetRef::parse("eip155:1/slip44").unwrap_err());
    assert_eq!(error.code(), ErrorCode::UnresolvedAsset);
    let json: AssetRef = serde_json::from_str("\"ETH\"").unwrap();
    assert_eq!(serde_json::to_string(&json).unwrap(), "\"ETH\"");
}

fn directory() -> AssetDirectory {
    AssetDirectory::try_from_pairs([
        (
            AssetId::new("BTC").unwrap(),
            "bip122:000000000019d6689c085ae165831e93/slip44:0"
                .parse()
                .unwrap(),
        ),
        (
            AssetId::new("ETH").unwrap(),
            "eip155:1/slip44:60".parse().unwrap(),
        ),
    ])
    .unwrap()
}

#[test]
fn directory_is_one_to_one_and_renders_both_forms() {
    let mut assets = directory();
    assert_eq!(assets.len(), 2);
    let eth = AssetRef::parse("ETH").unwrap();
    let caip = AssetRef::parse("eip155:1/slip44:60").unwrap();
    assert_eq!(assets.render(&eth, AssetIdForm::Caip19).unwrap(), caip);
    assert_eq!(assets.render(&caip, AssetIdForm::Legacy).unwrap(), eth);
    assert_eq!(assets.render(&eth, AssetIdForm::Legacy).unwrap(), eth);
    assert_eq!(
        assets.resolve(&eth).unwrap(),
        assets.resolve(&caip).unwrap()
    );
    assert_eq!(
        assets.resolve(&eth).unwrap().chain_id().to_string(),
        "eip155:1"
    );

    let unknown = AssetRef::parse("eip155:1/slip44:61").unwrap();
    let error = ApiError::from(assets.render(&unknown, AssetIdForm::Caip19).unwrap_err());
    assert_eq!(error.code(), ErrorCode::UnresolvedAsset);
    assert_eq!(
        error.details(),
        "asset eip155:1/slip44:61 cannot be resolved"
    );

    // Re-inserting a pair is a no-op; conflicting pairs are refused and change nothing.
    assets
        .insert(
            AssetId::new("ETH").unwrap(),
            "eip155:1/slip44:60".parse().unwrap(),
        )
        .unwrap();
    assert!(matches!(
        assets.insert(
            AssetId::new("ETH").unwrap(),
            "eip155:10/slip44:60".parse().unwrap()
        ),
        Err(DirectoryConflict::Legacy { .. })
    ));
    assert!(matches!(
        assets.insert(
            AssetId::new("WETH").unwrap(),
            "eip155:1/slip44:60".parse().unwrap()
        ),
        Err(DirectoryConflict::Caip19 { .. })
    ));
    assert_eq!(assets, directory());
}

#[test]
fn directory_lookups_empty_and_iteration() {
    let assets = directory();
    let eth = AssetId::new("ETH").unwrap();
    let eth_caip: Caip19AssetType = "eip155:1/slip44:60".parse().unwrap();
    assert_eq!(assets.caip19_of(&eth), Some(&eth_caip));
    assert_eq!(assets.legacy_of(&eth_caip), Some(&eth));
    assert_eq!(assets.caip19_of(&AssetId::new("DOGE").unwrap()), None);
    assert_eq!(
        assets.legacy_of(&"eip155:1/slip44:61".parse().unwrap()),
        None
    );

    assert!(!assets.is_empty());
    assert!(AssetDirectory::new().is_empty());
    assert_eq!(AssetDirectory::new().iter().count(), 0);

    // Ordered by legacy id: BTC before ETH, whatever the insertion order.
    let listed: Vec<(String, String)> = assets
        .iter()
        .map(|(legacy, caip19)| (legacy.to_string(), caip19.to_string()))
        .collect();
    assert_eq!(
        listed,
        [
            (
                "BTC".to_string(),
                "bip122:000000000019d6689c085ae165831e93/slip44:0".to_string()
            ),
            ("ETH".to_string(), "eip155:1/slip44:60".to_string()),
        ]
    );
}

#[test]
fn caip19_query_parameter() {
    assert_eq!(AssetIdForm::default(), AssetIdForm::Caip19);
    assert_eq!(AssetIdForm::from_query(None), Ok(AssetIdForm::Caip19));
    assert_eq!(
        AssetIdForm::from_query(Some("true")),
        Ok(AssetIdForm::Caip19)
    );
    assert_eq!(
        AssetIdForm::from_query(Some("false")),
        Ok(AssetIdForm::Legacy)
    );
    for bad in ["", "TRUE", "1", "yes", " false"] {
        assert_eq!(
            AssetIdForm::from_query(Some(bad)).map_err(|e| e.kind()),
            Err(crate::parse_error::ParseErrorKind::Caip19Flag),
            "{bad:?}"
        );
    }
    assert_eq!(
        ApiError::from(AssetIdForm::from_query(Some("1")).unwrap_err()).code(),
        ErrorCode::InvalidRequest
    );
    assert_eq!(
        serde_json::from_str::<AssetIdForm>("false").unwrap(),
        AssetIdForm::Legacy
    );
    assert_eq!(
        serde_json::from_str::<AssetIdForm>("\"true\"").unwrap(),
        AssetIdForm::Caip19
    );
    assert_eq!(
        serde_json::to_string(&AssetIdForm::Legacy).unwrap(),
        "false"
    );
    assert_eq!(AssetIdForm::Legacy.to_string(), "caip19=false");
    assert!(AssetIdForm::Caip19.is_caip19());
    assert!(!AssetIdForm::Legacy.is_caip19());
    // The text form of the flag parses as the query value does.
    assert_eq!(
        serde_json::from_str::<AssetIdForm>("\"false\"").unwrap(),
        AssetIdForm::Legacy
    );
    assert!(serde_json::from_str::<AssetIdForm>("\"yes\"").is_err());
    let error = serde_json::from_str::<AssetIdForm>("1").unwrap_err();
    assert!(
        error.to_string().contains("the caip19 flag: true or false"),
        "{error}"
    );
}

#[test]
fn public_types_are_send_and_sync() {
    fn check<T: Send + Sync>() {}
    check::<ChainId>();
    check::<Caip19AssetType>();
    check::<Caip19AssetId>();
    check::<AssetRef>();
    check::<AssetDirectory>();
    check::<InvalidCaipId>();
    check::<DirectoryConflict>();
}
