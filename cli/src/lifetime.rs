//! Decisions have a lifetime (ruling 50): `"validUntil"` (epoch ms, or
//! `null` when nothing can expire) in every `--json` answer; `--schedule`
//! (the best route's successors, `"schedule":[{"from","until","rateId"}]`,
//! `rateId` null for a no-route interval); `--order BODY.json --requote
//! PLAN.json` (`"requote":{"class","promised","fresh","lossBps","reason"}`,
//! against the plan `--order … --json` printed earlier: its `amount`,
//! `promisedOutput` and `slippageBound`); `--order BODY.json --deposit
//! AMOUNT --observed-at MS` (`"deposit":{"class","expectedOutput","limit"}`);
//! `--track FILE [--seed N]` (a JSON list of observations `{"at","status"}`,
//! `{"at","confirmations"}`, `{"at","readError":true}`, printed as
//! `"track":[{"at","status","definitive","outcome","nextPollMs"}]`,
//! `nextPollMs` the wait before the next read, `null` once definitive; a
//! status read may carry `"toAmount"`, and a `COMPLETED` row gains
//! `"delivered"` and, with `--promised DEC`, `"realizedBps"`:
//! `(delivered − promised) × 10⁴ / promised`, toward zero at 2 places).

use std::fmt::Write as _;
use std::process::ExitCode;

use serde_json::{json, Value};
use swaproute::order::{
    realized_bps, DepositOutcome, FixedOrderPlan, FixedOrderRequest, OrderContext, OrderStatus,
    Promise, Requote, TrackEvent, Tracker, TrackingOutcome,
};
use swaproute::route::Schedule;
use swaproute::{Amount, Decimal, EpochMillis, RatesResponse, SwapMode};

use super::{dec, emit, short, USAGE};

/// The flags of this file, as given.
#[derive(Clone, Debug, Default)]
pub(crate) struct LifetimeArgs {
    /// `--schedule`.
    pub(crate) schedule: bool,
    /// `--requote PLAN.json`.
    pub(crate) requote: Option<String>,
    /// `--deposit AMOUNT`.
    pub(crate) deposit: Option<Amount>,
    /// `--observed-at MS`.
    pub(crate) observed_at: Option<EpochMillis>,
    /// `--track FILE`.
    pub(crate) track: Option<String>,
    /// `--seed N`.
    pub(crate) seed: Option<u64>,
    /// `--promised DEC`: the output the tracked order promised.
    pub(crate) promised: Option<Amount>,
}

