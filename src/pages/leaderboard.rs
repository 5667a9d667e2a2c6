//! Leaderboard: one table per benchmark with the results reported in the papers, rows computed
//! in the browser from result files the user drops (scored in the worker by `coglab-core`, which
//! keeps the item-level data), and baselines; charts, a model page and comparisons.

use std::rc::Rc;

use crate::split;
use coglab_core::kiva::{NullAnswers, Variant};
use coglab_core::leaderboard::metrics::kiva_null_note;
use coglab_core::leaderboard::{guess_model, FileKind, FileStatus, KivaRow, MmiqRow, WAITING};
use coglab_core::mmiq::CATEGORIES;
use coglab_core::selftest::baselines::Baselines;
use leptos::prelude::*;
use leptos_router::hooks::use_query_map;
use wasm_bindgen::JsCast;

use crate::charts::bars::{draw_grouped_bars, BarSeries, GroupedBars};
use crate::charts::radar::{draw_radar, Radar, RadarSeries};
use crate::components::board_table::{arrange, Board, BoardTable, ViewState};
use crate::components::error_panel::ErrorPanel;
use crate::components::model_items::{ChallengeTrials, CompareModels, KivaTrials, ModelItems};
use crate::components::rank_panel::{RankMarks, RankPanel};
use crate::components::reported_table::ReportedTableView;
use crate::components::theme_toggle::chart_theme;
use crate::data::{base_path, fetch_text, load_reported, BENCHMARKS};
use crate::store::{self, StoredBlob};
use crate::worker::api::{self, FileRef};
use crate::worker::client::{use_worker, WorkerClient};
use crate::worker::protocol::ProgressUpdate;
use coglab_core::ranks::inputs::KivaStage;
use coglab_core::ranks::Bench;
use std::collections::HashMap;

mod board;
mod fidelity;
pub(crate) mod gold;
pub(crate) mod mmopera;

use board::{
    kiva_board, kiva_stages, mmiq_board, state_from_query, state_to_query, PARADIGM_SHORT,
};

/// A file waiting to be scored: detected format and the model name, which the user can edit.
#[derive(Debug, Clone, PartialEq)]
struct Staged {
    /// Path (folder-relative for a folder pick or drop).
    path: String,
    /// Size in bytes.
    size: f64,
    /// Format to read the file as (the detected one unless the user chose another).
    kind: FileKind,
    /// Format detected from the file's start.
    detected: FileKind,
    /// Model name (guessed from the path, editable).
    model: String,
    /// Whether to score it.
    include: bool,
    /// Why the file was not recognised, when the worker could tell (UTF-16 text).
    note: Option<String>,
}

/// The loaded files and computed rows of this page (kept across tab switches).
#[derive(Clone, Copy)]
struct Workspace {
    files: RwSignal<Vec<FileStatus>>,
    mmiq: RwSignal<Vec<MmiqRow>>,
    /// MM-IQ rows of VLMEvalKit `_acc.csv` summaries.
    mmiq_acc: RwSignal<Vec<coglab_core::leaderboard::MmiqAccRow>>,
    /// Rows of harness summary files (lmms-eval `results.json`, EEE aggregates).
    harness_summary: RwSignal<Vec<coglab_core::leaderboard::HarnessSummaryRow>>,
    kiva: RwSignal<Vec<KivaRow>>,
    /// KiVA challenge results scored against their annotations.
    kiva_challenge: RwSignal<Vec<coglab_core::leaderboard::KivaChallengeRow>>,
    mmopera: RwSignal<Vec<coglab_core::leaderboard::mmopera::MmoperaRow>>,
    gold: RwSignal<Vec<coglab_core::leaderboard::gold::GoldRow>>,
    progress: RwSignal<Option<ProgressUpdate>>,
    /// Labels (paths) the worker has reported progress for, in order, during scoring.
    seen: RwSignal<Vec<String>>,
    error: RwSignal<Option<String>>,
    /// Files picked but not yet scored.
    staged: RwSignal<Vec<Staged>>,
    /// The `web_sys::File` of each staged entry (same order).
    staged_files: StoredValue<Vec<web_sys::File>, LocalStorage>,
    /// The files being scored (for the per-file progress).
    scoring: RwSignal<Vec<Staged>>,
    /// Paths of the files kept in this browser's store.
    kept: RwSignal<Vec<String>>,
    /// The kept files scored again when the page opened.
    restored: RwSignal<Vec<String>>,
    /// Why the files could not be kept or read back (e.g. the storage quota is full).
    store_error: RwSignal<Option<String>>,
    /// The app's scoring worker.
    client: StoredValue<WorkerClient, LocalStorage>,
    /// The site's published bundle ([`load_published`]), when it has one.
    published: RwSignal<Option<coglab_core::publish::Index>>,
    /// The worker's ids of the published rows.
    published_rows: RwSignal<Vec<u64>>,
    /// The published rows' model metadata (family, parameters, ...) by row id.
    published_meta: RwSignal<HashMap<u64, coglab_core::publish::manifest::ModelMeta>>,
}

/// The worker's ids of the published rows, for the boards' "published" badge, and their
/// models' manifest metadata by row id.
#[derive(Clone, Copy)]
struct PublishedRows(
    RwSignal<Vec<u64>>,
    RwSignal<HashMap<u64, coglab_core::publish::manifest::ModelMeta>>,
);

/// The published rows' ids in context (empty without a bundle).
pub(crate) fn published_row_ids() -> Vec<u64> {
    use_context::<PublishedRows>().map_or_else(Vec::new, |p| p.0.get())
}

/// Badges a board's published rows ([`board::mark_published`]) from the context.
pub(crate) fn mark_published_rows(b: &mut crate::components::board_table::Board) {
    match use_context::<PublishedRows>() {
        Some(p) => p.1.with(|meta| board::mark_published(b, &p.0.get(), meta)),
        None => board::mark_published(b, &[], &HashMap::new()),
    }
}

