//! Scoring MM-IQ predictions against the key, and comparing two models on the same items.

use super::extract::{extract, NO_ANSWER};
use super::input::{AnswerKey, PredContent, PredRecord, Predictions, TextLength};
use super::{MmiqError, CATEGORIES};
use crate::stats::interval::Accuracy;
use crate::stats::paired::{mcnemar_exact_p, paired_bootstrap_diff, BootstrapDiff, PairedTable};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::collections::BTreeMap;

/// The chance accuracy MM-IQ reports as its baseline (25%: most items have four options).
pub const CHANCE: f64 = 0.25;

/// One row of the paper's Table 3 (§5.2, "Avg. Token Length").
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct PaperTokenLength {
    /// The model as the paper names it.
    pub model: &'static str,
    /// Average response length in tokens (the paper's tokenizer, not given).
    pub tokens: f64,
}

/// MM-IQ's Table 3: Gemini-1.5-Pro (short CoT) 98 tokens, Gemini-2.5-Pro (long CoT) 2,130. The
/// paper does not say which tokenizer counted them, so they compare with
/// [`ResponseLength`]'s whitespace tokens only roughly.
pub const PAPER_TOKEN_LENGTHS: [PaperTokenLength; 2] = [
    PaperTokenLength {
        model: "Gemini-1.5-Pro (Short CoT)",
        tokens: 98.0,
    },
    PaperTokenLength {
        model: "Gemini-2.5-Pro (Long CoT)",
        tokens: 2130.0,
    },
];

/// Response length over a predictions file's free-form responses (scored rows only).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct ResponseLength {
    /// Responses measured.
    pub n: u64,
    /// Mean characters.
    pub chars_mean: f64,
    /// Median characters (mean of the two middle values for even n).
    pub chars_median: f64,
    /// Mean whitespace tokens.
    pub tokens_mean: f64,
    /// Median whitespace tokens.
    pub tokens_median: f64,
}

impl ResponseLength {
    /// Mean and median of the lengths, or `None` for none.
    ///
    /// # Examples
    /// ```
    /// use coglab_core::mmiq::{ResponseLength, TextLength};
    /// let r = ResponseLength::of(&[
    ///     TextLength { chars: 10, tokens: 2 },
    ///     TextLength { chars: 20, tokens: 3 },
    ///     TextLength { chars: 90, tokens: 10 },
    /// ]).unwrap();
    /// // chars: mean 120/3 = 40, median 20; tokens: mean 15/3 = 5, median 3.
    /// assert_eq!((r.chars_mean, r.chars_median, r.tokens_mean, r.tokens_median), (40.0, 20.0, 5.0, 3.0));
    /// ```
    pub fn of(lengths: &[TextLength]) -> Option<Self> {
        use crate::stats::describe::{mean, median};
        let chars: Vec<f64> = lengths.iter().map(|l| l.chars as f64).collect();
        let tokens: Vec<f64> = lengths.iter().map(|l| l.tokens as f64).collect();
        Some(Self {
            n: lengths.len() as u64,
            chars_mean: mean(&chars).ok()?,
            chars_median: median(&chars).ok()?,
            tokens_mean: mean(&tokens).ok()?,
            tokens_median: median(&tokens).ok()?,
        })
    }
}

/// The answer key's letters over a set of items, and the accuracy of always giving the most
/// common one.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct LetterBaseline {
    /// Items counted.
    pub n: u64,
    /// Key answers per letter (`A`..`E`, letters that occur).
    pub counts: BTreeMap<String, u64>,
    /// The most common letter (the first in A-E order on a tie).
    pub majority: String,
    /// Its share: the accuracy of answering it to every item.
    pub majority_share: f64,
}

impl LetterBaseline {
    /// The baseline of letters counted per letter (`counts[0]` for `A` .. `counts[4]` for `E`;
    /// counted so, a letter costs no allocation). Letters counted 0 are left out, as a tally
    /// of the letters that occur has them.
    fn from_counts(tally: &[u64; 5]) -> Self {
        let counts: BTreeMap<String, u64> = LETTERS
            .iter()
            .zip(tally)
            .filter(|(_, k)| **k > 0)
            .map(|(c, k)| ((*c).to_string(), *k))
            .collect();
        let n = counts.values().sum();
        // BTreeMap order is A-E; `max_by_key` keeps the last maximum, so reverse it.
        let (majority, top) = counts
            .iter()
            .rev()
            .max_by_key(|(_, c)| **c)
            .map_or((String::new(), 0), |(l, c)| (l.clone(), *c));
        Self {
            n,
            majority_share: if n == 0 { 0.0 } else { top as f64 / n as f64 },
            counts,
            majority,
        }
    }
}

