//! Check what the provider created (ruling 40 in docs/RULES.md): the order
//! the service returned, against the plan and the request it came from.
//!
//! [`FixedOrderPlan::verify`](super::FixedOrderPlan::verify) and
//! [`FloatOrderPlan::verify`](super::FloatOrderPlan::verify) compare, in
//! this order, and report every difference (never only the first):
//!
//! | field | the order must carry |
//! | --- | --- |
//! | `pairId` | the plan's pair |
//! | `rateId` | the plan's rate (fixed flow only) |
//! | `amount` | the plan's amount, by value (`1.25` is `1.250`), as a string; as a JSON number, that value or its nearest double (ruling 45) |
//! | `amount.assetId` | the pair's from asset |
//! | `toAddress` | the request's, equal in canonical form (ruling 27) |
//! | `toAddressTag` | the request's tag, or none (`""`, `null` and absent are none); tags compared exactly |
//! | `fromAddress` | when the request sent one: equal in canonical form |
//! | `fromAddressTag` | as `toAddressTag` |
//! | `sponsoredByCampaignId` | the plan's campaign, or none |
//! | `toAmount` | when present: at least the bound (ExactIn: `toAmount × (100 − slippage) / 100`, ruling 33, exactly; ExactOut: the exact `toAmount`) |
//! | `toAmount.assetId` | when present as an object: the pair's to asset |
//! | `payInAddress` | a deposit address: see [`DepositDefect`] (ruling 45) |
//! | `status` | on creation ([`OrderRead::Created`]): open, `awaiting`, `inProgress`, `delayed` or `swapped` (ruling 45) |
//!
//! Canonical form (ruling 27): EVM hex, bech32/bech32m and CashAddr compare
//! in lower case (a bare CashAddr and its `bitcoincash:` form are one
//! address); every other encoding compares exactly. A bech32 or CashAddr
//! text that mixes upper and lower case is no address at all (BIP-173), so
//! it never matches. A returned address that is not a valid [`Address`]
//! (empty, non-ASCII look-alikes, spaces, too long) never matches either.

use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

use rust_decimal::Decimal;
use serde::ser::SerializeStruct;
use serde::{Serialize, Serializer};

use super::parties::Parties;
use super::{Order, OrderStatus, Presence, ToAmount};
use crate::error::ErrorCode;
use crate::ids::{AssetId, CampaignId, RateId};
use crate::rate::PairId;
use crate::screening::{
    Address, AddressEncoding, AddressTag, InvalidAddress, NetworkKind, Restriction, ScreeningPolicy,
};
use crate::slippage::{Slippage, SlippageError};
use crate::swap_mode::SwapMode;
use crate::wire::SentDecimal;

/// Which read of the order is verified.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum OrderRead {
    /// The answer to `POST /v3/orders` (or `/float`), HTTP 201: its status
    /// must be open, not definitive (ruling 45: the spec says `awaiting`,
    /// live 201s say `inProgress`).
    #[default]
    Created,
    /// A later `GET /v3/orders/:orderId`: any status.
    Fetched,
}

