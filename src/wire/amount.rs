//! An `{assetId, value}` pair as the service sent it.

use serde::{Deserialize, Serialize};

use super::SentDecimal;
use crate::ids::AssetId;

/// `{"assetId": "…", "value": …}` with the value kept in the form it was sent
/// (string or number), so it is written back the same way (ruling 22,
/// docs/RULES.md). Every combination is a valid record.
///
/// ```
/// use swaproute::wire::SentAmount;
/// let amount: SentAmount = serde_json::from_str(r#"{"assetId":"BTC","value":0.83}"#).unwrap();
/// assert_eq!(amount.asset_id.as_str(), "BTC");
/// assert_eq!(serde_json::to_string(&amount).unwrap(), r#"{"assetId":"BTC","value":0.83}"#);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SentAmount {
    /// The asset the value is in.
    pub asset_id: AssetId,
    /// The value, as sent.
    pub value: SentDecimal,
}
