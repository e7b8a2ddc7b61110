//! The caller's screening policy and the checks it runs.

use alloc::collections::{BTreeMap, BTreeSet};
use alloc::string::String;
use alloc::vec::Vec;

use super::address::{Address, AddressTag, NetworkKind};
use super::error::{AddressField, Restriction, ScreeningError};
use super::market::MarketState;
use super::region::RegionCode;
use super::tag::{default_tag_assets, TagField, TagWarning};
use crate::ids::AssetId;

/// What the caller restricts: denylisted addresses, restricted regions, the
/// market state of stock tokens, paused assets, and the assets whose deposits
/// need a tag or memo.
///
/// [`ScreeningPolicy::new`] (and `Default`) restricts nothing beyond the EVM
/// zero address, which is always restricted, starts with
/// [`DEFAULT_TAG_ASSETS`](super::DEFAULT_TAG_ASSETS) as the tag assets, and
/// fails closed on an unknown region ([`UnknownRegion::Refuse`]): once a
/// region is restricted, a request whose region the caller cannot say is
/// refused with `RESTRICTED_REGION` (ruling 20 (docs/RULES.md)). A caller that
/// screens regions elsewhere says so with
/// [`on_unknown_region(UnknownRegion::Allow)`](ScreeningPolicy::on_unknown_region).
///
/// Comparisons:
/// - denylisted addresses match in their canonical form
///   ([`Address::canonical`], ruling 27 (docs/RULES.md)): EVM hex, bech32,
///   bech32m and CashAddr in any case (CashAddr with or without its
///   `bitcoincash:` prefix), every other encoding (base58, …) exactly;
/// - regions are case-insensitive ([`RegionCode`] is upper case); restricting a
///   country restricts its subdivisions (`US` restricts `US-NY`), restricting a
///   subdivision restricts only it;
/// - assets match by exact id.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScreeningPolicy {
    denylist: BTreeSet<String>,
    restricted_regions: BTreeSet<RegionCode>,
    market_states: BTreeMap<AssetId, MarketState>,
    paused: BTreeSet<AssetId>,
    high_risk: BTreeSet<AssetId>,
    tag_assets: BTreeSet<AssetId>,
    unknown_region: UnknownRegion,
}

/// What region screening does when the caller cannot say the user's region
/// (no `Forwarded` address, or geolocation found none): ruling 20
/// (docs/RULES.md).
///
/// Only matters for a policy that restricts at least one region; a policy
/// that restricts none has nothing to check.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum UnknownRegion {
    /// Refuse with `RESTRICTED_REGION` ([`ScreeningError::UnknownRegion`]):
    /// location screening that cannot run fails closed. The default.
    #[default]
    Refuse,
    /// Let the request through unscreened for region: for callers that screen
    /// locations some other way. Must be asked for explicitly.
    Allow,
}

impl Default for ScreeningPolicy {
    fn default() -> Self {
        ScreeningPolicy::new()
    }
}

/// The denylist key: the address's canonical form (ruling 27 (docs/RULES.md)).
fn denylist_key(address: &Address) -> String {
    address.canonical().into_owned()
}

/// Everything a request offers to screening, borrowed.
///
/// `from_address` is `None` when the request's `fromAddress` is null; tags are
/// `None` when absent (or `""` on the wire); `region` is `None` when the caller
/// cannot say it (see [`UnknownRegion`]).
#[derive(Clone, Copy, Debug)]
pub struct ScreeningRequest<'a> {
    /// The user's region, when known. `None` is refused when the policy
    /// restricts regions, unless it allows unknown regions
    /// ([`ScreeningPolicy::screen_location`]).
    pub region: Option<&'a RegionCode>,
    /// The asset sent.
    pub from_asset: &'a AssetId,
    /// The network kind of the sent asset.
    pub from_network: NetworkKind,
    /// The sender's address, when given.
    pub from_address: Option<&'a Address>,
    /// The sender's tag, when given.
    pub from_address_tag: Option<&'a AddressTag>,
    /// The asset received.
    pub to_asset: &'a AssetId,
    /// The network kind of the received asset.
    pub to_network: NetworkKind,
    /// The receiver's address.
    pub to_address: &'a Address,
    /// The receiver's tag, when given.
    pub to_address_tag: Option<&'a AddressTag>,
}

