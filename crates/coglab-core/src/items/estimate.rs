//! Estimated full-benchmark accuracy from a partial run (issue 40, item 1).
//!
//! A partial run (a 500-item subset of MM-IQ's 2,710 items, a KiVA run cut short) answers
//! some items of a benchmark. Counting the others as wrong understates the respondent; the
//! proportion right on the answered items ignores how hard those items were. Here the items
//! are calibrated on the complete runs of the same board, and the partial run's accuracy over
//! **every** item of the benchmark is estimated with a 95% interval.
//!
//! # Calibration ([`Calibration::fit`])
//! Model: 2PL with a fixed lower asymptote `g = 1 / options` (a 3PL whose guessing parameter
//! is fixed, not estimated; `options` 0 gives the plain 2PL),
//! `P_j(theta) = g + (1 - g) / (1 + exp(-a_j (theta - b_j)))`, abilities `theta ~ N(0, 1)`.
//! Fitted by marginal maximum a posteriori (Bock-Aitkin EM on a uniform ability grid, Fisher
//! scoring per item in the M-step) with item priors `ln a ~ N(0, 0.5^2)` (BILOG-MG's default
//! slope prior) and `b ~ N(m, s^2)`: with them every item has a finite estimate, including
//! those every calibration respondent got right or wrong (the 2PL of [`super::irt`] leaves
//! them out).
//!
//! The difficulty prior floats (empirical Bayes, as BILOG-MG's `FLOAT`): it starts at
//! `N(0, 2^2)` and after each EM cycle `m` and `s^2` become the mean of the items' `b` and
//! their variance plus the mean posterior variance of each `b` (the EM update of a normal
//! hierarchy, with the Laplace approximation), when at least [`FLOAT_MIN_ITEMS`] items are
//! calibrated. Why: with 20 to 50 calibration respondents a fixed wide prior let the
//! difficulties spread too far, and the estimates ran low (by about 0.9 accuracy points at 20
//! respondents, BENCHMARKS.md); a prior learnt from the benchmark's thousands of items shrinks
//! each item as much as the others warrant. The slope prior does not float: floating both let
//! the ability scale drift (the whole `ln a` prior moved to its bound while `b` shrank), as the
//! `N(0, 1)` of a few hundred respondents pins the scale only weakly against thousands of
//! items' priors. Even so the scale still stretches somewhat: on a simulation of 300 x 2,710
//! the fitted `b` spread 0.74 for a true 0.98 and the mean `ln a` was 0.22 for a true 0.00
//! (without floating: 0.94 and 0.05), about 1.3 times too steep. The probabilities the
//! estimate uses held up (BENCHMARKS.md), but the parameters themselves are not the ones to
//! report as item statistics; [`super::irt`] is.
//!
//! This is a separate fit from
//! [`super::irt::fit`], whose E-step relies on the plain logistic (`log P = z + log(1 - P)`)
//! and which is left unchanged. A uniform grid (default 121 nodes on [-6, 6]) rather than
//! Gauss-Hermite: with thousands of items a posterior is narrower than the Gauss-Hermite
//! node spacing near 0 (about 0.5 for 41 nodes), and the estimate below needs the posterior's
//! width.
//!
//! Items answered by no calibration respondent get no parameters; their probability of a
//! right answer at `theta` is taken as the mean over the calibrated items of `P_j(theta)` (a
//! typical item of the benchmark), and a note says how many there are.
//!
//! # Estimate ([`estimate`])
//! For each partial respondent: the posterior of `theta` on a grid (default 241 nodes on
//! [-6, 6], prior `N(0, 1)`) from the answered items; `U` the unanswered items of the
//! calibration (items in the calibration but not in the partial file count as unanswered; an
//! item of the partial file not in the calibration is an error). Then
//! - `estimate = (right + sum_q pi_q sum_{j in U} P_j(theta_q)) / items`;
//! - the number right on `U` is, given `theta_q`, a sum of independent Bernoullis, taken as
//!   normal with mean `sum P_j(theta_q)` and variance `sum P_j (1 - P_j)` (a normal
//!   approximation per grid node, with a continuity correction; the exact Poisson-binomial
//!   costs `|U|^2` per node); the posterior predictive is their mixture with weights `pi_q`.
//!   Its 2.5% and 97.5% quantiles (integers), plus `right`, over `items` give the interval.
//!
//! So the interval carries both the uncertainty of `theta` and the chance in the unanswered
//! items; when every item is answered it is the observed proportion, with no width.
//!
//! # Calibration uncertainty
//! The interval treats the item parameters as known. With few calibration respondents they are
//! not; two things were tried on simulations (BENCHMARKS.md, "Estimated full score (issue
//! 40)": 2,710 items, 4 options). Widening each interval by the variance of the estimate over
//! parametric-bootstrap refits of the calibration barely moved the coverage: the shortfall was
//! a bias shared by the refits (estimates about 0.9 points low at 20 respondents), not
//! variance. The floating difficulty prior above removed that bias: with it, calibrations of
//! 300 down to 20 respondents gave errors within 10% of the same estimator's with the true
//! parameters and coverage of 92-96%. Fewer than 20 was not measured, so below
//! [`EstimateOptions::min_calibration`] respondents (default 20) [`estimate_with`] withholds
//! the estimate with [`ItemsError::Degenerate`] naming the count; set it lower to get the
//! estimate anyway.

use super::irt::sigmoid;
use super::matrix::ResponseMatrix;
use super::simulate::guess_of;
use super::ItemsError;
use crate::location::Location;
use crate::stats::dist::normal_cdf;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// One item's parameters: discrimination `a` and difficulty `b` (the guessing probability is
/// the calibration's, shared by all items).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ItemParams {
    /// Item id.
    pub id: String,
    /// Discrimination.
    pub a: f64,
    /// Difficulty.
    pub b: f64,
}

impl ItemParams {
    /// An item.
    pub fn new(id: impl Into<String>, a: f64, b: f64) -> Self {
        Self {
            id: id.into(),
            a,
            b,
        }
    }

    /// `P(right | theta) = g + (1 - g) / (1 + exp(-a (theta - b)))`.
    ///
    /// # Examples
    /// ```
    /// use coglab_core::items::estimate::ItemParams;
    /// let it = ItemParams::new("q1", 1.0, 0.0);
    /// assert_eq!(it.probability(0.0, 0.25), 0.625);
    /// ```
    pub fn probability(&self, theta: f64, guess: f64) -> f64 {
        guess + (1.0 - guess) * sigmoid(self.a * (theta - self.b))
    }
}

/// Settings of [`Calibration::fit`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CalibrationOptions {
    /// Answer options per item: guessing probability `1 / options` (0: no guessing).
    pub options: u32,
    /// Ability grid of the EM: from, to, nodes (default -6, 6, 121).
    pub grid: (f64, f64, usize),
    /// Most EM cycles (default 500).
    pub max_iterations: usize,
    /// Stop when no `ln a` or `b` moved by more than this in a cycle (default 1e-3).
    pub tolerance: f64,
    /// Prior standard deviation of `ln a` (default 0.5).
    pub prior_log_a_sd: f64,
    /// Prior standard deviation of `b` (default 2; the starting value when the prior floats).
    pub prior_b_sd: f64,
    /// Whether the mean and standard deviation of `b`'s prior are estimated from the items
    /// (empirical Bayes, see the module documentation; default true). Only with at least
    /// [`FLOAT_MIN_ITEMS`] calibrated items.
    #[serde(default = "yes")]
    pub float_priors: bool,
}

