//! The reviewer's records, the saved workspace, JSON and CSV export/import, and merging an
//! imported review into the current one with a conflict report.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use super::{Judge, ReviewSet, SampleSpec, SetKind};

/// The reviewer's scores for one hop of a process judgement.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct HopScore {
    /// Reasonableness in [0, 1].
    #[serde(default)]
    pub r: Option<f64>,
    /// Distinctiveness in [0, 1].
    #[serde(default)]
    pub d: Option<f64>,
    /// Knowledgeability, 0 or 1.
    #[serde(default)]
    pub k: Option<u8>,
}

impl HopScore {
    /// Whether nothing is filled in.
    pub fn is_empty(&self) -> bool {
        self.r.is_none() && self.d.is_none() && self.k.is_none()
    }
}

/// The reviewer's work on one item.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ReviewRecord {
    /// The item's key in its set.
    pub key: String,
    /// The reviewer's whole-item score (0-4 holistic, 0/1 binary).
    #[serde(default)]
    pub score: Option<u8>,
    /// Per hop scores (process sets), in the judge's hop order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hops: Vec<HopScore>,
    /// The reviewer's note.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub note: String,
    /// The MM-IQ paper's error type of a wrong answer (issue 23), if the reviewer gave one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error_type: Option<ErrorType>,
}

/// The MM-IQ paper's error typology (§5.3, Figure 4: "incorrect paradigm reasoning, incorrect
/// final answers, and incorrect visual understanding"), plus `Other` for what fits none.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorType {
    /// The reasoning followed the wrong paradigm (rule).
    WrongParadigm,
    /// The reasoning was right but the final answer (letter) was not.
    WrongFinalAnswer,
    /// The figure was misread.
    WrongVisualUnderstanding,
    /// None of the paper's three types.
    Other,
}

impl ErrorType {
    /// Every type, in the paper's order.
    pub const ALL: [ErrorType; 4] = [
        ErrorType::WrongParadigm,
        ErrorType::WrongFinalAnswer,
        ErrorType::WrongVisualUnderstanding,
        ErrorType::Other,
    ];

    /// The name used in exports and the page (`wrong_paradigm`, ...).
    pub fn name(self) -> &'static str {
        match self {
            ErrorType::WrongParadigm => "wrong_paradigm",
            ErrorType::WrongFinalAnswer => "wrong_final_answer",
            ErrorType::WrongVisualUnderstanding => "wrong_visual_understanding",
            ErrorType::Other => "other",
        }
    }

    /// The type named `name` ([`ErrorType::name`]).
    ///
    /// # Examples
    /// ```
    /// use coglab_core::review::ErrorType;
    /// assert_eq!(ErrorType::from_name("other"), Some(ErrorType::Other));
    /// assert_eq!(ErrorType::from_name("typo"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|t| t.name() == name)
    }

    /// The label for people (the paper's words).
    pub fn label(self) -> &'static str {
        match self {
            ErrorType::WrongParadigm => "incorrect paradigm reasoning",
            ErrorType::WrongFinalAnswer => "incorrect final answer",
            ErrorType::WrongVisualUnderstanding => "incorrect visual understanding",
            ErrorType::Other => "other",
        }
    }
}

impl ReviewRecord {
    /// An empty record for `key`.
    pub fn new(key: &str) -> Self {
        Self {
            key: key.to_string(),
            ..Self::default()
        }
    }

    /// Whether nothing is filled in (no score, no hop score, no note).
    pub fn is_empty(&self) -> bool {
        self.score.is_none()
            && self.hops.iter().all(HopScore::is_empty)
            && self.note.is_empty()
            && self.error_type.is_none()
    }

    /// Whether the item counts as reviewed: a score (holistic, binary) or any hop score.
    pub fn is_scored(&self) -> bool {
        self.score.is_some() || self.hops.iter().any(|h| !h.is_empty())
    }

