//! The PLS path-modelling algorithm (Lohmöller / Wold), seminr's conventions, computed on the
//! indicators' correlation matrix.
//!
//! With standardized indicators every quantity of the algorithm is a function of their
//! correlation matrix `R`: a composite `ŝ_i = X_i w_i / sd_i` has `sd_i² = w_iᵀ R_ii w_i`,
//! `cor(x_k, ŝ_i) = R_k,i w_i / sd_i` and `cor(ŝ_i, ŝ_j) = w_iᵀ R_ij w_j / (sd_i sd_j)`. So the
//! engine iterates on `R` (p x p) instead of the n x p data, which makes one fit independent of
//! the number of models and a bootstrap resample cost one correlation matrix.
//!
//! Steps (seminr `simplePLS`): start with all outer weights 1; each iteration (1) forms the
//! standardized composites, (2) inner weights by the scheme: *path* — regression
//! coefficients of a construct on its predecessors and correlations with its successors;
//! *factorial* — correlations with all neighbours; *centroid* — signs of those correlations,
//! (3) the inner proxy `z_j = Σ_i e_ij ŝ_i`, (4) new outer weights: Mode A
//! `w_j = cov(X_j, z_j)`, Mode B `w_j = R_jj⁻¹ cov(X_j, z_j)`, (5) rescales each composite to
//! unit variance, and stops when `Σ |w_new − w_old| < tolerance`. A construct without any
//! structural neighbour uses its own composite as proxy (Mode A then converges to the first
//! principal component of its block) — seminr refuses such models, we document the choice.

use crate::linalg::{Cholesky, LinalgError, Matrix};
use serde::{Deserialize, Serialize};

/// How a composite's outer weights are estimated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Mode {
    /// Correlation weights (reflective-style): `w ∝ cov(x, proxy)`.
    A,
    /// Regression weights (formative-style): `w ∝ R⁻¹ cov(x, proxy)`.
    B,
}

/// The inner weighting scheme.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Scheme {
    /// Path weighting (seminr's default).
    #[default]
    Path,
    /// Factorial: correlations with all neighbours.
    Factorial,
    /// Centroid: signs of the correlations with all neighbours.
    Centroid,
}

/// A composite: indices of its indicators in the correlation matrix, and its mode.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Block {
    pub name: String,
    pub items: Vec<usize>,
    pub mode: Mode,
}

/// The measurement blocks plus the structural model (predecessor/successor lists).
#[derive(Debug, Clone)]
pub(crate) struct Structure {
    pub blocks: Vec<Block>,
    pub preds: Vec<Vec<usize>>,
    pub succs: Vec<Vec<usize>>,
    pub scheme: Scheme,
}

impl Structure {
    pub fn new(blocks: Vec<Block>, paths: &[(usize, usize)], scheme: Scheme) -> Self {
        let m = blocks.len();
        let mut preds = vec![Vec::new(); m];
        let mut succs = vec![Vec::new(); m];
        for &(f, t) in paths {
            preds[t].push(f);
            succs[f].push(t);
        }
        Self {
            blocks,
            preds,
            succs,
            scheme,
        }
    }
}

/// Why a fit failed, in indices (the caller names them).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum EngineError {
    /// A block's correlation matrix is singular at `pivot` (block-local index).
    SingularBlock { block: usize, pivot: usize },
    /// A composite has zero variance.
    ZeroComposite { block: usize },
    /// The predecessors of `construct` have singular score correlations (pivot among preds).
    SingularInner { construct: usize, pivot: usize },
    /// No convergence within the iteration limit.
    NotConverged { iterations: usize, change: f64 },
}

/// A converged fit.
#[derive(Debug, Clone)]
pub(crate) struct Fit {
    /// Outer weights per block (for standardized indicators; composites of unit variance).
    pub weights: Vec<Vec<f64>>,
    /// `t[i][k] = cor(x_k, ŝ_i)` for every indicator `k`: loadings and cross-loadings.
    pub t: Vec<Vec<f64>>,
    /// Construct score correlations.
    pub c: Matrix,
    /// Number of outer-weight updates done.
    pub iterations: usize,
}

fn composite_moments(
    r: &Matrix,
    st: &Structure,
    w: &[Vec<f64>],
) -> Result<(Vec<Vec<f64>>, Matrix), EngineError> {
    let p = r.rows();
    let m = st.blocks.len();
    let mut t = vec![vec![0.0; p]; m];
    let mut sds = vec![0.0; m];
    for (i, b) in st.blocks.iter().enumerate() {
        let ti = &mut t[i];
        for (a, &l) in b.items.iter().enumerate() {
            let wl = w[i][a];
            for (k, tk) in ti.iter_mut().enumerate() {
                *tk += r[(k, l)] * wl;
            }
        }
        let var: f64 = b.items.iter().zip(&w[i]).map(|(&l, wl)| ti[l] * wl).sum();
        if !var.is_finite() || var <= 1e-300 {
            return Err(EngineError::ZeroComposite { block: i });
        }
        let sd = var.sqrt();
        sds[i] = sd;
        ti.iter_mut().for_each(|v| *v /= sd);
    }
    // cor(ŝ_i, ŝ_j) = Σ_{l in j} cor(x_l, ŝ_i) w_jl / sd_j
    let mut c = Matrix::identity(m);
    for i in 0..m {
        for j in i + 1..m {
            let v: f64 = st.blocks[j]
                .items
                .iter()
                .zip(&w[j])
                .map(|(&l, wl)| t[i][l] * wl)
                .sum::<f64>()
                / sds[j];
            let v = v.clamp(-1.0, 1.0);
            c[(i, j)] = v;
            c[(j, i)] = v;
        }
    }
    Ok((t, c))
}

