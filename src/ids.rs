//! Validated opaque identifiers.
//!
//! The service's ids are opaque strings of any printable characters: UUIDs,
//! 30-character strings with punctuation such as `@ ( ! & $ )`, ~200-character
//! base64 with `+ / =`. An id here is non-empty, at most [`MAX_ID_LEN`] bytes and
//! free of control characters; nothing else is assumed about it.

use alloc::boxed::Box;

/// The longest id accepted, in bytes (DESIGN ruling 17). Real ids are at most ~200.
pub const MAX_ID_LEN: usize = 512;

/// Why a text is not a valid id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum InvalidId {
    /// The id is empty.
    #[error("id is empty")]
    Empty,
    /// The id is longer than [`MAX_ID_LEN`] bytes.
    #[error("id is {len} bytes long, more than the {MAX_ID_LEN} allowed")]
    TooLong {
        /// Length of the rejected id, in bytes.
        len: usize,
    },
    /// The id contains a control character.
    #[error("id contains a control character at byte {at}")]
    ControlCharacter {
        /// Byte offset of the character.
        at: usize,
    },
}

/// The one validation every id type shares.
pub(crate) fn check_id(text: &str) -> Result<(), InvalidId> {
    if text.is_empty() {
        return Err(InvalidId::Empty);
    }
    if text.len() > MAX_ID_LEN {
        return Err(InvalidId::TooLong { len: text.len() });
    }
    match text.char_indices().find(|(_, c)| c.is_control()) {
        Some((at, _)) => Err(InvalidId::ControlCharacter { at }),
        None => Ok(()),
    }
}

macro_rules! opaque_id {
    ($(#[$doc:meta])* $name:ident, $what:literal) => {
        $(#[$doc])*
        #[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(Box<str>);

        impl $name {
            /// Validates `text` as an id.
            ///
            /// # Errors
            /// [`InvalidId`] when `text` is empty, longer than [`MAX_ID_LEN`] bytes or
            /// contains a control character.
            pub fn new(text: &str) -> Result<Self, InvalidId> {
                check_id(text)?;
                Ok($name(text.into()))
            }

            /// The id's text.
            pub fn as_str(&self) -> &str {
                &self.0
            }
        }

        crate::text::boxed_text!($name, $name::new, InvalidId, $what);
    };
}

opaque_id!(
    /// The id of a rate (`"id"` of a rates-response entry; `rateId` of an order).
    RateId,
    "a rate id"
);
opaque_id!(
    /// The id of a fee-sponsorship campaign (`sponsoredByCampaignId`).
    CampaignId,
    "a campaign id"
);
opaque_id!(
    /// A legacy asset id such as `BTC` or `USDCbasemainnetB5A52617`.
    AssetId,
    "an asset id"
);
opaque_id!(
    /// The id of a quote.
    QuoteId,
    "a quote id"
);
opaque_id!(
    /// The id of an order.
    OrderId,
    "an order id"
);
opaque_id!(
    /// The provider's own id of an order (`providerOrderId`).
    ProviderOrderId,
    "a provider order id"
);

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn accepts_real_world_ids() {
        for text in [
            "0b6c6f7e-3a52-4c8e-9a57-5f1e2d2b8a11",
            "a@b(c)!d&e$f)g-1234567890-xyz__",
            "TWFueSBoYW5kcyBtYWtlIGxpZ2h0IHdvcmsu+/==",
            "with space",
            "ünïcödé",
        ] {
            assert_eq!(RateId::new(text).unwrap().as_str(), text);
        }
    }

    #[test]
    fn rejects_empty_control_and_overlong() {
        assert_eq!(RateId::new(""), Err(InvalidId::Empty));
        assert_eq!(
            RateId::new("ab\ncd"),
            Err(InvalidId::ControlCharacter { at: 2 })
        );
        assert_eq!(
            RateId::new("\u{7f}"),
            Err(InvalidId::ControlCharacter { at: 0 })
        );
        let at_cap = "x".repeat(MAX_ID_LEN);
        assert!(RateId::new(&at_cap).is_ok());
        let past_cap = "x".repeat(MAX_ID_LEN + 1);
        assert_eq!(
            RateId::new(&past_cap),
            Err(InvalidId::TooLong {
                len: MAX_ID_LEN + 1
            })
        );
    }

    #[test]
    fn orders_by_bytes() {
        let a = RateId::new("B").unwrap();
        let b = RateId::new("a").unwrap();
        assert!(a < b, "uppercase sorts before lowercase by bytes");
    }
}
