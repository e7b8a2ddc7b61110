//! The listings: `GET /v3/pairs` and `GET /v3/assets` / `GET /v4/assets`,
//! bare JSON arrays with a cap on their length and unique ids.

use alloc::collections::BTreeSet;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;
use core::marker::PhantomData;

use serde::de::{SeqAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize};

use super::{Asset, Pair, PairAssets};
use crate::caip::{AssetDirectory, AssetIdForm, AssetRef, UnresolvedAsset};
use crate::error::ErrorCode;
use crate::rate::PairId;

/// Most pairs one listing may hold (ruling 17 (docs/RULES.md)). The live
/// service lists a few thousand.
pub const MAX_PAIRS: usize = 262_144;

/// Most assets one listing may hold (ruling 17). The live service lists a
/// few thousand.
pub const MAX_ASSETS: usize = 65_536;

/// Why a list is not a listing.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum InvalidListing {
    /// More entries than the cap.
    #[error("a listing of more than {max} entries")]
    TooMany {
        /// The cap ([`MAX_PAIRS`] or [`MAX_ASSETS`]).
        max: usize,
    },
    /// Two entries share an id: a lookup by id would be ambiguous.
    #[error("the listing names {id} twice")]
    DuplicateId {
        /// The repeated id.
        id: String,
    },
}

impl InvalidListing {
    /// `PROVIDER_ERROR`: the service sent a listing the crate cannot use.
    pub const fn code(&self) -> ErrorCode {
        ErrorCode::ProviderError
    }
}

/// The entry types of a listing: their id, and the cap.
trait Entry: Sized {
    type Id: Ord + ToString;
    const MAX: usize;
    fn entry_id(&self) -> &Self::Id;
}

impl Entry for Pair {
    type Id = PairId;
    const MAX: usize = MAX_PAIRS;
    fn entry_id(&self) -> &PairId {
        self.id()
    }
}

impl Entry for Asset {
    type Id = AssetRef;
    const MAX: usize = MAX_ASSETS;
    fn entry_id(&self) -> &AssetRef {
        &self.id
    }
}

/// The checks of a whole list: the cap, unique ids.
fn check<T: Entry>(entries: &[T]) -> Result<(), InvalidListing> {
    if entries.len() > T::MAX {
        return Err(InvalidListing::TooMany { max: T::MAX });
    }
    let mut seen = BTreeSet::new();
    for entry in entries {
        if !seen.insert(entry.entry_id()) {
            return Err(InvalidListing::DuplicateId {
                id: entry.entry_id().to_string(),
            });
        }
    }
    Ok(())
}

/// Decodes a bare array, refusing it past the cap before reading further.
fn decode<'de, D: Deserializer<'de>, T: Entry + Deserialize<'de>>(
    deserializer: D,
) -> Result<Vec<T>, D::Error> {
    struct Entries<T>(PhantomData<T>);
    impl<'de, T: Entry + Deserialize<'de>> Visitor<'de> for Entries<T> {
        type Value = Vec<T>;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a JSON array")
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
            let mut entries = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(256));
            while let Some(entry) = seq.next_element()? {
                if entries.len() == T::MAX {
                    return Err(serde::de::Error::custom(InvalidListing::TooMany {
                        max: T::MAX,
                    }));
                }
                entries.push(entry);
            }
            check(&entries).map_err(serde::de::Error::custom)?;
            Ok(entries)
        }
    }
    deserializer.deserialize_seq(Entries(PhantomData))
}

/// `GET /v3/pairs`: a bare JSON array of [`Pair`]s, at most [`MAX_PAIRS`],
/// each id once. The CSV form (`?format=csv`) is read and written by
/// [`from_csv`](Self::from_csv) and [`to_csv`](Self::to_csv).
///
/// ```
/// use swaproute::discovery::PairsResponse;
/// let pairs: PairsResponse = serde_json::from_str(
///     r#"[{"id":"LTC_XMR","from":"LTC","to":"XMR"},{"id":"SOL_USDC","from":"SOL","to":"USDC"}]"#)?;
/// assert!(pairs.contains(&"SOL_USDC".parse()?));
/// assert_eq!(pairs.to_csv(), "LTC_XMR,SOL_USDC");
/// assert_eq!(PairsResponse::from_csv("LTC_XMR,SOL_USDC")?, pairs);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct PairsResponse(Vec<Pair>);

impl PairsResponse {
    /// The pairs, in listing order.
    pub fn pairs(&self) -> &[Pair] {
        &self.0
    }

    /// `true` when the listing holds `pair`.
    pub fn contains(&self, pair: &PairId) -> bool {
        self.0.iter().any(|p| p.id() == pair)
    }

    /// The record of `pair`.
    pub fn get(&self, pair: &PairId) -> Option<&Pair> {
        self.0.iter().find(|p| p.id() == pair)
    }
}

