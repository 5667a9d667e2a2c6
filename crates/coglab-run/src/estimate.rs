//! `coglab estimate`: a partial run's estimated accuracy over the whole benchmark (issue 40),
//! shared by the CLI and the Python package.
//!
//! Calibrates the items on the complete runs of the calibration matrix
//! ([`Calibration::fit`], 2PL with the guessing floor `1 / options`) and estimates each
//! respondent of the partial matrix ([`estimate_with`]). Each side is given as `coglab items`
//! takes its inputs ([`crate::items::matrix`]): one response-matrix CSV (respondent id, then
//! 1/0/empty per item), MM-IQ predictions files with the answer key (`--answers KEY`, one
//! respondent per file, an item not in the file unanswered), or KiVA run folders (one
//! respondent per folder, a trial stage right when its mean over regenerations is at least
//! 0.5, the trials of a folder cut short unanswered). The partial matrix's columns are matched
//! to the calibration's by id.

use coglab_core::items::estimate::{
    estimate_with, Calibration, CalibrationOptions, CalibrationSummary, Estimate, EstimateOptions,
};
use coglab_core::items::{KivaStages, ResponseMatrix};
use serde::Serialize;

use crate::items::{matrix, ItemsRequest};
use crate::{RunError, Source};

/// What `coglab estimate` reads, and its options.
#[derive(Debug, Clone, PartialEq)]
pub struct EstimateRequest {
    /// Complete runs: one response-matrix CSV (every column an item of the benchmark), MM-IQ
    /// predictions files (with `answers`) or KiVA run folders.
    pub calibration: Vec<Source>,
    /// Partial runs, in the same form (empty cells, or items not in a file: not answered).
    pub partial: Vec<Source>,
    /// MM-IQ answer key: the inputs of both sides are predictions files.
    pub answers: Option<Source>,
    /// KiVA run folders: the stage whose trials are the items (default cross, which every
    /// trial has).
    pub stage: KivaStages,
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

/// One side's matrix: a single CSV named by its path as given (as the CLI's messages always
/// were), else what `coglab items` builds of the inputs.
fn side(req: &EstimateRequest, inputs: &[Source]) -> Result<ResponseMatrix, RunError> {
    if let (None, [one]) = (&req.answers, inputs) {
        let folder = matches!(one, Source::Path(p) if std::path::Path::new(p).is_dir());
        if !folder {
            let bytes = one.bytes()?;
            let kiva = bytes.starts_with(b"Variation,")
                || bytes.starts_with(b"\xEF\xBB\xBFVariation,")
                || crate::is_human(&bytes);
            if !kiva {
                return Ok(ResponseMatrix::parse_csv(one.label(), &bytes)?);
            }
        }
    }
    matrix(&ItemsRequest {
        answers: req.answers.clone(),
        inputs: inputs.to_vec(),
        stage: req.stage,
        subset: None,
        ..ItemsRequest::default()
    })
}

/// Calibrates and estimates (see the module documentation).
///
/// # Errors
/// [`RunError::Input`] for unreadable or invalid files (naming file, line and column), a
/// calibration that cannot be fitted or is too small, or a partial column that is not a
/// calibration item.
pub fn estimate(req: &EstimateRequest) -> Result<EstimateOutput, RunError> {
    let full = side(req, &req.calibration)?;
    let partial = side(req, &req.partial)?;
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

#[cfg(test)]
mod tests {
    use super::*;
    use coglab_core::items::simulate::{simulate, SimOptions};
    use std::fmt::Write as _;

    /// A matrix as the CSV `coglab items` reads (empty cells missing).
    fn csv(m: &ResponseMatrix) -> Vec<u8> {
        let mut s = String::from("id");
        for it in &m.items {
            write!(s, ",{}", it.id).unwrap();
        }
        for (i, r) in m.respondents.iter().enumerate() {
            write!(s, "\n{}", r.id).unwrap();
            for j in 0..m.n_items() {
                s.push(',');
                if let Some(v) = m.get(i, j) {
                    s.push(if v { '1' } else { '0' });
                }
            }
        }
        s.push('\n');
        s.into_bytes()
    }

    fn bytes(name: &str, data: Vec<u8>) -> Source {
        Source::Bytes {
            name: name.into(),
            data,
        }
    }

    fn request(calibration: Vec<Source>, partial: Vec<Source>) -> EstimateRequest {
        EstimateRequest {
            calibration,
            partial,
            answers: None,
            stage: KivaStages::Cross,
            options: 4,
            min_calibration: None,
        }
    }

    /// MM-IQ predictions files give the estimate the same runs give as matrices: 25
    /// simulated complete runs of 40 items (right = the key's letter `A`, wrong = `B`) and
    /// three partial runs of the first 10 items. The hand-checked figure: the partial runs'
    /// `answered` and `observed` are their predictions counted (respondent 25 has the
    /// simulation's own right answers on items 0-9, counted here from the matrix).
    #[test]
    fn mmiq_predictions_give_the_matrix_estimate() {
        let sim = simulate(&SimOptions {
            respondents: 28,
            items: 40,
            seed: 11,
            ..SimOptions::default()
        })
        .unwrap();
        let m = &sim.matrix;
        // Item ids as MM-IQ data ids.
        let key: String = (0..40)
            .map(|j| format!("{{\"category\": \"Logical Operation\", \"data_id\": {j}, \"answer\": \"A\"}}\n"))
            .collect();
        let preds = |i: usize, upto: usize| -> Vec<u8> {
            (0..upto)
                .map(|j| {
                    let letter = if m.get(i, j) == Some(true) { "A" } else { "B" };
                    format!("{{\"data_id\": {j}, \"parsed_pred\": \"{letter}\"}}\n")
                })
                .collect::<String>()
                .into_bytes()
        };
        let mut full_csv = String::from("id");
        let mut part_csv = String::from("id");
        for j in 0..40 {
            write!(full_csv, ",{j}").unwrap();
            write!(part_csv, ",{j}").unwrap();
        }
        for i in 0..28 {
            let row = if i < 25 { &mut full_csv } else { &mut part_csv };
            write!(row, "\nr{i}").unwrap();
            for j in 0..40 {
                row.push(',');
                if i < 25 || j < 10 {
                    row.push(if m.get(i, j) == Some(true) { '1' } else { '0' });
                }
            }
        }
        let by_matrix = estimate(&request(
            vec![bytes("full.csv", full_csv.into_bytes())],
            vec![bytes("part.csv", part_csv.into_bytes())],
        ))
        .unwrap();
        let mut by_files = request(
            (0..25)
                .map(|i| bytes(&format!("r{i}.jsonl"), preds(i, 40)))
                .collect(),
            (25..28)
                .map(|i| bytes(&format!("r{i}.jsonl"), preds(i, 10)))
                .collect(),
        );
        by_files.answers = Some(bytes("key.jsonl", key.into_bytes()));
        let by_files = estimate(&by_files).unwrap();
        assert_eq!(by_files.estimates, by_matrix.estimates);
        assert_eq!(by_files.calibration, by_matrix.calibration);
        assert_eq!(
            (by_files.calibration.items, by_files.calibration.respondents),
            (40, 25)
        );
        let right: usize = (0..10).filter(|&j| m.get(25, j) == Some(true)).count();
        let e = &by_files.estimates[0];
        assert_eq!((e.id.as_str(), e.answered), ("r25", 10));
        assert_eq!(e.observed, Some(right as f64 / 10.0));
        assert!(e.ci_low <= e.estimate && e.estimate <= e.ci_high);
    }

    /// The real KiVA runs (shared data): two complete run folders calibrate stage 1's 700
    /// trials (a minimum of 2 calibration runs set for the test), and one subdomain file of a
    /// third run is the partial run (50 trials). The folders give what the same runs give as
    /// matrix CSVs; the partial run answered 50 trials and its observed share is its own
    /// stage-1 count.
    #[test]
    fn kiva_run_folders_give_the_matrix_estimate() {
        let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../../../shared/data/kiva/model_data/KiVA");
        if !root.exists() {
            assert!(
                std::env::var("CI").map_or(true, |v| v != "true"),
                "CI=true but {} is missing",
                root.display()
            );
            eprintln!("SKIP: {} not found", root.display());
            return;
        }
        let dir = |d: &str| Source::path(root.join(d).to_string_lossy().into_owned());
        let calibration = vec![dir("gpt4_multi_image"), dir("mantis_multi_image")];
        let partial = vec![dir("gpt4_single_image/output_Colour/ColourRed.csv")];
        let mut by_files = request(calibration.clone(), partial.clone());
        by_files.min_calibration = Some(2);
        let got = estimate(&by_files).unwrap();
        let side = |inputs: Vec<Source>| {
            crate::items::matrix(&ItemsRequest {
                inputs,
                stage: KivaStages::Cross,
                subset: None,
                ..ItemsRequest::default()
            })
            .unwrap()
        };
        let (full, part) = (side(calibration), side(partial));
        let mut by_matrix = request(
            vec![bytes("full.csv", csv(&full))],
            vec![bytes("part.csv", csv(&part))],
        );
        by_matrix.min_calibration = Some(2);
        let want = estimate(&by_matrix).unwrap();
        assert_eq!(got.estimates, want.estimates);
        assert_eq!(
            (got.calibration.items, got.calibration.respondents),
            (700, 2)
        );
        let e = &got.estimates[0];
        assert_eq!(e.answered, 50);
        let right = (0..part.n_items())
            .filter(|&j| part.get(0, j) == Some(true))
            .count();
        assert_eq!(e.observed, Some(right as f64 / 50.0));
    }
}
