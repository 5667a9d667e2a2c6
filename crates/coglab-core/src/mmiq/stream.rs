//! Scoring MM-IQ predictions (JSONL) as they are read, against a [`CompactKey`] (issue 43).
//!
//! [`PredictionsReader`](super::PredictionsReader) keeps every row of a file, then
//! [`score_totals`](super::score_totals) scores them: memory grows with the file. A
//! [`StreamScorer`] takes the file in slices as the reader does and scores each row as soon as
//! its line is complete, keeping only the running totals (counts, warnings, the response
//! lengths for their median): its memory is a slice of the file, the compact key and 16 bytes
//! per scored response. The key may come after the first slices (it is read on another
//! thread): until [`StreamScorer::set_key`], each row is held in a few bytes (its id, line,
//! letter and the position of its category among the file's categories), then scored.
//!
//! The report is the one [`score_totals`](super::score_totals) gives for the same files (no
//! item results), and each problem is the same located error, with the key's first.

use super::compact::CompactKey;
use super::input::{bad, SeenIds, TextLength};
use super::jsonfast::Value;
use super::jsonl::{data_id, fields, Lines};
use super::score::{KeyHit, RowView, Tally};
use super::{MmiqError, MmiqReport};
use crate::location::Location;
use std::collections::HashMap;

/// Scores MM-IQ predictions JSONL slice by slice against a [`CompactKey`].
///
/// # Examples
/// ```
/// use coglab_core::mmiq::{CompactKey, StreamScorer};
/// let key = CompactKey::parse("key.jsonl", concat!(
///     r#"{"category": "Mathematical", "data_id": 0, "answer": "B"}"#, "\n",
///     r#"{"category": "Mathematical", "data_id": 1, "answer": "C"}"#, "\n")).unwrap();
/// let mut s = StreamScorer::new("p.jsonl");
/// s.push(b"{\"data_id\": 0, \"response\": \"The answer is B.\"}\n{\"data_id\": 1, \"res").unwrap();
/// s.set_key(key); // the rows read so far are scored now, the next ones as they come
/// s.push(b"ponse\": \"A\"}\n{\"data_id\": 9, \"parsed_pred\": \"A\"}").unwrap();
/// let r = s.finish().unwrap();
/// assert_eq!((r.overall.correct, r.overall.n, r.rows.read, r.rows.skipped), (1, 2, 3, 1));
/// ```
#[derive(Debug)]
pub struct StreamScorer {
    lines: Lines,
    state: State,
}

/// A row read before the key came: what scoring it needs, in a few bytes.
#[derive(Debug, Clone, Copy)]
struct Held {
    line: usize,
    data_id: u64,
    /// The position of its category in [`State::categories`].
    category: Option<u32>,
    answer: Answer,
    had_both: bool,
    length: Option<TextLength>,
}

/// A row's answer.
#[derive(Debug, Clone, Copy)]
enum Answer {
    /// `A`..`E` or `Z` (an extracted answer is always one of them).
    Letter(u8),
    /// Another `parsed_pred`, by its position in [`State::given`].
    Given(u32),
}

/// What a [`StreamScorer`] has read and counted so far.
#[derive(Debug)]
struct State {
    /// The first line of each id, to refuse a second row for it as the readers do.
    seen: SeenIds,
    scratch: String,
    /// Rows read (blank lines not counted).
    read: usize,
    /// Until the key comes: the rows read, and the categories and odd `parsed_pred` values
    /// they name.
    held: Vec<Held>,
    categories: Vec<String>,
    category_of: HashMap<String, u32>,
    given: Vec<String>,
    /// From the key on: the key and the totals.
    scoring: Option<(CompactKey, Tally)>,
}

impl StreamScorer {
    /// A scorer of the predictions file `file_name` (used in error messages and the report).
    pub fn new(file_name: &str) -> Self {
        Self {
            lines: Lines::new(file_name),
            state: State {
                seen: SeenIds::default(),
                scratch: String::new(),
                read: 0,
                held: Vec::new(),
                categories: Vec::new(),
                category_of: HashMap::new(),
                given: Vec::new(),
                scoring: None,
            },
        }
    }

    /// Whether the key was given ([`StreamScorer::set_key`]).
    pub fn has_key(&self) -> bool {
        self.state.scoring.is_some()
    }

    /// Gives the key: the rows held so far are scored, the next ones as they are read. A
    /// second key is ignored.
    pub fn set_key(&mut self, key: CompactKey) {
        let s = &mut self.state;
        if s.scoring.is_some() {
            return;
        }
        let mut tally = Tally::new(&self.lines.file, &key.file, key.categories.len());
        for h in std::mem::take(&mut s.held) {
            let category = h.category.map(|c| s.categories[c as usize].as_str());
            score(&mut tally, &key, &h, category, &s.given);
        }
        s.categories = Vec::new();
        s.category_of = HashMap::new();
        s.given = Vec::new();
        s.scoring = Some((key, tally));
    }

    /// Reads the next slice of the file, scoring its complete lines (or holding them until
    /// the key comes).
    ///
    /// # Errors
    /// As [`PredictionsReader::push`](super::PredictionsReader::push), for the first bad
    /// line completed by this slice; the scorer should then be dropped.
    pub fn push(&mut self, bytes: &[u8]) -> Result<(), MmiqError> {
        let state = &mut self.state;
        self.lines.push(bytes, &mut |file, line_no, line| {
            state.line(file, line_no, line)
        })
    }

