//! Command-line front end of the route-selection engine.
//!
//! ```text
//! cargo run --release -p swaproute-cli -- [--rates FILE|-] [--mode ExactIn|ExactOut]
//!     [--from-amount DEC] [--to-amount DEC] [--now EPOCH_MS] [--campaign ID=LIMIT]...
//!     [--top K] [--strict-limits] [--slippage P] [--assets FILE] [--json]
//!     [--max-deviation-bps B [--reference M]]
//! cargo run --release -p swaproute-cli -- --rates FILE [--rates FILE]... --from ASSET
//!     --to ASSET [--max-legs N] [--mode ..] [--from-amount DEC | --to-amount DEC] ..
//! ```
//!
//! With `--from` and `--to` it ranks chained routes (ruling 24) over every
//! `--rates` file given (one pair each): one line per leg, the best `--top`
//! chains (default 10) and as many rejections, with counts by reason.
//!
//! With `--assets FILE` (an assets listing, `GET /v3/assets`), the records of
//! the rates' pair's two assets hold the exact amount (`--from-amount` in
//! ExactIn, `--to-amount` in ExactOut) to its asset's `decimals`, as an order
//! plan does; an asset missing from the listing, or a finer amount, is bad
//! input.
//!
//! In ExactOut each route shows whether its required input (the order's
//! amount) lies within the rate's limits; `--strict-limits` makes a route
//! whose required input lies outside them ineligible (ruling 23).
//!
//! `--slippage P` (a percentage, 0 to 100) holds the best route to the
//! client's estimate as an order plan does (ruling 33): in ExactIn with
//! `--to-amount`, its net output rounded down to 8 places must be at least
//! `toAmount × (100 − P) / 100`; in ExactOut with `--from-amount`, its
//! required input at most `fromAmount × (100 + P) / 100`. A best route that
//! misses the bound is reported (`SLIPPAGE_EXCEEDED`, with the bound and what
//! is available; as the report's `"error"` with `--json`, the routes kept) and
//! the exit status is 2, as for "no route". Without `--slippage` nothing is
//! bounded.
//!
//! `--max-deviation-bps B [--reference M]` turns on the price guard (rulings
//! 40-42, guard.rs): a rate whose multiplier deviates from `M` (or else the
//! median multiplier of the rates that can serve some amount) by more than
//! `B` basis points is rejected `PRICE_OUTLIER`. Like the campaigns, the
//! limit policy and the floors, it holds every question (ruling 41): the
//! ranking, the ExactOut estimate, `--split` and each leg, `--feasible`, and
//! each leg of a chain (`--from/--to`, a median per pair).
//!
//! `--split [--split-legs 2|3] [--per-order-cost C] [--min-gain-bps B]`
//! (ExactIn): when no single route serves `--from-amount`, the exact best
//! split over 2 or 3 of the rates (ruling 39), each leg's amount, net output
//! and where it stops (`max` or `remainder`); with `--min-gain-bps`, also a
//! split that beats the best single route by that much. With `--json` the
//! report gains `"split"`: `{"legs":[{"rateId","fromAmount","netOutput","stop"}],
//! "netOutput","gainBps"}`, or `null` when no split is returned (`routes` and
//! `error` still describe the single routes; `"splitError"`, when the search
//! stops at its work limit, ruling 48: `SEARCH_EXHAUSTED`). The price guard
//! applies to every leg (ruling 41); with `--assets`, every leg's amount
//! lies on the from asset's grid (ruling 48).
//!
//! `--order BODY.json [--verify CREATED.json [--read created|fetched]]` plans
//! a fixed order and verifies what the service created; `--assume-exact-out`
//! takes every non-sponsored rate as ExactOut-capable (ruling 4) and the
//! answer says so (order.rs; exit 3 when the created order differs).
//!
//! Ruling 50 (lifetime.rs): every `--json` answer has `"validUntil"` (epoch
//! ms, `null` when nothing can expire: the chosen route's expiry, the top
//! K's earliest with `--top`, the split's, the chain's; a "no route" holds
//! until every rate has expired). `--schedule` adds
//! `"schedule":[{"from","until","rateId"}]`, the best route's successors
//! until every rate has expired (`rateId` null for no route). `--order
//! BODY.json --requote PLAN.json` re-plans at `--now` and prints
//! `"requote":{"class","promised","fresh","lossBps","reason"}` against the
//! plan `--order … --json` printed (its `plan` has `"slippageBound"`);
//! `--order BODY.json --deposit AMOUNT --observed-at MS` prints
//! `"deposit":{"class","expectedOutput","limit","expiry"}`; `--track FILE
//! [--seed N]` prints `"track":[{"at","status","definitive","outcome",
//! "nextPollMs"}]` (`nextPollMs`: the wait before the next read).
//!
//! Exit status: 0 with a route (or a split), 2 when no route is left, 1 on bad input (a
//! message on stderr, nothing on stdout). With no arguments at all it ranks the
//! bundled sample at `--from-amount 0.5`.
#![allow(
    clippy::print_stdout,
    clippy::print_stderr,
    clippy::arithmetic_side_effects
)]

