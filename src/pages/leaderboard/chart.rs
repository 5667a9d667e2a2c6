//! The MM-IQ and KiVA tabs' charts: a chart drawn on a canvas with a PNG download, of the
//! first rows of the table as sorted and filtered.

use leptos::prelude::*;

use crate::charts::bars::{draw_grouped_bars, GroupedBars};
use crate::charts::canvas::CanvasChart;
use crate::charts::radar::{draw_radar, Radar};
use crate::components::board_table::{arrange, Board, ViewState};

/// The rows of a board shown first (for the charts): the first `n` rows of the table as
/// sorted and filtered, as (model, row index).
pub fn first_rows(board: &Board, state: &ViewState, n: usize) -> Vec<usize> {
    arrange(board, state)
        .rows
        .into_iter()
        .map(|r| r.0)
        .take(n)
        .collect()
}

/// Rows drawn on a chart at most.
pub const CHART_ROWS: usize = 6;

/// The data of one of the page's charts.
#[derive(Debug, Clone, PartialEq)]
pub enum Chart {
    /// Grouped bars.
    Bars(GroupedBars),
    /// Radar.
    Radar(Radar),
}

/// Draws one of the page's charts.
fn draw_chart(
    area: &plotters::prelude::DrawingArea<plotters_canvas::CanvasBackend, plotters::coord::Shift>,
    chart: &Chart,
) -> Result<(), String> {
    match chart {
        Chart::Bars(b) => draw_grouped_bars(area, b),
        Chart::Radar(r) => draw_radar(area, r),
    }
}

/// A chart drawn on a canvas, with a PNG download button.
#[component]
pub fn ChartCanvas(
    /// The chart data (redrawn when it changes).
    data: Memo<Chart>,
    /// Test id of the canvas.
    testid: &'static str,
    /// Name of the downloaded PNG.
    file_name: &'static str,
    /// Accessible description of the chart.
    label: &'static str,
) -> impl IntoView {
    view! {
        <figure class="lb-chart">
            <CanvasChart data=data draw=draw_chart testid=testid label=label file_name=file_name />
        </figure>
    }
}
