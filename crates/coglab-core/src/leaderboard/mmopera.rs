//! MM-OPERA on the leaderboard: groups dropped MM-OPERA files (model answers, holistic and
//! process-reward judge outputs, dataset metadata) by model and task, scores each group with
//! [`crate::mmopera::score::score`] exactly as `coglab score mmopera` does (default options,
//! the judge files of a model pooled), and keeps summary-sized rows: the holistic and process
//! reports with their breakdowns, and per item only the counted holistic scores and S_r (no
//! text), for the two-model comparison ([`compare`]).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{FileState, FileStatus, InputRef};
use crate::mmopera::detect::{detect, FileKind as OperaKind};
use crate::mmopera::files::{Answers, ReasoningScores, RegularScores};
use crate::mmopera::length::{LengthBias, LengthSamples};
use crate::mmopera::metadata::Metadata;
use crate::mmopera::score::{
    score, DecayExponent, HolisticReport, IcaAverage, InvalidScores, ReasoningReport, ScoreInput,
    ScoreOptions,
};
use crate::mmopera::Task;

/// How many warnings / skipped items / missing ids a row keeps (the counts stay exact).
const KEEP: usize = 20;

/// One item's holistic scores and process score for one model (no text).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ItemScores {
    /// Item id.
    pub id: String,
    /// Counted holistic scores 0-4 (an invalid score counts as 0, as in SR), judges pooled
    /// in file order, rotations in order.
    pub scores: Vec<u8>,
    /// The item's S_r averaged over the process judges, if scored.
    pub s_r: Option<f64>,
    /// With several holistic judge files: each file's verdicts on the item (in the order of
    /// [`MmoperaTaskRow::regular_files`]; `None` for an invalid score; an empty list when that
    /// judge did not score the item), for the judge robustness table
    /// ([`crate::ranks::judges::judge_robustness_rows`]). Empty with one judge file.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub judges: Vec<Vec<Option<u8>>>,
}

/// One model's scores on one task.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MmoperaTaskRow {
    /// RIA or ICA.
    pub task: Task,
    /// Holistic judge files pooled.
    pub regular_files: Vec<String>,
    /// Process-reward judge files averaged.
    pub reasoning_files: Vec<String>,
    /// The answers file, if any.
    pub answers_file: Option<String>,
    /// The metadata file used for the breakdowns, if any.
    pub metadata_file: Option<String>,
    /// Holistic metrics (warnings and id lists cut to 20; see the counts).
    pub holistic: Option<HolisticReport>,
    /// Process metrics (warnings and id lists cut to 20; see the counts).
    pub reasoning: Option<ReasoningReport>,
    /// Warnings of the holistic and process reports before cutting.
    pub warning_count: usize,
    /// The 95% intervals of the row's metrics over its items ([`intervals`]), computed when the
    /// row is scored.
    #[serde(default)]
    pub intervals: Option<TaskIntervals>,
    /// The mean S_r under each of the four settings of the paper-fidelity switches (decay code
    /// or paper × average over items or paths), each scored by [`score`] (issue 23); empty
    /// without a process-reward judge file. `reasoning` is the default (code, items).
    #[serde(default)]
    pub reasoning_settings: Vec<SrSetting>,
    /// Per item scores (judged items, in file order). The web app's worker keeps them and
    /// sends the row without them ([`crate::leaderboard::Scored::split_details`]).
    pub items: Vec<ItemScores>,
    /// What the reader should know (no metadata, lists cut).
    pub notes: Vec<String>,
}

/// A task row's mean S_r under one setting of the decay and ICA-average switches.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct SrSetting {
    /// The decay convention.
    pub decay: DecayExponent,
    /// Mean over items or over paths.
    pub average: IcaAverage,
    /// Mean S_r.
    pub mean_score: f64,
    /// Items with an S_r.
    pub n: usize,
    /// Scored paths.
    pub scored_paths: usize,
    /// Mean ± t(0.975, items − 1) SE over the items' S_r (items average only: the paths of one item are not
    /// independent, so the average over paths gets no interval), with at least two items.
    pub interval: Option<(f64, f64)>,
}

impl MmoperaTaskRow {
    /// The mean S_r under a setting ([`MmoperaTaskRow::reasoning_settings`]).
    pub fn reasoning_under(&self, decay: DecayExponent, average: IcaAverage) -> Option<&SrSetting> {
        self.reasoning_settings
            .iter()
            .find(|s| s.decay == decay && s.average == average)
    }

