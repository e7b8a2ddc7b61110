//! Validated addresses and address tags (memos).

use alloc::borrow::Cow;
use alloc::boxed::Box;

use super::bech32::{check_bech32, Bech32Defect};
use super::canonical::{canonical, AddressEncoding};
use super::evm;
use super::invalid_address::{InvalidAddress, MAX_ADDRESS_LEN};
use crate::parse_error::{Malformed, ParseError, ParseErrorKind};
use crate::text::{self, check_visible_ascii};

/// The longest address tag (memo, destination tag) accepted, in bytes.
///
/// Cosmos SDK chains allow memos of up to 256 characters, EOS memos are at most
/// 256 bytes; XRP destination tags and Stellar memos are much shorter.
pub const MAX_ADDRESS_TAG_LEN: usize = 256;

/// Why a text is not a valid address tag.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum InvalidAddressTag {
    /// The tag is empty (an absent tag is `None`, not an empty tag).
    #[error("address tag is empty")]
    Empty,
    /// The tag is longer than [`MAX_ADDRESS_TAG_LEN`] bytes.
    #[error("address tag is {len} bytes long, more than the {MAX_ADDRESS_TAG_LEN} allowed")]
    TooLong {
        /// Length of the rejected tag, in bytes.
        len: usize,
    },
    /// The tag contains a control character.
    #[error("address tag contains a control character at byte {at}")]
    ControlCharacter {
        /// Byte offset of the character.
        at: usize,
    },
    /// The tag shows nothing: only spaces or invisible characters (ruling 28
    /// (docs/RULES.md)). Send no tag (absent, `null` or `""`) instead.
    #[error("address tag is blank: it holds only spaces or invisible characters")]
    Blank,
    /// The tag holds an invisible character other than a control character:
    /// a format character (zero-width, bidirectional override, BOM, …), a
    /// default-ignorable code point, or whitespace other than U+0020 (ruling 28
    /// (docs/RULES.md)).
    #[error("address tag contains the invisible character U+{:04X} at byte {at}", u32::from(*found))]
    InvisibleCharacter {
        /// Byte offset of the character.
        at: usize,
        /// The character.
        found: char,
    },
}

/// Which kind of network an address belongs to, as the caller knows it.
///
/// [`NetworkKind::Evm`] adds checks: `0x` + 40 hex digits and, for
/// mixed-case addresses, the EIP-55 checksum. [`NetworkKind::Bech32`] adds
/// BIP-173 / BIP-350 syntax, single case and checksum. [`NetworkKind::Other`]
/// adds none: a network that also has base58 addresses (Bitcoin, Litecoin)
/// is `Other`, since a valid base58 address may contain a `1`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum NetworkKind {
    /// An EVM network (Ethereum, Base, BSC, Polygon, …).
    Evm,
    /// A network whose addresses are all bech32 or bech32m (Cosmos SDK chains,
    /// for example).
    Bech32,
    /// Any other network, or unknown: only the generic address rules apply.
    #[default]
    Other,
}

/// Bitcoin's best-known burn address: base58check of version 0 and the
/// all-zero hash160.
const BITCOIN_BURN: &str = "1111111111111111111114oLvT2";

/// A blockchain address: non-empty, at most [`MAX_ADDRESS_LEN`] bytes, visible
/// ASCII only (no whitespace, control or non-ASCII characters).
///
/// Every real address format (hex, base58, bech32, EOS account names, …) is
/// visible ASCII; rejecting anything else also rules out look-alike Unicode.
/// Network-specific syntax is checked by [`Address::check_network`].
///
/// ```
/// use swaproute::screening::{Address, NetworkKind};
///
/// let a = Address::new("bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq")?;
/// assert_eq!(a.as_str(), "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq");
/// assert!(Address::new("").is_err());
/// assert!(Address::new("0x12 34").is_err());
/// assert!(a.check_network(NetworkKind::Evm).is_err());
/// # Ok::<(), swaproute::screening::InvalidAddress>(())
/// ```
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Address(Box<str>);

impl Address {
    /// Validates `text` as an address (generic rules only).
    ///
    /// # Errors
    /// [`InvalidAddress`] when `text` is empty, longer than [`MAX_ADDRESS_LEN`]
    /// bytes, or contains a byte that is not visible ASCII (`!`..=`~`).
    pub fn new(text: &str) -> Result<Self, InvalidAddress> {
        check_visible_ascii(text, MAX_ADDRESS_LEN)?;
        Ok(Address(text.into()))
    }

