//! VLMEvalKit files: multiple-choice prediction tables (`.xlsx`, `.tsv`, `.csv`, `.json`) and
//! `*_acc.csv` accuracy summaries.

use super::input::{parse_id, utf8, MmiqFormat, PredContent, PredRecord, Predictions};
use super::MmiqError;
use crate::location::{snippet, Location};
use crate::provenance::TableKind;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A table of text cells with a header and the 1-based line/row of each data row.
struct Table {
    columns: Vec<String>,
    rows: Vec<(usize, Vec<String>)>,
}

impl Table {
    fn column(&self, name: &str) -> Option<usize> {
        self.columns.iter().position(|c| c.trim() == name)
    }

    fn require(&self, file: &str, names: &[&str]) -> Result<Vec<usize>, MmiqError> {
        let missing: Vec<String> = names
            .iter()
            .filter(|n| self.column(n).is_none())
            .map(|n| (*n).to_string())
            .collect();
        if !missing.is_empty() {
            return Err(MmiqError::MissingColumns {
                file: file.to_string(),
                missing,
                found: self.columns.clone(),
            });
        }
        Ok(names.iter().filter_map(|n| self.column(n)).collect())
    }
}

/// Reads a delimited text table with the `csv` crate (quoted fields may span lines).
fn read_delimited(file: &str, bytes: &[u8], delimiter: u8) -> Result<Table, MmiqError> {
    let text = utf8(file, bytes)?;
    let mut reader = csv::ReaderBuilder::new()
        .delimiter(delimiter)
        .flexible(true)
        .has_headers(false)
        .from_reader(text.as_bytes());
    if let Some(line) = crate::location::unterminated_quote(text.as_bytes(), delimiter) {
        return Err(MmiqError::Csv {
            location: Location::file(file).at_line(line),
            message: "a quoted field opens here and is never closed (the file may be cut short)"
                .into(),
        });
    }
    let mut records = reader.records();
    let header = loop {
        match records.next() {
            None => {
                return Err(MmiqError::Empty {
                    file: file.to_string(),
                    expected: "a header row and data rows",
                })
            }
            Some(Err(e)) => return Err(csv_error(file, text, &e)),
            Some(Ok(r)) if r.iter().all(|f| f.trim().is_empty()) => continue,
            Some(Ok(r)) => break r,
        }
    };
    let columns: Vec<String> = header.iter().map(str::to_string).collect();
    let mut rows = Vec::new();
    let mut lines = crate::location::LineIndex::new(text.as_bytes());
    for rec in records {
        let rec = rec.map_err(|e| csv_error(file, text, &e))?;
        if rec.iter().all(|f| f.trim().is_empty()) {
            continue;
        }
        let line = lines.csv_line(rec.position());
        if rec.len() != columns.len() {
            return Err(MmiqError::Csv {
                location: Location::file(file).at_line(line),
                message: format!(
                    "expected {} fields as in the header, found {}",
                    columns.len(),
                    rec.len()
                ),
            });
        }
        rows.push((line, rec.iter().map(str::to_string).collect()));
    }
    Ok(Table { columns, rows })
}

fn csv_error(file: &str, text: &str, e: &csv::Error) -> MmiqError {
    let line = crate::location::LineIndex::new(text.as_bytes()).csv_line(e.position());
    let mut loc = Location::file(file);
    if line > 0 {
        loc = loc.at_line(line);
    }
    MmiqError::Csv {
        location: loc,
        message: e.to_string(),
    }
}

/// Reads the first sheet of an `.xlsx` workbook ([`super::xlsx`], within its memory limit);
/// rows are numbered as in the spreadsheet.
fn read_xlsx(file: &str, bytes: &[u8]) -> Result<Table, MmiqError> {
    let mut rows = super::xlsx::first_sheet_rows(bytes)
        .map_err(|e| MmiqError::Spreadsheet {
            file: file.to_string(),
            message: e.to_string(),
        })?
        .into_iter();
    let columns = rows
        .next()
        .ok_or_else(|| MmiqError::Empty {
            file: file.to_string(),
            expected: "a header row and data rows in the first sheet",
        })?
        .1;
    Ok(Table {
        columns,
        rows: rows.collect(),
    })
}

