//! The KiVA tab: KiVA / KiVA-adults switch, conditional / joint "how" stage and the Null rule
//! (in the address), one table (bundled runs, adults, computed rows, challenge results), paired
//! ranks, grouped bars of the first rows shown, trials and the comparison by stage. Loaded in a
//! chunk of its own ([`lazy_tab`]).

use coglab_core::items::KivaStages;
use coglab_core::kiva::{NullAnswers, Variant};
use coglab_core::leaderboard::metrics::kiva_null_note;
use coglab_core::leaderboard::RowId;
use coglab_core::ranks::inputs::KivaStage;
use coglab_core::ranks::view::RankRequest;
use coglab_core::ranks::Bench;
use coglab_core::selftest::baselines::Baselines;
use leptos::prelude::*;

use super::board::{kiva_board, kiva_stages};
use super::chart::{first_rows, Chart, ChartCanvas, CHART_ROWS};
use super::few_items;
use super::state::BoardState;
use super::url::bind_selection;
use crate::charts::bars::{BarSeries, GroupedBars};
use crate::components::board_table::{BoardTable, EstimateMarks};
use crate::components::error_panel::ErrorPanel;
use crate::components::model_items::{ChallengeTrials, CompareModels, KivaTrials};
use crate::components::rank_panel::{RankMarks, RankPanel};
use crate::components::theme_toggle::chart_theme;
use crate::data::fetch_text;

/// The KiVA tab in a WebAssembly chunk of its own, fetched when the tab is first shown
/// ([`crate::split::part`] shows a loading line until then).
pub(crate) fn lazy_tab() -> AnyView {
    #[cfg_attr(feature = "split", leptos::lazy)]
    async fn kiva_tab() -> AnyView {
        view! { <KivaTab /> }.into_any()
    }
    crate::split::part(kiva_tab())
}

