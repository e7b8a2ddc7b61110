//! Chained routes over several pairs' rates (ruling 24).

use std::collections::BTreeMap;

use core::cell::Cell;
use core::fmt;

use serde::de::{DeserializeSeed, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer};
use swaproute::rate::{InvalidRates, MAX_RATES};
use swaproute::route::chain::{Chain, ChainRequest, Market};
use swaproute::route::chain_valid_until;
use swaproute::{AssetId, EpochMillis, RatesResponse, SwapMode};

use crate::failure::{decode, decode_failure, to_json, Answer, Failure};
use crate::input::{amount, campaigns, mode, present};
use crate::route::{until_text, Bounded};

/// Decodes a list of rates responses, one pair each; a response of more
/// than `MAX_RATES` rates is refused when its next rate is met, without
/// decoding the rest.
pub(crate) fn responses(text: &str) -> Result<Vec<RatesResponse>, Failure> {
    let too_many = Cell::new(false);
    let mut deserializer = serde_json::Deserializer::from_slice(text.as_bytes());
    let decoded = Lists(&too_many)
        .deserialize(&mut deserializer)
        .and_then(|lists| deserializer.end().map(|()| lists));
    let lists = match decoded {
        Ok(lists) => lists,
        Err(_) if too_many.get() => {
            let error = InvalidRates::TooMany {
                len: MAX_RATES.saturating_add(1),
            };
            return Err(Failure::invalid_request(format!("responses: {error}"))
                .with("reason", error.code()));
        }
        Err(e) => return Err(decode_failure("responses", &e)),
    };
    lists
        .into_iter()
        .enumerate()
        .map(|(i, list)| {
            RatesResponse::try_from(list).map_err(|e| {
                Failure::invalid_request(format!("responses[{i}]: {e}")).with("reason", e.code())
            })
        })
        .collect()
}

fn asset(field: &str, text: &str) -> Result<AssetId, Failure> {
    AssetId::new(text)
        .map_err(|e| Failure::invalid_request(format!("{field}: {e}")).with("field", field))
}

