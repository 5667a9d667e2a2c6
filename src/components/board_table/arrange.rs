//! Arranging a board as shown: sort, filters, tie-aware ranks, and the cells' text.

use super::*;

/// `s` in lower case, for searches that ignore case. In the browser this is JavaScript's
/// `toLowerCase` (full Unicode case mapping): the standard `str::to_lowercase` would bring its
/// Unicode case tables, 8 KB gzipped, into the download. Natively (unit tests) it is the
/// standard one, which maps the same.
pub fn fold_case(s: &str) -> String {
    #[cfg(target_arch = "wasm32")]
    {
        String::from(js_sys::JsString::from(s).to_lower_case())
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        s.to_lowercase()
    }
}

/// The rank rule, said beside every board (one rule for every board; issue 26, defect 12).
pub const RANK_RULE: &str = "Rank: by the sorted column (else the first). Rows whose 95% \
    intervals overlap share a rank, and a row never ranks above a row with a higher value. \
    Baselines (chance, humans) are reference rows, not ranked.";

/// Filters, ranks and sorts the rows. Ranks are of the sorted metric column (else the first
/// visible one), over the model rows shown (baselines are not ranked), by the core's one rule
/// [`board_ranks`]: rows whose 95% intervals overlap share a rank, and no row ranks above a row
/// with a higher value (a value without an interval is a point). See [`RANK_RULE`].
pub fn arrange(board: &Board, state: &ViewState) -> Arranged {
    let columns: Vec<usize> = (0..board.columns.len())
        .filter(|&i| !state.hidden.contains(&board.columns[i].key))
        .collect();
    let q = fold_case(&state.query);
    let mut rows: Vec<usize> = (0..board.rows.len())
        .filter(|&i| {
            let r = &board.rows[i];
            (q.is_empty() || fold_case(&r.model).contains(&q))
                && (state.kinds.is_empty() || state.kinds.contains(&r.kind))
                && (state.family.is_empty() || r.family == state.family)
                && (state.size.is_empty() || r.size == state.size)
        })
        .collect();
    // A sort key that names no column here (a link, or another tab's sort: MM-IQ's `mean` on
    // the Gold tab) is not applied: the rows are in rank order, as without a sort, so the
    // Rank column reads down the table (issue 42, defect 1).
    let sort_col = state
        .sort
        .as_deref()
        .and_then(|k| board.columns.iter().position(|c| c.key == k));
    let unknown_sort = state
        .sort
        .clone()
        .filter(|k| k != "model" && sort_col.is_none());
    let (sort, asc) = if unknown_sort.is_some() {
        (None, false)
    } else {
        (state.sort.as_deref(), state.asc)
    };
    let filtered = rows.len() < board.rows.len();
    let rank_column = sort_col.or_else(|| columns.first().copied());
    let mut ranks = vec![None; board.rows.len()];
    if let Some(c) = rank_column {
        // Models only: baselines (chance, humans) are reference rows, not ranked.
        let ranked: Vec<(usize, (f64, f64, f64))> = rows
            .iter()
            .filter(|&&i| board.rows[i].kind != RowKind::Baseline)
            .filter_map(|&i| {
                board.rows[i].cells.get(c).cloned().flatten().map(|cell| {
                    let (lo, hi) = cell.interval.unwrap_or((cell.value, cell.value));
                    (i, (cell.value, lo, hi))
                })
            })
            .collect();
        let r = board_ranks(&ranked.iter().map(|x| x.1).collect::<Vec<_>>());
        for ((i, _), rank) in ranked.iter().zip(r) {
            ranks[*i] = Some(rank);
        }
    }
    // Without a chosen sort, rows are in rank order of the first visible column.
    let sort_col = sort_col.or(if sort.is_none() { rank_column } else { None });
    match (sort, sort_col) {
        (Some("model"), _) => {
            let keys: Vec<String> = board.rows.iter().map(|r| fold_case(&r.model)).collect();
            rows.sort_by(|&a, &b| {
                let o = keys[a].cmp(&keys[b]);
                if asc {
                    o.reverse()
                } else {
                    o
                }
            })
        }
        (_, Some(c)) => {
            let value = |i: usize| {
                board.rows[i]
                    .cells
                    .get(c)
                    .cloned()
                    .flatten()
                    .map(|x| x.value)
            };
            rows.sort_by(|&a, &b| match (value(a), value(b)) {
                (Some(x), Some(y)) => {
                    let o = y.total_cmp(&x);
                    if asc {
                        o.reverse()
                    } else {
                        o
                    }
                }
                // Missing values last, whatever the direction.
                (Some(_), None) => std::cmp::Ordering::Less,
                (None, Some(_)) => std::cmp::Ordering::Greater,
                (None, None) => std::cmp::Ordering::Equal,
            });
        }
        _ => {}
    }
    Arranged {
        columns,
        rows: rows.into_iter().map(|i| (i, ranks[i])).collect(),
        rank_column,
        filtered,
        unknown_sort,
    }
}

/// A cell's text as shown: the value, or "value ± half-width of the interval" in compact mode;
/// "–" when missing.
/// `column` is the cell's column index (for its [`BoardColumn::unit`]).
pub fn cell_text(board: &Board, column: usize, cell: Option<&BoardCell>, compact: bool) -> String {
    let Some(c) = cell else {
        return "–".into();
    };
    let (scale, d) = board
        .columns
        .get(column)
        .and_then(|c| c.unit)
        .unwrap_or((board.scale, board.decimals));
    let v = format!("{:.d$}", c.value * scale);
    match (compact, c.interval) {
        (true, Some((lo, hi))) => format!("{v} ± {:.d$}", (hi - lo) / 2.0 * scale),
        _ => v,
    }
}