    /// Same scores and note (hop values compared to 1e-9; trailing empty hops ignored).
    pub fn same_as(&self, other: &Self) -> bool {
        fn close(a: Option<f64>, b: Option<f64>) -> bool {
            match (a, b) {
                (None, None) => true,
                (Some(x), Some(y)) => (x - y).abs() < 1e-9,
                _ => false,
            }
        }
        let n = self.hops.len().max(other.hops.len());
        let empty = HopScore::default();
        self.score == other.score
            && self.note == other.note
            && self.error_type == other.error_type
            && (0..n).all(|i| {
                let a = self.hops.get(i).unwrap_or(&empty);
                let b = other.hops.get(i).unwrap_or(&empty);
                close(a.r, b.r) && close(a.d, b.d) && a.k == b.k
            })
    }

    /// The scores, for people: `3`, or `R 0.8 D 0.5 K 1; R – D – K –` per hop.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Some(s) = self.score {
            parts.push(s.to_string());
        }
        if !self.hops.is_empty() {
            let hops: Vec<String> = self
                .hops
                .iter()
                .map(|h| {
                    let f = |v: Option<f64>| v.map_or("–".to_string(), |v| format!("{v}"));
                    format!(
                        "R {} D {} K {}",
                        f(h.r),
                        f(h.d),
                        h.k.map_or("–".to_string(), |k| k.to_string())
                    )
                })
                .collect();
            parts.push(hops.join("; "));
        }
        if parts.is_empty() {
            parts.push("not scored".into());
        }
        if let Some(t) = self.error_type {
            parts.push(format!("error: {}", t.label()));
        }
        if !self.note.is_empty() {
            parts.push(format!("note: {}", self.note));
        }
        parts.join(" · ")
    }
}

/// The review of one set inside the workspace: the sample and the records.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SetReview {
    /// How the sample was drawn.
    pub sample: SampleSpec,
    /// The sampled item keys, in review order.
    pub keys: Vec<String>,
    /// The position of the item on screen, in `keys`.
    pub position: usize,
    /// The records by item key.
    pub records: BTreeMap<String, ReviewRecord>,
}

/// Everything the review page saves: the chosen set and each set's review. Serialised as
/// JSON into the store after every change.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Workspace {
    /// The set on screen, by name.
    pub current: Option<String>,
    /// Each set's review, by set name.
    pub sets: BTreeMap<String, SetReview>,
}

impl Workspace {
    /// Reads a saved workspace.
    ///
    /// # Errors
    /// The JSON error with line and column.
    pub fn from_json(text: &str) -> Result<Self, String> {
        serde_json::from_str(text).map_err(|e| format!("saved review workspace: {e}"))
    }

    /// The workspace as compact JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// The exported review of one set (the JSON export).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReviewExport {
    /// Always `coglab-review`.
    pub format: String,
    /// Format version, 1.
    pub version: u32,
    /// The set's name.
    pub set: String,
    /// What was scored.
    pub kind: SetKind,
    /// How the sample was drawn.
    pub sample: SampleSpec,
    /// The sampled keys, in review order.
    pub keys: Vec<String>,
    /// The non-empty records, in review order (then any others by key).
    pub records: Vec<ReviewRecord>,
}

/// The export's `format` value.
pub const FORMAT: &str = "coglab-review";

fn ordered_records(review: &SetReview) -> Vec<ReviewRecord> {
    let mut out: Vec<ReviewRecord> = review
        .keys
        .iter()
        .filter_map(|k| review.records.get(k))
        .filter(|r| !r.is_empty())
        .cloned()
        .collect();
    for (key, rec) in &review.records {
        if !rec.is_empty() && !review.keys.contains(key) {
            out.push(rec.clone());
        }
    }
    out
}

/// The review of `set` as pretty JSON ([`ReviewExport`]).
pub fn export_json(set_name: &str, kind: SetKind, review: &SetReview) -> String {
    let export = ReviewExport {
        format: FORMAT.into(),
        version: 1,
        set: set_name.to_string(),
        kind,
        sample: review.sample.clone(),
        keys: review.keys.clone(),
        records: ordered_records(review),
    };
    serde_json::to_string_pretty(&export).unwrap_or_default() + "\n"
}

