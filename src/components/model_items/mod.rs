//! Model page and two-model comparison over computed rows. The full reports stay in the scoring
//! worker: the items come from [`api::Items`] one page at a time, and the comparison statistics
//! from [`api::Compare`] (the core's `leaderboard::detail`), so the page never parses the item
//! list.
//!
//! - this file: the model page's item list ([`ModelItems`]) and what the others share;
//! - `compare.rs`: the two-model comparison ([`CompareModels`]);
//! - `kiva.rs`: a KiVA model's trials and a KiVA challenge run's ([`KivaTrials`],
//!   [`ChallengeTrials`]).

use crate::worker::api::RowId;
use coglab_core::kiva::{Outcome, RegenerationAnswers};
use coglab_core::leaderboard::detail::{CellItems, ItemsPage, ItemsQuery, TrialsPage, TrialsQuery};
use coglab_core::mmiq::CATEGORIES;
use coglab_core::stats::p_phrase;
use leptos::prelude::*;

use crate::components::error_panel::WorkerErrorPanel;
use crate::worker::api::{self, Compared};
use crate::worker::client::{latest_reply, use_worker};

mod compare;
mod kiva;

pub use compare::CompareModels;
pub use kiva::{ChallengeTrials, KivaTrials};

/// Items per page of the model page.
const PAGE: usize = 200;
/// Bootstrap resamples and seed of the paired difference interval: the rank board's, so the
/// comparison's interval of a pair is the one the board's paired-ranks panel gives.
const RESAMPLES: usize = coglab_core::ranks::board::BOOTSTRAP_RESAMPLES;
const SEED: u64 = coglab_core::ranks::board::BOOTSTRAP_SEED;
/// Characters of a response shown at most.
const MAX_RESPONSE: usize = 4000;
/// Cell items listed at most.
const MAX_CELL_ITEMS: usize = 300;

/// The row shown: the selected one while it exists, else the first.
fn picked(
    rows: Signal<Vec<(RowId, String)>>,
    selected: RwSignal<Option<RowId>>,
) -> Memo<Option<RowId>> {
    Memo::new(move |_| {
        let rows = rows.get();
        selected
            .get()
            .filter(|id| rows.iter().any(|(r, _)| r == id))
            .or_else(|| rows.first().map(|(id, _)| *id))
    })
}

/// The `<option>`s of a model picker over `rows`, `pick` selected.
fn model_options(rows: Signal<Vec<(RowId, String)>>, pick: Memo<Option<RowId>>) -> impl IntoView {
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
    rows: Signal<Vec<(RowId, String)>>,
    pick: Memo<Option<RowId>>,
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
                    crate::download::download_text(
                        &format!("{}-{what}.csv", file_stem(&model)),
                        "text/csv",
                        &csv,
                    );
                }
                Err(e) => {
                    set_error.try_set(Some(e.to_string()));
                }
            }
        });
    };
    view! {
        <button type="button" data-testid=testid on:click=click>{format!("Download all {what} (CSV)")}</button>
        {move || error.get().map(|e| view! { <span class="error" role="alert">{e}</span> })}
    }
}

/// Every Eval Ever 0.3.0 records of the picked MM-IQ or KiVA row, written by the worker
/// ([`api::EeeExport`], the core writer `coglab export eee` uses): one button for the instance
/// records (JSONL, one per item, or per KiVA trial and stage) and one for the aggregate record
/// (JSON). Two buttons rather than two downloads from one click, which browsers may block as
/// "multiple downloads". The files are named as the CLI names them in its folder per model,
/// with the model in front: `<model>_<benchmark>_<timestamp>.jsonl` and `.json` (the benchmark
/// as the evaluation id names it: `MM-IQ`, `KiVA`, `KiVA-adults`).
fn download_eee(
    client: StoredValue<crate::worker::client::WorkerClient, LocalStorage>,
    rows: Signal<Vec<(RowId, String)>>,
    pick: Memo<Option<RowId>>,
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
                        crate::download::download_text(
                            &format!("{stem}.jsonl"),
                            "application/jsonl",
                            &records.instances,
                        );
                    } else {
                        crate::download::download_text(
                            &format!("{stem}.json"),
                            "application/json",
                            &records.aggregate,
                        );
                    }
                }
                Err(e) => {
                    set_error.try_set(Some(e.to_string()));
                }
            }
        });
    };
    view! {
        <span class="lb-eee" role="group" aria-label="Download Every Eval Ever records (JSONL/JSON)"
            title="Every Eval Ever 0.3.0: the shared per-item record format; the same records as `coglab export eee`">
            "Download Every Eval Ever records: "
            <button type="button" data-testid="eee-jsonl" on:click=move |_| fetch(true)>"instances (JSONL)"</button>
            " "
            <button type="button" data-testid="eee-json" on:click=move |_| fetch(false)>"aggregate (JSON)"</button>
        </span>
        {move || error.get().map(|e| view! { <span class="error" role="alert" data-testid="eee-error">{e}</span> })}
    }
}

