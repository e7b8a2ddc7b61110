//! A rate: one provider's offer for a pair.

use alloc::boxed::Box;
use alloc::vec::Vec;
use core::fmt;

use rust_decimal::Decimal;
use serde::ser::SerializeStruct;
use serde::{Deserialize, Serialize, Serializer};

use super::lenient::{LenientAmount, UnheldAmount};
use super::prepared::{Compact, Numbers, Prepared};
use super::{AssetAmount, CampaignLimits, Features, UnheldValue};
use crate::ids::{AssetId, CampaignId, RateId};
use crate::rate::PairId;
use crate::time::EpochMillis;
use crate::wire::present;

/// One entry of a rates response (`GET /v3/pairs/:pairId/rates`):
///
/// ```json
/// {"amount":{"assetId":"ETH","value":33.14218692377834},"expiry":1785333919000,
///  "id":"…","max":{"assetId":"BTC","value":8.33028657},
///  "min":{"assetId":"BTC","value":0.00079787},
///  "minerFee":{"assetId":"ETH","value":0.00019192},"pairId":"BTC_ETH",
///  "features":[],"sponsoredByCampaignId":null}
/// ```
///
/// A decoded rate holds whatever numbers and asset ids the service sent.
/// Whether they make sense (rulings 2 and 18 in docs/RULES.md) is
/// [`Rate::defect`]'s question: the engine reports a rate with a defect as
/// invalid and never selects it, while the other rates of the response stay
/// usable. Unknown keys are ignored.
///
/// `features` and `sponsoredByCampaignId` may be absent, `null`, or set; a
/// decoded rate remembers which, so encoding it again gives the same JSON value
/// (ruling 22): `"features":[]` stays, `"sponsoredByCampaignId":null` stays,
/// an absent key stays absent. Equality compares what the rate means, not
/// that spelling: a rate decoded with `"features":[]` equals the same rate
/// decoded without the key.
#[derive(Clone, Deserialize)]
#[serde(from = "RateWire")]
pub struct Rate {
    amount: AssetAmount,
    expiry: EpochMillis,
    id: RateId,
    max: AssetAmount,
    min: AssetAmount,
    miner_fee: AssetAmount,
    pair_id: PairId,
    features: Features,
    sponsored_by_campaign_id: Option<CampaignId>,
    /// Values no `Decimal` holds (ruling 44), each with its field, in field
    /// order; the field's `AssetAmount` holds zero in its place. Empty (no
    /// allocation) for every rate but a defective one.
    unheld: Box<[(RateField, UnheldValue)]>,
    /// The caller stated the ExactOut capability ([`Rate::assume_exact_out`],
    /// ruling 4); the wire's `features` are left as sent.
    exact_out_assumed: bool,
    /// How the optional keys were spelled on the wire.
    keys: OptionalKeys,
    /// The ranking fast path's form of the numbers above, kept in step by
    /// every constructor and setter.
    prepared: Prepared,
}

/// How an optional key of a rate was spelled on the wire.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
enum KeyForm {
    /// Not there (and a rate built in code).
    #[default]
    Absent,
    /// `null`.
    Null,
    /// A value (for `features`, possibly `[]`).
    Value,
    /// `""`: an empty optional id, read as absent (ruling 44).
    Empty,
}

impl KeyForm {
    fn of<T>(wire: Option<&Option<T>>) -> Self {
        match wire {
            None => KeyForm::Absent,
            Some(None) => KeyForm::Null,
            Some(Some(_)) => KeyForm::Value,
        }
    }
}

/// The spelling of `features` and `sponsoredByCampaignId` as decoded.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
struct OptionalKeys {
    features: KeyForm,
    sponsored_by_campaign_id: KeyForm,
}