impl ScreeningPolicy {
    /// A policy that restricts only the EVM zero address, with the default tag
    /// assets.
    pub fn new() -> Self {
        ScreeningPolicy {
            denylist: BTreeSet::new(),
            restricted_regions: BTreeSet::new(),
            market_states: BTreeMap::new(),
            paused: BTreeSet::new(),
            high_risk: BTreeSet::new(),
            tag_assets: default_tag_assets(),
            unknown_region: UnknownRegion::Refuse,
        }
    }

    /// Sets what happens when the user's region is unknown; the default is
    /// [`UnknownRegion::Refuse`].
    #[must_use]
    pub fn on_unknown_region(mut self, unknown_region: UnknownRegion) -> Self {
        self.unknown_region = unknown_region;
        self
    }

    /// What happens when the user's region is unknown.
    pub fn unknown_region(&self) -> UnknownRegion {
        self.unknown_region
    }

    /// `true` when at least one region is restricted.
    pub fn restricts_regions(&self) -> bool {
        !self.restricted_regions.is_empty()
    }

    /// Adds `address` to the denylist.
    #[must_use]
    pub fn deny_address(mut self, address: &Address) -> Self {
        self.denylist.insert(denylist_key(address));
        self
    }

    /// Restricts `region` (and, for a country, all its subdivisions).
    #[must_use]
    pub fn restrict_region(mut self, region: RegionCode) -> Self {
        self.restricted_regions.insert(region);
        self
    }

    /// Sets the market state of `asset` (assets not named are open).
    #[must_use]
    pub fn set_market_state(mut self, asset: AssetId, state: MarketState) -> Self {
        self.market_states.insert(asset, state);
        self
    }

    /// Pauses `asset`.
    #[must_use]
    pub fn pause_asset(mut self, asset: AssetId) -> Self {
        self.paused.insert(asset);
        self
    }

    /// Adds `asset` to the assets whose deposits need a tag or memo.
    #[must_use]
    pub fn require_tag(mut self, asset: AssetId) -> Self {
        self.tag_assets.insert(asset);
        self
    }

    /// Removes every tag asset, the defaults included, so the caller can supply
    /// its own list.
    #[must_use]
    pub fn clear_tag_assets(mut self) -> Self {
        self.tag_assets.clear();
        self
    }

    /// `true` when `address` is on the denylist, in any spelling of it
    /// ([`Address::canonical`]).
    pub fn is_denylisted(&self, address: &Address) -> bool {
        self.denylist.contains(&*address.canonical())
    }

    /// `true` when `region` or its country is restricted.
    pub fn is_region_restricted(&self, region: &RegionCode) -> bool {
        self.restricted_regions.contains(region)
            || self.restricted_regions.contains(&region.country())
    }

    /// The market state of `asset`; [`MarketState::Open`] unless set.
    pub fn market_state(&self, asset: &AssetId) -> MarketState {
        self.market_states.get(asset).copied().unwrap_or_default()
    }

    /// `true` when `asset` is paused.
    pub fn is_paused(&self, asset: &AssetId) -> bool {
        self.paused.contains(asset)
    }

    /// `true` when deposits of `asset` need a tag or memo.
    pub fn requires_tag(&self, asset: &AssetId) -> bool {
        self.tag_assets.contains(asset)
    }

