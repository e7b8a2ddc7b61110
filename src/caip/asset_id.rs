//! CAIP-19 asset ids: `chain_id/asset_namespace:asset_reference/token_id`.

use alloc::boxed::Box;
use core::fmt;

use super::grammar;
use super::{Caip19AssetType, CaipComponent, ChainId, InvalidCaipId, MAX_ASSET_TYPE_LEN};

/// The longest CAIP-19 asset id, in bytes: 179 + 1 + 78.
pub const MAX_ASSET_ID_LEN: usize = MAX_ASSET_TYPE_LEN + 1 + 78;

/// A CAIP-19 asset id: an asset type and a token id, identifying one
/// non-fungible asset (`eip155:1/erc721:0x06012c8cf97BEaD5deAe237070F9587f8E7A266d/771769`,
/// `hedera:mainnet/nft:0.0.55492/12`).
///
/// Grammar (case-sensitive): a [`Caip19AssetType`], `/`, token id
/// `[-.%a-zA-Z0-9]{1,78}`. Equality and hashing are by text; ordering compares
/// the asset type (see its docs), then the token id by bytes.
///
/// ```
/// use swaproute::caip::Caip19AssetId;
/// let kitty: Caip19AssetId = "eip155:1/erc721:0x06012c8cf97BEaD5deAe237070F9587f8E7A266d/771769".parse().unwrap();
/// assert_eq!(kitty.asset_namespace(), "erc721");
/// assert_eq!(kitty.token_id(), "771769");
/// assert_eq!(kitty.asset_type().to_string(), "eip155:1/erc721:0x06012c8cf97BEaD5deAe237070F9587f8E7A266d");
/// assert!("eip155:1/slip44:60".parse::<Caip19AssetId>().is_err()); // no token id
/// ```
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Caip19AssetId {
    asset_type: Caip19AssetType,
    token_id: Box<str>,
}

impl Caip19AssetId {
    /// Parses `chain_id/asset_namespace:asset_reference/token_id`.
    ///
    /// # Errors
    /// [`InvalidCaipId`] naming the first component that breaks the grammar;
    /// [`InvalidCaipId::MissingTokenId`] when the text is an asset type.
    pub fn parse(text: &str) -> Result<Self, InvalidCaipId> {
        let parts = grammar::caip19(text)?;
        let (token_id, _) = parts.token_id.ok_or(InvalidCaipId::MissingTokenId)?;
        let chain_id = ChainId::from_grammar(parts.namespace, parts.reference);
        Ok(Caip19AssetId {
            asset_type: Caip19AssetType::from_grammar(
                chain_id,
                parts.asset_namespace,
                parts.asset_reference,
            ),
            token_id: token_id.into(),
        })
    }

    /// The asset id of `token_id` within `asset_type`.
    ///
    /// ```
    /// use swaproute::caip::{Caip19AssetId, Caip19AssetType};
    /// let robots: Caip19AssetType = "hedera:mainnet/nft:0.0.55492".parse().unwrap();
    /// assert_eq!(Caip19AssetId::new(robots, "12").unwrap().to_string(), "hedera:mainnet/nft:0.0.55492/12");
    /// ```
    ///
    /// # Errors
    /// [`InvalidCaipId`] when `token_id` breaks the grammar (offsets count from
    /// its start).
    pub fn new(asset_type: Caip19AssetType, token_id: &str) -> Result<Self, InvalidCaipId> {
        grammar::component(CaipComponent::TokenId, token_id)?;
        Ok(Caip19AssetId {
            asset_type,
            token_id: token_id.into(),
        })
    }

    /// The asset type (the collection of a non-fungible asset).
    pub fn asset_type(&self) -> &Caip19AssetType {
        &self.asset_type
    }

    /// The asset type, dropping the token id.
    pub fn into_asset_type(self) -> Caip19AssetType {
        self.asset_type
    }

    /// The chain the asset lives on.
    pub fn chain_id(&self) -> &ChainId {
        self.asset_type.chain_id()
    }

    /// The asset namespace, e.g. `erc721`.
    pub fn asset_namespace(&self) -> &str {
        self.asset_type.asset_namespace()
    }

    /// The asset reference, e.g. a collection contract address.
    pub fn asset_reference(&self) -> &str {
        self.asset_type.asset_reference()
    }

    /// The token id, e.g. `771769`.
    pub fn token_id(&self) -> &str {
        &self.token_id
    }
}

impl fmt::Display for Caip19AssetId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.asset_type, self.token_id)
    }
}

crate::text::text_traits!(
    Caip19AssetId,
    Caip19AssetId::parse,
    super::InvalidCaipId,
    "a CAIP-19 asset id"
);
