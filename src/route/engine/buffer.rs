//! The engine's one bounded buffer: the best `k` items offered so far, best
//! first, over storage the caller provides (arrays for a fixed `k`, so
//! keeping the top `k` allocates nothing).
//!
//! Keys and values sit in two slices: a step of the insertion compares a key
//! and moves both, and for fast keys (`i128` and a rate reference) that is
//! 24 bytes where one slot of `Option<(i128, &Rate)>` moves 48. Plain
//! candidates are their own key, with `()` values (which take no room).

/// Storage for a [`TopBuffer`]: an array (its length a compile-time
/// constant) or a slice.
pub(crate) trait Slots {
    /// What a slot holds.
    type Item: Copy;
    /// The length is a compile-time constant (an array).
    const FIXED: bool;
    /// The slots.
    fn slots(&self) -> &[Self::Item];
    /// The slots, to write.
    fn slots_mut(&mut self) -> &mut [Self::Item];
}

impl<T: Copy, const N: usize> Slots for [T; N] {
    type Item = T;
    const FIXED: bool = true;
    #[inline]
    fn slots(&self) -> &[T] {
        self
    }
    #[inline]
    fn slots_mut(&mut self) -> &mut [T] {
        self
    }
}

impl<T: Copy> Slots for &mut [T] {
    type Item = T;
    const FIXED: bool = false;
    #[inline]
    fn slots(&self) -> &[T] {
        self
    }
    #[inline]
    fn slots_mut(&mut self) -> &mut [T] {
        self
    }
}

/// Up to `capacity` items, best first, over key and value storage `KS` and
/// `VS`: arrays for a `k` fixed at compile time (the insertion walk then
/// unrolls), or the caller's slices for a `k` known at run time.
#[derive(Debug)]
pub(crate) struct TopBuffer<KS, VS> {
    keys: KS,
    values: VS,
    len: usize,
}

impl<KS: Slots, VS: Slots> TopBuffer<KS, VS> {
    /// An empty buffer over `keys` and `values`, which must be as long as
    /// each other (their length is the capacity; a longer one's tail is
    /// never used). Their contents are kept but never read as items: only
    /// the slots the buffer fills count (fast keys rely on the contents: see
    /// [`floor`](TopBuffer::floor)).
    pub(crate) fn new(keys: KS, values: VS) -> Self {
        TopBuffer {
            keys,
            values,
            len: 0,
        }
    }

    /// Keeps `(key, value)` if it ranks among the best: `before(new, held)`
    /// says whether the new item goes before a held one, so an item goes
    /// after those equal to it and earlier offers stay first.
    ///
    /// Insertion from the back: a new item usually ranks last or near it, so
    /// a walk up from the first free slot (or past the end once full, when
    /// the last item falls off) beats a binary search plus a shift. Always
    /// inlined: over an array the walk unrolls.
    #[allow(clippy::inline_always)]
    #[inline(always)]
    pub(crate) fn offer(
        &mut self,
        key: KS::Item,
        value: VS::Item,
        before: impl Fn(&KS::Item, &VS::Item, &KS::Item, &VS::Item) -> bool,
    ) {
        let (keys, values) = (self.keys.slots_mut(), self.values.slots_mut());
        let capacity = keys.len().min(values.len());
        let at = self.len;
        if at < capacity {
            self.len = at.saturating_add(1);
            if KS::FIXED {
                // Filling an array: walk over the taken slots only.
                insert(keys, values, at, key, value, before);
                return;
            }
        }
        // From past the end (for an array a constant, so the walk unrolls):
        // free slots hold sentinels every item goes before (one walk for
        // every case measured faster over slices), and once full the last
        // item falls off.
        insert(keys, values, capacity, key, value, before);
    }

    /// `true` when every slot is taken (the next offer must beat the last).
    pub(crate) fn is_full(&self) -> bool {
        self.len >= self.keys.slots().len().min(self.values.slots().len())
    }

