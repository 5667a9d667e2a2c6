//! Reading MM-IQ answer keys and prediction files, and guessing a file's format.

use super::MmiqError;
use crate::location::{snippet, Location};
use crate::provenance::TableKind;
use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::fmt;

/// A fast hasher for integer ids (multiplicative hashing; the inputs are local files, so there
/// is no need for SipHash's flooding resistance).
#[derive(Default, Clone, Copy)]
pub(crate) struct IdHasher(u64);

impl std::hash::Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (n ^ (n >> 29)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

/// A map keyed by item id.
pub(crate) type IdMap<V> = HashMap<u64, V, std::hash::BuildHasherDefault<IdHasher>>;

/// Ids below this are tracked in a plain array (at most 4 MB), larger ones in a hash map.
pub(super) const DENSE_IDS: u64 = 1 << 20;

/// The first line each id was seen on, for duplicate detection. Item ids are small dense
/// integers in practice, so an array indexed by id avoids hashing and cache misses.
#[derive(Debug, Default)]
pub(crate) struct SeenIds {
    dense: Vec<u32>,
    sparse: IdMap<usize>,
}

impl SeenIds {
    /// Records `id` on `line` (1-based); returns the earlier line if the id was already seen.
    pub(crate) fn insert(&mut self, id: u64, line: usize) -> Option<usize> {
        match u32::try_from(line) {
            Ok(l) if id < DENSE_IDS && l > 0 => {
                let i = id as usize;
                if i >= self.dense.len() {
                    self.dense.resize(i + 1, 0);
                }
                match self.dense[i] {
                    0 => {
                        self.dense[i] = l;
                        self.sparse.get(&id).copied()
                    }
                    prev => Some(prev as usize),
                }
            }
            _ => {
                if id < DENSE_IDS {
                    if let Some(&prev) = self.dense.get(id as usize).filter(|p| **p != 0) {
                        return Some(prev as usize);
                    }
                }
                self.sparse.insert(id, line)
            }
        }
    }
}

/// The kinds of MM-IQ input this module reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum MmiqFormat {
    /// `MMIQ_benchmark_answer_dict.jsonl`.
    AnswerKey,
    /// MM-IQ predictions, one JSON object per line (`response` or `parsed_pred`).
    PredictionsJsonl,
    /// A VLMEvalKit prediction table.
    VlmEvalKit(TableKind),
    /// A VLMEvalKit `*_acc.csv` summary of pre-computed accuracies.
    VlmEvalKitAcc,
}

