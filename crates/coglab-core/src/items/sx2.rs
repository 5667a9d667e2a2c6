//! S-X2 item fit (Orlando and Thissen 2000): for each item, the observed proportion right
//! among the respondents with summed score `k` against the proportion the fitted model
//! expects at that summed score, over `k = 1 .. n - 1`:
//!
//! `S-X2_i = sum_k N_k (O_ik - E_ik)^2 / (E_ik (1 - E_ik))`, with
//! `E_ik = integral P_i(theta) S*_{k-1}(theta) g(theta) / integral S_k(theta) g(theta)`,
//!
//! where `S_k(theta)` is the probability of summed score `k` on the whole test and
//! `S*_{k-1}` that of `k - 1` on the test without item `i` (both by the Lord-Wingersky
//! recursion), and `g` the N(0, 1) ability density, integrated with the fit's Gauss-Hermite
//! rule. Degrees of freedom: the number of score groups left after collapsing minus the
//! item's estimated parameters (1 for Rasch, 2 for the 2PL); the p-value is the chi-square
//! upper tail. Scores 0 and `n` carry no information (`O = E = 0` and `1`) and are left out.
//!
//! **Collapsing** (the rule of Orlando and Thissen 2000, which is also the default of R's
//! `mirt::itemfit`, `mincell = 1`, and `CDM::itemfit.sx2`, `Eik_min = 1`): each score group is
//! a 2-cell row (expected right `N_k E_ik`, expected wrong `N_k (1 - E_ik)`). A forward pass
//! from the lowest score adds every row with a cell below [`Sx2Options::min_expected`] into
//! the next row; then a backward pass from the highest score adds every row still below it
//! into the previous one. Observed counts are added alongside. Score groups no respondent
//! has (`N_k = 0`) have expected cells of 0, so they merge into their neighbours. An item left
//! with fewer groups than its parameters plus one has no test (`None`).
//!
//! **Missing cells.** The summed score is only defined for a respondent who answered every
//! item, so S-X2 uses the respondents who answered every *fitted* item (items no one or
//! everyone got right are not fitted and not counted in the score, as they add the same to
//! every score). Respondents with a missing cell are left out and counted in
//! [`Sx2Result::incomplete_rows`]; with fewer than [`MIN_COMPLETE_ROWS`] complete rows (e.g. the
//! KiVA adults, who each saw 14 of 700 trials) no item is tested and a note says why.
//! Infit and outfit (see [`super::irt`]) use every answered cell instead.
//!
//! **Speed.** The full-test score distribution at each node is kept on a band of scores whose
//! probability is above [`BAND_REL`] times the node's largest (the rest is below 1e-60 of it
//! and cannot move any `E_ik`); `S*` is the full distribution with item `i` divided out,
//! forwards when `P_i < 1/2` and backwards otherwise (each step then multiplies the carried
//! error by at most 1). Cost: `O(Q n w)` for `n` items, `Q` nodes and band width `w`, rather
//! than `O(Q n^3)` for one recursion per item.

use super::irt::{gauss_hermite_normal, IrtFit, IrtModel};
use super::matrix::ResponseMatrix;
use serde::{Deserialize, Serialize};

/// Fewest complete rows with which S-X2 is computed.
pub const MIN_COMPLETE_ROWS: usize = 10;

/// Scores with probability below this fraction of the node's largest are dropped from the band.
pub const BAND_REL: f64 = 1e-60;

/// S-X2 settings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Sx2Options {
    /// Smallest expected count a cell may have before its score group is collapsed into a
    /// neighbour (default 1, as Orlando and Thissen 2000).
    pub min_expected: f64,
}

impl Default for Sx2Options {
    fn default() -> Self {
        Self { min_expected: 1.0 }
    }
}

/// One item's S-X2 test.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ItemSx2 {
    /// The statistic.
    pub chi2: f64,
    /// Degrees of freedom (score groups after collapsing minus estimated parameters).
    pub df: usize,
    /// Chi-square upper-tail p-value.
    pub p: f64,
    /// Score groups after collapsing.
    pub groups: usize,
}

