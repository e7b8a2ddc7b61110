//! The routes: each handler is a few calls into the crate (decode, validate,
//! plan, build the order) and one statement on the store. The crate's work
//! runs on the CPU pool ([`crate::cpu`]), off the threads that handle
//! connections. Every failure is the crate's typed error, answered as its
//! JSON body, or one of the server's own ([`crate::errors`]).

use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::extract::{Path, Query, Request, State};
use axum::http::header::CONTENT_TYPE;
use axum::http::{HeaderValue, StatusCode};
use axum::middleware::{from_fn, from_fn_with_state, map_response, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use http_body_util::BodyExt;
use swaproute::client::{ClientHeaders, Integration};
use swaproute::order::{ChainQuery, RouteQuery};
use swaproute::route::{Policy, PriceGuard, PriceReference, SplitPolicy};
use swaproute::ErrorCode::{InternalError, InvalidRequest, NotFound};
use swaproute::{Amount, ApiError, CampaignLimits, EpochMillis, ErrorCode};

use crate::book::unexpired_json;
use crate::errors::{closing, cut, own_error, Failure, MAX_DETAILS};
use crate::observe::observe;
use crate::orders::{create_fixed, create_float, order, update_order};
use crate::state::{fail, AppName, Server, Shared};

/// Bodies above this are 413 `PAYLOAD_TOO_LARGE` (ruling 25).
pub(crate) const BODY_LIMIT: usize = 64 * 1024;
/// `/healthz` answers within this, whatever the database does.
const HEALTH_DEADLINE: Duration = Duration::from_millis(800);

/// The service's routes, behind (from the outside in) the request log and
/// metrics, the JSON error layer, the request timeout, the `App-Name`
/// check and the body reader.
pub(crate) fn router(server: Arc<Server>) -> Router {
    Router::new()
        .route("/healthz", get(health))
        .route("/metrics", get(metrics))
        .route("/v3/pairs/{pair_id}/rates", get(rates))
        .route("/v3/pairs/{pair_id}/route", get(route))
        .route("/v3/pairs/{pair_id}/quotes", get(quotes))
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
        .layer(from_fn_with_state(Arc::clone(&server.metrics), observe))
        .with_state(server)
}

/// Every request but `/healthz` and `/metrics` names its application (401
/// `UNAUTHORIZED` otherwise).
async fn require_app_name(mut request: Request, next: Next) -> Response {
    if matches!(request.uri().path(), "/healthz" | "/metrics") {
        return next.run(request).await;
    }
    match ClientHeaders::from_header_map(request.headers(), Integration::Direct) {
        Ok(client) => {
            let app = AppName(client.app_name().to_owned());
            request.extensions_mut().insert(app);
            next.run(request).await
        }
        Err(error) => error.into_response(),
    }
}

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
    match tokio::time::timeout(server.timeouts().body, read).await {
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
                server.timeouts().body.as_millis()
            ),
        )),
    }
}

