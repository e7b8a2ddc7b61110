//! The functions and the class JavaScript sees (through `js/index.js`).
//!
//! `wasm-bindgen`'s generated glue contains `unsafe` blocks; the code written
//! here has none.
#![allow(unsafe_code)]

use swaproute::RatesResponse;
use wasm_bindgen::prelude::*;

use crate::failure::envelope;
use crate::{amount, route};

/// One pair's decoded rates, kept in WebAssembly memory so that ranking them
/// again (for every amount a user types) does not decode them again.
#[wasm_bindgen]
#[derive(Debug)]
pub struct RawRates {
    response: RatesResponse,
}

#[wasm_bindgen]
impl RawRates {
    /// Decodes a rates response; throws the error envelope's JSON text.
    ///
    /// # Errors
    /// The envelope of an `INVALID_REQUEST` failure.
    pub fn parse(json: &str) -> Result<RawRates, JsValue> {
        route::rates(json)
            .map(|response| RawRates { response })
            .map_err(|failure| JsValue::from_str(&envelope(Err(failure))))
    }

    /// The same rates with every non-sponsored one taken as ExactOut-capable
    /// (ruling 4; `Rates#assumeExactOut` in JavaScript).
    #[must_use]
    pub fn assume_exact_out(&self) -> RawRates {
        RawRates {
            response: self.response.clone().assume_exact_out(),
        }
    }

    /// `{pairId, count}`.
    pub fn summary(&self) -> String {
        envelope(Ok(route::summary(&self.response)))
    }

    /// The full selection.
    pub fn select(&self, request: &str) -> String {
        envelope(route::select(&self.response, request))
    }

    /// The best route: a common route compactly, else the envelope
    /// (`route::best` says how; `js/index.js` reads both).
    pub fn best(&self, request: &str) -> String {
        route::best(&self.response, request)
    }

    /// `{validUntil}` of the best route, or of the top `k` when `k > 0`
    /// (ruling 50).
    #[cfg(all(feature = "lifetime", feature = "orders"))]
    pub fn valid_until(&self, request: &str, k: usize) -> String {
        let k = (k > 0).then_some(k);
        envelope(crate::lifetime::valid_until(&self.response, request, k))
    }

    /// `{validUntil, schedule}`: the best route's successors (ruling 50).
    #[cfg(all(feature = "lifetime", feature = "orders"))]
    pub fn schedule(&self, request: &str) -> String {
        envelope(crate::lifetime::schedule(&self.response, request))
    }

    /// The best `k` routes.
    pub fn top(&self, request: &str, k: usize) -> String {
        envelope(route::top(&self.response, request, k))
    }

    /// The ExactOut estimate.
    pub fn estimate(&self, request: &str) -> String {
        envelope(route::estimate(&self.response, request))
    }

    /// The best single route or the exact best split (ruling 39).
    #[cfg(feature = "split")]
    pub fn split(&self, request: &str, policy: &str) -> String {
        envelope(crate::split::split(&self.response, request, policy))
    }

    /// The amounts that work (ruling 38).
    #[cfg(feature = "feasible")]
    pub fn feasible(&self, request: &str) -> String {
        envelope(route::feasible(&self.response, request))
    }
}

/// A fixed-rate order planned over `rates` (ruling 33's slippage included).
#[cfg(feature = "orders")]
#[wasm_bindgen]
pub fn plan_fixed_order(rates: &RawRates, body: &str, options: &str) -> String {
    envelope(crate::order::plan_fixed(&rates.response, body, options))
}

/// A fixed-rate order returned by the service, verified against its plan
/// over `rates` (ruling 40): `{ok, mismatches}`.
#[cfg(feature = "orders")]
#[wasm_bindgen]
pub fn verify_fixed_order(rates: &RawRates, body: &str, order: &str, options: &str) -> String {
    envelope(crate::verify::verify_fixed(
        &rates.response,
        body,
        order,
        options,
    ))
}

