//! The app's router: which page the address shows, links between pages, and the query string
//! that holds each page's view.
//!
//! The app has five flat pages and keeps its view state in query parameters; that is all it
//! needs of a router. This module replaces `leptos_router`, whose general machinery (nested
//! routes, path matching, transitions) made up about 25 KB of the gzipped wasm here.
//!
//! Paths given to this module are below the base path (`"/leaderboard"`), which is the
//! document's `<base>` (see [`crate::data::base_path`]); URLs written into links and the
//! history include it.

use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// The pages of the app.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Page {
    Home,
    Leaderboard,
    SelfTest,
    Review,
    Structure,
    NotFound,
}

impl Page {
    /// The page at `path` (below the base path); a trailing slash is ignored.
    pub fn at(path: &str) -> Page {
        match path.trim_end_matches('/') {
            "" => Page::Home,
            "/leaderboard" => Page::Leaderboard,
            "/self-test" => Page::SelfTest,
            "/review" => Page::Review,
            "/structure" => Page::Structure,
            _ => Page::NotFound,
        }
    }
}

/// The current address, shared through the context (see [`provide_router`]).
#[derive(Clone, Copy)]
pub struct Location {
    base: StoredValue<String>,
    /// The path below the base, starting with `/`.
    path: RwSignal<String>,
    /// The query string without its `?`.
    search: RwSignal<String>,
}

impl Location {
    /// The page the address names (changes only when the path does, not the query).
    pub fn page(self) -> Memo<Page> {
        Memo::new(move |_| self.path.with(|p| Page::at(p)))
    }

    /// Reads the browser's address into the signals.
    fn sync(self) {
        let Some(loc) = web_sys::window().map(|w| w.location()) else {
            return;
        };
        let full = loc.pathname().unwrap_or_default();
        let path = self
            .base
            .with_value(|b| full.strip_prefix(b.as_str()).map(str::to_string))
            .unwrap_or(full);
        let path = if path.starts_with('/') {
            path
        } else {
            format!("/{path}")
        };
        let search = loc.search().unwrap_or_default();
        let search = search.trim_start_matches('?');
        if self.path.with_untracked(|p| *p != path) {
            self.path.set(path);
        }
        if self.search.with_untracked(|s| s != search) {
            self.search.set(search.to_string());
        }
    }

    /// The URL of `to` (a path below the base, possibly with a query) as written in links.
    fn href(self, to: &str) -> String {
        self.base.with_value(|b| format!("{b}{to}"))
    }
}

thread_local! {
    /// The app's location (the latest [`provide_router`] call's).
    static CURRENT: std::cell::Cell<Option<Location>> = const { std::cell::Cell::new(None) };
    /// Whether the window's `popstate` and `click` listeners are installed.
    static LISTENING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Starts following the browser's address with `base` as the base path: creates the
/// [`Location`] the app's pages read, takes the clicks on links within the app (moving between
/// pages without reloading), and follows the back and forward buttons.
pub fn provide_router(base: String) -> Location {
    let location = Location {
        base: StoredValue::new(base),
        path: RwSignal::new(String::new()),
        search: RwSignal::new(String::new()),
    };
    location.sync();
    CURRENT.with(|c| c.set(Some(location)));
    if !LISTENING.with(|l| l.replace(true)) {
        if let Some(window) = web_sys::window() {
            let on_pop = Closure::<dyn FnMut()>::new(|| {
                if let Some(location) = current() {
                    location.sync();
                }
            });
            let _ = window
                .add_event_listener_with_callback("popstate", on_pop.as_ref().unchecked_ref());
            on_pop.forget();
            let on_click = Closure::<dyn FnMut(web_sys::MouseEvent)>::new(|ev| {
                if let Some(location) = current() {
                    on_link_click(location, &ev);
                }
            });
            let _ =
                window.add_event_listener_with_callback("click", on_click.as_ref().unchecked_ref());
            on_click.forget();
        }
    }
    location
}

/// The location of the app that is mounted (none once that app is gone, as between tests).
fn current() -> Option<Location> {
    CURRENT
        .with(std::cell::Cell::get)
        .filter(|l| !l.path.is_disposed())
}

/// The app's location (started here with the document's base path if the app has not
/// started it, as for a page mounted on its own in a test).
fn use_location() -> Location {
    current().unwrap_or_else(|| provide_router(crate::data::base_path()))
}

/// Handles a click on a link to a page of the app in place, as the browser would but without
/// reloading: a plain left click on a same-origin link below the base path, without `target`,
/// `download` or `rel="external"`. A link to an anchor of this page (`href="#main"`) moves
/// the focus there.
fn on_link_click(location: Location, ev: &web_sys::MouseEvent) {
    if ev.default_prevented()
        || ev.button() != 0
        || ev.meta_key()
        || ev.alt_key()
        || ev.ctrl_key()
        || ev.shift_key()
    {
        return;
    }
    let Some(a) = ev
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .and_then(|el| el.closest("a[href]").ok().flatten())
        .and_then(|el| el.dyn_into::<web_sys::HtmlAnchorElement>().ok())
    else {
        return;
    };
    let raw = a.get_attribute("href").unwrap_or_default();
    let external = a
        .get_attribute("rel")
        .is_some_and(|rel| rel.split_ascii_whitespace().any(|r| r == "external"));
    if !a.target().is_empty() || a.has_attribute("download") || external {
        return;
    }
    if let Some(id) = raw.strip_prefix('#') {
        // The document's <base> would make the browser load the home page with the anchor.
        ev.prevent_default();
        focus_anchor(id);
        return;
    }
    let Ok(url) = web_sys::Url::new(&a.href()) else {
        return;
    };
    let origin = web_sys::window().and_then(|w| w.location().origin().ok());
    let full = url.pathname();
    let below = location
        .base
        .with_value(|b| full.strip_prefix(b.as_str()).map(str::to_string));
    let Some(path) = below.filter(|_| origin.as_deref() == Some(url.origin().as_str())) else {
        return;
    };
    ev.prevent_default();
    navigate(&format!("{path}{}", url.search()), false, true);
}

/// Scrolls to and focuses the element with id `id`.
fn focus_anchor(id: &str) {
    let el = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(id))
        .and_then(|el| el.dyn_into::<web_sys::HtmlElement>().ok());
    if let Some(el) = el {
        el.scroll_into_view();
        let _ = el.focus();
    }
}

