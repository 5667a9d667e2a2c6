//! Item scores for a board from the scorers' reports: MM-IQ items, KiVA trials with their
//! regenerations, MM-OPERA items with their ICA rotations.

use std::collections::BTreeMap;

use super::board::ModelScores;
use crate::kiva::{KivaReport, NullAnswers, Outcome, RunFile, Stage, TrialResult};
use crate::leaderboard::mmopera::ItemScores;
use crate::mmiq::{AnswerKey, MmiqReport};

/// An MM-IQ model's items: item `data_id` → 1 (right) or 0 (wrong; no answer counts wrong).
///
/// # Examples
/// ```
/// use coglab_core::mmiq::{score, AnswerKey, Predictions};
/// use coglab_core::ranks::inputs::{mmiq_items, mmiq_key_items};
/// let key = AnswerKey::parse("k.jsonl", concat!(
///     r#"{"category": "Mathematical", "data_id": 0, "answer": "A"}"#, "\n",
///     r#"{"category": "Mathematical", "data_id": 1, "answer": "B"}"#)).unwrap();
/// let r = score(&key, &Predictions::parse("m.jsonl", b"{\"data_id\": 1, \"parsed_pred\": \"B\"}").unwrap()).unwrap();
/// let m = mmiq_items("m", "m.jsonl", &r);
/// assert_eq!(m.items["1"], vec![1.0]);
/// assert_eq!(mmiq_key_items(&key), vec!["0", "1"]);
/// ```
pub fn mmiq_items(name: &str, source: &str, report: &MmiqReport) -> ModelScores {
    ModelScores {
        name: name.into(),
        source: source.into(),
        items: report
            .items
            .iter()
            .map(|i| (i.data_id.to_string(), vec![f64::from(u8::from(i.correct))]))
            .collect(),
    }
}

/// The ids of an MM-IQ answer key (the benchmark's items).
pub fn mmiq_key_items(key: &AnswerKey) -> Vec<String> {
    key.items.iter().map(|i| i.data_id.to_string()).collect()
}

/// The benchmark's items for an MM-IQ board when the key itself is not at hand (the web
/// worker keeps reports, not the key): every item any report scored, plus placeholder ids
/// (`unanswered#k`) for the key items no report scored, so that the count is the key's size
/// (a report's scored items plus its `key_items_without_prediction`). Items nobody answered
/// count as wrong for everyone, so their ids do not matter, only their number.
///
/// # Examples
/// ```
/// use coglab_core::mmiq::{score, AnswerKey, Predictions};
/// use coglab_core::ranks::inputs::{mmiq_benchmark_items, mmiq_key_items};
/// let key = AnswerKey::parse("k.jsonl", concat!(
///     r#"{"category": "Mathematical", "data_id": 0, "answer": "A"}"#, "\n",
///     r#"{"category": "Mathematical", "data_id": 1, "answer": "B"}"#, "\n",
///     r#"{"category": "Mathematical", "data_id": 2, "answer": "C"}"#)).unwrap();
/// let r = score(&key, &Predictions::parse("m.jsonl", b"{\"data_id\": 1, \"parsed_pred\": \"B\"}").unwrap()).unwrap();
/// let items = mmiq_benchmark_items(&[&r]);
/// assert_eq!(items.len(), mmiq_key_items(&key).len());
/// assert!(items.contains(&"1".to_string()));
/// ```
pub fn mmiq_benchmark_items(reports: &[&MmiqReport]) -> Vec<String> {
    let mut ids: std::collections::BTreeSet<String> = std::collections::BTreeSet::new();
    let mut size = 0usize;
    for r in reports {
        ids.extend(r.items.iter().map(|i| i.data_id.to_string()));
        size = size.max(r.overall.n as usize + r.rows.key_items_without_prediction);
    }
    let missing = size.saturating_sub(ids.len());
    let mut out: Vec<String> = ids.into_iter().collect();
    out.extend((0..missing).map(|k| format!("unanswered#{k}")));
    out
}

