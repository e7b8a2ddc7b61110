//! The caps of a `Forwarded` header value, why a value was rejected, and why
//! it names no address to locate the end user by.

use super::{NodeError, ObfuscatedId};

/// The longest header value accepted, in bytes (8 KiB, ruling 17 in docs/RULES.md). Several
/// `Forwarded` fields of one request count together.
pub const MAX_HEADER_LEN: usize = 8 * 1024;

/// The most non-empty elements (hops) a `Forwarded` value may hold.
pub const MAX_ELEMENTS: usize = 64;

/// The most pairs one element may hold (`for`, `by`, `host`, `proto` and extensions).
pub const MAX_PARAMS: usize = 16;

/// Why a `Forwarded` header value was rejected. Byte offsets (`at`) count from the
/// start of the (combined) header value.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ForwardedError {
    /// The value is longer than [`MAX_HEADER_LEN`] bytes.
    #[error("value is {len} bytes long, more than the {MAX_HEADER_LEN} allowed")]
    TooLong {
        /// Length of the rejected value, in bytes (for combined fields: as far as it was counted).
        len: usize,
    },
    /// The value holds no forwarded pair at all.
    #[error("value holds no forwarded pair")]
    Empty,
    /// More than [`MAX_ELEMENTS`] non-empty elements (hops).
    #[error("more than {MAX_ELEMENTS} elements")]
    TooManyElements,
    /// An element has more than [`MAX_PARAMS`] pairs.
    #[error("an element has more than {MAX_PARAMS} parameters")]
    TooManyParams,
    /// A parameter name (a token) was expected.
    #[error("expected a parameter name at byte {at}")]
    ExpectedName {
        /// Byte offset.
        at: usize,
    },
    /// A parameter name is not followed directly by `=`.
    #[error("expected `=` at byte {at}")]
    ExpectedEquals {
        /// Byte offset.
        at: usize,
    },
    /// `=` is not followed by a token or a quoted string.
    #[error("expected a token or a quoted string at byte {at}")]
    ExpectedValue {
        /// Byte offset.
        at: usize,
    },
    /// A value containing `:`, `[` or `]` (a port or an IPv6 address) was not quoted.
    #[error("value at byte {at} contains `:`, `[` or `]` and must be a quoted string")]
    NeedsQuoting {
        /// Byte offset of the value.
        at: usize,
    },
    /// A quoted string is not closed.
    #[error("quoted string starting at byte {at} is not closed")]
    UnterminatedQuote {
        /// Byte offset of the opening quote.
        at: usize,
    },
    /// A control character inside a quoted string (or escaped by `\`).
    #[error("control character in quoted string at byte {at}")]
    ControlInQuote {
        /// Byte offset.
        at: usize,
    },
    /// Something other than `;`, `,` or the end after a value.
    #[error("unexpected character {found:?} at byte {at}; expected `;`, `,` or the end")]
    Unexpected {
        /// Byte offset.
        at: usize,
        /// The character found.
        found: char,
    },
    /// A parameter occurs twice in one element (RFC 7239 §4 forbids it).
    #[error("parameter `{name}` occurs more than once in an element")]
    DuplicateParam {
        /// The parameter name, lower-cased.
        name: alloc::string::String,
    },
    /// The value of `for` or `by` is not a valid node.
    #[error("invalid `{param}` node at byte {at}: {reason}")]
    InvalidNode {
        /// `"for"` or `"by"`.
        param: &'static str,
        /// Byte offset of the value.
        at: usize,
        /// What is wrong with it.
        reason: NodeError,
    },
    /// The value of `host` is empty or holds a character outside visible ASCII.
    #[error(
        "invalid `host` value at byte {at}: expected a non-empty host of visible ASCII characters"
    )]
    InvalidHost {
        /// Byte offset of the value.
        at: usize,
    },
    /// The value of `proto` is not a URI scheme.
    #[error("invalid `proto` value at byte {at}: expected a URI scheme such as `https`")]
    InvalidProto {
        /// Byte offset of the value.
        at: usize,
    },
}

impl ForwardedError {
    /// The stable code of the problem, e.g. `"DUPLICATE_PARAM"` (for an
    /// invalid node, `"INVALID_NODE"`; its [`NodeError::code`] says more).
    pub const fn code(&self) -> &'static str {
        match self {
            ForwardedError::TooLong { .. } => "TOO_LONG",
            ForwardedError::Empty => "EMPTY",
            ForwardedError::TooManyElements => "TOO_MANY_ELEMENTS",
            ForwardedError::TooManyParams => "TOO_MANY_PARAMS",
            ForwardedError::ExpectedName { .. } => "EXPECTED_NAME",
            ForwardedError::ExpectedEquals { .. } => "EXPECTED_EQUALS",
            ForwardedError::ExpectedValue { .. } => "EXPECTED_VALUE",
            ForwardedError::NeedsQuoting { .. } => "NEEDS_QUOTING",
            ForwardedError::UnterminatedQuote { .. } => "UNTERMINATED_QUOTE",
            ForwardedError::ControlInQuote { .. } => "CONTROL_IN_QUOTE",
            ForwardedError::Unexpected { .. } => "UNEXPECTED",
            ForwardedError::DuplicateParam { .. } => "DUPLICATE_PARAM",
            ForwardedError::InvalidNode { .. } => "INVALID_NODE",
            ForwardedError::InvalidHost { .. } => "INVALID_HOST",
            ForwardedError::InvalidProto { .. } => "INVALID_PROTO",
        }
    }
}

/// Why a `Forwarded` value gives no address to locate the end user by
/// (rulings 20 and 29 (docs/RULES.md)): [`Forwarded::screening_addr`](super::Forwarded::screening_addr).
///
/// A proxying integration whose `Forwarded` says this is refused like one
/// that sent no `Forwarded` at all, so location screening is never skipped.
#[derive(Clone, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[non_exhaustive]
pub enum NoClientAddress {
    /// The first element has no `for=` (only `by=`, `host=`, …).
    #[error("its first element has no `for` parameter")]
    NoFor,
    /// The first `for=` is `unknown`.
    #[error("its first `for` is `unknown`")]
    Unknown,
    /// The first `for=` is an obfuscated identifier such as `_hidden`.
    #[error("its first `for` is the obfuscated identifier `{0}`")]
    Obfuscated(ObfuscatedId),
    /// The first `for=` is an IP address that is not globally routable.
    #[error("its first `for` is {addr}, a {scope} address that locates nobody")]
    NotGlobal {
        /// The address, as the header says it.
        addr: core::net::IpAddr,
        /// Which range it is in.
        scope: crate::client::NonGlobal,
    },
}

impl NoClientAddress {
    /// The stable code of the reason, e.g. `"NOT_GLOBAL"` (its scope's
    /// [`NonGlobal::code`](crate::client::NonGlobal::code) says which range).
    pub const fn code(&self) -> &'static str {
        match self {
            NoClientAddress::NoFor => "NO_FOR",
            NoClientAddress::Unknown => "UNKNOWN",
            NoClientAddress::Obfuscated(_) => "OBFUSCATED",
            NoClientAddress::NotGlobal { .. } => "NOT_GLOBAL",
        }
    }
}