    /// Ends the file and gives the report (without item results: [`MmiqReport::items`] is
    /// empty).
    ///
    /// # Errors
    /// As [`PredictionsReader::finish`](super::PredictionsReader::finish) for the last line
    /// and an empty file; [`MmiqError::NothingScored`]. Ending without a key is
    /// [`MmiqError::NothingScored`] too (no row could be scored).
    pub fn finish(mut self) -> Result<MmiqReport, MmiqError> {
        let state = &mut self.state;
        self.lines
            .finish(&mut |file, line_no, line| state.line(file, line_no, line))?;
        let file = self.lines.file;
        if self.state.read == 0 {
            return Err(MmiqError::Empty {
                file,
                expected: "one prediction object per line",
            });
        }
        let Some((key, mut tally)) = self.state.scoring else {
            return Err(MmiqError::NothingScored {
                file,
                key_file: String::new(),
                read: self.state.read,
            });
        };
        tally.rows.read = self.state.read;
        tally.rows.blank_lines = self.lines.blank;
        // The ids of the rows are distinct (a second row for an id is an error), so the key's
        // items with a prediction are the rows scored.
        tally.rows.key_items_without_prediction = key.len() - tally.rows.scored;
        tally.finish(&key.categories, key.letter_counts(), key.len())
    }
}

/// Scores one row against the key.
fn score(
    tally: &mut Tally,
    key: &CompactKey,
    row: &Held,
    category: Option<&str>,
    given: &[String],
) {
    let Some(hit): Option<KeyHit> = key.hit(row.data_id) else {
        tally.skip(row.line, row.data_id);
        return;
    };
    let view = RowView {
        line: row.line,
        data_id: row.data_id,
        category,
        file_answer: None,
        had_both: row.had_both,
    };
    tally.check(&key.categories, &view, hit);
    let parsed = match row.answer {
        Answer::Letter(b) => letter(b),
        Answer::Given(i) => given.get(i as usize).map_or("", String::as_str),
    };
    tally.count(hit, row.line, parsed, row.length);
}

/// `A`..`E` or `Z` as text.
fn letter(b: u8) -> &'static str {
    match b {
        b'A' => "A",
        b'B' => "B",
        b'C' => "C",
        b'D' => "D",
        b'E' => "E",
        _ => "Z",
    }
}

impl State {
    /// One predictions line, read as [`PredictionsReader::letters_only`] reads it (same
    /// checks, same errors), then scored or held.
    ///
    /// [`PredictionsReader::letters_only`]: super::PredictionsReader::letters_only
    fn line(&mut self, file: &str, line_no: usize, line: &str) -> Result<(), MmiqError> {
        let f = fields(file, line_no, line)?;
        let loc = || Location::file(file).at_line(line_no);
        let data_id = data_id(file, line_no, f.data_id)?;
        if let Some(first_line) = self.seen.insert(data_id, line_no) {
            return Err(MmiqError::DuplicateId {
                location: loc().in_field("data_id"),
                data_id,
                first_line,
            });
        }
        let category = match f.category {
            None | Some(Value::Other(super::input::Scalar::Null)) => None,
            Some(v @ (Value::Str(_) | Value::Other(super::input::Scalar::Str(_)))) => Some(v),
            Some(other) => return Err(bad(&loc(), "category", "a string", &other.into_scalar())),
        };
        let had_both = f.response.is_some() && f.parsed_pred.is_some();
        self.read += 1;
        // The answer: given as `parsed_pred`, else extracted from the response.
        let (answer, length) = match (&f.parsed_pred, &f.response) {
            (Some(p), _) => match p.with_str(&mut self.scratch, given_letter) {
                Some(Some(b)) => (Answer::Letter(b), None),
                Some(None) => {
                    let text = p
                        .with_str(&mut self.scratch, str::to_string)
                        .unwrap_or_default();
                    self.given.push(text);
                    (Answer::Given(self.given.len() as u32 - 1), None)
                }
                None => {
                    let found = p.clone().into_scalar();
                    return Err(bad(&loc(), "parsed_pred", "a string", &found));
                }
            },
            (None, Some(response)) => {
                let read = response.with_str(&mut self.scratch, |r| {
                    let letter = super::extract::extract(r).recorded();
                    (letter as u8, TextLength::of(r))
                });
                match read {
                    Some((b, length)) => (Answer::Letter(b), Some(length)),
                    None => {
                        let found = response.clone().into_scalar();
                        return Err(bad(&loc(), "response", "a string", &found));
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
        let mut held = Held {
            line: line_no,
            data_id,
            category: None,
            answer,
            had_both,
            length,
        };
        if let Some((key, tally)) = &mut self.scoring {
            let given = &self.given;
            match category {
                Some(v) => {
                    v.with_str(&mut self.scratch, |c| {
                        score(tally, key, &held, Some(c), given)
                    });
                }
                None => score(tally, key, &held, None, given),
            }
            self.given.clear();
            return Ok(());
        }
        if let Some(v) = category {
            let (categories, category_of) = (&mut self.categories, &mut self.category_of);
            held.category = v.with_str(&mut self.scratch, |c| match category_of.get(c) {
                Some(&i) => i,
                None => {
                    category_of.insert(c.to_string(), categories.len() as u32);
                    categories.push(c.to_string());
                    categories.len() as u32 - 1
                }
            });
        }
        self.held.push(held);
        Ok(())
    }
}

/// A `parsed_pred` that is one of `A`..`E` or `Z`, as its letter.
fn given_letter(p: &str) -> Option<u8> {
    match p {
        "A" | "B" | "C" | "D" | "E" | "Z" => Some(p.as_bytes()[0]),
        _ => None,
    }
}
