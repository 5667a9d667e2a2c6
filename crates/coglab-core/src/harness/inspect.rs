//! Inspect (UK AISI's `inspect_ai`) logs: the `.eval` format (a zip) and the `.json` format.
//!
//! An `.eval` log is a zip holding `header.json` (the run: `eval.task`, `eval.model`,
//! `results.scores[].metrics`), one `samples/{id}_epoch_{n}.json` per sample and epoch,
//! `summaries.json` and `reductions.json` (not needed here). Members are deflate- or
//! zstd-compressed (Inspect writes zstd since 0.3.9x): the `zip` crate reads the directory and
//! hands over each member's raw bytes, inflated by `flate2` (deflate) or `ruzstd` (zstd; pure
//! Rust, so it builds for the browser). [`read_eval`] reads the members one at a time from any
//! seekable reader, so memory holds the archive's directory, the records kept and one sample at
//! a time (twice: compressed and decompressed), never the whole log.
//!
//! A hostile archive is bounded before anything is inflated (issue 37): entries whose local
//! header and data overlap another's or the central directory are refused, as are a member
//! declaring more than [`MAX_MEMBER_BYTES`] and members declaring more than
//! [`crate::limits::MAX_EVAL_INFLATED_BYTES`] in all; each member of every compression is held
//! to its declared size and CRC-32 (`inflate`), and a response longer than
//! [`crate::limits::MAX_RESPONSE_BYTES`] is kept cut ([`super::kept_response`]).
//!
//! A `.json` log is one object with the same `eval` and `results` and a `samples` array.
//!
//! A sample gives `id` (a number is the item's `data_id`; else `metadata.data_id` or
//! `metadata.MD5`), `epoch`, `input`, `target`, `output` (its `completion`, else the first
//! choice's message text) and `scores` (the first scorer's `value`, `C`/`I` or a number, is
//! the harness's verdict; its `answer` the harness's extraction).

use super::{
    id_of, scalar_text, type_of, verdict_of, HarnessError, HarnessFile, HarnessFormat, Record,
    SummaryRow,
};
use crate::location::Location;
use serde_json::Value;
use std::io::{Read, Seek};

/// The largest member (decompressed) read from an `.eval` log: 256 MiB
/// ([`crate::limits::MAX_EVAL_MEMBER_BYTES`]). A member declaring more is refused from its
/// header; every member is held to the size it declares.
pub const MAX_MEMBER_BYTES: u64 = crate::limits::MAX_EVAL_MEMBER_BYTES;

fn zip_error(file: &str, member: &str, message: impl std::fmt::Display) -> HarnessError {
    HarnessError::Zip {
        file: if member.is_empty() {
            file.to_string()
        } else {
            format!("{file}: {member}")
        },
        message: message.to_string(),
    }
}

/// Decompresses one member's packed bytes (`method` 0 stored, 8 deflate, 93 zstd) and holds it
/// to what its header declares: reading stops one byte past the declared `size` (so a member
/// cannot inflate past it, whatever its compression), and the bytes must have its `crc`.
///
/// # Errors
/// The reason as text (the caller names the file and member): an unknown method, a bad
/// stream, more or fewer bytes than declared, a CRC-32 mismatch.
pub(super) fn inflate(raw: impl Read, method: u16, size: u64, crc: u32) -> Result<Vec<u8>, String> {
    let mut out = Vec::with_capacity(usize::try_from(size.min(1 << 24)).unwrap_or(0));
    let limit = size.saturating_add(1);
    let read = match method {
        0 => raw.take(limit).read_to_end(&mut out),
        8 => flate2::read::DeflateDecoder::new(raw)
            .take(limit)
            .read_to_end(&mut out),
        93 => match ruzstd::decoding::StreamingDecoder::new(raw) {
            Ok(mut d) => (&mut d).take(limit).read_to_end(&mut out),
            Err(e) => return Err(format!("zstd: {e}")),
        },
        m => {
            return Err(format!(
                "compression method {m} (read: stored 0, deflate 8, zstd 93)"
            ))
        }
    };
    read.map_err(|e| match method {
        93 => format!("zstd: {e}"),
        8 => format!("deflate: {e}"),
        _ => format!("cannot read: {e}"),
    })?;
    let n = out.len() as u64;
    if n > size {
        return Err(format!(
            "decompresses past the {size} bytes the header declares (read stopped there)"
        ));
    }
    if n < size {
        return Err(format!("decompressed to {n} bytes, the header says {size}"));
    }
    let got = crc32fast::hash(&out);
    if got != crc {
        return Err(format!(
            "CRC-32 mismatch: the header declares {crc:08x}, the bytes give {got:08x} (the member is corrupt)"
        ));
    }
    Ok(out)
}