/// The leaderboard page; the selected benchmark is the `b` query parameter (default MM-IQ);
/// the table's view (sort, filters, columns, compact mode) lives in the query string too.
#[component]
pub fn Leaderboard() -> impl IntoView {
    let query = use_query_map();
    let selected = Memo::new(move |_| {
        let b = query.read().get("b").unwrap_or_default();
        BENCHMARKS
            .iter()
            .find(|(k, _)| *k == b)
            .map_or("mmiq", |(k, _)| *k)
    });
    let bundle = LocalResource::new(move || async move {
        match selected.get() {
            "kiva" => Err(String::new()),
            key => load_reported(key).await,
        }
    });
    let ws = Workspace {
        files: RwSignal::new(Vec::new()),
        mmiq: RwSignal::new(Vec::new()),
        mmiq_acc: RwSignal::new(Vec::new()),
        harness_summary: RwSignal::new(Vec::new()),
        kiva: RwSignal::new(Vec::new()),
        kiva_challenge: RwSignal::new(Vec::new()),
        mmopera: RwSignal::new(Vec::new()),
        gold: RwSignal::new(Vec::new()),
        progress: RwSignal::new(None),
        seen: RwSignal::new(Vec::new()),
        error: RwSignal::new(None),
        staged: RwSignal::new(Vec::new()),
        staged_files: StoredValue::new_local(Vec::new()),
        scoring: RwSignal::new(Vec::new()),
        kept: RwSignal::new(Vec::new()),
        restored: RwSignal::new(Vec::new()),
        store_error: RwSignal::new(None),
        client: StoredValue::new_local(use_worker()),
        published: RwSignal::new(None),
        published_rows: RwSignal::new(Vec::new()),
        published_meta: RwSignal::new(HashMap::new()),
    };
    let client = ws.client;
    provide_context(PublishedRows(ws.published_rows, ws.published_meta));
    leptos::task::spawn_local(load_published(ws, client.get_value()));
    // Once files are staged, the scoring worker has started (it detected their formats); let
    // it warm up its MM-IQ reader ([`api::Warm`]), so that it is fast when "Score" is pressed.
    // Once per page.
    let warmed = StoredValue::new(false);
    Effect::new(move || {
        if !ws.staged.read().is_empty() && !warmed.get_value() {
            warmed.set_value(true);
            let c = client.get_value();
            leptos::task::spawn_local(async move {
                let _ = c.call(api::Warm).await;
            });
        }
    });
    leptos::task::spawn_local(restore(ws, client.get_value()));
    // The table view, restored from the URL and written back to it on every change.
    let state = RwSignal::new(query.with_untracked(|q| state_from_query(|k| q.get(k))));
    Effect::new(move |prev: Option<()>| {
        let pairs = state_to_query(&state.read());
        if prev.is_some() {
            set_queries(&pairs);
        }
    });
    let base = base_path();
    let tabs = BENCHMARKS
        .iter()
        .map(|(key, name)| {
            let href = format!("{base}/leaderboard?b={key}");
            let current = move || (selected.get() == *key).then_some("page");
            view! {
                <a href=href role="tab" aria-selected=move || (selected.get() == *key).to_string()
                    aria-current=current data-testid=format!("tab-{key}")
                    on:click=move |ev: leptos::ev::MouseEvent| {
                        ev.prevent_default();
                        set_queries(&[("b", (*key).to_string())]);
                    }>{*name}</a>
            }
        })
        .collect_view();
    let on_score = move || {
        let c = client.get_value();
        leptos::task::spawn_local(score_staged(ws, c));
    };
    view! {
        <section data-testid="page-leaderboard" class="leaderboard">
            <h1>"Leaderboard"</h1>
            <p class="lede">"Results as reported in each benchmark's paper, rows computed in your \
                browser from result files you drop below, and baselines, in one table per \
                benchmark. Click a column header to sort; hover a number for its interval."</p>
            <DropZone on_score=on_score cancel=move || client.get_value().cancel() ws=ws
                forget=move |one| leptos::task::spawn_local(forget_kept(ws, client.get_value(), one)) />
            <crate::components::audit_panel::AuditPanel rows=Signal::derive(move || {
                ws.published.with(|p| p.as_ref().map(|i| i.audit.clone()).unwrap_or_default())
            }) />
            <SubmissionCheck ws=ws />
            <div class="tabs" role="tablist" aria-label="Benchmark">{tabs}</div>
            <div class="tab-panel" role="tabpanel">
                {move || match selected.get() {
                    "mmiq" => view! { <MmiqTab rows=ws.mmiq acc=ws.mmiq_acc summaries=ws.harness_summary state=state bundle=bundle /> }.into_any(),
                    "kiva" => split::part(split::kiva_tab(ws.kiva, ws.kiva_challenge, state)),
                    "mmopera" => split::part(split::mmopera_tab(ws.mmopera, state, bundle)),
                    "gold" => split::part(split::gold_tab(ws.gold, state, bundle)),
                    _ => ().into_any(),
                }}
                {move || match (selected.get(), bundle.get()) {
                    ("kiva" | "mmiq", _) => ().into_any(),
                    (_, None) => view! { <p class="loading" aria-busy="true">"Loading…"</p> }.into_any(),
                    (_, Some(Err(e))) => view! {
                        <ErrorPanel title="Could not load the reported results" message=e />
                    }.into_any(),
                    (_, Some(Ok(b))) => view! {
                        <h2 class="lb-subhead">"Reported in the paper"</h2>
                        {b.paper.clone().map(|p| view! {
                            <p class="source" data-testid="paper-cite">
                                <cite>{p.title.clone()}</cite>{format!(" ({}). ", p.venue_year())}
                                <a href=p.url.clone() target="_blank" rel="noopener">"Project page and code"</a>
                            </p>
                        })}
                        {b.tables.into_iter()
                            .map(|t| view! { <ReportedTableView table=t /> })
                            .collect_view()}
                    }.into_any(),
                }}
            </div>
        </section>
    }
}

/// Sets (or with an empty value removes) query parameters, keeping the others, so the view is
/// restored on reload and can be shared. It changes the current history entry: Back leaves the
/// page rather than undoing each setting.
fn set_queries(pairs: &[(&str, String)]) {
    let url = leptos_router::hooks::use_url();
    let (path, search) = url.with_untracked(|u| (u.path().to_string(), u.search().to_string()));
    let search = search.trim_start_matches('?');
    let Ok(params) = web_sys::UrlSearchParams::new_with_str(search) else {
        return;
    };
    for (key, value) in pairs {
        if value.is_empty() {
            params.delete(key);
        } else {
            params.set(key, value);
        }
    }
    let query = String::from(params.to_string());
    if query == search {
        return;
    }
    let to = if query.is_empty() {
        path
    } else {
        format!("{path}?{query}")
    };
    let navigate = leptos_router::hooks::use_navigate();
    navigate(
        &to,
        leptos_router::NavigateOptions {
            // `path` is the whole path, base included.
            resolve: false,
            replace: true,
            scroll: false,
            ..Default::default()
        },
    );
}

/// Keeps the selected model (`model=<name>`) and the two compared models (`cmp=<a>,<b>`) in the
/// query string, by model name (row ids are not kept across visits): a name in the URL selects
/// its row as soon as a row of that name is computed (e.g. once the kept files are scored again
/// after a reload), and a user's choice is written back.
fn url_selection(
    rows: Signal<Vec<(u64, String)>>,
    pick: RwSignal<Option<u64>>,
    pair: RwSignal<(Option<u64>, Option<u64>)>,
) {
    let query = use_query_map();
    let id_of =
        move |name: &str| rows.with(|r| r.iter().find(|(_, m)| m == name).map(|(id, _)| *id));
    let name_of = move |id: Option<u64>| {
        rows.with_untracked(|r| {
            r.iter()
                .find(|(i, _)| Some(*i) == id)
                .map(|(_, m)| m.clone())
        })
    };
    // URL → selection.
    Effect::new(move |_| {
        let (model, cmp) = query.with(|q| (q.get("model"), q.get("cmp")));
        if let Some(id) = model.and_then(|m| id_of(&m)) {
            if pick.get_untracked() != Some(id) {
                pick.set(Some(id));
            }
        }
        if let Some((a, b)) = cmp.as_deref().and_then(|c| c.split_once(',')) {
            let (a, b) = (id_of(a), id_of(b));
            if a.is_some() && b.is_some() && pair.get_untracked() != (a, b) {
                pair.set((a, b));
            }
        }
    });
    // Selection → URL (only once the user or the URL has chosen).
    Effect::new(move |_| {
        let p = pick.get();
        let (a, b) = pair.get();
        let mut set = Vec::new();
        if let Some(m) = name_of(p) {
            set.push(("model", m));
        }
        if let (Some(x), Some(y)) = (name_of(a), name_of(b)) {
            set.push(("cmp", format!("{x},{y}")));
        }
        if !set.is_empty() {
            set_queries(&set);
        }
    });
}

/// Path of a picked file: its folder-relative path for a folder pick, else its name.
fn file_path(f: &web_sys::File) -> String {
    js_sys::Reflect::get(f, &"webkitRelativePath".into())
        .ok()
        .and_then(|v| v.as_string())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| f.name())
}

