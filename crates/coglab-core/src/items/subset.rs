//! A reduced item subset that ranks the models as the full benchmark does.
//!
//! Items are taken greedily, best first by a criterion ([`SubsetCriterion`]): the corrected
//! point-biserial, or the IRT information summed at the ranked respondents' abilities (the
//! items that best separate *these* models). With `stratify`, each pick comes from the category
//! furthest below its share of the full benchmark, so the subset keeps the benchmark's mix.
//! After each pick the ranked respondents are scored on the subset (proportion right among the
//! subset items they answered; 0 when they answered none) and compared with their full score by
//! Kendall's tau-b ([`crate::stats::correlation::kendall_tau_b`]). The reported size is the smallest `k` from which tau stays
//! at or above the target for every larger subset in the order.

use super::classical::ClassicalStats;
use super::irt::IrtFit;
use super::matrix::ResponseMatrix;
use super::ItemsError;
use serde::{Deserialize, Serialize};
use std::cmp::Ordering;

/// How items are ranked for the greedy pick.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum SubsetCriterion {
    /// Corrected point-biserial, largest first.
    Discrimination,
    /// IRT item information summed at the ranked respondents' EAP abilities, largest first
    /// (falls back to discrimination without a fit).
    #[default]
    Information,
}

/// Reduced-subset settings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SubsetOptions {
    /// Greedy criterion.
    pub criterion: SubsetCriterion,
    /// Kendall tau-b to keep (default 0.95).
    pub target_tau: f64,
    /// The respondent group ranked (default: `model` when present, else everyone).
    pub group: Option<String>,
    /// Keep each category's share of the benchmark (default true).
    pub stratify: bool,
}

impl Default for SubsetOptions {
    fn default() -> Self {
        Self {
            criterion: SubsetCriterion::Information,
            target_tau: 0.95,
            group: None,
            stratify: true,
        }
    }
}

/// Tau-b of the subset's ranking against the full ranking at one subset size.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct TauPoint {
    /// Items in the subset.
    pub size: usize,
    /// Kendall tau-b (`None` when one side has no variation).
    pub tau: Option<f64>,
}

/// The reduced subset and its tau curve.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SubsetResult {
    /// Criterion used (after any fallback).
    pub criterion: SubsetCriterion,
    /// Target tau.
    pub target_tau: f64,
    /// Respondents ranked.
    pub ranked: Vec<String>,
    /// All items in pick order.
    pub order: Vec<String>,
    /// Tau at each subset size 1..=items.
    pub curve: Vec<TauPoint>,
    /// Smallest size from which tau stays at or above the target (`None`: never, e.g. when
    /// the full scores are all tied).
    pub size: Option<usize>,
    /// The chosen subset (the first `size` items of `order`).
    pub items: Vec<String>,
}

/// Kendall's tau-b, `None` for fewer than two values or a constant side.
///
/// # Examples
/// ```
/// use coglab_core::items::subset::kendall_tau_b;
/// // Pairs (1,1),(2,3),(3,2): 2 concordant, 1 discordant, no ties: (2-1)/3.
/// assert!((kendall_tau_b(&[1.0, 2.0, 3.0], &[1.0, 3.0, 2.0]).unwrap() - 1.0 / 3.0).abs() < 1e-15);
/// assert_eq!(kendall_tau_b(&[1.0, 1.0], &[1.0, 2.0]), None);
/// ```
pub fn kendall_tau_b(x: &[f64], y: &[f64]) -> Option<f64> {
    if x.len() < 2 || x.len() != y.len() {
        return None;
    }
    crate::stats::correlation::kendall_tau_b(x, y)
}

