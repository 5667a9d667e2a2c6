//! Score matrices (models x tasks) read from CSV/TSV, a JSON list of
//! `{"name", "benchmarks": {task: score}}` records, or the OpenVLM leaderboard JSON.
//!
//! Conventions:
//! - CSV/TSV: the delimiter is a tab when the header line has one, else `;` when the header
//!   has `;` and no `,`, else `,`. The model-name column is the first column whose header is
//!   empty (R's `write.csv` row names) or, failing that, the first column holding a
//!   non-numeric cell; without one, models are named `row 1`, `row 2`, ...
//! - Missing cells: empty, `NA`, `N/A`, `NaN`, `nan`, `null`, `None`, `-`.
//! - A column with any other non-numeric cell is a text column: it is listed but cannot be
//!   used as an indicator (the error names its first non-numeric cell).
//! - JSON list: every `benchmarks` entry is a column; other top-level scalar fields of the
//!   records (e.g. `score`, `params`, an arena Elo) become columns too, so one can serve as the
//!   human column. OpenVLM JSON: `results.<model>.<benchmark>.Overall` (or a bare number),
//!   skipping the `META` entry.

use super::SemError;
use crate::location::{snippet, Location};
use serde_json::Value;

/// One column of a score matrix.
#[derive(Debug, Clone, PartialEq)]
pub struct Column {
    /// Column (task) name.
    pub name: String,
    /// One value per model; `None` is a missing cell.
    pub values: Vec<Option<f64>>,
    /// For a text column: where its first non-numeric cell is and what it holds.
    pub text_at: Option<(Location, String)>,
}

impl Column {
    /// Whether every non-missing cell is a number.
    pub fn is_numeric(&self) -> bool {
        self.text_at.is_none()
    }
}

/// A models x tasks score matrix.
#[derive(Debug, Clone, PartialEq)]
pub struct ScoreMatrix {
    /// The file name, for error messages.
    pub file: String,
    /// Model names, one per row.
    pub models: Vec<String>,
    /// Where each model's row is (a line for CSV, a record path for JSON).
    pub rows_at: Vec<Location>,
    /// The columns, in file order.
    pub columns: Vec<Column>,
}

const MISSING: [&str; 9] = ["", "NA", "N/A", "NaN", "nan", "null", "None", "-", "na"];

fn parse_cell(s: &str) -> Result<Option<f64>, ()> {
    let t = s.trim();
    if MISSING.contains(&t) {
        return Ok(None);
    }
    match t.parse::<f64>() {
        Ok(v) if v.is_finite() => Ok(Some(v)),
        _ => Err(()),
    }
}

/// The error for a byte that is not UTF-8: its line, and for a CSV/TSV its column's name
/// (the header's field, or `column N` on the header line), with what the byte would be in
/// Latin-1 or Windows-1252 (issue 37: it was "invalid byte at offset 18").
fn not_utf8(bytes: &[u8], file: &str, bad: &crate::encoding::BadUtf8) -> SemError {
    let mut at = Location::file(file).at_line(bad.line);
    let body = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let json = matches!(
        body.iter().find(|b| !b.is_ascii_whitespace()),
        Some(b'[' | b'{')
    );
    if !json {
        let first = body
            .split(|&b| b == b'\n' || b == b'\r')
            .next()
            .unwrap_or(b"");
        let delimiter = if first.contains(&b'\t') {
            b'\t'
        } else if first.contains(&b';') && !first.contains(&b',') {
            b';'
        } else {
            b','
        };
        let k = crate::location::field_index(&bytes[bad.line_start..bad.offset], delimiter);
        let name = (bad.line > 1)
            .then(|| {
                let header = String::from_utf8_lossy(first);
                header
                    .split(char::from(delimiter))
                    .nth(k)
                    .map(|h| h.trim().trim_matches('"').to_string())
            })
            .flatten()
            .filter(|h| !h.is_empty());
        at = at.in_field(name.unwrap_or_else(|| format!("column {}", k + 1)));
    }
    SemError::Data {
        at,
        expected: "UTF-8 text".into(),
        found: bad.to_string(),
    }
}

