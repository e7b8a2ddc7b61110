//! The order endpoints: creation (fixed and floating, idempotent per
//! `App-Name` and key), reading and the deposit update. Each plans with the
//! crate on the CPU pool ([`crate::cpu`]) and writes with one statement.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::header::CONTENT_TYPE;
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use swaproute::order::{
    DepositTransactionUpdate, FixedOrderRequest, FloatOrderRequest, NewOrder, Order, OrderContext,
    TransactionId,
};
use swaproute::screening::Address;
use swaproute::wire::{Presence, Timestamp};
use swaproute::ErrorCode::{InternalError, InvalidRequest, NotFound};
use swaproute::{ApiError, EpochMillis, OrderId, ProviderOrderId};
use tiny_keccak::{Hasher, Sha3};

use crate::book::{hex, Book};
use crate::errors::{echo, own_error, Failure};
use crate::observe::RequestNote;
use crate::state::{fail, AppName, Server, Shared};
use crate::store::{Inserted, StoreError, Stored};

/// The longest Idempotency-Key accepted.
pub(crate) const MAX_KEY_LEN: usize = 255;

/// Which creation endpoint: part of the request digest, so one key used on
/// both endpoints is a conflict even with one body.
#[derive(Clone, Copy, Debug)]
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
fn replay(server: &Server, stored: Stored, digest: &str) -> Response {
    if stored.digest.as_deref() == Some(digest) {
        server.metrics.replay();
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
pub(crate) fn store_failed(StoreError { text, busy }: StoreError) -> Failure {
    tracing::error!(error = %text, busy, "database");
    if busy {
        Failure::new(own_error(
            StatusCode::SERVICE_UNAVAILABLE,
            "SERVICE_UNAVAILABLE",
            "the order store is busy; retry (with the same Idempotency-Key for a creation)",
        ))
    } else {
        Failure::from(fail(InternalError, "the order store failed"))
    }
}

/// Plans and builds an order from a body, on the CPU pool.
type Make = fn(&Book, &[u8], &NewOrder, EpochMillis) -> Result<Order, Failure>;

/// Both creation endpoints: the key's order if there is one; else decode,
/// plan and build the order (`make`, on the CPU pool), then insert it: the
/// one statement that decides, between concurrent retries, which one
/// creates the order.
async fn create(
    server: &Arc<Server>,
    flow: Flow,
    app: &str,
    headers: &HeaderMap,
    body: Bytes,
    make: Make,
) -> Result<Response, Failure> {
    let key = idempotency_key(headers)?;
    let digest = digest(flow, &body);
    if let Some(key) = &key {
        if let Some(stored) = server.store.by_key(app, key).await.map_err(store_failed)? {
            return Ok(replay(server, stored, &digest));
        }
    }
    let now = server.now()?;
    let (id, new) = new_order(now)?;
    let book = server.books.current();
    let text = server
        .cpu
        .run(move || {
            let order = make(&book, &body, &new, now)?;
            serde_json::to_string(&order).map_err(|e| Failure::from(fail(InternalError, e)))
        })
        .await??;
    let inserted = server
        .store
        .insert(
            &id,
            app,
            key.as_deref().map(|k| (k, digest.as_str())),
            &text,
            millis(now),
        )
        .await
        .map_err(store_failed)?;
    match (inserted, &key) {
        (Inserted::New, _) => {
            server.metrics.order_created(flow_name(flow));
            let mut response = json_text(StatusCode::CREATED, text);
            response.extensions_mut().insert(RequestNote::order(&id));
            Ok(response)
        }
        (Inserted::KeyTaken, Some(key)) => match server.store.by_key(app, key).await {
            Ok(Some(stored)) => Ok(replay(server, stored, &digest)),
            Ok(None) => Err(fail(InternalError, "the order store lost a key").into()),
            Err(error) => Err(store_failed(error)),
        },
        (Inserted::KeyTaken, None) => Err(fail(InternalError, "the order was not stored").into()),
    }
}

fn flow_name(flow: Flow) -> &'static str {
    match flow {
        Flow::Fixed => "fixed",
        Flow::Float => "float",
    }
}

/// The context of a plan: the server's screening policy, and the pair's
/// asset records, so addresses are checked against their networks (ruling
/// 46) and amounts against their assets' decimals.
fn context<'b>(
    server_screening: &'b swaproute::screening::ScreeningPolicy,
    book: &'b Book,
    pair: &swaproute::PairId,
    now: EpochMillis,
) -> OrderContext<'b> {
    let context = OrderContext::new(now, server_screening);
    match book.assets_of(pair) {
        Some(records) => context.with_assets(records),
        None => context,
    }
}

