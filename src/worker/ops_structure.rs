//! Worker operations of the structure page ([`super::api`]'s `SemLoad`, `SemLoadText`,
//! `SemAnalyze`).
//!
//! A score matrix is read once, kept here under a [`MatrixId`], and fitted as often as the page
//! asks (another spec, pruning, a bootstrap) without being sent or parsed again.

use std::cell::RefCell;
use std::collections::HashMap;

use super::api::{self, FileRef, MatrixId, SemAnalyzed, SemColumns};
use super::host::{self, Progress};
use coglab_core::sem::data::{Missing, ScoreMatrix};
use coglab_core::sem::spec::ModelSpec;
use coglab_core::sem::suite::rank_changes;
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

/// [`api::SemLoad`]: reads a matrix file and keeps it.
///
/// # Errors
/// The browser's or the parser's located message.
pub async fn load(file: &FileRef, progress: &Progress) -> Result<SemColumns, String> {
    let read = host::load(std::slice::from_ref(file), progress).await?;
    let f = read.first().ok_or("no score matrix given")?;
    let m = ScoreMatrix::parse(&f.bytes, &f.name).map_err(|e| e.to_string())?;
    Ok(keep(m))
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
