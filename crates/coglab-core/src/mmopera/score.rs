//! Holistic and process-reward scores with every breakdown, per-item rows, several judges.
//!
//! Holistic (paper section 4.1, released `*_stat.py`): with N verdicts (entries of the judge
//! file; ICA: one per rotation), SR = Σscore / (4N), HR-3 = share of scores ≥ 3, HR-4 = share
//! of scores = 4, ΔHR = HR-3 − HR-4. A missing, non-integer or out-of-range score counts as 0
//! and stays in N (released RIA script), with a warning, but like the released script it is
//! left out of the score distribution and the breakdowns; [`InvalidScores::Exclude`] drops it
//! from N too (released ICA script).
//!
//! Process reward (section 4.2): per hop, R and D clamped to [0, 1], K rounded to 0/1,
//! s = min(1, α·R·D + (1−α)·K); a path scores S_r = Σ_{i=0}^{n−1} s_i·γ^i (released code;
//! [`DecayExponent::FromOne`] gives the paper's γ^1..γ^n, equation 2, = the code's value × γ).
//! ICA items average all their scored paths (2 paths × 4 rotations) and the mean S_r is over
//! items ([`IcaAverage::Items`], ours); [`IcaAverage::Paths`] averages over all scored paths
//! of all items instead (the released `ICA_stat.py`). Items with no valid hop are skipped and
//! listed.
//!
//! Several judge files: holistic verdicts are pooled (with every judge scoring every item this
//! is the mean over items of the per-item judge average; a warning says when coverage
//! differs); process scores are averaged per item over the judges that scored it. Each judge
//! is also reported alone in [`Report::per_judge`].

use std::collections::{BTreeMap, HashMap, HashSet};

use serde::{Deserialize, Serialize};

use super::files::{Answers, ReasoningScores, RegularScores, Verdict};
use super::length::{length_samples, LengthBias, LengthSamples};
use super::metadata::{ItemMeta, Metadata};
use super::{MmoperaError, Task, Warning};

/// Which power of γ the first hop gets.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum DecayExponent {
    /// S_r = Σ_{i=0}^{n−1} s_i·γ^i: the first hop is not decayed (released code, default).
    #[default]
    FromZero,
    /// S_r = Σ_{t=1}^{n} s_t·γ^t: every hop is decayed (the paper's equation 2).
    FromOne,
}

impl DecayExponent {
    /// The CLI / URL name: `code` (released code, γ^0..γ^(n−1)) or `paper` (equation 2).
    pub fn name(self) -> &'static str {
        match self {
            DecayExponent::FromZero => "code",
            DecayExponent::FromOne => "paper",
        }
    }

    /// The setting named `code` or `paper` ([`DecayExponent::name`]), if it is one.
    ///
    /// # Examples
    /// ```
    /// use coglab_core::mmopera::score::DecayExponent;
    /// assert_eq!(DecayExponent::from_name("paper"), Some(DecayExponent::FromOne));
    /// assert_eq!(DecayExponent::from_name("γ"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "code" => Some(DecayExponent::FromZero),
            "paper" => Some(DecayExponent::FromOne),
            _ => None,
        }
    }
}

/// How the mean S_r of a set of items is averaged when items have several paths (ICA: 2 paths
/// × 4 rotations; RIA items have one path, where both settings agree).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum IcaAverage {
    /// Each item's S_r is the mean of its scored paths (and of its judges); the mean S_r is the
    /// mean over items, so every item weighs the same (ours, default).
    #[default]
    Items,
    /// The mean S_r is the mean over all scored paths of all items (and judges), so an item with
    /// more scored paths weighs more (the released `evaluation/ICA/ICA_stat.py`, whose
    /// `avg_reasoning_score` is `total_reasoning_score / path_count`). The item rows still show
    /// each item's mean of paths.
    Paths,
}

impl IcaAverage {
    /// The CLI / URL name: `items` or `paths`.
    pub fn name(self) -> &'static str {
        match self {
            IcaAverage::Items => "items",
            IcaAverage::Paths => "paths",
        }
    }

    /// The setting named `items` or `paths`, if it is one.
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "items" => Some(IcaAverage::Items),
            "paths" => Some(IcaAverage::Paths),
            _ => None,
        }
    }
}

/// What to do with a holistic score that is missing, non-integer or outside 0-4.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum InvalidScores {
    /// Count it as 0 and keep it in N (released RIA script; default).
    CountAsZero,
    /// Leave it out of N (released ICA script).
    Exclude,
}

/// What to do with an item whose process judgement has a malformed hop (not three numbers).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum InvalidHops {
    /// Leave the hop out and score the item on its valid hops; skip it only when no hop is
    /// valid (default, as the issue specifies).
    DropHop,
    /// Skip the whole item (released RIA script; its valid hops still count in the R/D/K means
    /// there, and here).
    SkipItem,
}

/// How an item with several ability labels is counted in the L-1 / L-2 breakdowns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum LabelCounting {
    /// Once in every L-3 label it carries and once in every L-2 / L-1 group those labels
    /// belong to (default).
    PerItem,
    /// Once per L-3 label also in L-2 / L-1, so an item with Visual Similarity and Semantic
    /// Object counts twice in recognition (released RIA script).
    PerLabel,
}

/// Scoring options. [`Default`] follows the released code with α = γ = 0.9.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct ScoreOptions {
    /// α in s = α·R·D + (1−α)·K, in [0, 1].
    pub alpha: f64,
    /// Decay factor γ, in (0, 1].
    pub gamma: f64,
    /// γ^i from i = 0 (code) or i = 1 (paper).
    pub decay_exponent: DecayExponent,
    /// Mean S_r over items (ours) or over all paths (released ICA script).
    #[serde(default)]
    pub ica_average: IcaAverage,
    /// Invalid holistic scores: count as 0 (code, RIA) or exclude (code, ICA).
    pub invalid_scores: InvalidScores,
    /// Malformed hops: drop the hop (default) or skip the item (released RIA script).
    pub invalid_hops: InvalidHops,
    /// Label counting in the L-1 / L-2 breakdowns.
    pub label_counting: LabelCounting,
    /// Length bias: 1-point answers shorter than this many characters are left out
    /// (the paper excludes "short 1-point responses" without giving a length; 50 is our choice).
    pub min_answer_length: usize,
}

impl Default for ScoreOptions {
    fn default() -> Self {
        Self {
            alpha: 0.9,
            gamma: 0.9,
            decay_exponent: DecayExponent::FromZero,
            ica_average: IcaAverage::Items,
            invalid_scores: InvalidScores::CountAsZero,
            invalid_hops: InvalidHops::DropHop,
            label_counting: LabelCounting::PerItem,
            min_answer_length: 50,
        }
    }
}

impl ScoreOptions {
    /// Default options with the given α and γ.
    ///
    /// # Errors
    /// [`MmoperaError::BadOption`] when α is outside [0, 1] or γ outside (0, 1].
    ///
    /// # Examples
    /// ```
    /// use coglab_core::mmopera::score::ScoreOptions;
    /// assert!(ScoreOptions::new(0.5, 0.8).is_ok());
    /// assert!(ScoreOptions::new(1.5, 0.8).is_err());
    /// ```
    pub fn new(alpha: f64, gamma: f64) -> Result<Self, MmoperaError> {
        let options = Self {
            alpha,
            gamma,
            ..Self::default()
        };
        options.validate()?;
        Ok(options)
    }

    /// Checks α and γ.
    ///
    /// # Errors
    /// As [`ScoreOptions::new`].
    pub fn validate(&self) -> Result<(), MmoperaError> {
        if !(0.0..=1.0).contains(&self.alpha) {
            return Err(MmoperaError::BadOption {
                name: "alpha",
                value: self.alpha,
                expected: "a number in [0, 1]",
            });
        }
        if !(self.gamma > 0.0 && self.gamma <= 1.0) {
            return Err(MmoperaError::BadOption {
                name: "gamma",
                value: self.gamma,
                expected: "a number in (0, 1]",
            });
        }
        Ok(())
    }
}

