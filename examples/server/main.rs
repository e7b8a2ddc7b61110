//! A reference HTTP server over swaproute: one pair's rates, routes, orders in
//! memory. A reference, not a product: no provider is called, orders vanish
//! when it stops, the deposit address is a stand-in. Usage: see [`USAGE`].
#![allow(clippy::print_stdout, clippy::print_stderr)]

mod app;

const USAGE: &str = "usage: server [--rates FILE] [--listen ADDR] [--now EPOCH_MS]";

#[tokio::main]
async fn main() {
    if let Err(message) = run().await {
        eprintln!("server: {message}");
        std::process::exit(1);
    }
}

async fn run() -> Result<(), String> {
    let (mut rates, mut listen, mut now) = (None, "127.0.0.1:8080".to_owned(), None);
    let mut words = std::env::args().skip(1);
    while let Some(flag) = words.next() {
        let mut value = || words.next().ok_or(format!("{flag} needs a value\n{USAGE}"));
        match flag.as_str() {
            "--rates" => rates = Some(value()?),
            "--listen" => listen = value()?,
            "--now" => now = Some(value()?.parse().map_err(|_| "--now: not epoch ms")?),
            "-h" | "--help" => {
                println!("{USAGE}");
                return Ok(());
            }
            _ => return Err(format!("unknown argument {flag:?}\n{USAGE}")),
        }
    }
    let text = match rates {
        Some(path) => std::fs::read_to_string(&path).map_err(|e| format!("{path}: {e}"))?,
        None => include_str!("../data/rates.json").to_owned(),
    };
    let rates = serde_json::from_str(&text).map_err(|e| format!("rates: {e}"))?;
    let listener = tokio::net::TcpListener::bind(&listen).await;
    let listener = listener.map_err(|e| format!("{listen}: {e}"))?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    println!("listening on http://{addr}");
    let router = app::router(app::Server::new(
        rates,
        now.map(swaproute::EpochMillis::new),
    ));
    let served = axum::serve(listener, router).await;
    served.map_err(|e| e.to_string())
}