/// The wire shape of a rate; decoding goes through it to compute the cache.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct RateWire {
    amount: LenientAmount,
    expiry: EpochMillis,
    id: RateId,
    max: LenientAmount,
    min: LenientAmount,
    miner_fee: LenientAmount,
    pair_id: PairId,
    // `None`: absent; `Some(None)`: `null`. Three cases, as on the wire.
    #[allow(clippy::option_option)]
    #[serde(default, deserialize_with = "present")]
    features: Option<Option<Features>>,
    #[allow(clippy::option_option)]
    #[serde(default, deserialize_with = "present")]
    sponsored_by_campaign_id: Option<Option<OptionalCampaign>>,
}

/// A campaign id where `""` stands for none (ruling 44: the service writes
/// `""` for empty ids).
struct OptionalCampaign(Option<CampaignId>);

impl<'de> Deserialize<'de> for OptionalCampaign {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl serde::de::Visitor<'_> for Visitor {
            type Value = OptionalCampaign;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a campaign id")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<OptionalCampaign, E> {
                if v.is_empty() {
                    return Ok(OptionalCampaign(None));
                }
                CampaignId::new(v)
                    .map(|id| OptionalCampaign(Some(id)))
                    .map_err(E::custom)
            }
        }
        deserializer.deserialize_str(Visitor)
    }
}

impl From<RateWire> for Rate {
    fn from(wire: RateWire) -> Self {
        let sponsor_form = match &wire.sponsored_by_campaign_id {
            Some(Some(OptionalCampaign(None))) => KeyForm::Empty,
            other => KeyForm::of(other.as_ref()),
        };
        let keys = OptionalKeys {
            features: KeyForm::of(wire.features.as_ref()),
            sponsored_by_campaign_id: sponsor_form,
        };
        let mut unheld = Vec::new();
        let mut take = |field: RateField, amount: LenientAmount| {
            let (amount, value) = amount.split();
            if let Some(value) = value {
                unheld.push((field, value));
            }
            amount
        };
        let amount = take(RateField::Amount, wire.amount);
        let max = take(RateField::Max, wire.max);
        let min = take(RateField::Min, wire.min);
        let miner_fee = take(RateField::MinerFee, wire.miner_fee);
        unheld.sort_by_key(|(field, _)| *field);
        Rate {
            amount,
            expiry: wire.expiry,
            id: wire.id,
            max,
            min,
            miner_fee,
            pair_id: wire.pair_id,
            features: wire.features.flatten().unwrap_or_default(),
            sponsored_by_campaign_id: wire.sponsored_by_campaign_id.flatten().and_then(|c| c.0),
            unheld: unheld.into_boxed_slice(),
            exact_out_assumed: false,
            keys,
            prepared: Prepared::default(),
        }
        .prepare()
    }
}

impl Serialize for Rate {
    /// The wire shape, keys in the service's order; `features` and
    /// `sponsoredByCampaignId` as they were decoded (ruling 22), and written
    /// whenever they hold a value.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let features = !self.features.is_empty() || self.keys.features != KeyForm::Absent;
        let sponsor = self.sponsored_by_campaign_id.is_some()
            || self.keys.sponsored_by_campaign_id != KeyForm::Absent;
        let len = 7usize
            .saturating_add(usize::from(features))
            .saturating_add(usize::from(sponsor));
        let mut out = serializer.serialize_struct("Rate", len)?;
        self.serialize_amount(&mut out, "amount", RateField::Amount, &self.amount)?;
        out.serialize_field("expiry", &self.expiry)?;
        out.serialize_field("id", &self.id)?;
        self.serialize_amount(&mut out, "max", RateField::Max, &self.max)?;
        self.serialize_amount(&mut out, "min", RateField::Min, &self.min)?;
        self.serialize_amount(&mut out, "minerFee", RateField::MinerFee, &self.miner_fee)?;
        out.serialize_field("pairId", &self.pair_id)?;
        if features {
            if self.features.is_empty() && self.keys.features == KeyForm::Null {
                out.serialize_field("features", &())?;
            } else {
                out.serialize_field("features", &self.features)?;
            }
        }
        if sponsor {
            if self.sponsored_by_campaign_id.is_none()
                && self.keys.sponsored_by_campaign_id == KeyForm::Empty
            {
                out.serialize_field("sponsoredByCampaignId", "")?;
            } else {
                out.serialize_field("sponsoredByCampaignId", &self.sponsored_by_campaign_id)?;
            }
        }
        out.end()
    }
}

