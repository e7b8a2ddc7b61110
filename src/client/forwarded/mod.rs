//! The `Forwarded` header of RFC 7239: which proxies a request went through and
//! for whom.
//!
//! A value is a comma-separated list of elements, one per hop, each a
//! `;`-separated list of `name=value` pairs: `for` and `by` (nodes), `host`,
//! `proto`, and extension parameters. Parameter names are case-insensitive;
//! values are tokens or quoted strings with `\` escapes. Nodes are IPv4
//! addresses, IPv6 addresses in brackets (inside quotes, since `:` and `[]` are
//! not token characters), `unknown` or obfuscated identifiers (`_hidden`), each
//! with an optional port.
//!
//! The end user's address ([`Forwarded::client_addr`]) is the `for` node of the
//! first element, when it is an IP address. For location screening only a
//! globally routable one counts ([`Forwarded::screening_addr`]; rulings 20 and
//! 29 (docs/RULES.md)).
//!
//! Parsing is bounded: at most [`MAX_HEADER_LEN`] bytes, [`MAX_ELEMENTS`]
//! elements and [`MAX_PARAMS`] pairs per element; past a cap is an error.
//! [`Display`](fmt::Display) writes the canonical form (elements joined by `", "`;
//! pairs in the order `for`, `by`, `host`, `proto`, then extensions by name;
//! quotes only where a value is not a token), and parsing it gives back an
//! equal value.

mod element;
mod error;
mod node;
mod parse;

pub use element::ForwardedElement;
pub use error::{ForwardedError, NoClientAddress, MAX_ELEMENTS, MAX_HEADER_LEN, MAX_PARAMS};
pub use node::{Node, NodeError, NodePort, ObfuscatedId};

use alloc::vec::Vec;
use core::fmt;
use core::net::IpAddr;

use crate::error::{ApiError, ErrorCode};

/// A parsed `Forwarded` header value: one or more elements, first hop first.
///
/// ```
/// use swaproute::client::Forwarded;
///
/// let fwd: Forwarded = "for=192.0.2.43, for=\"[2001:db8:cafe::17]:4711\"".parse()?;
/// assert_eq!(fwd.client_addr(), Some("192.0.2.43".parse()?));
/// assert_eq!(fwd.elements().len(), 2);
/// assert_eq!(fwd.to_string(), "for=192.0.2.43, for=\"[2001:db8:cafe::17]:4711\"");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Forwarded {
    elements: Vec<ForwardedElement>,
}

impl Forwarded {
    /// Parses a `Forwarded` header value.
    ///
    /// # Errors
    /// [`ForwardedError`] when the value is malformed, holds no pair, repeats a
    /// parameter within an element, or exceeds a cap ([`MAX_HEADER_LEN`],
    /// [`MAX_ELEMENTS`], [`MAX_PARAMS`]).
    pub fn parse(text: &str) -> Result<Self, ForwardedError> {
        parse::parse(text).map(|elements| Forwarded { elements })
    }

    /// The elements, first hop (closest to the end user) first. Never empty.
    pub fn elements(&self) -> &[ForwardedElement] {
        &self.elements
    }

    /// The `for` node of the first element: who the first proxy received the
    /// request from. `None` when the first element has no `for` (later elements
    /// describe proxies, not the end user).
    pub fn client(&self) -> Option<&Node> {
        self.elements.first().and_then(ForwardedElement::for_node)
    }

    /// The end user's IP address as the header says it: the first element's
    /// `for` node, when it is an IP address (`unknown` and obfuscated nodes carry
    /// none). It may be an address that locates nobody (`127.0.0.1`); location
    /// screening uses [`Forwarded::screening_addr`].
    pub fn client_addr(&self) -> Option<IpAddr> {
        self.client().and_then(Node::ip)
    }

    /// The address to locate the end user by: the first element's `for` node
    /// when it is a globally routable IP address (rulings 20 and 29
    /// (docs/RULES.md)). An IPv4-mapped IPv6 address is given as its IPv4
    /// address ([`IpAddr::to_canonical`]), the form geolocation databases key on.
    ///
    /// ```
    /// use swaproute::client::{Forwarded, NoClientAddress, NonGlobal};
    ///
    /// let fwd: Forwarded = "for=\"[::ffff:198.51.100.7]:443\"".parse()?;
    /// assert_eq!(fwd.screening_addr(), Ok("198.51.100.7".parse()?));
    ///
    /// let local: Forwarded = "for=127.0.0.1".parse()?;
    /// assert_eq!(local.client_addr(), Some("127.0.0.1".parse()?)); // what the header says
    /// assert_eq!(
    ///     local.screening_addr(),
    ///     Err(NoClientAddress::NotGlobal { addr: "127.0.0.1".parse()?, scope: NonGlobal::Loopback }),
    /// );
    /// let hidden: Forwarded = "for=_hidden".parse()?;
    /// assert!(matches!(hidden.screening_addr(), Err(NoClientAddress::Obfuscated(_))));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`NoClientAddress`] naming why there is none: the first element has no
    /// `for`, or its `for` is `unknown`, obfuscated, or an address that is not
    /// globally routable ([`NonGlobal`](crate::client::NonGlobal)).
    pub fn screening_addr(&self) -> Result<IpAddr, NoClientAddress> {
        match self.client() {
            None => Err(NoClientAddress::NoFor),
            Some(Node::Unknown { .. }) => Err(NoClientAddress::Unknown),
            Some(Node::Obfuscated { id, .. }) => Err(NoClientAddress::Obfuscated(id.clone())),
            Some(Node::Ip { addr, .. }) => match crate::client::NonGlobal::of(*addr) {
                Some(scope) => Err(NoClientAddress::NotGlobal { addr: *addr, scope }),
                None => Ok(addr.to_canonical()),
            },
        }
    }
}

crate::text::parse_traits!(Forwarded, Forwarded::parse, ForwardedError);

impl fmt::Display for Forwarded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, element) in self.elements.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            fmt::Display::fmt(element, f)?;
        }
        Ok(())
    }
}

impl ForwardedError {
    /// The API error a server answers with: 400 `INVALID_REQUEST`, details naming
    /// the `Forwarded` header and the reason.
    pub fn to_api_error(&self) -> ApiError {
        ApiError::new(
            ErrorCode::InvalidRequest,
            alloc::format!("invalid Forwarded header: {self}"),
        )
    }
}

#[cfg(test)]
mod tests;
