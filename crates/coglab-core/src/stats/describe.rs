//! Descriptive statistics: mean, variance, standard error, median, moments.

use super::{check_finite, StatsError};

/// Arithmetic mean.
///
/// # Errors
/// [`StatsError::TooFewValues`] on empty input, [`StatsError::NonFinite`] on NaN/inf.
///
/// # Examples
/// ```
/// assert_eq!(coglab_core::stats::describe::mean(&[1.0, 2.0, 6.0]).unwrap(), 3.0);
/// ```
pub fn mean(xs: &[f64]) -> Result<f64, StatsError> {
    if xs.is_empty() {
        return Err(StatsError::TooFewValues {
            needed: 1,
            found: 0,
        });
    }
    check_finite(xs)?;
    // Summed at a power-of-two scale (exact), so ±1e308 values do not overflow the sum.
    let k = pow2_exponent(xs);
    let sum: f64 = xs.iter().map(|&x| scale2(x, -k)).sum();
    Ok(scale2(sum / xs.len() as f64, k))
}

/// The exponent `k` with `max |x| < 2^k` (0 for empty, all-zero or non-finite input).
///
/// Multiplying by a power of two is exact (no rounding) while the result stays a normal
/// number, so statistics computed on `x · 2^-k` (values within (-1, 1)) and scaled back are
/// bit for bit those computed on `x`, except that squares and sums of ±1e308 or 1e-310 no
/// longer overflow to infinity or underflow to zero (issue 27, defect 7).
pub(crate) fn pow2_exponent(xs: &[f64]) -> i32 {
    let m = xs.iter().fold(0.0f64, |a, &x| a.max(x.abs()));
    if m == 0.0 || !m.is_finite() {
        return 0;
    }
    // A subnormal maximum is brought into the normal range first (2^64 is exact).
    let (m, bias) = if m < f64::MIN_POSITIVE {
        (m * pow2(64), 64)
    } else {
        (m, 0)
    };
    // m = f · 2^e with f in [0.5, 1).
    ((m.to_bits() >> 52) & 0x7ff) as i32 - 1022 - bias
}

/// 2^e for -1022 <= e <= 1023, built from its bits (exact).
fn pow2(e: i32) -> f64 {
    f64::from_bits(((e + 1023) as u64) << 52)
}

/// `x · 2^k`, in two exact steps so that `2^k` itself need not be representable.
pub(crate) fn scale2(x: f64, k: i32) -> f64 {
    let h = k / 2;
    x * pow2(h) * pow2(k - h)
}

/// The values divided by `2^k` (see [`pow2_exponent`]), and `k`.
pub(crate) fn scaled(xs: &[f64]) -> (Vec<f64>, i32) {
    let k = pow2_exponent(xs);
    (xs.iter().map(|&x| scale2(x, -k)).collect(), k)
}

/// Sum of squared deviations from the mean of values already scaled into (-1, 1).
fn scaled_ss(ys: &[f64]) -> f64 {
    let m = ys.iter().sum::<f64>() / ys.len() as f64;
    ys.iter().map(|y| (y - m) * (y - m)).sum()
}

/// Variance with `ddof` degrees of freedom removed: `ddof = 0` is the population variance
/// (numpy's default), `ddof = 1` the sample variance (R's `var`).
///
/// # Errors
/// [`StatsError::TooFewValues`] when `xs.len() <= ddof`.
pub fn variance(xs: &[f64], ddof: usize) -> Result<f64, StatsError> {
    if xs.len() <= ddof {
        return Err(StatsError::TooFewValues {
            needed: ddof + 1,
            found: xs.len(),
        });
    }
    check_finite(xs)?;
    let (ys, k) = scaled(xs);
    let ss = scaled_ss(&ys);
    let v = scale2(ss / (xs.len() - ddof) as f64, 2 * k);
    if !v.is_finite() || (v == 0.0 && ss > 0.0) {
        return Err(StatsError::OutOfRange { what: "variance" });
    }
    Ok(v)
}

/// Standard deviation with `ddof` degrees of freedom removed (see [`variance`]).
///
/// # Errors
/// As [`variance`].
pub fn std_dev(xs: &[f64], ddof: usize) -> Result<f64, StatsError> {
    if xs.len() <= ddof {
        return Err(StatsError::TooFewValues {
            needed: ddof + 1,
            found: xs.len(),
        });
    }
    check_finite(xs)?;
    // sqrt(ss / (n - ddof)) at the scale of the data: finite for ±1e308 columns (whose
    // variance is not) and non-zero for 1e-310 ones.
    let (ys, k) = scaled(xs);
    let sd = scale2((scaled_ss(&ys) / (xs.len() - ddof) as f64).sqrt(), k);
    if !sd.is_finite() {
        return Err(StatsError::OutOfRange {
            what: "standard deviation",
        });
    }
    Ok(sd)
}

