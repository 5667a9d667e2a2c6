//! Worker operations of the item-analysis section ([`crate::api`]'s `ItemAnalysis` and
//! `ItemCurves`): builds the response matrix from kept leaderboard rows (core `items::rows`),
//! runs the analysis, keeps it, and returns the page-sized report (core `items::report`); more
//! item curves come from the kept analysis without fitting again. The page only renders them.

use std::cell::RefCell;

use crate::api::{self, RowId};
use crate::ops_leaderboard::with_details;
use coglab_core::items::rows::{matrix_from_rows, RowsOptions};
use coglab_core::items::{
    analyse, item_curves, report, AnalysisOptions, IrtOptions, ItemAnalysis, ItemsReport,
    ReportCurve, ReportOptions,
};

thread_local! {
    /// The last analysis, for [`curves`].
    static LAST: RefCell<Option<ItemAnalysis>> = const { RefCell::new(None) };
}

/// [`api::ItemAnalysis`]: the item analysis of the kept rows.
///
/// # Errors
/// A message when a row is no longer kept, the rows are of different benchmarks, or the
/// matrix cannot be analysed (the core's message says why).
pub fn item_analysis(a: &api::ItemAnalysis) -> Result<ItemsReport, String> {
    let ids: Vec<RowId> = a.rows.iter().map(|(id, _)| *id).collect();
    let analysis = with_details(&ids, |details| {
        let rows: Vec<(&str, &coglab_core::leaderboard::Detail)> = a
            .rows
            .iter()
            .map(|(_, name)| name.as_str())
            .zip(details.iter().copied())
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
        analyse(&m, &aopts).map_err(|e| e.to_string())
    })?;
    let ropts = ReportOptions {
        curves_for: a.curves_for.clone(),
        ..ReportOptions::default()
    };
    let out = report(&analysis, &ropts);
    LAST.with_borrow_mut(|l| *l = Some(analysis));
    Ok(out)
}

/// [`api::ItemCurves`]: curves of the given items from the last analysis.
///
/// # Errors
/// A message when no analysis has been made in this worker.
pub fn curves(a: &api::ItemCurves) -> Result<Vec<ReportCurve>, String> {
    LAST.with_borrow(|l| {
        let analysis = l.as_ref().ok_or(
            "no item analysis is kept in the scoring worker (it was restarted): analyse again",
        )?;
        Ok(item_curves(analysis, &a.ids, &ReportOptions::default()).0)
    })
}
