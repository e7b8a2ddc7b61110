#![allow(clippy::arithmetic_side_effects)]
//! Ruling 17 (docs/RULES.md): every documented cap, at the cap and just past it, with
//! the error that names it; decoding stops at the cap (work counted); selection
//! over the largest response accounts for every rate once.

use std::cell::Cell;

use serde::de::value::SeqDeserializer;
use serde::Deserialize;
use swaproute::caip::{
    Caip19AssetId, Caip19AssetType, CaipComponent, ChainId, InvalidCaipId, MAX_ASSET_ID_LEN,
    MAX_ASSET_TYPE_LEN, MAX_CHAIN_ID_LEN,
};
use swaproute::client::forwarded::{MAX_ELEMENTS, MAX_PARAMS};
use swaproute::client::{
    ClientHeader, ClientHeaders, Forwarded, ForwardedError, HeaderError, Integration,
    MAX_HEADER_LEN,
};
use swaproute::order::{OrderStatus, TransactionId, MAX_STATUS_LEN, MAX_TRANSACTION_ID_LEN};
use swaproute::rate::{InvalidRates, MAX_RATES};
use swaproute::route::{Rejection, Route};
use swaproute::screening::{
    Address, AddressTag, InvalidAddress, RegionCode, MAX_ADDRESS_LEN, MAX_ADDRESS_TAG_LEN,
    MAX_REGION_CODE_LEN,
};
use swaproute::{
    Amount, AssetId, CampaignId, EpochMillis, InvalidId, OrderId, QuoteId, Rate, RateId,
    RatesResponse, RouteRequest, MAX_ID_LEN,
};

fn text(len: usize) -> String {
    "a".repeat(len)
}

// ---------------------------------------------------------------- ids

#[test]
fn ids_at_and_past_max_id_len() {
    assert_eq!(MAX_ID_LEN, 512);
    let at = text(MAX_ID_LEN);
    let past = text(MAX_ID_LEN + 1);
    assert_eq!(RateId::new(&at).unwrap().as_str().len(), MAX_ID_LEN);
    assert_eq!(
        RateId::new(&past),
        Err(InvalidId::TooLong {
            len: MAX_ID_LEN + 1
        })
    );
    // Every id type shares the cap.
    assert!(AssetId::new(&at).is_ok() && AssetId::new(&past).is_err());
    assert!(CampaignId::new(&at).is_ok() && CampaignId::new(&past).is_err());
    assert!(OrderId::new(&at).is_ok() && OrderId::new(&past).is_err());
    assert!(QuoteId::new(&at).is_ok() && QuoteId::new(&past).is_err());
    // The cap counts bytes: 256 two-byte characters fit, one more does not.
    assert!(RateId::new(&"é".repeat(MAX_ID_LEN / 2)).is_ok());
    assert_eq!(
        RateId::new(&"é".repeat(MAX_ID_LEN / 2 + 1)),
        Err(InvalidId::TooLong {
            len: MAX_ID_LEN + 2
        })
    );
    assert_eq!(
        InvalidId::TooLong {
            len: MAX_ID_LEN + 1
        }
        .to_string(),
        "id is 513 bytes long, more than the 512 allowed"
    );
}

#[test]
fn a_rate_id_past_the_cap_fails_decoding_with_the_cap_in_the_message() {
    let rate = |id: &str| {
        format!(
            r#"[{{"amount":{{"assetId":"E","value":1}},"expiry":1,"id":"{id}","max":{{"assetId":"B","value":1}},"min":{{"assetId":"B","value":0}},"minerFee":{{"assetId":"E","value":0}},"pairId":"B_E"}}]"#
        )
    };
    let ok: RatesResponse = serde_json::from_str(&rate(&text(MAX_ID_LEN))).unwrap();
    assert_eq!(ok[0].id().as_str().len(), MAX_ID_LEN);
    let error = serde_json::from_str::<RatesResponse>(&rate(&text(MAX_ID_LEN + 1))).unwrap_err();
    assert!(
        error
            .to_string()
            .contains("513 bytes long, more than the 512 allowed"),
        "{error}"
    );
}