/// S-X2 for every item of a matrix.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Sx2Result {
    /// Per item, in matrix order (`None`: not fitted, too few groups, or not computed).
    pub items: Vec<Option<ItemSx2>>,
    /// Respondents who answered every fitted item (the ones used).
    pub complete_rows: usize,
    /// Respondents left out for a missing cell.
    pub incomplete_rows: usize,
    /// Why nothing or only part was computed, if so.
    pub note: Option<String>,
}

/// The Lord-Wingersky recursion: the distribution of the summed score of independent items
/// answered right with probabilities `p` (entry `k` is `P(score = k)`, `k = 0 ..= n`).
///
/// # Examples
/// ```
/// use coglab_core::items::sx2::summed_score_distribution;
/// // Two items, P = 0.2 and 0.5: P(0) = 0.8 * 0.5, P(1) = 0.2 * 0.5 + 0.8 * 0.5, P(2) = 0.1.
/// let s = summed_score_distribution(&[0.2, 0.5]);
/// assert!((s[0] - 0.4).abs() < 1e-15 && (s[1] - 0.5).abs() < 1e-15 && (s[2] - 0.1).abs() < 1e-15);
/// ```
pub fn summed_score_distribution(p: &[f64]) -> Vec<f64> {
    let mut s = Vec::with_capacity(p.len() + 1);
    s.push(1.0);
    for &pj in p {
        add_item(&mut s, pj);
    }
    s
}

/// Convolves one more item into a score distribution held in `s` (scores `lo ..`).
#[inline]
fn add_item(s: &mut Vec<f64>, p: f64) {
    let q = 1.0 - p;
    let last = s.len() - 1;
    s.push(s[last] * p);
    for k in (1..=last).rev() {
        s[k] = s[k] * q + s[k - 1] * p;
    }
    s[0] *= q;
}

/// The expected proportions right `E_ik` at the given summed scores, from each item's
/// probability right at each quadrature node (`p` item-major: `p[i * nq + q]`) and the
/// nodes' weights (summing to 1). Row `i` of the result holds item `i`'s `E` at each score in
/// `scores` (`None` where the model gives the score probability 0, or for score 0 or `n`).
///
/// # Panics
/// When `p.len()` is not a multiple of `weights.len()` (a programming error).
///
/// # Examples
/// ```
/// use coglab_core::items::sx2::expected_proportions;
/// // Two items with P = 0.5 at a single node: at score 1 each is right half the time.
/// let e = expected_proportions(&[0.5, 0.5], &[1.0], &[1]);
/// assert_eq!(e, vec![vec![Some(0.5)], vec![Some(0.5)]]);
/// ```
pub fn expected_proportions(p: &[f64], weights: &[f64], scores: &[usize]) -> Vec<Vec<Option<f64>>> {
    let nq = weights.len();
    assert!(
        nq > 0 && p.len().is_multiple_of(nq),
        "p must be items x nodes"
    );
    let n = p.len() / nq;
    // Banded full-test distribution per node.
    let mut bands: Vec<(usize, Vec<f64>)> = Vec::with_capacity(nq);
    for q in 0..nq {
        let mut lo = 0usize;
        let mut s = Vec::with_capacity(n + 1);
        s.push(1.0);
        for i in 0..n {
            add_item(&mut s, p[i * nq + q]);
            let mx = s.iter().fold(0.0f64, |m, &v| m.max(v));
            let thr = mx * BAND_REL;
            let mut cut = 0;
            while cut + 1 < s.len() && s[cut] < thr {
                cut += 1;
            }
            if cut > 0 {
                s.drain(..cut);
                lo += cut;
            }
            while s.len() > 1 && s[s.len() - 1] < thr {
                s.pop();
            }
        }
        bands.push((lo, s));
    }
    let valid = |k: usize| k >= 1 && k < n;
    let denom: Vec<f64> = scores
        .iter()
        .map(|&k| {
            (0..nq)
                .map(|q| {
                    let (lo, s) = &bands[q];
                    if k >= *lo && k - lo < s.len() {
                        weights[q] * s[k - lo]
                    } else {
                        0.0
                    }
                })
                .sum()
        })
        .collect();
    let mut out = vec![vec![None; scores.len()]; n];
    let mut num = vec![0.0; scores.len()];
    let mut without = Vec::with_capacity(n + 1);
    for (i, row) in out.iter_mut().enumerate() {
        num.iter_mut().for_each(|v| *v = 0.0);
        for q in 0..nq {
            let pi = p[i * nq + q];
            let (lo, s) = &bands[q];
            divide_out(s, pi, &mut without);
            // `without[m]` is P(score m + lo on the test without item i); see divide_out.
            let wp = weights[q] * pi;
            for (t, &k) in scores.iter().enumerate() {
                if !valid(k) || k < 1 + lo {
                    continue;
                }
                let m = k - 1 - lo;
                if m < without.len() {
                    num[t] += wp * without[m];
                }
            }
        }
        for (t, &k) in scores.iter().enumerate() {
            if valid(k) && denom[t] > 0.0 {
                row[t] = Some((num[t] / denom[t]).clamp(0.0, 1.0));
            }
        }
    }
    out
}