/// A field of the order resource that verification compares
/// ([`FixedOrderPlan::verify`](super::FixedOrderPlan::verify), ruling 40),
/// in the order the checks run and mismatches are listed.
///
/// | field | the order must carry |
/// | --- | --- |
/// | `pairId` | the plan's pair |
/// | `rateId` | the plan's rate (fixed flow only) |
/// | `amount` | the plan's amount, by value (`1.25` is `1.250`), as a string; as a JSON number, that value or its nearest double (ruling 45) |
/// | `amount.assetId` | the pair's from asset |
/// | `toAddress` | the request's, equal in canonical form (ruling 27) |
/// | `toAddressTag` | the request's tag, or none (`""`, `null` and absent are none); tags compared exactly |
/// | `fromAddress` | when the request sent one: equal in canonical form |
/// | `fromAddressTag` | as `toAddressTag` |
/// | `sponsoredByCampaignId` | the plan's campaign, or none |
/// | `toAmount` | when present: at least the bound (ExactIn: `toAmount × (100 − slippage) / 100`, ruling 33, exactly; ExactOut: the exact `toAmount`) |
/// | `toAmount.assetId` | when present as an object: the pair's to asset |
/// | `payInAddress` | a deposit address: see [`DepositDefect`] (ruling 45) |
/// | `status` | on creation ([`OrderRead::Created`]): open, `awaiting`, `inProgress`, `delayed` or `swapped` (ruling 45) |
///
/// Addresses compare in ruling 27's canonical form: EVM hex, bech32/bech32m
/// and CashAddr in lower case (a bare CashAddr is its `bitcoincash:` form),
/// every other encoding exactly; a mixed-case bech32 or CashAddr text, or a
/// text that is not a valid [`Address`], never matches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum OrderField {
    /// `pairId`.
    PairId,
    /// `rateId`.
    RateId,
    /// `amount` (its value).
    Amount,
    /// `amount.assetId`.
    AmountAsset,
    /// `toAddress`.
    ToAddress,
    /// `toAddressTag`.
    ToAddressTag,
    /// `fromAddress`.
    FromAddress,
    /// `fromAddressTag`.
    FromAddressTag,
    /// `sponsoredByCampaignId`.
    SponsoredByCampaignId,
    /// `toAmount` (its value).
    ToAmount,
    /// `toAmount.assetId`.
    ToAmountAsset,
    /// `payInAddress`.
    PayInAddress,
    /// `status`.
    Status,
}

impl OrderField {
    /// The key as the service writes it (`"amount.assetId"` for the asset
    /// inside `amount`).
    pub const fn as_str(self) -> &'static str {
        match self {
            OrderField::PairId => "pairId",
            OrderField::RateId => "rateId",
            OrderField::Amount => "amount",
            OrderField::AmountAsset => "amount.assetId",
            OrderField::ToAddress => "toAddress",
            OrderField::ToAddressTag => "toAddressTag",
            OrderField::FromAddress => "fromAddress",
            OrderField::FromAddressTag => "fromAddressTag",
            OrderField::SponsoredByCampaignId => "sponsoredByCampaignId",
            OrderField::ToAmount => "toAmount",
            OrderField::ToAmountAsset => "toAmount.assetId",
            OrderField::PayInAddress => "payInAddress",
            OrderField::Status => "status",
        }
    }
}

impl fmt::Display for OrderField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What the plan expected of a field.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Expected {
    /// This value (addresses as the request wrote them; compared in
    /// canonical form).
    Equal(String),
    /// No value: the key absent, `null` or `""`.
    Nothing,
    /// A decimal at least this (ruling 33's bound).
    AtLeast(Decimal),
    /// Any non-empty, valid address.
    NonEmpty,
    /// A deposit address the user may send to (ruling 45); what the
    /// returned one is not.
    DepositAddress(DepositDefect),
    /// An open status on creation: `awaiting`, `inProgress`, `delayed` or
    /// `swapped` (ruling 45).
    OpenStatus,
}

/// Why a created order's `payInAddress` is not one to send funds to (ruling
/// 45), in the order the checks run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum DepositDefect {
    /// Absent, `null` or `""`.
    Missing,
    /// Not an address at all (too long, spaces, non-ASCII look-alikes).
    Malformed(InvalidAddress),
    /// Characters no address format uses: a deposit address is letters and
    /// digits, with at most `:` `.` `-` `_` between them (CashAddr's
    /// prefix, Hedera's `0.0.123`, EOS names), so `"!"` is none.
    Characters,
    /// An address nobody can spend from ([`Address::is_burn`]: the EVM zero
    /// address, Bitcoin's `1111111111111111111114oLvT2`).
    Burn,
    /// Refused by the screening policy (the denylist).
    Restricted(Restriction),
    /// Not an address of the from asset's network (its kind known from the
    /// plan's context), or, where the plan knew the networks, a broken
    /// checksum its shape promises ([`Address::check_shape`]).
    Network(InvalidAddress),
    /// The request's own `toAddress`: the user would pay themselves, the
    /// provider nothing.
    ToAddress,
    /// The request's own `fromAddress`.
    FromAddress,
}

