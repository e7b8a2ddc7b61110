//! The routes of the reference server: each handler is a few calls into the
//! crate, and every failure is the crate's typed error, answered as its JSON
//! body (`?` turns each into an `ApiError`).

use std::sync::{Arc, Mutex, PoisonError};
use std::time::SystemTime;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, Path, Query, Request, State};
use axum::http::StatusCode;
use axum::middleware::{from_fn, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use swaproute::client::{ClientHeaders, Integration};
use swaproute::order::{
    DepositTransactionUpdate, FixedOrderRequest, NewOrder, Order, OrderContext,
};
use swaproute::route::RouteQuery;
use swaproute::screening::{Address, ScreeningPolicy};
use swaproute::ErrorCode::{InternalError, InvalidRequest, NotFound};
use swaproute::{ApiError, EpochMillis, ErrorCode, OrderId, ProviderOrderId, RatesResponse};

/// Bodies above this are 413 `PAYLOAD_TOO_LARGE` (ruling 25).
const BODY_LIMIT: usize = 64 * 1024;

/// What the server holds: one pair's rates, a fixed clock if asked, orders.
#[derive(Default)]
pub(crate) struct Server {
    rates: RatesResponse,
    now: Option<EpochMillis>,
    screening: ScreeningPolicy,
    /// Order `n` has the id `order-n` (8 digits), at index `n − 1`.
    orders: Mutex<Vec<Order>>,
}

impl Server {
    /// A server over `rates`, at `now` (the system clock when `None`).
    pub(crate) fn new(rates: RatesResponse, now: Option<EpochMillis>) -> Self {
        let server = Server::default();
        Server {
            rates,
            now,
            ..server
        }
    }

    fn now(&self) -> Result<EpochMillis, ApiError> {
        let clock = || EpochMillis::try_from(SystemTime::now()).map_err(|e| fail(InternalError, e));
        self.now.map_or_else(clock, Ok)
    }

    fn rates_of(&self, pair_id: &str) -> Result<&RatesResponse, ApiError> {
        match self.rates.pair_id() {
            Some(pair) if pair.as_str() == pair_id => Ok(&self.rates),
            _ => Err(fail(NotFound, format!("no rates for pair {pair_id}"))),
        }
    }

    /// Runs `f` on order `id`, or answers 404.
    fn with_order<T>(&self, id: &str, f: impl FnOnce(&mut Order) -> T) -> Result<T, ApiError> {
        let mut orders = self.orders.lock().unwrap_or_else(PoisonError::into_inner);
        let order = orders.iter_mut().find(|order| order.id.as_str() == id);
        Ok(f(
            order.ok_or_else(|| fail(NotFound, format!("no order {id}")))?
        ))
    }
}

type Shared = State<Arc<Server>>;

/// The service's routes, behind the `App-Name` check and the body cap.
pub(crate) fn router(server: Server) -> Router {
    Router::new()
        .route("/v3/pairs/{pair_id}/rates", get(rates))
        .route("/v3/pairs/{pair_id}/route", get(route))
        .route("/v3/orders", post(create_order))
        .route("/v3/orders/{id}", get(order).patch(update_order))
        .fallback(|| async { fail(NotFound, "no such endpoint") })
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
) -> Result<Response, ApiError> {
    let rates = server.rates_of(&pair_id)?;
    let selection = RouteQuery::from_pairs(query)?
        .route_request(server.now()?)
        .select(rates);
    match selection.no_route() {
        Some(no_route) => Err(no_route.clone().into()),
        None => Ok(Json(&selection).into_response()),
    }
}

async fn create_order(
    State(server): Shared,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let request = FixedOrderRequest::from_json(&body?)?;
    let now = server.now()?;
    let rates = server.rates_of(request.pair_id().as_str())?;
    let plan = request.plan(rates, &OrderContext::new(now, &server.screening))?;
    let mut orders = server.orders.lock().unwrap_or_else(PoisonError::into_inner);
    let n = orders.len().saturating_add(1);
    let new = NewOrder::new(
        OrderId::new(&format!("order-{n:08}")).map_err(|e| fail(InternalError, e))?,
        ProviderOrderId::new(&format!("provider-{n:08}")).map_err(|e| fail(InternalError, e))?,
        Address::new(&format!("fake-receive-address-{n:016x}"))
            .map_err(|e| fail(InternalError, e))?,
        now,
    );
    let order = plan.to_order(&request, &new)?;
    let response = (StatusCode::CREATED, Json(&order)).into_response();
    orders.push(order);
    Ok(response)
}

async fn order(State(server): Shared, Path(id): Path<String>) -> Result<Response, ApiError> {
    server.with_order(&id, |order| Json(&*order).into_response())
}

async fn update_order(
    State(server): Shared,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let update: DepositTransactionUpdate =
        serde_json::from_slice(&body?).map_err(|e| fail(InvalidRequest, format!("body: {e}")))?;
    let applied = server.with_order(&id, |order| {
        let id = order.id.clone();
        update
            .apply_to(order)
            .map_err(|e| ApiError::from(e).with_order_id(id))
    })?;
    applied.map(|()| Json(&update).into_response())
}

fn fail(code: ErrorCode, details: impl std::fmt::Display) -> ApiError {
    ApiError::new(code, details.to_string())
}
