//! A pair record (`GET /v3/pairs`, `GET /v3/pairs/:pairId`).

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::ids::AssetId;
use crate::rate::PairId;

/// A pair record, `{"id": "LTC_XMR", "from": "LTC", "to": "XMR"}`.
///
/// `from` and `to` are the two halves of `id`: a record whose `from` or `to`
/// disagrees with its id is refused ([`PairDisagrees`]), so the record is
/// its [`PairId`] and nothing else. Unknown keys are ignored.
///
/// ```
/// use swaproute::discovery::Pair;
/// let pair: Pair = serde_json::from_str(r#"{"id":"ETH_BTC","from":"ETH","to":"BTC"}"#)?;
/// assert_eq!((pair.from().as_str(), pair.to().as_str()), ("ETH", "BTC"));
/// assert!(serde_json::from_str::<Pair>(r#"{"id":"ETH_BTC","from":"BTC","to":"ETH"}"#).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pair {
    id: PairId,
}

/// A pair record whose `from` or `to` is not its id's half.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("pair {id} names from {from} and to {to}")]
pub struct PairDisagrees {
    /// The record's `id`.
    pub id: PairId,
    /// Its `from`.
    pub from: AssetId,
    /// Its `to`.
    pub to: AssetId,
}

impl Pair {
    /// The record of `id`.
    pub fn new(id: PairId) -> Self {
        Pair { id }
    }

    /// A record from its three keys.
    ///
    /// # Errors
    /// [`PairDisagrees`] when `from` or `to` is not `id`'s half.
    pub fn from_parts(id: PairId, from: AssetId, to: AssetId) -> Result<Self, PairDisagrees> {
        if *id.from() == from && *id.to() == to {
            Ok(Pair { id })
        } else {
            Err(PairDisagrees { id, from, to })
        }
    }

    /// `id`.
    pub fn id(&self) -> &PairId {
        &self.id
    }

    /// `from`.
    pub fn from(&self) -> &AssetId {
        self.id.from()
    }

    /// `to`.
    pub fn to(&self) -> &AssetId {
        self.id.to()
    }
}

impl From<PairId> for Pair {
    fn from(id: PairId) -> Self {
        Pair::new(id)
    }
}

#[derive(Serialize, Deserialize)]
struct Wire<I, A> {
    id: I,
    from: A,
    to: A,
}

impl Serialize for Pair {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        Wire {
            id: &self.id,
            from: self.from(),
            to: self.to(),
        }
        .serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Pair {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let wire = Wire::<PairId, AssetId>::deserialize(deserializer)?;
        Pair::from_parts(wire.id, wire.from, wire.to).map_err(serde::de::Error::custom)
    }
}
