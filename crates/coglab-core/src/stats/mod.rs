//! Shared statistics used by every benchmark's scorer.
//!
//! - [`describe`]: mean, variance, standard error, median, skewness, kurtosis.
//! - [`dist`]: special functions and distributions (normal, Student t, binomial).
//! - [`correlation`]: Pearson and Spearman correlation with two-sided p-values.
//! - [`interval`]: Wilson score interval for a proportion.
//! - [`paired`]: McNemar exact (and mid-p) test and paired bootstrap for two models on the same items.
//! - [`wilcoxon`]: Wilcoxon signed-rank test for paired scores.
//! - [`agreement`]: rater agreement (exact match, MAD, Cohen's kappa) and permutation tests.
//! - [`normality`]: Cramér-von Mises normality test with estimated parameters.
//! - [`rng`]: a small seeded random number generator, so bootstrap and permutation
//!   results are reproducible on every platform (native and wasm).
//!
//! Functions that cannot give a meaningful value (empty input, zero variance) return a
//! [`StatsError`] instead of NaN.

pub mod agreement;
pub mod correlation;
pub mod describe;
pub mod dist;
pub mod interval;
pub mod normality;
pub mod paired;
pub mod rng;
pub mod wilcoxon;

/// Why a statistic could not be computed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum StatsError {
    /// Fewer values than the statistic needs.
    #[error("needs at least {needed} values, found {found}")]
    TooFewValues {
        /// Minimum number of values.
        needed: usize,
        /// Number of values given.
        found: usize,
    },
    /// Two paired samples of different lengths.
    #[error("paired samples differ in length: {left} vs {right}")]
    LengthMismatch {
        /// Length of the first sample.
        left: usize,
        /// Length of the second sample.
        right: usize,
    },
    /// All values are equal, so a ratio with the variance is undefined.
    #[error("all values are equal (zero variance)")]
    ZeroVariance,
    /// A value is NaN or infinite.
    #[error("value {index} is not a finite number")]
    NonFinite {
        /// 0-based index of the offending value.
        index: usize,
    },
    /// The result is beyond the range of a 64-bit float (e.g. the variance of ±1e308 values).
    #[error("the {what} is beyond the range of a 64-bit float")]
    OutOfRange {
        /// What was being computed.
        what: &'static str,
    },
    /// A count (resamples) beyond [`crate::limits`].
    #[error(transparent)]
    Limit(#[from] crate::limits::LimitError),
    /// A resampling test would make more than [`crate::limits::MAX_RESAMPLED_DRAWS`] draws.
    #[error(transparent)]
    Draws(#[from] crate::limits::DrawsError),
    /// A parameter is outside its domain (e.g. a probability outside [0, 1]).
    #[error("parameter {name} = {value} is outside its domain ({expected})")]
    BadParameter {
        /// Parameter name.
        name: &'static str,
        /// The value given.
        value: f64,
        /// The accepted range, in words.
        expected: &'static str,
    },
}

/// Checks that every value is finite.
///
/// # Errors
/// [`StatsError::NonFinite`] naming the first NaN or infinite value.
pub fn check_finite(xs: &[f64]) -> Result<(), StatsError> {
    match xs.iter().position(|x| !x.is_finite()) {
        Some(index) => Err(StatsError::NonFinite { index }),
        None => Ok(()),
    }
}
