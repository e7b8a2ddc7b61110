//! The names of a request's fields.

use core::fmt;

/// A field of a request: an order body (in the spec's table order), a route
/// query ([`RouteQuery`](crate::order::RouteQuery)) or a V4 quote body.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum RequestField {
    /// The body as a whole (not JSON, not a JSON object, or a key sent twice).
    Body,
    /// `quoteId` (floating orders).
    QuoteId,
    /// `fromAsset` (V4).
    FromAsset,
    /// `toAsset` (V4).
    ToAsset,
    /// `from`: a chained-route query's from asset ([`ChainQuery`](crate::order::ChainQuery)).
    From,
    /// `to`: a chained-route query's to asset.
    To,
    /// `amount` (V4).
    Amount,
    /// `fromAmount`.
    FromAmount,
    /// `fromAddress`.
    FromAddress,
    /// `fromAddressTag`.
    FromAddressTag,
    /// `toAmount`.
    ToAmount,
    /// `toAddress`.
    ToAddress,
    /// `toAddressTag`.
    ToAddressTag,
    /// `pairId`.
    PairId,
    /// `slippage`.
    Slippage,
    /// `swapMode`.
    SwapMode,
    /// `maxLegs`: a chained-route query's most legs.
    MaxLegs,
}

impl RequestField {
    /// The wire name, e.g. `"fromAmount"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            RequestField::Body => "body",
            RequestField::QuoteId => "quoteId",
            RequestField::FromAsset => "fromAsset",
            RequestField::ToAsset => "toAsset",
            RequestField::From => "from",
            RequestField::To => "to",
            RequestField::Amount => "amount",
            RequestField::FromAmount => "fromAmount",
            RequestField::FromAddress => "fromAddress",
            RequestField::FromAddressTag => "fromAddressTag",
            RequestField::ToAmount => "toAmount",
            RequestField::ToAddress => "toAddress",
            RequestField::ToAddressTag => "toAddressTag",
            RequestField::PairId => "pairId",
            RequestField::Slippage => "slippage",
            RequestField::SwapMode => "swapMode",
            RequestField::MaxLegs => "maxLegs",
        }
    }
}

impl fmt::Display for RequestField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
