//! The Structure page's async work, as Leptos actions: fitting the model in the scoring
//! worker, reading a matrix, a spec or a saved report, Gold's default table, and keeping the
//! workspace in this browser. [`wire`] starts the page's reactions: each action's result goes
//! into the state or the error panel, every change of the inputs refits, and every change is
//! saved.
//!
//! Each action keeps only its latest dispatch's result (a late answer to an earlier request is
//! dropped), and its `pending()` says whether it runs. Futures that hold a browser `File` are
//! `new_local`; the others are `new_unsync` (the worker client is not `Send`).

use std::rc::Rc;

use coglab_core::leaderboard::gold::TABLE2_SCALE;
use coglab_core::reported::ReportedBundle;
use coglab_core::sem::analysis::OutOfRange;
use coglab_core::sem::bootstrap::BootstrapOptions;
use coglab_core::sem::suite::{gold_table2_draft, matrix_csv_from_reported, SpecDraft};
use leptos::prelude::*;

use super::state::{Analysis, DataSet, Opening, PageError, StructureState};
use crate::worker::api::{self, FileRef, WorkerError};
use crate::worker::client::{OnProgress, WorkerClient};
use crate::worker::protocol::ProgressUpdate;

/// Where the Structure page keeps its workspace in this browser (IndexedDB key-value store).
pub const WORKSPACE_KEY: &str = "structure.workspace";

/// A fit's request, with the data set it reads (to read its text again if the worker lost it).
#[derive(Clone, Debug)]
pub struct FitInput {
    /// The data set fitted.
    pub data: DataSet,
    /// The request.
    pub request: api::SemAnalyze,
}

/// A saved report or workspace to open.
#[derive(Clone, Debug)]
pub struct OpenSaved {
    /// Where it is.
    pub source: api::SemSaved,
    /// The saved workspace on opening the page, which gives way to anything the user loads
    /// meanwhile.
    pub restoring: bool,
}

/// What opening a saved report gave.
#[derive(Clone, Debug)]
pub enum Opened {
    /// The user loaded something meanwhile (restoring only): nothing to apply.
    GaveWay,
    /// Its inputs, its matrix read into the worker again.
    Restored(Box<api::SemRestored>),
    /// It could not be read.
    Failed {
        /// Whether it was the saved workspace on opening the page.
        restoring: bool,
        /// The error's text.
        message: String,
    },
}

/// The page's actions.
#[derive(Clone, Copy)]
pub struct Actions {
    /// Fits the model (`sem.analyze`).
    pub fit: Action<FitInput, Result<Analysis, WorkerError>>,
    /// Reads a picked matrix file.
    pub load_matrix: Action<FileRef, Result<DataSet, String>>,
    /// Reads a picked spec file.
    pub import_spec: Action<FileRef, Result<SpecDraft, String>>,
    /// Reads a saved report or the kept workspace.
    pub open_saved: Action<OpenSaved, Opened>,
    /// Gold's Table 2 (`true`: the user asked; `false`: the default, which gives way to
    /// anything the user loaded). `Ok(None)`: it gave way.
    pub load_default: Action<bool, Result<Option<DataSet>, PageError>>,
    /// Reads the workspace kept in this browser, if any.
    pub read_kept: Action<(), Result<Option<String>, String>>,
    /// Keeps the workspace (its JSON text) in this browser.
    pub save: Action<String, Result<(), String>>,
    /// The task cells outside the stated scale, before any fit (issue 23); `None` without a
    /// matrix or a scale, and for a spec without tasks or a matrix the worker no longer keeps
    /// (the fit reads it again): nothing to flag yet, so the worker's message is not shown.
    pub check_range: Action<Option<api::SemRange>, Option<Vec<OutOfRange>>>,
}

/// Whether the user has loaded something (true once the page is gone).
fn acted(opening: StoredValue<Opening>) -> bool {
    opening
        .try_get_value()
        .is_none_or(|o| matches!(o, Opening::UserActed { .. }))
}

