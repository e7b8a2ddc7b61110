//! `--feasible`: which amounts work (ruling 38).

use std::fmt::Write as _;
use std::process::ExitCode;

use swaproute::route::{Feasible, FeasibleQuery, Policy, RouteRequest, Served};
use swaproute::{EpochMillis, RatesResponse};

use super::guard::{describe, to_json};
use super::{dec, emit, pair_records, short, Args};

/// Answers `--feasible` over one rates response; exit 0 whether or not an
/// amount works.
pub(crate) fn run(
    args: &Args,
    now: EpochMillis,
    rates: &RatesResponse,
) -> Result<ExitCode, String> {
    let guard = args.guard.guard()?;
    // The whole policy (ruling 41): the amounts named are the ones the
    // ranking serves under the same flags.
    let policy = Policy::DEFAULT
        .with_campaigns(&args.campaigns)
        .with_limit_policy(args.limit_policy)
        .with_floors(args.floors);
    let policy = policy.with_price_guard(guard.as_ref());
    let mut query = FeasibleQuery::new(args.mode, now).with_policy(policy);
    if let Some(path) = &args.assets {
        if let Some((from, to)) = pair_records(path, rates)? {
            query = query.with_decimals(from, to);
        }
    }
    let feasible = query.amounts(rates).map_err(|e| format!("rates: {e}"))?;
    // The guard's reference, as the ranking at any amount would find it.
    let probe = RouteRequest::exact_in(swaproute::Amount::ZERO, now).with_policy(policy);
    let probe = match args.mode {
        swaproute::SwapMode::ExactIn => probe,
        swaproute::SwapMode::ExactOut => {
            RouteRequest::exact_out(swaproute::Amount::ZERO, swaproute::Amount::ZERO, now)
                .with_policy(policy)
        }
    };
    if args.json {
        let mut report = serde_json::to_value(feasible.report(args.spendable))
            .map_err(|e| format!("cannot encode the report: {e}"))?;
        if let (Some(object), Some(guard)) = (report.as_object_mut(), &guard) {
            object.insert("priceGuard".to_owned(), to_json(guard, &probe, rates));
        }
        // Ruling 50: the amounts that work change when any live rate expires.
        if let Some(object) = report.as_object_mut() {
            object.insert(
                "validUntil".to_owned(),
                super::lifetime::instant(probe.select_valid_until(rates)),
            );
        }
        emit(&format!("{report}\n"));
    } else {
        let mut text = table(args, &feasible);
        if let Some(guard) = &guard {
            text.insert_str(0, &describe(guard, &probe, rates));
        }
        emit(&text);
    }
    Ok(ExitCode::SUCCESS)
}

fn line(out: &mut String, label: &str, served: Option<&Served<'_>>, net: bool) {
    let _ = match served {
        Some(s) if net => writeln!(
            out,
            "{label:<12} {}  via {}  (net output {})",
            s.amount(),
            short(s.rate().id().as_str()),
            dec(s.net_output())
        ),
        Some(s) => writeln!(
            out,
            "{label:<12} {}  via {}",
            s.amount(),
            short(s.rate().id().as_str())
        ),
        None => writeln!(out, "{label:<12} none"),
    };
}

fn table(args: &Args, feasible: &Feasible<'_>) -> String {
    let mut out = String::new();
    let unit = match feasible.mode() {
        swaproute::SwapMode::ExactIn => "fromAmount",
        swaproute::SwapMode::ExactOut => "toAmount",
    };
    let _ = writeln!(
        out,
        "mode {}: the {unit}s that work ({} places)",
        feasible.mode(),
        feasible.places()
    );
    line(&mut out, "smallest", feasible.min(), false);
    line(&mut out, "largest", feasible.max(), false);
    let ranges = feasible.ranges();
    if ranges.is_empty() {
        let _ = writeln!(out, "ranges       none");
    }
    for (at, range) in ranges.iter().enumerate() {
        let label = if at == 0 { "ranges" } else { "" };
        let _ = writeln!(out, "{label:<12} {} ..= {}", range.from(), range.to());
    }
    if let Some(balance) = args.spendable {
        let _ = writeln!(out, "spendable    {balance}");
        line(
            &mut out,
            "max within",
            feasible.max_within(balance).as_ref(),
            false,
        );
        line(
            &mut out,
            "best within",
            feasible.best_within(balance).as_ref(),
            true,
        );
    }
    out
}
