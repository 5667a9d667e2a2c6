//! Aggregation of KiVA trials into per-subdomain, per-domain and overall stage scores, and the
//! reaction-time correlation of the paper's Figure 6.

use super::run::RunFile;
use super::{
    KivaError, NullAnswers, Outcome, Stage, Variant, KIVA_ADULTS_SUBDOMAINS, KIVA_SUBDOMAINS,
};
use crate::mmiq::Warnings;
use crate::stats::correlation::pearson;
use crate::stats::describe::{mean_se, MeanSe};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The four stage scores of a group of trials; `None` where no trial has a value (e.g.
/// `within_conditional` when stage 2 was never reached).
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct StageStats {
    /// Stage 1 (what changed).
    pub cross: Option<MeanSe>,
    /// Stage 2 over the trials that reached it, averaged over the regenerations that did.
    pub within_conditional: Option<MeanSe>,
    /// Stage 2 with a skipped stage 2 counted as 0.
    pub within_joint: Option<MeanSe>,
    /// Stage 3 (apply the rule to a new object).
    pub extrapolation: Option<MeanSe>,
}

impl StageStats {
    /// Mean and SE (population SD / sqrt(n), ddof 0) of each stage over the trials.
    pub fn of<'a>(trials: impl IntoIterator<Item = &'a TrialResult> + Clone) -> Self {
        let stat = |f: fn(&TrialResult) -> Option<f64>| {
            let v: Vec<f64> = trials.clone().into_iter().filter_map(f).collect();
            mean_se(&v, 0).ok()
        };
        Self {
            cross: stat(|t| t.cross),
            within_conditional: stat(|t| t.within_conditional),
            within_joint: stat(|t| t.within_joint),
            extrapolation: stat(|t| t.extrapolation),
        }
    }

    /// The statistic for a report key (`cross`, `within_conditional`, `within_joint`,
    /// `extrapolation`).
    pub fn get(&self, key: &str) -> Option<MeanSe> {
        match key {
            "cross" => self.cross,
            "within_conditional" => self.within_conditional,
            "within_joint" => self.within_joint,
            "extrapolation" => self.extrapolation,
            _ => None,
        }
    }
}

/// The report keys of the four stage scores, with the human stage each is compared with.
pub const STAGE_KEYS: [(&str, Stage); 4] = [
    ("cross", Stage::Cross),
    ("within_conditional", Stage::Within),
    ("within_joint", Stage::Within),
    ("extrapolation", Stage::Extrapolation),
];

/// One trial's stage scores (means over its regenerations for a model; 0/1 for a person).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TrialResult {
    /// Domain.
    pub domain: String,
    /// Subdomain.
    pub subdomain: String,
    /// Variation number.
    pub variation: u64,
    /// Participant id (human data only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub participant: Option<String>,
    /// Number of rows (regenerations, or stage rows for a person).
    pub rows: usize,
    /// First line of the trial in its file.
    pub line: usize,
    /// Stage 1 score.
    pub cross: Option<f64>,
    /// Stage 2 score over the regenerations that reached it (`None` if none did).
    pub within_conditional: Option<f64>,
    /// Stage 2 score with skipped counted as 0.
    pub within_joint: Option<f64>,
    /// Stage 3 score.
    pub extrapolation: Option<f64>,
}

/// Whether a report is from model runs or from people.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// Model-run CSVs.
    Model,
    /// The human data file.
    Human,
}

/// What was read and how it was counted.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct RowCounts {
    /// Files read.
    pub files: usize,
    /// Data rows read (all are used).
    pub rows: usize,
    /// Trials formed.
    pub trials: usize,
    /// Per stage (`cross`, `within`, `extrapolation`): answers recorded as `Null` (counted wrong,
    /// or left out under [`NullAnswers::Missing`]).
    pub null_answers: BTreeMap<String, usize>,
    /// Per stage: empty stage-1/stage-3 answers (counted wrong) or, for stage 2, rows where
    /// stage 2 was not asked; for human data, trials without that stage's row.
    pub empty_answers: BTreeMap<String, usize>,
    /// Rows scored from raw answers (no `MCResponse#k` column) for at least one stage.
    pub scored_from_raw_answers: usize,
}

/// Reaction-time summary in milliseconds.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct ReactionTime {
    /// Median (mean of the two middle values for even n).
    pub median_ms: f64,
    /// Mean.
    pub mean_ms: f64,
    /// Number of responses.
    pub n: usize,
}

