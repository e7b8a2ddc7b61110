//! The deposit transaction id update: `{"transactionId": "…"}`.
//!
//! See [`DepositTransactionUpdate`] for the set-once rule and an example.

use alloc::boxed::Box;
use core::fmt;

use serde::{Deserialize, Deserializer, Serialize};

use super::{Order, Presence};
use crate::parse_error::{Malformed, ParseError};
use crate::text::check_visible_ascii;

/// The longest transaction id accepted, in bytes (ruling 17 in docs/RULES.md). Real ones
/// are shorter: 66 bytes for an EVM hash, 88 for a Solana signature.
pub const MAX_TRANSACTION_ID_LEN: usize = 256;

/// Why a text is not a transaction id. Maps to `INVALID_REQUEST` naming the
/// `transactionId` field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum InvalidTransactionId {
    /// The id is empty.
    #[error("transaction id is empty")]
    Empty,
    /// The id is longer than [`MAX_TRANSACTION_ID_LEN`] bytes.
    #[error("transaction id is {len} bytes long, more than the {MAX_TRANSACTION_ID_LEN} allowed")]
    TooLong {
        /// Length of the rejected id, in bytes.
        len: usize,
    },
    /// The id contains whitespace, a control character or a non-ASCII character.
    #[error("transaction id contains a character that is not visible ASCII at byte {at}")]
    BadCharacter {
        /// Byte offset of the character.
        at: usize,
    },
}

crate::text::from_token_defect!(
    InvalidTransactionId,
    BadCharacter,
    "BAD_CHARACTER",
    TransactionId
);

/// A blockchain transaction id: non-empty, at most [`MAX_TRANSACTION_ID_LEN`]
/// bytes, visible ASCII only (hex hashes, base58 signatures, `hash:index`
/// forms all qualify), kept exactly as given.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TransactionId(Box<str>);

impl TransactionId {
    /// Validates `text` as a transaction id.
    ///
    /// # Errors
    /// A [`ParseError`] of kind
    /// [`TransactionId`](crate::parse_error::ParseErrorKind::TransactionId) when `text` is empty, longer than
    /// [`MAX_TRANSACTION_ID_LEN`] bytes, or contains a byte that is not visible
    /// ASCII (`!`..=`~`).
    pub fn new(text: &str) -> Result<Self, ParseError> {
        Self::new_defect(text).map_err(|defect| defect.with_text(text))
    }

    /// [`new`](Self::new), with the defect alone.
    fn new_defect(text: &str) -> Result<Self, InvalidTransactionId> {
        check_visible_ascii(text, MAX_TRANSACTION_ID_LEN)?;
        Ok(TransactionId(text.into()))
    }

    /// The id's text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

crate::text::boxed_text!(
    TransactionId,
    TransactionId::new,
    ParseError,
    "a transaction id"
);

/// The body that sets an order's deposit transaction id,
/// `{"transactionId": "…"}`. Unknown keys are ignored; a missing, `null` or
/// invalid `transactionId` fails to decode (answer `INVALID_REQUEST`). Only a
/// JSON object decodes (serde's derive would also take `["…"]`); a repeated
/// `transactionId` key is refused.
///
/// A client tells the service which transaction carries its deposit. The id
/// can be set once: applying an update to an order whose deposit transaction
/// id is already set is refused with HTTP 412 `PRECONDITION_FAILED`, **also
/// when the value is the same** — the precondition is "not set yet", and
/// setting it a second time is refused. The error says whether the stored value
/// equals the new one ([`TransactionIdAlreadySet::same_value`]), so a client
/// retrying after a lost response can treat that case as success.
///
/// ```
/// use swaproute::order::{DepositTransactionUpdate, TransactionId};
/// use swaproute::ApiError;
///
/// let update: DepositTransactionUpdate =
///     serde_json::from_str(r#"{"transactionId":"0x9fc76417374aa880d4449a1f7f31ec597f00b1f6f3dd2d66f4c9c6c445836d8b"}"#)?;
///
/// // The first update sets the id...
/// let stored = update.apply(None)?;
/// assert_eq!(stored, update.transaction_id);
///
/// // ...a second one is refused with 412.
/// let again = update.apply(Some(&stored)).unwrap_err();
/// assert!(again.same_value());
/// let api = ApiError::from(again);
/// assert_eq!(api.code().as_str(), "PRECONDITION_FAILED");
/// assert_eq!(api.http_status().as_u16(), 412);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DepositTransactionUpdate {
    /// The deposit transaction.
    pub transaction_id: TransactionId,
}