    /// The length bias of the holistic and the process judge under another short-answer
    /// threshold (1-point answers shorter than `min_length` characters left out), from the
    /// pairs kept when the row was scored; `None` for a judge without answers, or when the row
    /// was read back from JSON (the pairs are not serialized).
    pub fn length_bias_at(&self, min_length: usize) -> LengthBiases {
        let at = |s: Option<&LengthSamples>| s.map(|s| s.bias(min_length));
        LengthBiases {
            holistic: at(self
                .holistic
                .as_ref()
                .and_then(|h| h.length_samples.as_ref())),
            process: at(self
                .reasoning
                .as_ref()
                .and_then(|r| r.length_samples.as_ref())),
        }
    }
}

/// A task row's length bias under one short-answer threshold ([`MmoperaTaskRow::length_bias_at`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LengthBiases {
    /// The holistic (0-4) judge's.
    pub holistic: Option<LengthBias>,
    /// The process-reward judge's (S_r).
    pub process: Option<LengthBias>,
}

/// The RIA − ICA gap of score rates (SR, fractions): how much better a model associates two
/// items (RIA) than it completes an in-context analogy (ICA); the paper compares the two
/// tasks' Table 2 columns. Both from the same source (reported or computed).
///
/// # Examples
/// ```
/// assert!((coglab_core::leaderboard::mmopera::ria_ica_gap(0.6, 0.45) - 0.15).abs() < 1e-12);
/// ```
pub fn ria_ica_gap(ria_sr: f64, ica_sr: f64) -> f64 {
    ria_sr - ica_sr
}

/// A computed MM-OPERA row: one model, RIA and/or ICA.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MmoperaRow {
    /// Row id, set by [`crate::leaderboard::Scored::split_details`] (the default until then).
    #[serde(default)]
    pub id: crate::leaderboard::RowId,
    /// Model name.
    pub model: String,
    /// RIA scores, if RIA judge files were given.
    pub ria: Option<MmoperaTaskRow>,
    /// ICA scores, if ICA judge files were given.
    pub ica: Option<MmoperaTaskRow>,
}

impl MmoperaRow {
    /// The row of one task.
    pub fn task(&self, task: Task) -> Option<&MmoperaTaskRow> {
        match task {
            Task::Ria => self.ria.as_ref(),
            Task::Ica => self.ica.as_ref(),
        }
    }

    /// SR(RIA) − SR(ICA) ([`ria_ica_gap`]), when both tasks have holistic scores.
    pub fn ria_ica_gap(&self) -> Option<f64> {
        let sr = |t: &Option<MmoperaTaskRow>| t.as_ref()?.holistic.as_ref().map(|h| h.score_rate);
        Some(ria_ica_gap(sr(&self.ria)?, sr(&self.ica)?))
    }
}

/// The model name of an MM-OPERA file: the part of the file name before `_RIA` / `_ICA`
/// (`gpt-4o_RIA_regular_scoring.json` → `gpt-4o`), else [`super::guess_model`].
///
/// # Examples
/// ```
/// use coglab_core::leaderboard::mmopera::model_of;
/// assert_eq!(model_of("runs/gpt-4o_RIA_regular_scoring_deepseek.json"), "gpt-4o");
/// assert_eq!(model_of("Qwen2-VL_ica_results.json"), "Qwen2-VL");
/// ```
pub fn model_of(path: &str) -> String {
    let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
    let lower = name.to_ascii_lowercase();
    for tag in ["_ria", "_ica"] {
        if let Some(i) = lower.find(tag) {
            if i > 0 {
                return name[..i].to_string();
            }
        }
    }
    super::guess_model(path)
}

/// Whether a file is named like a released MM-OPERA output (`<model>_RIA_results.json`,
/// `_ICA_regular_scoring.json`, `_RIA_reasoning_scoring.json`, `human_ICA_rescore.json`), so
/// that a broken one shows its MM-OPERA parse error rather than "not recognised".
///
/// # Examples
/// ```
/// use coglab_core::leaderboard::mmopera::is_named;
/// assert!(is_named("out/gpt-4o_RIA_regular_scoring.json"));
/// assert!(!is_named("ria_notes.json"));
/// ```
pub fn is_named(path: &str) -> bool {
    let name = path
        .rsplit(['/', '\\'])
        .next()
        .unwrap_or(path)
        .to_ascii_lowercase();
    (name.contains("_ria") || name.contains("_ica"))
        && ["_results", "_scoring", "rescore"]
            .iter()
            .any(|t| name.contains(t))
}

