//! The net output `fromAmount × multiplier − minerFee` (rulings 6 and 43 in
//! docs/RULES.md), the ranking score, in its plain, its fast and its exact
//! form.
//!
//! The plain form ([`net_output`]) computes it with `Decimal`'s
//! `checked_mul` and `checked_sub`, and where those round (a result with
//! more digits than a `Decimal` holds) recomputes it exactly and reports its
//! **floor** at the largest scale (at most 28) that fits: never above the
//! exact value (ruling 43). The exact form ([`exact_cmp`],
//! [`net_is_positive`]) compares the exact values in 512-bit integers, for
//! the rare nets the plain form had to floor ([`may_be_floored`]). The fast
//! form computes the same number as an `i128` at scale 28 from a rate's
//! prepared integers, and only when it can prove the plain path is exact
//! for that rate and amount:
//!
//! - the product's scale `a + b` is at most 28 and its mantissa `X × M` is
//!   below 2^96 (then `checked_mul` is exact);
//! - at the difference's scale `s = max(a + b, c)`, both aligned operands are
//!   below 2^96 (then `checked_sub` is exact).
//!
//! Then the plain value *is* the exact value, so comparing the fast keys
//! ranks exactly as comparing the plain `Decimal`s. Whenever the proof fails
//! the rate is [`Score::Slow`](super::eligibility::Score::Slow) and the
//! caller asks the plain path.

use core::cmp::Ordering;

use rust_decimal::Decimal;

use crate::numeric::{
    round_to_decimal, widening_mul, Wide, MANTISSA_LIMIT, OPERAND_LIMIT, POW10, SCALE,
};
use crate::rate::prepared::{Compact, Prepared, FAST};
use crate::rate::Rate;
use crate::route::request::FastRequest;

/// `amount × multiplier − minerFee` as a `Decimal`, or `None` on overflow:
/// only when the exact value is past `Decimal`'s range (ruling 35), not when
/// the product alone is. Exact when a `Decimal` holds the exact value, else
/// its floor at the largest scale (at most 28) that fits (ruling 43): a
/// positive exact net may be reported as 0 (see [`net_is_positive`]).
pub(crate) fn net_output(rate: &Rate, amount: Decimal) -> Option<Decimal> {
    let (multiplier, fee) = (rate.multiplier(), rate.miner_fee());
    let Some((product, rounded)) = amount
        .checked_mul(multiplier)
        .and_then(|product| Some((product, product.checked_sub(fee)?)))
    else {
        // The product (or the difference `Decimal` computes from its rounded
        // product) is past the range; the exact difference may not be.
        return floor_net(amount, multiplier, fee);
    };
    // `Decimal` rounds a product (or the difference) that needs more than its
    // 28-29 digits, and a large product minus a large fee can leave a small
    // net whose exact digits were lost. Report the exact net where it fits a
    // `Decimal`, else its floor (ruling 43).
    // (`Decimal` returns the product itself for a zero fee, whatever its scale.)
    let difference_exact = fee.is_zero() || rounded.scale() == product.scale().max(fee.scale());
    if product_is_exact(amount, multiplier, product) && difference_exact {
        return Some(rounded);
    }
    // Where `Decimal` was right after all (the exact value fits and equals
    // it), its representation (scale) is kept; a floor keeps its own, which
    // marks it ([`may_be_floored`]).
    Some(match floor_parts(amount, multiplier, fee) {
        Some((exact, true)) if exact == rounded => rounded,
        Some((floor, _)) => floor,
        None => rounded,
    })
}

