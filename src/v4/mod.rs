//! The V4 surface: quote requests (`POST /v4/quotes`) with assets in either id
//! form, ExactIn and ExactOut, slippage 0–100, stable error codes, screening
//! as in V3, and the closed set of source networks that get ready-to-sign
//! transactions.
//!
//! Flow: decode the body into [`QuoteRequestBody`] with
//! [`QuoteRequestBody::from_json`] (every key of the wrong JSON type is a
//! field error, a body that is not a JSON object a `body` error; with another
//! decoder, a body that does not decode at all is [`invalid_body`]), validate it with
//! [`QuoteRequest::validate`] against the caller's [`QuotePolicy`], price it,
//! choose among the candidate quotes with [`select_quote`] (expired →
//! `QUOTE_EXPIRED`, none → `ROUTE_UNAVAILABLE`) and answer with the quote's
//! assets in the form the `caip19` query parameter selects ([`Quote::in_form`]).
//!
//! V4 order status (`GET /v4/orders/:id`) is reconciled exactly as V3's:
//! the status types and [`reconcile`](crate::order::reconcile) are
//! [`crate::order`]'s; `Slippage` is [`crate::slippage::Slippage`] and `WireNumber`
//! [`crate::decimal::WireNumber`].
//!
//! ```
//! use std::collections::BTreeSet;
//! use swaproute::caip::{AssetDirectory, AssetIdForm};
//! use swaproute::screening::ScreeningPolicy;
//! use swaproute::v4::{invalid_body, QuotePolicy, QuoteRequest, QuoteRequestBody, SigningNetwork};
//! use swaproute::{ErrorCode, SwapMode};
//!
//! let mut assets = AssetDirectory::new();
//! assets.insert("ETH".parse()?, "eip155:1/slip44:60".parse()?)?;
//! assets.insert("BTC".parse()?, "bip122:000000000019d6689c085ae165831e93/slip44:0".parse()?)?;
//! let chains: BTreeSet<_> = ["eip155:1".parse()?, "bip122:000000000019d6689c085ae165831e93".parse()?].into();
//! let screening = ScreeningPolicy::new();
//! let policy = QuotePolicy { assets: &assets, supported_chains: &chains, screening: &screening, region: None };
//!
//! let body: QuoteRequestBody = serde_json::from_str(r#"{
//!     "fromAsset": "eip155:1/slip44:60", "toAsset": "BTC", "amount": "1.5",
//!     "swapMode": "ExactOut", "slippage": 0.5,
//!     "toAddress": "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"
//! }"#).map_err(invalid_body)?;
//! let request = QuoteRequest::validate(&body, &policy)?;
//! assert_eq!(request.swap_mode(), SwapMode::ExactOut);
//! assert_eq!(request.to_asset().legacy().as_str(), "BTC");
//! assert_eq!(request.signing_network(), Some(SigningNetwork::Evm));
//!
//! // The EVM zero address is refused with 403 RESTRICTED_ADDRESS, as in V3.
//! let body: QuoteRequestBody = serde_json::from_str(r#"{
//!     "fromAsset": "BTC", "toAsset": "ETH", "amount": 0.1,
//!     "toAddress": "0x0000000000000000000000000000000000000000"
//! }"#)?;
//! let error = QuoteRequest::validate(&body, &policy).unwrap_err();
//! assert_eq!(error.code(), ErrorCode::RestrictedAddress);
//! assert_eq!(error.http_status().as_u16(), 403);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod quote;
mod request;
mod signing;

pub use quote::{select_quote, select_quote_for, Quote, QuoteError};
pub use request::{invalid_body, QuotePolicy, QuoteRequest, QuoteRequestBody};
pub use signing::SigningNetwork;
