//! `coglab export eee`: scored sets as Every Eval Ever 0.3.0 records
//! ([`coglab_core::harness::eee`]: `write_mmiq`, `write_kiva`, `write_mmopera`, `write_gold`;
//! the web app's download calls the first two), and `coglab export hf`: one model's headline
//! metrics as Hugging Face Eval Results entries ([`coglab_core::harness::hf`], written as YAML
//! here), shared by the CLI and the Python package.
//!
//! [`eee`] scores each set as `coglab score mmiq --items` (or `coglab score kiva --trials`)
//! scores it and hands its records to a callback, one set at a time; [`eee_mmopera`] and
//! [`eee_gold`] do the same for one MM-OPERA task (`coglab score mmopera`) and for each model
//! of a Gold score matrix (`coglab sem`). [`SetWriter`] writes each set as
//! `DIR/<model>/<stem>.json` and `.jsonl` (no `.jsonl` for a set without instance records),
//! the model's name made one safe path component ([`safe_name`]) and a name already taken
//! suffixed (`<stem>_2`), never overwritten. The aggregate's
//! `detailed_evaluation_results.file_path` names where the pair belongs in the Every Eval Ever
//! datastore (`data/<benchmark>/<developer>/<model>/<uuid>_samples.jsonl`, as 0.3.0 requires),
//! not these local names: a submission renames the files to that uuid.
//!
//! [`hf`] scores one set and builds its entries and YAML; [`write_hf`] writes them as
//! `DIR/.eval_results/<benchmark>.yaml`, created new, never through a link. The model's name is
//! checked to be a Hub id and is never part of a path.

use std::path::{Path, PathBuf};

use coglab_core::harness::eee::{
    write_gold, write_kiva, write_mmiq, write_mmopera, EeeRecords, MmoperaJudges, MMOPERA_JUDGE,
};
use coglab_core::kiva::NullAnswers;
use coglab_core::leaderboard::guess_model;

use crate::mmiq::MmiqScore;
use crate::mmopera::MmoperaInputs;
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
    /// MM-OPERA, one task (one instance record per holistic verdict).
    Mmopera,
    /// Gold (one aggregate record per model of the score matrix, no instance records).
    Gold,
}