impl fmt::Display for DepositDefect {
    /// What the returned address is, in words that follow "not":
    /// `a burn address`, `the request's toAddress`, ….
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DepositDefect::Missing => f.write_str("no deposit address"),
            DepositDefect::Malformed(reason) => write!(f, "malformed text ({reason})"),
            DepositDefect::Characters => f.write_str("text of no address format"),
            DepositDefect::Burn => f.write_str("a burn address"),
            DepositDefect::Restricted(restriction) => {
                write!(f, "a restricted address ({})", restriction.code())
            }
            DepositDefect::Network(reason) => {
                write!(
                    f,
                    "an invalid address for the from asset's network ({reason})"
                )
            }
            DepositDefect::ToAddress => f.write_str("the request's toAddress"),
            DepositDefect::FromAddress => f.write_str("the request's fromAddress"),
        }
    }
}

impl Expected {
    /// The check's name on the wire: `"equal"`, `"atLeast"`, `"nonEmpty"`,
    /// `"depositAddress"` or `"open"` ([`Nothing`](Self::Nothing) is
    /// `"equal"` with no value).
    pub const fn check(&self) -> &'static str {
        match self {
            Expected::Equal(_) | Expected::Nothing => "equal",
            Expected::AtLeast(_) => "atLeast",
            Expected::NonEmpty => "nonEmpty",
            Expected::DepositAddress(_) => "depositAddress",
            Expected::OpenStatus => "open",
        }
    }

    /// The planned value as text, `None` for [`Nothing`](Self::Nothing)
    /// and [`NonEmpty`](Self::NonEmpty); for
    /// [`DepositAddress`](Self::DepositAddress) the rule's words (`"a
    /// deposit address, not the request's toAddress"`), for
    /// [`OpenStatus`](Self::OpenStatus) the statuses accepted.
    pub fn value(&self) -> Option<String> {
        match self {
            Expected::Equal(text) => Some(text.clone()),
            Expected::AtLeast(bound) => Some(bound.to_string()),
            Expected::Nothing | Expected::NonEmpty => None,
            Expected::DepositAddress(DepositDefect::Missing) => Some("a deposit address".into()),
            Expected::DepositAddress(defect) => {
                Some(alloc::format!("a deposit address, not {defect}"))
            }
            Expected::OpenStatus => Some(OPEN_STATUSES.into()),
        }
    }
}

impl fmt::Display for Expected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Expected::Equal(text) => write!(f, "{text:?}"),
            Expected::Nothing => f.write_str("none"),
            Expected::AtLeast(bound) => write!(f, "at least {bound}"),
            Expected::NonEmpty => f.write_str("a non-empty address"),
            Expected::DepositAddress(DepositDefect::Missing) => f.write_str("a deposit address"),
            Expected::DepositAddress(defect) => write!(f, "a deposit address, not {defect}"),
            Expected::OpenStatus => f.write_str(OPEN_STATUSES),
        }
    }
}

/// The statuses a created order may carry, as [`Expected::OpenStatus`] says them.
const OPEN_STATUSES: &str = "awaiting, inProgress, delayed or swapped";

/// One difference between the plan and the order: the field, what was
/// planned, and what came back (`None`: the key absent, `null` or `""`).
///
/// # JSON
/// `{"field","check","planned","returned"}`: the field's key, the check
/// (`"equal"`, `"atLeast"`, `"nonEmpty"`), the planned value and the
/// returned one as strings or `null`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Mismatch {
    /// The field.
    pub field: OrderField,
    /// What the plan expected.
    pub planned: Expected,
    /// What the order carries, as text (`None`: absent, `null` or `""`);
    /// past 64 characters, its first 64 and `… (N bytes in all)`.
    pub returned: Option<String>,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: planned {}, returned ", self.field, self.planned)?;
        match &self.returned {
            Some(text) => write!(f, "{text:?}"),
            None => f.write_str("none"),
        }
    }
}

