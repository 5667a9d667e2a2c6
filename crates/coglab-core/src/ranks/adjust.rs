//! Multiple-comparison adjustment of p-values: Holm's step-down (family-wise error, the
//! default) and Benjamini-Hochberg's step-up (false discovery rate), as statsmodels'
//! `multipletests(p, method="holm")` and `method="fdr_bh"`.

use serde::{Deserialize, Serialize};

/// How the pairwise p-values of a board are adjusted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Adjust {
    /// Holm's step-down method: controls the family-wise error rate (default).
    #[default]
    Holm,
    /// Benjamini-Hochberg: controls the false discovery rate (more pairs separated).
    Bh,
    /// No adjustment.
    None,
}

impl Adjust {
    /// The name used in JSON and on the command line (`holm`, `bh`, `none`).
    pub fn name(self) -> &'static str {
        match self {
            Adjust::Holm => "holm",
            Adjust::Bh => "bh",
            Adjust::None => "none",
        }
    }

    /// Reads `holm`, `bh` (or `fdr_bh`) or `none`.
    pub fn parse(s: &str) -> Option<Self> {
        match s.to_ascii_lowercase().as_str() {
            "holm" => Some(Adjust::Holm),
            "bh" | "fdr_bh" | "benjamini-hochberg" => Some(Adjust::Bh),
            "none" => Some(Adjust::None),
            _ => None,
        }
    }

    /// Adjusts `p` (any order; the result is in the same order).
    ///
    /// # Examples
    /// ```
    /// use coglab_core::ranks::Adjust;
    /// // Holm, m = 3: sorted 0.01, 0.02, 0.04 -> 3·0.01 = 0.03, max(0.03, 2·0.02) = 0.04,
    /// // max(0.04, 1·0.04) = 0.04.
    /// assert_eq!(Adjust::Holm.apply(&[0.04, 0.01, 0.02]), vec![0.04, 0.03, 0.04]);
    /// ```
    pub fn apply(self, p: &[f64]) -> Vec<f64> {
        match self {
            Adjust::Holm => holm(p),
            Adjust::Bh => benjamini_hochberg(p),
            Adjust::None => p.to_vec(),
        }
    }
}

fn order(p: &[f64]) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..p.len()).collect();
    idx.sort_by(|&a, &b| p[a].total_cmp(&p[b]).then(a.cmp(&b)));
    idx
}

/// Holm's step-down adjusted p-values: for the k-th smallest (1-based) p,
/// `max over j <= k of min(1, (m - j + 1) · p_(j))`.
pub fn holm(p: &[f64]) -> Vec<f64> {
    let m = p.len();
    let mut out = vec![0.0; m];
    let mut running: f64 = 0.0;
    for (j, &i) in order(p).iter().enumerate() {
        running = running.max(((m - j) as f64 * p[i]).min(1.0));
        out[i] = running;
    }
    out
}

/// Benjamini-Hochberg adjusted p-values: for the k-th smallest p,
/// `min over j >= k of min(1, m / j · p_(j))`.
pub fn benjamini_hochberg(p: &[f64]) -> Vec<f64> {
    let m = p.len();
    let mut out = vec![0.0; m];
    let idx = order(p);
    let mut running: f64 = 1.0;
    for (j, &i) in idx.iter().enumerate().rev() {
        running = running.min((m as f64 / (j + 1) as f64 * p[i]).min(1.0));
        out[i] = running;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;

    /// Reference: statsmodels 0.14.4
    /// `multipletests([0.01, 0.04, 0.03, 0.005, 0.2, 0.04], method="holm")[1]`
    /// = [0.05, 0.12, 0.12, 0.03, 0.2, 0.12] and `method="fdr_bh"`
    /// = [0.03, 0.048, 0.048, 0.03, 0.2, 0.048].
    /// By hand (Holm): sorted 0.005, 0.01, 0.03, 0.04, 0.04, 0.2 times 6, 5, 4, 3, 2, 1 =
    /// 0.03, 0.05, 0.12, 0.12, 0.08 -> 0.12 (running max), 0.2.
    #[test]
    fn match_statsmodels() {
        let p = [0.01, 0.04, 0.03, 0.005, 0.2, 0.04];
        let h = holm(&p);
        for (a, b) in h.iter().zip([0.05, 0.12, 0.12, 0.03, 0.2, 0.12]) {
            assert_relative_eq!(*a, b, max_relative = 1e-12);
        }
        let bh = benjamini_hochberg(&p);
        for (a, b) in bh.iter().zip([0.03, 0.048, 0.048, 0.03, 0.2, 0.048]) {
            assert_relative_eq!(*a, b, max_relative = 1e-12);
        }
        assert!(holm(&[]).is_empty());
        assert_eq!(holm(&[0.7, 0.9]), vec![1.0, 1.0]);
    }
}
