//! What the handlers share (the [`Server`] behind [`Shared`]) and the
//! small pieces every handler file uses: the request's [`AppName`] and
//! [`fail`]. Below the routes (`app.rs`, `orders.rs`), above the parts the
//! server is made of (the book, the store, the CPU pool, the metrics).

use std::sync::Arc;
use std::time::{Duration, SystemTime};

use axum::extract::State;
use swaproute::ErrorCode::InternalError;
use swaproute::{ApiError, EpochMillis, ErrorCode};

use crate::book::Books;
use crate::cpu::Cpu;
use crate::observe::Metrics;
use crate::serve::Conns;
use crate::store::Store;

/// Time limits of one request.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Timeouts {
    /// The whole body must arrive within this (408 otherwise).
    pub(crate) body: Duration,
    /// The whole request, body included, must be answered within this
    /// (503 otherwise).
    pub(crate) request: Duration,
}

/// What the handlers share: the book in force (rates, quote books, asset
/// records; swapped whole on SIGHUP), a fixed clock if asked, the order
/// store, the CPU pool and the metrics.
#[derive(Debug)]
pub(crate) struct Server {
    pub(crate) books: Books,
    now: Option<EpochMillis>,
    pub(crate) store: Store,
    timeouts: Timeouts,
    pub(crate) cpu: Cpu,
    pub(crate) metrics: Arc<Metrics>,
    /// The open connections (for the metrics).
    pub(crate) conns: Arc<Conns>,
}

impl Server {
    /// A server over `books` and `store`, at `now` (the system clock when
    /// `None`), with at most `cpu_jobs` selection jobs at once.
    pub(crate) fn new(
        books: Books,
        now: Option<EpochMillis>,
        store: Store,
        timeouts: Timeouts,
        cpu_jobs: usize,
        metrics: Arc<Metrics>,
        conns: Arc<Conns>,
    ) -> Self {
        Server {
            books,
            now,
            store,
            timeouts,
            cpu: Cpu::new(cpu_jobs),
            metrics,
            conns,
        }
    }

    /// The request's time limits.
    pub(crate) fn timeouts(&self) -> Timeouts {
        self.timeouts
    }

    pub(crate) fn now(&self) -> Result<EpochMillis, ApiError> {
        let clock = || EpochMillis::try_from(SystemTime::now()).map_err(|e| fail(InternalError, e));
        self.now.map_or_else(clock, Ok)
    }
}

pub(crate) type Shared = State<Arc<Server>>;

/// The request's `App-Name` (checked by the router's `App-Name` layer): the scope of
/// its Idempotency-Keys (ruling 51).
#[derive(Clone, Debug)]
pub(crate) struct AppName(pub(crate) String);

/// An error of the crate's table with `details` shortened
/// ([`crate::errors::shorten`]: echoes cut, the reason kept).
pub(crate) fn fail(code: ErrorCode, details: impl std::fmt::Display) -> ApiError {
    ApiError::new(code, crate::errors::shorten(&details.to_string()))
}