/// The key's letters, in the order of [`letter_index`].
const LETTERS: [&str; 5] = ["A", "B", "C", "D", "E"];

/// The position of a key letter in `A`..`E` (a key's answers are always one of them).
pub(super) fn letter_index(c: char) -> usize {
    (c as usize).wrapping_sub('A' as usize).min(4)
}

/// The key's answer-letter distribution and the majority-letter baselines, beside the 25% chance
/// line (a key whose letters are uneven makes a constant answer beat chance).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct KeyLetters {
    /// Over every item of the key.
    pub key: LetterBaseline,
    /// Per category over the key.
    pub by_category: BTreeMap<String, LetterBaseline>,
    /// The accuracy of answering each category's own majority letter (Σ per-category maxima /
    /// key items): a baseline that knows the paradigm but not the item.
    pub per_category_majority: f64,
    /// Over the items the report scored (the majority letter of those items).
    pub scored: LetterBaseline,
}

/// The key's letters over all its items (with `scored` over the same items).
///
/// # Examples
/// ```
/// use coglab_core::mmiq::{key_letters, AnswerKey};
/// let key = AnswerKey::parse("key.jsonl", concat!(
///     r#"{"category": "Mathematical", "data_id": 0, "answer": "B"}"#, "\n",
///     r#"{"category": "Mathematical", "data_id": 1, "answer": "B"}"#, "\n",
///     r#"{"category": "2D-Geometry", "data_id": 2, "answer": "A"}"#, "\n")).unwrap();
/// let l = key_letters(&key);
/// assert_eq!((l.key.majority.as_str(), l.key.majority_share), ("B", 2.0 / 3.0));
/// assert_eq!(l.per_category_majority, 1.0);
/// ```
pub fn key_letters(key: &AnswerKey) -> KeyLetters {
    let per_category = key.letter_counts();
    let all = per_category.iter().fold([0; 5], add_counts);
    letters_of(&key.categories, &per_category, key.len(), &all)
}

fn add_counts(mut sum: [u64; 5], counts: &[u64; 5]) -> [u64; 5] {
    for (s, c) in sum.iter_mut().zip(counts) {
        *s += c;
    }
    sum
}

/// The baselines of a key whose items have, per category, `per_category` letters (`A`..`E`
/// counts; `items` in all), with `scored` counting the key letters of the items scored.
pub(super) fn letters_of(
    categories: &[String],
    per_category: &[[u64; 5]],
    items: usize,
    scored: &[u64; 5],
) -> KeyLetters {
    let by_category: BTreeMap<String, LetterBaseline> = categories
        .iter()
        .zip(per_category)
        .map(|(c, tally)| (c.clone(), LetterBaseline::from_counts(tally)))
        .collect();
    let best: u64 = by_category
        .values()
        .map(|b: &LetterBaseline| b.counts.get(&b.majority).copied().unwrap_or(0))
        .sum();
    KeyLetters {
        key: LetterBaseline::from_counts(&per_category.iter().fold([0; 5], add_counts)),
        per_category_majority: if items == 0 {
            0.0
        } else {
            best as f64 / items as f64
        },
        by_category,
        scored: LetterBaseline::from_counts(scored),
    }
}

/// How many example messages each warning kind keeps (the counts are always complete).
const EXAMPLES_PER_KIND: usize = 5;

/// The human row of MM-IQ's Table 2 (seed 001), as fractions.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HumanReference {
    /// Where the numbers come from.
    pub source: String,
    /// Mean human accuracy (51.27% in the paper).
    pub overall: f64,
    /// Human accuracy per paradigm, keyed by the answer key's category names.
    pub by_category: BTreeMap<String, f64>,
}

