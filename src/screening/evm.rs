//! EVM address syntax, the zero address and EIP-55 checksums.
//!
//! EIP-55: hash the 40 lower-case hex digits (ASCII, without `0x`) with
//! keccak-256; hex letter `i` is upper case exactly when nibble `i` of the hash
//! is 8 or more. Digits carry no case. An address whose letters are all lower
//! or all upper case carries no checksum.

use alloc::string::String;

use tiny_keccak::{Hasher, Keccak};

use super::invalid_address::InvalidAddress;

/// Number of hex digits of an EVM address after `0x`.
const HEX_DIGITS: usize = 40;

/// `true` for `0x` (or `0X`) followed by 40 zeros.
pub(crate) fn is_evm_zero_address(text: &str) -> bool {
    hex_part(text, true).is_some_and(|hex| hex.bytes().all(|b| b == b'0'))
}

/// The 40 hex digits after the prefix, when `text` has EVM shape.
/// `any_prefix_case` also accepts `0X`.
fn hex_part(text: &str, any_prefix_case: bool) -> Option<&str> {
    let hex = text.strip_prefix("0x").or_else(|| {
        if any_prefix_case {
            text.strip_prefix("0X")
        } else {
            None
        }
    })?;
    (hex.len() == HEX_DIGITS && hex.bytes().all(|b| b.is_ascii_hexdigit())).then_some(hex)
}

/// `true` when `text` is `0x`/`0X` + 40 hex digits in any case: the shape the
/// denylist compares case-insensitively.
pub(crate) fn looks_like_evm_hex(text: &str) -> bool {
    hex_part(text, true).is_some()
}

/// Checks `0x` + 40 hex digits and, for mixed case, EIP-55.
pub(crate) fn check_evm_address(text: &str) -> Result<(), InvalidAddress> {
    let hex = hex_part(text, false).ok_or(InvalidAddress::EvmSyntax)?;
    let has_lower = hex.bytes().any(|b| b.is_ascii_lowercase());
    let has_upper = hex.bytes().any(|b| b.is_ascii_uppercase());
    if !(has_lower && has_upper) {
        return Ok(());
    }
    if checksum_hex(hex).as_str() == hex {
        Ok(())
    } else {
        Err(InvalidAddress::EvmChecksum)
    }
}

/// The EIP-55 spelling of the 40 hex digits `hex` (any case).
fn checksum_hex(hex: &str) -> String {
    let lower = hex.to_ascii_lowercase();
    let mut hash = [0_u8; 32];
    let mut keccak = Keccak::v256();
    keccak.update(lower.as_bytes());
    keccak.finalize(&mut hash);
    let nibbles = hash.iter().flat_map(|byte| [byte >> 4, byte & 0x0f]);
    lower
        .chars()
        .zip(nibbles)
        .map(|(c, nibble)| {
            if nibble >= 8 {
                c.to_ascii_uppercase()
            } else {
                c
            }
        })
        .collect()
}