/// Stages picked or dropped files: the worker detects each format from the file's content
/// ([`api::Detect`]; the page reads nothing) and the model name is guessed from the path (core
/// `guess_model`); scoring waits for the "Score" button.
async fn stage_files(ws: Workspace, files: Vec<(String, web_sys::File)>) {
    let client = ws.client.get_value();
    let refs: Vec<FileRef> = files
        .iter()
        .map(|(path, f)| FileRef {
            name: path.clone(),
            blob: f.clone().into(),
        })
        .collect();
    let kinds = match client.call(api::Detect { files: refs }).await {
        Ok(k) => k,
        Err(e) => {
            ws.error.set(Some(e));
            vec![
                api::Detected {
                    kind: FileKind::Unknown,
                    note: None
                };
                files.len()
            ]
        }
    };
    for ((path, f), api::Detected { kind, note }) in files.into_iter().zip(kinds) {
        let size = f.size();
        let model = guess_model(&path);
        ws.staged_files.update_value(|v| v.push(f));
        ws.staged.update(|v| {
            v.push(Staged {
                path,
                size,
                kind,
                detected: kind,
                model,
                include: kind != FileKind::Unknown,
                note,
            })
        });
    }
}

/// Posts the staged files to the worker, which reads and scores them (keeping the item-level
/// data), and appends the summaries to the workspace. Rows already loaded are kept whatever happens.
async fn score_staged(ws: Workspace, client: WorkerClient) {
    ws.error.set(None);
    let staged = ws.staged.get_untracked();
    let files = ws.staged_files.get_value();
    ws.staged.set(Vec::new());
    ws.staged_files.set_value(Vec::new());
    let mut inputs = Vec::with_capacity(files.len());
    let mut models = HashMap::new();
    let mut kinds = HashMap::new();
    let mut scoring = Vec::new();
    for (s, f) in staged.into_iter().zip(files) {
        if !s.include {
            continue;
        }
        // Files above the worker's limit get their message here; the others are posted to the
        // worker as File objects, which reads them in chunks (nothing is copied on this thread).
        if f.size() > crate::worker::protocol::MAX_FILE_BYTES {
            let message = crate::worker::protocol::too_large(&s.path, f.size());
            ws.files.update(|v| {
                v.push(FileStatus {
                    file: s.path.clone(),
                    kind: s.kind,
                    model: s.model.clone(),
                    status: "error".into(),
                    message: Some(message),
                })
            });
            continue;
        }
        if s.model != guess_model(&s.path) {
            models.insert(s.path.clone(), s.model.clone());
        }
        if s.kind != s.detected {
            kinds.insert(s.path.clone(), s.kind);
        }
        inputs.push((s.path.clone(), f.into()));
        scoring.push(s);
    }
    if inputs.is_empty() {
        return;
    }
    // The files kept in this browser are scored again with the new ones, so that a kept answer
    // key or MM-OPERA metadata pairs with files dropped later, and kept files that wait for a
    // partner are scored when it comes (issue 26, defect 1). A file dropped again replaces its
    // kept copy.
    if !ws.kept.with_untracked(Vec::is_empty) {
        match store::get_blobs(AREA).await {
            Ok(stored) => {
                let new: Vec<String> = inputs.iter().map(|(p, _)| p.clone()).collect();
                let mut again = Vec::new();
                // The kept files come first, so the rows keep their order with the new ones
                // after them.
                let (mut kept_inputs, mut kept_scoring) = (Vec::new(), Vec::new());
                for b in stored.into_iter().filter(|b| !new.contains(&b.name)) {
                    if let Some(m) = b.model {
                        models.insert(b.name.clone(), m);
                    }
                    let kind = b.kind.as_deref().and_then(FileKind::from_key);
                    if let Some(k) = kind {
                        kinds.insert(b.name.clone(), k);
                    }
                    again.push(b.name.clone());
                    kept_scoring.push(Staged {
                        path: b.name.clone(),
                        size: b.blob.size(),
                        kind: kind.unwrap_or(FileKind::Unknown),
                        detected: FileKind::Unknown,
                        model: String::new(),
                        include: true,
                        note: None,
                    });
                    kept_inputs.push((b.name, b.blob));
                }
                kept_inputs.append(&mut inputs);
                inputs = kept_inputs;
                kept_scoring.append(&mut scoring);
                scoring = kept_scoring;
                clear_rows(ws, &client);
                ws.restored.set(again);
            }
            Err(e) => ws.store_error.set(Some(e)),
        }
    }
    score_inputs(ws, client, inputs, models, kinds, scoring, true).await;
}

/// Area of this page's files in the browser's store.
const AREA: &str = "leaderboard";

/// Scores `inputs` in the worker (`models` and `kinds`: the user's model names and formats by
/// path) and appends the results to the workspace; with `keep`, the files scored without error
/// are then kept in this browser's store (IndexedDB, area "leaderboard") with those choices,
/// to be scored again on the next visit.
async fn score_inputs(
    ws: Workspace,
    client: WorkerClient,
    inputs: Vec<(String, web_sys::Blob)>,
    models: HashMap<String, String>,
    kinds: HashMap<String, FileKind>,
    scoring: Vec<Staged>,
    keep: bool,
) {
    if inputs.is_empty() {
        return;
    }
    ws.seen.set(Vec::new());
    ws.scoring.set(scoring);
    ws.progress.set(Some(ProgressUpdate {
        done: 0.0,
        total: inputs.len() as f64,
        label: String::new(),
    }));
    let on_progress = Rc::new(move |p: ProgressUpdate| {
        if !p.label.is_empty() && ws.seen.with_untracked(|s| s.last() != Some(&p.label)) {
            ws.seen.update(|s| s.push(p.label.clone()));
        }
        ws.progress.set(Some(p));
    });
    let request = api::Score {
        files: inputs
            .iter()
            .map(|(name, blob)| FileRef {
                name: name.clone(),
                blob: blob.clone(),
            })
            .collect(),
        models: models.clone(),
        kinds: kinds.clone(),
    };
    let result = client.call_with(request, Some(on_progress)).await;
    ws.progress.set(None);
    ws.scoring.set(Vec::new());
    let before = ws.files.with_untracked(Vec::len);
    match result {
        Ok(s) => {
            ws.files.update(|v| v.extend(s.files));
            ws.mmiq.update(|v| v.extend(s.mmiq));
            ws.mmiq_acc.update(|v| v.extend(s.mmiq_acc));
            ws.harness_summary.update(|v| v.extend(s.harness_summary));
            ws.kiva.update(|v| v.extend(s.kiva));
            ws.kiva_challenge.update(|v| v.extend(s.kiva_challenge));
            ws.mmopera.update(|v| v.extend(s.mmopera));
            ws.gold.update(|v| v.extend(s.gold));
        }
        Err(e) => ws.error.set(Some(e)),
    }
    if !keep {
        return;
    }
    let ok: Vec<String> = ws.files.with_untracked(|f| {
        f.iter()
            .skip(before)
            .filter(|f| f.status == "ok" || f.status == WAITING)
            .map(|f| f.file.clone())
            .collect()
    });
    let blobs: Vec<StoredBlob> = inputs
        .into_iter()
        .filter(|(path, _)| ok.contains(path))
        .map(|(path, blob)| StoredBlob {
            model: models.get(&path).cloned(),
            kind: kinds.get(&path).map(|k| k.key().to_string()),
            name: path,
            blob,
        })
        .collect();
    if blobs.is_empty() {
        return;
    }
    match store::put_blobs(AREA, &blobs).await {
        Ok(()) => ws.kept.update(|k| {
            for b in blobs {
                if !k.contains(&b.name) {
                    k.push(b.name);
                }
            }
        }),
        Err(e) => ws.store_error.set(Some(e)),
    }
}

