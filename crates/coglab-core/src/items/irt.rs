//! Rasch and two-parameter logistic (2PL) item response models, fitted by marginal maximum
//! likelihood with the Bock-Aitkin EM algorithm over Gauss-Hermite quadrature.
//!
//! Model: `P(right | theta) = 1 / (1 + exp(-a (theta - b)))`, abilities `theta ~ N(0, 1)`;
//! Rasch fixes `a = 1` (as `girth.rasch_mml`, which the tests compare with). Missing cells are
//! skipped. Items no one or everyone answered right have no finite estimate: they are left out
//! of the fit (their `excluded` says why) and flagged by [`super::flags`].
//!
//! Estimation: the item parameters are kept as slope and intercept (`z = a theta + c`,
//! `b = -c / a`), in which each item's M-step is a weighted logistic regression on the
//! quadrature nodes (concave), solved by at most [`NEWTON_STEPS`] Newton steps of length at
//! most 1 per EM cycle. `a` is kept in [`IrtOptions::a_bounds`] (negative values are allowed,
//! so a miskeyed item shows a negative slope) and the intercept `c = -a b` in
//! [`IrtOptions::c_bounds`] (a bound on `b` instead would force the intercept of an item with a
//! near-zero slope to 0 and make EM oscillate); an item
//! whose estimate rests on a bound is marked `at_bound` (small samples, e.g. three models, can
//! separate perfectly and have no finite maximum). EM stops when no slope or intercept moved by
//! more than [`IrtOptions::tolerance`] in a cycle (slope-intercept form: `b` is unidentified
//! when `a` is near 0). EM is accelerated by SQUAREM (Varadhan and
//! Roland 2008, scheme S3, with a monotonicity check on the log-likelihood), which about halves
//! the cycles on MM-IQ-sized data. Abilities are EAP (posterior mean) with the
//! posterior standard deviation as standard error, at the final item parameters.
//!
//! Speed: the E-step works in log space with `log(1 - P)` precomputed per item and node, and
//! uses `log L_i(q) = sum_{j answered} log(1 - P_jq) + sum_{j right} z_jq`, where the second
//! sum is `theta_q sum a_j + sum c_j` over the right answers: per respondent it costs
//! `O(items right + Q min(answered, missing))` instead of `O(items x Q)`. The posteriors
//! (respondents x Q) are then summed item by item (each item's respondent lists are kept
//! transposed): the expected number right over whichever of its right or wrong lists is
//! shorter, the expected number answered as the posterior total minus its missing cells (or
//! over the answered cells for a sparse item; KiVA adults see 14 of 700 trials). Item by item,
//! the destination row stays in cache while the small posterior matrix is read; this was
//! 25-30% faster than adding each respondent's posterior into every item's row on MM-IQ-sized
//! data (2,710 x 300: 2PL 386 -> 268 ms, Rasch 568 -> 437 ms, same load).
//!
//! Item fit: infit and outfit mean squares at the EAP abilities (expected value 1; the usual
//! Rasch definitions, here also reported for the 2PL).

use super::matrix::ResponseMatrix;
use super::ItemsError;
use serde::{Deserialize, Serialize};

/// Newton steps per item per EM cycle.
pub const NEWTON_STEPS: usize = 3;

/// The item response model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum IrtModel {
    /// One-parameter logistic with `a = 1` (Rasch).
    #[serde(rename = "rasch")]
    Rasch,
    /// Two-parameter logistic.
    #[default]
    #[serde(rename = "2pl")]
    TwoPl,
}

impl IrtModel {
    /// Parses `rasch`, `1pl` or `2pl` (case-insensitive).
    ///
    /// # Errors
    /// [`ItemsError::BadOption`] for anything else.
    pub fn parse(s: &str) -> Result<Self, ItemsError> {
        match s.to_ascii_lowercase().as_str() {
            "rasch" | "1pl" => Ok(Self::Rasch),
            "2pl" => Ok(Self::TwoPl),
            _ => Err(ItemsError::BadOption {
                name: "model",
                expected: "rasch or 2pl",
                found: s.to_string(),
            }),
        }
    }
}

/// Estimation settings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct IrtOptions {
    /// The model.
    pub model: IrtModel,
    /// Gauss-Hermite nodes for the N(0, 1) ability distribution (default 41).
    pub quadrature_points: usize,
    /// Most EM cycles (default 2,000).
    pub max_iterations: usize,
    /// Stop when no slope `a` or intercept `c = -a b` changed by more than this in a cycle
    /// (default 1e-4).
    pub tolerance: f64,
    /// Range of `a` (default -4 to 6).
    pub a_bounds: (f64, f64),
    /// Range of the intercept `c = -a b` (default -30 to 30: P(right) at theta = 0 between
    /// 1e-13 and 1 - 1e-13). `b` itself is not bounded (it is large when `a` is near 0).
    pub c_bounds: (f64, f64),
    /// The ability grid of the chart curves: from, to, points (default -4, 4, 81).
    pub theta_grid: (f64, f64, usize),
    /// Whether to return each item's characteristic and information curve (the test
    /// information is always returned).
    pub item_curves: bool,
}

impl Default for IrtOptions {
    fn default() -> Self {
        Self {
            model: IrtModel::TwoPl,
            quadrature_points: 41,
            max_iterations: 2000,
            tolerance: 1e-4,
            a_bounds: (-4.0, 6.0),
            c_bounds: (-30.0, 30.0),
            theta_grid: (-4.0, 4.0, 81),
            item_curves: true,
        }
    }
}

