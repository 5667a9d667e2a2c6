//! `coglab estimate`: a partial run's estimated accuracy over the whole benchmark (issue 40).
//!
//! Calibrates the items on the complete runs of `--calibration FULL.csv`
//! (`coglab_core::items::estimate::Calibration::fit`, 2PL with a fixed guessing floor
//! `1 / --options`), then estimates each respondent of `PARTIAL.csv`
//! (`coglab_core::items::estimate::estimate_with`) and prints a table or JSON
//! `{"estimates": [{id, answered, observed, estimate, ci_low, ci_high}],
//! "calibration": {items, respondents, model}}`. Both files are in the matrix format
//! `coglab items` reads; the partial file's columns are matched to the calibration's by name.

use super::{emit, print_json, CliError};
use crate::cli::EstimateArgs;
use coglab_run::estimate::{estimate, EstimateRequest};
use coglab_run::Source;

/// `coglab estimate`.
///
/// # Errors
/// [`CliError::Input`] for unreadable or invalid files (naming file, line and column), a
/// calibration that cannot be fitted or is too small, or a partial column that is not a
/// calibration item.
pub fn run(a: &EstimateArgs) -> Result<(), CliError> {
    let out = estimate(&EstimateRequest {
        calibration: Source::path(&a.calibration),
        partial: Source::path(&a.partial),
        options: a.options,
        min_calibration: a.min_calibration,
    })?;
    if a.json {
        return print_json(&out);
    }
    let cal = &out.calibration;
    let (source, converged) = &out.source;
    let estimates = &out.estimates;
    let mut out_text = String::new();
    let out_notes = out.notes.clone();
    let out = &mut out_text;
    outln!(
        out,
        "Estimated accuracy over all {} items of {} (calibration: {} respondents, {}{})",
        cal.items,
        source,
        cal.respondents,
        cal.model,
        if *converged { "" } else { ", not converged" }
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
    for e in estimates {
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
    for note in &out_notes {
        outln!(out, "note: {note}");
    }
    emit(&out_text)
}
