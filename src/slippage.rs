//! Slippage: a percentage from 0 to 100 inclusive, default 2, and the bound
//! it puts on a plan (ruling 33 in docs/RULES.md).

use core::fmt;

use rust_decimal::Decimal;
use serde::ser::SerializeStruct;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::decimal::{Amount, DecimalError, Fixed8, Plain, WireNumber};
use crate::error::{ApiError, ErrorCode};
use crate::ids::AssetId;
use crate::numeric::{pow10, Wide, MAX_MANTISSA};
use crate::parse_error::{Malformed, ParseError, ParseErrorKind};
use crate::route::{Route, RouteRequest};
use crate::swap_mode::SwapMode;

/// The slippage a client tolerates, in percent: `0` to `100` inclusive
/// (ruling 11 in docs/RULES.md; V4 spec: "accepts `slippage` as a percentage from 0 to
/// 100"). Absent means [`Slippage::DEFAULT`], 2 percent.
///
/// It is the client's tolerance around the estimate it sent (ruling 33): in
/// ExactIn the plan must promise at least `toAmount × (100 − slippage) / 100`
/// ([`min_output`](Self::min_output)), in ExactOut ask for at most
/// `fromAmount × (100 + slippage) / 100` ([`max_input`](Self::max_input)).
/// Order plans check it after selecting the route
/// ([`check_output`](Self::check_output), [`check_input`](Self::check_input));
/// it never changes which route is selected. A plan that misses it is
/// `SLIPPAGE_EXCEEDED` (409, [`SlippageError`]).
///
/// Decoded from a JSON number or numeric string; encoded as a JSON number.
/// Stored normalized, so `2`, `2.0` and `"2.00"` are the same slippage.
///
/// ```
/// use swaproute::Slippage;
/// use swaproute::Decimal;
/// assert_eq!(Slippage::default().percent(), Decimal::TWO);
/// assert!(Slippage::new(Decimal::ONE_HUNDRED).is_ok());
/// assert!(Slippage::new(Decimal::new(1001, 1)).is_err()); // 100.1
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Slippage(Decimal);

/// Why a value is not a slippage: a [`ParseError`] of kind
/// [`Slippage`](ParseErrorKind::Slippage) once its text is known
/// (`INVALID_REQUEST`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
enum InvalidSlippage {
    /// The value is not a decimal number.
    #[error("slippage is not a decimal number: {0}")]
    Malformed(DecimalError),
    /// The value is outside `0..=100`.
    #[error("slippage must be a percentage from 0 to 100, got {0}")]
    OutOfRange(Decimal),
}

impl Malformed for InvalidSlippage {
    fn kind(&self) -> ParseErrorKind {
        ParseErrorKind::Slippage
    }

    fn reason(&self) -> &'static str {
        match self {
            InvalidSlippage::Malformed(error) => error.code(),
            InvalidSlippage::OutOfRange(_) => "OUT_OF_RANGE",
        }
    }
}

impl Slippage {
    /// 2 percent, used when a request has no `slippage`.
    pub const DEFAULT: Slippage = Slippage(Decimal::TWO);
    /// The smallest slippage, 0 percent.
    pub const MIN: Slippage = Slippage(Decimal::ZERO);
    /// The largest slippage, 100 percent.
    pub const MAX: Slippage = Slippage(Decimal::ONE_HUNDRED);

    /// A slippage of `percent`.
    ///
    /// # Errors
    /// A [`ParseError`] of kind [`Slippage`](ParseErrorKind::Slippage)
    /// (reason `"OUT_OF_RANGE"`) unless `0 <= percent <= 100`.
    pub fn new(percent: Decimal) -> Result<Self, ParseError> {
        Slippage::in_range(percent).map_err(|error| error.with_text(&alloc::format!("{percent}")))
    }

    /// [`new`](Self::new), with the defect alone.
    fn in_range(percent: Decimal) -> Result<Self, InvalidSlippage> {
        if percent < Decimal::ZERO || percent > Decimal::ONE_HUNDRED {
            Err(InvalidSlippage::OutOfRange(percent))
        } else {
            // `-0` is zero; one representation per value.
            Ok(Slippage(if percent.is_zero() {
                Decimal::ZERO
            } else {
                percent.normalize()
            }))
        }
    }

