//! The trait impls every validated text type shares, generated from its one
//! parser so `FromStr`, `TryFrom<&str>` and serde can never disagree.

/// Implements `FromStr`, `TryFrom<&str>`, `Debug` (`Name("text")`),
/// `Serialize` (the `Display` text) and `Deserialize` (a string through
/// `$parse`) for `$name`, whose `Display` writes its canonical text.
macro_rules! text_traits {
    ($name:ident, $parse:path, $err:ty, $what:literal) => {
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

        impl core::fmt::Debug for $name {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str(concat!(stringify!($name), "(\""))?;
                $crate::text::write_escaped(f, format_args!("{self}"))?;
                f.write_str("\")")
            }
        }

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.collect_str(self)
            }
        }

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                struct Visitor;
                impl serde::de::Visitor<'_> for Visitor {
                    type Value = $name;
                    fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                        f.write_str($what)
                    }
                    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<$name, E> {
                        $parse(v)
                            .map_err(|e| E::custom(format_args!("{v:?} is not {}: {e}", $what)))
                    }
                }
                deserializer.deserialize_str(Visitor)
            }
        }
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

pub(crate) use {boxed_text, text_traits};

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

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::{check_visible_ascii, TokenDefect};

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
}
