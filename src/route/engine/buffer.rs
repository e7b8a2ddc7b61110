//! The engine's one bounded buffer: the best `k` items offered so far, best
//! first, over storage the caller provides (arrays for a fixed `k`, so
//! keeping the top `k` allocates nothing).
//!
//! Keys and values sit in two slices: a step of the insertion compares a key
//! and moves both, and for fast keys (`i128` and a rate reference) that is
//! 24 bytes where one slot of `Option<(i128, &Rate)>` moves 48. Plain
//! candidates are their own key, with `()` values (which take no room).

/// Up to `capacity` items, best first.
#[derive(Debug)]
pub(crate) struct TopBuffer<'s, K, V> {
    keys: &'s mut [K],
    values: &'s mut [V],
    len: usize,
}

impl<'s, K: Copy, V: Copy> TopBuffer<'s, K, V> {
    /// An empty buffer over `keys` and `values` (the shorter sets the
    /// capacity). Their contents are kept but never read as items: only the
    /// slots the buffer fills count (fast keys rely on the contents: see
    /// [`floor`](TopBuffer::floor)).
    pub(crate) fn new(keys: &'s mut [K], values: &'s mut [V]) -> Self {
        let capacity = keys.len().min(values.len());
        let (keys, _) = keys.split_at_mut(capacity);
        let (values, _) = values.split_at_mut(capacity);
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
    pub(crate) fn offer(&mut self, key: K, value: V, before: impl Fn(&K, &V, &K, &V) -> bool) {
        let mut at = self.len;
        if at < self.keys.len() {
            self.len = at.saturating_add(1);
        }
        while let Some(above) = at.checked_sub(1) {
            let (Some(&held_key), Some(&held_value)) =
                (self.keys.get(above), self.values.get(above))
            else {
                break;
            };
            super::work::tick();
            if !before(&key, &value, &held_key, &held_value) {
                break;
            }
            if let (Some(key_slot), Some(value_slot)) =
                (self.keys.get_mut(at), self.values.get_mut(at))
            {
                *key_slot = held_key;
                *value_slot = held_value;
            }
            at = above;
        }
        if let (Some(key_slot), Some(value_slot)) = (self.keys.get_mut(at), self.values.get_mut(at))
        {
            *key_slot = key;
            *value_slot = value;
        }
    }

    /// The kept keys, best first.
    pub(crate) fn keys(&self) -> &[K] {
        self.keys.get(..self.len).unwrap_or_default()
    }

    /// The kept values, best first.
    pub(crate) fn values(&self) -> &[V] {
        self.values.get(..self.len).unwrap_or_default()
    }
}

impl<V: Copy> TopBuffer<'_, i128, V> {
    /// The key a fast key must reach to be kept: the last slot's key. The
    /// caller fills the key slots with `i128::MIN` (below every real key,
    /// which are positive) so that this holds before the buffer is full too;
    /// `i128::MAX` (above every key: they are below 2^126) for no slots.
    #[inline]
    pub(crate) fn floor(&self) -> i128 {
        self.keys.last().copied().unwrap_or(i128::MAX)
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
        let mut buffer = TopBuffer::new(&mut keys, &mut values);
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
        let mut keys = [i128::MIN; 2];
        let mut values = [(); 2];
        let mut buffer = TopBuffer::new(&mut keys, &mut values);
        assert_eq!(buffer.floor(), i128::MIN);
        buffer.offer(5, (), |a, (), b, ()| a > b);
        assert_eq!(buffer.floor(), i128::MIN, "one slot still free");
        buffer.offer(8, (), |a, (), b, ()| a > b);
        assert_eq!(buffer.floor(), 5);
        buffer.offer(6, (), |a, (), b, ()| a > b);
        assert_eq!(buffer.keys(), [8, 6]);
        let mut none: [i128; 0] = [];
        let mut no_values: [(); 0] = [];
        assert_eq!(TopBuffer::new(&mut none, &mut no_values).floor(), i128::MAX);
    }
}
