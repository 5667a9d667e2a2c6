//! The app's split points: pages that a visitor's first page does not need, each moved into a
//! WebAssembly chunk of its own that is fetched when the page is first shown.
//!
//! Each function here is a Leptos `#[lazy]` function under the `split` feature (Trunk's build,
//! see index.html): `wasm-split-cli` cuts the linked module at these points before
//! wasm-bindgen runs (scripts/wasm-split.sh), and the service worker keeps the chunks for
//! offline use like every other file. Without the feature (the in-browser tests, native checks)
//! they are plain async functions in the one module. [`page`] shows one while its chunk loads.
#![allow(unsafe_code)] // `#[lazy]` generates an extern import and a static loader per point

use crate::worker::api::RowId;
use std::future::Future;

use coglab_core::ranks::Bench;
use leptos::prelude::*;

use crate::components::rank_panel::{RankMarks, RankPanel};
use crate::pages::leaderboard::Bundle;

/// A page shown once its chunk is there, with a loading line until then.
pub fn page<F>(load: F) -> AnyView
where
    F: Future<Output = AnyView> + 'static,
{
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
    leptos::task::spawn_local_scoped_with_cancellation(async move {
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

/// The self-test page (KiVA trials, stimuli, results).
#[cfg_attr(feature = "split", leptos::lazy)]
pub async fn self_test() -> AnyView {
    view! { <crate::pages::selftest::SelfTest /> }.into_any()
}

/// The review page (items, judge scores, agreement).
#[cfg_attr(feature = "split", leptos::lazy)]
pub async fn review() -> AnyView {
    view! { <crate::pages::review::Review /> }.into_any()
}

/// The structure page (Gold's PLS-SEM analysis).
#[cfg_attr(feature = "split", leptos::lazy)]
pub async fn structure() -> AnyView {
    view! { <crate::pages::structure::Structure /> }.into_any()
}

/// The leaderboard's KiVA tab (its rows and view from the page's context).
#[cfg_attr(feature = "split", leptos::lazy)]
pub async fn kiva_tab() -> AnyView {
    view! { <crate::pages::leaderboard::kiva::KivaTab /> }.into_any()
}

/// The leaderboard's MM-OPERA tab.
#[cfg_attr(feature = "split", leptos::lazy)]
pub async fn mmopera_tab(bundle: Bundle) -> AnyView {
    view! { <crate::pages::leaderboard::mmopera::MmoperaTab bundle=bundle /> }.into_any()
}

/// The leaderboard's Gold tab.
#[cfg_attr(feature = "split", leptos::lazy)]
pub async fn gold_tab(bundle: Bundle) -> AnyView {
    view! { <crate::pages::leaderboard::gold::GoldTab bundle=bundle /> }.into_any()
}

/// Fetches the chunks of the MM-IQ tab's sections over computed rows ([`mmiq_ranks`],
/// [`mmiq_computed`]) without showing them, for a page where MM-IQ files were just staged: the
/// sections are then there with the first computed row. Without this, their 40-odd chunk
/// fetches (through the service worker) came in the same moment as the scores, on a 2-core
/// machine taking the CPU the page needed to show the row (`tests/e2e/leaderboard.test.mjs`'s
/// 100k benchmark). Without the `split` feature there is nothing to fetch.
pub fn preload_mmiq_sections() {
    #[cfg(feature = "split")]
    {
        leptos::task::spawn_local(__preload_mmiq_ranks());
        leptos::task::spawn_local(__preload_mmiq_computed());
    }
}

/// The MM-IQ tab's paired ranks, once it has computed rows.
#[cfg_attr(feature = "split", leptos::lazy)]
pub async fn mmiq_ranks(
    rows: Signal<Vec<(RowId, String)>>,
    marks: WriteSignal<RankMarks>,
) -> AnyView {
    view! { <RankPanel bench=Bench::Mmiq rows=rows marks=marks stem="mmiq" /> }.into_any()
}

/// The MM-IQ tab's sections over computed rows: model page, comparison, item analysis.
#[cfg_attr(feature = "split", leptos::lazy)]
pub async fn mmiq_computed(
    ids: Signal<Vec<(RowId, String)>>,
    model_pick: RwSignal<Option<RowId>>,
    pair: RwSignal<(Option<RowId>, Option<RowId>)>,
) -> AnyView {
    view! {
        <crate::pages::leaderboard::mmiq::MmiqComputed ids=ids model_pick=model_pick pair=pair />
    }
    .into_any()
}
