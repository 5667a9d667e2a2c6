//! Reading MM-IQ JSONL (answer keys and predictions) in pieces, as a file arrives.
//!
//! A large file is read in slices (the browser reads them off-thread), so the lines of one
//! slice can be parsed while the next is still being read. [`KeyReader`] and
//! [`PredictionsReader`] take the slices in order ([`KeyReader::push`]) and give the same
//! result, or the same located error, as reading the whole text at once: [`AnswerKey::parse`]
//! and [`Predictions::parse_jsonl`] are these readers given one slice.
//!
//! Each line is read by a one-pass scanner ([`super::jsonfast::scan_object`]) and by
//! serde_json only when the scanner does not take it (nested values, fractions, invalid JSON),
//! so errors keep serde_json's messages.

use super::input::{
    bad, data_id_of, AnswerKey, KeyItem, MmiqFormat, PredContent, PredRecord, Predictions, Scalar,
    SeenIds, TextLength,
};
use super::jsonfast::Value;
use super::MmiqError;
use crate::location::Location;
use serde::de::IgnoredAny;
use serde::Deserialize;

/// The keys of a key or prediction line that are read; others are skipped.
const FIELDS: [&str; 6] = [
    "data_id",
    "category",
    "answer",
    "MD5",
    "response",
    "parsed_pred",
];

/// The fields of one line (`None`: absent or `null`), strings still as they are in the line.
pub(super) struct Fields<'a> {
    pub(super) data_id: Option<Value<'a>>,
    pub(super) category: Option<Value<'a>>,
    pub(super) answer: Option<Value<'a>>,
    pub(super) md5: Option<Value<'a>>,
    pub(super) response: Option<Value<'a>>,
    pub(super) parsed_pred: Option<Value<'a>>,
}

/// Reads the fields of `line` (number `line_no` of `file`): by the scanner, else by serde_json
/// (which then also names the error). As serde_json's reading did, a `response` beside a
/// `parsed_pred` is only checked to be valid JSON.
pub(super) fn fields<'a>(
    file: &str,
    line_no: usize,
    line: &'a str,
) -> Result<Fields<'a>, MmiqError> {
    if let Some([data_id, category, answer, md5, response, parsed_pred]) =
        super::jsonfast::scan_object(line, FIELDS)
    {
        return Ok(Fields {
            data_id,
            category,
            answer,
            md5,
            response,
            parsed_pred,
        });
    }
    let loc = Location::file(file).at_line(line_no);
    let raw: RawRecord = parse_line(&loc, line)?;
    let response = match raw.response {
        Some(_) if raw.parsed_pred.is_none() => Some(response_of(&loc, line)?),
        Some(_) => Some(Scalar::Null),
        None => None,
    };
    Ok(Fields {
        data_id: raw.data_id.map(Value::Other),
        category: raw.category.map(Value::Other),
        answer: raw.answer.map(Value::Other),
        md5: raw.md5.map(Value::Other),
        response: response.map(Value::Other),
        parsed_pred: raw.parsed_pred.map(Value::Other),
    })
}

/// The item id of a line's fields, or the located error.
pub(super) fn data_id(file: &str, line_no: usize, v: Option<Value<'_>>) -> Result<u64, MmiqError> {
    let v = v.map(Value::into_scalar);
    match v.as_ref().and_then(super::input::parse_id) {
        Some(id) => Ok(id),
        None => data_id_of(&Location::file(file).at_line(line_no), v.as_ref()),
    }
}

/// Splits slices of a JSONL file into numbered lines: complete lines are handed on at once, a
/// line cut between slices when its end arrives. Refuses UTF-16, UTF-32 and zip input from
/// its first bytes ([`crate::encoding::check_text`], naming the file and the encoding), checks
/// UTF-8 (naming line and byte), drops a leading byte-order mark, counts and skips blank lines (a final newline is not a blank line).
#[derive(Debug)]
pub(super) struct Lines {
    pub(super) file: String,
    /// The start of a line whose end has not arrived yet (also the first bytes of the file
    /// until it is known whether they are a byte-order mark).
    carry: Vec<u8>,
    /// Lines handed on or skipped so far.
    line_no: usize,
    pub(super) blank: usize,
    /// Whether the first bytes were checked for another encoding and a byte-order mark.
    started: bool,
}

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// How many leading bytes are held back before the first line is read, to recognize UTF-16,
/// UTF-32 and zip input ([`crate::encoding::SNIFF_BYTES`]; the worker's first slice has more).
const SNIFF_BYTES: usize = crate::encoding::SNIFF_BYTES;

