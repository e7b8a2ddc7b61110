//! `--split`: serve an ExactIn amount no single route takes with 2 or 3
//! orders (ruling 39), or beat the best single route by `--min-gain-bps`.

use std::fmt::Write as _;

use serde_json::Value;
use swaproute::route::{RouteRequest, SplitAnswer, SplitError, SplitLegs, SplitPolicy};
use swaproute::{Amount, ApiError, RatesResponse, SwapMode};

use super::{dec, pair_records, short, Args, USAGE};

/// The split flags as given: `--split [--split-legs 2|3] [--per-order-cost C]
/// [--min-gain-bps B]`.
#[derive(Default)]
pub(crate) struct SplitArgs {
    pub(crate) on: bool,
    pub(crate) legs: Option<SplitLegs>,
    pub(crate) per_order_cost: Option<Amount>,
    pub(crate) min_gain_bps: Option<u32>,
}

impl SplitArgs {
    /// Parses one split flag's value; `false` when `flag` is not one.
    pub(crate) fn parse(
        &mut self,
        flag: &str,
        value: &mut dyn FnMut(&str) -> Result<String, String>,
    ) -> Result<bool, String> {
        match flag {
            "--split" => self.on = true,
            "--split-legs" => {
                let text = value(flag)?;
                self.legs = Some(
                    text.parse()
                        .map_err(|_| format!("--split-legs {text:?}: a split has 2 or 3 legs"))?,
                );
            }
            "--per-order-cost" => {
                let text = value(flag)?;
                self.per_order_cost = Some(
                    Amount::parse(&text).map_err(|e| format!("--per-order-cost {text:?}: {e}"))?,
                );
            }
            "--min-gain-bps" => {
                let text = value(flag)?;
                self.min_gain_bps = Some(text.parse().map_err(|_| {
                    format!("--min-gain-bps {text:?} is not a whole number of basis points")
                })?);
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// The policy, or why the flags do not go together.
    pub(crate) fn policy(&self, args: &Args) -> Result<Option<SplitPolicy>, String> {
        if !self.on {
            if self.legs.is_some() || self.per_order_cost.is_some() || self.min_gain_bps.is_some() {
                return Err(format!(
                    "--split-legs, --per-order-cost and --min-gain-bps need --split\n{USAGE}"
                ));
            }
            return Ok(None);
        }
        if args.mode != SwapMode::ExactIn {
            return Err(format!(
                "--split: splits are defined for ExactIn only\n{USAGE}"
            ));
        }
        let mut policy = SplitPolicy::DEFAULT;
        if let Some(legs) = self.legs {
            policy = policy.with_legs(legs);
        }
        if let Some(cost) = self.per_order_cost {
            policy = policy.with_per_order_cost(cost);
        }
        if let Some(bps) = self.min_gain_bps {
            policy = policy.with_min_gain_bps(bps);
        }
        Ok(Some(policy))
    }
}

/// With `--assets`, the legs on the from asset's grid (ruling 48).
pub(crate) fn on_grid(
    policy: Option<SplitPolicy>,
    args: &Args,
    rates: &RatesResponse,
) -> Result<Option<SplitPolicy>, String> {
    let (Some(policy), Some(path)) = (policy, &args.assets) else {
        return Ok(policy);
    };
    Ok(Some(match pair_records(path, rates)? {
        Some((from, _)) => policy.with_decimals(from),
        None => policy,
    }))
}

/// The split asked for: `Some(split)` when one is returned; the error when
/// the search could not answer (past its work limit), not for "no route".
pub(crate) fn answer<'r>(
    request: &RouteRequest<'_>,
    rates: &'r RatesResponse,
    policy: &SplitPolicy,
) -> (Option<swaproute::route::Split<'r>>, Option<ApiError>) {
    match request.split(rates, policy) {
        Ok(SplitAnswer::Split(split)) => (Some(split), None),
        Ok(SplitAnswer::Single(_)) | Err(SplitError::NoRoute(_)) => (None, None),
        Err(error) => (None, Some(error.to_api_error())),
    }
}

/// `"splitError"` of the JSON report: why the search gave no answer.
pub(crate) fn error_json(error: &ApiError) -> Value {
    serde_json::json!({
        "status": error.http_status().as_u16(),
        "code": error.code().as_str(),
        "details": error.details(),
    })
}

/// `"split"` of the JSON report: the split, or `null`.
pub(crate) fn json(split: Option<&swaproute::route::Split<'_>>) -> Result<Value, String> {
    serde_json::to_value(split).map_err(|e| format!("cannot encode the split: {e}"))
}

/// [`json`] with the split's `"validUntil"` (ruling 50), which becomes the
/// report's `until` when a split is returned (the answer is the split).
pub(crate) fn json_until(
    split: Option<&swaproute::route::Split<'_>>,
    request: &RouteRequest<'_>,
    rates: &RatesResponse,
    until: &mut Option<swaproute::EpochMillis>,
) -> Result<Value, String> {
    let mut out = json(split)?;
    if let (Some(inner), Some(found)) = (out.as_object_mut(), split) {
        let answer = SplitAnswer::Split(found.clone());
        *until = swaproute::route::split_valid_until(request, rates, &answer);
        inner.insert("validUntil".to_owned(), super::lifetime::instant(*until));
    }
    Ok(out)
}

/// The text form: one line for the split, one per leg.
pub(crate) fn text(
    out: &mut String,
    split: Option<&swaproute::route::Split<'_>>,
    error: Option<&ApiError>,
) {
    if let Some(error) = error {
        let _ = writeln!(
            out,
            "split: {} ({}): {}",
            error.code(),
            error.http_status(),
            error.details()
        );
        return;
    }
    let Some(split) = split else {
        let _ = writeln!(out, "split: none");
        return;
    };
    let gain = split
        .gain_bps()
        .map_or(String::new(), |g| format!(", gain {} bps", dec(g)));
    let _ = writeln!(
        out,
        "split: {} orders, net output {}{gain}",
        split.legs().len(),
        dec(split.net_output())
    );
    for (i, leg) in split.legs().iter().enumerate() {
        let _ = writeln!(
            out,
            "  {}. {:<18} fromAmount {}  net output {}  stops at {}",
            i + 1,
            short(leg.rate().id().as_str()),
            leg.from_amount(),
            dec(leg.net_output()),
            leg.stop().as_str()
        );
    }
}
