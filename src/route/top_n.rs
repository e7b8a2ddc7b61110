//! The top `K` routes for a `K` fixed at compile time, without allocating.

use super::eligibility::Candidate;
use super::rank::Top;
use super::top_keys::TopKeysArray;
use super::{NoRoute, Route, RouteRequest};
use crate::rate::{Rate, RateList};

/// Up to `K` routes, best first, held in an array.
///
/// ```
/// use swaproute::{route::RouteRequest, Amount, EpochMillis, RatesResponse};
/// let rates: RatesResponse = serde_json::from_str(r#"[
///   {"amount":{"assetId":"ETH","value":33.1},"expiry":2000000000000,"id":"a",
///    "max":{"assetId":"BTC","value":8},"min":{"assetId":"BTC","value":0.001},
///    "minerFee":{"assetId":"ETH","value":0.0002},"pairId":"BTC_ETH"},
///   {"amount":{"assetId":"ETH","value":33.2},"expiry":2000000000000,"id":"b",
///    "max":{"assetId":"BTC","value":8},"min":{"assetId":"BTC","value":0.01},
///    "minerFee":{"assetId":"ETH","value":0.0003},"pairId":"BTC_ETH"}
/// ]"#).unwrap();
/// let request = RouteRequest::exact_in("0.5".parse::<Amount>().unwrap(), EpochMillis::new(1_700_000_000_000));
/// let top = request.top_n::<5>(&rates).unwrap();
/// assert_eq!(top.len(), 2);
/// let ids: Vec<&str> = top.iter().map(|r| r.rate().id().as_str()).collect();
/// assert_eq!(ids, ["b", "a"]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TopN<'r, const K: usize> {
    routes: [Option<Route<'r>>; K],
    len: usize,
}

impl<'r, const K: usize> TopN<'r, K> {
    /// How many routes there are (at most `K`).
    pub fn len(&self) -> usize {
        self.len
    }

    /// `true` when there are none (only for `K == 0`: "no route" is an error).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The route at rank `index` (0 is the best).
    pub fn get(&self, index: usize) -> Option<&Route<'r>> {
        self.routes.get(index).and_then(Option::as_ref)
    }

    /// The best route.
    pub fn first(&self) -> Option<&Route<'r>> {
        self.get(0)
    }

    /// The routes, best first.
    pub fn iter(&self) -> core::iter::Flatten<core::slice::Iter<'_, Option<Route<'r>>>> {
        self.routes.iter().flatten()
    }
}

impl<'a, 'r, const K: usize> IntoIterator for &'a TopN<'r, K> {
    type Item = &'a Route<'r>;
    type IntoIter = core::iter::Flatten<core::slice::Iter<'a, Option<Route<'r>>>>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<const K: usize> TopN<'_, K> {
    /// No routes: a buffer for [`RouteRequest::top_n_into`] to fill.
    pub const fn new() -> Self {
        TopN {
            routes: [None; K],
            len: 0,
        }
    }

    /// Empties the buffer.
    fn clear(&mut self) {
        self.routes = [None; K];
        self.len = 0;
    }
}

impl<const K: usize> Default for TopN<'_, K> {
    fn default() -> Self {
        Self::new()
    }
}

