//! Rates, their limits, sponsored variants and campaigns.

mod asset_amount;
mod campaign;
mod features;
mod lenient;
mod list;
mod pair;
pub(crate) mod prepared;
mod record;
mod response;

pub use asset_amount::{as_number, as_string, AssetAmount};
pub use campaign::CampaignLimits;
pub(crate) use campaign::NO_CAMPAIGNS;
pub use features::{Feature, Features};
pub use lenient::UnheldValue;
pub use list::{InvalidRates, MixedPairs, RateList, MAX_RATES};
pub use pair::{InvalidPairId, PairId};
pub use record::{Rate, RateDefect, RateField, RateTerms};
pub use response::RatesResponse;
