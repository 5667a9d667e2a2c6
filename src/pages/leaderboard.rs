//! Leaderboard: the results reported in the four papers, one tab per benchmark.

use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

use crate::components::error_panel::ErrorPanel;
use crate::components::reported_table::ReportedTableView;
use crate::data::{base_path, load_reported, BENCHMARKS};

/// The leaderboard page; the selected benchmark is the `b` query parameter (default MM-IQ).
#[component]
pub fn Leaderboard() -> impl IntoView {
    let query = use_query_map();
    let selected = Memo::new(move |_| {
        let b = query.read().get("b").unwrap_or_default();
        BENCHMARKS
            .iter()
            .find(|(k, _)| *k == b)
            .map_or("mmiq", |(k, _)| *k)
    });
    let bundle = LocalResource::new(move || async move {
        match selected.get() {
            "kiva" => Err(String::new()),
            key => load_reported(key).await,
        }
    });
    let base = base_path();
    let tabs = BENCHMARKS
        .iter()
        .map(|(key, name)| {
            let href = format!("{base}/leaderboard?b={key}");
            let current = move || (selected.get() == *key).then_some("page");
            view! {
                <a href=href role="tab" aria-selected=move || (selected.get() == *key).to_string()
                    aria-current=current data-testid=format!("tab-{key}")>{*name}</a>
            }
        })
        .collect_view();
    view! {
        <section data-testid="page-leaderboard">
            <h1>"Leaderboard"</h1>
            <p class="lede">"Results as reported in each benchmark's paper. Click a column \
                header to sort. Computed rows from your own result files come next."</p>
            <div class="tabs" role="tablist" aria-label="Benchmark">{tabs}</div>
            <div class="tab-panel" role="tabpanel">
                {move || match (selected.get(), bundle.get()) {
                    ("kiva", _) => view! {
                        <p class="notice" role="status" data-testid="kiva-reported-note">
                            "The KiVA paper reports its results as figures (per-domain bar \
                             charts), not as tables of numbers, so there is no reported KiVA table \
                             to show. KiVA scores computed from the benchmark's own model-run \
                             files appear here once result files can be loaded."
                        </p>
                    }.into_any(),
                    (_, None) => view! { <p class="loading" aria-busy="true">"Loading…"</p> }.into_any(),
                    (_, Some(Err(e))) => view! {
                        <ErrorPanel title="Could not load the reported results" message=e />
                    }.into_any(),
                    (_, Some(Ok(b))) => b.tables.into_iter()
                        .map(|t| view! { <ReportedTableView table=t /> })
                        .collect_view().into_any(),
                }}
            </div>
        </section>
    }
}
