//! The benchmark quality panel (issue 40, item 3): per benchmark and per category, how
//! reliably its items measure the models on a board and the smallest difference it can tell
//! apart, with a plain warning for categories too small to separate the models shown.
//!
//! Input: a board's models with their item scores ([`ModelScores`]: one 0/1 per MM-IQ item,
//! a KiVA trial's regenerations) and each item's category. A model's score on a set of items
//! is the mean over the items it answered of the item's mean over its replicates (items it did
//! not answer are left out, not counted wrong). For the whole benchmark and for each category:
//!
//! - **items**: the benchmark's items in the set (with [`QualityInput::benchmark_items`], else
//!   the items any model answered);
//! - **reliability**: Cronbach's alpha over the models that answered every item of the set
//!   that any model answered (complete cases), `k/(k-1) (1 - Σ s²_j / s²_T)` with sample
//!   variances; on 0/1 items this is KR-20 (`reliability_kind` says which). The models are the
//!   respondents, so on a board of a few models it is itself uncertain;
//! - **SEM**, the standard error of measurement: `SD · √(1 - reliability)`, with SD the sample
//!   SD of the complete cases' scores (proportions), given for reliabilities in [0, 1];
//! - **signal**: the sample SD of the models' scores;
//! - **noise**: how much a model's score would move if measured again. Per model either the
//!   bootstrap SD over items, `√(Σ (x_i - x̄)²) / n` over its `n` item scores (the exact SD of
//!   the mean under resampling items with replacement, the limit of infinitely many
//!   resamples, so no random draws), or, when every item has regenerations (KiVA), the
//!   regeneration SD `√(s²_w Σ_i 1/K_i) / n`, with `s²_w` the pooled within-item variance of
//!   the replicates (`Σ_i Σ_r (y_ir - ȳ_i)² / Σ_i (K_i - 1)`) and `K_i` item `i`'s replicates:
//!   the SD of the shown score (the mean of item means) over a new draw of the regenerations,
//!   items fixed. The row's noise is the root mean square over the models (regeneration when
//!   every model has replicates, else bootstrap; both are given);
//! - **ratio**: signal / noise (Heineman et al. 2025's signal-to-noise ratio, with the SD of
//!   the scores as the signal);
//! - **MDD**, the smallest difference the set can tell apart with all its items at the board's
//!   α and power ([`super::power`]): Connor's formula for McNemar boards (MM-IQ) with ψ the
//!   median over model pairs of their discordant share on shared items, the paired normal
//!   formula for score boards (KiVA, MM-OPERA) with the median SD of item differences (sample
//!   SD), and `n` the set's items;
//! - **warning**, when the MDD is larger than the spread of the models' scores (highest minus
//!   lowest) or no difference can be detected: no pair of the models shown is as far apart as
//!   the set can tell, e.g. `Visual Instruction: 38 items, can tell apart only 20+ points`.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::board::{Bench, BoardInput, ModelScores, PairTest};
use super::inputs::{kiva_items, kiva_trial_id, mmiq_benchmark_items, mmiq_items, mmopera_items};
use super::power::{mcnemar_mdd, paired_mdd};
use super::view::{RankEntry, RankRequest, RankSource};
use crate::mmopera::Task;

/// What the panel is built from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct QualityInput {
    /// The benchmark (its default test decides McNemar or paired MDD).
    pub bench: Bench,
    /// The models with their item scores.
    pub models: Vec<ModelScores>,
    /// Item id -> category (items without one count in the benchmark row only).
    pub categories: BTreeMap<String, String>,
    /// The benchmark's items, when known (else the items any model answered).
    pub benchmark_items: Option<Vec<String>>,
}

/// The board's settings the MDD uses.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct QualityOptions {
    /// Significance level, two-sided (default 0.05).
    pub alpha: f64,
    /// Power (default 0.8).
    pub power: f64,
}

impl Default for QualityOptions {
    fn default() -> Self {
        Self {
            alpha: 0.05,
            power: 0.8,
        }
    }
}

/// Where a row's noise comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NoiseKind {
    /// The bootstrap SD over items.
    Bootstrap,
    /// The SD over regenerations, items fixed.
    Regeneration,
}

