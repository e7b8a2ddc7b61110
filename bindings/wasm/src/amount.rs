//! Amounts: the strict amount grammar and JSON numbers.

use swaproute::decimal::parse_amount;
use swaproute::ErrorCode;

use crate::failure::{to_json, Answer, Failure};

/// An amount in the strict grammar `digits ["." digits]` (ruling 1), in its
/// plain form (`"0012.50"` is `"12.5"`: the grammar drops insignificant zeros).
pub(crate) fn amount(text: &str) -> Answer {
    match parse_amount(text) {
        Ok(value) => to_json(&value.to_string()),
        Err(error) => {
            let failure = Failure::api(&swaproute::ApiError::new(
                ErrorCode::InvalidAmount,
                format!("amount: {error}"),
            ))
            .with("reason", error.code());
            Err(match error {
                swaproute::decimal::DecimalError::InvalidCharacter { found, at } => failure
                    .with_number("at", at)
                    .with("found", found.to_string().as_str()),
                _ => failure,
            })
        }
    }
}

/// The decimal a JSON number's text decodes to, the way a rate's `value` is
/// decoded (ruling 1: the shortest decimal of its double).
pub(crate) fn json_number(text: &str) -> Answer {
    let mut deserializer = serde_json::Deserializer::from_slice(text.as_bytes());
    swaproute::decimal::serde::number::deserialize(&mut deserializer)
        .and_then(|d| deserializer.end().map(|()| d))
        .map_err(|e| {
            Failure::api(&swaproute::ApiError::new(
                ErrorCode::InvalidAmount,
                format!("not a decimal: {e}"),
            ))
            .with("reason", "NOT_A_DECIMAL")
        })
        .and_then(|d| to_json(&d.normalize().to_string()))
}
