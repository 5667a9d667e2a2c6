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
