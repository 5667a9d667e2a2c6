//! Exports of a displayed table (already sorted, filtered and with its visible columns) as CSV
//! (RFC 4180, written by the `csv` crate), JSON and LaTeX (booktabs).
//!
//! For analysis (CSV, JSON) a missing value is an empty cell (JSON `null` in a numeric column),
//! never a dash; the columns marked numeric are written as JSON numbers.

use serde::{Deserialize, Serialize};

/// A table as shown: column headers and rows of cell text.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Table {
    /// Column headers.
    pub columns: Vec<String>,
    /// Rows, each with one cell per column.
    pub rows: Vec<Vec<String>>,
    /// Per column, whether its cells are numbers (written as JSON numbers; an empty cell is
    /// `null`). Missing entries: text.
    #[serde(default)]
    pub numeric: Vec<bool>,
}

/// CSV with a header line, CRLF-free (`\n` line ends), fields quoted when needed.
///
/// # Examples
/// ```
/// use coglab_core::leaderboard::{to_csv, Table};
/// let t = Table { columns: vec!["Model".into(), "Mean".into()],
///                 rows: vec![vec!["A, large".into(), "27.5".into()]], numeric: vec![] };
/// assert_eq!(to_csv(&t), "Model,Mean\n\"A, large\",27.5\n");
/// ```
pub fn to_csv(table: &Table) -> String {
    let mut w = csv::WriterBuilder::new()
        .flexible(true)
        .from_writer(Vec::new());
    for line in std::iter::once(&table.columns).chain(&table.rows) {
        // Writing to memory cannot fail.
        let _ = w.write_record(line);
    }
    let bytes = w.into_inner().unwrap_or_default();
    String::from_utf8(bytes).unwrap_or_default()
}

/// JSON: `{"columns": [...], "rows": [{column: cell, ...}, ...]}`, each row's keys in column
/// order; cells of [`Table::numeric`] columns as numbers (`null` when empty).
///
/// # Examples
/// ```
/// use coglab_core::leaderboard::{to_json, Table};
/// let t = Table { columns: vec!["Model".into(), "Mean".into(), "n".into()],
///                 rows: vec![vec!["A".into(), "27.50".into(), "".into()]],
///                 numeric: vec![false, true, true] };
/// let v: serde_json::Value = serde_json::from_str(&to_json(&t)).unwrap();
/// assert_eq!(v["rows"][0]["Model"], "A");
/// assert_eq!(v["rows"][0]["Mean"], 27.5);
/// assert!(v["rows"][0]["n"].is_null());
/// ```
pub fn to_json(table: &Table) -> String {
    let mut out = String::from("{\"columns\":");
    out.push_str(&serde_json::to_string(&table.columns).unwrap_or_else(|_| "[]".into()));
    out.push_str(",\"rows\":[");
    for (r, row) in table.rows.iter().enumerate() {
        if r > 0 {
            out.push(',');
        }
        out.push('{');
        for (i, (col, cell)) in table.columns.iter().zip(row).enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push_str(&serde_json::Value::from(col.as_str()).to_string());
            out.push(':');
            out.push_str(&json_cell(
                cell,
                table.numeric.get(i).copied().unwrap_or(false),
            ));
        }
        out.push('}');
    }
    out.push_str("]}");
    out
}

/// A cell as JSON: a number in a numeric column when it reads as a finite one, `null` when
/// empty there, else a string.
fn json_cell(cell: &str, numeric: bool) -> String {
    // Counts stay integers ("2710", not 2710.0).
    let number = || {
        cell.parse::<i64>()
            .ok()
            .map(serde_json::Number::from)
            .or_else(|| {
                cell.parse::<f64>()
                    .ok()
                    .filter(|x| x.is_finite())
                    .and_then(serde_json::Number::from_f64)
            })
    };
    match (numeric, cell.is_empty()) {
        (true, true) => "null".into(),
        (true, false) => number().map_or_else(
            || serde_json::Value::from(cell).to_string(),
            |n| n.to_string(),
        ),
        (false, _) => serde_json::Value::from(cell).to_string(),
    }
}

fn latex_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\textbackslash{}"),
            '&' | '%' | '$' | '#' | '_' | '{' | '}' => {
                out.push('\\');
                out.push(c);
            }
            '~' => out.push_str("\\textasciitilde{}"),
            '^' => out.push_str("\\textasciicircum{}"),
            '±' => out.push_str("$\\pm$"),
            _ => out.push(c),
        }
    }
    out
}

