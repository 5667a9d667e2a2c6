//! Line chart over categories, one line per series with markers and a legend (MM-OPERA score
//! rate by hop count, one line per model).
//!
//! Drawn by hand on the drawing area (pixel layout computed here) so the same function renders
//! identically on a canvas and in SVG, and its geometry is testable natively.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::frame::{self, Key, LegendLayout, MARGIN};
use super::theme::ChartTheme;

/// One line of a line chart.
#[derive(Debug, Clone, PartialEq)]
pub struct LineSeries {
    /// Name shown in the legend.
    pub name: String,
    /// One value per category (`None` leaves a gap: no marker, the line is broken there).
    pub values: Vec<Option<f64>>,
}

/// Data of a line chart.
#[derive(Debug, Clone, PartialEq)]
pub struct LineChart {
    /// Title drawn above the chart (empty for none).
    pub title: String,
    /// Label of the horizontal (category) axis.
    pub x_label: String,
    /// Label of the value axis.
    pub y_label: String,
    /// Category labels, left to right.
    pub categories: Vec<String>,
    /// The lines.
    pub series: Vec<LineSeries>,
    /// Top of the value axis (e.g. 1.0 for proportions).
    pub y_max: f64,
    /// Colours.
    pub theme: ChartTheme,
}

const LEFT_AXIS: i32 = 60;
const BOTTOM_AXIS: i32 = 44;

/// The marker shape of series `i`: circle, square, triangle, diamond (cycled), so lines
/// stay apart without colour.
pub fn marker_shape(i: usize) -> &'static str {
    ["circle", "square", "triangle", "diamond"][i % 4]
}

pub(crate) fn draw_marker<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    i: usize,
    (x, y): (i32, i32),
    color: RGBColor,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let r = 5;
    match i % 4 {
        0 => area.draw(&Circle::new((x, y), r, color.filled())),
        1 => area.draw(&Rectangle::new(
            [(x - r + 1, y - r + 1), (x + r - 1, y + r - 1)],
            color.filled(),
        )),
        2 => area.draw(&Polygon::new(
            vec![(x, y - r - 1), (x + r, y + r - 1), (x - r, y + r - 1)],
            color.filled(),
        )),
        _ => area.draw(&Polygon::new(
            vec![
                (x, y - r - 1),
                (x + r + 1, y),
                (x, y + r + 1),
                (x - r - 1, y),
            ],
            color.filled(),
        )),
    }
}

