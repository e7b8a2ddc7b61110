//! The one parser every decimal text goes through.

use rust_decimal::Decimal;

use super::DecimalError;
use crate::numeric::{MAX_MANTISSA, SCALE as MAX_SCALE};

/// Parses an amount string with the strict grammar `digits [ "." digits ]`.
///
/// ```
/// use swaproute::decimal::{parse_amount, DecimalError};
/// assert_eq!(parse_amount("0.00171604").unwrap().to_string(), "0.00171604");
/// assert_eq!(parse_amount("1e5"), Err(DecimalError::InvalidCharacter { found: 'e', at: 1 }));
/// assert_eq!(parse_amount(".5"), Err(DecimalError::MissingDigits));
/// ```
///
/// # Errors
/// [`DecimalError`] naming the first problem: empty text, a character outside
/// the grammar (sign, exponent, `_`, space…), a `.` without digits on both sides,
/// several dots, or more digits than a `Decimal` holds exactly.
pub fn parse_amount(text: &str) -> Result<Decimal, DecimalError> {
    let bytes = text.as_bytes();
    if bytes.is_empty() {
        return Err(DecimalError::Empty);
    }
    let mut dot = None;
    for (at, &b) in bytes.iter().enumerate() {
        match b {
            b'0'..=b'9' => {}
            b'.' if dot.is_none() => dot = Some(at),
            b'.' => return Err(DecimalError::MultipleDots),
            _ => return Err(invalid_char(text, at)),
        }
    }
    let (int, frac) = match dot {
        Some(at) => (
            bytes.get(..at).unwrap_or_default(),
            bytes.get(at.saturating_add(1)..).unwrap_or_default(),
        ),
        None => (bytes, &[][..]),
    };
    if int.is_empty() || (dot.is_some() && frac.is_empty()) {
        return Err(DecimalError::MissingDigits);
    }
    from_digits(int, frac, 0, false)
}

/// Parses the text of a JSON number exactly:
/// `-? (0 | [1-9][0-9]*) ( "." [0-9]+ )? ( [eE] [+-]? [0-9]+ )?`.
///
/// This is the form serde_json hands over with `arbitrary_precision`; unlike
/// [`parse_amount`] it allows a sign and an exponent.
///
/// ```
/// use swaproute::decimal::parse_json_number;
/// assert_eq!(parse_json_number("-1.5e2").unwrap().to_string(), "-150");
/// assert_eq!(parse_json_number("33.098927169677374").unwrap().to_string(), "33.098927169677374");
/// ```
///
/// # Errors
/// [`DecimalError`] when the text is not a JSON number or does not fit a
/// `Decimal` exactly.
pub fn parse_json_number(text: &str) -> Result<Decimal, DecimalError> {
    let bytes = text.as_bytes();
    let mut pos = 0usize;
    let negative = bytes.first() == Some(&b'-');
    if negative {
        pos = 1;
    }
    let int_start = pos;
    pos = skip_digits(bytes, pos);
    let int = bytes.get(int_start..pos).unwrap_or_default();
    if int.is_empty() {
        return Err(next_problem(text, pos));
    }
    if int.len() > 1 && int.first() == Some(&b'0') {
        return Err(invalid_char(text, int_start.saturating_add(1)));
    }
    let mut frac: &[u8] = &[];
    if bytes.get(pos) == Some(&b'.') {
        let start = pos.saturating_add(1);
        pos = skip_digits(bytes, start);
        frac = bytes.get(start..pos).unwrap_or_default();
        if frac.is_empty() {
            return Err(DecimalError::MissingDigits);
        }
    }
    let mut exponent: i64 = 0;
    if matches!(bytes.get(pos), Some(b'e' | b'E')) {
        pos = pos.saturating_add(1);
        let exp_negative = match bytes.get(pos) {
            Some(b'-') => {
                pos = pos.saturating_add(1);
                true
            }
            Some(b'+') => {
                pos = pos.saturating_add(1);
                false
            }
            _ => false,
        };
        let start = pos;
        pos = skip_digits(bytes, start);
        let digits = bytes.get(start..pos).unwrap_or_default();
        if digits.is_empty() {
            return Err(next_problem(text, pos));
        }
        for &d in digits {
            // Saturate: any exponent past ±10^6 is out of range anyway.
            exponent = exponent
                .saturating_mul(10)
                .saturating_add(i64::from(d.wrapping_sub(b'0')))
                .min(1_000_000);
        }
        if exp_negative {
            exponent = exponent.saturating_neg();
        }
    }
    if pos < bytes.len() {
        return Err(invalid_char(text, pos));
    }
    from_digits(int, frac, exponent, negative)
}