impl Lines {
    pub(super) fn new(file: &str) -> Self {
        Self {
            file: file.to_string(),
            carry: Vec::new(),
            line_no: 0,
            blank: 0,
            started: false,
        }
    }

    /// Takes the next slice of the file, calling `each(line_no, line)` for each non-blank
    /// line it completes.
    pub(super) fn push(
        &mut self,
        mut bytes: &[u8],
        each: &mut impl FnMut(&str, usize, &str) -> Result<(), MmiqError>,
    ) -> Result<(), MmiqError> {
        if !self.started {
            // Wait for the first SNIFF_BYTES (or the file's end) to tell UTF-16/UTF-32 and a
            // byte-order mark, as the whole-file readers do (`encoding::check_text`).
            if self.carry.len() + bytes.len() < SNIFF_BYTES {
                self.carry.extend_from_slice(bytes);
                return Ok(());
            }
            self.started = true;
            if self.carry.is_empty() {
                crate::encoding::check_text(&self.file, bytes)?;
                bytes = bytes.strip_prefix(BOM).unwrap_or(bytes);
            } else {
                let mut head = std::mem::take(&mut self.carry);
                head.extend_from_slice(bytes);
                crate::encoding::check_text(&self.file, &head)?;
                let head = head.strip_prefix(BOM).unwrap_or(&head).to_vec();
                return self.push(&head, each);
            }
        }
        if !self.carry.is_empty() {
            // Complete the cut line first.
            let Some(nl) = memchr::memchr(b'\n', bytes) else {
                self.carry.extend_from_slice(bytes);
                return Ok(());
            };
            let mut line = std::mem::take(&mut self.carry);
            line.extend_from_slice(&bytes[..=nl]);
            self.lines(&line, each)?;
            bytes = &bytes[nl + 1..];
        }
        match memchr::memrchr(b'\n', bytes) {
            Some(last) => {
                self.lines(&bytes[..=last], each)?;
                self.carry.extend_from_slice(&bytes[last + 1..]);
            }
            None => self.carry.extend_from_slice(bytes),
        }
        Ok(())
    }

    /// Ends the file: the last line, if it had no newline.
    pub(super) fn finish(
        &mut self,
        each: &mut impl FnMut(&str, usize, &str) -> Result<(), MmiqError>,
    ) -> Result<(), MmiqError> {
        if !self.started {
            // A file shorter than SNIFF_BYTES: all of it is held. Checked, then split as a
            // slice is, so that only an unterminated last line stays.
            self.started = true;
            let head = std::mem::take(&mut self.carry);
            crate::encoding::check_text(&self.file, &head)?;
            self.push(head.strip_prefix(BOM).unwrap_or(&head), each)?;
        }
        if self.carry.is_empty() {
            return Ok(());
        }
        // A file shorter than SNIFF_BYTES is still all in `carry`, complete lines included:
        // only a last line without its newline gets one (else a blank line would be counted).
        let mut last = std::mem::take(&mut self.carry);
        if last.last() != Some(&b'\n') {
            last.push(b'\n');
        }
        self.lines(&last, each)
    }

    /// Hands on the lines of `bytes`, which ends in a newline.
    fn lines(
        &mut self,
        bytes: &[u8],
        each: &mut impl FnMut(&str, usize, &str) -> Result<(), MmiqError>,
    ) -> Result<(), MmiqError> {
        let text = match self.check_utf8(bytes) {
            Ok(text) => text,
            Err(e) => {
                // The complete lines before the invalid byte come first, so that the first
                // bad line is reported however the file was sliced.
                let valid = std::str::from_utf8(bytes).map_or_else(|u| u.valid_up_to(), str::len);
                if let Some(nl) = memchr::memrchr(b'\n', &bytes[..valid]) {
                    self.lines(&bytes[..=nl], each)?;
                }
                return Err(e);
            }
        };
        // Each newline ends a line (a newline byte is never inside a UTF-8 character).
        let mut start = 0;
        for end in memchr::memchr_iter(b'\n', bytes) {
            let line = &text[start..end];
            start = end + 1;
            self.line_no += 1;
            if line.trim().is_empty() {
                self.blank += 1;
                continue;
            }
            each(&self.file, self.line_no, line)?;
        }
        Ok(())
    }

