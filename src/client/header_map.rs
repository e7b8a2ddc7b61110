//! `http::HeaderMap` input and output (feature `http`).

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
        ClientHeaders::from_collected(collected, integration)
    }

    /// The headers to send as an [`http::HeaderMap`]: the pairs of
    /// [`ClientHeaders::to_pairs`]. Every validated value is a valid header
    /// value (no control character but HTAB; non-ASCII text is kept as its
    /// UTF-8 bytes), so no header is lost.
    ///
    /// ```
    /// use swaproute::client::{ClientHeaders, Integration};
    ///
    /// let headers = ClientHeaders::from_pairs(
    ///     [("App-Name", "my-wallet"), ("User-Agent", "my-wallet/4.2.0")],
    ///     Integration::Direct,
    /// )?;
    /// let map = headers.to_header_map();
    /// assert_eq!(map["app-name"], "my-wallet");
    /// assert_eq!(map[http::header::USER_AGENT], "my-wallet/4.2.0");
    /// assert_eq!(ClientHeaders::from_header_map(&map, Integration::Direct)?, headers);
    /// # Ok::<(), swaproute::client::HeaderError>(())
    /// ```
    pub fn to_header_map(&self) -> http::HeaderMap {
        let mut map = http::HeaderMap::new();
        for (name, value) in self.to_pairs() {
            let name = http::HeaderName::from_bytes(name.as_bytes());
            let value = http::HeaderValue::from_bytes(value.as_bytes());
            // Both always succeed: the names are the spec's tokens and the
            // values were validated (see above).
            if let (Ok(name), Ok(value)) = (name, value) {
                map.insert(name, value);
            }
        }
        map
    }
}
