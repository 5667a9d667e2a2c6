//! Review: read result files item by item and re-score judge outputs by hand, offline.
//!
//! Files are loaded here (drop zone or picker) and kept in the local store (area `review`);
//! the review workspace (chosen set, sample, position, every score and note) is written to the
//! store after every change, so a reload or a crash loses nothing. All numbers (sample,
//! agreement, exports, merges) come from `coglab_core::review`.
//!
//! - `state.rs`: the page's one context ([`ReviewState`]): files, sets, workspace, store status;
//! - `actions.rs`: the async work (store, worker) as actions that apply their results;
//! - `url.rs`: the set and item on screen, kept in the address;
//! - views: `files.rs` (drop zone, file list), `setup.rs` (set and sample), `item.rs` (the item
//!   and its editor), `agreement.rs` (agreement with the judge), `io.rs` (export, import) and
//!   `footer.rs` (save status, forget).

mod actions;
mod agreement;
mod files;
mod footer;
mod io;
mod item;
mod setup;
mod state;
mod url;

use leptos::prelude::*;

use crate::components::error_panel::ErrorPanel;
pub use actions::{Actions, AREA, WORKSPACE_KEY};
pub use state::{LoadedFile, ReviewState, StoreStatus};
pub use url::ReviewQuery;

/// The review page in a WebAssembly chunk of its own, fetched when the page is first shown
/// (the route's view; [`crate::split::page`] shows a loading line until then).
pub fn lazy_page() -> AnyView {
    #[cfg_attr(feature = "split", leptos::lazy)]
    async fn review() -> AnyView {
        view! { <Review /> }.into_any()
    }
    crate::split::page(review())
}

/// The review page: load files, pick a set and a sample, score item by item with the
/// keyboard, watch agreement with the judge, export/import, forget.
#[component]
pub fn Review() -> impl IntoView {
    let state = ReviewState::new();
    provide_context(state);
    state.actions.wire(state.targets());
    url::sync(state);

    view! {
        <section class="review" data-testid="page-review">
            <h1>"Review judge outputs"</h1>
            <p class="lede">
                "Re-score a sample of items by hand and compare with the judge. Everything stays \
                 in this browser and is saved as you type; after one visit the page also works \
                 offline."
            </p>
            {move || state.store.with(|s| s.error().map(str::to_string)).map(|e| view! {
                <ErrorPanel title="Local storage problem" message=e />
            })}
            <files::DropZone />
            <Show when=move || state.forgotten.get()>
                <p class="notice" role="status" data-testid="forgotten">
                    "Workspace forgotten: the files and every score were deleted from this browser. \
                     The app itself stays cached, so it still opens offline."
                </p>
            </Show>
            <setup::SetPicker />
            <Show when=move || state.current.with(Option::is_some)>
                <div class="review-layout">
                    <Show when=move || state.review.with(Option::is_some)
                        fallback=|| view! {
                            <p class="notice" data-testid="review-start-hint">
                                "Choose the items above and press Start review, or import a review you exported."
                            </p>
                        }>
                        <item::ItemPanel />
                    </Show>
                    <aside class="review-side">
                        <Show when=move || state.review.with(Option::is_some)>
                            <agreement::AgreementPanel />
                        </Show>
                        <io::ExportImport />
                    </aside>
                </div>
            </Show>
            <footer::Footer />
        </section>
    }
}
