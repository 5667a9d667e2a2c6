//! The table as shown for the exports (CSV, JSON, LaTeX).

use super::*;

/// The table as shown, for the LaTeX export: Rank, Model, Kind, then the visible columns, rows
/// in display order, cells as shown ("–" when missing, "± x" in compact mode).
pub fn export_table(board: &Board, state: &ViewState) -> Table {
    let a = arrange(board, state);
    let mut columns: Vec<String> = ["Rank", "Model", "Kind"].map(String::from).to_vec();
    columns.extend(a.columns.iter().map(|&c| board.columns[c].title.clone()));
    let rows = a
        .rows
        .iter()
        .map(|&(i, rank)| {
            let r = &board.rows[i];
            let mut row = vec![
                rank.map_or("–".into(), |k| k.to_string()),
                r.model.clone(),
                r.badge().to_string(),
            ];
            row.extend(a.columns.iter().map(|&c| {
                cell_text(
                    board,
                    c,
                    r.cells.get(c).and_then(Option::as_ref),
                    state.compact,
                )
            }));
            row
        })
        .collect();
    Table {
        columns,
        rows,
        numeric: Vec::new(),
    }
}

/// The table as shown, for analysis (the CSV and JSON exports; issue 26, defect 15): the rows
/// and visible columns of [`export_table`], but each metric as four columns (the value, its `n`,
/// `ci_low` and `ci_high`, in the shown unit and decimals) and a missing value as an empty
/// cell; the row's source is a column too.
pub fn analysis_table(board: &Board, state: &ViewState) -> Table {
    let a = arrange(board, state);
    let mut columns: Vec<String> = ["Rank", "Model", "Kind", "Source"]
        .map(String::from)
        .to_vec();
    // The rank is a number too (issue 42, defect 16: `"Rank": "4"`); an unranked row's is
    // empty, `null` in JSON.
    let mut numeric = vec![true, false, false, false];
    for &c in &a.columns {
        let t = &board.columns[c].title;
        columns.extend([
            t.clone(),
            format!("{t} n"),
            format!("{t} ci_low"),
            format!("{t} ci_high"),
        ]);
        numeric.extend([true; 4]);
    }
    let rows = a
        .rows
        .iter()
        .map(|&(i, rank)| {
            let r = &board.rows[i];
            let mut row = vec![
                rank.map_or(String::new(), |k| k.to_string()),
                r.model.clone(),
                r.badge().to_string(),
                r.source.clone(),
            ];
            for &c in &a.columns {
                let (scale, d) = board
                    .columns
                    .get(c)
                    .and_then(|c| c.unit)
                    .unwrap_or((board.scale, board.decimals));
                let x = |v: f64| format!("{:.d$}", v * scale);
                match r.cells.get(c).and_then(Option::as_ref) {
                    Some(cell) => row.extend([
                        x(cell.value),
                        cell.n.map_or(String::new(), |n| n.to_string()),
                        cell.interval.map_or(String::new(), |(lo, _)| x(lo)),
                        cell.interval.map_or(String::new(), |(_, hi)| x(hi)),
                    ]),
                    None => {
                        row.extend([String::new(), String::new(), String::new(), String::new()])
                    }
                }
            }
            row
        })
        .collect();
    Table {
        columns,
        rows,
        numeric,
    }
}
