//! Agreement between two raters scoring the same items: mean absolute difference, exact-match
//! and within-tolerance shares, Cohen's kappa (unweighted and quadratic-weighted) and a seeded
//! paired sign-flip permutation test.
//!
//! Pearson's r is not repeated here: use [`super::correlation::pearson`].
//!
//! Shares are fractions in [0, 1] (multiply by 100 for a percentage).

use super::rng::Rng;
use super::{check_finite, StatsError};

/// Checks two paired samples: same length, at least one pair, all finite.
fn check_pairs(a: &[f64], b: &[f64]) -> Result<(), StatsError> {
    if a.len() != b.len() {
        return Err(StatsError::LengthMismatch {
            left: a.len(),
            right: b.len(),
        });
    }
    if a.is_empty() {
        return Err(StatsError::TooFewValues {
            needed: 1,
            found: 0,
        });
    }
    check_finite(a)?;
    check_finite(b)
}

/// Mean absolute difference `Σ|a_i − b_i| / n`.
///
/// # Errors
/// [`StatsError::LengthMismatch`], [`StatsError::TooFewValues`] on empty input,
/// [`StatsError::NonFinite`].
///
/// # Examples
/// ```
/// use coglab_core::stats::agreement::mean_abs_diff;
/// // |3-3| + |2-4| + |0-1| = 3, over 3 pairs.
/// assert_eq!(mean_abs_diff(&[3.0, 2.0, 0.0], &[3.0, 4.0, 1.0]).unwrap(), 1.0);
/// ```
pub fn mean_abs_diff(a: &[f64], b: &[f64]) -> Result<f64, StatsError> {
    check_pairs(a, b)?;
    let total: f64 = a.iter().zip(b).map(|(x, y)| (x - y).abs()).sum();
    Ok(total / a.len() as f64)
}

/// Share of pairs whose values are equal (exact match), in [0, 1].
///
/// # Errors
/// As [`mean_abs_diff`].
///
/// # Examples
/// ```
/// use coglab_core::stats::agreement::exact_match;
/// assert_eq!(exact_match(&[3.0, 2.0, 0.0, 4.0], &[3.0, 4.0, 0.0, 3.0]).unwrap(), 0.5);
/// ```
pub fn exact_match(a: &[f64], b: &[f64]) -> Result<f64, StatsError> {
    within(a, b, 0.0)
}

/// Share of pairs with `|a_i − b_i| ≤ tolerance` (e.g. `1.0` for "within one point"), in [0, 1].
/// A relative slack of 1e-9 absorbs rounding in decimal inputs.
///
/// # Errors
/// As [`mean_abs_diff`], plus [`StatsError::BadParameter`] for a negative or non-finite tolerance.
///
/// # Examples
/// ```
/// use coglab_core::stats::agreement::within;
/// // Differences 0, 2, 1, 1: three of four are within one point.
/// assert_eq!(within(&[3.0, 2.0, 0.0, 4.0], &[3.0, 4.0, 1.0, 3.0], 1.0).unwrap(), 0.75);
/// ```
pub fn within(a: &[f64], b: &[f64], tolerance: f64) -> Result<f64, StatsError> {
    if !(tolerance >= 0.0 && tolerance.is_finite()) {
        return Err(StatsError::BadParameter {
            name: "tolerance",
            value: tolerance,
            expected: "a finite number >= 0",
        });
    }
    check_pairs(a, b)?;
    let hits = a
        .iter()
        .zip(b)
        .filter(|(x, y)| {
            let slack = 1e-9 * x.abs().max(y.abs()).max(1.0);
            (*x - *y).abs() <= tolerance + slack
        })
        .count();
    Ok(hits as f64 / a.len() as f64)
}

/// How disagreements are weighted in Cohen's kappa.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[non_exhaustive]
pub enum KappaWeights {
    /// Every disagreement weighs 1 (Cohen 1960).
    Unweighted,
    /// A disagreement between label positions i and j weighs (i − j)² (Cohen 1968); for
    /// ordinal scores such as the 0-4 holistic score this penalises far-off ratings more.
    Quadratic,
}

