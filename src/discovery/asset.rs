//! An asset record (`GET /v3/assets`, `GET /v3/assets/:assetId`, `GET /v4/assets`).

use alloc::collections::BTreeMap;
use alloc::string::String;
use core::fmt;

use serde::de::{self, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::{AssetText, Decimals, Network, TooPrecise};
use crate::caip::AssetRef;
use crate::decimal::Decimal;
use crate::decimal::{Amount, DecimalError};
use crate::wire::Presence;

/// The object under `meta`, and under the key named after the network:
/// `{"contractAddress": "0x…"}` for a token. Other keys are ignored, as
/// elsewhere in the crate.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AssetMeta {
    /// The token's contract address, as sent (`""` and `null` kept).
    #[serde(default, skip_serializing_if = "Presence::is_absent")]
    pub contract_address: Presence<AssetText>,
}

/// An asset record, as the service sends it:
///
/// ```json
/// {"id": "USDC", "name": "USD Coin", "network": "ethereum", "decimals": 6,
///  "symbol": "USDC", "meta": {"contractAddress": "0xF924…"},
///  "ethereum": {"contractAddress": "0xF924…"}}
/// ```
///
/// A native asset has neither `meta` nor the network-keyed object
/// (`{"id": "LTC", "name": "Litecoin", "symbol": "LTC", "decimals": 8,
/// "network": "litecoin"}`).
///
/// **The network-keyed object.** The last key of a token's record is named
/// after its network (`"ethereum"` when `network` is `ethereum`). It is held,
/// typed, in [`network_meta`](Self::network_meta), and written back under the
/// name of [`network`](Self::network), so the key always matches the network.
/// A key of another name is unknown, and ignored like every unknown key. Either
/// of `meta` and the network-keyed object may come without the other; each
/// keeps its own absent / `null` / value form (ruling 22 (docs/RULES.md)).
///
/// **Ids.** [`id`](Self::id) is an [`AssetRef`]: a legacy id in V3 and in V4
/// with `caip19=false`, a CAIP-19 asset type in V4 by default (see
/// [`AssetsResponse::render`](super::AssetsResponse::render)).
///
/// Every field holds a valid value of its type and any combination is a
/// record the service can send, so the fields are public.
///
/// ```
/// use swaproute::discovery::Asset;
/// let ltc: Asset = serde_json::from_str(
///     r#"{"id":"LTC","name":"Litecoin","symbol":"LTC","decimals":8,"network":"litecoin"}"#)?;
/// assert_eq!(ltc.decimals.get(), 8);
/// assert!(ltc.meta.is_absent() && ltc.network_meta.is_absent());
/// assert!(ltc.check_amount(&"0.12345678".parse()?).is_ok());
/// let error = ltc.check_amount(&"0.123456789".parse()?).unwrap_err();
/// assert_eq!(error.to_string(), "0.123456789 has 9 decimal places, but LTC has 8");
/// assert_eq!(error.code(), swaproute::ErrorCode::InvalidAmount);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Asset {
    /// `id`: a legacy id or a CAIP-19 asset type.
    pub id: AssetRef,
    /// `name` (`"USD Coin"`).
    pub name: AssetText,
    /// `symbol`, case kept (`"aEthUSDC"`).
    pub symbol: AssetText,
    /// `decimals`.
    pub decimals: Decimals,
    /// `network` (`"ethereum"`).
    pub network: Network,
    /// `meta`.
    pub meta: Presence<AssetMeta>,
    /// The object under the key named after [`network`](Self::network).
    pub network_meta: Presence<AssetMeta>,
}

impl Asset {
    /// Checks that `amount` has no more decimal places than the asset's
    /// `decimals` (counted by value: `"1.50"` has 1).
    ///
    /// # Errors
    /// [`TooPrecise`] (`INVALID_AMOUNT`) naming the asset, its decimals and
    /// the amount.
    pub fn check_amount(&self, amount: &Amount) -> Result<(), TooPrecise> {
        if self.decimals.fits(*amount) {
            Ok(())
        } else {
            Err(TooPrecise::new(self.id.clone(), self.decimals, *amount))
        }
    }

    /// `value` rounded down to the asset's decimals: for an amount the user
    /// receives.
    ///
    /// # Errors
    /// See [`Decimals::round_down`].
    pub fn round_received(&self, value: Decimal) -> Result<Decimal, DecimalError> {
        self.decimals.round_down(value)
    }

    /// `value` rounded up to the asset's decimals: for an amount the user
    /// must send.
    ///
    /// # Errors
    /// See [`Decimals::round_up`].
    pub fn round_sent(&self, value: Decimal) -> Result<Decimal, DecimalError> {
        self.decimals.round_up(value)
    }
}

