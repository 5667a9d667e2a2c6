//! The comparison of two computed rows: paired statistics from the worker, the 2x2 table of
//! right and wrong, and the items of each cell.

use super::*;

/// Two models on the same items: the 2×2 table with the items of each cell, McNemar's exact p
/// and the paired bootstrap 95% interval of the accuracy difference (MM-IQ), or the same per
/// stage (KiVA). Computed in the worker ([`api::Compare`]).
#[component]
pub fn CompareModels(
    /// The rows to choose from, as (row id, model name).
    #[prop(into)]
    rows: Signal<Vec<(RowId, String)>>,
    /// The two selected row ids (shared with the URL).
    pair: RwSignal<(Option<RowId>, Option<RowId>)>,
    /// Prefix of the test ids (`compare` for MM-IQ, `kiva-compare` for KiVA).
    testid: &'static str,
    /// KiVA: show stage 2 as the joint score (skipped counted as 0) rather than the
    /// conditional one, following the tab's "how" switch.
    #[prop(optional, into)]
    joint: Option<Signal<bool>>,
) -> impl IntoView {
    let client = StoredValue::new_local(use_worker());
    let chosen = Memo::new(move |_| {
        let rows = rows.get();
        let ok = |id: Option<RowId>| id.filter(|i| rows.iter().any(|(r, _)| r == i));
        let (a, b) = pair.get();
        let a = ok(a).or_else(|| rows.first().map(|r| r.0));
        // A model is not compared with itself: the second falls back to another row.
        let b = ok(b)
            .filter(|b| Some(*b) != a)
            .or_else(|| rows.iter().map(|r| r.0).find(|r| Some(*r) != a));
        (a, b)
    });
    let name = move |id: Option<RowId>| {
        rows.read()
            .iter()
            .find(|(r, _)| Some(*r) == id)
            .map(|(_, m)| m.clone())
            .unwrap_or_default()
    };
    // The reply is kept with the pair it was made for, so a reply for a pair no longer chosen
    // is never shown under the new pair's names.
    let result = latest_reply(
        move || chosen.get(),
        move |(a, b)| {
            let client = client.get_value();
            async move {
                let (first, second) = (a?, b?);
                let request = api::Compare {
                    first,
                    second,
                    resamples: RESAMPLES as u64,
                    seed: SEED,
                };
                Some(client.call(request).await)
            }
        },
    );
    let select = move |first: bool| {
        let cur = move || {
            if first {
                chosen.get().0
            } else {
                chosen.get().1
            }
        };
        view! {
            <select data-testid=format!("{testid}-{}", if first { "a" } else { "b" })
                on:change=move |ev| {
                    let v = event_target_value(&ev).parse().ok();
                    let (a, b) = chosen.get_untracked();
                    pair.set(if first { (v, b) } else { (a, v) });
                }>
                {move || rows.get().into_iter().map(|(id, m)| view! {
                    <option value=id.to_string() selected=Some(id) == cur()>{m}</option>
                }).collect_view()}
            </select>
        }
    };
    view! {
        <section class="lb-compare" data-testid=testid>
            <h2 class="lb-subhead">"Compare two models"</h2>
            <div class="lb-controls">
                <label>"First "{select(true)}</label>
                <label>"Second "{select(false)}</label>
            </div>
            {move || {
                let (a, b) = chosen.get();
                let (x, y) = (name(a), name(b));
                match result.get_for(&(a, b)) {
                    None => view! { <p class="loading" aria-busy="true">"Comparing…"</p> }.into_any(),
                    Some(None) => view! { <p class="notice">"Load two runs to compare them."</p> }.into_any(),
                    Some(Some(Err(e))) => view! { <WorkerErrorPanel title="Could not compare" error=e /> }.into_any(),
                    Some(Some(Ok(Compared::Mmiq(c)))) => {
                        let downloads = compare_downloads(&x, &y, vec![(String::new(), c.cells.clone())], &c, testid);
                        let s = format!("McNemar exact {}; difference {x} − {y} = {} points, paired bootstrap {:.0}% interval [{}, {}] ({} resamples, seed {})",
                            p_phrase(c.comparison.mcnemar_p), pct(c.comparison.difference.estimate), c.comparison.difference.confidence * 100.0,
                            pct(c.comparison.difference.low), pct(c.comparison.difference.high), c.comparison.difference.resamples, c.comparison.difference.seed);
                        view! {
                            {two_by_two(&x, &y, format!("{} items answered by both", c.comparison.n_paired),
                                [c.comparison.table.both_correct, c.comparison.table.first_only, c.comparison.table.second_only, c.comparison.table.both_wrong],
                                format!("{testid}-table"))}
                            <p data-testid=format!("{testid}-stats")>{s}</p>
                            {cells_view(&x, &y, c.cells, "Items")}
                            {downloads}
                        }.into_any()
                    }
                    Some(Some(Ok(Compared::Kiva(c)))) => {
                        let hide = match joint.map(|j| j.get()) {
                            Some(true) => "within_conditional",
                            Some(false) => "within_joint",
                            None => "",
                        };
                        let shown: Vec<(String, coglab_core::leaderboard::detail::CellItems)> = c
                            .stages
                            .iter()
                            .filter(|st| st.stage != hide)
                            .map(|st| (st.stage.clone(), st.cells.clone()))
                            .collect();
                        let downloads = compare_downloads(&x, &y, shown, &c, testid);
                        let stages = c.stages.into_iter().filter(|st| st.stage != hide).map(|st| {
                            let title = match st.stage.as_str() {
                                "cross" => "Stage 1, what changed",
                                "within_conditional" => "Stage 2, how (conditional)",
                                "within_joint" => "Stage 2, how (joint)",
                                _ => "Stage 3, apply",
                            };
                            let stats = format!("{x} {}%, {y} {}% on {} paired trials; McNemar exact {}; difference in trials right {} points, paired bootstrap {:.0}% interval [{}, {}]",
                                pct(st.first_mean), pct(st.second_mean), st.n_paired, p_phrase(st.mcnemar_p),
                                pct(st.difference.estimate), st.difference.confidence * 100.0, pct(st.difference.low), pct(st.difference.high));
                            view! {
                                <div class="lb-stage-compare" data-stage=st.stage.clone()>
                                    <h3>{title}</h3>
                                    {two_by_two(&x, &y, format!("{} trials in both runs", st.n_paired),
                                        [st.table.both_correct, st.table.first_only, st.table.second_only, st.table.both_wrong],
                                        format!("{testid}-table"))}
                                    <p class="lb-stats" data-testid=format!("{testid}-stats")>{stats}</p>
                                    {cells_view(&x, &y, st.cells, "Trials")}
                                </div>
                            }
                        }).collect_view();
                        view! { <p class="notice">{format!("Per stage: {}.", c.rule)}</p>{stages}{downloads} }.into_any()
                    }
                }
            }}
        </section>
    }
}

