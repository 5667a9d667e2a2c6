//! Path diagram of a fitted model as inline SVG: tasks as small boxes on the left, constructs
//! as boxes placed by structural depth, loadings on the measurement arrows, path coefficients
//! on the structural arrows and R² inside the endogenous constructs.

use coglab_core::sem::SemReport;
use leptos::prelude::*;
use std::collections::BTreeMap;

const ITEM_W: f64 = 110.0;
const ITEM_H: f64 = 24.0;
const ROW: f64 = 32.0;
const CON_W: f64 = 130.0;
const CON_H: f64 = 44.0;
const COL: f64 = 210.0;

/// Node positions of a diagram (centres), computed from the report's structure only.
pub struct Layout {
    /// Task boxes: name, construct, centre.
    pub items: Vec<(String, String, f64, f64)>,
    /// Construct boxes: name, centre.
    pub constructs: Vec<(String, f64, f64)>,
    /// Width and height of the drawing.
    pub size: (f64, f64),
}

/// Places tasks in a column (grouped by construct) and constructs at columns by depth.
pub fn layout(report: &SemReport) -> Layout {
    let mut items = Vec::new();
    let mut y = ROW / 2.0 + 8.0;
    let mut con_y: BTreeMap<String, f64> = BTreeMap::new();
    for c in report.constructs.iter().filter(|c| c.order == 1) {
        let start = y;
        for i in &c.indicators {
            items.push((i.clone(), c.name.clone(), 8.0 + ITEM_W / 2.0, y));
            y += ROW;
        }
        con_y.insert(c.name.clone(), (start + y - ROW) / 2.0);
        y += 10.0;
    }
    // Structural edges: paths plus lower -> higher order memberships.
    let mut edges: Vec<(String, String)> = report
        .paths
        .keys()
        .filter_map(|k| k.split_once(" -> "))
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    for c in report.constructs.iter().filter(|c| c.order == 2) {
        for l in &c.indicators {
            edges.push((l.clone(), c.name.clone()));
        }
    }
    let names: Vec<String> = report.constructs.iter().map(|c| c.name.clone()).collect();
    let mut depth: BTreeMap<String, usize> = names.iter().map(|n| (n.clone(), 0)).collect();
    for _ in 0..names.len() + 1 {
        for (a, b) in &edges {
            let da = depth.get(a).copied().unwrap_or(0);
            let e = depth.entry(b.clone()).or_insert(0);
            if *e < da + 1 {
                *e = da + 1;
            }
        }
    }
    // Constructs without items (second order, human anchor shown as a construct): mean of
    // their predecessors' heights.
    let mut order: Vec<(String, usize)> = depth.clone().into_iter().collect();
    order.sort_by_key(|(_, d)| *d);
    for (n, _) in &order {
        if con_y.contains_key(n) {
            continue;
        }
        let ys: Vec<f64> = edges
            .iter()
            .filter(|(_, b)| b == n)
            .filter_map(|(a, _)| con_y.get(a).copied())
            .collect();
        let v = if ys.is_empty() {
            y / 2.0
        } else {
            ys.iter().sum::<f64>() / ys.len() as f64
        };
        con_y.insert(n.clone(), v);
    }
    let max_depth = depth.values().copied().max().unwrap_or(0);
    let x0 = 8.0 + ITEM_W + 90.0 + CON_W / 2.0;
    let constructs = depth
        .iter()
        .map(|(n, d)| {
            (
                n.clone(),
                x0 + *d as f64 * COL,
                con_y.get(n).copied().unwrap_or(0.0),
            )
        })
        .collect();
    Layout {
        items,
        constructs,
        size: (
            x0 + max_depth as f64 * COL + CON_W / 2.0 + 10.0,
            (y + 4.0).max(CON_H + 20.0),
        ),
    }
}

fn f3(v: f64) -> String {
    format!("{v:.3}")
}

