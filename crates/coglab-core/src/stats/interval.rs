//! Intervals for proportions: Wilson score interval, and [`Accuracy`], a proportion correct
//! with it (issue 3).
//!
//! The Wilson interval is the default interval for an accuracy in this crate: unlike the
//! normal ("Wald") interval it stays inside [0, 1] and behaves well for small `n` and for
//! accuracies near 0 or 1.

use super::dist::normal_quantile;
use super::StatsError;

/// A two-sided interval `[low, high]` for a parameter.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Interval {
    /// Lower bound.
    pub low: f64,
    /// Upper bound.
    pub high: f64,
}

/// Wilson score interval for a binomial proportion `successes / n` at the given two-sided
/// `confidence` (e.g. 0.95), as `statsmodels.stats.proportion.proportion_confint(method="wilson")`
/// and R's `prop.test(correct = FALSE)`.
///
/// With `z` the standard normal quantile at `1 - (1 - confidence) / 2` and `p = k / n`:
/// centre `(p + z²/2n) / (1 + z²/n)`, half-width `z·sqrt(p(1-p)/n + z²/4n²) / (1 + z²/n)`.
///
/// # Errors
/// [`StatsError::TooFewValues`] when `n == 0`; [`StatsError::BadParameter`] when
/// `successes > n` or `confidence` is not strictly between 0 and 1.
///
/// # Examples
/// ```
/// use coglab_core::stats::interval::wilson;
/// // 33 correct of 100 at 95%: statsmodels gives (0.2456312273412803, 0.42694656204909476).
/// let ci = wilson(33, 100, 0.95).unwrap();
/// assert!((ci.low - 0.2456312273412803).abs() < 1e-12);
/// assert!((ci.high - 0.42694656204909476).abs() < 1e-12);
/// ```
pub fn wilson(successes: u64, n: u64, confidence: f64) -> Result<Interval, StatsError> {
    if n == 0 {
        return Err(StatsError::TooFewValues {
            needed: 1,
            found: 0,
        });
    }
    if successes > n {
        return Err(StatsError::BadParameter {
            name: "successes",
            value: successes as f64,
            expected: "successes <= n",
        });
    }
    if !(confidence > 0.0 && confidence < 1.0) {
        return Err(StatsError::BadParameter {
            name: "confidence",
            value: confidence,
            expected: "0 < confidence < 1",
        });
    }
    let z = normal_quantile(1.0 - (1.0 - confidence) / 2.0)?;
    let nf = n as f64;
    let p = successes as f64 / nf;
    let z2 = z * z;
    let denom = 1.0 + z2 / nf;
    let centre = (p + z2 / (2.0 * nf)) / denom;
    let half = z * (p * (1.0 - p) / nf + z2 / (4.0 * nf * nf)).sqrt() / denom;
    // The exact bounds for k = 0 and k = n are 0 and 1; rounding can leave 1e-17 either side.
    let low = if successes == 0 {
        0.0
    } else {
        (centre - half).max(0.0)
    };
    let high = if successes == n {
        1.0
    } else {
        (centre + half).min(1.0)
    };
    Ok(Interval { low, high })
}

/// The 95% Wilson interval of a mean of values in [0, 1] over `clusters` clusters (items,
/// trials) of `observations` values in all, from its clustered standard error `se`: Wilson's
/// formula with the effective sample size `n_eff = p (1 - p) / se^2` (Kish's: the binomial
/// size with the same variance; Korn and Graubard 1998), kept within [`clusters`,
/// `observations`], and with Student t's quantile on `clusters - 1` degrees of freedom when
/// clusters hold more than one value (`t_quantile`). When the mean is 0 or 1 or `se` is 0, the
/// data say nothing of the correlation and `n_eff` is the number of clusters (as if every
/// cluster's values were one). Issue 40: the plain `mean ± t SE` of a proportion near 0 or 1
/// covered 28% at 10 trials and p = 0.02 (`docs/coverage.md`); this one stays inside [0, 1] and
/// keeps its coverage there.
///
/// `None` for no cluster, a mean outside [0, 1] or a negative or non-finite `se`.
///
/// # Examples
/// ```
/// use coglab_core::stats::interval::{wilson, wilson_clustered};
/// // One value per cluster and se = sqrt(p (1 - p) / n): plain Wilson (z normal).
/// let w = wilson_clustered(0.3, (0.21f64 / 100.0).sqrt(), 100, 100, false).unwrap();
/// let plain = wilson(30, 100, 0.95).unwrap();
/// assert!((w.low - plain.low).abs() < 1e-12 && (w.high - plain.high).abs() < 1e-12);
/// // All 0 over 10 trials of 3: n_eff = 10, t(0.975, 9) = 2.262157: [0, t^2 / (10 + t^2)].
/// let z = wilson_clustered(0.0, 0.0, 10, 30, true).unwrap();
/// assert!(z.low == 0.0 && (z.high - 0.338_508_623).abs() < 1e-9);
/// ```
pub fn wilson_clustered(
    mean: f64,
    se: f64,
    clusters: usize,
    observations: usize,
    t_quantile: bool,
) -> Option<Interval> {
    if clusters == 0 || !(0.0..=1.0).contains(&mean) || !(se >= 0.0 && se.is_finite()) {
        return None;
    }
    let c = clusters as f64;
    let obs = observations.max(clusters) as f64;
    let p = mean;
    let n = if p > 0.0 && p < 1.0 && se > 0.0 {
        (p * (1.0 - p) / (se * se)).clamp(c, obs)
    } else {
        c
    };
    let z = if t_quantile {
        super::describe::t_975(clusters - 1)
    } else {
        1.959_963_984_540_054
    };
    let z2 = z * z;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denom;
    Some(Interval {
        low: if p == 0.0 {
            0.0
        } else {
            (centre - half).max(0.0)
        },
        high: if p == 1.0 {
            1.0
        } else {
            (centre + half).min(1.0)
        },
    })
}

