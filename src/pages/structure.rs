//! Structure (Gold): PLS-SEM analysis of a benchmark suite in the browser.
//!
//! Load a models x tasks matrix (drop a file, or Gold's Table 2), assign tasks to constructs,
//! and every change refits the model in the scoring worker (`sem.analyze`, which calls
//! `coglab_core::sem::analyze_parsed_with_progress`). All figures come from the core's report;
//! this page only lays them out.

mod diagram;
mod heatmap;

use std::rc::Rc;

use coglab_core::leaderboard::gold::TABLE2_SCALE;
use coglab_core::limits::{MAX_BOOTSTRAP, MIN_BOOTSTRAP};
use coglab_core::reported::{ReportedBundle, ReportedTable};
use coglab_core::sem::bootstrap::BootstrapOptions;
use coglab_core::sem::engine::{Mode, Scheme};
use coglab_core::sem::suite::{
    gold_table2_draft, matrix_csv_from_reported, ranks_csv, report_csv, DraftConstruct,
    MeasurementPreset, Preset, RankRow, ReportTable, SpecDraft, FIDELITY_GLOSSARY,
};
use coglab_core::sem::{ArenaPlacement, HtmtVariant, PruneVariant, Scale, SemReport};
use coglab_core::stats::{format_p, p_phrase};
use leptos::prelude::*;
use leptos::task::spawn_local;
use serde::{Deserialize, Serialize};
use wasm_bindgen::JsCast;

use crate::components::board_table::download_text;
use crate::components::error_panel::ErrorPanel;
use crate::components::reported_table::ReportedTableView;
use crate::worker::api::{self, MatrixId, SemSwitches};
use crate::worker::client::{use_worker, WorkerClient};
use diagram::PathDiagram;
use heatmap::HtmtHeatmap;

/// A loaded score matrix: its text (kept for the saved report), the worker's handle to the
/// parsed matrix, and what it holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DataSet {
    /// File name (used in error messages).
    pub name: String,
    /// The file's text.
    pub text: String,
    /// The matrix as the worker keeps it (not saved: a loaded report is read again).
    #[serde(skip)]
    pub matrix: MatrixId,
    /// Model names.
    pub models: Vec<String>,
    /// Numeric columns (candidate tasks).
    pub columns: Vec<String>,
}

/// The worker's answer to `sem.analyze`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Analysis {
    /// The core's report.
    pub report: SemReport,
    /// Weighted vs plain-mean ranks (from the core).
    pub ranks: Vec<RankRow>,
    /// Worker time of the analysis in milliseconds.
    pub ms: f64,
}

/// The whole-analysis export (`structure-report.json`): the inputs and the analysis.
#[derive(Clone, Debug, Serialize)]
pub struct ExportedReport {
    /// Always `"coglab-structure-report"`.
    pub kind: String,
    /// The spec JSON (the format `coglab sem --spec` reads).
    pub spec: serde_json::Value,
    /// Whether pruning was on.
    pub prune: bool,
    /// The paper-fidelity switches (HTMT formula, pruning procedure, Arena placement, stated
    /// scale and whether out-of-range cells were excluded).
    pub switches: SemSwitches,
    /// The data set.
    pub data: DataSet,
    /// The analysis.
    pub analysis: Analysis,
}

#[derive(Clone, Copy)]
struct Worker(StoredValue<WorkerClient, LocalStorage>);

/// Where the Structure page keeps its workspace in this browser (IndexedDB key-value store).
const WORKSPACE_KEY: &str = "structure.workspace";