impl TryFrom<Vec<Pair>> for PairsResponse {
    type Error = InvalidListing;

    /// # Errors
    /// [`InvalidListing`]: more than [`MAX_PAIRS`] pairs, or a repeated id.
    fn try_from(pairs: Vec<Pair>) -> Result<Self, Self::Error> {
        check(&pairs)?;
        Ok(PairsResponse(pairs))
    }
}

impl<'de> Deserialize<'de> for PairsResponse {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        decode(deserializer).map(PairsResponse)
    }
}

/// `GET /v3/assets` and `GET /v4/assets`: a bare JSON array of [`Asset`]s, at
/// most [`MAX_ASSETS`], each id once (in whichever form it is named).
///
/// A V4 listing names its assets by CAIP-19 id by default and by legacy id
/// with `caip19=false`; [`render`](Self::render) gives the same listing in
/// either form through the caller's [`AssetDirectory`].
///
/// ```
/// use swaproute::caip::{AssetDirectory, AssetIdForm};
/// use swaproute::discovery::AssetsResponse;
/// let v3: AssetsResponse = serde_json::from_str(
///     r#"[{"id":"LTC","name":"Litecoin","symbol":"LTC","decimals":8,"network":"litecoin"}]"#)?;
/// let mut directory = AssetDirectory::new();
/// directory.insert("LTC".parse()?, "bip122:12a765e31ffd4059bada1e25190f6e98/slip44:2".parse()?)?;
/// let v4 = v3.render(&directory, AssetIdForm::Caip19)?;
/// assert_eq!(v4.assets()[0].id.to_string(), "bip122:12a765e31ffd4059bada1e25190f6e98/slip44:2");
/// assert_eq!(v4.render(&directory, AssetIdForm::Legacy)?, v3);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct AssetsResponse(Vec<Asset>);

/// Why a listing cannot be rendered in another id form.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RenderError {
    /// The directory does not know an asset (`UNRESOLVED_ASSET`).
    #[error(transparent)]
    Unresolved(#[from] UnresolvedAsset),
    /// The listing named one asset in both forms, so the rendering names it
    /// twice (`PROVIDER_ERROR`).
    #[error(transparent)]
    Listing(#[from] InvalidListing),
}

impl RenderError {
    /// The code, from the one table.
    pub const fn code(&self) -> ErrorCode {
        match self {
            RenderError::Unresolved(_) => ErrorCode::UnresolvedAsset,
            RenderError::Listing(error) => error.code(),
        }
    }
}

impl AssetsResponse {
    /// The assets, in listing order.
    pub fn assets(&self) -> &[Asset] {
        &self.0
    }

    /// The record of `asset` (named in the listing's form).
    pub fn get(&self, asset: &AssetRef) -> Option<&Asset> {
        self.0.iter().find(|a| a.id == *asset)
    }

    /// The records of `pair`'s two assets, by their legacy ids (a V4 listing
    /// is [rendered](Self::render) in the legacy form first).
    ///
    /// # Errors
    /// [`UnresolvedAsset`] (`UNRESOLVED_ASSET`) naming the first of the
    /// pair's assets the listing does not hold.
    pub fn pair_assets(&self, pair: &PairId) -> Result<PairAssets<'_>, UnresolvedAsset> {
        let find = |id: &crate::ids::AssetId| {
            let asset = AssetRef::Legacy(id.clone());
            self.get(&asset).ok_or(UnresolvedAsset { asset })
        };
        Ok(PairAssets::new(find(pair.from())?, find(pair.to())?))
    }

    /// The same listing with every id named in `form` (`caip19=true`, the V4
    /// default, or `caip19=false`), through `directory`.
    ///
    /// # Errors
    /// [`RenderError::Unresolved`] naming the first asset `directory` does not
    /// know; [`RenderError::Listing`] when two records become one id.
    pub fn render(
        &self,
        directory: &AssetDirectory,
        form: AssetIdForm,
    ) -> Result<AssetsResponse, RenderError> {
        let assets = self
            .0
            .iter()
            .map(|asset| {
                directory.render(&asset.id, form).map(|id| Asset {
                    id,
                    ..asset.clone()
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(AssetsResponse::try_from(assets)?)
    }
}

impl TryFrom<Vec<Asset>> for AssetsResponse {
    type Error = InvalidListing;

    /// # Errors
    /// [`InvalidListing`]: more than [`MAX_ASSETS`] assets, or a repeated id.
    fn try_from(assets: Vec<Asset>) -> Result<Self, Self::Error> {
        check(&assets)?;
        Ok(AssetsResponse(assets))
    }
}

impl<'de> Deserialize<'de> for AssetsResponse {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        decode(deserializer).map(AssetsResponse)
    }
}
