//! The response matrix: respondents (models, people) x items, each cell right, wrong or missing.
//!
//! Built from a CSV ([`ResponseMatrix::parse_csv`]: first column the respondent id, a header
//! row of item ids, cells `1`/`0` or empty for missing) or from scored results:
//! [`ResponseMatrix::from_mmiq`] (one respondent per predictions file, with the chosen letters),
//! [`ResponseMatrix::from_mmiq_reports`] (scored reports alone, e.g. the leaderboard's dropped
//! rows), [`ResponseMatrix::from_kiva`] / [`ResponseMatrix::from_kiva_reports`] (KiVA trials
//! per stage, models and adults) and
//! [`ResponseMatrix::from_scores`] (any item scores dichotomised at a threshold, e.g. MM-OPERA's
//! holistic 0-4 scores via [`ResponseMatrix::from_mmopera`]).

use super::ItemsError;
use crate::kiva::{KivaReport, Stage};
use crate::location::{snippet, Location};
use crate::mmiq::{AnswerKey, MmiqReport};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// Cell value for a missing response.
const MISSING: i8 = -1;

/// An item (a column).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ItemInfo {
    /// Item id.
    pub id: String,
    /// Category (MM-IQ paradigm, KiVA subdomain, MM-OPERA domain), if known.
    pub category: Option<String>,
    /// Answer key letter, if known.
    pub key: Option<String>,
}

impl ItemInfo {
    /// An item with only an id.
    pub fn new(id: impl Into<String>) -> Self {
        Self {
            id: id.into(),
            category: None,
            key: None,
        }
    }
}

/// A respondent (a row).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RespondentInfo {
    /// Respondent id (model name, participant id).
    pub id: String,
    /// Group (`model`, `human`), if known.
    pub group: Option<String>,
}

/// Respondents x items, right (1), wrong (0) or missing.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ResponseMatrix {
    /// Where the matrix came from (file name or label), used in messages.
    pub source: String,
    /// The items (columns).
    pub items: Vec<ItemInfo>,
    /// The respondents (rows).
    pub respondents: Vec<RespondentInfo>,
    /// Row-major cells: 1, 0 or -1 (missing).
    cells: Vec<i8>,
    /// Row-major chosen answers (letters), when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    answers: Option<Vec<Option<String>>>,
}

/// Which KiVA stages become items.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum KivaStages {
    /// Each trial gives three items (`cross`, `within`, `extrapolation`).
    #[default]
    All,
    /// Stage 1 only.
    Cross,
    /// Stage 2 only (missing where it was not asked).
    Within,
    /// Stage 3 only.
    Extrapolation,
}

/// How KiVA trials become items.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct KivaItemOptions {
    /// The stages used.
    pub stages: KivaStages,
    /// A model's trial-stage score is the mean over its regenerations; it counts as right when
    /// at least this (default 0.5: a majority of the three regenerations).
    pub threshold: f64,
    /// One item per subdomain and stage (`<subdomain>/<stage>`) instead of per trial: the
    /// respondent's mean stage score over their trials of the subdomain (a model's 50, an
    /// adult's usually one), right when at least `threshold`. Each adult sees one trial per
    /// subdomain, so this gives a complete matrix where the per-trial one is 98 % missing.
    #[serde(default)]
    pub per_subdomain: bool,
}

impl Default for KivaItemOptions {
    fn default() -> Self {
        Self {
            stages: KivaStages::All,
            threshold: 0.5,
            per_subdomain: false,
        }
    }
}

/// One scored response for [`ResponseMatrix::from_scores`].
#[derive(Debug, Clone, PartialEq)]
pub struct ScoredResponse<'a> {
    /// Respondent id.
    pub respondent: &'a str,
    /// Respondent group, if known.
    pub group: Option<&'a str>,
    /// Item id.
    pub item: &'a str,
    /// Item category, if known.
    pub category: Option<&'a str>,
    /// The score (`None`: missing).
    pub score: Option<f64>,
    /// The answer given, if known.
    pub answer: Option<&'a str>,
}

