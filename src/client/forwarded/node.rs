//! Nodes of RFC 7239 §6: the values of `for=` and `by=`, and why a text is
//! not one ([`NodeError`]).

use alloc::boxed::Box;
use core::fmt;
use core::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use core::str::FromStr;

/// Why a node (the value of `for=` or `by=`) is not valid RFC 7239 §6 syntax.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum NodeError {
    /// The node is empty.
    #[error("node is empty")]
    Empty,
    /// The node is neither an IP address, `unknown` nor an obfuscated identifier.
    #[error("node is not an IPv4 address, a bracketed IPv6 address, `unknown` or an obfuscated identifier")]
    InvalidName,
    /// The text between `[` and `]` is not an IPv6 address.
    #[error("text in brackets is not an IPv6 address")]
    InvalidIpv6,
    /// An IPv6 address written without the required `[` `]`.
    #[error("an IPv6 address must be written in brackets, e.g. \"[2001:db8::1]\"")]
    Ipv6NeedsBrackets,
    /// A `[` without its closing `]`.
    #[error("`[` without a closing `]`")]
    UnclosedBracket,
    /// An obfuscated identifier is not `_` followed by letters, digits, `.`, `_` or `-`.
    #[error("obfuscated identifier must be `_` followed by letters, digits, `.`, `_` or `-`")]
    InvalidObfuscated,
    /// The port is neither 1 to 5 digits at most 65535 nor an obfuscated port.
    #[error("port must be 1 to 5 digits (at most 65535) or an obfuscated `_port`")]
    InvalidPort,
}

impl NodeError {
    /// The stable code of the problem, e.g. `"INVALID_PORT"`: what a client
    /// or another language matches on (the `Display` text may change).
    pub const fn code(self) -> &'static str {
        match self {
            NodeError::Empty => "EMPTY",
            NodeError::InvalidName => "INVALID_NAME",
            NodeError::InvalidIpv6 => "INVALID_IPV6",
            NodeError::Ipv6NeedsBrackets => "IPV6_NEEDS_BRACKETS",
            NodeError::UnclosedBracket => "UNCLOSED_BRACKET",
            NodeError::InvalidObfuscated => "INVALID_OBFUSCATED",
            NodeError::InvalidPort => "INVALID_PORT",
        }
    }
}

/// An obfuscated identifier (RFC 7239 §6.3): `_` followed by one or more letters,
/// digits, `.`, `_` or `-`, e.g. `_hidden` or `_SEVKISEK`. Case is kept.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ObfuscatedId(Box<str>);

impl ObfuscatedId {
    /// Validates `text`, which includes the leading `_`.
    ///
    /// # Errors
    /// [`NodeError::InvalidObfuscated`] when `text` is not `_` followed by at least
    /// one letter, digit, `.`, `_` or `-`.
    pub fn new(text: &str) -> Result<Self, NodeError> {
        let rest = text.strip_prefix('_').ok_or(NodeError::InvalidObfuscated)?;
        let valid = !rest.is_empty()
            && rest
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'));
        if valid {
            Ok(ObfuscatedId(text.into()))
        } else {
            Err(NodeError::InvalidObfuscated)
        }
    }

    /// The identifier's text, with its leading `_`.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for ObfuscatedId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The port of a node: a number or an obfuscated port such as `_8080`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum NodePort {
    /// A numeric port (RFC 7239 allows 1 to 5 digits; leading zeros are dropped).
    Number(u16),
    /// An obfuscated port.
    Obfuscated(ObfuscatedId),
}

impl NodePort {
    fn parse(text: &str) -> Result<Self, NodeError> {
        if text.starts_with('_') {
            return ObfuscatedId::new(text)
                .map(NodePort::Obfuscated)
                .map_err(|_| NodeError::InvalidPort);
        }
        if text.is_empty() || text.len() > 5 || !text.bytes().all(|b| b.is_ascii_digit()) {
            return Err(NodeError::InvalidPort);
        }
        text.parse::<u16>()
            .map(NodePort::Number)
            .map_err(|_| NodeError::InvalidPort)
    }
}

impl fmt::Display for NodePort {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NodePort::Number(port) => fmt::Display::fmt(port, f),
            NodePort::Obfuscated(id) => fmt::Display::fmt(id, f),
        }
    }
}

