//! Normality test: Cramér-von Mises with estimated mean and SD (Stephens' modification), as
//! R's `nortest::cvm.test`.
//!
//! `W = 1/(12n) + Σ (p_(i) − (2i − 1)/(2n))²` with `p_(i) = Φ((x_(i) − x̄)/s)` (sample SD `s`),
//! `W* = (1 + 0.5/n)·W`, and the p-value from Stephens' piecewise approximation (see
//! [`cvm_p_value`]). `scipy.stats.cramervonmises(x, "norm")` assumes a *known* mean and SD,
//! which is the wrong null when they are estimated from the same data.

use super::describe::{mean, std_dev};
use super::dist::normal_cdf;
use super::StatsError;

/// Result of the Cramér-von Mises normality test.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CramerVonMises {
    /// The statistic W.
    pub w: f64,
    /// Stephens' modified statistic W* = (1 + 0.5/n)·W.
    pub w_star: f64,
    /// p-value from W* ([`cvm_p_value`]).
    pub p: f64,
    /// Number of values.
    pub n: usize,
}

/// Smallest p-value the approximation reports (`nortest` prints "p-value is smaller than
/// 7.37e-10" for W* ≥ 1.1).
pub const CVM_P_FLOOR: f64 = 7.37e-10;

/// Cramér-von Mises test of normality with the mean and SD estimated from `xs`.
///
/// # Errors
/// [`StatsError::TooFewValues`] for fewer than 8 values (as `nortest`),
/// [`StatsError::NonFinite`] on NaN/inf, [`StatsError::ZeroVariance`] for constant input.
///
/// # Examples
/// ```
/// use coglab_core::stats::normality::cramer_von_mises;
/// let t = cramer_von_mises(&[2.0, 3.0, 5.0, 5.5, 6.0, 7.0, 9.0, 14.0]).unwrap();
/// assert!((t.w - 0.049875055967).abs() < 1e-9);
/// assert!((t.p - 0.468127712294).abs() < 1e-9);
/// ```
pub fn cramer_von_mises(xs: &[f64]) -> Result<CramerVonMises, StatsError> {
    if xs.len() < 8 {
        return Err(StatsError::TooFewValues {
            needed: 8,
            found: xs.len(),
        });
    }
    // W is scale-free: computed on the values scaled by a power of two (exact), so ±1e308
    // or 1e-310 data give the same W as ±1 data rather than a statistic of inf/NaN.
    let (ys, _) = super::describe::scaled(xs);
    let xs = &ys[..];
    let m = mean(xs)?;
    let s = std_dev(xs, 1)?;
    if s == 0.0 {
        return Err(StatsError::ZeroVariance);
    }
    let mut sorted = xs.to_vec();
    sorted.sort_by(f64::total_cmp);
    let n = sorted.len() as f64;
    let mut w = 1.0 / (12.0 * n);
    for (i, x) in sorted.iter().enumerate() {
        let p = normal_cdf((x - m) / s);
        let d = p - (2.0 * (i as f64 + 1.0) - 1.0) / (2.0 * n);
        w += d * d;
    }
    let w_star = (1.0 + 0.5 / n) * w;
    Ok(CramerVonMises {
        w,
        w_star,
        p: cvm_p_value(w_star),
        n: sorted.len(),
    })
}

