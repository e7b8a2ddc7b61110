//! Order bodies of both flows: `POST /v3/orders` (fixed) and
//! `POST /v3/orders/float` (floating), every field error reported.

use serde_json::{json, Value};
use swaproute::order::{FixedOrderRequest, FloatOrderRequest, Parties, RequestErrors};
use swaproute::screening::{Address, AddressTag};
use swaproute::QuoteId;

use crate::failure::{Answer, Failure, Json};

/// The error to throw: the first problem's body (what a server answers),
/// its `field`, and `errors`, every problem in priority order.
pub(crate) fn refused(errors: &RequestErrors) -> Failure {
    let all: Vec<Value> = errors
        .all()
        .iter()
        .map(|e| {
            json!({
                "field": e.field().as_str(),
                "code": e.code().as_str(),
                "details": e.to_string(),
            })
        })
        .collect();
    Failure::api(&errors.to_api_error())
        .with("field", errors.first().field().as_str())
        .with("errors", all)
}

fn parties(parties: &Parties, out: &mut serde_json::Map<String, Value>) {
    out.insert(
        "fromAddress".into(),
        parties.from_address().map(Address::as_str).into(),
    );
    out.insert(
        "fromAddressTag".into(),
        parties.from_address_tag().map(AddressTag::as_str).into(),
    );
    out.insert("toAddress".into(), parties.to_address().as_str().into());
    out.insert(
        "toAddressTag".into(),
        parties.to_address_tag().map(AddressTag::as_str).into(),
    );
}

/// A fixed-rate order body (`rateId`-less intake fields, ruling 19).
pub(crate) fn fixed(body: &str) -> Answer {
    let request = FixedOrderRequest::from_json(body.as_bytes()).map_err(|e| refused(&e))?;
    let mut out = serde_json::Map::new();
    out.insert(
        "fromAmount".into(),
        request.from_amount().to_string().into(),
    );
    out.insert("toAmount".into(), request.to_amount().to_string().into());
    parties(request.parties(), &mut out);
    out.insert("pairId".into(), request.pair_id().as_str().into());
    out.insert(
        "slippage".into(),
        request.slippage().percent().to_string().into(),
    );
    out.insert("swapMode".into(), request.swap_mode().as_str().into());
    Ok(Json::value(&Value::Object(out)))
}

/// A floating-rate order body (ruling 12: no `swapMode`).
pub(crate) fn float(body: &str) -> Answer {
    let request = FloatOrderRequest::from_json(body.as_bytes()).map_err(|e| refused(&e))?;
    let mut out = serde_json::Map::new();
    out.insert(
        "fromAmount".into(),
        request.from_amount().to_string().into(),
    );
    out.insert("toAmount".into(), request.to_amount().to_string().into());
    parties(request.parties(), &mut out);
    out.insert("pairId".into(), request.pair_id().as_str().into());
    out.insert(
        "slippage".into(),
        request.slippage().percent().to_string().into(),
    );
    out.insert(
        "quoteId".into(),
        request.quote_id().map(QuoteId::as_str).into(),
    );
    Ok(Json::value(&Value::Object(out)))
}

/// The caller's side of a fixed order plan: the time, campaigns, the
/// assets' decimals and the limit policy (strict unless `"spec"`, ruling 34).
#[derive(Debug, serde::Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct PlanInput {
    /// Milliseconds since the Unix epoch.
    now: u64,
    /// Campaign id to per-swap limit.
    #[serde(default)]
    campaigns: std::collections::BTreeMap<String, String>,
    /// The decimals of the pair's two assets (from `GET /v3/assets`).
    #[serde(default, deserialize_with = "crate::input::present")]
    decimals: Option<crate::input::DecimalsInput>,
    /// `"strict"` (default for plans) or `"spec"`.
    #[serde(default, deserialize_with = "crate::input::present")]
    limit_policy: Option<String>,
    /// The price guard (ruling 40); off when absent.
    #[serde(default, deserialize_with = "crate::input::present")]
    price_guard: Option<crate::input::GuardInput>,
    /// The networks of the pair's assets, by name (ruling 46).
    #[serde(default, deserialize_with = "crate::input::present")]
    networks: Option<NetworksInput>,
    /// Takes every non-sponsored rate as ExactOut-capable (ruling 4).
    #[serde(default)]
    assume_exact_out: bool,
}

/// `{from, to}`: the networks of the pair's two assets by the names asset
/// records use (`"ethereum"`, `"bitcoin"`, `"osmosis"`): addresses are
/// checked against their kind, and the plan says its addresses were checked
/// (ruling 46).
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct NetworksInput {
    from: String,
    to: String,
}

impl NetworksInput {
    /// The two kinds.
    pub(crate) fn kinds(
        &self,
    ) -> Result<
        (
            swaproute::screening::NetworkKind,
            swaproute::screening::NetworkKind,
        ),
        Failure,
    > {
        let kind = |field: &str, text: &str| {
            text.parse::<swaproute::discovery::Network>()
                .map(|network| network.kind())
                .map_err(|e| {
                    Failure::invalid_request(format!("options.networks.{field}: {e}"))
                        .with("field", "networks")
                })
        };
        Ok((kind("from", &self.from)?, kind("to", &self.to)?))
    }
}

/// The context's address knowledge from the options (ruling 46): the named
/// networks, and not the decimals-only records (their network is none).
pub(crate) fn with_networks<'a>(
    context: swaproute::order::OrderContext<'a>,
    networks: Option<&NetworksInput>,
) -> Result<swaproute::order::OrderContext<'a>, Failure> {
    let mut context = context;
    context.networks_known = false;
    match networks {
        Some(networks) => {
            let (from, to) = networks.kinds()?;
            Ok(context.with_networks(from, to))
        }
        None => Ok(context),
    }
}

