//! Property tests of order request intake (both flows). Case counts follow
//! `PROPTEST_CASES` (proptest's default configuration).
//!
//! - any JSON-ish body decodes into the loose `Raw*` types and validates
//!   without panicking;
//! - a generated valid request serializes and re-validates to an equal
//!   request (and serializing is a fixed point);
//! - validation errors are never empty, are sorted by the documented priority
//!   (code class, then the spec's field order), name each field at most once,
//!   and `first()` is `all()[0]`.
#![allow(clippy::arithmetic_side_effects)]

use crate::common;
use common::json_body::set_key;
use common::order_priority;

use proptest::collection::{btree_map, vec};
use proptest::prelude::*;
use serde_json::{json, Map, Value};
use swaproute::order::{
    FixedOrderRequest, FloatOrderRequest, RawFixedOrderRequest, RawFloatOrderRequest, RequestErrors,
};
use swaproute::{Decimal, ErrorCode, SwapMode};

const FIXED_KEYS: [&str; 9] = [
    "fromAmount",
    "fromAddress",
    "fromAddressTag",
    "toAmount",
    "toAddress",
    "toAddressTag",
    "pairId",
    "slippage",
    "swapMode",
];

fn check_errors(errors: &RequestErrors) -> Result<(), TestCaseError> {
    let all = errors.all();
    prop_assert!(!all.is_empty());
    prop_assert_eq!(errors.first(), &all[0]);
    let keys: Vec<(u8, u8)> = all.iter().map(order_priority::priority).collect();
    let mut sorted = keys.clone();
    sorted.sort_unstable();
    prop_assert_eq!(&keys, &sorted, "not in priority order: {:?}", all);
    let mut fields: Vec<u8> = keys.iter().map(|k| k.1).collect();
    fields.sort_unstable();
    fields.dedup();
    prop_assert_eq!(fields.len(), all.len(), "a field reported twice: {:?}", all);
    for error in all {
        let details = error.to_api_error().details().to_owned();
        prop_assert!(
            details.starts_with(&format!("{}: ", error.field().as_str())),
            "details do not name the field: {}",
            details
        );
    }
    let api = errors.to_api_error();
    prop_assert_eq!(api.code(), all[0].code());
    prop_assert_eq!(api.http_status().as_u16(), 400);
    Ok(())
}

// ------------------------------------------------------------ strategies

fn interesting_string() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "",
            " ",
            "0",
            "0.0",
            "0.5",
            "1",
            "100",
            "100.1",
            "-0.1",
            "1e5",
            "1E5",
            "-1",
            "+1",
            "1.",
            ".5",
            "1..2",
            "NaN",
            "abc",
            "ExactIn",
            "ExactOut",
            "exactin",
            "BTC_ETH",
            "BTC",
            "_",
            "A_B_C",
            "0x0000000000000000000000000000000000000000",
            "0x52908400098527886E0F7030069857D2E4169EE7",
            "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
            "79228162514264337593543950335",
            "79228162514264337593543950336",
            "0.00000000000000000000000000001",
            "a\u{0}b",
            "\u{feff}1",
            "１",
            "tag with spaces",
            "\n",
        ])
        .prop_map(str::to_owned),
        "[0-9]{1,32}(\\.[0-9]{1,32})?",
        "[A-Za-z0-9_ .-]{0,12}",
        any::<String>(),
    ]
}

fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        any::<u64>().prop_map(|n| json!(n)),
        any::<f64>()
            .prop_filter("JSON has no NaN or infinities", |f| f.is_finite())
            .prop_map(|f| json!(f)),
        (0u64..1_000_000, 0u32..12).prop_map(|(m, s)| {
            // A short decimal as a JSON number.
            let text = Decimal::new(i64::try_from(m).unwrap(), s).to_string();
            serde_json::from_str::<Value>(&text).unwrap()
        }),
        interesting_string().prop_map(Value::String),
    ]
}

fn json_value() -> impl Strategy<Value = Value> {
    leaf().prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            vec(inner.clone(), 0..4).prop_map(Value::Array),
            btree_map("[a-zA-Z]{0,6}", inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

fn any_key() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(FIXED_KEYS.to_vec()).prop_map(str::to_owned),
        Just("quoteId".to_owned()),
        "[a-zA-Z]{0,10}",
    ]
}

/// An arbitrary JSON object that often uses the order keys.
fn json_body() -> impl Strategy<Value = Value> {
    btree_map(any_key(), json_value(), 0..12).prop_map(|m| Value::Object(m.into_iter().collect()))
}