    fn check_utf8<'a>(&self, bytes: &'a [u8]) -> Result<&'a str, MmiqError> {
        std::str::from_utf8(bytes).map_err(|e| {
            let before = &bytes[..e.valid_up_to()];
            let line_start = memchr::memrchr(b'\n', before).map_or(0, |i| i + 1);
            MmiqError::NotUtf8 {
                location: Location::file(&self.file)
                    .at_line(self.line_no + memchr::memchr_iter(b'\n', before).count() + 1),
                byte: e.valid_up_to() - line_start + 1,
            }
        })
    }
}

/// Reads an MM-IQ answer key (JSONL) in slices; see [`AnswerKey::parse`] for the format.
///
/// # Examples
/// ```
/// use coglab_core::mmiq::KeyReader;
/// let mut r = KeyReader::new("key.jsonl");
/// r.push(br#"{"category": "Mathematical", "data_id": 0, "ans"#).unwrap();
/// r.push(b"wer\": \"B\"}\n").unwrap();
/// let key = r.finish().unwrap();
/// assert_eq!(key.get(0).unwrap().answer, 'B');
/// ```
#[derive(Debug)]
pub struct KeyReader {
    lines: Lines,
    items: Vec<KeyItem>,
    lines_of: Vec<usize>,
}

impl KeyReader {
    /// A reader for the key file `file_name` (used in error messages).
    pub fn new(file_name: &str) -> Self {
        Self {
            lines: Lines::new(file_name),
            items: Vec::new(),
            lines_of: Vec::new(),
        }
    }

    /// Reads the next slice of the file.
    ///
    /// # Errors
    /// As [`AnswerKey::parse`], for the first bad line completed by this slice (and
    /// [`MmiqError::NotUtf8`]); the reader should then be dropped.
    pub fn push(&mut self, bytes: &[u8]) -> Result<(), MmiqError> {
        let (items, lines_of) = (&mut self.items, &mut self.lines_of);
        self.lines.push(bytes, &mut |file, line_no, line| {
            items.push(key_item(file, line_no, line)?);
            lines_of.push(line_no);
            Ok(())
        })
    }

    /// Ends the file and builds the key.
    ///
    /// # Errors
    /// As [`KeyReader::push`] for the last line; [`MmiqError::Empty`] and
    /// [`MmiqError::DuplicateId`].
    pub fn finish(mut self) -> Result<AnswerKey, MmiqError> {
        let (items, lines_of) = (&mut self.items, &mut self.lines_of);
        self.lines.finish(&mut |file, line_no, line| {
            items.push(key_item(file, line_no, line)?);
            lines_of.push(line_no);
            Ok(())
        })?;
        AnswerKey::from_items(&self.lines.file, self.items, &self.lines_of)
    }
}

/// The fields of one answer-key line, checked: its id, its category (a non-empty string, as
/// it is in the line), its answer and its `MD5` value if any.
pub(super) struct KeyLine<'a> {
    pub(super) data_id: u64,
    pub(super) category: Value<'a>,
    pub(super) answer: char,
    pub(super) md5: Option<Value<'a>>,
}

/// Reads one answer-key line (`scratch`: where an escaped string is decoded to be checked).
pub(super) fn key_line<'a>(
    file: &str,
    line_no: usize,
    line: &'a str,
    scratch: &mut String,
) -> Result<KeyLine<'a>, MmiqError> {
    let f = fields(file, line_no, line)?;
    let loc = || Location::file(file).at_line(line_no);
    let data_id = data_id(file, line_no, f.data_id)?;
    let category = match f.category {
        Some(v) if v.with_str(scratch, |s| !s.trim().is_empty()) == Some(true) => v,
        Some(other) => {
            let found = other.into_scalar();
            return Err(bad(&loc(), "category", "a non-empty string", &found));
        }
        None => {
            return Err(MmiqError::MissingField {
                location: loc().in_field("category"),
                expected: "the item's category (string)",
            })
        }
    };
    let letter = |s: &str| match s {
        "A" | "B" | "C" | "D" | "E" => s.chars().next(),
        _ => None,
    };
    let answer = match f.answer {
        Some(v) => match v.with_str(scratch, letter).flatten() {
            Some(c) => c,
            None => {
                let found = v.into_scalar();
                return Err(bad(&loc(), "answer", "one of A, B, C, D, E", &found));
            }
        },
        None => {
            return Err(MmiqError::MissingField {
                location: loc().in_field("answer"),
                expected: "the correct letter A-E",
            })
        }
    };
    Ok(KeyLine {
        data_id,
        category,
        answer,
        md5: f.md5,
    })
}

