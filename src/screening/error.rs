//! Why a request fails screening, and its API error.

use super::invalid_address::InvalidAddress;
use super::region::RegionCode;
use crate::error::ErrorCode;
use crate::ids::AssetId;

/// Which address of a request is screened.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AddressField {
    /// `fromAddress`: the sender (optional on the wire).
    FromAddress,
    /// `toAddress`: the receiver.
    ToAddress,
}

crate::text::str_enum!(
    AddressField,
    /// The request field name, `"fromAddress"` or `"toAddress"`.
    {
        FromAddress => "fromAddress",
        ToAddress => "toAddress",
    }
);

/// Why an address is restricted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Restriction {
    /// The EVM zero address, `0x` + 40 zeros.
    ZeroAddress,
    /// The address is on the caller's denylist.
    Denylisted,
}

impl Restriction {
    /// The stable code of the restriction: `"ZERO_ADDRESS"` or `"DENYLISTED"`.
    pub const fn code(self) -> &'static str {
        match self {
            Restriction::ZeroAddress => "ZERO_ADDRESS",
            Restriction::Denylisted => "DENYLISTED",
        }
    }
}

/// A request refused by screening. Each variant has one [`ErrorCode`]
/// ([`ScreeningError::code`]) and converts into an [`ApiError`](crate::error::ApiError) whose details
/// name the field, region or asset.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ScreeningError {
    /// `INVALID_ADDRESS` (400): empty, malformed, or a bad EIP-55 checksum.
    #[error("{field}: {reason}")]
    InvalidAddress {
        /// The address field.
        field: AddressField,
        /// What is wrong with it.
        reason: InvalidAddress,
    },
    /// `RESTRICTED_ADDRESS` (403): the zero address or a denylisted address.
    #[error("{field} is restricted{}", match reason {
        Restriction::ZeroAddress => " (the EVM zero address)",
        Restriction::Denylisted => "",
    })]
    RestrictedAddress {
        /// The address field.
        field: AddressField,
        /// Why it is restricted.
        reason: Restriction,
    },
    /// `RESTRICTED_REGION` (403): the user's region is restricted.
    #[error("region {region} is restricted")]
    RestrictedRegion {
        /// The user's region as given.
        region: RegionCode,
    },
    /// `RESTRICTED_REGION` (403): the policy restricts regions and refuses an
    /// unknown one ([`UnknownRegion::Refuse`](super::UnknownRegion::Refuse)),
    /// and the caller could not say the user's region.
    #[error("the user's region is unknown, so location restrictions cannot be checked")]
    UnknownRegion,
    /// `MARKET_CLOSED` (409): the stock-token market of the asset is closed.
    #[error("the market for {asset} is closed")]
    MarketClosed {
        /// The asset.
        asset: AssetId,
    },
    /// `ASSET_PAUSED` (409): the asset is paused.
    #[error("{asset} is paused")]
    AssetPaused {
        /// The asset.
        asset: AssetId,
    },
    /// `HIGH_RISK_TOKENS` (403): the asset is on the screening policy's
    /// high-risk list (ruling 52).
    #[error("{asset} is a high-risk token")]
    HighRiskToken {
        /// The asset.
        asset: AssetId,
    },
}

impl ScreeningError {
    /// The stable code of this failure.
    pub const fn code(&self) -> ErrorCode {
        match self {
            ScreeningError::InvalidAddress { .. } => ErrorCode::InvalidAddress,
            ScreeningError::RestrictedAddress { .. } => ErrorCode::RestrictedAddress,
            ScreeningError::RestrictedRegion { .. } | ScreeningError::UnknownRegion => {
                ErrorCode::RestrictedRegion
            }
            ScreeningError::MarketClosed { .. } => ErrorCode::MarketClosed,
            ScreeningError::AssetPaused { .. } => ErrorCode::AssetPaused,
            ScreeningError::HighRiskToken { .. } => ErrorCode::HighRiskTokens,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ApiError;

    #[test]
    fn restrictions_have_stable_codes() {
        assert_eq!(Restriction::ZeroAddress.code(), "ZERO_ADDRESS");
        assert_eq!(Restriction::Denylisted.code(), "DENYLISTED");
    }

    #[test]
    fn codes_statuses_and_details() {
        let cases = [
            (
                ScreeningError::InvalidAddress {
                    field: AddressField::ToAddress,
                    reason: InvalidAddress::Empty,
                },
                "INVALID_ADDRESS",
                400,
                "toAddress: address is empty",
            ),
            (
                ScreeningError::RestrictedAddress {
                    field: AddressField::FromAddress,
                    reason: Restriction::ZeroAddress,
                },
                "RESTRICTED_ADDRESS",
                403,
                "fromAddress is restricted (the EVM zero address)",
            ),
            (
                ScreeningError::RestrictedAddress {
                    field: AddressField::ToAddress,
                    reason: Restriction::Denylisted,
                },
                "RESTRICTED_ADDRESS",
                403,
                "toAddress is restricted",
            ),
            (
                ScreeningError::RestrictedRegion {
                    region: RegionCode::new("us-ny").unwrap(),
                },
                "RESTRICTED_REGION",
                403,
                "region US-NY is restricted",
            ),
            (
                ScreeningError::UnknownRegion,
                "RESTRICTED_REGION",
                403,
                "the user's region is unknown, so location restrictions cannot be checked",
            ),
            (
                ScreeningError::MarketClosed {
                    asset: AssetId::new("TSLAx").unwrap(),
                },
                "MARKET_CLOSED",
                409,
                "the market for TSLAx is closed",
            ),
            (
                ScreeningError::AssetPaused {
                    asset: AssetId::new("ETH").unwrap(),
                },
                "ASSET_PAUSED",
                409,
                "ETH is paused",
            ),
        ];
        for (error, code, status, details) in cases {
            let api = ApiError::from(error);
            assert_eq!(api.code().as_str(), code);
            assert_eq!(api.http_status().as_u16(), status);
            assert_eq!(api.details(), details);
        }
    }
}
