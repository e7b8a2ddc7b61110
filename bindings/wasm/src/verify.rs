//! `verifyOrder` / `verifyFloatOrder`: the order the service returned
//! checked against its plan and request (the price guard's options, which
//! a plan takes too, are read in `input.rs`).

#[cfg(feature = "orders")]
pub(crate) use orders::{verify_fixed, verify_float};

#[cfg(feature = "orders")]
mod orders {
    use serde::Deserialize;
    use serde_json::json;
    use swaproute::order::{
        FixedOrderRequest, FloatOrderRequest, Order, OrderContext, OrderMismatches, OrderRead,
    };
    use swaproute::quote::Quote;
    use swaproute::screening::ScreeningPolicy;
    use swaproute::{EpochMillis, RatesResponse};

    use crate::failure::{decode, Answer, Failure, Json};
    use crate::input::GuardInput;

    /// The options of a verification: the plan's (`now`, `campaigns`,
    /// `decimals`, `limitPolicy`, `priceGuard`: the same as the plan was
    /// made with) and `read`, `"created"` (the 201 body, default: its
    /// status must be `awaiting`) or `"fetched"` (a later `GET`).
    #[derive(Debug, Deserialize)]
    #[serde(rename_all = "camelCase", deny_unknown_fields)]
    struct VerifyInput {
        now: u64,
        #[serde(default)]
        campaigns: std::collections::BTreeMap<String, String>,
        #[serde(default, deserialize_with = "crate::input::present")]
        decimals: Option<crate::input::DecimalsInput>,
        #[serde(default, deserialize_with = "crate::input::present")]
        limit_policy: Option<String>,
        #[serde(default, deserialize_with = "crate::input::present")]
        price_guard: Option<GuardInput>,
        #[serde(default, deserialize_with = "crate::input::present")]
        read: Option<String>,
        #[serde(default, deserialize_with = "crate::input::present")]
        networks: Option<crate::order::NetworksInput>,
        #[serde(default)]
        assume_exact_out: bool,
    }

    fn read(text: Option<&str>) -> Result<OrderRead, Failure> {
        match text {
            None | Some("created") => Ok(OrderRead::Created),
            Some("fetched") => Ok(OrderRead::Fetched),
            Some(other) => Err(Failure::invalid_request(format!(
                "read: {other:?} is neither \"created\" nor \"fetched\""
            ))
            .with("field", "read")),
        }
    }

    /// `{ok, mismatches, addressesChecked, exactOutAssumed}`: every mismatch
    /// `{field, check, planned, returned}`.
    fn answer(
        verdict: Result<(), OrderMismatches>,
        addresses_checked: bool,
        exact_out_assumed: bool,
    ) -> Answer {
        let mismatches = match &verdict {
            Ok(()) => json!([]),
            Err(mismatches) => serde_json::to_value(mismatches)
                .map_err(|e| Failure::invalid_request(e.to_string()))?,
        };
        Ok(Json::value(&json!({
            "ok": verdict.is_ok(),
            "mismatches": mismatches,
            "addressesChecked": addresses_checked,
            "exactOutAssumed": exact_out_assumed,
        })))
    }

    fn order(text: &str) -> Result<Order, Failure> {
        decode("order", text)
    }

    /// Plans `body` over `rates` again with `options` (as `planFixedOrder`
    /// did) and verifies `order` against that plan (ruling 40).
    pub(crate) fn verify_fixed(
        rates: &RatesResponse,
        body: &str,
        order_text: &str,
        options: &str,
    ) -> Answer {
        let request =
            FixedOrderRequest::from_json(body.as_bytes()).map_err(|e| crate::order::refused(&e))?;
        let input: VerifyInput = decode("options", options)?;
        let order = order(order_text)?;
        let read = read(input.read.as_deref())?;
        let policy = crate::order::limit_policy(input.limit_policy.as_deref())?;
        let campaigns = crate::input::campaigns(&input.campaigns)?;
        let guard = crate::input::guard(input.price_guard.as_ref())?;
        let screening = ScreeningPolicy::new();
        let listing = input
            .decimals
            .map(|decimals| crate::order::listing(request.pair_id(), decimals))
            .transpose()?;
        let mut context = OrderContext::new(EpochMillis::new(input.now), &screening)
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
        let context = crate::order::with_networks(context, input.networks.as_ref())?;
        let assumed;
        let rates = if input.assume_exact_out {
            assumed = rates.clone().assume_exact_out();
            &assumed
        } else {
            rates
        };
        let plan = request
            .plan(rates, &context)
            .map_err(|e| Failure::api(&e.to_api_error()))?;
        answer(
            plan.verify(&request, &order, read),
            plan.addresses_checked(),
            plan.route().rate().is_exact_out_assumed(),
        )
    }

    /// `{now, read?}` of a floating order's verification.
    #[derive(Debug, Deserialize)]
    #[serde(rename_all = "camelCase", deny_unknown_fields)]
    struct FloatVerifyInput {
        now: u64,
        #[serde(default, deserialize_with = "crate::input::present")]
        read: Option<String>,
        #[serde(default, deserialize_with = "crate::input::present")]
        networks: Option<crate::order::NetworksInput>,
    }

    /// Plans the floating `body` from `quote` again and verifies `order`.
    pub(crate) fn verify_float(quote: &str, body: &str, order_text: &str, options: &str) -> Answer {
        let request =
            FloatOrderRequest::from_json(body.as_bytes()).map_err(|e| crate::order::refused(&e))?;
        let quote: Quote = decode("quote", quote)?;
        let input: FloatVerifyInput = decode("options", options)?;
        let order = order(order_text)?;
        let read = read(input.read.as_deref())?;
        let screening = ScreeningPolicy::new();
        let context = OrderContext::new(EpochMillis::new(input.now), &screening);
        let context = crate::order::with_networks(context, input.networks.as_ref())?;
        let plan = request
            .plan(&quote, &context)
            .map_err(|e| Failure::api(&e.to_api_error()))?;
        answer(
            plan.verify(&request, &order, read),
            plan.addresses_checked(),
            false,
        )
    }
}
