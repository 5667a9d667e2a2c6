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

/// Fills the background and draws the title (when not empty), centred at the top, on as many
/// lines as it needs to fit the width ([`title_lines`]; a long title on a phone-width chart
/// was cut at both ends). Returns the area's width and height and the y below the title.
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
        let style = text(theme, TITLE_PX).pos(Pos::new(HPos::Center, VPos::Top));
        for line in title_lines(title, w - 2 * MARGIN, title_width) {
            area.draw_text(&line, &style, (w / 2, top)).map_err(err)?;
            top += TITLE_H;
        }
    }
    Ok((w, h, top))
}

/// The title's font size (pixels).
const TITLE_PX: f64 = 16.0;

/// A title line's width, estimated as 0.55 em per character, about a sans-serif font's mean
/// (as the legend estimates its names). Not measured: plotters measures text in the browser by
/// adding a `<span>` with an inline style to the page, which the Content Security Policy
/// refuses (and which would force a layout per line).
fn title_width(s: &str) -> i32 {
    (s.chars().count() as f64 * TITLE_PX * 0.55).ceil() as i32
}

/// A line's width in pixels at `px`, estimated as [`title_width`] does (0.55 em per
/// character).
pub fn text_width(s: &str, px: f64) -> i32 {
    (s.chars().count() as f64 * px * 0.55).ceil() as i32
}

/// `title` broken at spaces into lines no wider than `max` (as `width` measures them), each
/// line taking as many words as fit; a word wider than `max` has a line of its own.
pub fn title_lines(title: &str, max: i32, width: impl Fn(&str) -> i32) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in title.split(' ').filter(|w| !w.is_empty()) {
        let joined = if line.is_empty() {
            word.to_string()
        } else {
            format!("{line} {word}")
        };
        if line.is_empty() || width(&joined) <= max {
            line = joined;
        } else {
            lines.push(std::mem::replace(&mut line, word.to_string()));
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_titles_wrap_at_spaces_to_the_width() {
        // 10 px per character.
        let width = |s: &str| 10 * s.chars().count() as i32;
        let title = "KiVA: What by domain (first rows of the table; ±1 SE)";
        // 54 characters: one line in 600 px.
        assert_eq!(title_lines(title, 600, width), vec![title.to_string()]);
        // 35 characters per line at most.
        assert_eq!(
            title_lines(title, 350, width),
            vec![
                "KiVA: What by domain (first rows of".to_string(),
                "the table; ±1 SE)".to_string()
            ]
        );
        // A word wider than the line keeps a line of its own; nothing is dropped.
        assert_eq!(
            title_lines("a verylongword b", 50, width),
            vec!["a".to_string(), "verylongword".to_string(), "b".to_string()]
        );
        assert!(title_lines("", 100, width).is_empty());
        // The estimate used: 0.55 x 16 px per character, rounded up (3 x 8.8 = 26.4).
        assert_eq!(title_width("abc"), 27);
        // The KiVA chart's title on a phone (a 350 px canvas): two lines.
        assert_eq!(title_lines(title, 350 - 2 * MARGIN, title_width).len(), 2);
    }
}
