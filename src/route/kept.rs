//! A bounded, sorted buffer over storage the caller provides (an array for a
//! fixed `k`, so keeping the top `k` allocates nothing).

use core::cmp::Ordering;

/// The best items offered so far, best first, at most `slots.len()` of them.
#[derive(Debug)]
pub(crate) struct Kept<'s, T> {
    slots: &'s mut [Option<T>],
    len: usize,
}

impl<'s, T: Copy> Kept<'s, T> {
    /// An empty buffer over `slots` (whose contents are discarded).
    pub(crate) fn new(slots: &'s mut [Option<T>]) -> Self {
        for slot in slots.iter_mut() {
            *slot = None;
        }
        Kept { slots, len: 0 }
    }

    /// Keeps `item` if it ranks among the best (`order` gives `Less` when its
    /// first argument ranks first); after equal items, so earlier offers stay first.
    #[inline]
    pub(crate) fn offer(&mut self, item: T, order: impl Fn(&T, &T) -> Ordering) {
        let capacity = self.slots.len();
        if capacity == 0 {
            return;
        }
        if self.len == capacity {
            match self.slots.last() {
                Some(Some(last)) if order(&item, last) == Ordering::Less => {}
                _ => return,
            }
        }
        let held = self.slots.get(..self.len).unwrap_or_default();
        let at = held.partition_point(|slot| {
            slot.as_ref()
                .is_some_and(|held| order(held, &item) != Ordering::Greater)
        });
        let end = self.len.saturating_add(1).min(capacity);
        // Shift the tail right by one with swaps (a `rotate_right` on a few
        // small slots costs a `memmove` call); the last one falls off.
        let mut carry = Some(item);
        for slot in self.slots.get_mut(at..end).unwrap_or_default() {
            core::mem::swap(slot, &mut carry);
        }
        self.len = end;
    }

    /// The worst kept item once the buffer is full (an item must rank at
    /// least as well to enter), `None` before.
    #[inline]
    pub(crate) fn floor(&self) -> Option<T> {
        if self.len == self.slots.len() {
            self.slots.last().copied().flatten()
        } else {
            None
        }
    }

    /// The kept items, best first.
    pub(crate) fn iter(&self) -> impl Iterator<Item = T> + '_ {
        self.slots.iter().take(self.len).filter_map(|slot| *slot)
    }
}
