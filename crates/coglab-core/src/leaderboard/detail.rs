//! Item-level views behind the leaderboard: a model's items (paged and filtered), and two-model
//! comparisons with the items in each cell of the 2x2 table (MM-IQ) or per KiVA stage.
//!
//! The web app's worker keeps the full reports and answers these queries, so the page never
//! receives or parses the whole item list.

use std::collections::{BTreeMap, HashMap};

use serde::{Deserialize, Serialize};

use crate::kiva::KivaReport;
use crate::mmiq::{self, Accuracy, ItemResult, MmiqComparison, MmiqReport};
use crate::stats::paired::{mcnemar_exact_p, paired_bootstrap_diff, BootstrapDiff, PairedTable};

/// Which of a model's MM-IQ items to return.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct ItemsQuery {
    /// Only items answered wrong.
    #[serde(default)]
    pub wrong_only: bool,
    /// Only items of this category (`None` or empty: all).
    #[serde(default)]
    pub category: Option<String>,
    /// Index of the first item returned among the matching ones.
    #[serde(default)]
    pub offset: usize,
    /// Most items returned (0: the default of 200).
    #[serde(default)]
    pub limit: usize,
}

/// One page of a model's items, with the per-category summary of all its items.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ItemsPage {
    /// Number of items matching the query (all pages).
    pub total: usize,
    /// Index of the first returned item among the matching ones.
    pub offset: usize,
    /// The items of this page, in file order.
    pub items: Vec<ItemResult>,
    /// Accuracy per category over all of the model's scored items (not only the page).
    pub by_category: BTreeMap<String, Accuracy>,
    /// Accuracy over all of the model's scored items.
    pub overall: Accuracy,
}

/// Default page size of [`mmiq_items`].
pub const DEFAULT_PAGE: usize = 200;

/// The items of `report` matching `query`, one page of them.
///
/// # Examples
/// ```
/// use coglab_core::leaderboard::detail::{mmiq_items, ItemsQuery};
/// use coglab_core::mmiq::{score, AnswerKey, Predictions};
/// let key = AnswerKey::parse("k.jsonl", concat!(
///     r#"{"category": "Mathematical", "data_id": 0, "answer": "A"}"#, "\n",
///     r#"{"category": "Mathematical", "data_id": 1, "answer": "B"}"#)).unwrap();
/// let r = score(&key, &Predictions::parse("a.jsonl",
///     b"{\"data_id\": 0, \"parsed_pred\": \"A\"}\n{\"data_id\": 1, \"parsed_pred\": \"C\"}").unwrap()).unwrap();
/// let page = mmiq_items(&r, &ItemsQuery { wrong_only: true, ..Default::default() });
/// assert_eq!(page.total, 1);
/// assert_eq!(page.items[0].data_id, 1);
/// ```
pub fn mmiq_items(report: &MmiqReport, query: &ItemsQuery) -> ItemsPage {
    let cat = query.category.as_deref().filter(|c| !c.is_empty());
    let limit = if query.limit == 0 {
        DEFAULT_PAGE
    } else {
        query.limit
    };
    let matching = report
        .items
        .iter()
        .filter(|i| !query.wrong_only || !i.correct)
        .filter(|i| cat.is_none_or(|c| i.category == c));
    let mut total = 0;
    let mut items = Vec::new();
    for (k, item) in matching.enumerate() {
        total += 1;
        if k >= query.offset && items.len() < limit {
            items.push(item.clone());
        }
    }
    ItemsPage {
        total,
        offset: query.offset,
        items,
        by_category: report.by_category.clone(),
        overall: report.overall,
    }
}

/// The item ids in each cell of a 2x2 table (first model x second model, right/wrong).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct CellItems {
    /// Both right.
    pub both_correct: Vec<String>,
    /// Only the first right.
    pub first_only: Vec<String>,
    /// Only the second right.
    pub second_only: Vec<String>,
    /// Both wrong.
    pub both_wrong: Vec<String>,
}

