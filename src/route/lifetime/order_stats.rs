//! The two trees of the schedule under a median guard (`schedule.rs`):
//! [`Counts`], which voters are left, in multiplier order, and the `k`-th
//! of them (a Fenwick tree); [`MinTree`], the best rank left in a range of
//! positions (a segment tree). Each operation `O(log n)`, each tree built
//! in `O(n)`; neither allocates after it is built. No file of this crate
//! below it: it knows positions and numbers only.

use alloc::vec;
use alloc::vec::Vec;

// Index arithmetic below stays within `2 × len` of vectors of `len`
// elements the caller already holds one `Rate` each for (a `Rate` is
// larger than two `usize`s), so it cannot overflow; it saturates anyway.

/// Which of `n` positions are still present (each once), answering the
/// `k`-th present position: a Fenwick tree of counts.
#[derive(Clone, Debug)]
pub(crate) struct Counts {
    /// 1-based: `tree[i]` counts the present positions in `(i − lowbit(i), i]`.
    tree: Vec<usize>,
    total: usize,
}

/// The lowest set bit of `i` (0 for 0).
fn lowbit(i: usize) -> usize {
    i & i.wrapping_neg()
}

impl Counts {
    /// `n` positions, all present.
    pub(crate) fn full(n: usize) -> Self {
        let mut tree = vec![0; n.saturating_add(1)];
        for (i, slot) in tree.iter_mut().enumerate().skip(1) {
            *slot = lowbit(i);
        }
        Counts { tree, total: n }
    }

    /// How many positions are present.
    pub(crate) fn total(&self) -> usize {
        self.total
    }

    /// Removes position `at` (0-based), which must be present; a position
    /// out of range changes nothing.
    pub(crate) fn remove(&mut self, at: usize) {
        let n = self.tree.len().saturating_sub(1);
        if at >= n {
            return;
        }
        let mut i = at.saturating_add(1);
        while let Some(slot) = self.tree.get_mut(i) {
            *slot = slot.saturating_sub(1);
            i = i.saturating_add(lowbit(i));
        }
        self.total = self.total.saturating_sub(1);
    }

    /// The `k`-th present position (0-based `k`, in position order), `None`
    /// when fewer than `k + 1` are present.
    pub(crate) fn kth(&self, k: usize) -> Option<usize> {
        if k >= self.total {
            return None;
        }
        let n = self.tree.len().saturating_sub(1);
        // The largest `pos` whose prefix count is at most `k`: the answer
        // is the next position (1-based `pos + 1`, 0-based `pos`).
        let mut pos = 0usize;
        let mut rest = k;
        let mut step = if n == 0 {
            0
        } else {
            1usize
                << (usize::BITS
                    .saturating_sub(1)
                    .saturating_sub(n.leading_zeros()))
        };
        while step > 0 {
            let next = pos.saturating_add(step);
            if let Some(&count) = self.tree.get(next) {
                if count <= rest {
                    pos = next;
                    rest = rest.saturating_sub(count);
                }
            }
            step /= 2;
        }
        Some(pos)
    }
}

/// The least value over a range of positions, values only ever raised to
/// [`MinTree::EMPTY`]: a segment tree.
#[derive(Clone, Debug)]
pub(crate) struct MinTree {
    /// Leaves at `n..2n`, each inner node `i` the least of `2i` and `2i + 1`.
    tree: Vec<usize>,
    n: usize,
}

impl MinTree {
    /// The value of a cleared position, above every other.
    pub(crate) const EMPTY: usize = usize::MAX;

    /// A tree over `values`, in position order.
    pub(crate) fn new(values: &[usize]) -> Self {
        let n = values.len();
        let mut tree = vec![Self::EMPTY; n];
        tree.extend_from_slice(values);
        for i in (1..n).rev() {
            let left = tree.get(i.saturating_mul(2)).copied();
            let right = tree.get(i.saturating_mul(2).saturating_add(1)).copied();
            if let (Some(slot), Some(left), Some(right)) = (tree.get_mut(i), left, right) {
                *slot = left.min(right);
            }
        }
        MinTree { tree, n }
    }

    /// Clears position `at` (its value becomes [`EMPTY`](Self::EMPTY)).
    pub(crate) fn clear(&mut self, at: usize) {
        if at >= self.n {
            return;
        }
        let mut i = at.saturating_add(self.n);
        if let Some(slot) = self.tree.get_mut(i) {
            *slot = Self::EMPTY;
        }
        while i > 1 {
            i /= 2;
            let left = self.tree.get(i.saturating_mul(2)).copied();
            let right = self
                .tree
                .get(i.saturating_mul(2).saturating_add(1))
                .copied();
            if let (Some(slot), Some(left), Some(right)) = (self.tree.get_mut(i), left, right) {
                *slot = left.min(right);
            }
        }
    }

    /// The least value over positions `from..until` ([`EMPTY`](Self::EMPTY)
    /// when the range is empty or every position in it is cleared).
    pub(crate) fn min(&self, from: usize, until: usize) -> usize {
        let mut best = Self::EMPTY;
        let mut l = from.min(self.n).saturating_add(self.n);
        let mut r = until.min(self.n).saturating_add(self.n);
        while l < r {
            if l % 2 == 1 {
                best = best.min(self.tree.get(l).copied().unwrap_or(Self::EMPTY));
                l = l.saturating_add(1);
            }
            if r % 2 == 1 {
                r = r.saturating_sub(1);
                best = best.min(self.tree.get(r).copied().unwrap_or(Self::EMPTY));
            }
            l /= 2;
            r /= 2;
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Both trees against a plain list, removing in a scrambled order.
    #[test]
    fn the_trees_agree_with_a_list() {
        for n in 0..40usize {
            let values: Vec<usize> = (0..n).map(|i| (i * 7919) % 31).collect();
            let mut counts = Counts::full(n);
            let mut tree = MinTree::new(&values);
            let mut present: Vec<Option<usize>> = values.iter().copied().map(Some).collect();
            let order: Vec<usize> = (0..n).map(|i| (i * 17 + 5) % n.max(1)).collect();
            let mut removed = vec![false; n];
            for at in order {
                let left: Vec<usize> = (0..n).filter(|&i| present[i].is_some()).collect();
                assert_eq!(counts.total(), left.len());
                for (k, &pos) in left.iter().enumerate() {
                    assert_eq!(counts.kth(k), Some(pos), "n {n} k {k}");
                }
                assert_eq!(counts.kth(left.len()), None);
                for from in 0..=n {
                    for until in from..=n + 1 {
                        let want = (from..until.min(n))
                            .filter_map(|i| present[i])
                            .min()
                            .unwrap_or(MinTree::EMPTY);
                        assert_eq!(tree.min(from, until), want, "n {n} [{from}, {until})");
                    }
                }
                if !removed[at] {
                    removed[at] = true;
                    counts.remove(at);
                    tree.clear(at);
                    present[at] = None;
                }
            }
        }
    }
}
