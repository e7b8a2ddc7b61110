//! The best route's kernel over a response's compact records (issue 35):
//! one loop over the 40-byte records alone, the held key and record in
//! registers, and a 384-byte [`Rate`] read only for the rare records that
//! need it (and for the winner, at the end).
//!
//! It hands the engine's ending the same [`Best`] the scan into a `Best`
//! ([`scan`](super::scan::scan)) would, for every input:
//!
//! - a record's verdict is [`FastRequest::compact_key`]'s: [`verdict`]
//!   takes its steps in its order on the same integers, with one more
//!   exit, "a key below the held key loses", which is what the scan does
//!   with such a key (it offers only keys at or above the collector's
//!   floor). Checked against `compact_key` for every record in debug
//!   builds, so in every test and proptest;
//! - `FULL` (the record cannot decide): the full record's verdict
//!   ([`FastRequest::judge_full`], as the scan), its key offered like any
//!   other, a `Slow` rate to the plain path ([`keep_best_plain`], the
//!   function [`Best`] calls);
//! - a key above the held one replaces it; a positive key equal to it asks
//!   ruling 7's tie order ([`key_order`], as [`Best`]) and replaces it only
//!   when the newcomer ranks first, so among rates equal in every key the
//!   earlier position stays, as in [`Best`]. The held key starts at 0:
//!   keys are positive, as the scan's floor `max(floor, 1)` requires.
//!
//! What it leaves out is the scan's parallel walk of the full records and
//! its per-rate sentinel test: a losing record leaves the loop at its
//! first failing step, and the held rate is a record, turned into a
//! position once at the end.
//!
//! Not in the WebAssembly build (a second copy of the loop; the browser
//! package has a byte budget): `best` takes the scan there.

use super::collect::{keep_best_plain, Best, Kept};
use super::scan::{position, scan, verdict, Verdict};
use crate::numeric::{scaled28, POW10, SCALE};
use crate::rate::prepared::{Compact, DECIDES};
use crate::rate::Rate;
use crate::route::request::FastRequest;
use crate::route::rules::eligibility::{check, Candidate, Score};
use crate::route::rules::order::key_order;
use crate::route::work;
use crate::route::{NoRoute, Route, RouteRequest};

/// The [`Best`] of `rates` whose compact records are `compact` (one per
/// rate, in order; the caller checks the lengths agree), under `fast`.
pub(crate) fn best_compact<'r>(
    request: &RouteRequest<'_>,
    fast: &FastRequest,
    rates: &'r [Rate],
    compact: &[Compact],
) -> Best<'r> {
    let position = |record: &Compact| position(compact, record);
    // Keys are positive: the held key starts at 0 and nothing is held.
    let mut best: i128 = 0;
    let mut held: Option<&Compact> = None;
    let mut plain = None;
    for record in compact {
        work::tick();
        let key = match verdict(fast, record, best) {
            Verdict::Loses => continue,
            Verdict::Key(key) => key,
            // A record that cannot decide, whose rate cannot reach the held
            // key whatever the full record says: not even read.
            Verdict::Full if below_held(fast, record, best) => {
                debug_assert!(rates
                    .get(position(record))
                    .is_none_or(|rate| never_reaches(request, fast, rate, best)));
                continue;
            }
            Verdict::Full => full_key(request, fast, rates.get(position(record)), &mut plain),
        };
        if key > best {
            best = key;
            held = Some(record);
        } else if key == best
            && key > 0
            && held.is_some_and(|h| ranks_before(rates, position(record), position(h)))
        {
            held = Some(record);
        }
    }
    let held = held.and_then(|h| rates.get(position(h)));
    Best::found(held.map(|rate| (best, rate)), plain)
}

