//! Reading the files evaluation harnesses already write (issue 24), and mapping their records
//! onto benchmark items.
//!
//! Each harness has a submodule that reads its files into one shape, a [`HarnessFile`] of
//! [`Record`]s (what the model was asked, what it answered, the harness's own verdict, and the
//! identifiers the record carries) and, for summary files, [`SummaryRow`]s:
//!
//! - [`lmms`]: lmms-eval `*_samples_<task>.jsonl` (its three `resps` shapes) and
//!   `*_results.json`.
//! - [`lighteval`]: lighteval `details_<task>_<date>.parquet` (its flat and its
//!   `doc`/`model_response`/`metric` shapes).
//! - [`vlmevalkit`]: VLMEvalKit per-item tables, judge `_result` tables (`GT`, `hit`, `log`)
//!   and circular datasets (`index` ≥ 1,000,000 are rotations of `index % 1,000,000`).
//! - [`inspect`]: Inspect `.eval` logs (a zip; deflate or zstd members, read one member at a
//!   time) and `.json` logs.
//! - [`eee`]: Every Eval Ever 0.2.1 instance and aggregate records, read and written; KiVA's
//!   instance records are read back into a KiVA report ([`eee::read_kiva`]).
//! - [`jspsych`]: jsPsych CSV / JSON data of a KiVA human run.
//! - [`kiva_challenge`]: KiVA challenge annotations and results.
//!
//! [`map`] maps records onto MM-IQ items (by `data_id`, else by the key's `MD5`) and scores them
//! with MM-IQ's own extractor, keeping the harness's verdict beside ours; a record that cannot
//! be mapped is counted and listed ([`crate::provenance::HarnessInfo`]).

pub mod eee;
pub mod eval_stream;
pub mod hf;
pub mod inspect;
pub mod jspsych;
pub mod kiva_challenge;
pub mod lighteval;
pub mod lmms;
pub mod map;
pub mod summary;
pub mod vlmevalkit;

pub use crate::provenance::{Harness, HarnessFormat, SummaryRow};

use crate::location::Location;
use serde::{Deserialize, Serialize};

/// One per-item record of a harness file.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Record {
    /// 1-based line (JSONL, CSV), row (table) or sample number (Inspect) in the file.
    pub position: usize,
    /// How the record names itself (e.g. `doc_id 3`, `sample 7 epoch 1`, `index 1000004`).
    pub label: String,
    /// The benchmark item id the record carries (MM-IQ `data_id`, VLMEvalKit `g_index`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data_id: Option<u64>,
    /// A hash the record carries that may be the key's `MD5` (lmms-eval `doc_hash`, an image
    /// hash in the record's metadata).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hash: Option<String>,
    /// The harness's own sample id, when it is not a number.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sample_id: Option<String>,
    /// Inspect epoch (1-based).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub epoch: Option<u64>,
    /// VLMEvalKit circular rotation (`index / 1,000,000`; 0 for the item as published).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rotation: Option<u64>,
    /// The input as the harness logged it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input: Option<String>,
    /// The target as the harness logged it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    /// The model's response (free text, scored with the benchmark's extractor).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub response: Option<String>,
    /// The answer the harness extracted, if it logged one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extracted: Option<String>,
    /// The harness's own verdict (correct or not), if it gave one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verdict: Option<bool>,
    /// Reaction time in milliseconds (jsPsych `rt`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rt_ms: Option<f64>,
    /// Why the reader could not map the record, when it already knows (a jsPsych trial with
    /// some item columns but not all).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub problem: Option<String>,
}

/// A harness file read into records and summary rows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HarnessFile {
    /// File name.
    pub file: String,
    /// The format it was read as.
    pub format: HarnessFormat,
    /// The task the file says it is for, when it says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task: Option<String>,
    /// The model the file says it is for, when it says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// Per-item records, in file order.
    pub records: Vec<Record>,
    /// Summary rows, in file order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub summary: Vec<SummaryRow>,
}