/// The comparison's downloads: its item lists per cell (and stage) as CSV
/// ([`coglab_core::leaderboard::detail::comparison_csv`]) and the whole comparison (2x2 tables,
/// statistics, item lists) as JSON.
fn compare_downloads(
    x: &str,
    y: &str,
    cells: Vec<(String, coglab_core::leaderboard::detail::CellItems)>,
    comparison: &impl serde::Serialize,
    testid: &'static str,
) -> impl IntoView {
    let stem = format!("{}-vs-{}", file_stem(x), file_stem(y));
    let json = serde_json::json!({ "first": x, "second": y, "comparison": comparison }).to_string();
    let (first, second) = (x.to_string(), y.to_string());
    let csv_name = format!("{stem}.csv");
    let json_name = format!("{stem}.json");
    let csv = move |_| {
        let stages: Vec<(&str, &coglab_core::leaderboard::detail::CellItems)> =
            cells.iter().map(|(s, c)| (s.as_str(), c)).collect();
        let text = coglab_core::leaderboard::detail::comparison_csv(&first, &second, &stages);
        crate::download::download_text(&csv_name, "text/csv", &text);
    };
    view! {
        <div class="lb-controls lb-export" role="group" aria-label="Export this comparison">
            <span>"Export: "</span>
            <button type="button" data-testid=format!("{testid}-csv") on:click=csv>"Item lists (CSV)"</button>
            <button type="button" data-testid=format!("{testid}-json")
                on:click=move |_| crate::download::download_text(&json_name, "application/json", &json)>
                "Comparison (JSON)"</button>
        </div>
    }
}

fn two_by_two(x: &str, y: &str, caption: String, cells: [u64; 4], testid: String) -> impl IntoView {
    view! {
        <div class="table-scroll">
        <table class="lb-table lb-2x2" data-testid=testid>
            <caption>{caption}</caption>
            <thead><tr><th scope="col"></th>
                <th scope="col">{format!("{y} right")}</th><th scope="col">{format!("{y} wrong")}</th></tr></thead>
            <tbody>
                <tr><th scope="row">{format!("{x} right")}</th>
                    <td class="num">{cells[0]}</td><td class="num">{cells[1]}</td></tr>
                <tr><th scope="row">{format!("{x} wrong")}</th>
                    <td class="num">{cells[2]}</td><td class="num">{cells[3]}</td></tr>
            </tbody>
        </table>
        </div>
    }
}

fn cells_view(x: &str, y: &str, cells: CellItems, what: &'static str) -> impl IntoView {
    let list = |label: String, ids: Vec<String>, key: &'static str| {
        let n = ids.len();
        let more = n.saturating_sub(MAX_CELL_ITEMS);
        let text = ids
            .into_iter()
            .take(MAX_CELL_ITEMS)
            .collect::<Vec<_>>()
            .join(", ");
        view! {
            <details class="lb-cell-items" data-cell=key>
                <summary>{format!("{label}: {n}")}</summary>
                <p>{text}{(more > 0).then(|| format!(" … and {more} more"))}</p>
            </details>
        }
    };
    view! {
        <div class="lb-cells" role="group" aria-label=format!("{what} in each cell")>
            {list(format!("{what} both right"), cells.both_correct, "both_correct")}
            {list(format!("{what} only {x} right"), cells.first_only, "first_only")}
            {list(format!("{what} only {y} right"), cells.second_only, "second_only")}
            {list(format!("{what} both wrong"), cells.both_wrong, "both_wrong")}
        </div>
    }
}