/// A member [`read_eval`] inflates: its index in the central directory and what its entry
/// declares.
struct Entry {
    index: usize,
    name: String,
    method: u16,
    crc: u32,
    size: u64,
}

/// The members [`read_eval`] reads (`header.json`, then the samples), after every entry of
/// the central directory is checked: its local header and data (from the local header to the
/// end of its compressed bytes) must not overlap another entry's nor run into the central
/// directory, a member read must declare at most [`MAX_MEMBER_BYTES`], and the members read
/// at most [`crate::limits::MAX_EVAL_INFLATED_BYTES`] in all. Nothing is inflated yet.
fn entries<R: Read + Seek>(
    file: &str,
    archive: &mut zip::ZipArchive<R>,
) -> Result<(Option<Entry>, Vec<Entry>), HarnessError> {
    use crate::limits::MAX_EVAL_INFLATED_BYTES;
    let cd = archive.central_directory_start();
    let mut spans: Vec<(u64, u64, String)> = Vec::with_capacity(archive.len());
    let (mut header, mut samples) = (None, Vec::new());
    let mut total = 0u64;
    for index in 0..archive.len() {
        let raw = archive
            .by_index_raw(index)
            .map_err(|e| zip_error(file, &format!("member {}", index + 1), e))?;
        let name = raw
            .name()
            .map(|n| n.into_owned())
            .unwrap_or_else(|_| format!("member {}", index + 1));
        let start = raw.header_start();
        let end = raw
            .data_start()
            .unwrap_or(start)
            .saturating_add(raw.compressed_size());
        if end > cd {
            return Err(zip_error(
                file,
                &name,
                format!(
                    "its data runs into the central directory (its local header and data \
                     span bytes {start}..{end}, the central directory starts at byte {cd})"
                ),
            ));
        }
        // The method's number, as the local header gives it to the stream reader and as an
        // unknown one is named (zip 9 deprecates `to_u16` for matching on its constants).
        #[allow(deprecated)]
        let method = raw.compression().to_u16();
        let entry = Entry {
            index,
            name: name.clone(),
            method,
            crc: raw.crc32(),
            size: raw.size(),
        };
        drop(raw);
        spans.push((start, end, name));
        let is_header = entry.name == "header.json";
        let is_sample = entry.name.starts_with("samples/") && entry.name.ends_with(".json");
        if !is_header && !is_sample {
            continue;
        }
        if entry.size > MAX_MEMBER_BYTES {
            return Err(zip_error(
                file,
                &entry.name,
                format!(
                    "{} bytes decompressed, more than the {MAX_MEMBER_BYTES} read from one \
                     member (limits::MAX_EVAL_MEMBER_BYTES)",
                    entry.size
                ),
            ));
        }
        total = total.saturating_add(entry.size);
        if is_header {
            header = Some(entry);
        } else {
            samples.push(entry);
        }
    }
    // Sorted by where they start (ties in directory order), each span must start at or after
    // the furthest end before it.
    spans.sort_by_key(|s| (s.0, s.1));
    let mut furthest: Option<&(u64, u64, String)> = None;
    for s in &spans {
        if let Some(p) = furthest {
            if s.0 < p.1 {
                return Err(zip_error(
                    file,
                    &s.2,
                    format!(
                        "bytes {}..{} (its local header and data) overlap those of {} ({}..{}): \
                         each entry must have bytes of its own",
                        s.0, s.1, p.2, p.0, p.1
                    ),
                ));
            }
        }
        if furthest.is_none_or(|p| s.1 > p.1) {
            furthest = Some(s);
        }
    }
    if total > MAX_EVAL_INFLATED_BYTES {
        return Err(zip_error(
            file,
            "",
            format!(
                "the members declare {total} bytes decompressed in all, more than the \
                 {MAX_EVAL_INFLATED_BYTES} (16 GiB) read from one log \
                 (limits::MAX_EVAL_INFLATED_BYTES)"
            ),
        ));
    }
    Ok((header, samples))
}

