//! The planner (issue 40, item 2): how many items a board needs to tell apart a difference the
//! user types, from the discordance its model pairs show, and what regenerations per item buy.
//!
//! - Paired proportions (McNemar boards): Connor's (1987) sample size
//!   `n = [z_(1-α/2) √ψ + z_power √(ψ - δ²)]² / δ²` ([`mcnemar_items`]), with ψ each pair's
//!   observed share of discordant items (exactly one of the two right), not an assumed
//!   correlation. It is the inverse of the board's minimum detectable difference
//!   ([`super::power::mcnemar_mdd`]). Connor's formula is the power of the asymptotic McNemar
//!   test (`(b - c)² / (b + c)` against χ²₁); the exact McNemar test the MM-IQ board runs is
//!   conservative and has less power at that `n` ([`mcnemar_exact_power`] gives it: 0.776
//!   instead of 0.80 at ψ = 0.3, δ = 0.1, n = 234).
//! - Paired scores (Wilcoxon boards, KiVA trial means, MM-OPERA item scores): the normal
//!   approximation `n = ((z_(1-α/2) + z_power) · sd_d / δ)²` ([`paired_items`]) with `sd_d` each
//!   pair's SD of item differences, the inverse of [`super::power::paired_mdd`].
//! - Regenerations (KiVA's three per trial, MM-OPERA ICA's rotations): a one-way random-effects
//!   ANOVA of a model's replicate scores by item ([`variance_split`]) splits their variance into
//!   a between-item part σ²_b and a within-item (replicate) part σ²_w, and the standard error of
//!   the model's score with `K` replicates per item over the board's `n` items is
//!   `SE_K = √((σ²_b + σ²_w / K) / n)`: more regenerations shrink only the within part, so the
//!   SE can never go below `√(σ²_b / n)`; only more items shrink that.
//!
//! The summary takes the median ψ (or SD) over pairs, as the board's MDD does.

use serde::{Deserialize, Serialize};

use super::board::{build_board, prepare, Bench, BoardInput, BoardOptions, Missing, PairTest};
use super::power::Mdd;
use super::RanksError;
use crate::stats::dist::{beta_inc, binomial_cdf, binomial_pmf, normal_quantile};

/// Replicates per item for which [`Plan::replicates`] gives the standard error.
pub const REPLICATE_COUNTS: [usize; 5] = [1, 2, 3, 5, 10];

/// The largest item count for which [`mcnemar_exact_power`] is computed (its cost grows with
/// the count; beyond it the plan gives Connor's figure alone).
pub const MAX_EXACT_POWER_ITEMS: usize = 100_000;

/// Connor's (1987) items for a McNemar comparison to detect a difference `delta` between two
/// paired proportions whose discordant share is `psi`, two-sided at level `alpha` with power
/// `power`: `n = [z_(1-α/2) √ψ + z_power √(ψ - δ²)]² / δ²`, real-valued (round it up for a
/// count, as [`PairPlan::items`] does).
///
/// `None` when an argument is out of range (`alpha`, `power` not in (0, 1), `psi` not in
/// (0, 1], `delta` not positive), when `δ² >= ψ` (the formula's domain), and when `δ > ψ`: a
/// difference of paired proportions is `p10 - p01`, never more than the discordant share
/// `p10 + p01`.
///
/// # Examples
/// ```
/// use coglab_core::ranks::plan::mcnemar_items;
/// // ψ = 0.3, δ = 0.1: [1.959964 · 0.547723 + 0.841621 · 0.538516]² / 0.01 = 233.0945
/// // (the formula evaluated in Python with the quantiles as literals).
/// let n = mcnemar_items(0.1, 0.3, 0.05, 0.8).unwrap();
/// assert!((n - 233.0945382046738).abs() < 1e-9);
/// assert!(mcnemar_items(0.1, 0.05, 0.05, 0.8).is_none()); // δ > ψ
/// ```
pub fn mcnemar_items(delta: f64, psi: f64, alpha: f64, power: f64) -> Option<f64> {
    if !(delta > 0.0 && psi > 0.0 && psi <= 1.0) || delta > psi || delta * delta >= psi {
        return None;
    }
    let (za, zb) = quantiles(alpha, power)?;
    let n = (za * psi.sqrt() + zb * (psi - delta * delta).sqrt()).powi(2) / (delta * delta);
    n.is_finite().then_some(n)
}

