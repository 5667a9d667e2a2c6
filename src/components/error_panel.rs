//! A panel showing a located error message (file, line, field) without breaking the page.

use leptos::prelude::*;

/// Shows an error message in an alert panel.
#[component]
pub fn ErrorPanel(
    /// Short heading, e.g. "Could not load MM-IQ results".
    #[prop(into)]
    title: String,
    /// The error's `Display` text.
    #[prop(into)]
    message: String,
) -> impl IntoView {
    view! {
        <div class="error-panel" role="alert" data-testid="error-panel">
            <strong>{title}</strong>
            <pre>{message}</pre>
        </div>
    }
}
