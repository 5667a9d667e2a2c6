//! Leaderboard: one table per benchmark with the results reported in the papers, rows computed
//! in the browser from result files the user drops (scored in the worker by `coglab-core`, which
//! keeps the item-level data), and baselines; charts, a model page and comparisons.
//!
//! The page's parts: [`state`] (the one context, [`BoardState`]), [`url`] (the view in the
//! address), [`actions`] (worker and store calls), [`board`] (the tables built from the
//! core's values), the drop zone ([`drop_zone`], [`staged`], [`files`]), the submission check
//! ([`submission`]), the parts over few items (estimates, planner, benchmark quality:
//! [`few_items`]) and one file per tab ([`mmiq`], [`kiva`], [`mmopera`], [`gold`]; all but
//! MM-IQ load in chunks of their own, each tab's `lazy_tab`, see [`crate::split`]).

use leptos::prelude::*;

use crate::components::audit_panel::AuditPanel;
use crate::components::error_panel::{ErrorPanel, RestoreWorkerData};
use crate::components::reported_table::ReportedTableView;
use crate::data::{base_path, load_reported, BENCHMARKS};
use crate::worker::client::{latest_reply, LatestReply};

mod actions;
mod board;
pub use board::static_html;
mod chart;
mod drop_zone;
mod few_items;
mod fidelity;
mod files;
pub(crate) mod gold;
pub(crate) mod kiva;
pub(crate) mod mmiq;
pub(crate) mod mmopera;
mod staged;
mod state;
mod submission;
mod url;

use actions::PageActions;
use drop_zone::DropZone;
use mmiq::MmiqTab;
use state::BoardState;
use submission::SubmissionCheck;

/// The reported results bundle of the benchmark shown.
pub(crate) type Bundle =
    LatestReply<&'static str, Result<coglab_core::reported::ReportedBundle, String>>;

/// The leaderboard page; the selected benchmark is the `b` query parameter (default MM-IQ);
/// the table's view (sort, filters, columns, compact mode) lives in the query string too.
#[component]
pub fn Leaderboard() -> impl IntoView {
    let state = BoardState::provide();
    let selected = Memo::new(move |_| state.query.with(|q| q.bench()));
    let bundle: Bundle = latest_reply(
        move || selected.get(),
        |key| async move {
            match key {
                "kiva" => Err(String::new()),
                key => load_reported(key).await,
            }
        },
    );
    let actions = PageActions::new(state);
    let restore_worker = Callback::new(move |()| {
        actions.restore_worker.dispatch_local(());
    });
    provide_context(RestoreWorkerData(restore_worker));
    actions.published.dispatch_local(());
    actions.warm_when_staged(state);
    actions.restore.dispatch_local(());
    let base = base_path();
    // The tabs are fixed: a static list.
    let tabs = BENCHMARKS
        .iter()
        .map(|(key, name)| {
            let href = format!("{base}/leaderboard?b={key}");
            let current = move || (selected.get() == *key).then_some("page");
            view! {
                <a href=href role="tab" aria-selected=move || (selected.get() == *key).to_string()
                    aria-current=current data-testid=format!("tab-{key}")
                    on:click=move |ev: leptos::ev::MouseEvent| {
                        ev.prevent_default();
                        state.set_url(|q| q.bench = Some(*key));
                    }>{*name}</a>
            }
        })
        .collect_view();
    let client = state.client;
    view! {
        <section data-testid="page-leaderboard" class="leaderboard">
            <h1>"Leaderboard"</h1>
            <p class="lede">"Results as reported in each benchmark's paper, rows computed in your \
                browser from result files you drop below, and baselines, in one table per \
                benchmark. Click a column header to sort; tap or click a number (or press Enter on \
                it) for its interval, and a header's i for its definition."</p>
            <DropZone
                on_files=Callback::new(move |files| { actions.stage.dispatch_local(files); })
                on_score=Callback::new(move |()| { actions.score.dispatch_local(()); })
                on_cancel=Callback::new(move |()| client.get_value().cancel())
                on_forget=Callback::new(move |one| { actions.forget.dispatch_local(one); }) />
            <StaleRows restore=restore_worker busy=actions.restore_worker.pending() />
            <AuditPanel rows=Signal::derive(move || {
                state.published.index.with(|p| p.as_ref().map(|i| i.audit.clone()).unwrap_or_default())
            }) />
            <SubmissionCheck />
            <div class="tabs" role="tablist" aria-label="Benchmark">{tabs}</div>
            <div class="tab-panel" role="tabpanel">
                {move || match selected.get() {
                    "mmiq" => view! { <MmiqTab bundle=bundle /> }.into_any(),
                    "kiva" => kiva::lazy_tab(),
                    "mmopera" => mmopera::lazy_tab(bundle),
                    "gold" => gold::lazy_tab(bundle),
                    _ => ().into_any(),
                }}
                {move || match (selected.get(), bundle.get()) {
                    ("kiva" | "mmiq", _) => ().into_any(),
                    (_, None) => view! { <p class="loading" aria-busy="true">"Loading…"</p> }.into_any(),
                    (_, Some(Err(e))) => view! {
                        <ErrorPanel title="Could not load the reported results" message=e />
                    }.into_any(),
                    (_, Some(Ok(b))) => view! {
                        <h2 class="lb-subhead">"Reported in the paper"</h2>
                        {b.paper.clone().map(|p| view! {
                            <p class="source" data-testid="paper-cite">
                                <cite>{p.title.clone()}</cite>{format!(" ({}). ", p.venue_year())}
                                <a href=p.url.clone() target="_blank" rel="noopener">"Project page and code"</a>
                            </p>
                        })}
                        // The paper's tables: a static list.
                        {b.tables.into_iter()
                            .map(|t| view! { <ReportedTableView table=t /> })
                            .collect_view()}
                    }.into_any(),
                }}
            </div>
        </section>
    }
}

/// The one notice for rows whose worker has ended (a Cancel, a crash, the browser ending it):
/// their figures stay on the page; their items, comparisons, ranks and item analysis come back
/// with one click, which scores the kept files again and reads the published bundle again.
#[component]
fn StaleRows(
    /// Gets the rows back.
    restore: Callback<()>,
    /// Whether that is running.
    busy: Memo<bool>,
) -> impl IntoView {
    let state = BoardState::get();
    let count = Memo::new(move |_| state.stale_rows());
    view! {
        <Show when=move || { count.get() > 0 && !matches!(state.scoring.get(), state::ScoreStatus::Scoring(_)) }>
            <div class="notice stale-rows" role="status" data-testid="stale-rows">
                <p>{move || format!(
                    "The scoring worker was stopped, and the item data of {} {} on this page \
                     went with it: their figures stay, but their model pages, comparisons, \
                     ranks and item analysis need them scored again.",
                    count.get(),
                    if count.get() == 1 { "row" } else { "rows" }
                )}</p>
                <button type="button" data-testid="stale-restore" disabled=move || busy.get()
                    on:click=move |_| restore.run(())>
                    {move || if busy.get() { "Restoring…" } else { "Restore the rows" }}
                </button>
            </div>
        </Show>
    }
}