// ---------------------------------------------------------- screening

#[test]
fn addresses_at_and_past_max_address_len() {
    assert_eq!(MAX_ADDRESS_LEN, 128);
    assert_eq!(
        Address::new(&text(MAX_ADDRESS_LEN)).unwrap().as_str().len(),
        MAX_ADDRESS_LEN
    );
    assert_eq!(
        Address::new(&text(MAX_ADDRESS_LEN + 1)),
        Err(InvalidAddress::TooLong {
            len: MAX_ADDRESS_LEN + 1
        })
    );
    assert_eq!(
        InvalidAddress::TooLong { len: 129 }.to_string(),
        "address is 129 bytes long, more than the 128 allowed"
    );
}

#[test]
fn address_tags_at_and_past_max_address_tag_len() {
    assert_eq!(MAX_ADDRESS_TAG_LEN, 256);
    assert!(AddressTag::new(&text(MAX_ADDRESS_TAG_LEN)).is_ok());
    let error = AddressTag::new(&text(MAX_ADDRESS_TAG_LEN + 1)).unwrap_err();
    assert_eq!(
        (error.kind(), error.reason()),
        (swaproute::ParseErrorKind::AddressTag, "TOO_LONG")
    );
    assert!(AddressTag::new_optional(&text(MAX_ADDRESS_TAG_LEN + 1)).is_err());
    assert_eq!(
        error.to_string(),
        "address tag is 257 bytes long, more than the 256 allowed"
    );
}

#[test]
fn region_codes_at_and_past_max_region_code_len() {
    assert_eq!(MAX_REGION_CODE_LEN, 6);
    assert_eq!(RegionCode::new("us-abc").unwrap().as_str(), "US-ABC");
    assert!(RegionCode::new("US-ABCD").is_err());
}

// ------------------------------------------------------------ headers

fn headers<'a>(pairs: &[(&'a str, &'a str)]) -> Result<ClientHeaders, HeaderError> {
    ClientHeaders::from_pairs(pairs.iter().copied(), Integration::Direct)
}

#[test]
fn header_values_at_and_past_max_header_len() {
    assert_eq!(MAX_HEADER_LEN, 8 * 1024);
    let at = text(MAX_HEADER_LEN);
    let past = text(MAX_HEADER_LEN + 1);
    assert!(headers(&[("App-Name", &at)]).is_ok());
    assert_eq!(
        headers(&[("App-Name", &past)]),
        Err(HeaderError::TooLong {
            header: ClientHeader::AppName,
            len: MAX_HEADER_LEN + 1
        })
    );
    assert!(headers(&[("App-Name", "x"), ("User-Agent", &at)]).is_ok());
    assert_eq!(
        headers(&[("App-Name", "x"), ("User-Agent", &past)]),
        Err(HeaderError::TooLong {
            header: ClientHeader::UserAgent,
            len: MAX_HEADER_LEN + 1
        })
    );
    let error = headers(&[("App-Name", &past)]).unwrap_err();
    assert!(
        error
            .to_string()
            .contains("8193 bytes long, more than the 8192 allowed"),
        "{error}"
    );
}

