//! `POST /v4/quotes`: the request body as sent and the validated request.

use alloc::collections::BTreeSet;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use serde::{Deserialize, Serialize};

use super::signing::network_kind;
use super::SigningNetwork;
use crate::caip::{AssetDirectory, AssetRef, ChainId, ResolvedAsset};
#[cfg(feature = "json")]
use crate::decimal::parse_amount;
use crate::decimal::Amount;
use crate::decimal::WireNumber;
use crate::error::{ApiError, ErrorCode};
#[cfg(feature = "json")]
use crate::order::loose::Loose;
use crate::order::Parties;
#[cfg(feature = "json")]
use crate::order::{FieldError, RequestErrors};
use crate::screening::{
    Address, AddressField, AddressTag, RegionCode, ScreeningError, ScreeningPolicy,
    ScreeningRequest, TagWarning,
};
use crate::slippage::Slippage;
use crate::swap_mode::SwapMode;
#[cfg(feature = "json")]
use crate::wire::{present, RequestField};

/// The body of `POST /v4/quotes` as a client sends it (camelCase JSON).
///
/// ```json
/// {
///   "fromAsset": "eip155:1/slip44:60",
///   "toAsset": "BTC",
///   "amount": "1.5",
///   "swapMode": "ExactIn",
///   "slippage": 0.5,
///   "fromAddress": "0x…",
///   "toAddress": "bc1q…"
/// }
/// ```
///
/// | key | type | required | meaning |
/// |---|---|---|---|
/// | `fromAsset`, `toAsset` | string, legacy id or CAIP-19 asset type | yes | see [`AssetRef`] |
/// | `amount` | decimal string or JSON number, > 0 | yes | `fromAsset` units in ExactIn, `toAsset` units in ExactOut |
/// | `swapMode` | `"ExactIn"` or `"ExactOut"` | no, default `ExactIn` | which side is exact |
/// | `slippage` | percentage, number or numeric string, 0–100 | no, default 2 | see [`Slippage`] |
/// | `fromAddress` | string or null | no | sender address |
/// | `fromAddressTag`, `toAddressTag` | string | no | memo; `""` is absent |
/// | `toAddress` | string | yes | receiving address |
///
/// Every key decodes leniently (all optional, numbers kept even when malformed)
/// so that [`QuoteRequest::validate`] reports each problem with its stable
/// code; unknown keys are ignored. A body that is not a JSON object of these
/// types at all is [`invalid_body`].
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct QuoteRequestBody {
    /// The asset sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from_asset: Option<String>,
    /// The asset received.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to_asset: Option<String>,
    /// The exact amount: sent in ExactIn, received in ExactOut.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub amount: Option<WireNumber>,
    /// `ExactIn` or `ExactOut`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub swap_mode: Option<String>,
    /// Slippage in percent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slippage: Option<WireNumber>,
    /// The sender's address.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from_address: Option<String>,
    /// The sender's tag or memo.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from_address_tag: Option<String>,
    /// The receiving address.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to_address: Option<String>,
    /// The receiver's tag or memo.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to_address_tag: Option<String>,
}