/// Scores again, in the worker, the files kept in this browser's store (on page load, or after
/// one of them is removed).
/// One submission to check: (benchmark label, model, published row, submitted row, the
/// benchmark's published rows).
type Submission = (&'static str, String, u64, u64, Vec<u64>);

/// The submissions among the rows: every dropped (not published) MM-IQ, KiVA or MM-OPERA row
/// whose model has a published row of the same benchmark.
fn submissions(ws: Workspace) -> Vec<Submission> {
    let published = ws.published_rows.get();
    if published.is_empty() {
        return Vec::new();
    }
    let mut out = Vec::new();
    // A dropped row against the published row of its model name, ranked among all published.
    let mut pair_up = |bench: &'static str, rows: Vec<(u64, String)>| {
        let board: Vec<u64> = rows
            .iter()
            .map(|r| r.0)
            .filter(|id| published.contains(id))
            .collect();
        for (id, model) in rows.iter().filter(|r| !published.contains(&r.0)) {
            if let Some(p) = rows
                .iter()
                .find(|p| published.contains(&p.0) && p.1 == *model)
            {
                out.push((bench, model.clone(), p.0, *id, board.clone()));
            }
        }
    };
    pair_up(
        "MM-IQ",
        ws.mmiq
            .with(|rows| rows.iter().map(|r| (r.id, r.model.clone())).collect()),
    );
    pair_up(
        "MM-OPERA",
        ws.mmopera
            .with(|rows| rows.iter().map(|r| (r.id, r.model.clone())).collect()),
    );
    ws.kiva.with(|rows| {
        for r in rows.iter().filter(|r| !published.contains(&r.id)) {
            let variant = r.report.variant;
            let board: Vec<u64> = rows
                .iter()
                .filter(|p| published.contains(&p.id) && p.report.variant == variant)
                .map(|p| p.id)
                .collect();
            if let Some(p) = rows.iter().find(|p| {
                published.contains(&p.id) && p.model == r.model && p.report.variant == variant
            }) {
                out.push((variant.name(), r.model.clone(), p.id, r.id, board));
            }
        }
    });
    out
}

/// The submission check: for files a visitor dropped under the name of a published model,
/// whether they reproduce the published row (the same item verdicts, or which items differ)
/// and where they would rank among the published rows; computed by the core in the worker.
#[component]
fn SubmissionCheck(ws: Workspace) -> impl IntoView {
    let pairs = Memo::new(move |_| submissions(ws));
    let checks = LocalResource::new(move || {
        let pairs = pairs.get();
        let client = ws.client.get_value();
        async move {
            let mut out = Vec::new();
            for (bench, model, published, submitted, board) in pairs {
                let r = client
                    .call(api::Reproduce {
                        published,
                        submitted,
                        board,
                    })
                    .await;
                out.push((bench, model, r));
            }
            out
        }
    });
    move || {
        let list = checks.get().unwrap_or_default();
        if list.is_empty() {
            return ().into_any();
        }
        let items = list
            .into_iter()
            .map(|(bench, model, r)| match r {
                Ok(r) => {
                    let verdict = if r.reproduces {
                        format!(
                            "reproduce the published row: all {} verdicts are the same.",
                            r.compared
                        )
                    } else {
                        let mut s = format!(
                            "do not reproduce the published row: {} of {} verdicts differ",
                            r.n_differing, r.compared
                        );
                        if !r.differing.is_empty() {
                            s.push_str(&format!(
                                " ({}{})",
                                r.differing.join(", "),
                                if r.n_differing > r.differing.len() {
                                    ", …"
                                } else {
                                    ""
                                }
                            ));
                        }
                        if r.only_published + r.only_submitted > 0 {
                            s.push_str(&format!(
                                "; {} only in the published row, {} only in your files",
                                r.only_published, r.only_submitted
                            ));
                        }
                        s.push('.');
                        s
                    };
                    view! {
                        <li data-testid="submission-check" data-model=model.clone()
                            data-reproduces=r.reproduces.to_string()>
                            {format!(
                                "{bench}, {model}: your files {verdict} Your figure {:.2}% \
                                 (published {:.2}%) would rank {} of {} published rows.",
                                100.0 * r.figure, 100.0 * r.published_figure, r.rank, r.of
                            )}
                        </li>
                    }
                    .into_any()
                }
                Err(e) => view! {
                    <li data-testid="submission-check" data-model=model.clone()>
                        <ErrorPanel title=format!("Checking {model} ({bench})") message=e />
                    </li>
                }
                .into_any(),
            })
            .collect_view();
        view! {
            <section class="submission-checks" data-testid="submission-checks">
                <h2 class="lb-subhead">"Submission check against the published leaderboard"</h2>
                <ul>{items}</ul>
            </section>
        }
        .into_any()
    }
}

/// Shows the site's published bundle (`coglab publish`), when the build has one (its
/// `<meta name="coglab-published">`; without it nothing is fetched and the worker is not
/// started): the worker reads its index and keeps its MM-IQ, KiVA, MM-OPERA and Gold rows,
/// which join the boards badged "published"; their items are fetched when a row is opened or
/// compared, and the rank groups read one rank file per board.
async fn load_published(ws: Workspace, client: WorkerClient) {
    let Some(rel) = crate::data::published_rel() else {
        return;
    };
    let base = format!("{}/{rel}", base_path());
    match client.call(api::Published { base }).await {
        Ok(Some(b)) => {
            let ids = b.rows.mmiq.iter().map(|r| r.id);
            let ids: Vec<u64> = ids
                .chain(b.rows.kiva.iter().map(|r| r.id))
                .chain(b.rows.mmopera.iter().map(|r| r.id))
                .chain(b.rows.gold.iter().map(|r| r.id))
                .collect();
            // Each row's model metadata from the manifest (model names are unique in it).
            let meta_of = |name: &str| {
                b.index
                    .models
                    .iter()
                    .find(|m| m.name == name)
                    .map(|m| m.meta.clone())
            };
            let named = b
                .rows
                .mmiq
                .iter()
                .map(|r| (r.id, r.model.as_str()))
                .chain(b.rows.kiva.iter().map(|r| (r.id, r.model.as_str())))
                .chain(b.rows.mmopera.iter().map(|r| (r.id, r.model.as_str())))
                .chain(
                    b.rows
                        .gold
                        .iter()
                        .filter_map(|r| Some((r.id, r.matrix.models.first()?.as_str()))),
                );
            let meta: HashMap<u64, _> = named
                .filter_map(|(id, name)| Some((id, meta_of(name)?)))
                .collect();
            ws.published_meta.set(meta);
            ws.published_rows.set(ids);
            ws.mmiq.update(|v| v.extend(b.rows.mmiq));
            ws.kiva.update(|v| v.extend(b.rows.kiva));
            ws.mmopera.update(|v| v.extend(b.rows.mmopera));
            ws.gold.update(|v| v.extend(b.rows.gold));
            ws.published.set(Some(b.index));
        }
        Ok(None) => {}
        Err(e) => ws
            .error
            .set(Some(format!("the published leaderboard: {e}"))),
    }
}

async fn restore(ws: Workspace, client: WorkerClient) {
    let stored = match store::get_blobs(AREA).await {
        Ok(s) => s,
        Err(e) => {
            ws.store_error.set(Some(e));
            return;
        }
    };
    let names: Vec<String> = stored.iter().map(|b| b.name.clone()).collect();
    ws.kept.set(names.clone());
    ws.restored.set(names);
    let mut models = HashMap::new();
    let mut kinds = HashMap::new();
    let mut scoring = Vec::new();
    let mut inputs = Vec::new();
    for b in stored {
        if let Some(m) = b.model {
            models.insert(b.name.clone(), m);
        }
        let kind = b.kind.as_deref().and_then(FileKind::from_key);
        if let Some(k) = kind {
            kinds.insert(b.name.clone(), k);
        }
        scoring.push(Staged {
            path: b.name.clone(),
            size: b.blob.size(),
            kind: kind.unwrap_or(FileKind::Unknown),
            detected: FileKind::Unknown,
            model: String::new(),
            include: true,
            note: None,
        });
        inputs.push((b.name, b.blob));
    }
    score_inputs(ws, client, inputs, models, kinds, scoring, false).await;
}

