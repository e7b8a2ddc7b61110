//! `From<E> for ApiError` for every public error type that has no conversion
//! next to its own definition: one table, so a handler can `?` any error the
//! crate returns (issue 31).
//!
//! The code of each, and why:
//!
//! | error | code | why |
//! | --- | --- | --- |
//! | [`InvalidId`], [`InvalidPairId`] | `INVALID_REQUEST` | a value of the request is malformed (what the body decoders answer for an id or a pair) |
//! | [`DecimalError`] | `INVALID_AMOUNT` | an amount is not a decimal (the body decoders' code for amounts) |
//! | [`InvalidAddress`] | `INVALID_ADDRESS` | the body decoders' code for addresses and tags |
//! | [`NodeError`], [`NoClientAddress`] | `INVALID_REQUEST` (through [`HeaderError`]) | the client headers' codes |
//! | [`InvalidCaipId`] | `UNRESOLVED_ASSET` | as [`InvalidAssetRef::Caip19`]: a text that names no asset |
//! | [`InvalidRates`], [`MixedPairs`] | `INTERNAL_ERROR` | as [`PlanError::InvalidRates`]: rates no service sends for one pair |
//! | [`QuoteMismatch`] | `INVALID_REQUEST` | as [`PlanError::QuoteMismatch`] |
//! | [`DirectoryConflict`] | `INTERNAL_ERROR` | the server's own asset directory is inconsistent |
//! | [`RateDefect`] | `PROVIDER_ERROR` | a provider's rate is unusable (as [`QuoteDefect`]) |
//! | [`InvalidListing`], [`InvalidPairsCsv`], [`PairDisagrees`] | `PROVIDER_ERROR` | the service sent discovery data the crate cannot use |
//! | [`RenderError`] | its own [`RenderError::code`] | `UNRESOLVED_ASSET` or `PROVIDER_ERROR` |
//! | [`UnknownCodeError`] | `PROVIDER_ERROR` | the upstream service answered an error this crate cannot read (it is also `IntoResponse` as its own body, status and code kept) |
//! | [`TooManyCombinations`] | `INVALID_REQUEST` | listing every chain would take more work than the cap (ruling 36): ask for fewer legs or use the bounded report |
//! | [`SplitError`] | its [`code`](SplitError::code): the single pair's "no route" code, `UNSUPPORTED_SWAP_MODE` (ExactOut), `SEARCH_EXHAUSTED` (503: past the work limit, ruling 48) | ruling 39 |
//! | [`UnsupportedPolicy`] | `INVALID_REQUEST` | a question was given a part of the policy it cannot apply (ruling 41) |
//! | [`InvalidMarket`], [`InvalidRatesByPair`] | `INTERNAL_ERROR` | the caller's rates of several pairs: two responses of one pair, or rates filed under another pair |
//!
//! A [`ParseError`] (one malformed value) takes the code of its
//! [`kind`](ParseError::kind), as the types it replaced did (issue 44):
//!
//! | kind | code | details |
//! | --- | --- | --- |
//! | `Amount` | `INVALID_AMOUNT` | `invalid amount: ` and the message |
//! | `AmountPlaces` | `INVALID_AMOUNT` | the message |
//! | `Id` | `INVALID_REQUEST` | `invalid id: ` and the message |
//! | `PairId` | `INVALID_REQUEST` | `invalid pair id: ` and the message |
//! | `AssetRef` | `UNRESOLVED_ASSET` | the message |
//! | `Caip*` | `UNRESOLVED_ASSET` | `invalid CAIP id: ` and the message |
//! | `Caip19Flag`, `Timestamp`, `Instant`, `OrderStatus`, `RegionCode`, `Slippage` | `INVALID_REQUEST` | the message |
//! | `Platform` | `INVALID_REQUEST` | as [`HeaderError::InvalidPlatform`] |
//! | `ForwardedNode` | `INVALID_REQUEST` | `invalid Forwarded header: ` and the message |
//! | `SwapMode` | `UNSUPPORTED_SWAP_MODE` | the message |
//! | `TransactionId` | `INVALID_REQUEST` | `transactionId: ` and the message |
//! | `Address`, `AddressTag` | `INVALID_ADDRESS` | the message |
//! | `MaxLegs`, `SplitLegs`, `PriceReference`, `Promise` | `INVALID_REQUEST` | `maxLegs: `, `splitLegs: `, `priceGuard.reference: `, `promise: ` and the message |
//! | `ErrorCode`, `BodyCode`, `HttpStatus` | `PROVIDER_ERROR` | `upstream error body: ` and the message |
//! | `AssetText`, `Network`, `Decimals` | `PROVIDER_ERROR` | `asset record: ` and the message |
//!
//! The `details` are the error's `Display` text, prefixed where the text
//! alone would not say what it is about.

use alloc::format;

use crate::caip::{DirectoryConflict, InvalidCaipId};
use crate::client::{HeaderError, NoClientAddress, NodeError};
use crate::decimal::DecimalError;
use crate::discovery::{InvalidListing, InvalidPairsCsv, PairDisagrees, RenderError};
use crate::error::{ApiError, ErrorCode, UnknownCodeError};
use crate::ids::InvalidId;
use crate::order::{PlanError, QuoteMismatch};
use crate::parse_error::{ParseError, ParseErrorKind};
use crate::rate::{InvalidPairId, InvalidRates, MixedPairs, RateDefect};
use crate::route::chain::{InvalidMarket, TooManyCombinations};
use crate::route::{InvalidRatesByPair, SplitError, UnsupportedPolicy};
use crate::screening::InvalidAddress;

