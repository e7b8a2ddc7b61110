//! The one scanner every CAIP text goes through.

use super::{CaipComponent, InvalidCaipId};

/// What may end a component.
#[derive(Clone, Copy)]
pub(super) enum End {
    /// Only the end of the text.
    Text,
    /// Only the separator.
    Sep(u8),
    /// The separator or the end of the text.
    SepOrText(u8),
}

/// Reads components left to right, tracking the byte offset.
pub(super) struct Cursor<'a> {
    text: &'a str,
    pos: usize,
}

impl<'a> Cursor<'a> {
    pub(super) fn new(text: &'a str) -> Self {
        Cursor { text, pos: 0 }
    }

    /// The byte offset of the next component.
    pub(super) fn pos(&self) -> usize {
        self.pos
    }

    /// Reads one `component` ended as `end` allows. Returns the component and
    /// whether a separator (now consumed) ended it.
    ///
    /// Checks, in order: a character outside the class (reported at its
    /// offset), the length, a missing separator.
    pub(super) fn take(
        &mut self,
        component: CaipComponent,
        end: End,
    ) -> Result<(&'a str, bool), InvalidCaipId> {
        let bytes = self.text.as_bytes();
        let start = self.pos;
        let rest = bytes.get(start..).unwrap_or_default();
        let len = rest
            .iter()
            .position(|&b| !component.allows(b))
            .unwrap_or(rest.len());
        // `start + len <= text.len()`, so this never saturates.
        let stop_at = start.saturating_add(len);
        let stop = bytes.get(stop_at).copied();
        let (sep, text_ok) = match end {
            End::Text => (None, true),
            End::Sep(sep) => (Some(sep), false),
            End::SepOrText(sep) => (Some(sep), true),
        };
        if let Some(byte) = stop {
            if Some(byte) != sep {
                let found = self
                    .text
                    .get(stop_at..)
                    .and_then(|s| s.chars().next())
                    .unwrap_or(char::REPLACEMENT_CHARACTER);
                return Err(InvalidCaipId::InvalidCharacter {
                    component,
                    found,
                    at: stop_at,
                });
            }
        }
        if len == 0 {
            return Err(InvalidCaipId::Empty { component });
        }
        if len < component.min_len() {
            return Err(InvalidCaipId::TooShort { component, len });
        }
        if len > component.max_len() {
            return Err(InvalidCaipId::TooLong { component, len });
        }
        let value = self.text.get(start..stop_at).unwrap_or_default();
        match (stop, sep) {
            (None, Some(expected)) if !text_ok => Err(InvalidCaipId::MissingSeparator {
                after: component,
                expected: char::from(expected),
                at: stop_at,
            }),
            (None, _) => {
                self.pos = stop_at;
                Ok((value, false))
            }
            (Some(_), _) => {
                self.pos = stop_at.saturating_add(1);
                Ok((value, true))
            }
        }
    }
}

/// Validates a lone component (offsets count from its start).
pub(super) fn component(component: CaipComponent, text: &str) -> Result<(), InvalidCaipId> {
    Cursor::new(text).take(component, End::Text).map(|_| ())
}

/// The components of a CAIP-19 text, borrowed from it.
pub(super) struct Parts<'a> {
    pub(super) namespace: &'a str,
    pub(super) reference: &'a str,
    pub(super) asset_namespace: &'a str,
    pub(super) asset_reference: &'a str,
    /// The token id and its byte offset.
    pub(super) token_id: Option<(&'a str, usize)>,
}

/// Parses `namespace:reference` (the whole text).
pub(super) fn chain_id(text: &str) -> Result<(&str, &str), InvalidCaipId> {
    let mut cursor = Cursor::new(text);
    let (namespace, _) = cursor.take(CaipComponent::Namespace, End::Sep(b':'))?;
    let (reference, _) = cursor.take(CaipComponent::Reference, End::Text)?;
    Ok((namespace, reference))
}

/// Parses `namespace:reference/asset_namespace:asset_reference[/token_id]`.
pub(super) fn caip19(text: &str) -> Result<Parts<'_>, InvalidCaipId> {
    let mut cursor = Cursor::new(text);
    let (namespace, _) = cursor.take(CaipComponent::Namespace, End::Sep(b':'))?;
    let (reference, _) = cursor.take(CaipComponent::Reference, End::Sep(b'/'))?;
    let (asset_namespace, _) = cursor.take(CaipComponent::AssetNamespace, End::Sep(b':'))?;
    let (asset_reference, has_token) =
        cursor.take(CaipComponent::AssetReference, End::SepOrText(b'/'))?;
    let token_id = if has_token {
        let at = cursor.pos();
        let (token, _) = cursor.take(CaipComponent::TokenId, End::Text)?;
        Some((token, at))
    } else {
        None
    };
    Ok(Parts {
        namespace,
        reference,
        asset_namespace,
        asset_reference,
        token_id,
    })
}