use std::fmt::Write as _;
use std::io::{Read, Write as _};
use std::process::ExitCode;
use std::time::{SystemTime, UNIX_EPOCH};

use serde_json::{json, Value};
use swaproute::discovery::AssetsResponse;
use swaproute::route::{
    estimate_exact_out_under, Estimate, Floors, LimitCheck, LimitPolicy, NoRoute, Policy, Route,
    RouteRequest, Selection,
};
use swaproute::{
    Amount, ApiError, AssetId, CampaignId, CampaignLimits, Decimal, EpochMillis, RatesResponse,
    Slippage, SlippageError, SwapMode,
};

/// The bundled sample, so the command line runs from any directory.
const SAMPLE_RATES: &str = include_str!("../data/rates.json");

mod chain;
mod feasible;
mod guard;
mod lifetime;
mod order;
mod split;

pub(crate) const USAGE: &str =
    "usage: swaproute [--rates FILE|-]... [--mode ExactIn|ExactOut] [--from-amount DEC] \
[--to-amount DEC] [--now EPOCH_MS] [--campaign ID=LIMIT]... [--top K] [--strict-limits] \
[--slippage P] [--assets FILE] [--from ASSET --to ASSET [--max-legs N]] [--dust DEC] [--fee-multiple DEC] \
[--max-fee-share-bps N] [--feasible [--spendable DEC]] [--max-deviation-bps B [--reference M]] \
[--split [--split-legs 2|3] [--per-order-cost DEC] [--min-gain-bps N]] [--assume-exact-out] \
[--order BODY.json [--spec-limits] [--verify CREATED.json [--read created|fetched]] \
[--requote PLAN.json | --deposit AMOUNT --observed-at MS]] [--schedule] [--track FILE [--seed N] [--promised DEC]] [--json]";

/// What the command line asked for.
pub(crate) struct Args {
    /// `--rates`, in the order given (one pair each; a single one without
    /// `--from`/`--to`).
    rates: Vec<String>,
    /// `--from` / `--to`: rank chains between these assets.
    from: Option<AssetId>,
    to: Option<AssetId>,
    max_legs: Option<usize>,
    mode: SwapMode,
    from_amount: Option<Amount>,
    to_amount: Option<Amount>,
    now: Option<EpochMillis>,
    campaigns: CampaignLimits,
    top: Option<usize>,
    limit_policy: LimitPolicy,
    /// `--slippage`: the bound on the best route (ruling 33), when given.
    slippage: Option<Slippage>,
    assets: Option<String>,
    json: bool,
    /// `--feasible`: which amounts work (ruling 38).
    feasible: bool,
    spendable: Option<Amount>,
    floors: Floors,
    /// `--max-deviation-bps` / `--reference`: the price guard (ruling 40).
    guard: guard::GuardArgs,
    /// `--split` and its options (ruling 39).
    split: split::SplitArgs,
    /// `--order`, `--verify`, `--assume-exact-out` (order.rs).
    order: order::OrderArgs,
    /// `--schedule`, `--requote`, `--deposit`, `--track` (lifetime.rs).
    lifetime: lifetime::LifetimeArgs,
}