impl QuoteRequestBody {
    /// Decodes a `POST /v4/quotes` body from its bytes, reporting every key
    /// of the wrong JSON type, before [`QuoteRequest::validate`] checks the
    /// values against the caller's policy.
    ///
    /// Strings are `fromAsset`, `toAsset`, `swapMode`, the addresses and
    /// tags; `amount` and `slippage` are a JSON number or a decimal string (a
    /// malformed one is kept, for `validate` to report with its own code). A
    /// key sent as `null` is absent; unknown keys are ignored.
    ///
    /// ```
    /// use swaproute::wire::RequestField;
    /// use swaproute::v4::QuoteRequestBody;
    ///
    /// let body = QuoteRequestBody::from_json(br#"{"fromAsset":"ETH","toAsset":"BTC","amount":1.5}"#)?;
    /// assert_eq!(body.amount.map(|a| a.value().unwrap().to_string()).as_deref(), Some("1.5"));
    ///
    /// let errors = QuoteRequestBody::from_json(br#"{"fromAsset":1,"amount":true}"#).unwrap_err();
    /// let fields: Vec<_> = errors.all().iter().map(|e| e.field()).collect();
    /// assert_eq!(fields, [RequestField::FromAsset, RequestField::Amount]);
    /// assert_eq!(errors.first().to_string(), "fromAsset: must be a string, not a number");
    ///
    /// let errors = QuoteRequestBody::from_json(b"not json").unwrap_err();
    /// assert_eq!(errors.first().field(), RequestField::Body);
    /// # Ok::<(), swaproute::order::RequestErrors>(())
    /// ```
    ///
    /// # Errors
    /// [`RequestErrors`] (`INVALID_REQUEST`): one `body` error when the bytes
    /// are not JSON, not an object, or repeat a key; else an error for every
    /// key of the wrong JSON type.
    #[cfg(feature = "json")]
    pub fn from_json(bytes: &[u8]) -> Result<Self, RequestErrors> {
        use RequestField as F;
        let raw: LooseQuoteBody = crate::order::loose::from_json(bytes)?;
        let mut errors = Vec::new();
        let mut text = |field: RequestField, value: Option<Loose>| {
            typed(&mut errors, field, value, "a string", |value| match value {
                Loose::Str(text) => Ok(text),
                other => Err(other),
            })
        };
        let from_asset = text(F::FromAsset, raw.from_asset);
        let to_asset = text(F::ToAsset, raw.to_asset);
        let swap_mode = text(F::SwapMode, raw.swap_mode);
        let from_address = text(F::FromAddress, raw.from_address);
        let from_address_tag = text(F::FromAddressTag, raw.from_address_tag);
        let to_address = text(F::ToAddress, raw.to_address);
        let to_address_tag = text(F::ToAddressTag, raw.to_address_tag);
        let mut number = |field: RequestField, value: Option<Loose>| {
            typed(
                &mut errors,
                field,
                value,
                "a decimal string or a number",
                |value| match value {
                    Loose::Str(text) => Ok(WireNumber::from(parse_amount(&text))),
                    Loose::Number(number) => Ok(WireNumber::from(number.value)),
                    other => Err(other),
                },
            )
        };
        let amount = number(F::Amount, raw.amount);
        let slippage = number(F::Slippage, raw.slippage);
        if let Some(errors) = RequestErrors::from_vec(errors) {
            return Err(errors);
        }
        Ok(QuoteRequestBody {
            from_asset,
            to_asset,
            amount,
            swap_mode,
            slippage,
            from_address,
            from_address_tag,
            to_address,
            to_address_tag,
        })
    }
}

/// A key's value read by `read` (which gives back a value of another JSON
/// type); absent or `null` is `None`; a value of another type is an
/// `INVALID_REQUEST` "must be {expected}, not {its type}" added to `errors`.
#[cfg(feature = "json")]
fn typed<T>(
    errors: &mut Vec<FieldError>,
    field: RequestField,
    value: Option<Loose>,
    expected: &str,
    read: impl FnOnce(Loose) -> Result<T, Loose>,
) -> Option<T> {
    match read(value.filter(|value| !matches!(value, Loose::Null))?) {
        Ok(value) => Some(value),
        Err(other) => {
            errors.push(FieldError::new(
                field,
                ErrorCode::InvalidRequest,
                format!("must be {expected}, not {}", other.kind()),
            ));
            None
        }
    }
}

/// [`QuoteRequestBody`]'s keys, any JSON value each (a repeated key is
/// refused by the derived decoder).
#[cfg(feature = "json")]
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct LooseQuoteBody {
    #[serde(default, deserialize_with = "present")]
    from_asset: Option<Loose>,
    #[serde(default, deserialize_with = "present")]
    to_asset: Option<Loose>,
    #[serde(default, deserialize_with = "present")]
    amount: Option<Loose>,
    #[serde(default, deserialize_with = "present")]
    swap_mode: Option<Loose>,
    #[serde(default, deserialize_with = "present")]
    slippage: Option<Loose>,
    #[serde(default, deserialize_with = "present")]
    from_address: Option<Loose>,
    #[serde(default, deserialize_with = "present")]
    from_address_tag: Option<Loose>,
    #[serde(default, deserialize_with = "present")]
    to_address: Option<Loose>,
    #[serde(default, deserialize_with = "present")]
    to_address_tag: Option<Loose>,
}

/// The `INVALID_REQUEST` error for a body that does not decode at all (not JSON,
/// not an object, a key of the wrong JSON type). Pass the decoder's error.
///
/// ```
/// use swaproute::v4::{invalid_body, QuoteRequestBody};
/// let error = serde_json::from_str::<QuoteRequestBody>("[1]").map_err(invalid_body).unwrap_err();
/// assert_eq!(error.code().as_str(), "INVALID_REQUEST");
/// ```
pub fn invalid_body(error: impl fmt::Display) -> ApiError {
    ApiError::new(
        ErrorCode::InvalidRequest,
        format!("invalid request body: {error}"),
    )
}

