//! The strict amount grammar (ruling 1 in docs/RULES.md) on arbitrary text.
//!
//! - `parse_amount` accepts only what a tiny independent grammar check accepts
//!   (ASCII digits, at most one `.`, digits on both sides of it); grammatical text
//!   is refused only as too precise or out of range;
//! - accepted text → `Display` → `parse_amount` gives the same value, and the
//!   displayed text is a fixed point;
//! - the value is never negative; `Amount::parse` and `parse_json_number` (where
//!   the text is also a JSON number) agree with it;
//! - whenever `rust_decimal`'s exact parser takes grammatical text, the strict
//!   parser takes it too, with the same value (no false rejections);
//! - `Fixed8::ceil` of an accepted value, when it succeeds, is ≥ the value,
//!   < value + 1e-8 (checked exactly on integers), has scale 8 and is written
//!   with exactly 8 decimals; it fails only when that value does not fit.
#![no_main]

use libfuzzer_sys::fuzz_target;
use swaproute::decimal::{parse_amount, parse_json_number, Amount, DecimalError, Fixed8};
use swaproute::Decimal;

/// `digits [ "." digits ]`, checked without sharing any code with the library.
fn grammatical(text: &str) -> bool {
    let mut parts = text.split('.');
    let int = parts.next().unwrap_or("");
    let frac = parts.next();
    if parts.next().is_some() {
        return false;
    }
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    digits(int) && frac.map_or(true, digits)
}

/// JSON forbids leading zeros in the integer part.
fn json_number(text: &str) -> bool {
    let int = text.split('.').next().unwrap_or("");
    int == "0" || !int.starts_with('0')
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let grammar = grammatical(text);
    let parsed = parse_amount(text);
    assert_eq!(
        Amount::parse(text).map(Amount::get),
        parsed,
        "Amount and parse_amount disagree on {text:?}"
    );
    assert_eq!(text.parse::<Amount>().map(Amount::get), parsed);

    let value = match parsed {
        Ok(value) => value,
        Err(error) => {
            if grammar {
                assert!(
                    matches!(error, DecimalError::TooPrecise | DecimalError::OutOfRange),
                    "grammatical {text:?} refused with {error:?}"
                );
                // No false rejection: what rust_decimal holds exactly, we accept.
                if let Ok(exact) = Decimal::from_str_exact(text) {
                    panic!("{text:?} holds exactly as {exact} but was refused with {error:?}");
                }
            }
            return;
        }
    };

    assert!(grammar, "{text:?} accepted but is not `digits [. digits]`");
    assert!(
        !value.is_sign_negative(),
        "accepted {text:?} as a negative value"
    );

    // Display round trip, and the displayed form is canonical.
    let shown = value.to_string();
    let again = parse_amount(&shown).expect("the display of an accepted value parses");
    assert_eq!(again, value, "{text:?} -> {shown:?} changed the value");
    assert_eq!(again.to_string(), shown, "display is not a fixed point");
    assert!(grammatical(&shown), "display {shown:?} leaves the grammar");

    if let Ok(exact) = Decimal::from_str_exact(text) {
        assert_eq!(exact, value, "rust_decimal reads {text:?} differently");
    }
    if json_number(text) {
        assert_eq!(
            parse_json_number(text),
            Ok(value),
            "parse_json_number disagrees on {text:?}"
        );
    }

    // 8-dp rounding up, against an exact integer oracle (the decimal sum
    // `value + 1e-8` itself rounds near the top of the range).
    let want = ceil8_mantissa(value);
    match Fixed8::ceil(value) {
        Ok(fixed) => {
            let rounded = fixed.get();
            assert!(rounded >= value, "ceil({value}) = {rounded} is below it");
            assert_eq!(
                rounded.scale(),
                8,
                "ceil({value}) = {rounded} is not scale 8"
            );
            assert_eq!(
                Some(rounded.mantissa()),
                want,
                "ceil({value}) = {rounded} is not the least 8-dp value >= it (so not < it + 1e-8)"
            );
            let written = fixed.to_string();
            let decimals = written.split('.').nth(1).map_or(0, str::len);
            assert_eq!(decimals, 8, "ceil({value}) is written {written:?}");
        }
        // Fails only when the rounded mantissa does not fit 96 bits.
        Err(error) => assert_eq!(want, None, "ceil({value}) failed with {error:?}"),
    }
});

/// The mantissa at scale 8 of the least multiple of 1e-8 that is >= `value`
/// (non-negative), computed on integers; `None` when it does not fit 96 bits.
fn ceil8_mantissa(value: Decimal) -> Option<i128> {
    let (mantissa, scale) = (value.mantissa(), value.scale());
    let ceil = if scale <= 8 {
        mantissa.checked_mul(10_i128.pow(8 - scale))?
    } else {
        let unit = 10_i128.pow(scale - 8);
        mantissa / unit + i128::from(mantissa % unit != 0)
    };
    (ceil < 1_i128 << 96).then_some(ceil)
}
