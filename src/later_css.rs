//! The stylesheets of pages the first view does not show, loaded when such a page starts.
//!
//! Every page's stylesheet was read before the first view could show: on a plain static
//! host nothing is compressed on the wire, and the self-test, review and structure styles
//! (about 14 KB) shared a slow link with the leaderboard's page module and chunks (issue 42).
//! So `scripts/static-routes.py` moves, in each HTML page of the build, the `<link
//! rel="stylesheet">`s of the other pages into a `<template id="coglab-later-css">`, whose
//! content a browser neither fetches nor applies; the route's own page keeps its stylesheet
//! where it was. [`load`] moves the template's links into the document when a page that needs
//! one starts ([`crate::split::page`]): its stylesheet (4-5 KB) loads beside its chunk (a
//! quarter of a megabyte or more), so the page is styled when it shows. Rules that pages
//! outside these three use (buttons, hints, the update banner) live in `leaderboard.css`,
//! which every page loads. A first visit that stays on the leaderboard reads these sheets
//! only through the service worker's install, which caches the app shell for offline use.

/// The template's id, as `scripts/static-routes.py` writes it.
pub const TEMPLATE_ID: &str = "coglab-later-css";

/// Moves the deferred stylesheet links into the document (once; later calls find no template).
pub fn load() {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let Ok(Some(template)) = document.query_selector(&format!("template#{TEMPLATE_ID}")) else {
        return;
    };
    // A template's inner HTML is its content's markup: the links as the build wrote them,
    // integrity included.
    let links = template.inner_html();
    if template.insert_adjacent_html("afterend", &links).is_err() {
        web_sys::console::warn_1(&"coglab: the later stylesheets could not be added".into());
    }
    template.remove();
}
