//! Grouped histogram: the share of observations in each bin, one bar per series within each
//! bin (MM-OPERA holistic scores 0-4, one bar per model).
//!
//! Drawn by hand on the drawing area (pixel layout computed here) so the same function renders
//! identically on a canvas and in SVG, and its geometry is testable natively.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::frame::{self, Key, LegendLayout, MARGIN};
use super::theme::ChartTheme;

/// One series of a histogram: counts per bin.
#[derive(Debug, Clone, PartialEq)]
pub struct HistogramSeries {
    /// Name shown in the legend.
    pub name: String,
    /// One count per bin.
    pub counts: Vec<usize>,
}

/// Data of a grouped histogram. Bars show each series' share of its own total, so series
/// of different sizes compare; the count is written above each bar where it fits.
#[derive(Debug, Clone, PartialEq)]
pub struct Histogram {
    /// Title drawn above the chart (empty for none).
    pub title: String,
    /// Label of the bin axis.
    pub x_label: String,
    /// Bin labels, left to right.
    pub bins: Vec<String>,
    /// The series, side by side within each bin in this order.
    pub series: Vec<HistogramSeries>,
    /// Colours.
    pub theme: ChartTheme,
}

const LEFT_AXIS: i32 = 56;
const BOTTOM_AXIS: i32 = 44;

