//! `coglab estimate`: a partial run's estimated accuracy over the whole benchmark (issue 40).
//!
//! Calibrates the items on the complete runs of `--calibration FULL.csv`
//! (`coglab_core::items::estimate::Calibration::fit`, 2PL with a fixed guessing floor
//! `1 / --options`), then estimates each respondent of `PARTIAL.csv`
//! (`coglab_core::items::estimate::estimate_with`) and prints a table or JSON
//! `{"estimates": [{id, answered, observed, estimate, ci_low, ci_high}],
//! "calibration": {items, respondents, model}}`. Both files are in the matrix format
//! `coglab items` reads; the partial file's columns are matched to the calibration's by name.

use super::{emit, print_json, read_bytes, CliError};
use crate::cli::EstimateArgs;
use coglab_core::items::estimate::{
    estimate_with, Calibration, CalibrationOptions, CalibrationSummary, Estimate, EstimateOptions,
};
use coglab_core::items::ResponseMatrix;
use serde::Serialize;

/// The JSON `coglab estimate --json` prints.
#[derive(Debug, Serialize)]
struct Output<'a> {
    estimates: &'a [Estimate],
    calibration: CalibrationSummary,
}

/// `coglab estimate`.
///
/// # Errors
/// [`CliError::Input`] for unreadable or invalid files (naming file, line and column), a
/// calibration that cannot be fitted or is too small, or a partial column that is not a
/// calibration item.
pub fn run(a: &EstimateArgs) -> Result<(), CliError> {
    let full = ResponseMatrix::parse_csv(&a.calibration, &read_bytes(&a.calibration)?)?;
    let partial = ResponseMatrix::parse_csv(&a.partial, &read_bytes(&a.partial)?)?;
    let cal = Calibration::fit(
        &full,
        &CalibrationOptions {
            options: a.options,
            ..CalibrationOptions::default()
        },
    )?;
    let mut opts = EstimateOptions::default();
    if let Some(n) = a.min_calibration {
        opts.min_calibration = n;
    }
    let estimates = estimate_with(&cal, &partial, &opts)?;
    if a.json {
        return print_json(&Output {
            estimates: &estimates,
            calibration: cal.summary(),
        });
    }
    let mut out = String::new();
    outln!(
        out,
        "Estimated accuracy over all {} items of {} (calibration: {} respondents, {}{})",
        cal.items,
        cal.source,
        cal.respondents,
        cal.model,
        if cal.converged { "" } else { ", not converged" }
    );
    outln!(
        out,
        "{:<24} {:>8} {:>9} {:>9}  {:>15}",
        "respondent",
        "answered",
        "observed",
        "estimate",
        "95% interval"
    );
    for e in &estimates {
        outln!(
            out,
            "{:<24} {:>8} {:>9} {:>9.3}  {:>15}",
            e.id,
            e.answered,
            e.observed.map_or_else(|| "-".into(), |o| format!("{o:.3}")),
            e.estimate,
            format!("{:.3} - {:.3}", e.ci_low, e.ci_high)
        );
    }
    outln!(
        out,
        "\nobserved: proportion right on the answered items; estimate: expected proportion \
         right over every item (unanswered ones predicted from the calibration)."
    );
    for note in &cal.notes {
        outln!(out, "note: {note}");
    }
    emit(&out)
}
