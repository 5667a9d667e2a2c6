//! A response matrix from computed leaderboard rows ([`crate::leaderboard::Detail`], what the
//! web app's worker keeps by row id), one respondent per row:
//! - MM-IQ rows: the items of [`ResponseMatrix::from_mmiq_reports`] (answer letters kept, so
//!   the most frequent wrong answer is known);
//! - KiVA rows: trials per stage ([`ResponseMatrix::from_kiva_reports`]); model runs are
//!   respondents of group `model`, and with `include_humans` a dropped adults file
//!   (`human_adults_KiVA.csv`) adds one respondent of group `human` per participant. The app
//!   bundles only the adults' aggregate baselines, not their trials, so the adults come in only
//!   when the user drops the file;
//! - MM-OPERA rows: each judged item of the chosen task, right when its mean holistic score
//!   (0-4) is at least [`RowsOptions::mmopera_threshold`] (default 3, the HR-3 cut).
//!
//! Rows of different benchmarks cannot be mixed.

use super::matrix::{KivaItemOptions, ResponseMatrix, ScoredResponse};
use super::ItemsError;
use crate::leaderboard::Detail;
use crate::mmopera::Task;
use serde::{Deserialize, Serialize};

/// How rows become a matrix.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RowsOptions {
    /// KiVA: include the participants of a dropped adults file.
    pub include_humans: bool,
    /// KiVA: stages, model threshold and per-subdomain items.
    pub kiva: KivaItemOptions,
    /// MM-OPERA: an item is right when its mean holistic score is at least this (default 3).
    pub mmopera_threshold: f64,
    /// MM-OPERA: the task (default RIA).
    pub mmopera_task: Task,
}

impl Default for RowsOptions {
    fn default() -> Self {
        Self {
            include_humans: true,
            kiva: KivaItemOptions::default(),
            mmopera_threshold: 3.0,
            mmopera_task: Task::Ria,
        }
    }
}

/// The matrix of `rows` (`(respondent name, detail)`), see the module documentation.
///
/// # Errors
/// [`ItemsError::Empty`] without rows, [`ItemsError::BadOption`] for rows of different
/// benchmarks or of a kind without items (Gold), else the builders' errors.
pub fn matrix_from_rows(
    rows: &[(&str, &Detail)],
    opts: &RowsOptions,
) -> Result<ResponseMatrix, ItemsError> {
    let Some((_, first)) = rows.first() else {
        return Err(ItemsError::Empty {
            source_name: "leaderboard rows".into(),
            expected: "at least two computed rows of one benchmark".into(),
        });
    };
    let mixed = || ItemsError::BadOption {
        name: "rows",
        expected: "computed rows of one benchmark (MM-IQ, KiVA or MM-OPERA)",
        found: "rows of different benchmarks".into(),
    };
    match first {
        Detail::Mmiq(_) => {
            let mut reports = Vec::with_capacity(rows.len());
            for (name, d) in rows {
                let Detail::Mmiq(r) = d else {
                    return Err(mixed());
                };
                reports.push((*name, r));
            }
            ResponseMatrix::from_mmiq_reports(&reports)
        }
        Detail::Kiva(_) => {
            let mut reports = Vec::with_capacity(rows.len());
            for (name, d) in rows {
                let Detail::Kiva(r) = d else {
                    return Err(mixed());
                };
                if r.source == crate::kiva::Source::Human && !opts.include_humans {
                    continue;
                }
                reports.push((*name, r));
            }
            ResponseMatrix::from_kiva_reports(&reports, &opts.kiva)
        }
        Detail::Mmopera(_) => {
            let mut responses = Vec::new();
            for (name, d) in rows {
                let Detail::Mmopera(r) = d else {
                    return Err(mixed());
                };
                let Some(task) = r.task(opts.mmopera_task) else {
                    continue;
                };
                for it in &task.items {
                    let score = (!it.scores.is_empty()).then(|| {
                        it.scores.iter().map(|&s| f64::from(s)).sum::<f64>()
                            / it.scores.len() as f64
                    });
                    responses.push(ScoredResponse {
                        respondent: name,
                        group: Some("model"),
                        item: &it.id,
                        category: Some(opts.mmopera_task.name()),
                        score,
                        answer: None,
                    });
                }
            }
            ResponseMatrix::from_scores(
                &format!("MM-OPERA {}", opts.mmopera_task.name()),
                &responses,
                opts.mmopera_threshold,
            )
        }
        Detail::Gold(_) => Err(ItemsError::BadOption {
            name: "rows",
            expected: "MM-IQ, KiVA or MM-OPERA rows (with item-level results)",
            found: "Gold rows (task scores only)".into(),
        }),
        Detail::KivaChallenge(_) => Err(ItemsError::BadOption {
            name: "rows",
            expected: "MM-IQ, KiVA or MM-OPERA rows (with item-level results)",
            found: "KiVA challenge rows (one answer per trial, not analysed here)".into(),
        }),
    }
}
