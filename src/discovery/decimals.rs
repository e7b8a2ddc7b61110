//! An asset's `decimals`, the roundings to them, and the error of an amount
//! more precise than they allow ([`TooPrecise`]).

use alloc::string::String;
use core::fmt;

use rust_decimal::{Decimal, RoundingStrategy};
use serde::de::{self, MapAccess};
use serde::{Serialize, Serializer};

use crate::caip::AssetRef;
use crate::decimal::serde::ARBITRARY_PRECISION_TOKEN;
use crate::decimal::{Amount, DecimalError};
use crate::error::ErrorCode;
use crate::parse_error::{Malformed, ParseError, ParseErrorKind};

/// The most decimal places a [`Decimal`] (so an [`Amount`]) holds.
pub const MAX_AMOUNT_PLACES: u32 = 28;

/// The number of decimal places of an asset's smallest unit (`"decimals": 6`
/// for USDC, `8` for LTC, `18` for most ERC-20 tokens).
///
/// On the wire a JSON integer from 0 to 255 (an ERC-20 token's `decimals` is a
/// `uint8`); a fractional (`6.0` or `6.5`), negative, out-of-range or string
/// value is refused.
///
/// Values above 28 are accepted, since real tokens have them, but an
/// [`Amount`] never has more than 28 decimal places: every amount fits such an
/// asset, and rounding to it changes nothing.
///
/// ```
/// use swaproute::discovery::Decimals;
/// use swaproute::Decimal;
/// let usdc: Decimals = serde_json::from_str("6").unwrap();
/// assert_eq!(usdc.get(), 6);
/// assert!(serde_json::from_str::<Decimals>("6.5").is_err());
/// assert!(serde_json::from_str::<Decimals>("-1").is_err());
/// assert!(serde_json::from_str::<Decimals>("256").is_err());
/// let value: Decimal = "1.2345675".parse().unwrap();
/// assert_eq!(usdc.round_down(value).unwrap().to_string(), "1.234567");
/// assert_eq!(usdc.round_up(value).unwrap().to_string(), "1.234568");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Decimals(u8);

/// Why a JSON value is not a [`Decimals`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum InvalidDecimals {
    /// Not a JSON integer (a fraction, `6.0`, or a non-number).
    #[error("decimals must be a whole JSON number")]
    NotInteger,
    /// Below zero.
    #[error("decimals must not be negative")]
    Negative,
    /// Above 255.
    #[error("decimals {0} is more than 255")]
    TooLarge(u64),
}

impl Decimals {
    /// `places` decimal places.
    pub const fn new(places: u8) -> Self {
        Decimals(places)
    }

    /// The number of decimal places.
    pub const fn get(self) -> u8 {
        self.0
    }

    /// The places an amount may have: `decimals`, at most 28.
    fn places(self) -> u32 {
        u32::from(self.0).min(MAX_AMOUNT_PLACES)
    }

    /// `true` when `amount` has no more decimal places than this, counted
    /// by value: trailing zeros do not count (`"1.500"` has 1).
    pub fn fits(self, amount: Amount) -> bool {
        fractional_places(amount) <= self.places()
    }

    /// Rounds `value` down (toward −∞) to these decimals: for what the user
    /// receives, which is never promised above what the rate gives.
    ///
    /// # Errors
    /// [`DecimalError::OutOfRange`] if the rounding cannot be held (never for
    /// an amount a `Decimal` holds; kept so no path can quietly round the
    /// wrong way).
    pub fn round_down(self, value: Decimal) -> Result<Decimal, DecimalError> {
        let rounded =
            value.round_dp_with_strategy(self.places(), RoundingStrategy::ToNegativeInfinity);
        if rounded <= value {
            Ok(rounded)
        } else {
            Err(DecimalError::OutOfRange)
        }
    }

    /// Rounds `value` up (toward +∞) to these decimals: for what the user
    /// must send, which then always covers what is required.
    ///
    /// # Errors
    /// [`DecimalError::OutOfRange`] if the rounded value cannot be held.
    pub fn round_up(self, value: Decimal) -> Result<Decimal, DecimalError> {
        let rounded =
            value.round_dp_with_strategy(self.places(), RoundingStrategy::ToPositiveInfinity);
        if rounded >= value {
            Ok(rounded)
        } else {
            Err(DecimalError::OutOfRange)
        }
    }
}

/// The decimal places of `amount`'s value, trailing zeros aside.
pub(crate) fn fractional_places(amount: Amount) -> u32 {
    amount.get().normalize().scale()
}

