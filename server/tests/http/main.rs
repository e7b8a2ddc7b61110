//! The reference server over real HTTP and real databases: each test starts
//! the binary (`swaproute-server`) on `127.0.0.1:0`, against a fresh SQLite
//! file and, when `SWAPROUTE_TEST_POSTGRES_URL` is set, against PostgreSQL
//! (.ci/run starts one and sets it), and drives it with an HTTP client.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects,
    clippy::cast_precision_loss,
    clippy::float_arithmetic,
    missing_docs,
    unreachable_pub
)]

mod common;

mod api;
mod chains;
mod cli;
mod crash;
mod doors;
mod fairness;
mod idempotency;
mod load;
mod migration;
mod operator;
mod refusals;
mod ruling51;
