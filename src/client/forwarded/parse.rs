//! The one parser of `Forwarded` values (RFC 7239 §4), linear in the input.
//!
//! ```text
//! Forwarded         = 1#forwarded-element
//! forwarded-element = [ forwarded-pair ] *( ";" [ forwarded-pair ] )
//! forwarded-pair    = token "=" value
//! value             = token / quoted-string
//! ```
//! Optional whitespace is accepted around `,` and `;` and at both ends, never
//! around `=`. Empty list elements and empty pairs are skipped.

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;

use super::element::{is_tchar, ForwardedElement};
use super::{ForwardedError, Node, MAX_ELEMENTS, MAX_HEADER_LEN, MAX_PARAMS};

/// A position in the input; every step is bounds-checked.
struct Cursor<'a> {
    text: &'a str,
    pos: usize,
}

impl<'a> Cursor<'a> {
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.pos).copied()
    }

    fn bump(&mut self) {
        self.pos = self.pos.saturating_add(1);
    }

    fn skip_ows(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t')) {
            self.bump();
        }
    }

    /// One or more `tchar`s, or `None` (nothing consumed).
    fn token(&mut self) -> Option<&'a str> {
        let start = self.pos;
        while self.peek().is_some_and(is_tchar) {
            self.bump();
        }
        self.text
            .get(start..self.pos)
            .filter(|token| !token.is_empty())
    }

    /// A quoted string; the cursor is on the opening `"`. Returns the unescaped content.
    fn quoted(&mut self) -> Result<String, ForwardedError> {
        let open = self.pos;
        self.bump();
        let mut out = Vec::new();
        loop {
            let at = self.pos;
            let byte = self
                .peek()
                .ok_or(ForwardedError::UnterminatedQuote { at: open })?;
            self.bump();
            let byte = match byte {
                b'"' => break,
                b'\\' => {
                    let at = self.pos;
                    let escaped = self
                        .peek()
                        .ok_or(ForwardedError::UnterminatedQuote { at: open })?;
                    self.bump();
                    check_quoted_byte(escaped, at)?
                }
                other => check_quoted_byte(other, at)?,
            };
            out.push(byte);
        }
        // Only ASCII bytes were removed (quotes, backslashes), so the content stays UTF-8.
        String::from_utf8(out).map_err(|_| ForwardedError::ControlInQuote { at: open })
    }
}

/// `qdtext` / `quoted-pair` content: HTAB, SP, visible ASCII, or non-ASCII (obs-text).
fn check_quoted_byte(byte: u8, at: usize) -> Result<u8, ForwardedError> {
    if byte == b'\t' || (byte >= 0x20 && byte != 0x7f) {
        Ok(byte)
    } else {
        Err(ForwardedError::ControlInQuote { at })
    }
}

/// Parses a whole `Forwarded` value: its non-empty elements, at least one.
pub(super) fn parse(text: &str) -> Result<Vec<ForwardedElement>, ForwardedError> {
    if text.len() > MAX_HEADER_LEN {
        return Err(ForwardedError::TooLong { len: text.len() });
    }
    let mut cur = Cursor { text, pos: 0 };
    let mut elements = Vec::new();
    loop {
        let element = parse_element(&mut cur)?;
        if !element.is_empty() {
            if elements.len() >= MAX_ELEMENTS {
                return Err(ForwardedError::TooManyElements);
            }
            elements.push(element);
        }
        match cur.peek() {
            None => break,
            // `parse_element` stops only at `,` or the end.
            Some(_) => cur.bump(),
        }
    }
    if elements.is_empty() {
        return Err(ForwardedError::Empty);
    }
    Ok(elements)
}

/// Parses pairs up to the next `,` (not consumed) or the end.
fn parse_element(cur: &mut Cursor<'_>) -> Result<ForwardedElement, ForwardedError> {
    let mut element = ForwardedElement::empty();
    let mut count = 0_usize;
    loop {
        cur.skip_ows();
        match cur.peek() {
            None | Some(b',') => return Ok(element),
            Some(b';') => {
                cur.bump();
                continue;
            }
            Some(_) => {}
        }
        if count >= MAX_PARAMS {
            return Err(ForwardedError::TooManyParams);
        }
        count = count.saturating_add(1);
        parse_pair(cur, &mut element)?;
        cur.skip_ows();
        match cur.peek() {
            None | Some(b',') => return Ok(element),
            Some(b';') => cur.bump(),
            Some(_) => return Err(unexpected(cur)),
        }
    }
}

fn unexpected(cur: &Cursor<'_>) -> ForwardedError {
    let found = cur
        .text
        .get(cur.pos..)
        .and_then(|rest| rest.chars().next())
        .unwrap_or('\u{fffd}');
    ForwardedError::Unexpected { at: cur.pos, found }
}

fn parse_pair(cur: &mut Cursor<'_>, element: &mut ForwardedElement) -> Result<(), ForwardedError> {
    let name_at = cur.pos;
    let name = cur
        .token()
        .ok_or(ForwardedError::ExpectedName { at: name_at })?;
    if cur.peek() != Some(b'=') {
        return Err(ForwardedError::ExpectedEquals { at: cur.pos });
    }
    cur.bump();
    let at = cur.pos;
    let value: Cow<'_, str> = match cur.peek() {
        Some(b'"') => Cow::Owned(cur.quoted()?),
        Some(b'[' | b']' | b':') => return Err(ForwardedError::NeedsQuoting { at }),
        _ => Cow::Borrowed(cur.token().ok_or(ForwardedError::ExpectedValue { at })?),
    };
    if matches!(cur.peek(), Some(b'[' | b']' | b':')) {
        return Err(ForwardedError::NeedsQuoting { at });
    }
    let name = name.to_ascii_lowercase();
    let duplicate = || ForwardedError::DuplicateParam { name: name.clone() };
    match name.as_str() {
        "for" | "by" => {
            let param = if name == "for" { "for" } else { "by" };
            let node = Node::parse(&value).map_err(|reason| ForwardedError::InvalidNode {
                param,
                at,
                reason,
            })?;
            let slot = if param == "for" {
                &mut element.for_node
            } else {
                &mut element.by
            };
            if slot.is_some() {
                return Err(duplicate());
            }
            *slot = Some(node);
        }
        "host" => {
            if value.is_empty() || !value.bytes().all(|b| b.is_ascii_graphic()) {
                return Err(ForwardedError::InvalidHost { at });
            }
            if element.host.is_some() {
                return Err(duplicate());
            }
            element.host = Some(value.into_owned());
        }
        "proto" => {
            let mut bytes = value.bytes();
            let scheme = bytes.next().is_some_and(|b| b.is_ascii_alphabetic())
                && bytes.all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'));
            if !scheme {
                return Err(ForwardedError::InvalidProto { at });
            }
            if element.proto.is_some() {
                return Err(duplicate());
            }
            element.proto = Some(value.to_ascii_lowercase());
        }
        _ => {
            if element.extensions.contains_key(&name) {
                return Err(duplicate());
            }
            element.extensions.insert(name, value.into_owned());
        }
    }
    Ok(())
}