impl HumanReference {
    /// The paper's values: mean 51.27%; LO 61.36, Math 45.03, 2D-G 60.11, 3D-G 47.48,
    /// VI 46.67, TM 55.61, SR 36.63, CO 65.79 (%).
    ///
    /// # Examples
    /// ```
    /// let h = coglab_core::mmiq::HumanReference::paper();
    /// assert_eq!(h.overall, 0.5127);
    /// assert_eq!(h.by_category["Concrete Object"], 0.6579);
    /// ```
    pub fn paper() -> Self {
        const VALUES: [f64; 8] = [
            0.6136, 0.4503, 0.6011, 0.4748, 0.4667, 0.5561, 0.3663, 0.6579,
        ];
        Self {
            source: "MM-IQ paper (seed 001), Table 2, row \"Human Performance\"".into(),
            overall: 0.5127,
            by_category: CATEGORIES
                .iter()
                .zip(VALUES)
                .map(|(c, v)| ((*c).to_string(), v))
                .collect(),
        }
    }
}

/// How many rows were read, scored and skipped.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct RowCounts {
    /// Prediction rows read (blank lines excluded).
    pub read: usize,
    /// Rows scored against the key.
    pub scored: usize,
    /// Rows not scored (see `skipped_by_reason`).
    pub skipped: usize,
    /// Blank lines ignored (JSONL).
    pub blank_lines: usize,
    /// Rows skipped, by reason.
    pub skipped_by_reason: BTreeMap<String, usize>,
    /// Key items that have no prediction (they do not enter the accuracy, as in MM-IQ's script).
    pub key_items_without_prediction: usize,
    /// Scored rows with no extractable answer (recorded as `Z`, counted wrong).
    pub no_answer: usize,
}

/// Counted warnings: problems the key could resolve, by kind, with a few example messages.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Warnings {
    /// Number of occurrences per kind.
    pub counts: BTreeMap<String, usize>,
    /// Up to five example messages per kind (file, line and what was found).
    pub examples: Vec<String>,
}

impl Warnings {
    pub(crate) fn add(&mut self, kind: &str, message: impl FnOnce() -> String) {
        let count = self.counts.entry(kind.to_string()).or_insert(0);
        *count += 1;
        if *count <= EXAMPLES_PER_KIND {
            self.examples.push(message());
        }
    }

    /// Total number of warnings.
    pub fn total(&self) -> usize {
        self.counts.values().sum()
    }
}

/// One scored item, for item-level views and comparisons.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ItemResult {
    /// Item id.
    pub data_id: u64,
    /// The key's category.
    pub category: String,
    /// The raw response, when the file gave one (absent for `parsed_pred` rows).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub response: Option<String>,
    /// The extracted (or given) answer: `A`-`E`, or `Z` for no answer.
    pub parsed: Cow<'static, str>,
    /// The key's answer.
    pub key: char,
    /// Whether `parsed` equals the key.
    pub correct: bool,
    /// Line or row in the predictions file.
    pub line: usize,
}

/// The result of scoring one predictions file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MmiqReport {
    /// Always `"mmiq"`.
    pub benchmark: String,
    /// Predictions file.
    pub file: String,
    /// Answer key file.
    pub key_file: String,
    /// Accuracy over all scored items (micro average, item-weighted, as MM-IQ's script).
    pub overall: Accuracy,
    /// Accuracy per category present among the scored items.
    pub by_category: BTreeMap<String, Accuracy>,
    /// The 25% chance baseline.
    pub chance: f64,
    /// The key's answer letters and the majority-letter baselines (beside `chance`).
    #[serde(default)]
    pub letters: KeyLetters,
    /// Length of the free-form responses scored (`None` when the file gives only parsed
    /// letters), beside the paper's Table 3 ([`PAPER_TOKEN_LENGTHS`]).
    #[serde(default)]
    pub response_length: Option<ResponseLength>,
    /// The paper's human row.
    pub human: HumanReference,
    /// Rows read, scored, skipped.
    pub rows: RowCounts,
    /// Counted warnings.
    pub warnings: Warnings,
    /// Item-level results in file order (may be cleared before printing).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub items: Vec<ItemResult>,
    /// The harness that produced the file, how its records mapped onto items and where its
    /// verdicts differ from ours (`None` for MM-IQ's own formats; see [`crate::harness`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub harness: Option<Box<crate::provenance::HarnessInfo>>,
}

