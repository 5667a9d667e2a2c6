//! Pearson and Spearman correlation with two-sided p-values (t test with n − 2 df, as
//! `scipy.stats.pearsonr` / `spearmanr` and R's `cor.test`).

use super::dist::student_t_two_sided_p;
use super::{check_finite, StatsError};

/// A correlation coefficient with its two-sided p-value.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Correlation {
    /// The coefficient, in [-1, 1].
    pub r: f64,
    /// Two-sided p-value for H0: no correlation.
    pub p: f64,
    /// Number of pairs.
    pub n: usize,
}

/// Pearson's product-moment correlation.
///
/// # Errors
/// [`StatsError::LengthMismatch`], [`StatsError::TooFewValues`] for n < 3,
/// [`StatsError::NonFinite`], [`StatsError::ZeroVariance`] when either sample is constant.
///
/// # Examples
/// ```
/// use coglab_core::stats::correlation::pearson;
/// let c = pearson(&[1.0, 2.0, 3.0, 4.0], &[2.0, 4.0, 5.0, 9.0]).unwrap();
/// assert!((c.r - 0.9647638212377322).abs() < 1e-12); // scipy.stats.pearsonr
/// ```
pub fn pearson(x: &[f64], y: &[f64]) -> Result<Correlation, StatsError> {
    if x.len() != y.len() {
        return Err(StatsError::LengthMismatch {
            left: x.len(),
            right: y.len(),
        });
    }
    if x.len() < 3 {
        return Err(StatsError::TooFewValues {
            needed: 3,
            found: x.len(),
        });
    }
    check_finite(x)?;
    check_finite(y)?;
    // r is scale-free: computed on power-of-two scaled values (exact), so extreme magnitudes
    // neither overflow nor underflow the sums of squares.
    let ((xs, _), (ys, _)) = (super::describe::scaled(x), super::describe::scaled(y));
    let (x, y) = (&xs[..], &ys[..]);
    let n = x.len() as f64;
    let mx = x.iter().sum::<f64>() / n;
    let my = y.iter().sum::<f64>() / n;
    let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
    for (a, b) in x.iter().zip(y) {
        let (dx, dy) = (a - mx, b - my);
        sxy += dx * dy;
        sxx += dx * dx;
        syy += dy * dy;
    }
    if sxx == 0.0 || syy == 0.0 {
        return Err(StatsError::ZeroVariance);
    }
    let r = (sxy / (sxx * syy).sqrt()).clamp(-1.0, 1.0);
    Ok(Correlation {
        r,
        p: p_from_r(r, x.len()),
        n: x.len(),
    })
}

/// Spearman's rank correlation: Pearson's r on average ranks (ties share the mean rank).
///
/// # Errors
/// As [`pearson`].
pub fn spearman(x: &[f64], y: &[f64]) -> Result<Correlation, StatsError> {
    if x.len() != y.len() {
        return Err(StatsError::LengthMismatch {
            left: x.len(),
            right: y.len(),
        });
    }
    check_finite(x)?;
    check_finite(y)?;
    pearson(&ranks(x), &ranks(y))
}

/// Average ranks (1-based; tied values get the mean of their ranks).
pub fn ranks(xs: &[f64]) -> Vec<f64> {
    let mut idx: Vec<usize> = (0..xs.len()).collect();
    idx.sort_by(|&a, &b| xs[a].total_cmp(&xs[b]));
    let mut out = vec![0.0; xs.len()];
    let mut i = 0;
    while i < idx.len() {
        let mut j = i;
        while j + 1 < idx.len() && xs[idx[j + 1]] == xs[idx[i]] {
            j += 1;
        }
        let rank = (i + j) as f64 / 2.0 + 1.0;
        for &k in &idx[i..=j] {
            out[k] = rank;
        }
        i = j + 1;
    }
    out
}

fn p_from_r(r: f64, n: usize) -> f64 {
    let df = (n - 2) as f64;
    if r.abs() >= 1.0 {
        return 0.0;
    }
    let t = r * (df / (1.0 - r * r)).sqrt();
    student_t_two_sided_p(t, df)
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;

    #[test]
    fn pearson_matches_scipy() {
        // By hand: dx = -2,-1,0,1,2; dy = -1.4,-2.4,0.6,-0.4,3.6;
        // sxy = 2.8+2.4+0-0.4+7.2 = 12, sxx = 10, syy = 1.96+5.76+0.36+0.16+12.96 = 21.2,
        // r = 12 / sqrt(212) = 0.8241633836921339 (scipy.stats.pearsonr agrees).
        let c = pearson(&[1.0, 2.0, 3.0, 4.0, 5.0], &[2.0, 1.0, 4.0, 3.0, 7.0]).unwrap();
        assert_relative_eq!(c.r, 12.0 / 212f64.sqrt(), max_relative = 1e-14);
        // t = r sqrt(3 / (1 - r²)) = 2.5216...; two-sided p with 3 df.
        let t = c.r * (3.0 / (1.0 - c.r * c.r)).sqrt();
        assert_relative_eq!(c.p, student_t_two_sided_p(t, 3.0), max_relative = 1e-14);
        // scipy.stats.pearsonr([1,2,3,4,5], [2,1,4,3,7]).pvalue = 0.08613863131395952
        assert_relative_eq!(c.p, 0.086_138_631_313_959_52, max_relative = 1e-12);
    }

    #[test]
    fn ranks_with_ties() {
        assert_eq!(ranks(&[10.0, 20.0, 10.0, 30.0]), vec![1.5, 3.0, 1.5, 4.0]);
    }

    #[test]
    fn spearman_monotone_is_one() {
        let c = spearman(&[1.0, 2.0, 3.0, 4.0], &[1.0, 8.0, 27.0, 64.0]).unwrap();
        assert_relative_eq!(c.r, 1.0);
        assert_eq!(c.p, 0.0);
    }

    #[test]
    fn errors_are_typed() {
        assert_eq!(
            pearson(&[1.0, 2.0], &[1.0, 2.0]),
            Err(StatsError::TooFewValues {
                needed: 3,
                found: 2
            })
        );
        assert_eq!(
            pearson(&[1.0, 1.0, 1.0], &[1.0, 2.0, 3.0]),
            Err(StatsError::ZeroVariance)
        );
        assert_eq!(
            pearson(&[1.0], &[1.0, 2.0]),
            Err(StatsError::LengthMismatch { left: 1, right: 2 })
        );
    }
}
