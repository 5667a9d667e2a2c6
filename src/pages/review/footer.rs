//! The page's footer: whether everything is saved, how much this browser stores, and
//! forgetting the workspace (with a confirmation).

use leptos::prelude::*;

use super::state::ReviewState;

/// The save status, the storage line and the Forget button.
#[component]
pub fn Footer() -> impl IntoView {
    let state = expect_context::<ReviewState>();
    let saving = state.actions.save.pending();
    let (confirm_forget, set_confirm_forget) = signal(false);
    // Forgotten: the confirmation closes.
    Effect::new(move || {
        if state.forgotten.get() {
            set_confirm_forget.set(false);
        }
    });
    view! {
        <div class="review-footer">
            <p class="muted" data-testid="save-status" role="status">
                {move || {
                    if !state.restored() {
                        "Reading the saved workspace…".to_string()
                    } else if saving.get() {
                        "Saving…".to_string()
                    } else if state.store.with(|s| s.error().is_some()) {
                        "Not saved: see the error above.".to_string()
                    } else {
                        "All changes saved in this browser.".to_string()
                    }
                }}
                {move || state.quota.get().map(|q| view! { " "<span data-testid="storage-line">{format!("{q}.")}</span> })}
            </p>
            <Show when=move || !confirm_forget.get()
                fallback=move || view! {
                    <div class="forget-confirm" role="group" aria-label="Confirm forgetting">
                        <span>"Delete the loaded files and all scores and notes from this browser? \
                               Export first if you want to keep them. The app's offline copy is kept."</span>
                        <button type="button" class="danger" data-testid="forget-confirm"
                            on:click=move |_| { state.actions.forget.dispatch_local(()); }>"Forget"</button>
                        <button type="button" on:click=move |_| set_confirm_forget.set(false)>"Cancel"</button>
                    </div>
                }>
                <button type="button" data-testid="forget" on:click=move |_| {
                    state.forgotten.set(false);
                    set_confirm_forget.set(true);
                }>"Forget this workspace…"</button>
            </Show>
        </div>
    }
}
