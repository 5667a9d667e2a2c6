//! Estimates for a board's partial rows (issue 40, item 1, the leaderboard's part): the
//! complete runs of a board are its calibration ([`super::estimate::Calibration::fit`]) and
//! every row with unanswered items gets its estimated full-benchmark accuracy
//! ([`super::estimate::estimate_with`]), or the reason it is withheld.
//!
//! A row is complete when the caller says so (`complete`), which for leaderboard rows
//! ([`complete_rows`]) is: MM-IQ, every key item predicted (no
//! `key_items_without_prediction`) and every column of the matrix answered; KiVA, every trial
//! any model row has. The estimate is withheld for every partial row, with the core's reason,
//! when the complete runs are fewer than [`EstimateOptions::min_calibration`] (checked before
//! fitting, [`super::estimate::check_calibration_size`]) or when the calibration cannot be
//! fitted.

use serde::{Deserialize, Serialize};

use super::estimate::{
    check_calibration_size, estimate_with, Calibration, CalibrationOptions, CalibrationSummary,
    Estimate, EstimateOptions,
};
use super::matrix::{ItemInfo, ResponseMatrix};
use super::rows::{matrix_from_rows, RowsOptions};
use super::{ItemsError, KivaStages};
use crate::leaderboard::Detail;

/// One partial row's estimate, or why there is none.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RowEstimate {
    /// The respondent (row) id.
    pub id: String,
    /// Items of the benchmark it answered.
    pub answered: usize,
    /// Items of the benchmark (the matrix's columns).
    pub items: usize,
    /// `answered / items`.
    pub coverage: f64,
    /// The estimate (`None`: withheld).
    pub estimate: Option<Estimate>,
    /// Why the estimate is withheld.
    pub withheld: Option<String>,
}

/// The estimates of a board's partial rows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BoardEstimates {
    /// The calibration (`None`: not fitted, see the rows' `withheld`).
    pub calibration: Option<CalibrationSummary>,
    /// The complete rows the calibration is made of (or would be).
    pub calibration_rows: Vec<String>,
    /// One per partial row, in matrix order.
    pub rows: Vec<RowEstimate>,
    /// The calibration's notes.
    pub notes: Vec<String>,
}

/// The matrix's respondents `keep` (in order), as a matrix of their own.
fn respondents(
    m: &ResponseMatrix,
    keep: &[usize],
    source: &str,
) -> Result<ResponseMatrix, ItemsError> {
    let items: Vec<ItemInfo> = m.items.clone();
    let mut cells = Vec::with_capacity(keep.len() * items.len());
    for &i in keep {
        cells.extend((0..items.len()).map(|j| m.get(i, j)));
    }
    let resp = keep.iter().map(|&i| m.respondents[i].clone()).collect();
    ResponseMatrix::new(source, items, resp, &cells)
}

/// Estimates the rows of `m` whose `complete` is false from a calibration on the others (see
/// the module documentation).
///
/// # Errors
/// [`ItemsError::BadOption`] when `complete` does not have one entry per respondent, and the
/// option errors of [`estimate_with`]. A calibration too small or that cannot be fitted is not
/// an error: each partial row says why it has no estimate.
///
/// # Examples
/// ```
/// use coglab_core::items::estimate::{CalibrationOptions, EstimateOptions};
/// use coglab_core::items::partial::estimate_partial;
/// use coglab_core::items::ResponseMatrix;
/// let m = ResponseMatrix::parse_csv("b.csv", b"id,q1,q2\nfull,1,0\npart,1,\n").unwrap();
/// let e = estimate_partial(&m, &[true, false], &CalibrationOptions::default(),
///     &EstimateOptions::default()).unwrap();
/// assert_eq!(e.rows.len(), 1);
/// assert!(e.rows[0].withheld.as_deref().unwrap().contains("1 calibration respondents"));
/// ```
pub fn estimate_partial(
    m: &ResponseMatrix,
    complete: &[bool],
    cal_opts: &CalibrationOptions,
    est_opts: &EstimateOptions,
) -> Result<BoardEstimates, ItemsError> {
    if complete.len() != m.n_respondents() {
        return Err(ItemsError::BadOption {
            name: "complete",
            expected: "one entry per respondent",
            found: format!("{} for {} respondents", complete.len(), m.n_respondents()),
        });
    }
    let full: Vec<usize> = (0..complete.len()).filter(|&i| complete[i]).collect();
    let part: Vec<usize> = (0..complete.len()).filter(|&i| !complete[i]).collect();
    let calibration_rows = full.iter().map(|&i| m.respondents[i].id.clone()).collect();
    let items = m.n_items();
    let mut rows: Vec<RowEstimate> = part
        .iter()
        .map(|&i| {
            let answered = m.respondent_counts(i).0;
            RowEstimate {
                id: m.respondents[i].id.clone(),
                answered,
                items,
                coverage: answered as f64 / items as f64,
                estimate: None,
                withheld: None,
            }
        })
        .collect();
    let mut out = BoardEstimates {
        calibration: None,
        calibration_rows,
        rows: Vec::new(),
        notes: Vec::new(),
    };
    if part.is_empty() {
        return Ok(out);
    }
    let source = format!("the complete runs of {}", m.source);
    let withhold = |rows: &mut Vec<RowEstimate>, e: ItemsError| {
        let reason = e.to_string();
        for r in rows.iter_mut() {
            r.withheld = Some(reason.clone());
        }
    };
    if let Err(e) = check_calibration_size(&source, full.len(), est_opts.min_calibration) {
        withhold(&mut rows, e);
        out.rows = rows;
        return Ok(out);
    }
    let cal = match respondents(m, &full, &source).and_then(|c| Calibration::fit(&c, cal_opts)) {
        Ok(c) => c,
        Err(e) => {
            withhold(&mut rows, e);
            out.rows = rows;
            return Ok(out);
        }
    };
    let partial = respondents(m, &part, &m.source)?;
    let estimates = estimate_with(&cal, &partial, est_opts)?;
    for (r, e) in rows.iter_mut().zip(estimates) {
        r.estimate = Some(e);
    }
    out.calibration = Some(cal.summary());
    out.notes = cal.notes;
    out.rows = rows;
    Ok(out)
}

