//! A leaderboard built from item-level scores: coverage, paired tests, adjusted p-values, rank
//! ranges, rank groups and the board's minimum detectable difference.
//!
//! # How a board is computed
//! 1. The benchmark's items are the key's (when given) or every item any model scored, in one
//!    canonical order (sorted ids). A model's item score is the mean of its replicates
//!    (1 for MM-IQ, a trial's regenerations for KiVA, an ICA item's rotations for MM-OPERA).
//! 2. Coverage is the share of the benchmark's items a model scored. With [`Missing::Wrong`]
//!    (default) every unscored item counts 0, so every model is scored over all items and pairs
//!    compare all items; with [`Missing::AnsweredOnly`] a model is scored over its own items and
//!    a pair over the items both scored.
//! 3. Every pair is tested on its compared items ([`PairTest`]) and gets a paired bootstrap
//!    percentile interval of the difference. All resamples draw item indices over the
//!    canonical order from one [`Rng`] stream (`Rng::below(n)` n times per resample, the stream
//!    of [`paired_bootstrap_mean_diff`]), and every model is resampled on the same draws, so
//!    one pass gives every pair's interval and every model's bootstrap rank. A pair whose
//!    compared items are not all the board's items (answered-only with partial coverage) is
//!    resampled on its own shared items with [`paired_bootstrap_mean_diff`].
//! 4. The p-values are adjusted together ([`Adjust`]); a pair differs when its adjusted p is
//!    below α. From these decisions: each model's rank range (best and worst rank consistent
//!    with the tests), the models not distinguishable from the leader, a compact letter display.
//!    The bootstrap rank interval (2.5% and 97.5% quantiles of the model's rank over resamples,
//!    as LMArena shows; a model tied with others in a resample takes its best rank for the
//!    low quantile and its worst for the high one) is given beside it; [`RankRange`] chooses which one `rank_low` /
//!    `rank_high` show.
//! 5. The minimum detectable difference uses the median compared items and the median
//!    discordance (or SD of item differences) over the pairs ([`super::power`]).

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::cluster::{clustered_mean_se, ClusteredSe};
use super::groups::{compact_letters, rank_ranges};
use super::power::{mcnemar_mdd, paired_mdd, Mdd};
use super::{Adjust, RanksError};
use crate::stats::paired::{mcnemar_exact_p, mcnemar_mid_p, paired_bootstrap_mean_diff};
use crate::stats::rng::Rng;
use crate::stats::wilcoxon::signed_rank;

/// The benchmark of a board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Bench {
    /// MM-IQ: one 0/1 answer per item.
    Mmiq,
    /// KiVA: trials, each the mean of its regenerations' 0/1 answers.
    Kiva,
    /// MM-OPERA: judge scores 0-4 divided by 4 (the score rate), ICA rotations averaged per item.
    Mmopera,
}

impl Bench {
    /// Reads `mmiq`, `kiva` or `mmopera` (case-insensitive).
    pub fn parse(s: &str) -> Option<Self> {
        match s.to_ascii_lowercase().as_str() {
            "mmiq" | "mm-iq" => Some(Bench::Mmiq),
            "kiva" => Some(Bench::Kiva),
            "mmopera" | "mm-opera" => Some(Bench::Mmopera),
            _ => None,
        }
    }

    /// The paired test used unless another is chosen: exact McNemar for MM-IQ's 0/1 items,
    /// Wilcoxon signed-rank for KiVA's trial means and MM-OPERA's item scores.
    pub fn default_test(self) -> PairTest {
        match self {
            Bench::Mmiq => PairTest::McNemarExact,
            Bench::Kiva | Bench::Mmopera => PairTest::Wilcoxon,
        }
    }
}

/// How items a model did not score count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Missing {
    /// Counted as wrong (score 0): every model is scored over the whole benchmark (default).
    #[default]
    Wrong,
    /// Left out: a model is scored over its own items, a pair over the items both scored.
    AnsweredOnly,
}

impl Missing {
    /// The label shown beside scores.
    pub fn label(self) -> &'static str {
        match self {
            Missing::Wrong => "missing items counted as wrong",
            Missing::AnsweredOnly => "answered items only",
        }
    }
}

/// The paired test of two models on their compared items.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PairTest {
    /// Exact two-sided McNemar on items right (score above 1/2) or wrong.
    McNemarExact,
    /// Mid-p McNemar.
    McNemarMidP,
    /// Wilcoxon signed-rank on the item score differences.
    Wilcoxon,
}

impl PairTest {
    /// The name used in JSON and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            PairTest::McNemarExact => "mcnemar_exact",
            PairTest::McNemarMidP => "mcnemar_midp",
            PairTest::Wilcoxon => "wilcoxon",
        }
    }

    /// Reads `mcnemar` / `mcnemar_exact`, `midp` / `mcnemar_midp`, `wilcoxon`.
    pub fn parse(s: &str) -> Option<Self> {
        match s.to_ascii_lowercase().replace('-', "_").as_str() {
            "mcnemar" | "mcnemar_exact" | "exact" => Some(PairTest::McNemarExact),
            "midp" | "mid_p" | "mcnemar_midp" | "mcnemar_mid_p" => Some(PairTest::McNemarMidP),
            "wilcoxon" | "signed_rank" => Some(PairTest::Wilcoxon),
            _ => None,
        }
    }
}