impl CellItems {
    fn push(&mut self, id: String, a: bool, b: bool) {
        match (a, b) {
            (true, true) => self.both_correct.push(id),
            (true, false) => self.first_only.push(id),
            (false, true) => self.second_only.push(id),
            (false, false) => self.both_wrong.push(id),
        }
    }
}

/// An MM-IQ comparison ([`mmiq::compare`]) with the item ids of each cell.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MmiqCompareView {
    /// The core's comparison.
    pub comparison: MmiqComparison,
    /// The item ids (`data_id`) in each cell, in the first file's order.
    pub cells: CellItems,
}

/// Compares two MM-IQ reports with [`mmiq::compare`] and lists the items of each cell.
///
/// # Errors
/// The comparison's error message (no common item, bad bootstrap parameters).
pub fn compare_mmiq(
    first: &MmiqReport,
    second: &MmiqReport,
    resamples: usize,
    seed: u64,
) -> Result<MmiqCompareView, String> {
    let comparison = mmiq::compare(first, second, resamples, seed).map_err(|e| e.to_string())?;
    let second_by_id: HashMap<u64, bool> = second
        .items
        .iter()
        .map(|i| (i.data_id, i.correct))
        .collect();
    let mut cells = CellItems::default();
    for i in &first.items {
        if let Some(&b) = second_by_id.get(&i.data_id) {
            cells.push(i.data_id.to_string(), i.correct, b);
        }
    }
    Ok(MmiqCompareView { comparison, cells })
}

/// Two KiVA runs on one stage, over the trials both have.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KivaStageComparison {
    /// Report key of the stage (`cross`, `within_conditional`, `within_joint`, `extrapolation`).
    pub stage: String,
    /// Trials with a score for this stage in both runs.
    pub n_paired: usize,
    /// Mean trial score of the first run on the paired trials.
    pub first_mean: f64,
    /// Mean trial score of the second run on the paired trials.
    pub second_mean: f64,
    /// The 2x2 table of trials counted right (score above one half).
    pub table: PairedTable,
    /// Two-sided exact McNemar p-value of the table.
    pub mcnemar_p: f64,
    /// Paired bootstrap 95% interval of the difference of the share of trials right.
    pub difference: BootstrapDiff,
    /// The trials (`Subdomain #variation`) in each cell.
    pub cells: CellItems,
}

/// Two KiVA runs compared stage by stage.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KivaComparison {
    /// One entry per stage that has paired trials, in the order cross, within (conditional),
    /// within (joint), extrapolation.
    pub stages: Vec<KivaStageComparison>,
    /// How a trial is counted right.
    pub rule: String,
}

/// The rule of [`compare_kiva`] for counting a trial right.
pub const KIVA_RIGHT_RULE: &str = "a trial counts as right when its stage score (the mean over its regenerations, 0/1 for a person) is above 0.5, i.e. most regenerations were right";