fn yes() -> bool {
    true
}

/// Most items a calibration takes: its tables hold a row per item and grid node (at 20,000
/// items and the default grids, about 80 MB in the fit and 40 MB in the estimate); a
/// benchmark has a few thousand (MM-IQ 2,710).
pub const MAX_ITEMS: usize = 20_000;

fn check_items(source: &str, items: usize) -> Result<(), ItemsError> {
    if items > MAX_ITEMS {
        return Err(ItemsError::Degenerate {
            source_name: source.to_string(),
            reason: format!(
                "{items} items, more than the {MAX_ITEMS} a calibration takes; calibrate on a \
                 subset of the items"
            ),
        });
    }
    Ok(())
}

/// Fewest calibrated items for floating priors: the spread of fewer items says little about
/// the benchmark's.
pub const FLOAT_MIN_ITEMS: usize = 20;

/// The item priors, `ln a ~ N(log_a_mean, log_a_sd^2)`, `b ~ N(b_mean, b_sd^2)`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct ItemPriors {
    /// Mean of `ln a`.
    pub log_a_mean: f64,
    /// Standard deviation of `ln a`.
    pub log_a_sd: f64,
    /// Mean of `b`.
    pub b_mean: f64,
    /// Standard deviation of `b`.
    pub b_sd: f64,
}

impl Default for CalibrationOptions {
    fn default() -> Self {
        Self {
            options: 4,
            grid: (-6.0, 6.0, 121),
            max_iterations: 500,
            tolerance: 1e-3,
            prior_log_a_sd: 0.5,
            prior_b_sd: 2.0,
            float_priors: true,
        }
    }
}

/// One calibrated item.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CalibratedItem {
    /// Item id.
    pub id: String,
    /// Discrimination (`None`: no calibration respondent answered the item).
    pub a: Option<f64>,
    /// Difficulty (`None` as `a`).
    pub b: Option<f64>,
    /// Calibration respondents who answered it.
    pub answered: usize,
    /// Approximate standard error of `ln a` (from the M-step information and the prior).
    pub se_log_a: Option<f64>,
    /// Approximate standard error of `b`.
    pub se_b: Option<f64>,
}

/// Item parameters fitted on the complete runs of a board (see the module documentation).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Calibration {
    /// Where the calibration came from (the matrix's source, e.g. its file name), for messages.
    pub source: String,
    /// Items of the benchmark (every column of the calibration matrix).
    pub items: usize,
    /// Calibration respondents.
    pub respondents: usize,
    /// The model, e.g. `2pl+guess(0.25)` or `2pl`.
    pub model: String,
    /// Guessing probability `g`.
    pub guess: f64,
    /// The items, in the calibration matrix's column order.
    pub params: Vec<CalibratedItem>,
    /// The item priors at the end of the fit (floated or as given; `None` for known
    /// parameters).
    pub priors: Option<ItemPriors>,
    /// Whether EM stopped by the tolerance.
    pub converged: bool,
    /// EM cycles run.
    pub iterations: usize,
    /// Things the reader should know (items with no answer, non-convergence).
    pub notes: Vec<String>,
}

/// What the CLI prints about a calibration: `{items, respondents, model}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CalibrationSummary {
    /// Items of the benchmark.
    pub items: usize,
    /// Calibration respondents.
    pub respondents: usize,
    /// The model.
    pub model: String,
}

fn model_name(guess: f64) -> String {
    if guess == 0.0 {
        "2pl".into()
    } else {
        format!("2pl+guess({})", (guess * 1e6).round() / 1e6)
    }
}

/// A uniform grid `lo..=hi` of `n` nodes and the log of its normalised `N(0, 1)` weights.
fn normal_grid(lo: f64, hi: f64, n: usize) -> (Vec<f64>, Vec<f64>) {
    let theta: Vec<f64> = (0..n)
        .map(|k| lo + (hi - lo) * k as f64 / (n - 1) as f64)
        .collect();
    let log_w: Vec<f64> = theta.iter().map(|t| -0.5 * t * t).collect();
    let mx = log_w.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let s: f64 = log_w.iter().map(|v| (v - mx).exp()).sum();
    let norm = mx + s.ln();
    (theta, log_w.iter().map(|v| v - norm).collect())
}

fn check_grid(name: &'static str, grid: (f64, f64, usize)) -> Result<(), ItemsError> {
    let (lo, hi, n) = grid;
    if lo < hi && lo.is_finite() && hi.is_finite() && (3..=2001).contains(&n) {
        Ok(())
    } else {
        Err(ItemsError::BadOption {
            name,
            expected: "finite, from < to, 3 to 2001 nodes",
            found: format!("{lo} to {hi}, {n} nodes"),
        })
    }
}

/// Normalises log values into probabilities in place; returns the log of their sum.
fn normalise(post: &mut [f64]) -> f64 {
    let mx = post.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let mut s = 0.0;
    for p in post.iter_mut() {
        *p = (*p - mx).exp();
        s += *p;
    }
    for p in post.iter_mut() {
        *p /= s;
    }
    mx + s.ln()
}

/// `(ln P, ln(1 - P) )` with `P = g + (1 - g) sigmoid(z)`, accurate in the tails.
#[inline]
fn log_probs(z: f64, g: f64) -> (f64, f64) {
    // ln(1 - P) = ln(1 - g) + ln(1 - sigmoid(z)) = ln(1 - g) - softplus(z).
    let softplus = z.max(0.0) + (-z.abs()).exp().ln_1p();
    let l1m = (1.0 - g).ln() - softplus;
    let lp = if g == 0.0 {
        z - softplus
    } else {
        (g + (1.0 - g) * sigmoid(z)).ln()
    };
    (lp, l1m)
}

/// One item's expected counts for the M-step, on the nodes `theta`.
struct ItemCounts<'a> {
    theta: &'a [f64],
    n: &'a [f64],
    r: &'a [f64],
    g: f64,
    priors: ItemPriors,
}

/// Objective, gradient and Fisher information of one item at `(ln a, b)`.
struct Eval {
    obj: f64,
    g_la: f64,
    g_b: f64,
    i_aa: f64,
    i_ab: f64,
    i_bb: f64,
}