/// The full record's verdict on a rate whose compact record cannot decide:
/// its key, or 0 for a rate that is out or that the plain path judges (kept
/// in `plain` when it is eligible and ranks first).
#[cold]
#[inline(never)]
fn full_key<'r>(
    request: &RouteRequest<'_>,
    fast: &FastRequest,
    rate: Option<&'r Rate>,
    plain: &mut Option<Candidate<'r>>,
) -> i128 {
    let Some(rate) = rate else { return 0 };
    match fast.judge_full(rate) {
        Score::Key(key) => key,
        Score::Out => 0,
        Score::Slow => {
            keep_best_plain(request, rate, plain);
            0
        }
    }
}

/// [`below_held`]'s claim, checked on the rate in debug builds: its fast
/// key (if any) and its plain net output (if eligible) are below `best`.
fn never_reaches(request: &RouteRequest<'_>, fast: &FastRequest, rate: &Rate, best: i128) -> bool {
    let key_below = match fast.judge_full(rate) {
        Score::Key(key) => key < best,
        Score::Out | Score::Slow => true,
    };
    let plain_below = check(rate, request).map_or(true, |c| {
        scaled28(c.net_output).is_some_and(|v| i128::try_from(v).is_ok_and(|v| v < best))
    });
    key_below && plain_below
}

/// Whether the plain path's net output for the rate of `record` is below
/// the held key `best` (net output × 10^28, exact) whatever it is, from the
/// record's integers alone: `true` only when the record holds the exact
/// multiplier (`DECIDES`: a usable rate, mantissa in a `u64`, a fee that is
/// not negative) and `x × M`, an upper bound of the exact net output, is
/// below `best` by a margin that covers the plain path's rounding.
///
/// The plain path's value is the exact net output `v` rounded once (half to
/// even) at the largest scale `s <= 28` whose mantissa fits 96 bits
/// ([`product_minus`](crate::decimal::product_minus)): off by at most half
/// a unit of `10^-s`, and `10^s × v >= 2^96 / 10` when `s < 28`, so by at
/// most `5 v / 2^96 < v / 2^93`, or `10^-28 / 2` at `s = 28`. With `P = x ×
/// M × 10^28` at the product's scale (`P >= v × 10^28`) below `B = best −
/// (best >> 89) − 4`, the plain value × 10^28 is at most `P (1 + 2^-93) +
/// 1/2 < B + B / 2^93 + 1 < best`: strictly below the held key, so neither
/// first nor tied. The answer of `best` cannot change; the rate's verdict
/// is only skipped (a route is held, so "no route" is not asked). The same
/// bound covers the full record's key (the exact net output, at most `P`),
/// so such a rate is skipped before its full record is read.
fn below_held(fast: &FastRequest, record: &Compact, best: i128) -> bool {
    if record.flags() & DECIDES == 0 {
        return false;
    }
    let Ok(best) = u128::try_from(best) else {
        return false;
    };
    let Some(bound) = best.checked_sub(best >> 89).and_then(|b| b.checked_sub(4)) else {
        return false;
    };
    // A u64 × u64 product always fits a u128.
    let xm = u128::from(fast.mantissa()).wrapping_mul(u128::from(record.multiplier));
    let scale = u32::from(fast.scale()).saturating_add(record.multiplier_scale());
    match scale.checked_sub(SCALE) {
        // Past scale 28: `P = xm / 10^k`, below `bound` when `xm < bound × 10^k`.
        Some(k) if k > 0 => match usize::try_from(k).ok().and_then(|k| POW10.get(k)) {
            Some(&up) => bound.checked_mul(up).is_none_or(|limit| xm < limit),
            None => false,
        },
        // At or below scale 28: `P = xm × 10^(28 − scale)`.
        _ => {
            let t = SCALE.saturating_sub(scale);
            usize::try_from(t)
                .ok()
                .and_then(|t| POW10.get(t))
                .and_then(|&up| xm.checked_mul(up))
                .is_some_and(|p| p < bound)
        }
    }
}

/// Equal keys: whether the rate at `i` ranks before the held one at `at`
/// (ruling 7's tie-breaks; equal in all of them, the held earlier one
/// stays). Rare, so out of line.
#[cold]
#[inline(never)]
fn ranks_before(rates: &[Rate], i: usize, at: usize) -> bool {
    match (rates.get(i), rates.get(at)) {
        (Some(rate), Some(held)) => key_order(0, rate, 0, held) == core::cmp::Ordering::Less,
        _ => false,
    }
}

