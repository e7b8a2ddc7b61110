//! One pair's rates: selection, best, top k, and the ExactOut estimate.

use core::cell::Cell;
use core::fmt;

use serde::de::{DeserializeSeed, SeqAccess, Visitor};
use serde::Deserializer;
use swaproute::rate::{InvalidRates, MAX_RATES};
#[cfg(feature = "feasible")]
use swaproute::route::FeasibleQuery;
use swaproute::route::{estimate_exact_out_under, Policy};
use swaproute::{
    EpochMillis, NoRoute, Rate, RatesResponse, Route as Ranked, RouteRequest, SwapMode,
};

use crate::failure::{decode, decode_failure, envelope, push_digits, to_json, Answer, Failure};
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
        Err(_) if too_many.get() => Err(refused(&InvalidRates::TooMany {
            len: MAX_RATES.saturating_add(1),
        })),
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

/// `{pairId, count}` of a valid rates response (written by hand: no
/// serializer of its own).
pub(crate) fn summary(rates: &RatesResponse) -> crate::failure::Json {
    let mut out = String::from("{\"pairId\":");
    match rates.pair_id() {
        Some(pair) => out.push_str(&serde_json::to_string(pair.as_str()).unwrap_or_default()),
        None => out.push_str("null"),
    }
    out.push_str(",\"count\":");
    push_digits(&mut out, u64::try_from(rates.len()).unwrap_or(u64::MAX));
    out.push('}');
    crate::failure::Json(out)
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
        let json = to_json(&selection)?.with_raw("noRoute", &no_route)?;
        json.with_raw(
            "validUntil",
            &until_text(expiries(rates, request.now(), None).0),
        )
    })
}

/// `validUntil`'s JSON text (ruling 50): epoch ms, or `null` when nothing
/// left can expire.
pub(crate) fn until_text(until: Option<EpochMillis>) -> String {
    let mut out = String::with_capacity(13);
    match until {
        Some(at) => push_digits(&mut out, at.as_millis()),
        None => out.push_str("null"),
    }
    out
}

/// The earliest and the last expiry later than `after` among `rates`;
/// with `voters`, among the rates that vote for its median guard's
/// reference at its `now` (ruling 42: a rate alone has a median exactly
/// when it votes). One loop for every lifetime here: `select`'s
/// (`RouteRequest::select_valid_until`: the earliest live expiry), a "no
/// route"'s (the last), a median guard's next voter.
fn expiries(
    rates: &RatesResponse,
    after: EpochMillis,
    voters: Option<&RouteRequest<'_>>,
) -> (Option<EpochMillis>, Option<EpochMillis>) {
    let (mut first, mut last) = (None::<EpochMillis>, None::<EpochMillis>);
    for rate in rates.rates() {
        let expiry = rate.expiry();
        if expiry > after
            && voters.is_none_or(|request| {
                request
                    .price_reference(core::slice::from_ref(rate))
                    .is_some()
            })
        {
            first = Some(first.map_or(expiry, |first| first.min(expiry)));
            last = Some(last.map_or(expiry, |last| last.max(expiry)));
        }
    }
    (first, last)
}

/// The "no route" error of a ranking call with its `validUntil`: until
/// when that "no route" holds ([`best_until`]).
pub(crate) fn no_route_until(
    request: &RouteRequest<'_>,
    rates: &RatesResponse,
    no_route: &NoRoute,
) -> Failure {
    Failure::no_route(no_route)
        .with_raw("validUntil", &until_text(best_until(request, rates, None)))
}

/// Whether `request` judges by a median that moves when a voter expires
/// (ruling 42: a price guard without the caller's reference).
fn median_guarded(request: &RouteRequest<'_>) -> bool {
    request
        .price_guard()
        .is_some_and(|guard| guard.reference().is_none())
}

/// Until when `best`'s answer (`best`: the route, or `None` for "no
/// route") holds: `RouteRequest::valid_until` (ruling 50) without ranking
/// again. Rates only leave: a route holds until its rate expires, a "no
/// route" until the last rate does; under a median guard the reference
/// also moves when a voter expires, so the first voter's expiry bounds it
/// too.
pub(crate) fn best_until(
    request: &RouteRequest<'_>,
    rates: &RatesResponse,
    best: Option<&Ranked<'_>>,
) -> Option<EpochMillis> {
    let now = request.now();
    let end = match best {
        Some(route) => route.rate().expiry(),
        None => expiries(rates, now, None).1?,
    };
    if !median_guarded(request) {
        return Some(end);
    }
    let voter = expiries(rates, now, Some(request)).0;
    Some(voter.map_or(end, |voter| voter.min(end)))
}

