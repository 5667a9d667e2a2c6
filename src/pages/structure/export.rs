//! Downloads of the Structure page's results: a chart as PNG, a table as CSV or JSON.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::components::board_table::download_text;

/// Saves the inline SVG chart with `data-testid=testid` as a PNG (2x): the computed styles are
/// copied into a clone as SVG presentation attributes (no `style` attribute and no `eval`, so
/// the page's Content-Security-Policy allows it) so the image keeps the page's colours, then
/// the clone is drawn on a canvas.
fn download_png(testid: &str, name: &str) {
    if let Err(e) = try_download_png(testid, name.to_string()) {
        web_sys::console::warn_1(&e);
    }
}

/// Calls `obj[method](...args)`.
fn js_call(
    obj: &wasm_bindgen::JsValue,
    method: &str,
    args: &[&wasm_bindgen::JsValue],
) -> Result<wasm_bindgen::JsValue, wasm_bindgen::JsValue> {
    let f: js_sys::Function = js_sys::Reflect::get(obj, &method.into())?.dyn_into()?;
    let list = js_sys::Array::new();
    for a in args {
        list.push(a);
    }
    f.apply(obj, &list)
}

fn try_download_png(testid: &str, name: String) -> Result<(), wasm_bindgen::JsValue> {
    use wasm_bindgen::JsValue;
    const PROPS: [&str; 9] = [
        "fill",
        "stroke",
        "stroke-width",
        "fill-opacity",
        "font-size",
        "font-weight",
        "font-family",
        "paint-order",
        "text-anchor",
    ];
    let window = web_sys::window().ok_or("no window")?;
    let doc = window.document().ok_or("no document")?;
    let Some(svg) = doc.query_selector(&format!("[data-testid=\"{testid}\"]"))? else {
        return Ok(());
    };
    let clone: web_sys::Element = svg.clone_node_with_deep(true)?.dyn_into()?;
    let (src, dst) = (svg.query_selector_all("*")?, clone.query_selector_all("*")?);
    for i in 0..src.length() {
        let (Some(a), Some(b)) = (src.get(i), dst.get(i)) else {
            continue;
        };
        let cs = js_call(&window, "getComputedStyle", &[&a])?;
        let b: web_sys::Element = b.dyn_into()?;
        for p in PROPS {
            if let Some(v) = js_call(&cs, "getPropertyValue", &[&JsValue::from_str(p)])?.as_string()
            {
                if !v.is_empty() {
                    b.set_attribute(p, &v)?;
                }
            }
        }
    }
    let body = doc.body().ok_or("no body")?;
    let bg = js_call(&window, "getComputedStyle", &[&body])
        .and_then(|cs| js_sys::Reflect::get(&cs, &"backgroundColor".into()))?
        .as_string()
        .unwrap_or_else(|| "#ffffff".into());
    let rect = svg.get_bounding_client_rect();
    let (w, h) = (rect.width(), rect.height());
    let serializer = js_sys::Reflect::construct(
        &js_sys::Reflect::get(&window, &"XMLSerializer".into())?.dyn_into::<js_sys::Function>()?,
        &js_sys::Array::new(),
    )?;
    let text = js_call(&serializer, "serializeToString", &[&clone])?
        .as_string()
        .unwrap_or_default();
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type("image/svg+xml");
    let blob = web_sys::Blob::new_with_str_sequence_and_options(
        &js_sys::Array::of1(&JsValue::from_str(&text)),
        &opts,
    )?;
    let url = web_sys::Url::create_object_url_with_blob(&blob)?;
    let img = js_sys::Reflect::construct(
        &js_sys::Reflect::get(&window, &"Image".into())?.dyn_into::<js_sys::Function>()?,
        &js_sys::Array::new(),
    )?;
    let img2 = img.clone();
    let url2 = url.clone();
    let onload = wasm_bindgen::closure::Closure::once_into_js(move || {
        let draw = || -> Result<(), JsValue> {
            let _ = web_sys::Url::revoke_object_url(&url2);
            let doc = web_sys::window()
                .and_then(|w| w.document())
                .ok_or("no document")?;
            let canvas: web_sys::HtmlCanvasElement = doc.create_element("canvas")?.dyn_into()?;
            canvas.set_width((w * 2.0).round() as u32);
            canvas.set_height((h * 2.0).round() as u32);
            let ctx: web_sys::CanvasRenderingContext2d = canvas
                .get_context("2d")?
                .ok_or("no 2d context")?
                .dyn_into()?;
            ctx.set_fill_style_str(&bg);
            ctx.fill_rect(0.0, 0.0, w * 2.0, h * 2.0);
            ctx.scale(2.0, 2.0)?;
            js_call(
                &ctx,
                "drawImage",
                &[&img2, &JsValue::from(0), &JsValue::from(0)],
            )?;
            let a: web_sys::HtmlAnchorElement = doc.create_element("a")?.dyn_into()?;
            a.set_href(&canvas.to_data_url_with_type("image/png")?);
            a.set_download(&name);
            a.click();
            Ok(())
        };
        if let Err(e) = draw() {
            web_sys::console::warn_1(&e);
        }
    });
    js_sys::Reflect::set(&img, &"onload".into(), &onload)?;
    js_sys::Reflect::set(&img, &"src".into(), &JsValue::from_str(&url))?;
    Ok(())
}

/// A button saving the chart with `data-testid=testid` as `file` (PNG).
#[component]
pub fn PngButton(
    /// What the chart is ("path diagram"), for the button's label.
    label: &'static str,
    /// The chart's `data-testid`.
    testid: &'static str,
    /// The downloaded file's name.
    file: &'static str,
) -> impl IntoView {
    view! {
        <button type="button" class="small" data-testid=format!("png-{testid}") aria-label=format!("Save the {label} as PNG")
            on:click=move |_| download_png(testid, file)>
            "PNG"
        </button>
    }
}

/// The CSV and JSON buttons of a results table (`csv-{id}`, `json-{id}`, saving `{id}.csv`
/// and `{id}.json`).
#[component]
pub fn ExportButtons(
    /// What the table is ("outer model"), for the buttons' labels.
    label: &'static str,
    /// The file stem and test id.
    id: &'static str,
    /// The table as CSV, if there is one.
    csv: Callback<(), Option<String>>,
    /// The table as JSON, if there is one.
    json: Callback<(), Option<String>>,
) -> impl IntoView {
    view! {
        <span class="exports">
            <button type="button" class="small" data-testid=format!("csv-{id}") aria-label=format!("Export {label} as CSV")
                on:click=move |_| { if let Some(t) = csv.run(()) { download_text(&format!("{id}.csv"), "text/csv", &t) } }>
                "CSV"
            </button>
            <button type="button" class="small" data-testid=format!("json-{id}") aria-label=format!("Export {label} as JSON")
                on:click=move |_| { if let Some(t) = json.run(()) { download_text(&format!("{id}.json"), "application/json", &t) } }>
                "JSON"
            </button>
        </span>
    }
}