    /// Screens one address, in this order: the EVM zero address (any network)
    /// and the denylist give `RESTRICTED_ADDRESS`; then, on an EVM network, the
    /// syntax and EIP-55 checks give `INVALID_ADDRESS`. Restriction comes first
    /// so a restricted address is reported as such whatever its spelling.
    ///
    /// # Errors
    /// [`ScreeningError::RestrictedAddress`] or [`ScreeningError::InvalidAddress`]
    /// naming `field`.
    pub fn screen_address(
        &self,
        field: AddressField,
        address: &Address,
        network: NetworkKind,
    ) -> Result<(), ScreeningError> {
        if address.is_evm_zero() {
            return Err(ScreeningError::RestrictedAddress {
                field,
                reason: Restriction::ZeroAddress,
            });
        }
        if self.is_denylisted(address) {
            return Err(ScreeningError::RestrictedAddress {
                field,
                reason: Restriction::Denylisted,
            });
        }
        address
            .check_network(network)
            .map_err(|reason| ScreeningError::InvalidAddress { field, reason })
    }

    /// Validates `text` as an [`Address`] and screens it
    /// ([`ScreeningPolicy::screen_address`]).
    ///
    /// # Errors
    /// [`ScreeningError::InvalidAddress`] when `text` is empty or malformed, else
    /// as [`ScreeningPolicy::screen_address`].
    pub fn screen_address_text(
        &self,
        field: AddressField,
        text: &str,
        network: NetworkKind,
    ) -> Result<Address, ScreeningError> {
        let address = Address::new(text)
            .map_err(|reason| ScreeningError::InvalidAddress { field, reason })?;
        self.screen_address(field, &address, network)?;
        Ok(address)
    }

    /// Screens `fromAddress` (when given) and then `toAddress`.
    ///
    /// # Errors
    /// The first failure of [`ScreeningPolicy::screen_address`].
    pub fn screen_addresses(
        &self,
        from: Option<&Address>,
        from_network: NetworkKind,
        to: &Address,
        to_network: NetworkKind,
    ) -> Result<(), ScreeningError> {
        if let Some(from) = from {
            self.screen_address(AddressField::FromAddress, from, from_network)?;
        }
        self.screen_address(AddressField::ToAddress, to, to_network)
    }

    /// Checks the user's region.
    ///
    /// # Errors
    /// [`ScreeningError::RestrictedRegion`] when `region` or its country is
    /// restricted.
    pub fn screen_region(&self, region: &RegionCode) -> Result<(), ScreeningError> {
        if self.is_region_restricted(region) {
            Err(ScreeningError::RestrictedRegion {
                region: region.clone(),
            })
        } else {
            Ok(())
        }
    }

    /// Checks the user's region when the caller may not know it (ruling 20
    /// (docs/RULES.md)): a known region as [`ScreeningPolicy::screen_region`];
    /// an unknown one (`None`) passes when the policy restricts no region or
    /// allows unknown regions ([`UnknownRegion::Allow`]), and is refused
    /// otherwise.
    ///
    /// # Errors
    /// [`ScreeningError::RestrictedRegion`] for a restricted region,
    /// [`ScreeningError::UnknownRegion`] for an unknown region under
    /// [`UnknownRegion::Refuse`] when a region is restricted; both are
    /// `RESTRICTED_REGION` (403).
    pub fn screen_location(&self, region: Option<&RegionCode>) -> Result<(), ScreeningError> {
        match region {
            Some(region) => self.screen_region(region),
            None if self.restricts_regions() && self.unknown_region == UnknownRegion::Refuse => {
                Err(ScreeningError::UnknownRegion)
            }
            None => Ok(()),
        }
    }

    /// Lists `asset` as high-risk (ruling 52): a request for a pair naming
    /// it is refused, 403 `HIGH_RISK_TOKENS`.
    #[must_use]
    pub fn high_risk_asset(mut self, asset: AssetId) -> Self {
        self.high_risk.insert(asset);
        self
    }

    /// `true` when `asset` is on the high-risk list.
    pub fn is_high_risk(&self, asset: &AssetId) -> bool {
        self.high_risk.contains(asset)
    }