/// Removes every row computed from the visitor's files and every file status (and the worker's
/// item data of those rows); the published bundle's rows stay.
fn clear_rows(ws: Workspace, client: &WorkerClient) {
    let published = ws.published_rows.get_untracked();
    let mut ids: Vec<u64> = ws.mmiq.with_untracked(|r| r.iter().map(|r| r.id).collect());
    ids.extend(
        ws.kiva
            .with_untracked(|r| r.iter().map(|r| r.id).collect::<Vec<_>>()),
    );
    ids.extend(
        ws.mmopera
            .with_untracked(|r| r.iter().map(|r| r.id).collect::<Vec<_>>()),
    );
    ids.extend(
        ws.gold
            .with_untracked(|r| r.iter().map(|r| r.id).collect::<Vec<_>>()),
    );
    ids.extend(
        ws.kiva_challenge
            .with_untracked(|r| r.iter().map(|r| r.id).collect::<Vec<_>>()),
    );
    ids.retain(|id| !published.contains(id));
    let kept = |id: u64| published.contains(&id);
    ws.mmiq.update(|v| v.retain(|r| kept(r.id)));
    ws.mmiq_acc.set(Vec::new());
    ws.harness_summary.set(Vec::new());
    ws.kiva.update(|v| v.retain(|r| kept(r.id)));
    ws.kiva_challenge.set(Vec::new());
    ws.mmopera.update(|v| v.retain(|r| kept(r.id)));
    ws.gold.update(|v| v.retain(|r| kept(r.id)));
    ws.files.set(Vec::new());
    ws.error.set(None);
    let client = client.clone();
    leptos::task::spawn_local(async move {
        let _ = client.call(api::Forget { rows: ids }).await;
    });
}

/// Forgets the kept files: all of them (`None`), or one, whose rows go and the others are
/// scored again.
async fn forget_kept(ws: Workspace, client: WorkerClient, one: Option<String>) {
    ws.store_error.set(None);
    let done = match &one {
        None => store::clear_area(AREA).await,
        Some(name) => store::delete_file(AREA, name).await,
    };
    if let Err(e) = done {
        ws.store_error.set(Some(e));
        return;
    }
    clear_rows(ws, &client);
    match one {
        None => {
            ws.kept.set(Vec::new());
            ws.restored.set(Vec::new());
        }
        Some(_) => restore(ws, client).await,
    }
}

/// Calls `f` with each file of a dropped item, recursing into folders
/// (`DataTransferItem.webkitGetAsEntry`), with the path inside the dropped folder.
fn walk_entry(entry: wasm_bindgen::JsValue, ws: Workspace) {
    use js_sys::Reflect;
    let get = |o: &wasm_bindgen::JsValue, k: &str| Reflect::get(o, &k.into()).ok();
    let is_file = get(&entry, "isFile")
        .and_then(|v| v.as_bool())
        .unwrap_or(false);
    let path = get(&entry, "fullPath")
        .and_then(|v| v.as_string())
        .unwrap_or_default()
        .trim_start_matches('/')
        .to_string();
    if is_file {
        let cb =
            wasm_bindgen::closure::Closure::once_into_js(move |file: wasm_bindgen::JsValue| {
                if let Ok(f) = file.dyn_into::<web_sys::File>() {
                    leptos::task::spawn_local(stage_files(ws, vec![(path, f)]));
                }
            });
        if let Some(func) = get(&entry, "file").and_then(|f| f.dyn_into::<js_sys::Function>().ok())
        {
            let _ = func.call1(&entry, &cb);
        }
        return;
    }
    let Some(reader) = get(&entry, "createReader")
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
        .and_then(|f| f.call0(&entry).ok())
    else {
        return;
    };
    read_dir(reader, ws);
}

/// Reads a directory reader to the end (`readEntries` returns entries in batches).
fn read_dir(reader: wasm_bindgen::JsValue, ws: Workspace) {
    let Some(read) = js_sys::Reflect::get(&reader, &"readEntries".into())
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
    else {
        return;
    };
    let r2 = reader.clone();
    let cb = wasm_bindgen::closure::Closure::once_into_js(move |entries: wasm_bindgen::JsValue| {
        let entries = js_sys::Array::from(&entries);
        if entries.length() == 0 {
            return;
        }
        for e in entries.iter() {
            walk_entry(e, ws);
        }
        read_dir(r2, ws);
    });
    let _ = read.call1(&reader, &cb);
}

fn size_text(bytes: f64) -> String {
    if bytes >= 1e6 {
        format!("{:.1} MB", bytes / 1e6)
    } else {
        format!("{:.1} kB", bytes / 1e3)
    }
}

