//! Why a text is not a CAIP identifier: which component failed and how.

/// A component of a CAIP-2 chain id or CAIP-19 asset id, with its grammar.
///
/// | component | characters | length |
/// |---|---|---|
/// | namespace (CAIP-2) | `[-a-z0-9]` | 3–8 |
/// | reference (CAIP-2) | `[-_a-zA-Z0-9]` | 1–32 |
/// | asset namespace | `[-a-z0-9]` | 3–8 |
/// | asset reference | `[-.%a-zA-Z0-9]` | 1–128 |
/// | token id | `[-.%a-zA-Z0-9]` | 1–78 |
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum CaipComponent {
    /// The CAIP-2 namespace, e.g. `eip155`.
    Namespace,
    /// The CAIP-2 reference, e.g. `1`.
    Reference,
    /// The CAIP-19 asset namespace, e.g. `erc20`.
    AssetNamespace,
    /// The CAIP-19 asset reference, e.g. a token contract address.
    AssetReference,
    /// The CAIP-19 token id of a non-fungible asset.
    TokenId,
}

impl CaipComponent {
    /// The fewest characters the component may have.
    pub const fn min_len(self) -> usize {
        match self {
            CaipComponent::Namespace | CaipComponent::AssetNamespace => 3,
            CaipComponent::Reference | CaipComponent::AssetReference | CaipComponent::TokenId => 1,
        }
    }

    /// The most characters the component may have.
    pub const fn max_len(self) -> usize {
        match self {
            CaipComponent::Namespace | CaipComponent::AssetNamespace => 8,
            CaipComponent::Reference => 32,
            CaipComponent::AssetReference => 128,
            CaipComponent::TokenId => 78,
        }
    }

    /// The character class of the component, as the specifications write it.
    pub const fn charset(self) -> &'static str {
        match self {
            CaipComponent::Namespace | CaipComponent::AssetNamespace => "[-a-z0-9]",
            CaipComponent::Reference => "[-_a-zA-Z0-9]",
            CaipComponent::AssetReference | CaipComponent::TokenId => "[-.%a-zA-Z0-9]",
        }
    }

    /// `true` when `byte` belongs to the component's character class.
    pub const fn allows(self, byte: u8) -> bool {
        match self {
            CaipComponent::Namespace | CaipComponent::AssetNamespace => {
                matches!(byte, b'-' | b'a'..=b'z' | b'0'..=b'9')
            }
            CaipComponent::Reference => {
                matches!(byte, b'-' | b'_' | b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9')
            }
            CaipComponent::AssetReference | CaipComponent::TokenId => {
                matches!(byte, b'-' | b'.' | b'%' | b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9')
            }
        }
    }
}

crate::text::str_enum!(
    CaipComponent,
    /// The component's name as the specifications write it, e.g. `"asset reference"`.
    {
        Namespace => "namespace",
        Reference => "reference",
        AssetNamespace => "asset namespace",
        AssetReference => "asset reference",
        TokenId => "token id",
    }
);

/// Why a text is not a valid CAIP-2 chain id, CAIP-19 asset type or CAIP-19 asset id.
///
/// Every variant that concerns one component names it ([`InvalidCaipId::component`]).
/// Byte offsets (`at`) count from the start of the parsed text; for the
/// constructors from parts (e.g. [`ChainId::new`](super::ChainId::new)) they
/// count from the start of the offending component.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum InvalidCaipId {
    /// The component is empty.
    #[error("{component} is empty")]
    Empty {
        /// The empty component.
        component: CaipComponent,
    },
    /// The component is shorter than its grammar allows.
    #[error("{component} is {len} characters long, fewer than the {min} required", min = .component.min_len())]
    TooShort {
        /// The short component.
        component: CaipComponent,
        /// Its length.
        len: usize,
    },
    /// The component is longer than its grammar allows.
    #[error("{component} is {len} characters long, more than the {max} allowed", max = .component.max_len())]
    TooLong {
        /// The long component.
        component: CaipComponent,
        /// Its length.
        len: usize,
    },
    /// A character outside the component's character class.
    #[error("{component} contains {found:?} at byte {at}, outside {charset}", charset = .component.charset())]
    InvalidCharacter {
        /// The component the character was read in.
        component: CaipComponent,
        /// The character.
        found: char,
        /// Its byte offset.
        at: usize,
    },
    /// The text ends where a separator (`:` or `/`) must follow a component.
    #[error("expected {expected:?} after the {after} at byte {at}")]
    MissingSeparator {
        /// The component the separator must follow.
        after: CaipComponent,
        /// The separator.
        expected: char,
        /// Byte offset where it was expected (the end of the text).
        at: usize,
    },
    /// A CAIP-19 asset id must end with `/token_id`; the text is an asset type.
    #[error("missing token id: a CAIP-19 asset id is `chain_id/asset_namespace:asset_reference/token_id`")]
    MissingTokenId,
    /// The text carries a token id where a CAIP-19 asset type (no token id) is expected.
    #[error("unexpected token id at byte {at}: a CAIP-19 asset type is `chain_id/asset_namespace:asset_reference`")]
    UnexpectedTokenId {
        /// Byte offset of the token id.
        at: usize,
    },
}

impl InvalidCaipId {
    /// The stable code of the problem, e.g. `"MISSING_SEPARATOR"`.
    pub const fn code(&self) -> &'static str {
        match self {
            InvalidCaipId::Empty { .. } => "EMPTY",
            InvalidCaipId::TooShort { .. } => "TOO_SHORT",
            InvalidCaipId::TooLong { .. } => "TOO_LONG",
            InvalidCaipId::InvalidCharacter { .. } => "INVALID_CHARACTER",
            InvalidCaipId::MissingSeparator { .. } => "MISSING_SEPARATOR",
            InvalidCaipId::MissingTokenId => "MISSING_TOKEN_ID",
            InvalidCaipId::UnexpectedTokenId { .. } => "UNEXPECTED_TOKEN_ID",
        }
    }

    /// The byte offset the error points at, where it points at one.
    pub const fn at(&self) -> Option<usize> {
        match *self {
            InvalidCaipId::InvalidCharacter { at, .. }
            | InvalidCaipId::MissingSeparator { at, .. }
            | InvalidCaipId::UnexpectedTokenId { at } => Some(at),
            InvalidCaipId::Empty { .. }
            | InvalidCaipId::TooShort { .. }
            | InvalidCaipId::TooLong { .. }
            | InvalidCaipId::MissingTokenId => None,
        }
    }

    /// The component the error concerns, when it concerns one.
    ///
    /// For [`InvalidCaipId::MissingSeparator`] this is the component the
    /// separator must follow; for [`InvalidCaipId::UnexpectedTokenId`] and
    /// [`InvalidCaipId::MissingTokenId`] it is [`CaipComponent::TokenId`].
    pub const fn component(&self) -> CaipComponent {
        match *self {
            InvalidCaipId::Empty { component }
            | InvalidCaipId::TooShort { component, .. }
            | InvalidCaipId::TooLong { component, .. }
            | InvalidCaipId::InvalidCharacter { component, .. } => component,
            InvalidCaipId::MissingSeparator { after, .. } => after,
            InvalidCaipId::MissingTokenId | InvalidCaipId::UnexpectedTokenId { .. } => {
                CaipComponent::TokenId
            }
        }
    }
}
