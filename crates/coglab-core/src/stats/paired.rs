//! Paired comparisons of two models on the same items: McNemar exact test, paired bootstrap (issue 3).
//!
//! Both functions take two equally long slices of per-item correctness (`true` = correct), where
//! position `i` in each slice is the same item. [`mcnemar_exact`] tests whether the two models'
//! accuracies differ using only the discordant items; [`paired_bootstrap_diff`] gives a seeded,
//! reproducible percentile interval for the difference of accuracies (first minus second).

use super::describe::quantile;
use super::dist::{binomial_cdf, binomial_pmf};
use super::rng::Rng;
use super::StatsError;
use crate::limits::{check, MAX_RESAMPLES};

/// The 2x2 table of two models' correctness on the same items.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct PairedTable {
    /// Items both models got right.
    pub both_correct: u64,
    /// Items only the first model got right.
    pub first_only: u64,
    /// Items only the second model got right.
    pub second_only: u64,
    /// Items both models got wrong.
    pub both_wrong: u64,
}

impl PairedTable {
    /// Counts the table from per-item correctness.
    ///
    /// # Errors
    /// [`StatsError::LengthMismatch`] when the slices differ in length.
    ///
    /// # Examples
    /// ```
    /// use coglab_core::stats::paired::PairedTable;
    /// let t = PairedTable::from_pairs(&[true, true, false, false], &[true, false, true, false]).unwrap();
    /// assert_eq!((t.both_correct, t.first_only, t.second_only, t.both_wrong), (1, 1, 1, 1));
    /// ```
    pub fn from_pairs(first: &[bool], second: &[bool]) -> Result<Self, StatsError> {
        if first.len() != second.len() {
            return Err(StatsError::LengthMismatch {
                left: first.len(),
                right: second.len(),
            });
        }
        let mut t = Self::default();
        for (&a, &b) in first.iter().zip(second) {
            match (a, b) {
                (true, true) => t.both_correct += 1,
                (true, false) => t.first_only += 1,
                (false, true) => t.second_only += 1,
                (false, false) => t.both_wrong += 1,
            }
        }
        Ok(t)
    }

    /// Number of items in the table.
    pub fn n(&self) -> u64 {
        self.both_correct + self.first_only + self.second_only + self.both_wrong
    }
}

/// Two-sided exact McNemar p-value from the discordant counts `b` (first only) and `c`
/// (second only): `min(1, 2 · P(X <= min(b, c)))` for `X ~ Binomial(b + c, 1/2)`; 1 when there
/// are no discordant items. This is `statsmodels`' `mcnemar(table, exact=True)`.
///
/// # Examples
/// ```
/// use coglab_core::stats::paired::mcnemar_exact_p;
/// // b = 3, c = 9: 2 · (1 + 12 + 66 + 220) / 4096 = 598 / 4096
/// assert!((mcnemar_exact_p(3, 9) - 598.0 / 4096.0).abs() < 1e-14);
/// ```
pub fn mcnemar_exact_p(b: u64, c: u64) -> f64 {
    let n = b + c;
    if n == 0 {
        return 1.0;
    }
    (2.0 * binomial_cdf(b.min(c), n, 0.5)).min(1.0)
}

/// Two-sided mid-p McNemar value: the exact p-value minus the probability of the observed
/// table, `2 · P(X < k) + P(X = k)` with `k = min(b, c)`, `X ~ Binomial(b + c, 1/2)`
/// (Fagerland, Lydersen and Laake 2013); 1 when `b == c` and when there are no discordant
/// items. Less conservative than [`mcnemar_exact_p`], and its size stays close to the nominal
/// level. For `b != c` it equals scipy's `binomtest(k, b + c).pvalue - binom.pmf(k, b + c, 0.5)`.
///
/// # Examples
/// ```
/// use coglab_core::stats::paired::mcnemar_mid_p;
/// // b = 3, c = 12, n = 15: P(X <= 3) = (1 + 15 + 105 + 455) / 32768 = 576 / 32768 and
/// // P(X = 3) = 455 / 32768, so mid-p = (2 · 576 - 455) / 32768 = 697 / 32768.
/// assert!((mcnemar_mid_p(3, 12) - 697.0 / 32768.0).abs() < 1e-15);
/// assert_eq!(mcnemar_mid_p(4, 4), 1.0);
/// ```
pub fn mcnemar_mid_p(b: u64, c: u64) -> f64 {
    let n = b + c;
    if n == 0 || b == c {
        return 1.0;
    }
    let k = b.min(c);
    (2.0 * binomial_cdf(k, n, 0.5) - binomial_pmf(k, n, 0.5)).min(1.0)
}

