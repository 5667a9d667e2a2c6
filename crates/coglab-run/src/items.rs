//! `coglab items`: item analysis across models and humans (issue 22). Inputs:
//! - an MM-IQ answer key and predictions files: one respondent per file;
//! - KiVA: model-run folders (each folder one model, its CSVs found recursively) and/or the
//!   adults' `human_adults_KiVA.csv` (one respondent per participant);
//! - otherwise one response-matrix CSV (respondent id, then 1/0/empty per item).

use coglab_core::items::anchor::{anchor_items, Anchor, AnchorMethod, AnchorOptions};
use coglab_core::items::estimate::{Calibration, CalibrationOptions, CalibrationSummary};
use coglab_core::items::{
    analyse, AnalysisOptions, IrtModel, IrtOptions, ItemAnalysis, ItemsReport, KivaItemOptions,
    KivaStages, ReportOptions, ResponseMatrix, SubsetCriterion, SubsetOptions,
};
use coglab_core::kiva::{score_human, score_model, HumanData, KivaReport};
use coglab_core::mmiq::{score_owned, AnswerKey, Predictions};
use serde::Serialize;
use std::path::Path;

use crate::{csv_files, file_name, is_human, read_bytes, RunError, Source};

/// What `coglab items` reads, and its options.
#[derive(Debug, Clone, PartialEq)]
pub struct ItemsRequest {
    /// IRT model (default 2PL).
    pub model: IrtModel,
    /// MM-IQ answer key: the inputs are MM-IQ predictions files.
    pub answers: Option<Source>,
    /// Input files or folders.
    pub inputs: Vec<Source>,
    /// KiVA stages used as items (default all three).
    pub stage: KivaStages,
    /// KiVA model runs: a trial stage is right when its mean over regenerations is at least
    /// this (default 0.5).
    pub threshold: f64,
    /// Reduced-subset criterion (`None`: no subset).
    pub subset: Option<SubsetCriterion>,
    /// Kendall tau the subset must keep (default 0.95).
    pub target_tau: f64,
    /// Include each item's ICC and information curve.
    pub curves: bool,
    /// KiVA: one item per subdomain and stage instead of per trial.
    pub per_subdomain: bool,
}

impl Default for ItemsRequest {
    fn default() -> Self {
        Self {
            model: IrtModel::TwoPl,
            answers: None,
            inputs: Vec::new(),
            stage: KivaStages::All,
            threshold: 0.5,
            subset: Some(SubsetCriterion::Information),
            target_tau: 0.95,
            curves: false,
            per_subdomain: false,
        }
    }
}

/// The file stem of a path (a model's name from its predictions file or run folder).
fn stem(path: &str) -> String {
    let p = Path::new(path.trim_end_matches('/'));
    p.file_stem()
        .map_or_else(|| path.to_string(), |s| s.to_string_lossy().into_owned())
}

fn mmiq_matrix(key: &Source, inputs: &[Source]) -> Result<ResponseMatrix, RunError> {
    let key = AnswerKey::parse_bytes(&key.file_name(), &key.bytes()?)?;
    let mut reports = Vec::with_capacity(inputs.len());
    for p in inputs {
        let preds = Predictions::parse(&p.file_name(), &p.bytes()?)?;
        reports.push((stem(p.label()), score_owned(&key, preds)?));
    }
    let refs: Vec<(&str, &_)> = reports.iter().map(|(n, r)| (n.as_str(), r)).collect();
    Ok(ResponseMatrix::from_mmiq(&key, &refs)?)
}

/// A file to read (its path) or bytes already in memory (their name and content).
type Listed<'a> = (String, Option<&'a [u8]>);

/// KiVA inputs, or `None` when the inputs are not KiVA files.
fn kiva_matrix(opts: &ItemsRequest) -> Result<Option<ResponseMatrix>, RunError> {
    let mut models: Vec<(String, KivaReport)> = Vec::new();
    let mut human: Option<(String, KivaReport)> = None;
    for input in &opts.inputs {
        // Files are read one by one: the first that is not a KiVA file ends the search.
        let (files, is_dir): (Vec<Listed<'_>>, bool) = match input {
            Source::Path(p) => (
                csv_files(p)?.into_iter().map(|f| (f, None)).collect(),
                Path::new(p).is_dir(),
            ),
            Source::Bytes { name, data } => (vec![(name.clone(), Some(data.as_slice()))], false),
        };
        let mut runs: Vec<(String, Vec<u8>)> = Vec::new();
        for (f, data) in files {
            let bytes = match data {
                Some(d) => d.to_vec(),
                None => read_bytes(&f)?,
            };
            if is_human(&bytes) {
                if let Some((first, _)) = &human {
                    return Err(RunError::Usage(format!(
                        "items: two human data files given ({first} and {f}); give one"
                    )));
                }
                let report = score_human(&HumanData::parse(&file_name(&f), &bytes)?)?;
                human = Some((f, report));
            } else if bytes.starts_with(b"Variation,")
                || bytes.starts_with(b"\xEF\xBB\xBFVariation,")
            {
                runs.push((f, bytes));
            } else if is_dir {
                continue;
            } else {
                return Ok(None);
            }
        }
        if !runs.is_empty() {
            let report = score_model(runs.iter().map(|(p, b)| (p.as_str(), b.as_slice())))?;
            models.push((stem(input.label()), report));
        }
    }
    if models.is_empty() && human.is_none() {
        return Ok(None);
    }
    let refs: Vec<(&str, &KivaReport)> = models.iter().map(|(n, r)| (n.as_str(), r)).collect();
    let kopts = KivaItemOptions {
        stages: opts.stage,
        threshold: opts.threshold,
        per_subdomain: opts.per_subdomain,
    };
    Ok(Some(ResponseMatrix::from_kiva(
        &refs,
        human.as_ref().map(|(_, r)| r),
        &kopts,
    )?))
}