/// Divides item with probability `p` out of a banded score distribution `s` (scores `lo ..`):
/// `out[m]` is the probability of score `lo + m` without the item, `m = 0 .. s.len() - 1`
/// (`s_k = out_k (1 - p) + out_{k-1} p`). Forwards for `p < 1/2`, backwards otherwise, so the
/// carried error is multiplied by `p / (1 - p) <= 1` (or its inverse) per step; negative
/// round-off is set to 0.
fn divide_out(s: &[f64], p: f64, out: &mut Vec<f64>) {
    out.clear();
    let len = s.len().saturating_sub(1).max(1);
    out.resize(len, 0.0);
    if s.len() == 1 {
        out[0] = s[0];
        return;
    }
    let q = 1.0 - p;
    if p < 0.5 {
        let mut prev = 0.0;
        for m in 0..len {
            let v = ((s[m] - p * prev) / q).max(0.0);
            out[m] = v;
            prev = v;
        }
    } else {
        // s_{m+1} = out_{m+1} q + out_m p, with out_len = 0 above the band.
        let mut next = 0.0;
        for m in (0..len).rev() {
            let v = ((s[m + 1] - q * next) / p).max(0.0);
            out[m] = v;
            next = v;
        }
    }
}

/// Collapses score groups (see the module documentation) and returns the statistic.
///
/// `n_k` is the number of respondents in each score group, `right` how many of them answered
/// the item right, `expected` the model's proportion right (`None`: the model gives the
/// score probability 0, treated as an expected count of 0), all in score order; `params` is
/// the number of estimated item parameters.
///
/// # Examples
/// ```
/// use coglab_core::items::sx2::collapse_and_test;
/// // Two groups of 3 with E = 1/3 and 2/3 and 2 and 1 right: expected counts (1, 2) and
/// // (2, 1), nothing collapses, X2 = 1 + 1/2 + 1/2 + 1 = 3 on 2 - 1 = 1 df (Rasch).
/// let t = collapse_and_test(&[3.0, 3.0], &[2.0, 1.0], &[Some(1.0 / 3.0), Some(2.0 / 3.0)], 1, 1.0).unwrap();
/// assert!((t.chi2 - 3.0).abs() < 1e-12 && t.df == 1);
/// ```
pub fn collapse_and_test(
    n_k: &[f64],
    right: &[f64],
    expected: &[Option<f64>],
    params: usize,
    min_expected: f64,
) -> Option<ItemSx2> {
    // Rows: (expected right, expected wrong, observed right, observed wrong).
    let mut rows: Vec<[f64; 4]> = n_k
        .iter()
        .zip(right)
        .zip(expected)
        .map(|((&n, &r), e)| {
            let e = e.unwrap_or(0.0);
            [n * e, n * (1.0 - e), r, n - r]
        })
        .collect();
    let small = |r: &[f64; 4]| r[0] < min_expected || r[1] < min_expected;
    let merge = |rows: &mut Vec<[f64; 4]>, from: usize, into: usize| {
        let f = rows[from];
        for c in 0..4 {
            rows[into][c] += f[c];
        }
        rows.remove(from);
    };
    let mut j = 0;
    while j + 1 < rows.len() {
        if small(&rows[j]) {
            merge(&mut rows, j, j + 1);
        } else {
            j += 1;
        }
    }
    let mut j = rows.len();
    while j >= 2 {
        if small(&rows[j - 1]) {
            merge(&mut rows, j - 1, j - 2);
        }
        j -= 1;
    }
    let groups = rows.len();
    if groups <= params || rows.iter().any(|r| r[0] <= 0.0 || r[1] <= 0.0) {
        return None;
    }
    let chi2: f64 = rows
        .iter()
        .map(|r| (r[2] - r[0]).powi(2) / r[0] + (r[3] - r[1]).powi(2) / r[1])
        .sum();
    let df = groups - params;
    Some(ItemSx2 {
        chi2,
        df,
        p: crate::stats::dist::gamma_q(df as f64 / 2.0, chi2 / 2.0),
        groups,
    })
}