/// Hugging Face Eval Results of the picked MM-IQ or KiVA row: a Hub model id field (the
/// repository that takes the file, also the entries' source link; filled with the row's model
/// name when that is one) and a button that downloads `mmiq.yaml` / `kiva.yaml` as the worker
/// writes it ([`api::HfExport`], the core function `coglab export hf` uses), with the day of
/// the click as the date. The file goes into the model repository's `.eval_results/` folder.
fn download_hf(
    client: StoredValue<crate::worker::client::WorkerClient, LocalStorage>,
    rows: Signal<Vec<(RowId, String)>>,
    pick: Memo<Option<RowId>>,
) -> impl IntoView {
    let (error, set_error) = signal(None::<String>);
    let (saved, set_saved) = signal(None::<String>);
    // The id typed for each row (a row whose model name is a Hub id starts with it).
    let typed = RwSignal::new(std::collections::HashMap::<RowId, String>::new());
    let id = move || {
        let row = pick.get()?;
        if let Some(t) = typed.read().get(&row) {
            return Some(t.clone());
        }
        rows.read()
            .iter()
            .find(|(r, _)| *r == row)
            .map(|(_, m)| m.clone())
            .filter(|m| coglab_core::harness::hf::is_repo_id(m))
    };
    let fetch = move |_| {
        let Some(row) = pick.get_untracked() else {
            return;
        };
        let model = id().unwrap_or_default();
        // The day of the click, UTC (`YYYY-MM-DD`).
        let date: String = String::from(js_sys::Date::new_0().to_iso_string())
            .chars()
            .take(10)
            .collect();
        let client = client.get_value();
        leptos::task::spawn_local(async move {
            match client.call(api::HfExport { row, model, date }).await {
                Ok(file) => {
                    set_error.try_set(None);
                    crate::download::download_text(&file.file_name, "application/yaml", &file.yaml);
                    let n = match file.entries {
                        1 => "1 entry".to_string(),
                        n => format!("{n} entries"),
                    };
                    set_saved.try_set(Some(format!(
                        "{} ({n}): put it in the model repository as .eval_results/{}",
                        file.file_name, file.file_name
                    )));
                }
                Err(e) => {
                    set_saved.try_set(None);
                    set_error.try_set(Some(e.to_string()));
                }
            }
        });
    };
    view! {
        <span class="lb-eee" role="group" aria-label="Download Hugging Face Eval Results (YAML)">
            <label>"Hugging Face Eval Results for "
                <input type="text" data-testid="hf-model" placeholder="org/model" size="22"
                    aria-describedby="hf-model-hint"
                    prop:value=move || id().unwrap_or_default()
                    on:input=move |ev| {
                        if let Some(row) = pick.get_untracked() {
                            typed.update(|t| { t.insert(row, event_target_value(&ev)); });
                        }
                    } />
            </label>
            " "
            <button type="button" data-testid="hf-yaml" on:click=fetch>"YAML"</button>
            <span class="hint" id="hf-model-hint">" (org/name of the Hub model whose repository takes the file)"</span>
        </span>
        {move || saved.get().map(|s| view! { <span class="hint" role="status" data-testid="hf-saved">{s}</span> })}
        {move || error.get().map(|e| view! { <span class="error" role="alert" data-testid="hf-error">{e}</span> })}
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
    rows: Signal<Vec<(RowId, String)>>,
    /// The selected row id (shared with the URL); `None` picks the first row.
    selected: RwSignal<Option<RowId>>,
) -> impl IntoView {
    let client = StoredValue::new_local(use_worker());
    let (wrong_only, set_wrong_only) = signal(false);
    let (category, set_category) = signal(String::new());
    let (offset, set_offset) = signal(0usize);
    let pick = picked(rows, selected);
    let page = latest_reply(
        move || {
            let id = pick.get();
            let query = ItemsQuery {
                wrong_only: wrong_only.get(),
                category: Some(category.get()).filter(|c| !c.is_empty()),
                offset: offset.get(),
                limit: PAGE,
            };
            (id, query)
        },
        move |(id, query)| {
            let client = client.get_value();
            async move { Some(client.call(api::Items { row: id?, query }).await) }
        },
    );
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
                {download_hf(client, rows, pick)}
            </div>
            {move || match page.get() {
                None => view! { <p class="loading" aria-busy="true">"Loading items…"</p> }.into_any(),
                Some(None) => ().into_any(),
                Some(Some(Err(e))) => view! { <WorkerErrorPanel title="Could not load the items" error=e /> }.into_any(),
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

fn score_cell(score: Option<f64>, right: Option<bool>) -> impl IntoView {
    let (cls, text) = match (score, right) {
        (Some(x), Some(true)) => ("ok", format!("✓ {}", pct(x))),
        (Some(x), _) => ("bad", format!("✗ {}", pct(x))),
        _ => ("", "not reached".to_string()),
    };
    view! { <td class=format!("num {cls}") data-score=score.map(|x| x.to_string())>{text}</td> }
}