/// R and D clamped to [0, 1] and K rounded to 0 or 1 (K < 0.5 → 0), as the released code.
///
/// # Examples
/// ```
/// use coglab_core::mmopera::score::normalize_hop;
/// assert_eq!(normalize_hop(1.2, -0.1, 0.5), (1.0, 0.0, 1.0));
/// ```
pub fn normalize_hop(r: f64, d: f64, k: f64) -> (f64, f64, f64) {
    (
        r.clamp(0.0, 1.0),
        d.clamp(0.0, 1.0),
        if k < 0.5 { 0.0 } else { 1.0 },
    )
}

/// One hop's quality s = min(1, α·R·D + (1−α)·K), after [`normalize_hop`].
///
/// # Examples
/// ```
/// use coglab_core::mmopera::score::hop_score;
/// // 0.9·0.8·0.5 + 0.1·1 = 0.36 + 0.1 = 0.46
/// assert!((hop_score(0.8, 0.5, 1.0, 0.9) - 0.46).abs() < 1e-12);
/// ```
pub fn hop_score(r: f64, d: f64, k: f64, alpha: f64) -> f64 {
    let (r, d, k) = normalize_hop(r, d, k);
    (alpha * r * d + (1.0 - alpha) * k).min(1.0)
}

/// A path's score S_r = Σ s_i·γ^(i+e), e = 0 ([`DecayExponent::FromZero`]) or 1.
///
/// # Examples
/// ```
/// use coglab_core::mmopera::score::{path_score, DecayExponent};
/// // 1 + 0.5·0.9 = 1.45 (code); 0.9 + 0.5·0.81 = 1.305 (paper)
/// assert!((path_score(&[1.0, 0.5], 0.9, DecayExponent::FromZero) - 1.45).abs() < 1e-12);
/// assert!((path_score(&[1.0, 0.5], 0.9, DecayExponent::FromOne) - 1.305).abs() < 1e-12);
/// ```
pub fn path_score(step_scores: &[f64], gamma: f64, exponent: DecayExponent) -> f64 {
    let mut weight = match exponent {
        DecayExponent::FromZero => 1.0,
        DecayExponent::FromOne => gamma,
    };
    let mut total = 0.0;
    for s in step_scores {
        total += s * weight;
        weight *= gamma;
    }
    total
}

/// Everything [`score`] reads.
#[derive(Debug, Clone)]
pub struct ScoreInput<'a> {
    /// RIA or ICA; every file must match.
    pub task: Task,
    /// The dataset metadata (for the breakdowns).
    pub metadata: &'a Metadata,
    /// Holistic judge files (one per judge; may be empty if `reasoning` is not).
    pub regular: Vec<&'a RegularScores>,
    /// Process-reward judge files (one per judge).
    pub reasoning: Vec<&'a ReasoningScores>,
    /// The model's answers (for the item rows and the length bias), if given.
    pub answers: Option<&'a Answers>,
}

/// A holistic breakdown group.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Group {
    /// Verdicts counted in the group (ICA: rotations; with [`LabelCounting::PerLabel`] an item
    /// can count more than once).
    pub n: usize,
    /// Distinct items in the group.
    pub items: usize,
    /// Σscore / (4n).
    pub score_rate: f64,
}

/// A process-reward breakdown group.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct ProcessGroup {
    /// Items counted in the group.
    pub n: usize,
    /// Mean S_r in the group: over items, or over their scored paths with
    /// [`IcaAverage::Paths`].
    pub mean_score: f64,
}

/// Breakdowns by every metadata dimension the paper reports. Only groups with at least one
/// scored item are listed. Items missing from the metadata are in none of them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Breakdowns<G> {
    /// By topic domain (ICA: a comma-separated domain list counts in each, as the released
    /// ICA script).
    pub domain: BTreeMap<String, G>,
    /// By culture.
    pub culture: BTreeMap<String, G>,
    /// By relationship type (Relation / Mutual Element / Metaphor).
    #[serde(rename = "type")]
    pub kind: BTreeMap<String, G>,
    /// By language.
    pub language: BTreeMap<String, G>,
    /// By reference hop count.
    pub hop_count: BTreeMap<String, G>,
    /// By L-1 level (Perception / Conception).
    pub l1: BTreeMap<String, G>,
    /// By L-2 dimension.
    pub l2: BTreeMap<String, G>,
    /// By L-3 label.
    pub l3: BTreeMap<String, G>,
}

impl<G> Default for Breakdowns<G> {
    fn default() -> Self {
        Self {
            domain: BTreeMap::new(),
            culture: BTreeMap::new(),
            kind: BTreeMap::new(),
            language: BTreeMap::new(),
            hop_count: BTreeMap::new(),
            l1: BTreeMap::new(),
            l2: BTreeMap::new(),
            l3: BTreeMap::new(),
        }
    }
}

/// Holistic (regular judge) metrics.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HolisticReport {
    /// The judge files pooled here.
    pub files: Vec<String>,
    /// N: verdicts counted (RIA: entries; ICA: rotations; summed over judges).
    pub n: usize,
    /// Distinct items.
    pub items: usize,
    /// SR = Σscore / (4N).
    pub score_rate: f64,
    /// HR-3: share of verdicts scoring ≥ 3.
    pub hr3: f64,
    /// HR-4: share of verdicts scoring 4.
    pub hr4: f64,
    /// ΔHR = HR-3 − HR-4.
    pub delta_hr: f64,
    /// Valid verdicts per score "0".."4" (as the released code, an invalid score is in none
    /// of them: `distribution` + `invalid` = N under [`InvalidScores::CountAsZero`]).
    pub distribution: BTreeMap<String, usize>,
    /// Verdicts whose score was missing, non-integer or outside 0-4.
    pub invalid: usize,
    /// SR by metadata dimension, over valid verdicts (as the released code).
    pub by: Breakdowns<Group>,
    /// Judged ids not found in the metadata (in SR, in no breakdown).
    pub missing_metadata: Vec<String>,
    /// Length bias, when answers were given.
    pub length_bias: Option<LengthBias>,
    /// The pairs `length_bias` was computed from, to compute it under another short-answer
    /// threshold ([`LengthSamples::bias`]). Kept in memory only (one entry per answer): not
    /// serialized, so the CLI's JSON and a row sent to the page do not carry them.
    #[serde(skip)]
    pub length_samples: Option<LengthSamples>,
    /// The paper's §5.4 multi-image substitution test: score variability within groups of
    /// concept-identical variants, when the metadata marks them.
    #[serde(default)]
    pub substitution: Substitution,
    /// Problems in the judge files.
    pub warnings: Vec<Warning>,
}

/// Within-group score variability over groups of concept-identical multi-image variants
/// (the MM-OPERA paper's §5.4 multi-image substitution test), from the metadata's
/// `variant_group` ([`ItemMeta::variant_group`]). Each judged item's score rate is its valid
/// verdicts' Σscore / (4n); a group counts when at least two of its items are judged.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Substitution {
    /// Groups with at least two judged items.
    pub groups: usize,
    /// Judged items in those groups.
    pub items: usize,
    /// Mean over groups of the sample SD (n − 1) of the items' score rates.
    pub mean_sd: Option<f64>,
    /// Mean over groups of the range (max − min) of the items' score rates.
    pub mean_range: Option<f64>,
    /// Why there is no figure (the metadata has no grouping, or no group has two judged items).
    pub note: Option<String>,
}