impl IrtOptions {
    fn validate(&self) -> Result<(), ItemsError> {
        let bad = |name, expected, found: String| {
            Err(ItemsError::BadOption {
                name,
                expected,
                found,
            })
        };
        if !(2..=201).contains(&self.quadrature_points) {
            return bad(
                "quadrature_points",
                "2 to 201",
                self.quadrature_points.to_string(),
            );
        }
        if self.max_iterations == 0 {
            return bad("max_iterations", "at least 1", "0".into());
        }
        if !(self.tolerance > 0.0 && self.tolerance.is_finite()) {
            return bad("tolerance", "a positive number", self.tolerance.to_string());
        }
        let (lo, hi) = self.a_bounds;
        if !(lo < hi && lo.is_finite() && hi.is_finite() && hi > 0.0) {
            return bad(
                "a_bounds",
                "finite, lower < upper, upper > 0",
                format!("{lo} to {hi}"),
            );
        }
        let (lo, hi) = self.c_bounds;
        if !(lo < hi && lo.is_finite() && hi.is_finite()) {
            return bad("c_bounds", "finite, lower < upper", format!("{lo} to {hi}"));
        }
        let (lo, hi, n) = self.theta_grid;
        if !(lo < hi && lo.is_finite() && hi.is_finite() && (2..=10_001).contains(&n)) {
            return bad(
                "theta_grid",
                "finite, from < to, 2 to 10001 points",
                format!("{lo} to {hi}, {n} points"),
            );
        }
        Ok(())
    }
}

/// One item's IRT estimates.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct IrtItem {
    /// Item id.
    pub id: String,
    /// Discrimination (`None` when not fitted).
    pub a: Option<f64>,
    /// Difficulty (`None` when not fitted).
    pub b: Option<f64>,
    /// Infit mean square at the EAP abilities.
    pub infit: Option<f64>,
    /// Outfit mean square at the EAP abilities.
    pub outfit: Option<f64>,
    /// Why the item was left out of the fit, if it was.
    pub excluded: Option<String>,
    /// Whether `a` or `b` rests on its bound.
    pub at_bound: bool,
}

impl IrtItem {
    /// `P(right | theta)`, when fitted.
    pub fn probability(&self, theta: f64) -> Option<f64> {
        Some(sigmoid(self.a? * (theta - self.b?)))
    }

    /// Fisher information `a^2 P (1 - P)` at `theta`, when fitted.
    pub fn information(&self, theta: f64) -> Option<f64> {
        let p = self.probability(theta)?;
        Some(self.a? * self.a? * p * (1.0 - p))
    }
}

/// One respondent's ability.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RespondentAbility {
    /// Respondent id.
    pub id: String,
    /// EAP ability (`None` when the respondent answered no fitted item).
    pub theta: Option<f64>,
    /// Posterior standard deviation.
    pub se: Option<f64>,
}

/// An item's curves over the ability grid.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ItemCurve {
    /// Item id.
    pub id: String,
    /// `P(right | theta)` at each grid point.
    pub p: Vec<f64>,
    /// Item information at each grid point.
    pub information: Vec<f64>,
}

/// Chart-ready curves over an ability grid.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Curves {
    /// The grid.
    pub theta: Vec<f64>,
    /// Test information (sum over the fitted items).
    pub test_information: Vec<f64>,
    /// Standard error of measurement, `1 / sqrt(information)` (`None` where it is 0).
    pub test_se: Vec<Option<f64>>,
    /// Per fitted item, when asked for.
    pub items: Vec<ItemCurve>,
}

/// The result of a fit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct IrtFit {
    /// The model.
    pub model: IrtModel,
    /// Items, in matrix order.
    pub items: Vec<IrtItem>,
    /// Respondents, in matrix order.
    pub respondents: Vec<RespondentAbility>,
    /// Whether EM stopped by the tolerance (not by the iteration limit).
    pub converged: bool,
    /// EM cycles run.
    pub iterations: usize,
    /// Largest parameter change in the last cycle.
    pub max_change: f64,
    /// Marginal log-likelihood at the final parameters.
    pub log_likelihood: f64,
    /// Quadrature nodes used.
    pub quadrature_points: usize,
    /// Curves for the charts.
    pub curves: Curves,
    /// Notes (excluded items, bounds, non-convergence).
    pub notes: Vec<String>,
}

/// The logistic function, without overflow in either tail (also [`super::estimate`]'s).
#[inline(always)]
pub(crate) fn sigmoid(z: f64) -> f64 {
    if z >= 0.0 {
        1.0 / (1.0 + (-z).exp())
    } else {
        let e = z.exp();
        e / (1.0 + e)
    }
}

/// `ln(1 - sigmoid(z))`, accurate in both tails.
#[inline(always)]
fn log1m_sigmoid(z: f64) -> f64 {
    if z <= 0.0 {
        -z.exp().ln_1p()
    } else {
        -z - (-z).exp().ln_1p()
    }
}

/// Gauss-Hermite nodes and weights for the standard normal density (weights sum to 1):
/// the physicists' rule for `exp(-x^2)` (Golub-Welsch-free Newton iteration on the
/// orthonormal Hermite recurrence, as in Numerical Recipes' `gauher`), rescaled by
/// `theta = sqrt(2) x`, `w / sqrt(pi)`.
///
/// # Examples
/// ```
/// let (x, w) = coglab_core::items::irt::gauss_hermite_normal(21);
/// let m2: f64 = x.iter().zip(&w).map(|(x, w)| w * x * x).sum();
/// assert!((w.iter().sum::<f64>() - 1.0).abs() < 1e-12 && (m2 - 1.0).abs() < 1e-12);
/// ```
pub fn gauss_hermite_normal(n: usize) -> (Vec<f64>, Vec<f64>) {
    const PIM4: f64 = 0.751_125_544_464_942_5; // pi^(-1/4)
    let mut x = vec![0.0; n];
    let mut w = vec![0.0; n];
    let m = n.div_ceil(2);
    let nf = n as f64;
    let mut z = 0.0f64;
    for i in 0..m {
        z = match i {
            0 => (2.0 * nf + 1.0).sqrt() - 1.855_75 * (2.0 * nf + 1.0).powf(-0.166_67),
            1 => z - 1.14 * nf.powf(0.426) / z,
            2 => 1.86 * z - 0.86 * x[0],
            3 => 1.91 * z - 0.91 * x[1],
            _ => 2.0 * z - x[i - 2],
        };
        let mut pp = 1.0;
        for _ in 0..100 {
            let (mut p1, mut p2) = (PIM4, 0.0f64);
            for j in 0..n {
                let p3 = p2;
                p2 = p1;
                let jf = j as f64;
                p1 = z * (2.0 / (jf + 1.0)).sqrt() * p2 - (jf / (jf + 1.0)).sqrt() * p3;
            }
            pp = (2.0 * nf).sqrt() * p2;
            let z1 = z;
            z = z1 - p1 / pp;
            if (z - z1).abs() <= 1e-15 * z.abs().max(1.0) {
                break;
            }
        }
        x[i] = z;
        x[n - 1 - i] = -z;
        w[i] = 2.0 / (pp * pp);
        w[n - 1 - i] = w[i];
    }
    let s2 = std::f64::consts::SQRT_2;
    let spi = std::f64::consts::PI.sqrt();
    let theta: Vec<f64> = x.iter().rev().map(|v| v * s2).collect();
    let weight: Vec<f64> = w.iter().rev().map(|v| v / spi).collect();
    (theta, weight)
}

