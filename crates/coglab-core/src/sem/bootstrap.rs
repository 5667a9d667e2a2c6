//! Bootstrap of the PLS estimates: resample models with replacement (seeded [`Rng`]), refit
//! the whole model (both stages) on each resample, and report percentile 95% intervals,
//! standard errors (SD of the resampled estimates, n − 1) and t = original / SE for the outer
//! weights, loadings, path coefficients and R².
//!
//! A resample whose fit fails (a constant indicator in the resample, a singular block,
//! non-convergence) is counted in `failed` and dropped. Signs are not aligned across
//! resamples (seminr does not either). Each resample costs one p x p correlation matrix from
//! the multiplicities of the drawn rows, then the fit on that matrix: nothing is re-parsed
//! or re-allocated per row.

use super::data::Table;
use super::plan::{Estimates, Plan};
use super::SemError;
use crate::linalg::Matrix;
use crate::stats::describe::{quantile, std_dev};
use crate::stats::rng::Rng;
use crate::stats::StatsError;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// How many resamples pass between two progress reports.
pub const PROGRESS_EVERY: usize = 100;

/// How to bootstrap.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct BootstrapOptions {
    /// Number of resamples (5,000 by default on the CLI).
    pub resamples: usize,
    /// Seed of the random number generator.
    pub seed: u64,
}

impl Default for BootstrapOptions {
    fn default() -> Self {
        Self {
            resamples: 5000,
            seed: 1,
        }
    }
}

/// Bootstrap summary of one estimate.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct BootStat {
    /// The estimate on the full data.
    pub original: f64,
    /// Mean over the successful resamples.
    pub mean: f64,
    /// Standard error: SD (n − 1) over the successful resamples.
    pub se: f64,
    /// `original / se` (`None` when se is 0).
    pub t: Option<f64>,
    /// 2.5% percentile (type 7 quantile).
    pub ci_low: f64,
    /// 97.5% percentile.
    pub ci_high: f64,
}

/// Bootstrap results.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BootstrapReport {
    /// Resamples asked for.
    pub resamples: usize,
    /// The seed used.
    pub seed: u64,
    /// Resamples whose fit succeeded.
    pub succeeded: usize,
    /// Resamples whose fit failed (dropped).
    pub failed: usize,
    /// Outer weights per indicator.
    pub weights: BTreeMap<String, BootStat>,
    /// Outer loadings per indicator.
    pub loadings: BTreeMap<String, BootStat>,
    /// Path coefficients, `"From -> To"`.
    pub paths: BTreeMap<String, BootStat>,
    /// R² per endogenous construct.
    pub r2: BTreeMap<String, BootStat>,
}

/// Which group a statistic belongs to.
#[derive(Clone, Copy, PartialEq)]
enum Group {
    Weight,
    Loading,
    Path,
    R2,
}

fn extract(
    plan: &Plan,
    est: &Estimates,
    out: &mut Vec<f64>,
    names: Option<&mut Vec<(Group, String)>>,
) {
    out.clear();
    let measured = plan.measured(est);
    let (st, _) = plan.final_structure();
    let mut labels = Vec::new();
    for m in &measured {
        out.push(m.weight);
        labels.push((Group::Weight, m.name.clone()));
    }
    for m in &measured {
        out.push(m.loading);
        labels.push((Group::Loading, m.name.clone()));
    }
    for (j, preds) in st.preds.iter().enumerate() {
        for (&i, b) in preds.iter().zip(&est.betas[j]) {
            out.push(*b);
            labels.push((
                Group::Path,
                format!("{} -> {}", st.blocks[i].name, st.blocks[j].name),
            ));
        }
    }
    for (j, r) in est.r2.iter().enumerate() {
        if let Some(r) = r {
            out.push(*r);
            labels.push((Group::R2, st.blocks[j].name.clone()));
        }
    }
    if let Some(n) = names {
        *n = labels;
    }
}

/// Correlation matrix of the resample given by row multiplicities `counts` (sum n) of the
/// row-major standardized data `x` (n x p). `None` when a column is constant in the resample.
fn resample_correlation(
    x: &[f64],
    p: usize,
    counts: &[u32],
    sums: &mut [f64],
    cross: &mut [f64],
) -> Option<Matrix> {
    sums.iter_mut().for_each(|v| *v = 0.0);
    cross.iter_mut().for_each(|v| *v = 0.0);
    let mut total = 0.0;
    for (i, &c) in counts.iter().enumerate() {
        if c == 0 {
            continue;
        }
        let cf = f64::from(c);
        total += cf;
        let row = &x[i * p..(i + 1) * p];
        for a in 0..p {
            let va = cf * row[a];
            sums[a] += va;
            let base = a * p;
            for b in a..p {
                cross[base + b] += va * row[b];
            }
        }
    }
    let mut r = Matrix::identity(p);
    let mut sd = vec![0.0; p];
    for a in 0..p {
        let m = sums[a] / total;
        let var = cross[a * p + a] / total - m * m;
        if var.is_nan() || var <= 1e-12 {
            return None;
        }
        sd[a] = var.sqrt();
    }
    for a in 0..p {
        let ma = sums[a] / total;
        for b in a + 1..p {
            let mb = sums[b] / total;
            let v = ((cross[a * p + b] / total - ma * mb) / (sd[a] * sd[b])).clamp(-1.0, 1.0);
            r[(a, b)] = v;
            r[(b, a)] = v;
        }
    }
    Some(r)
}