impl Rate {
    /// One `{assetId, value}` object: the unheld value as sent when there
    /// is one (ruling 44), else the amount.
    fn serialize_amount<S: SerializeStruct>(
        &self,
        out: &mut S,
        key: &'static str,
        field: RateField,
        amount: &AssetAmount,
    ) -> Result<(), S::Error> {
        match self.unheld_value(field) {
            Some(value) => out.serialize_field(
                key,
                &UnheldAmount {
                    asset_id: &amount.asset_id,
                    value,
                },
            ),
            None => out.serialize_field(key, amount),
        }
    }
}

impl PartialEq for Rate {
    /// The rate's fields; the wire spelling of its optional keys is not part
    /// of what it means, and the cache is derived from the fields.
    fn eq(&self, other: &Self) -> bool {
        self.amount == other.amount
            && self.expiry == other.expiry
            && self.id == other.id
            && self.max == other.max
            && self.min == other.min
            && self.miner_fee == other.miner_fee
            && self.pair_id == other.pair_id
            && self.features == other.features
            && self.sponsored_by_campaign_id == other.sponsored_by_campaign_id
            && self.unheld == other.unheld
            && self.exact_out_assumed == other.exact_out_assumed
    }
}

impl Eq for Rate {}

// The cache is left out on purpose: it is derived from the other fields.
#[allow(clippy::missing_fields_in_debug)]
impl fmt::Debug for Rate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The cache is derived data: the same fields as a derived impl, without it.
        f.debug_struct("Rate")
            .field("amount", &self.amount)
            .field("expiry", &self.expiry)
            .field("id", &self.id)
            .field("max", &self.max)
            .field("min", &self.min)
            .field("miner_fee", &self.miner_fee)
            .field("pair_id", &self.pair_id)
            .field("features", &self.features)
            .field("sponsored_by_campaign_id", &self.sponsored_by_campaign_id)
            .field("unheld", &self.unheld)
            .field("exact_out_assumed", &self.exact_out_assumed)
            .finish()
    }
}

/// The numbers of a rate, for [`Rate::new`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RateTerms {
    /// Multiplier applied to the from amount (`amount.value`).
    pub multiplier: Decimal,
    /// Miner fee, to-asset unit (`minerFee.value`).
    pub miner_fee: Decimal,
    /// Lower limit, from-asset unit (`min.value`).
    pub min: Decimal,
    /// Upper limit, from-asset unit (`max.value`).
    pub max: Decimal,
}

/// Which asset-carrying object of a rate an [`RateDefect::AssetMismatch`] is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RateField {
    /// `amount` (the multiplier): in the pair's to asset.
    Amount,
    /// `minerFee`: in the pair's to asset.
    MinerFee,
    /// `min`: in the pair's from asset.
    Min,
    /// `max`: in the pair's from asset.
    Max,
}

impl RateField {
    /// `true` for the fields in the pair's from asset (`min`, `max`).
    pub const fn is_from_side(self) -> bool {
        matches!(self, RateField::Min | RateField::Max)
    }
}

crate::text::str_enum!(
    RateField,
    /// The wire key, e.g. `"minerFee"`.
    {
        Amount => "amount",
        MinerFee => "minerFee",
        Min => "min",
        Max => "max",
    }
);