fn skip_digits(bytes: &[u8], mut pos: usize) -> usize {
    while matches!(bytes.get(pos), Some(b'0'..=b'9')) {
        pos = pos.saturating_add(1);
    }
    pos
}

fn next_problem(text: &str, at: usize) -> DecimalError {
    if at >= text.len() {
        if text.is_empty() {
            DecimalError::Empty
        } else {
            DecimalError::MissingDigits
        }
    } else {
        invalid_char(text, at)
    }
}

fn invalid_char(text: &str, at: usize) -> DecimalError {
    // Every caller stops at the first byte its grammar refuses, after ASCII
    // bytes only, so `at` starts a character (`get` would refuse one that did
    // not: U+FFFD would be reported then, never a panic).
    let found = text
        .get(at..)
        .and_then(|rest| rest.chars().next())
        .unwrap_or('\u{fffd}');
    DecimalError::InvalidCharacter { found, at }
}

/// Builds `±(int.frac) × 10^exponent` exactly, or fails.
fn from_digits(
    int: &[u8],
    frac: &[u8],
    exponent: i64,
    negative: bool,
) -> Result<Decimal, DecimalError> {
    // Drop digits that cannot change the value: leading zeros of the integer
    // part and trailing zeros of the fraction.
    let int = trim_start_zeros(int);
    let frac = trim_end_zeros(frac);
    // scale = number of fraction digits − exponent.
    let frac_len = i64::try_from(frac.len()).map_err(|_| DecimalError::TooPrecise)?;
    let mut scale = frac_len.saturating_sub(exponent);
    let mut mantissa: u128 = 0;
    for &d in int.iter().chain(frac) {
        mantissa = mantissa
            .checked_mul(10)
            .and_then(|m| m.checked_add(u128::from(d.wrapping_sub(b'0'))))
            .filter(|&m| m <= MAX_MANTISSA)
            .ok_or(if scale > 0 {
                DecimalError::TooPrecise
            } else {
                DecimalError::OutOfRange
            })?;
    }
    if mantissa == 0 {
        return Ok(Decimal::ZERO);
    }
    // A negative scale means trailing zeros to append to the mantissa.
    while scale < 0 {
        mantissa = mantissa
            .checked_mul(10)
            .filter(|&m| m <= MAX_MANTISSA)
            .ok_or(DecimalError::OutOfRange)?;
        scale = scale.saturating_add(1);
    }
    let scale = u32::try_from(scale).map_err(|_| DecimalError::TooPrecise)?;
    if scale > MAX_SCALE {
        return Err(DecimalError::TooPrecise);
    }
    let signed = i128::try_from(mantissa).map_err(|_| DecimalError::OutOfRange)?;
    let signed = if negative {
        signed.saturating_neg()
    } else {
        signed
    };
    Decimal::try_from_i128_with_scale(signed, scale).map_err(|_| DecimalError::OutOfRange)
}

fn trim_start_zeros(digits: &[u8]) -> &[u8] {
    let first = digits
        .iter()
        .position(|&d| d != b'0')
        .unwrap_or(digits.len());
    digits.get(first..).unwrap_or_default()
}

