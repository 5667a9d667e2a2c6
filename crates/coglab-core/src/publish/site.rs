//! The site's side of a bundle: the board rows of an [`Index`] (summaries, as the leaderboard's
//! scorer makes them for dropped files, items left out) and, once a model's chunk is fetched,
//! the item-level reports behind its rows ([`details`]), so that the drill-down, comparisons
//! and rank groups run on published rows exactly as on dropped ones.
//!
//! MM-IQ, KiVA and MM-OPERA rows are rebuilt as the leaderboard's scorer makes them for
//! dropped files (MM-OPERA from the task rows the index keeps, [`super::bundle::RunIndex::mmopera_row`]);
//! a Gold run is one row of its matrix's scores (no matrix to assign tasks again).

use std::collections::BTreeMap;

use super::bundle::{
    mmiq_item_results, Acc, Figures, Index, Mean, MmiqKeyChunk, ModelChunk, RunIndex, RunItems,
    Stages,
};
use super::manifest::Benchmark;
use crate::kiva::{KivaReport, RowCounts as KivaRows, Source, StageStats, TrialResult, Variant};
use crate::leaderboard::gold::{GoldMatrix, GoldResult, GoldRow, LAYERS};
use crate::leaderboard::mmopera::{ItemScores, MmoperaRow, MmoperaTaskRow};
use crate::leaderboard::{Detail, KivaRow, MmiqRow, Scored};
use crate::mmiq::{Accuracy, HumanReference, MmiqReport, RowCounts, Warnings, CHANCE};
use crate::mmopera::Task;
use crate::sem::suite::RankRow;
use crate::stats::describe::MeanSe;

/// The label the site shows on a published row.
pub const PUBLISHED: &str = "published";

fn accuracy(a: &Acc) -> Accuracy {
    Accuracy {
        accuracy: a.acc,
        n: a.n,
        correct: a.k,
        ci_low: a.lo,
        ci_high: a.hi,
    }
}

fn mean_se(m: Option<Mean>) -> Option<MeanSe> {
    m.map(|m| MeanSe {
        mean: m.mean,
        se: m.se,
        n: m.n,
    })
}

fn stages(s: &Stages) -> StageStats {
    StageStats {
        cross: mean_se(s.cross),
        within_conditional: mean_se(s.within_conditional),
        within_joint: mean_se(s.within_joint),
        extrapolation: mean_se(s.extrapolation),
    }
}

/// Where a board row of [`board_rows`] comes from: the model's position in the index and the
/// benchmark, to fetch its chunk later.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RowSource {
    /// Position of the model in [`Index::models`].
    pub model: usize,
    /// The run's benchmark.
    pub benchmark: Benchmark,
}

