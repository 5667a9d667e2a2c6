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
/// get a taller chart (`height` is the height at full width). Returns the width and height.
pub fn fit_to_shown_width(canvas: &web_sys::HtmlCanvasElement, height: u32) -> (u32, u32) {
    let shown = canvas
        .parent_element()
        .map_or(900, |p| p.client_width())
        .clamp(300, 900) as u32;
    let h = if shown < 600 {
        (shown * 9 / 10).max(320)
    } else {
        height
    };
    if canvas.width() != shown || canvas.height() != h {
        canvas.set_width(shown);
        canvas.set_height(h);
    }
    // Through the CSSOM, not a style attribute, which the page's CSP does not allow.
    if let Ok(style) = js_sys::Reflect::get(canvas, &"style".into()) {
        let ratio = format!("{shown} / {h}");
        let _ = js_sys::Reflect::set(&style, &"aspectRatio".into(), &ratio.into());
    }
    (shown, h)
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
    match CanvasBackend::with_canvas_object(canvas) {
        Some(backend) => draw(&backend.into_drawing_area()).err(),
        None => Some("this browser cannot draw on a canvas".into()),
    }
}
