//! CAIP-19 asset types: `chain_id/asset_namespace:asset_reference`.

use alloc::boxed::Box;
use core::fmt;

use super::grammar;
use super::{CaipComponent, ChainId, InvalidCaipId, MAX_CHAIN_ID_LEN};

/// The longest CAIP-19 asset type, in bytes: 41 + 1 + 8 + 1 + 128.
pub const MAX_ASSET_TYPE_LEN: usize = MAX_CHAIN_ID_LEN + 1 + 8 + 1 + 128;

/// A CAIP-19 asset type, `chain_id/asset_namespace:asset_reference`
/// (`eip155:1/slip44:60`, `eip155:1/erc20:0x6b175474e89094c44da98b954eedeac495271d0f`).
///
/// Grammar (case-sensitive): a [`ChainId`], `/`, asset namespace
/// `[-a-z0-9]{3,8}`, `:`, asset reference `[-.%a-zA-Z0-9]{1,128}`. A text with a
/// trailing `/token_id` is a [`Caip19AssetId`](super::Caip19AssetId), not an
/// asset type. No canonicalization is applied (CAIP-19 requires none): EIP-55
/// and lowercase spellings of one address are different asset types.
///
/// Equality and hashing are by text; ordering compares the chain id, then the
/// asset namespace, then the asset reference, each by bytes.
///
/// ```
/// use swaproute::caip::Caip19AssetType;
/// let ether: Caip19AssetType = "eip155:1/slip44:60".parse().unwrap();
/// assert_eq!(ether.chain_id().to_string(), "eip155:1");
/// assert_eq!((ether.asset_namespace(), ether.asset_reference()), ("slip44", "60"));
/// assert_eq!(ether.to_string(), "eip155:1/slip44:60");
/// ```
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Caip19AssetType {
    chain_id: ChainId,
    asset_namespace: Box<str>,
    asset_reference: Box<str>,
}

impl Caip19AssetType {
    /// Parses `chain_id/asset_namespace:asset_reference`.
    ///
    /// # Errors
    /// [`InvalidCaipId`] naming the first component that breaks the grammar;
    /// [`InvalidCaipId::UnexpectedTokenId`] when a `/token_id` follows.
    pub fn parse(text: &str) -> Result<Self, InvalidCaipId> {
        let parts = grammar::caip19(text)?;
        if let Some((_, at)) = parts.token_id {
            return Err(InvalidCaipId::UnexpectedTokenId { at });
        }
        let chain_id = ChainId::from_grammar(parts.namespace, parts.reference);
        Ok(Caip19AssetType::from_grammar(
            chain_id,
            parts.asset_namespace,
            parts.asset_reference,
        ))
    }

    /// Only for components the grammar has already accepted.
    pub(super) fn from_grammar(
        chain_id: ChainId,
        asset_namespace: &str,
        asset_reference: &str,
    ) -> Self {
        Caip19AssetType {
            chain_id,
            asset_namespace: asset_namespace.into(),
            asset_reference: asset_reference.into(),
        }
    }

    /// The asset type of `asset_namespace:asset_reference` on `chain_id`.
    ///
    /// ```
    /// use swaproute::caip::{Caip19AssetType, ChainId};
    /// let chain = ChainId::new("cosmos", "cosmoshub-3").unwrap();
    /// let atom = Caip19AssetType::new(chain, "slip44", "118").unwrap();
    /// assert_eq!(atom.to_string(), "cosmos:cosmoshub-3/slip44:118");
    /// ```
    ///
    /// # Errors
    /// [`InvalidCaipId`] naming the component that breaks the grammar (offsets
    /// count from the start of that component).
    pub fn new(
        chain_id: ChainId,
        asset_namespace: &str,
        asset_reference: &str,
    ) -> Result<Self, InvalidCaipId> {
        grammar::component(CaipComponent::AssetNamespace, asset_namespace)?;
        grammar::component(CaipComponent::AssetReference, asset_reference)?;
        Ok(Caip19AssetType {
            chain_id,
            asset_namespace: asset_namespace.into(),
            asset_reference: asset_reference.into(),
        })
    }

    /// The chain the asset lives on.
    pub fn chain_id(&self) -> &ChainId {
        &self.chain_id
    }

    /// The asset namespace, e.g. `erc20`.
    pub fn asset_namespace(&self) -> &str {
        &self.asset_namespace
    }

    /// The asset reference, e.g. a token contract address.
    pub fn asset_reference(&self) -> &str {
        &self.asset_reference
    }
}

impl fmt::Display for Caip19AssetType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}/{}:{}",
            self.chain_id, self.asset_namespace, self.asset_reference
        )
    }
}

crate::text::text_traits!(
    Caip19AssetType,
    Caip19AssetType::parse,
    super::InvalidCaipId,
    "a CAIP-19 asset type"
);
