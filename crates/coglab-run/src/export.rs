//! `coglab export eee`: scored sets as Every Eval Ever 0.2.1 records
//! ([`coglab_core::harness::eee::write_mmiq`], [`coglab_core::harness::eee::write_kiva`]; the
//! web app's download calls the same functions), shared by the CLI and the Python package.
//!
//! [`eee`] scores each set as `coglab score mmiq --items` (or `coglab score kiva --trials`)
//! scores it and hands its records to a callback, one set at a time; [`write_set`] writes one
//! set as `DIR/<model>/<stem>.json` and `.jsonl`.

use std::path::{Path, PathBuf};

use coglab_core::harness::eee::{write_kiva, write_mmiq, EeeRecords};
use coglab_core::kiva::NullAnswers;
use coglab_core::leaderboard::guess_model;

use crate::mmiq::MmiqScore;
use crate::{RunError, Source};

/// What to export: the arguments of `coglab export eee` other than `--out`.
#[derive(Debug, Clone)]
pub struct EeeRequest {
    /// The MM-IQ answer key the sets are scored with; `None` for KiVA (`--kiva`).
    pub answers: Option<Source>,
    /// MM-IQ: predictions or harness files, one set each. KiVA: one run's files or folders (or
    /// people's data), one set together.
    pub scored: Vec<Source>,
    /// The model's name (default: named by the file, else guessed from its path).
    pub model: Option<String>,
    /// The `retrieved_timestamp` written (Unix seconds).
    pub timestamp: u64,
}

/// Which benchmark a set's records are of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EeeBench {
    /// MM-IQ (one instance record per item).
    Mmiq,
    /// KiVA (one instance record per trial and stage score).
    Kiva,
}

/// One scored set's records.
#[derive(Debug, Clone)]
pub struct EeeSet {
    /// The benchmark.
    pub bench: EeeBench,
    /// The input the set was scored from (MM-IQ: its path or name; KiVA: the inputs, joined by
    /// spaces).
    pub source: String,
    /// The model's name the records carry.
    pub model: String,
    /// The file stem: `MM-IQ_<timestamp>`, or KiVA's `<variant>_<timestamp>`.
    pub stem: String,
    /// Items (MM-IQ) or trials (KiVA) scored.
    pub count: usize,
    /// The records, as written.
    pub records: EeeRecords,
}

/// A file-system-safe name part (letters, digits, `-`, `_`, `.`; others become `_`).
pub fn safe_name(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-_.".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// Writes one set's two records as `DIR/<model>/<stem>.json` (aggregate) and `.jsonl`
/// (instances), the model's name made safe ([`safe_name`]); their paths.
///
/// # Errors
/// [`RunError::Input`] naming the folder when it cannot be made or written to.
pub fn write_set(out: &Path, set: &EeeSet) -> Result<(PathBuf, PathBuf), RunError> {
    let dir = out.join(safe_name(&set.model));
    let fail = |e: std::io::Error| RunError::input(format!("{}: cannot write: {e}", dir.display()));
    std::fs::create_dir_all(&dir).map_err(fail)?;
    let aggregate = dir.join(format!("{}.json", set.stem));
    let instances = dir.join(format!("{}.jsonl", set.stem));
    std::fs::write(&aggregate, &set.records.aggregate).map_err(fail)?;
    std::fs::write(&instances, &set.records.instances).map_err(fail)?;
    Ok((aggregate, instances))
}

/// `coglab export eee`: each set scored and written as EEE records, handed to `each` in turn
/// (the CLI writes each set before the next is scored). With an answer key, each `scored` input
/// is an MM-IQ set; without one, the inputs are one KiVA run scored as `coglab score kiva`
/// scores it (the KiVA repository's rule for answers naming no option).
///
/// # Errors
/// [`RunError::Usage`] for `model` with more than one MM-IQ set, or no input;
/// [`RunError::Input`] for an input that cannot be scored, or a summary file (its records need
/// items); `each`'s error.
pub fn eee(
    request: &EeeRequest,
    mut each: impl FnMut(EeeSet) -> Result<(), RunError>,
) -> Result<(), RunError> {
    let Some(first) = request.scored.first() else {
        return Err(RunError::Usage(
            "export eee: give at least one scored set".into(),
        ));
    };
    let stamp = request.timestamp.to_string();
    let Some(answers) = &request.answers else {
        let scored = crate::kiva::score(&request.scored, None, true, NullAnswers::default())?;
        let report = scored.report;
        let model = request
            .model
            .clone()
            .unwrap_or_else(|| guess_model(first.label()));
        let records = write_kiva(&report, &model, &stamp)?;
        let labels: Vec<&str> = request.scored.iter().map(Source::label).collect();
        return each(EeeSet {
            bench: EeeBench::Kiva,
            source: labels.join(" "),
            model,
            stem: format!("{}_{stamp}", report.variant.name()),
            count: report.trials.len(),
            records,
        });
    };
    if request.model.is_some() && request.scored.len() > 1 {
        return Err(RunError::Usage(
            "--model names one scored set; give one SCORED file with it".into(),
        ));
    }
    for source in &request.scored {
        let path = source.label();
        let report = match crate::mmiq::score(answers, source, true, drop)? {
            MmiqScore::Scored { report, .. } => report,
            _ => {
                return Err(RunError::in_file(
                    path,
                    format!("{path}: a summary without items; EEE instance records need a scored predictions file"),
                ))
            }
        };
        let model = request
            .model
            .clone()
            .or_else(|| report.harness.as_ref().and_then(|h| h.model.clone()))
            .unwrap_or_else(|| guess_model(path));
        let records = write_mmiq(&report, &model, &stamp)?;
        each(EeeSet {
            bench: EeeBench::Mmiq,
            source: path.to_string(),
            model,
            stem: format!("MM-IQ_{stamp}"),
            count: report.items.len(),
            records,
        })?;
    }
    Ok(())
}
