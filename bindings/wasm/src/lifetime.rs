//! Decisions have a lifetime (ruling 50): `Rates#validUntil`, the schedule
//! of the best route's successors, re-quotes against the original promise
//! and deposit outcomes. Only in the whole build (feature `lifetime`); the
//! answers' own `validUntil` (`route.rs`) is in both builds.

use serde::Deserialize;
use serde_json::{json, Value};
use swaproute::order::{FixedOrderRequest, Promise, Requote};
use swaproute::{Amount, Decimal, EpochMillis, RatesResponse, SwapMode};

use crate::failure::{decode, Answer, Failure, Json};
use crate::input::amount;
use crate::route::with_request;

fn instant(at: Option<EpochMillis>) -> Value {
    at.map_or(Value::Null, |at| Value::from(at.as_millis()))
}

fn plain(value: Decimal) -> Value {
    Value::String(value.normalize().to_string())
}

/// `{validUntil}` of the best route (or of the top `k` when given).
pub(crate) fn valid_until(rates: &RatesResponse, request: &str, k: Option<usize>) -> Answer {
    with_request(request, |request| {
        let until = match k {
            Some(k) => request.top_valid_until(rates, k),
            None => request.valid_until(rates),
        };
        Ok(Json::value(&json!({ "validUntil": instant(until) })))
    })
}

/// `{validUntil, schedule: [{from, until, rateId}]}`.
pub(crate) fn schedule(rates: &RatesResponse, request: &str) -> Answer {
    with_request(request, |request| {
        let schedule = request.schedule(rates).map_err(|e| Failure::no_route(&e))?;
        let intervals = schedule.intervals();
        let until = schedule
            .intervals()
            .first()
            .map(swaproute::route::Interval::until);
        Ok(Json::value(
            &json!({ "validUntil": instant(until), "schedule": intervals }),
        ))
    })
}

fn requote_json(requote: &Requote) -> Value {
    json!({
        "class": requote.class().as_str(),
        "promised": plain(requote.promised()),
        "fresh": requote.fresh().map(plain),
        "lossBps": requote.loss_bps().map(plain),
        "reason": requote.reason().map(|e| json!({
            "status": e.http_status().as_u16(),
            "code": e.code().as_str(),
            "details": e.details(),
        })),
    })
}

/// `{mode, promised, bound, fresh}` of `classifyRequote`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ClassifyInput {
    mode: String,
    promised: String,
    bound: String,
    fresh: Option<String>,
}

fn promise(mode: SwapMode, promised: &str, bound: &str) -> Result<Promise, Failure> {
    Promise::new(
        mode,
        amount("promised", promised)?.get(),
        amount("bound", bound)?.get(),
    )
    .map_err(|e| Failure::invalid_request(format!("promise: {e}")))
}

fn mode(text: &str) -> Result<SwapMode, Failure> {
    text.parse()
        .map_err(|e| Failure::invalid_request(format!("mode: {e}")))
}

/// A fresh promise against an original one, without rates.
pub(crate) fn classify(input: &str) -> Answer {
    let input: ClassifyInput = decode("input", input)?;
    let promise = promise(mode(&input.mode)?, &input.promised, &input.bound)?;
    let requote = match input.fresh.as_deref() {
        Some(fresh) => promise.classify(amount("fresh", fresh)?.get()),
        None => promise.gone(None),
    };
    Ok(Json::value(&requote_json(&requote)))
}

/// The original plan as `planFixedOrder` returned it: its `amount` and
/// `toAmount` (other keys ignored).
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct PlanInput {
    amount: String,
    to_amount: String,
}

/// The bound of ruling 33 for `request`.
fn bound(request: &FixedOrderRequest) -> Option<Decimal> {
    match request.swap_mode() {
        SwapMode::ExactIn => request.slippage().min_output(request.to_amount()),
        SwapMode::ExactOut => request.slippage().max_input(request.from_amount()),
    }
}