/// Regression of construct `j` on its predecessors from the score correlations.
pub(crate) fn regress(c: &Matrix, preds: &[usize], j: usize) -> Result<Vec<f64>, EngineError> {
    let cpp = c.select(preds, preds);
    let cpj: Vec<f64> = preds.iter().map(|&i| c[(i, j)]).collect();
    match Cholesky::new(&cpp) {
        Ok(ch) => Ok(ch.solve(&cpj)),
        Err(LinalgError::Singular { pivot, .. }) => Err(EngineError::SingularInner {
            construct: j,
            pivot,
        }),
        Err(_) => Err(EngineError::SingularInner {
            construct: j,
            pivot: 0,
        }),
    }
}

fn inner_weights(st: &Structure, c: &Matrix) -> Result<Matrix, EngineError> {
    let m = st.blocks.len();
    let mut e = Matrix::zeros(m, m);
    for j in 0..m {
        if st.preds[j].is_empty() && st.succs[j].is_empty() {
            e[(j, j)] = 1.0;
            continue;
        }
        match st.scheme {
            Scheme::Path => {
                if !st.preds[j].is_empty() {
                    let beta = regress(c, &st.preds[j], j)?;
                    for (&i, b) in st.preds[j].iter().zip(beta) {
                        e[(i, j)] = b;
                    }
                }
                for &k in &st.succs[j] {
                    e[(k, j)] = c[(k, j)];
                }
            }
            Scheme::Factorial | Scheme::Centroid => {
                for &k in st.preds[j].iter().chain(&st.succs[j]) {
                    let v = c[(k, j)];
                    e[(k, j)] = if st.scheme == Scheme::Factorial {
                        v
                    } else if v > 0.0 {
                        1.0
                    } else if v < 0.0 {
                        -1.0
                    } else {
                        0.0
                    };
                }
            }
        }
    }
    Ok(e)
}