/// One row of the panel: the whole benchmark or one category.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct QualityRow {
    /// The category (`None`: the whole benchmark).
    pub category: Option<String>,
    /// What the row is called (`all items` or the category).
    pub label: String,
    /// Items in the set.
    pub items: usize,
    /// Models with at least one answered item in the set.
    pub models: usize,
    /// KR-20 (0/1 items) or Cronbach's alpha; `None` with fewer than two complete models, one
    /// item, or no variance in the totals.
    pub reliability: Option<f64>,
    /// `kr20` or `alpha`.
    pub reliability_kind: String,
    /// Complete models the reliability was computed on.
    pub reliability_models: usize,
    /// Standard error of measurement (proportion): `SD · √(1 - reliability)`.
    pub sem: Option<f64>,
    /// Sample SD of the models' scores.
    pub signal: Option<f64>,
    /// The noise used for the ratio (see `noise_kind`).
    pub noise: Option<f64>,
    /// Which noise.
    pub noise_kind: NoiseKind,
    /// Root mean square over models of the bootstrap SD of a model's score.
    pub bootstrap_sd: Option<f64>,
    /// Root mean square over models of the regeneration SD (every model with replicates).
    pub regeneration_sd: Option<f64>,
    /// `signal / noise`.
    pub ratio: Option<f64>,
    /// Lowest and highest model score.
    pub score_range: Option<(f64, f64)>,
    /// The median spread over model pairs: discordant share ψ (McNemar) or SD of item
    /// differences.
    pub spread: Option<f64>,
    /// The smallest difference the set's items tell apart (`None`: none can be detected, or no
    /// pair shares an item).
    pub mdd: Option<f64>,
    /// The warning for a set too small to separate the models shown.
    pub warning: Option<String>,
}

/// The panel: the benchmark's row, then one per category (sorted by name).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct QualityPanel {
    /// The benchmark.
    pub bench: Bench,
    /// `mcnemar` (Connor's formula) or `paired_normal`.
    pub method: String,
    /// Significance level.
    pub alpha: f64,
    /// Power.
    pub power: f64,
    /// The whole benchmark.
    pub overall: QualityRow,
    /// Per category.
    pub categories: Vec<QualityRow>,
    /// The warnings of the rows, in order (the page lists them above the table).
    pub warnings: Vec<String>,
    /// Things the reader should know.
    pub notes: Vec<String>,
}

/// Per model, the item means of its answered items and their replicates, by item index.
struct Prepared<'a> {
    /// `[model][item]`: mean score, `None` not answered.
    means: Vec<Vec<Option<f64>>>,
    /// `[model][item]`: replicates.
    reps: Vec<Vec<Option<&'a [f64]>>>,
}

fn sample_var(xs: &[f64]) -> Option<f64> {
    crate::stats::describe::variance(xs, 1).ok()
}

/// Cronbach's alpha (KR-20 on 0/1) of the complete rows `rows[model][item]`.
fn alpha(rows: &[Vec<f64>]) -> Option<(f64, f64)> {
    let n = rows.len();
    let k = rows.first()?.len();
    if n < 2 || k < 2 {
        return None;
    }
    let sum_var: f64 = (0..k)
        .map(|j| sample_var(&rows.iter().map(|r| r[j]).collect::<Vec<_>>()))
        .sum::<Option<f64>>()?;
    let totals: Vec<f64> = rows.iter().map(|r| r.iter().sum()).collect();
    let var_t = sample_var(&totals)?;
    if var_t <= 0.0 {
        return None;
    }
    let a = k as f64 / (k as f64 - 1.0) * (1.0 - sum_var / var_t);
    // The SD of the proportion scores.
    Some((a, var_t.sqrt() / k as f64))
}

/// The bootstrap SD of the mean of `xs`: `√(Σ (x - x̄)²) / n`.
fn bootstrap_sd(xs: &[f64]) -> Option<f64> {
    if xs.is_empty() {
        return None;
    }
    let n = xs.len() as f64;
    let m = xs.iter().sum::<f64>() / n;
    Some(xs.iter().map(|x| (x - m) * (x - m)).sum::<f64>().sqrt() / n)
}

