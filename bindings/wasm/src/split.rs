//! Exact splits (ruling 39): `Rates#split(request, policy)`.

use serde::{Deserialize, Serialize};
use swaproute::route::{split_valid_until, Split, SplitAnswer, SplitError, SplitLegs, SplitPolicy};
use swaproute::Route;
use swaproute::{EpochMillis, RatesResponse};

use crate::failure::{decode, to_json, Answer, Failure};
use crate::input::amount;
use crate::route::{no_route_until, with_request};

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
        Ok(answer) => {
            // Ruling 50, as the CLI writes it: the answer's `validUntil`,
            // and the split's own when the answer is a split.
            let until = split_valid_until(request, rates, &answer).map(EpochMillis::as_millis);
            let out = match answer {
                SplitAnswer::Single(route) => Out {
                    route: Some(route),
                    split: None,
                    valid_until: until,
                },
                SplitAnswer::Split(split) => Out {
                    route: None,
                    split: Some(Timed {
                        split,
                        valid_until: until,
                    }),
                    valid_until: until,
                },
            };
            to_json(&out)
        }
        Err(SplitError::NoRoute(no_route)) => Err(no_route_until(request, rates, &no_route)),
        Err(error) => Err(Failure::api(&error.to_api_error())),
    })
}

/// The answer's JSON: `{route, split, validUntil}`, one of `route` and
/// `split` `null`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Out<'r> {
    route: Option<Route<'r>>,
    split: Option<Timed<'r>>,
    valid_until: Option<u64>,
}

/// A split with its `validUntil` (its first leg's expiry, or earlier under
/// a median guard).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Timed<'r> {
    #[serde(flatten)]
    split: Split<'r>,
    valid_until: Option<u64>,
}