/// Which KiVA stage a board ranks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum KivaStage {
    /// Stage 1: what changed (default; every trial has it).
    #[default]
    Cross,
    /// Stage 2 with a skipped stage 2 counted as 0.
    WithinJoint,
    /// Stage 2 over the regenerations that reached it (no regeneration-level replicates are
    /// known, so no clustered SE).
    WithinConditional,
    /// Stage 3: apply the rule.
    Extrapolation,
}

impl KivaStage {
    /// The report key (`cross`, `within_joint`, `within_conditional`, `extrapolation`).
    pub fn key(self) -> &'static str {
        match self {
            KivaStage::Cross => "cross",
            KivaStage::WithinJoint => "within_joint",
            KivaStage::WithinConditional => "within_conditional",
            KivaStage::Extrapolation => "extrapolation",
        }
    }

    /// The stage number (1-3) whose answers this ranks.
    pub fn number(self) -> usize {
        match self {
            KivaStage::Cross => 1,
            KivaStage::WithinJoint | KivaStage::WithinConditional => 2,
            KivaStage::Extrapolation => 3,
        }
    }

    /// Reads a report key (also `within` for the joint stage 2).
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "cross" | "1" => Some(KivaStage::Cross),
            "within" | "within_joint" | "2" => Some(KivaStage::WithinJoint),
            "within_conditional" => Some(KivaStage::WithinConditional),
            "extrapolation" | "3" => Some(KivaStage::Extrapolation),
            _ => None,
        }
    }

    fn of(self, t: &TrialResult) -> Option<f64> {
        match self {
            KivaStage::Cross => t.cross,
            KivaStage::WithinJoint => t.within_joint,
            KivaStage::WithinConditional => t.within_conditional,
            KivaStage::Extrapolation => t.extrapolation,
        }
    }
}

/// The id of a KiVA trial on a board: `Subdomain#variation` (and ` (participant)` for people).
pub fn kiva_trial_id(t: &TrialResult) -> String {
    match &t.participant {
        Some(p) => format!("{}#{} ({p})", t.subdomain, t.variation),
        None => format!("{}#{}", t.subdomain, t.variation),
    }
}

/// A KiVA run's trials on one stage: trial → its regenerations as 0/1. A trial's stage score
/// is the share of its `rows` regenerations right (every regeneration is scored on stages 1, 3
/// and joint 2), so the regenerations are `round(score · rows)` ones and the rest zeros; the
/// board averages them back inside the trial. For conditional stage 2 the trial's mean is the
/// one replicate.
///
/// # Examples
/// ```
/// use coglab_core::kiva::score_model;
/// use coglab_core::ranks::inputs::{kiva_items, KivaStage};
/// let csv = "Variation,Regeneration,MCResponse#1,MCResponse#2,MCResponse#3\n0,0,1,1,1\n0,1,0,,0\n0,2,1,0,1\n";
/// let r = score_model([("m/output_Colour/ColourRed.csv", csv.as_bytes())]).unwrap();
/// let m = kiva_items("m", &r, KivaStage::Cross);
/// assert_eq!(m.items["ColourRed#0"], vec![1.0, 1.0, 0.0]);
/// ```
pub fn kiva_items(name: &str, report: &KivaReport, stage: KivaStage) -> ModelScores {
    let mut items = BTreeMap::new();
    for t in &report.trials {
        let Some(score) = stage.of(t) else { continue };
        let reps = if stage == KivaStage::WithinConditional || t.rows == 0 {
            vec![score]
        } else {
            let ones = (score * t.rows as f64).round() as usize;
            (0..t.rows)
                .map(|i| if i < ones { 1.0 } else { 0.0 })
                .collect()
        };
        items.insert(kiva_trial_id(t), reps);
    }
    ModelScores {
        name: name.into(),
        source: report.files.first().cloned().unwrap_or_default(),
        items,
    }
}

