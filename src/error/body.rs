use alloc::string::String;

use serde::{Deserialize, Serialize};

use super::{BodyCode, HttpStatus};
use crate::ids::OrderId;
use crate::wire::{Presence, SentDecimal};

/// The wire shape of an error: `{"status":403,"code":"RESTRICTED_ADDRESS","details":"…"}`,
/// plus `"orderId"` when an order exists, and `"min"` / `"max"` (decimal
/// strings) when a limit code names the limits nearest to the amount:
/// `{"status":400,"code":"AMOUNT_BELOW_LIMIT","details":"…","min":"0.00079787"}`,
/// and `"bound"` / `"available"` (decimal strings) with `SLIPPAGE_EXCEEDED`:
/// `{"status":409,"code":"SLIPPAGE_EXCEEDED","details":"…","bound":"20","available":"16.59840228"}`.
///
/// Every optional key is kept as sent (ruling 22, docs/RULES.md): absent stays
/// absent, `null` stays `null`; a limit sent as a JSON number is written back
/// as a number, a decimal string with its own digits (`"0.50"` stays `"0.50"`).
/// [`ApiError::to_body`](super::ApiError::to_body) writes limits as strings.
///
/// Decoding keeps the `status` and the `code` as sent, including a code the
/// crate does not know ([`BodyCode::Unknown`], ruling 26, docs/RULES.md), so a
/// client keeps working when the service adds a code; encoding writes them
/// back unchanged. Unknown keys are tolerated (and not kept).
///
/// ```
/// use swaproute::error::{ApiError, BodyCode, ErrorBody};
/// let body: ErrorBody = serde_json::from_str(
///     r#"{"status":429,"code":"QUOTA_EXCEEDED","details":"slow down"}"#)?;
/// assert_eq!(body.status.as_u16(), 429);
/// assert_eq!(body.code.as_str(), "QUOTA_EXCEEDED");
/// assert!(matches!(body.code, BodyCode::Unknown(_)));
/// // Not an ApiError (no code of the table), but nothing is lost.
/// let body = ApiError::try_from(body).unwrap_err().into_body();
/// assert_eq!(body.details, "slow down");
/// # Ok::<(), serde_json::Error>(())
/// ```
///
/// The alternative shape `{"code", "error", "message"}` seen in third-party
/// mock data is not decoded: it carries neither `status` nor `details`, the
/// fields of the service's common error model, and decoding it would mean
/// inventing a status and reading `message` as `details`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ErrorBody {
    /// The HTTP status, as sent.
    pub status: HttpStatus,
    /// The code, as sent: known or not.
    pub code: BodyCode,
    /// Human-readable details.
    pub details: String,
    /// The order the error concerns, when one exists (absent, `null` or `""`
    /// kept as sent, ruling 22).
    #[serde(default, skip_serializing_if = "Presence::is_absent")]
    pub order_id: Presence<OrderId>,
    /// With `AMOUNT_BELOW_LIMIT` / `AMOUNT_ABOVE_LIMIT`: the smallest min, or
    /// the nearest min above the amount (absent, `null` or a value, as sent).
    #[serde(default, skip_serializing_if = "Presence::is_absent")]
    pub min: Presence<SentDecimal>,
    /// With `AMOUNT_BELOW_LIMIT` / `AMOUNT_ABOVE_LIMIT`: the largest max, or
    /// the nearest max below the amount (absent, `null` or a value, as sent).
    #[serde(default, skip_serializing_if = "Presence::is_absent")]
    pub max: Presence<SentDecimal>,
    /// With `SLIPPAGE_EXCEEDED` (ruling 33): the slippage bound, the least
    /// output (ExactIn) or the most input (ExactOut) the client accepts.
    #[serde(default, skip_serializing_if = "Presence::is_absent")]
    pub bound: Presence<SentDecimal>,
    /// With `SLIPPAGE_EXCEEDED`: what the selected route gives, its promised
    /// output (ExactIn) or its order amount (ExactOut).
    #[serde(default, skip_serializing_if = "Presence::is_absent")]
    pub available: Presence<SentDecimal>,
}

/// An [`ErrorBody`] whose code is not in the table, so it is not an
/// [`ApiError`](super::ApiError); the body is kept whole.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("error code `{}` (HTTP {}) is not in the crate's table: {}", .body.code, .body.status, .body.details)]
pub struct UnknownCodeError {
    pub(super) body: ErrorBody,
}

impl UnknownCodeError {
    /// The body, as decoded.
    pub fn body(&self) -> &ErrorBody {
        &self.body
    }

    /// The body, by value.
    pub fn into_body(self) -> ErrorBody {
        self.body
    }
}
