//! A bounded load test on loopback (ignored by default; server/README.md has
//! the figures and the command): 5,000 order creations at concurrency 64,
//! then 20,000 mixed reads (an order by id, the rates, a route) at
//! concurrency 64, against each database. Reports throughput and p50/p99
//! latency. Every request must succeed; the run is bounded in count, and
//! each request in time (30 s). Then, in the same run, the two
//! probes with its own parameters: the hoarding probe (20 clients, a
//! kept-alive `/healthz` every 5 s, `--max-connections 20`) and the stall
//! probe (2 and 4 splits over the 16,384-rate ramp book,
//! `--request-timeout 5000`).
//!
//! `cargo test --release -p swaproute-server --test http -- --ignored --nocapture load`
//!
//! With `SWAPROUTE_TEST_SERVER_BIN=PATH` the load phases (not the probes) run
//! against that binary instead: an earlier build, to compare figures taken
//! in the same conditions.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::common::{agent, call, databases, key, order_body, Server};

const CREATIONS: usize = 5_000;
const READS: usize = 20_000;
const CONCURRENCY: usize = 64;

struct Phase {
    name: &'static str,
    latencies: Vec<Duration>,
    elapsed: Duration,
}

impl Phase {
    fn report(&mut self, db: &str) {
        self.latencies.sort_unstable();
        let at = |q: usize| {
            let i = (self.latencies.len().saturating_sub(1)) * q / 100;
            self.latencies[i].as_secs_f64() * 1000.0
        };
        println!(
            "{db:8} {:22} {:6} requests in {:6.2} s: {:7.0} req/s, p50 {:6.2} ms, p99 {:6.2} ms",
            self.name,
            self.latencies.len(),
            self.elapsed.as_secs_f64(),
            self.latencies.len() as f64 / self.elapsed.as_secs_f64(),
            at(50),
            at(99),
        );
    }
}

/// Runs `count` requests over `CONCURRENCY` threads; `request(n)` makes
/// request `n` and returns whether it succeeded.
fn phase(
    name: &'static str,
    count: usize,
    request: impl Fn(&ureq::Agent, usize) -> bool + Sync,
) -> Phase {
    let next = AtomicUsize::new(0);
    let latencies = Mutex::new(Vec::with_capacity(count));
    let started = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..CONCURRENCY {
            scope.spawn(|| {
                let agent = agent();
                let mut mine = Vec::new();
                loop {
                    let n = next.fetch_add(1, Ordering::Relaxed);
                    if n >= count {
                        break;
                    }
                    let t = Instant::now();
                    assert!(request(&agent, n), "{name}: request {n} failed");
                    mine.push(t.elapsed());
                }
                latencies.lock().unwrap().extend(mine);
            });
        }
    });
    Phase {
        name,
        latencies: latencies.into_inner().unwrap(),
        elapsed: started.elapsed(),
    }
}

#[test]
#[ignore = "a load test: run it in release with --ignored --nocapture"]
fn load() {
    for db in databases() {
        let pool = CONCURRENCY.to_string();
        let dir = crate::common::TempDir::new();
        let server = Server::start_logging_to(&db, &["--db-pool", &pool], &dir.0.join("log"));
        let base = server.base.clone();
        let run = key();
        let body = order_body("0.5", "16.5", "ExactIn");
        let ids = Mutex::new(Vec::with_capacity(CREATIONS));
        let mut create = phase("create (keyed)", CREATIONS, |agent, n| {
            let key = format!("{run}-{n}");
            let headers = [("App-Name", "load"), ("Idempotency-Key", key.as_str())];
            let answer = call(agent, &base, "POST", "/v3/orders", &headers, Some(&body));
            if answer.status == 201 {
                ids.lock()
                    .unwrap()
                    .push(answer.body["id"].as_str().unwrap_or("").to_owned());
            }
            answer.status == 201
        });
        create.report(db.name());
        let ids = ids.into_inner().unwrap();
        let mut reads = phase("mixed reads", READS, |agent, n| {
            let headers = [("App-Name", "load")];
            let path = match n % 4 {
                0 | 1 => format!("/v3/orders/{}", ids[n % ids.len()]),
                2 => "/v3/pairs/BTC_ETH/rates".to_owned(),
                _ => "/v3/pairs/BTC_ETH/route?fromAmount=0.5".to_owned(),
            };
            call(agent, &base, "GET", &path, &headers, None).status == 200
        });
        reads.report(db.name());
    }
    if std::env::var("SWAPROUTE_TEST_SERVER_BIN").is_ok() {
        return; // another build: the load phases only
    }
    let db = &databases()[0];
    let hoarding = crate::fairness::hoarding_probe(
        db,
        20,
        20,
        Duration::from_secs(5),
        Duration::from_secs(6),
        10,
    );
    let mut real = hoarding.real.clone();
    real.sort_unstable();
    println!(
        "hoarding: 20 clients, /healthz every 5 s kept alive, --max-connections 20: \
         10 real requests, median {:.1} ms, slowest {:.1} ms; {} evictions, {} hoarder reconnects",
        real[real.len() / 2].as_secs_f64() * 1000.0,
        real[real.len() - 1].as_secs_f64() * 1000.0,
        hoarding.evicted,
        hoarding.reconnects
    );
    for splits in [2, 4] {
        let stall = crate::fairness::stall_probe(db, 16_384, splits, 5_000);
        let answers: Vec<String> = stall
            .splits
            .iter()
            .map(|(status, _, took)| format!("{status} in {:.2} s", took.as_secs_f64()))
            .collect();
        println!(
            "stall: {splits} splits at 10 BTC over 16,384 ramp rates, --request-timeout 5000: \
             answers {}; slowest of {} /healthz {:.1} ms, of as many quotes {:.1} ms",
            answers.join(", "),
            stall.healths,
            stall.slowest_health.as_secs_f64() * 1000.0,
            stall.slowest_route.as_secs_f64() * 1000.0
        );
    }
}