/// Compares two KiVA reports (with their trials) stage by stage on the trials both have
/// (matched by subdomain, variation and participant): the 2x2 table of trials right, McNemar's
/// exact p and the paired bootstrap interval of the difference.
///
/// # Errors
/// A message when either report has no trials, or they share no trial.
///
/// # Examples
/// ```
/// use coglab_core::kiva::score_model;
/// use coglab_core::leaderboard::detail::compare_kiva;
/// let a = "Variation,Regeneration,MCResponse#1,MCResponse#2,MCResponse#3\n0,0,1,1,1\n1,0,1,1,1\n";
/// let b = "Variation,Regeneration,MCResponse#1,MCResponse#2,MCResponse#3\n0,0,1,0,1\n1,0,0,,0\n";
/// let ra = score_model([("a/output_Colour/ColourRed.csv", a.as_bytes())]).unwrap();
/// let rb = score_model([("b/output_Colour/ColourRed.csv", b.as_bytes())]).unwrap();
/// let c = compare_kiva(&ra, &rb, 1000, 1).unwrap();
/// assert_eq!(c.stages[0].stage, "cross");
/// assert_eq!((c.stages[0].table.both_correct, c.stages[0].table.first_only), (1, 1));
/// ```
pub fn compare_kiva(
    first: &KivaReport,
    second: &KivaReport,
    resamples: usize,
    seed: u64,
) -> Result<KivaComparison, String> {
    if first.trials.is_empty() || second.trials.is_empty() {
        return Err("a KiVA comparison needs the trials of both runs".into());
    }
    type Key<'a> = (&'a str, u64, Option<&'a str>);
    let by_key: HashMap<Key<'_>, &crate::kiva::TrialResult> = second
        .trials
        .iter()
        .map(|t| {
            (
                (t.subdomain.as_str(), t.variation, t.participant.as_deref()),
                t,
            )
        })
        .collect();
    let mut stages = Vec::new();
    for stage in [
        "cross",
        "within_conditional",
        "within_joint",
        "extrapolation",
    ] {
        let get = |t: &crate::kiva::TrialResult| match stage {
            "cross" => t.cross,
            "within_conditional" => t.within_conditional,
            "within_joint" => t.within_joint,
            _ => t.extrapolation,
        };
        let mut a = Vec::new();
        let mut b = Vec::new();
        let (mut sa, mut sb) = (0.0, 0.0);
        let mut cells = CellItems::default();
        for t in &first.trials {
            let Some(u) =
                by_key.get(&(t.subdomain.as_str(), t.variation, t.participant.as_deref()))
            else {
                continue;
            };
            let (Some(x), Some(y)) = (get(t), get(u)) else {
                continue;
            };
            sa += x;
            sb += y;
            let (ra, rb) = (x > 0.5, y > 0.5);
            a.push(ra);
            b.push(rb);
            let id = match &t.participant {
                Some(p) => format!("{} #{} ({p})", t.subdomain, t.variation),
                None => format!("{} #{}", t.subdomain, t.variation),
            };
            cells.push(id, ra, rb);
        }
        if a.is_empty() {
            continue;
        }
        let table = PairedTable::from_pairs(&a, &b).map_err(|e| e.to_string())?;
        let difference =
            paired_bootstrap_diff(&a, &b, resamples, seed, 0.95).map_err(|e| e.to_string())?;
        let n = a.len();
        stages.push(KivaStageComparison {
            stage: stage.to_string(),
            n_paired: n,
            first_mean: sa / n as f64,
            second_mean: sb / n as f64,
            table,
            mcnemar_p: mcnemar_exact_p(table.first_only, table.second_only),
            difference,
            cells,
        });
    }
    if stages.is_empty() {
        return Err(format!(
            "the two KiVA runs share no trial ({} and {})",
            first.files.first().map_or("first run", String::as_str),
            second.files.first().map_or("second run", String::as_str)
        ));
    }
    Ok(KivaComparison {
        stages,
        rule: KIVA_RIGHT_RULE.into(),
    })
}

/// Which of a KiVA run's trials to return (the KiVA model page).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct TrialsQuery {
    /// Only trials with a stage counted wrong (see [`KIVA_RIGHT_RULE`]).
    #[serde(default)]
    pub wrong_only: bool,
    /// Only trials of this domain (`None` or empty: all).
    #[serde(default)]
    pub domain: Option<String>,
    /// Stage 2 as the joint score (skipped counted as 0) instead of the conditional one.
    #[serde(default)]
    pub joint: bool,
    /// Index of the first trial returned among the matching ones.
    #[serde(default)]
    pub offset: usize,
    /// Most trials returned (0: the default of 200).
    #[serde(default)]
    pub limit: usize,
}

/// One trial of the KiVA model page: its three stage scores and whether each counts as right.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TrialView {
    /// Domain.
    pub domain: String,
    /// Subdomain.
    pub subdomain: String,
    /// Variation number.
    pub variation: u64,
    /// Participant (human data).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub participant: Option<String>,
    /// First line of the trial in its file.
    pub line: usize,
    /// Regenerations (model runs) or stage rows (a person) of the trial.
    pub rows: usize,
    /// Stage 1 (what), 2 (how: conditional or joint, as asked) and 3 (apply) scores: the share
    /// of regenerations right, `None` when the stage was not reached.
    pub scores: [Option<f64>; 3],
    /// Whether each stage counts as right ([`KIVA_RIGHT_RULE`]).
    pub right: [Option<bool>; 3],
}

