//! The MM-IQ tab: one table (reported, computed, baselines), the paradigm radar of the first
//! rows shown, paired ranks, the model page and the comparison (the last two in chunks of
//! their own, [`split`]).

use crate::worker::api::RowId;
use coglab_core::mmiq::CATEGORIES;
use leptos::prelude::*;

use super::board::{mmiq_board, PARADIGM_SHORT};
use super::chart::{first_rows, Chart, ChartCanvas, CHART_ROWS};
use super::state::BoardState;
use super::url::bind_selection;
use super::{fidelity, Bundle};
use crate::charts::radar::{Radar, RadarSeries};
use crate::components::board_table::BoardTable;
use crate::components::error_panel::ErrorPanel;
use crate::components::model_items::{CompareModels, ModelItems};
use crate::components::rank_panel::RankMarks;
use crate::components::theme_toggle::chart_theme;
use crate::split;

/// The MM-IQ tab: one table (reported, computed, baselines), the paradigm radar of the first
/// rows shown, the model page and the comparison.
#[component]
pub fn MmiqTab(
    /// The bundled reported results.
    bundle: Bundle,
) -> impl IntoView {
    let state = BoardState::get();
    let (rows, view) = (state.rows.mmiq, state.view);
    let board = Memo::new(move |_| {
        let b = bundle.get();
        let reported = b.as_ref().and_then(|r| r.as_ref().ok());
        let mut b = mmiq_board(
            reported,
            &rows.read(),
            &state.rows.mmiq_acc.read(),
            &state.rows.harness_summary.read(),
        );
        state.mark_published(&mut b);
        b
    });
    let radar = Memo::new(move |_| {
        let b = board.get();
        let series = first_rows(&b, &view.read(), CHART_ROWS)
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
    bind_selection(state.query, ids, model_pick, pair);
    let (marks, set_marks) = signal(RankMarks::default());
    view! {
        {move || match bundle.get() {
            Some(Err(e)) => Some(view! { <ErrorPanel title="Could not load the reported results" message=e /> }),
            _ => None,
        }}
        <BoardTable board=board state=view stem="mmiq" ranks=marks />
        <Show when=move || !rows.read().is_empty()>
            {split::part(split::mmiq_ranks(ids, set_marks))}
        </Show>
        <ChartCanvas data=radar testid="mmiq-radar" file_name="mmiq-radar.png"
            label="MM-IQ radar: accuracy per paradigm for the first rows of the table" />
        <Show when=move || !rows.read().is_empty()
            fallback=|| view! { <p class="notice">"Drop MM-IQ prediction files with the answer key above to add computed rows, a model page and comparisons."</p> }>
            {split::part(split::mmiq_computed(ids, model_pick, pair))}
        </Show>
    }
}

/// The MM-IQ tab's sections over computed rows (in a chunk of their own, see [`split`]):
/// response lengths, the model page, and with two rows or more the comparison and the item
/// analysis.
#[component]
pub fn MmiqComputed(
    /// The computed rows with items, as (row id, model).
    ids: Signal<Vec<(RowId, String)>>,
    /// The model page's row.
    model_pick: RwSignal<Option<RowId>>,
    /// The compared rows.
    pair: RwSignal<(Option<RowId>, Option<RowId>)>,
) -> impl IntoView {
    let rows = BoardState::get().rows.mmiq;
    view! {
        <fidelity::MmiqLengths rows=rows />
        <ModelItems rows=ids selected=model_pick />
        <Show when=move || { rows.read().len() >= 2 }>
            <CompareModels rows=ids pair=pair testid="compare" />
            <crate::pages::items::ItemAnalysisSection rows=ids benchmark="mmiq" />
        </Show>
    }
}
