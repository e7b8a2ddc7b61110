//! `From<E> for ApiError` for every public error type that has no conversion
//! next to its own definition: one table, so a handler can `?` any error the
//! crate returns (issue 31).
//!
//! The code of each, and why:
//!
//! | error | code | why |
//! | --- | --- | --- |
//! | [`InvalidId`], [`InvalidPairId`], [`InvalidTimestamp`], [`InvalidOrderStatus`], [`TimeRangeError`], [`InvalidRegionCode`] | `INVALID_REQUEST` | a value of the request is malformed (what the body decoders answer for an id or a pair) |
//! | [`DecimalError`] | `INVALID_AMOUNT` | an amount is not a decimal (the body decoders' code for amounts) |
//! | [`InvalidAddress`], [`InvalidAddressTag`] | `INVALID_ADDRESS` | the body decoders' code for addresses and tags |
//! | [`InvalidSwapMode`] | `UNSUPPORTED_SWAP_MODE` | the body decoders' code for an unknown `swapMode` |
//! | [`InvalidPlatform`], [`NodeError`], [`NoClientAddress`] | `INVALID_REQUEST` (through [`HeaderError`]) | the client headers' codes |
//! | [`InvalidCaipId`] | `UNRESOLVED_ASSET` | as [`InvalidAssetRef::Caip19`]: a text that names no asset |
//! | [`InvalidRates`], [`TooManyRates`], [`MixedPairs`], [`DuplicateRateId`] | `INTERNAL_ERROR` | as [`PlanError::InvalidRates`]: rates no service sends for one pair |
//! | [`QuoteMismatch`] | `INVALID_REQUEST` | as [`PlanError::QuoteMismatch`] |
//! | [`DirectoryConflict`] | `INTERNAL_ERROR` | the server's own asset directory is inconsistent |
//! | [`RateDefect`] | `PROVIDER_ERROR` | a provider's rate is unusable (as [`QuoteDefect`]) |
//! | [`InvalidListing`], [`InvalidPairsCsv`], [`InvalidAssetText`], [`InvalidNetwork`], [`InvalidDecimals`], [`PairDisagrees`] | `PROVIDER_ERROR` | the service sent discovery data the crate cannot use |
//! | [`RenderError`] | its own [`RenderError::code`] | `UNRESOLVED_ASSET` or `PROVIDER_ERROR` |
//! | [`InvalidBodyCode`], [`InvalidHttpStatus`], [`UnknownErrorCode`], [`UnknownCodeError`] | `PROVIDER_ERROR` | the upstream service answered an error this crate cannot read (an [`UnknownCodeError`] is also `IntoResponse` as its own body, status and code kept) |
//! | [`InvalidMaxLegs`] | `INVALID_REQUEST` | `maxLegs` out of range |
//! | [`InvalidPriceReference`] | `INVALID_REQUEST` | a price guard's reference multiplier is not positive (ruling 40) |
//! | [`TooManyCombinations`] | `INVALID_REQUEST` | listing every chain would take more work than the cap (ruling 36): ask for fewer legs or use the bounded report |
//! | [`SplitError`] | its [`code`](SplitError::code): the single pair's "no route" code, `UNSUPPORTED_SWAP_MODE` (ExactOut), `SEARCH_EXHAUSTED` (503: past the work limit, ruling 48) | ruling 39 |
//! | [`UnsupportedPolicy`] | `INVALID_REQUEST` | a question was given a part of the policy it cannot apply (ruling 41) |
//! | [`InvalidSplitLegs`] | `INVALID_REQUEST` | a split has 2 or 3 legs |
//! | [`InvalidMarket`], [`InvalidRatesByPair`] | `INTERNAL_ERROR` | the caller's rates of several pairs: two responses of one pair, or rates filed under another pair |
//!
//! The `details` are the error's `Display` text, prefixed where the text
//! alone would not say what it is about.

use alloc::format;