/// `a × b − c` (`a`, `b` not negative) exactly, as its magnitude and sign
/// at `scale`, which must be at least `a`'s + `b`'s and `c`'s scales.
fn exact_at(a: Decimal, b: Decimal, c: Decimal, scale: u32) -> Option<(Wide, bool)> {
    if a.is_sign_negative() && !a.is_zero() || b.is_sign_negative() && !b.is_zero() {
        return None;
    }
    let product_scale = a.scale().checked_add(b.scale())?;
    let product = Wide::at_scale(a, a.scale())?
        .mul_u128(b.mantissa().unsigned_abs())?
        .scaled(scale.checked_sub(product_scale)?)?;
    let fee = Wide::at_scale(c, scale)?;
    Some(if c.is_sign_negative() {
        (product.add(fee)?, false)
    } else if product >= fee {
        (product.sub(fee)?, false)
    } else {
        (fee.sub(product)?, true)
    })
}

/// The floor of `a × b − c` (computed exactly) at the largest scale, at most
/// 28, whose mantissa fits a `Decimal`; the exact value itself (at the scale
/// `max(a's + b's, c's)`) when it fits. `None` past the range, and for a
/// negative `a` or `b`.
pub(crate) fn floor_net(a: Decimal, b: Decimal, c: Decimal) -> Option<Decimal> {
    floor_parts(a, b, c).map(|(floor, _)| floor)
}

/// [`floor_net`], and whether it is the exact value (no digit dropped).
fn floor_parts(a: Decimal, b: Decimal, c: Decimal) -> Option<(Decimal, bool)> {
    let scale = a.scale().checked_add(b.scale())?.max(c.scale());
    let (magnitude, negative) = exact_at(a, b, c, scale)?;
    round_to_decimal(magnitude, negative, scale, false)
}

/// Whether `net`, [`net_output`]'s value for `rate` at `amount`, stands for a
/// positive exact net output: a positive floor, or a floor of 0 above an
/// exact value that is not (ruling 43: a positive exact net is never
/// `NO_OUTPUT`).
pub(crate) fn net_is_positive(rate: &Rate, amount: Decimal, net: Decimal) -> bool {
    if !net.is_zero() {
        return net.is_sign_positive();
    }
    zero_floor_is_positive(rate, amount)
}

/// The exact sign of a net output whose floor is 0. Rare: out of line.
#[cold]
#[inline(never)]
fn zero_floor_is_positive(rate: &Rate, amount: Decimal) -> bool {
    let (m, fee) = (rate.multiplier(), rate.miner_fee());
    let scale = amount.scale().saturating_add(m.scale()).max(fee.scale());
    exact_at(amount, m, fee, scale)
        .is_some_and(|(magnitude, negative)| !negative && magnitude != Wide::from_u128(0))
}

/// The smallest mantissa of a `Decimal` at a scale below 28 that
/// [`net_output`] may have floored: `⌊2^96 / 10⌋` (the value did not fit one
/// place further).
const FLOORED_BELOW_28: u128 = MANTISSA_LIMIT / 10;

/// Whether `net` may be a floor of a wider exact value ([`net_output`]): at
/// scale 28, or with a mantissa of at least `⌊2^96 / 10⌋`. Every other
/// `Decimal` net output is exact, and two exact values compare as their
/// `Decimal`s do.
#[inline]
pub(crate) fn may_be_floored(net: Decimal) -> bool {
    net.scale() >= SCALE || net.mantissa().unsigned_abs() >= FLOORED_BELOW_28
}

/// The exact order of `a_amount × a.multiplier − a.fee` against the same of
/// `b`: `Greater` when `a`'s exact net output is larger. `None` when either
/// has a negative amount or multiplier (no eligible rate has). Cold: asked
/// only when a `Decimal` net may be a floor ([`may_be_floored`]).
#[cold]
#[inline(never)]
pub(crate) fn exact_cmp(
    a_amount: Decimal,
    a: &Rate,
    b_amount: Decimal,
    b: &Rate,
) -> Option<Ordering> {
    // Every exact net is an integer at scale 56 (28 + 28 >= a fee's 28).
    let at = SCALE.checked_mul(2)?;
    let (am, an) = exact_at(a_amount, a.multiplier(), a.miner_fee(), at)?;
    let (bm, bn) = exact_at(b_amount, b.multiplier(), b.miner_fee(), at)?;
    let zero = Wide::from_u128(0);
    // Signed: −0 and +0 are one value.
    let a_neg = an && am != zero;
    let b_neg = bn && bm != zero;
    Some(match (a_neg, b_neg) {
        (false, false) => am.cmp(&bm),
        (true, true) => bm.cmp(&am),
        (false, true) => Ordering::Greater,
        (true, false) => Ordering::Less,
    })
}