/// Refuses a matrix of more than [`crate::limits::MAX_ITEM_CELLS`] cells (issue 37).
///
/// # Errors
/// [`ItemsError::TooLarge`] naming the respondents, the items and the limit.
///
/// # Examples
/// ```
/// use coglab_core::items::matrix::check_size;
/// assert!(check_size("m.csv", 10_000, 1_000).is_ok());
/// let e = check_size("m.csv", 100_000, 1_000).unwrap_err();
/// assert_eq!(e.to_string(), "m.csv: 100000 respondents x 1000 items make 100000000 cells, \
///     more than the 10000000 an item analysis takes; analyse a sample of the respondents or \
///     fewer items");
/// ```
pub fn check_size(source: &str, respondents: usize, items: usize) -> Result<(), ItemsError> {
    let cells = (respondents as u64).saturating_mul(items as u64);
    if cells > crate::limits::MAX_ITEM_CELLS as u64 {
        return Err(ItemsError::TooLarge {
            source_name: source.to_string(),
            respondents,
            items,
            cells,
            max: crate::limits::MAX_ITEM_CELLS,
        });
    }
    Ok(())
}

fn utf8<'a>(file: &str, bytes: &'a [u8]) -> Result<&'a str, ItemsError> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    std::str::from_utf8(bytes).map_err(|e| {
        let (line, start) = crate::location::line_and_start(bytes, e.valid_up_to());
        ItemsError::NotUtf8 {
            location: Location::file(file).at_line(line),
            byte: e.valid_up_to() - start + 1,
        }
    })
}

fn stage_name(s: Stage) -> &'static str {
    match s {
        Stage::Cross => "cross",
        Stage::Within => "within",
        Stage::Extrapolation => "extrapolation",
    }
}

impl ResponseMatrix {
    /// A matrix from its parts; `cells` is row-major (respondent by respondent), `None` missing.
    ///
    /// # Errors
    /// [`ItemsError::Empty`] without items or respondents, [`ItemsError::Degenerate`] when
    /// `cells` does not have `respondents x items` entries, [`ItemsError::BadId`] for an empty
    /// or repeated id.
    pub fn new(
        source: impl Into<String>,
        items: Vec<ItemInfo>,
        respondents: Vec<RespondentInfo>,
        cells: &[Option<bool>],
    ) -> Result<Self, ItemsError> {
        let source = source.into();
        if items.is_empty() || respondents.is_empty() {
            return Err(ItemsError::Empty {
                source_name: source,
                expected: "at least one item and one respondent".into(),
            });
        }
        if cells.len() != items.len() * respondents.len() {
            return Err(ItemsError::Degenerate {
                source_name: source,
                reason: format!(
                    "{} cells given for {} respondents x {} items",
                    cells.len(),
                    respondents.len(),
                    items.len()
                ),
            });
        }
        check_ids(&source, items.iter().map(|i| i.id.as_str()), "item id")?;
        check_ids(
            &source,
            respondents.iter().map(|r| r.id.as_str()),
            "respondent id",
        )?;
        let cells = cells.iter().map(|c| c.map_or(MISSING, i8::from)).collect();
        Ok(Self {
            source,
            items,
            respondents,
            cells,
            answers: None,
        })
    }

    /// Attaches the chosen answers (row-major, as `cells`), for the letter distributions and
    /// the most frequent wrong answer.
    ///
    /// # Errors
    /// [`ItemsError::Degenerate`] when the length does not match.
    pub fn with_answers(mut self, answers: Vec<Option<String>>) -> Result<Self, ItemsError> {
        if answers.len() != self.cells.len() {
            return Err(ItemsError::Degenerate {
                source_name: self.source,
                reason: format!(
                    "{} answers given for {} cells",
                    answers.len(),
                    self.cells.len()
                ),
            });
        }
        self.answers = Some(answers);
        Ok(self)
    }