    /// Checks that `asset` can be swapped: a high-risk asset gives
    /// `HIGH_RISK_TOKENS` (403, ruling 52), checked first; then a paused
    /// asset gives `ASSET_PAUSED`; a closed market gives `MARKET_CLOSED`.
    ///
    /// ```
    /// use swaproute::screening::ScreeningPolicy;
    /// use swaproute::AssetId;
    /// let policy = ScreeningPolicy::new().high_risk_asset(AssetId::new("SCAM")?);
    /// let error = policy.check_asset(&AssetId::new("SCAM")?).unwrap_err();
    /// assert_eq!(error.code().as_str(), "HIGH_RISK_TOKENS");
    /// assert_eq!(error.code().http_status().as_u16(), 403);
    /// assert!(policy.check_asset(&AssetId::new("BTC")?).is_ok());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`ScreeningError::HighRiskToken`], [`ScreeningError::AssetPaused`] or
    /// [`ScreeningError::MarketClosed`].
    pub fn check_asset(&self, asset: &AssetId) -> Result<(), ScreeningError> {
        if self.is_high_risk(asset) {
            return Err(ScreeningError::HighRiskToken {
                asset: asset.clone(),
            });
        }
        if self.is_paused(asset) {
            return Err(ScreeningError::AssetPaused {
                asset: asset.clone(),
            });
        }
        match self.market_state(asset) {
            MarketState::Open => Ok(()),
            MarketState::Closed => Err(ScreeningError::MarketClosed {
                asset: asset.clone(),
            }),
        }
    }

    /// The warning for a missing tag: `Some` when deposits of `asset` need a tag
    /// and `tag` is `None`. Never an error.
    pub fn missing_tag(
        &self,
        field: TagField,
        asset: &AssetId,
        tag: Option<&AddressTag>,
    ) -> Option<TagWarning> {
        (tag.is_none() && self.requires_tag(asset)).then(|| TagWarning {
            field,
            asset: asset.clone(),
        })
    }

