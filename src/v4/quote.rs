//! The V4 quote: expiry at `now` and choosing among candidate quotes.

use core::cmp::Ordering;

use serde::{Deserialize, Serialize};

use super::QuoteRequest;
use crate::caip::{AssetDirectory, AssetIdForm, AssetRef, UnresolvedAsset};
use crate::decimal::Amount;
use crate::error::{ApiError, ErrorCode, HttpStatus};
use crate::ids::{CampaignId, QuoteId};
use crate::quote::{QuoteDefect, QuoteField};
use crate::slippage::Slippage;
use crate::swap_mode::SwapMode;
use crate::time::EpochMillis;

/// A V4 quote (response of `POST /v4/quotes`), camelCase JSON. Amounts are
/// decimal strings; `expiry` is epoch milliseconds.
///
/// Not the V3 [`quote::Quote`](crate::quote::Quote) of floating orders: this
/// one names its assets once (`fromAsset`, `toAsset`, in either id form) and
/// carries the swap mode and slippage; the expiry rule is the same
/// ([`is_expired_at`](Self::is_expired_at)).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Quote {
    /// The quote's id.
    pub id: QuoteId,
    /// The asset sent, in the form the response uses.
    pub from_asset: AssetRef,
    /// The asset received, in the form the response uses.
    pub to_asset: AssetRef,
    /// The amount sent.
    pub from_amount: Amount,
    /// The amount received.
    pub to_amount: Amount,
    /// Which side is exact.
    pub swap_mode: SwapMode,
    /// The slippage tolerated.
    pub slippage: Slippage,
    /// The quote is valid strictly before this instant.
    pub expiry: EpochMillis,
    /// Present on campaign-sponsored quotes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sponsored_by_campaign_id: Option<CampaignId>,
}

impl Quote {
    /// Why this quote cannot be used (ruling 32, docs/RULES.md), if it cannot:
    /// `fromAmount`, then `toAmount`, must be positive (the wire type already
    /// refuses a negative one; zero is refused here). A V4 quote names its
    /// assets once ([`from_asset`](Self::from_asset), [`to_asset`](Self::to_asset)),
    /// not per amount, so there is no amount asset to disagree with them.
    pub fn defect(&self) -> Option<QuoteDefect> {
        [
            (QuoteField::FromAmount, self.from_amount),
            (QuoteField::ToAmount, self.to_amount),
        ]
        .into_iter()
        .find(|(_, amount)| amount.is_zero())
        .map(|(field, amount)| QuoteDefect::NotPositive {
            field,
            value: amount.get(),
        })
    }

    /// `true` when expired at `now` (`expiry <= now`, as for rates and for the
    /// V3 [`quote::Quote`](crate::quote::Quote)).
    pub fn is_expired_at(&self, now: EpochMillis) -> bool {
        self.expiry <= now
    }

    /// The former name of [`is_expired_at`](Self::is_expired_at), the name
    /// the same rule has on the V3 quote and on rates.
    #[deprecated(note = "renamed to `is_expired_at`, as on `quote::Quote` and `Rate`")]
    pub fn is_expired(&self, now: EpochMillis) -> bool {
        self.is_expired_at(now)
    }

    /// Refuses a quote that has expired at `now`.
    ///
    /// # Errors
    /// [`QuoteError::Expired`] (`QUOTE_EXPIRED`, 410) when `expiry <= now`.
    pub fn ensure_fresh(&self, now: EpochMillis) -> Result<(), QuoteError> {
        if self.is_expired_at(now) {
            Err(QuoteError::Expired {
                quote: self.id.clone(),
                expiry: self.expiry,
                now,
            })
        } else {
            Ok(())
        }
    }

    /// The same quote with its assets named in `form` (the `caip19` query parameter).
    ///
    /// # Errors
    /// [`UnresolvedAsset`] (`UNRESOLVED_ASSET` as an [`ApiError`]) when
    /// `assets` does not know an asset.
    pub fn in_form(
        &self,
        assets: &AssetDirectory,
        form: AssetIdForm,
    ) -> Result<Quote, UnresolvedAsset> {
        Ok(Quote {
            from_asset: assets.render(&self.from_asset, form)?,
            to_asset: assets.render(&self.to_asset, form)?,
            ..self.clone()
        })
    }
}