/// Runs `f` on the market and request of `input`.
fn with_market(
    input: &str,
    responses: &[RatesResponse],
    f: impl FnOnce(&ChainRequest, &Market<'_>) -> Answer,
) -> Answer {
    let input: ChainInput = decode("request", input)?;
    let mode = mode(input.mode.as_deref())?;
    let from = asset("from", &input.from)?;
    let to = asset("to", &input.to)?;
    let now = EpochMillis::new(input.now);
    let (field, text, other) = match mode {
        SwapMode::ExactIn => ("fromAmount", &input.from_amount, &input.to_amount),
        SwapMode::ExactOut => ("toAmount", &input.to_amount, &input.from_amount),
    };
    let Some(text) = text else {
        return Err(
            Failure::invalid_request(format!("{field}: required in {}", mode.as_str()))
                .with("field", field),
        );
    };
    if other.is_some() {
        return Err(Failure::invalid_request(format!(
            "a chain request in {} takes {field} only",
            mode.as_str()
        )));
    }
    let value = amount(field, text)?;
    let request = match mode {
        SwapMode::ExactIn => ChainRequest::exact_in(from, to, value, now),
        SwapMode::ExactOut => ChainRequest::exact_out(from, to, value, now),
    };
    let request = request.with_floors(crate::input::floors(input.floors.as_ref())?);
    // Each leg's own pair's median (rulings 41, 42), or the caller's reference.
    let request = match crate::input::guard(input.price_guard.as_ref())? {
        Some(guard) => request.with_price_guard(guard),
        None => request,
    };
    let request = match input.max_legs {
        Some(legs) => request.with_max_legs(legs).map_err(|e| {
            Failure::invalid_request(format!("maxLegs: {e}")).with("field", "maxLegs")
        })?,
        None => request,
    };
    let campaigns = campaigns(&input.campaigns)?;
    let market = Market::new(responses, &campaigns, now).map_err(|e| {
        Failure::invalid_request(format!("responses: {e}")).with("reason", "DUPLICATE_PAIR")
    })?;
    f(&request, &market)
}

/// The best `k` chains and rejections, with counts; `noRoute` as in a
/// single-pair selection.
pub(crate) fn select(responses: &[RatesResponse], request: &str, k: usize) -> Answer {
    with_market(request, responses, |request, market| {
        let selection = request.select(market, k);
        let no_route = match selection.no_route() {
            Some(no_route) => Failure::chain_no_route(no_route).into_text(),
            None => "null".into(),
        };
        let until = valid_until(request, selection.chains().first(), responses);
        to_json(&selection)?
            .with_raw("noRoute", &no_route)?
            .with_raw("validUntil", &until_text(until))
    })
}

/// The best chain with its `validUntil`, or the "no route" error with its
/// own.
pub(crate) fn best(responses: &[RatesResponse], request: &str) -> Answer {
    with_market(request, responses, |request, market| {
        match request.best(market) {
            Ok(chain) => to_json(&chain)?.with_raw(
                "validUntil",
                &until_text(valid_until(request, Some(&chain), responses)),
            ),
            Err(no_route) => Err(Failure::chain_no_route(&no_route).with(
                "validUntil",
                valid_until(request, None, responses).map(EpochMillis::as_millis),
            )),
        }
    })
}

/// Ruling 50, as the CLI and the server answer it: the best chain holds
/// until its earliest leg expires (under a median guard, no later than the
/// first expiry after `now` of any pair's rates); "no route" until every
/// rate has expired; `null` when nothing left can expire.
fn valid_until(
    request: &ChainRequest,
    best: Option<&Chain<'_>>,
    responses: &[RatesResponse],
) -> Option<EpochMillis> {
    let now = request.now();
    let guarded: Vec<&[swaproute::Rate]> = match request.price_guard() {
        Some(guard) if guard.reference().is_none() => {
            responses.iter().map(RatesResponse::rates).collect()
        }
        _ => Vec::new(),
    };
    match best {
        Some(best) => Some(chain_valid_until(best, now, &guarded)),
        None => responses
            .iter()
            .flat_map(|r| r.rates().iter().map(swaproute::Rate::expiry))
            .filter(|expiry| *expiry > now)
            .max(),
    }
}

/// An array of rates arrays, each bounded (`route::Bounded`).
struct Lists<'a>(&'a Cell<bool>);

impl<'de> DeserializeSeed<'de> for Lists<'_> {
    type Value = Vec<Vec<swaproute::Rate>>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for Lists<'_> {
    type Value = Vec<Vec<swaproute::Rate>>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a sequence")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut lists = Vec::new();
        while let Some(list) = seq.next_element_seed(Bounded(self.0))? {
            lists.push(list);
        }
        Ok(lists)
    }
}

/// A chained-route request.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct ChainInput {
    /// `"ExactIn"` (default) or `"ExactOut"`.
    #[serde(default, deserialize_with = "present")]
    pub(crate) mode: Option<String>,
    /// The asset sent.
    pub(crate) from: String,
    /// The asset received.
    pub(crate) to: String,
    /// ExactIn: the amount sent.
    #[serde(default, deserialize_with = "present")]
    pub(crate) from_amount: Option<String>,
    /// ExactOut: the exact amount received.
    #[serde(default, deserialize_with = "present")]
    pub(crate) to_amount: Option<String>,
    /// Milliseconds since the Unix epoch.
    pub(crate) now: u64,
    /// 1 to 3 legs (default 2).
    #[serde(default, deserialize_with = "present")]
    pub(crate) max_legs: Option<usize>,
    /// Campaign id to per-swap limit.
    #[serde(default)]
    pub(crate) campaigns: BTreeMap<String, String>,
    /// The caller's economic floors (ruling 38): the ratios hold every
    /// leg, the dust the last; none when absent.
    #[serde(default, deserialize_with = "present")]
    pub(crate) floors: Option<crate::input::FloorsInput>,
    /// The caller's price guard (rulings 40-42): one median per pair, or
    /// the caller's reference for every leg; none when absent.
    #[serde(default, deserialize_with = "present")]
    pub(crate) price_guard: Option<crate::input::GuardInput>,
}