/// Reads and inflates one member ([`inflate`]).
fn member<R: Read + Seek>(
    file: &str,
    archive: &mut zip::ZipArchive<R>,
    entry: &Entry,
) -> Result<Vec<u8>, HarnessError> {
    let raw = archive
        .by_index_raw(entry.index)
        .map_err(|e| zip_error(file, &entry.name, e))?;
    inflate(raw, entry.method, entry.size, entry.crc).map_err(|m| zip_error(file, &entry.name, m))
}

/// Reads an Inspect `.eval` log from any seekable reader, one member at a time, calling
/// `progress(samples_done, samples_total)` after each sample.
///
/// # Errors
/// [`HarnessError::Zip`] naming the member for an unreadable archive or member (unknown
/// compression, bad zstd frame, CRC mismatch); [`HarnessError::Missing`] without
/// `header.json`; [`HarnessError::Json`] / [`HarnessError::BadValue`] naming the member and
/// field of a malformed header or sample; [`HarnessError::Empty`] without samples.
pub fn read_eval<R: Read + Seek>(
    file: &str,
    reader: R,
    progress: impl FnMut(usize, usize),
) -> Result<HarnessFile, HarnessError> {
    read_eval_as(file, reader, progress, false)
}

/// [`read_eval`] for a large log scored as MM-IQ: each sample's response is reduced to the
/// letter MM-IQ's extractor reads from it (empty when it reads none) and its input is not
/// kept, so memory holds one sample at a time and a few bytes per record. The MM-IQ scores
/// are the same as from [`read_eval`] (the extractor reads a lone letter as itself).
///
/// # Errors
/// As [`read_eval`].
pub fn read_eval_lean<R: Read + Seek>(
    file: &str,
    reader: R,
    progress: impl FnMut(usize, usize),
) -> Result<HarnessFile, HarnessError> {
    read_eval_as(file, reader, progress, true)
}

fn read_eval_as<R: Read + Seek>(
    file: &str,
    reader: R,
    mut progress: impl FnMut(usize, usize),
    lean: bool,
) -> Result<HarnessFile, HarnessError> {
    let mut archive = zip::ZipArchive::new(reader).map_err(|e| zip_error(file, "", e))?;
    let (header, samples) = entries(file, &mut archive)?;
    let Some(h) = header else {
        return Err(HarnessError::Missing {
            location: Location::file(file).in_field("header.json"),
            expected: "the log's header.json member (an Inspect .eval zip)",
        });
    };
    let bytes = member(file, &mut archive, &h)?;
    let header = parse_member(file, &h.name, &bytes)?;
    drop(bytes);
    let mut out = from_header(file, HarnessFormat::InspectEval, &header, &h.name)?;
    let total = samples.len();
    for (k, e) in samples.iter().enumerate() {
        let bytes = member(file, &mut archive, e)?;
        let value = parse_member(file, &e.name, &bytes)?;
        drop(bytes);
        let mut record = sample(&format!("{file}: {}", e.name), k + 1, &value)?;
        drop(value);
        if lean {
            make_lean(&mut record);
        }
        out.records.push(record);
        progress(k + 1, total);
    }
    if out.records.is_empty() {
        return Err(HarnessError::Empty {
            file: file.to_string(),
            expected: "samples/{id}_epoch_{n}.json members",
        });
    }
    Ok(out)
}

/// Reduces a record's response to the letter MM-IQ's extractor reads from it and drops its
/// input (see [`read_eval_lean`]).
pub(super) fn make_lean(record: &mut Record) {
    let letter = record
        .response
        .as_deref()
        .and_then(crate::mmiq::extract::extract_choice)
        .map(String::from)
        .unwrap_or_default();
    record.response = Some(letter);
    record.input = None;
}

pub(super) fn parse_member(file: &str, name: &str, bytes: &[u8]) -> Result<Value, HarnessError> {
    let label = format!("{file}: {name}");
    let text = super::text(&label, bytes)?;
    super::json_doc(&label, text)
}

