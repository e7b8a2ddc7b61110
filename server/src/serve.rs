//! The accept loop: HTTP/1.1 through hyper with a header read timeout, a cap
//! on open connections that no client can hoard, and graceful shutdown.
//!
//! - A connection must deliver a request's whole header block within the
//!   header timeout, also while idle between keep-alive requests, or it is
//!   closed: half-sent and idle connections cannot pile up.
//! - At most `max_connections` are open (fewer than the open-file limit).
//!   At the cap, a new client is accepted and the connection idle the
//!   longest (kept alive, between requests) is closed to make room for it
//!   (ruling 51): a client that keeps connections alive with a request now
//!   and then cannot hold every slot. A connection in the middle of a
//!   request is never closed for this; when every connection is busy the
//!   newcomer waits for the first to finish. Closing an idle keep-alive
//!   connection is what HTTP/1.1 allows a server at any time (RFC 9112
//!   section 9.3); clients reconnect.
//! - On SIGTERM or Ctrl-C it stops accepting, lets every request in flight
//!   finish (up to the grace period), closes idle connections, and then the
//!   store's connections. An order is one INSERT, so nothing is half-written
//!   even when the grace period runs out or the process is killed.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::Router;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::service::Service;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{watch, Notify, OwnedSemaphorePermit, Semaphore, TryAcquireError};

use crate::observe::Metrics;

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

/// One open connection: how many requests it is answering, when it last
/// started or finished one, and the signal that closes it.
#[derive(Debug)]
struct Conn {
    busy: AtomicUsize,
    /// Milliseconds since the server started.
    last: AtomicU64,
    evict: Notify,
    evicting: std::sync::atomic::AtomicBool,
}

/// Every open connection.
#[derive(Debug)]
pub(crate) struct Conns {
    open: Mutex<HashMap<u64, Arc<Conn>>>,
    next: AtomicU64,
    started: Instant,
    cap: AtomicUsize,
}

