//! Bech32 and bech32m strings (BIP-173, BIP-350) and CashAddr (the Bitcoin
//! Cash address format): enough to tell them apart from other encodings by
//! their checksums, for ruling 27 (docs/RULES.md). Nothing is decoded into
//! bytes; no witness-program rules are applied.
//!
//! Both formats write 5-bit groups with the same 32-character alphabet and
//! are case-insensitive (a valid string is all lower or all upper case).

/// The bech32 alphabet (BIP-173), also CashAddr's: value `i` is `CHARSET[i]`.
const CHARSET: &[u8; 32] = b"qpzry9x8gf2tvdw0s3jn54khce6mua7l";

/// The value of a lower-case alphabet character.
fn value(byte: u8) -> Option<u8> {
    CHARSET
        .iter()
        .position(|&c| c == byte)
        .and_then(|i| u8::try_from(i).ok())
}

/// Which checksum a bech32 string carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Bech32Variant {
    /// BIP-173: the polymod's final constant is 1.
    Bech32,
    /// BIP-350: the polymod's final constant is `0x2bc830a3`.
    Bech32m,
}

/// Why a text is not a bech32 string.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bech32Defect {
    /// No human-readable part, no `1`, a character outside the alphabet after
    /// the last `1`, fewer than six checksum characters, or a human-readable
    /// character outside `!`..=`~`.
    Syntax,
    /// Well formed, but the checksum matches neither bech32 nor bech32m.
    Checksum,
    /// Both upper- and lower-case letters (BIP-173 forbids mixing them).
    MixedCase,
}

/// BIP-173's checksum generator, over 5-bit values.
fn bech32_polymod(values: impl Iterator<Item = u8>) -> u32 {
    const GEN: [u32; 5] = [
        0x3b6a_57b2,
        0x2650_8e6d,
        0x1ea1_19fa,
        0x3d42_33dd,
        0x2a14_62b3,
    ];
    let mut chk: u32 = 1;
    for v in values {
        let top = chk >> 25;
        chk = ((chk & 0x01ff_ffff) << 5) ^ u32::from(v);
        for (i, g) in GEN.iter().enumerate() {
            if (top >> i) & 1 == 1 {
                chk ^= g;
            }
        }
    }
    chk
}

/// Checks `text` as a bech32 or bech32m string: a human-readable part of
/// `!`..=`~`, the last `1` as separator, then at least six alphabet
/// characters, all in one case, with a valid checksum. The overall 90-character
/// limit of BIP-173 is not applied (Cardano and Lightning use longer strings).
///
/// # Errors
/// The first [`Bech32Defect`]: syntax, then case, then checksum.
pub(crate) fn check_bech32(text: &str) -> Result<Bech32Variant, Bech32Defect> {
    let bytes = text.as_bytes();
    let sep = bytes
        .iter()
        .rposition(|&b| b == b'1')
        .ok_or(Bech32Defect::Syntax)?;
    let (hrp, rest) = bytes.split_at(sep);
    let data = rest.get(1..).unwrap_or_default();
    if hrp.is_empty() || data.len() < 6 || !bytes.iter().all(|b| (b'!'..=b'~').contains(b)) {
        return Err(Bech32Defect::Syntax);
    }
    if !data
        .iter()
        .all(|&b| value(b.to_ascii_lowercase()).is_some())
    {
        return Err(Bech32Defect::Syntax);
    }
    if bytes.iter().any(u8::is_ascii_lowercase) && bytes.iter().any(u8::is_ascii_uppercase) {
        return Err(Bech32Defect::MixedCase);
    }
    let hrp = hrp.iter().map(u8::to_ascii_lowercase);
    let expanded = hrp
        .clone()
        .map(|c| c >> 5)
        .chain([0])
        .chain(hrp.map(|c| c & 0x1f))
        .chain(data.iter().filter_map(|&b| value(b.to_ascii_lowercase())));
    match bech32_polymod(expanded) {
        1 => Ok(Bech32Variant::Bech32),
        0x2bc8_30a3 => Ok(Bech32Variant::Bech32m),
        _ => Err(Bech32Defect::Checksum),
    }
}

