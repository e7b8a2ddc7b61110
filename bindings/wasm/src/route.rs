//! One pair's rates: selection, best, top k, and the ExactOut estimate.

use serde_json::Value;
use swaproute::rate::InvalidRates;
use swaproute::{estimate_exact_out, Rate, RatesResponse, RouteRequest, SwapMode};

use crate::failure::{decode, to_json, Answer, Failure, Json};
use crate::input::{amount, EstimateInput, Route, RouteInput};

/// Decodes a rates response (`GET /v3/pairs/:pairId/rates`): one pair, unique
/// ids (rulings 18, 31). A refused list says why in `reason`
/// (`TOO_MANY`, `MIXED_PAIRS`, `DUPLICATE_ID`).
pub(crate) fn rates(text: &str) -> Result<RatesResponse, Failure> {
    let list: Vec<Rate> = decode("rates", text)?;
    RatesResponse::try_from(list).map_err(|e| refused(&e))
}

fn refused(error: &InvalidRates) -> Failure {
    Failure::invalid_request(format!("rates: {error}")).with("reason", error.code())
}

/// `{pairId, count}` of a valid rates response.
pub(crate) fn summary(rates: &RatesResponse) -> Json {
    Json::value(&serde_json::json!({
        "pairId": rates.pair_id().map(swaproute::PairId::as_str),
        "count": rates.len(),
    }))
}

/// Runs `f` on the crate's request for `input`.
fn with_request<T>(
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
    } = input.check()?;
    let request = match (mode, to_amount) {
        (SwapMode::ExactOut, Some(to)) => RouteRequest::exact_out(from_amount, to, now),
        (_, Some(to)) => RouteRequest::exact_in(from_amount, now).with_to_amount(to),
        (_, None) => RouteRequest::exact_in(from_amount, now),
    };
    let request = request.with_campaigns(&campaigns).with_limit_policy(policy);
    f(&request)
}

/// Every rate ranked or rejected; `noRoute` is the error a server would
/// answer with when nothing is ranked (else `null`).
pub(crate) fn select(rates: &RatesResponse, request: &str) -> Answer {
    with_request(request, |request| {
        let selection = request.select(rates);
        let no_route = match selection.no_route() {
            Some(no_route) => Failure::api(&no_route.to_api_error()).into_value(),
            None => Value::Null,
        };
        to_json(&selection)?.with_key("noRoute", &no_route)
    })
}

/// The best route, or the "no route" error.
pub(crate) fn best(rates: &RatesResponse, request: &str) -> Answer {
    with_request(request, |request| match request.best(rates) {
        Ok(route) => to_json(&route),
        Err(no_route) => Err(Failure::api(&no_route.to_api_error())),
    })
}

/// The best `k` routes, best first, or the "no route" error.
pub(crate) fn top(rates: &RatesResponse, request: &str, k: usize) -> Answer {
    with_request(request, |request| match request.top(rates, k) {
        Ok(routes) => to_json(&routes),
        Err(no_route) => Err(Failure::api(&no_route.to_api_error())),
    })
}

/// The ExactOut estimate (ruling 8): `{fromAmount, rateId}`.
pub(crate) fn estimate(rates: &RatesResponse, request: &str) -> Answer {
    let input: EstimateInput = decode("request", request)?;
    let to_amount = amount("toAmount", &input.to_amount)?;
    let now = swaproute::EpochMillis::new(input.now);
    match estimate_exact_out(rates, to_amount, now) {
        Ok(estimate) => to_json(&estimate),
        Err(no_route) => Err(Failure::api(&no_route.to_api_error())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
