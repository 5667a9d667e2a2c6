//! Worker operations of the leaderboard's "scores from few items" panels (issue 40), over the
//! rows the [`WorkerState`] keeps:
//! - [`api::Estimates`]: the estimated full-benchmark accuracy of the rows with coverage below
//!   100%, calibrated on the complete rows of the same board (core `items::partial`), or why
//!   it is withheld;
//! - [`api::Planner`]: the items a typed difference needs and the board's current minimum
//!   detectable difference (core `ranks::plan`);
//! - [`api::Quality`]: the benchmark quality panel (core `ranks::quality`).
//!
//! The rows are read as the rank board reads them (core `ranks::quality::quality_input`); the
//! page only renders what comes back. Published rows get their items fetched first (the
//! serving loop calls [`crate::ops_published::ensure`]).

use crate::api::{self, RowId, WorkerError};
use crate::state::WorkerState;
use coglab_core::items::estimate::{CalibrationOptions, EstimateOptions};
use coglab_core::items::partial::{estimate_rows, BoardEstimates};
use coglab_core::items::ItemsError;
use coglab_core::leaderboard::Detail;
use coglab_core::ranks::plan::{plan, Plan};
use coglab_core::ranks::quality::{board_input, quality_input, QualityOptions, QualityPanel};
use coglab_core::ranks::view::{RankEntry, RankRequest, RankSource};
use coglab_core::ranks::RanksError;

/// The ids of a request's rows.
pub fn ids(rows: &[(RowId, String)]) -> Vec<RowId> {
    rows.iter().map(|(id, _)| *id).collect()
}

/// The rows as the rank board reads them. A row of an earlier worker is refused
/// ([`WorkerError::Stale`]); one this worker dropped becomes a note in the panel.
fn entries<'a>(
    state: &'a WorkerState,
    rows: &'a [(RowId, String)],
) -> Result<Vec<RankEntry<'a>>, WorkerError> {
    rows.iter()
        .map(|(id, name)| {
            state.check(id)?;
            Ok(RankEntry {
                id: *id,
                name,
                source: match state.row_if_kept(*id) {
                    Some(Detail::Mmiq(r)) => RankSource::Mmiq(r),
                    Some(Detail::Kiva(r)) => RankSource::Kiva {
                        report: r,
                        files: state.run_files(*id).map(Vec::as_slice),
                    },
                    Some(Detail::Mmopera(r)) => RankSource::Mmopera(r),
                    Some(Detail::Gold(_) | Detail::KivaChallenge(_)) => RankSource::Other,
                    None => RankSource::Gone,
                },
            })
        })
        .collect()
}

fn items_error(e: ItemsError) -> WorkerError {
    match e {
        ItemsError::BadOption { .. } | ItemsError::Empty { .. } => {
            WorkerError::NotApplicable(e.to_string())
        }
        e => WorkerError::Input(e.to_string()),
    }
}

fn ranks_error(e: RanksError) -> WorkerError {
    match e {
        RanksError::TooFewModels { .. } | RanksError::NoModels { .. } => {
            WorkerError::NotApplicable(e.to_string())
        }
        e => WorkerError::Input(e.to_string()),
    }
}

/// [`api::Estimates`]: estimates for the partial rows among `a.rows`.
///
/// # Errors
/// The state's for a row not kept; [`WorkerError::NotApplicable`] for rows of different
/// benchmarks, MM-OPERA or Gold rows, or a KiVA stage not every trial has; a too small
/// calibration is not an error (each row says why it has no estimate).
pub fn estimates(state: &WorkerState, a: &api::Estimates) -> Result<BoardEstimates, WorkerError> {
    let details = state.rows(&ids(&a.rows))?;
    let rows: Vec<(&str, &Detail)> = a
        .rows
        .iter()
        .map(|(_, name)| name.as_str())
        .zip(details)
        .collect();
    let cal = CalibrationOptions {
        options: a.options,
        ..CalibrationOptions::default()
    };
    estimate_rows(&rows, a.stage, &cal, &EstimateOptions::default()).map_err(items_error)
}

