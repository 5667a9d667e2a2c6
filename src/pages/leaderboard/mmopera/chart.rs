//! The MM-OPERA tab's charts of the computed rows shown: the L-3 abilities radar, score rate
//! by hop count and the histogram of holistic scores, each on a canvas with a PNG download
//! (or, with nothing to draw, the reason).

use coglab_core::leaderboard::mmopera::MmoperaRow;
use coglab_core::mmopera::Task;
use leptos::prelude::*;

use super::breakdown::sorted_keys;
use crate::charts::canvas::CanvasChart;
use crate::charts::histogram::{draw_histogram, Histogram, HistogramSeries};
use crate::charts::line::{draw_lines, LineChart, LineSeries};
use crate::charts::radar::{draw_radar, Radar, RadarSeries};
use crate::components::theme_toggle::chart_theme;

/// One chart of this tab.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum OperaChart {
    Radar(Radar),
    Line(LineChart),
    Histogram(Histogram),
    /// Nothing to draw, with the reason.
    Empty(String),
}

/// The L-3 abilities radar of `rows` on `task` (at least 3 abilities are needed).
pub(super) fn l3_radar(task: Task, rows: &[MmoperaRow]) -> OperaChart {
    let axes = sorted_keys(
        "l3",
        rows.iter()
            .filter_map(|r| r.task(task)?.holistic.as_ref())
            .flat_map(|h| h.by.l3.keys().cloned()),
    );
    if axes.len() < 3 {
        return OperaChart::Empty(format!(
            "The L-3 abilities radar needs at least 3 abilities in the {} metadata ({} found).",
            task.name(),
            axes.len()
        ));
    }
    let series = rows
        .iter()
        .filter_map(|r| {
            let h = r.task(task)?.holistic.as_ref()?;
            Some(RadarSeries {
                name: r.model.clone(),
                values: axes
                    .iter()
                    .map(|a| h.by.l3.get(a).map(|g| g.score_rate))
                    .collect(),
            })
        })
        .collect();
    OperaChart::Radar(Radar {
        title: format!("MM-OPERA {}: score rate by L-3 ability", task.name()),
        axes,
        series,
        max: 1.0,
        theme: chart_theme(),
    })
}

/// Score rate by reference hop count, one line per row.
pub(super) fn hop_lines(task: Task, rows: &[MmoperaRow]) -> OperaChart {
    let cats = sorted_keys(
        "hop_count",
        rows.iter()
            .filter_map(|r| r.task(task)?.holistic.as_ref())
            .flat_map(|h| h.by.hop_count.keys().cloned()),
    );
    if cats.is_empty() {
        return OperaChart::Empty(format!(
            "No hop counts: drop the {} metadata to see score rate by hop count.",
            task.name()
        ));
    }
    let series = rows
        .iter()
        .filter_map(|r| {
            let h = r.task(task)?.holistic.as_ref()?;
            Some(LineSeries {
                name: r.model.clone(),
                values: cats
                    .iter()
                    .map(|c| h.by.hop_count.get(c).map(|g| g.score_rate))
                    .collect(),
            })
        })
        .collect();
    OperaChart::Line(LineChart {
        title: format!(
            "MM-OPERA {}: score rate by reference hop count",
            task.name()
        ),
        x_label: "Hops in the reference reasoning path".into(),
        y_label: "Score rate".into(),
        categories: cats,
        series,
        y_max: 1.0,
        theme: chart_theme(),
    })
}

/// The histogram of holistic scores 0 to 4, one series per row.
pub(super) fn score_histogram(task: Task, rows: &[MmoperaRow]) -> OperaChart {
    let series: Vec<HistogramSeries> = rows
        .iter()
        .filter_map(|r| {
            let h = r.task(task)?.holistic.as_ref()?;
            Some(HistogramSeries {
                name: r.model.clone(),
                counts: (0..=4)
                    .map(|s| h.distribution.get(&s.to_string()).copied().unwrap_or(0))
                    .collect(),
            })
        })
        .collect();
    if series.is_empty() {
        return OperaChart::Empty(format!("No {} holistic scores to count.", task.name()));
    }
    OperaChart::Histogram(Histogram {
        title: format!("MM-OPERA {}: holistic scores (valid verdicts)", task.name()),
        x_label: "Holistic score".into(),
        bins: (0..=4).map(|s| s.to_string()).collect(),
        series,
        theme: chart_theme(),
    })
}

/// Draws one of this tab's charts (nothing for an empty one, which is not drawn).
fn draw_opera(
    area: &plotters::prelude::DrawingArea<plotters_canvas::CanvasBackend, plotters::coord::Shift>,
    chart: &OperaChart,
) -> Result<(), String> {
    match chart {
        OperaChart::Radar(r) => draw_radar(area, r),
        OperaChart::Line(l) => draw_lines(area, l),
        OperaChart::Histogram(h) => draw_histogram(area, h),
        OperaChart::Empty(_) => Ok(()),
    }
}

/// A chart of this tab on a canvas, with a PNG download button; a notice instead when there
/// is nothing to draw.
#[component]
pub(super) fn OperaCanvas(
    /// The chart (redrawn when it changes).
    data: Memo<OperaChart>,
    /// Test id of the canvas.
    testid: &'static str,
    /// Name of the downloaded PNG.
    file_name: &'static str,
    /// Accessible description of the chart.
    label: &'static str,
) -> impl IntoView {
    let empty = move || match data.get() {
        OperaChart::Empty(why) => Some(why),
        _ => None,
    };
    view! {
        <figure class="lb-chart" data-testid=format!("{testid}-figure")>
            <Show when=move || empty().is_none()
                fallback=move || view! { <p class="notice" data-testid=format!("{testid}-empty")>{empty()}</p> }>
                <CanvasChart data=data draw=draw_opera testid=testid label=label file_name=file_name />
            </Show>
        </figure>
    }
}
