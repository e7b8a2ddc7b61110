//! The best route's kernel over a response's compact layout (issue 35):
//! one search of the 8-byte ceilings for the next rate whose multiplier can
//! reach the held key ([`next_judged`], the float filter of
//! [`filter`](crate::numeric::filter)), that rate's 40-byte record judged
//! with the held key in registers, and a 384-byte [`Rate`] read only for
//! the rare records that need it (and for the winner, at the end).
//!
//! It hands the engine's ending the same [`Best`] the scan into a `Best`
//! ([`scan`](super::scan::scan)) would, for every input:
//!
//! - a rate passed over cannot reach the held key, neither by its exact key
//!   nor by the plain path's value (the filter's bound); checked in debug
//!   builds against both ([`passed_over`]);
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
//! - a key above the held one replaces it; a key equal to it asks ruling
//!   7's tie order ([`key_order`], as [`Best`]) and replaces it only when
//!   the newcomer ranks first, so among rates equal in every key the
//!   earlier position stays, as in [`Best`]. The held key starts at 0:
//!   keys are positive, as the scan's floor `max(floor, 1)` requires.
//!
//! The top-k loop ([`scan_compact`](super::scan)) has the same shape with
//! a collector; this copy, for one route, keeps its state in registers
//! (about 4 ns a call at 8 rates).

use super::collect::{keep_best_plain, Best, Kept};
use super::conclude::conclude;
use super::routes::keyed_one;
use super::scan::{never_reaches, next_judged, passed_over, scan};
use super::select::select_in;
use crate::numeric::filter::key_floor;
use crate::numeric::{POW10, SCALE};
use crate::rate::prepared::{Compact, Layout, DECIDES};
use crate::rate::Rate;
use crate::route::request::FastRequest;
use crate::route::rules::eligibility::{verdict, Candidate, Score, Verdict};
use crate::route::rules::order::key_order;
use crate::route::work;
use crate::route::{NoRoute, Route, RouteRequest};

/// The [`Best`] of `rates` whose compact layout is `compact` (one record
/// and one ceiling per rate, in order; the caller checks the lengths agree),
/// under `fast`.
pub(crate) fn best_compact<'r>(
    request: &RouteRequest<'_>,
    fast: &FastRequest,
    rates: &'r [Rate],
    compact: Layout<'_>,
) -> Best<'r> {
    let records = compact.records();
    // Keys are positive: the held key starts at 0 and nothing is held.
    let mut best: i128 = 0;
    // What a ceiling must reach to be judged: 0, every ceiling, until a
    // key is held (`key_floor`). Raising it is sound at any time after the
    // held key rises (a lower floor only judges more records), so it is
    // raised lazily: when a judged record loses (the floor would have
    // spared it), not on every new key, which a book in rising order gives
    // at every record.
    let mut floor: u64 = 0;
    let mut stale = false;
    let mut held: Option<usize> = None;
    let mut plain = None;
    let ceilings = compact.ceilings();
    let mut from = 0;
    loop {
        // The records up to the next ceiling at the floor cannot reach the
        // held key: not read.
        let next = next_judged(ceilings, from, floor);
        debug_assert!(passed_over(request, fast, rates, from, next, best));
        let Some(i) = next else { break };
        from = i.saturating_add(1);
        let Some(record) = records.get(i) else { break };
        work::read_record();
        let key = match verdict(fast, record, best) {
            Verdict::Loses => {
                if stale {
                    floor = key_floor(best, fast.reciprocal);
                    stale = false;
                }
                continue;
            }
            Verdict::Key(key) => key,
            // A record that cannot decide, whose rate cannot reach the held
            // key whatever the full record says: not even read.
            Verdict::Full if below_held(fast, record, best) => {
                debug_assert!(rates
                    .get(i)
                    .is_none_or(|rate| never_reaches(request, fast, rate, best)));
                continue;
            }
            Verdict::Full => full_key(request, fast, rates.get(i), &mut plain),
        };
        if key > best {
            best = key;
            held = Some(i);
            stale = true;
        } else if key == best && held.is_some_and(|h| ranks_before(rates, i, h)) {
            held = Some(i);
        }
    }
    let held = held.and_then(|h| rates.get(h));
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

