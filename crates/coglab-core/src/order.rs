//! Sorting through one shared instantiation, for code size in the web app.
//!
//! Every `slice::sort_by` call with its own closure compiles a whole stable sort (quicksort,
//! drift sort, small sorts: about 6 KB of wasm each), and the app had some thirty of them. The
//! functions here sort an index vector with a `dyn` comparator, so the sort itself is compiled
//! once; each call site only adds its comparator and an in-place permutation. They are stable
//! like `slice::sort_by`, and fast enough for every use here (tables, quantiles, ranks).
//!
//! Collecting into a `BTreeMap` or `BTreeSet` hides another such sort: `FromIterator` gathers a
//! `Vec`, stable-sorts it (about 4 KB of wasm per element type) and bulk-builds the tree.
//! [`collect_map`] and [`collect_set`] insert one by one instead, which needs no sort.

use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};

/// The stable order of `0..n` under `cmp` (compiled once for every caller).
fn sorted_indices(n: usize, cmp: &mut dyn FnMut(usize, usize) -> Ordering) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..n).collect();
    idx.sort_by(|&a, &b| cmp(a, b));
    idx
}

/// Rearranges `v` so that position `i` holds the element that was at `idx[i]` (`idx` is a
/// permutation of `0..v.len()`), following each cycle with swaps.
fn permute<T>(v: &mut [T], mut idx: Vec<usize>) {
    for start in 0..v.len() {
        let mut j = start;
        while idx[j] != start {
            let k = idx[j];
            idx[j] = j;
            v.swap(j, k);
            j = k;
        }
        idx[j] = j;
    }
}

/// Sorts `v` stably by `cmp`, like [`slice::sort_by`].
///
/// ```
/// let mut v = vec![("b", 2), ("a", 1), ("c", 2), ("d", 1)];
/// coglab_core::order::sort_by(&mut v, |x, y| x.1.cmp(&y.1));
/// assert_eq!(v, [("a", 1), ("d", 1), ("b", 2), ("c", 2)]);
/// ```
pub fn sort_by<T>(v: &mut [T], mut cmp: impl FnMut(&T, &T) -> Ordering) {
    let idx = sorted_indices(v.len(), &mut |a, b| cmp(&v[a], &v[b]));
    permute(v, idx);
}

/// Sorts `v` stably by the key `key` gives, like [`slice::sort_by_key`].
pub fn sort_by_key<T, K: Ord>(v: &mut [T], mut key: impl FnMut(&T) -> K) {
    sort_by(v, |a, b| key(a).cmp(&key(b)));
}

/// Sorts `v` (stably; equal elements are indistinguishable anyway), like [`slice::sort`].
pub fn sort<T: Ord>(v: &mut [T]) {
    sort_by(v, T::cmp);
}

/// Sorts `v` and removes repeated elements.
pub fn sort_dedup<T: Ord>(v: &mut Vec<T>) {
    sort(v);
    v.dedup();
}

/// Sorts numbers in IEEE total order (`-NaN < -inf < ... < -0 < +0 < ... < inf < NaN`).
pub fn sort_f64(v: &mut [f64]) {
    sort_by(v, f64::total_cmp);
}

/// Builds a map by inserting each pair in turn (a later value for an equal key replaces the
/// earlier one), so it equals `it.into_iter().collect()` without compiling a sort for `(K, V)`.
///
/// ```
/// let m = coglab_core::order::collect_map([("b", 1), ("a", 2), ("b", 3)]);
/// assert_eq!(m.into_iter().collect::<Vec<_>>(), [("a", 2), ("b", 3)]);
/// ```
pub fn collect_map<K: Ord, V>(it: impl IntoIterator<Item = (K, V)>) -> BTreeMap<K, V> {
    let mut m = BTreeMap::new();
    m.extend(it);
    m
}

/// Builds a set by inserting each element in turn, so it equals `it.into_iter().collect()`
/// without compiling a sort for `T`.
pub fn collect_set<T: Ord>(it: impl IntoIterator<Item = T>) -> BTreeSet<T> {
    let mut s = BTreeSet::new();
    s.extend(it);
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::rng::Rng;

    #[test]
    fn agrees_with_the_standard_stable_sort_on_random_input() {
        let mut rng = Rng::new(7);
        for n in [0, 1, 2, 3, 17, 100, 1000] {
            // Few distinct keys, so stability is exercised: the payload records input order.
            let v: Vec<(u64, usize)> = (0..n).map(|i| (rng.next_u64() % 5, i)).collect();
            let mut ours = v.clone();
            let mut std = v.clone();
            sort_by(&mut ours, |a, b| a.0.cmp(&b.0));
            std.sort_by_key(|p| p.0);
            assert_eq!(ours, std, "n = {n}");
        }
    }

    #[test]
    fn sorts_strings_numbers_and_dedups() {
        let mut s = vec![
            "pear".to_string(),
            "apple".into(),
            "pear".into(),
            "fig".into(),
        ];
        sort_dedup(&mut s);
        assert_eq!(s, ["apple", "fig", "pear"]);
        let mut x = [3.5, -0.0, f64::NAN, -2.0, 0.0, f64::NEG_INFINITY];
        sort_f64(&mut x);
        assert_eq!(x[..5], [f64::NEG_INFINITY, -2.0, -0.0, 0.0, 3.5]);
        assert!(x[5].is_nan());
        assert!(x[2].is_sign_negative() && x[3].is_sign_positive());
        let mut k = vec![(2, 'a'), (1, 'b'), (2, 'c'), (0, 'd')];
        sort_by_key(&mut k, |p| std::cmp::Reverse(p.0));
        assert_eq!(k, [(2, 'a'), (2, 'c'), (1, 'b'), (0, 'd')]);
    }

    #[test]
    fn collects_like_from_iterator_with_repeated_keys_in_any_order() {
        let pairs = [
            ("pear", 1),
            ("apple", 2),
            ("pear", 3),
            ("fig", 4),
            ("apple", 5),
        ];
        let ours = collect_map(pairs);
        let std: BTreeMap<_, _> = pairs.into_iter().collect();
        assert_eq!(ours, std);
        assert_eq!(ours["pear"], 3, "the last value for a key wins");
        let words = ["pear", "apple", "pear", "fig"];
        assert_eq!(
            collect_set(words),
            words.into_iter().collect::<BTreeSet<_>>()
        );
        assert!(collect_map(Vec::<(u8, u8)>::new()).is_empty());
    }
}