/// Why a rate is unusable (rulings 2 and 18 in docs/RULES.md).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RateDefect {
    /// A value no `Decimal` holds exactly (ruling 44: more than 28 places,
    /// out of range, or a string outside the amount grammar), e.g. a
    /// multiplier of `6.441788833519116e-14` (29 places). The rate keeps
    /// the value as sent; the response's other rates stay usable.
    #[error("{field}.value {value} cannot be held exactly: {reason}", reason = value.reason())]
    UnheldValue {
        /// The object whose value it is.
        field: RateField,
        /// The value as sent.
        value: UnheldValue,
    },
    /// An object names another asset than the pair requires for it: `amount`
    /// and `minerFee` are in the pair's to asset, `min` and `max` in its from
    /// asset (ruling 18). Such a rate's numbers are not of its pair at all.
    #[error(
        "{field}.assetId is {named}, but the pair's {side} asset is {required}",
        side = if field.is_from_side() { "from" } else { "to" }
    )]
    AssetMismatch {
        /// The object that names the wrong asset.
        field: RateField,
        /// The asset it named.
        named: AssetId,
        /// The asset the pair requires there.
        required: AssetId,
    },
    /// The multiplier is zero or negative.
    #[error("multiplier {0} is not positive")]
    NonPositiveMultiplier(Decimal),
    /// The miner fee is negative.
    #[error("miner fee {0} is negative")]
    NegativeMinerFee(Decimal),
    /// The lower limit is negative.
    #[error("min {0} is negative")]
    NegativeMin(Decimal),
    /// The lower limit exceeds the upper limit.
    #[error("min {min} is above max {max}")]
    MinAboveMax {
        /// The lower limit.
        min: Decimal,
        /// The upper limit.
        max: Decimal,
    },
}

impl Rate {
    /// A rate for `pair_id` (assets taken from the pair: limits in the from
    /// asset, multiplier and fee in the to asset), without features or sponsor.
    ///
    /// ```
    /// use swaproute::{Rate, RateTerms, RateId, PairId, EpochMillis, decimal::Decimal};
    /// let d = |s: &str| s.parse::<Decimal>().unwrap();
    /// let rate = Rate::new(
    ///     RateId::new("r1").unwrap(),
    ///     PairId::new("BTC_ETH").unwrap(),
    ///     RateTerms { multiplier: d("33.1"), miner_fee: d("0.0002"), min: d("0.001"), max: d("8") },
    ///     EpochMillis::new(1_785_333_919_000),
    /// );
    /// assert_eq!(rate.min(), d("0.001"));
    /// assert!(rate.defect().is_none());
    /// ```
    pub fn new(id: RateId, pair_id: PairId, terms: RateTerms, expiry: EpochMillis) -> Self {
        let from = pair_id.from().clone();
        let to = pair_id.to().clone();
        Rate {
            amount: AssetAmount::new(to.clone(), terms.multiplier),
            expiry,
            id,
            max: AssetAmount::new(from.clone(), terms.max),
            min: AssetAmount::new(from, terms.min),
            miner_fee: AssetAmount::new(to, terms.miner_fee),
            pair_id,
            features: Features::new(),
            sponsored_by_campaign_id: None,
            unheld: Box::default(),
            exact_out_assumed: false,
            keys: OptionalKeys::default(),
            prepared: Prepared::default(),
        }
        .prepare()
    }

    /// Recomputes the fast path's cache from the fields.
    fn prepare(mut self) -> Self {
        self.refresh();
        self
    }

    fn refresh(&mut self) {
        self.prepared = Prepared::new(&Numbers {
            multiplier: self.multiplier(),
            fee: self.miner_fee(),
            min: self.min(),
            max: self.max(),
            expiry: self.expiry.as_millis(),
            usable: self.defect().is_none(),
            exact_out: self.supports_exact_out(),
            sponsored: self.is_sponsored(),
        });
    }

    /// The fast path's form of the numbers.
    pub(crate) fn prepared(&self) -> &Prepared {
        &self.prepared
    }