/// Guesses the format of an MM-IQ input from its file name and first bytes (a few KB are
/// enough). Returns `None` when it looks like none of them.
///
/// # Examples
/// ```
/// use coglab_core::mmiq::{detect, MmiqFormat, TableKind};
/// let key = br#"{"category": "Mathematical", "MD5": "x", "data_id": 0, "answer": "B"}"#;
/// assert_eq!(detect("key.jsonl", key), Some(MmiqFormat::AnswerKey));
/// let preds = br#"{"data_id": 0, "response": "The answer is B"}"#;
/// assert_eq!(detect("out.jsonl", preds), Some(MmiqFormat::PredictionsJsonl));
/// assert_eq!(detect("m_MMIQ_acc.csv", b"\"split\",\"Overall\"\n"), Some(MmiqFormat::VlmEvalKitAcc));
/// assert_eq!(detect("m_MMIQ.xlsx", b"PK\x03\x04..."), Some(MmiqFormat::VlmEvalKit(TableKind::Xlsx)));
/// assert_eq!(detect("notes.txt", b"hello"), None);
/// ```
pub fn detect(file_name: &str, first_bytes: &[u8]) -> Option<MmiqFormat> {
    let name = file_name.to_ascii_lowercase();
    let bytes = first_bytes
        .strip_prefix(b"\xEF\xBB\xBF")
        .unwrap_or(first_bytes);
    if bytes.starts_with(b"PK\x03\x04") {
        return Some(MmiqFormat::VlmEvalKit(TableKind::Xlsx));
    }
    let head = String::from_utf8_lossy(&bytes[..bytes.len().min(8192)]);
    let first_line = head.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    let header = first_line.trim_start();
    if name.ends_with("_acc.csv") || header.starts_with("\"split\"") || header.starts_with("split,")
    {
        return Some(MmiqFormat::VlmEvalKitAcc);
    }
    if name.ends_with(".xlsx") {
        return Some(MmiqFormat::VlmEvalKit(TableKind::Xlsx));
    }
    if name.ends_with(".tsv") || (header.contains('\t') && header.contains("prediction")) {
        return Some(MmiqFormat::VlmEvalKit(TableKind::Tsv));
    }
    if name.ends_with(".csv")
        || (header.contains(',')
            && header.contains("prediction")
            && !header.starts_with('{')
            && !header.starts_with('['))
    {
        return Some(MmiqFormat::VlmEvalKit(TableKind::Csv));
    }
    // A JSONL line without its data_id is still JSONL (by name, or by the prediction fields),
    // so the missing field is reported on its own line rather than as a JSON error further on.
    let jsonl_fields =
        first_line.contains("\"response\"") || first_line.contains("\"parsed_pred\"");
    if header.starts_with('{')
        && (first_line.contains("\"data_id\"") || name.ends_with(".jsonl") || jsonl_fields)
    {
        let is_key = first_line.contains("\"MD5\"")
            || (first_line.contains("\"answer\"")
                && !first_line.contains("\"response\"")
                && !first_line.contains("\"parsed_pred\""));
        return Some(if is_key {
            MmiqFormat::AnswerKey
        } else {
            MmiqFormat::PredictionsJsonl
        });
    }
    if (header.starts_with('[') || header.starts_with('{'))
        && (head.contains("\"index\"")
            || head.contains("\"prediction\"")
            || head.contains("\"data_id\""))
    {
        return Some(MmiqFormat::VlmEvalKit(TableKind::Json));
    }
    None
}

/// One item of the answer key.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KeyItem {
    /// The item's id.
    pub data_id: u64,
    /// Its reasoning paradigm.
    pub category: String,
    /// The correct letter.
    pub answer: char,
    /// MD5 of the item's image, when given.
    #[serde(default, rename = "MD5", skip_serializing_if = "Option::is_none")]
    pub md5: Option<String>,
}

/// An MM-IQ answer key: items by `data_id`, with the categories in order of first appearance.
#[derive(Debug, Clone)]
pub struct AnswerKey {
    /// File name the key was read from.
    pub file: String,
    /// The items, in file order.
    pub items: Vec<KeyItem>,
    /// The distinct categories, in order of first appearance.
    pub categories: Vec<String>,
    index: IdMap<usize>,
    /// `dense[id]` = position + 1 (0: absent), when the ids are small enough.
    dense: Vec<u32>,
    category_index: Vec<usize>,
}

impl AnswerKey {
    /// The key of `items`, read from lines `lines_of` of `file_name` (both in file order).
    ///
    /// # Errors
    /// [`MmiqError::Empty`] without items; [`MmiqError::DuplicateId`].
    pub(super) fn from_items(
        file_name: &str,
        items: Vec<KeyItem>,
        lines_of: &[usize],
    ) -> Result<Self, MmiqError> {
        if items.is_empty() {
            return Err(MmiqError::Empty {
                file: file_name.to_string(),
                expected: "one answer-key object per line",
            });
        }
        let mut index = IdMap::with_capacity_and_hasher(items.len(), Default::default());
        for (i, item) in items.iter().enumerate() {
            if let Some(&first) = index.get(&item.data_id) {
                return Err(MmiqError::DuplicateId {
                    location: Location::file(file_name)
                        .at_line(lines_of[i])
                        .in_field("data_id"),
                    data_id: item.data_id,
                    first_line: lines_of[first],
                });
            }
            index.insert(item.data_id, i);
        }
        let mut categories: Vec<String> = Vec::new();
        let category_index = items
            .iter()
            .map(
                |it| match categories.iter().position(|c| *c == it.category) {
                    Some(p) => p,
                    None => {
                        categories.push(it.category.clone());
                        categories.len() - 1
                    }
                },
            )
            .collect();
        let max_id = items.iter().map(|i| i.data_id).max().unwrap_or(0);
        let dense = if max_id < DENSE_IDS && u32::try_from(items.len()).is_ok() {
            let mut d = vec![0u32; max_id as usize + 1];
            for (i, item) in items.iter().enumerate() {
                d[item.data_id as usize] = i as u32 + 1;
            }
            d
        } else {
            Vec::new()
        };
        Ok(Self {
            file: file_name.to_string(),
            items,
            categories,
            index,
            dense,
            category_index,
        })
    }