fn substitution(input: &ScoreInput<'_>, per_item: &HashMap<&str, (usize, f64)>) -> Substitution {
    let mut groups: BTreeMap<&str, Vec<f64>> = BTreeMap::new();
    let mut any_group = false;
    for (id, (n, sum)) in per_item {
        let Some(g) = input
            .metadata
            .get(id)
            .and_then(|m| m.variant_group.as_deref())
        else {
            continue;
        };
        any_group = true;
        if *n > 0 {
            groups.entry(g).or_default().push(sum / (4.0 * *n as f64));
        }
    }
    if !any_group {
        return Substitution {
            note: Some(
                "the metadata marks no groups of concept-identical variants (no variant_group, concept_group or group field), so the paper's multi-image substitution test cannot be computed".into(),
            ),
            ..Substitution::default()
        };
    }
    let (mut sds, mut ranges, mut items) = (Vec::new(), Vec::new(), 0);
    for rates in groups.values().filter(|r| r.len() >= 2) {
        items += rates.len();
        if let Ok(sd) = crate::stats::describe::std_dev(rates, 1) {
            sds.push(sd);
        }
        let max = rates.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let min = rates.iter().copied().fold(f64::INFINITY, f64::min);
        ranges.push(max - min);
    }
    let mean = |v: &[f64]| crate::stats::describe::mean(v).ok();
    Substitution {
        groups: ranges.len(),
        items,
        mean_sd: mean(&sds),
        mean_range: mean(&ranges),
        note: ranges
            .is_empty()
            .then(|| "no group of concept-identical variants has two judged items".into()),
    }
}

/// Counts for the process-reward distributions.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ProcessDistribution {
    /// Item S_r in bins "0-1", "1-2", ">=2".
    pub score: BTreeMap<String, usize>,
    /// Hop R (after clamping) in bins of 0.2: "0-0.2", ..., "0.8-1" (1 included in the last).
    pub r: BTreeMap<String, usize>,
    /// Hop D, as `r`.
    pub d: BTreeMap<String, usize>,
    /// Hop K (after rounding): "0", "1".
    pub k: BTreeMap<String, usize>,
    /// Valid hops per path (a judged path with no valid hop counts under 0).
    pub hops: BTreeMap<usize, usize>,
    /// The paper's §5.3 "share scoring above 75%" of R, D and K (issue 23).
    #[serde(default)]
    pub above: AboveShares,
}

/// Shares above 0.75 (strictly) of R, D and K, the figures the paper's §5.3 quotes from its
/// Figure 3 ("50%-80% of RIA responses scoring above 75%" on reasonableness, "less than half"
/// on distinctiveness). Per path: the mean of the path's valid hops (clamped R, D; rounded K),
/// as the released `ICA_stat.py` bins its path means; per hop: every valid hop. 0 without a
/// path / hop.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct AboveShares {
    /// Paths with at least one valid hop.
    pub paths: usize,
    /// Share of those paths whose mean R is above 0.75.
    pub path_r: f64,
    /// Share of those paths whose mean D is above 0.75.
    pub path_d: f64,
    /// Share of those paths whose mean K is above 0.75.
    pub path_k: f64,
    /// Share of valid hops with R above 0.75.
    pub hop_r: f64,
    /// Share of valid hops with D above 0.75.
    pub hop_d: f64,
}

/// An item a judge file could not give a process score.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Skipped {
    /// The judge file.
    pub file: String,
    /// The item.
    pub id: String,
    /// Why.
    pub reason: String,
}

/// Process-reward (reasoning judge) metrics.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReasoningReport {
    /// The judge files averaged here.
    pub files: Vec<String>,
    /// Items with a score.
    pub n: usize,
    /// α used.
    pub alpha: f64,
    /// γ used.
    pub gamma: f64,
    /// Exponent convention used.
    pub decay_exponent: DecayExponent,
    /// How the mean S_r was averaged (over items or over paths).
    #[serde(default)]
    pub ica_average: IcaAverage,
    /// Mean S_r: over items ([`IcaAverage::Items`]) or over all scored paths
    /// ([`IcaAverage::Paths`]).
    pub mean_score: f64,
    /// Scored paths in `mean_score` (paths with at least one valid hop, of items with an S_r).
    #[serde(default)]
    pub scored_paths: usize,
    /// Mean R over all valid hops (after clamping).
    pub mean_r: f64,
    /// Mean D over all valid hops (after clamping).
    pub mean_d: f64,
    /// Mean K over all valid hops (after rounding).
    pub mean_k: f64,
    /// Valid hops.
    pub hops: usize,
    /// Judged paths (with or without valid hops).
    pub paths: usize,
    /// Distributions.
    pub distribution: ProcessDistribution,
    /// Mean S_r by metadata dimension.
    pub by: Breakdowns<ProcessGroup>,
    /// Items left out, per judge file.
    pub skipped: Vec<Skipped>,
    /// Judged ids not found in the metadata.
    pub missing_metadata: Vec<String>,
    /// Length bias of the process judge, when answers were given: Pearson r between the
    /// answer's length and its rotation's S_r (the mean of the rotation's scored paths), every
    /// judge pooled; the answers the holistic length bias leaves out (1-point verdicts shorter
    /// than the threshold, from any holistic judge given) are left out here too (the paper's
    /// §5.5: 0.291 for the PR-judge, 0.376 for the regular judge).
    #[serde(default)]
    pub length_bias: Option<LengthBias>,
    /// The pairs `length_bias` was computed from (in memory only, as
    /// [`HolisticReport::length_samples`]).
    #[serde(skip)]
    pub length_samples: Option<LengthSamples>,
    /// Problems in the judge files.
    pub warnings: Vec<Warning>,
}

/// Each judge alone, when several were given.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PerJudge {
    /// One report per holistic judge file.
    pub holistic: Vec<HolisticReport>,
    /// One report per process-reward judge file.
    pub reasoning: Vec<ReasoningReport>,
}

impl PerJudge {
    /// Whether there is nothing (a single judge of each kind).
    pub fn is_empty(&self) -> bool {
        self.holistic.is_empty() && self.reasoning.is_empty()
    }
}

/// One hop in an item view, with normalized R, D, K and its step score s.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HopRow {
    /// The hop label.
    pub name: String,
    /// R after clamping.
    pub r: f64,
    /// D after clamping.
    pub d: f64,
    /// K after rounding.
    pub k: f64,
    /// s = min(1, α·R·D + (1−α)·K).
    pub s: f64,
}

/// One path in an item view.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PathRow {
    /// `hop_quality`, `hop_quality_path1`, ...
    pub key: String,
    /// The judge's path text.
    pub path: Option<String>,
    /// The valid hops.
    pub hops: Vec<HopRow>,
    /// Hops left out as invalid.
    pub invalid_hops: usize,
    /// The path's S_r (`None` without a valid hop).
    pub score: Option<f64>,
}

/// One rotation's process judgement in an item view.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RotationRow {
    /// The paths.
    pub paths: Vec<PathRow>,
    /// The judge's explanation.
    pub explanation: Option<String>,
    /// Why there is no path, if so.
    pub error: Option<String>,
}

/// One judge's process judgement of one item.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JudgeProcess {
    /// The judge file.
    pub file: String,
    /// One per rotation (`None`: no judgement object).
    pub rotations: Vec<Option<RotationRow>>,
    /// The item's S_r from this judge: the mean of its scored paths.
    pub s_r: Option<f64>,
}

/// One judge's holistic verdicts on one item.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct JudgeVerdicts {
    /// The judge file.
    pub file: String,
    /// One per rotation.
    pub verdicts: Vec<Verdict>,
}

