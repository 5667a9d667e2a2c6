//! Worker operations of the structure page ([`crate::api`]'s `SemLoad`, `SemLoadText`,
//! `SemSpec`, `SemSaved`, `SemAnalyze`, `SemRange`).
//!
//! Every file the page is given (a matrix, a spec, a saved report) and the workspace it kept in
//! this browser are read and parsed here, never on the page's thread. A score matrix is read
//! once, kept in the [`WorkerState`] under a [`crate::api::MatrixId`], and fitted as often as the page asks (another spec,
//! pruning, a bootstrap) without being sent or parsed again.

use serde::Deserialize;

use crate::api::{self, FileRef, SemAnalyzed, SemColumns, SemLoaded, SemRestored, WorkerError};
use crate::io::{self, Progress};
use crate::protocol::InputFile;
use crate::state::WorkerState;
use coglab_core::sem::data::{Missing, ScoreMatrix};
use coglab_core::sem::suite::{rank_changes, SpecDraft};
use coglab_core::sem::{analyze_parsed_with_progress, SemOptions};

/// `bytes` as text, or a message naming `name` and what it found (binary, UTF-16, a byte that
/// is not UTF-8).
fn text_of(name: &str, bytes: Vec<u8>) -> Result<String, String> {
    coglab_core::encoding::check_text(name, &bytes).map_err(|e| e.to_string())?;
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "{name}: expected UTF-8 text, found an invalid byte at offset {}",
            e.utf8_error().valid_up_to()
        )
    })
}

/// [`api::SemLoad`]: reads a matrix file and keeps it; gives back its text for the page to keep.
///
/// # Errors
/// The browser's or the parser's located message.
pub async fn load(
    state: &mut WorkerState,
    file: &FileRef,
    progress: &Progress,
) -> Result<SemLoaded, WorkerError> {
    let InputFile { name, bytes } = io::load_one(file, progress).await?;
    let m = ScoreMatrix::parse(&bytes, &name).map_err(|e| e.to_string())?;
    // The parser has checked the bytes are UTF-8 text.
    let text = text_of(&name, bytes)?;
    Ok(SemLoaded {
        columns: state.keep_matrix(m),
        text,
    })
}

/// [`api::SemSpec`]: reads a spec file into an editable draft.
///
/// # Errors
/// The browser's message, or the spec reader's located one (file, line, field, expected).
pub async fn spec(file: &FileRef, progress: &Progress) -> Result<SpecDraft, WorkerError> {
    let InputFile { name, bytes } = io::load_one(file, progress).await?;
    let text = text_of(&name, bytes)?;
    Ok(SpecDraft::parse(&text, &name).map_err(|e| e.to_string())?)
}

/// What [`saved`] reads of a saved report (`structure-report.json`) or workspace: the inputs
/// (data, model, pruning, switches and any bootstrap's resamples and seed). The fit and the
/// bootstrap are deterministic, so fitting them again gives the saved figures; the saved
/// analysis itself is not read back.
#[derive(Deserialize)]
struct SavedInputs {
    kind: String,
    /// As written: its constructs' order is the model's (issue 42, defect 14: read into a
    /// `serde_json::Value`, whose map sorts its keys, the order changed on each reload).
    spec: Box<serde_json::value::RawValue>,
    prune: bool,
    #[serde(default)]
    switches: api::SemSwitches,
    data: SavedData,
    #[serde(default)]
    analysis: Option<SavedAnalysis>,
}

/// The saved matrix: its file name and text.
#[derive(Deserialize)]
struct SavedData {
    name: String,
    text: String,
}

#[derive(Deserialize)]
struct SavedAnalysis {
    report: SavedSemReport,
}

#[derive(Deserialize)]
struct SavedSemReport {
    #[serde(default)]
    bootstrap: Option<SavedBootstrap>,
}

#[derive(Deserialize)]
struct SavedBootstrap {
    resamples: u64,
    seed: u64,
}

