//! The price guard (ruling 40 in docs/RULES.md): the caller's policy against
//! absurd prices, off by default.
//!
//! Ruling 18 catches a rate that lies about its assets, not one that lies
//! about its price: 900,000 ETH per BTC with the right asset ids wins every
//! ranking. With a [`PriceGuard`], a rate whose multiplier `m` deviates from
//! a reference `r` by more than `b` basis points,
//!
//! ```text
//! |m − r| × 10000 > b × r        (exactly)
//! ```
//!
//! is rejected `PRICE_OUTLIER` with its multiplier, the reference and the
//! deviation. The reference is the caller's ([`PriceGuard::against`]) or
//! else the exact median multiplier of the rates that can serve some amount
//! under the rest of the request's policy (ruling 42: valid, unexpired, a
//! non-empty set of amounts after limits, campaign caps and floors; a rate
//! that can serve nothing has no vote), found once per question
//! ([`PriceGuard::median`], [`RouteRequest::price_reference`](super::RouteRequest::price_reference)):
//! the middle one for an odd count, the mean of the two middle ones for an
//! even count. The median does not depend on the amount asked, so every
//! question of one request (at one amount, over amounts, each leg of a
//! split) uses one reference; each chain leg uses its own pair's.
//!
//! A median guard holds while honest providers are the majority of the
//! voters. A response's author can always out-vote it (rates that serve
//! some absurd amount still vote), so where the guard is a security
//! control, pass a reference ([`PriceGuard::against`]).
//! Nothing is rounded: the median of two multipliers may have one more
//! decimal place (or digit) than a `Decimal` holds, and is still compared
//! exactly.
//!
//! The guard is judged after the economic floors (ruling 38), in the same
//! place of eligibility, so a rate it refuses is one that would otherwise
//! have been ranked. Without a guard, nothing changes and the fast path
//! runs as before.

use core::cmp::Ordering;
use core::fmt;

use alloc::vec::Vec;
use rust_decimal::Decimal;

use crate::numeric::{Wide, MAX_MANTISSA};
use crate::rate::Rate;
use crate::time::EpochMillis;

/// A reference multiplier: the mean of two multipliers `lower ≤ upper`
/// (equal for the caller's reference, or an odd count's median), held
/// exactly. Compared and written by its exact value.
///
/// ```
/// use swaproute::route::PriceReference;
/// use swaproute::Decimal;
/// let d = |s: &str| s.parse::<Decimal>().unwrap();
/// let r = PriceReference::new(d("33.1")).unwrap();
/// assert_eq!(r.to_string(), "33.1");
/// // The deviation of 900000 from 33.1, in basis points, rounded up to 2 places.
/// assert_eq!(r.deviation_bps(d("900000")), Some(d("271893323.27")));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct PriceReference {
    lower: Decimal,
    upper: Decimal,
}

impl PriceReference {
    /// A reference of exactly `multiplier`.
    ///
    /// # Errors
    /// A [`ParseError`](crate::ParseError) of kind
    /// [`PriceReference`](crate::ParseErrorKind::PriceReference) unless
    /// `multiplier > 0`.
    pub fn new(multiplier: Decimal) -> Result<Self, crate::parse_error::ParseError> {
        if multiplier <= Decimal::ZERO {
            return Err(crate::parse_error::ParseError::new(
                crate::parse_error::ParseErrorKind::PriceReference,
                &alloc::format!("{multiplier}"),
                "NOT_POSITIVE",
                &format_args!("a reference multiplier must be greater than zero, got {multiplier}"),
            ));
        }
        Ok(PriceReference {
            lower: multiplier,
            upper: multiplier,
        })
    }