/// `dst += sign * src` over the common length. An index loop on equal-length slices rather than
/// an iterator chain: the app's wasm build sets `-inline-threshold=0` (`.cargo/config.toml`),
/// under which iterator adapters in the E-step were not inlined and the fit ran 2.4 times
/// slower in the worker.
#[inline(always)]
#[allow(clippy::needless_range_loop)]
fn axpy(dst: &mut [f64], src: &[f64], sign: f64) {
    let n = dst.len().min(src.len());
    let (dst, src) = (&mut dst[..n], &src[..n]);
    for q in 0..n {
        dst[q] += sign * src[q];
    }
}

/// Per-respondent lists of fitted items (indices into the fitted set).
struct Responses {
    /// Offsets into `right` / `wrong` / `missing` per respondent (`n + 1` entries each).
    right_off: Vec<usize>,
    right: Vec<u32>,
    wrong_off: Vec<usize>,
    wrong: Vec<u32>,
    missing_off: Vec<usize>,
    missing: Vec<u32>,
}

impl Responses {
    fn right(&self, i: usize) -> &[u32] {
        &self.right[self.right_off[i]..self.right_off[i + 1]]
    }
    fn wrong(&self, i: usize) -> &[u32] {
        &self.wrong[self.wrong_off[i]..self.wrong_off[i + 1]]
    }
    fn missing(&self, i: usize) -> &[u32] {
        &self.missing[self.missing_off[i]..self.missing_off[i + 1]]
    }
}

/// Per fitted item, the respondents who answered it right, wrong, or not at all (the
/// transpose of [`Responses`]), for the item-major accumulation of the expected counts.
struct ByItem {
    right_off: Vec<usize>,
    right: Vec<u32>,
    wrong_off: Vec<usize>,
    wrong: Vec<u32>,
    missing_off: Vec<usize>,
    missing: Vec<u32>,
}

impl ByItem {
    fn new(resp: &Responses, nf: usize) -> Self {
        let ni = resp.right_off.len() - 1;
        fn build<'a>(
            ni: usize,
            nf: usize,
            list: impl Fn(usize) -> &'a [u32],
        ) -> (Vec<usize>, Vec<u32>) {
            let mut count = vec![0usize; nf + 1];
            for i in 0..ni {
                for &k in list(i) {
                    count[k as usize + 1] += 1;
                }
            }
            for k in 0..nf {
                count[k + 1] += count[k];
            }
            let mut at = count.clone();
            let mut out = vec![0u32; count[nf]];
            for i in 0..ni {
                for &k in list(i) {
                    out[at[k as usize]] = i as u32;
                    at[k as usize] += 1;
                }
            }
            (count, out)
        }
        let (right_off, right) = build(ni, nf, |i| resp.right(i));
        let (wrong_off, wrong) = build(ni, nf, |i| resp.wrong(i));
        let (missing_off, missing) = build(ni, nf, |i| resp.missing(i));
        Self {
            right_off,
            right,
            wrong_off,
            wrong,
            missing_off,
            missing,
        }
    }
    fn right(&self, k: usize) -> &[u32] {
        &self.right[self.right_off[k]..self.right_off[k + 1]]
    }
    fn wrong(&self, k: usize) -> &[u32] {
        &self.wrong[self.wrong_off[k]..self.wrong_off[k + 1]]
    }
    fn missing(&self, k: usize) -> &[u32] {
        &self.missing[self.missing_off[k]..self.missing_off[k + 1]]
    }
}

/// The E-step state for one set of parameters.
struct Estep {
    /// `log(1 - P)`, item-major (`fitted x Q`).
    log1m: Vec<f64>,
    /// Sum over items of `log1m`, per node.
    log1m_all: Vec<f64>,
}

impl Estep {
    fn new(nq: usize, nf: usize) -> Self {
        Self {
            log1m: vec![0.0; nf * nq],
            log1m_all: vec![0.0; nq],
        }
    }

    /// Recomputes `log(1 - P)` per item and node (index loops: see [`axpy`]).
    #[allow(clippy::needless_range_loop)]
    fn update(&mut self, theta: &[f64], a: &[f64], c: &[f64]) {
        let nq = theta.len();
        let all = &mut self.log1m_all[..nq];
        all.fill(0.0);
        for (j, row) in self.log1m.chunks_mut(nq).enumerate() {
            let (aj, cj) = (a[j], c[j]);
            let row = &mut row[..nq];
            for q in 0..nq {
                let v = log1m_sigmoid(aj * theta[q] + cj);
                row[q] = v;
                all[q] += v;
            }
        }
    }

