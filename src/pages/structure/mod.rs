//! Structure (Gold): PLS-SEM analysis of a benchmark suite in the browser.
//!
//! Load a models x tasks matrix (drop a file, or Gold's Table 2), assign tasks to constructs,
//! and every change refits the model in the scoring worker (`sem.analyze`, which calls
//! `coglab_core::sem::analyze_parsed_with_progress`). All figures come from the core's report;
//! this page only lays them out.
//!
//! - `state.rs`: the page's state ([`StructureState`], a context): matrix, model, results,
//!   error;
//! - `actions.rs`: the async work (fits, files, Gold's table, the kept workspace) as actions
//!   that apply their results to the state ([`Actions`], a context beside it);
//! - `url.rs`: the view state kept in the address (the scores table's order);
//! - views: `editor.rs` (the model), `fidelity.rs` (the paper-fidelity switches),
//!   `results.rs` (the report), `scores.rs` (the scores table), `diagram.rs`, `heatmap.rs`
//!   (charts) and `export.rs` (PNG, CSV and JSON downloads).

mod actions;
mod diagram;
mod editor;
mod export;
mod fidelity;
mod heatmap;
mod results;
mod scores;
mod state;
mod url;

use leptos::prelude::*;

use crate::components::error_panel::ErrorPanel;
use actions::{picked_file, OpenSaved};
pub use actions::{Actions, WORKSPACE_KEY};
pub use editor::Editor;
pub use state::{Analysis, DataSet, ExportedReport, FitStatus, Opening, PageError, StructureState};

/// A figure to three decimals.
fn f3(v: f64) -> String {
    format!("{v:.3}")
}

/// A figure to three decimals, or "–" for none.
fn opt3(v: Option<f64>) -> String {
    v.map(f3).unwrap_or_else(|| "–".into())
}

/// The structure page in a WebAssembly chunk of its own, fetched when the page is first shown
/// (the route's view; [`crate::split::page`] shows a loading line until then).
pub fn lazy_page() -> AnyView {
    #[cfg_attr(feature = "split", leptos::lazy)]
    async fn structure() -> AnyView {
        view! { <Structure /> }.into_any()
    }
    crate::split::page(structure())
}

/// The structure page.
#[component]
pub fn Structure() -> impl IntoView {
    let state = StructureState::new();
    let actions = Actions::new(state);
    provide_context(state);
    provide_context(actions);
    actions.wire();
    let data = state.data;

    let on_file = move |ev: leptos::ev::Event| {
        let input: web_sys::HtmlInputElement = event_target(&ev);
        state.act();
        match picked_file(&input) {
            Some(Ok(file)) => {
                actions.load_matrix.dispatch_local(file);
            }
            Some(Err(e)) => state.fail("Could not read the score matrix", e),
            None => {}
        }
    };
    let on_report_file = move |ev: leptos::ev::Event| {
        let input: web_sys::HtmlInputElement = event_target(&ev);
        state.act();
        match picked_file(&input) {
            Some(Ok(file)) => {
                actions.open_saved.dispatch_local(OpenSaved {
                    source: crate::worker::api::SemSaved::File(file),
                    restoring: false,
                });
            }
            Some(Err(e)) => state.fail("Could not load the report", e),
            None => {}
        }
    };
    let on_default = move |_| {
        state.act();
        actions.load_default.dispatch_local(true);
    };

    view! {
        <section data-testid="page-structure" class="structure">
            <h1>"Benchmark structure (Gold)"</h1>
            <p class="lead">
                "Fit a PLS-SEM model to a models × tasks score matrix: which tasks are redundant (VIF), \
                 weak (loadings), whether the abilities are separable (HTMT), and what a pruned, \
                 loading-weighted suite would rank. Everything runs in this tab."
            </p>
            <div class="card st-data">
                <h2>"1. Score matrix"</h2>
                <div class="st-row">
                    <button type="button" data-testid="load-default" on:click=on_default>
                        "Use Gold Table 2 (10 models × 11 tasks)"
                    </button>
                    <label class="file-label">
                        "Load CSV / TSV / JSON (incl. OpenVLM): "
                        <input type="file" data-testid="data-file" accept=".csv,.tsv,.txt,.json" on:change=on_file />
                    </label>
                    <label class="file-label">
                        "Load a saved report: "
                        <input type="file" data-testid="report-file" accept=".json" on:change=on_report_file />
                    </label>
                </div>
                <p data-testid="data-summary" class="muted">
                    {move || match data.get() {
                        Some(d) => format!("{}: {} models, {} numeric columns", d.name, d.models.len(), d.columns.len()),
                        None => "No matrix loaded yet.".into(),
                    }}
                </p>
            </div>
            {move || state.error.get().map(|e| view! { <ErrorPanel title=e.title message=e.message /> })}
            <Editor />
            <results::Results />
        </section>
    }
}