impl EeeBench {
    /// What a set's `count` counts: `items`, `trials`, `verdicts` or `results`.
    pub fn counted(self) -> &'static str {
        match self {
            EeeBench::Mmiq => "items",
            EeeBench::Kiva => "trials",
            EeeBench::Mmopera => "verdicts",
            EeeBench::Gold => "results",
        }
    }
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
    /// The file stem: `MM-IQ_<timestamp>`, KiVA's `<variant>_<timestamp>`,
    /// `MM-OPERA-<task>_<timestamp>` or `Gold_<timestamp>`.
    pub stem: String,
    /// Items (MM-IQ), trials (KiVA), holistic verdicts (MM-OPERA) or results (Gold) written
    /// ([`EeeBench::counted`]).
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
    /// The instance records (`.jsonl`); `None` for a set without them (Gold).
    pub instances: Option<PathBuf>,
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
    /// (instances; none for a set without instance records), the model's name made one safe path component ([`safe_name`]). When either
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
            let has_instances = !set.records.instances.is_empty();
            let pairs = [
                (&aggregate, &set.records.aggregate),
                (&instances, &set.records.instances),
            ];
            for (path, text) in &pairs[..if has_instances { 2 } else { 1 }] {
                let mut f = std::fs::OpenOptions::new()
                    .write(true)
                    .create_new(true)
                    .open(path)
                    .map_err(|e| fail(path, e))?;
                std::io::Write::write_all(&mut f, text.as_bytes()).map_err(|e| fail(path, e))?;
                self.written.insert((*path).clone());
            }
            return Ok(Written {
                aggregate,
                instances: has_instances.then_some(instances),
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

/// What `coglab export eee --mmopera` exports: one model's judge files on one task, scored as
/// `coglab score mmopera` scores them.
#[derive(Debug, Clone)]
pub struct MmoperaEeeRequest {
    /// The task, metadata, judge files and (optionally) the model's answers.
    pub inputs: MmoperaInputs,
    /// The scoring options (`ScoreOptions::default()` is the released code's).
    pub options: coglab_core::mmopera::score::ScoreOptions,
    /// The judge models: none (MM-OPERA's released judge, [`MMOPERA_JUDGE`], for every file),
    /// one (for every file), or one per judge file, regular files first.
    pub judges: Vec<String>,
    /// The model's name (default: from the first judge file's name,
    /// [`coglab_core::leaderboard::mmopera::model_of`]).
    pub model: Option<String>,
    /// The `retrieved_timestamp` written (Unix seconds).
    pub timestamp: u64,
}

/// The judge of each judge file: `names` as [`MmoperaEeeRequest::judges`] says.
fn judges_of(inputs: &MmoperaInputs, names: &[String]) -> Result<MmoperaJudges, RunError> {
    let (nr, ns) = (inputs.regular.len(), inputs.reasoning.len());
    let all = |name: &str| MmoperaJudges {
        regular: vec![name.to_string(); nr],
        reasoning: vec![name.to_string(); ns],
    };
    match names {
        [] => Ok(all(MMOPERA_JUDGE)),
        [one] => Ok(all(one)),
        many if many.len() == nr + ns => Ok(MmoperaJudges {
            regular: many[..nr].to_vec(),
            reasoning: many[nr..].to_vec(),
        }),
        many => Err(RunError::Usage(format!(
            "--judge: expected one judge model for all judge files, or one per judge file \
             ({nr} regular + {ns} reasoning = {}), found {}",
            nr + ns,
            many.len()
        ))),
    }
}

/// `coglab export eee --mmopera`: the task scored (items kept) and written as EEE records
/// ([`write_mmopera`]).
///
/// # Errors
/// [`RunError::Usage`] without a regular judge file, or for a judge list of the wrong length;
/// [`RunError::Input`] for files that cannot be scored.
pub fn eee_mmopera(request: &MmoperaEeeRequest) -> Result<EeeSet, RunError> {
    let Some(first) = request.inputs.regular.first() else {
        return Err(RunError::Usage(
            "export eee --mmopera: --regular is required (SR, HR-3, HR-4 and ΔHR and the \
             instance records come from the holistic judge files)"
                .into(),
        ));
    };
    let judges = judges_of(&request.inputs, &request.judges)?;
    let scored = crate::mmopera::score(&request.inputs, &request.options, true)?;
    let report = scored.report;
    let model = request
        .model
        .clone()
        .unwrap_or_else(|| coglab_core::leaderboard::mmopera::model_of(first.label()));
    let stamp = request.timestamp.to_string();
    let records = write_mmopera(
        &report,
        &model,
        &stamp,
        &judges,
        request.options.invalid_scores,
    )?;
    let labels: Vec<&str> = request
        .inputs
        .regular
        .iter()
        .chain(&request.inputs.reasoning)
        .map(Source::label)
        .collect();
    Ok(EeeSet {
        bench: EeeBench::Mmopera,
        source: labels.join(" "),
        model,
        stem: format!("MM-OPERA-{}_{stamp}", report.task.name()),
        count: records.instances.lines().count(),
        records,
    })
}

/// What `coglab export eee --gold` exports: a score matrix analysed as `coglab sem` analyses
/// it.
#[derive(Debug, Clone)]
pub struct GoldEeeRequest {
    /// The model specification.
    pub spec: Source,
    /// The score matrix (models x tasks).
    pub data: Source,
    /// The analysis options.
    pub options: coglab_core::sem::SemOptions,
    /// Only this model's record (default: every model's).
    pub model: Option<String>,
    /// The `retrieved_timestamp` written (Unix seconds).
    pub timestamp: u64,
}

/// `coglab export eee --gold`: the analysis run and each model's weighted scores written as an
/// EEE aggregate record ([`write_gold`]), handed to `each` in turn.
///
/// # Errors
/// [`RunError::Input`] for files that cannot be analysed, or `model` not among the models
/// analysed (naming them); `each`'s error.
pub fn eee_gold(
    request: &GoldEeeRequest,
    mut each: impl FnMut(EeeSet) -> Result<(), RunError>,
) -> Result<(), RunError> {
    let report = crate::sem::sem(&request.spec, &request.data, &request.options)?;
    let stamp = request.timestamp.to_string();
    let sets = write_gold(
        &report,
        &request.data.file_name(),
        &request.spec.file_name(),
        &stamp,
    )?;
    if let Some(m) = &request.model {
        if !sets.iter().any(|(name, _)| name == m) {
            let names: Vec<&str> = sets.iter().map(|(n, _)| n.as_str()).take(20).collect();
            return Err(RunError::in_file(
                request.data.label(),
                format!(
                    "{}: no model {m:?} among the {} models analysed ({}{})",
                    request.data.label(),
                    sets.len(),
                    names.join(", "),
                    if sets.len() > 20 { ", ..." } else { "" }
                ),
            ));
        }
    }
    for (model, records) in sets {
        if request.model.as_ref().is_some_and(|m| *m != model) {
            continue;
        }
        let count = serde_json::from_str::<serde_json::Value>(&records.aggregate)
            .ok()
            .and_then(|v| v["evaluation_results"].as_array().map(Vec::len))
            .unwrap_or(0);
        each(EeeSet {
            bench: EeeBench::Gold,
            source: request.data.label().to_string(),
            model,
            stem: format!("Gold_{stamp}"),
            count,
            records,
        })?;
    }
    Ok(())
}

/// The scored set `coglab export hf` writes entries for.
#[derive(Debug, Clone)]
pub enum HfInput {
    /// One MM-IQ predictions or harness file and its key.
    Mmiq {
        /// The answer key.
        answers: Source,
        /// The predictions.
        scored: Source,
    },
    /// One KiVA run's files or folders (or people's data).
    Kiva {
        /// The inputs, as `coglab score kiva` takes them.
        scored: Vec<Source>,
    },
    /// One model's MM-OPERA judge files on one task.
    Mmopera {
        /// The task, metadata and judge files.
        inputs: MmoperaInputs,
        /// The scoring options.
        options: coglab_core::mmopera::score::ScoreOptions,
    },
}

/// What `coglab export hf` exports.
#[derive(Debug, Clone)]
pub struct HfRequest {
    /// The scored set.
    pub input: HfInput,
    /// The model's Hub id (`org/name`).
    pub model: String,
    /// The dataset id (default: the benchmark's, [`coglab_core::harness::hf`]).
    pub dataset_id: Option<String>,
    /// The entries' date (`YYYY-MM-DD`).
    pub date: String,
    /// The source link (default: the model's Hub page).
    pub source_url: Option<String>,
    /// The source's name (default: `coglab`).
    pub source_name: Option<String>,
}

/// One benchmark's entries, ready to write.
#[derive(Debug, Clone)]
pub struct HfExport {
    /// The file name inside `.eval_results/`: `mmiq.yaml`, `kiva.yaml` / `kiva-adults.yaml`,
    /// `mmopera_ria.yaml` / `mmopera_ica.yaml`.
    pub file_name: String,
    /// The entries.
    pub entries: Vec<coglab_core::harness::hf::HfEntry>,
    /// The entries as YAML (a list of mappings).
    pub yaml: String,
    /// What the reader should know (a default dataset id that is no Hub dataset).
    pub notes: Vec<String>,
}

/// `coglab export hf`: the set scored as the other commands score it and its headline metrics
/// as Hugging Face Eval Results entries ([`coglab_core::harness::hf`]), written as YAML by
/// [`coglab_core::harness::hf::to_yaml`]. Nothing is written here ([`write_hf`] writes).
///
/// # Errors
/// [`RunError::Usage`] for a model or dataset id that is not a Hub id `org/name`, a date that is
/// not `YYYY-MM-DD`, a source URL that is not an `http(s)://` link on one line, more than one
/// MM-IQ file; [`RunError::Input`] for inputs that cannot be scored (an MM-IQ summary file
/// among them: the interval needs the items).
pub fn hf(request: &HfRequest) -> Result<HfExport, RunError> {
    use coglab_core::harness::hf;
    let common = hf::common(
        &request.model,
        request.dataset_id.as_deref(),
        &request.date,
        request.source_url.as_deref(),
        request.source_name.as_deref(),
    )
    .map_err(|e| RunError::Usage(format!("--{}: {}", e.field, e.message)))?;
    let mut notes = Vec::new();
    let (file_name, entries) = match &request.input {
        HfInput::Mmiq { answers, scored } => {
            let path = scored.label();
            let report = match crate::mmiq::score(answers, scored, true, drop)? {
                MmiqScore::Scored { report, .. } => report,
                _ => {
                    return Err(RunError::in_file(
                        path,
                        format!("{path}: a summary without items; export hf needs a scored predictions file (the interval needs the items)"),
                    ))
                }
            };
            ("mmiq.yaml".to_string(), hf::mmiq_entries(&report, &common))
        }
        HfInput::Kiva { scored } => {
            let report = crate::kiva::score(scored, None, true, NullAnswers::default())?.report;
            if request.dataset_id.is_none() {
                notes.push(format!(
                    "KiVA has no Hub dataset coglab knows of: the entries name {}, KiVA's GitHub repository; give --dataset-id for a Hub copy",
                    hf::KIVA_DATASET
                ));
            }
            (
                hf::kiva_file_name(report.variant),
                hf::kiva_entries(&report, &common),
            )
        }
        HfInput::Mmopera { inputs, options } => {
            let report = crate::mmopera::score(inputs, options, true)?.report;
            let files: Vec<&str> = report
                .holistic
                .as_ref()
                .map(|h| h.files.iter().map(String::as_str).collect())
                .unwrap_or_default();
            let items: Vec<_> = report
                .items
                .iter()
                .map(|it| {
                    coglab_core::leaderboard::mmopera::item_score(
                        it,
                        &files,
                        options.invalid_scores,
                    )
                })
                .collect();
            (
                format!("mmopera_{}.yaml", report.task.name().to_ascii_lowercase()),
                hf::mmopera_entries(&report, &items, &common),
            )
        }
    };
    if entries.is_empty() {
        return Err(RunError::input(format!(
            "{file_name}: no headline metric to write (nothing scored)"
        )));
    }
    let yaml = hf::to_yaml(&entries)
        .map_err(|e| RunError::input(format!("{file_name}: cannot write YAML: {e}")))?;
    Ok(HfExport {
        file_name,
        entries,
        yaml,
        notes,
    })
}

/// Writes `export` as `out/.eval_results/<file_name>`: `out` and `.eval_results` made when
/// missing, the file created new (an existing file is not overwritten, and a link in place of
/// `.eval_results` is refused, so nothing is written outside `out`). On a failed write the file
/// (and a `.eval_results` folder this call made) is removed again: only what it wrote.
///
/// # Errors
/// [`RunError::Input`] naming the path when it exists, is a link, or cannot be written.
pub fn write_hf(out: &Path, export: &HfExport) -> Result<PathBuf, RunError> {
    let fail = |p: &Path, e: std::io::Error| {
        RunError::input(format!("{}: cannot write: {e}", p.display()))
    };
    std::fs::create_dir_all(out).map_err(|e| fail(out, e))?;
    let dir = out.join(".eval_results");
    let made_dir = match std::fs::symlink_metadata(&dir) {
        Ok(m) if m.file_type().is_symlink() || !m.is_dir() => {
            return Err(RunError::input(format!(
                "{}: not a folder (a link or a file); export hf writes only into a .eval_results folder inside --out",
                dir.display()
            )))
        }
        Ok(_) => false,
        Err(_) => {
            std::fs::create_dir(&dir).map_err(|e| fail(&dir, e))?;
            true
        }
    };
    let path = dir.join(&export.file_name);
    let undo = |created_file: bool| {
        if created_file {
            let _ = std::fs::remove_file(&path);
        }
        if made_dir {
            let _ = std::fs::remove_dir(&dir);
        }
    };
    let mut f = match std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&path)
    {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            undo(false);
            return Err(RunError::input(format!(
                "{}: already exists; export hf does not overwrite it (move it away, or merge the entries by hand)",
                path.display()
            )));
        }
        Err(e) => {
            undo(false);
            return Err(fail(&path, e));
        }
    };
    if let Err(e) = std::io::Write::write_all(&mut f, export.yaml.as_bytes()) {
        drop(f);
        undo(true);
        return Err(fail(&path, e));
    }
    Ok(path)
}

