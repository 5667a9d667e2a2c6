//! Offering what the app made as a downloaded file (tables, reports, charts, exports): one
//! place for the browser's anchor-and-object-URL dance, used by every page.

use wasm_bindgen::JsCast;

/// Offers what `url` points to (an object or data URL) as a downloaded file named `name`.
pub fn download_url(name: &str, url: &str) {
    if let Some(a) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.create_element("a").ok())
        .and_then(|a| a.dyn_into::<web_sys::HtmlAnchorElement>().ok())
    {
        a.set_href(url);
        a.set_download(name);
        a.click();
    }
}

/// Offers `text` as a downloaded file.
pub fn download_text(name: &str, mime: &str, text: &str) {
    let blob = gloo_file::Blob::new_with_options(text, Some(mime));
    let url = gloo_file::ObjectUrl::from(blob);
    download_url(name, &url);
    // Revoking the URL right after the click can cancel the download: it is let go of a
    // minute later.
    gloo_timers::callback::Timeout::new(60_000, move || drop(url)).forget();
}