/// Stephens' piecewise p-value for the modified statistic W* (coefficients of
/// `nortest::cvm.test`):
///
/// | W*              | p                                                 |
/// |-----------------|---------------------------------------------------|
/// | < 0.0275        | 1 − exp(−13.953 + 775.5 W* − 12542.61 W*²)        |
/// | [0.0275, 0.051) | 1 − exp(−5.903 + 179.546 W* − 1515.29 W*²)        |
/// | [0.051, 0.092)  | exp(0.886 − 31.62 W* + 10.897 W*²)                |
/// | [0.092, 1.1)    | exp(1.111 − 34.242 W* + 12.832 W*²)               |
/// | ≥ 1.1           | 7.37e-10 ([`CVM_P_FLOOR`])                        |
///
/// The result is clamped to [0, 1] (the first branch goes slightly negative near W* = 0).
///
/// # Examples
/// ```
/// use coglab_core::stats::normality::cvm_p_value;
/// // exp(1.111 - 34.242 * 0.2 + 12.832 * 0.04) = exp(1.111 - 6.8484 + 0.51328) = exp(-5.22412)
/// assert!((cvm_p_value(0.2) - (-5.22412f64).exp()).abs() < 1e-15);
/// ```
pub fn cvm_p_value(w_star: f64) -> f64 {
    let w = w_star;
    let p = if w < 0.0275 {
        1.0 - (-13.953 + 775.5 * w - 12542.61 * w * w).exp()
    } else if w < 0.051 {
        1.0 - (-5.903 + 179.546 * w - 1515.29 * w * w).exp()
    } else if w < 0.092 {
        (0.886 - 31.62 * w + 10.897 * w * w).exp()
    } else if w < 1.1 {
        (1.111 - 34.242 * w + 12.832 * w * w).exp()
    } else {
        CVM_P_FLOOR
    };
    p.clamp(0.0, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_abs_diff_eq;

    #[test]
    fn small_sample_by_hand() {
        // x = 2, 3, 5, 5.5, 6, 7, 9, 14: n = 8, mean 51.5/8 = 6.4375,
        // s = sqrt(Σ(x - 6.4375)² / 7) = sqrt(98.71875 / 7) = 3.7553533...
        // p_(i) = Φ((x_(i) - 6.4375)/s) = 0.118673, 0.180001, 0.350939, 0.401431,
        //         0.453628, 0.559533, 0.752494, 0.977984
        // targets (2i-1)/16 = 0.0625, 0.1875, ..., 0.9375;
        // squared gaps: 0.003211, 0.000056, 0.006133, 0.000542, 0.010134, 0.004268,
        //               0.000098, 0.001637 -> Σ = 0.0387084
        // W = 1/96 + 0.0387084 = 0.0498751; W* = (1 + 1/16) W = 0.0529922
        // p (branch [0.051, 0.092)) = exp(0.886 - 31.62 W* + 10.897 W*²) = exp(-0.759010) = 0.468128
        let t = cramer_von_mises(&[14.0, 2.0, 3.0, 5.0, 5.5, 6.0, 7.0, 9.0]).unwrap();
        assert_abs_diff_eq!(t.w, 0.049_875_055_967_239_394, epsilon = 1e-10);
        assert_abs_diff_eq!(
            t.w_star,
            0.049_875_055_967_239_394 * 17.0 / 16.0,
            epsilon = 1e-10
        );
        assert_abs_diff_eq!(t.p, (-0.759_010_f64).exp(), epsilon = 1e-5);
        assert_abs_diff_eq!(t.p, 0.468_127_712_293_842_26, epsilon = 1e-10);
        assert_eq!(t.n, 8);
    }

    #[test]
    fn branch_boundaries() {
        // Values on each side of a boundary, from the two formulas meeting there:
        // 0.0275: 1 - exp(-13.953 + 21.32625 - 9.48535) = 1 - exp(-2.11210) = 0.879016 (left)
        //         1 - exp(-5.903 + 4.937515 - 1.145938) = 1 - exp(-2.111423) = 0.878934 (right)
        assert_abs_diff_eq!(cvm_p_value(0.0275 - 1e-12), 0.879_016, epsilon = 1e-6);
        assert_abs_diff_eq!(cvm_p_value(0.0275), 0.878_934, epsilon = 1e-6);
        // 0.051: 1 - exp(-5.903 + 9.156846 - 3.941269) = 1 - exp(-0.687423) = 0.497130
        //        exp(0.886 - 1.61262 + 0.028343) = exp(-0.698277) = 0.497442
        assert_abs_diff_eq!(cvm_p_value(0.051 - 1e-12), 0.497_130, epsilon = 1e-6);
        assert_abs_diff_eq!(cvm_p_value(0.051), 0.497_442, epsilon = 1e-6);
        // 0.092: exp(0.886 - 2.90904 + 0.092232) = exp(-1.930808) = 0.145031
        //        exp(1.111 - 3.150264 + 0.108610) = exp(-1.930654) = 0.145053
        assert_abs_diff_eq!(cvm_p_value(0.092 - 1e-12), 0.145_031, epsilon = 1e-6);
        assert_abs_diff_eq!(cvm_p_value(0.092), 0.145_053, epsilon = 1e-6);
        // 1.1: exp(1.111 - 37.6662 + 15.52672) = exp(-21.02848) = 7.3697e-10, then the floor.
        assert_abs_diff_eq!(cvm_p_value(1.1 - 1e-12), 7.3697e-10, epsilon = 1e-13);
        assert_eq!(cvm_p_value(1.1), CVM_P_FLOOR);
        // W* = 0: 1 - exp(-13.953) = 0.99999913
        assert_abs_diff_eq!(cvm_p_value(0.0), 1.0 - (-13.953f64).exp(), epsilon = 1e-15);
    }

    #[test]
    fn gold_table4_statistic_to_p() {
        // Seed 003 Table 4/5 print the C-vM statistic and p to 3 decimals; the p follows from
        // the printed statistic through Stephens' formula (n = 190/191, so W* ≈ W):
        // 0.192 -> 0.007, 0.059 -> 0.388 (0.390 from the rounded statistic), 0.270 -> 0.001,
        // 0.193 -> 0.006, 0.145 -> 0.027, 1.647 -> 0.000.
        for (stat, p, tol) in [
            (0.192, 0.007, 0.0006),
            (0.059, 0.388, 0.01),
            (0.270, 0.001, 0.0006),
            (0.193, 0.006, 0.0008),
            (0.145, 0.027, 0.001),
            (1.647, 0.000, 0.0005),
        ] {
            assert_abs_diff_eq!(cvm_p_value(stat), p, epsilon = tol);
        }
    }

    #[test]
    fn too_few_or_constant() {
        assert_eq!(
            cramer_von_mises(&[1.0; 7]),
            Err(StatsError::TooFewValues {
                needed: 8,
                found: 7
            })
        );
        assert_eq!(cramer_von_mises(&[1.0; 8]), Err(StatsError::ZeroVariance));
    }
}
