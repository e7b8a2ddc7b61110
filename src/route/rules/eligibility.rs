//! Is a rate usable for a request? (ruling 5 in docs/RULES.md, with rulings
//! 3, 4, 23 and 30 in its steps)
//!
//! In this order, the first failure reported: an invalid rate, an expired
//! one, the swap mode (ExactOut needs the capability and refuses sponsored
//! variants), a campaign limit below the rate's min, `fromAmount` against
//! `[min, effective max]`, an overflow, no positive net output, and under
//! the strict policy the ExactOut required input against the limits.
//!
//! One function, [`admit`], holds the first four steps for every caller
//! (the scan, the estimator, the rate book); [`check`] is the plain
//! `Decimal` form of the whole list and [`FastRequest::score`] its integer
//! form over a rate's prepared numbers, which answers the same verdict or
//! hands the rate to `check`.

use core::cmp::Ordering;

use rust_decimal::Decimal;

use super::net_output::{net_is_positive, net_output};
use super::required_input::{required_input, required_input_near};
use crate::rate::prepared::{Compact, DECIDES, EXACT_OUT, SPONSORED, USABLE};
use crate::rate::{CampaignLimits, Rate};
use crate::route::request::FastRequest;
use crate::route::work;
use crate::route::{LimitCheck, PriceGuard, RejectReason, RouteRequest};
use crate::swap_mode::SwapMode;
use crate::time::EpochMillis;

/// A rate that passed every check, with its score.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Candidate<'r> {
    pub(crate) rate: &'r Rate,
    /// `fromAmount × multiplier − minerFee`, the ranking score (ruling 6).
    pub(crate) net_output: Decimal,
    pub(crate) effective_max: Decimal,
}

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

/// [`FastRequest::compact_key`]'s answer when a compact record cannot
/// decide a rate: below every key and every net output at scale 28.
pub(crate) const FULL: i128 = i128::MIN;

/// The steps before any amount is looked at: a valid rate, not expired at
/// `now`, and in ExactOut a provider with the capability and a base rate.
pub(crate) fn admit(rate: &Rate, now: EpochMillis, mode: SwapMode) -> Result<(), RejectReason> {
    if let Some(defect) = rate.defect() {
        return Err(RejectReason::InvalidRate(defect));
    }
    if rate.is_expired_at(now) {
        return Err(RejectReason::Expired {
            expiry: rate.expiry(),
        });
    }
    if mode == SwapMode::ExactOut {
        if !rate.supports_exact_out() {
            return Err(RejectReason::ExactOutUnsupported);
        }
        if rate.is_sponsored() {
            return Err(RejectReason::SponsoredInExactOut);
        }
    }
    Ok(())
}

/// Runs every step in order and reports the first failure: the plain form.
pub(crate) fn check<'r>(
    rate: &'r Rate,
    request: &RouteRequest<'_>,
) -> Result<Candidate<'r>, RejectReason> {
    work::tick();
    admit(rate, request.now(), request.mode())?;
    let amount = request.from_amount().get();
    let effective_max = within_limits(rate, amount, request)?;
    let net_output = net_output(rate, amount).ok_or(RejectReason::Overflow)?;
    if !net_is_positive(rate, amount, net_output) {
        // Ruling 5 puts overflow before "no output": in ExactOut the required
        // input is part of the arithmetic.
        if request.mode() == SwapMode::ExactOut
            && required_input(rate, request.exact_output()).is_none()
        {
            return Err(RejectReason::Overflow);
        }
        return Err(RejectReason::NoOutput { net_output });
    }
    if request.mode() == SwapMode::ExactOut && !request.floors().is_none() {
        // The floors hold the order, whose amount in ExactOut is the
        // required input (rulings 34, 38): judged there, as the estimate
        // and the amounts that work judge them (ruling 41).
        let required = required_input_near(rate, request.exact_output(), request.from8())
            .ok_or(RejectReason::Overflow)?
            .get();
        let net = super::net_output::net_output(rate, required).ok_or(RejectReason::Overflow)?;
        request.floors().check(rate, required, net)?;
    } else {
        request.floors().check(rate, amount, net_output)?;
    }
    guarded(rate, request.price_guard())?;
    if request.strict_exact_out() {
        let required = required_input_near(rate, request.exact_output(), request.from8())
            .ok_or(RejectReason::Overflow)?
            .get();
        required_within(required, rate.min(), effective_max)?;
    }
    Ok(Candidate {
        rate,
        net_output,
        effective_max,
    })
}