/// `POST /v3/orders`: a fixed-rate order at the best eligible rate.
pub(crate) async fn create_fixed(
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
        body,
        |book, body, new, now| {
            let request = FixedOrderRequest::from_json(body)?;
            let rates = book.fresh(request.pair_id().as_str(), now)?;
            let screening = swaproute::screening::ScreeningPolicy::default();
            let context = context(&screening, book, request.pair_id(), now);
            let plan = request.plan(rates, &context)?;
            Ok(plan.to_order(&request, new)?)
        },
    )
    .await
}

/// `POST /v3/orders/float`: a floating order, planned against the server's
/// stand-in quote for the body's `fromAmount` ([`Book::stand_in_quote`]:
/// above every rate's max, the quote's own maximum applies).
pub(crate) async fn create_float(
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
        body,
        |book, body, new, now| {
            let request = FloatOrderRequest::from_json(body)?;
            let quote = book.stand_in_quote(
                request.pair_id().as_str(),
                ("fromAmount", request.from_amount()),
                now,
            )?;
            let screening = swaproute::screening::ScreeningPolicy::default();
            let context = context(&screening, book, request.pair_id(), now);
            let plan = request.plan(&quote, &context)?;
            Ok(plan.to_order(&request, new)?)
        },
    )
    .await
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

/// `GET /v3/orders/{id}`: the stored order with `toAmount: null`, since the
/// deposit has not been analyzed (ruling 51: the reference server has no
/// provider, so it never is). The creation answer and its replays keep the
/// estimate.
pub(crate) async fn order(
    State(server): Shared,
    Path(id): Path<String>,
) -> Result<Response, Failure> {
    let stored = find(&server, &id).await?;
    let mut order: Order = serde_json::from_str(&stored.body)
        .map_err(|e| fail(InternalError, format!("stored order: {e}")))?;
    order.to_amount = Presence::Null;
    let text = serde_json::to_string(&order).map_err(|e| fail(InternalError, e))?;
    let mut response = json_text(StatusCode::OK, text);
    response.extensions_mut().insert(RequestNote::order(&id));
    Ok(response)
}

/// `PATCH /v3/orders/{id}`: sets the deposit transaction id, once, and
/// moves `updatedAt`. Two updates racing (in one process or several) are
/// ordered by the row's revision: the second sees the first's value and is
/// 412.
pub(crate) async fn update_order(
    State(server): Shared,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Response, Failure> {
    let update: DepositTransactionUpdate =
        serde_json::from_slice(&body).map_err(|e| update_refused(&body, &e))?;
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
            let mut response = Json(&update).into_response();
            response.extensions_mut().insert(RequestNote::order(&id));
            return Ok(response);
        }
    }
    Err(fail(InternalError, "the order kept changing; retry").into())
}

/// Why an update body is refused, with its reason first: a `transactionId`
/// that is a string but not a transaction id says what is wrong with it
/// (its length, a character), never only that it was wrong.
fn update_refused(body: &[u8], error: &serde_json::Error) -> ApiError {
    if let Ok(serde_json::Value::Object(fields)) = serde_json::from_slice(body) {
        if let Some(serde_json::Value::String(text)) = fields.get("transactionId") {
            if let Err(invalid) = TransactionId::new(text) {
                return ApiError::from(invalid);
            }
        }
    }
    fail(InvalidRequest, format!("body: {error}"))
}

/// `now` as the database keeps instants (epoch ms in a BIGINT).
fn millis(now: EpochMillis) -> i64 {
    i64::try_from(now.as_millis()).unwrap_or(i64::MAX)
}

#[cfg(test)]
mod tests {
    use super::sf_string;

    #[test]
    fn sf_strings_are_read_as_rfc_8941_says() {
        let read = |text: &str| sf_string(text.as_bytes());
        assert_eq!(read("\"abc\"").as_deref(), Some("abc"));
        assert_eq!(read("\"a b\"").as_deref(), Some("a b"));
        assert_eq!(read(r#""a\"b\\c""#).as_deref(), Some(r#"a"b\c"#));
        assert_eq!(read("\"\"").as_deref(), Some(""));
        for bad in [
            r#""a\b""#,
            "\"ab\"c",
            "\"abc",
            "abc",
            "\"a\u{7f}\"",
            "\"é\"",
        ] {
            assert_eq!(read(bad), None, "{bad}");
        }
    }
}