    /// Parses a response-matrix CSV: a header row whose first cell names the respondent column
    /// and whose other cells are item ids; then one row per respondent, its id first, then
    /// `1`, `0` (also `1.0`, `0.0`, `true`, `false`) or an empty cell / `NA` for missing.
    ///
    /// # Errors
    /// [`ItemsError::NotUtf8`], [`ItemsError::Empty`], [`ItemsError::Csv`] (a record with the
    /// wrong number of fields), [`ItemsError::BadCell`] and [`ItemsError::BadId`], each naming
    /// file, line and column.
    ///
    /// # Examples
    /// ```
    /// use coglab_core::items::ResponseMatrix;
    /// let m = ResponseMatrix::parse_csv("m.csv", b"model,q1,q2\ngpt,1,\nclaude,0,1\n").unwrap();
    /// assert_eq!(m.get(0, 1), None);
    /// assert_eq!(m.get(1, 1), Some(true));
    /// ```
    pub fn parse_csv(file: &str, bytes: &[u8]) -> Result<Self, ItemsError> {
        let text = utf8(file, bytes)?;
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(false)
            .flexible(true)
            .from_reader(text.as_bytes());
        // Lines from byte offsets: the csv crate's own count is one low after CRLF and stays
        // at 1 in a file with CR-only line ends (issue 37).
        let err = |e: csv::Error| ItemsError::Csv {
            location: Location::file(file)
                .at_line(crate::location::LineIndex::new(text.as_bytes()).csv_line(e.position())),
            message: e.to_string(),
        };
        let mut lines = crate::location::LineIndex::new(text.as_bytes());
        let mut records = reader.records();
        let empty = || ItemsError::Empty {
            source_name: file.to_string(),
            expected: "a header row of item ids and one row per respondent".into(),
        };
        let header = records.next().ok_or_else(empty)?.map_err(err)?;
        let items: Vec<ItemInfo> = header
            .iter()
            .skip(1)
            .map(|s| ItemInfo::new(s.trim()))
            .collect();
        if items.is_empty() {
            return Err(ItemsError::Csv {
                location: Location::file(file).at_line(1),
                message: "the header has no item columns (expected the respondent id column, \
                          then one column per item)"
                    .into(),
            });
        }
        // The size is checked before the rows are read: each non-blank line after the
        // header is a respondent (a quoted field over several lines makes this an upper bound).
        let bytes = text.as_bytes();
        let (mut rows, mut start) = (0usize, 0usize);
        for end in memchr::memchr2_iter(b'\n', b'\r', bytes).chain([bytes.len()]) {
            // A data line starts with its id, so `any` stops at its first byte.
            rows += usize::from(
                bytes[start.min(end)..end]
                    .iter()
                    .any(|b| !b.is_ascii_whitespace()),
            );
            start = end + 1;
        }
        let rows = rows.saturating_sub(1);
        check_size(file, rows, items.len())?;
        let mut seen: HashMap<&str, usize> = HashMap::new();
        for (k, it) in items.iter().enumerate() {
            let location = Location::file(file).at_line(1).in_field(&it.id);
            if it.id.is_empty() {
                return Err(ItemsError::BadId {
                    location: Location::file(file)
                        .at_line(1)
                        .in_field(format!("column {}", k + 2)),
                    message: "item id is empty".into(),
                });
            }
            if let Some(first) = seen.insert(&it.id, k + 2) {
                return Err(ItemsError::BadId {
                    location,
                    message: format!(
                        "item id {:?} appears twice (first in column {first})",
                        it.id
                    ),
                });
            }
        }
        let mut respondents = Vec::new();
        let mut cells = Vec::new();
        let mut rows_seen: HashMap<String, usize> = HashMap::new();
        for rec in records {
            let rec = rec.map_err(err)?;
            if rec.iter().all(|f| f.trim().is_empty()) {
                continue;
            }
            let line = lines.csv_line(rec.position());
            if rec.len() != items.len() + 1 {
                return Err(ItemsError::Csv {
                    location: Location::file(file).at_line(line),
                    message: format!(
                        "expected {} fields as in the header, found {}",
                        items.len() + 1,
                        rec.len()
                    ),
                });
            }
            let id = rec.get(0).unwrap_or("").trim().to_string();
            let header_field = header.get(0).unwrap_or("").trim().to_string();
            if id.is_empty() {
                return Err(ItemsError::BadId {
                    location: Location::file(file).at_line(line).in_field(header_field),
                    message: "respondent id is empty".into(),
                });
            }
            if let Some(first) = rows_seen.insert(id.clone(), line) {
                return Err(ItemsError::BadId {
                    location: Location::file(file).at_line(line).in_field(header_field),
                    message: format!("respondent id {id:?} appears twice (first on line {first})"),
                });
            }
            for (k, cell) in rec.iter().skip(1).enumerate() {
                let v = match cell.trim() {
                    "1" | "1.0" | "true" | "TRUE" | "True" => 1,
                    "0" | "0.0" | "false" | "FALSE" | "False" => 0,
                    "" | "NA" | "na" | "NaN" | "nan" => MISSING,
                    other => {
                        return Err(ItemsError::BadCell {
                            location: Location::file(file).at_line(line).in_field(&items[k].id),
                            found: snippet(other),
                        })
                    }
                };
                cells.push(v);
            }
            respondents.push(RespondentInfo { id, group: None });
        }
        if respondents.is_empty() {
            return Err(empty());
        }
        Ok(Self {
            source: file.to_string(),
            items,
            respondents,
            cells,
            answers: None,
        })
    }

