//! Leaderboard support: detecting result files across benchmarks, scoring a batch of dropped
//! files into computed rows, tie-aware ranks from intervals, and table exports.
//!
//! The web app's worker calls [`score_files`]; the page renders what it returns.

pub mod detail;
pub mod detect;
pub mod export;
pub mod gold;
pub mod metrics;
pub mod mmopera;
pub mod ranks;

use crate::kiva::{score_human, score_model, HumanData, KivaReport, NullAnswers, StageStats};
use crate::mmiq::{self, AnswerKey, MmiqReport, Predictions};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[cfg(feature = "parquet")]
pub use detect::detect_parquet;
pub use detect::{detect, detect_format, guess_model, unreadable, Format};
pub use export::{to_csv, to_json, to_latex, Table};
pub use ranks::{board_ranks, tie_ranks};

/// What a dropped file was recognised as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum FileKind {
    /// MM-IQ answer key (`MMIQ_benchmark_answer_dict.jsonl`).
    MmiqKey,
    /// MM-IQ predictions JSONL.
    MmiqPredictions,
    /// A VLMEvalKit MM-IQ prediction table (xlsx, tsv, csv, json).
    MmiqTable,
    /// A VLMEvalKit `*_acc.csv` summary.
    MmiqAcc,
    /// A KiVA model-run CSV (one subdomain).
    KivaRun,
    /// The KiVA adult human data CSV.
    KivaHuman,
    /// An MM-OPERA results, judge or metadata file.
    Mmopera,
    /// A models × tasks score matrix (CSV/TSV/JSON, OpenVLM JSON) for Gold's weighted scores.
    ScoreMatrix,
    /// A file another harness wrote ([`crate::harness`]: lmms-eval, Inspect, Every Eval Ever,
    /// jsPsych, the KiVA challenge), mapped onto the benchmark's items.
    Harness,
    /// Not recognised.
    Unknown,
}

impl FileKind {
    /// A short human-readable name.
    pub fn label(self) -> &'static str {
        match self {
            FileKind::MmiqKey => "MM-IQ answer key",
            FileKind::MmiqPredictions => "MM-IQ predictions (JSONL)",
            FileKind::MmiqTable => "MM-IQ VLMEvalKit table",
            FileKind::MmiqAcc => "MM-IQ VLMEvalKit _acc.csv",
            FileKind::KivaRun => "KiVA model run (CSV)",
            FileKind::KivaHuman => "KiVA adult human data",
            FileKind::Mmopera => "MM-OPERA answers, judge scores or metadata",
            FileKind::ScoreMatrix => "score matrix (models × tasks)",
            FileKind::Harness => {
                "harness file (lmms-eval, Inspect, Every Eval Ever, jsPsych, KiVA challenge)"
            }
            FileKind::Unknown => "not recognised",
        }
    }
}

/// One input file of [`score_files`].
#[derive(Debug, Clone, Copy)]
pub struct InputRef<'a> {
    /// Path as given (with folders for a folder drop).
    pub path: &'a str,
    /// The file's bytes.
    pub bytes: &'a [u8],
    /// The model name the user set (else guessed).
    pub model: Option<&'a str>,
}

/// What happened to one file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FileStatus {
    /// Path as given.
    pub file: String,
    /// The kind the file was read as (detected, or chosen by the user).
    pub kind: FileKind,
    /// Model the file's scores are attributed to.
    pub model: String,
    /// Scored, failed, or waiting for a partner file.
    pub status: FileState,
    /// The located error, or why the file was not scored.
    pub message: Option<String>,
}

/// Which kept row a scored row is, as the keeper of the full reports numbers it (the web app's
/// scoring worker, [`Scored::split_details`]): the keeper's generation and the row's number in
/// it. A worker started again (after a Cancel, a crash, or the browser ending it) has another
/// generation, so a row of the one before is known for gone rather than taken for another row
/// of the same number. [`RowId::default`] (generation 0) is a row no one keeps: what
/// [`score_files`] and the command line give.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize, Deserialize,
)]
pub struct RowId {
    /// The keeper's generation (1 for the first worker of a page, 0 for no keeper).
    pub generation: u32,
    /// The row's number among the rows its keeper has numbered (from 1).
    pub n: u32,
}

