//! Doubles to decimals, through their shortest round-trip digits.

use rust_decimal::Decimal;

use super::{parse_json_number, DecimalError};
use crate::numeric::{MANTISSA_LIMIT, SCALE};

/// The shortest decimal that round-trips `value`: exactly the text a
/// double-based JSON encoder writes for it (`0.1` → `0.1`, not
/// `0.1000000000000000055…`).
///
/// Doubles of the magnitudes amounts have (about `1e-15` to `4.5e15`) take
/// [`shortest_exact`], integer arithmetic on the double's bits. The rest
/// (zero, subnormals, huge or tiny values, powers of two) go through `zmij`
/// (the shortest round-trip formatter serde_json writes floats with), which
/// prints the same digits into a stack buffer, possibly in exponent form
/// (`1e-7`), for [`parse_json_number`] to read exactly. Doubles outside
/// `Decimal`'s range or precision are refused by the parser.
pub(crate) fn decimal_from_f64(value: f64) -> Result<Decimal, DecimalError> {
    if let Some(decimal) = shortest_exact(value) {
        return Ok(decimal);
    }
    via_text(value)
}

/// 2^53: every integer of at most this magnitude is a double exactly.
const EXACT_INTEGER: u64 = 1 << 53;

/// A JSON integer token as the decimal of its double (ruling 1): exact up
/// to 2^53, and above it the shortest decimal of the nearest double, the
/// same decimal the value written as a float (`9007199254740993.0`) decodes
/// to. A double-based encoder, the service's, never writes more.
///
/// With the crate's `arbitrary-precision` feature every number keeps its
/// exact text, integers too (serde_json still hands those that fit `u64`
/// over as integers), so both forms agree on the exact value.
pub(crate) fn decimal_from_u64(value: u64) -> Decimal {
    if value <= EXACT_INTEGER || cfg!(feature = "arbitrary-precision") {
        return Decimal::from(value);
    }
    // The conversion rounds to the nearest double, as a JSON parser does.
    #[allow(clippy::cast_precision_loss)]
    let double = value as f64;
    decimal_from_f64(double).unwrap_or_else(|_| Decimal::from(value))
}

/// [`decimal_from_u64`] for a signed integer token.
pub(crate) fn decimal_from_i64(value: i64) -> Decimal {
    let mut decimal = decimal_from_u64(value.unsigned_abs());
    decimal.set_sign_negative(value < 0);
    decimal
}