/// Reads a JSON table: an array of row objects, or pandas' column-oriented object
/// (`{"col": {"0": v, "1": v}}`). Rows are numbered from 1 in array / key order.
fn read_json_table(file: &str, bytes: &[u8]) -> Result<Table, MmiqError> {
    let text = utf8(file, bytes)?;
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| MmiqError::Json {
        location: Location::file(file).at_line(e.line()),
        message: format!("{e}"),
    })?;
    let text_of = |v: &serde_json::Value| -> String {
        match v {
            serde_json::Value::Null => String::new(),
            serde_json::Value::String(s) => s.clone(),
            other => other.to_string(),
        }
    };
    match value {
        serde_json::Value::Array(items) => {
            let mut columns: Vec<String> = Vec::new();
            for item in &items {
                if let serde_json::Value::Object(map) = item {
                    for k in map.keys() {
                        if !columns.contains(k) {
                            columns.push(k.clone());
                        }
                    }
                }
            }
            let mut rows = Vec::with_capacity(items.len());
            for (i, item) in items.iter().enumerate() {
                let serde_json::Value::Object(map) = item else {
                    return Err(MmiqError::BadValue {
                        location: Location::file(file).at_line(i + 1),
                        expected: "a JSON object per row".into(),
                        found: snippet(&item.to_string()),
                    });
                };
                rows.push((
                    i + 1,
                    columns
                        .iter()
                        .map(|c| map.get(c).map(text_of).unwrap_or_default())
                        .collect(),
                ));
            }
            Ok(Table { columns, rows })
        }
        serde_json::Value::Object(cols) => {
            let columns: Vec<String> = cols.keys().cloned().collect();
            let mut row_keys: Vec<String> = Vec::new();
            for col in cols.values() {
                let serde_json::Value::Object(cells) = col else {
                    return Err(MmiqError::UnknownFormat {
                        file: file.to_string(),
                        reason: "a JSON object whose values are not column objects".into(),
                    });
                };
                for k in cells.keys() {
                    if !row_keys.contains(k) {
                        row_keys.push(k.clone());
                    }
                }
            }
            let rows = row_keys
                .iter()
                .enumerate()
                .map(|(i, rk)| {
                    let cells = cols
                        .values()
                        .map(|col| col.get(rk).map(text_of).unwrap_or_default())
                        .collect();
                    (i + 1, cells)
                })
                .collect();
            Ok(Table { columns, rows })
        }
        other => Err(MmiqError::UnknownFormat {
            file: file.to_string(),
            reason: format!("JSON {} instead of a table", snippet(&other.to_string())),
        }),
    }
}

/// A table row: its 1-based line or row, and its cells as text.
pub(crate) type TableRow = (usize, Vec<String>);

/// The header and rows (1-based line or row, cells as text) of a VLMEvalKit table of any
/// container, read as [`parse_predictions_table`] reads it (for [`crate::harness`]).
pub(crate) fn read_table(
    file: &str,
    kind: TableKind,
    bytes: &[u8],
) -> Result<(Vec<String>, Vec<TableRow>), MmiqError> {
    let table = match kind {
        TableKind::Xlsx => read_xlsx(file, bytes)?,
        TableKind::Tsv => read_delimited(file, bytes, b'\t')?,
        TableKind::Csv => read_delimited(file, bytes, b',')?,
        TableKind::Json => read_json_table(file, bytes)?,
    };
    Ok((table.columns, table.rows))
}

