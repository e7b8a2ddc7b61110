//! swaproute-server: the reference HTTP service over the `swaproute` crate.
//! Each pair's rates and routes, chained routes, fixed and floating orders kept in SQLite (an
//! embedded file, the default) or PostgreSQL. Usage: see [`USAGE`] or
//! `swaproute-server --help`; server/README.md has the rest.
#![allow(clippy::print_stdout, clippy::print_stderr)]

mod app;
mod book;
mod cpu;
mod errors;
mod observe;
mod orders;
mod serve;
mod state;
mod store;

use std::io::Write;
use std::sync::Arc;
use std::time::Duration;

use book::{Books, Sources};
use serve::{Conns, Limits};
use store::{Location, Store};

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
                               [the bundled BTC_ETH sample]; read again on SIGHUP
  --assets FILE              the asset records of every pair's assets (GET /v3/assets
                               JSON): addresses are checked against their asset's
                               network, amounts against its decimals [the bundled
                               records of BTC, ETH and SOL]; read again on SIGHUP
  --now EPOCH_MS             a fixed clock, for tests [the system clock]
  --max-connections N        open connections at most [1024, lowered to fit the
                               open-file limit]; past it, new clients wait
  --header-timeout MS        a request's headers must arrive within this, also on an
                               idle keep-alive connection [10000]
  --body-timeout MS          a request's body must arrive within this (408) [10000]
  --request-timeout MS       a request must be answered within this (503) [30000]
  --db-pool N                database connections at most [16]
  --cpu-jobs N               selection jobs at once, off the connection threads
                               [the number of cores]
  --shutdown-grace MS        on SIGTERM, how long requests in flight may take [30000]
  -h, --help                 this text

It prints `listening on http://ADDR` once it accepts connections, and logs one
JSON line per request on stderr. GET /metrics has Prometheus metrics.";

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
    assets: Option<String>,
    now: Option<u64>,
    max_connections: usize,
    header_timeout: Duration,
    body_timeout: Duration,
    request_timeout: Duration,
    db_pool: u32,
    cpu_jobs: usize,
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
    "--assets",
    "--now",
    "--max-connections",
    "--header-timeout",
    "--body-timeout",
    "--request-timeout",
    "--shutdown-grace",
    "--db-pool",
    "--cpu-jobs",
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
        assets: None,
        now: None,
        max_connections: 1024,
        header_timeout: Duration::from_secs(10),
        body_timeout: Duration::from_secs(10),
        request_timeout: Duration::from_secs(30),
        db_pool: 16,
        cpu_jobs: cpu::Cpu::default_jobs(),
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
            "--assets" => options.assets = Some(value),
            "--cpu-jobs" => {
                options.cpu_jobs = number(&flag, &value)?;
                if options.cpu_jobs == 0 {
                    return Err("--cpu-jobs: must be at least 1".to_owned());
                }
            }
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
    let books = Books::load(Sources {
        rates: options.rates.clone(),
        assets: options.assets.clone(),
    })?;
    observe::start_log();
    let metrics = Arc::new(observe::Metrics::new());
    let book = books.current();
    metrics.book(book.count());
    tracing::info!(book = %book.summary(), "rates loaded");
    warn_unchecked(&book);
    drop(book);
    let location = Location::parse(&options.database)?;
    let store = Store::open(&location, options.db_pool, Arc::clone(&metrics))
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
            tracing::warn!(
                "--max-connections {max_connections} lowered to {room}: the open-file limit is {files}"
            );
            max_connections = room;
        }
    }
    let listener = tokio::net::TcpListener::bind(&options.listen)
        .await
        .map_err(|e| format!("{}: {e}", options.listen))?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    let server = Arc::new(state::Server::new(
        books,
        options.now.map(swaproute::EpochMillis::new),
        store.clone(),
        state::Timeouts {
            body: options.body_timeout,
            request: options.request_timeout,
        },
        options.cpu_jobs,
        Arc::clone(&metrics),
        Arc::new(Conns::new()),
    ));
    let router = app::router(Arc::clone(&server));
    tokio::spawn(reload_on_hangup(Arc::clone(&server)));
    tracing::info!(
        database = %location.shown(),
        listen = %addr,
        max_connections,
        cpu_jobs = options.cpu_jobs,
        "started"
    );
    let _ = writeln!(std::io::stdout(), "listening on http://{addr}");
    let limits = Limits {
        header_timeout: options.header_timeout,
        max_connections,
        shutdown_grace: options.shutdown_grace,
    };
    serve::serve(
        listener,
        router,
        limits,
        Arc::clone(&server.conns),
        metrics,
        serve::shutdown_signal(),
    )
    .await;
    store.close().await;
    tracing::info!("stopped");
    Ok(())
}

/// Says which pairs' addresses are not checked against a network.
fn warn_unchecked(book: &book::Book) {
    for pair in book.unchecked() {
        tracing::warn!(
            pair = %pair,
            "no asset records for this pair (the bundled ones hold BTC, ETH and SOL): \
             its addresses are not checked against their network; give --assets FILE"
        );
    }
}

/// Reads the rates and asset records again on each SIGHUP and swaps the new
/// book in whole; a file that fails keeps the old book, and the log says
/// why.
async fn reload_on_hangup(server: Arc<state::Server>) {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        let Ok(mut hangups) = signal(SignalKind::hangup()) else {
            tracing::warn!("SIGHUP cannot be caught: rates are not reloaded");
            return;
        };
        while hangups.recv().await.is_some() {
            match server.books.reload() {
                Ok(book) => {
                    server.metrics.reload(true);
                    server.metrics.book(book.count());
                    tracing::info!(book = %book.summary(), "SIGHUP: rates reloaded");
                    warn_unchecked(&book);
                }
                Err(error) => {
                    server.metrics.reload(false);
                    tracing::error!(%error, "SIGHUP: reload refused; the old rates stay in force");
                }
            }
        }
    }
    #[cfg(not(unix))]
    let _ = server;
}