impl LifetimeArgs {
    /// Takes `flag` (and its value) when it is one of this file's.
    pub(crate) fn parse(
        &mut self,
        flag: &str,
        value: &mut dyn FnMut(&str) -> Result<String, String>,
    ) -> Result<bool, String> {
        let millis = |name: &str, text: String| {
            text.parse::<u64>()
                .map_err(|_| format!("{name} {text:?} is not epoch milliseconds"))
        };
        match flag {
            "--schedule" => self.schedule = true,
            "--requote" => self.requote = Some(value(flag)?),
            "--deposit" => {
                let text = value(flag)?;
                self.deposit = Some(
                    Amount::parse(&text)
                        .map_err(|e| format!("--deposit {text:?} is not a decimal amount: {e}"))?,
                );
            }
            "--observed-at" => {
                self.observed_at = Some(EpochMillis::new(millis(flag, value(flag)?)?));
            }
            "--track" => self.track = Some(value(flag)?),
            "--promised" => {
                let text = value(flag)?;
                self.promised =
                    Some(Amount::parse(&text).map_err(|e| {
                        format!("--promised {text:?} is not a decimal amount: {e}")
                    })?);
            }
            "--seed" => {
                let text = value(flag)?;
                self.seed = Some(
                    text.parse()
                        .map_err(|_| format!("--seed {text:?} is not a whole number"))?,
                );
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// The flags that go together.
    ///
    /// # Errors
    /// `--requote`/`--deposit` without `--order`, `--deposit` without
    /// `--observed-at` (and back), both at once, `--seed` without `--track`.
    pub(crate) fn check(&self, ordering: bool) -> Result<(), String> {
        if (self.requote.is_some() || self.deposit.is_some()) && !ordering {
            return Err(format!("--requote and --deposit need --order\n{USAGE}"));
        }
        if self.requote.is_some() && self.deposit.is_some() {
            return Err(format!("give --requote or --deposit, not both\n{USAGE}"));
        }
        if self.deposit.is_some() != self.observed_at.is_some() {
            return Err(format!("--deposit and --observed-at go together\n{USAGE}"));
        }
        if (self.seed.is_some() || self.promised.is_some()) && self.track.is_none() {
            return Err(format!("--seed and --promised need --track\n{USAGE}"));
        }
        Ok(())
    }
}

/// An instant as JSON: epoch ms, or `null`.
pub(crate) fn instant(at: Option<EpochMillis>) -> Value {
    at.map_or(Value::Null, |at| Value::from(at.as_millis()))
}

/// The last expiry after `now` of any rate: until then a "no route" holds.
pub(crate) fn last_expiry(rates: &RatesResponse, now: EpochMillis) -> Option<EpochMillis> {
    rates
        .rates()
        .iter()
        .map(swaproute::Rate::expiry)
        .filter(|expiry| *expiry > now)
        .max()
}

/// The ExactOut estimate's "no route" (no `--from-amount`): its schedule,
/// `[from, until)` intervals each with the estimate's rate (`None`: no
/// route), neighbours merged, until the last rate expires (empty when none
/// is live). There is no request to rank, so the estimate is asked again
/// where its answer can change: rates only leave, so without a median
/// guard a "no route" holds until the last expiry (one interval); under
/// one, whose reference moves when a voter expires, at each later expiry.
/// Its first interval's `until` is the answer's `validUntil`.
pub(crate) fn no_estimate_schedule(
    rates: &RatesResponse,
    to: Amount,
    now: EpochMillis,
    policy: swaproute::route::Policy<'_>,
) -> Vec<(EpochMillis, EpochMillis, Option<String>)> {
    let Some(last) = last_expiry(rates, now) else {
        return Vec::new();
    };
    let median = policy
        .price_guard()
        .is_some_and(|guard| guard.reference().is_none());
    if !median {
        return vec![(now, last, None)];
    }
    let mut instants: Vec<EpochMillis> = rates
        .rates()
        .iter()
        .map(swaproute::Rate::expiry)
        .filter(|expiry| *expiry > now)
        .collect();
    instants.sort_unstable();
    instants.dedup();
    let mut out: Vec<(EpochMillis, EpochMillis, Option<String>)> = Vec::new();
    let mut from = now;
    for until in instants {
        let answer = swaproute::route::estimate_exact_out_under(rates, to, from, policy)
            .ok()
            .map(|found| found.rate().id().as_str().to_owned());
        match out.last_mut() {
            Some(previous) if previous.2 == answer => previous.1 = until,
            _ => out.push((from, until, answer)),
        }
        from = until;
    }
    out
}

/// The ExactOut estimate's "no route" (ruling 50): until when it holds
/// (the first interval of [`no_estimate_schedule`]), and with `--schedule`
/// the schedule's JSON.
pub(crate) fn of_no_estimate(
    args: &super::Args,
    rates: &RatesResponse,
    (to, now): (Amount, EpochMillis),
    policy: swaproute::route::Policy<'_>,
) -> (Option<EpochMillis>, Option<Value>) {
    let intervals = no_estimate_schedule(rates, to, now, policy);
    let until = intervals.first().map(|interval| interval.1);
    (
        until,
        args.lifetime.schedule.then(|| intervals_json(&intervals)),
    )
}

/// [`no_estimate_schedule`] as `"schedule"`'s JSON.
pub(crate) fn intervals_json(intervals: &[(EpochMillis, EpochMillis, Option<String>)]) -> Value {
    Value::Array(
        intervals
            .iter()
            .map(|(from, until, rate_id)| {
                json!({"from": from.as_millis(), "until": until.as_millis(), "rateId": rate_id})
            })
            .collect(),
    )
}

/// `"schedule":[{"from","until","rateId"}]`.
pub(crate) fn schedule_json(schedule: &Schedule<'_>) -> Value {
    json!(schedule.intervals())
}

/// The schedule as text lines.
pub(crate) fn schedule_text(out: &mut String, schedule: &Schedule<'_>) {
    let _ = writeln!(out);
    let _ = writeln!(out, "schedule:");
    for i in schedule.intervals() {
        let _ = writeln!(
            out,
            "  [{}, {})  {}",
            i.from().as_millis(),
            i.until().as_millis(),
            i.rate_id()
                .map_or_else(|| "no route".to_owned(), |id| short(id.as_str()))
        );
    }
    if schedule.intervals().is_empty() {
        let _ = writeln!(out, "   (no rate is live)");
    }
}

/// The best route's lifetime for the ranking (the top K with `--top`, else
/// the chosen route; no later than the estimate's rate), and the schedule
/// with `--schedule`.
pub(crate) fn of_ranking<'r>(
    args: &super::Args,
    request: &swaproute::RouteRequest<'_>,
    rates: &'r RatesResponse,
    estimate: Option<&swaproute::route::Estimate<'_>>,
) -> Result<(Option<EpochMillis>, Option<Schedule<'r>>), String> {
    let until = match args.top {
        Some(k) => request.top_valid_until(rates, k),
        None => request.valid_until(rates),
    };
    let until = match (until, estimate) {
        (Some(until), Some(found)) => Some(until.min(found.rate().expiry())),
        (until, _) => until,
    };
    let schedule = if args.lifetime.schedule {
        Some(
            request
                .schedule(rates)
                .map_err(|e| format!("--schedule: {e}"))?,
        )
    } else {
        None
    };
    Ok((until, schedule))
}

/// `"validUntil"` and `"schedule"` into a JSON report.
pub(crate) fn insert(
    report: &mut Value,
    until: Option<EpochMillis>,
    schedule: Option<&Schedule<'_>>,
) {
    if let Some(object) = report.as_object_mut() {
        object.insert("validUntil".to_owned(), instant(until));
        if let Some(schedule) = schedule {
            object.insert("schedule".to_owned(), schedule_json(schedule));
        }
    }
}

/// The text lines: `valid until:` and the schedule.
pub(crate) fn text(out: &mut String, until: Option<EpochMillis>, schedule: Option<&Schedule<'_>>) {
    let _ = writeln!(
        out,
        "valid until: {}",
        until.map_or_else(
            || "no expiry left".to_owned(),
            |at| at.as_millis().to_string()
        )
    );
    if let Some(schedule) = schedule {
        schedule_text(out, schedule);
    }
}

/// The plan's JSON with `"slippageBound"` and `"validUntil"`.
pub(crate) fn plan_keys(planned: &mut Value, request: &FixedOrderRequest, until: EpochMillis) {
    if let Some(object) = planned.as_object_mut() {
        object.insert(
            "slippageBound".to_owned(),
            slippage_bound(request).map_or(Value::Null, |b| Value::String(dec(b))),
        );
        object.insert("validUntil".to_owned(), Value::from(until.as_millis()));
    }
}

/// The slippage bound of a plan (ruling 33), for `"slippageBound"`.
pub(crate) fn slippage_bound(request: &FixedOrderRequest) -> Option<Decimal> {
    match request.swap_mode() {
        SwapMode::ExactIn => request.slippage().min_output(request.to_amount()),
        SwapMode::ExactOut => request.slippage().max_input(request.from_amount()),
    }
}

/// The promise a plan printed earlier (`{"plan":{…}}` or the plan object
/// itself) made for `request`.
fn promise_of(path: &str, request: &FixedOrderRequest) -> Result<Promise, String> {
    let text =
        std::fs::read_to_string(path).map_err(|e| format!("cannot read plan {path:?}: {e}"))?;
    let value: Value =
        serde_json::from_str(&text).map_err(|e| format!("--requote: not JSON: {e}"))?;
    let plan = value.get("plan").unwrap_or(&value);
    let field = |name: &str| -> Result<Decimal, String> {
        let text = match plan.get(name) {
            Some(Value::String(text)) => text.clone(),
            Some(Value::Number(number)) => number.to_string(),
            _ => return Err(format!("--requote: the plan has no {name:?}")),
        };
        Amount::parse(&text)
            .map(Amount::get)
            .map_err(|e| format!("--requote: {name} {text:?}: {e}"))
    };
    let promised = match request.swap_mode() {
        SwapMode::ExactIn => field("promisedOutput")?,
        SwapMode::ExactOut => field("amount")?,
    };
    let bound = field("slippageBound")?;
    Promise::new(request.swap_mode(), promised, bound).map_err(|e| format!("--requote: {e}"))
}

fn requote_json(requote: &Requote) -> Value {
    json!({
        "class": requote.class().as_str(),
        "promised": dec(requote.promised()),
        "fresh": requote.fresh().map(dec),
        "lossBps": requote.loss_bps().map(dec),
        "reason": requote.reason().map(|e| e.code().as_str()),
    })
}

/// `--order BODY.json --requote PLAN.json`: the fresh plan at `--now`
/// against the promise of the plan printed earlier.
pub(crate) fn requote(
    path: &str,
    request: &FixedOrderRequest,
    rates: &RatesResponse,
    context: &OrderContext<'_>,
    json: bool,
) -> Result<ExitCode, String> {
    let promise = promise_of(path, request)?;
    let requote = request
        .requote(&promise, rates, context)
        .map_err(|e| format!("--requote: {e}"))?;
    if json {
        emit(&format!(
            "{}\n",
            json!({ "requote": requote_json(&requote) })
        ));
    } else {
        let mut text = format!(
            "requote: {} (promised {}, fresh {}, loss {} bps)\n",
            requote.class(),
            dec(requote.promised()),
            requote.fresh().map_or_else(|| "none".to_owned(), dec),
            requote.loss_bps().map_or_else(|| "-".to_owned(), dec),
        );
        if let Some(reason) = requote.reason() {
            let _ = writeln!(text, "  reason: {}: {}", reason.code(), reason.details());
        }
        emit(&text);
    }
    Ok(ExitCode::SUCCESS)
}

fn deposit_json(outcome: &DepositOutcome) -> Value {
    json!({
        "class": outcome.class().as_str(),
        "expectedOutput": outcome.expected_output().map(dec),
        "limit": outcome.limit().map(dec),
        "expiry": outcome.expiry().as_millis(),
    })
}

/// `--order BODY.json --deposit AMOUNT --observed-at MS`.
pub(crate) fn deposit(
    plan: &FixedOrderPlan<'_>,
    plan_json: &Value,
    amount: Amount,
    at: EpochMillis,
    json: bool,
) {
    let outcome = plan.deposit_outcome(amount, at);
    if json {
        emit(&format!(
            "{}\n",
            json!({ "plan": plan_json, "deposit": deposit_json(&outcome) })
        ));
    } else {
        let mut text = format!(
            "deposit {amount} at {}: {}",
            at.as_millis(),
            outcome.class()
        );
        if let Some(output) = outcome.expected_output() {
            let _ = write!(text, ", expected output {}", dec(output));
        }
        if let Some(limit) = outcome.limit() {
            let _ = write!(text, ", limit {}", dec(limit));
        }
        text.push('\n');
        emit(&text);
    }
}

/// One line of a `--track` file.
/// The delivered amount a status read may carry (`"toAmount"`, decimal text).
fn delivered(value: &Value) -> Result<Option<Decimal>, String> {
    match value.get("toAmount") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(text)) => Amount::parse(text)
            .map(|a| Some(a.get()))
            .map_err(|e| format!("--track: toAmount {text:?}: {e}")),
        Some(_) => Err("--track: \"toAmount\" is decimal text".to_owned()),
    }
}

