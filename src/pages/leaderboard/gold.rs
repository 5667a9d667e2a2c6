//! The Gold leaderboard tab: one unified table of the loading-weighted overall and layer scores
//! of Gold's PLS-SEM model (layers → Overall) beside the plain mean and the paper's Overall,
//! for Gold's Table 2 and every dropped score matrix ([`super::board::gold_board`]). Gold's Table 2 assignment is used when the task names match; otherwise
//! (or to change it) each task is assigned to a layer with a select and the matrix is scored
//! again in the worker ([`api::GoldAnalyze`]). Every number comes from
//! `coglab_core::leaderboard::gold`; this file only formats and filters. Loaded in a chunk of
//! its own ([`lazy_tab`]).

use crate::worker::api::RowId;
use std::collections::BTreeMap;

use coglab_core::leaderboard::gold::{GoldRow, LAYERS};
use leptos::prelude::*;

use super::board::{gold_board, gold_table_request};
use super::state::BoardState;
use super::Bundle;
use crate::components::board_table::BoardTable;
use crate::components::error_panel::WorkerErrorPanel;
use crate::data::base_path;
use crate::worker::api;
use crate::worker::client::{latest_reply, use_worker, WorkerClient};

/// The Gold tab in a WebAssembly chunk of its own, fetched when the tab is first shown
/// ([`crate::split::part`] shows a loading line until then).
pub(crate) fn lazy_tab(bundle: Bundle) -> AnyView {
    #[cfg_attr(feature = "split", leptos::lazy)]
    async fn gold_tab(bundle: Bundle) -> AnyView {
        view! { <GoldTab bundle=bundle /> }.into_any()
    }
    crate::split::part(gold_tab(bundle))
}

/// The Gold tab: the unified table (Gold Table 2 reported, with the core's weighted scores of
/// its task accuracies; every scored matrix's models computed; [`BoardTable`] does sort,
/// filters, columns, URL state and exports), then one block per dropped matrix with its message
/// and the task → layer assignment editor.
#[component]
pub fn GoldTab(
    /// The bundled reported results (Table 2).
    bundle: Bundle,
) -> impl IntoView {
    let state = BoardState::get();
    let rows = state.rows.gold;
    let client = StoredValue::new_local(use_worker());
    // The core's scores of Table 2, computed in the worker once the bundle has loaded (`None`
    // without the table).
    let table_scores = latest_reply(
        move || {
            bundle
                .get()
                .and_then(|b| b.ok())
                .and_then(|b| gold_table_request(&b))
        },
        move |request| {
            let client = client.get_value();
            async move {
                match request {
                    Some(r) => Some(client.call(r).await),
                    None => None,
                }
            }
        },
    );
    let scores = move || table_scores.get().flatten().and_then(Result::ok);
    let board = Memo::new(move |_| {
        let b = bundle.get();
        let reported = b.as_ref().and_then(|r| r.as_ref().ok());
        let mut b = gold_board(reported, scores().as_ref(), &rows.read());
        state.mark_published(&mut b);
        b
    });
    // The visitor's matrices (published rows have no matrix to assign again).
    let own = Memo::new(move |_| {
        let published = state.published_ids();
        rows.read()
            .iter()
            .map(|r| r.id)
            .filter(|id| !published.contains(id))
            .collect::<Vec<RowId>>()
    });
    // Issue 23: Table 2 cells outside its stated 0-100 % scale, from the core's check.
    let out_of_range = move || {
        let cells: Vec<String> = scores()
            .map(|s| s.out_of_range.iter().map(|c| c.to_string()).collect())
            .unwrap_or_default();
        (!cells.is_empty()).then(|| {
            view! {
                <p class="notice" role="alert" data-testid="gold-out-of-range">
                    <strong>"⚠ Out of range in Table 2: "</strong>
                    {format!(
                        "{} (task scores are % accuracy, 0-100). The weighted scores above use the \
                         value as the paper prints it, so that model's layer and overall scores \
                         are inflated; the Structure page can exclude it.",
                        cells.join("; ")
                    )}
                </p>
            }
        })
    };
    view! {
        <BoardTable board=board state=state.view stem="gold" />
        {move || match table_scores.get().flatten() {
            Some(Err(e)) => Some(view! { <WorkerErrorPanel title="Could not score Gold's Table 2" error=e /> }),
            _ => None,
        }}
        {out_of_range}
        <p class="notice">"Gold's weighted scores: each task's score weighted by its PLS-SEM \
            loading on its layer (Σ|λ|·s / Σ|λ|), layers feeding one Overall construct, as "
            <code>"coglab sem"</code>" computes them. For loadings, reliability, HTMT, \
            pruning and the bootstrap open the "
            <a href=format!("{}/structure", base_path())>"Structure page"</a>"."</p>
        <Show when=move || !own.read().is_empty()
            fallback=|| view! { <p class="notice">"Drop score matrices (models × tasks as CSV, TSV or JSON, e.g. the OpenVLM leaderboard JSON) above to add computed rows."</p> }>
            <h2 class="lb-subhead">"Your matrices"</h2>
            <For each=move || own.get() key=|id| *id
                children=move |id| view! { <GoldMatrixView rows=rows id=id client=client /> } />
        </Show>
    }
}

