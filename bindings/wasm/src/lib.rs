//! The swaproute engine as a WebAssembly package for JavaScript.
//!
//! The exports here are the raw layer: each takes JSON text and returns an
//! envelope, `{"ok": value}` or `{"error": {status, code, details, …}}`. The
//! package's public API is the JavaScript module in `js/` (`index.js`, typed
//! by `index.d.ts`), which passes plain objects in, parses the envelope and
//! throws the error object. Every answer is the core crate's: this crate adds
//! no rule, only the JSON shapes of the calls (see `README.md`).
//!
//! The modules below are plain Rust over JSON text, so `cargo test -p
//! swaproute-wasm` checks them natively; [`exports`] is the only file that
//! knows about `wasm-bindgen`.
// Tests may index and panic: a failed assertion is their job.
#![cfg_attr(
    test,
    allow(
        clippy::indexing_slicing,
        clippy::panic,
        clippy::unwrap_used,
        clippy::expect_used
    )
)]

mod amount;
#[cfg(feature = "caip")]
mod caip;
#[cfg(feature = "chains")]
mod chain;
#[cfg(feature = "client")]
mod client;
pub mod exports;
mod failure;
mod input;
#[cfg(all(feature = "lifetime", feature = "orders"))]
mod lifetime;
#[cfg(feature = "orders")]
mod order;
mod route;
#[cfg(feature = "screening")]
mod screening;
#[cfg(feature = "split")]
mod split;
#[cfg(feature = "orders")]
mod status;
mod verify;