/// A floating-rate order returned by the service, verified against its
/// plan from `quote` (ruling 40): `{ok, mismatches}`.
#[cfg(feature = "orders")]
#[wasm_bindgen]
pub fn verify_float_order(quote: &str, body: &str, order: &str, options: &str) -> String {
    envelope(crate::verify::verify_float(quote, body, order, options))
}

/// Chained routes: the selection (`k` chains and rejections).
#[cfg(feature = "chains")]
#[wasm_bindgen]
pub fn select_chains(responses: &str, request: &str, k: usize) -> String {
    envelope(
        crate::chain::responses(responses).and_then(|list| crate::chain::select(&list, request, k)),
    )
}

/// Chained routes: the best chain.
#[cfg(feature = "chains")]
#[wasm_bindgen]
pub fn best_chain(responses: &str, request: &str) -> String {
    envelope(crate::chain::responses(responses).and_then(|list| crate::chain::best(&list, request)))
}

/// A fixed-rate order body.
#[cfg(feature = "orders")]
#[wasm_bindgen]
pub fn validate_fixed_order(body: &str) -> String {
    envelope(crate::order::fixed(body))
}

/// A floating-rate order body.
#[cfg(feature = "orders")]
#[wasm_bindgen]
pub fn validate_float_order(body: &str) -> String {
    envelope(crate::order::float(body))
}

/// Address screening.
#[cfg(feature = "screening")]
#[wasm_bindgen]
pub fn screen_address(address: &str, options: &str) -> String {
    envelope(crate::screening::screen(address, options))
}

/// Status reconciliation.
#[cfg(feature = "orders")]
#[wasm_bindgen]
pub fn reconcile_status(input: &str) -> String {
    envelope(crate::status::reconcile(input))
}

/// A `Forwarded` header value.
#[cfg(feature = "client")]
#[wasm_bindgen]
pub fn parse_forwarded(value: &str) -> String {
    envelope(crate::client::forwarded(value))
}

/// The client headers.
#[cfg(feature = "client")]
#[wasm_bindgen]
pub fn client_headers(input: &str) -> String {
    envelope(crate::client::headers(input))
}

/// An amount text.
#[wasm_bindgen]
pub fn parse_amount(input: &str) -> String {
    envelope(amount::amount(input))
}

/// A JSON number's text to its decimal.
#[wasm_bindgen]
pub fn json_number(input: &str) -> String {
    envelope(amount::json_number(input))
}

/// A CAIP-2 chain id.
#[cfg(feature = "caip")]
#[wasm_bindgen]
pub fn parse_chain_id(input: &str) -> String {
    envelope(crate::caip::chain_id(input))
}

/// A CAIP-19 asset type.
#[cfg(feature = "caip")]
#[wasm_bindgen]
pub fn parse_asset_type(input: &str) -> String {
    envelope(crate::caip::asset_type_answer(input))
}

/// A CAIP-19 asset id.
#[cfg(feature = "caip")]
#[wasm_bindgen]
pub fn parse_asset_id(input: &str) -> String {
    envelope(crate::caip::asset_id(input))
}

/// Re-plans `body` at `options.now` against the original plan's promise
/// (ruling 50).
#[cfg(all(feature = "lifetime", feature = "orders"))]
#[wasm_bindgen]
pub fn requote_fixed_order(rates: &RawRates, body: &str, plan: &str, options: &str) -> String {
    envelope(crate::lifetime::requote(
        &rates.response,
        body,
        plan,
        options,
    ))
}

/// Plans `body` at `options.now` and classifies an observed deposit
/// (ruling 50).
#[cfg(all(feature = "lifetime", feature = "orders"))]
#[wasm_bindgen]
pub fn deposit_outcome(rates: &RawRates, body: &str, deposit: &str, options: &str) -> String {
    envelope(crate::lifetime::deposit(
        &rates.response,
        body,
        deposit,
        options,
    ))
}

/// A fresh promise against an original one `{mode, promised, bound, fresh}`.
#[cfg(all(feature = "lifetime", feature = "orders"))]
#[wasm_bindgen]
pub fn classify_requote(input: &str) -> String {
    envelope(crate::lifetime::classify(input))
}
