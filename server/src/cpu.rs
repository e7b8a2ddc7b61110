//! CPU-bound work off the connection-handling threads (ruling 51).
//!
//! Selection, splits, order plans, chained routes and encoding a book run on
//! tokio's blocking threads ([`tokio::task::spawn_blocking`]), at most
//! `jobs` at once (a semaphore; the rest wait their turn). The async worker
//! threads, which read requests and answer `/healthz`, never run them, so a
//! hard book cannot stall the server: a request's deadline
//! (`--request-timeout`, around the whole request) is a timer on those
//! threads and answers 503 in time whatever a job is doing.
//!
//! A job whose request gave up (its deadline passed, or its client left)
//! runs to its end (CPU work cannot be interrupted; the engine's own work
//! bound, ruling 36, ends it) and holds its turn until then, so at most
//! `jobs` cores are ever busy with selection. Heavy jobs (splits, chained
//! routes) also take one of `jobs / 2` (at least 1) heavy turns, so a
//! stream of hard splits can never take every turn from the requests that
//! only rank.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::errors::Failure;

/// The pool's gate.
#[derive(Debug)]
pub(crate) struct Cpu {
    permits: Arc<Semaphore>,
    /// Turns for heavy jobs (splits, chained routes): at most half the
    /// pool (at least one), so requests that only rank (routes, quotes,
    /// order plans) always find a turn however many heavy requests a client
    /// sends, and a heavy job that outlives its deadline holds one of these.
    heavy: Arc<Semaphore>,
    jobs: usize,
    /// Jobs waiting for their turn.
    waiting: AtomicUsize,
}

impl Cpu {
    /// At most `jobs` jobs at once.
    pub(crate) fn new(jobs: usize) -> Self {
        Cpu {
            permits: Arc::new(Semaphore::new(jobs)),
            heavy: Arc::new(Semaphore::new((jobs / 2).max(1))),
            jobs,
            waiting: AtomicUsize::new(0),
        }
    }

    /// The default number of jobs: the cores the process may use.
    pub(crate) fn default_jobs() -> usize {
        std::thread::available_parallelism().map_or(2, std::num::NonZero::get)
    }

    /// `(running, waiting)` now.
    pub(crate) fn load(&self) -> (usize, usize) {
        let running = self.jobs.saturating_sub(self.permits.available_permits());
        (running, self.waiting.load(Ordering::Relaxed))
    }

    /// Runs `job` on a blocking thread when its turn comes, and answers what
    /// it returns. Dropping the future (the deadline passed) leaves the job
    /// to finish on its own.
    pub(crate) async fn run<T, F>(&self, job: F) -> Result<T, Failure>
    where
        F: FnOnce() -> T + Send + 'static,
        T: Send + 'static,
    {
        self.start(None, job).await
    }

    /// The same for a heavy job (a split, chained routes): it takes one of
    /// the heavy turns first.
    pub(crate) async fn run_heavy<T, F>(&self, job: F) -> Result<T, Failure>
    where
        F: FnOnce() -> T + Send + 'static,
        T: Send + 'static,
    {
        let heavy = {
            let _waiting = Waiting::new(&self.waiting);
            Arc::clone(&self.heavy).acquire_owned().await
        };
        let heavy = heavy.map_err(|_| internal("the CPU pool is closed"))?;
        self.start(Some(heavy), job).await
    }

    async fn start<T, F>(&self, heavy: Option<OwnedSemaphorePermit>, job: F) -> Result<T, Failure>
    where
        F: FnOnce() -> T + Send + 'static,
        T: Send + 'static,
    {
        let permit = {
            let _waiting = Waiting::new(&self.waiting);
            Arc::clone(&self.permits).acquire_owned().await
        };
        let permit = permit.map_err(|_| internal("the CPU pool is closed"))?;
        tokio::task::spawn_blocking(move || {
            let _turn = (permit, heavy);
            job()
        })
        .await
        .map_err(|e| {
            tracing::error!(error = %e, "a CPU job failed");
            internal("the job stopped")
        })
    }
}

/// Counts a job as waiting while it lives (also when its request gives up).
struct Waiting<'a>(&'a AtomicUsize);

impl<'a> Waiting<'a> {
    fn new(count: &'a AtomicUsize) -> Self {
        count.fetch_add(1, Ordering::Relaxed);
        Waiting(count)
    }
}

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

fn internal(details: &str) -> Failure {
    Failure::from(swaproute::ApiError::new(
        swaproute::ErrorCode::InternalError,
        details.to_owned(),
    ))
}