/// One answer-key line.
fn key_item(file: &str, line_no: usize, line: &str) -> Result<KeyItem, MmiqError> {
    let mut scratch = String::new();
    let k = key_line(file, line_no, line, &mut scratch)?;
    // A string, as `key_line` checked.
    let category = k
        .category
        .with_str(&mut scratch, str::to_string)
        .unwrap_or_default();
    let md5 = match k.md5.map(Value::into_scalar) {
        Some(Scalar::Str(s)) => Some(s),
        _ => None,
    };
    Ok(KeyItem {
        data_id: k.data_id,
        category,
        answer: k.answer,
        md5,
    })
}

/// Reads MM-IQ predictions JSONL in slices; see [`Predictions::parse_jsonl`] for the format.
///
/// # Examples
/// ```
/// use coglab_core::mmiq::{PredContent, PredictionsReader};
/// let mut r = PredictionsReader::new("out.jsonl", 0);
/// r.push(b"{\"data_id\": 7, \"respon").unwrap();
/// r.push(b"se\": \"B\"}\n\n{\"data_id\": 8, \"parsed_pred\": \"C\"}").unwrap();
/// let p = r.finish().unwrap();
/// assert_eq!(p.records[1].content, PredContent::Parsed("C".into()));
/// assert_eq!((p.records[1].line, p.blank_lines), (3, 1));
/// ```
#[derive(Debug)]
pub struct PredictionsReader {
    lines: Lines,
    lean: bool,
    /// Whether a lean read keeps each response's preview ([`PredictionsReader::letters_only`]
    /// turns this off).
    previews: bool,
    records: Vec<PredRecord>,
    seen: SeenIds,
    /// The file's size as given to [`PredictionsReader::new`], and the bytes pushed so far.
    total_bytes: usize,
    pushed_bytes: usize,
    /// Where an escaped response is decoded when it is read lean.
    scratch: String,
}

impl PredictionsReader {
    /// A reader for the predictions file `file_name` of `total_bytes` bytes (a file over
    /// [`super::LEAN_INPUT_BYTES`] is read lean: see [`super::lean`]).
    pub fn new(file_name: &str, total_bytes: usize) -> Self {
        Self {
            lines: Lines::new(file_name),
            lean: total_bytes > super::LEAN_INPUT_BYTES,
            previews: true,
            records: Vec::new(),
            seen: SeenIds::default(),
            total_bytes,
            pushed_bytes: 0,
            scratch: String::new(),
        }
    }

    /// Reads every response lean whatever the file's size (its answer extracted while reading,
    /// as [`super::score`] would extract it; see [`super::lean`]) and keeps no preview of it,
    /// for a caller that needs the scores but not the responses' text (the `coglab` command
    /// without `--items`): about 200 bytes per row instead of the response. Scores, counts and
    /// warnings are the same; the items have no response text.
    ///
    /// ```
    /// use coglab_core::mmiq::{PredContent, PredictionsReader};
    /// let mut r = PredictionsReader::new("out.jsonl", 0).letters_only();
    /// r.push(b"{\"data_id\": 7, \"response\": \"Long reasoning... The answer is C.\"}\n").unwrap();
    /// let p = r.finish().unwrap();
    /// assert_eq!(p.records[0].content, PredContent::Parsed("C".into()));
    /// assert_eq!(p.records[0].response_preview, None);
    /// ```
    #[must_use]
    pub fn letters_only(mut self) -> Self {
        self.lean = true;
        self.previews = false;
        self
    }

    /// Reads the next slice of the file.
    ///
    /// # Errors
    /// As [`Predictions::parse_jsonl`], for the first bad line completed by this slice (and
    /// [`MmiqError::NotUtf8`]); the reader should then be dropped.
    pub fn push(&mut self, bytes: &[u8]) -> Result<(), MmiqError> {
        let (records, seen, lean, scratch) = (
            &mut self.records,
            &mut self.seen,
            Lean::of(self.lean, self.previews),
            &mut self.scratch,
        );
        let first = records.is_empty();
        self.lines.push(bytes, &mut |file, line_no, line| {
            records.push(pred_record(file, line_no, line, seen, lean, scratch)?);
            Ok(())
        })?;
        if first && !records.is_empty() {
            // Room for the whole file's records, guessed from the first lines' length (a guess
            // that cannot be had is left to the vector's own growth).
            let per_line = self.pushed_bytes.saturating_add(bytes.len()) / records.len();
            let _ = records
                .try_reserve((self.total_bytes / per_line.max(1)).saturating_sub(records.len()));
        }
        self.pushed_bytes = self.pushed_bytes.saturating_add(bytes.len());
        Ok(())
    }

