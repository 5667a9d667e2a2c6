//! Judge robustness (MM-OPERA): when several LLM judges scored the same models' answers, how
//! much the scores and the ranking depend on the judge.
//!
//! - Per model and judge: the score rate SR (counted scores / 4 per verdict, as the released
//!   code; an invalid verdict counts 0) over the judge's verdicts.
//! - Krippendorff's α (ordinal metric) across judges: units are (model, item, rotation), the
//!   values a judge's valid scores 0-4 (an invalid verdict is a missing rating, not a 0); units
//!   with fewer than two ratings are left out, as the `krippendorff` package does.
//! - Kendall's τ-b between every two judges' model rankings (SR), over the models both scored
//!   ([`crate::stats::correlation::kendall_tau_b`]; scipy's `kendalltau`).
//! - The items with the largest disagreement: per (model, item), each judge's mean counted
//!   score over the rotations (an invalid verdict counts 0, as in SR, so a judge that failed on
//!   an item shows up here), and the spread (highest minus lowest judge).

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use crate::mmopera::files::RegularScores;

/// One judge's file for one model.
#[derive(Debug, Clone, Copy)]
pub struct JudgeFile<'a> {
    /// The model judged.
    pub model: &'a str,
    /// The judge's name.
    pub judge: &'a str,
    /// The verdicts.
    pub scores: &'a RegularScores,
}

/// Kendall's τ-b between two judges' model rankings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JudgeTau {
    /// First judge.
    pub a: String,
    /// Second judge.
    pub b: String,
    /// Models both judges scored.
    pub models: usize,
    /// τ-b (`None` with fewer than two models or a constant ranking).
    pub tau_b: Option<f64>,
}

/// One (model, item) the judges disagree on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Disagreement {
    /// Model.
    pub model: String,
    /// Item id.
    pub item: String,
    /// Each judge's mean score 0-4 over the rotations (judges in [`JudgeRobustness::judges`]
    /// order; `None` when the judge did not score the item).
    pub means: Vec<Option<f64>>,
    /// Highest minus lowest judge mean.
    pub spread: f64,
}

/// The judge robustness of a set of MM-OPERA judge files.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JudgeRobustness {
    /// Judges, sorted by name.
    pub judges: Vec<String>,
    /// Models, sorted by name.
    pub models: Vec<String>,
    /// `sr[m][j]`: model m's score rate under judge j (`None`: no file).
    pub sr: Vec<Vec<Option<f64>>>,
    /// Highest minus lowest judge SR per model (`None` with fewer than two judges).
    pub sr_range: Vec<Option<f64>>,
    /// Krippendorff's α (ordinal) across judges on the shared (model, item, rotation) units.
    pub alpha: Option<f64>,
    /// Units rated by at least two judges.
    pub alpha_units: usize,
    /// τ-b for every pair of judges.
    pub tau: Vec<JudgeTau>,
    /// The (model, item)s with the largest spread (at most 20), largest first.
    pub disagreements: Vec<Disagreement>,
    /// Things the reader should know (one judge only, items outside the metadata...).
    pub notes: Vec<String>,
}

