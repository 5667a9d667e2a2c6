//! The MM-OPERA leaderboard tab: per task (RIA or ICA) one unified table of score rate (SR),
//! HR-4, HR-3, ΔHR and the mean process-reward reasoning score (reported, computed and
//! baseline rows, [`super::board::mmopera_board`]); for computed rows every breakdown as an
//! expandable table, the L-3 abilities radar, score rate by hop count, the histogram of
//! holistic scores, and a two-model comparison computed in the worker. Every number comes
//! from `coglab_core::leaderboard::mmopera` (scored in the worker with `coglab score
//! mmopera`'s defaults); this file only formats, sorts and filters.

use std::collections::BTreeMap;

use coglab_core::leaderboard::mmopera::{MmoperaComparison, MmoperaRow, MmoperaTaskRow};
use coglab_core::mmopera::score::{Breakdowns, Group, ProcessGroup};
use coglab_core::mmopera::Task;
use coglab_core::reported::ReportedBundle;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::charts::histogram::{draw_histogram, Histogram, HistogramSeries};
use crate::charts::line::{draw_lines, LineChart, LineSeries};
use crate::charts::radar::{draw_radar, Radar, RadarSeries};
use crate::components::board_table::{BoardTable, ViewState};
use crate::components::error_panel::ErrorPanel;
use crate::components::rank_panel::{RankMarks, RankPanel};
use crate::components::theme_toggle::chart_theme;
use coglab_core::ranks::Bench;
use leptos_router::hooks::use_query_map;

use super::board::{mmopera_board, OperaSettings};
use crate::worker::api;
use crate::worker::client::use_worker;
use coglab_core::mmopera::score::{DecayExponent, IcaAverage};

/// Bootstrap resamples and seed of the comparison's SR-difference interval.
const RESAMPLES: usize = 2000;
const SEED: u64 = 1;

fn tasks() -> [Task; 2] {
    [Task::Ria, Task::Ica]
}

fn task_key(t: Task) -> &'static str {
    match t {
        Task::Ria => "ria",
        Task::Ica => "ica",
    }
}

/// The breakdown dimensions, as (key, title).
const DIMENSIONS: [(&str, &str); 8] = [
    ("l1", "Ability level L-1"),
    ("l2", "Ability level L-2"),
    ("l3", "Ability level L-3"),
    ("type", "Relation type"),
    ("hop_count", "Hop count"),
    ("language", "Language"),
    ("culture", "Culture"),
    ("domain", "Domain"),
];

fn dim<'a, G>(b: &'a Breakdowns<G>, key: &str) -> Option<&'a BTreeMap<String, G>> {
    Some(match key {
        "l1" => &b.l1,
        "l2" => &b.l2,
        "l3" => &b.l3,
        "type" => &b.kind,
        "hop_count" => &b.hop_count,
        "language" => &b.language,
        "culture" => &b.culture,
        "domain" => &b.domain,
        _ => return None,
    })
}

/// Keys of a breakdown sorted for display: hop counts numerically, others by name.
fn sorted_keys(key: &str, keys: impl Iterator<Item = String>) -> Vec<String> {
    let mut k: Vec<String> = keys.collect();
    k.sort();
    k.dedup();
    if key == "hop_count" {
        k.sort_by(|a, b| {
            let (x, y) = (a.parse::<f64>().ok(), b.parse::<f64>().ok());
            match (x, y) {
                (Some(x), Some(y)) => x.total_cmp(&y),
                _ => a.cmp(b),
            }
        });
    }
    k
}

/// One chart of this tab.
#[derive(Debug, Clone, PartialEq)]
enum OperaChart {
    Radar(Radar),
    Line(LineChart),
    Histogram(Histogram),
    /// Nothing to draw, with the reason.
    Empty(String),
}

