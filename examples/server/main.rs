//! A reference HTTP server over swaproute: the rates of one pair, routes,
//! and orders kept in memory. A reference, not a product: no provider is
//! called, orders vanish when it stops, and the deposit address is a stand-in.
//!
//! ```text
//! cargo run --release --example server -- [--rates FILE] [--listen ADDR] [--now EPOCH_MS]
//! ```
#![allow(clippy::print_stdout, clippy::print_stderr)]

mod app;

use std::process::ExitCode;

const USAGE: &str = "usage: server [--rates FILE] [--listen ADDR] [--now EPOCH_MS]";

#[tokio::main]
async fn main() -> ExitCode {
    match run().await {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("server: {message}");
            ExitCode::from(1)
        }
    }
}

async fn run() -> Result<(), String> {
    let (mut rates, mut listen, mut now) = (None, "127.0.0.1:8080".to_owned(), None);
    let mut words = std::env::args().skip(1);
    while let Some(flag) = words.next() {
        let mut value = || words.next().ok_or(format!("{flag} needs a value\n{USAGE}"));
        match flag.as_str() {
            "-h" | "--help" => {
                println!("{USAGE}");
                return Ok(());
            }
            "--rates" => rates = Some(value()?),
            "--listen" => listen = value()?,
            "--now" => {
                let text = value()?;
                let millis = text
                    .parse()
                    .map_err(|_| format!("--now {text:?} is not epoch ms"))?;
                now = Some(swaproute::EpochMillis::new(millis));
            }
            _ => return Err(format!("unknown argument {flag:?}\n{USAGE}")),
        }
    }
    let text = match rates {
        Some(path) => std::fs::read_to_string(&path).map_err(|e| format!("{path}: {e}"))?,
        None => include_str!("../data/rates.json").to_owned(),
    };
    let rates = serde_json::from_str(&text).map_err(|e| format!("rates: {e}"))?;
    let listener = tokio::net::TcpListener::bind(&listen)
        .await
        .map_err(|e| format!("cannot listen on {listen}: {e}"))?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    println!("listening on http://{addr}");
    axum::serve(listener, app::router(app::Server::new(rates, now)))
        .await
        .map_err(|e| e.to_string())
}