/// A node (RFC 7239 §6): who sent or received a forwarded request.
///
/// Every variant may carry a port; only [`Node::Ip`] carries an address.
/// [`Display`](fmt::Display) writes the node text without quotes
/// (`192.0.2.43`, `[2001:db8:cafe::17]:4711`, `unknown`, `_hidden`), and
/// [`FromStr`] parses that text back (`unknown` in any case).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Node {
    /// An IPv4 address or an IPv6 address (written in brackets).
    Ip {
        /// The address.
        addr: IpAddr,
        /// The port, when given.
        port: Option<NodePort>,
    },
    /// `unknown`: the sender does not know or will not tell the address.
    Unknown {
        /// The port, when given.
        port: Option<NodePort>,
    },
    /// An obfuscated identifier such as `_hidden`.
    Obfuscated {
        /// The identifier.
        id: ObfuscatedId,
        /// The port, when given.
        port: Option<NodePort>,
    },
}

impl Node {
    /// The IP address, for [`Node::Ip`] only: `unknown` and obfuscated nodes carry none.
    pub fn ip(&self) -> Option<IpAddr> {
        match self {
            Node::Ip { addr, .. } => Some(*addr),
            Node::Unknown { .. } | Node::Obfuscated { .. } => None,
        }
    }

    /// The port, when given.
    pub fn port(&self) -> Option<&NodePort> {
        match self {
            Node::Ip { port, .. } | Node::Unknown { port } | Node::Obfuscated { port, .. } => {
                port.as_ref()
            }
        }
    }

    /// The node as a socket address, when it has an IP address and a numeric port.
    pub fn socket_addr(&self) -> Option<SocketAddr> {
        match self {
            Node::Ip {
                addr,
                port: Some(NodePort::Number(port)),
            } => Some(SocketAddr::new(*addr, *port)),
            _ => None,
        }
    }

    /// Parses node text without surrounding quotes, e.g. `[2001:db8:cafe::17]:4711`.
    ///
    /// # Errors
    /// [`NodeError`] naming what is wrong; an IPv6 address without brackets gives
    /// [`NodeError::Ipv6NeedsBrackets`].
    pub fn parse(text: &str) -> Result<Self, NodeError> {
        if text.is_empty() {
            return Err(NodeError::Empty);
        }
        if let Some(rest) = text.strip_prefix('[') {
            let (inside, after) = rest.split_once(']').ok_or(NodeError::UnclosedBracket)?;
            let addr = inside
                .parse::<Ipv6Addr>()
                .map_err(|_| NodeError::InvalidIpv6)?;
            let port = match after {
                "" => None,
                _ => Some(NodePort::parse(
                    after.strip_prefix(':').ok_or(NodeError::InvalidPort)?,
                )?),
            };
            return Ok(Node::Ip {
                addr: IpAddr::V6(addr),
                port,
            });
        }
        if text.parse::<Ipv6Addr>().is_ok() {
            return Err(NodeError::Ipv6NeedsBrackets);
        }
        let (name, port) = match text.split_once(':') {
            Some((name, port)) => (name, Some(NodePort::parse(port)?)),
            None => (text, None),
        };
        if name.eq_ignore_ascii_case("unknown") {
            Ok(Node::Unknown { port })
        } else if name.starts_with('_') {
            Ok(Node::Obfuscated {
                id: ObfuscatedId::new(name)?,
                port,
            })
        } else if let Ok(addr) = name.parse::<Ipv4Addr>() {
            Ok(Node::Ip {
                addr: IpAddr::V4(addr),
                port,
            })
        } else {
            Err(NodeError::InvalidName)
        }
    }
}

impl From<IpAddr> for Node {
    fn from(addr: IpAddr) -> Self {
        Node::Ip { addr, port: None }
    }
}

impl From<SocketAddr> for Node {
    fn from(addr: SocketAddr) -> Self {
        Node::Ip {
            addr: addr.ip(),
            port: Some(NodePort::Number(addr.port())),
        }
    }
}

impl FromStr for Node {
    type Err = NodeError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Node::parse(s)
    }
}

impl fmt::Display for Node {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Node::Ip {
                addr: IpAddr::V4(addr),
                ..
            } => write!(f, "{addr}")?,
            Node::Ip {
                addr: IpAddr::V6(addr),
                ..
            } => write!(f, "[{addr}]")?,
            Node::Unknown { .. } => f.write_str("unknown")?,
            Node::Obfuscated { id, .. } => f.write_str(id.as_str())?,
        }
        match self.port() {
            Some(port) => write!(f, ":{port}"),
            None => Ok(()),
        }
    }
}