impl ReactionTime {
    pub(crate) fn of(values: &[f64]) -> Option<Self> {
        Some(Self {
            median_ms: crate::stats::describe::median(values).ok()?,
            mean_ms: crate::stats::describe::mean(values).ok()?,
            n: values.len(),
        })
    }
}

/// Reaction times of one subdomain: over all stages and per stage.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct SubdomainRt {
    /// All responses of the subdomain.
    pub all: ReactionTime,
    /// Stage 1 responses.
    pub cross: Option<ReactionTime>,
    /// Stage 2 responses.
    pub within: Option<ReactionTime>,
    /// Stage 3 responses.
    pub extrapolation: Option<ReactionTime>,
}

impl SubdomainRt {
    fn stage(&self, stage: Stage) -> Option<ReactionTime> {
        match stage {
            Stage::Cross => self.cross,
            Stage::Within => self.within,
            Stage::Extrapolation => self.extrapolation,
        }
    }
}

/// One subdomain in the reaction-time correlation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RtPoint {
    /// Subdomain.
    pub subdomain: String,
    /// The model's mean error, 1 − mean stage score.
    pub model_error: f64,
    /// Adults' mean reaction time on the matching stage, ms.
    pub human_mean_rt_ms: f64,
}

/// The correlation for one stage score.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StageCorrelation {
    /// The human stage whose reaction times are used.
    pub human_stage: Stage,
    /// Number of subdomains in both.
    pub n: usize,
    /// Pearson's r, when it can be computed (n ≥ 3, neither side constant).
    pub r: Option<f64>,
    /// Two-sided p-value (t test, n − 2 df).
    pub p: Option<f64>,
    /// Why r is missing, if it is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// The points, by subdomain.
    pub points: Vec<RtPoint>,
}

/// Pearson correlation between a model's mean error and adults' mean reaction time across
/// subdomains, per stage score (the paper's Figure 6).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RtCorrelation {
    /// Per stage key (`cross`, `within_conditional`, `within_joint`, `extrapolation`).
    pub stages: BTreeMap<String, StageCorrelation>,
}

/// A scored KiVA run (model or human), in the CLI's JSON shape.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KivaReport {
    /// Always `"kiva"`.
    pub benchmark: String,
    /// `KiVA` or `KiVA-adults`.
    pub variant: Variant,
    /// Model runs or human data.
    pub source: Source,
    /// The files read.
    pub files: Vec<String>,
    /// How `Null` answers were counted (`wrong`, the repository's rule, or `missing`).
    #[serde(default)]
    pub null: NullAnswers,
    /// Over all trials.
    pub overall: StageStats,
    /// Per domain (trials pooled over its subdomains).
    pub by_domain: BTreeMap<String, StageStats>,
    /// Per subdomain.
    pub by_subdomain: BTreeMap<String, StageStats>,
    /// Rows, trials and how answers were counted.
    pub rows: RowCounts,
    /// The variant's subdomains with no data.
    pub missing_subdomains: Vec<String>,
    /// Counted warnings (irregular regenerations, inconsistent stage 2, unknown subdomains...).
    pub warnings: Warnings,
    /// Reaction times per subdomain (human data only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reaction_time: Option<BTreeMap<String, SubdomainRt>>,
    /// The model/human reaction-time correlation, when computed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rt_correlation: Option<RtCorrelation>,
    /// Per-trial results (may be cleared before printing).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub trials: Vec<TrialResult>,
    /// The harness that produced the file and how its records mapped (`None` for KiVA's own
    /// formats; see [`crate::harness`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub harness: Option<Box<crate::provenance::HarnessInfo>>,
}

const STAGE_NAMES: [&str; 3] = ["cross", "within", "extrapolation"];