    /// The exact median multiplier of `rates`' valid (rulings 2 and 18),
    /// unexpired rates at `now` (every such rate: the guard itself counts
    /// only the rates that can serve some amount, ruling 42; see
    /// [`RouteRequest::price_reference`](super::RouteRequest::price_reference)): the middle one of an odd count, the mean of
    /// the two middle ones of an even count. `None` when there is no such
    /// rate. One allocation of one `Decimal` per rate, one sort.
    ///
    /// ```
    /// use swaproute::route::PriceReference;
    /// use swaproute::{EpochMillis, RatesResponse};
    /// let rates: RatesResponse = serde_json::from_str(r#"[
    ///   {"amount":{"assetId":"ETH","value":33.1},"expiry":4102444800000,"id":"a","pairId":"BTC_ETH",
    ///    "max":{"assetId":"BTC","value":8},"min":{"assetId":"BTC","value":0.001},"minerFee":{"assetId":"ETH","value":0}},
    ///   {"amount":{"assetId":"ETH","value":33.4},"expiry":4102444800000,"id":"b","pairId":"BTC_ETH",
    ///    "max":{"assetId":"BTC","value":8},"min":{"assetId":"BTC","value":0.001},"minerFee":{"assetId":"ETH","value":0}}
    /// ]"#)?;
    /// let median = PriceReference::median_of(&rates, EpochMillis::new(1_785_000_000_000)).unwrap();
    /// assert_eq!(median.to_string(), "33.25"); // (33.1 + 33.4) / 2
    /// # Ok::<(), serde_json::Error>(())
    /// ```
    pub fn median_of(rates: &[Rate], now: EpochMillis) -> Option<Self> {
        Self::median_of_multipliers(
            rates
                .iter()
                .filter(|rate| rate.defect().is_none() && !rate.is_expired_at(now))
                .map(Rate::multiplier)
                .collect(),
        )
    }

    /// The exact median of `multipliers` (any order); `None` for none.
    pub(crate) fn median_of_multipliers(mut multipliers: Vec<Decimal>) -> Option<Self> {
        crate::numeric::permute::sort_stable(&mut multipliers, Ord::cmp);
        let count = multipliers.len();
        let upper = *multipliers.get(count / 2)?;
        let lower = if count % 2 == 0 {
            *multipliers.get((count / 2).checked_sub(1)?)?
        } else {
            upper
        };
        Some(PriceReference { lower, upper })
    }

    /// The median of a count whose two middle multipliers are `lower ≤
    /// upper` (equal for an odd count), found by order statistics rather
    /// than a sort (the schedule under a median guard, `lifetime/schedule.rs`):
    /// the value [`median_of_multipliers`](Self::median_of_multipliers)
    /// gives for the same voters.
    pub(crate) fn between(lower: Decimal, upper: Decimal) -> Self {
        PriceReference { lower, upper }
    }

    /// `true` when `multiplier` is above this reference, exactly
    /// (`2 × m > lower + upper`); `false` for a negative multiplier (no
    /// valid rate has one).
    pub(crate) fn is_below(&self, multiplier: Decimal) -> bool {
        if multiplier.is_sign_negative() {
            return false;
        }
        self.doubled(multiplier).is_some_and(|(m2, sum)| m2 > sum)
    }

    /// The two middle multipliers `(lower, upper)`; equal for a single one.
    pub fn middle(&self) -> (Decimal, Decimal) {
        (self.lower, self.upper)
    }

    /// The value as a `Decimal`, when it has one: the mean of two
    /// multipliers can need one more place or digit than a `Decimal` holds
    /// (`None` then; [`Display`](fmt::Display) writes it exactly).
    pub fn to_decimal(&self) -> Option<Decimal> {
        let (numerator, scale) = self.exact()?;
        if scale > 28 {
            return None;
        }
        let mantissa = numerator.to_u128().filter(|&m| m <= MAX_MANTISSA)?;
        Decimal::try_from_i128_with_scale(i128::try_from(mantissa).ok()?, scale).ok()
    }

    /// The value as `numerator / 10^scale`, trailing zeros removed.
    fn exact(&self) -> Option<(Wide, u32)> {
        let scale = self.lower.scale().max(self.upper.scale());
        let sum = Wide::at_scale(self.lower, scale)?.add(Wide::at_scale(self.upper, scale)?)?;
        // (L + H) / (2 × 10^s) = 5 (L + H) / 10^(s + 1).
        let mut numerator = sum.mul_small(5)?;
        let mut scale = scale.checked_add(1)?;
        while scale > 0 {
            let (quotient, rest) = numerator.div10()?;
            if rest != 0 {
                break;
            }
            numerator = quotient;
            scale = scale.checked_sub(1)?;
        }
        Some((numerator, scale))
    }

