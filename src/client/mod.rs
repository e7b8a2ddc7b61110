//! Client identification headers (specification: Authentication; rulings 14, 20
//! and 29 (docs/RULES.md)).
//!
//! A request identifies its integration with `App-Name` (required),
//! `App-Version`, `App-Platform` (`desktop`, `mobile` or `browser`) and
//! `User-Agent`. An integration that proxies its users' requests must send
//! `Forwarded` (RFC 7239) so that location restrictions apply to the end user,
//! whose address is the first `for=` of the first element. For a proxying
//! integration that `for=` must be a globally routable IP address: `unknown`,
//! an obfuscated identifier, no `for=` at all, or an address that locates
//! nobody (`127.0.0.1`, `10.0.0.1`, … see [`NonGlobal`]) is refused like a
//! missing header, so location screening is never skipped. The legacy
//! `Authorization` header is refused.
//!
//! [`ClientHeaders::from_pairs`] takes `(name, value)` pairs (names are
//! case-insensitive) and returns the validated headers or a [`HeaderError`],
//! which converts into the [`ApiError`](crate::error::ApiError) a server answers with.
//! With the `http` feature, `ClientHeaders::from_header_map` takes an
//! `http::HeaderMap`.
//!
//! ```
//! use swaproute::client::{AppPlatform, ClientHeaders, Integration};
//! use swaproute::{ApiError, ErrorCode};
//!
//! let headers = ClientHeaders::from_pairs(
//!     [
//!         ("app-name", "my-wallet"),
//!         ("App-Platform", "mobile"),
//!         ("Forwarded", r#"For="[2001:db8:cafe::17]:4711";proto=https, for=192.0.2.43"#),
//!     ],
//!     Integration::Proxying,
//! )?;
//! assert_eq!(headers.app_name(), "my-wallet");
//! assert_eq!(headers.app_platform(), Some(AppPlatform::Mobile));
//! assert_eq!(headers.screening_addr(), Some("2001:db8:cafe::17".parse()?));
//!
//! // A proxied request must say who the end user is.
//! let err = ClientHeaders::from_pairs(
//!     [("App-Name", "my-wallet"), ("Forwarded", "for=unknown")],
//!     Integration::Proxying,
//! )
//! .unwrap_err();
//! assert_eq!(ApiError::from(err).code(), ErrorCode::InvalidRequest);
//!
//! // A missing App-Name is answered 401 UNAUTHORIZED, "missing authentication".
//! let err = ClientHeaders::from_pairs([("App-Version", "1.2")], Integration::Direct).unwrap_err();
//! let api: ApiError = err.into();
//! assert_eq!(api.code(), ErrorCode::Unauthorized);
//! assert_eq!(api.http_status().as_u16(), 401);
//! assert_eq!(api.details(), "missing authentication");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod collect;
mod error;
pub mod forwarded;
#[cfg(feature = "http")]
mod header_map;
mod headers;
mod platform;
mod scope;

pub use error::{ClientHeader, HeaderError};
pub use forwarded::{
    Forwarded, ForwardedElement, ForwardedError, NoClientAddress, Node, NodeError, NodePort,
    ObfuscatedId, MAX_HEADER_LEN,
};
pub use headers::{ClientHeaders, Integration};
pub use platform::AppPlatform;
pub use scope::NonGlobal;

#[cfg(test)]
mod tests;