fn main() -> ExitCode {
    match run() {
        Ok(code) => code,
        Err(message) => {
            eprintln!("route: {message}");
            ExitCode::from(1)
        }
    }
}

/// With no arguments at all, the command line ranks the bundled sample at this
/// amount, so `cargo run --release -p swaproute-cli` shows something useful.
const DEMO_ARGS: [&str; 2] = ["--from-amount", "0.5"];

fn run() -> Result<ExitCode, String> {
    let mut words: Vec<String> = std::env::args().skip(1).collect();
    if words.is_empty() {
        eprintln!(
            "route: no arguments, so ranking the bundled sample at --from-amount 0.5 (see --help)"
        );
        words = DEMO_ARGS.iter().map(|w| (*w).to_owned()).collect();
    }
    let Some(args) = parse_args(words.into_iter())? else {
        emit(&format!("{USAGE}\n"));
        return Ok(ExitCode::SUCCESS);
    };
    let now = match args.now {
        Some(now) => now,
        None => system_now()?,
    };
    if args.feasible
        && (args.from.is_some()
            || args.to.is_some()
            || args.from_amount.is_some()
            || args.to_amount.is_some())
    {
        return Err(format!(
            "--feasible answers for every amount of one pair: drop --from/--to and the amounts\n{USAGE}"
        ));
    }
    if args.split.on && (args.feasible || args.from.is_some() || args.to.is_some()) {
        return Err(format!(
            "--split serves one pair's amount: drop --feasible and --from/--to\n{USAGE}"
        ));
    }
    args.order.check()?;
    args.lifetime.check(args.order.planning())?;
    if let Some(path) = &args.lifetime.track {
        // Tracking reads observations, not rates.
        return lifetime::track(
            path,
            args.now,
            (args.lifetime.seed.unwrap_or(0), args.lifetime.promised),
            args.json,
        );
    }
    if args.lifetime.schedule && (args.order.planning() || args.feasible || args.from.is_some()) {
        return Err(format!(
            "--schedule follows one pair's best route: drop --order, --feasible and --from/--to\n{USAGE}"
        ));
    }
    if (args.order.planning() || args.order.assume_exact_out)
        && (args.from.is_some() || args.to.is_some() || args.feasible || args.split.on)
    {
        return Err(format!(
            "--order and --assume-exact-out work on one pair's ranking: drop --from/--to, --feasible and --split\n{USAGE}"
        ));
    }
    if args.from.is_some() || args.to.is_some() {
        if args.slippage.is_some() {
            return Err(format!(
                "--slippage bounds single-pair routes only\n{USAGE}"
            ));
        }
        return chain::run(&args, now);
    }
    if args.max_legs.is_some() {
        return Err(format!("--max-legs needs --from and --to\n{USAGE}"));
    }
    if args.rates.len() > 1 {
        return Err(format!(
            "several --rates files need --from and --to (chained routes)\n{USAGE}"
        ));
    }
    let text = read_rates(args.rates.first().map(String::as_str))?;
    let rates: RatesResponse = serde_json::from_str(&text)
        .map_err(|e| format!("rates are not a valid rates response: {e}"))?;
    let rates = args.order.rates(rates);
    if args.order.planning() {
        return order::run(&args, now, &rates);
    }
    if args.feasible {
        return feasible::run(&args, now, &rates);
    }
    if args.spendable.is_some() {
        return Err(format!("--spendable needs --feasible\n{USAGE}"));
    }
    if let Some(path) = &args.assets {
        check_precision(&args, path, &rates)?;
    }
    rank(&args, now, &rates)
}

