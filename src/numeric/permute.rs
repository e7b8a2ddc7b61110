//! Putting a slice into a given order in place.

use alloc::vec::Vec;
use core::cmp::Ordering;

/// Reorders `items` so that position `i` holds the item that was at
/// `order[i].1`, in place: one swap per item, no second buffer (a full
/// selection's routes are megabytes, and fresh pages cost more than the
/// moves). The `.0` of each entry is whatever it was sorted by, untouched.
///
/// The positions must be a permutation of `0..items.len()`; they are used
/// up (overwritten with a marker). Anything else (a wrong length, a position
/// out of range, a repeat) is a bug in the caller: the items are then left
/// in some order, never lost or duplicated, and this returns `false`.
pub(crate) fn apply_order<T, K>(items: &mut [T], order: &mut [(K, usize)]) -> bool {
    const PLACED: usize = usize::MAX;
    if items.len() != order.len() {
        return false;
    }
    let mut sound = true;
    for start in 0..order.len() {
        // Follow the cycle through `start`: each swap puts one item in its
        // place and carries the item from `start` one step along.
        let mut at = start;
        loop {
            let Some((_, slot)) = order.get_mut(at) else {
                sound = false;
                break;
            };
            let from = core::mem::replace(slot, PLACED);
            if from == PLACED || from == start {
                // Placed already, or the cycle closed (the carried item
                // belongs here).
                sound &= from != PLACED || at == start;
                break;
            }
            if from >= items.len() {
                sound = false;
                break;
            }
            items.swap(at, from);
            at = from;
        }
    }
    sound
}

/// Sorts `items` stably by `cmp`: the order `slice::sort_by` gives (equal
/// items keep their input order). The sort itself runs on positions, ties
/// broken by position, through one comparator type for every item type, so
/// a build that sorts several kinds of items holds one copy of the sort (the
/// browser WebAssembly package's size); the items are then moved in place by
/// [`apply_order`]. For the rarer sorts: the hot ranking sorts its keys
/// directly.
pub(crate) fn sort_stable<T>(items: &mut [T], cmp: impl Fn(&T, &T) -> Ordering) {
    let mut order = positions(items.len(), &|a, b| match (items.get(a), items.get(b)) {
        (Some(x), Some(y)) => cmp(x, y),
        _ => Ordering::Equal,
    });
    // Always sound: the positions are a permutation of the items'.
    let sound = apply_order(items, &mut order);
    debug_assert!(sound, "sort_stable: positions are a permutation");
}

/// `0..len` sorted by `cmp`, ties by position (the stable order).
fn positions(len: usize, cmp: &dyn Fn(usize, usize) -> Ordering) -> Vec<((), usize)> {
    let mut order: Vec<((), usize)> = (0..len).map(|at| ((), at)).collect();
    order.sort_unstable_by(|a, b| cmp(a.1, b.1).then(a.1.cmp(&b.1)));
    order
}

#[cfg(test)]
mod tests {
    use alloc::vec;
    use alloc::vec::Vec;

    use super::{apply_order, sort_stable};

    /// The positions as `apply_order` takes them, each with a dummy key.
    fn order(positions: &[usize]) -> Vec<((), usize)> {
        positions.iter().map(|&at| ((), at)).collect()
    }

    #[test]
    fn gathers_each_item_from_its_source() {
        // Position i receives the item at position order[i]: one 3-cycle (0 ← 2 ←
        // 4 ← 0), one 2-cycle (1 ← 3 ← 1), and 5 in place.
        let mut items = ['a', 'b', 'c', 'd', 'e', 'f'];
        assert!(apply_order(&mut items, &mut order(&[2, 3, 4, 1, 0, 5])));
        assert_eq!(items, ['c', 'd', 'e', 'b', 'a', 'f']);
    }

    #[test]
    fn identity_and_empty_orders_change_nothing() {
        let mut items = [10, 20, 30];
        assert!(apply_order(&mut items, &mut order(&[0, 1, 2])));
        assert_eq!(items, [10, 20, 30]);
        let mut none: [u8; 0] = [];
        assert!(apply_order(&mut none, &mut order(&[])));
    }

    #[test]
    fn reversal_of_many_items() {
        let mut items: Vec<usize> = (0..1000).collect();
        let reversed: Vec<usize> = (0..1000).rev().collect();
        assert!(apply_order(&mut items, &mut order(&reversed)));
        assert_eq!(items, (0..1000).rev().collect::<Vec<_>>());
    }

    #[test]
    fn a_broken_order_keeps_every_item_and_says_so() {
        for positions in [vec![0, 0, 1], vec![0, 7, 1], vec![0, 1]] {
            let mut items = ['x', 'y', 'z'];
            assert!(!apply_order(&mut items, &mut order(&positions)));
            let mut sorted = items;
            sorted.sort_unstable();
            assert_eq!(sorted, ['x', 'y', 'z']);
        }
    }

    // The permutations below are the same on every run.
    use crate::numeric::split_mix as next;

    /// Any permutation: position i ends up with the item that was at
    /// order[i], so every item is kept exactly once. Every length from 0 to
    /// 299, three shuffles (Fisher–Yates) of each.
    #[test]
    fn any_order_gathers() {
        let mut state = 0x5EED;
        for n in 0..300 {
            for _ in 0..3 {
                let mut order: Vec<usize> = (0..n).collect();
                for i in (1..n).rev() {
                    let j = usize::try_from(next(&mut state) % (i as u64 + 1)).unwrap();
                    order.swap(i, j);
                }
                let original: Vec<alloc::string::String> =
                    (0..n).map(|i| alloc::format!("item {i}")).collect();
                let mut items = original.clone();
                let mut pairs = self::order(&order);
                assert!(apply_order(&mut items, &mut pairs), "{order:?}");
                for (i, &from) in order.iter().enumerate() {
                    assert_eq!(&items[i], &original[from], "{order:?}");
                }
            }
        }
    }
    /// `sort_stable` puts items in the order of the library's stable sort:
    /// by key, equal keys in input order (the tag tells them apart). Keys
    /// drawn from few values so that most items tie.
    #[test]
    fn sort_stable_keeps_input_order_among_equal_keys() {
        let mut state = 0x50F7;
        for n in 0..200 {
            let items: Vec<(u64, usize)> = (0..n).map(|tag| (next(&mut state) % 5, tag)).collect();
            let mut expected = items.clone();
            expected.sort_by_key(|a| a.0);
            let mut sorted = items;
            sort_stable(&mut sorted, |a, b| a.0.cmp(&b.0));
            assert_eq!(sorted, expected);
        }
    }
}
