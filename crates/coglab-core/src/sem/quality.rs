//! Measurement-quality figures of a fitted model and Gold's benchmark diagnostics.
//!
//! Definitions (seminr's, checked against its output on mobi):
//! - Cronbach's α on the correlation matrix (standardized α):
//!   `α = k/(k−1) · (1 − k / Σ_ij R_ij)`; 1 for a single indicator.
//! - `ρ_C = (Σλ)² / ((Σλ)² + Σ(1 − λ²))`, `AVE = mean λ²` (λ = PLS loadings).
//! - `ρ_A` (Dijkstra-Henseler): `(wᵀw)² · wᵀ(R − diag R)w / wᵀ(wwᵀ − diag(wwᵀ))w`; 1 for a
//!   single indicator or a Mode B construct.
//! - HTMT, two variants ([`HtmtVariant`]): *standard* (Henseler, Ringle & Sarstedt 2015, as
//!   seminr): mean |r| between the two blocks' indicators over the geometric mean of the mean
//!   |r| within each block (pairs i < j); a single-indicator block counts 1. *Eq. 1* (seed 003,
//!   the paper's formula as printed): mean *signed* r between the blocks over the mean signed r
//!   within block i only (the first construct of the pair in spec order; a single-indicator
//!   block counts 1).
//! - Item VIF: `1 / (1 − R²)` of an indicator on the other indicators of its block, i.e. the
//!   diagonal of the block's inverse correlation matrix; 1 for a single indicator.
//! - Gold (seed 003, eq. 2, 3, 5): `D_div = min(1, 1 / (2 · max HTMT))`, `TC = mean |λ|`,
//!   `D_valid = (Π VIF)^(−1/n)`, and their mean.

use super::engine::Mode;
use crate::linalg::{Cholesky, LinalgError, Matrix};
use serde::{Deserialize, Serialize};

/// Reliability and convergent validity of one construct.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Reliability {
    /// Cronbach's α (standardized).
    pub alpha: f64,
    /// Composite reliability ρ_C.
    pub rho_c: f64,
    /// Dijkstra-Henseler ρ_A.
    pub rho_a: f64,
    /// Average variance extracted.
    pub ave: f64,
}

/// Reliability of the block `items` of `r`, from its outer `weights` and `loadings`.
pub(crate) fn reliability(
    r: &Matrix,
    items: &[usize],
    weights: &[f64],
    loadings: &[f64],
    mode: Mode,
) -> Reliability {
    let k = items.len();
    let sum_l: f64 = loadings.iter().sum();
    let sum_err: f64 = loadings.iter().map(|l| 1.0 - l * l).sum();
    let rho_c = sum_l * sum_l / (sum_l * sum_l + sum_err);
    let ave = loadings.iter().map(|l| l * l).sum::<f64>() / k as f64;
    if k == 1 {
        return Reliability {
            alpha: 1.0,
            rho_c,
            rho_a: 1.0,
            ave,
        };
    }
    let mut total = 0.0;
    let mut quad = 0.0; // wᵀ (R − diag) w
    for (a, &i) in items.iter().enumerate() {
        for (b, &j) in items.iter().enumerate() {
            total += r[(i, j)];
            if a != b {
                quad += weights[a] * r[(i, j)] * weights[b];
            }
        }
    }
    let kf = k as f64;
    let alpha = kf / (kf - 1.0) * (1.0 - kf / total);
    let ww: f64 = weights.iter().map(|w| w * w).sum();
    let w4: f64 = weights.iter().map(|w| w.powi(4)).sum();
    let rho_a = if mode == Mode::B {
        1.0
    } else {
        ww * ww * quad / (ww * ww - w4)
    };
    Reliability {
        alpha,
        rho_c,
        rho_a,
        ave,
    }
}

/// Item VIFs of a block (diagonal of the inverse block correlation matrix).
///
/// `Err(pivot)` names the block-local indicator that is a linear combination of the ones
/// before it.
pub(crate) fn item_vifs(r: &Matrix, items: &[usize]) -> Result<Vec<f64>, usize> {
    if items.len() == 1 {
        return Ok(vec![1.0]);
    }
    let sub = r.select(items, items);
    match Cholesky::new(&sub) {
        Ok(ch) => {
            let inv = ch.inverse();
            Ok((0..items.len()).map(|i| inv[(i, i)]).collect())
        }
        Err(LinalgError::Singular { pivot, .. }) => Err(pivot),
        Err(_) => Err(0),
    }
}