/// Scores predictions against the key, extracting letters from free-form responses with
/// MM-IQ's rules ([`super::extract`]).
///
/// Every row is accounted for in [`MmiqReport::rows`]: a `data_id` missing from the key is
/// skipped and counted; a category that differs from the key's (or is not one of the key's) is a
/// counted warning and the key's category is used; so is a VLMEvalKit `answer` that differs from
/// the key, a `parsed_pred` that is not one of `A`-`E`/`Z`, and a row with both `response` and
/// `parsed_pred`.
///
/// # Errors
/// [`MmiqError::NothingScored`] when no row has an id in the key.
///
/// # Examples
/// ```
/// use coglab_core::mmiq::{score, AnswerKey, Predictions};
/// let key = AnswerKey::parse("key.jsonl", concat!(
///     r#"{"category": "Mathematical", "data_id": 0, "answer": "B"}"#, "\n",
///     r#"{"category": "Mathematical", "data_id": 1, "answer": "C"}"#, "\n")).unwrap();
/// let preds = Predictions::parse("p.jsonl", concat!(
///     r#"{"data_id": 0, "response": "The answer is B."}"#, "\n",
///     r#"{"data_id": 1, "response": "I am not sure which one fits the pattern in this grid"}"#, "\n",
///     r#"{"data_id": 7, "response": "A"}"#).as_bytes()).unwrap();
/// let r = score(&key, &preds).unwrap();
/// assert_eq!((r.overall.correct, r.overall.n), (1, 2));
/// assert_eq!(r.rows.skipped, 1);
/// assert_eq!(r.items[1].parsed, "Z");
/// ```
pub fn score(key: &AnswerKey, preds: &Predictions) -> Result<MmiqReport, MmiqError> {
    score_records(
        key,
        &preds.file,
        preds.blank_lines,
        preds.records.iter().map(Cow::Borrowed),
        true,
    )
}

/// [`score`] taking the predictions by value, so the responses move into the item results
/// instead of being copied (what the CLI does; faster on large files).
///
/// # Errors
/// As [`score`].
pub fn score_owned(key: &AnswerKey, preds: Predictions) -> Result<MmiqReport, MmiqError> {
    score_records(
        key,
        &preds.file,
        preds.blank_lines,
        preds.records.into_iter().map(Cow::Owned),
        true,
    )
}

/// [`score_owned`] without the per-item results: [`MmiqReport::items`] is empty, everything
/// else (accuracies, intervals, row counts, warnings) is the same. For a caller that shows no
/// items (the `coglab` command without `--items`), which then keeps nothing per item.
///
/// # Errors
/// As [`score`].
pub fn score_totals(key: &AnswerKey, preds: Predictions) -> Result<MmiqReport, MmiqError> {
    score_records(
        key,
        &preds.file,
        preds.blank_lines,
        preds.records.into_iter().map(Cow::Owned),
        false,
    )
}

fn score_records<'a>(
    key: &AnswerKey,
    file: &str,
    blank_lines: usize,
    records: impl ExactSizeIterator<Item = Cow<'a, PredRecord>>,
    keep_items: bool,
) -> Result<MmiqReport, MmiqError> {
    let mut tally = Tally::new(file, &key.file, key.categories.len());
    tally.rows.read = records.len();
    tally.rows.blank_lines = blank_lines;
    let mut items = Vec::with_capacity(if keep_items { tally.rows.read } else { 0 });
    // Rows read by this crate's readers have distinct ids, but `Predictions` is open to build.
    let mut covered = vec![false; key.len()];
    for rec in records {
        let Some((item_pos, cat)) = key.position(rec.data_id) else {
            tally.skip(rec.line, rec.data_id);
            continue;
        };
        covered[item_pos] = true;
        let item = &key.items[item_pos];
        let hit = KeyHit {
            answer: item.answer,
            category: cat,
        };
        tally.check(
            &key.categories,
            &RowView {
                line: rec.line,
                data_id: rec.data_id,
                category: rec.category.as_deref(),
                file_answer: rec.file_answer.as_deref(),
                had_both: rec.had_both,
            },
            hit,
        );
        let (data_id, line) = (rec.data_id, rec.line);
        let length = rec.response_length;
        let (content, preview) = match rec {
            Cow::Owned(r) => (r.content, r.response_preview),
            Cow::Borrowed(r) => (r.content.clone(), r.response_preview.clone()),
        };
        let (parsed, response, length) = match content {
            PredContent::Response(r) => {
                // A length given beside a full response (not from this crate's readers) is
                // counted as well, before the response's own.
                tally.lengths.extend(length);
                let letter = Cow::Borrowed(letter_str(extract(&r).recorded()));
                let own = TextLength::of(&r);
                (letter, Some(r), Some(own))
            }
            // A lean read's extracted letter comes with the response's preview.
            PredContent::Parsed(p) => (Cow::Owned(p), preview, length),
        };
        let correct = tally.count(hit, line, &parsed, length);
        if !keep_items {
            continue;
        }
        items.push(ItemResult {
            data_id,
            category: item.category.clone(),
            response,
            parsed,
            key: item.answer,
            correct,
            line,
        });
    }
    tally.rows.key_items_without_prediction = covered.iter().filter(|c| !**c).count();
    let per_category = key.letter_counts();
    let mut report = tally.finish(&key.categories, &per_category, key.len())?;
    report.items = items;
    Ok(report)
}