/// The drop zone: drag-drop (files and folders), a file picker and a folder picker; the picked
/// files are listed with their detected format and guessed model (editable) until "Score";
/// then a progress bar per file and Cancel; the status of each scored file and the errors of
/// bad files.
#[component]
fn DropZone(
    /// Scores the staged files.
    on_score: impl Fn() + Copy + Send + Sync + 'static,
    /// Stops scoring.
    cancel: impl Fn() + Copy + Send + Sync + 'static,
    /// Where staged files, results and statuses go.
    ws: Workspace,
    /// Forgets the files kept in this browser: all (`None`) or the one named.
    forget: impl Fn(Option<String>) + Copy + Send + Sync + 'static,
) -> impl IntoView {
    let (over, set_over) = signal(false);
    // "Forget these files" asks first (issue 26, defect 13): it removes every kept file.
    let confirm_forget = RwSignal::new(false);
    let take_list = move |list: Option<web_sys::FileList>| {
        let Some(list) = list else { return };
        let files: Vec<(String, web_sys::File)> = (0..list.length())
            .filter_map(|i| list.get(i))
            .map(|f| (file_path(&f), f))
            .collect();
        if !files.is_empty() {
            leptos::task::spawn_local(stage_files(ws, files));
        }
    };
    let on_input = move |ev: leptos::ev::Event| {
        let Some(input) = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
        else {
            return;
        };
        take_list(input.files());
        input.set_value("");
    };
    let on_drop = move |ev: leptos::ev::DragEvent| {
        ev.prevent_default();
        set_over.set(false);
        let Some(dt) = ev.data_transfer() else { return };
        let items = dt.items();
        let mut entries = Vec::new();
        for i in 0..items.length() {
            let Some(item) = items.get(i) else { continue };
            let entry = js_sys::Reflect::get(&item, &"webkitGetAsEntry".into())
                .ok()
                .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
                .and_then(|f| f.call0(&item).ok())
                .filter(|e| !e.is_null() && !e.is_undefined());
            match entry {
                Some(e) => entries.push(e),
                None => {
                    entries.clear();
                    break;
                }
            }
        }
        if entries.is_empty() {
            take_list(dt.files());
        } else {
            for e in entries {
                walk_entry(e, ws);
            }
        }
    };
    let folder_ref = NodeRef::<leptos::html::Input>::new();
    Effect::new(move |_| {
        if let Some(el) = folder_ref.get() {
            let _ = el.set_attribute("webkitdirectory", "");
        }
    });
    view! {
        <div class="dropzone" class:over=move || over.get() data-testid="dropzone"
            on:dragover=move |ev: leptos::ev::DragEvent| { ev.prevent_default(); set_over.set(true); }
            on:dragleave=move |_| set_over.set(false)
            on:drop=on_drop>
            <p><strong>"Drop result files or folders here"</strong>" — MM-IQ predictions with the answer key \
                (JSONL or VLMEvalKit tables), KiVA run folders, the KiVA human data, MM-OPERA results. \
                Everything is scored in your browser."</p>
            <div class="dropzone-actions">
                <label class="button">
                    "Choose files…"
                    <input type="file" multiple class="visually-hidden" data-testid="file-input"
                        on:change=on_input />
                </label>
                <label class="button">
                    "Choose a folder…"
                    <input type="file" multiple class="visually-hidden" data-testid="folder-input"
                        node_ref=folder_ref on:change=on_input />
                </label>
            </div>
            <Show when=move || !ws.staged.read().is_empty()>
                <div class="lb-staged" data-testid="lb-staged">
                    <p class="lb-note">"Files to score: check the format (detected from the content) and the model name."</p>
                    <div class="table-scroll">
                    <table class="lb-table">
                        <thead><tr><th scope="col">"Score"</th><th scope="col">"File"</th>
                            <th scope="col">"Format"</th><th scope="col">"Model"</th></tr></thead>
                        <tbody>
                            {move || ws.staged.get().into_iter().enumerate().map(|(i, s)| {
                                let path = s.path.clone();
                                view! {
                                    <tr data-testid="staged-row" data-path=s.path.clone() data-kind=format!("{:?}", s.kind)>
                                        <td><input type="checkbox" prop:checked=s.include
                                            aria-label=format!("score {}", path)
                                            on:change=move |ev| { let on = event_target_checked(&ev); ws.staged.update(|v| if let Some(x) = v.get_mut(i) { x.include = on; }); } /></td>
                                        <td><code>{s.path.clone()}</code>" "<span class="lb-size">{size_text(s.size)}</span></td>
                                        <td>
                                            <select data-testid="staged-kind" aria-label=format!("format of {}", s.path)
                                                title="Detected from the file's content; choose another format to read the file as that"
                                                on:change=move |ev| {
                                                    let k = FileKind::from_key(&event_target_value(&ev)).unwrap_or(FileKind::Unknown);
                                                    ws.staged.update(|v| if let Some(x) = v.get_mut(i) { x.kind = k; x.include = k != FileKind::Unknown; });
                                                }>
                                                {(s.detected == FileKind::Unknown).then(|| view! { <option value="unknown" selected=s.kind == FileKind::Unknown>"not recognised: choose a format"</option> })}
                                                {FileKind::CHOOSABLE.map(|k| view! {
                                                    <option value=k.key() selected=k == s.kind>
                                                        {k.label()}{(k == s.detected).then_some(" (detected)")}</option>
                                                }).collect_view()}
                                            </select>
                                            {s.note.clone().map(|n| view! { <p class="lb-note" role="alert" data-testid="staged-note">{n}</p> })}
                                        </td>
                                        <td><input type="text" data-testid="staged-model" prop:value=s.model.clone()
                                            aria-label=format!("model name for {}", s.path)
                                            on:input=move |ev| { let v = event_target_value(&ev); ws.staged.update_untracked(|x| if let Some(x) = x.get_mut(i) { x.model = v; }); } /></td>
                                    </tr>
                                }
                            }).collect_view()}
                        </tbody>
                    </table>
                    </div>
                    <div class="lb-controls">
                        <button type="button" class="primary" data-testid="lb-score" on:click=move |_| on_score()>
                            {move || format!("Score {} files", ws.staged.read().iter().filter(|s| s.include).count())}</button>
                        <button type="button" data-testid="lb-unstage" on:click=move |_| {
                            ws.staged.set(Vec::new());
                            ws.staged_files.set_value(Vec::new());
                        }>"Clear"</button>
                    </div>
                </div>
            </Show>
            {move || ws.progress.get().map(|p| {
                let seen = ws.seen.get();
                // While the worker reads (and parses) the files, `done` counts bytes over all
                // of them, in the order they were sent: each file's share is known from its size.
                let reading = p.label.strip_prefix("reading ").map(str::to_string);
                let mut before = 0.0;
                let rows = ws.scoring.get().into_iter().map(|s| {
                    let pos = seen.iter().position(|l| *l == s.path);
                    let (value, state) = if reading.is_some() {
                        let f = ((p.done - before) / s.size.max(1.0)).clamp(0.0, 1.0);
                        before += s.size;
                        match f {
                            f if f >= 1.0 => (Some(1.0), "read"),
                            f if f > 0.0 => (Some(f), "reading…"),
                            _ => (Some(0.0), "waiting"),
                        }
                    } else {
                        match pos {
                            Some(k) if k + 1 < seen.len() || p.done >= p.total => (Some(1.0), "scored"),
                            Some(_) => (None, "scoring…"),
                            None => (Some(0.0), "waiting"),
                        }
                    };
                    view! {
                        <li><code>{s.path.clone()}</code>
                            <progress max="1" value=value aria-label=format!("{} {}", s.path, state)></progress>
                            <span>{state}</span></li>
                    }
                }).collect_view();
                view! {
                    <div class="lb-progress" role="status" data-testid="lb-progress">
                        <progress max="1" value=p.fraction() aria-label="all files"></progress>
                        <span>{match &reading {
                            Some(what) => format!("Reading {what}"),
                            None if p.label.is_empty() => "Starting…".to_string(),
                            None => format!("Scoring {} ({} of {} files)", p.label, p.done, p.total),
                        }}</span>
                        <button type="button" on:click=move |_| cancel() data-testid="lb-cancel">"Cancel"</button>
                        <ul class="lb-file-progress">{rows}</ul>
                    </div>
                }
            })}
            {move || ws.error.get().map(|e| view! {
                <ErrorPanel title="Scoring stopped" message=e />
            })}
            <Show when=move || !ws.kept.read().is_empty()>
                <div class="lb-kept" data-testid="lb-kept" role="group" aria-label="Files kept in this browser">
                    <p>
                        <span data-testid="lb-kept-count">{move || {
                            let n = ws.kept.read().len();
                            let r = ws.restored.read().len();
                            let again = if r > 0 { format!(" ({r} scored again from this browser's storage)") } else { String::new() };
                            format!("{n} {} kept in this browser{again}: they are scored again each time you open the leaderboard, and never leave this machine.",
                                if n == 1 { "file" } else { "files" })
                        }}</span>" "
                        <Show when=move || !confirm_forget.get()>
                            <button type="button" data-testid="lb-forget" on:click=move |_| confirm_forget.set(true)>"Forget these files"</button>
                        </Show>
                    </p>
                    <Show when=move || confirm_forget.get()>
                        <p class="lb-confirm" role="alert" data-testid="lb-forget-ask">
                            {move || {
                                let n = ws.kept.read().len();
                                format!("Forget all {n} kept {}? Their rows leave the table and the files leave this browser's storage; the originals on your disk are not touched.",
                                    if n == 1 { "file" } else { "files" })
                            }}" "
                            <button type="button" class="danger" data-testid="lb-forget-confirm"
                                on:click=move |_| { confirm_forget.set(false); forget(None); }>"Forget them"</button>" "
                            <button type="button" class="secondary" data-testid="lb-forget-keep"
                                on:click=move |_| confirm_forget.set(false)>"Keep them"</button>
                        </p>
                    </Show>
                    <details>
                        <summary>"Kept files"</summary>
                        <ul class="lb-kept-list">
                            {move || ws.kept.get().into_iter().map(|name| {
                                let n2 = name.clone();
                                view! {
                                    <li data-testid="kept-file" data-path=name.clone()><code>{name.clone()}</code>" "
                                        <button type="button" class="lb-remove" aria-label=format!("Forget {name}")
                                            on:click=move |_| forget(Some(n2.clone()))>"Remove"</button></li>
                                }
                            }).collect_view()}
                        </ul>
                    </details>
                </div>
            </Show>
            {move || ws.store_error.get().map(|e| view! {
                <ErrorPanel title="Could not keep the files in this browser" message=e />
            })}
            <Show when=move || !ws.files.read().is_empty()>
                <details class="lb-files-box" data-testid="lb-files-box">
                    <summary>{move || {
                        let f = ws.files.read();
                        let bad = f.iter().filter(|f| f.status == "error").count();
                        let waiting = f.iter().filter(|f| f.status == WAITING).count();
                        format!("{} files loaded: {} scored, {} with errors, {} not scored here{}",
                            f.len(),
                            f.iter().filter(|f| f.status == "ok").count(),
                            bad,
                            f.iter().filter(|f| f.status == "unsupported").count(),
                            if waiting > 0 { format!(", {waiting} waiting for a partner file") } else { String::new() })
                    }}</summary>
                    <ul class="lb-files" data-testid="lb-files">
                        {move || ws.files.get().into_iter().map(|f| {
                            let cls = format!("lb-file status-{}", f.status);
                            view! {
                                <li class=cls data-status=f.status.clone()>
                                    <span class="badge">{f.status.clone()}</span>
                                    " "<code>{f.file.clone()}</code>" · "{f.kind.label()}
                                    {(!f.model.is_empty()).then(|| format!(" · model {}", f.model))}
                                    {f.message.clone().filter(|_| f.status == "unsupported" || f.status == WAITING).map(|m| format!(" · {m}"))}
                                    {ws.restored.with(|r| r.contains(&f.file)).then_some(" · from this browser's storage")}
                                </li>
                            }
                        }).collect_view()}
                    </ul>
                </details>
            </Show>
            // Files waiting for a partner (kept; scored when it comes): a notice, not an error.
            {move || ws.files.get().into_iter().filter(|f| f.status == WAITING).map(|f| view! {
                <p class="notice lb-waiting" role="status" data-testid="lb-waiting" data-path=f.file.clone()>
                    <code>{f.file.clone()}</code>" "{f.message.unwrap_or_default()}
                    ". It is kept in this browser meanwhile."
                </p>
            }).collect_view()}
            {move || ws.files.get().into_iter().filter(|f| f.status == "error").map(|f| view! {
                <ErrorPanel title=format!("Could not score {}", f.file)
                    message=f.message.unwrap_or_default() />
            }).collect_view()}
        </div>
    }
}

