//! A bounded, sorted buffer over storage the caller provides (an array for a
//! fixed `k`, so keeping the top `k` allocates nothing): the plain path's
//! candidates. Fast keys have their own buffer ([`super::top_keys`]).

use core::cmp::Ordering;

/// The best items offered so far, best first, at most `slots.len()` of them.
#[derive(Debug)]
pub(crate) struct TopBuffer<'s, T> {
    slots: &'s mut [Option<T>],
    len: usize,
}

impl<'s, T: Copy> TopBuffer<'s, T> {
    /// An empty buffer over `slots`. Their contents are ignored: only the
    /// slots it has filled are read, so they need no clearing.
    pub(crate) fn new(slots: &'s mut [Option<T>]) -> Self {
        TopBuffer { slots, len: 0 }
    }

    /// Keeps `item` if it ranks among the best (`order` gives `Less` when its
    /// first argument ranks first); after equal items, so earlier offers stay first.
    #[inline]
    pub(crate) fn offer(&mut self, item: T, order: impl Fn(&T, &T) -> Ordering) {
        let capacity = self.slots.len();
        // Insertion from the back: a new item usually ranks last or near it,
        // so walking up from the end beats a binary search plus a shift.
        let mut at = self.len;
        if at >= capacity {
            match self.slots.last() {
                Some(Some(last)) if order(&item, last) == Ordering::Less => {}
                _ => return,
            }
            at = capacity.saturating_sub(1);
        } else {
            self.len = at.saturating_add(1);
        }
        while let Some(above) = at.checked_sub(1) {
            let Some(&Some(held)) = self.slots.get(above) else {
                break;
            };
            if order(&item, &held) != Ordering::Less {
                break;
            }
            if let Some(slot) = self.slots.get_mut(at) {
                *slot = Some(held);
            }
            at = above;
        }
        if let Some(slot) = self.slots.get_mut(at) {
            *slot = Some(item);
        }
    }

    /// `true` when nothing was kept.
    pub(crate) fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The kept items, best first.
    pub(crate) fn iter(&self) -> impl Iterator<Item = T> + '_ {
        self.slots.iter().take(self.len).filter_map(|slot| *slot)
    }
}
