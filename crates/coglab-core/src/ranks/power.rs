//! Minimum detectable difference (MDD): the smallest true difference between two models that a
//! paired test on this board finds with the given power at level α (two-sided).
//!
//! - Paired proportions (McNemar): Connor's (1987) sample-size formula
//!   `n = [z_(1-α/2) √ψ + z_power √(ψ - δ²)]² / δ²`, with ψ the share of discordant items,
//!   solved for δ by bisection.
//! - Paired scores (Wilcoxon boards): the normal approximation of the paired t test,
//!   `δ = (z_(1-α/2) + z_power) · sd_d / √n`, with `sd_d` the SD of the item differences. (The
//!   signed-rank test's efficiency relative to t is about 0.955 for normal data; the figure is a
//!   guide, not a promise.)

use serde::{Deserialize, Serialize};

use crate::stats::dist::normal_quantile;

/// The minimum detectable difference of a board.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Mdd {
    /// The difference, as a fraction of the score scale (0.031 = 3.1 points).
    pub difference: f64,
    /// Significance level (two-sided).
    pub alpha: f64,
    /// Power.
    pub power: f64,
    /// Items per comparison used (the median over pairs).
    pub n: usize,
    /// The discordant share ψ (McNemar) or the SD of item differences (scores) used: the median
    /// over the board's pairs.
    pub spread: f64,
    /// `mcnemar` (Connor's formula) or `paired_normal`.
    pub method: String,
    /// The sentence for the board header.
    pub text: String,
}

/// The MDD of a McNemar comparison of `n` items with discordant share `psi`, or `None` when no
/// difference up to ψ can be detected (too few items) or the inputs are degenerate.
///
/// # Examples
/// ```
/// use coglab_core::ranks::power::mcnemar_mdd;
/// // n = 1000, ψ = 0.2, α = 0.05, power 0.8 (Connor's formula solved in Python
/// // with scipy brentq gives 0.03957370661545267).
/// let d = mcnemar_mdd(1000, 0.2, 0.05, 0.8).unwrap();
/// assert!((d - 0.03957370661545267).abs() < 1e-12);
/// ```
pub fn mcnemar_mdd(n: usize, psi: f64, alpha: f64, power: f64) -> Option<f64> {
    if n == 0 || !(psi > 0.0 && psi <= 1.0) {
        return None;
    }
    let za = normal_quantile(1.0 - alpha / 2.0).ok()?;
    let zb = normal_quantile(power).ok()?;
    let root_n = (n as f64).sqrt();
    // f(δ) = za √ψ + zb √(ψ - δ²) - δ √n, decreasing on (0, √ψ].
    let f = |d: f64| za * psi.sqrt() + zb * (psi - d * d).max(0.0).sqrt() - d * root_n;
    let (mut lo, mut hi) = (0.0, psi.sqrt().min(psi));
    if f(hi) > 0.0 {
        return None;
    }
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some(0.5 * (lo + hi))
}

/// The MDD of a paired comparison of `n` items whose differences have SD `sd`:
/// `(z_(1-α/2) + z_power) · sd / √n`, or `None` for `n == 0`.
///
/// # Examples
/// ```
/// use coglab_core::ranks::power::paired_mdd;
/// // (1.959964 + 0.841621) · 0.5 / 10 = 0.1400793
/// assert!((paired_mdd(100, 0.5, 0.05, 0.8).unwrap() - 0.1400793).abs() < 1e-6);
/// ```
pub fn paired_mdd(n: usize, sd: f64, alpha: f64, power: f64) -> Option<f64> {
    if n == 0 || !sd.is_finite() {
        return None;
    }
    let za = normal_quantile(1.0 - alpha / 2.0).ok()?;
    let zb = normal_quantile(power).ok()?;
    Some((za + zb) * sd / (n as f64).sqrt())
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;

    /// At the solution Connor's formula gives back n: plug δ in.
    #[test]
    fn mcnemar_mdd_solves_connor() {
        for (n, psi) in [(2710usize, 0.3), (100, 0.25), (700, 0.1)] {
            let d = mcnemar_mdd(n, psi, 0.05, 0.8).unwrap();
            let (za, zb) = (1.959963984540054, 0.8416212335729143);
            let n_back = (za * psi.sqrt() + zb * (psi - d * d).sqrt()).powi(2) / (d * d);
            assert_relative_eq!(n_back, n as f64, max_relative = 1e-9);
        }
        // Too few items: 3 items cannot detect anything up to ψ.
        assert!(mcnemar_mdd(3, 0.3, 0.05, 0.8).is_none());
        assert!(mcnemar_mdd(100, 0.0, 0.05, 0.8).is_none());
    }
}
