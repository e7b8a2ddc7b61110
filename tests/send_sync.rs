#![allow(clippy::arithmetic_side_effects)]
//! Every public type is `Send + Sync` (a server shares rates, policies
//! and selections across threads). Checked at compile time, module by module;
//! a type that stops being `Send + Sync` fails the build of this test.

fn assert_send_sync<T: Send + Sync>() {}

#[test]
fn decimal() {
    use swaproute::decimal::{Amount, Decimal, DecimalError, Fixed8, WireNumber};
    assert_send_sync::<Amount>();
    assert_send_sync::<Decimal>();
    assert_send_sync::<DecimalError>();
    assert_send_sync::<Fixed8>();
    assert_send_sync::<WireNumber>();
}

#[test]
fn error() {
    use swaproute::error::{ApiError, ErrorBody, ErrorCode, HttpStatus};
    assert_send_sync::<ApiError>();
    assert_send_sync::<ErrorBody>();
    assert_send_sync::<ErrorCode>();
    assert_send_sync::<HttpStatus>();
    assert_send_sync::<swaproute::ParseError>();
    assert_send_sync::<swaproute::ParseErrorKind>();
}

#[test]
fn ids_and_root() {
    use swaproute::{
        AssetId, CampaignId, EpochMillis, InvalidId, OrderId, ProviderOrderId, QuoteId, RateId,
        Slippage, SwapMode,
    };
    assert_send_sync::<AssetId>();
    assert_send_sync::<CampaignId>();
    assert_send_sync::<InvalidId>();
    assert_send_sync::<OrderId>();
    assert_send_sync::<ProviderOrderId>();
    assert_send_sync::<QuoteId>();
    assert_send_sync::<RateId>();
    assert_send_sync::<EpochMillis>();
    assert_send_sync::<Slippage>();
    assert_send_sync::<swaproute::SlippageError>();
    assert_send_sync::<swaproute::SlippageExceeded>();
    assert_send_sync::<swaproute::order::RequiredInputNoRoute>();
    assert_send_sync::<swaproute::order::NearestRoute>();
    assert_send_sync::<SwapMode>();
}

#[test]
fn rate() {
    use swaproute::rate::{
        AssetAmount, CampaignLimits, Feature, Features, InvalidPairId, InvalidRates, MixedPairs,
        PairId, Rate, RateDefect, RateField, RateTerms, RatesResponse,
    };
    assert_send_sync::<InvalidRates>();
    assert_send_sync::<MixedPairs>();
    assert_send_sync::<RateField>();
    assert_send_sync::<AssetAmount>();
    assert_send_sync::<CampaignLimits>();
    assert_send_sync::<Feature>();
    assert_send_sync::<Features>();
    assert_send_sync::<InvalidPairId>();
    assert_send_sync::<PairId>();
    assert_send_sync::<Rate>();
    assert_send_sync::<RateDefect>();
    assert_send_sync::<RateTerms>();
    assert_send_sync::<RatesResponse>();
}

#[test]
fn route() {
    use swaproute::route::{
        Estimate, LimitCheck, LimitPolicy, NoRoute, RateBook, RejectReason, Rejection, Route,
        RouteRequest, Selection, TopN,
    };
    fn borrowed<'a>(_: &'a str) {
        assert_send_sync::<Estimate<'a>>();
        assert_send_sync::<RateBook<'a>>();
        assert_send_sync::<Rejection<'a>>();
        assert_send_sync::<Route<'a>>();
        assert_send_sync::<RouteRequest<'a>>();
        assert_send_sync::<Selection<'a>>();
        assert_send_sync::<TopN<'a, 1>>();
        assert_send_sync::<TopN<'a, 16>>();
    }
    borrowed("");
    assert_send_sync::<LimitCheck>();
    assert_send_sync::<LimitPolicy>();
    assert_send_sync::<NoRoute>();
    assert_send_sync::<RejectReason>();
    assert_send_sync::<RouteRequest<'static>>();
}

#[test]
fn quote() {
    assert_send_sync::<swaproute::quote::Quote>();
}

#[test]
fn order() {
    use swaproute::order::{
        DepositTransactionUpdate, ExtraFeatures, FieldError, FixedOrderPlan, FixedOrderRequest,
        FloatOrderPlan, FloatOrderRequest, Observation, Order, OrderContext, OrderStatus, Parties,
        RawFixedOrderRequest, RawFloatOrderRequest, RequestErrors, ToAmount, TransactionId,
        TransactionIdAlreadySet, UnknownStatus,
    };
    use swaproute::wire::{RequestField, Timestamp};
    fn borrowed<'a>(_: &'a str) {
        assert_send_sync::<FixedOrderPlan<'a>>();
        assert_send_sync::<FloatOrderPlan<'a>>();
        assert_send_sync::<OrderContext<'a>>();
    }
    borrowed("");
    assert_send_sync::<DepositTransactionUpdate>();
    assert_send_sync::<ExtraFeatures>();
    assert_send_sync::<FieldError>();
    assert_send_sync::<FixedOrderRequest>();
    assert_send_sync::<FloatOrderRequest>();
    assert_send_sync::<Observation>();
    assert_send_sync::<Order>();
    assert_send_sync::<OrderStatus>();
    assert_send_sync::<Parties>();
    assert_send_sync::<RawFixedOrderRequest>();
    assert_send_sync::<RawFloatOrderRequest>();
    assert_send_sync::<RequestErrors>();
    assert_send_sync::<RequestField>();
    assert_send_sync::<Timestamp>();
    assert_send_sync::<ToAmount>();
    assert_send_sync::<TransactionId>();
    assert_send_sync::<TransactionIdAlreadySet>();
    assert_send_sync::<UnknownStatus>();
}

