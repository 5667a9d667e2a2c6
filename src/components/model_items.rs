//! Model page and two-model comparison over computed rows. The full reports stay in the scoring
//! worker: the items come from [`api::Items`] one page at a time, and the comparison statistics
//! from [`api::Compare`] (the core's `leaderboard::detail`), so the page never parses the item
//! list.

use coglab_core::kiva::{Outcome, RegenerationAnswers};
use coglab_core::leaderboard::detail::{CellItems, ItemsPage, ItemsQuery, TrialsPage, TrialsQuery};
use coglab_core::mmiq::CATEGORIES;
use coglab_core::stats::p_phrase;
use leptos::prelude::*;

use crate::components::error_panel::ErrorPanel;
use crate::worker::api::{self, Compared};
use crate::worker::client::use_worker;

/// Items per page of the model page.
const PAGE: usize = 200;
/// Bootstrap resamples and seed of the paired difference interval.
const RESAMPLES: usize = 2000;
const SEED: u64 = 1;
/// Characters of a response shown at most.
const MAX_RESPONSE: usize = 4000;
/// Cell items listed at most.
const MAX_CELL_ITEMS: usize = 300;

/// The row shown: the selected one while it exists, else the first.
fn picked(rows: Signal<Vec<(u64, String)>>, selected: RwSignal<Option<u64>>) -> Memo<Option<u64>> {
    Memo::new(move |_| {
        let rows = rows.get();
        selected
            .get()
            .filter(|id| rows.iter().any(|(r, _)| r == id))
            .or_else(|| rows.first().map(|(id, _)| *id))
    })
}

/// The `<option>`s of a model picker over `rows`, `pick` selected.
fn model_options(rows: Signal<Vec<(u64, String)>>, pick: Memo<Option<u64>>) -> impl IntoView {
    move || {
        let cur = pick.get();
        rows.get()
            .into_iter()
            .map(|(id, m)| view! { <option value=id.to_string() selected=Some(id) == cur>{m}</option> })
            .collect_view()
    }
}

/// A button that downloads all of the picked row's items (MM-IQ) or trials (KiVA) as CSV,
/// written by the worker ([`api::ItemsCsv`]); a failure is shown beside it.
fn download_items(
    client: StoredValue<crate::worker::client::WorkerClient, LocalStorage>,
    rows: Signal<Vec<(u64, String)>>,
    pick: Memo<Option<u64>>,
    what: &'static str,
    testid: &'static str,
) -> impl IntoView {
    let (error, set_error) = signal(None::<String>);
    let click = move |_| {
        let Some(row) = pick.get_untracked() else {
            return;
        };
        let model = rows
            .read_untracked()
            .iter()
            .find(|(r, _)| *r == row)
            .map(|(_, m)| m.clone())
            .unwrap_or_default();
        let client = client.get_value();
        leptos::task::spawn_local(async move {
            match client
                .call(api::ItemsCsv {
                    row,
                    model: model.clone(),
                })
                .await
            {
                Ok(csv) => {
                    set_error.try_set(None);
                    crate::components::board_table::download_text(
                        &format!("{}-{what}.csv", file_stem(&model)),
                        "text/csv",
                        &csv,
                    );
                }
                Err(e) => {
                    set_error.try_set(Some(e));
                }
            }
        });
    };
    view! {
        <button type="button" data-testid=testid on:click=click>{format!("Download all {what} (CSV)")}</button>
        {move || error.get().map(|e| view! { <span class="error" role="alert">{e}</span> })}
    }
}

/// Every Eval Ever 0.2.1 records of the picked MM-IQ or KiVA row, written by the worker
/// ([`api::EeeExport`], the core writer `coglab export eee` uses): one button for the instance
/// records (JSONL, one per item, or per KiVA trial and stage) and one for the aggregate record
/// (JSON). Two buttons rather than two downloads from one click, which browsers may block as
/// "multiple downloads". The files are named as the CLI names them in its folder per model,
/// with the model in front: `<model>_<benchmark>_<timestamp>.jsonl` and `.json` (the benchmark
/// as the evaluation id names it: `MM-IQ`, `KiVA`, `KiVA-adults`).
fn download_eee(
    client: StoredValue<crate::worker::client::WorkerClient, LocalStorage>,
    rows: Signal<Vec<(u64, String)>>,
    pick: Memo<Option<u64>>,
) -> impl IntoView {
    let (error, set_error) = signal(None::<String>);
    let fetch = move |instances: bool| {
        let Some(row) = pick.get_untracked() else {
            return;
        };
        let model = rows
            .read_untracked()
            .iter()
            .find(|(r, _)| *r == row)
            .map(|(_, m)| m.clone())
            .unwrap_or_default();
        let timestamp = (js_sys::Date::now() / 1000.0).floor() as u64;
        let client = client.get_value();
        leptos::task::spawn_local(async move {
            let request = api::EeeExport {
                row,
                model: model.clone(),
                timestamp,
            };
            match client.call(request).await {
                Ok(records) => {
                    set_error.try_set(None);
                    let bench = records.evaluation_id.split('/').next().unwrap_or_default();
                    let stem = format!("{}_{bench}_{timestamp}", file_stem(&model));
                    if instances {
                        crate::components::board_table::download_text(
                            &format!("{stem}.jsonl"),
                            "application/jsonl",
                            &records.instances,
                        );
                    } else {
                        crate::components::board_table::download_text(
                            &format!("{stem}.json"),
                            "application/json",
                            &records.aggregate,
                        );
                    }
                }
                Err(e) => {
                    set_error.try_set(Some(e));
                }
            }
        });
    };
    view! {
        <span class="lb-eee" role="group" aria-label="Download Every Eval Ever records (JSONL/JSON)"
            title="Every Eval Ever 0.2.1: the shared per-item record format; the same records as `coglab export eee`">
            "Download Every Eval Ever records: "
            <button type="button" data-testid="eee-jsonl" on:click=move |_| fetch(true)>"instances (JSONL)"</button>
            " "
            <button type="button" data-testid="eee-json" on:click=move |_| fetch(false)>"aggregate (JSON)"</button>
        </span>
        {move || error.get().map(|e| view! { <span class="error" role="alert" data-testid="eee-error">{e}</span> })}
    }
}

