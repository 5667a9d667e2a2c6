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

#[cfg(test)]
mod tests {
    use super::*;

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
