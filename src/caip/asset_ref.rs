//! An asset named in either form: legacy id or CAIP-19 asset type.

use core::fmt;

use super::{AssetIdForm, Caip19AssetType, InvalidCaipId};
use crate::ids::{AssetId, InvalidId};

/// An asset as a client names it: a legacy id (`BTC`, `USDCbasemainnetB5A52617`)
/// or a CAIP-19 asset type (`bip122:000000000019d6689c085ae165831e93/slip44:0`).
///
/// [`AssetRef::parse`] tells the forms apart by the CAIP separators: a text
/// containing `:` or `/` must be a valid CAIP-19 asset type (legacy ids are
/// alphanumeric and contain neither), anything else is a legacy id. So a
/// mistyped CAIP-19 id is reported with the component that failed, never
/// silently taken as an unknown legacy id.
///
/// Serialized as its text. Ordering puts legacy ids before CAIP-19 ids.
///
/// ```
/// use swaproute::caip::{AssetIdForm, AssetRef};
/// let btc: AssetRef = "BTC".parse().unwrap();
/// assert_eq!(btc.form(), AssetIdForm::Legacy);
/// let ether: AssetRef = "eip155:1/slip44:60".parse().unwrap();
/// assert_eq!(ether.form(), AssetIdForm::Caip19);
/// assert_eq!(ether.to_string(), "eip155:1/slip44:60");
/// assert!("eip155:1/slip44".parse::<AssetRef>().is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AssetRef {
    /// A legacy asset id.
    Legacy(AssetId),
    /// A CAIP-19 asset type.
    Caip19(Caip19AssetType),
}

/// Why a text names no asset in either form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum InvalidAssetRef {
    /// The text has no CAIP separator and is not a valid legacy id.
    #[error("invalid legacy asset id: {0}")]
    Legacy(InvalidId),
    /// The text has a CAIP separator (`:` or `/`) but is not a CAIP-19 asset type.
    #[error("invalid CAIP-19 asset type: {0}")]
    Caip19(InvalidCaipId),
}

impl AssetRef {
    /// Parses either form (see the type's docs for how they are told apart).
    ///
    /// # Errors
    /// [`InvalidAssetRef::Caip19`] naming the failing component when the text
    /// contains `:` or `/`; [`InvalidAssetRef::Legacy`] when it is not a valid id.
    pub fn parse(text: &str) -> Result<Self, InvalidAssetRef> {
        if text.contains([':', '/']) {
            Caip19AssetType::parse(text)
                .map(AssetRef::Caip19)
                .map_err(InvalidAssetRef::Caip19)
        } else {
            AssetId::new(text)
                .map(AssetRef::Legacy)
                .map_err(InvalidAssetRef::Legacy)
        }
    }

    /// Which form the asset is named in.
    pub const fn form(&self) -> AssetIdForm {
        match self {
            AssetRef::Legacy(_) => AssetIdForm::Legacy,
            AssetRef::Caip19(_) => AssetIdForm::Caip19,
        }
    }

    /// The legacy id, when named in that form.
    pub const fn as_legacy(&self) -> Option<&AssetId> {
        match self {
            AssetRef::Legacy(id) => Some(id),
            AssetRef::Caip19(_) => None,
        }
    }

    /// The CAIP-19 asset type, when named in that form.
    pub const fn as_caip19(&self) -> Option<&Caip19AssetType> {
        match self {
            AssetRef::Caip19(id) => Some(id),
            AssetRef::Legacy(_) => None,
        }
    }
}

impl From<AssetId> for AssetRef {
    fn from(id: AssetId) -> Self {
        AssetRef::Legacy(id)
    }
}

impl From<Caip19AssetType> for AssetRef {
    fn from(id: Caip19AssetType) -> Self {
        AssetRef::Caip19(id)
    }
}

impl fmt::Display for AssetRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AssetRef::Legacy(id) => fmt::Display::fmt(id, f),
            AssetRef::Caip19(id) => fmt::Display::fmt(id, f),
        }
    }
}

crate::text::parse_traits!(AssetRef, AssetRef::parse, InvalidAssetRef);
crate::text::display_serde!(
    AssetRef,
    "a legacy asset id or a CAIP-19 asset type",
    AssetRef::parse,
    |v, e| format_args!("invalid asset {v:?}: {e}")
);