    /// The compact ranking record of the rate (issue 35), built from the
    /// prepared form (a negative fee's mantissa does not fit: no record
    /// decides such a rate).
    pub(crate) fn compact(&self) -> Compact {
        let fee = u128::try_from(self.miner_fee().mantissa()).unwrap_or(u128::MAX);
        Compact::new(&self.prepared, fee)
    }

    /// The same rate as a variant sponsored by `campaign`.
    #[must_use]
    pub fn sponsored_by(mut self, campaign: CampaignId) -> Self {
        self.sponsored_by_campaign_id = Some(campaign);
        self.prepare()
    }

    /// The same rate with the ExactOut capability set or cleared (ruling 4 in docs/RULES.md:
    /// the caller may know better than the wire's `features`).
    #[must_use]
    pub fn with_exact_out(mut self, supported: bool) -> Self {
        self.set_exact_out(supported);
        self
    }

    /// Sets or clears the ExactOut capability in place.
    pub fn set_exact_out(&mut self, supported: bool) {
        self.features.set_exact_out(supported);
        self.refresh();
    }

    /// The rate's id.
    pub fn id(&self) -> &RateId {
        &self.id
    }

    /// The pair.
    pub fn pair_id(&self) -> &PairId {
        &self.pair_id
    }

    /// Multiplier applied to the from amount (`amount.value`, to-asset per from-asset).
    pub fn multiplier(&self) -> Decimal {
        self.amount.value
    }

    /// Miner fee (`minerFee.value`), to-asset unit.
    pub fn miner_fee(&self) -> Decimal {
        self.miner_fee.value
    }

    /// Provider's lower limit (`min.value`), from-asset unit.
    pub fn min(&self) -> Decimal {
        self.min.value
    }

    /// Provider's upper limit (`max.value`), from-asset unit, before any campaign cap.
    pub fn max(&self) -> Decimal {
        self.max.value
    }

    /// The upper limit that applies: `min(max, campaign limit)` for a sponsored
    /// variant whose campaign limit is known, `max` otherwise.
    pub fn effective_max(&self, campaigns: &CampaignLimits) -> Decimal {
        match self
            .sponsored_by_campaign_id
            .as_ref()
            .and_then(|c| campaigns.limit(c))
        {
            Some(limit) if limit < self.max.value => limit,
            _ => self.max.value,
        }
    }

    /// The whole `amount` object (multiplier with its asset).
    pub fn amount(&self) -> &AssetAmount {
        &self.amount
    }

    /// The whole `minerFee` object.
    pub fn miner_fee_amount(&self) -> &AssetAmount {
        &self.miner_fee
    }

    /// The whole `min` object.
    pub fn min_amount(&self) -> &AssetAmount {
        &self.min
    }

    /// The whole `max` object.
    pub fn max_amount(&self) -> &AssetAmount {
        &self.max
    }

    /// When the rate stops being valid; it is expired at `now >= expiry`.
    pub fn expiry(&self) -> EpochMillis {
        self.expiry
    }

    /// `true` when expired at `now` (`expiry <= now`).
    pub fn is_expired_at(&self, now: EpochMillis) -> bool {
        self.expiry <= now
    }

    /// The `features` list.
    pub fn features(&self) -> &Features {
        &self.features
    }

    /// `true` when the provider supports exact output: `"exactOut"` in
    /// `features`, or the caller stated it ([`assume_exact_out`](Self::assume_exact_out)).
    pub fn supports_exact_out(&self) -> bool {
        self.features.exact_out() || self.exact_out_assumed
    }

    /// The same rate taken as ExactOut-capable on the caller's word (ruling
    /// 4: the capability is the provider's, and the caller may know it when
    /// the wire's `features` do not say; no live rate lists `"exactOut"`).
    /// A sponsored variant is left as it is (ruling 3: never selected in
    /// ExactOut). The wire form is unchanged: `features` encode as sent.
    /// [`is_exact_out_assumed`](Self::is_exact_out_assumed) says the
    /// capability was assumed, so an answer that used the rate can say so.
    #[must_use]
    pub fn assume_exact_out(mut self) -> Self {
        if !self.is_sponsored() && !self.features.exact_out() {
            self.exact_out_assumed = true;
            self.refresh();
        }
        self
    }

