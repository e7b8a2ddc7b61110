//! The request objects JavaScript passes in, decoded strictly: unknown keys
//! are refused (a misspelt `fromAmout` must not silently mean "absent").

use std::collections::BTreeMap;

use serde::{Deserialize, Deserializer};
use swaproute::route::{Floors, LimitPolicy, PriceGuard, PriceReference};
use swaproute::{Amount, CampaignId, CampaignLimits, EpochMillis, SwapMode};

use crate::failure::Failure;

/// An amount field: a decimal string in the strict amount grammar, above 0.
pub(crate) fn amount(field: &str, text: &str) -> Result<Amount, Failure> {
    text.parse::<Amount>()
        .map_err(|e| Failure::invalid_amount(field, e))
}

/// An optional request field: absent is `None`, but a `null` (or any other
/// value the type refuses) is an error, not the default (`maxLegs: null` must
/// not quietly mean 2). With `#[serde(default, deserialize_with = …)]`.
pub(crate) fn present<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    T::deserialize(deserializer).map(Some)
}

/// `"ExactIn"` (also when absent) or `"ExactOut"`.
pub(crate) fn mode(text: Option<&str>) -> Result<SwapMode, Failure> {
    match text {
        None => Ok(SwapMode::ExactIn),
        Some(text) => text.parse().map_err(|_| {
            Failure::api(&swaproute::ApiError::new(
                swaproute::ErrorCode::UnsupportedSwapMode,
                format!("mode: {text:?} is neither \"ExactIn\" nor \"ExactOut\""),
            ))
            .with("field", "mode")
        }),
    }
}

/// `{"campaignId": "per-swap limit", …}` as campaign limits.
pub(crate) fn campaigns(map: &BTreeMap<String, String>) -> Result<CampaignLimits, Failure> {
    let mut limits = CampaignLimits::new();
    for (id, limit) in map {
        let campaign = CampaignId::new(id)
            .map_err(|e| Failure::invalid_request(format!("campaigns: {id:?}: {e}")))?;
        limits.insert(campaign, amount("campaigns", limit)?);
    }
    Ok(limits)
}

/// `"spec"` (also when absent) or `"strict"` (ruling 23).
pub(crate) fn limit_policy(text: Option<&str>) -> Result<LimitPolicy, Failure> {
    match text {
        None | Some("spec") => Ok(LimitPolicy::Spec),
        Some("strict") => Ok(LimitPolicy::Strict),
        Some(other) => Err(Failure::invalid_request(format!(
            "limitPolicy: {other:?} is neither \"spec\" nor \"strict\""
        ))
        .with("field", "limitPolicy")),
    }
}

/// A single-pair route request.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct RouteInput {
    /// `"ExactIn"` (default) or `"ExactOut"`.
    #[serde(default, deserialize_with = "present")]
    pub(crate) mode: Option<String>,
    /// The amount sent (ExactIn) or the client's estimate of it (ExactOut).
    pub(crate) from_amount: String,
    /// The exact amount received (ExactOut; optional in ExactIn).
    #[serde(default, deserialize_with = "present")]
    pub(crate) to_amount: Option<String>,
    /// Milliseconds since the Unix epoch.
    pub(crate) now: u64,
    /// Campaign id to per-swap limit.
    #[serde(default)]
    pub(crate) campaigns: BTreeMap<String, String>,
    /// `"spec"` (default) or `"strict"`.
    #[serde(default, deserialize_with = "present")]
    pub(crate) limit_policy: Option<String>,
    /// The caller's economic floors (ruling 38); none when absent.
    #[serde(default, deserialize_with = "present")]
    pub(crate) floors: Option<FloorsInput>,
    /// The caller's price guard (ruling 40); none when absent.
    #[serde(default, deserialize_with = "present")]
    pub(crate) price_guard: Option<GuardInput>,
}

/// The economic floors of ruling 38, each optional: `dust` (to asset) and
/// `feeMultiple` as amount texts, `maxFeeShareBps` a whole number of basis
/// points.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct FloorsInput {
    /// A route's net output must be at least this (to asset).
    #[serde(default, deserialize_with = "present")]
    pub(crate) dust: Option<String>,
    /// A route's net output must be at least this many times its miner fee.
    #[serde(default, deserialize_with = "present")]
    pub(crate) fee_multiple: Option<String>,
    /// `minerFee × 10000 ≤ maxFeeShareBps × amount × multiplier`.
    #[serde(default, deserialize_with = "present")]
    pub(crate) max_fee_share_bps: Option<u32>,
}

/// The floors of `input` (none when absent).
pub(crate) fn floors(input: Option<&FloorsInput>) -> Result<Floors, Failure> {
    let Some(input) = input else {
        return Ok(Floors::NONE);
    };
    let mut floors = Floors::NONE;
    if let Some(dust) = &input.dust {
        floors = floors.with_dust(amount("floors.dust", dust)?);
    }
    if let Some(k) = &input.fee_multiple {
        floors = floors.with_fee_multiple(amount("floors.feeMultiple", k)?);
    }
    if let Some(bps) = input.max_fee_share_bps {
        floors = floors.with_max_fee_share_bps(bps);
    }
    Ok(floors)
}

