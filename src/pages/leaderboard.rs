//! Leaderboard: the results reported in the papers, one tab per benchmark, plus rows computed
//! in the browser from result files the user drops (scored in the worker by `coglab-core`).

use std::rc::Rc;

use coglab_core::kiva::{KivaReport, Variant};
use coglab_core::leaderboard::{
    tie_ranks, to_csv, to_json, to_latex, FileStatus, KivaRow, MmiqRow, Scored, Table,
};
use coglab_core::mmiq::{HumanReference, CATEGORIES};
use coglab_core::stats::describe::MeanSe;
use leptos::prelude::*;
use leptos_router::hooks::use_query_map;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

use crate::charts::bars::{draw_grouped_bars, BarSeries, GroupedBars};
use crate::charts::radar::{draw_radar, Radar, RadarSeries};
use crate::charts::ChartTheme;
use crate::components::error_panel::ErrorPanel;
use crate::components::model_items::{CompareModels, ModelItems};
use crate::components::reported_table::ReportedTableView;
use crate::data::{base_path, load_reported, BENCHMARKS};
use crate::worker::client::WorkerClient;
use crate::worker::protocol::ProgressUpdate;

mod gold;
mod mmopera;

/// Short paradigm names used as MM-IQ column headers, in [`CATEGORIES`] order.
const PARADIGM_SHORT: [&str; 8] = ["LO", "Math", "2D-G", "3D-G", "VI", "TM", "SR", "CO"];

/// The loaded files and computed rows of this page (kept across tab switches).
#[derive(Clone, Copy)]
struct Workspace {
    files: RwSignal<Vec<FileStatus>>,
    mmiq: RwSignal<Vec<MmiqRow>>,
    kiva: RwSignal<Vec<KivaRow>>,
    mmopera: RwSignal<Vec<coglab_core::leaderboard::mmopera::MmoperaRow>>,
    gold: RwSignal<Vec<coglab_core::leaderboard::gold::GoldRow>>,
    progress: RwSignal<Option<ProgressUpdate>>,
    error: RwSignal<Option<String>>,
}

/// The leaderboard page; the selected benchmark is the `b` query parameter (default MM-IQ).
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
        kiva: RwSignal::new(Vec::new()),
        mmopera: RwSignal::new(Vec::new()),
        gold: RwSignal::new(Vec::new()),
        progress: RwSignal::new(None),
        error: RwSignal::new(None),
    };
    let client = StoredValue::new_local(WorkerClient::for_app());
    let filter = Memo::new(move |_| query.read().get("q").unwrap_or_default().to_lowercase());
    let nav = use_nav();
    let base = base_path();
    let tabs = BENCHMARKS
        .iter()
        .map(|(key, name)| {
            let href = format!("{base}/leaderboard?b={key}");
            let current = move || (selected.get() == *key).then_some("page");
            view! {
                <a href=href role="tab" aria-selected=move || (selected.get() == *key).to_string()
                    aria-current=current data-testid=format!("tab-{key}")>{*name}</a>
            }
        })
        .collect_view();
    let on_files = move |files: Vec<web_sys::File>| {
        let c = client.get_value();
        leptos::task::spawn_local(score_batch(ws, c, files));
    };
    view! {
        <section data-testid="page-leaderboard" class="leaderboard">
            <h1>"Leaderboard"</h1>
            <p class="lede">"Results as reported in each benchmark's paper, and rows computed in \
                your browser from result files you drop below. Click a column header to sort."</p>
            <DropZone on_files=on_files cancel=move || client.get_value().cancel() ws=ws />
            <div class="tabs" role="tablist" aria-label="Benchmark">{tabs}</div>
            <label class="lb-search">"Filter computed rows by model "
                <input type="search" data-testid="lb-filter" placeholder="e.g. gpt4"
                    prop:value=move || query.read().get("q").unwrap_or_default()
                    on:change=move |ev| set_query(nav, "q", &event_target_value(&ev)) />
            </label>
            <div class="tab-panel" role="tabpanel">
                {move || match selected.get() {
                    "mmiq" => view! { <MmiqComputed rows=ws.mmiq filter=filter /> }.into_any(),
                    "kiva" => view! { <KivaComputed rows=ws.kiva filter=filter /> }.into_any(),
                    "mmopera" => view! { <mmopera::MmoperaComputed rows=ws.mmopera filter=filter /> }.into_any(),
                    "gold" => view! { <gold::GoldComputed rows=ws.gold filter=filter /> }.into_any(),
                    _ => ().into_any(),
                }}
                {move || match (selected.get(), bundle.get()) {
                    ("kiva", _) => view! {
                        <p class="notice" role="status" data-testid="kiva-reported-note">
                            "The KiVA paper reports its results as figures (per-domain bar \
                             charts), not as tables of numbers, so there is no reported KiVA table \
                             to show. Drop KiVA run folders above to compute scores."
                        </p>
                    }.into_any(),
                    (_, None) => view! { <p class="loading" aria-busy="true">"Loading…"</p> }.into_any(),
                    (_, Some(Err(e))) => view! {
                        <ErrorPanel title="Could not load the reported results" message=e />
                    }.into_any(),
                    (_, Some(Ok(b))) => view! {
                        <h2 class="lb-subhead">"Reported in the paper"</h2>
                        {b.tables.into_iter()
                            .map(|t| view! { <ReportedTableView table=t /> })
                            .collect_view()}
                    }.into_any(),
                }}
            </div>
        </section>
    }
}

