//! The whole Gold analysis: spec + score matrix -> [`SemReport`] (the `coglab sem` JSON).
//!
//! Pipeline: select the spec's columns (listwise deletion or mean imputation), standardize
//! (sample SD), take their correlation matrix, optionally prune (Algorithm 1), fit the PLS
//! model (two stages when there are second-order constructs), then derive quality figures,
//! Gold's diagnostics, weighted overall scores, descriptives, the human-column correlation
//! and, on request, bootstrap intervals.
//!
//! Two-stage approach (seminr/plspm): stage 1 fits the first-order constructs with every path
//! to/from a second-order construct redirected to each of its lower-order constructs; stage 2
//! uses the lower-order construct scores as the second-order construct's indicators and fits
//! the spec's structural model. Items of lower-order constructs are reported from stage 1,
//! everything else (other constructs, second-order constructs, paths, R²) from stage 2.
//!
//! Human anchor: a `human_column` that is not an indicator becomes a single-indicator
//! construct of that name. Unless the spec's paths mention it, paths are added to it from the
//! top-level constructs: every second-order construct, or else every first-order construct
//! without an outgoing path. It is excluded from pruning, D_div, TC, D_valid and the overall
//! scores.

use super::bootstrap::{run_bootstrap, BootstrapOptions, BootstrapReport};
use super::data::{Missing, ScoreMatrix, Table};
use super::describe::{describe_values, Descriptive};
use super::engine::{regress, Block, Mode, Scheme};
use super::plan::{Ind2, Measured, Plan};
use super::quality::{self, Diagnostics, HtmtVariant, Reliability};
use super::spec::ModelSpec;
use super::SemError;
use crate::limits::{check, MAX_BOOTSTRAP, MAX_ITERATIONS, MIN_BOOTSTRAP};
use crate::linalg::{correlation_matrix, LinalgError, Matrix};
use crate::stats::correlation::{pearson, spearman, Correlation};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// Options of one analysis (the spec carries the model; these carry how to run it).
///
/// The switches where seed 003 (Gold), its released code and our choice differ (issue 23)
/// each name their default: [`HtmtVariant::Standard`], [`PruneVariant::Stepwise`],
/// [`ArenaPlacement::Construct`], out-of-range cells kept (and reported).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct SemOptions {
    /// Missing-value handling (listwise deletion by default).
    pub missing: Missing,
    /// Bootstrap resampling, if wanted.
    pub bootstrap: Option<BootstrapOptions>,
    /// Prune tasks before the final fit, by [`SemOptions::prune_variant`].
    pub prune: bool,
    /// Overrides the spec's `max_iterations`.
    pub max_iterations: Option<usize>,
    /// Which HTMT formula feeds the HTMT table and D_div.
    #[serde(default)]
    pub htmt: HtmtVariant,
    /// Which pruning procedure runs when [`SemOptions::prune`] is set.
    #[serde(default)]
    pub prune_variant: PruneVariant,
    /// Where the human column (e.g. Chatbot Arena) enters the model.
    #[serde(default)]
    pub arena: ArenaPlacement,
    /// The stated scale of the task (indicator) columns; cells outside it are reported in
    /// [`SemReport::out_of_range`]. `None`: no check.
    #[serde(default)]
    pub scale: Option<Scale>,
    /// Treat the out-of-range cells as missing (then `missing` decides: listwise deletion
    /// drops their models, mean imputation fills them). Default false: fitted as given.
    #[serde(default)]
    pub exclude_out_of_range: bool,
}

/// Which pruning procedure runs (issue 23: Gold's Algorithm 1 as printed differs from ours).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PruneVariant {
    /// Ours: refit after each removal, remove the single worst task (largest VIF above
    /// `vif_max`, else smallest |loading| below `loading_min`), never below `min_indicators`
    /// per construct. The default.
    #[default]
    Stepwise,
    /// Seed 003's Algorithm 1 as printed: each pass fits once and removes *every* task with
    /// VIF above `vif_max` and every task with |loading| below `loading_min`, with no floor;
    /// repeat until none offends. Fails when a pass empties a construct.
    Algorithm1,
}

impl PruneVariant {
    /// The label shown beside the pruning steps.
    pub fn label(self) -> &'static str {
        match self {
            PruneVariant::Stepwise => "stepwise (ours: one task per refit, floor min_indicators)",
            PruneVariant::Algorithm1 => {
                "Algorithm 1 as printed (every offending task per pass, no floor)"
            }
        }
    }

    /// The CLI spelling (`stepwise` / `algorithm1`).
    pub fn as_str(self) -> &'static str {
        match self {
            PruneVariant::Stepwise => "stepwise",
            PruneVariant::Algorithm1 => "algorithm1",
        }
    }
}

/// Where the human column enters the model (issue 23).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ArenaPlacement {
    /// Ours: a separate single-indicator construct that the top-level construct(s) point to.
    /// The default.
    #[default]
    Construct,
    /// Seed 003 §2.2: "an external observed indicator of the top-level latent variable": one
    /// more indicator of the (single) second-order construct, beside the lower-order
    /// construct scores. Needs exactly one second-order construct and a spec whose paths do
    /// not name the human column.
    TopIndicator,
}

impl ArenaPlacement {
    /// The label shown beside the figures.
    pub fn label(self) -> &'static str {
        match self {
            ArenaPlacement::Construct => "separate construct (ours)",
            ArenaPlacement::TopIndicator => "indicator of the top-level construct (paper §2.2)",
        }
    }
}

/// The stated scale of the task columns (e.g. 0-100 for % accuracy).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Scale {
    /// Smallest valid score.
    pub low: f64,
    /// Largest valid score.
    pub high: f64,
}