impl Serialize for Mismatch {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut out = serializer.serialize_struct("Mismatch", 4)?;
        out.serialize_field("field", self.field.as_str())?;
        out.serialize_field("check", self.planned.check())?;
        out.serialize_field("planned", &self.planned.value())?;
        out.serialize_field("returned", &self.returned)?;
        out.end()
    }
}

/// The order the service returned is not the one planned: every
/// [`Mismatch`], in the order of [`OrderField`]. Never empty.
///
/// As an [`ApiError`](crate::error::ApiError): `PROVIDER_ERROR` (502), since the provider created
/// something else than was asked; no funds should move.
///
/// # JSON
/// The list of mismatches.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the order differs from its plan: {}", Listed(&self.0))]
pub struct OrderMismatches(Vec<Mismatch>);

/// `a; b; c`.
struct Listed<'a>(&'a [Mismatch]);

impl fmt::Display for Listed<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, mismatch) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{mismatch}")?;
        }
        Ok(())
    }
}

impl OrderMismatches {
    /// Every mismatch, in the order of [`OrderField`].
    pub fn all(&self) -> &[Mismatch] {
        &self.0
    }

    /// The fields that differ, in order.
    pub fn fields(&self) -> impl Iterator<Item = OrderField> + '_ {
        self.0.iter().map(|m| m.field)
    }

    /// `PROVIDER_ERROR`.
    pub const fn code(&self) -> ErrorCode {
        ErrorCode::ProviderError
    }
}

impl Serialize for OrderMismatches {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

/// The least `toAmount` an order may carry.
#[derive(Clone, Copy, Debug)]
pub(super) enum ToBound {
    /// ExactIn: the client's estimate under its slippage (ruling 33).
    Slippage {
        /// The request's `toAmount`.
        estimate: crate::decimal::Amount,
        /// The request's slippage.
        slippage: Slippage,
    },
    /// ExactOut: the exact `toAmount`.
    Exact(Decimal),
}

/// What a plan and its request say the order must be.
pub(super) struct Planned<'a> {
    pub(super) pair_id: &'a PairId,
    /// `None` for a floating order: not checked.
    pub(super) rate_id: Option<&'a RateId>,
    pub(super) amount: Decimal,
    pub(super) to_bound: ToBound,
    pub(super) parties: &'a Parties,
    pub(super) sponsored_by_campaign_id: Option<&'a CampaignId>,
    /// The kind of the from asset's network (`Other`: unknown).
    pub(super) from_network: NetworkKind,
    /// Whether the networks were known to the plan (ruling 46): then a
    /// deposit address's shape is held to its checksum too.
    pub(super) networks_known: bool,
    /// The screening policy the deposit address must pass.
    pub(super) screening: &'a ScreeningPolicy,
}

impl ToBound {
    /// The bound of `mode`'s request.
    pub(super) fn of(
        mode: SwapMode,
        to_amount: crate::decimal::Amount,
        slippage: Slippage,
    ) -> Self {
        match mode {
            SwapMode::ExactIn => ToBound::Slippage {
                estimate: to_amount,
                slippage,
            },
            SwapMode::ExactOut => ToBound::Exact(to_amount.get()),
        }
    }

    /// `None` when `value` meets the bound, else the bound to report.
    fn missed(self, value: Decimal, asset: &AssetId) -> Option<Decimal> {
        match self {
            ToBound::Exact(exact) => (value < exact).then_some(exact),
            ToBound::Slippage { estimate, slippage } => {
                match slippage.check_output(estimate, value, asset) {
                    Ok(()) => None,
                    Err(SlippageError::Exceeded(exceeded)) => Some(exceeded.bound),
                    // A bound with more digits than a `Decimal` holds, and
                    // `value` below it (compared exactly): the bound is
                    // reported rounded to `Decimal`'s 28 digits.
                    Err(_) => Some(
                        Decimal::ONE_HUNDRED
                            .checked_sub(slippage.percent())
                            .and_then(|rest| estimate.get().checked_mul(rest))
                            .and_then(|x| x.checked_div(Decimal::ONE_HUNDRED))
                            .unwrap_or(estimate.get()),
                    ),
                }
            }
        }
    }
}

