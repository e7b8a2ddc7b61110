//! How the keys of a request body were written, so a validated body is
//! written back as it came: which optional keys were sent (or sent as
//! `null`), and whether each number was a JSON string or a JSON number.
//! Shared by both order flows.

use rust_decimal::Decimal;
use serde::{Serialize, Serializer};

use super::loose::Loose;

/// How a number of the body was written, so it is written back the same way.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Form {
    /// A JSON string, `"25"`.
    Text,
    /// A JSON number, `25`.
    Number,
}

impl Form {
    pub(super) fn of(value: Option<&Loose>) -> Self {
        match value {
            Some(Loose::Number(_)) => Form::Number,
            _ => Form::Text,
        }
    }
}

/// An optional key as sent: absent, `null`, or a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Sent<T> {
    Absent,
    Null,
    Value(T),
}

impl<T> Sent<T> {
    pub(super) fn is_absent(&self) -> bool {
        matches!(self, Sent::Absent)
    }

    /// The same presence holding `value` in place of a sent value.
    pub(super) fn with<U>(&self, value: U) -> Sent<U> {
        match self {
            Sent::Absent => Sent::Absent,
            Sent::Null => Sent::Null,
            Sent::Value(_) => Sent::Value(value),
        }
    }
}

impl Sent<()> {
    /// Whether a key was sent, and as `null` or not.
    pub(super) fn key(value: Option<&Loose>) -> Self {
        match value {
            None => Sent::Absent,
            Some(Loose::Null) => Sent::Null,
            Some(_) => Sent::Value(()),
        }
    }
}

/// `null` for [`Sent::Null`], the value for [`Sent::Value`]; an absent key is
/// skipped by its holder.
impl<T: Serialize> Serialize for Sent<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Sent::Value(value) => value.serialize(serializer),
            Sent::Absent | Sent::Null => serializer.serialize_none(),
        }
    }
}

/// A decimal written in the form it came in.
pub(super) struct InForm(pub(super) Decimal, pub(super) Form);

impl Serialize for InForm {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.1 {
            Form::Text => serializer.collect_str(&self.0),
            Form::Number => crate::wire::serialize_number(self.0, serializer),
        }
    }
}

/// How the body's optional and number keys were written (for re-encoding).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) struct Forms {
    pub(super) from_amount: Form,
    pub(super) to_amount: Form,
    pub(super) slippage: Sent<Form>,
}

/// How an amount of a body was spelled: its exact text when sent as a
/// string (`"12.50000000"` keeps its eight places, ruling 52), or a JSON
/// number. Not part of what the body means: any two spellings are equal.
#[derive(Clone, Debug, Default)]
pub(super) enum Spelling {
    /// A string, as sent.
    Text(alloc::boxed::Box<str>),
    /// A JSON number.
    Number,
    /// Not known (written as the decimal's text).
    #[default]
    Unknown,
}

impl Spelling {
    pub(super) fn of(value: Option<&Loose>) -> Self {
        match value {
            Some(Loose::Str(text)) => Spelling::Text(text.as_str().into()),
            Some(Loose::Number(_)) => Spelling::Number,
            _ => Spelling::Unknown,
        }
    }
}

impl PartialEq for Spelling {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for Spelling {}

/// An amount written as it was spelled.
pub(super) struct Spelled<'a>(pub(super) Decimal, pub(super) &'a Spelling);

impl Serialize for Spelled<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.1 {
            Spelling::Text(text) => serializer.serialize_str(text),
            Spelling::Number => crate::wire::serialize_number(self.0, serializer),
            Spelling::Unknown => serializer.collect_str(&self.0),
        }
    }
}
