//! Issue 31, item 3: every public error type of the crate converts into an
//! `ApiError` with the right code and status, and (feature `axum`) is
//! `IntoResponse`; axum's `Path`, `Query` and `Json` rejections become JSON
//! error bodies.
//!
//! [`COVERED`] lists every public error type; [`the_list_names_every_error_type`]
//! scans `src/` for the error types it defines and fails on one the list
//! misses, and the macro that builds the list checks at compile time that each
//! named type is `Into<ApiError>` (and `IntoResponse` under `axum`).
#![cfg(feature = "axum")]

use std::collections::BTreeSet;
use std::path::Path;

use axum_core::response::IntoResponse;
use serde_json::Value;
use swaproute::caip::{
    AssetDirectory, AssetRef, Caip19AssetType, DirectoryConflict, InvalidAssetRef, InvalidCaipId,
    UnresolvedAsset,
};
use swaproute::client::{ForwardedError, HeaderError, NoClientAddress, NodeError};
use swaproute::decimal::DecimalError;
use swaproute::discovery::{
    AssetText, Decimals, InvalidListing, InvalidPairsCsv, Network, PairDisagrees, PairsResponse,
    RenderError, TooPrecise,
};
use swaproute::error::{BodyCode, ErrorBody, HttpStatus, UnknownCodeError};
use swaproute::order::{
    FieldError, InvalidPromise, OrderMismatches, OrderStatus, PlanError, QuoteMismatch,
    RequestErrors, RequiredInputNoRoute, ToOrderError, TransactionIdAlreadySet,
};
use swaproute::quote::QuoteDefect;
use swaproute::rate::{InvalidPairId, InvalidRates, MixedPairs, RateDefect};
use swaproute::route::chain::{ChainNoRoute, ChainRequest, InvalidMarket, TooManyCombinations};
use swaproute::route::{
    InvalidRatesByPair, PolicyPart, PriceReference, SplitError, SplitLegs, UnsupportedPolicy,
};
use swaproute::screening::{Address, AddressTag, InvalidAddress, RegionCode, ScreeningError};
use swaproute::v4::QuoteError;
use swaproute::wire::Timestamp;
use swaproute::{
    Amount, ApiError, AssetId, Decimal, ErrorCode, NoRoute, PairId, ParseError, QuoteId, RateId,
    SlippageError, SwapMode,
};

/// Compiles only when `E` converts and responds.
fn converts<E: Into<ApiError> + IntoResponse>() {}

/// Every public error type, each checked at compile time to convert.
macro_rules! covered {
    ($($ty:ident),* $(,)?) => {
        const COVERED: &[&str] = &[$(stringify!($ty)),*];
        #[test]
        fn every_listed_type_converts_and_responds() {
            $(converts::<$ty>();)*
        }
    };
}

covered!(
    ApiError,
    ChainNoRoute,
    DecimalError,
    DirectoryConflict,
    FieldError,
    ForwardedError,
    HeaderError,
    InvalidAddress,
    InvalidAssetRef,
    InvalidCaipId,
    InvalidId,
    InvalidListing,
    InvalidMarket,
    InvalidPairId,
    InvalidPairsCsv,
    InvalidRates,
    InvalidRatesByPair,
    InvalidPromise,
    UnsupportedPolicy,
    MixedPairs,
    NoClientAddress,
    NoRoute,
    ParseError,
    NodeError,
    OrderMismatches,
    PairDisagrees,
    PlanError,
    QuoteDefect,
    QuoteError,
    QuoteMismatch,
    RateDefect,
    RenderError,
    RequestErrors,
    RequiredInputNoRoute,
    ScreeningError,
    SlippageError,
    SplitError,
    ToOrderError,
    TooManyCombinations,
    TooPrecise,
    TransactionIdAlreadySet,
    UnknownCodeError,
    UnresolvedAsset,
);

use swaproute::InvalidId;

/// The name after `pub enum` / `pub struct` on `line`, if any.
fn defined(line: &str) -> Option<&str> {
    let rest = line
        .trim_start()
        .strip_prefix("pub enum ")
        .or_else(|| line.trim_start().strip_prefix("pub struct "))?;
    let end = rest
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    Some(&rest[..end])
}

