//! Worker operations of the structure page (domain `sem`).
//!
//! - `sem.columns`: reads the dropped score matrix; returns its models and numeric columns.
//! - `sem.analyze`: fits the spec to the matrix (`coglab_core::sem::analyze_parsed_with_progress`),
//!   optionally with Algorithm 1 pruning and a bootstrap (progress reported every 100
//!   resamples); returns the report, the rank comparison against the plain mean and the fit's
//!   wall time in milliseconds.

use super::protocol::{wire, InputFile, Output};
use coglab_core::sem::bootstrap::BootstrapOptions;
use coglab_core::sem::data::ScoreMatrix;
use coglab_core::sem::spec::ModelSpec;
use coglab_core::sem::suite::rank_changes;
use coglab_core::sem::{analyze_parsed_with_progress, SemOptions};
use serde::{Deserialize, Serialize};

use super::host::Progress;

/// Arguments of `sem.analyze`.
#[derive(Deserialize)]
struct AnalyzeArgs {
    /// Spec JSON text.
    spec: String,
    /// Run Algorithm 1.
    #[serde(default)]
    prune: bool,
    /// Bootstrap resamples and seed, if wanted.
    #[serde(default)]
    bootstrap: Option<BootstrapOptions>,
    /// "listwise" (default) or "mean".
    #[serde(default)]
    missing: Option<String>,
}

/// `performance.now()` of the worker (sub-millisecond), or `Date.now()` without it.
fn now_ms() -> f64 {
    use wasm_bindgen::JsCast;
    js_sys::Reflect::get(&js_sys::global(), &"performance".into())
        .ok()
        .and_then(|p| p.dyn_into::<web_sys::Performance>().ok())
        .map(|p| p.now())
        .unwrap_or_else(js_sys::Date::now)
}

fn matrix(files: &[InputFile]) -> Result<ScoreMatrix, String> {
    let f = files.first().ok_or("no score matrix given")?;
    ScoreMatrix::parse(&f.bytes, &f.name).map_err(|e| e.to_string())
}

// Replies are typed structs, not `json!` values: a `json!` value serializes each type a second
// way (into a `serde_json::Value`), which compiled the whole report's serializer twice.

/// `sem.columns`' reply: the matrix's file name, models and numeric columns.
#[derive(Serialize)]
struct Columns<'a> {
    file: &'a str,
    models: &'a [String],
    columns: Vec<&'a str>,
}

/// `sem.analyze`'s reply: the report, the rank changes and the fit's time in milliseconds.
#[derive(Serialize)]
struct Analyzed<'a, R, K> {
    report: &'a R,
    ranks: &'a K,
    ms: f64,
}

/// Runs operation `name` of this domain.
pub fn run(
    name: &str,
    args: &str,
    files: Vec<InputFile>,
    progress: &Progress,
) -> Result<Output, String> {
    match name {
        "columns" => {
            let m = matrix(&files)?;
            let numeric: Vec<&str> = m
                .columns
                .iter()
                .filter(|c| c.is_numeric())
                .map(|c| c.name.as_str())
                .collect();
            serde_json::to_string(&Columns {
                file: &m.file,
                models: &m.models,
                columns: numeric,
            })
            .map(Output::Json)
            .map_err(|e| e.to_string())
        }
        "analyze" => {
            let a: AnalyzeArgs =
                serde_json::from_str(args).map_err(|e| format!("sem.analyze arguments: {e}"))?;
            let m = matrix(&files)?;
            let spec = ModelSpec::parse(&a.spec, "spec.json").map_err(|e| e.to_string())?;
            let opts = SemOptions {
                missing: match a.missing.as_deref() {
                    Some("mean") => coglab_core::sem::data::Missing::Mean,
                    _ => coglab_core::sem::data::Missing::Listwise,
                },
                bootstrap: a.bootstrap,
                prune: a.prune,
                max_iterations: None,
            };
            let t0 = now_ms();
            let mut report_progress =
                |done: usize, total: usize| progress.report(done as f64, total as f64, "bootstrap");
            let report = analyze_parsed_with_progress(&spec, &m, &opts, &mut report_progress)
                .map_err(|e| e.to_string())?;
            let ms = now_ms() - t0;
            let ranks = rank_changes(&m, &report).map_err(|e| e.to_string())?;
            wire(
                "sem.analyze",
                &Analyzed {
                    report: &report,
                    ranks: &ranks,
                    ms,
                },
            )
        }
        _ => Err(format!("unknown worker operation \"sem.{name}\"")),
    }
}
