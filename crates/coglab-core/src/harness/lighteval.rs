//! lighteval: per-sample details (`details_<task>_<date>.parquet`, written with
//! `--save-details` under `details/<model>/<date>/`), read as records to map onto MM-IQ items.
//!
//! A details file is one row per sample: `asdict` of lighteval's `DetailsLogger.Detail`, the
//! columns sorted by name, `id` dropped (`src/lighteval/logging/evaluation_tracker.py`,
//! `save_details`). The row has had two shapes (`src/lighteval/logging/info_loggers.py`):
//!
//! - lighteval 0.11 and later (since commit 9288bd84, 2025-06-25; read at 0.13.1.dev0, commit
//!   3fd15266): three struct columns, `doc` (the task's `Doc`: `query`, `choices`,
//!   `gold_index` (an integer or a list), `instruction`, `specific`, `id`, `task_name`, ...),
//!   `model_response` (`ModelResponse`: `text`, a list, and `text_post_processed`, ...) and
//!   `metric` (the sample's scores, `{"acc": 1.0}`).
//! - lighteval 0.8 to 0.10: flat columns `example`, `instruction`, `full_prompt`,
//!   `predictions` (a list of the model's texts), `gold` (a list), `choices`, `gold_index`,
//!   `metrics` (the scores), `specifics`, and token counts. Before 0.8 every value was cast to
//!   text (`str(v)`): such a file's lists and scores are Python reprs and are read as text
//!   only where a text is expected (an answer `"['B']"` is scored as that text).
//!
//! The answer scored is `text_post_processed[0]` when present, else `text[0]` (new shape), or
//! `predictions[0]` (old shape). The target is `choices[gold_index]` (or `gold[0]`). The
//! harness's verdict is the first score of `metric` / `metrics` that reads as one (a number
//! above 0.5 correct, or a boolean). The item is the `data_id` of `specific` / `specifics`, else
//! `doc.id` when it is an integer; failing that its `MD5` is matched against the key's.
//!
//! The task is `doc.task_name` (`lighteval|mmiq|0`) when the rows carry it, else the file
//! name's (`details_<task>_<date>`). The rows are read from Parquet as JSON lines
//! ([`crate::columnar`]); the same rows as JSONL read the same.

use super::{
    id_of, scalar_text, text, type_of, verdict_of, HarnessError, HarnessFile, HarnessFormat, Record,
};
use crate::location::Location;
use serde_json::{Map, Value};

/// The task of a details file from its name: lighteval's `details_<task>_<date>.parquet`,
/// where the date is `datetime.now().isoformat()` with `:` as `-`.
///
/// # Examples
/// ```
/// use coglab_core::harness::lighteval::task_from_name;
/// assert_eq!(
///     task_from_name("details/m/2025-06-25T12-00-00.123456/details_lighteval|mmiq|0_2025-06-25T12-00-00.123456.parquet").as_deref(),
///     Some("lighteval|mmiq|0")
/// );
/// assert_eq!(task_from_name("details_custom|mm_iq|0.parquet").as_deref(), Some("custom|mm_iq|0"));
/// assert_eq!(task_from_name("results.parquet"), None);
/// ```
pub fn task_from_name(path: &str) -> Option<String> {
    let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
    let stem = [".parquet", ".jsonl", ".json"]
        .iter()
        .find_map(|e| name.strip_suffix(e))
        .unwrap_or(name);
    let rest = stem.strip_prefix("details_")?;
    let task = match rest.rsplit_once('_') {
        // lighteval's date id starts as lm-eval's file timestamp does (`2025-06-25T…`).
        Some((task, stamp)) if super::lmms::is_timestamp(stamp) => task,
        _ => rest,
    };
    (!task.is_empty()).then(|| task.to_string())
}

/// Whether a row's keys are a details row's: `doc` with `model_response` (0.11 and later), or
/// `full_prompt` with `predictions` (earlier).
pub(crate) fn is_details(first_line: &str) -> bool {
    (first_line.contains("\"doc\"") && first_line.contains("\"model_response\""))
        || (first_line.contains("\"full_prompt\"") && first_line.contains("\"predictions\""))
}