/// The KiVA tab: KiVA / KiVA-adults switch and conditional / joint "how" stage (in the URL), one
/// table (bundled runs, adults, computed rows), grouped bars of the first rows shown and the
/// comparison by stage.
#[component]
pub fn KivaTab() -> impl IntoView {
    let state = BoardState::get();
    let (rows, challenge, view) = (state.rows.kiva, state.rows.kiva_challenge, state.view);
    let adults = Memo::new(move |_| state.query.with(|q| q.adults));
    let joint = Memo::new(move |_| state.query.with(|q| q.joint));
    // Issue 23: `null=missing` leaves Null answers out (default: wrong, the repository's rule).
    let null = Memo::new(move |_| state.query.with(|q| q.null));
    let variant = Memo::new(move |_| {
        if adults.get() {
            Variant::KivaAdults
        } else {
            Variant::Kiva
        }
    });
    // The variant shown's figures (one bundled file per variant: a view shows one).
    let baselines = LocalResource::new(move || {
        let file = format!("data/{}", Baselines::file_name(variant.get()));
        async move {
            let text = fetch_text(&file).await?;
            serde_json::from_str::<Baselines>(&text).map_err(|e| format!("{file}: {e}"))
        }
    });
    let kiva_ids = Signal::derive(move || {
        let v = variant.get();
        rows.read()
            .iter()
            .filter(|r| r.report.variant == v)
            .map(|r| (r.id, r.model.clone()))
            .collect::<Vec<_>>()
    });
    let (stage, set_stage) = signal(0usize);
    // The paired ranks follow the chart's stage.
    let rank_stage = Signal::derive(move || {
        KivaStage::parse(kiva_stages(joint.get())[stage.get()].0).unwrap_or_default()
    });
    // Estimated full-benchmark scores of the partial runs, on the stage ranked when every trial
    // has it (stage 3), else on stage 1; the table's column of that stage over all domains.
    let estimate_stage = Signal::derive(move || match rank_stage.get() {
        KivaStage::Extrapolation => KivaStages::Extrapolation,
        _ => KivaStages::Cross,
    });
    let computed_ids = few_items::computed_only(kiva_ids);
    let estimates = few_items::use_estimates(computed_ids, estimate_stage, 0);
    let estimate_marks = Memo::new(move |_| match estimates.get().flatten() {
        Some(Ok(e)) => few_items::estimate_marks(&e, &computed_ids.read(), "#kiva-estimates"),
        _ => EstimateMarks::default(),
    });
    let by_estimates = Memo::new(move |_| state.query.with(|q| q.estimated));
    let rank_request = Signal::derive(move || {
        let mut r = RankRequest::new(Bench::Kiva);
        r.stage = rank_stage.get();
        r.null = null.get();
        r
    });
    let board = Memo::new(move |_| {
        let b = baselines.get();
        let bl = b.as_ref().and_then(|r| r.as_ref().ok());
        let mut b = kiva_board(
            bl,
            &rows.read(),
            &challenge.read(),
            variant.get(),
            joint.get(),
            null.get(),
        );
        state.mark_published(&mut b);
        if by_estimates.get() {
            if let Some(Ok(e)) = estimates.get().flatten() {
                let key = match estimate_stage.get() {
                    KivaStages::Extrapolation => "All/extrapolation",
                    _ => "All/cross",
                };
                few_items::rank_by_estimates(&mut b, key, &e, &computed_ids.read());
            }
        }
        b
    });
    let chart = Memo::new(move |_| {
        let st = kiva_stages(joint.get())[stage.get()];
        let b = board.get();
        // Domain columns of this stage (not "All").
        let cols: Vec<usize> = b
            .columns
            .iter()
            .enumerate()
            .filter(|(_, c)| c.key.ends_with(&format!("/{}", st.0)) && !c.key.starts_with("All/"))
            .map(|(i, _)| i)
            .collect();
        let groups = cols
            .iter()
            .map(|&c| {
                b.columns[c]
                    .key
                    .split('/')
                    .next()
                    .unwrap_or_default()
                    .to_string()
            })
            .collect();
        let series = first_rows(&b, &view.read(), CHART_ROWS)
            .into_iter()
            .map(|i| {
                let r = &b.rows[i];
                let cell = |c: usize| r.cells.get(c).cloned().flatten();
                BarSeries {
                    name: r.model.clone(),
                    values: cols.iter().map(|&c| cell(c).map(|x| x.value)).collect(),
                    se: cols
                        .iter()
                        .map(|&c| {
                            cell(c)
                                .and_then(|x| x.interval)
                                .map(|(lo, hi)| (hi - lo) / 2.0 / 1.96)
                        })
                        .collect(),
                }
            })
            .collect();
        Chart::Bars(GroupedBars {
            title: format!(
                "{}: {} by domain (first rows of the table; ±1 SE)",
                variant.get().name(),
                st.1
            ),
            y_label: "Accuracy".into(),
            groups,
            series,
            y_max: Some(1.0),
            reference: None,
            theme: chart_theme(),
        })
    });
    // Every computed KiVA row (model runs of both variants and a dropped adults file) for the
    // item analysis, which takes the adults as respondents when asked.
    let kiva_all = Signal::derive(move || {
        rows.read()
            .iter()
            .map(|r| (r.id, r.model.clone()))
            .collect::<Vec<_>>()
    });
    let kiva_pair = RwSignal::new((None, None));
    let kiva_pick = RwSignal::new(None);
    bind_selection(state.query, kiva_ids, kiva_pick, kiva_pair);
    let (marks, set_marks) = signal(RankMarks::default());
    let computed = KivaComputed {
        ids: kiva_ids,
        all: kiva_all,
        challenge: Signal::derive(move || {
            if variant.get() != Variant::Kiva {
                return Vec::new();
            }
            challenge
                .read()
                .iter()
                .map(|c| (c.id, c.model.clone()))
                .collect()
        }),
        pick: kiva_pick,
        pair: kiva_pair,
        joint: joint.into(),
    };
    let any_computed =
        Memo::new(move |_| !kiva_ids.read().is_empty() || !computed.challenge.read().is_empty());
    view! {
        <div class="lb-controls" role="group" aria-label="KiVA options">
            <label><input type="checkbox" data-testid="kiva-adults"
                prop:checked=move || adults.get()
                on:change=move |ev| { let on = event_target_checked(&ev); state.set_url(|q| q.adults = on) } />" KiVA-adults"</label>
            <label><input type="checkbox" data-testid="kiva-joint"
                prop:checked=move || joint.get()
                on:change=move |ev| { let on = event_target_checked(&ev); state.set_url(|q| q.joint = on) } />
                " Joint \"how\" stage (skipped counts as 0)"</label>
            <label title=move || kiva_null_note(null.get())><input type="checkbox" data-testid="kiva-null-missing"
                prop:checked=move || null.get() == NullAnswers::Missing
                on:change=move |ev| {
                    let null = if event_target_checked(&ev) { NullAnswers::Missing } else { NullAnswers::Wrong };
                    state.set_url(|q| q.null = null)
                } />
                " Leave Null answers out (default: counted wrong, as the KiVA repository)"</label>
        </div>
        {move || match baselines.get() {
            Some(Err(e)) => Some(view! { <ErrorPanel title="Could not load the KiVA baselines" message=e /> }),
            _ => None,
        }}
        <BoardTable board=board state=view stem="kiva" ranks=marks estimates=estimate_marks />
        <few_items::EstimatesNote reply=estimates stem="kiva" />
        <RankPanel bench=Bench::Kiva rows=kiva_ids stage=rank_stage null=null marks=set_marks stem="kiva" />
        <Show when=move || !kiva_ids.read().is_empty()>
            <few_items::PlannerPanel rows=computed_ids request=rank_request stem="kiva" />
            <few_items::QualityPanel rows=computed_ids request=rank_request stem="kiva" />
        </Show>
        <div class="lb-controls" role="radiogroup" aria-label="Chart stage">
            // The three stages: a static list.
            {(0..3).map(|i| view! {
                <label><input type="radio" name="kiva-stage" prop:checked=move || stage.get() == i
                    on:change=move |_| set_stage.set(i) />{move || format!(" {}", kiva_stages(joint.get())[i].1)}</label>
            }).collect_view()}
        </div>
        <ChartCanvas data=chart testid="kiva-chart" file_name="kiva-bars.png" label="KiVA grouped bars: accuracy by domain with ±1 SE, first rows of the table" />
        <Show when=move || any_computed.get() fallback=needs_two_rows>
            {crate::split::part(computed_sections(computed))}
        </Show>
    }
}