/// Which rank range `rank_low` / `rank_high` show.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RankRange {
    /// Best and worst rank consistent with the adjusted pairwise tests (default).
    #[default]
    Tests,
    /// The 95% bootstrap interval of the rank (LMArena's display).
    Bootstrap,
}

/// One model's item scores.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ModelScores {
    /// Model name.
    pub name: String,
    /// Where the scores came from (file or folder), for messages.
    #[serde(default)]
    pub source: String,
    /// Item id → the item's replicate scores in [0, 1] (one for MM-IQ; a KiVA trial's
    /// regenerations; an MM-OPERA ICA item's rotations).
    pub items: BTreeMap<String, Vec<f64>>,
}

/// A row reported without item data (e.g. a VLMEvalKit `_acc.csv`): shown with its interval,
/// never tested.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReportedRow {
    /// Model name.
    pub name: String,
    /// Score as reported.
    pub score: f64,
    /// Interval bounds, when known.
    pub low: Option<f64>,
    /// Upper bound.
    pub high: Option<f64>,
    /// Rank by interval overlap among the reported rows and the computed rows' Wilson or
    /// bootstrap intervals (set by [`build_board`]).
    #[serde(default)]
    pub interval_rank: usize,
    /// How this row is ranked, in words.
    #[serde(default)]
    pub label: String,
}

/// What a board is built from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BoardInput {
    /// The benchmark.
    pub bench: Bench,
    /// The benchmark's items (the answer key's ids), when known; else the union of the
    /// models' items is the benchmark.
    pub benchmark_items: Option<Vec<String>>,
    /// The computed rows.
    pub models: Vec<ModelScores>,
    /// Rows without item data.
    #[serde(default)]
    pub reported: Vec<ReportedRow>,
}

/// The bootstrap seed of a board, and of every paired comparison the app shows beside one
/// (the model page's MM-IQ comparison draws from this seed over the board's item order, so a
/// pair's interval reads the same in both panels; issue 42, defect 9).
pub const BOOTSTRAP_SEED: u64 = 42;

/// The bootstrap resamples of a board and of the app's paired comparisons.
pub const BOOTSTRAP_RESAMPLES: usize = 2000;

/// How a board is built.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct BoardOptions {
    /// How missing items count.
    pub missing: Missing,
    /// The paired test (`None`: the benchmark's default, [`Bench::default_test`]).
    pub test: Option<PairTest>,
    /// p-value adjustment.
    pub adjust: Adjust,
    /// Significance level of the adjusted p-values.
    pub alpha: f64,
    /// Power for the minimum detectable difference.
    pub power: f64,
    /// Bootstrap resamples (0: no bootstrap).
    pub resamples: usize,
    /// Bootstrap seed.
    pub seed: u64,
    /// Which rank range the rank column shows.
    pub range: RankRange,
}

impl Default for BoardOptions {
    fn default() -> Self {
        Self {
            missing: Missing::Wrong,
            test: None,
            adjust: Adjust::Holm,
            alpha: 0.05,
            power: 0.8,
            resamples: BOOTSTRAP_RESAMPLES,
            seed: BOOTSTRAP_SEED,
            range: RankRange::Tests,
        }
    }
}

/// One computed row of a board.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ModelRow {
    /// Model name.
    pub name: String,
    /// Items scored (of the benchmark's items).
    pub n: usize,
    /// Items in the benchmark.
    pub benchmark_size: usize,
    /// `n / benchmark_size`.
    pub coverage: f64,
    /// Whether the row scored every item; a row below full coverage is marked on the board.
    pub full_coverage: bool,
    /// The board's score ([`Missing`] decides how unscored items count).
    pub score: f64,
    /// The score over the scored items only.
    pub score_answered: f64,
    /// The rank range shown ([`RankRange`]): best rank.
    pub rank_low: usize,
    /// Worst rank.
    pub rank_high: usize,
    /// Best rank consistent with the adjusted tests.
    pub tests_rank_low: usize,
    /// Worst rank consistent with the adjusted tests.
    pub tests_rank_high: usize,
    /// Bootstrap 95% rank interval, low end (when resampled).
    pub boot_rank_low: Option<usize>,
    /// Bootstrap 95% rank interval, high end.
    pub boot_rank_high: Option<usize>,
    /// 95% interval of the score, low end: Wilson's over the compared items, with the items'
    /// effective size and Student t when items have replicates
    /// ([`crate::stats::interval::wilson_clustered`]; a bootstrap percentile interval before
    /// issue 40, which covered 81% on average over n in [10, 300] and p in [0.02, 0.98],
    /// `docs/coverage.md`).
    pub score_low: Option<f64>,
    /// High end.
    pub score_high: Option<f64>,
    /// Compact letter display: rows sharing a letter are not significantly different.
    pub group: String,
    /// Not distinguishable from the leader (the leader included).
    pub leader_group: bool,
    /// Naive and clustered SEs over the scored items' replicates, when items have several
    /// replicates (KiVA regenerations, MM-OPERA ICA rotations).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clustered: Option<ClusteredSe>,
}

