//! Classical test theory statistics of a response matrix.
//!
//! Definitions (missing cells are skipped, never counted wrong):
//! - difficulty `p`: right / answered, over the respondents who answered the item;
//! - corrected point-biserial: the Pearson correlation, over the respondents who answered the
//!   item and at least one other item, between the item (1/0) and the respondent's *rest
//!   score*, the proportion right among the other items they answered. With no missing cells
//!   the proportion is a linear function of the usual rest sum score, so the correlation is the
//!   textbook one; with missing cells a proportion does not penalise respondents for items they
//!   were not given (KiVA adults each see 14 of 700 trials);
//! - Cronbach's alpha and alpha-if-item-deleted: on the complete cases (respondents who
//!   answered every item), `k/(k-1) (1 - sum s_j^2 / s_T^2)` with sample variances;
//! - letter distributions of the answer keys and of the chosen answers, overall and per
//!   category, with the majority-class share (the baseline of always answering the most common
//!   key letter).

use super::matrix::ResponseMatrix;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One item's classical statistics.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ItemClassical {
    /// Respondents who answered.
    pub n: usize,
    /// Of them, right.
    pub right: usize,
    /// Proportion right (`None` when no one answered).
    pub p: Option<f64>,
    /// Corrected point-biserial (`None` with fewer than two usable respondents or no variance).
    pub point_biserial: Option<f64>,
    /// Cronbach's alpha of the other items (complete cases).
    pub alpha_if_deleted: Option<f64>,
}

/// Counts of letters, with the most common one's share.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct LetterCounts {
    /// Letter -> count.
    pub counts: BTreeMap<String, usize>,
    /// Sum of the counts.
    pub total: usize,
    /// The most common letter and its share of the total (ties: the first in letter order).
    pub majority: Option<(String, f64)>,
}

impl LetterCounts {
    fn add(&mut self, letter: &str) {
        *self.counts.entry(letter.to_string()).or_default() += 1;
        self.total += 1;
    }

    fn finish(&mut self) {
        let mut best: Option<(&String, usize)> = None;
        for (k, &v) in &self.counts {
            if best.is_none_or(|(_, b)| v > b) {
                best = Some((k, v));
            }
        }
        self.majority = best.map(|(k, v)| (k.clone(), v as f64 / self.total as f64));
    }
}

/// Matrix-level classical statistics.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ClassicalStats {
    /// Per item, in matrix order.
    pub items: Vec<ItemClassical>,
    /// Cronbach's alpha over all items on the complete cases.
    pub alpha: Option<f64>,
    /// Complete cases used for alpha.
    pub alpha_n: usize,
    /// Answer-key letters over all items (empty without keys).
    pub key_letters: LetterCounts,
    /// Answer-key letters per category.
    pub key_letters_by_category: BTreeMap<String, LetterCounts>,
    /// Chosen answers over all answered cells (empty without answers).
    pub response_letters: LetterCounts,
    /// Chosen answers per item category.
    pub response_letters_by_category: BTreeMap<String, LetterCounts>,
    /// Chosen answers per respondent (position bias of each model).
    pub response_letters_by_respondent: BTreeMap<String, LetterCounts>,
}

/// Pearson correlation, `None` with fewer than two pairs or a constant side.
fn pearson(x: &[f64], y: &[f64]) -> Option<f64> {
    let n = x.len();
    if n < 2 {
        return None;
    }
    let mx = x.iter().sum::<f64>() / n as f64;
    let my = y.iter().sum::<f64>() / n as f64;
    let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
    for (a, b) in x.iter().zip(y) {
        let (dx, dy) = (a - mx, b - my);
        sxy += dx * dy;
        sxx += dx * dx;
        syy += dy * dy;
    }
    if sxx <= 0.0 || syy <= 0.0 {
        return None;
    }
    Some(sxy / (sxx * syy).sqrt())
}

/// Sample variance (ddof 1) of the columns `cols` of the row-major `rows`.
fn alpha_of(rows: &[Vec<f64>], cols: &[usize]) -> Option<f64> {
    let n = rows.len();
    let k = cols.len();
    if n < 2 || k < 2 {
        return None;
    }
    let var = |vals: &mut dyn Iterator<Item = f64>| {
        let v: Vec<f64> = vals.collect();
        let m = v.iter().sum::<f64>() / n as f64;
        v.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (n as f64 - 1.0)
    };
    let sum_item_var: f64 = cols
        .iter()
        .map(|&j| var(&mut rows.iter().map(|r| r[j])))
        .sum();
    let total_var = var(&mut rows.iter().map(|r| cols.iter().map(|&j| r[j]).sum::<f64>()));
    if total_var <= 0.0 {
        return None;
    }
    Some(k as f64 / (k as f64 - 1.0) * (1.0 - sum_item_var / total_var))
}