/// One task cell outside the stated [`Scale`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OutOfRange {
    /// The model (row).
    pub model: String,
    /// The task column.
    pub column: String,
    /// The value found.
    pub value: f64,
    /// The scale's lower end.
    pub low: f64,
    /// The scale's upper end.
    pub high: f64,
}

impl std::fmt::Display for OutOfRange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} {} = {} (outside {}-{})",
            self.model, self.column, self.value, self.low, self.high
        )
    }
}

/// The task cells (indicator columns of `spec`, not the human column) of `matrix` outside
/// `scale`, in column then row order.
///
/// # Examples
/// ```
/// use coglab_core::sem::analysis::{out_of_range, Scale};
/// use coglab_core::sem::data::ScoreMatrix;
/// use coglab_core::sem::spec::ModelSpec;
/// let m = ScoreMatrix::parse(b"model,a,b\nx,50,147.5\ny,-1,20\n", "m.csv").unwrap();
/// let spec = ModelSpec::parse(r#"{"constructs": {"A": ["a", "b"]}}"#, "s.json").unwrap();
/// let bad = out_of_range(&spec, &m, Scale { low: 0.0, high: 100.0 });
/// let found: Vec<(&str, &str, f64)> =
///     bad.iter().map(|c| (c.model.as_str(), c.column.as_str(), c.value)).collect();
/// assert_eq!(found, vec![("y", "a", -1.0), ("x", "b", 147.5)]);
/// ```
pub fn out_of_range(spec: &ModelSpec, matrix: &ScoreMatrix, scale: Scale) -> Vec<OutOfRange> {
    let mut out = Vec::new();
    for c in &spec.constructs {
        for ind in &c.indicators {
            let Some(col) = matrix.column(ind) else {
                continue;
            };
            for (model, v) in matrix.models.iter().zip(&col.values) {
                if let Some(v) = *v {
                    if v < scale.low || v > scale.high {
                        out.push(OutOfRange {
                            model: model.clone(),
                            column: ind.clone(),
                            value: v,
                            low: scale.low,
                            high: scale.high,
                        });
                    }
                }
            }
        }
    }
    out
}

/// `matrix` with the given cells set missing.
fn without_cells(matrix: &ScoreMatrix, cells: &[OutOfRange]) -> ScoreMatrix {
    let mut m = matrix.clone();
    for cell in cells {
        let Some(i) = m.models.iter().position(|x| *x == cell.model) else {
            continue;
        };
        if let Some(col) = m.columns.iter_mut().find(|c| c.name == cell.column) {
            if let Some(v) = col.values.get_mut(i) {
                *v = None;
            }
        }
    }
    m
}

/// Outer weight and loading of one indicator.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OuterEntry {
    /// The construct the indicator belongs to.
    pub construct: String,
    /// Outer weight (standardized indicator, unit-variance composite).
    pub weight: f64,
    /// Outer loading (correlation of indicator and construct score).
    pub loading: f64,
}

/// One step of Algorithm 1.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PruneStep {
    /// The indicator removed.
    pub removed: String,
    /// Its construct.
    pub construct: String,
    /// `"vif"` (VIF above vif_max) or `"loading"` (|loading| below loading_min).
    pub reason: String,
    /// The VIF or loading that triggered the removal.
    pub value: f64,
    /// Diagnostics of the model *before* this removal.
    pub diagnostics: Diagnostics,
    /// Item VIFs before this removal.
    pub vif: BTreeMap<String, f64>,
    /// Outer loadings before this removal.
    pub loadings: BTreeMap<String, f64>,
}

/// Weighted overall and per-construct score of one model (seed 003, eq. 6-7):
/// `Σ |λ_i| s_i / Σ |λ_i|` over the raw task scores.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OverallScore {
    /// Over all task indicators.
    pub overall: f64,
    /// Per first-order construct (layer).
    pub by_construct: BTreeMap<String, f64>,
}

/// Correlation of the weighted overall score with the human column.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HumanAlignment {
    /// The human column.
    pub column: String,
    /// Pearson r with p-value.
    pub pearson: Correlation,
    /// Spearman ρ with p-value.
    pub spearman: Correlation,
}

/// Descriptives of the indicators (raw, as analysed) and construct scores.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Descriptives {
    /// Per indicator column (after missing-value handling).
    pub indicators: BTreeMap<String, Descriptive>,
    /// Per construct score.
    pub constructs: BTreeMap<String, Descriptive>,
}

/// Stage-1 structural results when the model has second-order constructs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FirstStage {
    /// Stage-1 path coefficients.
    pub paths: BTreeMap<String, f64>,
    /// Stage-1 R².
    pub r2: BTreeMap<String, f64>,
    /// Stage-1 iterations.
    pub iterations: usize,
}

/// A construct of the fitted model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ConstructInfo {
    /// Name.
    pub name: String,
    /// Mode A or B.
    pub mode: Mode,
    /// 1 (first-order) or 2 (second-order).
    pub order: u8,
    /// Indicators (items, or lower-order constructs for order 2), after pruning.
    pub indicators: Vec<String>,
    /// Whether this is the human anchor.
    pub human: bool,
}