/// Writes the record's keys (`id`, `name`, `symbol`, `decimals`, `network`,
/// then `meta` and the network-keyed object when present).
impl Serialize for Asset {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("id", &self.id)?;
        map.serialize_entry("name", &self.name)?;
        map.serialize_entry("symbol", &self.symbol)?;
        map.serialize_entry("decimals", &self.decimals)?;
        map.serialize_entry("network", &self.network)?;
        if !self.meta.is_absent() {
            map.serialize_entry("meta", &self.meta)?;
        }
        if !self.network_meta.is_absent() {
            map.serialize_entry(self.network.as_str(), &self.network_meta)?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for Asset {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(AssetVisitor)
    }
}

/// An unknown key's value, kept only in case the key turns out to be the
/// network's (`network` may come after it).
enum Candidate {
    Object(AssetMeta),
    Null,
    Other,
}

crate::decimal::serde::deserialize_any!(<'de> Candidate, "any JSON value", {
        fn visit_bool<E: de::Error>(self, _: bool) -> Result<Candidate, E> {
            Ok(Candidate::Other)
        }
        fn visit_i64<E: de::Error>(self, _: i64) -> Result<Candidate, E> {
            Ok(Candidate::Other)
        }
        fn visit_u64<E: de::Error>(self, _: u64) -> Result<Candidate, E> {
            Ok(Candidate::Other)
        }
        fn visit_f64<E: de::Error>(self, _: f64) -> Result<Candidate, E> {
            Ok(Candidate::Other)
        }
        fn visit_str<E: de::Error>(self, _: &str) -> Result<Candidate, E> {
            Ok(Candidate::Other)
        }
        fn visit_unit<E: de::Error>(self) -> Result<Candidate, E> {
            Ok(Candidate::Null)
        }
        fn visit_none<E: de::Error>(self) -> Result<Candidate, E> {
            Ok(Candidate::Null)
        }
        fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Candidate, D::Error> {
            deserializer.deserialize_any(self)
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Candidate, A::Error> {
            while seq.next_element::<IgnoredAny>()?.is_some() {}
            Ok(Candidate::Other)
        }
        fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Candidate, A::Error> {
            AssetMeta::deserialize(de::value::MapAccessDeserializer::new(map)).map(Candidate::Object)
        }
});

struct AssetVisitor;

/// Stores a known key's value, refusing a repeated key.
fn once<T, E: de::Error>(slot: &mut Option<T>, value: T, key: &'static str) -> Result<(), E> {
    if slot.is_some() {
        return Err(E::duplicate_field(key));
    }
    *slot = Some(value);
    Ok(())
}

impl<'de> Visitor<'de> for AssetVisitor {
    type Value = Asset;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an asset record (a JSON object)")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Asset, A::Error> {
        let mut id = None;
        let mut name = None;
        let mut symbol = None;
        let mut decimals = None;
        let mut network: Option<Network> = None;
        let mut meta = None;
        // Unknown keys short enough to be a network, with their values; the
        // one named like `network` is kept once the record is read.
        let mut others: BTreeMap<String, Candidate> = BTreeMap::new();
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "id" => once(&mut id, map.next_value()?, "id")?,
                "name" => once(&mut name, map.next_value()?, "name")?,
                "symbol" => once(&mut symbol, map.next_value()?, "symbol")?,
                "decimals" => once(&mut decimals, map.next_value()?, "decimals")?,
                "network" => once(&mut network, map.next_value()?, "network")?,
                "meta" => once(&mut meta, map.next_value::<Presence<AssetMeta>>()?, "meta")?,
                _ if key.len() <= super::MAX_NETWORK_LEN => {
                    let value: Candidate = map.next_value()?;
                    if let Some(_repeated) = others.insert(key, value) {
                        return Err(de::Error::custom("an asset record repeats a key"));
                    }
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        let network = network.ok_or_else(|| de::Error::missing_field("network"))?;
        let network_meta = match others.remove(network.as_str()) {
            None => Presence::Absent,
            Some(Candidate::Null) => Presence::Null,
            Some(Candidate::Object(meta)) => Presence::Value(meta),
            Some(Candidate::Other) => {
                return Err(de::Error::custom(format_args!(
                    "the key named after the network ({network}) must hold an object or null"
                )))
            }
        };
        Ok(Asset {
            id: id.ok_or_else(|| de::Error::missing_field("id"))?,
            name: name.ok_or_else(|| de::Error::missing_field("name"))?,
            symbol: symbol.ok_or_else(|| de::Error::missing_field("symbol"))?,
            decimals: decimals.ok_or_else(|| de::Error::missing_field("decimals"))?,
            network,
            meta: meta.unwrap_or_default(),
            network_meta,
        })
    }
}