    /// The item with the given id.
    pub fn get(&self, data_id: u64) -> Option<&KeyItem> {
        self.slot(data_id).map(|i| &self.items[i])
    }

    fn slot(&self, data_id: u64) -> Option<usize> {
        if self.dense.is_empty() {
            self.index.get(&data_id).copied()
        } else {
            let d = *self.dense.get(usize::try_from(data_id).ok()?)?;
            (d != 0).then(|| d as usize - 1)
        }
    }

    /// Position of the item in [`AnswerKey::items`] and of its category in
    /// [`AnswerKey::categories`].
    pub(crate) fn position(&self, data_id: u64) -> Option<(usize, usize)> {
        self.slot(data_id).map(|i| (i, self.category_index[i]))
    }

    /// Per category (in [`AnswerKey::categories`] order), how many items have each answer
    /// `A`..`E`.
    pub(crate) fn letter_counts(&self) -> Vec<[u64; 5]> {
        let mut counts = vec![[0; 5]; self.categories.len()];
        for (item, &cat) in self.items.iter().zip(&self.category_index) {
            counts[cat][super::score::letter_index(item.answer)] += 1;
        }
        counts
    }

    /// Number of items.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether the key has no items (never true for a parsed key).
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
}

/// What a prediction row gives: a free-form response to extract from, or an already-parsed
/// letter.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PredContent {
    /// A free-form response (MM-IQ `response`, VLMEvalKit `prediction`).
    Response(String),
    /// An already-parsed answer (MM-IQ `parsed_pred`), used as given.
    Parsed(String),
}

/// One prediction row.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PredRecord {
    /// 1-based line (JSONL, CSV) or row (spreadsheet, JSON array element) in the file.
    pub line: usize,
    /// The item id (`data_id`, or VLMEvalKit's `index`).
    pub data_id: u64,
    /// The category given in the file, if any (the key's category is used for scoring).
    pub category: Option<String>,
    /// The response or parsed letter.
    pub content: PredContent,
    /// The correct answer as the file states it (VLMEvalKit's `answer`), if any.
    pub file_answer: Option<String>,
    /// Whether the row had both `response` and `parsed_pred` (then `parsed_pred` is used).
    pub had_both: bool,
    /// Set only for a response read from a large input (see [`super::lean`]): the response's
    /// first characters (ending in "…" when cut), while `content` holds the answer extracted
    /// from the full response as [`PredContent::Parsed`]. `None` otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub response_preview: Option<String>,
    /// Set only with `response_preview` (a lean read): the full response's length, so that
    /// [`super::MmiqReport::response_length`] does not need the text. `None` otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub response_length: Option<TextLength>,
}

/// A response's length in characters (Unicode scalar values) and whitespace-separated tokens
/// (Rust's `split_whitespace`, Unicode White_Space: Python's `len(s)` and `len(s.split())`
/// except for the ASCII separators U+001C..U+001F, which Python also splits on).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct TextLength {
    /// Characters.
    pub chars: u64,
    /// Whitespace-separated tokens.
    pub tokens: u64,
}