/// The board rows of an index: MM-IQ, KiVA and MM-OPERA rows with the published figures
/// (items and trials empty until [`details`] fills them; an MM-OPERA row holds a model's RIA
/// and ICA runs) and Gold rows (a one-model result of the run's matrix), and where each comes
/// from, in the order of the rows in the returned [`Scored`] (MM-IQ rows first, then KiVA,
/// MM-OPERA, Gold; an MM-OPERA row's source names its first task's benchmark, see
/// [`row_benchmarks`]).
///
/// # Examples
/// ```
/// use coglab_core::publish::{bundle::Index, site::board_rows};
/// let index = Index { format: 1, coglab: "0.1.0".into(), title: None,
///     manifest_sha256: String::new(), keys: vec![], mmiq_key_chunk: None, ranks: vec![],
///     models: vec![], audit: vec![] };
/// let (rows, sources) = board_rows(&index);
/// assert!(rows.mmiq.is_empty() && sources.is_empty());
/// ```
pub fn board_rows(index: &Index) -> (Scored, Vec<RowSource>) {
    let mut out = Scored::default();
    let mut mmiq_src = Vec::new();
    let mut kiva_src = Vec::new();
    let mut mmopera_src = Vec::new();
    let mut gold_src = Vec::new();
    for (mi, m) in index.models.iter().enumerate() {
        for run in &m.runs {
            match &run.figures {
                Figures::Mmiq {
                    overall,
                    by_category,
                } => {
                    let file = run
                        .files
                        .first()
                        .map(|f| f.path.clone())
                        .unwrap_or_default();
                    out.mmiq.push(MmiqRow {
                        id: Default::default(),
                        model: m.name.clone(),
                        report: MmiqReport {
                            benchmark: "MM-IQ".into(),
                            file,
                            key_file: index
                                .keys
                                .first()
                                .map(|k| k.path.clone())
                                .unwrap_or_default(),
                            overall: accuracy(overall),
                            by_category: by_category
                                .iter()
                                .map(|(k, v)| (k.clone(), accuracy(v)))
                                .collect(),
                            chance: CHANCE,
                            // The index keeps the headline figures only: the key's letters
                            // and response lengths are the dropped files' (issue 23).
                            letters: Default::default(),
                            response_length: None,
                            harness: None,
                            human: HumanReference::paper(),
                            rows: RowCounts {
                                read: run.coverage.scored,
                                scored: run.coverage.scored,
                                key_items_without_prediction: run
                                    .coverage
                                    .of
                                    .unwrap_or(0)
                                    .saturating_sub(run.coverage.scored),
                                ..RowCounts::default()
                            },
                            warnings: Warnings::default(),
                            items: Vec::new(),
                        },
                    });
                    mmiq_src.push(RowSource {
                        model: mi,
                        benchmark: run.benchmark,
                    });
                }
                Figures::Kiva { overall, by_domain } => {
                    out.kiva.push(KivaRow {
                        id: Default::default(),
                        model: m.name.clone(),
                        report: KivaReport {
                            benchmark: "kiva".into(),
                            variant: if run.benchmark == Benchmark::KivaAdults {
                                Variant::KivaAdults
                            } else {
                                Variant::Kiva
                            },
                            source: Source::Model,
                            files: run.files.iter().map(|f| f.path.clone()).collect(),
                            // Published runs are scored with the repository's rule.
                            null: Default::default(),
                            harness: None,
                            overall: stages(overall),
                            by_domain: by_domain
                                .iter()
                                .map(|(k, v)| (k.clone(), stages(v)))
                                .collect(),
                            by_subdomain: BTreeMap::new(),
                            rows: KivaRows {
                                files: run.files.len(),
                                trials: run.coverage.scored,
                                ..KivaRows::default()
                            },
                            missing_subdomains: Vec::new(),
                            warnings: Warnings::default(),
                            reaction_time: None,
                            rt_correlation: None,
                            trials: Vec::new(),
                        },
                        null_missing: None,
                    });
                    kiva_src.push(RowSource {
                        model: mi,
                        benchmark: run.benchmark,
                    });
                }
                Figures::Gold {
                    overall,
                    by_layer,
                    plain_mean,
                    rank_weighted,
                    rank_plain,
                    n_models,
                } => {
                    let file = run
                        .files
                        .first()
                        .map(|f| f.path.clone())
                        .unwrap_or_default();
                    let mut layers: Vec<String> = LAYERS
                        .iter()
                        .filter(|l| by_layer.contains_key(**l))
                        .map(|l| l.to_string())
                        .collect();
                    let others: Vec<String> = by_layer
                        .keys()
                        .filter(|k| !LAYERS.contains(&k.as_str()))
                        .cloned()
                        .collect();
                    layers.extend(others);
                    out.gold.push(GoldRow {
                        id: Default::default(),
                        matrix: GoldMatrix {
                            file,
                            models: vec![m.name.clone()],
                            tasks: Vec::new(),
                        },
                        data: None,
                        result: Some(GoldResult {
                            assignment: BTreeMap::new(),
                            spec: run.settings.get("assignment").cloned().unwrap_or_default(),
                            layers,
                            rows: vec![RankRow {
                                model: m.name.clone(),
                                overall: *overall,
                                by_construct: by_layer.clone(),
                                plain_mean: *plain_mean,
                                rank_weighted: *rank_weighted,
                                rank_plain: *rank_plain,
                                // `RankRow::change`'s definition.
                                change: *rank_plain as i64 - *rank_weighted as i64,
                            }],
                            n_models: *n_models,
                            dropped_models: Vec::new(),
                            out_of_range: Vec::new(),
                        }),
                        message: None,
                    });
                    gold_src.push(RowSource {
                        model: mi,
                        benchmark: run.benchmark,
                    });
                }
                Figures::Mmopera { .. } => {}
            }
        }
        // A model's MM-OPERA runs (RIA and/or ICA) make one row, as dropped judge files do.
        let tasks: Vec<(&RunIndex, &MmoperaTaskRow)> = m
            .runs
            .iter()
            .filter_map(|r| Some((r, r.mmopera_row.as_deref()?)))
            .collect();
        if let Some((first, _)) = tasks.first() {
            let task = |t: Task| {
                tasks
                    .iter()
                    .find(|(_, row)| row.task == t)
                    .map(|(_, row)| (*row).clone())
            };
            out.mmopera.push(MmoperaRow {
                id: Default::default(),
                model: m.name.clone(),
                ria: task(Task::Ria),
                ica: task(Task::Ica),
            });
            mmopera_src.push(RowSource {
                model: mi,
                benchmark: first.benchmark,
            });
        }
    }
    mmiq_src.extend(kiva_src);
    mmiq_src.extend(mmopera_src);
    mmiq_src.extend(gold_src);
    (out, mmiq_src)
}