/// Builds the greedy subset and its tau curve (see the module documentation).
///
/// # Errors
/// [`ItemsError::Degenerate`] with fewer than three ranked respondents,
/// [`ItemsError::BadOption`] for a target outside (-1, 1].
pub fn reduced_subset(
    m: &ResponseMatrix,
    cls: &ClassicalStats,
    irt: Option<&IrtFit>,
    opts: &SubsetOptions,
) -> Result<SubsetResult, ItemsError> {
    if !(opts.target_tau > -1.0 && opts.target_tau <= 1.0) {
        return Err(ItemsError::BadOption {
            name: "target_tau",
            expected: "a number in (-1, 1]",
            found: opts.target_tau.to_string(),
        });
    }
    let group = opts
        .group
        .clone()
        .or_else(|| m.groups().contains(&"model").then(|| "model".to_string()));
    let ranked: Vec<usize> = (0..m.n_respondents())
        .filter(|&i| {
            group
                .as_deref()
                .is_none_or(|g| m.respondents[i].group.as_deref() == Some(g))
        })
        .collect();
    if ranked.len() < 3 {
        return Err(ItemsError::Degenerate {
            source_name: m.source.clone(),
            reason: format!(
                "a ranking needs at least three respondents{}, found {}",
                group
                    .as_deref()
                    .map_or(String::new(), |g| format!(" in group {g:?}")),
                ranked.len()
            ),
        });
    }
    let nj = m.n_items();
    let mut criterion = opts.criterion;
    let value: Vec<f64> = match (criterion, irt) {
        (SubsetCriterion::Information, Some(fit)) => (0..nj)
            .map(|j| {
                ranked
                    .iter()
                    .filter_map(|&i| fit.items[j].information(fit.respondents[i].theta?))
                    .sum()
            })
            .collect(),
        _ => {
            criterion = SubsetCriterion::Discrimination;
            cls.items
                .iter()
                .map(|c| c.point_biserial.unwrap_or(f64::NEG_INFINITY))
                .collect()
        }
    };
    let better = |x: &usize, y: &usize| value[*y].total_cmp(&value[*x]).then(x.cmp(y));
    // Order, stratified or not.
    let order: Vec<usize> = if opts.stratify {
        let mut cats: Vec<Option<&str>> = Vec::new();
        let mut lists: Vec<Vec<usize>> = Vec::new();
        for (j, it) in m.items.iter().enumerate() {
            let c = it.category.as_deref();
            let k = match cats.iter().position(|x| *x == c) {
                Some(k) => k,
                None => {
                    cats.push(c);
                    lists.push(Vec::new());
                    cats.len() - 1
                }
            };
            lists[k].push(j);
        }
        for l in &mut lists {
            l.sort_by(better);
        }
        let totals: Vec<usize> = lists.iter().map(Vec::len).collect();
        let mut taken = vec![0usize; lists.len()];
        let mut out = Vec::with_capacity(nj);
        while out.len() < nj {
            // The category furthest below its share; ties: the better next item.
            let mut best: Option<usize> = None;
            for k in 0..lists.len() {
                if taken[k] == totals[k] {
                    continue;
                }
                best = match best {
                    None => Some(k),
                    Some(b) => {
                        let share = |k: usize| taken[k] as f64 / totals[k] as f64;
                        match share(k).total_cmp(&share(b)) {
                            Ordering::Less => Some(k),
                            Ordering::Greater => Some(b),
                            Ordering::Equal => {
                                if better(&lists[k][taken[k]], &lists[b][taken[b]])
                                    == Ordering::Less
                                {
                                    Some(k)
                                } else {
                                    Some(b)
                                }
                            }
                        }
                    }
                };
            }
            let Some(k) = best else { break };
            out.push(lists[k][taken[k]]);
            taken[k] += 1;
        }
        out
    } else {
        let mut o: Vec<usize> = (0..nj).collect();
        o.sort_by(better);
        o
    };
    // Full scores and the curve.
    let full: Vec<f64> = ranked
        .iter()
        .map(|&i| {
            let (n, r) = m.respondent_counts(i);
            if n == 0 {
                0.0
            } else {
                r as f64 / n as f64
            }
        })
        .collect();
    let mut answered = vec![0usize; ranked.len()];
    let mut right = vec![0usize; ranked.len()];
    let mut sub = vec![0.0; ranked.len()];
    let mut curve = Vec::with_capacity(nj);
    for (k, &j) in order.iter().enumerate() {
        for (s, &i) in ranked.iter().enumerate() {
            if let Some(v) = m.get(i, j) {
                answered[s] += 1;
                right[s] += usize::from(v);
            }
            sub[s] = if answered[s] == 0 {
                0.0
            } else {
                right[s] as f64 / answered[s] as f64
            };
        }
        curve.push(TauPoint {
            size: k + 1,
            tau: kendall_tau_b(&sub, &full),
        });
    }
    let mut size = None;
    for p in curve.iter().rev() {
        if p.tau.is_some_and(|t| t >= opts.target_tau - 1e-12) {
            size = Some(p.size);
        } else {
            break;
        }
    }
    let ids: Vec<String> = order.iter().map(|&j| m.items[j].id.clone()).collect();
    Ok(SubsetResult {
        criterion,
        target_tau: opts.target_tau,
        ranked: ranked
            .iter()
            .map(|&i| m.respondents[i].id.clone())
            .collect(),
        items: ids[..size.unwrap_or(0)].to_vec(),
        order: ids,
        curve,
        size,
    })
}

#[cfg(test)]
mod tests {
    use super::super::classical::classical;
    use super::*;

    #[test]
    fn tau_b_with_ties_by_hand() {
        // x = (1,2,2,3), y = (1,2,3,3): pairs (12) C, (13) C, (14) C, (23) x-tie, (24) C,
        // (34) C, no... (34): x 2<3, y 3=3: y-tie. C = 4, D = 0, n0 = 6, x-ties 1, y-ties 1:
        // tau-b = 4 / sqrt(5 * 5) = 0.8.
        let t = kendall_tau_b(&[1.0, 2.0, 2.0, 3.0], &[1.0, 2.0, 3.0, 3.0]).unwrap();
        approx::assert_abs_diff_eq!(t, 0.8, epsilon = 1e-15);
    }

    #[test]
    fn discriminating_items_come_first_and_keep_the_ranking() {
        // Four respondents ranked r1 > r2 > r3 > r4 on the full set (3/4, 2/4, 1/4, 0/4 after
        // the constant item). Item "s" separates them perfectly; "flat" is right for all.
        let csv = "id,flat,s,t,u\nr1,1,1,1,1\nr2,1,1,1,0\nr3,1,1,0,0\nr4,1,0,0,0\n";
        let m = ResponseMatrix::parse_csv("m.csv", csv.as_bytes()).unwrap();
        let cls = classical(&m);
        let opts = SubsetOptions {
            criterion: SubsetCriterion::Discrimination,
            stratify: false,
            ..SubsetOptions::default()
        };
        let s = reduced_subset(&m, &cls, None, &opts).unwrap();
        assert_eq!(s.order.last().map(String::as_str), Some("flat"));
        assert_eq!(s.curve.len(), 4);
        // The full set gives tau 1 (same scores).
        assert_eq!(s.curve[3].tau, Some(1.0));
    }
}