/// Everything about one item, for the review UI and item views.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ItemRow {
    /// Item id.
    pub id: String,
    /// Its metadata, if found.
    pub meta: Option<ItemMeta>,
    /// The model's answers (one per rotation), if an answers file was given.
    pub answers: Vec<Option<String>>,
    /// Holistic verdicts, per judge.
    pub holistic: Vec<JudgeVerdicts>,
    /// Mean counted holistic score over all verdicts (0-4).
    pub mean_score: Option<f64>,
    /// Process judgements, per judge.
    pub process: Vec<JudgeProcess>,
    /// S_r averaged over the judges that scored the item.
    pub s_r: Option<f64>,
}

/// The full MM-OPERA report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// Always `mmopera`.
    pub benchmark: String,
    /// RIA or ICA.
    pub task: Task,
    /// Holistic metrics (all holistic judges pooled), if a regular-scoring file was given.
    pub holistic: Option<HolisticReport>,
    /// Process metrics (judges averaged per item), if a reasoning-scoring file was given.
    pub reasoning: Option<ReasoningReport>,
    /// Each judge alone, when several were given.
    #[serde(default, skip_serializing_if = "PerJudge::is_empty")]
    pub per_judge: PerJudge,
    /// Problems in the metadata (e.g. unknown ability labels).
    pub metadata_warnings: Vec<Warning>,
    /// Problems in the model's answers file (entries of the wrong type, read as missing);
    /// they used to be dropped without a count (issue 27, defect 9).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub answers_warnings: Vec<Warning>,
    /// Per-item rows (judged items, in file order).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub items: Vec<ItemRow>,
}

/// Scores an MM-OPERA result set.
///
/// # Errors
/// [`MmoperaError::BadOption`] for α / γ out of range, [`MmoperaError::TaskMismatch`] when a
/// file belongs to the other task, [`MmoperaError::NothingToScore`] when no judge file is
/// given or nothing in one can be scored.
///
/// # Examples
/// See the [module example](super).
pub fn score(input: &ScoreInput<'_>, options: &ScoreOptions) -> Result<Report, MmoperaError> {
    options.validate()?;
    if input.regular.is_empty() && input.reasoning.is_empty() {
        return Err(MmoperaError::NothingToScore {
            what: "score mmopera (no regular or reasoning judge file)".into(),
        });
    }
    for f in &input.regular {
        check_task(&f.file, input.task, f.task)?;
    }
    for f in &input.reasoning {
        check_task(&f.file, input.task, f.task)?;
    }
    if let Some(a) = input.answers {
        check_task(&a.file, input.task, a.task)?;
    }
    let holistic = if input.regular.is_empty() {
        None
    } else {
        Some(holistic_report(input, &input.regular, options)?)
    };
    let processed: Vec<ProcessedFile> = input
        .reasoning
        .iter()
        .map(|f| process_file(f, options))
        .collect();
    let reasoning = if processed.is_empty() {
        None
    } else {
        Some(reasoning_report(input, &processed, options)?)
    };
    let mut per_judge = PerJudge::default();
    if input.regular.len() > 1 {
        for f in &input.regular {
            per_judge
                .holistic
                .push(holistic_report(input, &[*f], options)?);
        }
    }
    if processed.len() > 1 {
        for p in &processed {
            per_judge
                .reasoning
                .push(reasoning_report(input, std::slice::from_ref(p), options)?);
        }
    }
    let items = item_rows(input, &processed, options);
    Ok(Report {
        benchmark: "mmopera".into(),
        task: input.task,
        holistic,
        reasoning,
        per_judge,
        metadata_warnings: input.metadata.warnings.clone(),
        answers_warnings: input
            .answers
            .map(|a| a.warnings.clone())
            .unwrap_or_default(),
        items,
    })
}

fn check_task(file: &str, expected: Task, found: Task) -> Result<(), MmoperaError> {
    if expected == found {
        return Ok(());
    }
    let why = match found {
        Task::Ica => "its entries are lists, one per rotation",
        Task::Ria => "its entries are single values, not lists of rotations",
    };
    Err(MmoperaError::TaskMismatch {
        file: file.to_owned(),
        expected,
        found,
        why: why.into(),
    })
}

// ---------------------------------------------------------------------------------------------
// Group membership

/// The breakdown groups an item belongs to, with multiplicities.
#[derive(Default)]
struct Membership {
    dims: [Vec<(String, usize)>; 8],
}

fn membership(task: Task, meta: &ItemMeta, counting: LabelCounting) -> Membership {
    let one = |s: &str| vec![(s.to_owned(), 1)];
    let domain = match task {
        Task::Ria => one(&meta.domain),
        Task::Ica => {
            let mut parts: Vec<String> = meta
                .domain
                .split(',')
                .map(|d| d.trim().to_owned())
                .filter(|d| !d.is_empty())
                .collect();
            parts.dedup();
            if parts.is_empty() {
                one(&meta.domain)
            } else {
                parts.into_iter().map(|p| (p, 1)).collect()
            }
        }
    };
    let count = |names: Vec<&'static str>| -> Vec<(String, usize)> {
        let mut out: Vec<(String, usize)> = Vec::new();
        for name in names {
            match out.iter_mut().find(|(k, _)| k == name) {
                Some((_, m)) => {
                    if counting == LabelCounting::PerLabel {
                        *m += 1;
                    }
                }
                None => out.push((name.to_owned(), 1)),
            }
        }
        out
    };
    let l3 = meta.l3.iter().map(|l| (l.name().to_owned(), 1)).collect();
    let l2 = count(meta.l3.iter().map(|l| l.l2().name()).collect());
    let l1 = count(meta.l3.iter().map(|l| l.l2().l1().name()).collect());
    Membership {
        dims: [
            domain,
            one(&meta.culture),
            one(&meta.kind),
            one(&meta.language),
            one(&meta.hop_count),
            l1,
            l2,
            l3,
        ],
    }
}

/// Per-group accumulator: weighted count, distinct items, weighted sum.
#[derive(Default, Clone, Copy)]
struct Acc {
    n: usize,
    items: usize,
    sum: f64,
}

fn accumulate(accs: &mut [BTreeMap<String, Acc>; 8], m: &Membership, n: usize, sum: f64) {
    for (dim, groups) in accs.iter_mut().zip(&m.dims) {
        for (key, mult) in groups {
            let acc = dim.entry(key.clone()).or_default();
            acc.n += mult * n;
            acc.items += 1;
            acc.sum += *mult as f64 * sum;
        }
    }
}

fn into_breakdowns<G>(accs: [BTreeMap<String, Acc>; 8], f: impl Fn(Acc) -> G) -> Breakdowns<G> {
    let [domain, culture, kind, language, hop_count, l1, l2, l3] =
        accs.map(|m| m.into_iter().map(|(k, a)| (k, f(a))).collect());
    Breakdowns {
        domain,
        culture,
        kind,
        language,
        hop_count,
        l1,
        l2,
        l3,
    }
}

// ---------------------------------------------------------------------------------------------
// Holistic

