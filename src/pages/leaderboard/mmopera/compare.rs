//! Two MM-OPERA models compared on the items both were judged on (one task), computed in the
//! worker ([`api::MmoperaCompare`]).

use coglab_core::leaderboard::mmopera::{MmoperaComparison, MmoperaRow};
use coglab_core::mmopera::Task;
use leptos::prelude::*;

use crate::components::error_panel::WorkerErrorPanel;
use crate::worker::api;
use crate::worker::client::use_worker;

/// Bootstrap resamples and seed of the comparison's SR-difference interval.
/// (The rank board's, as the other comparisons.)
const RESAMPLES: usize = coglab_core::ranks::board::BOOTSTRAP_RESAMPLES;
const SEED: u64 = coglab_core::ranks::board::BOOTSTRAP_SEED;

/// Two models compared on the items both were judged on (one task): the 5×5 table of paired
/// holistic verdicts, exact agreement, and the paired bootstrap 95% interval of the SR
/// difference, computed in the worker ([`api::MmoperaCompare`]).
#[component]
pub(super) fn MmoperaCompare(
    /// The computed rows.
    rows: RwSignal<Vec<MmoperaRow>>,
) -> impl IntoView {
    let client = StoredValue::new_local(use_worker());
    let (task, set_task) = signal(Task::Ria);
    let (a, set_a) = signal(0usize);
    let (b, set_b) = signal(1usize);
    let compare = Action::new_local(move |request: &api::MmoperaCompare| {
        let (c, request) = (client.get_value(), request.clone());
        async move { c.call(request).await }
    });
    let names = Memo::new(move |_| {
        rows.get()
            .iter()
            .map(|r| r.model.clone())
            .collect::<Vec<_>>()
    });
    let run = move |_| {
        let rows = rows.get_untracked();
        let (ra, rb) = (rows.get(a.get_untracked()), rows.get(b.get_untracked()));
        let (Some(ra), Some(rb)) = (ra, rb) else {
            return;
        };
        compare.dispatch_local(api::MmoperaCompare {
            first: ra.id,
            second: rb.id,
            task: task.get_untracked(),
            resamples: RESAMPLES as u64,
            seed: SEED,
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
                    <For each=move || names.get().into_iter().enumerate() key=|o| o.clone()
                        children=move |(i, n)| view! {
                            <option value=i.to_string() selected=move || which.get() == i>{n}</option>
                        } />
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
            <button type="button" data-testid="mmopera-compare-run" on:click=run disabled=move || compare.pending().get()>"Compare"</button>
        </div>
        {move || match compare.value().get() {
            None => None,
            Some(Err(e)) => Some(view! { <WorkerErrorPanel title="Could not compare" error=e /> }.into_any()),
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