    /// The slippage of a request field: absent means [`Slippage::DEFAULT`].
    ///
    /// # Errors
    /// A [`ParseError`] of kind [`Slippage`](ParseErrorKind::Slippage) when
    /// the value is malformed (its text is then empty: a decoded number
    /// keeps none) or out of range.
    pub fn from_wire(value: Option<WireNumber>) -> Result<Self, ParseError> {
        match value {
            None => Ok(Slippage::DEFAULT),
            Some(number) => match number.value() {
                Ok(percent) => Slippage::new(percent),
                Err(error) => Err(InvalidSlippage::Malformed(error).with_text("")),
            },
        }
    }

    /// The percentage.
    pub const fn percent(self) -> Decimal {
        self.0
    }
}

/// What ruling 33 bounds: the estimate the client sent, in one swap mode.
impl Slippage {
    /// ExactIn: the least output a plan may promise,
    /// `toAmount × (100 − slippage) / 100`, exactly; `None` when that value
    /// has more digits than a [`Decimal`] holds (checks still compare it
    /// exactly).
    ///
    /// ```
    /// use swaproute::{Amount, Slippage};
    /// let to: Amount = "20".parse()?;
    /// assert_eq!(Slippage::default().min_output(to).map(|d| d.to_string()).as_deref(), Some("19.6"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn min_output(self, to_amount: Amount) -> Option<Decimal> {
        Bound::new(SwapMode::ExactIn, to_amount.get(), self)?.to_decimal()
    }

    /// ExactOut: the most input a plan may ask for,
    /// `fromAmount × (100 + slippage) / 100`, exactly; `None` when that
    /// value has more digits than a [`Decimal`] holds.
    pub fn max_input(self, from_amount: Amount) -> Option<Decimal> {
        Bound::new(SwapMode::ExactOut, from_amount.get(), self)?.to_decimal()
    }

    /// Ruling 33 in ExactIn: `promised` (the output a plan promises, in
    /// `asset`) must be at least [`min_output`](Self::min_output) of the
    /// client's `to_amount`. Compared exactly (the bound is never rounded).
    ///
    /// ```
    /// use swaproute::{Amount, AssetId, Slippage, SlippageError};
    /// let eth = AssetId::new("ETH")?;
    /// let to: Amount = "20".parse()?;
    /// let zero = Slippage::new(0.into())?;
    /// let error = zero.check_output(to, "16.59840228".parse()?, &eth).unwrap_err();
    /// let SlippageError::Exceeded(exceeded) = &error else { unreachable!() };
    /// assert_eq!((exceeded.bound.to_string(), exceeded.available.to_string()),
    ///     ("20".to_owned(), "16.59840228".to_owned()));
    /// assert_eq!(error.code().as_str(), "SLIPPAGE_EXCEEDED");
    /// assert!(Slippage::default().check_output(to, "19.6".parse()?, &eth).is_ok());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`SlippageError::Exceeded`] (`SLIPPAGE_EXCEEDED`, 409) when `promised`
    /// is below the bound; [`SlippageError::Unrepresentable`]
    /// (`INVALID_REQUEST`) when it is and the bound has more digits than a
    /// [`Decimal`] holds, so it cannot be reported.
    pub fn check_output(
        self,
        to_amount: Amount,
        promised: Decimal,
        asset: &AssetId,
    ) -> Result<(), SlippageError> {
        self.check(SwapMode::ExactIn, to_amount.get(), promised, asset)
    }

    /// Ruling 33 in ExactOut: `required` (the order's amount, in `asset`)
    /// must be at most [`max_input`](Self::max_input) of the client's
    /// `from_amount` estimate. Compared exactly.
    ///
    /// # Errors
    /// [`SlippageError::Exceeded`] (`SLIPPAGE_EXCEEDED`, 409) when `required`
    /// is above the bound; [`SlippageError::Unrepresentable`]
    /// (`INVALID_REQUEST`) when it is and the bound cannot be held.
    pub fn check_input(
        self,
        from_amount: Amount,
        required: Decimal,
        asset: &AssetId,
    ) -> Result<(), SlippageError> {
        self.check(SwapMode::ExactOut, from_amount.get(), required, asset)
    }

    /// Ruling 33 for a selected `route` of `request`: in ExactIn its net
    /// output rounded down to 8 places (what an order promises) against
    /// the request's `toAmount` (no `toAmount`: nothing to bound); in
    /// ExactOut its required input against `fromAmount`.
    ///
    /// # Errors
    /// As [`check_output`](Self::check_output) and
    /// [`check_input`](Self::check_input).
    pub fn check_route(
        self,
        request: &RouteRequest<'_>,
        route: &Route<'_>,
    ) -> Result<(), SlippageError> {
        let pair = route.rate().pair_id();
        match request.mode() {
            SwapMode::ExactIn => match request.to_amount() {
                Some(to) => {
                    // The floor of the exact net output (ruling 35); one too
                    // large for 8 places is past every bound.
                    let promised = route
                        .promised_output()
                        .map_or(route.net_output(), Fixed8::get);
                    self.check_output(to, promised, pair.to())
                }
                None => Ok(()),
            },
            SwapMode::ExactOut => {
                self.check_input(request.from_amount(), route.order_amount(), pair.from())
            }
        }
    }

    fn check(
        self,
        mode: SwapMode,
        estimate: Decimal,
        available: Decimal,
        asset: &AssetId,
    ) -> Result<(), SlippageError> {
        let Some(bound) = Bound::new(mode, estimate, self) else {
            return Err(self.unrepresentable(mode, estimate));
        };
        let within = match (mode, bound.cmp_amount(available)) {
            (_, None) => false,
            (SwapMode::ExactIn, Some(order)) => order.is_le(),
            (SwapMode::ExactOut, Some(order)) => order.is_ge(),
        };
        if within {
            return Ok(());
        }
        match bound.to_decimal() {
            Some(limit) => Err(SlippageError::Exceeded(SlippageExceeded {
                mode,
                slippage: self,
                estimate,
                bound: limit,
                available,
                asset: asset.clone(),
            })),
            None => Err(self.unrepresentable(mode, estimate)),
        }
    }

    fn unrepresentable(self, mode: SwapMode, estimate: Decimal) -> SlippageError {
        SlippageError::Unrepresentable {
            mode,
            slippage: self,
            estimate,
        }
    }
}

