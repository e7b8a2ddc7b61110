//! Building a `POST /v3/orders/float` body on the client side.

use super::{FloatFields, FloatOrderRequest, RawFloatOrderRequest};
use crate::decimal::Amount;
use crate::ids::QuoteId;
use crate::order::body::Common;
use crate::order::loose::Loose;
use crate::order::RequestErrors;
use crate::rate::PairId;
use crate::screening::Address;

/// Builds a floating order body (`POST /v3/orders/float`) from typed values;
/// see [`FloatOrderRequest::builder`].
///
/// [`build`](Self::build) runs the server's validation
/// ([`FloatOrderRequest::validate`]); the JSON holds exactly the keys that
/// were set, amounts as strings (the fixed body's form, ruling 19 in
/// docs/RULES.md), `fromAddress` `null` until set, and never `swapMode`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FloatOrderBuilder {
    common: Common,
    quote_id: Option<QuoteId>,
}

impl FloatOrderRequest {
    /// Starts a body with the required fields: `pairId`, `fromAmount` (the
    /// amount the quote was obtained for), `toAmount` (the client's estimate,
    /// e.g. the quote's `toAmount`) and `toAddress`.
    ///
    /// ```
    /// use swaproute::order::FloatOrderRequest;
    /// use swaproute::screening::Address;
    /// use swaproute::{Amount, PairId, QuoteId};
    ///
    /// let request = FloatOrderRequest::builder(
    ///     PairId::new("SOL_USDT")?,
    ///     "2.5".parse::<Amount>()?,
    ///     "351.218".parse::<Amount>()?,
    ///     Address::new("0x29a422EB14AB2f2D0f0Cc022238daceEe2092F07")?,
    /// )
    /// .quote_id(QuoteId::new("q-1")?)
    /// .build()?;
    /// assert_eq!(
    ///     serde_json::to_value(&request)?,
    ///     serde_json::json!({"pairId": "SOL_USDT", "fromAmount": "2.5", "fromAddress": null,
    ///         "toAmount": "351.218", "toAddress": "0x29a422EB14AB2f2D0f0Cc022238daceEe2092F07",
    ///         "quoteId": "q-1"})
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn builder(
        pair_id: PairId,
        from_amount: Amount,
        to_amount: Amount,
        to_address: Address,
    ) -> FloatOrderBuilder {
        FloatOrderBuilder {
            common: Common::new(pair_id, from_amount, to_amount, to_address),
            quote_id: None,
        }
    }
}

impl FloatOrderBuilder {
    crate::order::body::common_setters!();

    /// `quoteId`: the quote the order is for.
    #[must_use]
    pub fn quote_id(mut self, quote_id: QuoteId) -> Self {
        self.quote_id = Some(quote_id);
        self
    }

    /// The body as the server would receive it, before validation.
    // `..default()` keeps this compiling when the body gains a key.
    #[allow(clippy::needless_update)]
    fn raw(&self) -> RawFloatOrderRequest {
        let common = self.common.loose();
        RawFloatOrderRequest {
            fields: FloatFields {
                pair_id: common.pair_id,
                from_amount: common.from_amount,
                from_address: common.from_address,
                from_address_tag: common.from_address_tag,
                to_amount: common.to_amount,
                to_address: common.to_address,
                to_address_tag: common.to_address_tag,
                slippage: common.slippage,
                quote_id: self
                    .quote_id
                    .as_ref()
                    .map(|id| Loose::Str(id.as_str().into())),
                // `swapMode` stays absent (a floating order has none, ruling
                // 12), as do keys the body may gain.
                ..FloatFields::default()
            },
        }
    }

    /// Validates the body as [`FloatOrderRequest::validate`] does.
    ///
    /// # Errors
    /// [`RequestErrors`] when a rule refuses a value the types let through:
    /// a zero `fromAmount` or `toAmount` (`INVALID_AMOUNT`), or any rule the
    /// server's validation adds.
    pub fn build(&self) -> Result<FloatOrderRequest, RequestErrors> {
        FloatOrderRequest::validate(&self.raw())
    }
}