/// Compares `order` with `planned`; every mismatch, in field order.
pub(super) fn verify(
    planned: &Planned<'_>,
    order: &Order,
    read: OrderRead,
) -> Result<(), OrderMismatches> {
    let mut out = Vec::new();
    terms(planned, order, &mut out);
    parties(planned.parties, order, &mut out);
    outcome(planned, order, read, &mut out);
    if out.is_empty() {
        Ok(())
    } else {
        Err(OrderMismatches(out))
    }
}

/// A mismatch; the returned text cut to 64 characters with its length when
/// longer (a provider's 50 MB value is never repeated whole).
fn mismatch(field: OrderField, planned: Expected, returned: Option<String>) -> Mismatch {
    Mismatch {
        field,
        planned,
        returned: returned.map(|text| match crate::text::echo(&text) {
            alloc::borrow::Cow::Borrowed(_) => text,
            alloc::borrow::Cow::Owned(cut) => cut,
        }),
    }
}

/// `pairId`, `rateId`, `amount` and its asset.
fn terms(planned: &Planned<'_>, order: &Order, out: &mut Vec<Mismatch>) {
    let pair = planned.pair_id;
    if order.pair_id != *pair {
        out.push(mismatch(
            OrderField::PairId,
            Expected::Equal(pair.as_str().into()),
            Some(order.pair_id.as_str().into()),
        ));
    }
    if let Some(rate) = planned.rate_id {
        if order.rate_id.value() != Some(rate) {
            out.push(mismatch(
                OrderField::RateId,
                Expected::Equal(rate.as_str().into()),
                order.rate_id.value().map(|id| id.as_str().into()),
            ));
        }
    }
    let amount = order.amount.value();
    if !amount.is_some_and(|a| amount_matches(planned.amount, a.value)) {
        out.push(mismatch(
            OrderField::Amount,
            Expected::Equal(planned.amount.normalize().to_string()),
            amount.map(|a| a.value.get().to_string()),
        ));
    }
    if let Some(sent) = amount.filter(|a| a.asset_id != *pair.from()) {
        out.push(mismatch(
            OrderField::AmountAsset,
            Expected::Equal(pair.from().as_str().into()),
            Some(sent.asset_id.as_str().into()),
        ));
    }
}

/// The addresses and tags (ruling 27).
fn parties(parties: &Parties, order: &Order, out: &mut Vec<Mismatch>) {
    let to = parties.to_address();
    if !same_address(to, &order.to_address) {
        out.push(mismatch(
            OrderField::ToAddress,
            Expected::Equal(to.as_str().into()),
            text_of(&order.to_address),
        ));
    }
    out.extend(tag(
        OrderField::ToAddressTag,
        parties.to_address_tag(),
        &order.to_address_tag,
    ));
    if let Some(from) = parties.from_address() {
        if !same_address(from, &order.from_address) {
            out.push(mismatch(
                OrderField::FromAddress,
                Expected::Equal(from.as_str().into()),
                text_of(&order.from_address),
            ));
        }
    }
    out.extend(tag(
        OrderField::FromAddressTag,
        parties.from_address_tag(),
        &order.from_address_tag,
    ));
}