/// The router's navigate function, stored for event handlers.
type Nav = StoredValue<Box<dyn Fn(&str, leptos_router::NavigateOptions)>, LocalStorage>;

fn use_nav() -> Nav {
    let navigate = leptos_router::hooks::use_navigate();
    StoredValue::new_local(Box::new(move |url: &str, opts| navigate(url, opts)))
}

/// Sets (or with an empty value removes) one query parameter, keeping the others, so the view
/// is restored on reload and can be shared.
fn set_query(nav: Nav, key: &str, value: &str) {
    let Some(loc) = web_sys::window().map(|w| w.location()) else {
        return;
    };
    let search = loc.search().unwrap_or_default();
    let Ok(params) = web_sys::UrlSearchParams::new_with_str(&search) else {
        return;
    };
    if value.is_empty() {
        params.delete(key);
    } else {
        params.set(key, value);
    }
    let path = loc.pathname().unwrap_or_default();
    let q = String::from(params.to_string());
    let url = if q.is_empty() {
        path
    } else {
        format!("{path}?{q}")
    };
    nav.with_value(|navigate| {
        navigate(
            &url,
            leptos_router::NavigateOptions {
                replace: true,
                scroll: false,
                ..Default::default()
            },
        )
    });
}

fn matches(model: &str, filter: &str) -> bool {
    filter.is_empty() || model.to_lowercase().contains(filter)
}

/// Path of a picked file: its folder-relative path for a folder pick, else its name.
fn file_path(f: &web_sys::File) -> String {
    js_sys::Reflect::get(f, &"webkitRelativePath".into())
        .ok()
        .and_then(|v| v.as_string())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| f.name())
}