/// The single-pair ranking (ExactOut without `--from-amount` estimates it
/// first), with `--slippage` on the best route; exit 2 for "no route".
fn rank(args: &Args, now: EpochMillis, rates: &RatesResponse) -> Result<ExitCode, String> {
    let price_guard = args.guard.guard()?;
    // The caller's whole policy (ruling 41), for the estimate and the ranking alike.
    let policy = Policy::DEFAULT
        .with_campaigns(&args.campaigns)
        .with_limit_policy(args.limit_policy)
        .with_floors(args.floors);
    let policy = policy.with_price_guard(price_guard.as_ref());
    let mut estimate: Option<Estimate<'_>> = None;
    let request = match args.mode {
        SwapMode::ExactIn => {
            let from = args.from_amount.ok_or("ExactIn needs --from-amount")?;
            let request = RouteRequest::exact_in(from, now);
            match args.to_amount {
                Some(to) => request.with_to_amount(to),
                None => request,
            }
        }
        SwapMode::ExactOut => {
            let to = args.to_amount.ok_or("ExactOut needs --to-amount")?;
            match args.from_amount {
                Some(from) => RouteRequest::exact_out(from, to, now),
                None => match estimate_exact_out_under(rates, to, now, policy) {
                    Ok(found) => {
                        estimate = Some(found);
                        found.request(to, now)
                    }
                    Err(no_route) => {
                        let (until, schedule) =
                            lifetime::of_no_estimate(args, rates, (to, now), policy);
                        report_no_route(args, None, &no_route, until, schedule);
                        return Ok(ExitCode::from(2));
                    }
                },
            }
        }
    }
    .with_policy(policy);

    let selection = request.select(rates);
    // Ruling 50: the shown answer's lifetime, and the schedule when asked.
    let (mut valid_until, schedule) =
        lifetime::of_ranking(args, &request, rates, estimate.as_ref())?;
    let missed = slippage_missed(args.slippage, &request, &selection)?;
    let split_policy = split::on_grid(args.split.policy(args)?, args, rates)?;
    let (split, split_error) = match split_policy {
        Some(policy) => split::answer(&request, rates, &policy),
        None => (None, None),
    };
    if args.json {
        let mut report = json_report(args, estimate.as_ref(), &selection)?;
        if let (Some(object), true) = (report.as_object_mut(), split_policy.is_some()) {
            let split_json = split::json_until(split.as_ref(), &request, rates, &mut valid_until)?;
            object.insert("split".to_owned(), split_json);
            if let Some(error) = &split_error {
                object.insert("splitError".to_owned(), split::error_json(error));
            }
        }
        if let (Some(object), Some(error)) = (report.as_object_mut(), &missed) {
            // A best route that misses the bound is the report's error.
            let body = serde_json::to_value(error.to_body())
                .map_err(|e| format!("cannot encode the report: {e}"))?;
            object.insert("error".to_owned(), body);
        }
        if let (Some(object), Some(guard)) = (report.as_object_mut(), &price_guard) {
            object.insert(
                "priceGuard".to_owned(),
                guard::to_json(guard, &request, rates),
            );
        }
        if let (Some(object), true) = (report.as_object_mut(), args.order.assume_exact_out) {
            object.insert("exactOutAssumed".to_owned(), Value::Bool(true));
        }
        lifetime::insert(&mut report, valid_until, schedule.as_ref());
        emit(&format!("{report}\n"));
    } else {
        let mut text = print_table(&request, estimate.as_ref(), &selection, args.top);
        if let Some(guard) = &price_guard {
            text.insert_str(0, &guard::describe(guard, &request, rates));
        }
        if args.order.assume_exact_out {
            text.insert_str(0, order::ASSUMED_LINE);
        }
        if split_policy.is_some() {
            split::text(&mut text, split.as_ref(), split_error.as_ref());
        }
        if let Some(error) = &missed {
            let _ = writeln!(
                text,
                "slippage: {} ({}): {}",
                error.code(),
                error.http_status(),
                error.details()
            );
        }
        lifetime::text(&mut text, valid_until, schedule.as_ref());
        emit(&text);
    }
    Ok(
        if (selection.no_route().is_some() && split.is_none()) || missed.is_some() {
            ExitCode::from(2)
        } else {
            ExitCode::SUCCESS
        },
    )
}