/// Krippendorff's α with the ordinal metric. `units[u]` holds the values the raters gave unit u
/// (missing ratings left out); units with fewer than two values are not pairable and are
/// skipped. `None` when fewer than two pairable values or no expected disagreement.
///
/// # Examples
/// ```
/// use coglab_core::ranks::judges::krippendorff_ordinal;
/// // Perfect agreement on varied values: α = 1.
/// assert_eq!(krippendorff_ordinal(&[vec![1, 1], vec![3, 3], vec![0, 0]]), Some(1.0));
/// ```
pub fn krippendorff_ordinal(units: &[Vec<u8>]) -> Option<f64> {
    let values: Vec<u8> = units
        .iter()
        .filter(|u| u.len() >= 2)
        .flatten()
        .copied()
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let v = values.len();
    if v == 0 {
        return None;
    }
    let idx = |x: u8| values.binary_search(&x).unwrap_or(0);
    // Coincidence matrix.
    let mut o = vec![vec![0.0f64; v]; v];
    for u in units.iter().filter(|u| u.len() >= 2) {
        let m = u.len() as f64;
        for (i, &a) in u.iter().enumerate() {
            for (j, &b) in u.iter().enumerate() {
                if i != j {
                    o[idx(a)][idx(b)] += 1.0 / (m - 1.0);
                }
            }
        }
    }
    let nc: Vec<f64> = o.iter().map(|r| r.iter().sum()).collect();
    let n: f64 = nc.iter().sum();
    if n < 2.0 {
        return None;
    }
    let delta2 = |c: usize, k: usize| {
        let (lo, hi) = (c.min(k), c.max(k));
        let s: f64 = nc[lo..=hi].iter().sum::<f64>() - (nc[lo] + nc[hi]) / 2.0;
        s * s
    };
    let (mut d_o, mut d_e) = (0.0, 0.0);
    for c in 0..v {
        for k in 0..v {
            let d = delta2(c, k);
            d_o += o[c][k] * d;
            d_e += nc[c] * nc[k] * d;
        }
    }
    if d_e == 0.0 {
        return None;
    }
    Some(1.0 - (n - 1.0) * d_o / d_e)
}

/// Kendall's τ-b of two equally long score lists (`None` when undefined).
pub fn kendall_tau_b(x: &[f64], y: &[f64]) -> Option<f64> {
    if x.len() < 2 || x.len() != y.len() {
        return None;
    }
    crate::stats::correlation::kendall_tau_b(x, y)
}

