//! Clustered standard errors of a mean: repeated measures of one item (KiVA's regenerations of
//! a trial, MM-OPERA ICA's four rotations of an item) are not independent, so the standard error
//! that treats them as independent understates the uncertainty.
//!
//! Both figures are those of an intercept-only least-squares fit on the observations, as
//! statsmodels computes them: `OLS(y, ones).fit()` (naive) and
//! `.fit(cov_type="cluster", cov_kwds={"groups": g})` (clustered, with its default small-sample
//! factor `G/(G-1) · (N-1)/(N-K)`, which for K = 1 is `G/(G-1)`):
//!
//! - naive: `sqrt(Σ (y - ȳ)² / (N - 1) / N)`;
//! - clustered: `sqrt(G/(G-1) · Σ_g (Σ_{i in g} (y_gi - ȳ))² / N²)`.

use serde::{Deserialize, Serialize};

use crate::stats::StatsError;

/// A mean over observations grouped in clusters, with its naive and clustered standard errors.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct ClusteredSe {
    /// Mean over all observations.
    pub mean: f64,
    /// Number of observations.
    pub n: usize,
    /// Number of clusters.
    pub clusters: usize,
    /// Standard error treating every observation as independent.
    pub se_naive: f64,
    /// Cluster-robust standard error.
    pub se_clustered: f64,
    /// `se_clustered / se_naive` (the design effect's square root).
    pub ratio: f64,
}

impl ClusteredSe {
    /// The 95% interval of the mean from the clustered standard error with Student t's
    /// quantile on `clusters − 1` degrees of freedom (as Inspect's `ci()`):
    /// `mean ± t(0.975, G − 1) · se_clustered`.
    ///
    /// # Examples
    /// ```
    /// use coglab_core::ranks::cluster::clustered_mean_se;
    /// // Clusters {1, 1}, {0, 0}: mean 0.5, clustered SE 0.5, G = 2: t(0.975, 1) =
    /// // tan(0.475 π) = 12.706204736174696, so the interval is 0.5 ± 6.353102368087348.
    /// let s = clustered_mean_se(&[&[1.0, 1.0], &[0.0, 0.0]]).unwrap();
    /// let (lo, hi) = s.interval();
    /// assert!((hi - 6.853102368087348).abs() < 1e-9 && (lo + 5.853102368087348).abs() < 1e-9);
    /// ```
    pub fn interval(&self) -> (f64, f64) {
        let q = crate::stats::describe::t_975(self.clusters.saturating_sub(1));
        (
            self.mean - q * self.se_clustered,
            self.mean + q * self.se_clustered,
        )
    }
}

/// The mean of all observations in `clusters` with naive and clustered standard errors.
///
/// # Errors
/// [`StatsError::TooFewValues`] with fewer than two clusters or two observations,
/// [`StatsError::NonFinite`] for a NaN or infinite observation.
///
/// # Examples
/// ```
/// use coglab_core::ranks::cluster::clustered_mean_se;
/// // Clusters {1, 1}, {0, 0}: ȳ = 0.5, residual sums +1 and -1, N = 4, G = 2.
/// // naive: sqrt(1 / 3 / 4) = 0.288675; clustered: sqrt(2 · 2 / 16) = 0.5.
/// let s = clustered_mean_se(&[&[1.0, 1.0], &[0.0, 0.0]]).unwrap();
/// assert!((s.se_naive - (1.0f64 / 12.0).sqrt()).abs() < 1e-15);
/// assert!((s.se_clustered - 0.5).abs() < 1e-15);
/// ```
pub fn clustered_mean_se(clusters: &[&[f64]]) -> Result<ClusteredSe, StatsError> {
    let n: usize = clusters.iter().map(|c| c.len()).sum();
    let g = clusters.iter().filter(|c| !c.is_empty()).count();
    if g < 2 || n < 2 {
        return Err(StatsError::TooFewValues {
            needed: 2,
            found: g.min(n),
        });
    }
    let mut idx = 0;
    for c in clusters {
        if let Some(k) = c.iter().position(|x| !x.is_finite()) {
            return Err(StatsError::NonFinite { index: idx + k });
        }
        idx += c.len();
    }
    let nf = n as f64;
    let mean = clusters.iter().flat_map(|c| c.iter()).sum::<f64>() / nf;
    let ssr: f64 = clusters
        .iter()
        .flat_map(|c| c.iter())
        .map(|y| (y - mean).powi(2))
        .sum();
    let meat: f64 = clusters
        .iter()
        .map(|c| c.iter().map(|y| y - mean).sum::<f64>().powi(2))
        .sum();
    let gf = g as f64;
    let se_naive = (ssr / (nf - 1.0) / nf).sqrt();
    let se_clustered = (gf / (gf - 1.0) * meat / (nf * nf)).sqrt();
    Ok(ClusteredSe {
        mean,
        n,
        clusters: g,
        se_naive,
        se_clustered,
        ratio: if se_naive > 0.0 {
            se_clustered / se_naive
        } else {
            1.0
        },
    })
}
