//! The one table of stable error codes and their HTTP statuses.

use core::fmt;
use core::str::FromStr;

use super::HttpStatus;
use crate::parse_error::{ParseError, ParseErrorKind};

/// Generates [`ErrorCode`] and its lookups from a single table, so a code, its
/// text and its HTTP status can never drift apart.
macro_rules! error_codes {
    ($( $(#[$doc:meta])* $variant:ident => $text:literal, $status:literal; )*) => {
        /// A stable, machine-readable error code (`SCREAMING_SNAKE_CASE` on the wire).
        ///
        /// Every code has exactly one HTTP status ([`ErrorCode::http_status`]):
        /// 4xx when the client can fix the request, 5xx for provider or internal
        /// failures. The table is the single source of truth; [`ErrorCode::ALL`]
        /// lists every code in table order.
        #[non_exhaustive]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum ErrorCode {
            $( $(#[$doc])* $variant, )*
        }

        impl ErrorCode {
            /// Every code, in table order.
            pub const ALL: &'static [ErrorCode] = &[ $( ErrorCode::$variant, )* ];

            /// The wire text of the code, e.g. `"AMOUNT_BELOW_LIMIT"`.
            #[must_use]
            pub const fn as_str(self) -> &'static str {
                match self { $( ErrorCode::$variant => $text, )* }
            }

            /// The HTTP status this code is answered with.
            #[must_use]
            pub const fn http_status(self) -> HttpStatus {
                match self { $( ErrorCode::$variant => HttpStatus::from_table($status), )* }
            }

            fn from_wire(text: &str) -> Option<Self> {
                match text {
                    $( $text => Some(ErrorCode::$variant), )*
                    // The service's older names (`RESTRICTED_GEOLOCATION`).
                    _ => LegacyCode::from_wire(text).map(LegacyCode::code),
                }
            }
        }
    };
}

error_codes! {
    /// The amount exceeds the upper limit of every route.
    AmountAboveLimit => "AMOUNT_ABOVE_LIMIT", 400;
    /// The amount is under the lower limit of every route.
    AmountBelowLimit => "AMOUNT_BELOW_LIMIT", 400;
    /// The user's funds are insufficient.
    InsufficientFunds => "INSUFFICIENT_FUNDS", 400;
    /// An address is empty, malformed or fails its checksum.
    InvalidAddress => "INVALID_ADDRESS", 400;
    /// The swap mode is not supported for the request (or not accepted by the endpoint).
    UnsupportedSwapMode => "UNSUPPORTED_SWAP_MODE", 400;
    /// A token involved in the swap is high risk.
    HighRiskTokens => "HIGH_RISK_TOKENS", 403;
    /// No provider has liquidity for the swap.
    InsufficientLiquidity => "INSUFFICIENT_LIQUIDITY", 503;
    /// The stock-token market is closed.
    MarketClosed => "MARKET_CLOSED", 409;
    /// The asset is paused.
    AssetPaused => "ASSET_PAUSED", 409;
    /// The selected route misses the client's slippage bound (ruling 33 in
    /// docs/RULES.md): the body names the bound and what is available.
    SlippageExceeded => "SLIPPAGE_EXCEEDED", 409;
    /// The user's region is restricted (decodes `RESTRICTED_GEOLOCATION` too).
    RestrictedRegion => "RESTRICTED_REGION", 403;
    /// The address is restricted (including the EVM zero address).
    RestrictedAddress => "RESTRICTED_ADDRESS", 403;
    /// Client identification is missing or no longer accepted.
    Unauthorized => "UNAUTHORIZED", 401;
    /// The request is malformed: a field is missing, of the wrong type or out of range.
    InvalidRequest => "INVALID_REQUEST", 400;
    /// An amount is not a valid decimal or not positive.
    InvalidAmount => "INVALID_AMOUNT", 400;
    /// The quote has expired.
    QuoteExpired => "QUOTE_EXPIRED", 410;
    /// Every rate has expired.
    RateExpired => "RATE_EXPIRED", 410;
    /// The resource does not exist.
    NotFound => "NOT_FOUND", 404;
    /// A precondition on the resource failed, e.g. a deposit transaction id set twice.
    PreconditionFailed => "PRECONDITION_FAILED", 412;
    /// An asset identifier could not be resolved (V4).
    UnresolvedAsset => "UNRESOLVED_ASSET", 400;
    /// The network is not supported (V4).
    UnsupportedNetwork => "UNSUPPORTED_NETWORK", 400;
    /// No route is available for the request (V4).
    RouteUnavailable => "ROUTE_UNAVAILABLE", 422;
    /// The request body is larger than the server accepts (ruling 25 in
    /// docs/RULES.md).
    PayloadTooLarge => "PAYLOAD_TOO_LARGE", 413;
    /// Every route left is refused by the caller's price guard (ruling 40 in
    /// docs/RULES.md): its multiplier deviates from the reference by more
    /// than the bound. The provider's price, not the request, is wrong.
    PriceOutlier => "PRICE_OUTLIER", 502;
    /// An exact search stopped at its documented bound on work (ruling 48 in
    /// docs/RULES.md): the providers' book is too hard to decide exactly
    /// within the bound, which is the service's problem, not the request's.
    SearchExhausted => "SEARCH_EXHAUSTED", 503;
    /// A provider failed.
    ProviderError => "PROVIDER_ERROR", 502;
    /// The service failed internally.
    InternalError => "INTERNAL_ERROR", 500;
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An older name the service has used for a code of the table. It decodes to
/// that code ([`LegacyCode::code`]) and is written back under its own name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum LegacyCode {
    /// `RESTRICTED_GEOLOCATION`, the older name of
    /// [`ErrorCode::RestrictedRegion`] (ruling 15, docs/RULES.md).
    RestrictedGeolocation,
}

impl LegacyCode {
    /// Every older name.
    pub const ALL: &'static [LegacyCode] = &[LegacyCode::RestrictedGeolocation];

    /// The wire text, e.g. `"RESTRICTED_GEOLOCATION"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            LegacyCode::RestrictedGeolocation => "RESTRICTED_GEOLOCATION",
        }
    }

    /// The code of the table this name stands for.
    pub const fn code(self) -> ErrorCode {
        match self {
            LegacyCode::RestrictedGeolocation => ErrorCode::RestrictedRegion,
        }
    }

    /// The older name spelled `text`, if any (case-sensitive).
    pub(crate) fn from_wire(text: &str) -> Option<Self> {
        LegacyCode::ALL
            .iter()
            .copied()
            .find(|legacy| legacy.as_str() == text)
    }
}

impl FromStr for ErrorCode {
    type Err = ParseError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        ErrorCode::from_wire(s).ok_or_else(|| {
            ParseError::new(
                ParseErrorKind::ErrorCode,
                s,
                "UNKNOWN",
                &"unknown error code",
            )
        })
    }
}

crate::text::str_serde!(
    ErrorCode,
    "an error code such as \"AMOUNT_BELOW_LIMIT\"",
    ErrorCode::from_str,
    |v, _| format_args!("unknown error code `{v}`")
);
