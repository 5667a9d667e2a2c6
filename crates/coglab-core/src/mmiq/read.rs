//! Reading a whole MM-IQ file: the entry points that take a file's bytes or text, choose its
//! reader (the JSONL readers of [`super::jsonl`], which also read a file in pieces as it
//! arrives, or the VLMEvalKit table reader of [`super::table`]) and run it to the end.
//!
//! The types they return ([`AnswerKey`], [`Predictions`]) and the format guess ([`detect`])
//! are in [`super::input`], below the readers, which build them; these entry points sit above
//! both, so no reader imports another's caller.

use super::input::{detect, AnswerKey, MmiqFormat, Predictions};
use super::jsonl::{KeyReader, PredictionsReader};
use super::table::parse_predictions_table;
use super::MmiqError;
use crate::location::snippet;

impl AnswerKey {
    /// Parses `MMIQ_benchmark_answer_dict.jsonl`: one object per line with `data_id`
    /// (non-negative integer, or a string holding one), `category` (non-empty string) and
    /// `answer` (`A`-`E`); `MD5` is kept when present, other keys are ignored. Blank lines are
    /// skipped.
    ///
    /// # Errors
    /// [`MmiqError::Empty`], [`MmiqError::Json`], [`MmiqError::MissingField`],
    /// [`MmiqError::BadValue`] and [`MmiqError::DuplicateId`], each naming file, line and field.
    ///
    /// # Examples
    /// ```
    /// use coglab_core::mmiq::AnswerKey;
    /// let key = AnswerKey::parse("key.jsonl", concat!(
    ///     r#"{"category": "Mathematical", "MD5": "a", "data_id": 0, "answer": "B"}"#, "\n",
    ///     r#"{"category": "2D-Geometry", "MD5": "b", "data_id": 1, "answer": "D"}"#, "\n",
    /// )).unwrap();
    /// assert_eq!(key.get(1).unwrap().answer, 'D');
    /// let err = AnswerKey::parse("key.jsonl", r#"{"category": "M", "data_id": "x", "answer": "B"}"#)
    ///     .unwrap_err();
    /// assert_eq!(err.to_string(),
    ///     r#"key.jsonl line 1: field "data_id": expected a non-negative integer, found "x""#);
    /// ```
    pub fn parse(file_name: &str, text: &str) -> Result<Self, MmiqError> {
        let mut reader = KeyReader::new(file_name);
        reader.push(text.as_bytes())?;
        reader.finish()
    }

    /// [`AnswerKey::parse`] on bytes, checking UTF-8 first (a leading BOM is dropped).
    ///
    /// # Errors
    /// [`MmiqError::NotText`] for UTF-16/UTF-32/zip input, [`MmiqError::NotUtf8`] naming the
    /// line, then as [`AnswerKey::parse`].
    pub fn parse_bytes(file_name: &str, bytes: &[u8]) -> Result<Self, MmiqError> {
        if let Some(kind) = crate::columnar::detect(bytes) {
            let mut reader = KeyReader::new(file_name);
            let relocate =
                columnar_rows(file_name, bytes, kind, ParquetRole::Key, |b| reader.push(b))?;
            return reader.finish().map_err(relocate);
        }
        crate::encoding::check_text(file_name, bytes)?;
        let mut reader = KeyReader::new(file_name);
        reader.push(bytes)?;
        reader.finish()
    }
}