/// Builds a report from trials (shared by model and human data).
pub(crate) fn build_report(
    variant: Variant,
    source: Source,
    files: Vec<String>,
    trials: Vec<TrialResult>,
    rows: RowCounts,
    mut warnings: Warnings,
) -> KivaReport {
    let overall = StageStats::of(&trials);
    let mut by_domain_trials: BTreeMap<&str, Vec<&TrialResult>> = BTreeMap::new();
    let mut by_sub_trials: BTreeMap<&str, Vec<&TrialResult>> = BTreeMap::new();
    for t in &trials {
        by_domain_trials.entry(&t.domain).or_default().push(t);
        by_sub_trials.entry(&t.subdomain).or_default().push(t);
    }
    let by_domain = by_domain_trials
        .iter()
        .map(|(d, ts)| ((*d).to_string(), StageStats::of(ts.iter().copied())))
        .collect();
    let by_subdomain = by_sub_trials
        .iter()
        .map(|(s, ts)| ((*s).to_string(), StageStats::of(ts.iter().copied())))
        .collect();
    for s in by_sub_trials.keys() {
        if !variant.subdomains().contains(s) {
            warnings.add("unknown subdomain", || {
                format!(
                    "subdomain {s} is not one of the {} subdomains of {}; it is scored under its domain",
                    variant.subdomains().len(),
                    variant.name()
                )
            });
        }
    }
    let missing_subdomains = variant
        .subdomains()
        .iter()
        .filter(|s| !by_sub_trials.contains_key(*s))
        .map(|s| (*s).to_string())
        .collect();
    KivaReport {
        benchmark: "kiva".into(),
        variant,
        source,
        files,
        null: NullAnswers::Wrong,
        overall,
        by_domain,
        by_subdomain,
        rows: RowCounts {
            trials: trials.len(),
            ..rows
        },
        missing_subdomains,
        warnings,
        reaction_time: None,
        rt_correlation: None,
        trials,
        harness: None,
    }
}

/// The variant of a set of subdomains: KiVA-adults if any is outside KiVA's 14.
pub(crate) fn variant_of_subdomains<'a>(subs: impl IntoIterator<Item = &'a str>) -> Variant {
    let mut subs = subs.into_iter();
    if subs.any(|s| !KIVA_SUBDOMAINS.contains(&s) && KIVA_ADULTS_SUBDOMAINS.contains(&s)) {
        Variant::KivaAdults
    } else {
        Variant::Kiva
    }
}

/// Parses and scores a set of model-run CSVs given as (path, bytes) pairs (e.g. every
/// `output_<Domain>/<Subdomain>.csv` of one model's folder).
///
/// The variant is taken from a `KiVA` / `KiVA-adults` folder in the paths, else from the
/// subdomains (any KiVA-adults-only subdomain makes it KiVA-adults).
///
/// # Errors
/// The parse errors of [`RunFile::parse`]; [`KivaError::Empty`] for no files;
/// [`KivaError::DuplicateSubdomain`] when two files cover the same subdomain;
/// [`KivaError::MixedVariants`] when the paths name both variants.
///
/// # Examples
/// ```
/// use coglab_core::kiva::score_model;
/// let red = "Variation,Regeneration,MCResponse#1,MCResponse#2,MCResponse#3\n\
///            0,0,1,1,1\n0,1,1,0,0\n0,2,0,,0\n1,0,1,1,1\n1,1,1,1,1\n1,2,1,1,1\n";
/// let r = score_model([("output_Colour/ColourRed.csv", red.as_bytes())]).unwrap();
/// let s = r.by_subdomain["ColourRed"];
/// // Trial 0: cross 2/3, within over the 2 regenerations that reached it 1/2, joint 1/3.
/// // Trial 1: all 1. Means: cross 5/6, within_conditional 3/4, within_joint 2/3.
/// assert!((s.cross.unwrap().mean - 5.0 / 6.0).abs() < 1e-12);
/// assert!((s.within_conditional.unwrap().mean - 0.75).abs() < 1e-12);
/// assert!((s.within_joint.unwrap().mean - 2.0 / 3.0).abs() < 1e-12);
/// ```
pub fn score_model<'a>(
    files: impl IntoIterator<Item = (&'a str, &'a [u8])>,
) -> Result<KivaReport, KivaError> {
    score_model_with(files, NullAnswers::Wrong)
}

/// [`score_model`] with `Null` answers counted as `null` says.
///
/// # Errors
/// As [`score_model`].
pub fn score_model_with<'a>(
    files: impl IntoIterator<Item = (&'a str, &'a [u8])>,
    null: NullAnswers,
) -> Result<KivaReport, KivaError> {
    let runs = files
        .into_iter()
        .map(|(path, bytes)| RunFile::parse(path, bytes))
        .collect::<Result<Vec<_>, _>>()?;
    aggregate_runs_with(runs, null)
}