/// The reviewer's error types tallied per stratum (the MM-IQ paper's Figure 4 per paradigm).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorTally {
    /// The field the strata are values of (e.g. `category`).
    pub field: String,
    /// Per stratum: records per error type ([`ErrorType::name`]); strata without a typed
    /// record are left out.
    pub by_stratum: BTreeMap<String, BTreeMap<String, usize>>,
    /// Over all strata.
    pub total: BTreeMap<String, usize>,
    /// Records with an error type.
    pub typed: usize,
}

/// Tallies the error types of `review`'s records by the items' `field` (items without it
/// under [`super::sample::MISSING`]).
///
/// # Examples
/// ```
/// use coglab_core::review::{error_tally, ErrorType, Judge, ReviewItem, ReviewRecord, ReviewSet, SetKind, SetReview};
/// let item = |k: &str, cat: &str| ReviewItem { key: k.into(), id: k.into(),
///     strata: vec![("category".into(), cat.into())], context: vec![], answer: None,
///     judge: Judge::Binary { correct: false, reason: String::new() } };
/// let set = ReviewSet { name: "s".into(), benchmark: "MM-IQ".into(), kind: SetKind::Binary,
///     items: vec![item("1", "Mathematical"), item("2", "Mathematical"), item("3", "2D-Geometry")],
///     fields: vec!["category".into()], files: vec![] };
/// let mut review = SetReview::default();
/// for (k, t) in [("1", ErrorType::WrongParadigm), ("2", ErrorType::WrongParadigm), ("3", ErrorType::Other)] {
///     review.records.insert(k.into(), ReviewRecord { key: k.into(), error_type: Some(t), ..Default::default() });
/// }
/// let t = error_tally(&set, &review, "category");
/// assert_eq!(t.by_stratum["Mathematical"]["wrong_paradigm"], 2);
/// assert_eq!(t.total["other"], 1);
/// assert_eq!(t.typed, 3);
/// ```
pub fn error_tally(set: &ReviewSet, review: &SetReview, field: &str) -> ErrorTally {
    let mut out = ErrorTally {
        field: field.to_string(),
        ..ErrorTally::default()
    };
    for rec in review.records.values() {
        let Some(t) = rec.error_type else { continue };
        let stratum = set
            .item(&rec.key)
            .and_then(|i| i.stratum(field))
            .unwrap_or(super::sample::MISSING);
        *out.by_stratum
            .entry(stratum.to_string())
            .or_default()
            .entry(t.name().to_string())
            .or_default() += 1;
        *out.total.entry(t.name().to_string()).or_default() += 1;
        out.typed += 1;
    }
    out
}

/// The CSV header of [`export_csv`].
pub const CSV_HEADER: [&str; 15] = [
    "set",
    "key",
    "id",
    "hop",
    "hop_name",
    "judge",
    "judge_r",
    "judge_d",
    "judge_k",
    "score",
    "r",
    "d",
    "k",
    "note",
    "error_type",
];

fn error_name(rec: &ReviewRecord) -> String {
    rec.error_type
        .map_or(String::new(), |t| t.name().to_string())
}

fn num(v: Option<f64>) -> String {
    v.map_or(String::new(), |v| format!("{v}"))
}

fn small(v: Option<u8>) -> String {
    v.map_or(String::new(), |v| v.to_string())
}

