//! The top `K` routes for a `K` fixed at compile time, without allocating.

use super::Route;

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

impl<'r, const K: usize> TopN<'r, K> {
    /// No routes: a buffer for [`RouteRequest::top_n_into`](super::RouteRequest::top_n_into) to fill.
    pub const fn new() -> Self {
        TopN {
            routes: [None; K],
            len: 0,
        }
    }

    /// Empties the buffer.
    pub(crate) fn clear(&mut self) {
        self.routes = [None; K];
        self.len = 0;
    }

    /// The slots the engine writes routes to, best first.
    pub(crate) fn slots(&mut self) -> &mut [Option<Route<'r>>] {
        &mut self.routes
    }

    /// Sets how many slots hold routes (after the engine wrote them).
    pub(crate) fn set_len(&mut self, len: usize) {
        self.len = len.min(K);
    }
}

impl<const K: usize> Default for TopN<'_, K> {
    fn default() -> Self {
        Self::new()
    }
}