/// CashAddr's checksum generator (a BCH code over GF(2^40)), over 5-bit values.
fn cashaddr_polymod(values: impl Iterator<Item = u8>) -> u64 {
    const GEN: [u64; 5] = [
        0x98_f2bc_8e61,
        0x79_b76d_99e2,
        0xf3_3e5f_b3c4,
        0xae_2eab_e2a8,
        0x1e_4f43_e470,
    ];
    let mut c: u64 = 1;
    for d in values {
        let top = c >> 35;
        c = ((c & 0x07_ffff_ffff) << 5) ^ u64::from(d);
        for (i, g) in GEN.iter().enumerate() {
            if (top >> i) & 1 == 1 {
                c ^= g;
            }
        }
    }
    c ^ 1
}

/// The prefix a bare CashAddr payload belongs to (ruling 27 (docs/RULES.md)).
pub(crate) const CASHADDR_DEFAULT_PREFIX: &str = "bitcoincash";

/// `true` when `prefix:payload` is a CashAddr with a valid checksum: a
/// non-empty prefix of letters and digits, then at least eight alphabet
/// characters (the 40-bit checksum), all in lower case.
pub(crate) fn is_cashaddr_lower(prefix: &str, payload: &str) -> bool {
    let prefix_ok = !prefix.is_empty()
        && prefix
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit());
    if !prefix_ok || payload.len() < 8 || !payload.bytes().all(|b| value(b).is_some()) {
        return false;
    }
    let values = prefix
        .bytes()
        .map(|b| b & 0x1f)
        .chain([0])
        .chain(payload.bytes().filter_map(value));
    cashaddr_polymod(values) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    /// BIP-173's valid bech32 test vectors.
    const BIP173_VALID: [&str; 6] = [
        "A12UEL5L",
        "a12uel5l",
        "an83characterlonghumanreadablepartthatcontainsthenumber1andtheexcludedcharactersbio1tt5tgs",
        "abcdef1qpzry9x8gf2tvdw0s3jn54khce6mua7lmqqqxw",
        "split1checkupstagehandshakeupstreamerranterredcaperred2y9e3w",
        "?1ezyfcl",
    ];

    /// BIP-350's valid bech32m test vectors.
    const BIP350_VALID: [&str; 6] = [
        "A1LQFN3A",
        "a1lqfn3a",
        "an83characterlonghumanreadablepartthatcontainsthetheexcludedcharactersbioandnumber11sg7hg6",
        "abcdef1l7aum6echk45nj3s0wdvt2fg8x9yrzpqzd3ryx",
        "split1checkupstagehandshakeupstreamerranterredcaperredlc445v",
        "?1v759aa",
    ];

    #[test]
    fn bip173_and_bip350_valid_vectors() {
        for text in BIP173_VALID {
            assert_eq!(check_bech32(text), Ok(Bech32Variant::Bech32), "{text}");
        }
        for text in BIP350_VALID {
            assert_eq!(check_bech32(text), Ok(Bech32Variant::Bech32m), "{text}");
        }
        // The 90-character vectors: HRP "1", then 82 `q` + "c8247j" (bech32)
        // and 83 `l` + "udsr8" (bech32m).
        let long = alloc::format!("11{}c8247j", "q".repeat(82));
        assert_eq!(check_bech32(&long), Ok(Bech32Variant::Bech32));
        let long_m = alloc::format!("11{}udsr8", "l".repeat(83));
        assert_eq!(check_bech32(&long_m), Ok(Bech32Variant::Bech32m));
        // BIP-173 / BIP-350 segwit examples.
        assert_eq!(
            check_bech32("BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4"),
            Ok(Bech32Variant::Bech32)
        );
        assert_eq!(
            check_bech32("bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0"),
            Ok(Bech32Variant::Bech32m)
        );
    }

    #[test]
    fn bip173_invalid_vectors() {
        // Checksum computed with the upper-case form of the HRP.
        assert_eq!(check_bech32("A1G7SGD8"), Err(Bech32Defect::Checksum));
        // Empty HRP.
        assert_eq!(check_bech32("10a06t8"), Err(Bech32Defect::Syntax));
        assert_eq!(check_bech32("1qzzfhee"), Err(Bech32Defect::Syntax));
        // Invalid data character `b`.
        assert_eq!(check_bech32("x1b4n0q5v"), Err(Bech32Defect::Syntax));
        // Too short checksum.
        assert_eq!(check_bech32("li1dgmt3"), Err(Bech32Defect::Syntax));
        // No separator.
        assert_eq!(check_bech32("pzry9x0s0muk"), Err(Bech32Defect::Syntax));
        // HRP character out of range (DEL), and a space.
        assert_eq!(check_bech32("\u{7f}1axkwrx"), Err(Bech32Defect::Syntax));
        assert_eq!(check_bech32(" 1nwldj5"), Err(Bech32Defect::Syntax));
        // Mixed case (BIP-173: "decoders MUST NOT accept strings where some
        // characters are uppercase and some are lowercase").
        assert_eq!(
            check_bech32("bc1Qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"),
            Err(Bech32Defect::MixedCase)
        );
        // Base58 with a `1` is not bech32.
        assert_eq!(
            check_bech32("1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa"),
            Err(Bech32Defect::Syntax)
        );
        assert_eq!(check_bech32(""), Err(Bech32Defect::Syntax));
    }

    /// The CashAddr specification's checksum test vectors.
    const CASHADDR_VALID: [(&str, &str); 5] = [
        ("prefix", "x64nx6hz"),
        ("p", "gpf8m4h7"),
        ("bitcoincash", "qpzry9x8gf2tvdw0s3jn54khce6mua7lcw20ayyn"),
        ("bchtest", "testnetaddress4d6njnut"),
        (
            "bchreg",
            "555555555555555555555555555555555555555555555udxmlmrz",
        ),
    ];

    #[test]
    fn cashaddr_vectors() {
        for (prefix, payload) in CASHADDR_VALID {
            assert!(is_cashaddr_lower(prefix, payload), "{prefix}:{payload}");
        }
        // The specification's example for 1BpEi6DfDAUFd7GtittLSdBeYJvcoaVggu.
        assert!(is_cashaddr_lower(
            "bitcoincash",
            "qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a"
        ));
        // The checksum covers the prefix.
        assert!(!is_cashaddr_lower(
            "bchtest",
            "qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a"
        ));
        // One character changed.
        assert!(!is_cashaddr_lower(
            "bitcoincash",
            "qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6q"
        ));
        // Upper case is the caller's to fold; `1` is not in the alphabet.
        assert!(!is_cashaddr_lower(
            "bitcoincash",
            "QPM2QSZNHKS23Z7629MMS6S4CWEF74VCWVY22GDX6A"
        ));
        // The prefix too: its letters enter the checksum by their low five
        // bits, which upper and lower case share.
        assert!(!is_cashaddr_lower(
            "BITCOINCASH",
            "qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a"
        ));
        assert!(!is_cashaddr_lower("bitcoincash", "1pm2qszn"));
        // A character outside the alphabet is refused, not skipped: without
        // the `1` the address is valid.
        assert!(!is_cashaddr_lower(
            "bitcoincash",
            "qpm2qszn1hks23z7629mms6s4cwef74vcwvy22gdx6a"
        ));
        assert!(!is_cashaddr_lower("", "x64nx6hz"));
        assert!(!is_cashaddr_lower("prefix", "x64nx6h"));
    }
}
