//! One element (hop) of a `Forwarded` value, and how its values are written
//! back (a token, else a quoted string).

use alloc::collections::BTreeMap;
use alloc::string::{String, ToString};
use core::fmt;

use super::Node;

/// `tchar` of RFC 9110 §5.6.2.
pub(super) fn is_tchar(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

/// One element (hop) of a `Forwarded` value; holds at least one pair.
///
/// Parameter names are lower-cased; `proto` is lower-cased too (URI schemes are
/// case-insensitive). Other values are kept as sent, unescaped.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ForwardedElement {
    pub(super) for_node: Option<Node>,
    pub(super) by: Option<Node>,
    pub(super) host: Option<String>,
    pub(super) proto: Option<String>,
    pub(super) extensions: BTreeMap<String, String>,
}

impl ForwardedElement {
    /// `for`: the client that made the request to this proxy.
    pub fn for_node(&self) -> Option<&Node> {
        self.for_node.as_ref()
    }

    /// `by`: the proxy's interface that received the request.
    pub fn by(&self) -> Option<&Node> {
        self.by.as_ref()
    }

    /// `host`: the `Host` header the proxy received.
    pub fn host(&self) -> Option<&str> {
        self.host.as_deref()
    }

    /// `proto`: the scheme the proxy received the request with, lower-cased.
    pub fn proto(&self) -> Option<&str> {
        self.proto.as_deref()
    }

    /// An extension parameter's value; `name` is matched case-insensitively.
    pub fn extension(&self, name: &str) -> Option<&str> {
        self.extensions
            .iter()
            .find(|(key, _)| key.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.as_str())
    }

    /// Every extension parameter as `(lower-cased name, value)`, by name.
    pub fn extensions(&self) -> impl Iterator<Item = (&str, &str)> {
        self.extensions
            .iter()
            .map(|(name, value)| (name.as_str(), value.as_str()))
    }

    /// An element without pairs; only the parser makes one, and keeps it only
    /// once a pair is added.
    pub(super) fn empty() -> Self {
        ForwardedElement {
            for_node: None,
            by: None,
            host: None,
            proto: None,
            extensions: BTreeMap::new(),
        }
    }

    pub(super) fn is_empty(&self) -> bool {
        self.for_node.is_none()
            && self.by.is_none()
            && self.host.is_none()
            && self.proto.is_none()
            && self.extensions.is_empty()
    }
}

impl fmt::Display for ForwardedElement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut sep = "";
        let mut pair = |f: &mut fmt::Formatter<'_>, name: &str, value: &str| {
            f.write_str(sep)?;
            sep = ";";
            f.write_str(name)?;
            f.write_str("=")?;
            write_value(f, value)
        };
        if let Some(node) = &self.for_node {
            pair(f, "for", &node.to_string())?;
        }
        if let Some(node) = &self.by {
            pair(f, "by", &node.to_string())?;
        }
        if let Some(host) = &self.host {
            pair(f, "host", host)?;
        }
        if let Some(proto) = &self.proto {
            pair(f, "proto", proto)?;
        }
        for (name, value) in &self.extensions {
            pair(f, name, value)?;
        }
        Ok(())
    }
}

/// Writes `value` as a token when it is one, else as a quoted string.
fn write_value(f: &mut fmt::Formatter<'_>, value: &str) -> fmt::Result {
    if !value.is_empty() && value.bytes().all(is_tchar) {
        return f.write_str(value);
    }
    f.write_str("\"")?;
    for ch in value.chars() {
        if matches!(ch, '"' | '\\') {
            f.write_str("\\")?;
        }
        fmt::Write::write_char(f, ch)?;
    }
    f.write_str("\"")
}