/// The benchmarks a board row of [`board_rows`] holds: an MM-OPERA row those of its model's
/// MM-OPERA runs (RIA and/or ICA), any other row its source's.
pub fn row_benchmarks(index: &Index, src: &RowSource) -> Vec<Benchmark> {
    match src.benchmark {
        Benchmark::MmoperaRia | Benchmark::MmoperaIca => index
            .models
            .get(src.model)
            .map(|m| {
                m.runs
                    .iter()
                    .map(|r| r.benchmark)
                    .filter(|b| matches!(b, Benchmark::MmoperaRia | Benchmark::MmoperaIca))
                    .collect()
            })
            .unwrap_or_default(),
        b => vec![b],
    }
}

/// The item-level report of a board row once its model's chunk (and, for MM-IQ, the key
/// chunk) is fetched: the row's summary with its items or trials filled in.
///
/// # Errors
/// A message when the chunk has no run of the row's benchmark, or an MM-IQ run comes without
/// the key chunk.
pub fn details(
    summary: &Detail,
    benchmark: Benchmark,
    chunk: &ModelChunk,
    key: Option<&MmiqKeyChunk>,
) -> Result<Detail, String> {
    if let Detail::Mmopera(r) = summary {
        // Both tasks' items, from the chunk's MM-OPERA runs.
        let mut full = r.clone();
        for run in &chunk.runs {
            let (RunItems::Mmopera(items), Some(t)) = (
                &run.items,
                match run.benchmark {
                    Benchmark::MmoperaRia => full.ria.as_mut(),
                    Benchmark::MmoperaIca => full.ica.as_mut(),
                    _ => None,
                },
            ) else {
                continue;
            };
            t.items = items.clone();
        }
        return Ok(Detail::Mmopera(full));
    }
    let run = chunk
        .runs
        .iter()
        .find(|r| r.benchmark == benchmark)
        .ok_or_else(|| format!("the chunk of {} has no {benchmark} run", chunk.model))?;
    match (summary, &run.items) {
        (Detail::Mmiq(r), RunItems::Mmiq(items)) => {
            let key = key.ok_or("the MM-IQ key chunk is missing")?;
            let mut full = r.clone();
            full.items = mmiq_item_results(key, items);
            Ok(Detail::Mmiq(full))
        }
        (Detail::Kiva(r), RunItems::Kiva(trials)) => {
            let mut full = r.clone();
            full.trials = trials
                .iter()
                .map(|(domain, sub, var, c, wc, wj, e)| TrialResult {
                    domain: domain.clone(),
                    subdomain: sub.clone(),
                    variation: *var,
                    participant: None,
                    rows: 0,
                    line: 0,
                    cross: *c,
                    within_conditional: *wc,
                    within_joint: *wj,
                    extrapolation: *e,
                })
                .collect();
            Ok(Detail::Kiva(full))
        }
        _ => Err(format!(
            "the chunk of {}'s {benchmark} run is not of its row's kind",
            chunk.model
        )),
    }
}

/// Whether a visitor's result files reproduce a published row, and where they would rank.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Reproduction {
    /// Items (MM-IQ), trials × stages (KiVA) or judged items of each task (MM-OPERA) compared.
    pub compared: usize,
    /// Whether every compared verdict is the same and neither side has items the other lacks.
    pub reproduces: bool,
    /// The items whose verdicts differ (MM-IQ: data ids; KiVA: `<subdomain> v<variation>
    /// <stage>`; MM-OPERA: `<task> <item id>`), at most [`MAX_LISTED`].
    pub differing: Vec<String>,
    /// How many differ (all of them).
    pub n_differing: usize,
    /// Items scored in the published row only.
    pub only_published: usize,
    /// Items scored in the submitted files only.
    pub only_submitted: usize,
    /// The headline figure of the submitted files ([`headline`]).
    pub figure: f64,
    /// The published row's figure ([`board_figure`]).
    pub published_figure: f64,
    /// The rank the submitted figure would take on the benchmark's published board in place
    /// of the published row: 1 + the number of the other published figures above it by more
    /// than 1e-6 (the index's rounding).
    pub rank: usize,
    /// Published rows of the benchmark (the submission in place of its published row).
    pub of: usize,
}

