//! From pairwise decisions to what a board shows: the rank range each model's tests allow, the
//! group of models not distinguishable from the leader, and a compact letter display.

/// The best and worst rank consistent with the tests, for models sorted best first.
///
/// Model `i`'s best rank is one plus the number of models significantly better than it; its
/// worst rank is the number of models minus the number significantly worse. `sig[i][j]` says
/// whether models `i` and `j` differ significantly; `better(j, i)` whether `j` scored higher.
///
/// # Examples
/// ```
/// use coglab_core::ranks::groups::rank_ranges;
/// // A > B > C by score; only A vs C is significant.
/// let sig = vec![vec![false, false, true], vec![false; 3], vec![true, false, false]];
/// let score = [0.9, 0.8, 0.7];
/// let r = rank_ranges(&sig, |j, i| score[j] > score[i]);
/// assert_eq!(r, vec![(1, 2), (1, 3), (2, 3)]);
/// ```
pub fn rank_ranges(
    sig: &[Vec<bool>],
    better: impl Fn(usize, usize) -> bool,
) -> Vec<(usize, usize)> {
    let k = sig.len();
    (0..k)
        .map(|i| {
            let above = (0..k)
                .filter(|&j| j != i && sig[i][j] && better(j, i))
                .count();
            let below = (0..k)
                .filter(|&j| j != i && sig[i][j] && better(i, j))
                .count();
            (1 + above, k - below)
        })
        .collect()
}

/// Most letter groups kept by [`compact_letters`] before it gives up (the display then says so
/// instead of growing without bound).
pub const MAX_LETTER_GROUPS: usize = 52;

/// A compact letter display (Piepho 2004, insert-absorb): models that share a letter are not
/// significantly different. `sig[i][j]` marks significant pairs; models are given best first,
/// and letters are assigned in the order of each group's best member (`a` holds the leader).
/// Returns `None` when more than [`MAX_LETTER_GROUPS`] groups would be needed.
///
/// # Examples
/// ```
/// use coglab_core::ranks::groups::compact_letters;
/// // A, B, C, D best first; A differs from C and D, B from D.
/// let mut sig = vec![vec![false; 4]; 4];
/// for (i, j) in [(0, 2), (0, 3), (1, 3)] { sig[i][j] = true; sig[j][i] = true; }
/// assert_eq!(compact_letters(&sig).unwrap(), vec!["a", "ab", "bc", "c"]);
/// ```
pub fn compact_letters(sig: &[Vec<bool>]) -> Option<Vec<String>> {
    let k = sig.len();
    let mut groups: Vec<Vec<bool>> = vec![vec![true; k]];
    for i in 0..k {
        for j in i + 1..k {
            if !sig[i][j] {
                continue;
            }
            let mut next: Vec<Vec<bool>> = Vec::new();
            for g in groups {
                if g[i] && g[j] {
                    let mut gi = g.clone();
                    gi[j] = false;
                    let mut gj = g;
                    gj[i] = false;
                    next.push(gi);
                    next.push(gj);
                } else {
                    next.push(g);
                }
            }
            // Absorb: drop groups contained in another (and duplicates).
            let mut kept: Vec<Vec<bool>> = Vec::new();
            for (a, g) in next.iter().enumerate() {
                let absorbed = next.iter().enumerate().any(|(b, h)| {
                    b != a && g.iter().zip(h).all(|(&x, &y)| !x || y) && (g != h || b < a)
                });
                if !absorbed && g.iter().any(|&x| x) {
                    kept.push(g.clone());
                }
            }
            groups = kept;
            if groups.len() > MAX_LETTER_GROUPS {
                return None;
            }
        }
    }
    // Letters in the order of each group's best (first) member, then its next members.
    groups.sort_by(|a, b| {
        let ka: Vec<usize> = (0..k).filter(|&i| a[i]).collect();
        let kb: Vec<usize> = (0..k).filter(|&i| b[i]).collect();
        ka.cmp(&kb)
    });
    let letter = |n: usize| {
        if n < 26 {
            char::from(b'a' + n as u8)
        } else {
            char::from(b'A' + (n - 26) as u8)
        }
    };
    Some(
        (0..k)
            .map(|i| {
                groups
                    .iter()
                    .enumerate()
                    .filter(|(_, g)| g[i])
                    .map(|(n, _)| letter(n))
                    .collect()
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sig_of(k: usize, pairs: &[(usize, usize)]) -> Vec<Vec<bool>> {
        let mut s = vec![vec![false; k]; k];
        for &(i, j) in pairs {
            s[i][j] = true;
            s[j][i] = true;
        }
        s
    }

    #[test]
    fn letters_cover_every_non_significant_pair_and_no_significant_one() {
        // Five models; significant: (0,3), (0,4), (1,4), (2,4).
        let sig = sig_of(5, &[(0, 3), (0, 4), (1, 4), (2, 4)]);
        let l = compact_letters(&sig).unwrap();
        // By hand: groups {0,1,2}, {1,2,3}, {3,4} -> a, ab, ab, bc, c.
        assert_eq!(l, vec!["a", "ab", "ab", "bc", "c"]);
        for i in 0..5 {
            for j in 0..5 {
                let share = l[i].chars().any(|c| l[j].contains(c));
                assert_eq!(share, !sig[i][j], "{i} {j}");
            }
        }
    }

    #[test]
    fn no_significance_is_one_group_all_significance_all_apart() {
        assert_eq!(compact_letters(&sig_of(3, &[])).unwrap(), vec!["a"; 3]);
        let all = sig_of(3, &[(0, 1), (0, 2), (1, 2)]);
        assert_eq!(compact_letters(&all).unwrap(), vec!["a", "b", "c"]);
        let r = rank_ranges(&all, |j, i| j < i);
        assert_eq!(r, vec![(1, 1), (2, 2), (3, 3)]);
        assert!(compact_letters(&[]).unwrap().is_empty());
    }
}