/// The rows of a board shown first (for the charts): the first `n` rows of the table as
/// sorted and filtered, as (model, row index).
fn first_rows(board: &Board, state: &ViewState, n: usize) -> Vec<usize> {
    arrange(board, state)
        .rows
        .into_iter()
        .map(|r| r.0)
        .take(n)
        .collect()
}

/// Rows drawn on a chart at most.
const CHART_ROWS: usize = 6;

/// The MM-IQ tab: one table (reported, computed, baselines), the paradigm radar of the first
/// rows shown, the model page and the comparison.
#[component]
fn MmiqTab(
    /// The computed rows.
    rows: RwSignal<Vec<MmiqRow>>,
    /// The rows of VLMEvalKit `_acc.csv` summaries (no model page or comparison: no items).
    acc: RwSignal<Vec<coglab_core::leaderboard::MmiqAccRow>>,
    /// The rows of harness summary files (no model page or comparison: no items).
    summaries: RwSignal<Vec<coglab_core::leaderboard::HarnessSummaryRow>>,
    /// The table view.
    state: RwSignal<ViewState>,
    /// The bundled reported results.
    bundle: LocalResource<Result<coglab_core::reported::ReportedBundle, String>>,
) -> impl IntoView {
    let board = Memo::new(move |_| {
        let b = bundle.get();
        let reported = b.as_ref().and_then(|r| r.as_ref().ok());
        let mut b = mmiq_board(reported, &rows.read(), &acc.read(), &summaries.read());
        mark_published_rows(&mut b);
        b
    });
    let radar = Memo::new(move |_| {
        let b = board.get();
        let series = first_rows(&b, &state.read(), CHART_ROWS)
            .into_iter()
            .map(|i| RadarSeries {
                name: b.rows[i].model.clone(),
                values: (1..=CATEGORIES.len())
                    .map(|c| b.rows[i].cells.get(c).cloned().flatten().map(|x| x.value))
                    .collect(),
            })
            .filter(|s| s.values.iter().any(Option::is_some))
            .collect();
        Chart::Radar(Radar {
            title: "MM-IQ accuracy by paradigm (first rows of the table)".into(),
            axes: PARADIGM_SHORT.map(String::from).to_vec(),
            series,
            max: 1.0,
            theme: chart_theme(),
        })
    });
    let ids = Signal::derive(move || {
        rows.read()
            .iter()
            .map(|r| (r.id, r.model.clone()))
            .collect::<Vec<_>>()
    });
    let model_pick = RwSignal::new(None);
    let pair = RwSignal::new((None, None));
    url_selection(ids, model_pick, pair);
    let (marks, set_marks) = signal(RankMarks::default());
    view! {
        {move || match bundle.get() {
            Some(Err(e)) => Some(view! { <ErrorPanel title="Could not load the reported results" message=e /> }),
            _ => None,
        }}
        <BoardTable board=board state=state stem="mmiq" ranks=marks />
        <Show when=move || !rows.read().is_empty()>
            {split::part(split::mmiq_ranks(ids, set_marks))}
        </Show>
        <ChartCanvas data=radar testid="mmiq-radar" file_name="mmiq-radar.png"
            label="MM-IQ radar: accuracy per paradigm for the first rows of the table" />
        <Show when=move || !rows.read().is_empty()
            fallback=|| view! { <p class="notice">"Drop MM-IQ prediction files with the answer key above to add computed rows, a model page and comparisons."</p> }>
            {split::part(split::mmiq_computed(rows, ids, model_pick, pair))}
        </Show>
    }
}

/// The MM-IQ tab's sections over computed rows (in a chunk of their own, see [`split`]):
/// response lengths, the model page, and with two rows or more the comparison and the item
/// analysis.
#[component]
pub(crate) fn MmiqComputed(
    rows: RwSignal<Vec<MmiqRow>>,
    ids: Signal<Vec<(u64, String)>>,
    model_pick: RwSignal<Option<u64>>,
    pair: RwSignal<(Option<u64>, Option<u64>)>,
) -> impl IntoView {
    view! {
        <fidelity::MmiqLengths rows=rows />
        <ModelItems rows=ids selected=model_pick />
        <Show when=move || { rows.read().len() >= 2 }>
            <CompareModels rows=ids pair=pair testid="compare" />
            <crate::pages::items::ItemAnalysisSection rows=ids benchmark="mmiq" />
        </Show>
    }
}