    /// `2 × multiplier` and `lower + upper`, as integers at one scale.
    fn doubled(&self, multiplier: Decimal) -> Option<(Wide, Wide)> {
        let scale = self
            .lower
            .scale()
            .max(self.upper.scale())
            .max(multiplier.scale());
        let m2 = Wide::at_scale(multiplier, scale)?.mul_small(2)?;
        let sum = Wide::at_scale(self.lower, scale)?.add(Wide::at_scale(self.upper, scale)?)?;
        Some((m2, sum))
    }

    /// `|multiplier − reference|` and the reference, at one scale (doubled):
    /// `None` for a negative multiplier or past the integers' width (neither
    /// happens for valid rates).
    fn distance(&self, multiplier: Decimal) -> Option<(Wide, Wide)> {
        if multiplier.is_sign_negative() {
            return None;
        }
        let (m2, sum) = self.doubled(multiplier)?;
        let gap = match m2.cmp(&sum) {
            Ordering::Less => sum.sub(m2)?,
            _ => m2.sub(sum)?,
        };
        Some((gap, sum))
    }

    /// `true` when `multiplier` deviates by more than `bps` basis points:
    /// `|m − r| × 10000 > bps × r`, exactly.
    fn exceeded_by(&self, multiplier: Decimal, bps: u32) -> bool {
        match self.distance(multiplier) {
            Some((gap, sum)) => match (gap.mul_small(10_000), sum.mul_small(u64::from(bps))) {
                (Some(left), Some(right)) => left > right,
                // Cannot happen within the width; refuse rather than admit.
                _ => true,
            },
            None => true,
        }
    }

    /// The deviation of `multiplier` from this reference, in basis points:
    /// `|m − r| × 10000 / r`, rounded up to 2 decimal places (so a rate the
    /// guard refuses never shows a deviation within its bound). `None` when
    /// it is larger than a `Decimal` holds (only for multipliers some 10^24
    /// times the reference or more) or the multiplier is negative.
    pub fn deviation_bps(&self, multiplier: Decimal) -> Option<Decimal> {
        let (gap, sum) = self.distance(multiplier)?;
        // ⌈gap × 10^6 / sum⌉ hundredths of a basis point.
        let hundredths = ceil_div(gap.scaled(6)?, sum)?;
        let mantissa = hundredths.to_u128().filter(|&m| m <= MAX_MANTISSA)?;
        Decimal::try_from_i128_with_scale(i128::try_from(mantissa).ok()?, 2)
            .ok()
            .map(|d| d.normalize())
    }
}

/// `⌈n / d⌉` for `d > 0`, by long division in decimal digits (at most a
/// few hundred steps: `n` has at most 155 digits).
fn ceil_div(n: Wide, d: Wide) -> Option<Wide> {
    let zero = Wide::from_u128(0);
    if d == zero {
        return None;
    }
    let mut digits = Vec::new();
    let mut rest = n;
    while rest != zero {
        let (quotient, digit) = rest.div10()?;
        digits.push(digit);
        rest = quotient;
    }
    let mut quotient = zero;
    let mut remainder = zero;
    for &digit in digits.iter().rev() {
        remainder = remainder
            .mul_small(10)?
            .add(Wide::from_u128(u128::from(digit)))?;
        let mut q = 0u8;
        while remainder >= d {
            remainder = remainder.sub(d)?;
            q = q.checked_add(1)?;
        }
        quotient = quotient
            .mul_small(10)?
            .add(Wide::from_u128(u128::from(q)))?;
    }
    if remainder != zero {
        quotient = quotient.add(Wide::from_u128(1))?;
    }
    Some(quotient)
}

impl PartialEq for PriceReference {
    /// By value: the reference 2 and the median of 1 and 3 are equal.
    fn eq(&self, other: &Self) -> bool {
        match (self.exact(), other.exact()) {
            (Some(a), Some(b)) => a == b,
            _ => self.middle() == other.middle(),
        }
    }
}

