//! A work meter for tests: how many eligibility checks and ranking
//! comparisons a call made, and how often the rate book fell back to the
//! engine's scan. Compiled only into the crate's own unit tests and, with
//! the `work-meter` feature, for fuzz targets (ruling 36), so the library
//! itself keeps no state; elsewhere `tick` and `fell_back` are empty inline
//! fns.

/// Counts one unit of work (a rate scored or checked, two keys compared).
#[inline]
pub(crate) fn tick() {
    #[cfg(any(all(test, feature = "std"), feature = "work-meter"))]
    meter::add(&meter::WORK);
}

/// Counts `units` units of work at once (records passed over in one
/// search).
#[inline]
pub(crate) fn ticks(units: usize) {
    #[cfg(any(all(test, feature = "std"), feature = "work-meter"))]
    meter::WORK.with(|count| {
        count.set(
            count
                .get()
                .saturating_add(u64::try_from(units).unwrap_or(u64::MAX)),
        );
    });
    #[cfg(not(any(all(test, feature = "std"), feature = "work-meter")))]
    let _ = units;
}

/// Counts one compact record read by a kernel loop (the ones its float
/// filter does not pass over).
#[inline]
pub(crate) fn read_record() {
    #[cfg(any(all(test, feature = "std"), feature = "work-meter"))]
    meter::add(&meter::RECORDS_READ);
}

/// Runs `f` without counting its work: a debug build's check of a claim
/// (the kernel's skips) is not work the call does.
#[inline]
pub(crate) fn unmetered<T>(f: impl FnOnce() -> T) -> T {
    #[cfg(any(all(test, feature = "std"), feature = "work-meter"))]
    {
        let before = meter::WORK.with(core::cell::Cell::get);
        let value = f();
        meter::WORK.with(|count| count.set(before));
        value
    }
    #[cfg(not(any(all(test, feature = "std"), feature = "work-meter")))]
    f()
}

/// Counts one fall-back of the rate book to the engine's scan.
#[inline]
pub(crate) fn fell_back() {
    #[cfg(any(all(test, feature = "std"), feature = "work-meter"))]
    meter::add(&meter::FALL_BACKS);
}

#[cfg(any(all(test, feature = "std"), feature = "work-meter"))]
pub(crate) mod meter {
    extern crate std;
    use std::cell::Cell;
    use std::thread::LocalKey;

    std::thread_local! {
        /// Units of work ([`tick`](super::tick)) on this thread.
        pub(super) static WORK: Cell<u64> = const { Cell::new(0) };
        /// Fall-backs of the rate book ([`fell_back`](super::fell_back)) on
        /// this thread.
        pub(super) static FALL_BACKS: Cell<u64> = const { Cell::new(0) };
        /// Compact records a kernel loop read
        /// ([`read_record`](super::read_record)) on this thread.
        pub(super) static RECORDS_READ: Cell<u64> = const { Cell::new(0) };
    }

    pub(super) fn add(counter: &'static LocalKey<Cell<u64>>) {
        counter.with(|count| count.set(count.get().saturating_add(1)));
    }

    fn count<T>(counter: &'static LocalKey<Cell<u64>>, f: impl FnOnce() -> T) -> (T, u64) {
        counter.with(|count| count.set(0));
        let value = f();
        (value, counter.with(Cell::get))
    }

    /// The work `f` did on this thread.
    pub(crate) fn measure<T>(f: impl FnOnce() -> T) -> (T, u64) {
        count(&WORK, f)
    }

    /// How many compact records the kernel loops read in `f` on this
    /// thread.
    #[cfg_attr(not(test), allow(dead_code))]
    pub(crate) fn records_read<T>(f: impl FnOnce() -> T) -> (T, u64) {
        count(&RECORDS_READ, f)
    }

    /// How many times `f` made a rate book fall back to the scan on this
    /// thread.
    #[cfg_attr(not(test), allow(dead_code))]
    pub(crate) fn fall_backs<T>(f: impl FnOnce() -> T) -> (T, u64) {
        count(&FALL_BACKS, f)
    }
}

#[cfg(test)]
#[cfg(feature = "std")]
mod tests {
    use alloc::format;
    use alloc::vec::Vec;

    use rust_decimal::Decimal;

