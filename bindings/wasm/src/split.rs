//! Exact splits (ruling 39): `Rates#split(request, policy)`.

use serde::{Deserialize, Serialize};
use swaproute::route::{Split, SplitAnswer, SplitLegs, SplitPolicy};
use swaproute::RatesResponse;
use swaproute::Route;

use crate::failure::{decode, to_json, Answer, Failure};
use crate::input::amount;
use crate::route::with_request;

/// The split policy: `{legs?: 2 | 3, perOrderCost?: "C", minGainBps?: N,
/// decimals?: {from, to}}` (with `decimals`, every leg on the from asset's
/// grid, ruling 48).
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct PolicyInput {
    #[serde(default)]
    legs: Option<u64>,
    #[serde(default)]
    per_order_cost: Option<String>,
    #[serde(default)]
    min_gain_bps: Option<u32>,
    #[serde(default)]
    decimals: Option<crate::input::DecimalsInput>,
}

/// `{route, split}`: the best single route (or `null`) and the split (or
/// `null`); the single pair's "no route" error when neither serves.
pub(crate) fn split(rates: &RatesResponse, request: &str, policy: &str) -> Answer {
    let input: PolicyInput = if policy.trim().is_empty() {
        PolicyInput::default()
    } else {
        decode("policy", policy)?
    };
    let mut policy = SplitPolicy::DEFAULT;
    if let Some(legs) = input.legs {
        let legs = SplitLegs::try_from(legs)
            .map_err(|e| Failure::invalid_request(format!("legs: {e}")).with("field", "legs"))?;
        policy = policy.with_legs(legs);
    }
    if let Some(cost) = input.per_order_cost.as_deref() {
        policy = policy.with_per_order_cost(amount("perOrderCost", cost)?);
    }
    if let Some(bps) = input.min_gain_bps {
        policy = policy.with_min_gain_bps(bps);
    }
    if let Some(decimals) = input.decimals {
        policy = policy.with_decimals(decimals.from);
    }
    with_request(request, |request| match request.split(rates, &policy) {
        Ok(SplitAnswer::Single(route)) => to_json(&Out {
            route: Some(route),
            split: None,
        }),
        Ok(SplitAnswer::Split(split)) => to_json(&Out {
            route: None,
            split: Some(split),
        }),
        Err(error) => Err(Failure::api(&error.to_api_error())),
    })
}

/// The answer's JSON: `{route, split}`, one of them `null`.
#[derive(Serialize)]
struct Out<'r> {
    route: Option<Route<'r>>,
    split: Option<Split<'r>>,
}