/// The task, model and summary rows of a log's header (or of a `.json` log's top level).
pub(super) fn from_header(
    file: &str,
    format: HarnessFormat,
    header: &Value,
    member: &str,
) -> Result<HarnessFile, HarnessError> {
    let loc = || Location::file(format!("{file}: {member}"));
    let eval = header.get("eval").ok_or_else(|| HarnessError::Missing {
        location: loc().in_field("eval"),
        expected: "the eval object (task, model)",
    })?;
    if !eval.is_object() {
        return Err(HarnessError::BadValue {
            location: loc().in_field("eval"),
            expected: "an object".into(),
            found: type_of(eval),
        });
    }
    let task = eval.get("task").and_then(Value::as_str).map(|t| {
        // "inspect_evals/mmiq" or "mmiq": the task's own name.
        t.rsplit('/').next().unwrap_or(t).to_string()
    });
    let model = eval
        .get("model")
        .and_then(Value::as_str)
        .map(str::to_string);
    let results = header.get("results");
    let n = results
        .and_then(|r| {
            r.get("completed_samples")
                .or_else(|| r.get("total_samples"))
        })
        .and_then(Value::as_u64);
    let mut summary = Vec::new();
    if let Some(scores) = results
        .and_then(|r| r.get("scores"))
        .and_then(Value::as_array)
    {
        for s in scores {
            let scorer = s.get("name").and_then(Value::as_str).unwrap_or("score");
            let Some(metrics) = s.get("metrics").and_then(Value::as_object) else {
                continue;
            };
            let stderr = metrics
                .get("stderr")
                .and_then(|m| m.get("value"))
                .and_then(Value::as_f64);
            for (name, m) in metrics {
                if name == "stderr" || name == "std" {
                    continue;
                }
                if let Some(v) = m
                    .get("value")
                    .and_then(Value::as_f64)
                    .filter(|v| v.is_finite())
                {
                    summary.push(SummaryRow {
                        task: task.clone().unwrap_or_default(),
                        filter: Some(scorer.to_string()),
                        metric: name.clone(),
                        value: v,
                        stderr,
                        stderr_clustered: None,
                        n,
                    });
                }
            }
        }
    }
    Ok(HarnessFile {
        file: file.to_string(),
        format,
        task,
        model,
        records: Vec::new(),
        summary,
    })
}

/// The text of a message content: a string, or the `text` of its `text` parts.
fn content_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Array(parts) => Some(
            parts
                .iter()
                .filter_map(|p| match p {
                    Value::String(s) => Some(s.as_str()),
                    Value::Object(o) => o.get("text").and_then(Value::as_str),
                    _ => None,
                })
                .collect::<Vec<_>>()
                .join("\n"),
        ),
        _ => None,
    }
}

