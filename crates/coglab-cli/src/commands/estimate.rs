//! `coglab estimate`: a partial run's estimated accuracy over the whole benchmark (issue 40).
//!
//! Calibrates the items on the complete runs of `--calibration FULL.csv`
//! (`coglab_core::items::estimate::Calibration::fit`, 2PL with a fixed guessing floor
//! `1 / --options`), then estimates each respondent of `PARTIAL.csv`
//! (`coglab_core::items::estimate::estimate_with`) and prints a table or JSON
//! `{"estimates": [{id, answered, observed, estimate, ci_low, ci_high}],
//! "calibration": {items, respondents, model}}`. Each side is one file in the matrix format
//! `coglab items` reads, or result files as `coglab items` takes them (MM-IQ predictions with
//! `--answers KEY`, KiVA run folders); the partial side's items are matched to the
//! calibration's by id.

use super::{emit, print_json, CliError};
use crate::cli::EstimateArgs;
use coglab_core::items::KivaStages;
use coglab_run::estimate::{estimate, EstimateRequest};
use coglab_run::Source;

/// `coglab estimate`.
///
/// # Errors
/// [`CliError::Input`] for unreadable or invalid files (naming file, line and column), a
/// calibration that cannot be fitted or is too small, or a partial column that is not a
/// calibration item.
pub fn run(a: &EstimateArgs) -> Result<(), CliError> {
    let stage = match a.stage.as_deref() {
        None | Some("cross") => KivaStages::Cross,
        Some("extrapolation") => KivaStages::Extrapolation,
        Some(s) => {
            return Err(CliError::Usage(format!(
                "--stage: expected cross or extrapolation (stages every trial has), found {s:?}"
            )))
        }
    };
    let out = estimate(&EstimateRequest {
        calibration: a.calibration.iter().map(Source::path).collect(),
        partial: a.partial.iter().map(Source::path).collect(),
        answers: a.answers.as_ref().map(Source::path),
        stage,
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
