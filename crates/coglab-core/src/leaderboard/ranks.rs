//! Ranks that treat overlapping intervals as ties.

/// Ranks entries given as `(low, high)` intervals (higher is better): an entry's rank is one
/// plus the number of entries whose interval lies entirely above its own (`low > high`).
/// Entries whose intervals overlap can therefore share a rank, and the ranks say only what the
/// intervals separate. Non-finite bounds are never "above" anything.
///
/// # Examples
/// ```
/// use coglab_core::leaderboard::tie_ranks;
/// // A [0.6, 0.8] is above C [0.2, 0.4]; B [0.35, 0.65] overlaps both.
/// assert_eq!(tie_ranks(&[(0.6, 0.8), (0.35, 0.65), (0.2, 0.4)]), vec![1, 1, 2]);
/// ```
pub fn tie_ranks(intervals: &[(f64, f64)]) -> Vec<usize> {
    intervals
        .iter()
        .map(|&(_, hi)| {
            1 + intervals
                .iter()
                .filter(|&&(lo, _)| lo.is_finite() && hi.is_finite() && lo > hi)
                .count()
        })
        .collect()
}

/// The leaderboard's one rank rule for rows without paired tests (issue 26, defect 12):
/// [`tie_ranks`] over the 95% intervals, then made monotone in the order of the values (a row
/// never ranks better than a row with a higher value), so ranks never go down the table when
/// it is sorted by the ranked column. Entries are `(value, low, high)`.
///
/// Plain [`tie_ranks`] is not monotone: a row with a very wide interval overlaps everything
/// and ranks 1 even below rows that rank 2.
///
/// # Examples
/// ```
/// use coglab_core::leaderboard::board_ranks;
/// // H 0.70 [0.69, 0.71], I 0.66 [0.65, 0.67] (below H's interval: rank 2), J 0.65
/// // [0.10, 0.99] (overlaps both: tie_ranks says 1): J cannot rank above I, so J is 2.
/// assert_eq!(
///     board_ranks(&[(0.70, 0.69, 0.71), (0.66, 0.65, 0.67), (0.65, 0.10, 0.99)]),
///     vec![1, 2, 2]
/// );
/// ```
pub fn board_ranks(entries: &[(f64, f64, f64)]) -> Vec<usize> {
    let tie = tie_ranks(
        &entries
            .iter()
            .map(|&(_, lo, hi)| (lo, hi))
            .collect::<Vec<_>>(),
    );
    let mut order: Vec<usize> = (0..entries.len()).collect();
    order.sort_by(|&a, &b| entries[b].0.total_cmp(&entries[a].0));
    let mut out = tie.clone();
    let mut floor = 1;
    for &i in &order {
        out[i] = tie[i].max(floor);
        floor = out[i];
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn board_ranks_are_monotone_in_value_and_keep_overlap_ties() {
        // Worked by hand: values 0.9 [0.85, 0.95], 0.8 [0.78, 0.82], 0.79 [0.2, 0.99],
        // 0.5 [0.45, 0.55]. tie_ranks: 1, 2 (0.85 > 0.82), 1 (overlaps all), 3 (two above).
        // Monotone in value order 0.9, 0.8, 0.79, 0.5: 1, 2, max(1, 2) = 2, 3.
        let e = [
            (0.9, 0.85, 0.95),
            (0.8, 0.78, 0.82),
            (0.79, 0.2, 0.99),
            (0.5, 0.45, 0.55),
        ];
        assert_eq!(
            tie_ranks(&e.iter().map(|x| (x.1, x.2)).collect::<Vec<_>>()),
            vec![1, 2, 1, 3]
        );
        assert_eq!(board_ranks(&e), vec![1, 2, 2, 3]);
        // Input order does not matter.
        assert_eq!(board_ranks(&[e[3], e[2], e[1], e[0]]), vec![3, 2, 2, 1]);
        assert!(board_ranks(&[]).is_empty());
    }

    #[test]
    fn separated_intervals_rank_in_order() {
        // Three disjoint intervals: 1, 2, 3 whatever the input order.
        assert_eq!(
            tie_ranks(&[(0.1, 0.2), (0.5, 0.6), (0.3, 0.4)]),
            vec![3, 1, 2]
        );
    }

    #[test]
    fn touching_and_overlapping_intervals_tie() {
        // Touching at 0.5 is an overlap (0.5 > 0.5 is false).
        assert_eq!(tie_ranks(&[(0.5, 0.7), (0.3, 0.5)]), vec![1, 1]);
        // Chain: A overlaps B, B overlaps C, A is above C: A 1, B 1, C 2.
        assert_eq!(
            tie_ranks(&[(0.55, 0.75), (0.4, 0.6), (0.2, 0.45)]),
            vec![1, 1, 2]
        );
    }

    #[test]
    fn nan_bounds_never_separate() {
        assert_eq!(tie_ranks(&[(f64::NAN, f64::NAN), (0.1, 0.2)]), vec![1, 1]);
        assert!(tie_ranks(&[]).is_empty());
    }
}