/// Parses a VLMEvalKit prediction table into predictions: `index` is the item id, `prediction`
/// the free-form response (extracted with MM-IQ's rules); `category` and `answer` are kept for
/// checking against the key. A JSON array whose rows use MM-IQ's own field names
/// (`data_id`, `response`/`parsed_pred`) is read as MM-IQ predictions.
pub(super) fn parse_predictions_table(
    file: &str,
    kind: TableKind,
    bytes: &[u8],
) -> Result<Predictions, MmiqError> {
    let table = match kind {
        TableKind::Xlsx => read_xlsx(file, bytes)?,
        TableKind::Tsv => read_delimited(file, bytes, b'\t')?,
        TableKind::Csv => read_delimited(file, bytes, b',')?,
        TableKind::Json => read_json_table(file, bytes)?,
    };
    if table.rows.is_empty() {
        return Err(MmiqError::Empty {
            file: file.to_string(),
            expected: "at least one prediction row under the header",
        });
    }
    let mmiq_style = table.column("data_id").is_some() && table.column("index").is_none();
    let (id_col, response_col, parsed_col) = if mmiq_style {
        let id = table.require(file, &["data_id"])?[0];
        let response = table.column("response");
        let parsed = table.column("parsed_pred");
        if response.is_none() && parsed.is_none() {
            table.require(file, &["response"])?;
        }
        (id, response, parsed)
    } else {
        let cols = table.require(file, &["index", "prediction"])?;
        (cols[0], Some(cols[1]), None)
    };
    let id_name = if mmiq_style { "data_id" } else { "index" };
    let response_name = if mmiq_style { "response" } else { "prediction" };
    let category_col = table.column("category");
    let answer_col = table.column("answer");
    let mut seen = super::input::SeenIds::default();
    let mut records = Vec::with_capacity(table.rows.len());
    for (line, cells) in &table.rows {
        let loc = Location::file(file).at_line(*line);
        let id_text = &cells[id_col];
        let data_id = parse_id(&super::input::Scalar::Str(id_text.clone())).ok_or_else(|| {
            MmiqError::BadValue {
                location: loc.clone().in_field(id_name),
                expected: "a non-negative integer".into(),
                found: snippet(id_text),
            }
        })?;
        if let Some(first_line) = seen.insert(data_id, *line) {
            return Err(MmiqError::DuplicateId {
                location: loc.in_field(id_name),
                data_id,
                first_line,
            });
        }
        let parsed = parsed_col
            .map(|c| cells[c].clone())
            .filter(|s| !s.is_empty());
        let response = response_col.map(|c| cells[c].clone());
        let had_both = parsed.is_some() && response.as_ref().is_some_and(|r| !r.is_empty());
        let content = match (parsed, response) {
            (Some(p), _) => PredContent::Parsed(p),
            (None, Some(r)) => PredContent::Response(r),
            (None, None) => {
                return Err(MmiqError::MissingField {
                    location: loc.in_field(response_name),
                    expected: "a response",
                })
            }
        };
        let nonempty = |c: Option<usize>| {
            c.map(|c| cells[c].trim().to_string())
                .filter(|s| !s.is_empty())
        };
        records.push(PredRecord {
            line: *line,
            data_id,
            category: nonempty(category_col),
            content,
            file_answer: nonempty(answer_col),
            had_both,
            response_preview: None,
            response_length: None,
        });
    }
    Ok(Predictions {
        file: file.to_string(),
        format: if mmiq_style {
            MmiqFormat::PredictionsJsonl
        } else {
            MmiqFormat::VlmEvalKit(kind)
        },
        records,
        blank_lines: 0,
    })
}

/// One row of a VLMEvalKit `*_acc.csv` summary.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AccRow {
    /// The `split` column (e.g. `none`).
    pub split: String,
    /// Overall accuracy, a fraction in [0, 1].
    pub overall: f64,
    /// Accuracy per category column, fractions in [0, 1].
    pub by_category: BTreeMap<String, f64>,
}

/// A VLMEvalKit `*_acc.csv` summary: pre-computed accuracies without per-item data, so without
/// `n` or intervals.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AccSummary {
    /// File name.
    pub file: String,
    /// The rows, in file order.
    pub rows: Vec<AccRow>,
}

