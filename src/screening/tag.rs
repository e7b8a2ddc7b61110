//! Assets whose deposits need a tag or memo, and the missing-tag warning.

use alloc::collections::BTreeSet;
use core::fmt;

use crate::ids::AssetId;

/// Assets whose addresses are commonly shared accounts told apart by a tag or
/// memo (exchange deposit addresses): a deposit without the tag can be lost.
///
/// `ATOM` (Cosmos memo), `EOS` (memo), `XRP` (destination tag), `XLM` (memo)
/// and `HBAR` (memo). Callers add more with
/// [`ScreeningPolicy::require_tag`](super::ScreeningPolicy::require_tag).
pub const DEFAULT_TAG_ASSETS: [&str; 5] = ["ATOM", "EOS", "XRP", "XLM", "HBAR"];

/// The default set, as asset ids.
pub(crate) fn default_tag_assets() -> BTreeSet<AssetId> {
    DEFAULT_TAG_ASSETS
        .iter()
        .filter_map(|text| AssetId::new(text).ok())
        .collect()
}

/// Which tag of a request a [`TagWarning`] concerns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TagField {
    /// `fromAddressTag`: the sender's tag, used for refunds.
    FromAddressTag,
    /// `toAddressTag`: the receiver's tag, used for the payout.
    ToAddressTag,
}

crate::text::str_enum!(
    TagField,
    /// The request field name, `"fromAddressTag"` or `"toAddressTag"`.
    {
        FromAddressTag => "fromAddressTag",
        ToAddressTag => "toAddressTag",
    }
);

/// A warning, not an error: the asset usually needs a tag or memo and the
/// request carries none. The request stays valid.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TagWarning {
    /// The tag field that is missing.
    pub field: TagField,
    /// The asset that usually needs it.
    pub asset: AssetId,
}

impl fmt::Display for TagWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} is missing; {} deposits usually need a tag or memo",
            self.field, self.asset
        )
    }
}