/// Mean and standard error as KiVA reports them: SE = population SD / sqrt(n)
/// (numpy's `np.std` default, ddof = 0).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct MeanSe {
    /// Mean of the values.
    pub mean: f64,
    /// Standard error of the mean.
    pub se: f64,
    /// Number of values.
    pub n: usize,
}

/// Mean and standard error, SE = SD(ddof) / sqrt(n).
///
/// # Errors
/// [`StatsError::TooFewValues`] on empty input (or `n <= ddof`).
///
/// # Examples
/// ```
/// use coglab_core::stats::describe::mean_se;
/// // values 0, 1, 1, 1: mean 0.75, population SD sqrt(0.1875) = 0.4330, SE = 0.4330 / 2
/// let m = mean_se(&[0.0, 1.0, 1.0, 1.0], 0).unwrap();
/// assert!((m.se - 0.21650635094610965).abs() < 1e-15);
/// ```
pub fn mean_se(xs: &[f64], ddof: usize) -> Result<MeanSe, StatsError> {
    let sd = std_dev(xs, ddof)?;
    Ok(MeanSe {
        mean: mean(xs)?,
        se: sd / (xs.len() as f64).sqrt(),
        n: xs.len(),
    })
}

/// The normal 95% interval mean ± 1.96 SE of a mean (as ranks of KiVA stage scores use).
///
/// # Examples
/// ```
/// use coglab_core::stats::describe::{normal_interval, MeanSe};
/// let (lo, hi) = normal_interval(MeanSe { mean: 0.5, se: 0.1, n: 25 });
/// assert!((lo - 0.304).abs() < 1e-12 && (hi - 0.696).abs() < 1e-12);
/// ```
pub fn normal_interval(m: MeanSe) -> (f64, f64) {
    (m.mean - 1.96 * m.se, m.mean + 1.96 * m.se)
}

/// The 95% interval of a mean with Student t's quantile, mean ± t(0.975, n − 1) · SE: the
/// interval of a mean over `n` clusters (KiVA's trials, each the mean of its regenerations;
/// MM-OPERA's items), as Inspect's `ci()` does for clustered standard errors. With fewer than
/// two values (no degrees of freedom) the normal quantile is used.
///
/// # Examples
/// ```
/// use coglab_core::stats::describe::{t_interval, MeanSe};
/// // 11 trials: t(0.975, 10) = 2.228138851986, so 0.5 ± 0.2228139.
/// let (lo, hi) = t_interval(MeanSe { mean: 0.5, se: 0.1, n: 11 });
/// assert!((lo - 0.2771861148014).abs() < 1e-9 && (hi - 0.7228138851986).abs() < 1e-9);
/// ```
pub fn t_interval(m: MeanSe) -> (f64, f64) {
    let q = t_975(m.n.saturating_sub(1));
    (m.mean - q * m.se, m.mean + q * m.se)
}

/// `t(0.975, df)`, the normal quantile for `df = 0`.
pub(crate) fn t_975(df: usize) -> f64 {
    let df = if df == 0 { f64::INFINITY } else { df as f64 };
    // p and df are in range, so the quantile exists.
    super::dist::student_t_quantile(0.975, df).unwrap_or(1.959_963_984_540_054)
}

/// Median (mean of the two middle values for even n).
///
/// # Errors
/// [`StatsError::TooFewValues`] on empty input, [`StatsError::NonFinite`] on NaN/inf.
pub fn median(xs: &[f64]) -> Result<f64, StatsError> {
    quantile(xs, 0.5)
}

/// Quantile by linear interpolation between order statistics (R type 7, numpy's default).
///
/// # Errors
/// [`StatsError::TooFewValues`] on empty input, [`StatsError::NonFinite`] on NaN/inf,
/// [`StatsError::BadParameter`] when `p` is outside [0, 1].
pub fn quantile(xs: &[f64], p: f64) -> Result<f64, StatsError> {
    if xs.is_empty() {
        return Err(StatsError::TooFewValues {
            needed: 1,
            found: 0,
        });
    }
    check_finite(xs)?;
    if !(0.0..=1.0).contains(&p) {
        return Err(StatsError::BadParameter {
            name: "p",
            value: p,
            expected: "0 <= p <= 1",
        });
    }
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    let h = (v.len() - 1) as f64 * p;
    let lo = h.floor() as usize;
    let hi = h.ceil() as usize;
    let (t, a, b) = (h - lo as f64, v[lo], v[hi]);
    let q = a + t * (b - a);
    if q.is_finite() {
        Ok(q)
    } else {
        // b − a overflowed (e.g. −1e308 and 1e308): weigh the two ends instead.
        Ok(a * (1.0 - t) + b * t)
    }
}

