//! Curves over a numeric axis, one line per series with a legend: item characteristic curves
//! and the test information over ability (item analysis), the reduced subset's tau against
//! subset size. The points come from the worker's report; this only draws them.
//!
//! Drawn by hand on the drawing area (pixel layout computed here), as [`super::line`], so it
//! renders the same on a canvas and in SVG and its geometry is testable natively.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::frame::{self, Key, LegendLayout, MARGIN};
use super::theme::ChartTheme;

/// One curve.
#[derive(Debug, Clone, PartialEq)]
pub struct Curve {
    /// Name shown in the legend.
    pub name: String,
    /// `(x, y)` points in x order (`None` y breaks the line).
    pub points: Vec<(f64, Option<f64>)>,
}

/// Data of a curve chart.
#[derive(Debug, Clone, PartialEq)]
pub struct CurveChart {
    /// Title drawn above the chart (empty for none).
    pub title: String,
    /// Label of the horizontal axis.
    pub x_label: String,
    /// Label of the vertical axis.
    pub y_label: String,
    /// Range of the horizontal axis.
    pub x_range: (f64, f64),
    /// Range of the vertical axis.
    pub y_range: (f64, f64),
    /// An optional horizontal reference line (e.g. the target tau) and its label.
    pub reference: Option<(f64, String)>,
    /// The curves.
    pub curves: Vec<Curve>,
    /// Colours.
    pub theme: ChartTheme,
}

const LEFT_AXIS: i32 = 64;
const BOTTOM_AXIS: i32 = 44;
/// Most legend entries drawn (the rest are summed up as "+ n more").
pub const MAX_LEGEND: usize = 12;