/// Computes the classical statistics of `m` (see the module documentation).
///
/// # Examples
/// ```
/// use coglab_core::items::{classical, ResponseMatrix};
/// // Items a = (1,1,0,0), b = (1,0,1,0), c = (1,1,1,0): totals 3,2,2,0.
/// let m = ResponseMatrix::parse_csv("m.csv", b"id,a,b,c\nr1,1,1,1\nr2,1,0,1\nr3,0,1,1\nr4,0,0,0\n").unwrap();
/// let s = classical(&m);
/// assert_eq!(s.items[2].p, Some(0.75));
/// // var a = var b = 1/3, var c = 1/4 (sum 11/12), var of the totals 3,2,2,0 = 19/12:
/// // alpha = 3/2 (1 - (11/12)/(19/12)) = 12/19.
/// assert!((s.alpha.unwrap() - 12.0 / 19.0).abs() < 1e-12);
/// ```
pub fn classical(m: &ResponseMatrix) -> ClassicalStats {
    let (ni, nj) = (m.n_respondents(), m.n_items());
    let counts: Vec<(usize, usize)> = (0..ni).map(|i| m.respondent_counts(i)).collect();
    let mut items = Vec::with_capacity(nj);
    let mut x = Vec::with_capacity(ni);
    let mut y = Vec::with_capacity(ni);
    for j in 0..nj {
        let (mut n, mut right) = (0, 0);
        x.clear();
        y.clear();
        for (i, &(ans, rt)) in counts.iter().enumerate() {
            let Some(v) = m.get(i, j) else { continue };
            n += 1;
            right += usize::from(v);
            if ans >= 2 {
                let xv = f64::from(u8::from(v));
                x.push(xv);
                y.push((rt as f64 - xv) / (ans as f64 - 1.0));
            }
        }
        items.push(ItemClassical {
            n,
            right,
            p: (n > 0).then(|| right as f64 / n as f64),
            point_biserial: pearson(&x, &y),
            alpha_if_deleted: None,
        });
    }
    // Alpha on the complete cases.
    let complete: Vec<Vec<f64>> = (0..ni)
        .filter(|&i| counts[i].0 == nj)
        .map(|i| m.row(i).iter().map(|&c| f64::from(c)).collect())
        .collect();
    let all: Vec<usize> = (0..nj).collect();
    let alpha = alpha_of(&complete, &all);
    if complete.len() >= 2 && nj >= 3 {
        // Without item j: the item variances lose var_j; the total variance is
        // var(T - x_j) = var T + var x_j - 2 cov(T, x_j). O(n k) for all items.
        let n = complete.len() as f64;
        let totals: Vec<f64> = complete.iter().map(|r| r.iter().sum()).collect();
        let mt = totals.iter().sum::<f64>() / n;
        let var_t = totals.iter().map(|t| (t - mt) * (t - mt)).sum::<f64>() / (n - 1.0);
        let mut var_j = vec![0.0; nj];
        let mut cov_j = vec![0.0; nj];
        for j in 0..nj {
            let mj = complete.iter().map(|r| r[j]).sum::<f64>() / n;
            let (mut v, mut c) = (0.0, 0.0);
            for (r, t) in complete.iter().zip(&totals) {
                let d = r[j] - mj;
                v += d * d;
                c += d * (t - mt);
            }
            var_j[j] = v / (n - 1.0);
            cov_j[j] = c / (n - 1.0);
        }
        let sum_var: f64 = var_j.iter().sum();
        let k = (nj - 1) as f64;
        for (j, item) in items.iter_mut().enumerate() {
            let tv = var_t + var_j[j] - 2.0 * cov_j[j];
            item.alpha_if_deleted = (tv > 1e-12 * var_t.max(1.0))
                .then(|| k / (k - 1.0) * (1.0 - (sum_var - var_j[j]) / tv));
        }
    }
    // Letter distributions.
    let mut key_letters = LetterCounts::default();
    let mut key_by_cat: BTreeMap<String, LetterCounts> = BTreeMap::new();
    for it in &m.items {
        if let Some(k) = &it.key {
            key_letters.add(k);
            if let Some(c) = &it.category {
                key_by_cat.entry(c.clone()).or_default().add(k);
            }
        }
    }
    let mut resp = LetterCounts::default();
    let mut resp_by_cat: BTreeMap<String, LetterCounts> = BTreeMap::new();
    let mut resp_by_resp: BTreeMap<String, LetterCounts> = BTreeMap::new();
    if m.has_answers() {
        for i in 0..ni {
            for j in 0..nj {
                if let Some(a) = m.answer(i, j) {
                    resp.add(a);
                    if let Some(c) = &m.items[j].category {
                        resp_by_cat.entry(c.clone()).or_default().add(a);
                    }
                    resp_by_resp
                        .entry(m.respondents[i].id.clone())
                        .or_default()
                        .add(a);
                }
            }
        }
    }
    key_letters.finish();
    resp.finish();
    for v in key_by_cat
        .values_mut()
        .chain(resp_by_cat.values_mut())
        .chain(resp_by_resp.values_mut())
    {
        v.finish();
    }
    ClassicalStats {
        items,
        alpha,
        alpha_n: complete.len(),
        key_letters,
        key_letters_by_category: key_by_cat,
        response_letters: resp,
        response_letters_by_category: resp_by_cat,
        response_letters_by_respondent: resp_by_resp,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn point_biserial_by_hand() {
        // Items a = (1,1,0,0), b = (1,0,1,0), c = (1,1,1,0). Rest of a (b + c): 2,1,2,0.
        // Pearson((1,1,0,0), (2,1,2,0)): means 0.5, 1.25; deviations (.5,.5,-.5,-.5) and
        // (.75,-.25,.75,-1.25): sxy = .375-.125-.375+.625 = .5; sxx = 1; syy = .5625+.0625
        // +.5625+1.5625 = 2.75; r = .5 / sqrt(2.75) = 0.30151134457776363.
        let m = ResponseMatrix::parse_csv(
            "m.csv",
            b"id,a,b,c\nr1,1,1,1\nr2,1,0,1\nr3,0,1,1\nr4,0,0,0\n",
        )
        .unwrap();
        let s = classical(&m);
        approx::assert_abs_diff_eq!(
            s.items[0].point_biserial.unwrap(),
            0.5 / 2.75f64.sqrt(),
            epsilon = 1e-15
        );
        // alpha without c: items a, b: var 1/3 each, totals 2,1,1,0 var = 2/3:
        // 2 (1 - (2/3)/(2/3)) = 0.
        approx::assert_abs_diff_eq!(s.items[2].alpha_if_deleted.unwrap(), 0.0, epsilon = 1e-15);
    }

    /// KR-20 (Kuder and Richardson 1937) by hand, with population variances as in its
    /// textbook form: 5 respondents x 4 items, rows 1110, 1100, 1000, 1111, 0000 (a Guttman
    /// pattern). p = 4/5, 3/5, 2/5, 1/5; sum p q = 4/25 + 6/25 + 6/25 + 4/25 = 4/5. Totals 3, 2,
    /// 1, 4, 0: mean 2, population variance 10/5 = 2. KR-20 = 4/3 (1 - (4/5) / 2) = 4/5. On
    /// 0/1 items Cronbach's alpha with sample variances is the same number (both variances
    /// carry the same n/(n-1)).
    #[test]
    fn alpha_is_kr20_by_hand() {
        let csv = "id,a,b,c,d\nr1,1,1,1,0\nr2,1,1,0,0\nr3,1,0,0,0\nr4,1,1,1,1\nr5,0,0,0,0\n";
        let m = ResponseMatrix::parse_csv("m.csv", csv.as_bytes()).unwrap();
        let s = classical(&m);
        approx::assert_abs_diff_eq!(s.alpha.unwrap(), 0.8, epsilon = 1e-9);
        assert_eq!(s.alpha_n, 5);
    }

    #[test]
    fn key_letters_majority() {
        let mut m = ResponseMatrix::parse_csv("m.csv", b"id,a,b,c\nr1,1,0,1\nr2,0,1,1\n").unwrap();
        for (it, k) in m.items.iter_mut().zip(["C", "A", "C"]) {
            it.key = Some(k.into());
        }
        let s = classical(&m);
        assert_eq!(s.key_letters.majority, Some(("C".to_string(), 2.0 / 3.0)));
    }
}