    /// One respondent per scored MM-IQ predictions file (`(respondent id, report)`), over the
    /// answer key's items (in key order, with category and key letter). Items a file did not
    /// predict are missing; the reports must keep their per-item rows (`items`).
    ///
    /// # Errors
    /// [`ItemsError::Empty`] without reports, [`ItemsError::BadId`] for a repeated respondent.
    pub fn from_mmiq(key: &AnswerKey, reports: &[(&str, &MmiqReport)]) -> Result<Self, ItemsError> {
        let source = format!("MM-IQ ({})", key.file);
        if reports.is_empty() {
            return Err(ItemsError::Empty {
                source_name: source,
                expected: "at least one scored predictions file".into(),
            });
        }
        let items: Vec<ItemInfo> = key
            .items
            .iter()
            .map(|k| ItemInfo {
                id: k.data_id.to_string(),
                category: Some(k.category.clone()),
                key: Some(k.answer.to_string()),
            })
            .collect();
        let index: HashMap<u64, usize> = key
            .items
            .iter()
            .enumerate()
            .map(|(j, k)| (k.data_id, j))
            .collect();
        let n = items.len();
        let mut cells = vec![None; reports.len() * n];
        let mut answers = vec![None; reports.len() * n];
        let mut respondents = Vec::with_capacity(reports.len());
        for (i, (id, report)) in reports.iter().enumerate() {
            respondents.push(RespondentInfo {
                id: (*id).to_string(),
                group: Some("model".into()),
            });
            for it in &report.items {
                if let Some(&j) = index.get(&it.data_id) {
                    cells[i * n + j] = Some(it.correct);
                    answers[i * n + j] = Some(it.parsed.to_string());
                }
            }
        }
        Self::new(source, items, respondents, &cells)?.with_answers(answers)
    }

    /// One respondent per scored MM-IQ report without the answer key, e.g. the rows dropped on
    /// the leaderboard page (their reports keep each item's category and key letter). Items
    /// are the union of the reports' items, by `data_id`; an item a report did not score is
    /// missing.
    ///
    /// # Errors
    /// [`ItemsError::Empty`] without reports or items, [`ItemsError::BadId`] for a repeated
    /// respondent.
    pub fn from_mmiq_reports(reports: &[(&str, &MmiqReport)]) -> Result<Self, ItemsError> {
        let mut seen: std::collections::BTreeMap<u64, (String, char)> = Default::default();
        for (_, r) in reports {
            for it in &r.items {
                seen.entry(it.data_id)
                    .or_insert_with(|| (it.category.clone(), it.key));
            }
        }
        if seen.is_empty() {
            return Err(ItemsError::Empty {
                source_name: "MM-IQ".into(),
                expected: "scored reports with their per-item rows".into(),
            });
        }
        let index: HashMap<u64, usize> = seen.keys().enumerate().map(|(j, &d)| (d, j)).collect();
        let items: Vec<ItemInfo> = seen
            .iter()
            .map(|(d, (cat, key))| ItemInfo {
                id: d.to_string(),
                category: Some(cat.clone()),
                key: Some(key.to_string()),
            })
            .collect();
        let n = items.len();
        let mut cells = vec![None; reports.len() * n];
        let mut answers = vec![None; reports.len() * n];
        let mut respondents = Vec::with_capacity(reports.len());
        for (i, (id, report)) in reports.iter().enumerate() {
            respondents.push(RespondentInfo {
                id: (*id).to_string(),
                group: Some("model".into()),
            });
            for it in &report.items {
                let j = index[&it.data_id];
                cells[i * n + j] = Some(it.correct);
                answers[i * n + j] = Some(it.parsed.to_string());
            }
        }
        Self::new("MM-IQ", items, respondents, &cells)?.with_answers(answers)
    }