/// An accuracy with its size and Wilson 95% interval: the proportion every benchmark reports
/// (MM-IQ's accuracy, KiVA challenge items, a VLMEvalKit circular score).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Accuracy {
    /// Fraction correct, in [0, 1].
    pub accuracy: f64,
    /// Number of scored items.
    pub n: u64,
    /// Number correct.
    pub correct: u64,
    /// Lower bound of the Wilson 95% interval.
    pub ci_low: f64,
    /// Upper bound of the Wilson 95% interval.
    pub ci_high: f64,
}

impl Accuracy {
    /// Accuracy `correct / n` with its Wilson 95% interval, or `None` when `n == 0`.
    ///
    /// # Examples
    /// ```
    /// use coglab_core::stats::interval::Accuracy;
    /// let a = Accuracy::new(1, 4).unwrap();
    /// assert_eq!(a.accuracy, 0.25);
    /// assert!(a.ci_low < 0.25 && a.ci_high > 0.25);
    /// assert!(Accuracy::new(0, 0).is_none());
    /// ```
    pub fn new(correct: u64, n: u64) -> Option<Self> {
        let ci = wilson(correct, n, 0.95).ok()?;
        Some(Self {
            accuracy: correct as f64 / n as f64,
            n,
            correct,
            ci_low: ci.low,
            ci_high: ci.high,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;

    /// Reference values: statsmodels 0.15.0 `proportion_confint(k, n, alpha, method="wilson")`.
    #[test]
    fn matches_statsmodels() {
        let cases: [(u64, u64, f64, f64, f64); 6] = [
            (33, 100, 0.95, 0.2456312273412803, 0.42694656204909476),
            (0, 10, 0.95, 0.0, 0.27753279986288926),
            (10, 10, 0.95, 0.7224672001371106, 1.0),
            (7, 20, 0.90, 0.202260040056761, 0.5334873111515284),
            (1, 1, 0.95, 0.2065493143772374, 1.0),
            (1234, 2710, 0.95, 0.4366771978705983, 0.47415031225773413),
        ];
        for (k, n, conf, low, high) in cases {
            let ci = wilson(k, n, conf).unwrap();
            assert_relative_eq!(ci.low, low, epsilon = 1e-12);
            assert_relative_eq!(ci.high, high, epsilon = 1e-12);
        }
    }

    #[test]
    fn hand_worked_half() {
        // k = 5, n = 10, z = 1.959963984540054, z² = 3.8414588206941254:
        // p = 0.5, denom = 1 + z²/10 = 1.3841458820694126,
        // centre = (0.5 + z²/20) / denom = 0.5 exactly,
        // half = z · sqrt(0.25/10 + z²/400) / denom = 1.959963984540054 · sqrt(0.0346036470517353)
        //      / 1.3841458820694126 = 0.364593589075665 / 1.3841458820694126 = 0.263406909487436,
        // so the interval is [0.236593090512564, 0.763406909487436] (statsmodels agrees).
        let ci = wilson(5, 10, 0.95).unwrap();
        assert_relative_eq!(ci.low, 0.236593090512564, epsilon = 1e-13);
        assert_relative_eq!(ci.high, 0.763406909487436, epsilon = 1e-13);
    }

    #[test]
    fn rejects_bad_input() {
        assert!(matches!(
            wilson(0, 0, 0.95),
            Err(StatsError::TooFewValues { .. })
        ));
        assert!(matches!(
            wilson(3, 2, 0.95),
            Err(StatsError::BadParameter { .. })
        ));
        assert!(matches!(
            wilson(1, 2, 1.0),
            Err(StatsError::BadParameter { .. })
        ));
        assert!(matches!(
            wilson(1, 2, f64::NAN),
            Err(StatsError::BadParameter { .. })
        ));
    }
}