    /// Ends the file.
    ///
    /// # Errors
    /// As [`PredictionsReader::push`] for the last line; [`MmiqError::Empty`].
    pub fn finish(mut self) -> Result<Predictions, MmiqError> {
        let (records, seen, lean, scratch) = (
            &mut self.records,
            &mut self.seen,
            Lean::of(self.lean, self.previews),
            &mut self.scratch,
        );
        self.lines.finish(&mut |file, line_no, line| {
            records.push(pred_record(file, line_no, line, seen, lean, scratch)?);
            Ok(())
        })?;
        if self.records.is_empty() {
            return Err(MmiqError::Empty {
                file: self.lines.file,
                expected: "one prediction object per line",
            });
        }
        Ok(Predictions {
            file: self.lines.file,
            format: MmiqFormat::PredictionsJsonl,
            records: self.records,
            blank_lines: self.lines.blank,
        })
    }
}

/// How much of a response a predictions row keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Lean {
    /// The whole response.
    No,
    /// The extracted letter and a preview.
    WithPreview,
    /// The extracted letter only.
    LetterOnly,
}

impl Lean {
    fn of(lean: bool, previews: bool) -> Self {
        match (lean, previews) {
            (false, _) => Lean::No,
            (true, true) => Lean::WithPreview,
            (true, false) => Lean::LetterOnly,
        }
    }
}

/// One predictions line.
fn pred_record(
    file: &str,
    line_no: usize,
    line: &str,
    seen: &mut SeenIds,
    lean: Lean,
    scratch: &mut String,
) -> Result<PredRecord, MmiqError> {
    let f = fields(file, line_no, line)?;
    let loc = || Location::file(file).at_line(line_no);
    let data_id = data_id(file, line_no, f.data_id)?;
    if let Some(first_line) = seen.insert(data_id, line_no) {
        return Err(MmiqError::DuplicateId {
            location: loc().in_field("data_id"),
            data_id,
            first_line,
        });
    }
    let category = match f.category.map(Value::into_scalar) {
        None | Some(Scalar::Null) => None,
        Some(Scalar::Str(s)) => Some(s),
        Some(other) => return Err(bad(&loc(), "category", "a string", &other)),
    };
    let had_both = f.response.is_some() && f.parsed_pred.is_some();
    let mut response_preview = None;
    let mut response_length = None;
    let content = match (f.parsed_pred.map(Value::into_scalar), f.response) {
        (Some(Scalar::Str(s)), _) => PredContent::Parsed(s),
        (Some(other), _) => return Err(bad(&loc(), "parsed_pred", "a string", &other)),
        (None, Some(response)) => {
            // Read lean, a response is only looked at (decoded into `scratch` if need be).
            let read_lean = match lean {
                Lean::No => None,
                Lean::WithPreview => response.with_str(scratch, |r| {
                    let (c, p) = super::lean::lean_response(r);
                    (c, p, TextLength::of(r))
                }),
                Lean::LetterOnly => response.with_str(scratch, |r| {
                    (
                        super::lean::lean_letter(r),
                        String::new(),
                        TextLength::of(r),
                    )
                }),
            };
            if let Some((content, preview, length)) = read_lean {
                response_preview = (lean == Lean::WithPreview).then_some(preview);
                response_length = Some(length);
                content
            } else {
                match response.into_scalar() {
                    Scalar::Str(s) => PredContent::Response(s),
                    other => return Err(bad(&loc(), "response", "a string", &other)),
                }
            }
        }
        (None, None) => {
            return Err(MmiqError::MissingField {
                location: loc().in_field("response"),
                expected: "a \"response\" or \"parsed_pred\" string",
            })
        }
    };
    Ok(PredRecord {
        line: line_no,
        data_id,
        category,
        content,
        file_answer: None,
        had_both,
        response_preview,
        response_length,
    })
}

fn parse_line<'de, T: Deserialize<'de>>(loc: &Location, line: &'de str) -> Result<T, MmiqError> {
    serde_json::from_str(line).map_err(|e| MmiqError::Json {
        location: loc.clone(),
        message: json_message(&e),
    })
}

