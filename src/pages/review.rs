//! Review: read result files item by item and re-score judge outputs by hand, offline.

use leptos::prelude::*;

/// The review page. Not built yet; the page says what it will do.
#[component]
pub fn Review() -> impl IntoView {
    view! {
        <section data-testid="page-review">
            <h1>"Review results offline"</h1>
            <p class="notice" role="status">
                "Not available yet. This page will open MM-OPERA judge outputs (and MM-IQ and \
                 KiVA items), let you score a seeded sample by hand with the keyboard, save every \
                 score as you type, and show live agreement between you and the judge."
            </p>
        </section>
    }
}