/// Reads the files, scores them in the worker and appends the results to the workspace.
async fn score_batch(ws: Workspace, client: WorkerClient, files: Vec<web_sys::File>) {
    ws.error.set(None);
    let mut inputs = Vec::with_capacity(files.len());
    for f in &files {
        let path = file_path(f);
        match JsFuture::from(f.array_buffer()).await {
            Ok(buf) => inputs.push((path, js_sys::Uint8Array::new(&buf))),
            Err(_) => ws.files.update(|v| {
                v.push(FileStatus {
                    file: path.clone(),
                    kind: coglab_core::leaderboard::FileKind::Unknown,
                    model: String::new(),
                    status: "error".into(),
                    message: Some(format!("{path}: the browser could not read this file")),
                })
            }),
        }
    }
    if inputs.is_empty() {
        return;
    }
    ws.progress.set(Some(ProgressUpdate {
        done: 0.0,
        total: inputs.len() as f64,
        label: "starting".into(),
    }));
    let on_progress = Rc::new(move |p: ProgressUpdate| ws.progress.set(Some(p)));
    let result = client
        .call("lb.score", "{}", &inputs, Some(on_progress))
        .await;
    ws.progress.set(None);
    match result.and_then(|json| {
        serde_json::from_str::<Scored>(&json).map_err(|e| format!("worker result: {e}"))
    }) {
        Ok(s) => {
            ws.files.update(|v| v.extend(s.files));
            ws.mmiq.update(|v| v.extend(s.mmiq));
            ws.kiva.update(|v| v.extend(s.kiva));
            ws.mmopera.update(|v| v.extend(s.mmopera));
            ws.gold.update(|v| v.extend(s.gold));
        }
        Err(e) => ws.error.set(Some(e)),
    }
}

