//! Gold computed rows on the leaderboard: for each dropped score matrix, the loading-weighted
//! overall and layer scores of Gold's PLS-SEM model (layers → Overall) beside the plain mean,
//! with both ranks. Gold's Table 2 assignment is used when the task names match; otherwise
//! (or to change it) each task is assigned to a layer with a select and the matrix is scored
//! again in the worker (`lb.gold_analyze`). Every number comes from
//! `coglab_core::leaderboard::gold`; this file only formats and filters.

use std::collections::BTreeMap;

use coglab_core::leaderboard::gold::{GoldResult, GoldRow, LAYERS};
use leptos::prelude::*;

use crate::components::error_panel::ErrorPanel;
use crate::data::base_path;
use crate::worker::client::WorkerClient;

fn num(x: f64) -> String {
    format!("{x:.2}")
}

/// Gold computed rows, one block per dropped score matrix.
#[component]
pub fn GoldComputed(
    /// The dropped score matrices and their scores.
    rows: RwSignal<Vec<GoldRow>>,
    /// Lower-case text a shown model name must contain.
    filter: Memo<String>,
) -> impl IntoView {
    let client = StoredValue::new_local(None::<WorkerClient>);
    view! {
        <Show when=move || !rows.read().is_empty()>
            <h2 class="lb-subhead">"Computed from your files"</h2>
            <p class="notice">"Gold's weighted scores: each task's score weighted by its PLS-SEM \
                loading on its layer (Σ|λ|·s / Σ|λ|), layers feeding one Overall construct, as "
                <code>"coglab sem"</code>" computes them. For loadings, reliability, HTMT, \
                pruning and the bootstrap open the "
                <a href=format!("{}/structure", base_path())>"Structure page"</a>"."</p>
            {move || (0..rows.read().len()).map(|k| view! {
                <GoldMatrixView rows=rows index=k filter=filter client=client />
            }).collect_view()}
        </Show>
    }
}