/// An amount with more decimal places than its asset's `decimals`:
/// `INVALID_AMOUNT`.
///
/// ```
/// use swaproute::discovery::{Decimals, TooPrecise};
/// use swaproute::{ApiError, ErrorCode};
/// let error = TooPrecise::new("USDC".parse()?, Decimals::new(6), "0.1234567".parse()?);
/// assert_eq!(error.places(), 7);
/// assert_eq!(error.to_string(), "0.1234567 has 7 decimal places, but USDC has 6");
/// assert_eq!(ApiError::from(error).code(), ErrorCode::InvalidAmount);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{amount} has {places} decimal places, but {asset} has {decimals}", places = self.places())]
pub struct TooPrecise {
    asset: AssetRef,
    decimals: Decimals,
    amount: Amount,
}

impl TooPrecise {
    /// `amount` is too precise for `asset` of `decimals`.
    pub fn new(asset: AssetRef, decimals: Decimals, amount: Amount) -> Self {
        TooPrecise {
            asset,
            decimals,
            amount,
        }
    }

    /// The asset.
    pub fn asset(&self) -> &AssetRef {
        &self.asset
    }

    /// Its decimals.
    pub fn decimals(&self) -> Decimals {
        self.decimals
    }

    /// The amount.
    pub fn amount(&self) -> Amount {
        self.amount
    }

    /// The amount's decimal places (by value).
    pub fn places(&self) -> u32 {
        fractional_places(self.amount)
    }

    /// `INVALID_AMOUNT`, from the one table.
    pub const fn code(&self) -> ErrorCode {
        ErrorCode::InvalidAmount
    }

    /// The HTTP status of [`code`](Self::code): 400.
    pub const fn http_status(&self) -> crate::error::HttpStatus {
        self.code().http_status()
    }
}

impl fmt::Display for Decimals {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl TryFrom<u64> for Decimals {
    type Error = ParseError;

    /// # Errors
    /// A [`ParseError`] of kind [`Decimals`](ParseErrorKind::Decimals)
    /// (`"TOO_LARGE"`) above 255.
    fn try_from(value: u64) -> Result<Self, Self::Error> {
        u8::try_from(value)
            .map(Decimals)
            .map_err(|_| InvalidDecimals::TooLarge(value).with_text(&alloc::format!("{value}")))
    }
}

impl Malformed for InvalidDecimals {
    fn kind(&self) -> ParseErrorKind {
        ParseErrorKind::Decimals
    }

    fn reason(&self) -> &'static str {
        match self {
            InvalidDecimals::NotInteger => "NOT_INTEGER",
            InvalidDecimals::Negative => "NEGATIVE",
            InvalidDecimals::TooLarge(_) => "TOO_LARGE",
        }
    }
}

impl Serialize for Decimals {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_u8(self.0)
    }
}

crate::decimal::serde::deserialize_any!(<'de> Decimals, "a whole JSON number from 0 to 255", {
        fn visit_u64<E: de::Error>(self, v: u64) -> Result<Decimals, E> {
            Decimals::try_from(v).map_err(E::custom)
        }

        fn visit_i64<E: de::Error>(self, v: i64) -> Result<Decimals, E> {
            match u64::try_from(v) {
                Ok(v) => self.visit_u64(v),
                Err(_) => Err(E::custom(InvalidDecimals::Negative)),
            }
        }

        fn visit_f64<E: de::Error>(self, _: f64) -> Result<Decimals, E> {
            Err(E::custom(InvalidDecimals::NotInteger))
        }

        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Decimals, A::Error> {
            // serde_json with `arbitrary_precision` hands a number over as a
            // one-entry map holding its exact text.
            let key: Option<String> = map.next_key()?;
            if key.as_deref() != Some(ARBITRARY_PRECISION_TOKEN) {
                return Err(de::Error::invalid_type(de::Unexpected::Map, &self));
            }
            let text: String = map.next_value()?;
            if text.starts_with('-') {
                return Err(de::Error::custom(InvalidDecimals::Negative));
            }
            if !text.bytes().all(|b| b.is_ascii_digit()) {
                return Err(de::Error::custom(InvalidDecimals::NotInteger));
            }
            let value = text
                .parse::<u64>()
                .map_err(|_| de::Error::custom(InvalidDecimals::TooLarge(u64::MAX)))?;
            self.visit_u64(value)
        }
});