/// `--slippage` on the best route (ruling 33; it never changes the
/// ranking): the error when the route misses the bound. A bound too precise
/// to report is bad input.
fn slippage_missed(
    slippage: Option<Slippage>,
    request: &RouteRequest<'_>,
    selection: &Selection<'_>,
) -> Result<Option<ApiError>, String> {
    let (Some(slippage), Some(best)) = (slippage, selection.best()) else {
        return Ok(None);
    };
    match slippage.check_route(request, best) {
        Ok(()) => Ok(None),
        Err(error @ SlippageError::Unrepresentable { .. }) => Err(format!("--slippage: {error}")),
        Err(error) => Ok(Some(error.into())),
    }
}

/// A floor flag (ruling 38) into `floors`: `false` when `flag` is none.
fn parse_floor(
    flag: &str,
    value: &mut impl FnMut(&str) -> Result<String, String>,
    floors: &mut Floors,
) -> Result<bool, String> {
    match flag {
        "--dust" => *floors = floors.with_dust(amount("--dust", &value("--dust")?)?),
        "--fee-multiple" => {
            let k = amount("--fee-multiple", &value("--fee-multiple")?)?;
            *floors = floors.with_fee_multiple(k);
        }
        "--max-fee-share-bps" => {
            let text = value("--max-fee-share-bps")?;
            let bps: u32 = text.parse().map_err(|_| {
                format!("--max-fee-share-bps {text:?} is not a whole number of basis points")
            })?;
            *floors = floors.with_max_fee_share_bps(bps);
        }
        _ => return Ok(false),
    }
    Ok(true)
}

fn parse_args(mut words: impl Iterator<Item = String>) -> Result<Option<Args>, String> {
    let mut args = Args {
        rates: Vec::new(),
        from: None,
        to: None,
        max_legs: None,
        mode: SwapMode::ExactIn,
        from_amount: None,
        to_amount: None,
        now: None,
        campaigns: CampaignLimits::new(),
        top: None,
        limit_policy: LimitPolicy::Spec,
        slippage: None,
        assets: None,
        json: false,
        feasible: false,
        spendable: None,
        floors: Floors::NONE,
        guard: guard::GuardArgs::default(),
        split: split::SplitArgs::default(),
        order: order::OrderArgs::default(),
        lifetime: lifetime::LifetimeArgs::default(),
    };
    while let Some(flag) = words.next() {
        let mut value = |name: &str| {
            words
                .next()
                .ok_or_else(|| format!("{name} needs a value\n{USAGE}"))
        };
        match flag.as_str() {
            "-h" | "--help" => return Ok(None),
            "--json" => args.json = true,
            f if args.split.parse(f, &mut value)? => {}
            f if args.order.parse(f, &mut value)? => {}
            f if args.lifetime.parse(f, &mut value)? => {}
            "--feasible" => args.feasible = true,
            "--spendable" => args.spendable = Some(amount("--spendable", &value("--spendable")?)?),
            f if parse_floor(f, &mut value, &mut args.floors)? => {}
            "--strict-limits" => args.limit_policy = LimitPolicy::Strict,
            "--slippage" => {
                let text = value("--slippage")?;
                // The body's grammar: a decimal string, 0 to 100.
                args.slippage = Some(
                    serde_json::from_value(Value::String(text.clone()))
                        .map_err(|e| format!("--slippage {text:?}: {e}"))?,
                );
            }
            "--rates" => args.rates.push(value("--rates")?),
            "--from" => args.from = Some(asset("--from", &value("--from")?)?),
            "--to" => args.to = Some(asset("--to", &value("--to")?)?),
            "--max-legs" => {
                let text = value("--max-legs")?;
                args.max_legs = Some(
                    text.parse()
                        .map_err(|_| format!("--max-legs {text:?} is not a count"))?,
                );
            }
            "--assets" => args.assets = Some(value("--assets")?),
            "--mode" => {
                let text = value("--mode")?;
                args.mode = text.parse().map_err(|e| format!("--mode {text:?}: {e}"))?;
            }
            "--from-amount" => {
                args.from_amount = Some(amount("--from-amount", &value("--from-amount")?)?);
            }
            "--to-amount" => args.to_amount = Some(amount("--to-amount", &value("--to-amount")?)?),
            "--now" => {
                let text = value("--now")?;
                let millis: u64 = text
                    .parse()
                    .map_err(|_| format!("--now {text:?} is not epoch milliseconds"))?;
                args.now = Some(EpochMillis::new(millis));
            }
            "--campaign" => {
                let text = value("--campaign")?;
                // Ids may contain '=' (base64); a decimal limit never does.
                let (id, limit) = text
                    .rsplit_once('=')
                    .ok_or_else(|| format!("--campaign {text:?} is not ID=LIMIT"))?;
                let id = CampaignId::new(id)
                    .map_err(|e| format!("--campaign {text:?}: campaign id: {e}"))?;
                args.campaigns
                    .insert(id, amount("--campaign limit", limit)?);
            }
            "--top" => {
                let text = value("--top")?;
                args.top = Some(
                    text.parse()
                        .map_err(|_| format!("--top {text:?} is not a count"))?,
                );
            }
            other if args.guard.parse(other, &mut value)? => {}
            other => return Err(format!("unknown argument {other:?}\n{USAGE}")),
        }
    }
    Ok(Some(args))
}

