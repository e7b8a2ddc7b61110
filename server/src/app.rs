//! The routes: each handler is a few calls into the crate (decode, validate,
//! plan, build the order) and one statement on the store. Every failure is
//! the crate's typed error, answered as its JSON body, or one of the server's
//! own ([`crate::errors`]).

use std::sync::Arc;
use std::time::{Duration, SystemTime};

use axum::body::{Body, Bytes};
use axum::extract::{Path, Query, Request, State};
use axum::http::header::CONTENT_TYPE;
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::middleware::{from_fn, from_fn_with_state, map_response, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Extension, Json, Router};
use http_body_util::BodyExt;
use swaproute::client::{ClientHeaders, Integration};
use swaproute::order::{ChainQuery, RouteQuery};
use swaproute::order::{
    DepositTransactionUpdate, FixedOrderRequest, FloatOrderRequest, NewOrder, Order, OrderContext,
};
use swaproute::quote::Quote;
use swaproute::route::{RatesByPair, RouteRequest, SplitPolicy};
use swaproute::screening::{Address, ScreeningPolicy};
use swaproute::wire::{Presence, Timestamp};
use swaproute::ErrorCode::{InternalError, InvalidRequest, NotFound};
use swaproute::{
    ApiError, CampaignLimits, EpochMillis, ErrorCode, OrderId, PairId, ProviderOrderId, QuoteId,
    RatesResponse,
};
use tiny_keccak::{Hasher, Sha3};

use crate::errors::{closing, echo, own_error, Failure};
use crate::store::{Inserted, Store, StoreError, Stored};

/// Bodies above this are 413 `PAYLOAD_TOO_LARGE` (ruling 25).
pub(crate) const BODY_LIMIT: usize = 64 * 1024;
/// The longest Idempotency-Key accepted.
pub(crate) const MAX_KEY_LEN: usize = 255;
/// How long a stand-in quote for a floating order is good for.
const QUOTE_LIFETIME_MILLIS: u64 = 30_000;

/// Time limits of one request.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Timeouts {
    /// The whole body must arrive within this (408 otherwise).
    pub(crate) body: Duration,
    /// The whole request, body included, must be answered within this
    /// (503 otherwise).
    pub(crate) request: Duration,
}

/// What the handlers share: each pair's rates, a fixed clock if asked, the
/// order store.
#[derive(Debug)]
pub(crate) struct Server {
    rates: RatesByPair,
    now: Option<EpochMillis>,
    screening: ScreeningPolicy,
    store: Store,
    timeouts: Timeouts,
}

impl Server {
    /// A server over `rates` and `store`, at `now` (the system clock when
    /// `None`).
    pub(crate) fn new(
        rates: RatesByPair,
        now: Option<EpochMillis>,
        store: Store,
        timeouts: Timeouts,
    ) -> Self {
        Server {
            rates,
            now,
            screening: ScreeningPolicy::default(),
            store,
            timeouts,
        }
    }

    fn now(&self) -> Result<EpochMillis, ApiError> {
        let clock = || EpochMillis::try_from(SystemTime::now()).map_err(|e| fail(InternalError, e));
        self.now.map_or_else(clock, Ok)
    }

    fn rates_of(&self, pair_id: &str) -> Result<&RatesResponse, ApiError> {
        let pair = PairId::new(pair_id).ok();
        pair.and_then(|pair| self.rates.get(&pair))
            .ok_or_else(|| fail(NotFound, format!("no rates for pair {}", echo(pair_id))))
    }
}

type Shared = State<Arc<Server>>;