/// Items for a paired comparison of scores whose item differences have SD `sd` to detect a
/// mean difference `delta` (normal approximation, two-sided): `n = ((z_(1-α/2) + z_power) ·
/// sd / δ)²`, real-valued. `None` when an argument is out of range (`alpha`, `power` not in
/// (0, 1), `delta` not positive, `sd` not positive and finite).
///
/// # Examples
/// ```
/// use coglab_core::ranks::plan::paired_items;
/// // ((1.959964 + 0.841621) · 0.5 / 0.1)² = 196.2220
/// let n = paired_items(0.1, 0.5, 0.05, 0.8).unwrap();
/// assert!((n - 196.22199335872716).abs() < 1e-9);
/// ```
pub fn paired_items(delta: f64, sd: f64, alpha: f64, power: f64) -> Option<f64> {
    if !(delta > 0.0 && sd > 0.0 && sd.is_finite()) {
        return None;
    }
    let (za, zb) = quantiles(alpha, power)?;
    let n = ((za + zb) * sd / delta).powi(2);
    n.is_finite().then_some(n)
}

/// `z_(1-α/2)` and `z_power`, or `None` when `alpha` or `power` is not in (0, 1).
fn quantiles(alpha: f64, power: f64) -> Option<(f64, f64)> {
    if !(alpha > 0.0 && alpha < 1.0 && power > 0.0 && power < 1.0) {
        return None;
    }
    Some((
        normal_quantile(1.0 - alpha / 2.0).ok()?,
        normal_quantile(power).ok()?,
    ))
}

/// The power of the exact two-sided McNemar test ([`crate::stats::paired::mcnemar_exact_p`]
/// below `alpha`) on `n` items when a share `psi` of items is discordant and the paired
/// proportions differ by `delta` (`p10 = (ψ + δ)/2`, `p01 = (ψ - δ)/2`), computed exactly:
/// the discordant count `D ~ Bin(n, ψ)`; given `D`, the first model's count `B ~ Bin(D, q)`
/// with `q = p10 / ψ`; the test rejects when `min(B, D - B) <= k_D`, `k_D` the largest `k`
/// with `2 · P(Bin(D, ½) <= k) < α`; so the power is
/// `Σ_D P(D) · [P(B <= k_D) + P(B >= D - k_D)]`.
///
/// `None` for arguments out of range (as [`mcnemar_items`]) or `n` above
/// [`MAX_EXACT_POWER_ITEMS`].
///
/// # Examples
/// ```
/// use coglab_core::ranks::plan::mcnemar_exact_power;
/// // At Connor's n for ψ = 0.3, δ = 0.1 (233.09, so 234 items) the exact test has power 0.7756,
/// // not 0.80 (a plain sum over every (D, B) in Python gives 0.7755588304807329).
/// let p = mcnemar_exact_power(234, 0.3, 0.1, 0.05).unwrap();
/// assert!((p - 0.7755588304807329).abs() < 1e-9);
/// ```
pub fn mcnemar_exact_power(n: usize, psi: f64, delta: f64, alpha: f64) -> Option<f64> {
    if n == 0
        || n > MAX_EXACT_POWER_ITEMS
        || !(alpha > 0.0 && alpha < 1.0)
        || !(psi > 0.0 && psi <= 1.0)
        || !(delta >= 0.0 && delta <= psi)
    {
        return None;
    }
    let q = (psi + delta) / (2.0 * psi);
    let nn = n as u64;
    // D is concentrated around nψ: leave out the D whose weight is below 1e-300 of the whole.
    let mut power = 0.0;
    // k: the largest k with 2 F(k; D, ½) < α, or None; non-decreasing in D.
    let mut k: Option<u64> = None;
    for d in 1..=nn {
        while {
            let next = k.map_or(0, |k| k + 1);
            2 * next < d && 2.0 * binomial_cdf(next, d, 0.5) < alpha
        } {
            k = Some(k.map_or(0, |k| k + 1));
        }
        let Some(kd) = k else { continue };
        let w = binomial_pmf(d, nn, psi);
        if w < 1e-300 {
            continue;
        }
        // P(B <= k) = I_(1-q)(D - k, k + 1); P(B >= D - k) = I_q(D - k, k + 1).
        let (a, b) = ((d - kd) as f64, (kd + 1) as f64);
        power += w * (beta_inc(a, b, 1.0 - q) + beta_inc(a, b, q));
    }
    Some(power.min(1.0))
}

/// One pair's plan.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PairPlan {
    /// The higher-scoring model.
    pub a: String,
    /// The other model.
    pub b: String,
    /// Items compared now.
    pub n: usize,
    /// The discordant share ψ (McNemar) or the SD of item differences (scores); `None`
    /// without compared items.
    pub spread: Option<f64>,
    /// The items needed for the planned difference (real-valued formula), `None` when it
    /// cannot be reached ([`mcnemar_items`], [`paired_items`]).
    pub items_exact: Option<f64>,
    /// `items_exact` rounded up.
    pub items: Option<u64>,
}