fn holistic_report(
    input: &ScoreInput<'_>,
    files: &[&RegularScores],
    options: &ScoreOptions,
) -> Result<HolisticReport, MmoperaError> {
    let mut order: Vec<&str> = Vec::new();
    let mut per_item: HashMap<&str, (usize, f64)> = HashMap::new();
    let mut dist = [0usize; 5];
    let (mut n, mut invalid, mut total) = (0usize, 0usize, 0.0f64);
    let mut warnings = Vec::new();
    for file in files {
        warnings.extend(file.warnings.iter().cloned());
        for entry in &file.entries {
            let acc = per_item.entry(entry.id.as_str()).or_insert_with(|| {
                order.push(entry.id.as_str());
                (0, 0.0)
            });
            for v in &entry.verdicts {
                let Some(s) = v.score else {
                    // Released code: in N with 0 points, out of the distribution and the
                    // breakdowns.
                    invalid += 1;
                    if options.invalid_scores == InvalidScores::CountAsZero {
                        n += 1;
                    }
                    continue;
                };
                n += 1;
                total += f64::from(s);
                dist[usize::from(s)] += 1;
                acc.0 += 1;
                acc.1 += f64::from(s);
            }
        }
    }
    let names: Vec<String> = files.iter().map(|f| f.file.clone()).collect();
    if n == 0 {
        return Err(MmoperaError::NothingToScore {
            what: format!("holistic score of {}", names.join(", ")),
        });
    }
    if files.len() > 1 {
        let partial = order
            .iter()
            .filter(|id| files.iter().any(|f| f.get(id).is_none()))
            .count();
        if partial > 0 {
            warnings.push(Warning {
                file: names.join(", "),
                id: None,
                field: None,
                message: format!(
                    "{partial} item(s) are scored by only some judges; the pooled SR weights items by their number of verdicts"
                ),
            });
        }
    }
    let mut accs: [BTreeMap<String, Acc>; 8] = Default::default();
    let mut missing = Vec::new();
    for id in &order {
        let (item_n, item_sum) = per_item[id];
        match input.metadata.get(id) {
            Some(meta) => {
                if item_n > 0 {
                    let m = membership(input.task, meta, options.label_counting);
                    accumulate(&mut accs, &m, item_n, item_sum);
                }
            }
            None => missing.push((*id).to_owned()),
        }
    }
    let nf = n as f64;
    let hr3 = (dist[3] + dist[4]) as f64 / nf;
    let hr4 = dist[4] as f64 / nf;
    let length_samples = input.answers.map(|a| length_samples(a, files));
    let length_bias = length_samples
        .as_ref()
        .map(|s| s.bias(options.min_answer_length));
    let substitution = substitution(input, &per_item);
    Ok(HolisticReport {
        files: names,
        n,
        items: order.len(),
        score_rate: total / (4.0 * nf),
        hr3,
        hr4,
        delta_hr: hr3 - hr4,
        distribution: (0..5).map(|s| (s.to_string(), dist[s])).collect(),
        invalid,
        by: into_breakdowns(accs, |a| Group {
            n: a.n,
            items: a.items,
            score_rate: a.sum / (4.0 * a.n as f64),
        }),
        missing_metadata: missing,
        length_bias,
        length_samples,
        substitution,
        warnings,
    })
}

// ---------------------------------------------------------------------------------------------
// Process reward

/// One reasoning file scored item by item.
struct ProcessedFile {
    file: String,
    items: Vec<(String, JudgeProcess)>,
    skipped: Vec<Skipped>,
    warnings: Vec<Warning>,
}

fn process_file(file: &ReasoningScores, options: &ScoreOptions) -> ProcessedFile {
    let mut items = Vec::with_capacity(file.entries.len());
    let mut skipped = Vec::new();
    for entry in &file.entries {
        let mut path_scores = Vec::new();
        let mut errors = Vec::new();
        let rotations: Vec<Option<RotationRow>> = entry
            .rotations
            .iter()
            .map(|rotation| {
                let j = rotation.as_ref()?;
                if let Some(e) = &j.error {
                    errors.push(e.clone());
                }
                let paths = j
                    .paths
                    .iter()
                    .map(|p| {
                        let hops: Vec<HopRow> = p
                            .hops
                            .iter()
                            .map(|h| {
                                let (r, d, k) = normalize_hop(h.r, h.d, h.k);
                                HopRow {
                                    name: h.name.clone(),
                                    r,
                                    d,
                                    k,
                                    s: hop_score(h.r, h.d, h.k, options.alpha),
                                }
                            })
                            .collect();
                        let score = (!hops.is_empty()).then(|| {
                            let steps: Vec<f64> = hops.iter().map(|h| h.s).collect();
                            path_score(&steps, options.gamma, options.decay_exponent)
                        });
                        path_scores.extend(score);
                        PathRow {
                            key: p.key.clone(),
                            path: p.path.clone(),
                            hops,
                            invalid_hops: p.invalid_hops,
                            score,
                        }
                    })
                    .collect();
                Some(RotationRow {
                    paths,
                    explanation: j.explanation.clone(),
                    error: j.error.clone(),
                })
            })
            .collect();
        let bad_hops: usize = entry
            .rotations
            .iter()
            .flatten()
            .flat_map(|j| &j.paths)
            .map(|p| p.invalid_hops)
            .sum();
        let skip_for_bad_hop = bad_hops > 0 && options.invalid_hops == InvalidHops::SkipItem;
        let s_r = (!path_scores.is_empty() && !skip_for_bad_hop)
            .then(|| path_scores.iter().sum::<f64>() / path_scores.len() as f64);
        if s_r.is_none() {
            let reason = if skip_for_bad_hop {
                format!("{bad_hops} malformed hop(s); item skipped as the released code does")
            } else if errors.is_empty() {
                "no valid hop".to_owned()
            } else {
                format!("no valid hop ({})", errors.join("; "))
            };
            skipped.push(Skipped {
                file: file.file.clone(),
                id: entry.id.clone(),
                reason,
            });
        }
        items.push((
            entry.id.clone(),
            JudgeProcess {
                file: file.file.clone(),
                rotations,
                s_r,
            },
        ));
    }
    ProcessedFile {
        file: file.file.clone(),
        items,
        skipped,
        warnings: file.warnings.clone(),
    }
}

/// Each item's process score S_r from one judge file (the mean of its scored paths; `None`
/// when no path has a valid hop), in file order.
///
/// # Examples
/// ```
/// use coglab_core::mmopera::files::ReasoningScores;
/// use coglab_core::mmopera::score::{process_item_scores, ScoreOptions};
/// let r = ReasoningScores::parse("r.json", br#"{"q1": {"hop_quality": {"a": [1, 1, 1]}}}"#).unwrap();
/// assert_eq!(process_item_scores(&r, &ScoreOptions::default()), vec![("q1".to_string(), Some(1.0))]);
/// ```
pub fn process_item_scores(
    file: &ReasoningScores,
    options: &ScoreOptions,
) -> Vec<(String, Option<f64>)> {
    process_file(file, options)
        .items
        .into_iter()
        .map(|(id, jp)| (id, jp.s_r))
        .collect()
}

/// The 0.2-wide bin of a value in [0, 1] ("0.8-1" includes 1).
fn fifth_bin(x: f64) -> &'static str {
    match x {
        x if x < 0.2 => "0-0.2",
        x if x < 0.4 => "0.2-0.4",
        x if x < 0.6 => "0.4-0.6",
        x if x < 0.8 => "0.6-0.8",
        _ => "0.8-1",
    }
}