/// A LaTeX `tabular` with booktabs rules; the first column left-aligned, the others right.
///
/// # Examples
/// ```
/// use coglab_core::leaderboard::{to_latex, Table};
/// let t = Table { columns: vec!["Model".into(), "Mean (%)".into()],
///                 rows: vec![vec!["gpt_4o".into(), "27.5".into()]], numeric: vec![] };
/// assert_eq!(to_latex(&t), "\\begin{tabular}{lr}\n\\toprule\nModel & Mean (\\%) \\\\\n\\midrule\ngpt\\_4o & 27.5 \\\\\n\\bottomrule\n\\end{tabular}\n");
/// ```
pub fn to_latex(table: &Table) -> String {
    let n = table.columns.len();
    let align: String = (0..n).map(|i| if i == 0 { 'l' } else { 'r' }).collect();
    let line = |cells: &[String]| -> String {
        let c: Vec<String> = cells.iter().map(|c| latex_escape(c)).collect();
        format!("{} \\\\\n", c.join(" & "))
    };
    let mut out = format!("\\begin{{tabular}}{{{align}}}\n\\toprule\n");
    out.push_str(&line(&table.columns));
    out.push_str("\\midrule\n");
    for row in &table.rows {
        out.push_str(&line(row));
    }
    out.push_str("\\bottomrule\n\\end{tabular}\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> Table {
        Table {
            columns: vec!["Model".into(), "Mean".into(), "Note".into()],
            rows: vec![
                vec!["A".into(), "27.5 ± 1.2".into(), "say \"hi\"".into()],
                vec!["B_2".into(), "30".into(), "x\ny".into()],
            ],
            numeric: vec![],
        }
    }

    #[test]
    fn csv_quotes_cell_by_cell() {
        assert_eq!(
            to_csv(&table()),
            "Model,Mean,Note\nA,27.5 ± 1.2,\"say \"\"hi\"\"\"\nB_2,30,\"x\ny\"\n"
        );
    }

    #[test]
    fn json_keeps_columns_and_cells() {
        let v: serde_json::Value = serde_json::from_str(&to_json(&table())).unwrap();
        assert_eq!(v["columns"][2], "Note");
        assert_eq!(v["rows"][0]["Mean"], "27.5 ± 1.2");
        assert_eq!(v["rows"][0]["Note"], "say \"hi\"");
        assert_eq!(v["rows"][1]["Note"], "x\ny");
        assert_eq!(v["rows"].as_array().unwrap().len(), 2);
        // Column order is kept in the text.
        let text = to_json(&table());
        assert!(text.find("\"Model\":\"A\"").unwrap() < text.find("\"Mean\":").unwrap());
    }

    #[test]
    fn json_writes_numeric_columns_as_numbers_and_empty_as_null() {
        let t = Table {
            columns: vec!["Model".into(), "Mean".into(), "n".into()],
            rows: vec![
                vec!["7".into(), "34.50".into(), "2710".into()],
                vec!["B".into(), "".into(), "".into()],
                vec!["C".into(), "n/a".into(), "1e400".into()],
            ],
            numeric: vec![false, true, true],
        };
        let v: serde_json::Value = serde_json::from_str(&to_json(&t)).unwrap();
        // A model named "7" stays a string: its column is not numeric.
        assert_eq!(v["rows"][0]["Model"], "7");
        assert_eq!(v["rows"][0]["Mean"], 34.5);
        assert_eq!(v["rows"][0]["n"], 2710);
        assert!(to_json(&t).contains("\"n\":2710}"));
        assert!(v["rows"][1]["Mean"].is_null() && v["rows"][1]["n"].is_null());
        // Text that is no finite number is kept as text rather than lost.
        assert_eq!(v["rows"][2]["Mean"], "n/a");
        assert_eq!(v["rows"][2]["n"], "1e400");
    }

    #[test]
    fn csv_leaves_missing_values_empty() {
        let t = Table {
            columns: vec!["Model".into(), "Mean".into(), "Mean n".into()],
            rows: vec![vec!["Chance".into(), "25.0".into(), "".into()]],
            numeric: vec![],
        };
        assert_eq!(to_csv(&t), "Model,Mean,Mean n\nChance,25.0,\n");
    }

    #[test]
    fn latex_escapes_and_uses_booktabs() {
        let t = to_latex(&table());
        assert!(t.starts_with(
            "\\begin{tabular}{lrr}\n\\toprule\nModel & Mean & Note \\\\\n\\midrule\n"
        ));
        assert!(t.contains("A & 27.5 $\\pm$ 1.2 & say \"hi\" \\\\\n"));
        assert!(t.contains("B\\_2 & 30 & "));
        assert!(t.ends_with("\\bottomrule\n\\end{tabular}\n"));
    }
}