/// The board-level figures: the median pair, as the board's MDD takes it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlanSummary {
    /// The median ψ (or SD) over pairs with compared items.
    pub spread: f64,
    /// The items needed at the median spread (real-valued), `None` when not reachable.
    pub items_exact: Option<f64>,
    /// `items_exact` rounded up.
    pub items: Option<u64>,
    /// The fewest items any pair needs.
    pub min_items: Option<u64>,
    /// The most items any pair needs (of the pairs where the difference can be reached).
    pub max_items: Option<u64>,
    /// Pairs for which the difference cannot be reached with their spread (δ above ψ, or
    /// identical models).
    pub unreachable: usize,
    /// McNemar boards: the power the exact McNemar test has at `items` (Connor's `n` is for the
    /// asymptotic test; [`mcnemar_exact_power`]).
    pub exact_power: Option<f64>,
}

/// One model's replicate variance split and what `K` replicates per item buy.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReplicatePlan {
    /// Model name.
    pub model: String,
    /// The split ([`variance_split`]) over the model's scored items.
    pub split: VarianceSplit,
    /// The SE of the model's score at the board's item count with `K` replicates per item,
    /// for each `K` in [`REPLICATE_COUNTS`]: `(K, SE_K)`.
    pub se: Vec<(usize, f64)>,
}

/// Between- and within-item variance of replicate scores (one-way random-effects ANOVA,
/// method of moments).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct VarianceSplit {
    /// Items (groups) with at least one replicate.
    pub items: usize,
    /// Replicates over all items.
    pub replicates: usize,
    /// Mean replicates per item.
    pub mean_replicates: f64,
    /// Between-item variance σ²_b (truncated at 0).
    pub between: f64,
    /// Within-item (replicate) variance σ²_w.
    pub within: f64,
}

/// The planner's answer for a board.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Plan {
    /// The benchmark.
    pub bench: Bench,
    /// The paired test the board runs ([`PairTest::name`]).
    pub test: String,
    /// `mcnemar` (Connor's formula) or `paired_normal`.
    pub method: String,
    /// The difference planned for, as a fraction of the score scale.
    pub mde: f64,
    /// Significance level (two-sided).
    pub alpha: f64,
    /// Power.
    pub power: f64,
    /// Items on the board now.
    pub benchmark_size: usize,
    /// The board's current minimum detectable difference.
    pub mdd: Option<Mdd>,
    /// Every pair of computed models, in board order.
    pub pairs: Vec<PairPlan>,
    /// The median pair, when some pair has compared items.
    pub summary: Option<PlanSummary>,
    /// Boards whose items have several replicates: each model's variance split and SE per `K`.
    pub replicates: Vec<ReplicatePlan>,
    /// Things the reader should know.
    pub notes: Vec<String>,
}

/// The between- and within-item variance of replicate scores grouped by item (one-way
/// random-effects ANOVA, method of moments, unbalanced groups allowed). With `a` items,
/// `n_i` replicates of item `i`, `N = Σ n_i`, item means `ȳ_i` and grand mean `ȳ`:
/// `MSW = Σ_i Σ_j (y_ij - ȳ_i)² / (N - a)`, `MSB = Σ_i n_i (ȳ_i - ȳ)² / (a - 1)`,
/// `n₀ = (N - Σ n_i² / N) / (a - 1)`, and `σ²_w = MSW`, `σ²_b = max(0, (MSB - MSW) / n₀)`.
///
/// `None` with fewer than two items, no item with two replicates (`N = a`), or a non-finite
/// score. Empty items are skipped.
///
/// # Examples
/// ```
/// use coglab_core::ranks::plan::variance_split;
/// // Items {1, 0}, {1, 1}: ȳ_i = 0.5, 1; ȳ = 0.75; MSW = 0.5 / 2 = 0.25;
/// // MSB = (2 · 0.0625 + 2 · 0.0625) / 1 = 0.25; n₀ = 2; σ²_b = 0.
/// let s = variance_split(&[&[1.0, 0.0], &[1.0, 1.0]]).unwrap();
/// assert_eq!((s.between, s.within), (0.0, 0.25));
/// ```
pub fn variance_split(items: &[&[f64]]) -> Option<VarianceSplit> {
    let groups: Vec<&[f64]> = items.iter().copied().filter(|g| !g.is_empty()).collect();
    if groups.iter().flat_map(|g| g.iter()).any(|x| !x.is_finite()) {
        return None;
    }
    let a = groups.len();
    let total: usize = groups.iter().map(|g| g.len()).sum();
    if a < 2 || total <= a {
        return None;
    }
    let nf = total as f64;
    let grand = groups.iter().flat_map(|g| g.iter()).sum::<f64>() / nf;
    let (mut ssw, mut ssb, mut sum_n2) = (0.0, 0.0, 0.0);
    for g in &groups {
        let ni = g.len() as f64;
        let m = g.iter().sum::<f64>() / ni;
        ssw += g.iter().map(|y| (y - m) * (y - m)).sum::<f64>();
        ssb += ni * (m - grand) * (m - grand);
        sum_n2 += ni * ni;
    }
    let msw = ssw / (nf - a as f64);
    let msb = ssb / (a as f64 - 1.0);
    let n0 = (nf - sum_n2 / nf) / (a as f64 - 1.0);
    Some(VarianceSplit {
        items: a,
        replicates: total,
        mean_replicates: nf / a as f64,
        between: ((msb - msw) / n0).max(0.0),
        within: msw,
    })
}

