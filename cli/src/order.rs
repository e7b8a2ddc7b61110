//! `--order BODY.json [--verify CREATED.json [--read created|fetched]]`:
//! plan a fixed order (`POST /v3/orders` body) and check what the service
//! created against the plan (rulings 34, 40, 45, 46); and
//! `--assume-exact-out`: take every non-sponsored rate as ExactOut-capable
//! (ruling 4), for rankings and plans alike.
//!
//! The plan is made against `--rates` at `--now` with the CLI's other flags:
//! `--assets FILE` (the pair's asset records: amount precision and address
//! checks against each asset's network; without it the networks are unknown
//! and the plan says its addresses were not checked), `--slippage P`
//! (replaces the body's), `--campaign`, the price guard and the limit
//! policy (plans are strict by default, ruling 34; `--spec-limits` opts
//! out). `--verify` reads the 201 body (`--read created`, the default) or a
//! later `GET` (`--read fetched`).
//!
//! `--json` prints
//! `{"plan":{"rateId","amount","promisedOutput","addressesChecked"},"verify":{"ok","mismatches":[{"field","planned","returned"}]}}`
//! (`plan` gains `"exactOutAssumed": true` when the chosen rate's
//! capability was assumed; `verify` is `null` without `--verify`; a refused
//! plan is `"plan": null` with `"error": {status, code, details}`, and
//! `"hint"` naming `--assume-exact-out` when no rate supports ExactOut). Exit
//! status: 0 when planned (and verified), 2 when the plan is refused, 3 when
//! the order differs from its plan, 1 on bad input.

use std::fmt::Write as _;
use std::process::ExitCode;

use serde_json::{json, Value};
use swaproute::discovery::AssetsResponse;
use swaproute::order::{
    FixedOrderPlan, FixedOrderRequest, Order, OrderContext, OrderMismatches, OrderRead,
};
use swaproute::route::LimitPolicy;
use swaproute::screening::ScreeningPolicy;
use swaproute::{ApiError, EpochMillis, ErrorCode, RatesResponse};

use super::{dec, emit, Args};

/// The flags of this file, as given.
#[derive(Clone, Debug, Default)]
pub(crate) struct OrderArgs {
    /// `--order BODY.json`.
    order: Option<String>,
    /// `--verify CREATED.json`.
    verify: Option<String>,
    /// `--read created|fetched`.
    read: Option<OrderRead>,
    /// `--spec-limits`: the plan's opt-out of the strict limit policy.
    spec_limits: bool,
    /// `--assume-exact-out`.
    pub(crate) assume_exact_out: bool,
}

impl OrderArgs {
    /// Takes `flag` (and its value) when it is one of this file's.
    pub(crate) fn parse(
        &mut self,
        flag: &str,
        value: &mut dyn FnMut(&str) -> Result<String, String>,
    ) -> Result<bool, String> {
        match flag {
            "--order" => self.order = Some(value(flag)?),
            "--verify" => self.verify = Some(value(flag)?),
            "--read" => {
                let text = value(flag)?;
                self.read = Some(match text.as_str() {
                    "created" => OrderRead::Created,
                    "fetched" => OrderRead::Fetched,
                    _ => return Err(format!("--read {text:?}: expected created or fetched")),
                });
            }
            "--spec-limits" => self.spec_limits = true,
            "--assume-exact-out" => self.assume_exact_out = true,
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// `true` when an order is to be planned.
    pub(crate) fn planning(&self) -> bool {
        self.order.is_some()
    }

    /// The flags that only make sense with `--order`.
    ///
    /// # Errors
    /// `--verify`, `--read` or `--spec-limits` without `--order`.
    pub(crate) fn check(&self) -> Result<(), String> {
        if self.order.is_none()
            && (self.verify.is_some() || self.read.is_some() || self.spec_limits)
        {
            return Err("--verify, --read and --spec-limits need --order".to_owned());
        }
        if self.verify.is_none() && self.read.is_some() {
            return Err("--read needs --verify".to_owned());
        }
        Ok(())
    }

    /// The rates with the capability assumed when asked (ruling 4).
    pub(crate) fn rates(&self, rates: RatesResponse) -> RatesResponse {
        if self.assume_exact_out {
            rates.assume_exact_out()
        } else {
            rates
        }
    }
}

/// What an ExactOut plan refused for the capability says (no live rate lists
/// `"exactOut"`; ruling 4 lets the caller state it).
const HINT: &str = "no rate lists \"exactOut\" in its features (no live rate does); \
if the providers support exact output, pass --assume-exact-out (ruling 4)";

/// The line a ranking's text gains under `--assume-exact-out`.
pub(crate) const ASSUMED_LINE: &str =
    "ExactOut capability assumed for every non-sponsored rate (--assume-exact-out; ruling 4)\n";

fn read(path: &str, what: &str) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("cannot read {what} {path:?}: {e}"))
}