/// Which HTMT formula is computed (issue 23: the paper's Eq. 1 differs from the standard one).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum HtmtVariant {
    /// Henseler, Ringle & Sarstedt (2015), as seminr and SmartPLS compute it: mean |r| between
    /// the blocks over the geometric mean of both blocks' mean within-block |r|. Our default.
    #[default]
    Standard,
    /// Seed 003's Eq. 1 as printed: mean signed r between the blocks over the mean signed r
    /// within block i only (i = the first construct of the pair in spec order). Not symmetric.
    Eq1,
}

impl HtmtVariant {
    /// The label shown beside the figure ("standard (Henseler 2015)" / "paper Eq. 1").
    pub fn label(self) -> &'static str {
        match self {
            HtmtVariant::Standard => "standard (Henseler 2015)",
            HtmtVariant::Eq1 => "paper Eq. 1 (signed r, block i only)",
        }
    }

    /// The CLI spelling (`standard` / `eq1`).
    pub fn as_str(self) -> &'static str {
        match self {
            HtmtVariant::Standard => "standard",
            HtmtVariant::Eq1 => "eq1",
        }
    }
}

fn mean_within(r: &Matrix, items: &[usize], signed: bool) -> f64 {
    if items.len() < 2 {
        return 1.0;
    }
    let mut s = 0.0;
    let mut n = 0usize;
    for (a, &i) in items.iter().enumerate() {
        for &j in &items[a + 1..] {
            s += if signed { r[(i, j)] } else { r[(i, j)].abs() };
            n += 1;
        }
    }
    s / n as f64
}

/// Heterotrait-monotrait ratio of blocks `a` (the paper's block i) and `b`; `None` when the
/// denominator is zero (a block's indicators uncorrelated: the ratio is undefined).
pub(crate) fn htmt(r: &Matrix, a: &[usize], b: &[usize], variant: HtmtVariant) -> Option<f64> {
    let signed = variant == HtmtVariant::Eq1;
    let mut s = 0.0;
    for &i in a {
        for &j in b {
            s += if signed { r[(i, j)] } else { r[(i, j)].abs() };
        }
    }
    let hetero = s / (a.len() * b.len()) as f64;
    let denom = match variant {
        HtmtVariant::Standard => (mean_within(r, a, false) * mean_within(r, b, false)).sqrt(),
        HtmtVariant::Eq1 => mean_within(r, a, true),
    };
    (denom != 0.0 && denom.is_finite()).then(|| hetero / denom)
}

/// Total effects `B + B² + ...` of an acyclic path-coefficient matrix (`b[(i, j)]` = path
/// i -> j).
pub(crate) fn total_effects(b: &Matrix) -> Matrix {
    let m = b.rows();
    let mut total = b.clone();
    let mut power = b.clone();
    for _ in 1..m {
        let mut next = Matrix::zeros(m, m);
        let mut any = false;
        for i in 0..m {
            for k in 0..m {
                let v = power[(i, k)];
                if v != 0.0 {
                    for j in 0..m {
                        next[(i, j)] += v * b[(k, j)];
                    }
                }
            }
        }
        for i in 0..m {
            for j in 0..m {
                if next[(i, j)] != 0.0 {
                    any = true;
                }
                total[(i, j)] += next[(i, j)];
            }
        }
        if !any {
            break;
        }
        power = next;
    }
    total
}

/// Gold's benchmark-level diagnostics (seed 003, section 2.3).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Diagnostics {
    /// Dimensional diversity `min(1, 1 / (2 · max HTMT))`; `None` with fewer than two constructs.
    pub d_div: Option<f64>,
    /// Task contribution: mean |outer loading| over the task indicators.
    pub tc: f64,
    /// Indicator validity: geometric mean of the item VIFs, to the power −1.
    pub d_valid: f64,
    /// Mean of the available figures among D_div, TC and D_valid (Table 3's "Avg").
    pub mean: f64,
    /// The largest HTMT among the task constructs.
    pub max_htmt: Option<f64>,
}

