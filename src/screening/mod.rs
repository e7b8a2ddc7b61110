//! Screening (rulings 15, 20, 27 and 29 (docs/RULES.md)): addresses, regions and
//! asset market state.
//!
//! Screening runs before routing, so a restricted request never reaches a
//! provider. The caller supplies a [`ScreeningPolicy`]; every failure is a
//! [`ScreeningError`] that converts into an [`ApiError`](crate::error::ApiError):
//!
//! | check | error | HTTP |
//! |---|---|---|
//! | empty or malformed address ([`Address`]); on an EVM network not `0x` + 40 hex, or a mixed-case address failing EIP-55; on a bech32 network not a single-case BIP-173/BIP-350 string with a valid checksum | `INVALID_ADDRESS` | 400 |
//! | the EVM zero address (`0x` + 40 zeros, any case, any network) or a denylisted address in any spelling ([`Address::canonical`]) | `RESTRICTED_ADDRESS` | 403 |
//! | a restricted region ([`RegionCode`]); an unknown region when regions are restricted, unless the policy allows it ([`UnknownRegion`]) | `RESTRICTED_REGION` | 403 |
//! | a paused asset | `ASSET_PAUSED` | 409 |
//! | a closed stock-token market ([`MarketState`]) | `MARKET_CLOSED` | 409 |
//!
//! A missing tag or memo for an asset that needs one ([`DEFAULT_TAG_ASSETS`],
//! caller-extendable) is a [`TagWarning`], not an error.
//!
//! Input is bounded: addresses are at most [`MAX_ADDRESS_LEN`] bytes, tags at
//! most [`MAX_ADDRESS_TAG_LEN`], region codes at most [`MAX_REGION_CODE_LEN`].
//!
//! ```
//! use swaproute::screening::{
//!     Address, AddressField, MarketState, NetworkKind, RegionCode, ScreeningError, ScreeningPolicy,
//! };
//! use swaproute::{ApiError, AssetId};
//!
//! let policy = ScreeningPolicy::new()
//!     .deny_address(&Address::new("0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359")?)
//!     .restrict_region("US".parse()?)
//!     .set_market_state(AssetId::new("TSLAx")?, MarketState::Closed);
//!
//! // The denylist matches EVM hex in any case.
//! let err = policy
//!     .screen_address_text(AddressField::ToAddress, "0xfb6916095ca1df60bb79ce92ce3ea74c37c5d359", NetworkKind::Evm)
//!     .unwrap_err();
//! let api = ApiError::from(err);
//! assert_eq!(api.code().as_str(), "RESTRICTED_ADDRESS");
//! assert_eq!(api.http_status().as_u16(), 403);
//!
//! // A mixed-case EVM address must carry a valid EIP-55 checksum.
//! let bad = policy.screen_address_text(AddressField::ToAddress, "0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", NetworkKind::Evm);
//! assert_eq!(ApiError::from(bad.unwrap_err()).code().as_str(), "INVALID_ADDRESS");
//!
//! let region: RegionCode = "us-ny".parse()?;
//! assert!(matches!(policy.screen_region(&region), Err(ScreeningError::RestrictedRegion { .. })));
//! assert!(matches!(policy.check_asset(&AssetId::new("TSLAx")?), Err(ScreeningError::MarketClosed { .. })));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod address;
mod bech32;
mod canonical;
mod error;
mod evm;
mod invalid_address;
mod market;
mod policy;
mod region;
mod tag;

pub use address::{Address, AddressTag, NetworkKind, MAX_ADDRESS_TAG_LEN};
pub use canonical::AddressEncoding;
pub use error::{AddressField, Restriction, ScreeningError};
pub use evm::eip55_checksum;
pub use invalid_address::{InvalidAddress, MAX_ADDRESS_LEN};
pub use market::MarketState;
pub use policy::{ScreeningPolicy, ScreeningRequest, UnknownRegion};
pub use region::{RegionCode, MAX_REGION_CODE_LEN};
pub use tag::{TagField, TagWarning, DEFAULT_TAG_ASSETS};
