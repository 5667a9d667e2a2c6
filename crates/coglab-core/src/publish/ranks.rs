//! The paired rank groups' inputs of a bundle: one compact file per benchmark
//! (`items/ranks-<benchmark>.json`, [`RanksFile`]) with what [`crate::ranks::view::rank_board`]
//! reads of every published row of that benchmark, so that a board's rank panel needs one
//! request, not one model chunk per published row (300 for 300 models).
//!
//! - MM-IQ: the key's item ids once, then per row one character per key item in key order:
//!   `1` right, `0` wrong (a prediction without an answer is wrong, as scored), `-` not
//!   scored (no prediction). 2,710 characters per model; gzip packs them to about a bit each.
//! - KiVA / KiVA-adults: per row its trials `[subdomain, variation, regenerations, cross,
//!   within_conditional, within_joint, extrapolation]` (the regenerations count is what
//!   [`crate::ranks::inputs::kiva_items`] expands a trial's stage score into, as for dropped
//!   files).
//! - MM-OPERA (one file per task): per row its items' holistic scores, S_r and judges (the
//!   chunk's [`ItemScores`]).
//!
//! The index lists each file with its SHA-256 ([`RanksRef`]); `coglab verify` checks it and
//! rebuilds the file byte for byte. The web worker fetches a board's file once, when its rank
//! panel first asks, and fills each published row's report with [`fill`].

use serde::{Deserialize, Serialize};

use super::manifest::Benchmark;
use crate::kiva::{KivaReport, TrialResult};
use crate::leaderboard::mmopera::ItemScores;
use crate::leaderboard::Detail;
use crate::mmiq::{ItemResult, MmiqReport};
use crate::mmopera::Task;

/// A rank file in the index: its benchmark, path (relative to the bundle root) and SHA-256.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RanksRef {
    /// The benchmark whose published rows it holds.
    pub benchmark: Benchmark,
    /// `items/ranks-<benchmark>.json`.
    pub path: String,
    /// Lower-case hex SHA-256 of its bytes.
    pub sha256: String,
}

/// The path of a benchmark's rank file.
///
/// # Examples
/// ```
/// use coglab_core::publish::{ranks::path, Benchmark};
/// assert_eq!(path(Benchmark::KivaAdults), "items/ranks-kiva-adults.json");
/// ```
pub fn path(benchmark: Benchmark) -> String {
    format!("items/ranks-{}.json", benchmark.key())
}

/// One KiVA trial as ranks read it: `[subdomain, variation, regenerations, cross,
/// within_conditional, within_joint, extrapolation]`.
pub type RankTrial = (
    String,
    u64,
    usize,
    Option<f64>,
    Option<f64>,
    Option<f64>,
    Option<f64>,
);

/// One published row's item-level inputs to the rank groups.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum RankItems {
    /// MM-IQ verdicts, one character per key item ([`RanksFile::ids`] order): `1` right,
    /// `0` wrong, `-` not scored.
    Mmiq(String),
    /// KiVA trials.
    Kiva(Vec<RankTrial>),
    /// MM-OPERA items of the file's task.
    Mmopera(Vec<ItemScores>),
}

/// One published row of a [`RanksFile`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RanksRow {
    /// Position of the model in [`super::Index::models`].
    pub model: usize,
    /// Its name (for a reader; the position is what is matched).
    pub name: String,
    /// Its items.
    pub items: RankItems,
}

/// A benchmark's rank file (`items/ranks-<benchmark>.json`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RanksFile {
    /// The benchmark.
    pub benchmark: Benchmark,
    /// MM-IQ: the key's item ids, in key order (the verdicts' order); empty otherwise.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ids: Vec<u64>,
    /// The published rows of the benchmark, in index order.
    pub rows: Vec<RanksRow>,
}

/// An MM-IQ report's verdicts in the order of `ids` (the key's): `1` right, `0` wrong, `-`
/// not scored.
///
/// # Examples
/// ```
/// use coglab_core::mmiq::{score, AnswerKey, Predictions};
/// use coglab_core::publish::ranks::mmiq_verdicts;
/// let key = AnswerKey::parse("k.jsonl", concat!(
///     r#"{"category": "Mathematical", "data_id": 5, "answer": "A"}"#, "\n",
///     r#"{"category": "Mathematical", "data_id": 9, "answer": "B"}"#, "\n",
///     r#"{"category": "Mathematical", "data_id": 2, "answer": "C"}"#)).unwrap();
/// let preds = "{\"data_id\": 9, \"parsed_pred\": \"B\"}\n{\"data_id\": 5, \"parsed_pred\": \"\"}";
/// let r = score(&key, &Predictions::parse("p.jsonl", preds.as_bytes()).unwrap()).unwrap();
/// // Key order 5, 9, 2: 5 has no answer (wrong), 9 right, 2 has no prediction.
/// assert_eq!(mmiq_verdicts(&[5, 9, 2], &r), "01-");
/// ```
pub fn mmiq_verdicts(ids: &[u64], report: &MmiqReport) -> String {
    let pos: std::collections::HashMap<u64, usize> =
        ids.iter().enumerate().map(|(i, id)| (*id, i)).collect();
    let mut out = vec![b'-'; ids.len()];
    for item in &report.items {
        if let Some(&i) = pos.get(&item.data_id) {
            out[i] = if item.correct { b'1' } else { b'0' };
        }
    }
    out.into_iter().map(char::from).collect()
}

