//! A rate's numbers in the integer form the ranking fast path reads.
//!
//! Computed once when a [`Rate`](crate::rate::Rate) is built or decoded, so the
//! hot loop neither re-validates a rate nor normalizes a `Decimal`: every value
//! that takes part in a comparison is a `u128` at the common scale 28 (the
//! largest scale a `Decimal` has), where comparing is comparing integers.

use rust_decimal::Decimal;

use crate::numeric::{scaled28, OPERAND_LIMIT};

/// The rate is usable (rulings 2 and 18 in docs/RULES.md hold).
pub(crate) const USABLE: u8 = 1;
/// The multiplier's mantissa fits a `u64` and the fee fits the scale-28 form.
pub(crate) const FAST: u8 = 1 << 1;
/// The provider supports ExactOut.
pub(crate) const EXACT_OUT: u8 = 1 << 2;
/// A campaign-sponsored variant.
pub(crate) const SPONSORED: u8 = 1 << 3;

/// Bits of [`Prepared::word`] below the expiry.
const EXPIRY_SHIFT: u32 = 16;
/// Where the flags sit in [`Prepared::word`].
const FLAGS_SHIFT: u32 = 10;
/// Where the multiplier's scale sits in [`Prepared::word`].
const MULTIPLIER_SCALE_SHIFT: u32 = 5;
/// Five bits: a scale (at most 28).
const SCALE_MASK: u64 = 0x1f;
/// Six bits: the flags.
const FLAGS_MASK: u64 = 0x3f;
/// Expiries from here on do not fit the packed word (the year 10889): such a
/// rate is left to the plain path (it is not [`USABLE`] here).
const EXPIRY_LIMIT: u64 = 1 << (64 - EXPIRY_SHIFT);

/// The integer form of a rate's numbers: one 64-byte cache line, the fields
/// the filter reads first.
///
/// Limits saturate at `u128::MAX` (an amount the fast path compares against
/// them is always below that), so a limit too large for the form still
/// compares correctly.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[repr(C, align(64))]
pub(crate) struct Prepared {
    /// `expiry << 16 | flags << 10 | multiplier scale << 5 | fee scale`.
    word: u64,
    /// The multiplier's mantissa (meaningful when [`FAST`] is set).
    pub(crate) multiplier: u64,
    /// `min × 10^28`, saturating.
    pub(crate) min28: u128,
    /// `max × 10^28`, saturating.
    pub(crate) max28: u128,
    /// `minerFee × 10^28` (meaningful when [`FAST`] is set).
    pub(crate) fee28: u128,
}

/// The numbers of a rate, as [`Prepared::new`] reads them.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Numbers {
    pub(crate) multiplier: Decimal,
    pub(crate) fee: Decimal,
    pub(crate) min: Decimal,
    pub(crate) max: Decimal,
    pub(crate) expiry: u64,
    pub(crate) usable: bool,
    pub(crate) exact_out: bool,
    pub(crate) sponsored: bool,
}

impl Prepared {
    pub(crate) fn new(n: &Numbers) -> Self {
        let mut flags: u64 = 0;
        if n.usable && n.expiry < EXPIRY_LIMIT {
            flags |= u64::from(USABLE);
        }
        if n.exact_out {
            flags |= u64::from(EXACT_OUT);
        }
        if n.sponsored {
            flags |= u64::from(SPONSORED);
        }
        let multiplier = u64::try_from(n.multiplier.mantissa()).ok();
        let fee28 = scaled28(n.fee).filter(|&f| f < OPERAND_LIMIT);
        if let (Some(_), Some(_)) = (multiplier, fee28) {
            flags |= u64::from(FAST);
        }
        let expiry = n.expiry.min(EXPIRY_LIMIT.saturating_sub(1));
        let word = (expiry << EXPIRY_SHIFT)
            | (flags << FLAGS_SHIFT)
            | (scale_bits(n.multiplier) << MULTIPLIER_SCALE_SHIFT)
            | scale_bits(n.fee);
        Prepared {
            word,
            multiplier: multiplier.unwrap_or(0),
            min28: scaled28(n.min).unwrap_or(u128::MAX),
            max28: scaled28(n.max).unwrap_or(u128::MAX),
            fee28: fee28.unwrap_or(0),
        }
    }