/// `true` when `Decimal` computed `a × b` without rounding: the mantissas'
/// product fits 96 bits at the scales' sum.
fn product_is_exact(a: Decimal, b: Decimal, product: Decimal) -> bool {
    let exact_scale = a.scale().saturating_add(b.scale());
    exact_scale <= 28
        && product.scale() == exact_scale
        && a.mantissa()
            .unsigned_abs()
            .checked_mul(b.mantissa().unsigned_abs())
            .is_some_and(|m| m < MANTISSA_LIMIT)
}

/// What a product shifted up by `10^t` (`t = 28 − product scale`) needs.
#[derive(Clone, Copy, Debug)]
struct Shift {
    /// `10^t`.
    up: u128,
    /// `X × M` must stay below this: `min(2^96, ⌈2^126 / 10^t⌉)`, so the
    /// product at scale 28 stays below `OPERAND_LIMIT` (and fits a `u128`).
    xm_limit: u128,
    /// `min(2^96 × 10^t, OPERAND_LIMIT)`: an operand at scale 28 whose value
    /// at scale `28 − t` has a mantissa below 2^96 is below this.
    aligned: u128,
}

/// [`Shift`] for `t` in `0..=28`; entries 29..32 refuse everything (a
/// 32-entry table indexed by `t & 31` needs no bounds check).
const SHIFTS: [Shift; 32] = shift_table();

// Evaluated at compile time: an index out of range or an overflow would be a
// build error, never a run-time panic.
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
const fn shift_table() -> [Shift; 32] {
    let none = Shift {
        up: 0,
        xm_limit: 0,
        aligned: 0,
    };
    let mut table = [none; 32];
    let mut t = 0;
    while t < 29 {
        let up = POW10[t];
        let mut xm_limit = OPERAND_LIMIT.div_ceil(up);
        if xm_limit > MANTISSA_LIMIT {
            xm_limit = MANTISSA_LIMIT;
        }
        let aligned = match MANTISSA_LIMIT.checked_mul(up) {
            Some(v) if v < OPERAND_LIMIT => v,
            _ => OPERAND_LIMIT,
        };
        table[t] = Shift {
            up,
            xm_limit,
            aligned,
        };
        t += 1;
    }
    table
}

/// The table entry for `t` (`t <= 28` gives a real one).
#[inline]
fn shift(t: u32) -> &'static Shift {
    let index = usize::try_from(t & 31).unwrap_or(31);
    // A 32-entry table and an index below 32: never the fallback.
    SHIFTS.get(index).unwrap_or(&SHIFTS_NONE)
}

/// A [`Shift`] that refuses everything.
static SHIFTS_NONE: Shift = Shift {
    up: 0,
    xm_limit: 0,
    aligned: 0,
};

impl FastRequest {
    /// `(x × multiplier − fee) × 10^28` when the plain path computes it exactly.
    #[inline]
    pub(crate) fn net28(&self, p: &Prepared) -> Option<i128> {
        let (net, exact) = self.raw_net28(p);
        exact.then_some(net)
    }