/// One page of a KiVA run's trials, with the per-domain summary of all its trials.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TrialsPage {
    /// Trials matching the query (all pages).
    pub total: usize,
    /// Index of the first returned trial among the matching ones.
    pub offset: usize,
    /// The trials of this page, in report order.
    pub trials: Vec<TrialView>,
    /// Per domain: mean and SE of each stage over all the run's trials (as `coglab score kiva`).
    pub by_domain: BTreeMap<String, crate::kiva::StageStats>,
    /// Over all trials.
    pub overall: crate::kiva::StageStats,
    /// Per domain: trials counted right per stage (1, 2 as asked, 3) and trials with the stage.
    pub right_by_domain: BTreeMap<String, [(usize, usize); 3]>,
    /// How a trial is counted right.
    pub rule: String,
}

/// The trials of a KiVA report matching `query`, one page of them, with stage 2 conditional or
/// joint as asked; the per-domain summary is the report's (all trials).
///
/// # Examples
/// ```
/// use coglab_core::kiva::score_model;
/// use coglab_core::leaderboard::detail::{kiva_trials, TrialsQuery};
/// let a = "Variation,Regeneration,MCResponse#1,MCResponse#2,MCResponse#3\n0,0,1,1,1\n1,0,1,,0\n";
/// let r = score_model([("a/output_Colour/ColourRed.csv", a.as_bytes())]).unwrap();
/// let p = kiva_trials(&r, &TrialsQuery { wrong_only: true, ..Default::default() });
/// assert_eq!((p.total, p.trials[0].variation), (1, 1));
/// assert_eq!(p.trials[0].right, [Some(true), None, Some(false)]);
/// let j = kiva_trials(&r, &TrialsQuery { joint: true, ..Default::default() });
/// assert_eq!(j.trials[1].right, [Some(true), Some(false), Some(false)]);
/// assert_eq!(j.right_by_domain["Colour"], [(2, 2), (1, 2), (1, 2)]);
/// ```
pub fn kiva_trials(report: &KivaReport, query: &TrialsQuery) -> TrialsPage {
    let domain = query.domain.as_deref().filter(|d| !d.is_empty());
    let limit = if query.limit == 0 {
        DEFAULT_PAGE
    } else {
        query.limit
    };
    let view = |t: &crate::kiva::TrialResult| {
        let within = if query.joint {
            t.within_joint
        } else {
            t.within_conditional
        };
        let scores = [t.cross, within, t.extrapolation];
        TrialView {
            domain: t.domain.clone(),
            subdomain: t.subdomain.clone(),
            variation: t.variation,
            participant: t.participant.clone(),
            line: t.line,
            rows: t.rows,
            scores,
            right: scores.map(|s| s.map(|x| x > 0.5)),
        }
    };
    let mut right_by_domain: BTreeMap<String, [(usize, usize); 3]> = BTreeMap::new();
    let mut total = 0;
    let mut trials = Vec::new();
    for t in &report.trials {
        let v = view(t);
        let counts = right_by_domain.entry(v.domain.clone()).or_default();
        for (c, r) in counts.iter_mut().zip(v.right) {
            if let Some(r) = r {
                c.0 += usize::from(r);
                c.1 += 1;
            }
        }
        if domain.is_some_and(|d| v.domain != d)
            || (query.wrong_only && !v.right.contains(&Some(false)))
        {
            continue;
        }
        if total >= query.offset && trials.len() < limit {
            trials.push(v);
        }
        total += 1;
    }
    TrialsPage {
        total,
        offset: query.offset,
        trials,
        by_domain: report.by_domain.clone(),
        overall: report.overall,
        right_by_domain,
        rule: KIVA_RIGHT_RULE.into(),
    }
}

