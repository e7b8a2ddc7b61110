//! `From<E> for ApiError` for every public error type of the crate, all in
//! this one file (issue 44): one table, so a handler can `?` any error the
//! crate returns (issue 31), and a reader finds every code in one place.
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

use crate::caip::InvalidAssetRef;
use crate::caip::UnresolvedAsset;
use crate::client::ForwardedError;
use crate::discovery::TooPrecise;
use crate::order::InvalidPromise;
use crate::order::OrderMismatches;
use crate::order::RequiredInputNoRoute;
use crate::order::ToOrderError;
use crate::order::TransactionIdAlreadySet;
use crate::order::{FieldError, RequestErrors};
use crate::quote::QuoteDefect;
use crate::route::chain::ChainNoRoute;
use crate::route::NoRoute;
use crate::screening::ScreeningError;
use crate::slippage::SlippageError;
use crate::v4::QuoteError;

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

// The typed answers callers branch on: each is its own `code` (or
// `to_api_error`) and message, as it was when the impl sat beside the type.

// From src/route/rules/no_route.rs.
impl From<NoRoute> for ApiError {
    fn from(no_route: NoRoute) -> Self {
        no_route.to_api_error()
    }
}

// From src/route/chain/no_route.rs.
impl From<ChainNoRoute> for ApiError {
    fn from(no_route: ChainNoRoute) -> Self {
        no_route.to_api_error()
    }
}

// From src/discovery/decimals.rs.
impl From<TooPrecise> for ApiError {
    /// `INVALID_AMOUNT` with the error's message.
    fn from(error: TooPrecise) -> Self {
        ApiError::new(error.code(), alloc::format!("{error}"))
    }
}

// From src/screening/error.rs.
impl From<ScreeningError> for ApiError {
    fn from(error: ScreeningError) -> Self {
        ApiError::new(error.code(), format!("{error}"))
    }
}

// From src/v4/quote.rs.
impl From<QuoteError> for ApiError {
    fn from(error: QuoteError) -> Self {
        error.to_api_error()
    }
}

// From src/slippage.rs.
impl From<SlippageError> for ApiError {
    fn from(error: SlippageError) -> Self {
        error.to_api_error()
    }
}

// From src/order/field.rs.
impl From<RequestErrors> for ApiError {
    fn from(errors: RequestErrors) -> Self {
        errors.to_api_error()
    }
}

// From src/order/field.rs.
impl From<FieldError> for ApiError {
    fn from(error: FieldError) -> Self {
        error.to_api_error()
    }
}

// From src/order/verify.rs.
impl From<OrderMismatches> for ApiError {
    /// `PROVIDER_ERROR`, the details listing every mismatch.
    fn from(error: OrderMismatches) -> Self {
        ApiError::new(ErrorCode::ProviderError, alloc::format!("{error}"))
    }
}

// From src/order/plan_error.rs.
impl From<PlanError> for ApiError {
    fn from(error: PlanError) -> Self {
        error.to_api_error()
    }
}

// From src/order/requote.rs.
impl From<InvalidPromise> for ApiError {
    /// `INVALID_REQUEST`: the caller's promise (or the body re-quoted
    /// against it) is not one a plan makes.
    fn from(error: InvalidPromise) -> Self {
        ApiError::new(
            crate::error::ErrorCode::InvalidRequest,
            alloc::format!("promise: {error}"),
        )
    }
}

// From src/order/required.rs.
impl From<RequiredInputNoRoute> for ApiError {
    fn from(no_route: RequiredInputNoRoute) -> Self {
        no_route.to_api_error()
    }
}

// From src/order/new_order.rs.
impl From<ToOrderError> for ApiError {
    fn from(error: ToOrderError) -> Self {
        ApiError::new(ErrorCode::InternalError, format!("{error}"))
    }
}

// From src/order/deposit.rs.
impl From<TransactionIdAlreadySet> for ApiError {
    fn from(error: TransactionIdAlreadySet) -> Self {
        ApiError::new(ErrorCode::PreconditionFailed, format!("{error}"))
    }
}

// From src/client/error.rs.
impl From<HeaderError> for ApiError {
    fn from(err: HeaderError) -> Self {
        err.to_api_error()
    }
}

// From src/client/forwarded/mod.rs.
impl From<ForwardedError> for ApiError {
    fn from(err: ForwardedError) -> Self {
        err.to_api_error()
    }
}

// From src/quote.rs.
impl From<QuoteDefect> for ApiError {
    fn from(defect: QuoteDefect) -> Self {
        ApiError::new(defect.code(), alloc::format!("{defect}"))
    }
}

// From src/caip/asset_ref.rs.
impl From<InvalidAssetRef> for ApiError {
    /// `UNRESOLVED_ASSET`: a text that names no asset cannot be resolved.
    fn from(error: InvalidAssetRef) -> Self {
        ApiError::new(ErrorCode::UnresolvedAsset, alloc::format!("{error}"))
    }
}

// From src/caip/directory.rs.
impl From<UnresolvedAsset> for ApiError {
    /// `UNRESOLVED_ASSET`, naming the asset.
    fn from(error: UnresolvedAsset) -> Self {
        ApiError::new(error.code(), alloc::format!("{error}"))
    }
}
