//! The canonical form an address is compared in for screening: ruling 27
//! (docs/RULES.md).

use alloc::borrow::Cow;
use alloc::string::String;

use super::bech32::{check_bech32, is_cashaddr_lower, Bech32Variant, CASHADDR_DEFAULT_PREFIX};
use super::evm;

/// How an address is written, as far as screening compares it (ruling 27
/// (docs/RULES.md)); [`Address::encoding`](super::Address::encoding).
///
/// Recognition is by shape and checksum, never by network:
/// - [`AddressEncoding::EvmHex`]: `0x` (or `0X`) and 40 hex digits;
/// - [`AddressEncoding::Bech32`] / [`AddressEncoding::Bech32m`]: the text in
///   lower case is a BIP-173 / BIP-350 string with a valid checksum;
/// - [`AddressEncoding::CashAddr`]: in lower case, `prefix:payload` with a
///   valid CashAddr checksum, or a bare payload whose checksum is valid under
///   the `bitcoincash` prefix;
/// - [`AddressEncoding::Other`]: everything else (base58, account names, …).
///
/// The first four are case-insensitive; `Other` is compared exactly.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum AddressEncoding {
    /// EVM hex: `0x` + 40 hex digits.
    EvmHex,
    /// Bech32 (BIP-173), e.g. `bc1q…`, `ltc1…`, `cosmos1…`.
    Bech32,
    /// Bech32m (BIP-350), e.g. `bc1p…`.
    Bech32m,
    /// CashAddr, with or without its prefix.
    CashAddr,
    /// Any other encoding: compared exactly, case included.
    Other,
}

impl AddressEncoding {
    /// `true` when spellings differing only in letter case are one address.
    pub const fn is_case_insensitive(self) -> bool {
        !matches!(self, AddressEncoding::Other)
    }
}

crate::text::str_enum!(
    AddressEncoding,
    /// A short name, e.g. `"bech32m"`.
    {
        EvmHex => "EVM hex",
        Bech32 => "bech32",
        Bech32m => "bech32m",
        CashAddr => "CashAddr",
        Other => "other",
    }
);

/// The encoding of `text` and its canonical form: lower case for the
/// case-insensitive encodings (a bare CashAddr gains its `bitcoincash:`
/// prefix), `text` itself otherwise.
///
/// A mixed-case string is not a valid bech32 or CashAddr string, but it is
/// classified by its lower-case form, so a mixed-case spelling of a
/// denylisted address still matches it. Upper case is folded *before* the
/// checksum is verified (both formats define the checksum on the lower-case
/// text), so every case spelling of one address gets the same canonical form.
pub(crate) fn canonical(text: &str) -> (AddressEncoding, Cow<'_, str>) {
    if evm::looks_like_evm_hex(text) {
        return (
            AddressEncoding::EvmHex,
            Cow::Owned(text.to_ascii_lowercase()),
        );
    }
    // Nothing that is already lower case needs a copy to be checked.
    let lower: Cow<'_, str> = if text.bytes().any(|b| b.is_ascii_uppercase()) {
        Cow::Owned(text.to_ascii_lowercase())
    } else {
        Cow::Borrowed(text)
    };
    match check_bech32(&lower) {
        Ok(Bech32Variant::Bech32) => return (AddressEncoding::Bech32, lower),
        Ok(Bech32Variant::Bech32m) => return (AddressEncoding::Bech32m, lower),
        Err(_) => {}
    }
    match lower.split_once(':') {
        Some((prefix, payload)) if is_cashaddr_lower(prefix, payload) => {
            (AddressEncoding::CashAddr, lower)
        }
        None if is_cashaddr_lower(CASHADDR_DEFAULT_PREFIX, &lower) => {
            let mut prefixed = String::with_capacity(
                CASHADDR_DEFAULT_PREFIX
                    .len()
                    .saturating_add(1)
                    .saturating_add(lower.len()),
            );
            prefixed.push_str(CASHADDR_DEFAULT_PREFIX);
            prefixed.push(':');
            prefixed.push_str(&lower);
            (AddressEncoding::CashAddr, Cow::Owned(prefixed))
        }
        _ => (AddressEncoding::Other, Cow::Borrowed(text)),
    }
}
