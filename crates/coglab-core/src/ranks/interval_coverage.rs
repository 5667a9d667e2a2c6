//! Coverage of the intervals the app shows (issue 40, item 4): how often each 95% interval
//! contains the truth, over sample sizes `n` in [10, 300] and true proportions `p` in
//! [0.02, 0.98]. `docs/coverage.md` publishes the table `examples/coverage_table.rs` prints.
//!
//! The intervals, each computed by the app's own function on data drawn with a known truth:
//! - **Wilson** (per-category accuracy, [`crate::stats::interval::wilson`]): `n` items right
//!   with probability `p`. Exact: the sum of the binomial probabilities of the counts whose
//!   interval contains `p` ([`wilson_coverage`]), no simulation.
//! - **KiVA stage score** ([`crate::leaderboard::metrics::kiva_stage_interval`] of the
//!   report's mean and SE, ddof 0, as the KiVA report gives them): `n` trials of 3
//!   regenerations; a trial's probability `p_i ~ Beta(p phi, (1 - p) phi)` with `phi = 1`, so
//!   the correlation of two regenerations of a trial is `1 / (phi + 1) = 0.5`; truth `p`.
//!   Beside it, the interval it replaced, `mean ± t(0.975, n - 1) SE`.
//! - **MM-OPERA rate** ([`crate::leaderboard::mmopera::intervals`]' ratio interval, items as
//!   clusters): the same clustered data, one verdict (4 or 0) per regeneration. Beside it,
//!   `R ± t SE` clamped to [0, 1].
//! - **Rank board** ([`super::board::build_board`] with its defaults: 2,000 resamples, seed
//!   42, exact McNemar, Holm): five models on `n` items, true accuracies
//!   `p + (-2, -1, 0, 1, 2) d` with `d = sqrt(p (1 - p) / n)` (one standard error apart,
//!   clamped to [0.005, 0.995]), answers independent. Score interval: contains the model's
//!   true accuracy (beside it, the bootstrap percentile interval it replaced); rank intervals
//!   (bootstrap, and the range consistent with the tests): contain its true rank (1 = best).
//!   Averaged over the five models.
//!
//! Everything is seeded ([`crate::stats::rng::Rng`]); the same arguments give the same table.

use super::board::{build_board, Bench, BoardInput, BoardOptions, ModelScores};
use crate::stats::describe::t_interval;
use crate::stats::dist::binomial_pmf;
use crate::stats::interval::wilson;
use crate::stats::rng::Rng;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The sample sizes of the published table.
pub const TABLE_N: [usize; 7] = [10, 20, 30, 50, 100, 200, 300];

/// The true proportions of the published table.
pub const TABLE_P: [f64; 13] = [
    0.02, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.98,
];

/// Exact coverage of the 95% Wilson interval for `n` Bernoulli(`p`) items:
/// `sum_k P(K = k) [p in wilson(k, n)]`. `None` for `n = 0` or `p` outside [0, 1].
///
/// # Examples
/// ```
/// use coglab_core::ranks::interval_coverage::wilson_coverage;
/// // n = 1, p = 0.5: wilson(0, 1) = [0, 0.7935] and wilson(1, 1) = [0.2065, 1] both contain
/// // 0.5, so the coverage is 1.
/// assert!((wilson_coverage(1, 0.5).unwrap() - 1.0).abs() < 1e-15);
/// ```
pub fn wilson_coverage(n: usize, p: f64) -> Option<f64> {
    if n == 0 || !(0.0..=1.0).contains(&p) {
        return None;
    }
    let mut c = 0.0;
    for k in 0..=n as u64 {
        let ci = wilson(k, n as u64, 0.95).ok()?;
        if ci.low <= p && p <= ci.high {
            c += binomial_pmf(k, n as u64, p);
        }
    }
    Some(c)
}

/// A standard normal draw (Box-Muller).
fn normal(rng: &mut Rng) -> f64 {
    crate::items::simulate::normal(rng)
}

/// A Gamma(`shape`, 1) draw (Marsaglia and Tsang; shape below 1 by `G(a + 1) U^(1/a)`).
fn gamma(rng: &mut Rng, shape: f64) -> f64 {
    if shape < 1.0 {
        let u = 1.0 - rng.next_f64();
        return gamma(rng, shape + 1.0) * u.powf(1.0 / shape);
    }
    let d = shape - 1.0 / 3.0;
    let c = 1.0 / (9.0 * d).sqrt();
    loop {
        let x = normal(rng);
        let v = (1.0 + c * x).powi(3);
        if v <= 0.0 {
            continue;
        }
        let u = 1.0 - rng.next_f64();
        if u.ln() < 0.5 * x * x + d - d * v + d * v.ln() {
            return d * v;
        }
    }
}

/// A Beta(`a`, `b`) draw.
fn beta(rng: &mut Rng, a: f64, b: f64) -> f64 {
    let x = gamma(rng, a);
    let y = gamma(rng, b);
    if x + y > 0.0 {
        x / (x + y)
    } else {
        0.5
    }
}