/// The price guard's step (ruling 40, after the floors): `PRICE_OUTLIER`
/// when `guard` (its reference resolved) refuses `rate`.
pub(crate) fn guarded(rate: &Rate, guard: Option<&PriceGuard>) -> Result<(), RejectReason> {
    if let Some((reference, max_bps)) = guard.and_then(|g| g.outlier(rate)) {
        let multiplier = rate.multiplier();
        return Err(RejectReason::PriceOutlier {
            multiplier,
            reference,
            deviation_bps: reference.deviation_bps(multiplier),
            max_bps,
        });
    }
    Ok(())
}

/// A rate's effective max under the caller's `campaigns` (ruling 3): a
/// sponsored variant's max capped by its campaign's limit, a base rate's
/// own max (the prepared flag says which, so a base rate costs no lookup).
#[inline]
pub(crate) fn effective_max(rate: &Rate, campaigns: &CampaignLimits) -> Decimal {
    if rate.prepared().has(SPONSORED) {
        rate.effective_max(campaigns)
    } else {
        rate.max()
    }
}

/// `min <= amount <= effective max`, inclusive at both ends
/// ([`LimitCheck::of`]); returns the effective max.
///
/// A campaign limit below the rate's min (ruling 30) leaves no amount at all:
/// that is its own reason, before the amount is looked at.
pub(crate) fn within_limits(
    rate: &Rate,
    amount: Decimal,
    request: &RouteRequest<'_>,
) -> Result<Decimal, RejectReason> {
    let effective_max = rate.effective_max(request.campaigns());
    // A valid rate has min <= max, so only a campaign limit can go below min.
    if effective_max < rate.min() {
        return Err(RejectReason::CampaignLimitBelowMin {
            min: rate.min(),
            limit: effective_max,
        });
    }
    match LimitCheck::of(amount, rate.min(), effective_max) {
        LimitCheck::Within => Ok(effective_max),
        LimitCheck::BelowMin { min } => Err(RejectReason::BelowMin { min }),
        LimitCheck::AboveMax { max } => Err(RejectReason::AboveMax {
            max,
            capped_by_campaign: max.cmp(&rate.max()) == Ordering::Less,
        }),
    }
}

/// ExactOut's required input against the limits `[min, max]`, inclusive at
/// both ends ([`LimitCheck::of`]): the rule of `check`'s strict path and of
/// a chain's ExactOut legs.
pub(crate) fn required_within(
    required: Decimal,
    min: Decimal,
    max: Decimal,
) -> Result<(), RejectReason> {
    match LimitCheck::of(required, min, max) {
        LimitCheck::Within => Ok(()),
        LimitCheck::BelowMin { min } => Err(RejectReason::RequiredInputBelowMin { required, min }),
        LimitCheck::AboveMax { max } => Err(RejectReason::RequiredInputAboveMax { required, max }),
    }
}

impl FastRequest {
    /// The same steps on a rate's prepared integers: the fast form.
    ///
    /// `Key` and `Out` are the plain path's verdicts (a key is its exact net
    /// output); a rate the prepared form cannot judge (invalid, a sponsored
    /// variant whose limit needs the caller's campaigns, numbers past the
    /// exact integer range) is `Slow`, for [`check`].
    #[inline]
    pub(crate) fn score(&self, rate: &Rate) -> Score {
        work::tick();
        self.judge(rate)
    }