/// McNemar's exact test on two models' per-item correctness.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct McNemar {
    /// The 2x2 table.
    pub table: PairedTable,
    /// Two-sided exact p-value (see [`mcnemar_exact_p`]).
    pub p: f64,
}

/// McNemar's exact test: the 2x2 table and the two-sided p-value.
///
/// # Errors
/// [`StatsError::LengthMismatch`] when the slices differ in length, [`StatsError::TooFewValues`]
/// when they are empty.
pub fn mcnemar_exact(first: &[bool], second: &[bool]) -> Result<McNemar, StatsError> {
    let table = PairedTable::from_pairs(first, second)?;
    if table.n() == 0 {
        return Err(StatsError::TooFewValues {
            needed: 1,
            found: 0,
        });
    }
    Ok(McNemar {
        table,
        p: mcnemar_exact_p(table.first_only, table.second_only),
    })
}

/// A paired-bootstrap percentile interval for the accuracy difference (first minus second).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct BootstrapDiff {
    /// Observed difference of accuracies, first minus second.
    pub estimate: f64,
    /// Lower percentile bound.
    pub low: f64,
    /// Upper percentile bound.
    pub high: f64,
    /// Two-sided confidence level, e.g. 0.95.
    pub confidence: f64,
    /// Number of bootstrap resamples.
    pub resamples: usize,
    /// Seed of the generator ([`Rng::new`]).
    pub seed: u64,
}

/// Seeded paired bootstrap of the accuracy difference.
///
/// Each resample draws `n` item indices uniformly with replacement (`Rng::below(n)`, in order,
/// from one [`Rng::new(seed)`](Rng::new) stream) and computes the mean of `first[i] - second[i]`
/// over the drawn items; the interval is the `(1 - confidence)/2` and `(1 + confidence)/2`
/// quantiles (linear interpolation, numpy's default) of the resampled differences. The same seed
/// gives the same interval on every platform.
///
/// # Errors
/// [`StatsError::LengthMismatch`], [`StatsError::TooFewValues`] on empty input, and
/// [`StatsError::Limit`] when `resamples` is 0 or above [`MAX_RESAMPLES`], and
/// [`StatsError::BadParameter`] when `confidence` is not in (0, 1).
///
/// # Examples
/// ```
/// use coglab_core::stats::paired::paired_bootstrap_diff;
/// let a = [true, true, true, false];
/// let b = [true, false, false, false];
/// let d = paired_bootstrap_diff(&a, &b, 2000, 7, 0.95).unwrap();
/// assert_eq!(d.estimate, 0.5);
/// assert!(d.low <= d.estimate && d.estimate <= d.high);
/// ```
pub fn paired_bootstrap_diff(
    first: &[bool],
    second: &[bool],
    resamples: usize,
    seed: u64,
    confidence: f64,
) -> Result<BootstrapDiff, StatsError> {
    check_bootstrap(first.len(), second.len(), resamples, confidence)?;
    let n = first.len();
    // Each difference is -1, 0 or 1, so a resample's sum is a whole number in [-n, n]: the
    // resamples are counted in 2n + 1 bins (memory O(n), not O(resamples)), and the
    // quantiles read from the counts equal those of the sorted list of resampled means.
    let d: Vec<i64> = first
        .iter()
        .zip(second)
        .map(|(&a, &b)| i64::from(a) - i64::from(b))
        .collect();
    let nf = n as f64;
    let estimate = d.iter().sum::<i64>() as f64 / nf;
    let mut rng = Rng::new(seed);
    let mut bins = vec![0u64; 2 * n + 1];
    for _ in 0..resamples {
        let sum: i64 = (0..n).map(|_| d[rng.below(n)]).sum();
        // sum + n is in 0..=2n.
        bins[(sum + n as i64) as usize] += 1;
    }
    // The k-th smallest resampled mean (0-based).
    let nth = |k: u64| -> f64 {
        let mut seen = 0u64;
        for (i, &c) in bins.iter().enumerate() {
            seen += c;
            if seen > k {
                return (i as i64 - n as i64) as f64 / nf;
            }
        }
        (n as f64) / nf
    };
    // numpy's linear interpolation, as `describe::quantile` on the sorted resamples.
    let q = |p: f64| {
        let h = (resamples - 1) as f64 * p;
        let (lo, hi) = (h.floor(), h.ceil());
        let (vlo, vhi) = (nth(lo as u64), nth(hi as u64));
        vlo + (h - lo) * (vhi - vlo)
    };
    let alpha = 1.0 - confidence;
    Ok(BootstrapDiff {
        estimate,
        low: q(alpha / 2.0),
        high: q(1.0 - alpha / 2.0),
        confidence,
        resamples,
        seed,
    })
}

