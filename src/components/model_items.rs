//! MM-IQ model page and two-model comparison, over computed rows (items from the core's
//! report; the comparison statistics from `coglab_core::mmiq::compare`).

use coglab_core::leaderboard::MmiqRow;
use coglab_core::mmiq::{compare, CATEGORIES};
use leptos::prelude::*;

use crate::components::error_panel::ErrorPanel;

/// Items shown at most in the item table (the per-category summary covers all of them).
const MAX_ITEMS: usize = 500;
/// Bootstrap resamples and seed of the paired difference interval.
const RESAMPLES: usize = 2000;
const SEED: u64 = 1;

fn pct(x: f64) -> String {
    format!("{:.1}", x * 100.0)
}

/// A model's items: category, response (long text collapsed), the extracted answer
/// highlighted, the key, right/wrong, a wrong-only filter and a per-category summary.
#[component]
pub fn ModelItems(
    /// The computed MM-IQ rows to choose from.
    rows: RwSignal<Vec<MmiqRow>>,
) -> impl IntoView {
    let (pick, set_pick) = signal(0usize);
    let (wrong_only, set_wrong_only) = signal(false);
    let options = move || {
        rows.read()
            .iter()
            .enumerate()
            .map(|(i, r)| view! { <option value=i.to_string()>{r.model.clone()}</option> })
            .collect_view()
    };
    view! {
        <section class="lb-model" data-testid="model-items">
            <h2 class="lb-subhead">"Model page"</h2>
            <div class="lb-controls">
                <label>"Model "
                    <select data-testid="model-pick" on:change=move |ev| {
                        set_pick.set(event_target_value(&ev).parse().unwrap_or(0))
                    }>{options}</select>
                </label>
                <label><input type="checkbox" data-testid="wrong-only"
                    on:change=move |ev| set_wrong_only.set(event_target_checked(&ev)) />
                    " Wrong answers only"</label>
            </div>
            {move || {
                let rows = rows.read();
                let Some(r) = rows.get(pick.get()) else { return ().into_any() };
                let summary = CATEGORIES.iter().filter_map(|c| r.report.by_category.get(*c).map(|a| view! {
                    <li>{format!("{c}: {} of {} ({}%)", a.correct, a.n, pct(a.accuracy))}</li>
                })).collect_view();
                let wrong = wrong_only.get();
                let items: Vec<_> = r.report.items.iter().filter(|i| !wrong || !i.correct).collect();
                let total = items.len();
                let body = items.into_iter().take(MAX_ITEMS).map(|i| {
                    let resp = i.response.clone().unwrap_or_default();
                    let response = if resp.chars().count() > 120 {
                        let short: String = resp.chars().take(100).collect();
                        view! { <details><summary>{format!("{short}…")}</summary><p class="lb-response">{resp}</p></details> }.into_any()
                    } else {
                        view! { <span class="lb-response">{resp}</span> }.into_any()
                    };
                    view! {
                        <tr data-testid="item-row" data-correct=i.correct.to_string()>
                            <td class="num">{i.data_id}</td>
                            <td>{i.category.clone()}</td>
                            <td class="lb-response-cell">{response}</td>
                            <td><mark>{i.parsed.to_string()}</mark></td>
                            <td>{i.key.to_string()}</td>
                            <td>{if i.correct { "✓ right" } else { "✗ wrong" }}</td>
                        </tr>
                    }
                }).collect_view();
                view! {
                    <ul class="lb-summary">{summary}</ul>
                    <p class="notice" role="status">{if total > MAX_ITEMS {
                        format!("{total} items; the first {MAX_ITEMS} are shown.")
                    } else {
                        format!("{total} items.")
                    }}</p>
                    <div class="table-scroll">
                        <table class="lb-table lb-items">
                            <thead><tr>
                                <th scope="col">"Item"</th><th scope="col">"Category"</th>
                                <th scope="col">"Response"</th>
                                <th scope="col" title="The letter extracted from the response by MM-IQ's released rules (Z: no answer)">"Extracted"</th>
                                <th scope="col">"Key"</th><th scope="col">"Result"</th>
                            </tr></thead>
                            <tbody>{body}</tbody>
                        </table>
                    </div>
                }.into_any()
            }}
        </section>
    }
}

/// Two models on the same items: the 2×2 table, McNemar's exact p and the paired bootstrap
/// 95% interval of the accuracy difference.
#[component]
pub fn CompareModels(
    /// The computed MM-IQ rows to choose from.
    rows: RwSignal<Vec<MmiqRow>>,
) -> impl IntoView {
    let (a, set_a) = signal(0usize);
    let (b, set_b) = signal(1usize);
    let options = move || {
        rows.read()
            .iter()
            .enumerate()
            .map(|(i, r)| (i.to_string(), r.model.clone()))
            .collect::<Vec<_>>()
    };
    let result = Memo::new(move |_| {
        let rows = rows.read();
        let (Some(x), Some(y)) = (rows.get(a.get()), rows.get(b.get())) else {
            return None;
        };
        Some(
            compare(&x.report, &y.report, RESAMPLES, SEED)
                .map(|c| (x.model.clone(), y.model.clone(), c))
                .map_err(|e| e.to_string()),
        )
    });
    view! {
        <section class="lb-compare" data-testid="compare">
            <h2 class="lb-subhead">"Compare two models"</h2>
            <div class="lb-controls">
                <label>"First "<select data-testid="compare-a" on:change=move |ev| set_a.set(event_target_value(&ev).parse().unwrap_or(0))>
                    {move || options().into_iter().map(|(v, m)| { let sel = v == a.get().to_string(); view! { <option value=v selected=sel>{m}</option> } }).collect_view()}
                </select></label>
                <label>"Second "<select data-testid="compare-b" on:change=move |ev| set_b.set(event_target_value(&ev).parse().unwrap_or(0))>
                    {move || options().into_iter().map(|(v, m)| { let sel = v == b.get().to_string(); view! { <option value=v selected=sel>{m}</option> } }).collect_view()}
                </select></label>
            </div>
            {move || match result.get() {
                None => view! { <p class="notice">"Load two MM-IQ prediction files to compare them."</p> }.into_any(),
                Some(Err(e)) => view! { <ErrorPanel title="Could not compare" message=e /> }.into_any(),
                Some(Ok((x, y, c))) => view! {
                    <div class="table-scroll">
                    <table class="lb-table lb-2x2" data-testid="compare-table">
                        <caption>{format!("{} items answered by both", c.n_paired)}</caption>
                        <thead><tr><th scope="col"></th>
                            <th scope="col">{format!("{y} right")}</th><th scope="col">{format!("{y} wrong")}</th></tr></thead>
                        <tbody>
                            <tr><th scope="row">{format!("{x} right")}</th>
                                <td class="num">{c.table.both_correct}</td><td class="num">{c.table.first_only}</td></tr>
                            <tr><th scope="row">{format!("{x} wrong")}</th>
                                <td class="num">{c.table.second_only}</td><td class="num">{c.table.both_wrong}</td></tr>
                        </tbody>
                    </table>
                    </div>
                    <p data-testid="compare-stats">
                        {format!("McNemar exact p = {:.4}; difference {x} − {y} = {} points, paired bootstrap {:.0}% interval [{}, {}] ({} resamples, seed {})",
                            c.mcnemar_p, pct(c.difference.estimate), c.difference.confidence * 100.0,
                            pct(c.difference.low), pct(c.difference.high), c.difference.resamples, c.difference.seed)}
                    </p>
                }.into_any(),
            }}
        </section>
    }
}