    /// KiVA items from scored KiVA reports of either source (leaderboard rows: model run
    /// folders and the adults' data, told apart by [`crate::kiva::Source`]), as
    /// [`ResponseMatrix::from_kiva`]; with several human reports the first is used.
    ///
    /// # Errors
    /// As [`ResponseMatrix::from_kiva`].
    pub fn from_kiva_reports(
        reports: &[(&str, &KivaReport)],
        opts: &KivaItemOptions,
    ) -> Result<Self, ItemsError> {
        let models: Vec<(&str, &KivaReport)> = reports
            .iter()
            .filter(|(_, r)| r.source == crate::kiva::Source::Model)
            .copied()
            .collect();
        let human = reports
            .iter()
            .find(|(_, r)| r.source == crate::kiva::Source::Human)
            .map(|(_, r)| *r);
        Self::from_kiva(&models, human, opts)
    }

    /// KiVA items (`<subdomain>/<variation>/<stage>`, category the subdomain) from model
    /// reports (one respondent each, `(id, report)`, group `model`; a trial stage is right when
    /// its mean over regenerations is at least `opts.threshold`) and the adults' report (one
    /// respondent per participant, group `human`). Stage 2 is `within_conditional`: missing
    /// where it was not asked. Items are sorted by subdomain, variation and stage.
    ///
    /// # Errors
    /// [`ItemsError::Empty`] when no trials are given, [`ItemsError::BadOption`] for a
    /// threshold outside (0, 1], [`ItemsError::BadId`] for a repeated respondent.
    pub fn from_kiva(
        models: &[(&str, &KivaReport)],
        human: Option<&KivaReport>,
        opts: &KivaItemOptions,
    ) -> Result<Self, ItemsError> {
        if !(opts.threshold > 0.0 && opts.threshold <= 1.0) {
            return Err(ItemsError::BadOption {
                name: "threshold",
                expected: "a number in (0, 1]",
                found: opts.threshold.to_string(),
            });
        }
        let stages: &[Stage] = match opts.stages {
            KivaStages::All => &Stage::ALL,
            KivaStages::Cross => &[Stage::Cross],
            KivaStages::Within => &[Stage::Within],
            KivaStages::Extrapolation => &[Stage::Extrapolation],
        };
        // (respondent, group, item id, score) first; the borrowed ScoredResponses after.
        let mut plan: Vec<(&str, &str, String, Option<f64>)> = Vec::new();
        let trials = models
            .iter()
            .flat_map(|(id, r)| r.trials.iter().map(move |t| (*id, "model", t)))
            .chain(human.into_iter().flat_map(|h| {
                h.trials
                    .iter()
                    .filter_map(|t| Some((t.participant.as_deref()?, "human", t)))
            }));
        for (resp, group, t) in trials {
            for &s in stages {
                let v = match s {
                    Stage::Cross => t.cross,
                    Stage::Within => t.within_conditional,
                    Stage::Extrapolation => t.extrapolation,
                };
                if opts.per_subdomain {
                    // Summed below; dichotomised after averaging.
                    let id = format!("{}/{}", t.subdomain, stage_name(s));
                    plan.push((resp, group, id, v));
                    continue;
                }
                let v = if group == "model" {
                    v.map(|x| f64::from(u8::from(x >= opts.threshold - 1e-12)))
                } else {
                    v
                };
                let id = format!("{}/{}/{}", t.subdomain, t.variation, stage_name(s));
                plan.push((resp, group, id, v));
            }
        }
        if opts.per_subdomain {
            let mut sums: HashMap<(&str, String), (f64, usize)> = HashMap::new();
            let mut order: Vec<(&str, &str, String)> = Vec::new();
            for (resp, group, id, v) in plan.drain(..) {
                let e = sums.entry((resp, id.clone())).or_insert_with(|| {
                    order.push((resp, group, id));
                    (0.0, 0)
                });
                if let Some(x) = v {
                    e.0 += x;
                    e.1 += 1;
                }
            }
            for (resp, group, id) in order {
                let (sum, n) = sums[&(resp, id.clone())];
                let v =
                    (n > 0).then(|| f64::from(u8::from(sum / n as f64 >= opts.threshold - 1e-12)));
                plan.push((resp, group, id, v));
            }
        }
        let rows: Vec<ScoredResponse<'_>> = plan
            .iter()
            .map(|(resp, group, id, v)| ScoredResponse {
                respondent: resp,
                group: Some(group),
                item: id,
                category: id.split('/').next(),
                score: *v,
                answer: None,
            })
            .collect();
        let mut m = Self::from_scores("KiVA", &rows, 0.5)?;
        m.sort_kiva_items();
        Ok(m)
    }

