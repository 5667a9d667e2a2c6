//! Worker operations of the item-analysis section ([`crate::api`]'s `ItemAnalysis` and
//! `ItemCurves`): builds the response matrix from kept leaderboard rows (core `items::rows`),
//! runs the analysis, keeps it in the [`WorkerState`] under an
//! [`AnalysisId`](crate::api::AnalysisId), and returns the page-sized report (core
//! `items::report`); more item curves come from the kept analysis without fitting again. The
//! page only renders them.

use crate::api::{self, RowId, WorkerError};
use crate::state::WorkerState;
use coglab_core::items::rows::{matrix_from_rows, RowsOptions};
use coglab_core::items::{
    analyse, item_curves, report, AnalysisOptions, IrtOptions, ReportCurve, ReportOptions,
};

/// [`api::ItemAnalysis`]: the item analysis of the kept rows.
///
/// # Errors
/// The state's for a row not kept, or the core's message for rows of different benchmarks or
/// a matrix that cannot be analysed.
pub fn item_analysis(
    state: &mut WorkerState,
    a: &api::ItemAnalysis,
) -> Result<api::ItemAnalyzed, WorkerError> {
    let ids: Vec<RowId> = a.rows.iter().map(|(id, _)| *id).collect();
    let details = state.rows(&ids)?;
    let rows: Vec<(&str, &coglab_core::leaderboard::Detail)> = a
        .rows
        .iter()
        .map(|(_, name)| name.as_str())
        .zip(details)
        .collect();
    let opts = RowsOptions {
        include_humans: a.include_humans,
        mmopera_threshold: a.threshold,
        ..RowsOptions::default()
    };
    let m = matrix_from_rows(&rows, &opts).map_err(|e| e.to_string())?;
    let aopts = AnalysisOptions {
        irt: IrtOptions {
            model: a.model,
            item_curves: false,
            ..IrtOptions::default()
        },
        ..AnalysisOptions::default()
    };
    let analysis = analyse(&m, &aopts).map_err(|e| e.to_string())?;
    let ropts = ReportOptions {
        curves_for: a.curves_for.clone(),
        ..ReportOptions::default()
    };
    let out = report(&analysis, &ropts);
    Ok(api::ItemAnalyzed {
        analysis: state.keep_analysis(analysis),
        report: api::Packed(out),
    })
}

/// [`api::ItemCurves`]: curves of the given items from a kept analysis.
///
/// # Errors
/// The state's for an analysis not kept (a newer one replaced it, or the worker was
/// restarted).
pub fn curves(state: &WorkerState, a: &api::ItemCurves) -> Result<Vec<ReportCurve>, WorkerError> {
    let analysis = state.analysis(a.analysis)?;
    Ok(item_curves(analysis, &a.ids, &ReportOptions::default()).0)
}