/// Fits `request` in the worker; when the worker no longer holds the matrix (a Cancel restarted
/// it), reads `d`'s text again and fits once more, updating `data`'s handle.
async fn analyze(
    client: &WorkerClient,
    d: &DataSet,
    mut request: api::SemAnalyze,
    on_progress: Option<crate::worker::client::OnProgress>,
    data: RwSignal<Option<DataSet>>,
) -> Result<Analysis, String> {
    let first = client.call_with(request.clone(), on_progress.clone()).await;
    let out = match first {
        Err(e) if e == crate::worker::ops_structure::GONE => {
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

fn f3(v: f64) -> String {
    format!("{v:.3}")
}

fn opt3(v: Option<f64>) -> String {
    v.map(f3).unwrap_or_else(|| "–".into())
}

/// Saves the inline SVG chart with `data-testid=testid` as a PNG (2x): the computed styles are
/// copied into a clone as SVG presentation attributes (no `style` attribute and no `eval`, so
/// the page's Content-Security-Policy allows it) so the image keeps the page's colours, then
/// the clone is drawn on a canvas.
fn download_png(testid: &str, name: &str) {
    if let Err(e) = try_download_png(testid, name.to_string()) {
        web_sys::console::warn_1(&e);
    }
}

/// Calls `obj[method](...args)`.
fn js_call(
    obj: &wasm_bindgen::JsValue,
    method: &str,
    args: &[&wasm_bindgen::JsValue],
) -> Result<wasm_bindgen::JsValue, wasm_bindgen::JsValue> {
    let f: js_sys::Function = js_sys::Reflect::get(obj, &method.into())?.dyn_into()?;
    let list = js_sys::Array::new();
    for a in args {
        list.push(a);
    }
    f.apply(obj, &list)
}

fn try_download_png(testid: &str, name: String) -> Result<(), wasm_bindgen::JsValue> {
    use wasm_bindgen::JsValue;
    const PROPS: [&str; 9] = [
        "fill",
        "stroke",
        "stroke-width",
        "fill-opacity",
        "font-size",
        "font-weight",
        "font-family",
        "paint-order",
        "text-anchor",
    ];
    let window = web_sys::window().ok_or("no window")?;
    let doc = window.document().ok_or("no document")?;
    let Some(svg) = doc.query_selector(&format!("[data-testid=\"{testid}\"]"))? else {
        return Ok(());
    };
    let clone: web_sys::Element = svg.clone_node_with_deep(true)?.dyn_into()?;
    let (src, dst) = (svg.query_selector_all("*")?, clone.query_selector_all("*")?);
    for i in 0..src.length() {
        let (Some(a), Some(b)) = (src.get(i), dst.get(i)) else {
            continue;
        };
        let cs = js_call(&window, "getComputedStyle", &[&a])?;
        let b: web_sys::Element = b.dyn_into()?;
        for p in PROPS {
            if let Some(v) = js_call(&cs, "getPropertyValue", &[&JsValue::from_str(p)])?.as_string()
            {
                if !v.is_empty() {
                    b.set_attribute(p, &v)?;
                }
            }
        }
    }
    let body = doc.body().ok_or("no body")?;
    let bg = js_call(&window, "getComputedStyle", &[&body])
        .and_then(|cs| js_sys::Reflect::get(&cs, &"backgroundColor".into()))?
        .as_string()
        .unwrap_or_else(|| "#ffffff".into());
    let rect = svg.get_bounding_client_rect();
    let (w, h) = (rect.width(), rect.height());
    let serializer = js_sys::Reflect::construct(
        &js_sys::Reflect::get(&window, &"XMLSerializer".into())?.dyn_into::<js_sys::Function>()?,
        &js_sys::Array::new(),
    )?;
    let text = js_call(&serializer, "serializeToString", &[&clone])?
        .as_string()
        .unwrap_or_default();
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type("image/svg+xml");
    let blob = web_sys::Blob::new_with_str_sequence_and_options(
        &js_sys::Array::of1(&JsValue::from_str(&text)),
        &opts,
    )?;
    let url = web_sys::Url::create_object_url_with_blob(&blob)?;
    let img = js_sys::Reflect::construct(
        &js_sys::Reflect::get(&window, &"Image".into())?.dyn_into::<js_sys::Function>()?,
        &js_sys::Array::new(),
    )?;
    let img2 = img.clone();
    let url2 = url.clone();
    let onload = wasm_bindgen::closure::Closure::once_into_js(move || {
        let draw = || -> Result<(), JsValue> {
            let _ = web_sys::Url::revoke_object_url(&url2);
            let doc = web_sys::window()
                .and_then(|w| w.document())
                .ok_or("no document")?;
            let canvas: web_sys::HtmlCanvasElement = doc.create_element("canvas")?.dyn_into()?;
            canvas.set_width((w * 2.0).round() as u32);
            canvas.set_height((h * 2.0).round() as u32);
            let ctx: web_sys::CanvasRenderingContext2d = canvas
                .get_context("2d")?
                .ok_or("no 2d context")?
                .dyn_into()?;
            ctx.set_fill_style_str(&bg);
            ctx.fill_rect(0.0, 0.0, w * 2.0, h * 2.0);
            ctx.scale(2.0, 2.0)?;
            js_call(
                &ctx,
                "drawImage",
                &[&img2, &JsValue::from(0), &JsValue::from(0)],
            )?;
            let a: web_sys::HtmlAnchorElement = doc.create_element("a")?.dyn_into()?;
            a.set_href(&canvas.to_data_url_with_type("image/png")?);
            a.set_download(&name);
            a.click();
            Ok(())
        };
        if let Err(e) = draw() {
            web_sys::console::warn_1(&e);
        }
    });
    js_sys::Reflect::set(&img, &"onload".into(), &onload)?;
    js_sys::Reflect::set(&img, &"src".into(), &JsValue::from_str(&url))?;
    Ok(())
}

fn png_button(label: &'static str, testid: &'static str, file: &'static str) -> impl IntoView {
    view! {
        <button type="button" class="small" data-testid=format!("png-{testid}") aria-label=format!("Save the {label} as PNG")
            on:click=move |_| download_png(testid, file)>
            "PNG"
        </button>
    }
}

/// The file picked in `input` as the worker takes it (the worker reads and parses it; the page
/// reads no byte), or the size limit's message; `None` when nothing was picked.
fn picked_file(input: &web_sys::HtmlInputElement) -> Option<Result<api::FileRef, String>> {
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
    Some(Ok(api::FileRef {
        name,
        blob: file.into(),
    }))
}

fn mark(name: &str) {
    if let Some(p) = web_sys::window().and_then(|w| w.performance()) {
        let _ = p.mark(name);
    }
}

/// Reads a matrix in the worker; returns the data set.
async fn load_columns(w: Worker, name: String, text: String) -> Result<DataSet, String> {
    let client = w.0.get_value();
    let c = client
        .call(api::SemLoadText {
            name: name.clone(),
            text: text.clone(),
        })
        .await?;
    Ok(DataSet {
        name,
        text,
        matrix: c.matrix,
        models: c.models,
        columns: c.columns,
    })
}

/// The structure page.
#[component]
pub fn Structure() -> impl IntoView {
    let worker = Worker(StoredValue::new_local(use_worker()));
    let data = RwSignal::new(None::<DataSet>);
    let draft = RwSignal::new(SpecDraft::default());
    let prune = RwSignal::new(false);
    let switches = RwSignal::new(SemSwitches::default());
    let analysis = RwSignal::new(None::<Analysis>);
    let error = RwSignal::new(None::<(String, String)>);
    let busy = RwSignal::new(false);
    let boot_n = RwSignal::new(5000u64);
    let boot_seed = RwSignal::new(1u64);
    let progress = RwSignal::new(None::<f64>);
    let generation = StoredValue::new(0u64);
    // Set when a saved report is loaded: it starts its own fit (with its bootstrap), so the
    // refit on the change of data, model and pruning is skipped once.
    let hold = StoredValue::new(false);
    let gold = RwSignal::new(None::<ReportedBundle>);
    // Set as soon as the user loads a matrix, a spec or a report: a default or a restored
    // workspace that arrives later does not overwrite it (issue 26, defect 6: a report opened
    // within 200 ms of loading was half replaced by the default table).
    let user_acted = StoredValue::new(false);
    // Set once the saved workspace (if any) has been read: saving starts then.
    let restored = StoredValue::new(false);

    // Gold's bundled tables (Table 2 is the default matrix, Table 3 is shown beside D_div etc.).
    // `asked`: the user pressed the button (applies whatever was loaded before).
    let load_default = move |asked: bool| {
        spawn_local(async move {
            let bundle = match crate::data::load_reported("gold").await {
                Ok(b) => b,
                Err(e) => {
                    error.set(Some(("Could not load Gold's Table 2".into(), e)));
                    return;
                }
            };
            let Some(t2) = bundle.table("gold-table2").cloned() else {
                error.set(Some((
                    "Could not load Gold's Table 2".into(),
                    "data/gold.json: no table \"gold-table2\"".into(),
                )));
                return;
            };
            gold.set(Some(bundle));
            if !asked && user_acted.try_get_value().unwrap_or(true) {
                return;
            }
            let csv = matrix_csv_from_reported(&t2, &["Overall"]);
            let loaded = load_columns(worker, "gold-table2.csv".into(), csv).await;
            if !asked && user_acted.try_get_value().unwrap_or(true) {
                return;
            }
            match loaded {
                Ok(d) => {
                    draft.set(gold_table2_draft());
                    // Table 2's stated unit: % accuracy.
                    switches.update(|s| s.scale = Some(TABLE2_SCALE));
                    data.set(Some(d));
                    error.set(None);
                }
                Err(e) => error.set(Some(("Could not read Gold's Table 2".into(), e))),
            }
        });
    };
    let run = move |boot: Option<BootstrapOptions>| {
        let Some(d) = data.get_untracked() else {
            return;
        };
        let spec = draft.get_untracked();
        if spec.constructs.iter().all(|c| c.indicators.is_empty()) {
            analysis.set(None);
            return;
        }
        let request = api::SemAnalyze {
            matrix: d.matrix,
            spec: spec.to_json(),
            prune: prune.get_untracked(),
            bootstrap: boot,
            mean_impute: false,
            switches: switches.get_untracked(),
        };
        let gen = generation.get_value() + 1;
        generation.set_value(gen);
        busy.set(true);
        let label = if boot.is_some() { "boot" } else { "fit" };
        spawn_local(async move {
            let client = worker.0.get_value();
            let on_progress: Option<crate::worker::client::OnProgress> = boot.map(|_| {
                Rc::new(move |p: crate::worker::protocol::ProgressUpdate| {
                    progress.set(Some(p.fraction()))
                }) as crate::worker::client::OnProgress
            });
            if boot.is_some() {
                progress.set(Some(0.0));
            }
            mark(&format!("sem-{label}-start"));
            let out = analyze(&client, &d, request, on_progress, data).await;
            mark(&format!("sem-{label}-end"));
            // The page may have been left while the worker was busy: its values are then
            // disposed, and the late answer is dropped instead of read.
            if generation.try_get_value() != Some(gen) {
                return;
            }
            busy.set(false);
            progress.set(None);
            match out {
                Ok(a) => {
                    analysis.set(Some(a));
                    error.set(None);
                }
                Err(e) if e == "cancelled" => {}
                Err(e) => error.set(Some(("The model could not be fitted".into(), e))),
            }
        });
    };

    // Refit whenever the data, the draft or the pruning switch changes.
    Effect::new(move |_| {
        data.track();
        draft.track();
        prune.track();
        switches.track();
        if hold.get_value() {
            hold.set_value(false);
            return;
        }
        run(None);
    });

    // Reads a saved report or workspace in the worker (its matrix is read into the worker
    // again: a saved handle belongs to an earlier worker), then applies its model, pruning and
    // bootstrap settings, and the page fits it. `restoring`: the saved workspace on opening the
    // page, which gives way to anything the user loads meanwhile.
    let apply_saved = move |source: api::SemSaved, restoring: bool| {
        spawn_local(async move {
            let Some(client) = worker.0.try_get_value() else {
                return;
            };
            let loaded = client.call(source).await;
            if restoring && user_acted.try_get_value().unwrap_or(true) {
                return;
            }
            match loaded {
                Ok(r) => {
                    hold.set_value(true);
                    prune.set(r.prune);
                    switches.set(r.switches);
                    data.set(Some(DataSet {
                        name: r.name,
                        text: r.text,
                        matrix: r.columns.matrix,
                        models: r.columns.models,
                        columns: r.columns.columns,
                    }));
                    draft.set(r.draft);
                    error.set(None);
                    let boot = r.bootstrap.and_then(|(resamples, seed)| {
                        boot_n.set(resamples);
                        boot_seed.set(seed);
                        // The command line's bounds (a report file may say anything).
                        match bootstrap_count(resamples) {
                            Ok(resamples) => Some(BootstrapOptions { resamples, seed }),
                            Err(e) => {
                                error.set(Some(("The report's bootstrap was not run".into(), e)));
                                None
                            }
                        }
                    });
                    run(boot);
                }
                Err(e) if restoring => {
                    web_sys::console::warn_1(
                        &format!("the saved Structure workspace was not read: {e}").into(),
                    );
                    load_default(false);
                }
                Err(e) => error.set(Some(("Could not load the report".into(), e))),
            }
        });
    };

    let on_file = move |ev: leptos::ev::Event| {
        let input: web_sys::HtmlInputElement = event_target(&ev);
        user_acted.set_value(true);
        let Some(picked) = picked_file(&input) else {
            return;
        };
        spawn_local(async move {
            let loaded = match picked {
                Ok(file) => match worker.0.try_get_value() {
                    Some(client) => client.call(api::SemLoad { file }).await.map(|l| DataSet {
                        name: l.columns.file,
                        text: l.text,
                        matrix: l.columns.matrix,
                        models: l.columns.models,
                        columns: l.columns.columns,
                    }),
                    None => return,
                },
                Err(e) => Err(e),
            };
            match loaded {
                Ok(d) => {
                    let cur = draft.get_untracked();
                    let fits = !cur.constructs.is_empty()
                        && cur
                            .constructs
                            .iter()
                            .flat_map(|c| c.indicators.iter())
                            .all(|i| d.columns.contains(i));
                    if !fits {
                        draft.set(SpecDraft::default());
                    }
                    // A new file has no stated scale until the user gives one.
                    switches.update(|s| {
                        s.scale = None;
                        s.exclude_out_of_range = false;
                    });
                    analysis.set(None);
                    data.set(Some(d));
                    error.set(None);
                }
                Err(e) => error.set(Some(("Could not read the score matrix".into(), e))),
            }
        });
    };

    let on_spec_file = move |ev: leptos::ev::Event| {
        let input: web_sys::HtmlInputElement = event_target(&ev);
        user_acted.set_value(true);
        let Some(picked) = picked_file(&input) else {
            return;
        };
        spawn_local(async move {
            let read = match picked {
                Ok(file) => match worker.0.try_get_value() {
                    Some(client) => client.call(api::SemSpec { file }).await,
                    None => return,
                },
                Err(e) => Err(e),
            };
            match read {
                Ok(d) => {
                    draft.set(d);
                    error.set(None);
                }
                Err(e) => error.set(Some(("Could not import the spec".into(), e))),
            }
        });
    };

    let on_report_file = move |ev: leptos::ev::Event| {
        let input: web_sys::HtmlInputElement = event_target(&ev);
        user_acted.set_value(true);
        match picked_file(&input) {
            Some(Ok(file)) => apply_saved(api::SemSaved::File(file), false),
            Some(Err(e)) => error.set(Some(("Could not load the report".into(), e))),
            None => {}
        }
    };

    let export_report = move || {
        let (Some(d), Some(a)) = (data.get_untracked(), analysis.get_untracked()) else {
            return;
        };
        let spec: serde_json::Value =
            serde_json::from_str(&draft.get_untracked().to_json()).unwrap_or_default();
        let r = ExportedReport {
            kind: "coglab-structure-report".into(),
            spec,
            prune: prune.get_untracked(),
            switches: switches.get_untracked(),
            data: d,
            analysis: a,
        };
        if let Ok(text) = serde_json::to_string_pretty(&r) {
            download_text("structure-report.json", "application/json", &text);
        }
    };

    // Keeps the workspace in this browser (IndexedDB) whenever the data, the model, the
    // pruning or a bootstrap changes, so a reload comes back to it.
    Effect::new(move |_| {
        let d = data.get();
        let spec = draft.get();
        let p = prune.get();
        let sw = switches.get();
        let boot = analysis.with(|a| {
            a.as_ref()
                .and_then(|a| a.report.bootstrap.as_ref().map(|b| (b.resamples, b.seed)))
        });
        if !restored.try_get_value().unwrap_or(false) {
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
        let text = v.to_string();
        spawn_local(async move {
            let _ = crate::store::put_kv(WORKSPACE_KEY, &text).await;
        });
    });

    // The workspace of the last visit (data, model, pruning, bootstrap settings), kept in this
    // browser like the other pages' work; else Gold's Table 2. (The page may have been left
    // while this was read: its values are then disposed, so they are read with `try_`.)
    spawn_local(async move {
        let saved = crate::store::get_kv(WORKSPACE_KEY).await.ok().flatten();
        if user_acted.try_get_value().is_none() {
            return;
        }
        restored.try_set_value(true);
        match saved {
            // Read in the worker; a workspace that does not read gives way to the default.
            Some(text) if user_acted.try_get_value() == Some(false) => apply_saved(
                api::SemSaved::Kept {
                    name: WORKSPACE_KEY.into(),
                    text,
                },
                true,
            ),
            _ => load_default(false),
        }
    });

    view! {
        <section data-testid="page-structure" class="structure">
            <h1>"Benchmark structure (Gold)"</h1>
            <p class="lead">
                "Fit a PLS-SEM model to a models × tasks score matrix: which tasks are redundant (VIF), \
                 weak (loadings), whether the abilities are separable (HTMT), and what a pruned, \
                 loading-weighted suite would rank. Everything runs in this tab."
            </p>
            <div class="card st-data">
                <h2>"1. Score matrix"</h2>
                <div class="st-row">
                    <button type="button" data-testid="load-default" on:click=move |_| { user_acted.set_value(true); load_default(true); }>
                        "Use Gold Table 2 (10 models × 11 tasks)"
                    </button>
                    <label class="file-label">
                        "Load CSV / TSV / JSON (incl. OpenVLM): "
                        <input type="file" data-testid="data-file" accept=".csv,.tsv,.txt,.json" on:change=on_file />
                    </label>
                    <label class="file-label">
                        "Load a saved report: "
                        <input type="file" data-testid="report-file" accept=".json" on:change=on_report_file />
                    </label>
                </div>
                <p data-testid="data-summary" class="muted">
                    {move || match data.get() {
                        Some(d) => format!("{}: {} models, {} numeric columns", d.name, d.models.len(), d.columns.len()),
                        None => "No matrix loaded yet.".into(),
                    }}
                </p>
            </div>
            {move || error.get().map(|(t, m)| view! { <ErrorPanel title=t message=m /> })}
            <Editor data draft prune switches on_spec_file export_report />
            <Results analysis draft data gold busy progress boot_n boot_seed run worker />
        </section>
    }
}

/// The model editor: constructs, task assignment, structure, scheme, human column,
/// thresholds and spec import/export.
#[component]
pub fn Editor(
    /// The loaded matrix.
    data: RwSignal<Option<DataSet>>,
    /// The spec being edited.
    draft: RwSignal<SpecDraft>,
    /// Whether pruning runs.
    prune: RwSignal<bool>,
    /// The paper-fidelity switches.
    switches: RwSignal<SemSwitches>,
    /// Spec file chosen for import.
    on_spec_file: impl Fn(leptos::ev::Event) + 'static,
    /// Exports the whole analysis.
    export_report: impl Fn() + 'static + Copy,
) -> impl IntoView {
    let names = move || {
        draft
            .read()
            .constructs
            .iter()
            .map(|c| c.name.clone())
            .collect::<Vec<_>>()
    };
    let structural = move || {
        let d = draft.read();
        let mut v: Vec<String> = d.constructs.iter().map(|c| c.name.clone()).collect();
        v.extend(d.second_order.iter().map(|h| h.name.clone()));
        if let Some(h) = &d.human_column {
            if d.construct_of(h).is_none() {
                v.push(h.clone());
            }
        }
        v
    };
    let columns = move || {
        data.read()
            .as_ref()
            .map(|d| d.columns.clone())
            .unwrap_or_default()
    };
    let path_from = RwSignal::new(String::new());
    let path_to = RwSignal::new(String::new());
    let num_input = move |get: fn(&SpecDraft) -> f64,
                          set: fn(&mut SpecDraft, f64),
                          label: &'static str,
                          id: &'static str,
                          step: &'static str| {
        view! {
            <label>
                {label}
                <input
                    type="number"
                    step=step
                    data-testid=id
                    prop:value=move || get(&draft.read()).to_string()
                    on:change=move |ev| {
                        if let Ok(v) = event_target_value(&ev).trim().parse::<f64>() {
                            if v.is_finite() && v >= 0.0 {
                                draft.update(|d| set(d, v));
                            }
                        }
                    }
                />
            </label>
        }
    };
    view! {
        <div class="card st-editor" data-testid="editor">
            <h2>"2. Model"</h2>
            <div class="st-grid">
                <div>
                    <h3>"Constructs"</h3>
                    <ul class="st-constructs" data-testid="constructs">
                        <For
                            each=move || draft.read().constructs.clone().into_iter().enumerate()
                            key=|(i, c)| format!("{i}|{}|{:?}|{}", c.name, c.mode, c.indicators.len())
                            let((i, c))
                        >
                            {
                                let name = c.name.clone();
                                let name2 = c.name.clone();
                                let name3 = c.name.clone();
                                let n_ind = c.indicators.len();
                                view! {
                                    <li data-testid=format!("construct-{i}")>
                                        <input
                                            type="text"
                                            aria-label=format!("Name of construct {}", i + 1)
                                            value=name.clone()
                                            on:change=move |ev| {
                                                let new = event_target_value(&ev);
                                                let old = name.clone();
                                                draft.update(|d| { d.rename(&old, &new); });
                                            }
                                        />
                                        <select
                                            data-testid=format!("mode-{i}")
                                            aria-label=format!("Mode of {}", c.name)
                                            on:change=move |ev| {
                                                let m = if event_target_value(&ev) == "B" { Mode::B } else { Mode::A };
                                                let n = name2.clone();
                                                draft.update(|d| {
                                                    if let Some(c) = d.constructs.iter_mut().find(|c| c.name == n) {
                                                        c.mode = m;
                                                    }
                                                });
                                            }
                                        >
                                            <option value="A" selected=c.mode == Mode::A>"Mode A"</option>
                                            <option value="B" selected=c.mode == Mode::B>"Mode B"</option>
                                        </select>
                                        <span class="muted">{format!("{n_ind} tasks")}</span>
                                        <button
                                            type="button"
                                            class="danger-link"
                                            aria-label=format!("Delete construct {}", c.name)
                                            on:click=move |_| { let n = name3.clone(); draft.update(|d| d.delete(&n)); }
                                        >
                                            "Delete"
                                        </button>
                                    </li>
                                }
                            }
                        </For>
                    </ul>
                    <button
                        type="button"
                        data-testid="add-construct"
                        on:click=move |_| draft.update(|d| {
                            let name = d.fresh_name("Construct");
                            d.constructs.push(DraftConstruct { name, indicators: vec![], mode: Mode::A });
                        })
                    >
                        "Add construct"
                    </button>
                </div>
                <div>
                    <h3>"Tasks"</h3>
                    <table class="st-assign" data-testid="assign">
                        <thead><tr><th scope="col">"Task (column)"</th><th scope="col">"Construct"</th></tr></thead>
                        <tbody>
                            <For each=columns key=|c| c.clone() let(col)>
                                {
                                    let col2 = col.clone();
                                    let col3 = col.clone();
                                    view! {
                                        <tr>
                                            <th scope="row">{col.clone()}</th>
                                            <td>
                                                <select
                                                    data-testid=format!("assign-{col}")
                                                    aria-label=format!("Construct of {col}")
                                                    on:change=move |ev| {
                                                        let v = event_target_value(&ev);
                                                        let c = col2.clone();
                                                        draft.update(|d| d.assign(&c, if v.is_empty() { None } else { Some(v.as_str()) }));
                                                    }
                                                >
                                                    <option value="" selected=move || draft.read().construct_of(&col3).is_none()>"— not used —"</option>
                                                    {
                                                        let col4 = col.clone();
                                                        move || {
                                                            let cur = draft.read().construct_of(&col4).map(str::to_string);
                                                            names()
                                                                .into_iter()
                                                                .map(|n| {
                                                                    let sel = cur.as_deref() == Some(n.as_str());
                                                                    view! { <option value=n.clone() selected=sel>{n.clone()}</option> }
                                                                })
                                                                .collect::<Vec<_>>()
                                                        }
                                                    }
                                                </select>
                                            </td>
                                        </tr>
                                    }
                                }
                            </For>
                        </tbody>
                    </table>
                </div>
                <div>
                    <h3>"Structure"</h3>
                    <div class="st-row">
                        <button type="button" data-testid="preset-overall" on:click=move |_| draft.update(|d| d.apply_preset(Preset::LayersToOverall))>
                            "Preset: constructs → Overall"
                        </button>
                        <button type="button" data-testid="preset-chain" on:click=move |_| draft.update(|d| d.apply_preset(Preset::Chain))>
                            "Preset: chain"
                        </button>
                        <button type="button" on:click=move |_| draft.update(|d| { d.paths.clear(); d.second_order.clear(); })>
                            "Clear"
                        </button>
                    </div>
                    <p class="muted" data-testid="second-order">
                        {move || {
                            let d = draft.read();
                            d.second_order
                                .iter()
                                .map(|h| format!("{} (second order) ← {}", h.name, h.constructs.join(", ")))
                                .collect::<Vec<_>>()
                                .join("; ")
                        }}
                    </p>
                    <ul class="st-paths" data-testid="paths">
                        {move || {
                            draft
                                .read()
                                .paths
                                .iter()
                                .enumerate()
                                .map(|(k, (a, b))| {
                                    view! {
                                        <li>
                                            {format!("{a} → {b}")}
                                            " "
                                            <button type="button" class="danger-link" data-testid=format!("remove-path-{k}") aria-label=format!("Remove path {a} to {b}")
                                                on:click=move |_| draft.update(|d| { if k < d.paths.len() { d.paths.remove(k); } })>
                                                "Remove"
                                            </button>
                                        </li>
                                    }
                                })
                                .collect::<Vec<_>>()
                        }}
                    </ul>
                    <div class="st-row">
                        <select aria-label="Path from" data-testid="path-from" on:change=move |ev| path_from.set(event_target_value(&ev))>
                            <option value="">"from…"</option>
                            {move || structural().into_iter().map(|n| view! { <option value=n.clone()>{n.clone()}</option> }).collect::<Vec<_>>()}
                        </select>
                        <select aria-label="Path to" data-testid="path-to" on:change=move |ev| path_to.set(event_target_value(&ev))>
                            <option value="">"to…"</option>
                            {move || structural().into_iter().map(|n| view! { <option value=n.clone()>{n.clone()}</option> }).collect::<Vec<_>>()}
                        </select>
                        <button
                            type="button"
                            data-testid="add-path"
                            on:click=move |_| {
                                let (a, b) = (path_from.get_untracked(), path_to.get_untracked());
                                if !a.is_empty() && !b.is_empty() {
                                    draft.update(|d| d.paths.push((a, b)));
                                }
                            }
                        >
                            "Add path"
                        </button>
                    </div>
                    <h3>"Options"</h3>
                    <div class="st-options">
                        <label>
                            "Inner scheme "
                            <select data-testid="scheme" on:change=move |ev| {
                                let s = match event_target_value(&ev).as_str() {
                                    "factorial" => Scheme::Factorial,
                                    "centroid" => Scheme::Centroid,
                                    _ => Scheme::Path,
                                };
                                draft.update(|d| d.scheme = s);
                            }>
                                <option value="path" selected=move || draft.read().scheme == Scheme::Path>"path"</option>
                                <option value="factorial" selected=move || draft.read().scheme == Scheme::Factorial>"factorial"</option>
                                <option value="centroid" selected=move || draft.read().scheme == Scheme::Centroid>"centroid"</option>
                            </select>
                        </label>
                        <label>
                            "Human column "
                            <select data-testid="human" on:change=move |ev| {
                                let v = event_target_value(&ev);
                                draft.update(|d| d.human_column = (!v.is_empty()).then_some(v));
                            }>
                                <option value="">"none"</option>
                                {move || {
                                    let cur = draft.read().human_column.clone();
                                    columns().into_iter().map(|c| {
                                        let sel = cur.as_deref() == Some(c.as_str());
                                        view! { <option value=c.clone() selected=sel>{c.clone()}</option> }
                                    }).collect::<Vec<_>>()
                                }}
                            </select>
                        </label>
                        {num_input(|d| d.thresholds.vif_max, |d, v| d.thresholds.vif_max = v, "δ_VIF (max VIF) ", "vif-max", "0.1")}
                        {num_input(|d| d.thresholds.loading_min, |d, v| d.thresholds.loading_min = v, "λ_min (min loading) ", "loading-min", "0.05")}
                        {num_input(|d| d.thresholds.min_indicators as f64, |d, v| d.thresholds.min_indicators = v.round().max(1.0) as usize, "min tasks per construct ", "min-ind", "1")}
                        <label class="check">
                            <input type="checkbox" data-testid="prune" prop:checked=move || prune.get() on:change=move |ev| prune.set(event_target_checked(&ev)) />
                            " Prune"
                        </label>
                    </div>
                    <Fidelity draft switches data />
                    <h3>"Spec"</h3>
                    <div class="st-row">
                        <button type="button" data-testid="export-spec" on:click=move |_| download_text("spec.json", "application/json", &draft.get_untracked().to_json())>
                            "Export spec JSON"
                        </button>
                        <label class="file-label">
                            "Import spec: "
                            <input type="file" data-testid="spec-file" accept=".json" on:change=on_spec_file />
                        </label>
                        <button type="button" data-testid="export-report" on:click=move |_| export_report()>
                            "Export whole report"
                        </button>
                    </div>
                    <details>
                        <summary>"Spec JSON"</summary>
                        <pre data-testid="spec-json" class="spec-json">{move || draft.read().to_json()}</pre>
                    </details>
                </div>
            </div>
        </div>
    }
}

/// `LOW:HIGH` as a scale; `None` for an empty or unreadable text.
fn parse_scale(text: &str) -> Option<Scale> {
    let (a, b) = text.split_once(':')?;
    let (low, high) = (a.trim().parse::<f64>().ok()?, b.trim().parse::<f64>().ok()?);
    (low.is_finite() && high.is_finite() && low < high).then_some(Scale { low, high })
}

fn scale_text(s: Option<Scale>) -> String {
    s.map(|s| format!("{}:{}", s.low, s.high))
        .unwrap_or_default()
}

/// The paper-fidelity switches (issue 23): where Gold's paper and our choice differ, each
/// position labelled with its source, the default named, and the glossary sentences.
#[component]
fn Fidelity(
    /// The spec being edited (the measurement preset sets its modes).
    draft: RwSignal<SpecDraft>,
    /// The switches.
    switches: RwSignal<SemSwitches>,
    /// The loaded matrix (its out-of-range cells are flagged before a fit).
    data: RwSignal<Option<DataSet>>,
) -> impl IntoView {
    let worker = StoredValue::new_local(use_worker());
    let sel = move |f: fn(&SemSwitches) -> bool| move || f(&switches.read());
    let scale_error = RwSignal::new(None::<String>);
    // Issue 23: the cells outside the stated scale, flagged as soon as a matrix, a spec and a
    // scale are there, before any fit (the worker checks its kept matrix).
    let before_fit = RwSignal::new(None::<Vec<coglab_core::sem::analysis::OutOfRange>>);
    let checked = StoredValue::new(0u64);
    Effect::new(move || {
        let matrix = data.read().as_ref().map(|d| d.matrix);
        let scale = switches.read().scale;
        let spec = draft.read().to_json();
        checked.update_value(|g| *g += 1);
        let mine = checked.get_value();
        let (Some(matrix), Some(scale)) = (matrix, scale) else {
            before_fit.set(None);
            return;
        };
        let client = worker.get_value();
        spawn_local(async move {
            let reply = client
                .call(api::SemRange {
                    matrix,
                    spec,
                    scale,
                })
                .await;
            if checked.try_get_value() == Some(mine) {
                // A spec without tasks, or a matrix the worker no longer keeps (the fit reads
                // it again): nothing to flag yet.
                before_fit.try_set(reply.ok());
            }
        });
    });
    view! {
        <h3>"Paper fidelity"</h3>
        <div class="st-options" data-testid="fidelity">
            <label>
                "HTMT "
                <select data-testid="htmt-variant" on:change=move |ev| {
                    let v = if event_target_value(&ev) == "eq1" { HtmtVariant::Eq1 } else { HtmtVariant::Standard };
                    switches.update(|s| s.htmt = v);
                }>
                    <option value="standard" selected=sel(|s| s.htmt == HtmtVariant::Standard)>{format!("{} (default)", HtmtVariant::Standard.label())}</option>
                    <option value="eq1" selected=sel(|s| s.htmt == HtmtVariant::Eq1)>{HtmtVariant::Eq1.label()}</option>
                </select>
            </label>
            <label>
                "Pruning "
                <select data-testid="prune-variant" on:change=move |ev| {
                    let v = if event_target_value(&ev) == "algorithm1" { PruneVariant::Algorithm1 } else { PruneVariant::Stepwise };
                    switches.update(|s| s.prune_variant = v);
                }>
                    <option value="stepwise" selected=sel(|s| s.prune_variant == PruneVariant::Stepwise)>{format!("{} (default)", PruneVariant::Stepwise.label())}</option>
                    <option value="algorithm1" selected=sel(|s| s.prune_variant == PruneVariant::Algorithm1)>{PruneVariant::Algorithm1.label()}</option>
                </select>
            </label>
            <label>
                "Human column enters as "
                <select data-testid="arena-placement" on:change=move |ev| {
                    let v = if event_target_value(&ev) == "top_indicator" { ArenaPlacement::TopIndicator } else { ArenaPlacement::Construct };
                    switches.update(|s| s.arena = v);
                }>
                    <option value="construct" selected=sel(|s| s.arena == ArenaPlacement::Construct)>{format!("{} (default)", ArenaPlacement::Construct.label())}</option>
                    <option value="top_indicator" selected=sel(|s| s.arena == ArenaPlacement::TopIndicator)>{ArenaPlacement::TopIndicator.label()}</option>
                </select>
            </label>
            <div class="st-row">
                "Measurement: "
                <button type="button" data-testid="preset-mode-a" on:click=move |_| draft.update(|d| d.apply_measurement(MeasurementPreset::ModeA))>
                    {format!("{} (default)", MeasurementPreset::ModeA.label())}
                </button>
                <button type="button" data-testid="preset-formative" on:click=move |_| draft.update(|d| d.apply_measurement(MeasurementPreset::PaperFormative))>
                    {MeasurementPreset::PaperFormative.label()}
                </button>
                <span class="muted" data-testid="measurement-current">
                    {move || match draft.read().measurement() {
                        Some(p) => format!("now: {}", p.label()),
                        None => "now: mixed modes".into(),
                    }}
                </span>
            </div>
            <p class="muted" data-testid="measurement-note">{MeasurementPreset::PAPER_NOTE}</p>
            <label>
                "Stated scale of the tasks (LOW:HIGH, empty = no check) "
                <input type="text" data-testid="scale" placeholder="e.g. 0:100" size="8"
                    prop:value=move || scale_text(switches.read().scale)
                    on:change=move |ev| {
                        let t = event_target_value(&ev);
                        if t.trim().is_empty() {
                            scale_error.set(None);
                            switches.update(|s| s.scale = None);
                        } else if let Some(sc) = parse_scale(&t) {
                            scale_error.set(None);
                            switches.update(|s| s.scale = Some(sc));
                        } else {
                            scale_error.set(Some(format!("scale: expected LOW:HIGH with LOW < HIGH (e.g. 0:100), found {t:?}")));
                        }
                    } />
            </label>
            <label class="check">
                <input type="checkbox" data-testid="exclude-out-of-range"
                    prop:checked=move || switches.read().exclude_out_of_range
                    on:change=move |ev| { let v = event_target_checked(&ev); switches.update(|s| s.exclude_out_of_range = v) } />
                " Exclude out-of-range cells (treat as missing; default: fit as given)"
            </label>
            {move || scale_error.get().map(|e| view! { <p class="error-panel" role="alert" data-testid="scale-error">{e}</p> })}
            {move || before_fit.get().map(|cells| {
                if cells.is_empty() {
                    view! { <p class="muted" data-testid="out-of-range-before" data-count="0">"No task cell outside the stated scale."</p> }.into_any()
                } else {
                    let list: Vec<String> = cells.iter().map(|c| c.to_string()).collect();
                    let what = if switches.read().exclude_out_of_range {
                        "They will be treated as missing (the box is ticked)."
                    } else {
                        "The fit takes them as given (the default); tick the box to treat them as missing."
                    };
                    view! {
                        <p class="error-panel" role="alert" data-testid="out-of-range-before" data-count=cells.len().to_string()>
                            <strong>"Before fitting: "</strong>
                            {format!("{} task cell(s) outside the stated scale: {}. {what}", cells.len(), list.join("; "))}
                        </p>
                    }.into_any()
                }
            })}
        </div>
        <details data-testid="fidelity-glossary">
            <summary>"Which source each switch follows"</summary>
            <dl>
                {FIDELITY_GLOSSARY.iter().map(|(k, v)| view! { <dt>{*k}</dt><dd>{*v}</dd> }).collect::<Vec<_>>()}
            </dl>
        </details>
    }
}

fn export_buttons(
    label: &'static str,
    id: &'static str,
    csv: impl Fn() -> Option<String> + 'static + Copy,
    json: impl Fn() -> Option<String> + 'static + Copy,
) -> impl IntoView {
    view! {
        <span class="exports">
            <button type="button" class="small" data-testid=format!("csv-{id}") aria-label=format!("Export {label} as CSV")
                on:click=move |_| { if let Some(t) = csv() { download_text(&format!("{id}.csv"), "text/csv", &t) } }>
                "CSV"
            </button>
            <button type="button" class="small" data-testid=format!("json-{id}") aria-label=format!("Export {label} as JSON")
                on:click=move |_| { if let Some(t) = json() { download_text(&format!("{id}.json"), "application/json", &t) } }>
                "JSON"
            </button>
        </span>
    }
}

/// The results of the last fit.
#[component]
fn Results(
    /// The last analysis.
    analysis: RwSignal<Option<Analysis>>,
    /// The spec (for thresholds).
    draft: RwSignal<SpecDraft>,
    /// The loaded matrix.
    data: RwSignal<Option<DataSet>>,
    /// Gold's bundled tables.
    gold: RwSignal<Option<ReportedBundle>>,
    /// Whether a fit is running.
    busy: RwSignal<bool>,
    /// Bootstrap progress in [0, 1].
    progress: RwSignal<Option<f64>>,
    /// Bootstrap resamples as typed (checked against the limits when the bootstrap is run).
    boot_n: RwSignal<u64>,
    /// Bootstrap seed.
    boot_seed: RwSignal<u64>,
    /// Runs the analysis (with a bootstrap when given).
    run: impl Fn(Option<BootstrapOptions>) + 'static + Copy + Send + Sync,
    /// The worker (to cancel a bootstrap).
    #[prop(into)]
    worker: Worker,
) -> impl IntoView {
    let _ = data;
    // Why the typed resamples were refused (out of the command line's bounds), if they were.
    let boot_error = RwSignal::new(None::<String>);
    let rep =
        move |f: fn(&SemReport) -> String| move || analysis.read().as_ref().map(|a| f(&a.report));
    let sort = RwSignal::new(("rank".to_string(), false));
    view! {
        <div class="card st-results" data-testid="results" aria-busy=move || busy.get().to_string()>
            <h2>"3. Results"</h2>
            <Show
                when=move || analysis.read().is_some()
                fallback=move || view! { <p class="muted">"Assign tasks to at least one construct to fit a model."</p> }
            >
                {move || {
                    let Some(a) = analysis.get() else { return ().into_any() };
                    let r = a.report.clone();
                    let th = draft.read_untracked().thresholds;
                    let task_constructs: Vec<String> = r
                        .constructs
                        .iter()
                        .filter(|c| c.order == 1 && !c.human)
                        .map(|c| c.name.clone())
                        .collect();
                    let outer_rows = r.outer.iter().map(|(item, o)| {
                        let vif = r.vif.get(item).copied();
                        // Thresholds apply to tasks, not to the stage-2 indicators (lower-order
                        // construct scores) of a second-order construct.
                        let is_task = task_constructs.contains(&o.construct);
                        let weak = is_task && o.loading.abs() < th.loading_min;
                        let redundant = is_task && vif.is_some_and(|v| v > th.vif_max);
                        view! {
                            <tr class:weak=weak class:redundant=redundant data-item=item.clone()>
                                <th scope="row">{item.clone()}</th>
                                <td>{o.construct.clone()}</td>
                                <td class="num">{f3(o.weight)}</td>
                                <td class="num" class:flag=weak>{f3(o.loading)}</td>
                                <td class="num" class:flag=redundant>{opt3(vif)}</td>
                                <td>{match (weak, redundant) { (true, true) => "weak, redundant", (true, false) => "weak (λ < λ_min)", (false, true) => "redundant (VIF > δ_VIF)", _ => "" }}</td>
                            </tr>
                        }
                    }).collect::<Vec<_>>();
                    let rel_rows = r.reliability.iter().map(|(c, x)| view! {
                        <tr><th scope="row">{c.clone()}</th><td class="num">{f3(x.alpha)}</td><td class="num">{f3(x.rho_a)}</td><td class="num">{f3(x.rho_c)}</td><td class="num">{f3(x.ave)}</td></tr>
                    }).collect::<Vec<_>>();
                    let d = r.diagnostics;
                    let t3: Option<ReportedTable> = gold.read().as_ref().and_then(|g| g.table("gold-table3").cloned());
                    let t3_rows = t3.map(|t| t.rows.iter().map(|row| {
                        let cell = |k: usize| row.values.get(k).copied().flatten().map(f3).unwrap_or_else(|| "–".into());
                        view! { <tr class="paper"><th scope="row">{row.label.clone()}" (paper)"</th><td class="num">{cell(0)}</td><td class="num">{cell(1)}</td><td class="num">{cell(2)}</td><td class="num">{cell(3)}</td></tr> }
                    }).collect::<Vec<_>>());
                    let steps = r.pruning.iter().enumerate().map(|(k, p)| view! {
                        <li data-testid=format!("prune-step-{}", k + 1)>
                            <strong>{format!("Step {}: removed {}", k + 1, p.removed)}</strong>
                            {format!(" ({}), {} = {} ", p.construct, if p.reason == "vif" { "VIF" } else { "loading" }, f3(p.value))}
                            <span class="muted">{format!("before removal: D_div {}, TC {}, D_valid {}, mean {}", opt3(p.diagnostics.d_div), f3(p.diagnostics.tc), f3(p.diagnostics.d_valid), f3(p.diagnostics.mean))}</span>
                        </li>
                    }).collect::<Vec<_>>();
                    let n_steps = steps.len();
                    let desc_rows = r.descriptives.indicators.iter().map(|(n, x)| ("task", n, x))
                        .chain(r.descriptives.constructs.iter().map(|(n, x)| ("construct", n, x)))
                        .map(|(kind, n, x)| view! {
                            <tr><th scope="row">{n.clone()}</th><td>{kind}</td><td class="num">{x.n}</td><td class="num">{f3(x.mean)}</td><td class="num">{opt3(x.sd)}</td>
                            <td class="num">{opt3(x.skewness)}</td><td class="num">{opt3(x.excess_kurtosis)}</td><td class="num">{opt3(x.cvm_w_star)}</td><td class="num">{x.cvm_p.map_or_else(|| "–".to_string(), format_p)}</td></tr>
                        }).collect::<Vec<_>>();
                    let boot_rows = r.bootstrap.as_ref().map(|b| {
                        let rows = [("loading", &b.loadings), ("path", &b.paths), ("weight", &b.weights)].into_iter()
                            .flat_map(|(kind, m)| m.iter().map(move |(n, s)| (kind, n.clone(), *s)))
                            .map(|(kind, n, s)| view! {
                                <tr><th scope="row">{n}</th><td>{kind}</td><td class="num">{f3(s.original)}</td><td class="num">{f3(s.mean)}</td><td class="num">{f3(s.se)}</td><td class="num">{opt3(s.t)}</td><td class="num">{format!("[{}, {}]", f3(s.ci_low), f3(s.ci_high))}</td></tr>
                            }).collect::<Vec<_>>();
                        view! {
                            <p data-testid="boot-summary">{format!("{} resamples (seed {}): {} succeeded, {} failed; {:.0} ms in the worker.", b.resamples, b.seed, b.succeeded, b.failed, a.ms)}</p>
                            <div class="table-scroll"><table data-testid="table-bootstrap"><thead><tr><th scope="col">"Estimate"</th><th scope="col">"Kind"</th><th scope="col">"Original"</th><th scope="col">"Mean"</th><th scope="col">"SE"</th><th scope="col">"t"</th><th scope="col">"95% interval"</th></tr></thead><tbody>{rows}</tbody></table></div>
                        }
                    });
                    // The paper's own tables beside the figures they correspond to (issue 23).
                    let paper = |ids: &[&'static str], what: &'static str| {
                        let g = gold.read();
                        let tables: Vec<ReportedTable> = ids.iter().filter_map(|id| g.as_ref()?.table(id).cloned()).collect();
                        (!tables.is_empty()).then(|| {
                            let testid = format!("paper-{}", ids.join("-"));
                            let names = tables.iter().map(|t| t.source.clone()).collect::<Vec<_>>().join(", ");
                            view! {
                                <details class="paper-tables" data-testid=testid>
                                    <summary>{format!("The paper's {names}: {what}")}</summary>
                                    {tables.into_iter().map(|t| view! { <ReportedTableView table=t /> }).collect_view()}
                                </details>
                            }
                        })
                    };
                    let paper_rel = paper(&["gold-table1"], "Gold's reliability on its 190-model data (its “Reliability” column is presumably ρ_A)");
                    let paper_outer = paper(&["gold-table6", "gold-table7"], "outer loadings and VIFs of MMEBench's tasks");
                    let paper_htmt = paper(&["gold-table8"], "MMEBench's HTMT matrix (formula not stated); its 0.910 gives Table 3's D_div 0.549");
                    let paper_desc = paper(&["gold-table4", "gold-table5"], "descriptives of the GoldBench (190 models) and MMEBench (191 models) construct scores");
                    let r2 = r.clone();
                    view! {
                        <p data-testid="fit-summary" class="muted">
                            {format!("{} models ({} dropped), {} iterations, scheme {:?}; ", r.n_models, r.dropped_models.len(), r.iterations, r.scheme)}
                            <span data-testid="fit-ms">{format!("{:.1}", a.ms)}</span>" ms in the worker."
                        </p>
                        <p data-testid="fit-switches" class="muted">
                            {format!(
                                "HTMT: {}; pruning: {}; human column: {}; measurement: {}.",
                                r.htmt_variant.label(),
                                r.prune_variant.map_or("off", |v| v.label()),
                                if r.human.is_some() { r.arena_placement.label() } else { "none" },
                                if r.constructs.iter().all(|c| c.mode == Mode::A) { "Mode A everywhere" }
                                else if r.constructs.iter().all(|c| c.mode == Mode::B) { "Mode B everywhere (the paper's formative)" }
                                else { "mixed modes" },
                            )}
                        </p>
                        {(!r.out_of_range.is_empty()).then(|| {
                            let cells: Vec<String> = r.out_of_range.iter().map(|c| c.to_string()).collect();
                            let what = if r.out_of_range_excluded {
                                format!("Excluded: treated as missing, so listwise deletion dropped {} model(s).", r.dropped_models.len())
                            } else {
                                "Fitted as given (the default); tick “Exclude out-of-range cells” above to treat them as missing.".to_string()
                            };
                            view! {
                                <p class="error-panel" role="alert" data-testid="out-of-range">
                                    <strong>"Out of range: "</strong>
                                    {format!("{} task cell(s) outside the stated scale: {}. {what}", cells.len(), cells.join("; "))}
                                </p>
                            }
                        })}
                        {r.listwise_warning.as_ref().map(|w| view! {
                            <p class="error-panel" role="alert" data-testid="listwise-warning">
                                <strong>"Warning: "</strong>
                                {format!("{w}. Each missing cell drops its model; leave out the sparsest columns or fill their cells to keep more models.")}
                            </p>
                        })}
                        {r.human.as_ref().map(|h| view! {
                            <p data-testid="human-alignment">
                                {format!(
                                    "Weighted overall score against the human column {}: Pearson r = {:.3} ({}), Spearman ρ = {:.3} ({}), {} models.",
                                    h.column, h.pearson.r, p_phrase(h.pearson.p), h.spearman.r, p_phrase(h.spearman.p), h.pearson.n
                                )}
                            </p>
                        })}
                        <h3>"Path diagram " {png_button("path diagram", "sem-diagram", "path-diagram.png")}</h3>
                        <PathDiagram report=r2 />
                        <h3>"Loadings, weights and VIF " {export_buttons("outer model", "outer", rep(|r| report_csv(r, ReportTable::Outer)), rep(|r| serde_json::to_string_pretty(&(&r.outer, &r.vif)).unwrap_or_default()))}</h3>
                        <p class="muted">{format!("Highlighted: loading below λ_min = {} (weak) or VIF above δ_VIF = {} (redundant).", th.loading_min, th.vif_max)}</p>
                        <div class="table-scroll"><table data-testid="table-outer">
                            <thead><tr><th scope="col">"Task"</th><th scope="col">"Construct"</th><th scope="col">"Weight"</th><th scope="col">"Loading"</th><th scope="col">"VIF"</th><th scope="col">"Flag"</th></tr></thead>
                            <tbody>{outer_rows}</tbody>
                        </table></div>
                        {paper_outer}
                        <h3>"Reliability " {export_buttons("reliability", "reliability", rep(|r| report_csv(r, ReportTable::Reliability)), rep(|r| serde_json::to_string_pretty(&r.reliability).unwrap_or_default()))}</h3>
                        <div class="table-scroll"><table data-testid="table-reliability">
                            <thead><tr><th scope="col">"Construct"</th><th scope="col">"α"</th><th scope="col">"ρ_A"</th><th scope="col">"ρ_C"</th><th scope="col">"AVE"</th></tr></thead>
                            <tbody>{rel_rows}</tbody>
                        </table></div>
                        {paper_rel}
                        <h3>"HTMT " <span class="muted" data-testid="htmt-label">{format!("({})", r.htmt_variant.label())}</span> " " {png_button("HTMT heatmap", "htmt-heatmap", "htmt-heatmap.png")} {export_buttons("HTMT", "htmt", rep(|r| report_csv(r, ReportTable::Htmt)), rep(|r| serde_json::to_string_pretty(&serde_json::json!({"htmt_variant": r.htmt_variant, "htmt": r.htmt})).unwrap_or_default()))}</h3>
                        <HtmtHeatmap constructs=task_constructs htmt=r.htmt.clone() />
                        {paper_htmt}
                        <h3>"Suite diagnostics " {export_buttons("diagnostics", "diagnostics", rep(|r| report_csv(r, ReportTable::Diagnostics)), rep(|r| serde_json::to_string_pretty(&r.diagnostics).unwrap_or_default()))}</h3>
                        <div class="table-scroll"><table data-testid="table-diagnostics">
                            <thead><tr><th scope="col">"Suite"</th><th scope="col" data-testid="ddiv-head" title=format!("D_div = min(1, 1/(2·max HTMT)) with HTMT: {}", r.htmt_variant.label())>{format!("D_div (HTMT {})", r.htmt_variant.as_str())}</th><th scope="col">"TC"</th><th scope="col">"D_valid"</th><th scope="col">"Mean"</th></tr></thead>
                            <tbody>
                                <tr class="ours" data-testid="diag-ours"><th scope="row">"This model"</th><td class="num">{opt3(d.d_div)}</td><td class="num">{f3(d.tc)}</td><td class="num">{f3(d.d_valid)}</td><td class="num">{f3(d.mean)}</td></tr>
                                {t3_rows}
                            </tbody>
                        </table></div>
                        <h3>"Weighted scores " {export_buttons("scores", "scores", move || analysis.read().as_ref().map(|a| ranks_csv(&a.ranks)), move || analysis.read().as_ref().map(|a| serde_json::to_string_pretty(&a.ranks).unwrap_or_default()))}</h3>
                        <ScoresTable ranks=a.ranks.clone() constructs=task_constructs_clone(&r) sort />
                        <h3>"Pruning steps " <span class="muted" data-testid="prune-label">{match r.prune_variant { Some(v) => format!("({})", v.label()), None => "(pruning off)".to_string() }}</span> " " {export_buttons("pruning steps", "pruning", rep(|r| report_csv(r, ReportTable::Pruning)), rep(|r| serde_json::to_string_pretty(&serde_json::json!({"prune_variant": r.prune_variant, "pruning": r.pruning})).unwrap_or_default()))}</h3>
                        {if n_steps == 0 {
                            view! { <p class="muted" data-testid="prune-none">"No task removed (turn on “Prune” above, or every task passes the thresholds)."</p> }.into_any()
                        } else {
                            view! { <ol class="timeline" data-testid="prune-steps">{steps}</ol> }.into_any()
                        }}
                        <h3>"Descriptives and Cramér-von Mises " {export_buttons("descriptives", "descriptives", rep(|r| report_csv(r, ReportTable::Descriptives)), rep(|r| serde_json::to_string_pretty(&r.descriptives).unwrap_or_default()))}</h3>
                        <div class="table-scroll"><table data-testid="table-descriptives">
                            <thead><tr><th scope="col">"Name"</th><th scope="col">"Kind"</th><th scope="col">"n"</th><th scope="col">"Mean"</th><th scope="col">"SD"</th><th scope="col">"Skewness"</th><th scope="col">"Excess kurtosis"</th><th scope="col">"CvM W*"</th><th scope="col">"CvM p"</th></tr></thead>
                            <tbody>{desc_rows}</tbody>
                        </table></div>
                        {paper_desc}
                        <h3>"Bootstrap " {export_buttons("bootstrap", "bootstrap", rep(|r| report_csv(r, ReportTable::Bootstrap)), rep(|r| serde_json::to_string_pretty(&r.bootstrap).unwrap_or_default()))}</h3>
                        {boot_rows}
                    }.into_any()
                }}
            </Show>
            <div class="st-row st-boot">
                <label>"Resamples " <input type="number" min=MIN_BOOTSTRAP max=MAX_BOOTSTRAP step="100" data-testid="boot-n" prop:value=move || boot_n.get().to_string()
                    on:change=move |ev| { if let Ok(v) = event_target_value(&ev).trim().parse::<u64>() { boot_n.set(v); boot_error.set(None) } } /></label>
                <label>"Seed " <input type="number" min="0" data-testid="boot-seed" prop:value=move || boot_seed.get().to_string()
                    on:change=move |ev| { if let Ok(v) = event_target_value(&ev).trim().parse::<u64>() { boot_seed.set(v) } } /></label>
                <button type="button" data-testid="run-bootstrap" disabled=move || analysis.read().is_none()
                    on:click=move |_| match bootstrap_count(boot_n.get_untracked()) {
                        Ok(resamples) => {
                            boot_error.set(None);
                            run(Some(BootstrapOptions { resamples, seed: boot_seed.get_untracked() }))
                        }
                        Err(e) => boot_error.set(Some(e)),
                    }>
                    "Run bootstrap"
                </button>
                {move || boot_error.get().map(|e| view! {
                    <p class="error-panel" role="alert" data-testid="boot-n-error">{e}</p>
                })}
                <Show when=move || progress.get().is_some()>
                    <progress data-testid="boot-progress" max="1" value=move || progress.get().unwrap_or(0.0).to_string() aria-label="Bootstrap progress"></progress>
                    <button type="button" on:click=move |_| worker.0.get_value().cancel()>"Cancel"</button>
                </Show>
            </div>
        </div>
    }
}

/// SEM bootstrap resamples checked against the command line's bounds
/// ([`MIN_BOOTSTRAP`]..=[`MAX_BOOTSTRAP`]), with its message when out of them
/// (`bootstrap: at most 100000 allowed, found 1000000`).
fn bootstrap_count(n: u64) -> Result<usize, String> {
    coglab_core::limits::check("bootstrap", n, MIN_BOOTSTRAP, MAX_BOOTSTRAP)
        .map_err(|e| e.to_string())
}

fn task_constructs_clone(r: &SemReport) -> Vec<String> {
    r.constructs
        .iter()
        .filter(|c| c.order == 1 && !c.human)
        .map(|c| c.name.clone())
        .collect()
}

/// Weighted overall and layer scores with rank changes, sortable by any column.
#[component]
fn ScoresTable(
    /// Rows from the core's `rank_changes`.
    ranks: Vec<RankRow>,
    /// Layer (first-order construct) names.
    constructs: Vec<String>,
    /// Sort column and whether descending.
    sort: RwSignal<(String, bool)>,
) -> impl IntoView {
    let cons = constructs.clone();
    let total = ranks.len();
    // The first rows only, until asked: a few hundred rows at once kept the main thread busy
    // for >100 ms after every refit (Long Tasks, e2e OpenVLM test).
    let shown = RwSignal::new(SCORE_ROWS);
    let rows = move || {
        let (key, desc) = sort.get();
        let limit = shown.get();
        let mut v = ranks.clone();
        v.sort_by(|a, b| {
            let o = match key.as_str() {
                "model" => a.model.cmp(&b.model),
                "overall" => a.overall.total_cmp(&b.overall),
                "mean" => a.plain_mean.total_cmp(&b.plain_mean),
                "change" => a.change.cmp(&b.change),
                "rank" => a.rank_weighted.cmp(&b.rank_weighted),
                c => {
                    let x = a.by_construct.get(c).copied().unwrap_or(f64::NAN);
                    let y = b.by_construct.get(c).copied().unwrap_or(f64::NAN);
                    x.total_cmp(&y)
                }
            };
            if desc {
                o.reverse()
            } else {
                o
            }
        });
        let cons = cons.clone();
        v.into_iter()
            .take(limit)
            .map(|r| {
                let change = match r.change {
                    0 => "0".to_string(),
                    c if c > 0 => format!("▲ {c}"),
                    c => format!("▼ {}", -c),
                };
                let cells = cons
                    .iter()
                    .map(|c| view! { <td class="num">{opt3(r.by_construct.get(c).copied())}</td> })
                    .collect::<Vec<_>>();
                view! {
                    <tr data-model=r.model.clone()>
                        <td class="num">{r.rank_weighted}</td>
                        <th scope="row">{r.model.clone()}</th>
                        <td class="num">{f3(r.overall)}</td>
                        {cells}
                        <td class="num">{f3(r.plain_mean)}</td>
                        <td class="num">{r.rank_plain}</td>
                        <td class="num" class:up={r.change > 0} class:down={r.change < 0}>{change}</td>
                    </tr>
                }
            })
            .collect::<Vec<_>>()
    };
    let head = move |key: String, label: String| {
        let k2 = key.clone();
        let k3 = key.clone();
        view! {
            <th scope="col" aria-sort=move || { let (k, d) = sort.get(); if k == k3 { if d { "descending" } else { "ascending" } } else { "none" } }>
                <button type="button" class="sort" on:click=move |_| {
                    let k = k2.clone();
                    sort.update(|s| { if s.0 == k { s.1 = !s.1 } else { *s = (k, false) } });
                }>{label}</button>
            </th>
        }
    };
    view! {
        <div class="table-scroll scores-scroll">
            <table data-testid="table-scores">
                <thead>
                    <tr>
                        {head("rank".into(), "Rank".into())}
                        {head("model".into(), "Model".into())}
                        {head("overall".into(), "Weighted overall".into())}
                        {constructs.iter().map(|c| head(c.clone(), c.clone())).collect::<Vec<_>>()}
                        {head("mean".into(), "Plain mean".into())}
                        <th scope="col">"Rank (mean)"</th>
                        {head("change".into(), "Rank change".into())}
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
        <Show when=move || { total > shown.get() }>
            <p class="muted" data-testid="scores-shown">
                {move || format!("Showing the first {} of {total} models in this order. ", shown.get())}
                <button type="button" class="small" data-testid="scores-all" on:click=move |_| shown.set(usize::MAX)>
                    {format!("Show all {total}")}
                </button>
            </p>
        </Show>
    }
}

/// Rows of the scores table rendered before "Show all".
const SCORE_ROWS: usize = 50;