impl RowId {
    /// The first id a keeper of `generation` gives.
    pub fn first(generation: u32) -> Self {
        Self { generation, n: 1 }
    }

    /// This id, and moves `self` on to the next one.
    pub fn take(&mut self) -> Self {
        let id = *self;
        self.n += 1;
        id
    }
}

/// `GENERATION.N`, e.g. `2.14`: the form a page writes in an option's value and reads back
/// ([`RowId::from_str`](std::str::FromStr)).
impl std::fmt::Display for RowId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}", self.generation, self.n)
    }
}

impl std::str::FromStr for RowId {
    type Err = String;

    /// Reads `GENERATION.N` ([`RowId`]'s `Display`).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || format!("expected a row id GENERATION.N, found {s:?}");
        let (generation, n) = s.split_once('.').ok_or_else(bad)?;
        Ok(Self {
            generation: generation.parse().map_err(|_| bad())?,
            n: n.parse().map_err(|_| bad())?,
        })
    }
}

/// What happened to one file of a scored batch ([`FileStatus::status`]). In JSON it is its
/// lower-case name (`"ok"`, `"error"`, `"unsupported"`, `"waiting"`), as when it was a string.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FileState {
    /// Read and scored (or, for an answer key or metadata, read and used).
    Ok,
    /// Not scored: the message is the located error.
    Error,
    /// Read but not scored here (no file is given it today: a file of no known kind is an
    /// [`FileState::Error`]; the page still counts these apart).
    Unsupported,
    /// Waits for a partner file not among the inputs (predictions without the MM-IQ answer key,
    /// say); the message says which. The page keeps it and scores it when the partner comes.
    Waiting,
}

impl FileState {
    /// The state's name, as in JSON and on the page's badge (`ok`, `error`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            FileState::Ok => "ok",
            FileState::Error => "error",
            FileState::Unsupported => "unsupported",
            FileState::Waiting => "waiting",
        }
    }
}

impl std::fmt::Display for FileState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A computed MM-IQ row.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MmiqRow {
    /// Which scored result this row is (set by whoever keeps the full reports, e.g. the web
    /// worker, to ask for its items later; [`RowId::default`] from [`score_files`]).
    #[serde(default)]
    pub id: RowId,
    /// Model name.
    pub model: String,
    /// The report (item results included, for the model page; see [`Scored::split_details`]).
    pub report: MmiqReport,
}

/// A computed KiVA row (a model's run folder, or the adult human data).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KivaRow {
    /// Which scored result this row is (see [`MmiqRow::id`]).
    #[serde(default)]
    pub id: RowId,
    /// Model name (or "Adults (human data)").
    pub model: String,
    /// The report, trials included (for comparisons; see [`Scored::split_details`]).
    pub report: KivaReport,
    /// The stage scores with `Null` answers left out ([`NullAnswers::Missing`]), scored by
    /// [`crate::kiva::score_model_with`] when the runs have `Null` answers; `None` when they
    /// have none (both settings agree) or for human data (issue 23).
    #[serde(default)]
    pub null_missing: Option<NullMissing>,
}

/// A KiVA row's stage scores with `Null` answers left out.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NullMissing {
    /// Over all trials.
    pub overall: StageStats,
    /// Per domain.
    pub by_domain: BTreeMap<String, StageStats>,
}

impl KivaRow {
    /// The overall and per-domain stage scores under a `Null` setting.
    pub fn stats(&self, null: NullAnswers) -> (&StageStats, &BTreeMap<String, StageStats>) {
        match (&self.null_missing, null) {
            (Some(m), NullAnswers::Missing) => (&m.overall, &m.by_domain),
            _ => (&self.report.overall, &self.report.by_domain),
        }
    }
}

