//! `--from ASSET --to ASSET`: chained routes over every `--rates` file.

use std::fmt::Write as _;
use std::process::ExitCode;

use serde_json::{json, Value};
use swaproute::route::chain::{Chain, ChainNoRoute, ChainRequest, ChainSelection, Market};
use swaproute::{EpochMillis, RatesResponse, SwapMode};

use super::{dec, emit, read_rates, short, Args, USAGE};

/// How many chains and rejections are shown without `--top`.
const SHOWN: usize = 10;

/// Ranks the chains the arguments ask for; exit 0 with a chain, 2 without.
pub(crate) fn run(args: &Args, now: EpochMillis) -> Result<ExitCode, String> {
    let (Some(from), Some(to)) = (&args.from, &args.to) else {
        return Err(format!("chains need both --from and --to\n{USAGE}"));
    };
    if args.rates.is_empty() {
        return Err(format!("chains need a --rates file for each pair\n{USAGE}"));
    }
    if args.assets.is_some() {
        return Err("--assets applies to a single pair's amounts, not to chains".to_owned());
    }
    if args.limit_policy != swaproute::route::LimitPolicy::Spec {
        return Err(
            "--strict-limits is for a single pair: every leg of a chain already holds its required input to its limits (ruling 24)"
                .to_owned(),
        );
    }
    let mut responses: Vec<RatesResponse> = Vec::with_capacity(args.rates.len());
    for path in &args.rates {
        let text = read_rates(Some(path))?;
        let response: RatesResponse = serde_json::from_str(&text)
            .map_err(|e| format!("{path}: not a valid rates response: {e}"))?;
        responses.push(response);
    }
    let market = Market::new(responses.iter(), &args.campaigns, now).map_err(|e| e.to_string())?;
    let request = match args.mode {
        SwapMode::ExactIn => ChainRequest::exact_in(
            from.clone(),
            to.clone(),
            args.from_amount.ok_or("ExactIn needs --from-amount")?,
            now,
        ),
        SwapMode::ExactOut => ChainRequest::exact_out(
            from.clone(),
            to.clone(),
            args.to_amount.ok_or("ExactOut needs --to-amount")?,
            now,
        ),
    };
    let request = request.with_floors(args.floors);
    // The guard holds every leg, with a median per pair (rulings 41, 42).
    let request = match args.guard.guard()? {
        Some(guard) => request.with_price_guard(guard),
        None => request,
    };
    let request = request
        .with_max_legs(
            args.max_legs
                .unwrap_or(swaproute::route::chain::DEFAULT_MAX_LEGS),
        )
        .map_err(|e| format!("--max-legs: {e}"))?;
    let selection = request.select(&market, args.top.unwrap_or(SHOWN));
    let valid_until = valid_until(&request, &selection, &responses, now);
    if args.json {
        let mut report = json_report(&selection)?;
        if let Some(object) = report.as_object_mut() {
            object.insert(
                "validUntil".to_owned(),
                super::lifetime::instant(valid_until),
            );
        }
        if let (Some(object), Some(guard)) = (report.as_object_mut(), request.price_guard()) {
            // A median guard has one reference per pair: none to print here.
            object.insert(
                "priceGuard".to_owned(),
                json!({
                    "maxDeviationBps": guard.max_deviation_bps(),
                    "reference": guard.reference().map(ToString::to_string),
                    "source": if guard.reference().is_some() { "caller" } else { "median per pair" },
                }),
            );
        }
        emit(&format!("{report}\n"));
    } else {
        let mut text = table(&request, &selection);
        if let Some(guard) = request.price_guard() {
            let around = guard.reference().map_or_else(
                || "each pair's median".to_owned(),
                |r| format!("the reference {r}"),
            );
            text.insert_str(
                0,
                &format!(
                    "price guard: {} bps around {around}\n",
                    guard.max_deviation_bps()
                ),
            );
        }
        emit(&text);
    }
    Ok(if selection.no_route().is_some() {
        ExitCode::from(2)
    } else {
        ExitCode::SUCCESS
    })
}

/// The selection as the crate serializes it, with the error (`null` with a chain).
fn json_report(selection: &ChainSelection<'_>) -> Result<Value, String> {
    let mut report =
        serde_json::to_value(selection).map_err(|e| format!("cannot encode the report: {e}"))?;
    let object = report
        .as_object_mut()
        .ok_or("a selection encodes as an object")?;
    object.insert(
        "error".to_owned(),
        selection.no_route().map_or(Value::Null, error_json),
    );
    Ok(report)
}

