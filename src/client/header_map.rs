//! `http::HeaderMap` input (feature `http`).

use super::collect::Collected;
use super::error::HeaderError;
use super::headers::{ClientHeaders, Integration};

impl ClientHeaders {
    /// Validates the client headers of an [`http::HeaderMap`], with the same rules
    /// as [`ClientHeaders::from_pairs`]. Every value of a repeated name is seen.
    ///
    /// ```
    /// use http::{HeaderMap, HeaderValue};
    /// use swaproute::client::{ClientHeaders, Integration};
    ///
    /// let mut map = HeaderMap::new();
    /// map.insert("app-name", HeaderValue::from_static("my-wallet"));
    /// let headers = ClientHeaders::from_header_map(&map, Integration::Direct)?;
    /// assert_eq!(headers.app_name(), "my-wallet");
    /// # Ok::<(), swaproute::client::HeaderError>(())
    /// ```
    ///
    /// # Errors
    /// As [`ClientHeaders::from_pairs`], plus [`HeaderError::NotUtf8`] when the
    /// value of a client header is not UTF-8 (in the same priority as other
    /// malformed values).
    pub fn from_header_map(
        headers: &http::HeaderMap,
        integration: Integration,
    ) -> Result<Self, HeaderError> {
        let mut collected = Collected::default();
        for (name, value) in headers {
            collected.add(name.as_str(), core::str::from_utf8(value.as_bytes()).ok());
        }
        collected.finish(integration)
    }
}
