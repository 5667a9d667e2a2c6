//! `coglab export eee`: scored sets as Every Eval Ever 0.3.0 records
//! ([`coglab_core::harness::eee::write_mmiq`], [`coglab_core::harness::eee::write_kiva`]; the
//! web app's download calls the same functions), shared by the CLI and the Python package.
//!
//! [`eee`] scores each set as `coglab score mmiq --items` (or `coglab score kiva --trials`)
//! scores it and hands its records to a callback, one set at a time; [`SetWriter`] writes each
//! set as `DIR/<model>/<stem>.json` and `.jsonl`, the model's name made one safe path
//! component ([`safe_name`]) and a name already taken suffixed (`<stem>_2`), never overwritten.
//! The aggregate's `detailed_evaluation_results.file_path` names where the pair belongs in the
//! Every Eval Ever datastore (`data/<benchmark>/<developer>/<model>/<uuid>_samples.jsonl`, as
//! 0.3.0 requires), not these local names: a submission renames the files to that uuid.

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

/// The longest folder name [`safe_name`] makes (characters, all ASCII): a model name from a log
/// can be of any length, and a path component may be at most 255 bytes on common file systems.
pub const MAX_NAME_CHARS: usize = 100;

/// A model's name as one safe path component: letters, digits, `-`, `_` and `.` kept, any
/// other character (`/`, `\`, NUL, control characters, spaces, non-ASCII) made `_`; a leading
/// `.` made `_` (so neither `.`, `..` nor a hidden name); at most [`MAX_NAME_CHARS`]
/// characters; `model` when nothing is left.
///
/// # Examples
/// ```
/// use coglab_run::export::safe_name;
/// assert_eq!(safe_name("openai/gpt-4o"), "openai_gpt-4o");
/// assert_eq!(safe_name(".."), "_.");
/// assert_eq!(safe_name("../../etc"), "_._.._etc");
/// assert_eq!(safe_name(".hidden"), "_hidden");
/// assert_eq!(safe_name("a\0b\nc"), "a_b_c");
/// assert_eq!(safe_name(""), "model");
/// ```
pub fn safe_name(name: &str) -> String {
    let mut out: String = name
        .chars()
        .take(MAX_NAME_CHARS)
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-_.".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    if out.starts_with('.') {
        out.replace_range(..1, "_");
    }
    if out.is_empty() {
        out.push_str("model");
    }
    out
}

/// Where one set was written, and why its names are not the plain ones when they are not.
#[derive(Debug, Clone)]
pub struct Written {
    /// The aggregate record (`.json`).
    pub aggregate: PathBuf,
    /// The instance records (`.jsonl`).
    pub instances: PathBuf,
    /// What was renamed and why (the model's folder, a file name taken), for the output.
    pub notes: Vec<String>,
}

/// Writes the sets of one export under `out` ([`SetWriter::write`]), remembering the files it
/// wrote, so that a second set with the same model and time does not overwrite the first.
#[derive(Debug)]
pub struct SetWriter {
    out: PathBuf,
    written: std::collections::HashSet<PathBuf>,
}

impl SetWriter {
    /// A writer into the folder `out`.
    pub fn new(out: &Path) -> Self {
        Self {
            out: out.to_path_buf(),
            written: Default::default(),
        }
    }

    /// Writes one set's two records as `OUT/<model>/<stem>.json` (aggregate) and `.jsonl`
    /// (instances), the model's name made one safe path component ([`safe_name`]). When either
    /// file is taken (written for another set of this export, or already there) the set is
    /// written as `<stem>_2`, `<stem>_3`, ...: nothing is overwritten, and the notes say so.
    ///
    /// # Errors
    /// [`RunError::Input`] naming the folder or file when it cannot be made or written to, or
    /// when 1,000 names are taken.
    pub fn write(&mut self, set: &EeeSet) -> Result<Written, RunError> {
        let folder = safe_name(&set.model);
        let mut notes = Vec::new();
        if folder != set.model {
            notes.push(format!(
                "model {:?} written as the folder {folder:?}",
                set.model
            ));
        }
        let dir = self.out.join(&folder);
        let fail = |p: &Path, e: std::io::Error| {
            RunError::input(format!("{}: cannot write: {e}", p.display()))
        };
        std::fs::create_dir_all(&dir).map_err(|e| fail(&dir, e))?;
        // A link in place of the model's folder would send the files elsewhere.
        if std::fs::symlink_metadata(&dir).is_ok_and(|m| m.file_type().is_symlink()) {
            return Err(RunError::input(format!(
                "{}: a symbolic link; export eee writes only into folders inside --out",
                dir.display()
            )));
        }
        let taken = |p: &Path| std::fs::symlink_metadata(p).is_ok();
        let plain = format!("{}.json", set.stem);
        for n in 1..=1000u32 {
            let stem = if n == 1 {
                set.stem.clone()
            } else {
                format!("{}_{n}", set.stem)
            };
            let aggregate = dir.join(format!("{stem}.json"));
            let instances = dir.join(format!("{stem}.jsonl"));
            if taken(&aggregate) || taken(&instances) {
                continue;
            }
            if n > 1 {
                let why = if self.written.contains(&dir.join(&plain)) {
                    "was written for another input in this export"
                } else {
                    "already exists"
                };
                notes.push(format!("{plain} {why}: written as {stem}.json"));
            }
            for (path, text) in [
                (&aggregate, &set.records.aggregate),
                (&instances, &set.records.instances),
            ] {
                let mut f = std::fs::OpenOptions::new()
                    .write(true)
                    .create_new(true)
                    .open(path)
                    .map_err(|e| fail(path, e))?;
                std::io::Write::write_all(&mut f, text.as_bytes()).map_err(|e| fail(path, e))?;
                self.written.insert(path.clone());
            }
            return Ok(Written {
                aggregate,
                instances,
                notes,
            });
        }
        Err(RunError::input(format!(
            "{}: {} and 999 suffixed names are all taken",
            dir.display(),
            plain
        )))
    }
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
