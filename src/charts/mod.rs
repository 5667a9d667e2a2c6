//! Charts drawn with plotters. Each chart is a plain function `draw_x(area, &data) -> Result`
//! over any plotters backend, so it is tested natively with the SVG backend and drawn in the
//! browser on a canvas with `plotters-canvas`.

pub mod bars;
pub mod canvas;
pub mod curves;
pub mod frame;
pub mod histogram;
pub mod line;
pub mod radar;
pub mod theme;

pub use theme::ChartTheme;

use plotters::coord::Shift;
use plotters::prelude::{DrawingArea, IntoDrawingArea};
use plotters_canvas::CanvasBackend;

/// Sizes a canvas's drawing buffer to the width it is shown at (its parent's width, between 300
/// and 900 CSS pixels), so chart text keeps its size on phones instead of shrinking with a
/// 900-pixel drawing scaled down (issue 26, defect 7: 4-pixel text at 390 px). Narrow screens
/// get a taller chart (`height` is the height at full width). The buffer holds the screen's
/// device pixels ([`pixel_ratio`]: 2 on most phones), so a chart is as sharp as the text
/// around it (issue 42, defect 13: drawn at 1x and blurred on a 2x screen);
/// [`draw_on_canvas`] draws in CSS pixels on it. Returns the width and height in CSS pixels.
pub fn fit_to_shown_width(canvas: &web_sys::HtmlCanvasElement, height: u32) -> (u32, u32) {
    // The canvas's own border (offset width less client width) is outside its drawing.
    let border = (canvas.offset_width() - canvas.client_width()).max(0);
    let shown = canvas
        .parent_element()
        .map_or(900, |p| p.client_width() - border)
        .clamp(300, 900) as u32;
    let h = if shown < 600 {
        (shown * 9 / 10).max(320)
    } else {
        height
    };
    let ratio = pixel_ratio();
    let (w_px, h_px) = (
        (f64::from(shown) * ratio).round() as u32,
        (f64::from(h) * ratio).round() as u32,
    );
    if canvas.width() != w_px || canvas.height() != h_px {
        canvas.set_width(w_px);
        canvas.set_height(h_px);
    }
    // Through the CSSOM, not a style attribute, which the page's CSP does not allow. The
    // width in CSS pixels, so a buffer of device pixels is not shown larger.
    if let Ok(style) = js_sys::Reflect::get(canvas, &"style".into()) {
        let _ = js_sys::Reflect::set(
            &style,
            &"aspectRatio".into(),
            &format!("{shown} / {h}").into(),
        );
        // Content-box, so the maximum is the drawing's width whatever the page's box sizing.
        let _ = js_sys::Reflect::set(&style, &"boxSizing".into(), &"content-box".into());
        let _ = js_sys::Reflect::set(&style, &"maxWidth".into(), &format!("{shown}px").into());
    }
    (shown, h)
}

/// The screen's device pixels per CSS pixel, between 1 and 3 (a 4x buffer would cost memory
/// for no visible gain).
pub fn pixel_ratio() -> f64 {
    web_sys::window()
        .map_or(1.0, |w| w.device_pixel_ratio())
        .clamp(1.0, 3.0)
}

/// Redraws when the window is resized (a phone turned, a window narrowed): a counter to track
/// in the drawing effect.
pub fn resize_counter() -> leptos::prelude::ReadSignal<u32> {
    use leptos::prelude::*;
    let (resized, set_resized) = signal(0u32);
    let handle = window_event_listener(leptos::ev::resize, move |_| {
        set_resized.update(|n| *n += 1);
    });
    on_cleanup(move || handle.remove());
    resized
}

/// Draws on a page's canvas with `draw` (one of the `draw_x` functions); returns the message
/// to show when drawing failed or the browser cannot draw on a canvas.
pub fn draw_on_canvas(
    canvas: web_sys::HtmlCanvasElement,
    draw: impl FnOnce(&DrawingArea<CanvasBackend, Shift>) -> Result<(), String>,
) -> Option<String> {
    use wasm_bindgen::JsCast;
    // A buffer of device pixels ([`fit_to_shown_width`]) is drawn on in CSS pixels: the
    // context scales every coordinate and font by the ratio, and the chart draws on an area
    // of the CSS size.
    let ratio = pixel_ratio();
    let (w, h) = (
        (f64::from(canvas.width()) / ratio).round() as u32,
        (f64::from(canvas.height()) / ratio).round() as u32,
    );
    if let Some(ctx) = canvas
        .get_context("2d")
        .ok()
        .flatten()
        .and_then(|c| c.dyn_into::<web_sys::CanvasRenderingContext2d>().ok())
    {
        let _ = ctx.set_transform(ratio, 0.0, 0.0, ratio, 0.0, 0.0);
    }
    match CanvasBackend::with_canvas_object(canvas) {
        Some(backend) => {
            let area = backend.into_drawing_area();
            let area = if ratio > 1.0 {
                area.shrink((0, 0), (w, h))
            } else {
                area
            };
            draw(&area).err()
        }
        None => Some("this browser cannot draw on a canvas".into()),
    }
}