/// The regeneration SD of the mean of item means: `√(s²_w Σ 1/K_i) / n`, `None` unless every
/// item has at least two replicates.
fn regeneration_sd(reps: &[&[f64]]) -> Option<f64> {
    if reps.is_empty() || reps.iter().any(|r| r.len() < 2) {
        return None;
    }
    let (mut ss, mut df, mut inv_k) = (0.0, 0usize, 0.0);
    for r in reps {
        let m = r.iter().sum::<f64>() / r.len() as f64;
        ss += r.iter().map(|y| (y - m) * (y - m)).sum::<f64>();
        df += r.len() - 1;
        inv_k += 1.0 / r.len() as f64;
    }
    Some((ss / df as f64 * inv_k).sqrt() / reps.len() as f64)
}

fn rms(xs: &[f64]) -> Option<f64> {
    (!xs.is_empty()).then(|| (xs.iter().map(|x| x * x).sum::<f64>() / xs.len() as f64).sqrt())
}

fn median(xs: &[f64]) -> Option<f64> {
    crate::stats::describe::median(xs).ok()
}

/// The row of the items `cols` (indices into the prepared items), `items` the set's size.
fn row(
    prep: &Prepared<'_>,
    cols: &[usize],
    items: usize,
    category: Option<&str>,
    mcnemar: bool,
    opts: &QualityOptions,
) -> QualityRow {
    let label = category.unwrap_or("all items").to_string();
    // Items any model answered.
    let answered: Vec<usize> = cols
        .iter()
        .copied()
        .filter(|&j| prep.means.iter().any(|m| m[j].is_some()))
        .collect();
    let binary = answered.iter().all(|&j| {
        prep.reps
            .iter()
            .all(|m| m[j].is_none_or(|r| r.len() == 1 && (r[0] == 0.0 || r[0] == 1.0)))
    });
    let mut scores = Vec::new();
    let mut boot = Vec::new();
    let mut regen = Vec::new();
    let mut complete = Vec::new();
    for (means, reps) in prep.means.iter().zip(&prep.reps) {
        let xs: Vec<f64> = answered.iter().filter_map(|&j| means[j]).collect();
        if xs.is_empty() {
            continue;
        }
        scores.push(xs.iter().sum::<f64>() / xs.len() as f64);
        boot.extend(bootstrap_sd(&xs));
        let r: Vec<&[f64]> = answered.iter().filter_map(|&j| reps[j]).collect();
        regen.push(regeneration_sd(&r));
        if xs.len() == answered.len() {
            complete.push(xs);
        }
    }
    let rel = alpha(&complete);
    let reliability = rel.map(|r| r.0);
    let sem = rel.and_then(|(a, sd)| (0.0..=1.0).contains(&a).then(|| sd * (1.0 - a).sqrt()));
    let signal = sample_var(&scores).map(f64::sqrt);
    let bootstrap_sd = rms(&boot);
    let regeneration_sd = if !regen.is_empty() && regen.iter().all(Option::is_some) {
        rms(&regen.iter().flatten().copied().collect::<Vec<_>>())
    } else {
        None
    };
    let (noise, noise_kind) = match regeneration_sd {
        Some(r) => (Some(r), NoiseKind::Regeneration),
        None => (bootstrap_sd, NoiseKind::Bootstrap),
    };
    let ratio = match (signal, noise) {
        (Some(s), Some(n)) if n > 0.0 => Some(s / n),
        _ => None,
    };
    let score_range = (scores.len() >= 2).then(|| {
        let lo = scores.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        (lo, hi)
    });
    // Pairs: spread on shared items.
    let mut spreads = Vec::new();
    for a in 0..prep.means.len() {
        for b in a + 1..prep.means.len() {
            let shared: Vec<(f64, f64)> = answered
                .iter()
                .filter_map(|&j| Some((prep.means[a][j]?, prep.means[b][j]?)))
                .collect();
            if shared.is_empty() {
                continue;
            }
            if mcnemar {
                let disc = shared.iter().filter(|(x, y)| (x - y).abs() > 0.5).count();
                spreads.push(disc as f64 / shared.len() as f64);
            } else if shared.len() >= 2 {
                let d: Vec<f64> = shared.iter().map(|(x, y)| x - y).collect();
                spreads.extend(sample_var(&d).map(f64::sqrt));
            }
        }
    }
    let spread = median(&spreads);
    let mdd = spread.and_then(|s| {
        if mcnemar {
            mcnemar_mdd(items, s, opts.alpha, opts.power)
        } else {
            paired_mdd(items, s, opts.alpha, opts.power)
        }
    });
    let warning = match (spread, mdd, score_range) {
        (Some(_), None, Some(_)) => Some(format!(
            "{label}: {items} items, cannot tell apart any difference at {:.0}% power",
            opts.power * 100.0
        )),
        (_, Some(d), Some((lo, hi))) if d > hi - lo => Some(format!(
            "{label}: {items} items, can tell apart only {}+ points (the models shown span {:.1})",
            (d * 100.0).ceil(),
            (hi - lo) * 100.0
        )),
        _ => None,
    };
    QualityRow {
        category: category.map(str::to_string),
        label,
        items,
        models: scores.len(),
        reliability,
        reliability_kind: if binary { "kr20" } else { "alpha" }.into(),
        reliability_models: complete.len(),
        sem,
        signal,
        noise,
        noise_kind,
        bootstrap_sd,
        regeneration_sd,
        ratio,
        score_range,
        spread,
        mdd,
        warning,
    }
}