/// Everything scored from one batch of files.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Scored {
    /// One status per input file, in input order.
    pub files: Vec<FileStatus>,
    /// MM-IQ rows, one per predictions file.
    pub mmiq: Vec<MmiqRow>,
    /// KiVA rows, one per model run folder plus one for human data.
    pub kiva: Vec<KivaRow>,
    /// MM-OPERA rows, one per model (RIA and/or ICA).
    #[serde(default)]
    pub mmopera: Vec<mmopera::MmoperaRow>,
    /// Gold rows, one per score matrix.
    #[serde(default)]
    pub gold: Vec<gold::GoldRow>,
    /// MM-IQ rows from VLMEvalKit `_acc.csv` summaries (accuracies as given, no intervals).
    #[serde(default)]
    pub mmiq_acc: Vec<MmiqAccRow>,
    /// Summary rows of harness summary files (lmms-eval `results.json`, Every Eval Ever
    /// aggregate records), as given.
    #[serde(default)]
    pub harness_summary: Vec<HarnessSummaryRow>,
    /// KiVA challenge results scored against their annotations.
    #[serde(default)]
    pub kiva_challenge: Vec<KivaChallengeRow>,
}

/// The summary figures of a harness summary file, as the file gives them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HarnessSummaryRow {
    /// Model name.
    pub model: String,
    /// The harness that wrote the file (`lmms-eval`, `Every Eval Ever`).
    pub harness: String,
    /// The file.
    pub file: String,
    /// Its rows.
    pub rows: Vec<crate::harness::SummaryRow>,
}

/// A KiVA challenge result file scored against the annotations.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KivaChallengeRow {
    /// Which scored result this row is (see [`MmiqRow::id`]).
    #[serde(default)]
    pub id: RowId,
    /// Model name.
    pub model: String,
    /// Always `KiVA challenge`: the harness whose files these are.
    pub harness: String,
    /// The report (per-trial items included).
    pub report: crate::harness::kiva_challenge::ChallengeReport,
}

/// An MM-IQ row from a VLMEvalKit `_acc.csv` summary: the accuracies as given in the file,
/// without item counts or intervals.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MmiqAccRow {
    /// Model name.
    pub model: String,
    /// The summary.
    pub summary: mmiq::AccSummary,
}

/// The item-level part of a scored row, kept apart from its summary.
#[derive(Debug, Clone, PartialEq)]
pub enum Detail {
    /// An MM-IQ report with its items.
    Mmiq(MmiqReport),
    /// A KiVA report with its trials.
    Kiva(KivaReport),
    /// An MM-OPERA row with its items' scores.
    Mmopera(Box<mmopera::MmoperaRow>),
    /// A Gold score matrix.
    Gold(crate::sem::data::ScoreMatrix),
    /// A KiVA challenge result with its per-trial items.
    KivaChallenge(crate::harness::kiva_challenge::ChallengeReport),
}

impl Scored {
    /// Numbers the rows from `next_id` on and moves their full reports out, leaving summaries
    /// (MM-IQ items, KiVA trials, KiVA challenge items and MM-OPERA item scores cleared; the MM-OPERA intervals were
    /// computed before) small enough to send to the page. Returns the `(id, detail)` pairs, for
    /// answering item and comparison queries later.
    pub fn split_details(&mut self, next_id: &mut RowId) -> Vec<(RowId, Detail)> {
        let mut out = Vec::new();
        for r in &mut self.mmiq {
            r.id = next_id.take();
            let items = std::mem::take(&mut r.report.items);
            let mut full = r.report.clone();
            full.items = items;
            out.push((r.id, Detail::Mmiq(full)));
        }
        for r in &mut self.kiva {
            r.id = next_id.take();
            let trials = std::mem::take(&mut r.report.trials);
            let mut full = r.report.clone();
            full.trials = trials;
            out.push((r.id, Detail::Kiva(full)));
        }
        for r in &mut self.mmopera {
            r.id = next_id.take();
            let full = r.clone();
            for t in [&mut r.ria, &mut r.ica].into_iter().flatten() {
                t.items = Vec::new();
            }
            out.push((r.id, Detail::Mmopera(Box::new(full))));
        }
        for r in &mut self.gold {
            r.id = next_id.take();
            if let Some(m) = r.data.take() {
                out.push((r.id, Detail::Gold(m)));
            }
        }
        for r in &mut self.kiva_challenge {
            r.id = next_id.take();
            let items = std::mem::take(&mut r.report.items);
            let mut full = r.report.clone();
            full.items = items;
            out.push((r.id, Detail::KivaChallenge(full)));
        }
        out
    }
}

