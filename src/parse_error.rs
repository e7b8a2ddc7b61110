//! [`ParseError`]: the one error for a single value that is not what it
//! should be (issue 44): an amount, an id, a pair id, a swap mode, a
//! timestamp, an address… Its [`kind`](ParseError::kind) says what was
//! malformed, its [`text`](ParseError::text) repeats the offending value
//! (at most [`MAX_ECHO_CHARS`] characters), its
//! [`reason`](ParseError::reason) is a stable code of the defect, and its
//! `Display` text is the message the crate has always written for it (the
//! error bodies' `details` are unchanged).

use alloc::boxed::Box;
use alloc::string::ToString;
use core::fmt;

/// The most characters of the offending value a [`ParseError`] keeps (the
/// same bound as the messages that echo a value).
const MAX_ECHO_CHARS: usize = 64;

/// What a [`ParseError`] found malformed: one kind per value the crate
/// reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum ParseErrorKind {
    /// An amount: the strict decimal grammar or a `Decimal`'s range (ruling 1).
    Amount,
    /// An amount with more decimal places than its asset has.
    AmountPlaces,
    /// An id (asset, rate, order, quote, campaign…).
    Id,
    /// A pair id `FROM_TO`.
    PairId,
    /// An asset reference: a legacy asset id or a CAIP-19 asset type.
    AssetRef,
    /// The namespace of a CAIP-2 chain id.
    CaipNamespace,
    /// The reference of a CAIP-2 chain id.
    CaipReference,
    /// The asset namespace of a CAIP-19 asset type.
    CaipAssetNamespace,
    /// The asset reference of a CAIP-19 asset type.
    CaipAssetReference,
    /// The token id of a CAIP-19 asset id.
    CaipTokenId,
    /// The `caip19` query parameter (`true` or `false`).
    Caip19Flag,
    /// An `App-Platform` value.
    Platform,
    /// A node (`for`, `by`) of a `Forwarded` header.
    ForwardedNode,
    /// A swap mode (`ExactIn`, `ExactOut`).
    SwapMode,
    /// An ISO 8601 timestamp.
    Timestamp,
    /// An instant outside the range a timestamp writes.
    Instant,
    /// An order status.
    OrderStatus,
    /// A deposit transaction id.
    TransactionId,
    /// An address.
    Address,
    /// An address tag (memo).
    AddressTag,
    /// A region code.
    RegionCode,
    /// A slippage percentage.
    Slippage,
    /// A chain's `maxLegs`.
    MaxLegs,
    /// A split's number of legs.
    SplitLegs,
    /// A price guard's reference multiplier.
    PriceReference,
    /// A promise an order plan is held to.
    Promise,
    /// An error code of the crate's table.
    ErrorCode,
    /// An error body's `code` text.
    BodyCode,
    /// An HTTP status.
    HttpStatus,
    /// A text of an asset record (name, symbol…).
    AssetText,
    /// A network name of an asset record.
    Network,
    /// An asset's number of decimals.
    Decimals,
}

/// A single value that is not what it should be: what was malformed
/// ([`kind`](Self::kind)), why ([`reason`](Self::reason), with a byte offset
/// and the offending character where there is one) and the value itself
/// ([`text`](Self::text), cut to 64 characters). `Display` is the error's
/// message.
///
/// Converts into an [`ApiError`](crate::ApiError) with the code of its kind
/// (`INVALID_AMOUNT` for an amount, `INVALID_ADDRESS` for an address or tag,
/// `INVALID_REQUEST` for most request values, `PROVIDER_ERROR` for what the
/// service sent; the table is in `src/convert.rs`).
///
/// ```
/// use swaproute::{ApiError, ErrorCode, ParseErrorKind, SwapMode};
/// let error = "exactIn".parse::<SwapMode>().unwrap_err();
/// assert_eq!(error.kind(), ParseErrorKind::SwapMode);
/// assert_eq!(error.reason(), "UNKNOWN");
/// assert_eq!(error.text(), "exactIn");
/// assert_eq!(error.to_string(), r#"swap mode must be "ExactIn" or "ExactOut""#);
/// assert_eq!(ApiError::from(error).code(), ErrorCode::UnsupportedSwapMode);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ParseError {
    kind: ParseErrorKind,
    reason: &'static str,
    at: Option<usize>,
    found: Option<char>,
    text: Box<str>,
    message: Box<str>,
}

impl ParseError {
    /// A `kind` error for `text` (kept to its first 64 characters), with
    /// the stable code `reason` and the message `message`.
    pub(crate) fn new(
        kind: ParseErrorKind,
        text: &str,
        reason: &'static str,
        message: &dyn fmt::Display,
    ) -> Self {
        ParseError {
            kind,
            reason,
            at: None,
            found: None,
            text: cut(text).into(),
            message: message.to_string().into_boxed_str(),
        }
    }

    /// What was malformed.
    pub fn kind(&self) -> ParseErrorKind {
        self.kind
    }

