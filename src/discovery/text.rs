//! The free texts of an asset record (`name`, `symbol`, a contract address)
//! and its `network`.

use alloc::string::String;

use crate::ids::{check_id, first_control, InvalidId};
use crate::parse_error::{Malformed, ParseError, ParseErrorKind};

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
pub(crate) enum InvalidAssetText {
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
    /// A [`ParseError`] of kind [`AssetText`](ParseErrorKind::AssetText)
    /// when it is too long or holds a control character.
    pub fn new(text: &str) -> Result<Self, ParseError> {
        Self::new_defect(text).map_err(|error| error.with_text(text))
    }

    /// [`new`](Self::new), with the defect alone.
    fn new_defect(text: &str) -> Result<Self, InvalidAssetText> {
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

crate::text::boxed_text!(AssetText, AssetText::new, ParseError, "a record text");

impl Malformed for InvalidAssetText {
    fn kind(&self) -> ParseErrorKind {
        ParseErrorKind::AssetText
    }

    fn reason(&self) -> &'static str {
        match self {
            InvalidAssetText::TooLong { .. } => "TOO_LONG",
            InvalidAssetText::ControlCharacter { .. } => "CONTROL_CHARACTER",
        }
    }

    fn position(&self) -> Option<usize> {
        match self {
            InvalidAssetText::ControlCharacter { at } => Some(*at),
            InvalidAssetText::TooLong { .. } => None,
        }
    }
}

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
pub(crate) enum InvalidNetwork {
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
    /// A [`ParseError`] of kind [`Network`](ParseErrorKind::Network): not
    /// an id, too long, or a record key.
    pub fn new(text: &str) -> Result<Self, ParseError> {
        Self::new_defect(text).map_err(|error| error.with_text(text))
    }

    /// [`new`](Self::new), with the defect alone.
    fn new_defect(text: &str) -> Result<Self, InvalidNetwork> {
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

crate::text::boxed_text!(Network, Network::new, ParseError, "a network name");

impl Malformed for InvalidNetwork {
    fn kind(&self) -> ParseErrorKind {
        ParseErrorKind::Network
    }

    fn reason(&self) -> &'static str {
        match self {
            InvalidNetwork::Id(InvalidId::Empty) => "EMPTY",
            InvalidNetwork::Id(InvalidId::TooLong { .. }) | InvalidNetwork::TooLong { .. } => {
                "TOO_LONG"
            }
            InvalidNetwork::Id(InvalidId::ControlCharacter { .. }) => "CONTROL_CHARACTER",
            InvalidNetwork::Id(InvalidId::NotPlainText { .. }) => "NOT_PLAIN_TEXT",
            InvalidNetwork::RecordKey(_) => "RECORD_KEY",
        }
    }

    fn position(&self) -> Option<usize> {
        match self {
            InvalidNetwork::Id(
                InvalidId::ControlCharacter { at } | InvalidId::NotPlainText { at, .. },
            ) => Some(*at),
            _ => None,
        }
    }
}
