//! The coglab web app: a Leptos client-side single-page app over `coglab-core`.
//!
//! Pages live in [`pages`], reusable components in [`components`], and loading of the bundled
//! data in [`data`]. Every metric shown comes from `coglab-core`; this crate only renders.
#![forbid(unsafe_code)]

pub mod charts;
pub mod components;
pub mod data;
pub mod download;
pub mod later_css;
pub mod pages;
pub mod quiet;
pub mod split;
pub mod store;
pub mod sw;
pub mod worker;

use leptos::prelude::*;
use leptos_router::components::{Route, Router, Routes, A};
use leptos_router::path;

use pages::{home::Home, leaderboard::Leaderboard, not_found::NotFound};

/// The whole app: header navigation and the routed pages (`leptos_router`, under the base path
/// the site is served from: [`data::base_path`]).
#[component]
pub fn App() -> impl IntoView {
    provide_context(components::theme_toggle::ThemeChoice::new());
    // One scoring worker for the whole tab, started by the first request of any page.
    provide_context(worker::client::AppWorker(StoredValue::new_local(
        worker::client::WorkerClient::for_app(),
    )));
    let href = data::href;
    view! {
        <Router base=data::base_path()>
            <a class="skip-link" href="#main" on:click=skip_to_main>"Skip to content"</a>
            <header class="site-header">
                <A href=href("/") attr:class="brand">
                    <span class="brand-mark" aria-hidden="true">"◆"</span>
                    " coglab"
                </A>
                <nav aria-label="Main" data-testid="main-nav">
                    <A href=href("/") exact=true>"Home"</A>
                    <A href=href("/leaderboard")>"Leaderboard"</A>
                    <A href=href("/self-test")>"Self-test (KiVA)"</A>
                    <A href=href("/review")>"Review"</A>
                    <A href=href("/structure")>"Structure (Gold)"</A>
                </nav>
                <components::theme_toggle::ThemeToggle />
            </header>
            <sw::UpdateBanner />
            <main id="main" tabindex="-1">
                <Routes fallback=|| view! { <NotFound /> }>
                    <Route path=path!("/") view=Home />
                    <Route path=path!("/leaderboard") view=Leaderboard />
                    <Route path=path!("/self-test") view=pages::selftest::lazy_page />
                    <Route path=path!("/review") view=pages::review::lazy_page />
                    <Route path=path!("/structure") view=pages::structure::lazy_page />
                </Routes>
            </main>
            <footer class="site-footer">
                "coglab runs entirely in your browser: no server, nothing you load leaves this machine."
                <sw::OfflineOffer />
            </footer>
        </Router>
    }
}

/// The skip link moves the focus to the page's content in place. (With the document's
/// `<base>`, `#main` would otherwise be a link to the home page, which the router would follow.)
fn skip_to_main(ev: web_sys::MouseEvent) {
    ev.prevent_default();
    let main = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("main"))
        .and_then(|el| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(el).ok());
    if let Some(main) = main {
        main.scroll_into_view();
        let _ = main.focus();
    }
}

/// Installs a panic hook that logs the panic to the console and shows a readable message
/// over the page instead of leaving it dead.
pub fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        show_fatal_error(&info.to_string());
    }));
}

fn show_fatal_error(message: &str) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let Ok(panel) = document.create_element("div") else {
        return;
    };
    panel.set_id("fatal-error");
    let _ = panel.set_attribute("role", "alert");
    let _ = panel.set_attribute("data-testid", "fatal-error");
    let text = format!(
        "coglab hit an internal error and stopped. Reload the page to continue; \
         your saved work is kept.\n\nDetails: {message}"
    );
    panel.set_text_content(Some(&text));
    if let Some(body) = document.body() {
        let _ = body.append_child(&panel);
    }
}