/// `--assets`: the exact amount must fit its asset's decimals (the rates'
/// pair's records from the listing), as in an order plan.
fn check_precision(args: &Args, path: &str, rates: &RatesResponse) -> Result<(), String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read assets file {path:?}: {e}"))?;
    let listing: AssetsResponse = serde_json::from_str(&text)
        .map_err(|e| format!("assets are not a valid assets listing: {e}"))?;
    let Some(pair) = rates.pair_id() else {
        return Ok(()); // no rates, no pair: nothing to hold an amount to
    };
    let records = listing
        .pair_assets(pair)
        .map_err(|e| format!("--assets: {e}"))?;
    let checked = match args.mode {
        SwapMode::ExactIn => args.from_amount.map(|a| {
            records
                .check_from(&a)
                .map_err(|e| format!("--from-amount {e}"))
        }),
        SwapMode::ExactOut => args
            .to_amount
            .map(|a| records.check_to(&a).map_err(|e| format!("--to-amount {e}"))),
    };
    checked.unwrap_or(Ok(()))
}

/// Writes to stdout; a closed pipe (`route | head`) is not an error worth a panic.
pub(crate) fn emit(text: &str) {
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
}

fn asset(name: &str, text: &str) -> Result<AssetId, String> {
    AssetId::new(text).map_err(|e| format!("{name} {text:?} is not an asset id: {e}"))
}

fn amount(name: &str, text: &str) -> Result<Amount, String> {
    text.parse()
        .map_err(|e| format!("{name} {text:?} is not a decimal amount: {e}"))
}

/// The pair's records from an assets listing (`--assets`).
pub(crate) fn pair_records(path: &str, rates: &RatesResponse) -> Result<Option<(u8, u8)>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read assets file {path:?}: {e}"))?;
    let listing: AssetsResponse = serde_json::from_str(&text)
        .map_err(|e| format!("assets are not a valid assets listing: {e}"))?;
    let Some(pair) = rates.pair_id() else {
        return Ok(None);
    };
    let records = listing
        .pair_assets(pair)
        .map_err(|e| format!("--assets: {e}"))?;
    Ok(Some((
        records.from().decimals.get(),
        records.to().decimals.get(),
    )))
}

