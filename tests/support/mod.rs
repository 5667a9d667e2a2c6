//! Helpers shared by the in-browser tests (`tests/web*.rs`, wasm-bindgen-test in headless
//! Chromium): a host element to mount into, a settle step, and DOM queries.
#![allow(dead_code)]

use wasm_bindgen::JsCast;

/// A fresh host element appended to the body.
pub fn host() -> web_sys::HtmlElement {
    let document = web_sys::window().unwrap().document().unwrap();
    let el = document.create_element("div").unwrap();
    document.body().unwrap().append_child(&el).unwrap();
    el.unchecked_into()
}

/// Lets the router and the reactive system settle: a macrotask turn, then a reactive tick.
pub async fn settle() {
    settle_after(20).await;
}

/// [`settle`] with a timer of `ms` milliseconds (pages that wait on the worker or storage).
pub async fn settle_after(ms: i32) {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        web_sys::window()
            .unwrap()
            .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms)
            .unwrap();
    });
    wasm_bindgen_futures::JsFuture::from(promise).await.unwrap();
    leptos::task::tick().await;
}

/// The first element under `root` matching `selector`, if any.
pub fn find(root: &web_sys::HtmlElement, selector: &str) -> Option<web_sys::HtmlElement> {
    root.query_selector(selector)
        .unwrap()
        .map(|e| e.unchecked_into())
}

/// The first element under `root` matching `selector` (the test fails when there is none).
pub fn el(root: &web_sys::HtmlElement, selector: &str) -> web_sys::HtmlElement {
    find(root, selector).unwrap_or_else(|| panic!("{selector} not rendered"))
}

/// The text of every element under `root` matching `selector`, in document order.
pub fn texts(root: &web_sys::HtmlElement, selector: &str) -> Vec<String> {
    let list = root.query_selector_all(selector).unwrap();
    (0..list.length())
        .map(|i| list.get(i).unwrap().text_content().unwrap_or_default())
        .collect()
}
