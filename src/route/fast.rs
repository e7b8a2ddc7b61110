//! The exact integer fast path of scoring.
//!
//! The plain path ([`check`](super::eligibility::check)) computes
//! `fromAmount × multiplier − minerFee` with `Decimal::checked_mul` and
//! `checked_sub`, which round when a result has more digits than a `Decimal`
//! holds. The fast path computes the same number as an `i128` at scale 28
//! from a rate's [`Prepared`] form, and only when it can prove the plain path
//! is exact for that rate and amount:
//!
//! - the product's scale `a + b` is at most 28 and its mantissa `X × M` is
//!   below 2^96 (then `checked_mul` is exact);
//! - at the difference's scale `s = max(a + b, c)`, both aligned operands are
//!   below 2^96 (then `checked_sub` is exact).
//!
//! Then the plain value *is* the exact value, so comparing the fast keys
//! ranks exactly as comparing the plain `Decimal`s. Whenever the proof fails
//! (or a limit needs a campaign lookup, or the rate is invalid), the rate is
//! [`Score::Slow`] and the caller asks the plain path.

use core::cmp::Ordering;

use super::prepared::{Prepared, EXACT_OUT, FAST, OPERAND_LIMIT, POW10, SCALE, SPONSORED, USABLE};
use super::RouteRequest;
use crate::rate::Rate;
use crate::swap_mode::SwapMode;

/// What the fast path says about one rate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Score {
    /// Eligible, with `net output × 10^28`, exactly the plain path's value.
    Key(i128),
    /// Excluded; the plain path gives the same verdict (and the reason).
    Out,
    /// The fast path cannot decide: ask the plain path.
    Slow,
}

/// 2^96: `Decimal`'s mantissa bound.
const MANTISSA_LIMIT: u128 = 1 << 96;

/// `min(2^96 × 10^t, OPERAND_LIMIT)`: an operand at scale 28 whose value at
/// scale `28 − t` has a mantissa below 2^96 is below this.
const ALIGNED_LIMIT: [u128; 29] = aligned_limit_table();

// Evaluated at compile time: an index out of range or an overflow would be a
// build error, never a run-time panic.
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
const fn aligned_limit_table() -> [u128; 29] {
    let mut table = [OPERAND_LIMIT; 29];
    let mut t = 0;
    let mut value = MANTISSA_LIMIT;
    while t < 29 {
        if value >= OPERAND_LIMIT {
            break;
        }
        table[t] = value;
        value = value.saturating_mul(10);
        t += 1;
    }
    table
}

/// A request in the fast path's integer form.
#[derive(Clone, Copy, Debug)]
pub(crate) struct FastRequest {
    /// The amount's mantissa.
    x: u64,
    /// The amount's scale.
    scale: u8,
    /// `amount × 10^28`.
    x28: u128,
    now: u64,
    exact_out: bool,
    /// A sponsored variant's limit needs a campaign lookup.
    campaigns: bool,
}

impl FastRequest {
    /// The fast form of `request`, or `None` when its amount does not fit.
    pub(crate) fn new(request: &RouteRequest<'_>) -> Option<Self> {
        let amount = request.from_amount().get();
        let x = u64::try_from(amount.mantissa()).ok()?;
        let scale = u8::try_from(amount.scale()).ok()?;
        let x28 = super::prepared::scaled28(amount).filter(|&v| v < OPERAND_LIMIT)?;
        Some(FastRequest {
            x,
            scale,
            x28,
            now: request.now().as_millis(),
            exact_out: request.mode() == SwapMode::ExactOut,
            campaigns: !request.campaigns().is_empty(),
        })
    }

    /// The amount's mantissa.
    pub(crate) fn mantissa(&self) -> u64 {
        self.x
    }

    /// The amount's scale.
    pub(crate) fn scale(&self) -> u8 {
        self.scale
    }

    /// The fast verdict on `rate`: the checks of DESIGN ruling 5 in order.
    #[inline]
    pub(crate) fn score(&self, rate: &Rate) -> Score {
        let p = rate.prepared();
        if !p.has(USABLE) {
            return Score::Slow;
        }
        if p.expiry <= self.now {
            return Score::Out;
        }
        if self.exact_out && (!p.has(EXACT_OUT) || p.has(SPONSORED)) {
            return Score::Out;
        }
        if self.x28 < p.min28 {
            return Score::Out;
        }
        if self.campaigns && p.has(SPONSORED) {
            return Score::Slow;
        }
        if self.x28 > p.max28 {
            return Score::Out;
        }
        match self.net28(p) {
            Some(net) if net > 0 => Score::Key(net),
            Some(_) => Score::Out,
            None => Score::Slow,
        }
    }

    /// `(x × multiplier − fee) × 10^28` when the plain path computes it exactly.
    #[inline]
    pub(crate) fn net28(&self, p: &Prepared) -> Option<i128> {
        if !p.has(FAST) {
            return None;
        }
        let product_scale = self.scale.checked_add(p.multiplier_scale)?;
        let shift = u32::from(product_scale);
        let up = POW10.get(usize::try_from(SCALE.checked_sub(shift)?).ok()?)?;
        // A u64 × u64 product always fits a u128.
        let xm = u128::from(self.x).wrapping_mul(u128::from(p.multiplier));
        if xm >= MANTISSA_LIMIT {
            return None;
        }
        let product28 = xm.checked_mul(*up)?;
        let diff_scale = product_scale.max(p.fee_scale);
        let room = SCALE.checked_sub(u32::from(diff_scale))?;
        let limit = ALIGNED_LIMIT.get(usize::try_from(room).ok()?)?;
        if product28.max(p.fee28) >= *limit {
            return None;
        }
        // Both operands are below 2^126: the difference fits.
        let product = i128::try_from(product28).ok()?;
        let fee = i128::try_from(p.fee28).ok()?;
        product.checked_sub(fee)
    }
}

/// The ranking order on fast keys, with the same tie-breaks as
/// [`rank_order`](super::score::rank_order): `Less` means `a` ranks first.
#[inline]
pub(crate) fn fast_order(a_net: i128, a: &Rate, b_net: i128, b: &Rate) -> Ordering {
    match b_net.cmp(&a_net) {
        Ordering::Equal => tie_order(a, b),
        other => other,
    }
}

/// Lower fee, then a base rate before a sponsored variant, then id bytes.
pub(crate) fn tie_order(a: &Rate, b: &Rate) -> Ordering {
    let (pa, pb) = (a.prepared(), b.prepared());
    let fee = if pa.has(FAST) && pb.has(FAST) {
        pa.fee28.cmp(&pb.fee28)
    } else {
        a.miner_fee().cmp(&b.miner_fee())
    };
    fee.then_with(|| a.is_sponsored().cmp(&b.is_sponsored()))
        .then_with(|| a.id().as_str().as_bytes().cmp(b.id().as_str().as_bytes()))
}
