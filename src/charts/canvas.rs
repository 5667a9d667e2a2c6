//! The canvas every chart of the app is drawn on: [`CanvasChart`].

use leptos::prelude::*;
use plotters::coord::Shift;
use plotters::prelude::DrawingArea;
use plotters_canvas::CanvasBackend;

use crate::components::error_panel::ErrorPanel;

/// A chart's drawing function: one of the `draw_x(area, &data)` functions of [`crate::charts`].
pub type Draw<T> = fn(&DrawingArea<CanvasBackend, Shift>, &T) -> Result<(), String>;

/// A chart drawn with `draw` on a canvas, at the width it is shown at (so its text keeps its
/// size on phones: [`super::fit_to_shown_width`]), again when `data` changes or the window is
/// resized; with a "Download PNG" button when `file_name` is given. The caller wraps it in its
/// `<figure>`.
///
/// A chart is sized at the next frame (before it is painted, so nothing under it moves: the
/// layout-shift test) and drawn in a task of its own after that frame: not in the task that
/// changed the data (a worker's reply, whose rendering is already that task's work), and not
/// beside the other charts of the page. Issue 22: the first item-analysis report drew its
/// three charts in one frame, in one main-thread task with the report itself.
#[component]
pub fn CanvasChart<T>(
    /// The chart's data (redrawn when it changes).
    #[prop(into)]
    data: Signal<T>,
    /// Draws the chart.
    draw: Draw<T>,
    /// The canvas's height at full width (narrow screens get a taller chart).
    #[prop(default = 420)]
    height: u32,
    /// Test id of the canvas.
    testid: &'static str,
    /// Accessible description of the chart.
    label: &'static str,
    /// Name of the downloaded PNG; no download button without it.
    #[prop(optional, into)]
    file_name: Option<&'static str>,
) -> impl IntoView
where
    T: Clone + Send + Sync + 'static,
{
    let canvas = NodeRef::<leptos::html::Canvas>::new();
    let (err, set_err) = signal(None::<String>);
    let resized = super::resize_counter();
    Effect::new(move |_| {
        resized.track();
        let d = data.get();
        request_animation_frame(move || {
            // The chart may have left the page by now (a report replaced by the next one).
            let Some(c) = canvas.try_get_untracked().flatten() else {
                return;
            };
            // Sized before this frame is painted, so nothing under it moves afterwards.
            super::fit_to_shown_width(&c, height);
            gloo_timers::callback::Timeout::new(0, move || {
                let _ = set_err.try_set(super::draw_on_canvas(c, |area| draw(area, &d)));
            })
            .forget();
        });
    });
    let download = move |_| {
        let Some(name) = file_name else { return };
        let Some(c) = canvas.get() else { return };
        let c: web_sys::HtmlCanvasElement = c;
        if let Ok(url) = c.to_data_url() {
            crate::download::download_url(name, &url);
        }
    };
    view! {
        <canvas node_ref=canvas width="900" height=height.to_string() role="img" aria-label=label
            data-testid=testid></canvas>
        {file_name.map(|_| view! {
            <figcaption>
                <button type="button" on:click=download data-testid="chart-download">"Download PNG"</button>
            </figcaption>
        })}
        {move || err.get().map(|e| view! { <ErrorPanel title="Could not draw the chart" message=e /> })}
    }
}