/// The error types `text` defines: a `pub` type derived with
/// `thiserror::Error`, one with a hand-written `Error` impl, or one whose
/// name ends in `Error`.
fn error_types(text: &str, found: &mut BTreeSet<String>) {
    // Set by a `thiserror::Error` derive, until the type it derives for.
    let mut derived = false;
    for line in text.lines() {
        let trimmed = line.trim_start();
        if let Some(name) = defined(line) {
            if derived || name.ends_with("Error") {
                found.insert(name.to_owned());
            }
            derived = false;
        } else if !(trimmed.starts_with("#[") || trimmed.starts_with("///")) {
            derived = false;
        }
        if line.contains("thiserror::Error") {
            derived = true;
        }
        for prefix in [
            "impl core::error::Error for ",
            "impl std::error::Error for ",
        ] {
            if let Some(rest) = trimmed.strip_prefix(prefix) {
                let end = rest
                    .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .unwrap_or(rest.len());
                found.insert(rest[..end].to_owned());
            }
        }
    }
}

fn scan(dir: &Path, found: &mut BTreeSet<String>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            scan(&path, found);
        } else if path.extension().is_some_and(|e| e == "rs") {
            error_types(&std::fs::read_to_string(&path).unwrap(), found);
        }
    }
}

#[test]
fn the_list_names_every_error_type() {
    let mut found = BTreeSet::new();
    scan(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut found,
    );
    // The scan itself works: a sample of what it must see.
    for name in [
        "InvalidId",
        "DecimalError",
        "ParseError",
        "MixedPairs",
        "ApiError",
    ] {
        assert!(found.contains(name), "the scan missed {name}");
    }
    let covered: BTreeSet<String> = COVERED.iter().map(|&s| s.to_owned()).collect();
    let missing: Vec<&String> = found.difference(&covered).collect();
    assert!(
        missing.is_empty(),
        "public error types without an ApiError conversion in this test's list: {missing:?}"
    );
}

/// Code, status and details of `error`'s `ApiError`, and that its response
/// has the same status and the JSON body of the same code.
fn check(
    error: impl Into<ApiError> + IntoResponse + Clone,
    code: ErrorCode,
    status: u16,
    details: &str,
) {
    let api = error.clone().into();
    assert_eq!(api.code(), code, "{details}");
    assert_eq!(api.http_status().as_u16(), status, "{details}");
    assert_eq!(api.details(), details);
    let response = error.into_response();
    assert_eq!(response.status().as_u16(), status);
    assert_eq!(response.headers()["content-type"], "application/json");
    let body = body_json(response);
    assert_eq!(body["code"], code.as_str());
    assert_eq!(body["status"], status);
    assert_eq!(body["details"], details);
}

fn body_json(response: axum_core::response::Response) -> Value {
    use http_body_util::BodyExt;
    use std::future::Future;
    use std::pin::pin;
    use std::sync::Arc;
    use std::task::{Context, Poll, Wake, Waker};
    struct NoWake;
    impl Wake for NoWake {
        fn wake(self: Arc<Self>) {}
    }
    let waker = Waker::from(Arc::new(NoWake));
    let mut cx = Context::from_waker(&waker);
    let mut collect = pin!(response.into_body().collect());
    let Poll::Ready(collected) = collect.as_mut().poll(&mut cx) else {
        panic!("the body is not ready")
    };
    serde_json::from_slice(&collected.unwrap().to_bytes()).unwrap()
}

fn pair(text: &str) -> PairId {
    PairId::new(text).unwrap()
}

fn asset(text: &str) -> AssetId {
    AssetId::new(text).unwrap()
}

