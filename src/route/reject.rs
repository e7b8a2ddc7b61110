//! Why a rate is out.

use core::fmt;

use rust_decimal::Decimal;
use serde::ser::SerializeStruct;
use serde::{Serialize, Serializer};

use super::PriceReference;
use crate::rate::{Rate, RateDefect};
use crate::time::EpochMillis;

/// Why a rate was excluded, with the numbers involved (ruling 5 in
/// docs/RULES.md, with rulings 18, 23, 30 and 38's floors).
///
/// Eligibility is checked in the order of the variants; the first failure is
/// the one reported.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RejectReason {
    /// `INVALID_RATE`: the rate breaks ruling 2 (its numbers) or ruling 18 (an
    /// asset that is not its pair's); the defect says which.
    InvalidRate(RateDefect),
    /// `EXPIRED`: `expiry <= now`.
    Expired {
        /// The rate's expiry.
        expiry: EpochMillis,
    },
    /// `EXACT_OUT_UNSUPPORTED`: ExactOut through a provider without the capability.
    ExactOutUnsupported,
    /// `SPONSORED_IN_EXACT_OUT`: ExactOut orders are excluded from sponsorship campaigns.
    SponsoredInExactOut,
    /// `CAMPAIGN_LIMIT_BELOW_MIN`: a sponsored variant whose campaign's
    /// per-swap limit is below the rate's `min` can serve no amount at all
    /// (ruling 30). It takes no part in the nearest-limit answer of "no route".
    CampaignLimitBelowMin {
        /// The rate's lower limit.
        min: Decimal,
        /// The campaign's per-swap limit.
        limit: Decimal,
    },
    /// `BELOW_MIN`: `fromAmount < min`.
    BelowMin {
        /// The rate's lower limit.
        min: Decimal,
    },
    /// `ABOVE_MAX`: `fromAmount > effective max`.
    AboveMax {
        /// The effective upper limit: the campaign's per-swap limit when it caps `max`.
        max: Decimal,
        /// `true` when a campaign limit lowered the provider's `max`.
        capped_by_campaign: bool,
    },
    /// `OVERFLOW`: computing the output (or the required input) exceeds `Decimal`'s range.
    Overflow,
    /// `NO_OUTPUT`: `fromAmount × multiplier − minerFee <= 0`.
    NoOutput {
        /// The non-positive net output.
        net_output: Decimal,
    },
    /// `BELOW_DUST`: under the caller's dust floor (ruling 38) only: the
    /// net output is below it.
    BelowDust {
        /// The route's net output.
        net_output: Decimal,
        /// The dust floor (to asset).
        dust: Decimal,
    },
    /// `FEE_TOO_LARGE`: under the caller's fee-multiple floor (ruling 38)
    /// only: `net output < k × minerFee`.
    FeeTooLarge {
        /// The route's net output.
        net_output: Decimal,
        /// The rate's miner fee.
        miner_fee: Decimal,
        /// The caller's `k`.
        fee_multiple: Decimal,
    },
    /// `FEE_SHARE_TOO_LARGE`: under the caller's fee-share floor (ruling 38)
    /// only: `minerFee × 10000 > bps × amount × multiplier`.
    FeeShareTooLarge {
        /// The rate's miner fee.
        miner_fee: Decimal,
        /// `amount × multiplier`, the output before the fee.
        gross_output: Decimal,
        /// The caller's largest share, in basis points.
        max_bps: u32,
    },
    /// `PRICE_OUTLIER`: under the caller's price guard (ruling 40) only: the
    /// multiplier deviates from the reference by more than the bound,
    /// `|multiplier − reference| × 10000 > max_bps × reference`.
    PriceOutlier {
        /// The rate's multiplier.
        multiplier: Decimal,
        /// The reference: the caller's, or the median of the response's
        /// valid, unexpired rates.
        reference: PriceReference,
        /// The deviation in basis points, rounded up to 2 places; `None`
        /// when it is past `Decimal`'s range.
        deviation_bps: Option<Decimal>,
        /// The guard's bound, in basis points.
        max_bps: u32,
    },
    /// `REQUIRED_INPUT_BELOW_MIN`: ExactOut under the strict limit policy
    /// only (ruling 23): the route's required input is below the rate's `min`.
    RequiredInputBelowMin {
        /// The required input.
        required: Decimal,
        /// The rate's lower limit.
        min: Decimal,
    },
    /// `REQUIRED_INPUT_ABOVE_MAX`: ExactOut under the strict limit policy
    /// only (ruling 23): the route's required input is above the effective max.
    RequiredInputAboveMax {
        /// The required input.
        required: Decimal,
        /// The effective upper limit.
        max: Decimal,
    },
}