fn amount_text() -> impl Strategy<Value = String> {
    (1u64..=1_000_000_000_000_000, 0u32..=18)
        .prop_map(|(m, s)| Decimal::new(i64::try_from(m).unwrap(), s).to_string())
}

fn address() -> impl Strategy<Value = String> {
    prop_oneof![
        "0x[0-9a-f]{40}",
        "bc1q[02-9ac-hj-np-z]{38}",
        "r[1-9A-HJ-NP-Za-km-z]{24,34}",
        "[!-~]{1,128}",
    ]
}

fn tag() -> impl Strategy<Value = Option<Value>> {
    prop_oneof![
        Just(None),
        Just(Some(Value::Null)),
        Just(Some(json!(""))),
        "[0-9]{1,10}".prop_map(|t| Some(json!(t))),
        // A visible character first: a tag of only spaces is refused (ruling 28).
        "[!-~é漢][ -~é漢]{0,39}".prop_map(|t| Some(json!(t))),
    ]
}

fn asset() -> impl Strategy<Value = String> {
    "[A-Za-z0-9.:-]{1,12}"
}

/// A valid `POST /v3/orders` body: amounts as strings or integers, optional
/// keys absent or null, slippage as number or string.
fn valid_fixed_body() -> impl Strategy<Value = Value> {
    (
        (amount_text(), any::<bool>()),
        prop_oneof![Just(None), address().prop_map(Some)],
        tag(),
        (amount_text(), 1u64..1_000_000_000, any::<bool>()),
        address(),
        tag(),
        (asset(), asset()),
        prop_oneof![
            Just(None),
            Just(Some(Value::Null)),
            // 0.00 to 100.00 percent as a numeric string, or as a number below.
            (0i64..=10_000).prop_map(|n| Some(json!(Decimal::new(n, 2).to_string()))),
            (0i64..=10_000).prop_map(|n| {
                let text = Decimal::new(n, 2).to_string();
                Some(serde_json::from_str::<Value>(&text).unwrap())
            }),
        ],
        prop_oneof![
            Just(None),
            Just(Some(Value::Null)),
            Just(Some(json!("ExactIn"))),
            Just(Some(json!("ExactOut"))),
        ],
    )
        .prop_map(
            |(
                (from_amount, from_as_text),
                from_address,
                from_tag,
                (to_amount, to_integer, to_as_text),
                to_address,
                to_tag,
                (from_asset, to_asset),
                slippage,
                swap_mode,
            )| {
                let mut body = Map::new();
                body.insert(
                    "fromAmount".into(),
                    if from_as_text {
                        json!(from_amount)
                    } else {
                        // The same amount as a JSON number when it is an integer.
                        match from_amount.parse::<u64>() {
                            Ok(n) => json!(n),
                            Err(_) => json!(from_amount),
                        }
                    },
                );
                body.insert(
                    "fromAddress".into(),
                    from_address.map_or(Value::Null, Value::String),
                );
                if let Some(t) = from_tag {
                    body.insert("fromAddressTag".into(), t);
                }
                body.insert(
                    "toAmount".into(),
                    if to_as_text {
                        json!(to_amount)
                    } else {
                        json!(to_integer)
                    },
                );
                body.insert("toAddress".into(), json!(to_address));
                if let Some(t) = to_tag {
                    body.insert("toAddressTag".into(), t);
                }
                body.insert("pairId".into(), json!(format!("{from_asset}_{to_asset}")));
                if let Some(s) = slippage {
                    body.insert("slippage".into(), s);
                }
                if let Some(m) = swap_mode {
                    body.insert("swapMode".into(), m);
                }
                Value::Object(body)
            },
        )
}

/// A valid fixed body with up to four keys replaced by arbitrary JSON or removed.
fn mutated_fixed_body() -> impl Strategy<Value = Value> {
    (
        valid_fixed_body(),
        vec(
            (
                prop::sample::select(FIXED_KEYS.to_vec()),
                prop::option::of(json_value()),
            ),
            0..5,
        ),
    )
        .prop_map(|(mut body, edits)| {
            for (key, value) in edits {
                set_key(&mut body, key, value);
            }
            body
        })
}