/// The service's routes, behind (from the outside in) the JSON error layer,
/// the request timeout, the `App-Name` check and the body reader.
pub(crate) fn router(server: Server) -> Router {
    let server = Arc::new(server);
    Router::new()
        .route("/healthz", get(health))
        .route("/v3/pairs/{pair_id}/rates", get(rates))
        .route("/v3/pairs/{pair_id}/route", get(route))
        .route("/v3/route", get(chain_route))
        .route("/v3/orders", post(create_fixed))
        .route("/v3/orders/float", post(create_float))
        .route("/v3/orders/{id}", get(order).patch(update_order))
        .fallback(|| async { fail(NotFound, "no such endpoint") })
        .method_not_allowed_fallback(|| async {
            own_error(
                StatusCode::METHOD_NOT_ALLOWED,
                "METHOD_NOT_ALLOWED",
                "this endpoint does not take this method",
            )
        })
        .layer(from_fn_with_state(server.clone(), read_body))
        .layer(from_fn(require_app_name))
        .layer(from_fn_with_state(server.clone(), time_limit))
        .layer(map_response(crate::errors::json_errors))
        .with_state(server)
}

/// Every request but `/healthz` names its application (401 `UNAUTHORIZED`
/// otherwise).
async fn require_app_name(request: Request, next: Next) -> Response {
    if request.uri().path() == "/healthz" {
        return next.run(request).await;
    }
    match ClientHeaders::from_header_map(request.headers(), Integration::Direct) {
        Ok(client) => {
            let mut request = request;
            let app = AppName(client.app_name().to_owned());
            request.extensions_mut().insert(app);
            next.run(request).await
        }
        Err(error) => error.into_response(),
    }
}

/// The request's `App-Name` (checked by [`require_app_name`]): the scope of
/// its Idempotency-Keys (ruling 51).
#[derive(Clone, Debug)]
pub(crate) struct AppName(pub(crate) String);

/// Reads the whole body first, at most [`BODY_LIMIT`] bytes within the body
/// timeout: a slow or endless body is 408, a long one 413, and the
/// connection closes after either (its unread rest is not a next request).
async fn read_body(State(server): Shared, request: Request, next: Next) -> Response {
    let (parts, mut body) = request.into_parts();
    let too_large = || {
        let details = format!("the body is over {BODY_LIMIT} bytes");
        closing(fail(ErrorCode::PayloadTooLarge, details).into_response())
    };
    // A declared length over the cap is refused before any of it is read.
    let declared = parts.headers.get(axum::http::header::CONTENT_LENGTH);
    if declared
        .and_then(|value| value.to_str().ok()?.parse::<u64>().ok())
        .is_some_and(|length| length > BODY_LIMIT as u64)
    {
        return too_large();
    }
    let read = async {
        let mut bytes = Vec::new();
        while let Some(frame) = body.frame().await {
            let Ok(frame) = frame else {
                return Err(fail(InvalidRequest, "body: could not be read").into_response());
            };
            if let Ok(data) = frame.into_data() {
                if bytes.len().saturating_add(data.len()) > BODY_LIMIT {
                    return Err(too_large());
                }
                bytes.extend_from_slice(&data);
            }
        }
        Ok(bytes)
    };
    match tokio::time::timeout(server.timeouts.body, read).await {
        Ok(Ok(bytes)) => {
            next.run(Request::from_parts(parts, Body::from(bytes)))
                .await
        }
        Ok(Err(response)) => response,
        Err(_) => closing(own_error(
            StatusCode::REQUEST_TIMEOUT,
            "REQUEST_TIMEOUT",
            &format!(
                "the body did not arrive within {} ms",
                server.timeouts.body.as_millis()
            ),
        )),
    }
}

/// The whole request within the request timeout, or 503. A creation cut
/// short this way may still have been written: its client retries with the
/// same Idempotency-Key and gets the order.
async fn time_limit(State(server): Shared, request: Request, next: Next) -> Response {
    let limit = server.timeouts.request;
    match tokio::time::timeout(limit, next.run(request)).await {
        Ok(response) => response,
        Err(_) => closing(own_error(
            StatusCode::SERVICE_UNAVAILABLE,
            "SERVICE_UNAVAILABLE",
            &format!(
                "no answer within {} ms; retry (with the same Idempotency-Key for a creation)",
                limit.as_millis()
            ),
        )),
    }
}