impl TextLength {
    /// The length of `s`.
    ///
    /// # Examples
    /// ```
    /// use coglab_core::mmiq::TextLength;
    /// assert_eq!(TextLength::of("The answer is  é."), TextLength { chars: 17, tokens: 4 });
    /// ```
    pub fn of(s: &str) -> Self {
        let b = s.as_bytes();
        // White_Space outside ASCII (U+0085, U+00A0, U+1680, U+2000..U+205F, U+3000) starts
        // with one of these lead bytes. A response without such a character is counted in one
        // pass over its bytes, which is what the worker spends on a 72 MB file's 100,000
        // responses: `chars()` and `split_whitespace()` decode every character (100 ms
        // natively; 257 ms of a 700 ms run in the worker's profile).
        let space_at = |i: usize| s[i..].chars().next().is_some_and(char::is_whitespace);
        let unicode_space = !s.is_ascii()
            && (memchr::memchr3_iter(0xC2, 0xE2, 0xE3, b).any(space_at)
                || memchr::memchr_iter(0xE1, b).any(space_at));
        if unicode_space {
            return Self {
                chars: s.chars().count() as u64,
                tokens: s.split_whitespace().count() as u64,
            };
        }
        Self::of_ascii_space_by_bytes(b)
    }

    /// [`TextLength::of`] of text whose only White_Space is ASCII, a byte at a time in pieces
    /// of 255 (the counts fit a byte), which LLVM vectorizes, natively and in the worker's
    /// wasm (opt-level 3 with `simd128`). A word-at-a-time (SWAR) variant, written when the
    /// worker was built for size, was about 10 ms slower on the 100k benchmark's 72 MB once
    /// the worker was built for speed (wasm in V8, interleaved runs), and was removed.
    fn of_ascii_space_by_bytes(b: &[u8]) -> Self {
        let space = |c: u8| c == b' ' || c.wrapping_sub(b'\t') < 5;
        let mut chars = 0u64;
        // A token starts at a byte that is not space after one that is (or at the start).
        let mut tokens = u64::from(b.first().is_some_and(|&c| !space(c)));
        for (piece, next) in b
            .chunks(255)
            .zip(b.get(1..).unwrap_or_default().chunks(255))
        {
            let (mut starts, mut lead) = (0u8, 0u8);
            for (&c, &d) in piece.iter().zip(next) {
                starts += u8::from(space(c) & !space(d));
                lead += u8::from(c & 0xC0 != 0x80);
            }
            tokens += u64::from(starts);
            chars += u64::from(lead);
        }
        // The last byte has no successor in the pairs above; count its character.
        chars += u64::from(b.last().is_some_and(|&c| c & 0xC0 != 0x80));
        Self { chars, tokens }
    }
}

/// A parsed predictions file.
#[derive(Debug, Clone)]
pub struct Predictions {
    /// File name.
    pub file: String,
    /// The format it was read as.
    pub format: MmiqFormat,
    /// The prediction rows, in file order (ids are unique).
    pub records: Vec<PredRecord>,
    /// Blank lines skipped (JSONL only).
    pub blank_lines: usize,
}

/// Checks that `bytes` is UTF-8 (a leading BOM is dropped), or names the line and byte of the
/// first invalid byte.
pub(super) fn utf8<'a>(file_name: &str, bytes: &'a [u8]) -> Result<&'a str, MmiqError> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    std::str::from_utf8(bytes).map_err(|e| {
        let bad_at = e.valid_up_to();
        let (line, line_start) = crate::location::line_and_start(bytes, bad_at);
        MmiqError::NotUtf8 {
            location: Location::file(file_name).at_line(line),
            byte: bad_at - line_start + 1,
        }
    })
}

pub(super) fn bad(loc: &Location, field: &str, expected: &str, found: &Scalar) -> MmiqError {
    MmiqError::BadValue {
        location: loc.clone().in_field(field),
        expected: expected.to_string(),
        found: found.describe(),
    }
}

/// Reads a `data_id`: a non-negative integer, an integer-valued float, or a string holding one.
pub(super) fn data_id_of(loc: &Location, v: Option<&Scalar>) -> Result<u64, MmiqError> {
    let Some(v) = v else {
        return Err(MmiqError::MissingField {
            location: loc.clone().in_field("data_id"),
            expected: "the item id (a non-negative integer)",
        });
    };
    parse_id(v).ok_or_else(|| bad(loc, "data_id", "a non-negative integer", v))
}