/// Whether the plain path's net output for the rate of `record` is below
/// the held key `best` (net output × 10^28, exact) whatever it is, from the
/// record's integers alone: `true` only when the record holds the exact
/// multiplier (`DECIDES`: a usable rate, mantissa in a `u64`, a fee that is
/// not negative) and `x × M`, an upper bound of the exact net output, is
/// below `best` by a margin that covers the plain path's rounding.
///
/// The plain path's value is the exact net output `v`, or its floor at the
/// largest scale `s <= 28` whose mantissa fits 96 bits (ruling 43,
/// [`floor_net`](crate::route::rules::net_output::floor_net)): never above
/// `v`, and ranking compares the exact `v` wherever the `Decimal` may be a
/// floor. With `P = x × M × 10^28` at the product's scale (`P >= v ×
/// 10^28`) below `B = best − (best >> 89) − 4 < best`, both are strictly
/// below the held key, so neither first nor tied. (The margin dates from a
/// plain path that rounded half to even, up to `v / 2^93 + 10^-28 / 2`
/// above `v`; it is kept, a little more work and no less right.) The answer
/// of `best` cannot change; the rate's verdict is only skipped (a route is
/// held, so "no route" is not asked). The same bound covers the full
/// record's key (the exact net output, at most `P`), so such a rate is
/// skipped before its full record is read.
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

/// The best route: [`collect`](super::conclude::collect) into a [`Best`], by the
/// kernel when the request has a fast form and `compact` holds the
/// rates' layout, by the scan otherwise.
///
/// The usual answer, one keyed rate and no plain candidate, is built
/// straight into the result: through a slot, the route's pieces were
/// stored and then read back whole to be returned, a store-forwarding
/// stall that was an eighth of the call at 8 rates.
pub(crate) fn collect_best<'r>(
    request: &RouteRequest<'_>,
    rates: &'r [Rate],
    compact: Layout<'_>,
) -> Result<Route<'r>, NoRoute> {
    let fast = FastRequest::new(request);
    let best = match fast.as_ref() {
        Some(fast) if compact.covers(rates) => best_compact(request, fast, rates, compact),
        _ => {
            let mut best = Best::new();
            scan(request, fast.as_ref(), rates, compact, &mut best);
            best
        }
    };
    let (keyed, plain) = (best.keyed_rates(), best.plain_candidates());
    if let (Some(fast), [Some(rate)], [None]) = (fast.as_ref(), keyed, plain) {
        if let Some(route) = keyed_one(request, fast, rate) {
            return Ok(route);
        }
    }
    let mut slot = [None];
    conclude(request, fast.as_ref(), rates, keyed, plain, &mut slot)?;
    let [route] = slot;
    // With room for one, the engine writes one route or says why not;
    // were it ever not to, the full selection is the reference.
    route.map_or_else(|| select_in(request, rates).into_best(), Ok)
}

#[cfg(test)]
mod tests {
    use alloc::vec;

    use rust_decimal::Decimal;

    use alloc::format;
    use alloc::vec::Vec;

    use super::below_held;
    use crate::rate::{Rate, RateTerms};
    use crate::route::engine::scan::next_judged;
    use crate::route::request::FastRequest;
    use crate::route::work::meter::{measure, records_read};
    use crate::route::RouteRequest;
    use crate::{
        decimal::Amount, ids::RateId, rate::PairId, rate::RatesResponse, time::EpochMillis,
    };

    /// A rate of multiplier `m`, no fee, limits [0, 10], never expiring.
    fn rate(id: &str, m: Decimal) -> Rate {
        Rate::new(
            RateId::new(id).unwrap(),
            PairId::new("BTC_ETH").unwrap(),
            RateTerms {
                multiplier: m,
                miner_fee: Decimal::ZERO,
                min: Decimal::ZERO,
                max: Decimal::TEN,
            },
            EpochMillis::new(4_102_444_800_000),
        )
    }