/// The most differing items [`reproduce`] lists.
pub const MAX_LISTED: usize = 50;

/// The task whose score rate is an MM-OPERA row's headline: RIA when it has RIA holistic
/// scores, else ICA when it has those.
fn opera_task(r: &MmoperaRow) -> Option<Task> {
    [Task::Ria, Task::Ica]
        .into_iter()
        .find(|t| r.task(*t).is_some_and(|x| x.holistic.is_some()))
}

fn opera_sr(r: &MmoperaRow, task: Task) -> Option<f64> {
    r.task(task)?.holistic.as_ref().map(|h| h.score_rate)
}

/// The headline figure of a report: MM-IQ accuracy, KiVA stage-1 (cross-domain) mean,
/// MM-OPERA score rate of RIA (of ICA for a row without RIA).
pub fn headline(d: &Detail) -> Option<f64> {
    match d {
        Detail::Mmiq(r) => Some(r.overall.accuracy),
        Detail::Kiva(r) => r.overall.cross.map(|m| m.mean),
        Detail::Mmopera(r) => opera_sr(r, opera_task(r)?),
        // Challenge rows are never published (no items a bundle keeps) nor submitted.
        Detail::Gold(_) | Detail::KivaChallenge(_) => None,
    }
}

/// The figure of a published row that a submission's [`headline`] ranks against: the row's
/// headline, or for MM-OPERA its score rate on the submission's headline task (none when the
/// row lacks that task).
pub fn board_figure(submitted: &Detail, row: &Detail) -> Option<f64> {
    match (submitted, row) {
        (Detail::Mmopera(s), Detail::Mmopera(r)) => opera_sr(r, opera_task(s)?),
        _ => headline(row),
    }
}

