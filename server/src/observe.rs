//! What an operator sees: one JSON line per request on stderr (`tracing`
//! with `tracing-subscriber`'s JSON format), and Prometheus metrics at
//! `/metrics` (`prometheus-client`, the Prometheus project's own Rust
//! client: typed families with label sets, the OpenMetrics text format, no
//! global recorder and a small dependency tree).
//!
//! The request line holds the time, method, route (the matched pattern,
//! never the raw path: ids stay out of metric labels), status, duration,
//! `App-Name` (cut to 64 characters) and the order id when the request named
//! or created one. Never a body, a header other than `App-Name`, a database
//! URL or a database's own error text.

use std::sync::atomic::{AtomicI64, AtomicU64};
use std::time::{Duration, Instant};

use axum::extract::{MatchedPath, Request};
use axum::http::header::CONTENT_TYPE;
use axum::http::HeaderValue;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{exponential_buckets, Histogram};
use prometheus_client::registry::Registry;

use crate::errors::echo;

/// Starts the JSON log on stderr.
pub(crate) fn start_log() {
    tracing_subscriber::fmt()
        .json()
        .flatten_event(true)
        .with_current_span(false)
        .with_span_list(false)
        .with_target(false)
        .with_writer(std::io::stderr)
        .init();
}

/// What a handler tells the log about its request (a response extension).
#[derive(Clone, Debug)]
pub(crate) struct RequestNote {
    /// The order the request named or created.
    pub(crate) order: String,
}