/// The MM-OPERA tab: a RIA / ICA switch (the `t` query parameter), the unified table of the
/// task (reported Tables 2 and 3, computed rows, human baseline; sort, filters, columns, URL
/// state and exports from [`BoardTable`]), then for the computed rows whose name matches the
/// table's text filter: notes, breakdowns, charts and the two-model comparison.
#[component]
pub fn MmoperaTab(
    /// The computed rows (one per model).
    rows: RwSignal<Vec<MmoperaRow>>,
    /// The table view (kept in the URL).
    state: RwSignal<ViewState>,
    /// The bundled reported results (Tables 2 and 3).
    bundle: LocalResource<Result<ReportedBundle, String>>,
) -> impl IntoView {
    let query = use_query_map();
    let chart_task = Memo::new(move |_| {
        if query.read().get("t").as_deref() == Some("ica") {
            Task::Ica
        } else {
            Task::Ria
        }
    });
    // The paper-fidelity switches (issue 23), in the URL: `decay=paper`, `avg=paths`.
    let settings = Memo::new(move |_| {
        let q = query.read();
        OperaSettings {
            decay: q
                .get("decay")
                .and_then(|d| DecayExponent::from_name(&d))
                .unwrap_or_default(),
            average: q
                .get("avg")
                .and_then(|a| IcaAverage::from_name(&a))
                .unwrap_or_default(),
        }
    });
    let board = Memo::new(move |_| {
        let b = bundle.get();
        let reported = b.as_ref().and_then(|r| r.as_ref().ok());
        let mut b = mmopera_board(reported, &rows.read(), chart_task.get(), settings.get());
        super::mark_published_rows(&mut b);
        b
    });
    let rank_rows = Signal::derive(move || {
        rows.read()
            .iter()
            .map(|r| (r.id, r.model.clone()))
            .collect::<Vec<_>>()
    });
    let (marks, set_marks) = signal(RankMarks::default());
    let visible = Memo::new(move |_| {
        let f = crate::components::board_table::fold_case(&state.read().query);
        rows.get()
            .into_iter()
            .filter(|r| {
                f.is_empty() || crate::components::board_table::fold_case(&r.model).contains(&f)
            })
            .collect::<Vec<_>>()
    });
    let radar = Memo::new(move |_| {
        let task = chart_task.get();
        let rows = visible.get();
        let axes = sorted_keys(
            "l3",
            rows.iter()
                .filter_map(|r| r.task(task)?.holistic.as_ref())
                .flat_map(|h| h.by.l3.keys().cloned()),
        );
        if axes.len() < 3 {
            return OperaChart::Empty(format!(
                "The L-3 abilities radar needs at least 3 abilities in the {} metadata ({} found).",
                task.name(),
                axes.len()
            ));
        }
        let series = rows
            .iter()
            .filter_map(|r| {
                let h = r.task(task)?.holistic.as_ref()?;
                Some(RadarSeries {
                    name: r.model.clone(),
                    values: axes
                        .iter()
                        .map(|a| h.by.l3.get(a).map(|g| g.score_rate))
                        .collect(),
                })
            })
            .collect();
        OperaChart::Radar(Radar {
            title: format!("MM-OPERA {}: score rate by L-3 ability", task.name()),
            axes,
            series,
            max: 1.0,
            theme: chart_theme(),
        })
    });
    let line = Memo::new(move |_| {
        let task = chart_task.get();
        let rows = visible.get();
        let cats = sorted_keys(
            "hop_count",
            rows.iter()
                .filter_map(|r| r.task(task)?.holistic.as_ref())
                .flat_map(|h| h.by.hop_count.keys().cloned()),
        );
        if cats.is_empty() {
            return OperaChart::Empty(format!(
                "No hop counts: drop the {} metadata to see score rate by hop count.",
                task.name()
            ));
        }
        let series = rows
            .iter()
            .filter_map(|r| {
                let h = r.task(task)?.holistic.as_ref()?;
                Some(LineSeries {
                    name: r.model.clone(),
                    values: cats
                        .iter()
                        .map(|c| h.by.hop_count.get(c).map(|g| g.score_rate))
                        .collect(),
                })
            })
            .collect();
        OperaChart::Line(LineChart {
            title: format!(
                "MM-OPERA {}: score rate by reference hop count",
                task.name()
            ),
            x_label: "Hops in the reference reasoning path".into(),
            y_label: "Score rate".into(),
            categories: cats,
            series,
            y_max: 1.0,
            theme: chart_theme(),
        })
    });
    let histogram = Memo::new(move |_| {
        let task = chart_task.get();
        let series: Vec<HistogramSeries> = visible
            .get()
            .iter()
            .filter_map(|r| {
                let h = r.task(task)?.holistic.as_ref()?;
                Some(HistogramSeries {
                    name: r.model.clone(),
                    counts: (0..=4)
                        .map(|s| h.distribution.get(&s.to_string()).copied().unwrap_or(0))
                        .collect(),
                })
            })
            .collect();
        if series.is_empty() {
            return OperaChart::Empty(format!("No {} holistic scores to count.", task.name()));
        }
        OperaChart::Histogram(Histogram {
            title: format!("MM-OPERA {}: holistic scores (valid verdicts)", task.name()),
            x_label: "Holistic score".into(),
            bins: (0..=4).map(|s| s.to_string()).collect(),
            series,
            theme: chart_theme(),
        })
    });
    view! {
        <div class="lb-controls" role="radiogroup" aria-label="MM-OPERA task">
            <span>"Task:"</span>
            {tasks().map(|t| view! {
                <label><input type="radio" name="mmopera-task" data-testid=format!("mmopera-task-{}", task_key(t))
                    prop:checked=move || chart_task.get() == t
                    on:change=move |_| super::set_queries(&[("t", if t == Task::Ica { "ica".into() } else { String::new() })]) />
                    {format!(" {}", match t { Task::Ria => "RIA (remote-item association)", Task::Ica => "ICA (in-context association)" })}</label>
            }).collect_view()}
        </div>
        <div class="lb-controls" role="group" aria-label="MM-OPERA scoring settings" data-testid="mmopera-settings">
            <label title="The released code sums s_i·γ^i from i = 0 (the first hop undecayed); the paper's equation 2 sums s_t·γ^t from t = 1, which is the code's value × γ.">
                "Reasoning score decay: "
                <select data-testid="mmopera-decay"
                    prop:value=move || settings.get().decay.name()
                    on:change=move |ev| {
                        let v = event_target_value(&ev);
                        super::set_queries(&[("decay", if v == "paper" { v } else { String::new() })]);
                    }>
                    <option value="code">"released code, first hop undecayed (default)"</option>
                    <option value="paper">"paper, equation 2 (every hop decayed)"</option>
                </select>
            </label>
            <label title="Ours: each ICA item's S_r is the mean of its 8 paths, then the mean over items. The released ICA_stat.py averages over all scored paths of all items. RIA items have one path.">
                " ICA average: "
                <select data-testid="mmopera-average"
                    prop:value=move || settings.get().average.name()
                    on:change=move |ev| {
                        let v = event_target_value(&ev);
                        super::set_queries(&[("avg", if v == "paths" { v } else { String::new() })]);
                    }>
                    <option value="items">"over items (ours, default)"</option>
                    <option value="paths">"over all paths (released ICA script)"</option>
                </select>
            </label>
        </div>
        <BoardTable board=board state=state stem="mmopera" ranks=marks />
        <RankPanel bench=Bench::Mmopera rows=rank_rows task=chart_task marks=set_marks stem="mmopera" />
        <Show when=move || !rows.read().is_empty()
            fallback=|| view! { <p class="notice">"Drop MM-OPERA judge files (holistic and process-reward scoring JSON) with the dataset's metadata above to add computed rows, breakdowns, charts and comparisons."</p> }>
            {move || {
                let notes: Vec<String> = visible.get().iter().flat_map(|r| tasks().into_iter().filter_map(|t| r.task(t).map(|x| (r.model.clone(), t, x.notes.clone(), x.warning_count))).collect::<Vec<_>>())
                    .flat_map(|(m, t, notes, w)| {
                        let mut out: Vec<String> = notes.into_iter().map(|n| format!("{m} {}: {n}", t.name())).collect();
                        if w > 0 {
                            out.push(format!("{m} {}: {w} warning(s) in the judge files (invalid scores count as 0, malformed hops are left out)", t.name()));
                        }
                        out
                    }).collect();
                (!notes.is_empty()).then(|| view! {
                    <ul class="notice" data-testid="mmopera-notes">
                        {notes.into_iter().map(|n| view! { <li>{n}</li> }).collect_view()}
                    </ul>
                })
            }}
            <h3 class="lb-subhead">"Breakdowns"</h3>
            <div data-testid="mmopera-breakdowns">
                {move || visible.get().into_iter().flat_map(|r| tasks().into_iter().filter_map(move |t| r.task(t).cloned().map(|row| (r.id, r.model.clone(), row)))).map(|(id, model, row)| view! {
                    <Breakdown id=id model=model row=row />
                }).collect_view()}
            </div>
            <h3 class="lb-subhead">{move || format!("Charts ({})", chart_task.get().name())}</h3>
            <OperaCanvas data=radar testid="mmopera-radar" file_name="mmopera-l3-radar.png"
                label="MM-OPERA radar: score rate by L-3 ability for each model" />
            <OperaCanvas data=line testid="mmopera-hops" file_name="mmopera-hops.png"
                label="MM-OPERA line chart: score rate by reference hop count, one line per model" />
            <OperaCanvas data=histogram testid="mmopera-histogram" file_name="mmopera-scores.png"
                label="MM-OPERA histogram: share of holistic scores 0 to 4 for each model" />
            <Show when=move || { rows.read().len() >= 2 }>
                <MmoperaCompare rows=rows />
                <crate::pages::items::ItemAnalysisSection benchmark="mmopera"
                    rows=Signal::derive(move || rows.read().iter().map(|r| (r.id, r.model.clone())).collect::<Vec<_>>()) />
            </Show>
        </Show>
    }
}