/// The same decimal through the formatter's text: the general path, and the
/// reference [`shortest_exact`] is tested against.
fn via_text(value: f64) -> Result<Decimal, DecimalError> {
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

/// Bits of a double's stored significand.
const SIGNIFICAND_BITS: u32 = 52;
/// `2^52`, the implicit leading bit of a normal double's significand.
const HIDDEN_BIT: u64 = 1 << SIGNIFICAND_BITS;
/// The biased exponent of a double whose significand counts units of `2^0`.
const EXPONENT_BIAS: u64 = 1075;
/// The largest `k` [`shortest_exact`] scales by (`10^k`): `5^31 < 2^72`, so
/// `significand × 5^k` (below `2^125`), twice it and every distance stay in a `u128`.
const MAX_K: u32 = 31;
/// The largest `n` of a value `c × 2^-n` that still needs `k <= MAX_K`.
const MAX_N: u32 = 102;
/// `5^k` for `k` in `0..=MAX_K`.
const POW5: [u128; MAX_K as usize + 1] = pow5_table();

// Evaluated at compile time: an index out of range or an overflow would be a
// build error, never a run-time panic.
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
const fn pow5_table() -> [u128; MAX_K as usize + 1] {
    let mut table = [1u128; MAX_K as usize + 1];
    let mut k = 1;
    while k <= MAX_K as usize {
        table[k] = table[k - 1] * 5;
        k += 1;
    }
    table
}

/// `k = ⌈n · log10 2⌉` for `1 <= n <= MAX_N`: the power of ten that scales a
/// unit in the last place, `2^-n`, to between 1 and 10 (`10^(k-1) < 2^n < 10^k`;
/// `n · log10 2` is never an integer). `⌊n · log10 2⌋ = (n × 78913) >> 18`
/// holds far past `MAX_N`; a test checks every `n` used.
fn ceil_log10_pow2(n: u32) -> u32 {
    // n <= 102: the product is below 2^23.
    (n.wrapping_mul(78_913) >> 18).wrapping_add(1)
}

/// The shortest decimal that round-trips a normal double `c × 2^-n` with
/// `1 <= n <= MAX_N` and `c` not a power of two (the rounding interval is then
/// symmetric), by exact integer arithmetic; `None` for every other double.
///
/// Scaled by `10^k` (`k` from [`ceil_log10_pow2`]), the value is
/// `c × 5^k / 2^(n-k)` and one unit in its last place is `5^k / 2^(n-k)`,
/// between 1 and 10. The doubles that read back as `value` are those within
/// half a unit of it (no candidate is ever exactly on a bound, see below).
/// A multiple of 10 in that interval (at most one: it is narrower than
/// 10) is the shortest decimal; otherwise every integer in it has as many digits
/// as the others, and the one nearest to the value is taken (the interval holds
/// it: half a unit is more than ½), an exact tie going to the even one. That is
/// the shortest round-trip text's definition, so the result equals the
/// formatter's.
fn shortest_exact(value: f64) -> Option<Decimal> {
    let bits = value.to_bits();
    let negative = bits >> 63 != 0;
    let biased = (bits >> SIGNIFICAND_BITS) & 0x7ff;
    let stored = bits & HIDDEN_BIT.wrapping_sub(1);
    if biased == 0 || stored == 0 {
        // Zero, subnormals, and powers of two (whose lower neighbour is
        // nearer than the upper one): the general path.
        return None;
    }
    let significand = stored | HIDDEN_BIT;
    let n = u32::try_from(EXPONENT_BIAS.checked_sub(biased)?).ok()?;
    if n == 0 || n > MAX_N {
        return None;
    }
    let k = ceil_log10_pow2(n);
    let unit = *POW5.get(usize::try_from(k).ok()?)?;
    // The value × 10^k is `scaled / 2^shift`; one unit in the last place is
    // `unit / 2^shift`. Bounds that keep the wrapping operations below exact:
    // significand < 2^53 and unit <= 5^31 < 2^72, so scaled < 2^125;
    // shift = n - k <= 71, so every distance (at most 10 × 2^shift) and twice
    // it stay below 2^76.
    let shift = n.checked_sub(k)?;
    let scaled = u128::from(significand).wrapping_mul(unit);
    let whole = u64::try_from(scaled.checked_shr(shift)?).ok()?;
    let one = 1u128.checked_shl(shift)?;
    let rest = scaled & one.wrapping_sub(1);
    // A candidate at distance `d / 2^shift` from the value reads back as it
    // when `2d` is below `unit`. `2d` is even and `unit = 5^k` odd, so they are
    // never equal: whether a bound is included (round half to even) never arises.
    let reads_back = |distance: u128| -> bool {
        let twice = distance.wrapping_mul(2);
        twice < unit
    };
    // The multiples of 10 on either side of the value.
    let tens = whole / 10;
    let last = whole % 10;
    let below = u128::from(last).checked_shl(shift)?.wrapping_add(rest);
    let above = u128::from(10u64.wrapping_sub(last))
        .checked_shl(shift)?
        .wrapping_sub(rest);
    let (mut digits, mut scale) = if reads_back(below) {
        (tens, k.checked_sub(1)?)
    } else if reads_back(above) {
        (tens.checked_add(1)?, k.checked_sub(1)?)
    } else {
        let twice_rest = rest.wrapping_mul(2);
        let up = twice_rest > one || (twice_rest == one && whole & 1 == 1);
        (whole.checked_add(u64::from(up))?, k)
    };
    // Trailing zeros of the fraction do not change the value. Most doubles
    // end in another digit: one test spares them the five below.
    let ends_in_zero = digits.checked_rem(10)? == 0;
    for step in [16u32, 8, 4, 2, 1] {
        if ends_in_zero && step <= scale {
            let power = 10u64.checked_pow(step)?;
            if digits.checked_rem(power)? == 0 {
                digits = digits.checked_div(power)?;
                scale = scale.wrapping_sub(step);
            }
        }
    }
    let magnitude = i128::from(digits);
    // A u64 magnitude: negating it cannot overflow an i128.
    let signed = if negative {
        magnitude.wrapping_neg()
    } else {
        magnitude
    };
    Decimal::try_from_i128_with_scale(signed, scale).ok()
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
        wide = wide.checked_mul(10).filter(|&m| m < MANTISSA_LIMIT)?;
        scale = scale.saturating_add(1);
    }
    let scale = u32::try_from(scale).ok().filter(|&s| s <= SCALE)?;
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

    /// A small deterministic generator for the comparisons below.
    struct Lcg(u64);

    impl Lcg {
        fn next(&mut self) -> u64 {
            self.0 = self
                .0
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            self.0 ^ (self.0 >> 29)
        }

        fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }
    }

    /// The double `c × 2^-n` (`c` a normal significand, `1 <= n <= 1074`).
    fn double(c: u64, n: u32, negative: bool) -> f64 {
        let biased = EXPONENT_BIAS - u64::from(n);
        f64::from_bits(u64::from(negative) << 63 | biased << 52 | (c & (HIDDEN_BIT - 1)))
    }

    /// The exact path, where it answers, gives the formatter's decimal with
    /// the formatter's scale.
    fn agrees(value: f64) -> bool {
        match shortest_exact(value) {
            Some(exact) => {
                let text = via_text(value).unwrap();
                assert_eq!(exact, text, "{value:e}");
                assert_eq!(exact.scale(), text.scale(), "{value:e}");
                true
            }
            None => false,
        }
    }

    #[test]
    fn exact_path_reaches_its_smallest_exponent() {
        // 1e-15 lies in [2^-50, 2^-49) (8.9e-16 to 1.8e-15): it is stored as
        // c × 2^-102, the last exponent the exact path takes (k = 31).
        let bits = 1e-15f64.to_bits();
        assert_eq!(EXPONENT_BIAS - ((bits >> 52) & 0x7ff), u64::from(MAX_N));
        let exact = shortest_exact(1e-15).unwrap();
        assert_eq!((exact.mantissa(), exact.scale()), (1, 15));
        // 5e-16 lies in [2^-51, 2^-50): one exponent further, the general path.
        assert_eq!(shortest_exact(5e-16), None);
    }

    #[test]
    fn formatter_text_is_read_by_the_narrow_reader() {
        // The formatter's forms are read here, not handed to the full parser
        // (which would give the same decimals, only slower): (text, mantissa, scale).
        let read = |text: &str| shortest_text(text.as_bytes()).map(|d| (d.mantissa(), d.scale()));
        assert_eq!(read("0.1"), Some((1, 1)));
        assert_eq!(read("123"), Some((123, 0)));
        assert_eq!(read("-2.5"), Some((-25, 1)));
        assert_eq!(read("2.50"), Some((25, 1)));
        assert_eq!(read("1e-7"), Some((1, 7)));
        assert_eq!(read("1.5E3"), Some((1500, 0)));
        assert_eq!(read("1e20"), Some((100_000_000_000_000_000_000, 0)));
        assert_eq!(read("0"), Some((0, 0)));
        // Not the formatter's grammar: left to the full parser.
        assert_eq!(read("1.2.3"), None);
        assert_eq!(read("1x"), None);
        assert_eq!(read("1e"), None);
        // Exponents of at most four digits (the formatter writes three).
        assert_eq!(read("1e0001"), Some((10, 0)));
        assert_eq!(read("1e00001"), None);
    }

    #[test]
    fn scaling_power_of_ten_puts_a_unit_between_1_and_10() {
        for n in 1..=MAX_N {
            let k = ceil_log10_pow2(n);
            let two = 1u128 << n;
            assert!(10u128.pow(k - 1) < two && two < 10u128.pow(k), "n = {n}");
            assert!(k <= MAX_K);
        }
    }

    #[test]
    fn exact_path_takes_amount_magnitudes_and_leaves_the_rest() {
        for value in [
            0.1,
            33.1,
            0.000_191_92,
            8.330_286_57,
            1e-14,
            4e15,
            3.0,
            1e-5,
        ] {
            assert!(agrees(value), "{value:e}");
            assert!(agrees(-value), "{value:e}");
        }
        // Zero, subnormals, powers of two, integers of 2^53 and up, below ~1e-15.
        for value in [0.0, -0.0, 5e-324, 1.0, 0.5, 1024.0, 1e16, 1e-16, 1e300] {
            assert_eq!(shortest_exact(value), None, "{value:e}");
        }
    }

    #[test]
    fn exact_path_agrees_with_the_formatter_on_random_doubles() {
        let mut rng = Lcg(0x0ddb_a115_eed0);
        let mut taken = 0u32;
        for _ in 0..200_000 {
            // Every significand at every exponent of the exact path's range.
            let c = HIDDEN_BIT | rng.below(HIDDEN_BIT);
            let n = 1 + u32::try_from(rng.below(u64::from(MAX_N) + 4)).unwrap();
            taken += u32::from(agrees(double(c, n, rng.below(2) == 0)));
        }
        // All but the draws past MAX_N and those of more than 28 decimal places.
        assert!(taken > 170_000, "{taken}");
    }

    #[test]
    fn exact_path_agrees_with_the_formatter_on_short_decimals() {
        // Doubles read from decimals of 1 to 17 digits: the shorter-candidate
        // branch, trailing zeros, values a digit either side of a power of ten.
        let mut rng = Lcg(0x000f_eed0_cafe);
        for _ in 0..200_000 {
            let digits = 1 + u32::try_from(rng.below(17)).unwrap();
            let mantissa = rng.below(10u64.pow(digits));
            let exponent = i32::try_from(rng.below(32)).unwrap() - 16;
            let value: f64 = alloc::format!("{mantissa}e{exponent}").parse().unwrap();
            agrees(value);
            agrees(f64::from_bits(value.to_bits() + 1));
            agrees(f64::from_bits(value.to_bits().saturating_sub(1)));
        }
    }

    #[test]
    fn exact_path_agrees_with_the_formatter_on_ties() {
        // Doubles exactly halfway between two integers once scaled by 10^k
        // (`c × 5^k` an odd multiple of 2^(n-k-1)), and doubles with the
        // extreme significands, at every exponent of the range.
        let mut rng = Lcg(0x71e5);
        let mut ties = 0u32;
        for n in 1..=MAX_N {
            let zeros = (n - ceil_log10_pow2(n)).checked_sub(1);
            for _ in 0..200 {
                if let Some(zeros) = zeros.filter(|&z| z < 52) {
                    let odd = (rng.below(1 << (53 - zeros)) | 1) << zeros;
                    if odd >= HIDDEN_BIT {
                        ties += u32::from(agrees(double(odd, n, false)));
                    }
                }
            }
            for c in [
                HIDDEN_BIT + 1,
                HIDDEN_BIT + 2,
                2 * HIDDEN_BIT - 1,
                2 * HIDDEN_BIT - 2,
            ] {
                agrees(double(c, n, false));
            }
        }
        assert!(ties > 1_000, "{ties}");
    }
}
