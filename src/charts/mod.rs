//! Charts drawn with plotters. Each chart is a plain function `draw_x(area, &data) -> Result`
//! over any plotters backend, so it is tested natively with the SVG backend and drawn in the
//! browser on a canvas with `plotters-canvas`.

pub mod bars;
pub mod frame;
pub mod histogram;
pub mod line;
pub mod radar;
pub mod theme;

pub use theme::ChartTheme;