    /// The key and whether it is proved exact (the key means nothing when
    /// it is not). The proof: the rate has the fast form, the product's scale
    /// `a + b <= 28` (`t = 28 − a − b`), `X × M < 2^96` (`checked_mul`
    /// exact), and at the difference's scale `max(a + b, c)` both aligned
    /// operands below 2^96 (`checked_sub` exact): the product below
    /// `aligned(28 − c)` and `2^126`, the fee below `aligned(t)`.
    #[inline]
    fn raw_net28(&self, p: &Prepared) -> (i128, bool) {
        if !p.has(FAST) {
            return (0, false);
        }
        self.net28_parts(p.multiplier, p.multiplier_scale(), p.fee28, p.fee_scale())
    }

    /// [`raw_net28`](Self::raw_net28) from a rate's compact record (issue
    /// 35), which holds the fee's mantissa: `fee28 = fee × 10^(28 − c)`, the
    /// prepared form's `fee28` (the record is made only for a fee with the
    /// fast form, whose `fee28` is below 2^126), then the same proof.
    #[allow(clippy::inline_always)]
    #[inline(always)]
    pub(crate) fn compact_net28(&self, c: &Compact) -> Option<i128> {
        let fee_scale = c.fee_scale();
        // fee × 10^(28 − c) is the prepared fee28, below 2^126: no wrap.
        let fee28 = u128::from(c.fee).wrapping_mul(shift(SCALE.wrapping_sub(fee_scale)).up);
        let (net, exact) = self.net28_parts(c.multiplier, c.multiplier_scale(), fee28, fee_scale);
        exact.then_some(net)
    }

    /// The proof and key on the parts: multiplier mantissa and scale, the
    /// fee at scale 28 and the fee's scale.
    #[allow(clippy::inline_always)]
    #[inline(always)]
    fn net28_parts(
        &self,
        multiplier: u64,
        multiplier_scale: u32,
        fee28: u128,
        fee_scale: u32,
    ) -> (i128, bool) {
        if multiplier_scale > self.room {
            return (0, false);
        }
        let at = shift(self.room.wrapping_sub(multiplier_scale));
        // A u64 × u64 product always fits a u128.
        let xm = u128::from(self.x).wrapping_mul(u128::from(multiplier));
        if xm >= at.xm_limit || fee28 >= at.aligned {
            return (0, false);
        }
        // Below `xm_limit`, `xm × 10^t` stays below 2^126: no wrap.
        let product28 = xm.wrapping_mul(at.up);
        if product28 >= shift(SCALE.wrapping_sub(fee_scale)).aligned {
            return (0, false);
        }
        // Both below 2^126: the casts keep the values and the difference fits.
        #[allow(clippy::cast_possible_wrap)]
        let net = (product28 as i128).wrapping_sub(fee28 as i128);
        (net, true)
    }

    /// The `Decimal` net output of a rate this request keyed, as
    /// [`exact_net`] computes it, from the amount's and multiplier's integers
    /// already at hand (no `Decimal` to take apart). `None` for a rate
    /// without the fast form.
    #[inline]
    pub(crate) fn keyed_net(&self, rate: &Rate) -> Option<Decimal> {
        let p = rate.prepared();
        if !p.has(FAST) {
            return None;
        }
        net_from_parts(
            // A u64 × u64 product always fits a u128.
            u128::from(self.x).wrapping_mul(u128::from(p.multiplier)),
            // Two scales of at most 28.
            u32::from(self.scale).wrapping_add(p.multiplier_scale()),
            u128::try_from(rate.miner_fee().mantissa()).ok()?,
            p.fee_scale(),
        )
    }
}

/// The `Decimal` the plain path computes for `amount × multiplier − fee`,
/// built from integers when the operands prove it exact (same value, same
/// scale) and it is positive, `None` otherwise; see [`net_from_parts`].
#[allow(clippy::inline_always)]
#[inline(always)]
pub(crate) fn exact_net(amount: Decimal, rate: &Rate) -> Option<Decimal> {
    let (multiplier, fee) = (rate.multiplier(), rate.miner_fee());
    net_from_parts(
        widening_mul(
            u128::try_from(amount.mantissa()).ok()?,
            u128::try_from(multiplier.mantissa()).ok()?,
        )?,
        amount.scale().checked_add(multiplier.scale())?,
        u128::try_from(fee.mantissa()).ok()?,
        fee.scale(),
    )
}

