//! Item analysis of a benchmark's computed rows (issue 22), a section of the leaderboard tab
//! reached with its "Item analysis" button when two or more rows are computed. Everything is
//! computed in the scoring worker ([`api::ItemAnalysis`]: core `items::rows`, `items::analyse`,
//! `items::report`); this renders the returned [`ItemsReport`]:
//! - [`table`]: the sortable item table with its flags, and the respondents' abilities with
//!   their intervals;
//! - [`charts`]: item characteristic curves, test information, the reduced subset's tau curve;
//! - CSV and JSON export of what the worker returned (the CSV text is the core's).

use crate::worker::api::RowId;
use coglab_core::items::{IrtModel, ItemsReport};
use leptos::prelude::*;

use crate::components::error_panel::WorkerErrorPanel;
use crate::download::download_text;
use crate::worker::api;
use crate::worker::client::use_worker;

pub mod charts;
pub mod table;

/// The item-analysis section for the computed rows of one benchmark.
#[component]
pub fn ItemAnalysisSection(
    /// Computed rows of the benchmark, as (row id, model name).
    #[prop(into)]
    rows: Signal<Vec<(RowId, String)>>,
    /// Benchmark key (`mmiq`, `kiva`, `mmopera`): options shown and file names.
    benchmark: &'static str,
) -> impl IntoView {
    let open = RwSignal::new(false);
    let model = RwSignal::new(IrtModel::TwoPl);
    let humans = RwSignal::new(true);
    let threshold = RwSignal::new(3.0f64);
    let client = StoredValue::new_local(use_worker());
    let run = Action::new_local(move |req: &api::ItemAnalysis| {
        let (c, req) = (client.get_value(), req.clone());
        async move { c.call(req).await.map(|r| (r.analysis, r.report.0)) }
    });
    let start = move || {
        run.dispatch(api::ItemAnalysis {
            rows: rows.get_untracked(),
            model: model.get_untracked(),
            include_humans: humans.get_untracked(),
            threshold: threshold.get_untracked(),
            curves_for: Vec::new(),
        });
    };
    // Rows given back after their worker ended (new ids, same models): an analysis that
    // failed because its rows were stale runs again on them. (While they are restored the
    // board has no rows for a moment; that is not a new set of rows.)
    Effect::new(move |before: Option<Vec<(RowId, String)>>| {
        let now = rows.get();
        if now.is_empty() {
            return before.unwrap_or_default();
        }
        let stale = run
            .value()
            .with_untracked(|v| matches!(v, Some(Err(api::WorkerError::Stale { .. }))));
        if before.is_some_and(|b| b != now) && open.get_untracked() && stale {
            start();
        }
        now
    });
    let report = Memo::new(move |_| run.value().get().and_then(Result::ok));
    let error = move || run.value().get().and_then(Result::err);
    view! {
        <section class="lb-items" data-testid="item-analysis" aria-labelledby="lb-items-h">
            <h2 class="lb-subhead" id="lb-items-h">"Item analysis"</h2>
            <Show when=move || open.get()
                fallback=move || view! {
                    <p>
                        <button type="button" data-testid="items-open" on:click=move |_| {
                            open.set(true);
                            start();
                        }>"Item analysis"</button>
                        {move || format!(" of the {} computed rows: item difficulty and \
                            discrimination, Rasch/2PL fit, S-X2 item fit, suspect items and a \
                            reduced subset.", rows.read().len())}
                    </p>
                }>
                <div class="lb-controls" role="group" aria-label="Item analysis options">
                    <label>"Model "
                        <select data-testid="items-model" on:change=move |ev| {
                            model.set(if event_target_value(&ev) == "rasch" { IrtModel::Rasch } else { IrtModel::TwoPl });
                        }>
                            <option value="2pl" selected=move || model.get() == IrtModel::TwoPl>"2PL"</option>
                            <option value="rasch" selected=move || model.get() == IrtModel::Rasch>"Rasch"</option>
                        </select>
                    </label>
                    {(benchmark == "kiva").then(|| view! {
                        <label><input type="checkbox" data-testid="items-humans"
                            prop:checked=move || humans.get()
                            on:change=move |ev| humans.set(event_target_checked(&ev)) />
                            " Include the adults (a dropped human_adults_KiVA.csv)"</label>
                    })}
                    {(benchmark == "mmopera").then(|| view! {
                        <label>"Right when the mean score ≥ "
                            <input type="number" min="0" max="4" step="0.5" data-testid="items-threshold"
                                prop:value=move || threshold.get().to_string()
                                on:change=move |ev| {
                                    if let Ok(v) = event_target_value(&ev).parse() { threshold.set(v) }
                                } /></label>
                    })}
                    <button type="button" data-testid="items-run" disabled=move || run.pending().get()
                        on:click=move |_| start()>"Analyse"</button>
                    // Always in the row, shown while a fit is out: a line that came and went
                    // above the report moved it, and drawing it again was a 40-57 ms frame on
                    // every run again (issue 22).
                    <span class="lb-busy" role="status" data-testid="items-busy"
                        aria-busy=move || run.pending().get().to_string()
                        aria-hidden=move || (!run.pending().get()).to_string()
                        class:idle=move || !run.pending().get()>"Fitting in the scoring worker…"</span>
                </div>
                {move || error().map(|e| view! { <WorkerErrorPanel title="Could not analyse the items" error=e /> })}
                {move || report.get().map(|(analysis, r)| view! { <ReportView analysis report=r benchmark=benchmark /> })}
            </Show>
        </section>
    }
}