/// Cohen's kappa over the labels seen in either sample (sorted), as
/// `sklearn.metrics.cohen_kappa_score(a, b, weights=None|"quadratic")` with its default
/// `labels=None`. Note that quadratic weights then use label *positions*: if some score never
/// occurs, pass the full scale to [`cohen_kappa_with_labels`] instead.
///
/// # Errors
/// [`StatsError::LengthMismatch`], [`StatsError::TooFewValues`] on empty input,
/// [`StatsError::ZeroVariance`] when chance disagreement is zero (both raters gave one and the
/// same label to every item), where kappa is undefined.
///
/// # Examples
/// ```
/// use coglab_core::stats::agreement::{cohen_kappa, KappaWeights};
/// // Perfect agreement on two labels.
/// assert_eq!(cohen_kappa(&[1, 2, 1], &[1, 2, 1], KappaWeights::Unweighted).unwrap(), 1.0);
/// ```
pub fn cohen_kappa(a: &[i64], b: &[i64], weights: KappaWeights) -> Result<f64, StatsError> {
    let mut labels: Vec<i64> = a.iter().chain(b).copied().collect();
    labels.sort();
    labels.dedup();
    cohen_kappa_with_labels(a, b, &labels, weights)
}

/// Cohen's kappa over an explicit, ordered label list (as scikit-learn's `labels=` argument),
/// e.g. `&[0, 1, 2, 3, 4]` for the holistic score, so quadratic weights are score distances
/// even when a score never occurs.
///
/// κ = 1 − Σ w_ij·O_ij / Σ w_ij·E_ij, with O the observed confusion counts and
/// E_ij = row_i·col_j / n the counts expected by chance.
///
/// # Errors
/// As [`cohen_kappa`], plus [`StatsError::BadParameter`] when a rating is not in `labels`
/// (its value is reported).
///
/// # Examples
/// ```
/// use coglab_core::stats::agreement::{cohen_kappa_with_labels, KappaWeights};
/// let k = cohen_kappa_with_labels(&[0, 1, 1, 0], &[0, 1, 0, 0], &[0, 1], KappaWeights::Unweighted)
///     .unwrap();
/// // p_o = 3/4; marginals (2,2) and (3,1): p_e = (2·3 + 2·1)/16 = 1/2; κ = (3/4 − 1/2)/(1/2) = 1/2.
/// assert!((k - 0.5).abs() < 1e-12);
/// ```
pub fn cohen_kappa_with_labels(
    a: &[i64],
    b: &[i64],
    labels: &[i64],
    weights: KappaWeights,
) -> Result<f64, StatsError> {
    if a.len() != b.len() {
        return Err(StatsError::LengthMismatch {
            left: a.len(),
            right: b.len(),
        });
    }
    if a.is_empty() {
        return Err(StatsError::TooFewValues {
            needed: 1,
            found: 0,
        });
    }
    let k = labels.len();
    let index = |v: i64| -> Result<usize, StatsError> {
        labels
            .iter()
            .position(|&l| l == v)
            .ok_or(StatsError::BadParameter {
                name: "rating",
                value: v as f64,
                expected: "one of the given labels",
            })
    };
    let mut observed = vec![0.0f64; k * k];
    let mut rows = vec![0.0f64; k];
    let mut cols = vec![0.0f64; k];
    for (&x, &y) in a.iter().zip(b) {
        let (i, j) = (index(x)?, index(y)?);
        observed[i * k + j] += 1.0;
        rows[i] += 1.0;
        cols[j] += 1.0;
    }
    let n = a.len() as f64;
    let (mut num, mut den) = (0.0, 0.0);
    for i in 0..k {
        for j in 0..k {
            let w = match weights {
                KappaWeights::Unweighted => f64::from(u8::from(i != j)),
                KappaWeights::Quadratic => {
                    let d = i as f64 - j as f64;
                    d * d
                }
            };
            num += w * observed[i * k + j];
            den += w * rows[i] * cols[j] / n;
        }
    }
    if den == 0.0 {
        return Err(StatsError::ZeroVariance);
    }
    Ok(1.0 - num / den)
}