/// One pair of computed rows (`a` ranked above `b`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PairRow {
    /// The higher-scoring model.
    pub a: String,
    /// The other model.
    pub b: String,
    /// Items compared (all benchmark items when missing items count as wrong; else the items
    /// both scored).
    pub n_shared: usize,
    /// Items both models scored.
    pub n_both_answered: usize,
    /// The test's name ([`PairTest::name`]), or `none` when nothing could be compared.
    pub test: String,
    /// McNemar: items only `a` got right.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub a_only: Option<u64>,
    /// McNemar: items only `b` got right.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub b_only: Option<u64>,
    /// Score difference `a - b` on the compared items.
    pub diff: f64,
    /// Bootstrap 95% percentile interval of the difference.
    pub diff_low: Option<f64>,
    /// High end.
    pub diff_high: Option<f64>,
    /// Unadjusted two-sided p-value (`None` without compared items).
    pub p: Option<f64>,
    /// Adjusted p-value.
    pub p_adjusted: Option<f64>,
    /// Adjusted p below α.
    pub significant: bool,
}

/// A leaderboard with its tests.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Board {
    /// The benchmark.
    pub bench: Bench,
    /// Items in the benchmark.
    pub benchmark_size: usize,
    /// How missing items count.
    pub missing: Missing,
    /// [`Missing::label`].
    pub missing_label: String,
    /// The paired test.
    pub test: String,
    /// The p-value adjustment.
    pub adjust: String,
    /// Significance level.
    pub alpha: f64,
    /// What the rank column shows.
    pub range: RankRange,
    /// Bootstrap resamples.
    pub resamples: usize,
    /// Bootstrap seed.
    pub seed: u64,
    /// Computed rows, best first (ties by name).
    pub models: Vec<ModelRow>,
    /// Every pair, in row order.
    pub pairs: Vec<PairRow>,
    /// Minimum detectable difference, when there is a pair to base it on.
    pub mdd: Option<Mdd>,
    /// Rows without item data, with interval ranks.
    pub reported: Vec<ReportedRow>,
    /// Things the reader should know (one model only, pairs with no shared item, items not
    /// in the key...).
    pub notes: Vec<String>,
}

/// A board's models laid out over the benchmark's items in canonical order (shared with
/// [`super::plan`], which reads the same item values the board tests).
pub(super) struct Prepared {
    /// Model names, input order (models without a scored item left out).
    pub(super) names: Vec<String>,
    /// Item means, model-major; `None` where not scored.
    pub(super) values: Vec<Vec<Option<f64>>>,
    /// Replicates per scored item, model-major (for clustered SEs).
    pub(super) replicates: Vec<Vec<Option<Vec<f64>>>>,
    /// The benchmark's items, sorted.
    pub(super) items: Vec<String>,
}

/// Checks that the bootstrap of `models` models at `resamples` resamples keeps at most
/// [`crate::limits::MAX_BOOTSTRAP_VALUES`] values (one per resample for each model and each
/// pair of models). [`build_board`] checks it before it lays out the models' items, and a
/// caller that reads one file per model can check it with the number of files before reading
/// any (issue 37: `rank` of 10,000 models allocated 1.1 GB before this check).
///
/// # Errors
/// [`RanksError::TooManyBootstrapValues`], naming the resamples that fit, or the models
/// that fit when even one resample is too many.
///
/// # Examples
/// ```
/// use coglab_core::ranks::check_bootstrap_size;
/// assert!(check_bootstrap_size(50, 2000).is_ok());
/// let e = check_bootstrap_size(10_000, 2000).unwrap_err().to_string();
/// assert!(e.ends_with("even 1 resample keeps 50005000 values: rank at most 7070 models at a time"), "{e}");
/// ```
pub fn check_bootstrap_size(models: usize, resamples: usize) -> Result<(), RanksError> {
    let max = crate::limits::MAX_BOOTSTRAP_VALUES as u64;
    let k = models as u64;
    let pairs = k.saturating_mul(k.saturating_sub(1)) / 2;
    let per_resample = pairs.saturating_add(k);
    let values = per_resample.saturating_mul(resamples as u64);
    if values <= max {
        return Ok(());
    }
    // The most models m with m(m + 1)/2 <= max: from the square root, then corrected.
    let mut m = ((2.0 * max as f64).sqrt()) as u64;
    while m > 0 && m * (m + 1) / 2 > max {
        m -= 1;
    }
    while (m + 1) * (m + 2) / 2 <= max {
        m += 1;
    }
    Err(RanksError::TooManyBootstrapValues {
        resamples,
        models,
        pairs: usize::try_from(pairs).unwrap_or(usize::MAX),
        values,
        max: crate::limits::MAX_BOOTSTRAP_VALUES,
        fit: usize::try_from(max / per_resample.max(1)).unwrap_or(usize::MAX),
        max_models: usize::try_from(m).unwrap_or(usize::MAX),
    })
}

