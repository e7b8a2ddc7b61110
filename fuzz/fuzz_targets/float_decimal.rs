//! JSON numbers to decimals: a number decodes to exactly the decimal its
//! text says, which is the shortest decimal that round-trips its double.
//!
//! - the number text is what a double-based encoder writes (`serde_json`'s,
//!   exponent form included: `1e-7`);
//! - it decodes (as an `AssetAmount` value) exactly when `rust_decimal` can
//!   hold the text's value, to that value with the same scale once the text's
//!   trailing fractional zeros are dropped (an integral double is written
//!   `8.0` by serde_json and `8` by JavaScript; both decode to `8`);
//! - independently of that encoder, the decoded decimal reads back as the same
//!   double and has as few significant digits as Rust's own shortest
//!   formatting (`{}` on an `f64`). The two may differ in the last digit: when
//!   the double lies exactly halfway between two shortest candidates, Rust
//!   rounds the tie up where `serde_json` rounds it to even;
//! - inputs are raw bits (every kind of double) or short decimals and their
//!   neighbouring doubles (the values a rate service really sends).
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use swaproute::rate::AssetAmount;
use swaproute::Decimal;

#[derive(Arbitrary, Debug)]
enum Input {
    /// Any double.
    Bits(u64),
    /// `digits × 10^-scale` read as a double, moved `step` doubles away.
    Near { digits: u64, scale: u8, step: i8 },
}

fn double(input: &Input) -> f64 {
    match *input {
        Input::Bits(bits) => f64::from_bits(bits),
        Input::Near {
            digits,
            scale,
            step,
        } => {
            let text = format!("{}e-{}", digits % 100_000_000_000_000_000, scale % 40);
            let near: f64 = text.parse().expect("a valid float literal");
            let bits = near.to_bits();
            f64::from_bits(bits.wrapping_add_signed(i64::from(step % 4)))
        }
    }
}

/// The decimal a number text says, read by `rust_decimal` alone (`None`
/// when it cannot hold it exactly).
fn text_value(number: &str) -> Option<Decimal> {
    if number.contains(['e', 'E']) {
        let value = Decimal::from_scientific(number).ok()?;
        // `from_scientific` may round; only an exact reading counts.
        let back: f64 = value.to_string().parse().ok()?;
        let original: f64 = number.parse().ok()?;
        (back == original && significant_digits(value) == mantissa_digits(number)).then_some(value)
    } else {
        Decimal::from_str_exact(number).ok()
    }
}

/// Significant digits of a decimal (trailing zeros of an integer do not count).
fn significant_digits(value: Decimal) -> usize {
    let digits = value.mantissa().unsigned_abs().to_string();
    digits.trim_end_matches('0').len().max(1)
}

/// Significant digits of a number text's mantissa (`1.25e-7` → 3).
fn mantissa_digits(number: &str) -> usize {
    let mantissa = number.split(['e', 'E']).next().unwrap_or("");
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    digits
        .trim_start_matches('0')
        .trim_end_matches('0')
        .len()
        .max(1)
}

fuzz_target!(|input: Input| {
    let value = double(&input);
    if !value.is_finite() {
        return;
    }
    let number = serde_json::to_string(&value).expect("a finite double encodes");
    let wire = format!(r#"{{"assetId":"BTC","value":{number}}}"#);
    let decoded = serde_json::from_str::<AssetAmount>(&wire).map(|a| a.value);
    let expected = text_value(&number).map(|d| d.normalize());
    match (decoded, expected) {
        (Ok(ours), Some(expected)) => {
            assert_eq!(ours, expected, "{number} decoded to {ours}");
            assert_eq!(ours.scale(), expected.scale(), "{number} decoded to {ours}");
            let back: f64 = ours
                .to_string()
                .parse()
                .expect("a decimal reads as a double");
            assert!(back == value, "{number}: {ours} reads back as {back}");
            if let Ok(shortest) = Decimal::from_str_exact(&format!("{value}")) {
                assert_eq!(
                    significant_digits(ours),
                    significant_digits(shortest),
                    "{number}: {ours} is not as short as {shortest}"
                );
            }
        }
        (Ok(ours), None) => panic!("{number} decoded to {ours}, which its text does not say"),
        (Err(error), Some(expected)) => {
            panic!("{number} refused ({error}), though {expected} fits")
        }
        (Err(_), None) => {}
    }
});