/// The campaign, `toAmount`, the deposit address and the status.
fn outcome(planned: &Planned<'_>, order: &Order, read: OrderRead, out: &mut Vec<Mismatch>) {
    let pair = planned.pair_id;
    let sponsor = order.sponsored_by_campaign_id.value();
    if sponsor != planned.sponsored_by_campaign_id {
        out.push(mismatch(
            OrderField::SponsoredByCampaignId,
            planned
                .sponsored_by_campaign_id
                .map_or(Expected::Nothing, |id| Expected::Equal(id.as_str().into())),
            sponsor.map(|id| id.as_str().into()),
        ));
    }
    if let Some(to_amount) = order.to_amount.value() {
        let value = to_amount.value();
        if let Some(bound) = planned.to_bound.missed(value, pair.to()) {
            out.push(mismatch(
                OrderField::ToAmount,
                Expected::AtLeast(bound),
                Some(value.to_string()),
            ));
        }
        if let ToAmount::Asset(sent) = to_amount {
            if sent.asset_id != *pair.to() {
                out.push(mismatch(
                    OrderField::ToAmountAsset,
                    Expected::Equal(pair.to().as_str().into()),
                    Some(sent.asset_id.as_str().into()),
                ));
            }
        }
    }
    if let Err(defect) = deposit_address(planned, order) {
        out.push(mismatch(
            OrderField::PayInAddress,
            Expected::DepositAddress(defect),
            text_of(&order.pay_in_address),
        ));
    }
    if read == OrderRead::Created && !open_on_creation(&order.status) {
        out.push(mismatch(
            OrderField::Status,
            Expected::OpenStatus,
            Some(order.status.as_str().into()),
        ));
    }
}

/// A created order's status (ruling 45): not definitive. The open statuses
/// the service is known to write; `complete`, `refunded`, `expired`,
/// `failed` and a status this crate does not know are refused (an unknown
/// status cannot be shown open, and no funds should move on a guess).
fn open_on_creation(status: &OrderStatus) -> bool {
    matches!(
        status,
        OrderStatus::Awaiting
            | OrderStatus::InProgress
            | OrderStatus::Delayed
            | OrderStatus::Swapped
    )
}

/// The returned amount is the plan's: equal by value, or, written as a JSON
/// number, the shortest decimal of the plan's amount's nearest double
/// (ruling 45: a double-based encoder cannot write more than 17 digits).
fn amount_matches(planned: Decimal, returned: SentDecimal) -> bool {
    match returned {
        SentDecimal::Text(value) => value == planned,
        SentDecimal::Number(value) => {
            // The same double: compared by bits, no arithmetic. (With
            // serde_json's `arbitrary_precision` the returned text is kept
            // exactly and may be any text of that double.)
            let double = |d: Decimal| d.to_string().parse::<f64>().ok().map(f64::to_bits);
            value == planned || double(planned).is_some_and(|bits| double(value) == Some(bits))
        }
    }
}

/// The deposit address checks of ruling 45, in [`DepositDefect`]'s order.
fn deposit_address(planned: &Planned<'_>, order: &Order) -> Result<(), DepositDefect> {
    let text = order
        .pay_in_address
        .value()
        .filter(|t| !t.is_empty())
        .ok_or(DepositDefect::Missing)?;
    let address = Address::new(text).map_err(DepositDefect::Malformed)?;
    let alphanumeric = text.bytes().filter(u8::is_ascii_alphanumeric).count();
    let punctuation = text.bytes().filter(|b| b":.-_".contains(b)).count();
    if alphanumeric == 0 || alphanumeric.saturating_add(punctuation) != text.len() {
        return Err(DepositDefect::Characters);
    }
    if address.is_burn() {
        return Err(DepositDefect::Burn);
    }
    if planned.screening.is_denylisted(&address) {
        return Err(DepositDefect::Restricted(Restriction::Denylisted));
    }
    // Where the network is known, checksums too (the shape's promise); where
    // it is not, only the generic rules: the plan says so (ruling 46).
    address
        .check_network(planned.from_network)
        .and_then(|()| {
            if planned.networks_known {
                address.check_shape()
            } else {
                Ok(())
            }
        })
        .map_err(DepositDefect::Network)?;
    let same = |party: &Address| {
        address.encoding() == party.encoding() && address.canonical() == party.canonical()
    };
    if same(planned.parties.to_address()) {
        return Err(DepositDefect::ToAddress);
    }
    if planned.parties.from_address().is_some_and(same) {
        return Err(DepositDefect::FromAddress);
    }
    Ok(())
}