/// Whether a CSV file looks like MM-OPERA metadata: an `id` column and at least two of the
/// dataset's columns (`foldername`, `hop_count`, `perception`, `conception`, `relation`,
/// `culture`).
///
/// # Examples
/// ```
/// use coglab_core::leaderboard::mmopera::is_metadata_csv;
/// assert!(is_metadata_csv(b"id,foldername,domain,hop_count,perception\nr1,x,Art,2,[]\n"));
/// assert!(!is_metadata_csv(b"model,Color,Count\nA,1,2\n"));
/// ```
pub fn is_metadata_csv(head: &[u8]) -> bool {
    let first = head.split(|b| *b == b'\n').next().unwrap_or_default();
    let first = String::from_utf8_lossy(first).to_ascii_lowercase();
    let cols: Vec<&str> = first
        .split(',')
        .map(|c| c.trim().trim_matches('"'))
        .collect();
    cols.contains(&"id")
        && [
            "foldername",
            "hop_count",
            "perception",
            "conception",
            "relation",
            "culture",
        ]
        .iter()
        .filter(|c| cols.contains(c))
        .count()
            >= 2
}

enum Parsed {
    Meta(Metadata, Option<Task>),
    Regular(RegularScores),
    Reasoning(ReasoningScores),
    Answers(Answers),
}

impl Parsed {
    fn task(&self) -> Option<Task> {
        match self {
            Parsed::Meta(_, t) => *t,
            Parsed::Regular(r) => Some(r.task),
            Parsed::Reasoning(r) => Some(r.task),
            Parsed::Answers(a) => Some(a.task),
        }
    }
}

fn parse_one(path: &str, bytes: &[u8]) -> Result<Parsed, String> {
    let d = detect(path, bytes).map_err(|e| e.to_string())?;
    Ok(match d.kind {
        OperaKind::Metadata => Parsed::Meta(
            Metadata::parse(path, bytes).map_err(|e| e.to_string())?,
            d.task.or_else(|| folder_task(path)),
        ),
        OperaKind::RegularScoring | OperaKind::Scores => {
            Parsed::Regular(RegularScores::parse(path, bytes).map_err(|e| e.to_string())?)
        }
        OperaKind::ReasoningScoring => {
            Parsed::Reasoning(ReasoningScores::parse(path, bytes).map_err(|e| e.to_string())?)
        }
        OperaKind::Answers => {
            Parsed::Answers(Answers::parse(path, bytes).map_err(|e| e.to_string())?)
        }
    })
}

/// The task named by a folder of the path (`.../RIA/metadata.json`).
fn folder_task(path: &str) -> Option<Task> {
    path.split(['/', '\\'])
        .rev()
        .skip(1)
        .find_map(|c| c.parse::<Task>().ok())
}

/// A group of one model's files on one task.
#[derive(Default)]
struct Group {
    regular: Vec<usize>,
    reasoning: Vec<usize>,
    answers: Option<usize>,
}