    use super::meter::measure;
    use crate::rate::{Rate, RateTerms, MAX_RATES};
    use crate::route::{estimate_exact_out, RouteRequest};
    use crate::{decimal::Amount, ids::RateId, rate::PairId, time::EpochMillis};

    /// `n` varied rates: different multipliers and fees, limits that refuse
    /// about a third, every tenth expired, every seventh without exactOut.
    fn rates(n: usize) -> Vec<Rate> {
        let pair = PairId::new("BTC_ETH").unwrap();
        (0..n)
            .map(|i| {
                let i64i = i64::try_from(i).unwrap();
                let terms = RateTerms {
                    multiplier: Decimal::new(33_000_000 + (i64i * 7919) % 1_000_000, 6),
                    miner_fee: Decimal::new((i64i * 31) % 500, 6),
                    min: Decimal::new(if i % 3 == 0 { 200 } else { 1 }, 2),
                    max: Decimal::new(1000, 0),
                };
                let expiry = if i % 10 == 0 { 1 } else { 4_102_444_800_000 };
                Rate::new(
                    RateId::new(&format!("r{i:06}")).unwrap(),
                    pair.clone(),
                    terms,
                    EpochMillis::new(expiry),
                )
                .with_exact_out(i % 7 != 0)
            })
            .collect()
    }

    #[test]
    fn selection_work_is_linear_up_to_max_rates() {
        let now = EpochMillis::new(1_785_000_000_000);
        let one = Amount::new(Decimal::ONE).unwrap();
        let exact_in = RouteRequest::exact_in(one, now);
        let exact_out =
            RouteRequest::exact_out(one, Amount::new(Decimal::new(30, 0)).unwrap(), now);
        let mut per_rate = Vec::new();
        for n in [1024, 8192, MAX_RATES] {
            let data = rates(n);
            let (best, best_work) = measure(|| exact_in.best(&data));
            assert!(best.is_ok());
            let (_, top_work) = measure(|| exact_in.top(&data, 5));
            let (_, top_n_work) = measure(|| exact_in.top_n::<5>(&data));
            let (_, out_work) = measure(|| exact_out.best(&data));
            let (_, estimate_work) = measure(|| estimate_exact_out(&data, one, now));
            let (_, select_work) = measure(|| exact_in.select(&data));
            let nf = n as f64;
            // One check per rate and at most a few comparisons: linear (and
            // the meter is wired: every rate is looked at).
            for (name, work) in [
                ("best", best_work),
                ("top5", top_work),
                ("top_n5", top_n_work),
                ("exact_out", out_work),
                ("estimate", estimate_work),
            ] {
                assert!(
                    (work as f64) <= 4.0 * nf,
                    "{name}: {work} units for {n} rates"
                );
                assert!(
                    work >= u64::try_from(n).unwrap(),
                    "{name}: {work} units for {n} rates"
                );
            }
            // The full ranking sorts: n log n comparisons at most.
            assert!(
                (select_work as f64) <= 2.0 * nf * nf.log2() + 4.0 * nf,
                "select: {select_work} for {n}"
            );
            per_rate.push(best_work as f64 / nf);
        }
        // Work per rate stays flat from 1024 to MAX_RATES rates.
        let (first, last) = (*per_rate.first().unwrap(), *per_rate.last().unwrap());
        assert!(
            last <= first * 1.1,
            "best: {first} units per rate at 1024, {last} at {MAX_RATES}"
        );
    }

