//! The Structure page's async work, as Leptos actions that apply their results to the
//! page's state (see [`crate::pages`]): fitting the model in the scoring worker, reading a
//! matrix, a spec or a saved report, Gold's default table, and keeping the workspace in this
//! browser. [`Actions::wire`] starts the page's reactions: every change of the inputs refits,
//! and every change is saved.
//!
//! Each action applies only its latest dispatch's result (a late answer to an earlier request
//! is dropped), and its `pending()` says whether it runs.

use std::rc::Rc;

use coglab_core::leaderboard::gold::TABLE2_SCALE;
use coglab_core::sem::bootstrap::BootstrapOptions;
use coglab_core::sem::suite::{gold_table2_draft, matrix_csv_from_reported, SpecDraft};
use leptos::prelude::*;
use serde::Serialize;
use serde_json::value::RawValue;

use super::state::{Analysis, DataSet, FitStatus, PageError, StructureState};
use crate::pages::applying;
use crate::worker::api::{self, FileRef, WorkerError};
use crate::worker::client::{Latest, OnProgress, WorkerClient};
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

/// The workspace kept in this browser: a saved report's inputs (the worker reads it as it
/// reads `structure-report.json`), with a bootstrap's resamples and seed but not its figures.
#[derive(Serialize)]
struct KeptWorkspace {
    kind: &'static str,
    /// As [`SpecDraft::to_json`] writes it: constructs in the model's order.
    spec: Box<RawValue>,
    prune: bool,
    switches: api::SemSwitches,
    data: DataSet,
    #[serde(skip_serializing_if = "Option::is_none")]
    analysis: Option<serde_json::Value>,
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

/// The page's actions, each applying its result to the page's [`StructureState`] (see
/// [`crate::pages`]): provided as a context beside the state.
#[derive(Clone, Copy)]
pub struct Actions {
    s: StructureState,
    /// Fits the model (`sem.analyze`): [`Actions::fit`] makes the request.
    fit: Action<FitInput, ()>,
    /// Reads a picked matrix file.
    pub load_matrix: Action<FileRef, ()>,
    /// Reads a picked spec file.
    pub import_spec: Action<FileRef, ()>,
    /// Reads a saved report or the kept workspace.
    pub open_saved: Action<OpenSaved, ()>,
    /// Gold's Table 2 (`true`: the user asked; `false`: the default, which gives way to
    /// anything the user loaded).
    pub load_default: Action<bool, ()>,
    /// Reads the workspace kept in this browser, if any, and opens it (else the default).
    read_kept: Action<(), ()>,
    /// Keeps the workspace (its JSON text) in this browser.
    save: Action<String, ()>,
}

impl Actions {
    /// The actions over `s`.
    pub fn new(s: StructureState) -> Self {
        let fit = fit_action(s);
        let load_default = applying(
            move |asked: &bool| default_table(s, *asked),
            move |out| match out {
                Ok(Some(d)) => {
                    s.draft.set(gold_table2_draft());
                    // Table 2's stated unit: % accuracy.
                    s.switches.update(|sw| sw.scale = Some(TABLE2_SCALE));
                    s.data.set(Some(d));
                    s.error.set(None);
                }
                Ok(None) => {}
                Err(e) => s.error.set(Some(e)),
            },
        );
        let load_matrix = applying(
            move |file: &FileRef| {
                let file = file.clone();
                async move {
                    let client = s.worker.try_get_value().ok_or("the page was left")?;
                    let l = client
                        .call(api::SemLoad { file })
                        .await
                        .map_err(|e| e.to_string())?;
                    Ok::<_, String>(DataSet::read(l.columns.file.clone(), l.text, l.columns))
                }
            },
            move |out| match out {
                Ok(d) => apply_matrix(s, d),
                Err(e) => s.fail("Could not read the score matrix", e),
            },
        );
        let import_spec = applying(
            move |file: &FileRef| {
                let file = file.clone();
                async move {
                    let client = s.worker.try_get_value().ok_or("the page was left")?;
                    client
                        .call(api::SemSpec { file })
                        .await
                        .map_err(|e| e.to_string())
                }
            },
            move |out| match out {
                Ok(d) => {
                    s.draft.set(d);
                    s.error.set(None);
                }
                Err(e) => s.fail("Could not import the spec", e),
            },
        );
        let open_saved = applying(
            move |input: &OpenSaved| {
                let OpenSaved { source, restoring } = input.clone();
                async move {
                    let client = s.worker.try_get_value()?;
                    let loaded = client.call(source).await;
                    // The saved workspace gives way to anything the user loaded meanwhile.
                    (!(restoring && s.user_acted())).then_some((restoring, loaded))
                }
            },
            move |out| match out {
                None => {}
                Some((_, Ok(r))) => apply_saved(s, fit, r),
                Some((true, Err(e))) => {
                    web_sys::console::warn_1(
                        &format!("the saved Structure workspace was not read: {e}").into(),
                    );
                    load_default.dispatch_local(false);
                }
                Some((false, Err(e))) => s.fail("Could not load the report", e.to_string()),
            },
        );
        let read_kept = applying(
            |_: &()| crate::store::get_kv(WORKSPACE_KEY),
            move |out| {
                s.read_done();
                match out {
                    // Read in the worker; a workspace that does not read gives way to the
                    // default.
                    Ok(Some(text)) if !s.user_acted() => {
                        open_saved.dispatch_local(OpenSaved {
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
                        load_default.dispatch_local(false);
                    }
                    _ => {
                        load_default.dispatch_local(false);
                    }
                }
            },
        );
        let save = applying(
            |text: &String| {
                let text = text.clone();
                async move { crate::store::put_kv(WORKSPACE_KEY, &text).await }
            },
            move |out| {
                if let Err(e) = out {
                    s.fail("Could not keep the workspace in this browser", e);
                }
            },
        );
        Self {
            s,
            fit,
            load_matrix,
            import_spec,
            open_saved,
            load_default,
            read_kept,
            save,
        }
    }

    /// Fits the model to the loaded matrix in the worker (with a bootstrap when given); with
    /// no task assigned, clears the analysis instead.
    pub fn fit(self, boot: Option<BootstrapOptions>) {
        start_fit(self.s, self.fit, boot);
    }

    /// Whether a fit is running, and how far a bootstrap has come (reactive).
    pub fn status(self) -> FitStatus {
        if !self.fit.pending().get() {
            FitStatus::Idle
        } else {
            match self.s.progress.get() {
                Some(p) => FitStatus::Bootstrapping(p),
                None => FitStatus::Fitting,
            }
        }
    }

    /// Starts the page's reactions (see the module doc) and reads the workspace of the last
    /// visit (else Gold's Table 2 is loaded).
    pub fn wire(self) {
        let (s, a) = (self.s, self);
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
            a.fit(None);
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
            let Ok(spec) = RawValue::from_string(spec.to_json()) else {
                return;
            };
            let kept = KeptWorkspace {
                kind: "coglab-structure-report",
                spec,
                prune: p,
                switches: sw,
                data: d,
                analysis: boot.map(|(resamples, seed)| {
                    serde_json::json!({
                        "report": { "bootstrap": { "resamples": resamples, "seed": seed } }
                    })
                }),
            };
            if let Ok(text) = serde_json::to_string(&kept) {
                a.save.dispatch_local(text);
            }
        });

        a.read_kept.dispatch_local(());
    }
}

/// The fit action: the worker's answer applied while it is the latest fit's (a refit on every
/// change of the model drops the answers to earlier ones), and a bootstrap's progress shown
/// while it runs.
fn fit_action(s: StructureState) -> Action<FitInput, ()> {
    let latest = Latest::new();
    Action::new_local(move |input: &FitInput| {
        let input = input.clone();
        let ticket = latest.next();
        async move {
            let Some(client) = s.worker.try_get_value() else {
                return;
            };
            let boot = input.request.bootstrap.is_some();
            let on_progress: Option<OnProgress> = boot.then(|| {
                Rc::new(move |p: ProgressUpdate| {
                    if latest.is_current(ticket) {
                        s.progress.try_set(Some(p.fraction()));
                    }
                }) as OnProgress
            });
            let label = if boot { "boot" } else { "fit" };
            mark(&format!("sem-{label}-start"));
            let out = analyze(&client, &input.data, input.request, on_progress, s.data).await;
            mark(&format!("sem-{label}-end"));
            if !latest.is_current(ticket) {
                return;
            }
            s.progress.set(None);
            match out {
                Ok(analysis) => {
                    s.analysis.set(Some(analysis));
                    s.error.set(None);
                }
                Err(WorkerError::Cancelled) => {}
                Err(e) => s.fail("The model could not be fitted", e.to_string()),
            }
        }
    })
}

/// Makes the fit's request from the page's state and dispatches it (see [`Actions::fit`]).
fn start_fit(s: StructureState, fit: Action<FitInput, ()>, boot: Option<BootstrapOptions>) {
    let Some(d) = s.data.get_untracked() else {
        return;
    };
    let spec = s.draft.get_untracked();
    if spec.constructs.iter().all(|c| c.indicators.is_empty()) {
        s.analysis.set(None);
        return;
    }
    let request = api::SemAnalyze {
        matrix: d.matrix,
        spec,
        prune: s.prune.get_untracked(),
        bootstrap: boot,
        mean_impute: false,
        switches: s.switches.get_untracked(),
    };
    s.progress.set(boot.map(|_| 0.0));
    fit.dispatch_local(FitInput { data: d, request });
}

/// Gold's Table 2 read into the worker; `Ok(None)` when it gives way (the default, `asked`
/// false, once the user has loaded something).
async fn default_table(s: StructureState, asked: bool) -> Result<Option<DataSet>, PageError> {
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
    s.gold.try_set(Some(bundle));
    if !asked && s.user_acted() {
        return Ok(None);
    }
    let Some(client) = s.worker.try_get_value() else {
        return Ok(None);
    };
    let csv = matrix_csv_from_reported(&t2, &["Overall"]);
    let loaded = load_text(&client, "gold-table2.csv".into(), csv).await;
    if !asked && s.user_acted() {
        return Ok(None);
    }
    loaded
        .map(Some)
        .map_err(|e| fail("Could not read Gold's Table 2", e.to_string()))
}

/// Puts a newly read matrix on the page: the model stays when every one of its tasks is a
/// column of the new matrix, and the stated scale goes.
fn apply_matrix(s: StructureState, d: DataSet) {
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

/// Applies a saved report's model, pruning and bootstrap settings, and fits it.
fn apply_saved(s: StructureState, fit: Action<FitInput, ()>, r: api::SemRestored) {
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
    start_fit(s, fit, boot);
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