/// Scores the MM-OPERA files `indices` of `inputs` (statuses in `files`, updated in place with
/// located errors; a metadata file gets no model). Judge files are grouped by model (the
/// name the user set, else [`model_of`]) and task; each group uses the metadata file of its
/// task with the most ids in common with its judge files. `progress(done)` is called after
/// each file.
pub fn score_mmopera(
    inputs: &[InputRef<'_>],
    indices: &[usize],
    files: &mut [FileStatus],
    mut progress: impl FnMut(&str),
) -> Vec<MmoperaRow> {
    let mut parsed: BTreeMap<usize, Parsed> = BTreeMap::new();
    for &i in indices {
        let f = &inputs[i];
        progress(f.path);
        match parse_one(f.path, f.bytes) {
            Ok(p) => {
                if matches!(p, Parsed::Meta(..)) {
                    files[i].model = String::new();
                } else if f.model.is_none() {
                    files[i].model = model_of(f.path);
                }
                parsed.insert(i, p);
            }
            Err(e) => {
                files[i].status = FileState::Error;
                files[i].message = Some(e);
            }
        }
    }
    let mut groups: BTreeMap<(String, &'static str), (Task, Group)> = BTreeMap::new();
    for (&i, p) in &parsed {
        let Some(task) = p.task() else { continue };
        if matches!(p, Parsed::Meta(..)) {
            continue;
        }
        let (_, g) = groups
            .entry((files[i].model.clone(), task.name()))
            .or_insert_with(|| (task, Group::default()));
        match p {
            Parsed::Regular(_) => g.regular.push(i),
            Parsed::Reasoning(_) => g.reasoning.push(i),
            Parsed::Answers(_) => {
                if g.answers.is_some() {
                    files[i].status = FileState::Error;
                    files[i].message = Some(format!(
                        "{}: a second answers file for {} {}: the first one is used",
                        inputs[i].path,
                        files[i].model,
                        task.name()
                    ));
                } else {
                    g.answers = Some(i);
                }
            }
            Parsed::Meta(..) => {}
        }
    }
    let options = ScoreOptions::default();
    let mut rows: BTreeMap<String, MmoperaRow> = BTreeMap::new();
    for ((model, _), (task, g)) in groups {
        let members: Vec<usize> = g
            .regular
            .iter()
            .chain(&g.reasoning)
            .chain(&g.answers)
            .copied()
            .collect();
        if g.regular.is_empty() && g.reasoning.is_empty() {
            for &i in &members {
                files[i].status = FileState::Error;
                files[i].message = Some(format!(
                    "{}: model answers for {model} {} but no judge file (_regular_scoring.json \
                     or _reasoning_scoring.json) to score them",
                    inputs[i].path,
                    task.name()
                ));
            }
            continue;
        }
        let regular: Vec<&RegularScores> = g
            .regular
            .iter()
            .filter_map(|i| match parsed.get(i) {
                Some(Parsed::Regular(r)) => Some(r),
                _ => None,
            })
            .collect();
        let reasoning: Vec<&ReasoningScores> = g
            .reasoning
            .iter()
            .filter_map(|i| match parsed.get(i) {
                Some(Parsed::Reasoning(r)) => Some(r),
                _ => None,
            })
            .collect();
        let answers = g.answers.and_then(|i| match parsed.get(&i) {
            Some(Parsed::Answers(a)) => Some(a),
            _ => None,
        });
        let ids: Vec<&str> = regular
            .iter()
            .flat_map(|r| r.entries.iter().map(|e| e.id.as_str()))
            .chain(
                reasoning
                    .iter()
                    .flat_map(|r| r.entries.iter().map(|e| e.id.as_str())),
            )
            .collect();
        let metadata = parsed
            .values()
            .filter_map(|p| match p {
                Parsed::Meta(m, t) if t.is_none_or(|t| t == task) => Some(m),
                _ => None,
            })
            .map(|m| (ids.iter().filter(|id| m.get(id).is_some()).count(), m))
            .filter(|(n, _)| *n > 0)
            .max_by_key(|(n, _)| *n)
            .map(|(_, m)| m);
        let empty = Metadata::default();
        let input = ScoreInput {
            task,
            metadata: metadata.unwrap_or(&empty),
            regular,
            reasoning,
            answers,
        };
        match score(&input, &options) {
            Ok(report) => {
                let mut row = task_row(&input, metadata, report);
                row.reasoning_settings = reasoning_settings(&input, &options);
                let entry = rows.entry(model.clone()).or_insert_with(|| MmoperaRow {
                    id: Default::default(),
                    model: model.clone(),
                    ria: None,
                    ica: None,
                });
                match task {
                    Task::Ria => entry.ria = Some(row),
                    Task::Ica => entry.ica = Some(row),
                }
            }
            Err(e) => {
                for &i in &members {
                    files[i].status = FileState::Error;
                    files[i].message = Some(e.to_string());
                }
            }
        }
    }
    rows.into_values().collect()
}

/// The mean S_r under the four settings of the decay and ICA-average switches.
fn reasoning_settings(input: &ScoreInput<'_>, base: &ScoreOptions) -> Vec<SrSetting> {
    if input.reasoning.is_empty() {
        return Vec::new();
    }
    let mut out = Vec::with_capacity(4);
    for decay in [DecayExponent::FromZero, DecayExponent::FromOne] {
        for average in [IcaAverage::Items, IcaAverage::Paths] {
            let options = ScoreOptions {
                decay_exponent: decay,
                ica_average: average,
                ..*base
            };
            let Ok(report) = score(input, &options) else {
                continue;
            };
            let Some(r) = report.reasoning else { continue };
            let interval = (average == IcaAverage::Items)
                .then(|| {
                    let s_r: Vec<f64> = report.items.iter().filter_map(|i| i.s_r).collect();
                    (s_r.len() >= 2)
                        .then(|| crate::stats::describe::mean_se(&s_r, 1).ok())
                        .flatten()
                        .map(crate::stats::describe::t_interval)
                })
                .flatten();
            out.push(SrSetting {
                decay,
                average,
                mean_score: r.mean_score,
                n: r.n,
                scored_paths: r.scored_paths,
                interval,
            });
        }
    }
    out
}

fn task_row(
    input: &ScoreInput<'_>,
    metadata: Option<&Metadata>,
    mut report: crate::mmopera::score::Report,
) -> MmoperaTaskRow {
    let mut notes = Vec::new();
    if metadata.is_none() {
        notes.push(
            "no MM-OPERA metadata with these items among the files: scores without breakdowns"
                .to_string(),
        );
    }
    let mut warning_count = 0;
    if let Some(h) = &mut report.holistic {
        warning_count += h.warnings.len();
        h.warnings.truncate(KEEP);
        h.missing_metadata.truncate(KEEP);
    }
    if let Some(r) = &mut report.reasoning {
        warning_count += r.warnings.len();
        r.warnings.truncate(KEEP);
        r.skipped.truncate(KEEP);
        r.missing_metadata.truncate(KEEP);
    }
    if warning_count > KEEP {
        notes.push(format!(
            "{warning_count} warnings in the judge files; the first {KEEP} of each kind are kept"
        ));
    }
    let files: Vec<&str> = input.regular.iter().map(|r| r.file.as_str()).collect();
    let items = item_scores(std::mem::take(&mut report.items), &files);
    let iv = intervals(&items).map(|x| x.1);
    MmoperaTaskRow {
        task: input.task,
        regular_files: input.regular.iter().map(|r| r.file.clone()).collect(),
        reasoning_files: input.reasoning.iter().map(|r| r.file.clone()).collect(),
        answers_file: input.answers.map(|a| a.file.clone()),
        metadata_file: metadata.map(|m| m.file.clone()),
        holistic: report.holistic,
        reasoning: report.reasoning,
        warning_count,
        intervals: iv,
        reasoning_settings: Vec::new(),
        items,
        notes,
    }
}

/// Per-item counted scores (judges pooled in file order) and S_r, from the report's item rows;
/// with several judge files (`files`), each judge's verdicts too.
fn item_scores(items: Vec<crate::mmopera::score::ItemRow>, files: &[&str]) -> Vec<ItemScores> {
    items
        .into_iter()
        .map(|it| item_score(&it, files, InvalidScores::CountAsZero))
        .collect()
}

/// One item's [`ItemScores`] from its report row: its verdicts as SR counts them under
/// `invalid` (an invalid score 0 under [`InvalidScores::CountAsZero`], left out under
/// [`InvalidScores::Exclude`]), judges pooled in file order; with several judge files
/// (`files`), each judge's verdicts too.
///
/// # Examples
/// ```
/// use coglab_core::leaderboard::mmopera::item_score;
/// use coglab_core::mmopera::files::Verdict;
/// use coglab_core::mmopera::score::{InvalidScores, ItemRow, JudgeVerdicts};
/// let v = |score: Option<u8>| Verdict { score, found: None, reason: None };
/// let row = ItemRow {
///     id: "a".into(), meta: None, answers: vec![], mean_score: None, process: vec![], s_r: None,
///     holistic: vec![JudgeVerdicts { file: "j.json".into(), verdicts: vec![v(Some(3)), v(None)] }],
/// };
/// assert_eq!(item_score(&row, &[], InvalidScores::CountAsZero).scores, [3, 0]);
/// assert_eq!(item_score(&row, &[], InvalidScores::Exclude).scores, [3]);
/// ```
pub fn item_score(
    it: &crate::mmopera::score::ItemRow,
    files: &[&str],
    invalid: InvalidScores,
) -> ItemScores {
    ItemScores {
        scores: it
            .holistic
            .iter()
            .flat_map(|j| j.verdicts.iter())
            .filter(|v| v.score.is_some() || invalid == InvalidScores::CountAsZero)
            .map(|v| v.counted())
            .collect(),
        judges: if files.len() > 1 {
            files
                .iter()
                .map(|f| {
                    it.holistic
                        .iter()
                        .find(|j| j.file == *f)
                        .map(|j| j.verdicts.iter().map(|v| v.score).collect())
                        .unwrap_or_default()
                })
                .collect()
        } else {
            Vec::new()
        },
        s_r: it.s_r,
        id: it.id.clone(),
    }
}

pub use crate::stats::paired::paired_bootstrap_mean_diff;

/// Normal 95% intervals of a task row's metrics, the items as independent clusters of
/// verdicts (a judge's verdicts and an ICA item's rotations on one item are not independent).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct TaskIntervals {
    /// SR.
    pub sr: (f64, f64),
    /// HR-4.
    pub hr4: (f64, f64),
    /// HR-3.
    pub hr3: (f64, f64),
    /// ΔHR.
    pub delta_hr: (f64, f64),
    /// Mean reasoning score S_r (mean ± t(0.975, items − 1) SE over the items with a score), when at least two
    /// items have one.
    pub reasoning: Option<(f64, f64)>,
}

/// A ratio estimate Σy / Σx over items (the clusters) with its linearised standard error and
/// 95% interval ([`estimates`]).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct RatioEstimate {
    /// The ratio R = Σy / Σx.
    pub value: f64,
    /// The linearised (cluster) SE = sqrt(n / (n − 1) · Σ(y_i − R·x_i)²) / Σx.
    pub se: f64,
    /// The interval's low end: Wilson's with the effective size R(1 − R)/SE² and Student t on
    /// items − 1 degrees of freedom ([`crate::stats::interval::wilson_clustered`]), else R − t SE
    /// clamped to [0, 1].
    pub lower: f64,
    /// The interval's high end (as `lower`).
    pub upper: f64,
}