/// A file-name-safe form of a model name (letters, digits, `-`, `_`, `.`; others as `_`).
fn file_stem(model: &str) -> String {
    let s: String = model
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || "-_.".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    if s.is_empty() {
        "model".into()
    } else {
        s
    }
}

fn pct(x: f64) -> String {
    format!("{:.1}", x * 100.0)
}

/// A model's items: category, response (long text collapsed), the extracted answer
/// highlighted, the key, right/wrong, a wrong-only filter, a category filter, pages, and a
/// per-category summary. Items come from the worker ([`api::Items`]).
#[component]
pub fn ModelItems(
    /// The computed MM-IQ rows to choose from, as (row id, model name).
    #[prop(into)]
    rows: Signal<Vec<(u64, String)>>,
    /// The selected row id (shared with the URL); `None` picks the first row.
    selected: RwSignal<Option<u64>>,
) -> impl IntoView {
    let client = StoredValue::new_local(use_worker());
    let (wrong_only, set_wrong_only) = signal(false);
    let (category, set_category) = signal(String::new());
    let (offset, set_offset) = signal(0usize);
    let pick = picked(rows, selected);
    let page = LocalResource::new(move || {
        let id = pick.get();
        let query = ItemsQuery {
            wrong_only: wrong_only.get(),
            category: Some(category.get()).filter(|c| !c.is_empty()),
            offset: offset.get(),
            limit: PAGE,
        };
        let client = client.get_value();
        async move { Some(client.call(api::Items { row: id?, query }).await) }
    });
    let options = model_options(rows, pick);
    view! {
        <section class="lb-model" data-testid="model-items" aria-labelledby="lb-model-h">
            <h2 class="lb-subhead" id="lb-model-h">"Model page"</h2>
            <div class="lb-controls">
                <label>"Model "
                    <select data-testid="model-pick" on:change=move |ev| {
                        set_offset.set(0);
                        selected.set(event_target_value(&ev).parse().ok());
                    }>{options}</select>
                </label>
                <label>"Category "
                    <select data-testid="item-category" on:change=move |ev| {
                        set_offset.set(0);
                        set_category.set(event_target_value(&ev));
                    }>
                        <option value="">"All"</option>
                        {CATEGORIES.iter().map(|c| view! { <option value=*c>{*c}</option> }).collect_view()}
                    </select>
                </label>
                <label><input type="checkbox" data-testid="wrong-only"
                    on:change=move |ev| { set_offset.set(0); set_wrong_only.set(event_target_checked(&ev)); } />
                    " Wrong answers only"</label>
                {download_items(client, rows, pick, "items", "items-csv")}
                {download_eee(client, rows, pick)}
            </div>
            {move || match page.get() {
                None => view! { <p class="loading" aria-busy="true">"Loading items…"</p> }.into_any(),
                Some(None) => ().into_any(),
                Some(Some(Err(e))) => view! { <ErrorPanel title="Could not load the items" message=e /> }.into_any(),
                Some(Some(Ok(p))) => items_view(p, offset, set_offset).into_any(),
            }}
        </section>
    }
}