impl RouteRequest<'_> {
    /// The best `K` routes, best first (fewer when fewer are eligible), in an
    /// array: the same routes as [`top`](Self::top)`(rates, K)`, without
    /// allocating.
    ///
    /// The one exception is an ExactOut request whose required input
    /// overflows `Decimal` (amounts near 10^28): then the answer is taken from
    /// the full [`select`](Self::select), which allocates.
    ///
    /// Inlined around [`top_n_into`](Self::top_n_into), so that the caller's
    /// result is the buffer the routes are written to (out of line, the
    /// `K` routes were built aside and copied out: 400 bytes for `K = 5`,
    /// measured at 10-15 ns of `top_n::<5>` over 8 and 64 rates). To reuse
    /// one buffer across calls, call `top_n_into` directly.
    ///
    /// # Errors
    /// [`NoRoute`] when every rate is excluded, whatever `K` is.
    #[inline]
    pub fn top_n<'r, const K: usize>(
        &self,
        rates: &'r (impl RateList + ?Sized),
    ) -> Result<TopN<'r, K>, NoRoute> {
        let mut out = TopN::new();
        self.top_n_into(rates, &mut out)?;
        Ok(out)
    }

    /// [`top_n`](Self::top_n) into `out`, which the caller holds: the routes
    /// are written where they are read, with no copy of the array. `out`'s
    /// earlier contents are replaced; on an error it is left empty.
    ///
    /// ```
    /// use swaproute::route::{RouteRequest, TopN};
    /// use swaproute::{Amount, EpochMillis, RatesResponse};
    /// let rates: RatesResponse = serde_json::from_str(r#"[
    ///   {"amount":{"assetId":"ETH","value":33.1},"expiry":2000000000000,"id":"a",
    ///    "max":{"assetId":"BTC","value":8},"min":{"assetId":"BTC","value":0.001},
    ///    "minerFee":{"assetId":"ETH","value":0.0002},"pairId":"BTC_ETH"},
    ///   {"amount":{"assetId":"ETH","value":33.2},"expiry":2000000000000,"id":"b",
    ///    "max":{"assetId":"BTC","value":8},"min":{"assetId":"BTC","value":0.01},
    ///    "minerFee":{"assetId":"ETH","value":0.0003},"pairId":"BTC_ETH"}
    /// ]"#).unwrap();
    /// let now = EpochMillis::new(1_700_000_000_000);
    /// let mut top = TopN::<3>::new();
    /// for amount in ["0.5", "0.005"] {
    ///     let request = RouteRequest::exact_in(amount.parse::<Amount>().unwrap(), now);
    ///     request.top_n_into(&rates, &mut top).unwrap();
    ///     println!("{amount}: {} routes", top.len());
    /// }
    /// // At 0.005 only "a" accepts the amount (b's minimum is 0.01).
    /// assert_eq!(top.len(), 1);
    /// assert_eq!(top.first().unwrap().rate().id().as_str(), "a");
    /// ```
    ///
    /// # Errors
    /// [`NoRoute`] when every rate is excluded, whatever `K` is (and
    /// [`NoRoute::MixedPairs`] as for [`best`](Self::best)).
    #[inline]
    pub fn top_n_into<'r, const K: usize>(
        &self,
        rates: &'r (impl RateList + ?Sized),
        out: &mut TopN<'r, K>,
    ) -> Result<(), NoRoute> {
        match rates.one_pair() {
            Ok(rates) => self.top_n_into_slice(rates, out),
            Err(mixed) => {
                out.clear();
                Err(NoRoute::MixedPairs(mixed))
            }
        }
    }

    /// [`top_n_into`](Self::top_n_into) over rates known to be one pair's.
    // Not inlined: the whole scan is in here, and inlined into a caller's
    // loop it measured slower (about 8 ns at 64 rates).
    #[inline(never)]
    fn top_n_into_slice<'r, const K: usize>(
        &self,
        rates: &'r [Rate],
        out: &mut TopN<'r, K>,
    ) -> Result<(), NoRoute> {
        out.clear();
        if K == 0 {
            // Nothing to rank, but "no route" is still an answer about the rates.
            return self.best_in(rates).map(|_| ());
        }
        let mut keyed = TopKeysArray::<'r, K>::new();
        let mut plain_slots: [Option<Candidate<'r>>; K] = [None; K];
        match self.top_into(rates, &mut keyed, &mut plain_slots, &mut out.routes) {
            Top::Done(len) => {
                out.len = len;
                Ok(())
            }
            Top::NoRoute(no_route) => {
                out.clear();
                Err(no_route)
            }
            Top::Fallback => self.top_n_by_select(rates, out),
        }
    }

    /// [`top_n_into`](Self::top_n_into) from the full selection.
    #[cold]
    fn top_n_by_select<'r, const K: usize>(
        &self,
        rates: &'r [Rate],
        out: &mut TopN<'r, K>,
    ) -> Result<(), NoRoute> {
        out.clear();
        let routes = self.select_in(rates).into_top(K)?;
        for (slot, route) in out.routes.iter_mut().zip(routes) {
            *slot = Some(route);
            out.len = out.len.saturating_add(1);
        }
        Ok(())
    }
}
