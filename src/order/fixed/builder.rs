//! Building a `POST /v3/orders` body on the client side.

use alloc::string::ToString;

use super::{FixedFields, FixedOrderRequest, RawFixedOrderRequest};
use crate::decimal::Amount;
use crate::order::body::Common;
use crate::order::loose::Loose;
use crate::order::RequestErrors;
use crate::rate::PairId;
use crate::screening::Address;
use crate::swap_mode::SwapMode;

/// Builds a fixed-rate order body (`POST /v3/orders`) from typed values; see
/// [`FixedOrderRequest::builder`].
///
/// [`build`](Self::build) runs the same validation as a body the server
/// receives ([`FixedOrderRequest::validate`]), so a built request is one the
/// service's rules accept, and its JSON holds exactly the keys that were set:
/// `fromAddress` is `null` until set (the key is required), tags, `slippage`
/// and `swapMode` are absent until set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FixedOrderBuilder {
    common: Common,
    swap_mode: Option<SwapMode>,
}

impl FixedOrderRequest {
    /// Starts a body with the required fields: `pairId`, `fromAmount`
    /// (exact in ExactIn; the estimate limits are checked against in ExactOut),
    /// `toAmount` (the estimate in ExactIn, e.g. [`Fixed8::floor_net`] of
    /// `fromAmount × rate − minerFee`, the floor of the exact value; exact in
    /// ExactOut) and `toAddress`.
    ///
    /// ```
    /// use swaproute::order::FixedOrderRequest;
    /// use swaproute::screening::Address;
    /// use swaproute::{Amount, PairId, SwapMode};
    ///
    /// let request = FixedOrderRequest::builder(
    ///     PairId::new("LTC_USDT")?,
    ///     "1.25".parse::<Amount>()?,
    ///     "98".parse::<Amount>()?,
    ///     Address::new("0x8Df95247F2866028DE71159b42B4ea410FB9102f")?,
    /// )
    /// .from_address(Address::new("ltc1quauvt7txunf9zeu2qyrzv0pa5uvwjlq9a369s5")?)
    /// .build()?;
    /// assert_eq!(request.swap_mode(), SwapMode::ExactIn);
    /// assert_eq!(
    ///     serde_json::to_value(&request)?,
    ///     serde_json::json!({"pairId": "LTC_USDT", "fromAmount": "1.25",
    ///         "fromAddress": "ltc1quauvt7txunf9zeu2qyrzv0pa5uvwjlq9a369s5",
    ///         "toAmount": "98", "toAddress": "0x8Df95247F2866028DE71159b42B4ea410FB9102f"})
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// [`Fixed8::floor_net`]: crate::decimal::Fixed8::floor_net
    pub fn builder(
        pair_id: PairId,
        from_amount: Amount,
        to_amount: Amount,
        to_address: Address,
    ) -> FixedOrderBuilder {
        FixedOrderBuilder {
            common: Common::new(pair_id, from_amount, to_amount, to_address),
            swap_mode: None,
        }
    }
}

impl FixedOrderBuilder {
    crate::order::body::common_setters!();

    /// `swapMode` (the service uses ExactIn when absent).
    #[must_use]
    pub fn swap_mode(mut self, swap_mode: SwapMode) -> Self {
        self.swap_mode = Some(swap_mode);
        self
    }

    /// The body as the server would receive it, before validation.
    // `..default()` keeps this compiling when the body gains a key.
    #[allow(clippy::needless_update)]
    fn raw(&self) -> RawFixedOrderRequest {
        let mut common = self.common.loose();
        // Ruling 52: an ExactOut `fromAmount` the crate writes has 8 places
        // (the spec's form, `"12.50000000"`), when it has no more.
        if self.swap_mode == Some(SwapMode::ExactOut) {
            if let Ok(fixed) = crate::decimal::Fixed8::exact(self.common.from_amount.get()) {
                common.from_amount = Some(Loose::Str(fixed.to_string()));
            }
        }
        RawFixedOrderRequest {
            fields: FixedFields {
                from_amount: common.from_amount,
                from_address: common.from_address,
                from_address_tag: common.from_address_tag,
                to_amount: common.to_amount,
                to_address: common.to_address,
                to_address_tag: common.to_address_tag,
                pair_id: common.pair_id,
                slippage: common.slippage,
                swap_mode: self.swap_mode.map(|mode| Loose::Str(mode.to_string())),
                ..FixedFields::default()
            },
        }
    }

    /// Validates the body as [`FixedOrderRequest::validate`] does.
    ///
    /// # Errors
    /// [`RequestErrors`] when a rule refuses a value the types let through:
    /// a zero `fromAmount` or `toAmount` (`INVALID_AMOUNT`), or any rule the
    /// server's validation adds.
    pub fn build(&self) -> Result<FixedOrderRequest, RequestErrors> {
        FixedOrderRequest::validate(&self.raw())
    }
}