/// Goes to `to`, a path below the base path with an optional query (`"/self-test?seed=4"`):
/// a new history entry, or with `replace` a change of the current one (for view settings,
/// so that Back leaves the page instead of undoing each click); with `scroll`, to the top.
pub fn navigate(to: &str, replace: bool, scroll: bool) {
    let location = use_location();
    let Some(window) = web_sys::window() else {
        return;
    };
    let url = location.href(to);
    if let Ok(history) = window.history() {
        let done = if replace {
            history.replace_state_with_url(&JsValue::NULL, "", Some(&url))
        } else {
            history.push_state_with_url(&JsValue::NULL, "", Some(&url))
        };
        if done.is_err() {
            let _ = window.location().set_href(&url);
            return;
        }
    }
    location.sync();
    if scroll {
        window.scroll_to_with_x_and_y(0.0, 0.0);
    }
}

/// The current path below the base path (`"/leaderboard"`), untracked.
pub fn current_path() -> String {
    use_location().path.get_untracked()
}

/// The decoded query parameters of an address, in order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Query(Vec<(String, String)>);

impl Query {
    /// Reads a query string (without `?`): `a=1&b=x%20y` (`+` is a space).
    pub fn parse(search: &str) -> Query {
        let decode = |s: &str| {
            let s = s.replace('+', " ");
            js_sys::decode_uri_component(&s).map_or(s, String::from)
        };
        Query(
            search
                .split('&')
                .filter(|pair| !pair.is_empty())
                .map(|pair| {
                    let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
                    (decode(k), decode(v))
                })
                .collect(),
        )
    }

    /// The first value of parameter `key`.
    pub fn get(&self, key: &str) -> Option<String> {
        self.0
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.clone())
    }
}

/// The current query parameters, updated as the address changes.
pub fn use_query_map() -> Memo<Query> {
    let location = use_location();
    Memo::new(move |_| location.search.with(|s| Query::parse(s)))
}

/// A link to a page of the app: `href` is below the base path. The link is marked
/// `aria-current="page"` while its page is shown (with `exact`, only on that very path;
/// otherwise also below it). Attributes and handlers given with `attr:`/`on:` go to the `<a>`.
#[component]
pub fn A(
    #[prop(into)] href: Signal<String>,
    #[prop(optional)] exact: bool,
    children: Children,
) -> impl IntoView {
    let location = use_location();
    let current = move || {
        let target = href.with(|h| h.split(['?', '#']).next().unwrap_or_default().to_string());
        let target = target.trim_end_matches('/');
        let on = location.path.with(|p| {
            let p = p.trim_end_matches('/');
            if exact || target.is_empty() {
                p == target
            } else {
                p == target
                    || p.strip_prefix(target)
                        .is_some_and(|rest| rest.starts_with('/'))
            }
        });
        on.then_some("page")
    };
    view! { <a href=move || href.with(|h| location.href(h)) aria-current=current>{children()}</a> }
}