impl Conns {
    pub(crate) fn new() -> Self {
        Conns {
            open: Mutex::new(HashMap::new()),
            next: AtomicU64::new(0),
            started: Instant::now(),
            cap: AtomicUsize::new(0),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<u64, Arc<Conn>>> {
        match self.open.lock() {
            Ok(open) => open,
            Err(poisoned) => poisoned.into_inner(),
        }
    }

    fn millis(&self) -> u64 {
        u64::try_from(self.started.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    fn add(&self) -> (u64, Arc<Conn>) {
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        let conn = Arc::new(Conn {
            busy: AtomicUsize::new(0),
            last: AtomicU64::new(self.millis()),
            evict: Notify::new(),
            evicting: std::sync::atomic::AtomicBool::new(false),
        });
        self.lock().insert(id, Arc::clone(&conn));
        (id, conn)
    }

    fn remove(&self, id: u64) {
        self.lock().remove(&id);
    }

    /// Closes the connection idle the longest, if one is idle; `true` if
    /// one was told to close.
    fn evict_longest_idle(&self) -> bool {
        let open = self.lock();
        let idle = open
            .values()
            .filter(|c| c.busy.load(Ordering::SeqCst) == 0 && !c.evicting.load(Ordering::SeqCst))
            .min_by_key(|c| c.last.load(Ordering::Relaxed));
        match idle {
            Some(conn) => {
                conn.evicting.store(true, Ordering::SeqCst);
                conn.evict.notify_one();
                true
            }
            None => false,
        }
    }

    /// `(busy, idle, cap)` now.
    pub(crate) fn state(&self) -> (usize, usize, usize) {
        let open = self.lock();
        let busy = open
            .values()
            .filter(|c| c.busy.load(Ordering::Relaxed) > 0)
            .count();
        (
            busy,
            open.len().saturating_sub(busy),
            self.cap.load(Ordering::Relaxed),
        )
    }
}

/// Marks a connection busy while a request is answered.
struct Busy {
    conn: Arc<Conn>,
    conns: Arc<Conns>,
}

impl Busy {
    fn new(conn: &Arc<Conn>, conns: &Arc<Conns>) -> Self {
        conn.busy.fetch_add(1, Ordering::SeqCst);
        conn.last.store(conns.millis(), Ordering::Relaxed);
        Busy {
            conn: Arc::clone(conn),
            conns: Arc::clone(conns),
        }
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        self.conn.last.store(self.conns.millis(), Ordering::Relaxed);
        self.conn.busy.fetch_sub(1, Ordering::SeqCst);
    }
}

/// The router as hyper's service, counting each connection's requests.
#[derive(Clone)]
struct Tracked {
    inner: TowerToHyperService<Router>,
    conn: Arc<Conn>,
    conns: Arc<Conns>,
}

type Answer = Pin<
    Box<
        dyn Future<Output = Result<axum::response::Response, std::convert::Infallible>>
            + Send
            + 'static,
    >,
>;

impl Service<hyper::Request<Incoming>> for Tracked {
    type Response = axum::response::Response;
    type Error = std::convert::Infallible;
    type Future = Answer;

    fn call(&self, request: hyper::Request<Incoming>) -> Self::Future {
        let busy = Busy::new(&self.conn, &self.conns);
        let answer = self.inner.call(request);
        Box::pin(async move {
            let response = answer.await;
            drop(busy);
            response
        })
    }
}

/// Serves `router` on `listener` until `shutdown` resolves, then drains.
pub(crate) async fn serve(
    listener: TcpListener,
    router: Router,
    limits: Limits,
    conns: Arc<Conns>,
    metrics: Arc<Metrics>,
    shutdown: impl Future<Output = ()>,
) {
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .max_buf_size(MAX_HEADER_BYTES)
        .keep_alive(true);
    conns.cap.store(limits.max_connections, Ordering::Relaxed);
    let permits = Arc::new(Semaphore::new(limits.max_connections));
    let (stop, stopped) = watch::channel(false);
    tokio::pin!(shutdown);
    loop {
        let Some(stream) = (tokio::select! {
            stream = accept(&listener) => Some(stream),
            () = &mut shutdown => None,
        }) else {
            break;
        };
        let permit = match Arc::clone(&permits).try_acquire_owned() {
            Ok(permit) => permit,
            Err(TryAcquireError::Closed) => break,
            // At the cap with a newcomer: close the connection idle the
            // longest and take its slot; when every one is busy, wait for
            // the first to finish (closing an idle one as soon as there is).
            Err(TryAcquireError::NoPermits) => loop {
                if conns.evict_longest_idle() {
                    metrics.evicted();
                }
                tokio::select! {
                    permit = Arc::clone(&permits).acquire_owned() => match permit {
                        Ok(permit) => break permit,
                        Err(_) => return,
                    },
                    () = tokio::time::sleep(Duration::from_millis(50)) => {}
                    () = &mut shutdown => {
                        drain(&stop, &permits, limits).await;
                        return;
                    }
                }
            },
        };
        spawn_connection(&builder, stream, router.clone(), &conns, permit, &stopped);
    }
    drop(listener);
    drain(&stop, &permits, limits).await;
}

/// The next connection (a failed accept waits a little, then tries again).
async fn accept(listener: &TcpListener) -> TcpStream {
    loop {
        match listener.accept().await {
            Ok((stream, _)) => {
                let _ = stream.set_nodelay(true);
                return stream;
            }
            Err(error) => {
                // Out of file descriptors, or a connection reset before it
                // was accepted: wait a little instead of spinning.
                tracing::warn!(%error, "accept");
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        }
    }
}

fn spawn_connection(
    builder: &http1::Builder,
    stream: TcpStream,
    router: Router,
    conns: &Arc<Conns>,
    permit: OwnedSemaphorePermit,
    stopped: &watch::Receiver<bool>,
) {
    let (id, conn) = conns.add();
    let service = Tracked {
        inner: TowerToHyperService::new(router),
        conn: Arc::clone(&conn),
        conns: Arc::clone(conns),
    };
    let connection = builder.serve_connection(TokioIo::new(stream), service);
    let conns = Arc::clone(conns);
    let mut stopped = stopped.clone();
    tokio::spawn(async move {
        tokio::pin!(connection);
        tokio::select! {
            _ = connection.as_mut() => {}
            () = conn.evict.notified() => {
                connection.as_mut().graceful_shutdown();
                let _ = connection.await;
            }
            () = stopping(&mut stopped) => {
                connection.as_mut().graceful_shutdown();
                let _ = connection.await;
            }
        }
        conns.remove(id);
        drop(permit);
    });
}

/// Resolves once shutdown begins.
async fn stopping(stopped: &mut watch::Receiver<bool>) {
    let _ = stopped.wait_for(|stop| *stop).await;
}

/// Tells every connection to finish its request and close, then waits for
/// them all (every slot back), up to the grace period.
async fn drain(stop: &watch::Sender<bool>, permits: &Arc<Semaphore>, limits: Limits) {
    let _ = stop.send(true);
    let all = u32::try_from(limits.max_connections).unwrap_or(u32::MAX);
    tokio::select! {
        _ = permits.acquire_many(all) => {}
        () = tokio::time::sleep(limits.shutdown_grace) => {
            tracing::warn!(
                grace_ms = u64::try_from(limits.shutdown_grace.as_millis()).unwrap_or(u64::MAX),
                "shutdown: requests still in flight after the grace period; stopping"
            );
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