    /// A response of [`rate`]s whose multipliers are `ms` thousandths (in
    /// that order).
    fn book(ms: &[i64]) -> RatesResponse {
        let rates: Vec<Rate> = ms
            .iter()
            .enumerate()
            .map(|(i, &m)| rate(&format!("r{i:05}"), Decimal::new(m, 3)))
            .collect();
        RatesResponse::try_from(rates).unwrap()
    }

    #[test]
    fn next_judged_finds_the_first_ceiling_at_the_floor() {
        let ceilings = [1, 5, 3, 9];
        assert_eq!(next_judged(&ceilings, 0, 4), Some(1));
        assert_eq!(next_judged(&ceilings, 2, 4), Some(3));
        assert_eq!(next_judged(&ceilings, 3, 9), Some(3));
        assert_eq!(next_judged(&ceilings, 0, 10), None);
        assert_eq!(next_judged(&ceilings, 4, 0), None);
        assert_eq!(next_judged(&ceilings, 9, 0), None);
        assert_eq!(next_judged(&ceilings, 0, 0), Some(0));
        // Each record passed over or found is one unit of work.
        assert_eq!(measure(|| next_judged(&ceilings, 0, 4)).1, 2);
        assert_eq!(measure(|| next_judged(&ceilings, 0, 10)).1, 4);
    }

    /// How many records `best` and `top_n::<5>` read on a book of `ms`,
    /// with the answers checked against the same rates as a slice (the
    /// scan over full records, no filter).
    fn reads(ms: &[i64]) -> (u64, u64) {
        let data = book(ms);
        let request =
            RouteRequest::exact_in(Amount::new(Decimal::ONE).unwrap(), EpochMillis::new(0));
        let (best, read) = records_read(|| request.best(&data));
        assert_eq!(best, request.best(data.rates()));
        let (top, top_read) = records_read(|| request.top_n::<5>(&data));
        assert_eq!(
            top.map(|t| t.iter().copied().collect::<Vec<_>>()),
            request
                .top_n::<5>(data.rates())
                .map(|t| t.iter().copied().collect::<Vec<_>>())
        );
        (read, top_read)
    }

    /// The float filter's floor, raised when a judged record loses: worked
    /// out by hand on three orders of the multipliers 1.000 … 4.095.
    #[test]
    fn the_floor_spares_records_once_a_judged_one_loses() {
        let n = 4096i64;
        // Falling: the first is held; the second loses and raises the
        // floor; every other is below it. The top five: five kept, the
        // sixth loses and raises the floor to the fifth.
        let falling: Vec<i64> = (0..n).rev().map(|i| 1000 + i).collect();
        assert_eq!(reads(&falling), (2, 6));
        // Rising: every record is a new best and none loses, so the floor
        // is never raised (a book in rising order pays nothing for it).
        let rising: Vec<i64> = (0..n).map(|i| 1000 + i).collect();
        assert_eq!(reads(&rising), (4096, 4096));
        // Shuffled (i × 1237 mod 4096, a permutation): a record is read
        // only when it is a new best or the first to lose after one, a
        // few dozen at most.
        let shuffled: Vec<i64> = (0..n).map(|i| 1000 + (i * 1237) % n).collect();
        let (best, top) = reads(&shuffled);
        assert!((2..100).contains(&best), "{best}");
        assert!((6..400).contains(&top), "{top}");
    }

    /// Whether a rate of multiplier `m` is skipped below the held key
    /// `best` for the amount `x`.
    fn skipped(x: Decimal, m: Decimal, best: i128) -> bool {
        let response = RatesResponse::try_from(vec![rate("r", m)]).unwrap();
        let request = RouteRequest::exact_in(Amount::new(x).unwrap(), EpochMillis::new(0));
        let fast = FastRequest::new(&request).unwrap();
        below_held(&fast, &response.layout().records()[0], best)
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