fn trim_end_zeros(digits: &[u8]) -> &[u8] {
    let end = digits
        .iter()
        .rposition(|&d| d != b'0')
        .map_or(0, |last| last.saturating_add(1));
    digits.get(..end).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    fn ok(text: &str) -> alloc::string::String {
        parse_amount(text).unwrap().to_string()
    }

    #[test]
    fn strict_grammar_accepts_plain_decimals() {
        assert_eq!(ok("0"), "0");
        assert_eq!(ok("0.5"), "0.5");
        assert_eq!(ok("007"), "7");
        assert_eq!(ok("1.50"), "1.5");
        assert_eq!(
            ok("79228162514264337593543950335"),
            "79228162514264337593543950335"
        );
        assert_eq!(
            ok("0.0000000000000000000000000001"),
            "0.0000000000000000000000000001"
        );
        // Zeros that do not change the value never make a text too precise.
        assert_eq!(ok("1.000000000000000000000000000000000000"), "1");
        assert_eq!(ok("0000000000000000000000000000000000000001"), "1");
    }

    #[test]
    fn strict_grammar_rejects_everything_else() {
        use DecimalError::*;
        assert_eq!(parse_amount(""), Err(Empty));
        assert_eq!(
            parse_amount("1e5"),
            Err(InvalidCharacter { found: 'e', at: 1 })
        );
        assert_eq!(
            parse_amount("1_000"),
            Err(InvalidCharacter { found: '_', at: 1 })
        );
        assert_eq!(
            parse_amount("-1"),
            Err(InvalidCharacter { found: '-', at: 0 })
        );
        assert_eq!(
            parse_amount("+1"),
            Err(InvalidCharacter { found: '+', at: 0 })
        );
        assert_eq!(
            parse_amount(" 1"),
            Err(InvalidCharacter { found: ' ', at: 0 })
        );
        assert_eq!(
            parse_amount("1 "),
            Err(InvalidCharacter { found: ' ', at: 1 })
        );
        assert_eq!(
            parse_amount("NaN"),
            Err(InvalidCharacter { found: 'N', at: 0 })
        );
        assert_eq!(parse_amount("1."), Err(MissingDigits));
        assert_eq!(parse_amount(".5"), Err(MissingDigits));
        assert_eq!(parse_amount("."), Err(MissingDigits));
        assert_eq!(parse_amount("1.2.3"), Err(MultipleDots));
        assert_eq!(
            parse_amount("1٣"),
            Err(InvalidCharacter { found: '٣', at: 1 })
        );
        // 2^96 does not fit the mantissa; 29 decimal places do not fit the scale.
        assert_eq!(
            parse_amount("79228162514264337593543950336"),
            Err(OutOfRange)
        );
        assert_eq!(
            parse_amount("0.00000000000000000000000000001"),
            Err(TooPrecise)
        );
        assert_eq!(
            parse_amount("9.9999999999999999999999999999"),
            Err(TooPrecise)
        );
    }

    #[test]
    fn json_numbers_parse_exactly() {
        let p = |t: &str| parse_json_number(t).unwrap().to_string();
        assert_eq!(p("0"), "0");
        assert_eq!(p("-0"), "0");
        assert_eq!(p("-12.25"), "-12.25");
        assert_eq!(p("1e5"), "100000");
        assert_eq!(p("1E+2"), "100");
        assert_eq!(p("15e-1"), "1.5");
        assert_eq!(p("0.1"), "0.1");
        assert_eq!(p("33.14218692377834"), "33.14218692377834");
        assert_eq!(p("123e-28"), "0.0000000000000000000000000123");
        assert_eq!(parse_json_number("123e-30"), Err(DecimalError::TooPrecise));
    }

    #[test]
    fn json_numbers_reject_non_json() {
        use DecimalError::*;
        assert_eq!(
            parse_json_number("01"),
            Err(InvalidCharacter { found: '1', at: 1 })
        );
        assert_eq!(parse_json_number("1."), Err(MissingDigits));
        assert_eq!(
            parse_json_number(".1"),
            Err(InvalidCharacter { found: '.', at: 0 })
        );
        assert_eq!(parse_json_number("-"), Err(MissingDigits));
        assert_eq!(parse_json_number(""), Err(Empty));
        assert_eq!(parse_json_number("1e"), Err(MissingDigits));
        assert_eq!(
            parse_json_number("1x"),
            Err(InvalidCharacter { found: 'x', at: 1 })
        );
        assert_eq!(parse_json_number("1e400"), Err(OutOfRange));
        assert_eq!(parse_json_number("1e-400"), Err(TooPrecise));
        assert_eq!(
            parse_json_number("1e999999999999999999999"),
            Err(OutOfRange)
        );
    }
}