#[test]
fn client() {
    use swaproute::client::{
        AppPlatform, ClientHeader, ClientHeaders, Forwarded, ForwardedElement, ForwardedError,
        HeaderError, Integration, Node, NodeError, NodePort, ObfuscatedId,
    };
    assert_send_sync::<AppPlatform>();
    assert_send_sync::<ClientHeader>();
    assert_send_sync::<ClientHeaders>();
    assert_send_sync::<Forwarded>();
    assert_send_sync::<ForwardedElement>();
    assert_send_sync::<ForwardedError>();
    assert_send_sync::<HeaderError>();
    assert_send_sync::<Integration>();
    assert_send_sync::<Node>();
    assert_send_sync::<NodeError>();
    assert_send_sync::<NodePort>();
    assert_send_sync::<ObfuscatedId>();
}

#[test]
fn screening() {
    use swaproute::screening::{
        Address, AddressField, AddressTag, InvalidAddress, MarketState, NetworkKind, RegionCode,
        Restriction, ScreeningError, ScreeningPolicy, ScreeningRequest, TagField, TagWarning,
    };
    fn borrowed<'a>(_: &'a str) {
        assert_send_sync::<ScreeningRequest<'a>>();
    }
    borrowed("");
    assert_send_sync::<Address>();
    assert_send_sync::<AddressField>();
    assert_send_sync::<AddressTag>();
    assert_send_sync::<InvalidAddress>();
    assert_send_sync::<MarketState>();
    assert_send_sync::<NetworkKind>();
    assert_send_sync::<RegionCode>();
    assert_send_sync::<Restriction>();
    assert_send_sync::<ScreeningError>();
    assert_send_sync::<ScreeningPolicy>();
    assert_send_sync::<TagField>();
    assert_send_sync::<TagWarning>();
}

#[test]
fn caip() {
    use swaproute::caip::{
        AssetDirectory, AssetIdForm, AssetRef, Caip19AssetId, Caip19AssetType, CaipComponent,
        ChainId, DirectoryConflict, InvalidAssetRef, InvalidCaipId, ResolvedAsset, UnresolvedAsset,
    };
    assert_send_sync::<AssetDirectory>();
    assert_send_sync::<AssetIdForm>();
    assert_send_sync::<AssetRef>();
    assert_send_sync::<Caip19AssetId>();
    assert_send_sync::<Caip19AssetType>();
    assert_send_sync::<CaipComponent>();
    assert_send_sync::<ChainId>();
    assert_send_sync::<DirectoryConflict>();
    assert_send_sync::<InvalidAssetRef>();
    assert_send_sync::<InvalidCaipId>();
    assert_send_sync::<ResolvedAsset>();
    assert_send_sync::<UnresolvedAsset>();
}

#[test]
fn v4() {
    use swaproute::decimal::WireNumber;
    use swaproute::v4::{Quote, QuotePolicy, QuoteRequest, QuoteRequestBody, SigningNetwork};
    fn borrowed<'a>(_: &'a str) {
        assert_send_sync::<QuotePolicy<'a>>();
    }
    borrowed("");
    assert_send_sync::<Quote>();
    assert_send_sync::<QuoteRequest>();
    assert_send_sync::<QuoteRequestBody>();
    assert_send_sync::<SigningNetwork>();
    assert_send_sync::<WireNumber>();
}

/// Values cross threads in practice: a selection computed on one thread from
/// rates shared with another.
#[test]
fn shared_rates_select_on_other_threads() {
    use std::sync::Arc;
    use swaproute::{Amount, EpochMillis, RatesResponse, RouteRequest};
    let rates: Arc<RatesResponse> = Arc::new(
        serde_json::from_str(
            r#"[{"amount":{"assetId":"ETH","value":33.1},"expiry":4102444800000,"id":"a",
            "max":{"assetId":"BTC","value":8},"min":{"assetId":"BTC","value":0.001},
            "minerFee":{"assetId":"ETH","value":0.0002},"pairId":"BTC_ETH"}]"#,
        )
        .unwrap(),
    );
    let outputs: Vec<String> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..4)
            .map(|_| {
                let rates = Arc::clone(&rates);
                scope.spawn(move || {
                    let request = RouteRequest::exact_in(
                        Amount::parse("0.5").unwrap(),
                        EpochMillis::new(1_785_000_000_000),
                    );
                    request.best(&rates).unwrap().net_output().to_string()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert_eq!(outputs, vec!["16.5498"; 4]);
}

#[test]
fn discovery() {
    use swaproute::discovery::{
        Asset, AssetMeta, AssetText, AssetsResponse, Decimals, InvalidListing, InvalidPairsCsv,
        Network, Pair, PairAssets, PairDisagrees, PairsResponse, RenderError, TooPrecise,
    };
    assert_send_sync::<Asset>();
    assert_send_sync::<AssetMeta>();
    assert_send_sync::<AssetText>();
    assert_send_sync::<AssetsResponse>();
    assert_send_sync::<Decimals>();
    assert_send_sync::<InvalidListing>();
    assert_send_sync::<InvalidPairsCsv>();
    assert_send_sync::<Network>();
    assert_send_sync::<Pair>();
    assert_send_sync::<PairAssets<'static>>();
    assert_send_sync::<PairDisagrees>();
    assert_send_sync::<PairsResponse>();
    assert_send_sync::<RenderError>();
    assert_send_sync::<TooPrecise>();
}
