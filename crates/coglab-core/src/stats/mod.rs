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
//! - [`format_p`], [`p_phrase`]: the one rule for printing a p-value (CLI, exports and page).
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

/// The smallest p-value printed as a number; smaller ones print as "< 0.0001". Four decimals
/// is the precision every p-value is printed with, so "0.0000" never appears.
pub const P_FLOOR: f64 = 1e-4;

/// A p-value as printed everywhere (CLI tables, the page, exports' text): four decimals, or
/// `< 0.0001` below that, `–` when it is not a number. For a sentence, see [`p_phrase`].
///
/// ```
/// use coglab_core::stats::format_p;
/// assert_eq!(format_p(0.03126), "0.0313");
/// assert_eq!(format_p(0.00004), "< 0.0001");
/// assert_eq!(format_p(1.0), "1.0000");
/// ```
#[must_use]
pub fn format_p(p: f64) -> String {
    if !p.is_finite() {
        "–".into()
    } else if p < P_FLOOR {
        format!("< {P_FLOOR:.4}")
    } else {
        format!("{p:.4}")
    }
}

/// A p-value in a sentence: `p = 0.0313`, `p < 0.0001` (see [`format_p`]).
///
/// ```
/// use coglab_core::stats::p_phrase;
/// assert_eq!(p_phrase(0.008), "p = 0.0080");
/// assert_eq!(p_phrase(3e-9), "p < 0.0001");
/// ```
#[must_use]
pub fn p_phrase(p: f64) -> String {
    let v = format_p(p);
    if v.starts_with('<') || v == "–" {
        format!("p {v}")
    } else {
        format!("p = {v}")
    }
}

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