/// Judge robustness of MM-OPERA judge files. `known_items`, when given (the metadata's ids),
/// names judge files that score items outside it (they are still used).
///
/// # Examples
/// ```
/// use coglab_core::mmopera::files::RegularScores;
/// use coglab_core::ranks::judges::{judge_robustness, JudgeFile};
/// let j1 = RegularScores::parse("m_RIA_regular_scoring_j1.json", br#"{"q1": {"score_judge": 4}, "q2": {"score_judge": 2}}"#).unwrap();
/// let j2 = RegularScores::parse("m_RIA_regular_scoring_j2.json", br#"{"q1": {"score_judge": 3}, "q2": {"score_judge": 2}}"#).unwrap();
/// let r = judge_robustness(&[
///     JudgeFile { model: "m", judge: "j1", scores: &j1 },
///     JudgeFile { model: "m", judge: "j2", scores: &j2 },
/// ], None);
/// assert_eq!(r.sr[0], vec![Some(0.75), Some(0.625)]); // (4+2)/8, (3+2)/8
/// assert_eq!(r.disagreements[0].item, "q1");
/// ```
pub fn judge_robustness(
    files: &[JudgeFile<'_>],
    known_items: Option<&BTreeSet<String>>,
) -> JudgeRobustness {
    let sets: Vec<JudgeSet<'_>> = files
        .iter()
        .map(|f| JudgeSet {
            model: f.model,
            judge: f.judge.to_string(),
            file: &f.scores.file,
            entries: f
                .scores
                .entries
                .iter()
                .map(|e| (e.id.as_str(), e.verdicts.iter().map(|v| v.score).collect()))
                .collect(),
        })
        .collect();
    robustness(&sets, known_items)
}

/// One judge's verdicts on one model's items: (item, verdicts with `None` for an invalid score).
struct JudgeSet<'a> {
    model: &'a str,
    judge: String,
    file: &'a str,
    entries: Vec<(&'a str, Vec<Option<u8>>)>,
}

/// The judge's name of an MM-OPERA judge file: the part after `regular_scoring`
/// (`…_RIA_regular_scoring_deepseek.json` → `deepseek`), else the parent folder, else
/// `judge N` (`k` + 1).
///
/// # Examples
/// ```
/// use coglab_core::ranks::judges::judge_name;
/// assert_eq!(judge_name("runs/m_RIA_regular_scoring_gpt-4o.json", 0), "gpt-4o");
/// assert_eq!(judge_name("claude/m_RIA_regular_scoring.json", 0), "claude");
/// assert_eq!(judge_name("m_RIA_regular_scoring.json", 1), "judge 2");
/// ```
pub fn judge_name(path: &str, k: usize) -> String {
    let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
    let stem = name.rsplit_once('.').map_or(name, |(s, _)| s);
    let lower = stem.to_ascii_lowercase();
    if let Some(i) = lower.find("regular_scoring") {
        let rest = stem[i + "regular_scoring".len()..].trim_matches(['_', '-', '.']);
        if !rest.is_empty() {
            return rest.to_string();
        }
    }
    let parent = path[..path.len() - name.len()].trim_end_matches(['/', '\\']);
    let folder = parent.rsplit(['/', '\\']).next().unwrap_or(parent);
    if folder.is_empty() {
        format!("judge {}", k + 1)
    } else {
        folder.to_string()
    }
}

/// Judge robustness from the leaderboard's MM-OPERA task rows (model name, row): each row's
/// holistic judge files are its judges ([`judge_name`]), their verdicts the per-judge lists
/// kept in [`ItemScores::judges`] (a row with one judge file: its pooled scores). `None` when
/// no model has several judges' files.
///
/// # Examples
/// ```
/// use coglab_core::leaderboard::mmopera::{ItemScores, MmoperaTaskRow};
/// use coglab_core::mmopera::Task;
/// use coglab_core::ranks::judges::judge_robustness_rows;
/// let row = MmoperaTaskRow {
///     task: Task::Ria,
///     regular_files: vec!["m_RIA_regular_scoring_j1.json".into(), "m_RIA_regular_scoring_j2.json".into()],
///     reasoning_files: vec![], answers_file: None, metadata_file: None, holistic: None,
///     reasoning: None, warning_count: 0, intervals: None, reasoning_settings: vec![], notes: vec![],
///     items: vec![
///         ItemScores { id: "q1".into(), scores: vec![4, 3], s_r: None, judges: vec![vec![Some(4)], vec![Some(3)]] },
///         ItemScores { id: "q2".into(), scores: vec![2, 2], s_r: None, judges: vec![vec![Some(2)], vec![Some(2)]] },
///     ],
/// };
/// let r = judge_robustness_rows(&[("m", &row)]).unwrap();
/// assert_eq!(r.judges, ["j1", "j2"]);
/// assert_eq!(r.sr[0], vec![Some(0.75), Some(0.625)]); // (4+2)/8, (3+2)/8
/// ```
pub fn judge_robustness_rows(
    rows: &[(&str, &crate::leaderboard::mmopera::MmoperaTaskRow)],
) -> Option<JudgeRobustness> {
    if !rows.iter().any(|(_, r)| r.regular_files.len() > 1) {
        return None;
    }
    let mut sets = Vec::new();
    for (model, row) in rows {
        if row.regular_files.len() > 1 {
            for (k, file) in row.regular_files.iter().enumerate() {
                sets.push(JudgeSet {
                    model,
                    judge: judge_name(file, k),
                    file,
                    entries: row
                        .items
                        .iter()
                        .filter_map(|i| {
                            let v = i.judges.get(k)?;
                            (!v.is_empty()).then(|| (i.id.as_str(), v.clone()))
                        })
                        .collect(),
                });
            }
        } else if let Some(file) = row.regular_files.first() {
            sets.push(JudgeSet {
                model,
                judge: judge_name(file, 0),
                file,
                entries: row
                    .items
                    .iter()
                    .filter(|i| !i.scores.is_empty())
                    .map(|i| (i.id.as_str(), i.scores.iter().map(|&s| Some(s)).collect()))
                    .collect(),
            });
        }
    }
    Some(robustness(&sets, None))
}

fn robustness(files: &[JudgeSet<'_>], known_items: Option<&BTreeSet<String>>) -> JudgeRobustness {
    let judges: Vec<String> = files
        .iter()
        .map(|f| f.judge.clone())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let models: Vec<String> = files
        .iter()
        .map(|f| f.model.to_string())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let jpos = |j: &str| judges.iter().position(|x| x == j).unwrap_or(0);
    let mpos = |m: &str| models.iter().position(|x| x == m).unwrap_or(0);
    let mut notes = Vec::new();
    let mut sr = vec![vec![None; judges.len()]; models.len()];
    // (model, item, rotation) -> per judge valid score; (model, item) -> per judge scores.
    let mut units: BTreeMap<(usize, &str, usize), Vec<Option<u8>>> = BTreeMap::new();
    let mut per_item: BTreeMap<(usize, &str), Vec<Vec<f64>>> = BTreeMap::new();
    for f in files {
        let (m, j) = (mpos(f.model), jpos(&f.judge));
        if sr[m][j].is_some() {
            notes.push(format!(
                "{}: a second file of judge {} for model {}; the first is used",
                f.file, f.judge, f.model
            ));
            continue;
        }
        let (mut total, mut verdicts) = (0u64, 0u64);
        let mut unknown = 0usize;
        for (id, scores) in &f.entries {
            if known_items.is_some_and(|k| !k.contains(*id)) {
                unknown += 1;
            }
            let item = per_item
                .entry((m, id))
                .or_insert_with(|| vec![Vec::new(); judges.len()]);
            for (r, v) in scores.iter().enumerate() {
                let counted = v.unwrap_or(0);
                total += u64::from(counted);
                verdicts += 1;
                item[j].push(f64::from(counted));
                let unit = units
                    .entry((m, id, r))
                    .or_insert_with(|| vec![None; judges.len()]);
                unit[j] = *v;
            }
        }
        if unknown > 0 {
            notes.push(format!(
                "{} (judge {}, model {}): {unknown} item(s) are not in the metadata; they are still scored",
                f.file, f.judge, f.model
            ));
        }
        if verdicts > 0 {
            sr[m][j] = Some(total as f64 / (4 * verdicts) as f64);
        }
    }
    if judges.len() < 2 {
        notes.push(format!(
            "one judge only ({}): no judge robustness to show",
            judges.first().map_or("none", String::as_str)
        ));
    }
    let sr_range = sr
        .iter()
        .map(|row| {
            let v: Vec<f64> = row.iter().flatten().copied().collect();
            (v.len() >= 2).then(|| {
                v.iter().copied().fold(f64::NEG_INFINITY, f64::max)
                    - v.iter().copied().fold(f64::INFINITY, f64::min)
            })
        })
        .collect();
    let rated: Vec<Vec<u8>> = units
        .values()
        .map(|u| u.iter().flatten().copied().collect::<Vec<u8>>())
        .filter(|u| u.len() >= 2)
        .collect();
    let alpha = if judges.len() >= 2 {
        krippendorff_ordinal(&rated)
    } else {
        None
    };
    let mut tau = Vec::new();
    for a in 0..judges.len() {
        for b in a + 1..judges.len() {
            let (x, y): (Vec<f64>, Vec<f64>) =
                sr.iter().filter_map(|row| Some((row[a]?, row[b]?))).unzip();
            tau.push(JudgeTau {
                a: judges[a].clone(),
                b: judges[b].clone(),
                models: x.len(),
                tau_b: kendall_tau_b(&x, &y),
            });
        }
    }
    let mut disagreements: Vec<Disagreement> = per_item
        .iter()
        .filter_map(|(&(m, item), per_judge)| {
            let means: Vec<Option<f64>> = per_judge
                .iter()
                .map(|s| (!s.is_empty()).then(|| s.iter().sum::<f64>() / s.len() as f64))
                .collect();
            let v: Vec<f64> = means.iter().flatten().copied().collect();
            if v.len() < 2 {
                return None;
            }
            let spread = v.iter().copied().fold(f64::NEG_INFINITY, f64::max)
                - v.iter().copied().fold(f64::INFINITY, f64::min);
            Some(Disagreement {
                model: models[m].clone(),
                item: item.to_string(),
                means,
                spread,
            })
        })
        .collect();
    disagreements.sort_by(|a, b| {
        b.spread
            .total_cmp(&a.spread)
            .then_with(|| a.model.cmp(&b.model))
            .then_with(|| a.item.cmp(&b.item))
    });
    disagreements.truncate(20);
    JudgeRobustness {
        judges,
        models,
        sr,
        sr_range,
        alpha,
        alpha_units: rated.len(),
        tau,
        disagreements,
        notes,
    }
}
