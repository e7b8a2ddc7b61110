//! Order bodies of both flows: `POST /v3/orders` (fixed) and
//! `POST /v3/orders/float` (floating), every field error reported.

use serde_json::{json, Value};
use swaproute::order::{FixedOrderRequest, FloatOrderRequest, Parties, RequestErrors};
use swaproute::screening::{Address, AddressTag};
use swaproute::QuoteId;

use crate::failure::{Answer, Failure, Json};

/// The error to throw: the first problem's body (what a server answers),
/// its `field`, and `errors`, every problem in priority order.
fn refused(errors: &RequestErrors) -> Failure {
    let all: Vec<Value> = errors
        .all()
        .iter()
        .map(|e| {
            json!({
                "field": e.field().as_str(),
                "code": e.code().as_str(),
                "details": e.to_string(),
            })
        })
        .collect();
    Failure::api(&errors.to_api_error())
        .with("field", errors.first().field().as_str())
        .with("errors", all)
}

fn parties(parties: &Parties, out: &mut serde_json::Map<String, Value>) {
    out.insert(
        "fromAddress".into(),
        parties.from_address().map(Address::as_str).into(),
    );
    out.insert(
        "fromAddressTag".into(),
        parties.from_address_tag().map(AddressTag::as_str).into(),
    );
    out.insert("toAddress".into(), parties.to_address().as_str().into());
    out.insert(
        "toAddressTag".into(),
        parties.to_address_tag().map(AddressTag::as_str).into(),
    );
}

/// A fixed-rate order body (`rateId`-less intake fields, ruling 19).
pub(crate) fn fixed(body: &str) -> Answer {
    let request = FixedOrderRequest::from_json(body.as_bytes()).map_err(|e| refused(&e))?;
    let mut out = serde_json::Map::new();
    out.insert(
        "fromAmount".into(),
        request.from_amount().to_string().into(),
    );
    out.insert("toAmount".into(), request.to_amount().to_string().into());
    parties(request.parties(), &mut out);
    out.insert("pairId".into(), request.pair_id().as_str().into());
    out.insert(
        "slippage".into(),
        request.slippage().percent().to_string().into(),
    );
    out.insert("swapMode".into(), request.swap_mode().as_str().into());
    Ok(Json::value(&Value::Object(out)))
}

/// A floating-rate order body (ruling 12: no `swapMode`).
pub(crate) fn float(body: &str) -> Answer {
    let request = FloatOrderRequest::from_json(body.as_bytes()).map_err(|e| refused(&e))?;
    let mut out = serde_json::Map::new();
    out.insert(
        "fromAmount".into(),
        request.from_amount().to_string().into(),
    );
    out.insert("toAmount".into(), request.to_amount().to_string().into());
    parties(request.parties(), &mut out);
    out.insert("pairId".into(), request.pair_id().as_str().into());
    out.insert(
        "slippage".into(),
        request.slippage().percent().to_string().into(),
    );
    out.insert(
        "quoteId".into(),
        request.quote_id().map(QuoteId::as_str).into(),
    );
    Ok(Json::value(&Value::Object(out)))
}
