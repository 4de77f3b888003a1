//! Grouping by a dense key without a comparison sort, for the layers above the document.

/// Entries grouped by key, each key's in the order given, in one counting pass and one scatter (no comparison
/// sort): where each key's run starts (and, last, the number of entries) and the entries in that order. `entries`
/// gives the (key, entry) pairs, each key below `keys`, and gives the same pairs each time it is called. What the
/// compressed rows of the topology and the routing are built with, how cables are put in order of their ends, and
/// how validation finds each device's cable ends.
pub(crate) fn grouped<T: Copy, I: Iterator<Item = (usize, T)>>(
    keys: usize,
    entries: impl Fn() -> I,
) -> (Vec<u32>, Vec<T>) {
    let mut start = vec![0u32; keys + 1];
    let mut first = None;
    for (k, x) in entries() {
        first.get_or_insert(x);
        if let Some(c) = start.get_mut(k + 1) {
            *c += 1;
        }
    }
    let mut sum = 0;
    for c in &mut start {
        sum += *c;
        *c = sum;
    }
    let Some(first) = first else {
        return (start, Vec::new());
    };
    let mut out = vec![first; sum as usize];
    let mut next = start.clone();
    for (k, x) in entries() {
        if let Some(p) = next.get_mut(k) {
            if let Some(slot) = out.get_mut(*p as usize) {
                *slot = x;
            }
            *p += 1;
        }
    }
    (start, out)
}

/// `list` in order of `key` (each below `keys`) and then `then`: grouped by `key` in one counting pass and a
/// scatter, then each key's run sorted by `then`. The order of sorting the whole list by both, in two passes over
/// it where a sort of 235,000 cables makes some eighteen; how the topology and the routing order their cables.
pub(crate) fn sorted_by<T: Copy, K: Ord>(
    keys: usize,
    list: Vec<T>,
    key: impl Fn(&T) -> usize,
    then: impl Fn(&T) -> K,
) -> Vec<T> {
    let (starts, mut out) = grouped(keys, || list.iter().map(|x| (key(x), *x)));
    drop(list);
    for run in starts.windows(2) {
        if let [lo, hi] = run
            && let Some(entries) = out.get_mut(*lo as usize..*hi as usize)
        {
            entries.sort_unstable_by_key(&then);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{grouped, sorted_by};
    use proptest::prelude::*;

    #[test]
    fn entries_come_out_by_key_each_key_in_the_order_given() {
        let given = [(2, 'a'), (0, 'b'), (2, 'c'), (3, 'd'), (0, 'e')];
        let (starts, entries) = grouped(5, || given.iter().copied());
        // Key 0 holds b, e; key 1 nothing; key 2 a, c; key 3 d; key 4 nothing; then the count.
        assert_eq!(starts, vec![0, 2, 2, 4, 5, 5]);
        assert_eq!(entries, vec!['b', 'e', 'a', 'c', 'd']);
        let (starts, entries) = grouped(3, std::iter::empty::<(usize, char)>);
        assert_eq!(starts, vec![0, 0, 0, 0]);
        assert!(entries.is_empty());
    }

    proptest! {
        /// The same order as a stable sort by key, and each key's run where the starts say.
        #[test]
        fn grouping_is_a_stable_sort_by_key(given in proptest::collection::vec((0usize..12, any::<u16>()), 0..200)) {
            let (starts, entries) = grouped(12, || given.iter().copied());
            let mut sorted = given.clone();
            sorted.sort_by_key(|x| x.0);
            prop_assert_eq!(&entries, &sorted.iter().map(|x| x.1).collect::<Vec<_>>());
            for (key, run) in starts.windows(2).enumerate() {
                let (lo, hi) = (run[0] as usize, run[1] as usize);
                prop_assert!(sorted[lo..hi].iter().all(|x| x.0 == key));
            }
            prop_assert_eq!(starts.last().copied(), Some(given.len() as u32));
        }

        /// The same order as sorting by both keys (here unique pairs, as the cables' places are).
        #[test]
        fn sorted_by_is_a_sort_by_both_keys(given in proptest::collection::btree_set((0usize..12, any::<u16>()), 0..200)) {
            let mut given: Vec<(usize, u16)> = given.into_iter().collect();
            given.reverse();
            let mut sorted = given.clone();
            sorted.sort();
            prop_assert_eq!(sorted_by(12, given, |x| x.0, |x| x.1), sorted);
        }
    }
}