/// The EIP-55 checksummed form of an EVM address given in any case.
///
/// ```
/// use swaproute::screening::eip55_checksum;
///
/// assert_eq!(
///     eip55_checksum("0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed")?,
///     "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
/// );
/// # Ok::<(), swaproute::screening::InvalidAddress>(())
/// ```
///
/// # Errors
/// [`InvalidAddress::EvmSyntax`] unless `text` is `0x` followed by 40 hex digits.
pub fn eip55_checksum(text: &str) -> Result<String, InvalidAddress> {
    let hex = hex_part(text, false).ok_or(InvalidAddress::EvmSyntax)?;
    let mut out = String::with_capacity(HEX_DIGITS.saturating_add(2));
    out.push_str("0x");
    out.push_str(&checksum_hex(hex));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::format;

    /// The examples published in EIP-55 itself.
    const EIP55_EXAMPLES: [&str; 8] = [
        // All caps
        "0x52908400098527886E0F7030069857D2E4169EE7",
        "0x8617E340B3D01FA5F11F306F4090FD50E238070D",
        // All lower
        "0xde709f2102306220921060314715629080e2fb77",
        "0x27b1fdb04752bbc536007a920d24acb045561c26",
        // Normal
        "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
        "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
        "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB",
        "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb",
    ];

    #[test]
    fn keccak_known_vector() {
        // keccak-256("") = c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470
        let mut hash = [0_u8; 32];
        let keccak = Keccak::v256();
        keccak.finalize(&mut hash);
        assert_eq!(hash[..4], [0xc5, 0xd2, 0x46, 0x01]);
        assert_eq!(hash[28..], [0x5d, 0x85, 0xa4, 0x70]);
    }

    #[test]
    fn accepts_every_eip55_example() {
        for text in EIP55_EXAMPLES {
            assert_eq!(check_evm_address(text), Ok(()), "{text}");
        }
    }

    #[test]
    fn checksums_the_mixed_case_examples_from_lower_case() {
        for text in &EIP55_EXAMPLES[4..] {
            assert_eq!(eip55_checksum(&text.to_ascii_lowercase()).unwrap(), *text);
            assert_eq!(
                eip55_checksum(&format!("0x{}", text[2..].to_ascii_uppercase())).unwrap(),
                *text
            );
        }
    }

    #[test]
    fn rejects_altered_case() {
        for text in &EIP55_EXAMPLES[4..] {
            // Flip the case of each letter in turn: every single flip breaks the checksum
            // (unless it makes the address all-lower or all-upper, which cannot happen here).
            for (i, c) in text
                .char_indices()
                .skip(2)
                .filter(|(_, c)| c.is_ascii_alphabetic())
            {
                let flipped = if c.is_ascii_uppercase() {
                    c.to_ascii_lowercase()
                } else {
                    c.to_ascii_uppercase()
                };
                let mut altered = String::from(&text[..i]);
                altered.push(flipped);
                altered.push_str(&text[i + 1..]);
                assert_eq!(
                    check_evm_address(&altered),
                    Err(InvalidAddress::EvmChecksum),
                    "{altered}"
                );
            }
        }
        assert_eq!(
            check_evm_address("0x5AAEB6053f3e94c9b9a09f33669435e7ef1beaed"),
            Err(InvalidAddress::EvmChecksum)
        );
    }

    #[test]
    fn syntax() {
        let forty = "a".repeat(40);
        assert_eq!(check_evm_address(&format!("0x{forty}")), Ok(()));
        assert_eq!(
            check_evm_address(&format!("0X{forty}")),
            Err(InvalidAddress::EvmSyntax)
        );
        assert_eq!(check_evm_address(&forty), Err(InvalidAddress::EvmSyntax));
        assert_eq!(
            check_evm_address(&format!("0x{}", "a".repeat(39))),
            Err(InvalidAddress::EvmSyntax)
        );
        assert_eq!(
            check_evm_address(&format!("0x{}", "a".repeat(41))),
            Err(InvalidAddress::EvmSyntax)
        );
        assert_eq!(
            check_evm_address(&format!("0x{}g", "a".repeat(39))),
            Err(InvalidAddress::EvmSyntax)
        );
        assert_eq!(check_evm_address("0x"), Err(InvalidAddress::EvmSyntax));
        assert_eq!(check_evm_address(""), Err(InvalidAddress::EvmSyntax));
        assert_eq!(eip55_checksum("0x12"), Err(InvalidAddress::EvmSyntax));
    }

    #[test]
    fn zero_address_and_shape() {
        assert!(is_evm_zero_address(&format!("0x{}", "0".repeat(40))));
        assert!(is_evm_zero_address(&format!("0X{}", "0".repeat(40))));
        assert!(!is_evm_zero_address(&"0".repeat(42)));
        assert!(!is_evm_zero_address(&format!("0x{}", "0".repeat(64))));
        assert!(looks_like_evm_hex(
            "0XDBF03B407C01E7CD3CBEA99509D93F8DDDC8C6FB"
        ));
        assert!(!looks_like_evm_hex(
            "dbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB"
        ));
    }
}