impl ItemCounts<'_> {
    fn eval(&self, la: f64, b: f64) -> Eval {
        let a = la.exp();
        let g = self.g;
        let (mut obj, mut g_la, mut g_b, mut i_aa, mut i_ab, mut i_bb) =
            (0.0, 0.0, 0.0, 0.0, 0.0, 0.0);
        for q in 0..self.theta.len() {
            let (n, r) = (self.n[q], self.r[q]);
            if n <= 0.0 {
                continue;
            }
            let d = self.theta[q] - b;
            let z = a * d;
            let s = sigmoid(z);
            let p = (g + (1.0 - g) * s).clamp(1e-300, 1.0);
            let (lp, l1m) = log_probs(z, g);
            obj += r * lp + (n - r) * l1m;
            // d loglik / dz and its expected information.
            let dp = (1.0 - g) * s * (1.0 - s);
            let pq = (p * (1.0 - p)).max(1e-300);
            let sc = (r - n * p) / pq * dp;
            let inf = n * dp * dp / pq;
            g_la += sc * a * d;
            g_b -= sc * a;
            i_aa += inf * a * a * d * d;
            i_ab -= inf * a * a * d;
            i_bb += inf * a * a;
        }
        let pr = &self.priors;
        let (va, vb) = (pr.log_a_sd * pr.log_a_sd, pr.b_sd * pr.b_sd);
        let (da, db) = (la - pr.log_a_mean, b - pr.b_mean);
        Eval {
            obj: obj - 0.5 * da * da / va - 0.5 * db * db / vb,
            g_la: g_la - da / va,
            g_b: g_b - db / vb,
            i_aa: i_aa + 1.0 / va,
            i_ab,
            i_bb: i_bb + 1.0 / vb,
        }
    }

    /// Up to `steps` Fisher-scoring steps (each at most 1 long, halved until the objective
    /// does not decrease) from `(la, b)`.
    fn m_step(&self, mut la: f64, mut b: f64, steps: usize) -> (f64, f64) {
        let mut cur = self.eval(la, b);
        for _ in 0..steps {
            let det = cur.i_aa * cur.i_bb - cur.i_ab * cur.i_ab;
            if det.is_nan() || det <= 0.0 {
                break;
            }
            let da = (cur.i_bb * cur.g_la - cur.i_ab * cur.g_b) / det;
            let db = (cur.i_aa * cur.g_b - cur.i_ab * cur.g_la) / det;
            let len = da.abs().max(db.abs());
            if !len.is_finite() || len < 1e-9 {
                break;
            }
            let mut step = if len > 1.0 { 1.0 / len } else { 1.0 };
            let mut moved = false;
            for _ in 0..20 {
                let (nla, nb) = (
                    (la + step * da).clamp(LOG_A_BOUNDS.0, LOG_A_BOUNDS.1),
                    (b + step * db).clamp(-B_BOUND, B_BOUND),
                );
                let cand = self.eval(nla, nb);
                if cand.obj >= cur.obj - 1e-12 * cur.obj.abs() {
                    la = nla;
                    b = nb;
                    cur = cand;
                    moved = true;
                    break;
                }
                step *= 0.5;
            }
            if !moved {
                break;
            }
        }
        (la, b)
    }
}

/// Range of `ln a` in the fit (`a` from 0.05 to 12).
const LOG_A_BOUNDS: (f64, f64) = (-3.0, 2.5);
/// Range of `b` in the fit.
const B_BOUND: f64 = 10.0;

impl Calibration {
    /// Fits the items of a matrix of complete (or nearly complete) runs; see the module
    /// documentation. Every column is an item of the benchmark.
    ///
    /// # Errors
    /// [`ItemsError::Degenerate`] for a matrix that cannot be analysed (fewer than two
    /// respondents, every cell missing, no item with both a right and a wrong answer; see
    /// [`ResponseMatrix::check_analysable`]) or more than [`MAX_ITEMS`] items,
    /// [`ItemsError::BadOption`] for invalid options.
    ///
    /// # Examples
    /// ```
    /// use coglab_core::items::estimate::{Calibration, CalibrationOptions};
    /// use coglab_core::items::ResponseMatrix;
    /// let csv = "id,q1,q2,q3\nr1,1,1,0\nr2,1,0,0\nr3,0,1,1\nr4,1,1,1\n";
    /// let m = ResponseMatrix::parse_csv("full.csv", csv.as_bytes()).unwrap();
    /// let c = Calibration::fit(&m, &CalibrationOptions::default()).unwrap();
    /// assert_eq!((c.items, c.respondents, c.model.as_str()), (3, 4, "2pl+guess(0.25)"));
    /// ```
    pub fn fit(m: &ResponseMatrix, opts: &CalibrationOptions) -> Result<Self, ItemsError> {
        check_grid("grid", opts.grid)?;
        let bad = |name, expected, found: String| ItemsError::BadOption {
            name,
            expected,
            found,
        };
        if opts.max_iterations == 0 {
            return Err(bad("max_iterations", "at least 1", "0".into()));
        }
        if !(opts.tolerance > 0.0 && opts.tolerance.is_finite()) {
            return Err(bad(
                "tolerance",
                "a positive number",
                opts.tolerance.to_string(),
            ));
        }
        for (name, v) in [
            ("prior_log_a_sd", opts.prior_log_a_sd),
            ("prior_b_sd", opts.prior_b_sd),
        ] {
            if !(v > 0.0 && v.is_finite()) {
                return Err(bad(name, "a positive number", v.to_string()));
            }
        }
        let g = guess_of(opts.options)?;
        check_items(&m.source, m.n_items())?;
        m.check_analysable()?;
        let (ni, nj) = (m.n_respondents(), m.n_items());
        let mut answered = vec![0usize; nj];
        let mut right_n = vec![0usize; nj];
        for i in 0..ni {
            for (j, &c) in m.row(i).iter().enumerate() {
                if c >= 0 {
                    answered[j] += 1;
                    right_n[j] += usize::from(c == 1);
                }
            }
        }
        let fitted: Vec<usize> = (0..nj).filter(|&j| answered[j] > 0).collect();
        let nf = fitted.len();
        let mut fitted_ix = vec![usize::MAX; nj];
        for (k, &j) in fitted.iter().enumerate() {
            fitted_ix[j] = k;
        }
        // Per respondent: fitted items right, and answered (to add ln(1 - P)).
        let mut rights: Vec<Vec<u32>> = Vec::with_capacity(ni);
        let mut answers: Vec<Vec<u32>> = Vec::with_capacity(ni);
        for i in 0..ni {
            let (mut r, mut a) = (Vec::new(), Vec::new());
            for (j, &c) in m.row(i).iter().enumerate() {
                if c >= 0 {
                    a.push(fitted_ix[j] as u32);
                    if c == 1 {
                        r.push(fitted_ix[j] as u32);
                    }
                }
            }
            rights.push(r);
            answers.push(a);
        }
        // Start: a = 1, b from the proportion right above chance (logit scale widened by
        // about 1.3 for the N(0, 1) spread of abilities).
        let mut la = vec![0.0f64; nf];
        let mut b: Vec<f64> = fitted
            .iter()
            .map(|&j| {
                let p = (right_n[j] as f64 + 0.5) / (answered[j] as f64 + 1.0);
                let adj = ((p - g) / (1.0 - g)).clamp(0.05, 0.95);
                (-1.3 * (adj / (1.0 - adj)).ln()).clamp(-4.0, 4.0)
            })
            .collect();
        let (theta, log_w) = normal_grid(opts.grid.0, opts.grid.1, opts.grid.2);
        let nq = theta.len();
        let mut priors = ItemPriors {
            log_a_mean: 0.0,
            log_a_sd: opts.prior_log_a_sd,
            b_mean: 0.0,
            b_sd: opts.prior_b_sd,
        };
        let float = opts.float_priors && nf >= FLOAT_MIN_ITEMS;
        let mut var_b = vec![0.0; nf];
        let mut ld = vec![0.0; nf * nq]; // ln P - ln(1 - P)
        let mut l1m = vec![0.0; nf * nq]; // ln(1 - P)
        let mut acc_n = vec![0.0; nf * nq];
        let mut acc_r = vec![0.0; nf * nq];
        let mut post = vec![0.0; nq];
        let mut converged = false;
        let mut iterations = 0;
        while iterations < opts.max_iterations {
            iterations += 1;
            // E-step tables.
            for k in 0..nf {
                let a = la[k].exp();
                for q in 0..nq {
                    let (lp, lq) = log_probs(a * (theta[q] - b[k]), g);
                    ld[k * nq + q] = lp - lq;
                    l1m[k * nq + q] = lq;
                }
            }
            acc_n.iter_mut().for_each(|v| *v = 0.0);
            acc_r.iter_mut().for_each(|v| *v = 0.0);
            let (mut lo_all, mut hi_all) = (nq, 0);
            for i in 0..ni {
                if answers[i].is_empty() {
                    continue;
                }
                post.copy_from_slice(&log_w);
                for &k in &answers[i] {
                    let row = &l1m[k as usize * nq..(k as usize + 1) * nq];
                    post.iter_mut().zip(row).for_each(|(p, v)| *p += v);
                }
                for &k in &rights[i] {
                    let row = &ld[k as usize * nq..(k as usize + 1) * nq];
                    post.iter_mut().zip(row).for_each(|(p, v)| *p += v);
                }
                normalise(&mut post);
                let lo = post.iter().position(|&p| p > 1e-14).unwrap_or(0);
                let hi = post.iter().rposition(|&p| p > 1e-14).map_or(nq, |h| h + 1);
                lo_all = lo_all.min(lo);
                hi_all = hi_all.max(hi);
                let span = &post[lo..hi];
                for &k in &answers[i] {
                    let row = &mut acc_n[k as usize * nq + lo..k as usize * nq + hi];
                    row.iter_mut().zip(span).for_each(|(d, s)| *d += s);
                }
                for &k in &rights[i] {
                    let row = &mut acc_r[k as usize * nq + lo..k as usize * nq + hi];
                    row.iter_mut().zip(span).for_each(|(d, s)| *d += s);
                }
            }
            let hi_all = hi_all.max(lo_all);
            let mut change: f64 = 0.0;
            for k in 0..nf {
                let counts = ItemCounts {
                    theta: &theta[lo_all..hi_all],
                    n: &acc_n[k * nq + lo_all..k * nq + hi_all],
                    r: &acc_r[k * nq + lo_all..k * nq + hi_all],
                    g,
                    priors,
                };
                let (nla, nb) = counts.m_step(la[k], b[k], 4);
                change = change.max((nla - la[k]).abs()).max((nb - b[k]).abs());
                la[k] = nla;
                b[k] = nb;
                if float {
                    let e = counts.eval(nla, nb);
                    let det = e.i_aa * e.i_bb - e.i_ab * e.i_ab;
                    if det > 0.0 {
                        var_b[k] = e.i_aa / det;
                    }
                }
            }
            if float {
                // Empirical Bayes for b (the EM update of a normal hierarchy,
                // Laplace-approximated): mean of the modes, variance of the modes plus their
                // mean posterior variance. The slope prior stays fixed (module documentation).
                let n = nf as f64;
                let mb = b.iter().sum::<f64>() / n;
                let vb = (0..nf).map(|k| (b[k] - mb).powi(2) + var_b[k]).sum::<f64>() / n;
                let next = ItemPriors {
                    b_mean: mb.clamp(-3.0, 3.0),
                    b_sd: vb.sqrt().clamp(0.2, 4.0),
                    ..priors
                };
                change = change
                    .max((next.b_mean - priors.b_mean).abs())
                    .max((next.b_sd - priors.b_sd).abs());
                priors = next;
            }
            if change < opts.tolerance {
                converged = true;
                break;
            }
        }
        // Standard errors from the last cycle's information (complete-data, with the prior):
        // the inverse of the 2 x 2 matrix.
        let mut params: Vec<CalibratedItem> = m
            .items
            .iter()
            .enumerate()
            .map(|(j, it)| CalibratedItem {
                id: it.id.clone(),
                a: None,
                b: None,
                answered: answered[j],
                se_log_a: None,
                se_b: None,
            })
            .collect();
        for (k, &j) in fitted.iter().enumerate() {
            let counts = ItemCounts {
                theta: &theta,
                n: &acc_n[k * nq..(k + 1) * nq],
                r: &acc_r[k * nq..(k + 1) * nq],
                g,
                priors,
            };
            let e = counts.eval(la[k], b[k]);
            let det = e.i_aa * e.i_bb - e.i_ab * e.i_ab;
            let p = &mut params[j];
            p.a = Some(la[k].exp());
            p.b = Some(b[k]);
            if det > 0.0 {
                p.se_log_a = Some((e.i_bb / det).sqrt());
                p.se_b = Some((e.i_aa / det).sqrt());
            }
        }
        let mut notes = Vec::new();
        if nf < nj {
            notes.push(format!(
                "{} of {} items were answered by no calibration respondent: each is taken as a \
                 typical item (the mean curve of the calibrated items)",
                nj - nf,
                nj
            ));
        }
        if !converged {
            notes.push(format!(
                "EM stopped after {iterations} cycles without reaching the tolerance {}",
                opts.tolerance
            ));
        }
        Ok(Self {
            source: m.source.clone(),
            items: nj,
            respondents: ni,
            model: model_name(g),
            guess: g,
            params,
            priors: Some(priors),
            converged,
            iterations,
            notes,
        })
    }