/// One matrix: its message or summary and the task assignment editor.
#[component]
fn GoldMatrixView(
    /// All rows (this one is updated when re-scored).
    rows: RwSignal<Vec<GoldRow>>,
    /// Which row (its id in the worker).
    id: api::RowId,
    /// The app's worker client.
    client: StoredValue<WorkerClient, LocalStorage>,
) -> impl IntoView {
    let row = Memo::new(move |_| rows.read().iter().find(|r| r.id == id).cloned());
    let file = move || row.get().map(|r| r.matrix.file).unwrap_or_default();
    let tasks = move || row.get().map(|r| r.matrix.tasks).unwrap_or_default();
    let initial: BTreeMap<String, String> = row
        .get_untracked()
        .and_then(|r| r.result.map(|x| x.assignment))
        .unwrap_or_default();
    let assignment = RwSignal::new(initial);
    let analyze = Action::new_local(move |request: &api::GoldAnalyze| {
        let (c, request) = (client.get_value(), request.clone());
        async move {
            let result = c.call(request).await?;
            rows.update(|v| {
                if let Some(r) = v.iter_mut().find(|r| r.id == id) {
                    r.result = Some(result);
                    r.message = None;
                }
            });
            Ok::<(), api::WorkerError>(())
        }
    });
    let busy = analyze.pending();
    let score = move |_| {
        analyze.dispatch_local(api::GoldAnalyze {
            row: id,
            assignment: assignment.get_untracked(),
        });
    };
    let summary = move || {
        let r = row.get()?;
        let res = r.result?;
        let dropped = (!res.dropped_models.is_empty()).then(|| {
            format!(
                " {} model(s) with missing scores left out: {}.",
                res.dropped_models.len(),
                res.dropped_models.join(", ")
            )
        });
        Some(view! {
            <p data-testid="gold-summary">{format!("Scored: {} models, layers {} (rows marked computed in the table above).",
                res.n_models, res.layers.join(", "))}{dropped}</p>
        })
    };
    let open = move || row.get().is_some_and(|r| r.result.is_none());
    view! {
        <section class="card" data-testid="gold-matrix" data-file=file>
            <h3 class="lb-subhead">{file}</h3>
            {move || row.get().and_then(|r| r.message).map(|m| view! {
                <p class="notice" data-testid="gold-message">{m}</p>
            })}
            {summary}
            <details class="lb-files-box" open=open data-testid="gold-assign">
                <summary>"Task → layer assignment"</summary>
                <div class="lb-controls">
                    // The matrix's tasks (fixed once it is read).
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
                                    // The layers: a static list.
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
            {move || match analyze.value().get() {
                Some(Err(e)) => Some(view! { <WorkerErrorPanel title="Could not score the matrix" error=e /> }),
                _ => None,
            }}
        </section>
    }
}