    /// KiVA item order: subdomain, then variation as a number (if any), then stage order.
    fn sort_kiva_items(&mut self) {
        let key = |id: &str| -> (String, u64, usize) {
            let parts: Vec<&str> = id.split('/').collect();
            let sub = parts.first().unwrap_or(&"").to_string();
            let var = match parts.as_slice() {
                [_, v, _] => v.parse().unwrap_or(0),
                _ => 0,
            };
            let stage = match parts.last() {
                Some(&"cross") => 0,
                Some(&"within") => 1,
                _ => 2,
            };
            (sub, var, stage)
        };
        let mut order: Vec<usize> = (0..self.items.len()).collect();
        order.sort_by_cached_key(|&j| key(&self.items[j].id));
        self.permute_items(&order);
    }

    /// Reorders the items: new item `k` is old item `order[k]`.
    fn permute_items(&mut self, order: &[usize]) {
        let n = self.items.len();
        self.items = order.iter().map(|&j| self.items[j].clone()).collect();
        let mut cells = Vec::with_capacity(self.cells.len());
        for row in self.cells.chunks(n) {
            cells.extend(order.iter().map(|&j| row[j]));
        }
        self.cells = cells;
        if let Some(ans) = &self.answers {
            let mut out = Vec::with_capacity(ans.len());
            for row in ans.chunks(n) {
                out.extend(order.iter().map(|&j| row[j].clone()));
            }
            self.answers = Some(out);
        }
    }

    /// A matrix from scored responses in any order: a response is right when its score is at
    /// least `threshold`. Respondents and items appear in order of first appearance; a
    /// respondent-item pair given twice keeps the last score.
    ///
    /// # Errors
    /// [`ItemsError::Empty`] without responses, [`ItemsError::BadOption`] for a non-finite
    /// threshold.
    ///
    /// # Examples
    /// ```
    /// use coglab_core::items::matrix::{ResponseMatrix, ScoredResponse};
    /// let r = |respondent, item, score| ScoredResponse {
    ///     respondent, group: None, item, category: None, score: Some(score), answer: None,
    /// };
    /// let m = ResponseMatrix::from_scores("s", &[r("m1", "x", 3.5), r("m2", "x", 1.0)], 3.0).unwrap();
    /// assert_eq!((m.get(0, 0), m.get(1, 0)), (Some(true), Some(false)));
    /// ```
    pub fn from_scores(
        source: &str,
        responses: &[ScoredResponse<'_>],
        threshold: f64,
    ) -> Result<Self, ItemsError> {
        if !threshold.is_finite() {
            return Err(ItemsError::BadOption {
                name: "threshold",
                expected: "a finite number",
                found: threshold.to_string(),
            });
        }
        if responses.is_empty() {
            return Err(ItemsError::Empty {
                source_name: source.to_string(),
                expected: "at least one scored response".into(),
            });
        }
        let mut item_ix: HashMap<&str, usize> = HashMap::new();
        let mut resp_ix: HashMap<&str, usize> = HashMap::new();
        let mut items = Vec::new();
        let mut respondents = Vec::new();
        for r in responses {
            item_ix.entry(r.item).or_insert_with(|| {
                items.push(ItemInfo {
                    id: r.item.to_string(),
                    category: r.category.map(str::to_string),
                    key: None,
                });
                items.len() - 1
            });
            resp_ix.entry(r.respondent).or_insert_with(|| {
                respondents.push(RespondentInfo {
                    id: r.respondent.to_string(),
                    group: r.group.map(str::to_string),
                });
                respondents.len() - 1
            });
        }
        let n = items.len();
        let mut cells = vec![None; respondents.len() * n];
        let mut answers = vec![None; respondents.len() * n];
        let mut any_answer = false;
        for r in responses {
            let k = resp_ix[r.respondent] * n + item_ix[r.item];
            cells[k] = r.score.filter(|s| s.is_finite()).map(|s| s >= threshold);
            if let Some(a) = r.answer {
                answers[k] = Some(a.to_string());
                any_answer = true;
            }
        }
        let m = Self::new(source, items, respondents, &cells)?;
        if any_answer {
            m.with_answers(answers)
        } else {
            Ok(m)
        }
    }

    /// One respondent per MM-OPERA report (`(respondent id, report)`): an item is right when
    /// its mean holistic score (0-4) is at least `threshold`; items without a score are missing.
    /// The category is the item's domain from the metadata.
    ///
    /// # Errors
    /// As [`ResponseMatrix::from_scores`].
    pub fn from_mmopera(
        reports: &[(&str, &crate::mmopera::score::Report)],
        threshold: f64,
    ) -> Result<Self, ItemsError> {
        let rows: Vec<ScoredResponse<'_>> = reports
            .iter()
            .flat_map(|(id, r)| {
                r.items.iter().map(move |it| ScoredResponse {
                    respondent: id,
                    group: Some("model"),
                    item: &it.id,
                    category: it.meta.as_ref().map(|m| m.domain.as_str()),
                    score: it.mean_score,
                    answer: None,
                })
            })
            .collect();
        Self::from_scores("MM-OPERA", &rows, threshold)
    }

    /// Number of items.
    pub fn n_items(&self) -> usize {
        self.items.len()
    }

    /// Number of respondents.
    pub fn n_respondents(&self) -> usize {
        self.respondents.len()
    }

    /// The cell of respondent `i` and item `j`: right, wrong or `None` (missing).
    ///
    /// # Panics
    /// When `i` or `j` is out of range (a programming error, not user data).
    pub fn get(&self, i: usize, j: usize) -> Option<bool> {
        match self.cells[i * self.items.len() + j] {
            MISSING => None,
            v => Some(v == 1),
        }
    }

    /// Respondent `i`'s row of raw cells (1, 0, -1 for missing).
    pub(crate) fn row(&self, i: usize) -> &[i8] {
        let n = self.items.len();
        &self.cells[i * n..(i + 1) * n]
    }

    /// The answer respondent `i` gave to item `j`, when known.
    pub fn answer(&self, i: usize, j: usize) -> Option<&str> {
        self.answers
            .as_ref()
            .and_then(|a| a[i * self.items.len() + j].as_deref())
    }

    /// Whether chosen answers are attached.
    pub fn has_answers(&self) -> bool {
        self.answers.is_some()
    }

    /// `(answered, right)` of respondent `i`.
    pub fn respondent_counts(&self, i: usize) -> (usize, usize) {
        self.row(i).iter().fold((0, 0), |(n, r), &c| match c {
            MISSING => (n, r),
            v => (n + 1, r + usize::from(v == 1)),
        })
    }

    /// The distinct respondent groups, in order of first appearance.
    pub fn groups(&self) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        for g in self.respondents.iter().filter_map(|r| r.group.as_deref()) {
            if !out.contains(&g) {
                out.push(g);
            }
        }
        out
    }