/// Runs the PLS algorithm on the correlation matrix `r` of the standardized indicators.
pub(crate) fn fit(
    r: &Matrix,
    st: &Structure,
    max_iterations: usize,
    tolerance: f64,
) -> Result<Fit, EngineError> {
    let m = st.blocks.len();
    let mut mode_b = Vec::with_capacity(m);
    let mut rbb = Vec::with_capacity(m);
    for (i, b) in st.blocks.iter().enumerate() {
        let sub = r.select(&b.items, &b.items);
        mode_b.push(if b.mode == Mode::B && b.items.len() > 1 {
            match Cholesky::new(&sub) {
                Ok(ch) => Some(ch),
                Err(LinalgError::Singular { pivot, .. }) => {
                    return Err(EngineError::SingularBlock { block: i, pivot })
                }
                Err(_) => return Err(EngineError::SingularBlock { block: i, pivot: 0 }),
            }
        } else {
            None
        });
        rbb.push(sub);
    }
    let mut w: Vec<Vec<f64>> = st.blocks.iter().map(|b| vec![1.0; b.items.len()]).collect();
    let mut change = f64::INFINITY;
    let mut iterations = 0;
    while iterations < max_iterations {
        iterations += 1;
        let (t, c) = composite_moments(r, st, &w)?;
        let e = inner_weights(st, &c)?;
        change = 0.0;
        for (j, b) in st.blocks.iter().enumerate() {
            let mut cov: Vec<f64> = b
                .items
                .iter()
                .map(|&k| (0..m).map(|i| e[(i, j)] * t[i][k]).sum())
                .collect();
            if let Some(ch) = &mode_b[j] {
                cov = ch.solve(&cov);
            }
            let rw = rbb[j].mul_vec(&cov).unwrap_or_default();
            let var: f64 = rw.iter().zip(&cov).map(|(a, b)| a * b).sum();
            if !var.is_finite() || var <= 1e-300 {
                return Err(EngineError::ZeroComposite { block: j });
            }
            let sd = var.sqrt();
            for (old, new) in w[j].iter_mut().zip(cov) {
                let v = new / sd;
                change += (v - *old).abs();
                *old = v;
            }
        }
        if change < tolerance {
            let (t, c) = composite_moments(r, st, &w)?;
            return Ok(Fit {
                weights: w,
                t,
                c,
                iterations,
            });
        }
    }
    Err(EngineError::NotConverged { iterations, change })
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_abs_diff_eq;

    #[test]
    fn two_single_item_constructs() {
        // One indicator per construct: weights 1, loadings 1, construct correlation = r.
        let r = Matrix::from_rows(&[vec![1.0, 0.3], vec![0.3, 1.0]]).unwrap();
        let st = Structure::new(
            vec![
                Block {
                    name: "A".into(),
                    items: vec![0],
                    mode: Mode::A,
                },
                Block {
                    name: "B".into(),
                    items: vec![1],
                    mode: Mode::A,
                },
            ],
            &[(0, 1)],
            Scheme::Path,
        );
        let f = fit(&r, &st, 300, 1e-7).unwrap();
        assert_abs_diff_eq!(f.weights[0][0], 1.0, epsilon = 1e-15);
        assert_abs_diff_eq!(f.c[(0, 1)], 0.3, epsilon = 1e-15);
        assert_eq!(regress(&f.c, &[0], 1).unwrap(), vec![0.3]);
    }

    #[test]
    fn isolated_mode_a_block_is_first_principal_component() {
        // R = [[1, .5, .2], [.5, 1, .3], [.2, .3, 1]]; with its own composite as proxy, Mode A
        // is a power iteration, so w is the leading eigenvector of R scaled to wᵀRw = 1:
        // numpy.linalg.eigh gives v = [0.5987, 0.6516, 0.4656] (λ = 1.7082... ), w = v/sqrt(λ).
        let r = Matrix::from_rows(&[
            vec![1.0, 0.5, 0.2],
            vec![0.5, 1.0, 0.3],
            vec![0.2, 0.3, 1.0],
        ])
        .unwrap();
        let st = Structure::new(
            vec![Block {
                name: "A".into(),
                items: vec![0, 1, 2],
                mode: Mode::A,
            }],
            &[],
            Scheme::Path,
        );
        let f = fit(&r, &st, 300, 1e-12).unwrap();
        let w = &f.weights[0];
        // Rw = λw at the fixed point.
        let rw = r.mul_vec(w).unwrap();
        let lambda = rw[0] / w[0];
        for k in 0..3 {
            assert_abs_diff_eq!(rw[k], lambda * w[k], epsilon = 1e-9);
        }
        let var: f64 = rw.iter().zip(w).map(|(a, b)| a * b).sum();
        assert_abs_diff_eq!(var, 1.0, epsilon = 1e-12);
    }

    #[test]
    fn composite_correlation_with_unnormalized_weights() {
        // Start weights 1: ŝ_A = (x0 + x1) / sqrt(2 + 2·0.5) = (x0 + x1) / sqrt 3, ŝ_B = x2;
        // cor(ŝ_A, ŝ_B) = (0.3 + 0.5) / sqrt 3 = 0.461880; cor(x0, ŝ_A) = 1.5 / sqrt 3.
        let r = Matrix::from_rows(&[
            vec![1.0, 0.5, 0.3],
            vec![0.5, 1.0, 0.5],
            vec![0.3, 0.5, 1.0],
        ])
        .unwrap();
        let st = Structure::new(
            vec![
                Block {
                    name: "A".into(),
                    items: vec![0, 1],
                    mode: Mode::A,
                },
                Block {
                    name: "B".into(),
                    items: vec![2],
                    mode: Mode::A,
                },
            ],
            &[(0, 1)],
            Scheme::Path,
        );
        let (t, c) = composite_moments(&r, &st, &[vec![1.0, 1.0], vec![1.0]]).unwrap();
        assert_abs_diff_eq!(c[(0, 1)], 0.8 / 3f64.sqrt(), epsilon = 1e-15);
        assert_abs_diff_eq!(c[(1, 0)], 0.8 / 3f64.sqrt(), epsilon = 1e-15);
        assert_abs_diff_eq!(t[0][0], 1.5 / 3f64.sqrt(), epsilon = 1e-15);
        // Same with weights 2 (scale must not matter).
        let (_, c2) = composite_moments(&r, &st, &[vec![2.0, 2.0], vec![3.0]]).unwrap();
        assert_abs_diff_eq!(c2[(0, 1)], 0.8 / 3f64.sqrt(), epsilon = 1e-15);
    }

    #[test]
    fn collinear_mode_b_block_is_an_error() {
        let r = Matrix::from_rows(&[
            vec![1.0, 1.0, 0.2],
            vec![1.0, 1.0, 0.2],
            vec![0.2, 0.2, 1.0],
        ])
        .unwrap();
        let st = Structure::new(
            vec![
                Block {
                    name: "A".into(),
                    items: vec![0, 1],
                    mode: Mode::B,
                },
                Block {
                    name: "B".into(),
                    items: vec![2],
                    mode: Mode::A,
                },
            ],
            &[(0, 1)],
            Scheme::Path,
        );
        assert_eq!(
            fit(&r, &st, 300, 1e-7).unwrap_err(),
            EngineError::SingularBlock { block: 0, pivot: 1 }
        );
    }
}
