//! The full answer: ranked routes, rejected rates, and "no route".

use alloc::vec::Vec;

use super::{NoRoute, Rejection, Route};

/// Every rate of a selection, ranked or rejected.
///
/// # Ranking order
/// Routes are ranked by (DESIGN rulings 6 and 7):
/// 1. higher net output `fromAmount × multiplier − minerFee` (in ExactOut too: the
///    miner fee is weighed against the client's `fromAmount` estimate);
/// 2. lower miner fee;
/// 3. a base rate before a campaign-sponsored variant;
/// 4. rate id, ascending by bytes.
///
/// The order is total, so the result does not depend on the order of the input.
/// Rejected rates keep input order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Selection<'r> {
    routes: Vec<Route<'r>>,
    rejected: Vec<Rejection<'r>>,
    no_route: Option<NoRoute>,
}

impl<'r> Selection<'r> {
    pub(crate) fn new(
        routes: Vec<Route<'r>>,
        rejected: Vec<Rejection<'r>>,
        no_route: Option<NoRoute>,
    ) -> Self {
        Selection {
            routes,
            rejected,
            no_route,
        }
    }

    /// The best route, if any.
    pub fn best(&self) -> Option<&Route<'r>> {
        self.routes.first()
    }

    /// All eligible routes, best first.
    pub fn routes(&self) -> &[Route<'r>] {
        &self.routes
    }

    /// The best `k` routes (fewer when fewer are eligible).
    pub fn top(&self, k: usize) -> &[Route<'r>] {
        self.routes
            .get(..k.min(self.routes.len()))
            .unwrap_or_default()
    }

    /// The excluded rates with their reasons, in input order.
    pub fn rejected(&self) -> &[Rejection<'r>] {
        &self.rejected
    }

    /// Why no route is left, when none is.
    pub fn no_route(&self) -> Option<&NoRoute> {
        self.no_route.as_ref()
    }

    /// The best route, or why there is none.
    ///
    /// # Errors
    /// [`NoRoute`] when no route is left.
    pub fn into_best(self) -> Result<Route<'r>, NoRoute> {
        match (self.routes.first(), self.no_route) {
            (Some(route), _) => Ok(*route),
            (None, Some(no_route)) => Err(no_route),
            (None, None) => Err(NoRoute::NoRates),
        }
    }

    /// The best `k` routes, or why there is none.
    ///
    /// # Errors
    /// [`NoRoute`] when no route is left.
    pub fn into_top(mut self, k: usize) -> Result<Vec<Route<'r>>, NoRoute> {
        if let Some(no_route) = self.no_route {
            return Err(no_route);
        }
        self.routes.truncate(k);
        Ok(self.routes)
    }
}