    /// Runs every check on a request, in this order, and returns the first
    /// failure: region ([`ScreeningPolicy::screen_location`]), `fromAddress`, `toAddress`, the sent asset, the received
    /// asset. On success, the missing-tag warnings: `fromAddressTag` (only when
    /// `fromAddress` is given), then `toAddressTag`.
    ///
    /// # Errors
    /// The first [`ScreeningError`] in the order above.
    pub fn screen(
        &self,
        request: &ScreeningRequest<'_>,
    ) -> Result<Vec<TagWarning>, ScreeningError> {
        self.screen_location(request.region)?;
        self.screen_addresses(
            request.from_address,
            request.from_network,
            request.to_address,
            request.to_network,
        )?;
        self.check_asset(request.from_asset)?;
        self.check_asset(request.to_asset)?;
        let from_warning = request.from_address.and_then(|_| {
            self.missing_tag(
                TagField::FromAddressTag,
                request.from_asset,
                request.from_address_tag,
            )
        });
        let to_warning = self.missing_tag(
            TagField::ToAddressTag,
            request.to_asset,
            request.to_address_tag,
        );
        Ok(from_warning.into_iter().chain(to_warning).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::screening::InvalidAddress;
    use alloc::format;
    use alloc::vec;

    fn addr(text: &str) -> Address {
        Address::new(text).unwrap()
    }

    fn asset(text: &str) -> AssetId {
        AssetId::new(text).unwrap()
    }

    const CHECKSUMMED: &str = "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359";

    #[test]
    fn zero_address_is_restricted_on_every_network_in_any_case() {
        let policy = ScreeningPolicy::new();
        for text in [
            format!("0x{}", "0".repeat(40)),
            format!("0X{}", "0".repeat(40)),
        ] {
            for network in [NetworkKind::Evm, NetworkKind::Other] {
                for field in [AddressField::FromAddress, AddressField::ToAddress] {
                    assert_eq!(
                        policy.screen_address(field, &addr(&text), network),
                        Err(ScreeningError::RestrictedAddress {
                            field,
                            reason: Restriction::ZeroAddress
                        })
                    );
                }
            }
        }
    }

    #[test]
    fn denylist_evm_case_insensitive_others_exact() {
        let policy = ScreeningPolicy::new()
            .deny_address(&addr(CHECKSUMMED))
            .deny_address(&addr("rEb8TK3gBgk5auZkwc6sHnwrGVJH8DuaLh"));
        let restricted = Err(ScreeningError::RestrictedAddress {
            field: AddressField::ToAddress,
            reason: Restriction::Denylisted,
        });
        for spelling in [
            String::from(CHECKSUMMED),
            CHECKSUMMED.to_ascii_lowercase(),
            format!("0x{}", CHECKSUMMED[2..].to_ascii_uppercase()),
            CHECKSUMMED.to_ascii_uppercase(), // 0X prefix
            String::from("0xFB6916095ca1df60bB79Ce92cE3Ea74c37c5d359"), // bad checksum: restricted first
        ] {
            assert_eq!(
                policy.screen_address(AddressField::ToAddress, &addr(&spelling), NetworkKind::Evm),
                restricted
            );
            assert_eq!(
                policy.screen_address(
                    AddressField::ToAddress,
                    &addr(&spelling),
                    NetworkKind::Other
                ),
                restricted
            );
        }
        assert_eq!(
            policy.screen_address(
                AddressField::ToAddress,
                &addr("rEb8TK3gBgk5auZkwc6sHnwrGVJH8DuaLh"),
                NetworkKind::Other
            ),
            restricted
        );
        assert_eq!(
            policy.screen_address(
                AddressField::ToAddress,
                &addr("reb8tk3gbgk5auzkwc6shnwrgvjh8dualh"),
                NetworkKind::Other
            ),
            Ok(())
        );
    }

    #[test]
    fn evm_checks_only_on_evm_networks() {
        let policy = ScreeningPolicy::new();
        let bad_checksum = addr("0xFB6916095ca1df60bB79Ce92cE3Ea74c37c5d359");
        assert_eq!(
            policy.screen_address(AddressField::FromAddress, &bad_checksum, NetworkKind::Evm),
            Err(ScreeningError::InvalidAddress {
                field: AddressField::FromAddress,
                reason: InvalidAddress::EvmChecksum
            })
        );
        assert_eq!(
            policy.screen_address(AddressField::FromAddress, &bad_checksum, NetworkKind::Other),
            Ok(())
        );
        assert_eq!(
            policy.screen_address(
                AddressField::ToAddress,
                &addr("bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"),
                NetworkKind::Evm
            ),
            Err(ScreeningError::InvalidAddress {
                field: AddressField::ToAddress,
                reason: InvalidAddress::EvmSyntax
            })
        );
        assert_eq!(
            policy.screen_address(
                AddressField::ToAddress,
                &addr(CHECKSUMMED),
                NetworkKind::Evm
            ),
            Ok(())
        );
    }

    #[test]
    fn text_entry_point() {
        let policy = ScreeningPolicy::new();
        assert_eq!(
            policy.screen_address_text(AddressField::ToAddress, "", NetworkKind::Other),
            Err(ScreeningError::InvalidAddress {
                field: AddressField::ToAddress,
                reason: InvalidAddress::Empty
            })
        );
        assert_eq!(
            policy
                .screen_address_text(AddressField::ToAddress, CHECKSUMMED, NetworkKind::Evm)
                .unwrap()
                .as_str(),
            CHECKSUMMED
        );
    }

    #[test]
    fn from_address_is_optional_and_checked_first() {
        let policy = ScreeningPolicy::new();
        let zero = addr(&format!("0x{}", "0".repeat(40)));
        let good = addr(CHECKSUMMED);
        assert_eq!(
            policy.screen_addresses(None, NetworkKind::Evm, &good, NetworkKind::Evm),
            Ok(())
        );
        assert_eq!(
            policy.screen_addresses(Some(&zero), NetworkKind::Evm, &zero, NetworkKind::Evm),
            Err(ScreeningError::RestrictedAddress {
                field: AddressField::FromAddress,
                reason: Restriction::ZeroAddress
            })
        );
        assert_eq!(
            policy.screen_addresses(None, NetworkKind::Evm, &zero, NetworkKind::Evm),
            Err(ScreeningError::RestrictedAddress {
                field: AddressField::ToAddress,
                reason: Restriction::ZeroAddress
            })
        );
    }

    #[test]
    fn regions() {
        let us = RegionCode::new("us").unwrap();
        let ca_on = RegionCode::new("CA-ON").unwrap();
        let policy = ScreeningPolicy::new()
            .restrict_region(us)
            .restrict_region(ca_on);
        for restricted in ["US", "us", "US-NY", "ca-on"] {
            let region = RegionCode::new(restricted).unwrap();
            assert_eq!(
                policy.screen_region(&region),
                Err(ScreeningError::RestrictedRegion {
                    region: region.clone()
                })
            );
        }
        for allowed in ["CA", "CA-QC", "GB", "UM"] {
            assert_eq!(
                policy.screen_region(&RegionCode::new(allowed).unwrap()),
                Ok(())
            );
        }
    }

    #[test]
    fn market_state_and_paused() {
        let policy = ScreeningPolicy::new()
            .set_market_state(asset("TSLAx"), MarketState::Closed)
            .set_market_state(asset("AAPLx"), MarketState::Open)
            .pause_asset(asset("LUNA"))
            .pause_asset(asset("NVDAx"))
            .set_market_state(asset("NVDAx"), MarketState::Closed);
        assert_eq!(policy.check_asset(&asset("BTC")), Ok(()));
        assert_eq!(policy.check_asset(&asset("AAPLx")), Ok(()));
        assert_eq!(
            policy.check_asset(&asset("TSLAx")),
            Err(ScreeningError::MarketClosed {
                asset: asset("TSLAx")
            })
        );
        assert_eq!(
            policy.check_asset(&asset("tslax")),
            Ok(()),
            "asset ids match exactly"
        );
        assert_eq!(
            policy.check_asset(&asset("LUNA")),
            Err(ScreeningError::AssetPaused {
                asset: asset("LUNA")
            })
        );
        assert_eq!(
            policy.check_asset(&asset("NVDAx")),
            Err(ScreeningError::AssetPaused {
                asset: asset("NVDAx")
            })
        );
    }

    #[test]
    fn tags_defaults_and_extension() {
        let policy = ScreeningPolicy::new();
        for default in ["ATOM", "EOS", "XRP", "XLM", "HBAR"] {
            assert!(policy.requires_tag(&asset(default)), "{default}");
        }
        assert!(!policy.requires_tag(&asset("BTC")));
        let tag = AddressTag::new("12345").unwrap();
        assert_eq!(
            policy.missing_tag(TagField::ToAddressTag, &asset("XRP"), Some(&tag)),
            None
        );
        assert_eq!(
            policy.missing_tag(TagField::ToAddressTag, &asset("XRP"), None),
            Some(TagWarning {
                field: TagField::ToAddressTag,
                asset: asset("XRP")
            })
        );
        assert_eq!(
            policy.missing_tag(TagField::ToAddressTag, &asset("BTC"), None),
            None
        );
        let extended = ScreeningPolicy::new().require_tag(asset("TON"));
        assert!(extended.requires_tag(&asset("TON")));
        assert!(extended.requires_tag(&asset("XRP")));
        let replaced = ScreeningPolicy::new()
            .clear_tag_assets()
            .require_tag(asset("TON"));
        assert!(!replaced.requires_tag(&asset("XRP")));
        assert_eq!(
            format!(
                "{}",
                TagWarning {
                    field: TagField::ToAddressTag,
                    asset: asset("XRP")
                }
            ),
            "toAddressTag is missing; XRP deposits usually need a tag or memo"
        );
    }

    #[test]
    fn full_request_order_and_warnings() {
        let us = RegionCode::new("US").unwrap();
        let xrp = asset("XRP");
        let atom = asset("ATOM");
        let eth = asset("ETH");
        let zero = addr(&format!("0x{}", "0".repeat(40)));
        let xrp_address = addr("rEb8TK3gBgk5auZkwc6sHnwrGVJH8DuaLh");
        let atom_address = addr("cosmos1depk54cuajgkzea6zpgkq36tnjwdzv4ak663u6");
        let policy = ScreeningPolicy::new()
            .restrict_region(us.clone())
            .pause_asset(eth.clone());
        let fr = RegionCode::new("FR").unwrap();
        let mut request = ScreeningRequest {
            region: Some(&us),
            from_asset: &xrp,
            from_network: NetworkKind::Other,
            from_address: Some(&xrp_address),
            from_address_tag: None,
            to_asset: &atom,
            to_network: NetworkKind::Other,
            to_address: &zero,
            to_address_tag: None,
        };
        assert_eq!(
            policy.screen(&request),
            Err(ScreeningError::RestrictedRegion { region: us.clone() })
        );
        request.region = Some(&fr);
        assert_eq!(
            policy.screen(&request),
            Err(ScreeningError::RestrictedAddress {
                field: AddressField::ToAddress,
                reason: Restriction::ZeroAddress
            })
        );
        request.to_address = &atom_address;
        assert_eq!(
            policy.screen(&request),
            Ok(vec![
                TagWarning {
                    field: TagField::FromAddressTag,
                    asset: xrp.clone()
                },
                TagWarning {
                    field: TagField::ToAddressTag,
                    asset: atom.clone()
                },
            ])
        );
        request.from_address = None;
        request.region = None;
        // Ruling 20: regions are restricted and this one is unknown: refused.
        assert_eq!(policy.screen(&request), Err(ScreeningError::UnknownRegion));
        let lenient = policy.clone().on_unknown_region(UnknownRegion::Allow);
        assert_eq!(
            lenient.screen(&request),
            Ok(vec![TagWarning {
                field: TagField::ToAddressTag,
                asset: atom.clone()
            }])
        );
        request.to_asset = &eth;
        assert_eq!(
            lenient.screen(&request),
            Err(ScreeningError::AssetPaused { asset: eth.clone() })
        );
    }

    #[test]
    fn unknown_region_fails_closed_only_when_regions_are_restricted() {
        let us = RegionCode::new("US").unwrap();
        let fr = RegionCode::new("FR").unwrap();
        let restricting = ScreeningPolicy::new().restrict_region(us.clone());
        assert_eq!(
            ScreeningPolicy::new().unknown_region(),
            UnknownRegion::Refuse
        );
        assert_eq!(
            ScreeningPolicy::default().unknown_region(),
            UnknownRegion::Refuse
        );
        // Default: refuse, with RESTRICTED_REGION 403.
        let err = restricting.screen_location(None).unwrap_err();
        assert_eq!(err, ScreeningError::UnknownRegion);
        let api = crate::error::ApiError::from(err);
        assert_eq!(api.code().as_str(), "RESTRICTED_REGION");
        assert_eq!(api.http_status().as_u16(), 403);
        // Known regions are unaffected by the switch.
        for policy in [
            restricting.clone(),
            restricting.clone().on_unknown_region(UnknownRegion::Allow),
        ] {
            assert_eq!(
                policy.screen_location(Some(&us)),
                Err(ScreeningError::RestrictedRegion { region: us.clone() })
            );
            assert_eq!(policy.screen_location(Some(&fr)), Ok(()));
        }
        // Explicitly lenient.
        let lenient = restricting.on_unknown_region(UnknownRegion::Allow);
        assert_eq!(lenient.unknown_region(), UnknownRegion::Allow);
        assert_eq!(lenient.screen_location(None), Ok(()));
        // Nothing restricted: nothing to check, whatever the switch says.
        assert_eq!(ScreeningPolicy::new().screen_location(None), Ok(()));
        assert!(!ScreeningPolicy::new().restricts_regions());
    }
}
