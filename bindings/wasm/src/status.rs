//! Order status reconciliation (rulings 13 and 21).

use serde::Deserialize;
use serde_json::json;
use swaproute::order::{reconcile_all, Observation, OrderStatus, TrackedStatus};

use crate::failure::{decode, Answer, Failure, Json};

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Current {
    status: String,
    #[serde(default)]
    deposit_detected: bool,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Observed {
    status: String,
    #[serde(default)]
    deposit_detected: bool,
    #[serde(default)]
    confirmations: u64,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Input {
    current: Current,
    observations: Vec<Observed>,
}

fn status(field: &str, text: &str) -> Result<OrderStatus, Failure> {
    OrderStatus::parse(text)
        .map_err(|e| Failure::invalid_request(format!("{field}: {e}")).with("field", field))
}

/// Folds provider observations into the tracked status:
/// `{status, definitive}`.
pub(crate) fn reconcile(input: &str) -> Answer {
    let input: Input = decode("reconcile", input)?;
    let start = TrackedStatus::new(
        status("current.status", &input.current.status)?,
        input.current.deposit_detected,
    );
    let observations = input
        .observations
        .iter()
        .map(|o| {
            Ok(Observation::new(status("observations.status", &o.status)?)
                .with_deposit_detected(o.deposit_detected)
                .with_confirmations(o.confirmations))
        })
        .collect::<Result<Vec<_>, Failure>>()?;
    let end = reconcile_all(start, &observations);
    Ok(Json::value(
        &json!({"status": end.status().as_str(), "definitive": end.is_definitive()}),
    ))
}