/// The quality panel of a board (see the module documentation). `mcnemar` follows the
/// benchmark's default test ([`Bench::default_test`]).
///
/// # Examples
/// ```
/// use coglab_core::ranks::quality::{quality, QualityInput, QualityOptions};
/// use coglab_core::ranks::{Bench, ModelScores};
/// let model = |name: &str, v: [f64; 3]| ModelScores {
///     name: name.into(),
///     source: String::new(),
///     items: ["a", "b", "c"].iter().zip(v).map(|(i, x)| (i.to_string(), vec![x])).collect(),
/// };
/// let input = QualityInput {
///     bench: Bench::Mmiq,
///     models: vec![model("m1", [1.0, 1.0, 1.0]), model("m2", [1.0, 1.0, 0.0]),
///                  model("m3", [1.0, 0.0, 0.0]), model("m4", [0.0, 0.0, 0.0])],
///     categories: Default::default(),
///     benchmark_items: None,
/// };
/// let p = quality(&input, &QualityOptions::default());
/// // A Guttman pattern: item variances 1/4, 1/3, 1/4 (sum 5/6), totals 3, 2, 1, 0 (variance
/// // 5/3): KR-20 = 3/2 (1 - (5/6)/(5/3)) = 0.75.
/// assert!((p.overall.reliability.unwrap() - 0.75).abs() < 1e-12);
/// assert_eq!(p.overall.items, 3);
/// ```
pub fn quality(input: &QualityInput, opts: &QualityOptions) -> QualityPanel {
    let mut notes = Vec::new();
    let mcnemar = matches!(
        input.bench.default_test(),
        PairTest::McNemarExact | PairTest::McNemarMidP
    );
    // Items: the benchmark's, or the union of the models'.
    let ids: Vec<String> = match &input.benchmark_items {
        Some(ids) => {
            let mut seen = BTreeSet::new();
            ids.iter().filter(|i| seen.insert(*i)).cloned().collect()
        }
        None => input
            .models
            .iter()
            .flat_map(|m| m.items.keys())
            .collect::<BTreeSet<_>>()
            .into_iter()
            .cloned()
            .collect(),
    };
    let mut outside = 0usize;
    let index: BTreeMap<&str, usize> = ids
        .iter()
        .enumerate()
        .map(|(j, id)| (id.as_str(), j))
        .collect();
    let mut prep = Prepared {
        means: Vec::with_capacity(input.models.len()),
        reps: Vec::with_capacity(input.models.len()),
    };
    for m in &input.models {
        let mut means = vec![None; ids.len()];
        let mut reps = vec![None; ids.len()];
        for (id, r) in &m.items {
            let finite: Vec<f64> = r.iter().copied().filter(|x| x.is_finite()).collect();
            match index.get(id.as_str()) {
                Some(&j) if !finite.is_empty() && finite.len() == r.len() => {
                    means[j] = Some(finite.iter().sum::<f64>() / finite.len() as f64);
                    reps[j] = Some(r.as_slice());
                }
                Some(_) => {}
                None => outside += 1,
            }
        }
        prep.means.push(means);
        prep.reps.push(reps);
    }
    if outside > 0 {
        notes.push(format!(
            "{outside} item score(s) of items outside the benchmark's items were left out"
        ));
    }
    let all: Vec<usize> = (0..ids.len()).collect();
    let overall = row(&prep, &all, ids.len(), None, mcnemar, opts);
    let mut by_cat: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (j, id) in ids.iter().enumerate() {
        if let Some(c) = input.categories.get(id) {
            by_cat.entry(c.as_str()).or_default().push(j);
        }
    }
    let categories: Vec<QualityRow> = by_cat
        .iter()
        .map(|(c, cols)| row(&prep, cols, cols.len(), Some(c), mcnemar, opts))
        .collect();
    if input.bench == Bench::Mmopera && overall.noise_kind == NoiseKind::Regeneration {
        notes.push(
            "MM-OPERA: an item's replicates are its ICA rotations (or several judges' scores): \
             the noise is their SD with the items fixed"
                .to_string(),
        );
    }
    if input.models.len() < 2 {
        notes
            .push("fewer than two models: no signal, no pairs, no smallest difference".to_string());
    }
    if overall.reliability_models < input.models.len() {
        notes.push(format!(
            "reliability uses the {} model(s) that answered every item of the set; models with \
             unanswered items are left out of it",
            overall.reliability_models
        ));
    }
    let warnings = std::iter::once(&overall)
        .chain(&categories)
        .filter_map(|r| r.warning.clone())
        .collect();
    QualityPanel {
        bench: input.bench,
        method: if mcnemar { "mcnemar" } else { "paired_normal" }.into(),
        alpha: opts.alpha,
        power: opts.power,
        overall,
        categories,
        warnings,
        notes,
    }
}

