//! Validated opaque identifiers.
//!
//! The service's ids are opaque strings of any printable characters: UUIDs,
//! 30-character strings with punctuation such as `@ ( ! & $ )`, ~200-character
//! base64 with `+ / =`. An id here is non-empty, at most [`MAX_ID_LEN`] bytes and
//! plain text (ruling 37 in docs/RULES.md): no whitespace (not even a space),
//! no quote (`"`, `'`, `` ` ``), no control character and no zero-width,
//! bidirectional or other invisible character (ruling 28's set). Visible
//! punctuation and visible non-ASCII letters are kept; nothing else is
//! assumed about it.
//!
//! An id of at most 24 bytes (12 on 32-bit targets) is held inline, without a
//! heap allocation: asset ids (`BTC`), pair ids (`BTC_ETH`) and many rate ids
//! fit. Longer ids live on the heap; which one an id uses is invisible: equality,
//! ordering and hashing are those of the text.

use compact_str::CompactString;

/// The longest id accepted, in bytes (ruling 17 in docs/RULES.md). Real ids are at most ~200.
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
    /// The id contains whitespace, a quote, or a zero-width, bidirectional
    /// or other invisible character (ruling 37 in docs/RULES.md).
    #[error("id contains {found:?} (U+{code:04X}) at byte {at}: an id is plain text, without whitespace, quotes or invisible characters", code = u32::from(*found))]
    NotPlainText {
        /// The character.
        found: char,
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
    // One pass for the usual id, visible ASCII throughout; anything else
    // (non-ASCII included) is looked at closely. A fold without an early
    // exit, so the compiler checks many bytes at a time.
    if text
        .bytes()
        .fold(true, |plain, byte| plain & is_plain_ascii(byte))
    {
        return Ok(());
    }
    if let Some(at) = first_control(text.as_bytes()) {
        return Err(InvalidId::ControlCharacter { at });
    }
    match first_not_plain(text) {
        Some((at, found)) => Err(InvalidId::NotPlainText { found, at }),
        None => Ok(()),
    }
}

/// `true` for a visible ASCII byte an id may hold: `!` to `~` but the quotes.
const fn is_plain_ascii(byte: u8) -> bool {
    byte.is_ascii_graphic() && !is_banned_ascii(byte)
}

/// `true` for an ASCII byte an id may not hold besides the controls: the
/// space and the quotes `"`, `'` and `` ` ``.
const fn is_banned_ascii(byte: u8) -> bool {
    matches!(byte, b' ' | b'"' | b'\'' | b'`')
}

/// The first character of `text` that is whitespace, a quote or
/// [invisible](crate::text::is_invisible) (controls included), with its byte
/// offset. ASCII text, the usual id, is judged byte by byte.
pub(crate) fn first_not_plain(text: &str) -> Option<(usize, char)> {
    if text.is_ascii() {
        let at = text
            .bytes()
            .position(|b| is_banned_ascii(b) || b.is_ascii_control())?;
        return text.get(at..)?.chars().next().map(|c| (at, c));
    }
    text.char_indices().find(|&(_, c)| {
        c.is_whitespace()
            || crate::text::is_invisible(c)
            || u8::try_from(c).is_ok_and(is_banned_ascii)
    })
}

/// Byte offset of the first control character (`char::is_control`: U+0000 to
/// U+001F and U+007F to U+009F) of UTF-8 text, read as bytes rather than
/// decoded: the C0 controls and DEL are those single bytes, and U+0080 to
/// U+009F are `C2 80` to `C2 9F` (in valid UTF-8, `C2` only ever starts a
/// character).
pub(crate) fn first_control(bytes: &[u8]) -> Option<usize> {
    let mut iter = bytes.iter().enumerate();
    while let Some((at, &byte)) = iter.next() {
        match byte {
            0x00..=0x1f | 0x7f => return Some(at),
            0xc2 => {
                if let Some((_, 0x80..=0x9f)) = iter.next() {
                    return Some(at);
                }
            }
            _ => {}
        }
    }
    None
}