/// `x × m − f` from the product's mantissa `xm` at `product_scale` and the
/// fee's `f` at `fee_scale`, as `Decimal`'s `checked_mul` and `checked_sub`
/// compute it when both are exact: at scale `max(product_scale, fee_scale)`,
/// or the product unchanged for a zero fee (`Decimal` returns `x − 0` as it
/// is). `None` when exactness is not proved (the product or an aligned
/// operand at or past 2^96, a scale past 28) and for a result that is not
/// positive (the rates asked about are eligible ones).
#[allow(clippy::inline_always)]
#[inline(always)]
fn net_from_parts(xm: u128, product_scale: u32, f: u128, fee_scale: u32) -> Option<Decimal> {
    // One operand keeps its scale, the other is scaled up to it: by `10^k`
    // only while the result stays below 2^96 (one comparison with a
    // precomputed bound, then a multiplication that cannot wrap).
    let (left, right, scale) = if f == 0 {
        (xm, 0, product_scale)
    } else if product_scale >= fee_scale {
        let k = product_scale.wrapping_sub(fee_scale);
        (xm, times_pow10_below_2_96(f, k)?, product_scale)
    } else {
        let k = fee_scale.wrapping_sub(product_scale);
        (times_pow10_below_2_96(xm, k)?, f, fee_scale)
    };
    if scale > SCALE || left >= MANTISSA_LIMIT || right >= MANTISSA_LIMIT {
        return None;
    }
    let mantissa = left.checked_sub(right).filter(|&m| m > 0)?;
    // Below 2^96: three 32-bit words, which the truncating casts take apart.
    #[allow(clippy::cast_possible_truncation)]
    let (lo, mid, hi) = (
        mantissa as u32,
        (mantissa >> 32) as u32,
        (mantissa >> 64) as u32,
    );
    Some(Decimal::from_parts(lo, mid, hi, false, scale))
}

/// `v × 10^k` when it is below 2^96, `None` otherwise (and for `k > 28`).
#[inline]
fn times_pow10_below_2_96(v: u128, k: u32) -> Option<u128> {
    let index = usize::try_from(k).ok()?;
    let &(up, limit) = FIT_96.get(index)?;
    // `v < ⌈2^96 / 10^k⌉` is `v × 10^k < 2^96`: no wrap.
    (v < limit).then(|| v.wrapping_mul(up))
}

/// `(10^k, ⌈2^96 / 10^k⌉)` for `k` in `0..=28`.
const FIT_96: [(u128, u128); 29] = fit_96_table();

// Evaluated at compile time: an overflow would be a build error.
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
const fn fit_96_table() -> [(u128, u128); 29] {
    let mut table = [(1, MANTISSA_LIMIT); 29];
    let mut k = 1;
    while k < 29 {
        let up = POW10[k];
        table[k] = (up, MANTISSA_LIMIT.div_ceil(up));
        k += 1;
    }
    table
}

#[cfg(test)]
mod tests {
    use super::{
        exact_cmp, exact_net, floor_net, may_be_floored, net_from_parts, net_is_positive,
        product_is_exact, shift, times_pow10_below_2_96,
    };
    use crate::numeric::{MANTISSA_LIMIT, OPERAND_LIMIT};
    use crate::route::rules::fixtures::{d, rate};
    use alloc::string::ToString;
    use rust_decimal::Decimal;

    /// 2^96, written out.
    const TWO_96: u128 = 79_228_162_514_264_337_593_543_950_336;