/// The ratio Σy / Σx of per-item totals (a rate in [0, 1]) and its 95% interval: Wilson's
/// with the effective size R(1 − R)/SE² and Student t on items − 1 degrees of freedom
/// ([`crate::stats::interval::wilson_clustered`], items as clusters, Σx verdicts), from the
/// linearised (cluster) SE = sqrt(n / (n − 1) · Σ(y_i − R·x_i)²) / Σx. Issue 40: `R ± t SE`
/// covered 89% on average over n in [10, 300] and p in [0.02, 0.98] (`docs/coverage.md`).
fn ratio_interval(pairs: &[(f64, f64)]) -> RatioEstimate {
    let n = pairs.len() as f64;
    let (sy, sx): (f64, f64) = pairs
        .iter()
        .fold((0.0, 0.0), |(a, b), (y, x)| (a + y, b + x));
    let r = sy / sx;
    let ss: f64 = pairs.iter().map(|(y, x)| (y - r * x).powi(2)).sum();
    let se = (n / (n - 1.0) * ss).sqrt() / sx;
    let obs = sx.round().max(0.0) as usize;
    let (lower, upper) = match crate::stats::interval::wilson_clustered(
        r.clamp(0.0, 1.0),
        se,
        pairs.len(),
        obs,
        true,
    ) {
        Some(i) => (i.low, i.high),
        None => {
            let q = crate::stats::describe::t_975(pairs.len().saturating_sub(1));
            ((r - q * se).max(0.0), (r + q * se).min(1.0))
        }
    };
    RatioEstimate {
        value: r,
        se,
        lower,
        upper,
    }
}

