//! Grouped bars with standard-error bars (KiVA: stage × domain, models beside adults).
//!
//! Drawn by hand on the drawing area (pixel layout computed here) so the same function renders
//! identically on a canvas and in SVG, and its structure is testable natively.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::frame::{self, Key, LegendLayout, MARGIN};
use super::theme::ChartTheme;

/// One series of a grouped bar chart (one model, or the adults).
#[derive(Debug, Clone, PartialEq)]
pub struct BarSeries {
    /// Name shown in the legend.
    pub name: String,
    /// One value per group (`None` draws no bar).
    pub values: Vec<Option<f64>>,
    /// One standard error per group (`None` draws no error bar).
    pub se: Vec<Option<f64>>,
}

/// Data of a grouped bar chart: `groups.len()` groups, one bar per series in each group.
#[derive(Debug, Clone, PartialEq)]
pub struct GroupedBars {
    /// Title drawn above the chart (empty for none).
    pub title: String,
    /// Label of the value axis.
    pub y_label: String,
    /// Group labels along the horizontal axis.
    pub groups: Vec<String>,
    /// The series, drawn side by side within each group in this order.
    pub series: Vec<BarSeries>,
    /// Top of the value axis (e.g. 1.0 for proportions); `None` fits the data.
    pub y_max: Option<f64>,
    /// A dashed horizontal reference line (e.g. chance), with its label.
    pub reference: Option<(f64, String)>,
    /// Colours.
    pub theme: ChartTheme,
}

const LEFT_AXIS: i32 = 56;
const BOTTOM_AXIS: i32 = 34;
/// The group labels' font size (pixels).
const GROUP_LABEL_PX: f64 = 13.0;

/// A "nice" tick step giving about five ticks up to `max`.
fn tick_step(max: f64) -> f64 {
    let raw = max / 5.0;
    let mag = 10f64.powf(raw.log10().floor());
    let norm = raw / mag;
    let nice = if norm <= 1.0 {
        1.0
    } else if norm <= 2.0 {
        2.0
    } else if norm <= 2.5 {
        2.5
    } else if norm <= 5.0 {
        5.0
    } else {
        10.0
    };
    nice * mag
}

fn fmt_tick(v: f64, step: f64) -> String {
    if step >= 1.0 {
        format!("{v:.0}")
    } else if step >= 0.1 {
        format!("{v:.1}")
    } else {
        format!("{v:.2}")
    }
}