/// The path diagram of a report.
#[component]
pub fn PathDiagram(
    /// The fitted report.
    report: SemReport,
) -> impl IntoView {
    let l = layout(&report);
    let pos: BTreeMap<String, (f64, f64)> = l
        .constructs
        .iter()
        .map(|(n, x, y)| (n.clone(), (*x, *y)))
        .collect();
    let (w, h) = l.size;
    let mut arrows = Vec::new();
    for (name, con, x, y) in &l.items {
        if let (Some(&(cx, cy)), Some(o)) = (pos.get(con), report.outer.get(name)) {
            let x1 = x + ITEM_W / 2.0;
            let x2 = cx - CON_W / 2.0;
            arrows.push(
                view! {
                    <g class="arrow measure">
                        <line x1=x1 y1=*y x2=x2 y2=cy marker-end="url(#sem-arrow)" />
                        <text x=x1 + 6.0 y=y - 4.0 class="arrow-label">{f3(o.loading)}</text>
                    </g>
                }
                .into_any(),
            );
        }
    }
    // Lower-order -> second-order arrows carry stage-2 loadings; paths their coefficients.
    let mut structural: Vec<(String, String, f64)> = report
        .paths
        .iter()
        .filter_map(|(k, v)| k.split_once(" -> ").map(|(a, b)| (a.into(), b.into(), *v)))
        .collect();
    for c in report.constructs.iter().filter(|c| c.order == 2) {
        for lo in &c.indicators {
            if let Some(o) = report.outer.get(lo) {
                structural.push((lo.clone(), c.name.clone(), o.loading));
            }
        }
    }
    for (a, b, v) in structural {
        if let (Some(&(ax, ay)), Some(&(bx, by))) = (pos.get(&a), pos.get(&b)) {
            let (x1, x2) = if bx > ax {
                (ax + CON_W / 2.0, bx - CON_W / 2.0)
            } else {
                (ax, bx)
            };
            let (y1, y2) = if bx > ax {
                (ay, by)
            } else if by > ay {
                (ay + CON_H / 2.0, by - CON_H / 2.0)
            } else {
                (ay - CON_H / 2.0, by + CON_H / 2.0)
            };
            arrows.push(view! {
                <g class="arrow structural" data-path=format!("{a} -> {b}") data-value=v.to_string()>
                    <line x1=x1 y1=y1 x2=x2 y2=y2 marker-end="url(#sem-arrow)" />
                    <text x=(x1 + x2) / 2.0 y=(y1 + y2) / 2.0 - 5.0 class="arrow-label" text-anchor="middle">
                        {f3(v)}
                    </text>
                </g>
            }.into_any());
        }
    }
    let items = l
        .items
        .iter()
        .map(|(name, _, x, y)| {
            view! {
                <g class="node item" data-item=name.clone()>
                    <rect x=x - ITEM_W / 2.0 y=y - ITEM_H / 2.0 width=ITEM_W height=ITEM_H rx="4" />
                    <text x=*x y=y + 4.0 text-anchor="middle">{name.clone()}</text>
                </g>
            }
        })
        .collect::<Vec<_>>();
    let cons = l
        .constructs
        .iter()
        .map(|(name, x, y)| {
            let r2 = report.r2.get(name).map(|v| format!("R² = {v:.3}"));
            let has_r2 = r2.is_some();
            view! {
                <g class="node construct" data-construct=name.clone()>
                    <rect x=x - CON_W / 2.0 y=y - CON_H / 2.0 width=CON_W height=CON_H rx="10" />
                    <text x=*x y=if has_r2 { y - 3.0 } else { y + 5.0 } text-anchor="middle" class="con-name">
                        {name.clone()}
                    </text>
                    <text x=*x y=y + 14.0 text-anchor="middle" class="r2">{r2}</text>
                </g>
            }
        })
        .collect::<Vec<_>>();
    view! {
        <div class="diagram-scroll">
            <svg
                class="sem-diagram"
                data-testid="sem-diagram"
                role="img"
                aria-label="Path diagram: tasks, constructs, loadings and path coefficients"
                width=w
                height=h
                viewBox=format!("0 0 {w} {h}")
                xmlns="http://www.w3.org/2000/svg"
            >
                <defs>
                    <marker id="sem-arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
                        <path d="M 0 0 L 10 5 L 0 10 z" class="arrow-head" />
                    </marker>
                </defs>
                {arrows}
                {items}
                {cons}
            </svg>
        </div>
    }
}