    /// `true` when every flag of `mask` is set.
    #[inline]
    pub(crate) fn has(&self, mask: u8) -> bool {
        let mask = u64::from(mask);
        (self.word >> FLAGS_SHIFT) & mask == mask
    }

    /// The flags ([`USABLE`], [`FAST`], [`EXACT_OUT`], [`SPONSORED`]).
    #[inline]
    pub(crate) fn flags(&self) -> u8 {
        word::flags(self.word)
    }

    /// The expiry in milliseconds (exact for a [`USABLE`] rate).
    #[inline]
    pub(crate) fn expiry(&self) -> u64 {
        word::expiry(self.word)
    }

    /// The multiplier's scale.
    #[inline]
    pub(crate) fn multiplier_scale(&self) -> u32 {
        word::multiplier_scale(self.word)
    }

    /// The fee's scale.
    #[inline]
    pub(crate) fn fee_scale(&self) -> u32 {
        word::fee_scale(self.word)
    }
}

/// The fields packed in the expiry-and-flags word that [`Prepared`] and
/// [`Compact`] share (one layout, read in one place).
mod word {
    use super::{EXPIRY_SHIFT, FLAGS_MASK, FLAGS_SHIFT, MULTIPLIER_SCALE_SHIFT, SCALE_MASK};

    #[inline]
    pub(super) fn flags(word: u64) -> u8 {
        u8::try_from((word >> FLAGS_SHIFT) & FLAGS_MASK).unwrap_or(0)
    }

    #[inline]
    pub(super) fn expiry(word: u64) -> u64 {
        word >> EXPIRY_SHIFT
    }

    #[inline]
    pub(super) fn multiplier_scale(word: u64) -> u32 {
        u32::try_from((word >> MULTIPLIER_SCALE_SHIFT) & SCALE_MASK).unwrap_or(0)
    }

    #[inline]
    pub(super) fn fee_scale(word: u64) -> u32 {
        u32::try_from(word & SCALE_MASK).unwrap_or(0)
    }
}

/// The compact ranking record of a rate (issue 35): the integers the fast
/// path reads, 40 bytes, kept contiguous beside the full records of a
/// [`RatesResponse`](crate::rate::RatesResponse), so a scan reads 40 bytes per
/// rate instead of a 384-byte [`Rate`](crate::rate::Rate).
///
/// It decides a rate only when its integers prove the full record's verdict
/// ([`DECIDES`] set, limits not tied with the amount at 2^62 / 10^28
/// resolution); otherwise the scan reads the rate's [`Prepared`] form.
/// Every field is derived from that form (see [`Compact::new`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub(crate) struct Compact {
    /// [`Prepared`]'s word, with [`DECIDES`] among the flags.
    word: u64,
    /// The multiplier's mantissa.
    pub(crate) multiplier: u64,
    /// The miner fee's mantissa (`fee28 = fee × 10^(28 − fee scale)`).
    pub(crate) fee: u64,
    /// `min28 >> 62`, saturating at `u64::MAX`.
    pub(crate) min_hi: u64,
    /// `max28 >> 62`, saturating at `u64::MAX`.
    pub(crate) max_hi: u64,
}

/// A compact record's flag: the record decides the rate ([`USABLE`] and
/// [`FAST`] hold and the fee's mantissa fits a `u64`); without it the scan
/// reads the full record.
pub(crate) const DECIDES: u8 = 1 << 4;

/// How many bits of a value at scale 28 a compact limit drops.
pub(crate) const LIMIT_SHIFT: u32 = 62;

