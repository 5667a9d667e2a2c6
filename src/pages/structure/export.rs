//! Downloads of the Structure page's results: a chart as PNG, a table as CSV or JSON.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::download::download_text;

/// Saves the inline SVG chart with `data-testid=testid` as a PNG (2x): the computed styles are
/// copied into a clone as SVG presentation attributes (no `style` attribute and no `eval`, so
/// the page's Content-Security-Policy allows it) so the image keeps the page's colours, then
/// the clone is drawn on a canvas.
fn download_png(testid: &str, name: &str) {
    if let Err(e) = try_download_png(testid, name.to_string()) {
        web_sys::console::warn_1(&e);
    }
}

fn try_download_png(testid: &str, name: String) -> Result<(), wasm_bindgen::JsValue> {
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
        let (a, b): (web_sys::Element, web_sys::Element) = (a.dyn_into()?, b.dyn_into()?);
        let Some(cs) = window.get_computed_style(&a)? else {
            continue;
        };
        for p in PROPS {
            let v = cs.get_property_value(p)?;
            if !v.is_empty() {
                b.set_attribute(p, &v)?;
            }
        }
    }
    let body = doc.body().ok_or("no body")?;
    let bg = window
        .get_computed_style(&body)?
        .and_then(|cs| cs.get_property_value("background-color").ok())
        .filter(|c| !c.is_empty())
        .unwrap_or_else(|| "#ffffff".into());
    let rect = svg.get_bounding_client_rect();
    let (w, h) = (rect.width(), rect.height());
    let text = web_sys::XmlSerializer::new()?.serialize_to_string(&clone)?;
    let url = gloo_file::ObjectUrl::from(gloo_file::Blob::new_with_options(
        text.as_str(),
        Some("image/svg+xml"),
    ));
    let href = url.to_string();
    let img = web_sys::HtmlImageElement::new()?;
    let drawn = img.clone();
    // A one-time listener, left to the image (as `onload` would be); the object URL is revoked
    // once the image is drawn.
    gloo_events::EventListener::once(&img, "load", move |_| {
        let draw = || -> Result<(), wasm_bindgen::JsValue> {
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
            ctx.draw_image_with_html_image_element(&drawn, 0.0, 0.0)?;
            crate::download::download_url(&name, &canvas.to_data_url_with_type("image/png")?);
            Ok(())
        };
        if let Err(e) = draw() {
            web_sys::console::warn_1(&e);
        }
        drop(url);
    })
    .forget();
    img.set_src(&href);
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
