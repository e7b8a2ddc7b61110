//! Gathering the client headers of one request before validating them, so the
//! outcome does not depend on header order and the work stays bounded.

use alloc::string::String;
use alloc::vec::Vec;

use super::error::{ClientHeader, HeaderError};
use super::forwarded::{Forwarded, ForwardedError, MAX_HEADER_LEN};
use super::platform::AppPlatform;
use crate::text;

/// A header value as received: `None` when it is not UTF-8.
pub(super) type RawValue<'a> = Option<&'a str>;

/// HTTP optional whitespace around a field value.
fn trim_ows(value: &str) -> &str {
    value.trim_matches(|c| c == ' ' || c == '\t')
}

/// A single-valued header: its first value and whether a later one differed.
#[derive(Default)]
struct Slot<'a> {
    value: Option<RawValue<'a>>,
    conflict: bool,
}

impl<'a> Slot<'a> {
    fn add(&mut self, value: RawValue<'a>) {
        let value = value.map(trim_ows);
        match self.value {
            None => self.value = Some(value),
            Some(first) if first != value => self.conflict = true,
            Some(_) => {}
        }
    }

    /// `true` when the header is absent, or every value sent shows nothing
    /// ([`text::is_blank`]: only spaces and invisible characters); a value that
    /// is not UTF-8 is not blank. Conflicting values are left to [`Slot::check`].
    fn is_blank(&self) -> bool {
        match self.value {
            None => true,
            Some(Some(value)) => !self.conflict && text::is_blank(value),
            Some(None) => false,
        }
    }

    /// The validated, trimmed value; `None` when absent or empty.
    fn check(&self, header: ClientHeader) -> Result<Option<&'a str>, HeaderError> {
        if self.conflict {
            return Err(HeaderError::ConflictingValues { header });
        }
        let Some(value) = self.value else {
            return Ok(None);
        };
        let value = value.ok_or(HeaderError::NotUtf8 { header })?;
        if value.len() > MAX_HEADER_LEN {
            return Err(HeaderError::TooLong {
                header,
                len: value.len(),
            });
        }
        if let Some((at, _)) = value
            .char_indices()
            .find(|&(_, c)| c.is_control() && c != '\t')
        {
            return Err(HeaderError::ControlCharacter { header, at });
        }
        Ok(Some(value).filter(|v| !v.is_empty()))
    }
}

/// The checked client headers of one request: the fields of a
/// [`ClientHeaders`](super::ClientHeaders), which `headers.rs` builds from them.
pub(super) struct Checked {
    pub(super) app_name: String,
    pub(super) app_version: Option<String>,
    pub(super) app_platform: Option<AppPlatform>,
    pub(super) app_platform_text: Option<String>,
    pub(super) user_agent: Option<String>,
    pub(super) forwarded: Option<Forwarded>,
}

/// Every client header of one request, as received.
#[derive(Default)]
pub(super) struct Collected<'a> {
    authorization: bool,
    app_name: Slot<'a>,
    app_version: Slot<'a>,
    app_platform: Slot<'a>,
    user_agent: Slot<'a>,
    /// Non-empty `Forwarded` fields, in order, while their combined length fits.
    forwarded: Vec<&'a str>,
    /// Combined length of the `Forwarded` fields joined by `", "` (saturating).
    forwarded_len: usize,
    forwarded_not_utf8: bool,
}

impl<'a> Collected<'a> {
    /// Records one header field; `name` is matched case-insensitively and
    /// headers this module does not read are ignored.
    pub(super) fn add(&mut self, name: &str, value: RawValue<'a>) {
        let Some(header) = ClientHeader::from_name(name) else {
            return;
        };
        match header {
            ClientHeader::Authorization => self.authorization = true,
            ClientHeader::AppName => self.app_name.add(value),
            ClientHeader::AppVersion => self.app_version.add(value),
            ClientHeader::AppPlatform => self.app_platform.add(value),
            ClientHeader::UserAgent => self.user_agent.add(value),
            ClientHeader::Forwarded => self.add_forwarded(value),
        }
    }

    fn add_forwarded(&mut self, value: RawValue<'a>) {
        let Some(value) = value.map(trim_ows) else {
            self.forwarded_not_utf8 = true;
            return;
        };
        if value.is_empty() {
            return;
        }
        let sep = if self.forwarded_len == 0 { 0 } else { 2 };
        self.forwarded_len = self
            .forwarded_len
            .saturating_add(sep)
            .saturating_add(value.len());
        if self.forwarded_len <= MAX_HEADER_LEN {
            self.forwarded.push(value);
        }
    }

    /// Validates in a fixed order: `Authorization`, `App-Name` (missing, then
    /// malformed), `App-Version`, `App-Platform`, `User-Agent`, `Forwarded`, and
    /// last the integration's requirement of `Forwarded` and of an end-user
    /// address in it (`proxying`: the integration is
    /// [`Integration::Proxying`](super::Integration::Proxying)).
    pub(super) fn finish(self, proxying: bool) -> Result<Checked, HeaderError> {
        if self.authorization {
            return Err(HeaderError::LegacyAuthorization);
        }
        // Ruling 28 (docs/RULES.md): an App-Name that shows nothing (spaces,
        // NBSP, zero-width or other invisible characters) is missing.
        if self.app_name.is_blank() {
            return Err(HeaderError::MissingAppName);
        }
        let app_name = self
            .app_name
            .check(ClientHeader::AppName)?
            .ok_or(HeaderError::MissingAppName)?;
        let app_version = self.app_version.check(ClientHeader::AppVersion)?;
        // Ruling 52 (docs/RULES.md): the header is informational. A known
        // value is matched case-insensitively; any other is kept as text
        // and never refuses the request.
        let app_platform_text = self.app_platform.check(ClientHeader::AppPlatform)?;
        let app_platform = app_platform_text.and_then(|text| {
            AppPlatform::ALL
                .into_iter()
                .find(|p| p.as_str().eq_ignore_ascii_case(text))
        });
        let user_agent = self.user_agent.check(ClientHeader::UserAgent)?;
        let forwarded = self.forwarded()?;
        if proxying {
            // Rulings 20 and 29 (docs/RULES.md): a Forwarded that locates nobody is
            // refused like a missing one, so location screening never goes unrun.
            let forwarded = forwarded.as_ref().ok_or(HeaderError::MissingForwarded)?;
            forwarded
                .screening_addr()
                .map_err(HeaderError::NoClientAddress)?;
        }
        Ok(Checked {
            app_name: app_name.into(),
            app_version: app_version.map(String::from),
            app_platform,
            app_platform_text: app_platform_text.map(String::from),
            user_agent: user_agent.map(String::from),
            forwarded,
        })
    }

    /// The `Forwarded` fields combined into one list (RFC 9110 §5.3) and parsed.
    fn forwarded(&self) -> Result<Option<Forwarded>, HeaderError> {
        if self.forwarded_not_utf8 {
            return Err(HeaderError::NotUtf8 {
                header: ClientHeader::Forwarded,
            });
        }
        if self.forwarded_len > MAX_HEADER_LEN {
            return Err(ForwardedError::TooLong {
                len: self.forwarded_len,
            }
            .into());
        }
        if self.forwarded.is_empty() {
            return Ok(None);
        }
        Ok(Some(Forwarded::parse(&self.forwarded.join(", "))?))
    }
}