/// Result of a paired sign-flip permutation test.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PermutationTest {
    /// Number of pairs.
    pub n: usize,
    /// Mean of the differences `a_i − b_i`.
    pub mean_diff: f64,
    /// Two-sided p-value for H0: the differences are symmetric around zero.
    pub p: f64,
    /// Number of sign patterns evaluated (2^n when exact).
    pub resamples: usize,
    /// Whether every one of the 2^n sign patterns was enumerated (then `p` is exact and the
    /// seed plays no part).
    pub exact: bool,
}

/// Paired permutation (sign-flip) test of `a_i − b_i`: under H0 each difference is as likely
/// to have either sign, so the statistic |Σ d_i| is compared with its value under random sign
/// flips.
///
/// When 2^n ≤ `resamples` every sign pattern is enumerated and
/// p = #{patterns with |Σ s_i d_i| ≥ |Σ d_i|} / 2^n exactly. Otherwise `resamples` random
/// patterns are drawn from [`Rng::new`]`(seed)` and p = (1 + hits) / (1 + resamples)
/// (Phipson & Smyth 2010, never 0), so the same seed always gives the same p.
///
/// # Errors
/// [`StatsError::LengthMismatch`], [`StatsError::TooFewValues`] on empty input,
/// [`StatsError::NonFinite`], [`StatsError::Limit`] for `resamples` 0 or above
/// [`crate::limits::MAX_RESAMPLES`].
///
/// # Examples
/// ```
/// use coglab_core::stats::agreement::paired_permutation_test;
/// // Differences 1, 2, −1, 3: 6 of the 16 sign patterns reach |sum| ≥ 5.
/// let t = paired_permutation_test(&[2.0, 4.0, 0.0, 3.0], &[1.0, 2.0, 1.0, 0.0], 10_000, 7).unwrap();
/// assert!(t.exact);
/// assert_eq!(t.p, 6.0 / 16.0);
/// ```
pub fn paired_permutation_test(
    a: &[f64],
    b: &[f64],
    resamples: usize,
    seed: u64,
) -> Result<PermutationTest, StatsError> {
    check_pairs(a, b)?;
    crate::limits::check(
        "resamples",
        resamples as u64,
        1,
        crate::limits::MAX_RESAMPLES,
    )?;
    let d: Vec<f64> = a.iter().zip(b).map(|(x, y)| x - y).collect();
    let n = d.len();
    // Exact tests of a few pairs enumerate 2^n sign patterns (at most `resamples`); random
    // ones draw n signs per resample.
    if !(n < 63 && (1u64 << n) <= resamples as u64) {
        crate::limits::check_draws("resamples", resamples, n, "items")?;
    }
    let observed = d.iter().sum::<f64>().abs();
    let scale: f64 = d.iter().map(|x| x.abs()).sum::<f64>().max(1.0);
    let threshold = observed - 1e-9 * scale;
    let mean_diff = d.iter().sum::<f64>() / n as f64;

    let exact = n < 63 && (1u64 << n) <= resamples as u64;
    if exact {
        let patterns = 1u64 << n;
        let mut hits = 0u64;
        for mask in 0..patterns {
            let sum: f64 = d
                .iter()
                .enumerate()
                .map(|(i, x)| if mask >> i & 1 == 1 { -x } else { *x })
                .sum();
            if sum.abs() >= threshold {
                hits += 1;
            }
        }
        return Ok(PermutationTest {
            n,
            mean_diff,
            p: hits as f64 / patterns as f64,
            resamples: patterns as usize,
            exact: true,
        });
    }
    let mut rng = Rng::new(seed);
    let mut hits = 0usize;
    for _ in 0..resamples {
        let mut sum = 0.0;
        let mut bits = 0u64;
        for (i, x) in d.iter().enumerate() {
            if i % 64 == 0 {
                bits = rng.next_u64();
            }
            sum += if bits >> (i % 64) & 1 == 1 { -x } else { *x };
        }
        if sum.abs() >= threshold {
            hits += 1;
        }
    }
    Ok(PermutationTest {
        n,
        mean_diff,
        p: (1 + hits) as f64 / (1 + resamples) as f64,
        resamples,
        exact: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;

    // Two raters, ten items, holistic scores 0-4 (hand-made).
    const A: [i64; 10] = [0, 1, 2, 2, 3, 3, 4, 4, 2, 1];
    const B: [i64; 10] = [0, 2, 2, 3, 3, 4, 4, 3, 2, 0];

    fn f(xs: &[i64]) -> Vec<f64> {
        xs.iter().map(|&x| x as f64).collect()
    }

    #[test]
    fn mad_exact_within_by_hand() {
        // Differences |a−b|: 0,1,0,1,0,1,0,1,0,1 → sum 5, MAD = 5/10 = 0.5;
        // 5 zeros → exact 0.5; all ≤ 1 → within-1 = 1.0.
        let (a, b) = (f(&A), f(&B));
        assert_relative_eq!(mean_abs_diff(&a, &b).unwrap(), 0.5);
        assert_relative_eq!(exact_match(&a, &b).unwrap(), 0.5);
        assert_relative_eq!(within(&a, &b, 1.0).unwrap(), 1.0);
        assert_relative_eq!(within(&[0.1, 0.3], &[0.3, 0.5], 0.2).unwrap(), 1.0);
    }

    #[test]
    fn kappa_matches_sklearn() {
        // Reference: scikit-learn 1.9.1,
        //   from sklearn.metrics import cohen_kappa_score
        //   A = [0,1,2,2,3,3,4,4,2,1]; B = [0,2,2,3,3,4,4,3,2,0]
        //   cohen_kappa_score(A, B)                       -> 0.3670886075949368
        //   cohen_kappa_score(A, B, weights="quadratic")  -> 0.8520710059171598
        // By hand (unweighted): p_o = 5/10; row marginals (labels 0..4) 1,2,3,2,2,
        // column marginals 2,0,3,3,2; p_e = (2+0+9+6+4)/100 = 0.21;
        // κ = (0.5 − 0.21)/(1 − 0.21) = 0.29/0.79 = 0.367088607...
        // Quadratic: the five disagreements are all one step apart, Σ w·O = 5;
        // Σ (i−j)²·r_i·c_j / n = 338/10 = 33.8; κ_w = 1 − 5/33.8 = 0.852071006...
        let k = cohen_kappa(&A, &B, KappaWeights::Unweighted).unwrap();
        assert_relative_eq!(k, 0.29 / 0.79, max_relative = 1e-12);
        assert_relative_eq!(k, 0.367_088_607_594_936_8, max_relative = 1e-12);
        let q = cohen_kappa(&A, &B, KappaWeights::Quadratic).unwrap();
        assert_relative_eq!(q, 1.0 - 5.0 / 33.8, max_relative = 1e-12);
        assert_relative_eq!(q, 0.852_071_005_917_159_8, max_relative = 1e-12);
        // All labels 0..4 occur, so the explicit scale gives the same numbers.
        let q2 =
            cohen_kappa_with_labels(&A, &B, &[0, 1, 2, 3, 4], KappaWeights::Quadratic).unwrap();
        assert_relative_eq!(q2, q, max_relative = 1e-12);
    }

    #[test]
    fn quadratic_kappa_with_missing_label_matches_sklearn_labels_argument() {
        // Scores 2 never occur. sklearn 1.9.1:
        //   cohen_kappa_score([0,1,3,4,4,1], [1,1,3,3,4,0], weights="quadratic")
        //     -> 0.7692307692307692   (positions 0..3 over labels [0,1,3,4])
        //   cohen_kappa_score([0,1,3,4,4,1], [1,1,3,3,4,0], weights="quadratic",
        //                     labels=[0,1,2,3,4]) -> 0.8888888888888888
        let a = [0, 1, 3, 4, 4, 1];
        let b = [1, 1, 3, 3, 4, 0];
        let by_position = cohen_kappa(&a, &b, KappaWeights::Quadratic).unwrap();
        assert_relative_eq!(by_position, 0.769_230_769_230_769_2, max_relative = 1e-12);
        let by_score =
            cohen_kappa_with_labels(&a, &b, &[0, 1, 2, 3, 4], KappaWeights::Quadratic).unwrap();
        assert_relative_eq!(by_score, 0.888_888_888_888_888_8, max_relative = 1e-12);
    }

    #[test]
    fn kappa_errors() {
        assert_eq!(
            cohen_kappa(&[2, 2], &[2, 2], KappaWeights::Unweighted),
            Err(StatsError::ZeroVariance)
        );
        assert_eq!(
            cohen_kappa(&[], &[], KappaWeights::Unweighted),
            Err(StatsError::TooFewValues {
                needed: 1,
                found: 0
            })
        );
        assert!(matches!(
            cohen_kappa_with_labels(&[5], &[1], &[0, 1], KappaWeights::Unweighted),
            Err(StatsError::BadParameter { value, .. }) if value == 5.0
        ));
    }

    #[test]
    fn permutation_exact_by_enumeration() {
        // d = a − b = 1, 2, −1, 3; observed |Σd| = 5, mean 1.25.
        // Σ s_i|d_i| = x + y with x = ±1±1 ∈ {2, 0, 0, −2} and y = ±2±3 ∈ {5, 1, −1, −5}.
        // |x + y| ≥ 5: x=2,y=5 (7); x=0,y=±5 twice each (4 patterns); x=−2,y=−5 (−7) → 6.
        // p = 6/16 = 0.375.
        let t =
            paired_permutation_test(&[2.0, 4.0, 0.0, 3.0], &[1.0, 2.0, 1.0, 0.0], 16, 99).unwrap();
        assert!(t.exact);
        assert_eq!(t.resamples, 16);
        assert_eq!(t.n, 4);
        assert_relative_eq!(t.mean_diff, 1.25);
        assert_eq!(t.p, 0.375);
    }

    #[test]
    fn permutation_monte_carlo_is_seeded_and_close_to_exact() {
        // 12 pairs, d = 1,1,1,1,1,1,1,1,1,0,0,−1 → Σd = 8. Exact p by enumeration over the
        // 2^10 patterns of the ten non-zero d (the two zeros only double every count):
        // Σ = 10 − 2k for k flipped units; |Σ| ≥ 8 ⇔ k ∈ {0, 1, 9, 10}:
        // C(10,0)+C(10,1)+C(10,9)+C(10,10) = 22 → p = 22/1024 = 0.021484375.
        let a = [1.0, 1., 1., 1., 1., 1., 1., 1., 1., 0., 0., 0.];
        let b = [0.0, 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 1.];
        let exact = paired_permutation_test(&a, &b, 1 << 12, 1).unwrap();
        assert!(exact.exact);
        assert_eq!(exact.p, 22.0 / 1024.0);
        // With fewer resamples than 2^12 it samples; same seed → same p, and the estimate
        // lies within 5 binomial standard errors (sqrt(0.0215·0.9785/4000) ≈ 0.0023) of 0.0215.
        let mc1 = paired_permutation_test(&a, &b, 4000, 42).unwrap();
        let mc2 = paired_permutation_test(&a, &b, 4000, 42).unwrap();
        assert!(!mc1.exact);
        assert_eq!(mc1, mc2);
        assert!((mc1.p - 22.0 / 1024.0).abs() < 5.0 * 0.0023, "{}", mc1.p);
    }

    #[test]
    fn bad_inputs_are_errors() {
        assert!(matches!(
            mean_abs_diff(&[1.0], &[1.0, 2.0]),
            Err(StatsError::LengthMismatch { left: 1, right: 2 })
        ));
        assert!(matches!(
            within(&[1.0], &[1.0], -1.0),
            Err(StatsError::BadParameter { .. })
        ));
        assert!(matches!(
            paired_permutation_test(&[1.0], &[f64::NAN], 10, 1),
            Err(StatsError::NonFinite { index: 0 })
        ));
        assert!(matches!(
            paired_permutation_test(&[1.0], &[0.0], 0, 1),
            Err(StatsError::Limit(_))
        ));
    }
}