/// `GET /healthz`: 200 when the database answers, 503 otherwise.
async fn health(State(server): Shared) -> Response {
    match server.store.ping().await {
        Ok(()) => Json(serde_json::json!({"status": "ok"})).into_response(),
        Err(error) => {
            eprintln!("healthz: database: {}", error.text);
            own_error(
                StatusCode::SERVICE_UNAVAILABLE,
                "SERVICE_UNAVAILABLE",
                "the database does not answer",
            )
        }
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
    let split = split_policy(&query)?;
    let request = RouteQuery::from_pairs(query)?.route_request(rates, server.now()?)?;
    let selection = request.select(rates);
    let Some(policy) = split else {
        return match selection.no_route() {
            Some(no_route) => Err(no_route.clone().into()),
            None => Ok(Json(&selection).into_response()),
        };
    };
    // Ruling 39: the single routes as above, and `"split"` (or `null`); a
    // split answers an amount no single route serves.
    let answer = request.split(rates, &policy)?;
    let mut body = serde_json::to_value(&selection)
        .map_err(|e| ApiError::new(InternalError, format!("encoding the route: {e}")))?;
    let split = serde_json::to_value(answer.split())
        .map_err(|e| ApiError::new(InternalError, format!("encoding the split: {e}")))?;
    if let Some(object) = body.as_object_mut() {
        object.insert("split".to_owned(), split);
    }
    Ok(Json(body).into_response())
}

/// The split parameters of the route endpoint: `split=true` and, with it,
/// `splitLegs=2|3`, `perOrderCost=DEC` (to asset), `minGainBps=N`.
fn split_policy(query: &[(String, String)]) -> Result<Option<SplitPolicy>, ApiError> {
    let bad = |text: String| ApiError::new(InvalidRequest, text);
    let mut on = false;
    let mut policy = SplitPolicy::DEFAULT;
    let mut options = false;
    for (key, value) in query {
        match key.as_str() {
            "split" => {
                on = match value.as_str() {
                    "true" => true,
                    "false" => false,
                    _ => return Err(bad(format!("split: {value:?} is not true or false"))),
                };
            }
            "splitLegs" => {
                options = true;
                policy = policy.with_legs(value.parse()?);
            }
            "perOrderCost" => {
                options = true;
                let cost = swaproute::Amount::parse(value)
                    .map_err(|e| bad(format!("perOrderCost: {e}")))?;
                policy = policy.with_per_order_cost(cost);
            }
            "minGainBps" => {
                options = true;
                let bps = value.parse().map_err(|_| {
                    bad(format!(
                        "minGainBps: {value:?} is not a whole number of basis points"
                    ))
                })?;
                policy = policy.with_min_gain_bps(bps);
            }
            _ => {}
        }
    }
    if options && !on {
        return Err(bad(
            "splitLegs, perOrderCost and minGainBps need split=true".to_owned(),
        ));
    }
    Ok(on.then_some(policy))
}

/// At most this many chains in a `/v3/route` answer.
const CHAINS_SHOWN: usize = 5;

/// `GET /v3/route?from=BTC&to=SOL&fromAmount=0.5[&swapMode=ExactOut&toAmount=…][&maxLegs=3]`:
/// the best chained routes (1 to 3 legs) over every pair's rates, or the
/// chained "no route" error.
async fn chain_route(
    State(server): Shared,
    Query(query): Query<Vec<(String, String)>>,
) -> Result<Response, ApiError> {
    let now = server.now()?;
    let market = server.rates.market(&CampaignLimits::new(), now)?;
    let selection = ChainQuery::from_pairs(query)?
        .chain_request(now)
        .select(&market, CHAINS_SHOWN);
    match selection.no_route() {
        Some(no_route) => Err(no_route.clone().into()),
        None => Ok(Json(&selection).into_response()),
    }
}

/// Which creation endpoint: part of the request digest, so one key used on
/// both endpoints is a conflict even with one body.
#[derive(Clone, Copy)]
enum Flow {
    Fixed,
    Float,
}

/// The request's Idempotency-Key, if it sent one, sent once. The draft
/// (draft-ietf-httpapi-idempotency-key-header) makes the value an RFC 8941
/// sf-string, `"8e03978e-40d5-43e8-bc93-6894a57f9324"`: its content is the
/// key. A bare value (as Stripe-style clients send it) is taken as it is, 1
/// to [`MAX_KEY_LEN`] visible ASCII characters; `abc` and `"abc"` are one key.
fn idempotency_key(headers: &HeaderMap) -> Result<Option<String>, ApiError> {
    let mut values = headers.get_all("idempotency-key").iter();
    let Some(value) = values.next() else {
        return Ok(None);
    };
    if values.next().is_some() {
        return Err(fail(InvalidRequest, "Idempotency-Key: sent more than once"));
    }
    let bytes = value.as_bytes();
    let key = if bytes.first() == Some(&b'"') {
        sf_string(bytes).ok_or_else(|| {
            fail(
                InvalidRequest,
                "Idempotency-Key: a quoted value must be an RFC 8941 string \
                 (printable ASCII; only \\\" and \\\\ escaped)",
            )
        })?
    } else if bytes.iter().all(u8::is_ascii_graphic) {
        String::from_utf8_lossy(bytes).into_owned()
    } else {
        return Err(fail(
            InvalidRequest,
            "Idempotency-Key: must be visible ASCII characters, or an RFC 8941 string in quotes",
        ));
    };
    if key.is_empty() || key.len() > MAX_KEY_LEN {
        return Err(fail(
            InvalidRequest,
            format!(
                "Idempotency-Key: must be 1 to {MAX_KEY_LEN} characters (got {})",
                key.len()
            ),
        ));
    }
    Ok(Some(key))
}

/// The content of an RFC 8941 sf-string (section 3.3.3): `"`, printable
/// ASCII with `\"` and `\\` escaped, `"`, and nothing after.
fn sf_string(bytes: &[u8]) -> Option<String> {
    let mut out = String::new();
    let mut rest = bytes.strip_prefix(b"\"")?.iter();
    loop {
        match *rest.next()? {
            b'"' => return rest.next().is_none().then_some(out),
            b'\\' => match *rest.next()? {
                c @ (b'"' | b'\\') => out.push(char::from(c)),
                _ => return None,
            },
            c @ 0x20..=0x7e => out.push(char::from(c)),
            _ => return None,
        }
    }
}

/// SHA3-256 of the endpoint and the body's exact bytes, in hex: a retry
/// must send the same bytes to the same endpoint.
fn digest(flow: Flow, body: &[u8]) -> String {
    let mut hasher = Sha3::v256();
    hasher.update(match flow {
        Flow::Fixed => b"POST /v3/orders\n",
        Flow::Float => b"POST /v3/orders/float\n",
    });
    hasher.update(body);
    let mut out = [0_u8; 32];
    hasher.finalize(&mut out);
    hex(&out)
}

fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    bytes.iter().fold(
        String::with_capacity(bytes.len().saturating_mul(2)),
        |mut text, b| {
            let _ = write!(text, "{b:02x}");
            text
        },
    )
}

