//! A compact MM-IQ answer key: per item only the few bytes scoring needs (issue 43).
//!
//! [`AnswerKey`](super::AnswerKey) keeps every item as the file gives it (its category and
//! `MD5` as strings, in a list with an index by id), which the item views, the leaderboard and
//! the publish path show. Scoring a predictions file needs per item only its answer letter and
//! its category, and an `MD5` only where a harness maps records by it. [`CompactKey`] keeps
//! that: one `u32` per `data_id` (the answer and the category's position), in a vector indexed
//! by id for ids below 2^20 and in a hash map above; each category's name once; the answer
//! letters counted per category (for the majority-letter baselines); and the `MD5`s, 16 bytes
//! each, only when asked for ([`CompactKeyReader::with_md5`]). So a key of 100,000 items is
//! about 0.4 MB where the full key is about 17 MB, and a predictions file scored as it is read
//! ([`super::stream`]) needs no more than that and a slice of the file.
//!
//! [`CompactKeyReader`] reads a key in slices as [`KeyReader`](super::KeyReader) does, with the
//! same errors (file, line, field, expected and found) for the same lines.

use super::input::{IdHasher, IdMap, SeenIds, DENSE_IDS};
use super::jsonl::{key_line, Lines};
use super::score::{letter_index, KeyHit};
use super::MmiqError;
use crate::location::Location;
use std::collections::HashMap;
use std::hash::BuildHasherDefault;

/// The most categories a compact key holds (the category's position shares a `u32` with the
/// answer's three bits).
const MAX_CATEGORIES: usize = 1 << 29;

/// An MM-IQ answer key as scoring needs it: per `data_id` the answer and the category.
///
/// # Examples
/// ```
/// use coglab_core::mmiq::CompactKey;
/// let key = CompactKey::parse("key.jsonl", concat!(
///     r#"{"category": "Mathematical", "MD5": "a", "data_id": 0, "answer": "B"}"#, "\n",
///     r#"{"category": "2D-Geometry", "MD5": "b", "data_id": 7, "answer": "D"}"#, "\n",
/// )).unwrap();
/// assert_eq!((key.len(), key.answer(7), key.category(7)), (2, Some('D'), Some("2D-Geometry")));
/// assert_eq!(key.answer(1), None);
/// ```
#[derive(Debug, Clone)]
pub struct CompactKey {
    /// File name the key was read from.
    pub file: String,
    /// The distinct categories, in order of first appearance.
    pub categories: Vec<String>,
    /// `dense[id]`: the item's entry ([`entry`]; 0: no item), for ids below [`DENSE_IDS`].
    dense: Vec<u32>,
    /// The entries of larger ids.
    sparse: IdMap<u32>,
    /// Number of items.
    len: usize,
    /// Per category, how many items have each answer `A`..`E`.
    letters: Vec<[u64; 5]>,
    /// The items' `MD5`s, when read ([`CompactKeyReader::with_md5`]).
    md5: Option<Md5Index>,
}

/// An item's answer (`A`..`E` as 1..5 in the low three bits) and its category's position.
fn entry(answer: char, category: usize) -> u32 {
    // `category` < MAX_CATEGORIES, checked by the reader.
    ((category as u32) << 3) | (letter_index(answer) as u32 + 1)
}

/// The `MD5`s of a key's items, to map harness records that carry a hash instead of an id.
/// Compared as MM-IQ's harness mapping compares them, without regard to case: a 32-digit hex
/// string is kept as its 16 bytes, anything else as lower-case text.
#[derive(Debug, Clone, Default)]
struct Md5Index {
    hex: HashMap<[u8; 16], u64, BuildHasherDefault<IdHasher>>,
    other: HashMap<String, u64>,
}

impl Md5Index {
    /// Records `md5` for `data_id` (a later item with the same `MD5` replaces an earlier one).
    fn insert(&mut self, md5: &str, data_id: u64) {
        match hex16(md5) {
            Some(bytes) => self.hex.insert(bytes, data_id),
            None => self.other.insert(md5.to_ascii_lowercase(), data_id),
        };
    }

    fn get(&self, md5: &str) -> Option<u64> {
        match hex16(md5) {
            Some(bytes) => self.hex.get(&bytes).copied(),
            None => self.other.get(&md5.to_ascii_lowercase()).copied(),
        }
    }
}

/// The 16 bytes of a 32-digit hex string (either case), or `None`.
fn hex16(s: &str) -> Option<[u8; 16]> {
    let b = s.as_bytes();
    if b.len() != 32 {
        return None;
    }
    let digit = |c: u8| char::from(c).to_digit(16).map(|d| d as u8);
    let mut out = [0u8; 16];
    for (o, pair) in out.iter_mut().zip(b.chunks_exact(2)) {
        *o = (digit(pair[0])? << 4) | digit(pair[1])?;
    }
    Some(out)
}

