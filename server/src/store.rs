//! Orders in a database: SQLite (an embedded file) or PostgreSQL, through
//! sqlx's `Any` driver with runtime queries (no database exists at build
//! time, so no compile-time-checked macros). One portable schema and one set
//! of queries serve both; `$1` placeholders are understood by both drivers.
//!
//! A row holds the order's JSON body exactly as it was answered, so a read
//! and an idempotent replay answer the same bytes. Creation is idempotent
//! through the unique `(app_name, idempotency_key)` pair: concurrent retries
//! from any number of server processes race on the constraint, and exactly
//! one row wins (`INSERT … ON CONFLICT (app_name, idempotency_key) DO
//! NOTHING`, SQLite ≥ 3.24 and PostgreSQL ≥ 9.5). One application's key never
//! finds another's order (ruling 51).

use std::borrow::Cow;
use std::sync::Arc;
use std::time::{Duration, Instant};

use sqlx::any::{AnyPoolOptions, AnyRow};
use sqlx::migrate::{Migration, MigrationType, Migrator};
use sqlx::{AnyPool, Row};

use crate::observe::Metrics;

/// The schema, in order; applied at start, each once (sqlx's migrator keeps
/// the applied versions in `_sqlx_migrations` and, on PostgreSQL, holds an
/// advisory lock so several servers starting at once migrate once).
const MIGRATIONS: &[(i64, &str, &str)] = &[
    (1, "orders", include_str!("../migrations/0001_orders.sql")),
    (
        2,
        "keys per app",
        include_str!("../migrations/0002_keys_per_app.sql"),
    ),
];

/// Which database the orders are in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Backend {
    /// An embedded SQLite file.
    Sqlite,
    /// A PostgreSQL server.
    Postgres,
}

/// Where the orders are: a `postgres://` / `postgresql://` URL, a `sqlite:`
/// URL, or else a file path for SQLite.
#[derive(Clone, Debug)]
pub(crate) struct Location {
    backend: Backend,
    url: String,
    /// What to print: the path, or the PostgreSQL URL without credentials.
    shown: String,
}

impl Location {
    /// Reads `--database`.
    pub(crate) fn parse(text: &str) -> Result<Self, String> {
        if text.starts_with("postgres://") || text.starts_with("postgresql://") {
            let rest = text.split_once("://").map_or("", |(_, rest)| rest);
            let host = rest.rsplit_once('@').map_or(rest, |(_, host)| host);
            let host = host.split(['?', '/']).next().unwrap_or_default();
            return Ok(Location {
                backend: Backend::Postgres,
                url: text.to_owned(),
                shown: format!("PostgreSQL at {host}"),
            });
        }
        if text.starts_with("sqlite:") {
            return Ok(Location {
                backend: Backend::Sqlite,
                url: text.to_owned(),
                shown: format!("SQLite at {text}"),
            });
        }
        if text.is_empty() {
            return Err("--database: empty".to_owned());
        }
        // A plain path: `%`, `?` and `#` are escaped so that the URL names
        // this file and nothing else.
        let mut escaped = String::with_capacity(text.len());
        for c in text.chars() {
            match c {
                '%' => escaped.push_str("%25"),
                '?' => escaped.push_str("%3F"),
                '#' => escaped.push_str("%23"),
                c => escaped.push(c),
            }
        }
        Ok(Location {
            backend: Backend::Sqlite,
            url: format!("sqlite://{escaped}?mode=rwc"),
            shown: format!("SQLite at {text}"),
        })
    }

    /// For the start-up line: never shows a password.
    pub(crate) fn shown(&self) -> &str {
        &self.shown
    }
}

/// A failure of the database (connection, query, constraint other than the
/// idempotency key's). The text is for the log, never for a client.
#[derive(Debug)]
pub(crate) struct StoreError {
    pub(crate) text: String,
    /// Overload rather than a fault: no pooled connection free in time,
    /// SQLite busy or locked past its busy timeout, PostgreSQL out of
    /// connections or a serialization failure. Worth a retry (503).
    pub(crate) busy: bool,
}

impl StoreError {
    fn fault(text: String) -> Self {
        StoreError { text, busy: false }
    }
}