/// What scoring needs of a key item: its answer and its category's position in the key's
/// categories.
#[derive(Debug, Clone, Copy)]
pub(super) struct KeyHit {
    pub(super) answer: char,
    pub(super) category: usize,
}

/// What a prediction row says besides its answer, as the scorer checks it against the key.
pub(super) struct RowView<'a> {
    pub(super) line: usize,
    pub(super) data_id: u64,
    /// The category the file gives.
    pub(super) category: Option<&'a str>,
    /// The answer the file gives (VLMEvalKit's `answer`).
    pub(super) file_answer: Option<&'a str>,
    pub(super) had_both: bool,
}

/// The running totals of scoring rows against a key, one row at a time: the scoring of a read
/// file ([`score`]) and of rows scored as they are read ([`super::stream`]) are this.
#[derive(Debug)]
pub(super) struct Tally {
    file: String,
    key_file: String,
    pub(super) rows: RowCounts,
    warnings: Warnings,
    /// (correct, scored) per key category.
    per_cat: Vec<(u64, u64)>,
    lengths: Vec<TextLength>,
    /// The key letters of the scored items, `A`..`E`.
    letters: [u64; 5],
}

impl Tally {
    pub(super) fn new(file: &str, key_file: &str, categories: usize) -> Self {
        Self {
            file: file.to_string(),
            key_file: key_file.to_string(),
            rows: RowCounts::default(),
            warnings: Warnings::default(),
            per_cat: vec![(0, 0); categories],
            lengths: Vec::new(),
            letters: [0; 5],
        }
    }

    /// Counts a row whose `data_id` is not in the key (skipped).
    pub(super) fn skip(&mut self, line: usize, data_id: u64) {
        self.rows.skipped += 1;
        *self
            .rows
            .skipped_by_reason
            .entry("data_id not in the answer key".into())
            .or_insert(0) += 1;
        let (file, key_file) = (&self.file, &self.key_file);
        self.warnings.add("data_id not in the answer key", || {
            format!("{file} line {line}: data_id {data_id} is not in {key_file}; row skipped")
        });
    }

    /// Warns where the row's category or answer differs from the key's item `hit`, and when it
    /// had both a response and a parsed letter (`categories`: the key's).
    pub(super) fn check(&mut self, categories: &[String], row: &RowView<'_>, hit: KeyHit) {
        let (file, line, data_id) = (&self.file, row.line, row.data_id);
        let key_category = &categories[hit.category];
        if let Some(c) = row.category {
            if c != key_category {
                let kind = if categories.iter().any(|k| k == c) {
                    "category differs from the key"
                } else {
                    "unknown category"
                };
                self.warnings.add(kind, || {
                    format!(
                        "{file} line {line}: field \"category\": the key has {key_category:?} for data_id {data_id}, found {c:?}; the key's category is used"
                    )
                });
            }
        }
        if let Some(a) = row.file_answer {
            let mut buf = [0; 4];
            if a.trim() != hit.answer.encode_utf8(&mut buf) {
                self.warnings.add("answer differs from the key", || {
                    format!(
                        "{file} line {line}: field \"answer\": the key has {} for data_id {data_id}, found {a:?}; the key is used",
                        hit.answer
                    )
                });
            }
        }
        if row.had_both {
            self.warnings.add("both response and parsed_pred", || {
                format!(
                    "{file} line {line}: both \"response\" and \"parsed_pred\" given; parsed_pred is used"
                )
            });
        }
    }

