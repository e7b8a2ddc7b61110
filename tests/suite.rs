//! The integration tests: one binary whose modules are the files beside
//! this one (Cargo.toml says why one binary). `cargo test NAME::` runs one
//! file's tests, e.g. `cargo test vectors::`; `tests/no_alloc.rs` is a
//! binary of its own (the reference server's tests are in `server/`).
//!
//! A test says "no" by panicking, so `unwrap`, `expect`, indexing and
//! `panic!` are allowed in every module here (the library itself forbids
//! them); a module allows anything more itself.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    missing_docs
)]

mod common;

mod architecture;
mod axum_responses;
mod caip;
mod caps;
mod chain_bounds;
mod chain_examples;
mod chain_floors;
mod chain_properties;
mod client_headers;
mod compact_layout;
mod departures;
mod discovery;
mod discovery_orders;
mod error_codes;
mod error_conversions;
mod exact_floors;
mod exact_past_28;
mod fast_path;
mod feasible;
mod floors_no_route;
mod fuzz_regressions;
mod glue_chains;
mod glue_helpers;
mod glue_routes;
mod lifetime;
mod live_payloads;
mod one_policy;
mod order_builders;
mod order_planning;
mod order_properties;
mod order_requests;
mod order_resource;
mod order_slippage;
mod order_verify;
mod pair_properties;
mod plain_ids;
mod price_guard;
mod rate_book;
mod rate_integrity;
mod rate_leniency;
mod rate_parts;
mod request_parsing;
mod round_trip;
mod route_examples;
mod route_json;
mod route_properties;
mod screening;
mod send_sync;
mod split;
mod split_ramp;
mod status_reconcile;
mod tags;
mod too_large;
mod v4_quotes;
mod vectors;
mod wire;