pub(super) fn prepare(
    input: &BoardInput,
    notes: &mut Vec<String>,
    resamples: usize,
) -> Result<Prepared, RanksError> {
    let mut seen: BTreeMap<&str, &str> = BTreeMap::new();
    for m in &input.models {
        if let Some(first) = seen.insert(&m.name, &m.source) {
            return Err(RanksError::DuplicateModel {
                name: m.name.clone(),
                first: first.to_string(),
                second: m.source.clone(),
            });
        }
    }
    let items: Vec<String> = match &input.benchmark_items {
        Some(k) => k
            .iter()
            .cloned()
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect(),
        None => input
            .models
            .iter()
            .flat_map(|m| m.items.keys().cloned())
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect(),
    };
    let index: BTreeMap<&str, usize> = items
        .iter()
        .enumerate()
        .map(|(i, s)| (s.as_str(), i))
        .collect();
    // The models that stay on the board (a finite score on some benchmark item), counted
    // before their items are laid out: the bootstrap's size is checked first (issue 37).
    let kept = input
        .models
        .iter()
        .filter(|m| {
            m.items.iter().any(|(id, reps)| {
                index.contains_key(id.as_str()) && reps.iter().any(|x| x.is_finite())
            })
        })
        .count();
    check_bootstrap_size(kept, resamples)?;
    let mut names = Vec::new();
    let mut values = Vec::new();
    let mut replicates = Vec::new();
    for m in &input.models {
        let mut v = vec![None; items.len()];
        let mut r = vec![None; items.len()];
        let mut outside = 0usize;
        for (id, reps) in &m.items {
            let finite: Vec<f64> = reps.iter().copied().filter(|x| x.is_finite()).collect();
            if finite.is_empty() {
                continue;
            }
            match index.get(id.as_str()) {
                Some(&i) => {
                    v[i] = Some(finite.iter().sum::<f64>() / finite.len() as f64);
                    r[i] = Some(finite);
                }
                None => outside += 1,
            }
        }
        if outside > 0 {
            notes.push(format!(
                "{}: {outside} scored item(s) are not among the benchmark's {} items and are left out",
                m.name,
                items.len()
            ));
        }
        if v.iter().all(Option::is_none) {
            notes.push(format!(
                "{}: no scored item among the benchmark's items; the row is left off the board",
                m.name
            ));
            continue;
        }
        names.push(m.name.clone());
        values.push(v);
        replicates.push(r);
    }
    if names.is_empty() {
        return Err(RanksError::NoModels {
            what: format!("{} model(s) given", input.models.len()),
        });
    }
    Ok(Prepared {
        names,
        values,
        replicates,
        items,
    })
}

