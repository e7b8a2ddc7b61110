//! The validated client headers of one request.

use alloc::string::{String, ToString};
use core::net::IpAddr;

use super::collect::{Checked, Collected};
use super::error::{ClientHeader, HeaderError};
use super::forwarded::Forwarded;
use super::platform::AppPlatform;

/// Whether the integration sends requests on behalf of its end users.
///
/// A proxying integration must send `Forwarded` so that location restrictions
/// are evaluated for the end user (specification, Authentication rule 2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Integration {
    /// The end user's device calls the service itself.
    #[default]
    Direct,
    /// A server relays its users' requests; `Forwarded` is required.
    Proxying,
}

/// The validated client identification headers of one request.
///
/// Built by [`ClientHeaders::from_pairs`] (or `from_header_map` with the `http`
/// feature). Values are trimmed of surrounding spaces and tabs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClientHeaders {
    pub(super) app_name: String,
    pub(super) app_version: Option<String>,
    pub(super) app_platform: Option<AppPlatform>,
    pub(super) app_platform_text: Option<String>,
    pub(super) user_agent: Option<String>,
    pub(super) forwarded: Option<Forwarded>,
}

impl ClientHeaders {
    /// The headers `collected` holds, checked (`Collected::finish`).
    pub(super) fn from_collected(
        collected: Collected<'_>,
        integration: Integration,
    ) -> Result<Self, HeaderError> {
        let Checked {
            app_name,
            app_version,
            app_platform,
            app_platform_text,
            user_agent,
            forwarded,
        } = collected.finish(integration == Integration::Proxying)?;
        Ok(ClientHeaders {
            app_name,
            app_version,
            app_platform,
            app_platform_text,
            user_agent,
            forwarded,
        })
    }

    /// Validates a request's headers given as `(name, value)` pairs. Names are
    /// case-insensitive; headers other than the client headers are ignored.
    ///
    /// Rules:
    /// - `App-Name` is required and must show something: a value made only of
    ///   spaces or invisible characters (NBSP, zero-width space, other format
    ///   or control characters) counts as missing (ruling 28 (docs/RULES.md)).
    /// - `App-Version`, `App-Platform` and `User-Agent` are optional; an optional
    ///   header whose value is empty counts as absent. `App-Platform` is exactly
    ///   `desktop`, `mobile` or `browser`.
    /// - Any `Authorization` header is refused: the legacy scheme is gone.
    /// - `Forwarded` must parse per RFC 7239 ([`Forwarded::parse`]); it is
    ///   required when `integration` is [`Integration::Proxying`], and then its
    ///   first `for` must be a globally routable IP address
    ///   ([`ClientHeaders::screening_addr`]).
    /// - Every value is at most [`MAX_HEADER_LEN`](super::MAX_HEADER_LEN) bytes
    ///   without control characters (HTAB allowed).
    ///
    /// Duplicates: a single-valued header repeated with the same value counts
    /// once; with different values it is refused. Repeated `Forwarded` fields are
    /// one list, joined in order by `", "` (RFC 9110 §5.3); the cap applies to the
    /// joined value.
    ///
    /// # Errors
    /// The first failure in this order (so the outcome does not depend on the
    /// order of the pairs):
    /// 1. [`HeaderError::LegacyAuthorization`] (401 `UNAUTHORIZED`);
    /// 2. [`HeaderError::MissingAppName`] (401 `UNAUTHORIZED`, details
    ///    `"missing authentication"`), also for a blank `App-Name`;
    /// 3. malformed headers, checked in the order `App-Name`, `App-Version`,
    ///    `App-Platform`, `User-Agent`, `Forwarded` (400 `INVALID_REQUEST`);
    /// 4. for a proxying integration, [`HeaderError::MissingForwarded`], then
    ///    [`HeaderError::NoClientAddress`] when the first `for` of `Forwarded` is
    ///    absent, `unknown`, obfuscated or not globally routable (both 400
    ///    `INVALID_REQUEST`; rulings 20 and 29 (docs/RULES.md)).
    pub fn from_pairs<'a, I>(headers: I, integration: Integration) -> Result<Self, HeaderError>
    where
        I: IntoIterator<Item = (&'a str, &'a str)>,
    {
        let mut collected = Collected::default();
        for (name, value) in headers {
            collected.add(name, Some(value));
        }
        Self::from_collected(collected, integration)
    }

    /// `App-Name`: the integrating application.
    pub fn app_name(&self) -> &str {
        &self.app_name
    }

    /// `App-Version`, when sent.
    pub fn app_version(&self) -> Option<&str> {
        self.app_version.as_deref()
    }

