//! The MM-IQ tab: one table (reported, computed, baselines), the paradigm radar of the first
//! rows shown, paired ranks, the model page and the comparison. The leaderboard's first tab, so
//! in the main module, but for its sections over computed rows ([`computed_sections`]).

use crate::worker::api::RowId;
use coglab_core::items::KivaStages;
use coglab_core::mmiq::CATEGORIES;
use coglab_core::ranks::view::RankRequest;
use coglab_core::ranks::Bench;
use leptos::prelude::*;

use super::board::{mmiq_board, PARADIGM_SHORT};
use super::chart::{first_rows, Chart, ChartCanvas, CHART_ROWS};
use super::state::BoardState;
use super::url::bind_selection;
use super::{few_items, fidelity, Bundle};
use crate::charts::radar::{Radar, RadarSeries};
use crate::components::board_table::{BoardTable, EstimateMarks};
use crate::components::error_panel::ErrorPanel;
use crate::components::model_items::{CompareModels, ModelItems};
use crate::components::rank_panel::{RankMarks, RankPanel};
use crate::components::theme_toggle::chart_theme;

/// The MM-IQ tab: one table (reported, computed, baselines), the paradigm radar of the first
/// rows shown, the model page and the comparison.
#[component]
pub fn MmiqTab(
    /// The bundled reported results.
    bundle: Bundle,
) -> impl IntoView {
    let state = BoardState::get();
    let (rows, view) = (state.rows.mmiq, state.view);
    let ids = Signal::derive(move || {
        rows.read()
            .iter()
            .map(|r| (r.id, r.model.clone()))
            .collect::<Vec<_>>()
    });
    // Estimated full-benchmark scores of the partial rows (four options: guessing floor 1/4).
    let computed_ids = few_items::computed_only(ids);
    let estimates = few_items::use_estimates(computed_ids, Signal::stored(KivaStages::Cross), 4);
    let estimate_marks = Memo::new(move |_| match estimates.get().flatten() {
        Some(Ok(e)) => few_items::estimate_marks(&e, &computed_ids.read(), "#mmiq-estimates"),
        _ => EstimateMarks::default(),
    });
    let by_estimates = Memo::new(move |_| state.query.with(|q| q.estimated));
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
        if by_estimates.get() {
            if let Some(Ok(e)) = estimates.get().flatten() {
                few_items::rank_by_estimates(&mut b, "mean", &e, &computed_ids.read());
            }
        }
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
    let model_pick = RwSignal::new(None);
    let pair = RwSignal::new((None, None));
    bind_selection(state.query, ids, model_pick, pair);
    let (marks, set_marks) = signal(RankMarks::default());
    view! {
        {move || match bundle.get() {
            Some(Err(e)) => Some(view! { <ErrorPanel title="Could not load the reported results" message=e /> }),
            _ => None,
        }}
        <BoardTable board=board state=view stem="mmiq" ranks=marks estimates=estimate_marks />
        <few_items::EstimatesNote reply=estimates stem="mmiq" />
        <Show when=move || !rows.read().is_empty()>
            <RankPanel bench=Bench::Mmiq rows=ids marks=set_marks stem="mmiq" />
            <few_items::PlannerPanel rows=computed_ids request=Signal::stored(RankRequest::new(Bench::Mmiq)) stem="mmiq" />
            <few_items::QualityPanel rows=computed_ids request=Signal::stored(RankRequest::new(Bench::Mmiq)) stem="mmiq" />
        </Show>
        <ChartCanvas data=radar testid="mmiq-radar" file_name="mmiq-radar.png"
            label="MM-IQ radar: accuracy per paradigm for the first rows of the table" />
        <Show when=move || !rows.read().is_empty()
            fallback=|| view! { <p class="notice">"Drop MM-IQ prediction files with the answer key above to add computed rows, a model page and comparisons."</p> }>
            {crate::split::part(computed_sections(ids, model_pick, pair))}
        </Show>
    }
}

/// The MM-IQ tab's sections over computed rows ([`MmiqComputed`]) in a WebAssembly chunk of
/// their own, fetched when the tab first has computed rows ([`crate::split::part`] shows a
/// loading line until then), or before, when MM-IQ files are staged
/// ([`preload_computed_sections`]).
///
/// The one split point finer than a route or a tab, kept because it was measured to pay: built
/// without it (these sections in the main module too), the first load of `/` and `/leaderboard`
/// was 639.9 KB gzipped, over the 600 KB budget, against 568.3 KB with it. The model page, the
/// comparison and the item analysis are shared with the KiVA and MM-OPERA tabs, so without
/// this point they all land in the main module.
///
/// The tab's paired-ranks panel had a point of its own too; it kept 15.3 KB off the first load
/// (553.0 KB with both points) and nothing off the 100,000-response run (BENCHMARKS.md,
/// "Download size"), so it is drawn in the main module.
#[cfg_attr(feature = "split", leptos::lazy)]
async fn computed_sections(
    ids: Signal<Vec<(RowId, String)>>,
    model_pick: RwSignal<Option<RowId>>,
    pair: RwSignal<(Option<RowId>, Option<RowId>)>,
) -> AnyView {
    view! { <MmiqComputed ids=ids model_pick=model_pick pair=pair /> }.into_any()
}

/// Fetches the chunk of [`computed_sections`] without showing it, for a page where MM-IQ files
/// were just staged: the sections are then there with the first computed row. Without this,
/// their chunk fetches (through the service worker) came in the same moment as the scores, on
/// a 2-core machine taking the CPU the page needed to show the row (BENCHMARKS.md, the
/// 100,000-response run of session 16). Without the `split` feature there is nothing to fetch.
pub(crate) fn preload_computed_sections() {
    #[cfg(feature = "split")]
    leptos::task::spawn_local(__preload_computed_sections());
}

/// The MM-IQ tab's sections over computed rows: response lengths, the model page, and with two
/// rows or more the comparison and the item analysis.
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
        // With one row, say what the two sections below need (issue 42, defect 12: they were
        // absent with no word why).
        <Show when=move || { rows.read().len() >= 2 }
            fallback=|| view! { <p class="notice" data-testid="needs-two-rows">"The comparison and the item analysis need two computed rows or more: drop another model's predictions above."</p> }>
            <CompareModels rows=ids pair=pair testid="compare" />
            <crate::pages::items::ItemAnalysisSection rows=ids benchmark="mmiq" />
        </Show>
    }
}