/// The text of an optional key: `None` for absent, `null` and `""`.
fn text_of(presence: &Presence<String>) -> Option<String> {
    presence.value().filter(|t| !t.is_empty()).cloned()
}

/// `planned` and the returned text are one address under ruling 27: the
/// returned text is a valid [`Address`], not a mixed-case bech32 or
/// CashAddr string, and its canonical form is `planned`'s.
fn same_address(planned: &Address, returned: &Presence<String>) -> bool {
    let Some(address) = returned.value().and_then(|t| Address::new(t).ok()) else {
        return false;
    };
    let single_case = match address.encoding() {
        AddressEncoding::Bech32 | AddressEncoding::Bech32m | AddressEncoding::CashAddr => {
            let text = address.as_str();
            !(text.bytes().any(|b| b.is_ascii_uppercase())
                && text.bytes().any(|b| b.is_ascii_lowercase()))
        }
        _ => true,
    };
    single_case
        && address.encoding() == planned.encoding()
        && address.canonical() == planned.canonical()
}

/// A tag mismatch: `planned` (`None`: no tag) against the returned key,
/// where `""`, `null` and absent are no tag and a tag compares exactly.
fn tag(
    field: OrderField,
    planned: Option<&AddressTag>,
    returned: &Presence<String>,
) -> Option<Mismatch> {
    let back = returned.value().filter(|t| !t.is_empty());
    let equal = match (planned, back) {
        (None, None) => true,
        (Some(planned), Some(back)) => planned.as_str() == back.as_str(),
        _ => false,
    };
    (!equal).then(|| {
        mismatch(
            field,
            planned.map_or(Expected::Nothing, |t| Expected::Equal(t.as_str().into())),
            back.cloned(),
        )
    })
}