    /// On a `RatesResponse` the kernel and the top-k loop scan its compact
    /// records: the same answers as on its rates as a slice, for no more
    /// work (a fall-back to the full selection would cost more).
    #[test]
    fn a_response_ranks_for_no_more_work_than_its_slice() {
        let now = EpochMillis::new(1_785_000_000_000);
        let one = Amount::new(Decimal::ONE).unwrap();
        let exact_in = RouteRequest::exact_in(one, now);
        let exact_out =
            RouteRequest::exact_out(one, Amount::new(Decimal::new(30, 0)).unwrap(), now);
        let n = 8192;
        let data = crate::rate::RatesResponse::try_from(rates(n)).unwrap();
        let slice = data.rates();
        let cases = [
            (
                "best",
                measure(|| exact_in.best(&data)),
                measure(|| exact_in.best(slice)),
            ),
            (
                "exact_out",
                measure(|| exact_out.best(&data)),
                measure(|| exact_out.best(slice)),
            ),
        ];
        for (name, (a, work), (b, slice_work)) in cases {
            assert_eq!(a, b, "{name}");
            assert!(
                work <= slice_work,
                "{name}: {work} units, {slice_work} as a slice"
            );
        }
        let (a, work) = measure(|| exact_in.top(&data, 5));
        let (b, slice_work) = measure(|| exact_in.top(slice, 5));
        assert_eq!(a, b);
        assert!(
            work <= slice_work,
            "top: {work} units, {slice_work} as a slice"
        );
        let (a, work) = measure(|| exact_in.top_n::<5>(&data));
        let (b, slice_work) = measure(|| exact_in.top_n::<5>(slice));
        assert_eq!(
            a.map(|t| t.iter().copied().collect::<Vec<_>>()),
            b.map(|t| t.iter().copied().collect::<Vec<_>>())
        );
        assert!(
            work <= slice_work,
            "top_n: {work} units, {slice_work} as a slice"
        );
    }

    /// `n` rates whose nets at 1 rise with their position: multiplier
    /// 33 + i/1000, no fee, wide limits.
    fn rising(n: i64) -> Vec<Rate> {
        let pair = PairId::new("BTC_ETH").unwrap();
        (0..n)
            .map(|i| {
                Rate::new(
                    RateId::new(&format!("r{i:03}")).unwrap(),
                    pair.clone(),
                    RateTerms {
                        multiplier: Decimal::new(33_000 + i, 3),
                        miner_fee: Decimal::ZERO,
                        min: Decimal::new(1, 3),
                        max: Decimal::new(1000, 0),
                    },
                    EpochMillis::new(4_102_444_800_000),
                )
            })
            .collect()
    }

    /// The scan hands a collector only the rates at or above what it holds
    /// (its floor): best first, the later rates cost no comparison; worst
    /// first, every rate after the first is compared with the held one.
    #[test]
    fn the_scan_skips_rates_below_the_collectors_floor() {
        let request = RouteRequest::exact_in(
            Amount::new(Decimal::ONE).unwrap(),
            EpochMillis::new(1_785_000_000_000),
        );
        let ascending = rising(64);
        let mut descending = ascending.clone();
        descending.reverse();

        let (best_up, up) = measure(|| request.best(&ascending));
        let (best_down, down) = measure(|| request.best(&descending));
        assert_eq!(best_up.unwrap().rate().id().as_str(), "r063");
        assert_eq!(best_down.unwrap().rate().id().as_str(), "r063");
        // 63 comparisons with the held rate, one per later (better) rate.
        assert_eq!(up - down, 63, "best: {up} vs {down}");

        let (top_up, up) = measure(|| request.top_n::<3>(&ascending));
        let (top_down, down) = measure(|| request.top_n::<3>(&descending));
        assert_eq!(top_up.unwrap(), top_down.unwrap());
        // Comparisons of the insertion walk. Worst first (ascending): 1 + 2
        // to fill the three slots, then each of the other 61 rates walks up
        // past all three: 3 + 61 × 3 = 186. Best first: 1 + 1 to fill, then
        // the 61 others are below the floor and never offered: 2.
        assert_eq!(up - down, 186 - 2, "top_n: {up} vs {down}");
    }

    /// Known campaigns send only sponsored variants to the plain path (to
    /// cap their max); other rates keep their fast keys, at the same cost.
    #[test]
    fn campaigns_leave_rates_that_are_not_sponsored_on_the_fast_path() {
        let now = EpochMillis::new(1_785_000_000_000);
        let one = Amount::new(Decimal::ONE).unwrap();
        let mut campaigns = crate::rate::CampaignLimits::new();
        campaigns.insert(
            crate::ids::CampaignId::new("spring").unwrap(),
            Amount::new(Decimal::TWO).unwrap(),
        );
        let plain = RouteRequest::exact_in(one, now);
        let capped = plain.with_campaigns(&campaigns);
        let rates = rising(64);
        let (best, work) = measure(|| plain.best(&rates));
        let (best_capped, work_capped) = measure(|| capped.best(&rates));
        assert_eq!(best, best_capped);
        assert_eq!(work_capped, work);
    }
}