/// Until when `routes`, the top `k`, hold: `RouteRequest::top_valid_until`
/// without ranking again (the browser build links no fixed-`k` scan): the
/// earliest expiry among them, or a voter's under a median guard; none
/// shown (`k = 0`, or "no route"), as `best`'s answer.
pub(crate) fn top_until(
    request: &RouteRequest<'_>,
    rates: &RatesResponse,
    routes: &[Ranked<'_>],
) -> Option<EpochMillis> {
    let Some(shown) = routes.iter().map(|route| route.rate().expiry()).min() else {
        return best_until(request, rates, request.best(rates).ok().as_ref());
    };
    if !median_guarded(request) {
        return Some(shown);
    }
    let voter = expiries(rates, request.now(), Some(request)).0;
    Some(voter.map_or(shown, |voter| voter.min(shown)))
}

/// The best route as `RawRates::best` answers it: for the common route (no
/// required input, no campaign, an id JSON writes as is) `"\u{1}"`, its
/// rate id, `"\u{1f}"`, its net output (normalized, as its JSON writes
/// it), `"\u{1f}"` and its `validUntil` (digits, or nothing for `null`),
/// from which the JavaScript wrapper builds the route's object; else the
/// envelope of the route's JSON (with `validUntil`) or of the "no route"
/// error (with `validUntil`, ruling 50). Serde's
/// writer (a call per piece at opt-level z) and `JSON.parse` were most of a
/// `best` call over a few rates (issue 35).
pub(crate) fn best(rates: &RatesResponse, request: &str) -> String {
    let answer = with_request(request, |request| match request.best(rates) {
        Ok(route) => {
            let until = best_until(request, rates, Some(&route));
            match compact_route(&route, until) {
                Some(text) => Ok(Ok(text)),
                None => to_json(&route)?
                    .with_raw("validUntil", &until_text(until))
                    .map(Err),
            }
        }
        Err(no_route) => Err(no_route_until(request, rates, &no_route)),
    });
    match answer {
        Ok(Ok(text)) => text,
        Ok(Err(json)) => envelope(Ok(json)),
        Err(failure) => envelope(Err(failure)),
    }
}

/// [`best`]'s compact text of `route`, when it is a common route.
///
/// `until`: `validUntil`, written after a second `"\u{1f}"` (nothing for
/// `null`).
fn compact_route(route: &Ranked<'_>, until: Option<EpochMillis>) -> Option<String> {
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
    out.push('\u{1f}');
    if let Some(until) = until {
        push_digits(&mut out, until.as_millis());
    }
    Some(out)
}

/// The best `k` routes, best first, or the "no route" error.
#[cfg(feature = "top-scan")]
pub(crate) fn top(rates: &RatesResponse, request: &str, k: usize) -> Answer {
    with_request(request, |request| {
        top_answer(request, rates, request.top(rates, k))
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
    with_request(request, |request| {
        top_answer(request, rates, request.select(rates).into_top(k))
    })
}

/// `{routes, validUntil}` of the top `k` (ruling 50: until any of them
/// could change), or the "no route" error with its `validUntil`.
fn top_answer(
    request: &RouteRequest<'_>,
    rates: &RatesResponse,
    top: Result<Vec<Ranked<'_>>, NoRoute>,
) -> Answer {
    match top {
        Ok(routes) => {
            let mut out = String::from("{\"routes\":");
            out.push_str(&to_json(&routes)?.0);
            out.push_str(",\"validUntil\":");
            out.push_str(&until_text(top_until(request, rates, &routes)));
            out.push('}');
            Ok(crate::failure::Json(out))
        }
        Err(no_route) => Err(no_route_until(request, rates, &no_route)),
    }
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
                let Some((id, rest)) = parts.split_once('\u{1f}') else {
                    panic!("no separator: {text:?}")
                };
                let Some((net, until)) = rest.split_once('\u{1f}') else {
                    panic!("no second separator: {text:?}")
                };
                let until = if until.is_empty() { "null" } else { until };
                // What the JavaScript wrapper builds, as JSON, against the
                // route's own JSON and the crate's `valid_until`.
                let built = format!(
                    r#"{{"ok":{{"rateId":{},"netOutput":"{net}","requiredInput":null,"requiredInputLimits":null,"sponsoredByCampaignId":null,"validUntil":{until}}}}}"#,
                    serde_json::to_string(id).unwrap_or_default()
                );
                let own = with_request(request, |r| match r.best(&rates) {
                    Ok(route) => {
                        to_json(&route)?.with_raw("validUntil", &until_text(r.valid_until(&rates)))
                    }
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

    /// The answers' `validUntil` against the crate's own lifetimes
    /// (`valid_until`, `top_valid_until`, `select_valid_until`), over
    /// pseudo-random books with and without a median guard (whose voters
    /// and re-rankings `best_until` and `top_until` find without the
    /// schedule).
    #[test]
    fn the_answers_lifetimes_are_the_crates() {
        let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = |n: u64| {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (seed >> 33) % n
        };
        let mut checked = 0;
        for _ in 0..400 {
            let count = 1 + next(7);
            let list: Vec<String> = (0..count)
                .map(|i| {
                    format!(
                        r#"{{"amount":{{"assetId":"ETH","value":{}}},"expiry":{},"id":"r{i}",
                        "max":{{"assetId":"BTC","value":{}}},"min":{{"assetId":"BTC","value":{}}},
                        "minerFee":{{"assetId":"ETH","value":0.0{}}},"pairId":"BTC_ETH"}}"#,
                        25 + next(10),
                        1000 + 500 * next(8),
                        1 + next(3),
                        ["0.1", "0.5", "1.5"][usize::try_from(next(3)).unwrap_or(0)],
                        next(9),
                    )
                })
                .collect();
            let Ok(rates) = rates(&format!("[{}]", list.join(","))) else {
                panic!("the rates decode")
            };
            let guard = match next(3) {
                0 => "",
                1 => r#","priceGuard":{"maxDeviationBps":500}"#,
                _ => r#","priceGuard":{"maxDeviationBps":1500}"#,
            };
            let request = format!(
                r#"{{"fromAmount":"{}","now":{}{guard}}}"#,
                ["0.2", "0.7", "1", "2.5"][usize::try_from(next(4)).unwrap_or(0)],
                1000 + 250 * next(18),
            );
            let own = |text: &str| -> Value {
                let value: Value = serde_json::from_str(text).unwrap_or_default();
                value
            };
            let crate_until = |f: &dyn Fn(&RouteRequest<'_>) -> Option<swaproute::EpochMillis>| {
                with_request(&request, |r| Ok(f(r)))
                    .ok()
                    .flatten()
                    .map_or(Value::Null, |at| Value::from(at.as_millis()))
            };
            // best: the compact text, the route's JSON or the error.
            let text = best(&rates, &request);
            let got = if let Some(parts) = text.strip_prefix('\u{1}') {
                let until = parts.rsplit('\u{1f}').next().unwrap_or_default();
                if until.is_empty() {
                    Value::Null
                } else {
                    Value::from(until.parse::<u64>().unwrap_or_default())
                }
            } else {
                let envelope = own(&text);
                envelope
                    .get("ok")
                    .or_else(|| envelope.get("error"))
                    .map_or(Value::Null, |v| v["validUntil"].clone())
            };
            assert_eq!(
                got,
                crate_until(&|r| r.valid_until(&rates)),
                "best {request} {list:?}"
            );
            for k in [0, 1, 2, 3, 10] {
                let envelope = own(&envelope(top(&rates, &request, k)));
                let got = envelope
                    .get("ok")
                    .or_else(|| envelope.get("error"))
                    .map_or(Value::Null, |v| v["validUntil"].clone());
                let want = crate_until(&|r| r.top_valid_until(&rates, k));
                assert_eq!(got, want, "top {k} {request} {list:?}");
            }
            let selected = answer(select(&rates, &request));
            assert_eq!(
                selected["validUntil"],
                crate_until(&|r| r.select_valid_until(&rates)),
                "select {request}"
            );
            checked += 1;
        }
        assert_eq!(checked, 400);
    }
}
