//! How the app's split points are shown: pages that a visitor's first page does not need are
//! each in a WebAssembly chunk of their own, fetched when the page (or leaderboard tab) is first
//! shown.
//!
//! The split points sit beside what they load, as in Leptos' `lazy_routes` example: the
//! `lazy_page` of each routed page (self-test, review, structure), the `lazy_tab` of each
//! leaderboard tab but MM-IQ, and the MM-IQ tab's `computed_sections` hold a Leptos `#[lazy]`
//! function (under the `split` feature, which Trunk's build turns on, see index.html) and hand
//! its call to [`page`] or [`part`].
//! `wasm-split-cli` cuts the linked module at these points before wasm-bindgen runs
//! (scripts/wasm-split.sh), and the service worker keeps the chunks for offline use like every
//! other file. Without the feature (the in-browser tests) they are plain async functions in the
//! one module. The extern import and static loader that `#[lazy]` generates are macro code from
//! another crate, which the `unsafe_code` lint does not look into: the crate forbids unsafe
//! code with no exception, and the lint stage checks the `split` build too.
//!
//! Points are cut at routes and tabs, and finer only where a point was measured to pay for
//! itself: the MM-IQ tab's sections over computed rows (`computed_sections` in
//! `pages/leaderboard/mmiq.rs`, with the figures) are one, its paired-ranks panel is no longer.

use std::future::Future;

use leptos::prelude::*;

/// A page shown once its chunk is there, with a loading line until then.
pub fn page<F>(load: F) -> AnyView
where
    F: Future<Output = AnyView> + 'static,
{
    // Its stylesheet may be among those held back for the first view.
    crate::later_css::load();
    show(load, || {
        view! { <p class="page-loading" role="status" data-testid="page-loading">"Loading the page…"</p> }
            .into_any()
    })
}

/// A part of a page shown once its chunk is there, with a short loading line until then.
pub fn part<F>(load: F) -> AnyView
where
    F: Future<Output = AnyView> + 'static,
{
    show(load, || {
        view! { <p class="loading" aria-busy="true">"Loading…"</p> }.into_any()
    })
}

/// Shows `fallback` until `load` (a split point's call) has given its view. The view is built
/// under the current owner, and the load is dropped with that owner: leaving the page before
/// its chunk arrived builds nothing (`Suspend` would build it in the disposed owner).
fn show<F>(load: F, fallback: fn() -> AnyView) -> AnyView
where
    F: Future<Output = AnyView> + 'static,
{
    let slot = RwSignal::new_local(None::<AnyView>);
    let loading = crate::quiet::Loading::start();
    leptos::task::spawn_local_scoped_with_cancellation(async move {
        let _loading = loading;
        let view = load.await;
        slot.set(Some(view));
    });
    (move || {
        slot.track();
        slot.try_update_untracked(Option::take)
            .flatten()
            .unwrap_or_else(fallback)
    })
    .into_any()
}