use crate::caip::{DirectoryConflict, InvalidCaipId};
use crate::client::{HeaderError, InvalidPlatform, NoClientAddress, NodeError};
use crate::decimal::DecimalError;
use crate::discovery::{
    InvalidAssetText, InvalidDecimals, InvalidListing, InvalidNetwork, InvalidPairsCsv,
    PairDisagrees, RenderError,
};
use crate::error::{
    ApiError, ErrorCode, InvalidBodyCode, InvalidHttpStatus, UnknownCodeError, UnknownErrorCode,
};
use crate::ids::InvalidId;
use crate::order::{InvalidOrderStatus, PlanError, QuoteMismatch};
use crate::rate::{
    DuplicateRateId, InvalidPairId, InvalidRates, MixedPairs, RateDefect, TooManyRates,
};
use crate::route::chain::{InvalidMarket, InvalidMaxLegs, TooManyCombinations};
use crate::route::{
    InvalidPriceReference, InvalidRatesByPair, InvalidSplitLegs, SplitError, UnsupportedPolicy,
};
use crate::screening::{InvalidAddress, InvalidAddressTag, InvalidRegionCode};
use crate::swap_mode::InvalidSwapMode;
use crate::time::TimeRangeError;
use crate::wire::InvalidTimestamp;

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
    InvalidTimestamp => InvalidRequest, "";
    InvalidOrderStatus => InvalidRequest, "";
    TimeRangeError => InvalidRequest, "";
    InvalidRegionCode => InvalidRequest, "";
    DecimalError => InvalidAmount, "invalid amount: ";
    InvalidAddress => InvalidAddress, "";
    InvalidAddressTag => InvalidAddress, "";
    InvalidSwapMode => UnsupportedSwapMode, "";
    InvalidPriceReference => InvalidRequest, "priceGuard.reference: ";
    InvalidCaipId => UnresolvedAsset, "invalid CAIP id: ";
    DirectoryConflict => InternalError, "asset directory: ";
    RateDefect => ProviderError, "unusable rate: ";
    InvalidListing => ProviderError, "";
    InvalidPairsCsv => ProviderError, "";
    InvalidAssetText => ProviderError, "asset record: ";
    InvalidNetwork => ProviderError, "asset record: ";
    InvalidDecimals => ProviderError, "asset record: ";
    PairDisagrees => ProviderError, "";
    InvalidBodyCode => ProviderError, "upstream error body: ";
    InvalidHttpStatus => ProviderError, "upstream error body: ";
    UnknownErrorCode => ProviderError, "upstream error body: ";
    UnknownCodeError => ProviderError, "upstream ";
    InvalidMaxLegs => InvalidRequest, "maxLegs: ";
    InvalidMarket => InternalError, "";
    TooManyCombinations => InvalidRequest, "";
    InvalidRatesByPair => InternalError, "rates by pair: ";
    InvalidSplitLegs => InvalidRequest, "splitLegs: ";
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

impl From<TooManyRates> for ApiError {
    /// `INTERNAL_ERROR`, as [`InvalidRates::TooMany`].
    fn from(error: TooManyRates) -> Self {
        ApiError::from(InvalidRates::from(error))
    }
}

impl From<MixedPairs> for ApiError {
    /// `INTERNAL_ERROR`, as [`InvalidRates::MixedPairs`].
    fn from(error: MixedPairs) -> Self {
        ApiError::from(InvalidRates::from(error))
    }
}

impl From<DuplicateRateId> for ApiError {
    /// `INTERNAL_ERROR`, as [`InvalidRates::DuplicateId`].
    fn from(error: DuplicateRateId) -> Self {
        ApiError::from(InvalidRates::from(error))
    }
}

impl From<RenderError> for ApiError {
    /// [`RenderError::code`] with the error's message.
    fn from(error: RenderError) -> Self {
        ApiError::new(error.code(), format!("{error}"))
    }
}

impl From<InvalidPlatform> for ApiError {
    /// `INVALID_REQUEST`, as [`HeaderError::InvalidPlatform`].
    fn from(_: InvalidPlatform) -> Self {
        ApiError::from(HeaderError::InvalidPlatform)
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
