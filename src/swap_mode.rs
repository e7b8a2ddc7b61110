//! Which side of a swap is exact.

use serde::{Deserialize, Serialize};

/// Which side of a swap is exact (`swapMode`; the service's default is
/// [`SwapMode::ExactIn`]).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize, Deserialize,
)]
pub enum SwapMode {
    /// `fromAmount` is exact; the output is an estimate.
    #[default]
    ExactIn,
    /// `toAmount` is exact; the selected route decides the input.
    ExactOut,
}

crate::text::str_enum!(
    SwapMode,
    parse: SwapMode, "swap mode must be \"ExactIn\" or \"ExactOut\"",
    /// The wire text, `"ExactIn"` or `"ExactOut"`.
    {
        ExactIn => "ExactIn",
        ExactOut => "ExactOut",
    }
);