/// Writes `rows` under `header` as CSV (the `csv` crate; writing to memory cannot fail).
fn csv_text<const N: usize>(header: [&str; N], rows: impl Iterator<Item = [String; N]>) -> String {
    let mut w = csv::Writer::from_writer(Vec::new());
    let _ = w.write_record(header);
    for r in rows {
        let _ = w.write_record(&r);
    }
    String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default()
}

fn opt(x: Option<f64>) -> String {
    x.map_or(String::new(), |v| v.to_string())
}

/// All of an MM-IQ row's items as CSV, for analysis (issue 26, defect 15): `model, data_id,
/// category, extracted, key, correct` (1/0), `line` (in the predictions file) and `response`
/// (empty when the file gave only the extracted letter), in file order.
///
/// # Examples
/// ```
/// use coglab_core::leaderboard::detail::mmiq_items_csv;
/// use coglab_core::mmiq::{score, AnswerKey, Predictions};
/// let key = AnswerKey::parse("k.jsonl", r#"{"category": "Mathematical", "data_id": 7, "answer": "B"}"#).unwrap();
/// let r = score(&key, &Predictions::parse("a.jsonl",
///     br#"{"data_id": 7, "response": "It is C, not B."}"#).unwrap()).unwrap();
/// assert_eq!(mmiq_items_csv("m", &r),
///     "model,data_id,category,extracted,key,correct,line,response\nm,7,Mathematical,C,B,0,1,\"It is C, not B.\"\n");
/// ```
pub fn mmiq_items_csv(model: &str, report: &MmiqReport) -> String {
    csv_text(
        [
            "model",
            "data_id",
            "category",
            "extracted",
            "key",
            "correct",
            "line",
            "response",
        ],
        report.items.iter().map(|i| {
            [
                model.to_string(),
                i.data_id.to_string(),
                i.category.clone(),
                i.parsed.to_string(),
                i.key.to_string(),
                u8::from(i.correct).to_string(),
                i.line.to_string(),
                i.response.clone().unwrap_or_default(),
            ]
        }),
    )
}

/// All of a KiVA row's trials as CSV, for analysis (issue 26, defect 15): `model, domain,
/// subdomain, variation, participant, line, rows` and the stage scores `cross,
/// within_conditional, within_joint, extrapolation` (the share of regenerations right; empty
/// when the stage was not reached), in report order.
///
/// # Examples
/// ```
/// use coglab_core::kiva::score_model;
/// use coglab_core::leaderboard::detail::kiva_trials_csv;
/// let a = "Variation,Regeneration,MCResponse#1,MCResponse#2,MCResponse#3\n0,0,1,1,1\n0,1,1,0,0\n1,0,0,,0\n";
/// let r = score_model([("a/output_Colour/ColourRed.csv", a.as_bytes())]).unwrap();
/// let csv = kiva_trials_csv("m", &r);
/// let lines: Vec<&str> = csv.lines().collect();
/// assert_eq!(lines[0], "model,domain,subdomain,variation,participant,line,rows,cross,within_conditional,within_joint,extrapolation");
/// // Variation 0: stage 1 right in both regenerations, stage 2 in one of two, stage 3 in one.
/// assert_eq!(lines[1], "m,Colour,ColourRed,0,,2,2,1,0.5,0.5,0.5");
/// // Variation 1: stage 1 wrong, so stage 2 was not reached (conditional empty, joint 0).
/// assert_eq!(lines[2], "m,Colour,ColourRed,1,,4,1,0,,0,0");
/// ```
pub fn kiva_trials_csv(model: &str, report: &KivaReport) -> String {
    csv_text(
        [
            "model",
            "domain",
            "subdomain",
            "variation",
            "participant",
            "line",
            "rows",
            "cross",
            "within_conditional",
            "within_joint",
            "extrapolation",
        ],
        report.trials.iter().map(|t| {
            [
                model.to_string(),
                t.domain.clone(),
                t.subdomain.clone(),
                t.variation.to_string(),
                t.participant.clone().unwrap_or_default(),
                t.line.to_string(),
                t.rows.to_string(),
                opt(t.cross),
                opt(t.within_conditional),
                opt(t.within_joint),
                opt(t.extrapolation),
            ]
        }),
    )
}

