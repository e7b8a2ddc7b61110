//! Why a text is not an address: below `address.rs`, `canonical.rs` and
//! `evm.rs`, which all answer it.

/// The longest address accepted, in bytes (ruling 17 in docs/RULES.md).
///
/// Real addresses are far shorter: 42 bytes for EVM hex, 62 for a bech32
/// Taproot address, 103 for a Cardano Shelley base address.
pub const MAX_ADDRESS_LEN: usize = 128;

/// Why a text is not a valid address. Maps to `INVALID_ADDRESS`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[non_exhaustive]
pub enum InvalidAddress {
    /// The address is empty.
    #[error("address is empty")]
    Empty,
    /// The address is longer than [`MAX_ADDRESS_LEN`] bytes.
    #[error("address is {len} bytes long, more than the {MAX_ADDRESS_LEN} allowed")]
    TooLong {
        /// Length of the rejected address, in bytes.
        len: usize,
    },
    /// The address contains whitespace, a control character or a non-ASCII
    /// character.
    #[error("address contains a character that is not visible ASCII at byte {at}")]
    BadCharacter {
        /// Byte offset of the character.
        at: usize,
    },
    /// On an EVM network: the address is not `0x` followed by 40 hex digits.
    #[error("not an EVM address: expected 0x followed by 40 hex digits")]
    EvmSyntax,
    /// On an EVM network: a mixed-case address whose EIP-55 checksum is wrong.
    #[error("EVM address fails its EIP-55 checksum")]
    EvmChecksum,
    /// On a bech32 network: not a human-readable part, `1` and at least six
    /// characters of the bech32 alphabet.
    #[error(
        "not a bech32 address: expected a human-readable part, `1` and data in the bech32 alphabet"
    )]
    Bech32Syntax,
    /// On a bech32 network: upper- and lower-case letters mixed (BIP-173
    /// forbids it).
    #[error("bech32 address mixes upper- and lower-case letters")]
    Bech32MixedCase,
    /// On a bech32 network: the checksum is neither bech32's nor bech32m's.
    #[error("bech32 address fails its checksum")]
    Bech32Checksum,
}

impl InvalidAddress {
    /// The stable code of the problem, e.g. `"EVM_CHECKSUM"`.
    pub const fn code(self) -> &'static str {
        match self {
            InvalidAddress::Empty => "EMPTY",
            InvalidAddress::TooLong { .. } => "TOO_LONG",
            InvalidAddress::BadCharacter { .. } => "BAD_CHARACTER",
            InvalidAddress::EvmSyntax => "EVM_SYNTAX",
            InvalidAddress::EvmChecksum => "EVM_CHECKSUM",
            InvalidAddress::Bech32Syntax => "BECH32_SYNTAX",
            InvalidAddress::Bech32MixedCase => "BECH32_MIXED_CASE",
            InvalidAddress::Bech32Checksum => "BECH32_CHECKSUM",
        }
    }
}

crate::text::from_token_defect!(InvalidAddress);