/// The argument checks shared by the two paired bootstraps.
fn check_bootstrap(
    n_first: usize,
    n_second: usize,
    resamples: usize,
    confidence: f64,
) -> Result<(), StatsError> {
    if n_first != n_second {
        return Err(StatsError::LengthMismatch {
            left: n_first,
            right: n_second,
        });
    }
    if n_first == 0 {
        return Err(StatsError::TooFewValues {
            needed: 1,
            found: 0,
        });
    }
    check("resamples", resamples as u64, 1, MAX_RESAMPLES)?;
    if !(confidence > 0.0 && confidence < 1.0) {
        return Err(StatsError::BadParameter {
            name: "confidence",
            value: confidence,
            expected: "0 < confidence < 1",
        });
    }
    Ok(())
}

/// Seeded paired bootstrap of the mean of real-valued paired differences (e.g. MM-OPERA's
/// 0-4 judge scores): each resample draws `n` item indices with replacement (`Rng::below(n)`, in
/// order, from one [`Rng::new(seed)`](Rng::new) stream) and takes the mean of
/// `first[i] - second[i]`; the interval is the numpy-default quantiles of the resampled means.
/// [`paired_bootstrap_diff`] is this on 0/1 values.
///
/// # Errors
/// [`StatsError::LengthMismatch`], [`StatsError::TooFewValues`] on empty input,
/// [`StatsError::Limit`] for `resamples` 0 or above [`MAX_RESAMPLES`],
/// [`StatsError::BadParameter`] for a confidence outside (0, 1).
///
/// # Examples
/// ```
/// use coglab_core::stats::paired::paired_bootstrap_mean_diff;
/// let d = paired_bootstrap_mean_diff(&[1.0, 0.75, 0.5], &[0.5, 0.75, 0.0], 1000, 1, 0.95).unwrap();
/// assert!((d.estimate - 1.0 / 3.0).abs() < 1e-12);
/// assert!(d.low <= d.estimate && d.estimate <= d.high);
/// ```
pub fn paired_bootstrap_mean_diff(
    first: &[f64],
    second: &[f64],
    resamples: usize,
    seed: u64,
    confidence: f64,
) -> Result<BootstrapDiff, StatsError> {
    check_bootstrap(first.len(), second.len(), resamples, confidence)?;
    let n = first.len();
    let d: Vec<f64> = first.iter().zip(second).map(|(a, b)| a - b).collect();
    let nf = n as f64;
    let estimate = d.iter().sum::<f64>() / nf;
    let mut rng = Rng::new(seed);
    let diffs: Vec<f64> = (0..resamples)
        .map(|_| (0..n).map(|_| d[rng.below(n)]).sum::<f64>() / nf)
        .collect();
    let alpha = 1.0 - confidence;
    Ok(BootstrapDiff {
        estimate,
        low: quantile(&diffs, alpha / 2.0)?,
        high: quantile(&diffs, 1.0 - alpha / 2.0)?,
        confidence,
        resamples,
        seed,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;

    /// Reference: statsmodels 0.15.0 `mcnemar([[10, b], [c, 20]], exact=True).pvalue`.
    #[test]
    fn mcnemar_matches_statsmodels() {
        let cases = [
            (3, 9, 0.14599609375),
            (0, 0, 1.0),
            (5, 5, 1.0),
            (0, 7, 0.015625),
            (40, 25, 0.08168153394154003),
            (1, 0, 1.0),
        ];
        for (b, c, p) in cases {
            assert_relative_eq!(mcnemar_exact_p(b, c), p, max_relative = 1e-12);
        }
    }

    /// b = 3, c = 12 by hand (n = 15, 2^15 = 32768): P(X <= 3) is the sum of C(15, i) for
    /// i = 0..3 over 32768, (1 + 15 + 105 + 455) / 32768 = 576 / 32768, so the exact p is
    /// 2 · 576 / 32768 = 0.03515625 and the mid-p (2 · 576 - 455) / 32768 = 0.021270751953125.
    /// scipy 1.14.1 agrees: `binomtest(3, 15).pvalue` is 0.03515625; minus
    /// `binom.pmf(3, 15, .5)` (0.013885498046875) it gives 0.021270751953125.
    #[test]
    fn mcnemar_hand_worked_and_mid_p() {
        assert_relative_eq!(mcnemar_exact_p(3, 12), 0.03515625, max_relative = 1e-14);
        assert_relative_eq!(mcnemar_exact_p(12, 3), 0.03515625, max_relative = 1e-14);
        assert_relative_eq!(
            mcnemar_mid_p(3, 12),
            0.021270751953125,
            max_relative = 1e-13
        );
        // b = 0, c = 7: exact 2 / 128 = 0.015625, mid-p (2 - 1) / 128 = 0.0078125.
        assert_relative_eq!(mcnemar_mid_p(0, 7), 0.0078125, max_relative = 1e-13);
        assert_eq!(mcnemar_mid_p(0, 0), 1.0);
        assert_eq!(mcnemar_mid_p(5, 5), 1.0);
    }

    #[test]
    fn mcnemar_from_pairs() {
        // Discordant: first only at items 1 and 4, second only at none -> b = 2, c = 0,
        // p = 2 · P(X <= 0 | n = 2) = 2 · 1/4 = 0.5.
        let a = [true, true, false, true, true];
        let b = [true, false, false, true, false];
        let m = mcnemar_exact(&a, &b).unwrap();
        assert_eq!(
            m.table,
            PairedTable {
                both_correct: 2,
                first_only: 2,
                second_only: 0,
                both_wrong: 1
            }
        );
        assert_relative_eq!(m.p, 0.5, max_relative = 1e-14);
        assert!(matches!(
            mcnemar_exact(&[], &[]),
            Err(StatsError::TooFewValues { .. })
        ));
        assert!(matches!(
            mcnemar_exact(&[true], &[]),
            Err(StatsError::LengthMismatch { .. })
        ));
    }

    /// Reference: an independent Python port of `Rng` (SplitMix64 seeding, xoshiro256**,
    /// Lemire's `below`) drawing the same index stream, with the quantiles from
    /// `numpy.percentile(diffs, [2.5, 97.5])` (numpy 2.x, linear interpolation). The script is
    /// `tests/fixtures/mmiq/bootstrap_reference.py`.
    #[test]
    fn bootstrap_matches_python_port() {
        // 12 items: first correct on items 0-7, second correct on items 0-3 and 8-9.
        let first: Vec<bool> = (0..12).map(|i| i < 8).collect();
        let second: Vec<bool> = (0..12).map(|i| i < 4 || i == 8 || i == 9).collect();
        let d = paired_bootstrap_diff(&first, &second, 1000, 42, 0.95).unwrap();
        // (8 - 6) / 12
        assert_relative_eq!(d.estimate, 2.0 / 12.0, max_relative = 1e-15);
        // Python port: low -0.25, high 0.5833333333333334.
        assert_relative_eq!(d.low, -0.25, epsilon = 1e-12);
        assert_relative_eq!(d.high, 0.5833333333333334, epsilon = 1e-12);
        // 9 resamples at 80%: both bounds interpolate between resampled values, so they pin
        // the exact index stream. Python port: 0.04999999999999997, 0.4166666666666667.
        let small = paired_bootstrap_diff(&first, &second, 9, 2024, 0.8).unwrap();
        assert_relative_eq!(small.low, 0.04999999999999997, epsilon = 1e-12);
        assert_relative_eq!(small.high, 0.4166666666666667, epsilon = 1e-12);
    }

    #[test]
    fn bootstrap_spread_matches_analytic_standard_error() {
        // Differences d_i in {-1, 0, 1}: 300 items with d = 1, 200 with d = -1, 500 with d = 0.
        // The bootstrap distribution of mean(d) has SD sqrt(var_pop(d) / n):
        // mean = 0.1, E[d²] = 0.5, var = 0.49, SD = sqrt(0.49 / 1000) = 0.022136.
        // Its 95% percentile interval is then about 0.1 ± 1.96 · 0.022136 = [0.0566, 0.1434];
        // with 4000 resamples the percentile bounds scatter by about ±0.002.
        let a: Vec<bool> = (0..1000).map(|i| i < 300).collect();
        let b: Vec<bool> = (0..1000).map(|i| (300..500).contains(&i)).collect();
        let d = paired_bootstrap_diff(&a, &b, 4000, 1, 0.95).unwrap();
        assert_relative_eq!(d.estimate, 0.1, epsilon = 1e-15);
        assert!((d.low - 0.0566).abs() < 0.006, "{d:?}");
        assert!((d.high - 0.1434).abs() < 0.006, "{d:?}");
    }

    #[test]
    fn bootstrap_rejects_bad_parameters() {
        assert!(paired_bootstrap_diff(&[true], &[false], 0, 1, 0.95).is_err());
        assert!(paired_bootstrap_diff(&[true], &[false], 10, 1, 1.5).is_err());
        assert!(paired_bootstrap_diff(&[], &[], 10, 1, 0.95).is_err());
        assert!(paired_bootstrap_diff(&[true], &[], 10, 1, 0.95).is_err());
    }
}
