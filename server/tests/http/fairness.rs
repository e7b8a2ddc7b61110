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

#[test]
fn heavy_splits_neither_stall_healthz_nor_outlive_the_request_timeout() {
    let db = &databases()[0];
    let dir = TempDir::new();
    let book = dir.0.join("ramp.json");
    std::fs::write(&book, ramp_book(16_384)).unwrap();
    let server = Server::start(
        db,
        &[
            "--rates",
            book.to_str().unwrap(),
            "--request-timeout",
            "2000",
        ],
    );
    let done = AtomicBool::new(false);
    let slowest_health = std::thread::scope(|scope| {
        let splits: Vec<_> = (0..4)
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
            let mut count = 0;
            while !done.load(Ordering::SeqCst) || count < 5 {
                let started = Instant::now();
                let answer = server.call("GET", "/healthz", &[], None);
                assert_eq!(answer.status, 200);
                slowest = slowest.max(started.elapsed());
                count += 1;
                std::thread::sleep(Duration::from_millis(100));
            }
            slowest
        });
        for split in splits {
            let (status, code, took) = split.join().unwrap();
            // Answered in time: the split's own answer, or 503 at the deadline.
            assert!(took < Duration::from_secs(3), "{took:?} {status} {code}");
            if status == 503 {
                assert_eq!(code, "SERVICE_UNAVAILABLE");
            }
        }
        done.store(true, Ordering::SeqCst);
        health.join().unwrap()
    });
    eprintln!("stall probe: slowest /healthz {slowest_health:?} while 4 splits ran");
    assert!(
        slowest_health < Duration::from_secs(1),
        "{slowest_health:?}"
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

/// The hoarding probe: 20 clients, each a kept-alive connection with a
/// `GET /healthz` every 2 s (reconnecting when closed), at
/// `--max-connections 20`. A real request on a new connection is answered
/// within a second (it waited past 25 s).
#[test]
fn clients_keeping_connections_alive_cannot_hold_every_slot() {
    let db = &databases()[0];
    let server = Server::start(db, &["--max-connections", "20"]);
    let stop = AtomicBool::new(false);
    let reconnects = AtomicUsize::new(0);
    let slowest = std::thread::scope(|scope| {
        for _ in 0..20 {
            let (addr, stop, reconnects) = (&server.addr, &stop, &reconnects);
            scope.spawn(move || {
                let deadline = Instant::now() + Duration::from_secs(20);
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
                        for _ in 0..20 {
                            if stop.load(Ordering::SeqCst) {
                                return;
                            }
                            std::thread::sleep(Duration::from_millis(100));
                        }
                    }
                    reconnects.fetch_add(1, Ordering::Relaxed);
                }
            });
        }
        // Every slot taken, then real requests on new connections.
        std::thread::sleep(Duration::from_millis(1_500));
        let mut slowest = Duration::ZERO;
        for _ in 0..5 {
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
            slowest = slowest.max(started.elapsed());
            std::thread::sleep(Duration::from_millis(300));
        }
        stop.store(true, Ordering::SeqCst);
        slowest
    });
    eprintln!(
        "hoarding probe: slowest real request {slowest:?}, {} hoarder reconnects",
        reconnects.load(Ordering::Relaxed)
    );
    assert!(slowest < Duration::from_secs(1), "{slowest:?}");
    let metrics = server.call("GET", "/metrics", &[], None).text;
    assert!(
        metrics
            .lines()
            .any(|l| l.starts_with("swaproute_connections_evicted_total ") && !l.ends_with(" 0")),
        "{metrics}"
    );
}
