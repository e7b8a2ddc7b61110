//! One pair's rates, with unique ids (rulings 18 and 31 in docs/RULES.md),
//! at most [`MAX_RATES`]: the checks a list of rates passes, their errors,
//! and the [`RateList`] trait the engine takes.

use alloc::boxed::Box;
use alloc::vec::Vec;
use core::fmt;

use super::{PairId, Rate};
use crate::ids::RateId;

/// Most rates one response may carry (ruling 17 in docs/RULES.md). Real responses hold a
/// handful; the cap keeps decoding and selection bounded on hostile input.
pub const MAX_RATES: usize = 65_536;

/// Rates of more than one pair in one list (ruling 18): a rates response is
/// one pair's, and ranking across pairs would compare amounts of different
/// assets.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MixedPairs {
    /// The pair of the first rate, and the first other pair found.
    pairs: Box<(PairId, PairId)>,
}

impl MixedPairs {
    pub(crate) fn new(first: PairId, other: PairId) -> Self {
        MixedPairs {
            pairs: Box::new((first, other)),
        }
    }

    /// The first rate's pair.
    pub fn first(&self) -> &PairId {
        &self.pairs.0
    }

    /// The first pair found that differs from [`first`](Self::first).
    pub fn other(&self) -> &PairId {
        &self.pairs.1
    }
}

impl fmt::Display for MixedPairs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the rates name more than one pair ({} and {}); a rates list is one pair's",
            self.first(),
            self.other()
        )
    }
}

impl core::error::Error for MixedPairs {}

/// Why a list of rates is not a rates response.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum InvalidRates {
    /// More than [`MAX_RATES`] rates.
    #[error("{len} rates is more than the {MAX_RATES} one response may carry")]
    TooMany {
        /// How many were offered.
        len: usize,
    },
    /// Rates of more than one pair (ruling 18).
    #[error(transparent)]
    MixedPairs(#[from] MixedPairs),
    /// Two rates share an id (ruling 31): an order names its rate by id
    /// alone, so the service could match either.
    #[error("rate id {id} appears more than once; an order names its rate by id alone")]
    DuplicateId {
        /// The repeated id.
        id: RateId,
    },
}

impl InvalidRates {
    /// The stable code of the refusal: `"TOO_MANY"`, `"MIXED_PAIRS"` or
    /// `"DUPLICATE_ID"`.
    pub const fn code(&self) -> &'static str {
        match self {
            InvalidRates::TooMany { .. } => "TOO_MANY",
            InvalidRates::MixedPairs(_) => "MIXED_PAIRS",
            InvalidRates::DuplicateId { .. } => "DUPLICATE_ID",
        }
    }
}

/// The pair every rate names, or the first two pairs that differ.
pub(crate) fn one_pair(rates: &[Rate]) -> Result<Option<&PairId>, MixedPairs> {
    let Some((first, rest)) = rates.split_first() else {
        return Ok(None);
    };
    let pair = first.pair_id();
    // The text alone: a pair id's assets are parsed from it.
    let text = pair.as_str();
    match rest.iter().find(|rate| rate.pair_id().as_str() != text) {
        Some(other) => Err(MixedPairs::new(pair.clone(), other.pair_id().clone())),
        None => Ok(Some(pair)),
    }
}

/// The first id that appears twice (the smallest such id, by bytes), if any.
///
/// Most lists have no duplicate, and that is proved on fingerprints in
/// `O(n)`: equal ids have equal [`fingerprint`]s, so pairwise distinct
/// fingerprints mean distinct ids ([`distinct`]). When that proof fails (a
/// duplicate, two ids that collide, or too crowded a table), the ids are
/// sorted by their bytes, `O(n log n)`, which finds the smallest duplicate.
/// The answer never depends on the fingerprint: ids chosen to collide cost
/// the sort's time, never a wrong answer.
pub(crate) fn first_duplicate_id(rates: &[Rate]) -> Option<&RateId> {
    let prints = rates
        .iter()
        .map(|rate| fingerprint(rate.id().as_str().as_bytes()));
    if distinct(prints, rates.len()) {
        return None;
    }
    smallest_duplicate_id(rates)
}