/// The SE of a mean score over `n` items with `k` replicates per item:
/// `√((σ²_b + σ²_w / k) / n)`; `None` for `n == 0` or `k == 0`.
///
/// # Examples
/// ```
/// use coglab_core::ranks::plan::{replicate_se, VarianceSplit};
/// let s = VarianceSplit { items: 3, replicates: 9, mean_replicates: 3.0, between: 0.2, within: 0.1 };
/// // √((0.2 + 0.1 / 2) / 100) = 0.05
/// assert!((replicate_se(&s, 2, 100).unwrap() - 0.05).abs() < 1e-15);
/// ```
pub fn replicate_se(split: &VarianceSplit, k: usize, n: usize) -> Option<f64> {
    if n == 0 || k == 0 {
        return None;
    }
    Some(((split.between + split.within / k as f64) / n as f64).sqrt())
}

/// Plans a board built from `input` with `opts` (missing items, test, α, power; the
/// bootstrap is not run) for a difference `mde`: see the [module docs](self).
///
/// # Errors
/// [`RanksError::BadOption`] for `mde`, α or power outside (0, 1),
/// [`RanksError::TooFewModels`] with fewer than two models with scored items, and what
/// [`build_board`] refuses.
///
/// # Examples
/// ```
/// use coglab_core::ranks::plan::plan;
/// use coglab_core::ranks::{Bench, BoardInput, BoardOptions, ModelScores};
/// let model = |name: &str, right: &[u32]| ModelScores {
///     name: name.into(),
///     source: String::new(),
///     items: (0..40).map(|i| (format!("{i:02}"), vec![f64::from(u8::from(right.contains(&i)))])).collect(),
/// };
/// let a: Vec<u32> = (0..30).collect();
/// let b: Vec<u32> = (0..12).collect(); // 18 discordant items of 40: ψ = 0.45
/// let input = BoardInput { bench: Bench::Mmiq, benchmark_items: None,
///     models: vec![model("A", &a), model("B", &b)], reported: vec![] };
/// let p = plan(&input, &BoardOptions::default(), 0.1).unwrap();
/// let s = p.summary.unwrap();
/// assert_eq!(s.spread, 0.45);
/// // [1.959964 · √0.45 + 0.841621 · √0.44]² / 0.01 = 350.83, so 351 items.
/// assert_eq!(s.items, Some(351));
/// ```
pub fn plan(input: &BoardInput, opts: &BoardOptions, mde: f64) -> Result<Plan, RanksError> {
    for (name, v) in [("mde", mde), ("alpha", opts.alpha), ("power", opts.power)] {
        if !(v > 0.0 && v < 1.0) {
            return Err(RanksError::BadOption {
                name,
                value: v.to_string(),
                expected: "a number strictly between 0 and 1 (0.03 = 3 points)",
            });
        }
    }
    let board_opts = BoardOptions {
        resamples: 0,
        ..*opts
    };
    let board = build_board(input, &board_opts)?;
    if board.models.len() < 2 {
        return Err(RanksError::TooFewModels {
            found: board.models.len(),
        });
    }
    let mut notes = Vec::new();
    let test = opts.test.unwrap_or(input.bench.default_test());
    let mcnemar = matches!(test, PairTest::McNemarExact | PairTest::McNemarMidP);
    let prep = prepare(input, &mut notes, 0)?;
    let wrong = opts.missing == Missing::Wrong;
    let index = |name: &str| prep.names.iter().position(|n| n == name);
    let (alpha, power) = (opts.alpha, opts.power);

    let mut pairs = Vec::with_capacity(board.pairs.len());
    for p in &board.pairs {
        let spread = if p.n_shared == 0 {
            None
        } else if mcnemar {
            match (p.a_only, p.b_only) {
                (Some(b), Some(c)) => Some((b + c) as f64 / p.n_shared as f64),
                _ => None,
            }
        } else {
            match (index(&p.a), index(&p.b)) {
                (Some(ma), Some(mb)) => {
                    diff_sd(&prep.values[ma], &prep.values[mb], wrong, p.n_shared)
                }
                _ => None,
            }
        };
        let items_exact = spread.and_then(|s| needed(mcnemar, mde, s, alpha, power));
        pairs.push(PairPlan {
            a: p.a.clone(),
            b: p.b.clone(),
            n: p.n_shared,
            spread,
            items_exact,
            items: items_exact.map(ceil_count),
        });
    }

    let spreads: Vec<f64> = pairs.iter().filter_map(|p| p.spread).collect();
    let summary = crate::stats::describe::median(&spreads).ok().map(|spread| {
        let items_exact = needed(mcnemar, mde, spread, alpha, power);
        let items = items_exact.map(ceil_count);
        let counts = pairs.iter().filter_map(|p| p.items);
        let exact_power = match (test, items) {
            (PairTest::McNemarExact, Some(n)) => usize::try_from(n)
                .ok()
                .and_then(|n| mcnemar_exact_power(n, spread, mde, alpha)),
            _ => None,
        };
        PlanSummary {
            spread,
            items_exact,
            items,
            min_items: counts.clone().min(),
            max_items: counts.max(),
            unreachable: pairs.iter().filter(|p| p.items.is_none()).count(),
            exact_power,
        }
    });
    if let Some(s) = &summary {
        if s.unreachable > 0 {
            notes.push(format!(
                "{} pair(s) cannot show a difference of {:.1} points: {}",
                s.unreachable,
                100.0 * mde,
                if mcnemar {
                    "their share of discordant items is below the difference (or its square root is), or they share no item"
                } else {
                    "their items do not differ, or they share no item"
                }
            ));
        }
    }

    // Replicates: models whose items have more than one.
    let mut replicates = Vec::new();
    let n_items = board.benchmark_size;
    for row in &board.models {
        let Some(m) = index(&row.name) else { continue };
        let reps: Vec<&[f64]> = prep.replicates[m]
            .iter()
            .flatten()
            .map(Vec::as_slice)
            .collect();
        if !reps.iter().any(|r| r.len() > 1) {
            continue;
        }
        if let Some(split) = variance_split(&reps) {
            let se = REPLICATE_COUNTS
                .iter()
                .filter_map(|&k| replicate_se(&split, k, n_items).map(|s| (k, s)))
                .collect();
            replicates.push(ReplicatePlan {
                model: row.name.clone(),
                split,
                se,
            });
        }
    }

    Ok(Plan {
        bench: input.bench,
        test: test.name().into(),
        method: if mcnemar { "mcnemar" } else { "paired_normal" }.into(),
        mde,
        alpha,
        power,
        benchmark_size: n_items,
        mdd: board.mdd,
        pairs,
        summary,
        replicates,
        notes,
    })
}