impl AccSummary {
    /// Parses an `_acc.csv`: a header `split, Overall, <category>...` (fields may be quoted)
    /// and rows of fractions between 0 and 1. Empty cells are left out of `by_category`.
    ///
    /// # Errors
    /// [`MmiqError::NotUtf8`], [`MmiqError::Empty`], [`MmiqError::MissingColumns`] when
    /// `split` or `Overall` is absent, [`MmiqError::Csv`] for a malformed record, and
    /// [`MmiqError::BadValue`] for a value that is not a fraction in [0, 1].
    ///
    /// # Examples
    /// ```
    /// use coglab_core::mmiq::AccSummary;
    /// let s = AccSummary::parse("m_acc.csv",
    ///     b"\"split\",\"Overall\",\"Mathematical\"\n\"none\",\"0.27\",\"0.25\"\n").unwrap();
    /// assert_eq!(s.rows[0].overall, 0.27);
    /// assert_eq!(s.rows[0].by_category["Mathematical"], 0.25);
    /// ```
    pub fn parse(file_name: &str, bytes: &[u8]) -> Result<Self, MmiqError> {
        crate::encoding::check_text(file_name, bytes)?;
        let table = read_delimited(file_name, bytes, b',')?;
        let cols = table.require(file_name, &["split", "Overall"])?;
        let (split_col, overall_col) = (cols[0], cols[1]);
        if table.rows.is_empty() {
            return Err(MmiqError::Empty {
                file: file_name.to_string(),
                expected: "at least one row of accuracies under the header",
            });
        }
        let fraction = |line: usize, col: usize, text: &str| -> Result<f64, MmiqError> {
            text.trim()
                .parse::<f64>()
                .ok()
                .filter(|v| (0.0..=1.0).contains(v))
                .ok_or_else(|| MmiqError::BadValue {
                    location: Location::file(file_name)
                        .at_line(line)
                        .in_field(table.columns[col].trim()),
                    expected: "a fraction between 0 and 1".into(),
                    found: snippet(text),
                })
        };
        let mut rows = Vec::new();
        for (line, cells) in &table.rows {
            let mut by_category = BTreeMap::new();
            for (c, text) in cells.iter().enumerate() {
                if c == split_col || c == overall_col || text.trim().is_empty() {
                    continue;
                }
                by_category.insert(
                    table.columns[c].trim().to_string(),
                    fraction(*line, c, text)?,
                );
            }
            rows.push(AccRow {
                split: cells[split_col].clone(),
                overall: fraction(*line, overall_col, &cells[overall_col])?,
                by_category,
            });
        }
        Ok(Self {
            file: file_name.to_string(),
            rows,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TSV: &str = "index\tquestion\tA\tB\tC\tD\tanswer\tcategory\tl2-category\tprediction\n\
        0\tWhich?\t1\t2\t3\t4\tB\tTemporal Movement\tx\tThe answer is B\n\
        12\tWhich?\t1\t2\t3\t4\tD\tMathematical\tx\t\"Line one\n\tline two: C\"\n";

    #[test]
    fn tsv_with_quoted_multiline_prediction() {
        let p = Predictions::parse("m_MMIQ.tsv", TSV.as_bytes()).unwrap();
        assert_eq!(p.format, MmiqFormat::VlmEvalKit(TableKind::Tsv));
        assert_eq!(p.records.len(), 2);
        assert_eq!(p.records[1].data_id, 12);
        assert_eq!(p.records[1].line, 3);
        assert_eq!(
            p.records[1].content,
            PredContent::Response("Line one\n\tline two: C".into())
        );
        assert_eq!(p.records[1].file_answer.as_deref(), Some("D"));
        assert_eq!(p.records[0].category.as_deref(), Some("Temporal Movement"));
    }

    #[test]
    fn missing_columns_and_bad_index() {
        let err = Predictions::parse("m.tsv", b"index\tquestion\tanswer\n0\tq\tA\n").unwrap_err();
        assert_eq!(
            err.to_string(),
            "m.tsv: missing column(s) prediction; the header has index, question, answer"
        );
        let err = Predictions::parse("m.csv", b"index,prediction\n0,A\nx1,B\n").unwrap_err();
        assert_eq!(
            err.to_string(),
            "m.csv line 3: field \"index\": expected a non-negative integer, found \"x1\""
        );
        let err = Predictions::parse("m.csv", b"index,prediction\n0,A,extra\n").unwrap_err();
        assert_eq!(
            err.to_string(),
            "m.csv line 2: expected 2 fields as in the header, found 3"
        );
        let err = Predictions::parse("m.csv", b"index,prediction\n").unwrap_err();
        assert!(matches!(err, MmiqError::Empty { .. }));
    }

    #[test]
    fn json_records_and_columns() {
        let records = br#"[{"index": 3, "prediction": "C", "answer": "C"}, {"index": 4, "prediction": null}]"#;
        let p = Predictions::parse("m.json", records).unwrap();
        assert_eq!(p.records[0].data_id, 3);
        assert_eq!(p.records[1].content, PredContent::Response(String::new()));
        let columns = br#"{"index": {"0": 3, "1": 4}, "prediction": {"0": "A", "1": "B"}}"#;
        let p = Predictions::parse("m.json", columns).unwrap();
        assert_eq!(p.records[1].data_id, 4);
        assert_eq!(p.records[1].content, PredContent::Response("B".into()));
        let mmiq_rows = br#"[{"data_id": 9, "parsed_pred": "E"}]"#;
        let p = Predictions::parse("m.json", mmiq_rows).unwrap();
        assert_eq!(p.records[0].content, PredContent::Parsed("E".into()));
    }

    #[test]
    fn acc_summary() {
        let text = b"\"split\",\"Overall\",\"Logical Operation\",\"Mathematical\"\n\"none\",\"0.26926\",\"0.262\",\"\"\n";
        let s = AccSummary::parse("x_acc.csv", text).unwrap();
        assert_eq!(s.rows.len(), 1);
        assert_eq!(s.rows[0].split, "none");
        assert_eq!(s.rows[0].overall, 0.26926);
        assert_eq!(s.rows[0].by_category.len(), 1);
        let err = AccSummary::parse("x_acc.csv", b"\"split\",\"Overall\"\n\"none\",\"26.9\"\n")
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "x_acc.csv line 2: field \"Overall\": expected a fraction between 0 and 1, found \"26.9\""
        );
        let err = AccSummary::parse("x_acc.csv", b"\"Overall\"\n\"0.2\"\n").unwrap_err();
        assert!(matches!(err, MmiqError::MissingColumns { .. }));
    }
}
