//! The app's pages, one per route.

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