macro_rules! opaque_id {
    ($(#[$doc:meta])* $name:ident, $what:literal) => {
        $(#[$doc])*
        #[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(CompactString);

        impl $name {
            /// Validates `text` as an id.
            ///
            /// # Errors
            /// [`InvalidId`] when `text` is empty, longer than [`MAX_ID_LEN`] bytes or
            /// not plain text (a control character, whitespace, a quote, an
            /// invisible character).
            pub fn new(text: &str) -> Result<Self, InvalidId> {
                check_id(text)?;
                Ok($name(CompactString::new(text)))
            }

            /// The id's text.
            pub fn as_str(&self) -> &str {
                self.0.as_str()
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
mod tests {
    use super::*;
    use core::hash::{BuildHasher, Hash, Hasher};

    #[test]
    fn accepts_real_world_ids() {
        for text in [
            "0b6c6f7e-3a52-4c8e-9a57-5f1e2d2b8a11",
            "a@b(c)!d&e$f)g-1234567890-xyz__",
            "TWFueSBoYW5kcyBtYWtlIGxpZ2h0IHdvcmsu+/==",
            "d5b1a8f2-6c3e-4e8b-9f0a-2b7c4d1e9a63:spring-2026",
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

    /// Ids either side of the inline limit (24 bytes on 64-bit targets, 12 on
    /// 32-bit ones), and at the cap.
    fn lengths() -> [usize; 9] {
        [1, 11, 12, 13, 23, 24, 25, 26, MAX_ID_LEN]
    }

    #[test]
    fn every_length_keeps_its_text_and_round_trips() {
        for len in lengths() {
            // Multi-byte characters too: "é" is two bytes.
            for text in ["x".repeat(len), "é".repeat(len / 2)] {
                if text.is_empty() {
                    continue;
                }
                let id = AssetId::new(&text).unwrap();
                assert_eq!(id.as_str(), text);
                assert_eq!(id.as_ref(), text);
                assert_eq!(alloc::format!("{id}"), text);
                assert_eq!(
                    alloc::format!("{id:?}"),
                    alloc::format!("AssetId({text:?})")
                );
                assert_eq!(id.clone(), id);
                assert_eq!(text.parse::<AssetId>().unwrap(), id);
                let json = serde_json::to_string(&id).unwrap();
                assert_eq!(json, alloc::format!("\"{text}\""));
                assert_eq!(serde_json::from_str::<AssetId>(&json).unwrap(), id);
            }
        }
    }

    #[test]
    fn equality_hash_and_order_are_the_texts_at_every_length() {
        let texts: alloc::vec::Vec<alloc::string::String> = lengths()
            .into_iter()
            .flat_map(|len| {
                [
                    "a".repeat(len),
                    alloc::format!("{}b", "a".repeat(len - 1)),
                    alloc::format!("B{}", "a".repeat(len - 1)),
                ]
            })
            .collect();
        let hasher = std::hash::RandomState::new();
        let hash = |value: &dyn Fn(&mut std::hash::DefaultHasher)| {
            let mut state = hasher.build_hasher();
            value(&mut state);
            state.finish()
        };
        for a in &texts {
            let id_a = RateId::new(a).unwrap();
            // The same hash as the text itself, whichever way it is held.
            assert_eq!(hash(&|h| id_a.hash(h)), hash(&|h| a.as_str().hash(h)));
            for b in &texts {
                let id_b = RateId::new(b).unwrap();
                assert_eq!(id_a == id_b, a == b, "{a} {b}");
                assert_eq!(id_a.cmp(&id_b), a.as_bytes().cmp(b.as_bytes()), "{a} {b}");
                assert_eq!(id_a.partial_cmp(&id_b), Some(a.cmp(b)));
                assert_eq!(
                    hash(&|h| id_a.hash(h)) == hash(&|h| id_b.hash(h)),
                    a == b,
                    "{a} {b}"
                );
            }
        }
    }

    #[test]
    fn control_characters_found_as_by_chars() {
        // Every scalar value, alone and between other text: the byte scan
        // agrees with `char::is_control` on the decoded characters.
        let reference = |text: &str| {
            text.char_indices()
                .find(|(_, c)| c.is_control())
                .map(|(at, _)| at)
        };
        for c in (0..=0x10_ffff).filter_map(char::from_u32) {
            for text in [
                alloc::format!("{c}"),
                alloc::format!("a{c}é{c}"),
                alloc::format!("\u{c2}{c}"),
            ] {
                assert_eq!(first_control(text.as_bytes()), reference(&text), "{c:?}");
            }
        }
        assert_eq!(
            RateId::new("é\u{85}"),
            Err(InvalidId::ControlCharacter { at: 2 })
        );
        assert_eq!(
            RateId::new("\u{a0}\u{9f}"),
            Err(InvalidId::ControlCharacter { at: 2 })
        );
        // `C2 A1` (¡) is a visible character whose first byte is `C2`.
        assert!(RateId::new("\u{a1}\u{c2}\u{100}").is_ok());
    }

    #[test]
    fn ids_are_plain_text() {
        // Ruling 37: whitespace, quotes and invisible characters are refused,
        // at their byte offset.
        for (text, at, found) in [
            ("with space", 4, ' '),
            ("\"BTC\"", 0, '"'),
            ("BT'C", 2, '\''),
            ("B`TC", 1, '`'),
            ("\u{feff}BTC", 0, '\u{feff}'),
            ("BT\u{200b}C", 2, '\u{200b}'),
            ("é\u{202e}CTB", 2, '\u{202e}'),
            ("ETH\u{2066}", 3, '\u{2066}'),
            ("BTC\u{a0}", 3, '\u{a0}'),
            ("BTC\u{3000}x", 3, '\u{3000}'),
            ("x\u{e0041}", 1, '\u{e0041}'),
        ] {
            assert_eq!(
                AssetId::new(text),
                Err(InvalidId::NotPlainText { found, at }),
                "{text:?}"
            );
            assert_eq!(
                RateId::new(text),
                Err(InvalidId::NotPlainText { found, at })
            );
        }
        // Controls keep their own error.
        assert_eq!(
            AssetId::new("B\tTC"),
            Err(InvalidId::ControlCharacter { at: 1 })
        );
        // Every visible ASCII character but the three quotes is kept.
        let visible: alloc::string::String = (b'!'..=b'~')
            .filter(|b| !matches!(b, b'"' | b'\'' | b'`'))
            .map(char::from)
            .collect();
        assert_eq!(RateId::new(&visible).unwrap().as_str(), visible);
    }

    #[test]
    fn orders_by_bytes() {
        let a = RateId::new("B").unwrap();
        let b = RateId::new("a").unwrap();
        assert!(a < b, "uppercase sorts before lowercase by bytes");
    }
}
