//! The caller's bidirectional mapping between legacy and CAIP-19 asset ids.

use alloc::collections::BTreeMap;

use super::{AssetIdForm, AssetRef, Caip19AssetType, ChainId};
use crate::error::ErrorCode;
use crate::ids::AssetId;

/// A one-to-one mapping between legacy asset ids and CAIP-19 asset types,
/// supplied by the caller (the crate knows no assets of its own).
///
/// An asset is *resolved* when the directory knows it, in whichever form it is
/// named; resolution and rendering are lookups, never guesses.
///
/// ```
/// use swaproute::caip::{AssetDirectory, AssetIdForm, AssetRef};
/// use swaproute::ErrorCode;
/// let mut assets = AssetDirectory::new();
/// assets.insert("BTC".parse().unwrap(), "bip122:000000000019d6689c085ae165831e93/slip44:0".parse().unwrap()).unwrap();
///
/// let btc: AssetRef = "BTC".parse().unwrap();
/// let caip = assets.render(&btc, AssetIdForm::Caip19).unwrap();
/// assert_eq!(caip.to_string(), "bip122:000000000019d6689c085ae165831e93/slip44:0");
/// assert_eq!(assets.render(&caip, AssetIdForm::Legacy).unwrap().to_string(), "BTC");
///
/// let unknown: AssetRef = "DOGE".parse().unwrap();
/// let error = swaproute::ApiError::from(assets.render(&unknown, AssetIdForm::Caip19).unwrap_err());
/// assert_eq!(error.code(), ErrorCode::UnresolvedAsset);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AssetDirectory {
    by_legacy: BTreeMap<AssetId, Caip19AssetType>,
    by_caip19: BTreeMap<Caip19AssetType, AssetId>,
}

/// An insertion would map one id to two others, breaking the one-to-one mapping.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DirectoryConflict {
    /// The legacy id is already mapped to another CAIP-19 asset type.
    #[error("legacy asset id {legacy} is already mapped to {existing}")]
    Legacy {
        /// The legacy id being inserted.
        legacy: AssetId,
        /// Its existing CAIP-19 asset type.
        existing: Caip19AssetType,
    },
    /// The CAIP-19 asset type is already mapped to another legacy id.
    #[error("CAIP-19 asset type {caip19} is already mapped to {existing}")]
    Caip19 {
        /// The CAIP-19 asset type being inserted.
        caip19: Caip19AssetType,
        /// Its existing legacy id.
        existing: AssetId,
    },
}

/// An asset the directory does not know.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("asset {asset} cannot be resolved")]
pub struct UnresolvedAsset {
    /// The asset as it was named.
    pub asset: AssetRef,
}

impl UnresolvedAsset {
    /// `UNRESOLVED_ASSET`, from the one table.
    ///
    /// ```
    /// use swaproute::caip::{AssetDirectory, AssetRef};
    /// use swaproute::ErrorCode;
    /// let error = AssetDirectory::new().resolve(&"BTC".parse::<AssetRef>()?).unwrap_err();
    /// assert_eq!(error.code(), ErrorCode::UnresolvedAsset);
    /// assert_eq!(error.http_status().as_u16(), 400);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub const fn code(&self) -> ErrorCode {
        ErrorCode::UnresolvedAsset
    }

    /// The HTTP status of [`code`](Self::code): 400.
    pub const fn http_status(&self) -> crate::error::HttpStatus {
        self.code().http_status()
    }
}

/// An asset the directory knows, with both of its ids.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ResolvedAsset {
    legacy: AssetId,
    caip19: Caip19AssetType,
}

impl ResolvedAsset {
    /// The legacy id.
    pub fn legacy(&self) -> &AssetId {
        &self.legacy
    }

    /// The CAIP-19 asset type.
    pub fn caip19(&self) -> &Caip19AssetType {
        &self.caip19
    }

    /// The chain the asset lives on.
    pub fn chain_id(&self) -> &ChainId {
        self.caip19.chain_id()
    }

    /// The asset named in `form`.
    pub fn to_form(&self, form: AssetIdForm) -> AssetRef {
        match form {
            AssetIdForm::Caip19 => AssetRef::Caip19(self.caip19.clone()),
            AssetIdForm::Legacy => AssetRef::Legacy(self.legacy.clone()),
        }
    }
}