/// Builds a board (see the [module docs](self) for the method).
///
/// # Errors
/// [`RanksError::NoModels`] when no model has a scored item among the benchmark's items,
/// [`RanksError::DuplicateModel`] for two models of one name, [`RanksError::BadOption`] for α
/// or power outside (0, 1).
///
/// # Examples
/// ```
/// use coglab_core::ranks::{build_board, Bench, BoardInput, BoardOptions, ModelScores};
/// let model = |name: &str, right: &[u32]| ModelScores {
///     name: name.into(),
///     source: String::new(),
///     items: (0..40).map(|i| (format!("{i:02}"), vec![f64::from(u8::from(right.contains(&i)))])).collect(),
/// };
/// let a: Vec<u32> = (0..30).collect(); // 30 of 40 right
/// let b: Vec<u32> = (0..12).collect(); // 12 of 40, all also right for a: b = 18, c = 0
/// let input = BoardInput { bench: Bench::Mmiq, benchmark_items: None,
///     models: vec![model("B", &b), model("A", &a)], reported: vec![] };
/// let board = build_board(&input, &BoardOptions::default()).unwrap();
/// assert_eq!(board.models[0].name, "A");
/// assert_eq!((board.pairs[0].a_only, board.pairs[0].b_only), (Some(18), Some(0)));
/// // p = 2 · 0.5^18 = 7.6e-6: A and B differ, so they get ranks 1 and 2.
/// assert!((board.pairs[0].p.unwrap() - 2.0 * 0.5f64.powi(18)).abs() < 1e-15);
/// assert_eq!((board.models[1].rank_low, board.models[1].rank_high), (2, 2));
/// ```
pub fn build_board(input: &BoardInput, opts: &BoardOptions) -> Result<Board, RanksError> {
    for (name, v) in [("alpha", opts.alpha), ("power", opts.power)] {
        if !(v > 0.0 && v < 1.0) {
            return Err(RanksError::BadOption {
                name,
                value: v.to_string(),
                expected: "a number strictly between 0 and 1",
            });
        }
    }
    crate::limits::check(
        "resamples",
        opts.resamples as u64,
        0,
        crate::limits::MAX_RESAMPLES,
    )?;
    let mut notes = Vec::new();
    let prep = prepare(input, &mut notes, opts.resamples)?;
    let test = opts.test.unwrap_or(input.bench.default_test());
    let n_items = prep.items.len();
    let k = prep.names.len();
    // Each resample draws every item once (2,710 MM-IQ items at 1,000,000 resamples took 88 s).
    if opts.resamples > 0 {
        crate::limits::check_draws("resamples", opts.resamples, n_items, "items")?;
    }
    let wrong = opts.missing == Missing::Wrong;

    // Scores and ordering.
    let answered: Vec<usize> = prep
        .values
        .iter()
        .map(|v| v.iter().filter(|x| x.is_some()).count())
        .collect();
    let sum: Vec<f64> = prep
        .values
        .iter()
        .map(|v| v.iter().flatten().sum())
        .collect();
    let score_answered: Vec<f64> = (0..k).map(|m| sum[m] / answered[m] as f64).collect();
    let score: Vec<f64> = (0..k)
        .map(|m| {
            if wrong {
                sum[m] / n_items as f64
            } else {
                score_answered[m]
            }
        })
        .collect();
    let mut order: Vec<usize> = (0..k).collect();
    order.sort_by(|&a, &b| {
        score[b]
            .total_cmp(&score[a])
            .then_with(|| prep.names[a].cmp(&prep.names[b]))
    });
    // pos[m] = position of model m on the board.
    let mut pos = vec![0; k];
    for (p, &m) in order.iter().enumerate() {
        pos[m] = p;
    }
    if k == 1 {
        notes.push(format!(
            "one model only ({}): nothing to compare, its rank is 1",
            prep.names[0]
        ));
    }
    let below: Vec<&str> = order
        .iter()
        .filter(|&&m| answered[m] < n_items)
        .map(|&m| prep.names[m].as_str())
        .collect();
    if !below.is_empty() {
        notes.push(format!(
            "below full coverage ({}): {}",
            opts.missing.label(),
            below.join(", ")
        ));
    }

    // The compared value of every model on every item (model-major, NaN: not compared).
    let vals: Vec<Vec<f64>> = prep
        .values
        .iter()
        .map(|v| {
            v.iter()
                .map(|x| match x {
                    Some(x) => *x,
                    None if wrong => 0.0,
                    None => f64::NAN,
                })
                .collect()
        })
        .collect();

    // Pairs in board order.
    let mut pairs = Vec::new();
    let mut pair_models = Vec::new();
    let mut spreads = Vec::new();
    let mut pair_sizes = Vec::new();
    for (pa, &ma) in order.iter().enumerate() {
        for &mb in &order[pa + 1..] {
            let (va, vb) = (&vals[ma], &vals[mb]);
            let both = prep.values[ma]
                .iter()
                .zip(&prep.values[mb])
                .filter(|(x, y)| x.is_some() && y.is_some())
                .count();
            let (mut n, mut sum_d, mut sum_d2, mut bo, mut co) = (0usize, 0.0, 0.0, 0u64, 0u64);
            for (&x, &y) in va.iter().zip(vb) {
                if x.is_nan() || y.is_nan() {
                    continue;
                }
                n += 1;
                sum_d += x - y;
                sum_d2 += (x - y) * (x - y);
                bo += u64::from(x > 0.5 && y <= 0.5);
                co += u64::from(x <= 0.5 && y > 0.5);
            }
            let mut row = PairRow {
                a: prep.names[ma].clone(),
                b: prep.names[mb].clone(),
                n_shared: n,
                n_both_answered: both,
                test: test.name().into(),
                a_only: None,
                b_only: None,
                diff: 0.0,
                diff_low: None,
                diff_high: None,
                p: None,
                p_adjusted: None,
                significant: false,
            };
            if n == 0 {
                row.test = "none".into();
                notes.push(format!(
                    "{} and {} share no scored item: they cannot be compared (counted as not distinguishable)",
                    row.a, row.b
                ));
            } else {
                let nf = n as f64;
                row.diff = sum_d / nf;
                match test {
                    PairTest::McNemarExact | PairTest::McNemarMidP => {
                        row.a_only = Some(bo);
                        row.b_only = Some(co);
                        row.p = Some(if test == PairTest::McNemarExact {
                            mcnemar_exact_p(bo, co)
                        } else {
                            mcnemar_mid_p(bo, co)
                        });
                        spreads.push((bo + co) as f64 / nf);
                    }
                    PairTest::Wilcoxon => {
                        let d: Vec<f64> = va
                            .iter()
                            .zip(vb)
                            .filter(|(x, y)| !x.is_nan() && !y.is_nan())
                            .map(|(x, y)| x - y)
                            .collect();
                        let t = signed_rank(&d).map_err(|e| RanksError::Stats {
                            context: format!("Wilcoxon test of {} vs {}", row.a, row.b),
                            source: e,
                        })?;
                        row.p = Some(t.p);
                        let var = if n > 1 {
                            (sum_d2 - sum_d * sum_d / nf) / (nf - 1.0)
                        } else {
                            0.0
                        };
                        spreads.push(var.max(0.0).sqrt());
                    }
                }
                pair_sizes.push(n);
            }
            pairs.push(row);
            pair_models.push((ma, mb));
        }
    }

    // Adjust.
    let tested: Vec<usize> = (0..pairs.len()).filter(|&i| pairs[i].p.is_some()).collect();
    let raw: Vec<f64> = tested.iter().filter_map(|&i| pairs[i].p).collect();
    let adjusted = opts.adjust.apply(&raw);
    for (&i, &q) in tested.iter().zip(&adjusted) {
        pairs[i].p_adjusted = Some(q);
        pairs[i].significant = q < opts.alpha;
    }

    // Bootstrap: one pass over common resamples.
    let mut boot_rank: Vec<Option<(usize, usize)>> = vec![None; k];
    if opts.resamples > 0 && n_items > 0 {
        let r = opts.resamples;
        // Model-major compared values (0 where not compared) and presence.
        let x: Vec<Vec<f64>> = vals
            .iter()
            .map(|v| {
                v.iter()
                    .map(|x| if x.is_nan() { 0.0 } else { *x })
                    .collect()
            })
            .collect();
        let present: Vec<Vec<f64>> = vals
            .iter()
            .map(|v| v.iter().map(|x| f64::from(u8::from(!x.is_nan()))).collect())
            .collect();
        let dense_pair: Vec<bool> = pairs.iter().map(|p| p.n_shared == n_items).collect();
        let mut pair_diffs: Vec<Vec<f64>> = dense_pair
            .iter()
            .map(|&d| if d { Vec::with_capacity(r) } else { Vec::new() })
            .collect();
        // rank_counts[m][q]: resamples in which model m ranked q + 1.
        let mut rank_counts: Vec<Vec<usize>> = vec![vec![0; k]; k];
        // worst_counts[m][q]: resamples in which model m's worst rank among its ties was q + 1.
        let mut worst_counts: Vec<Vec<usize>> = vec![vec![0; k]; k];
        let mut rng = Rng::new(opts.seed);
        let mut counts = vec![0u32; n_items];
        let mut counts_f = vec![0.0f64; n_items];
        let mut s = vec![0.0f64; k];
        let mut means = vec![0.0f64; k];
        let nf = n_items as f64;
        // 0/1 boards (MM-IQ) count with bits: item i is a mask of the models right on it
        // (and, answered-only, of the models that scored it), and each resample adds the masks
        // of its drawn items into bit-sliced counters (counter bit b of model m is bit m of
        // `slices[b]`), a few word operations per draw for all models at once. Exact; other
        // boards take dot products of the draw counts with the item scores.
        let binary = x.iter().flatten().all(|&v| v == 0.0 || v == 1.0);
        let lanes = k.div_ceil(64);
        let masks = |v: &[Vec<f64>]| {
            let mut out = vec![0u64; n_items * lanes];
            for (m, row) in v.iter().enumerate() {
                for (i, &x) in row.iter().enumerate() {
                    if x != 0.0 {
                        out[i * lanes + m / 64] |= 1 << (m % 64);
                    }
                }
            }
            out
        };
        let right_masks = if binary { masks(&x) } else { Vec::new() };
        let present_masks = if binary && !wrong {
            masks(&present)
        } else {
            Vec::new()
        };
        // Enough counter bits for n_items draws of one item.
        let nbits = (usize::BITS - n_items.leading_zeros()) as usize;
        let mut right_slices = vec![0u64; nbits * lanes];
        let mut present_slices = vec![0u64; nbits * lanes];
        let add = |slices: &mut [u64], mask: &[u64]| {
            for (l, &word) in mask.iter().enumerate() {
                let mut carry = word;
                let mut b = 0;
                while carry != 0 {
                    let slot = &mut slices[b * lanes + l];
                    let next = *slot & carry;
                    *slot ^= carry;
                    carry = next;
                    b += 1;
                }
            }
        };
        let count_of = |slices: &[u64], m: usize| -> f64 {
            let (l, bit) = (m / 64, m % 64);
            (0..nbits)
                .map(|b| (((slices[b * lanes + l] >> bit) & 1) << b) as f64)
                .sum()
        };
        for _ in 0..r {
            // The index stream of paired_bootstrap_mean_diff.
            if binary {
                right_slices.iter_mut().for_each(|w| *w = 0);
                present_slices.iter_mut().for_each(|w| *w = 0);
                for _ in 0..n_items {
                    let i = rng.below(n_items);
                    add(&mut right_slices, &right_masks[i * lanes..(i + 1) * lanes]);
                    if !wrong {
                        add(
                            &mut present_slices,
                            &present_masks[i * lanes..(i + 1) * lanes],
                        );
                    }
                }
            } else {
                counts.iter_mut().for_each(|c| *c = 0);
                for _ in 0..n_items {
                    counts[rng.below(n_items)] += 1;
                }
                for (f, &c) in counts_f.iter_mut().zip(&counts) {
                    *f = f64::from(c);
                }
            }
            for m in 0..k {
                s[m] = if binary {
                    count_of(&right_slices, m)
                } else {
                    dot(&counts_f, &x[m])
                };
                means[m] = if wrong {
                    s[m] / nf
                } else {
                    let w = if binary {
                        count_of(&present_slices, m)
                    } else {
                        dot(&counts_f, &present[m])
                    };
                    if w > 0.0 {
                        s[m] / w
                    } else {
                        f64::NAN
                    }
                };
            }
            for (p, &(ma, mb)) in pair_models.iter().enumerate() {
                if dense_pair[p] {
                    pair_diffs[p].push((s[ma] - s[mb]) / nf);
                }
            }
            for m in 0..k {
                let better = (0..k)
                    .filter(|&j| j != m && means[j].is_finite() && means[j] > means[m])
                    .count();
                // A tie spans ranks: the best possible counts for the low end, the worst
                // for the high end (issue 40: counting ties at their best rank alone gave
                // [1, 1] to every model of a board where all scored 0).
                let tied = (0..k)
                    .filter(|&j| j != m && means[j].is_finite() && means[j] == means[m])
                    .count();
                rank_counts[m][better] += 1;
                worst_counts[m][better + tied] += 1;
            }
        }
        for (p, &(ma, mb)) in pair_models.iter().enumerate() {
            if pairs[p].n_shared == 0 {
                continue;
            }
            let interval = if dense_pair[p] {
                percentile_interval(&mut pair_diffs[p])
            } else {
                let (a, b): (Vec<f64>, Vec<f64>) = vals[ma]
                    .iter()
                    .zip(&vals[mb])
                    .filter(|(x, y)| !x.is_nan() && !y.is_nan())
                    .map(|(x, y)| (*x, *y))
                    .unzip();
                paired_bootstrap_mean_diff(&a, &b, r, opts.seed, 0.95)
                    .ok()
                    .map(|b| (b.low, b.high))
            };
            pairs[p].diff_low = interval.map(|i| i.0);
            pairs[p].diff_high = interval.map(|i| i.1);
        }
        for m in 0..k {
            let at = |counts: &[usize], pos: usize| {
                let mut seen = 0;
                for (q, &c) in counts.iter().enumerate() {
                    seen += c;
                    if seen > pos {
                        return q + 1;
                    }
                }
                k
            };
            let lo = at(&rank_counts[m], ((r - 1) as f64 * 0.025).floor() as usize);
            let hi = at(&worst_counts[m], ((r - 1) as f64 * 0.975).ceil() as usize);
            boot_rank[m] = Some((lo, hi));
        }
    }

    // Decisions in board order.
    let mut sig = vec![vec![false; k]; k];
    for ((ma, mb), p) in pair_models.iter().zip(&pairs) {
        if p.significant {
            sig[pos[*ma]][pos[*mb]] = true;
            sig[pos[*mb]][pos[*ma]] = true;
        }
    }
    let ordered_score: Vec<f64> = order.iter().map(|&m| score[m]).collect();
    let ranges = rank_ranges(&sig, |j, i| ordered_score[j] > ordered_score[i]);
    let letters = compact_letters(&sig).unwrap_or_else(|| {
        notes.push(format!(
            "the compact letter display needs more than {} letters; groups are not shown",
            super::groups::MAX_LETTER_GROUPS
        ));
        vec![String::new(); k]
    });

    // Each model's score interval: Wilson over its compared items, items as clusters.
    let score_iv: Vec<Option<(f64, f64)>> = (0..k)
        .map(|m| {
            let xs: Vec<f64> = vals[m].iter().copied().filter(|x| !x.is_nan()).collect();
            let n = xs.len();
            if n == 0 || xs.iter().any(|x| !(0.0..=1.0).contains(x)) {
                return None;
            }
            let mean = xs.iter().sum::<f64>() / n as f64;
            let se = if n > 1 {
                (xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / ((n - 1) as f64 * n as f64))
                    .sqrt()
            } else {
                0.0
            };
            let reps: Vec<usize> = prep.replicates[m].iter().flatten().map(Vec::len).collect();
            // 0/1 items without replicates (MM-IQ): the plain Wilson interval (binomial SE,
            // normal quantile); otherwise the items' own spread and Student t.
            let binary = xs.iter().all(|&x| x == 0.0 || x == 1.0);
            let clustered = reps.iter().any(|&r| r > 1) || !binary;
            let obs = reps.iter().sum::<usize>() + n.saturating_sub(reps.len());
            let se = if clustered {
                se
            } else {
                (mean * (1.0 - mean) / n as f64).sqrt()
            };
            crate::stats::interval::wilson_clustered(mean, se, n, obs, clustered)
                .map(|i| (i.low, i.high))
        })
        .collect();
    let models: Vec<ModelRow> = order
        .iter()
        .enumerate()
        .map(|(p, &m)| {
            let (tl, th) = ranges[p];
            let (bl, bh) = match boot_rank[m] {
                Some((l, h)) => (Some(l), Some(h)),
                None => (None, None),
            };
            let (rank_low, rank_high) = match (opts.range, boot_rank[m]) {
                (RankRange::Bootstrap, Some((l, h))) => (l, h),
                _ => (tl, th),
            };
            let reps: Vec<&[f64]> = prep.replicates[m]
                .iter()
                .flatten()
                .map(Vec::as_slice)
                .collect();
            let clustered = if reps.iter().any(|r| r.len() > 1) {
                clustered_mean_se(&reps).ok()
            } else {
                None
            };
            ModelRow {
                name: prep.names[m].clone(),
                n: answered[m],
                benchmark_size: n_items,
                coverage: answered[m] as f64 / n_items as f64,
                full_coverage: answered[m] == n_items,
                score: score[m],
                score_answered: score_answered[m],
                rank_low,
                rank_high,
                tests_rank_low: tl,
                tests_rank_high: th,
                boot_rank_low: bl,
                boot_rank_high: bh,
                score_low: score_iv[m].map(|s| s.0),
                score_high: score_iv[m].map(|s| s.1),
                group: letters[p].clone(),
                leader_group: p == 0 || !sig[0][p],
                clustered,
            }
        })
        .collect();

    let mdd = board_mdd(test, &pair_sizes, &spreads, opts);
    let reported = rank_reported(&input.reported, &models);
    Ok(Board {
        bench: input.bench,
        benchmark_size: n_items,
        missing: opts.missing,
        missing_label: opts.missing.label().into(),
        test: test.name().into(),
        adjust: opts.adjust.name().into(),
        alpha: opts.alpha,
        range: opts.range,
        resamples: opts.resamples,
        seed: opts.seed,
        models,
        pairs,
        mdd,
        reported,
        notes,
    })
}