/// The review of `set` as CSV, one row per reviewed item (process sets: one per hop), with the
/// judge's values beside the reviewer's.
pub fn export_csv(set: &ReviewSet, review: &SetReview) -> String {
    crate::csv_text(|writer| {
        writer.write_record(CSV_HEADER)?;
        for rec in ordered_records(review) {
            let item = set.item(&rec.key);
            let id = item.map_or(String::new(), |i| i.id.clone());
            match item.map(|i| &i.judge) {
                Some(Judge::Process { hops, .. }) => {
                    let n = hops.len().max(rec.hops.len());
                    if n == 0 {
                        let row = [
                            &set.name,
                            &rec.key,
                            &id,
                            "",
                            "",
                            "",
                            "",
                            "",
                            "",
                            "",
                            "",
                            "",
                            "",
                            &rec.note,
                            &error_name(&rec),
                        ];
                        writer.write_record(row)?;
                    }
                    for h in 0..n {
                        let judge = hops.get(h);
                        let mine = rec.hops.get(h).copied().unwrap_or_default();
                        let row = [
                            set.name.clone(),
                            rec.key.clone(),
                            id.clone(),
                            (h + 1).to_string(),
                            judge.map_or(String::new(), |j| j.name.clone()),
                            String::new(),
                            num(judge.map(|j| j.r)),
                            num(judge.map(|j| j.d)),
                            num(judge.map(|j| j.k)),
                            String::new(),
                            num(mine.r),
                            num(mine.d),
                            small(mine.k),
                            rec.note.clone(),
                            error_name(&rec),
                        ];
                        writer.write_record(&row)?;
                    }
                }
                judge => {
                    let judge_score = match judge {
                        Some(Judge::Holistic { score, .. }) => small(*score),
                        Some(Judge::Binary { correct, .. }) => u8::from(*correct).to_string(),
                        _ => String::new(),
                    };
                    let row = [
                        set.name.clone(),
                        rec.key.clone(),
                        id,
                        String::new(),
                        String::new(),
                        judge_score,
                        String::new(),
                        String::new(),
                        String::new(),
                        small(rec.score),
                        String::new(),
                        String::new(),
                        String::new(),
                        rec.note.clone(),
                        error_name(&rec),
                    ];
                    writer.write_record(&row)?;
                }
            }
        }
        Ok(())
    })
}

/// A review read back from an export (read in the app's scoring worker and sent to the page).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ImportedReview {
    /// The set it belongs to, when the file says.
    pub set: Option<String>,
    /// What was scored, when the file says (JSON).
    pub kind: Option<SetKind>,
    /// The sample, when the file says (JSON).
    pub sample: Option<SampleSpec>,
    /// The sampled keys, when the file says (JSON).
    pub keys: Option<Vec<String>>,
    /// The records.
    pub records: Vec<ReviewRecord>,
}

fn check_record(file: &str, at: &str, rec: &ReviewRecord) -> Result<(), String> {
    if let Some(s) = rec.score {
        if s > 4 {
            return Err(format!(
                "{file}: {at}, field \"score\": expected a whole number 0-4, found {s}"
            ));
        }
    }
    for (i, h) in rec.hops.iter().enumerate() {
        for (name, v) in [("r", h.r), ("d", h.d)] {
            if let Some(v) = v {
                if !(0.0..=1.0).contains(&v) {
                    return Err(format!(
                        "{file}: {at}, hop {}, field \"{name}\": expected a number in [0, 1], found {v}",
                        i + 1
                    ));
                }
            }
        }
        if let Some(k) = h.k {
            if k > 1 {
                return Err(format!(
                    "{file}: {at}, hop {}, field \"k\": expected 0 or 1, found {k}",
                    i + 1
                ));
            }
        }
    }
    Ok(())
}

/// Reads a review exported as JSON ([`export_json`]) or CSV ([`export_csv`]); the first
/// non-blank character tells which.
///
/// # Errors
/// A located message: file, line (and column for JSON) or record and field, with what was
/// expected and found.
///
/// # Examples
/// ```
/// use coglab_core::review::records::import;
/// let csv = "set,key,id,hop,hop_name,judge,judge_r,judge_d,judge_k,score,r,d,k,note\n\
///            s,q1,q1,,,3,,,,7,,,,\n";
/// let err = import("review.csv", csv.as_bytes()).unwrap_err();
/// assert_eq!(err, r#"review.csv: line 2, field "score": expected a whole number 0-4, found "7""#);
/// ```
pub fn import(file: &str, bytes: &[u8]) -> Result<ImportedReview, String> {
    let text = std::str::from_utf8(bytes)
        .map_err(|e| format!("{file}: not UTF-8 text (byte {})", e.valid_up_to()))?;
    let text = text.trim_start_matches('\u{feff}');
    if text.trim_start().starts_with('{') {
        let export: ReviewExport =
            serde_json::from_str(text).map_err(|e| format!("{file}: {e}"))?;
        if export.format != FORMAT {
            return Err(format!(
                "{file}: field \"format\": expected \"{FORMAT}\", found {:?}",
                export.format
            ));
        }
        for (i, rec) in export.records.iter().enumerate() {
            check_record(file, &format!("record {} (key {})", i + 1, rec.key), rec)?;
        }
        return Ok(ImportedReview {
            set: Some(export.set),
            kind: Some(export.kind),
            sample: Some(export.sample),
            keys: Some(export.keys),
            records: export.records,
        });
    }
    import_csv(file, text)
}

