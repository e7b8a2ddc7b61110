//! The best `k` fast-keyed rates of a scan, best first.
//!
//! Keys and rates sit in two arrays: a step of the insertion compares one
//! 16-byte key and moves 24 bytes, where a slot of `Option<(i128, &Rate)>`
//! moves 48. An empty slot holds the key `i128::MIN`, below every real key
//! (keys are positive), so the last key is the floor an offer must reach
//! whether the buffer is full or not.

use core::cmp::Ordering;

use super::score::tie_order;
use crate::rate::Rate;

/// A bounded, best-first buffer of fast-keyed rates.
pub(crate) trait TopKeys<'r> {
    /// The key an offer must reach (`i128::MAX` when nothing can be kept).
    fn floor(&self) -> i128;

    /// Keeps `(net, rate)` if it ranks among the best, after equal items (so
    /// earlier offers stay first); returns the new floor. Only for a `net`
    /// at or above [`floor`](Self::floor).
    fn offer(&mut self, net: i128, rate: &'r Rate) -> i128;

    /// The kept rates, best first.
    fn rates(&self) -> impl Iterator<Item = &'r Rate> + '_;

    /// `true` when nothing was kept.
    fn is_empty(&self) -> bool {
        self.rates().next().is_none()
    }
}

/// [`TopKeys`] for a `K` fixed at compile time: the insertion unrolls.
#[derive(Debug)]
pub(crate) struct TopKeysArray<'r, const K: usize> {
    keys: [i128; K],
    rates: [Option<&'r Rate>; K],
    /// How many slots are taken.
    len: usize,
}

impl<const K: usize> TopKeysArray<'_, K> {
    /// An empty buffer.
    pub(crate) fn new() -> Self {
        TopKeysArray {
            keys: [i128::MIN; K],
            rates: [None; K],
            len: 0,
        }
    }
}

impl<'r, const K: usize> TopKeys<'r> for TopKeysArray<'r, K> {
    #[inline]
    fn floor(&self) -> i128 {
        floor(&self.keys)
    }

    #[inline]
    fn offer(&mut self, net: i128, rate: &'r Rate) -> i128 {
        if self.len < K {
            // Filling: walk over the taken slots only.
            let start = self.len;
            self.len = self.len.saturating_add(1);
            return insert(&mut self.keys, &mut self.rates, start, net, rate);
        }
        insert(&mut self.keys, &mut self.rates, K, net, rate)
    }

    fn rates(&self) -> impl Iterator<Item = &'r Rate> + '_ {
        self.rates.iter().map_while(|rate| *rate)
    }
}

/// [`TopKeys`] over storage the caller provides (a `k` known at run time).
#[derive(Debug)]
pub(crate) struct TopKeySlots<'s, 'r> {
    keys: &'s mut [i128],
    rates: &'s mut [Option<&'r Rate>],
}

impl<'s, 'r> TopKeySlots<'s, 'r> {
    /// An empty buffer over `keys` and `rates` (the shorter sets the capacity;
    /// their contents are discarded).
    pub(crate) fn new(keys: &'s mut [i128], rates: &'s mut [Option<&'r Rate>]) -> Self {
        let len = keys.len().min(rates.len());
        let (keys, _) = keys.split_at_mut(len);
        let (rates, _) = rates.split_at_mut(len);
        keys.fill(i128::MIN);
        rates.fill(None);
        TopKeySlots { keys, rates }
    }
}

impl<'r> TopKeys<'r> for TopKeySlots<'_, 'r> {
    #[inline]
    fn floor(&self) -> i128 {
        floor(self.keys)
    }

    #[inline]
    fn offer(&mut self, net: i128, rate: &'r Rate) -> i128 {
        let len = self.keys.len();
        insert(self.keys, self.rates, len, net, rate)
    }

    fn rates(&self) -> impl Iterator<Item = &'r Rate> + '_ {
        self.rates.iter().map_while(|rate| *rate)
    }
}

/// The last key; `i128::MAX` for no slots (no key reaches it: keys are
/// below 2^126).
#[inline]
fn floor(keys: &[i128]) -> i128 {
    keys.last().copied().unwrap_or(i128::MAX)
}

/// Insertion from the back: a new item usually ranks last or near it, so a
/// walk up from `start` (the first free slot, or past the end once full,
/// when the last item falls off) beats a binary search plus a shift. Always
/// inlined: over an array the walk unrolls, and each step is one key compare
/// and one shift (the tie-breaks are out of line).
#[allow(clippy::inline_always)]
#[inline(always)]
fn insert<'r>(
    keys: &mut [i128],
    rates: &mut [Option<&'r Rate>],
    start: usize,
    net: i128,
    rate: &'r Rate,
) -> i128 {
    let mut at = start;
    while let Some(above) = at.checked_sub(1) {
        let (Some(&key), Some(&held)) = (keys.get(above), rates.get(above)) else {
            break;
        };
        super::work::tick();
        // An empty slot's key is below every real key: no tie to break there.
        if !(net > key || (net == key && ties_before(held, rate))) {
            break;
        }
        if let (Some(key_slot), Some(rate_slot)) = (keys.get_mut(at), rates.get_mut(at)) {
            *key_slot = key;
            *rate_slot = held;
        }
        at = above;
    }
    if let (Some(key_slot), Some(rate_slot)) = (keys.get_mut(at), rates.get_mut(at)) {
        *key_slot = net;
        *rate_slot = Some(rate);
    }
    floor(keys)
}

/// Equal keys: whether `rate` goes before `held` by the tie-breaks of
/// [`tie_order`]. Rare, so out of line, away from the walk's registers.
#[cold]
#[inline(never)]
fn ties_before(held: Option<&Rate>, rate: &Rate) -> bool {
    held.is_none_or(|held| tie_order(rate, held) == Ordering::Less)
}