/// One model-task's breakdowns, collapsed: a table per dimension with the holistic SR and
/// the mean reasoning score per group.
#[component]
fn Breakdown(
    /// The row's id in the worker.
    id: api::RowId,
    /// Model name.
    model: String,
    /// Its scores on one task.
    row: MmoperaTaskRow,
) -> impl IntoView {
    let task = row.task;
    let empty_h = Breakdowns::<Group>::default();
    let empty_p = Breakdowns::<ProcessGroup>::default();
    let hb = row.holistic.as_ref().map_or(&empty_h, |h| &h.by);
    let pb = row.reasoning.as_ref().map_or(&empty_p, |p| &p.by);
    let tables = DIMENSIONS
        .iter()
        .filter_map(|(key, title)| {
            let h = dim(hb, key)?;
            let p = dim(pb, key)?;
            let keys = sorted_keys(key, h.keys().chain(p.keys()).cloned());
            if keys.is_empty() {
                return None;
            }
            let body = keys
                .into_iter()
                .map(|k| {
                    let g = h.get(&k);
                    let q = p.get(&k);
                    view! {
                        <tr data-group=k.clone()>
                            <th scope="row">{k.clone()}</th>
                            <td class="num" data-key="sr" data-value=g.map(|g| g.score_rate.to_string())>
                                {g.map_or("–".into(), |g| format!("{:.2}", g.score_rate * 100.0))}</td>
                            <td class="num">{g.map_or("–".into(), |g| g.n.to_string())}</td>
                            <td class="num" data-key="sr_proc" data-value=q.map(|q| q.mean_score.to_string())>
                                {q.map_or("–".into(), |q| format!("{:.4}", q.mean_score))}</td>
                            <td class="num">{q.map_or("–".into(), |q| q.n.to_string())}</td>
                        </tr>
                    }
                })
                .collect_view();
            Some(view! {
                <div class="table-scroll">
                <table class="lb-table" data-dimension=*key>
                    <caption>{*title}</caption>
                    <thead><tr>
                        <th scope="col">"Group"</th>
                        <th scope="col" title="Score rate over the group's valid verdicts">"SR (%)"</th>
                        <th scope="col" title="Verdicts counted">"n"</th>
                        <th scope="col" title="Mean process-reward score S_r">"Reasoning"</th>
                        <th scope="col" title="Items with a process score">"n"</th>
                    </tr></thead>
                    <tbody>{body}</tbody>
                </table>
                </div>
            })
        })
        .collect_view();
    let none = row.metadata_file.is_none();
    view! {
        <details class="lb-files-box" data-testid="mmopera-breakdown" data-model=model.clone() data-task=task_key(task)>
            <summary>{format!("{model} · {} breakdowns", task.name())}
                {row.metadata_file.clone().map(|m| format!(" (metadata {m})"))}</summary>
            {none.then(|| view! { <p class="notice">"No metadata for these items among your files: drop the dataset's metadata (JSON or CSV) to see the breakdowns."</p> })}
            {tables}
            <super::fidelity::OperaProcessAnalysis id=id row=row.clone() />
        </details>
    }
}