    /// A calibration from known item parameters (simulations: the oracle that an estimated
    /// calibration is compared with). `respondents` is recorded as given.
    ///
    /// # Errors
    /// [`ItemsError::BadOption`] for no items, `guess` outside [0, 1) or a non-finite
    /// parameter.
    ///
    /// # Examples
    /// ```
    /// use coglab_core::items::estimate::{Calibration, ItemParams};
    /// let c = Calibration::from_params(&[ItemParams::new("q1", 1.0, 0.0)], 0.25, 0).unwrap();
    /// assert_eq!(c.model, "2pl+guess(0.25)");
    /// ```
    pub fn from_params(
        items: &[ItemParams],
        guess: f64,
        respondents: usize,
    ) -> Result<Self, ItemsError> {
        if items.is_empty() {
            return Err(ItemsError::BadOption {
                name: "items",
                expected: "at least 1",
                found: "0".into(),
            });
        }
        if !(0.0..1.0).contains(&guess) {
            return Err(ItemsError::BadOption {
                name: "guess",
                expected: "0 <= g < 1",
                found: guess.to_string(),
            });
        }
        if let Some(it) = items
            .iter()
            .find(|it| !(it.a.is_finite() && it.b.is_finite()))
        {
            return Err(ItemsError::BadOption {
                name: "item parameters",
                expected: "finite a and b",
                found: format!("{}: a = {}, b = {}", it.id, it.a, it.b),
            });
        }
        Ok(Self {
            source: "true item parameters".into(),
            items: items.len(),
            respondents,
            model: model_name(guess),
            guess,
            priors: None,
            params: items
                .iter()
                .map(|it| CalibratedItem {
                    id: it.id.clone(),
                    a: Some(it.a),
                    b: Some(it.b),
                    answered: respondents,
                    se_log_a: None,
                    se_b: None,
                })
                .collect(),
            converged: true,
            iterations: 0,
            notes: Vec::new(),
        })
    }

    /// `{items, respondents, model}`.
    pub fn summary(&self) -> CalibrationSummary {
        CalibrationSummary {
            items: self.items,
            respondents: self.respondents,
            model: self.model.clone(),
        }
    }
}

/// Settings of [`estimate_with`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EstimateOptions {
    /// Ability grid of the posterior: from, to, nodes (default -6, 6, 241; prior `N(0, 1)`).
    pub grid: (f64, f64, usize),
    /// Interval level (default 0.95).
    pub level: f64,
    /// Fewest calibration respondents for which an estimate is given (default 20, the
    /// smallest calibration measured; see the module documentation).
    pub min_calibration: usize,
}

