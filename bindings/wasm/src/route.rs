//! One pair's rates: selection, best, top k, and the ExactOut estimate.

use core::cell::Cell;
use core::fmt;

use serde::de::{DeserializeSeed, SeqAccess, Visitor};
use serde::Deserializer;
use swaproute::rate::{InvalidRates, TooManyRates, MAX_RATES};
#[cfg(feature = "feasible")]
use swaproute::route::FeasibleQuery;
use swaproute::route::{estimate_exact_out_under, Policy};
use swaproute::{Rate, RatesResponse, RouteRequest, SwapMode};

use crate::failure::{decode, decode_failure, envelope, to_json, Answer, Failure};
use crate::input::{amount, floors, EstimateInput, Route, RouteInput};
#[cfg(feature = "feasible")]
use crate::input::{campaigns, mode, FeasibleInput};

/// Decodes a rates response (`GET /v3/pairs/:pairId/rates`): one pair, unique
/// ids (rulings 18, 31). A refused list says why in `reason`
/// (`TOO_MANY`, `MIXED_PAIRS`, `DUPLICATE_ID`). A list longer than
/// `MAX_RATES` is refused when its next rate is met, without decoding the rest.
pub(crate) fn rates(text: &str) -> Result<RatesResponse, Failure> {
    rate_list("rates", text).and_then(|list| RatesResponse::try_from(list).map_err(|e| refused(&e)))
}

/// Decodes a JSON array of at most `MAX_RATES` rates, named `what` in errors.
pub(crate) fn rate_list(what: &str, text: &str) -> Result<Vec<Rate>, Failure> {
    let too_many = Cell::new(false);
    let mut deserializer = serde_json::Deserializer::from_slice(text.as_bytes());
    let decoded = Bounded(&too_many)
        .deserialize(&mut deserializer)
        .and_then(|list| deserializer.end().map(|()| list));
    match decoded {
        Ok(list) => Ok(list),
        Err(_) if too_many.get() => Err(refused(&InvalidRates::TooMany(TooManyRates {
            len: MAX_RATES.saturating_add(1),
        }))),
        Err(e) => Err(decode_failure(what, &e)),
    }
}

/// A rates array that stops at its `MAX_RATES + 1`th element.
pub(crate) struct Bounded<'a>(pub(crate) &'a Cell<bool>);

impl<'de> DeserializeSeed<'de> for Bounded<'_> {
    type Value = Vec<Rate>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Vec<Rate>, D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for Bounded<'_> {
    type Value = Vec<Rate>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a sequence")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<Rate>, A::Error> {
        let mut list = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(256));
        while let Some(rate) = seq.next_element::<Rate>()? {
            if list.len() == MAX_RATES {
                self.0.set(true);
                return Err(serde::de::Error::custom("too many rates"));
            }
            list.push(rate);
        }
        Ok(list)
    }
}

fn refused(error: &InvalidRates) -> Failure {
    Failure::invalid_request(format!("rates: {error}")).with("reason", error.code())
}

/// `{pairId, count}` of a valid rates response.
pub(crate) fn summary(rates: &RatesResponse) -> Answer {
    #[derive(serde::Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Summary<'a> {
        pair_id: Option<&'a str>,
        count: usize,
    }
    to_json(&Summary {
        pair_id: rates.pair_id().map(swaproute::PairId::as_str),
        count: rates.len(),
    })
}