/// Detects and scores a batch of files: MM-IQ predictions against the MM-IQ key among them,
/// KiVA run CSVs grouped by model folder, KiVA human data. A bad file gets its located error in
/// its [`FileStatus`]; the other files are still scored. `progress(done, total, file)` is called
/// as files are processed.
pub fn score_files(inputs: &[InputRef<'_>], progress: impl FnMut(usize, usize, &str)) -> Scored {
    score_files_as(inputs, &[], progress)
}

/// [`score_files`] with the format of some files chosen by the user: `chosen[i]` (when present
/// and not `None`) is the format file `i` is read as, instead of the detected one. A file that
/// is not in its chosen format gets the parser's located error, followed by what its content
/// was detected as.
///
/// # Examples
/// ```
/// use coglab_core::leaderboard::{score_files_as, FileKind, InputRef};
/// let run = b"Variation,Regeneration,MCResponse#1,MCResponse#2,MCResponse#3\n0,0,1,1,1\n";
/// let f = InputRef { path: "m/output_Colour/ColourRed.csv", bytes: run, model: None };
/// // Read as an MM-IQ answer key, it fails with a located error.
/// let s = score_files_as(&[f], &[Some(FileKind::MmiqKey)], |_, _, _| {});
/// assert_eq!((s.files[0].kind, s.files[0].status.as_str()), (FileKind::MmiqKey, "error"));
/// assert!(s.files[0].message.as_deref().unwrap().contains("detected as KiVA model run"));
/// // As detected, it is scored.
/// assert_eq!(score_files_as(&[f], &[None], |_, _, _| {}).kiva.len(), 1);
/// ```
pub fn score_files_as(
    inputs: &[InputRef<'_>],
    chosen: &[Option<FileKind>],
    progress: impl FnMut(usize, usize, &str),
) -> Scored {
    score_files_with(inputs, chosen, Vec::new(), progress)
}

/// A file parsed while it was read, in slices ([`mmiq::KeyReader`],
/// [`mmiq::PredictionsReader`]): its bytes were not kept, so [`score_files_with`] is given the
/// parse result instead.
#[derive(Debug)]
pub enum Prepared {
    /// An MM-IQ answer key.
    MmiqKey(Result<AnswerKey, mmiq::MmiqError>),
    /// MM-IQ predictions.
    MmiqPredictions(Result<Predictions, mmiq::MmiqError>),
    /// A harness file read as it arrived (an Inspect `.eval`:
    /// [`crate::harness::eval_stream::EvalStream`]).
    Harness(Result<crate::harness::HarnessFile, crate::harness::HarnessError>),
}

impl Prepared {
    /// The format the file was read as.
    pub fn kind(&self) -> FileKind {
        match self {
            Prepared::MmiqKey(_) => FileKind::MmiqKey,
            Prepared::MmiqPredictions(_) => FileKind::MmiqPredictions,
            Prepared::Harness(_) => FileKind::Harness,
        }
    }
}

/// [`score_files_as`] where `prepared[i]`, when present, is file `i` already parsed (its
/// `bytes` are then not read and may be empty). The result is the same as scoring the file's
/// bytes.
///
/// # Examples
/// ```
/// use coglab_core::leaderboard::{score_files_with, InputRef, Prepared};
/// use coglab_core::mmiq::{KeyReader, PredictionsReader};
/// let mut key = KeyReader::new("key.jsonl");
/// key.push(br#"{"category": "Mathematical", "data_id": 0, "answer": "B"}"#).unwrap();
/// let mut preds = PredictionsReader::new("m.jsonl", 0);
/// preds.push(br#"{"data_id": 0, "response": "The answer is B."}"#).unwrap();
/// let inputs = [
///     InputRef { path: "key.jsonl", bytes: b"", model: None },
///     InputRef { path: "m.jsonl", bytes: b"", model: None },
/// ];
/// let prepared = vec![
///     Some(Prepared::MmiqKey(key.finish())),
///     Some(Prepared::MmiqPredictions(preds.finish())),
/// ];
/// let s = score_files_with(&inputs, &[], prepared, |_, _, _| {});
/// assert_eq!(s.mmiq[0].report.overall.accuracy, 1.0);
/// ```
pub fn score_files_with(
    inputs: &[InputRef<'_>],
    chosen: &[Option<FileKind>],
    mut prepared: Vec<Option<Prepared>>,
    mut progress: impl FnMut(usize, usize, &str),
) -> Scored {
    prepared.resize_with(inputs.len(), || None);
    let total = inputs.len();
    let mut out = Scored::default();
    let detected: Vec<FileKind> = inputs
        .iter()
        .zip(&prepared)
        .map(|(f, p)| {
            p.as_ref()
                .map_or_else(|| detect(f.path, f.bytes), Prepared::kind)
        })
        .collect();
    let kinds: Vec<FileKind> = detected
        .iter()
        .enumerate()
        .map(|(i, d)| chosen.get(i).copied().flatten().unwrap_or(*d))
        .collect();
    for (f, kind) in inputs.iter().zip(&kinds) {
        out.files.push(FileStatus {
            file: f.path.to_string(),
            kind: *kind,
            model: f
                .model
                .map(str::to_string)
                .unwrap_or_else(|| guess_model(f.path)),
            status: FileState::Ok,
            message: None,
        });
    }
    let mut done = 0;
    // MM-IQ key first.
    let mut key: Option<AnswerKey> = None;
    for (i, f) in inputs.iter().enumerate() {
        if kinds[i] != FileKind::MmiqKey {
            continue;
        }
        progress(done, total, f.path);
        done += 1;
        let parsed = match prepared[i].take() {
            Some(Prepared::MmiqKey(k)) => k,
            _ => AnswerKey::parse_bytes(f.path, f.bytes),
        };
        match parsed {
            Ok(k) if key.is_none() => key = Some(k),
            Ok(_) => fail(
                &mut out.files[i],
                "a second MM-IQ answer key: the first one is used".into(),
            ),
            Err(e) => fail(&mut out.files[i], e.to_string()),
        }
    }
    let mut kiva_groups: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    let mut mmopera_files = Vec::new();
    for (i, f) in inputs.iter().enumerate() {
        match kinds[i] {
            FileKind::MmiqKey => continue,
            FileKind::MmiqPredictions | FileKind::MmiqTable => {
                progress(done, total, f.path);
                done += 1;
                let Some(key) = &key else {
                    out.files[i].status = FileState::Waiting;
                    out.files[i].message = Some(
                        "waits for the MM-IQ answer key (MMIQ_benchmark_answer_dict.jsonl): \
                         add it, and this file is scored with it"
                            .into(),
                    );
                    continue;
                };
                // A circular or judge VLMEvalKit table is read as a harness file (its rotations
                // and the judge's verdicts kept); any other as MM-IQ's own table.
                if kinds[i] == FileKind::MmiqTable && prepared[i].is_none() {
                    if let Some(row) = vlmevalkit_table(f, key, &out.files[i].model) {
                        match row {
                            Ok(row) => out.mmiq.push(row),
                            Err(e) => fail(&mut out.files[i], e),
                        }
                        continue;
                    }
                }
                let parsed = match prepared[i].take() {
                    Some(Prepared::MmiqPredictions(p)) => p,
                    _ => Predictions::parse(f.path, f.bytes),
                };
                match parsed.and_then(|p| mmiq::score_owned(key, p)) {
                    Ok(report) => out.mmiq.push(MmiqRow {
                        id: Default::default(),
                        model: out.files[i].model.clone(),
                        report,
                    }),
                    Err(e) => fail(&mut out.files[i], e.to_string()),
                }
            }
            FileKind::KivaRun => {
                kiva_groups
                    .entry(out.files[i].model.clone())
                    .or_default()
                    .push(i);
            }
            FileKind::KivaHuman => {
                progress(done, total, f.path);
                done += 1;
                match HumanData::parse(f.path, f.bytes).and_then(|h| Ok((score_human(&h)?, h))) {
                    Ok((report, h)) => {
                        // A file of one participant (a self-test export) is that participant's
                        // row; the KiVA adults' file is the adults' row.
                        let model = f.model.map(str::to_string).unwrap_or_else(|| {
                            crate::selftest::participant_label(&h)
                                .unwrap_or_else(|| "Adults (human data)".into())
                        });
                        out.files[i].model = model.clone();
                        out.kiva.push(KivaRow {
                            id: Default::default(),
                            model,
                            report,
                            null_missing: None,
                        });
                    }
                    Err(e) => fail(&mut out.files[i], e.to_string()),
                }
            }
            FileKind::Mmopera => mmopera_files.push(i),
            FileKind::MmiqAcc => {
                progress(done, total, f.path);
                done += 1;
                match mmiq::AccSummary::parse(f.path, f.bytes) {
                    Ok(summary) => out.mmiq_acc.push(MmiqAccRow {
                        model: out.files[i].model.clone(),
                        summary,
                    }),
                    Err(e) => fail(&mut out.files[i], e.to_string()),
                }
            }
            FileKind::ScoreMatrix => {
                progress(done, total, f.path);
                done += 1;
                out.files[i].model = String::new();
                match gold::score_matrix(f.path, f.bytes) {
                    Ok(row) => out.gold.push(row),
                    Err(e) => fail(&mut out.files[i], e),
                }
            }
            FileKind::Harness => {
                progress(done, total, f.path);
                done += 1;
                match prepared[i].take() {
                    Some(Prepared::Harness(read)) => {
                        harness_mmiq(f, key.as_ref(), read, &mut out, i);
                    }
                    _ => harness_file(f, key.as_ref(), inputs, &kinds, &mut out, i),
                }
            }
            FileKind::Unknown => {
                done += 1;
                let message = unreadable(f.path, f.bytes).unwrap_or_else(|| {
                    format!(
                        "{}: not a recognised MM-IQ, KiVA or MM-OPERA result file",
                        f.path
                    )
                });
                fail(&mut out.files[i], message);
            }
        }
    }
    for (model, idx) in kiva_groups {
        // Parse each file on its own first so one bad CSV does not lose the folder.
        let mut good = Vec::new();
        for &i in &idx {
            progress(done, total, inputs[i].path);
            done += 1;
            match crate::kiva::RunFile::parse(inputs[i].path, inputs[i].bytes) {
                Ok(_) => good.push(i),
                Err(e) => fail(&mut out.files[i], e.to_string()),
            }
        }
        if good.is_empty() {
            continue;
        }
        match score_model(good.iter().map(|&i| (inputs[i].path, inputs[i].bytes))) {
            Ok(report) => {
                let nulls: usize = report.rows.null_answers.values().sum();
                let null_missing = if nulls == 0 {
                    None
                } else {
                    crate::kiva::score_model_with(
                        good.iter().map(|&i| (inputs[i].path, inputs[i].bytes)),
                        NullAnswers::Missing,
                    )
                    .ok()
                    .map(|r| NullMissing {
                        overall: r.overall,
                        by_domain: r.by_domain,
                    })
                };
                out.kiva.push(KivaRow {
                    id: Default::default(),
                    model,
                    report,
                    null_missing,
                });
            }
            Err(e) => {
                for &i in &good {
                    fail(&mut out.files[i], e.to_string());
                }
            }
        }
    }
    out.mmopera = mmopera::score_mmopera(inputs, &mmopera_files, &mut out.files, |p| {
        progress(done, total, p);
        done += 1;
    });
    progress(total, total, "");
    for (i, f) in out.files.iter_mut().enumerate() {
        if f.status == FileState::Error && kinds[i] != detected[i] {
            let m = f.message.get_or_insert_with(String::new);
            m.push_str(&format!(
                " (read as {}, as chosen; its content was detected as {})",
                kinds[i].label(),
                detected[i].label()
            ));
        }
    }
    out
}

/// A VLMEvalKit table scored as a harness file when it is circular or a judge's `_result`
/// file; `None` for a plain table (or one the harness reader cannot read: MM-IQ's own reader
/// then gives its error).
fn vlmevalkit_table(
    f: &InputRef<'_>,
    key: &AnswerKey,
    model: &str,
) -> Option<Result<MmiqRow, String>> {
    let kind = match mmiq::detect(f.path, f.bytes) {
        Some(mmiq::MmiqFormat::VlmEvalKit(kind)) => kind,
        _ => return None,
    };
    let file = crate::harness::vlmevalkit::read(f.path, kind, f.bytes).ok()?;
    if !crate::harness::vlmevalkit::needs_harness(&file) {
        return None;
    }
    Some(
        crate::harness::map::score_mmiq(&file, key, true)
            .map(|report| MmiqRow {
                id: Default::default(),
                model: model.to_string(),
                report,
            })
            .map_err(|e| e.to_string()),
    )
}

/// Scores one [`FileKind::Harness`] file into its row: MM-IQ records against the key (or
/// waiting for it), a jsPsych KiVA run or KiVA's Every Eval Ever records as a KiVA row,
/// summary rows as given, KiVA challenge results against the annotations among the inputs.
fn harness_file(
    f: &InputRef<'_>,
    key: Option<&AnswerKey>,
    inputs: &[InputRef<'_>],
    kinds: &[FileKind],
    out: &mut Scored,
    i: usize,
) {
    use crate::harness::{self, HarnessFormat};
    let Some(format) = harness::detect_file(f.path, f.bytes) else {
        fail(
            &mut out.files[i],
            format!(
                "{}: not a harness file this reader knows (read as chosen)",
                f.path
            ),
        );
        return;
    };
    let waiting = |s: &mut FileStatus, what: &str| {
        s.status = FileState::Waiting;
        s.message = Some(what.to_string());
    };
    match format {
        HarnessFormat::KivaAnnotations => {
            // Used by the results files; read here only to report its errors.
            if let Err(e) = harness::kiva_challenge::read_annotations(f.path, f.bytes) {
                fail(&mut out.files[i], e.to_string());
            } else {
                out.files[i].model = String::new();
            }
        }
        HarnessFormat::KivaResults => {
            let ann = inputs.iter().zip(kinds).find(|(g, k)| {
                **k == FileKind::Harness
                    && harness::detect(g.path, g.bytes) == Some(HarnessFormat::KivaAnnotations)
            });
            let Some((a, _)) = ann else {
                waiting(
                    &mut out.files[i],
                    "waits for the KiVA challenge annotation JSON: add it, and this file is scored with it",
                );
                return;
            };
            match harness::kiva_challenge::score((a.path, a.bytes), (f.path, f.bytes)) {
                Ok(report) => out.kiva_challenge.push(KivaChallengeRow {
                    id: Default::default(),
                    model: out.files[i].model.clone(),
                    harness: harness::Harness::KivaChallenge.label().into(),
                    report,
                }),
                Err(e) => fail(&mut out.files[i], e.to_string()),
            }
        }
        HarnessFormat::JsPsychCsv | HarnessFormat::JsPsychJson => {
            match harness::read_as(f.path, f.bytes, format)
                .and_then(|h| harness::map::score_kiva_human(&h))
            {
                Ok(report) => {
                    let model = f.model.map(str::to_string).unwrap_or_else(|| {
                        let participants: std::collections::BTreeSet<&str> = report
                            .trials
                            .iter()
                            .filter_map(|t| t.participant.as_deref())
                            .collect();
                        match participants.len() {
                            1 => {
                                format!("{} (jsPsych)", participants.first().copied().unwrap_or(""))
                            }
                            n => format!("{n} participants (jsPsych)"),
                        }
                    });
                    out.files[i].model = model.clone();
                    out.kiva.push(KivaRow {
                        id: Default::default(),
                        model,
                        report,
                        // People's answers: the Null switch is about model answers.
                        null_missing: None,
                    });
                }
                Err(e) => fail(&mut out.files[i], e.to_string()),
            }
        }
        HarnessFormat::EeeInstances if harness::eee::is_kiva(f.bytes) => {
            // KiVA's records, as the EEE export writes them: read back into the KiVA report.
            match harness::eee::read_kiva(f.path, f.bytes) {
                Ok(report) => {
                    if f.model.is_none() {
                        if let Some(m) = report.harness.as_ref().and_then(|h| h.model.clone()) {
                            out.files[i].model = m;
                        }
                    }
                    out.kiva.push(KivaRow {
                        id: Default::default(),
                        model: out.files[i].model.clone(),
                        report,
                        // Scored already, under the rule its records name.
                        null_missing: None,
                    });
                }
                Err(e) => fail(&mut out.files[i], e.to_string()),
            }
        }
        HarnessFormat::LmmsResults | HarnessFormat::EeeAggregate => {
            match harness::read_as(f.path, f.bytes, format) {
                // The boards show a summary's MM-IQ figures only: a file of other tasks says
                // so rather than read "OK" and add nothing (issue 42, defect 8).
                Ok(h) if !h.summary.iter().any(|r| harness::is_mmiq_task(&r.task)) => {
                    let mut tasks: Vec<&str> = h.summary.iter().map(|r| r.task.as_str()).collect();
                    tasks.dedup();
                    let listed = if tasks.is_empty() {
                        "no task with a figure".to_string()
                    } else {
                        format!("its tasks: {}", tasks.join(", "))
                    };
                    fail(
                        &mut out.files[i],
                        format!(
                            "{}: no MM-IQ task among its results ({listed}); the boards show \
                             the MM-IQ figures of a harness summary",
                            f.path
                        ),
                    );
                }
                Ok(h) => {
                    if f.model.is_none() {
                        if let Some(m) = &h.model {
                            out.files[i].model = m.clone();
                        }
                    }
                    out.harness_summary.push(HarnessSummaryRow {
                        model: out.files[i].model.clone(),
                        harness: format.harness().label().into(),
                        file: f.path.to_string(),
                        rows: h.summary,
                    });
                }
                Err(e) => fail(&mut out.files[i], e.to_string()),
            }
        }
        _ => harness_mmiq(f, key, harness::read_as(f.path, f.bytes, format), out, i),
    }
}

/// A harness file's records (read, or its reading error) scored against the MM-IQ key, or
/// waiting for it.
fn harness_mmiq(
    f: &InputRef<'_>,
    key: Option<&AnswerKey>,
    read: Result<crate::harness::HarnessFile, crate::harness::HarnessError>,
    out: &mut Scored,
    i: usize,
) {
    let Some(key) = key else {
        out.files[i].status = FileState::Waiting;
        out.files[i].message = Some(
            "waits for the MM-IQ answer key (MMIQ_benchmark_answer_dict.jsonl): \
             add it, and this file is scored with it"
                .into(),
        );
        return;
    };
    match read.and_then(|h| Ok((crate::harness::map::score_mmiq(&h, key, true)?, h.model))) {
        Ok((report, model)) => {
            if f.model.is_none() {
                if let Some(m) = model {
                    out.files[i].model = m;
                }
            }
            out.mmiq.push(MmiqRow {
                id: Default::default(),
                model: out.files[i].model.clone(),
                report,
            });
        }
        Err(e) => fail(&mut out.files[i], e.to_string()),
    }
}

/// What a dropped file is when it is UTF-16 or UTF-32 text ([`crate::encoding::sniff`]); a
/// zip archive is left to the readers (an `.xlsx` workbook is one).
pub(crate) fn not_text(bytes: &[u8]) -> Option<crate::encoding::NotText> {
    // A Parquet or Arrow IPC file is read by the readers when this build has them.
    if cfg!(feature = "parquet") && crate::columnar::detect(bytes).is_some() {
        return None;
    }
    crate::encoding::sniff(bytes).filter(|w| *w != crate::encoding::NotText::Zip)
}

fn fail(s: &mut FileStatus, message: String) {
    s.status = FileState::Error;
    s.message = Some(message);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_states_serialize_as_the_strings_they_were() {
        for (state, json) in [
            (FileState::Ok, r#""ok""#),
            (FileState::Error, r#""error""#),
            (FileState::Unsupported, r#""unsupported""#),
            (FileState::Waiting, r#""waiting""#),
        ] {
            assert_eq!(serde_json::to_string(&state).unwrap(), json);
            assert_eq!(serde_json::from_str::<FileState>(json).unwrap(), state);
            assert_eq!(format!("\"{state}\""), json);
        }
        // A whole status, as `score_files` gave it when the field was a string.
        let s = FileStatus {
            file: "m_preds.jsonl".into(),
            kind: FileKind::MmiqPredictions,
            model: "m".into(),
            status: FileState::Waiting,
            message: Some("waits for the MM-IQ answer key".into()),
        };
        let json = r#"{"file":"m_preds.jsonl","kind":"mmiq_predictions","model":"m","status":"waiting","message":"waits for the MM-IQ answer key"}"#;
        assert_eq!(serde_json::to_string(&s).unwrap(), json);
        assert_eq!(serde_json::from_str::<FileStatus>(json).unwrap(), s);
        assert!(serde_json::from_str::<FileState>(r#""OK""#).is_err());
    }
}