fn needed(mcnemar: bool, mde: f64, spread: f64, alpha: f64, power: f64) -> Option<f64> {
    if mcnemar {
        mcnemar_items(mde, spread, alpha, power)
    } else {
        paired_items(mde, spread, alpha, power)
    }
}

/// `x` rounded up to a count (saturating; `x` is finite and positive here).
fn ceil_count(x: f64) -> u64 {
    x.ceil() as u64
}

/// The SD (n - 1) of the item differences of two models over their compared items (the
/// board's rule: unscored items count 0 when `wrong`, else only items both scored), as the
/// board's Wilcoxon MDD takes it; `None` below two items.
fn diff_sd(a: &[Option<f64>], b: &[Option<f64>], wrong: bool, n: usize) -> Option<f64> {
    if n < 2 {
        return None;
    }
    let d: Vec<f64> = a
        .iter()
        .zip(b)
        .filter_map(|(x, y)| match (x, y) {
            (Some(x), Some(y)) => Some(x - y),
            _ if wrong => Some(x.unwrap_or(0.0) - y.unwrap_or(0.0)),
            _ => None,
        })
        .collect();
    crate::stats::describe::std_dev(&d, 1).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ranks::ModelScores;
    use crate::stats::paired::mcnemar_exact_p;
    use crate::stats::rng::Rng;
    use approx::assert_relative_eq;

    const Z975: f64 = 1.959963984540054;
    const Z80: f64 = 0.8416212335729143;
    const Z90: f64 = 1.2815515655446004;
    const Z995: f64 = 2.5758293035489004;

    /// Connor's formula written out with the quantiles as literals.
    #[test]
    fn mcnemar_items_is_connors_formula() {
        for (delta, psi) in [
            (0.1, 0.3),
            (0.03, 0.2),
            (0.03, 1.0 / 6.0),
            (0.01, 0.05),
            (0.2, 0.5),
        ] {
            let n = mcnemar_items(delta, psi, 0.05, 0.8).unwrap();
            let want = (Z975 * f64::sqrt(psi) + Z80 * f64::sqrt(psi - delta * delta)).powi(2)
                / (delta * delta);
            assert!((n - want).abs() < 1e-9, "δ {delta} ψ {psi}: {n} vs {want}");
        }
        // α = 0.01, power 0.9.
        let n = mcnemar_items(0.05, 0.25, 0.01, 0.9).unwrap();
        let want = (Z995 * 0.5 + Z90 * f64::sqrt(0.25 - 0.0025)).powi(2) / 0.0025;
        assert!((n - want).abs() < 1e-9);
        // Values from Python (the same formula, literals): 1741.8357629868751, 95.7187425746787.
        assert_relative_eq!(
            mcnemar_items(0.03, 0.2, 0.05, 0.8).unwrap(),
            1741.8357629868751,
            max_relative = 1e-12
        );
        assert_relative_eq!(
            mcnemar_items(0.2, 0.5, 0.05, 0.8).unwrap(),
            95.7187425746787,
            max_relative = 1e-12
        );
        // Out of the formula's domain or of range.
        assert!(mcnemar_items(0.5, 0.2, 0.05, 0.8).is_none());
        assert!(mcnemar_items(0.1, 0.0, 0.05, 0.8).is_none());
        assert!(mcnemar_items(0.0, 0.3, 0.05, 0.8).is_none());
        assert!(mcnemar_items(0.1, 0.3, 0.0, 0.8).is_none());
        assert!(mcnemar_items(0.1, 0.3, 0.05, 1.0).is_none());
        assert!(mcnemar_items(f64::NAN, 0.3, 0.05, 0.8).is_none());
    }

    #[test]
    fn paired_items_is_the_normal_formula() {
        for (delta, sd) in [(0.1, 0.5), (0.03, 0.3), (0.05, 0.12)] {
            let n = paired_items(delta, sd, 0.05, 0.8).unwrap();
            let want = ((Z975 + Z80) * sd / delta).powi(2);
            assert!((n - want).abs() < 1e-9);
        }
        assert!(paired_items(0.1, 0.0, 0.05, 0.8).is_none());
        assert!(paired_items(0.1, f64::INFINITY, 0.05, 0.8).is_none());
    }

    /// The planner's count is the inverse of the board's MDD: at Connor's n, the MDD is δ.
    #[test]
    fn items_invert_the_mdd() {
        let n = mcnemar_items(0.04, 0.25, 0.05, 0.8).unwrap();
        // At the real-valued n the MDD would be 0.04 exactly; at the ceiling, a bit below.
        let d = crate::ranks::power::mcnemar_mdd(n.ceil() as usize, 0.25, 0.05, 0.8).unwrap();
        assert!(d <= 0.04 && d > 0.0399, "{d}");
    }

    /// 20,000 simulated pairs of models on Connor's n items, for two (ψ, δ): each item is
    /// discordant with probability ψ and, when discordant, won by the first model with
    /// probability (ψ + δ) / 2ψ, so p10 = (ψ + δ)/2 and p01 = (ψ - δ)/2.
    ///
    /// Connor's formula is the power of the asymptotic McNemar test, `(b - c)² / (b + c)` above
    /// χ²₁(0.95) = 3.841458820694124: its rejection rate is within ±1.5 points of 0.80. A plain
    /// sum over every (D, B) in Python gives its power at the rounded-up n (the ceiling adds a
    /// little): 0.8096 for ψ = 0.3, δ = 0.1, n = 234, and 0.8047 for ψ = 0.3, δ = 0.08,
    /// n = 366 (simulated with this seed: 0.8127 and 0.8056; the exact test 0.7794, 0.7798).
    ///
    /// The exact McNemar test the MM-IQ board runs is conservative: by the same sum 0.7756 and
    /// 0.7771, 2.2 to 2.4 points below 0.80, which the simulation and [`mcnemar_exact_power`]
    /// both reproduce (the simulated exact rate is checked against the sum, not against 0.80).
    #[test]
    fn simulated_mcnemar_power_at_connors_n() {
        // (ψ, δ, Connor's n rounded up, exact-test power and asymptotic power from Python).
        let cases = [
            (0.3, 0.1, 234, 0.7755588304807329, 0.8095859166690531),
            (0.3, 0.08, 366, 0.7770913860762977, 0.8047260992347942),
        ];
        let mut rng = Rng::new(20_260_040);
        let draws = 20_000;
        for (psi, delta, n_want, exact_power, asymptotic_power) in cases {
            let n = mcnemar_items(delta, psi, 0.05, 0.8).unwrap().ceil() as usize;
            assert_eq!(n, n_want);
            let p10 = (psi + delta) / 2.0;
            let (mut asymptotic, mut exact) = (0u32, 0u32);
            for _ in 0..draws {
                let (mut b, mut c) = (0u64, 0u64);
                for _ in 0..n {
                    let u = rng.next_f64();
                    if u < p10 {
                        b += 1;
                    } else if u < psi {
                        c += 1;
                    }
                }
                let d = (b + c) as f64;
                if d > 0.0 && (b as f64 - c as f64).powi(2) / d > 3.841458820694124 {
                    asymptotic += 1;
                }
                if mcnemar_exact_p(b, c) < 0.05 {
                    exact += 1;
                }
            }
            let rate = f64::from(asymptotic) / f64::from(draws);
            let rate_exact = f64::from(exact) / f64::from(draws);
            assert!(
                (rate - 0.8).abs() <= 0.015,
                "ψ {psi} δ {delta}: asymptotic {rate}"
            );
            // Within 3 SE (√(0.8 · 0.2 / 20000) = 0.0028) of the computed powers.
            assert!(
                (rate - asymptotic_power).abs() < 0.0085,
                "ψ {psi} δ {delta}: {rate}"
            );
            assert!(
                (rate_exact - exact_power).abs() < 0.0085,
                "ψ {psi} δ {delta}: exact {rate_exact}"
            );
            let computed = mcnemar_exact_power(n, psi, delta, 0.05).unwrap();
            assert!((computed - exact_power).abs() < 1e-9, "{computed}");
        }
    }

    /// Three items by three replicates: {1, 1, 1}, {1, 0, 0}, {0, 0, 0}.
    /// Item means 1, 1/3, 0; grand mean 4/9.
    /// SSW = 0 + [(2/3)² + (1/3)² + (1/3)²] + 0 = 6/9; MSW = (6/9) / (9 - 3) = 1/9.
    /// SSB = 3 · [(5/9)² + (1/9)² + (4/9)²] = 3 · 42/81 = 14/9; MSB = (14/9) / 2 = 7/9.
    /// n₀ = (9 - 27/9) / 2 = 3; σ²_b = (7/9 - 1/9) / 3 = 2/9; σ²_w = 1/9.
    /// At n = 3 items: SE_1 = √((2/9 + 1/9) / 3) = 1/3; SE_3 = √((2/9 + 1/27) / 3) = √7 / 9
    /// (= the SD of the three item means, √(7/27), over √3); SE_10 = √((2/9 + 1/90) / 3).
    #[test]
    fn variance_split_by_hand() {
        let s = variance_split(&[&[1.0, 1.0, 1.0], &[1.0, 0.0, 0.0], &[0.0, 0.0, 0.0]]).unwrap();
        assert_eq!((s.items, s.replicates), (3, 9));
        assert_relative_eq!(s.within, 1.0 / 9.0, max_relative = 1e-14);
        assert_relative_eq!(s.between, 2.0 / 9.0, max_relative = 1e-14);
        assert_relative_eq!(
            replicate_se(&s, 1, 3).unwrap(),
            1.0 / 3.0,
            max_relative = 1e-14
        );
        assert_relative_eq!(
            replicate_se(&s, 3, 3).unwrap(),
            7f64.sqrt() / 9.0,
            max_relative = 1e-14
        );
        assert_relative_eq!(
            replicate_se(&s, 10, 3).unwrap(),
            ((2.0 / 9.0 + 1.0 / 90.0) / 3.0f64).sqrt(),
            max_relative = 1e-14
        );
        // Unbalanced: {1, 0}, {1}, {0, 0, 1}: N = 6, a = 3, means 1/2, 1, 1/3, grand 1/2.
        // SSW = 0.5 + 0 + 2/3 = 7/6, MSW = (7/6) / 3 = 7/18; SSB = 0 + 1/4 + 3/36 = 1/3,
        // MSB = 1/6; n₀ = (6 - 14/6) / 2 = 11/6; (MSB - MSW) < 0, so σ²_b = 0.
        let u = variance_split(&[&[1.0, 0.0], &[1.0], &[0.0, 0.0, 1.0]]).unwrap();
        assert_relative_eq!(u.within, 7.0 / 18.0, max_relative = 1e-14);
        assert_eq!(u.between, 0.0);
        assert!(variance_split(&[&[1.0], &[0.0]]).is_none());
        assert!(variance_split(&[&[1.0, 0.0]]).is_none());
        assert!(variance_split(&[&[1.0, f64::NAN], &[0.0, 1.0]]).is_none());
    }

    fn kiva_model(name: &str, trials: &[[f64; 3]]) -> ModelScores {
        ModelScores {
            name: name.into(),
            source: String::new(),
            items: trials
                .iter()
                .enumerate()
                .map(|(i, t)| (format!("t{i}"), t.to_vec()))
                .collect(),
        }
    }

    /// A KiVA board of two models over 3 trials x 3 regenerations (Wilcoxon: paired normal).
    /// A: {1,1,1}, {1,0,0}, {0,0,0} (the hand case above); B: {1,1,1}, {0,0,0}, {0,0,0}.
    /// Trial differences 0, 1/3, 0: mean 1/9, SD √(((1/9)² · 2 + (2/9)²) / 2) = √3 / 9.
    /// δ = 0.1: n = ((1.959964 + 0.841621) · 0.19245 / 0.1)² = 29.07, so 30 items.
    #[test]
    fn plan_of_a_kiva_board() {
        let input = BoardInput {
            bench: Bench::Kiva,
            benchmark_items: None,
            models: vec![
                kiva_model("A", &[[1.0, 1.0, 1.0], [1.0, 0.0, 0.0], [0.0, 0.0, 0.0]]),
                kiva_model("B", &[[1.0, 1.0, 1.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]),
            ],
            reported: vec![],
        };
        let p = plan(&input, &BoardOptions::default(), 0.1).unwrap();
        assert_eq!(p.method, "paired_normal");
        let sd = 3f64.sqrt() / 9.0;
        assert_relative_eq!(p.pairs[0].spread.unwrap(), sd, max_relative = 1e-14);
        let want = ((Z975 + Z80) * sd / 0.1).powi(2);
        assert!((p.pairs[0].items_exact.unwrap() - want).abs() < 1e-9);
        assert_eq!(p.pairs[0].items, Some(30));
        assert!(p.summary.as_ref().unwrap().exact_power.is_none());
        // A's split is the hand case; B's items are constant: σ²_w = 0, σ²_b = MSB / 3 =
        // (3 · [(2/3)² + 2 · (1/3)²] / 2) / 3 = 1/3.
        let a = p.replicates.iter().find(|r| r.model == "A").unwrap();
        assert_relative_eq!(a.split.between, 2.0 / 9.0, max_relative = 1e-14);
        assert_eq!(a.se[2].0, 3);
        assert_relative_eq!(a.se[2].1, 7f64.sqrt() / 9.0, max_relative = 1e-14);
        let b = p.replicates.iter().find(|r| r.model == "B").unwrap();
        assert_relative_eq!(b.split.between, 1.0 / 3.0, max_relative = 1e-14);
        assert_eq!(b.split.within, 0.0);
    }

    #[test]
    fn plan_refuses_bad_options_and_one_model() {
        let one = BoardInput {
            bench: Bench::Kiva,
            benchmark_items: None,
            models: vec![kiva_model("A", &[[1.0, 1.0, 1.0], [0.0, 0.0, 0.0]])],
            reported: vec![],
        };
        let e = plan(&one, &BoardOptions::default(), 0.03).unwrap_err();
        assert_eq!(e, RanksError::TooFewModels { found: 1 });
        for mde in [0.0, 1.0, -0.1, f64::NAN, 3.0] {
            let e = plan(&one, &BoardOptions::default(), mde).unwrap_err();
            assert!(
                matches!(e, RanksError::BadOption { name: "mde", .. }),
                "{e}"
            );
        }
        let opts = BoardOptions {
            power: 1.5,
            ..BoardOptions::default()
        };
        let e = plan(&one, &opts, 0.03).unwrap_err().to_string();
        assert!(e.starts_with("option power = 1.5: expected"), "{e}");
    }
}