#[test]
fn forwarded_values_at_and_past_max_header_len() {
    let head = "for=192.0.2.1;x=";
    let at = format!("{head}{}", text(MAX_HEADER_LEN - head.len()));
    assert_eq!(at.len(), MAX_HEADER_LEN);
    assert!(Forwarded::parse(&at).is_ok());
    let past = format!("{at}a");
    assert_eq!(
        Forwarded::parse(&past),
        Err(ForwardedError::TooLong {
            len: MAX_HEADER_LEN + 1
        })
    );
    // Repeated fields count together (joined by ", ").
    let first = "for=192.0.2.1";
    let second_at = format!(
        "for=192.0.2.2;x={}",
        text(MAX_HEADER_LEN - first.len() - 2 - "for=192.0.2.2;x=".len())
    );
    let pairs = [
        ("App-Name", "x"),
        ("Forwarded", first),
        ("Forwarded", second_at.as_str()),
    ];
    assert!(ClientHeaders::from_pairs(pairs, Integration::Proxying).is_ok());
    let second_past = format!("{second_at}a");
    let pairs = [
        ("App-Name", "x"),
        ("Forwarded", first),
        ("Forwarded", second_past.as_str()),
    ];
    assert!(ClientHeaders::from_pairs(pairs, Integration::Proxying).is_err());
}

#[test]
fn forwarded_elements_at_and_past_max_elements() {
    assert_eq!(MAX_ELEMENTS, 64);
    let at = vec!["for=unknown"; MAX_ELEMENTS].join(", ");
    assert_eq!(
        Forwarded::parse(&at).unwrap().elements().len(),
        MAX_ELEMENTS
    );
    let past = vec!["for=unknown"; MAX_ELEMENTS + 1].join(", ");
    assert_eq!(
        Forwarded::parse(&past),
        Err(ForwardedError::TooManyElements)
    );
    assert_eq!(
        ForwardedError::TooManyElements.to_string(),
        "more than 64 elements"
    );
    // Empty elements do not count, and do not make work unbounded either.
    let sparse = format!("{at}{}", ",".repeat(MAX_HEADER_LEN - at.len()));
    assert_eq!(sparse.len(), MAX_HEADER_LEN);
    assert_eq!(
        Forwarded::parse(&sparse).unwrap().elements().len(),
        MAX_ELEMENTS
    );
}

#[test]
fn forwarded_params_at_and_past_max_params() {
    assert_eq!(MAX_PARAMS, 16);
    let pairs = |n: usize| {
        (0..n)
            .map(|i| format!("p{i}=v"))
            .collect::<Vec<_>>()
            .join(";")
    };
    assert!(Forwarded::parse(&pairs(MAX_PARAMS)).is_ok());
    let error = Forwarded::parse(&pairs(MAX_PARAMS + 1)).unwrap_err();
    assert_eq!(error, ForwardedError::TooManyParams);
    assert_eq!(error.to_string(), "an element has more than 16 parameters");
}

// -------------------------------------------------------------- order

#[test]
fn status_text_at_and_past_max_status_len() {
    assert_eq!(MAX_STATUS_LEN, 64);
    let at = text(MAX_STATUS_LEN);
    assert_eq!(OrderStatus::parse(&at).unwrap().as_str(), at);
    let error = OrderStatus::parse(&text(MAX_STATUS_LEN + 1)).unwrap_err();
    assert_eq!(
        (error.kind(), error.reason()),
        (swaproute::ParseErrorKind::OrderStatus, "TOO_LONG")
    );
    assert_eq!(
        error.to_string(),
        "order status is 65 bytes long, more than the 64 allowed"
    );
    // The text is kept to its first 64 characters.
    assert_eq!(error.text(), text(MAX_STATUS_LEN));
    let json = format!("\"{}\"", text(MAX_STATUS_LEN + 1));
    let error = serde_json::from_str::<OrderStatus>(&json).unwrap_err();
    assert!(
        error
            .to_string()
            .contains("65 bytes long, more than the 64 allowed"),
        "{error}"
    );
}

#[test]
fn transaction_ids_at_and_past_max_transaction_id_len() {
    assert_eq!(MAX_TRANSACTION_ID_LEN, 256);
    assert!(TransactionId::new(&text(MAX_TRANSACTION_ID_LEN)).is_ok());
    let error = TransactionId::new(&text(MAX_TRANSACTION_ID_LEN + 1)).unwrap_err();
    assert_eq!(
        (error.kind(), error.reason()),
        (swaproute::ParseErrorKind::TransactionId, "TOO_LONG")
    );
    assert_eq!(
        error.to_string(),
        "transaction id is 257 bytes long, more than the 256 allowed"
    );
}