impl CompactKey {
    /// Reads a whole answer key (`MMIQ_benchmark_answer_dict.jsonl`; see
    /// [`AnswerKey::parse`](super::AnswerKey::parse) for the format), without the `MD5`s.
    ///
    /// # Errors
    /// As [`AnswerKey::parse`](super::AnswerKey::parse).
    pub fn parse(file_name: &str, text: &str) -> Result<Self, MmiqError> {
        let mut reader = CompactKeyReader::new(file_name);
        reader.push(text.as_bytes())?;
        reader.finish()
    }

    fn entry_of(&self, data_id: u64) -> Option<u32> {
        let e = if data_id < DENSE_IDS {
            *self.dense.get(usize::try_from(data_id).ok()?)?
        } else {
            *self.sparse.get(&data_id)?
        };
        (e != 0).then_some(e)
    }

    /// What scoring needs of the item `data_id`, if the key has it.
    pub(super) fn hit(&self, data_id: u64) -> Option<KeyHit> {
        self.entry_of(data_id).map(|e| KeyHit {
            answer: char::from(b'A' + (e & 7) as u8 - 1),
            category: (e >> 3) as usize,
        })
    }

    /// The answer of item `data_id`, if the key has it.
    pub fn answer(&self, data_id: u64) -> Option<char> {
        self.hit(data_id).map(|h| h.answer)
    }

    /// The category of item `data_id`, if the key has it.
    pub fn category(&self, data_id: u64) -> Option<&str> {
        self.hit(data_id)
            .and_then(|h| self.categories.get(h.category))
            .map(String::as_str)
    }

    /// The item whose `MD5` is `md5` (without regard to case), when the key was read with its
    /// `MD5`s ([`CompactKeyReader::with_md5`]); `None` otherwise.
    ///
    /// ```
    /// use coglab_core::mmiq::CompactKeyReader;
    /// let mut r = CompactKeyReader::new("key.jsonl").with_md5();
    /// r.push(br#"{"category": "M", "MD5": "0A1B2C3D4E5F60718293A4B5C6D7E8F9", "data_id": 4, "answer": "A"}"#).unwrap();
    /// let key = r.finish().unwrap();
    /// assert_eq!(key.md5_id("0a1b2c3d4e5f60718293a4b5c6d7e8f9"), Some(4));
    /// assert_eq!(key.md5_id("0a1b"), None);
    /// ```
    pub fn md5_id(&self, md5: &str) -> Option<u64> {
        self.md5.as_ref()?.get(md5)
    }

    /// Per category (in [`CompactKey::categories`] order), how many items have each answer
    /// `A`..`E`.
    pub(super) fn letter_counts(&self) -> &[[u64; 5]] {
        &self.letters
    }

    /// Number of items.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the key has no items (never true for a key read by [`CompactKeyReader`]).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// Reads an MM-IQ answer key (JSONL) in slices into a [`CompactKey`].
///
/// # Examples
/// ```
/// use coglab_core::mmiq::CompactKeyReader;
/// let mut r = CompactKeyReader::new("key.jsonl");
/// r.push(br#"{"category": "Mathematical", "data_id": 0, "ans"#).unwrap();
/// r.push(b"wer\": \"B\"}\n").unwrap();
/// assert_eq!(r.finish().unwrap().answer(0), Some('B'));
/// ```
#[derive(Debug)]
pub struct CompactKeyReader {
    lines: Lines,
    state: KeyState,
}

/// What a [`CompactKeyReader`] has read so far.
#[derive(Debug)]
struct KeyState {
    key: CompactKey,
    /// The first line of each id, to name it when the id comes again.
    seen: SeenIds,
    /// The first id given twice: reported when the file has been read, as
    /// [`AnswerKey`](super::AnswerKey) reports it, so that a bad line anywhere comes first.
    duplicate: Option<MmiqError>,
    /// The key's categories by name, to their position.
    category_of: HashMap<String, usize, BuildHasherDefault<IdHasher>>,
    scratch: String,
}

impl CompactKeyReader {
    /// A reader for the key file `file_name` (used in error messages).
    pub fn new(file_name: &str) -> Self {
        Self {
            lines: Lines::new(file_name),
            state: KeyState {
                key: CompactKey {
                    file: file_name.to_string(),
                    categories: Vec::new(),
                    dense: Vec::new(),
                    sparse: IdMap::default(),
                    len: 0,
                    letters: Vec::new(),
                    md5: None,
                },
                seen: SeenIds::default(),
                duplicate: None,
                category_of: HashMap::default(),
                scratch: String::new(),
            },
        }
    }