impl Actions {
    /// The actions over the page's worker and the signals their futures update (the matrix
    /// handle after a restarted worker, the bootstrap's progress, Gold's tables).
    pub fn new(
        worker: StoredValue<WorkerClient, LocalStorage>,
        data: RwSignal<Option<DataSet>>,
        progress: RwSignal<Option<f64>>,
        gold: RwSignal<Option<ReportedBundle>>,
        opening: StoredValue<Opening>,
    ) -> Self {
        let fit = Action::new_unsync(move |input: &FitInput| {
            let input = input.clone();
            async move {
                let client = worker
                    .try_get_value()
                    .ok_or_else(|| WorkerError::Browser("the page was left".into()))?;
                let boot = input.request.bootstrap.is_some();
                let on_progress: Option<OnProgress> = boot.then(|| {
                    Rc::new(move |p: ProgressUpdate| {
                        progress.try_set(Some(p.fraction()));
                    }) as OnProgress
                });
                let label = if boot { "boot" } else { "fit" };
                mark(&format!("sem-{label}-start"));
                let out = analyze(&client, &input.data, input.request, on_progress, data).await;
                mark(&format!("sem-{label}-end"));
                out
            }
        });
        let load_matrix = Action::new_local(move |file: &FileRef| {
            let file = file.clone();
            async move {
                let client = worker.try_get_value().ok_or("the page was left")?;
                let l = client
                    .call(api::SemLoad { file })
                    .await
                    .map_err(|e| e.to_string())?;
                Ok(DataSet::read(l.columns.file.clone(), l.text, l.columns))
            }
        });
        let import_spec = Action::new_local(move |file: &FileRef| {
            let file = file.clone();
            async move {
                let client = worker.try_get_value().ok_or("the page was left")?;
                client
                    .call(api::SemSpec { file })
                    .await
                    .map_err(|e| e.to_string())
            }
        });
        let open_saved = Action::new_local(move |input: &OpenSaved| {
            let OpenSaved { source, restoring } = input.clone();
            async move {
                let Some(client) = worker.try_get_value() else {
                    return Opened::GaveWay;
                };
                let loaded = client.call(source).await;
                if restoring && acted(opening) {
                    return Opened::GaveWay;
                }
                match loaded {
                    Ok(r) => Opened::Restored(Box::new(r)),
                    Err(e) => Opened::Failed {
                        restoring,
                        message: e.to_string(),
                    },
                }
            }
        });
        let load_default = Action::new_unsync(move |asked: &bool| {
            let asked = *asked;
            async move {
                let fail = |title: &str, message: String| PageError {
                    title: title.into(),
                    message,
                };
                let bundle = crate::data::load_reported("gold")
                    .await
                    .map_err(|e| fail("Could not load Gold's Table 2", e))?;
                let Some(t2) = bundle.table("gold-table2").cloned() else {
                    return Err(fail(
                        "Could not load Gold's Table 2",
                        "data/gold.json: no table \"gold-table2\"".into(),
                    ));
                };
                gold.try_set(Some(bundle));
                if !asked && acted(opening) {
                    return Ok(None);
                }
                let Some(client) = worker.try_get_value() else {
                    return Ok(None);
                };
                let csv = matrix_csv_from_reported(&t2, &["Overall"]);
                let loaded = load_text(&client, "gold-table2.csv".into(), csv).await;
                if !asked && acted(opening) {
                    return Ok(None);
                }
                loaded
                    .map(Some)
                    .map_err(|e| fail("Could not read Gold's Table 2", e.to_string()))
            }
        });
        let read_kept = Action::new_unsync(|_: &()| crate::store::get_kv(WORKSPACE_KEY));
        let save = Action::new_unsync(|text: &String| {
            let text = text.clone();
            async move { crate::store::put_kv(WORKSPACE_KEY, &text).await }
        });
        let check_range = Action::new_unsync(move |request: &Option<api::SemRange>| {
            let request = request.clone();
            async move {
                let client = worker.try_get_value()?;
                client.call(request?).await.ok()
            }
        });
        Self {
            check_range,
            fit,
            load_matrix,
            import_spec,
            open_saved,
            load_default,
            read_kept,
            save,
        }
    }
}

/// Runs `apply` on each new result of `action` (untracked: only the result is tracked).
fn on_result<I: 'static, O: Clone + 'static>(action: Action<I, O>, apply: impl Fn(O) + 'static) {
    let value = action.value();
    Effect::new(move || {
        if let Some(out) = value.get() {
            untrack(|| apply(out));
        }
    });
}

