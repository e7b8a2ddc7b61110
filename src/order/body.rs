//! The fields both order bodies share, typed, as a builder holds them before
//! handing them to the one validation path (`validate`) as a body would.

use alloc::string::ToString;

use super::loose::{JsonNumber, Loose};
use crate::decimal::Amount;
use crate::rate::PairId;
use crate::screening::{Address, AddressTag};
use crate::slippage::Slippage;

/// The shared fields of a body under construction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Common {
    pub(super) pair_id: PairId,
    pub(super) from_amount: Amount,
    pub(super) to_amount: Amount,
    pub(super) from_address: Option<Address>,
    pub(super) from_address_tag: Option<AddressTag>,
    pub(super) to_address: Address,
    pub(super) to_address_tag: Option<AddressTag>,
    pub(super) slippage: Option<Slippage>,
}

impl Common {
    pub(super) fn new(
        pair_id: PairId,
        from_amount: Amount,
        to_amount: Amount,
        to_address: Address,
    ) -> Self {
        Common {
            pair_id,
            from_amount,
            to_amount,
            from_address: None,
            from_address_tag: None,
            to_address,
            to_address_tag: None,
            slippage: None,
        }
    }

    /// Each key as a client writes it: `pairId`, `fromAmount`,
    /// `fromAddress` (`null` when not set: the key is required), `fromAddressTag`,
    /// `toAmount`, `toAddress`, `toAddressTag`, `slippage`; amounts as strings
    /// without insignificant zeros,
    /// slippage as a number, unset optional keys absent.
    pub(super) fn loose(&self) -> LooseCommon {
        LooseCommon {
            pair_id: Some(text(self.pair_id.as_str())),
            // Without insignificant zeros (`16.5498`, not `16.54980000`);
            // a fixed ExactOut body then writes its fromAmount with 8 places
            // (ruling 52).
            from_amount: Some(Loose::Str(self.from_amount.get().normalize().to_string())),
            from_address: Some(
                self.from_address
                    .as_ref()
                    .map_or(Loose::Null, |address| text(address.as_str())),
            ),
            from_address_tag: self.from_address_tag.as_ref().map(|t| text(t.as_str())),
            to_amount: Some(Loose::Str(self.to_amount.get().normalize().to_string())),
            to_address: Some(text(self.to_address.as_str())),
            to_address_tag: self.to_address_tag.as_ref().map(|t| text(t.as_str())),
            slippage: self.slippage.map(|slippage| {
                Loose::Number(JsonNumber {
                    value: Ok(slippage.percent()),
                    whole: None,
                })
            }),
        }
    }
}

/// [`Common`]'s keys as a decoded body holds them.
pub(super) struct LooseCommon {
    pub(super) pair_id: Option<Loose>,
    pub(super) from_amount: Option<Loose>,
    pub(super) from_address: Option<Loose>,
    pub(super) from_address_tag: Option<Loose>,
    pub(super) to_amount: Option<Loose>,
    pub(super) to_address: Option<Loose>,
    pub(super) to_address_tag: Option<Loose>,
    pub(super) slippage: Option<Loose>,
}

fn text(value: &str) -> Loose {
    Loose::Str(value.into())
}

/// The setters both builders share: the fields of [`Common`], one place.
macro_rules! common_setters {
    () => {
        /// `fromAddress` (written as `null` until set, for providers that
        /// collect the sender's address later).
        #[must_use]
        pub fn from_address(mut self, address: crate::screening::Address) -> Self {
            self.common.from_address = Some(address);
            self
        }

        /// `fromAddressTag`.
        #[must_use]
        pub fn from_address_tag(mut self, tag: crate::screening::AddressTag) -> Self {
            self.common.from_address_tag = Some(tag);
            self
        }

        /// `toAddressTag`.
        #[must_use]
        pub fn to_address_tag(mut self, tag: crate::screening::AddressTag) -> Self {
            self.common.to_address_tag = Some(tag);
            self
        }

        /// `slippage`, written as a number (the service uses 2 when absent).
        #[must_use]
        pub fn slippage(mut self, slippage: crate::slippage::Slippage) -> Self {
            self.common.slippage = Some(slippage);
            self
        }
    };
}

pub(super) use common_setters;
