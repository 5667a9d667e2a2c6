//! Self-test (KiVA): take visual-analogy trials and compare with children, adults and models.

use leptos::prelude::*;

/// The self-test page. The trial runner is not built yet; the page says what it will do.
#[component]
pub fn SelfTest() -> impl IntoView {
    view! {
        <section data-testid="page-self-test">
            <h1>"Self-test: KiVA visual analogies"</h1>
            <p class="notice" role="status">
                "Not available yet. This page will run KiVA-style trials in three stages \
                 (what changed, how it changed, apply the rule), time each answer in \
                 milliseconds, save every answer as you give it, and show your accuracy per \
                 domain beside adults, children and models."
            </p>
        </section>
    }
}