/// A serde_json message without its "at line 1 column N" tail, with the column kept.
fn json_message(e: &serde_json::Error) -> String {
    let msg = e.to_string();
    let core = msg
        .rsplit_once(" at line ")
        .map_or(msg.as_str(), |(m, _)| m)
        .to_string();
    format!("{core} (column {})", e.column())
}

/// The fields of a key or prediction line that these readers read; others are ignored.
#[derive(Deserialize)]
struct RawRecord {
    data_id: Option<Scalar>,
    category: Option<Scalar>,
    answer: Option<Scalar>,
    #[serde(rename = "MD5")]
    md5: Option<Scalar>,
    /// Only its presence is read here (validated and skipped); the value is then taken from
    /// the line by [`response_of`], which is much faster for long texts.
    response: Option<IgnoredAny>,
    parsed_pred: Option<Scalar>,
}

/// The `response` value of a validated line: the decoded string, or what was found instead.
fn response_of(loc: &Location, line: &str) -> Result<Scalar, MmiqError> {
    if let Some(start) = super::jsonfast::find_top_level_value(line, "response") {
        if line.as_bytes().get(start) == Some(&b'"') {
            if let Some((s, _)) = super::jsonfast::decode_string_at(line, start) {
                return Ok(Scalar::Str(s));
            }
        } else if let Some(end) = super::jsonfast::value_end(line.as_bytes(), start) {
            return parse_line(loc, &line[start..end]);
        }
    }
    // Not expected after serde_json accepted the line; fall back to its own decoding.
    #[derive(Deserialize)]
    struct Only {
        response: Scalar,
    }
    Ok(parse_line::<Only>(loc, line)?.response)
}

/// The six fields of one key or prediction line (`data_id`, `category`, `answer`, `MD5`,
/// `response`, `parsed_pred`; `None`: absent or `null`) as the one-pass scanner reads them and
/// as serde_json reads them, each value shown by its `Debug` form. A `response` beside a
/// `parsed_pred` is only checked, so it shows as `checked` in both.
pub type LineFields = [Option<String>; 6];

/// For the differential fuzz target `fuzz/fuzz_targets/mmiq_jsonl_vs_serde.rs` only, not part
/// of the API: the fields of `line` as the scanner reads them (`None` when it declines, and the
/// reader then falls back to serde_json), and as serde_json reads them: `Err` with its message
/// when the fallback (a `RawRecord`) refuses the line, else the six values serde_json finds in
/// the object (`serde_json::Value`, independent of this crate's decoders). Where the scanner
/// reads a line, both must agree.
#[doc(hidden)]
pub fn scanner_and_serde(line: &str) -> (Option<LineFields>, Result<LineFields, String>) {
    let show = |v: Option<Scalar>| -> Option<String> { v.map(|s| format!("{s:?}")) };
    let checked = |mut out: LineFields| {
        if out[5].is_some() && out[4].is_some() {
            out[4] = Some("checked".into());
        }
        out
    };
    let scanned = super::jsonfast::scan_object(line, FIELDS)
        .map(|values| checked(values.map(|v| show(v.map(Value::into_scalar)))));
    let loc = Location::file("line").at_line(1);
    let serde = match parse_line::<RawRecord>(&loc, line) {
        Err(e) => Err(e.to_string()),
        Ok(raw) => match serde_json::from_str::<serde_json::Value>(line) {
            Ok(serde_json::Value::Object(map)) => Ok(checked(
                FIELDS.map(|k| show(map.get(k).and_then(scalar_of_json))),
            )),
            // An array read as a record: field by field, in order.
            _ => Ok(checked([
                show(raw.data_id),
                show(raw.category),
                show(raw.answer),
                show(raw.md5),
                raw.response.map(|_| "present".into()),
                show(raw.parsed_pred),
            ])),
        },
    };
    (scanned, serde)
}

/// A serde_json value as a [`Scalar`] (`None` for `null`), as `Scalar`'s own reader takes it.
fn scalar_of_json(v: &serde_json::Value) -> Option<Scalar> {
    use serde_json::Value as J;
    Some(match v {
        J::Null => return None,
        J::String(s) => Scalar::Str(s.clone()),
        J::Bool(b) => Scalar::Bool(*b),
        J::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => Scalar::UInt(u),
            (None, Some(i)) => Scalar::Int(i),
            _ => Scalar::Float(n.as_f64().unwrap_or(f64::NAN)),
        },
        J::Array(_) => Scalar::Array,
        J::Object(_) => Scalar::Object,
    })
}