    /// `true` when the rate supports ExactOut only because the caller
    /// assumed it ([`assume_exact_out`](Self::assume_exact_out)).
    pub fn is_exact_out_assumed(&self) -> bool {
        self.exact_out_assumed
    }

    /// The value of `field` as sent when no `Decimal` holds it (ruling 44);
    /// the field's accessor then reads zero and [`defect`](Self::defect)
    /// reports [`RateDefect::UnheldValue`].
    pub fn unheld_value(&self, field: RateField) -> Option<&UnheldValue> {
        self.unheld
            .iter()
            .find(|(f, _)| *f == field)
            .map(|(_, value)| value)
    }

    /// The sponsoring campaign of a sponsored variant.
    pub fn sponsored_by_campaign_id(&self) -> Option<&CampaignId> {
        self.sponsored_by_campaign_id.as_ref()
    }

    /// `true` for a campaign-sponsored variant.
    pub fn is_sponsored(&self) -> bool {
        self.sponsored_by_campaign_id.is_some()
    }

    /// The first broken rule, or `None` for a usable rate: first a value no
    /// `Decimal` holds (ruling 44, in field order), then the assets
    /// (ruling 18: `amount`, `minerFee`, `min`, `max` in that order, each in the
    /// asset its side of the pair requires), then the numbers (ruling 2:
    /// multiplier > 0, miner fee ≥ 0, 0 ≤ min ≤ max).
    ///
    /// ```
    /// use swaproute::{Rate, RateDefect};
    /// let rate: Rate = serde_json::from_str(r#"{"amount":{"assetId":"DOGE","value":900000},
    ///   "expiry":1785333919000,"id":"liar","max":{"assetId":"BTC","value":8},
    ///   "min":{"assetId":"BTC","value":0.001},"minerFee":{"assetId":"ETH","value":0},
    ///   "pairId":"BTC_ETH"}"#).unwrap();
    /// let defect = rate.defect().unwrap();
    /// assert!(matches!(defect, RateDefect::AssetMismatch { .. }));
    /// assert_eq!(defect.to_string(), "amount.assetId is DOGE, but the pair's to asset is ETH");
    /// ```
    pub fn defect(&self) -> Option<RateDefect> {
        if let Some((field, value)) = self.unheld.first() {
            return Some(RateDefect::UnheldValue {
                field: *field,
                value: value.clone(),
            });
        }
        let (from, to) = (self.pair_id.from(), self.pair_id.to());
        for (field, object, required) in [
            (RateField::Amount, &self.amount, to),
            (RateField::MinerFee, &self.miner_fee, to),
            (RateField::Min, &self.min, from),
            (RateField::Max, &self.max, from),
        ] {
            if object.asset_id != *required {
                return Some(RateDefect::AssetMismatch {
                    field,
                    named: object.asset_id.clone(),
                    required: required.clone(),
                });
            }
        }
        let (multiplier, fee, min, max) =
            (self.multiplier(), self.miner_fee(), self.min(), self.max());
        if multiplier <= Decimal::ZERO {
            Some(RateDefect::NonPositiveMultiplier(multiplier))
        } else if fee < Decimal::ZERO {
            Some(RateDefect::NegativeMinerFee(fee))
        } else if min < Decimal::ZERO {
            Some(RateDefect::NegativeMin(min))
        } else if min > max {
            Some(RateDefect::MinAboveMax { min, max })
        } else {
            None
        }
    }
}

impl fmt::Display for Rate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "rate {} ({}): ×{} − {} fee, limits [{}, {}]",
            self.id,
            self.pair_id,
            self.multiplier(),
            self.miner_fee(),
            self.min(),
            self.max()
        )
    }
}
