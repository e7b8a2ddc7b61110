//! The order resource a server answers `POST /v3/orders` (or
//! `POST /v3/orders/float`) with, built from a plan.

use rust_decimal::Decimal;

use super::parties::Parties;
use super::{ExtraFeatures, Order, OrderStatus, Presence, RequestField, SentAmount, SentDecimal};
use super::{Timestamp, ToAmount};
use crate::ids::{CampaignId, OrderId, ProviderOrderId, RateId};
use crate::parse_error::ParseError;
use crate::rate::PairId;
use crate::screening::{Address, AddressTag};
use crate::time::EpochMillis;

/// What a server knows about a new order that its plan does not: the ids it
/// and the provider gave the order, the deposit address the provider
/// returned, and the time of creation. Every combination of values is valid.
///
/// ```
/// use swaproute::order::NewOrder;
/// use swaproute::screening::{Address, AddressTag};
/// use swaproute::{EpochMillis, OrderId, ProviderOrderId};
///
/// let new = NewOrder::new(
///     OrderId::new("u8jzPde0IgxLd6G")?,
///     ProviderOrderId::new("7f26144b-9828-4fcd-99a5-4a7bb1fee08f")?,
///     Address::new("rEb8TK3gBgk5auZkwc6sHnwrGVJH8DuaLh")?,
///     EpochMillis::new(1_773_221_236_204),
/// )
/// .with_pay_in_address_tag(AddressTag::new("3302145")?);
/// assert_eq!(new.pay_in_address_tag.as_ref().map(AddressTag::as_str), Some("3302145"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewOrder {
    /// The new order's id (`id`).
    pub id: OrderId,
    /// The provider's id of the order (`providerOrderId`); `None` is written
    /// as `""`, as the service does when the provider has none.
    pub provider_order_id: Option<ProviderOrderId>,
    /// The address the user sends funds to (`payInAddress`).
    pub pay_in_address: Address,
    /// The deposit's tag or memo (`payInAddressTag`); absent when `None`, as
    /// in the live service's answers.
    pub pay_in_address_tag: Option<AddressTag>,
    /// The creation time: `createdAt` and `updatedAt`.
    pub now: EpochMillis,
}

impl NewOrder {
    /// A new order without a deposit tag.
    pub fn new(
        id: OrderId,
        provider_order_id: ProviderOrderId,
        pay_in_address: Address,
        now: EpochMillis,
    ) -> Self {
        NewOrder {
            id,
            provider_order_id: Some(provider_order_id),
            pay_in_address,
            pay_in_address_tag: None,
            now,
        }
    }

    /// Sets `payInAddressTag`, for assets whose deposits need a memo.
    #[must_use]
    pub fn with_pay_in_address_tag(mut self, tag: AddressTag) -> Self {
        self.pay_in_address_tag = Some(tag);
        self
    }
}

/// Why a plan's order could not be built. Either is the server's own
/// mistake, so it maps to 500 `INTERNAL_ERROR`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ToOrderError {
    /// The request passed is not the one the plan was made from: the named
    /// field differs.
    #[error("{field}: the request is not the one the plan was made from")]
    NotThePlansRequest {
        /// The field that differs.
        field: RequestField,
    },
    /// `now` cannot be written as `createdAt`.
    #[error("createdAt: {0}")]
    Time(#[from] ParseError),
}

/// What a plan contributes to its order.
pub(super) struct Planned<'a> {
    pub(super) pair_id: &'a PairId,
    /// `None` for a floating order: written as `""`.
    pub(super) rate_id: Option<&'a RateId>,
    pub(super) amount: Decimal,
    /// The output, when known.
    pub(super) to_amount: Option<Decimal>,
    pub(super) parties: &'a Parties,
    pub(super) sponsored_by_campaign_id: Option<&'a CampaignId>,
}

/// Refuses a request that differs from the plan in `field`.
pub(super) fn same(field: RequestField, equal: bool) -> Result<(), ToOrderError> {
    if equal {
        Ok(())
    } else {
        Err(ToOrderError::NotThePlansRequest { field })
    }
}

/// The order in the live 201's shape: amounts as strings, `""` for the
/// transaction ids and `message`, `extraFeatures: {}`,
/// `sponsoredByCampaignId` `null` when not sponsored, `fromAddress` `null`
/// when deferred, tags only when they hold a value.
pub(super) fn assemble(planned: &Planned<'_>, new: &NewOrder) -> Result<Order, ToOrderError> {
    let created = Timestamp::try_from(new.now)?;
    let text = |value: &str| Presence::Value(value.into());
    let tag = |tag: Option<&AddressTag>| tag.map(|t| t.as_str().into()).into();
    let parties = planned.parties;
    Ok(Order {
        id: new.id.clone(),
        status: OrderStatus::Awaiting,
        pair_id: planned.pair_id.clone(),
        rate_id: planned
            .rate_id
            .map_or(Presence::Empty, |id| Presence::Value(id.clone())),
        provider_order_id: new
            .provider_order_id
            .clone()
            .map_or(Presence::Empty, Presence::Value),
        amount: Presence::Value(SentAmount {
            asset_id: planned.pair_id.from().clone(),
            value: SentDecimal::Text(planned.amount),
        }),
        to_amount: planned.to_amount.map_or(Presence::Absent, |value| {
            Presence::Value(ToAmount::Asset(SentAmount {
                asset_id: planned.pair_id.to().clone(),
                value: SentDecimal::Text(value),
            }))
        }),
        from_address: parties
            .from_address()
            .map_or(Presence::Null, |address| text(address.as_str())),
        from_address_tag: tag(parties.from_address_tag()),
        to_address: text(parties.to_address().as_str()),
        to_address_tag: tag(parties.to_address_tag()),
        pay_in_address: text(new.pay_in_address.as_str()),
        pay_in_address_tag: tag(new.pay_in_address_tag.as_ref()),
        from_transaction_id: Presence::Empty,
        to_transaction_id: Presence::Empty,
        message: Presence::Empty,
        created_at: Presence::Value(created.clone()),
        updated_at: Presence::Value(created),
        extra_features: Presence::Value(ExtraFeatures::default()),
        sponsored_by_campaign_id: planned
            .sponsored_by_campaign_id
            .map_or(Presence::Null, |id| Presence::Value(id.clone())),
    })
}
