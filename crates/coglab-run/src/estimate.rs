//! `coglab estimate`: a partial run's estimated accuracy over the whole benchmark (issue 40),
//! shared by the CLI and the Python package.
//!
//! Calibrates the items on the complete runs of the calibration matrix
//! ([`Calibration::fit`], 2PL with the guessing floor `1 / options`) and estimates each
//! respondent of the partial matrix ([`estimate_with`]). Both are response-matrix CSVs
//! (respondent id, then 1/0/empty per item); the partial file's columns are matched to the
//! calibration's by name.

use coglab_core::items::estimate::{
    estimate_with, Calibration, CalibrationOptions, CalibrationSummary, Estimate, EstimateOptions,
};
use coglab_core::items::ResponseMatrix;
use serde::Serialize;

use crate::{RunError, Source};

/// What `coglab estimate` reads, and its options.
#[derive(Debug, Clone, PartialEq)]
pub struct EstimateRequest {
    /// Complete runs: every column is an item of the benchmark.
    pub calibration: Source,
    /// Partial runs (empty cells: not answered).
    pub partial: Source,
    /// Answer options per item (the guessing floor is `1 / options`; 0: none).
    pub options: u32,
    /// Fewest calibration respondents for an estimate (`None`: the core's default, 20).
    pub min_calibration: Option<usize>,
}

/// The JSON `coglab estimate --json` prints.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EstimateOutput {
    /// One estimate per partial respondent.
    pub estimates: Vec<Estimate>,
    /// `{items, respondents, model}` of the calibration.
    pub calibration: CalibrationSummary,
    /// The calibration's notes (not in the JSON: the CLI prints them under its table).
    #[serde(skip)]
    pub notes: Vec<String>,
    /// The calibration's source and whether EM converged (for the CLI's table header).
    #[serde(skip)]
    pub source: (String, bool),
}

/// Calibrates and estimates (see the module documentation).
///
/// # Errors
/// [`RunError::Input`] for unreadable or invalid files (naming file, line and column), a
/// calibration that cannot be fitted or is too small, or a partial column that is not a
/// calibration item.
pub fn estimate(req: &EstimateRequest) -> Result<EstimateOutput, RunError> {
    // Named by the path as given, as the CLI's messages always were.
    let full = ResponseMatrix::parse_csv(req.calibration.label(), &req.calibration.bytes()?)?;
    let partial = ResponseMatrix::parse_csv(req.partial.label(), &req.partial.bytes()?)?;
    let cal = Calibration::fit(
        &full,
        &CalibrationOptions {
            options: req.options,
            ..CalibrationOptions::default()
        },
    )?;
    let mut opts = EstimateOptions::default();
    if let Some(n) = req.min_calibration {
        opts.min_calibration = n;
    }
    let estimates = estimate_with(&cal, &partial, &opts)?;
    Ok(EstimateOutput {
        estimates,
        calibration: cal.summary(),
        notes: cal.notes.clone(),
        source: (cal.source.clone(), cal.converged),
    })
}