#[test]
#[allow(clippy::too_many_lines)] // one table of every request-side error
fn request_values_are_invalid_request() {
    check(
        AssetId::new("").unwrap_err(),
        ErrorCode::InvalidRequest,
        400,
        "invalid id: id is empty",
    );
    check(
        PairId::new("BTC").unwrap_err(),
        ErrorCode::InvalidRequest,
        400,
        "invalid pair id: pair id must be FROM_TO: two asset ids joined by one '_'",
    );
    check(
        Timestamp::new("yesterday").unwrap_err(),
        ErrorCode::InvalidRequest,
        400,
        "not an ISO 8601 timestamp (expected YYYY-MM-DDTHH:MM:SS[.fff](Z|±HH:MM))",
    );
    check(
        OrderStatus::parse("").unwrap_err(),
        ErrorCode::InvalidRequest,
        400,
        "order status is empty",
    );
    check(
        Timestamp::new("1969-12-31T23:59:59Z")
            .unwrap()
            .epoch_millis()
            .unwrap_err(),
        ErrorCode::InvalidRequest,
        400,
        "the instant is before the Unix epoch (1970-01-01T00:00:00Z)",
    );
    assert!(RegionCode::new("USA1").is_err());
    check(
        RegionCode::new("USA1").unwrap_err(),
        ErrorCode::InvalidRequest,
        400,
        "region code must be an ISO 3166-1 alpha-2 country code (\"US\") or an ISO 3166-2 subdivision (\"CA-ON\")",
    );
    check(
        ChainRequest::exact_in(
            asset("BTC"),
            asset("SOL"),
            Amount::parse("1").unwrap(),
            swaproute::EpochMillis::new(0),
        )
        .with_max_legs(4)
        .unwrap_err(),
        ErrorCode::InvalidRequest,
        400,
        "maxLegs: a chain has 1 to 3 legs, not 4",
    );
    check(
        TooManyCombinations {
            checks: 5_000_000,
            cap: 4_194_304,
        },
        ErrorCode::InvalidRequest,
        400,
        "listing every chain takes 5000000 leg checks, more than the cap of 4194304",
    );
    check(
        swaproute::Slippage::new(Decimal::new(101, 0)).unwrap_err(),
        ErrorCode::InvalidRequest,
        400,
        "slippage must be a percentage from 0 to 100, got 101",
    );
    check(
        PriceReference::new(Decimal::ZERO).unwrap_err(),
        ErrorCode::InvalidRequest,
        400,
        "priceGuard.reference: a reference multiplier must be greater than zero, got 0",
    );
    check(
        SplitLegs::try_from(4_u64).unwrap_err(),
        ErrorCode::InvalidRequest,
        400,
        "splitLegs: a split has 2 or 3 legs, not 4",
    );
    check(
        UnsupportedPolicy {
            part: PolicyPart::Floors,
        },
        ErrorCode::InvalidRequest,
        400,
        "policy: this question cannot apply the policy's floors; ask the full selection instead",
    );
    check(
        SplitError::TooMuchWork { limit: 524_288 },
        ErrorCode::SearchExhausted,
        503,
        "the split search would take more than 524288 steps for these rates, twice \
         (before and after its dominance pass; ruling 36)",
    );
    check(
        SplitError::ExactOut,
        ErrorCode::UnsupportedSwapMode,
        400,
        "splits are defined for ExactIn only",
    );
    check(
        "tv".parse::<swaproute::client::AppPlatform>().unwrap_err(),
        ErrorCode::InvalidRequest,
        400,
        "App-Platform header must be `desktop`, `mobile` or `browser`",
    );
    check(
        NodeError::InvalidPort,
        ErrorCode::InvalidRequest,
        400,
        "invalid Forwarded header: port must be 1 to 5 digits (at most 65535) or an obfuscated `_port`",
    );
    check(
        NoClientAddress::NoFor,
        ErrorCode::InvalidRequest,
        400,
        "Forwarded header carries no end-user address: its first element has no `for` parameter; \
         a proxying integration must send the end user's public IP address as the first `for`",
    );
    check(
        QuoteMismatch::QuoteId {
            named: QuoteId::new("q1").unwrap(),
            given: QuoteId::new("q2").unwrap(),
        },
        ErrorCode::InvalidRequest,
        400,
        "quoteId: the order names quote q1 but was given quote q2",
    );
}

#[test]
fn amounts_addresses_and_modes_have_the_body_decoders_codes() {
    check(
        Amount::parse("1.").unwrap_err(),
        ErrorCode::InvalidAmount,
        400,
        "invalid amount: a '.' needs digits on both sides",
    );
    check(
        Address::new("").unwrap_err(),
        ErrorCode::InvalidAddress,
        400,
        "address is empty",
    );
    check(
        AddressTag::new("").unwrap_err(),
        ErrorCode::InvalidAddress,
        400,
        "address tag is empty",
    );
    check(
        "exactIn".parse::<SwapMode>().unwrap_err(),
        ErrorCode::UnsupportedSwapMode,
        400,
        "swap mode must be \"ExactIn\" or \"ExactOut\"",
    );
    let caip = Caip19AssetType::parse("eip155:1").unwrap_err();
    assert_eq!(caip.code(), "MISSING_SEPARATOR");
    check(
        caip,
        ErrorCode::UnresolvedAsset,
        400,
        &format!("invalid CAIP id: {caip}"),
    );
}