    /// [`score`](Self::score) from a rate's compact record `c` (issue 35),
    /// as one integer: a positive key (`Score::Key`), zero or below for a
    /// rate that is out (`Score::Out`), or [`FULL`] when the record cannot
    /// decide and the full record must ([`judge_full`](Self::judge_full)).
    /// Each answer is the full form's wherever the record gives one:
    ///
    /// - [`DECIDES`] set: the rate is usable, has the fast form, and the
    ///   record's word, multiplier and fee are the prepared ones; otherwise
    ///   [`FULL`]. So is a sponsored variant when the caller has campaigns.
    /// - Expiry and, in ExactOut, the capability and a base rate: the same
    ///   flags and expiry as the prepared word.
    /// - Limits: `min_hi = min28 >> 62` (saturating). `x_hi < min_hi` gives
    ///   `x28 < min_hi × 2^62 <= min28` (below min); `x_hi > min_hi` gives
    ///   `x28 >= x_hi × 2^62 > min28` (`min_hi` did not saturate). Likewise
    ///   for max. Equal high words: [`FULL`].
    /// - The key: [`compact_net28`](Self::compact_net28), the same proof on
    ///   the same integers (a key it cannot prove: [`FULL`], where the full
    ///   form answers `Slow`).
    ///
    /// One integer rather than a [`Score`]: the scan compares it with its
    /// floor and [`FULL`] with two predictable branches, and no verdict goes
    /// through memory.
    // Always inlined: out of line (as `#[inline]` left it), the verdict came
    // back through memory, a call and a 32-byte store and load per rate.
    #[allow(clippy::inline_always)]
    #[inline(always)]
    pub(crate) fn compact_key(&self, c: &Compact) -> i128 {
        let flags = c.flags();
        if flags & self.flag_mask != self.flag_want {
            // No record decides, or a sponsored variant under campaigns:
            // the full record. Else ExactOut refuses it (capability, base).
            let decides = flags & DECIDES != 0;
            let sponsored_with_campaigns = self.campaigns && flags & SPONSORED != 0;
            return if decides && !sponsored_with_campaigns {
                0
            } else {
                FULL
            };
        }
        if c.expiry() <= self.now {
            return 0;
        }
        if self.x_hi <= c.min_hi || self.x_hi >= c.max_hi {
            return if self.x_hi == c.min_hi || self.x_hi == c.max_hi {
                FULL
            } else {
                0
            };
        }
        self.compact_net28(c).unwrap_or(FULL)
    }

    /// [`judge`](Self::judge) out of line: the compact scan's rare case.
    #[cold]
    #[inline(never)]
    pub(crate) fn judge_full(&self, rate: &Rate) -> Score {
        self.judge(rate)
    }

    /// The steps of [`score`](Self::score) on the full record (no work tick).
    #[inline]
    fn judge(&self, rate: &Rate) -> Score {
        let p = rate.prepared();
        let flags = p.flags();
        if flags & USABLE == 0 {
            return Score::Slow;
        }
        if p.expiry() <= self.now {
            return Score::Out;
        }
        if self.exact_out && (flags & EXACT_OUT == 0 || flags & SPONSORED != 0) {
            return Score::Out;
        }
        if self.x28 < p.min28 {
            return Score::Out;
        }
        if self.campaigns && flags & SPONSORED != 0 {
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
}

/// What the compact loops make of one record, against the held key (or
/// the collector's floor) `best`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// Out, or a key below `best`: the rate can neither win nor tie.
    Loses,
    /// A key at or above `best` (`compact_key`'s answer).
    Key(i128),
    /// The record cannot decide (`compact_key` answers [`FULL`]).
    Full,
}

/// Eligibility on a compact record for the engine's compact loops (the
/// kernel and the top-k scan): [`FastRequest::compact_key`]'s steps
/// written out with the loops' answer at each exit, so a losing record leaves the loop at its first
/// failing step (no sentinel key to test afterwards). Each exit is
/// `compact_key`'s: checked against it, record by record, in debug builds
/// (every test and proptest).
#[allow(clippy::inline_always)]
#[inline(always)]
pub(crate) fn verdict(fast: &FastRequest, c: &Compact, best: i128) -> Verdict {
    let verdict = 'verdict: {
        let flags = c.flags();
        if flags & fast.flag_mask != fast.flag_want {
            let sponsored_with_campaigns = fast.campaigns && flags & SPONSORED != 0;
            if flags & DECIDES != 0 && !sponsored_with_campaigns {
                break 'verdict Verdict::Loses;
            }
            break 'verdict Verdict::Full;
        }
        if c.expiry() <= fast.now {
            break 'verdict Verdict::Loses;
        }
        if fast.x_hi <= c.min_hi || fast.x_hi >= c.max_hi {
            if fast.x_hi == c.min_hi || fast.x_hi == c.max_hi {
                break 'verdict Verdict::Full;
            }
            break 'verdict Verdict::Loses;
        }
        match fast.compact_net28(c) {
            Some(net) if net < best => Verdict::Loses,
            Some(net) => Verdict::Key(net),
            None => Verdict::Full,
        }
    };
    debug_assert!(match (verdict, fast.compact_key(c)) {
        (Verdict::Full, key) => key == FULL,
        (Verdict::Key(key), reference) => key == reference && key >= best,
        (Verdict::Loses, reference) => reference != FULL && reference < best.max(1),
    });
    verdict
}