/// The first text of a list (or a text itself; `None` for null, an empty list or a list of
/// no texts).
fn first_text(v: &Value) -> Option<String> {
    match v {
        Value::Array(items) => items.iter().find_map(|i| match i {
            Value::Null => None,
            other => scalar_text(other),
        }),
        Value::Null => None,
        other => scalar_text(other),
    }
}

/// The first score of a metrics object that reads as a verdict.
fn metric_verdict(v: Option<&Value>) -> Option<bool> {
    match v? {
        Value::Object(m) => m.values().find_map(verdict_of),
        _ => None,
    }
}

/// `choices[gold_index]` (the first index of a list), or `None`.
fn gold_choice(choices: Option<&Value>, gold_index: Option<&Value>) -> Option<String> {
    let idx = match gold_index? {
        Value::Array(a) => a.first().and_then(id_of)?,
        other => id_of(other)?,
    };
    let choices = choices?.as_array()?;
    choices
        .get(usize::try_from(idx).ok()?)
        .and_then(scalar_text)
}

/// The item id and hash in a `specific` / `specifics` object.
fn ids_in(
    specific: Option<&Value>,
    at: impl Fn(&str) -> Location,
) -> Result<(Option<u64>, Option<String>), HarnessError> {
    let Some(Value::Object(s)) = specific else {
        return Ok((None, None));
    };
    let data_id = match s.get("data_id") {
        None | Some(Value::Null) => None,
        Some(v) => Some(id_of(v).ok_or_else(|| HarnessError::BadValue {
            location: at("data_id"),
            expected: "a non-negative integer (the MM-IQ item's data_id)".into(),
            found: type_of(v),
        })?),
    };
    let hash = s
        .get("MD5")
        .or_else(|| s.get("md5"))
        .and_then(Value::as_str)
        .map(str::to_string);
    Ok((data_id, hash))
}

/// One details row as a record, and the task it names.
fn record(
    file: &str,
    line: usize,
    obj: &Map<String, Value>,
) -> Result<(Record, Option<String>), HarnessError> {
    let loc = || Location::file(file).at_line(line);
    if let Some(doc) = obj.get("doc") {
        // 0.11 and later: doc / model_response / metric.
        let doc = doc.as_object().ok_or_else(|| HarnessError::BadValue {
            location: loc().in_field("doc"),
            expected: "lighteval's Doc (a struct of query, choices, gold_index, ...)".into(),
            found: type_of(doc),
        })?;
        let resp = match obj.get("model_response") {
            Some(Value::Object(r)) => r,
            Some(other) => {
                return Err(HarnessError::BadValue {
                    location: loc().in_field("model_response"),
                    expected: "lighteval's ModelResponse (a struct with text, a list)".into(),
                    found: type_of(other),
                })
            }
            None => {
                return Err(HarnessError::Missing {
                    location: loc().in_field("model_response"),
                    expected: "the model's response (lighteval's ModelResponse, with text)",
                })
            }
        };
        let response = resp
            .get("text_post_processed")
            .and_then(first_text)
            .or_else(|| resp.get("text").and_then(first_text));
        let (mut data_id, hash) = ids_in(doc.get("specific"), |f| {
            loc().in_field(format!("doc.specific.{f}"))
        })?;
        let id = doc.get("id").filter(|v| !v.is_null());
        let mut sample_id = None;
        if data_id.is_none() {
            match id.and_then(id_of) {
                Some(n) => data_id = Some(n),
                None => sample_id = id.and_then(scalar_text).filter(|s| !s.is_empty()),
            }
        }
        let label = match id.and_then(scalar_text).filter(|s| !s.is_empty()) {
            Some(id) => format!("doc id {id}"),
            None => format!("row {line}"),
        };
        let task = doc
            .get("task_name")
            .and_then(Value::as_str)
            .filter(|t| !t.is_empty())
            .map(str::to_string);
        return Ok((
            Record {
                position: line,
                label,
                data_id,
                hash,
                sample_id,
                input: doc.get("query").and_then(scalar_text),
                target: gold_choice(doc.get("choices"), doc.get("gold_index")),
                response: response.map(super::capped_response),
                verdict: metric_verdict(obj.get("metric")),
                ..Record::default()
            },
            task,
        ));
    }
    // 0.8 to 0.10 (and, as text, earlier): flat columns.
    let predictions = obj
        .get("predictions")
        .ok_or_else(|| HarnessError::Missing {
            location: loc().in_field("predictions"),
            expected: "the model's answers (a list of texts)",
        })?;
    let (data_id, hash) = ids_in(obj.get("specifics"), |f| {
        loc().in_field(format!("specifics.{f}"))
    })?;
    let target = obj
        .get("gold")
        .and_then(first_text)
        .or_else(|| gold_choice(obj.get("choices"), obj.get("gold_index")));
    Ok((
        Record {
            position: line,
            label: format!("row {line}"),
            data_id,
            hash,
            input: obj
                .get("example")
                .or_else(|| obj.get("full_prompt"))
                .and_then(scalar_text),
            target,
            response: first_text(predictions).map(super::capped_response),
            verdict: metric_verdict(obj.get("metrics")),
            ..Record::default()
        },
        None,
    ))
}