    /// Checks the matrix can be analysed at all.
    ///
    /// # Errors
    /// [`ItemsError::Degenerate`] with fewer than two respondents, every cell missing, or no
    /// item with both a right and a wrong answer (e.g. everyone right everywhere).
    pub fn check_analysable(&self) -> Result<(), ItemsError> {
        check_size(&self.source, self.respondents.len(), self.items.len())?;
        let degenerate = |reason: String| ItemsError::Degenerate {
            source_name: self.source.clone(),
            reason,
        };
        if self.respondents.len() < 2 {
            return Err(degenerate(format!(
                "only {} respondent ({}); item statistics compare respondents, give at least two",
                self.respondents.len(),
                self.respondents.first().map_or("none", |r| r.id.as_str())
            )));
        }
        if self.cells.iter().all(|&c| c == MISSING) {
            return Err(degenerate(format!(
                "all {} cells are missing ({} respondents x {} items)",
                self.cells.len(),
                self.respondents.len(),
                self.items.len()
            )));
        }
        let n = self.items.len();
        let mut seen = vec![0u8; n];
        for row in self.cells.chunks(n) {
            for (s, &c) in seen.iter_mut().zip(row) {
                match c {
                    1 => *s |= 1,
                    0 => *s |= 2,
                    _ => {}
                }
            }
        }
        if !seen.contains(&3) {
            let all_right = seen.iter().all(|&s| s & 2 == 0);
            let all_wrong = seen.iter().all(|&s| s & 1 == 0);
            let what = if all_right {
                "every answered cell is right (everyone solves every item)"
            } else if all_wrong {
                "every answered cell is wrong (no one solves any item)"
            } else {
                "every item was answered the same way by all who answered it"
            };
            return Err(degenerate(format!(
                "no item has both a right and a wrong answer: {what}"
            )));
        }
        Ok(())
    }
}

