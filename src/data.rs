//! Loading the bundled default data (`public/data/*.json`, copied to `dist/data/`).

use coglab_core::reported::ReportedBundle;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// The benchmarks whose reported results are bundled, as (key, display name).
pub const BENCHMARKS: [(&str, &str); 4] = [
    ("mmiq", "MM-IQ"),
    ("kiva", "KiVA"),
    ("mmopera", "MM-OPERA"),
    ("gold", "Gold"),
];

/// The path the app is served under, without a trailing slash (`""` at the site root,
/// `"/coglab"` when built with `--public-url /coglab/`), read from the document's `<base>`.
pub fn base_path() -> String {
    let base = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.base_uri().ok().flatten())
        .and_then(|uri| web_sys::Url::new(&uri).ok())
        .map(|url| url.pathname())
        .unwrap_or_default();
    base.trim_end_matches('/').to_string()
}

/// The address of `to`, a path of the app below the base path (`"/leaderboard?b=kiva"`), as
/// written in links: with the base path in front (`leptos_router`'s `<A>` takes absolute paths
/// as they are).
pub fn href(to: &str) -> String {
    thread_local! {
        static BASE: String = base_path();
    }
    BASE.with(|base| format!("{base}{to}"))
}

/// Where the site's published bundle (`coglab publish --out`) is, relative to the base path,
/// ending in `/`: the `content` of `<meta name="coglab-published">`, which the build writes
/// into `index.html` when it copies a bundle (scripts/published.py; `published/` by default);
/// `None` without one, so that a site without a bundle never asks for it.
pub fn published_rel() -> Option<String> {
    web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| {
            d.query_selector("meta[name=coglab-published]")
                .ok()
                .flatten()
        })
        .and_then(|m| m.get_attribute("content"))
        .map(|c| c.trim().trim_matches('/').to_string())
        .filter(|c| !c.is_empty())
        .map(|c| format!("{c}/"))
}

/// Fetches a file served with the app (relative to the base path) as text.
///
/// # Errors
/// A readable message naming the URL when the request fails or the status is not 2xx.
pub async fn fetch_text(rel: &str) -> Result<String, String> {
    let _loading = crate::quiet::Loading::start();
    let url = format!("{}/{}", base_path(), rel.trim_start_matches('/'));
    let window = web_sys::window().ok_or("no window")?;
    let resp = JsFuture::from(window.fetch_with_str(&url))
        .await
        .map_err(|e| format!("{url}: request failed: {}", js_message(&e)))?;
    let resp: web_sys::Response = resp
        .dyn_into()
        .map_err(|_| format!("{url}: not an HTTP response"))?;
    if !resp.ok() {
        return Err(format!(
            "{url}: HTTP {} {}",
            resp.status(),
            resp.status_text()
        ));
    }
    let text = resp
        .text()
        .map_err(|e| format!("{url}: {}", js_message(&e)))?;
    let text = JsFuture::from(text)
        .await
        .map_err(|e| format!("{url}: {}", js_message(&e)))?;
    text.as_string()
        .ok_or_else(|| format!("{url}: body is not text"))
}

/// Loads and validates one benchmark's bundled reported results (`data/<key>.json`).
///
/// # Errors
/// The fetch error, or the parse error naming the file, table and row.
pub async fn load_reported(key: &str) -> Result<ReportedBundle, String> {
    let file = format!("data/{key}.json");
    let text = fetch_text(&file).await?;
    ReportedBundle::parse(&file, &text).map_err(|e| e.to_string())
}

fn js_message(value: &wasm_bindgen::JsValue) -> String {
    value
        .dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| value.as_string())
        .unwrap_or_else(|| format!("{value:?}"))
}