impl AssetDirectory {
    /// An empty directory.
    pub fn new() -> Self {
        AssetDirectory::default()
    }

    /// A directory of `pairs`.
    ///
    /// # Errors
    /// [`DirectoryConflict`] at the first pair that would map an id to two others.
    pub fn try_from_pairs<I>(pairs: I) -> Result<Self, DirectoryConflict>
    where
        I: IntoIterator<Item = (AssetId, Caip19AssetType)>,
    {
        let mut directory = AssetDirectory::new();
        for (legacy, caip19) in pairs {
            directory.insert(legacy, caip19)?;
        }
        Ok(directory)
    }

    /// Maps `legacy` and `caip19` to each other. Inserting a pair that is
    /// already present is a no-op.
    ///
    /// # Errors
    /// [`DirectoryConflict`] when either id is already mapped to a different
    /// one; the directory is then unchanged.
    pub fn insert(
        &mut self,
        legacy: AssetId,
        caip19: Caip19AssetType,
    ) -> Result<(), DirectoryConflict> {
        if let Some(existing) = self.by_legacy.get(&legacy) {
            if *existing != caip19 {
                return Err(DirectoryConflict::Legacy {
                    legacy,
                    existing: existing.clone(),
                });
            }
        }
        if let Some(existing) = self.by_caip19.get(&caip19) {
            if *existing != legacy {
                return Err(DirectoryConflict::Caip19 {
                    caip19,
                    existing: existing.clone(),
                });
            }
        }
        self.by_legacy.insert(legacy.clone(), caip19.clone());
        self.by_caip19.insert(caip19, legacy);
        Ok(())
    }

    /// The CAIP-19 asset type of a legacy id.
    pub fn caip19_of(&self, legacy: &AssetId) -> Option<&Caip19AssetType> {
        self.by_legacy.get(legacy)
    }

    /// The legacy id of a CAIP-19 asset type.
    pub fn legacy_of(&self, caip19: &Caip19AssetType) -> Option<&AssetId> {
        self.by_caip19.get(caip19)
    }

    /// Both ids of `asset`, named in either form.
    ///
    /// # Errors
    /// [`UnresolvedAsset`] (`UNRESOLVED_ASSET` as an [`ApiError`](crate::error::ApiError)) when the
    /// directory does not know the asset.
    pub fn resolve(&self, asset: &AssetRef) -> Result<ResolvedAsset, UnresolvedAsset> {
        let pair = match asset {
            AssetRef::Legacy(legacy) => self.by_legacy.get_key_value(legacy),
            AssetRef::Caip19(caip19) => self.by_caip19.get_key_value(caip19).map(|(c, l)| (l, c)),
        };
        pair.map(|(legacy, caip19)| ResolvedAsset {
            legacy: legacy.clone(),
            caip19: caip19.clone(),
        })
        .ok_or_else(|| UnresolvedAsset {
            asset: asset.clone(),
        })
    }

    /// `asset` named in `form`, the form a V4 response uses (see
    /// [`AssetIdForm`]). The asset must be known even when it is already named
    /// in `form`, so a response only ever names assets the directory knows.
    ///
    /// # Errors
    /// [`UnresolvedAsset`] (`UNRESOLVED_ASSET` as an [`ApiError`](crate::error::ApiError)) when the
    /// directory does not know the asset.
    pub fn render(&self, asset: &AssetRef, form: AssetIdForm) -> Result<AssetRef, UnresolvedAsset> {
        self.resolve(asset).map(|resolved| resolved.to_form(form))
    }

    /// The number of mapped pairs.
    pub fn len(&self) -> usize {
        self.by_legacy.len()
    }

    /// `true` when nothing is mapped.
    pub fn is_empty(&self) -> bool {
        self.by_legacy.is_empty()
    }

    /// Every pair, ordered by legacy id.
    pub fn iter(&self) -> impl Iterator<Item = (&AssetId, &Caip19AssetType)> + '_ {
        self.by_legacy.iter()
    }
}