impl Default for EstimateOptions {
    fn default() -> Self {
        Self {
            grid: (-6.0, 6.0, 241),
            level: 0.95,
            min_calibration: 20,
        }
    }
}

/// One partial respondent's estimated full-benchmark accuracy.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Estimate {
    /// Respondent id.
    pub id: String,
    /// Items of the calibration answered.
    pub answered: usize,
    /// Proportion right among them (`None` when none was answered).
    pub observed: Option<f64>,
    /// Expected proportion right over every item of the calibration.
    pub estimate: f64,
    /// Lower end of the interval.
    pub ci_low: f64,
    /// Upper end of the interval.
    pub ci_high: f64,
}

/// Whether a calibration of `respondents` complete runs is large enough for an estimate
/// ([`EstimateOptions::min_calibration`]); [`estimate_with`] checks it, and a caller can check
/// it before fitting.
///
/// # Errors
/// [`ItemsError::Degenerate`] naming the count and the minimum when there are fewer.
pub fn check_calibration_size(
    source: &str,
    respondents: usize,
    min: usize,
) -> Result<(), ItemsError> {
    if respondents < min {
        return Err(ItemsError::Degenerate {
            source_name: source.to_string(),
            reason: format!(
                "{respondents} calibration respondents, fewer than the {min} an estimate \
                 needs: the interval treats the item parameters as known, which was measured \
                 to hold from 20 calibration respondents up (BENCHMARKS.md, \"Estimated full \
                 score\"); calibrate on more complete runs, or lower the minimum \
                 (`--min-calibration`) to get the estimate anyway"
            ),
        });
    }
    Ok(())
}

/// [`estimate_with`] with the default options.
///
/// # Errors
/// As [`estimate_with`].
pub fn estimate(
    calibration: &Calibration,
    partial: &ResponseMatrix,
) -> Result<Vec<Estimate>, ItemsError> {
    estimate_with(calibration, partial, &EstimateOptions::default())
}

/// Estimates each partial respondent's accuracy over every item of the calibration (see the
/// module documentation). The partial matrix's columns are matched to the calibration's
/// items by id.
///
/// # Errors
/// [`ItemsError::BadId`] for a partial column that is not a calibration item (naming file,
/// line 1 and the column); [`ItemsError::Degenerate`] for a calibration of fewer than
/// [`EstimateOptions::min_calibration`] respondents, with no calibrated item or more than
/// [`MAX_ITEMS`] items;
/// [`ItemsError::BadOption`] for invalid options.
///
/// # Examples
/// ```
/// use coglab_core::items::estimate::{estimate_with, Calibration, EstimateOptions, ItemParams};
/// use coglab_core::items::ResponseMatrix;
/// let items: Vec<_> = (0..4).map(|j| ItemParams::new(format!("q{j}"), 1.0, 0.0)).collect();
/// let cal = Calibration::from_params(&items, 0.0, 500).unwrap();
/// let partial = ResponseMatrix::parse_csv("part.csv", b"id,q0,q1\nm,1,1\n").unwrap();
/// let e = &estimate_with(&cal, &partial, &EstimateOptions::default()).unwrap()[0];
/// assert_eq!((e.answered, e.observed), (2, Some(1.0)));
/// assert!(e.estimate > 0.5 && e.estimate < 1.0 && e.ci_low >= 0.5 && e.ci_high <= 1.0);
/// ```
pub fn estimate_with(
    calibration: &Calibration,
    partial: &ResponseMatrix,
    opts: &EstimateOptions,
) -> Result<Vec<Estimate>, ItemsError> {
    check_grid("grid", opts.grid)?;
    if !(opts.level > 0.0 && opts.level < 1.0) {
        return Err(ItemsError::BadOption {
            name: "level",
            expected: "0 < level < 1",
            found: opts.level.to_string(),
        });
    }
    let cal = calibration;
    check_items(&cal.source, cal.params.len())?;
    check_calibration_size(&cal.source, cal.respondents, opts.min_calibration)?;
    // Column k of the partial file -> calibration item.
    let index: HashMap<&str, usize> = cal
        .params
        .iter()
        .enumerate()
        .map(|(j, p)| (p.id.as_str(), j))
        .collect();
    let mut col = Vec::with_capacity(partial.n_items());
    for (k, it) in partial.items.iter().enumerate() {
        match index.get(it.id.as_str()) {
            Some(&j) => col.push(j),
            None => {
                return Err(ItemsError::BadId {
                    location: Location::file(partial.source.clone())
                        .at_line(1)
                        .in_field(it.id.clone()),
                    message: format!(
                        "item id \"{}\" (column {}) is not an item of the calibration ({} items)",
                        it.id,
                        k + 2,
                        cal.items
                    ),
                });
            }
        }
    }
    let (theta, log_w) = normal_grid(opts.grid.0, opts.grid.1, opts.grid.2);
    let nq = theta.len();
    let nj = cal.params.len();
    // P_j(theta_q) for every calibration item; an item without parameters gets the mean
    // curve of the others.
    let g = cal.guess;
    let mut p_tab = vec![0.0; nj * nq];
    let mut mean_curve = vec![0.0; nq];
    let mut n_fitted = 0usize;
    for (j, it) in cal.params.iter().enumerate() {
        if let (Some(a), Some(b)) = (it.a, it.b) {
            n_fitted += 1;
            for q in 0..nq {
                let p = g + (1.0 - g) * sigmoid(a * (theta[q] - b));
                p_tab[j * nq + q] = p;
                mean_curve[q] += p;
            }
        }
    }
    if n_fitted == 0 {
        return Err(ItemsError::Degenerate {
            source_name: cal.source.clone(),
            reason: "no item of the calibration has parameters".into(),
        });
    }
    mean_curve.iter_mut().for_each(|v| *v /= n_fitted as f64);
    for (j, it) in cal.params.iter().enumerate() {
        if it.a.is_none() || it.b.is_none() {
            p_tab[j * nq..(j + 1) * nq].copy_from_slice(&mean_curve);
        }
    }
    let tail = (1.0 - opts.level) / 2.0;
    let mut out = Vec::with_capacity(partial.n_respondents());
    let mut post = vec![0.0; nq];
    let mut answered_flag = vec![false; nj];
    let mut mu = vec![0.0; nq];
    let mut var = vec![0.0; nq];
    for i in 0..partial.n_respondents() {
        answered_flag.iter_mut().for_each(|v| *v = false);
        post.copy_from_slice(&log_w);
        let (mut n, mut right) = (0usize, 0usize);
        for (k, &c) in partial.row(i).iter().enumerate() {
            if c < 0 {
                continue;
            }
            let j = col[k];
            if answered_flag[j] {
                continue; // a repeated column cannot happen (ids are unique); kept safe
            }
            answered_flag[j] = true;
            n += 1;
            right += usize::from(c == 1);
            let row = &p_tab[j * nq..(j + 1) * nq];
            for q in 0..nq {
                let p = row[q].clamp(1e-300, 1.0 - 1e-16);
                post[q] += if c == 1 { p.ln() } else { (1.0 - p).ln() };
            }
        }
        normalise(&mut post);
        let lo = post.iter().position(|&p| p > 1e-12).unwrap_or(0);
        let hi = post
            .iter()
            .rposition(|&p| p > 1e-12)
            .map_or(nq, |h| h + 1)
            .max(lo + 1);
        let wsum: f64 = post[lo..hi].iter().sum();
        mu[lo..hi].iter_mut().for_each(|v| *v = 0.0);
        var[lo..hi].iter_mut().for_each(|v| *v = 0.0);
        let mut n_unanswered = 0usize;
        for j in (0..nj).filter(|&j| !answered_flag[j]) {
            n_unanswered += 1;
            let row = &p_tab[j * nq..(j + 1) * nq];
            for q in lo..hi {
                mu[q] += row[q];
                var[q] += row[q] * (1.0 - row[q]);
            }
        }
        let w: Vec<f64> = post[lo..hi].iter().map(|p| p / wsum).collect();
        let expected: f64 = w.iter().zip(&mu[lo..hi]).map(|(w, m)| w * m).sum();
        let cdf = |x: f64| -> f64 {
            let mut f = 0.0;
            for (k, q) in (lo..hi).enumerate() {
                let sd = var[q].sqrt();
                f += w[k]
                    * if sd > 0.0 {
                        normal_cdf((x + 0.5 - mu[q]) / sd)
                    } else if x + 0.5 >= mu[q] {
                        1.0
                    } else {
                        0.0
                    };
            }
            f
        };
        // Smallest integer x in 0..=U with cdf(x) >= p (bisection: cdf is increasing).
        let quantile = |p: f64| -> usize {
            let (mut a, mut b) = (0usize, n_unanswered);
            if cdf(0.0) >= p {
                return 0;
            }
            while b - a > 1 {
                let m = (a + b) / 2;
                if cdf(m as f64) >= p {
                    b = m;
                } else {
                    a = m;
                }
            }
            b
        };
        let (x_lo, x_hi) = if n_unanswered == 0 {
            (0, 0)
        } else {
            (quantile(tail), quantile(1.0 - tail))
        };
        let total = nj as f64;
        let est = ((right as f64 + expected) / total).clamp(0.0, 1.0);
        out.push(Estimate {
            id: partial.respondents[i].id.clone(),
            answered: n,
            observed: (n > 0).then(|| right as f64 / n as f64),
            estimate: est,
            ci_low: ((right + x_lo) as f64 / total).min(est),
            ci_high: ((right + x_hi) as f64 / total).max(est),
        });
    }
    Ok(out)
}

