//! Radar (spider) chart: one axis per category, several models overlaid (MM-IQ paradigms,
//! MM-OPERA L-3 abilities).

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::frame::{self, Key, LegendLayout};
use super::theme::ChartTheme;

/// One polygon of a radar chart.
#[derive(Debug, Clone, PartialEq)]
pub struct RadarSeries {
    /// Name shown in the legend.
    pub name: String,
    /// One value per axis (`None` is drawn at the centre and its vertex is not marked).
    pub values: Vec<Option<f64>>,
}

/// Data of a radar chart.
#[derive(Debug, Clone, PartialEq)]
pub struct Radar {
    /// Title drawn above the chart (empty for none).
    pub title: String,
    /// Axis labels, clockwise from the top.
    pub axes: Vec<String>,
    /// The overlaid series.
    pub series: Vec<RadarSeries>,
    /// The value at the outer ring (e.g. 1.0 for proportions).
    pub max: f64,
    /// Colours.
    pub theme: ChartTheme,
}

/// The axis labels' font size (pixels) and line height.
const LABEL_PX: f64 = 13.0;
const LINE_PX: i32 = 15;
/// Where an axis label is placed, as a fraction of the radius along its spoke.
const SPOKE_LABEL: f64 = 1.08;

/// Draws a radar chart with four rings, spokes with labels, one outlined and lightly filled
/// polygon per series with marked vertices, and a legend.
///
/// # Errors
/// A message when there are fewer than three axes, a series has the wrong number of values or
/// a non-finite value, `max` is not positive, or the backend fails.
pub fn draw_radar<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &Radar,
) -> Result<(), String> {
    let n = data.axes.len();
    if n < 3 {
        return Err(format!("a radar chart needs at least 3 axes, got {n}"));
    }
    if !(data.max.is_finite() && data.max > 0.0) {
        return Err(format!(
            "the outer ring value must be positive, got {}",
            data.max
        ));
    }
    for s in &data.series {
        if s.values.len() != n {
            return Err(format!(
                "series {:?}: {} values for {} axes",
                s.name,
                s.values.len(),
                n
            ));
        }
        frame::check_finite(&s.name, s.values.iter().flatten().copied())?;
    }
    let e = frame::err::<DB::ErrorType>;
    let theme = &data.theme;
    let text = |size: f64| frame::text(theme, size);
    let (w, h, top) = frame::begin(area, theme, &data.title)?;
    // Legend rows.
    let names: Vec<&str> = data.series.iter().map(|s| s.name.as_str()).collect();
    let layout = LegendLayout {
        x0: 10,
        right: w - 10,
        width: 40,
        gap: 6,
    };
    let top = frame::legend(area, theme, &names, top, Key::Swatch, layout)?;
    // Axis labels wider than a quarter of the chart wrap at spaces, and the radius is the
    // largest at which every label's widest line ends inside the chart beside its spoke (at a
    // phone's width MM-OPERA's "Contextual Sensitivity" ran off the edge).
    let label_w = |s: &str| frame::text_width(s, LABEL_PX);
    let labels: Vec<Vec<String>> = data
        .axes
        .iter()
        .map(|l| frame::title_lines(l, (w / 4).max(60), label_w))
        .collect();
    let angle = |axis: usize| std::f64::consts::TAU * axis as f64 / n as f64;
    // Lines above the top spoke's end and below the bottom one (vertical room).
    let lines_at = |up: bool| {
        (0..n)
            .filter(|&a| {
                if up {
                    angle(a).cos() > 0.9
                } else {
                    angle(a).cos() < -0.9
                }
            })
            .map(|a| labels[a].len() as i32)
            .max()
            .unwrap_or(0)
    };
    let (above, below) = (lines_at(true).max(1), lines_at(false));
    let mut fit = f64::from((h - top - 16 - LINE_PX * (above + below)) / 2) / SPOKE_LABEL;
    for (a, lines) in labels.iter().enumerate() {
        let side = angle(a).sin().abs();
        if side > 0.05 {
            let widest = lines.iter().map(|l| label_w(l)).max().unwrap_or(0);
            fit = fit.min(f64::from(w / 2 - 8 - widest) / (SPOKE_LABEL * side));
        }
    }
    let radius = (fit.floor() as i32).max(w / 8).max(10);
    let (cx, cy) = (
        w / 2,
        top + 8 + LINE_PX * above + (f64::from(radius) * SPOKE_LABEL).round() as i32,
    );
    let point = |axis: usize, frac: f64| -> (i32, i32) {
        let r = f64::from(radius) * frac;
        (
            cx + (r * angle(axis).sin()).round() as i32,
            cy - (r * angle(axis).cos()).round() as i32,
        )
    };
    // The rings' values go along the bisector of the first two axes, not up the first axis,
    // where the outer one ran into that axis's label (issue 42, defect 13: "100" over "LO").
    let half = std::f64::consts::PI / n as f64;
    for ring in 1..=4 {
        let frac = f64::from(ring) / 4.0;
        let mut pts: Vec<(i32, i32)> = (0..n).map(|a| point(a, frac)).collect();
        pts.push(pts[0]);
        area.draw(&PathElement::new(pts, theme.muted.stroke_width(1)))
            .map_err(e)?;
        let r = f64::from(radius) * frac * half.cos();
        area.draw_text(
            &format!("{}", data.max * frac),
            &text(11.0).pos(Pos::new(HPos::Left, VPos::Center)),
            (
                cx + (r * half.sin()).round() as i32 + 3,
                cy - (r * half.cos()).round() as i32,
            ),
        )
        .map_err(e)?;
    }
    for (a, lines) in labels.iter().enumerate() {
        area.draw(&PathElement::new(
            vec![(cx, cy), point(a, 1.0)],
            theme.muted.stroke_width(1),
        ))
        .map_err(e)?;
        let (x, y) = point(a, SPOKE_LABEL);
        let h = if x < cx - 5 {
            HPos::Right
        } else if x > cx + 5 {
            HPos::Left
        } else {
            HPos::Center
        };
        let v = if y < cy - 5 {
            VPos::Bottom
        } else if y > cy + 5 {
            VPos::Top
        } else {
            VPos::Center
        };
        // The block of lines sits above, below or beside the spoke's end as one line did.
        let k = lines.len() as i32;
        let first = match v {
            VPos::Bottom => y - LINE_PX * (k - 1),
            VPos::Top => y,
            VPos::Center => y - LINE_PX * (k - 1) / 2,
        };
        for (i, line) in lines.iter().enumerate() {
            area.draw_text(
                line,
                &text(LABEL_PX).pos(Pos::new(h, v)),
                (x, first + LINE_PX * i as i32),
            )
            .map_err(e)?;
        }
    }
    for (i, s) in data.series.iter().enumerate() {
        let color = theme.series(i);
        // A missing value is a gap, not zero (issue 26, defect 2): the outline joins only
        // neighbouring axes that both have a value, and the area is filled only when every
        // axis has one.
        let pts: Vec<Option<(i32, i32)>> = s
            .values
            .iter()
            .enumerate()
            .map(|(a, v)| v.map(|v| point(a, (v / data.max).clamp(0.0, 1.1))))
            .collect();
        let n = pts.len();
        if let Some(all) = pts.iter().copied().collect::<Option<Vec<_>>>() {
            area.draw(&Polygon::new(all, color.mix(0.15).filled()))
                .map_err(e)?;
        }
        for a in 0..n {
            if let (Some(p), Some(q)) = (pts[a], pts[(a + 1) % n]) {
                area.draw(&PathElement::new(vec![p, q], color.stroke_width(2)))
                    .map_err(e)?;
            }
        }
        for p in pts.iter().flatten() {
            area.draw(&Circle::new(*p, 3, color.filled())).map_err(e)?;
        }
    }
    area.present().map_err(e)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use plotters_svg::SVGBackend;

    fn sample() -> Radar {
        Radar {
            title: "MM-IQ paradigms".into(),
            axes: ["LO", "Math", "2D-G", "3D-G"].map(String::from).to_vec(),
            series: vec![
                RadarSeries {
                    name: "A".into(),
                    values: vec![Some(1.0), Some(0.5), Some(0.0), None],
                },
                RadarSeries {
                    name: "B".into(),
                    values: vec![Some(0.25), Some(0.25), Some(0.25), Some(0.25)],
                },
            ],
            max: 1.0,
            theme: ChartTheme::light(),
        }
    }

    fn render(d: &Radar) -> Result<String, String> {
        let mut svg = String::new();
        {
            let area = SVGBackend::with_string(&mut svg, (500, 500)).into_drawing_area();
            draw_radar(&area, d)?;
        }
        Ok(svg)
    }

    /// Centres of the `<circle>` elements (the marked vertices).
    fn circles(svg: &str) -> Vec<(i32, i32)> {
        let num = |el: &str, name: &str| -> i32 {
            let key = format!(" {name}=\"");
            let s = el.find(&key).unwrap() + key.len();
            el[s..s + el[s..].find('"').unwrap()].parse().unwrap()
        };
        svg.split("<circle")
            .skip(1)
            .map(|c| (num(c, "cx"), num(c, "cy")))
            .collect()
    }

    /// The `x` and `y` of the `<text>` element whose content is `label`.
    fn text_xy(svg: &str, label: &str) -> (i32, i32) {
        let el = svg
            .split("<text")
            .find(|t| t.contains(&format!(">{label}<")) || t.contains(&format!(">\n{label}\n<")))
            .unwrap_or_else(|| panic!("{label} drawn"));
        let num = |name: &str| -> i32 {
            let key = format!(" {name}=\"");
            let s = el.find(&key).unwrap() + key.len();
            el[s..s + el[s..].find('"').unwrap()].parse().unwrap()
        };
        (num("x"), num("y"))
    }

    /// Issue 42, defect 13: the outer ring's value sat on the first axis, under its label
    /// ("1" over "LO"); the values go along the bisector of the first two axes.
    #[test]
    fn ring_values_keep_clear_of_the_first_axis_label() {
        let svg = render(&sample()).unwrap();
        let (lo_x, lo_y) = text_xy(&svg, "LO");
        let (one_x, one_y) = text_xy(&svg, "1");
        assert_eq!(lo_x, 250, "LO is on the vertical axis");
        // Four axes: the bisector is at 45 degrees, so the outer value sits half a radius
        // right of the centre and half a radius above it, well clear of LO's line.
        assert!(one_x > lo_x + 40, "1 at x {one_x}, LO at x {lo_x}");
        assert!(one_y > lo_y + 40, "1 at y {one_y}, LO at y {lo_y}");
    }

    #[test]
    fn vertices_sit_at_their_values_along_the_spokes() {
        let svg = render(&sample()).unwrap();
        let c = circles(&svg);
        // A marks 3 vertices (its None is not marked), B marks 4.
        assert_eq!(c.len(), 7, "{svg}");
        // A's value 0 on axis 2 is the centre; value 1 on axis 0 is straight above it at the
        // full radius; 0.5 on axis 1 (pointing right) is half the radius to the right.
        let centre = c[2];
        let top = c[0];
        assert_eq!(top.0, centre.0);
        let radius = centre.1 - top.1;
        assert!(radius > 100, "radius {radius}");
        assert_eq!(c[1].1, centre.1);
        assert!((c[1].0 - centre.0 - radius / 2).abs() <= 1);
        // B at 0.25 on every axis: a quarter of the radius up, right, down, left.
        let q = radius / 4;
        let b = &c[3..];
        assert!((centre.1 - b[0].1 - q).abs() <= 1);
        assert!((b[1].0 - centre.0 - q).abs() <= 1);
        assert!((b[2].1 - centre.1 - q).abs() <= 1);
        assert!((centre.0 - b[3].0 - q).abs() <= 1);
    }

    /// The `points` of every `<polyline>` drawn in `color` (an SVG `#rrggbb`, lowercase or not).
    fn lines_in(svg: &str, color: &str) -> Vec<Vec<(i32, i32)>> {
        svg.split("<polyline")
            .skip(1)
            .map(|el| &el[..el.find("/>").unwrap_or(el.len())])
            .filter(|el| {
                el.to_ascii_lowercase()
                    .contains(&color.to_ascii_lowercase())
            })
            .map(|el| {
                let s = el.find("points=\"").unwrap() + 8;
                el[s..s + el[s..].find('"').unwrap()]
                    .split_whitespace()
                    .map(|p| {
                        let (x, y) = p.split_once(',').unwrap();
                        (x.parse().unwrap(), y.parse().unwrap())
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn defect_2_a_missing_value_is_a_gap_not_zero() {
        // One series at the full radius on axes 0-2 and missing on axis 3 (a model with no
        // items of that paradigm). Before: the outline went through the centre (missing = 0)
        // and the area was filled. Now: two outline segments (0-1, 1-2), none touching the
        // centre, and no fill.
        let d = Radar {
            series: vec![RadarSeries {
                name: "A".into(),
                values: vec![Some(1.0), Some(1.0), Some(1.0), None],
            }],
            ..sample()
        };
        let svg = render(&d).unwrap();
        let color = ChartTheme::css(d.theme.series(0));
        let segments = lines_in(&svg, &color);
        assert_eq!(segments.len(), 2, "{segments:?}");
        let c = circles(&svg);
        assert_eq!(c.len(), 3);
        // Axis 0 is straight up, axis 2 straight down: the centre is half-way between.
        let centre = (c[0].0, (c[0].1 + c[2].1) / 2);
        for seg in &segments {
            assert_eq!(seg.len(), 2);
            assert!(
                !seg.contains(&centre),
                "a segment touches the centre: {seg:?}"
            );
        }
        assert!(
            !svg.contains("<polygon"),
            "a series with a gap is not filled"
        );
        // With every value present the area is filled again.
        let full = Radar {
            series: vec![RadarSeries {
                name: "A".into(),
                values: vec![Some(1.0); 4],
            }],
            ..sample()
        };
        let svg = render(&full).unwrap();
        assert_eq!(svg.matches("<polygon").count(), 1);
        assert_eq!(lines_in(&svg, &color).len(), 4);
    }

    /// At a phone's width, MM-OPERA's twelve L-3 abilities: every label line ends inside the
    /// chart (by the 0.55 em estimate the layout uses; "Contextual Sensitivity" ran off the
    /// right edge), long labels wrap, and the radius stays usable.
    #[test]
    fn long_labels_stay_inside_a_narrow_chart() {
        let axes = [
            "Abstract Interpretation",
            "Analogical Reasoning",
            "Causal Connection",
            "Contextual Sensitivity",
            "Cultural Reference",
            "Functional Links",
            "Hierarchical Association",
            "Relational Perception",
            "Scene Contextualization",
            "Semantic Object",
            "Social Insight",
            "Thematic Links",
        ];
        let data = Radar {
            title: "MM-OPERA ICA: score rate by L-3 ability".into(),
            axes: axes.iter().map(|a| a.to_string()).collect(),
            series: vec![RadarSeries {
                name: "gpt-4o".into(),
                values: vec![Some(0.5); 12],
            }],
            max: 1.0,
            theme: ChartTheme::dark(),
        };
        let (w, h) = (320, 380);
        let mut svg = String::new();
        {
            let area = SVGBackend::with_string(&mut svg, (w, h)).into_drawing_area();
            draw_radar(&area, &data).unwrap();
        }
        let mut words = 0;
        for el in svg.split("<text").skip(1) {
            let body = &el[el.find('>').unwrap() + 1..el.find("</text>").unwrap()];
            let line = body.trim();
            if !axes.iter().any(|a| a.split(' ').any(|w| line.contains(w))) {
                continue;
            }
            words += line.split(' ').count();
            let num = |name: &str| -> i32 {
                let key = format!(" {name}=\"");
                let s = el.find(&key).unwrap() + key.len();
                el[s..s + el[s..].find('"').unwrap()].parse().unwrap()
            };
            let x = num("x");
            let width = crate::charts::frame::text_width(line, LABEL_PX);
            let (left, right) = if el.contains("text-anchor=\"end\"") {
                (x - width, x)
            } else if el.contains("text-anchor=\"middle\"") {
                (x - width / 2, x + width / 2)
            } else {
                (x, x + width)
            };
            assert!(
                left >= 0 && right <= w as i32,
                "{line:?} spans {left}..{right} of {w}"
            );
        }
        // Every word of every label was drawn, some labels on two lines.
        assert_eq!(
            words,
            axes.iter().map(|a| a.split(' ').count()).sum::<usize>()
        );
        assert_eq!(
            svg.matches(">\nContextual\n<").count() + svg.matches(">Contextual<").count(),
            1,
            "{svg}"
        );
        // The radius is at least an eighth of the width: the vertices at half the outer ring
        // reach a sixteenth of it beside the centre.
        let c = circles(&svg);
        let cx = w as i32 / 2;
        let reach = c.iter().map(|&(x, _)| (x - cx).abs()).max().unwrap();
        assert!(reach >= w as i32 / 16, "{c:?}");
    }

    #[test]
    fn labels_legend_and_errors() {
        let svg = render(&sample()).unwrap();
        for l in ["LO", "Math", "2D-G", "3D-G", "MM-IQ paradigms"] {
            assert!(svg.contains(l), "{l}");
        }
        let mut d = sample();
        d.axes.truncate(2);
        assert!(render(&d).unwrap_err().contains("at least 3 axes"));
        let mut d = sample();
        d.series[1].values.pop();
        assert!(render(&d)
            .unwrap_err()
            .contains("\"B\": 3 values for 4 axes"));
        let mut d = sample();
        d.max = 0.0;
        assert!(render(&d).is_err());
    }
}
