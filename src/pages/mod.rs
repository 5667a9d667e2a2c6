//! The app's pages, one per route.
//!
//! **One async style.** Work a page starts (scoring files, fitting a model, reading or keeping
//! a file) is a Leptos [`Action`] whose future applies its own result to the page's state
//! ([`applying`]); `pending()` says whether it runs. A reply that only follows the state (a
//! model page's items, a range check, a comparison) is [`latest_reply`], remade whenever what
//! it reads changes. No effect copies an action's value into other signals: the Leptos book
//! advises against writing signals from effects (an effect runs after the change that woke
//! it, so what it writes comes a step late, and a write can wake effects again), and its
//! examples read an action's value in the view or let the action's future do the work. A late
//! answer to an earlier start is dropped in both ([`Latest`]).
//!
//! [`latest_reply`]: crate::worker::client::latest_reply

use std::future::Future;

use leptos::prelude::*;

use crate::worker::client::Latest;

pub mod home;
pub mod items;
pub mod leaderboard;
pub mod not_found;
pub mod review;
pub mod selftest;
pub mod structure;

/// Shows `to` (a path below the base path, with its query: `"/review?item=3"`) as a change of
/// view: the current history entry is replaced (Back leaves the page instead of undoing each
/// setting) and the window does not scroll. Call it where the router is in context (a
/// component, its effects and event handlers).
pub(crate) fn set_view(to: &str) {
    let navigate = leptos_router::hooks::use_navigate();
    navigate(
        to,
        leptos_router::NavigateOptions {
            replace: true,
            scroll: false,
            ..Default::default()
        },
    );
}

/// An action whose future runs `work` and hands its output to `apply`, which puts it on the
/// page: only for the latest dispatch (a late output of an earlier one is dropped, as an
/// action's `value()` drops it) and only while the page is there. The future holds no `Send`
/// bound: the worker's client, browser files and blobs are not `Send`.
pub(crate) fn applying<I, O, Fut>(
    work: impl Fn(&I) -> Fut + 'static,
    apply: impl Fn(O) + Copy + 'static,
) -> Action<I, ()>
where
    I: 'static,
    O: 'static,
    Fut: Future<Output = O> + 'static,
{
    let latest = Latest::new();
    Action::new_local(move |input: &I| {
        let ticket = latest.next();
        let out = work(input);
        async move {
            let out = out.await;
            if latest.is_current(ticket) {
                apply(out);
            }
        }
    })
}
