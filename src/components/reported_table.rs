//! A sortable table of results reported in a paper (`coglab_core::reported::ReportedTable`).

use coglab_core::reported::{ReportedRow, ReportedTable};
use leptos::prelude::*;

/// Which column the table is sorted by: `None` keeps the paper's order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SortState {
    /// Column index, or `None` for the paper's row order.
    pub column: Option<usize>,
    /// Descending order (highest first).
    pub descending: bool,
}

/// Returns the rows in display order for a sort state. Missing values sort last in both
/// directions; ties keep the paper's order.
pub fn sorted_rows(table: &ReportedTable, sort: SortState) -> Vec<ReportedRow> {
    let mut rows = table.rows.clone();
    if let Some(col) = sort.column {
        rows.sort_by(|a, b| {
            let (x, y) = (
                a.values.get(col).copied().flatten(),
                b.values.get(col).copied().flatten(),
            );
            match (x, y) {
                (Some(x), Some(y)) if sort.descending => y.total_cmp(&x),
                (Some(x), Some(y)) => x.total_cmp(&y),
                (Some(_), None) => std::cmp::Ordering::Less,
                (None, Some(_)) => std::cmp::Ordering::Greater,
                (None, None) => std::cmp::Ordering::Equal,
            }
        });
    }
    rows
}

/// A reported-results table: click a column header to sort (highest first, then lowest first,
/// then the paper's order). Rows are marked "reported" with the table's source.
#[component]
pub fn ReportedTableView(
    /// The table to show.
    table: ReportedTable,
) -> impl IntoView {
    let sort = RwSignal::new(SortState {
        column: None,
        descending: true,
    });
    let table = StoredValue::new(table);
    let id = table.with_value(|t| t.id.clone());
    let click = move |col: usize| {
        sort.update(|s| {
            *s = match (s.column, s.descending) {
                (Some(c), true) if c == col => SortState {
                    column: Some(col),
                    descending: false,
                },
                (Some(c), false) if c == col => SortState {
                    column: None,
                    descending: true,
                },
                _ => SortState {
                    column: Some(col),
                    descending: true,
                },
            }
        });
    };
    let header = table
        .with_value(|t| t.columns.clone())
        .into_iter()
        .enumerate()
        .map(|(i, name)| {
            let aria = move || match sort.get() {
                SortState {
                    column: Some(c),
                    descending: true,
                } if c == i => "descending",
                SortState {
                    column: Some(c),
                    descending: false,
                } if c == i => "ascending",
                _ => "none",
            };
            let arrow = move || match aria() {
                "descending" => " ▼",
                "ascending" => " ▲",
                _ => "",
            };
            view! {
                <th scope="col" aria-sort=aria class="num">
                    <button type="button" class="sort-button" on:click=move |_| click(i)
                        data-testid=format!("sort-{i}")>
                        {name}<span aria-hidden="true">{arrow}</span>
                    </button>
                </th>
            }
        })
        .collect_view();
    let body = move || {
        let rows = table.with_value(|t| sorted_rows(t, sort.get()));
        rows.into_iter().map(|row| {
            let cells = row.values.iter().enumerate().map(|(i, v)| match v {
                Some(x) => view! {
                    <td class="num">{table.with_value(|t| t.format(i, *x))}</td>
                }.into_any(),
                None => view! { <td class="num missing" title="not reported">"–"</td> }.into_any(),
            }).collect_view();
            view! {
                <tr class=row.group.as_deref().map(|g| format!("group-{}", g.to_ascii_lowercase().replace(' ', "-")))>
                    <th scope="row">{row.label.clone()}
                        {row.group.clone().map(|g| view! { <span class="tag">{g}</span> })}
                    </th>
                    {cells}
                </tr>
            }
        }).collect_view()
    };
    let (title, source, unit, notes, row_header) = table.with_value(|t| {
        (
            t.title.clone(),
            t.source.clone(),
            t.unit.clone(),
            t.notes.clone(),
            t.row_header.clone(),
        )
    });
    let note_count = notes.len();
    view! {
        <section class="reported-table" data-testid=format!("table-{id}")>
            <h3>{title}</h3>
            <p class="source"><span class="badge">"reported"</span>" "{source}" · "{unit}</p>
            <div class="table-scroll">
                <table>
                    <thead><tr><th scope="col">{row_header}</th>{header}</tr></thead>
                    <tbody>{body}</tbody>
                </table>
            </div>
            {(!notes.is_empty()).then(|| view! {
                <details class="notes">
                    <summary>{format!("Notes on this table ({note_count})")}</summary>
                    <ul>{notes.into_iter().map(|n| view! { <li>{n}</li> }).collect_view()}</ul>
                </details>
            })}
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> ReportedTable {
        let row = |label: &str, values: Vec<Option<f64>>| ReportedRow {
            label: label.into(),
            group: None,
            values,
        };
        ReportedTable {
            id: "t".into(),
            title: "T".into(),
            source: "s".into(),
            unit: "%".into(),
            row_header: "Model".into(),
            columns: vec!["a".into()],
            decimals: vec![],
            rows: vec![
                row("x", vec![Some(2.0)]),
                row("y", vec![None]),
                row("z", vec![Some(5.0)]),
            ],
            notes: vec![],
        }
    }

    #[test]
    fn sorting_puts_missing_last_both_ways() {
        let labels = |s| {
            sorted_rows(&table(), s)
                .into_iter()
                .map(|r| r.label)
                .collect::<Vec<_>>()
        };
        assert_eq!(
            labels(SortState {
                column: Some(0),
                descending: true
            }),
            ["z", "x", "y"]
        );
        assert_eq!(
            labels(SortState {
                column: Some(0),
                descending: false
            }),
            ["x", "z", "y"]
        );
        assert_eq!(
            labels(SortState {
                column: None,
                descending: true
            }),
            ["x", "y", "z"]
        );
    }
}
