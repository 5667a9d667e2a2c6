//! The MM-OPERA leaderboard tab: per task (RIA or ICA) one unified table of score rate (SR),
//! HR-4, HR-3, ΔHR and the mean process-reward reasoning score (reported, computed and
//! baseline rows, [`super::board::mmopera_board`]); for computed rows every breakdown as an
//! expandable table ([`breakdown`]), the L-3 abilities radar, score rate by hop count, the
//! histogram of holistic scores ([`chart`]), and a two-model comparison computed in the worker
//! ([`compare`]). Every number comes from `coglab_core::leaderboard::mmopera` (scored in the
//! worker with `coglab score mmopera`'s defaults); these files only format, sort and filter.
//! Loaded in a chunk of its own ([`lazy_tab`]).

use coglab_core::mmopera::score::{DecayExponent, IcaAverage};
use coglab_core::mmopera::Task;
use coglab_core::ranks::Bench;
use leptos::prelude::*;

use super::board::mmopera_board;
use super::state::BoardState;
use super::Bundle;
use crate::components::board_table::BoardTable;
use crate::components::rank_panel::{RankMarks, RankPanel};

mod breakdown;
mod chart;
mod compare;

use breakdown::Breakdown;
use chart::OperaCanvas;
use compare::MmoperaCompare;

fn tasks() -> [Task; 2] {
    [Task::Ria, Task::Ica]
}

fn task_key(t: Task) -> &'static str {
    match t {
        Task::Ria => "ria",
        Task::Ica => "ica",
    }
}

/// The MM-OPERA tab in a WebAssembly chunk of its own, fetched when the tab is first shown
/// ([`crate::split::part`] shows a loading line until then).
pub(crate) fn lazy_tab(bundle: Bundle) -> AnyView {
    #[cfg_attr(feature = "split", leptos::lazy)]
    async fn mmopera_tab(bundle: Bundle) -> AnyView {
        view! { <MmoperaTab bundle=bundle /> }.into_any()
    }
    crate::split::part(mmopera_tab(bundle))
}

/// The MM-OPERA tab: a RIA / ICA switch (the `t` query parameter), the unified table of the
/// task (reported Tables 2 and 3, computed rows, human baseline; sort, filters, columns, URL
/// state and exports from [`BoardTable`]), then for the computed rows whose name matches the
/// table's text filter: notes, breakdowns, charts and the two-model comparison.
#[component]
pub fn MmoperaTab(
    /// The bundled reported results (Tables 2 and 3).
    bundle: Bundle,
) -> impl IntoView {
    let state = BoardState::get();
    let (rows, view) = (state.rows.mmopera, state.view);
    let chart_task = Memo::new(move |_| state.query.with(|q| q.task));
    // The paper-fidelity switches (issue 23), in the URL: `decay=paper`, `avg=paths`.
    let settings = Memo::new(move |_| state.query.with(|q| q.opera));
    let board = Memo::new(move |_| {
        let b = bundle.get();
        let reported = b.as_ref().and_then(|r| r.as_ref().ok());
        let mut b = mmopera_board(reported, &rows.read(), chart_task.get(), settings.get());
        state.mark_published(&mut b);
        b
    });
    let rank_rows = Signal::derive(move || {
        rows.read()
            .iter()
            .map(|r| (r.id, r.model.clone()))
            .collect::<Vec<_>>()
    });
    let (marks, set_marks) = signal(RankMarks::default());
    let any_computed = Memo::new(move |_| !rows.read().is_empty());
    view! {
        <div class="lb-controls" role="radiogroup" aria-label="MM-OPERA task">
            <span>"Task:"</span>
            // The two tasks: a static list.
            {tasks().map(|t| view! {
                <label><input type="radio" name="mmopera-task" data-testid=format!("mmopera-task-{}", task_key(t))
                    prop:checked=move || chart_task.get() == t
                    on:change=move |_| state.set_url(|q| q.task = t) />
                    {format!(" {}", match t { Task::Ria => "RIA (remote-item association)", Task::Ica => "ICA (in-context association)" })}</label>
            }).collect_view()}
        </div>
        <div class="lb-controls" role="group" aria-label="MM-OPERA scoring settings" data-testid="mmopera-settings">
            <label title="The released code sums s_i·γ^i from i = 0 (the first hop undecayed); the paper's equation 2 sums s_t·γ^t from t = 1, which is the code's value × γ.">
                "Reasoning score decay: "
                <select data-testid="mmopera-decay"
                    prop:value=move || settings.get().decay.name()
                    on:change=move |ev| {
                        let decay = DecayExponent::from_name(&event_target_value(&ev)).unwrap_or_default();
                        state.set_url(|q| q.opera.decay = decay);
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
                        let average = IcaAverage::from_name(&event_target_value(&ev)).unwrap_or_default();
                        state.set_url(|q| q.opera.average = average);
                    }>
                    <option value="items">"over items (ours, default)"</option>
                    <option value="paths">"over all paths (released ICA script)"</option>
                </select>
            </label>
        </div>
        <BoardTable board=board state=view stem="mmopera" ranks=marks />
        <RankPanel bench=Bench::Mmopera rows=rank_rows task=chart_task marks=set_marks stem="mmopera" />
        <Show when=move || any_computed.get()
            fallback=|| view! { <p class="notice">"Drop MM-OPERA judge files (holistic and process-reward scoring JSON) with the dataset's metadata above to add computed rows, breakdowns, charts and comparisons."</p> }>
            {crate::split::part(computed_sections(chart_task.into()))}
        </Show>
    }
}

