//! Ruling 51's two probes, over HTTP. The stall probe: splits over a hard
//! book (16,384 ramp rates) run off the connection threads, so
//! `--request-timeout` answers in time and `/healthz` within a second while
//! they run. The hoarding probe: 20 clients keeping connections alive with a
//! `/healthz` every few seconds hold every slot of `--max-connections 20`;
//! a real request is still answered at once.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use crate::common::{databases, Server, TempDir};

/// The hard book: rate `i` has multiplier `1 + i·10⁻⁶`, miner fee
/// `i·5·10⁻⁶`, limits `[0, 6]`, so at 10 BTC almost every pair of rates is
/// within a hair of the best split.
pub fn ramp_book(n: usize) -> String {
    let rates: Vec<serde_json::Value> = (0..n)
        .map(|i| {
            serde_json::json!({
                "amount": {"assetId": "ETH", "value": 1.0 + i as f64 * 1e-6},
                "expiry": 4_102_444_800_000_u64,
                "id": format!("ramp-{i}"),
                "max": {"assetId": "BTC", "value": 6},
                "min": {"assetId": "BTC", "value": 0},
                "minerFee": {"assetId": "ETH", "value": i as f64 * 5e-6},
                "pairId": "BTC_ETH"
            })
        })
        .collect();
    serde_json::to_string(&rates).unwrap()
}

/// What the stall probe measured.
#[derive(Debug)]
pub struct Stall {
    /// Each split's answer: status, code, time.
    pub splits: Vec<(u16, serde_json::Value, Duration)>,
    /// The slowest `/healthz` while they ran, and how many were made.
    pub slowest_health: Duration,
    pub healths: usize,
    /// The slowest quote (5 BTC: one best route, a light job) made after
    /// each `/healthz`.
    pub slowest_route: Duration,
}

/// The stall probe: `splits` simultaneous splits at 10 BTC over the ramp
/// book of `rates` rates, on a server with `--request-timeout timeout_ms`,
/// and a `/healthz` and a quote (5 BTC) every 100 ms from 300 ms
/// after they start until they are all answered.
pub fn stall_probe(db: &crate::common::Db, rates: usize, splits: usize, timeout_ms: u64) -> Stall {
    let dir = TempDir::new();
    let book = dir.0.join("ramp.json");
    std::fs::write(&book, ramp_book(rates)).unwrap();
    let timeout = timeout_ms.to_string();
    let server = Server::start(
        db,
        &[
            "--rates",
            book.to_str().unwrap(),
            "--request-timeout",
            &timeout,
        ],
    );
    let done = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..splits)
            .map(|_| {
                let server = &server;
                scope.spawn(move || {
                    let started = Instant::now();
                    let answer = server.get("/v3/pairs/BTC_ETH/route?fromAmount=10&split=true");
                    (
                        answer.status,
                        answer.body["code"].clone(),
                        started.elapsed(),
                    )
                })
            })
            .collect();
        let health = scope.spawn(|| {
            std::thread::sleep(Duration::from_millis(300));
            let mut slowest = Duration::ZERO;
            let mut slowest_route = Duration::ZERO;
            let mut count = 0;
            while !done.load(Ordering::SeqCst) || count < 5 {
                let started = Instant::now();
                let answer = server.call("GET", "/healthz", &[], None);
                assert_eq!(answer.status, 200);
                slowest = slowest.max(started.elapsed());
                let started = Instant::now();
                let route = server.get("/v3/pairs/BTC_ETH/quotes?amount=5");
                assert_eq!(route.status, 200, "{}", route.text);
                slowest_route = slowest_route.max(started.elapsed());
                count += 1;
                std::thread::sleep(Duration::from_millis(100));
            }
            (slowest, count, slowest_route)
        });
        let splits = handles.into_iter().map(|h| h.join().unwrap()).collect();
        done.store(true, Ordering::SeqCst);
        let (slowest_health, healths, slowest_route) = health.join().unwrap();
        Stall {
            splits,
            slowest_health,
            healths,
            slowest_route,
        }
    })
}

#[test]
fn heavy_splits_neither_stall_healthz_nor_outlive_the_request_timeout() {
    let stall = stall_probe(&databases()[0], 16_384, 4, 2_000);
    for (status, code, took) in &stall.splits {
        // Answered in time: the split's own answer, or 503 at the deadline.
        assert!(*took < Duration::from_secs(3), "{took:?} {status} {code}");
        if *status == 503 {
            assert_eq!(code, "SERVICE_UNAVAILABLE");
        }
    }
    eprintln!("stall probe: {stall:?}");
    assert!(
        stall.slowest_health < Duration::from_secs(1),
        "{:?}",
        stall.slowest_health
    );
    // Splits take at most half the CPU turns: a quote (a light job) is
    // answered while they run.
    assert!(
        stall.slowest_route < Duration::from_secs(1),
        "{:?}",
        stall.slowest_route
    );
}