/// A chart of this tab on a canvas, with a PNG download button.
#[component]
fn OperaCanvas(
    /// The chart (redrawn when it changes).
    data: Memo<OperaChart>,
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
    Effect::new(move |_| {
        resized.track();
        let d = data.get();
        let Some(c) = canvas.get() else { return };
        let c: web_sys::HtmlCanvasElement = c;
        crate::charts::fit_to_shown_width(&c, 420);
        set_err.set(crate::charts::draw_on_canvas(c, |area| match &d {
            OperaChart::Radar(r) => draw_radar(area, r),
            OperaChart::Line(l) => draw_lines(area, l),
            OperaChart::Histogram(h) => draw_histogram(area, h),
            OperaChart::Empty(_) => Ok(()),
        }));
    });
    let download = move |_| {
        let Some(c) = canvas.get() else { return };
        let c: web_sys::HtmlCanvasElement = c;
        let Ok(url) = c.to_data_url() else { return };
        if let Some(a) = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.create_element("a").ok())
            .and_then(|a| a.dyn_into::<web_sys::HtmlAnchorElement>().ok())
        {
            a.set_href(&url);
            a.set_download(file_name);
            a.click();
        }
    };
    let empty = move || match data.get() {
        OperaChart::Empty(why) => Some(why),
        _ => None,
    };
    view! {
        <figure class="lb-chart" data-testid=format!("{testid}-figure")>
            <Show when=move || empty().is_none()
                fallback=move || view! { <p class="notice" data-testid=format!("{testid}-empty")>{empty()}</p> }>
                <canvas node_ref=canvas width="900" height="420" role="img" aria-label=label
                    data-testid=testid></canvas>
                <figcaption>
                    <button type="button" on:click=download data-testid="chart-download">"Download PNG"</button>
                </figcaption>
            </Show>
            {move || err.get().map(|e| view! { <ErrorPanel title="Could not draw the chart" message=e /> })}
        </figure>
    }
}