/// A bound of ruling 33 as an exact integer at a scale:
/// `estimate × (100 ∓ slippage) / 100` is `numerator / 10^scale`.
#[derive(Clone, Copy, Debug)]
struct Bound {
    numerator: Wide,
    scale: u32,
}

impl Bound {
    fn new(mode: SwapMode, estimate: Decimal, slippage: Slippage) -> Option<Self> {
        let percent = slippage.percent();
        let places = percent.scale();
        // 100 at the slippage's scale: at most 10^30, a u128.
        let hundred = pow10(places.checked_add(2)?)?;
        let part = percent.mantissa().unsigned_abs();
        let factor = match mode {
            SwapMode::ExactIn => hundred.checked_sub(part)?,
            SwapMode::ExactOut => hundred.checked_add(part)?,
        };
        let numerator = Wide::from_u128(estimate.mantissa().unsigned_abs()).mul_u128(factor)?;
        Some(Bound {
            numerator,
            scale: estimate.scale().checked_add(places)?.checked_add(2)?,
        })
    }

    /// The bound against `amount` (non-negative), exactly.
    fn cmp_amount(&self, amount: Decimal) -> Option<core::cmp::Ordering> {
        if amount.is_sign_negative() && !amount.is_zero() {
            return None;
        }
        let scale = self.scale.max(amount.scale());
        let bound = self.numerator.scaled(scale.checked_sub(self.scale)?)?;
        Some(bound.cmp(&Wide::at_scale(amount, scale)?))
    }

    /// The bound as a decimal, when one holds it exactly.
    fn to_decimal(self) -> Option<Decimal> {
        let (mut numerator, mut scale) = (self.numerator, self.scale);
        let fits = |n: Wide| n.to_u128().filter(|&v| v <= MAX_MANTISSA);
        loop {
            match fits(numerator) {
                Some(value) if scale <= 28 => {
                    let value = i128::try_from(value).ok()?;
                    return Decimal::try_from_i128_with_scale(value, scale)
                        .ok()
                        .map(|d| d.normalize());
                }
                _ => {
                    let (quotient, rest) = numerator.div10()?;
                    if rest != 0 || scale == 0 {
                        return None;
                    }
                    numerator = quotient;
                    scale = scale.checked_sub(1)?;
                }
            }
        }
    }
}