/// What validation of a V4 quote request needs from the caller.
#[derive(Clone, Copy, Debug)]
pub struct QuotePolicy<'a> {
    /// The known assets and their two ids.
    pub assets: &'a AssetDirectory,
    /// The chains the service supports; assets elsewhere are `UNSUPPORTED_NETWORK`.
    pub supported_chains: &'a BTreeSet<ChainId>,
    /// Address and asset screening, as in V3.
    pub screening: &'a ScreeningPolicy,
    /// The end user's region, when known (from `Forwarded`). `None` is an
    /// unknown region, screened as [`ScreeningPolicy::screen_location`](crate::screening::ScreeningPolicy::screen_location)
    /// says: it passes only when the screening policy restricts no region or
    /// allows unknown ones, and is refused (`RESTRICTED_REGION`) otherwise;
    /// it never skips the check.
    pub region: Option<&'a RegionCode>,
}

/// A validated V4 quote request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuoteRequest {
    from_asset: ResolvedAsset,
    to_asset: ResolvedAsset,
    amount: Amount,
    swap_mode: SwapMode,
    slippage: Slippage,
    parties: Parties,
    tag_warnings: Vec<TagWarning>,
}

fn missing(field: &str) -> ApiError {
    ApiError::new(
        ErrorCode::InvalidRequest,
        format!("missing field `{field}`"),
    )
}

fn resolve(field: &str, text: &str, assets: &AssetDirectory) -> Result<ResolvedAsset, ApiError> {
    let unresolved = |error: &dyn fmt::Display| {
        ApiError::new(ErrorCode::UnresolvedAsset, format!("{field}: {error}"))
    };
    let asset = AssetRef::parse(text).map_err(|e| unresolved(&e))?;
    assets.resolve(&asset).map_err(|e| unresolved(&e))
}

fn supported(
    field: &str,
    asset: &ResolvedAsset,
    chains: &BTreeSet<ChainId>,
) -> Result<(), ApiError> {
    if chains.contains(asset.chain_id()) {
        Ok(())
    } else {
        Err(ApiError::new(
            ErrorCode::UnsupportedNetwork,
            format!("{field}: network {} is not supported", asset.chain_id()),
        ))
    }
}

fn address(field: AddressField, text: &str) -> Result<Address, ApiError> {
    Address::new(text).map_err(|reason| ScreeningError::InvalidAddress { field, reason }.into())
}

fn tag(field: &str, text: Option<&str>) -> Result<Option<AddressTag>, ApiError> {
    text.map_or(Ok(None), AddressTag::new_optional)
        .map_err(|e| ApiError::new(ErrorCode::InvalidRequest, format!("{field}: {e}")))
}

