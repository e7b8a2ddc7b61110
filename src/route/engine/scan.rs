//! The engine's one scan: every rate is scored once, by the fast form of
//! the eligibility rule when the request has one, and handed to a collector.

use super::super::rules::eligibility::{verdict, Score, Verdict};
use crate::numeric::filter::key_floor;
use crate::rate::prepared::Layout;
use crate::rate::Rate;
use crate::route::request::FastRequest;
use crate::route::work;
use crate::route::RouteRequest;

/// What a scan hands its rates to: the best route, the top `k`, or every
/// rate (a full selection).
pub(crate) trait Collect<'r> {
    /// The key a fast-keyed rate must reach to be offered (a rate below it
    /// is out with one comparison).
    fn floor(&self) -> i128;

    /// A rate the fast path keyed, eligible with net output × 10^28 `net`
    /// (at or above [`floor`](Self::floor)).
    fn keyed(&mut self, request: &RouteRequest<'_>, net: i128, rate: &'r Rate);

    /// A rate the fast path could not decide (every rate when the request
    /// has no fast form): the plain path's to judge.
    fn slow(&mut self, request: &RouteRequest<'_>, rate: &'r Rate);

    /// `true` for a collector that looks at excluded rates
    /// ([`out`](Self::out)): the compact scan, which skips them, is not for it.
    const REPORTS_OUT: bool = false;

    /// A rate the fast path excluded. Only a collector that reports reasons
    /// looks at it.
    #[inline]
    fn out(&mut self, _request: &RouteRequest<'_>, _rate: &'r Rate) {}
}

/// Scores every rate of `rates` once and hands it to `into`. Always inlined
/// into each collector's caller: the loop is then specialised to it.
///
/// `compact` is empty or holds the compact ranking layout of the rates (a
/// [`RatesResponse`](crate::rate::RatesResponse)'s): then a collector that passes
/// over excluded rates takes the kernel's loop over the layout
/// ([`scan_compact`]), which reads a rate's full record only when it is
/// kept or its record cannot decide (issue 35). A full selection, which
/// reports every excluded rate, reads the full records.
#[allow(clippy::inline_always)]
#[inline(always)]
pub(crate) fn scan<'r, C: Collect<'r>>(
    request: &RouteRequest<'_>,
    fast: Option<&FastRequest>,
    rates: &'r [Rate],
    compact: Layout<'_>,
    into: &mut C,
) {
    let Some(fast) = fast else {
        for rate in rates {
            into.slow(request, rate);
        }
        return;
    };
    // A response's records, for a collector that passes over excluded
    // rates: the kernel's loop over the records alone.
    if compact.covers(rates) && !C::REPORTS_OUT {
        scan_compact(request, fast, rates, compact, into);
        return;
    }
    // Keys are positive: at or above `1.max(floor)` is a key to offer.
    let mut offer = into.floor().max(1);
    for rate in rates {
        let score = fast.score(rate);
        match score {
            Score::Key(key) if key >= offer => {
                into.keyed(request, key, rate);
                offer = into.floor().max(1);
            }
            Score::Key(_) => {}
            Score::Out => into.out(request, rate),
            Score::Slow => into.slow(request, rate),
        }
    }
}

/// The scan over a response's compact layout for any collector that
/// passes over excluded rates (the top `k`): the kernel's loop, with the
/// collector's floor as the held key. A rate whose ceiling is below that
/// key's floor ([`key_floor`]) can neither be offered nor reach the
/// collector's kept routes through the plain path (the margin in
/// [`filter`](crate::numeric::filter)), so its record is not read. Each
/// other record's verdict is [`verdict`]'s against `max(floor, 1)`, the
/// threshold of [`scan`](super::scan::scan): a key at or above it is
/// offered, a `FULL` record is judged by the full record as there, so the
/// collector keeps what it keeps from the scan's loop over the records.
#[allow(clippy::inline_always)]
#[inline(always)]
fn scan_compact<'r, C: Collect<'r>>(
    request: &RouteRequest<'_>,
    fast: &FastRequest,
    rates: &'r [Rate],
    compact: Layout<'_>,
    into: &mut C,
) {
    let records = compact.records();
    // Keys are positive: at or above `1.max(floor)` is a key to offer.
    let mut offer = into.floor().max(1);
    // What a ceiling must reach to be judged, raised lazily as the
    // kernel's (`best_compact`): when a judged record loses.
    let mut floor = key_floor(offer, fast.reciprocal);
    let mut stale = false;
    let ceilings = compact.ceilings();
    let mut from = 0;
    loop {
        let next = next_judged(ceilings, from, floor);
        debug_assert!(passed_over(request, fast, rates, from, next, offer));
        let Some(i) = next else { break };
        from = i.saturating_add(1);
        let Some(record) = records.get(i) else { break };
        work::read_record();
        let verdict = verdict(fast, record, offer);
        if verdict == Verdict::Loses {
            if stale {
                floor = key_floor(offer, fast.reciprocal);
                stale = false;
            }
            continue;
        }
        let Some(rate) = rates.get(i) else {
            continue;
        };
        let key = match verdict {
            Verdict::Key(key) => key,
            _ => match fast.judge_full(rate) {
                Score::Key(key) if key >= offer => key,
                Score::Slow => {
                    into.slow(request, rate);
                    continue;
                }
                _ => continue,
            },
        };
        into.keyed(request, key, rate);
        let next = into.floor().max(1);
        stale |= next != offer;
        offer = next;
    }
}

/// The position of the next record to judge from `from` on: the first
/// whose ceiling reaches `floor` (`None` past the last). The records before
/// it cannot reach the key the floor was computed from; each is one unit
/// of work, as a record judged.
#[allow(clippy::inline_always)]
#[inline(always)]
pub(crate) fn next_judged(ceilings: &[u64], from: usize, floor: u64) -> Option<usize> {
    let rest = ceilings.get(from..)?;
    let found = rest.iter().position(|&ceiling| ceiling >= floor);
    work::ticks(found.map_or(rest.len(), |k| k.saturating_add(1)));
    // `from + k` is a position of `ceilings`: no overflow.
    found.map(|k| from.saturating_add(k))
}

/// The claim of [`next_judged`], checked in debug builds: every rate from
/// `from` up to `next` (or the end) never reaches `best`.
pub(super) fn passed_over(
    request: &RouteRequest<'_>,
    fast: &FastRequest,
    rates: &[Rate],
    from: usize,
    next: Option<usize>,
    best: i128,
) -> bool {
    let to = next.unwrap_or(rates.len());
    rates.get(from..to).is_none_or(|passed| {
        passed
            .iter()
            .all(|rate| never_reaches(request, fast, rate, best))
    })
}

/// The claim of a skip (the kernel's `below_held`, or a ceiling below the floor),
/// checked on the rate in debug builds: its fast key (if any) and its plain
/// net output (if eligible) are below `best`.
pub(super) fn never_reaches(
    request: &RouteRequest<'_>,
    fast: &FastRequest,
    rate: &Rate,
    best: i128,
) -> bool {
    let key_below = match fast.judge_full(rate) {
        Score::Key(key) => key < best,
        Score::Out | Score::Slow => true,
    };
    // A check of the claim, not work the call does: not counted.
    let plain_below = work::unmetered(|| {
        crate::route::rules::eligibility::check(rate, request).map_or(true, |c| {
            crate::numeric::scaled28(c.net_output)
                .is_some_and(|v| i128::try_from(v).is_ok_and(|v| v < best))
        })
    });
    key_below && plain_below
}
