//! swaproute-server: the reference HTTP service over the `swaproute` crate.
//! Each pair's rates and routes, chained routes, fixed and floating orders kept in SQLite (an
//! embedded file, the default) or PostgreSQL. Usage: see [`USAGE`] or
//! `swaproute-server --help`; server/README.md has the rest.
#![allow(clippy::print_stdout, clippy::print_stderr)]

mod app;
mod errors;
mod serve;
mod store;

use std::io::Write;
use std::time::Duration;

use serve::Limits;
use store::{Location, Store};
use swaproute::route::RatesByPair;

const USAGE: &str = "\
swaproute-server: the reference HTTP service over the swaproute crate

usage: swaproute-server [OPTIONS]

  --listen ADDR              address to listen on [127.0.0.1:8080]; port 0 picks one
  --database PATH|URL        where orders are kept [$SWAPROUTE_DATABASE, else
                               swaproute-orders.sqlite3]:
                               a file path or sqlite:// URL: SQLite (created on first start)
                               a postgres:// or postgresql:// URL: PostgreSQL
                               (a password is better in $SWAPROUTE_DATABASE than in
                               the command line, which other users can see)
  --rates FILE               one pair's rates (GET /v3/pairs/:pairId/rates JSON);
                               repeat for more pairs (chained routes use them all)
                               [the bundled BTC_ETH sample]
  --now EPOCH_MS             a fixed clock, for tests [the system clock]
  --max-connections N        open connections at most [1024, lowered to fit the
                               open-file limit]; past it, new clients wait
  --header-timeout MS        a request's headers must arrive within this, also on an
                               idle keep-alive connection [10000]
  --body-timeout MS          a request's body must arrive within this (408) [10000]
  --request-timeout MS       a request must be answered within this (503) [30000]
  --db-pool N                database connections at most [16]
  --shutdown-grace MS        on SIGTERM, how long requests in flight may take [30000]
  -h, --help                 this text

It prints `listening on http://ADDR` once it accepts connections.";

#[tokio::main]
async fn main() {
    if let Err(message) = run().await {
        eprintln!("swaproute-server: {message}");
        std::process::exit(1);
    }
}

/// The command line.
struct Options {
    listen: String,
    database: String,
    rates: Vec<String>,
    now: Option<u64>,
    max_connections: usize,
    header_timeout: Duration,
    body_timeout: Duration,
    request_timeout: Duration,
    db_pool: u32,
    shutdown_grace: Duration,
}

fn number<T: std::str::FromStr>(flag: &str, text: &str) -> Result<T, String> {
    text.parse()
        .map_err(|_| format!("{flag}: {:?} is not a number", errors::echo(text)))
}

fn positive_millis(flag: &str, text: &str) -> Result<Duration, String> {
    match number::<u64>(flag, text)? {
        0 => Err(format!("{flag}: must be at least 1")),
        millis => Ok(Duration::from_millis(millis)),
    }
}

/// The flags that take a value.
const VALUED: &[&str] = &[
    "--listen",
    "--database",
    "--rates",
    "--now",
    "--max-connections",
    "--header-timeout",
    "--body-timeout",
    "--request-timeout",
    "--shutdown-grace",
    "--db-pool",
];

/// `Ok(None)` for `--help`.
fn parse(mut words: impl Iterator<Item = String>) -> Result<Option<Options>, String> {
    let mut options = Options {
        listen: "127.0.0.1:8080".to_owned(),
        database: std::env::var("SWAPROUTE_DATABASE")
            .ok()
            .filter(|url| !url.is_empty())
            .unwrap_or_else(|| "swaproute-orders.sqlite3".to_owned()),
        rates: Vec::new(),
        now: None,
        max_connections: 1024,
        header_timeout: Duration::from_secs(10),
        body_timeout: Duration::from_secs(10),
        request_timeout: Duration::from_secs(30),
        db_pool: 16,
        shutdown_grace: Duration::from_secs(30),
    };
    while let Some(flag) = words.next() {
        if flag == "-h" || flag == "--help" {
            return Ok(None);
        }
        if !VALUED.contains(&flag.as_str()) {
            return Err(format!(
                "unknown argument {:?} (see --help)",
                errors::echo(&flag)
            ));
        }
        let value = words
            .next()
            .ok_or_else(|| format!("{} needs a value (see --help)", errors::echo(&flag)))?;
        match flag.as_str() {
            "--listen" => options.listen = value,
            "--database" => options.database = value,
            "--rates" => options.rates.push(value),
            "--now" => options.now = Some(number(&flag, &value)?),
            "--max-connections" => {
                options.max_connections = number(&flag, &value)?;
                if options.max_connections == 0 {
                    return Err("--max-connections: must be at least 1".to_owned());
                }
            }
            "--header-timeout" => options.header_timeout = positive_millis(&flag, &value)?,
            "--body-timeout" => options.body_timeout = positive_millis(&flag, &value)?,
            "--request-timeout" => options.request_timeout = positive_millis(&flag, &value)?,
            "--shutdown-grace" => options.shutdown_grace = positive_millis(&flag, &value)?,
            "--db-pool" => {
                options.db_pool = number(&flag, &value)?;
                if options.db_pool == 0 {
                    return Err("--db-pool: must be at least 1".to_owned());
                }
            }
            _ => {
                return Err(format!(
                    "unknown argument {:?} (see --help)",
                    errors::echo(&flag)
                ))
            }
        }
    }
    Ok(Some(options))
}

async fn run() -> Result<(), String> {
    let Some(options) = parse(std::env::args().skip(1))? else {
        // Not println!: `--help | head` must not panic on a closed pipe.
        let _ = writeln!(std::io::stdout(), "{USAGE}");
        return Ok(());
    };
    let mut responses = Vec::new();
    for path in &options.rates {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
        responses.push(serde_json::from_str(&text).map_err(|e| format!("{path}: {e}"))?);
    }
    if responses.is_empty() {
        let sample = include_str!("../../examples/data/rates.json");
        responses.push(serde_json::from_str(sample).map_err(|e| format!("rates: {e}"))?);
    }
    let rates = RatesByPair::from_responses(responses).map_err(|e| format!("--rates: {e}"))?;
    let location = Location::parse(&options.database)?;
    let store = Store::open(&location, options.db_pool)
        .await
        .map_err(|e| format!("database ({}): {}", location.shown(), e.text))?;
    // Leave room under the open-file limit for the database, the listener
    // and the process's own files.
    let mut max_connections = options.max_connections;
    if let Some(files) = serve::open_file_limit() {
        let reserve = usize::try_from(options.db_pool)
            .unwrap_or(usize::MAX)
            .saturating_add(32);
        let room = files.saturating_sub(reserve).max(1);
        if room < max_connections {
            eprintln!(
                "--max-connections {max_connections} lowered to {room}: the open-file limit is {files}"
            );
            max_connections = room;
        }
    }
    let listener = tokio::net::TcpListener::bind(&options.listen)
        .await
        .map_err(|e| format!("{}: {e}", options.listen))?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    let router = app::router(app::Server::new(
        rates,
        options.now.map(swaproute::EpochMillis::new),
        store.clone(),
        app::Timeouts {
            body: options.body_timeout,
            request: options.request_timeout,
        },
    ));
    eprintln!("orders in {}", location.shown());
    let _ = writeln!(std::io::stdout(), "listening on http://{addr}");
    let limits = Limits {
        header_timeout: options.header_timeout,
        max_connections,
        shutdown_grace: options.shutdown_grace,
    };
    serve::serve(listener, router, limits, serve::shutdown_signal()).await;
    store.close().await;
    eprintln!("stopped");
    Ok(())
}