pub(super) fn parse_id(v: &Scalar) -> Option<u64> {
    match v {
        Scalar::UInt(u) => Some(*u),
        Scalar::Float(f) if f.fract() == 0.0 && *f >= 0.0 && *f < 9.0e15 => Some(*f as u64),
        Scalar::Str(s) => {
            let t = s.trim();
            t.parse::<u64>().ok().or_else(|| {
                t.parse::<f64>()
                    .ok()
                    .filter(|f| f.fract() == 0.0 && *f >= 0.0 && *f < 9.0e15)
                    .map(|f| f as u64)
            })
        }
        _ => None,
    }
}

/// A JSON value as found, so a wrong type can be reported as "expected X, found Y" instead of
/// a generic type error.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Scalar {
    Str(String),
    UInt(u64),
    Int(i64),
    Float(f64),
    Bool(bool),
    Null,
    Array,
    Object,
}

impl Scalar {
    /// How the value is shown in an error message.
    pub(super) fn describe(&self) -> String {
        match self {
            Scalar::Str(s) => snippet(s),
            Scalar::UInt(u) => u.to_string(),
            Scalar::Int(i) => i.to_string(),
            Scalar::Float(f) => f.to_string(),
            Scalar::Bool(b) => b.to_string(),
            Scalar::Null => "null".into(),
            Scalar::Array => "an array".into(),
            Scalar::Object => "an object".into(),
        }
    }
}