impl ScoreMatrix {
    /// Reads a score matrix, choosing the format from the first non-blank byte (`[` JSON list,
    /// `{` OpenVLM JSON, else CSV/TSV).
    ///
    /// # Errors
    /// [`SemError::Data`] naming file, line (or record) and field for unreadable input,
    /// ragged rows, duplicated column or model names, or a file without data rows.
    ///
    /// # Examples
    /// ```
    /// use coglab_core::sem::data::ScoreMatrix;
    /// let m = ScoreMatrix::parse(b"model,A,B\nx,1,2\ny,3,NA\n", "s.csv").unwrap();
    /// assert_eq!(m.models, vec!["x", "y"]);
    /// assert_eq!(m.column("B").unwrap().values, vec![Some(2.0), None]);
    /// ```
    pub fn parse(bytes: &[u8], file: &str) -> Result<Self, SemError> {
        crate::encoding::check_text(file, bytes)?;
        if let Some(bad) = crate::encoding::BadUtf8::find(bytes) {
            return Err(not_utf8(bytes, file, &bad));
        }
        let text = std::str::from_utf8(bytes).unwrap_or_default();
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        match text.trim_start().chars().next() {
            Some('[') | Some('{') => Self::parse_json(text, file),
            Some(_) => Self::parse_delimited(text, file),
            None => Err(SemError::Data {
                at: Location::file(file),
                expected: "a header line and data rows".into(),
                found: "an empty file".into(),
            }),
        }
    }

    /// The column with this name.
    pub fn column(&self, name: &str) -> Option<&Column> {
        self.columns.iter().find(|c| c.name == name)
    }

    fn parse_delimited(text: &str, file: &str) -> Result<Self, SemError> {
        let header_line = text.lines().next().unwrap_or("");
        let delimiter = if header_line.contains('\t') {
            b'\t'
        } else if header_line.contains(';') && !header_line.contains(',') {
            b';'
        } else {
            b','
        };
        if let Some(line) = crate::location::unterminated_quote(text.as_bytes(), delimiter) {
            return Err(SemError::Data {
                at: Location::file(file).at_line(line),
                expected: "a closing quote for the quoted field opened on this line".into(),
                found: "the end of the file (the file may be cut short)".into(),
            });
        }
        let mut reader = csv::ReaderBuilder::new()
            .delimiter(delimiter)
            .has_headers(false)
            .flexible(true)
            .from_reader(text.as_bytes());
        let mut records: Vec<(usize, Vec<String>)> = Vec::new();
        let mut lines = crate::location::LineIndex::new(text.as_bytes());
        for rec in reader.records() {
            let rec = rec.map_err(|e| {
                let line = crate::location::LineIndex::new(text.as_bytes()).csv_line(e.position());
                SemError::Data {
                    at: Location::file(file).at_line(line.max(1)),
                    expected: "a well-formed delimited record".into(),
                    found: e.to_string(),
                }
            })?;
            let line = lines.csv_line(rec.position()).max(1);
            if rec.iter().all(|f| f.trim().is_empty()) {
                continue;
            }
            records.push((line, rec.iter().map(|f| f.trim().to_string()).collect()));
        }
        let Some((_, header)) = records.first().cloned() else {
            return Err(SemError::Data {
                at: Location::file(file),
                expected: "a header line".into(),
                found: "no records".into(),
            });
        };
        if records.len() < 2 {
            return Err(SemError::Data {
                at: Location::file(file).at_line(records[0].0 + 1),
                expected: "at least one data row under the header".into(),
                found: "end of file".into(),
            });
        }
        let width = header.len();
        for (line, rec) in &records[1..] {
            if rec.len() != width {
                return Err(SemError::Data {
                    at: Location::file(file).at_line(*line),
                    expected: format!("{width} fields (as the header)"),
                    found: format!("{} fields", rec.len()),
                });
            }
        }
        check_unique_names(&header, file)?;
        let numeric_col = |j: usize| records[1..].iter().all(|(_, r)| parse_cell(&r[j]).is_ok());
        let name_col = header
            .iter()
            .position(String::is_empty)
            .or_else(|| (0..width).find(|&j| !numeric_col(j)));
        let mut models = Vec::new();
        let mut rows_at = Vec::new();
        for (k, (line, rec)) in records[1..].iter().enumerate() {
            models.push(match name_col {
                Some(j) => rec[j].clone(),
                None => format!("row {}", k + 1),
            });
            rows_at.push(Location::file(file).at_line(*line));
        }
        check_unique_models(&models, &rows_at)?;
        let mut columns = Vec::new();
        for (j, name) in header.iter().enumerate() {
            if Some(j) == name_col {
                continue;
            }
            let mut values = Vec::with_capacity(models.len());
            let mut text_at = None;
            for (line, rec) in &records[1..] {
                match parse_cell(&rec[j]) {
                    Ok(v) => values.push(v),
                    Err(()) => {
                        values.push(None);
                        if text_at.is_none() {
                            text_at = Some((
                                Location::file(file).at_line(*line).in_field(name.clone()),
                                rec[j].clone(),
                            ));
                        }
                    }
                }
            }
            columns.push(Column {
                name: name.clone(),
                values,
                text_at,
            });
        }
        Ok(Self {
            file: file.to_string(),
            models,
            rows_at,
            columns,
        })
    }