/// Two models compared on the items both were judged on (one task): the 5×5 table of paired
/// holistic verdicts, exact agreement, and the paired bootstrap 95% interval of the SR
/// difference, computed in the worker ([`api::MmoperaCompare`]).
#[component]
fn MmoperaCompare(
    /// The computed rows.
    rows: RwSignal<Vec<MmoperaRow>>,
) -> impl IntoView {
    let client = StoredValue::new_local(use_worker());
    let (task, set_task) = signal(Task::Ria);
    let (a, set_a) = signal(0usize);
    let (b, set_b) = signal(1usize);
    let (result, set_result) = signal(None::<Result<MmoperaComparison, String>>);
    let (busy, set_busy) = signal(false);
    let names = Memo::new(move |_| {
        rows.get()
            .iter()
            .map(|r| r.model.clone())
            .collect::<Vec<_>>()
    });
    let run = move |_| {
        let rows = rows.get_untracked();
        let t = task.get_untracked();
        let (ra, rb) = (rows.get(a.get_untracked()), rows.get(b.get_untracked()));
        let (Some(ra), Some(rb)) = (ra, rb) else {
            return;
        };
        let request = api::MmoperaCompare {
            first: ra.id,
            second: rb.id,
            task: t,
            resamples: RESAMPLES as u64,
            seed: SEED,
        };
        let c = client.get_value();
        set_busy.set(true);
        leptos::task::spawn_local(async move {
            let r = c.call(request).await;
            set_busy.set(false);
            set_result.set(Some(r));
        });
    };
    let select = move |which: ReadSignal<usize>,
                       set: WriteSignal<usize>,
                       testid: &'static str,
                       label: &'static str| {
        view! {
            <label>{label}" "
                <select data-testid=testid on:change=move |ev| {
                    if let Ok(i) = event_target_value(&ev).parse() { set.set(i) }
                }>
                    {move || names.get().into_iter().enumerate().map(|(i, n)| view! {
                        <option value=i.to_string() selected=move || which.get() == i>{n}</option>
                    }).collect_view()}
                </select>
            </label>
        }
    };
    view! {
        <h3 class="lb-subhead">"Compare two models"</h3>
        <div class="lb-controls" role="group" aria-label="MM-OPERA comparison" data-testid="mmopera-compare">
            {select(a, set_a, "mmopera-compare-a", "Model A")}
            {select(b, set_b, "mmopera-compare-b", "Model B")}
            <label>"Task "
                <select data-testid="mmopera-compare-task" on:change=move |ev| {
                    set_task.set(if event_target_value(&ev) == "ica" { Task::Ica } else { Task::Ria })
                }>
                    <option value="ria">"RIA"</option>
                    <option value="ica">"ICA"</option>
                </select>
            </label>
            <button type="button" data-testid="mmopera-compare-run" on:click=run disabled=move || busy.get()>"Compare"</button>
        </div>
        {move || match result.get() {
            None => None,
            Some(Err(e)) => Some(view! { <ErrorPanel title="Could not compare" message=e /> }.into_any()),
            Some(Ok(c)) => Some(view! { <ComparisonView c=c /> }.into_any()),
        }}
    }
}

