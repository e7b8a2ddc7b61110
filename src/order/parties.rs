//! Who sends and who receives: the addresses and tags of an order request.

use alloc::vec::Vec;

use serde::{Serialize, Serializer};

use super::loose::Loose;
use super::validate::{self, collect};
use super::{FieldError, OrderContext, RequestField};
use crate::ids::AssetId;
use crate::screening::{Address, AddressTag, ScreeningError, ScreeningRequest, TagWarning};

/// The sender's and receiver's addresses and tags, validated. Both order flows
/// carry the same four fields with the same rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parties {
    from_address: Option<Address>,
    from_address_tag: Option<AddressTag>,
    to_address: Address,
    to_address_tag: Option<AddressTag>,
}

/// The four wire fields of [`Parties`], as sent.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RawParties<'a> {
    pub(crate) from_address: Option<&'a Loose>,
    pub(crate) from_address_tag: Option<&'a Loose>,
    pub(crate) to_address: Option<&'a Loose>,
    pub(crate) to_address_tag: Option<&'a Loose>,
}

impl Parties {
    /// The four fields, each checked already (a V4 quote request checks them
    /// with its own codes).
    pub(crate) fn new(
        from_address: Option<Address>,
        from_address_tag: Option<AddressTag>,
        to_address: Address,
        to_address_tag: Option<AddressTag>,
    ) -> Self {
        Parties {
            from_address,
            from_address_tag,
            to_address,
            to_address_tag,
        }
    }

    /// Validates the four fields, pushing each problem onto `errors`.
    pub(crate) fn validate(raw: RawParties<'_>, errors: &mut Vec<FieldError>) -> Option<Self> {
        use RequestField as F;
        let from_address = collect(
            errors,
            validate::nullable_address(F::FromAddress, raw.from_address),
        );
        let from_address_tag = collect(
            errors,
            validate::tag(F::FromAddressTag, raw.from_address_tag),
        );
        let to_address = collect(errors, validate::address(F::ToAddress, raw.to_address));
        let to_address_tag = collect(errors, validate::tag(F::ToAddressTag, raw.to_address_tag));
        Some(Parties {
            from_address: from_address?,
            from_address_tag: from_address_tag?,
            to_address: to_address?,
            to_address_tag: to_address_tag?,
        })
    }

    /// `fromAddress`, `None` when sent as `null` (deferred collection).
    pub fn from_address(&self) -> Option<&Address> {
        self.from_address.as_ref()
    }

    /// `fromAddressTag`.
    pub fn from_address_tag(&self) -> Option<&AddressTag> {
        self.from_address_tag.as_ref()
    }

    /// `toAddress`.
    pub fn to_address(&self) -> &Address {
        &self.to_address
    }

    /// `toAddressTag`.
    pub fn to_address_tag(&self) -> Option<&AddressTag> {
        self.to_address_tag.as_ref()
    }

    /// Runs the context's screening for a swap of `from` into `to`: region,
    /// `fromAddress`, `toAddress`, then both assets; on success, the
    /// missing-tag warnings.
    pub(crate) fn screen(
        &self,
        context: &OrderContext<'_>,
        from: &AssetId,
        to: &AssetId,
    ) -> Result<Vec<TagWarning>, ScreeningError> {
        context.screening.screen(&ScreeningRequest {
            region: context.region,
            from_asset: from,
            from_network: context.from_network,
            from_address: self.from_address.as_ref(),
            from_address_tag: self.from_address_tag.as_ref(),
            to_asset: to,
            to_network: context.to_network,
            to_address: &self.to_address,
            to_address_tag: self.to_address_tag.as_ref(),
        })
    }
}

/// `fromAddress` (`null` when absent), `toAddress`, and the tags when present;
/// for `#[serde(flatten)]` into a request body.
impl Serialize for Parties {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        #[serde(rename_all = "camelCase")]
        struct Wire<'a> {
            from_address: Option<&'a str>,
            #[serde(skip_serializing_if = "Option::is_none")]
            from_address_tag: Option<&'a str>,
            to_address: &'a str,
            #[serde(skip_serializing_if = "Option::is_none")]
            to_address_tag: Option<&'a str>,
        }
        Wire {
            from_address: self.from_address.as_ref().map(Address::as_str),
            from_address_tag: self.from_address_tag.as_ref().map(AddressTag::as_str),
            to_address: self.to_address.as_str(),
            to_address_tag: self.to_address_tag.as_ref().map(AddressTag::as_str),
        }
        .serialize(serializer)
    }
}