/// The posterior of one respondent's ability on a uniform grid, prior `N(0, 1)`, built one
/// answer at a time: the expected a posteriori (EAP) ability, its posterior standard deviation
/// and an equal-tailed interval. [`estimate_with`] forms the same posterior for a whole row;
/// this form serves a test given item by item (the KiVA self-test's adaptive form,
/// [`crate::selftest::adaptive`]), where the next item depends on the current estimate.
///
/// # Examples
/// ```
/// use coglab_core::items::estimate::AbilityPosterior;
/// let mut p = AbilityPosterior::new((-6.0, 6.0, 241)).unwrap();
/// assert!(p.summary(0.95).theta.abs() < 1e-12); // the prior: mean 0
/// p.add(1.0, 0.0, 0.0, true);
/// assert!(p.summary(0.95).theta > 0.0);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct AbilityPosterior {
    theta: Vec<f64>,
    log_post: Vec<f64>,
    answered: usize,
}

/// An ability estimate: EAP, posterior standard deviation and interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct AbilitySummary {
    /// Posterior mean (EAP).
    pub theta: f64,
    /// Posterior standard deviation (the standard error).
    pub se: f64,
    /// Lower end of the equal-tailed interval.
    pub low: f64,
    /// Upper end.
    pub high: f64,
    /// Item responses it rests on.
    pub answered: usize,
}

impl AbilityPosterior {
    /// The prior `N(0, 1)` on `grid` = (from, to, nodes).
    ///
    /// # Errors
    /// [`ItemsError::BadOption`] for a grid that is not finite and increasing with 3 to 2,001
    /// nodes.
    pub fn new(grid: (f64, f64, usize)) -> Result<Self, ItemsError> {
        check_grid("grid", grid)?;
        let (theta, log_w) = normal_grid(grid.0, grid.1, grid.2);
        Ok(Self {
            theta,
            log_post: log_w,
            answered: 0,
        })
    }

    /// The grid nodes.
    pub fn nodes(&self) -> &[f64] {
        &self.theta
    }

    /// Multiplies in one answer to an item `P = g + (1 - g) / (1 + exp(-a (theta - b)))`.
    /// Non-finite parameters are ignored (they cannot come from a calibration).
    pub fn add(&mut self, a: f64, b: f64, guess: f64, right: bool) {
        if !(a.is_finite() && b.is_finite() && (0.0..1.0).contains(&guess)) {
            return;
        }
        for (lp, t) in self.log_post.iter_mut().zip(&self.theta) {
            let (l1, l0) = log_probs(a * (t - b), guess);
            *lp += if right { l1 } else { l0 };
        }
        self.answered += 1;
    }

    /// The normalised posterior weights at the nodes.
    pub fn weights(&self) -> Vec<f64> {
        let mut w = self.log_post.clone();
        normalise(&mut w);
        w
    }

    /// EAP, posterior SD and the equal-tailed interval of probability `level` (e.g. 0.95;
    /// clamped to (0, 1)). Each node's weight is spread evenly over the node's cell (half a
    /// spacing either side) for the interval's quantiles, so they are not stuck on nodes.
    pub fn summary(&self, level: f64) -> AbilitySummary {
        let w = self.weights();
        let mean: f64 = w.iter().zip(&self.theta).map(|(w, t)| w * t).sum();
        let var: f64 = w
            .iter()
            .zip(&self.theta)
            .map(|(w, t)| w * (t - mean) * (t - mean))
            .sum();
        let level = if level > 0.0 && level < 1.0 {
            level
        } else {
            0.95
        };
        let tail = (1.0 - level) / 2.0;
        AbilitySummary {
            theta: mean,
            se: var.max(0.0).sqrt(),
            low: self.quantile(&w, tail),
            high: self.quantile(&w, 1.0 - tail),
            answered: self.answered,
        }
    }

