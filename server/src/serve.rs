//! The accept loop: HTTP/1.1 through hyper with a header read timeout, a cap
//! on open connections, and graceful shutdown.
//!
//! - A connection must deliver a request's whole header block within the
//!   header timeout, also while idle between keep-alive requests, or it is
//!   closed: half-sent and idle connections cannot pile up.
//! - At most `max_connections` are open; past that the server stops
//!   accepting (new clients wait in the kernel's backlog until one closes)
//!   instead of running out of file descriptors.
//! - On SIGTERM or Ctrl-C it stops accepting, lets every request in flight
//!   finish (up to the grace period), closes idle connections, and then the
//!   store's connections. An order is one INSERT, so nothing is half-written
//!   even when the grace period runs out or the process is killed.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

/// Connection limits.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Limits {
    /// A request's header block must arrive within this.
    pub(crate) header_timeout: Duration,
    /// At most this many connections at once.
    pub(crate) max_connections: usize,
    /// How long shutdown waits for requests in flight.
    pub(crate) shutdown_grace: Duration,
}

/// The read buffer for a header block (request line included): past it
/// hyper itself refuses the request, 431 with an empty body (hyper answers
/// requests it cannot parse before any handler runs), and closes the
/// connection. Hyper checks between reads, so a block somewhat larger can get
/// through (200 KB did, 300 KB did not). Up to this size a long path is
/// answered by the routes, in the JSON model, with its echo cut short.
const MAX_HEADER_BYTES: usize = 128 * 1024;

/// Serves `router` on `listener` until `shutdown` resolves, then drains.
pub(crate) async fn serve(
    listener: TcpListener,
    router: Router,
    limits: Limits,
    shutdown: impl Future<Output = ()>,
) {
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .max_buf_size(MAX_HEADER_BYTES)
        .keep_alive(true);
    let permits = Arc::new(Semaphore::new(limits.max_connections));
    let graceful = GracefulShutdown::new();
    tokio::pin!(shutdown);
    loop {
        let permit = tokio::select! {
            permit = permits.clone().acquire_owned() => match permit {
                Ok(permit) => permit,
                Err(_) => break,
            },
            () = &mut shutdown => break,
        };
        let stream = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                Err(error) => {
                    // Out of file descriptors, or a connection reset before it
                    // was accepted: wait a little instead of spinning.
                    eprintln!("accept: {error}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let _ = stream.set_nodelay(true);
        let connection = builder.serve_connection(
            TokioIo::new(stream),
            TowerToHyperService::new(router.clone()),
        );
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            let _ = connection.await;
            drop(permit);
        });
    }
    drop(listener);
    tokio::select! {
        () = graceful.shutdown() => {}
        () = tokio::time::sleep(limits.shutdown_grace) => {
            eprintln!("shutdown: requests still in flight after {:?}; stopping", limits.shutdown_grace);
        }
    }
}

/// Resolves on SIGTERM or Ctrl-C (SIGINT).
pub(crate) async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {}
        () = terminate => {}
    }
}

/// The process's soft limit on open files, where the system says (Linux's
/// `/proc/self/limits`).
pub(crate) fn open_file_limit() -> Option<usize> {
    let limits = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = limits
        .lines()
        .find(|line| line.starts_with("Max open files"))?;
    line.get("Max open files".len()..)?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}
