//! CAIP-2 chain ids and CAIP-19 asset types and ids.

use serde_json::{json, Value};
use swaproute::caip::{Caip19AssetId, Caip19AssetType, CaipComponent, ChainId, InvalidCaipId};

use crate::failure::{Answer, Failure, Json};

fn component(component: CaipComponent) -> &'static str {
    match component {
        CaipComponent::Namespace => "namespace",
        CaipComponent::Reference => "reference",
        CaipComponent::AssetNamespace => "assetNamespace",
        CaipComponent::AssetReference => "assetReference",
        CaipComponent::TokenId => "tokenId",
        // `CaipComponent` is `#[non_exhaustive]`; a new component is named
        // by its specification text until this list learns it.
        other => other.as_str(),
    }
}

fn caip_error(error: InvalidCaipId) -> Failure {
    let failure = Failure::invalid_request(error.to_string())
        .with("reason", error.code())
        .with("component", component(error.component()));
    match error.at() {
        Some(at) => failure.with("at", at),
        None => failure,
    }
}

fn chain(id: &ChainId) -> Value {
    json!({"namespace": id.namespace(), "reference": id.reference()})
}

fn asset_type(t: &Caip19AssetType) -> Value {
    let mut out = chain(t.chain_id());
    if let Value::Object(map) = &mut out {
        map.insert("assetNamespace".into(), t.asset_namespace().into());
        map.insert("assetReference".into(), t.asset_reference().into());
    }
    out
}

/// A CAIP-2 chain id: `{namespace, reference}`.
pub(crate) fn chain_id(text: &str) -> Answer {
    ChainId::parse(text)
        .map(|c| Json::value(&chain(&c)))
        .map_err(caip_error)
}

/// A CAIP-19 asset type: `{namespace, reference, assetNamespace, assetReference}`.
pub(crate) fn asset_type_answer(text: &str) -> Answer {
    Caip19AssetType::parse(text)
        .map(|t| Json::value(&asset_type(&t)))
        .map_err(caip_error)
}

/// A CAIP-19 asset id: an asset type and its `tokenId`.
pub(crate) fn asset_id(text: &str) -> Answer {
    Caip19AssetId::parse(text)
        .map(|a| {
            let mut out = asset_type(a.asset_type());
            if let Value::Object(map) = &mut out {
                map.insert("tokenId".into(), a.token_id().into());
            }
            Json::value(&out)
        })
        .map_err(caip_error)
}