/// `n` random bytes from the operating system, in hex.
fn random_hex<const N: usize>() -> Result<String, ApiError> {
    let mut bytes = [0_u8; N];
    getrandom::fill(&mut bytes).map_err(|e| fail(InternalError, format!("random: {e}")))?;
    Ok(hex(&bytes))
}

/// An order id: `ord_` and 128 random bits from the operating system, in hex
/// (32 digits). Unguessable: reading or updating an order needs its id.
fn new_order_id() -> Result<String, ApiError> {
    Ok(format!("ord_{}", random_hex::<16>()?))
}

/// `true` when `id` has the form of [`new_order_id`]'s ids: anything else
/// is 404 without a query.
fn is_order_id(id: &str) -> bool {
    id.len() == 36
        && id.starts_with("ord_")
        && id
            .bytes()
            .skip(4)
            .all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// The stand-ins for what a provider would give a new order.
fn new_order(now: EpochMillis) -> Result<(String, NewOrder), ApiError> {
    let id = new_order_id()?;
    let new = NewOrder::new(
        OrderId::new(&id).map_err(|e| fail(InternalError, e))?,
        ProviderOrderId::new(&format!("provider-{}", random_hex::<8>()?))
            .map_err(|e| fail(InternalError, e))?,
        Address::new(&format!("fake-receive-address-{}", random_hex::<8>()?))
            .map_err(|e| fail(InternalError, e))?,
        now,
    );
    Ok((id, new))
}

fn json_text(status: StatusCode, text: String) -> Response {
    let mut response = (status, text).into_response();
    response
        .headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    response
}

/// The answer to a creation whose key is already taken: the stored order
/// when this is the same request, else 409.
fn replay(stored: Stored, digest: &str) -> Response {
    if stored.digest.as_deref() == Some(digest) {
        let mut response = json_text(StatusCode::CREATED, stored.body);
        response
            .headers_mut()
            .insert("idempotent-replayed", HeaderValue::from_static("true"));
        response
    } else {
        own_error(
            StatusCode::CONFLICT,
            "IDEMPOTENCY_KEY_REUSED",
            "this Idempotency-Key was used with another request body or endpoint; \
             use a new key for a new order",
        )
    }
}

/// A database failure's answer: 503 `SERVICE_UNAVAILABLE` when it is
/// overload (retry, with the same Idempotency-Key for a creation), else 500
/// `INTERNAL_ERROR`. The database's own text goes to the log only.
fn store_failed(StoreError { text, busy }: StoreError) -> Failure {
    eprintln!("database: {text}");
    if busy {
        Failure(own_error(
            StatusCode::SERVICE_UNAVAILABLE,
            "SERVICE_UNAVAILABLE",
            "the order store is busy; retry (with the same Idempotency-Key for a creation)",
        ))
    } else {
        Failure::from(fail(InternalError, "the order store failed"))
    }
}

/// Both creation endpoints: the key's order if there is one; else decode,
/// plan and build the order (`make`), then insert it: the one statement
/// that decides, between concurrent retries, which one creates the order.
async fn create(
    server: &Server,
    flow: Flow,
    app: &str,
    headers: &HeaderMap,
    body: &Bytes,
    make: impl FnOnce(&Server, &NewOrder, EpochMillis) -> Result<Order, ApiError>,
) -> Result<Response, Failure> {
    let key = idempotency_key(headers)?;
    let digest = digest(flow, body);
    if let Some(key) = &key {
        if let Some(stored) = server.store.by_key(app, key).await.map_err(store_failed)? {
            return Ok(replay(stored, &digest));
        }
    }
    let now = server.now()?;
    let (id, new) = new_order(now)?;
    let order = make(server, &new, now)?;
    let text = serde_json::to_string(&order).map_err(|e| fail(InternalError, e))?;
    let created_at = millis(now);
    let inserted = server
        .store
        .insert(
            &id,
            app,
            key.as_deref().map(|k| (k, digest.as_str())),
            &text,
            created_at,
        )
        .await
        .map_err(store_failed)?;
    match (inserted, &key) {
        (Inserted::New, _) => Ok(json_text(StatusCode::CREATED, text)),
        (Inserted::KeyTaken, Some(key)) => match server.store.by_key(app, key).await {
            Ok(Some(stored)) => Ok(replay(stored, &digest)),
            Ok(None) => Err(fail(InternalError, "the order store lost a key").into()),
            Err(error) => Err(store_failed(error)),
        },
        (Inserted::KeyTaken, None) => Err(fail(InternalError, "the order was not stored").into()),
    }
}

/// `POST /v3/orders`: a fixed-rate order at the best eligible rate.
async fn create_fixed(
    State(server): Shared,
    Extension(AppName(app)): Extension<AppName>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, Failure> {
    create(
        &server,
        Flow::Fixed,
        &app,
        &headers,
        &body,
        |server, new, now| {
            let request = FixedOrderRequest::from_json(&body)?;
            let rates = server.rates_of(request.pair_id().as_str())?;
            let plan = request.plan(rates, &OrderContext::new(now, &server.screening))?;
            Ok(plan.to_order(&request, new)?)
        },
    )
    .await
}

/// `POST /v3/orders/float`: a floating order. The reference server has no
/// provider to quote it, so it quotes itself: the best ExactIn route's net
/// output at the body's `fromAmount`, floored to 8 places, good for 30 s.
async fn create_float(
    State(server): Shared,
    Extension(AppName(app)): Extension<AppName>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, Failure> {
    create(
        &server,
        Flow::Float,
        &app,
        &headers,
        &body,
        |server, new, now| {
            let request = FloatOrderRequest::from_json(&body)?;
            let quote = stand_in_quote(server, &request, now)?;
            let plan = request.plan(&quote, &OrderContext::new(now, &server.screening))?;
            Ok(plan.to_order(&request, new)?)
        },
    )
    .await
}

fn stand_in_quote(
    server: &Server,
    request: &FloatOrderRequest,
    now: EpochMillis,
) -> Result<Quote, ApiError> {
    let rates = server.rates_of(request.pair_id().as_str())?;
    let best = RouteRequest::exact_in(request.from_amount(), now).best(rates)?;
    let id = QuoteId::new(&format!("quote-{}", random_hex::<16>()?))?;
    Ok(Quote::from_route(
        id,
        &best,
        now.saturating_add(QUOTE_LIFETIME_MILLIS),
    )?)
}

/// The stored order `id`, or 404 (an id not of the server's form is not
/// looked up; it is echoed cut to [`crate::errors::MAX_ECHO`] characters).
async fn find(server: &Server, id: &str) -> Result<Stored, Failure> {
    let missing = || fail(NotFound, format!("no order {}", echo(id)));
    if !is_order_id(id) {
        return Err(missing().into());
    }
    let stored = server.store.get(id).await.map_err(store_failed)?;
    Ok(stored.ok_or_else(missing)?)
}

async fn order(State(server): Shared, Path(id): Path<String>) -> Result<Response, Failure> {
    Ok(json_text(StatusCode::OK, find(&server, &id).await?.body))
}

/// `PATCH /v3/orders/{id}`: sets the deposit transaction id, once. Two
/// updates racing (in one process or several) are ordered by the row's
/// revision: the second sees the first's value and is 412.
async fn update_order(
    State(server): Shared,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Response, Failure> {
    let update: DepositTransactionUpdate =
        serde_json::from_slice(&body).map_err(|e| fail(InvalidRequest, format!("body: {e}")))?;
    for _ in 0..3 {
        let stored = find(&server, &id).await?;
        let mut order: Order = serde_json::from_str(&stored.body)
            .map_err(|e| fail(InternalError, format!("stored order: {e}")))?;
        let order_id = order.id.clone();
        update
            .apply_to(&mut order)
            .map_err(|e| ApiError::from(e).with_order_id(order_id))?;
        // The update moves `updatedAt` (the library reads no clock).
        let now = server.now()?;
        order.updated_at =
            Presence::Value(Timestamp::try_from(now).map_err(|e| fail(InternalError, e))?);
        let text = serde_json::to_string(&order).map_err(|e| fail(InternalError, e))?;
        if server
            .store
            .update(&id, stored.revision, &text, millis(now))
            .await
            .map_err(store_failed)?
        {
            return Ok(Json(&update).into_response());
        }
    }
    Err(fail(InternalError, "the order kept changing; retry").into())
}

/// `now` as the database keeps instants (epoch ms in a BIGINT).
fn millis(now: EpochMillis) -> i64 {
    i64::try_from(now.as_millis()).unwrap_or(i64::MAX)
}

fn fail(code: ErrorCode, details: impl std::fmt::Display) -> ApiError {
    ApiError::new(code, details.to_string())
}