/// A floating body (ruling 19, docs/RULES.md: the fixed body without
/// `swapMode`, optional `quoteId`) with up to four keys replaced or removed.
fn mutated_float_body() -> impl Strategy<Value = Value> {
    (
        valid_fixed_body(),
        prop::option::of("[ -~]{1,40}"),
        vec(
            (
                prop::sample::select(vec![
                    "pairId",
                    "fromAmount",
                    "toAmount",
                    "slippage",
                    "quoteId",
                    "fromAddress",
                    "fromAddressTag",
                    "toAddress",
                    "toAddressTag",
                    "swapMode",
                ]),
                prop::option::of(json_value()),
            ),
            0..4,
        ),
    )
        .prop_map(|(mut body, quote_id, edits)| {
            set_key(&mut body, "swapMode", None);
            if let Some(id) = quote_id {
                set_key(&mut body, "quoteId", Some(json!(id)));
            }
            for (key, value) in edits {
                set_key(&mut body, key, value);
            }
            body
        })
}

fn fixed(text: &str) -> Result<FixedOrderRequest, RequestErrors> {
    let raw: RawFixedOrderRequest =
        serde_json::from_str(text).expect("every JSON object decodes into the raw request");
    FixedOrderRequest::validate(&raw)
}

fn float(text: &str) -> Result<FloatOrderRequest, RequestErrors> {
    let raw: RawFloatOrderRequest =
        serde_json::from_str(text).expect("every JSON object decodes into the raw request");
    FloatOrderRequest::validate(&raw)
}

// ------------------------------------------------------------ properties