/// Starts the page's reactions (see the module doc) and reads the workspace of the last visit
/// (else Gold's Table 2 is loaded).
pub fn wire(s: StructureState) {
    let a = s.actions;
    on_result(a.fit, move |out| {
        s.progress.set(None);
        match out {
            Ok(analysis) => {
                s.analysis.set(Some(analysis));
                s.error.set(None);
            }
            Err(WorkerError::Cancelled) => {}
            Err(e) => s.fail("The model could not be fitted", e.to_string()),
        }
    });
    on_result(a.load_matrix, move |out| match out {
        Ok(d) => {
            let cur = s.draft.get_untracked();
            let fits = !cur.constructs.is_empty()
                && cur
                    .constructs
                    .iter()
                    .flat_map(|c| c.indicators.iter())
                    .all(|i| d.columns.contains(i));
            if !fits {
                s.draft.set(SpecDraft::default());
            }
            // A new file has no stated scale until the user gives one.
            s.switches.update(|sw| {
                sw.scale = None;
                sw.exclude_out_of_range = false;
            });
            s.analysis.set(None);
            s.data.set(Some(d));
            s.error.set(None);
        }
        Err(e) => s.fail("Could not read the score matrix", e),
    });
    on_result(a.import_spec, move |out| match out {
        Ok(d) => {
            s.draft.set(d);
            s.error.set(None);
        }
        Err(e) => s.fail("Could not import the spec", e),
    });
    on_result(a.open_saved, move |out| match out {
        Opened::GaveWay => {}
        Opened::Restored(r) => apply_saved(s, *r),
        Opened::Failed {
            restoring: true,
            message,
        } => {
            web_sys::console::warn_1(
                &format!("the saved Structure workspace was not read: {message}").into(),
            );
            a.load_default.dispatch(false);
        }
        Opened::Failed { message, .. } => s.fail("Could not load the report", message),
    });
    on_result(a.load_default, move |out| match out {
        Ok(Some(d)) => {
            s.draft.set(gold_table2_draft());
            // Table 2's stated unit: % accuracy.
            s.switches.update(|sw| sw.scale = Some(TABLE2_SCALE));
            s.data.set(Some(d));
            s.error.set(None);
        }
        Ok(None) => {}
        Err(e) => s.error.set(Some(e)),
    });
    on_result(a.read_kept, move |out| {
        s.read_done();
        match out {
            // Read in the worker; a workspace that does not read gives way to the default.
            Ok(Some(text)) if !s.user_acted() => {
                a.open_saved.dispatch_local(OpenSaved {
                    source: api::SemSaved::Kept {
                        name: WORKSPACE_KEY.into(),
                        text,
                    },
                    restoring: true,
                });
            }
            Err(e) => {
                web_sys::console::warn_1(
                    &format!("the saved Structure workspace was not read: {e}").into(),
                );
                a.load_default.dispatch(false);
            }
            _ => {
                a.load_default.dispatch(false);
            }
        }
    });
    on_result(a.save, move |out| {
        if let Err(e) = out {
            s.fail("Could not keep the workspace in this browser", e);
        }
    });

    // Refit whenever the data, the draft, the pruning or the switches change.
    Effect::new(move |_| {
        s.data.track();
        s.draft.track();
        s.prune.track();
        s.switches.track();
        if s.hold.get_value() {
            s.hold.set_value(false);
            return;
        }
        s.fit(None);
    });

    // Keeps the workspace in this browser whenever the data, the model, the pruning or a
    // bootstrap changes, so a reload comes back to it.
    Effect::new(move |_| {
        let d = s.data.get();
        let spec = s.draft.get();
        let p = s.prune.get();
        let sw = s.switches.get();
        let boot = s.analysis.with(|a| {
            a.as_ref()
                .and_then(|a| a.report.bootstrap.as_ref().map(|b| (b.resamples, b.seed)))
        });
        if !s.saving() {
            return;
        }
        let Some(d) = d else { return };
        let spec: serde_json::Value = serde_json::from_str(&spec.to_json()).unwrap_or_default();
        let mut v = serde_json::json!({
            "kind": "coglab-structure-report", "spec": spec, "prune": p, "switches": sw, "data": d,
        });
        if let Some((resamples, seed)) = boot {
            v["analysis"] = serde_json::json!({
                "report": { "bootstrap": { "resamples": resamples, "seed": seed } }
            });
        }
        a.save.dispatch(v.to_string());
    });

    a.read_kept.dispatch(());
}