impl RequestNote {
    pub(crate) fn order(id: &str) -> Self {
        RequestNote { order: echo(id) }
    }
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RequestLabels {
    method: String,
    route: String,
    status: u16,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct FlowLabels {
    flow: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct QueryLabels {
    query: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct ErrorLabels {
    kind: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct StateLabels {
    state: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct ResultLabels {
    result: String,
}

type Histograms<L> = Family<L, Histogram, fn() -> Histogram>;

fn latency() -> Histogram {
    // 0.25 ms to about 8 s.
    Histogram::new(exponential_buckets(0.000_25, 2.0, 16))
}

/// Every metric the server keeps.
#[derive(Debug)]
pub(crate) struct Metrics {
    registry: Registry,
    requests: Family<RequestLabels, Counter>,
    request_seconds: Histograms<RequestLabels>,
    orders: Family<FlowLabels, Counter>,
    replays: Counter,
    db_errors: Family<ErrorLabels, Counter>,
    db_seconds: Histograms<QueryLabels>,
    db_pool: Family<StateLabels, Gauge>,
    db_pool_max: Gauge,
    cpu_jobs: Family<StateLabels, Gauge>,
    connections: Family<StateLabels, Gauge>,
    evictions: Counter,
    reloads: Family<ResultLabels, Counter>,
    rates: Gauge<i64, AtomicI64>,
    rates_loaded_at: Gauge<f64, AtomicU64>,
}

impl Metrics {
    pub(crate) fn new() -> Self {
        let mut registry = Registry::with_prefix("swaproute");
        let requests = Family::<RequestLabels, Counter>::default();
        registry.register(
            "http_requests",
            "HTTP requests answered, by method, route and status",
            requests.clone(),
        );
        let request_seconds: Histograms<RequestLabels> = Family::new_with_constructor(latency);
        registry.register(
            "http_request_duration_seconds",
            "Time from the request's head to its answer, by method, route and status",
            request_seconds.clone(),
        );
        let orders = Family::<FlowLabels, Counter>::default();
        registry.register(
            "orders_created",
            "Orders created (a replay is not a creation), by flow",
            orders.clone(),
        );
        let replays = Counter::default();
        registry.register(
            "idempotent_replays",
            "Creations answered from an Idempotency-Key's stored order",
            replays.clone(),
        );
        let db_errors = Family::<ErrorLabels, Counter>::default();
        registry.register(
            "db_errors",
            "Database failures: busy (overload, answered 503) or fault (500)",
            db_errors.clone(),
        );
        let db_seconds: Histograms<QueryLabels> = Family::new_with_constructor(latency);
        registry.register(
            "db_query_duration_seconds",
            "Database statements, pool wait included, by query",
            db_seconds.clone(),
        );
        let db_pool = Family::<StateLabels, Gauge>::default();
        registry.register(
            "db_pool_connections",
            "Pooled database connections, idle or in use",
            db_pool.clone(),
        );
        let db_pool_max = Gauge::default();
        registry.register(
            "db_pool_max_connections",
            "The pool's size (--db-pool)",
            db_pool_max.clone(),
        );
        let cpu_jobs = Family::<StateLabels, Gauge>::default();
        registry.register(
            "cpu_jobs",
            "Selection jobs running or waiting for their turn (--cpu-jobs)",
            cpu_jobs.clone(),
        );
        let connections = Family::<StateLabels, Gauge>::default();
        registry.register(
            "connections",
            "Open client connections, busy or idle, and the cap (--max-connections)",
            connections.clone(),
        );
        let evictions = Counter::default();
        registry.register(
            "connections_evicted",
            "Idle keep-alive connections closed to make room at the cap",
            evictions.clone(),
        );
        let reloads = Family::<ResultLabels, Counter>::default();
        registry.register(
            "rates_reloads",
            "Rate reloads on SIGHUP, ok or refused (the old rates kept)",
            reloads.clone(),
        );
        let rates = Gauge::<i64, AtomicI64>::default();
        registry.register("rates", "Rates in the book in force", rates.clone());
        let rates_loaded_at = Gauge::<f64, AtomicU64>::default();
        registry.register(
            "rates_loaded_at_seconds",
            "When the book in force was loaded (Unix time)",
            rates_loaded_at.clone(),
        );
        Metrics {
            registry,
            requests,
            request_seconds,
            orders,
            replays,
            db_errors,
            db_seconds,
            db_pool,
            db_pool_max,
            cpu_jobs,
            connections,
            evictions,
            reloads,
            rates,
            rates_loaded_at,
        }
    }

    fn request(&self, method: &str, route: &str, status: u16, took: Duration) {
        let labels = RequestLabels {
            method: method.to_owned(),
            route: route.to_owned(),
            status,
        };
        self.requests.get_or_create(&labels).inc();
        self.request_seconds
            .get_or_create(&labels)
            .observe(took.as_secs_f64());
    }

    pub(crate) fn order_created(&self, flow: &str) {
        let labels = FlowLabels {
            flow: flow.to_owned(),
        };
        self.orders.get_or_create(&labels).inc();
    }

    pub(crate) fn replay(&self) {
        self.replays.inc();
    }

    pub(crate) fn db_query(&self, query: &'static str, took: Duration, error: Option<bool>) {
        let labels = QueryLabels {
            query: query.to_owned(),
        };
        self.db_seconds
            .get_or_create(&labels)
            .observe(took.as_secs_f64());
        if let Some(busy) = error {
            let kind = if busy { "busy" } else { "fault" };
            self.db_errors
                .get_or_create(&ErrorLabels {
                    kind: kind.to_owned(),
                })
                .inc();
        }
    }

    pub(crate) fn db_pool(&self, size: u32, idle: usize, max: u32) {
        let idle = i64::try_from(idle).unwrap_or(i64::MAX);
        let in_use = i64::from(size).saturating_sub(idle);
        Self::set(&self.db_pool, "idle", idle);
        Self::set(&self.db_pool, "in_use", in_use);
        self.db_pool_max.set(i64::from(max));
    }

    pub(crate) fn cpu_jobs(&self, running: usize, waiting: usize) {
        Self::set(&self.cpu_jobs, "running", count(running));
        Self::set(&self.cpu_jobs, "waiting", count(waiting));
    }

    pub(crate) fn connections(&self, busy: usize, idle: usize, cap: usize) {
        Self::set(&self.connections, "busy", count(busy));
        Self::set(&self.connections, "idle", count(idle));
        Self::set(&self.connections, "cap", count(cap));
    }

    pub(crate) fn evicted(&self) {
        self.evictions.inc();
    }

    pub(crate) fn reload(&self, ok: bool) {
        let result = if ok { "ok" } else { "refused" };
        self.reloads
            .get_or_create(&ResultLabels {
                result: result.to_owned(),
            })
            .inc();
    }

    pub(crate) fn book(&self, rates: usize) {
        self.rates.set(count(rates));
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default();
        self.rates_loaded_at.set(now.as_secs_f64());
    }

    fn set(family: &Family<StateLabels, Gauge>, state: &str, value: i64) {
        family
            .get_or_create(&StateLabels {
                state: state.to_owned(),
            })
            .set(value);
    }

    /// The metrics in the Prometheus/OpenMetrics text format.
    pub(crate) fn render(&self) -> Response {
        let mut text = String::new();
        if let Err(error) = prometheus_client::encoding::text::encode(&mut text, &self.registry) {
            tracing::error!(%error, "encoding the metrics");
        }
        let mut response = text.into_response();
        response.headers_mut().insert(
            CONTENT_TYPE,
            HeaderValue::from_static("application/openmetrics-text; version=1.0.0; charset=utf-8"),
        );
        response
    }
}

fn count(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// The outermost layer: times the request, counts it, and writes its line.
pub(crate) async fn observe(
    axum::extract::State(metrics): axum::extract::State<std::sync::Arc<Metrics>>,
    request: Request,
    next: Next,
) -> Response {
    let started = Instant::now();
    // A client may send any method token: the label takes the standard ones
    // and `other`, so no client can grow the metrics without bound.
    let method = match request.method().as_str() {
        known @ ("GET" | "POST" | "PATCH" | "PUT" | "DELETE" | "HEAD" | "OPTIONS") => known,
        _ => "other",
    }
    .to_owned();
    let route = request
        .extensions()
        .get::<MatchedPath>()
        .map_or("unmatched", MatchedPath::as_str)
        .to_owned();
    let app = request
        .headers()
        .get("app-name")
        .map(|value| echo(&String::from_utf8_lossy(value.as_bytes())));
    let path_order = request
        .uri()
        .path()
        .strip_prefix("/v3/orders/")
        .filter(|id| !id.is_empty() && *id != "float")
        .map(echo);
    let response = next.run(request).await;
    let took = started.elapsed();
    let status = response.status().as_u16();
    metrics.request(&method, &route, status, took);
    let order = response
        .extensions()
        .get::<RequestNote>()
        .map(|note| note.order.clone())
        .or(path_order);
    let micros = u64::try_from(took.as_micros()).unwrap_or(u64::MAX);
    tracing::info!(
        method = %method,
        route = %route,
        status,
        duration_us = micros,
        app = app.as_deref().unwrap_or(""),
        order = order.as_deref().unwrap_or(""),
        "request"
    );
    response
}