/// A task row's SR, HR-4, HR-3 and ΔHR as ratio estimates over its items, and the mean S_r
/// with its SE ([`estimates`]).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct TaskEstimates {
    /// Items with verdicts (the clusters).
    pub items: usize,
    /// Verdicts counted (N).
    pub verdicts: usize,
    /// SR = Σscore / 4N.
    pub sr: RatioEstimate,
    /// HR-4: share of verdicts scoring 4.
    pub hr4: RatioEstimate,
    /// HR-3: share of verdicts scoring 3 or 4.
    pub hr3: RatioEstimate,
    /// ΔHR = HR-3 − HR-4: share of verdicts scoring 3.
    pub delta_hr: RatioEstimate,
    /// Mean S_r over the items with one and its SE (SD with n − 1 over sqrt(n)), when at
    /// least two items have one.
    pub reasoning: Option<crate::stats::describe::MeanSe>,
}

/// The estimates behind [`intervals`]: SR, HR-4, HR-3 and ΔHR as ratio estimates over items
/// ([`ItemScores::scores`] are the counted verdicts, so the point estimates are the report's
/// SR = Σscore / 4N and the shares of N), and the mean S_r with its SE; `None` with fewer
/// than two items with verdicts.
///
/// # Examples
/// ```
/// use coglab_core::leaderboard::mmopera::{estimates, ItemScores};
/// let item = |id: &str, scores: Vec<u8>| ItemScores { id: id.into(), scores, s_r: None, judges: vec![] };
/// // Items [4, 2] and [0]: SR = 6 / 12 = 0.5; per item y = 1.5, 0 and x = 2, 1, so
/// // SE = sqrt(2 · ((1.5 − 1)² + (0 − 0.5)²)) / 3 = 1 / 3.
/// let e = estimates(&[item("a", vec![4, 2]), item("b", vec![0])]).unwrap();
/// assert_eq!((e.items, e.verdicts, e.sr.value), (2, 3, 0.5));
/// assert!((e.sr.se - 1.0 / 3.0).abs() < 1e-15);
/// ```
pub fn estimates(items: &[ItemScores]) -> Option<TaskEstimates> {
    let judged: Vec<&ItemScores> = items.iter().filter(|i| !i.scores.is_empty()).collect();
    if judged.len() < 2 {
        return None;
    }
    let of = |f: fn(u8) -> f64| -> RatioEstimate {
        let pairs: Vec<(f64, f64)> = judged
            .iter()
            .map(|i| (i.scores.iter().map(|&s| f(s)).sum(), i.scores.len() as f64))
            .collect();
        ratio_interval(&pairs)
    };
    let s_r: Vec<f64> = items.iter().filter_map(|i| i.s_r).collect();
    Some(TaskEstimates {
        items: judged.len(),
        verdicts: judged.iter().map(|i| i.scores.len()).sum(),
        sr: of(|s| f64::from(s) / 4.0),
        hr4: of(|s| f64::from(u8::from(s == 4))),
        hr3: of(|s| f64::from(u8::from(s >= 3))),
        delta_hr: of(|s| f64::from(u8::from(s == 3))),
        reasoning: (s_r.len() >= 2)
            .then(|| crate::stats::describe::mean_se(&s_r, 1).ok())
            .flatten(),
    })
}

