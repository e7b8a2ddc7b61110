use alloc::string::String;

use serde::{Deserialize, Serialize};

use super::{ErrorCode, HttpStatus};
use crate::ids::OrderId;

/// The wire shape of an error: `{"status":403,"code":"RESTRICTED_ADDRESS","details":"…"}`,
/// plus `"orderId"` when an order exists.
///
/// Decoding keeps the `status` as sent; unknown keys are tolerated.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ErrorBody {
    /// The HTTP status.
    pub status: HttpStatus,
    /// The stable code.
    pub code: ErrorCode,
    /// Human-readable details.
    pub details: String,
    /// The order the error concerns, when one exists.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub order_id: Option<OrderId>,
}
