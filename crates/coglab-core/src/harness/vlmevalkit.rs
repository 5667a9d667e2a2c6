//! VLMEvalKit per-item files beside the plain prediction tables [`crate::mmiq`] reads:
//! `{model}_{dataset}.xlsx|tsv|csv|json` with an optional `thinking` column, judge files
//! `{model}_{dataset}_{judge}_result.xlsx` (adding `GT`, `hit`, `log`), and circular datasets.
//!
//! In a circular dataset every item is asked again with its options rotated: the rows with
//! `index` ≥ 1,000,000 are the rotations, and `g_index = index % 1,000,000` is the item
//! (VLMEvalKit's `CircularEval`). Each row becomes a [`Record`] with `data_id = g_index` and
//! `rotation = index / 1,000,000`; the row's own `answer` (or `GT`) is its target, since the
//! rotated options move the correct letter. [`crate::harness::map`] scores rotation 0 against
//! the key and reports the circular score (an item counts only if every rotation is right).
//!
//! `hit` (1/0) is the judge's verdict, kept beside ours.

use super::{HarnessError, HarnessFile, HarnessFormat, Record};
use crate::location::{snippet, Location};
use crate::mmiq::TableKind;

/// `index` values from this on are rotations of `index % CIRCULAR`.
pub const CIRCULAR: u64 = 1_000_000;

/// Reads a VLMEvalKit per-item table (`index` and `prediction` required).
///
/// # Errors
/// The MM-IQ table reader's errors (wrapped in [`HarnessError::Mmiq`]: CSV, workbook, JSON,
/// missing columns); [`HarnessError::Empty`] without rows; [`HarnessError::BadValue`] for an
/// `index` that is not a non-negative integer, a repeated `index`, or a `hit` that is not 0/1.
///
/// # Examples
/// ```
/// use coglab_core::harness::vlmevalkit::read;
/// use coglab_core::mmiq::TableKind;
/// let tsv = "index\tanswer\tprediction\tGT\thit\n3\tB\tB\tB\t1\n1000003\tC\tB\tC\t0\n";
/// let f = read("m_MMIQ_gpt-4o_result.tsv", TableKind::Tsv, tsv.as_bytes()).unwrap();
/// assert_eq!((f.records[1].data_id, f.records[1].rotation), (Some(3), Some(1)));
/// assert_eq!(f.records[1].verdict, Some(false));
/// ```
pub fn read(file: &str, kind: TableKind, bytes: &[u8]) -> Result<HarnessFile, HarnessError> {
    if kind != TableKind::Xlsx {
        super::text(file, bytes)?;
    }
    let (columns, rows) = crate::mmiq::table::read_table(file, kind, bytes)?;
    let col = |name: &str| columns.iter().position(|c| c.trim() == name);
    let (Some(index_col), Some(pred_col)) = (col("index"), col("prediction")) else {
        let missing: Vec<String> = ["index", "prediction"]
            .into_iter()
            .filter(|n| col(n).is_none())
            .map(str::to_string)
            .collect();
        return Err(crate::mmiq::MmiqError::MissingColumns {
            file: file.to_string(),
            missing,
            found: columns.clone(),
        }
        .into());
    };
    if rows.is_empty() {
        return Err(HarnessError::Empty {
            file: file.to_string(),
            expected: "a header row and prediction rows",
        });
    }
    let (gt, answer, hit, question) = (col("GT"), col("answer"), col("hit"), col("question"));
    let mut seen = std::collections::HashMap::new();
    let mut records = Vec::with_capacity(rows.len());
    for (line, cells) in &rows {
        let loc = || Location::file(file).at_line(*line);
        let cell = |c: Option<usize>| {
            c.and_then(|c| cells.get(c))
                .map(|s| s.trim().to_string())
                .filter(|s| !s.is_empty())
        };
        let raw = cells.get(index_col).map_or("", |s| s.trim());
        let index = raw
            .parse::<u64>()
            .ok()
            .or_else(|| {
                raw.parse::<f64>()
                    .ok()
                    .filter(|f| f.fract() == 0.0 && *f >= 0.0 && *f < 9.0e15)
                    .map(|f| f as u64)
            })
            .ok_or_else(|| HarnessError::BadValue {
                location: loc().in_field("index"),
                expected: "a non-negative integer".into(),
                found: snippet(raw),
            })?;
        if let Some(first) = seen.insert(index, *line) {
            return Err(HarnessError::BadValue {
                location: loc().in_field("index"),
                expected: format!("an index not used before ({index} is on line {first} too)"),
                found: index.to_string(),
            });
        }
        let verdict = match cell(hit) {
            None => None,
            Some(h) => Some(
                super::verdict_text(&h).ok_or_else(|| HarnessError::BadValue {
                    location: loc().in_field("hit"),
                    expected: "1 or 0".into(),
                    found: snippet(&h),
                })?,
            ),
        };
        records.push(Record {
            position: *line,
            label: format!("index {index}"),
            data_id: Some(index % CIRCULAR),
            rotation: Some(index / CIRCULAR),
            input: cell(question),
            target: cell(gt).or_else(|| cell(answer)),
            response: Some(cells.get(pred_col).cloned().unwrap_or_default()),
            verdict,
            ..Record::default()
        });
    }
    Ok(HarnessFile {
        file: file.to_string(),
        format: HarnessFormat::VlmEvalKit(kind),
        task: None,
        model: None,
        records,
        summary: Vec::new(),
    })
}

/// Whether a VLMEvalKit table is one the MM-IQ reader alone would misread: circular (an
/// `index` ≥ [`CIRCULAR`]) or a judge file (a `hit` column).
pub fn needs_harness(file: &HarnessFile) -> bool {
    file.records
        .iter()
        .any(|r| r.rotation.is_some_and(|k| k > 0) || r.verdict.is_some())
}
