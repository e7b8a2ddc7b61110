//! The JSON vocabulary the service's bodies share: a key absent, `null`,
//! `""` or a value ([`Presence`]); a decimal kept in the form it was sent
//! ([`SentDecimal`], [`SentAmount`]); the ISO 8601 timestamp
//! ([`Timestamp`]); and the names of a request's fields ([`RequestField`]).
//!
//! It sits low in the layers (docs/ARCHITECTURE.md): above `decimal`, `ids`
//! and `time`, below `error` and every domain module, so errors, quotes,
//! discovery and orders read the same words without importing each other.

mod amount;
mod field;
mod opaque;
mod presence;
mod timestamp;

pub use amount::SentAmount;
pub use field::RequestField;
pub use opaque::{Opaque, RevenueShare};
pub use presence::{Presence, SentDecimal};
pub use timestamp::Timestamp;

pub(crate) use presence::{present, serialize_number};