/// Everything `coglab sem` prints. The JSON field names are the CLI contract.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SemReport {
    /// Models analysed (after missing-value handling).
    pub n_models: usize,
    /// Models dropped by listwise deletion.
    pub dropped_models: Vec<String>,
    /// The loud warning when listwise deletion dropped more than
    /// [`crate::limits::LISTWISE_WARN_SHARE`] of the models (absent otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub listwise_warning: Option<ListwiseWarning>,
    /// Cells filled by mean imputation.
    pub imputed_cells: usize,
    /// Missing-value handling used.
    pub missing: Missing,
    /// Inner weighting scheme.
    pub scheme: Scheme,
    /// Outer-weight updates of the (final-stage) fit.
    pub iterations: usize,
    /// The constructs of the fitted model, in spec order.
    pub constructs: Vec<ConstructInfo>,
    /// Per indicator: construct, weight, loading.
    pub outer: BTreeMap<String, OuterEntry>,
    /// Stage-1 cross-loadings: indicator -> construct -> correlation.
    pub cross_loadings: BTreeMap<String, BTreeMap<String, f64>>,
    /// Path coefficients keyed `"From -> To"`.
    pub paths: BTreeMap<String, f64>,
    /// Total effects keyed `"From -> To"` (non-zero ones).
    pub total_effects: BTreeMap<String, f64>,
    /// R² of the endogenous constructs.
    pub r2: BTreeMap<String, f64>,
    /// Adjusted R²: `1 − (1 − R²)(n − 1)/(n − k − 1)`.
    pub r2_adj: BTreeMap<String, f64>,
    /// α, ρ_C, ρ_A, AVE per construct.
    pub reliability: BTreeMap<String, Reliability>,
    /// HTMT keyed `"A|B"` (A before B in spec order).
    pub htmt: BTreeMap<String, f64>,
    /// Fornell-Larcker matrix: √AVE on the diagonal, score correlations elsewhere.
    pub fornell_larcker: BTreeMap<String, BTreeMap<String, f64>>,
    /// Item VIFs (within each block).
    pub vif: BTreeMap<String, f64>,
    /// Inner VIFs of each path's predecessor among the target's predecessors, `"From -> To"`.
    pub inner_vif: BTreeMap<String, f64>,
    /// Gold's D_div, TC, D_valid and their mean.
    pub diagnostics: Diagnostics,
    /// Pruning steps (empty without `--prune`).
    pub pruning: Vec<PruneStep>,
    /// The HTMT formula of `htmt` and D_div.
    #[serde(default)]
    pub htmt_variant: HtmtVariant,
    /// The pruning procedure that ran (`null` without `--prune`).
    #[serde(default)]
    pub prune_variant: Option<PruneVariant>,
    /// Where the human column entered the model.
    #[serde(default)]
    pub arena_placement: ArenaPlacement,
    /// The stated scale the task cells were checked against (`null`: not checked).
    #[serde(default)]
    pub scale: Option<Scale>,
    /// Task cells outside `scale`.
    #[serde(default)]
    pub out_of_range: Vec<OutOfRange>,
    /// Whether the out-of-range cells were treated as missing (else fitted as given).
    #[serde(default)]
    pub out_of_range_excluded: bool,
    /// Weighted overall and per-construct scores per model.
    pub overall_scores: BTreeMap<String, OverallScore>,
    /// Standardized construct scores per model.
    pub construct_scores: BTreeMap<String, BTreeMap<String, f64>>,
    /// Stage-1 structural results for two-stage models.
    pub first_stage: Option<FirstStage>,
    /// Correlation of the overall score with the human column.
    pub human: Option<HumanAlignment>,
    /// Bootstrap results.
    pub bootstrap: Option<BootstrapReport>,
    /// Descriptive statistics.
    pub descriptives: Descriptives,
}

/// Listwise deletion dropped more than [`crate::limits::LISTWISE_WARN_SHARE`] of the models
/// (issue 27, defect 9: 4,974 of 5,000 models went without a word): how many, and how many
/// cells each analysed column is missing, so the user can see which columns cost the rows.
/// `coglab sem` prints it on stderr and the web app's Structure page shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ListwiseWarning {
    /// Models dropped.
    pub dropped: usize,
    /// Models in the file.
    pub total: usize,
    /// Models the analysis uses (`total - dropped`).
    pub used: usize,
    /// The share above which this warning is given ([`crate::limits::LISTWISE_WARN_SHARE`]).
    pub warn_share: f64,
    /// The analysed columns (indicators and the human column) with missing cells, most
    /// first (ties by name).
    pub missing_by_column: Vec<ColumnCost>,
}

/// One column's missing cells, in a [`ListwiseWarning`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ColumnCost {
    /// The column name.
    pub column: String,
    /// Its missing cells (each drops that model under listwise deletion).
    pub missing: usize,
}

impl std::fmt::Display for ListwiseWarning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let listed: Vec<String> = self
            .missing_by_column
            .iter()
            .map(|c| format!("{} {}", c.column, c.missing))
            .collect();
        write!(
            f,
            "listwise deletion dropped {} of {} models ({:.1}%), above the {:.0}% warning \
             share; the analysis uses {} models. Missing cells by column: {}",
            self.dropped,
            self.total,
            100.0 * self.dropped as f64 / self.total.max(1) as f64,
            100.0 * self.warn_share,
            self.used,
            listed.join(", ")
        )
    }
}

impl ListwiseWarning {
    /// The warning for `table` (built from `matrix`), or `None` when listwise deletion dropped
    /// at most [`crate::limits::LISTWISE_WARN_SHARE`] of the models.
    pub fn of(table: &Table, matrix: &ScoreMatrix) -> Option<Self> {
        let dropped = table.dropped.len();
        let total = dropped + table.models.len();
        let share = crate::limits::LISTWISE_WARN_SHARE;
        if total == 0 || (dropped as f64) <= share * total as f64 {
            return None;
        }
        let mut costs: Vec<ColumnCost> = table
            .names
            .iter()
            .filter_map(|name| {
                let missing = matrix
                    .column(name)?
                    .values
                    .iter()
                    .filter(|v| v.is_none())
                    .count();
                (missing > 0).then(|| ColumnCost {
                    column: name.clone(),
                    missing,
                })
            })
            .collect();
        costs.sort_by(|a, b| b.missing.cmp(&a.missing).then(a.column.cmp(&b.column)));
        Some(Self {
            dropped,
            total,
            used: table.models.len(),
            warn_share: share,
            missing_by_column: costs,
        })
    }
}