/// Plans the order (and verifies the created one); the exit status.
pub(crate) fn run(
    args: &Args,
    now: EpochMillis,
    rates: &RatesResponse,
) -> Result<ExitCode, String> {
    let order_args = &args.order;
    let path = order_args.order.as_deref().ok_or("--order needs a file")?;
    let mut body: Value = serde_json::from_str(&read(path, "order body")?)
        .map_err(|e| format!("--order: not JSON: {e}"))?;
    if let (Some(slippage), Some(object)) = (args.slippage, body.as_object_mut()) {
        object.insert(
            "slippage".to_owned(),
            Value::String(slippage.percent().to_string()),
        );
    }
    let request: FixedOrderRequest = match serde_json::from_value(body) {
        Ok(request) => request,
        Err(e) => return Err(format!("--order: not a valid order body: {e}")),
    };
    let listing: Option<AssetsResponse> = match &args.assets {
        Some(path) => Some(
            serde_json::from_str(&read(path, "assets file")?)
                .map_err(|e| format!("assets are not a valid assets listing: {e}"))?,
        ),
        None => None,
    };
    let screening = ScreeningPolicy::new();
    let guard = args.guard.guard()?;
    let mut context = OrderContext::new(now, &screening)
        .with_campaigns(&args.campaigns)
        .with_limit_policy(if order_args.spec_limits {
            LimitPolicy::Spec
        } else {
            LimitPolicy::Strict
        });
    if let Some(guard) = &guard {
        context = context.with_price_guard(guard);
    }
    if let Some(listing) = &listing {
        let records = listing
            .pair_assets(request.pair_id())
            .map_err(|e| format!("--assets: {e}"))?;
        context = context.with_assets(records);
    }
    let created: Option<Order> = match &order_args.verify {
        Some(path) => Some(
            serde_json::from_str(&read(path, "created order")?)
                .map_err(|e| format!("--verify: not an order resource: {e}"))?,
        ),
        None => None,
    };
    if let Some(path) = &args.lifetime.requote {
        return super::lifetime::requote(path, &request, rates, &context, args.json);
    }
    let plan = match request.plan(rates, &context) {
        Ok(plan) => plan,
        Err(error) => {
            let until = request.route_request(&context).valid_until(rates);
            let error = ApiError::from(error);
            refused(args, &error, until);
            return Ok(ExitCode::from(2));
        }
    };
    let valid_until = plan_valid_until(&plan, &request, &context, rates, guard.is_some());
    let mut planned = plan_json(&plan, &request, order_args.assume_exact_out);
    super::lifetime::plan_keys(&mut planned, &request, valid_until);
    if let (Some(amount), Some(at)) = (args.lifetime.deposit, args.lifetime.observed_at) {
        super::lifetime::deposit(&plan, &planned, amount, at, args.json);
        return Ok(ExitCode::SUCCESS);
    }
    let read = order_args.read.unwrap_or_default();
    let verified = created
        .as_ref()
        .map(|order| plan.verify_screened(&request, order, read, &screening));
    if args.json {
        let report = json!({
            "plan": planned,
            "verify": verified.as_ref().map(verify_json),
            "validUntil": valid_until.as_millis(),
        });
        emit(&format!("{report}\n"));
    } else {
        let mut text = plan_text(&plan, &request, verified.as_ref());
        let _ = writeln!(text, "valid until: {}", valid_until.as_millis());
        emit(&text);
    }
    Ok(match verified {
        Some(Err(_)) => ExitCode::from(3),
        _ => ExitCode::SUCCESS,
    })
}

