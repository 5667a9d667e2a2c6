//! The item analysis' charts, drawn from the worker's report with
//! [`crate::charts::curves::draw_curves`]: item characteristic curves (the flagged items, or
//! those picked in the table, fetched with [`api::ItemCurves`]), the test information, and the
//! reduced subset's Kendall tau against subset size.

use coglab_core::items::report::{ReportCurve, ReportSubset};
use coglab_core::items::ItemsReport;
use leptos::prelude::*;

use crate::charts::canvas::CanvasChart;
use crate::charts::curves::{draw_curves, Curve, CurveChart};
use crate::charts::ChartTheme;
use crate::components::error_panel::WorkerErrorPanel;
use crate::components::theme_toggle::chart_theme;
use crate::worker::api;
use crate::worker::client::{latest_reply, use_worker};

/// Items picked in the table for the characteristic-curve chart (shared with [`super::table`]).
#[derive(Clone, Copy)]
pub struct PickedItems(pub RwSignal<Vec<String>>);

/// The characteristic curves of `curves` over `theta`.
pub fn icc_chart(theta: &[f64], curves: &[ReportCurve], theme: ChartTheme) -> CurveChart {
    CurveChart {
        title: "Item characteristic curves".into(),
        x_label: "Ability θ".into(),
        y_label: "P(right)".into(),
        x_range: range(theta),
        y_range: (0.0, 1.0),
        reference: None,
        curves: curves
            .iter()
            .map(|c| Curve {
                name: c.id.clone(),
                points: theta
                    .iter()
                    .zip(&c.p)
                    .map(|(t, p)| (*t, Some(*p)))
                    .collect(),
            })
            .collect(),
        theme,
    }
}

/// The test information over the report's grid.
pub fn information_chart(r: &ItemsReport, theme: ChartTheme) -> CurveChart {
    let top = r.test_information.iter().copied().fold(0.0f64, f64::max);
    CurveChart {
        title: "Test information".into(),
        x_label: "Ability θ".into(),
        y_label: "Information".into(),
        x_range: range(&r.theta),
        y_range: (0.0, if top > 0.0 { top * 1.05 } else { 1.0 }),
        reference: None,
        curves: vec![Curve {
            name: "test information".into(),
            points: r
                .theta
                .iter()
                .zip(&r.test_information)
                .map(|(t, i)| (*t, Some(*i)))
                .collect(),
        }],
        theme,
    }
}

/// Kendall tau of the subset's ranking against the full ranking, by subset size.
pub fn tau_chart(s: &ReportSubset, theme: ChartTheme) -> CurveChart {
    CurveChart {
        title: "Reduced subset: Kendall τ with the full ranking".into(),
        x_label: "Items in the subset".into(),
        y_label: "Kendall τ".into(),
        x_range: (0.0, s.total.max(1) as f64),
        y_range: (-1.0, 1.0),
        reference: Some((s.target_tau, format!("target {}", s.target_tau))),
        curves: vec![Curve {
            name: "tau".into(),
            points: s.curve.iter().map(|p| (p.size as f64, p.tau)).collect(),
        }],
        theme,
    }
}

fn range(x: &[f64]) -> (f64, f64) {
    match (x.first(), x.last()) {
        (Some(a), Some(b)) if b > a => (*a, *b),
        _ => (-4.0, 4.0),
    }
}

/// The three charts of a report.
#[component]
pub fn ReportCharts(
    /// The worker's kept analysis the report is of.
    analysis: api::AnalysisId,
    /// The worker's report.
    report: StoredValue<ItemsReport>,
) -> impl IntoView {
    let picked = use_context::<PickedItems>().map(|p| p.0);
    let client = StoredValue::new_local(use_worker());
    let theta = report.with_value(|r| r.theta.clone());
    let flagged = report.with_value(|r| r.curves.clone());
    let capped = report.with_value(|r| r.curves_capped);
    // Curves of the picked items come from the worker's kept analysis; none picked: the
    // flagged items' curves, which came with the report.
    let fetched = latest_reply(
        move || picked.map(|p| p.get()).unwrap_or_default(),
        move |ids| {
            let c = client.get_value();
            async move {
                if ids.is_empty() {
                    None
                } else {
                    Some(c.call(api::ItemCurves { analysis, ids }).await)
                }
            }
        },
    );
    let icc = Memo::new(move |_| {
        let curves = match fetched.get() {
            Some(Some(Ok(c))) => c,
            _ => flagged.clone(),
        };
        icc_chart(&theta, &curves, chart_theme())
    });
    let info = Memo::new(move |_| report.with_value(|r| information_chart(r, chart_theme())));
    let tau = Memo::new(move |_| {
        report.with_value(|r| r.subset.as_ref().map(|s| tau_chart(s, chart_theme())))
    });
    view! {
        <p class="notice" data-testid="items-curves-note">{move || {
            let picked = picked.map(|p| p.read().len()).unwrap_or(0);
            if picked > 0 {
                format!("Curves of the {picked} items picked in the table.")
            } else if capped {
                "Curves of the first flagged items (pick items in the table to see others).".to_string()
            } else {
                "Curves of the flagged items (pick items in the table to see others).".to_string()
            }
        }}</p>
        {move || match fetched.get() {
            Some(Some(Err(e))) => Some(view! { <WorkerErrorPanel title="Could not fetch the item curves" error=e /> }),
            _ => None,
        }}
        <CurveCanvas data=icc testid="items-icc" label="Item characteristic curves: probability right against ability" />
        <CurveCanvas data=info testid="items-information" label="Test information against ability" />
        {move || tau.get().map(|t| {
            let m = Memo::new(move |_| t.clone());
            view! { <CurveCanvas data=m testid="items-tau" label="Kendall tau of the reduced subset's ranking against subset size" /> }
        })}
    }
}

/// A curve chart on a canvas.
#[component]
fn CurveCanvas(
    /// The chart (redrawn when it changes).
    data: Memo<CurveChart>,
    /// Test id of the canvas.
    testid: &'static str,
    /// Accessible description.
    label: &'static str,
) -> impl IntoView {
    view! {
        <figure class="lb-chart">
            <CanvasChart data=data draw=|area, d| draw_curves(area, d) height=400 testid=testid label=label />
        </figure>
    }
}