impl<'de> Deserialize<'de> for DepositTransactionUpdate {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(field_identifier, rename_all = "camelCase")]
        enum Field {
            TransactionId,
            #[serde(other)]
            Other,
        }

        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = DepositTransactionUpdate;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object {\"transactionId\": \"…\"}")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<Self::Value, A::Error> {
                let mut transaction_id = None;
                while let Some(key) = map.next_key::<Field>()? {
                    match key {
                        Field::TransactionId if transaction_id.is_some() => {
                            return Err(serde::de::Error::duplicate_field("transactionId"));
                        }
                        Field::TransactionId => {
                            transaction_id = Some(map.next_value::<TransactionId>()?);
                        }
                        Field::Other => {
                            map.next_value::<serde::de::IgnoredAny>()?;
                        }
                    }
                }
                transaction_id
                    .map(DepositTransactionUpdate::new)
                    .ok_or_else(|| serde::de::Error::missing_field("transactionId"))
            }
        }
        deserializer.deserialize_map(Visitor)
    }
}

/// The deposit transaction id of the order is already set. Maps to HTTP 412
/// `PRECONDITION_FAILED`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}", if *.same_value {
    "the deposit transaction id is already set (to the same value)"
} else {
    "the deposit transaction id is already set"
})]
pub struct TransactionIdAlreadySet {
    same_value: bool,
}

impl TransactionIdAlreadySet {
    /// `true` when the stored id equals the one the refused update carried.
    pub fn same_value(self) -> bool {
        self.same_value
    }
}

impl DepositTransactionUpdate {
    /// An update setting `transaction_id`.
    pub fn new(transaction_id: TransactionId) -> Self {
        DepositTransactionUpdate { transaction_id }
    }

    /// Applies the update to an order whose deposit transaction id is
    /// `current` (`None` when not set), returning the id to store. A server
    /// holding an [`Order`] calls [`apply_to`](Self::apply_to) instead.
    ///
    /// # Errors
    /// [`TransactionIdAlreadySet`] whenever `current` is `Some`, even when it
    /// equals the new id. Attach the order with
    /// [`ApiError::with_order_id`](crate::error::ApiError::with_order_id) when converting.
    pub fn apply(
        &self,
        current: Option<&TransactionId>,
    ) -> Result<TransactionId, TransactionIdAlreadySet> {
        match current {
            None => Ok(self.transaction_id.clone()),
            Some(stored) => Err(TransactionIdAlreadySet {
                same_value: *stored == self.transaction_id,
            }),
        }
    }
}