impl QuoteRequest {
    /// Validates `body` against the caller's `policy`. Checks run in this
    /// order and the first failure is reported:
    ///
    /// | # | check | code |
    /// |---|---|---|
    /// | 1 | `fromAsset`, `toAsset`, `amount`, `toAddress` present | `INVALID_REQUEST` naming the field |
    /// | 2 | `swapMode` is `ExactIn` or `ExactOut` (absent or null: `ExactIn`) | `UNSUPPORTED_SWAP_MODE` |
    /// | 3 | `fromAsset` then `toAsset` parse (either form) and are in `policy.assets` | `UNRESOLVED_ASSET` naming the field |
    /// | 4 | the two assets differ (compared after resolution, so `ETH` and `eip155:1/slip44:60` are the same) | `INVALID_REQUEST` |
    /// | 5 | each asset's chain is in `policy.supported_chains` | `UNSUPPORTED_NETWORK` |
    /// | 6 | `amount` is a decimal > 0 | `INVALID_AMOUNT` |
    /// | 7 | `slippage` is a percentage in 0–100 (absent or null: 2) | `INVALID_REQUEST` naming `slippage` |
    /// | 8 | addresses are non-empty visible ASCII; tags are valid | `INVALID_ADDRESS`; `INVALID_REQUEST` for a tag |
    /// | 9 | screening as in V3 ([`ScreeningPolicy::screen`]): region, zero or denylisted address, EVM address syntax, paused asset, closed market | `RESTRICTED_REGION`, `RESTRICTED_ADDRESS` (403), `INVALID_ADDRESS`, `ASSET_PAUSED`, `MARKET_CLOSED` |
    ///
    /// Missing tags for assets that need one become [`QuoteRequest::tag_warnings`].
    ///
    /// # Errors
    /// The first failing check's [`ApiError`], as in the table.
    pub fn validate(body: &QuoteRequestBody, policy: &QuotePolicy<'_>) -> Result<Self, ApiError> {
        let from_text = body
            .from_asset
            .as_deref()
            .ok_or_else(|| missing("fromAsset"))?;
        let to_text = body.to_asset.as_deref().ok_or_else(|| missing("toAsset"))?;
        let amount = body.amount.ok_or_else(|| missing("amount"))?;
        let to_address_text = body
            .to_address
            .as_deref()
            .ok_or_else(|| missing("toAddress"))?;

        let swap_mode = match body.swap_mode.as_deref() {
            None => SwapMode::default(),
            Some(text) => text.parse().map_err(|e| {
                ApiError::new(
                    ErrorCode::UnsupportedSwapMode,
                    format!("swapMode: {e}, got {text:?}"),
                )
            })?,
        };

        let from_asset = resolve("fromAsset", from_text, policy.assets)?;
        let to_asset = resolve("toAsset", to_text, policy.assets)?;
        if from_asset == to_asset {
            return Err(ApiError::new(
                ErrorCode::InvalidRequest,
                format!(
                    "fromAsset and toAsset are the same asset ({})",
                    from_asset.caip19()
                ),
            ));
        }
        supported("fromAsset", &from_asset, policy.supported_chains)?;
        supported("toAsset", &to_asset, policy.supported_chains)?;

        let amount = amount
            .value()
            .and_then(Amount::new)
            .map_err(|e| ApiError::new(ErrorCode::InvalidAmount, format!("amount: {e}")))?;
        if amount.is_zero() {
            return Err(ApiError::new(
                ErrorCode::InvalidAmount,
                "amount must be greater than zero",
            ));
        }
        let slippage = Slippage::from_wire(body.slippage)?;

        let from_address = body
            .from_address
            .as_deref()
            .map(|t| address(AddressField::FromAddress, t))
            .transpose()?;
        let to_address = address(AddressField::ToAddress, to_address_text)?;
        let from_address_tag = tag("fromAddressTag", body.from_address_tag.as_deref())?;
        let to_address_tag = tag("toAddressTag", body.to_address_tag.as_deref())?;

        let tag_warnings = policy.screening.screen(&ScreeningRequest {
            region: policy.region,
            from_asset: from_asset.legacy(),
            from_network: network_kind(from_asset.chain_id()),
            from_address: from_address.as_ref(),
            from_address_tag: from_address_tag.as_ref(),
            to_asset: to_asset.legacy(),
            to_network: network_kind(to_asset.chain_id()),
            to_address: &to_address,
            to_address_tag: to_address_tag.as_ref(),
        })?;

        Ok(QuoteRequest {
            from_asset,
            to_asset,
            amount,
            swap_mode,
            slippage,
            parties: Parties::new(from_address, from_address_tag, to_address, to_address_tag),
            tag_warnings,
        })
    }

    /// The asset sent.
    pub fn from_asset(&self) -> &ResolvedAsset {
        &self.from_asset
    }

    /// The asset received.
    pub fn to_asset(&self) -> &ResolvedAsset {
        &self.to_asset
    }

    /// The exact amount, greater than zero: in the from asset in ExactIn, in
    /// the to asset in ExactOut.
    pub fn amount(&self) -> Amount {
        self.amount
    }

    /// Which side is exact.
    pub fn swap_mode(&self) -> SwapMode {
        self.swap_mode
    }

    /// The slippage tolerated.
    pub fn slippage(&self) -> Slippage {
        self.slippage
    }

    /// The sender's address, when given.
    pub fn from_address(&self) -> Option<&Address> {
        self.parties.from_address()
    }

    /// The sender's tag, when given.
    pub fn from_address_tag(&self) -> Option<&AddressTag> {
        self.parties.from_address_tag()
    }

    /// The receiving address.
    pub fn to_address(&self) -> &Address {
        self.parties.to_address()
    }

    /// The receiver's tag, when given.
    pub fn to_address_tag(&self) -> Option<&AddressTag> {
        self.parties.to_address_tag()
    }

    /// Missing tags for assets whose deposits need one (warnings, not errors).
    pub fn tag_warnings(&self) -> &[TagWarning] {
        &self.tag_warnings
    }

    /// The family of the source chain when an order from this quote gets
    /// ready-to-sign transactions.
    pub fn signing_network(&self) -> Option<SigningNetwork> {
        SigningNetwork::of_chain(self.from_asset.chain_id())
    }
}