/// `true` when the `len` fingerprints are proved pairwise distinct:
/// inserted into an open-addressing table of at least `2 × len` slots, none
/// met its equal. `false` when one did, or when the probes as a whole ran
/// past `4 × len + 64` (a table at most half full takes about `1.5 × len`;
/// only crowding, such as crafted collisions, gets there, and then it costs
/// that many steps before the sort). Bit 0 of each fingerprint is set, so
/// zero marks a free slot; two fingerprints that differ only there are taken
/// as equal, which only costs the sort.
fn distinct(prints: impl Iterator<Item = u64>, len: usize) -> bool {
    let Some(size) = len
        .checked_mul(2)
        .and_then(usize::checked_next_power_of_two)
    else {
        return false;
    };
    let Some(mut budget) = len.checked_mul(4).and_then(|probes| probes.checked_add(64)) else {
        return false;
    };
    let mask = size.wrapping_sub(1);
    let mut table: Vec<u64> = alloc::vec![0; size];
    for print in prints {
        let print = print | 1;
        // The high half picks the slot (the low bit is now always set).
        let mut at = usize::try_from(print >> 32).unwrap_or(0);
        loop {
            budget = match budget.checked_sub(1) {
                Some(left) => left,
                None => return false,
            };
            at &= mask;
            match table.get_mut(at) {
                Some(slot) if *slot == 0 => {
                    *slot = print;
                    break;
                }
                Some(slot) if *slot == print => return false,
                Some(_) => at = at.wrapping_add(1),
                None => return false,
            }
        }
    }
    true
}

/// [`first_duplicate_id`] by sorting the ids themselves.
fn smallest_duplicate_id(rates: &[Rate]) -> Option<&RateId> {
    let mut ids: Vec<&RateId> = rates.iter().map(Rate::id).collect();
    crate::numeric::permute::sort_stable(&mut ids, |a, b| {
        a.as_str().as_bytes().cmp(b.as_str().as_bytes())
    });
    ids.windows(2).find_map(|pair| match pair {
        [a, b] if a == b => Some(*a),
        _ => None,
    })
}

/// A 64-bit fingerprint of `bytes`, eight at a time: equal bytes, equal
/// fingerprints. The mixing (multiply, rotate, and a final avalanche, in the
/// manner of wyhash and rapidhash) spreads ids that differ in any byte or in
/// length; it is fixed, not keyed, and nothing relies on it beyond "equal in,
/// equal out" (see [`first_duplicate_id`]).
fn fingerprint(bytes: &[u8]) -> u64 {
    const MIX: u64 = 0x9e37_79b9_7f4a_7c15;
    // A length above 2^64 bytes cannot exist; the cast keeps it.
    let mut hash = (bytes.len() as u64).wrapping_mul(MIX);
    let mut chunks = bytes.chunks_exact(8);
    for chunk in &mut chunks {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        hash = (hash ^ u64::from_le_bytes(word))
            .wrapping_mul(MIX)
            .rotate_left(29);
    }
    let mut tail = [0u8; 8];
    for (to, from) in tail.iter_mut().zip(chunks.remainder()) {
        *to = *from;
    }
    hash = (hash ^ u64::from_le_bytes(tail)).wrapping_mul(MIX);
    hash ^= hash >> 32;
    hash = hash.wrapping_mul(0xd6e8_feb8_6659_fd93);
    hash ^ (hash >> 32)
}

#[cfg(test)]
mod tests {
    use super::{distinct, fingerprint};

    #[test]
    fn distinct_proves_only_what_holds() {
        assert!(distinct([].into_iter(), 0));
        assert!(distinct([7u64].into_iter(), 1));
        assert!(distinct((0u64..1000).map(|i| i << 32), 1000));
        // An equal pair anywhere, or equal but for bit 0: not proved.
        assert!(!distinct([1u64 << 40, 5 << 40, 1 << 40].into_iter(), 3));
        assert!(!distinct([6u64 << 40, 6 << 40 | 1].into_iter(), 2));
        // Prints that all want one slot: distinct, and proved so while the
        // probes fit the budget (`4 × len + 64`; n prints in one run take
        // n(n + 1)/2), then given up rather than walked on.
        let crowded = |n: u64| (0..n).map(|i| (9u64 << 32) | (i << 1));
        assert!(distinct(crowded(19), 64)); // 190 probes of 320
        assert!(!distinct(crowded(25), 64)); // 325 probes
        assert!(distinct(crowded(25), 66)); // 328 allowed

        // Distinct ids of the usual shapes are proved distinct: the fast path
        // is the usual one (a weak mix or a tight budget would send every
        // list to the sort, right but slow).
        for len in [1usize, 2, 3, 64, 256, 4096, 65_536] {
            let ids = (0..len).map(|i| {
                let hex = (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
                alloc::format!("{hex:016x}-{i:04}")
            });
            let prints = ids.map(|id| fingerprint(id.as_bytes()));
            assert!(distinct(prints, len), "{len}");
            let counted = (0..len).map(|i| fingerprint(alloc::format!("rate-{i}").as_bytes()));
            assert!(distinct(counted, len), "{len}");
        }
        // A length the table cannot double: not proved, never a panic.
        assert!(!distinct([1u64].into_iter(), usize::MAX));
    }

    #[test]
    fn fingerprints_tell_lengths_and_every_byte_apart() {
        // Ids of every length to 40 and every one-byte change of them: no two
        // fingerprints equal (a wrong mix or a lost tail would collide).
        let mut seen = alloc::collections::BTreeMap::new();
        let base: alloc::vec::Vec<u8> = (0u8..40).map(|i| b'a' + i % 26).collect();
        for len in 0..=base.len() {
            let id = base.get(..len).unwrap_or_default();
            assert_eq!(seen.insert(fingerprint(id), id.to_vec()), None, "{len}");
            for at in 0..len {
                let mut changed = id.to_vec();
                if let Some(byte) = changed.get_mut(at) {
                    *byte = b'0';
                }
                let print = fingerprint(&changed);
                assert_eq!(seen.insert(print, changed.clone()), None, "{len} {at}");
            }
        }
        // Equal bytes, equal fingerprints, wherever they live.
        let owned = alloc::string::String::from("0123456789abcdef-0042");
        assert_eq!(
            fingerprint(owned.as_bytes()),
            fingerprint(b"0123456789abcdef-0042")
        );
    }
}

pub(super) mod sealed {
    use super::super::prepared::Layout;