    fn parse_json(text: &str, file: &str) -> Result<Self, SemError> {
        let value: Value = serde_json::from_str(text).map_err(|e| SemError::Data {
            at: Location::file(file).at_line(e.line()),
            expected: "valid JSON".into(),
            found: e.to_string(),
        })?;
        let mut b = Builder::new(file);
        match &value {
            Value::Array(records) => {
                for (i, rec) in records.iter().enumerate() {
                    let path = format!("[{i}]");
                    let Value::Object(obj) = rec else {
                        return Err(b.err(&path, "an object {\"name\", \"benchmarks\"}", rec));
                    };
                    let name = match obj.get("name") {
                        Some(Value::String(s)) => s.clone(),
                        other => {
                            return Err(b.err(
                                &format!("{path}.name"),
                                "a model name (string)",
                                other.unwrap_or(&Value::Null),
                            ))
                        }
                    };
                    let row = b.add_row(name, &path)?;
                    match obj.get("benchmarks") {
                        Some(Value::Object(benches)) => {
                            for (task, v) in benches {
                                b.set(row, task, v, &format!("{path}.benchmarks.{task}"))?;
                            }
                        }
                        other => {
                            return Err(b.err(
                                &format!("{path}.benchmarks"),
                                "an object {task: score}",
                                other.unwrap_or(&Value::Null),
                            ))
                        }
                    }
                    for (key, v) in obj {
                        if key != "name" && key != "benchmarks" && !v.is_object() && !v.is_array() {
                            b.set_scalar(row, key, v, &format!("{path}.{key}"))?;
                        }
                    }
                }
            }
            Value::Object(obj) => {
                let Some(Value::Object(results)) = obj.get("results") else {
                    return Err(b.err(
                        "results",
                        "an OpenVLM leaderboard {\"results\": {model: {benchmark: {\"Overall\": x}}}}",
                        obj.get("results").unwrap_or(&Value::Null),
                    ));
                };
                for (model, benches) in results {
                    let path = format!("results.{model}");
                    let Value::Object(benches) = benches else {
                        return Err(b.err(
                            &path,
                            "an object {benchmark: {\"Overall\": x}}",
                            benches,
                        ));
                    };
                    let row = b.add_row(model.clone(), &path)?;
                    for (task, v) in benches {
                        if task == "META" {
                            continue;
                        }
                        let at = format!("{path}.{task}");
                        match v {
                            Value::Object(fig) => {
                                let overall = fig.get("Overall").unwrap_or(&Value::Null);
                                b.set(row, task, overall, &format!("{at}.Overall"))?;
                            }
                            other => b.set(row, task, other, &at)?,
                        }
                    }
                }
            }
            _ => unreachable!("parse_json is only called on text starting with [ or {{"),
        }
        b.finish()
    }
}

