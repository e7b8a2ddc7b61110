//! `{"assetId": "…", "value": …}`: a value in a named asset.

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use crate::ids::AssetId;

/// A value in a named asset, `{"assetId":"BTC","value":0.00079787}`.
///
/// Every combination is a valid record, so the fields are public; whether a
/// value makes sense (a positive multiplier, a non-negative fee) is a question
/// for the type that holds it. Decoding accepts the value as a JSON number or a
/// strict decimal string; the service's number/string choice on the way out is
/// made by the holder through [`as_number`] or [`as_string`].
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AssetAmount {
    /// The asset the value is in.
    pub asset_id: AssetId,
    /// The value. Serialized as a JSON number by default.
    #[serde(with = "crate::decimal::serde::number")]
    pub value: Decimal,
}

impl AssetAmount {
    /// `value` of `asset_id`.
    pub fn new(asset_id: AssetId, value: Decimal) -> Self {
        AssetAmount { asset_id, value }
    }
}

/// `#[serde(with = "as_string")]` for an [`AssetAmount`] whose value the service
/// writes as a JSON string (quotes, current order amounts).
pub mod as_string {
    use super::{AssetAmount, AssetId, Decimal};
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Borrowed<'a> {
        asset_id: &'a AssetId,
        #[serde(with = "crate::decimal::serde::string")]
        value: &'a Decimal,
    }

    /// Writes `{"assetId":…, "value":"…"}`.
    ///
    /// # Errors
    /// Whatever the serializer reports.
    pub fn serialize<S: Serializer>(
        amount: &AssetAmount,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        Borrowed {
            asset_id: &amount.asset_id,
            value: &amount.value,
        }
        .serialize(serializer)
    }

    /// Reads the value as a JSON number or string.
    ///
    /// # Errors
    /// When the object is malformed.
    pub fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<AssetAmount, D::Error> {
        AssetAmount::deserialize(deserializer)
    }

    /// The same for `Option<AssetAmount>`: `null` or absent (with `#[serde(default)]`) is `None`.
    pub mod option {
        use super::{AssetAmount, Deserialize, Deserializer, Serializer};

        /// Writes `null` or `{"assetId":…, "value":"…"}`.
        ///
        /// # Errors
        /// Whatever the serializer reports.
        pub fn serialize<S: Serializer>(
            amount: &Option<AssetAmount>,
            serializer: S,
        ) -> Result<S::Ok, S::Error> {
            match amount {
                Some(amount) => super::serialize(amount, serializer),
                None => serializer.serialize_none(),
            }
        }

        /// Reads `null` or an amount.
        ///
        /// # Errors
        /// When the object is malformed.
        pub fn deserialize<'de, D: Deserializer<'de>>(
            deserializer: D,
        ) -> Result<Option<AssetAmount>, D::Error> {
            Option::<AssetAmount>::deserialize(deserializer)
        }
    }
}

/// `#[serde(with = "as_number")]` for an [`AssetAmount`] whose value the service
/// writes as a JSON number (rates). The same as the derived impl; named for clarity.
pub mod as_number {
    use super::AssetAmount;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    /// Writes `{"assetId":…, "value":…}` with a numeric value.
    ///
    /// # Errors
    /// Whatever the serializer reports.
    pub fn serialize<S: Serializer>(
        amount: &AssetAmount,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        amount.serialize(serializer)
    }

    /// Reads the value as a JSON number or string.
    ///
    /// # Errors
    /// When the object is malformed.
    pub fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<AssetAmount, D::Error> {
        AssetAmount::deserialize(deserializer)
    }
}