fn import_csv(file: &str, text: &str) -> Result<ImportedReview, String> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(true)
        .from_reader(text.as_bytes());
    let header: Vec<String> = reader
        .headers()
        .map_err(|e| format!("{file}: line 1: {e}"))?
        .iter()
        .map(|h| h.trim().to_string())
        .collect();
    let col = |name: &str| header.iter().position(|h| h == name);
    let key_col = col("key").ok_or_else(|| {
        format!(
            "{file}: line 1: expected a \"key\" column (a coglab review export), found {header:?}"
        )
    })?;
    let (set_col, hop_col, score_col) = (col("set"), col("hop"), col("score"));
    let (r_col, d_col, k_col, note_col) = (col("r"), col("d"), col("k"), col("note"));
    let error_col = col("error_type");
    let mut set = None;
    let mut records: Vec<ReviewRecord> = Vec::new();
    let mut index: BTreeMap<String, usize> = BTreeMap::new();
    let mut lines = crate::location::LineIndex::new(text.as_bytes());
    for row in reader.records() {
        let row = row.map_err(|e| {
            let line = crate::location::LineIndex::new(text.as_bytes()).csv_line(e.position());
            format!("{file}: line {line}: {e}")
        })?;
        let line = lines.csv_line(row.position());
        let at = format!("line {line}");
        let get = |c: Option<usize>| c.and_then(|c| row.get(c)).map(str::trim).unwrap_or("");
        let key = get(Some(key_col));
        if key.is_empty() {
            return Err(format!(
                "{file}: {at}, field \"key\": expected an item key, found nothing"
            ));
        }
        if set.is_none() && !get(set_col).is_empty() {
            set = Some(get(set_col).to_string());
        }
        let small = |name: &str, c: Option<usize>, max: u8| -> Result<Option<u8>, String> {
            let v = get(c);
            if v.is_empty() {
                return Ok(None);
            }
            v.parse::<u8>()
                .ok()
                .filter(|x| *x <= max)
                .map(Some)
                .ok_or_else(|| {
                    let what = if max == 1 {
                        "0 or 1".to_string()
                    } else {
                        format!("a whole number 0-{max}")
                    };
                    format!("{file}: {at}, field \"{name}\": expected {what}, found {v:?}")
                })
        };
        let unit = |name: &str, c: Option<usize>| -> Result<Option<f64>, String> {
            let v = get(c);
            if v.is_empty() {
                return Ok(None);
            }
            v.parse::<f64>()
                .ok()
                .filter(|x| (0.0..=1.0).contains(x))
                .map(Some)
                .ok_or_else(|| {
                    format!(
                        "{file}: {at}, field \"{name}\": expected a number in [0, 1], found {v:?}"
                    )
                })
        };
        let i = *index.entry(key.to_string()).or_insert_with(|| {
            records.push(ReviewRecord::new(key));
            records.len() - 1
        });
        let rec = &mut records[i];
        if let Some(s) = small("score", score_col, 4)? {
            rec.score = Some(s);
        }
        let note = get(note_col);
        if rec.note.is_empty() && !note.is_empty() {
            rec.note = note.to_string();
        }
        let error = get(error_col);
        if !error.is_empty() {
            rec.error_type = Some(ErrorType::from_name(error).ok_or_else(|| {
                format!(
                    "{file}: {at}, field \"error_type\": expected wrong_paradigm, wrong_final_answer, wrong_visual_understanding or other, found {error:?}"
                )
            })?);
        }
        let hop = get(hop_col);
        if !hop.is_empty() {
            let h: usize = hop
                .parse()
                .ok()
                .filter(|h| (1..=1000).contains(h))
                .ok_or_else(|| {
                    format!(
                        "{file}: {at}, field \"hop\": expected a hop number from 1, found {hop:?}"
                    )
                })?;
            let score = HopScore {
                r: unit("r", r_col)?,
                d: unit("d", d_col)?,
                k: small("k", k_col, 1)?,
            };
            if rec.hops.len() < h {
                rec.hops.resize(h, HopScore::default());
            }
            rec.hops[h - 1] = score;
        }
    }
    for rec in &mut records {
        while rec.hops.last().is_some_and(HopScore::is_empty) {
            rec.hops.pop();
        }
    }
    Ok(ImportedReview {
        set,
        kind: None,
        sample: None,
        keys: None,
        records,
    })
}

