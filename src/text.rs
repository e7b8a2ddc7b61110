//! The trait impls every validated text type and every word table shares,
//! generated from its one parser or table so `as_str`, `Display`, `FromStr`,
//! `TryFrom<&str>` and serde can never disagree; and the checks texts share
//! (visible ASCII tokens, the open sets' unknown members, invisible
//! characters).

/// `FromStr` and `TryFrom<&str>` for `$name`, both through its one parser
/// `$parse`.
macro_rules! parse_traits {
    ($name:ty, $parse:expr, $err:ty) => {
        impl core::str::FromStr for $name {
            type Err = $err;
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                $parse(s)
            }
        }

        impl TryFrom<&str> for $name {
            type Error = $err;
            fn try_from(s: &str) -> Result<Self, Self::Error> {
                $parse(s)
            }
        }
    };
}

/// `Deserialize` for `$name` from a JSON string: `$parse` reads the text
/// `$v`, and its error `$e` becomes the message `$message`; the visitor
/// expects `$what`.
macro_rules! deserialize_str {
    ($name:ty, $what:expr, $parse:expr, |$v:ident, $e:pat_param| $message:expr) => {
        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                struct Visitor;
                impl serde::de::Visitor<'_> for Visitor {
                    type Value = $name;
                    fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                        f.write_str($what)
                    }
                    fn visit_str<E: serde::de::Error>(self, $v: &str) -> Result<$name, E> {
                        $parse($v).map_err(|$e| E::custom($message))
                    }
                }
                deserializer.deserialize_str(Visitor)
            }
        }
    };
}

/// `Serialize` as the text `as_str` gives, and `Deserialize` as
/// [`deserialize_str`] reads it.
macro_rules! str_serde {
    ($name:ty, $what:expr, $parse:expr, |$v:ident, $e:pat_param| $message:expr) => {
        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }

        $crate::text::deserialize_str!($name, $what, $parse, |$v, $e| $message);
    };
}

/// `Serialize` as the `Display` text, and `Deserialize` as
/// [`deserialize_str`] reads it.
macro_rules! display_serde {
    ($name:ty, $what:expr, $parse:expr, |$v:ident, $e:pat_param| $message:expr) => {
        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.collect_str(self)
            }
        }

        $crate::text::deserialize_str!($name, $what, $parse, |$v, $e| $message);
    };
}

