//! Which source networks get ready-to-sign transactions.

use crate::caip::ChainId;
use crate::screening::NetworkKind;

/// A source network family for which `POST /v4/orders` returns ready-to-sign
/// transactions: EVM, Solana, Bitcoin and TRON. The set is closed: a source
/// chain outside it gets a deposit address only.
///
/// Mapped from the CAIP-2 namespace of the source chain: `eip155` (every EVM
/// chain), `solana`, `bip122` and `tron`. The mapping is by namespace, as the
/// spec names network families; `bip122` also names Bitcoin forks such as
/// Litecoin, so a caller that signs for Bitcoin mainnet only should check the
/// reference too.
///
/// ```
/// use swaproute::caip::ChainId;
/// use swaproute::v4::SigningNetwork;
/// let ethereum: ChainId = "eip155:1".parse().unwrap();
/// assert_eq!(SigningNetwork::of_chain(&ethereum), Some(SigningNetwork::Evm));
/// let cosmos: ChainId = "cosmos:cosmoshub-3".parse().unwrap();
/// assert!(!SigningNetwork::gets_ready_to_sign(&cosmos));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SigningNetwork {
    /// EVM chains, CAIP-2 namespace `eip155`.
    Evm,
    /// Solana, namespace `solana`.
    Solana,
    /// Bitcoin, namespace `bip122`.
    Bitcoin,
    /// TRON, namespace `tron`.
    Tron,
}

impl SigningNetwork {
    /// Every signing network.
    pub const ALL: [SigningNetwork; 4] = [
        SigningNetwork::Evm,
        SigningNetwork::Solana,
        SigningNetwork::Bitcoin,
        SigningNetwork::Tron,
    ];

    /// The CAIP-2 namespace of the family.
    pub const fn namespace(self) -> &'static str {
        match self {
            SigningNetwork::Evm => "eip155",
            SigningNetwork::Solana => "solana",
            SigningNetwork::Bitcoin => "bip122",
            SigningNetwork::Tron => "tron",
        }
    }

    /// The family of a CAIP-2 namespace (exact, case-sensitive match).
    pub fn from_namespace(namespace: &str) -> Option<Self> {
        SigningNetwork::ALL
            .into_iter()
            .find(|network| network.namespace() == namespace)
    }

    /// The family of a source chain, when it gets ready-to-sign transactions.
    pub fn of_chain(chain: &ChainId) -> Option<Self> {
        SigningNetwork::from_namespace(chain.namespace())
    }

    /// `true` when orders from `source` get ready-to-sign transactions.
    pub fn gets_ready_to_sign(source: &ChainId) -> bool {
        SigningNetwork::of_chain(source).is_some()
    }

    /// The address rules screening applies on this family.
    pub const fn network_kind(self) -> NetworkKind {
        match self {
            SigningNetwork::Evm => NetworkKind::Evm,
            SigningNetwork::Solana | SigningNetwork::Bitcoin | SigningNetwork::Tron => {
                NetworkKind::Other
            }
        }
    }
}

crate::text::str_enum!(
    SigningNetwork,
    /// A display name: `EVM`, `Solana`, `Bitcoin`, `TRON`.
    {
        Evm => "EVM",
        Solana => "Solana",
        Bitcoin => "Bitcoin",
        Tron => "TRON",
    }
);

/// The address rules of a chain: EVM for `eip155`, generic otherwise.
pub(super) fn network_kind(chain: &ChainId) -> NetworkKind {
    SigningNetwork::of_chain(chain).map_or(NetworkKind::Other, SigningNetwork::network_kind)
}