/// Why no V4 quote can answer a request: [`select_quote`] and
/// [`Quote::ensure_fresh`]. Each variant maps to its code through the one
/// table and converts into an [`ApiError`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum QuoteError {
    /// This quote has expired: `QUOTE_EXPIRED`.
    #[error("quote {quote} expired at {expiry} (now {now})")]
    Expired {
        /// The quote's id.
        quote: QuoteId,
        /// Its expiry.
        expiry: EpochMillis,
        /// The instant it was judged at.
        now: EpochMillis,
    },
    /// There were sound candidates and every one has expired: `QUOTE_EXPIRED`.
    #[error("every quote for the request has expired")]
    AllExpired,
    /// No candidate is usable (none, defective, or sponsored in ExactOut):
    /// `ROUTE_UNAVAILABLE`.
    #[error("no route available for {mode}")]
    Unavailable {
        /// The request's swap mode.
        mode: SwapMode,
    },
}

impl QuoteError {
    /// The stable error code, from the one table.
    pub fn code(&self) -> ErrorCode {
        match self {
            QuoteError::Expired { .. } | QuoteError::AllExpired => ErrorCode::QuoteExpired,
            QuoteError::Unavailable { .. } => ErrorCode::RouteUnavailable,
        }
    }

    /// The HTTP status of [`code`](Self::code).
    pub fn http_status(&self) -> HttpStatus {
        self.code().http_status()
    }

    /// The error the service answers with.
    pub fn to_api_error(&self) -> ApiError {
        ApiError::new(self.code(), alloc::string::ToString::to_string(self))
    }
}

/// Better first: ExactIn by more `toAmount`, ExactOut by less `fromAmount`;
/// then non-sponsored before sponsored; then quote id by bytes.
fn rank(mode: SwapMode, a: &Quote, b: &Quote) -> Ordering {
    let by_amount = match mode {
        SwapMode::ExactIn => b.to_amount.cmp(&a.to_amount),
        SwapMode::ExactOut => a.from_amount.cmp(&b.from_amount),
    };
    by_amount
        .then_with(|| {
            a.sponsored_by_campaign_id
                .is_some()
                .cmp(&b.sponsored_by_campaign_id.is_some())
        })
        .then_with(|| a.id.as_str().as_bytes().cmp(b.id.as_str().as_bytes()))
}

/// Chooses the quote to answer `request` with among `candidates` (quotes for
/// the request's pair), at `now`.
///
/// A candidate is out when it is defective ([`Quote::defect`]: a zero
/// amount, ruling 32), when it has expired (`expiry <= now`), or, in ExactOut,
/// when it is campaign-sponsored (ExactOut is excluded from sponsorship). Among
/// the rest the best is: ExactIn, the most `toAmount`; ExactOut, the least
/// `fromAmount`; ties go to a non-sponsored quote, then to the smaller id by
/// bytes, so the choice does not depend on the candidates' order.
///
/// ```
/// use swaproute::v4::{select_quote, Quote, QuoteError};
/// use swaproute::{EpochMillis, SwapMode};
/// let none: [Quote; 0] = [];
/// let error = select_quote(SwapMode::ExactIn, &none, EpochMillis::new(0)).unwrap_err();
/// assert_eq!(error, QuoteError::Unavailable { mode: SwapMode::ExactIn });
/// assert_eq!(error.code().as_str(), "ROUTE_UNAVAILABLE");
/// ```
///
/// # Errors
/// [`QuoteError::AllExpired`] (`QUOTE_EXPIRED`) when there were sound
/// candidates and every one has expired; [`QuoteError::Unavailable`]
/// (`ROUTE_UNAVAILABLE`) when there are none, or none is usable.
pub fn select_quote(
    mode: SwapMode,
    candidates: &[Quote],
    now: EpochMillis,
) -> Result<&Quote, QuoteError> {
    let mut sound = candidates.iter().filter(|quote| quote.defect().is_none());
    if sound.clone().next().is_some() && sound.all(|quote| quote.is_expired_at(now)) {
        return Err(QuoteError::AllExpired);
    }
    candidates
        .iter()
        .filter(|quote| quote.defect().is_none())
        .filter(|quote| !quote.is_expired_at(now))
        .filter(|quote| mode == SwapMode::ExactIn || quote.sponsored_by_campaign_id.is_none())
        .min_by(|a, b| rank(mode, a, b))
        .ok_or(QuoteError::Unavailable { mode })
}

/// [`select_quote`] for a validated request.
///
/// # Errors
/// As [`select_quote`].
pub fn select_quote_for<'q>(
    request: &QuoteRequest,
    candidates: &'q [Quote],
    now: EpochMillis,
) -> Result<&'q Quote, QuoteError> {
    select_quote(request.swap_mode(), candidates, now)
}