    /// Respondent `i`'s normalised posterior over the nodes into `post`; returns the log of
    /// the marginal likelihood, or `None` when the respondent answered no fitted item.
    /// (Index loops: see [`axpy`].)
    #[allow(clippy::too_many_arguments, clippy::needless_range_loop)]
    fn posterior(
        &self,
        resp: &Responses,
        i: usize,
        theta: &[f64],
        log_w: &[f64],
        a: &[f64],
        c: &[f64],
        post: &mut [f64],
    ) -> Option<f64> {
        let nq = theta.len();
        let (right, wrong, missing) = (resp.right(i), resp.wrong(i), resp.missing(i));
        let answered = right.len() + wrong.len();
        if answered == 0 {
            return None;
        }
        let (mut sa, mut sc) = (0.0, 0.0);
        for &j in right {
            sa += a[j as usize];
            sc += c[j as usize];
        }
        let post = &mut post[..nq];
        let (theta, log_w) = (&theta[..nq], &log_w[..nq]);
        for q in 0..nq {
            post[q] = log_w[q] + sa * theta[q] + sc;
        }
        if answered <= missing.len() {
            for &j in right.iter() {
                axpy(
                    post,
                    &self.log1m[j as usize * nq..(j as usize + 1) * nq],
                    1.0,
                );
            }
            for &j in wrong.iter() {
                axpy(
                    post,
                    &self.log1m[j as usize * nq..(j as usize + 1) * nq],
                    1.0,
                );
            }
        } else {
            axpy(post, &self.log1m_all, 1.0);
            for &j in missing {
                axpy(
                    post,
                    &self.log1m[j as usize * nq..(j as usize + 1) * nq],
                    -1.0,
                );
            }
        }
        let mut mx = f64::NEG_INFINITY;
        for q in 0..nq {
            mx = mx.max(post[q]);
        }
        let mut s = 0.0;
        for q in 0..nq {
            post[q] = (post[q] - mx).exp();
            s += post[q];
        }
        let inv = 1.0 / s;
        for q in 0..nq {
            post[q] *= inv;
        }
        Some(mx + s.ln())
    }
}