/// A KiVA run's trials on one stage read from its parsed run files, each regeneration's stage
/// score under a `Null` setting ([`Outcome::score_with`]): the board's items when `Null`
/// answers are left out ([`NullAnswers::Missing`]), where a trial's regenerations are no
/// longer all scored and [`kiva_items`]' expansion of the trial mean over its rows does not
/// hold. Regenerations without a score (`Null` left out; stage 2 not reached, for the
/// conditional stage) are not replicates; a trial with none is not an item. The conditional
/// stage 2 gives the trial's mean as its one replicate, as [`kiva_items`].
///
/// # Examples
/// ```
/// use coglab_core::kiva::{NullAnswers, RunFile};
/// use coglab_core::ranks::inputs::{kiva_run_items, KivaStage};
/// // Regeneration 1 answered stage 1 with Null.
/// let csv = "Variation,Regeneration,MCResponse#1,MCResponse#2,MCResponse#3\n0,0,1,1,1\n0,1,Null,,0\n0,2,0,,1\n";
/// let run = RunFile::parse("m/output_Colour/ColourRed.csv", csv.as_bytes()).unwrap();
/// let left_out = kiva_run_items("m", &[run.clone()], KivaStage::Cross, NullAnswers::Missing);
/// assert_eq!(left_out.items["ColourRed#0"], vec![1.0, 0.0]);
/// let wrong = kiva_run_items("m", &[run], KivaStage::Cross, NullAnswers::Wrong);
/// assert_eq!(wrong.items["ColourRed#0"], vec![1.0, 0.0, 0.0]);
/// ```
pub fn kiva_run_items(
    name: &str,
    runs: &[RunFile],
    stage: KivaStage,
    null: NullAnswers,
) -> ModelScores {
    let mut items: BTreeMap<String, Vec<f64>> = BTreeMap::new();
    for run in runs {
        for row in &run.rows {
            let [s1, s2, s3] = row.outcomes;
            let score = match stage {
                KivaStage::Cross => s1.score_with(Stage::Cross, null),
                KivaStage::WithinConditional => s2.score_with(Stage::Within, null),
                KivaStage::WithinJoint => match s2 {
                    Outcome::Empty => Some(0.0),
                    o => o.score_with(Stage::Within, null),
                },
                KivaStage::Extrapolation => s3.score_with(Stage::Extrapolation, null),
            };
            let entry = items
                .entry(format!("{}#{}", run.subdomain, row.variation))
                .or_default();
            entry.extend(score);
        }
    }
    items.retain(|_, v| !v.is_empty());
    if stage == KivaStage::WithinConditional {
        for v in items.values_mut() {
            *v = vec![v.iter().sum::<f64>() / v.len() as f64];
        }
    }
    ModelScores {
        name: name.into(),
        source: runs.first().map(|r| r.file.clone()).unwrap_or_default(),
        items,
    }
}

/// An MM-OPERA model's items: item → its counted holistic scores divided by 4 (the score rate
/// of each verdict; ICA's rotations and several judges' verdicts are the item's replicates).
///
/// # Examples
/// ```
/// use coglab_core::leaderboard::mmopera::ItemScores;
/// use coglab_core::ranks::inputs::mmopera_items;
/// let items = [ItemScores { id: "q1".into(), scores: vec![4, 2, 0, 2], s_r: None, judges: vec![] }];
/// let m = mmopera_items("m", "m_ICA_regular_scoring.json", &items);
/// assert_eq!(m.items["q1"], vec![1.0, 0.5, 0.0, 0.5]);
/// ```
pub fn mmopera_items(name: &str, source: &str, items: &[ItemScores]) -> ModelScores {
    ModelScores {
        name: name.into(),
        source: source.into(),
        items: items
            .iter()
            .filter(|i| !i.scores.is_empty())
            .map(|i| {
                (
                    i.id.clone(),
                    i.scores.iter().map(|&s| f64::from(s) / 4.0).collect(),
                )
            })
            .collect(),
    }
}