proptest! {
    #[test]
    fn any_json_object_decodes_and_validates_without_panicking(body in json_body()) {
        let text = serde_json::to_string(&body).unwrap();
        match fixed(&text) {
            Ok(request) => {
                let again = fixed(&serde_json::to_string(&request).unwrap()).unwrap();
                prop_assert_eq!(again, request);
            }
            Err(errors) => check_errors(&errors)?,
        }
        match float(&text) {
            Ok(request) => {
                let again = float(&serde_json::to_string(&request).unwrap()).unwrap();
                prop_assert_eq!(again, request);
            }
            Err(errors) => check_errors(&errors)?,
        }
    }

    #[test]
    fn any_text_never_panics(text in prop_oneof![
        any::<String>(),
        json_value().prop_map(|v| serde_json::to_string(&v).unwrap()),
        "\\{\"(fromAmount|slippage|swapMode|quoteId)\":[-0-9.eE+\"a-z]{0,30}\\}",
    ]) {
        if let Ok(raw) = serde_json::from_str::<RawFixedOrderRequest>(&text) {
            if let Err(errors) = FixedOrderRequest::validate(&raw) {
                check_errors(&errors)?;
            }
        }
        if let Ok(raw) = serde_json::from_str::<RawFloatOrderRequest>(&text) {
            if let Err(errors) = FloatOrderRequest::validate(&raw) {
                check_errors(&errors)?;
            }
        }
    }

    #[test]
    fn valid_request_round_trips_through_its_wire_shape(body in valid_fixed_body()) {
        let text = serde_json::to_string(&body).unwrap();
        let request = match fixed(&text) {
            Ok(request) => request,
            Err(errors) => return Err(TestCaseError::fail(format!("{text}: {:?}", errors.all()))),
        };

        // The validated values are the body's.
        let from = &body["fromAmount"];
        let from_text = from.as_str().map_or_else(|| from.to_string(), str::to_owned);
        prop_assert_eq!(request.from_amount().get(), from_text.parse::<Decimal>().unwrap());
        prop_assert_eq!(request.pair_id().as_str(), body["pairId"].as_str().unwrap());
        prop_assert_eq!(request.parties().to_address().as_str(), body["toAddress"].as_str().unwrap());
        prop_assert_eq!(
            request.parties().from_address().map(|a| a.as_str().to_owned()),
            body["fromAddress"].as_str().map(str::to_owned)
        );
        let expected_mode = match body.get("swapMode").and_then(Value::as_str) {
            Some("ExactOut") => SwapMode::ExactOut,
            _ => SwapMode::ExactIn,
        };
        prop_assert_eq!(request.swap_mode(), expected_mode);
        let expected_slippage = match body.get("slippage") {
            None | Some(Value::Null) => Decimal::TWO,
            Some(Value::String(s)) => s.parse().unwrap(),
            Some(n) => n.to_string().parse().unwrap(),
        };
        prop_assert_eq!(request.slippage().percent(), expected_slippage);
        for (key, got) in [
            ("fromAddressTag", request.parties().from_address_tag().map(|t| t.as_str().to_owned())),
            ("toAddressTag", request.parties().to_address_tag().map(|t| t.as_str().to_owned())),
        ] {
            let sent = body.get(key).and_then(Value::as_str).filter(|t| !t.is_empty());
            prop_assert_eq!(got.as_deref(), sent);
        }

        // Wire shape: amounts as sent (ruling 52: a string as that string, a
        // number as a number); slippage (a number) and swapMode written when
        // sent, as null when sent as null.
        let wire = serde_json::to_value(&request).unwrap();
        for key in ["fromAmount", "toAmount"] {
            match &body[key] {
                Value::String(text) => prop_assert_eq!(wire[key].as_str(), Some(text.as_str())),
                _ => prop_assert!(wire[key].is_number()),
            }
        }
        match body.get("slippage") {
            None => prop_assert!(wire.get("slippage").is_none()),
            Some(Value::Null) => prop_assert!(wire["slippage"].is_null()),
            Some(_) => prop_assert!(wire["slippage"].is_number()),
        }
        match body.get("swapMode") {
            None => prop_assert!(wire.get("swapMode").is_none()),
            Some(Value::Null) => prop_assert!(wire["swapMode"].is_null()),
            Some(_) => prop_assert_eq!(wire["swapMode"].as_str(), Some(expected_mode.as_str())),
        }

        let encoded = serde_json::to_string(&request).unwrap();
        let again = fixed(&encoded).unwrap();
        prop_assert_eq!(&again, &request);
        prop_assert_eq!(serde_json::to_string(&again).unwrap(), encoded.clone());
        let typed: FixedOrderRequest = serde_json::from_str(&encoded).unwrap();
        prop_assert_eq!(typed, request);
    }

    #[test]
    fn fixed_errors_are_sorted_by_the_documented_priority(body in mutated_fixed_body()) {
        let text = serde_json::to_string(&body).unwrap();
        match fixed(&text) {
            Ok(request) => {
                let again = fixed(&serde_json::to_string(&request).unwrap()).unwrap();
                prop_assert_eq!(again, request);
            }
            Err(errors) => {
                check_errors(&errors)?;
                // The typed decoder fails with the same first error.
                let err = serde_json::from_str::<FixedOrderRequest>(&text).unwrap_err();
                prop_assert!(err.to_string().contains(&errors.first().to_string()));
            }
        }
    }

    #[test]
    fn float_errors_are_sorted_by_the_documented_priority(body in mutated_float_body()) {
        let text = serde_json::to_string(&body).unwrap();
        let swap_mode_sent = body.get("swapMode").is_some_and(|m| !m.is_null());
        match float(&text) {
            Ok(request) => {
                prop_assert!(!swap_mode_sent, "a floating body with swapMode was accepted");
                prop_assert_eq!(request.swap_mode(), SwapMode::ExactIn);
                let again = float(&serde_json::to_string(&request).unwrap()).unwrap();
                prop_assert_eq!(again, request);
            }
            Err(errors) => {
                check_errors(&errors)?;
                let mode_errors = errors
                    .all()
                    .iter()
                    .filter(|e| e.code() == ErrorCode::UnsupportedSwapMode)
                    .count();
                prop_assert_eq!(mode_errors, usize::from(swap_mode_sent));
            }
        }
    }

    /// The floating body is validated by the fixed body's field rules: with
    /// `swapMode` and `quoteId` left out, both flows report the same errors
    /// in the same order (or both accept, with the same fields).
    #[test]
    fn float_validation_is_the_fixed_validation(body in mutated_float_body()) {
        let mut body = body;
        set_key(&mut body, "swapMode", None);
        set_key(&mut body, "quoteId", None);
        let text = serde_json::to_string(&body).unwrap();
        let describe = |errors: &RequestErrors| -> Vec<String> {
            errors.all().iter().map(|e| format!("{:?} {}", e.code(), e)).collect()
        };
        match (fixed(&text), float(&text)) {
            (Ok(fixed), Ok(float)) => {
                prop_assert_eq!(fixed.pair_id(), float.pair_id());
                prop_assert_eq!(fixed.from_amount(), float.from_amount());
                prop_assert_eq!(fixed.to_amount(), float.to_amount());
                prop_assert_eq!(fixed.parties(), float.parties());
                prop_assert_eq!(fixed.slippage(), float.slippage());
            }
            (Err(fixed), Err(float)) => prop_assert_eq!(describe(&fixed), describe(&float)),
            (fixed, float) => prop_assert!(false, "{:?} vs {:?}", fixed.is_ok(), float.is_ok()),
        }
    }
}