/// Fits the model to the matrix (see the module documentation).
///
/// # Errors
/// [`ItemsError::Degenerate`] when the matrix cannot be analysed (see
/// [`ResponseMatrix::check_analysable`]), [`ItemsError::BadOption`] for invalid options.
pub fn fit(m: &ResponseMatrix, opts: &IrtOptions) -> Result<IrtFit, ItemsError> {
    opts.validate()?;
    m.check_analysable()?;
    let (ni, nj) = (m.n_respondents(), m.n_items());
    // Which items can be fitted.
    let mut right_n = vec![0usize; nj];
    let mut answered_n = vec![0usize; nj];
    for i in 0..ni {
        for (j, &c) in m.row(i).iter().enumerate() {
            if c >= 0 {
                answered_n[j] += 1;
                right_n[j] += usize::from(c == 1);
            }
        }
    }
    let mut items: Vec<IrtItem> = m
        .items
        .iter()
        .map(|it| IrtItem {
            id: it.id.clone(),
            a: None,
            b: None,
            infit: None,
            outfit: None,
            excluded: None,
            at_bound: false,
            // filled below
        })
        .collect();
    let mut fitted: Vec<usize> = Vec::new();
    let mut fitted_ix = vec![u32::MAX; nj];
    for j in 0..nj {
        let why = if answered_n[j] == 0 {
            Some("no respondent answered it")
        } else if right_n[j] == 0 {
            Some("no respondent answered it right")
        } else if right_n[j] == answered_n[j] {
            Some("every respondent answered it right")
        } else {
            None
        };
        match why {
            Some(w) => items[j].excluded = Some(w.to_string()),
            None => {
                fitted_ix[j] = fitted.len() as u32;
                fitted.push(j);
            }
        }
    }
    let nf = fitted.len();
    let mut resp = Responses {
        right_off: vec![0],
        right: Vec::new(),
        wrong_off: vec![0],
        wrong: Vec::new(),
        missing_off: vec![0],
        missing: Vec::new(),
    };
    for i in 0..ni {
        let row = m.row(i);
        for &j in &fitted {
            let k = fitted_ix[j];
            match row[j] {
                1 => resp.right.push(k),
                0 => resp.wrong.push(k),
                _ => resp.missing.push(k),
            }
        }
        resp.right_off.push(resp.right.len());
        resp.wrong_off.push(resp.wrong.len());
        resp.missing_off.push(resp.missing.len());
    }
    let (theta, w) = gauss_hermite_normal(opts.quadrature_points);
    let nq = theta.len();
    let log_w: Vec<f64> = w.iter().map(|v| v.ln()).collect();
    let (mut a, mut c) = start_values(m, &fitted, &right_n, &answered_n, opts);
    let mut es = Estep::new(nq, nf);
    let mut post = vec![0.0; nq];
    let mut work = EmWork {
        total: vec![0.0; nq],
        r_total: vec![0.0; nq],
        r_acc: vec![0.0; nf * nq],
        n_acc: vec![0.0; nf * nq],
        at_bound: vec![false; nf],
        posts: vec![0.0; ni * nq],
        spans: vec![(0, 0); ni],
    };
    let by = ByItem::new(&resp, nf);
    let two_pl = opts.model == IrtModel::TwoPl;
    let mut converged = false;
    let mut iterations = 0;
    let mut max_change = f64::INFINITY;
    let mut em = |a: &[f64], c: &[f64], na: &mut Vec<f64>, nc: &mut Vec<f64>, w: &mut EmWork| {
        em_cycle(
            &mut es, &resp, &by, &theta, &log_w, a, c, na, nc, w, &mut post, two_pl, opts,
        )
    };
    // SQUAREM (Varadhan and Roland 2008, scheme S3): two EM cycles p0 -> p1 -> p2, an
    // extrapolated point p' = p0 - 2 s r + s^2 v (r = p1 - p0, v = p2 - 2 p1 + p0,
    // s = -|r| / |v| <= -1), then one EM cycle from p' to stabilise it. The step is kept when
    // the log-likelihood at p' is not below that at p0, otherwise p2 (a plain EM result) is
    // used. The stopping rule is on a plain EM cycle's change, as without acceleration.
    let (mut a1, mut c1) = (a.clone(), c.clone());
    let (mut a2, mut c2) = (a.clone(), c.clone());
    let (mut a3, mut c3) = (a.clone(), c.clone());
    let (mut ax, mut cx) = (a.clone(), c.clone());
    while iterations < opts.max_iterations {
        let ll0 = em(&a, &c, &mut a1, &mut c1, &mut work);
        iterations += 1;
        max_change = param_change(&a, &c, &a1, &c1);
        if max_change < opts.tolerance
            || iterations >= opts.max_iterations
            || iterations > SQUAREM_CYCLES
        {
            // Converged, out of cycles, or (after SQUAREM_CYCLES) plain EM from here on.
            std::mem::swap(&mut a, &mut a1);
            std::mem::swap(&mut c, &mut c1);
            if max_change < opts.tolerance {
                converged = true;
                break;
            }
            if iterations >= opts.max_iterations {
                break;
            }
            continue;
        }
        em(&a1, &c1, &mut a2, &mut c2, &mut work);
        iterations += 1;
        let (mut rr, mut vv) = (0.0, 0.0);
        for k in 0..nf {
            for (p0, p1, p2) in [(a[k], a1[k], a2[k]), (c[k], c1[k], c2[k])] {
                let r = p1 - p0;
                let v = p2 - 2.0 * p1 + p0;
                rr += r * r;
                vv += v * v;
            }
        }
        let step = if vv > 0.0 { -(rr / vv).sqrt() } else { -1.0 };
        let step = if step.is_finite() {
            step.clamp(-MAX_SQUAREM_STEP, -1.0)
        } else {
            -1.0
        };
        for k in 0..nf {
            let ext = |p0: f64, p1: f64, p2: f64| {
                let (r, v) = (p1 - p0, p2 - 2.0 * p1 + p0);
                p0 - 2.0 * step * r + step * step * v
            };
            let (ea, ec) = (ext(a[k], a1[k], a2[k]), ext(c[k], c1[k], c2[k]));
            let ea = if two_pl {
                ea.clamp(opts.a_bounds.0, opts.a_bounds.1)
            } else {
                a[k]
            };
            let ea = if ea.abs() < 1e-6 {
                1e-6f64.copysign(ea + 0.0)
            } else {
                ea
            };
            ax[k] = ea;
            cx[k] = ec.clamp(opts.c_bounds.0, opts.c_bounds.1);
        }
        if iterations >= opts.max_iterations {
            std::mem::swap(&mut a, &mut a2);
            std::mem::swap(&mut c, &mut c2);
            break;
        }
        let llx = em(&ax, &cx, &mut a3, &mut c3, &mut work);
        iterations += 1;
        if llx.is_finite() && llx >= ll0 - 1e-9 * ll0.abs() {
            max_change = param_change(&ax, &cx, &a3, &c3);
            std::mem::swap(&mut a, &mut a3);
            std::mem::swap(&mut c, &mut c3);
        } else {
            max_change = param_change(&a1, &c1, &a2, &c2);
            std::mem::swap(&mut a, &mut a2);
            std::mem::swap(&mut c, &mut c2);
        }
        if max_change < opts.tolerance {
            converged = true;
            break;
        }
    }
    let at_bound = work.at_bound;
    // Final E-step: EAP abilities and the log-likelihood at the final parameters.
    es.update(&theta, &a, &c);
    let mut log_likelihood = 0.0;
    let mut respondents = Vec::with_capacity(ni);
    for i in 0..ni {
        let ll = es.posterior(&resp, i, &theta, &log_w, &a, &c, &mut post);
        let (th, se) = match ll {
            None => (None, None),
            Some(ll) => {
                log_likelihood += ll;
                let mean: f64 = post.iter().zip(&theta).map(|(p, t)| p * t).sum();
                let var: f64 = post
                    .iter()
                    .zip(&theta)
                    .map(|(p, t)| p * (t - mean) * (t - mean))
                    .sum();
                (Some(mean), Some(var.max(0.0).sqrt()))
            }
        };
        respondents.push(RespondentAbility {
            id: m.respondents[i].id.clone(),
            theta: th,
            se,
        });
    }
    for (k, &j) in fitted.iter().enumerate() {
        items[j].a = Some(a[k]);
        items[j].b = Some(-c[k] / a[k]);
        items[j].at_bound = at_bound[k];
    }
    // Infit / outfit at the EAP abilities.
    let mut num_in = vec![0.0; nj];
    let mut den_in = vec![0.0; nj];
    let mut out_sum = vec![0.0; nj];
    let mut out_n = vec![0usize; nj];
    for (i, ab) in respondents.iter().enumerate() {
        let Some(t) = ab.theta else { continue };
        for (k, &j) in fitted.iter().enumerate() {
            let x = match m.row(i)[j] {
                1 => 1.0,
                0 => 0.0,
                _ => continue,
            };
            let p = sigmoid(a[k] * t + c[k]);
            let v = (p * (1.0 - p)).max(1e-300);
            let e2 = (x - p) * (x - p);
            num_in[j] += e2;
            den_in[j] += v;
            out_sum[j] += e2 / v;
            out_n[j] += 1;
        }
    }
    for &j in &fitted {
        if out_n[j] > 0 {
            items[j].outfit = Some(out_sum[j] / out_n[j] as f64);
            items[j].infit = (den_in[j] > 0.0).then(|| num_in[j] / den_in[j]);
        }
    }
    let mut notes = Vec::new();
    let excluded = items.iter().filter(|i| i.excluded.is_some()).count();
    if excluded > 0 {
        notes.push(format!(
            "{excluded} of {nj} items left out of the IRT fit (no one or everyone right, or no answers): they carry no information about ability"
        ));
    }
    let bounded = at_bound.iter().filter(|&&b| b).count();
    if bounded > 0 {
        notes.push(format!(
            "{bounded} items have an estimate on its bound (a in [{}, {}], intercept -ab in [{}, {}]): too few respondents, or answers that separate them perfectly, leave no finite estimate",
            opts.a_bounds.0, opts.a_bounds.1, opts.c_bounds.0, opts.c_bounds.1
        ));
    }
    if !converged {
        notes.push(format!(
            "EM did not converge in {iterations} cycles (largest last change {max_change:.2e}, tolerance {:.0e}); the estimates are the last cycle's",
            opts.tolerance
        ));
    }
    let curves = curves(&items, &fitted, opts);
    Ok(IrtFit {
        model: opts.model,
        items,
        respondents,
        converged,
        iterations,
        max_change,
        log_likelihood,
        quadrature_points: nq,
        curves,
        notes,
    })
}

