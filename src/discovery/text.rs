//! The free texts of an asset record (`name`, `symbol`, a contract address)
//! and its `network`.

use alloc::string::String;

use crate::ids::{check_id, first_control, InvalidId};

/// The longest free text of a record (`name`, `symbol`, `contractAddress`), in
/// bytes (ruling 17 (docs/RULES.md)). Real ones are under 50.
pub const MAX_TEXT_LEN: usize = 256;

/// The longest `network`, in bytes. Real ones (`ethereum`, `basemainnet`) are
/// under 20.
pub const MAX_NETWORK_LEN: usize = 64;

/// The keys of an asset record: a network may not be named like one, since
/// the record holds an object under its network's name.
pub(crate) const RECORD_KEYS: [&str; 6] = ["id", "name", "symbol", "decimals", "network", "meta"];

/// A free text of a record: at most [`MAX_TEXT_LEN`] bytes, no control
/// character; may be empty (the service's texts are kept as sent).
///
/// ```
/// use swaproute::discovery::AssetText;
/// assert_eq!("USD Coin".parse::<AssetText>().unwrap().as_str(), "USD Coin");
/// assert!("USD\nCoin".parse::<AssetText>().is_err());
/// ```
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct AssetText(String);

/// Why a text is not an [`AssetText`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum InvalidAssetText {
    /// Longer than [`MAX_TEXT_LEN`] bytes.
    #[error("text is {len} bytes long, more than the {MAX_TEXT_LEN} allowed")]
    TooLong {
        /// Its length in bytes.
        len: usize,
    },
    /// A control character.
    #[error("text contains a control character at byte {at}")]
    ControlCharacter {
        /// Byte offset of the character.
        at: usize,
    },
}

impl AssetText {
    /// Validates `text`.
    ///
    /// # Errors
    /// [`InvalidAssetText`] when it is too long or holds a control character.
    pub fn new(text: &str) -> Result<Self, InvalidAssetText> {
        if text.len() > MAX_TEXT_LEN {
            return Err(InvalidAssetText::TooLong { len: text.len() });
        }
        if let Some(at) = first_control(text.as_bytes()) {
            return Err(InvalidAssetText::ControlCharacter { at });
        }
        Ok(AssetText(String::from(text)))
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

crate::text::boxed_text!(AssetText, AssetText::new, InvalidAssetText, "a record text");

/// An asset's `network` (`ethereum`, `litecoin`): an id of at most
/// [`MAX_NETWORK_LEN`] bytes that is not one of the record's own keys (`id`,
/// `name`, `symbol`, `decimals`, `network`, `meta`), since a record holds an
/// object under its network's name.
///
/// ```
/// use swaproute::discovery::Network;
/// assert_eq!("ethereum".parse::<Network>().unwrap().as_str(), "ethereum");
/// assert!("meta".parse::<Network>().is_err());
/// ```
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Network(String);

/// Why a text is not a [`Network`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum InvalidNetwork {
    /// Not a valid id.
    #[error(transparent)]
    Id(#[from] InvalidId),
    /// Longer than [`MAX_NETWORK_LEN`] bytes.
    #[error("network is {len} bytes long, more than the {MAX_NETWORK_LEN} allowed")]
    TooLong {
        /// Its length in bytes.
        len: usize,
    },
    /// Named like one of the record's keys.
    #[error("network {0:?} is named like a key of the asset record")]
    RecordKey(&'static str),
}

impl Network {
    /// Validates `text`.
    ///
    /// # Errors
    /// [`InvalidNetwork`]: not an id, too long, or a record key.
    pub fn new(text: &str) -> Result<Self, InvalidNetwork> {
        check_id(text)?;
        if text.len() > MAX_NETWORK_LEN {
            return Err(InvalidNetwork::TooLong { len: text.len() });
        }
        if let Some(key) = RECORD_KEYS.iter().find(|key| **key == text) {
            return Err(InvalidNetwork::RecordKey(key));
        }
        Ok(Network(String::from(text)))
    }

    /// The network's name.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

crate::text::boxed_text!(Network, Network::new, InvalidNetwork, "a network name");
