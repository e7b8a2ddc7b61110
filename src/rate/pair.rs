//! Pair ids: `FROM_TO`.

use core::fmt;

use compact_str::CompactString;

use crate::ids::{check_id, AssetId, InvalidId};

/// A pair id, `FROM_TO` (`"BTC_ETH"`): the from asset, `_`, the to asset.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PairId {
    text: CompactString,
    from: AssetId,
    to: AssetId,
}

/// Why a text is not a pair id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum InvalidPairId {
    /// The text is not a valid id at all.
    #[error(transparent)]
    Id(#[from] InvalidId),
    /// The text is not two non-empty asset ids joined by a single `_`.
    #[error("pair id must be FROM_TO: two asset ids joined by one '_'")]
    NotFromTo,
}

impl PairId {
    /// Parses `FROM_TO`.
    ///
    /// ```
    /// use swaproute::PairId;
    /// let pair: PairId = "BTC_ETH".parse().unwrap();
    /// assert_eq!((pair.from().as_str(), pair.to().as_str()), ("BTC", "ETH"));
    /// assert!("BTCETH".parse::<PairId>().is_err());
    /// ```
    ///
    /// # Errors
    /// [`InvalidPairId`] when the text is not a valid id or not `FROM_TO`.
    pub fn new(text: &str) -> Result<Self, InvalidPairId> {
        check_id(text)?;
        let split = text.find('_').ok_or(InvalidPairId::NotFromTo)?;
        let (from, to) = (
            text.get(..split).unwrap_or(""),
            text.get(split.saturating_add(1)..).unwrap_or(""),
        );
        if from.is_empty() || to.is_empty() || to.contains('_') {
            return Err(InvalidPairId::NotFromTo);
        }
        Ok(PairId {
            text: CompactString::new(text),
            from: AssetId::new(from)?,
            to: AssetId::new(to)?,
        })
    }

    /// The pair of `from` and `to`.
    ///
    /// # Errors
    /// [`InvalidPairId`] when either id contains `_` or the result is too long.
    pub fn from_assets(from: &AssetId, to: &AssetId) -> Result<Self, InvalidPairId> {
        PairId::new(&alloc::format!("{from}_{to}"))
    }

    /// The whole text.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The from asset.
    pub fn from(&self) -> &AssetId {
        &self.from
    }

    /// The to asset.
    pub fn to(&self) -> &AssetId {
        &self.to
    }
}

impl fmt::Display for PairId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

crate::text::text_traits!(PairId, PairId::new, InvalidPairId, "a pair id FROM_TO");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_of_short_and_long_assets_keep_their_parts() {
        // Whole texts of 7, 24, 25 and 63 bytes; assets of 3 to 31 bytes.
        let long = "USDCbasemainnetB5A52617abcdefgh";
        let cases = [
            ("BTC", "ETH"),
            ("BTC", "ETHETHETHETHETHETHET"),
            ("BTC", "ETHETHETHETHETHETHETH"),
            (long, long),
        ];
        let mut pairs = alloc::vec::Vec::new();
        for (from, to) in cases {
            let text = alloc::format!("{from}_{to}");
            let pair = PairId::new(&text).unwrap();
            assert_eq!(pair.as_str(), text);
            assert_eq!((pair.from().as_str(), pair.to().as_str()), (from, to));
            assert_eq!(alloc::format!("{pair}"), text);
            let rebuilt = PairId::from_assets(pair.from(), pair.to()).unwrap();
            assert_eq!(rebuilt, pair);
            pairs.push((text, pair));
        }
        for (text_a, a) in &pairs {
            for (text_b, b) in &pairs {
                assert_eq!(a.cmp(b), text_a.cmp(text_b), "{text_a} {text_b}");
            }
        }
        assert_eq!(
            [7, 24, 25, 63].map(|len| pairs.iter().any(|(t, _)| t.len() == len)),
            [true; 4]
        );
    }
}