    /// Counts a row scored against the key's item `hit`: `parsed` is the extracted or given
    /// answer, `length` the response's length when there was one. Returns whether it is right.
    pub(super) fn count(
        &mut self,
        hit: KeyHit,
        line: usize,
        parsed: &str,
        length: Option<TextLength>,
    ) -> bool {
        self.lengths.extend(length);
        if !matches!(parsed, "A" | "B" | "C" | "D" | "E" | "Z") {
            let file = &self.file;
            self.warnings.add("parsed_pred not one of A-E or Z", || {
                format!(
                    "{file} line {line}: field \"parsed_pred\": expected one of A, B, C, D, E, Z, found {parsed:?}; scored as given (wrong)"
                )
            });
        }
        let correct = parsed.len() == 1 && parsed.starts_with(hit.answer);
        if parsed == letter_str(NO_ANSWER) {
            self.rows.no_answer += 1;
        }
        let cat = &mut self.per_cat[hit.category];
        cat.1 += 1;
        cat.0 += u64::from(correct);
        self.letters[letter_index(hit.answer)] += 1;
        self.rows.scored += 1;
        correct
    }

    /// The report (without items) of the rows counted, against a key whose items have, per
    /// category, `per_category` letters (`items` in all).
    ///
    /// # Errors
    /// [`MmiqError::NothingScored`] when no row was scored.
    pub(super) fn finish(
        self,
        categories: &[String],
        per_category: &[[u64; 5]],
        items: usize,
    ) -> Result<MmiqReport, MmiqError> {
        let (correct, n) = self
            .per_cat
            .iter()
            .fold((0, 0), |(c, n), &(ci, ni)| (c + ci, n + ni));
        let overall = Accuracy::new(correct, n).ok_or_else(|| MmiqError::NothingScored {
            file: self.file.clone(),
            key_file: self.key_file.clone(),
            read: self.rows.read,
        })?;
        let by_category = categories
            .iter()
            .zip(&self.per_cat)
            .filter_map(|(c, &(k, n))| Accuracy::new(k, n).map(|a| (c.clone(), a)))
            .collect();
        Ok(MmiqReport {
            benchmark: "mmiq".into(),
            file: self.file,
            key_file: self.key_file,
            overall,
            by_category,
            chance: CHANCE,
            letters: letters_of(categories, per_category, items, &self.letters),
            response_length: ResponseLength::of(&self.lengths),
            human: HumanReference::paper(),
            rows: self.rows,
            warnings: self.warnings,
            items: Vec::new(),
            harness: None,
        })
    }
}

/// The recorded letter as a static string (`A`-`E`, anything else `Z`).
fn letter_str(c: char) -> &'static str {
    match c {
        'A' => "A",
        'B' => "B",
        'C' => "C",
        'D' => "D",
        'E' => "E",
        _ => "Z",
    }
}

/// One side of a comparison.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SideSummary {
    /// Predictions file.
    pub file: String,
    /// Accuracy on the paired items.
    pub paired: Accuracy,
    /// Accuracy on all of this file's scored items.
    pub all: Accuracy,
    /// Scored items that the other file does not have.
    pub unpaired_items: usize,
}

/// Two models on the same items: accuracies, 2x2 table, McNemar exact test and a paired
/// bootstrap interval of the accuracy difference (first minus second).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MmiqComparison {
    /// Always `"mmiq"`.
    pub benchmark: String,
    /// The first model.
    pub first: SideSummary,
    /// The second model.
    pub second: SideSummary,
    /// Number of items scored in both files.
    pub n_paired: usize,
    /// The 2x2 table on the paired items.
    pub table: PairedTable,
    /// Two-sided exact McNemar p-value.
    pub mcnemar_p: f64,
    /// Paired bootstrap 95% interval of the accuracy difference.
    pub difference: BootstrapDiff,
}