/// A plan refused by ruling 33 (docs/RULES.md): what the client's estimate
/// and slippage allow and what the selected route gives.
///
/// # JSON
/// `{"swapMode","slippage","estimate","bound","available","assetId"}`,
/// the slippage a number, the amounts decimal strings.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct SlippageExceeded {
    /// ExactIn (a least output) or ExactOut (a most input).
    pub mode: SwapMode,
    /// The client's slippage.
    pub slippage: Slippage,
    /// The client's estimate: `toAmount` in ExactIn, `fromAmount` in ExactOut.
    pub estimate: Decimal,
    /// `estimate × (100 − slippage) / 100` in ExactIn, `estimate × (100 +
    /// slippage) / 100` in ExactOut, exact.
    pub bound: Decimal,
    /// What the plan gives: the promised output in ExactIn (below `bound`),
    /// the order's amount in ExactOut (above `bound`).
    pub available: Decimal,
    /// The unit of `estimate`, `bound` and `available`: the to asset in
    /// ExactIn, the from asset in ExactOut.
    pub asset: AssetId,
}

impl fmt::Display for SlippageExceeded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (asset, bound, available) = (&self.asset, self.bound, self.available);
        let (estimate, slippage) = (self.estimate, self.slippage);
        match self.mode {
            SwapMode::ExactIn => write!(
                f,
                "slippage exceeded: the best route promises {available} {asset}, below the least \
                 {bound} {asset} allowed (toAmount {estimate} {asset} less {slippage})"
            ),
            SwapMode::ExactOut => write!(
                f,
                "slippage exceeded: the best route needs {available} {asset}, above the most \
                 {bound} {asset} allowed (fromAmount {estimate} {asset} plus {slippage})"
            ),
        }
    }
}

impl Serialize for SlippageExceeded {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut out = serializer.serialize_struct("SlippageExceeded", 6)?;
        out.serialize_field("swapMode", &self.mode)?;
        out.serialize_field("slippage", &self.slippage)?;
        out.serialize_field("estimate", &Plain(self.estimate))?;
        out.serialize_field("bound", &Plain(self.bound))?;
        out.serialize_field("available", &Plain(self.available))?;
        out.serialize_field("assetId", &self.asset)?;
        out.end()
    }
}

/// Why a plan fails ruling 33.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SlippageError {
    /// The route misses the bound: `SLIPPAGE_EXCEEDED` (409), the bound and
    /// the available amount in the error body.
    #[error("{0}")]
    Exceeded(SlippageExceeded),
    /// The route misses the bound, and the bound has more digits than a
    /// decimal holds, so it cannot be reported: `INVALID_REQUEST` naming
    /// `slippage` (the client's estimate and slippage are too precise).
    #[error(
        "slippage: the bound of {estimate} at {slippage} has more digits than an amount can hold"
    )]
    Unrepresentable {
        /// The swap mode.
        mode: SwapMode,
        /// The client's slippage.
        slippage: Slippage,
        /// The client's estimate.
        estimate: Decimal,
    },
}

impl SlippageError {
    /// The stable code: `SLIPPAGE_EXCEEDED` or `INVALID_REQUEST`.
    pub fn code(&self) -> ErrorCode {
        match self {
            SlippageError::Exceeded(_) => ErrorCode::SlippageExceeded,
            SlippageError::Unrepresentable { .. } => ErrorCode::InvalidRequest,
        }
    }

    /// The error the service answers with: the code, this error's message
    /// as details and, for `SLIPPAGE_EXCEEDED`, the bound and the available
    /// amount.
    pub fn to_api_error(&self) -> ApiError {
        let error = ApiError::new(self.code(), alloc::format!("{self}"));
        match self {
            SlippageError::Exceeded(exceeded) => {
                error.with_slippage(exceeded.bound, exceeded.available)
            }
            SlippageError::Unrepresentable { .. } => error,
        }
    }
}