/// Applies a saved report's model, pruning and bootstrap settings, and fits it.
fn apply_saved(s: StructureState, r: api::SemRestored) {
    s.hold.set_value(true);
    s.prune.set(r.prune);
    s.switches.set(r.switches);
    s.data.set(Some(DataSet::read(r.name, r.text, r.columns)));
    s.draft.set(r.draft);
    s.error.set(None);
    let boot = r.bootstrap.and_then(|(resamples, seed)| {
        s.boot_n.set(resamples);
        s.boot_seed.set(seed);
        // The command line's bounds (a report file may say anything).
        match bootstrap_count(resamples) {
            Ok(resamples) => Some(BootstrapOptions { resamples, seed }),
            Err(e) => {
                s.fail("The report's bootstrap was not run", e);
                None
            }
        }
    });
    s.fit(boot);
}

/// SEM bootstrap resamples checked against the command line's bounds
/// ([`MIN_BOOTSTRAP`](coglab_core::limits::MIN_BOOTSTRAP)..=
/// [`MAX_BOOTSTRAP`](coglab_core::limits::MAX_BOOTSTRAP)), with its message when out of them
/// (`bootstrap: at most 100000 allowed, found 1000000`).
pub fn bootstrap_count(n: u64) -> Result<usize, String> {
    use coglab_core::limits::{MAX_BOOTSTRAP, MIN_BOOTSTRAP};
    coglab_core::limits::check("bootstrap", n, MIN_BOOTSTRAP, MAX_BOOTSTRAP)
        .map_err(|e| e.to_string())
}

/// Reads a matrix from its text in the worker; returns the data set.
async fn load_text(
    client: &WorkerClient,
    name: String,
    text: String,
) -> Result<DataSet, WorkerError> {
    let c = client
        .call(api::SemLoadText {
            name: name.clone(),
            text: text.clone(),
        })
        .await?;
    Ok(DataSet::read(name, text, c))
}

/// Fits `request` in the worker; when the worker no longer holds the matrix (it went with an
/// ended worker, or was dropped for newer ones), reads `d`'s text again and fits once more,
/// updating `data`'s handle.
async fn analyze(
    client: &WorkerClient,
    d: &DataSet,
    mut request: api::SemAnalyze,
    on_progress: Option<OnProgress>,
    data: RwSignal<Option<DataSet>>,
) -> Result<Analysis, WorkerError> {
    let first = client.call_with(request.clone(), on_progress.clone()).await;
    let out = match first {
        Err(WorkerError::Stale { .. } | WorkerError::Gone { .. }) => {
            let c = client
                .call(api::SemLoadText {
                    name: d.name.clone(),
                    text: d.text.clone(),
                })
                .await?;
            request.matrix = c.matrix;
            if let Some(Some(cur)) = data.try_get_untracked() {
                if cur.text == d.text {
                    data.update_untracked(|x| {
                        if let Some(x) = x {
                            x.matrix = c.matrix;
                        }
                    });
                }
            }
            client.call_with(request, on_progress).await?
        }
        other => other?,
    };
    Ok(Analysis {
        report: out.report,
        ranks: out.ranks,
        ms: out.ms,
    })
}

/// The file picked in `input` as the worker takes it (the worker reads and parses it; the page
/// reads no byte), or the size limit's message; `None` when nothing was picked.
pub fn picked_file(input: &web_sys::HtmlInputElement) -> Option<Result<FileRef, String>> {
    let file = input.files()?.get(0)?;
    input.set_value("");
    let name = file.name();
    // The worker's file-size limit, said before anything is read.
    let limit = crate::worker::protocol::MAX_FILE_BYTES;
    if file.size() > limit {
        return Some(Err(format!(
            "{name}: {} ({:.0} bytes) is above the {} ({limit:.0} bytes) this page reads in the \
             browser. Fit it with the command line instead, which reads files of any size: \
             coglab sem --spec SPEC.json \"{name}\"",
            crate::worker::protocol::megabytes(file.size()),
            file.size(),
            crate::worker::protocol::megabytes(limit),
        )));
    }
    Some(Ok(FileRef {
        name,
        blob: file.into(),
    }))
}

/// A performance mark (the e2e tests time the fits by them).
fn mark(name: &str) {
    if let Some(p) = web_sys::window().and_then(|w| w.performance()) {
        let _ = p.mark(name);
    }
}