fn check_unique_names(header: &[String], file: &str) -> Result<(), SemError> {
    // A set, not a scan of the names before each one: 400,000 columns took minutes.
    let mut seen = std::collections::HashSet::new();
    for (j, name) in header.iter().enumerate() {
        if !name.is_empty() && !seen.insert(name.as_str()) {
            return Err(SemError::Data {
                at: Location::file(file).at_line(1).in_field(name.clone()),
                expected: "unique column names".into(),
                found: format!("column {} repeats {}", j + 1, snippet(name)),
            });
        }
    }
    Ok(())
}

fn check_unique_models(models: &[String], rows_at: &[Location]) -> Result<(), SemError> {
    let mut seen = std::collections::HashMap::new();
    for (i, m) in models.iter().enumerate() {
        if let Some(first) = seen.insert(m.as_str(), i) {
            return Err(SemError::Data {
                at: rows_at[i].clone(),
                expected: "unique model names".into(),
                found: format!("{} again (first at {})", snippet(m), rows_at[first]),
            });
        }
    }
    Ok(())
}

/// Collects JSON records into columns (first-seen order), padding missing cells.
struct Builder {
    file: String,
    /// Row of each model name, and column of each task name (lookups in O(1)).
    model_index: std::collections::HashMap<String, usize>,
    column_index: std::collections::HashMap<String, usize>,
    models: Vec<String>,
    rows_at: Vec<Location>,
    columns: Vec<Column>,
}

impl Builder {
    fn new(file: &str) -> Self {
        Self {
            file: file.to_string(),
            model_index: std::collections::HashMap::new(),
            column_index: std::collections::HashMap::new(),
            models: Vec::new(),
            rows_at: Vec::new(),
            columns: Vec::new(),
        }
    }

    fn err(&self, path: &str, expected: &str, found: &Value) -> SemError {
        SemError::Data {
            at: Location::file(&self.file).in_field(path),
            expected: expected.into(),
            found: snippet(&found.to_string()),
        }
    }

    fn add_row(&mut self, name: String, path: &str) -> Result<usize, SemError> {
        self.check_cells(path, self.models.len() + 1, self.columns.len())?;
        if let Some(&first) = self.model_index.get(&name) {
            return Err(SemError::Data {
                at: Location::file(&self.file).in_field(path),
                expected: "unique model names".into(),
                found: format!(
                    "{} again (first at {})",
                    snippet(&name),
                    self.rows_at[first]
                ),
            });
        }
        self.model_index.insert(name.clone(), self.models.len());
        self.models.push(name);
        self.rows_at
            .push(Location::file(&self.file).in_field(path.to_string()));
        for c in &mut self.columns {
            c.values.push(None);
        }
        Ok(self.models.len() - 1)
    }

    /// Refuses a dense table beyond [`crate::limits::MAX_CELLS`]: a small JSON file where
    /// every record names new tasks would otherwise make rows × columns cells.
    fn check_cells(&self, path: &str, rows: usize, cols: usize) -> Result<(), SemError> {
        let cells = rows.saturating_mul(cols);
        if cells > crate::limits::MAX_CELLS {
            return Err(SemError::Data {
                at: Location::file(&self.file).in_field(path),
                expected: format!(
                    "at most {} cells (models x columns)",
                    crate::limits::MAX_CELLS
                ),
                found: format!("{rows} models x {cols} columns"),
            });
        }
        Ok(())
    }

    fn col(&mut self, task: &str, path: &str) -> Result<usize, SemError> {
        if let Some(&j) = self.column_index.get(task) {
            return Ok(j);
        }
        self.check_cells(path, self.models.len(), self.columns.len() + 1)?;
        self.column_index
            .insert(task.to_string(), self.columns.len());
        self.columns.push(Column {
            name: task.to_string(),
            values: vec![None; self.models.len()],
            text_at: None,
        });
        Ok(self.columns.len() - 1)
    }

    fn set(&mut self, row: usize, task: &str, v: &Value, path: &str) -> Result<(), SemError> {
        let value = match v {
            Value::Null => None,
            Value::Number(n) => n.as_f64().filter(|x| x.is_finite()),
            Value::String(s) => match parse_cell(s) {
                Ok(x) => x,
                Err(()) => return Err(self.err(path, "a number or null", v)),
            },
            _ => return Err(self.err(path, "a number or null", v)),
        };
        let j = self.col(task, path)?;
        self.columns[j].values[row] = value;
        Ok(())
    }