/// Draws the bars (share of the series' total, axis up to the largest share rounded up to a
/// tenth), the counts above bars wide enough, bin labels, and a legend.
///
/// # Errors
/// A message when there is no bin, a series has the wrong number of counts, or the backend
/// fails. A series whose counts are all zero draws no bar.
pub fn draw_histogram<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &Histogram,
) -> Result<(), String> {
    let nb = data.bins.len();
    if nb == 0 {
        return Err("a histogram needs at least one bin".into());
    }
    for s in &data.series {
        if s.counts.len() != nb {
            return Err(format!(
                "series {:?}: {} counts for {} bins",
                s.name,
                s.counts.len(),
                nb
            ));
        }
    }
    let e = frame::err::<DB::ErrorType>;
    let theme = &data.theme;
    let fg = theme.foreground;
    let text = |size: f64| frame::text(theme, size);
    let (w, h, top) = frame::begin(area, theme, &data.title)?;
    let names: Vec<&str> = data.series.iter().map(|s| s.name.as_str()).collect();
    let layout = LegendLayout {
        x0: LEFT_AXIS,
        right: w - MARGIN,
        width: 38,
        gap: 8,
    };
    let top = frame::legend(area, theme, &names, top, Key::Swatch, layout)?;
    let shares: Vec<Vec<Option<f64>>> = data
        .series
        .iter()
        .map(|s| {
            let total: usize = s.counts.iter().sum();
            s.counts
                .iter()
                .map(|&c| (total > 0).then(|| c as f64 / total as f64))
                .collect()
        })
        .collect();
    let max_share = shares
        .iter()
        .flatten()
        .flatten()
        .copied()
        .fold(0.0, f64::max);
    let y_max = ((max_share * 10.0).ceil() / 10.0).clamp(0.1, 1.0);
    let (x0, x1) = (LEFT_AXIS, w - MARGIN);
    let (y0, y1) = (h - BOTTOM_AXIS, top + 24);
    if x1 <= x0 || y0 <= y1 {
        return Err(format!("the drawing area ({w}×{h}) is too small"));
    }
    let y_of = |v: f64| y0 - ((v / y_max).min(1.0) * f64::from(y0 - y1)).round() as i32;
    let ticks = (y_max * 10.0).round() as i32;
    let every = if ticks > 5 { 2 } else { 1 };
    for t in (0..=ticks).filter(|t| t % every == 0) {
        let v = f64::from(t) / 10.0;
        let y = y_of(v);
        area.draw(&PathElement::new(
            vec![(x0, y), (x1, y)],
            theme.muted.stroke_width(1),
        ))
        .map_err(e)?;
        area.draw_text(
            &format!("{:.0}%", v * 100.0),
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
    let group_w = f64::from(x1 - x0) / nb as f64;
    let ns = data.series.len().max(1) as f64;
    let bar_w = (group_w * 0.8 / ns).max(1.0);
    for (b, label) in data.bins.iter().enumerate() {
        let gx = f64::from(x0) + group_w * b as f64;
        area.draw_text(
            label,
            &text(13.0).pos(Pos::new(HPos::Center, VPos::Top)),
            ((gx + group_w / 2.0).round() as i32, y0 + 6),
        )
        .map_err(e)?;
        for (i, s) in data.series.iter().enumerate() {
            let Some(share) = shares[i][b] else { continue };
            let left = (gx + group_w * 0.1 + bar_w * i as f64).round() as i32;
            let right = (gx + group_w * 0.1 + bar_w * (i as f64 + 1.0)).round() as i32 - 1;
            let y = y_of(share);
            if y < y0 {
                area.draw(&Rectangle::new(
                    [(left, y), (right.max(left + 1), y0)],
                    theme.series(i).filled(),
                ))
                .map_err(e)?;
            }
            if right - left >= 18 {
                area.draw_text(
                    &s.counts[b].to_string(),
                    &text(11.0).pos(Pos::new(HPos::Center, VPos::Bottom)),
                    ((left + right) / 2, y - 2),
                )
                .map_err(e)?;
            }
        }
    }
    area.draw_text(
        &data.x_label,
        &text(13.0).pos(Pos::new(HPos::Center, VPos::Bottom)),
        ((x0 + x1) / 2, h - 2),
    )
    .map_err(e)?;
    area.draw_text(
        "Share of verdicts",
        &text(13.0).pos(Pos::new(HPos::Left, VPos::Bottom)),
        (MARGIN, y1 - 12),
    )
    .map_err(e)?;
    area.present().map_err(e)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use plotters_svg::SVGBackend;

    fn sample() -> Histogram {
        Histogram {
            title: "Holistic scores".into(),
            x_label: "Score".into(),
            bins: ["0", "1", "2", "3", "4"].map(String::from).to_vec(),
            series: vec![
                // modelx on the RIA fixture: valid scores 1, 2, 3, 3, 4, 4 (one invalid left out).
                HistogramSeries {
                    name: "modelx".into(),
                    counts: vec![0, 1, 1, 2, 2],
                },
                HistogramSeries {
                    name: "modely".into(),
                    counts: vec![2, 0, 0, 0, 2],
                },
            ],
            theme: ChartTheme::light(),
        }
    }

    fn render(d: &Histogram) -> Result<String, String> {
        let mut svg = String::new();
        {
            let area = SVGBackend::with_string(&mut svg, (700, 400)).into_drawing_area();
            draw_histogram(&area, d)?;
        }
        Ok(svg)
    }

    fn attr(el: &str, name: &str) -> i32 {
        let key = format!(" {name}=\"");
        let s = el.find(&key).unwrap() + key.len();
        el[s..s + el[s..].find('"').unwrap()].parse().unwrap()
    }

    /// (x, y, width, height) of every `<rect>` after the background and the legend swatches.
    fn bars(svg: &str, legend: usize) -> Vec<(i32, i32, i32, i32)> {
        svg.split("<rect")
            .skip(2 + legend)
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
    fn bar_heights_are_shares_of_each_series() {
        let svg = render(&sample()).unwrap();
        let b = bars(&svg, 2);
        // modelx: 1, 1, 2, 2 (its 0 draws no bar); modely: 2 and 2. Drawn bin by bin.
        assert_eq!(b.len(), 6, "{svg}");
        // Bin 0: modely 2/4 = 0.5, the largest share, so the axis tops out at 50%.
        let half = b[0].3;
        // modelx 1/6, 1/6, 2/6, 2/6 of the same axis: a third, a third, two thirds...
        let third = |x: i32| (3 * x - half).abs() <= 3;
        assert!(third(b[1].3), "{b:?}");
        assert!(third(b[2].3), "{b:?}");
        assert!((3 * b[3].3 - 2 * half).abs() <= 3, "{b:?}");
        // Bin 4: modelx 2/6 then modely 2/4 side by side, same baseline.
        let (x4, y4) = (b[4], b[5]);
        assert!(y4.0 > x4.0);
        assert_eq!(x4.1 + x4.3, y4.1 + y4.3);
        assert_eq!(y4.3, half);
        // Counts are written above wide bars.
        assert!(svg.contains("\n2\n") && svg.contains("\n1\n"));
    }

    #[test]
    fn labels_and_errors() {
        let svg = render(&sample()).unwrap();
        for l in [
            "Holistic scores",
            "modelx",
            "modely",
            "Score",
            "50%",
            "Share of verdicts",
        ] {
            assert!(svg.contains(l), "{l}");
        }
        let mut d = sample();
        d.bins.clear();
        assert!(render(&d).unwrap_err().contains("at least one bin"));
        let mut d = sample();
        d.series[0].counts.pop();
        assert!(render(&d)
            .unwrap_err()
            .contains("\"modelx\": 4 counts for 5 bins"));
        // All-zero series draw nothing and do not fail.
        let mut d = sample();
        d.series[1].counts = vec![0; 5];
        assert_eq!(bars(&render(&d).unwrap(), 2).len(), 4);
    }
}