/// [`api::SemSaved`]: reads a saved report or the kept workspace, reads its matrix and keeps
/// it, and gives back the inputs.
///
/// # Errors
/// A message naming the file, the line and the field: not JSON, not a Structure report, a spec
/// or a matrix that does not read.
pub async fn saved(
    state: &mut WorkerState,
    source: &api::SemSaved,
    progress: &Progress,
) -> Result<SemRestored, WorkerError> {
    let (name, text) = match source {
        api::SemSaved::File(file) => {
            let InputFile { name, bytes } = io::load_one(file, progress).await?;
            let text = text_of(&name, bytes)?;
            (name, text)
        }
        api::SemSaved::Kept { name, text } => (name.clone(), text.clone()),
    };
    Ok(restore(state, &name, &text)?)
}

/// The inputs of the saved report `text` (named `name` in messages), its matrix kept.
fn restore(state: &mut WorkerState, name: &str, text: &str) -> Result<SemRestored, String> {
    let r: SavedInputs =
        serde_json::from_str(text).map_err(|e| format!("{name}: line {}: {e}", e.line()))?;
    if r.kind != "coglab-structure-report" {
        return Err(format!(
            "{name}: field \"kind\": expected \"coglab-structure-report\", found {:?}",
            r.kind
        ));
    }
    let draft =
        SpecDraft::parse(r.spec.get(), &format!("{name} (spec)")).map_err(|e| e.to_string())?;
    let columns = load_text(state, &r.data.name, &r.data.text)?;
    Ok(SemRestored {
        name: r.data.name,
        text: r.data.text,
        columns,
        draft,
        prune: r.prune,
        switches: r.switches,
        bootstrap: r
            .analysis
            .and_then(|a| a.report.bootstrap)
            .map(|b| (b.resamples, b.seed)),
    })
}

/// [`api::SemLoadText`]: reads a matrix from text the page made and keeps it.
///
/// # Errors
/// The parser's located message.
pub fn load_text(state: &mut WorkerState, name: &str, text: &str) -> Result<SemColumns, String> {
    let m = ScoreMatrix::parse(text.as_bytes(), name).map_err(|e| e.to_string())?;
    Ok(state.keep_matrix(m))
}

/// [`api::SemRange`]: the spec's task cells of a kept matrix outside the stated scale
/// (`coglab_core::sem::analysis::out_of_range`), so the page can flag them before a fit.
///
/// # Errors
/// The state's for a matrix not kept, or the spec's message.
pub fn range(
    state: &WorkerState,
    a: &api::SemRange,
) -> Result<Vec<coglab_core::sem::analysis::OutOfRange>, WorkerError> {
    let m = state.matrix(a.matrix)?;
    let spec = a.spec.to_spec().map_err(|e| e.to_string())?;
    Ok(coglab_core::sem::analysis::out_of_range(&spec, m, a.scale))
}

/// [`api::SemAnalyze`]: fits the spec to a kept matrix
/// (`coglab_core::sem::analyze_parsed_with_progress`), optionally with Algorithm 1 pruning and
/// a bootstrap (progress every 100 resamples); returns the report, the rank comparison against
/// the plain mean and the fit's wall time in milliseconds.
///
/// # Errors
/// The state's for a matrix not kept, or the spec's or the fit's message.
pub fn analyze(
    state: &WorkerState,
    a: &api::SemAnalyze,
    progress: &Progress,
) -> Result<SemAnalyzed, WorkerError> {
    let m = state.matrix(a.matrix)?;
    let spec = a.spec.to_spec().map_err(|e| e.to_string())?;
    let opts = SemOptions {
        missing: if a.mean_impute {
            Missing::Mean
        } else {
            Missing::Listwise
        },
        bootstrap: a.bootstrap,
        prune: a.prune,
        max_iterations: None,
        htmt: a.switches.htmt,
        prune_variant: a.switches.prune_variant,
        arena: a.switches.arena,
        scale: a.switches.scale,
        exclude_out_of_range: a.switches.exclude_out_of_range,
    };
    let t0 = io::now_ms();
    let mut report_progress =
        |done: usize, total: usize| progress.report(done as f64, total as f64, "bootstrap");
    let report = analyze_parsed_with_progress(&spec, m, &opts, &mut report_progress)
        .map_err(|e| e.to_string())?;
    let ms = io::now_ms() - t0;
    let ranks = rank_changes(m, &report).map_err(|e| e.to_string())?;
    Ok(SemAnalyzed { report, ranks, ms })
}