/// A board's input and its items' categories from the rows the web worker keeps (as the rank
/// board reads them: MM-IQ items by `data_id` with the key's category; KiVA trials of the
/// request's stage, `Subdomain#variation`, with their domain; MM-OPERA items of the request's
/// task, RIA when any row has it), with a note for each row left out (another benchmark,
/// human data, not kept). KiVA trials are read from the reports, `Null` answers counted wrong.
pub fn quality_input(entries: &[RankEntry<'_>], req: &RankRequest) -> (QualityInput, Vec<String>) {
    let mut notes = Vec::new();
    let mut models = Vec::new();
    let mut categories = BTreeMap::new();
    let mut benchmark_items = None;
    let mut mmiq_reports = Vec::new();
    let task = req.task.unwrap_or_else(|| {
        if entries
            .iter()
            .any(|e| matches!(e.source, RankSource::Mmopera(r) if r.ria.is_some()))
        {
            Task::Ria
        } else {
            Task::Ica
        }
    });
    for e in entries {
        match (req.bench, e.source) {
            (Bench::Mmiq, RankSource::Mmiq(r)) => {
                for it in &r.items {
                    categories
                        .entry(it.data_id.to_string())
                        .or_insert_with(|| it.category.clone());
                }
                models.push(mmiq_items(e.name, &r.file, r));
                mmiq_reports.push(r);
            }
            (Bench::Kiva, RankSource::Kiva { report, .. }) => {
                if report.source != crate::kiva::Source::Model {
                    notes.push(format!("{}: human data, a reference row: left out", e.name));
                    continue;
                }
                for t in &report.trials {
                    categories
                        .entry(kiva_trial_id(t))
                        .or_insert_with(|| t.domain.clone());
                }
                models.push(kiva_items(e.name, report, req.stage));
            }
            (Bench::Mmopera, RankSource::Mmopera(r)) => match r.task(task) {
                Some(t) => {
                    for it in &t.items {
                        categories
                            .entry(it.id.clone())
                            .or_insert_with(|| task.name().to_string());
                    }
                    models.push(mmopera_items(e.name, &t.regular_files.join(", "), &t.items));
                }
                None => notes.push(format!("{}: no {} scores; left out", e.name, task.name())),
            },
            (_, RankSource::Gone) => notes.push(format!(
                "{}: no longer kept by the scoring worker; left out",
                e.name
            )),
            _ => notes.push(format!("{}: not a row of this benchmark; left out", e.name)),
        }
    }
    if req.bench == Bench::Mmiq && !mmiq_reports.is_empty() {
        benchmark_items = Some(mmiq_benchmark_items(&mmiq_reports));
    }
    (
        QualityInput {
            bench: req.bench,
            models,
            categories,
            benchmark_items,
        },
        notes,
    )
}

/// The same models as a board's input (for [`super::plan::plan`]).
pub fn board_input(q: &QualityInput) -> BoardInput {
    BoardInput {
        bench: q.bench,
        benchmark_items: q.benchmark_items.clone(),
        models: q.models.clone(),
        reported: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_abs_diff_eq;

    fn model(name: &str, items: &[(&str, &[f64])]) -> ModelScores {
        ModelScores {
            name: name.into(),
            source: String::new(),
            items: items
                .iter()
                .map(|(i, r)| (i.to_string(), r.to_vec()))
                .collect(),
        }
    }

    fn cats(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(i, c)| (i.to_string(), c.to_string()))
            .collect()
    }

    /// Four MM-IQ models x four items in two categories, every figure by hand.
    ///
    /// ```text
    ///       a1 a2 | b1 b2   all  A    B
    /// m1     1  1 |  1  1   1    1    1
    /// m2     1  0 |  1  0   .5   .5   .5
    /// m3     0  1 |  0  0   .25  .5   0
    /// m4     0  0 |  1  0   .25  0    .5
    /// ```
    /// All items: item variances (sample) a1 (1,1,0,0): 1/3; a2 (1,0,1,0): 1/3;
    /// b1 (1,1,0,1): 1/4; b2 (1,0,0,0): 1/4; sum 7/6. Totals 4, 2, 1, 1: mean 2, squares
    /// 4 + 0 + 1 + 1 = 6, variance 2. KR-20 = 4/3 (1 - (7/6)/2) = 4/3 · 5/12 = 5/9.
    /// SD of the proportions √2 / 4; SEM = √2/4 · √(4/9) = √2/6.
    /// Signal: scores 1, .5, .25, .25, mean .5, squares .25 + 0 + .0625 + .0625 = .375,
    /// variance .125, SD √.125. Bootstrap SD per model √(Σ (x - x̄)²) / 4: m1 0; m2 √1 / 4 =
    /// .25; m3 and m4 √(.75) / 4. RMS: √((0 + .0625 + 2 · .046875) / 4) = √(.15625 / 4).
    /// Pairs (discordant of 4): m1-m2 2, m1-m3 3, m1-m4 3, m2-m3 3 (a1, a2, b1), m2-m4 1 (a1),
    /// m3-m4 2 (a2, b1): ψ = .5, .75, .75, .75, .25, .5; median .625. Connor's MDD at n = 4 and
    /// ψ = .625: none (δ > ψ needed), so the warning says nothing can be told apart.
    /// Category A: item variances 1/3 + 1/3; totals 2, 1, 1, 0: variance 2/3; alpha =
    /// 2 (1 - (2/3)/(2/3)) = 0.
    /// Category B: b1 1/4, b2 1/4; totals 2, 1, 0, 1: variance 2/3; KR-20 = 2 (1 - .5 / (2/3))
    /// = .5; SD of proportions √(2/3) / 2; SEM = that · √.5 = √(1/3) / 2.
    #[test]
    fn four_models_by_hand() {
        let input = QualityInput {
            bench: Bench::Mmiq,
            models: vec![
                model(
                    "m1",
                    &[
                        ("a1", &[1.0]),
                        ("a2", &[1.0]),
                        ("b1", &[1.0]),
                        ("b2", &[1.0]),
                    ],
                ),
                model(
                    "m2",
                    &[
                        ("a1", &[1.0]),
                        ("a2", &[0.0]),
                        ("b1", &[1.0]),
                        ("b2", &[0.0]),
                    ],
                ),
                model(
                    "m3",
                    &[
                        ("a1", &[0.0]),
                        ("a2", &[1.0]),
                        ("b1", &[0.0]),
                        ("b2", &[0.0]),
                    ],
                ),
                model(
                    "m4",
                    &[
                        ("a1", &[0.0]),
                        ("a2", &[0.0]),
                        ("b1", &[1.0]),
                        ("b2", &[0.0]),
                    ],
                ),
            ],
            categories: cats(&[("a1", "A"), ("a2", "A"), ("b1", "B"), ("b2", "B")]),
            benchmark_items: None,
        };
        let p = quality(&input, &QualityOptions::default());
        let o = &p.overall;
        assert_eq!((o.items, o.models, o.reliability_models), (4, 4, 4));
        assert_eq!(o.reliability_kind, "kr20");
        assert_abs_diff_eq!(o.reliability.unwrap(), 5.0 / 9.0, epsilon = 1e-12);
        assert_abs_diff_eq!(o.sem.unwrap(), 2f64.sqrt() / 6.0, epsilon = 1e-12);
        assert_abs_diff_eq!(o.signal.unwrap(), 0.125f64.sqrt(), epsilon = 1e-12);
        assert_abs_diff_eq!(
            o.bootstrap_sd.unwrap(),
            (0.15625f64 / 4.0).sqrt(),
            epsilon = 1e-12
        );
        assert_eq!(o.noise_kind, NoiseKind::Bootstrap);
        assert_eq!(o.regeneration_sd, None);
        assert_abs_diff_eq!(
            o.ratio.unwrap(),
            0.125f64.sqrt() / (0.15625f64 / 4.0).sqrt(),
            epsilon = 1e-12
        );
        assert_abs_diff_eq!(o.spread.unwrap(), 0.625, epsilon = 1e-12);
        assert_eq!(o.mdd, None);
        assert_eq!(
            o.warning.as_deref(),
            Some("all items: 4 items, cannot tell apart any difference at 80% power")
        );
        assert_eq!(p.categories.len(), 2);
        let (a, b) = (&p.categories[0], &p.categories[1]);
        assert_eq!((a.label.as_str(), a.items), ("A", 2));
        assert_abs_diff_eq!(a.reliability.unwrap(), 0.0, epsilon = 1e-12);
        assert_abs_diff_eq!(b.reliability.unwrap(), 0.5, epsilon = 1e-12);
        assert_abs_diff_eq!(b.sem.unwrap(), (1.0f64 / 3.0).sqrt() / 2.0, epsilon = 1e-12);
        assert_eq!(p.warnings.len(), 3);
        assert_eq!(p.method, "mcnemar");
    }

    /// A category large enough to detect something, but not the spread of the models shown:
    /// 100 items, two models 1 point apart (m1 right on items 0-39, m2 on 15-55: 15 + 16
    /// discordant items, ψ = .31). The MDD must solve Connor's equation
    /// `δ √n = z_.975 √ψ + z_.8 √(ψ - δ²)`
    /// (written out with the quantiles as literals), and the warning rounds it up.
    #[test]
    fn warning_names_the_points() {
        let m1: Vec<(String, Vec<f64>)> = (0..100)
            .map(|i| (format!("{i:03}"), vec![f64::from(u8::from(i < 40))]))
            .collect();
        let m2: Vec<(String, Vec<f64>)> = (0..100)
            .map(|i| {
                (
                    format!("{i:03}"),
                    vec![f64::from(u8::from((15..56).contains(&i)))],
                )
            })
            .collect();
        let mk = |name: &str, v: Vec<(String, Vec<f64>)>| ModelScores {
            name: name.into(),
            source: String::new(),
            items: v.into_iter().collect(),
        };
        let input = QualityInput {
            bench: Bench::Mmiq,
            models: vec![mk("m1", m1), mk("m2", m2)],
            categories: (0..100)
                .map(|i| (format!("{i:03}"), "Visual Instruction".to_string()))
                .collect(),
            benchmark_items: None,
        };
        let p = quality(&input, &QualityOptions::default());
        let c = &p.categories[0];
        assert_abs_diff_eq!(c.spread.unwrap(), 0.31, epsilon = 1e-12);
        let d = c.mdd.unwrap();
        let (za, zb) = (1.959963984540054, 0.8416212335729143);
        assert_abs_diff_eq!(
            d * 10.0,
            za * 0.31f64.sqrt() + zb * (0.31 - d * d).sqrt(),
            epsilon = 1e-9
        );
        assert_eq!(
            c.warning.as_deref(),
            Some(&*format!(
                "Visual Instruction: 100 items, can tell apart only {}+ points (the models shown span 1.0)",
                (d * 100.0).ceil()
            ))
        );
    }

    /// KiVA-like trials with three regenerations: the regeneration SD by hand. One model,
    /// items {1, 1, 0} and {0, 0, 0}: within-item sums of squares 2/3 and 0 over 2 + 2 degrees
    /// of freedom, s²_w = 1/6; Σ 1/K = 2/3; SD = √(1/6 · 2/3) / 2 = √(1/9) / 2 = 1/6. A second
    /// model {1, 1, 1}, {1, 0, 1}: the same s²_w = 1/6, SD 1/6; RMS 1/6. Item means: m1 2/3,
    /// 0 (score 1/3), m2 1, 2/3 (score 5/6); signal = |5/6 - 1/3| / √2 = .5 / √2.
    /// Alpha over item means: item 1 (2/3, 1) var 1/18, item 2 (0, 2/3) var 2/9, totals 2/3,
    /// 5/3 var 1/2: 2 (1 - (5/18)/(1/2)) = 2 (1 - 5/9) = 8/9.
    #[test]
    fn regenerations_by_hand() {
        let input = QualityInput {
            bench: Bench::Kiva,
            models: vec![
                model("m1", &[("t1", &[1.0, 1.0, 0.0]), ("t2", &[0.0, 0.0, 0.0])]),
                model("m2", &[("t1", &[1.0, 1.0, 1.0]), ("t2", &[1.0, 0.0, 1.0])]),
            ],
            categories: BTreeMap::new(),
            benchmark_items: None,
        };
        let p = quality(&input, &QualityOptions::default());
        let o = &p.overall;
        assert_eq!(o.noise_kind, NoiseKind::Regeneration);
        assert_abs_diff_eq!(o.regeneration_sd.unwrap(), 1.0 / 6.0, epsilon = 1e-12);
        assert_abs_diff_eq!(o.noise.unwrap(), 1.0 / 6.0, epsilon = 1e-12);
        assert_abs_diff_eq!(o.signal.unwrap(), 0.5 / 2f64.sqrt(), epsilon = 1e-12);
        assert_abs_diff_eq!(o.reliability.unwrap(), 8.0 / 9.0, epsilon = 1e-12);
        assert_eq!(o.reliability_kind, "alpha");
        assert_eq!(p.method, "paired_normal");
        // Paired: differences of item means (1/3, 2/3), sample SD √(1/18); MDD at n = 2.
        assert_abs_diff_eq!(o.spread.unwrap(), (1.0f64 / 18.0).sqrt(), epsilon = 1e-12);
        let (za, zb) = (1.959963984540054, 0.8416212335729143);
        assert_abs_diff_eq!(
            o.mdd.unwrap(),
            (za + zb) * (1.0f64 / 18.0).sqrt() / 2f64.sqrt(),
            epsilon = 1e-9
        );
    }

    /// Unanswered items: left out of a model's score and of the complete cases; a benchmark
    /// item no one answered counts in `items` only.
    #[test]
    fn partial_rows() {
        let input = QualityInput {
            bench: Bench::Mmiq,
            models: vec![
                model("m1", &[("a", &[1.0]), ("b", &[0.0])]),
                model("m2", &[("a", &[0.0]), ("b", &[0.0])]),
                model("m3", &[("a", &[1.0])]),
            ],
            categories: BTreeMap::new(),
            benchmark_items: Some(vec!["a".into(), "b".into(), "c".into()]),
        };
        let p = quality(&input, &QualityOptions::default());
        assert_eq!((p.overall.items, p.overall.reliability_models), (3, 2));
        // Scores .5, 0, 1: SD .5.
        assert_abs_diff_eq!(p.overall.signal.unwrap(), 0.5, epsilon = 1e-12);
        assert!(p.notes.iter().any(|n| n.contains("2 model(s)")));
    }
}