    fn set_scalar(&mut self, row: usize, key: &str, v: &Value, path: &str) -> Result<(), SemError> {
        let j = self.col(key, path)?;
        let parsed = match v {
            Value::Null => Ok(None),
            Value::Number(n) => Ok(n.as_f64().filter(|x| x.is_finite())),
            Value::String(s) => parse_cell(s),
            _ => Err(()),
        };
        match parsed {
            Ok(x) => self.columns[j].values[row] = x,
            Err(()) => {
                if self.columns[j].text_at.is_none() {
                    self.columns[j].text_at = Some((
                        Location::file(&self.file).in_field(path),
                        v.as_str().map_or_else(|| v.to_string(), str::to_string),
                    ));
                }
            }
        }
        Ok(())
    }

    fn finish(self) -> Result<ScoreMatrix, SemError> {
        if self.models.is_empty() {
            return Err(SemError::Data {
                at: Location::file(&self.file),
                expected: "at least one model".into(),
                found: "no records".into(),
            });
        }
        Ok(ScoreMatrix {
            file: self.file,
            models: self.models,
            rows_at: self.rows_at,
            columns: self.columns,
        })
    }
}

/// How missing cells in the used columns are handled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Missing {
    /// Drop every model with a missing value in any used column (the default).
    #[default]
    Listwise,
    /// Replace a missing value by its column's mean over the models that have one.
    Mean,
}

/// The used columns after missing-value handling: a dense `n x p` table.
#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    /// Kept model names.
    pub models: Vec<String>,
    /// Column names, in the order asked for.
    pub names: Vec<String>,
    /// `columns[j][i]`: column `j`, model `i`.
    pub columns: Vec<Vec<f64>>,
    /// Models dropped by listwise deletion.
    pub dropped: Vec<String>,
    /// Cells filled by mean imputation.
    pub imputed: usize,
}