fn key(a: &str, b: &str) -> String {
    format!("{a} -> {b}")
}

/// Runs the whole analysis from the spec text and the data bytes (what the web worker and the
/// CLI call).
///
/// # Errors
/// Any [`SemError`]: unreadable data or spec (with file, line, field), unknown or duplicated
/// constructs / indicators, text or constant indicators, too few models, collinear blocks,
/// non-convergence, and [`SemError::Limit`] for a bootstrap count outside
/// [`crate::limits::MIN_BOOTSTRAP`]..=[`crate::limits::MAX_BOOTSTRAP`] or more than
/// [`crate::limits::MAX_ITERATIONS`] iterations.
pub fn analyze(
    spec_text: &str,
    spec_file: &str,
    data: &[u8],
    data_file: &str,
    opts: &SemOptions,
) -> Result<SemReport, SemError> {
    let spec = ModelSpec::parse(spec_text, spec_file)?;
    let matrix = ScoreMatrix::parse(data, data_file)?;
    analyze_parsed(&spec, &matrix, opts)
}

/// Checks the spec's columns against the data and returns the dense table.
pub(crate) fn prepare(
    spec: &ModelSpec,
    matrix: &ScoreMatrix,
    missing: Missing,
) -> Result<Table, SemError> {
    let mut names: Vec<String> = Vec::new();
    let available = || {
        matrix
            .columns
            .iter()
            .map(|c| c.name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    for c in &spec.constructs {
        for (k, ind) in c.indicators.iter().enumerate() {
            if matrix.column(ind).is_none() {
                let _ = k;
                return Err(SemError::UnknownIndicator {
                    at: spec.at(ind, 0, &format!("constructs.{}", c.name)),
                    indicator: ind.clone(),
                    data: format!("{} (columns: {})", matrix.file, available()),
                });
            }
            names.push(ind.clone());
        }
    }
    if let Some(h) = &spec.human_column {
        if matrix.column(h).is_none() {
            return Err(SemError::Spec {
                at: spec.at(h, 0, "human_column"),
                message: format!(
                    "human column \"{h}\" is not a column of {} (columns: {})",
                    matrix.file,
                    available()
                ),
            });
        }
        if !names.contains(h) {
            names.push(h.clone());
        }
    }
    matrix.table(&names, missing)
}

/// Standardized columns (sample SD) and their correlation matrix.
pub(crate) fn standardize(table: &Table, file: &str) -> Result<(Vec<Vec<f64>>, Matrix), SemError> {
    let cols: Vec<&[f64]> = table.columns.iter().map(Vec::as_slice).collect();
    let r = correlation_matrix(&cols).map_err(|e| match e {
        LinalgError::ZeroVariance { column } => SemError::ConstantIndicator {
            file: file.to_string(),
            column: table.names[column].clone(),
            n: table.models.len(),
        },
        _ => SemError::TooFewModels {
            file: file.to_string(),
            needed: 3,
            found: table.models.len(),
            reason: "correlations need at least 3".into(),
        },
    })?;
    let n = table.models.len() as f64;
    let z = table
        .columns
        .iter()
        .map(|c| {
            // z is scale-free: computed at a power-of-two scale (exact), see linalg.
            let (c, _) = crate::stats::describe::scaled(c);
            let m = c.iter().sum::<f64>() / n;
            let sd = (c.iter().map(|v| (v - m) * (v - m)).sum::<f64>() / (n - 1.0)).sqrt();
            c.iter().map(|v| (v - m) / sd).collect()
        })
        .collect();
    Ok((z, r))
}

fn needed_models(plan: &Plan) -> (usize, String) {
    let mut needed = (3, "correlations need at least 3".to_string());
    let (st, _) = plan.final_structure();
    for (j, p) in st.preds.iter().enumerate() {
        if p.len() + 2 > needed.0 {
            needed = (
                p.len() + 2,
                format!(
                    "construct \"{}\" has {} predecessors",
                    st.blocks[j].name,
                    p.len()
                ),
            );
        }
    }
    for b in plan
        .st1
        .blocks
        .iter()
        .chain(plan.stage2.iter().flat_map(|s| s.st.blocks.iter()))
    {
        if b.mode == Mode::B && b.items.len() + 1 > needed.0 {
            needed = (
                b.items.len() + 1,
                format!(
                    "Mode B construct \"{}\" has {} indicators",
                    b.name,
                    b.items.len()
                ),
            );
        }
    }
    needed
}

/// Pruning by [`PruneVariant`]. *Stepwise* (ours): refit, remove the single worst task,
/// repeat; VIF first (largest above `vif_max`), then loadings (smallest |λ| below
/// `loading_min`); a construct never drops below `min_indicators`. *Algorithm 1* (seed 003 as
/// printed): each pass fits once and removes every task above `vif_max` and every task below
/// `loading_min` (one [`PruneStep`] each, all with the pass's figures), no floor. The human
/// anchor is never removed.
pub(crate) fn prune(
    spec: &ModelSpec,
    table: &Table,
    r_full: &Matrix,
    max_iterations: usize,
    opts: &SemOptions,
) -> Result<(BTreeSet<String>, Vec<PruneStep>), SemError> {
    if opts.prune_variant == PruneVariant::Algorithm1 {
        return prune_algorithm1(spec, table, r_full, max_iterations, opts);
    }
    let th = spec.thresholds;
    let mut excluded = BTreeSet::new();
    let mut steps = Vec::new();
    loop {
        let plan = plan_for(spec, table, &excluded, max_iterations, opts);
        let r1 = r_full.select(&plan.items, &plan.items);
        let est = plan.estimate(&r1)?;
        let (diag, vifs, measured) = plan.diagnostics(&r1, &est)?;
        let size = |construct: &str| {
            measured
                .iter()
                .filter(|m| m.task && m.construct == construct)
                .count()
        };
        let eligible: Vec<&Measured> = measured
            .iter()
            .filter(|m| m.task && m.block1.is_some() && size(&m.construct) > th.min_indicators)
            .collect();
        let by_vif = eligible
            .iter()
            .filter_map(|m| vifs.get(&m.name).map(|v| (*m, *v)))
            .filter(|(_, v)| *v > th.vif_max)
            .max_by(|a, b| a.1.total_cmp(&b.1));
        let pick = match by_vif {
            Some((m, v)) => Some((m, "vif", v)),
            None => eligible
                .iter()
                .filter(|m| m.loading.abs() < th.loading_min)
                .min_by(|a, b| a.loading.abs().total_cmp(&b.loading.abs()))
                .map(|m| (*m, "loading", m.loading)),
        };
        let Some((m, reason, value)) = pick else {
            return Ok((excluded, steps));
        };
        steps.push(PruneStep {
            removed: m.name.clone(),
            construct: m.construct.clone(),
            reason: reason.into(),
            value,
            diagnostics: diag,
            vif: vifs,
            loadings: measured
                .iter()
                .filter(|x| x.task)
                .map(|x| (x.name.clone(), x.loading))
                .collect(),
        });
        excluded.insert(m.name.clone());
    }
}

/// Seed 003's Algorithm 1 as printed (see [`prune`]).
fn prune_algorithm1(
    spec: &ModelSpec,
    table: &Table,
    r_full: &Matrix,
    max_iterations: usize,
    opts: &SemOptions,
) -> Result<(BTreeSet<String>, Vec<PruneStep>), SemError> {
    let th = spec.thresholds;
    let mut excluded = BTreeSet::new();
    let mut steps = Vec::new();
    for pass in 1.. {
        let plan = plan_for(spec, table, &excluded, max_iterations, opts);
        let r1 = r_full.select(&plan.items, &plan.items);
        let est = plan.estimate(&r1)?;
        let (diag, vifs, measured) = plan.diagnostics(&r1, &est)?;
        let tasks: Vec<&Measured> = measured
            .iter()
            .filter(|m| m.task && m.block1.is_some())
            .collect();
        let loadings: BTreeMap<String, f64> =
            tasks.iter().map(|x| (x.name.clone(), x.loading)).collect();
        let mut removed: Vec<(&Measured, &str, f64)> = Vec::new();
        for m in &tasks {
            if let Some(&v) = vifs.get(&m.name).filter(|v| **v > th.vif_max) {
                removed.push((m, "vif", v));
            }
        }
        for m in &tasks {
            if m.loading.abs() < th.loading_min && !removed.iter().any(|(x, _, _)| x.name == m.name)
            {
                removed.push((m, "loading", m.loading));
            }
        }
        if removed.is_empty() {
            break;
        }
        for (m, reason, value) in &removed {
            steps.push(PruneStep {
                removed: m.name.clone(),
                construct: m.construct.clone(),
                reason: (*reason).into(),
                value: *value,
                diagnostics: diag,
                vif: vifs.clone(),
                loadings: loadings.clone(),
            });
            excluded.insert(m.name.clone());
        }
        // No floor: a pass may empty a construct, which cannot then be estimated.
        for c in &spec.constructs {
            if c.indicators.iter().all(|i| excluded.contains(i)) {
                return Err(SemError::Spec {
                    at: spec.at(&c.name, 0, &format!("constructs.{}", c.name)),
                    message: format!(
                        "Algorithm 1 as printed (no floor) removed every indicator of construct \"{}\" in pass {pass} ({}); use the stepwise pruning or lower the thresholds",
                        c.name,
                        c.indicators.join(", ")
                    ),
                });
            }
        }
    }
    Ok((excluded, steps))
}

/// The paper's Arena placement needs a human column that is not an indicator, exactly one
/// second-order construct, and paths that leave the human column alone.
fn check_arena(spec: &ModelSpec, opts: &SemOptions) -> Result<(), SemError> {
    if opts.arena != ArenaPlacement::TopIndicator {
        return Ok(());
    }
    let problem = match spec.human_anchor() {
        None => Some((
            "human_column",
            "a human column that is not a task indicator".to_string(),
        )),
        Some(h) if spec.paths.iter().any(|(f, t)| f == h || t == h) => Some((
            "paths",
            format!("paths that do not name the human column \"{h}\""),
        )),
        Some(_) if spec.second_order.len() != 1 => Some((
            "second_order",
            format!(
                "exactly one second-order construct (found {})",
                spec.second_order.len()
            ),
        )),
        Some(_) => None,
    };
    match problem {
        None => Ok(()),
        Some((field, needs)) => Err(SemError::Spec {
            at: spec.at(
                spec.human_column.as_deref().unwrap_or(field),
                0,
                field,
            ),
            message: format!(
                "the paper's Arena placement (an indicator of the top-level construct) needs {needs}"
            ),
        }),
    }
}

/// Runs the analysis on an already parsed spec and matrix.
///
/// # Errors
/// As [`analyze`].
pub fn analyze_parsed(
    spec: &ModelSpec,
    matrix: &ScoreMatrix,
    opts: &SemOptions,
) -> Result<SemReport, SemError> {
    analyze_parsed_with_progress(spec, matrix, opts, &mut |_, _| {})
}

/// As [`analyze_parsed`], calling `on_progress(done, total)` during the bootstrap (every
/// [`super::bootstrap::PROGRESS_EVERY`] resamples and once at the end), e.g. to drive a
/// progress bar in the web worker.
///
/// # Errors
/// As [`analyze`].
pub fn analyze_parsed_with_progress(
    spec: &ModelSpec,
    matrix: &ScoreMatrix,
    opts: &SemOptions,
    on_progress: &mut dyn FnMut(usize, usize),
) -> Result<SemReport, SemError> {
    let max_iterations = opts.max_iterations.unwrap_or(spec.max_iterations);
    check("max_iterations", max_iterations as u64, 1, MAX_ITERATIONS)?;
    if let Some(b) = &opts.bootstrap {
        check(
            "bootstrap",
            b.resamples as u64,
            MIN_BOOTSTRAP,
            MAX_BOOTSTRAP,
        )?;
    }
    check_arena(spec, opts)?;
    let out_of_range = opts
        .scale
        .map(|s| out_of_range(spec, matrix, s))
        .unwrap_or_default();
    let cleaned;
    let matrix = if opts.exclude_out_of_range && !out_of_range.is_empty() {
        cleaned = without_cells(matrix, &out_of_range);
        &cleaned
    } else {
        matrix
    };
    let table = prepare(spec, matrix, opts.missing)?;
    if let Some(b) = &opts.bootstrap {
        // Each resample refits the model on a resampled table (100,000 resamples of 20,000
        // models would take minutes).
        crate::limits::check_draws(
            "bootstrap",
            b.resamples,
            table.models.len() * table.names.len(),
            "cells (models x columns)",
        )?;
    }
    let full_plan = plan_for(spec, &table, &BTreeSet::new(), max_iterations, opts);
    let (needed, reason) = needed_models(&full_plan);
    if table.models.len() < needed {
        return Err(SemError::TooFewModels {
            file: matrix.file.clone(),
            needed,
            found: table.models.len(),
            reason,
        });
    }
    let (z, r_full) = standardize(&table, &matrix.file)?;
    let (excluded, pruning) = if opts.prune {
        prune(spec, &table, &r_full, max_iterations, opts)?
    } else {
        (BTreeSet::new(), Vec::new())
    };
    let plan = plan_for(spec, &table, &excluded, max_iterations, opts);
    let r1 = r_full.select(&plan.items, &plan.items);
    let est = plan.estimate(&r1)?;
    let (diagnostics, mut vif, measured) = plan.diagnostics(&r1, &est)?;
    let n = table.models.len();

    // Constructs.
    let mut constructs = Vec::new();
    for (i, b) in plan.st1.blocks.iter().enumerate() {
        if plan.arena_top && plan.human1[i] {
            // An indicator of the second-order construct here, not a construct.
            continue;
        }
        constructs.push(ConstructInfo {
            name: b.name.clone(),
            mode: b.mode,
            order: 1,
            indicators: b
                .items
                .iter()
                .map(|&k| plan.item_names[k].clone())
                .collect(),
            human: plan.human1[i],
        });
    }
    if let Some(s2) = &plan.stage2 {
        for (j, b) in s2.st.blocks.iter().enumerate() {
            if s2.order[j] == 2 {
                constructs.push(ConstructInfo {
                    name: b.name.clone(),
                    mode: b.mode,
                    order: 2,
                    indicators: b.items.iter().map(|&q| s2.names[q].clone()).collect(),
                    human: false,
                });
            }
        }
    }

    // Outer model.
    let outer: BTreeMap<String, OuterEntry> = measured
        .iter()
        .map(|m| {
            (
                m.name.clone(),
                OuterEntry {
                    construct: m.construct.clone(),
                    weight: m.weight,
                    loading: m.loading,
                },
            )
        })
        .collect();
    let mut cross_loadings = BTreeMap::new();
    for (k, name) in plan.item_names.iter().enumerate() {
        let row: BTreeMap<String, f64> = plan
            .st1
            .blocks
            .iter()
            .enumerate()
            .map(|(i, b)| (b.name.clone(), est.fit1.t[i][k]))
            .collect();
        cross_loadings.insert(name.clone(), row);
    }

    // Structural model (final stage).
    let (st, _) = plan.final_structure();
    let c_final = match &est.stage2 {
        Some((_, f2)) => &f2.c,
        None => &est.fit1.c,
    };
    let m = st.blocks.len();
    let mut bmat = Matrix::zeros(m, m);
    let mut paths = BTreeMap::new();
    let mut r2 = BTreeMap::new();
    let mut r2_adj = BTreeMap::new();
    let mut inner_vif = BTreeMap::new();
    for j in 0..m {
        let Some(rsq) = est.r2[j] else { continue };
        let k = st.preds[j].len();
        for (&i, &b) in st.preds[j].iter().zip(&est.betas[j]) {
            bmat[(i, j)] = b;
            paths.insert(key(&st.blocks[i].name, &st.blocks[j].name), b);
        }
        r2.insert(st.blocks[j].name.clone(), rsq);
        r2_adj.insert(
            st.blocks[j].name.clone(),
            1.0 - (1.0 - rsq) * (n as f64 - 1.0) / (n as f64 - k as f64 - 1.0),
        );
        let cpp = c_final.select(&st.preds[j], &st.preds[j]);
        let inv = crate::linalg::inverse_spd(&cpp).map_err(|_| SemError::SingularPaths {
            construct: st.blocks[j].name.clone(),
            predecessor: String::new(),
            others: String::new(),
        })?;
        for (a, &i) in st.preds[j].iter().enumerate() {
            inner_vif.insert(key(&st.blocks[i].name, &st.blocks[j].name), inv[(a, a)]);
        }
    }
    let te = quality::total_effects(&bmat);
    let mut total_effects = BTreeMap::new();
    for i in 0..m {
        for j in 0..m {
            if te[(i, j)] != 0.0 {
                total_effects.insert(key(&st.blocks[i].name, &st.blocks[j].name), te[(i, j)]);
            }
        }
    }
    let first_stage = plan.stage2.as_ref().map(|_| {
        let mut p = BTreeMap::new();
        let mut rr = BTreeMap::new();
        for j in 0..plan.st1.blocks.len() {
            let preds = &plan.st1.preds[j];
            if preds.is_empty() {
                continue;
            }
            if let Ok(b) = regress(&est.fit1.c, preds, j) {
                let rsq: f64 = preds
                    .iter()
                    .zip(&b)
                    .map(|(&i, bi)| bi * est.fit1.c[(i, j)])
                    .sum();
                for (&i, bi) in preds.iter().zip(b) {
                    p.insert(key(&plan.st1.blocks[i].name, &plan.st1.blocks[j].name), bi);
                }
                rr.insert(plan.st1.blocks[j].name.clone(), rsq);
            }
        }
        FirstStage {
            paths: p,
            r2: rr,
            iterations: est.fit1.iterations,
        }
    });

    // Reliability, HTMT, Fornell-Larcker.
    let mut reliability = BTreeMap::new();
    let rel_of = |r: &Matrix, b: &Block, w: &[f64], t: &[f64]| {
        let l: Vec<f64> = b.items.iter().map(|&k| t[k]).collect();
        quality::reliability(r, &b.items, w, &l, b.mode)
    };
    for (i, b) in plan.st1.blocks.iter().enumerate() {
        let from_stage2 = !plan.loc1[i] && plan.stage2.is_some();
        if !from_stage2 {
            reliability.insert(
                b.name.clone(),
                rel_of(&r1, b, &est.fit1.weights[i], &est.fit1.t[i]),
            );
        }
    }
    if let (Some(s2), Some((r2m, f2))) = (&plan.stage2, &est.stage2) {
        for (j, b) in s2.st.blocks.iter().enumerate() {
            reliability.insert(b.name.clone(), rel_of(r2m, b, &f2.weights[j], &f2.t[j]));
        }
    }
    let mut htmt: BTreeMap<String, f64> = plan.task_htmt(&r1).into_iter().collect();
    // Pairs with the human anchor (stage 1) and with second-order constructs (stage 2).
    for (a, ba) in plan.st1.blocks.iter().enumerate() {
        for (b, bb) in plan.st1.blocks.iter().enumerate().skip(a + 1) {
            if plan.human1[a] || plan.human1[b] {
                if let Some(h) = quality::htmt(&r1, &ba.items, &bb.items, plan.htmt) {
                    htmt.insert(format!("{}|{}", ba.name, bb.name), h);
                }
            }
        }
    }
    if let (Some(s2), Some((r2m, _))) = (&plan.stage2, &est.stage2) {
        let bl = &s2.st.blocks;
        for a in 0..bl.len() {
            for b in a + 1..bl.len() {
                if s2.order[a] == 2 || s2.order[b] == 2 {
                    if let Some(h) = quality::htmt(r2m, &bl[a].items, &bl[b].items, plan.htmt) {
                        htmt.insert(format!("{}|{}", bl[a].name, bl[b].name), h);
                    }
                }
            }
        }
        // VIFs of the second-order constructs' indicators (lower-order construct scores).
        for (j, b) in bl.iter().enumerate() {
            if s2.order[j] == 2 {
                let v = quality::item_vifs(r2m, &b.items).map_err(|pivot| SemError::Collinear {
                    construct: b.name.clone(),
                    purpose: "item VIF".into(),
                    indicator: s2.names[b.items[pivot]].clone(),
                    others: b.items[..pivot]
                        .iter()
                        .map(|&q| format!("\"{}\"", s2.names[q]))
                        .collect::<Vec<_>>()
                        .join(", "),
                })?;
                for (&q, x) in b.items.iter().zip(v) {
                    vif.insert(s2.names[q].clone(), x);
                }
            }
        }
    }
    // The human anchor's VIF (single indicator: 1).
    for (i, b) in plan.st1.blocks.iter().enumerate() {
        if plan.human1[i] {
            vif.insert(plan.item_names[b.items[0]].clone(), 1.0);
        }
    }
    let mut fornell_larcker = BTreeMap::new();
    for (i, bi) in plan.st1.blocks.iter().enumerate() {
        let mut row = BTreeMap::new();
        for (j, bj) in plan.st1.blocks.iter().enumerate() {
            let v = if i == j {
                reliability.get(&bi.name).map_or(1.0, |r| r.ave.sqrt())
            } else {
                est.fit1.c[(i, j)]
            };
            row.insert(bj.name.clone(), v);
        }
        fornell_larcker.insert(bi.name.clone(), row);
    }

    // Construct scores: stage-1 composites, replaced by the final stage where re-estimated.
    let mut scores: Vec<(String, Vec<f64>)> = Vec::new();
    let composite = |items: &[usize], w: &[f64], cols: &dyn Fn(usize) -> Vec<f64>| -> Vec<f64> {
        let mut s = vec![0.0; n];
        for (&k, wk) in items.iter().zip(w) {
            for (acc, v) in s.iter_mut().zip(cols(k)) {
                *acc += wk * v;
            }
        }
        s
    };
    let item_col = |k: usize| z[plan.items[k]].clone();
    let s1: Vec<Vec<f64>> = plan
        .st1
        .blocks
        .iter()
        .enumerate()
        .map(|(i, b)| composite(&b.items, &est.fit1.weights[i], &item_col))
        .collect();
    match (&plan.stage2, &est.stage2) {
        (Some(s2), Some((_, f2))) => {
            for (i, b) in plan.st1.blocks.iter().enumerate() {
                if plan.loc1[i] {
                    scores.push((b.name.clone(), s1[i].clone()));
                }
            }
            let ind_col = |q: usize| match s2.inds[q] {
                Ind2::Item(k) => z[plan.items[k]].clone(),
                Ind2::Score(i) => s1[i].clone(),
            };
            for (j, b) in s2.st.blocks.iter().enumerate() {
                scores.push((
                    b.name.clone(),
                    composite(&b.items, &f2.weights[j], &ind_col),
                ));
            }
        }
        _ => {
            for (i, b) in plan.st1.blocks.iter().enumerate() {
                scores.push((b.name.clone(), s1[i].clone()));
            }
        }
    }
    let mut construct_scores = BTreeMap::new();
    for (i, model) in table.models.iter().enumerate() {
        let row: BTreeMap<String, f64> = scores
            .iter()
            .map(|(name, s)| (name.clone(), s[i]))
            .collect();
        construct_scores.insert(model.clone(), row);
    }

    // Weighted overall scores on the raw task scores.
    let raw = |name: &str| &table.columns[table.names.iter().position(|t| t == name).unwrap_or(0)];
    let tasks: Vec<(&Measured, &[f64])> = measured
        .iter()
        .filter(|m| m.task)
        .map(|m| (m, raw(&m.name).as_slice()))
        .collect();
    let task_blocks: Vec<(usize, &str)> = plan
        .st1
        .blocks
        .iter()
        .enumerate()
        .filter(|(bi, _)| !plan.human1[*bi])
        .map(|(bi, b)| (bi, b.name.as_str()))
        .collect();
    let mut overall_scores = BTreeMap::new();
    let mut overall_vec = Vec::with_capacity(n);
    for (i, model) in table.models.iter().enumerate() {
        let (mut num, mut den) = (0.0, 0.0);
        let mut per_block = vec![(0.0, 0.0); plan.st1.blocks.len()];
        for (t, col) in &tasks {
            let l = t.loading.abs();
            num += l * col[i];
            den += l;
            if let Some(bi) = t.block1 {
                per_block[bi].0 += l * col[i];
                per_block[bi].1 += l;
            }
        }
        let ratio = |(a, b): (f64, f64)| if b > 0.0 { a / b } else { 0.0 };
        let overall = ratio((num, den));
        let by_construct = task_blocks
            .iter()
            .map(|&(bi, name)| (name.to_string(), ratio(per_block[bi])))
            .collect();
        overall_vec.push(overall);
        overall_scores.insert(
            model.clone(),
            OverallScore {
                overall,
                by_construct,
            },
        );
    }
    let human = match &spec.human_column {
        Some(h) => {
            let hv = raw(h);
            let what = format!("correlation of the overall score with \"{h}\"");
            Some(HumanAlignment {
                column: h.clone(),
                pearson: pearson(&overall_vec, hv).map_err(|source| SemError::Stats {
                    what: what.clone(),
                    source,
                })?,
                spearman: spearman(&overall_vec, hv)
                    .map_err(|source| SemError::Stats { what, source })?,
            })
        }
        None => None,
    };

    // Descriptives.
    let mut descriptives = Descriptives::default();
    for name in &plan.item_names {
        if let Ok(d) = describe_values(raw(name)) {
            descriptives.indicators.insert(name.clone(), d);
        }
    }
    for (name, s) in &scores {
        if let Ok(d) = describe_values(s) {
            descriptives.constructs.insert(name.clone(), d);
        }
    }

    let bootstrap = match &opts.bootstrap {
        Some(b) => Some(run_bootstrap(&plan, &est, &table, &z, b, on_progress)?),
        None => None,
    };

    Ok(SemReport {
        n_models: n,
        dropped_models: table.dropped.clone(),
        listwise_warning: ListwiseWarning::of(&table, matrix),
        imputed_cells: table.imputed,
        missing: opts.missing,
        scheme: spec.scheme,
        iterations: est
            .stage2
            .as_ref()
            .map_or(est.fit1.iterations, |(_, f)| f.iterations),
        constructs,
        outer,
        cross_loadings,
        paths,
        total_effects,
        r2,
        r2_adj,
        reliability,
        htmt,
        fornell_larcker,
        vif,
        inner_vif,
        diagnostics,
        pruning,
        htmt_variant: opts.htmt,
        prune_variant: opts.prune.then_some(opts.prune_variant),
        arena_placement: if plan.arena_top {
            ArenaPlacement::TopIndicator
        } else {
            ArenaPlacement::Construct
        },
        scale: opts.scale,
        out_of_range,
        out_of_range_excluded: opts.exclude_out_of_range,
        overall_scores,
        construct_scores,
        first_stage,
        human,
        bootstrap,
        descriptives,
    })
}
/// The compiled model for `table` without the `excluded` indicators, under `opts`' HTMT
/// formula and human-column placement (every fit, pruning pass and bootstrap plan is built so).
fn plan_for(
    spec: &ModelSpec,
    table: &Table,
    excluded: &BTreeSet<String>,
    max_iterations: usize,
    opts: &SemOptions,
) -> Plan {
    Plan::build(
        spec,
        &table.names,
        excluded,
        max_iterations,
        opts.htmt,
        opts.arena == ArenaPlacement::TopIndicator,
    )
}