/// One matrix: its scores table and the task assignment editor.
#[component]
fn GoldMatrixView(
    /// All rows (this one is updated when re-scored).
    rows: RwSignal<Vec<GoldRow>>,
    /// Which row.
    index: usize,
    /// Lower-case text a shown model name must contain.
    filter: Memo<String>,
    /// The worker client, started on first use.
    client: StoredValue<Option<WorkerClient>, LocalStorage>,
) -> impl IntoView {
    let row = Memo::new(move |_| rows.read().get(index).cloned());
    let file = move || row.get().map(|r| r.matrix.file).unwrap_or_default();
    let tasks = move || row.get().map(|r| r.matrix.tasks).unwrap_or_default();
    let initial: BTreeMap<String, String> = row
        .get_untracked()
        .and_then(|r| r.result.map(|x| x.assignment))
        .unwrap_or_default();
    let assignment = RwSignal::new(initial);
    let (busy, set_busy) = signal(false);
    let (error, set_error) = signal(None::<String>);
    let score = move |_| {
        let Some(r) = row.get_untracked() else { return };
        let args = serde_json::json!({
            "file": r.matrix.file, "csv": r.matrix.csv, "assignment": assignment.get_untracked(),
        })
        .to_string();
        let c = client.with_value(|c| c.clone()).unwrap_or_else(|| {
            let c = WorkerClient::for_app();
            client.set_value(Some(c.clone()));
            c
        });
        set_busy.set(true);
        set_error.set(None);
        leptos::task::spawn_local(async move {
            let res = c
                .call("lb.gold_analyze", &args, &[], None)
                .await
                .and_then(|json| {
                    serde_json::from_str::<GoldResult>(&json)
                        .map_err(|e| format!("worker result: {e}"))
                });
            set_busy.set(false);
            match res {
                Ok(result) => rows.update(|v| {
                    if let Some(r) = v.get_mut(index) {
                        r.result = Some(result);
                        r.message = None;
                    }
                }),
                Err(e) => set_error.set(Some(e)),
            }
        });
    };
    let table = move || {
        let r = row.get()?;
        let res = r.result?;
        let f = filter.get();
        let layers = res.layers.clone();
        let body = res
            .rows
            .iter()
            .filter(|x| f.is_empty() || x.model.to_lowercase().contains(&f))
            .map(|x| {
                let cells = layers
                    .iter()
                    .map(|l| {
                        let v = x.by_construct.get(l).copied();
                        view! {
                            <td class="num" data-key=l.clone() data-value=v.map(|v| v.to_string())>
                                {v.map_or("–".into(), num)}</td>
                        }
                    })
                    .collect_view();
                let change = match x.change {
                    0 => "0".to_string(),
                    c if c > 0 => format!("▲ {c}"),
                    c => format!("▼ {}", -c),
                };
                view! {
                    <tr data-testid="gold-row" data-model=x.model.clone()>
                        <td class="num">{x.rank_weighted}</td>
                        <th scope="row">{x.model.clone()}" "<span class="badge computed">"computed"</span></th>
                        <td class="num" data-key="overall" data-value=x.overall.to_string()>{num(x.overall)}</td>
                        {cells}
                        <td class="num" data-key="plain_mean" data-value=x.plain_mean.to_string()>{num(x.plain_mean)}</td>
                        <td class="num">{x.rank_plain}</td>
                        <td class="num" title="Plain-mean rank minus weighted rank: ▲ weighting moves the model up">{change}</td>
                    </tr>
                }
            })
            .collect_view();
        let dropped = (!res.dropped_models.is_empty()).then(|| {
            format!(
                " {} model(s) with missing scores left out: {}.",
                res.dropped_models.len(),
                res.dropped_models.join(", ")
            )
        });
        Some(view! {
            <div class="table-scroll">
            <table class="lb-table" data-testid="gold-computed">
                <caption>{format!("{}: Gold weighted scores over {} models (same unit as the matrix).", r.matrix.file, res.n_models)}{dropped}</caption>
                <thead><tr>
                    <th scope="col" title="Rank by the weighted overall score">"Rank"</th>
                    <th scope="col">"Model"</th>
                    <th scope="col" title="Loading-weighted score over every task: Σ|λ|·s / Σ|λ|">"Overall"</th>
                    {res.layers.iter().map(|l| view! {
                        <th scope="col" title=format!("{l}: loading-weighted score over this layer's tasks")>{l.clone()}</th>
                    }).collect_view()}
                    <th scope="col" title="Unweighted mean of the same tasks">"Plain mean"</th>
                    <th scope="col" title="Rank by the plain mean">"Rank (mean)"</th>
                    <th scope="col" title="Rank change from weighting">"Change"</th>
                </tr></thead>
                <tbody>{body}</tbody>
            </table>
            </div>
        })
    };
    let open = move || row.get().is_some_and(|r| r.result.is_none());
    view! {
        <section class="card" data-testid="gold-matrix" data-file=file>
            <h3 class="lb-subhead">{file}</h3>
            {move || row.get().and_then(|r| r.message).map(|m| view! {
                <p class="notice" data-testid="gold-message">{m}</p>
            })}
            {table}
            <details class="lb-files-box" open=open data-testid="gold-assign">
                <summary>"Task → layer assignment"</summary>
                <div class="lb-controls">
                    {move || tasks().into_iter().map(|t| {
                        let t2 = t.clone();
                        let t3 = t.clone();
                        let current = move || assignment.read().get(&t2).cloned().unwrap_or_default();
                        view! {
                            <label>{t.clone()}" "
                                <select data-testid="gold-task" data-task=t.clone()
                                    on:change=move |ev| {
                                        let v = event_target_value(&ev);
                                        assignment.update(|a| { a.insert(t3.clone(), v); });
                                    }>
                                    <option value="" selected={
                                        let cur = current.clone();
                                        move || cur().is_empty()
                                    }>"not used"</option>
                                    {LAYERS.iter().map(|l| {
                                        let cur = current.clone();
                                        view! { <option value=*l selected=move || cur() == *l>{*l}</option> }
                                    }).collect_view()}
                                </select>
                            </label>
                        }
                    }).collect_view()}
                </div>
                <button type="button" data-testid="gold-score" on:click=score disabled=move || busy.get()>
                    {move || if busy.get() { "Scoring…" } else { "Score with this assignment" }}</button>
            </details>
            {move || error.get().map(|e| view! { <ErrorPanel title="Could not score the matrix" message=e /> })}
        </section>
    }
}