impl From<sqlx::Error> for StoreError {
    fn from(error: sqlx::Error) -> Self {
        let busy = match &error {
            sqlx::Error::PoolTimedOut => true,
            sqlx::Error::Database(db) => db.code().is_some_and(|code| {
                // SQLite's primary result codes BUSY (5) and LOCKED (6), also
                // in extended form; PostgreSQL's SQLSTATEs for too many
                // connections, serialization failure and deadlock.
                code.parse::<u32>().is_ok_and(|n| matches!(n & 0xff, 5 | 6))
                    || matches!(&*code, "53300" | "40001" | "40P01")
            }),
            _ => false,
        };
        StoreError {
            text: error.to_string(),
            busy,
        }
    }
}

/// A stored order: its JSON body as answered, the digest of the request that
/// created it (when it was created with an Idempotency-Key), its revision.
#[derive(Debug)]
pub(crate) struct Stored {
    pub(crate) body: String,
    pub(crate) digest: Option<String>,
    pub(crate) revision: i64,
}

fn stored(row: &AnyRow) -> Result<Stored, sqlx::Error> {
    Ok(Stored {
        body: row.try_get("body")?,
        digest: row.try_get("request_digest")?,
        revision: row.try_get("revision")?,
    })
}

/// What an insert did.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Inserted {
    /// The row is in.
    New,
    /// Another order holds this Idempotency-Key: nothing was written.
    KeyTaken,
}

/// The orders table over a connection pool.
#[derive(Clone, Debug)]
pub(crate) struct Store {
    pool: AnyPool,
    pool_size: u32,
    metrics: Arc<Metrics>,
    /// SQLite has one writer at a time: a process's writes queue here, in
    /// order, instead of polling SQLite's busy handler (whose back-off, up
    /// to 100 ms a try, made the slowest creations under load take 0.6 s).
    /// Other processes on the same file still wait through the busy handler.
    /// `None` for PostgreSQL, which takes concurrent writes.
    writer: Option<std::sync::Arc<tokio::sync::Mutex<()>>>,
}

impl Store {
    /// Connects (creating the SQLite file if needed), then applies the
    /// migrations not yet applied.
    pub(crate) async fn open(
        location: &Location,
        pool_size: u32,
        metrics: Arc<Metrics>,
    ) -> Result<Self, StoreError> {
        sqlx::any::install_default_drivers();
        let backend = location.backend;
        // One plain connection first: a database that cannot be reached
        // fails the start at once with its own error (the pool would retry
        // until its acquire timeout and say only that it timed out).
        let first = <sqlx::AnyConnection as sqlx::Connection>::connect(&location.url).await?;
        sqlx::Connection::close(first).await?;
        let sqlite = backend == Backend::Sqlite;
        let pool = AnyPoolOptions::new()
            .max_connections(pool_size)
            .acquire_timeout(Duration::from_secs(10))
            .after_connect(move |connection, _| {
                Box::pin(async move {
                    if sqlite {
                        // A commit is on disk before the answer (SQLite's
                        // default, said here so no build flag changes it).
                        sqlx::query("PRAGMA synchronous=FULL")
                            .execute(&mut *connection)
                            .await?;
                    }
                    Ok(())
                })
            })
            .connect(&location.url)
            .await?;
        if backend == Backend::Sqlite {
            // Write-ahead log: readers do not wait for the writer. Kept in the
            // file, so set once. With `synchronous=FULL` (above), an order
            // answered 201 is on disk, even across a power loss.
            sqlx::query("PRAGMA journal_mode=WAL")
                .execute(&pool)
                .await?;
        }
        let migrator = Migrator {
            migrations: Cow::Owned(
                MIGRATIONS
                    .iter()
                    .map(|&(version, name, sql)| {
                        Migration::new(
                            version,
                            Cow::Borrowed(name),
                            MigrationType::Simple,
                            Cow::Borrowed(sql),
                            false,
                        )
                    })
                    .collect(),
            ),
            ..Migrator::DEFAULT
        };
        migrator
            .run(&pool)
            .await
            .map_err(|e| StoreError::fault(format!("migrations: {e}")))?;
        let writer = (backend == Backend::Sqlite).then(Default::default);
        Ok(Store {
            pool,
            pool_size,
            metrics,
            writer,
        })
    }