/// One item analysis: summary, notes, exports, charts and tables.
#[component]
fn ReportView(
    /// The worker's kept analysis, for more item curves.
    analysis: api::AnalysisId,
    /// The worker's report.
    report: ItemsReport,
    /// Benchmark key, for file names.
    benchmark: &'static str,
) -> impl IntoView {
    let report = StoredValue::new(report);
    provide_context(charts::PickedItems(RwSignal::new(Vec::new())));
    let summary = report.with_value(|r| {
        let model = match r.model {
            IrtModel::Rasch => "Rasch",
            IrtModel::TwoPl => "2PL",
        };
        let flagged = r.items.iter().filter(|i| !i.flags.is_empty()).count();
        format!(
            "{} respondents × {} items. {model} {} after {} EM cycles (log-likelihood {:.2}). \
             Cronbach's α {} on {} complete respondents. {flagged} items flagged.",
            r.respondents.len(),
            r.items.len(),
            if r.converged {
                "converged"
            } else {
                "did not converge"
            },
            r.iterations,
            r.log_likelihood,
            r.alpha.map_or("–".into(), |a| format!("{a:.3}")),
            r.alpha_n,
        )
    });
    let subset = report.with_value(|r| {
        r.subset.as_ref().map(|s| match s.size {
            Some(k) => format!(
                "Reduced subset: {k} of {} items keep Kendall τ ≥ {} with the full ranking of {} respondents.",
                s.total, s.target_tau, s.ranked
            ),
            None => format!(
                "Reduced subset: no subset keeps Kendall τ ≥ {} (the full scores may be tied).",
                s.target_tau
            ),
        })
    });
    let notes = report.with_value(|r| r.notes.clone());
    // The two tables (about 1,000 elements) are drawn after the first frame of the report, in
    // a task of their own: drawn with it, the report was one main-thread task of 65-90 ms, and
    // its first layout another (issue 22's bench, 2,710 items).
    let tables = RwSignal::new(false);
    crate::components::after_next_frame(move || {
        let _ = tables.try_set(true);
    });
    let export = move |what: &'static str| {
        report.with_value(|r| match what {
            "items" => download_text(
                &format!("{benchmark}-items.csv"),
                "text/csv",
                &r.items_csv(),
            ),
            "respondents" => download_text(
                &format!("{benchmark}-respondents.csv"),
                "text/csv",
                &r.respondents_csv(),
            ),
            _ => {
                if let Ok(json) = serde_json::to_string_pretty(r) {
                    download_text(
                        &format!("{benchmark}-item-analysis.json"),
                        "application/json",
                        &json,
                    );
                }
            }
        })
    };
    view! {
        <p data-testid="items-summary">{summary}</p>
        {subset.map(|s| view! { <p data-testid="items-subset">{s}</p> })}
        <ul class="notes" data-testid="items-notes">
            {notes.into_iter().map(|n| view! { <li>{n}</li> }).collect_view()}
        </ul>
        <div class="lb-controls" role="group" aria-label="Export">
            <button type="button" data-testid="items-export-items" on:click=move |_| export("items")>"Items CSV"</button>
            <button type="button" data-testid="items-export-respondents" on:click=move |_| export("respondents")>"Respondents CSV"</button>
            <button type="button" data-testid="items-export-json" on:click=move |_| export("json")>"JSON"</button>
        </div>
        <charts::ReportCharts analysis report=report />
        {move || tables.get().then(|| view! {
            <table::ItemTable report=report />
            <table::RespondentTable report=report />
        })}
    }
}