/// For a fieldless enum: `as_str`, the text of each variant from one table
/// (documented by the doc comment given), and `Display` writing that text;
/// with `parse: Kind, "message"`, also `FromStr`, the exact (case-sensitive)
/// text of a variant or a `ParseError` of that kind (reason `"UNKNOWN"`)
/// with that message.
macro_rules! str_enum {
    ($name:ident, parse: $kind:ident, $message:literal, $(#[$doc:meta])* { $($variant:ident => $text:literal),+ $(,)? }) => {
        $crate::text::str_enum!($name, $(#[$doc])* { $($variant => $text),+ });

        impl core::str::FromStr for $name {
            type Err = $crate::parse_error::ParseError;
            /// Exact, case-sensitive match of the text.
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                match s {
                    $( $text => Ok($name::$variant), )+
                    _ => Err($crate::parse_error::ParseError::new(
                        $crate::parse_error::ParseErrorKind::$kind,
                        s,
                        "UNKNOWN",
                        &$message,
                    )),
                }
            }
        }
    };
    ($name:ident, $(#[$doc:meta])* { $($variant:ident => $text:literal),+ $(,)? }) => {
        impl $name {
            $(#[$doc])*
            pub const fn as_str(self) -> &'static str {
                match self {
                    $( $name::$variant => $text, )+
                }
            }
        }

        impl core::fmt::Display for $name {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

/// Implements `FromStr`, `TryFrom<&str>` ([`parse_traits`]), `Debug`
/// (`Name("text")`), `Serialize` (the `Display` text) and `Deserialize` (a
/// string through `$parse`) for `$name`, whose `Display` writes its
/// canonical text.
macro_rules! text_traits {
    ($name:ident, $parse:path, $err:ty, $what:literal) => {
        $crate::text::parse_traits!($name, $parse, $err);

        impl core::fmt::Debug for $name {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str(concat!(stringify!($name), "(\""))?;
                $crate::text::write_escaped(f, format_args!("{self}"))?;
                f.write_str("\")")
            }
        }

        $crate::text::display_serde!($name, $what, $parse, |v, e| format_args!(
            "{v:?} is not {}: {e}",
            $what
        ));
    };
}

/// For a `struct $name(T)` whose `T` derefs to `str` (`Box<str>`, an inline
/// string) with `as_str`: `AsRef<str>` and `Display` (the text as held), plus
/// everything [`text_traits`] gives.
macro_rules! boxed_text {
    ($name:ident, $parse:path, $err:ty, $what:literal) => {
        impl AsRef<str> for $name {
            fn as_ref(&self) -> &str {
                &self.0
            }
        }

        impl core::fmt::Display for $name {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str(&self.0)
            }
        }

        $crate::text::text_traits!($name, $parse, $err, $what);
    };
}

/// `From<TokenDefect>` for an error enum with the variants `Empty`,
/// `TooLong { len }` and `BadCharacter { at }` (or the name given for it).
macro_rules! from_token_defect {
    ($error:ident) => {
        $crate::text::from_token_defect!($error, BadCharacter);
    };
    ($error:ident, $bad:ident) => {
        impl From<$crate::text::TokenDefect> for $error {
            fn from(defect: $crate::text::TokenDefect) -> Self {
                match defect {
                    $crate::text::TokenDefect::Empty => $error::Empty,
                    $crate::text::TokenDefect::TooLong { len } => $error::TooLong { len },
                    $crate::text::TokenDefect::Invisible { at } => $error::$bad { at },
                }
            }
        }
    };
    // With the `Malformed` impl of a `ParseError` of `$kind`: the reasons
    // `EMPTY`, `TOO_LONG` and `$reason` (with the character's position).
    ($error:ident, $bad:ident, $reason:literal, $kind:ident) => {
        $crate::text::from_token_defect!($error, $bad);

        impl $crate::parse_error::Malformed for $error {
            fn kind(&self) -> $crate::parse_error::ParseErrorKind {
                $crate::parse_error::ParseErrorKind::$kind
            }

            fn reason(&self) -> &'static str {
                match self {
                    $error::Empty => "EMPTY",
                    $error::TooLong { .. } => "TOO_LONG",
                    $error::$bad { .. } => $reason,
                }
            }

            fn position(&self) -> Option<usize> {
                match self {
                    $error::$bad { at } => Some(*at),
                    _ => None,
                }
            }
        }
    };
}

/// `struct $name(Box<str>)`, a text of an open set kept exactly as received
/// ([`check_open_text`] admits it): `as_str` and `Debug` (`Name("text")`).
macro_rules! verbatim_text {
    ($(#[$meta:meta])* pub struct $name:ident; $(#[$doc:meta])*) => {
        $(#[$meta])*
        #[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(alloc::boxed::Box<str>);

        impl $name {
            $(#[$doc])*
            pub fn as_str(&self) -> &str {
                &self.0
            }
        }

        impl core::fmt::Debug for $name {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                write!(f, concat!(stringify!($name), "({:?})"), &*self.0)
            }
        }
    };
}

pub(crate) use {
    boxed_text, deserialize_str, display_serde, from_token_defect, parse_traits, str_enum,
    str_serde, text_traits, verbatim_text,
};

/// Writes formatted text with `Debug` escaping, without allocating.
pub(crate) fn write_escaped(
    f: &mut core::fmt::Formatter<'_>,
    text: core::fmt::Arguments<'_>,
) -> core::fmt::Result {
    struct Escaping<'a, 'b>(&'a mut core::fmt::Formatter<'b>);
    impl core::fmt::Write for Escaping<'_, '_> {
        fn write_str(&mut self, s: &str) -> core::fmt::Result {
            for c in s.chars() {
                core::fmt::Display::fmt(&c.escape_debug(), self.0)?;
            }
            Ok(())
        }
    }
    core::fmt::write(&mut Escaping(f), text)
}

/// How a text breaks the rules addresses and transaction ids share.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TokenDefect {
    /// The text is empty.
    Empty,
    /// The text is `len` bytes long, more than allowed.
    TooLong { len: usize },
    /// The byte at `at` is not visible ASCII.
    Invisible { at: usize },
}

/// Checks, in this order, that `text` is non-empty, at most `max_len` bytes
/// and visible ASCII (`!`..=`~`) throughout: no whitespace, control or
/// non-ASCII character, so no look-alike Unicode either.
pub(crate) fn check_visible_ascii(text: &str, max_len: usize) -> Result<(), TokenDefect> {
    if text.is_empty() {
        return Err(TokenDefect::Empty);
    }
    if text.len() > max_len {
        return Err(TokenDefect::TooLong { len: text.len() });
    }
    match text.bytes().position(|b| !b.is_ascii_graphic()) {
        Some(at) => Err(TokenDefect::Invisible { at }),
        None => Ok(()),
    }
}

/// Checks, in this order, that `text` is non-empty, at most `max_len` bytes
/// and free of control characters (`Invisible` names the first one's byte):
/// what an open set (error codes, order statuses) keeps of a text it does
/// not know.
pub(crate) fn check_open_text(text: &str, max_len: usize) -> Result<(), TokenDefect> {
    if text.is_empty() {
        return Err(TokenDefect::Empty);
    }
    if text.len() > max_len {
        return Err(TokenDefect::TooLong { len: text.len() });
    }
    match text.char_indices().find(|(_, c)| c.is_control()) {
        Some((at, _)) => Err(TokenDefect::Invisible { at }),
        None => Ok(()),
    }
}

/// Characters that show nothing but are not White_Space or Cc (those come
/// from `char::is_whitespace` and `char::is_control`, which implement exactly
/// Unicode's White_Space property and general category Cc): inclusive ranges,
/// sorted.
///
/// Sources (Unicode 15.1, <https://www.unicode.org/Public/15.1.0/ucd/>):
/// - general category Cf (`UnicodeData.txt`): soft hyphen, Arabic and Syriac
///   format marks, the zero-width characters U+200B–U+200D, LRM/RLM, the bidi
///   embeddings and overrides U+202A–U+202E and isolates U+2066–U+2069,
///   U+2060 WORD JOINER, the invisible operators, U+FEFF, interlinear
///   annotation, shorthand and musical format controls, Egyptian hieroglyph
///   format controls and the tag characters;
/// - `Default_Ignorable_Code_Point` (`DerivedCoreProperties.txt`): the above
///   plus the combining grapheme joiner U+034F, the Hangul fillers U+115F,
///   U+1160, U+3164, U+FFA0, the Khmer inherent vowels U+17B4–U+17B5, the
///   Mongolian variation selectors U+180B–U+180F, variation selectors
///   U+FE00–U+FE0F and U+E0100–U+E01EF, and the reserved ignorable ranges
///   U+2065, U+FFF0–U+FFF8, U+E0000–U+E0FFF;
/// - U+2800 BRAILLE PATTERN BLANK, which has no dots and is used as an
///   invisible "letter".
const INVISIBLE: [(u32, u32); 26] = [
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x0600, 0x0605),
    (0x061C, 0x061C),
    (0x06DD, 0x06DD),
    (0x070F, 0x070F),
    (0x0890, 0x0891),
    (0x08E2, 0x08E2),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x2800, 0x2800),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFFB),
    (0x110BD, 0x110BD),
    (0x110CD, 0x110CD),
    (0x13430, 0x1343F),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
];

/// `true` for a character a reader cannot see or cannot tell from a plain
/// space: the one definition of "invisible" for tags and `App-Name`
/// (ruling 28 (docs/RULES.md)).
///
/// That is: every White_Space character except U+0020 SPACE itself (tab, line
/// breaks, NBSP U+00A0, the U+2000–U+200A spaces, U+2028/U+2029, U+202F,
/// U+205F, U+3000, …), every control character (Cc), and every character of
/// [`INVISIBLE`] (format characters Cf, default-ignorable code points, the
/// blank Braille pattern). Private-use and unassigned code points outside
/// those ranges are not counted.
pub(crate) fn is_invisible(c: char) -> bool {
    if c == ' ' {
        return false;
    }
    if c.is_whitespace() || c.is_control() {
        return true;
    }
    let code = u32::from(c);
    INVISIBLE
        .iter()
        .any(|&(first, last)| (first..=last).contains(&code))
}

/// `true` when `text` shows nothing: empty, or only spaces and
/// [invisible](is_invisible) characters.
pub(crate) fn is_blank(text: &str) -> bool {
    text.chars().all(|c| c == ' ' || is_invisible(c))
}

/// The most characters of a sent text an error message or report repeats.
pub(crate) const MAX_ECHO_CHARS: usize = 64;

/// `text` as an error repeats it: whole when it has at most
/// [`MAX_ECHO_CHARS`] characters, else its first ones and `… (N bytes in
/// all)`, so a 50 MB value never travels into a message.
pub(crate) fn echo(text: &str) -> alloc::borrow::Cow<'_, str> {
    match text.char_indices().nth(MAX_ECHO_CHARS) {
        None => alloc::borrow::Cow::Borrowed(text),
        Some((at, _)) => alloc::borrow::Cow::Owned(alloc::format!(
            "{}… ({} bytes in all)",
            text.get(..at).unwrap_or_default(),
            text.len()
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::{check_visible_ascii, is_blank, is_invisible, TokenDefect, INVISIBLE};

    #[test]
    fn visible_ascii_rules_in_order() {
        assert_eq!(check_visible_ascii("", 4), Err(TokenDefect::Empty));
        // Length is reported before characters.
        assert_eq!(
            check_visible_ascii("a b c", 4),
            Err(TokenDefect::TooLong { len: 5 })
        );
        assert_eq!(
            check_visible_ascii("ab c", 4),
            Err(TokenDefect::Invisible { at: 2 })
        );
        // The first offending byte: é is two bytes, its first is reported.
        assert_eq!(
            check_visible_ascii("xé", 4),
            Err(TokenDefect::Invisible { at: 1 })
        );
        assert_eq!(
            check_visible_ascii("a\u{7f}", 4),
            Err(TokenDefect::Invisible { at: 1 })
        );
        assert_eq!(
            check_visible_ascii("a\t", 4),
            Err(TokenDefect::Invisible { at: 1 })
        );
        // Both ends of the visible range, at the length cap.
        assert_eq!(check_visible_ascii("!~!~", 4), Ok(()));
    }

    /// General category Cf as listed by Unicode 14.0's `UnicodeData.txt` (an
    /// independent listing: Python's `unicodedata`), every range's ends.
    const CF_14: [(u32, u32); 21] = [
        (0xad, 0xad),
        (0x600, 0x605),
        (0x61c, 0x61c),
        (0x6dd, 0x6dd),
        (0x70f, 0x70f),
        (0x890, 0x891),
        (0x8e2, 0x8e2),
        (0x180e, 0x180e),
        (0x200b, 0x200f),
        (0x202a, 0x202e),
        (0x2060, 0x2064),
        (0x2066, 0x206f),
        (0xfeff, 0xfeff),
        (0xfff9, 0xfffb),
        (0x110bd, 0x110bd),
        (0x110cd, 0x110cd),
        (0x13430, 0x13438),
        (0x1bca0, 0x1bca3),
        (0x1d173, 0x1d17a),
        (0xe0001, 0xe0001),
        (0xe0020, 0xe007f),
    ];

    /// Unicode's White_Space property (`PropList.txt`).
    const WHITE_SPACE: [u32; 25] = [
        0x9, 0xa, 0xb, 0xc, 0xd, 0x20, 0x85, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004,
        0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000,
    ];

    fn ch(code: u32) -> char {
        char::from_u32(code).unwrap()
    }

    #[test]
    fn every_format_character_is_invisible() {
        for (first, last) in CF_14 {
            for code in [first, last] {
                assert!(is_invisible(ch(code)), "U+{code:04X}");
            }
        }
    }

    #[test]
    fn whitespace_other_than_space_and_controls_are_invisible() {
        for code in WHITE_SPACE {
            assert_eq!(is_invisible(ch(code)), code != 0x20, "U+{code:04X}");
            assert!(is_blank(&alloc::string::String::from(ch(code))));
        }
        for code in (0..=0x1f).chain(0x7f..=0x9f) {
            assert!(is_invisible(ch(code)), "U+{code:04X}");
        }
    }

    #[test]
    fn the_named_invisible_characters() {
        // Zero-width space, non-joiner, joiner; word joiner; BOM; bidi
        // embeddings, overrides and isolates; Hangul filler; variation
        // selector 16; tag characters; Braille blank.
        for c in [
            '\u{200b}',
            '\u{200c}',
            '\u{200d}',
            '\u{2060}',
            '\u{feff}',
            '\u{202a}',
            '\u{202b}',
            '\u{202c}',
            '\u{202d}',
            '\u{202e}',
            '\u{2066}',
            '\u{2067}',
            '\u{2068}',
            '\u{2069}',
            '\u{3164}',
            '\u{fe0f}',
            '\u{e0041}',
            '\u{2800}',
            '\u{a0}',
            '\u{34f}',
        ] {
            assert!(is_invisible(c), "{c:?}");
        }
        // Visible text, including non-Latin letters, digits, symbols and emoji.
        for c in [
            'a', 'Z', '0', '-', '_', 'é', 'ß', '漢', 'ж', '١', '€', '😀', '\u{2801}',
        ] {
            assert!(!is_invisible(c), "{c:?}");
        }
        // The ranges are sorted and do not overlap.
        for pair in INVISIBLE.windows(2) {
            assert!(pair[0].1 < pair[1].0, "{pair:x?}");
        }
    }

    #[test]
    fn blank_text() {
        for text in [
            "",
            " ",
            "   ",
            "\u{a0}",
            "\u{200b}",
            " \u{feff} ",
            "\t\n",
            "\u{3000}",
        ] {
            assert!(is_blank(text), "{text:?}");
        }
        for text in ["x", " x ", "\u{202e}123", "1\u{200b}", "memo with spaces"] {
            assert!(!is_blank(text), "{text:?}");
        }
    }
}