/// Draws the lines with markers at each value, a value axis from 0 to `y_max` with grid lines,
/// category labels, axis labels, and a legend showing each series' colour and marker.
///
/// # Errors
/// A message when there is no category, a series has the wrong number of values or a
/// non-finite value, `y_max` is not positive, or the backend fails.
pub fn draw_lines<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &LineChart,
) -> Result<(), String> {
    let n = data.categories.len();
    if n == 0 {
        return Err("a line chart needs at least one category".into());
    }
    if !(data.y_max.is_finite() && data.y_max > 0.0) {
        return Err(format!(
            "the top of the value axis must be positive, got {}",
            data.y_max
        ));
    }
    for s in &data.series {
        if s.values.len() != n {
            return Err(format!(
                "series {:?}: {} values for {} categories",
                s.name,
                s.values.len(),
                n
            ));
        }
        frame::check_finite(&s.name, s.values.iter().flatten().copied())?;
    }
    let e = frame::err::<DB::ErrorType>;
    let theme = &data.theme;
    let fg = theme.foreground;
    let text = |size: f64| frame::text(theme, size);
    let (w, h, top) = frame::begin(area, theme, &data.title)?;
    // Legend: marker and name per series, wrapping.
    let names: Vec<&str> = data.series.iter().map(|s| s.name.as_str()).collect();
    let layout = LegendLayout {
        x0: LEFT_AXIS,
        right: w - MARGIN,
        width: 44,
        gap: 8,
    };
    let top = frame::legend(area, theme, &names, top, Key::Line, layout)?;
    let (x0, x1) = (LEFT_AXIS, w - MARGIN - 10);
    let (y0, y1) = (h - BOTTOM_AXIS, top + 24);
    if x1 <= x0 || y0 <= y1 {
        return Err(format!("the drawing area ({w}×{h}) is too small"));
    }
    let y_of =
        |v: f64| y0 - ((v / data.y_max).clamp(0.0, 1.05) * f64::from(y0 - y1)).round() as i32;
    let step = f64::from(x1 - x0) / n as f64;
    let x_of = |k: usize| x0 + (step * (k as f64 + 0.5)).round() as i32;
    // Grid and value labels: 5 steps.
    for t in 0..=5 {
        let v = data.y_max * f64::from(t) / 5.0;
        let y = y_of(v);
        area.draw(&PathElement::new(
            vec![(x0, y), (x1, y)],
            theme.muted.stroke_width(1),
        ))
        .map_err(e)?;
        let label = if data.y_max <= 1.0 {
            format!("{:.0}%", v * 100.0)
        } else {
            format!("{v}")
        };
        area.draw_text(
            &label,
            &text(12.0).pos(Pos::new(HPos::Right, VPos::Center)),
            (x0 - 6, y),
        )
        .map_err(e)?;
    }
    area.draw(&PathElement::new(
        vec![(x0, y1), (x0, y0), (x1, y0)],
        fg.stroke_width(1),
    ))
    .map_err(e)?;
    for (k, c) in data.categories.iter().enumerate() {
        area.draw_text(
            c,
            &text(13.0).pos(Pos::new(HPos::Center, VPos::Top)),
            (x_of(k), y0 + 6),
        )
        .map_err(e)?;
    }
    area.draw_text(
        &data.x_label,
        &text(13.0).pos(Pos::new(HPos::Center, VPos::Bottom)),
        ((x0 + x1) / 2, h - 2),
    )
    .map_err(e)?;
    area.draw_text(
        &data.y_label,
        &text(13.0).pos(Pos::new(HPos::Left, VPos::Bottom)),
        (MARGIN, y1 - 10),
    )
    .map_err(e)?;
    for (i, s) in data.series.iter().enumerate() {
        let color = theme.series(i);
        let mut run: Vec<(i32, i32)> = Vec::new();
        let mut runs = Vec::new();
        for (k, v) in s.values.iter().enumerate() {
            match v {
                Some(v) => run.push((x_of(k), y_of(*v))),
                None => runs.push(std::mem::take(&mut run)),
            }
        }
        runs.push(run);
        for r in runs.iter().filter(|r| r.len() >= 2) {
            area.draw(&PathElement::new(r.clone(), color.stroke_width(2)))
                .map_err(e)?;
        }
        for p in runs.iter().flatten() {
            draw_marker(area, i, *p, color).map_err(e)?;
        }
    }
    area.present().map_err(e)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use plotters_svg::SVGBackend;

    fn sample() -> LineChart {
        LineChart {
            title: "Score rate by hop count".into(),
            x_label: "Hops".into(),
            y_label: "SR".into(),
            categories: ["1", "2", "3", "4"].map(String::from).to_vec(),
            series: vec![
                LineSeries {
                    name: "modelx".into(),
                    values: vec![Some(1.0), Some(0.5), None, Some(0.0)],
                },
                LineSeries {
                    name: "modely".into(),
                    values: vec![Some(0.25); 4],
                },
            ],
            y_max: 1.0,
            theme: ChartTheme::light(),
        }
    }

    fn render(d: &LineChart) -> Result<String, String> {
        let mut svg = String::new();
        {
            let area = SVGBackend::with_string(&mut svg, (600, 400)).into_drawing_area();
            draw_lines(&area, d)?;
        }
        Ok(svg)
    }

    fn attr(el: &str, name: &str) -> i32 {
        let key = format!(" {name}=\"");
        let s = el.find(&key).unwrap() + key.len();
        el[s..s + el[s..].find('"').unwrap()].parse().unwrap()
    }

    /// Centres of the `<circle>` elements (series 0's markers, legend first).
    fn circles(svg: &str) -> Vec<(i32, i32)> {
        svg.split("<circle")
            .skip(1)
            .map(|c| (attr(c, "cx"), attr(c, "cy")))
            .collect()
    }

    #[test]
    fn markers_sit_at_their_values_and_gaps_break_the_line() {
        let svg = render(&sample()).unwrap();
        // Series 0 (circles): one legend marker, then 3 data markers (its None has none).
        let c = circles(&svg);
        assert_eq!(c.len(), 4, "{svg}");
        let (top, mid, bottom) = (c[1], c[2], c[3]);
        // 1.0 is at the top, 0.0 at the bottom, 0.5 half way.
        assert!(bottom.1 - top.1 > 200, "{top:?} {bottom:?}");
        assert!((mid.1 - (top.1 + bottom.1) / 2).abs() <= 1);
        // Categories are evenly spaced: 1 → 2 is a third of 1 → 4.
        let step = mid.0 - top.0;
        assert!(step > 50);
        assert!((bottom.0 - top.0 - 3 * step).abs() <= 2);
        // Series 0 is drawn as one 2-point segment (1, 2) and no segment for 4 alone;
        // series 1 as one 4-point line; plus two legend strokes, the axes and grid lines.
        let polylines: Vec<&str> = svg.split("<polyline").skip(1).collect();
        let points = |p: &str| {
            let s = p.find("points=\"").unwrap() + 8;
            p[s..s + p[s..].find('"').unwrap()]
                .split_whitespace()
                .count()
        };
        let thick: Vec<usize> = polylines
            .iter()
            .filter(|p| p.contains("stroke-width=\"2\""))
            .map(|p| points(p))
            .collect();
        assert_eq!(thick, [2, 2, 2, 4], "{thick:?}");
        // Series 1's squares: one in the legend and four on its line.
        assert_eq!(svg.matches("<rect").count() - 1, 5);
    }

    #[test]
    fn labels_legend_and_errors() {
        let svg = render(&sample()).unwrap();
        for l in [
            "Score rate by hop count",
            "modelx",
            "modely",
            "Hops",
            "100%",
            "0%",
        ] {
            assert!(svg.contains(l), "{l}");
        }
        let mut dark = sample();
        dark.theme = ChartTheme::dark();
        let svg = render(&dark).unwrap();
        assert!(svg.contains(&ChartTheme::css(ChartTheme::dark().background).to_uppercase()));
        let mut d = sample();
        d.categories.clear();
        assert!(render(&d).unwrap_err().contains("at least one category"));
        let mut d = sample();
        d.series[1].values.pop();
        assert!(render(&d)
            .unwrap_err()
            .contains("\"modely\": 3 values for 4 categories"));
        let mut d = sample();
        d.series[0].values[0] = Some(f64::NAN);
        assert!(render(&d).is_err());
        let mut d = sample();
        d.y_max = 0.0;
        assert!(render(&d).is_err());
        assert_eq!(marker_shape(5), "square");
    }
}
