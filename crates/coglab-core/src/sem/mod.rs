//! Gold: PLS-SEM engine and benchmark-structure diagnostics (issue 5).
//!
//! Gold (seed 003) judges a *benchmark suite*: from a models x tasks score matrix it fits a
//! PLS structural equation model, measures redundancy (item VIF), construct separation
//! (HTMT), indicator strength (loadings) and reliability, prunes weak or redundant tasks
//! (Algorithm 1) and weights tasks into an overall score.
//!
//! - [`data`]: score matrices from CSV/TSV, a JSON model list or the OpenVLM leaderboard JSON.
//! - [`spec`]: the model specification (constructs, paths, modes, scheme, second order,
//!   human column, pruning thresholds).
//! - [`engine`]: the PLS algorithm (seminr conventions) on the indicators' correlation matrix.
//! - [`quality`]: reliability (α, ρ_C, ρ_A, AVE), HTMT, VIFs, Fornell-Larcker, Gold's
//!   D_div / TC / D_valid.
//! - [`describe`]: descriptive statistics with the Cramér-von Mises normality test.
//! - [`analyze`] / [`analyze_parsed`]: the whole analysis behind `coglab sem`, returning a
//!   [`SemReport`] whose JSON is the CLI contract.
//!
//! Conventions (seminr unless stated) are listed in `docs/glossary-gold.md`.
//!
//! # Examples
//! ```
//! use coglab_core::sem::{analyze, SemOptions};
//! let data = "model,a1,a2,b1,b2\n\
//!             m1,1,2,1,1\nm2,2,2,3,2\nm3,3,4,2,4\nm4,4,3,5,3\nm5,5,6,4,6\nm6,6,5,6,5\n";
//! let spec = r#"{"constructs": {"A": ["a1", "a2"], "B": ["b1", "b2"]}, "paths": [["A", "B"]]}"#;
//! let report = analyze(spec, "spec.json", data.as_bytes(), "scores.csv", &SemOptions::default()).unwrap();
//! assert_eq!(report.n_models, 6);
//! assert!(report.paths["A -> B"] > 0.5);
//! ```

pub mod analysis;
pub mod bootstrap;
pub mod data;
pub mod describe;
pub mod engine;
mod plan;
pub mod quality;
pub mod spec;
pub mod suite;

pub use analysis::{
    analyze, analyze_parsed, analyze_parsed_with_progress, ArenaPlacement, PruneVariant, Scale,
    SemOptions, SemReport,
};
pub use quality::HtmtVariant;

use crate::location::Location;
use crate::stats::StatsError;

/// Why a PLS-SEM analysis could not be done. Every variant says where (file, line, field,
/// construct or indicator) and what was expected.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum SemError {
    /// The file is not UTF-8 text (UTF-16, UTF-32, a zip archive).
    #[error(transparent)]
    NotText(#[from] crate::encoding::NotTextError),
    /// The score matrix could not be read.
    #[error("{at}: expected {expected}, found {found}")]
    Data {
        /// Where in the data file.
        at: Location,
        /// What was expected.
        expected: String,
        /// What was found.
        found: String,
    },
    /// The model spec is malformed or inconsistent.
    #[error("{at}: {message}")]
    Spec {
        /// Where in the spec file.
        at: Location,
        /// What is wrong (expected vs found).
        message: String,
    },
    /// A column named by the spec is not in the data.
    #[error("{file}: no column \"{column}\" (columns: {available})")]
    UnknownColumn {
        /// Data file name.
        file: String,
        /// The missing column.
        column: String,
        /// The columns the file has.
        available: String,
    },
    /// An indicator of the spec is not a column of the data (the location's field names the
    /// construct, e.g. `constructs.Image`).
    #[error("{at}: indicator \"{indicator}\" is not a column of {data}")]
    UnknownIndicator {
        /// Where in the spec.
        at: Location,
        /// The indicator.
        indicator: String,
        /// The data file name and the columns it has.
        data: String,
    },
    /// A column has no value at all.
    #[error("{file}: field \"{column}\": expected at least one value, found none")]
    EmptyColumn {
        /// Data file name.
        file: String,
        /// The empty column.
        column: String,
    },
    /// An indicator is constant over the models analysed.
    #[error("{file}: field \"{column}\": indicator is constant over the {n} models analysed (zero variance), so it cannot be standardized")]
    ConstantIndicator {
        /// Data file name.
        file: String,
        /// The constant column.
        column: String,
        /// Number of models analysed.
        n: usize,
    },
    /// Too few models (rows) for the model.
    #[error(
        "{file}: expected at least {needed} models with complete data ({reason}), found {found}"
    )]
    TooFewModels {
        /// Data file name.
        file: String,
        /// Minimum needed.
        needed: usize,
        /// Models available after missing-value handling.
        found: usize,
        /// Why that many are needed.
        reason: String,
    },
    /// Indicators of one construct are perfectly collinear.
    #[error("construct \"{construct}\" ({purpose}): indicators are perfectly collinear: \"{indicator}\" is a linear combination of {others}")]
    Collinear {
        /// The construct.
        construct: String,
        /// What needed the inverse (Mode B weights, item VIF).
        purpose: String,
        /// The dependent indicator.
        indicator: String,
        /// The indicators it depends on.
        others: String,
    },
    /// The scores of a construct's predecessors are perfectly collinear.
    #[error("construct \"{construct}\": the scores of its predecessors are perfectly collinear (\"{predecessor}\" is a linear combination of {others}); path coefficients are undefined")]
    SingularPaths {
        /// The endogenous construct.
        construct: String,
        /// The dependent predecessor.
        predecessor: String,
        /// The other predecessors.
        others: String,
    },
    /// A composite has zero variance.
    #[error("construct \"{construct}\": its composite has zero variance (weights cancel out)")]
    ZeroComposite {
        /// The construct.
        construct: String,
    },
    /// The iteration did not converge.
    #[error("{stage}: PLS did not converge within {iterations} iterations (last sum of |Δw| = {change:e}, tolerance {tolerance:e}); raise max_iterations or check the model")]
    NotConverged {
        /// Which estimation (e.g. "stage 1").
        stage: String,
        /// Iterations done.
        iterations: usize,
        /// Last change.
        change: f64,
        /// The stop criterion.
        tolerance: f64,
    },
    /// A count (bootstrap resamples, iterations) beyond [`crate::limits`].
    #[error(transparent)]
    Limit(#[from] crate::limits::LimitError),
    /// A bootstrap would refit more than [`crate::limits::MAX_RESAMPLED_DRAWS`] cells.
    #[error(transparent)]
    Draws(#[from] crate::limits::DrawsError),
    /// A statistic could not be computed.
    #[error("{what}: {source}")]
    Stats {
        /// What was being computed.
        what: String,
        /// The statistics error.
        source: StatsError,
    },
}