#[cfg(doc)]
use crate::caip::InvalidAssetRef;
#[cfg(doc)]
use crate::quote::QuoteDefect;

/// `From<$ty> for ApiError`: `$code`, details `$prefix` and the `Display` text.
macro_rules! with_code {
    ($($ty:ty => $code:ident, $prefix:literal;)*) => {$(
        impl From<$ty> for ApiError {
            #[doc = concat!("`", stringify!($code), "`, with the error's message (see the table in `src/convert.rs`).")]
            fn from(error: $ty) -> Self {
                ApiError::new(ErrorCode::$code, format!(concat!($prefix, "{}"), error))
            }
        }
    )*};
}

with_code! {
    InvalidId => InvalidRequest, "invalid id: ";
    InvalidPairId => InvalidRequest, "invalid pair id: ";
    DecimalError => InvalidAmount, "invalid amount: ";
    InvalidAddress => InvalidAddress, "";
    InvalidCaipId => UnresolvedAsset, "invalid CAIP id: ";
    DirectoryConflict => InternalError, "asset directory: ";
    RateDefect => ProviderError, "unusable rate: ";
    InvalidListing => ProviderError, "";
    InvalidPairsCsv => ProviderError, "";
    PairDisagrees => ProviderError, "";
    UnknownCodeError => ProviderError, "upstream ";
    InvalidMarket => InternalError, "";
    TooManyCombinations => InvalidRequest, "";
    InvalidRatesByPair => InternalError, "rates by pair: ";
    UnsupportedPolicy => InvalidRequest, "policy: ";
}

impl From<SplitError> for ApiError {
    fn from(error: SplitError) -> Self {
        error.to_api_error()
    }
}

/// Through [`PlanError`], so the code and message are the plan's.
macro_rules! through {
    ($via:ty: $($ty:ty),* $(,)?) => {$(
        impl From<$ty> for ApiError {
            #[doc = concat!("As [`", stringify!($via), "`] answers it.")]
            fn from(error: $ty) -> Self {
                ApiError::from(<$via>::from(error))
            }
        }
    )*};
}

through!(PlanError: InvalidRates, QuoteMismatch);

impl From<MixedPairs> for ApiError {
    /// `INTERNAL_ERROR`, as [`InvalidRates::MixedPairs`].
    fn from(error: MixedPairs) -> Self {
        ApiError::from(InvalidRates::from(error))
    }
}

impl From<RenderError> for ApiError {
    /// [`RenderError::code`] with the error's message.
    fn from(error: RenderError) -> Self {
        ApiError::new(error.code(), format!("{error}"))
    }
}

impl From<NoClientAddress> for ApiError {
    /// `INVALID_REQUEST`, as [`HeaderError::NoClientAddress`].
    fn from(error: NoClientAddress) -> Self {
        ApiError::from(HeaderError::NoClientAddress(error))
    }
}

impl From<NodeError> for ApiError {
    /// `INVALID_REQUEST`, naming the `Forwarded` header.
    fn from(error: NodeError) -> Self {
        ApiError::new(
            ErrorCode::InvalidRequest,
            format!("invalid Forwarded header: {error}"),
        )
    }
}

impl From<ParseError> for ApiError {
    /// The code of the error's kind, with its message (the table above).
    fn from(error: ParseError) -> Self {
        use ParseErrorKind as K;
        let (code, prefix) = match error.kind() {
            K::Amount => (ErrorCode::InvalidAmount, "invalid amount: "),
            K::AmountPlaces => (ErrorCode::InvalidAmount, ""),
            K::Id => (ErrorCode::InvalidRequest, "invalid id: "),
            K::PairId => (ErrorCode::InvalidRequest, "invalid pair id: "),
            K::AssetRef => (ErrorCode::UnresolvedAsset, ""),
            K::CaipNamespace
            | K::CaipReference
            | K::CaipAssetNamespace
            | K::CaipAssetReference
            | K::CaipTokenId => (ErrorCode::UnresolvedAsset, "invalid CAIP id: "),
            K::Platform => return ApiError::from(HeaderError::InvalidPlatform),
            K::ForwardedNode => (ErrorCode::InvalidRequest, "invalid Forwarded header: "),
            K::SwapMode => (ErrorCode::UnsupportedSwapMode, ""),
            K::TransactionId => (ErrorCode::InvalidRequest, "transactionId: "),
            K::Address | K::AddressTag => (ErrorCode::InvalidAddress, ""),
            K::MaxLegs => (ErrorCode::InvalidRequest, "maxLegs: "),
            K::SplitLegs => (ErrorCode::InvalidRequest, "splitLegs: "),
            K::PriceReference => (ErrorCode::InvalidRequest, "priceGuard.reference: "),
            K::Promise => (ErrorCode::InvalidRequest, "promise: "),
            K::ErrorCode | K::BodyCode | K::HttpStatus => {
                (ErrorCode::ProviderError, "upstream error body: ")
            }
            K::AssetText | K::Network | K::Decimals => (ErrorCode::ProviderError, "asset record: "),
            K::Caip19Flag
            | K::Timestamp
            | K::Instant
            | K::OrderStatus
            | K::RegionCode
            | K::Slippage => (ErrorCode::InvalidRequest, ""),
        };
        ApiError::new(code, format!("{prefix}{error}"))
    }
}
