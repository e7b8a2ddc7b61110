//! Orders: requests of both flows, the order resource and status reconciliation.