/// What `coglab export hf --bundle DIR` exports: one model's published rows.
#[derive(Debug, Clone)]
pub struct HfBundleRequest {
    /// The bundle folder `coglab publish` wrote.
    pub bundle: PathBuf,
    /// The model's Hub id (`org/name`).
    pub model: String,
    /// The model's name in the bundle, when it is not the Hub id or its `name` part.
    pub bundle_model: Option<String>,
    /// The dataset id (default: each benchmark's).
    pub dataset_id: Option<String>,
    /// The entries' date (`YYYY-MM-DD`).
    pub date: String,
    /// The source link (default: the model's Hub page).
    pub source_url: Option<String>,
    /// The source's name (default: `coglab`).
    pub source_name: Option<String>,
}

/// The model of a bundle's index that `request` names: the one named `bundle_model` when
/// given, else the one whose name is the Hub id or its `name` part (letter case aside) or whose
/// `source` is the model's Hub page.
fn bundle_model<'a>(
    index: &'a coglab_core::publish::Index,
    request: &HfBundleRequest,
) -> Result<&'a coglab_core::publish::bundle::ModelIndex, RunError> {
    let names = || {
        index
            .models
            .iter()
            .map(|m| m.name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let shown = request.bundle.display();
    if let Some(name) = &request.bundle_model {
        return index
            .models
            .iter()
            .find(|m| &m.name == name)
            .ok_or_else(|| {
                RunError::Usage(format!(
                    "--bundle-model {name:?}: no such model in {shown} (its models: {})",
                    names()
                ))
            });
    }
    let id = request.model.as_str();
    let short = id.rsplit('/').next().unwrap_or(id);
    let page = format!("https://huggingface.co/{id}");
    let found: Vec<_> = index
        .models
        .iter()
        .filter(|m| {
            m.name.eq_ignore_ascii_case(id)
                || m.name.eq_ignore_ascii_case(short)
                || m.meta.source.as_deref().map(|s| s.trim_end_matches('/')) == Some(page.as_str())
        })
        .collect();
    match found[..] {
        [m] => Ok(m),
        [] => Err(RunError::Usage(format!(
            "--model {id}: no model of {shown} is named {id} or {short} or has {page} as its source; \
             give its name with --bundle-model (its models: {})",
            names()
        ))),
        _ => Err(RunError::Usage(format!(
            "--model {id}: {} models of {shown} match ({}); give one with --bundle-model",
            found.len(),
            found.iter().map(|m| m.name.as_str()).collect::<Vec<_>>().join(", ")
        ))),
    }
}

/// `coglab export hf --bundle DIR`: the Hugging Face Eval Results entries of one model's
/// published MM-IQ and KiVA rows, computed from what the bundle holds
/// ([`coglab_core::harness::hf::bundle_entries`]) so that each file equals the one
/// [`hf`] writes from the result files the row was published from. One [`HfExport`] per
/// benchmark; MM-OPERA and Gold rows are not exported from a bundle (a note says so). Reads
/// only the bundle's `index.json` and the model's chunk, inside `DIR` and not through a link.
///
/// # Errors
/// [`RunError::Usage`] for the arguments [`hf`] checks, a model the bundle does not have (or
/// more than one that match), or a model with no MM-IQ or KiVA row; [`RunError::Input`] for a
/// bundle that cannot be read.
pub fn hf_bundle(request: &HfBundleRequest) -> Result<Vec<HfExport>, RunError> {
    use coglab_core::harness::hf;
    use coglab_core::publish::bundle::ModelChunk;
    let common = hf::common(
        &request.model,
        request.dataset_id.as_deref(),
        &request.date,
        request.source_url.as_deref(),
        request.source_name.as_deref(),
    )
    .map_err(|e| RunError::Usage(format!("--{}: {}", e.field, e.message)))?;
    let index = crate::publish::read_index(&request.bundle)?;
    let model = bundle_model(&index, request)?;
    let chunk_path = request.bundle.join(&model.chunk).display().to_string();
    let needs_chunk = model.runs.iter().any(|r| {
        matches!(
            r.figures,
            coglab_core::publish::bundle::Figures::Kiva { .. }
        )
    });
    let chunk: Option<ModelChunk> = if needs_chunk {
        let bytes = crate::publish::read_in_bundle(&request.bundle, &model.chunk)?;
        Some(serde_json::from_slice(&bytes).map_err(|e| {
            RunError::in_file(&chunk_path, format!("{chunk_path}: not a model chunk: {e}"))
        })?)
    } else {
        None
    };
    let mut out = Vec::new();
    let mut skipped = Vec::new();
    for run in &model.runs {
        let items = chunk
            .as_ref()
            .and_then(|c| c.runs.iter().find(|r| r.benchmark == run.benchmark))
            .map(|r| &r.items);
        let Some((file_name, entries)) = hf::bundle_entries(run, items, &common)
            .map_err(|e| RunError::in_file(&chunk_path, format!("{chunk_path}: {e}")))?
        else {
            skipped.push(run.benchmark.label());
            continue;
        };
        let mut notes = Vec::new();
        if file_name.starts_with("kiva") && request.dataset_id.is_none() {
            notes.push(format!(
                "KiVA has no Hub dataset coglab knows of: the entries name {}, KiVA's GitHub repository; give --dataset-id for a Hub copy",
                hf::KIVA_DATASET
            ));
        }
        let yaml = hf::to_yaml(&entries)
            .map_err(|e| RunError::input(format!("{file_name}: cannot write YAML: {e}")))?;
        out.push(HfExport {
            file_name,
            entries,
            yaml,
            notes,
        });
    }
    if let (Some(first), false) = (out.first_mut(), skipped.is_empty()) {
        first.notes.push(format!(
            "not exported from a bundle: {} (export them from their files)",
            skipped.join(", ")
        ));
    }
    if out.is_empty() {
        return Err(RunError::Usage(format!(
            "{}: model {:?} has no published MM-IQ or KiVA row to export{}",
            request.bundle.display(),
            model.name,
            if skipped.is_empty() {
                String::new()
            } else {
                format!(" (its rows: {})", skipped.join(", "))
            }
        )));
    }
    Ok(out)
}

/// Writes several exports as [`write_hf`] does, each file created new: none is written when
/// one of them exists already, and on a failed write the files this call wrote are removed
/// again.
///
/// # Errors
/// As [`write_hf`].
pub fn write_hf_all(out: &Path, exports: &[HfExport]) -> Result<Vec<PathBuf>, RunError> {
    for e in exports {
        let path = out.join(".eval_results").join(&e.file_name);
        if std::fs::symlink_metadata(&path).is_ok() {
            return Err(RunError::input(format!(
                "{}: already exists; export hf does not overwrite it (move it away, or merge the entries by hand); nothing was written",
                path.display()
            )));
        }
    }
    let dir = out.join(".eval_results");
    let had_dir = std::fs::symlink_metadata(&dir).is_ok();
    let mut written = Vec::new();
    for e in exports {
        match write_hf(out, e) {
            Ok(p) => written.push(p),
            Err(err) => {
                for p in &written {
                    let _ = std::fs::remove_file(p);
                }
                if !had_dir {
                    // Only when it is empty again: nothing but what this call wrote was there.
                    let _ = std::fs::remove_dir(&dir);
                }
                return Err(err);
            }
        }
    }
    Ok(written)
}
