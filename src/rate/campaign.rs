//! Fee-sponsorship campaigns and their per-swap limits.

use alloc::vec::Vec;

use rust_decimal::Decimal;

use crate::decimal::Amount;
use crate::ids::CampaignId;

/// The caller's knowledge of campaigns: each campaign's per-swap limit (from-asset
/// unit). A sponsored variant's effective max is `min(max, limit)`; a campaign
/// not listed here leaves `max` as it is (ruling 3 in docs/RULES.md).
///
/// ```
/// use swaproute::{CampaignId, CampaignLimits, decimal::Amount};
/// let mut limits = CampaignLimits::new();
/// limits.insert(CampaignId::new("spring").unwrap(), Amount::parse("0.05").unwrap());
/// assert_eq!(limits.limit(&CampaignId::new("spring").unwrap()).unwrap().to_string(), "0.05");
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CampaignLimits {
    // Sorted by id: lookups are binary searches, and there are few campaigns.
    entries: Vec<(CampaignId, Amount)>,
}

/// No campaigns: the default for requests that name none.
pub(crate) static NO_CAMPAIGNS: CampaignLimits = CampaignLimits::new();

impl CampaignLimits {
    /// No campaigns known.
    pub const fn new() -> Self {
        CampaignLimits {
            entries: Vec::new(),
        }
    }

    /// Sets `campaign`'s per-swap limit, replacing any earlier one; returns the earlier one.
    pub fn insert(&mut self, campaign: CampaignId, limit: Amount) -> Option<Amount> {
        match self.entries.binary_search_by(|(id, _)| id.cmp(&campaign)) {
            Ok(at) => self
                .entries
                .get_mut(at)
                .map(|slot| core::mem::replace(&mut slot.1, limit)),
            Err(at) => {
                self.entries.insert(at, (campaign, limit));
                None
            }
        }
    }

    /// The per-swap limit of `campaign`, if known.
    pub fn limit(&self, campaign: &CampaignId) -> Option<Decimal> {
        self.entries
            .binary_search_by(|(id, _)| id.cmp(campaign))
            .ok()
            .and_then(|at| self.entries.get(at))
            .map(|(_, limit)| limit.get())
    }

    /// Number of campaigns known.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// `true` when no campaign is known.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The campaigns and their limits, by id.
    pub fn iter(&self) -> impl Iterator<Item = (&CampaignId, Amount)> + '_ {
        self.entries.iter().map(|(id, limit)| (id, *limit))
    }
}

impl FromIterator<(CampaignId, Amount)> for CampaignLimits {
    fn from_iter<I: IntoIterator<Item = (CampaignId, Amount)>>(iter: I) -> Self {
        let mut limits = CampaignLimits::new();
        for (id, limit) in iter {
            limits.insert(id, limit);
        }
        limits
    }
}