/// One item scored differently here and in the imported review.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Conflict {
    /// The item's key.
    pub key: String,
    /// The record here.
    pub mine: ReviewRecord,
    /// The imported record.
    pub theirs: ReviewRecord,
}

/// What [`merge`] did.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MergeReport {
    /// Records taken from the import (new here, or empty here).
    pub added: usize,
    /// Imported records equal to the ones here.
    pub same: usize,
    /// Imported records that are empty where this review has work (kept).
    pub kept: usize,
    /// Items scored differently on both sides: this review's record is kept until
    /// [`resolve`] is called.
    pub conflicts: Vec<Conflict>,
}

/// Merges imported records into `mine`: new items and items empty here are taken, equal ones
/// counted, and items with different work on both sides reported as conflicts (left as they
/// are here).
///
/// # Examples
/// ```
/// use std::collections::BTreeMap;
/// use coglab_core::review::{merge, ReviewRecord};
/// let rec = |k: &str, s: u8| ReviewRecord { key: k.into(), score: Some(s), ..Default::default() };
/// let mut mine: BTreeMap<String, ReviewRecord> =
///     [("a".to_string(), rec("a", 3)), ("b".to_string(), rec("b", 2))].into();
/// let report = merge(&mut mine, vec![rec("a", 3), rec("b", 4), rec("c", 1)]);
/// assert_eq!((report.added, report.same, report.conflicts.len()), (1, 1, 1));
/// assert_eq!(mine["b"].score, Some(2)); // kept until resolved
/// ```
pub fn merge(mine: &mut BTreeMap<String, ReviewRecord>, theirs: Vec<ReviewRecord>) -> MergeReport {
    let mut report = MergeReport::default();
    for rec in theirs {
        match mine.get(&rec.key) {
            None => {
                if !rec.is_empty() {
                    report.added += 1;
                    mine.insert(rec.key.clone(), rec);
                }
            }
            Some(here) if here.same_as(&rec) => report.same += 1,
            Some(here) if here.is_empty() => {
                report.added += 1;
                mine.insert(rec.key.clone(), rec);
            }
            Some(_) if rec.is_empty() => report.kept += 1,
            Some(here) => report.conflicts.push(Conflict {
                key: rec.key.clone(),
                mine: here.clone(),
                theirs: rec,
            }),
        }
    }
    report
}

/// Which side wins a conflict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Keep {
    /// Keep this review's record.
    Mine,
    /// Take the imported record.
    Theirs,
}

/// Settles conflicts from [`merge`]: with [`Keep::Theirs`] the imported records replace
/// these; with [`Keep::Mine`] nothing changes.
pub fn resolve(mine: &mut BTreeMap<String, ReviewRecord>, conflicts: &[Conflict], keep: Keep) {
    if keep == Keep::Theirs {
        for c in conflicts {
            mine.insert(c.key.clone(), c.theirs.clone());
        }
    }
}

/// A one-line summary of a merge, for people.
pub fn merge_summary(report: &MergeReport) -> String {
    let mut s = String::new();
    let _ = write!(
        s,
        "{} added, {} identical, {} conflicting",
        report.added,
        report.same,
        report.conflicts.len()
    );
    if report.kept > 0 {
        let _ = write!(s, ", {} empty in the import (yours kept)", report.kept);
    }
    s
}