/// A tick label: integers without decimals, else up to 2 decimals.
fn tick(v: f64) -> String {
    if (v - v.round()).abs() < 1e-9 {
        format!("{}", v.round() as i64)
    } else {
        let s = format!("{v:.2}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// Draws the curves with axes, 5 grid steps on each axis, the reference line and a legend.
///
/// # Errors
/// A message when a range is empty or not finite, a point is not finite, or the backend fails.
pub fn draw_curves<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &CurveChart,
) -> Result<(), String> {
    let ((xa, xb), (ya, yb)) = (data.x_range, data.y_range);
    if !(xa.is_finite() && xb.is_finite() && xb > xa) {
        return Err(format!("the horizontal range {xa} to {xb} is empty"));
    }
    if !(ya.is_finite() && yb.is_finite() && yb > ya) {
        return Err(format!("the vertical range {ya} to {yb} is empty"));
    }
    for c in &data.curves {
        frame::check_finite(
            &c.name,
            c.points
                .iter()
                .flat_map(|(x, y)| std::iter::once(*x).chain(*y)),
        )?;
    }
    let e = frame::err::<DB::ErrorType>;
    let theme = &data.theme;
    let text = |size: f64| frame::text(theme, size);
    let (w, h, top) = frame::begin(area, theme, &data.title)?;
    let layout = LegendLayout {
        x0: LEFT_AXIS,
        right: w - MARGIN,
        width: 44,
        gap: 8,
    };
    // As many entries as fit in a third of the height below the title (on a phone, where each
    // entry takes a row, a dozen would leave no room for the plot), the rest as "+ n more".
    let legend_names = |shown: usize| {
        let mut names: Vec<String> = data
            .curves
            .iter()
            .take(shown)
            .map(|c| c.name.clone())
            .collect();
        if data.curves.len() > shown {
            names.push(format!("+ {} more", data.curves.len() - shown));
        }
        names
    };
    let room = (h - top) / 3;
    let mut shown = data.curves.len().min(MAX_LEGEND);
    let mut names = legend_names(shown);
    while shown > 1 {
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        if frame::legend_height(&refs, layout) <= room {
            break;
        }
        shown -= 1;
        names = legend_names(shown);
    }
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let top = if data.curves.len() > 1 {
        frame::legend(area, theme, &names, top, Key::Line, layout)?
    } else {
        top
    };
    let (x0, x1) = (LEFT_AXIS, w - MARGIN - 10);
    let (y0, y1) = (h - BOTTOM_AXIS, top + 24);
    if x1 <= x0 || y0 <= y1 {
        return Err(format!("the drawing area ({w}×{h}) is too small"));
    }
    let x_of =
        |v: f64| x0 + (((v - xa) / (xb - xa)).clamp(0.0, 1.0) * f64::from(x1 - x0)).round() as i32;
    let y_of = |v: f64| {
        y0 - (((v - ya) / (yb - ya)).clamp(-0.02, 1.05) * f64::from(y0 - y1)).round() as i32
    };
    for t in 0..=5 {
        let v = ya + (yb - ya) * f64::from(t) / 5.0;
        let y = y_of(v);
        area.draw(&PathElement::new(
            vec![(x0, y), (x1, y)],
            theme.muted.stroke_width(1),
        ))
        .map_err(e)?;
        area.draw_text(
            &tick(v),
            &text(12.0).pos(Pos::new(HPos::Right, VPos::Center)),
            (x0 - 6, y),
        )
        .map_err(e)?;
        let xv = xa + (xb - xa) * f64::from(t) / 5.0;
        area.draw_text(
            &tick(xv),
            &text(12.0).pos(Pos::new(HPos::Center, VPos::Top)),
            (x_of(xv), y0 + 6),
        )
        .map_err(e)?;
    }
    area.draw(&PathElement::new(
        vec![(x0, y1), (x0, y0), (x1, y0)],
        theme.foreground.stroke_width(1),
    ))
    .map_err(e)?;
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
    if let Some((v, label)) = &data.reference {
        let y = y_of(*v);
        area.draw(&PathElement::new(
            vec![(x0, y), (x1, y)],
            theme.foreground.stroke_width(1),
        ))
        .map_err(e)?;
        area.draw_text(
            label,
            &text(12.0).pos(Pos::new(HPos::Right, VPos::Bottom)),
            (x1, y - 3),
        )
        .map_err(e)?;
    }
    for (i, c) in data.curves.iter().enumerate() {
        let color = theme.series(i);
        let mut runs: Vec<Vec<(i32, i32)>> = vec![Vec::new()];
        for &(x, y) in &c.points {
            match y {
                Some(y) => runs.last_mut().map_or((), |r| r.push((x_of(x), y_of(y)))),
                None => runs.push(Vec::new()),
            }
        }
        for r in runs.into_iter().filter(|r| r.len() >= 2) {
            area.draw(&PathElement::new(r, color.stroke_width(2)))
                .map_err(e)?;
        }
    }
    area.present().map_err(e)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use plotters_svg::SVGBackend;

    fn sample() -> CurveChart {
        CurveChart {
            title: "Item characteristic curves".into(),
            x_label: "Ability θ".into(),
            y_label: "P(right)".into(),
            x_range: (-4.0, 4.0),
            y_range: (0.0, 1.0),
            reference: Some((0.5, "half".into())),
            curves: vec![
                Curve {
                    name: "item 7".into(),
                    points: vec![(-4.0, Some(0.0)), (0.0, Some(0.5)), (4.0, Some(1.0))],
                },
                Curve {
                    name: "item 9".into(),
                    points: vec![
                        (-4.0, Some(0.2)),
                        (0.0, None),
                        (2.0, Some(0.4)),
                        (4.0, Some(0.6)),
                    ],
                },
            ],
            theme: ChartTheme::light(),
        }
    }

    fn render(d: &CurveChart) -> Result<String, String> {
        let mut svg = String::new();
        {
            let area = SVGBackend::with_string(&mut svg, (600, 400)).into_drawing_area();
            draw_curves(&area, d)?;
        }
        Ok(svg)
    }

    /// The `points` of each 2-px polyline (the curves and the legend strokes).
    fn thick(svg: &str) -> Vec<Vec<(i32, i32)>> {
        svg.split("<polyline")
            .skip(1)
            .filter(|p| p.contains("stroke-width=\"2\""))
            .map(|p| {
                let s = p.find("points=\"").unwrap() + 8;
                p[s..s + p[s..].find('"').unwrap()]
                    .split_whitespace()
                    .map(|xy| {
                        let (x, y) = xy.split_once(',').unwrap();
                        (x.parse().unwrap(), y.parse().unwrap())
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn points_sit_on_the_axes_scale_and_gaps_break_lines() {
        let svg = render(&sample()).unwrap();
        let lines = thick(&svg);
        // Two legend strokes (2 points each), curve 1 (3 points), curve 2 after its gap
        // (2 points; the single point before the gap draws nothing).
        let lens: Vec<usize> = lines.iter().map(Vec::len).collect();
        assert_eq!(lens, [2, 2, 3, 2], "{lens:?}");
        let c = &lines[2];
        // theta = 0 is half way between -4 and 4; P = 0.5 half way between 0 and 1.
        assert!((c[1].0 - (c[0].0 + c[2].0) / 2).abs() <= 1, "{c:?}");
        assert!((c[1].1 - (c[0].1 + c[2].1) / 2).abs() <= 1, "{c:?}");
        // The plot spans the width: x = -4 at the left axis (64 px), 4 at 600 - 10 - 10.
        assert_eq!((c[0].0, c[2].0), (64, 580));
        // Curve 2's x = 2 is three quarters of the way.
        let d = &lines[3];
        assert_eq!(d[0].0, 64 + (0.75f64 * 516.0).round() as i32);
        for l in [
            "Item characteristic curves",
            "item 7",
            "item 9",
            "Ability θ",
            "half",
            "-4",
            "0.4",
        ] {
            assert!(svg.contains(l), "{l}");
        }
    }

    #[test]
    fn refuses_bad_ranges_and_values() {
        let mut d = sample();
        d.x_range = (1.0, 1.0);
        assert!(render(&d).unwrap_err().contains("horizontal range"));
        let mut d = sample();
        d.y_range = (0.0, f64::NAN);
        assert!(render(&d).unwrap_err().contains("vertical range"));
        let mut d = sample();
        d.curves[0].points[1].1 = Some(f64::INFINITY);
        assert!(render(&d).is_err());
        assert_eq!(
            (tick(2.0), tick(0.25), tick(-1.6)),
            ("2".into(), "0.25".into(), "-1.6".into())
        );
    }

    #[test]
    fn a_phone_width_chart_of_many_curves_keeps_room_for_the_plot() {
        // 20 curves with item-id names as long as KiVA's, at 358 x 322 px (a 390 px phone):
        // one legend entry per row, so a dozen entries (and the plot below them) cannot fit.
        // Before: "the drawing area (358x322) is too small".
        let mut d = sample();
        d.curves = (0..20)
            .map(|k| Curve {
                name: format!("2DRotation+90/{k}/extrapolation"),
                points: vec![(-4.0, Some(0.1)), (4.0, Some(0.9))],
            })
            .collect();
        let mut svg = String::new();
        {
            let area = SVGBackend::with_string(&mut svg, (358, 322)).into_drawing_area();
            draw_curves(&area, &d).unwrap();
        }
        // Entries while they fit in a third of the height under the title, then "+ n more".
        let shown = (0..20)
            .filter(|k| svg.contains(&format!("2DRotation+90/{k}/extrapolation\n")))
            .count();
        assert!((1..=4).contains(&shown), "{shown} entries");
        assert!(svg.contains(&format!("+ {} more", 20 - shown)));
        // All 20 curves are drawn (two points each), beside the legend's strokes (one per
        // entry shown and one for "+ n more").
        let curves = thick(&svg).iter().filter(|l| l.len() == 2).count();
        assert_eq!(curves, 20 + shown + 1);
        // At 900 px wide the legend is not cut short below the dozen.
        let mut wide = String::new();
        {
            let area = SVGBackend::with_string(&mut wide, (900, 400)).into_drawing_area();
            draw_curves(&area, &d).unwrap();
        }
        assert!(wide.contains("+ 8 more"), "twelve entries at 900 px");
    }
}