fn reasoning_report(
    input: &ScoreInput<'_>,
    files: &[ProcessedFile],
    options: &ScoreOptions,
) -> Result<ReasoningReport, MmoperaError> {
    let mut order: Vec<&str> = Vec::new();
    // Per item: the judges' S_r, and the sum and count of the scored paths of those judges.
    let mut per_item: HashMap<&str, (Vec<f64>, f64, usize)> = HashMap::new();
    let mut dist = ProcessDistribution::default();
    for bins in [&mut dist.r, &mut dist.d] {
        for b in ["0-0.2", "0.2-0.4", "0.4-0.6", "0.6-0.8", "0.8-1"] {
            bins.insert(b.to_owned(), 0);
        }
    }
    for b in ["0", "1"] {
        dist.k.insert(b.to_owned(), 0);
    }
    for b in ["0-1", "1-2", ">=2"] {
        dist.score.insert(b.to_owned(), 0);
    }
    let (mut hops, mut paths) = (0usize, 0usize);
    let (mut sum_r, mut sum_d, mut sum_k) = (0.0, 0.0, 0.0);
    // Counts above 0.75: paths with a hop, and their path-mean R, D, K; hops' R, D.
    let (mut a_paths, mut a_pr, mut a_pd, mut a_pk, mut a_hr, mut a_hd) = (0usize, 0, 0, 0, 0, 0);
    let mut skipped = Vec::new();
    let mut warnings = Vec::new();
    for file in files {
        skipped.extend(file.skipped.iter().cloned());
        warnings.extend(file.warnings.iter().cloned());
        for (id, jp) in &file.items {
            let scores = per_item.entry(id.as_str()).or_insert_with(|| {
                order.push(id.as_str());
                (Vec::new(), 0.0, 0)
            });
            scores.0.extend(jp.s_r);
            if jp.s_r.is_some() {
                for path in jp.rotations.iter().flatten().flat_map(|r| &r.paths) {
                    if let Some(p) = path.score {
                        scores.1 += p;
                        scores.2 += 1;
                    }
                }
            }
            for path in jp.rotations.iter().flatten().flat_map(|r| &r.paths) {
                paths += 1;
                *dist.hops.entry(path.hops.len()).or_default() += 1;
                if !path.hops.is_empty() {
                    let k = path.hops.len() as f64;
                    let mean = |f: fn(&HopRow) -> f64| path.hops.iter().map(f).sum::<f64>() / k;
                    a_paths += 1;
                    a_pr += usize::from(mean(|h| h.r) > 0.75);
                    a_pd += usize::from(mean(|h| h.d) > 0.75);
                    a_pk += usize::from(mean(|h| h.k) > 0.75);
                }
                for h in &path.hops {
                    a_hr += usize::from(h.r > 0.75);
                    a_hd += usize::from(h.d > 0.75);
                    hops += 1;
                    sum_r += h.r;
                    sum_d += h.d;
                    sum_k += h.k;
                    *dist.r.entry(fifth_bin(h.r).to_owned()).or_default() += 1;
                    *dist.d.entry(fifth_bin(h.d).to_owned()).or_default() += 1;
                    let k = if h.k == 0.0 { "0" } else { "1" };
                    *dist.k.entry(k.to_owned()).or_default() += 1;
                }
            }
        }
    }
    let names: Vec<String> = files.iter().map(|f| f.file.clone()).collect();
    let mut accs: [BTreeMap<String, Acc>; 8] = Default::default();
    let mut missing = Vec::new();
    let (mut n, mut total) = (0usize, 0.0);
    let (mut path_n, mut path_total) = (0usize, 0.0);
    let by_paths = options.ica_average == IcaAverage::Paths;
    for id in &order {
        let (scores, item_path_sum, item_paths) = &per_item[id];
        let meta = input.metadata.get(id);
        if meta.is_none() {
            missing.push((*id).to_owned());
        }
        if scores.is_empty() {
            continue;
        }
        let s = scores.iter().sum::<f64>() / scores.len() as f64;
        n += 1;
        total += s;
        path_n += item_paths;
        path_total += item_path_sum;
        let bin = match s {
            s if s < 1.0 => "0-1",
            s if s < 2.0 => "1-2",
            _ => ">=2",
        };
        *dist.score.entry(bin.to_owned()).or_default() += 1;
        if let Some(meta) = meta {
            let m = membership(input.task, meta, options.label_counting);
            if by_paths {
                accumulate(&mut accs, &m, *item_paths, *item_path_sum);
            } else {
                accumulate(&mut accs, &m, 1, s);
            }
        }
    }
    if n == 0 {
        return Err(MmoperaError::NothingToScore {
            what: format!(
                "process-reward score of {} (no item has a valid hop)",
                names.join(", ")
            ),
        });
    }
    let hf = hops as f64;
    let share = |k: usize, n: usize| if n == 0 { 0.0 } else { k as f64 / n as f64 };
    dist.above = AboveShares {
        paths: a_paths,
        path_r: share(a_pr, a_paths),
        path_d: share(a_pd, a_paths),
        path_k: share(a_pk, a_paths),
        hop_r: share(a_hr, hops),
        hop_d: share(a_hd, hops),
    };
    let length_samples = input
        .answers
        .map(|a| process_length_samples(a, &input.regular, files));
    let length_bias = length_samples
        .as_ref()
        .map(|s| s.bias(options.min_answer_length));
    Ok(ReasoningReport {
        files: names,
        n,
        alpha: options.alpha,
        gamma: options.gamma,
        decay_exponent: options.decay_exponent,
        ica_average: options.ica_average,
        mean_score: if by_paths && path_n > 0 {
            path_total / path_n as f64
        } else {
            total / n as f64
        },
        scored_paths: path_n,
        mean_r: sum_r / hf,
        mean_d: sum_d / hf,
        mean_k: sum_k / hf,
        hops,
        paths,
        distribution: dist,
        by: into_breakdowns(accs, |a| ProcessGroup {
            // Over paths, `a.n` counts paths; the group still reports its items.
            n: if by_paths { a.items } else { a.n },
            mean_score: a.sum / a.n as f64,
        }),
        skipped,
        missing_metadata: missing,
        length_bias,
        length_samples,
        warnings,
    })
}

/// The process judge's (length, S_r) pairs (see [`ReasoningReport::length_bias`]): one per
/// rotation with an answer text and a scored path, its S_r the mean over the rotation's scored
/// paths; 1-point marks where any holistic judge gave that rotation 1 point.
fn process_length_samples(
    answers: &Answers,
    regular: &[&RegularScores],
    files: &[ProcessedFile],
) -> LengthSamples {
    let mut samples = LengthSamples {
        score_name: "S_r".into(),
        ..LengthSamples::default()
    };
    for file in files {
        for (id, jp) in &file.items {
            if jp.s_r.is_none() {
                continue;
            }
            let Some(texts) = answers.get(id) else {
                continue;
            };
            for (rot, (rotation, text)) in jp.rotations.iter().zip(&texts.texts).enumerate() {
                let (Some(rotation), Some(text)) = (rotation, text) else {
                    continue;
                };
                let scored: Vec<f64> = rotation.paths.iter().filter_map(|p| p.score).collect();
                if scored.is_empty() {
                    continue;
                }
                let one_point = regular.iter().any(|r| {
                    r.get(id)
                        .and_then(|e| e.verdicts.get(rot))
                        .is_some_and(|v| v.score == Some(1))
                });
                samples.push(
                    text.chars().count(),
                    scored.iter().sum::<f64>() / scored.len() as f64,
                    one_point,
                );
            }
        }
    }
    samples
}

// ---------------------------------------------------------------------------------------------
// Item rows