/// Compares two scored reports on the items both scored (matched by `data_id`).
///
/// # Errors
/// [`MmiqError::NoCommonItems`] when they share no item, [`MmiqError::Stats`] for bad
/// bootstrap parameters.
///
/// # Examples
/// ```
/// use coglab_core::mmiq::{compare, score, AnswerKey, Predictions};
/// let key = AnswerKey::parse("k.jsonl", concat!(
///     r#"{"category": "Mathematical", "data_id": 0, "answer": "A"}"#, "\n",
///     r#"{"category": "Mathematical", "data_id": 1, "answer": "B"}"#)).unwrap();
/// let a = score(&key, &Predictions::parse("a.jsonl",
///     b"{\"data_id\": 0, \"parsed_pred\": \"A\"}\n{\"data_id\": 1, \"parsed_pred\": \"B\"}").unwrap()).unwrap();
/// let b = score(&key, &Predictions::parse("b.jsonl",
///     b"{\"data_id\": 1, \"parsed_pred\": \"B\"}\n{\"data_id\": 0, \"parsed_pred\": \"C\"}").unwrap()).unwrap();
/// let c = compare(&a, &b, 1000, 1).unwrap();
/// assert_eq!((c.table.both_correct, c.table.first_only), (1, 1));
/// assert_eq!(c.mcnemar_p, 1.0);
/// assert_eq!(c.difference.estimate, 0.5);
/// ```
pub fn compare(
    first: &MmiqReport,
    second: &MmiqReport,
    resamples: usize,
    seed: u64,
) -> Result<MmiqComparison, MmiqError> {
    let second_by_id: super::input::IdMap<bool> = second
        .items
        .iter()
        .map(|i| (i.data_id, i.correct))
        .collect();
    // Pairs in one order, so a seeded bootstrap depends on the items and the seed, not on the
    // order of the rows in either file (issue 27, defect 11): the rank board's order (ids
    // sorted as text, `ranks::inputs::mmiq_items`), so that with the board's seed the
    // comparison draws the board's resamples and gives its interval (issue 42, defect 9).
    let mut pairs: Vec<(u64, bool, bool)> = first
        .items
        .iter()
        .filter_map(|item| {
            second_by_id
                .get(&item.data_id)
                .map(|&c| (item.data_id, item.correct, c))
        })
        .collect();
    pairs.sort_by_cached_key(|p| p.0.to_string());
    let a: Vec<bool> = pairs.iter().map(|p| p.1).collect();
    let b: Vec<bool> = pairs.iter().map(|p| p.2).collect();
    if a.is_empty() {
        return Err(MmiqError::NoCommonItems {
            first: first.file.clone(),
            second: second.file.clone(),
        });
    }
    let n = a.len();
    let table = PairedTable::from_pairs(&a, &b)?;
    let difference = paired_bootstrap_diff(&a, &b, resamples, seed, 0.95)?;
    let count = |v: &[bool]| v.iter().filter(|x| **x).count() as u64;
    let side = |r: &MmiqReport, v: &[bool]| -> Result<SideSummary, MmiqError> {
        Ok(SideSummary {
            file: r.file.clone(),
            paired: Accuracy::new(count(v), n as u64).ok_or(
                crate::stats::StatsError::TooFewValues {
                    needed: 1,
                    found: 0,
                },
            )?,
            all: r.overall,
            unpaired_items: r.items.len() - n,
        })
    };
    Ok(MmiqComparison {
        benchmark: "mmiq".into(),
        first: side(first, &a)?,
        second: side(second, &b)?,
        n_paired: n,
        table,
        mcnemar_p: mcnemar_exact_p(table.first_only, table.second_only),
        difference,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key() -> AnswerKey {
        // Items 0-3 Mathematical (answers A, B, C, D), items 4-5 Concrete Object (E, A).
        let mut text = String::new();
        for (id, (cat, ans)) in [
            ("Mathematical", "A"),
            ("Mathematical", "B"),
            ("Mathematical", "C"),
            ("Mathematical", "D"),
            ("Concrete Object", "E"),
            ("Concrete Object", "A"),
        ]
        .iter()
        .enumerate()
        {
            text.push_str(&format!(
                "{{\"category\": \"{cat}\", \"MD5\": \"x\", \"data_id\": {id}, \"answer\": \"{ans}\"}}\n"
            ));
        }
        AnswerKey::parse("key.jsonl", &text).unwrap()
    }

    #[test]
    fn counts_and_warnings() {
        let preds = "{\"data_id\": 0, \"category\": \"Mathematical\", \"response\": \"The answer is A\"}\n\
            {\"data_id\": 1, \"category\": \"Maths\", \"response\": \"B\"}\n\
            {\"data_id\": 2, \"category\": \"Concrete Object\", \"parsed_pred\": \"c\"}\n\
            {\"data_id\": 4, \"response\": \"no letter in this long response at all, really none here\"}\n\
            {\"data_id\": 99, \"response\": \"A\"}\n";
        let p = Predictions::parse("p.jsonl", preds.as_bytes()).unwrap();
        let r = score(&key(), &p).unwrap();
        // Scored: 0 (A = A, correct), 1 (B = B, correct), 2 ("c" != C, wrong), 4 (Z, wrong).
        assert_eq!(r.rows.read, 5);
        assert_eq!(r.rows.scored, 4);
        assert_eq!(r.rows.skipped, 1);
        assert_eq!(r.rows.no_answer, 1);
        assert_eq!(r.rows.key_items_without_prediction, 2); // items 3 and 5
        assert_eq!(r.overall.correct, 2);
        assert_eq!(r.overall.n, 4);
        assert_eq!(r.by_category["Mathematical"].correct, 2);
        assert_eq!(r.by_category["Mathematical"].n, 3);
        assert_eq!(r.by_category["Concrete Object"].n, 1);
        assert_eq!(r.warnings.counts["unknown category"], 1);
        assert_eq!(r.warnings.counts["category differs from the key"], 1);
        assert_eq!(r.warnings.counts["parsed_pred not one of A-E or Z"], 1);
        assert_eq!(r.warnings.counts["data_id not in the answer key"], 1);
        assert_eq!(r.warnings.total(), 4);
        assert_eq!(
            r.warnings.examples[0],
            "p.jsonl line 2: field \"category\": the key has \"Mathematical\" for data_id 1, found \"Maths\"; the key's category is used"
        );
    }

    #[test]
    fn nothing_scored_is_an_error() {
        let p = Predictions::parse("p.jsonl", b"{\"data_id\": 50, \"response\": \"A\"}").unwrap();
        assert_eq!(
            score(&key(), &p).unwrap_err().to_string(),
            "p.jsonl: none of the 1 predictions has a data_id in the answer key key.jsonl"
        );
    }

    #[test]
    fn compare_pairs_by_id() {
        let k = key();
        // First: items 0-5 all answered; correct on 0, 1, 2, 4 (4 of 6).
        let a = Predictions::parse(
            "a.jsonl",
            b"{\"data_id\": 0, \"parsed_pred\": \"A\"}\n{\"data_id\": 1, \"parsed_pred\": \"B\"}\n\
              {\"data_id\": 2, \"parsed_pred\": \"C\"}\n{\"data_id\": 3, \"parsed_pred\": \"A\"}\n\
              {\"data_id\": 4, \"parsed_pred\": \"E\"}\n{\"data_id\": 5, \"parsed_pred\": \"B\"}",
        )
        .unwrap();
        // Second: items 0-4 (no 5); correct on 0 and 3.
        let b = Predictions::parse(
            "b.jsonl",
            b"{\"data_id\": 3, \"parsed_pred\": \"D\"}\n{\"data_id\": 0, \"parsed_pred\": \"A\"}\n\
              {\"data_id\": 1, \"parsed_pred\": \"Z\"}\n{\"data_id\": 2, \"parsed_pred\": \"A\"}\n\
              {\"data_id\": 4, \"parsed_pred\": \"A\"}",
        )
        .unwrap();
        let (ra, rb) = (score(&k, &a).unwrap(), score(&k, &b).unwrap());
        let c = compare(&ra, &rb, 500, 3).unwrap();
        // Paired items 0-4. Both: 0. First only: 1, 2, 4. Second only: 3. Neither: none.
        assert_eq!(c.n_paired, 5);
        assert_eq!(
            c.table,
            PairedTable {
                both_correct: 1,
                first_only: 3,
                second_only: 1,
                both_wrong: 0
            }
        );
        // McNemar: b = 3, c = 1, n = 4: 2 · P(X <= 1) = 2 · (1 + 4) / 16 = 0.625.
        assert!((c.mcnemar_p - 0.625).abs() < 1e-14);
        assert_eq!(c.first.paired.correct, 4);
        assert_eq!(c.second.paired.correct, 2);
        assert_eq!(c.first.unpaired_items, 1);
        assert_eq!(c.second.unpaired_items, 0);
        // (4 - 2) / 5
        assert!((c.difference.estimate - 0.4).abs() < 1e-15);
    }
}
