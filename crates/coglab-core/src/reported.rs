//! Results reported in the benchmarks' papers, bundled as reference tables.
//!
//! The web app ships these as JSON files in `public/data/`; this module defines their shape and
//! parses them, so the app, the CLI and the tests read them the same way.

use serde::{Deserialize, Serialize};

/// One table transcribed from a paper.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReportedTable {
    /// Stable identifier, e.g. `mmiq-table2`.
    pub id: String,
    /// Human-readable title.
    pub title: String,
    /// Where in the paper the numbers are: `Table 2` (the paper is the bundle's
    /// [`ReportedBundle::paper`]).
    pub source: String,
    /// Unit of the values, e.g. `"% accuracy"`.
    pub unit: String,
    /// Heading of the row-label column (default `"Model"`; e.g. `"Benchmark"`).
    #[serde(default = "default_row_header")]
    pub row_header: String,
    /// Column names, in display order (excluding the row label).
    pub columns: Vec<String>,
    /// Decimals the paper prints, one per column (empty: 2 for every column). A value with
    /// more decimals than its column's is shown with all of them (see [`format_value`]).
    #[serde(default)]
    pub decimals: Vec<u8>,
    /// Rows: a label and one value per column (`None` where the paper gives none).
    pub rows: Vec<ReportedRow>,
    /// Optional notes (e.g. how a column is defined in the paper).
    #[serde(default)]
    pub notes: Vec<String>,
}

fn default_row_header() -> String {
    "Model".to_string()
}

/// One row of a [`ReportedTable`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReportedRow {
    /// Row label (model name, "Human", benchmark name).
    pub label: String,
    /// Optional grouping (e.g. "Proprietary", "Open-source", "Baseline").
    #[serde(default)]
    pub group: Option<String>,
    /// One value per column.
    pub values: Vec<Option<f64>>,
}

/// The paper a bundle's tables are transcribed from, as shown to readers: title, venue, year
/// and a link (the project page the paper itself names), and the seed text it was checked
/// against (for tests; never shown).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PaperRef {
    /// Full title.
    pub title: String,
    /// Where it appeared (e.g. `ICLR`), when known; `None` for a preprint.
    #[serde(default)]
    pub venue: Option<String>,
    /// Year.
    pub year: u16,
    /// The project page or repository the paper links to.
    pub url: String,
    /// The seed text in `../shared/seeds/` the numbers were checked against.
    pub seed: String,
}

impl PaperRef {
    /// "ICLR 2025" or "preprint, 2025".
    pub fn venue_year(&self) -> String {
        match &self.venue {
            Some(v) => format!("{v} {}", self.year),
            None => format!("preprint, {}", self.year),
        }
    }
}

/// A bundle of reported tables for one benchmark (one JSON file in `public/data/`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReportedBundle {
    /// Benchmark key: `mmiq`, `kiva`, `mmopera`, `gold`.
    pub benchmark: String,
    /// Display name of the benchmark.
    pub name: String,
    /// The paper the tables come from.
    #[serde(default)]
    pub paper: Option<PaperRef>,
    /// The tables.
    pub tables: Vec<ReportedTable>,
}

/// Why a reported-results file could not be read.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ReportedError {
    /// The JSON is malformed or does not have the expected shape.
    #[error("{file}: {source}")]
    Json {
        /// File name.
        file: String,
        /// The JSON error (with line and column).
        source: serde_json::Error,
    },
    /// A row has a different number of values than the table has columns.
    #[error("{file}: table \"{table}\" row \"{row}\": expected {expected} values, found {found}")]
    RowLength {
        /// File name.
        file: String,
        /// Table id.
        table: String,
        /// Row label.
        row: String,
        /// Number of columns.
        expected: usize,
        /// Number of values in the row.
        found: usize,
    },
    /// A value outside what the table's unit allows (issue 37): a percentage outside [0, 100]
    /// in a table whose unit is `%` or `% accuracy`, or a value outside [0, 1] in one whose
    /// unit is `score in [0, 1]`.
    #[error("{file}: table \"{table}\" row \"{row}\": column \"{column}\": expected {expected}, found {found}")]
    Impossible {
        /// File name.
        file: String,
        /// Table id.
        table: String,
        /// Row label.
        row: String,
        /// Column name.
        column: String,
        /// The range the unit allows.
        expected: &'static str,
        /// The value.
        found: f64,
    },
}

