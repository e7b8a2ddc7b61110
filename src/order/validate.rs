//! Validation of single request fields, shared by both order flows.

use crate::decimal::{parse_amount, Amount};
use crate::error::ErrorCode;
use crate::ids::QuoteId;
use crate::rate::PairId;
use crate::screening::{Address, AddressTag};
use crate::slippage::Slippage;
use crate::swap_mode::SwapMode;

use super::loose::{JsonNumber, Loose};
use super::{FieldError, RequestField};

fn invalid_request(field: RequestField, problem: impl core::fmt::Display) -> FieldError {
    FieldError::new(field, ErrorCode::InvalidRequest, problem)
}

fn missing(field: RequestField) -> FieldError {
    invalid_request(field, "is required")
}

fn wrong_type(field: RequestField, expected: &str, found: &Loose) -> FieldError {
    invalid_request(
        field,
        alloc::format!("must be {expected}, not {}", found.kind()),
    )
}

/// A required, positive amount: a decimal string in the strict grammar, or a JSON number.
pub(crate) fn amount(field: RequestField, value: Option<&Loose>) -> Result<Amount, FieldError> {
    let decimal = match value {
        None | Some(Loose::Null) => return Err(missing(field)),
        Some(Loose::Str(text)) => parse_amount(text),
        Some(Loose::Number(number)) => number.value,
        Some(other) => return Err(wrong_type(field, "a decimal string", other)),
    };
    let invalid = |problem: &dyn core::fmt::Display| {
        FieldError::new(field, ErrorCode::InvalidAmount, problem)
    };
    let decimal = decimal.map_err(|e| invalid(&e))?;
    let amount = Amount::new(decimal).map_err(|e| invalid(&e))?;
    if amount.is_zero() {
        return Err(invalid(&"must be greater than zero"));
    }
    Ok(amount)
}

/// A required address.
pub(crate) fn address(field: RequestField, value: Option<&Loose>) -> Result<Address, FieldError> {
    match value {
        None | Some(Loose::Null) => Err(missing(field)),
        Some(Loose::Str(text)) => {
            Address::new(text).map_err(|e| FieldError::new(field, ErrorCode::InvalidAddress, e))
        }
        Some(other) => Err(wrong_type(field, "a string", other)),
    }
}

/// An address whose key is required but whose value may be `null`.
pub(crate) fn nullable_address(
    field: RequestField,
    value: Option<&Loose>,
) -> Result<Option<Address>, FieldError> {
    match value {
        None => Err(invalid_request(field, "is required (null is accepted)")),
        Some(Loose::Null) => Ok(None),
        other => address(field, other).map(Some),
    }
}

/// An optional tag or memo: absent, `null` and `""` all mean none (ruling 28
/// (docs/RULES.md)).
///
/// A string is an [`AddressTag`]: blank text or an invisible character is
/// `INVALID_ADDRESS` naming the field. A JSON number is taken as its digits
/// only when it is written as a plain integer (no sign, fraction or exponent)
/// of at most `u64::MAX` (clients send XRP destination tags as numbers); any
/// other number is `INVALID_REQUEST` asking for a string, because without
/// `arbitrary_precision` such a number reaches the decoder as a double whose
/// digits may differ from the ones sent (`98765432109876543210` would become
/// `98765432109876540000`), and a whole-looking `1.0` cannot be told from
/// `1.00000000000000001`.
pub(crate) fn tag(
    field: RequestField,
    value: Option<&Loose>,
) -> Result<Option<AddressTag>, FieldError> {
    let invalid = |e: &dyn core::fmt::Display| FieldError::new(field, ErrorCode::InvalidAddress, e);
    match value {
        None | Some(Loose::Null) => Ok(None),
        Some(Loose::Str(text)) => AddressTag::new_optional(text).map_err(|e| invalid(&e)),
        Some(Loose::Number(JsonNumber {
            whole: Some(whole), ..
        })) => AddressTag::new(&alloc::format!("{whole}"))
            .map(Some)
            .map_err(|e| invalid(&e)),
        Some(Loose::Number(_)) => Err(invalid_request(
            field,
            "must be sent as a string: a tag sent as a JSON number is taken only when it is a \
             whole number from 0 to 18446744073709551615 written without sign, fraction or \
             exponent, since other numbers can lose digits",
        )),
        Some(other) => Err(wrong_type(field, "a string or a whole number", other)),
    }
}

/// A required pair id, `FROM_TO`.
pub(crate) fn pair_id(value: Option<&Loose>) -> Result<PairId, FieldError> {
    let field = RequestField::PairId;
    match value {
        None | Some(Loose::Null) => Err(missing(field)),
        Some(Loose::Str(text)) => PairId::new(text).map_err(|e| invalid_request(field, e)),
        Some(other) => Err(wrong_type(field, "a string", other)),
    }
}

/// An optional quote id (ruling 19, docs/RULES.md): absent or `null` is none.
pub(crate) fn optional_quote_id(value: Option<&Loose>) -> Result<Option<QuoteId>, FieldError> {
    let field = RequestField::QuoteId;
    match value {
        None | Some(Loose::Null) => Ok(None),
        Some(Loose::Str(text)) => QuoteId::new(text)
            .map(Some)
            .map_err(|e| invalid_request(field, e)),
        Some(other) => Err(wrong_type(field, "a string", other)),
    }
}

/// An optional slippage percentage, 0 to 100, default 2 (ruling 11 in docs/RULES.md).
pub(crate) fn slippage(value: Option<&Loose>) -> Result<Slippage, FieldError> {
    let field = RequestField::Slippage;
    let decimal = match value {
        None | Some(Loose::Null) => return Ok(Slippage::DEFAULT),
        Some(Loose::Str(text)) => parse_amount(text),
        Some(Loose::Number(number)) => number.value,
        Some(other) => return Err(wrong_type(field, "a percentage number", other)),
    };
    let decimal = decimal.map_err(|e| invalid_request(field, e))?;
    Slippage::new(decimal).map_err(|e| invalid_request(field, e))
}

/// An optional swap mode, default ExactIn. An unknown mode is
/// `UNSUPPORTED_SWAP_MODE`; a value that is not a string is `INVALID_REQUEST`.
pub(crate) fn swap_mode(value: Option<&Loose>) -> Result<SwapMode, FieldError> {
    let field = RequestField::SwapMode;
    match value {
        None | Some(Loose::Null) => Ok(SwapMode::default()),
        Some(Loose::Str(text)) => text.parse().map_err(|_| {
            FieldError::new(
                field,
                ErrorCode::UnsupportedSwapMode,
                alloc::format!("{text:?} is not supported (ExactIn or ExactOut)"),
            )
        }),
        Some(other) => Err(wrong_type(field, "\"ExactIn\" or \"ExactOut\"", other)),
    }
}

/// Collects a field's error and yields its value, so every field is checked.
pub(crate) fn collect<T>(
    errors: &mut alloc::vec::Vec<FieldError>,
    result: Result<T, FieldError>,
) -> Option<T> {
    match result {
        Ok(value) => Some(value),
        Err(error) => {
            errors.push(error);
            None
        }
    }
}
