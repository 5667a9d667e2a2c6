//! lmms-eval: per-sample logs (`<date>_samples_<task>.jsonl`, written with `--log_samples`) and
//! the run's `<date>_results.json`.
//!
//! A samples line is one JSON object: `doc_id` (the row of the task's dataset), `doc` (the
//! dataset row, when logged), `target`, `resps`, `filtered_resps`, `doc_hash`, `prompt_hash`,
//! `target_hash`, `input` (newer versions), plus one key per metric. The model's answer has
//! had three shapes over lmms-eval's history, all read here:
//! `"resps": [["text"]]` (one list per request), `"resps": ["text"]`, and a flattened scalar
//! `"filtered_resps": "text"`. The answer scored is `filtered_resps` when present (what
//! lmms-eval scored), else `resps`.
//!
//! Identifiers: `data_id` at the top level or in `doc` is the MM-IQ item; failing that, the
//! `MD5` in `doc` (the item image's hash) or else `doc_hash` is matched against the key's MD5s.
//! `doc_id` is a row position, not an item id, so it is never used as one.
//!
//! The metric keys give the harness's verdict: the first key that is not one of the fixed
//! keys and holds a number (> 0.5 counts correct), a boolean, or an object with a `score`,
//! `correct`, `acc`, `accuracy` or `hit` field.
//!
//! `results.json` becomes summary rows: per task and filter, each metric with its `_stderr`
//! and `_stderr_clustered` (keys `metric,filter`, or `metric` in old files) and the task's
//! `n-samples` (`effective`).

use super::{
    id_of, json_doc, scalar_text, text, type_of, verdict_of, HarnessError, HarnessFile,
    HarnessFormat, Record, SummaryRow,
};
use crate::location::Location;
use serde_json::{Map, Value};

/// The keys of a samples line that are not metrics.
const FIXED: [&str; 13] = [
    "doc_id",
    "doc",
    "target",
    "arguments",
    "resps",
    "filtered_resps",
    "doc_hash",
    "prompt_hash",
    "target_hash",
    "input",
    "filter",
    "metrics",
    "data_id",
];

/// The task of a samples file from its name: lmms-eval's `<date>_samples_<task>.jsonl`, or
/// lm-evaluation-harness's `samples_<task>_<timestamp>.jsonl` (issue 42, defect 8: a file of
/// another task named the lm-eval way was not said to be of another task).
///
/// # Examples
/// ```
/// use coglab_core::harness::lmms::task_from_name;
/// assert_eq!(task_from_name("logs/m/20240601_samples_mmiq.jsonl").as_deref(), Some("mmiq"));
/// assert_eq!(
///     task_from_name("out/samples_mmmu_val_2024-06-01T12-00-00.123456.jsonl").as_deref(),
///     Some("mmmu_val")
/// );
/// assert_eq!(task_from_name("samples_mm_iq.jsonl").as_deref(), Some("mm_iq"));
/// assert_eq!(task_from_name("out.jsonl"), None);
/// ```
pub fn task_from_name(path: &str) -> Option<String> {
    let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
    let stem = name
        .strip_suffix(".jsonl")
        .or_else(|| name.strip_suffix(".json"))
        .unwrap_or(name);
    if let Some((_, task)) = stem.split_once("_samples_") {
        return (!task.is_empty()).then(|| task.to_string());
    }
    let rest = stem.strip_prefix("samples_")?;
    // lm-eval's timestamp: `_2024-06-01T12-00-00.123456` (after the task, which may hold `_`).
    let task = match rest.rsplit_once('_') {
        Some((task, stamp)) if is_timestamp(stamp) => task,
        _ => rest,
    };
    (!task.is_empty()).then(|| task.to_string())
}

/// Whether `s` starts as lm-eval's file timestamp does (`2024-06-01T…`; lighteval's date ids
/// start so too).
pub(super) fn is_timestamp(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() >= 11
        && b[..4].iter().all(u8::is_ascii_digit)
        && b[4] == b'-'
        && b[5..7].iter().all(u8::is_ascii_digit)
        && b[7] == b'-'
        && b[8..10].iter().all(u8::is_ascii_digit)
        && b[10] == b'T'
}

/// The answer of a `resps` / `filtered_resps` value in any of its three shapes.
fn answer(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Array(items) => match items.first() {
            None => Some(String::new()),
            Some(Value::String(s)) => Some(s.clone()),
            Some(Value::Array(inner)) => match inner.first() {
                None => Some(String::new()),
                Some(Value::String(s)) => Some(s.clone()),
                Some(other) => scalar_text(other),
            },
            Some(other) => scalar_text(other),
        },
        Value::Null => None,
        other => scalar_text(other),
    }
}

