//! Address screening: syntax per network, the EVM zero address, a denylist.

use serde::Deserialize;
use serde_json::json;
use swaproute::screening::{
    Address, AddressEncoding, AddressField, NetworkKind, ScreeningError, ScreeningPolicy,
};

use crate::failure::{decode, Answer, Failure, Json};

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Options {
    #[serde(default, deserialize_with = "crate::input::present")]
    network: Option<String>,
    #[serde(default, deserialize_with = "crate::input::present")]
    field: Option<String>,
    #[serde(default)]
    denylist: Vec<String>,
}

fn encoding(encoding: AddressEncoding) -> &'static str {
    match encoding {
        AddressEncoding::EvmHex => "evmHex",
        AddressEncoding::Bech32 => "bech32",
        AddressEncoding::Bech32m => "bech32m",
        AddressEncoding::CashAddr => "cashAddr",
        _ => "other",
    }
}

fn refused(error: &ScreeningError) -> Failure {
    let failure = Failure::api(&error.clone().into());
    match error {
        ScreeningError::InvalidAddress { field, reason } => failure
            .with("field", field.as_str())
            .with("reason", reason.code()),
        ScreeningError::RestrictedAddress { field, reason } => failure
            .with("field", field.as_str())
            .with("reason", reason.code()),
        _ => failure,
    }
}

/// Screens `address` under `options` (`{network, field, denylist}`):
/// `{address, canonical, encoding}`.
pub(crate) fn screen(address: &str, options: &str) -> Answer {
    let options: Options = decode("options", options)?;
    let network = match options.network.as_deref() {
        None | Some("other") => NetworkKind::Other,
        Some("evm") => NetworkKind::Evm,
        Some("bech32") => NetworkKind::Bech32,
        Some(other) => {
            return Err(Failure::invalid_request(format!(
                "network: {other:?} is not \"evm\", \"bech32\" or \"other\""
            )))
        }
    };
    let field = match options.field.as_deref() {
        None | Some("toAddress") => AddressField::ToAddress,
        Some("fromAddress") => AddressField::FromAddress,
        Some(other) => {
            return Err(Failure::invalid_request(format!(
                "field: {other:?} is neither \"toAddress\" nor \"fromAddress\""
            )))
        }
    };
    let mut policy = ScreeningPolicy::new();
    for (i, text) in options.denylist.iter().enumerate() {
        let denied = Address::new(text)
            .map_err(|e| Failure::invalid_request(format!("denylist[{i}]: {e}")))?;
        policy = policy.deny_address(&denied);
    }
    let address = policy
        .screen_address_text(field, address, network)
        .map_err(|e| refused(&e))?;
    Ok(Json::value(&json!({
        "address": address.as_str(),
        "canonical": address.canonical(),
        "encoding": encoding(address.encoding()),
    })))
}