/// The drop zone: drag-drop, a file picker and a folder picker, with progress, cancel, the
/// status of each file and the errors of bad files.
#[component]
fn DropZone(
    /// Called with the files dropped or picked.
    on_files: impl Fn(Vec<web_sys::File>) + Copy + Send + Sync + 'static,
    /// Stops scoring.
    cancel: impl Fn() + Copy + Send + Sync + 'static,
    /// Where results and statuses go.
    ws: Workspace,
) -> impl IntoView {
    let (over, set_over) = signal(false);
    let take_list = move |list: Option<web_sys::FileList>| {
        let Some(list) = list else { return };
        let files: Vec<web_sys::File> = (0..list.length()).filter_map(|i| list.get(i)).collect();
        if !files.is_empty() {
            on_files(files);
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
            on:drop=move |ev: leptos::ev::DragEvent| {
                ev.prevent_default();
                set_over.set(false);
                take_list(ev.data_transfer().and_then(|d| d.files()));
            }>
            <p><strong>"Drop result files here"</strong>" — MM-IQ predictions with the answer key \
                (JSONL or VLMEvalKit tables), KiVA run CSVs, the KiVA human data. \
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
            {move || ws.progress.get().map(|p| view! {
                <div class="lb-progress" role="status" data-testid="lb-progress">
                    <progress max="1" value=p.fraction()></progress>
                    <span>{format!("Scoring {} ({} of {})", p.label, p.done, p.total)}</span>
                    <button type="button" on:click=move |_| cancel() data-testid="lb-cancel">"Cancel"</button>
                </div>
            })}
            {move || ws.error.get().map(|e| view! {
                <ErrorPanel title="Scoring stopped" message=e />
            })}
            <Show when=move || !ws.files.read().is_empty()>
                <details class="lb-files-box" data-testid="lb-files-box">
                    <summary>{move || {
                        let f = ws.files.read();
                        let bad = f.iter().filter(|f| f.status == "error").count();
                        format!("{} files loaded: {} scored, {} with errors, {} not scored here",
                            f.len(),
                            f.iter().filter(|f| f.status == "ok").count(),
                            bad,
                            f.iter().filter(|f| f.status == "unsupported").count())
                    }}</summary>
                    <ul class="lb-files" data-testid="lb-files">
                        {move || ws.files.get().into_iter().map(|f| {
                            let cls = format!("lb-file status-{}", f.status);
                            view! {
                                <li class=cls data-status=f.status.clone()>
                                    <span class="badge">{f.status.clone()}</span>
                                    " "<code>{f.file.clone()}</code>" · "{f.kind.label()}
                                    {(!f.model.is_empty()).then(|| format!(" · model {}", f.model))}
                                    {f.message.clone().filter(|_| f.status == "unsupported").map(|m| format!(" · {m}"))}
                                </li>
                            }
                        }).collect_view()}
                    </ul>
                </details>
            </Show>
            {move || ws.files.get().into_iter().filter(|f| f.status == "error").map(|f| view! {
                <ErrorPanel title=format!("Could not score {}", f.file)
                    message=f.message.unwrap_or_default() />
            }).collect_view()}
        </div>
    }
}

fn pct(x: f64) -> String {
    format!("{:.1}", x * 100.0)
}

/// MM-IQ computed rows: mean with its Wilson 95% interval and the eight paradigms, beside the
/// chance and human baselines; ranks tie overlapping intervals.
#[component]
fn MmiqComputed(
    /// The computed rows.
    rows: RwSignal<Vec<MmiqRow>>,
    /// Lower-case text a shown model name must contain.
    filter: Memo<String>,
) -> impl IntoView {
    let human = HumanReference::paper();
    let export = Memo::new(move |_| {
        let f = filter.get();
        let rows: Vec<MmiqRow> = rows
            .get()
            .into_iter()
            .filter(|r| matches(&r.model, &f))
            .collect();
        let ranks = tie_ranks(
            &rows
                .iter()
                .map(|r| (r.report.overall.ci_low, r.report.overall.ci_high))
                .collect::<Vec<_>>(),
        );
        let mut columns: Vec<String> = ["Rank", "Model", "Mean", "95% CI"]
            .map(String::from)
            .to_vec();
        columns.extend(PARADIGM_SHORT.map(String::from));
        let rows = rows
            .iter()
            .zip(ranks)
            .map(|(r, rank)| {
                let o = r.report.overall;
                let mut row = vec![
                    rank.to_string(),
                    r.model.clone(),
                    pct(o.accuracy),
                    format!("{}–{}", pct(o.ci_low), pct(o.ci_high)),
                ];
                row.extend(CATEGORIES.iter().map(|c| {
                    r.report
                        .by_category
                        .get(*c)
                        .map_or("–".to_string(), |a| pct(a.accuracy))
                }));
                row
            })
            .collect();
        Table { columns, rows }
    });
    let radar = Memo::new(move |_| {
        let human = HumanReference::paper();
        let mut series: Vec<RadarSeries> = rows
            .get()
            .iter()
            .map(|r| RadarSeries {
                name: r.model.clone(),
                values: CATEGORIES
                    .iter()
                    .map(|c| r.report.by_category.get(*c).map(|a| a.accuracy))
                    .collect(),
            })
            .collect();
        series.push(RadarSeries {
            name: "Human".into(),
            values: CATEGORIES
                .iter()
                .map(|c| human.by_category.get(*c).copied())
                .collect(),
        });
        Chart::Radar(Radar {
            title: "MM-IQ accuracy by paradigm".into(),
            axes: PARADIGM_SHORT.map(String::from).to_vec(),
            series,
            max: 1.0,
            theme: chart_theme(),
        })
    });
    view! {
        <Show when=move || !rows.read().is_empty()>
            {
                let human = human.clone();
                move || {
                    let f = filter.get();
                    let rows: Vec<MmiqRow> = rows.get().into_iter().filter(|r| matches(&r.model, &f)).collect();
                    let ranks = tie_ranks(
                        &rows.iter().map(|r| (r.report.overall.ci_low, r.report.overall.ci_high)).collect::<Vec<_>>(),
                    );
                    let body = rows.iter().zip(ranks).map(|(r, rank)| {
                        let o = r.report.overall;
                        let cats = CATEGORIES.iter().map(|c| {
                            let a = r.report.by_category.get(*c);
                            view! {
                                <td class="num" data-value=a.map(|a| a.accuracy.to_string())
                                    title=a.map(|a| format!("{} of {}; 95% CI {}–{}", a.correct, a.n, pct(a.ci_low), pct(a.ci_high)))>
                                    {a.map_or("–".to_string(), |a| pct(a.accuracy))}
                                </td>
                            }
                        }).collect_view();
                        view! {
                            <tr data-testid="mmiq-computed-row" data-model=r.model.clone()>
                                <td class="num" title="Tied ranks: intervals that overlap share a rank">{rank}</td>
                                <th scope="row">{r.model.clone()}" "<span class="badge computed">"computed"</span></th>
                                <td class="num" data-value=o.accuracy.to_string()
                                    data-ci-low=o.ci_low.to_string() data-ci-high=o.ci_high.to_string()
                                    title=format!("{} of {} correct; Wilson 95% CI {}–{}", o.correct, o.n, pct(o.ci_low), pct(o.ci_high))>
                                    {pct(o.accuracy)}
                                    <span class="ci">{format!(" [{}, {}]", pct(o.ci_low), pct(o.ci_high))}</span>
                                </td>
                                {cats}
                            </tr>
                        }
                    }).collect_view();
                    let human_cats = CATEGORIES.iter().map(|c| view! {
                        <td class="num">{human.by_category.get(*c).map_or("–".to_string(), |v| pct(*v))}</td>
                    }).collect_view();
                    view! {
                        <h2 class="lb-subhead">"Computed from your files"</h2>
                        <div class="table-scroll">
                        <table class="lb-table" data-testid="mmiq-computed">
                            <caption>"MM-IQ accuracy (%) with the Wilson 95% interval"</caption>
                            <thead><tr>
                                <th scope="col" title="Rank; overlapping 95% intervals are ties">"Rank"</th>
                                <th scope="col">"Model"</th>
                                <th scope="col" title="Accuracy over all scored items (item-weighted), with its Wilson 95% interval">"Mean"</th>
                                {CATEGORIES.iter().zip(PARADIGM_SHORT).map(|(c, s)| view! {
                                    <th scope="col" title=format!("{c}: accuracy on this paradigm's items")>{s}</th>
                                }).collect_view()}
                            </tr></thead>
                            <tbody>
                                {body}
                                <tr class="baseline">
                                    <td></td><th scope="row">"Human "<span class="badge">"baseline"</span></th>
                                    <td class="num" title=human.source.clone()>{pct(human.overall)}</td>
                                    {human_cats}
                                </tr>
                                <tr class="baseline">
                                    <td></td><th scope="row">"Chance "<span class="badge">"baseline"</span></th>
                                    <td class="num">{pct(coglab_core::mmiq::CHANCE)}</td>
                                    {CATEGORIES.iter().map(|_| view! { <td class="num">"–"</td> }).collect_view()}
                                </tr>
                            </tbody>
                        </table>
                        </div>
                    }
                }
            }
            <ExportButtons table=export stem="mmiq" />
            <ChartCanvas data=radar testid="mmiq-radar" file_name="mmiq-radar.png"
                label="MM-IQ radar: accuracy per paradigm for each model and humans" />
            <ModelItems rows=rows />
            <Show when=move || { rows.read().len() >= 2 }>
                <CompareModels rows=rows />
            </Show>
        </Show>
    }
}

/// The KiVA stages shown, as (report key, column title, definition).
fn kiva_stages(joint: bool) -> [(&'static str, &'static str, &'static str); 3] {
    [
        (
            "cross",
            "What",
            "Stage 1: which kind of change happened (cross-domain)",
        ),
        if joint {
            (
                "within_joint",
                "How",
                "Stage 2, joint: a skipped stage 2 counts as 0",
            )
        } else {
            (
                "within_conditional",
                "How",
                "Stage 2, conditional: only trials that reached stage 2",
            )
        },
        (
            "extrapolation",
            "Apply",
            "Stage 3: apply the rule to a new object",
        ),
    ]
}

fn mean_se_text(m: Option<MeanSe>) -> String {
    m.map_or("–".into(), |m| format!("{} ± {}", pct(m.mean), pct(m.se)))
}

/// KiVA computed rows: the three stages by domain, a KiVA / KiVA-adults switch and the
/// conditional / joint choice for stage 2; with the grouped bars chart.
#[component]
fn KivaComputed(
    /// The computed rows.
    rows: RwSignal<Vec<KivaRow>>,
    /// Lower-case text a shown model name must contain.
    filter: Memo<String>,
) -> impl IntoView {
    let query = use_query_map();
    let nav = use_nav();
    let adults = Memo::new(move |_| query.read().get("v").as_deref() == Some("adults"));
    let joint = Memo::new(move |_| query.read().get("j").as_deref() == Some("1"));
    let (stage, set_stage) = signal(0usize);
    let visible = Memo::new(move |_| {
        let v = if adults.get() {
            Variant::KivaAdults
        } else {
            Variant::Kiva
        };
        rows.get()
            .into_iter()
            .filter(|r| r.report.variant == v && matches(&r.model, &filter.get()))
            .collect::<Vec<_>>()
    });
    let domains = move || {
        let mut d: Vec<String> = visible
            .get()
            .iter()
            .flat_map(|r| r.report.by_domain.keys().cloned())
            .collect();
        d.sort();
        d.dedup();
        d
    };
    let chart = Memo::new(move |_| {
        let st = kiva_stages(joint.get())[stage.get()];
        let groups = domains();
        let series = visible
            .get()
            .iter()
            .map(|r| BarSeries {
                name: r.model.clone(),
                values: groups
                    .iter()
                    .map(|g| stat(&r.report, g, st.0).map(|m| m.mean))
                    .collect(),
                se: groups
                    .iter()
                    .map(|g| stat(&r.report, g, st.0).map(|m| m.se))
                    .collect(),
            })
            .collect();
        Chart::Bars(GroupedBars {
            title: format!("KiVA: {} ({})", st.1, st.2),
            y_label: "Accuracy".into(),
            groups,
            series,
            y_max: Some(1.0),
            reference: None,
            theme: chart_theme(),
        })
    });
    let export = Memo::new(move |_| {
        let doms = domains();
        let stages = kiva_stages(joint.get());
        let mut columns = vec!["Model".to_string()];
        for d in &doms {
            for (_, t, _) in stages {
                columns.push(format!("{d} {t}"));
            }
        }
        let rows = visible
            .get()
            .iter()
            .map(|r| {
                let mut row = vec![r.model.clone()];
                for d in &doms {
                    for (k, _, _) in stages {
                        row.push(mean_se_text(stat(&r.report, d, k)));
                    }
                }
                row
            })
            .collect();
        Table { columns, rows }
    });
    view! {
        <Show when=move || !rows.read().is_empty()>
            <h2 class="lb-subhead">"Computed from your files"</h2>
            <div class="lb-controls" role="group" aria-label="KiVA options">
                <label><input type="checkbox" data-testid="kiva-adults"
                    prop:checked=move || adults.get()
                    on:change=move |ev| set_query(nav, "v", if event_target_checked(&ev) { "adults" } else { "" }) />" KiVA-adults"</label>
                <label><input type="checkbox" data-testid="kiva-joint"
                    prop:checked=move || joint.get()
                    on:change=move |ev| set_query(nav, "j", if event_target_checked(&ev) { "1" } else { "" }) />
                    " Joint \"how\" stage (skipped counts as 0)"</label>
            </div>
            <div class="table-scroll">
            <table class="lb-table" data-testid="kiva-computed">
                <caption>"KiVA accuracy (%) by domain, mean ± SE over trials"</caption>
                <thead>
                    <tr>
                        <th scope="col" rowspan="2">"Model"</th>
                        {move || domains().into_iter().map(|d| view! { <th scope="colgroup" colspan="3">{d}</th> }).collect_view()}
                    </tr>
                    <tr>
                        {move || domains().into_iter().map(|_| kiva_stages(joint.get()).map(|(_, t, def)| view! {
                            <th scope="col" title=def>{t}</th>
                        }).collect_view()).collect_view()}
                    </tr>
                </thead>
                <tbody>
                    {move || visible.get().into_iter().map(|r| {
                        let cells = domains().into_iter().map(|d| kiva_stages(joint.get()).map(|(k, _, _)| {
                            let m = stat(&r.report, &d, k);
                            view! {
                                <td class="num" data-domain=d.clone() data-stage=k
                                    data-value=m.map(|m| m.mean.to_string())
                                    title=m.map(|m| format!("n = {} trials", m.n))>{mean_se_text(m)}</td>
                            }
                        }).collect_view()).collect_view();
                        view! {
                            <tr data-testid="kiva-computed-row" data-model=r.model.clone()>
                                <th scope="row">{r.model.clone()}" "<span class="badge computed">"computed"</span></th>
                                {cells}
                            </tr>
                        }
                    }).collect_view()}
                </tbody>
            </table>
            </div>
            <div class="lb-controls" role="group" aria-label="Chart stage">
                {(0..3).map(|i| view! {
                    <label><input type="radio" name="kiva-stage" prop:checked=move || stage.get() == i
                        on:change=move |_| set_stage.set(i) />{move || format!(" {}", kiva_stages(joint.get())[i].1)}</label>
                }).collect_view()}
            </div>
            <ExportButtons table=export stem="kiva" />
            <ChartCanvas data=chart testid="kiva-chart" file_name="kiva-bars.png" label="KiVA grouped bars: accuracy by domain with ±1 SE" />
        </Show>
    }
}

fn stat(r: &KivaReport, domain: &str, key: &str) -> Option<MeanSe> {
    r.by_domain.get(domain).and_then(|s| s.get(key))
}

fn prefers_dark() -> bool {
    let root_theme = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
        .and_then(|e| e.get_attribute("data-theme"));
    match root_theme.as_deref() {
        Some("dark") => true,
        Some("light") => false,
        _ => web_sys::window()
            .and_then(|w| w.match_media("(prefers-color-scheme: dark)").ok().flatten())
            .is_some_and(|m| m.matches()),
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

fn chart_theme() -> ChartTheme {
    if prefers_dark() {
        ChartTheme::dark()
    } else {
        ChartTheme::light()
    }
}

/// Offers `text` as a downloaded file.
fn download_text(name: &str, mime: &str, text: &str) {
    let parts = js_sys::Array::of1(&text.into());
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type(mime);
    let Ok(blob) = web_sys::Blob::new_with_str_sequence_and_options(&parts, &opts) else {
        return;
    };
    let Ok(url) = web_sys::Url::create_object_url_with_blob(&blob) else {
        return;
    };
    if let Some(a) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.create_element("a").ok())
        .and_then(|a| a.dyn_into::<web_sys::HtmlAnchorElement>().ok())
    {
        a.set_href(&url);
        a.set_download(name);
        a.click();
    }
    // The URL is not revoked: revoking right after the click can cancel the download.
}

/// CSV, JSON and LaTeX download buttons for a table as shown.
#[component]
fn ExportButtons(
    /// The table as shown (sorted, filtered, visible columns).
    table: Memo<Table>,
    /// File name without extension.
    stem: &'static str,
) -> impl IntoView {
    view! {
        <div class="lb-controls lb-export" role="group" aria-label="Export this table">
            <button type="button" data-testid=format!("{stem}-csv")
                on:click=move |_| download_text(&format!("{stem}.csv"), "text/csv", &to_csv(&table.get()))>"CSV"</button>
            <button type="button" data-testid=format!("{stem}-json")
                on:click=move |_| download_text(&format!("{stem}.json"), "application/json", &to_json(&table.get()))>"JSON"</button>
            <button type="button" data-testid=format!("{stem}-latex")
                on:click=move |_| download_text(&format!("{stem}.tex"), "application/x-tex", &to_latex(&table.get()))>"LaTeX"</button>
        </div>
    }
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
    Effect::new(move |_| {
        let d = data.get();
        let Some(c) = canvas.get() else { return };
        let c: web_sys::HtmlCanvasElement = c;
        let Some(backend) = plotters_canvas::CanvasBackend::with_canvas_object(c) else {
            set_err.set(Some("this browser cannot draw on a canvas".into()));
            return;
        };
        use plotters::prelude::IntoDrawingArea;
        let area = backend.into_drawing_area();
        set_err.set(
            match &d {
                Chart::Bars(b) => draw_grouped_bars(&area, b),
                Chart::Radar(r) => draw_radar(&area, r),
            }
            .err(),
        );
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