/// Why a harness file could not be read or mapped.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum HarnessError {
    /// The file is UTF-16 or UTF-32 text.
    #[error(transparent)]
    NotText(#[from] crate::encoding::NotTextError),
    /// The file has no content.
    #[error("{file}: the file is empty (expected {expected})")]
    Empty {
        /// File name.
        file: String,
        /// What the file should contain.
        expected: &'static str,
    },
    /// The bytes are not UTF-8.
    #[error("{location}: not valid UTF-8 (byte {byte} of the line cannot be decoded)")]
    NotUtf8 {
        /// File and line.
        location: Location,
        /// 1-based byte in the line.
        byte: usize,
    },
    /// A line or document is not valid JSON.
    #[error("{location}: invalid JSON: {message}")]
    Json {
        /// File and line (or member).
        location: Location,
        /// The parser's message.
        message: String,
    },
    /// A required field is absent.
    #[error("{location}: missing (expected {expected})")]
    Missing {
        /// File, line and field.
        location: Location,
        /// What the field should hold.
        expected: &'static str,
    },
    /// A field holds a value of the wrong type or form.
    #[error("{location}: expected {expected}, found {found}")]
    BadValue {
        /// File, line and field.
        location: Location,
        /// What was expected.
        expected: String,
        /// What was found (a quoted snippet, or a type).
        found: String,
    },
    /// A CSV record could not be read.
    #[error("{location}: {message}")]
    Csv {
        /// File and line.
        location: Location,
        /// What is wrong.
        message: String,
    },
    /// The zip archive (Inspect `.eval`) or one of its members could not be read.
    #[error("{file}: {message}")]
    Zip {
        /// File name, and member when there is one (`log.eval: samples/3_epoch_1.json`).
        file: String,
        /// What is wrong.
        message: String,
    },
    /// The file is of the right shape for a task other than the benchmark's.
    #[error("{file}: this is {harness} output for task {found:?}, expected {expected}")]
    WrongTask {
        /// File name.
        file: String,
        /// The harness.
        harness: &'static str,
        /// The task found in the file.
        found: String,
        /// The task(s) expected.
        expected: &'static str,
    },
    /// The file is none of the harness formats.
    #[error("{file}: not a recognised harness file ({reason})")]
    Unknown {
        /// File name.
        file: String,
        /// What was seen.
        reason: String,
    },
    /// No record of the file could be mapped onto the benchmark's items.
    #[error("{file}: none of the {records} records maps to an item of {against} ({example})")]
    NothingMapped {
        /// File name.
        file: String,
        /// Records read.
        records: usize,
        /// The key or annotation file.
        against: String,
        /// Why the first record could not be mapped.
        example: String,
    },
    /// The MM-IQ table reader's error (VLMEvalKit tables), or MM-IQ scoring's.
    #[error(transparent)]
    Mmiq(#[from] crate::mmiq::MmiqError),
    /// The KiVA reader's or scorer's error (jsPsych runs).
    #[error(transparent)]
    Kiva(#[from] crate::kiva::KivaError),
    /// A Parquet file could not be read (or this build reads none).
    #[error(transparent)]
    Columnar(#[from] crate::columnar::ColumnarError),
}

impl HarnessError {
    /// The location the error names, when it names a line of a file.
    pub fn location_mut(&mut self) -> Option<&mut Location> {
        match self {
            HarnessError::NotUtf8 { location, .. }
            | HarnessError::Json { location, .. }
            | HarnessError::Missing { location, .. }
            | HarnessError::BadValue { location, .. }
            | HarnessError::Csv { location, .. } => Some(location),
            HarnessError::Mmiq(e) => e.location_mut(),
            _ => None,
        }
    }
}

/// The text of a file: UTF-16/UTF-32 refused, a BOM dropped, invalid UTF-8 located.
pub(crate) fn text<'a>(file: &str, bytes: &'a [u8]) -> Result<&'a str, HarnessError> {
    if let Some(what) = crate::encoding::sniff(bytes) {
        if what != crate::encoding::NotText::Zip {
            return Err(crate::encoding::NotTextError {
                file: file.to_string(),
                what,
            }
            .into());
        }
    }
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    std::str::from_utf8(bytes).map_err(|e| {
        let bad = e.valid_up_to();
        let before = &bytes[..bad];
        let line = memchr::memchr_iter(b'\n', before).count() + 1;
        let start = memchr::memrchr(b'\n', before).map_or(0, |i| i + 1);
        HarnessError::NotUtf8 {
            location: Location::file(file).at_line(line),
            byte: bad - start + 1,
        }
    })
}

/// A JSON document, or a located error (the line of the parser's message).
pub(crate) fn json_doc(file: &str, text: &str) -> Result<serde_json::Value, HarnessError> {
    serde_json::from_str(text).map_err(|e| HarnessError::Json {
        location: Location::file(file).at_line(e.line()),
        message: e.to_string(),
    })
}

/// The JSON type of a value, for error messages.
pub(crate) fn type_of(v: &serde_json::Value) -> String {
    use serde_json::Value;
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => crate::location::snippet(s),
        Value::Array(_) => "an array".into(),
        Value::Object(_) => "an object".into(),
    }
}

