//! A discovery asset's network as the [`NetworkKind`] address checks need
//! (issue 31): `with_assets` then checks addresses too, so `toAddress:
//! "bc1q…"` is refused for an asset on Ethereum.

use crate::caip::AssetRef;
use crate::screening::NetworkKind;

use super::{Asset, Network, PairAssets};

/// EVM networks by the names discovery listings use for them, lower case
/// (the chain's usual name, its short name, and the spellings listings
/// use). A network also reached with other address forms (Kava, Evmos,
/// Flare's P-chain…) is left out: it is [`NetworkKind::Other`].
const EVM: &[&str] = &[
    "ethereum",
    "eth",
    "erc20",
    "base",
    "bsc",
    "bnb",
    "bep20",
    "binance-smart-chain",
    "binancesmartchain",
    "polygon",
    "matic",
    "arbitrum",
    "arbitrum-one",
    "arbitrumone",
    "optimism",
    "op",
    "avalanche",
    "avax",
    "avaxc",
    "avalanche-c",
    "fantom",
    "ftm",
    "gnosis",
    "xdai",
    "linea",
    "zksync",
    "zksync-era",
    "zksyncera",
    "scroll",
    "blast",
    "mantle",
    "celo",
    "cronos",
    "moonbeam",
    "moonriver",
    "metis",
    "aurora",
    "sonic",
    "berachain",
    "unichain",
    "sepolia",
    "holesky",
];

/// Networks whose addresses are all bech32 (Cosmos SDK chains), lower case.
const BECH32: &[&str] = &[
    "cosmos",
    "cosmoshub",
    "atom",
    "osmosis",
    "osmo",
    "celestia",
    "tia",
    "injective",
    "inj",
    "sei",
    "akash",
    "juno",
    "secret",
    "scrt",
    "stargaze",
    "axelar",
    "noble",
    "dydx",
    "stride",
    "persistence",
    "kujira",
    "neutron",
    "archway",
    "terra",
    "luna",
];

impl Network {
    /// The kind of address this network takes, from its name (compared
    /// without regard to case): [`NetworkKind::Evm`] for EVM chains
    /// (`ethereum`, `base`, `bsc`, `polygon`, `arbitrum`, `optimism`,
    /// `avalanche`, …), [`NetworkKind::Bech32`] for Cosmos SDK chains
    /// (`cosmos`, `osmosis`, `injective`, …), [`NetworkKind::Other`] for
    /// every other name, Bitcoin and Litecoin included (they have base58
    /// addresses as well as bech32 ones).
    ///
    /// ```
    /// use swaproute::discovery::Network;
    /// use swaproute::screening::NetworkKind;
    /// assert_eq!("ethereum".parse::<Network>()?.kind(), NetworkKind::Evm);
    /// assert_eq!("Base".parse::<Network>()?.kind(), NetworkKind::Evm);
    /// assert_eq!("osmosis".parse::<Network>()?.kind(), NetworkKind::Bech32);
    /// assert_eq!("bitcoin".parse::<Network>()?.kind(), NetworkKind::Other);
    /// # Ok::<(), swaproute::ParseError>(())
    /// ```
    pub fn kind(&self) -> NetworkKind {
        let name = self.as_str();
        if EVM.iter().any(|evm| evm.eq_ignore_ascii_case(name)) {
            NetworkKind::Evm
        } else if BECH32.iter().any(|b| b.eq_ignore_ascii_case(name)) {
            NetworkKind::Bech32
        } else {
            NetworkKind::Other
        }
    }
}

impl From<&Network> for NetworkKind {
    /// [`Network::kind`].
    fn from(network: &Network) -> Self {
        network.kind()
    }
}

impl Asset {
    /// The kind of address the asset is sent to and from: by the CAIP-2
    /// namespace of a CAIP-19 id (`eip155` is [`NetworkKind::Evm`],
    /// `cosmos` is [`NetworkKind::Bech32`]), else by its `network`
    /// ([`Network::kind`]).
    ///
    /// ```
    /// use swaproute::discovery::Asset;
    /// use swaproute::screening::NetworkKind;
    /// let usdc: Asset = serde_json::from_str(r#"{"id":"eip155:8453/erc20:0x833589fcd6edb6e08f4c7c32d4f71b54bda02913",
    ///   "name":"USD Coin","symbol":"USDC","decimals":6,"network":"base-mainnet"}"#)?;
    /// assert_eq!(usdc.network_kind(), NetworkKind::Evm);
    /// # Ok::<(), serde_json::Error>(())
    /// ```
    pub fn network_kind(&self) -> NetworkKind {
        if let AssetRef::Caip19(id) = &self.id {
            match id.chain_id().namespace() {
                "eip155" => return NetworkKind::Evm,
                "cosmos" => return NetworkKind::Bech32,
                _ => {}
            }
        }
        self.network.kind()
    }
}

impl PairAssets<'_> {
    /// The network kinds of the from and to assets
    /// ([`Asset::network_kind`]): what
    /// [`OrderContext::with_assets`](crate::order::OrderContext::with_assets)
    /// checks `fromAddress` and `toAddress` against.
    pub fn network_kinds(&self) -> (NetworkKind, NetworkKind) {
        (self.from().network_kind(), self.to().network_kind())
    }
}