impl Compact {
    /// The compact record of a rate whose prepared form is `p` and whose
    /// miner fee's mantissa is `fee_mantissa`.
    pub(crate) fn new(p: &Prepared, fee_mantissa: u128) -> Self {
        let fee = u64::try_from(fee_mantissa).ok();
        let decides = fee.is_some() && p.has(USABLE | FAST);
        let word = if decides {
            p.word | (u64::from(DECIDES) << FLAGS_SHIFT)
        } else {
            p.word & !(u64::from(DECIDES) << FLAGS_SHIFT)
        };
        let hi = |v: u128| u64::try_from(v >> LIMIT_SHIFT).unwrap_or(u64::MAX);
        Compact {
            word,
            multiplier: p.multiplier,
            fee: fee.unwrap_or(0),
            min_hi: hi(p.min28),
            max_hi: hi(p.max28),
        }
    }

    /// The flags ([`DECIDES`], [`EXACT_OUT`], [`SPONSORED`], …).
    #[inline]
    pub(crate) fn flags(&self) -> u8 {
        word::flags(self.word)
    }

    /// The expiry in milliseconds (exact when [`DECIDES`] is set).
    #[inline]
    pub(crate) fn expiry(&self) -> u64 {
        word::expiry(self.word)
    }

    /// The multiplier's scale.
    #[inline]
    pub(crate) fn multiplier_scale(&self) -> u32 {
        word::multiplier_scale(self.word)
    }

    /// The fee's scale.
    #[inline]
    pub(crate) fn fee_scale(&self) -> u32 {
        word::fee_scale(self.word)
    }

    /// The bits of an `f64` at or above the multiplier; `u64::MAX`, never
    /// passed over, when the record holds no multiplier (its mantissa does
    /// not fit a `u64`). See [`filter`](crate::numeric::filter): a rate
    /// that can be eligible has a fee that is not negative (a negative one
    /// is a defect, ruling 2), so its net output is at most `amount ×
    /// multiplier`, whether the record decides it or not; one that cannot
    /// be eligible never wins.
    pub(crate) fn ceiling(&self) -> u64 {
        if self.multiplier == 0 {
            return u64::MAX;
        }
        crate::numeric::filter::ceiling(self.multiplier, self.multiplier_scale())
    }
}

/// A response's compact ranking layout (issue 35): the records, one per
/// rate in order, and beside them each record's multiplier ceiling
/// ([`Compact::ceiling`]), which the best-route kernel reads before the
/// record (8 bytes per rate). Empty for a list that keeps none.
#[derive(Clone, Copy, Debug, Default)]
pub struct Layout<'a> {
    records: &'a [Compact],
    ceilings: &'a [u64],
}

impl<'a> Layout<'a> {
    /// The layout of `records` and their `ceilings` (the same length, or
    /// no ceilings).
    pub(crate) fn new(records: &'a [Compact], ceilings: &'a [u64]) -> Self {
        debug_assert!(ceilings.is_empty() || ceilings.len() == records.len());
        Layout { records, ceilings }
    }

    /// The records.
    #[inline]
    pub(crate) fn records(&self) -> &'a [Compact] {
        self.records
    }

    /// Whether it holds a ceiling, and so a record, for each of `rates`
    /// (what the kernel loops read).
    #[inline]
    pub(crate) fn covers<T>(&self, rates: &[T]) -> bool {
        self.ceilings.len() == rates.len()
    }

    /// The ceilings, one per record.
    #[inline]
    pub(crate) fn ceilings(&self) -> &'a [u64] {
        self.ceilings
    }
}

/// A decimal's scale (at most 28: five bits).
fn scale_bits(value: Decimal) -> u64 {
    u64::from(value.scale()) & SCALE_MASK
}

#[cfg(test)]
mod tests {
    use super::{Compact, Prepared};

    /// The compact record is the 40 bytes docs/PERFORMANCE.md counts (five
    /// `u64`s, 8-byte aligned): 1.6 records to a cache line, against one
    /// 64-byte prepared block at a `Rate`'s stride.
    #[test]
    fn a_compact_record_is_40_bytes() {
        assert_eq!(core::mem::size_of::<Compact>(), 40);
        assert_eq!(core::mem::align_of::<Compact>(), 8);
        assert_eq!(core::mem::size_of::<Prepared>(), 64);
    }
}
