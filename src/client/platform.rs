//! The `App-Platform` header's closed set of values.

use core::fmt;
use core::str::FromStr;

/// The client platform named by `App-Platform`: `desktop`, `mobile` or `browser`.
///
/// Values are matched exactly (lower case), as the specification writes them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AppPlatform {
    /// `desktop`
    Desktop,
    /// `mobile`
    Mobile,
    /// `browser`
    Browser,
}

impl AppPlatform {
    /// Every platform, in specification order.
    pub const ALL: [AppPlatform; 3] = [
        AppPlatform::Desktop,
        AppPlatform::Mobile,
        AppPlatform::Browser,
    ];

    /// The header text: `"desktop"`, `"mobile"` or `"browser"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            AppPlatform::Desktop => "desktop",
            AppPlatform::Mobile => "mobile",
            AppPlatform::Browser => "browser",
        }
    }
}

/// The text is not `desktop`, `mobile` or `browser`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("App-Platform must be `desktop`, `mobile` or `browser`")]
pub struct InvalidPlatform;

impl FromStr for AppPlatform {
    type Err = InvalidPlatform;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        AppPlatform::ALL
            .into_iter()
            .find(|p| p.as_str() == s)
            .ok_or(InvalidPlatform)
    }
}

impl fmt::Display for AppPlatform {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