/// A request on a kept-alive connection; `None` when the server closed it.
fn keep_alive_health(stream: &mut BufReader<TcpStream>) -> Option<()> {
    stream
        .get_mut()
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        .ok()?;
    let mut length = 0;
    let mut line = String::new();
    loop {
        line.clear();
        if stream.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let lower = line.to_ascii_lowercase();
        if let Some(value) = lower.strip_prefix("content-length:") {
            length = value.trim().parse().ok()?;
        }
        if line == "\r\n" {
            break;
        }
    }
    let mut body = vec![0_u8; length];
    stream.read_exact(&mut body).ok()?;
    Some(())
}

/// What the hoarding probe measured.
#[derive(Debug)]
pub struct Hoarding {
    /// Each real request's time.
    pub real: Vec<Duration>,
    /// How often a hoarder found its connection closed and reconnected.
    pub reconnects: usize,
    /// `swaproute_connections_evicted_total` at the end.
    pub evicted: u64,
}

/// The hoarding probe: `clients` clients, each a kept-alive connection with
/// a `GET /healthz` every `every` (reconnecting when closed), at
/// `--max-connections cap`; after `settle`, `real` requests on new
/// connections, 300 ms apart.
pub fn hoarding_probe(
    db: &crate::common::Db,
    clients: usize,
    cap: usize,
    every: Duration,
    settle: Duration,
    real: usize,
) -> Hoarding {
    let cap = cap.to_string();
    let server = Server::start(db, &["--max-connections", &cap]);
    let stop = AtomicBool::new(false);
    let reconnects = AtomicUsize::new(0);
    let real = std::thread::scope(|scope| {
        for _ in 0..clients {
            let (addr, stop, reconnects) = (&server.addr, &stop, &reconnects);
            scope.spawn(move || {
                let deadline = Instant::now() + settle + Duration::from_secs(60);
                while !stop.load(Ordering::SeqCst) && Instant::now() < deadline {
                    let Ok(stream) = TcpStream::connect(addr) else {
                        std::thread::sleep(Duration::from_millis(100));
                        continue;
                    };
                    stream
                        .set_read_timeout(Some(Duration::from_secs(10)))
                        .unwrap();
                    let mut stream = BufReader::new(stream);
                    while keep_alive_health(&mut stream).is_some() {
                        let until = Instant::now() + every;
                        while Instant::now() < until {
                            if stop.load(Ordering::SeqCst) {
                                return;
                            }
                            std::thread::sleep(Duration::from_millis(50));
                        }
                    }
                    reconnects.fetch_add(1, Ordering::Relaxed);
                }
            });
        }
        // Every slot taken, then real requests on new connections.
        std::thread::sleep(settle);
        let mut times = Vec::new();
        for _ in 0..real {
            let started = Instant::now();
            let agent = crate::common::agent();
            let answer = crate::common::call(
                &agent,
                &server.base,
                "GET",
                "/v3/pairs/BTC_ETH/rates",
                &[("App-Name", "real")],
                None,
            );
            assert_eq!(answer.status, 200);
            times.push(started.elapsed());
            std::thread::sleep(Duration::from_millis(300));
        }
        stop.store(true, Ordering::SeqCst);
        times
    });
    let metrics = server.call("GET", "/metrics", &[], None).text;
    let evicted = metrics
        .lines()
        .find_map(|l| l.strip_prefix("swaproute_connections_evicted_total "))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or(0);
    Hoarding {
        real,
        reconnects: reconnects.load(Ordering::Relaxed),
        evicted,
    }
}

/// 20 clients keeping connections alive with a `/healthz` every 2 s at
/// `--max-connections 20`: a real request on a new connection is answered
/// within a second (it waited past 25 s).
#[test]
fn clients_keeping_connections_alive_cannot_hold_every_slot() {
    let probe = hoarding_probe(
        &databases()[0],
        20,
        20,
        Duration::from_secs(2),
        Duration::from_millis(1_500),
        5,
    );
    eprintln!("hoarding probe: {probe:?}");
    let slowest = probe.real.iter().max().unwrap();
    assert!(*slowest < Duration::from_secs(1), "{slowest:?}");
    assert!(probe.evicted >= 1, "{probe:?}");
}