/// Compares a visitor's scored files (`submitted`) with a published row's items
/// (`published`, its chunk fetched), verdict by verdict, and ranks the submitted figure on the
/// published board in the published row's place: among `others`, the headline figures of the
/// benchmark's other published rows (issue 42, defect 10: with the published row itself among
/// them, a board of one read "would rank 2 of 1").
///
/// # Errors
/// A message when the two are not reports of one benchmark with items (MM-IQ or KiVA).
///
/// # Examples
/// ```
/// use coglab_core::leaderboard::Detail;
/// use coglab_core::mmiq::{score, AnswerKey, Predictions};
/// use coglab_core::publish::site::reproduce;
/// let key = AnswerKey::parse("k.jsonl", concat!(
///     r#"{"category": "Mathematical", "data_id": 0, "answer": "A"}"#, "\n",
///     r#"{"category": "Mathematical", "data_id": 1, "answer": "B"}"#)).unwrap();
/// let run = |p: &str| Detail::Mmiq(score(&key, &Predictions::parse("p.jsonl", p.as_bytes()).unwrap()).unwrap());
/// let published = run("{\"data_id\": 0, \"parsed_pred\": \"A\"}\n{\"data_id\": 1, \"parsed_pred\": \"C\"}");
/// // The published row scores 0.5; one other published row scores 0.9.
/// let same = reproduce(&published, &published, &[0.9]).unwrap();
/// assert!(same.reproduces);
/// assert_eq!((same.rank, same.of), (2, 2));
/// let other = run("{\"data_id\": 0, \"parsed_pred\": \"A\"}\n{\"data_id\": 1, \"parsed_pred\": \"B\"}");
/// let r = reproduce(&published, &other, &[0.9]).unwrap();
/// assert!(!r.reproduces);
/// assert_eq!(r.differing, ["1"]);
/// assert_eq!((r.rank, r.of), (1, 2));
/// // Alone on its board, a submission below its published row still ranks 1 of 1.
/// let worse = run("{\"data_id\": 0, \"parsed_pred\": \"C\"}\n{\"data_id\": 1, \"parsed_pred\": \"C\"}");
/// let r = reproduce(&published, &worse, &[]).unwrap();
/// assert_eq!((r.rank, r.of), (1, 1));
/// ```
pub fn reproduce(
    published: &Detail,
    submitted: &Detail,
    others: &[f64],
) -> Result<Reproduction, String> {
    let mut differing = Vec::new();
    let (compared, only_published, only_submitted) = match (published, submitted) {
        (Detail::Mmiq(p), Detail::Mmiq(s)) => {
            let pv: BTreeMap<u64, bool> = p.items.iter().map(|i| (i.data_id, i.correct)).collect();
            let sv: BTreeMap<u64, bool> = s.items.iter().map(|i| (i.data_id, i.correct)).collect();
            let mut compared = 0;
            for (id, c) in &pv {
                if let Some(d) = sv.get(id) {
                    compared += 1;
                    if d != c {
                        differing.push(id.to_string());
                    }
                }
            }
            let only_p = pv.keys().filter(|k| !sv.contains_key(k)).count();
            let only_s = sv.keys().filter(|k| !pv.contains_key(k)).count();
            (compared, only_p, only_s)
        }
        (Detail::Kiva(p), Detail::Kiva(s)) => {
            type Key = (String, u64);
            let stages = |t: &TrialResult| {
                [
                    ("cross", t.cross),
                    ("within_conditional", t.within_conditional),
                    ("within_joint", t.within_joint),
                    ("extrapolation", t.extrapolation),
                ]
            };
            let pv: BTreeMap<Key, &TrialResult> = p
                .trials
                .iter()
                .map(|t| ((t.subdomain.clone(), t.variation), t))
                .collect();
            let sv: BTreeMap<Key, &TrialResult> = s
                .trials
                .iter()
                .map(|t| ((t.subdomain.clone(), t.variation), t))
                .collect();
            let mut compared = 0;
            for (k, t) in &pv {
                let Some(u) = sv.get(k) else { continue };
                for ((stage, a), (_, b)) in stages(t).into_iter().zip(stages(u)) {
                    compared += 1;
                    let same = match (a, b) {
                        (Some(x), Some(y)) => (x - y).abs() <= 1e-12,
                        (None, None) => true,
                        _ => false,
                    };
                    if !same {
                        differing.push(format!("{} v{} {stage}", k.0, k.1));
                    }
                }
            }
            let only_p = pv.keys().filter(|k| !sv.contains_key(*k)).count();
            let only_s = sv.keys().filter(|k| !pv.contains_key(*k)).count();
            (compared, only_p, only_s)
        }
        (Detail::Mmopera(p), Detail::Mmopera(s)) => {
            // Per task the submission has (a visitor may check one task of a model published
            // with both), the items both judged: the same holistic scores (every verdict, in
            // order) and the same S_r.
            let (mut compared, mut only_p, mut only_s) = (0, 0, 0);
            for task in [Task::Ria, Task::Ica] {
                if s.task(task).is_none() {
                    continue;
                }
                let by_id = |r: &MmoperaRow| -> BTreeMap<String, ItemScores> {
                    r.task(task)
                        .map(|t| t.items.iter().map(|i| (i.id.clone(), i.clone())).collect())
                        .unwrap_or_default()
                };
                let (pv, sv) = (by_id(p), by_id(s));
                for (id, a) in &pv {
                    let Some(b) = sv.get(id) else { continue };
                    compared += 1;
                    let same_sr = match (a.s_r, b.s_r) {
                        (Some(x), Some(y)) => (x - y).abs() <= 1e-12,
                        (None, None) => true,
                        _ => false,
                    };
                    if a.scores != b.scores || !same_sr {
                        differing.push(format!("{} {id}", task.name()));
                    }
                }
                only_p += pv.keys().filter(|k| !sv.contains_key(*k)).count();
                only_s += sv.keys().filter(|k| !pv.contains_key(*k)).count();
            }
            (compared, only_p, only_s)
        }
        _ => return Err("the submitted files and the published row are not of one benchmark with items (MM-IQ, KiVA or MM-OPERA)".into()),
    };
    let figure = headline(submitted).unwrap_or(f64::NAN);
    let n_differing = differing.len();
    differing.truncate(MAX_LISTED);
    Ok(Reproduction {
        compared,
        reproduces: n_differing == 0 && only_published == 0 && only_submitted == 0,
        differing,
        n_differing,
        only_published,
        only_submitted,
        figure,
        published_figure: board_figure(submitted, published).unwrap_or(f64::NAN),
        rank: 1 + others.iter().filter(|v| **v > figure + 1e-6).count(),
        of: others.len() + 1,
    })
}