/// One sample (a `samples/` member, or an element of a `.json` log's `samples`).
pub(super) fn sample(label: &str, position: usize, v: &Value) -> Result<Record, HarnessError> {
    let loc = || Location::file(label);
    let Value::Object(obj) = v else {
        return Err(HarnessError::BadValue {
            location: loc(),
            expected: "a sample object".into(),
            found: type_of(v),
        });
    };
    let id = obj.get("id").ok_or_else(|| HarnessError::Missing {
        location: loc().in_field("id"),
        expected: "the sample's id (a number or a string)",
    })?;
    let (mut data_id, sample_id) = match id {
        Value::Number(_) => (
            Some(id_of(id).ok_or_else(|| HarnessError::BadValue {
                location: loc().in_field("id"),
                expected: "a non-negative integer or a string".into(),
                found: type_of(id),
            })?),
            None,
        ),
        Value::String(s) => (s.trim().parse::<u64>().ok(), Some(s.clone())),
        other => {
            return Err(HarnessError::BadValue {
                location: loc().in_field("id"),
                expected: "a number or a string".into(),
                found: type_of(other),
            })
        }
    };
    let epoch = match obj.get("epoch") {
        None | Some(Value::Null) => 1,
        Some(e) => e.as_u64().ok_or_else(|| HarnessError::BadValue {
            location: loc().in_field("epoch"),
            expected: "a positive integer".into(),
            found: type_of(e),
        })?,
    };
    let metadata = obj.get("metadata").and_then(Value::as_object);
    if data_id.is_none() {
        data_id = metadata.and_then(|m| m.get("data_id")).and_then(id_of);
    }
    let hash = metadata
        .and_then(|m| m.get("MD5").or_else(|| m.get("md5")))
        .and_then(Value::as_str)
        .map(str::to_string);
    let input = obj.get("input").and_then(|i| match i {
        Value::Array(messages) => Some(
            messages
                .iter()
                .filter_map(|m| m.get("content").and_then(content_text))
                .collect::<Vec<_>>()
                .join("\n"),
        ),
        other => scalar_text(other),
    });
    let target = obj.get("target").and_then(|t| match t {
        Value::Array(a) => a.first().and_then(scalar_text),
        other => scalar_text(other),
    });
    let response = match obj.get("output") {
        None | Some(Value::Null) => String::new(),
        Some(Value::Object(out)) => out
            .get("completion")
            .and_then(Value::as_str)
            .filter(|c| !c.is_empty())
            .map(super::kept_response)
            .or_else(|| {
                out.get("choices")
                    .and_then(Value::as_array)
                    .and_then(|c| c.first())
                    .and_then(|c| c.get("message"))
                    .and_then(|m| m.get("content"))
                    .and_then(content_text)
                    .map(super::capped_response)
            })
            .unwrap_or_default(),
        Some(other) => {
            return Err(HarnessError::BadValue {
                location: loc().in_field("output"),
                expected: "the model output object".into(),
                found: type_of(other),
            })
        }
    };
    let first_score = match obj.get("scores") {
        None | Some(Value::Null) => None,
        Some(Value::Object(scores)) => scores.values().next(),
        Some(other) => {
            return Err(HarnessError::BadValue {
                location: loc().in_field("scores"),
                expected: "an object of scorer -> score".into(),
                found: type_of(other),
            })
        }
    };
    let verdict = first_score
        .and_then(|s| s.get("value"))
        .and_then(verdict_of);
    let extracted = first_score
        .and_then(|s| s.get("answer"))
        .and_then(scalar_text);
    let shown = sample_id
        .clone()
        .unwrap_or_else(|| data_id.map(|d| d.to_string()).unwrap_or_default());
    Ok(Record {
        position,
        label: format!("sample {shown} epoch {epoch}"),
        data_id,
        hash,
        sample_id,
        epoch: Some(epoch),
        input,
        target,
        response: Some(response),
        extracted,
        verdict,
        ..Record::default()
    })
}

/// Reads an Inspect `.json` log (`eval`, `results`, `samples`).
///
/// # Errors
/// [`HarnessError::Json`], [`HarnessError::Missing`] without `eval` or `samples`,
/// [`HarnessError::BadValue`] naming the sample and field, [`HarnessError::Empty`] without
/// samples.
///
/// # Examples
/// ```
/// use coglab_core::harness::inspect::read_json;
/// let log = br#"{"version": 2, "status": "success", "eval": {"task": "mmiq", "model": "openai/gpt-4o"},
///   "samples": [{"id": 4, "epoch": 1, "input": "Which?", "target": "C",
///                "output": {"completion": "Answer: C"}, "scores": {"choice": {"value": "C", "answer": "C"}}}]}"#;
/// let f = read_json("log.json", log).unwrap();
/// assert_eq!((f.task.as_deref(), f.records[0].data_id), (Some("mmiq"), Some(4)));
/// assert_eq!((f.records[0].response.as_deref(), f.records[0].verdict), (Some("Answer: C"), Some(true)));
/// ```
pub fn read_json(file: &str, bytes: &[u8]) -> Result<HarnessFile, HarnessError> {
    let text = super::text(file, bytes)?;
    if text.trim().is_empty() {
        return Err(HarnessError::Empty {
            file: file.to_string(),
            expected: "an Inspect log object",
        });
    }
    let doc = super::json_doc(file, text)?;
    let mut out = from_header(file, HarnessFormat::InspectJson, &doc, "log")?;
    out.file = file.to_string();
    let samples = doc.get("samples").ok_or_else(|| HarnessError::Missing {
        location: Location::file(file).in_field("samples"),
        expected: "the samples array (written unless the log was saved without samples)",
    })?;
    let Value::Array(samples) = samples else {
        return Err(HarnessError::BadValue {
            location: Location::file(file).in_field("samples"),
            expected: "an array of samples".into(),
            found: type_of(samples),
        });
    };
    for (k, s) in samples.iter().enumerate() {
        out.records
            .push(sample(&format!("{file}: samples[{k}]"), k + 1, s)?);
    }
    if out.records.is_empty() {
        return Err(HarnessError::Empty {
            file: file.to_string(),
            expected: "at least one sample",
        });
    }
    Ok(out)
}