impl Predictions {
    /// Parses a predictions file of any supported format, chosen by [`detect`]: MM-IQ JSONL or a
    /// VLMEvalKit table (`.xlsx`, `.tsv`, `.csv`, `.json`). Each row must have an id and either a
    /// response or a parsed letter; duplicate ids are an error.
    ///
    /// # Errors
    /// [`MmiqError::UnknownFormat`] for an answer key, an `_acc.csv` summary or anything else;
    /// the parse errors of [`Predictions::parse_jsonl`] and of the table readers; and
    /// [`MmiqError::NotUtf8`] for text that is not UTF-8.
    ///
    /// # Examples
    /// ```
    /// use coglab_core::mmiq::{Predictions, PredContent};
    /// let p = Predictions::parse("out.jsonl", br#"{"data_id": "7", "response": "B"}"#).unwrap();
    /// assert_eq!(p.records[0].data_id, 7);
    /// assert_eq!(p.records[0].content, PredContent::Response("B".into()));
    /// ```
    pub fn parse(file_name: &str, bytes: &[u8]) -> Result<Self, MmiqError> {
        if let Some(kind) = crate::columnar::detect(bytes) {
            let mut reader = PredictionsReader::new(file_name, bytes.len());
            let relocate = columnar_rows(file_name, bytes, kind, ParquetRole::Predictions, |b| {
                reader.push(b)
            })?;
            return reader.finish().map_err(relocate);
        }
        // A zip archive may be an .xlsx prediction table, which `detect` recognizes.
        match crate::encoding::sniff(bytes) {
            Some(crate::encoding::NotText::Zip) | None => {}
            Some(what) => {
                return Err(crate::encoding::NotTextError {
                    file: file_name.to_string(),
                    what,
                }
                .into())
            }
        }
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Err(MmiqError::Empty {
                file: file_name.to_string(),
                expected: "MM-IQ predictions or a VLMEvalKit prediction table",
            });
        }
        match detect(file_name, bytes) {
            Some(MmiqFormat::PredictionsJsonl) => {
                let mut reader = PredictionsReader::new(file_name, bytes.len());
                reader.push(bytes)?;
                reader.finish()
            }
            Some(MmiqFormat::VlmEvalKit(kind)) => parse_predictions_table(file_name, kind, bytes),
            Some(MmiqFormat::AnswerKey) => Err(MmiqError::UnknownFormat {
                file: file_name.to_string(),
                reason: "this looks like an answer key (it has \"answer\"/\"MD5\" but no \"response\" or \"parsed_pred\")".into(),
            }),
            Some(MmiqFormat::VlmEvalKitAcc) => Err(MmiqError::UnknownFormat {
                file: file_name.to_string(),
                reason: "this is a VLMEvalKit accuracy summary (_acc.csv), which has no per-item predictions".into(),
            }),
            None => Err(MmiqError::UnknownFormat {
                file: file_name.to_string(),
                reason: format!("the first line is {}", snippet(first_line(bytes))),
            }),
        }
    }

    /// Parses MM-IQ predictions JSONL: per line an object with `data_id` (integer or integer
    /// string), optional `category`, and `response` or `parsed_pred` (strings). Blank lines are
    /// counted and skipped; other keys are ignored. A text over [`super::LEAN_INPUT_BYTES`] is
    /// read lean: each response's answer is extracted while reading and only a preview of the
    /// response is kept (see [`super::PredRecord::response_preview`]).
    ///
    /// # Errors
    /// [`MmiqError::Empty`], [`MmiqError::Json`], [`MmiqError::MissingField`],
    /// [`MmiqError::BadValue`], [`MmiqError::DuplicateId`].
    pub fn parse_jsonl(file_name: &str, text: &str) -> Result<Self, MmiqError> {
        let mut reader = PredictionsReader::new(file_name, text.len());
        reader.push(text.as_bytes())?;
        reader.finish()
    }
}

/// The first line of a byte buffer (for error messages).
fn first_line(bytes: &[u8]) -> &str {
    let line = bytes.split(|&b| b == b'\n').next().unwrap_or(&[]);
    let line = &line[..line.len().min(200)];
    match std::str::from_utf8(line) {
        Ok(s) => s,
        Err(e) => std::str::from_utf8(&line[..e.valid_up_to()]).unwrap_or(""),
    }
}

/// The columns of MM-IQ's own files that are read from a Parquet file (the JSONL fields; a
/// dataset's `image`, `question` and other columns are never read).
pub const PARQUET_COLUMNS: [&str; 6] = [
    "data_id",
    "category",
    "answer",
    "MD5",
    "response",
    "parsed_pred",
];

/// What an MM-IQ Parquet file is read as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParquetRole {
    /// An answer key (MM-IQ's dataset columns: `data_id`, `category`, `answer`, `MD5`).
    Key,
    /// Predictions (`data_id`, `response` or `parsed_pred`, `category`).
    Predictions,
}

/// Checks an MM-IQ Parquet file's columns for `role`.
///
/// # Errors
/// [`MmiqError::MissingColumns`] naming the columns found, or [`MmiqError::UnknownFormat`] for
/// an answer key given as predictions.
pub fn check_columns(
    file_name: &str,
    columns: &[String],
    role: ParquetRole,
) -> Result<(), MmiqError> {
    let has = |c: &str| columns.iter().any(|x| x == c);
    let missing: Vec<String> = match role {
        ParquetRole::Key => ["data_id", "category", "answer"]
            .into_iter()
            .filter(|c| !has(c))
            .map(String::from)
            .collect(),
        ParquetRole::Predictions => {
            if !has("response") && !has("parsed_pred") && (has("answer") || has("MD5")) {
                return Err(MmiqError::UnknownFormat {
                    file: file_name.to_string(),
                    reason: "this looks like an answer key (it has \"answer\"/\"MD5\" columns but no \"response\" or \"parsed_pred\")".into(),
                });
            }
            let mut m = Vec::new();
            if !has("data_id") {
                m.push("data_id".to_string());
            }
            if !has("response") && !has("parsed_pred") {
                m.push("response (or parsed_pred)".to_string());
            }
            m
        }
    };
    if missing.is_empty() {
        Ok(())
    } else {
        Err(MmiqError::MissingColumns {
            file: file_name.to_string(),
            missing,
            found: columns.to_vec(),
        })
    }
}

