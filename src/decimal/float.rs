//! Doubles to decimals, through their shortest round-trip text.

use rust_decimal::Decimal;

use super::{parse_json_number, DecimalError};

/// The shortest decimal that round-trips `value`: exactly the text a
/// double-based JSON encoder writes for it (`0.1` → `0.1`, not
/// `0.1000000000000000055…`).
///
/// `zmij` (the shortest round-trip formatter serde_json writes floats with)
/// prints that text into a stack buffer, possibly in exponent form (`1e-7`),
/// and [`parse_json_number`] reads it exactly. Doubles outside `Decimal`'s
/// range or precision are refused by the parser.
pub(crate) fn decimal_from_f64(value: f64) -> Result<Decimal, DecimalError> {
    if !value.is_finite() {
        return Err(DecimalError::NotFinite);
    }
    let mut buffer = zmij::Buffer::new();
    let text = buffer.format_finite(value);
    // The formatter's output is a narrow grammar (`-?d+(.d+)?(e-?d+)?`, at
    // most 17 significant digits): read it directly, and leave everything
    // unusual (out of range, too precise) to the full parser and its errors.
    match shortest_text(text.as_bytes()) {
        Some(decimal) => Ok(decimal),
        None => parse_json_number(text),
    }
}

/// Reads the formatter's text when the value plainly fits a `Decimal`;
/// the same value and scale as [`parse_json_number`] gives.
fn shortest_text(bytes: &[u8]) -> Option<Decimal> {
    let (negative, rest) = match bytes.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, bytes),
    };
    let mut mantissa: u64 = 0;
    let mut fraction_digits: i32 = 0;
    let mut in_fraction = false;
    let mut exponent: i32 = 0;
    let mut iter = rest.iter();
    while let Some(&byte) = iter.next() {
        match byte {
            b'0'..=b'9' => {
                mantissa = mantissa
                    .checked_mul(10)?
                    .checked_add(u64::from(byte.wrapping_sub(b'0')))?;
                if in_fraction {
                    fraction_digits = fraction_digits.checked_add(1)?;
                }
            }
            b'.' if !in_fraction => in_fraction = true,
            b'e' | b'E' => {
                exponent = read_exponent(iter.as_slice())?;
                break;
            }
            _ => return None,
        }
    }
    if mantissa == 0 {
        return Some(Decimal::ZERO);
    }
    // Trailing zeros of the fraction do not change the value.
    while fraction_digits > 0 && mantissa % 10 == 0 {
        mantissa /= 10;
        fraction_digits = fraction_digits.saturating_sub(1);
    }
    let mut scale = fraction_digits.checked_sub(exponent)?;
    let mut wide = u128::from(mantissa);
    while scale < 0 {
        wide = wide.checked_mul(10).filter(|&m| m < 1 << 96)?;
        scale = scale.saturating_add(1);
    }
    let scale = u32::try_from(scale).ok().filter(|&s| s <= 28)?;
    let signed = i128::try_from(wide).ok()?;
    let signed = if negative {
        signed.checked_neg()?
    } else {
        signed
    };
    Decimal::try_from_i128_with_scale(signed, scale).ok()
}

/// `-?d+` with at most four digits.
fn read_exponent(bytes: &[u8]) -> Option<i32> {
    let (negative, digits) = match bytes.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, bytes),
    };
    if digits.is_empty() || digits.len() > 4 {
        return None;
    }
    let mut value: i32 = 0;
    for &byte in digits {
        if !byte.is_ascii_digit() {
            return None;
        }
        value = value
            .checked_mul(10)?
            .checked_add(i32::from(byte.wrapping_sub(b'0')))?;
    }
    Some(if negative {
        value.saturating_neg()
    } else {
        value
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::float_arithmetic)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn shortest_round_trip_text() {
        let d = |v: f64| decimal_from_f64(v).unwrap().to_string();
        assert_eq!(d(0.1), "0.1");
        assert_eq!(d(33.098_927_169_677_374), "33.098927169677374");
        assert_eq!(d(0.000_191_92), "0.00019192");
        assert_eq!(d(0.0), "0");
        assert_eq!(d(-0.0), "0");
        assert_eq!(d(-2.5), "-2.5");
        assert_eq!(d(1e20), "100000000000000000000");
        assert_eq!(d(1e-7), "0.0000001");
    }

    #[test]
    fn same_decimal_as_the_display_text_up_to_ties() {
        // The old conversion (Display, then the full parser) is the reference.
        let mut state: u64 = 0x1234_5678_9ABC_DEF0;
        for _ in 0..200_000 {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            // Half of the cases anywhere in the double range, half at the
            // magnitudes rates have (17 digits scaled by 10^-12..10^12).
            let value = if state & 1 == 0 {
                f64::from_bits(state >> 2)
            } else {
                let digits = (state >> 8) % 100_000_000_000_000_000;
                let exp = i32::try_from((state >> 1) % 25).unwrap() - 12 - 16;
                let power = alloc::format!("1e{exp}").parse::<f64>().unwrap();
                alloc::format!("{digits}").parse::<f64>().unwrap() * power
            };
            if !value.is_finite() {
                continue;
            }
            let reference = parse_json_number(&alloc::format!("{value}"));
            let ours = decimal_from_f64(value);
            match (ours, reference) {
                (Ok(a), Ok(b)) if a != b => {
                    // Two shortest texts equally near the double: `Display`
                    // rounds the tie up, the formatter (like JSON encoders:
                    // ECMAScript's Number::toString, Python's repr) to even.
                    // Both are shortest and both read back as the double.
                    assert_eq!(a.scale(), b.scale(), "{value:e}");
                    let back = |d: Decimal| alloc::format!("{d}").parse::<f64>().unwrap();
                    assert_eq!(back(a).to_bits(), value.to_bits(), "{value:e}");
                    assert_eq!(back(b).to_bits(), value.to_bits(), "{value:e}");
                    assert_eq!(a.mantissa() % 2, 0, "ties go to even: {value:e}");
                }
                (Ok(a), Ok(b)) => assert_eq!(a.scale(), b.scale(), "{value:e}"),
                (a, b) => assert_eq!(a, b, "{value:e}"),
            }
        }
        for value in [1.0, 100.0, 1e20, 1.5e-7, 123.456, 7.9e28, 1e-28, 5e-324] {
            assert_eq!(
                decimal_from_f64(value),
                parse_json_number(&alloc::format!("{value}")),
                "{value:e}"
            );
        }
    }

    #[test]
    fn out_of_range_doubles_are_errors() {
        assert_eq!(decimal_from_f64(f64::NAN), Err(DecimalError::NotFinite));
        assert_eq!(
            decimal_from_f64(f64::INFINITY),
            Err(DecimalError::NotFinite)
        );
        assert_eq!(decimal_from_f64(1e300), Err(DecimalError::OutOfRange));
        assert_eq!(decimal_from_f64(1e-300), Err(DecimalError::TooPrecise));
        assert_eq!(decimal_from_f64(1e29), Err(DecimalError::OutOfRange));
    }
}