/// `Σ a_i b_i` with four running sums (so the compiler can use vector registers).
fn dot(a: &[f64], b: &[f64]) -> f64 {
    let mut acc = [0.0f64; 4];
    let (ca, cb) = (a.chunks_exact(4), b.chunks_exact(4));
    let (ra, rb) = (ca.remainder(), cb.remainder());
    for (x, y) in ca.zip(cb) {
        for j in 0..4 {
            acc[j] += x[j] * y[j];
        }
    }
    let tail: f64 = ra.iter().zip(rb).map(|(x, y)| x * y).sum();
    acc[0] + acc[1] + acc[2] + acc[3] + tail
}

/// The 2.5% and 97.5% quantiles of `v` with numpy's default linear interpolation
/// ([`crate::stats::describe::quantile`]), by selection instead of a full sort; `None` when
/// `v` is empty. Reorders `v`.
fn percentile_interval(v: &mut [f64]) -> Option<(f64, f64)> {
    if v.is_empty() {
        return None;
    }
    let mut at = |p: f64| {
        let h = (v.len() - 1) as f64 * p;
        let lo = h.floor() as usize;
        let (_, &mut a, rest) = v.select_nth_unstable_by(lo, f64::total_cmp);
        let b = if h > lo as f64 {
            rest.iter().copied().fold(f64::INFINITY, f64::min)
        } else {
            a
        };
        a + (h - lo as f64) * (b - a)
    };
    Some((at(0.025), at(0.975)))
}

