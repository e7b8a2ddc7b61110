//! The `App-Platform` header's closed set of values.

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
}

crate::text::str_enum!(
    AppPlatform,
    parse: Platform, "App-Platform must be `desktop`, `mobile` or `browser`",
    /// The header text: `"desktop"`, `"mobile"` or `"browser"`.
    {
        Desktop => "desktop",
        Mobile => "mobile",
        Browser => "browser",
    }
);
