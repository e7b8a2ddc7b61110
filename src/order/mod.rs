//! Orders: requests of both flows, the order resource and status reconciliation.

mod deposit;
mod status;

pub use deposit::{
    DepositTransactionUpdate, InvalidTransactionId, TransactionId, TransactionIdAlreadySet,
    MAX_TRANSACTION_ID_LEN,
};
pub use status::{
    reconcile, reconcile_all, InvalidOrderStatus, Observation, OrderStatus, UnknownStatus,
    MAX_STATUS_LEN,
};
