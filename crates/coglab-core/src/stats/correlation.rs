//! Pearson and Spearman correlation with two-sided p-values (t test with n − 2 df, as
//! `scipy.stats.pearsonr` / `spearmanr` and R's `cor.test`), and Kendall's τ-b.

use super::dist::student_t_two_sided_p;
use super::{check_finite, StatsError};

/// A correlation coefficient with its two-sided p-value.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Correlation {
    /// The coefficient, in [-1, 1].
    pub r: f64,
    /// Two-sided p-value for H0: no correlation.
    pub p: f64,
    /// Number of pairs.
    pub n: usize,
}

/// Pearson's product-moment correlation.
///
/// # Errors
/// [`StatsError::LengthMismatch`], [`StatsError::TooFewValues`] for n < 3,
/// [`StatsError::NonFinite`], [`StatsError::ZeroVariance`] when either sample is constant.
///
/// # Examples
/// ```
/// use coglab_core::stats::correlation::pearson;
/// let c = pearson(&[1.0, 2.0, 3.0, 4.0], &[2.0, 4.0, 5.0, 9.0]).unwrap();
/// assert!((c.r - 0.9647638212377322).abs() < 1e-12); // scipy.stats.pearsonr
/// ```
pub fn pearson(x: &[f64], y: &[f64]) -> Result<Correlation, StatsError> {
    if x.len() != y.len() {
        return Err(StatsError::LengthMismatch {
            left: x.len(),
            right: y.len(),
        });
    }
    if x.len() < 3 {
        return Err(StatsError::TooFewValues {
            needed: 3,
            found: x.len(),
        });
    }
    check_finite(x)?;
    check_finite(y)?;
    // r is scale-free: computed on power-of-two scaled values (exact), so extreme magnitudes
    // neither overflow nor underflow the sums of squares.
    let ((xs, _), (ys, _)) = (super::describe::scaled(x), super::describe::scaled(y));
    let (x, y) = (&xs[..], &ys[..]);
    let n = x.len() as f64;
    let mx = x.iter().sum::<f64>() / n;
    let my = y.iter().sum::<f64>() / n;
    let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
    for (a, b) in x.iter().zip(y) {
        let (dx, dy) = (a - mx, b - my);
        sxy += dx * dy;
        sxx += dx * dx;
        syy += dy * dy;
    }
    if sxx == 0.0 || syy == 0.0 {
        return Err(StatsError::ZeroVariance);
    }
    let r = (sxy / (sxx * syy).sqrt()).clamp(-1.0, 1.0);
    Ok(Correlation {
        r,
        p: p_from_r(r, x.len()),
        n: x.len(),
    })
}

/// Spearman's rank correlation: Pearson's r on average ranks (ties share the mean rank).
///
/// # Errors
/// As [`pearson`].
pub fn spearman(x: &[f64], y: &[f64]) -> Result<Correlation, StatsError> {
    if x.len() != y.len() {
        return Err(StatsError::LengthMismatch {
            left: x.len(),
            right: y.len(),
        });
    }
    check_finite(x)?;
    check_finite(y)?;
    pearson(&ranks(x), &ranks(y))
}

/// Average ranks (1-based; tied values get the mean of their ranks).
pub fn ranks(xs: &[f64]) -> Vec<f64> {
    let mut idx: Vec<usize> = (0..xs.len()).collect();
    idx.sort_by(|&a, &b| xs[a].total_cmp(&xs[b]));
    let mut out = vec![0.0; xs.len()];
    let mut i = 0;
    while i < idx.len() {
        let mut j = i;
        while j + 1 < idx.len() && xs[idx[j + 1]] == xs[idx[i]] {
            j += 1;
        }
        let rank = (i + j) as f64 / 2.0 + 1.0;
        for &k in &idx[i..=j] {
            out[k] = rank;
        }
        i = j + 1;
    }
    out
}

fn p_from_r(r: f64, n: usize) -> f64 {
    let df = (n - 2) as f64;
    if r.abs() >= 1.0 {
        return 0.0;
    }
    let t = r * (df / (1.0 - r * r)).sqrt();
    student_t_two_sided_p(t, df)
}