    #[test]
    fn a_product_past_decimal_minus_a_fee_that_brings_it_back_is_held() {
        // 79228162514264337593.54395035 × 10^9 = 79228162514264337593543950350
        // is past 2^96 − 1, but minus 30 it is …320, which fits (ruling 35).
        let net = super::net_output(
            &rate("1000000000", "30"),
            d("79228162514264337593.54395035"),
        );
        assert_eq!(net, Some(d("79228162514264337593543950320")));
        assert_eq!(
            super::net_output(&rate("1000000000", "0"), d("79228162514264337593.54395035")),
            None
        );
    }

    #[test]
    fn scaling_up_stops_just_below_2_96() {
        // 2^96 / 10 = 7922816251426433759354395033.6: ...033 × 10 fits, ...034 × 10 does not.
        let largest = 7_922_816_251_426_433_759_354_395_033;
        assert_eq!(times_pow10_below_2_96(largest, 1), Some(TWO_96 - 6));
        assert_eq!(times_pow10_below_2_96(largest + 1, 1), None);
        // k = 0 is the bound itself.
        assert_eq!(times_pow10_below_2_96(TWO_96 - 1, 0), Some(TWO_96 - 1));
        assert_eq!(times_pow10_below_2_96(TWO_96, 0), None);
        // 10^28 < 2^96 < 8 × 10^28: 7 × 10^28 fits, 8 × 10^28 does not.
        let e28 = 10_000_000_000_000_000_000_000_000_000;
        assert_eq!(times_pow10_below_2_96(7, 28), Some(7 * e28));
        assert_eq!(times_pow10_below_2_96(8, 28), None);
        // Past Decimal's scales: refused, whatever the value.
        assert_eq!(times_pow10_below_2_96(0, 29), None);
        assert_eq!(times_pow10_below_2_96(1, u32::MAX), None);
    }

    #[test]
    fn an_exact_positive_net_is_built_from_integers_with_decimals_scale() {
        // 1.5 × 2.25 = 3.375 (scale 3), minus 0.1 (scale 1): 3.275 at scale 3.
        let net = exact_net(d("1.5"), &rate("2.25", "0.1")).unwrap();
        assert_eq!((net, net.scale()), (d("3.275"), 3));
        // A zero fee leaves the product as it is: 2 × 0.50 = 1.00 (scale 2).
        let net = exact_net(d("2"), &rate("0.50", "0")).unwrap();
        assert_eq!((net.mantissa(), net.scale()), (100, 2));
    }

    #[test]
    fn a_product_at_scale_28_is_exact_and_one_past_it_is_not() {
        // 0.1 × 0.000...01 (27 places) = 10^-28: Decimal's smallest unit.
        let tiny = "0.000000000000000000000000001";
        let net = exact_net(d("0.1"), &rate(tiny, "0")).unwrap();
        assert_eq!((net.mantissa(), net.scale()), (1, 28));
        // 0.01 × the same is 10^-29, which no Decimal holds exactly.
        assert_eq!(exact_net(d("0.01"), &rate(tiny, "0")), None);
        // The same scales from integers: 28 passes, 29 does not.
        assert_eq!(net_from_parts(7, 28, 0, 0).map(|n| n.scale()), Some(28));
        assert_eq!(net_from_parts(7, 29, 0, 0), None);
        assert_eq!(net_from_parts(70, 28, 5, 29), None);
    }

    #[test]
    fn an_operand_at_or_past_2_96_is_not_proved_exact() {
        // 2^64 × 2^32 = 2^96: one past Decimal's largest mantissa.
        let two_64 = "18446744073709551616";
        let two_32 = "4294967296";
        assert_eq!(exact_net(d(two_64), &rate(two_32, "1")), None);
        // The product just below the bound, with a fee: exact.
        assert_eq!(
            net_from_parts(MANTISSA_LIMIT - 1, 0, 1, 0).map(|n| n.mantissa()),
            Some(79_228_162_514_264_337_593_543_950_334)
        );
        // Either side at the bound refuses, whatever the other.
        assert_eq!(net_from_parts(MANTISSA_LIMIT, 0, 1, 0), None);
        assert_eq!(
            net_from_parts(MANTISSA_LIMIT + 5, 0, MANTISSA_LIMIT, 0),
            None
        );
    }