/// Starting values. Rasch: `a = 1`, `b` from the proportion right. 2PL: the classical
/// normal-ogive approximations (Lord 1980): the biserial `r_bis = r_pb sqrt(p (1 - p)) /
/// phi(z_p)` of the item with the respondents' proportion right, `a = 1.7 r / sqrt(1 - r^2)`,
/// `b = -z_p / r`, clamped to moderate values. Only the number of EM cycles depends on them.
fn start_values(
    m: &ResponseMatrix,
    fitted: &[usize],
    right_n: &[usize],
    answered_n: &[usize],
    opts: &IrtOptions,
) -> (Vec<f64>, Vec<f64>) {
    let probit =
        |p: f64| crate::stats::dist::normal_quantile(p.clamp(1e-4, 1.0 - 1e-4)).unwrap_or(0.0);
    if opts.model == IrtModel::Rasch {
        let c = fitted
            .iter()
            .map(|&j| {
                let p = right_n[j] as f64 / answered_n[j] as f64;
                (1.7 * probit(p) * (1.0 + 1.0 / 2.89f64).sqrt()).clamp(-5.0, 5.0)
            })
            .collect();
        return (vec![1.0; fitted.len()], c);
    }
    let ni = m.n_respondents();
    let score: Vec<Option<f64>> = (0..ni)
        .map(|i| {
            let (n, r) = m.respondent_counts(i);
            (n > 0).then(|| r as f64 / n as f64)
        })
        .collect();
    let mut a = Vec::with_capacity(fitted.len());
    let mut c = Vec::with_capacity(fitted.len());
    for &j in fitted {
        let (mut n, mut sx, mut sy, mut sxx, mut syy, mut sxy) = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0);
        for (i, s) in score.iter().enumerate() {
            let (Some(y), x) = (s, m.row(i)[j]) else {
                continue;
            };
            if x < 0 {
                continue;
            }
            let x = f64::from(x);
            n += 1.0;
            sx += x;
            sy += y;
            sxx += x * x;
            syy += y * y;
            sxy += x * y;
        }
        let vx = sxx - sx * sx / n;
        let vy = syy - sy * sy / n;
        let r_pb = if vx > 0.0 && vy > 0.0 {
            (sxy - sx * sy / n) / (vx * vy).sqrt()
        } else {
            0.0
        };
        let p = right_n[j] as f64 / answered_n[j] as f64;
        let z = probit(p);
        let phi = (-0.5 * z * z).exp() / (2.0 * std::f64::consts::PI).sqrt();
        let r = (r_pb * (p * (1.0 - p)).sqrt() / phi).clamp(0.1, 0.9);
        let aj = (1.7 * r / (1.0 - r * r).sqrt()).clamp(0.3, 3.0);
        let bj = (-z / r).clamp(-4.0, 4.0);
        a.push(aj);
        c.push(-aj * bj);
    }
    (a, c)
}

/// EM cycles after which SQUAREM stops and plain (monotone) EM cycles continue: on data whose
/// likelihood has no interior maximum for some items (estimates on their bounds) the
/// extrapolation can keep overshooting.
const SQUAREM_CYCLES: usize = 300;

/// Largest SQUAREM step length `|s|`.
const MAX_SQUAREM_STEP: f64 = 64.0;

/// Accumulators of one EM cycle.
struct EmWork {
    /// Posterior total per node over the mostly complete rows.
    total: Vec<f64>,
    /// Posterior total per node over the complete rows counted by their wrong answers.
    r_total: Vec<f64>,
    /// Expected right answers per item and node (added to `r_total`).
    r_acc: Vec<f64>,
    /// Expected answers per item and node (added to `total`).
    n_acc: Vec<f64>,
    /// Whether each item's last M-step hit a bound.
    at_bound: Vec<bool>,
    /// Each respondent's posterior over the nodes (respondents x Q).
    posts: Vec<f64>,
    /// Per respondent, the nodes `lo..hi` outside which the posterior is below 1e-15.
    spans: Vec<(u32, u32)>,
}

/// Largest change of a slope `a` or intercept `c = -a b` between two parameter sets (in
/// slope-intercept form, as `b` is unidentified for an item whose slope is near 0).
fn param_change(a0: &[f64], c0: &[f64], a1: &[f64], c1: &[f64]) -> f64 {
    let mut m: f64 = 0.0;
    for k in 0..a0.len() {
        m = m.max((a1[k] - a0[k]).abs()).max((c1[k] - c0[k]).abs());
    }
    m
}