fn check_ids<'a>(
    source: &str,
    ids: impl Iterator<Item = &'a str>,
    what: &'static str,
) -> Result<(), ItemsError> {
    let mut seen: HashMap<&str, usize> = HashMap::new();
    for (k, id) in ids.enumerate() {
        if id.is_empty() {
            return Err(ItemsError::BadId {
                location: Location::file(source).in_field(format!("#{}", k + 1)),
                message: format!("{what} is empty"),
            });
        }
        if let Some(first) = seen.insert(id, k + 1) {
            return Err(ItemsError::BadId {
                location: Location::file(source).in_field(format!("#{}", k + 1)),
                message: format!("{what} {id:?} appears twice (first as #{first})"),
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_errors_name_line_and_column() {
        let e = ResponseMatrix::parse_csv("m.csv", b"id,a,b\nr1,1,0\nr2,1,x\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "m.csv line 3: field \"b\": expected 1, 0 or an empty cell (missing), found \"x\""
        );
        let e = ResponseMatrix::parse_csv("m.csv", b"id,a,b\nr1,1\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "m.csv line 2: expected 3 fields as in the header, found 2"
        );
        let e = ResponseMatrix::parse_csv("m.csv", b"id,a,a\nr1,1,0\n").unwrap_err();
        assert!(e.to_string().contains("appears twice (first in column 2)"));
        let e = ResponseMatrix::parse_csv("m.csv", b"id,a\nr1,1\nr1,0\n").unwrap_err();
        assert!(e.to_string().contains("appears twice (first on line 2)"));
        assert!(matches!(
            ResponseMatrix::parse_csv("m.csv", b"id,a\n"),
            Err(ItemsError::Empty { .. })
        ));
    }

    #[test]
    fn mmiq_reports_without_the_key_keep_letters_and_categories() {
        use crate::mmiq::{score, AnswerKey, Predictions};
        let key = AnswerKey::parse(
            "key.jsonl",
            "{\"category\": \"Mathematical\", \"data_id\": 3, \"answer\": \"B\"}\n\
             {\"category\": \"2D-Geometry\", \"data_id\": 1, \"answer\": \"C\"}\n",
        )
        .unwrap();
        let pred = |text: &str| Predictions::parse("p.jsonl", text.as_bytes()).unwrap();
        // Model x answers B on item 3 (right) and nothing on item 1; model y answers D on 1.
        let rx = score(
            &key,
            &pred("{\"data_id\": 3, \"category\": \"Mathematical\", \"parsed_pred\": \"B\"}\n"),
        )
        .unwrap();
        let ry = score(
            &key,
            &pred("{\"data_id\": 1, \"category\": \"2D-Geometry\", \"parsed_pred\": \"D\"}\n"),
        )
        .unwrap();
        let m = ResponseMatrix::from_mmiq_reports(&[("x", &rx), ("y", &ry)]).unwrap();
        // Items by data_id: 1, then 3.
        assert_eq!(m.items[0].id, "1");
        assert_eq!(m.items[0].key.as_deref(), Some("C"));
        assert_eq!(m.items[1].category.as_deref(), Some("Mathematical"));
        assert_eq!((m.get(0, 0), m.get(0, 1)), (None, Some(true)));
        assert_eq!((m.get(1, 0), m.answer(1, 0)), (Some(false), Some("D")));
    }

    #[test]
    fn degenerate_matrices_say_why() {
        let one = ResponseMatrix::parse_csv("m.csv", b"id,a,b\nr1,1,0\n").unwrap();
        assert!(one
            .check_analysable()
            .unwrap_err()
            .to_string()
            .contains("only 1 respondent"));
        let all = ResponseMatrix::parse_csv("m.csv", b"id,a,b\nr1,1,1\nr2,1,\n").unwrap();
        assert!(all
            .check_analysable()
            .unwrap_err()
            .to_string()
            .contains("everyone solves every item"));
        let none = ResponseMatrix::parse_csv("m.csv", b"id,a,b\nr1,,\nr2,,\n").unwrap();
        assert!(none
            .check_analysable()
            .unwrap_err()
            .to_string()
            .contains("all 4 cells are missing"));
    }
}
