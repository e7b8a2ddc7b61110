//! CAIP identifiers: CAIP-2 chain ids and CAIP-19 asset types and asset ids,
//! legacy-or-CAIP asset references, and the caller's mapping between the forms.
//!
//! The grammars are those of the current CAIP specifications (all
//! case-sensitive, no canonicalization):
//!
//! ```text
//! chain_id:        namespace ":" reference                         (CAIP-2)
//! namespace:       [-a-z0-9]{3,8}
//! reference:       [-_a-zA-Z0-9]{1,32}
//! asset_type:      chain_id "/" asset_namespace ":" asset_reference (CAIP-19)
//! asset_namespace: [-a-z0-9]{3,8}
//! asset_reference: [-.%a-zA-Z0-9]{1,128}
//! asset_id:        asset_type "/" token_id                          (CAIP-19)
//! token_id:        [-.%a-zA-Z0-9]{1,78}
//! ```
//!
//! Each type has one parser that `FromStr`, `TryFrom<&str>` and serde call, and
//! `Display` writes the text back, so `parse(display(x)) == x`. Errors
//! ([`InvalidCaipId`]) name the [`CaipComponent`] that failed and why.
//!
//! ```
//! use swaproute::caip::{AssetDirectory, AssetIdForm, AssetRef, Caip19AssetType, CaipComponent, ChainId, InvalidCaipId};
//!
//! let dai: Caip19AssetType = "eip155:1/erc20:0x6b175474e89094c44da98b954eedeac495271d0f".parse()?;
//! assert_eq!(dai.chain_id(), &ChainId::new("eip155", "1")?);
//! assert_eq!(dai.asset_namespace(), "erc20");
//!
//! let error = "eip155:1/ERC20:0x6b17".parse::<Caip19AssetType>().unwrap_err();
//! assert_eq!(error.component(), CaipComponent::AssetNamespace);
//! assert_eq!(error, InvalidCaipId::InvalidCharacter { component: CaipComponent::AssetNamespace, found: 'E', at: 9 });
//!
//! // The caller's mapping between legacy ids and CAIP-19, and the `caip19` query parameter.
//! let mut assets = AssetDirectory::new();
//! assets.insert("ETH".parse()?, "eip155:1/slip44:60".parse()?)?;
//! let eth: AssetRef = "ETH".parse()?;
//! let form = AssetIdForm::from_query(None)?; // V4 default: CAIP-19
//! assert_eq!(assets.render(&eth, form)?.to_string(), "eip155:1/slip44:60");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod asset_id;
mod asset_ref;
mod asset_type;
mod chain_id;
mod directory;
mod error;
mod form;
mod grammar;

pub use asset_id::{Caip19AssetId, MAX_ASSET_ID_LEN};
pub use asset_ref::{AssetRef, InvalidAssetRef};
pub use asset_type::{Caip19AssetType, MAX_ASSET_TYPE_LEN};
pub use chain_id::{ChainId, MAX_CHAIN_ID_LEN};
pub use directory::{AssetDirectory, DirectoryConflict, ResolvedAsset, UnresolvedAsset};
pub use error::{CaipComponent, InvalidCaipId};
pub use form::{AssetIdForm, CAIP19_PARAM};

#[cfg(test)]
mod tests;
