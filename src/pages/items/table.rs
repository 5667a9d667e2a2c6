//! The item table (sortable by any column, flagged-only filter, pages of [`PAGE`] rows, a
//! check box to draw an item's curve) and the respondents' abilities with their 95%
//! intervals. Values are the worker's; the page only orders and formats them.

use coglab_core::items::report::ReportItem;
use coglab_core::items::RespondentRow;
use coglab_core::items::{Flag, ItemsReport};
use leptos::prelude::*;
use std::cmp::Ordering;

use super::charts::PickedItems;

/// Item rows shown per page (50: rendering 200 rows of 12 cells with the rest of a 2,710-item
/// report took one main-thread task of 70-100 ms on a loaded machine; issue 22).
pub const PAGE: usize = 50;
/// Respondent rows shown before "Show all".
const RESPONDENTS_SHOWN: usize = 50;
/// Items whose curves can be picked at once (the worker returns at most 24).
const MAX_PICKED: usize = 24;

/// The item table's columns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Column {
    Id,
    Category,
    P,
    PointBiserial,
    AlphaIfDeleted,
    A,
    B,
    Sx2P,
    Outfit,
    Flags,
}

const COLUMNS: [(Column, &str, &str); 10] = [
    (Column::Id, "Item", "id"),
    (Column::Category, "Category", "category"),
    (Column::P, "p", "p"),
    (Column::PointBiserial, "r_pb", "rpb"),
    (Column::AlphaIfDeleted, "α if deleted", "alpha"),
    (Column::A, "a", "a"),
    (Column::B, "b", "b"),
    (Column::Sx2P, "S-X2 p", "sx2"),
    (Column::Outfit, "Outfit", "outfit"),
    (Column::Flags, "Flags", "flags"),
];

/// The value an item is sorted by in a numeric column.
fn number(i: &ReportItem, c: Column) -> Option<f64> {
    match c {
        Column::P => i.p,
        Column::PointBiserial => i.point_biserial,
        Column::AlphaIfDeleted => i.alpha_if_deleted,
        Column::A => i.a,
        Column::B => i.b,
        Column::Sx2P => i.sx2.as_ref().map(|t| t.p),
        Column::Outfit => i.outfit,
        Column::Flags => Some(i.flags.len() as f64),
        Column::Id | Column::Category => None,
    }
}

/// Orders items by a column; missing values last in either direction.
pub fn compare(x: &ReportItem, y: &ReportItem, c: Column, ascending: bool) -> Ordering {
    let dir = |o: Ordering| if ascending { o } else { o.reverse() };
    match c {
        Column::Id => dir(natural(&x.id, &y.id)),
        Column::Category => dir(x.category.cmp(&y.category)),
        _ => match (number(x, c), number(y, c)) {
            (Some(a), Some(b)) => dir(a.total_cmp(&b)),
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (None, None) => Ordering::Equal,
        },
    }
}

/// Ids compared as numbers when both are, else as text (`"9" < "10"`).
fn natural(a: &str, b: &str) -> Ordering {
    match (a.parse::<u64>(), b.parse::<u64>()) {
        (Ok(x), Ok(y)) => x.cmp(&y),
        _ => a.cmp(b),
    }
}

fn fmt(v: Option<f64>, digits: usize) -> String {
    v.map_or_else(|| "–".into(), |x| format!("{x:.digits$}"))
}

/// A flag's short label.
pub fn flag_label(f: Flag) -> &'static str {
    match f {
        Flag::NoneRight => "no one right",
        Flag::AllRight => "everyone right",
        Flag::NegativeDiscrimination => "negative r_pb",
        Flag::LowDiscrimination => "low r_pb",
        Flag::NegativeSlope => "negative a",
        Flag::PoorFit => "infit/outfit",
        Flag::GroupGap => "group gap",
        Flag::Sx2Misfit => "S-X2 misfit",
    }
}

/// The sortable item table.
#[component]
pub fn ItemTable(
    /// The worker's report.
    report: StoredValue<ItemsReport>,
) -> impl IntoView {
    let picked = use_context::<PickedItems>().map(|p| p.0);
    let sort = RwSignal::new((Column::Flags, false));
    let flagged_only = RwSignal::new(false);
    let page = RwSignal::new(0usize);
    let order = Memo::new(move |_| {
        let (c, asc) = sort.get();
        let only = flagged_only.get();
        report.with_value(|r| {
            let mut idx: Vec<usize> = (0..r.items.len())
                .filter(|&j| !only || !r.items[j].flags.is_empty())
                .collect();
            idx.sort_by(|&x, &y| compare(&r.items[x], &r.items[y], c, asc).then(x.cmp(&y)));
            idx
        })
    });
    let header = COLUMNS
        .iter()
        .map(|&(c, label, key)| {
            let aria = move || match sort.get() {
                (s, true) if s == c => "ascending",
                (s, false) if s == c => "descending",
                _ => "none",
            };
            view! {
                <th aria-sort=aria>
                    <button type="button" data-testid=format!("items-sort-{key}") on:click=move |_| {
                        page.set(0);
                        sort.update(|s| *s = if s.0 == c { (c, !s.1) } else { (c, matches!(c, Column::Id | Column::Category)) });
                    }>{label}</button>
                </th>
            }
        })
        .collect_view();
    let rows = move || {
        let idx = order.get();
        let start = page.get() * PAGE;
        report.with_value(|r| {
            idx.iter()
                .skip(start)
                .take(PAGE)
                .map(|&j| item_row(&r.items[j], picked))
                .collect_view()
        })
    };
    let pages = move || order.read().len().div_ceil(PAGE).max(1);
    view! {
        <h3>"Items"</h3>
        <div class="lb-controls">
            <label><input type="checkbox" data-testid="items-flagged-only"
                on:change=move |ev| { page.set(0); flagged_only.set(event_target_checked(&ev)); } />
                " Flagged items only"</label>
            <span data-testid="items-count">{move || format!("{} items", order.read().len())}</span>
            <button type="button" disabled=move || page.get() == 0
                on:click=move |_| page.update(|p| *p = p.saturating_sub(1))>"Previous"</button>
            <span>{move || format!("page {} of {}", page.get() + 1, pages())}</span>
            <button type="button" data-testid="items-next" disabled=move || { page.get() + 1 >= pages() }
                on:click=move |_| page.update(|p| *p += 1)>"Next"</button>
        </div>
        <div class="table-scroll">
            <table class="lb-table" data-testid="items-table">
                <thead><tr><th>"Curve"</th>{header}<th>"Most frequent wrong"</th></tr></thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
    }
}