/// A KiVA report's trials as the rank file keeps them.
pub fn kiva_trials(report: &KivaReport) -> Vec<RankTrial> {
    report
        .trials
        .iter()
        .map(|t| {
            (
                t.subdomain.clone(),
                t.variation,
                t.rows,
                t.cross,
                t.within_conditional,
                t.within_joint,
                t.extrapolation,
            )
        })
        .collect()
}

/// Fills a published row's summary report (`detail`, from [`super::site::board_rows`]) with
/// its items from a rank file: MM-IQ items (verdicts only: no parsed answer, category or
/// response), KiVA trials, or the items of one MM-OPERA task. What it fills is what the rank
/// groups read, not a drill-down: the worker ranks with it and keeps the row's summary.
///
/// # Errors
/// A message naming the file's benchmark when it has no row for `model`, or when the row's
/// items are not of the report's kind (or an MM-IQ verdict string is not the ids' length or
/// has another character).
///
/// # Examples
/// ```
/// use coglab_core::leaderboard::Detail;
/// use coglab_core::mmiq::{score, AnswerKey, Predictions};
/// use coglab_core::publish::ranks::{fill, RankItems, RanksFile, RanksRow};
/// use coglab_core::publish::Benchmark;
/// let key = AnswerKey::parse("k.jsonl", concat!(
///     r#"{"category": "Mathematical", "data_id": 0, "answer": "A"}"#, "\n",
///     r#"{"category": "Mathematical", "data_id": 1, "answer": "B"}"#)).unwrap();
/// let mut r = score(&key, &Predictions::parse("p.jsonl", b"{\"data_id\": 1, \"parsed_pred\": \"B\"}").unwrap()).unwrap();
/// r.items.clear();
/// let file = RanksFile { benchmark: Benchmark::Mmiq, ids: vec![0, 1], rows: vec![
///     RanksRow { model: 4, name: "m".into(), items: RankItems::Mmiq("-1".into()) }] };
/// let mut d = Detail::Mmiq(r);
/// fill(&mut d, &file, 4).unwrap();
/// let Detail::Mmiq(r) = d else { unreachable!() };
/// assert_eq!(r.items.iter().map(|i| (i.data_id, i.correct)).collect::<Vec<_>>(), [(1, true)]);
/// ```
pub fn fill(detail: &mut Detail, file: &RanksFile, model: usize) -> Result<(), String> {
    let name = file.benchmark.key();
    let row = file
        .rows
        .iter()
        .find(|r| r.model == model)
        .ok_or_else(|| format!("{}: no row for model {model}", path(file.benchmark)))?;
    match (detail, &row.items) {
        (Detail::Mmiq(r), RankItems::Mmiq(v)) => {
            if v.len() != file.ids.len() {
                return Err(format!(
                    "{}: {}'s verdicts have {} characters for {} items",
                    path(file.benchmark),
                    row.name,
                    v.len(),
                    file.ids.len()
                ));
            }
            let mut items = Vec::new();
            for (i, (c, id)) in v.bytes().zip(&file.ids).enumerate() {
                let correct = match c {
                    b'1' => true,
                    b'0' => false,
                    b'-' => continue,
                    other => {
                        return Err(format!(
                            "{}: {}'s verdict {} is {:?}; expected 1, 0 or -",
                            path(file.benchmark),
                            row.name,
                            i + 1,
                            char::from(other)
                        ))
                    }
                };
                items.push(ItemResult {
                    data_id: *id,
                    category: String::new(),
                    response: None,
                    parsed: "".into(),
                    key: '?',
                    correct,
                    line: i + 1,
                });
            }
            r.items = items;
        }
        (Detail::Kiva(r), RankItems::Kiva(trials)) => {
            r.trials = trials
                .iter()
                .map(|(sub, var, rows, c, wc, wj, e)| TrialResult {
                    domain: String::new(),
                    subdomain: sub.clone(),
                    variation: *var,
                    participant: None,
                    rows: *rows,
                    line: 0,
                    cross: *c,
                    within_conditional: *wc,
                    within_joint: *wj,
                    extrapolation: *e,
                })
                .collect();
        }
        (Detail::Mmopera(r), RankItems::Mmopera(items)) => {
            let task = match file.benchmark {
                Benchmark::MmoperaIca => Task::Ica,
                _ => Task::Ria,
            };
            let t = match task {
                Task::Ria => r.ria.as_mut(),
                Task::Ica => r.ica.as_mut(),
            };
            let t = t.ok_or_else(|| {
                format!("{}: {} has no {name} row", path(file.benchmark), row.name)
            })?;
            t.items = items.clone();
        }
        _ => {
            return Err(format!(
                "{}: {}'s items are not of its row's kind",
                path(file.benchmark),
                row.name
            ))
        }
    }
    Ok(())
}