/// Draws grouped bars with ±1 SE error bars, a legend and an optional reference line.
///
/// # Errors
/// A message when the data is inconsistent (a series whose value or SE count differs from the
/// number of groups, a non-finite value) or the backend fails.
pub fn draw_grouped_bars<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &GroupedBars,
) -> Result<(), String> {
    let groups = data.groups.len();
    for s in &data.series {
        if s.values.len() != groups || s.se.len() != groups {
            return Err(format!(
                "series {:?}: {} values and {} standard errors for {} groups",
                s.name,
                s.values.len(),
                s.se.len(),
                groups
            ));
        }
        frame::check_finite(&s.name, s.values.iter().chain(&s.se).flatten().copied())?;
    }
    let e = frame::err::<DB::ErrorType>;
    let theme = &data.theme;
    let fg = theme.foreground;
    let text = |size: f64| frame::text(theme, size);
    let (w, h, top) = frame::begin(area, theme, &data.title)?;
    // Legend: swatches in rows above the plot.
    let names: Vec<&str> = data.series.iter().map(|s| s.name.as_str()).collect();
    let layout = LegendLayout {
        x0: LEFT_AXIS + MARGIN,
        right: w - MARGIN,
        width: 40,
        gap: 6,
    };
    let top = frame::legend(area, theme, &names, top, Key::Swatch, layout)?;

    let x0 = MARGIN + LEFT_AXIS;
    let x1 = w - MARGIN;
    let y0 = h - MARGIN - BOTTOM_AXIS; // pixel row of value 0
    let y1 = top + 6; // pixel row of y_max
    if x1 <= x0 + 10 || y0 <= y1 + 10 {
        return Err(format!("the chart area ({w}×{h} px) is too small"));
    }
    let data_max = data
        .series
        .iter()
        .flat_map(|s| {
            s.values
                .iter()
                .zip(&s.se)
                .map(|(v, se)| v.unwrap_or(0.0) + se.unwrap_or(0.0))
        })
        .fold(0.0f64, f64::max);
    let y_max = data
        .y_max
        .unwrap_or(if data_max > 0.0 { data_max * 1.1 } else { 1.0 });
    let ypix = |v: f64| -> i32 {
        let t = (v / y_max).clamp(0.0, 1.05);
        y0 - (t * f64::from(y0 - y1)).round() as i32
    };

    // Grid and value axis.
    let step = tick_step(y_max);
    let mut k = 0;
    loop {
        let v = f64::from(k) * step;
        if v > y_max + step * 1e-9 {
            break;
        }
        let y = ypix(v);
        area.draw(&PathElement::new(
            vec![(x0, y), (x1, y)],
            theme.muted.stroke_width(1),
        ))
        .map_err(e)?;
        area.draw_text(
            &fmt_tick(v, step),
            &text(12.0).pos(Pos::new(HPos::Right, VPos::Center)),
            (x0 - 6, y),
        )
        .map_err(e)?;
        k += 1;
    }
    area.draw(&PathElement::new(
        vec![(x0, y1), (x0, y0), (x1, y0)],
        fg.stroke_width(1),
    ))
    .map_err(e)?;
    if !data.y_label.is_empty() {
        area.draw_text(
            &data.y_label,
            &text(13.0)
                .transform(FontTransform::Rotate270)
                .pos(Pos::new(HPos::Center, VPos::Top)),
            (MARGIN, (y0 + y1) / 2),
        )
        .map_err(e)?;
    }

    // Bars, error bars and group labels.
    let n = data.series.len().max(1) as f64;
    let group_w = f64::from(x1 - x0) / groups.max(1) as f64;
    let bar_w = (group_w * 0.8 / n).max(1.0);
    // Group labels on one row when each fits its group, else on two staggered rows (issue 42,
    // defect 13: KiVA's domains ran together, "NumbeReflection", at phone width). Widths are
    // estimated as the title's are (0.55 em a character: the page's CSP keeps plotters from
    // measuring text in the browser).
    let staggered = data
        .groups
        .iter()
        .any(|l| l.chars().count() as f64 * GROUP_LABEL_PX * 0.55 + 6.0 > group_w);
    for g in 0..groups {
        let gx = f64::from(x0) + group_w * g as f64;
        let start = gx + group_w * 0.1;
        for (i, s) in data.series.iter().enumerate() {
            let Some(v) = s.values[g] else { continue };
            let bx0 = (start + bar_w * i as f64).round() as i32;
            let bx1 = (start + bar_w * (i + 1) as f64).round() as i32 - 1;
            let by = ypix(v);
            area.draw(&Rectangle::new(
                [(bx0, by), (bx1.max(bx0), y0)],
                theme.series(i).filled(),
            ))
            .map_err(e)?;
            if let Some(se) = s.se[g] {
                let cx = (bx0 + bx1) / 2;
                let (lo, hi) = (ypix((v - se).max(0.0)), ypix(v + se));
                let cap = ((bx1 - bx0) / 4).clamp(1, 6);
                area.draw(&PathElement::new(
                    vec![(cx, lo), (cx, hi)],
                    fg.stroke_width(1),
                ))
                .map_err(e)?;
                for y in [lo, hi] {
                    area.draw(&PathElement::new(
                        vec![(cx - cap, y), (cx + cap, y)],
                        fg.stroke_width(1),
                    ))
                    .map_err(e)?;
                }
            }
        }
        let row = if staggered && g % 2 == 1 { 16 } else { 0 };
        area.draw_text(
            &data.groups[g],
            &text(GROUP_LABEL_PX).pos(Pos::new(HPos::Center, VPos::Top)),
            ((gx + group_w / 2.0).round() as i32, y0 + 8 + row),
        )
        .map_err(e)?;
    }

    if let Some((v, label)) = &data.reference {
        let y = ypix(*v);
        let mut x = x0;
        while x < x1 {
            area.draw(&PathElement::new(
                vec![(x, y), ((x + 6).min(x1), y)],
                fg.stroke_width(1),
            ))
            .map_err(e)?;
            x += 10;
        }
        area.draw_text(
            label,
            &text(12.0).pos(Pos::new(HPos::Right, VPos::Bottom)),
            (x1 - 2, y - 2),
        )
        .map_err(e)?;
    }
    area.present().map_err(e)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use plotters_svg::SVGBackend;

    fn sample() -> GroupedBars {
        GroupedBars {
            title: "KiVA: what changed".into(),
            y_label: "Accuracy".into(),
            groups: vec!["Colour".into(), "Size".into(), "Rotation".into()],
            series: vec![
                BarSeries {
                    name: "GPT-4V".into(),
                    values: vec![Some(0.5), Some(0.25), None],
                    se: vec![Some(0.1), None, None],
                },
                BarSeries {
                    name: "Adults".into(),
                    values: vec![Some(1.0), Some(0.75), Some(0.0)],
                    se: vec![Some(0.05), Some(0.05), Some(0.0)],
                },
            ],
            y_max: Some(1.0),
            reference: Some((0.25, "chance".into())),
            theme: ChartTheme::light(),
        }
    }

    fn render(data: &GroupedBars) -> Result<String, String> {
        let mut svg = String::new();
        {
            let area = SVGBackend::with_string(&mut svg, (600, 400)).into_drawing_area();
            draw_grouped_bars(&area, data)?;
        }
        Ok(svg)
    }

    /// The `<rect>` elements filled with `color`, as (x, y, width, height).
    fn rects(svg: &str, color: &str) -> Vec<(i32, i32, i32, i32)> {
        let attr = |el: &str, name: &str| -> i32 {
            let key = format!(" {name}=\"");
            let start = el.find(&key).unwrap() + key.len();
            let end = start + el[start..].find('"').unwrap();
            el[start..end].parse().unwrap()
        };
        svg.split("<rect")
            .skip(1)
            .map(|r| &r[..r.find("/>").unwrap()])
            .filter(|r| r.contains(&format!("fill=\"{color}\"")))
            .map(|r| {
                (
                    attr(r, "x"),
                    attr(r, "y"),
                    attr(r, "width"),
                    attr(r, "height"),
                )
            })
            .collect()
    }

    #[test]
    fn bars_have_heights_proportional_to_values() {
        let data = sample();
        let svg = render(&data).unwrap();
        let blue = ChartTheme::css(data.theme.series(0)).to_uppercase();
        let orange = ChartTheme::css(data.theme.series(1)).to_uppercase();
        // Series 0: two bars plus the legend swatch (12 px high); series 1: three bars (one of
        // height 0) plus its swatch.
        let s0: Vec<_> = rects(&svg, &blue)
            .into_iter()
            .filter(|r| r.3 != 12)
            .collect();
        let s1: Vec<_> = rects(&svg, &orange)
            .into_iter()
            .filter(|r| r.3 != 12)
            .collect();
        assert_eq!(s0.len(), 2, "{svg}");
        assert_eq!(s1.len(), 3);
        // The adults' 1.0 bar spans the whole value axis; 0.5 is half of it, 0.25 a quarter,
        // 0.75 three quarters (±1 px rounding).
        let full = s1[0].3;
        assert!(full > 200, "full bar height {full}");
        for (bar, frac) in [(s0[0], 0.5), (s0[1], 0.25), (s1[1], 0.75)] {
            let want = f64::from(full) * frac;
            assert!((f64::from(bar.3) - want).abs() <= 1.5, "{bar:?} vs {want}");
        }
        // All bars stand on the same baseline.
        let base = s1[0].1 + s1[0].3;
        for b in s0.iter().chain(&s1) {
            assert!((b.1 + b.3 - base).abs() <= 1, "{b:?}");
        }
        // Within a group, the series are side by side in order; groups left to right.
        assert!(s0[0].0 < s1[0].0 && s1[0].0 < s0[1].0 && s0[1].0 < s1[1].0);
    }

    #[test]
    fn legend_labels_and_reference_are_drawn() {
        let svg = render(&sample()).unwrap();
        for label in [
            "GPT-4V",
            "Adults",
            "Colour",
            "Size",
            "Rotation",
            "chance",
            "Accuracy",
            "KiVA: what changed",
        ] {
            assert!(svg.contains(label), "{label}");
        }
        // Ticks 0, 0.2, …, 1.0.
        for t in ["0.0", "0.2", "0.4", "0.6", "0.8", "1.0"] {
            assert!(
                svg.contains(&format!(">\n{t}\n<")) || svg.contains(&format!(">{t}<")),
                "tick {t}"
            );
        }
    }

    /// The `y` of the `<text>` element whose content is `label`.
    fn text_y(svg: &str, label: &str) -> i32 {
        let el = svg
            .split("<text")
            .find(|t| t.contains(&format!(">{label}<")) || t.contains(&format!(">\n{label}\n<")))
            .unwrap_or_else(|| panic!("{label} drawn"));
        let start = el.find(" y=\"").unwrap() + 4;
        let end = start + el[start..].find('"').unwrap();
        el[start..end].parse().unwrap()
    }

    /// Issue 42, defect 13: KiVA's five domains at phone width ran together; labels that do
    /// not fit their group go on two staggered rows, and on one row when they fit.
    #[test]
    fn group_labels_stagger_when_they_do_not_fit() {
        let mut d = sample();
        d.groups = ["Colour", "Resize", "2DRotation", "Reflect", "Counting"]
            .map(String::from)
            .to_vec();
        for s in &mut d.series {
            s.values = vec![Some(0.5); 5];
            s.se = vec![None; 5];
        }
        let draw = |w: u32| {
            let mut svg = String::new();
            {
                let area = SVGBackend::with_string(&mut svg, (w, 320)).into_drawing_area();
                draw_grouped_bars(&area, &d).unwrap();
            }
            svg
        };
        let narrow = draw(330);
        let ys: Vec<i32> = d.groups.iter().map(|g| text_y(&narrow, g)).collect();
        assert_eq!(ys[0], ys[2]);
        assert_eq!(ys[2], ys[4]);
        assert_eq!(ys[1], ys[3]);
        assert_eq!(ys[1] - ys[0], 16);
        let wide = draw(900);
        let ys: Vec<i32> = d.groups.iter().map(|g| text_y(&wide, g)).collect();
        assert!(ys.iter().all(|y| *y == ys[0]), "{ys:?}");
    }

    #[test]
    fn dark_theme_uses_its_background() {
        let mut data = sample();
        data.theme = ChartTheme::dark();
        let svg = render(&data).unwrap();
        assert!(svg.contains("#111827"), "dark background");
    }

    #[test]
    fn inconsistent_data_is_an_error() {
        let mut data = sample();
        data.series[0].values.pop();
        let err = render(&data).unwrap_err();
        assert!(err.contains("GPT-4V") && err.contains("3 groups"), "{err}");
        let mut data = sample();
        data.series[1].values[0] = Some(f64::NAN);
        assert!(render(&data).unwrap_err().contains("finite"));
    }

    #[test]
    fn tick_steps_are_nice() {
        assert_eq!(tick_step(1.0), 0.2);
        assert_eq!(tick_step(100.0), 20.0);
        assert_eq!(tick_step(0.3), 0.1);
    }
}