/// The clustered data of the table: `n` trials x `replicates` 0/1 outcomes (see the module
/// documentation).
fn clustered_draw(rng: &mut Rng, n: usize, p: f64, replicates: usize, phi: f64) -> Vec<Vec<f64>> {
    (0..n)
        .map(|_| {
            let pi = beta(rng, p * phi, (1.0 - p) * phi);
            (0..replicates)
                .map(|_| f64::from(u8::from(rng.next_f64() < pi)))
                .collect()
        })
        .collect()
}

/// Coverages of the clustered intervals over `reps` simulated boards of `n` trials of 3
/// regenerations with true mean `p`: `[KiVA stage interval, mean ± t SE (before issue 40's
/// change), MM-OPERA ratio interval, R ± t SE (before)]`.
///
/// # Examples
/// ```
/// use coglab_core::ranks::interval_coverage::clustered_coverage;
/// let c = clustered_coverage(100, 0.5, 400, 1);
/// assert!(c.iter().all(|&x| x > 0.9));
/// ```
pub fn clustered_coverage(n: usize, p: f64, reps: usize, seed: u64) -> [f64; 4] {
    let mut rng = Rng::new(seed);
    let mut hits = [0usize; 4];
    let inside = |(lo, hi): (f64, f64)| usize::from(lo <= p && p <= hi);
    for _ in 0..reps {
        let data = clustered_draw(&mut rng, n, p, 3, 1.0);
        let means: Vec<f64> = data.iter().map(|t| t.iter().sum::<f64>() / 3.0).collect();
        // The KiVA report's mean and SE (ddof 0).
        if let Ok(m) = crate::stats::describe::mean_se(&means, 0) {
            hits[0] += inside(crate::leaderboard::metrics::kiva_stage_interval(m));
            hits[1] += inside(t_interval(m));
        }
        // R ± t SE with the ratio's linearised SE (equal clusters: the mean's, ddof 1).
        if let Ok(m) = crate::stats::describe::mean_se(&means, 1) {
            let (lo, hi) = t_interval(m);
            hits[3] += inside((lo.max(0.0), hi.min(1.0)));
        }
        // MM-OPERA's ratio interval: per item (sum of verdicts, verdicts).
        let items: Vec<crate::leaderboard::mmopera::ItemScores> = data
            .iter()
            .enumerate()
            .map(|(i, t)| crate::leaderboard::mmopera::ItemScores {
                id: format!("i{i}"),
                // A verdict of 4 is right (score 1 after / 4), 0 wrong.
                scores: t.iter().map(|&y| if y > 0.5 { 4 } else { 0 }).collect(),
                s_r: None,
                judges: vec![],
            })
            .collect();
        if let Some((_, iv)) = crate::leaderboard::mmopera::intervals(&items) {
            hits[2] += inside(iv.sr);
        }
    }
    hits.map(|h| h as f64 / reps as f64)
}

/// Coverages of the rank board's intervals over `reps` simulated boards (see the module
/// documentation): `[score interval, bootstrap percentile score interval (before issue 40's
/// change; 2,000 resamples of the model's items), bootstrap rank interval, tests rank range]`.
///
/// # Examples
/// ```
/// use coglab_core::ranks::interval_coverage::board_coverage;
/// let c = board_coverage(30, 0.5, 5, 1);
/// assert!(c.iter().all(|x| (0.0..=1.0).contains(x)));
/// ```
pub fn board_coverage(n: usize, p: f64, reps: usize, seed: u64) -> [f64; 4] {
    let mut rng = Rng::new(seed);
    let d = (p * (1.0 - p) / n as f64).sqrt();
    let truth: Vec<f64> = (0..5)
        .map(|m| (p + (m as f64 - 2.0) * d).clamp(0.005, 0.995))
        .collect();
    let (mut score, mut boot, mut tests, mut count) = (0usize, 0usize, 0usize, 0usize);
    let mut percentile = 0usize;
    let mut boot_rng = Rng::new(seed ^ 0x5EED);
    for _ in 0..reps {
        let models: Vec<ModelScores> = truth
            .iter()
            .enumerate()
            .map(|(m, &pm)| ModelScores {
                name: format!("m{m}"),
                source: String::new(),
                items: (0..n)
                    .map(|j| {
                        (
                            format!("q{j:04}"),
                            vec![f64::from(u8::from(rng.next_f64() < pm))],
                        )
                    })
                    .collect::<BTreeMap<_, _>>(),
            })
            .collect();
        let input = BoardInput {
            bench: Bench::Mmiq,
            benchmark_items: None,
            models,
            reported: vec![],
        };
        let Ok(board) = build_board(&input, &BoardOptions::default()) else {
            continue;
        };
        for row in &board.models {
            let Some(m) = row
                .name
                .strip_prefix('m')
                .and_then(|s| s.parse::<usize>().ok())
            else {
                continue;
            };
            let pm = truth[m];
            // True rank: 1 for the best (m = 4).
            let rank = 5 - m;
            count += 1;
            if let (Some(lo), Some(hi)) = (row.score_low, row.score_high) {
                score += usize::from(lo <= pm && pm <= hi);
            }
            if let Some(v) = input.models.iter().find(|x| x.name == row.name) {
                let ys: Vec<f64> = v.items.values().map(|r| r[0]).collect();
                let (lo, hi) = percentile_bootstrap(&ys, 2000, &mut boot_rng);
                percentile += usize::from(lo <= pm && pm <= hi);
            }
            if let (Some(lo), Some(hi)) = (row.boot_rank_low, row.boot_rank_high) {
                boot += usize::from(lo <= rank && rank <= hi);
            }
            tests += usize::from(row.tests_rank_low <= rank && rank <= row.tests_rank_high);
        }
    }
    let c = count.max(1) as f64;
    [score, percentile, boot, tests].map(|h| h as f64 / c)
}

