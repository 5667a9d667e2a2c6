//! What every chart draws the same way: the background, the title, the legend, and the check
//! that its values are finite numbers. One place, so the four chart families look alike.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::theme::ChartTheme;

/// Space above the title (pixels).
pub const MARGIN: i32 = 10;
/// Height taken by a title.
pub const TITLE_H: i32 = 26;
/// Height of one legend row.
pub const LEGEND_ROW: i32 = 20;

/// A drawing-area error as a message.
pub fn err<E: std::error::Error + Send + Sync>(e: DrawingAreaErrorKind<E>) -> String {
    e.to_string()
}

/// A font of `size` pixels in the theme's text colour.
pub fn text(theme: &ChartTheme, size: f64) -> TextStyle<'static> {
    // `FontFamily::SansSerif` rather than the name "sans-serif": plotters reads a family name
    // with `str::to_lowercase`, whose Unicode case tables (8 KB gzipped) would be downloaded
    // for nothing.
    (FontFamily::SansSerif, size)
        .into_font()
        .color(&theme.foreground)
}

/// Fills the background and draws the title (when not empty), centred at the top. Returns the
/// area's width and height and the y below the title.
///
/// # Errors
/// The backend's error as a message.
pub fn begin<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    theme: &ChartTheme,
    title: &str,
) -> Result<(i32, i32, i32), String> {
    area.fill(&theme.background).map_err(err)?;
    let (w, h) = area.dim_in_pixel();
    let (w, h) = (w as i32, h as i32);
    let mut top = MARGIN;
    if !title.is_empty() {
        area.draw_text(
            title,
            &text(theme, 16.0).pos(Pos::new(HPos::Center, VPos::Top)),
            (w / 2, top),
        )
        .map_err(err)?;
        top += TITLE_H;
    }
    Ok((w, h, top))
}

/// How a legend entry shows its series.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Key {
    /// A filled square in the series' colour (bars, areas).
    Swatch,
    /// A short line with the series' marker (line charts: shape as well as colour).
    Line,
}

/// Where a legend goes: its rows start at `x0` and wrap before `right`; an entry is
/// `width + 7 px per character of its name` wide; `gap` pixels are left below the last row.
#[derive(Debug, Clone, Copy)]
pub struct LegendLayout {
    /// Left edge of every row.
    pub x0: i32,
    /// Rows wrap before this x.
    pub right: i32,
    /// Width of an entry besides its name.
    pub width: i32,
    /// Space below the last row.
    pub gap: i32,
}

/// Draws the legend, one entry per name in the palette's order, in rows from `top` down.
/// Returns the y below it (`top` itself when there are no names).
///
/// # Errors
/// The backend's error as a message.
pub fn legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    theme: &ChartTheme,
    names: &[&str],
    top: i32,
    key: Key,
    at: LegendLayout,
) -> Result<i32, String> {
    if names.is_empty() {
        return Ok(top);
    }
    let (places, rows) = legend_places(names, at);
    for (i, (name, (lx, row))) in names.iter().zip(places).enumerate() {
        let ly = top + row * LEGEND_ROW;
        let color = theme.series(i);
        let text_x = match key {
            Key::Swatch => {
                area.draw(&Rectangle::new(
                    [(lx, ly + 3), (lx + 14, ly + 15)],
                    color.filled(),
                ))
                .map_err(err)?;
                lx + 20
            }
            Key::Line => {
                area.draw(&PathElement::new(
                    vec![(lx, ly + 9), (lx + 20, ly + 9)],
                    color.stroke_width(2),
                ))
                .map_err(err)?;
                super::line::draw_marker(area, i, (lx + 10, ly + 9), color).map_err(err)?;
                lx + 26
            }
        };
        area.draw_text(
            name,
            &text(theme, 13.0).pos(Pos::new(HPos::Left, VPos::Center)),
            (text_x, ly + 9),
        )
        .map_err(err)?;
    }
    Ok(top + rows * LEGEND_ROW + at.gap)
}

/// Where each legend entry goes (its left edge and row, 0-based) and how many rows there are:
/// entries left to right, wrapping to a new row when one would pass `at.right`.
fn legend_places(names: &[&str], at: LegendLayout) -> (Vec<(i32, i32)>, i32) {
    let (mut lx, mut row) = (at.x0, 0);
    let places = names
        .iter()
        .map(|name| {
            let item_w = at.width + (name.chars().count() as i32) * 7;
            if lx + item_w > at.right && lx > at.x0 {
                lx = at.x0;
                row += 1;
            }
            let place = (lx, row);
            lx += item_w;
            place
        })
        .collect();
    (places, row + 1)
}

/// The height [`legend`] takes for `names` (rows of [`LEGEND_ROW`] plus the gap below), from
/// the same placement ([`legend_places`]), without drawing.
pub fn legend_height(names: &[&str], at: LegendLayout) -> i32 {
    if names.is_empty() {
        return 0;
    }
    legend_places(names, at).1 * LEGEND_ROW + at.gap
}

/// `Ok` when every value is a finite number, else a message naming the series.
///
/// # Errors
/// "series NAME: a value is not a finite number".
pub fn check_finite(series: &str, mut values: impl Iterator<Item = f64>) -> Result<(), String> {
    if values.any(|v| !v.is_finite()) {
        return Err(format!("series {series:?}: a value is not a finite number"));
    }
    Ok(())
}