/// The 95% intervals of a task row's SR, HR-4, HR-3 and ΔHR from its item scores, as ratio
/// estimates over items ([`estimates`]); `None` with fewer than two items with verdicts.
///
/// # Examples
/// ```
/// use coglab_core::leaderboard::mmopera::{intervals, ItemScores};
/// let item = |id: &str, scores: Vec<u8>, s_r| ItemScores { id: id.into(), scores, s_r, judges: vec![] };
/// let items = [item("a", vec![4], Some(1.0)), item("b", vec![2], Some(0.5)),
///              item("c", vec![0], None), item("d", vec![3], Some(1.5))];
/// let (point, iv) = intervals(&items).unwrap();
/// // SR = 9 / 16; HR-3 = 2 / 4.
/// assert_eq!(point[0], 0.5625);
/// assert_eq!(point[2], 0.5);
/// assert!(iv.sr.0 < 0.5625 && 0.5625 < iv.sr.1);
/// assert!(iv.reasoning.unwrap().0 < 1.0);
/// ```
pub fn intervals(items: &[ItemScores]) -> Option<([f64; 4], TaskIntervals)> {
    let e = estimates(items)?;
    let pair = |r: RatioEstimate| (r.lower, r.upper);
    Some((
        [e.sr.value, e.hr4.value, e.hr3.value, e.delta_hr.value],
        TaskIntervals {
            sr: pair(e.sr),
            hr4: pair(e.hr4),
            hr3: pair(e.hr3),
            delta_hr: pair(e.delta_hr),
            reasoning: e.reasoning.map(crate::stats::describe::t_interval),
        },
    ))
}
/// The paired-bootstrap interval of a mean difference (the stats module's [`BootstrapDiff`]).
pub use crate::stats::paired::BootstrapDiff as MeanDiffInterval;

/// Two models compared on the items both were judged on (one task).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MmoperaComparison {
    /// RIA or ICA.
    pub task: Task,
    /// The two models (A, B).
    pub models: [String; 2],
    /// Items judged for both.
    pub items: usize,
    /// Paired verdicts (same item, same position: rotation, then judge).
    pub pairs: usize,
    /// `table[a][b]`: paired verdicts where A scored `a` and B scored `b` (0-4).
    pub table: [[usize; 5]; 5],
    /// Share of paired verdicts with the same score.
    pub exact_match: f64,
    /// A's SR on the common items (mean item score / 4).
    pub sr_a: f64,
    /// B's SR on the common items.
    pub sr_b: f64,
    /// Paired bootstrap 95% interval of SR(A) − SR(B) over the common items.
    pub diff: MeanDiffInterval,
    /// Items only A was judged on.
    pub only_a: usize,
    /// Items only B was judged on.
    pub only_b: usize,
}