impl RejectReason {
    /// The stable reason code, e.g. `"BELOW_MIN"`.
    pub const fn code(&self) -> &'static str {
        match self {
            RejectReason::InvalidRate(_) => "INVALID_RATE",
            RejectReason::Expired { .. } => "EXPIRED",
            RejectReason::ExactOutUnsupported => "EXACT_OUT_UNSUPPORTED",
            RejectReason::SponsoredInExactOut => "SPONSORED_IN_EXACT_OUT",
            RejectReason::CampaignLimitBelowMin { .. } => "CAMPAIGN_LIMIT_BELOW_MIN",
            RejectReason::BelowMin { .. } => "BELOW_MIN",
            RejectReason::AboveMax { .. } => "ABOVE_MAX",
            RejectReason::Overflow => "OVERFLOW",
            RejectReason::NoOutput { .. } => "NO_OUTPUT",
            RejectReason::BelowDust { .. } => "BELOW_DUST",
            RejectReason::FeeTooLarge { .. } => "FEE_TOO_LARGE",
            RejectReason::FeeShareTooLarge { .. } => "FEE_SHARE_TOO_LARGE",
            RejectReason::PriceOutlier { .. } => "PRICE_OUTLIER",
            RejectReason::RequiredInputBelowMin { .. } => "REQUIRED_INPUT_BELOW_MIN",
            RejectReason::RequiredInputAboveMax { .. } => "REQUIRED_INPUT_ABOVE_MAX",
        }
    }

    /// The limit that was broken: the min for `BELOW_MIN`,
    /// `REQUIRED_INPUT_BELOW_MIN` and `CAMPAIGN_LIMIT_BELOW_MIN`, the
    /// (effective) max for `ABOVE_MAX` and `REQUIRED_INPUT_ABOVE_MAX`.
    pub const fn limit(&self) -> Option<Decimal> {
        match self {
            RejectReason::BelowMin { min }
            | RejectReason::CampaignLimitBelowMin { min, .. }
            | RejectReason::RequiredInputBelowMin { min, .. } => Some(*min),
            RejectReason::AboveMax { max, .. }
            | RejectReason::RequiredInputAboveMax { max, .. } => Some(*max),
            _ => None,
        }
    }

    /// `true` for reasons that come from the swap mode alone.
    pub const fn is_swap_mode(&self) -> bool {
        matches!(
            self,
            RejectReason::ExactOutUnsupported | RejectReason::SponsoredInExactOut
        )
    }
}

