//! Wilcoxon signed-rank test for paired scores (issue 20: MM-OPERA item scores, KiVA trial
//! means).
//!
//! The conventions are scipy's `wilcoxon(d)` defaults: zero differences are dropped
//! (`zero_method="wilcox"`), tied absolute differences get their average rank, two-sided, no
//! continuity correction. The p-value is exact (the null distribution of the positive rank sum
//! by counting subsets) when at most [`EXACT_MAX_N`] non-zero differences remain and none of
//! them tie, else the normal approximation with the tie correction of the variance.
//!
//! Differences are rounded to 12 decimals before ranking, so that differences that are equal
//! as numbers but not as floats (`2/3 - 1/3` and `1/3 - 0`) tie, as they should.

use super::dist::normal_cdf;
use super::StatsError;

/// Largest number of non-zero differences for which the exact null distribution is used.
pub const EXACT_MAX_N: usize = 50;

/// Which p-value [`signed_rank`] computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SignedRankMethod {
    /// Exact null distribution (few differences, no ties).
    Exact,
    /// Normal approximation with tie correction.
    Normal,
    /// No non-zero difference: p = 1.
    NoDifference,
}

/// The result of [`signed_rank`].
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SignedRank {
    /// Sum of the ranks of the positive differences.
    pub r_plus: f64,
    /// Sum of the ranks of the negative differences.
    pub r_minus: f64,
    /// Number of non-zero differences.
    pub n: usize,
    /// The z statistic of the normal approximation (0 for the exact method).
    pub z: f64,
    /// Two-sided p-value.
    pub p: f64,
    /// How `p` was computed.
    pub method: SignedRankMethod,
}

/// Two-sided Wilcoxon signed-rank test on paired differences `d` (first minus second).
///
/// # Errors
/// [`StatsError::NonFinite`] for a NaN or infinite difference.
///
/// # Examples
/// ```
/// use coglab_core::stats::wilcoxon::signed_rank;
/// // d = 1, 2, -3, 4, 5: ranks 1..5, R+ = 1 + 2 + 4 + 5 = 12, R- = 3. Of the 2^5 = 32 sign
/// // patterns, R+ <= 3 in 3 (sums 0, 1, 2, 3 via {}, {1}, {2}, {3}, {1,2}): 5 patterns, so
/// // p = 2 · 5/32 = 0.3125 (scipy `wilcoxon([1, 2, -3, 4, 5]).pvalue` = 0.3125).
/// let t = signed_rank(&[1.0, 2.0, -3.0, 4.0, 5.0]).unwrap();
/// assert_eq!((t.r_plus, t.r_minus), (12.0, 3.0));
/// assert!((t.p - 0.3125).abs() < 1e-15);
/// ```
pub fn signed_rank(d: &[f64]) -> Result<SignedRank, StatsError> {
    super::check_finite(d)?;
    let mut nz: Vec<f64> = d
        .iter()
        .map(|x| (x * 1e12).round() / 1e12)
        .filter(|&x| x != 0.0)
        .collect();
    let n = nz.len();
    if n == 0 {
        return Ok(SignedRank {
            r_plus: 0.0,
            r_minus: 0.0,
            n: 0,
            z: 0.0,
            p: 1.0,
            method: SignedRankMethod::NoDifference,
        });
    }
    nz.sort_by(|a, b| a.abs().total_cmp(&b.abs()));
    let (mut r_plus, mut r_minus, mut tie_term) = (0.0, 0.0, 0.0);
    let mut i = 0;
    while i < n {
        let mut j = i + 1;
        while j < n && nz[j].abs() == nz[i].abs() {
            j += 1;
        }
        // Ranks i+1 ..= j share their average.
        let rank = (i + 1 + j) as f64 / 2.0;
        let t = (j - i) as f64;
        tie_term += t * t * t - t;
        for x in &nz[i..j] {
            if *x > 0.0 {
                r_plus += rank;
            } else {
                r_minus += rank;
            }
        }
        i = j;
    }
    let nf = n as f64;
    if n <= EXACT_MAX_N && tie_term == 0.0 {
        // Ranks are 1..=n: count the subsets of {1..n} by sum.
        let max = n * (n + 1) / 2;
        let mut counts = vec![0f64; max + 1];
        counts[0] = 1.0;
        for k in 1..=n {
            for s in (k..=max).rev() {
                counts[s] += counts[s - k];
            }
        }
        let total = 2f64.powi(n as i32);
        let t = r_plus.round() as usize;
        let low: f64 = counts[..=t].iter().sum::<f64>() / total;
        let high: f64 = counts[t..].iter().sum::<f64>() / total;
        return Ok(SignedRank {
            r_plus,
            r_minus,
            n,
            z: 0.0,
            p: (2.0 * low.min(high)).min(1.0),
            method: SignedRankMethod::Exact,
        });
    }
    let mean = nf * (nf + 1.0) / 4.0;
    let var = nf * (nf + 1.0) * (2.0 * nf + 1.0) / 24.0 - tie_term / 48.0;
    let z = if var > 0.0 {
        (r_plus - mean) / var.sqrt()
    } else {
        0.0
    };
    Ok(SignedRank {
        r_plus,
        r_minus,
        n,
        z,
        p: (2.0 * normal_cdf(-z.abs())).min(1.0),
        method: SignedRankMethod::Normal,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;

    /// Hand-worked normal approximation with ties: d = 1, 1, -1, 2, 2, 2.
    /// |d| ranks: the three 1s share (1+2+3)/3 = 2, the three 2s share (4+5+6)/3 = 5.
    /// R+ = 2 + 2 + 5 + 5 + 5 = 19, R- = 2. mean = 6·7/4 = 10.5,
    /// var = 6·7·13/24 - (2 · (27 - 3)) / 48 = 22.75 - 1 = 21.75, z = 8.5 / sqrt(21.75)
    /// = 1.822588..., p = 2 · Φ(-1.822588) = 0.068365... (scipy 1.14.1:
    /// `wilcoxon([1, 1, -1, 2, 2, 2], method="approx", correction=False).pvalue`
    /// = 0.06836531288935432).
    #[test]
    fn ties_use_the_normal_approximation() {
        let t = signed_rank(&[1.0, 1.0, -1.0, 2.0, 2.0, 2.0]).unwrap();
        assert_eq!((t.r_plus, t.r_minus, t.n), (19.0, 2.0, 6));
        assert_eq!(t.method, SignedRankMethod::Normal);
        assert_relative_eq!(t.z, 8.5 / 21.75f64.sqrt(), max_relative = 1e-12);
        assert_relative_eq!(
            t.p,
            2.0 * normal_cdf(-8.5 / 21.75f64.sqrt()),
            max_relative = 1e-12
        );
        assert_relative_eq!(t.p, 0.06836531288935432, max_relative = 1e-9);
    }

    #[test]
    fn zeros_dropped_and_float_ties_rounded() {
        // 2/3 - 1/3 and 1/3 - 0 are 0.33333333333333337 and 0.3333333333333333: they tie.
        let d = [2.0 / 3.0 - 1.0 / 3.0, 1.0 / 3.0, 0.0, -1.0];
        let t = signed_rank(&d).unwrap();
        // Ranks: the two thirds share 1.5, |−1| is 3. R+ = 3, R- = 3.
        assert_eq!((t.r_plus, t.r_minus, t.n), (3.0, 3.0, 3));
        assert_eq!(signed_rank(&[0.0, 0.0]).unwrap().p, 1.0);
        assert!(signed_rank(&[f64::NAN]).is_err());
    }
}