#[test]
fn rates_the_caller_gave_are_internal_errors() {
    check(
        InvalidRates::TooMany { len: 10_000 },
        ErrorCode::InternalError,
        500,
        "10000 rates is more than the 65536 one response may carry",
    );
    check(
        InvalidRates::DuplicateId {
            id: RateId::new("r1").unwrap(),
        },
        ErrorCode::InternalError,
        500,
        "rate id r1 appears more than once; an order names its rate by id alone",
    );
    let mixed: Vec<swaproute::Rate> = serde_json::from_str(
        r#"[{"amount":{"assetId":"ETH","value":33},"expiry":4102444800000,"id":"a",
        "max":{"assetId":"BTC","value":8},"min":{"assetId":"BTC","value":0.001},
        "minerFee":{"assetId":"ETH","value":0.0002},"pairId":"BTC_ETH"},
        {"amount":{"assetId":"SOL","value":1},"expiry":4102444800000,"id":"b",
        "max":{"assetId":"BTC","value":8},"min":{"assetId":"BTC","value":0.001},
        "minerFee":{"assetId":"SOL","value":0.0002},"pairId":"BTC_SOL"}]"#,
    )
    .unwrap();
    let Err(InvalidRates::MixedPairs(mixed)) = swaproute::RatesResponse::try_from(mixed) else {
        panic!("two pairs are mixed")
    };
    check(
        mixed,
        ErrorCode::InternalError,
        500,
        "the rates name more than one pair (BTC_ETH and BTC_SOL); a rates list is one pair's",
    );
    check(
        InvalidMarket::DuplicatePair(pair("BTC_ETH")),
        ErrorCode::InternalError,
        500,
        "two rates responses for pair BTC_ETH",
    );
    let caip19 = Caip19AssetType::parse("eip155:1/slip44:60").unwrap();
    let conflict =
        AssetDirectory::try_from_pairs([(asset("ETH"), caip19.clone()), (asset("WETH"), caip19)])
            .unwrap_err();
    check(
        conflict.clone(),
        ErrorCode::InternalError,
        500,
        &format!("asset directory: {conflict}"),
    );
}