/// The notice shown where the comparison and the item analysis would be.
fn needs_two_rows() -> impl IntoView {
    view! { <p class="notice" data-testid="needs-two-rows">"The comparison and the item analysis need two computed rows or more: drop another KiVA run folder above to compare them stage by stage."</p> }
}

/// What the KiVA tab's sections over computed rows read and set.
#[derive(Clone, Copy)]
struct KivaComputed {
    /// The computed rows of the variant shown, as (row id, model).
    ids: Signal<Vec<(RowId, String)>>,
    /// Every computed row (both variants, a dropped adults file): the item analysis's.
    all: Signal<Vec<(RowId, String)>>,
    /// The challenge results shown (KiVA variant only).
    challenge: Signal<Vec<(RowId, String)>>,
    /// The trials' row.
    pick: RwSignal<Option<RowId>>,
    /// The compared rows.
    pair: RwSignal<(Option<RowId>, Option<RowId>)>,
    /// Joint "how" stage.
    joint: Signal<bool>,
}

/// The KiVA tab's sections over computed rows (trials, challenge trials, the comparison and
/// the item analysis) in a chunk of their own, fetched when the tab first has a computed row,
/// as the MM-IQ tab's `computed_sections`: the tab's table, which every visitor sees, is
/// shown without them (issue 42: a first visit to the tab fetched them on a slow link before
/// its table could show; BENCHMARKS.md, "First view on Fast 3G").
#[cfg_attr(feature = "split", leptos::lazy)]
async fn computed_sections(c: KivaComputed) -> AnyView {
    view! {
        <Show when=move || !c.ids.read().is_empty()>
            <KivaTrials rows=c.ids selected=c.pick joint=c.joint />
        </Show>
        <Show when=move || !c.challenge.read().is_empty()>
            <ChallengeTrials rows=c.challenge />
        </Show>
        <Show when=move || { c.ids.read().len() >= 2 } fallback=needs_two_rows>
            <CompareModels rows=c.ids pair=c.pair testid="kiva-compare" joint=c.joint />
            <crate::pages::items::ItemAnalysisSection rows=c.all benchmark="kiva" />
        </Show>
    }
    .into_any()
}