/// The result of a comparison.
#[component]
fn ComparisonView(
    /// The comparison from the core.
    c: MmoperaComparison,
) -> impl IntoView {
    let [ma, mb] = c.models.clone();
    let d = c.diff;
    let rows = (0..5)
        .rev()
        .map(|x| {
            let cells = (0..5)
                .map(|y| {
                    let n = c.table[x][y];
                    view! { <td class="num" class:agree=x == y data-a=x data-b=y>{n}</td> }
                })
                .collect_view();
            view! { <tr><th scope="row">{format!("A = {x}")}</th>{cells}</tr> }
        })
        .collect_view();
    view! {
        <div data-testid="mmopera-comparison">
            <p>
                {format!("{} {}: {} (A) vs {} (B) on {} common items, {} paired verdicts. ",
                    c.task.name(), "holistic scores", ma, mb, c.items, c.pairs)}
                <span data-testid="mmopera-compare-sr">{format!("SR A {:.2}% · SR B {:.2}%", c.sr_a * 100.0, c.sr_b * 100.0)}</span>
                " · "
                <span data-testid="mmopera-compare-diff" data-estimate=d.estimate.to_string()
                    data-low=d.low.to_string() data-high=d.high.to_string()>
                    {format!("SR(A) − SR(B) = {:.2} points, {:.0}% paired bootstrap interval [{:.2}, {:.2}] ({} resamples, seed {})",
                        d.estimate * 100.0, d.confidence * 100.0, d.low * 100.0, d.high * 100.0, d.resamples, d.seed)}
                </span>
                {format!(" · same score on {:.1}% of the pairs", c.exact_match * 100.0)}
                {(c.only_a + c.only_b > 0).then(|| format!(" · {} item(s) only A, {} only B were left out", c.only_a, c.only_b))}
            </p>
            <div class="table-scroll">
            <table class="lb-table" data-testid="mmopera-compare-table">
                <caption>"Paired verdicts: A's score (rows) by B's score (columns); the diagonal is agreement"</caption>
                <thead><tr><th scope="col">{format!("A: {ma} \\ B: {mb}")}</th>
                    {(0..5).map(|y| view! { <th scope="col" class="num">{format!("B = {y}")}</th> }).collect_view()}
                </tr></thead>
                <tbody>{rows}</tbody>
            </table>
            </div>
        </div>
    }
}