    /// Validates `text` as an address on a network of kind `network`.
    ///
    /// # Errors
    /// As [`Address::new`], then as [`Address::check_network`].
    pub fn for_network(text: &str, network: NetworkKind) -> Result<Self, InvalidAddress> {
        let address = Address::new(text)?;
        address.check_network(network)?;
        Ok(address)
    }

    /// Checks the network-specific syntax of the address.
    ///
    /// # Errors
    /// On [`NetworkKind::Evm`]: [`InvalidAddress::EvmSyntax`] unless the address
    /// is `0x` followed by 40 hex digits, [`InvalidAddress::EvmChecksum`] when it
    /// mixes upper- and lower-case hex letters and fails EIP-55. All-lower and
    /// all-upper case hex carry no checksum and are accepted.
    ///
    /// On [`NetworkKind::Bech32`]: [`InvalidAddress::Bech32Syntax`],
    /// [`InvalidAddress::Bech32MixedCase`] or [`InvalidAddress::Bech32Checksum`]
    /// unless the address is a valid BIP-173 or BIP-350 string.
    pub fn check_network(&self, network: NetworkKind) -> Result<(), InvalidAddress> {
        match network {
            NetworkKind::Evm => evm::check_evm_address(&self.0),
            NetworkKind::Bech32 => check_bech32(&self.0).map(|_| ()).map_err(|e| match e {
                Bech32Defect::Syntax => InvalidAddress::Bech32Syntax,
                Bech32Defect::MixedCase => InvalidAddress::Bech32MixedCase,
                Bech32Defect::Checksum => InvalidAddress::Bech32Checksum,
            }),
            NetworkKind::Other => Ok(()),
        }
    }

    /// How the address is written, as screening compares it (ruling 27
    /// (docs/RULES.md)).
    pub fn encoding(&self) -> AddressEncoding {
        canonical(&self.0).0
    }

    /// The form screening compares the address in (ruling 27 (docs/RULES.md)):
    /// EVM hex, bech32/bech32m and CashAddr in lower case, a bare CashAddr with
    /// its `bitcoincash:` prefix; every other encoding exactly as given.
    ///
    /// A mixed-case string whose lower-case form is a valid bech32 or CashAddr
    /// string is not itself valid, but is compared as that lower-case form, so
    /// no spelling of a denylisted address passes.
    ///
    /// ```
    /// use swaproute::screening::{Address, AddressEncoding};
    ///
    /// let upper = Address::new("BC1QAR0SRRR7XFKVY5L643LYDNW9RE59GTZZWF5MDQ")?;
    /// assert_eq!(upper.encoding(), AddressEncoding::Bech32);
    /// assert_eq!(upper.canonical(), "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq");
    ///
    /// let bare = Address::new("qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a")?;
    /// assert_eq!(bare.canonical(), "bitcoincash:qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a");
    ///
    /// let base58 = Address::new("1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa")?;
    /// assert_eq!(base58.encoding(), AddressEncoding::Other);
    /// assert_eq!(base58.canonical(), "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa");
    /// # Ok::<(), swaproute::screening::InvalidAddress>(())
    /// ```
    pub fn canonical(&self) -> Cow<'_, str> {
        canonical(&self.0).1
    }

    /// `true` for the EVM zero address, `0x` + 40 zeros (any case), on any network.
    pub fn is_evm_zero(&self) -> bool {
        evm::is_evm_zero_address(&self.0)
    }

    /// `true` for a well-known address whose funds nobody can spend: the EVM
    /// zero address (any case) and Bitcoin's `1111111111111111111114oLvT2`
    /// (the pay-to-public-key-hash address of the all-zero hash, the base58
    /// twin of the EVM zero address). A deposit sent there is burnt, so a
    /// created order's `payInAddress` may be neither (ruling 45).
    pub fn is_burn(&self) -> bool {
        self.is_evm_zero() || &*self.0 == BITCOIN_BURN
    }

    /// Checks what the address's own shape promises, whatever its network:
    /// a text that starts like a SegWit address of Bitcoin or Litecoin
    /// (`bc1`, `tb1`, `bcrt1`, `ltc1`, `tltc1`, any case) must be a valid
    /// bech32 or bech32m string, checksum and single case included. Such a
    /// prefix is never the start of a base58 address (base58 has no `0`
    /// and its `1`s are leading), so nothing valid is refused.
    ///
    /// ```
    /// use swaproute::screening::Address;
    /// assert!(Address::new("bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq")?.check_shape().is_ok());
    /// assert!(Address::new("bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdr")?.check_shape().is_err());
    /// assert!(Address::new("1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa")?.check_shape().is_ok());
    /// # Ok::<(), swaproute::screening::InvalidAddress>(())
    /// ```
    ///
    /// # Errors
    /// [`InvalidAddress::Bech32Syntax`], [`InvalidAddress::Bech32MixedCase`]
    /// or [`InvalidAddress::Bech32Checksum`].
    pub fn check_shape(&self) -> Result<(), InvalidAddress> {
        let segwit = ["bc1", "tb1", "bcrt1", "ltc1", "tltc1"]
            .iter()
            .any(|prefix| {
                self.0
                    .get(..prefix.len())
                    .is_some_and(|start| start.eq_ignore_ascii_case(prefix))
            });
        if segwit {
            self.check_network(NetworkKind::Bech32)
        } else {
            Ok(())
        }
    }

    /// The address text, exactly as given.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// An address tag: memo, destination tag or payment id.