pub(crate) fn read_rates(path: Option<&str>) -> Result<String, String> {
    match path {
        None => Ok(SAMPLE_RATES.to_owned()),
        Some("-") => {
            let mut text = String::new();
            std::io::stdin()
                .read_to_string(&mut text)
                .map_err(|e| format!("cannot read rates from stdin: {e}"))?;
            Ok(text)
        }
        Some(path) => std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read rates file {path:?}: {e}")),
    }
}

fn system_now() -> Result<EpochMillis, String> {
    let since = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_err(|e| format!("system clock: {e}"))?;
    let millis = u64::try_from(since.as_millis()).map_err(|e| format!("system clock: {e}"))?;
    Ok(EpochMillis::new(millis))
}

/// Decimal text without insignificant trailing zeros.
pub(crate) fn dec(value: Decimal) -> String {
    value.normalize().to_string()
}

/// The selection as the crate serializes it, with the estimate (`null` unless
/// the estimator ran) and the error (`null` with a route).
fn json_report(
    args: &Args,
    estimate: Option<&Estimate<'_>>,
    selection: &Selection<'_>,
) -> Result<Value, String> {
    let encode = |e: serde_json::Error| format!("cannot encode the report: {e}");
    let mut report = serde_json::to_value(selection).map_err(encode)?;
    let object = report
        .as_object_mut()
        .ok_or("a selection encodes as an object")?;
    if let (Some(k), Some(Value::Array(routes))) = (args.top, object.get_mut("routes")) {
        routes.truncate(k);
    }
    object.insert(
        "estimate".to_owned(),
        serde_json::to_value(estimate).map_err(encode)?,
    );
    object.insert(
        "error".to_owned(),
        selection.no_route().map_or(Value::Null, error_json),
    );
    Ok(report)
}

/// The table's limits column: `-` in ExactIn, `ok`, `< min 0.01`, `> max 3.5`.
fn limits_cell(route: &Route<'_>) -> String {
    match route.required_input_limits() {
        None => "-".to_owned(),
        Some(LimitCheck::BelowMin { min }) => format!("< min {}", dec(min)),
        Some(LimitCheck::AboveMax { max }) => format!("> max {}", dec(max)),
        Some(_) => "ok".to_owned(),
    }
}

fn error_json(no_route: &NoRoute) -> Value {
    let error = no_route.to_api_error();
    let mut body = json!({
        "status": error.http_status().as_u16(),
        "code": error.code().as_str(),
        "details": error.details(),
    });
    if let Some(object) = body.as_object_mut() {
        no_route_keys(object, no_route);
    }
    body
}

/// A "no route"'s typed fields in the error object: `min`, `max`, the
/// amount that works nearest (`working`: `{"field","amount","asset"}`,
/// ruling 38 amending ruling 10) and the floor that refused every route
/// (`floor`, its reason code).
pub(crate) fn no_route_keys(object: &mut serde_json::Map<String, Value>, no_route: &NoRoute) {
    if let Some(min) = no_route.min() {
        object.insert("min".into(), Value::String(dec(min)));
    }
    if let Some(max) = no_route.max() {
        object.insert("max".into(), Value::String(dec(max)));
    }
    if let Some(working) = no_route.working_amount() {
        object.insert(
            "working".into(),
            json!({
                "field": working.field().as_str(),
                "amount": working.amount().to_string(),
                "asset": working.asset().as_str(),
            }),
        );
    }
    if let NoRoute::BelowFloors { floor, .. } = no_route {
        object.insert("floor".into(), Value::String(floor.code().to_owned()));
    }
}