fn event(value: &Value) -> Result<(EpochMillis, TrackEvent), String> {
    let at = value
        .get("at")
        .and_then(Value::as_u64)
        .ok_or("--track: every observation needs \"at\" (epoch ms)")?;
    let event = if let Some(status) = value.get("status") {
        let text = status.as_str().ok_or("--track: \"status\" is a string")?;
        TrackEvent::Status(
            OrderStatus::parse(text).map_err(|e| format!("--track: status {text:?}: {e}"))?,
        )
    } else if let Some(count) = value.get("confirmations") {
        TrackEvent::Confirmations(
            count
                .as_u64()
                .ok_or("--track: \"confirmations\" is a whole number")?,
        )
    } else if value.get("readError") == Some(&Value::Bool(true)) {
        TrackEvent::ReadError
    } else {
        return Err(
            "--track: an observation has \"status\", \"confirmations\" or \"readError\": true"
                .to_owned(),
        );
    };
    Ok((EpochMillis::new(at), event))
}

/// `--track FILE [--seed N]`: each observation folded in, with the status,
/// the outcome and the wait before the next read.
pub(crate) fn track(
    path: &str,
    created: Option<EpochMillis>,
    (seed, promised): (u64, Option<Amount>),
    json: bool,
) -> Result<ExitCode, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read observations {path:?}: {e}"))?;
    let list: Vec<Value> =
        serde_json::from_str(&text).map_err(|e| format!("--track: not a JSON list: {e}"))?;
    let events = list.iter().map(event).collect::<Result<Vec<_>, _>>()?;
    let start = created
        .or_else(|| events.first().map(|(at, _)| *at))
        .unwrap_or_default();
    let mut tracker = Tracker::new(start);
    let mut rows = Vec::new();
    let mut lines = String::new();
    let mut got: Option<Decimal> = None;
    for ((at, event), value) in events.iter().zip(&list) {
        tracker.observe(*at, event);
        got = delivered(value)?.or(got);
        let next = tracker
            .next_poll(*at, seed)
            .map(|next| next.as_millis().saturating_sub(at.as_millis()));
        let outcome = tracker
            .outcome()
            .map(swaproute::order::TrackingOutcome::as_str);
        rows.push(json!({
            "at": at.as_millis(),
            "status": tracker.status().status().as_str(),
            "definitive": tracker.status().is_definitive(),
            "outcome": outcome,
            "nextPollMs": next,
        }));
        if let (Some(row), Some(TrackingOutcome::Completed)) = (
            rows.last_mut().and_then(Value::as_object_mut),
            tracker.outcome(),
        ) {
            // COMPLETED: the delivered amount and the realized bps against
            // the promise (`--promised`), when known.
            let bps = got
                .zip(promised)
                .and_then(|(d, p)| realized_bps(d, p.get()));
            row.insert(
                "delivered".to_owned(),
                got.map_or(Value::Null, |d| Value::String(dec(d))),
            );
            row.insert(
                "realizedBps".to_owned(),
                bps.map_or(Value::Null, |b| Value::String(dec(b))),
            );
        }
        let _ = writeln!(
            lines,
            "{:>15}  {:<12}  {:<10}  {:<22}  next poll {}",
            at.as_millis(),
            tracker.status().status().as_str(),
            if tracker.status().is_definitive() {
                "definitive"
            } else {
                "open"
            },
            outcome.unwrap_or("-"),
            next.map_or_else(|| "none".to_owned(), |ms| format!("in {ms} ms")),
        );
    }
    if json {
        emit(&format!("{}\n", json!({ "track": rows })));
    } else {
        emit(&lines);
    }
    Ok(ExitCode::SUCCESS)
}
