//! Structure (Gold): PLS-SEM analysis of a benchmark suite in the browser.

use leptos::prelude::*;

/// The structure page. Not built yet; the page says what it will do.
#[component]
pub fn Structure() -> impl IntoView {
    view! {
        <section data-testid="page-structure">
            <h1>"Benchmark structure (Gold)"</h1>
            <p class="notice" role="status">
                "Not available yet. This page will fit a PLS-SEM model to a models × tasks score \
                 matrix and show loadings, VIF, HTMT, reliability, the pruning steps and \
                 SEM-weighted overall scores. The Gold paper's reported diagnostics are on the \
                 Leaderboard page under Gold."
            </p>
        </section>
    }
}
