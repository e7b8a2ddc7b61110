//! A pair's two asset records, and the precision checks of its amounts.

use crate::caip::AssetRef;
use crate::decimal::Amount;
use crate::rate::PairId;

use super::{Asset, TooPrecise};

/// The records of a pair's two assets: the from asset's and the to asset's.
///
/// Built by [`AssetsResponse::pair_assets`](super::AssetsResponse::pair_assets)
/// (a pair joined to a listing) or [`PairAssets::new`]; an order plan takes it
/// through [`OrderContext::with_assets`](crate::order::OrderContext::with_assets).
///
/// ```
/// use swaproute::discovery::{AssetsResponse, PairAssets};
/// use swaproute::PairId;
/// let listing: AssetsResponse = serde_json::from_str(r#"[
///   {"id":"LTC","name":"Litecoin","symbol":"LTC","decimals":8,"network":"litecoin"},
///   {"id":"USDC","name":"USD Coin","symbol":"USDC","decimals":6,"network":"ethereum"}]"#)?;
/// let pair: PairId = "LTC_USDC".parse()?;
/// let assets: PairAssets<'_> = listing.pair_assets(&pair)?;
/// assert!(assets.check_from(&"0.12345678".parse()?).is_ok());
/// assert!(assets.check_to(&"0.1234567".parse()?).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PairAssets<'a> {
    from: &'a Asset,
    to: &'a Asset,
}

impl<'a> PairAssets<'a> {
    /// The records of a pair's from and to assets.
    pub fn new(from: &'a Asset, to: &'a Asset) -> Self {
        PairAssets { from, to }
    }

    /// The from asset's record.
    pub fn from(&self) -> &'a Asset {
        self.from
    }

    /// The to asset's record.
    pub fn to(&self) -> &'a Asset {
        self.to
    }

    /// `true` when the records are `pair`'s: their ids are the pair's legacy
    /// asset ids.
    pub fn matches(&self, pair: &PairId) -> bool {
        matches!(&self.from.id, AssetRef::Legacy(id) if id == pair.from())
            && matches!(&self.to.id, AssetRef::Legacy(id) if id == pair.to())
    }

    /// Checks an amount of the from asset ([`Asset::check_amount`]).
    ///
    /// # Errors
    /// [`TooPrecise`] when it has more decimal places than the from asset.
    pub fn check_from(&self, amount: &Amount) -> Result<(), TooPrecise> {
        self.from.check_amount(amount)
    }

    /// Checks an amount of the to asset ([`Asset::check_amount`]).
    ///
    /// # Errors
    /// [`TooPrecise`] when it has more decimal places than the to asset.
    pub fn check_to(&self, amount: &Amount) -> Result<(), TooPrecise> {
        self.to.check_amount(amount)
    }
}
