//! A panel showing a located error message (file, line, field) without breaking the page.

use leptos::prelude::*;

use crate::worker::api::WorkerError;

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

/// How a page gets back what an ended scoring worker kept (the leaderboard scores its kept
/// files again and reloads the published bundle), provided as context by the page that can.
/// [`WorkerErrorPanel`] offers it beside a [`WorkerError::Stale`].
#[derive(Clone, Copy)]
pub struct RestoreWorkerData(pub Callback<()>);

/// Shows why a worker request failed. For data that went with an ended worker
/// ([`WorkerError::Stale`]) it offers, in one click, the page's [`RestoreWorkerData`].
#[component]
pub fn WorkerErrorPanel(
    /// Short heading, e.g. "Could not load the items".
    #[prop(into)]
    title: String,
    /// The error.
    error: WorkerError,
) -> impl IntoView {
    let restore = use_context::<RestoreWorkerData>()
        .filter(|_| matches!(error, WorkerError::Stale { .. }))
        .map(|RestoreWorkerData(cb)| {
            view! {
                <button type="button" data-testid="restore-worker-data"
                    on:click=move |_| cb.run(())>"Restore the rows"</button>
            }
        });
    view! {
        <div class="error-panel" role="alert" data-testid="error-panel"
            data-stale=matches!(error, WorkerError::Stale { .. }).to_string()>
            <strong>{title}</strong>
            <pre>{error.to_string()}</pre>
            {restore}
        </div>
    }
}
