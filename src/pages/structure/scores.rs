//! The weighted-scores table: overall and layer scores with rank changes, sortable by any
//! column; the order is kept in the address (`url.rs`).

use coglab_core::sem::suite::RankRow;
use leptos::prelude::*;

use super::url::{set_structure_query, use_structure_query, StructureQuery};
use super::{f3, opt3};

/// Weighted overall and layer scores with rank changes, sortable by any column.
#[component]
pub fn ScoresTable(
    /// Rows from the core's `rank_changes`.
    ranks: Vec<RankRow>,
    /// Layer (first-order construct) names.
    constructs: Vec<String>,
) -> impl IntoView {
    let query = use_structure_query();
    let cons = constructs.clone();
    let total = ranks.len();
    // The first rows only, until asked: a few hundred rows at once kept the main thread busy
    // for >100 ms after every refit (Long Tasks, e2e OpenVLM test).
    let shown = RwSignal::new(SCORE_ROWS);
    // Keyed by the row's place in the core's list (model names need not be unique).
    let rows = move || {
        let StructureQuery { sort: key, desc } = query.get();
        let limit = shown.get();
        let mut v: Vec<(usize, RankRow)> = ranks.iter().cloned().enumerate().collect();
        v.sort_by(|(_, a), (_, b)| {
            let o = match key.as_str() {
                "model" => a.model.cmp(&b.model),
                "overall" => a.overall.total_cmp(&b.overall),
                "mean" => a.plain_mean.total_cmp(&b.plain_mean),
                "change" => a.change.cmp(&b.change),
                "rank" => a.rank_weighted.cmp(&b.rank_weighted),
                c => {
                    let x = a.by_construct.get(c).copied().unwrap_or(f64::NAN);
                    let y = b.by_construct.get(c).copied().unwrap_or(f64::NAN);
                    x.total_cmp(&y)
                }
            };
            if desc {
                o.reverse()
            } else {
                o
            }
        });
        v.truncate(limit);
        v
    };
    let row = move |r: RankRow| {
        let change = match r.change {
            0 => "0".to_string(),
            c if c > 0 => format!("▲ {c}"),
            c => format!("▼ {}", -c),
        };
        let cells = cons
            .iter()
            .map(|c| view! { <td class="num">{opt3(r.by_construct.get(c).copied())}</td> })
            .collect::<Vec<_>>();
        view! {
            <tr data-model=r.model.clone()>
                <td class="num">{r.rank_weighted}</td>
                <th scope="row">{r.model.clone()}</th>
                <td class="num">{f3(r.overall)}</td>
                {cells}
                <td class="num">{f3(r.plain_mean)}</td>
                <td class="num">{r.rank_plain}</td>
                <td class="num" class:up={r.change > 0} class:down={r.change < 0}>{change}</td>
            </tr>
        }
    };
    let head = move |key: String, label: String| {
        let k2 = key.clone();
        let k3 = key.clone();
        view! {
            <th scope="col" aria-sort=move || { let q = query.get(); if q.sort == k3 { if q.desc { "descending" } else { "ascending" } } else { "none" } }>
                <button type="button" class="sort" on:click=move |_| {
                    let mut q = query.get_untracked();
                    if q.sort == k2 { q.desc = !q.desc } else { q = StructureQuery { sort: k2.clone(), desc: false } }
                    set_structure_query(&q);
                }>{label}</button>
            </th>
        }
    };
    view! {
        <div class="table-scroll scores-scroll">
            <table data-testid="table-scores">
                <thead>
                    <tr>
                        {head("rank".into(), "Rank".into())}
                        {head("model".into(), "Model".into())}
                        {head("overall".into(), "Weighted overall".into())}
                        {constructs.iter().map(|c| head(c.clone(), c.clone())).collect::<Vec<_>>()}
                        {head("mean".into(), "Plain mean".into())}
                        <th scope="col">"Rank (mean)"</th>
                        {head("change".into(), "Rank change".into())}
                    </tr>
                </thead>
                <tbody>
                    <For each=rows key=|(i, _)| *i children=move |(_, r)| row(r) />
                </tbody>
            </table>
        </div>
        <Show when=move || { total > shown.get() }>
            <p class="muted" data-testid="scores-shown">
                {move || format!("Showing the first {} of {total} models in this order. ", shown.get())}
                <button type="button" class="small" data-testid="scores-all" on:click=move |_| shown.set(usize::MAX)>
                    {format!("Show all {total}")}
                </button>
            </p>
        </Show>
    }
}

/// Rows of the scores table rendered before "Show all".
const SCORE_ROWS: usize = 50;