fn median_of(v: &[f64]) -> Option<f64> {
    crate::stats::describe::median(v).ok()
}

fn board_mdd(test: PairTest, sizes: &[usize], spreads: &[f64], opts: &BoardOptions) -> Option<Mdd> {
    let sizes_f: Vec<f64> = sizes.iter().map(|&n| n as f64).collect();
    let n = median_of(&sizes_f)?.round() as usize;
    let spread = median_of(spreads)?;
    let (difference, method) = match test {
        PairTest::McNemarExact | PairTest::McNemarMidP => {
            (mcnemar_mdd(n, spread, opts.alpha, opts.power)?, "mcnemar")
        }
        PairTest::Wilcoxon => (
            paired_mdd(n, spread, opts.alpha, opts.power)?,
            "paired_normal",
        ),
    };
    Some(Mdd {
        difference,
        alpha: opts.alpha,
        power: opts.power,
        n,
        spread,
        method: method.into(),
        text: format!(
            "differences below {:.1} points cannot be told apart here (α = {}, power {:.0}%, {} items per pair)",
            difference * 100.0,
            opts.alpha,
            opts.power * 100.0,
            n
        ),
    })
}

fn rank_reported(reported: &[ReportedRow], models: &[ModelRow]) -> Vec<ReportedRow> {
    if reported.is_empty() {
        return Vec::new();
    }
    let mut intervals: Vec<(f64, f64)> = reported
        .iter()
        .map(|r| (r.low.unwrap_or(f64::NAN), r.high.unwrap_or(f64::NAN)))
        .collect();
    intervals.extend(models.iter().map(|m| {
        (
            m.score_low.unwrap_or(f64::NAN),
            m.score_high.unwrap_or(f64::NAN),
        )
    }));
    let ranks = crate::leaderboard::tie_ranks(&intervals);
    reported
        .iter()
        .zip(ranks)
        .map(|(r, rank)| ReportedRow {
            interval_rank: rank,
            label: "reported without item data: ranked by interval overlap only, not tested".into(),
            ..r.clone()
        })
        .collect()
}