// --------------------------------------------------------------- caip

/// The longest CAIP-2 chain id: an 8-character namespace and a 32-character reference.
fn longest_chain() -> String {
    format!("{}:{}", "z".repeat(8), "R".repeat(32))
}

fn longest_asset_type() -> String {
    format!("{}/{}:{}", longest_chain(), "n".repeat(8), "x".repeat(128))
}

#[test]
fn caip_chain_ids_at_and_past_max_chain_id_len() {
    let at = longest_chain();
    assert_eq!(at.len(), MAX_CHAIN_ID_LEN);
    assert_eq!(ChainId::parse(&at).unwrap().to_string(), at);
    assert_eq!(
        ChainId::parse(&format!("{at}R")),
        Err(InvalidCaipId::TooLong {
            component: CaipComponent::Reference,
            len: 33
        })
    );
    assert_eq!(
        ChainId::parse(&format!("z{at}")),
        Err(InvalidCaipId::TooLong {
            component: CaipComponent::Namespace,
            len: 9
        })
    );
}

#[test]
fn caip_asset_types_at_and_past_max_asset_type_len() {
    let at = longest_asset_type();
    assert_eq!(at.len(), MAX_ASSET_TYPE_LEN);
    assert_eq!(Caip19AssetType::parse(&at).unwrap().to_string(), at);
    let error = Caip19AssetType::parse(&format!("{at}x")).unwrap_err();
    assert_eq!(
        error,
        InvalidCaipId::TooLong {
            component: CaipComponent::AssetReference,
            len: 129
        }
    );
    assert!(
        error.to_string().contains("more than the 128 allowed"),
        "{error}"
    );
}

#[test]
fn caip_asset_ids_at_and_past_max_asset_id_len() {
    let at = format!("{}/{}", longest_asset_type(), "9".repeat(78));
    assert_eq!(at.len(), MAX_ASSET_ID_LEN);
    assert_eq!(Caip19AssetId::parse(&at).unwrap().to_string(), at);
    assert_eq!(
        Caip19AssetId::parse(&format!("{at}9")),
        Err(InvalidCaipId::TooLong {
            component: CaipComponent::TokenId,
            len: 79
        })
    );
    // A megabyte of text is refused at the first over-long component.
    let huge = format!("eip155:1/erc20:{}", "x".repeat(1 << 20));
    assert!(matches!(
        Caip19AssetId::parse(&huge),
        Err(InvalidCaipId::TooLong {
            component: CaipComponent::AssetReference,
            ..
        })
    ));
}

// -------------------------------------------------------------- rates

const MINIMAL_RATE: &str = r#"{"amount":{"assetId":"E","value":2},"expiry":4102444800000,"id":"r","max":{"assetId":"B","value":10},"min":{"assetId":"B","value":0},"minerFee":{"assetId":"E","value":0},"pairId":"B_E"}"#;