impl ScoreMatrix {
    /// The named numeric columns as a dense table, after missing-value handling.
    ///
    /// # Errors
    /// [`SemError::UnknownColumn`] for a name not in the file, [`SemError::Data`] for a text
    /// column (naming its first non-numeric cell), [`SemError::EmptyColumn`] when a column has
    /// no value at all under mean imputation.
    pub fn table(&self, names: &[String], missing: Missing) -> Result<Table, SemError> {
        let mut cols = Vec::with_capacity(names.len());
        for name in names {
            let col = self.column(name).ok_or_else(|| SemError::UnknownColumn {
                file: self.file.clone(),
                column: name.clone(),
                available: self
                    .columns
                    .iter()
                    .map(|c| c.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
            })?;
            if let Some((at, found)) = &col.text_at {
                return Err(SemError::Data {
                    at: at.clone(),
                    expected: "a number (or an empty/NA cell)".into(),
                    found: snippet(found),
                });
            }
            cols.push(col);
        }
        let n = self.models.len();
        let mut table = Table {
            models: Vec::new(),
            names: names.to_vec(),
            columns: vec![Vec::new(); names.len()],
            dropped: Vec::new(),
            imputed: 0,
        };
        match missing {
            Missing::Listwise => {
                for i in 0..n {
                    if cols.iter().any(|c| c.values[i].is_none()) {
                        table.dropped.push(self.models[i].clone());
                        continue;
                    }
                    table.models.push(self.models[i].clone());
                    for (j, c) in cols.iter().enumerate() {
                        table.columns[j].push(c.values[i].unwrap_or_default());
                    }
                }
            }
            Missing::Mean => {
                table.models = self.models.clone();
                for (j, c) in cols.iter().enumerate() {
                    let present: Vec<f64> = c.values.iter().flatten().copied().collect();
                    if present.is_empty() {
                        return Err(SemError::EmptyColumn {
                            file: self.file.clone(),
                            column: c.name.clone(),
                        });
                    }
                    let mean = present.iter().sum::<f64>() / present.len() as f64;
                    table.imputed += n - present.len();
                    table.columns[j] = c.values.iter().map(|v| v.unwrap_or(mean)).collect();
                }
            }
        }
        Ok(table)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_with_row_names_and_missing() {
        let m = ScoreMatrix::parse(b"\"\",\"A\",\"B\"\n\"1\",7,NA\n\"2\",5,3\n", "m.csv").unwrap();
        assert_eq!(m.models, vec!["1", "2"]);
        assert_eq!(m.columns.len(), 2);
        let t = m
            .table(&["A".into(), "B".into()], Missing::Listwise)
            .unwrap();
        assert_eq!(
            (t.models.clone(), t.dropped.clone()),
            (vec!["2".to_string()], vec!["1".to_string()])
        );
        let t = m.table(&["A".into(), "B".into()], Missing::Mean).unwrap();
        assert_eq!(t.columns[1], vec![3.0, 3.0]);
        assert_eq!(t.imputed, 1);
    }

    #[test]
    fn tsv_first_text_column_is_the_name() {
        let m = ScoreMatrix::parse(b"id\tmodel\tX\n1\tgpt\t0.5\n2\tqwen\t0.7\n", "m.tsv").unwrap();
        assert_eq!(m.models, vec!["gpt", "qwen"]);
        assert_eq!(
            m.columns
                .iter()
                .map(|c| c.name.as_str())
                .collect::<Vec<_>>(),
            vec!["id", "X"]
        );
    }

    #[test]
    fn located_errors() {
        let e = ScoreMatrix::parse(b"m,A,B\nx,1,2\ny,3\n", "r.csv").unwrap_err();
        assert_eq!(
            e.to_string(),
            "r.csv line 3: expected 3 fields (as the header), found 2 fields"
        );
        let m = ScoreMatrix::parse(b"m,A\nx,1\ny,7o\n", "t.csv").unwrap();
        let e = m.table(&["A".into()], Missing::Listwise).unwrap_err();
        assert_eq!(
            e.to_string(),
            "t.csv line 3: field \"A\": expected a number (or an empty/NA cell), found \"7o\""
        );
        let e = m.table(&["Z".into()], Missing::Listwise).unwrap_err();
        assert!(e.to_string().contains("no column \"Z\""), "{e}");
        let e = ScoreMatrix::parse(b"m,A\nx,1\nx,2\n", "d.csv").unwrap_err();
        assert!(
            e.to_string()
                .starts_with("d.csv line 3: expected unique model names"),
            "{e}"
        );
    }

    #[test]
    fn json_list_and_openvlm() {
        let list =
            br#"[{"name": "a", "score": 3, "family": "X", "benchmarks": {"T1": 1.5, "T2": null}},
                        {"name": "b", "benchmarks": {"T1": 2, "T3": "4"}}]"#;
        let m = ScoreMatrix::parse(list, "models.json").unwrap();
        assert_eq!(m.column("T1").unwrap().values, vec![Some(1.5), Some(2.0)]);
        assert_eq!(m.column("T3").unwrap().values, vec![None, Some(4.0)]);
        assert_eq!(m.column("score").unwrap().values, vec![Some(3.0), None]);
        assert!(!m.column("family").unwrap().is_numeric());
        let bad = br#"[{"name": "a", "benchmarks": {"T1": true}}]"#;
        let e = ScoreMatrix::parse(bad, "models.json").unwrap_err();
        assert_eq!(
            e.to_string(),
            "models.json: field \"[0].benchmarks.T1\": expected a number or null, found \"true\""
        );
        let vlm = br#"{"time": "x", "results": {"m1": {"META": {"Org": "o"}, "MMStar": {"Overall": 50.1, "A": 3}, "AI2D": {"Overall": 70}},
                      "m2": {"MMStar": {"Overall": 40}}}}"#;
        let m = ScoreMatrix::parse(vlm, "openvlm.json").unwrap();
        assert_eq!(m.models, vec!["m1", "m2"]);
        assert_eq!(m.column("AI2D").unwrap().values, vec![Some(70.0), None]);
        assert_eq!(
            m.column("MMStar").unwrap().values,
            vec![Some(50.1), Some(40.0)]
        );
        assert!(m.column("META").is_none());
    }
}