fn item_row(i: &ReportItem, picked: Option<RwSignal<Vec<String>>>) -> impl IntoView {
    let id = i.id.clone();
    let flags: Vec<&str> = i.flags.iter().map(|f| flag_label(*f)).collect();
    let wrong = i
        .most_frequent_wrong
        .as_ref()
        .map_or(String::new(), |(k, n)| format!("{k} ×{n}"));
    let sx2 = i.sx2.as_ref().map_or("–".into(), |t| {
        format!("{:.3} (χ² {:.1}, df {})", t.p, t.chi2, t.df)
    });
    let pick_id = id.clone();
    let data_item = id.clone();
    let fitted = i.a.is_some();
    let flagged = !i.flags.is_empty();
    view! {
        <tr data-testid="items-row" data-item=data_item class:flagged=flagged>
            <td>{fitted.then(|| {
                let checked_id = pick_id.clone();
                view! {
                    <input type="checkbox" aria-label=format!("Draw the curve of item {pick_id}")
                        prop:checked=move || picked.is_some_and(|p| p.read().contains(&checked_id))
                        on:change=move |ev| {
                            let on = event_target_checked(&ev);
                            if let Some(p) = picked {
                                p.update(|v| {
                                    v.retain(|x| x != &pick_id);
                                    if on && v.len() < MAX_PICKED {
                                        v.push(pick_id.clone());
                                    }
                                });
                            }
                        } />
                }
            })}</td>
            <td>{id}</td>
            <td>{i.category.clone().unwrap_or_default()}</td>
            <td data-testid="items-p" data-value=i.p.map(|v| v.to_string())>{fmt(i.p, 3)}</td>
            <td>{fmt(i.point_biserial, 3)}</td>
            <td>{fmt(i.alpha_if_deleted, 3)}</td>
            <td data-testid="items-a" data-value=i.a.map(|v| v.to_string())>{fmt(i.a, 2)}</td>
            <td data-testid="items-b" data-value=i.b.map(|v| v.to_string())>{fmt(i.b, 2)}</td>
            <td>{sx2}</td>
            <td>{fmt(i.outfit, 2)}</td>
            <td data-testid="items-flags">{flags.join(", ")}</td>
            <td>{wrong}</td>
        </tr>
    }
}

/// The respondents' abilities (EAP, posterior SD, 95% interval), highest first.
#[component]
pub fn RespondentTable(
    /// The worker's report.
    report: StoredValue<ItemsReport>,
) -> impl IntoView {
    let order = report.with_value(|r| {
        let mut idx: Vec<usize> = (0..r.respondents.len()).collect();
        idx.sort_by(|&x, &y| {
            let t = |k: usize| r.respondents[k].theta.unwrap_or(f64::NEG_INFINITY);
            t(y).total_cmp(&t(x)).then(x.cmp(&y))
        });
        idx
    });
    let total = order.len();
    let all = RwSignal::new(false);
    let rows = move || {
        let n = if all.get() { total } else { RESPONDENTS_SHOWN };
        report.with_value(|r| {
            order
                .iter()
                .take(n)
                .map(|&k| respondent_row(&r.respondents[k]))
                .collect_view()
        })
    };
    view! {
        <h3>"Respondents"</h3>
        {(total > RESPONDENTS_SHOWN).then(|| view! {
            <p class="lb-controls">
                <span>{move || if all.get() {
                    format!("All {total}, highest ability first.")
                } else {
                    format!("The {RESPONDENTS_SHOWN} of highest ability of {total}.")
                }}</span>
                <button type="button" data-testid="items-respondents-all" on:click=move |_| all.update(|a| *a = !*a)>
                    {move || if all.get() { "Show fewer".to_string() } else { format!("Show all {total}") }}</button>
            </p>
        })}
        <div class="table-scroll">
            <table class="lb-table" data-testid="items-respondents">
                <thead><tr>
                    <th>"Respondent"</th><th>"Kind"</th><th>"Items"</th><th>"Score"</th>
                    <th>"θ (EAP)"</th><th>"SE"</th><th>"95% interval"</th>
                </tr></thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
    }
}

fn respondent_row(r: &RespondentRow) -> impl IntoView {
    let interval = r
        .interval()
        .map_or("–".into(), |(lo, hi)| format!("{lo:.2} to {hi:.2}"));
    view! {
        <tr data-testid="items-respondent" data-respondent=r.id.clone()>
            <td>{r.id.clone()}</td>
            <td>{r.group.clone().unwrap_or_default()}</td>
            <td>{r.n}</td>
            <td>{fmt(r.score, 3)}</td>
            <td data-testid="items-theta" data-value=r.theta.map(|v| v.to_string())>{fmt(r.theta, 2)}</td>
            <td>{fmt(r.se, 2)}</td>
            <td>{interval}</td>
        </tr>
    }
}