/// A comparison's item lists as CSV, for analysis (issue 26, defect 15): one line per paired
/// item (or trial) and stage: `stage` (empty for MM-IQ), `item`, `first_model`, `first_right`,
/// `second_model`, `second_right` (1/0) and `cell` (`both_correct`, `first_only`,
/// `second_only`, `both_wrong`). Counting the lines per cell gives the 2x2 table.
///
/// # Examples
/// ```
/// use coglab_core::leaderboard::detail::{comparison_csv, CellItems};
/// let cells = CellItems { both_correct: vec!["3".into()], second_only: vec!["9".into()], ..Default::default() };
/// assert_eq!(comparison_csv("a", "b", &[("", &cells)]),
///     "stage,item,first_model,first_right,second_model,second_right,cell\n,3,a,1,b,1,both_correct\n,9,a,0,b,1,second_only\n");
/// ```
pub fn comparison_csv(first: &str, second: &str, stages: &[(&str, &CellItems)]) -> String {
    let rows = stages.iter().flat_map(|&(stage, c)| {
        [
            (&c.both_correct, (1, 1), "both_correct"),
            (&c.first_only, (1, 0), "first_only"),
            (&c.second_only, (0, 1), "second_only"),
            (&c.both_wrong, (0, 0), "both_wrong"),
        ]
        .into_iter()
        .flat_map(move |(ids, (a, b), cell)| {
            ids.iter().map(move |id| {
                [
                    stage.to_string(),
                    id.clone(),
                    first.to_string(),
                    a.to_string(),
                    second.to_string(),
                    b.to_string(),
                    cell.to_string(),
                ]
            })
        })
    });
    csv_text(
        [
            "stage",
            "item",
            "first_model",
            "first_right",
            "second_model",
            "second_right",
            "cell",
        ],
        rows,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The real GPT-4V multi-image run (KiVA): 700 trials; the per-domain summary is the
    /// report's, whose numbers `coglab score kiva` prints.
    #[test]
    fn kiva_trials_of_a_real_run() {
        let dir = "/work/shared/data/kiva/model_data/KiVA/gpt4_multi_image";
        let mut files = Vec::new();
        let Ok(domains) = std::fs::read_dir(dir) else {
            eprintln!("skipped: {dir} absent");
            return;
        };
        for d in domains.flatten() {
            for f in std::fs::read_dir(d.path()).unwrap().flatten() {
                files.push((
                    f.path().to_string_lossy().to_string(),
                    std::fs::read(f.path()).unwrap(),
                ));
            }
        }
        let report =
            crate::kiva::score_model(files.iter().map(|(p, b)| (p.as_str(), b.as_slice())))
                .unwrap();
        let all = kiva_trials(
            &report,
            &TrialsQuery {
                limit: 10_000,
                ..Default::default()
            },
        );
        assert_eq!(all.total, 700);
        assert_eq!(all.trials.len(), 700);
        // The CLI (coglab score kiva .../gpt4_multi_image --json): overall stage-1 mean
        // 0.8857142857142859 over 700 trials; Colour 150 trials, stage-1 mean 1.0; Counting
        // 200 trials, 0.7433333333333332.
        let cross = all.overall.cross.unwrap();
        assert!((cross.mean - 0.885_714_285_714_285_9).abs() < 1e-12);
        assert!(
            (all.by_domain["Counting"].cross.unwrap().mean - 0.743_333_333_333_333_2).abs() < 1e-12
        );
        assert_eq!(cross.n, 700);
        assert_eq!(all.by_domain["Colour"].cross.unwrap().mean, 1.0);
        // Every stage-1 regeneration of Colour is right, so all 150 Colour trials count right.
        assert_eq!(all.right_by_domain["Colour"][0], (150, 150));
        // The counts add up over domains and match the trials listed.
        let right1: usize = all.right_by_domain.values().map(|c| c[0].0).sum();
        assert_eq!(
            right1,
            all.trials
                .iter()
                .filter(|t| t.right[0] == Some(true))
                .count()
        );
        // Wrong-only: the trials with a stage counted wrong, per domain and paged.
        let wrong = kiva_trials(
            &report,
            &TrialsQuery {
                wrong_only: true,
                limit: 10_000,
                ..Default::default()
            },
        );
        assert_eq!(
            wrong.total,
            all.trials
                .iter()
                .filter(|t| t.right.contains(&Some(false)))
                .count()
        );
        assert!(wrong.trials.iter().all(|t| t.right.contains(&Some(false))));
        let page2 = kiva_trials(
            &report,
            &TrialsQuery {
                domain: Some("Counting".into()),
                offset: 50,
                limit: 20,
                ..Default::default()
            },
        );
        assert_eq!(
            (page2.total, page2.trials.len(), page2.offset),
            (200, 20, 50)
        );
        assert!(page2.trials.iter().all(|t| t.domain == "Counting"));
        // Joint stage 2 is never above the conditional one, and is defined for every trial.
        let joint = kiva_trials(
            &report,
            &TrialsQuery {
                joint: true,
                limit: 10_000,
                ..Default::default()
            },
        );
        assert!(joint.trials.iter().all(|t| t.scores[1].is_some()));
        for (c, j) in all.trials.iter().zip(&joint.trials) {
            if let (Some(c), Some(j)) = (c.scores[1], j.scores[1]) {
                assert!(j <= c + 1e-12);
            }
        }
    }
}

/// [`challenge_items`]'s query.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChallengeQuery {
    /// Only trials answered wrong (or with no option named).
    #[serde(default)]
    pub wrong_only: bool,
    /// Index of the first trial returned among the matching ones.
    #[serde(default)]
    pub offset: usize,
    /// Most trials returned (0: the default of 200).
    #[serde(default)]
    pub limit: usize,
}