/// One EM cycle from `(a, c)` into `(na, nc)`; returns the marginal log-likelihood at
/// `(a, c)`.
#[allow(clippy::too_many_arguments)]
fn em_cycle(
    es: &mut Estep,
    resp: &Responses,
    by: &ByItem,
    theta: &[f64],
    log_w: &[f64],
    a: &[f64],
    c: &[f64],
    na: &mut [f64],
    nc: &mut [f64],
    w: &mut EmWork,
    post: &mut [f64],
    two_pl: bool,
    opts: &IrtOptions,
) -> f64 {
    let nq = theta.len();
    es.update(theta, a, c);
    w.total.iter_mut().for_each(|v| *v = 0.0);
    w.r_total.iter_mut().for_each(|v| *v = 0.0);
    w.r_acc.iter_mut().for_each(|v| *v = 0.0);
    w.n_acc.iter_mut().for_each(|v| *v = 0.0);
    // Every respondent's posterior into a row of `w.posts` (zero for one who answered no
    // fitted item), and their total.
    let mut ll = 0.0;
    let ni = resp.right_off.len() - 1;
    for i in 0..ni {
        let row = &mut w.posts[i * nq..(i + 1) * nq];
        match es.posterior(resp, i, theta, log_w, a, c, post) {
            Some(li) => {
                ll += li;
                row.copy_from_slice(&post[..nq]);
                axpy(&mut w.total, row, 1.0);
                let lo = row.iter().position(|&p| p > 1e-15).unwrap_or(0);
                let hi = row.iter().rposition(|&p| p > 1e-15).map_or(nq, |h| h + 1);
                w.spans[i] = (lo as u32, hi.max(lo) as u32);
            }
            None => {
                row.fill(0.0);
                w.spans[i] = (0, 0);
            }
        }
    }
    // The nodes that carry posterior mass. With many items each respondent's posterior sits
    // on one or two nodes and the 41 nodes span +-11, so most nodes carry none (below
    // 1e-15 per respondent, often exactly 0 after `exp`): the expected counts and the M-step
    // below run on the nodes lo..=hi only, which gives the same estimates (to ~1e-13) at a
    // third of the work on 2,710 items x 300 respondents (issue 22, BENCHMARKS.md).
    let tiny = 1e-15 * ni as f64;
    let lo = w.total.iter().position(|&t| t > tiny).unwrap_or(0);
    let hi = w
        .total
        .iter()
        .rposition(|&t| t > tiny)
        .unwrap_or(nq - 1)
        .max(lo);
    let span = lo..hi + 1;
    // Item-major expected counts: per item, the posteriors summed over whichever of its
    // respondent lists is shorter (the destination row stays in cache while the posteriors,
    // ni x Q, are read).
    // Each respondent's posterior is added over its own nodes (`spans`: one to three nodes
    // each on 2,710 items).
    let posts: &[f64] = &w.posts;
    let total: &[f64] = &w.total;
    let spans: &[(u32, u32)] = &w.spans;
    let sum = |dst: &mut [f64], who: &[u32], sign: f64| {
        for &i in who {
            let (lo, hi) = spans[i as usize];
            let row = i as usize * nq;
            axpy(
                &mut dst[lo as usize..hi as usize],
                &posts[row + lo as usize..row + hi as usize],
                sign,
            );
        }
    };
    for k in 0..a.len() {
        let (right, wrong, missing) = (by.right(k), by.wrong(k), by.missing(k));
        let n_row = &mut w.n_acc[k * nq..(k + 1) * nq];
        if right.len() + wrong.len() <= missing.len() {
            sum(n_row, right, 1.0);
            sum(n_row, wrong, 1.0);
        } else {
            n_row.copy_from_slice(total);
            sum(n_row, missing, -1.0);
        }
        let r_row = &mut w.r_acc[k * nq..(k + 1) * nq];
        if right.len() <= wrong.len() {
            sum(r_row, right, 1.0);
        } else {
            r_row.copy_from_slice(&w.n_acc[k * nq..(k + 1) * nq]);
            sum(r_row, wrong, -1.0);
        }
    }
    // The M-step reads `total + answered` and `r_total + r`: the totals are already inside
    // the per-item rows.
    w.total.iter_mut().for_each(|v| *v = 0.0);
    let (t_span, total_span, r_total_span) = (
        &theta[span.clone()],
        &w.total[span.clone()],
        &w.r_total[span.clone()],
    );
    for k in 0..a.len() {
        let r = &w.r_acc[k * nq + span.start..k * nq + span.end];
        let answered = &w.n_acc[k * nq + span.start..k * nq + span.end];
        let (x, y, bound) = m_step(
            t_span,
            total_span,
            r_total_span,
            r,
            answered,
            a[k],
            c[k],
            two_pl,
            opts,
        );
        na[k] = x;
        nc[k] = y;
        w.at_bound[k] = bound;
    }
    ll
}

/// One item's expected counts at the quadrature nodes.
struct MStepNodes<'a> {
    theta: &'a [f64],
    total: &'a [f64],
    r_total: &'a [f64],
    r: &'a [f64],
    answered: &'a [f64],
}

impl MStepNodes<'_> {
    /// Gradient and negated Hessian at `(a, c)` (`obj` left at 0).
    fn gradient(&self, a: f64, c: f64) -> MStepEval {
        let (mut ga, mut gc, mut haa, mut hac, mut hcc) = (0.0, 0.0, 0.0, 0.0, 0.0);
        for q in 0..self.theta.len() {
            let n = (self.total[q] + self.answered[q]).max(0.0);
            let t = self.theta[q];
            let p = sigmoid(a * t + c);
            let res = (self.r[q] + self.r_total[q]) - n * p;
            let wq = n * p * (1.0 - p);
            ga += res * t;
            gc += res;
            haa += wq * t * t;
            hac += wq * t;
            hcc += wq;
        }
        MStepEval {
            obj: 0.0,
            ga,
            gc,
            haa,
            hac,
            hcc,
        }
    }

    /// `sum_q r_q z_q - n_q softplus(z_q)` at `(a, c)`.
    fn objective(&self, a: f64, c: f64) -> f64 {
        let mut obj = 0.0;
        for q in 0..self.theta.len() {
            let n = (self.total[q] + self.answered[q]).max(0.0);
            let z = a * self.theta[q] + c;
            let softplus = z.max(0.0) + (-z.abs()).exp().ln_1p();
            obj += (self.r[q] + self.r_total[q]) * z - n * softplus;
        }
        obj
    }
}

/// Objective, gradient and (negated) Hessian of one item's M-step at `(a, c)`.
struct MStepEval {
    obj: f64,
    ga: f64,
    gc: f64,
    haa: f64,
    hac: f64,
    hcc: f64,
}

/// Newton steps at most this long are taken without checking the objective.
const SAFE_STEP: f64 = 0.1;