/// What the order promises: ExactIn, the plan's floored output; ExactOut,
/// the body's exact `toAmount`.
fn promised(plan: &FixedOrderPlan<'_>, request: &FixedOrderRequest) -> String {
    plan.promised_output()
        .map_or_else(|| dec(request.to_amount().get()), dec)
}

fn plan_json(plan: &FixedOrderPlan<'_>, request: &FixedOrderRequest, assumed: bool) -> Value {
    let mut out = json!({
        "rateId": plan.rate_id().as_str(),
        "amount": dec(plan.amount()),
        "promisedOutput": promised(plan, request),
        "addressesChecked": plan.addresses_checked(),
    });
    if assumed {
        if let Some(object) = out.as_object_mut() {
            object.insert(
                "exactOutAssumed".to_owned(),
                Value::Bool(plan.route().rate().is_exact_out_assumed()),
            );
        }
    }
    out
}

fn verify_json(result: &Result<(), OrderMismatches>) -> Value {
    match result {
        Ok(()) => json!({"ok": true, "mismatches": []}),
        Err(mismatches) => json!({
            "ok": false,
            "mismatches": mismatches.all().iter().map(|m| json!({
                "field": m.field.as_str(),
                "planned": m.planned.value(),
                "returned": m.returned,
            })).collect::<Vec<_>>(),
        }),
    }
}

fn plan_text(
    plan: &FixedOrderPlan<'_>,
    request: &FixedOrderRequest,
    verified: Option<&Result<(), OrderMismatches>>,
) -> String {
    let pair = request.pair_id();
    let mut text = format!(
        "plan: rate {}, amount {} {}, promised output {} {}\n",
        plan.rate_id(),
        dec(plan.amount()),
        pair.from(),
        promised(plan, request),
        pair.to()
    );
    if plan.route().rate().is_exact_out_assumed() {
        text.push_str("  ExactOut capability assumed (--assume-exact-out; ruling 4)\n");
    }
    text.push_str(if plan.addresses_checked() {
        "  addresses: checked against their assets' networks\n"
    } else {
        "  addresses: not checked against networks (networks unknown: give --assets)\n"
    });
    for warning in plan.warnings() {
        let _ = writeln!(text, "  warning: {warning}");
    }
    match verified {
        None => {}
        Some(Ok(())) => text.push_str("verify: ok\n"),
        Some(Err(mismatches)) => {
            let _ = writeln!(text, "verify: {} mismatches", mismatches.all().len());
            for m in mismatches.all() {
                let _ = writeln!(
                    text,
                    "  {}: planned {}, returned {}",
                    m.field,
                    m.planned,
                    m.returned
                        .as_deref()
                        .map_or("none".to_owned(), |r| format!("{r:?}"))
                );
            }
        }
    }
    text
}

/// Ruling 50: the plan's rate holds until it expires (nothing overtakes
/// it); a median guard may change the choice sooner.
fn plan_valid_until(
    plan: &FixedOrderPlan<'_>,
    request: &FixedOrderRequest,
    context: &OrderContext<'_>,
    rates: &RatesResponse,
    guarded: bool,
) -> EpochMillis {
    let expiry = plan.route().rate().expiry();
    if guarded {
        request
            .route_request(context)
            .valid_until(rates)
            .map_or(expiry, |until| until.min(expiry))
    } else {
        expiry
    }
}

/// A refused plan: the error (with the hint when no rate supports
/// ExactOut) and `"validUntil"` (ruling 50).
fn refused(args: &Args, error: &ApiError, until: Option<EpochMillis>) {
    let order_args = &args.order;
    let hint = (error.code() == ErrorCode::UnsupportedSwapMode && !order_args.assume_exact_out)
        .then_some(HINT);
    if args.json {
        let mut body = json!({"plan": null, "verify": null, "error": {
            "status": error.http_status().as_u16(),
            "code": error.code().as_str(),
            "details": error.details(),
        }, "validUntil": super::lifetime::instant(until)});
        if let (Some(object), Some(hint)) = (body.as_object_mut(), hint) {
            object.insert("hint".to_owned(), Value::String(hint.to_owned()));
        }
        emit(&format!("{body}\n"));
    } else {
        let mut text = format!(
            "no plan: {} ({}): {}\n",
            error.code(),
            error.http_status(),
            error.details()
        );
        if let Some(hint) = hint {
            let _ = writeln!(text, "hint: {hint}");
        }
        emit(&text);
    }
}
