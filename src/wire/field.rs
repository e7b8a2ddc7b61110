//! The names of a request's fields.

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

crate::text::str_enum!(
    RequestField,
    /// The wire name, e.g. `"fromAmount"`.
    {
        Body => "body",
        QuoteId => "quoteId",
        FromAsset => "fromAsset",
        ToAsset => "toAsset",
        From => "from",
        To => "to",
        Amount => "amount",
        FromAmount => "fromAmount",
        FromAddress => "fromAddress",
        FromAddressTag => "fromAddressTag",
        ToAmount => "toAmount",
        ToAddress => "toAddress",
        ToAddressTag => "toAddressTag",
        PairId => "pairId",
        Slippage => "slippage",
        SwapMode => "swapMode",
        MaxLegs => "maxLegs",
    }
);
