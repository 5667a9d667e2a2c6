//! The MM-IQ and KiVA tabs' charts: a chart drawn on a canvas with a PNG download, of the
//! first rows of the table as sorted and filtered.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::charts::bars::{draw_grouped_bars, GroupedBars};
use crate::charts::radar::{draw_radar, Radar};
use crate::components::board_table::{arrange, Board, ViewState};
use crate::components::error_panel::ErrorPanel;

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
    let canvas = NodeRef::<leptos::html::Canvas>::new();
    let (err, set_err) = signal(None::<String>);
    // Redrawn at the new width when the window is resized (e.g. a phone turned).
    let resized = crate::charts::resize_counter();
    // Drawn at the next frame rather than in the task that changed the data: a redraw takes
    // 10-20 ms, which would lengthen, e.g., the task that shows the scoring worker's result.
    Effect::new(move |_| {
        resized.track();
        let d = data.get();
        request_animation_frame(move || {
            let Some(c) = canvas.get_untracked() else {
                return;
            };
            crate::charts::fit_to_shown_width(&c, 420);
            set_err.set(crate::charts::draw_on_canvas(c, |area| match &d {
                Chart::Bars(b) => draw_grouped_bars(area, b),
                Chart::Radar(r) => draw_radar(area, r),
            }));
        });
    });
    let download = move |_| {
        let Some(c) = canvas.get() else { return };
        let c: web_sys::HtmlCanvasElement = c;
        let Ok(url) = c.to_data_url() else { return };
        let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
            return;
        };
        if let Some(a) = doc
            .create_element("a")
            .ok()
            .and_then(|a| a.dyn_into::<web_sys::HtmlAnchorElement>().ok())
        {
            a.set_href(&url);
            a.set_download(file_name);
            a.click();
        }
    };
    view! {
        <figure class="lb-chart">
            <canvas node_ref=canvas width="900" height="420" role="img" aria-label=label
                data-testid=testid></canvas>
            <figcaption>
                <button type="button" on:click=download data-testid="chart-download">"Download PNG"</button>
            </figcaption>
            {move || err.get().map(|e| view! { <ErrorPanel title="Could not draw the chart" message=e /> })}
        </figure>
    }
}