/// The harness's verdict from a metric value.
fn metric_verdict(v: &Value) -> Option<bool> {
    match v {
        Value::Object(m) => ["score", "correct", "acc", "accuracy", "hit"]
            .iter()
            .find_map(|k| m.get(*k).and_then(verdict_of)),
        Value::String(_) => None,
        other => verdict_of(other),
    }
}

fn record(file: &str, line: usize, obj: &Map<String, Value>) -> Result<Record, HarnessError> {
    let loc = || Location::file(file).at_line(line);
    let doc_id = obj.get("doc_id").ok_or_else(|| HarnessError::Missing {
        location: loc().in_field("doc_id"),
        expected: "the sample's doc_id (a non-negative integer)",
    })?;
    let doc_id = id_of(doc_id).ok_or_else(|| HarnessError::BadValue {
        location: loc().in_field("doc_id"),
        expected: "a non-negative integer".into(),
        found: type_of(doc_id),
    })?;
    let doc = obj.get("doc").and_then(Value::as_object);
    let data_id_value = obj
        .get("data_id")
        .or_else(|| doc.and_then(|d| d.get("data_id")));
    let data_id = match data_id_value {
        None | Some(Value::Null) => None,
        Some(v) => Some(id_of(v).ok_or_else(|| HarnessError::BadValue {
            location: loc().in_field("data_id"),
            expected: "a non-negative integer".into(),
            found: type_of(v),
        })?),
    };
    let hash = doc
        .and_then(|d| d.get("MD5").or_else(|| d.get("md5")))
        .and_then(Value::as_str)
        .or_else(|| obj.get("doc_hash").and_then(Value::as_str))
        .map(str::to_string);
    let (field, value) = match (obj.get("filtered_resps"), obj.get("resps")) {
        (Some(v), _) if !v.is_null() => ("filtered_resps", v),
        (_, Some(v)) => ("resps", v),
        _ => {
            return Err(HarnessError::Missing {
                location: loc().in_field("resps"),
                expected: "the model's answer (resps or filtered_resps)",
            })
        }
    };
    let response = answer(value).ok_or_else(|| HarnessError::BadValue {
        location: loc().in_field(field),
        expected: "a string, [\"text\"] or [[\"text\"]]".into(),
        found: type_of(value),
    })?;
    let target = obj.get("target").and_then(|t| match t {
        Value::Array(a) => a.first().and_then(scalar_text),
        other => scalar_text(other),
    });
    let verdict = obj
        .iter()
        .filter(|(k, _)| !FIXED.contains(&k.as_str()))
        .find_map(|(_, v)| metric_verdict(v));
    Ok(Record {
        position: line,
        label: format!("doc_id {doc_id}"),
        data_id,
        hash,
        input: obj.get("input").and_then(scalar_text),
        target,
        response: Some(response),
        verdict,
        ..Record::default()
    })
}

/// Reads an lmms-eval samples file (JSONL; blank lines skipped).
///
/// # Errors
/// [`HarnessError::Empty`], [`HarnessError::NotUtf8`], [`HarnessError::Json`] (line and
/// column), [`HarnessError::BadValue`] for a line that is not an object or a field of the
/// wrong type, [`HarnessError::Missing`] for a line without `doc_id` or an answer.
///
/// # Examples
/// ```
/// use coglab_core::harness::lmms::read_samples;
/// let text = concat!(
///     r#"{"doc_id": 0, "doc": {"data_id": 12}, "target": "B", "resps": [["The answer is B"]], "filtered_resps": ["The answer is B"], "exact_match": 1.0}"#, "\n",
///     r#"{"doc_id": 1, "data_id": 13, "target": "C", "resps": ["A"], "exact_match": 0.0}"#, "\n",
///     r#"{"doc_id": 2, "doc_hash": "ab12", "target": "D", "filtered_resps": "D"}"#, "\n");
/// let f = read_samples("20240601_samples_mmiq.jsonl", text.as_bytes()).unwrap();
/// assert_eq!(f.task.as_deref(), Some("mmiq"));
/// assert_eq!(f.records[0].data_id, Some(12));
/// assert_eq!(f.records[1].response.as_deref(), Some("A"));
/// assert_eq!(f.records[1].verdict, Some(false));
/// assert_eq!(f.records[2].hash.as_deref(), Some("ab12"));
/// ```
pub fn read_samples(file: &str, bytes: &[u8]) -> Result<HarnessFile, HarnessError> {
    let text = text(file, bytes)?;
    let mut records = Vec::new();
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
                expected: "one JSON object per line".into(),
                found: type_of(&value),
            });
        };
        records.push(record(file, line_no, obj)?);
    }
    if records.is_empty() {
        return Err(HarnessError::Empty {
            file: file.to_string(),
            expected: "one lmms-eval sample object per line",
        });
    }
    Ok(HarnessFile {
        file: file.to_string(),
        format: HarnessFormat::LmmsSamples,
        task: task_from_name(file),
        model: None,
        records,
        summary: Vec::new(),
    })
}