impl RouteRequest<'_> {
    /// [`collect`](Self::collect) into a [`Best`]: by the kernel when the
    /// request has a fast form and `compact` holds the rates' records, by
    /// the scan otherwise.
    pub(crate) fn collect_best<'r>(
        &self,
        rates: &'r [Rate],
        compact: &[Compact],
        routes: &mut [Option<Route<'r>>],
    ) -> Result<usize, NoRoute> {
        let fast = FastRequest::new(self);
        let best = match fast.as_ref() {
            Some(fast) if compact.len() == rates.len() => best_compact(self, fast, rates, compact),
            _ => {
                let mut best = Best::new();
                scan(self, fast.as_ref(), rates, compact, &mut best);
                best
            }
        };
        let (keyed, plain) = (best.keyed_rates(), best.plain_candidates());
        self.conclude(fast.as_ref(), rates, keyed, plain, routes)
    }
}

#[cfg(test)]
mod tests {
    use alloc::vec;

    use rust_decimal::Decimal;

    use super::below_held;
    use crate::rate::{Rate, RateTerms};
    use crate::route::request::FastRequest;
    use crate::route::RouteRequest;
    use crate::{Amount, EpochMillis, PairId, RateId, RatesResponse};

    /// Whether a rate of multiplier `m` is skipped below the held key
    /// `best` for the amount `x`.
    fn skipped(x: Decimal, m: Decimal, best: i128) -> bool {
        let rate = Rate::new(
            RateId::new("r").unwrap(),
            PairId::new("BTC_ETH").unwrap(),
            RateTerms {
                multiplier: m,
                miner_fee: Decimal::ZERO,
                min: Decimal::ZERO,
                max: Decimal::TEN,
            },
            EpochMillis::new(4_102_444_800_000),
        );
        let response = RatesResponse::try_from(vec![rate]).unwrap();
        let request = RouteRequest::exact_in(Amount::new(x).unwrap(), EpochMillis::new(0));
        let fast = FastRequest::new(&request).unwrap();
        below_held(&fast, &response.compact_records()[0], best)
    }

    #[test]
    fn a_rate_is_skipped_only_below_the_held_key_less_the_margin() {
        // x × m = 2 at scale 0: P = 2 × 10^28. The bound is best −
        // (best >> 89) − 4, and (2 × 10^28 + 37) >> 89 = 32 (2^89 ≈ 6.19 ×
        // 10^26): 2 × 10^28 + 37 bounds at 2 × 10^28 + 1 > P, skipped;
        // 2 × 10^28 + 36 bounds at P itself, not.
        let two = 20_000_000_000_000_000_000_000_000_000i128;
        assert!(skipped(Decimal::ONE, Decimal::TWO, two + 37));
        assert!(!skipped(Decimal::ONE, Decimal::TWO, two + 36));
        assert!(!skipped(Decimal::ONE, Decimal::TWO, two));
        // Past scale 28: x = 1.0000000000000000001 (scale 19) × m =
        // 2.1234567891 (scale 10) is xm = 212345678910000000021234567891 at
        // scale 29, P = xm / 10. With best >> 89 = 34 here, best =
        // 21234567891000000002123456828 bounds at
        // 21234567891000000002123456790 and xm < 10 × that: skipped; one
        // less bounds at ...789 and xm (…7891) is not below ...7890.
        let x = Decimal::from_i128_with_scale(10_000_000_000_000_000_001, 19);
        let m = Decimal::from_i128_with_scale(21_234_567_891, 10);
        assert!(skipped(x, m, 21_234_567_891_000_000_002_123_456_828));
        assert!(!skipped(x, m, 21_234_567_891_000_000_002_123_456_827));
        // Nothing held: never.
        assert!(!skipped(x, m, 0));
    }
}