/// Re-plans `body` over fresh `rates` at `options.now` against the
/// original `plan`'s promise and the body's slippage bound.
pub(crate) fn requote(rates: &RatesResponse, body: &str, plan: &str, options: &str) -> Answer {
    let plan: PlanInput = decode("plan", plan)?;
    crate::order::with_plan_context(rates, body, options, |request, rates, context| {
        let promised = match request.swap_mode() {
            SwapMode::ExactIn => &plan.to_amount,
            SwapMode::ExactOut => &plan.amount,
        };
        let bound = bound(request)
            .ok_or_else(|| Failure::invalid_request("slippage: the bound cannot be held"))?;
        let promise = Promise::new(request.swap_mode(), amount("plan", promised)?.get(), bound)
            .map_err(|e| Failure::invalid_request(format!("plan: {e}")))?;
        let requote = request
            .requote(&promise, rates, context)
            .map_err(|e| Failure::invalid_request(format!("plan: {e}")))?;
        Ok(Json::value(&requote_json(&requote)))
    })
}

/// `{amount, observedAt}` of `depositOutcome`.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct DepositInput {
    amount: String,
    observed_at: u64,
}

/// Plans `body` at `options.now`, then classifies the deposit.
pub(crate) fn deposit(rates: &RatesResponse, body: &str, deposit: &str, options: &str) -> Answer {
    let deposit: DepositInput = decode("deposit", deposit)?;
    let deposited: Amount = amount("amount", &deposit.amount)?;
    crate::order::with_plan_context(rates, body, options, |request, rates, context| {
        let plan = request
            .plan(rates, context)
            .map_err(|e| Failure::api(&e.to_api_error()))?;
        let outcome = plan.deposit_outcome(deposited, EpochMillis::new(deposit.observed_at));
        Ok(Json::value(&json!({
            "class": outcome.class().as_str(),
            "expectedOutput": outcome.expected_output().map(plain),
            "limit": outcome.limit().map(plain),
            "expiry": outcome.expiry().as_millis(),
        })))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::failure::envelope;

    const RATES: &str = r#"[
      {"id":"a","pairId":"BTC_ETH","amount":{"assetId":"ETH","value":31},"minerFee":{"assetId":"ETH","value":0.01},
       "min":{"assetId":"BTC","value":0.1},"max":{"assetId":"BTC","value":1},"expiry":2000},
      {"id":"b","pairId":"BTC_ETH","amount":{"assetId":"ETH","value":30},"minerFee":{"assetId":"ETH","value":0},
       "min":{"assetId":"BTC","value":0.1},"max":{"assetId":"BTC","value":1},"expiry":3000}]"#;
    const BODY: &str = r#"{"pairId":"BTC_ETH","fromAmount":"0.5","toAmount":"15.2","fromAddress":null,
      "toAddress":"0x52908400098527886E0F7030069857D2E4169EE7"}"#;

    fn value(answer: Answer) -> Value {
        serde_json::from_str(&envelope(answer)).unwrap_or_default()
    }

    #[test]
    fn by_hand() {
        let Ok(rates) = crate::route::rates(RATES) else {
            panic!("the rates decode")
        };
        let s = value(schedule(&rates, r#"{"fromAmount":"0.5","now":1000}"#));
        assert_eq!(s["ok"]["validUntil"], 2000);
        assert_eq!(s["ok"]["schedule"][1]["rateId"], "b");
        // 15.2 × 0.98 = 14.896 ≤ 15 < 15.49: within; (15.49 − 15)/15.49 = 316.33… bps.
        let r = value(requote(
            &rates,
            BODY,
            r#"{"amount":"0.5","toAmount":"15.49"}"#,
            r#"{"now":2500}"#,
        ));
        assert_eq!(r["ok"]["class"], "WORSE_WITHIN");
        assert_eq!(r["ok"]["lossBps"], "316.34");
        let d = value(deposit(
            &rates,
            BODY,
            r#"{"amount":"2","observedAt":1500}"#,
            r#"{"now":1000}"#,
        ));
        assert_eq!(d["ok"]["class"], "ABOVE_MAX");
        assert_eq!(d["ok"]["limit"], "1");
    }
}
