//! Exact decimals: the strict amount grammar, JSON number-or-string decoding
//! and 8-decimal formatting.
//!
//! No `f64` arithmetic happens anywhere in the crate. A JSON number decodes to
//! the *shortest* decimal that round-trips the double the JSON parser produced,
//! which is exactly the text a double-based encoder (like the service's) wrote:
//! `0.1` is `0.1`, `33.098927169677374` keeps its 17 digits, `0` is `0`. When the
//! deserializer hands over the number's exact text (serde_json's
//! `arbitrary_precision`), that text is decoded exactly instead.
//!
//! Amount *strings* follow a strict grammar, `digits [ "." digits ]`:
//! no sign, exponent, `_`, spaces, leading or trailing `.` (`"1."` and `".5"` are
//! rejected: neither the service nor a double-based encoder writes them, and a
//! client that does most likely truncated or mangled a value), and no more
//! digits than a [`Decimal`] holds exactly. Out-of-grammar text is rejected,
//! never rounded. Trailing fractional zeros beyond `Decimal`'s 28 decimal places
//! are dropped, as they do not change the value.

mod amount;
mod double;
mod exact;
mod fixed8;
mod parse;
pub mod serde;
mod wire_number;

pub use amount::Amount;
pub use fixed8::Fixed8;
pub use parse::{parse_amount, parse_json_number};
pub use rust_decimal::Decimal;
pub use wire_number::WireNumber;

pub(crate) use double::{decimal_from_f64, decimal_from_i64, decimal_from_u64};

/// Why a text or number is not an acceptable decimal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DecimalError {
    /// The text is empty.
    #[error("amount is empty")]
    Empty,
    /// A character outside the grammar, at a byte offset.
    #[error("invalid character {found:?} at byte {at} (expected digits with at most one '.')")]
    InvalidCharacter {
        /// The offending character.
        found: char,
        /// Its byte offset.
        at: usize,
    },
    /// `"1."`, `".5"` or `"."`: a `.` needs digits on both sides.
    #[error("a '.' needs digits on both sides")]
    MissingDigits,
    /// More than one `.`.
    #[error("more than one '.'")]
    MultipleDots,
    /// More significant digits or decimal places than a `Decimal` holds exactly
    /// (28 decimal places, mantissa below 2^96).
    #[error("more digits than can be held exactly (at most 28 decimal places and 28-29 significant digits)")]
    TooPrecise,
    /// The value is outside the representable range.
    #[error("value is out of range")]
    OutOfRange,
    /// The value is negative where only non-negative amounts are allowed.
    #[error("amount is negative")]
    Negative,
    /// NaN or an infinity.
    #[error("value is not a finite number")]
    NotFinite,
    /// More decimal places than the type holds exactly: a [`Fixed8`] holds 8
    /// (round with [`Fixed8::ceil`] or [`Fixed8::floor`] instead).
    #[error("more than 8 decimal places: a Fixed8 holds exactly 8 (round with Fixed8::ceil or Fixed8::floor)")]
    TooManyPlaces,
}

impl DecimalError {
    /// The stable code of the problem, e.g. `"INVALID_CHARACTER"`.
    pub const fn code(self) -> &'static str {
        match self {
            DecimalError::Empty => "EMPTY",
            DecimalError::InvalidCharacter { .. } => "INVALID_CHARACTER",
            DecimalError::MissingDigits => "MISSING_DIGITS",
            DecimalError::MultipleDots => "MULTIPLE_DOTS",
            DecimalError::TooPrecise => "TOO_PRECISE",
            DecimalError::OutOfRange => "OUT_OF_RANGE",
            DecimalError::Negative => "NEGATIVE",
            DecimalError::NotFinite => "NOT_FINITE",
            DecimalError::TooManyPlaces => "TOO_MANY_PLACES",
        }
    }
}

/// A decimal written as a JSON string without insignificant trailing zeros
/// (`"16.5498"`, `"3.5"`): the form results are reported in.
pub(crate) struct Plain(pub(crate) Decimal);

impl ::serde::Serialize for Plain {
    fn serialize<S: ::serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(&self.0.normalize())
    }
}
