//! Order status reconciliation (rulings 13 and 21).

use serde::Deserialize;
use serde_json::json;
use swaproute::order::{reconcile_all, Observation, OrderStatus, TrackedStatus};

use crate::failure::{decode, Answer, Failure, Json};

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Current {
    status: String,
    #[serde(default, deserialize_with = "crate::input::present")]
    deposit_detected: Option<bool>,
    /// What this function answers with: its own output goes back in.
    #[serde(default, deserialize_with = "crate::input::present")]
    definitive: Option<bool>,
}

/// The tracked status `current` stands for: `{status, depositDetected?}` (the
/// flag matters for `expired`/`failed` only), or this function's own answer
/// `{status, definitive}`, or both when they agree.
fn tracked(current: &Current) -> Result<TrackedStatus, Failure> {
    let order_status = status("current.status", &current.status)?;
    let detected = current
        .deposit_detected
        .or(current.definitive)
        .unwrap_or(false);
    let tracked = TrackedStatus::new(order_status, detected);
    match current.definitive {
        Some(definitive) if definitive != tracked.is_definitive() => {
            let what = match current.deposit_detected {
                Some(detected) => format!(" with depositDetected {detected}"),
                None => String::new(),
            };
            Err(Failure::invalid_request(format!(
                "current.definitive: {:?}{what} is {}definitive",
                current.status,
                if tracked.is_definitive() { "" } else { "not " }
            ))
            .with("field", "current.definitive"))
        }
        _ => Ok(tracked),
    }
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
    let start = tracked(&input.current)?;
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    fn answer(input: &str) -> Value {
        match reconcile(input) {
            Ok(Json(text)) => serde_json::from_str(&text).unwrap_or_default(),
            Err(failure) => failure.into_value(),
        }
    }

    #[test]
    fn its_own_answer_goes_back_in() {
        // Rule 3: `failed` after the deposit was detected is definitive; rule
        // 4: a later `awaiting` does not reopen it.
        let first = answer(
            r#"{"current":{"status":"awaiting"},"observations":[{"status":"failed","depositDetected":true}]}"#,
        );
        assert_eq!(
            first,
            serde_json::json!({"status": "failed", "definitive": true})
        );
        let again = answer(&format!(
            r#"{{"current":{first},"observations":[{{"status":"awaiting"}}]}}"#
        ));
        assert_eq!(
            again,
            serde_json::json!({"status": "failed", "definitive": true})
        );
        // The same state written with the flag instead.
        let flagged = answer(
            r#"{"current":{"status":"failed","depositDetected":true},"observations":[{"status":"awaiting"}]}"#,
        );
        assert_eq!(flagged, again);
    }

    #[test]
    fn a_definitive_flag_that_cannot_hold_is_refused() {
        for current in [
            r#"{"status":"awaiting","definitive":true}"#,
            r#"{"status":"refunded","definitive":false}"#,
            r#"{"status":"failed","depositDetected":false,"definitive":true}"#,
            r#"{"status":"failed","definitive":null}"#,
            r#"{"status":"failed","depositDetected":null}"#,
        ] {
            let error = answer(&format!(r#"{{"current":{current},"observations":[]}}"#));
            assert_eq!(error["code"], "INVALID_REQUEST", "{current}");
        }
        let error =
            answer(r#"{"current":{"status":"awaiting","definitive":true},"observations":[]}"#);
        assert_eq!(error["field"], "current.definitive");
    }
}