fn item_rows(
    input: &ScoreInput<'_>,
    processed: &[ProcessedFile],
    options: &ScoreOptions,
) -> Vec<ItemRow> {
    let mut order: Vec<String> = Vec::new();
    let mut seen: HashSet<String> = HashSet::new();
    let mut add = |id: &str| {
        if seen.insert(id.to_owned()) {
            order.push(id.to_owned());
        }
    };
    for f in &input.regular {
        f.entries.iter().for_each(|e| add(&e.id));
    }
    for p in processed {
        p.items.iter().for_each(|(id, _)| add(id));
    }
    if let Some(a) = input.answers {
        a.entries.iter().for_each(|e| add(&e.id));
    }
    let process_index: Vec<HashMap<&str, &JudgeProcess>> = processed
        .iter()
        .map(|p| p.items.iter().map(|(id, jp)| (id.as_str(), jp)).collect())
        .collect();
    order
        .into_iter()
        .map(|id| {
            let holistic: Vec<JudgeVerdicts> = input
                .regular
                .iter()
                .filter_map(|f| {
                    f.get(&id).map(|e| JudgeVerdicts {
                        file: f.file.clone(),
                        verdicts: e.verdicts.clone(),
                    })
                })
                .collect();
            let counted: Vec<f64> = holistic
                .iter()
                .flat_map(|j| &j.verdicts)
                .filter(|v| {
                    v.score.is_some() || options.invalid_scores == InvalidScores::CountAsZero
                })
                .map(|v| f64::from(v.counted()))
                .collect();
            let mean_score =
                (!counted.is_empty()).then(|| counted.iter().sum::<f64>() / counted.len() as f64);
            let process: Vec<JudgeProcess> = process_index
                .iter()
                .filter_map(|m| m.get(id.as_str()).map(|jp| (*jp).clone()))
                .collect();
            let scored: Vec<f64> = process.iter().filter_map(|p| p.s_r).collect();
            let s_r =
                (!scored.is_empty()).then(|| scored.iter().sum::<f64>() / scored.len() as f64);
            ItemRow {
                meta: input.metadata.get(&id).cloned(),
                answers: input
                    .answers
                    .and_then(|a| a.get(&id))
                    .map(|e| e.texts.clone())
                    .unwrap_or_default(),
                holistic,
                mean_score,
                process,
                s_r,
                id,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;

    fn meta() -> Metadata {
        Metadata::parse(
            "meta.json",
            br#"[
              {"id": "a", "domain": "Art", "type": "Relation", "culture": "Global", "language": "English",
               "hop_count": 2, "perception": ["Visual Similarity", "Semantic Object"], "conception": []},
              {"id": "b", "domain": "Art", "type": "Metaphor", "culture": "Global", "language": "English",
               "hop_count": 1, "perception": ["Visual Similarity"], "conception": ["Thematic Links"]},
              {"id": "c", "domain": "Sports", "type": "Relation", "culture": "Chinese", "language": "Chinese",
               "hop_count": 2, "perception": [], "conception": ["Causal Connections"]}
            ]"#,
        )
        .unwrap()
    }

    fn run(
        task: Task,
        meta: &Metadata,
        regular: &[&RegularScores],
        reasoning: &[&ReasoningScores],
        options: &ScoreOptions,
    ) -> Report {
        score(
            &ScoreInput {
                task,
                metadata: meta,
                regular: regular.to_vec(),
                reasoning: reasoning.to_vec(),
                answers: None,
            },
            options,
        )
        .unwrap()
    }

    #[test]
    fn holistic_by_hand() {
        // Scores a=4, b=1, c=3, d="x" (invalid, no metadata).
        let reg = RegularScores::parse(
            "j.json",
            br#"{"a": {"score_judge": "4"}, "b": {"score_judge": "1"}, "c": {"score_judge": "3"},
                 "d": {"score_judge": "x"}}"#,
        )
        .unwrap();
        let m = meta();
        let h = run(Task::Ria, &m, &[&reg], &[], &ScoreOptions::default())
            .holistic
            .unwrap();
        // Released code: N = 4 entries, d counts 0. SR = (4+1+3+0)/(4·4) = 8/16 = 0.5.
        assert_eq!(h.n, 4);
        assert_relative_eq!(h.score_rate, 0.5);
        // HR-3 = #{4, 3}/4 = 0.5; HR-4 = 1/4; ΔHR = 0.25.
        assert_relative_eq!(h.hr3, 0.5);
        assert_relative_eq!(h.hr4, 0.25);
        assert_relative_eq!(h.delta_hr, 0.25);
        assert_eq!(h.invalid, 1);
        // The invalid verdict is in N but in no distribution bin (released code).
        let dist: Vec<usize> = h.distribution.values().copied().collect();
        assert_eq!(dist, [0, 1, 0, 1, 1]);
        assert_eq!(h.missing_metadata, ["d"]);
        // Art: a=4, b=1 → 5/8 = 0.625; Sports: c=3 → 3/4.
        assert_relative_eq!(h.by.domain["Art"].score_rate, 0.625);
        assert_eq!(h.by.domain["Art"].n, 2);
        assert_relative_eq!(h.by.domain["Sports"].score_rate, 0.75);
        // Visual Similarity: a, b → 5/8; recognition: a (once, though it has two recognition
        // labels) and b → 5/8 with n = 2.
        assert_relative_eq!(h.by.l3["Visual Similarity"].score_rate, 0.625);
        assert_eq!(h.by.l2["recognition"].n, 2);
        assert_relative_eq!(h.by.l2["recognition"].score_rate, 0.625);
        // Conception: b (1) and c (3) → 4/8 = 0.5.
        assert_relative_eq!(h.by.l1["Conception"].score_rate, 0.5);
        assert_eq!(h.by.hop_count["2"].n, 2);

        // Released RIA script's L-2 counting: a counts twice in recognition:
        // (4+4+1)/(4·3) = 9/12 = 0.75 with n = 3.
        let per_label = ScoreOptions {
            label_counting: LabelCounting::PerLabel,
            ..ScoreOptions::default()
        };
        let h = run(Task::Ria, &m, &[&reg], &[], &per_label)
            .holistic
            .unwrap();
        assert_eq!(h.by.l2["recognition"].n, 3);
        assert_relative_eq!(h.by.l2["recognition"].score_rate, 0.75);

        // Excluding the invalid entry (released ICA script): N = 3, SR = 8/12.
        let exclude = ScoreOptions {
            invalid_scores: InvalidScores::Exclude,
            ..ScoreOptions::default()
        };
        let h = run(Task::Ria, &m, &[&reg], &[], &exclude).holistic.unwrap();
        assert_eq!(h.n, 3);
        assert_relative_eq!(h.score_rate, 8.0 / 12.0);
    }

    #[test]
    fn several_judges_pool_and_report_each() {
        let j1 = RegularScores::parse("j1.json", br#"{"a": 4, "b": 2}"#).unwrap();
        let j2 = RegularScores::parse("j2.json", br#"{"a": 2, "b": 2}"#).unwrap();
        let m = meta();
        let r = run(Task::Ria, &m, &[&j1, &j2], &[], &ScoreOptions::default());
        let h = r.holistic.unwrap();
        // Item means a = 3, b = 2 → SR = 2.5/4 = 0.625 = (4+2+2+2)/(4·4).
        assert_eq!(h.n, 4);
        assert_relative_eq!(h.score_rate, 0.625);
        assert_eq!(r.per_judge.holistic.len(), 2);
        assert_relative_eq!(r.per_judge.holistic[0].score_rate, 0.75);
        assert_relative_eq!(r.per_judge.holistic[1].score_rate, 0.5);
        assert_eq!(r.items[0].mean_score, Some(3.0));
    }

    #[test]
    fn process_reward_by_hand() {
        // a: hops (R, D, K) = (1, 1, 1), (0.5, 0.8, 0):
        //   s0 = 0.9·1·1 + 0.1·1 = 1.0; s1 = 0.9·0.5·0.8 + 0 = 0.36;
        //   S_r = 1.0 + 0.36·0.9 = 1.324 (code); paper: 1.0·0.9 + 0.36·0.81 = 1.1916.
        // b: one hop (1.3 → 1, 0.5, 0.4 → 0): s = 0.9·0.5 = 0.45; S_r = 0.45.
        // c: only an invalid hop → skipped.
        let text = r#"{
          "a": {"path": "A → X → B", "hop_quality": {"A → X": [1, 1, 1], "X → B": [0.5, 0.8, 0]}},
          "b": {"path": "A → B", "hop_quality": {"A → B": [1.3, 0.5, 0.4]}},
          "c": {"path": "?", "hop_quality": {"A → B": "high"}}
        }"#;
        let rs = ReasoningScores::parse("r.json", text.as_bytes()).unwrap();
        let m = meta();
        let r = run(Task::Ria, &m, &[], &[&rs], &ScoreOptions::default())
            .reasoning
            .unwrap();
        assert_eq!(r.n, 2);
        assert_relative_eq!(r.mean_score, (1.324 + 0.45) / 2.0, max_relative = 1e-12);
        // Hops: R = 1, 0.5, 1 → 2.5/3; D = 1, 0.8, 0.5 → 2.3/3; K = 1, 0, 0 → 1/3.
        assert_eq!(r.hops, 3);
        assert_relative_eq!(r.mean_r, 2.5 / 3.0, max_relative = 1e-12);
        assert_relative_eq!(r.mean_d, 2.3 / 3.0, max_relative = 1e-12);
        assert_relative_eq!(r.mean_k, 1.0 / 3.0, max_relative = 1e-12);
        assert_eq!(r.skipped.len(), 1);
        assert_eq!(r.skipped[0].id, "c");
        assert_eq!(r.distribution.score["0-1"], 1);
        assert_eq!(r.distribution.score["1-2"], 1);
        assert_eq!(r.distribution.r["0.8-1"], 2);
        assert_eq!(r.distribution.r["0.4-0.6"], 1);
        assert_eq!(r.distribution.d["0.8-1"], 2);
        assert_eq!(r.distribution.k["0"], 2);
        // Paths: a has 2 hops, b 1, c 0 valid.
        assert_eq!(
            r.distribution.hops,
            BTreeMap::from([(0, 1), (1, 1), (2, 1)])
        );
        assert_relative_eq!(
            r.by.domain["Art"].mean_score,
            (1.324 + 0.45) / 2.0,
            max_relative = 1e-12
        );

        let paper = ScoreOptions {
            decay_exponent: DecayExponent::FromOne,
            ..ScoreOptions::default()
        };
        let r = run(Task::Ria, &m, &[], &[&rs], &paper).reasoning.unwrap();
        assert_relative_eq!(
            r.mean_score,
            (1.1916 + 0.45 * 0.9) / 2.0,
            max_relative = 1e-12
        );
    }

    #[test]
    fn shares_above_075_and_process_length_bias() {
        // q1 hops (R, D, K) (1, 1, 1), (0.8, 0.9, 1): path means R 0.9, D 0.95, K 1, all above
        //    0.75; s = 1 and 0.9·0.8·0.9 + 0.1 = 0.748 → S_r = 1 + 0.748·0.9 = 1.6732.
        // q2 (0.5, 0.76, 0): only D above; s = 0.9·0.5·0.76 = 0.342.
        // q3 (0.75, 0.2, 1): only K (0.75 is not above 0.75); s = 0.9·0.75·0.2 + 0.1 = 0.235.
        // q4 (1, 1, 0): R and D; s = 0.9.
        // Paths: R 2/4, D 3/4, K 2/4. Hops (5): R > 0.75 for 1, 0.8, 1 → 3/5; D for 1, 0.9,
        // 0.76, 1 → 4/5.
        let rs = ReasoningScores::parse(
            "r.json",
            br#"{"q1": {"hop_quality": {"a": [1, 1, 1], "b": [0.8, 0.9, 1]}},
                 "q2": {"hop_quality": {"a": [0.5, 0.76, 0]}},
                 "q3": {"hop_quality": {"a": [0.75, 0.2, 1]}},
                 "q4": {"hop_quality": {"a": [1, 1, 0]}}}"#,
        )
        .unwrap();
        let reg =
            RegularScores::parse("j.json", br#"{"q1": 4, "q2": 1, "q3": 1, "q4": 3}"#).unwrap();
        let answers = Answers::parse(
            "a.json",
            br#"{"q1": "aaaaaaaaaa", "q2": "bb", "q3": "cccc", "q4": "dddddddd"}"#,
        )
        .unwrap();
        let m = meta();
        let options = ScoreOptions {
            min_answer_length: 3,
            ..ScoreOptions::default()
        };
        let r = score(
            &ScoreInput {
                task: Task::Ria,
                metadata: &m,
                regular: vec![&reg],
                reasoning: vec![&rs],
                answers: Some(&answers),
            },
            &options,
        )
        .unwrap()
        .reasoning
        .unwrap();
        let a = r.distribution.above;
        assert_eq!(a.paths, 4);
        assert_relative_eq!(a.path_r, 0.5);
        assert_relative_eq!(a.path_d, 0.75);
        assert_relative_eq!(a.path_k, 0.5);
        assert_relative_eq!(a.hop_r, 0.6);
        assert_relative_eq!(a.hop_d, 0.8);
        // Length bias: q2 ("bb", 1 point, shorter than 3) left out; q3 (1 point, 4 chars) kept.
        // Pearson r of lengths (10, 4, 8) and S_r (1.6732, 0.235, 0.9): Python's
        // statistics.correlation gives 0.972854627690281.
        let lb = r.length_bias.unwrap();
        assert_eq!((lb.n, lb.excluded, lb.min_length), (3, 1, 3));
        assert_relative_eq!(
            lb.correlation.unwrap().r,
            0.972854627690281,
            max_relative = 1e-12
        );
        // The same pairs under another threshold, without the files (the web app's setting):
        // 0 keeps all four; Python's statistics.correlation([10, 2, 4, 8],
        // [1.6732, 0.342, 0.235, 0.9]) = 0.9225541440594396. At 5, q3 (4 chars) goes too.
        let samples = r.length_samples.as_ref().unwrap();
        let all = samples.bias(0);
        assert_eq!((all.n, all.excluded, all.min_length), (4, 0, 0));
        assert_relative_eq!(
            all.correlation.unwrap().r,
            0.9225541440594396,
            max_relative = 1e-12
        );
        assert_eq!((samples.bias(5).n, samples.bias(5).excluded), (2, 2));
        assert_eq!(samples.bias(3), lb);
    }

    #[test]
    fn multi_image_substitution_within_groups() {
        // a and b are concept-identical variants (group g1), c is alone in g2; scores a 4,
        // b 1, c 3. g1's score rates 1.0 and 0.25: sample SD = 0.75/√2 = 0.5303300858899106,
        // range 0.75; g2 has one judged item and does not count.
        let m = Metadata::parse(
            "m.json",
            br#"[{"id": "a", "variant_group": "g1"}, {"id": "b", "variant_group": "g1"},
                 {"id": "c", "variant_group": "g2"}]"#,
        )
        .unwrap();
        let reg = RegularScores::parse("j.json", br#"{"a": 4, "b": 1, "c": 3}"#).unwrap();
        let h = run(Task::Ria, &m, &[&reg], &[], &ScoreOptions::default())
            .holistic
            .unwrap();
        let sub = &h.substitution;
        assert_eq!((sub.groups, sub.items), (1, 2));
        assert_relative_eq!(
            sub.mean_sd.unwrap(),
            0.75 / 2f64.sqrt(),
            max_relative = 1e-12
        );
        assert_relative_eq!(sub.mean_range.unwrap(), 0.75);
        assert!(sub.note.is_none());
        // Metadata without the grouping: no figure, and a note saying the input lacks it.
        let h = run(Task::Ria, &meta(), &[&reg], &[], &ScoreOptions::default())
            .holistic
            .unwrap();
        assert_eq!(h.substitution.groups, 0);
        assert!(h
            .substitution
            .note
            .as_deref()
            .unwrap()
            .contains("no variant_group"));
    }

    #[test]
    fn task_mismatch_and_bad_options() {
        let reg = RegularScores::parse("ica.json", br#"{"a": [1, 2, 3, 4]}"#).unwrap();
        let m = meta();
        let err = score(
            &ScoreInput {
                task: Task::Ria,
                metadata: &m,
                regular: vec![&reg],
                reasoning: vec![],
                answers: None,
            },
            &ScoreOptions::default(),
        )
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "ica.json: expected an RIA file, found an ICA file (its entries are lists, one per rotation)"
        );
        assert!(matches!(
            ScoreOptions::new(0.9, 0.0),
            Err(MmoperaError::BadOption { name: "gamma", .. })
        ));
    }
}