/// Compares two models on one task: the 5×5 table of paired holistic verdicts and a paired
/// bootstrap interval (items resampled) of the SR difference, SR per item being the mean
/// counted score / 4.
///
/// # Errors
/// A message when the rows are of different tasks, have no item in common or a statistic
/// fails.
pub fn compare(
    models: [&str; 2],
    a: &MmoperaTaskRow,
    b: &MmoperaTaskRow,
    resamples: usize,
    seed: u64,
) -> Result<MmoperaComparison, String> {
    if a.task != b.task {
        return Err(format!(
            "cannot compare {} {} with {} {}",
            models[0],
            a.task.name(),
            models[1],
            b.task.name()
        ));
    }
    let index: BTreeMap<&str, &ItemScores> = b.items.iter().map(|i| (i.id.as_str(), i)).collect();
    let mut table = [[0usize; 5]; 5];
    let (mut xs, mut ys) = (Vec::new(), Vec::new());
    let mut seen = std::collections::BTreeSet::new();
    for ia in &a.items {
        let Some(ib) = index.get(ia.id.as_str()) else {
            continue;
        };
        if ia.scores.is_empty() || ib.scores.is_empty() {
            continue;
        }
        seen.insert(ia.id.as_str());
        for (&x, &y) in ia.scores.iter().zip(&ib.scores) {
            table[usize::from(x.min(4))][usize::from(y.min(4))] += 1;
        }
        let mean = |s: &[u8]| s.iter().map(|&v| f64::from(v)).sum::<f64>() / s.len() as f64 / 4.0;
        xs.push(mean(&ia.scores));
        ys.push(mean(&ib.scores));
    }
    if xs.is_empty() {
        return Err(format!(
            "{} and {} have no holistically judged {} item in common",
            models[0],
            models[1],
            a.task.name()
        ));
    }
    let pairs: usize = table.iter().flatten().sum();
    let same: usize = (0..5).map(|k| table[k][k]).sum();
    let diff = paired_bootstrap_mean_diff(&xs, &ys, resamples, seed, 0.95)
        .map_err(|e| format!("bootstrap of the SR difference: {e}"))?;
    let n = xs.len() as f64;
    Ok(MmoperaComparison {
        task: a.task,
        models: [models[0].to_string(), models[1].to_string()],
        items: xs.len(),
        pairs,
        table,
        exact_match: if pairs == 0 {
            0.0
        } else {
            same as f64 / pairs as f64
        },
        sr_a: xs.iter().sum::<f64>() / n,
        sr_b: ys.iter().sum::<f64>() / n,
        diff,
        only_a: a
            .items
            .iter()
            .filter(|i| !i.scores.is_empty() && !seen.contains(i.id.as_str()))
            .count(),
        only_b: b
            .items
            .iter()
            .filter(|i| !i.scores.is_empty() && !seen.contains(i.id.as_str()))
            .count(),
    })
}

/// Two models' names and rows on one task, and the bootstrap's resamples and seed: what
/// [`compare`] needs, as one value.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CompareArgs {
    /// The two models' names (A, B).
    pub models: [String; 2],
    /// A's scores on the task.
    pub a: MmoperaTaskRow,
    /// B's scores on the same task.
    pub b: MmoperaTaskRow,
    /// Bootstrap resamples.
    pub resamples: usize,
    /// Bootstrap seed.
    pub seed: u64,
}

impl CompareArgs {
    /// Runs [`compare`] on these arguments.
    ///
    /// # Errors
    /// As [`compare`].
    pub fn compare(&self) -> Result<MmoperaComparison, String> {
        compare(
            [self.models[0].as_str(), self.models[1].as_str()],
            &self.a,
            &self.b,
            self.resamples,
            self.seed,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Eleven items of one verdict each, y/4 = 1, .75, .5, .5, .5, .25, .5, .75, .25, .5, .5:
    /// R = 6/11 = 0.545454..., Σ(y − R)² = 0.477272..., SE = sqrt(11/10 · 0.477272) / 11 =
    /// 0.0658698943, so R(1 − R)/SE² = 57.14, kept at the 11 verdicts: Wilson's interval with
    /// n = 11 and t(0.975, 10) = 2.228138851986 (by hand in Python): [0.2532883429,
    /// 0.8093502342]. (R ± t SE would be [0.39869, 0.69222], R ± 1.96 SE [0.41635, 0.67456].)
    #[test]
    fn ratio_interval_uses_student_t_on_items_minus_one() {
        let y = [1.0, 0.75, 0.5, 0.5, 0.5, 0.25, 0.5, 0.75, 0.25, 0.5, 0.5];
        let pairs: Vec<(f64, f64)> = y.iter().map(|&v| (v, 1.0)).collect();
        let e = ratio_interval(&pairs);
        let (r, lo, hi) = (e.value, e.lower, e.upper);
        assert!((r - 6.0 / 11.0).abs() < 1e-15);
        assert!((e.se - 0.065_869_894_3).abs() < 1e-9, "{}", e.se);
        assert!((lo - 0.253_288_342_873_306_3).abs() < 1e-9, "{lo}");
        assert!((hi - 0.809_350_234_237_093_3).abs() < 1e-9, "{hi}");
    }
}