    /// The stable code of the defect, e.g. `"INVALID_CHARACTER"` or
    /// `"EMPTY"` (the codes the old per-value error types gave).
    pub fn reason(&self) -> &'static str {
        self.reason
    }

    /// The offending value as given, cut to its first 64 characters (on a
    /// character boundary). A value that was not text (a number of legs,
    /// a percentage) is its decimal text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The byte offset of the defect in the whole value, where there is one.
    pub fn position(&self) -> Option<usize> {
        self.at
    }

    /// The offending character, where there is one.
    pub fn found(&self) -> Option<char> {
        self.found
    }
}

/// The first [`MAX_ECHO_CHARS`] characters of `text`.
fn cut(text: &str) -> &str {
    match text.char_indices().nth(MAX_ECHO_CHARS) {
        Some((end, _)) => text.get(..end).unwrap_or(text),
        None => text,
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl core::error::Error for ParseError {}

/// A crate-internal defect of one value that becomes a [`ParseError`] once
/// the value's text is known: its kind, stable code and position; its
/// `Display` is the message.
pub(crate) trait Malformed: fmt::Display + Sized {
    /// What was malformed.
    fn kind(&self) -> ParseErrorKind;

    /// The stable code of the defect.
    fn reason(&self) -> &'static str;

    /// The byte offset of the defect, where there is one.
    fn position(&self) -> Option<usize> {
        None
    }

    /// The offending character, where there is one.
    fn found(&self) -> Option<char> {
        None
    }

    /// The [`ParseError`] for the value `text`.
    fn with_text(self, text: &str) -> ParseError {
        let mut error = ParseError::new(self.kind(), text, self.reason(), &self);
        error.at = self.position();
        error.found = self.found();
        error
    }
}

impl Malformed for ParseError {
    fn kind(&self) -> ParseErrorKind {
        self.kind
    }

    fn reason(&self) -> &'static str {
        self.reason
    }

    /// Already has its text: itself.
    fn with_text(self, _text: &str) -> ParseError {
        self
    }
}

#[cfg(test)]
mod tests {
    use super::{Malformed, ParseError, ParseErrorKind};
    use alloc::string::{String, ToString};

    #[test]
    fn the_text_is_cut_to_64_characters() {
        let short = "1.2.3";
        let error = ParseError::new(ParseErrorKind::Amount, short, "MULTIPLE_DOTS", &"m");
        assert_eq!(error.text(), short);
        // 64 characters are kept whole, the 65th goes.
        let exact: String = "a".repeat(64);
        let error = ParseError::new(ParseErrorKind::Id, &exact, "X", &"m");
        assert_eq!(error.text(), exact);
        let long: String = "b".repeat(100);
        let error = ParseError::new(ParseErrorKind::Id, &long, "X", &"m");
        assert_eq!(error.text(), "b".repeat(64));
    }

    #[test]
    fn the_cut_falls_on_a_character_boundary() {
        // 63 ASCII characters, then "é" (2 bytes) as the 64th character,
        // then "€" (3 bytes) as the 65th: the cut keeps "é" whole (byte 65)
        // and drops "€", though byte 64 is inside "é".
        let text = alloc::format!("{}é€tail", "x".repeat(63));
        let error = ParseError::new(ParseErrorKind::Address, &text, "X", &"m");
        assert_eq!(error.text().chars().count(), 64);
        assert_eq!(error.text().len(), 65);
        assert!(error.text().ends_with('é'));
        // A 4-byte character straddling byte 64: 62 ASCII, then "😀"
        // (bytes 62..66) as the 63rd character, kept whole.
        let text = alloc::format!("{}😀{}", "y".repeat(62), "z".repeat(10));
        let error = ParseError::new(ParseErrorKind::Id, &text, "X", &"m");
        assert_eq!(error.text(), alloc::format!("{}😀z", "y".repeat(62)));
    }

    #[test]
    fn display_is_the_message_and_accessors_read_back() {
        struct Defect;
        impl core::fmt::Display for Defect {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str("msg")
            }
        }
        impl Malformed for Defect {
            fn kind(&self) -> ParseErrorKind {
                ParseErrorKind::SwapMode
            }
            fn reason(&self) -> &'static str {
                "UNKNOWN"
            }
            fn position(&self) -> Option<usize> {
                Some(3)
            }
            fn found(&self) -> Option<char> {
                Some('c')
            }
        }
        let error = Defect.with_text("exactIn");
        assert_eq!(error.text(), "exactIn");
        // Already a `ParseError`: kept as it is, its text too.
        assert_eq!(error.clone().with_text("other"), error);
        assert_eq!(error.to_string(), "msg");
        assert_eq!(error.kind(), ParseErrorKind::SwapMode);
        assert_eq!(error.reason(), "UNKNOWN");
        assert_eq!(error.position(), Some(3));
        assert_eq!(error.found(), Some('c'));
    }
}