/// Builds the response matrix the request describes.
///
/// # Errors
/// [`RunError::Input`] for unreadable or invalid files, [`RunError::Usage`] for a combination
/// that makes no matrix (e.g. two response-matrix CSVs).
pub fn matrix(opts: &ItemsRequest) -> Result<ResponseMatrix, RunError> {
    if let Some(key) = &opts.answers {
        return mmiq_matrix(key, &opts.inputs);
    }
    if let Some(m) = kiva_matrix(opts)? {
        return Ok(m);
    }
    match opts.inputs.as_slice() {
        [one] => Ok(ResponseMatrix::parse_csv(&one.file_name(), &one.bytes()?)?),
        more => Err(RunError::Usage(format!(
            "items: expected one response-matrix CSV, found {} inputs (KiVA run folders and the \
             adults' CSV may be combined; MM-IQ predictions need --answers KEY)",
            more.len()
        ))),
    }
}

/// `coglab items`: builds the matrix and runs the analysis (serialized as `--json`).
///
/// # Errors
/// As [`matrix`], and [`RunError::Input`] when the matrix cannot be analysed (the message
/// says why: one respondent, everything missing, no item with both right and wrong answers).
pub fn items(opts: &ItemsRequest) -> Result<ItemAnalysis, RunError> {
    let m = matrix(opts)?;
    let aopts = AnalysisOptions {
        irt: IrtOptions {
            model: opts.model,
            item_curves: opts.curves,
            ..IrtOptions::default()
        },
        subset: opts.subset.map(|criterion| SubsetOptions {
            criterion,
            target_tau: opts.target_tau,
            ..SubsetOptions::default()
        }),
        ..AnalysisOptions::default()
    };
    Ok(analyse(&m, &aopts)?)
}

/// `coglab items --json --report`: the page-sized summary the web app shows (item table,
/// respondents, 61-point test information, flagged items' curves, thinned tau curve), built
/// from [`items`]' analysis with the default [`ReportOptions`].
///
/// # Errors
/// As [`items`].
pub fn report(opts: &ItemsRequest) -> Result<ItemsReport, RunError> {
    let a = items(opts)?;
    Ok(coglab_core::items::report(&a, &ReportOptions::default()))
}

/// What `coglab items --subset anchor` asks for.
#[derive(Debug, Clone, PartialEq)]
pub struct AnchorRequest {
    /// Anchors to choose.
    pub k: usize,
    /// How (default: information).
    pub method: AnchorMethod,
    /// Answer options per item: the calibration's guessing floor is `1 / options` (0: none).
    pub options: u32,
}

/// The anchors `coglab items --subset anchor --json` prints.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AnchorOutput {
    /// The anchor items (id, column, weight, calibrated `a` and `b`), in pick order.
    pub anchors: Vec<Anchor>,
    /// How they were chosen.
    pub method: AnchorMethod,
    /// Predicted standard deviation of the IRT estimate's error on the anchors (proportion).
    pub predicted_sd: f64,
    /// The calibration they were chosen on (every input respondent).
    pub calibration: CalibrationSummary,
    /// The calibration's notes (items with no answer, non-convergence).
    pub notes: Vec<String>,
}

/// `coglab items --subset anchor --k K`: calibrates the items on every respondent of the
/// request's matrix (2PL with the guessing floor `1 / options`,
/// [`coglab_core::items::estimate::Calibration::fit`]) and chooses `k` anchor items on it
/// ([`coglab_core::items::anchor::anchor_items`]).
///
/// # Errors
/// As [`matrix`]; [`RunError::Input`] when the calibration cannot be fitted or `k` is 0 or
/// more than the calibrated items.
pub fn anchors(opts: &ItemsRequest, req: &AnchorRequest) -> Result<AnchorOutput, RunError> {
    let m = matrix(opts)?;
    let cal = Calibration::fit(
        &m,
        &CalibrationOptions {
            options: req.options,
            ..CalibrationOptions::default()
        },
    )?;
    let set = anchor_items(
        &cal,
        &AnchorOptions {
            k: req.k,
            method: req.method,
            ..AnchorOptions::default()
        },
    )?;
    Ok(AnchorOutput {
        anchors: set.anchors,
        method: set.method,
        predicted_sd: set.predicted_sd,
        calibration: cal.summary(),
        notes: cal.notes,
    })
}