impl DepositTransactionUpdate {
    /// Applies `PATCH /v3/orders/:orderId` to `order`: the first time it sets
    /// `fromTransactionId` (the answer is 200 with this update as its body),
    /// a second time it is refused (412). The order's `""` means "not set";
    /// nothing needs converting by hand. `updatedAt` is the caller's to set
    /// (`Timestamp::try_from(now)`), since the library reads no clock.
    ///
    /// ```
    /// use swaproute::order::{DepositTransactionUpdate, Order};
    /// use swaproute::ApiError;
    ///
    /// let mut order: Order = serde_json::from_str(r#"{"id":"u8jzPde0IgxLd6G","status":"awaiting",
    ///   "pairId":"LTC_USDT","fromTransactionId":""}"#)?;
    /// let update: DepositTransactionUpdate = serde_json::from_str(
    ///     r#"{"transactionId":"0xc800f3dc85a0cd085d5bb0bb8edb805414da678605667743c99f2c7aacc9c487"}"#)?;
    ///
    /// update.apply_to(&mut order)?; // 200, body: the update
    /// assert_eq!(order.deposit_transaction_id(), Some(update.transaction_id.as_str()));
    ///
    /// let refused = update.apply_to(&mut order).unwrap_err();
    /// let api = ApiError::from(refused).with_order_id(order.id.clone());
    /// assert_eq!((api.http_status().as_u16(), api.code().as_str()), (412, "PRECONDITION_FAILED"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`TransactionIdAlreadySet`] when the order's deposit transaction id
    /// is already set, also to the same value
    /// ([`TransactionIdAlreadySet::same_value`]); the order is left unchanged.
    pub fn apply_to(&self, order: &mut Order) -> Result<(), TransactionIdAlreadySet> {
        if let Some(stored) = order.deposit_transaction_id() {
            return Err(TransactionIdAlreadySet {
                same_value: stored == self.transaction_id.as_str(),
            });
        }
        order.from_transaction_id = Presence::Value(self.transaction_id.as_str().into());
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::{ApiError, ErrorCode};
    use crate::ids::OrderId;

    const EVM_HASH: &str = "0x9fc76417374aa880d4449a1f7f31ec597f00b1f6f3dd2d66f4c9c6c445836d8b";

    #[test]
    fn transaction_ids() {
        for text in [
            EVM_HASH,
            "4a5e1e4baab89f3a32518a88c31bc87f618f76673e2cc77ab2127b7afdeda33b",
            "5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW",
            "abc:0",
        ] {
            assert_eq!(TransactionId::new(text).unwrap().as_str(), text);
        }
        assert_eq!(
            TransactionId::new_defect(""),
            Err(InvalidTransactionId::Empty)
        );
        assert_eq!(
            TransactionId::new_defect("ab cd"),
            Err(InvalidTransactionId::BadCharacter { at: 2 })
        );
        assert_eq!(
            TransactionId::new_defect("ab\n"),
            Err(InvalidTransactionId::BadCharacter { at: 2 })
        );
        assert_eq!(
            TransactionId::new_defect("é"),
            Err(InvalidTransactionId::BadCharacter { at: 0 })
        );
        assert!(TransactionId::new(&"f".repeat(MAX_TRANSACTION_ID_LEN)).is_ok());
        assert_eq!(
            TransactionId::new_defect(&"f".repeat(MAX_TRANSACTION_ID_LEN + 1)),
            Err(InvalidTransactionId::TooLong { len: 257 })
        );
        let api = ApiError::from(TransactionId::new("").unwrap_err());
        assert_eq!(api.code().as_str(), "INVALID_REQUEST");
        assert_eq!(api.http_status().as_u16(), 400);
        assert_eq!(api.details(), "transactionId: transaction id is empty");
    }

    #[test]
    fn body_decoding() {
        let body = alloc::format!("{{\"transactionId\":\"{EVM_HASH}\"}}");
        let update: DepositTransactionUpdate = serde_json::from_str(&body).unwrap();
        assert_eq!(update.transaction_id.as_str(), EVM_HASH);
        assert_eq!(serde_json::to_string(&update).unwrap(), body);
        let with_extra: DepositTransactionUpdate =
            serde_json::from_str("{\"transactionId\":\"abc\",\"note\":1}").unwrap();
        assert_eq!(with_extra.transaction_id.as_str(), "abc");
        for bad in [
            "{}",
            "{\"transactionId\":null}",
            "{\"transactionId\":\"\"}",
            "{\"transactionId\":\" abc\"}",
            "{\"transactionId\":42}",
            "{\"transaction_id\":\"abc\"}",
            "[\"abc\"]",
            "{\"transactionId\":\"abc\",\"transactionId\":\"abc\"}",
            "\"abc\"",
        ] {
            assert!(
                serde_json::from_str::<DepositTransactionUpdate>(bad).is_err(),
                "{bad}"
            );
        }
    }

    #[test]
    fn set_once_then_412() {
        let first = DepositTransactionUpdate::new(TransactionId::new("aaa").unwrap());
        let second = DepositTransactionUpdate::new(TransactionId::new("bbb").unwrap());
        let stored = first.apply(None).unwrap();
        assert_eq!(stored.as_str(), "aaa");

        let refused = second.apply(Some(&stored)).unwrap_err();
        assert!(!refused.same_value());
        let api = ApiError::from(refused).with_order_id(OrderId::new("order-1").unwrap());
        assert_eq!(api.code(), ErrorCode::PreconditionFailed);
        assert_eq!(api.code().as_str(), "PRECONDITION_FAILED");
        assert_eq!(api.http_status().as_u16(), 412);
        assert_eq!(api.details(), "the deposit transaction id is already set");
        assert_eq!(api.order_id().unwrap().as_str(), "order-1");

        let same = first.apply(Some(&stored)).unwrap_err();
        assert!(same.same_value());
        let api = ApiError::from(same);
        assert_eq!(api.http_status().as_u16(), 412);
        assert_eq!(
            api.details(),
            "the deposit transaction id is already set (to the same value)"
        );
    }
}