/// The 95% percentile bootstrap interval of a mean (the board's score interval before issue
/// 40): 2.5% and 97.5% quantiles, linear interpolation, of `resamples` resampled means.
fn percentile_bootstrap(ys: &[f64], resamples: usize, rng: &mut Rng) -> (f64, f64) {
    let n = ys.len();
    let mut means: Vec<f64> = (0..resamples)
        .map(|_| (0..n).map(|_| ys[rng.below(n)]).sum::<f64>() / n as f64)
        .collect();
    means.sort_by(f64::total_cmp);
    let at = |q: f64| {
        let h = (resamples - 1) as f64 * q;
        let lo = h.floor() as usize;
        let hi = (lo + 1).min(resamples - 1);
        means[lo] + (h - lo as f64) * (means[hi] - means[lo])
    };
    (at(0.025), at(0.975))
}

/// One interval's row of the table: coverage at each `p` for one `n`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CoverageRow {
    /// The interval.
    pub interval: String,
    /// Sample size (items or trials).
    pub n: usize,
    /// Coverage at each of the table's `p`.
    pub coverage: Vec<f64>,
}

/// The whole table: every interval at every `n` of `ns` and `p` of `ps`; `reps` simulated
/// boards per cell for the clustered intervals and `board_reps` for the rank board's.
pub fn coverage_table(
    ns: &[usize],
    ps: &[f64],
    reps: usize,
    board_reps: usize,
    seed: u64,
) -> Vec<CoverageRow> {
    let mut out = Vec::new();
    for &n in ns {
        let mut rows: Vec<(String, Vec<f64>)> = [
            "Wilson (accuracy per category)",
            "KiVA stage score: Wilson, effective n, t (now)",
            "KiVA stage score: mean ± t SE (before)",
            "MM-OPERA rate: Wilson, effective n, t (now)",
            "MM-OPERA rate: R ± t SE (before)",
            "rank board score: Wilson (now)",
            "rank board score: bootstrap percentile (before)",
            "rank board: bootstrap rank interval",
            "rank board: tests rank range",
        ]
        .iter()
        .map(|s| (s.to_string(), Vec::new()))
        .collect();
        for (k, &p) in ps.iter().enumerate() {
            let cell_seed = seed ^ ((n as u64) << 20) ^ (k as u64);
            rows[0].1.push(wilson_coverage(n, p).unwrap_or(f64::NAN));
            let c = clustered_coverage(n, p, reps, cell_seed);
            let b = board_coverage(n, p, board_reps, cell_seed ^ 0xB0A2D);
            for (row, v) in rows[1..].iter_mut().zip(c.iter().chain(&b)) {
                row.1.push(*v);
            }
        }
        out.extend(rows.into_iter().map(|(interval, coverage)| CoverageRow {
            interval,
            n,
            coverage,
        }));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Wilson's exact coverage against an independent computation (Python: the Wilson bounds
    /// from the closed form with z = 1.959963984540054 and scipy.stats.binom.pmf summed over
    /// the k whose interval contains p): n = 10, p = 0.5: k = 2..8 covered,
    /// 0.9785156249999999; n = 20, p = 0.1: k = 0..4 covered, 0.9568255047155365.
    #[test]
    fn wilson_coverage_by_independent_sum() {
        assert!((wilson_coverage(10, 0.5).unwrap() - 0.978_515_625).abs() < 1e-12);
        assert!((wilson_coverage(20, 0.1).unwrap() - 0.956_825_504_715_536_5).abs() < 1e-12);
        assert_eq!(wilson_coverage(0, 0.5), None);
    }

    #[test]
    fn beta_draws_have_the_asked_mean_and_variance() {
        // Beta(0.3, 0.7): mean 0.3, variance 0.3 x 0.7 / 2 = 0.105 (phi = 1). 20,000 draws:
        // SE of the mean sqrt(0.105 / 20000) = 0.0023 (5 sigma 0.0115).
        let mut rng = Rng::new(5);
        let xs: Vec<f64> = (0..20_000).map(|_| beta(&mut rng, 0.3, 0.7)).collect();
        let m = xs.iter().sum::<f64>() / 20_000.0;
        let v = xs.iter().map(|x| (x - m).powi(2)).sum::<f64>() / 19_999.0;
        assert!((m - 0.3).abs() < 0.0115, "{m}");
        assert!((v - 0.105).abs() < 0.01, "{v}");
    }
}