/// The whole request within the request timeout, or 503. The timer runs on
/// the connection threads, which never run the engine ([`crate::cpu`]), so
/// it fires in time whatever a selection is doing. A creation cut short
/// this way may still have been written: its client retries with the same
/// Idempotency-Key and gets the order.
async fn time_limit(State(server): Shared, request: Request, next: Next) -> Response {
    let limit = server.timeouts().request;
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

/// `GET /healthz`: 200 when the database answers within
/// [`HEALTH_DEADLINE`], else 503 (at once when the pool cannot reach it).
async fn health(State(server): Shared) -> Response {
    let down = |why: &str| {
        tracing::warn!(reason = why, "healthz: the database does not answer");
        own_error(
            StatusCode::SERVICE_UNAVAILABLE,
            "SERVICE_UNAVAILABLE",
            &format!("the database does not answer ({why})"),
        )
    };
    match tokio::time::timeout(HEALTH_DEADLINE, server.store.ping()).await {
        Ok(Ok(())) => Json(serde_json::json!({"status": "ok"})).into_response(),
        Ok(Err(_)) => down("it refused"),
        Err(_) => down("no answer within 800 ms"),
    }
}

/// `GET /metrics`: Prometheus metrics (no `App-Name` needed).
async fn metrics(State(server): Shared) -> Response {
    let (size, idle, max) = server.store.pool_state();
    server.metrics.db_pool(size, idle, max);
    let (running, waiting) = server.cpu.load();
    server.metrics.cpu_jobs(running, waiting);
    let (busy, idle, cap) = server.conns.state();
    server.metrics.connections(busy, idle, cap);
    server.metrics.render()
}

fn json(text: String) -> Response {
    let mut response = text.into_response();
    response
        .headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    response
}

/// `GET /v3/pairs/{pairId}/rates`: the pair's rates unexpired now (ruling
/// 51), each as the file has it; 503 `STALE_RATES` when every one expired.
async fn rates(State(server): Shared, Path(pair_id): Path<String>) -> Result<Response, Failure> {
    let now = server.now()?;
    let book = server.books.current();
    let text = server
        .cpu
        .run(move || -> Result<String, Failure> {
            Ok(unexpired_json(book.fresh(&pair_id, now)?, now)?)
        })
        .await??;
    Ok(json(text))
}

async fn route(
    State(server): Shared,
    Path(pair_id): Path<String>,
    Query(query): Query<Vec<(String, String)>>,
) -> Result<Response, Failure> {
    let now = server.now()?;
    let book = server.books.current();
    let split = query
        .iter()
        .any(|(key, value)| key == "split" && value == "true");
    let job = move || route_answer(&book, &pair_id, query, now);
    if split {
        server.cpu.run_heavy(job).await?
    } else {
        server.cpu.run(job).await?
    }
}

fn route_answer(
    book: &crate::book::Book,
    pair_id: &str,
    query: Vec<(String, String)>,
    now: EpochMillis,
) -> Result<Response, Failure> {
    let rates = book.fresh(pair_id, now)?;
    let split = split_policy(&query)?;
    // The caller's price guard holds every question of the request (ruling
    // 41): the estimate, the ranking, the split and each leg.
    let guard = price_guard(&query)?;
    let policy = Policy::DEFAULT.with_price_guard(guard.as_ref());
    let request = RouteQuery::from_pairs(query)?.route_request_under(rates, now, policy)?;
    let selection = request.select(rates);
    let mut body = serde_json::to_value(&selection)
        .map_err(|e| ApiError::new(InternalError, format!("encoding the route: {e}")))?;
    // Ruling 50: until when the chosen route holds (epoch ms; null when
    // nothing left can expire).
    let mut valid_until = request.valid_until(rates);
    let Some(policy) = split else {
        if let Some(no_route) = selection.no_route() {
            return Err(ApiError::from(no_route.clone()).into());
        }
        insert_valid_until(&mut body, valid_until);
        return Ok(Json(body).into_response());
    };
    // Ruling 39: the single routes as above, and `"split"` (or `null`); a
    // split answers an amount no single route serves.
    let answer = request.split(rates, &policy)?;
    let split = serde_json::to_value(answer.split())
        .map_err(|e| ApiError::new(InternalError, format!("encoding the split: {e}")))?;
    if answer.split().is_some() {
        // The answer is the split: it holds until its first leg expires.
        valid_until = swaproute::route::split_valid_until(&request, rates, &answer);
    }
    if let Some(object) = body.as_object_mut() {
        object.insert("split".to_owned(), split);
    }
    insert_valid_until(&mut body, valid_until);
    Ok(Json(body).into_response())
}

/// `"validUntil"` (ruling 50) into an answer object.
fn insert_valid_until(body: &mut serde_json::Value, until: Option<EpochMillis>) {
    if let Some(object) = body.as_object_mut() {
        object.insert(
            "validUntil".to_owned(),
            until.map_or(serde_json::Value::Null, |at| at.as_millis().into()),
        );
    }
}

/// `GET /v3/pairs/{pairId}/quotes?amount=…`: the server's stand-in quote for
/// that amount (the spec's Quote resource; ruling 51): the best ExactIn
/// route's net output floored to 8 places, good for 30 s; above every
/// rate's max, priced with each rate's max raised 4 times (quotes allow
/// larger maximums).
async fn quotes(
    State(server): Shared,
    Path(pair_id): Path<String>,
    Query(query): Query<Vec<(String, String)>>,
) -> Result<Response, Failure> {
    let mut amounts = query.iter().filter(|(key, _)| key == "amount");
    let text = match (amounts.next(), amounts.next()) {
        (None, _) => return Err(fail(InvalidRequest, "amount: is required").into()),
        (Some(_), Some(_)) => return Err(fail(InvalidRequest, "amount: sent twice").into()),
        (Some((_, text)), None) => text.clone(),
    };
    let amount = Amount::parse(&text).map_err(|e| {
        ApiError::new(
            ErrorCode::InvalidAmount,
            format!("amount: {}", cut(&e.to_string(), MAX_DETAILS)),
        )
    })?;
    if amount.is_zero() {
        return Err(fail(ErrorCode::InvalidAmount, "amount: must be greater than 0").into());
    }
    let now = server.now()?;
    let book = server.books.current();
    server
        .cpu
        .run(move || -> Result<Response, Failure> {
            let quote = book.stand_in_quote(&pair_id, ("amount", amount), now)?;
            Ok(Json(&quote).into_response())
        })
        .await?
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
                let cost = Amount::parse(value).map_err(|e| bad(format!("perOrderCost: {e}")))?;
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

/// The price guard of a route query (rulings 40-42): `maxDeviationBps=N`
/// and, optionally, `reference=DEC` (else the median of the rates that can
/// serve some amount; for chains, of each leg's pair).
fn price_guard(query: &[(String, String)]) -> Result<Option<PriceGuard>, ApiError> {
    let bad = |text: String| ApiError::new(InvalidRequest, text);
    let mut bps: Option<u32> = None;
    let mut reference: Option<PriceReference> = None;
    for (key, value) in query {
        match key.as_str() {
            "maxDeviationBps" => {
                if bps.is_some() {
                    return Err(bad("maxDeviationBps: sent twice".to_owned()));
                }
                bps = Some(value.parse().map_err(|_| {
                    bad(format!(
                        "maxDeviationBps: {:?} is not a whole number of basis points (0 to 4294967295)",
                        cut(value, MAX_DETAILS)
                    ))
                })?);
            }
            "reference" => {
                if reference.is_some() {
                    return Err(bad("reference: sent twice".to_owned()));
                }
                let multiplier =
                    Amount::parse(value).map_err(|e| bad(format!("reference: {e}")))?;
                reference = Some(
                    PriceReference::new(multiplier.get())
                        .map_err(|e| bad(format!("reference: {e}")))?,
                );
            }
            _ => {}
        }
    }
    match (bps, reference) {
        (None, None) => Ok(None),
        (None, Some(_)) => Err(bad("reference needs maxDeviationBps".to_owned())),
        (Some(bps), None) => Ok(Some(PriceGuard::median(bps))),
        (Some(bps), Some(reference)) => Ok(Some(PriceGuard::against(reference, bps))),
    }
}

/// At most this many chains in a `/v3/route` answer.
const CHAINS_SHOWN: usize = 5;

/// `GET /v3/route?from=BTC&to=SOL&fromAmount=0.5[&swapMode=ExactOut&toAmount=…][&maxLegs=3]`:
/// the best chained routes (1 to 3 legs) over every pair's rates, or the
/// chained "no route" error.
async fn chain_route(
    State(server): Shared,
    Query(query): Query<Vec<(String, String)>>,
) -> Result<Response, Failure> {
    let now = server.now()?;
    let book = server.books.current();
    server
        .cpu
        .run_heavy(move || -> Result<Response, Failure> {
            book.any_fresh(now)?;
            let market = book.all().market(&CampaignLimits::new(), now)?;
            let guard = price_guard(&query)?;
            let request = ChainQuery::from_pairs(query)?.chain_request(now);
            // Each leg under its own pair's median, or the caller's reference.
            let request = match guard {
                Some(guard) => request.with_price_guard(guard),
                None => request,
            };
            let selection = request.select(&market, CHAINS_SHOWN);
            if let Some(no_route) = selection.no_route() {
                return Err(ApiError::from(no_route.clone()).into());
            }
            let mut body = serde_json::to_value(&selection)
                .map_err(|e| ApiError::new(InternalError, format!("encoding the chains: {e}")))?;
            // Ruling 50: the best chain holds until its first leg
            // expires (a guard's medians may move sooner: bounded
            // by the first expiry of any pair's rates).
            let guarded: Vec<&[swaproute::Rate]> =
                match request.price_guard().map(PriceGuard::reference) {
                    Some(None) => book.all().iter().map(|(_, r)| r.rates()).collect(),
                    _ => Vec::new(),
                };
            let until = selection
                .chains()
                .first()
                .map(|best| swaproute::route::chain_valid_until(best, now, &guarded));
            insert_valid_until(&mut body, until);
            Ok(Json(body).into_response())
        })
        .await?
}