    #[test]
    fn a_net_that_is_not_positive_is_none() {
        // 2 × 1.5 − 3 = 0: not a positive net.
        assert_eq!(exact_net(d("2"), &rate("1.5", "3")), None);
        assert_eq!(net_from_parts(30, 1, 3, 0), None);
        // 2 × 1.5 − 3.5 < 0.
        assert_eq!(exact_net(d("2"), &rate("1.5", "3.5")), None);
        // One unit of the last place above zero is positive.
        assert_eq!(
            exact_net(d("2"), &rate("1.5", "2.9")).map(|n| (n.mantissa(), n.scale())),
            Some((1, 1))
        );
    }

    #[test]
    fn a_product_is_exact_when_its_mantissa_and_scale_fit() {
        let exact = |a: &str, b: &str| {
            let (a, b) = (d(a), d(b));
            product_is_exact(a, b, a.checked_mul(b).unwrap())
        };
        // 1.5 × 2.25 = 3.375: 15 × 225 at scale 1 + 2.
        assert!(exact("1.5", "2.25"));
        // (2^48 − 1)^2 < 2^96 at scale 0: exact.
        assert!(exact("281474976710655", "281474976710655"));
        // 2^48 × 2^48 = 2^96 at scale 0 overflows; at scale 1 Decimal rounds
        // 2^96 / 10 to an integer.
        assert!(!exact("28147497671065.6", "281474976710656"));
        // Scales 14 + 15 = 29: Decimal rounds to 28 places.
        assert!(!exact("0.00000000000003", "0.000000000000007"));
        // A product whose scale Decimal reduced is not taken as exact.
        assert!(!product_is_exact(d("1.5"), d("2.25"), d("3.38")));
    }

    #[test]
    fn the_shift_table_refuses_past_scale_28() {
        // t = 0: 10^0, X × M below 2^96, operands below 2^96.
        assert_eq!(
            (shift(0).up, shift(0).xm_limit, shift(0).aligned),
            (1, MANTISSA_LIMIT, MANTISSA_LIMIT)
        );
        // t = 28: 2^96 × 10^28 is past 2^126, so both limits are 2^126-based.
        let e28 = 10_000_000_000_000_000_000_000_000_000;
        assert_eq!(shift(28).up, e28);
        assert_eq!(shift(28).aligned, OPERAND_LIMIT);
        assert_eq!(shift(28).xm_limit, OPERAND_LIMIT.div_ceil(e28));
        // Entries 29..32 refuse everything.
        for t in 29..32 {
            assert_eq!(
                (shift(t).up, shift(t).xm_limit, shift(t).aligned),
                (0, 0, 0)
            );
        }
    }

    #[test]
    fn a_net_past_28_places_is_floored_not_rounded() {
        // 12.34567891 × 33073464.331913818581565556041 =
        // 408314371.08314566999999999999779679531 (29 places; Python's
        // decimal at 100 digits). 9 integer digits leave 20 places; the
        // floor there, where half-to-even gave 408314371.08314567.
        let (x, m) = (d("12.34567891"), "33073464.331913818581565556041");
        let net = super::net_output(&rate(m, "0"), x).unwrap();
        assert_eq!(net.to_string(), "408314371.08314566999999999999");
        // A negative exact value: toward −∞. 1 × 10^-27 × 0.01 − 10^-28 =
        // −0.9 × 10^-28: floor −10^-28.
        let tiny = "0.000000000000000000000000001";
        let fee = "0.0000000000000000000000000001";
        assert_eq!(
            super::net_output(&rate(tiny, fee), d("0.01")),
            Some(d("-0.0000000000000000000000000001"))
        );
        // An exact value that fits keeps its value (3.375 − 0.1 = 3.275).
        assert_eq!(floor_net(d("1.5"), d("2.25"), d("0.1")), Some(d("3.275")));
        // A negative factor: none.
        assert_eq!(floor_net(d("-1"), d("1"), d("0")), None);
        // Past the range at scale 0: none. (2^96 − 1) × 2 = 2^97 − 2.
        assert_eq!(floor_net(Decimal::MAX, d("2"), d("0")), None);
        // Just past 2^96 − 1 at one place, and the floor at scale 0 fits:
        // (2^96 − 1) + 0.5 with half-to-even would be 2^96; the floor is 2^96 − 1.
        assert_eq!(
            floor_net(Decimal::MAX, d("1"), d("-0.5")),
            Some(Decimal::MAX)
        );
    }