    /// `App-Platform`, when sent and one of `desktop`, `mobile`, `browser`
    /// in any letter case (ruling 52: `Mobile` is mobile). Any other value is
    /// kept as text ([`app_platform_text`](Self::app_platform_text)) and
    /// refuses nothing: the header is informational.
    ///
    /// ```
    /// use swaproute::client::{AppPlatform, ClientHeaders, Integration};
    /// let headers = ClientHeaders::from_pairs(
    ///     [("App-Name", "my-wallet"), ("App-Platform", "Mobile")],
    ///     Integration::Direct,
    /// )?;
    /// assert_eq!(headers.app_platform(), Some(AppPlatform::Mobile));
    /// let tv = ClientHeaders::from_pairs([("App-Name", "x"), ("App-Platform", "tv")], Integration::Direct)?;
    /// assert_eq!((tv.app_platform(), tv.app_platform_text()), (None, Some("tv")));
    /// # Ok::<(), swaproute::client::HeaderError>(())
    /// ```
    pub fn app_platform(&self) -> Option<AppPlatform> {
        self.app_platform
    }

    /// `App-Platform` as sent (trimmed), whatever its value.
    pub fn app_platform_text(&self) -> Option<&str> {
        self.app_platform_text.as_deref()
    }

    /// `User-Agent`, when sent.
    pub fn user_agent(&self) -> Option<&str> {
        self.user_agent.as_deref()
    }

    /// `Forwarded`, when sent (always present for a proxying integration).
    pub fn forwarded(&self) -> Option<&Forwarded> {
        self.forwarded.as_ref()
    }

    /// The end user's address for location screening: the first `for` of
    /// `Forwarded` when it is a globally routable IP address
    /// ([`Forwarded::screening_addr`]; rulings 20 and 29 (docs/RULES.md)).
    ///
    /// Always `Some` for a proxying integration (otherwise
    /// [`ClientHeaders::from_pairs`] refuses the headers). `None` without
    /// `Forwarded`, or when its first `for` is absent, `unknown`, obfuscated or
    /// not globally routable. What the header literally says stays available
    /// through [`ClientHeaders::forwarded`].
    ///
    /// For a direct integration the end user's address is the connection's
    /// peer, which this pure library does not see; a `Forwarded` sent by a
    /// direct client is that client's own claim.
    pub fn screening_addr(&self) -> Option<IpAddr> {
        self.forwarded
            .as_ref()
            .and_then(|forwarded| forwarded.screening_addr().ok())
    }

    /// The headers to send, as `(name, value)` pairs: `App-Name`, then
    /// `App-Version`, `App-Platform`, `User-Agent` and `Forwarded` when
    /// present, with the canonical names of the specification. Reading the
    /// pairs back with [`ClientHeaders::from_pairs`] (and the same
    /// [`Integration`]) gives these headers again. No `Authorization`
    /// header is ever produced (ruling 14 (docs/RULES.md)).
    ///
    /// ```
    /// use swaproute::client::{ClientHeaders, Integration};
    ///
    /// let headers = ClientHeaders::from_pairs(
    ///     [("App-Name", "my-wallet"), ("App-Version", "4.2.0"), ("App-Platform", "mobile")],
    ///     Integration::Direct,
    /// )?;
    /// let pairs: Vec<(&str, String)> = headers.to_pairs().collect();
    /// assert_eq!(pairs, [
    ///     ("App-Name", "my-wallet".to_owned()),
    ///     ("App-Version", "4.2.0".to_owned()),
    ///     ("App-Platform", "mobile".to_owned()),
    /// ]);
    /// let again = ClientHeaders::from_pairs(
    ///     pairs.iter().map(|(name, value)| (*name, value.as_str())),
    ///     Integration::Direct,
    /// )?;
    /// assert_eq!(again, headers);
    /// # Ok::<(), swaproute::client::HeaderError>(())
    /// ```
    pub fn to_pairs(&self) -> impl Iterator<Item = (&'static str, String)> + '_ {
        let optional = [
            (ClientHeader::AppVersion, self.app_version.clone()),
            (ClientHeader::AppPlatform, self.app_platform_text.clone()),
            (ClientHeader::UserAgent, self.user_agent.clone()),
            (
                ClientHeader::Forwarded,
                self.forwarded.as_ref().map(ToString::to_string),
            ),
        ];
        core::iter::once((ClientHeader::AppName.as_str(), self.app_name.clone())).chain(
            optional
                .into_iter()
                .filter_map(|(header, value)| value.map(|value| (header.as_str(), value))),
        )
    }
}