fn items_view(
    p: ItemsPage,
    offset: ReadSignal<usize>,
    set_offset: WriteSignal<usize>,
) -> impl IntoView {
    let summary = CATEGORIES
        .iter()
        .filter_map(|c| {
            p.by_category.get(*c).map(|a| {
                view! {
                    <tr><th scope="row">{*c}</th><td class="num">{a.correct}</td><td class="num">{a.n}</td>
                        <td class="num">{pct(a.accuracy)}</td></tr>
                }
            })
        })
        .collect_view();
    let total = p.total;
    let first = p.offset;
    let shown = p.items.len();
    let body = p
        .items
        .into_iter()
        .map(|i| {
            let resp = i.response.clone().unwrap_or_default();
            let n = resp.chars().count();
            let response = if n > 120 {
                let short: String = resp.chars().take(100).collect();
                // At most MAX_RESPONSE characters go into the page: one long unbroken run makes
                // the browser's line breaking very slow (see docs/hardening.md).
                let mut full: String = resp.chars().take(MAX_RESPONSE).collect();
                if n > MAX_RESPONSE {
                    full.push_str(&format!("… {} more characters (line {} of the file)", n - MAX_RESPONSE, i.line));
                }
                view! { <details><summary>{format!("{short}…")}</summary><p class="lb-response">{full}</p></details> }.into_any()
            } else {
                view! { <span class="lb-response">{resp}</span> }.into_any()
            };
            let cls = if i.correct { "ok" } else { "bad" };
            view! {
                <tr data-testid="item-row" data-correct=i.correct.to_string()>
                    <td class="num">{i.data_id}</td>
                    <td>{i.category.clone()}</td>
                    <td class="lb-response-cell">{response}</td>
                    <td><mark>{i.parsed.to_string()}</mark></td>
                    <td>{i.key.to_string()}</td>
                    <td class=cls>{if i.correct { "✓ right" } else { "✗ wrong" }}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <table class="lb-table lb-summary-table" data-testid="item-summary">
            <caption>{format!("Per category, all {} scored items: {} right ({}%)", p.overall.n, p.overall.correct, pct(p.overall.accuracy))}</caption>
            <thead><tr><th scope="col">"Category"</th><th scope="col">"Right"</th><th scope="col">"Items"</th><th scope="col">"%"</th></tr></thead>
            <tbody>{summary}</tbody>
        </table>
        <div class="lb-controls lb-pager" role="group" aria-label="Item pages">
            <span role="status" data-testid="item-count">{if total == 0 {
                "No item matches.".to_string()
            } else {
                format!("Items {}–{} of {total}", first + 1, first + shown)
            }}</span>
            <button type="button" disabled=move || offset.get() == 0
                on:click=move |_| set_offset.update(|o| *o = o.saturating_sub(PAGE))>"Previous"</button>
            <button type="button" disabled={first + shown >= total} data-testid="item-next"
                on:click=move |_| set_offset.update(|o| *o += PAGE)>"Next"</button>
        </div>
        <div class="table-scroll">
            <table class="lb-table lb-items">
                <thead><tr>
                    <th scope="col">"Item"</th><th scope="col">"Category"</th>
                    <th scope="col">"Response"</th>
                    <th scope="col" title="The letter extracted from the response by MM-IQ's released rules (Z: no answer)">"Extracted"</th>
                    <th scope="col">"Key"</th><th scope="col">"Result"</th>
                </tr></thead>
                <tbody>{body}</tbody>
            </table>
        </div>
    }
}

/// Two models on the same items: the 2×2 table with the items of each cell, McNemar's exact p
/// and the paired bootstrap 95% interval of the accuracy difference (MM-IQ), or the same per
/// stage (KiVA). Computed in the worker ([`api::Compare`]).
#[component]
pub fn CompareModels(
    /// The rows to choose from, as (row id, model name).
    #[prop(into)]
    rows: Signal<Vec<(u64, String)>>,
    /// The two selected row ids (shared with the URL).
    pair: RwSignal<(Option<u64>, Option<u64>)>,
    /// Prefix of the test ids (`compare` for MM-IQ, `kiva-compare` for KiVA).
    testid: &'static str,
    /// KiVA: show stage 2 as the joint score (skipped counted as 0) rather than the
    /// conditional one, following the tab's "how" switch.
    #[prop(optional, into)]
    joint: Option<Signal<bool>>,
) -> impl IntoView {
    let client = StoredValue::new_local(use_worker());
    let chosen = Memo::new(move |_| {
        let rows = rows.get();
        let ok = |id: Option<u64>| id.filter(|i| rows.iter().any(|(r, _)| r == i));
        let (a, b) = pair.get();
        let a = ok(a).or_else(|| rows.first().map(|r| r.0));
        // A model is not compared with itself: the second falls back to another row.
        let b = ok(b)
            .filter(|b| Some(*b) != a)
            .or_else(|| rows.iter().map(|r| r.0).find(|r| Some(*r) != a));
        (a, b)
    });
    let name = move |id: Option<u64>| {
        rows.read()
            .iter()
            .find(|(r, _)| Some(*r) == id)
            .map(|(_, m)| m.clone())
            .unwrap_or_default()
    };
    let result = LocalResource::new(move || {
        let (a, b) = chosen.get();
        let client = client.get_value();
        async move {
            let (first, second) = (a?, b?);
            let request = api::Compare {
                first,
                second,
                resamples: RESAMPLES as u64,
                seed: SEED,
            };
            // The pair travels with its result, so a reply for a pair no longer chosen is
            // never shown under the new pair's names.
            Some(((first, second), client.call(request).await))
        }
    });
    let select = move |first: bool| {
        let cur = move || {
            if first {
                chosen.get().0
            } else {
                chosen.get().1
            }
        };
        view! {
            <select data-testid=format!("{testid}-{}", if first { "a" } else { "b" })
                on:change=move |ev| {
                    let v = event_target_value(&ev).parse().ok();
                    let (a, b) = chosen.get_untracked();
                    pair.set(if first { (v, b) } else { (a, v) });
                }>
                {move || rows.get().into_iter().map(|(id, m)| view! {
                    <option value=id.to_string() selected=Some(id) == cur()>{m}</option>
                }).collect_view()}
            </select>
        }
    };
    view! {
        <section class="lb-compare" data-testid=testid>
            <h2 class="lb-subhead">"Compare two models"</h2>
            <div class="lb-controls">
                <label>"First "{select(true)}</label>
                <label>"Second "{select(false)}</label>
            </div>
            {move || {
                let (a, b) = chosen.get();
                let (x, y) = (name(a), name(b));
                let current = a.zip(b);
                match result.get() {
                    None => view! { <p class="loading" aria-busy="true">"Comparing…"</p> }.into_any(),
                    Some(None) => view! { <p class="notice">"Load two runs to compare them."</p> }.into_any(),
                    Some(Some((pair, _))) if Some(pair) != current => view! { <p class="loading" aria-busy="true">"Comparing…"</p> }.into_any(),
                    Some(Some((_, Err(e)))) => view! { <ErrorPanel title="Could not compare" message=e /> }.into_any(),
                    Some(Some((_, Ok(Compared::Mmiq(c))))) => {
                        let downloads = compare_downloads(&x, &y, vec![(String::new(), c.cells.clone())], &c, testid);
                        let s = format!("McNemar exact {}; difference {x} − {y} = {} points, paired bootstrap {:.0}% interval [{}, {}] ({} resamples, seed {})",
                            p_phrase(c.comparison.mcnemar_p), pct(c.comparison.difference.estimate), c.comparison.difference.confidence * 100.0,
                            pct(c.comparison.difference.low), pct(c.comparison.difference.high), c.comparison.difference.resamples, c.comparison.difference.seed);
                        view! {
                            {two_by_two(&x, &y, format!("{} items answered by both", c.comparison.n_paired),
                                [c.comparison.table.both_correct, c.comparison.table.first_only, c.comparison.table.second_only, c.comparison.table.both_wrong],
                                format!("{testid}-table"))}
                            <p data-testid=format!("{testid}-stats")>{s}</p>
                            {cells_view(&x, &y, c.cells, "Items")}
                            {downloads}
                        }.into_any()
                    }
                    Some(Some((_, Ok(Compared::Kiva(c))))) => {
                        let hide = match joint.map(|j| j.get()) {
                            Some(true) => "within_conditional",
                            Some(false) => "within_joint",
                            None => "",
                        };
                        let shown: Vec<(String, coglab_core::leaderboard::detail::CellItems)> = c
                            .stages
                            .iter()
                            .filter(|st| st.stage != hide)
                            .map(|st| (st.stage.clone(), st.cells.clone()))
                            .collect();
                        let downloads = compare_downloads(&x, &y, shown, &c, testid);
                        let stages = c.stages.into_iter().filter(|st| st.stage != hide).map(|st| {
                            let title = match st.stage.as_str() {
                                "cross" => "Stage 1, what changed",
                                "within_conditional" => "Stage 2, how (conditional)",
                                "within_joint" => "Stage 2, how (joint)",
                                _ => "Stage 3, apply",
                            };
                            let stats = format!("{x} {}%, {y} {}% on {} paired trials; McNemar exact {}; difference in trials right {} points, paired bootstrap {:.0}% interval [{}, {}]",
                                pct(st.first_mean), pct(st.second_mean), st.n_paired, p_phrase(st.mcnemar_p),
                                pct(st.difference.estimate), st.difference.confidence * 100.0, pct(st.difference.low), pct(st.difference.high));
                            view! {
                                <div class="lb-stage-compare" data-stage=st.stage.clone()>
                                    <h3>{title}</h3>
                                    {two_by_two(&x, &y, format!("{} trials in both runs", st.n_paired),
                                        [st.table.both_correct, st.table.first_only, st.table.second_only, st.table.both_wrong],
                                        format!("{testid}-table"))}
                                    <p class="lb-stats" data-testid=format!("{testid}-stats")>{stats}</p>
                                    {cells_view(&x, &y, st.cells, "Trials")}
                                </div>
                            }
                        }).collect_view();
                        view! { <p class="notice">{format!("Per stage: {}.", c.rule)}</p>{stages}{downloads} }.into_any()
                    }
                }
            }}
        </section>
    }
}

/// The comparison's downloads: its item lists per cell (and stage) as CSV
/// ([`coglab_core::leaderboard::detail::comparison_csv`]) and the whole comparison (2x2 tables,
/// statistics, item lists) as JSON.
fn compare_downloads(
    x: &str,
    y: &str,
    cells: Vec<(String, coglab_core::leaderboard::detail::CellItems)>,
    comparison: &impl serde::Serialize,
    testid: &'static str,
) -> impl IntoView {
    let stem = format!("{}-vs-{}", file_stem(x), file_stem(y));
    let json = serde_json::json!({ "first": x, "second": y, "comparison": comparison }).to_string();
    let (first, second) = (x.to_string(), y.to_string());
    let csv_name = format!("{stem}.csv");
    let json_name = format!("{stem}.json");
    let csv = move |_| {
        let stages: Vec<(&str, &coglab_core::leaderboard::detail::CellItems)> =
            cells.iter().map(|(s, c)| (s.as_str(), c)).collect();
        let text = coglab_core::leaderboard::detail::comparison_csv(&first, &second, &stages);
        crate::components::board_table::download_text(&csv_name, "text/csv", &text);
    };
    view! {
        <div class="lb-controls lb-export" role="group" aria-label="Export this comparison">
            <span>"Export: "</span>
            <button type="button" data-testid=format!("{testid}-csv") on:click=csv>"Item lists (CSV)"</button>
            <button type="button" data-testid=format!("{testid}-json")
                on:click=move |_| crate::components::board_table::download_text(&json_name, "application/json", &json)>
                "Comparison (JSON)"</button>
        </div>
    }
}

fn two_by_two(x: &str, y: &str, caption: String, cells: [u64; 4], testid: String) -> impl IntoView {
    view! {
        <div class="table-scroll">
        <table class="lb-table lb-2x2" data-testid=testid>
            <caption>{caption}</caption>
            <thead><tr><th scope="col"></th>
                <th scope="col">{format!("{y} right")}</th><th scope="col">{format!("{y} wrong")}</th></tr></thead>
            <tbody>
                <tr><th scope="row">{format!("{x} right")}</th>
                    <td class="num">{cells[0]}</td><td class="num">{cells[1]}</td></tr>
                <tr><th scope="row">{format!("{x} wrong")}</th>
                    <td class="num">{cells[2]}</td><td class="num">{cells[3]}</td></tr>
            </tbody>
        </table>
        </div>
    }
}

fn cells_view(x: &str, y: &str, cells: CellItems, what: &'static str) -> impl IntoView {
    let list = |label: String, ids: Vec<String>, key: &'static str| {
        let n = ids.len();
        let more = n.saturating_sub(MAX_CELL_ITEMS);
        let text = ids
            .into_iter()
            .take(MAX_CELL_ITEMS)
            .collect::<Vec<_>>()
            .join(", ");
        view! {
            <details class="lb-cell-items" data-cell=key>
                <summary>{format!("{label}: {n}")}</summary>
                <p>{text}{(more > 0).then(|| format!(" … and {more} more"))}</p>
            </details>
        }
    };
    view! {
        <div class="lb-cells" role="group" aria-label=format!("{what} in each cell")>
            {list(format!("{what} both right"), cells.both_correct, "both_correct")}
            {list(format!("{what} only {x} right"), cells.first_only, "first_only")}
            {list(format!("{what} only {y} right"), cells.second_only, "second_only")}
            {list(format!("{what} both wrong"), cells.both_wrong, "both_wrong")}
        </div>
    }
}

/// Stage names of the KiVA model page's columns.
const KIVA_STAGES: [&str; 3] = ["What (1)", "How (2)", "Apply (3)"];

fn score_cell(score: Option<f64>, right: Option<bool>) -> impl IntoView {
    let (cls, text) = match (score, right) {
        (Some(x), Some(true)) => ("ok", format!("✓ {}", pct(x))),
        (Some(x), _) => ("bad", format!("✗ {}", pct(x))),
        _ => ("", "not reached".to_string()),
    };
    view! { <td class=format!("num {cls}") data-score=score.map(|x| x.to_string())>{text}</td> }
}

/// A KiVA run's page: every trial with its domain and subdomain, the three stages' scores (the
/// share of regenerations right; stage 2 conditional or joint as the tab's switch says),
/// right/wrong per stage, a wrong-only and a domain filter, pages, and the per-domain summary.
/// Trials come from the worker ([`api::Trials`]).
#[component]
pub fn KivaTrials(
    /// The computed KiVA rows to choose from, as (row id, model name).
    #[prop(into)]
    rows: Signal<Vec<(u64, String)>>,
    /// The selected row id (shared with the URL); `None` picks the first row.
    selected: RwSignal<Option<u64>>,
    /// Stage 2 as the joint score (skipped counted as 0).
    #[prop(into)]
    joint: Signal<bool>,
) -> impl IntoView {
    let client = StoredValue::new_local(use_worker());
    let (wrong_only, set_wrong_only) = signal(false);
    let (domain, set_domain) = signal(String::new());
    let (offset, set_offset) = signal(0usize);
    let pick = picked(rows, selected);
    let page = LocalResource::new(move || {
        let id = pick.get();
        let query = TrialsQuery {
            wrong_only: wrong_only.get(),
            domain: Some(domain.get()).filter(|d| !d.is_empty()),
            joint: joint.get(),
            offset: offset.get(),
            limit: PAGE,
        };
        let client = client.get_value();
        async move { Some(client.call(api::Trials { row: id?, query }).await) }
    });
    let options = model_options(rows, pick);
    view! {
        <section class="lb-model" data-testid="kiva-trials" aria-labelledby="lb-kiva-model-h">
            <h2 class="lb-subhead" id="lb-kiva-model-h">"Model page"</h2>
            <div class="lb-controls">
                <label>"Model "
                    <select data-testid="kiva-model-pick" on:change=move |ev| {
                        set_offset.set(0);
                        selected.set(event_target_value(&ev).parse().ok());
                    }>{options}</select>
                </label>
                <label>"Domain "
                    <select data-testid="trial-domain" on:change=move |ev| {
                        set_offset.set(0);
                        set_domain.set(event_target_value(&ev));
                    }>
                        <option value="">"All"</option>
                        {coglab_core::kiva::DOMAINS.iter().map(|d| view! { <option value=*d>{*d}</option> }).collect_view()}
                    </select>
                </label>
                <label><input type="checkbox" data-testid="trial-wrong-only"
                    on:change=move |ev| { set_offset.set(0); set_wrong_only.set(event_target_checked(&ev)); } />
                    " Trials with a stage wrong only"</label>
                {download_items(client, rows, pick, "trials", "trials-csv")}
                {download_eee(client, rows, pick)}
            </div>
            {move || match page.get() {
                None => view! { <p class="loading" aria-busy="true">"Loading trials…"</p> }.into_any(),
                Some(None) => ().into_any(),
                Some(Some(Err(e))) => view! { <ErrorPanel title="Could not load the trials" message=e /> }.into_any(),
                Some(Some(Ok(p))) => {
                    let id = pick.get_untracked().unwrap_or_default();
                    trials_view(p, joint.get_untracked(), offset, set_offset, (client, id)).into_any()
                }
            }}
        </section>
    }
}

/// The model's answers to one trial: per regeneration, each stage's outcome and whole answer
/// (long answers collapsed).
fn answers_view(trial: &str, regs: Vec<RegenerationAnswers>) -> impl IntoView {
    let stages = ["What (1)", "How (2)", "Apply (3)"];
    let rows = regs
        .into_iter()
        .map(|r| {
            let cells = stages
                .iter()
                .zip(r.outcomes)
                .zip(r.answers)
                .map(|((stage, outcome), answer)| {
                    let (mark, class) = match outcome {
                        Outcome::Correct => ("✓ right", "ok"),
                        Outcome::Empty => ("not asked", "lb-muted"),
                        Outcome::Wrong => ("✗ wrong", "bad"),
                        Outcome::Null => ("✗ no option named", "bad"),
                    };
                    let text = answer.unwrap_or_default();
                    let body = if text.chars().count() > 160 {
                        let short: String = text.chars().take(160).collect();
                        view! { <details><summary>{format!("{short}…")}</summary><p class="lb-response">{text}</p></details> }.into_any()
                    } else {
                        view! { <span class="lb-response">{text}</span> }.into_any()
                    };
                    view! {
                        <li><strong>{*stage}</strong>" "<span class=class>{mark}</span>" "{body}</li>
                    }
                })
                .collect_view();
            view! {
                <li data-testid="answer-regeneration">
                    {format!("Regeneration {} (line {})", r.regeneration, r.line)}
                    <ul>{cells}</ul>
                </li>
            }
        })
        .collect_view();
    view! {
        <p class="lb-note">{format!("{trial}: the model's answers, from its run file.")}</p>
        <ul class="lb-answers">{rows}</ul>
    }
}

fn trials_view(
    p: TrialsPage,
    joint: bool,
    offset: ReadSignal<usize>,
    set_offset: WriteSignal<usize>,
    (client, id): (
        StoredValue<crate::worker::client::WorkerClient, LocalStorage>,
        u64,
    ),
) -> impl IntoView {
    let how = if joint {
        "How (2, joint)"
    } else {
        "How (2, conditional)"
    };
    let mean = |m: Option<coglab_core::stats::describe::MeanSe>| {
        m.map_or_else(
            || "–".to_string(),
            |m| format!("{} ± {}", pct(m.mean), pct(m.se)),
        )
    };
    let stage2 = |s: &coglab_core::kiva::StageStats| {
        if joint {
            s.within_joint
        } else {
            s.within_conditional
        }
    };
    let summary = p
        .by_domain
        .iter()
        .map(|(d, s)| {
            let right = p.right_by_domain.get(d).copied().unwrap_or_default();
            let counts = right.map(|(r, n)| format!("{r} of {n}"));
            view! {
                <tr data-domain=d.clone()><th scope="row">{d.clone()}</th>
                    <td class="num">{mean(s.cross)}</td><td class="num">{mean(stage2(s))}</td>
                    <td class="num">{mean(s.extrapolation)}</td>
                    <td class="num">{counts.join(" · ")}</td></tr>
            }
        })
        .collect_view();
    let total = p.total;
    let first = p.offset;
    let shown = p.trials.len();
    let body = p
        .trials
        .into_iter()
        .map(|t| {
            let person = t.participant.is_some();
            let who = t.participant.map(|x| format!(" ({x})")).unwrap_or_default();
            let wrong = t.right.contains(&Some(false));
            let domain = t.domain.clone();
            let trial = format!("{} #{}{who}", t.subdomain, t.variation);
            let label = StoredValue::new(trial.clone());
            let open = RwSignal::new(false);
            let answers = RwSignal::new(None::<Result<Vec<RegenerationAnswers>, String>>);
            let (subdomain, variation) = (t.subdomain.clone(), t.variation);
            let toggle = move |_| {
                open.update(|o| *o = !*o);
                if open.get_untracked() && answers.get_untracked().is_none() {
                    let client = client.get_value();
                    let request = api::Answers {
                        row: id,
                        subdomain: subdomain.clone(),
                        variation,
                    };
                    leptos::task::spawn_local(async move {
                        answers.set(Some(client.call(request).await));
                    });
                }
            };
            view! {
                <tr data-testid="trial-row" data-wrong=wrong.to_string() data-domain=domain
                    data-trial=format!("{}#{}", t.subdomain, t.variation)>
                    <td>{t.domain}</td>
                    <td>{trial.clone()}</td>
                    <td class="num">{t.rows}</td>
                    {score_cell(t.scores[0], t.right[0])}
                    {score_cell(t.scores[1], t.right[1])}
                    {score_cell(t.scores[2], t.right[2])}
                    <td class="num">{t.line}</td>
                    <td>{(!person).then(|| view! {
                        <button type="button" class="lb-linkish" data-testid="trial-answers-toggle"
                            aria-expanded=move || open.get().to_string() on:click=toggle>
                            {move || if open.get() { "Hide" } else { "Show" }}
                        </button>
                    })}</td>
                </tr>
                <Show when=move || open.get()>
                    <tr class="lb-answers-row" data-testid="trial-answers">
                        <td colspan="8">{move || match answers.get() {
                            None => view! { <p class="loading" aria-busy="true">"Reading the run file…"</p> }.into_any(),
                            Some(Err(e)) => view! { <ErrorPanel title="Could not read the answers" message=e /> }.into_any(),
                            Some(Ok(regs)) => label.with_value(|l| answers_view(l, regs)).into_any(),
                        }}</td>
                    </tr>
                </Show>
            }
        })
        .collect_view();
    view! {
        <p class="lb-note">{format!("Per domain, over all trials: mean % ± SE of each stage, and the trials counted right ({}).", p.rule)}</p>
        <div class="table-scroll">
        <table class="lb-table lb-summary-table" data-testid="trial-summary">
            <thead><tr><th scope="col">"Domain"</th><th scope="col">{KIVA_STAGES[0]}</th>
                <th scope="col">{how}</th><th scope="col">{KIVA_STAGES[2]}</th>
                <th scope="col">"Trials right (what · how · apply)"</th></tr></thead>
            <tbody>{summary}
                <tr data-domain="All"><th scope="row">"All"</th>
                    <td class="num">{mean(p.overall.cross)}</td><td class="num">{mean(stage2(&p.overall))}</td>
                    <td class="num">{mean(p.overall.extrapolation)}</td><td></td></tr>
            </tbody>
        </table>
        </div>
        <div class="lb-controls lb-pager" role="group" aria-label="Trial pages">
            <span role="status" data-testid="trial-count">{if total == 0 {
                "No trial matches.".to_string()
            } else {
                format!("Trials {}–{} of {total}", first + 1, first + shown)
            }}</span>
            <button type="button" disabled=move || offset.get() == 0
                on:click=move |_| set_offset.update(|o| *o = o.saturating_sub(PAGE))>"Previous"</button>
            <button type="button" disabled={first + shown >= total} data-testid="trial-next"
                on:click=move |_| set_offset.update(|o| *o += PAGE)>"Next"</button>
        </div>
        <div class="table-scroll">
            <table class="lb-table lb-items">
                <thead><tr>
                    <th scope="col">"Domain"</th><th scope="col">"Trial"</th>
                    <th scope="col" title="Regenerations of the trial (rows of a person)">"Runs"</th>
                    <th scope="col" title="Share of regenerations right">{KIVA_STAGES[0]}</th>
                    <th scope="col" title="Share of regenerations right">{how}</th>
                    <th scope="col" title="Share of regenerations right">{KIVA_STAGES[2]}</th>
                    <th scope="col">"Line"</th>
                    <th scope="col">"Answers"</th>
                </tr></thead>
                <tbody>{body}</tbody>
            </table>
        </div>
    }
}

/// A KiVA challenge result's trials (the drill-down of its row on the KiVA table): trial id,
/// level, domain, concept, the answer as given, the option read from it, the correct option
/// and right/wrong, a wrong-only filter and pages; the trials not answered and the results not
/// mapped are counted. Trials come from the worker ([`api::ChallengeItems`]).
#[component]
pub fn ChallengeTrials(
    /// The KiVA challenge rows to choose from, as (row id, model name).
    #[prop(into)]
    rows: Signal<Vec<(u64, String)>>,
) -> impl IntoView {
    let client = StoredValue::new_local(use_worker());
    let selected = RwSignal::new(None::<u64>);
    let (wrong_only, set_wrong_only) = signal(false);
    let (offset, set_offset) = signal(0usize);
    let pick = picked(rows, selected);
    let page = LocalResource::new(move || {
        let id = pick.get();
        let query = coglab_core::leaderboard::detail::ChallengeQuery {
            wrong_only: wrong_only.get(),
            offset: offset.get(),
            limit: PAGE,
        };
        let client = client.get_value();
        async move { Some(client.call(api::ChallengeItems { row: id?, query }).await) }
    });
    let options = model_options(rows, pick);
    view! {
        <section class="lb-model" data-testid="challenge-trials" aria-labelledby="lb-challenge-h">
            <h2 class="lb-subhead" id="lb-challenge-h">"KiVA challenge trials"</h2>
            <div class="lb-controls">
                <label>"Result "
                    <select data-testid="challenge-pick" on:change=move |ev| {
                        set_offset.set(0);
                        selected.set(event_target_value(&ev).parse().ok());
                    }>{options}</select>
                </label>
                <label><input type="checkbox" data-testid="challenge-wrong-only"
                    on:change=move |ev| { set_offset.set(0); set_wrong_only.set(event_target_checked(&ev)); } />
                    " Wrong answers only"</label>
            </div>
            {move || match page.get() {
                None => view! { <p class="loading" aria-busy="true">"Loading trials…"</p> }.into_any(),
                Some(None) => ().into_any(),
                Some(Some(Err(e))) => view! { <ErrorPanel title="Could not load the trials" message=e /> }.into_any(),
                Some(Some(Ok(p))) => challenge_view(p, offset, set_offset).into_any(),
            }}
        </section>
    }
}

fn challenge_view(
    p: coglab_core::leaderboard::detail::ChallengePage,
    offset: ReadSignal<usize>,
    set_offset: WriteSignal<usize>,
) -> impl IntoView {
    let (total, first, shown) = (p.total, p.offset, p.items.len());
    let body = p
        .items
        .into_iter()
        .map(|i| {
            let cls = if i.is_correct { "ok" } else { "bad" };
            let mut answer: String = i.answer.chars().take(MAX_RESPONSE).collect();
            if i.answer.chars().count() > MAX_RESPONSE {
                answer.push('…');
            }
            view! {
                <tr data-testid="challenge-row" data-trial=i.annotation.id.clone() data-correct=i.is_correct.to_string()>
                    <td>{i.annotation.id.clone()}</td>
                    <td>{i.annotation.level.clone()}</td>
                    <td>{i.annotation.domain.clone()}</td>
                    <td>{i.annotation.concept.clone()}</td>
                    <td class="lb-response-cell"><span class="lb-response">{answer}</span></td>
                    <td><mark>{i.chosen.map_or_else(|| "none".to_string(), |c| format!("({c})"))}</mark></td>
                    <td>{format!("({})", i.annotation.correct)}</td>
                    <td class=cls>{if i.is_correct { "✓ right" } else { "✗ wrong" }}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <p class="lb-note" data-testid="challenge-note">{format!(
            "{} annotated trials without a result (not counted); {} results not mapped to an annotated trial.",
            p.not_answered,
            p.unmapped.len()
        )}</p>
        <div class="lb-controls lb-pager" role="group" aria-label="Challenge trial pages">
            <span role="status" data-testid="challenge-count">{if total == 0 {
                "No trial matches.".to_string()
            } else {
                format!("Trials {}–{} of {total}", first + 1, first + shown)
            }}</span>
            <button type="button" disabled=move || offset.get() == 0
                on:click=move |_| set_offset.update(|o| *o = o.saturating_sub(PAGE))>"Previous"</button>
            <button type="button" disabled={first + shown >= total}
                on:click=move |_| set_offset.update(|o| *o += PAGE)>"Next"</button>
        </div>
        <div class="table-scroll">
            <table class="lb-table lb-items">
                <thead><tr>
                    <th scope="col">"Trial"</th><th scope="col">"Level"</th>
                    <th scope="col">"Domain"</th><th scope="col">"Concept"</th>
                    <th scope="col">"Answer"</th>
                    <th scope="col" title="The first (X) in the answer, else a lone letter">"Read as"</th>
                    <th scope="col">"Correct"</th><th scope="col">"Result"</th>
                </tr></thead>
                <tbody>{body}</tbody>
            </table>
        </div>
    }
}