/// Aggregates parsed run files (see [`score_model`]).
///
/// # Errors
/// As [`score_model`].
pub fn aggregate_runs(runs: Vec<RunFile>) -> Result<KivaReport, KivaError> {
    aggregate_runs_with(runs, NullAnswers::Wrong)
}

/// [`aggregate_runs`] with `Null` answers counted as `null` says: with
/// [`NullAnswers::Missing`] a `Null` stage is left out of that stage's mean over the
/// regenerations (a trial whose every regeneration is `Null` there has no score for the stage);
/// a `Null` stage 2 is also left out of `within_joint`, where a skipped stage 2 still counts 0.
///
/// # Errors
/// As [`score_model`].
pub fn aggregate_runs_with(runs: Vec<RunFile>, null: NullAnswers) -> Result<KivaReport, KivaError> {
    if runs.is_empty() {
        return Err(KivaError::Empty {
            file: "(no files)".into(),
            expected: "at least one KiVA run CSV",
        });
    }
    let mut seen: BTreeMap<&str, &str> = BTreeMap::new();
    for r in &runs {
        if let Some(first) = seen.insert(&r.subdomain, &r.file) {
            return Err(KivaError::DuplicateSubdomain {
                subdomain: r.subdomain.clone(),
                first: first.to_string(),
                second: r.file.clone(),
            });
        }
    }
    let named: Vec<(&RunFile, Variant)> = runs
        .iter()
        .filter_map(|r| r.variant_in_path.map(|v| (r, v)))
        .collect();
    if let Some(&(first, v1)) = named.first() {
        if let Some(&(second, v2)) = named.iter().find(|(_, v)| *v != v1) {
            return Err(KivaError::MixedVariants {
                first: first.file.clone(),
                first_variant: v1.name().into(),
                second: second.file.clone(),
                second_variant: v2.name().into(),
            });
        }
    }
    let variant = named
        .first()
        .map(|(_, v)| *v)
        .unwrap_or_else(|| variant_of_subdomains(runs.iter().map(|r| r.subdomain.as_str())));

    let mut warnings = Warnings::default();
    let mut counts = RowCounts {
        files: runs.len(),
        ..RowCounts::default()
    };
    for name in STAGE_NAMES {
        counts.null_answers.insert(name.into(), 0);
        counts.empty_answers.insert(name.into(), 0);
    }
    let mut trials = Vec::new();
    for run in &runs {
        counts.rows += run.rows.len();
        if run.scored_from_raw.iter().any(|b| *b) {
            counts.scored_from_raw_answers += run.rows.len();
        }
        let mut by_variation: BTreeMap<u64, Vec<&super::RunRow>> = BTreeMap::new();
        for row in &run.rows {
            by_variation.entry(row.variation).or_default().push(row);
            for (i, o) in row.outcomes.iter().enumerate() {
                match o {
                    Outcome::Null => {
                        *counts
                            .null_answers
                            .entry(STAGE_NAMES[i].into())
                            .or_default() += 1
                    }
                    Outcome::Empty => {
                        *counts
                            .empty_answers
                            .entry(STAGE_NAMES[i].into())
                            .or_default() += 1
                    }
                    _ => {}
                }
            }
            let [s1, s2, _] = row.outcomes;
            if s1 == Outcome::Wrong && s2 != Outcome::Empty {
                warnings.add("stage 2 answered after a wrong stage 1", || {
                    format!(
                        "{} line {}: MCResponse#1 is 0 but stage 2 has an answer; it is scored",
                        run.file, row.line
                    )
                });
            }
            if s1 == Outcome::Correct && s2 == Outcome::Empty {
                warnings.add("stage 2 empty after a correct stage 1", || {
                    format!(
                        "{} line {}: MCResponse#1 is 1 but stage 2 is empty; counted as not asked",
                        run.file, row.line
                    )
                });
            }
        }
        for (variation, rows) in &by_variation {
            let mut regs: Vec<u64> = rows.iter().map(|r| r.regeneration).collect();
            regs.sort();
            let distinct = {
                let mut d = regs.clone();
                d.dedup();
                d.len()
            };
            if rows.len() != 3 || distinct != rows.len() {
                warnings.add("variation without exactly 3 distinct regenerations", || {
                    format!(
                        "{}: variation {variation} has {} rows (regenerations {regs:?}); all are averaged",
                        run.file,
                        rows.len()
                    )
                });
            }
            let mean = |f: &dyn Fn(&super::RunRow) -> Option<f64>| {
                let v: Vec<f64> = rows.iter().filter_map(|r| f(r)).collect();
                crate::stats::describe::mean(&v).ok()
            };
            trials.push(TrialResult {
                domain: run.domain.clone(),
                subdomain: run.subdomain.clone(),
                variation: *variation,
                participant: None,
                rows: rows.len(),
                line: rows.first().map_or(0, |r| r.line),
                cross: mean(&|r| r.outcomes[0].score_with(Stage::Cross, null)),
                within_conditional: mean(&|r| r.outcomes[1].score_with(Stage::Within, null)),
                within_joint: mean(&|r| match r.outcomes[1] {
                    Outcome::Empty => Some(0.0),
                    o => o.score_with(Stage::Within, null),
                }),
                extrapolation: mean(&|r| r.outcomes[2].score_with(Stage::Extrapolation, null)),
            });
        }
    }
    let files = runs.iter().map(|r| r.file.clone()).collect();
    let mut report = build_report(variant, Source::Model, files, trials, counts, warnings);
    report.null = null;
    Ok(report)
}