    fn quantile(&self, w: &[f64], p: f64) -> f64 {
        let n = self.theta.len();
        let h = (self.theta[n - 1] - self.theta[0]) / (n - 1) as f64;
        let mut cum = 0.0;
        for (k, &wk) in w.iter().enumerate() {
            if cum + wk >= p && wk > 0.0 {
                return self.theta[k] - h / 2.0 + h * ((p - cum) / wk);
            }
            cum += wk;
        }
        self.theta[n - 1] + h / 2.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::items::simulate::{keep_random, respond, simulate, SimOptions};
    use approx::assert_abs_diff_eq;

    fn matrix(csv: &str) -> ResponseMatrix {
        ResponseMatrix::parse_csv("part.csv", csv.as_bytes()).unwrap()
    }

    #[test]
    fn hand_worked_three_items_three_nodes() {
        // g = 1/4, a = ln 3 for all, b = 0, 1, -1; grid theta = -1, 0, 1. Then
        // sigmoid(ln3 (theta - b)) is 1/4, 1/2, 3/4 (q1), 1/10, 1/4, 1/2 (q2), 1/2, 3/4, 9/10
        // (q3), and P = 1/4 + 3/4 sigmoid:
        //   q1: 0.4375, 0.625, 0.8125;  q2: 0.325, 0.4375, 0.625;  q3: 0.625, 0.8125, 0.925.
        // Prior weights exp(-theta^2/2) normalised: 0.274068619, 0.451862762, 0.274068619.
        // The respondent answered q1 right (q2, q3 unanswered): posterior prop. to w P1,
        // marginal 0.625, so pi = 0.274068619 x 0.7, 0.451862762 x 1, 0.274068619 x 1.3
        //   = 0.191848033, 0.451862762, 0.356289205.
        // Expected right on q2 + q3 per node: 0.95, 1.25, 1.55; mean over pi 1.299332351.
        // Estimate (1 + 1.299332351) / 3 = 0.766444117.
        // Interval: per node, variance sum P(1 - P) = 0.45375, 0.3984375, 0.30375; the mixture
        // of normals (continuity-corrected) gives F(0) = sum pi Phi((0.5 - mu) / sd) = 0.1115
        // >= 0.025, so the 2.5% quantile is 0 items; F(1) = 0.6129 < 0.975, so the 97.5%
        // quantile is 2 items: [(1 + 0) / 3, (1 + 2) / 3].
        let a = 3f64.ln();
        let items = [
            ItemParams::new("q1", a, 0.0),
            ItemParams::new("q2", a, 1.0),
            ItemParams::new("q3", a, -1.0),
        ];
        let cal = Calibration::from_params(&items, 0.25, 500).unwrap();
        let opts = EstimateOptions {
            grid: (-1.0, 1.0, 3),
            ..EstimateOptions::default()
        };
        let e = estimate_with(&cal, &matrix("id,q1,q2\nm,1,\n"), &opts).unwrap();
        assert_eq!(e[0].answered, 1);
        assert_eq!(e[0].observed, Some(1.0));
        assert_abs_diff_eq!(e[0].estimate, 0.766_444_117, epsilon = 1e-9);
        assert_abs_diff_eq!(e[0].ci_low, 1.0 / 3.0, epsilon = 1e-12);
        assert_abs_diff_eq!(e[0].ci_high, 1.0, epsilon = 1e-12);
    }

    #[test]
    fn ability_posterior_on_three_items_by_hand() {
        // Grid theta = -1, 0, 1 (spacing 1); prior weights prop. to e^-0.5, 1, e^-0.5.
        // Items a = ln 3, b = 0, 1, -1, no guessing: sigmoid(ln3 (theta - b)) is
        // q1: 1/4, 1/2, 3/4; q2: 1/10, 1/4, 1/2; q3: 1/2, 3/4, 9/10.
        // Answers q1 right, q2 wrong, q3 right: likelihood per node
        //   1/4 x 9/10 x 1/2 = 0.1125, 1/2 x 3/4 x 3/4 = 0.28125, 3/4 x 1/2 x 9/10 = 0.3375.
        // Posterior prop. to 0.1125 e^-0.5, 0.28125, 0.3375 e^-0.5 (e^-0.5 = 0.60653066):
        //   0.068234699, 0.28125, 0.204704097; sum 0.554188796;
        //   pi = 0.123125367, 0.507498530, 0.369376102.
        // EAP = 0.369376102 - 0.123125367 = 0.246250735;
        // variance = pi_1 (1 + 0.246250735)^2 + pi_2 0.246250735^2 + pi_3 (1 - 0.246250735)^2
        //   = 0.431862044, SD = 0.657162115.
        // Interval, each node's mass spread over [theta - 1/2, theta + 1/2]: 2.5% lies in the
        // first cell at -1.5 + 0.025 / 0.123125367 = -1.296954921; 97.5% in the last at
        // 0.5 + (0.975 - 0.630623898) / 0.369376102 = 1.432318307.
        let a = 3f64.ln();
        let mut p = AbilityPosterior::new((-1.0, 1.0, 3)).unwrap();
        p.add(a, 0.0, 0.0, true);
        p.add(a, 1.0, 0.0, false);
        p.add(a, -1.0, 0.0, true);
        let s = p.summary(0.95);
        assert_eq!(s.answered, 3);
        assert_abs_diff_eq!(s.theta, 0.246_250_735, epsilon = 1e-9);
        assert_abs_diff_eq!(s.se, 0.657_162_115, epsilon = 1e-9);
        assert_abs_diff_eq!(s.low, -1.296_954_921, epsilon = 1e-9);
        assert_abs_diff_eq!(s.high, 1.432_318_307, epsilon = 1e-9);
        // With a guessing floor g = 1/4 the same right answer to q1 weighs less: P = 1/4 + 3/4
        // sigmoid = 0.4375, 0.625, 0.8125, so pi prop. to 0.4375 e^-0.5, 0.625, 0.8125 e^-0.5
        // and the EAP is (0.8125 - 0.4375) e^-0.5 / (1.25 e^-0.5 + 0.625) = 0.164441171.
        let mut g = AbilityPosterior::new((-1.0, 1.0, 3)).unwrap();
        g.add(a, 0.0, 0.25, true);
        assert_abs_diff_eq!(g.summary(0.95).theta, 0.164_441_171, epsilon = 1e-9);
        // Invalid parameters are ignored, a bad grid refused.
        g.add(f64::NAN, 0.0, 0.0, true);
        assert_eq!(g.summary(0.95).answered, 1);
        assert!(AbilityPosterior::new((1.0, -1.0, 3)).is_err());
    }

    #[test]
    fn all_answered_gives_the_observed_proportion_and_no_width() {
        let s = simulate(&SimOptions {
            respondents: 150,
            items: 30,
            seed: 5,
            ..SimOptions::default()
        })
        .unwrap();
        let cal = Calibration::fit(&s.matrix, &CalibrationOptions::default()).unwrap();
        let est = estimate(&cal, &s.matrix).unwrap();
        for (e, r) in est.iter().zip(&s.respondents) {
            assert_eq!(e.answered, 30);
            assert_abs_diff_eq!(e.estimate, r.accuracy, epsilon = 1e-12);
            assert_eq!(Some(e.estimate), e.observed);
            assert_eq!((e.ci_low, e.ci_high), (e.estimate, e.estimate));
        }
    }

    #[test]
    fn oracle_is_unbiased_covers_and_beats_the_plain_proportion() {
        // True parameters, 400 respondents answering a random 40 of 400 items. The estimate
        // is the posterior expectation under the true model, so its mean error is near 0 (the
        // errors' sd is about 5.6 points: 5 sigma for the mean of 400 is 1.4 points) and the 95%
        // interval covers near 95% (binomial sd 1.1 points: [90.5, 99]).
        let s = simulate(&SimOptions {
            respondents: 10,
            items: 400,
            seed: 8,
            ..SimOptions::default()
        })
        .unwrap();
        let test = respond(&s.items, s.guess, 400, 9, "t").unwrap();
        let partial = keep_random(&test.matrix, 40, 10).unwrap();
        let cal = Calibration::from_params(&s.items, s.guess, 0).unwrap();
        let opts = EstimateOptions {
            min_calibration: 0,
            ..EstimateOptions::default()
        };
        let est = estimate_with(&cal, &partial, &opts).unwrap();
        let n = est.len() as f64;
        let (mut bias, mut mae, mut plain, mut cover) = (0.0, 0.0, 0.0, 0.0);
        for (e, r) in est.iter().zip(&test.respondents) {
            assert!(0.0 <= e.ci_low && e.ci_low <= e.estimate && e.estimate <= e.ci_high);
            assert!(e.ci_high <= 1.0);
            bias += e.estimate - r.accuracy;
            mae += (e.estimate - r.accuracy).abs();
            plain += (e.observed.unwrap() - r.accuracy).abs();
            cover += f64::from(u8::from(e.ci_low <= r.accuracy && r.accuracy <= e.ci_high));
        }
        assert!((bias / n).abs() < 0.014, "mean error {}", bias / n);
        assert!(mae < plain, "MAE {} vs plain {}", mae / n, plain / n);
        assert!(
            (0.905..=0.99).contains(&(cover / n)),
            "coverage {}",
            cover / n
        );
    }

    #[test]
    fn calibration_recovers_simulated_parameters() {
        // 500 respondents x 60 items, g = 1/4: the fitted b and a follow the true ones
        // (correlations, and b's mean absolute error, bounded well above the sampling error of
        // a 3PL with fixed guessing at n = 500: b's standard errors are about 0.15 to 0.3).
        let s = simulate(&SimOptions {
            respondents: 500,
            items: 60,
            seed: 21,
            ..SimOptions::default()
        })
        .unwrap();
        let cal = Calibration::fit(&s.matrix, &CalibrationOptions::default()).unwrap();
        assert!(cal.converged);
        assert_eq!(cal.model, "2pl+guess(0.25)");
        let corr = |x: &[f64], y: &[f64]| {
            let n = x.len() as f64;
            let (mx, my) = (x.iter().sum::<f64>() / n, y.iter().sum::<f64>() / n);
            let sxy: f64 = x.iter().zip(y).map(|(a, b)| (a - mx) * (b - my)).sum();
            let sxx: f64 = x.iter().map(|a| (a - mx).powi(2)).sum();
            let syy: f64 = y.iter().map(|b| (b - my).powi(2)).sum();
            sxy / (sxx * syy).sqrt()
        };
        let tb: Vec<f64> = s.items.iter().map(|i| i.b).collect();
        let eb: Vec<f64> = cal.params.iter().map(|p| p.b.unwrap()).collect();
        let ta: Vec<f64> = s.items.iter().map(|i| i.a).collect();
        let ea: Vec<f64> = cal.params.iter().map(|p| p.a.unwrap()).collect();
        assert!(corr(&tb, &eb) > 0.95, "b {}", corr(&tb, &eb));
        assert!(corr(&ta, &ea) > 0.6, "a {}", corr(&ta, &ea));
        let mae_b = tb.iter().zip(&eb).map(|(t, e)| (t - e).abs()).sum::<f64>() / 60.0;
        assert!(mae_b < 0.25, "b MAE {mae_b}");
        assert!(cal.params.iter().all(|p| p.se_b.is_some()));
    }

    #[test]
    fn no_guessing_fits_the_plain_2pl() {
        let s = simulate(&SimOptions {
            respondents: 400,
            items: 30,
            options: 0,
            seed: 4,
            ..SimOptions::default()
        })
        .unwrap();
        let cal = Calibration::fit(
            &s.matrix,
            &CalibrationOptions {
                options: 0,
                ..CalibrationOptions::default()
            },
        )
        .unwrap();
        assert_eq!((cal.model.as_str(), cal.guess), ("2pl", 0.0));
        let mae_b = s
            .items
            .iter()
            .zip(&cal.params)
            .map(|(t, e)| (t.b - e.b.unwrap()).abs())
            .sum::<f64>()
            / 30.0;
        assert!(mae_b < 0.2, "b MAE {mae_b}");
    }

    #[test]
    fn an_item_nobody_answered_is_a_typical_item() {
        // q3 is empty in the calibration: no parameters, a note, and its probability is the
        // mean curve of q1 and q2. With every respondent's answer to q1 and q2 known, the
        // estimate is (right + mean over the posterior of (P1 + P2) / 2) / 3.
        let csv = "id,q1,q2,q3\n\
                   r1,1,0,\nr2,1,1,\nr3,0,0,\nr4,1,0,\nr5,0,1,\nr6,1,1,\n";
        let mut m = matrix(csv);
        m.source = "full.csv".into();
        let cal = Calibration::fit(&m, &CalibrationOptions::default()).unwrap();
        assert_eq!(cal.params[2].a, None);
        assert_eq!(cal.params[2].answered, 0);
        assert!(cal.notes[0].starts_with("1 of 3 items"), "{:?}", cal.notes);
        let opts = EstimateOptions {
            min_calibration: 0,
            ..EstimateOptions::default()
        };
        let e = &estimate_with(&cal, &matrix("id,q1,q2\nm,1,1\n"), &opts).unwrap()[0];
        // By hand from the calibrated parameters, on the same grid.
        let (theta, log_w) = normal_grid(-6.0, 6.0, 241);
        let p = |j: usize, t: f64| {
            let it = &cal.params[j];
            ItemParams::new("", it.a.unwrap(), it.b.unwrap()).probability(t, 0.25)
        };
        let post: Vec<f64> = theta
            .iter()
            .zip(&log_w)
            .map(|(&t, lw)| lw.exp() * p(0, t) * p(1, t))
            .collect();
        let z: f64 = post.iter().sum();
        let typical: f64 = theta
            .iter()
            .zip(&post)
            .map(|(&t, w)| w / z * (p(0, t) + p(1, t)) / 2.0)
            .sum();
        assert_abs_diff_eq!(e.estimate, (2.0 + typical) / 3.0, epsilon = 1e-9);
    }

    #[test]
    fn errors_name_where_and_why() {
        let items = [
            ItemParams::new("q1", 1.0, 0.0),
            ItemParams::new("q2", 1.0, 0.0),
        ];
        let cal = Calibration::from_params(&items, 0.25, 19).unwrap();
        // Too small a calibration is refused by default, naming the count.
        let err = estimate(&cal, &matrix("id,q1\nm,1\n")).unwrap_err();
        assert!(
            err.to_string().contains("19 calibration respondents"),
            "{err}"
        );
        // An unknown item names file, line 1 and the column.
        let opts = EstimateOptions {
            min_calibration: 0,
            ..EstimateOptions::default()
        };
        let err = estimate_with(&cal, &matrix("id,q1,q9\nm,1,0\n"), &opts).unwrap_err();
        assert_eq!(
            err.to_string(),
            "part.csv line 1: field \"q9\": item id \"q9\" (column 3) is not an item of the \
             calibration (2 items)"
        );
        // A respondent with no answer gets the prior's prediction, no observed proportion.
        let e = &estimate_with(&cal, &matrix("id,q1\nm,\n"), &opts).unwrap()[0];
        assert_eq!((e.answered, e.observed), (0, None));
        // By symmetry (b = 0, theta ~ N(0, 1)): E[P] = 1/4 + 3/4 x 1/2 = 0.625.
        assert_abs_diff_eq!(e.estimate, 0.625, epsilon = 1e-9);
        // Bad options.
        assert!(Calibration::from_params(&items, 1.0, 0).is_err());
        let many: Vec<ItemParams> = (0..=MAX_ITEMS)
            .map(|j| ItemParams::new(format!("i{j}"), 1.0, 0.0))
            .collect();
        let big = Calibration::from_params(&many, 0.25, 500).unwrap();
        let err = estimate_with(&big, &matrix("id,i1\nm,1\n"), &opts).unwrap_err();
        assert!(err.to_string().contains("20001 items, more than"), "{err}");
        assert!(estimate_with(
            &cal,
            &matrix("id,q1\nm,1\n"),
            &EstimateOptions {
                level: 1.0,
                ..opts.clone()
            }
        )
        .is_err());
        assert!(Calibration::fit(
            &matrix("id,q1\na,1\nb,0\n"),
            &CalibrationOptions {
                options: 1,
                ..CalibrationOptions::default()
            }
        )
        .is_err());
    }
}