/// Splits a results key into metric and filter (`acc,none` → (`acc`, `none`)).
fn split_key(key: &str) -> (&str, Option<&str>) {
    match key.split_once(',') {
        Some((m, f)) => (m, Some(f)),
        None => (key, None),
    }
}

/// A metric's value: a finite number (`"N/A"` and other text is no value).
fn number(v: &Value) -> Option<f64> {
    v.as_f64().filter(|f| f.is_finite())
}

/// Reads an lmms-eval `results.json` into summary rows (one per task, filter and metric).
///
/// # Errors
/// [`HarnessError::Json`], [`HarnessError::Missing`] without `results`,
/// [`HarnessError::BadValue`] when `results` or a task's entry is not an object, or a metric
/// value is neither a number nor `"N/A"`; [`HarnessError::Empty`] when no metric is found.
///
/// # Examples
/// ```
/// use coglab_core::harness::lmms::read_results;
/// let text = br#"{"results": {"mmiq": {"alias": "mmiq", "acc,none": 0.25,
///     "acc_stderr,none": 0.0083, "acc_stderr_clustered,none": 0.009}},
///     "n-samples": {"mmiq": {"original": 2710, "effective": 2710}},
///     "config": {"model": "llava"}}"#;
/// let f = read_results("20240601_results.json", text).unwrap();
/// let row = &f.summary[0];
/// assert_eq!((row.task.as_str(), row.metric.as_str(), row.filter.as_deref()), ("mmiq", "acc", Some("none")));
/// assert_eq!((row.value, row.stderr, row.stderr_clustered, row.n), (0.25, Some(0.0083), Some(0.009), Some(2710)));
/// ```
pub fn read_results(file: &str, bytes: &[u8]) -> Result<HarnessFile, HarnessError> {
    let text = text(file, bytes)?;
    if text.trim().is_empty() {
        return Err(HarnessError::Empty {
            file: file.to_string(),
            expected: "an lmms-eval results object",
        });
    }
    let doc = json_doc(file, text)?;
    let loc = || Location::file(file);
    let results = doc.get("results").ok_or_else(|| HarnessError::Missing {
        location: loc().in_field("results"),
        expected: "the results object (task -> metrics)",
    })?;
    let Value::Object(tasks) = results else {
        return Err(HarnessError::BadValue {
            location: loc().in_field("results"),
            expected: "an object of tasks".into(),
            found: type_of(results),
        });
    };
    let mut summary = Vec::new();
    for (task, metrics) in tasks {
        let Value::Object(metrics) = metrics else {
            return Err(HarnessError::BadValue {
                location: loc().in_field(format!("results.{task}")),
                expected: "an object of metrics".into(),
                found: type_of(metrics),
            });
        };
        let n = doc
            .get("n-samples")
            .and_then(|n| n.get(task))
            .and_then(|n| n.get("effective").or_else(|| n.get("original")))
            .and_then(Value::as_u64);
        for (key, value) in metrics {
            let (metric, filter) = split_key(key);
            if key == "alias"
                || metric.ends_with("_stderr")
                || metric.ends_with("_stderr_clustered")
                || metric.ends_with("_paired")
            {
                continue;
            }
            let Some(v) = number(value) else {
                if value.is_string() || value.is_null() || value.is_object() || value.is_array() {
                    // "N/A", a nested group entry or a list: no figure.
                    continue;
                }
                return Err(HarnessError::BadValue {
                    location: loc().in_field(format!("results.{task}.{key}")),
                    expected: "a number".into(),
                    found: type_of(value),
                });
            };
            let companion = |suffix: &str| {
                let k = match filter {
                    Some(f) => format!("{metric}{suffix},{f}"),
                    None => format!("{metric}{suffix}"),
                };
                metrics.get(&k).and_then(number)
            };
            summary.push(SummaryRow {
                task: task.clone(),
                filter: filter.map(str::to_string),
                metric: metric.to_string(),
                value: v,
                stderr: companion("_stderr"),
                stderr_clustered: companion("_stderr_clustered"),
                n,
            });
        }
    }
    if summary.is_empty() {
        return Err(HarnessError::Empty {
            file: file.to_string(),
            expected: "at least one numeric metric under results",
        });
    }
    let model = doc
        .get("model_name")
        .and_then(Value::as_str)
        .or_else(|| {
            doc.get("config")
                .and_then(|c| c.get("model"))
                .and_then(Value::as_str)
        })
        .map(str::to_string);
    let task = (tasks.len() == 1)
        .then(|| tasks.keys().next().cloned())
        .flatten();
    Ok(HarnessFile {
        file: file.to_string(),
        format: HarnessFormat::LmmsResults,
        task,
        model,
        records: Vec::new(),
        summary,
    })
}