impl<'de> Deserialize<'de> for Scalar {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Scalar;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Scalar, E> {
                Ok(Scalar::Str(v.to_owned()))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Scalar, E> {
                Ok(Scalar::Str(v))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Scalar, E> {
                Ok(Scalar::UInt(v))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Scalar, E> {
                Ok(if v >= 0 {
                    Scalar::UInt(v as u64)
                } else {
                    Scalar::Int(v)
                })
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Scalar, E> {
                Ok(Scalar::Float(v))
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<Scalar, E> {
                Ok(Scalar::Bool(v))
            }
            fn visit_unit<E: de::Error>(self) -> Result<Scalar, E> {
                Ok(Scalar::Null)
            }
            fn visit_none<E: de::Error>(self) -> Result<Scalar, E> {
                Ok(Scalar::Null)
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut a: A) -> Result<Scalar, A::Error> {
                while a.next_element::<IgnoredAny>()?.is_some() {}
                Ok(Scalar::Array)
            }
            fn visit_map<A: MapAccess<'de>>(self, mut a: A) -> Result<Scalar, A::Error> {
                while a.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(Scalar::Object)
            }
        }
        d.deserialize_any(V)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `TextLength::of`'s byte pass counts what the standard library's `chars().count()` and
    /// `split_whitespace().count()` count: on every Unicode White_Space character, on the ASCII
    /// separators U+001C..U+001F (not White_Space), on lead bytes that start other characters
    /// (curly quotes, dashes, arrows, CJK), at each place in a response longer than one
    /// 255-byte piece, and at lengths around the piece size.
    #[test]
    fn text_length_counts_as_chars_and_split_whitespace() {
        let std_count = |s: &str| TextLength {
            chars: s.chars().count() as u64,
            tokens: s.split_whitespace().count() as u64,
        };
        let specials = "\t\n\u{b}\u{c}\r \u{1c}\u{1f}\u{85}\u{a0}\u{1680}\u{2000}\u{200a}\u{2028}\
                        \u{2029}\u{202f}\u{205f}\u{3000}\u{2019}\u{2014}\u{2192}\u{b2}\u{e9}\u{4e2d}\
                        \u{1f600}\u{200b}\u{feff}";
        let base = "The answer is C. ";
        let mut cases = vec![String::new(), " ".into(), "x".into(), "  a  b  ".into()];
        for n in [253, 254, 255, 256, 509, 510, 511, 766] {
            cases.push("ab c".repeat(n / 4 + 1)[..n].to_string());
            cases.push(" ".repeat(n));
        }
        for sp in specials.chars().map(String::from) {
            for at in [0, 1, 17, 254, 255, 256, 600] {
                let mut s = base.repeat(40);
                while !s.is_char_boundary(at.min(s.len())) {
                    s.push('x');
                }
                s.insert_str(at.min(s.len()), &sp);
                cases.push(s.clone());
                cases.push(s.replace(' ', &sp));
            }
        }
        for s in &cases {
            assert_eq!(TextLength::of(s), std_count(s), "{s:?}");
            // The byte pass, where it applies.
            if !s.chars().any(|c| !c.is_ascii() && c.is_whitespace()) {
                let b = s.as_bytes();
                assert_eq!(
                    TextLength::of_ascii_space_by_bytes(b),
                    std_count(s),
                    "{s:?}"
                );
            }
        }
        // Worked by hand: 5 characters (é is one), 2 tokens.
        let hand = TextLength {
            chars: 5,
            tokens: 2,
        };
        assert_eq!(TextLength::of("é b\u{2019}c"), hand);
    }

    fn key() -> AnswerKey {
        AnswerKey::parse(
            "key.jsonl",
            "{\"category\": \"Mathematical\", \"MD5\": \"m\", \"data_id\": 0, \"answer\": \"B\"}\n\
             \n\
             {\"category\": \"2D-Geometry\", \"MD5\": \"n\", \"data_id\": 5, \"answer\": \"E\"}\n",
        )
        .unwrap()
    }

    #[test]
    fn key_reads_items_and_categories() {
        let k = key();
        assert_eq!(k.len(), 2);
        assert_eq!(k.categories, vec!["Mathematical", "2D-Geometry"]);
        assert_eq!(k.get(5).unwrap().answer, 'E');
        assert_eq!(k.get(5).unwrap().md5.as_deref(), Some("n"));
        assert_eq!(k.position(5), Some((1, 1)));
        assert!(k.get(1).is_none());
    }

    #[test]
    fn key_errors_name_line_field_expected_and_found() {
        let cases = [
            (
                "{\"category\": \"M\", \"data_id\": 0, \"answer\": \"F\"}",
                "key.jsonl line 1: field \"answer\": expected one of A, B, C, D, E, found \"F\"",
            ),
            (
                "\n{\"category\": \"M\", \"data_id\": -3, \"answer\": \"A\"}",
                "key.jsonl line 2: field \"data_id\": expected a non-negative integer, found -3",
            ),
            (
                "{\"category\": 4, \"data_id\": 0, \"answer\": \"A\"}",
                "key.jsonl line 1: field \"category\": expected a non-empty string, found 4",
            ),
            (
                "{\"data_id\": 0, \"answer\": \"A\"}",
                "key.jsonl line 1: field \"category\": missing (expected the item's category (string))",
            ),
            (
                "{\"category\": \"M\", \"data_id\": 1, \"answer\": \"A\"}\n{\"category\": \"M\", \"data_id\": 1, \"answer\": \"B\"}",
                "key.jsonl line 2: field \"data_id\": duplicate data_id 1 (first on line 1)",
            ),
            ("\n \n", "key.jsonl: the file is empty (expected one answer-key object per line)"),
        ];
        for (text, msg) in cases {
            assert_eq!(
                AnswerKey::parse("key.jsonl", text).unwrap_err().to_string(),
                msg
            );
        }
        let err = AnswerKey::parse("key.jsonl", "{\"category\": \"M\",").unwrap_err();
        assert!(
            err.to_string()
                .starts_with("key.jsonl line 1: invalid JSON: EOF while parsing"),
            "{err}"
        );
    }

    #[test]
    fn predictions_jsonl_fields() {
        let text = "{\"data_id\": 3, \"category\": \"Mathematical\", \"response\": \"The answer is C\"}\r\n\
                    \r\n\
                    {\"data_id\": \"4\", \"parsed_pred\": \"A\", \"response\": \"B\"}\n\
                    {\"data_id\": 5.0, \"category\": null, \"parsed_pred\": \"Z\"}\n";
        let p = Predictions::parse("p.jsonl", text.as_bytes()).unwrap();
        assert_eq!(p.blank_lines, 1);
        assert_eq!(p.records.len(), 3);
        assert_eq!(p.records[0].line, 1);
        assert_eq!(p.records[0].category.as_deref(), Some("Mathematical"));
        assert_eq!(p.records[1].line, 3);
        assert_eq!(p.records[1].data_id, 4);
        assert_eq!(p.records[1].content, PredContent::Parsed("A".into()));
        assert!(p.records[1].had_both);
        assert_eq!(p.records[2].data_id, 5);
        assert_eq!(p.records[2].category, None);
    }

    #[test]
    fn predictions_jsonl_errors() {
        let cases: [(&[u8], &str); 6] = [
            (
                b"{\"data_id\": 1, \"response\": \"A\"}\n{\"data_id\": \"abc\", \"response\": \"B\"}",
                "preds.jsonl line 2: field \"data_id\": expected a non-negative integer, found \"abc\"",
            ),
            (
                b"{\"data_id\": 1}",
                "preds.jsonl line 1: field \"response\": missing (expected a \"response\" or \"parsed_pred\" string)",
            ),
            (
                b"{\"data_id\": 1, \"response\": [1, 2]}",
                "preds.jsonl line 1: field \"response\": expected a string, found an array",
            ),
            (
                b"{\"data_id\": 1, \"response\": \"A\"}\n{\"data_id\": 1, \"response\": \"B\"}",
                "preds.jsonl line 2: field \"data_id\": duplicate data_id 1 (first on line 1)",
            ),
            (
                b"{\"data_id\": 1, \"response\": \"A\"}\n{\"data_id\": 2, \"response\": \"\xff\"}",
                "preds.jsonl line 2: not valid UTF-8 (byte 29 of the line cannot be decoded)",
            ),
            (b"  \n\n", "preds.jsonl: the file is empty (expected MM-IQ predictions or a VLMEvalKit prediction table)"),
        ];
        for (bytes, msg) in cases {
            assert_eq!(
                Predictions::parse("preds.jsonl", bytes)
                    .unwrap_err()
                    .to_string(),
                msg
            );
        }
        let key_like = br#"{"category": "M", "MD5": "x", "data_id": 0, "answer": "B"}"#;
        assert!(matches!(
            Predictions::parse("preds.jsonl", key_like),
            Err(MmiqError::UnknownFormat { .. })
        ));
    }

    #[test]
    fn seen_ids_dense_and_sparse() {
        let mut seen = SeenIds::default();
        assert_eq!(seen.insert(5, 1), None);
        assert_eq!(seen.insert(1 << 40, 2), None);
        assert_eq!(seen.insert(0, 3), None);
        assert_eq!(seen.insert(5, 4), Some(1));
        assert_eq!(seen.insert(1 << 40, 5), Some(2));
        assert_eq!(seen.insert(0, 6), Some(3));
    }

    #[test]
    fn key_lookup_with_sparse_ids() {
        let k = AnswerKey::parse(
            "k.jsonl",
            "{\"category\": \"M\", \"data_id\": 3, \"answer\": \"A\"}\n\
             {\"category\": \"M\", \"data_id\": 99999999999, \"answer\": \"B\"}\n",
        )
        .unwrap();
        assert_eq!(k.get(99_999_999_999).unwrap().answer, 'B');
        assert_eq!(k.get(3).unwrap().answer, 'A');
        assert!(k.get(4).is_none());
    }

    #[test]
    fn detect_formats() {
        assert_eq!(
            detect("x.tsv", b"index\tquestion\tA\tB\tanswer\tprediction\n"),
            Some(MmiqFormat::VlmEvalKit(TableKind::Tsv))
        );
        assert_eq!(
            detect("x.json", b"[{\"index\": 0, \"prediction\": \"A\"}]"),
            Some(MmiqFormat::VlmEvalKit(TableKind::Json))
        );
        assert_eq!(
            detect("x.json", b"{\"data_id\": 0, \"parsed_pred\": \"A\"}\n"),
            Some(MmiqFormat::PredictionsJsonl)
        );
        assert_eq!(
            detect("r.csv", b"\"split\",\"Overall\",\"Mathematical\"\n"),
            Some(MmiqFormat::VlmEvalKitAcc)
        );
        assert_eq!(detect("x.bin", b"\x00\x01"), None);
    }
}