/// Which leaderboard rows are complete runs (see the module documentation), for the matrix
/// [`matrix_from_rows`] makes of the same rows (KiVA human rows left out).
pub fn complete_rows(rows: &[(&str, &Detail)], m: &ResponseMatrix) -> Vec<bool> {
    let answered_all = |i: usize| m.respondent_counts(i).0 == m.n_items();
    let mut i = 0usize;
    let mut out = Vec::with_capacity(m.n_respondents());
    for (_, d) in rows {
        match d {
            Detail::Mmiq(r) => {
                out.push(r.rows.key_items_without_prediction == 0 && answered_all(i));
                i += 1;
            }
            Detail::Kiva(r) if r.source == crate::kiva::Source::Model => {
                out.push(answered_all(i));
                i += 1;
            }
            _ => {}
        }
    }
    out.resize(m.n_respondents(), false);
    out
}

/// The estimates of the partial rows among leaderboard rows of one benchmark (MM-IQ, or KiVA
/// on one stage: `Cross` or `Extrapolation`, which every trial has), calibrated on the
/// complete ones.
///
/// # Errors
/// As [`matrix_from_rows`] (no rows, mixed benchmarks, rows without items) and
/// [`estimate_partial`]; [`ItemsError::BadOption`] for MM-OPERA rows or a KiVA stage that
/// not every trial has (all stages, or the within-domain stage asked only after a right
/// first stage: no run would be complete).
pub fn estimate_rows(
    rows: &[(&str, &Detail)],
    stage: KivaStages,
    cal_opts: &CalibrationOptions,
    est_opts: &EstimateOptions,
) -> Result<BoardEstimates, ItemsError> {
    let kiva = rows.iter().any(|(_, d)| matches!(d, Detail::Kiva(_)));
    if rows.iter().any(|(_, d)| matches!(d, Detail::Mmopera(_))) {
        return Err(ItemsError::BadOption {
            name: "rows",
            expected: "MM-IQ or KiVA rows (MM-OPERA items are judged, not answered right or wrong)",
            found: "MM-OPERA rows".into(),
        });
    }
    if kiva && !matches!(stage, KivaStages::Cross | KivaStages::Extrapolation) {
        return Err(ItemsError::BadOption {
            name: "stage",
            expected: "cross or extrapolation (stages every trial has)",
            found: format!("{stage:?}"),
        });
    }
    let mut opts = RowsOptions {
        include_humans: false,
        ..RowsOptions::default()
    };
    opts.kiva.stages = stage;
    let m = matrix_from_rows(rows, &opts)?;
    let complete = complete_rows(rows, &m);
    estimate_partial(&m, &complete, cal_opts, est_opts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::items::estimate::estimate;
    use crate::items::simulate::{simulate, SimOptions};

    /// The board path gives what `coglab estimate` gives on the same split: the complete runs
    /// calibrated, the partial rows estimated (a conversion check, the numbers are the core's
    /// either way), and rows too few for a calibration are withheld with the count.
    #[test]
    fn board_split_matches_the_matrix_path() {
        let sim = simulate(&SimOptions {
            respondents: 30,
            items: 60,
            seed: 7,
            ..SimOptions::default()
        })
        .unwrap();
        let m = &sim.matrix;
        // Respondents 25-29 answer only the first 20 items.
        let mut cells = Vec::new();
        for i in 0..m.n_respondents() {
            for j in 0..m.n_items() {
                cells.push(if i >= 25 && j >= 20 {
                    None
                } else {
                    m.get(i, j)
                });
            }
        }
        let board =
            ResponseMatrix::new("sim", m.items.clone(), m.respondents.clone(), &cells).unwrap();
        let complete: Vec<bool> = (0..30).map(|i| i < 25).collect();
        let got = estimate_partial(
            &board,
            &complete,
            &CalibrationOptions::default(),
            &EstimateOptions::default(),
        )
        .unwrap();
        assert_eq!(got.rows.len(), 5);
        assert_eq!(got.calibration_rows.len(), 25);
        let full: Vec<usize> = (0..25).collect();
        let part: Vec<usize> = (25..30).collect();
        let cal = Calibration::fit(
            &respondents(&board, &full, "the complete runs of sim").unwrap(),
            &CalibrationOptions::default(),
        )
        .unwrap();
        let want = estimate(&cal, &respondents(&board, &part, "sim").unwrap()).unwrap();
        for (r, w) in got.rows.iter().zip(&want) {
            assert_eq!(r.estimate.as_ref(), Some(w));
            assert_eq!((r.answered, r.items), (20, 60));
            assert!((r.coverage - 1.0 / 3.0).abs() < 1e-15);
        }
        // 19 complete runs: withheld, naming 19 and 20.
        let complete: Vec<bool> = (0..30).map(|i| i < 19).collect();
        let few = estimate_partial(
            &board,
            &complete,
            &CalibrationOptions::default(),
            &EstimateOptions::default(),
        )
        .unwrap();
        assert_eq!(few.calibration, None);
        assert_eq!(few.rows.len(), 11);
        let why = few.rows[0].withheld.as_deref().unwrap();
        assert!(
            why.contains("19 calibration respondents, fewer than the 20"),
            "{why}"
        );
    }
}