impl Default for Slippage {
    fn default() -> Self {
        Slippage::DEFAULT
    }
}

impl core::str::FromStr for Slippage {
    type Err = ParseError;

    /// A percentage from 0 to 100 in the amount grammar (ruling 1: digits
    /// with at most one `.`, no sign, no `%`), as a request's `slippage`
    /// string is read: `"0.5"` is half a percent.
    ///
    /// ```
    /// use swaproute::{ParseErrorKind, Slippage};
    /// assert_eq!("0.5".parse::<Slippage>()?.percent().to_string(), "0.5");
    /// let error = "101".parse::<Slippage>().unwrap_err();
    /// assert_eq!((error.kind(), error.reason(), error.text()), (ParseErrorKind::Slippage, "OUT_OF_RANGE", "101"));
    /// assert_eq!(error.to_string(), "slippage must be a percentage from 0 to 100, got 101");
    /// # Ok::<(), swaproute::ParseError>(())
    /// ```
    ///
    /// # Errors
    /// A [`ParseError`] of kind [`Slippage`](ParseErrorKind::Slippage): the
    /// text is not a decimal (its reason the amount grammar's, e.g.
    /// `"INVALID_CHARACTER"`) or is above 100 (`"OUT_OF_RANGE"`).
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        crate::decimal::parse_amount(text)
            .map_err(InvalidSlippage::Malformed)
            .and_then(Slippage::in_range)
            .map_err(|error| error.with_text(text))
    }
}

impl fmt::Display for Slippage {
    /// The percentage followed by `%`, e.g. `2%`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}%", self.0)
    }
}

impl Serialize for Slippage {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        crate::decimal::serde::number::serialize(&self.0, serializer)
    }
}

impl<'de> Deserialize<'de> for Slippage {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = WireNumber::deserialize(deserializer)?;
        Slippage::from_wire(Some(value)).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn parses_from_text_as_a_request_string() {
        // By hand: "2" is 2 %, "0.50" is 0.5 % (normalized), "100" the top.
        assert_eq!("2".parse::<Slippage>(), Ok(Slippage::DEFAULT));
        assert_eq!(
            "0.50".parse::<Slippage>().map(Slippage::percent),
            Ok(Decimal::new(5, 1))
        );
        assert_eq!("100".parse::<Slippage>(), Ok(Slippage::MAX));
        assert_eq!("0".parse::<Slippage>(), Ok(Slippage::MIN));
        let above = "100.01".parse::<Slippage>().unwrap_err();
        assert_eq!(above.kind(), ParseErrorKind::Slippage);
        assert_eq!(above.reason(), "OUT_OF_RANGE");
        assert_eq!(above.text(), "100.01");
        assert_eq!(
            above.to_string(),
            "slippage must be a percentage from 0 to 100, got 100.01"
        );
        // No sign, no percent sign: the amount grammar's characters only.
        let negative = "-1".parse::<Slippage>().unwrap_err();
        assert_eq!(negative.reason(), "INVALID_CHARACTER");
        assert_eq!(negative.text(), "-1");
        assert_eq!(
            negative.to_string(),
            "slippage is not a decimal number: invalid character '-' at byte 0 (expected digits with at most one '.')"
        );
        assert_eq!(
            "2%".parse::<Slippage>().unwrap_err().reason(),
            "INVALID_CHARACTER"
        );
        assert_eq!("".parse::<Slippage>().unwrap_err().reason(), "EMPTY");
        // The same answer as a request's `slippage` string decodes to.
        let decoded: Slippage = serde_json::from_str("\"0.5\"").unwrap();
        assert_eq!("0.5".parse::<Slippage>(), Ok(decoded));
        let refused = serde_json::from_str::<Slippage>("\"101\"").unwrap_err();
        assert!(refused
            .to_string()
            .starts_with("slippage must be a percentage from 0 to 100, got 101"));
    }

    #[test]
    fn displays_as_a_percentage() {
        assert_eq!(Slippage::DEFAULT.to_string(), "2%");
        let half = Slippage::new(Decimal::new(5, 1)).map(|s| s.to_string());
        assert_eq!(half.as_deref(), Ok("0.5%"));
    }
}