/// Kendall's τ-b (as `scipy.stats.kendalltau`'s statistic), `None` for fewer than two pairs,
/// lists of different lengths or a constant side. Knight's O(n log n) algorithm: sort by
/// (x, y), count the x ties and joint ties, merge-sort by y counting the swaps (discordant
/// pairs), count the y ties.
///
/// Written here rather than taken from the `kendalls` crate, whose significance terms
/// multiply two sums of t(t − 1)(t − 2) over tie groups in `usize`: with 16,000 respondents
/// in a few score groups that overflows, a panic under overflow checks (debug builds, the
/// fuzzer) and a wrapped number otherwise (issue 37, found running `coglab items` on 16,000
/// respondents). Counts here are `u64` (pairs of up to 4 billion values) and the products f64.
///
/// # Examples
/// ```
/// use coglab_core::stats::correlation::kendall_tau_b;
/// // Pairs (1,1),(2,3),(3,2): 2 concordant, 1 discordant, no ties: (2-1)/3.
/// assert!((kendall_tau_b(&[1.0, 2.0, 3.0], &[1.0, 3.0, 2.0]).unwrap() - 1.0 / 3.0).abs() < 1e-15);
/// assert_eq!(kendall_tau_b(&[1.0, 1.0], &[1.0, 2.0]), None);
/// ```
pub fn kendall_tau_b(x: &[f64], y: &[f64]) -> Option<f64> {
    let n = x.len();
    if n < 2 || n != y.len() {
        return None;
    }
    let mut pairs: Vec<(f64, f64)> = x.iter().copied().zip(y.iter().copied()).collect();
    pairs.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
    let tied = |t: u64| t * (t - 1) / 2;
    // Ties in x, and in both.
    let (mut x_ties, mut xy_ties) = (0u64, 0u64);
    let (mut tx, mut txy) = (1u64, 1u64);
    for w in pairs.windows(2) {
        if w[0].0.total_cmp(&w[1].0).is_eq() {
            tx += 1;
            if w[0].1.total_cmp(&w[1].1).is_eq() {
                txy += 1;
            } else {
                xy_ties += tied(txy);
                txy = 1;
            }
        } else {
            x_ties += tied(tx);
            xy_ties += tied(txy);
            tx = 1;
            txy = 1;
        }
    }
    x_ties += tied(tx);
    xy_ties += tied(txy);
    // Merge sort by y (stable), counting the pairs that change order.
    let mut ys: Vec<f64> = pairs.iter().map(|p| p.1).collect();
    let mut buf = vec![0.0; n];
    let mut swaps = 0u64;
    let mut width = 1;
    while width < n {
        let mut start = 0;
        while start < n {
            let mid = (start + width).min(n);
            let end = (start + 2 * width).min(n);
            let (mut i, mut j, mut k) = (start, mid, start);
            while i < mid && j < end {
                if ys[j].total_cmp(&ys[i]).is_lt() {
                    swaps += (mid - i) as u64;
                    buf[k] = ys[j];
                    j += 1;
                } else {
                    buf[k] = ys[i];
                    i += 1;
                }
                k += 1;
            }
            buf[k..k + (mid - i)].copy_from_slice(&ys[i..mid]);
            k += mid - i;
            buf[k..k + (end - j)].copy_from_slice(&ys[j..end]);
            start = end;
        }
        std::mem::swap(&mut ys, &mut buf);
        width *= 2;
    }
    let (mut y_ties, mut ty) = (0u64, 1u64);
    for w in ys.windows(2) {
        if w[0].total_cmp(&w[1]).is_eq() {
            ty += 1;
        } else {
            y_ties += tied(ty);
            ty = 1;
        }
    }
    y_ties += tied(ty);
    let all = tied(n as u64);
    let (nx, ny) = ((all - x_ties) as f64, (all - y_ties) as f64);
    if nx == 0.0 || ny == 0.0 {
        return None;
    }
    // concordant − discordant = all − x ties − y ties + joint ties − 2 · swaps.
    let s = all as f64 - x_ties as f64 - y_ties as f64 + xy_ties as f64 - 2.0 * swaps as f64;
    let tau = s / (nx * ny).sqrt();
    tau.is_finite().then_some(tau)
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;

    #[test]
    fn pearson_matches_scipy() {
        // By hand: dx = -2,-1,0,1,2; dy = -1.4,-2.4,0.6,-0.4,3.6;
        // sxy = 2.8+2.4+0-0.4+7.2 = 12, sxx = 10, syy = 1.96+5.76+0.36+0.16+12.96 = 21.2,
        // r = 12 / sqrt(212) = 0.8241633836921339 (scipy.stats.pearsonr agrees).
        let c = pearson(&[1.0, 2.0, 3.0, 4.0, 5.0], &[2.0, 1.0, 4.0, 3.0, 7.0]).unwrap();
        assert_relative_eq!(c.r, 12.0 / 212f64.sqrt(), max_relative = 1e-14);
        // t = r sqrt(3 / (1 - r²)) = 2.5216...; two-sided p with 3 df.
        let t = c.r * (3.0 / (1.0 - c.r * c.r)).sqrt();
        assert_relative_eq!(c.p, student_t_two_sided_p(t, 3.0), max_relative = 1e-14);
        // scipy.stats.pearsonr([1,2,3,4,5], [2,1,4,3,7]).pvalue = 0.08613863131395952
        assert_relative_eq!(c.p, 0.086_138_631_313_959_52, max_relative = 1e-12);
    }

    #[test]
    fn ranks_with_ties() {
        assert_eq!(ranks(&[10.0, 20.0, 10.0, 30.0]), vec![1.5, 3.0, 1.5, 4.0]);
    }

    #[test]
    fn spearman_monotone_is_one() {
        let c = spearman(&[1.0, 2.0, 3.0, 4.0], &[1.0, 8.0, 27.0, 64.0]).unwrap();
        assert_relative_eq!(c.r, 1.0);
        assert_eq!(c.p, 0.0);
    }

    #[test]
    fn errors_are_typed() {
        assert_eq!(
            pearson(&[1.0, 2.0], &[1.0, 2.0]),
            Err(StatsError::TooFewValues {
                needed: 3,
                found: 2
            })
        );
        assert_eq!(
            pearson(&[1.0, 1.0, 1.0], &[1.0, 2.0, 3.0]),
            Err(StatsError::ZeroVariance)
        );
        assert_eq!(
            pearson(&[1.0], &[1.0, 2.0]),
            Err(StatsError::LengthMismatch { left: 1, right: 2 })
        );
    }

    #[test]
    fn kendall_tau_b_matches_the_pair_count_and_survives_heavy_ties() {
        // Reference: the definition, pair by pair (O(n²)): concordant minus discordant over
        // the square root of the pairs untied in x times the pairs untied in y.
        fn by_pairs(x: &[f64], y: &[f64]) -> f64 {
            let (mut s, mut nx, mut ny) = (0i64, 0i64, 0i64);
            for i in 0..x.len() {
                for j in i + 1..x.len() {
                    let dx = (x[i] - x[j]).signum() as i64 * i64::from(x[i] != x[j]);
                    let dy = (y[i] - y[j]).signum() as i64 * i64::from(y[i] != y[j]);
                    s += dx * dy;
                    nx += dx.abs();
                    ny += dy.abs();
                }
            }
            s as f64 / ((nx as f64) * (ny as f64)).sqrt()
        }
        let mut z: u64 = 7;
        let mut next = |m: u64| {
            z = z
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            ((z >> 33) % m) as f64
        };
        for (n, levels) in [(2, 2), (5, 3), (40, 4), (300, 7), (500, 500)] {
            let x: Vec<f64> = (0..n).map(|_| next(levels)).collect();
            let y: Vec<f64> = x.iter().map(|v| v + next(levels)).collect();
            match kendall_tau_b(&x, &y) {
                Some(t) => assert!((t - by_pairs(&x, &y)).abs() < 1e-12, "n {n}: {t}"),
                None => assert!(by_pairs(&x, &y).is_nan(), "n {n}"),
            }
        }
        // 40,000 values in two groups, the other side in three: the kendalls crate's
        // significance terms overflowed here. Reference by counting: x = 0 for the first
        // 20,000, 1 after; y = i mod 3. Within x groups nothing counts; across groups, a pair
        // (i < 20,000, j >= 20,000) is concordant when y_i < y_j, discordant when y_i > y_j.
        let n = 40_000;
        let x: Vec<f64> = (0..n).map(|i| f64::from(u8::from(i >= n / 2))).collect();
        let y: Vec<f64> = (0..n).map(|i| f64::from((i % 3) as u8)).collect();
        let count = |lo: std::ops::Range<usize>| {
            let mut c = [0f64; 3];
            for i in lo {
                c[i % 3] += 1.0;
            }
            c
        };
        let (a, b) = (count(0..n / 2), count(n / 2..n));
        let mut s = 0.0;
        for (ya, ca) in a.iter().enumerate() {
            for (yb, cb) in b.iter().enumerate() {
                // (f64::signum(0.0) is 1: the equal y's are left out by hand.)
                s += ca * cb * (yb.cmp(&ya) as i8 as f64);
            }
        }
        let all = (n * (n - 1) / 2) as f64;
        let nx = all - 2.0 * ((n / 2) * (n / 2 - 1) / 2) as f64;
        let ny = all
            - a.iter()
                .zip(&b)
                .map(|(p, q)| (p + q) * (p + q - 1.0) / 2.0)
                .sum::<f64>();
        let want = s / (nx * ny).sqrt();
        let got = kendall_tau_b(&x, &y).unwrap();
        assert!((got - want).abs() < 1e-12, "{got} vs {want}");
    }
}