/// Reads a lighteval details file: Parquet as lighteval writes it, or its rows as JSONL.
///
/// # Errors
/// The Parquet file's located [`crate::columnar::ColumnarError`]; [`HarnessError::Empty`],
/// [`HarnessError::NotUtf8`], [`HarnessError::Json`]; [`HarnessError::BadValue`] for a row
/// that is not an object, a `doc` or `model_response` that is not a struct, a `data_id` that
/// is not an integer; [`HarnessError::Missing`] for a row without `model_response` (new
/// shape) or `predictions` (old shape). Each names the row (the row group and row of a
/// Parquet file) and the column.
///
/// # Examples
/// ```
/// use coglab_core::harness::lighteval::read_details;
/// let rows = concat!(
///     r#"{"doc": {"query": "Which option?", "choices": ["A", "B", "C", "D"], "gold_index": 1, "id": "12", "task_name": "lighteval|mmiq|0"}, "metric": {"acc": 1.0}, "model_response": {"text": ["The answer is B"]}}"#, "\n",
///     r#"{"doc": {"query": "?", "choices": ["A", "B", "C", "D"], "gold_index": [3], "specific": {"data_id": 13}}, "metric": {"acc": 0.0}, "model_response": {"text": ["A"], "text_post_processed": ["(A)"]}}"#, "\n");
/// let f = read_details("details_lighteval|mmiq|0_2025-06-25T12-00-00.jsonl", rows.as_bytes()).unwrap();
/// assert_eq!(f.task.as_deref(), Some("lighteval|mmiq|0"));
/// assert_eq!((f.records[0].data_id, f.records[0].target.as_deref()), (Some(12), Some("B")));
/// assert_eq!(f.records[0].verdict, Some(true));
/// assert_eq!((f.records[1].data_id, f.records[1].response.as_deref()), (Some(13), Some("(A)")));
/// assert_eq!(f.records[1].target.as_deref(), Some("D"));
/// ```
pub fn read_details(file: &str, bytes: &[u8]) -> Result<HarnessFile, HarnessError> {
    if let Some(kind) = crate::columnar::detect(bytes) {
        return super::via_jsonl(file, bytes, kind, |rows, _, _| read_details(file, rows));
    }
    let text = text(file, bytes)?;
    let mut records = Vec::new();
    let mut task = None;
    for (i, line) in text.lines().enumerate() {
        let line_no = i + 1;
        if line.trim().is_empty() {
            continue;
        }
        let value: Value = serde_json::from_str(line).map_err(|e| HarnessError::Json {
            location: Location::file(file).at_line(line_no),
            message: e.to_string(),
        })?;
        let Value::Object(obj) = &value else {
            return Err(HarnessError::BadValue {
                location: Location::file(file).at_line(line_no),
                expected: "one lighteval details row (an object) per line".into(),
                found: type_of(&value),
            });
        };
        let (r, t) = record(file, line_no, obj)?;
        if task.is_none() {
            task = t;
        }
        records.push(r);
    }
    if records.is_empty() {
        return Err(HarnessError::Empty {
            file: file.to_string(),
            expected: "lighteval details rows",
        });
    }
    Ok(HarnessFile {
        file: file.to_string(),
        format: HarnessFormat::LightevalDetails,
        task: task.or_else(|| task_from_name(file)),
        model: None,
        records,
        summary: Vec::new(),
    })
}