    /// `SELECT 1`, for `/healthz`.
    pub(crate) async fn ping(&self) -> Result<(), StoreError> {
        self.timed("ping", sqlx::query("SELECT 1").execute(&self.pool))
            .await
            .map(drop)
    }

    /// Runs a statement, timed and counted in the metrics.
    async fn timed<T>(
        &self,
        query: &'static str,
        statement: impl std::future::Future<Output = Result<T, sqlx::Error>>,
    ) -> Result<T, StoreError> {
        let started = Instant::now();
        let result = statement.await.map_err(StoreError::from);
        let error = result.as_ref().err().map(|e| e.busy);
        self.metrics.db_query(query, started.elapsed(), error);
        result
    }

    /// `(connections, idle, the pool's size)` now.
    pub(crate) fn pool_state(&self) -> (u32, usize, u32) {
        (self.pool.size(), self.pool.num_idle(), self.pool_size)
    }

    /// The order application `app` created with `key`, if any.
    pub(crate) async fn by_key(&self, app: &str, key: &str) -> Result<Option<Stored>, StoreError> {
        let query = sqlx::query(
            "SELECT body, request_digest, revision FROM orders \
             WHERE app_name = $1 AND idempotency_key = $2",
        )
        .bind(app)
        .bind(key);
        let row = self
            .timed("by_key", query.fetch_optional(&self.pool))
            .await?;
        Ok(row.as_ref().map(stored).transpose()?)
    }

    /// Order `id`, if any.
    pub(crate) async fn get(&self, id: &str) -> Result<Option<Stored>, StoreError> {
        let query =
            sqlx::query("SELECT body, request_digest, revision FROM orders WHERE id = $1").bind(id);
        let row = self.timed("get", query.fetch_optional(&self.pool)).await?;
        Ok(row.as_ref().map(stored).transpose()?)
    }

    /// Writes a new order of application `app`, in one statement (so never
    /// half-written). With a key, a row of the same application already
    /// holding it wins and nothing is written.
    pub(crate) async fn insert(
        &self,
        id: &str,
        app: &str,
        key: Option<(&str, &str)>,
        body: &str,
        created_at: i64,
    ) -> Result<Inserted, StoreError> {
        let (key, digest) = key.unzip();
        let _turn = self.write_turn().await;
        let query = sqlx::query(
            "INSERT INTO orders \
             (id, app_name, idempotency_key, request_digest, body, revision, created_at, updated_at) \
             VALUES ($1, $2, $3, $4, $5, 0, $6, $6) \
             ON CONFLICT (app_name, idempotency_key) DO NOTHING",
        )
        .bind(id)
        .bind(app)
        .bind(key)
        .bind(digest)
        .bind(body)
        .bind(created_at);
        let done = self.timed("insert", query.execute(&self.pool)).await?;
        Ok(if done.rows_affected() == 1 {
            Inserted::New
        } else {
            Inserted::KeyTaken
        })
    }

    /// Replaces order `id`'s body if it is still at `revision` (optimistic
    /// concurrency: two updates racing, from one process or several, cannot
    /// both win). `false` when another update came first.
    pub(crate) async fn update(
        &self,
        id: &str,
        revision: i64,
        body: &str,
        updated_at: i64,
    ) -> Result<bool, StoreError> {
        let _turn = self.write_turn().await;
        let query = sqlx::query(
            "UPDATE orders SET body = $1, revision = revision + 1, updated_at = $2 \
             WHERE id = $3 AND revision = $4",
        )
        .bind(body)
        .bind(updated_at)
        .bind(id)
        .bind(revision);
        let done = self.timed("update", query.execute(&self.pool)).await?;
        Ok(done.rows_affected() == 1)
    }

    /// This process's turn to write, on SQLite.
    async fn write_turn(&self) -> Option<tokio::sync::MutexGuard<'_, ()>> {
        match &self.writer {
            Some(writer) => Some(writer.lock().await),
            None => None,
        }
    }

    /// Waits for the pool's connections to be returned, then closes them.
    pub(crate) async fn close(&self) {
        self.pool.close().await;
    }
}