/// A route request's parts, checked.
#[derive(Debug)]
pub(crate) struct Route {
    pub(crate) mode: SwapMode,
    pub(crate) from_amount: Amount,
    pub(crate) to_amount: Option<Amount>,
    pub(crate) now: EpochMillis,
    pub(crate) campaigns: CampaignLimits,
    pub(crate) policy: LimitPolicy,
    pub(crate) floors: Floors,
    pub(crate) guard: Option<swaproute::route::PriceGuard>,
}

impl RouteInput {
    /// The checked request.
    pub(crate) fn check(&self) -> Result<Route, Failure> {
        let mode = mode(self.mode.as_deref())?;
        let from_amount = amount("fromAmount", &self.from_amount)?;
        let to_amount = self
            .to_amount
            .as_deref()
            .map(|text| amount("toAmount", text))
            .transpose()?;
        if mode == SwapMode::ExactOut && to_amount.is_none() {
            return Err(Failure::invalid_request(
                "toAmount: required in ExactOut (the exact amount received)",
            )
            .with("field", "toAmount"));
        }
        Ok(Route {
            mode,
            from_amount,
            to_amount,
            now: EpochMillis::new(self.now),
            campaigns: campaigns(&self.campaigns)?,
            policy: limit_policy(self.limit_policy.as_deref())?,
            floors: floors(self.floors.as_ref())?,
            guard: guard(self.price_guard.as_ref())?,
        })
    }
}

/// The ExactOut estimator's request.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct EstimateInput {
    /// The exact amount received.
    pub(crate) to_amount: String,
    /// Milliseconds since the Unix epoch.
    pub(crate) now: u64,
    /// The caller's economic floors (ruling 38); none when absent.
    #[serde(default, deserialize_with = "present")]
    pub(crate) floors: Option<FloorsInput>,
    /// The caller's price guard (rulings 40-42); none when absent.
    #[serde(default, deserialize_with = "present")]
    pub(crate) price_guard: Option<GuardInput>,
}

#[cfg(feature = "feasible")]
/// The amounts-that-work query (ruling 38).
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct FeasibleInput {
    /// `"ExactIn"` (default) or `"ExactOut"`.
    #[serde(default, deserialize_with = "present")]
    pub(crate) mode: Option<String>,
    /// Milliseconds since the Unix epoch.
    pub(crate) now: u64,
    /// Campaign id to per-swap limit.
    #[serde(default)]
    pub(crate) campaigns: BTreeMap<String, String>,
    /// The caller's economic floors.
    #[serde(default, deserialize_with = "present")]
    pub(crate) floors: Option<FloorsInput>,
    /// `"spec"` (default) or `"strict"` (ruling 23).
    #[serde(default, deserialize_with = "present")]
    pub(crate) limit_policy: Option<String>,
    /// The caller's price guard (rulings 40-42); none when absent.
    #[serde(default, deserialize_with = "present")]
    pub(crate) price_guard: Option<GuardInput>,
    /// The assets' decimals: amounts get `min(8, decimals)` places.
    #[serde(default, deserialize_with = "present")]
    pub(crate) decimals: Option<DecimalsInput>,
    /// A balance, in the unit of the amounts: `"0"` answers as absent.
    #[serde(default, deserialize_with = "present")]
    pub(crate) spendable: Option<String>,
}

/// The decimals of a pair's two assets (from `GET /v3/assets`).
#[cfg(any(feature = "feasible", feature = "orders", feature = "split"))]
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct DecimalsInput {
    /// The from asset's decimals.
    pub(crate) from: u8,
    /// The to asset's decimals.
    pub(crate) to: u8,
}

/// `{maxDeviationBps, reference?}`: a guard of `maxDeviationBps` basis
/// points around `reference` (a decimal string), or else around the exact
/// median multiplier of the response's valid, unexpired rates.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct GuardInput {
    /// The largest deviation admitted, in basis points (a whole number).
    pub(crate) max_deviation_bps: u32,
    /// The caller's reference multiplier; the median when absent.
    #[serde(default, deserialize_with = "present")]
    pub(crate) reference: Option<String>,
}

/// The guard of `input` (none when absent).
pub(crate) fn guard(input: Option<&GuardInput>) -> Result<Option<PriceGuard>, Failure> {
    let Some(input) = input else {
        return Ok(None);
    };
    let bps = input.max_deviation_bps;
    match &input.reference {
        None => Ok(Some(PriceGuard::median(bps))),
        Some(text) => {
            let multiplier = amount("priceGuard.reference", text)?;
            let reference = PriceReference::new(multiplier.get()).map_err(|e| {
                Failure::invalid_request(format!("priceGuard.reference: {e}"))
                    .with("field", "priceGuard.reference")
            })?;
            Ok(Some(PriceGuard::against(reference, bps)))
        }
    }
}