///
/// Non-empty (an absent tag is `None`), at most [`MAX_ADDRESS_TAG_LEN`] bytes,
/// not blank, and free of invisible characters (ruling 28 (docs/RULES.md)):
/// no control character, no format character (zero-width, bidirectional
/// override, BOM, …), no default-ignorable code point and no whitespace other
/// than U+0020 SPACE. Spaces between visible characters and non-ASCII text
/// are allowed: EOS and Stellar memos are free text. A tag that hid such a
/// character would be accepted as present while the payout goes nowhere (and
/// would hide the missing-tag warning). [`AddressTag::new_optional`] maps the
/// service's empty string `""` to `None`.
///
/// ```
/// use swaproute::screening::AddressTag;
///
/// assert_eq!(AddressTag::new("1234567")?.as_str(), "1234567");
/// assert_eq!(AddressTag::new_optional("")?, None);
/// assert!(AddressTag::new("a\nb").is_err());
/// assert_eq!(AddressTag::new("\u{200b}").unwrap_err().reason(), "BLANK");
/// let hidden = AddressTag::new("\u{202e}123").unwrap_err();
/// assert_eq!(
///     (hidden.reason(), hidden.position(), hidden.found()),
///     ("INVISIBLE_CHARACTER", Some(0), Some('\u{202e}')),
/// );
/// # Ok::<(), swaproute::ParseError>(())
/// ```
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct AddressTag(Box<str>);

impl AddressTag {
    /// Validates `text` as a tag.
    ///
    /// # Errors
    /// A [`ParseError`] of kind [`AddressTag`](ParseErrorKind::AddressTag),
    /// checked in this order: empty (`"EMPTY"`), longer than
    /// [`MAX_ADDRESS_TAG_LEN`] bytes (`"TOO_LONG"`), blank (only spaces or
    /// invisible characters: `"BLANK"`), then the first invisible character:
    /// `"CONTROL_CHARACTER"` for a control character,
    /// `"INVISIBLE_CHARACTER"` for any other (with its position and the
    /// character).
    pub fn new(text: &str) -> Result<Self, ParseError> {
        Self::new_defect(text).map_err(|error| error.with_text(text))
    }

    /// [`new`](Self::new), with the defect alone.
    fn new_defect(text: &str) -> Result<Self, InvalidAddressTag> {
        if text.is_empty() {
            return Err(InvalidAddressTag::Empty);
        }
        if text.len() > MAX_ADDRESS_TAG_LEN {
            return Err(InvalidAddressTag::TooLong { len: text.len() });
        }
        if text::is_blank(text) {
            return Err(InvalidAddressTag::Blank);
        }
        match text.char_indices().find(|&(_, c)| text::is_invisible(c)) {
            Some((at, found)) if found.is_control() => {
                Err(InvalidAddressTag::ControlCharacter { at })
            }
            Some((at, found)) => Err(InvalidAddressTag::InvisibleCharacter { at, found }),
            None => Ok(AddressTag(text.into())),
        }
    }

    /// Like [`AddressTag::new`], but the empty string means "no tag".
    ///
    /// # Errors
    /// As [`AddressTag::new`], except for the empty string.
    pub fn new_optional(text: &str) -> Result<Option<Self>, ParseError> {
        if text.is_empty() {
            Ok(None)
        } else {
            AddressTag::new(text).map(Some)
        }
    }