#[test]
fn what_the_service_sent_wrong_is_a_provider_error() {
    let zero = Decimal::new(-1, 0);
    check(
        RateDefect::NegativeMin(zero),
        ErrorCode::ProviderError,
        502,
        "unusable rate: min -1 is negative",
    );
    check(
        InvalidListing::DuplicateId { id: "BTC".into() },
        ErrorCode::ProviderError,
        502,
        "the listing names BTC twice",
    );
    check(
        PairsResponse::from_csv("BTC_ETH, ETH_BTC").unwrap_err(),
        ErrorCode::ProviderError,
        502,
        "field 1 of the pair list has whitespace around it",
    );
    check(
        AssetText::new(&"n".repeat(5000)).unwrap_err(),
        ErrorCode::ProviderError,
        502,
        "asset record: text is 5000 bytes long, more than the 256 allowed",
    );
    check(
        Network::new("decimals").unwrap_err(),
        ErrorCode::ProviderError,
        502,
        "asset record: network \"decimals\" is named like a key of the asset record",
    );
    check(
        Decimals::try_from(300_u64).unwrap_err(),
        ErrorCode::ProviderError,
        502,
        "asset record: decimals 300 is more than 255",
    );
    check(
        PairDisagrees {
            id: pair("BTC_ETH"),
            from: asset("BTC"),
            to: asset("SOL"),
        },
        ErrorCode::ProviderError,
        502,
        "pair BTC_ETH names from BTC and to SOL",
    );
    check(
        "".parse::<BodyCode>().unwrap_err(),
        ErrorCode::ProviderError,
        502,
        "upstream error body: error code is empty",
    );
    check(
        HttpStatus::new(99).unwrap_err(),
        ErrorCode::ProviderError,
        502,
        "upstream error body: 99 is not an HTTP status code (100..=599)",
    );
    check(
        "TEAPOT".parse::<ErrorCode>().unwrap_err(),
        ErrorCode::ProviderError,
        502,
        "upstream error body: unknown error code",
    );
    let body: ErrorBody =
        serde_json::from_str(r#"{"status":418,"code":"TEAPOT","details":"short and stout"}"#)
            .unwrap();
    let unknown: UnknownCodeError = ApiError::try_from(body).unwrap_err();
    let api = ApiError::from(unknown.clone());
    assert_eq!(api.code(), ErrorCode::ProviderError);
    assert_eq!(
        api.details(),
        "upstream error code `TEAPOT` (HTTP 418) is not in the crate's table: short and stout"
    );
    // As a response it stays the body it was (ruling 26).
    assert_eq!(unknown.into_response().status().as_u16(), 418);
}

#[test]
fn unresolved_assets_say_their_code() {
    let unresolved = AssetDirectory::new()
        .resolve(&"BTC".parse::<AssetRef>().unwrap())
        .unwrap_err();
    assert_eq!(unresolved.code(), ErrorCode::UnresolvedAsset);
    assert_eq!(unresolved.http_status().as_u16(), 400);
    check(
        unresolved.clone(),
        ErrorCode::UnresolvedAsset,
        400,
        "asset BTC cannot be resolved",
    );
    check(
        RenderError::from(unresolved),
        ErrorCode::UnresolvedAsset,
        400,
        "asset BTC cannot be resolved",
    );
    let too_precise = TooPrecise::new(
        "BTC".parse().unwrap(),
        Decimals::new(8),
        Amount::parse("0.000000001").unwrap(),
    );
    assert_eq!(too_precise.http_status().as_u16(), 400);
    check(
        too_precise,
        ErrorCode::InvalidAmount,
        400,
        "0.000000001 has 9 decimal places, but BTC has 8",
    );
}

#[test]
fn chain_no_route_responds() {
    let no_route = ChainNoRoute::Unavailable {
        from: asset("BTC"),
        to: asset("XMR"),
        max_legs: 2,
    };
    let details = no_route.to_string();
    check(no_route, ErrorCode::RouteUnavailable, 422, &details);
}

mod rejections {
    use axum::extract::rejection::{
        JsonRejection, MissingJsonContentType, MissingPathParams, PathRejection,
    };
    use axum::extract::{Json, Query};
    use axum_core::response::IntoResponse;
    use swaproute::{ApiError, ErrorCode};

    use super::body_json;

    /// The `ApiError` of a rejection, and its response's status and code.
    fn answered(error: ApiError, code: ErrorCode, status: u16, prefix: &str) {
        assert_eq!(error.code(), code);
        assert!(error.details().starts_with(prefix), "{}", error.details());
        let response = error.into_response();
        assert_eq!(response.status().as_u16(), status);
        assert_eq!(response.headers()["content-type"], "application/json");
        assert_eq!(body_json(response)["code"], code.as_str());
    }

    #[test]
    fn json_rejections_are_json_bodies() {
        #[derive(Debug, serde::Deserialize)]
        #[allow(dead_code)]
        struct Body {
            n: u8,
        }
        let syntax: JsonRejection = Json::<serde_json::Value>::from_bytes(b"{").unwrap_err();
        // axum itself answers 400 in plain text.
        assert_eq!(syntax.status().as_u16(), 400);
        answered(
            syntax.into(),
            ErrorCode::InvalidRequest,
            400,
            "body: Failed to parse",
        );
        let data: JsonRejection = Json::<Body>::from_bytes(br#"{"n":300}"#).unwrap_err();
        // axum: 422; the service's table: 400 INVALID_REQUEST.
        assert_eq!(data.status().as_u16(), 422);
        answered(
            data.into(),
            ErrorCode::InvalidRequest,
            400,
            "body: Failed to deserialize",
        );
        let media = JsonRejection::from(MissingJsonContentType::default());
        assert_eq!(media.status().as_u16(), 415);
        answered(
            media.into(),
            ErrorCode::InvalidRequest,
            400,
            "body: Expected request with `Content-Type: application/json`",
        );
    }

    #[test]
    fn query_and_path_rejections_are_json_bodies() {
        #[derive(Debug, serde::Deserialize)]
        #[allow(dead_code)]
        struct Params {
            n: u8,
        }
        let uri: http::Uri = "/x?n=-1".parse().unwrap();
        let query = Query::<Params>::try_from_uri(&uri).unwrap_err();
        answered(
            query.into(),
            ErrorCode::InvalidRequest,
            400,
            "query: Failed to deserialize query string",
        );
        let path = PathRejection::from(MissingPathParams::default());
        answered(
            path.into(),
            ErrorCode::InternalError,
            500,
            "path: No paths parameters found",
        );
    }
}
