//! The full answer: ranked routes, rejected rates, and "no route".

use alloc::vec::Vec;

use serde::ser::{SerializeSeq, SerializeStruct};
use serde::{Serialize, Serializer};

use super::{NoRoute, Rejection, Route, RouteRequest};
use crate::decimal::Amount;
use crate::swap_mode::SwapMode;

/// Every rate of a selection, ranked or rejected.
///
/// # Ranking order
/// Routes are ranked by (rulings 6 and 7 in docs/RULES.md):
/// 1. higher net output `fromAmount × multiplier − minerFee` (in ExactOut too: the
///    miner fee is weighed against the client's `fromAmount` estimate);
/// 2. lower miner fee;
/// 3. a base rate before a campaign-sponsored variant;
/// 4. rate id, ascending by bytes.
///
/// The order is total, so the result does not depend on the order of the input.
/// Rejected rates keep input order.
///
/// # JSON
/// A selection serializes to the command line's `--json` shape (without its
/// `estimate` and `error`), every decimal as a string:
/// `{"mode","fromAmount","toAmount","routes":[{"rank",…route}],"rejected":[…]}`
/// with each route as [`Route`] and each rejection as [`Rejection`] write
/// themselves; `rank` counts from 1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Selection<'r> {
    mode: SwapMode,
    from_amount: Amount,
    to_amount: Option<Amount>,
    routes: Vec<Route<'r>>,
    rejected: Vec<Rejection<'r>>,
    no_route: Option<NoRoute>,
}

impl<'r> Selection<'r> {
    pub(crate) fn new(
        request: &RouteRequest<'_>,
        routes: Vec<Route<'r>>,
        rejected: Vec<Rejection<'r>>,
        no_route: Option<NoRoute>,
    ) -> Self {
        Selection {
            mode: request.mode(),
            from_amount: request.from_amount(),
            to_amount: request.to_amount(),
            routes,
            rejected,
            no_route,
        }
    }

    /// The swap mode of the request this selection answers.
    pub fn mode(&self) -> SwapMode {
        self.mode
    }

    /// The request's `fromAmount` (the estimate, in ExactOut).
    pub fn from_amount(&self) -> Amount {
        self.from_amount
    }

    /// The request's `toAmount`, when it had one.
    pub fn to_amount(&self) -> Option<Amount> {
        self.to_amount
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

impl Serialize for Selection<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut out = serializer.serialize_struct("Selection", 5)?;
        out.serialize_field("mode", &self.mode)?;
        out.serialize_field("fromAmount", &self.from_amount)?;
        out.serialize_field("toAmount", &self.to_amount)?;
        out.serialize_field("routes", &Ranked(&self.routes))?;
        out.serialize_field("rejected", &self.rejected)?;
        out.end()
    }
}

/// Routes with their rank, best first.
struct Ranked<'a, 'r>(&'a [Route<'r>]);

impl Serialize for Ranked<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.0.len()))?;
        for (rank, route) in (1usize..).zip(self.0) {
            seq.serialize_element(&route.ranked(rank))?;
        }
        seq.end()
    }
}