/// Pearson correlation between the model's mean error (1 − mean stage score) and the adults'
/// mean reaction time on the matching stage, across the subdomains present in both reports,
/// for each stage score (`within_conditional` and `within_joint` both use the within-domain
/// reaction times). Where r cannot be computed (fewer than 3 subdomains, a constant side, no
/// reaction times in `human`) it is `None` with a note.
///
/// # Examples
/// ```
/// use coglab_core::kiva::{rt_error_correlation, score_human, score_model, HumanData};
/// let model = score_model([
///     ("ColourRed.csv", &b"Variation,Regeneration,MCResponse#1,MCResponse#2,MCResponse#3\n0,0,1,1,1\n"[..]),
///     ("ReflectX.csv", &b"Variation,Regeneration,MCResponse#1,MCResponse#2,MCResponse#3\n0,0,1,0,0\n"[..]),
///     ("Counting+1.csv", &b"Variation,Regeneration,MCResponse#1,MCResponse#2,MCResponse#3\n0,0,1,1,0\n"[..]),
/// ]).unwrap();
/// let human = score_human(&HumanData::parse("h.csv", b"ParticipantID,Transformation,Variation,Task,Score,Reaction Time\n\
///     1,ColourRed,0,Extrapolation,1,1000\n1,ReflectX,0,Extrapolation,1,3000\n1,Counting+1,0,Extrapolation,1,2500\n").unwrap()).unwrap();
/// let c = rt_error_correlation(&model, &human);
/// let e = &c.stages["extrapolation"];
/// // errors (ColourRed 0, Counting+1 1, ReflectX 1) against RT (1000, 2500, 3000):
/// // scipy.stats.pearsonr gives r = 0.9707253433941512, p = 0.15442095831126593.
/// assert!((e.r.unwrap() - 0.9707253433941512).abs() < 1e-12);
/// assert!((e.p.unwrap() - 0.15442095831126593).abs() < 1e-9);
/// ```
pub fn rt_error_correlation(model: &KivaReport, human: &KivaReport) -> RtCorrelation {
    let mut stages = BTreeMap::new();
    for (key, human_stage) in STAGE_KEYS {
        let mut points = Vec::new();
        if let Some(rt) = &human.reaction_time {
            for (sub, stats) in &model.by_subdomain {
                let (Some(m), Some(h)) = (
                    stats.get(key),
                    rt.get(sub).and_then(|r| r.stage(human_stage)),
                ) else {
                    continue;
                };
                points.push(RtPoint {
                    subdomain: sub.clone(),
                    model_error: 1.0 - m.mean,
                    human_mean_rt_ms: h.mean_ms,
                });
            }
        }
        let x: Vec<f64> = points.iter().map(|p| p.model_error).collect();
        let y: Vec<f64> = points.iter().map(|p| p.human_mean_rt_ms).collect();
        let (r, p, note) = if human.reaction_time.is_none() {
            (
                None,
                None,
                Some("the human report has no reaction times".to_string()),
            )
        } else {
            match pearson(&x, &y) {
                Ok(c) => (Some(c.r), Some(c.p), None),
                Err(e) => (None, None, Some(e.to_string())),
            }
        };
        stages.insert(
            key.to_string(),
            StageCorrelation {
                human_stage,
                n: points.len(),
                r,
                p,
                note,
                points,
            },
        );
    }
    RtCorrelation { stages }
}
