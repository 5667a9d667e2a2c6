//! Worker operations of the structure page ([`crate::api`]'s `SemLoad`, `SemLoadText`,
//! `SemSpec`, `SemSaved`, `SemAnalyze`, `SemRange`).
//!
//! Every file the page is given (a matrix, a spec, a saved report) and the workspace it kept in
//! this browser are read and parsed here, never on the page's thread. A score matrix is read
//! once, kept here under a [`MatrixId`], and fitted as often as the page asks (another spec,
//! pruning, a bootstrap) without being sent or parsed again.

use std::cell::RefCell;
use std::collections::HashMap;

use serde::Deserialize;

use crate::api::{self, FileRef, MatrixId, SemAnalyzed, SemColumns, SemLoaded, SemRestored};
use crate::host::{self, Progress};
use crate::protocol::InputFile;
use coglab_core::sem::data::{Missing, ScoreMatrix};
use coglab_core::sem::spec::ModelSpec;
use coglab_core::sem::suite::{rank_changes, SpecDraft};
use coglab_core::sem::{analyze_parsed_with_progress, SemOptions};

thread_local! {
    /// The matrices read, by id.
    static MATRICES: RefCell<HashMap<MatrixId, ScoreMatrix>> = RefCell::new(HashMap::new());
    /// The next matrix id.
    static NEXT_ID: RefCell<MatrixId> = const { RefCell::new(1) };
}

/// The most matrices kept at once (the oldest are dropped): a page loads one at a time, and a
/// matrix of a few thousand models is a few MB.
const KEEP: usize = 8;

/// `performance.now()` of the worker (sub-millisecond), or `Date.now()` without it.
pub(crate) fn now_ms() -> f64 {
    use wasm_bindgen::JsCast;
    js_sys::Reflect::get(&js_sys::global(), &"performance".into())
        .ok()
        .and_then(|p| p.dyn_into::<web_sys::Performance>().ok())
        .map(|p| p.now())
        .unwrap_or_else(js_sys::Date::now)
}

/// Keeps `m` and describes it.
fn keep(m: ScoreMatrix) -> SemColumns {
    let id = NEXT_ID.with_borrow_mut(|n| {
        let id = *n;
        *n += 1;
        id
    });
    let columns = SemColumns {
        matrix: id,
        file: m.file.clone(),
        models: m.models.clone(),
        columns: m
            .columns
            .iter()
            .filter(|c| c.is_numeric())
            .map(|c| c.name.clone())
            .collect(),
    };
    MATRICES.with_borrow_mut(|all| {
        all.insert(id, m);
        while all.len() > KEEP {
            let Some(&oldest) = all.keys().min() else {
                break;
            };
            all.remove(&oldest);
        }
    });
    columns
}

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
pub async fn load(file: &FileRef, progress: &Progress) -> Result<SemLoaded, String> {
    let InputFile { name, bytes } = host::load_one(file, progress).await?;
    let m = ScoreMatrix::parse(&bytes, &name).map_err(|e| e.to_string())?;
    // The parser has checked the bytes are UTF-8 text.
    let text = text_of(&name, bytes)?;
    Ok(SemLoaded {
        columns: keep(m),
        text,
    })
}

/// [`api::SemSpec`]: reads a spec file into an editable draft.
///
/// # Errors
/// The browser's message, or the spec reader's located one (file, line, field, expected).
pub async fn spec(file: &FileRef, progress: &Progress) -> Result<SpecDraft, String> {
    let InputFile { name, bytes } = host::load_one(file, progress).await?;
    let text = text_of(&name, bytes)?;
    SpecDraft::parse(&text, &name).map_err(|e| e.to_string())
}

/// What [`saved`] reads of a saved report (`structure-report.json`) or workspace: the inputs
/// (data, model, pruning, switches and any bootstrap's resamples and seed). The fit and the
/// bootstrap are deterministic, so fitting them again gives the saved figures; the saved
/// analysis itself is not read back.
#[derive(Deserialize)]
struct SavedInputs {
    kind: String,
    spec: serde_json::Value,
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
pub async fn saved(source: &api::SemSaved, progress: &Progress) -> Result<SemRestored, String> {
    let (name, text) = match source {
        api::SemSaved::File(file) => {
            let InputFile { name, bytes } = host::load_one(file, progress).await?;
            let text = text_of(&name, bytes)?;
            (name, text)
        }
        api::SemSaved::Kept { name, text } => (name.clone(), text.clone()),
    };
    restore(&name, &text)
}

/// The inputs of the saved report `text` (named `name` in messages), its matrix kept.
fn restore(name: &str, text: &str) -> Result<SemRestored, String> {
    let r: SavedInputs =
        serde_json::from_str(text).map_err(|e| format!("{name}: line {}: {e}", e.line()))?;
    if r.kind != "coglab-structure-report" {
        return Err(format!(
            "{name}: field \"kind\": expected \"coglab-structure-report\", found {:?}",
            r.kind
        ));
    }
    let draft = SpecDraft::parse(&r.spec.to_string(), &format!("{name} (spec)"))
        .map_err(|e| e.to_string())?;
    let columns = load_text(&r.data.name, &r.data.text)?;
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
pub fn load_text(name: &str, text: &str) -> Result<SemColumns, String> {
    let m = ScoreMatrix::parse(text.as_bytes(), name).map_err(|e| e.to_string())?;
    Ok(keep(m))
}

/// The message when a matrix is no longer kept (the worker was restarted by a Cancel).
pub const GONE: &str = "the score matrix is no longer in the scoring worker";

/// [`api::SemRange`]: the spec's task cells of a kept matrix outside the stated scale
/// (`coglab_core::sem::analysis::out_of_range`), so the page can flag them before a fit.
///
/// # Errors
/// [`GONE`], or the spec's message.
pub fn range(a: &api::SemRange) -> Result<Vec<coglab_core::sem::analysis::OutOfRange>, String> {
    MATRICES.with_borrow(|all| {
        let m = all.get(&a.matrix).ok_or(GONE)?;
        let spec = ModelSpec::parse(&a.spec, "spec.json").map_err(|e| e.to_string())?;
        Ok(coglab_core::sem::analysis::out_of_range(&spec, m, a.scale))
    })
}

/// [`api::SemAnalyze`]: fits the spec to a kept matrix
/// (`coglab_core::sem::analyze_parsed_with_progress`), optionally with Algorithm 1 pruning and
/// a bootstrap (progress every 100 resamples); returns the report, the rank comparison against
/// the plain mean and the fit's wall time in milliseconds.
///
/// # Errors
/// [`GONE`], or the spec's or the fit's message.
pub fn analyze(a: &api::SemAnalyze, progress: &Progress) -> Result<SemAnalyzed, String> {
    MATRICES.with_borrow(|all| {
        let m = all.get(&a.matrix).ok_or(GONE)?;
        let spec = ModelSpec::parse(&a.spec, "spec.json").map_err(|e| e.to_string())?;
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
        let t0 = now_ms();
        let mut report_progress =
            |done: usize, total: usize| progress.report(done as f64, total as f64, "bootstrap");
        let report = analyze_parsed_with_progress(&spec, m, &opts, &mut report_progress)
            .map_err(|e| e.to_string())?;
        let ms = now_ms() - t0;
        let ranks = rank_changes(m, &report).map_err(|e| e.to_string())?;
        Ok(SemAnalyzed { report, ranks, ms })
    })
}
