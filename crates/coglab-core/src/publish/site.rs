//! The site's side of a bundle: the board rows of an [`Index`] (summaries, as the leaderboard's
//! scorer makes them for dropped files, items left out) and, once a model's chunk is fetched,
//! the item-level reports behind its rows ([`details`]), so that the drill-down, comparisons
//! and rank groups run on published rows exactly as on dropped ones.
//!
//! MM-IQ and KiVA rows are rebuilt; MM-OPERA and Gold rows are shown from the index and the
//! static boards only (their summary reports carry breakdowns the index does not keep).

use std::collections::BTreeMap;

use super::bundle::{
    mmiq_item_results, Acc, Figures, Index, Mean, MmiqKeyChunk, ModelChunk, RunItems, Stages,
};
use super::manifest::Benchmark;
use crate::kiva::{KivaReport, RowCounts as KivaRows, Source, StageStats, TrialResult, Variant};
use crate::leaderboard::{Detail, KivaRow, MmiqRow, Scored};
use crate::mmiq::{Accuracy, HumanReference, MmiqReport, RowCounts, Warnings, CHANCE};
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

/// The board rows of an index: MM-IQ and KiVA rows with the published figures (items and
/// trials empty until [`details`] fills them), and where each comes from, in the order of the
/// rows in the returned [`Scored`] (MM-IQ rows first, then KiVA).
///
/// # Examples
/// ```
/// use coglab_core::publish::{bundle::Index, site::board_rows};
/// let index = Index { format: 1, coglab: "0.1.0".into(), title: None,
///     manifest_sha256: String::new(), keys: vec![], mmiq_key_chunk: None,
///     models: vec![], audit: vec![] };
/// let (rows, sources) = board_rows(&index);
/// assert!(rows.mmiq.is_empty() && sources.is_empty());
/// ```
pub fn board_rows(index: &Index) -> (Scored, Vec<RowSource>) {
    let mut out = Scored::default();
    let mut mmiq_src = Vec::new();
    let mut kiva_src = Vec::new();
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
                        id: 0,
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
                        id: 0,
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
                    });
                    kiva_src.push(RowSource {
                        model: mi,
                        benchmark: run.benchmark,
                    });
                }
                _ => {}
            }
        }
    }
    mmiq_src.extend(kiva_src);
    (out, mmiq_src)
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