    /// Keeps the items' `MD5`s as well ([`CompactKey::md5_id`]), for harness files whose
    /// records carry a hash instead of an id.
    #[must_use]
    pub fn with_md5(mut self) -> Self {
        self.state.key.md5 = Some(Md5Index::default());
        self
    }

    /// Reads the next slice of the file.
    ///
    /// # Errors
    /// As [`KeyReader::push`](super::KeyReader::push).
    pub fn push(&mut self, bytes: &[u8]) -> Result<(), MmiqError> {
        let state = &mut self.state;
        self.lines.push(bytes, &mut |file, line_no, line| {
            state.line(file, line_no, line)
        })
    }

    /// Ends the file and gives the key.
    ///
    /// # Errors
    /// As [`KeyReader::finish`](super::KeyReader::finish).
    pub fn finish(mut self) -> Result<CompactKey, MmiqError> {
        let state = &mut self.state;
        self.lines
            .finish(&mut |file, line_no, line| state.line(file, line_no, line))?;
        let KeyState { key, duplicate, .. } = self.state;
        if key.len == 0 {
            return Err(MmiqError::Empty {
                file: key.file,
                expected: "one answer-key object per line",
            });
        }
        match duplicate {
            Some(e) => Err(e),
            None => Ok(key),
        }
    }
}

impl KeyState {
    fn line(&mut self, file: &str, line_no: usize, line: &str) -> Result<(), MmiqError> {
        let k = key_line(file, line_no, line, &mut self.scratch)?;
        let (key, category_of) = (&mut self.key, &mut self.category_of);
        let category = k
            .category
            .with_str(&mut self.scratch, |name| match category_of.get(name) {
                Some(&c) => Some(c),
                None if key.categories.len() < MAX_CATEGORIES => {
                    category_of.insert(name.to_string(), key.categories.len());
                    key.categories.push(name.to_string());
                    key.letters.push([0; 5]);
                    Some(key.categories.len() - 1)
                }
                None => None,
            })
            .flatten()
            .ok_or_else(|| MmiqError::BadValue {
                location: Location::file(file).at_line(line_no).in_field("category"),
                expected: format!("at most {MAX_CATEGORIES} distinct categories in a key"),
                found: "more".into(),
            })?;
        if self.duplicate.is_none() {
            if let Some(first_line) = self.seen.insert(k.data_id, line_no) {
                self.duplicate = Some(MmiqError::DuplicateId {
                    location: Location::file(file).at_line(line_no).in_field("data_id"),
                    data_id: k.data_id,
                    first_line,
                });
            }
        }
        if let (Some(index), Some(md5)) = (&mut key.md5, &k.md5) {
            md5.with_str(&mut self.scratch, |m| index.insert(m, k.data_id));
        }
        let e = entry(k.answer, category);
        if k.data_id < DENSE_IDS {
            let i = k.data_id as usize;
            if i >= key.dense.len() {
                key.dense.resize(i + 1, 0);
            }
            key.dense[i] = e;
        } else {
            key.sparse.insert(k.data_id, e);
        }
        key.letters[category][letter_index(k.answer)] += 1;
        key.len += 1;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex16_reads_32_hex_digits_in_either_case() {
        let want = [
            0x0a, 0x1b, 0x2c, 0x3d, 0x4e, 0x5f, 0x60, 0x71, 0x82, 0x93, 0xa4, 0xb5, 0xc6, 0xd7,
            0xe8, 0xf9,
        ];
        assert_eq!(hex16("0a1b2c3d4e5f60718293a4b5c6d7e8f9"), Some(want));
        assert_eq!(hex16("0A1B2C3D4E5F60718293A4B5C6D7E8F9"), Some(want));
        assert_eq!(hex16("0a1b2c3d4e5f60718293a4b5c6d7e8fg"), None);
        assert_eq!(hex16("0a1b"), None);
        assert_eq!(hex16("+a1b2c3d4e5f60718293a4b5c6d7e8f9"), None);
    }

    #[test]
    fn entries_keep_answer_and_category() {
        for (answer, category) in [('A', 0), ('E', 7), ('C', MAX_CATEGORIES - 1)] {
            let e = entry(answer, category);
            assert_ne!(e, 0);
            assert_eq!(
                (e & 7, (e >> 3) as usize),
                (letter_index(answer) as u32 + 1, category)
            );
        }
    }
}
