//! The engine's one scan: every rate is scored once, by the fast form of
//! the eligibility rule when the request has one, and handed to a collector.

use super::super::rules::eligibility::{Score, FULL};
use crate::rate::prepared::Compact;
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
/// `compact` is empty or holds the compact ranking record of each rate, in
/// order (a [`RatesResponse`](crate::RatesResponse)'s): then the scan reads
/// those 40-byte records contiguously and a rate's full record only when it
/// is kept or its record cannot decide (issue 35).
#[allow(clippy::inline_always)]
#[inline(always)]
pub(crate) fn scan<'r, C: Collect<'r>>(
    request: &RouteRequest<'_>,
    fast: Option<&FastRequest>,
    rates: &'r [Rate],
    compact: &[Compact],
    into: &mut C,
) {
    let Some(fast) = fast else {
        for rate in rates {
            into.slow(request, rate);
        }
        return;
    };
    // A response's records, for a collector that passes over excluded
    // rates: the kernel's loop over the records alone (native builds).
    #[cfg(not(target_arch = "wasm32"))]
    if compact.len() == rates.len() && !C::REPORTS_OUT {
        super::kernel::scan_compact(request, fast, rates, compact, into);
        return;
    }
    let records = if compact.len() == rates.len() && !C::REPORTS_OUT {
        compact
    } else {
        &[]
    };
    // Keys are positive: at or above `1.max(floor)` is a key to offer.
    let mut offer = into.floor().max(1);
    for (i, rate) in rates.iter().enumerate() {
        let score = match records.get(i) {
            Some(record) => {
                work::tick();
                // A key, zero or below (out, passed over), or `FULL` (rare):
                // the full record decides.
                match fast.compact_key(record) {
                    FULL => fast.judge_full(rate),
                    key => Score::Key(key),
                }
            }
            None => fast.score(rate),
        };
        // One call site of `keyed` for both kinds: the collector's insertion
        // is inlined here once (the WebAssembly build counts bytes).
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