    #[test]
    fn a_zero_floor_is_positive_only_above_an_exact_positive_net() {
        let tiny = "0.000000000000000000000000001";
        let fee = "0.0000000000000000000000000001";
        // 0.01 × 10^-27 = 10^-29 > 0, floored to 0.
        let r = rate(tiny, "0");
        let net = super::net_output(&r, d("0.01")).unwrap();
        assert!(net.is_zero());
        assert!(net_is_positive(&r, d("0.01"), net));
        // 0.1 × 10^-27 − 10^-28 = 0: not positive.
        let r = rate(tiny, fee);
        let net = super::net_output(&r, d("0.1")).unwrap();
        assert!(net.is_zero());
        assert!(!net_is_positive(&r, d("0.1"), net));
        // Non-zero floors decide by their sign.
        assert!(net_is_positive(&r, d("1"), d("0.5")));
        assert!(!net_is_positive(&r, d("1"), d("-0.5")));
    }

    #[test]
    fn only_scale_28_or_wide_mantissas_may_be_floors() {
        assert!(may_be_floored(d("0.0030000000000000000000000000")));
        assert!(!may_be_floored(d("0.003")));
        // ⌊2^96 / 10⌋ = 7922816251426433759354395033: at scale 1 that
        // mantissa may be a floor, one below it cannot.
        assert!(may_be_floored(Decimal::from_i128_with_scale(
            7_922_816_251_426_433_759_354_395_033,
            1
        )));
        assert!(!may_be_floored(Decimal::from_i128_with_scale(
            7_922_816_251_426_433_759_354_395_032,
            1
        )));
    }

    #[test]
    fn exact_cmp_orders_past_28_places() {
        use core::cmp::Ordering;
        let (one, more) = (rate("1", "0"), rate("1.000000000000000000000000001", "0"));
        // 0.003 vs 0.003000000000000000000000000003.
        assert_eq!(
            exact_cmp(d("0.003"), &more, d("0.003"), &one),
            Some(Ordering::Greater)
        );
        assert_eq!(
            exact_cmp(d("0.003"), &one, d("0.003"), &more),
            Some(Ordering::Less)
        );
        assert_eq!(
            exact_cmp(d("0.003"), &one, d("0.003"), &one),
            Some(Ordering::Equal)
        );
        // Signs: −1 (1 × 1 − 2) below 0 (1 × 1 − 1), and −1 above −2.
        let (zero, minus1, minus2) = (rate("1", "1"), rate("1", "2"), rate("1", "3"));
        assert_eq!(
            exact_cmp(d("1"), &minus1, d("1"), &zero),
            Some(Ordering::Less)
        );
        assert_eq!(
            exact_cmp(d("1"), &zero, d("1"), &minus1),
            Some(Ordering::Greater)
        );
        assert_eq!(
            exact_cmp(d("1"), &minus1, d("1"), &minus2),
            Some(Ordering::Greater)
        );
        // A negative amount has no exact order here.
        assert_eq!(exact_cmp(d("-1"), &one, d("1"), &one), None);
    }
}