    /// The tag text, exactly as given.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

crate::text::boxed_text!(Address, Address::new, InvalidAddress, "an address");
crate::text::boxed_text!(AddressTag, AddressTag::new, ParseError, "an address tag");

impl Malformed for InvalidAddressTag {
    fn kind(&self) -> ParseErrorKind {
        ParseErrorKind::AddressTag
    }

    fn reason(&self) -> &'static str {
        match self {
            InvalidAddressTag::Empty => "EMPTY",
            InvalidAddressTag::TooLong { .. } => "TOO_LONG",
            InvalidAddressTag::ControlCharacter { .. } => "CONTROL_CHARACTER",
            InvalidAddressTag::Blank => "BLANK",
            InvalidAddressTag::InvisibleCharacter { .. } => "INVISIBLE_CHARACTER",
        }
    }

    fn position(&self) -> Option<usize> {
        match self {
            InvalidAddressTag::ControlCharacter { at }
            | InvalidAddressTag::InvisibleCharacter { at, .. } => Some(*at),
            _ => None,
        }
    }

    fn found(&self) -> Option<char> {
        match self {
            InvalidAddressTag::InvisibleCharacter { found, .. } => Some(*found),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::{String, ToString};

    #[test]
    fn each_problem_has_its_stable_code() {
        let evm = |text: &str| Address::for_network(text, NetworkKind::Evm).err();
        let bech32 = |text: &str| Address::for_network(text, NetworkKind::Bech32).err();
        let cases = [
            (Address::new("").err(), "EMPTY"),
            (
                Address::new(&"a".repeat(MAX_ADDRESS_LEN + 1)).err(),
                "TOO_LONG",
            ),
            (Address::new("a b").err(), "BAD_CHARACTER"),
            (evm("0x1234"), "EVM_SYNTAX"),
            // EIP-55's own example with one letter's case flipped.
            (
                evm("0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"),
                "EVM_CHECKSUM",
            ),
            (bech32("not-bech32"), "BECH32_SYNTAX"),
            (
                bech32("bc1Qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"),
                "BECH32_MIXED_CASE",
            ),
            (
                bech32("bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdz"),
                "BECH32_CHECKSUM",
            ),
        ];
        for (error, code) in cases {
            assert_eq!(error.map(InvalidAddress::code), Some(code));
        }
    }

    #[test]
    fn accepts_real_addresses() {
        for text in [
            "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa",
            "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
            "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
            "rEb8TK3gBgk5auZkwc6sHnwrGVJH8DuaLh",
            "cosmos1depk54cuajgkzea6zpgkq36tnjwdzv4ak663u6",
            "eosio.token",
            "addr1qx2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzer3n0d3vllmyqwsx5wktcd8cc3sq835lu7drv2xwl2wywfgse35a3x",
        ] {
            assert_eq!(Address::new(text).unwrap().as_str(), text);
        }
    }

    #[test]
    fn rejects_empty_whitespace_control_non_ascii_and_overlong() {
        assert_eq!(Address::new(""), Err(InvalidAddress::Empty));
        assert_eq!(
            Address::new(" abc"),
            Err(InvalidAddress::BadCharacter { at: 0 })
        );
        assert_eq!(
            Address::new("abc "),
            Err(InvalidAddress::BadCharacter { at: 3 })
        );
        assert_eq!(
            Address::new("ab\tc"),
            Err(InvalidAddress::BadCharacter { at: 2 })
        );
        assert_eq!(
            Address::new("ab\u{7f}"),
            Err(InvalidAddress::BadCharacter { at: 2 })
        );
        // Cyrillic "а" (U+0430) looks like a Latin "a".
        assert_eq!(
            Address::new("0x\u{430}b"),
            Err(InvalidAddress::BadCharacter { at: 2 })
        );
        assert_eq!(
            Address::new("ab\u{a0}c"),
            Err(InvalidAddress::BadCharacter { at: 2 })
        );
        let at_cap: String = "x".repeat(MAX_ADDRESS_LEN);
        assert!(Address::new(&at_cap).is_ok());
        let past_cap: String = "x".repeat(MAX_ADDRESS_LEN + 1);
        assert_eq!(
            Address::new(&past_cap),
            Err(InvalidAddress::TooLong { len: 129 })
        );
    }

    #[test]
    fn network_check_only_for_evm() {
        let btc = Address::new("1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa").unwrap();
        assert_eq!(btc.check_network(NetworkKind::Other), Ok(()));
        assert_eq!(
            btc.check_network(NetworkKind::Evm),
            Err(InvalidAddress::EvmSyntax)
        );
        assert_eq!(
            Address::for_network(
                "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
                NetworkKind::Evm
            )
            .unwrap()
            .as_str(),
            "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"
        );
        assert_eq!(
            Address::for_network(
                "0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
                NetworkKind::Evm
            ),
            Err(InvalidAddress::EvmChecksum)
        );
    }

    #[test]
    fn zero_address_any_case() {
        let zeros = "0".repeat(40);
        assert!(Address::new(&alloc::format!("0x{zeros}"))
            .unwrap()
            .is_evm_zero());
        assert!(Address::new(&alloc::format!("0X{zeros}"))
            .unwrap()
            .is_evm_zero());
        assert!(!Address::new(&alloc::format!("0x{}1", "0".repeat(39)))
            .unwrap()
            .is_evm_zero());
        assert!(!Address::new(&alloc::format!("0x{zeros}0"))
            .unwrap()
            .is_evm_zero());
    }

    #[test]
    fn tags() {
        assert_eq!(
            AddressTag::new("memo with spaces").unwrap().as_str(),
            "memo with spaces"
        );
        assert_eq!(AddressTag::new("ünïcödé").unwrap().as_str(), "ünïcödé");
        assert_eq!(AddressTag::new_defect(""), Err(InvalidAddressTag::Empty));
        assert_eq!(AddressTag::new_optional("").unwrap(), None);
        assert_eq!(
            AddressTag::new_optional("42").unwrap().unwrap().as_str(),
            "42"
        );
        assert_eq!(
            AddressTag::new_defect("a\u{0}"),
            Err(InvalidAddressTag::ControlCharacter { at: 1 })
        );
        // Ruling 28: blank tags and invisible characters.
        for blank in [
            " ",
            "   ",
            "\u{200b}",
            "\u{a0}",
            "\u{feff}",
            " \u{2060} ",
            "\u{3000}",
        ] {
            assert_eq!(
                AddressTag::new_defect(blank),
                Err(InvalidAddressTag::Blank),
                "{blank:?}"
            );
            assert_eq!(
                AddressTag::new_optional(blank).map_err(|e| e.reason()),
                Err("BLANK")
            );
        }
        assert_eq!(
            AddressTag::new_defect("\u{202e}123"),
            Err(InvalidAddressTag::InvisibleCharacter {
                at: 0,
                found: '\u{202e}'
            })
        );
        assert_eq!(
            AddressTag::new_defect("123\u{200b}"),
            Err(InvalidAddressTag::InvisibleCharacter {
                at: 3,
                found: '\u{200b}'
            })
        );
        assert_eq!(
            AddressTag::new_defect("12\u{a0}34"),
            Err(InvalidAddressTag::InvisibleCharacter {
                at: 2,
                found: '\u{a0}'
            })
        );
        assert_eq!(
            AddressTag::new("\u{202e}123").unwrap_err().to_string(),
            "address tag contains the invisible character U+202E at byte 0"
        );
        assert!(AddressTag::new(&"9".repeat(MAX_ADDRESS_TAG_LEN)).is_ok());
        assert_eq!(
            AddressTag::new_defect(&"9".repeat(MAX_ADDRESS_TAG_LEN + 1)),
            Err(InvalidAddressTag::TooLong { len: 257 })
        );
    }

    #[test]
    fn serde_round_trip_and_validation() {
        let a: Address = serde_json::from_str("\"eosio.token\"").unwrap();
        assert_eq!(serde_json::to_string(&a).unwrap(), "\"eosio.token\"");
        assert!(serde_json::from_str::<Address>("\"\"").is_err());
        assert!(serde_json::from_str::<Address>("\"a b\"").is_err());
        let t: AddressTag = serde_json::from_str("\"123\"").unwrap();
        assert_eq!(serde_json::to_string(&t).unwrap(), "\"123\"");
        assert_eq!("x".parse::<Address>().unwrap(), Address::new("x").unwrap());
        assert_eq!(
            alloc::format!("{:?}", Address::new("x").unwrap()),
            "Address(\"x\")"
        );
    }
}