/// One page of a KiVA challenge result's trials.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChallengePage {
    /// Matching trials in all.
    pub total: usize,
    /// Index of the first trial returned.
    pub offset: usize,
    /// The trials, in result-file order.
    pub items: Vec<crate::harness::kiva_challenge::ChallengeItem>,
    /// Annotated trials without a result.
    pub not_answered: usize,
    /// Results that could not be mapped to an annotated trial.
    pub unmapped: Vec<crate::provenance::Unmapped>,
}

/// One page of a KiVA challenge result's trials (the model page's drill-down of a challenge
/// row), with the trials not answered and the results not mapped.
///
/// # Examples
/// ```
/// use coglab_core::harness::kiva_challenge::score;
/// use coglab_core::leaderboard::detail::{challenge_items, ChallengeQuery};
/// let ann = br#"{"t1": {"level": "kiva", "transformation_domain": "Colour", "concept": "Red", "correct": "(A)"},
///               "t2": {"level": "kiva", "transformation_domain": "Resize", "concept": "x2", "correct": "(B)"}}"#;
/// let r = score(("a.json", ann), ("r.csv", b"id,answer\nt1,(A)\nt2,(C)\n")).unwrap();
/// let wrong = challenge_items(&r, &ChallengeQuery { wrong_only: true, ..Default::default() });
/// assert_eq!((wrong.total, wrong.items[0].annotation.id.as_str()), (1, "t2"));
/// ```
pub fn challenge_items(
    report: &crate::harness::kiva_challenge::ChallengeReport,
    query: &ChallengeQuery,
) -> ChallengePage {
    let limit = if query.limit == 0 { 200 } else { query.limit };
    let matching: Vec<&crate::harness::kiva_challenge::ChallengeItem> = report
        .items
        .iter()
        .filter(|i| !query.wrong_only || !i.is_correct)
        .collect();
    ChallengePage {
        total: matching.len(),
        offset: query.offset,
        items: matching
            .into_iter()
            .skip(query.offset)
            .take(limit)
            .cloned()
            .collect(),
        not_answered: report.not_answered,
        unmapped: report.unmapped.clone(),
    }
}
