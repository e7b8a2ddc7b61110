//! Client identification: the `Forwarded` header and the client headers.

use serde::Deserialize;
use serde_json::{json, Map, Value};
use swaproute::client::{ClientHeaders, Forwarded, ForwardedError, Integration, Node, NodePort};

use crate::failure::{decode, Answer, Failure, Json};

fn node(node: &Node) -> Value {
    let (mut out, port) = match node {
        Node::Ip { addr, port } => (
            json!({"kind": "ip", "addr": addr.to_string()}),
            port.as_ref(),
        ),
        Node::Unknown { port } => (json!({"kind": "unknown"}), port.as_ref()),
        Node::Obfuscated { id, port } => (
            json!({"kind": "obfuscated", "id": id.as_str()}),
            port.as_ref(),
        ),
    };
    let port = match port {
        None => None,
        Some(NodePort::Number(n)) => Some(Value::from(*n)),
        Some(NodePort::Obfuscated(id)) => Some(Value::from(id.as_str())),
    };
    if let (Some(port), Value::Object(map)) = (port, &mut out) {
        map.insert("port".into(), port);
    }
    out
}

fn forwarded_error(error: &ForwardedError) -> Failure {
    let failure = Failure::api(&error.to_api_error()).with("reason", error.code());
    match error {
        ForwardedError::InvalidNode { reason, .. } => failure.with("node", reason.code()),
        _ => failure,
    }
}

/// A `Forwarded` header value (RFC 7239): `{elements, client, screening}`.
pub(crate) fn forwarded(value: &str) -> Answer {
    let forwarded = Forwarded::parse(value).map_err(|e| forwarded_error(&e))?;
    let screening = match forwarded.screening_addr() {
        Ok(addr) => json!({"addr": addr.to_string()}),
        Err(reason) => {
            let mut out = Map::new();
            out.insert("none".into(), reason.code().into());
            if let swaproute::client::NoClientAddress::NotGlobal { scope, .. } = reason {
                out.insert("scope".into(), scope.code().into());
            }
            Value::Object(out)
        }
    };
    Ok(Json::value(&json!({
        "elements": forwarded.elements().len(),
        "client": forwarded.client().map_or(Value::Null, node),
        "screening": screening,
    })))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct HeadersInput {
    headers: Vec<(String, String)>,
    integration: String,
}

/// The client headers of a request: `{appName, appVersion, appPlatform,
/// userAgent, screeningAddr}` (rulings 14, 20, 28, 29).
pub(crate) fn headers(input: &str) -> Answer {
    let input: HeadersInput = decode("headers", input)?;
    let integration = match input.integration.as_str() {
        "direct" => Integration::Direct,
        "proxying" => Integration::Proxying,
        other => {
            return Err(Failure::invalid_request(format!(
                "integration: {other:?} is neither \"direct\" nor \"proxying\""
            )))
        }
    };
    let pairs = input
        .headers
        .iter()
        .map(|(name, value)| (name.as_str(), value.as_str()));
    let headers = ClientHeaders::from_pairs(pairs, integration)
        .map_err(|e| Failure::api(&e.to_api_error()))?;
    Ok(Json::value(&json!({
        "appName": headers.app_name(),
        "appVersion": headers.app_version(),
        "appPlatform": headers.app_platform().map(swaproute::client::AppPlatform::as_str),
        "userAgent": headers.user_agent(),
        "screeningAddr": headers.screening_addr().map(|a| a.to_string()),
    })))
}
