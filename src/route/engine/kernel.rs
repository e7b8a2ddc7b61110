//! The best route's kernel over a response's compact records (issue 35):
//! one loop over the 40-byte records alone, the best key and its position
//! in registers, and the full 384-byte [`Rate`] read only for the rare
//! records that need it.
//!
//! It answers what [`scan`](super::scan::scan) into a
//! [`Best`] answers, record for record:
//!
//! - a record's verdict is [`FastRequest::compact_key`]'s, the same
//!   function the scan calls;
//! - [`FULL`] (the record cannot decide): the full record's verdict
//!   ([`FastRequest::judge_full`]), a key offered like any other, a `Slow`
//!   rate to the plain path ([`keep_best_plain`]) — as the scan does;
//! - a key above the held one replaces it; a key equal to it (positive)
//!   asks ruling 7's tie order ([`key_order`]) and replaces it only when
//!   the newcomer ranks first, so among equal keys and equal tie-breaks the
//!   earlier position stays, as in [`Best`].
//!
//! What it leaves out is what [`Best::keyed`] does for every offered key
//! and the scan's parallel walk of the full records: the held rate is a
//! position, looked up once at the end.

use super::collect::{keep_best_plain, Best, Kept};
use super::scan::scan;
use crate::rate::prepared::{Compact, DECIDES, SPONSORED};
use crate::rate::Rate;
use crate::route::request::FastRequest;
use crate::route::rules::eligibility::{Candidate, Score, FULL};
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
    // A record's position, from its address: the loop keeps no index and
    // no pointer into `rates` (registers it needs for the key).
    let base = compact.as_ptr() as usize;
    let position = |record: &Compact| {
        (core::ptr::from_ref(record) as usize)
            .wrapping_sub(base)
            .checked_div(core::mem::size_of::<Compact>())
            .unwrap_or(usize::MAX)
    };
    // Keys are positive: the held key starts at 0 and nothing is held.
    let mut best: i128 = 0;
    let mut held: Option<&Compact> = None;
    let mut plain = None;
    for record in compact {
        work::tick();
        let key = match verdict(fast, record, best) {
            Verdict::Loses => continue,
            Verdict::Key(key) => key,
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

/// What the kernel makes of one record, against the held key `best`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verdict {
    /// Out, or a key below `best`: the rate can neither win nor tie.
    Loses,
    /// A key at or above `best` (`compact_key`'s answer).
    Key(i128),
    /// The record cannot decide (`compact_key` answers [`FULL`]).
    Full,
}

/// [`FastRequest::compact_key`]'s steps written out with the kernel's
/// answer at each exit, so a losing record leaves the loop at its first
/// failing step (no sentinel key to test afterwards). Each exit is
/// `compact_key`'s: checked against it, record by record, in debug builds
/// (every test and proptest).
#[allow(clippy::inline_always)]
#[inline(always)]
fn verdict(fast: &FastRequest, c: &Compact, best: i128) -> Verdict {
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