/// Makes an error that names a row of a columnar file's JSON lines name its row group.
type Relocate<'a> = Box<dyn Fn(MmiqError) -> MmiqError + 'a>;

/// Hands the MM-IQ columns of a columnar file's rows to `push` as JSON lines (see
/// [`crate::columnar`]), and makes the errors `push` returns name the row group and row;
/// returns what does the same for the reader's last error (at its `finish`).
fn columnar_rows<'a>(
    file_name: &str,
    bytes: &'a [u8],
    kind: crate::columnar::ColumnarKind,
    role: ParquetRole,
    push: impl FnMut(&[u8]) -> Result<(), MmiqError>,
) -> Result<Relocate<'a>, MmiqError> {
    #[cfg(feature = "parquet")]
    {
        let _ = kind;
        let file = crate::columnar::Columnar::open(file_name, bytes)?;
        columnar_table_rows(&file, role, push, |_| {})?;
        Ok(Box::new(move |mut e| {
            if let Some(loc) = e.location_mut() {
                file.relocate(loc, 0);
            }
            e
        }))
    }
    #[cfg(not(feature = "parquet"))]
    {
        let _ = (bytes, role, push);
        Err(crate::columnar::ColumnarError::unsupported(file_name, kind).into())
    }
}

/// [`columnar_rows`] for a Parquet or Arrow IPC file opened from memory, telling `progress`
/// the rows done after each row group or record batch.
///
/// # Errors
/// As `push`, with the row group (record batch) and row named, or the file's
/// [`crate::columnar::ColumnarError`].
#[cfg(feature = "parquet")]
pub fn columnar_table_rows(
    file: &crate::columnar::Columnar<'_>,
    role: ParquetRole,
    mut push: impl FnMut(&[u8]) -> Result<(), MmiqError>,
    progress: impl FnMut(u64),
) -> Result<(), MmiqError> {
    check_columns(file.name(), &file.columns(), role)?;
    file.write_jsonl(
        crate::columnar::Projection::Only(&PARQUET_COLUMNS),
        |b| {
            push(b).map_err(|mut e| {
                if let Some(loc) = e.location_mut() {
                    file.relocate(loc, 0);
                }
                e
            })
        },
        progress,
    )
}

/// [`parquet_rows`] for row group `g` (0-based) alone, for a reader that loads one row group
/// at a time ([`crate::columnar::Ranges`], the browser worker's): the caller checks the columns
/// once ([`check_columns`]) and hands every row group, in order, to the same reader, whose
/// line numbers are then the file's rows ([`crate::columnar::ParquetFile::relocate`] names
/// them by row group).
///
/// # Errors
/// As [`parquet_rows`].
#[cfg(feature = "parquet")]
pub fn parquet_group_rows<R: parquet::file::reader::ChunkReader>(
    file: &crate::columnar::ParquetFile<R>,
    g: usize,
    mut push: impl FnMut(&[u8]) -> Result<(), MmiqError>,
) -> Result<(), MmiqError> {
    file.write_group_jsonl(
        g,
        crate::columnar::Projection::Only(&PARQUET_COLUMNS),
        |b| {
            push(b).map_err(|mut e| {
                if let Some(loc) = e.location_mut() {
                    file.relocate(loc, 0);
                }
                e
            })
        },
    )
}

/// [`columnar_rows`] for an open Parquet file (from memory or from a file on disk), telling
/// `progress` the rows done after each row group.
///
/// # Errors
/// As `push`, with the row group and row named, or the file's [`crate::columnar::ColumnarError`].
#[cfg(feature = "parquet")]
pub fn parquet_rows<R: parquet::file::reader::ChunkReader>(
    file: &crate::columnar::ParquetFile<R>,
    role: ParquetRole,
    mut push: impl FnMut(&[u8]) -> Result<(), MmiqError>,
    progress: impl FnMut(u64),
) -> Result<(), MmiqError> {
    check_columns(file.name(), &file.columns(), role)?;
    file.write_jsonl(
        crate::columnar::Projection::Only(&PARQUET_COLUMNS),
        |b| {
            push(b).map_err(|mut e| {
                if let Some(loc) = e.location_mut() {
                    file.relocate(loc, 0);
                }
                e
            })
        },
        progress,
    )
}