/// A JSON array of `n` minimal rates, built in one buffer, each with its own
/// id (`r0`, `r1`, …: a response repeats no id).
fn rates_json(n: usize) -> String {
    let mut json = String::with_capacity(n * (MINIMAL_RATE.len() + 8) + 2);
    json.push('[');
    for i in 0..n {
        if i > 0 {
            json.push(',');
        }
        json.push_str(&MINIMAL_RATE.replacen(r#""id":"r""#, &format!(r#""id":"r{i}""#), 1));
    }
    json.push(']');
    json
}

#[test]
fn max_rates_decode_and_one_more_is_refused() {
    assert_eq!(MAX_RATES, 65_536);
    let rates: RatesResponse = serde_json::from_str(&rates_json(MAX_RATES)).unwrap();
    assert_eq!(rates.len(), MAX_RATES);
    let error = serde_json::from_str::<RatesResponse>(&rates_json(MAX_RATES + 1)).unwrap_err();
    assert!(
        error
            .to_string()
            .starts_with("65537 rates is more than the 65536 one response may carry"),
        "{error}"
    );
    // The same cap through TryFrom.
    let mut vec = rates.into_rates();
    let again = RatesResponse::try_from(vec.clone()).unwrap();
    assert_eq!(again.len(), MAX_RATES);
    vec.push(vec[0].clone());
    assert_eq!(
        RatesResponse::try_from(vec),
        Err(InvalidRates::TooMany { len: MAX_RATES + 1 })
    );
}

#[test]
fn decoding_stops_at_the_cap_on_an_endless_array() {
    // Work counted, not timed: an endless sequence of rates is pulled exactly
    // MAX_RATES + 1 times, then refused.
    let rate: serde_json::Value = serde_json::from_str(MINIMAL_RATE).unwrap();
    let pulled = Cell::new(0_usize);
    let endless = std::iter::repeat(rate).inspect(|_| pulled.set(pulled.get() + 1));
    let seq = SeqDeserializer::<_, serde_json::Error>::new(endless);
    let error = RatesResponse::deserialize(seq).unwrap_err();
    assert_eq!(pulled.get(), MAX_RATES + 1);
    assert!(error.to_string().contains("65537 rates"), "{error}");
}

#[test]
fn selection_over_max_rates_accounts_for_every_rate_once() {
    // Varied rates: half are eligible with distinct outputs, the rest are
    // rejected for four different reasons.
    let base: RatesResponse = serde_json::from_str(&rates_json(1)).unwrap();
    let template = base[0].clone();
    let rates: Vec<Rate> = (0..MAX_RATES)
        .map(|i| {
            let json = serde_json::to_string(&template)
                .unwrap()
                .replacen(
                    "\"value\":2",
                    &format!("\"value\":{}.{:05}", 2 + i % 7, i),
                    1,
                )
                .replacen("\"id\":\"r\"", &format!("\"id\":\"r{i}\""), 1);
            let mut rate: Rate = serde_json::from_str(&json).unwrap();
            match i % 8 {
                0 => rate = with_expiry(&rate, 1),
                1 => rate = rate.sponsored_by(CampaignId::new("c").unwrap()),
                _ => {}
            }
            rate.set_exact_out(i % 2 == 0);
            rate
        })
        .collect();
    let now = EpochMillis::new(1_785_000_000_000);
    for request in [
        RouteRequest::exact_in(Amount::parse("1").unwrap(), now),
        RouteRequest::exact_out(
            Amount::parse("1").unwrap(),
            Amount::parse("2").unwrap(),
            now,
        ),
        RouteRequest::exact_in(Amount::parse("11").unwrap(), now),
    ] {
        let selection = request.select(&rates);
        assert_eq!(
            selection.routes().len() + selection.rejected().len(),
            MAX_RATES
        );
        let mut seen = vec![false; MAX_RATES];
        let base = rates.as_ptr() as usize;
        let size = std::mem::size_of::<Rate>();
        for rate in selection
            .routes()
            .iter()
            .map(Route::rate)
            .chain(selection.rejected().iter().map(Rejection::rate))
        {
            let i = (std::ptr::from_ref(rate) as usize - base) / size;
            assert!(!seen[i], "rate {i} reported twice");
            seen[i] = true;
        }
        let best = request.best(&rates);
        assert_eq!(best.as_ref().ok(), selection.best());
        assert_eq!(best.err().as_ref(), selection.no_route());
        let top = request.top(&rates, 10);
        assert_eq!(
            top.as_deref().ok(),
            Some(selection.top(10)).filter(|_| selection.no_route().is_none())
        );
    }
}

fn with_expiry(rate: &Rate, expiry: u64) -> Rate {
    let mut json = serde_json::to_value(rate).unwrap();
    json["expiry"] = expiry.into();
    serde_json::from_value(json).unwrap()
}