/// The range a table's unit allows, when the unit says: `%` and `% accuracy` are
/// percentages, `score in [0, 1]` a fraction; other units (weighted scores, standardised
/// scores, counts) are not bounded here.
fn unit_range(unit: &str) -> Option<(f64, f64, &'static str)> {
    match unit.trim() {
        "%" | "% accuracy" => Some((0.0, 100.0, "a percentage between 0 and 100")),
        "score in [0, 1]" => Some((0.0, 1.0, "a score between 0 and 1")),
        _ => None,
    }
}

impl ReportedBundle {
    /// Parses and validates a bundle.
    ///
    /// # Errors
    /// [`ReportedError::Json`] for malformed JSON, [`ReportedError::RowLength`] when a row's
    /// length differs from its table's column count, [`ReportedError::Impossible`] for a
    /// value its table's unit does not allow (a percentage of 700).
    pub fn parse(file: &str, text: &str) -> Result<Self, ReportedError> {
        let bundle: Self = serde_json::from_str(text).map_err(|source| ReportedError::Json {
            file: file.to_string(),
            source,
        })?;
        for table in &bundle.tables {
            if !table.decimals.is_empty() && table.decimals.len() != table.columns.len() {
                return Err(ReportedError::RowLength {
                    file: file.to_string(),
                    table: table.id.clone(),
                    row: "decimals".to_string(),
                    expected: table.columns.len(),
                    found: table.decimals.len(),
                });
            }
            let range = unit_range(&table.unit);
            for row in &table.rows {
                if let Some((lo, hi, expected)) = range {
                    let bad =
                        row.values.iter().zip(&table.columns).find_map(|(v, c)| {
                            v.filter(|x| !(lo..=hi).contains(x)).map(|x| (c, x))
                        });
                    if let Some((column, found)) = bad {
                        return Err(ReportedError::Impossible {
                            file: file.to_string(),
                            table: table.id.clone(),
                            row: row.label.clone(),
                            column: column.clone(),
                            expected,
                            found,
                        });
                    }
                }
                if row.values.len() != table.columns.len() {
                    return Err(ReportedError::RowLength {
                        file: file.to_string(),
                        table: table.id.clone(),
                        row: row.label.clone(),
                        expected: table.columns.len(),
                        found: row.values.len(),
                    });
                }
            }
        }
        Ok(bundle)
    }

    /// The table with the given id.
    pub fn table(&self, id: &str) -> Option<&ReportedTable> {
        self.tables.iter().find(|t| t.id == id)
    }
}

impl ReportedTable {
    /// Decimals printed for a column (2 when the table does not say).
    pub fn column_decimals(&self, column: usize) -> usize {
        self.decimals.get(column).map_or(2, |&d| usize::from(d))
    }

    /// A value formatted as the paper prints its column.
    pub fn format(&self, column: usize, value: f64) -> String {
        format_value(value, self.column_decimals(column))
    }

    /// The value at a row label and column name.
    pub fn value(&self, row: &str, column: &str) -> Option<f64> {
        let col = self.columns.iter().position(|c| c == column)?;
        self.rows
            .iter()
            .find(|r| r.label == row)?
            .values
            .get(col)
            .copied()
            .flatten()
    }
}

