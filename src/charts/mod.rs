//! Charts drawn with plotters. Each chart is a plain function `draw_x(area, &data) -> Result`
//! over any plotters backend, so it is tested natively with the SVG backend and drawn in the
//! browser on a canvas with `plotters-canvas`.

pub mod bars;
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