/// S-X2 for every fitted item of `m` under `fit` (see the module documentation).
pub fn s_x2(m: &ResponseMatrix, fit: &IrtFit, opts: &Sx2Options) -> Sx2Result {
    let nj = m.n_items();
    let fitted: Vec<(usize, f64, f64)> = fit
        .items
        .iter()
        .enumerate()
        .filter_map(|(j, it)| Some((j, it.a?, it.b?)))
        .collect();
    let n = fitted.len();
    let mut result = Sx2Result {
        items: vec![None; nj],
        complete_rows: 0,
        incomplete_rows: 0,
        note: None,
    };
    // Complete rows and their summed scores.
    let mut scores_of_rows: Vec<(usize, usize)> = Vec::new();
    for i in 0..m.n_respondents() {
        let row = m.row(i);
        let mut score = 0;
        let mut complete = true;
        for &(j, _, _) in &fitted {
            match row[j] {
                1 => score += 1,
                0 => {}
                _ => {
                    complete = false;
                    break;
                }
            }
        }
        if complete {
            scores_of_rows.push((i, score));
        } else {
            result.incomplete_rows += 1;
        }
    }
    result.complete_rows = scores_of_rows.len();
    let params = match fit.model {
        IrtModel::Rasch => 1,
        IrtModel::TwoPl => 2,
    };
    if n < params + 2 {
        result.note = Some(format!(
            "S-X2 not computed: {n} fitted items give too few summed scores for a test with {params} item parameter(s)"
        ));
        return result;
    }
    if result.complete_rows < MIN_COMPLETE_ROWS {
        result.note = Some(format!(
            "S-X2 not computed: it needs respondents who answered every fitted item, and {} of {} did (at least {MIN_COMPLETE_ROWS} needed)",
            result.complete_rows,
            m.n_respondents()
        ));
        return result;
    }
    if result.incomplete_rows > 0 {
        result.note = Some(format!(
            "S-X2 uses the {} respondents who answered every fitted item; {} with a missing cell are left out",
            result.complete_rows, result.incomplete_rows
        ));
    }
    // Observed score groups 1 ..= n - 1, sorted.
    let mut observed: Vec<usize> = scores_of_rows
        .iter()
        .map(|&(_, s)| s)
        .filter(|&s| s >= 1 && s < n)
        .collect();
    observed.sort_unstable();
    observed.dedup();
    if observed.is_empty() {
        result.note =
            Some("S-X2 not computed: every complete respondent scored 0 or full marks".to_string());
        return result;
    }
    let group_of = |s: usize| observed.binary_search(&s).ok();
    let mut n_k = vec![0.0; observed.len()];
    let mut right = vec![0.0; n * observed.len()];
    for &(i, s) in &scores_of_rows {
        let Some(g) = group_of(s) else { continue };
        n_k[g] += 1.0;
        let row = m.row(i);
        for (k, &(j, _, _)) in fitted.iter().enumerate() {
            if row[j] == 1 {
                right[k * observed.len() + g] += 1.0;
            }
        }
    }
    let (theta, w) = gauss_hermite_normal(fit.quadrature_points);
    let nq = theta.len();
    let mut p = Vec::with_capacity(n * nq);
    for &(_, a, b) in &fitted {
        for &t in &theta {
            p.push(1.0 / (1.0 + (-a * (t - b)).exp()));
        }
    }
    let expected = expected_proportions(&p, &w, &observed);
    for (k, &(j, _, _)) in fitted.iter().enumerate() {
        let r = &right[k * observed.len()..(k + 1) * observed.len()];
        result.items[j] = collapse_and_test(&n_k, r, &expected[k], params, opts.min_expected);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_abs_diff_eq;

    /// The hand-worked case. Three items, two nodes theta = -1, +1 with weight 1/2 each;
    /// P(right) at the low node (0.2, 0.5, 0.5), at the high node (0.8, 0.5, 0.5).
    ///
    /// Item 1. Without it (items 2, 3) the score is 0, 1, 2 with probability 0.25, 0.5, 0.25 at
    /// both nodes. Full test, low node: S0 = 0.8 * 0.25 = 0.2, S1 = 0.8 * 0.5 + 0.2 * 0.25 =
    /// 0.45, S2 = 0.8 * 0.25 + 0.2 * 0.5 = 0.3, S3 = 0.05; high node: S0 = 0.05,
    /// S1 = 0.2 * 0.5 + 0.8 * 0.25 = 0.3, S2 = 0.2 * 0.25 + 0.8 * 0.5 = 0.45, S3 = 0.2.
    /// E_1,1 = (0.5 * 0.2 * 0.25 + 0.5 * 0.8 * 0.25) / (0.5 * 0.45 + 0.5 * 0.3) = 0.125 / 0.375
    /// = 1/3; E_1,2 = (0.5 * 0.2 * 0.5 + 0.5 * 0.8 * 0.5) / (0.5 * 0.3 + 0.5 * 0.45) = 0.25 /
    /// 0.375 = 2/3.
    /// Item 2. Without it (items 1, 3): low node 0.4, 0.5, 0.1; high node 0.1, 0.5, 0.4.
    /// E_2,1 = (0.5 * 0.5 * 0.4 + 0.5 * 0.5 * 0.1) / 0.375 = 0.125 / 0.375 = 1/3;
    /// E_2,2 = (0.25 * 0.5 + 0.25 * 0.5) / 0.375 = 2/3. Item 3 is item 2's twin.
    /// (Check: the E at score k sum to k over the items: 1/3 * 3 = 1, 2/3 * 3 = 2.)
    #[test]
    fn expected_proportions_hand_worked() {
        let p = [0.2, 0.8, 0.5, 0.5, 0.5, 0.5];
        let e = expected_proportions(&p, &[0.5, 0.5], &[0, 1, 2, 3]);
        for row in &e {
            assert_eq!(row[0], None);
            assert_eq!(row[3], None);
            assert_abs_diff_eq!(row[1].unwrap(), 1.0 / 3.0, epsilon = 1e-15);
            assert_abs_diff_eq!(row[2].unwrap(), 2.0 / 3.0, epsilon = 1e-15);
        }
    }

    /// The same quantity by brute force: every one of the 2^n response patterns, its
    /// probability at each node as a product, summed by score. Independent of the banded
    /// recursion and the division.
    fn brute_force(p: &[f64], w: &[f64], n: usize) -> Vec<Vec<Option<f64>>> {
        let nq = w.len();
        let mut num = vec![vec![0.0; n + 1]; n];
        let mut den = vec![0.0; n + 1];
        for pat in 0u32..(1 << n) {
            let score = pat.count_ones() as usize;
            for q in 0..nq {
                let mut pr = w[q];
                for i in 0..n {
                    let pi = p[i * nq + q];
                    pr *= if pat >> i & 1 == 1 { pi } else { 1.0 - pi };
                }
                den[score] += pr;
                for (i, row) in num.iter_mut().enumerate() {
                    if pat >> i & 1 == 1 {
                        row[score] += pr;
                    }
                }
            }
        }
        (0..n)
            .map(|i| {
                (0..=n)
                    .map(|k| (k >= 1 && k < n).then(|| num[i][k] / den[k]))
                    .collect()
            })
            .collect()
    }

    #[test]
    fn expected_proportions_match_enumeration() {
        // Nine 2PL items on the 21-point rule, including near-0 and near-1 probabilities
        // (b = -6 and 6), which take both directions of the division.
        let (theta, w) = gauss_hermite_normal(21);
        let ab = [
            (1.0, 0.0),
            (2.0, -1.0),
            (0.5, 1.5),
            (3.0, 0.3),
            (1.2, -6.0),
            (1.7, 6.0),
            (-0.8, 0.2),
            (0.9, 2.5),
            (1.1, -2.2),
        ];
        let n = ab.len();
        let p: Vec<f64> = ab
            .iter()
            .flat_map(|&(a, b)| {
                theta
                    .iter()
                    .map(move |t| 1.0 / (1.0 + (-a * (t - b)).exp()))
            })
            .collect();
        let scores: Vec<usize> = (0..=n).collect();
        let got = expected_proportions(&p, &w, &scores);
        let want = brute_force(&p, &w, n);
        for i in 0..n {
            for k in 0..=n {
                match (got[i][k], want[i][k]) {
                    (Some(g), Some(x)) => assert_abs_diff_eq!(g, x, epsilon = 1e-10),
                    (g, x) => assert_eq!(g, x, "item {i} score {k}"),
                }
            }
        }
    }

    /// Collapsing by hand. Four score groups, N = (2, 4, 4, 2), E = (0.25, 0.5, 0.5, 0.75),
    /// right = (1, 2, 3, 2). Expected (right, wrong) counts: (0.5, 1.5), (2, 2), (2, 2),
    /// (1.5, 0.5). Forward pass: group 1 has 0.5 < 1, so it joins group 2: expected (2.5, 3.5),
    /// observed (3, 3). Backward pass: group 4 has 0.5 < 1, so it joins group 3: expected
    /// (3.5, 2.5), observed (5, 1). X2 = 0.5^2/2.5 + 0.5^2/3.5 + 1.5^2/3.5 + 1.5^2/2.5 =
    /// 0.1 + 1/14 + 9/14 + 0.9 = 12/7, on 2 groups - 1 parameter = 1 df (Rasch);
    /// p = P(chi2_1 > 12/7) = erfc(sqrt(6/7)) = 0.1904302638 (Python: `math.erfc(math.sqrt(6/7))`
    /// ).
    #[test]
    fn collapse_hand_worked() {
        let e = [Some(0.25), Some(0.5), Some(0.5), Some(0.75)];
        let t = collapse_and_test(&[2.0, 4.0, 4.0, 2.0], &[1.0, 2.0, 3.0, 2.0], &e, 1, 1.0)
            .expect("two groups left");
        assert_eq!((t.groups, t.df), (2, 1));
        assert_abs_diff_eq!(t.chi2, 12.0 / 7.0, epsilon = 1e-12);
        assert_abs_diff_eq!(t.p, 0.190_430_26, epsilon = 1e-7);
        // With min_expected 0.5 nothing collapses: 4 groups, X2 by group as N (O - E)^2 /
        // (E (1 - E)): 2 * 0.25^2 / 0.1875 = 2/3, 0, 4 * 0.25^2 / 0.25 = 1, 2 * 0.25^2 /
        // 0.1875 = 2/3; total 7/3 on 3 df (Rasch) or 2 df (2PL).
        let t = collapse_and_test(&[2.0, 4.0, 4.0, 2.0], &[1.0, 2.0, 3.0, 2.0], &e, 2, 0.5)
            .expect("four groups");
        assert_eq!((t.groups, t.df), (4, 2));
        assert_abs_diff_eq!(t.chi2, 7.0 / 3.0, epsilon = 1e-12);
        // 2 df: p = exp(-x/2) = exp(-7/6) = 0.311403223...
        assert_abs_diff_eq!(t.p, (-7.0f64 / 6.0).exp(), epsilon = 1e-12);
        // One group left for a 2PL item: no test.
        assert_eq!(
            collapse_and_test(
                &[3.0, 3.0],
                &[2.0, 1.0],
                &[Some(1.0 / 3.0), Some(2.0 / 3.0)],
                2,
                1.5
            ),
            None
        );
    }
}