/// No route before ranking (the ExactOut estimator found none).
fn report_no_route(
    args: &Args,
    from_amount: Option<Amount>,
    no_route: &NoRoute,
    valid_until: Option<EpochMillis>,
    schedule: Option<Value>,
) {
    if args.json {
        let mut report = json!({
            "mode": args.mode.as_str(),
            "fromAmount": from_amount.map(|a| a.to_string()),
            "toAmount": args.to_amount.map(|a| a.to_string()),
            "estimate": null,
            "routes": [],
            "rejected": [],
            "error": error_json(no_route),
            "validUntil": lifetime::instant(valid_until),
        });
        if let (Some(object), Some(schedule)) = (report.as_object_mut(), schedule) {
            object.insert("schedule".to_owned(), schedule);
        }
        emit(&format!("{report}\n"));
    } else {
        let error = no_route.to_api_error();
        emit(&format!(
            "no route: {} ({}): {}\n",
            error.code(),
            error.http_status(),
            error.details()
        ));
    }
}

pub(crate) fn short(id: &str) -> String {
    const KEEP: usize = 18;
    if id.chars().count() <= KEEP {
        id.to_owned()
    } else {
        let head: String = id.chars().take(KEEP - 1).collect();
        format!("{head}…")
    }
}

fn print_rejected(out: &mut String, selection: &Selection<'_>) {
    if selection.rejected().is_empty() {
        return;
    }
    let _ = writeln!(out);
    let _ = writeln!(out, "rejected:");
    for rejection in selection.rejected() {
        let _ = writeln!(
            out,
            "  {:<18}  {:<24}  {}",
            short(rejection.rate().id().as_str()),
            rejection.reason().code(),
            rejection.reason()
        );
    }
}

fn print_table(
    request: &RouteRequest<'_>,
    estimate: Option<&Estimate<'_>>,
    selection: &Selection<'_>,
    top: Option<usize>,
) -> String {
    let mut out = String::new();
    let to = request
        .to_amount()
        .map_or_else(|| "-".to_owned(), |a| a.to_string());
    let _ = writeln!(
        out,
        "mode {}  fromAmount {}  toAmount {}",
        request.mode(),
        request.from_amount(),
        to
    );
    if let Some(estimate) = estimate {
        let _ = writeln!(
            out,
            "ExactOut estimate: {} (via {})",
            estimate.from_amount(),
            short(estimate.rate().id().as_str())
        );
    }
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "{:>4}  {:<18}  {:>20}  {:>12}  {:>12}  {:>14}  {:>22}  {:>14}  {:<18}  sponsored by",
        "rank",
        "rate id",
        "multiplier",
        "miner fee",
        "min",
        "max",
        "net output",
        "required in",
        "in limits"
    );
    let shown = top.map_or(selection.routes(), |k| selection.top(k));
    for (at, route) in shown.iter().enumerate() {
        let rate = route.rate();
        let max = if route.effective_max() < rate.max() {
            format!("{}*", dec(route.effective_max()))
        } else {
            dec(rate.max())
        };
        let _ = writeln!(
            out,
            "{:>4}  {:<18}  {:>20}  {:>12}  {:>12}  {:>14}  {:>22}  {:>14}  {:<18}  {}",
            at + 1,
            short(rate.id().as_str()),
            dec(rate.multiplier()),
            dec(rate.miner_fee()),
            dec(rate.min()),
            max,
            dec(route.net_output()),
            route
                .required_input()
                .map_or_else(|| "-".to_owned(), |r| r.to_string()),
            limits_cell(route),
            rate.sponsored_by_campaign_id()
                .map_or("-", CampaignId::as_str),
        );
    }
    if shown.is_empty() {
        let _ = writeln!(out, "   (none)");
    }
    print_rejected(&mut out, selection);
    let _ = writeln!(out);
    match (selection.best(), selection.no_route()) {
        (Some(best), _) => {
            let _ = writeln!(
                out,
                "chosen: {} (net output {}{})",
                best.rate().id(),
                dec(best.net_output()),
                best.required_input()
                    .map_or_else(String::new, |r| format!(", send {r}"))
            );
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