/// Gold's diagnostics from the HTMT values between the task constructs, the task
/// indicators' loadings and their item VIFs.
///
/// # Examples
/// ```
/// use coglab_core::sem::quality::diagnostics;
/// // Seed 003, Table 8 (MMEBench): the largest HTMT is 0.910 (C_G vs F_G), so
/// // D_div = 1 / 1.82 = 0.549, the figure printed in Table 3.
/// let d = diagnostics(&[0.910, 0.357, 0.725], &[0.9, 0.8], &[2.0, 2.0]);
/// assert!((d.d_div.unwrap() - 0.549).abs() < 5e-4);
/// assert!((d.tc - 0.85).abs() < 1e-12 && (d.d_valid - 0.5).abs() < 1e-12);
/// ```
pub fn diagnostics(htmts: &[f64], loadings: &[f64], vifs: &[f64]) -> Diagnostics {
    let max_htmt = htmts.iter().copied().max_by(f64::total_cmp);
    let d_div = max_htmt.map(|h| {
        if h > 0.0 {
            (1.0 / (2.0 * h)).min(1.0)
        } else {
            1.0
        }
    });
    let tc = if loadings.is_empty() {
        0.0
    } else {
        loadings.iter().map(|l| l.abs()).sum::<f64>() / loadings.len() as f64
    };
    let d_valid = if vifs.is_empty() {
        1.0
    } else {
        (-vifs.iter().map(|v| v.ln()).sum::<f64>() / vifs.len() as f64).exp()
    };
    let parts: Vec<f64> = [d_div, Some(tc), Some(d_valid)]
        .into_iter()
        .flatten()
        .collect();
    Diagnostics {
        d_div,
        tc,
        d_valid,
        mean: parts.iter().sum::<f64>() / parts.len() as f64,
        max_htmt,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_abs_diff_eq;

    #[test]
    fn reliability_by_hand() {
        // Two indicators with r = 0.5: α = 2 (1 - 2/3) = 2/3. Equal weights w = 1/sqrt(3)
        // (wᵀRw = (1 + 1 + 2·0.5)/3 = 1); loadings (1 + 0.5)/sqrt 3 = 0.866025 each.
        // ρ_C = (1.732051)² / (3 + 2·0.25) = 3 / 3.5 = 0.857143; AVE = 0.75.
        // ρ_A = (wᵀw)² · wᵀ(R−I)w / ((wᵀw)² − Σw⁴) = (2/3)² · (1/3) / (4/9 − 2/9) = 2/3.
        let r = Matrix::from_rows(&[vec![1.0, 0.5], vec![0.5, 1.0]]).unwrap();
        let w = 1.0 / 3f64.sqrt();
        let l = 1.5 / 3f64.sqrt();
        let rel = reliability(&r, &[0, 1], &[w, w], &[l, l], Mode::A);
        assert_abs_diff_eq!(rel.alpha, 2.0 / 3.0, epsilon = 1e-15);
        assert_abs_diff_eq!(rel.rho_c, 3.0 / 3.5, epsilon = 1e-15);
        assert_abs_diff_eq!(rel.ave, 0.75, epsilon = 1e-15);
        assert_abs_diff_eq!(rel.rho_a, 2.0 / 3.0, epsilon = 1e-15);
        // VIF of two indicators with r = 0.5: 1 / (1 - 0.25) = 4/3.
        let v = item_vifs(&r, &[0, 1]).unwrap();
        assert_abs_diff_eq!(v[0], 4.0 / 3.0, epsilon = 1e-15);
    }

    #[test]
    fn htmt_by_hand() {
        // Blocks {0,1} and {2}: within r01 = 0.6, between |r02| = 0.3, |r12| = 0.5 (sign dropped).
        // HTMT = mean(0.3, 0.5) / sqrt(0.6 · 1) = 0.4 / 0.774597 = 0.516398.
        let r = Matrix::from_rows(&[
            vec![1.0, 0.6, -0.3],
            vec![0.6, 1.0, 0.5],
            vec![-0.3, 0.5, 1.0],
        ])
        .unwrap();
        assert_abs_diff_eq!(
            htmt(&r, &[0, 1], &[2], HtmtVariant::Standard).unwrap(),
            0.4 / 0.6f64.sqrt(),
            epsilon = 1e-15
        );
        // Eq. 1 (signed, block i's within mean only) on the same matrix:
        // i = {0,1}: mean(-0.3, 0.5) / 0.6 = 0.1 / 0.6 = 0.166667;
        // i = {2} (single indicator, within mean 1): 0.1 / 1 = 0.1 — not symmetric.
        assert_abs_diff_eq!(
            htmt(&r, &[0, 1], &[2], HtmtVariant::Eq1).unwrap(),
            0.1 / 0.6,
            epsilon = 1e-15
        );
        assert_abs_diff_eq!(
            htmt(&r, &[2], &[0, 1], HtmtVariant::Eq1).unwrap(),
            0.1,
            epsilon = 1e-15
        );
    }

    #[test]
    fn htmt_two_by_two_blocks_both_variants() {
        // Blocks {0,1}, {2,3}; within r01 = 0.8, r23 = 0.5; between r02 = 0.4, r03 = -0.2,
        // r12 = 0.6, r13 = 0.2.
        // Standard: mean|between| = (0.4+0.2+0.6+0.2)/4 = 0.35; sqrt(0.8·0.5) = 0.632456;
        //           HTMT = 0.35 / 0.632456 = 0.553399.
        // Eq. 1:    mean between = (0.4−0.2+0.6+0.2)/4 = 0.25; over block i's 0.8 -> 0.3125;
        //           with i = {2,3}: 0.25 / 0.5 = 0.5.
        let r = Matrix::from_rows(&[
            vec![1.0, 0.8, 0.4, -0.2],
            vec![0.8, 1.0, 0.6, 0.2],
            vec![0.4, 0.6, 1.0, 0.5],
            vec![-0.2, 0.2, 0.5, 1.0],
        ])
        .unwrap();
        let (a, b) = (&[0, 1][..], &[2, 3][..]);
        assert_abs_diff_eq!(
            htmt(&r, a, b, HtmtVariant::Standard).unwrap(),
            0.553_398_590_5,
            epsilon = 1e-9
        );
        assert_abs_diff_eq!(
            htmt(&r, b, a, HtmtVariant::Standard).unwrap(),
            0.553_398_590_5,
            epsilon = 1e-9
        );
        assert_abs_diff_eq!(
            htmt(&r, a, b, HtmtVariant::Eq1).unwrap(),
            0.3125,
            epsilon = 1e-15
        );
        assert_abs_diff_eq!(
            htmt(&r, b, a, HtmtVariant::Eq1).unwrap(),
            0.5,
            epsilon = 1e-15
        );
    }

    #[test]
    fn total_effects_chain() {
        // A -> B (0.5), B -> C (0.4), A -> C (0.1): total A -> C = 0.1 + 0.5·0.4 = 0.3.
        let mut b = Matrix::zeros(3, 3);
        b[(0, 1)] = 0.5;
        b[(1, 2)] = 0.4;
        b[(0, 2)] = 0.1;
        let t = total_effects(&b);
        assert_abs_diff_eq!(t[(0, 2)], 0.3, epsilon = 1e-15);
        assert_abs_diff_eq!(t[(0, 1)], 0.5, epsilon = 1e-15);
    }

    #[test]
    fn gold_table3_averages() {
        // Seed 003 Table 3 "Avg" is the mean of D_div, TC, D_valid: Gold (0.579, 0.833, 0.557)
        // -> 0.656; SEEDBenchV2 (0.605, 0.871, 0.081) -> 0.519.
        // Gold's text gives the largest HTMT as 0.86 (Memory-Perception): 1 / 1.72 = 0.581,
        // consistent with D_div = 0.579 up to the rounding of 0.86 (0.8636 gives 0.579).
        let d = diagnostics(&[0.86], &[0.833], &[1.0 / 0.557]);
        assert_abs_diff_eq!(d.d_div.unwrap(), 0.579, epsilon = 0.003);
        assert_abs_diff_eq!((0.579 + d.tc + d.d_valid) / 3.0, 0.656, epsilon = 5e-4);
        let seed = (0.605 + 0.871 + 0.081) / 3.0;
        assert_abs_diff_eq!(seed, 0.519, epsilon = 5e-4);
        // D_div is capped at 1 for weakly related constructs.
        assert_eq!(diagnostics(&[0.2], &[], &[]).d_div, Some(1.0));
    }
}