impl super::FixedOrderPlan<'_> {
    /// Verifies the order the service returned for this plan (ruling 40):
    /// `request` is the body the plan was made from, `order` the 201 body
    /// ([`OrderRead::Created`]) or a later `GET` ([`OrderRead::Fetched`]).
    /// The checks, in [`OrderField`]'s order: the
    /// plan's pair, rate, amount and campaign; the request's addresses and
    /// tags (canonical form, ruling 27); `toAmount` against the request's
    /// slippage bound (ruling 33; in ExactOut, at least the exact
    /// `toAmount`); a deposit address (ruling 45: valid for the from asset's
    /// network when the plan knew it, not a burn address, not the request's
    /// own addresses); an open status on creation.
    ///
    /// ```
    /// use swaproute::order::{FixedOrderRequest, OrderContext, OrderField, OrderRead, Order};
    /// use swaproute::screening::ScreeningPolicy;
    /// use swaproute::{EpochMillis, RatesResponse};
    ///
    /// let rates: RatesResponse = serde_json::from_str(r#"[{"amount":{"assetId":"ETH","value":33.1},
    ///   "expiry":4102444800000,"id":"r-1","max":{"assetId":"BTC","value":8},
    ///   "min":{"assetId":"BTC","value":0.001},"minerFee":{"assetId":"ETH","value":0.0002},
    ///   "pairId":"BTC_ETH"}]"#)?;
    /// let request: FixedOrderRequest = serde_json::from_str(r#"{"pairId":"BTC_ETH","fromAmount":"0.5",
    ///   "fromAddress":null,"toAmount":"16.5","toAddress":"0x52908400098527886E0F7030069857D2E4169EE7"}"#)?;
    /// let policy = ScreeningPolicy::new();
    /// let plan = request.plan(&rates, &OrderContext::new(EpochMillis::new(1_785_000_000_000), &policy))?;
    ///
    /// // The address in lower case is the same EVM address (ruling 27).
    /// let good: Order = serde_json::from_str(r#"{"id":"o-1","status":"awaiting","pairId":"BTC_ETH",
    ///   "rateId":"r-1","amount":{"assetId":"BTC","value":"0.50"},"fromAddress":null,
    ///   "toAddress":"0x52908400098527886e0f7030069857d2e4169ee7",
    ///   "toAmount":{"assetId":"ETH","value":"16.5498"},"payInAddress":"bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh"}"#)?;
    /// assert!(plan.verify(&request, &good, OrderRead::Created).is_ok());
    ///
    /// // Another payout address and a larger amount: both reported.
    /// let bad: Order = serde_json::from_str(r#"{"id":"o-1","status":"awaiting","pairId":"BTC_ETH",
    ///   "rateId":"r-1","amount":{"assetId":"BTC","value":"0.6"},"fromAddress":null,
    ///   "toAddress":"0x52908400098527886E0F7030069857D2E4169EE8",
    ///   "payInAddress":"bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh"}"#)?;
    /// let error = plan.verify(&request, &bad, OrderRead::Created).unwrap_err();
    /// assert_eq!(error.fields().collect::<Vec<_>>(), [OrderField::Amount, OrderField::ToAddress]);
    /// assert_eq!(error.code().as_str(), "PROVIDER_ERROR");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`OrderMismatches`] with every difference.
    pub fn verify(
        &self,
        request: &super::FixedOrderRequest,
        order: &Order,
        read: OrderRead,
    ) -> Result<(), OrderMismatches> {
        self.verify_screened(request, order, read, &ScreeningPolicy::new())
    }

    /// [`verify`](Self::verify), the deposit address also screened by
    /// `screening` (its denylist; ruling 45). Pass the policy the plan was
    /// made under.
    ///
    /// # Errors
    /// [`OrderMismatches`] with every difference.
    pub fn verify_screened(
        &self,
        request: &super::FixedOrderRequest,
        order: &Order,
        read: OrderRead,
        screening: &ScreeningPolicy,
    ) -> Result<(), OrderMismatches> {
        let rate = self.route().rate();
        verify(
            &Planned {
                pair_id: rate.pair_id(),
                rate_id: Some(rate.id()),
                amount: self.amount(),
                to_bound: ToBound::of(request.swap_mode(), request.to_amount(), request.slippage()),
                parties: request.parties(),
                sponsored_by_campaign_id: self.sponsored_by_campaign_id(),
                from_network: self.networks().0,
                networks_known: self.addresses_checked(),
                screening,
            },
            order,
            read,
        )
    }
}

impl super::FloatOrderPlan<'_> {
    /// Verifies the order the service returned for this floating plan
    /// (ruling 40), as [`FixedOrderPlan::verify`](super::FixedOrderPlan::verify)
    /// does, without `rateId` (a floating order has no rate): the quote's
    /// pair, `fromAmount` and campaign; the request's addresses and tags;
    /// `toAmount` at least `toAmount × (100 − slippage) / 100`.
    ///
    /// # Errors
    /// [`OrderMismatches`] with every difference.
    pub fn verify(
        &self,
        request: &super::FloatOrderRequest,
        order: &Order,
        read: OrderRead,
    ) -> Result<(), OrderMismatches> {
        self.verify_screened(request, order, read, &ScreeningPolicy::new())
    }

    /// [`verify`](Self::verify), the deposit address also screened by
    /// `screening` (its denylist; ruling 45).
    ///
    /// # Errors
    /// [`OrderMismatches`] with every difference.
    pub fn verify_screened(
        &self,
        request: &super::FloatOrderRequest,
        order: &Order,
        read: OrderRead,
        screening: &ScreeningPolicy,
    ) -> Result<(), OrderMismatches> {
        verify(
            &Planned {
                pair_id: &self.quote().pair_id,
                rate_id: None,
                amount: self.amount(),
                to_bound: ToBound::of(SwapMode::ExactIn, request.to_amount(), request.slippage()),
                parties: request.parties(),
                sponsored_by_campaign_id: self.sponsored_by_campaign_id(),
                from_network: self.networks().0,
                networks_known: self.addresses_checked(),
                screening,
            },
            order,
            read,
        )
    }
}
