//! Time as a parameter: milliseconds since the Unix epoch.

use core::fmt;

use serde::{Deserialize, Serialize};

/// An instant in milliseconds since the Unix epoch, as the service writes
/// `expiry`. The crate never reads a clock: callers pass `now` in.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct EpochMillis(u64);

impl EpochMillis {
    /// The instant `millis` milliseconds after the epoch.
    pub const fn new(millis: u64) -> Self {
        EpochMillis(millis)
    }

    /// Milliseconds since the epoch.
    pub const fn as_millis(self) -> u64 {
        self.0
    }

    /// `self + millis`, saturating at the far future.
    #[must_use]
    pub const fn saturating_add(self, millis: u64) -> Self {
        EpochMillis(self.0.saturating_add(millis))
    }

    /// `self − millis`, saturating at the epoch.
    #[must_use]
    pub const fn saturating_sub(self, millis: u64) -> Self {
        EpochMillis(self.0.saturating_sub(millis))
    }

    /// Milliseconds from `earlier` to `self`, or `None` when `earlier` is later.
    pub const fn millis_since(self, earlier: EpochMillis) -> Option<u64> {
        self.0.checked_sub(earlier.0)
    }
}

impl From<u64> for EpochMillis {
    fn from(millis: u64) -> Self {
        EpochMillis(millis)
    }
}

impl fmt::Display for EpochMillis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}ms", self.0)
    }
}