    /// The kept keys, best first.
    pub(crate) fn keys(&self) -> &[KS::Item] {
        self.keys.slots().get(..self.len).unwrap_or_default()
    }

    /// The kept values, best first.
    pub(crate) fn values(&self) -> &[VS::Item] {
        self.values.slots().get(..self.len).unwrap_or_default()
    }
}

/// The insertion walk of [`TopBuffer::offer`], up from `start`.
#[allow(clippy::inline_always)]
#[inline(always)]
fn insert<K: Copy, V: Copy>(
    keys: &mut [K],
    values: &mut [V],
    start: usize,
    key: K,
    value: V,
    before: impl Fn(&K, &V, &K, &V) -> bool,
) {
    let mut at = start;
    while let Some(above) = at.checked_sub(1) {
        let (Some(&held_key), Some(&held_value)) = (keys.get(above), values.get(above)) else {
            break;
        };
        crate::route::work::tick();
        if !before(&key, &value, &held_key, &held_value) {
            break;
        }
        if let (Some(key_slot), Some(value_slot)) = (keys.get_mut(at), values.get_mut(at)) {
            *key_slot = held_key;
            *value_slot = held_value;
        }
        at = above;
    }
    if let (Some(key_slot), Some(value_slot)) = (keys.get_mut(at), values.get_mut(at)) {
        *key_slot = key;
        *value_slot = value;
    }
}

impl<KS: Slots<Item = i128>, VS> TopBuffer<KS, VS> {
    /// The key a fast key must reach to be kept: the last slot's key. The
    /// caller fills the key slots with `i128::MIN` (below every real key,
    /// which are positive) so that this holds before the buffer is full too;
    /// `i128::MAX` (above every key: they are below 2^126) for no slots.
    #[inline]
    pub(crate) fn floor(&self) -> i128 {
        self.keys.slots().last().copied().unwrap_or(i128::MAX)
    }
}

#[cfg(test)]
mod tests {
    use alloc::vec::Vec;

    use super::TopBuffer;

    /// Offers `items` to a buffer of `k` and returns what it kept.
    fn keep(k: usize, items: &[(i32, char)]) -> Vec<(i32, char)> {
        let mut keys = alloc::vec![0; k];
        let mut values = alloc::vec![' '; k];
        let mut buffer = TopBuffer::new(keys.as_mut_slice(), values.as_mut_slice());
        for &(key, value) in items {
            buffer.offer(key, value, |a, _, b, _| a > b);
        }
        buffer
            .keys()
            .iter()
            .copied()
            .zip(buffer.values().iter().copied())
            .collect()
    }

    #[test]
    fn keeps_the_best_k_best_first_earlier_offers_first_among_equals() {
        let items = [(3, 'a'), (9, 'b'), (3, 'c'), (7, 'd'), (9, 'e'), (1, 'f')];
        assert_eq!(keep(3, &items), [(9, 'b'), (9, 'e'), (7, 'd')]);
        assert_eq!(keep(1, &items), [(9, 'b')]);
        assert_eq!(
            keep(10, &items),
            [(9, 'b'), (9, 'e'), (7, 'd'), (3, 'a'), (3, 'c'), (1, 'f')]
        );
        assert_eq!(keep(0, &items), []);
        assert_eq!(keep(2, &[]), []);
    }

    #[test]
    fn the_floor_is_the_last_key_with_sentinels() {
        let mut buffer = TopBuffer::new([i128::MIN; 2], [(); 2]);
        assert_eq!(buffer.floor(), i128::MIN);
        buffer.offer(5, (), |a, (), b, ()| a > b);
        assert_eq!(buffer.floor(), i128::MIN, "one slot still free");
        buffer.offer(8, (), |a, (), b, ()| a > b);
        assert_eq!(buffer.floor(), 5);
        buffer.offer(6, (), |a, (), b, ()| a > b);
        assert_eq!(buffer.keys(), [8, 6]);
        let none: TopBuffer<[i128; 0], [(); 0]> = TopBuffer::new([], []);
        assert_eq!(none.floor(), i128::MAX);
    }
}
