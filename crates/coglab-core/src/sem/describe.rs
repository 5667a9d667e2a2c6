//! Descriptive statistics per indicator and construct score (seed 003, appendix A.6):
//! mean, median, min, max, sample SD, skewness g1, **excess** kurtosis g2 = b2 − 3 (seminr
//! prints raw b2 as "Kurtosis"), n, and the Cramér-von Mises normality test with estimated
//! mean and SD (W, Stephens' W* and its p-value, as `nortest::cvm.test`).

use super::data::ScoreMatrix;
use crate::stats::describe::{excess_kurtosis, mean, median, skewness, std_dev};
use crate::stats::normality::cramer_von_mises;
use crate::stats::StatsError;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Descriptive statistics of one column. Figures that need more values (SD: 2, moments: 3
/// and a non-constant column, CvM: 8 and non-constant) are `None` (JSON `null`) otherwise.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Descriptive {
    /// Number of values.
    pub n: usize,
    /// Mean.
    pub mean: f64,
    /// Median.
    pub median: f64,
    /// Minimum.
    pub min: f64,
    /// Maximum.
    pub max: f64,
    /// Sample standard deviation (n − 1).
    pub sd: Option<f64>,
    /// Skewness g1 = m3 / m2^(3/2).
    pub skewness: Option<f64>,
    /// Excess kurtosis g2 = m4 / m2² − 3.
    pub excess_kurtosis: Option<f64>,
    /// Cramér-von Mises W.
    pub cvm_w: Option<f64>,
    /// Stephens' W* = (1 + 0.5/n) W.
    pub cvm_w_star: Option<f64>,
    /// p-value of W*.
    pub cvm_p: Option<f64>,
}

/// Describes a sample.
///
/// # Errors
/// [`StatsError::TooFewValues`] on empty input, [`StatsError::NonFinite`] on NaN/inf.
///
/// # Examples
/// ```
/// use coglab_core::sem::describe::describe_values;
/// let d = describe_values(&[1.0, 2.0, 3.0, 10.0]).unwrap();
/// assert_eq!((d.n, d.mean, d.median, d.min, d.max), (4, 4.0, 2.5, 1.0, 10.0));
/// assert!(d.cvm_p.is_none()); // the CvM test needs 8 values
/// ```
pub fn describe_values(xs: &[f64]) -> Result<Descriptive, StatsError> {
    let m = mean(xs)?;
    let cvm = cramer_von_mises(xs).ok();
    Ok(Descriptive {
        n: xs.len(),
        mean: m,
        median: median(xs)?,
        min: xs.iter().copied().fold(f64::INFINITY, f64::min),
        max: xs.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        sd: std_dev(xs, 1).ok(),
        skewness: skewness(xs).ok(),
        excess_kurtosis: excess_kurtosis(xs).ok(),
        cvm_w: cvm.map(|c| c.w),
        cvm_w_star: cvm.map(|c| c.w_star),
        cvm_p: cvm.map(|c| c.p),
    })
}

/// Describes every numeric column of a score matrix over its non-missing values (columns
/// without any value are left out), keyed by column name.
///
/// # Examples
/// ```
/// use coglab_core::sem::{data::ScoreMatrix, describe::describe_matrix};
/// let m = ScoreMatrix::parse(b"model,A,note\nx,1,ok\ny,3,fine\nz,NA,-\n", "s.csv").unwrap();
/// let d = describe_matrix(&m);
/// assert_eq!(d["A"].n, 2);
/// assert!(!d.contains_key("note"));
/// ```
pub fn describe_matrix(m: &ScoreMatrix) -> BTreeMap<String, Descriptive> {
    let mut out = BTreeMap::new();
    for c in m.columns.iter().filter(|c| c.is_numeric()) {
        let xs: Vec<f64> = c.values.iter().flatten().copied().collect();
        if let Ok(d) = describe_values(&xs) {
            out.insert(c.name.clone(), d);
        }
    }
    out
}

/// The columns [`describe_matrix`] leaves out although they hold numbers: a column with a
/// number in some cell and a non-numeric cell elsewhere is a text column, which was left out
/// without a word (issue 37). One note per column, naming its first non-numeric cell.
///
/// # Examples
/// ```
/// use coglab_core::sem::{data::ScoreMatrix, describe::left_out};
/// let m = ScoreMatrix::parse(b"model,A,note\nx,1,ok\ny,x,fine\nz,3,-\n", "s.csv").unwrap();
/// assert_eq!(left_out(&m), ["column \"A\" is left out: s.csv line 3: field \"A\" holds \"x\", \
///     not a number (2 other cells of the column are numbers; a missing value is empty, NA, \
///     N/A, NaN, nan, null, None, - or na)"]);
/// ```
pub fn left_out(m: &ScoreMatrix) -> Vec<String> {
    m.columns
        .iter()
        .filter_map(|c| {
            let (at, found) = c.text_at.as_ref()?;
            let numbers = c.values.iter().flatten().count();
            (numbers > 0).then(|| {
                format!(
                    "column {:?} is left out: {at} holds {}, not a number ({numbers} other \
                     cell{} of the column {}; a missing value is empty, NA, N/A, NaN, \
                     nan, null, None, - or na)",
                    c.name,
                    crate::location::snippet(found),
                    if numbers == 1 { "" } else { "s" },
                    if numbers == 1 {
                        "is a number"
                    } else {
                        "are numbers"
                    },
                )
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_abs_diff_eq;

    #[test]
    fn figures_by_hand() {
        // 2, 3, 5, 5.5, 6, 7, 9, 14 (the CvM example in stats::normality):
        // mean 6.4375, median (5.5 + 6)/2 = 5.75, sd sqrt(98.71875/7) = 3.7553533,
        // m2 = 98.71875/8 = 12.33984, m3 = Σd³/8 = 507.3867/8 = 63.42334 -> g1 = 1.463136
        let d = describe_values(&[2.0, 3.0, 5.0, 5.5, 6.0, 7.0, 9.0, 14.0]).unwrap();
        assert_abs_diff_eq!(d.mean, 6.4375, epsilon = 1e-15);
        assert_abs_diff_eq!(d.median, 5.75, epsilon = 1e-15);
        assert_abs_diff_eq!(d.sd.unwrap(), (98.71875f64 / 7.0).sqrt(), epsilon = 1e-14);
        let m2: f64 = 98.71875 / 8.0;
        let m3: f64 = [2.0, 3.0, 5.0, 5.5, 6.0, 7.0, 9.0, 14.0]
            .iter()
            .map(|x: &f64| (x - 6.4375).powi(3))
            .sum::<f64>()
            / 8.0;
        assert_abs_diff_eq!(d.skewness.unwrap(), m3 / m2.powf(1.5), epsilon = 1e-12);
        assert_abs_diff_eq!(d.cvm_w.unwrap(), 0.049_875_055_967_239_394, epsilon = 1e-10);
        assert_eq!((d.min, d.max, d.n), (2.0, 14.0, 8));
    }
}