impl fmt::Display for RejectReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RejectReason::InvalidRate(defect) => write!(f, "invalid rate: {defect}"),
            RejectReason::Expired { expiry } => write!(f, "expired at {expiry}"),
            RejectReason::ExactOutUnsupported => f.write_str("provider does not support ExactOut"),
            RejectReason::SponsoredInExactOut => {
                f.write_str("sponsored variants are excluded from ExactOut")
            }
            RejectReason::CampaignLimitBelowMin { min, limit } => write!(
                f,
                "the campaign's per-swap limit {limit} is below the minimum {min}: no amount fits"
            ),
            RejectReason::BelowMin { min } => write!(f, "amount is below the minimum {min}"),
            RejectReason::AboveMax {
                max,
                capped_by_campaign: true,
            } => {
                write!(f, "amount is above the campaign's per-swap limit {max}")
            }
            RejectReason::AboveMax { max, .. } => write!(f, "amount is above the maximum {max}"),
            RejectReason::Overflow => f.write_str("arithmetic overflow"),
            RejectReason::NoOutput { net_output } => {
                write!(f, "net output {net_output} is not positive")
            }
            RejectReason::BelowDust { net_output, dust } => {
                write!(f, "net output {net_output} is below the dust floor {dust}")
            }
            RejectReason::FeeTooLarge {
                net_output,
                miner_fee,
                fee_multiple,
            } => write!(
                f,
                "net output {net_output} is below {fee_multiple} × the miner fee {miner_fee}"
            ),
            RejectReason::FeeShareTooLarge {
                miner_fee,
                gross_output,
                max_bps,
            } => write!(
                f,
                "the miner fee {miner_fee} is more than {max_bps} bps of the gross output {gross_output}"
            ),
            RejectReason::PriceOutlier {
                multiplier,
                reference,
                deviation_bps,
                max_bps,
            } => {
                write!(f, "the multiplier {multiplier} deviates from the reference {reference} by ")?;
                match deviation_bps {
                    Some(bps) => write!(f, "{bps} bps")?,
                    None => f.write_str("more than 10^26 bps")?,
                }
                write!(f, ", more than the {max_bps} bps allowed")
            }
            RejectReason::RequiredInputBelowMin { required, min } => {
                write!(f, "required input {required} is below the minimum {min}")
            }
            RejectReason::RequiredInputAboveMax { required, max } => {
                write!(f, "required input {required} is above the maximum {max}")
            }
        }
    }
}

/// A rate that was excluded, and why.
///
/// # JSON
/// `{"rateId","reason","limit","detail"}`: the reason's stable code, the
/// limit it broke (a decimal string, or `null`) and its text. A
/// `PRICE_OUTLIER` adds `multiplier`, `reference` and `deviationBps`
/// (decimal strings; `deviationBps` `null` past `Decimal`'s range) and
/// `maxDeviationBps` (a number).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rejection<'r> {
    rate: &'r Rate,
    reason: RejectReason,
}

impl<'r> Rejection<'r> {
    pub(crate) fn new(rate: &'r Rate, reason: RejectReason) -> Self {
        Rejection { rate, reason }
    }

    /// The excluded rate.
    pub fn rate(&self) -> &'r Rate {
        self.rate
    }

    /// Why it was excluded.
    pub fn reason(&self) -> &RejectReason {
        &self.reason
    }
}

impl Serialize for Rejection<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let outlier = match &self.reason {
            RejectReason::PriceOutlier {
                multiplier,
                reference,
                deviation_bps,
                max_bps,
            } => Some((*multiplier, reference, *deviation_bps, *max_bps)),
            _ => None,
        };
        let len = if outlier.is_some() { 8 } else { 4 };
        let mut out = serializer.serialize_struct("Rejection", len)?;
        out.serialize_field("rateId", self.rate.id())?;
        out.serialize_field("reason", self.reason.code())?;
        out.serialize_field("limit", &self.reason.limit().map(crate::decimal::Plain))?;
        out.serialize_field("detail", &alloc::format!("{}", self.reason))?;
        if let Some((multiplier, reference, deviation, max_bps)) = outlier {
            out.serialize_field("multiplier", &crate::decimal::Plain(multiplier))?;
            out.serialize_field("reference", &alloc::format!("{reference}"))?;
            out.serialize_field("deviationBps", &deviation.map(crate::decimal::Plain))?;
            out.serialize_field("maxDeviationBps", &max_bps)?;
        }
        out.end()
    }
}