/// The KiVA tab: KiVA / KiVA-adults switch and conditional / joint "how" stage (in the URL), one
/// table (bundled runs, adults, computed rows), grouped bars of the first rows shown and the
/// comparison by stage.
#[component]
pub(crate) fn KivaTab(
    /// The computed rows.
    rows: RwSignal<Vec<KivaRow>>,
    /// KiVA challenge results (drawn on the KiVA variant's table).
    challenge: RwSignal<Vec<coglab_core::leaderboard::KivaChallengeRow>>,
    /// The table view.
    state: RwSignal<ViewState>,
) -> impl IntoView {
    let query = use_query_map();
    let adults = Memo::new(move |_| query.read().get("v").as_deref() == Some("adults"));
    let joint = Memo::new(move |_| query.read().get("j").as_deref() == Some("1"));
    // Issue 23: `null=missing` leaves Null answers out (default: wrong, the repository's rule).
    let null = Memo::new(move |_| {
        query
            .read()
            .get("null")
            .and_then(|n| NullAnswers::from_name(&n))
            .unwrap_or_default()
    });
    let variant = Memo::new(move |_| {
        if adults.get() {
            Variant::KivaAdults
        } else {
            Variant::Kiva
        }
    });
    let baselines = LocalResource::new(|| async move {
        let text = fetch_text("data/kiva-baselines.json").await?;
        serde_json::from_str::<Baselines>(&text)
            .map_err(|e| format!("data/kiva-baselines.json: {e}"))
    });
    let board = Memo::new(move |_| {
        let b = baselines.get();
        let bl = b.as_ref().and_then(|r| r.as_ref().ok());
        let mut b = kiva_board(
            bl,
            &rows.read(),
            &challenge.read(),
            variant.get(),
            joint.get(),
            null.get(),
        );
        mark_published_rows(&mut b);
        b
    });
    let (stage, set_stage) = signal(0usize);
    let chart = Memo::new(move |_| {
        let st = kiva_stages(joint.get())[stage.get()];
        let b = board.get();
        // Domain columns of this stage (not "All").
        let cols: Vec<usize> = b
            .columns
            .iter()
            .enumerate()
            .filter(|(_, c)| c.key.ends_with(&format!("/{}", st.0)) && !c.key.starts_with("All/"))
            .map(|(i, _)| i)
            .collect();
        let groups = cols
            .iter()
            .map(|&c| {
                b.columns[c]
                    .key
                    .split('/')
                    .next()
                    .unwrap_or_default()
                    .to_string()
            })
            .collect();
        let series = first_rows(&b, &state.read(), CHART_ROWS)
            .into_iter()
            .map(|i| {
                let r = &b.rows[i];
                let cell = |c: usize| r.cells.get(c).cloned().flatten();
                BarSeries {
                    name: r.model.clone(),
                    values: cols.iter().map(|&c| cell(c).map(|x| x.value)).collect(),
                    se: cols
                        .iter()
                        .map(|&c| {
                            cell(c)
                                .and_then(|x| x.interval)
                                .map(|(lo, hi)| (hi - lo) / 2.0 / 1.96)
                        })
                        .collect(),
                }
            })
            .collect();
        Chart::Bars(GroupedBars {
            title: format!(
                "{}: {} by domain (first rows of the table; ±1 SE)",
                variant.get().name(),
                st.1
            ),
            y_label: "Accuracy".into(),
            groups,
            series,
            y_max: Some(1.0),
            reference: None,
            theme: chart_theme(),
        })
    });
    let kiva_ids = Signal::derive(move || {
        let v = variant.get();
        rows.read()
            .iter()
            .filter(|r| r.report.variant == v)
            .map(|r| (r.id, r.model.clone()))
            .collect::<Vec<_>>()
    });
    // Every computed KiVA row (model runs of both variants and a dropped adults file) for the
    // item analysis, which takes the adults as respondents when asked.
    let kiva_all = Signal::derive(move || {
        rows.read()
            .iter()
            .map(|r| (r.id, r.model.clone()))
            .collect::<Vec<_>>()
    });
    let kiva_pair = RwSignal::new((None, None));
    let kiva_pick = RwSignal::new(None);
    url_selection(kiva_ids, kiva_pick, kiva_pair);
    let (marks, set_marks) = signal(RankMarks::default());
    // The paired ranks follow the chart's stage.
    let rank_stage = Signal::derive(move || {
        KivaStage::parse(kiva_stages(joint.get())[stage.get()].0).unwrap_or_default()
    });
    view! {
        <div class="lb-controls" role="group" aria-label="KiVA options">
            <label><input type="checkbox" data-testid="kiva-adults"
                prop:checked=move || adults.get()
                on:change=move |ev| set_queries(&[("v", if event_target_checked(&ev) { "adults".into() } else { String::new() })]) />" KiVA-adults"</label>
            <label><input type="checkbox" data-testid="kiva-joint"
                prop:checked=move || joint.get()
                on:change=move |ev| set_queries(&[("j", if event_target_checked(&ev) { "1".into() } else { String::new() })]) />
                " Joint \"how\" stage (skipped counts as 0)"</label>
            <label title=move || kiva_null_note(null.get())><input type="checkbox" data-testid="kiva-null-missing"
                prop:checked=move || null.get() == NullAnswers::Missing
                on:change=move |ev| set_queries(&[("null", if event_target_checked(&ev) { "missing".into() } else { String::new() })]) />
                " Leave Null answers out (default: counted wrong, as the KiVA repository)"</label>
        </div>
        {move || match baselines.get() {
            Some(Err(e)) => Some(view! { <ErrorPanel title="Could not load the KiVA baselines" message=e /> }),
            _ => None,
        }}
        <BoardTable board=board state=state stem="kiva" ranks=marks />
        <RankPanel bench=Bench::Kiva rows=kiva_ids stage=rank_stage null=null marks=set_marks stem="kiva" />
        <div class="lb-controls" role="radiogroup" aria-label="Chart stage">
            {(0..3).map(|i| view! {
                <label><input type="radio" name="kiva-stage" prop:checked=move || stage.get() == i
                    on:change=move |_| set_stage.set(i) />{move || format!(" {}", kiva_stages(joint.get())[i].1)}</label>
            }).collect_view()}
        </div>
        <ChartCanvas data=chart testid="kiva-chart" file_name="kiva-bars.png" label="KiVA grouped bars: accuracy by domain with ±1 SE, first rows of the table" />
        <Show when=move || !kiva_ids.read().is_empty()>
            <KivaTrials rows=kiva_ids selected=kiva_pick joint=joint />
        </Show>
        <Show when=move || { !challenge.read().is_empty() && variant.get() == Variant::Kiva }>
            <ChallengeTrials rows=Signal::derive(move || {
                challenge.read().iter().map(|c| (c.id, c.model.clone())).collect::<Vec<_>>()
            }) />
        </Show>
        <Show when=move || { kiva_ids.read().len() >= 2 }
            fallback=|| view! { <p class="notice">"Drop two KiVA run folders above to compare them stage by stage."</p> }>
            <CompareModels rows=kiva_ids pair=kiva_pair testid="kiva-compare" joint=joint />
            <crate::pages::items::ItemAnalysisSection rows=kiva_all benchmark="kiva" />
        </Show>
    }
}

/// The data of one of the page's charts.
#[derive(Debug, Clone, PartialEq)]
enum Chart {
    /// Grouped bars.
    Bars(GroupedBars),
    /// Radar.
    Radar(Radar),
}

/// A chart drawn on a canvas, with a PNG download button.
#[component]
fn ChartCanvas(
    /// The chart data (redrawn when it changes).
    data: Memo<Chart>,
    /// Test id of the canvas.
    testid: &'static str,
    /// Name of the downloaded PNG.
    file_name: &'static str,
    /// Accessible description of the chart.
    label: &'static str,
) -> impl IntoView {
    let canvas = NodeRef::<leptos::html::Canvas>::new();
    let (err, set_err) = signal(None::<String>);
    // Redrawn at the new width when the window is resized (e.g. a phone turned).
    let resized = crate::charts::resize_counter();
    // Drawn at the next frame rather than in the task that changed the data: a redraw takes
    // 10-20 ms, which would lengthen, e.g., the task that shows the scoring worker's result.
    Effect::new(move |_| {
        resized.track();
        let d = data.get();
        request_animation_frame(move || {
            let Some(c) = canvas.get_untracked() else {
                return;
            };
            crate::charts::fit_to_shown_width(&c, 420);
            set_err.set(crate::charts::draw_on_canvas(c, |area| match &d {
                Chart::Bars(b) => draw_grouped_bars(area, b),
                Chart::Radar(r) => draw_radar(area, r),
            }));
        });
    });
    let download = move |_| {
        let Some(c) = canvas.get() else { return };
        let c: web_sys::HtmlCanvasElement = c;
        let Ok(url) = c.to_data_url() else { return };
        let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
            return;
        };
        if let Some(a) = doc
            .create_element("a")
            .ok()
            .and_then(|a| a.dyn_into::<web_sys::HtmlAnchorElement>().ok())
        {
            a.set_href(&url);
            a.set_download(file_name);
            a.click();
        }
    };
    view! {
        <figure class="lb-chart">
            <canvas node_ref=canvas width="900" height="420" role="img" aria-label=label
                data-testid=testid></canvas>
            <figcaption>
                <button type="button" on:click=download data-testid="chart-download">"Download PNG"</button>
            </figcaption>
            {move || err.get().map(|e| view! { <ErrorPanel title="Could not draw the chart" message=e /> })}
        </figure>
    }
}