/// Runs the bootstrap for a compiled plan.
pub(crate) fn run_bootstrap(
    plan: &Plan,
    est: &Estimates,
    table: &Table,
    z: &[Vec<f64>],
    opts: &BootstrapOptions,
    on_progress: &mut dyn FnMut(usize, usize),
) -> Result<BootstrapReport, SemError> {
    let n = table.models.len();
    let p = plan.items.len();
    // Rows in a canonical order (model name, then the raw values), so a seeded bootstrap
    // depends on the rows and the seed, not on their order in the file (issue 27, defect 11).
    // Rows equal in name and values are interchangeable.
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&i, &j| {
        table.models[i].cmp(&table.models[j]).then_with(|| {
            plan.items
                .iter()
                .map(|&col| table.columns[col][i].total_cmp(&table.columns[col][j]))
                .find(|o| o.is_ne())
                .unwrap_or(std::cmp::Ordering::Equal)
        })
    });
    let mut x = vec![0.0; n * p];
    for (a, &col) in plan.items.iter().enumerate() {
        for (i, &row) in order.iter().enumerate() {
            x[i * p + a] = z[col][row];
        }
    }
    let mut labels = Vec::new();
    let mut original = Vec::new();
    extract(plan, est, &mut original, Some(&mut labels));
    let k = original.len();
    // Grown as resamples succeed, not reserved up front for all of them.
    let mut draws: Vec<Vec<f64>> = vec![Vec::new(); k];
    let mut rng = Rng::new(opts.seed);
    let mut counts = vec![0u32; n];
    let mut sums = vec![0.0; p];
    let mut cross = vec![0.0; p * p];
    let mut buf = Vec::with_capacity(k);
    let mut failed = 0;
    for done in 0..opts.resamples {
        if done % PROGRESS_EVERY == 0 {
            on_progress(done, opts.resamples);
        }
        counts.iter_mut().for_each(|c| *c = 0);
        for _ in 0..n {
            counts[rng.below(n)] += 1;
        }
        let Some(r) = resample_correlation(&x, p, &counts, &mut sums, &mut cross) else {
            failed += 1;
            continue;
        };
        match plan.estimate(&r) {
            Ok(e) => {
                extract(plan, &e, &mut buf, None);
                for (d, v) in draws.iter_mut().zip(&buf) {
                    d.push(*v);
                }
            }
            Err(_) => failed += 1,
        }
    }
    on_progress(opts.resamples, opts.resamples);
    let succeeded = opts.resamples - failed;
    if succeeded < 2 {
        return Err(SemError::Stats {
            what: format!(
                "bootstrap ({failed} of {} resamples failed)",
                opts.resamples
            ),
            source: StatsError::TooFewValues {
                needed: 2,
                found: succeeded,
            },
        });
    }
    let mut report = BootstrapReport {
        resamples: opts.resamples,
        seed: opts.seed,
        succeeded,
        failed,
        weights: BTreeMap::new(),
        loadings: BTreeMap::new(),
        paths: BTreeMap::new(),
        r2: BTreeMap::new(),
    };
    for ((group, name), (orig, d)) in labels.into_iter().zip(original.into_iter().zip(draws)) {
        let what = |source| SemError::Stats {
            what: format!("bootstrap of {name}"),
            source,
        };
        let mean = d.iter().sum::<f64>() / d.len() as f64;
        let se = std_dev(&d, 1).map_err(what)?;
        let stat = BootStat {
            original: orig,
            mean,
            se,
            t: (se > 0.0).then(|| orig / se),
            ci_low: quantile(&d, 0.025).map_err(what)?,
            ci_high: quantile(&d, 0.975).map_err(what)?,
        };
        let target = match group {
            Group::Weight => &mut report.weights,
            Group::Loading => &mut report.loadings,
            Group::Path => &mut report.paths,
            Group::R2 => &mut report.r2,
        };
        target.insert(name, stat);
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_abs_diff_eq;

    #[test]
    fn counts_reproduce_the_plain_correlation() {
        // All multiplicities 1 = the original sample: r(x, y) for x = 1..5, y = 2,1,4,3,7 is
        // 12 / sqrt(10 · 21.2) (hand-worked in stats::correlation).
        let xs = [1.0, 2.0, 3.0, 4.0, 5.0];
        let ys = [2.0, 1.0, 4.0, 3.0, 7.0];
        let x: Vec<f64> = xs.iter().zip(&ys).flat_map(|(a, b)| [*a, *b]).collect();
        let (mut s, mut c) = (vec![0.0; 2], vec![0.0; 4]);
        let r = resample_correlation(&x, 2, &[1; 5], &mut s, &mut c).unwrap();
        assert_abs_diff_eq!(r[(0, 1)], 12.0 / 212f64.sqrt(), epsilon = 1e-14);
        // Counts (2, 0, 1, 0, 2) = the sample 1, 1, 3, 5, 5 / 2, 2, 4, 7, 7:
        // x̄ = 3, ȳ = 4.4; Σdxdy = (-2)(-2.4)·2 + 0 + 2·2.6·2 = 9.6 + 10.4 = 20;
        // Σdx² = 16, Σdy² = 2·5.76 + 0.16 + 2·6.76 = 25.2 -> r = 20 / sqrt(16 · 25.2).
        let r = resample_correlation(&x, 2, &[2, 0, 1, 0, 2], &mut s, &mut c).unwrap();
        assert_abs_diff_eq!(r[(0, 1)], 20.0 / (16.0f64 * 25.2).sqrt(), epsilon = 1e-14);
        // A resample of one repeated row is constant: failed.
        assert!(resample_correlation(&x, 2, &[5, 0, 0, 0, 0], &mut s, &mut c).is_none());
    }
}