/// A non-negative integer id from a JSON number or a string holding one.
pub(crate) fn id_of(v: &serde_json::Value) -> Option<u64> {
    match v {
        serde_json::Value::Number(n) => n.as_u64().or_else(|| {
            n.as_f64()
                .filter(|f| f.fract() == 0.0 && *f >= 0.0 && *f < 9.0e15)
                .map(|f| f as u64)
        }),
        serde_json::Value::String(s) => s.trim().parse::<u64>().ok(),
        _ => None,
    }
}

/// A scalar as text (strings as they are, numbers and booleans printed; `None` for null,
/// arrays and objects).
pub(crate) fn scalar_text(v: &serde_json::Value) -> Option<String> {
    match v {
        serde_json::Value::String(s) => Some(s.clone()),
        serde_json::Value::Number(n) => Some(n.to_string()),
        serde_json::Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// A verdict from a harness's score value: `true`/`false`, 1/0 (any number: > 0.5 correct),
/// Inspect's `"C"`/`"I"`, `"correct"`/`"incorrect"`, `"true"`/`"false"`, `"1"`/`"0"`.
pub(crate) fn verdict_of(v: &serde_json::Value) -> Option<bool> {
    match v {
        serde_json::Value::Bool(b) => Some(*b),
        serde_json::Value::Number(n) => n.as_f64().filter(|f| f.is_finite()).map(|f| f > 0.5),
        serde_json::Value::String(s) => verdict_text(s),
        _ => None,
    }
}

/// [`verdict_of`] for text.
pub(crate) fn verdict_text(s: &str) -> Option<bool> {
    match s.trim().to_ascii_lowercase().as_str() {
        "c" | "correct" | "true" | "yes" | "1" | "1.0" => Some(true),
        "i" | "incorrect" | "false" | "no" | "0" | "0.0" => Some(false),
        _ => None,
    }
}
/// A response as a record keeps it: whole up to [`crate::limits::MAX_RESPONSE_BYTES`], else its
/// first and last halves (at character boundaries) with a note between them naming how many
/// bytes were cut (the answer a scorer reads is usually at the end). Only the kept parts are
/// copied.
///
/// # Examples
/// ```
/// use coglab_core::harness::kept_response;
/// use coglab_core::limits::MAX_RESPONSE_BYTES;
/// assert_eq!(kept_response("ANSWER: B"), "ANSWER: B");
/// let long = format!("{}ANSWER: B", "x".repeat(MAX_RESPONSE_BYTES));
/// let kept = kept_response(&long);
/// assert!(kept.ends_with("xANSWER: B"));
/// assert!(kept.contains("[coglab: 9 bytes cut from the middle of this 1048585-byte response"));
/// ```
pub fn kept_response(text: &str) -> String {
    use crate::limits::MAX_RESPONSE_BYTES;
    if text.len() <= MAX_RESPONSE_BYTES {
        return text.to_string();
    }
    let mut head = MAX_RESPONSE_BYTES / 2;
    while !text.is_char_boundary(head) {
        head -= 1;
    }
    let mut tail = text.len() - MAX_RESPONSE_BYTES / 2;
    while !text.is_char_boundary(tail) {
        tail += 1;
    }
    let note = format!(
        "\n[coglab: {} bytes cut from the middle of this {}-byte response (more than the \
         {MAX_RESPONSE_BYTES} bytes kept, limits::MAX_RESPONSE_BYTES)]\n",
        tail - head,
        text.len()
    );
    let mut out = String::with_capacity(head + note.len() + text.len() - tail);
    out.push_str(&text[..head]);
    out.push_str(&note);
    out.push_str(&text[tail..]);
    out
}

/// [`kept_response`] of an owned response (moved when it is within the bound).
pub(crate) fn capped_response(text: String) -> String {
    if text.len() <= crate::limits::MAX_RESPONSE_BYTES {
        text
    } else {
        kept_response(&text)
    }
}

/// Whether `text` starts with the marker coglab writes first in an EEE instance record, so its
/// own records are told from their first bytes whatever the length of their responses:
/// `{"schema_version": "instance_level_eval_...` (0.2.x) or `{"schema_version": "...",
/// "sample_id"` (0.3.0, whose instance records name their version as aggregates do), any
/// spacing.
fn starts_with_eee_instance_marker(text: &str) -> bool {
    let rest = text.trim_start();
    let Some(rest) = rest.strip_prefix('{') else {
        return false;
    };
    let Some(rest) = rest.trim_start().strip_prefix("\"schema_version\"") else {
        return false;
    };
    let Some(rest) = rest.trim_start().strip_prefix(':') else {
        return false;
    };
    let rest = rest.trim_start();
    if rest.starts_with("\"instance_level_eval") {
        return true;
    }
    // A version string without escapes, then `, "sample_id"`.
    let Some(version) = rest.strip_prefix('"') else {
        return false;
    };
    let Some(end) = version.find(['"', '\\']) else {
        return false;
    };
    let Some(rest) = version[end..].strip_prefix('"') else {
        return false;
    };
    let Some(rest) = rest.trim_start().strip_prefix(',') else {
        return false;
    };
    rest.trim_start().starts_with("\"sample_id\"")
}

/// Whether text holds an EEE instance record's fields: `sample_id` with `answer_attribution`
/// (a model's answer, as MM-IQ's records have), or with `evaluation_name` and `evaluation`
/// (a score without an answer, as KiVA's records have).
fn is_eee_instance(text: &str) -> bool {
    text.contains("\"sample_id\"")
        && (text.contains("\"answer_attribution\"")
            || (text.contains("\"evaluation_name\"") && text.contains("\"evaluation\"")))
}

/// Guesses a harness format from a file's name and first bytes (a few KB are enough; for an
/// Inspect `.eval`, the first local file header names a member). `None` when it looks like no
/// harness format (the benchmarks' own formats included: an MM-IQ predictions JSONL, a plain
/// VLMEvalKit table and a KiVA run are read by their own modules).
///
/// # Examples
/// ```
/// use coglab_core::harness::{detect, HarnessFormat};
/// let line = br#"{"doc_id": 0, "target": "B", "resps": [["B"]], "filtered_resps": ["B"]}"#;
/// assert_eq!(detect("x_samples_mmiq.jsonl", line), Some(HarnessFormat::LmmsSamples));
/// assert_eq!(detect("notes.txt", b"hello"), None);
/// ```
pub fn detect(path: &str, head: &[u8]) -> Option<HarnessFormat> {
    let head = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    let lower = path.to_ascii_lowercase();
    if head.starts_with(b"PK\x03\x04") {
        let window = &head[..head.len().min(4096)];
        let has = |s: &[u8]| memchr::memmem::find(window, s).is_some();
        if lower.ends_with(".eval") || has(b"header.json") || has(b"_journal/") || has(b"samples/")
        {
            return Some(HarnessFormat::InspectEval);
        }
        return None;
    }
    let text = String::from_utf8_lossy(&head[..head.len().min(16384)]);
    let first = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    let trimmed = text.trim_start();
    if starts_with_eee_instance_marker(trimmed) {
        return Some(HarnessFormat::EeeInstances);
    }
    if trimmed.starts_with('{') {
        // JSONL (one object per line) or one JSON document.
        if lighteval::is_details(first) {
            return Some(HarnessFormat::LightevalDetails);
        }
        if first.contains("\"doc_id\"")
            && (first.contains("\"resps\"") || first.contains("\"filtered_resps\""))
        {
            return Some(HarnessFormat::LmmsSamples);
        }
        if is_eee_instance(first) {
            return Some(HarnessFormat::EeeInstances);
        }
        if text.contains("\"evaluation_results\"") && text.contains("\"schema_version\"") {
            return Some(HarnessFormat::EeeAggregate);
        }
        if text.contains("\"results\"")
            && (text.contains("\"n-samples\"")
                || text.contains("\"configs\"")
                || text.contains("\"lmms_eval_version\"")
                || text.contains("_stderr,"))
        {
            return Some(HarnessFormat::LmmsResults);
        }
        if text.contains("\"eval\"")
            && (text.contains("\"samples\"") || text.contains("\"status\""))
            && text.contains("\"task\"")
        {
            return Some(HarnessFormat::InspectJson);
        }
        if text.contains("\"transformation_domain\"") {
            return Some(HarnessFormat::KivaAnnotations);
        }
        if lower.contains("_samples_") && lower.ends_with(".jsonl") {
            return Some(HarnessFormat::LmmsSamples);
        }
        return None;
    }
    if trimmed.starts_with('[') {
        if text.contains("\"trial_type\"") && text.contains("\"trial_index\"") {
            return Some(HarnessFormat::JsPsychJson);
        }
        if is_eee_instance(&text) {
            return Some(HarnessFormat::EeeInstances);
        }
        if text.contains("\"id\"") && text.contains("\"answer\"") && !text.contains("\"index\"") {
            return Some(HarnessFormat::KivaResults);
        }
        return None;
    }
    let header = first.trim().to_ascii_lowercase();
    if header.contains("trial_type") && header.contains("trial_index") {
        return Some(HarnessFormat::JsPsychCsv);
    }
    let cells: Vec<String> = header
        .split(',')
        .map(|c| c.trim().trim_matches('"').to_string())
        .collect();
    if cells.len() == 2 && cells[0] == "id" && cells[1] == "answer" {
        return Some(HarnessFormat::KivaResults);
    }
    None
}

/// Reads a harness file in the format [`detect`] gives (an Inspect `.eval` whole, from
/// memory; [`inspect::read_eval`] reads one from any seekable reader). KiVA challenge
/// results need their annotations: read them with [`kiva_challenge`].
///
/// # Errors
/// [`HarnessError::Unknown`] when the file is no harness format, else the format's reader's
/// located errors.
pub fn read(path: &str, bytes: &[u8]) -> Result<HarnessFile, HarnessError> {
    if let Some(kind) = crate::columnar::detect(bytes) {
        return read_columnar(path, bytes, kind, None);
    }
    match detect(path, bytes) {
        Some(format) => read_as(path, bytes, format),
        None => Err(HarnessError::Unknown {
            file: path.to_string(),
            reason: "no lmms-eval, lighteval, VLMEvalKit, Inspect, Every Eval Ever or jsPsych fields in its first lines".into(),
        }),
    }
}

/// Reads a file as the given format.
///
/// # Errors
/// The format's reader's located errors.
pub fn read_as(
    path: &str,
    bytes: &[u8],
    format: HarnessFormat,
) -> Result<HarnessFile, HarnessError> {
    if let Some(kind) = crate::columnar::detect(bytes) {
        return read_columnar(path, bytes, kind, Some(format));
    }
    match format {
        HarnessFormat::LmmsSamples => lmms::read_samples(path, bytes),
        HarnessFormat::LightevalDetails => lighteval::read_details(path, bytes),
        HarnessFormat::LmmsResults => lmms::read_results(path, bytes),
        HarnessFormat::VlmEvalKit(kind) => vlmevalkit::read(path, kind, bytes),
        HarnessFormat::InspectEval => {
            inspect::read_eval(path, std::io::Cursor::new(bytes), |_, _| {})
        }
        HarnessFormat::InspectJson => inspect::read_json(path, bytes),
        HarnessFormat::EeeInstances => eee::read_instances(path, bytes),
        HarnessFormat::EeeAggregate => eee::read_aggregate(path, bytes),
        HarnessFormat::JsPsychCsv | HarnessFormat::JsPsychJson => jspsych::read(path, bytes),
        HarnessFormat::KivaAnnotations | HarnessFormat::KivaResults => Err(HarnessError::Unknown {
            file: path.to_string(),
            reason: "a KiVA challenge file is read with its partner file (kiva_challenge::score)"
                .into(),
        }),
    }
}

/// Reads a columnar file's rows as the JSON-lines harness format `format` (told from the
/// first rows when `None`): every column, nested structs as objects (see
/// [`crate::columnar`]). Errors name the row group and row.
fn read_columnar(
    path: &str,
    bytes: &[u8],
    kind: crate::columnar::ColumnarKind,
    format: Option<HarnessFormat>,
) -> Result<HarnessFile, HarnessError> {
    via_jsonl(path, bytes, kind, |rows, columns, label| {
        let format = match format.or_else(|| detect(path, rows)) {
            Some(
                f @ (HarnessFormat::LmmsSamples
                | HarnessFormat::EeeInstances
                | HarnessFormat::LightevalDetails),
            ) => f,
            Some(f) => {
                return Err(HarnessError::Unknown {
                    file: path.to_string(),
                    reason: format!(
                        "its rows read as {} {f:?}, which is not a format of one record per row",
                        f.harness().label()
                    ),
                })
            }
            None => {
                return Err(HarnessError::Unknown {
                    file: path.to_string(),
                    reason: format!(
                        "{label} whose columns ({}) are no harness format's",
                        columns.join(", ")
                    ),
                })
            }
        };
        read_as(path, rows, format)
    })
}

/// Runs `read` on a columnar file's rows written as JSON lines (every column; line n is row
/// n) with its top-level column names and its container's name ("a Parquet file"), and makes
/// the located errors it gives name the row group (record batch) and row instead of the line.
///
/// # Errors
/// The file's [`crate::columnar::ColumnarError`] (or, without the `parquet` feature, that it
/// is not read), else `read`'s.
pub(crate) fn via_jsonl<T>(
    path: &str,
    bytes: &[u8],
    kind: crate::columnar::ColumnarKind,
    read: impl FnOnce(&[u8], &[String], &str) -> Result<T, HarnessError>,
) -> Result<T, HarnessError> {
    #[cfg(feature = "parquet")]
    {
        use crate::columnar::{Columnar, Projection};
        let _ = kind;
        let file = Columnar::open(path, bytes)?;
        let mut rows = Vec::new();
        file.write_jsonl(
            Projection::All,
            |b| {
                rows.extend_from_slice(b);
                Ok::<(), HarnessError>(())
            },
            |_| {},
        )?;
        read(&rows, &file.columns(), file.label()).map_err(|mut e| {
            if let Some(loc) = e.location_mut() {
                file.relocate(loc, 0);
            }
            e
        })
    }
    #[cfg(not(feature = "parquet"))]
    {
        let _ = (bytes, read);
        Err(crate::columnar::ColumnarError::unsupported(path, kind).into())
    }
}

/// [`detect`] of a whole file that may be columnar: a Parquet or Arrow IPC file's first rows
/// written as JSON lines are told as a JSONL file's lines are (a file that cannot be opened,
/// or any columnar file without the `parquet` feature, is `None`).
///
/// # Examples
/// ```
/// use coglab_core::harness::{detect_file, HarnessFormat};
/// let line = br#"{"doc_id": 0, "target": "B", "resps": [["B"]], "filtered_resps": ["B"]}"#;
/// assert_eq!(detect_file("x_samples_mmiq.jsonl", line), Some(HarnessFormat::LmmsSamples));
/// ```
pub fn detect_file(path: &str, bytes: &[u8]) -> Option<HarnessFormat> {
    if crate::columnar::detect(bytes).is_none() {
        return detect(path, bytes);
    }
    #[cfg(feature = "parquet")]
    {
        let head = crate::columnar::Columnar::open(path, bytes)
            .and_then(|f| f.head_jsonl(16384))
            .ok()?;
        detect(path, &head)
    }
    #[cfg(not(feature = "parquet"))]
    None
}

/// The task name normalised for comparison: lower case, letters and digits only.
pub(crate) fn normal_task(task: &str) -> String {
    task.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// Whether a task name is an MM-IQ task: it holds `mmiq` once `_`, `-` and case are set aside
/// (`mmiq`, `mm_iq`, `MM-IQ`, `mmiq_test`).
///
/// # Examples
/// ```
/// use coglab_core::harness::is_mmiq_task;
/// assert!(is_mmiq_task("mm_iq") && is_mmiq_task("MM-IQ: Mathematical"));
/// assert!(!is_mmiq_task("mmmu_val"));
/// ```
pub fn is_mmiq_task(task: &str) -> bool {
    normal_task(task).contains("mmiq")
}

/// Checks that a file's task is an MM-IQ task ([`is_mmiq_task`]).
///
/// # Errors
/// [`HarnessError::WrongTask`] naming the task found.
pub fn expect_mmiq_task(file: &HarnessFile) -> Result<(), HarnessError> {
    match &file.task {
        Some(t) if !is_mmiq_task(t) => Err(HarnessError::WrongTask {
            file: file.file.clone(),
            harness: file.format.harness().label(),
            found: t.clone(),
            expected: "an MM-IQ task (a task name containing \"mmiq\", e.g. mmiq, mm_iq)",
        }),
        _ => Ok(()),
    }
}