/// The MM-OPERA tab's sections over computed rows (notes, breakdowns, charts, the comparison
/// and the item analysis) in a chunk of their own, fetched when the tab first has a computed
/// row, as the MM-IQ tab's `computed_sections`: the tab's table, which every visitor sees, is
/// shown without them (issue 42; BENCHMARKS.md, "First view on Fast 3G").
#[cfg_attr(feature = "split", leptos::lazy)]
async fn computed_sections(chart_task: Signal<Task>) -> AnyView {
    let state = BoardState::get();
    let (rows, view) = (state.rows.mmopera, state.view);
    let visible = Memo::new(move |_| {
        let f = crate::components::board_table::fold_case(&view.read().query);
        rows.get()
            .into_iter()
            .filter(|r| {
                f.is_empty() || crate::components::board_table::fold_case(&r.model).contains(&f)
            })
            .collect::<Vec<_>>()
    });
    let radar = Memo::new(move |_| visible.with(|r| chart::l3_radar(chart_task.get(), r)));
    let line = Memo::new(move |_| visible.with(|r| chart::hop_lines(chart_task.get(), r)));
    let histogram =
        Memo::new(move |_| visible.with(|r| chart::score_histogram(chart_task.get(), r)));
    view! {
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
            <For each=move || visible.get().into_iter().flat_map(|r| tasks().into_iter().filter_map(move |t| r.task(t).cloned().map(|row| (r.id, r.model.clone(), row))))
                key=|(id, _, row)| (*id, task_key(row.task))
                children=|(id, model, row)| view! { <Breakdown id=id model=model row=row /> } />
        </div>
        <h3 class="lb-subhead">{move || format!("Charts ({})", chart_task.get().name())}</h3>
        <OperaCanvas data=radar testid="mmopera-radar" file_name="mmopera-l3-radar.png"
            label="MM-OPERA radar: score rate by L-3 ability for each model" />
        <OperaCanvas data=line testid="mmopera-hops" file_name="mmopera-hops.png"
            label="MM-OPERA line chart: score rate by reference hop count, one line per model" />
        <OperaCanvas data=histogram testid="mmopera-histogram" file_name="mmopera-scores.png"
            label="MM-OPERA histogram: share of holistic scores 0 to 4 for each model" />
        <Show when=move || { rows.read().len() >= 2 }
            fallback=|| view! { <p class="notice" data-testid="needs-two-rows">"The comparison and the item analysis need two computed rows or more: drop another model's judge files above."</p> }>
            <MmoperaCompare rows=rows />
            <crate::pages::items::ItemAnalysisSection benchmark="mmopera"
                rows=Signal::derive(move || rows.read().iter().map(|r| (r.id, r.model.clone())).collect::<Vec<_>>()) />
        </Show>
    }
    .into_any()
}
