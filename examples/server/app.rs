//! The routes of the reference server: each handler is a few calls into the
//! crate, and every failure is the crate's typed error as its JSON body.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::SystemTime;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, Path, Query, Request, State};
use axum::http::StatusCode;
use axum::middleware::{from_fn, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use swaproute::client::{ClientHeaders, Integration};
use swaproute::order::{
    DepositTransactionUpdate, FixedOrderRequest, NewOrder, Order, OrderContext, RouteQuery,
};
use swaproute::screening::{Address, ScreeningPolicy};
use swaproute::{ApiError, EpochMillis, ErrorCode, OrderId, ProviderOrderId, RatesResponse};

/// Bodies above this are 413 `PAYLOAD_TOO_LARGE` (ruling 25).
pub(crate) const BODY_LIMIT: usize = 64 * 1024;

/// What the server holds: one pair's rates, a fixed clock if asked, orders.
pub(crate) struct Server {
    rates: RatesResponse,
    now: Option<EpochMillis>,
    screening: ScreeningPolicy,
    orders: Mutex<BTreeMap<String, Order>>,
    created: AtomicU64,
}

impl Server {
    /// A server over `rates`, at `now` (the system clock when `None`).
    pub(crate) fn new(rates: RatesResponse, now: Option<EpochMillis>) -> Self {
        let (screening, orders) = (ScreeningPolicy::new(), Mutex::default());
        Server {
            rates,
            now,
            screening,
            orders,
            created: AtomicU64::new(0),
        }
    }

    fn now(&self) -> Result<EpochMillis, ApiError> {
        let clock = || EpochMillis::try_from(SystemTime::now());
        self.now.map_or_else(clock, Ok).map_err(|e| internal(&e))
    }

    fn rates_of(&self, pair_id: &str) -> Result<&RatesResponse, ApiError> {
        match self.rates.pair_id() {
            Some(pair) if pair.as_str() == pair_id => Ok(&self.rates),
            _ => Err(ApiError::new(
                ErrorCode::NotFound,
                format!("no rates for pair {pair_id}"),
            )),
        }
    }

    fn orders(&self) -> std::sync::MutexGuard<'_, BTreeMap<String, Order>> {
        self.orders.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

type Shared = State<Arc<Server>>;

/// The service's routes, behind the `App-Name` check and the body cap.
pub(crate) fn router(server: Server) -> Router {
    Router::new()
        .route("/v3/pairs/{pair_id}/rates", get(rates))
        .route("/v3/pairs/{pair_id}/route", get(route))
        .route("/v3/orders", axum::routing::post(create_order))
        .route("/v3/orders/{id}", get(order).patch(update_order))
        .fallback(|| async { ApiError::new(ErrorCode::NotFound, "no such endpoint") })
        .layer(from_fn(require_app_name))
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .with_state(Arc::new(server))
}

/// Every request names its application (401 `UNAUTHORIZED` otherwise).
async fn require_app_name(request: Request, next: Next) -> Response {
    match ClientHeaders::from_header_map(request.headers(), Integration::Direct) {
        Ok(_) => next.run(request).await,
        Err(error) => error.into_response(),
    }
}

async fn rates(State(server): Shared, Path(pair_id): Path<String>) -> Result<Response, ApiError> {
    Ok(Json(server.rates_of(&pair_id)?).into_response())
}

async fn route(
    State(server): Shared,
    Path(pair_id): Path<String>,
    Query(query): Query<Vec<(String, String)>>,
) -> Result<Response, Response> {
    let rates = server
        .rates_of(&pair_id)
        .map_err(IntoResponse::into_response)?;
    let query = RouteQuery::from_pairs(query).map_err(IntoResponse::into_response)?;
    let request = query.route_request(server.now().map_err(IntoResponse::into_response)?);
    let selection = request.select(rates);
    match selection.no_route() {
        Some(no_route) => Err(no_route.clone().into_response()),
        None => Ok(Json(&selection).into_response()),
    }
}

async fn create_order(
    State(server): Shared,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, Response> {
    let body = body.map_err(|e| body_error(&e).into_response())?;
    let request = FixedOrderRequest::from_json(&body).map_err(IntoResponse::into_response)?;
    let now = server.now().map_err(IntoResponse::into_response)?;
    let rates = server
        .rates_of(request.pair_id().as_str())
        .map_err(IntoResponse::into_response)?;
    let plan = request
        .plan(rates, &OrderContext::new(now, &server.screening))
        .map_err(IntoResponse::into_response)?;
    let n = server
        .created
        .fetch_add(1, Ordering::Relaxed)
        .saturating_add(1);
    let new = new_order(n, now).map_err(IntoResponse::into_response)?;
    let order = plan
        .to_order(&request, &new)
        .map_err(IntoResponse::into_response)?;
    let response = (StatusCode::CREATED, Json(&order)).into_response();
    server.orders().insert(new.id.as_str().to_owned(), order);
    Ok(response)
}

async fn order(State(server): Shared, Path(id): Path<String>) -> Result<Response, ApiError> {
    let orders = server.orders();
    let order = orders.get(&id).ok_or_else(|| not_found(&id))?;
    Ok(Json(order).into_response())
}

async fn update_order(
    State(server): Shared,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let update: DepositTransactionUpdate =
        serde_json::from_slice(&body.map_err(|e| body_error(&e))?)
            .map_err(|e| ApiError::new(ErrorCode::InvalidRequest, format!("body: {e}")))?;
    let mut orders = server.orders();
    let order = orders.get_mut(&id).ok_or_else(|| not_found(&id))?;
    update
        .apply_to(order)
        .map_err(|e| with_order(ApiError::from(e), &id))?;
    Ok(Json(&update).into_response())
}

/// The new order's ids and the stand-in deposit address, numbered `n`.
fn new_order(n: u64, now: EpochMillis) -> Result<NewOrder, ApiError> {
    let id = OrderId::new(&format!("order-{n:08}")).map_err(|e| internal(&e))?;
    let provider = ProviderOrderId::new(&format!("provider-{n:08}")).map_err(|e| internal(&e))?;
    let pay_in =
        Address::new(&format!("fake-receive-address-{n:016x}")).map_err(|e| internal(&e))?;
    Ok(NewOrder::new(id, provider, pay_in, now))
}

/// A body over the cap is 413; one that cannot be read otherwise is 400.
fn body_error(rejection: &BytesRejection) -> ApiError {
    let code = if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
        ErrorCode::PayloadTooLarge
    } else {
        ErrorCode::InvalidRequest
    };
    ApiError::new(code, format!("body: {}", rejection.body_text()))
}

fn not_found(id: &str) -> ApiError {
    with_order(
        ApiError::new(ErrorCode::NotFound, format!("no order {id}")),
        id,
    )
}

fn with_order(error: ApiError, id: &str) -> ApiError {
    match OrderId::new(id) {
        Ok(id) => error.with_order_id(id),
        Err(_) => error,
    }
}

fn internal(error: &dyn std::fmt::Display) -> ApiError {
    ApiError::new(ErrorCode::InternalError, error.to_string())
}