/// Sample skewness g1 = m3 / m2^(3/2) (moments about the mean, divided by n), as
/// e1071's type 1 and seminr's descriptives.
///
/// # Errors
/// [`StatsError::TooFewValues`] for n < 3, [`StatsError::ZeroVariance`] for constant input.
pub fn skewness(xs: &[f64]) -> Result<f64, StatsError> {
    let (m2, m3, _) = central_moments(xs)?;
    Ok(m3 / m2.powf(1.5))
}

/// Raw kurtosis b2 = m4 / m2² (what seminr prints as "Kurtosis"); excess kurtosis is b2 − 3.
///
/// # Errors
/// As [`skewness`].
pub fn kurtosis_b2(xs: &[f64]) -> Result<f64, StatsError> {
    let (m2, _, m4) = central_moments(xs)?;
    Ok(m4 / (m2 * m2))
}

/// Excess kurtosis g2 = b2 − 3 (0 for a normal distribution).
///
/// # Errors
/// As [`skewness`].
pub fn excess_kurtosis(xs: &[f64]) -> Result<f64, StatsError> {
    kurtosis_b2(xs).map(|b2| b2 - 3.0)
}

fn central_moments(xs: &[f64]) -> Result<(f64, f64, f64), StatsError> {
    if xs.len() < 3 {
        return Err(StatsError::TooFewValues {
            needed: 3,
            found: xs.len(),
        });
    }
    check_finite(xs)?;
    // Moments of the values scaled by a power of two: the callers take scale-free ratios.
    let (ys, _) = scaled(xs);
    let m = mean(&ys)?;
    let n = ys.len() as f64;
    let (mut m2, mut m3, mut m4) = (0.0, 0.0, 0.0);
    for x in &ys {
        let d = x - m;
        let d2 = d * d;
        m2 += d2;
        m3 += d2 * d;
        m4 += d2 * d2;
    }
    let (m2, m3, m4) = (m2 / n, m3 / n, m4 / n);
    if m2 == 0.0 {
        return Err(StatsError::ZeroVariance);
    }
    Ok((m2, m3, m4))
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_abs_diff_eq;

    #[test]
    fn variance_population_and_sample() {
        // 2,4,4,4,5,5,7,9: mean 5, squared deviations sum 32 -> pop var 4, sample var 32/7.
        let xs = [2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0];
        assert_abs_diff_eq!(variance(&xs, 0).unwrap(), 4.0, epsilon = 1e-15);
        assert_abs_diff_eq!(variance(&xs, 1).unwrap(), 32.0 / 7.0, epsilon = 1e-15);
        assert_abs_diff_eq!(
            mean_se(&xs, 0).unwrap().se,
            2.0 / 8f64.sqrt(),
            epsilon = 1e-15
        );
    }

    #[test]
    fn empty_and_nan_are_errors() {
        assert_eq!(
            mean(&[]),
            Err(StatsError::TooFewValues {
                needed: 1,
                found: 0
            })
        );
        assert_eq!(
            mean(&[1.0, f64::NAN]),
            Err(StatsError::NonFinite { index: 1 })
        );
        assert_eq!(skewness(&[1.0, 1.0, 1.0]), Err(StatsError::ZeroVariance));
    }

    #[test]
    fn median_and_quantile_type7() {
        assert_eq!(median(&[3.0, 1.0, 2.0]).unwrap(), 2.0);
        assert_eq!(median(&[4.0, 1.0, 2.0, 3.0]).unwrap(), 2.5);
        // numpy.quantile([1,2,3,4,10], 0.9) = 4 + 0.6 * 6 = 7.6
        assert_abs_diff_eq!(
            quantile(&[1.0, 2.0, 3.0, 4.0, 10.0], 0.9).unwrap(),
            7.6,
            epsilon = 1e-12
        );
    }

    #[test]
    fn moments_by_hand() {
        // 1,2,3,10: mean 4; deviations -3,-2,-1,6; m2 = 50/4 = 12.5;
        // m3 = (-27-8-1+216)/4 = 45; m4 = (81+16+1+1296)/4 = 348.5
        let xs = [1.0, 2.0, 3.0, 10.0];
        assert_abs_diff_eq!(
            skewness(&xs).unwrap(),
            45.0 / 12.5f64.powf(1.5),
            epsilon = 1e-12
        );
        assert_abs_diff_eq!(kurtosis_b2(&xs).unwrap(), 348.5 / 156.25, epsilon = 1e-12);
        assert_abs_diff_eq!(
            excess_kurtosis(&xs).unwrap(),
            348.5 / 156.25 - 3.0,
            epsilon = 1e-12
        );
    }
}