/// Formats a transcribed value with at least `min_decimals` decimals, and more when the value
/// has them (so `50.0` with 2 shows `50.00`, and `86.65` in a 1-decimal column stays `86.65`).
///
/// # Examples
/// ```
/// use coglab_core::reported::format_value;
/// assert_eq!(format_value(50.0, 2), "50.00");
/// assert_eq!(format_value(86.65, 1), "86.65");
/// assert_eq!(format_value(0.579, 3), "0.579");
/// ```
pub fn format_value(value: f64, min_decimals: usize) -> String {
    let shortest = value.to_string();
    let own = shortest.split_once('.').map_or(0, |(_, frac)| frac.len());
    format!("{value:.*}", own.max(min_decimals))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn row_length_is_checked() {
        let text = r#"{"benchmark":"x","name":"X","tables":[{"id":"t","title":"T","source":"s",
            "unit":"%","columns":["a","b"],"rows":[{"label":"m","values":[1.0]}]}]}"#;
        let err = ReportedBundle::parse("x.json", text).unwrap_err();
        assert_eq!(
            err.to_string(),
            "x.json: table \"t\" row \"m\": expected 2 values, found 1"
        );
    }

    #[test]
    fn issue_37_impossible_figures_are_refused_naming_the_cell() {
        // A transcribed accuracy of 700% (a misplaced decimal point) was shown as given.
        let text = r#"{"benchmark":"x","name":"X","tables":[{"id":"t","title":"T","source":"s",
            "unit":"% accuracy","columns":["a","b"],"rows":[{"label":"m","values":[27.5, 700.0]}]}]}"#;
        let err = ReportedBundle::parse("x.json", text).unwrap_err();
        assert_eq!(
            err.to_string(),
            "x.json: table \"t\" row \"m\": column \"b\": expected a percentage between 0 and 100, found 700"
        );
        let text = text
            .replace("% accuracy", "score in [0, 1]")
            .replace("27.5, 700.0", "0.5, -0.1");
        let err = ReportedBundle::parse("x.json", &text)
            .unwrap_err()
            .to_string();
        assert!(
            err.ends_with("column \"b\": expected a score between 0 and 1, found -0.1"),
            "{err}"
        );
        // A unit without a bound (a weighted score) is left alone.
        let text = text.replace("score in [0, 1]", "weighted score");
        assert!(ReportedBundle::parse("x.json", &text).is_ok());
    }

    #[test]
    fn decimals_length_is_checked() {
        let text = r#"{"benchmark":"x","name":"X","tables":[{"id":"t","title":"T","source":"s",
            "unit":"%","columns":["a","b"],"decimals":[3],"rows":[]}]}"#;
        let err = ReportedBundle::parse("x.json", text).unwrap_err();
        assert_eq!(
            err.to_string(),
            "x.json: table \"t\" row \"decimals\": expected 2 values, found 1"
        );
    }

    #[test]
    fn formatting_follows_column_decimals() {
        let text = r#"{"benchmark":"x","name":"X","tables":[{"id":"t","title":"T","source":"s",
            "unit":"%","columns":["a","b"],"decimals":[0,4],"rows":[]}]}"#;
        let t = ReportedBundle::parse("x.json", text)
            .unwrap()
            .tables
            .remove(0);
        assert_eq!(t.format(0, 2130.0), "2130");
        assert_eq!(t.format(1, 1.4148), "1.4148");
        assert_eq!(t.format(1, 0.5), "0.5000");
        assert_eq!(format_value(1.25, 0), "1.25");
    }

    #[test]
    fn value_lookup_and_nulls() {
        let text = r#"{"benchmark":"x","name":"X","tables":[{"id":"t","title":"T","source":"s",
            "unit":"%","columns":["a","b"],"rows":[{"label":"m","values":[1.5,null]}]}]}"#;
        let b = ReportedBundle::parse("x.json", text).unwrap();
        assert_eq!(b.table("t").unwrap().row_header, "Model");
        assert_eq!(b.table("t").unwrap().value("m", "a"), Some(1.5));
        assert_eq!(b.table("t").unwrap().value("m", "b"), None);
        assert_eq!(b.table("t").unwrap().value("zz", "a"), None);
    }
}