fn error_json(no_route: &ChainNoRoute) -> Value {
    let error = no_route.to_api_error();
    let mut body = json!({
        "status": error.http_status().as_u16(),
        "code": error.code().as_str(),
        "details": error.details(),
    });
    if let (Some(object), ChainNoRoute::FirstLeg(first)) = (body.as_object_mut(), no_route) {
        super::no_route_keys(object, first);
    }
    body
}

fn table(request: &ChainRequest, selection: &ChainSelection<'_>) -> String {
    let mut out = String::new();
    let amount = match request.mode() {
        SwapMode::ExactIn => format!(
            "fromAmount {}",
            request
                .from_amount()
                .map_or_else(String::new, |a| a.to_string())
        ),
        SwapMode::ExactOut => format!(
            "toAmount {}",
            request
                .to_amount()
                .map_or_else(String::new, |a| a.to_string())
        ),
    };
    let _ = writeln!(
        out,
        "mode {}  {} -> {}  {}  at most {} legs",
        request.mode(),
        request.from(),
        request.to(),
        amount,
        request.max_legs()
    );
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "{:>4}  {:<10}  {:<18}  {:>22}  {:>24}",
        "rank", "pair", "rate id", "input", "output"
    );
    for (at, chain) in selection.chains().iter().enumerate() {
        for (leg_at, leg) in chain.legs().iter().enumerate() {
            let rank = if leg_at == 0 {
                (at + 1).to_string()
            } else {
                String::new()
            };
            let _ = writeln!(
                out,
                "{:>4}  {:<10}  {:<18}  {:>22}  {:>24}",
                rank,
                leg.pair_id().as_str(),
                short(leg.rate().id().as_str()),
                dec(leg.input()),
                dec(leg.output())
            );
        }
        let _ = writeln!(out, "      {}", score_line(chain));
    }
    if selection.chains().is_empty() {
        let _ = writeln!(out, "   (none)");
    }
    if !selection.rejected().is_empty() {
        let _ = writeln!(out);
        let _ = writeln!(out, "rejected (the ones that got furthest first):");
        for rejection in selection.rejected() {
            let legs: Vec<&str> = rejection.pair_ids().iter().map(|p| p.as_str()).collect();
            let _ = writeln!(
                out,
                "  {:<26}  leg {}  {:<18}  {:<24}  {}",
                legs.join(" > "),
                rejection.leg(),
                short(rejection.rate().id().as_str()),
                rejection.reason().code(),
                rejection.reason()
            );
        }
        let counts: Vec<String> = selection
            .rejected_counts()
            .iter()
            .map(|(code, count)| format!("{code} {count}"))
            .collect();
        let _ = writeln!(out, "  counts: {}", counts.join(", "));
    }
    let _ = writeln!(out);
    match (selection.chains().first(), selection.no_route()) {
        (Some(best), _) => {
            let pairs: Vec<&str> = best.legs().iter().map(|l| l.pair_id().as_str()).collect();
            let _ = writeln!(out, "chosen: {} ({})", pairs.join(" > "), score_line(best));
        }
        (None, Some(no_route)) => {
            let error = no_route.to_api_error();
            let _ = writeln!(
                out,
                "no route: {} ({}): {}",
                error.code(),
                error.http_status(),
                error.details()
            );
        }
        (None, None) => {
            let _ = writeln!(out, "no route");
        }
    }
    out
}

fn score_line(chain: &Chain<'_>) -> String {
    let score = match (chain.final_output(), chain.required_input()) {
        (Some(output), _) => format!("final output {}", dec(output)),
        (None, Some(input)) => format!("send {input}"),
        (None, None) => String::new(),
    };
    format!("{score}, expires {}", chain.expiry().as_millis())
}

/// Ruling 50: the best chain holds until its earliest leg expires (under a
/// median guard, no later than the first expiry of any pair's rates); "no
/// route" until every rate has expired.
fn valid_until(
    request: &ChainRequest,
    selection: &ChainSelection<'_>,
    responses: &[RatesResponse],
    now: EpochMillis,
) -> Option<EpochMillis> {
    let guarded: Vec<&[swaproute::Rate]> = match request.price_guard() {
        Some(guard) if guard.reference().is_none() => {
            responses.iter().map(RatesResponse::rates).collect()
        }
        _ => Vec::new(),
    };
    match selection.chains().first() {
        Some(best) => Some(swaproute::route::chain_valid_until(best, now, &guarded)),
        None => responses
            .iter()
            .flat_map(|r| r.rates().iter().map(swaproute::Rate::expiry))
            .filter(|expiry| *expiry > now)
            .max(),
    }
}