/// [`api::Planner`]: the planner for the board of `a.rows`.
///
/// # Errors
/// [`WorkerError::Stale`] for a row of an earlier worker; [`WorkerError::NotApplicable`] with
/// fewer than two usable rows; [`WorkerError::Input`] for a difference, α or power outside
/// (0, 1).
pub fn planner(state: &WorkerState, a: &api::Planner) -> Result<Plan, WorkerError> {
    let e = entries(state, &a.rows)?;
    let (q, notes) = quality_input(&e, &a.request);
    let mut p = plan(&board_input(&q), &a.request.options, a.mde).map_err(ranks_error)?;
    p.notes.extend(notes);
    Ok(p)
}

/// [`api::Quality`]: the quality panel of the board of `a.rows`.
///
/// # Errors
/// [`WorkerError::Stale`] for a row of an earlier worker. Rows of another benchmark, human
/// data or rows no longer kept are left out with a note.
pub fn quality(state: &WorkerState, a: &api::Quality) -> Result<QualityPanel, WorkerError> {
    let e = entries(state, &a.rows)?;
    Ok(panel(&e, &a.request))
}

fn panel(entries: &[RankEntry<'_>], req: &RankRequest) -> QualityPanel {
    let (q, notes) = quality_input(entries, req);
    let mut p = coglab_core::ranks::quality::quality(
        &q,
        &QualityOptions {
            alpha: req.options.alpha,
            power: req.options.power,
        },
    );
    p.notes.extend(notes);
    p
}

#[cfg(test)]
mod tests {
    use super::*;
    use coglab_core::leaderboard::{score_files, InputRef, Scored};
    use coglab_core::ranks::Bench;

    /// A key of 6 Logical and 4 Mathematical items, answer `A` each.
    fn key() -> String {
        (0..10)
            .map(|j| {
                let cat = if j < 6 { "Logical" } else { "Mathematical" };
                format!("{{\"category\": \"{cat}\", \"data_id\": {j}, \"answer\": \"A\"}}\n")
            })
            .collect()
    }

    /// Predictions right on the items in `right` among `answered`.
    fn preds(answered: std::ops::Range<u32>, right: &[u32]) -> String {
        answered
            .map(|j| {
                let p = if right.contains(&j) { "A" } else { "B" };
                format!("{{\"data_id\": {j}, \"parsed_pred\": \"{p}\"}}\n")
            })
            .collect()
    }

    /// Three complete MM-IQ rows and one that answered items 0-4, kept as the worker keeps a
    /// scored batch.
    fn board(state: &mut WorkerState) -> Vec<(RowId, String)> {
        let key = key();
        let files = [
            ("m1_output.jsonl", preds(0..10, &[0, 1, 2, 3, 4, 5, 6, 7])),
            ("m2_output.jsonl", preds(0..10, &[0, 1, 2, 6])),
            ("m3_output.jsonl", preds(0..10, &[0, 3])),
            ("m4_output.jsonl", preds(0..5, &[0, 1, 2])),
        ];
        let mut inputs = vec![InputRef {
            path: "MMIQ_benchmark_answer_dict.jsonl",
            bytes: key.as_bytes(),
            model: None,
        }];
        for (name, p) in &files {
            inputs.push(InputRef {
                path: name,
                bytes: p.as_bytes(),
                model: Some(&name[..2]),
            });
        }
        let mut scored: Scored = score_files(&inputs, |_, _, _| {});
        assert_eq!(scored.mmiq.len(), 4, "{:?}", scored.files);
        let ids = state.keep_scored(&mut scored, Vec::new());
        ids.into_iter()
            .zip(["m1", "m2", "m3", "m4"])
            .map(|(id, n)| (id, n.to_string()))
            .collect()
    }

    /// Three complete rows are fewer than the 20 a calibration needs: the partial row m4
    /// (5 of 10 items, coverage 0.5) has its estimate withheld with the core's reason.
    #[test]
    fn estimates_withheld_on_a_small_board() {
        let mut state = WorkerState::new(1);
        let rows = board(&mut state);
        let e = estimates(
            &state,
            &api::Estimates {
                rows: rows.clone(),
                stage: coglab_core::items::KivaStages::Cross,
                options: 4,
            },
        )
        .unwrap();
        assert_eq!(e.calibration_rows, ["m1", "m2", "m3"]);
        assert_eq!(e.calibration, None);
        assert_eq!(e.rows.len(), 1);
        let r = &e.rows[0];
        assert_eq!((r.id.as_str(), r.answered, r.items), ("m4", 5, 10));
        assert_eq!(r.coverage, 0.5);
        assert!(r.estimate.is_none());
        assert!(
            r.withheld
                .as_deref()
                .unwrap()
                .contains("3 calibration respondents, fewer than the 20"),
            "{:?}",
            r.withheld
        );
        // A row of an earlier worker is stale.
        let old = vec![(
            RowId {
                generation: 0,
                n: 1,
            },
            "x".to_string(),
        )];
        assert!(matches!(
            estimates(
                &state,
                &api::Estimates {
                    rows: old,
                    stage: coglab_core::items::KivaStages::Cross,
                    options: 4
                }
            ),
            Err(WorkerError::Stale { .. })
        ));
    }

    /// The panel of the kept rows: the categories from the reports (6 Logical, 4
    /// Mathematical items), and figures checked by hand on the complete rows' Mathematical
    /// items (6-9): m1 right on 6, 7 (score .5), m2 on 6 (.25), m3 none (0); m4 answered none
    /// of them. Item variances (sample): item 6 (1, 1, 0) 1/3, item 7 (1, 0, 0) 1/3, items 8
    /// and 9 0; totals 2, 1, 0 (variance 1): KR-20 = 4/3 (1 - 2/3) = 4/9. Signal: SD of
    /// .5, .25, 0 = .25.
    #[test]
    fn quality_panel_of_kept_rows() {
        let mut state = WorkerState::new(1);
        let rows = board(&mut state);
        let p = quality(
            &state,
            &api::Quality {
                rows,
                request: RankRequest::new(Bench::Mmiq),
            },
        )
        .unwrap();
        assert_eq!(p.overall.items, 10);
        assert_eq!(p.overall.models, 4);
        let labels: Vec<&str> = p.categories.iter().map(|c| c.label.as_str()).collect();
        assert_eq!(labels, ["Logical", "Mathematical"]);
        let m = &p.categories[1];
        assert_eq!((m.items, m.models, m.reliability_models), (4, 3, 3));
        assert!((m.reliability.unwrap() - 4.0 / 9.0).abs() < 1e-12);
        assert!((m.signal.unwrap() - 0.25).abs() < 1e-12);
        assert!(m.warning.is_some());
    }

    /// The planner of the kept rows is the core's plan of the same models (as `coglab plan`
    /// reads them), and the board's MDD comes with it.
    #[test]
    fn planner_of_kept_rows() {
        let mut state = WorkerState::new(1);
        let rows = board(&mut state);
        let mut request = RankRequest::new(Bench::Mmiq);
        request.options.resamples = 0;
        let p = planner(
            &state,
            &api::Planner {
                rows: rows.clone(),
                request,
                mde: 0.1,
            },
        )
        .unwrap();
        assert_eq!(p.pairs.len(), 6);
        assert_eq!(p.benchmark_size, 10);
        // m1 and m2 disagree on items 3, 4, 5, 7 of 10: ψ = 0.4; Connor for δ = 0.1:
        // [1.959964 √0.4 + 0.841621 √0.39]² / 0.01.
        let pair = p.pairs.iter().find(|x| x.a == "m1" && x.b == "m2").unwrap();
        assert!((pair.spread.unwrap() - 0.4).abs() < 1e-12);
        let (za, zb) = (1.959963984540054, 0.8416212335729143);
        let want = (za * 0.4f64.sqrt() + zb * 0.39f64.sqrt()).powi(2) / 0.01;
        assert!((pair.items_exact.unwrap() - want).abs() < 1e-9);
        // One row is too few.
        let one = planner(
            &state,
            &api::Planner {
                rows: rows[..1].to_vec(),
                request,
                mde: 0.1,
            },
        );
        assert!(matches!(one, Err(WorkerError::NotApplicable(_))), "{one:?}");
    }
}