    /// The crate's side of [`RateList`](super::RateList).
    pub trait Sealed {
        /// The compact ranking layout of the rates, one record per rate in
        /// order, when the list keeps them (a
        /// [`RatesResponse`](super::RatesResponse)); empty otherwise.
        fn layout(&self) -> Layout<'_> {
            Layout::default()
        }
    }
    impl Sealed for [super::Rate] {}
    impl Sealed for alloc::vec::Vec<super::Rate> {}
    impl<const N: usize> Sealed for [super::Rate; N] {}

    /// Pointers and references keep what they point to.
    macro_rules! forward_sealed {
        ($($pointer:ty),*) => {$(
            impl<T: Sealed + ?Sized> Sealed for $pointer {
                #[inline]
                fn layout(&self) -> Layout<'_> {
                    (**self).layout()
                }
            }
        )*};
    }
    forward_sealed!(
        &T,
        alloc::boxed::Box<T>,
        alloc::rc::Rc<T>,
        alloc::sync::Arc<T>
    );
}

/// A list of rates the engine ranks: every entry point of
/// [`route`](crate::route) takes `&impl RateList`.
///
/// A [`RatesResponse`](super::RatesResponse) was checked when it was built (one pair, unique ids),
/// so the engine trusts it at no cost. A slice, `Vec` or array built by hand
/// is checked at every call (one comparison of pair id text per rate, an extra
/// pass over the rates: `best` over 64 rates measured about 1.4× its time on
/// the same rates as a response; build a `RatesResponse` once with
/// [`TryFrom`] to rank it many times): rates of
/// more than one pair are refused with [`MixedPairs`]
/// ([`NoRoute::MixedPairs`](crate::route::NoRoute::MixedPairs)), never ranked
/// against each other (ruling 18).
///
/// Sealed: the check is the crate's to make.
pub trait RateList: sealed::Sealed {
    /// The rates, once they are known to be one pair's.
    ///
    /// # Errors
    /// [`MixedPairs`] when two rates name different pairs.
    fn one_pair(&self) -> Result<&[Rate], MixedPairs>;

    /// The rates, once they are known to be one pair's with unique ids
    /// (rulings 18 and 31): what an order plan needs, since an order names
    /// its rate by id alone.
    ///
    /// # Errors
    /// [`InvalidRates::MixedPairs`] or [`InvalidRates::DuplicateId`].
    fn checked(&self) -> Result<&[Rate], InvalidRates> {
        let rates = self.one_pair()?;
        match first_duplicate_id(rates) {
            Some(id) => Err(InvalidRates::DuplicateId { id: id.clone() }),
            None => Ok(rates),
        }
    }
}

impl RateList for [Rate] {
    #[inline]
    fn one_pair(&self) -> Result<&[Rate], MixedPairs> {
        one_pair(self).map(|_| self)
    }
}

impl RateList for Vec<Rate> {
    #[inline]
    fn one_pair(&self) -> Result<&[Rate], MixedPairs> {
        self.as_slice().one_pair()
    }
}

impl<const N: usize> RateList for [Rate; N] {
    #[inline]
    fn one_pair(&self) -> Result<&[Rate], MixedPairs> {
        self.as_slice().one_pair()
    }
}

/// Smart pointers and references rank what they point to.
macro_rules! forward_rate_list {
    ($($pointer:ty),*) => {$(
        impl<T: RateList + ?Sized> RateList for $pointer {
            #[inline]
            fn one_pair(&self) -> Result<&[Rate], MixedPairs> {
                (**self).one_pair()
            }

            #[inline]
            fn checked(&self) -> Result<&[Rate], InvalidRates> {
                (**self).checked()
            }
        }
    )*};
}

forward_rate_list!(&T, Box<T>, alloc::rc::Rc<T>, alloc::sync::Arc<T>);