/// Runs `f` on the crate's request for `input`.
pub(crate) fn with_request<T>(
    input: &str,
    f: impl FnOnce(&RouteRequest<'_>) -> Result<T, Failure>,
) -> Result<T, Failure> {
    let input: RouteInput = decode("request", input)?;
    let Route {
        mode,
        from_amount,
        to_amount,
        now,
        campaigns,
        policy,
        floors,
        guard,
    } = input.check()?;
    let request = match (mode, to_amount) {
        (SwapMode::ExactOut, Some(to)) => RouteRequest::exact_out(from_amount, to, now),
        (_, Some(to)) => RouteRequest::exact_in(from_amount, now).with_to_amount(to),
        (_, None) => RouteRequest::exact_in(from_amount, now),
    };
    let request = request
        .with_campaigns(&campaigns)
        .with_limit_policy(policy)
        .with_floors(floors);
    match &guard {
        Some(guard) => f(&request.with_price_guard(guard)),
        None => f(&request),
    }
}

/// Every rate ranked or rejected; `noRoute` is the error a server would
/// answer with when nothing is ranked (else `null`).
pub(crate) fn select(rates: &RatesResponse, request: &str) -> Answer {
    with_request(request, |request| {
        let selection = request.select(rates);
        let no_route = match selection.no_route() {
            Some(no_route) => Failure::no_route(no_route).into_text(),
            None => "null".into(),
        };
        to_json(&selection)?.with_raw("noRoute", &no_route)
    })
}

/// The best route as `RawRates::best` answers it: for the common route (no
/// required input, no campaign, an id JSON writes as is) `"\u{1}"`, its
/// rate id, `"\u{1f}"` and its net output (normalized, as its JSON writes
/// it), from which the JavaScript wrapper builds the route's object; else
/// the envelope of the route's JSON or of the "no route" error. Serde's
/// writer (a call per piece at opt-level z) and `JSON.parse` were most of a
/// `best` call over a few rates (issue 35).
pub(crate) fn best(rates: &RatesResponse, request: &str) -> String {
    let answer = with_request(request, |request| match request.best(rates) {
        Ok(route) => match compact_route(&route) {
            Some(text) => Ok(Ok(text)),
            None => to_json(&route).map(Err),
        },
        Err(no_route) => Err(Failure::no_route(&no_route)),
    });
    match answer {
        Ok(Ok(text)) => text,
        Ok(Err(json)) => envelope(Ok(json)),
        Err(failure) => envelope(Err(failure)),
    }
}

/// [`best`]'s compact text of `route`, when it is a common route.
fn compact_route(route: &swaproute::Route<'_>) -> Option<String> {
    use core::fmt::Write;
    let id = route.rate().id().as_str();
    let common = route.required_input().is_none()
        && route.required_input_limits().is_none()
        && route.rate().sponsored_by_campaign_id().is_none()
        // What JSON escapes in a string: `"`, `\`, the controls (ids hold
        // no quote or control, and so no separator).
        && !id.bytes().any(|b| b == b'"' || b == b'\\' || b < 0x20);
    if !common {
        return None;
    }
    let mut out = String::with_capacity(48);
    out.push('\u{1}');
    out.push_str(id);
    out.push('\u{1f}');
    // The net output as its JSON (`decimal::Plain`) writes it.
    write!(out, "{}", route.net_output().normalize()).ok()?;
    Some(out)
}

/// The best `k` routes, best first, or the "no route" error.
#[cfg(feature = "top-scan")]
pub(crate) fn top(rates: &RatesResponse, request: &str, k: usize) -> Answer {
    with_request(request, |request| match request.top(rates, k) {
        Ok(routes) => to_json(&routes),
        Err(no_route) => Err(Failure::no_route(&no_route)),
    })
}

/// The best `k` routes, best first, or the "no route" error.
///
/// Taken from the full selection (`Selection::into_top`, what the crate's
/// own `top` does above a few dozen): the same routes, in the same order,
/// as `RouteRequest::top`, without its fixed-`k` scans, each a copy of the
/// ranking specialised for one `k` (about 16 KB of the browser build).
#[cfg(not(feature = "top-scan"))]
pub(crate) fn top(rates: &RatesResponse, request: &str, k: usize) -> Answer {
    with_request(request, |request| match request.select(rates).into_top(k) {
        Ok(routes) => to_json(&routes),
        Err(no_route) => Err(Failure::no_route(&no_route)),
    })
}

/// The ExactOut estimate (ruling 8): `{fromAmount, rateId}`.
pub(crate) fn estimate(rates: &RatesResponse, request: &str) -> Answer {
    let input: EstimateInput = decode("request", request)?;
    let to_amount = amount("toAmount", &input.to_amount)?;
    let now = swaproute::EpochMillis::new(input.now);
    let floors = floors(input.floors.as_ref())?;
    let guard = crate::input::guard(input.price_guard.as_ref())?;
    let policy = Policy::DEFAULT.with_floors(floors);
    let policy = policy.with_price_guard(guard.as_ref());
    match estimate_exact_out_under(rates, to_amount, now, policy) {
        Ok(estimate) => to_json(&estimate),
        Err(no_route) => Err(Failure::no_route(&no_route)),
    }
}

#[cfg(feature = "feasible")]
/// The amounts that work (ruling 38): `{mode, min, max, ranges, maxWithin,
/// bestWithin}`, the crate's `FeasibleReport`.
pub(crate) fn feasible(rates: &RatesResponse, request: &str) -> Answer {
    let input: FeasibleInput = decode("request", request)?;
    let campaigns = campaigns(&input.campaigns)?;
    let guard = crate::input::guard(input.price_guard.as_ref())?;
    // The whole policy (ruling 41), as the ranking applies it.
    let policy = swaproute::route::Policy::DEFAULT
        .with_campaigns(&campaigns)
        .with_limit_policy(crate::input::limit_policy(input.limit_policy.as_deref())?)
        .with_floors(floors(input.floors.as_ref())?);
    let policy = policy.with_price_guard(guard.as_ref());
    let mut query = FeasibleQuery::new(
        mode(input.mode.as_deref())?,
        swaproute::EpochMillis::new(input.now),
    )
    .with_policy(policy);
    if let Some(decimals) = input.decimals {
        query = query.with_decimals(decimals.from, decimals.to);
    }
    // A balance of 0 holds no amount that works: the same answer as none.
    let spendable = match input.spendable.as_deref() {
        None => None,
        Some(text) if is_zero(text) => None,
        Some(text) => Some(amount("spendable", text)?),
    };
    let feasible = query
        .amounts(rates)
        .map_err(|e| Failure::invalid_request(format!("rates: {e}")))?;
    to_json(&feasible.report(spendable))
}

#[cfg(feature = "feasible")]
/// `0`, `0.0`, `00.000`: zero in the amount grammar.
fn is_zero(text: &str) -> bool {
    swaproute::decimal::parse_amount(text).is_ok_and(|d| d.is_zero())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::failure::Json;
    use serde_json::Value;

    const RATES: &str = r#"[{"amount":{"assetId":"ETH","value":30},"expiry":1700000060000,"id":"a",
        "max":{"assetId":"BTC","value":10},"min":{"assetId":"BTC","value":0.001},
        "minerFee":{"assetId":"ETH","value":0.01},"pairId":"BTC_ETH"}]"#;

    fn answer(answer: Answer) -> Value {
        match answer {
            Ok(Json(text)) => serde_json::from_str(&text).unwrap_or_default(),
            Err(failure) => failure.into_value(),
        }
    }

    #[test]
    fn a_selection_carries_its_no_route() {
        let Ok(rates) = rates(RATES) else {
            panic!("the rates decode")
        };
        // 0.5 × 30 − 0.01 = 14.99
        let ok = answer(select(
            &rates,
            r#"{"fromAmount":"0.5","now":1700000000000}"#,
        ));
        assert_eq!(ok["routes"][0]["netOutput"], "14.99");
        assert_eq!(ok["noRoute"], Value::Null);
        let none = answer(select(&rates, r#"{"fromAmount":"11","now":1700000000000}"#));
        assert_eq!(none["noRoute"]["code"], "AMOUNT_ABOVE_LIMIT");
        assert_eq!(none["noRoute"]["max"], "10");
    }

    /// A rate of BTC_ETH with `id`, multiplier `m`, miner fee `fee` and
    /// `extra` keys (`,"sponsoredByCampaignId":"spring"`).
    fn rate(id: &str, m: &str, fee: &str, extra: &str) -> String {
        format!(
            r#"{{"amount":{{"assetId":"ETH","value":{m}}},"expiry":1700000060000,"id":{id},
            "max":{{"assetId":"BTC","value":10}},"min":{{"assetId":"BTC","value":0.001}},
            "minerFee":{{"assetId":"ETH","value":{fee}}},"pairId":"BTC_ETH","features":["exactOut"]{extra}}}"#
        )
    }

    #[test]
    fn the_compact_route_is_its_json() {
        let lists = [
            // 0.5 × 30 − 0 = 15.0 (normalized: "15"), and tiny outputs.
            vec![rate(r#""a""#, "30", "0", "")],
            vec![rate(r#""a""#, "30.000000001", "0.000000001", "")],
            // A backslash (JSON escapes it; ids hold no quote or control).
            vec![rate(r#""x\\y""#, "30", "0.01", "")],
            vec![rate(r#""ünï😀""#, "0.000001", "0", "")],
            vec![rate(
                r#""s""#,
                "31",
                "0",
                r#","sponsoredByCampaignId":"spring""#,
            )],
        ];
        let requests = [
            r#"{"fromAmount":"0.5","now":1700000000000}"#,
            r#"{"fromAmount":"1.00000001","now":1700000000000}"#,
            r#"{"fromAmount":"0.5","toAmount":"14","mode":"ExactOut","now":1700000000000}"#,
            r#"{"fromAmount":"0.5","now":1700000000000,"campaigns":{"spring":"5"}}"#,
        ];
        let mut compact = 0;
        for list in &lists {
            let Ok(rates) = rates(&format!("[{}]", list.join(","))) else {
                panic!("the rates decode: {list:?}")
            };
            for request in requests {
                let text = best(&rates, request);
                let Some(parts) = text.strip_prefix('\u{1}') else {
                    // The envelope: of the route's JSON, or "no route".
                    assert!(
                        text.starts_with(r#"{"ok":{"rateId":"#) || text.starts_with(r#"{"error":"#)
                    );
                    continue;
                };
                let Some((id, net)) = parts.split_once('\u{1f}') else {
                    panic!("no separator: {text:?}")
                };
                // What the JavaScript wrapper builds, as JSON, against the
                // route's own JSON.
                let built = format!(
                    r#"{{"ok":{{"rateId":{},"netOutput":"{net}","requiredInput":null,"requiredInputLimits":null,"sponsoredByCampaignId":null}}}}"#,
                    serde_json::to_string(id).unwrap_or_default()
                );
                let own = with_request(request, |r| match r.best(&rates) {
                    Ok(route) => to_json(&route),
                    Err(no_route) => Err(Failure::no_route(&no_route)),
                });
                assert_eq!(built, envelope(own), "{list:?} {request}");
                compact += 1;
            }
        }
        // Each list's ExactIn routes but the backslash's took the compact path.
        assert!(compact >= 6, "{compact}");
    }

    #[test]
    fn requests_refuse_unknown_keys_and_number_amounts() {
        let Ok(rates) = rates(RATES) else {
            panic!("the rates decode")
        };
        for request in [
            r#"{"fromAmount":"0.5","now":1,"fromAmout":"1"}"#,
            r#"{"fromAmount":0.5,"now":1}"#,
            r#"{"fromAmount":"0.5"}"#,
            // Present but null is not absent (no silent default).
            r#"{"fromAmount":"0.5","now":1,"mode":null}"#,
            r#"{"fromAmount":"0.5","now":1,"limitPolicy":null}"#,
            r#"{"fromAmount":"0.5","now":1,"toAmount":null}"#,
        ] {
            let error = answer(select(&rates, request));
            assert_eq!(error["code"], "INVALID_REQUEST", "{request}");
        }
    }
}