/// The two asset records a plan rounds to: only `decimals` matters here;
/// the network is one of no particular kind, so addresses get the generic
/// checks (as without records).
pub(crate) fn listing(
    pair: &swaproute::PairId,
    decimals: crate::input::DecimalsInput,
) -> Result<swaproute::discovery::AssetsResponse, Failure> {
    let record = |id: &swaproute::AssetId, places: u8| {
        json!({"id": id.as_str(), "name": id.as_str(), "symbol": id.as_str(),
            "decimals": places, "network": "other"})
    };
    serde_json::from_value(json!([
        record(pair.from(), decimals.from),
        record(pair.to(), decimals.to)
    ]))
    .map_err(|e| {
        Failure::invalid_request(format!("options.decimals: {e}")).with("field", "decimals")
    })
}

/// The `limitPolicy` option of a plan: `"strict"` (the default, ruling 34)
/// or `"spec"`.
pub(crate) fn limit_policy(text: Option<&str>) -> Result<swaproute::route::LimitPolicy, Failure> {
    use swaproute::route::LimitPolicy;
    match text {
        None | Some("strict") => Ok(LimitPolicy::Strict),
        Some("spec") => Ok(LimitPolicy::Spec),
        Some(other) => Err(Failure::invalid_request(format!(
            "limitPolicy: {other:?} is neither \"strict\" nor \"spec\""
        ))
        .with("field", "limitPolicy")),
    }
}

/// Plans a fixed-rate order body over one pair's rates as a server does
/// (`FixedOrderRequest::plan`): the route, the order's amounts, and the
/// slippage check of ruling 33, whose failure carries `bound` and
/// `available`.
pub(crate) fn plan_fixed(rates: &swaproute::RatesResponse, body: &str, options: &str) -> Answer {
    with_plan_context(rates, body, options, |request, rates, context| {
        plan_answer(request, rates, context)
    })
}

/// Runs `f` on the body, the rates (ExactOut capability assumed when the
/// options say so) and the plan's context built from `options` (`now`, the
/// limit policy, campaigns, the guard, decimals, networks).
pub(crate) fn with_plan_context(
    rates: &swaproute::RatesResponse,
    body: &str,
    options: &str,
    f: impl FnOnce(
        &FixedOrderRequest,
        &swaproute::RatesResponse,
        &swaproute::order::OrderContext<'_>,
    ) -> Answer,
) -> Answer {
    use swaproute::order::OrderContext;
    use swaproute::screening::ScreeningPolicy;

    let request = FixedOrderRequest::from_json(body.as_bytes()).map_err(|e| refused(&e))?;
    let input: PlanInput = crate::failure::decode("options", options)?;
    let policy = limit_policy(input.limit_policy.as_deref())?;
    let campaigns = crate::input::campaigns(&input.campaigns)?;
    let guard = crate::input::guard(input.price_guard.as_ref())?;
    let screening = ScreeningPolicy::new();
    let listing = input
        .decimals
        .map(|decimals| listing(request.pair_id(), decimals))
        .transpose()?;
    let mut context = OrderContext::new(swaproute::EpochMillis::new(input.now), &screening)
        .with_campaigns(&campaigns)
        .with_limit_policy(policy);
    if let Some(guard) = &guard {
        context = context.with_price_guard(guard);
    }
    if let Some(listing) = &listing {
        let assets = listing
            .pair_assets(request.pair_id())
            .map_err(|e| Failure::invalid_request(format!("options.decimals: {e}")))?;
        context = context.with_assets(assets);
    }
    let context = with_networks(context, input.networks.as_ref())?;
    let assumed;
    let rates = if input.assume_exact_out {
        assumed = rates.clone().assume_exact_out();
        &assumed
    } else {
        rates
    };
    f(&request, rates, &context)
}

/// The plan's JSON, or the refusal.
fn plan_answer(
    request: &FixedOrderRequest,
    rates: &swaproute::RatesResponse,
    context: &swaproute::order::OrderContext<'_>,
) -> Answer {
    use swaproute::order::PlanError;
    match request.plan(rates, context) {
        Ok(plan) => {
            let to_amount = plan
                .promised_output()
                .unwrap_or_else(|| request.to_amount().get());
            let out = json!({
                "rateId": plan.rate_id().as_str(),
                "swapMode": plan.swap_mode().as_str(),
                "amount": plan.amount().to_string(),
                "toAmount": to_amount.to_string(),
                "amountLimits": serde_json::to_value(plan.amount_limits())
                    .map_err(|e| Failure::invalid_request(e.to_string()))?,
                "slippage": plan.slippage().percent().to_string(),
                "sponsoredByCampaignId": plan
                    .sponsored_by_campaign_id()
                    .map(swaproute::CampaignId::as_str),
                "addressesChecked": plan.addresses_checked(),
                "exactOutAssumed": plan.route().rate().is_exact_out_assumed(),
            });
            Ok(Json::value(&out))
        }
        Err(error) => {
            let failure = Failure::api(&error.to_api_error());
            Err(match &error {
                PlanError::RequiredInput(no_route) => {
                    failure.with("requiredInput", no_route.as_ref())
                }
                PlanError::AmountPrecision { field, .. } => failure.with("field", field.as_str()),
                PlanError::Slippage(_) if error.code() == swaproute::ErrorCode::InvalidRequest => {
                    failure.with("field", "slippage")
                }
                _ => failure,
            })
        }
    }
}