impl Eq for PriceReference {}

impl fmt::Display for PriceReference {
    /// The exact value in plain decimal notation (`33.25`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Some((mut numerator, scale)) = self.exact() else {
            return write!(f, "({} + {}) / 2", self.lower, self.upper);
        };
        let zero = Wide::from_u128(0);
        let mut digits = Vec::new();
        while numerator != zero {
            let Some((quotient, digit)) = numerator.div10() else {
                return Err(fmt::Error);
            };
            digits.push(b'0'.saturating_add(digit));
            numerator = quotient;
        }
        let scale = usize::try_from(scale).map_err(|_| fmt::Error)?;
        while digits.len() <= scale {
            digits.push(b'0');
        }
        for (i, digit) in digits.iter().enumerate().rev() {
            // The point goes between the units digit (at `scale`) and the next.
            if i.checked_add(1) == Some(scale) {
                f.write_str(".")?;
            }
            f.write_str(match digit {
                b'0' => "0",
                b'1' => "1",
                b'2' => "2",
                b'3' => "3",
                b'4' => "4",
                b'5' => "5",
                b'6' => "6",
                b'7' => "7",
                b'8' => "8",
                _ => "9",
            })?;
        }
        Ok(())
    }
}

/// The caller's price guard (ruling 40): off unless a request is given one
/// ([`RouteRequest::with_price_guard`](super::RouteRequest::with_price_guard)).
///
/// ```
/// use swaproute::route::{PriceGuard, RouteRequest};
/// use swaproute::{Amount, EpochMillis, RatesResponse};
/// let rate = |id: &str, m: &str| format!(r#"{{"amount":{{"assetId":"ETH","value":{m}}},
///   "expiry":4102444800000,"id":"{id}","max":{{"assetId":"BTC","value":8}},
///   "min":{{"assetId":"BTC","value":0.001}},"minerFee":{{"assetId":"ETH","value":0.0002}},"pairId":"BTC_ETH"}}"#);
/// let rates: RatesResponse = serde_json::from_str(&format!("[{},{},{}]",
///     rate("a", "33.1"), rate("b", "33.2"), rate("liar", "900000")))?;
/// let request = RouteRequest::exact_in("0.5".parse::<Amount>()?, EpochMillis::new(1_785_000_000_000));
/// assert_eq!(request.best(&rates)?.rate().id().as_str(), "liar");
///
/// // 500 bps around the median (33.2): the liar is out.
/// let guard = PriceGuard::median(500);
/// let guarded = request.with_price_guard(&guard);
/// assert_eq!(guarded.best(&rates)?.rate().id().as_str(), "b");
/// let selection = guarded.select(&rates);
/// assert_eq!(selection.rejected()[0].reason().code(), "PRICE_OUTLIER");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PriceGuard {
    max_deviation_bps: u32,
    reference: Reference,
}

/// Where the reference comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Reference {
    /// The median of the rates being ranked, not found yet.
    Median,
    /// Found: the caller's, or the median of the rates being ranked.
    Known(PriceReference),
    /// The rates have no valid, unexpired rate: nothing to judge against
    /// (and no rate to judge).
    Unavailable,
}

impl PriceGuard {
    /// A guard of `max_deviation_bps` around the exact median multiplier of
    /// the rates that can serve some amount (ruling 42), found by each
    /// question ([`RouteRequest::price_reference`](super::RouteRequest::price_reference)).
    pub const fn median(max_deviation_bps: u32) -> Self {
        PriceGuard {
            max_deviation_bps,
            reference: Reference::Median,
        }
    }

    /// A guard of `max_deviation_bps` around the caller's `reference`.
    pub const fn against(reference: PriceReference, max_deviation_bps: u32) -> Self {
        PriceGuard {
            max_deviation_bps,
            reference: Reference::Known(reference),
        }
    }

    /// The largest deviation admitted, in basis points (inclusive).
    pub const fn max_deviation_bps(&self) -> u32 {
        self.max_deviation_bps
    }

    /// The reference: the caller's, or the median once found. `None` for a
    /// median guard before a query found it.
    pub const fn reference(&self) -> Option<&PriceReference> {
        match &self.reference {
            Reference::Known(reference) => Some(reference),
            Reference::Median | Reference::Unavailable => None,
        }
    }

