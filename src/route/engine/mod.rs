//! The engine: one scan, a collector per question, one ending.
//!
//! ```text
//!  rates ──► scan (FastRequest::score per rate) ──► collector
//!              Key(net) ≥ floor ─► keyed(net, rate)   Best | TopK | All
//!              Slow ───────────► slow(rate): check()
//!              Out ────────────► out(rate) (All only: the reason)
//!  Best/TopK ──► conclude: keyed routes from their integers, or a merge
//!                with the plain candidates; nothing kept → "no route"
//!                classified by the plain path; a required input overflow
//!                → the full selection's answer (the fallback, once)
//!  All ──► sort keys (or routes) ──► Selection
//! ```
//!
//! `best` on a response's compact records takes the kernel (`kernel.rs`):
//! the scan into a `Best`, specialised to one loop over
//! the records, with the same verdicts and the same `Best` at the end.
//!
//! The engine decides nothing about rates: eligibility, the net output, the
//! ranking order and the required input are the rules' (`super::rules`).

mod buffer;
mod collect;
mod conclude;
mod kernel;
mod routes;
mod scan;
mod select;

pub(crate) use buffer::TopBuffer;
pub(crate) use collect::TopK;
pub(crate) use conclude::collect;
pub(crate) use kernel::collect_best;
pub(crate) use routes::keyed_candidate;
pub(crate) use select::select_in;
