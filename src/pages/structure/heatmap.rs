//! HTMT heatmap as inline SVG: one cell per construct pair (lower triangle), shaded by the
//! value, with cells at or above the 0.90 threshold outlined and a colour bar marking 0.90.

use leptos::prelude::*;
use std::collections::BTreeMap;

/// The HTMT threshold drawn on the heatmap.
pub const HTMT_LINE: f64 = 0.90;

const CELL: f64 = 64.0;
const LEFT: f64 = 120.0;
const TOP: f64 = 12.0;

/// The HTMT heatmap of `constructs` (in spec order) from the report's `"A|B"` values.
#[component]
pub fn HtmtHeatmap(
    /// Construct names in spec order.
    constructs: Vec<String>,
    /// HTMT values keyed `"A|B"`.
    htmt: BTreeMap<String, f64>,
) -> impl IntoView {
    let n = constructs.len();
    // Keys are "A|B" with A before B in spec order; look both ways.
    let get = |a: &str, b: &str| {
        [format!("{a}|{b}"), format!("{b}|{a}")]
            .into_iter()
            .find_map(|k| htmt.get(&k).map(|v| (k, *v)))
    };
    let mut cells = Vec::new();
    for (i, a) in constructs.iter().enumerate() {
        for (j, b) in constructs.iter().enumerate().take(i) {
            let Some((key, v)) = get(a, b) else { continue };
            let x = LEFT + j as f64 * CELL;
            let y = TOP + (i - 1) as f64 * CELL;
            let over = v >= HTMT_LINE;
            // Opacity encodes the value (0 -> transparent, 1 -> full accent).
            let alpha = v.clamp(0.0, 1.0) * 0.85 + 0.1;
            cells.push(view! {
                <g class="hm-cell" class:over=over data-pair=key>
                    <rect x=x y=y width=CELL - 2.0 height=CELL - 2.0 fill-opacity=format!("{alpha:.3}") />
                    <text x=x + CELL / 2.0 - 1.0 y=y + CELL / 2.0 + 4.0 text-anchor="middle" class:light={alpha > 0.55}>
                        {format!("{v:.3}")}
                    </text>
                    <title>{format!("HTMT {a} / {b} = {v:.3}")}</title>
                </g>
            });
        }
    }
    let rows = constructs
        .iter()
        .enumerate()
        .skip(1)
        .map(|(i, a)| {
            view! {
                <text x=LEFT - 8.0 y=TOP + (i - 1) as f64 * CELL + CELL / 2.0 + 4.0 text-anchor="end">{a.clone()}</text>
            }
        })
        .collect::<Vec<_>>();
    let m = n.saturating_sub(1) as f64;
    let cols = constructs
        .iter()
        .enumerate()
        .take(n.saturating_sub(1))
        .map(|(j, b)| {
            view! {
                <text x=LEFT + j as f64 * CELL + CELL / 2.0 y=TOP + m * CELL + 16.0 text-anchor="middle">{b.clone()}</text>
            }
        })
        .collect::<Vec<_>>();
    // Colour bar 0..1 with the 0.90 line.
    let bar_x = LEFT + m * CELL + 30.0;
    let bar_h = (m * CELL).max(160.0);
    let stops = (0..10)
        .map(|k| {
            let v = k as f64 / 10.0;
            let alpha = v * 0.85 + 0.1;
            view! {
                <rect class="hm-bar" x=bar_x y=TOP + bar_h * (1.0 - v - 0.1) width="16" height=bar_h / 10.0 fill-opacity=format!("{alpha:.3}") />
            }
        })
        .collect::<Vec<_>>();
    let line_y = TOP + bar_h * (1.0 - HTMT_LINE);
    let w = bar_x + 140.0;
    let h = TOP + bar_h.max(m * CELL) + 28.0;
    view! {
        <div class="diagram-scroll">
            <svg
                class="htmt-heatmap"
                data-testid="htmt-heatmap"
                role="img"
                aria-label="HTMT heatmap; cells at or above 0.90 are outlined"
                width=w
                height=h
                viewBox=format!("0 0 {w} {h}")
                xmlns="http://www.w3.org/2000/svg"
            >
                {cells}
                {rows}
                {cols}
                {stops}
                <text x=bar_x - 6.0 y=TOP + 10.0 text-anchor="end">"1.0"</text>
                <text x=bar_x - 6.0 y=TOP + bar_h text-anchor="end">"0.0"</text>
                <line class="hm-line" data-testid="htmt-line" x1=bar_x - 4.0 x2=bar_x + 20.0 y1=line_y y2=line_y />
                <text class="hm-line-label" x=bar_x + 24.0 y=line_y + 4.0>"0.90 (HTMT limit)"</text>
            </svg>
        </div>
    }
}