/// One item's M-step: Newton steps on the expected complete-data log-likelihood
/// `sum_q r_q ln P_q + (n_q - r_q) ln(1 - P_q) = sum_q r_q z_q - n_q softplus(z_q)`,
/// `n_q = total_q + answered_q` (see [`fit`]), each step at most 1 long; a step longer than
/// [`SAFE_STEP`] is halved until the objective does not decrease (so EM cannot oscillate where
/// the Hessian is nearly singular). Returns the new `(a, c)` and whether a bound was hit.
#[allow(clippy::too_many_arguments)]
fn m_step(
    theta: &[f64],
    total: &[f64],
    r_total: &[f64],
    r: &[f64],
    answered: &[f64],
    mut a: f64,
    mut c: f64,
    two_pl: bool,
    opts: &IrtOptions,
) -> (f64, f64, bool) {
    // The objective (one more transcendental per node) is computed only for steps longer
    // than SAFE_STEP, the ones that may overshoot; a short Newton step on this concave
    // objective is taken as it is.
    let nodes = MStepNodes {
        theta,
        total,
        r_total,
        r,
        answered,
    };
    let eval = |a: f64, c: f64, with_obj: bool| {
        let mut e = nodes.gradient(a, c);
        if with_obj {
            e.obj = nodes.objective(a, c);
        }
        e
    };
    let clamp = |a: f64, c: f64| {
        let mut bound = false;
        let mut a2 = a;
        if a2 < opts.a_bounds.0 || a2 > opts.a_bounds.1 {
            a2 = a2.clamp(opts.a_bounds.0, opts.a_bounds.1);
            bound = true;
        }
        if a2.abs() < 1e-6 {
            a2 = 1e-6f64.copysign(if a2 == 0.0 { 1.0 } else { a2 });
        }
        let mut c2 = c;
        if c2 < opts.c_bounds.0 || c2 > opts.c_bounds.1 {
            c2 = c2.clamp(opts.c_bounds.0, opts.c_bounds.1);
            bound = true;
        }
        (a2, c2, bound)
    };
    let (a0, c0, mut bound) = clamp(a, c);
    a = a0;
    c = c0;
    let mut cur = eval(a, c, false);
    let mut have_obj = false;
    for _ in 0..NEWTON_STEPS {
        let (da, dc) = if two_pl {
            let (haa, hcc) = (cur.haa + 1e-10, cur.hcc + 1e-10);
            let det = haa * hcc - cur.hac * cur.hac;
            if det <= 0.0 {
                break;
            }
            (
                (hcc * cur.ga - cur.hac * cur.gc) / det,
                (haa * cur.gc - cur.hac * cur.ga) / det,
            )
        } else {
            (0.0, cur.gc / (cur.hcc + 1e-10))
        };
        let len = da.abs().max(dc.abs());
        let mut step = if len > 1.0 { 1.0 / len } else { 1.0 };
        if len * step <= SAFE_STEP {
            let (na, nc, nb) = clamp(a + step * da, c + step * dc);
            a = na;
            c = nc;
            bound = nb;
            if len * step < 1e-6 {
                break;
            }
            cur = eval(a, c, false);
            have_obj = false;
            continue;
        }
        if !have_obj {
            cur = eval(a, c, true);
            have_obj = true;
        }
        let mut moved = false;
        for _ in 0..12 {
            let (na, nc, nb) = clamp(a + step * da, c + step * dc);
            let cand = eval(na, nc, true);
            if cand.obj >= cur.obj - 1e-12 * cur.obj.abs() {
                moved = (na - a).abs().max((nc - c).abs()) > 0.0;
                a = na;
                c = nc;
                bound = nb;
                cur = cand;
                break;
            }
            step *= 0.5;
        }
        if !moved {
            break;
        }
    }
    (a, c, bound)
}

fn curves(items: &[IrtItem], fitted: &[usize], opts: &IrtOptions) -> Curves {
    let (lo, hi, n) = opts.theta_grid;
    let grid: Vec<f64> = (0..n)
        .map(|k| lo + (hi - lo) * k as f64 / (n - 1) as f64)
        .collect();
    let mut test = vec![0.0; n];
    let mut per_item = Vec::new();
    for &j in fitted {
        let it = &items[j];
        let (Some(a), Some(b)) = (it.a, it.b) else {
            continue;
        };
        let p: Vec<f64> = grid.iter().map(|t| sigmoid(a * (t - b))).collect();
        let info: Vec<f64> = p.iter().map(|p| a * a * p * (1.0 - p)).collect();
        for (t, v) in test.iter_mut().zip(&info) {
            *t += v;
        }
        if opts.item_curves {
            per_item.push(ItemCurve {
                id: it.id.clone(),
                p,
                information: info,
            });
        }
    }
    Curves {
        test_se: test
            .iter()
            .map(|&i| (i > 0.0).then(|| 1.0 / i.sqrt()))
            .collect(),
        theta: grid,
        test_information: test,
        items: per_item,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gauss_hermite_moments() {
        // E[theta^k] of N(0, 1): 1, 0, 1, 0, 3, 0, 15; a 41-point rule is exact to degree 81.
        let (x, w) = gauss_hermite_normal(41);
        let mom = |k: i32| x.iter().zip(&w).map(|(x, w)| w * x.powi(k)).sum::<f64>();
        for (k, want) in [(0, 1.0), (1, 0.0), (2, 1.0), (3, 0.0), (4, 3.0), (6, 15.0)] {
            approx::assert_abs_diff_eq!(mom(k), want, epsilon = 1e-11);
        }
        // The two-point rule is +-1 with weight 1/2 each.
        let (x, w) = gauss_hermite_normal(2);
        approx::assert_abs_diff_eq!(x[1], 1.0, epsilon = 1e-14);
        approx::assert_abs_diff_eq!(w[0], 0.5, epsilon = 1e-14);
    }

    #[test]
    fn log1m_sigmoid_tails() {
        // ln(1 - 1/(1+e^-z)) = -ln(1 + e^z): at z = 0, -ln 2; at z = 40, about -40.
        approx::assert_abs_diff_eq!(log1m_sigmoid(0.0), -(2f64.ln()), epsilon = 1e-15);
        approx::assert_abs_diff_eq!(log1m_sigmoid(40.0), -40.0, epsilon = 1e-12);
        approx::assert_abs_diff_eq!(log1m_sigmoid(-40.0), -(-40f64).exp(), epsilon = 1e-30);
    }
}