    /// `true` for a median guard whose reference is not found yet.
    pub(crate) fn needs_reference(&self) -> bool {
        self.reference == Reference::Median
    }

    /// The same bound around `reference` (a median found by a question),
    /// or around nothing when there is no voter.
    pub(crate) fn with_reference(&self, reference: Option<PriceReference>) -> Self {
        PriceGuard {
            max_deviation_bps: self.max_deviation_bps,
            reference: reference.map_or(Reference::Unavailable, Reference::Known),
        }
    }

    /// Holds `rate` to the guard (a median not found yet, or unavailable,
    /// holds nothing: there is no valid rate to judge): the reference it
    /// deviates from and the bound, when it is an outlier (eligibility
    /// turns them into `RejectReason::PriceOutlier`).
    pub(crate) fn outlier(&self, rate: &Rate) -> Option<(PriceReference, u32)> {
        let Reference::Known(reference) = self.reference else {
            return None;
        };
        reference
            .exceeded_by(rate.multiplier(), self.max_deviation_bps)
            .then_some((reference, self.max_deviation_bps))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    fn d(text: &str) -> Decimal {
        text.parse().unwrap()
    }

    fn pair(lower: &str, upper: &str) -> PriceReference {
        PriceReference {
            lower: d(lower),
            upper: d(upper),
        }
    }

    #[test]
    fn exact_means_are_written_exactly() {
        assert_eq!(pair("1", "2").to_string(), "1.5");
        assert_eq!(pair("1", "3").to_string(), "2");
        assert_eq!(pair("0.1", "0.2").to_string(), "0.15");
        assert_eq!(pair("100", "100").to_string(), "100");
        let max = Decimal::MAX.to_string();
        assert_eq!(
            PriceReference {
                lower: Decimal::MAX,
                upper: Decimal::MAX
            }
            .to_string(),
            max
        );
        // (2^96 − 1 + 2^96 − 2) / 2 = 79228162514264337593543950334.5: no Decimal.
        let near = PriceReference {
            lower: Decimal::MAX - Decimal::ONE,
            upper: Decimal::MAX,
        };
        assert_eq!(near.to_string(), "79228162514264337593543950334.5");
        assert_eq!(near.to_decimal(), None);
        // 1e-28 and 2e-28: 1.5e-28 has 29 places.
        let tiny = pair(
            "0.0000000000000000000000000001",
            "0.0000000000000000000000000002",
        );
        assert_eq!(tiny.to_string(), "0.00000000000000000000000000015");
        assert_eq!(tiny.to_decimal(), None);
        assert_eq!(pair("1", "2").to_decimal(), Some(d("1.5")));
        assert_eq!(pair("2", "2"), pair("1", "3"));
    }

    #[test]
    fn the_bound_is_inclusive_and_exact() {
        let r = pair("100", "100");
        // 5 % of 100 is 5: 105 and 95 are in, 105.00000001 is out.
        assert!(!r.exceeded_by(d("105"), 500));
        assert!(!r.exceeded_by(d("95"), 500));
        assert!(r.exceeded_by(d("105.00000001"), 500));
        assert!(r.exceeded_by(d("94.99999999"), 500));
        assert!(!r.exceeded_by(d("100"), 0));
        assert!(r.exceeded_by(d("100.0000000000000000000000001"), 0));
        // u32::MAX bps: up to 100 × 429,496.7295 above 100.
        assert!(!r.exceeded_by(d("42949772.95"), u32::MAX));
        assert!(r.exceeded_by(d("42949772.96"), u32::MAX));
        assert!(r.exceeded_by(Decimal::MAX, u32::MAX));
        assert_eq!(r.deviation_bps(d("105.00000001")), Some(d("500.01")));
        assert_eq!(r.deviation_bps(d("100")), Some(d("0")));
        assert_eq!(
            pair(
                "0.0000000000000000000000000001",
                "0.0000000000000000000000000001"
            )
            .deviation_bps(Decimal::MAX),
            None
        );
    }
}
